"""The yes/no answers a deck's analysis asks of every board, decided in one step
(``solver.direct``): ``can_pay_directly`` against ``can_pay``, and the most generic mana a
board pays at once against ``can_pay`` asked N by N."""

from __future__ import annotations

import json
import os

from hypothesis import example, given, reject, settings, strategies as st

from manaplan.model.plan import Payable, Undecided, Unpayable
from manaplan.protocol.mtg import read as parse_request
from manaplan.queries import answer
from manaplan.solver.direct import can_pay_directly, most_generic
from strategies import plain_requests, pool_requests, requests, two_way_requests

#: the most N asked one by one; a board that pays more is left out (``reject``)
MOST_ASKED = 40


def _generic(request: dict, n: int) -> dict:
    """The request's board and player, asking ``can_pay`` of a sorcery costing ``{n}``
    (its kind from the request's spell, and its restrictions none)."""
    spell = {"mana_cost": "{%d}" % n, "type_line": request["spell"].get("type_line", "Sorcery")}
    return {**request, "query": "can_pay", "spell": spell}


def _asked_one_by_one(request: dict):
    """The largest N ``can_pay`` says yes to, asking upward from 0 (more generic mana never
    pays less), or None where some answer is not a plain yes or no."""
    n = 0
    while n <= MOST_ASKED:
        out = answer(parse_request(_generic(request, n)))
        if not isinstance(out, Payable):
            return n - 1 if isinstance(out, Unpayable) else None
        n += 1
    reject()


@given(plain_requests() | pool_requests() | requests())
@example({"spell": {"mana_cost": "{1}"}, "permanents": [], "player": {"pool": "{G}"}}).via("floating mana alone")
@example({"spell": {"mana_cost": "{1}"}, "player": {"pool": ""},
          "permanents": [{"id": "s", "abilities": [{"cost": "{1}, {T}", "add": "{G}{U}"}]},
                         {"id": "f", "abilities": [{"cost": "{T}", "add": "{G}"}]}]}).via("a Signet funded by a land")
def test_most_generic_is_the_largest_n_can_pay_says_yes_to(request):
    """Wherever ``most_generic`` answers, it is the N at which ``can_pay`` of ``{N}``
    turns from yes to no; where the board is plain or of pools (Signets, filter lands),
    it answers (the deck analysis's short cut is taken)."""
    problem = parse_request(_generic(request, 1))
    found = most_generic(problem)
    asked = _asked_one_by_one(request)
    if found is not None:
        assert asked is not None and found == asked


@given(st.one_of(plain_requests(), pool_requests()))
def test_most_generic_answers_on_plain_boards_and_boards_of_pools(request):
    """On the boards the deck analysis meets most (lands, Signets, filter lands, mana
    rocks and creatures, each {T}), ``most_generic`` answers rather than leaving it to
    ``can_pay`` N by N, unless a permanent's ability leaves the class (a restriction, life
    paid, a sacrifice)."""
    outside = any(a.get("restrict") or "life" in a["cost"] or "Sacrifice" in a["cost"]
                  for p in request["permanents"] for a in p["abilities"])
    found = most_generic(parse_request(_generic(request, 1)))
    if not outside:
        assert found is not None
        assert found == _asked_one_by_one(request)


def test_most_generic_leaves_costs_with_more_than_generic_mana_to_can_pay():
    """A cost that is not generic mana alone as printed (a colored symbol, an increase, a
    reduction, a floor) is asked N by N: None."""
    board = [{"id": "f", "abilities": [{"cost": "{T}", "add": "{G}"}]}]
    for spell in ({"mana_cost": "{G}"}, {"mana_cost": "{2}", "increase": ["{1}"]}, {"mana_cost": "{2}", "reduce": ["{1}"]},
                  {"mana_cost": "{1}", "minimum": 3}):
        assert most_generic(parse_request({"query": "can_pay", "spell": spell, "permanents": board})) is None
    assert most_generic(parse_request({"query": "can_pay", "spell": {"mana_cost": "{2}"}, "permanents": board})) == 1


def test_most_generic_leaves_a_board_with_text_not_read_to_can_pay():
    """Card text that could change what permanents make, not read (Illusionary Terrain),
    makes every answer uncertain (``payable: null``): asked N by N, each says so;
    ``most_generic`` says None, and the deck analysis asks N by N."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "board_text_cards.json")) as f:
        cards = json.load(f)
    request = {"query": "can_pay", "spell": {"mana_cost": "{1}"},
               "permanents": [{"id": "i", "card": cards["Island"]}, {"id": "t", "card": cards["Illusionary Terrain"]}]}
    assert isinstance(answer(parse_request(request)), Undecided)
    assert most_generic(parse_request(request)) is None


@given(plain_requests() | two_way_requests() | pool_requests() | requests())
@example({"spell": {"mana_cost": "{G}{U}"}, "player": {"pool": ""},
          "permanents": [{"id": "s", "abilities": [{"cost": "{1}, {T}", "add": "{G}{U}"}]},
                         {"id": "f", "abilities": [{"cost": "{T}", "add": "{C}"}]}]}).via("a Signet funded by a land")
def test_can_pay_directly_is_can_pay_s_yes_or_no(request):
    """Wherever ``can_pay_directly`` decides, ``can_pay`` (the planner's whole round: its
    wrappers for text not read, the spell's choices) says the same yes or no."""
    problem = parse_request({**request, "query": "can_pay"})
    found = can_pay_directly(problem)
    if found is not None:
        out = answer(parse_request({**request, "query": "can_pay"}))
        assert isinstance(out, (Payable, Unpayable)) and isinstance(out, Payable) == found


@given(plain_requests() | two_way_requests() | pool_requests())
def test_can_pay_directly_decides_plain_boards_and_boards_of_pools(request):
    """On lands, Signets, filter lands and mana creatures ({T} abilities), with plain,
    hybrid, twobrid and Phyrexian costs, ``can_pay_directly`` decides (the deck analysis's
    short cut is taken), unless an ability leaves the class (a restriction, life paid, a
    sacrifice), or the cost has hybrid symbols and reductions (which half is announced
    changes what the reductions take: the general model's)."""
    outside = any(a.get("restrict") or "life" in a["cost"] or "Sacrifice" in a["cost"]
                  for p in request["permanents"] for a in p["abilities"])
    spell = request["spell"]
    if not outside and not (spell.get("reduce") and "/" in spell["mana_cost"]):
        assert can_pay_directly(parse_request({**request, "query": "can_pay"})) is not None


def _by_group(problem, ids) -> tuple:
    """How many of each group of alike permanents ``ids`` holds."""
    from manaplan.solver.supply import build_supply

    return tuple(sum(1 for pid in ids if pid in group.ids) for group in build_supply(problem).groups)


@settings(max_examples=300)
@given(pool_requests() | plain_requests())
@example({"spell": {"mana_cost": "{2}"}, "player": {"pool": ""},
          "permanents": [{"id": "f", "abilities": [{"cost": "{T}", "add": "{G}"}]},
                         {"id": "s", "abilities": [{"cost": "{1}, {T}", "add": "{G}{U}"}]},
                         {"id": "i", "abilities": [{"cost": "{T}", "add": "{U}"}]}]}).via("lands before the Signet")
@example({"spell": {"mana_cost": "{G}{G}{U}"}, "player": {"pool": ""},
          "permanents": [{"id": "f", "abilities": [{"cost": "{T}", "add": "{G}"}]},
                         {"id": "s", "abilities": [{"cost": "{1}, {T}", "add": "{G}{U}"}]},
                         {"id": "i", "abilities": [{"cost": "{T}", "add": "{U}"}]}]}).via("the Island pays the Signet")
def test_the_outcome_forced_on_every_best_plan_is_the_planners(request):
    """Where ``forced_outcome`` says every best plan taps as many of each group and
    leaves the same mana floating, the planner's plan (CP-SAT's or the plain path's) does
    so; where it says no plan pays, the planner proves that."""
    from manaplan.model.plan import Plan
    from manaplan.model.symbols import MANA_TYPES
    from manaplan.solver.direct import forced_outcome

    ask = {**request, "query": "pay"}
    found = forced_outcome(parse_request(ask))
    if found is None:
        return
    out = answer(parse_request(ask))
    if found is False:
        assert isinstance(out, Unpayable)
        return
    assert isinstance(out, Plan) and out.optimal
    tapped, left = found
    problem = parse_request(ask)
    assert _by_group(problem, out.tapped) == _by_group(problem, [pid for ids, n in tapped for pid in ids[:n]])
    assert tuple(sum(1 for u in out.floating if u.type == t) for t in MANA_TYPES) == left


@given(st.lists(st.tuples(*[st.integers(0, 9)] * 4), max_size=30))
def test_the_pools_kept_are_the_vectors_no_other_holds(vectors):
    """``solver.pools._maximal`` (compared as packed integers) keeps exactly the vectors no
    other one has at least as much of in every place: the pools the search and
    ``most_generic`` read."""
    from manaplan.solver.pools import _maximal

    distinct = set(vectors)
    expected = {v for v in distinct if not any(o != v and all(a >= b for a, b in zip(o, v)) for o in distinct)}
    assert set(_maximal(vectors)) == expected
    assert len(_maximal(vectors)) == len(expected)
