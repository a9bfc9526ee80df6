"""More of real mana text, end to end through the protocol (issue 11): each form is
turned into abilities the solver already knows, and the answers are replayed by the
validator like any other."""

import pytest

from manaplan import solve

PLAINS = {"type_line": "Basic Land — Plains"}
VAULT = {"name": "Bottomless Vault", "type_line": "Land",
         "oracle_text": "This land enters tapped.\nYou may choose not to untap this land during your untap step.\n"
                        "At the beginning of your upkeep, if this land is tapped, put a storage counter on it.\n"
                        "{T}, Remove any number of storage counters from this land: Add {B} for each storage counter "
                        "removed this way."}
POOLS = {"name": "Calciform Pools", "type_line": "Land",
         "oracle_text": "{T}: Add {C}.\n{1}, {T}: Put a storage counter on this land.\n"
                        "{1}, Remove X storage counters from this land: Add X mana in any combination of {W} and/or {U}."}
CHALICE = {"name": "Everflowing Chalice", "type_line": "Artifact", "mana_cost": "{0}",
           "oracle_text": "Multikicker {2}\nThis artifact enters with a charge counter on it for each time it was "
                          "kicked.\n{T}: Add {C} for each charge counter on this artifact."}
CAVERN = {"name": "Cavern of Souls", "type_line": "Land",
          "oracle_text": "As this land enters, choose a creature type.\n{T}: Add {C}.\n{T}: Add one mana of any color. "
                         "Spend this mana only to cast a creature spell of the chosen type, and that spell can't be "
                         "countered."}
CHROME_MOX = {"name": "Chrome Mox", "type_line": "Artifact", "mana_cost": "{0}",
              "oracle_text": "Imprint — When this artifact enters, you may exile a nonartifact, nonland card from your "
                             "hand.\n{T}: Add one mana of any of the exiled card's colors."}


def pay(cost, board, **spell):
    return solve({"spell": {"mana_cost": cost, **spell}, "permanents": board})


@pytest.mark.parametrize("counters, cost, payable", [(3, "{B}{B}{B}", True), (2, "{B}{B}{B}", False),
                                                     (2, "{B}{B}", True), (0, "{B}", False)])
def test_storage_counters_removed_any_number_at_a_time(counters, cost, payable):
    out = pay(cost, [{"id": "v", **VAULT, "counters": {"storage": counters}}])
    assert out["payable"] is payable
    if payable:
        (step,) = out["plan"]["steps"]  # one activation: it taps
        assert step["cost"] == f"{{T}}, Remove {len(cost) // 3} storage counter{'s' if len(cost) > 3 else ''} from this"


def test_storage_counters_removed_x_at_a_time_for_x_mana_of_two_colors():
    """Calciform Pools pays {1} (its own {C}, or the Plains) to make X mana of W and U."""
    board = [{"id": "pools", **POOLS, "counters": {"storage": 2}}, {"id": "pl", **PLAINS}]
    assert pay("{W}{U}{W}", board)["payable"]  # {C} pays the {1}, X=2 makes W and U, the Plains W
    assert not pay("{W}{U}{W}{W}", board)["payable"]
    assert not pay("{U}{U}{U}", board)["payable"]
    assert pay("{U}{U}", [{"id": "pools", **POOLS, "counters": {"storage": 2}}])["payable"]


def test_charge_counters_count_as_the_permanent_is():
    assert pay("{2}", [{"id": "c", **CHALICE, "counters": {"charge": 2}}])["payable"]
    assert not pay("{3}", [{"id": "c", **CHALICE, "counters": {"charge": 2}}])["payable"]
    assert not pay("{1}", [{"id": "c", **CHALICE}])["payable"]  # no counter: it adds nothing


def test_a_creature_type_chosen_as_it_entered():
    elf = {"type_line": "Creature — Elf Warrior"}
    cavern = {"id": "c", **CAVERN, "chosen_type": "Elf"}
    assert pay("{G}", [cavern], **elf)["payable"]
    assert not pay("{G}", [cavern], type_line="Creature — Goblin")["payable"]
    out = pay("{G}", [{"id": "c", **CAVERN}], **elf)  # no type chosen: that line is not read
    assert out["payable"] is None and out["reason"]["code"] == "unread_abilities"
    assert pay("{1}", [{"id": "c", **CAVERN}], **elf)["payable"]  # its {C} was read


def test_the_colors_of_the_card_chrome_mox_exiled():
    assert pay("{R}", [{"id": "m", **CHROME_MOX, "exiled_colors": ["U", "R"]}])["payable"]
    assert not pay("{G}", [{"id": "m", **CHROME_MOX, "exiled_colors": ["U", "R"]}])["payable"]
    assert not pay("{1}", [{"id": "m", **CHROME_MOX, "exiled_colors": []}])["payable"]
    assert pay("{G}", [{"id": "m", **CHROME_MOX}])["payable"] is None  # which card? unread


def test_an_ability_word_has_no_rules_meaning():
    mox = {"id": "o", "name": "Mox Opal", "type_line": "Legendary Artifact",
           "oracle_text": "Metalcraft — {T}: Add one mana of any color. Activate only if you control three or more "
                          "artifacts."}
    out = pay("{G}", [mox])  # the condition is not read yet: the line is listed, not guessed
    assert out["payable"] is None and out["reason"]["unread"][0]["permanent"] == "o"
