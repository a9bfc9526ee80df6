"""Reading mana abilities: explicit costs and card text (CR 605, 305.6)."""

import pytest

from manaplan.model.errors import RequestError
from manaplan.model.oracle import abilities_from_text
from manaplan.model.abilities import AbilityCost, Output
from manaplan.protocol.permanents import read_ability as explicit_ability


@pytest.mark.parametrize("text", ["{T}", "{1}, {T}", "{W/B}, {T}", "{T}, Sacrifice this", "Pay 2 life",
                                  "{T}, Remove a storage counter from this", "{2}{G}, {T}, Pay 1 life"])
def test_ability_costs_round_trip(text):
    assert str(AbilityCost.parse(text)) == text


@pytest.mark.parametrize("spec", ["{G}", "{C}{C}", ["{W}{W}", "{W}{B}", "{B}{B}"], "any", {"any": 3},
                                  {"combination": 5}])
def test_outputs_round_trip(spec):
    assert Output.parse(spec).format() == spec


def test_unreadable_cost_names_the_part():
    with pytest.raises(RequestError, match="Discard a card"):
        explicit_ability({"cost": "{T}, Discard a card", "add": "{R}"})


def test_free_mana_without_limit_is_refused():
    with pytest.raises(RequestError, match="infinite"):
        explicit_ability({"cost": "{1}", "add": "{C}{C}"})


def test_basic_land_types_give_intrinsic_abilities_cr_305_6():
    abilities = abilities_from_text("Land — Forest Plains", "")
    assert [a.output.format() for a in abilities] == ["{G}", "{W}"]


def test_reminder_text_is_not_read_twice():
    abilities = abilities_from_text("Land — Island Swamp", "({T}: Add {U} or {B}.)")
    assert len(abilities) == 2


@pytest.mark.parametrize("name,type_line,text,cost,add", [
    ("Dimir Signet", "Artifact", "{1}, {T}: Add {U}{B}.", "{1}, {T}", "{U}{B}"),
    ("Sol Ring", "Artifact", "{T}: Add {C}{C}.", "{T}", "{C}{C}"),
    ("Birds of Paradise", "Creature — Bird", "Flying\n{T}: Add one mana of any color.", "{T}", "any"),
    ("Treasure", "Token Artifact — Treasure", "{T}, Sacrifice this token: Add one mana of any color.",
     "{T}, Sacrifice this", "any"),
    ("Gilded Lotus", "Artifact", "{T}: Add three mana of any one color.", "{T}", {"any": 3}),
    ("Cascading Cataracts", "Land", "Indestructible\n{T}: Add {C}.\n{5}, {T}: Add five mana in any combination of colors.",
     "{5}, {T}", {"combination": 5}),
])
def test_common_card_texts(name, type_line, text, cost, add):
    ability = abilities_from_text(type_line, text, name)[-1]
    assert str(ability.cost) == cost
    assert ability.output.format() == add


def test_pain_land_damage_counts_as_life():
    a = abilities_from_text("Land", "{T}: Add {C}.\n{T}: Add {W} or {B}. This land deals 1 damage to you.",
                            "Caves of Koilos")[1]
    assert a.damage == 1 and a.life == 1


def test_restrictions_and_timing_are_read():
    temple = abilities_from_text("Land", "{T}: Add {C}{C}. Spend this mana only to cast colorless Eldrazi spells "
                                 "or activate abilities of colorless Eldrazi.", "Eldrazi Temple")[0]
    assert temple.restrict.startswith("colorless Eldrazi spells")
    led = abilities_from_text("Artifact", "{T}, Sacrifice this artifact: Add three mana of any one color. "
                              "Activate only as an instant.", "Lotus Thing")[0]
    assert led.instant_only and not led.usable_mid_cast


def test_library_moving_abilities_are_not_mana_abilities_cr_605_1a_2026():
    sphere = abilities_from_text("Artifact", "{1}, {T}, Sacrifice this artifact: Add one mana of any color. "
                                 "Draw a card.", "Chromatic Sphere")[0]
    assert not sphere.mana_ability


def test_targeted_abilities_are_not_mana_abilities_cr_605_5a():
    a = abilities_from_text("Creature — Human", "{T}: Add {R}. This creature deals 1 damage to target creature.", "X")
    assert not a[0].mana_ability


def test_text_that_adds_mana_but_cannot_be_read_is_an_error():
    with pytest.raises(RequestError, match="cannot read"):  # the strict reader; read_card_text lists it
        abilities_from_text("Artifact", "{T}: Add X mana in any combination of colors, where X is the greatest "
                            "power among creatures you control.", "Selvala-like")


def test_for_each_amounts_are_read_and_counted_later():
    a, = abilities_from_text("Legendary Land", "{T}: Add {G} for each creature you control.", "Gaea's Cradle")
    assert a.output.format() == {"for_each": "creature", "mana": "{G}"}
    assert a.output.times(3).format() == "{G}{G}{G}"
