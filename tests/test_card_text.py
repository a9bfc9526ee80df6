"""More of real mana text, end to end through the protocol: each form is
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


def test_an_ability_word_has_no_rules_meaning_and_metalcraft_counts_artifacts():
    mox = {"id": "o", "name": "Mox Opal", "type_line": "Legendary Artifact",
           "oracle_text": "Metalcraft — {T}: Add one mana of any color. Activate only if you control three or more "
                          "artifacts."}
    rock = {"type_line": "Artifact", "abilities": []}
    assert pay("{G}", [mox, {"id": "a1", **rock}, {"id": "a2", **rock}])["payable"]
    assert not pay("{G}", [mox, {"id": "a1", **rock}])["payable"]
    # Treasures may be sacrificed while paying, so they are not counted (the Mox might
    # be activated after they are gone); the "no" then says it is not certain
    treasure = {"type_line": "Token Artifact — Treasure", "oracle_text": "{T}, Sacrifice this token: Add one mana of any color."}
    out = pay("{G}{G}{G}", [mox, {"id": "t1", **treasure}, {"id": "t2", **treasure}])
    assert out["payable"] is None and out["reason"]["unread"][0]["permanent"] == "o"


FOREST = {"type_line": "Basic Land — Forest"}
ISLAND = {"type_line": "Basic Land — Island"}


def test_what_a_land_you_control_could_produce_cr_106_7():
    pool = {"id": "rp", "name": "Reflecting Pool", "type_line": "Land",
            "oracle_text": "{T}: Add one mana of any type that a land you control could produce."}
    assert pay("{U}{U}", [pool, {"id": "i", **ISLAND}])["payable"]
    assert not pay("{G}", [pool, {"id": "i", **ISLAND}])["payable"]
    assert not pay("{1}", [pool, dict(pool, id="rp2")])["payable"]  # two Pools alone could produce nothing


def test_urza_lands_make_more_together():
    tower = {"name": "Urza's Tower", "type_line": "Land — Urza's Tower",
             "oracle_text": "{T}: Add {C}. If you control an Urza's Mine and an Urza's Power-Plant, add {C}{C}{C} "
                            "instead."}
    mine = {"name": "Urza's Mine", "type_line": "Land — Urza's Mine",
            "oracle_text": "{T}: Add {C}. If you control an Urza's Power-Plant and an Urza's Tower, add {C}{C} instead."}
    plant = {"name": "Urza's Power Plant", "type_line": "Land — Urza's Power-Plant",
             "oracle_text": "{T}: Add {C}. If you control an Urza's Mine and an Urza's Tower, add {C}{C} instead."}
    tron = [{"id": "t", **tower}, {"id": "m", **mine}, {"id": "p", **plant}]
    assert pay("{7}", tron)["payable"] and not pay("{8}", tron)["payable"]
    assert pay("{2}", tron[:2])["payable"] and not pay("{3}", tron[:2])["payable"]


def test_commander_color_identity_cr_903_4():
    tower = {"id": "ct", "name": "Command Tower", "type_line": "Land",
             "oracle_text": "{T}: Add one mana of any color in your commander's color identity."}
    ask = {"spell": {"mana_cost": "{U}"}, "permanents": [tower]}
    assert solve({**ask, "player": {"commander_identity": ["W", "U"]}})["payable"]
    assert not solve({**ask, "player": {"commander_identity": ["B"]}})["payable"]
    assert not solve({**ask, "player": {"commander_identity": []}})["payable"]  # colorless: no mana (903.4f)
    assert solve(ask)["payable"] is None  # whose commander? not read


def test_mana_only_for_the_commander():
    lotus = {"id": "l", "name": "Jeweled Lotus", "type_line": "Artifact",
             "oracle_text": "{T}, Sacrifice this artifact: Add three mana of any one color. Spend this mana only to "
                            "cast your commander."}
    assert pay("{G}{G}{G}", [lotus], commander=True)["payable"]
    assert not pay("{G}{G}{G}", [lotus])["payable"]


def test_colors_among_permanents():
    tender = {"id": "bt", "name": "Bloom Tender", "type_line": "Creature — Elf Druid", "mana_cost": "{1}{G}",
              "oracle_text": "Vivid — {T}: For each color among permanents you control, add one mana of that color."}
    blue = {"id": "u", "type_line": "Enchantment", "colors": ["U"], "abilities": []}
    assert pay("{U}{G}", [tender, blue])["payable"]  # one activation adds both
    assert not pay("{U}{G}", [tender])["payable"]
    amber = {"id": "ma", "name": "Mox Amber", "type_line": "Legendary Artifact", "mana_cost": "{0}",
             "oracle_text": "{T}: Add one mana of any color among legendary creatures and planeswalkers you control."}
    legend = {"id": "lg", "type_line": "Legendary Creature — Elf", "colors": ["G", "W"], "abilities": []}
    assert pay("{W}", [amber, legend])["payable"] and not pay("{U}", [amber, legend])["payable"]


def test_abilities_one_permanent_gives_others():
    lantern = {"id": "cl", "name": "Chromatic Lantern", "type_line": "Artifact",
               "oracle_text": "Lands you control have \"{T}: Add one mana of any color.\"\n{T}: Add one mana of any color."}
    wastes = {"id": "w", "type_line": "Basic Land — Wastes", "oracle_text": "{T}: Add {C}."}
    out = pay("{R}{G}", [lantern, wastes])
    assert out["payable"] and {s["permanent"]: s["ability"] for s in out["plan"]["steps"]}["w"] == 1
    assert next(s for s in out["plan"]["steps"] if s["permanent"] == "w")["given_by"] == "cl"
    rite = {"id": "cr", "name": "Cryptolith Rite", "type_line": "Enchantment",
            "oracle_text": "Creatures you control have \"{T}: Add one mana of any color.\""}
    bear = {"id": "b", "type_line": "Creature — Bear", "abilities": []}
    assert pay("{R}", [rite, bear])["payable"]
    assert not pay("{R}", [rite, {**bear, "summoning_sick": True}])["payable"]  # CR 302.6


def test_what_the_opponents_control():
    orchard = {"id": "eo", "name": "Exotic Orchard", "type_line": "Land",
               "oracle_text": "{T}: Add one mana of any color that a land an opponent controls could produce."}
    theirs = [{"id": "o1", **ISLAND}]
    assert solve({"spell": {"mana_cost": "{U}"}, "permanents": [orchard], "opponents": theirs})["payable"]
    assert not solve({"spell": {"mana_cost": "{G}"}, "permanents": [orchard], "opponents": theirs})["payable"]
    assert solve({"spell": {"mana_cost": "{G}"}, "permanents": [orchard]})["payable"] is None
    out = solve({"spell": {"mana_cost": "{U}"}, "permanents": [orchard], "opponents": [{"id": "eo", **ISLAND}]})
    assert out["error"]["at"] == "opponents[0].id"  # one id namespace per request


ALTAR = {"id": "alt", "name": "Ashnod's Altar", "type_line": "Artifact", "oracle_text": "Sacrifice a creature: Add {C}{C}."}
ELF = {"name": "Llanowar Elves", "type_line": "Creature — Elf Druid", "oracle_text": "{T}: Add {G}."}


def test_a_cost_that_sacrifices_another_permanent():
    """Tap the Elves for {G}, then sacrifice them to the altar for {C}{C} (CR 602.2b: the
    sacrifice is part of the altar's cost; the creature may be used first)."""
    out = pay("{2}{G}", [ALTAR, {"id": "e", **ELF}])
    assert out["payable"] and out["plan"]["sacrificed"] == ["e"] and out["plan"]["tapped"] == ["e"]
    altar_step = next(s for s in out["plan"]["steps"] if s["permanent"] == "alt")
    assert altar_step == {"permanent": "alt", "ability": 0, "cost": "Sacrifice a creature", "sacrifices": "e",
                          "pays": "", "payment": [], "adds": "{C}{C}"}
    assert {line["from"] for line in out["plan"]["payment"] if line["mana"] == "C"} == {"alt"}
    assert not pay("{3}{G}", [ALTAR, {"id": "e", **ELF}])["payable"]
    sick = pay("{2}", [ALTAR, {"id": "e", **ELF, "summoning_sick": True}])  # no {T}: sickness doesn't matter
    assert sick["payable"] and sick["plan"]["sacrificed"] == ["e"]
    kept = solve({"spell": {"mana_cost": "{2}"}, "permanents": [ALTAR, {"id": "e", **ELF}],
                  "prefer": {"never_sacrifice": ["e"]}})
    assert not kept["payable"]
    assert not pay("{2}", [ALTAR, {"id": "w", "type_line": "Basic Land — Wastes", "abilities": []}])["payable"]


def test_an_altar_that_is_its_own_kind_sacrifices_only_itself_with_certainty():
    prospector = {"id": "sp", "name": "Skirk Prospector", "type_line": "Creature — Goblin",
                  "oracle_text": "Sacrifice a Goblin: Add {R}."}
    goblin = {"id": "g", "type_line": "Creature — Goblin Warrior", "abilities": []}
    assert pay("{R}", [prospector])["payable"]  # it sacrifices itself
    out = pay("{R}{R}", [prospector, goblin])  # the goblin first, then itself: not modelled yet
    assert out["payable"] is None and out["reason"]["code"] == "unread_abilities"


def test_a_sacrifice_counts_for_what_is_counted_after_it():
    cradle = {"id": "gc", "name": "Gaea's Cradle", "type_line": "Legendary Land",
              "oracle_text": "{T}: Add {G} for each creature you control."}
    elves = [{"id": f"e{k}", **ELF} for k in range(2)]
    # Cradle first (2 creatures: {G}{G}), then both elves to the altar ({C}{C} each), elves tapped first
    assert pay("{4}{G}{G}{G}{G}", [ALTAR, cradle] + elves)["payable"]
    assert not pay("{5}{G}{G}{G}{G}", [ALTAR, cradle] + elves)["payable"]


def test_cabal_ritual_threshold_in_a_sequence():
    ritual = {"id": "cr", "name": "Cabal Ritual", "mana_cost": "{1}{B}", "type_line": "Instant",
              "oracle_text": "Add {B}{B}{B}.\nThreshold — Add {B}{B}{B}{B}{B} instead if there are seven or more "
                             "cards in your graveyard."}
    big = {"id": "big", "mana_cost": "{B}{B}{B}{B}{B}", "type_line": "Sorcery"}
    swamps = [{"id": f"s{k}", "type_line": "Basic Land — Swamp"} for k in range(2)]
    ask = {"query": "sequence", "spells": [ritual, big], "permanents": swamps}
    assert not solve({**ask, "player": {"graveyard": 6}})["payable"]
    assert solve({**ask, "player": {"graveyard": 7}})["payable"]


OPAL = {"id": "opal", "name": "Mox Opal", "type_line": "Legendary Artifact",
        "oracle_text": "Metalcraft — {T}: Add one mana of any color. Activate only if you control three or more "
                       "artifacts."}
WASTES = {"type_line": "Basic Land", "oracle_text": "{T}: Add {C}."}


def test_mana_that_depends_on_the_board_is_worked_out_again_as_a_sequence_changes_it():
    """Found by review: the boards a sequence builds from resolved permanents kept the
    first board's amounts (and gave an altar's ability twice: an invalid plan)."""
    thopters = [{"id": f"t{k}", "type_line": "Artifact Creature — Thopter", "abilities": []} for k in range(2)]
    altar = {"id": "alt", "name": "Ashnod's Altar", "mana_cost": "{3}", "type_line": "Artifact",
             "oracle_text": "Sacrifice a creature: Add {C}{C}."}
    out = solve({"query": "sequence", "spells": [altar, {"id": "s", "mana_cost": "{U}{4}", "type_line": "Instant"}],
                 "permanents": [OPAL] + thopters + [{"id": f"c{k}", **WASTES} for k in range(3)]})
    assert out["payable"], out  # Opal (three artifacts) first, then both Thopters to the altar
    rock = {"id": "a1", "mana_cost": "{1}", "type_line": "Artifact"}
    out = solve({"query": "sequence", "spells": [rock, {"id": "s", "mana_cost": "{U}", "type_line": "Instant"}],
                 "permanents": [OPAL, {"id": "ar", "type_line": "Artifact", "abilities": []}, {"id": "c", **WASTES}]})
    assert out["payable"]  # the rock cast first makes metalcraft
    pool = {"id": "rp", "name": "Reflecting Pool", "type_line": "Land",
            "oracle_text": "{T}: Add one mana of any type that a land you control could produce."}
    out = solve({"query": "best_turn", "permanents": [pool, {"id": "is", **ISLAND}],
                 "hand": [{"id": "fo", **FOREST}, {"id": "gg", "mana_cost": "{G}{G}", "type_line": "Sorcery"}]})
    assert out["land"] == "fo" and out["cast"] == ["gg"]


def test_what_a_land_could_produce_counts_what_it_was_given():
    lantern = {"id": "cl", "name": "Chromatic Lantern", "type_line": "Artifact", "tapped": True,
               "oracle_text": "Lands you control have \"{T}: Add one mana of any color.\"\n{T}: Add one mana of any color."}
    druid = {"id": "d", "name": "Incubation Druid", "type_line": "Creature — Dryad",
             "oracle_text": "{T}: Add one mana of any type that a land you control could produce. If this creature "
                            "has a +1/+1 counter on it, add three mana of that type instead."}
    assert pay("{U}", [lantern, druid, {"id": "f", **FOREST, "tapped": True}])["payable"]  # CR 106.7


def test_a_threshold_is_used_only_when_the_graveyard_at_resolution_is_certain():
    """Found by review: the threshold was decided on the graveyard before the step
    (delve empties it; instants cast before the ritual fill it)."""
    ritual = {"id": "cr", "name": "Cabal Ritual", "mana_cost": "{1}{B}", "type_line": "Instant",
              "oracle_text": "Add {B}{B}{B}.\nThreshold — Add {B}{B}{B}{B}{B} instead if there are seven or more "
                             "cards in your graveyard."}
    big = {"id": "big", "mana_cost": "{B}{B}{B}{B}{B}", "type_line": "Sorcery"}
    swamps = [{"id": f"s{k}", "type_line": "Basic Land — Swamp"} for k in range(2)]
    delver = {"id": "d", "mana_cost": "{4}", "type_line": "Sorcery", "delve": True}
    out = solve({"query": "sequence", "spells": [delver, ritual, big], "permanents": swamps,
                 "player": {"graveyard": 7}})
    assert out["payable"] is None and out["reason"]["unread"][0]["permanent"] == "cr"
    first = {"id": "in", "mana_cost": "{0}", "type_line": "Instant"}
    out = solve({"query": "sequence", "spells": [first, ritual, big], "permanents": swamps,
                 "player": {"graveyard": 6}})
    assert out["payable"] is None  # 6 + the instant may make 7: not certain either way
    assert not solve({"query": "sequence", "spells": [ritual, big], "permanents": swamps,
                      "player": {"graveyard": 5}})["payable"]  # certainly {B}{B}{B}


def test_a_permanent_spell_s_entering_mana_and_unread_text_count_in_a_sequence():
    priest = {"id": "pu", "name": "Priest of Urabrask", "mana_cost": "{2}{R}", "type_line": "Creature — Human Cleric",
              "oracle_text": "When this creature enters, add {R}{R}{R}."}
    mountains = [{"id": f"m{k}", "type_line": "Basic Land — Mountain"} for k in range(3)]
    assert solve({"query": "sequence", "spells": [priest, {"id": "x", "mana_cost": "{R}{R}{R}", "type_line": "Sorcery"}],
                  "permanents": mountains})["payable"]
    rock = {"id": "w", "mana_cost": "{R}", "type_line": "Artifact",
            "oracle_text": "{T}: Add {C}{C}. Activate only if you control a Wizard."}
    out = solve({"query": "sequence", "spells": [rock, {"id": "y", "mana_cost": "{1}", "type_line": "Sorcery"}],
                 "permanents": mountains[:1]})
    assert out["payable"] is False  # ("Activate only if you control a Wizard." is read: no Wizard)
    wizard = {"id": "wiz", "type_line": "Creature — Human Wizard"}
    assert solve({"query": "sequence", "spells": [rock, {"id": "y", "mana_cost": "{1}", "type_line": "Sorcery"}],
                  "permanents": mountains[:1] + [wizard]})["payable"]


def test_text_that_changes_costs_is_read_or_the_spells_to_say():
    """Found by review: Thalia's "Noncreature spells cost {1} more to cast." was neither
    read nor listed, and {R} was paid with one Mountain (illegal, CR 601.2f).
    it is read (model.cost_effects); text about costs that is not read makes any answer
    null unless the spell says how its cost changes."""
    thalia = {"id": "th", "name": "Thalia, Guardian of Thraben", "type_line": "Legendary Creature — Human Soldier",
              "oracle_text": "First strike\nNoncreature spells cost {1} more to cast."}
    board = [thalia, {"id": "m", "type_line": "Basic Land — Mountain"}]
    out = pay("{R}", board, type_line="Instant")
    assert out["payable"] is False and out["reason"]["needs"] == 2  # {1}{R}
    assert pay("{R}", board, type_line="Creature — Elf")["payable"]  # a creature spell: no tax
    assert pay("{R}", board, type_line="Instant", increase=[])["payable"]  # the caller says none applies
    sphere = {"id": "ds", "name": "Damping Grid", "type_line": "Artifact",  # (two real lines on one test card)
              "oracle_text": "If a land is tapped for two or more mana, it produces {C} instead of any other type and "
                             "amount.\nEach spell costs {3} more to cast except during its controller's turn."}
    board = [sphere, {"id": "m", "type_line": "Basic Land — Mountain"}]
    out = pay("{R}", board, type_line="Instant")
    assert out["payable"] is None and out["reason"]["unread"] == [{"permanent": "ds", "text": sphere["oracle_text"]
                                                                    .split("\n")[1]}]
    assert pay("{R}", board, type_line="Instant", increase=["{1}"])["payable"] is False
    assert pay("{R}", board, type_line="Creature — Elf", increase=[])["payable"]
    cast = solve({"query": "castable", "permanents": board,
                  "hand": [{"id": "a", "mana_cost": "{R}", "type_line": "Creature — Elf", "increase": []},
                           {"id": "b", "mana_cost": "{R}", "type_line": "Instant"}]})
    assert [c["payable"] for c in cast["castable"]] == [True, None]


DRUM = {"id": "drum", "name": "Springleaf Drum", "type_line": "Artifact",
        "oracle_text": "{T}, Tap an untapped creature you control: Add one mana of any color."}
TOWER = {"id": "pt", "name": "Phyrexian Tower", "type_line": "Legendary Land",
         "oracle_text": "{T}: Add {C}.\n{T}, Sacrifice a creature: Add {B}{B}."}


def test_springleaf_drum_taps_itself_and_a_creature_even_a_summoning_sick_one():
    sick = {"id": "e", **ELF, "summoning_sick": True}
    out = pay("{U}", [DRUM, sick])
    assert out["payable"] and sorted(out["plan"]["tapped"]) == ["drum", "e"]  # CR 302.6: not the Elf's own {T}
    assert out["plan"]["steps"][0] == {"permanent": "drum", "ability": 0, "cost": "{T}, Tap an untapped creature "
                                       "you control", "taps": "e", "pays": "", "payment": [], "adds": "{U}"}
    assert not pay("{U}{U}", [DRUM, sick, {**sick, "id": "e2"}])["payable"]  # the Drum taps once
    ready = {"id": "e", **ELF}
    assert not pay("{G}{U}", [DRUM, ready])["payable"]  # the Elf taps once: for {G} or for the Drum
    assert pay("{U}", [DRUM, sick], convoke=True, type_line="Instant")["payable"]
    assert not pay("{1}{U}", [DRUM, sick], convoke=True, type_line="Instant")["payable"]  # tapped: can't convoke too
    assert not pay("{U}", [{**DRUM, "tapped": True}, sick])["payable"]


def test_phyrexian_tower_taps_and_sacrifices_a_creature():
    elf = {"id": "e", **ELF}
    out = pay("{B}{B}{G}", [TOWER, elf])  # the Elf taps for {G} first, then goes to the Tower
    assert out["payable"] and out["plan"]["sacrificed"] == ["e"] and sorted(out["plan"]["tapped"]) == ["e", "pt"]
    assert not pay("{B}{B}{C}", [TOWER, elf])["payable"]  # one tap of the Tower
    lumberjack = {"id": "oj", "name": "Orcish Lumberjack", "type_line": "Creature — Orc",
                  "oracle_text": "{T}, Sacrifice a Forest: Add three mana in any combination of {R} and/or {G}."}
    forest = {"id": "f", **FOREST}
    assert pay("{R}{R}{G}{G}", [lumberjack, forest])["payable"]  # tap the Forest for {G}, then sacrifice it
    assert not pay("{R}", [{**lumberjack, "summoning_sick": True}, forest])["payable"]  # its own {T}: sick


HUB = {"name": "Aether Hub", "type_line": "Land",
       "oracle_text": "When this land enters, you get {E} (an energy counter).\n{T}: Add {C}.\n"
                      "{T}, Pay {E}: Add one mana of any color."}


def test_energy_is_the_player_s_and_shared_by_the_whole_step():
    hubs = [{"id": "h1", **HUB}, {"id": "h2", **HUB}]
    ask = {"spell": {"mana_cost": "{U}"}, "permanents": hubs[:1]}
    out = solve({**ask, "player": {"energy": 1}})
    assert out["payable"] and out["plan"]["steps"][0]["energy"] == 1
    assert not solve({**ask, "player": {"energy": 0}})["payable"]
    assert not solve({"spell": {"mana_cost": "{U}{U}"}, "permanents": hubs, "player": {"energy": 1}})["payable"]
    instants = [{"id": k, "mana_cost": "{U}", "type_line": "Instant"} for k in ("a", "b")]
    seq = {"query": "sequence", "spells": instants, "permanents": hubs}
    assert not solve({**seq, "player": {"energy": 1}})["payable"]  # the second can't pay {E} again
    assert solve({**seq, "player": {"energy": 2}})["payable"]


def test_powerstone_mana_pays_abilities_but_not_a_nonartifact_spell():
    powerstone = {"id": "pw", "type_line": "Token Artifact — Powerstone",
                  "oracle_text": "{T}: Add {C}. This mana can't be spent to cast a nonartifact spell."}
    signet = {"id": "sg", "name": "Dimir Signet", "type_line": "Artifact", "oracle_text": "{1}, {T}: Add {U}{B}."}
    assert not pay("{1}", [powerstone], type_line="Instant")["payable"]
    assert pay("{1}", [powerstone], type_line="Artifact")["payable"]
    out = pay("{U}{B}", [powerstone, signet], type_line="Instant")  # its {C} pays the Signet's {1}
    assert out["payable"] and out["plan"]["steps"][1]["payment"][0]["from"] == "pw"


def test_a_loyalty_ability_that_adds_mana_is_used_at_sorcery_speed_once_a_turn():
    chandra = {"id": "ch", "name": "Chandra, Torch of Defiance", "type_line": "Legendary Planeswalker — Chandra",
               "counters": {"loyalty": 4},
               "oracle_text": "+1: Exile the top card of your library. You may cast that card. If you don't, Chandra, "
                              "Torch of Defiance deals 2 damage to each opponent.\n+1: Add {R}{R}.\n−3: Chandra, Torch "
                              "of Defiance deals 4 damage to target creature."}
    out = pay("{R}{R}", [chandra], type_line="Sorcery")
    assert out["payable"] and out["plan"]["steps"][0]["cost"] == "+1" and out["plan"]["steps"][0]["before_casting"]
    assert pay("{R}{R}", [chandra], type_line="Instant")["payable"] is None  # sorcery speed now? not said
    sorceries = [{"id": k, "mana_cost": "{R}{R}", "type_line": "Sorcery"} for k in ("a", "b")]
    assert solve({"query": "sequence", "spells": sorceries, "permanents": [chandra]})["payable"] is False  # once a turn


def test_damping_sphere_makes_a_land_tapped_for_two_or_more_produce_one_colorless():
    sphere = {"id": "ds", "name": "Damping Grid", "type_line": "Artifact",  # (two real lines on one test card)
              "oracle_text": "If a land is tapped for two or more mana, it produces {C} instead of any other type and "
                             "amount.\nEach spell costs {3} more to cast except during its controller's turn."}
    tomb = {"id": "at", "name": "Ancient Tomb", "type_line": "Land",
            "oracle_text": "{T}: Add {C}{C}. Ancient Tomb deals 2 damage to you."}
    assert pay("{2}", [tomb])["payable"]
    assert not pay("{2}", [sphere, tomb], increase=[])["payable"]  # CR 614: {C} instead of {C}{C}
    assert pay("{1}", [sphere, tomb], increase=[])["payable"]
    assert pay("{1}", [sphere, tomb])["payable"] is None  # its cost increase is the spell's to say


def test_a_depletion_land_is_sacrificed_with_its_last_counter():
    needle = {"name": "Sandstone Needle", "type_line": "Land",
              "oracle_text": "This land enters tapped with two depletion counters on it.\n{T}, Remove a depletion "
                             "counter from this land: Add {R}{R}. If there are no depletion counters on this land, "
                             "sacrifice it."}
    last = pay("{R}{R}", [{"id": "n", **needle, "counters": {"depletion": 1}}])
    assert last["payable"] and last["plan"]["sacrificed"] == ["n"]
    assert pay("{R}{R}", [{"id": "n", **needle, "counters": {"depletion": 2}}])["plan"]["sacrificed"] == []
    assert not pay("{R}{R}", [{"id": "n", **needle}])["payable"]  # no counter left


def test_a_leveler_has_the_abilities_of_its_level():
    treespeaker = {"name": "Joraga Treespeaker", "type_line": "Creature — Elf Druid",
                   "oracle_text": "Level up {1}{G} ({1}{G}: Put a level counter on this. Level up only as a sorcery.)\n"
                                  "LEVEL 1-4\n1/2\n{T}: Add {G}{G}.\nLEVEL 5+\n1/4\nElves you control have \"{T}: Add "
                                  "{G}{G}.\""}
    elf = {"id": "e", "type_line": "Creature — Elf Warrior", "abilities": []}
    at = lambda level: [{"id": "jt", **treespeaker, "counters": {"level": level}}, elf]
    assert not pay("{G}", at(0))["payable"]  # CR 711: no level yet, no ability
    assert pay("{G}{G}", at(1))["payable"] and not pay("{G}{G}{G}", at(1))["payable"]
    assert pay("{G}{G}{G}{G}", at(5))["payable"]  # level 5: every Elf, itself too, taps for {G}{G}


ORRERY = {"name": "Chromatic Orrery", "type_line": "Legendary Artifact", "mana_cost": "{7}",
          "oracle_text": "You may spend mana as though it were mana of any color.\n{T}: Add {C}{C}{C}{C}{C}.\n"
                         "{5}, {T}: Draw a card for each color among permanents you control."}
WASTES = {"name": "Wastes", "type_line": "Basic Land", "oracle_text": "{T}: Add {C}."}
FOREST = {"type_line": "Basic Land — Forest"}


def test_chromatic_orrery_spends_mana_as_though_it_were_any_color_cr_609_4b():
    alone = pay("{W}{U}{B}{R}{G}", [{"id": "o", **ORRERY}])  # it alone was called unable
    assert alone["payable"] and {line["mana"] for line in alone["plan"]["payment"]} == {"C"}
    tapped = {"id": "o", **ORRERY, "tapped": True}
    assert pay("{W}", [tapped, {"id": "w", **WASTES}])["payable"]  # colorless mana pays {W}
    assert not pay("{W}", [{"id": "w", **WASTES}])["payable"]
    # it changes how mana is spent, not the cost: {C} still takes colorless mana
    no = pay("{C}", [tapped, {"id": "f", **FOREST}])
    assert no["payable"] is False and no["reason"]["types"] == ["C"]
    # a count over colors alone proves nothing here: the certificate counts all mana
    short = pay("{W}{W}", [tapped, {"id": "f", **FOREST}])
    assert short["payable"] is False and short["reason"]["types"] == ["W", "U", "B", "R", "G", "C"]


def test_any_color_spending_pays_ability_costs_too_and_not_convoke():
    tapped = {"id": "o", **ORRERY, "tapped": True}
    gate = {"id": "mg", "name": "Mystic Gate", "type_line": "Land",
            "oracle_text": "{T}: Add {C}.\n{W/U}, {T}: Add {W}{W}, {W}{U}, or {U}{U}."}
    board = [tapped, {"id": "w", **WASTES}, gate]
    assert pay("{W}{W}", board)["payable"]  # the Wastes' {C} pays the filter's {W/U}
    assert not pay("{W}{W}", board[1:])["payable"]
    # convoke taps a creature, it spends no mana (CR 702.51a): a green creature can't pay {W}
    elf = {"id": "e", "type_line": "Creature — Elf", "colors": ["G"], "abilities": []}
    assert not pay("{W}", [tapped, elf], convoke=True)["payable"]
    assert pay("{G}", [tapped, elf], convoke=True)["payable"]


def test_mycosynth_lattice_lets_every_player_spend_mana_as_any_color():
    lattice = {"id": "ml", "name": "Mycosynth Lattice", "type_line": "Artifact",
               "oracle_text": "All permanents are artifacts in addition to their other types.\nAll cards that aren't on "
                              "the battlefield, spells, and permanents are colorless.\nPlayers may spend mana as though "
                              "it were mana of any color."}
    out = pay("{U}{U}", [lattice, {"id": "m1", "type_line": "Basic Land — Mountain"},
                         {"id": "m2", "type_line": "Basic Land — Mountain"}])
    assert out["payable"]


def test_any_color_spending_ends_when_its_permanent_is_sacrificed_cr_611_3a():
    """fuzz: an altar's mana made by sacrificing the Orrery was spent as {W} (the plan
    failed validation: an internal error); the effect leaves with its permanent."""
    orrery = {"id": "o", **ORRERY, "tapped": True}
    altar = {"id": "altar", "type_line": "Creature — Elf",  # (not an artifact: it can't sacrifice itself)
             "abilities": [{"cost": "Sacrifice an artifact", "add": "{C}{C}"}]}
    assert not pay("{W}", [orrery, altar])["payable"]  # sacrificing it leaves {C}{C} that can't pay {W}
    assert pay("{C}{C}", [orrery, altar])["payable"]
    assert pay("{W}", [orrery, altar, {"id": "w", **WASTES}])["payable"]  # the Wastes' {C} as {W}, the Orrery kept
    # in a sequence: the mana floats on, the Orrery is gone for the next spell too
    both = solve({"query": "sequence", "permanents": [orrery, altar],
                      "spells": [{"id": "a", "mana_cost": "{1}"}, {"id": "b", "mana_cost": "{W}"}]})
    assert both["payable"] is False and both["reason"]["failed"] == "b"
    wastes = solve({"query": "sequence", "permanents": [orrery, altar, {"id": "w", **WASTES}, {"id": "w2", **WASTES}],
                        "spells": [{"id": "a", "mana_cost": "{1}"}, {"id": "b", "mana_cost": "{W}"}]})
    assert wastes["payable"] is True


def test_reminder_text_naming_an_ability_the_card_lacks_is_listed_not_dropped():
    """Reminder text is not rules text (CR 207.2): "({T}: Add {C}.)" on an artifact gives
    it nothing, and a "no" that might have used it says so. A land with no basic
    land type whose only text is that (Wastes, as Scryfall writes it) has that ability."""
    wastes = {"id": "w", "name": "Wastes", "type_line": "Basic Land", "oracle_text": "({T}: Add {C}.)"}
    assert pay("{C}", [wastes])["payable"]
    rock = {"id": "r", "name": "Rock", "type_line": "Artifact", "oracle_text": "({T}: Add {C}.)"}
    out = pay("{1}", [rock])
    assert out["payable"] is None and out["reason"]["code"] == "unread_abilities"
    assert pay("{G}", [{"id": "f", **FOREST, "oracle_text": "({T}: Add {G}.)"}])["payable"]


CUBE = {"name": "Doubling Cube", "type_line": "Artifact", "mana_cost": "{2}",
        "oracle_text": "{3}, {T}: Double the amount of each type of unspent mana you have."}
SWAMPS = [{"id": f"s{i}", "type_line": "Basic Land — Swamp"} for i in range(7)]


def test_doubling_cube_doubles_each_type_of_unspent_mana_cr_701_9f():
    """7 Swamps and Doubling Cube "couldn't" pay {8}: tap the Swamps, pay {3}
    of the seven, double the four left."""
    board = [{"id": "dc", **CUBE}] + SWAMPS
    out = pay("{8}", board)
    assert out["payable"] and out["plan"]["tapped"][-1] == "dc"
    cube_step = out["plan"]["steps"][-1]
    assert cube_step["pays"] == "{B}{B}{B}" and cube_step["adds"] == "{B}{B}{B}{B}"
    assert not pay("{9}", board)["payable"]
    assert pay("{7}", board)["plan"]["tapped"] == [s["id"] for s in SWAMPS]  # the Cube only when it helps
    assert solve({"query": "max_x", "spell": {"mana_cost": "{X}{B}"}, "permanents": board})["x"] == 7


def test_doubling_cube_doubles_each_type_as_it_is_and_its_mana_is_unrestricted():
    forests = [{"id": f"f{i}", "type_line": "Basic Land — Forest"} for i in range(3)]
    board = [{"id": "dc", **CUBE}] + SWAMPS[:4] + forests
    # 4 Swamps and 3 Forests: pay {3} with three of them, double the other four, type by type
    assert pay("{G}{G}{G}{G}{B}{B}{B}{B}", board)["payable"]  # {3} paid with B, B, G: 2B 2G doubled
    assert pay("{G}{G}{G}{G}{G}{B}{B}{B}", board)["payable"] is False  # 5 green needs 3 Forests left: 1 Swamp
    out = pay("{G}{G}{B}{B}{B}{B}{B}{B}", board)
    assert out["payable"] and out["plan"]["steps"][-1]["adds"] == "{B}{B}{B}{G}"
    # a creature-only mana doubled: what is added carries no restriction (it is the Cube's)
    cavern_like = {"id": "c", "type_line": "Land", "abilities": [
        {"cost": "{T}", "add": "{C}{C}{C}{C}", "restrict": "creature spells"}]}
    assert pay("{4}", [{"id": "dc", **CUBE}, cavern_like, SWAMPS[0], SWAMPS[1], SWAMPS[2]],
               type_line="Sorcery")["payable"]


def test_the_protocol_writes_a_doubling_as_add_double():
    board = [{"id": "dc", "type_line": "Artifact", "abilities": [{"cost": "{3}, {T}", "add": "double"}]}] + SWAMPS
    assert pay("{8}", board)["payable"]


def test_a_doubling_under_triggered_mana_is_not_used_and_a_no_says_so():
    bloom = {"id": "vb", "type_line": "Enchantment", "abilities": [],
             "triggers": [{"when": "tapped", "of": "Forest", "add": "{G}"}]}
    out = pay("{8}", [{"id": "dc", **CUBE}, bloom] + SWAMPS)
    assert out["payable"] is None and out["reason"]["code"] == "unread_abilities"


def test_a_doubling_in_a_sequence_floats_its_mana_to_the_next_spell():
    """The Cube's mana left floating pays the next spell of the step (CR 106.4)."""
    out = solve({"query": "sequence", "spells": [{"id": "a", "mana_cost": "{4}"}, {"id": "b", "mana_cost": "{4}"}],
                 "permanents": [{"id": "dc", **CUBE}] + SWAMPS})
    assert out["payable"] and [s["id"] for s in out["sequence"]] == ["a", "b"]
    assert out["sequence"][1]["plan"]["tapped"] == []  # paid from what floats
    assert solve({"query": "sequence", "spells": [{"id": "a", "mana_cost": "{4}"}, {"id": "b", "mana_cost": "{5}"}],
                  "permanents": [{"id": "dc", **CUBE}] + SWAMPS})["payable"] is False


def test_a_doubling_that_sacrifices_its_own_permanent_is_used():
    """A doubling whose cost sacrifices its permanent (review): its own sacrifice is the
    activation itself, not a later one."""
    board = [{"id": "dc", "type_line": "Artifact", "abilities": [{"cost": "{1}, Sacrifice this", "add": "double"}]},
             SWAMPS[0], SWAMPS[1], SWAMPS[2]]
    out = pay("{4}", board)
    assert out["payable"] and out["plan"]["sacrificed"] == ["dc"]


def test_review_cases_of_the_doubling_model():
    """Found by an independent review: three free doublings need three layers; a ritual's
    mana carried to a later payment may be doubled there too; a doubling that could be
    activated again and again is refused."""
    free = [{"id": f"c{i}", "type_line": "Artifact", "abilities": [{"cost": "{T}", "add": "double"}]} for i in range(3)]
    assert pay("{8}", free + [SWAMPS[0]])["payable"]  # 1 doubled three times
    assert pay("{9}", free + [SWAMPS[0]])["payable"] is False
    ritual = {"id": "rit", "mana_cost": "{0}", "type_line": "Instant", "oracle_text": "Add {B}{B}{B}{B}."}
    out = solve({"query": "sequence", "spells": [ritual, {"id": "big", "mana_cost": "{8}"}],
                 "permanents": [free[0]]})
    assert out["payable"]
    bad = solve({"spell": {"mana_cost": "{1}"}, "permanents": [
        {"id": "x", "type_line": "Artifact", "abilities": [{"cost": "Pay 1 life", "add": "double"}]}]})
    assert "error" in bad


def test_a_doubling_paid_with_counters_doubles_once_per_activation():
    """Each activation doubles the pool as it then stands: two counters, two doublings
    one after the other (one doubling per layer in the model)."""
    board = [{"id": "dc", "type_line": "Artifact", "counters": {"charge": 2},
              "abilities": [{"cost": "Remove a charge counter from this", "add": "double"}]}, SWAMPS[0]]
    out = pay("{4}", board)
    assert out["payable"] and [s["adds"] for s in out["plan"]["steps"]] == ["{B}", "{B}", "{B}{B}"]
    assert pay("{5}", board)["payable"] is False
