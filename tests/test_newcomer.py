"""What a new user met, each mended (the newcomer items of the issue)."""

import json
import os
import re
import subprocess
import sys

import manaplan
from manaplan import solve

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*args, **kw):
    return subprocess.run([sys.executable, "-m", "manaplan", *args], capture_output=True, text=True, timeout=300,
                          cwd=kw.get("cwd"))


def test_demo_json_prints_json_alone():
    out = run("demo", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["payable"] is True


def test_deck_lands_help_says_95_percent_and_every_option_has_help():
    text = run("deck", "lands", "--help").stdout
    assert "95% intervals" in text and "95%%" not in text
    assert re.search(r"--on \{play,draw,both\}\s+on the play", text) and "where the games run" in text


def test_a_plot_folder_named_as_the_readme_does_is_made(tmp_path):
    from manaplan.cli import _check_folder
    folder = tmp_path / "plots" / ""
    _check_folder("plot", str(folder) + os.sep)
    assert (tmp_path / "plots").is_dir()


def test_a_card_missing_from_the_demo_file_says_to_pass_cards(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("4 Steam Vents\n20 Island\n")
    out = run("deck", "analyze", str(deck), "--games", "10", "--quiet")
    assert out.returncode == 2 and "--cards" in out.stderr and "bulk" in out.stderr


def test_a_pasted_scryfall_card_twice_names_instance():
    forest = {"object": "card", "id": "b34bb2dc", "name": "Forest", "type_line": "Basic Land — Forest",
              "oracle_text": "({T}: Add {G}.)"}
    out = solve({"spell": {"mana_cost": "{G}"}, "permanents": [forest, forest]})
    assert "instance" in out["error"]["message"]
    ok = solve({"spell": {"mana_cost": "{G}{G}"}, "permanents": [{**forest, "instance": "a"}, {**forest, "instance": "b"}]})
    assert ok["payable"] is True


def test_deck_progress_without_tqdm_is_not_silent(capsys):
    from manaplan.deck.analyze import _PlainProgress
    bar = _PlainProgress(2000)
    bar.update(1000)
    bar.update(1000)
    err = capsys.readouterr().err
    assert "games: 0 of 2,000" in err and "games: 2,000 of 2,000" in err


def test_the_package_and_readme_name_what_is_there():
    assert "deck | suite" in manaplan.__doc__
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    for module, name in re.findall(r"\(`(solver/\w+\.py)`, `([A-Z_]+)`\)", readme):
        with open(os.path.join(ROOT, module), encoding="utf-8") as f:
            assert re.search(rf"^{name}\b", f.read(), re.M), (module, name)


def test_deck_lands_tells_its_total_and_keeps_the_sideboard():
    from manaplan.deck import lands
    from manaplan.deck.cards import DEMO_CARDS
    from manaplan.deck.decklist import Decklist

    text = "9 Plains\n8 Island\n4 Savannah Lions\n4 Opt\n4 Counterspell\n4 Serra Angel\n4 Divination\n3 Cancel\n\n" \
           "Sideboard\n2 Negate\n"
    deck = Decklist.parse(text)
    everything = {c["name"]: c for c in json.load(open(DEMO_CARDS))}
    cards = {n: everything[n] for n in deck.played_names}
    pool = {n: everything[n] for n in ("Plains", "Island", "Glacial Fortress")}
    totals, done = [], []
    out = lands.choose(deck, cards, pool, games=100, seed=1, workers=1, progress=done.append, total=totals.append)
    assert totals and totals[0] >= sum(done) > 0
    assert "Sideboard" in out["decklist"] and "2 Negate" in out["decklist"]
