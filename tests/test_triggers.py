"""Triggered mana abilities (CR 605.1b, 605.4a, 106.12a) and "tapped for mana"
replacement effects (106.12b): card text, the protocol's form, plans, and the validator's
replay of each trigger. Oracle texts as Scryfall gives them."""

import copy
from dataclasses import replace

import pytest

from helpers import pay
from manaplan import solve
from manaplan.model.oracle import triggers_from_text
from manaplan.protocol.mtg import read as parse_request
from manaplan.model.triggers import ManaTrigger
from manaplan.queries import answer
from manaplan.solver.checks.validator import validate_plan

FOREST = {"type_line": "Basic Land — Forest"}
ISLAND = {"type_line": "Basic Land — Island"}
VERNAL_BLOOM = {"name": "Vernal Bloom", "type_line": "Enchantment",
                "oracle_text": "Whenever a Forest is tapped for mana, its controller adds an additional {G}."}
CAGED_SUN = {"name": "Caged Sun", "type_line": "Artifact",
             "oracle_text": "As this artifact enters, choose a color.\nCreatures you control of the chosen color get "
                            "+1/+1.\nWhenever a land's ability causes you to add one or more mana of the chosen "
                            "color, add an additional one mana of that color."}
MANA_FLARE = {"name": "Mana Flare", "type_line": "Enchantment",
              "oracle_text": "Whenever a player taps a land for mana, that player adds one mana of any type that land "
                             "produced."}
OVERGROWTH = {"name": "Overgrowth", "type_line": "Enchantment — Aura",
              "oracle_text": "Enchant land\nWhenever enchanted land is tapped for mana, its controller adds an "
                             "additional {G}{G}."}
MANA_REFLECTION = {"name": "Mana Reflection", "type_line": "Enchantment",
                   "oracle_text": "If you tap a permanent for mana, it produces twice as much of that mana instead."}
GAUNTLET = {"name": "Gauntlet of Power", "type_line": "Artifact",
            "oracle_text": "As this artifact enters, choose a color.\nCreatures of the chosen color get +1/+1.\n"
                           "Whenever a basic land is tapped for mana of the chosen color, its controller adds an "
                           "additional one mana of that color."}


def perm(pid, card, **kw):
    return {"id": pid, **card, **kw}


@pytest.mark.parametrize("text, expected", [
    (VERNAL_BLOOM["oracle_text"], {"when": "tapped", "of": "Forest", "add": "{G}"}),
    (CAGED_SUN["oracle_text"], {"when": "adds", "of": "land", "produces": "U", "add": "{U}"}),
    (MANA_FLARE["oracle_text"], {"when": "tapped", "of": "land", "add": "same"}),
    (OVERGROWTH["oracle_text"], {"when": "tapped", "of": "enchanted", "add": "{G}{G}"}),
    (MANA_REFLECTION["oracle_text"], {"when": "tapped", "of": "permanent", "multiply": 2}),
    (GAUNTLET["oracle_text"], {"when": "tapped", "of": "basic land", "produces": "U", "add": "{U}"}),
    ("Enchant land\nWhenever enchanted land is tapped for mana, its controller adds an additional one mana of any "
     "color.", {"when": "tapped", "of": "enchanted", "add": "any"}),                        # Fertile Ground
    ("Whenever you tap a Swamp for mana, add an additional {B}.", {"when": "tapped", "of": "Swamp", "add": "{B}"}),
    ("Whenever a player taps a Mountain, Forest, or Plains for mana, that player adds one mana of any type that "
     "land produced.", {"when": "tapped", "of": ["Mountain", "Forest", "Plains"], "add": "same"}),  # Keeper
    ("Whenever you tap a nonland permanent for mana, add one mana of any type that permanent produced.",
     {"when": "tapped", "of": "nonland permanent", "add": "same"}),                           # Kinnan
    ("Enchant land\nWhenever enchanted land is tapped for mana, its controller adds an additional two mana in any "
     "combination of colors.", {"when": "tapped", "of": "enchanted", "add": {"combination": 2}}),  # Market Festival
    ("Landfall — Whenever a land you control enters, add one mana of any color.", None),  # Lotus Cobra: no mana ability
])
def test_card_text_is_read_cr_605_1b(text, expected):
    found = [t.format() for t in triggers_from_text(text, chosen_color="U")]
    assert found == ([expected] if expected else [])
    for t in found:  # the protocol's form reads back to the same trigger
        assert ManaTrigger.parse(t).format() == t


@pytest.mark.parametrize("text", [
    "Whenever you tap a land for mana while you're the monarch, add an additional one mana of any color.",
    "Whenever a land with the same name as the exiled card is tapped for mana, its controller adds one mana of any "
    "type that land produced.",
])
def test_unreadable_mana_triggers_make_a_no_uncertain_never_a_guess(text):
    board = [perm("f", FOREST), {"id": "x", "type_line": "Enchantment", "oracle_text": text}]
    assert solve({"spell": {"mana_cost": "{G}"}, "permanents": board})["payable"]  # the Forest alone pays
    out = solve({"spell": {"mana_cost": "{G}{G}"}, "permanents": board})
    assert out["payable"] is None and out["reason"]["code"] == "unread_abilities"
    assert out["reason"]["unread"] == [{"permanent": "x", "text": text}]


def test_replacement_effects_that_cant_be_read_are_errors():
    """They change what other permanents make: no plan could ignore them."""
    out = solve({"spell": {"mana_cost": "{G}"},
                 "permanents": [perm("f", FOREST), {"id": "x", "type_line": "Enchantment", "oracle_text":
                                                    "If you tap a land for mana, it produces four times as much of "
                                                    "that mana instead."}]})
    assert out["error"]["at"] == "permanents[1].oracle_text" and "cannot read" in out["error"]["message"]


def test_vernal_bloom_doubles_forests_only_cr_106_12a():
    out = pay("{G}{G}", [perm("f", FOREST), perm("vb", VERNAL_BLOOM)])
    assert out["payable"] and out["plan"]["tapped"] == ["f"]
    assert out["plan"]["steps"][0]["triggered"] == [{"permanent": "vb", "trigger": 0, "adds": "{G}"}]
    assert not pay("{U}{U}", [perm("i", ISLAND), perm("vb", VERNAL_BLOOM)])["payable"]


def test_caged_sun_adds_only_with_the_chosen_color():
    sun = perm("sun", CAGED_SUN, chosen_color="green")
    dual = {"id": "d", "type_line": "Land", "abilities": [{"cost": "{T}", "add": ["{G}", "{U}"]}]}
    out = pay("{1}{G}", [dual, sun])  # tapped for G: G + G
    assert out["payable"] and out["plan"]["tapped"] == ["d"]
    assert not pay("{1}{U}", [dual, sun])["payable"]  # tapped for U: no trigger
    # "a land's ability causes you to add": not only {T} abilities
    crypt = {"id": "c", "type_line": "Land", "abilities": [{"cost": "Sacrifice this", "add": "{G}"}]}
    assert pay("{G}{G}", [crypt, sun])["payable"]
    # a creature's mana doesn't count
    elf = {"id": "e", "type_line": "Creature — Elf", "abilities": [{"cost": "{T}", "add": "{G}"}]}
    assert not pay("{G}{G}", [elf, sun])["payable"]


def test_mana_flare_adds_a_type_the_land_produced_cr_605_4a():
    dual = {"id": "d", "type_line": "Land", "abilities": [{"cost": "{T}", "add": ["{W}", "{U}"]}]}
    assert pay("{W}{W}", [dual, perm("mf", MANA_FLARE)])["payable"]
    assert not pay("{W}{U}", [dual, perm("mf", MANA_FLARE)])["payable"]  # one type per activation


def test_overgrowth_helps_the_enchanted_land_only():
    board = [perm("f1", FOREST), perm("f2", FOREST), perm("o", OVERGROWTH, attached_to="f2")]
    out = pay("{2}{G}", board)
    assert out["payable"] and out["plan"]["tapped"] == ["f2"]
    assert not pay("{4}{G}", board)["payable"]  # f1 makes no more than {G}


def test_mana_reflection_doubles_the_land_not_the_trigger_cr_106_12b():
    board = [perm("i", ISLAND), perm("r", MANA_REFLECTION), perm("o", OVERGROWTH, attached_to="i")]
    out = pay("{3}{U}", board)  # {U}{U} doubled, {G}{G} from Overgrowth not doubled
    assert out["payable"] and out["plan"]["steps"][0]["adds"] == "{U}{U}"
    assert not pay("{4}{U}", board)["payable"]


def test_gauntlet_of_power_needs_a_basic_land_of_the_chosen_color():
    g = perm("g", GAUNTLET, chosen_color="U")
    assert pay("{U}{U}", [perm("i", ISLAND), g])["payable"]
    nonbasic = {"id": "n", "type_line": "Land — Island"}
    assert not pay("{U}{U}", [nonbasic, g])["payable"]


def test_trigger_mana_comes_from_the_trigger_source_cr_113_7():
    snowy = {"id": "sf", "type_line": "Basic Snow Land — Forest"}
    out = pay("{S}{G}", [snowy, perm("vb", VERNAL_BLOOM)])  # Vernal Bloom's {G} is not snow
    assert out["payable"]
    assert not pay("{S}{S}", [snowy, perm("vb", VERNAL_BLOOM)])["payable"]


def test_convoke_is_not_tapping_for_mana():
    elf = {"id": "e", "type_line": "Creature — Elf", "colors": ["G"], "abilities": []}
    leyline = {"id": "l", "type_line": "Enchantment",
               "triggers": [{"when": "tapped", "of": "creature", "add": "{G}"}]}
    assert not pay({"mana_cost": "{G}{G}", "convoke": True}, [elf, leyline])["payable"]


def test_explicit_triggers_and_bad_ones():
    board = [perm("f", FOREST), {"id": "t", "type_line": "Enchantment",
                                 "triggers": [{"when": "tapped", "of": "land", "add": "any"}]}]
    assert pay("{G}{R}", board)["payable"]
    bad = copy.deepcopy(board)
    bad[1]["triggers"][0]["when"] = "sometimes"
    assert solve({"spell": {"mana_cost": "{G}"}, "permanents": bad})["error"]["at"] == "permanents[1].triggers[0].when"
    dangling = [perm("o", OVERGROWTH, attached_to="nowhere")]
    assert solve({"spell": {"mana_cost": "{G}"}, "permanents": dangling})["error"]["at"] == \
        "permanents[0].attached_to"
    chosen = [{"id": "s", "triggers": [{"when": "adds", "of": "land", "add": "chosen"}]}]
    assert "chosen_color" in solve({"spell": {"mana_cost": "{G}"}, "permanents": chosen})["error"]["message"]


def test_the_validator_replays_each_trigger():
    req = {"spell": {"mana_cost": "{G}{G}"}, "permanents": [perm("f", FOREST), perm("vb", VERNAL_BLOOM)]}
    problem = parse_request(req)
    plan = answer(problem)
    assert validate_plan(problem, plan) == []
    first = plan.steps[0]

    def with_first(step):
        return replace(plan, steps=(step,) + plan.steps[1:])

    assert validate_plan(problem, with_first(replace(first, triggered=())))
    wrong = replace(first.triggered[0], adds=("U",))
    assert validate_plan(problem, with_first(replace(first, triggered=(wrong,))))
    assert validate_plan(problem, with_first(replace(first, triggered=first.triggered * 2)))


@pytest.mark.parametrize("permanents, at", [
    # a trigger source that can be sacrificed while paying (its triggers stop when it leaves, CR 603.10)
    ([{"id": "t", "type_line": "Artifact", "abilities": [{"cost": "Sacrifice this", "add": "{C}"}],
       "triggers": [{"when": "tapped", "of": "land", "add": "{G}"}]},
      {"id": "f", "type_line": "Land", "abilities": [{"cost": "{1}, {T}", "add": "{G}{G}"}]}], "permanents[0].abilities"),
    # Caged Sun turning "{1}: Add {G}" into {G}{G}: infinite mana
    ([{"id": "sun", "type_line": "Artifact", "chosen_color": "G",
       "triggers": [{"when": "adds", "of": "land", "produces": "chosen", "add": "chosen"}]},
      {"id": "c", "type_line": "Land", "abilities": [{"cost": "{1}", "add": "{G}"}]}], "permanents[1].abilities[0]"),
    # an Aura on itself (CR 303.4d), and one read from text with nothing attached
    ([{"id": "x", "type_line": "Land — Forest", "attached_to": "x",
       "triggers": [{"when": "tapped", "of": "enchanted", "add": "{G}{G}"}]}], "permanents[0].attached_to"),
    ([{"id": "f", **FOREST}, {"id": "o", **OVERGROWTH}], "permanents[1].attached_to"),
    # "forest" is neither a kind nor a subtype: a typo that would never trigger
    ([{"id": "w", "triggers": [{"when": "tapped", "of": "forest", "add": "{G}"}]}], "permanents[0].triggers[0].of"),
    # Contamination: a replacement effect on mana that is not modelled
    ([{"id": "d", "type_line": "Enchantment", "oracle_text": "If a land is tapped for mana, it produces {B} instead of "
       "any other type."}], "permanents[0].oracle_text"),
])
def test_boards_whose_triggers_cant_be_followed_are_errors(permanents, at):
    out = solve({"spell": {"mana_cost": "{G}"}, "permanents": permanents})
    assert out["error"]["at"] == at, out


def test_lines_that_trigger_on_mana_but_add_none_are_not_mana_abilities():
    orchard = {"id": "o", "name": "Forbidden Orchard", "type_line": "Land",
               "oracle_text": "{T}: Add one mana of any color.\nWhenever you tap Forbidden Orchard for mana, target "
                              "opponent creates a 1/1 colorless Spirit creature token."}
    assert pay("{G}", [orchard])["payable"]


def test_outcomes_that_make_the_same_mana_are_one():
    city = {"id": "c", "type_line": "Land", "abilities": [{"cost": "{T}", "add": "any", "damage": 1}]}
    fertile = {"id": "fg", "type_line": "Enchantment — Aura", "attached_to": "c",
               "triggers": [{"when": "tapped", "of": "enchanted", "add": "any"}]}
    dawn = [{"id": f"dr{k}", "type_line": "Enchantment — Aura", "attached_to": "c",
             "triggers": [{"when": "tapped", "of": "enchanted", "add": {"combination": 2}}]} for k in (1, 2)]
    out = pay("{W}{U}{B}{R}{G}{1}", [city, fertile] + dawn)
    assert out["payable"] and out["plan"]["tapped"] == ["c"]
