"""Cards as Scryfall gives them: card objects beside a permanent or spell in
``card``, or pasted whole; their faces; every field that bears no mana ignored. The
objects are in tests/fixtures/scryfall_cards.json, in the shape of the API's answers."""

import copy
import json
import os

import pytest

from manaplan import solve

CARDS = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "scryfall_cards.json")))


def card(key: str) -> dict:
    return copy.deepcopy(CARDS[key])


#: the board as Scryfall objects: a modal double-faced land on each face, Sol Ring pasted
#: whole, basics pasted twice from one printing (each copy its own instance)
SCRYFALL_BOARD = [
    {"id": "bright", "card": card("brightclimb_pathway")},
    {"id": "grim", "card": card("brightclimb_pathway"), "face": 1},
    {**card("sol_ring"), "instance": "sol"},
    {**card("forest"), "instance": "f1"},
    {**card("island"), "instance": "i1"},
    {**card("island"), "instance": "i2", "tapped": True},
]
#: the same board written out as explicit abilities
EXPLICIT_BOARD = [
    {"id": "bright", "abilities": [{"cost": "{T}", "add": "{W}"}]},
    {"id": "grim", "abilities": [{"cost": "{T}", "add": "{B}"}]},
    {"id": "sol", "abilities": [{"cost": "{T}", "add": "{C}{C}"}]},
    {"id": "f1", "abilities": [{"cost": "{T}", "add": "{G}"}]},
    {"id": "i1", "abilities": [{"cost": "{T}", "add": "{U}"}]},
    {"id": "i2", "abilities": [{"cost": "{T}", "add": "{U}"}], "tapped": True},
]
#: spells as Scryfall objects, and the same costs written out
SPELLS = [
    ({"card": card("fire_ice"), "face": 1}, {"mana_cost": "{1}{U}", "type_line": "Instant"}),  # Ice
    ({**card("fire_ice"), "face": 0}, {"mana_cost": "{1}{R}", "type_line": "Instant"}),  # Fire, pasted
    ({"card": card("turn_burn"), "fuse": True}, {"mana_cost": "{2}{U}{1}{R}", "type_line": "Instant"}),
    ({"card": card("bonecrusher"), "face": 1}, {"mana_cost": "{1}{R}", "type_line": "Instant — Adventure"}),
    ({"card": card("bonecrusher"), "face": 0}, {"mana_cost": "{2}{R}", "type_line": "Creature — Giant"}),
    ({"card": card("emeria")}, {"mana_cost": "{4}{W}{W}{W}", "type_line": "Sorcery"}),  # the front face
    ({"card": card("sol_ring")}, {"mana_cost": "{1}", "type_line": "Artifact"}),
]


@pytest.mark.parametrize("as_card, written", SPELLS)
@pytest.mark.parametrize("query", ["pay", "can_pay", "max_x"])
def test_scryfall_objects_get_the_answers_of_the_same_cards_written_out(as_card, written, query):
    if query == "max_x":
        as_card, written = {**as_card, "additional": ["{X}"]}, {**written, "additional": ["{X}"]}
    mine = solve({"query": query, "spell": as_card, "permanents": SCRYFALL_BOARD})
    theirs = solve({"query": query, "spell": written, "permanents": EXPLICIT_BOARD})
    assert "error" not in mine, mine
    assert mine == theirs


def test_a_hand_of_scryfall_objects_gets_the_castable_answers_of_the_cards_written_out():
    hand = [{**spell, "id": f"h{k}"} for k, (spell, _) in enumerate(SPELLS) if "card" in spell]
    written = [{**spell, "id": f"h{k}"} for k, (c, spell) in enumerate(SPELLS) if "card" in c]
    mine = solve({"query": "castable", "hand": hand, "permanents": SCRYFALL_BOARD})
    theirs = solve({"query": "castable", "hand": written, "permanents": EXPLICIT_BOARD})
    assert mine == theirs and [c["payable"] for c in mine["castable"]] == [True, False, False, False, False, True]


@pytest.mark.parametrize("key", [k for k in CARDS if not k.startswith("_")])
def test_a_card_object_with_every_presentation_field_is_accepted_as_it_comes(key):
    obj = card(key)
    for field in ("prices", "image_uris", "legalities", "artist", "purchase_uris", "related_uris"):
        assert field in obj or field == "image_uris"  # the fixture has the API's fields
    spell = {**obj, "face": 0} if obj.get("layout") in ("split", "adventure") else obj
    out = solve({"query": "can_pay", "spell": spell, "permanents": [{**spell, "instance": "x"}]})
    assert "error" not in out, out


def test_copies_of_one_printing_need_instances():
    out = solve({"spell": {"mana_cost": "{U}{U}"}, "permanents": [card("island"), card("island")]})
    assert "duplicate permanent id" in out["error"]["message"]
    out = solve({"spell": {"mana_cost": "{U}{U}"},
                 "permanents": [{**card("island"), "instance": "a"}, {**card("island"), "instance": "b"}]})
    assert out["payable"] and sorted(out["plan"]["tapped"]) == ["a", "b"]


@pytest.mark.parametrize("spell, at, words", [
    ({"card": card("fire_ice")}, "spell.face", "give 'face'"),  # a split card: which half? (CR 709.3)
    ({"card": card("bonecrusher")}, "spell.face", "give 'face'"),  # an adventure (CR 715.3)
    ({"card": card("fire_ice"), "fuse": True}, "spell.fuse", "no Fuse"),
    ({"card": card("turn_burn"), "fuse": True, "face": 0}, "spell.fuse", "not both"),
    ({"card": card("fire_ice"), "face": 2}, "spell.face", "from 0 to 1"),
    ({"card": {"object": "set"}}, "spell.card.object", "card object"),
    ({"card": {**card("brightclimb_pathway"), "layout": "transform"}, "face": 1}, "spell.face", "not cast"),
])
def test_faces_must_be_chosen_where_the_rules_make_the_player_choose(spell, at, words):
    out = solve({"spell": spell, "permanents": []})
    assert out["error"]["at"] == at and words in out["error"]["message"], out


def test_faces_written_with_slashes_in_the_protocol_s_own_objects():
    island = {"id": "i", "type_line": "Basic Land — Island"}
    ice = {"mana_cost": "{1}{R} // {U}", "type_line": "Instant // Instant", "name": "Fire // Ice", "face": 1}
    assert solve({"spell": ice, "permanents": [island]})["payable"]
    assert not solve({"spell": {**ice, "face": 0}, "permanents": [island]})["payable"]
    out = solve({"spell": {"mana_cost": "{1}{R} // {U}"}, "permanents": [island]})
    assert out["error"]["at"] == "spell.face"


def test_a_permanent_given_by_its_name_alone_is_an_error():
    out = solve({"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "f", "name": "Forest"}]})
    assert out["error"]["at"] == "permanents[0].name" and "name alone" in out["error"]["message"]
    out = solve({"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "f", "type_line": "Basic Land — Forrest"}]})
    assert out["error"]["at"] == "permanents[0].type_line" and "Forrest" in out["error"]["message"]
    vanilla = {"id": "b", "name": "Grizzly Bears", "type_line": "Creature — Bear", "oracle_text": ""}
    assert solve({"spell": {"mana_cost": "{G}"}, "permanents": [vanilla]})["payable"] is False


def test_review_findings_on_cards_as_they_come():
    """Each was a silent wrong answer found by an independent review."""
    # a devoid spell is colorless (CR 702.114a): Eldrazi Temple's mana may pay it
    temple = {"id": "t", "name": "Eldrazi Temple", "type_line": "Land",
              "oracle_text": "{T}: Add {C}{C}. Spend this mana only to cast colorless Eldrazi spells or activate "
                             "abilities of colorless Eldrazi."}
    skyspawner = {"object": "card", "name": "Eldrazi Skyspawner", "mana_cost": "{2}{U}", "colors": [],
                  "type_line": "Creature — Eldrazi Drone", "keywords": ["Devoid", "Flying"]}
    island = {"id": "i", "type_line": "Basic Land — Island"}
    assert solve({"spell": {"card": skyspawner}, "permanents": [temple, island]})["payable"]
    # one face's field given for a card written with '//' is an error, not a silent choice
    out = solve({"spell": {"name": "Fire // Ice", "mana_cost": "{1}{R}", "type_line": "Instant", "face": 0},
                 "permanents": []})
    assert out["error"]["at"] == "spell.mana_cost"
    # a pasted object keeps the protocol's state fields, and a misspelt one is an error
    cavern = {"object": "card", "id": "c", "instance": "cav", "name": "Cavern of Souls", "type_line": "Land",
              "oracle_text": "{T}: Add {C}.\n{T}: Add one mana of any color. Spend this mana only to cast a creature "
                             "spell of the chosen type, and that spell can't be countered.", "chosen_type": "Elf"}
    assert solve({"spell": {"mana_cost": "{G}", "type_line": "Creature — Elf"}, "permanents": [cavern]})["payable"]
    out = solve({"spell": {"mana_cost": "{U}"}, "permanents": [{**card("island"), "instance": "i", "taped": True}]})
    assert out["error"]["at"] == "permanents[0].taped" and "did you mean 'tapped'" in out["error"]["message"]
    # a changeling spell is of the chosen type (CR 702.73a)
    changeling = {"mana_cost": "{G}", "type_line": "Creature — Shapeshifter", "oracle_text": "Changeling"}
    assert solve({"spell": changeling, "permanents": [{k: v for k, v in cavern.items()}]})["payable"]
    # a card named "B" leaves {B} alone
    named_b = {"id": "b", "name": "B", "type_line": "Land", "oracle_text": "{T}: Add {B}."}
    assert solve({"spell": {"mana_cost": "{B}"}, "permanents": [named_b]})["payable"]
    # two other permanents sacrificed by one cost: refused, not half read
    two = {"id": "a", "abilities": [{"cost": "Sacrifice a creature, Sacrifice an artifact", "add": "{C}{C}"}]}
    assert "two other permanents" in solve({"spell": {"mana_cost": "{2}"}, "permanents": [two]})["error"]["message"]
