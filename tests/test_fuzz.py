"""Properties of the planner against the reference search (hypothesis).

Every plan is replayed by the validator; payability and the optimum of the protocol's
objective must equal the exhaustive reference search's; every "unpayable" carries a
certificate its checker accepts; and the answer behaves as the rules say it must when
the board, the life total or the cost changes.
"""

import copy

from hypothesis import assume, example, given, reject, settings, strategies as st

from manaplan.model.errors import SearchTooLarge
from manaplan.model.plan import UNREAD_ABILITIES, Payable, Plan, Undecided, Unpayable
from manaplan.protocol.mtg import read as parse_request
from manaplan.queries import answer
from manaplan.solver.proof import check_certificate
from manaplan.solver.checks.reference import plan_objective, reference_optimum
from manaplan.solver.checks.validator import validate_plan
from manaplan.solver.hall import can_pay_plain
from manaplan.solver.plain import NO_WAY_PAYS, plain_lane, plain_payment
from manaplan.solver.pools import pool_can_pay
from manaplan.solver.supply import build_supply, groups_as_built
from strategies import (MOST_PERMANENTS, has_converter, has_doubling, plain_requests, pool_requests, requests,
                        two_way_requests)


#: states the reference search may visit per example; the rare larger board is skipped
#: (``reject``), so long fuzz runs don't stall on one board
MAX_REFERENCE_STATES = 50_000


def reference(problem):
    try:
        return reference_optimum(problem, MAX_REFERENCE_STATES)
    except SearchTooLarge:
        reject()


def solve(request):
    problem = parse_request(request)
    return problem, answer(problem)


def check_answer(problem, out):
    if isinstance(out, Undecided) and out.code == UNREAD_ABILITIES:  # a "no" made uncertain: text not read,
        assert problem.board.unread  # or a conservative count (an altar that may itself be sacrificed)
        return
    assert isinstance(out, (Plan, Unpayable)), out
    if isinstance(out, Plan):
        assert validate_plan(problem, out) == []
        assert out.optimal is True
    else:
        assert check_certificate(problem, out) is True, out


def payable(out) -> bool:
    return isinstance(out, (Plan, Payable))


@given(requests())
@settings(max_examples=max(settings.default.max_examples, 300))  # the fuzz profile's count stands
@example({"spell": {"mana_cost": "{1}", "additional": ["{1}"], "reduce": ["{1}"]},  # mutation check:
          "player": {"pool": "{R}"},                                                # {C} paid by R
          "permanents": [{"id": "p0", "abilities": [{"cost": "{C}, Sacrifice this", "add": "{C}{C}"}]}]})
@example({"spell": {"mana_cost": "{2}{W}"}, "player": {"life": 0}, "permanents": [  # damage beyond the life
    {"id": "p0", "tapped": True, "abilities": [{"cost": "{1}", "add": "{W}"}]},         # total weighed as much
    {"id": "p1", "counters": {"charge": 1}, "abilities": [                             # as a sacrifice
        {"cost": "{1}", "add": "{W}"},
        {"cost": "{T}, Sacrifice this, Remove a charge counter from this", "add": "{C}{C}", "damage": 1}]},
    {"id": "p2", "abilities": [{"cost": "{C}, {T}, Sacrifice this", "add": "{C}{C}"},
                               {"cost": "{T}", "add": "{W}", "damage": 1}]}]})
@example({"spell": {"mana_cost": "{R}{R}"}, "player": {"pool": "{G}"}, "permanents": [  # Orochi Leafcaller
    {"id": "leaf", "abilities": [{"cost": "{G}", "add": "any"}]}, {"id": "f", "abilities": [{"cost": "{T}", "add": "{G}"}]}]})
@example({"spell": {"mana_cost": "{C}{C}{C}"}, "permanents": [  # a converter paid with its own mana
    {"id": "p0", "abilities": [{"cost": "Sacrifice this", "add": "{U}{B}"}]},
    {"id": "p1", "abilities": [{"cost": "{2}", "add": "{C}{C}"}, {"cost": "{T}", "add": "{W}"}]}]})
@example({"spell": {"mana_cost": "{U}{R}"}, "player": {"pool": "{C}"}, "permanents": [  # tap, then sacrifice
    {"id": "a", "abilities": [{"cost": "{1}, {T}", "add": "{U}{B}"}, {"cost": "Sacrifice this", "add": "{R}"}]}]})
@example({"spell": {"mana_cost": "{W}"}, "permanents": [  # nothing after a sacrifice
    {"id": "a", "abilities": [{"cost": "Sacrifice this", "add": "{R}"}, {"cost": "{R}", "add": "{W}"}]}]})
@example({"spell": {"mana_cost": "{W/B}{W/B}"}, "permanents": [
    {"id": "h", "abilities": [{"cost": "{W/B}, {T}", "add": ["{W}{W}", "{W}{B}", "{B}{B}"]}]},
    {"id": "h2", "abilities": [{"cost": "{W/B}, {T}", "add": ["{W}{W}", "{W}{B}", "{B}{B}"]}]}]})
@example({"spell": {"mana_cost": "{6}"}, "permanents": [{"id": "l", "abilities": [{"cost": "{T}", "add": "{C}"}]}] + [
    {"id": f"s{i}", "abilities": [{"cost": "{1}, {T}", "add": "{U}{B}"}]} for i in range(5)]})
@example({"spell": {"mana_cost": "{U}", "additional": ["{U/P}"], "reduce": ["{U}", "{U}"]},  # reduction
          "permanents": []})                                                           # domain too small
@example({"spell": {"mana_cost": "{G}{U}{U}"}, "permanents": [  # review: a free sacrifice waits for its
    {"id": "plains", "type_line": "Basic Land — Plains"},          # permanent's costly tap, so the chain
    {"id": "p", "abilities": [{"cost": "{W}, {T}", "add": "{G}"},  # is 2 deep, not 1 (the depth bound)
                              {"cost": "Sacrifice this", "add": "{R}"}]},
    {"id": "q", "abilities": [{"cost": "{R}, {T}", "add": "{U}{U}"}]}]})
@example({"spell": {"mana_cost": "{G}{B}{B}"}, "permanents": [  # the same with a costly sacrifice
    {"id": "wastes", "abilities": [{"cost": "{T}", "add": "{C}"}]}, {"id": "island", "type_line": "Basic Land — Island"},
    {"id": "x", "abilities": [{"cost": "{C}, {T}", "add": "{W}"}]},
    {"id": "p", "abilities": [{"cost": "{W}, {T}", "add": "{G}"}, {"cost": "{U}, Sacrifice this", "add": "{R}"}]},
    {"id": "c", "abilities": [{"cost": "{R}, {T}", "add": "{B}{B}"}]}]})
@example({"spell": {"mana_cost": "{R}{R}"}, "player": {"life": 1}, "permanents": [  # Pay the life
    {"id": "c", "abilities": [{"cost": "{T}, Pay 1 life", "add": "any"}]},                 # before the damage
    {"id": "p", "abilities": [{"cost": "{T}", "add": "{R}", "damage": 1}]}]})
@example({"spell": {"mana_cost": "{U}{U}{R}"}, "player": {"life": 1}, "permanents": [  # a payment funded by
    {"id": "w", "abilities": [{"cost": "{T}", "add": "{R}"}]},                           # a free land waits
    {"id": "s", "abilities": [{"cost": "{R}, {T}, Pay 1 life", "add": "{U}{U}"}]},         # for no damage
    {"id": "p", "abilities": [{"cost": "{T}", "add": "{R}", "damage": 1}]}]})
@example({"spell": {"mana_cost": "{G}{R}"}, "player": {"life": 1}, "permanents": [  # a sacrifice paying life,
    {"id": "t", "abilities": [{"cost": "Sacrifice this, Pay 1 life", "add": "any"}]},   # then a pain land
    {"id": "p", "abilities": [{"cost": "{T}", "add": "{R}", "damage": 1}]}]})
@example({"spell": {"mana_cost": "{G}{G}"}, "permanents": [  # Nykthos counts the Cantor, then the
    {"id": "n", "type_line": "Legendary Land", "abilities": [                           # Cantor is sacrificed
        {"cost": "{2}, {T}", "add": {"for_each": "devotion", "mana": "any"}}]},
    {"id": "c", "type_line": "Creature", "mana_cost": "{R/G}", "abilities": [{"cost": "Sacrifice this", "add": "any"}]},
    {"id": "w", "abilities": [{"cost": "{T}", "add": "{C}{C}"}]}]})
@example({"spell": {"mana_cost": "{1}{W}{U/B}{1}", "type_line": "Instant"}, "player": {"life": 2, "pool": "{C}"}, "permanents": [{"id": "p0", "abilities": [{"cost": "{W/P}, {T}", "add": "{U}"}, {"cost": "Pay 2 life", "add": {"for_each": "Forest", "mana": "{G}"}}], "type_line": "Snow Land — Forest"}, {"id": "p1", "abilities": [{"cost": "{1}, {T}, Remove a charge counter from this", "add": "{B}"}, {"cost": "{T}, Remove a charge counter from this", "add": {"combination": 2}, "damage": 1}], "type_line": "Land — Forest", "counters": {"charge": 0}}, {"id": "p2", "abilities": [{"cost": "{1}, {T}", "add": "{U}{B}"}, {"cost": "{U}, Sacrifice this", "add": "any"}], "type_line": "Land — Forest"}]})  # fuzz: sacrificing first makes a count smaller, and floats less
@example({"spell": {"mana_cost": "{G}{B}", "type_line": "Creature — Elf", "increase": ["{1}"], "reduce": ["{W}", "{C/W}"]}, "player": {"life": 20, "pool": "{W}{U}"}, "permanents": [{"id": "count", "type_line": "Legendary Land", "abilities": [{"cost": "{T}", "add": {"for_each": "creature", "mana": "{G}"}}]}, {"id": "cantor0", "type_line": "Creature — Human Druid", "colors": ["G"], "mana_cost": "{G}{G}", "abilities": [{"cost": "{1}, Sacrifice this", "add": "any"}]}, {"id": "cantor1", "type_line": "Creature — Human Druid", "colors": ["G"], "mana_cost": "{R/G}", "abilities": [{"cost": "{1}, Sacrifice this", "add": "{C}"}]}]})  # fuzz: a count after a costly sacrifice, in the relaxed tail
@example({'spell': {'mana_cost': '{B}{W/U}{W/P}', 'type_line': 'Creature — Elf', 'improvise': True}, 'player': {'life': 1, 'pool': '{R}'}, 'permanents': [{'id': 'p0', 'abilities': [{'cost': '{T}, Pay 2 life, Remove a charge counter from this', 'add': '{C}{C}'}, {'cost': '{T}, Pay 2 life', 'add': ['{W}', '{U}']}], 'type_line': 'Land — Forest', 'counters': {'charge': 0}}, {'id': 'p1', 'abilities': [{'cost': '{C}, {T}, Pay 1 life', 'add': {'for_each': 'devotion', 'mana': 'any'}}, {'cost': 'Pay 2 life, Remove a charge counter from this', 'add': {'any': 2}, 'restrict': 'creature spells', 'instant_only': True, 'damage': 1}], 'type_line': 'Land', 'tapped': True, 'counters': {'charge': 2}}, {'id': 'p2', 'abilities': [{'cost': '{W}, {T}', 'add': '{G}'}, {'cost': 'Sacrifice this', 'add': '{R}'}], 'type_line': 'Land'}, {'id': 'ld0', 'type_line': 'Land', 'abilities': [{'cost': '{T}, Pay 1 life', 'add': 'any'}]}, {'id': 'count', 'type_line': 'Legendary Land', 'abilities': [{'cost': '{2}, {T}', 'add': {'for_each': 'devotion', 'mana': 'any'}}]}, {'id': 'cantor0', 'type_line': 'Creature — Human Druid', 'colors': ['G'], 'mana_cost': '{G}', 'abilities': [{'cost': 'Sacrifice this', 'add': 'any'}]}, {'id': 't', 'type_line': 'Enchantment', 'abilities': [], 'triggers': [{'when': 'tapped', 'of': 'enchanted', 'add': 'any'}], 'chosen_color': 'U', 'attached_to': 'count'}], 'hand': [{'id': 'h0', 'mana_cost': '{U}{U}'}]})  # fuzz: a count cut to nothing can't set off its Aura's trigger (no mana made)
@example({"spell": {"mana_cost": "{2}", "additional": ["{1}"]}, "player": {"pool": "{R}"}, "permanents": [
    {"id": "p0", "abilities": [], "type_line": "Creature — Elf", "tapped": True},  # fuzz: a free doubling first
    {"id": "altar", "type_line": "Artifact", "abilities": [{"cost": "Sacrifice a creature", "add": "any"}]},  # and
    {"id": "cube", "type_line": "Artifact", "abilities": [{"cost": "{T}", "add": "double"}]}]})  # the sacrifice after
@example({"spell": {"mana_cost": "{C/U}{1}{C/U}{W/P}", "increase": ["{1}"], "reduce": ["{W}"], "minimum": 3,
                    "delve": True}, "player": {"life": 0, "energy": 1, "graveyard": 1}, "permanents": [
    {"id": "p0", "abilities": [{"cost": "{T}", "add": "{W}"}, {"cost": "Sacrifice this", "add": "{W}"}],
     "type_line": "Land — Forest"},
    {"id": "p1", "abilities": [], "type_line": "Artifact"},  # fuzz: an altar may sacrifice the Cube, after
    {"id": "altar", "type_line": "Creature — Elf", "abilities": [{"cost": "Sacrifice an artifact", "add": "any"}]},
    {"id": "cube", "type_line": "Snow Artifact", "abilities": [{"cost": "{T}", "add": "double"}]}]})  # its doubling
# fuzz: a count that sacrifices its own land (devotion 1, from the Cantor), then the altar
# sacrifices the Cantor a layer later; the relaxed tail took that sacrifice as made before
# the count: a wrong "no"
@example({"spell": {"mana_cost": "{2}{G}"}, "permanents": [
    {"id": "p1", "type_line": "Land", "abilities": [{"cost": "Sacrifice this", "add": "{R}"}]},
    {"id": "p2", "type_line": "Land", "abilities": [{"cost": "{1}, Sacrifice this",
                                                     "add": {"for_each": "devotion", "mana": "any"}}]},
    {"id": "cantor", "type_line": "Creature — Human Druid", "colors": ["G"], "mana_cost": "{R/G}",
     "abilities": [{"cost": "Sacrifice this", "add": "any"}]},
    {"id": "altar", "type_line": "Artifact", "abilities": [{"cost": "Sacrifice a creature", "add": "{C}{C}"}]}]})
def test_agrees_with_reference_search(request):
    problem, out = solve(request)
    check_answer(problem, out)
    best = reference(problem)
    assert payable(out) == (best is not None)
    if best is not None:
        assert plan_objective(problem, out) == best


@given(requests(max_permanents=3), st.data())
def test_adding_a_source_never_hurts(request, data):
    problem, out = solve(request)
    bigger = copy.deepcopy(request)
    extra = data.draw(requests(max_permanents=1).map(lambda r: r["permanents"]))
    for p in extra:
        p["id"] = "extra_" + p["id"]
        if "attached_to" in p:
            p["attached_to"] = "extra_" + p["attached_to"]
    bigger["permanents"] += extra
    assume(len(bigger["permanents"]) <= MOST_PERMANENTS)  # every "no" checked by the reference search
    assume(not (has_doubling(bigger["permanents"]) and has_converter(bigger["permanents"])))  # (strategies)
    problem2, out2 = solve(bigger)
    check_answer(problem2, out2)
    if payable(out):
        assert payable(out2) or isinstance(out2, Undecided) and out2.code == UNREAD_ABILITIES


@given(requests(max_permanents=3))
@example({"spell": {"mana_cost": "{1}", "increase": ["{1}"]}, "player": {"life": 0}, "permanents": [  # more
    {"id": "p1", "type_line": "Snow Land", "abilities": [                                          # life, more
        {"cost": "{T}", "add": "{C}{C}", "damage": 1},                                              # flexible
        {"cost": "{T}, Pay 1 life, Sacrifice this", "add": "{W}", "damage": 1}]}]})
def test_more_life_never_hurts(request):
    problem, out = solve(request)
    richer = copy.deepcopy(request)
    richer["player"]["life"] = request["player"]["life"] + 4
    problem2, out2 = solve(richer)
    check_answer(problem2, out2)
    if payable(out):
        assert payable(out2)
        # every old plan is still legal and scores the same on sacrifices, life, taps and
        # exiles; flexibility may not compare: an ability usable only with more life
        # makes its permanent count as more flexible
        assert plan_objective(problem2, out2)[:4] <= plan_objective(problem, out)[:4]


@given(requests(max_permanents=3))
@example({"spell": {"mana_cost": "{U}", "type_line": "Instant", "increase": ["{1}"], "reduce": ["{1}"]},  # a U
          "player": {"pool": "{R}"}, "permanents": [                                                # restricted
    {"id": "p0", "abilities": [{"cost": "{W}, {T}", "add": "{G}"}, {"cost": "Sacrifice this", "add": "{R}"}]},  # and
    {"id": "p1", "type_line": "Snow Land", "chosen_color": "U",                             # a U not, from
     "abilities": [{"cost": "{2}, {T}", "add": "{U}", "restrict": "instant spells", "damage": 1}],  # one source:
     "triggers": [{"when": "adds", "of": "land", "produces": "chosen", "add": "chosen"}]}]})  # which one floats
# fuzz: the wrong "no" of a count that sacrifices its own land, here instant-only (activated
# before casting), with convoke and improvise
@example({"spell": {"mana_cost": "{1}{2}{G}", "type_line": "Creature — Elf", "additional": ["{1}"], "increase": ["{1}"],
                    "reduce": ["{1}"], "convoke": True, "improvise": True}, "permanents": [
    {"id": "p1", "type_line": "Snow Land", "tapped": True,
     "abilities": [{"cost": "{W}, {T}", "add": "{G}"}, {"cost": "Sacrifice this", "add": "{R}"}]},
    {"id": "p2", "type_line": "Snow Land", "tapped": True, "abilities": [
        {"cost": "{1}, Sacrifice this", "add": {"for_each": "devotion", "mana": "any"}, "instant_only": True, "damage": 1}]},
    {"id": "cantor0", "type_line": "Creature — Human Druid", "colors": ["G"], "mana_cost": "{R/G}",
     "abilities": [{"cost": "Sacrifice this", "add": "any"}]},
    {"id": "altar", "type_line": "Artifact", "abilities": [{"cost": "Sacrifice a creature", "add": "{C}{C}"}]}]})
def test_a_cheaper_cost_never_hurts(request):
    problem, out = solve(request)
    cheaper = copy.deepcopy(request)
    cheaper["spell"]["reduce"] = cheaper["spell"].get("reduce", []) + ["{1}"]
    problem2, out2 = solve(cheaper)
    check_answer(problem2, out2)
    if payable(out):
        assert payable(out2)


@given(requests(max_permanents=4), st.randoms(use_true_random=False))
def test_order_of_permanents_does_not_matter(request, rnd):
    problem, out = solve(request)
    shuffled = copy.deepcopy(request)
    rnd.shuffle(shuffled["permanents"])
    problem2, out2 = solve(shuffled)
    assert payable(out) == payable(out2)
    if payable(out):
        assert plan_objective(problem, out) == plan_objective(problem2, out2)


@given(requests(max_permanents=5))
def test_can_pay_agrees_with_pay(request):
    """The Hall fast path (and its fallback) answers exactly what the full planner does."""
    problem, out = solve(request)
    quick = answer(parse_request({**request, "query": "can_pay"}))
    assert isinstance(quick, (Payable, Unpayable))
    assert payable(quick) == payable(out)
    if isinstance(quick, Unpayable):
        assert check_certificate(problem, quick) is True


@given(plain_requests())
def test_hall_check_is_exact_on_plain_boards(request):
    problem, out = solve(request)
    fast = can_pay_plain(problem, build_supply(problem))
    if fast is None:  # hybrid symbols with reductions: the announcement matters, not plain
        assert "/" in request["spell"]["mana_cost"] and request["spell"].get("reduce")
        return
    assert fast == payable(out)
    if not payable(out):
        assert out.code in ("not_enough_mana", "needs_activation_before_casting")
        assert check_certificate(problem, out) is True


@given(plain_requests())
@example({"spell": {"mana_cost": "{W/U}{W/U}{1}"}, "player": {"pool": "{C}{U}"}, "permanents": [
    {"id": "a", "abilities": [{"cost": "{T}", "add": "{W}"}, {"cost": "{T}", "add": "{U}"}]},
    {"id": "b", "abilities": [{"cost": "{T}", "add": "any"}]}]})
@example({"spell": {"mana_cost": "{G}", "type_line": "Instant"}, "permanents": [  # review: the plain plan
    {"id": "t", "abilities": [{"cost": "{T}", "add": "{G}", "restrict": "creature spells"},  # used a restricted
                              {"cost": "{T}", "add": "{G}"}]}]})                             # ability
@example({"spell": {"mana_cost": "{0}"}, "permanents": []})  # nothing to pay, nothing to pay with
@example({"spell": {"mana_cost": "{1}", "increase": ["{1}"]}, "player": {"life": 0, "pool": "{R}"},  # tapped
          "permanents": [{"id": "p0", "type_line": "Land", "abilities": [                            # with an
              {"cost": "Pay 1 life, Sacrifice this", "add": "{W}", "restrict": "creature spells"},  # ability it
              {"cost": "{T}", "add": "{W}"}]}]})                                                     # can't use
def test_plain_path_matches_the_general_model(request):
    """The transport of solver/plain.py (a matroid greedy, no CP-SAT) is a shortcut: on
    every plain board it must reach the general model's optimum and the reference
    search's, with a plan the validator accepts."""
    problem = parse_request(request)
    fast = plain_payment(problem, build_supply(problem))
    general = answer(problem, plain_path=False)
    if fast is None:
        return
    if fast is NO_WAY_PAYS:  # (no announcement of a two-way cost pays: a "no")
        assert not payable(general) and reference(problem) is None
        return
    assert payable(fast) == payable(general)
    if payable(fast):
        assert validate_plan(problem, fast) == []
        assert fast.optimal and general.optimal
        assert plan_objective(problem, fast) == plan_objective(problem, general) == reference(problem)
    else:
        assert check_certificate(problem, fast) is True
        best = reference(problem)
        assert best is None


@given(plain_requests() | requests(), st.booleans())
@example({"spell": {"mana_cost": "{1}{G}"}, "permanents": [
    {"id": "a", "abilities": [{"cost": "{T}", "add": "{G}"}]}, {"id": "b", "abilities": [{"cost": "{T}", "add": "{U}"}]},
    {"id": "c", "abilities": [{"cost": "{T}", "add": "{G}"}]}]}, False).via("twins apart: one group, in order")
@example({"spell": {"mana_cost": "{G}"}, "permanents": [
    {"id": "a", "abilities": [{"cost": "{T}", "add": "{G}"}]}, {"id": "b", "abilities": [{"cost": "{T}", "add": "{U}"}]},
    {"id": "c", "type_line": "Basic Land — Forest"}]}, False).via("two groups making the same: the first tapped")
@example({"spell": {"mana_cost": "{1}"}, "permanents": [
    {"id": "a", "abilities": [{"cost": "{T}", "add": "{G}", "instant_only": True}]},
    {"id": "b", "abilities": [{"cost": "{T}", "add": "{U}"}]}]}, True).via("an ability for before casting: "
                                                                            "the general planner's hint")
def test_the_plain_lane_plans_as_the_supply_does(request, mid_cast):
    """The plain lane (solver.plain.plain_lane: the groups' acts as built, no supply)
    is a shortcut: where it answers, its plan is the one the plain path finds from the
    supply, to the permanent tapped and the order of the steps; where the plain path
    finds a plan on a board without floating mana or restrictions, it answers."""
    problem = parse_request({**request, "mid_cast": mid_cast})
    lane = plain_lane(problem)
    from_supply = plain_payment(problem, build_supply(problem))
    if lane is not None:
        assert lane == from_supply
    elif isinstance(from_supply, Plan) and not problem.player.pool:  # (only what depends on the rest is left)
        assert groups_as_built(problem) is None or problem.board.any_color_spending or problem.prefer.gone


@given(two_way_requests())
def test_twobrid_and_phyrexian_costs_on_the_plain_path_match_the_general_model(request):
    """A twobrid or Phyrexian symbol is a choice the fast path makes (each way to
    announce them a plain cost, paid by the transport); its plan must reach the general
    model's optimum and the reference search's, life included (paying down to exactly 0 is
    legal, CR 119.4), and can_pay must agree."""
    problem = parse_request(request)
    supply = build_supply(problem)
    fast = plain_payment(problem, supply)
    general = answer(problem, plain_path=False)
    best = reference(problem)
    quick = answer(parse_request({**request, "query": "can_pay"}))
    assert payable(quick) == payable(general) == (best is not None)
    if fast is None:  # (not plain)
        return
    if fast is NO_WAY_PAYS:  # (no announcement pays: proven without the general model)
        assert not payable(general) and answer(problem) == general
        return
    assert payable(fast) and payable(general)
    assert validate_plan(problem, fast) == []
    assert fast.optimal and general.optimal
    assert plan_objective(problem, fast) == plan_objective(problem, general) == best


def test_the_pools_leave_a_board_of_many_different_converters_to_the_general_model():
    """Review: four different Signets and four different filter lands beside
    basics made the pools' search run for a minute (its states grow with the converters'
    variety; the general model's do not): past its bounds it says None at once, and the
    general model answers."""
    basics = ["Plains", "Island", "Swamp", "Mountain", "Forest", "Plains", "Island", "Swamp"]
    permanents = [{"id": f"b{i}", "type_line": f"Basic Land — {name}"} for i, name in enumerate(basics)]
    permanents += [{"id": f"s{i}", "abilities": [{"cost": "{1}, {T}", "add": pair}]}
                   for i, pair in enumerate(["{W}{U}", "{U}{B}", "{B}{R}", "{R}{G}"])]
    permanents += [{"id": f"f{i}", "abilities": [{"cost": "{T}", "add": "{C}"}, {"cost": "{%s/%s}, {T}" % (a, b),
                                                  "add": ["{%s}{%s}" % (a, a), "{%s}{%s}" % (a, b), "{%s}{%s}" % (b, b)]}]}
                   for i, (a, b) in enumerate(["WU", "BR", "GW", "UB"])]
    permanents.append({"id": "sol", "abilities": [{"cost": "{T}", "add": "{C}{C}"}]})
    request = {"query": "can_pay", "spell": {"mana_cost": "{W}{W}{U}{U}{B}{B}{6}"}, "permanents": permanents}
    problem = parse_request(request)
    assert pool_can_pay(problem, build_supply(problem)) is None
    assert isinstance(answer(parse_request(request)), Payable)


@given(plain_requests() | two_way_requests(), st.integers(1, 2))
@example({"spell": {"mana_cost": "{1}", "x": 0, "reduce": ["{1}", "{1}"]}, "permanents": [], "player": {"pool": ""}},
         1).via("reductions pay an X the board has no mana for")
def test_max_x_on_a_plain_board_by_halls_condition_is_the_general_model_s(request, xs):
    """On a plain board max_x is found by Hall's condition at each X (no
    CP-SAT), twobrid and Phyrexian symbols announced within the life total; the X must be
    the general model's, and the plan a valid one at that X."""
    spell = {k: v for k, v in request["spell"].items() if k != "x"}
    spell["mana_cost"] = "{X}" * xs + spell["mana_cost"].replace("{X}", "")
    ask = {**request, "query": "max_x", "spell": spell}
    fast = answer(parse_request(ask))
    general = answer(parse_request(ask), plain_path=False)
    assert payable(fast) == payable(general)
    if payable(fast):
        assert fast.x == general.x
        assert validate_plan(parse_request(ask), fast) == []
    else:
        assert check_certificate(parse_request({**ask, "query": "pay", "spell": {**spell, "x": 0}}), fast) is True


@given(pool_requests())
def test_the_pools_a_board_makes_decide_can_pay_as_the_general_model_does(request):
    """On boards of {T} abilities that cost mana or add several (Signets, filter
    lands, bounce lands), can_pay is read off the pools the board can make
    (solver.pools, no CP-SAT); it must say what the general model and the reference
    search say, life included (CR 119.4), and a "no" must carry a proof that checks."""
    problem = parse_request(request)
    fast = pool_can_pay(problem, build_supply(problem))
    quick = answer(parse_request({**request, "query": "can_pay"}))
    general = answer(problem, plain_path=False)
    best = reference(problem)
    assert payable(quick) == payable(general) == (best is not None)
    if fast is not None:
        assert fast == (best is not None)
    if not payable(quick):
        assert check_certificate(problem, quick) is True


@given(requests(max_permanents=4))
@example({"spell": {"mana_cost": "{G}", "additional": ["{1}"], "increase": ["{1}"], "reduce": ["{1}"],  # a stage's
                    "minimum": 3}, "player": {"pool": "{R}"}, "permanents": [                  # optimum 7 read
    {"id": "p0", "abilities": [{"cost": "{W}, {T}", "add": "{G}"}, {"cost": "Sacrifice this", "add": "{R}"}]},  # as
    {"id": "p1", "counters": {"charge": 1}, "abilities": [                                  # 6.999... and cut
        {"cost": "{1}", "add": "{W}"},                                                     # to 6: a false no
        {"cost": "{T}, Sacrifice this, Remove a charge counter from this", "add": "{C}"}]}]})
def test_the_objective_solved_term_by_term_reaches_the_same_optimum(request):
    """Huge numbers (life 1,000,000, a graveyard of 700,000) make the lexicographic weights
    overflow 64 bits, and the objective is then solved stage by stage: forced to one term
    per stage here, it must reach the one-sum optimum, with a valid plan."""
    from manaplan.solver import runtime as cpsat
    problem = parse_request(request)
    whole = answer(problem, plain_path=False)
    saved = cpsat.MAX_OBJECTIVE_SPAN
    cpsat.MAX_OBJECTIVE_SPAN = 1
    try:
        staged = answer(parse_request(request), plain_path=False)
    finally:
        cpsat.MAX_OBJECTIVE_SPAN = saved
    check_answer(problem, staged)
    assert payable(staged) == payable(whole)
    if payable(whole):
        assert plan_objective(problem, staged) == plan_objective(problem, whole)


@given(requests(), st.lists(st.integers(0, 10), min_size=1, max_size=4))
def test_groups_built_on_other_boards_are_what_a_cold_build_gives(request, shifts):
    """What a group's abilities build is reused across boards (solver.supply keys it by
    the permanents' text): warm, after boards holding the same permanents under other
    ids, tapped or untapped, at other places, the supply equals one built with nothing
    kept."""
    import manaplan.solver.supply as supply_module
    for k in shifts:  # the same bodies, other ids, some tapped, in another order
        ids = {p["id"]: f"o{k}_{i}" for i, p in enumerate(request["permanents"])}
        perms = [{**p, "id": ids[p["id"]], "tapped": bool((i + k) % 3 == 0),
                  **({"attached_to": ids.get(p["attached_to"], p["attached_to"])} if "attached_to" in p else {})}
                 for i, p in enumerate(request["permanents"])]
        turn = k % max(1, len(perms))
        build_supply(parse_request({"spell": request["spell"], "player": request.get("player", {}),
                                    "permanents": perms[turn:] + perms[:turn]}))
    warm = build_supply(parse_request(request))
    supply_module._GROUPS_BUILT.clear()
    cold = build_supply(parse_request(request))
    assert (warm.groups, warm.acts, warm.excluded, warm.mana_bound) == (cold.groups, cold.acts, cold.excluded,
                                                                        cold.mana_bound)


@given(requests())
def test_acts_that_stand_alone_are_what_the_acts_together_give(request):
    """Where every act of a supply stands alone (GroupAbility.stands_alone: no converter,
    shared tap, count, doubling, life or damage), the supply takes its acts as built:
    what applying the others to each (solver.supply._acts_together) would give too."""
    from manaplan.solver.supply import _acts_together
    problem = parse_request(request)
    supply = build_supply(problem)
    if problem.board.counted_from is not None or not all(a.stands_alone for a in supply.acts):
        return
    final, bound, life_order = _acts_together(problem, problem.board, list(supply.groups), list(supply.acts))
    assert (tuple(final), bound, life_order) == (supply.acts, supply.mana_bound, supply.life_order)


@st.composite
def converter_boards(draw):
    """Small boards where chains pass through abilities that turn one mana into one
    (converters without {T}, Orochi Leafcaller's "{G}: any color") and Signets."""
    bodies = [{"abilities": [{"cost": "{T}", "add": "{G}"}]}, {"abilities": [{"cost": "{T}", "add": ["{U}", "{B}"]}]},
              {"abilities": [{"cost": "{T}", "add": "{R}"}]},
              {"abilities": [{"cost": "{1}, {T}", "add": "{U}{B}"}]}, {"abilities": [{"cost": "{1}, {T}", "add": "{R}{G}"}]},
              {"abilities": [{"cost": "{G}", "add": "any"}]}, {"abilities": [{"cost": "{1}", "add": "{W}"}]},
              {"abilities": [{"cost": "{U}", "add": ["{B}", "{R}"]}]}, {"abilities": [{"cost": "{W/U}", "add": "{G}"}]},
              {"abilities": [{"cost": "{2}", "add": "{C}{C}"}]}]
    chosen = draw(st.lists(st.sampled_from(bodies), min_size=1, max_size=5))
    cost = draw(st.sampled_from(["{G}{G}{G}", "{W}{W}", "{1}{B}{B}", "{R}{W}", "{2}{U}", "{W}{B}{R}"]))
    return {"spell": {"mana_cost": cost}, "permanents": [{"id": f"p{i}", **b} for i, b in enumerate(chosen)]}


@given(converter_boards())
@settings(max_examples=max(settings.default.max_examples, 150))
def test_the_depth_bound_loses_no_plan(request):
    """solver.chains.depth_bound counts a run of one-for-one converters once per ability
    (a run through one ability twice could be cut short): the strict model that deep
    finds what the model as deep as every activation allows finds."""
    from manaplan.solver.chains import activation_bound, depth_bound
    from manaplan.solver.search import Budget, solve_payment as _solve
    problem = parse_request(request)
    supply = build_supply(problem)
    deep, every = depth_bound(supply), activation_bound(supply)
    assume(deep < every)
    short = _solve(problem, supply, deep, problem.spell.cost.x, Budget(60))
    full = _solve(problem, supply, every, problem.spell.cost.x, Budget(60))
    assert short[2] == full[2]
    if short[2].solved:
        assert short[0].objective_tuple(short[1]) == full[0].objective_tuple(full[1])


@given(requests(), st.lists(st.sampled_from(["Forest", "Card A", "Card B", "Treasure", "Sol Ring", ""]), min_size=8,
                            max_size=8))
@settings(max_examples=max(settings.default.max_examples, 150))
def test_renaming_permanents_never_changes_an_answer(request, names):
    """A name is for messages; permanents that can do the same things are
    interchangeable whatever they are called (names once split groups of twins: a named
    1,000-permanent chain board timed out where the unnamed one took 5 ms)."""
    named = dict(request, permanents=[dict(p, name=n) if n else p for p, n in zip(request["permanents"], names)])
    problem, out = solve(request)
    named_problem, named_out = solve(named)
    if isinstance(out, Undecided) or isinstance(named_out, Undecided):
        reject()
    assert type(out) is type(named_out)
    if isinstance(out, Plan):
        assert plan_objective(problem, out) == plan_objective(named_problem, named_out)
