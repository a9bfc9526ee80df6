"""What a player types into deck analysis, each read or refused with a clean message
(exit 2, nothing half-written): Commander pairs by their abilities (CR 702.124), MTGO's
.dek files, CSV exports and Archidekt's tags, bounded decklists and names, --lands
within the deck's size, a full disk and an unreachable Dask scheduler."""

import json
import os
import subprocess
import sys

import pytest

from manaplan import cli, files
from manaplan.deck.decklist import COMMANDER, MAIN, MAYBEBOARD, SIDEBOARD, Decklist
from manaplan.deck.formats import _check_commanders
from manaplan.model.errors import RequestError


def card(name: str, type_line: str, text: str = "") -> dict:
    return {"object": "card", "name": name, "type_line": type_line, "oracle_text": text}


REMINDER = " (You can have two commanders if both have partner.)"
CARDS = {c["name"]: c for c in [
    card("Thrasios, Triton Hero", "Legendary Creature — Merfolk Wizard", "{4}: Scry 1.\nPartner" + REMINDER),
    card("Tymna the Weaver", "Legendary Creature — Human Cleric", "Lifelink\nPartner" + REMINDER),
    card("Karlach, Fury of Avernus", "Legendary Creature — Tiefling Barbarian",
         "Whenever you attack, ...\nChoose a Background (You can have a Background as a second commander.)"),
    card("Candlekeep Sage", "Legendary Enchantment — Background", "Commander creatures you own have ..."),
    card("Krenko, Mob Boss", "Legendary Creature — Goblin Warrior", "{T}: Create X 1/1 red Goblin creature tokens."),
    card("Pir, Imaginative Rascal", "Legendary Creature — Human",
         "Partner with Toothy, Imaginary Friend (When this creature enters, target player may put Toothy into "
         "their hand from their library, then shuffle.)"),
    card("Toothy, Imaginary Friend", "Legendary Creature — Illusion",
         "Partner with Pir, Imaginative Rascal (When this creature enters, ...)"),
    card("Will, the Wise", "Legendary Creature — Human Wizard",
         "Friends forever (You can have two commanders if both have friends forever.)"),
    card("Mike, the Dungeon Master", "Legendary Creature — Human",
         "Friends forever (You can have two commanders if both have friends forever.)"),
    card("Rose Tyler", "Legendary Creature — Human",
         "Doctor's companion (You can have two commanders if the other is the Doctor.)"),
    card("The Tenth Doctor", "Legendary Creature — Time Lord Doctor", "Allons-y! — ..."),
    card("Llanowar Elves", "Creature — Elf Druid", "{T}: Add {G}."),
]}


def test_commanders_are_compared_as_the_card_data_names_them():
    cards = {**CARDS, "pir, imaginative rascal": CARDS["Pir, Imaginative Rascal"],
             "toothy, imaginary friend": CARDS["Toothy, Imaginary Friend"],
             "thrasios, triton hero": CARDS["Thrasios, Triton Hero"]}
    _check_commanders(["pir, imaginative rascal", "toothy, imaginary friend"], cards)
    with pytest.raises(RequestError, match="not Thrasios, Triton Hero twice"):
        _check_commanders(["Thrasios, Triton Hero", "thrasios, triton hero"], cards)


@pytest.mark.parametrize("pair", [["Thrasios, Triton Hero", "Tymna the Weaver"],
                                  ["Karlach, Fury of Avernus", "Candlekeep Sage"],
                                  ["Candlekeep Sage", "Karlach, Fury of Avernus"],
                                  ["Pir, Imaginative Rascal", "Toothy, Imaginary Friend"],
                                  ["Will, the Wise", "Mike, the Dungeon Master"],
                                  ["Rose Tyler", "The Tenth Doctor"],
                                  ["Krenko, Mob Boss"]])
def test_commanders_that_stand_together(pair):
    _check_commanders(pair, CARDS)


@pytest.mark.parametrize("pair, said", [
    (["Karlach, Fury of Avernus", "Krenko, Mob Boss"], "Krenko, Mob Boss has none of them"),
    (["Thrasios, Triton Hero", "Candlekeep Sage"], "Thrasios, Triton Hero has Partner"),
    (["Pir, Imaginative Rascal", "Tymna the Weaver"], "Pir, Imaginative Rascal has Partner with Toothy"),
    (["Will, the Wise", "Tymna the Weaver"], "Will, the Wise has Friends forever"),
    (["Rose Tyler", "Krenko, Mob Boss"], "Rose Tyler has Doctor's companion"),
    (["Llanowar Elves"], "Llanowar Elves can't be a commander"),
    (["Candlekeep Sage"], "Candlekeep Sage can't be a commander")])
def test_commanders_that_do_not_are_named(pair, said):
    with pytest.raises(RequestError, match="CR 702.124|CR 903.3") as e:
        _check_commanders(pair, CARDS)
    assert said in e.value.message and all(name in e.value.message for name in pair)


def test_an_mtgo_dek_file_a_csv_export_and_archidekt_tags_are_read():
    dek = Decklist.parse('<?xml version="1.0" encoding="utf-8"?>\n<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema">\n'
                         '  <NetDeckID>0</NetDeckID>\n'
                         '  <Cards CatID="1" Quantity="4" Sideboard="false" Name="Llanowar Elves" Annotation="0" />\n'
                         '  <Cards CatID="2" Quantity="20" Sideboard="false" Name="Forest" />\n'
                         '  <Cards CatID="3" Quantity="2" Sideboard="true" Name="Jace&apos;s Erasure" />\n</Deck>\n')
    assert [(e.count, e.name, e.section) for e in dek.entries] == [
        (4, "Llanowar Elves", MAIN), (20, "Forest", MAIN), (2, "Jace's Erasure", SIDEBOARD)]
    csv = Decklist.parse('Count,Tradelist Count,Name,Edition,Card Number,Section\n4,0,Llanowar Elves,M19,314,main\n'
                         '20,0,Forest,,,\n"1",0,"Tatyova, Benthic Druid",DOM,206,Commander\n2,0,Duress,,,sideboard\n')
    assert [(e.count, e.name, e.section, e.set, e.number) for e in csv.entries] == [
        (4, "Llanowar Elves", MAIN, "M19", "314"), (20, "Forest", MAIN, "", ""),
        (1, "Tatyova, Benthic Druid", COMMANDER, "DOM", "206"), (2, "Duress", SIDEBOARD, "", "")]
    archidekt = Decklist.parse("1x Sol Ring (cmm) 410 [Ramp]\n1x Tatyova, Benthic Druid (dom) 206 [Commander{top}]\n"
                               "30 Forest [Land] ^Have,#37d67a^\n1x Duress [Maybeboard{noDeck}{noPrice},Discard]\n"
                               "3x Shock (m21) 159 [Considering{noDeck}{noPrice}]\n")
    assert [(e.name, e.section) for e in archidekt.entries] == [
        ("Sol Ring", MAIN), ("Tatyova, Benthic Druid", COMMANDER), ("Forest", MAIN), ("Duress", MAYBEBOARD),
        ("Shock", MAYBEBOARD)]  # (a category left out of the deck, {noDeck}: never in the library)
    tapped_out = Decklist.parse("Qty,Name,Board\n4,Opt,main\n2,Duress,side\n1,Shock,maybe\n")
    assert [e.section for e in tapped_out.entries] == [MAIN, SIDEBOARD, MAYBEBOARD]
    fire_ice = Decklist.parse('<Deck><Cards Quantity="2" Sideboard="false" Name="Fire/Ice" /></Deck>')
    from manaplan.deck.cards import _two_faces
    assert _two_faces(fire_ice.entries[0].name) == "Fire // Ice"
    assert Decklist.parse("1 Tatyova, Benthic Druid\n3 Forest\n").main_count == 4  # (a comma in a name: no CSV)


@pytest.mark.parametrize("text, said", [
    ('<?xml version="1.0"?>\n<html><body>a deck</body></html>', "not an MTGO .dek deck"),
    ("Card,Price\nSol Ring,2.00\n", "a CSV decklist needs a header"),
    ('<Deck><Cards Quantity="four" Name="Forest" /></Deck>', "Quantity (a whole number)"),
    ('{"main": []}', "not a decklist line")])
def test_other_files_are_refused_with_their_format_named(text, said):
    with pytest.raises(RequestError) as e:
        Decklist.parse(text)
    assert said in e.value.message


def _run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "manaplan", "deck", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def test_decklists_without_end_and_names_without_end_are_refused_at_once(tmp_path):
    many = tmp_path / "many.txt"
    many.write_text("4 Forest\n" * 20_000)
    unknown = tmp_path / "unknown.json"
    unknown.write_text(json.dumps([{"count": 1, "name": f"Card {i}"} for i in range(3000)]))
    for path, said in (("/dev/zero", "longer than"), (str(many), "more than 10,000 lines"),
                       (str(unknown), "and 2,980 more")):
        run = _run("analyze", path, "--games", "10", "--quiet")
        assert run.returncode == 2 and said in run.stderr and "Traceback" not in run.stderr, run.stderr
        assert len(run.stderr) < 2000


def test_land_counts_are_bounded_by_the_decks_size():
    run = _run("lands", "demo", "--lands", "60", "--games", "10", "--quiet")
    assert run.returncode == 2 and "--lands must be" in run.stderr and "Traceback" not in run.stderr


def test_a_full_disk_is_a_clean_error_and_the_old_report_is_kept(tmp_path, monkeypatch, capsys):
    report = tmp_path / "report.json"
    report.write_text("the old report\n")

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", full_disk)
    code = cli.main(["deck", "analyze", "demo", "--games", "20", "--quiet", "--json", str(report)])
    err = capsys.readouterr().err
    assert code == 2 and "No space left on device" in err and "Traceback" not in err
    assert report.read_text() == "the old report\n" and os.listdir(tmp_path) == ["report.json"]


def test_a_dask_address_that_is_no_address_is_a_clean_error():
    pytest.importorskip("dask.distributed")
    run = _run("analyze", "demo", "--games", "10", "--engine", "dask", "--address", "nonsense", "--quiet")
    assert run.returncode == 2 and "can't reach a Dask scheduler at 'nonsense'" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_deck_with_a_planeswalker_that_adds_mana_is_analysed():
    """Chandra's "+1: Add {R}{R}" (a loyalty ability: no mana ability, CR 605.1a; mana for
    noninstant spells, activated before casting) made the games' generic probes, which had
    no card type, an error: they are sorceries now."""
    import json as json_

    from manaplan.deck.analyze import analyze
    from manaplan.deck.cards import DEMO_CARDS

    fixture = {c["name"]: c for c in json_.load(open(os.path.join(os.path.dirname(__file__), "fixtures",
                                                                   "mana_cards.json")))["cards"]}
    demo = {c["name"]: c for c in json_.load(open(DEMO_CARDS))}
    chandra = {k: v for k, v in fixture["Chandra, Torch of Defiance"].items() if k in ("name", "mana_cost", "type_line",
                                                                                      "oracle_text")}
    report = analyze("12 Mountain\n4 Chandra, Torch of Defiance\n4 Lightning Bolt\n",
                     cards=[demo["Mountain"], demo["Lightning Bolt"], {**chandra, "object": "card"}], games=200,
                     progress=False)
    chandra_row = next(c for c in report["cards"] if c["name"].startswith("Chandra"))
    assert chandra_row["by_turn"][3] > 0 and report["unread"]


def test_a_full_standard_output_is_a_clean_error_after_the_report_files(tmp_path):
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "manaplan", "deck", "analyze", "demo", "--games", "20", "--quiet",
                              "--json", str(tmp_path / "r.json")], stdout=full, stderr=subprocess.PIPE, text=True,
                             timeout=300)
    assert run.returncode == 2 and "can't write the report" in run.stderr and "Traceback" not in run.stderr
    assert json.loads((tmp_path / "r.json").read_text())["games"] == 20
