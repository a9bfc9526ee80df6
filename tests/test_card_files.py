"""One reader of card files (manaplan.card_files) for deck and suite: a JSON list, a
Scryfall list object and a bulk file (one object a line, only the wanted lines parsed)
give the same cards; tokens and art series are no deck's cards; a line without end is an
error naming it; a file that only looked like a bulk file is read whole."""

import json

import pytest

from manaplan.card_files import card_objects
from manaplan.deck.cards import land_cards, load_cards
from manaplan.model.errors import RequestError

FOREST = {"object": "card", "name": "Forest", "type_line": "Basic Land — Forest", "oracle_text": "({T}: Add {G}.)"}
ELVES = {"object": "card", "name": "Llanowar Elves", "mana_cost": "{G}", "type_line": "Creature — Elf Druid",
         "oracle_text": "{T}: Add {G}."}
TREASURE = {"object": "card", "name": "Treasure", "layout": "token", "type_line": "Token Artifact — Treasure",
            "oracle_text": "{T}, Sacrifice this token: Add one mana of any color."}
ART = {"object": "card", "name": "Forest // Forest", "layout": "art_series", "type_line": "Card // Card"}


@pytest.mark.parametrize("form", ["list", "indented", "list object", "bulk"])
def test_every_form_gives_the_same_cards(tmp_path, form):
    cards = [ART, FOREST, TREASURE, ELVES]
    path = tmp_path / "cards.json"
    text = {"list": json.dumps(cards), "indented": json.dumps(cards, indent=1),
            "list object": json.dumps({"object": "list", "data": cards}),
            "bulk": "[\n" + ",\n".join(json.dumps(c) for c in cards) + "\n]\n"}[form]
    path.write_text(text)
    assert [c["name"] for c in card_objects(str(path))] == ["Forest", "Llanowar Elves"]
    assert [c["name"] for c in card_objects(str(path), left_out=("art_series",))] == ["Forest", "Treasure",
                                                                                      "Llanowar Elves"]
    assert list(land_cards(str(path))) == ["Forest"]
    assert load_cards(["forest", "Llanowar Elves"], str(path))["forest"]["name"] == "Forest"


def test_a_bulk_file_parses_only_the_lines_wanted_and_reads_whole_what_only_looked_like_one(tmp_path):
    bulk = tmp_path / "bulk.json"
    bulk.write_text("[\n" + json.dumps(FOREST) + ",\n{not json}\n]\n")
    wanted = list(card_objects(str(bulk), line_has=lambda line: b"forest" in line))
    assert [c["name"] for c in wanted] == ["Forest"]  # (the bad line is never parsed)
    with pytest.raises(RequestError, match="not JSON"):
        list(card_objects(str(bulk)))
    odd = tmp_path / "odd.json"  # (its first object on one line, the next over several)
    odd.write_text("[\n" + json.dumps(FOREST) + ",\n" + json.dumps(ELVES, indent=2) + "\n]\n")
    assert [c["name"] for c in card_objects(str(odd))][-2:] == ["Forest", "Llanowar Elves"]


def test_faults_are_errors_at_cards(tmp_path):
    for path, message in ((tmp_path / "missing.json", "can't read the card file"), ("/dev/zero", "longer than")):
        with pytest.raises(RequestError, match=message) as e:
            list(card_objects(str(path)))
        assert e.value.at == "cards"
    one = tmp_path / "one.json"
    one.write_text(json.dumps(FOREST))
    with pytest.raises(RequestError, match="must be a JSON list"):
        list(card_objects(str(one)))
