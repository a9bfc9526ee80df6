"""Duel Masters payments (seed 004): the seed's examples, the rules, bad input, and
properties against the exhaustive reference search.

Requests go through the game profile (``read``, ``answer``, ``write``); every test that
gets a plan runs ``validate`` on the plan value (``_paid`` does it) and looks at the
answer in the protocol's JSON shape. Hand-written plans are read with ``read_plan``.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, strategies as st

# Importing CP-SAT takes ~0.4 s; do it once at collection so that Hypothesis' deadlines
# time the solving, not the import.
import ortools.sat.python.cp_model  # noqa: F401

import manaplan
from manaplan.model.duel_masters import (
    CIVILIZATION_NAMES, CivilizationShortfall, DMCard, DMPlan, DMRequest, DMStep, FIRE, LIGHT, ManaCard,
    NATURE, PointsShortfall, WATER,
)
from manaplan.model.errors import RequestError
from manaplan.model.plan import Undecided, Unpayable
from manaplan.profiles import find_profile

PROFILE = find_profile("duel-masters")

from manaplan.profiles.duel_masters import DuelMastersProfile  # noqa: E402
from manaplan.protocol.duel_masters import read, read_plan, write, write_request  # noqa: E402
from manaplan.solver.checks.dm_reference import (  # noqa: E402
    check_certificate, minimum_legal_points, objective, reference_search,
)
from manaplan.solver.checks.dm_validator import validate  # noqa: E402
from manaplan.solver.duel_masters import answer  # noqa: E402

RAINBOW = list(CIVILIZATION_NAMES)


def mana(card_id, *civilizations, number=1, tapped=False):
    return {"id": card_id, "civilizations": list(civilizations), "mana_number": number, "tapped": tapped}


def request(cost, civilizations, zone, **extra):
    return {"game": "duel-masters", "card": {"name": "test card", "cost": cost, "civilizations": civilizations},
            "mana_zone": zone, **extra}


def _problem(req):
    """A request dict read by the profile, or a problem value as it is."""
    return req if isinstance(req, DMRequest) else PROFILE.read(req)


def _answer(req, time_limit=10.0):
    """The answer in protocol shape (without ``id``), through the profile."""
    problem = _problem(req)
    return PROFILE.write(problem, PROFILE.answer(problem, time_limit))


def _paid(req):
    """Answer a request that must be payable; the plan value must validate."""
    problem = _problem(req)
    result = PROFILE.answer(problem)
    assert isinstance(result, DMPlan), result
    assert validate(problem, result) == []
    response = PROFILE.write(problem, result)
    assert response["payable"] is True, response["reason"]
    assert response["reason"] is None
    assert read_plan(problem, response["plan"]) == result
    return response


def _unpaid(req):
    """Answer a request that must be unpayable; its certificate must check."""
    problem = _problem(req)
    result = PROFILE.answer(problem)
    assert isinstance(result, Unpayable)
    assert check_certificate(problem, result)
    response = PROFILE.write(problem, result)
    assert response["payable"] is False
    assert response["plan"] is None
    return response


# --- the seed's examples ------------------------------------------------------------

def test_faerie_life_taps_nature_and_one_fire_never_all_three():
    """Seed 004: two mono-fire and one mono-nature; フェアリー・ライフ (cost 2, nature)
    is paid with the nature card and one fire card; tapping all three is illegal."""
    req = request(2, ["nature"], [mana("f1", "fire"), mana("f2", "fire"), mana("n1", "nature")])
    plan = _paid(req)["plan"]
    assert plan["civilizations"] == {"nature": "n1"}
    assert sorted(plan["tapped"]) == ["f1", "n1"]
    assert plan["points"] == 2 and plan["excess"] == 0
    # tapping all three overpays: the validator must say so
    all_three = {"tapped": ["n1", "f1", "f2"], "civilizations": {"nature": "n1"}, "points": 3,
                 "sacrificed": [], "life_paid": 0,
                 "steps": [{"card": "n1", "civilization": "nature", "points": 1, "pays": "civilization"},
                           {"card": "f1", "civilization": "fire", "points": 1, "pays": "points"},
                           {"card": "f2", "civilization": "fire", "points": 1, "pays": "points"}]}
    problem = read(req)
    assert any("overpays" in p for p in validate(problem, read_plan(problem, all_three)))


def test_a_dual_card_alone_cannot_pay_both_of_its_civilizations():
    """Seed 004: a fire/nature card gives fire OR nature; a fire/nature card cannot be
    paid by it alone."""
    reason = _unpaid(request(1, ["fire", "nature"], [mana("d1", "fire", "nature")]))["reason"]
    assert reason["code"] == "civilizations"
    assert reason["civilizations"] == ["fire", "nature"] and reason["sources"] == ["d1"]
    assert "a card pays only one civilization" in reason["message"]
    # even with points to spare
    _unpaid(request(1, ["fire", "nature"], [mana("d1", "fire", "nature", number=3)]))


def test_a_dual_card_with_a_mono_fire_card_pays_fire_and_nature():
    plan = _paid(request(2, ["fire", "nature"], [mana("d1", "fire", "nature"), mana("f1", "fire")]))["plan"]
    assert plan["civilizations"] == {"fire": "f1", "nature": "d1"}
    assert plan["points"] == 2


def test_a_dual_card_paying_two_civilizations_is_rejected_by_the_validator():
    req = request(2, ["fire", "nature"], [mana("d1", "fire", "nature"), mana("f1", "fire")])
    twice = {"tapped": ["d1", "d1"], "civilizations": {"fire": "d1", "nature": "d1"}, "points": 2,
             "steps": [{"card": "d1", "civilization": "fire", "points": 1, "pays": "civilization"},
                       {"card": "d1", "civilization": "nature", "points": 1, "pays": "civilization"}]}
    problem = read(req)
    assert any("second time" in p for p in validate(problem, read_plan(problem, twice)))


def test_a_rainbow_card_pays_water_for_no_points():
    """Seed 004: a five-civilization card gives 0 points but pays a civilization."""
    req = request(2, ["water"], [mana("f1", "fire"), mana("f2", "fire"), mana("r1", *RAINBOW, number=0)])
    plan = _paid(req)["plan"]
    assert plan["civilizations"] == {"water": "r1"}
    assert sorted(plan["tapped"]) == ["f1", "f2", "r1"]
    assert plan["points"] == 2 and len(plan["tapped"]) == 3


def test_a_three_civilization_card_reduced_to_2_taps_three_cards():
    """Overpaying is allowed only as far as the civilizations need: 3 points, not more."""
    zone = [mana("l1", "light"), mana("w1", "water"), mana("d1", "darkness"),
            mana("l2", "light"), mana("f1", "fire")]
    response = _paid(request(4, ["light", "water", "darkness"], zone, cost_change=-2))
    plan = response["plan"]
    assert response["total_cost"] == 2
    assert len(plan["tapped"]) == 3 and plan["points"] == 3 and plan["excess"] == 1
    assert set(plan["civilizations"]) == {"light", "water", "darkness"}


def test_perfect_earth_reduced_to_3_pays_5():
    """Seed 004: 《星龍パーフェクト・アース》 made cost 3 by 《コッコ・ルピア》 may be paid
    with 5, to finish its five civilizations (and in effect must be)."""
    zone = [mana(f"{c}1", c) for c in RAINBOW] + [mana("f2", "fire"), mana("n2", "nature")]
    response = _paid(request(5, RAINBOW, zone, cost_change=-2))
    assert response["total_cost"] == 3
    assert response["plan"]["points"] == 5 and len(response["plan"]["tapped"]) == 5
    assert response["plan"]["excess"] == 2


def test_the_printed_cost_does_not_change():
    """Seed 004: reductions and increases change what is paid, not the mana cost."""
    req = read(request(5, ["fire"], [], cost_change=-2))
    assert req.card.cost == 5 and req.cost_to_pay == 3


# --- the other rules -----------------------------------------------------------------

def test_a_colorless_card_needs_no_civilization():
    plan = _paid(request(2, [], [mana("w1", "water"), mana("w2", "water"), mana("w3", "water")]))["plan"]
    assert plan["civilizations"] == {} and plan["points"] == 2 and len(plan["tapped"]) == 2


def test_a_free_colorless_card_taps_nothing():
    plan = _paid(request(0, [], []))["plan"]
    assert plan["tapped"] == [] and plan["steps"] == [] and plan["points"] == 0


def test_tapped_cards_give_nothing():
    reason = _unpaid(request(1, ["nature"], [mana("n1", "nature", tapped=True), mana("f1", "fire")]))["reason"]
    assert reason["message"] == "needs nature: no untapped nature card in the mana zone (n1 is tapped)"
    reason = _unpaid(request(3, [], [mana("f1", "fire"), mana("f2", "fire", tapped=True)]))["reason"]
    assert reason == {"code": "points", "message": "needs 3 points; the untapped mana zone gives at most 1",
                      "needed": 3, "available": 1}


def test_a_tapped_card_in_a_plan_is_rejected():
    req = request(1, ["fire"], [mana("f1", "fire", tapped=True), mana("f2", "fire")])
    plan = {"tapped": ["f1"], "civilizations": {"fire": "f1"}, "points": 1,
            "steps": [{"card": "f1", "civilization": "fire", "points": 1, "pays": "civilization"}]}
    problem = read(req)
    assert any("already tapped" in p for p in validate(problem, read_plan(problem, plan)))


def test_the_validator_replays_every_step():
    req = read(request(2, ["fire", "nature"], [mana("d1", "fire", "nature"), mana("f1", "fire"),
                                               mana("w1", "water"), mana("c1")]))
    good = (DMStep("f1", FIRE, 1, "civilization"), DMStep("d1", NATURE, 1, "civilization"))
    assert validate(req, DMPlan(good, 2)) == []

    def problems(*steps, cost=2):
        return " / ".join(validate(req, DMPlan(steps, cost)))
    assert "no card 'x1' in the mana zone" in problems(*good, DMStep("x1", None, 1, "points"))
    assert "f1 gives 1 points, not 2" in problems(DMStep("f1", FIRE, 2, "civilization"), good[1])
    assert "f1 cannot make 'water' mana" in problems(DMStep("f1", WATER, 1, "points"), good[1])
    assert "w1 must make mana of one of its civilizations" in problems(*good, DMStep("w1", None, 1, "points"))
    assert "w1 pays 'water', which the card does not need" in problems(*good, DMStep("w1", WATER, 1, "civilization"))
    assert "fire is already paid by f1" in problems(*good, DMStep("d1", FIRE, 1, "civilization"))
    assert "nature is not paid by any tapped card" in problems(good[0], DMStep("w1", WATER, 1, "points"))
    assert "1 points tapped; the cost to pay is 2" in problems(good[0])
    assert "the plan is for a cost to pay of 3" in problems(*good, cost=3)
    assert problems(*good, DMStep("c1", None, 1, "points")).startswith("overpays: 3 points tapped where 2")
    unpayable = read(request(1, ["light"], [mana("f1", "fire")]))
    assert "no legal payment exists, yet a plan was given" in validate(
        unpayable, DMPlan((DMStep("f1", LIGHT, 1, "civilization"),), 1))


@pytest.mark.parametrize("change, at", [
    (lambda plan: plan | {"tapped": ["n1"]}, "tapped"),
    (lambda plan: plan | {"tapped": ["n1", "f1", "f1"]}, "tapped"),
    (lambda plan: plan | {"tapped": "n1 f1"}, "tapped"),
    (lambda plan: plan | {"civilizations": {"nature": "f1"}}, "civilizations"),
    (lambda plan: plan | {"points": 3}, "points"),
    (lambda plan: plan | {"excess": 1}, "excess"),
    (lambda plan: plan | {"sacrificed": ["f2"]}, "sacrificed"),
    (lambda plan: plan | {"life_paid": 2}, "life_paid"),
    (lambda plan: plan | {"mana": "G"}, "mana"),
    (lambda plan: {k: v for k, v in plan.items() if k != "steps"}, "steps"),
    (lambda plan: {k: v for k, v in plan.items() if k != "points"}, "points"),
    (lambda plan: plan | {"steps": [plan["steps"][0] | {"pays": "both"}, plan["steps"][1]]}, "steps[0].pays"),
    (lambda plan: plan | {"steps": [plan["steps"][0] | {"civilization": "Nature"}, plan["steps"][1]]},
     "steps[0].civilization"),
    (lambda plan: plan | {"steps": [plan["steps"][0], plan["steps"][1] | {"points": "1"}]}, "steps[1].points"),
    (lambda plan: plan | {"steps": [plan["steps"][0], 7]}, "steps[1]"),
])
def test_a_plan_read_from_json_must_agree_with_its_steps(change, at):
    """The summary of a plan is read off its steps in a ``DMPlan``; in JSON it is
    written twice, and ``read_plan`` refuses a plan that contradicts itself."""
    req = read(request(2, ["nature"], [mana("f1", "fire"), mana("f2", "fire"), mana("n1", "nature")]))
    plan = _paid(req)["plan"]
    assert read_plan(req, plan).tapped == ("n1", "f1")
    with pytest.raises(RequestError) as raised:
        read_plan(req, change(plan))
    assert raised.value.at == at


@pytest.mark.parametrize("cost, change, min_cost, expected", [
    (3, -5, None, 1),   # a reduction stops at 1
    (3, -5, 0, 0),      # unless the request sets the floor
    (3, -1, 3, 3),      # a floor above the reduced cost wins
    (0, -1, None, 0),   # a card costing 0 is not raised to 1
    (2, 1, None, 3),    # an increase
    (6, -2, None, 4),
])
def test_cost_change_and_its_floor(cost, change, min_cost, expected):
    extra = {"cost_change": change} | ({"min_cost": min_cost} if min_cost is not None else {})
    response = _answer(request(cost, [], [mana(f"m{i}", "fire") for i in range(8)], **extra))
    assert response["total_cost"] == expected
    assert response["plan"]["points"] == expected


def test_a_civilization_is_paid_even_when_the_cost_is_reduced_to_zero():
    plan = _paid(request(2, ["fire"], [mana("f1", "fire")], cost_change=-2, min_cost=0))["plan"]
    assert plan["civilizations"] == {"fire": "f1"} and plan["points"] == 1


def test_fewest_cards_among_the_fewest_points():
    plan = _paid(request(2, [], [mana("a", "fire"), mana("b", "fire"), mana("big", "water", number=2)]))["plan"]
    assert plan["tapped"] == ["big"]
    # a rainbow card is never tapped for nothing
    plan = _paid(request(1, ["fire"], [mana("r", *RAINBOW, number=0), mana("f", "fire")]))["plan"]
    assert plan["tapped"] == ["f"]


def test_a_civilization_may_force_a_bigger_card():
    """Nature only from a 2-point card: 2 points for a cost-1 card is the fewest legal."""
    plan = _paid(request(1, ["nature"], [mana("n2", "nature", number=2), mana("f1", "fire")]))["plan"]
    assert plan["tapped"] == ["n2"] and plan["points"] == 2


def test_unprinted_mana_number_is_zero_points_of_the_cards_civilizations():
    req = read(request(1, ["water"], [{"id": "psychic", "civilizations": ["water"], "mana_number": None},
                                      mana("f1", "fire")]))
    assert req.mana_zone[0].mana_number == 0
    plan = _paid(req)["plan"]
    assert plan["civilizations"] == {"water": "psychic"} and plan["points"] == 1


def test_multicolored_cards_are_tapped_last():
    plan = _paid(request(1, [], [mana("dual", "fire", "nature"), mana("mono", "fire")]))["plan"]
    assert plan["tapped"] == ["mono"]


def test_the_last_source_of_a_rare_civilization_stays_untapped():
    zone = [mana("w", "water"), mana("f1", "fire"), mana("f2", "fire"), mana("f3", "fire")]
    plan = _paid(request(1, [], zone))["plan"]
    assert plan["tapped"] == ["f1"]


def test_identical_cards_are_grouped_and_the_smallest_ids_tapped():
    zone = [mana(f"f{i:03d}", "fire") for i in range(400, 0, -1)] + [mana("n", "nature")]
    plan = _paid(request(4, ["nature", "fire"], zone))["plan"]
    assert plan["civilizations"] == {"nature": "n", "fire": "f001"}
    assert sorted(plan["tapped"]) == ["f001", "f002", "f003", "n"]


def test_a_timeout_is_not_unpayable():
    problem = read(request(2, ["fire"], [mana("f1", "fire"), mana("f2", "fire")]))
    result = answer(problem, time_limit=0.0)
    assert isinstance(result, Undecided) and result.code == "timeout" and result.time_limit == 0.0
    response = write(problem, result)
    assert response["payable"] is None
    assert response["reason"]["code"] == "timeout"
    assert response["reason"]["time_limit"] == 0.0 and response["plan"] is None


def test_the_id_is_echoed_and_a_request_object_is_accepted():
    req = request(1, ["fire"], [mana("f1", "fire")], id="q7")
    assert manaplan.solve(req)["id"] == "q7"
    assert "id" not in _answer(req)  # the API adds it, not the profile
    by_hand = DMRequest(DMCard("test card", 1, {"fire"}), (ManaCard("f1", {"fire"}),))
    assert by_hand == read(req)
    assert answer(by_hand) == answer(read(req))


def test_the_profile_is_registered_under_its_game():
    assert isinstance(PROFILE, DuelMastersProfile)
    assert PROFILE.name == "duel-masters" and PROFILE.queries == ("pay",)
    assert find_profile("mtg").name == "mtg"


def test_solve_gives_the_same_json_as_before_for_the_seed_example():
    """Seed 004's フェアリー・ライフ through ``manaplan.solve``: exactly the answer of the
    code before the profile split (key order included)."""
    req = {"game": "duel-masters", "id": "dm", "card": {"name": "Faerie Life", "cost": 2, "civilizations": ["nature"]},
           "mana_zone": [{"id": "f1", "civilizations": ["fire"]}, {"id": "f2", "civilizations": ["fire"]},
                         {"id": "n1", "civilizations": ["nature"]}]}
    expected = {"id": "dm", "payable": True, "total_cost": 2,
                "plan": {"tapped": ["n1", "f1"], "civilizations": {"nature": "n1"}, "points": 2, "excess": 0,
                         "sacrificed": [], "life_paid": 0,
                         "steps": [{"card": "n1", "civilization": "nature", "points": 1, "pays": "civilization"},
                                   {"card": "f1", "civilization": "fire", "points": 1, "pays": "points"}]},
                "reason": None}
    out = manaplan.solve(req)
    assert json.dumps(out) == json.dumps(expected)
    assert {"id": "dm", **_answer(req)} == expected
    unpayable = manaplan.solve(req | {"mana_zone": req["mana_zone"][:2]})
    assert json.dumps(unpayable) == json.dumps(
        {"id": "dm", "payable": False, "total_cost": 2, "plan": None,
         "reason": {"code": "civilizations", "message": "needs nature: no untapped nature card in the mana zone",
                    "civilizations": ["nature"], "sources": []}})
    error = manaplan.solve(req | {"mana_zone": [{"id": "f1", "civilizations": ["red"]}]})
    assert error["id"] == "dm" and error["error"]["at"] == "mana_zone[0].civilizations[0]"


def test_forged_certificates_are_refused():
    req = read(request(2, ["fire", "nature"], [mana("d1", "fire", "nature"), mana("f1", "fire", tapped=True)]))
    _unpaid(req)
    good = answer(req)
    assert good.certificate == CivilizationShortfall((FIRE, NATURE), ("d1",))
    assert not check_certificate(req, replace(good, certificate=replace(good.certificate, sources=())))
    assert not check_certificate(req, replace(good, certificate=replace(good.certificate, civilizations=(FIRE,))))
    assert not check_certificate(req, replace(good, code="points"))
    assert check_certificate(req, Unpayable("points", "", PointsShortfall(2, 1)))  # also true
    assert not check_certificate(req, Unpayable("points", "", PointsShortfall(2, 0)))
    assert not check_certificate(req, Unpayable("points", "", PointsShortfall(5, 1)))
    assert not check_certificate(req, Unpayable("civilizations", "", PointsShortfall(2, 1)))
    payable = read(request(1, ["fire"], [mana("f1", "fire")]))
    assert not check_certificate(payable, Unpayable("civilizations", "", CivilizationShortfall((FIRE,), ())))
    assert not check_certificate(payable, Unpayable("timeout", ""))
    assert not check_certificate(payable, Undecided("timeout", "", 0.0))


# --- bad input ----------------------------------------------------------------------

def _good():
    return request(2, ["fire"], [mana("m0", "fire"), mana("m1", "nature"), mana("m2", "water")])


def _set(path, value):
    def change(req):
        target = req
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return req
    return change


def _delete(path):
    def change(req):
        target = req
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
        return req
    return change


@pytest.mark.parametrize("change, at, words", [
    (_delete(["mana_zone", 1, "id"]), "mana_zone[1].id", "missing"),
    (_set(["mana_zone", 2, "id"], "m0"), "mana_zone[2].id", "duplicate id 'm0' (also mana_zone[0])"),
    (_set(["mana_zone", 0, "id"], ""), "mana_zone[0].id", "non-empty"),
    (_set(["mana_zone", 0, "id"], 7), "mana_zone[0].id", "string"),
    (_set(["card", "cost"], -1), "card.cost", "0 or more"),
    (_set(["card", "cost"], "2"), "card.cost", "whole number"),
    (_delete(["card", "cost"]), "card.cost", "missing"),
    (_delete(["card", "civilizations"]), "card.civilizations", "colorless"),
    (_set(["mana_zone", 1, "mana_number"], -1), "mana_zone[1].mana_number", "0 or more"),
    (_set(["mana_zone", 1, "mana_number"], 1.5), "mana_zone[1].mana_number", "whole number"),
    (_set(["mana_zone", 1, "mana_number"], True), "mana_zone[1].mana_number", "whole number"),
    (_set(["mana_zone", 2, "civilizations"], ["water", "red"]), "mana_zone[2].civilizations[1]", "'red'"),
    (_set(["mana_zone", 2, "civilizations"], ["Fire"]), "mana_zone[2].civilizations[0]", "did you mean 'fire'"),
    (_set(["mana_zone", 2, "civilizations"], "fire"), "mana_zone[2].civilizations", "list"),
    (_set(["mana_zone", 2, "civilizations"], ["fire", "fire"]), "mana_zone[2].civilizations[1]", "twice"),
    (_set(["card", "civilizations"], ["nature", "green"]), "card.civilizations[1]", "'green'"),
    (_set(["card", "civilizations"], [3]), "card.civilizations[0]", "name"),
    (_set(["mana_zone", 0, "tapped"], "no"), "mana_zone[0].tapped", "true or false"),
    (_set(["mana_zone", 0, "mana_numer"], 2), "mana_zone[0].mana_numer", "unknown field"),
    (_set(["mana_zone", 1], "m1"), "mana_zone[1]", "object"),
    (_set(["mana_zone"], {}), "mana_zone", "list"),
    (_delete(["mana_zone"]), "mana_zone", "missing"),
    (_delete(["card"]), "card", "missing"),
    (_set(["cost_change"], 0.5), "cost_change", "whole number"),
    (_set(["min_cost"], -1), "min_cost", "0 or more"),
    (_set(["game"], "mtg"), "game", "duel-masters"),
    (_set(["query"], "max_x"), "query", "pay"),
    (_set(["colour"], "red"), "colour", "unknown field"),
])
def test_bad_input_names_what_and_where(change, at, words):
    bad = change(_good())
    with pytest.raises(RequestError) as raised:
        read(bad)
    assert raised.value.at == at
    assert words in raised.value.message
    if at != "game":  # another game is another profile's request
        assert manaplan.solve(bad)["error"] == {"message": raised.value.message, "at": at}


def test_request_errors_are_value_errors():
    with pytest.raises(ValueError):
        read([])
    with pytest.raises(RequestError) as raised:
        ManaCard("m1", {"fire"}, mana_number=-2)
    assert raised.value.at == "mana_number"
    with pytest.raises(RequestError) as raised:
        DMRequest(DMCard("x", 1, {"fire"}), (ManaCard("a", {FIRE}), ManaCard("a", {NATURE})))
    assert raised.value.at == "mana_zone[1].id"


# --- properties ---------------------------------------------------------------------

civilization_lists = st.one_of(
    st.lists(st.sampled_from(CIVILIZATION_NAMES), min_size=1, max_size=2, unique=True),
    st.lists(st.sampled_from(CIVILIZATION_NAMES), max_size=5, unique=True),
)
mana_cards = st.one_of(
    st.fixed_dictionaries({"civilizations": civilization_lists,
                           "mana_number": st.sampled_from([0, 1, 1, 1, 1, 2, 3]),
                           "tapped": st.sampled_from([False, False, False, True])}),
    st.fixed_dictionaries({"civilizations": st.just(RAINBOW), "mana_number": st.just(0),
                           "tapped": st.booleans()}),
)
card_civilizations = st.one_of(
    st.lists(st.sampled_from(CIVILIZATION_NAMES), max_size=3, unique=True),
    st.lists(st.sampled_from(CIVILIZATION_NAMES), max_size=5, unique=True),
)


@st.composite
def requests(draw, max_cards=8):
    cards = draw(st.lists(mana_cards, max_size=max_cards))
    ids = draw(st.permutations([f"m{i}" for i in range(len(cards))]))  # ids not in zone order
    zone = [{"id": card_id, **card} for card_id, card in zip(ids, cards)]
    extra = {"cost_change": draw(st.integers(-3, 2))}
    if draw(st.booleans()):
        extra["min_cost"] = draw(st.integers(0, 2))
    return request(draw(st.integers(0, 8)), draw(card_civilizations), zone, **extra)


@given(requests())
def test_solver_agrees_with_the_reference_search(req):
    problem = read(req)
    result = answer(problem)
    best = reference_search(problem, tiebreak=True)
    if best is None:
        assert isinstance(result, Unpayable)
        assert write(problem, result)["payable"] is False
        assert minimum_legal_points(problem) is None
    else:
        assert isinstance(result, DMPlan)
        assert write(problem, result)["payable"] is True
        assert validate(problem, result) == []
        assert (result.points, len(result.tapped)) == reference_search(problem) == best[:2]
        assert objective(problem, result.tapped) == best
        assert result.points == minimum_legal_points(problem)


@given(requests())
def test_every_plan_validates(req):
    problem = read(req)
    result = answer(problem)
    if isinstance(result, DMPlan):
        assert validate(problem, result) == []
        assert validate(problem, read_plan(problem, write(problem, result)["plan"])) == []


@given(requests())
def test_every_unpayable_answer_has_a_certificate(req):
    problem = read(req)
    result = answer(problem)
    if isinstance(result, Unpayable):
        assert check_certificate(problem, result)
        assert result.message
        assert write(problem, result)["reason"]["message"]


@given(requests(), st.data())
def test_answers_do_not_depend_on_the_order_of_the_mana_zone(req, data):
    shuffled = req | {"mana_zone": data.draw(st.permutations(req["mana_zone"]))}
    assert _answer(shuffled) == _answer(req)
    assert answer(read(shuffled)) == answer(read(req))


@given(requests(max_cards=7), mana_cards)
def test_an_extra_untapped_card_never_makes_a_card_unpayable(req, extra):
    before = answer(read(req))
    after_problem = read(req | {"mana_zone": req["mana_zone"] + [{"id": "extra", **extra, "tapped": False}]})
    after = answer(after_problem)
    if isinstance(before, DMPlan):
        assert isinstance(after, DMPlan)
        assert validate(after_problem, after) == []
        assert after.points <= before.points


@given(requests())
def test_a_plan_with_one_more_point_card_is_rejected(req):
    problem = read(req)
    response = _answer(problem)
    if not response["payable"]:
        return
    plan = response["plan"]
    spare = next((c for c in req["mana_zone"]
                  if not c["tapped"] and c["mana_number"] > 0 and c["id"] not in plan["tapped"]), None)
    if spare is None:
        return
    more = dict(plan, tapped=plan["tapped"] + [spare["id"]], points=plan["points"] + spare["mana_number"],
                excess=plan["excess"] + spare["mana_number"],
                steps=plan["steps"] + [{"card": spare["id"], "points": spare["mana_number"], "pays": "points",
                                        "civilization": (spare["civilizations"] or [None])[0]}])
    assert any("overpays" in p for p in validate(problem, read_plan(problem, more)))


@given(requests())
def test_requests_round_trip(req):
    parsed = read(req)
    assert read(write_request(parsed)) == parsed
