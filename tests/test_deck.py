"""Deck analysis: decklists, card data, how lands enter, the simulation held
to closed forms (hypergeometric castability, a counting check game by game), the same
numbers whatever the workers, the command's contract, the sources-needed preset."""

import json
import os
import subprocess
import sys
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, strategies as st

from manaplan.deck.analyze import DEMO_DECK, analyze
from manaplan.deck.cards import DEMO_CARDS, load_cards
from manaplan.deck.decklist import SECTIONS, Decklist, Entry
from manaplan.deck.games import play_games
from manaplan.deck.simulate import DeckModel, BoardAnswers, Policy
from manaplan.deck.sources import PUBLISHED, PRESET_LANDS, probability, sources_needed
from manaplan.model.entering import EntersRule
from manaplan.model.errors import RequestError

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = st.sampled_from(["Forest", "Island", "Llanowar Elves", "Fire // Ice", "Lim-Dûl's Vault", "Opt"])


@given(st.lists(st.builds(Entry, st.integers(1, 30), NAMES, st.sampled_from(SECTIONS),
                          st.sampled_from(["", "M19"]), st.sampled_from(["", "314"])), max_size=8))
def test_a_decklist_parses_back_from_what_it_writes(entries):
    entries = [e if e.set else Entry(e.count, e.name, e.section) for e in entries]
    deck = Decklist(tuple(sorted(entries, key=lambda e: SECTIONS.index(e.section))))
    assert Decklist.parse(str(deck)) == deck


def test_arena_mtgo_and_json_decklists():
    arena = Decklist.parse("About\nName Elves\n\nDeck\n4 Llanowar Elves (M19) 314\n20 Forest\n\nSideboard\n2 Duress (M19) 94\n")
    mtgo = Decklist.parse("4 Llanowar Elves\n20 Forest\n\n2 Duress\n")
    as_json = Decklist.parse('[{"count": 4, "name": "Llanowar Elves"}, {"count": 20, "name": "Forest"},'
                             ' {"count": 2, "name": "Duress", "section": "sideboard"}]')
    assert arena.main_count == mtgo.main_count == as_json.main_count == 24
    assert [e.name for e in arena.main] == [e.name for e in mtgo.main] == ["Llanowar Elves", "Forest"]
    assert arena.entries[0] == Entry(4, "Llanowar Elves", "Deck", "M19", "314")
    assert [e.section for e in mtgo.entries] == ["Deck", "Deck", "Sideboard"] == [e.section for e in as_json.entries]
    with pytest.raises(RequestError) as e:
        Decklist.parse("4 Forest\nfour Islands\n")
    assert e.value.at == "line 2"
    with pytest.raises(RequestError):
        Decklist.parse("400 Forest")


def test_a_bulk_file_is_read_line_by_line_and_a_missing_card_is_named(tmp_path):
    cards = json.load(open(DEMO_CARDS))
    bulk = tmp_path / "oracle-cards.json"
    art = {"object": "card", "name": "Forest // Forest", "layout": "art_series", "type_line": "Card // Card"}
    bulk.write_text("[\n" + ",\n".join(json.dumps(c) for c in [art] + cards) + ",\n{not json at all}\n]\n")
    found = load_cards(["forest", "Simic Signet"], str(bulk))  # found before the bad line: never read
    assert found["forest"]["name"] == "Forest" and found["Simic Signet"]["mana_cost"] == "{2}"
    with pytest.raises(RequestError) as e:
        load_cards(["Forest", "Black Lotus II"], str(DEMO_CARDS))
    assert "Black Lotus II" in e.value.message


def test_how_lands_enter_is_read_and_text_not_understood_is_refused():
    fixture = json.load(open(os.path.join(HERE, "fixtures", "mana_cards.json")))["cards"]
    refused = []
    for card in fixture:
        try:
            EntersRule.parse(card["oracle_text"], card["name"])
        except RequestError:
            refused.append(card["name"])
    assert refused == ["Aether Hub", "Chrome Mox", "Everflowing Chalice"]
    check = EntersRule.parse("This land enters tapped unless you control a Plains or an Island.")
    assert check.tapped(("Basic Land — Forest",), ()) and not check.tapped(("Basic Land — Island",), ())
    fast = EntersRule.parse("This land enters tapped unless you control two or fewer other lands.")
    assert not fast.tapped(("Land",) * 2, ()) and fast.tapped(("Land",) * 3, ())
    slow = EntersRule.parse("This land enters tapped unless you control two or more other lands.")
    assert slow.tapped(("Land",), ()) and not slow.tapped(("Land",) * 2, ())
    bounce = EntersRule.parse("This land enters tapped.\nWhen this land enters, return a land you control to its "
                              "owner's hand.\n{T}: Add {W}{U}.")
    assert bounce.returns_land and bounce.tapped((), ())
    snarl = EntersRule.parse("As this land enters, you may reveal a Plains or Swamp card from your hand. If you "
                             "don't, this land enters tapped.")
    assert snarl.tapped((), ("Basic Land — Island",)) and not snarl.tapped((), ("Basic Land — Swamp",))
    assert not EntersRule.parse("As this land enters, you may pay 2 life. If you don't, it enters tapped.").tapped((), ())


def _hypergeometric_at_least(n: int, good: int, drawn: int, k: int) -> float:
    return sum(comb(good, i) * comb(n - good, drawn - i) for i in range(k, min(good, drawn) + 1)) / comb(n, drawn)


@pytest.mark.parametrize("on", ["play", "draw"])
def test_a_lands_only_deck_is_castable_as_often_as_the_hypergeometric_says(on):
    """24 Forests, 36 two-drops, no mulligan: {1}{G} is castable on turn t exactly when
    two lands came among the first 7 + t - 1 cards (7 + t on the draw)."""
    report = analyze("24 Forest\n36 Grizzly Bears\n", games=3000, turns=4, seed=7, on=on, mulligan="none",
                     workers=1, progress=False)
    bears = report["cards"][0]
    for t in range(2, 5):
        seen = 7 + t - (1 if on == "play" else 0)
        exact = _hypergeometric_at_least(60, 24, seen, 2)
        low, high = bears["ci95"][t - 1]
        assert low <= exact <= high, (t, exact, bears["ci95"][t - 1])
    assert bears["by_turn"][0] == 0  # one land on turn one: never two mana


class CountingBoardAnswers(BoardAnswers):
    """The board answers, checked at each new board against a pure counting rule (Hall's
    condition over the lands' colors, and the total)."""

    checked = 0

    def _masks(self, sig):
        found = super()._masks(sig)
        deck = self.deck
        lands = [deck.makes[code >> 2] for code in sig if code & 3 == 0]
        expected = 0
        for k, c in enumerate(deck.measured):
            if _counts_pay(lands, deck.cards[c]["mana_cost"]):
                expected |= 1 << k
        assert found[0] == expected, (sig, found, expected)
        CountingBoardAnswers.checked += 1
        return found


def _counts_pay(lands: list, cost: str) -> bool:
    symbols = cost.strip("{}").split("}{") if cost else []
    colored = [s for s in symbols if not s.isdigit()]
    total = sum(int(s) for s in symbols if s.isdigit()) + len(colored)
    if len(lands) < total:
        return False
    for size in range(1, 6):
        for colors in combinations("WUBRG", size):
            need = sum(1 for s in colored if s in colors)
            have = sum(1 for makes in lands if makes & set(colors))
            if need > have:
                return False
    return True


def test_on_lands_only_decks_the_exact_payment_is_the_count_game_by_game():
    text = "9 Forest\n8 Island\n4 Tropical Island\n3 Thornwood Falls\n4 Kalonian Tusker\n4 Counterspell\n" \
           "4 Growth Spiral\n4 Cancel\n4 Centaur Courser\n4 Air Elemental\n4 Craw Wurm\n4 Opt\n4 Grizzly Bears\n"
    deck = Decklist.parse(text)
    model = DeckModel.build(deck, load_cards(deck.names))
    answers = CountingBoardAnswers(model)
    tally = play_games(model, Policy(turns=6), answers, "count", 0, 300)  # (boards asked by their ready part)
    assert tally.games == 300 and CountingBoardAnswers.checked > 100


def test_the_same_seed_gives_the_same_numbers_on_any_number_of_workers():
    one = analyze(DEMO_DECK, games=900, turns=3, seed=3, workers=1, progress=False, chunk=200)
    two = analyze(DEMO_DECK, games=900, turns=3, seed=3, workers=2, progress=False, chunk=200)
    other = analyze(DEMO_DECK, games=900, turns=3, seed=4, workers=1, progress=False, chunk=300)
    for r in (one, two, other):
        r.pop("seconds"), r.pop("workers")
    assert one == two and one != other


def test_the_command_writes_the_contract(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text(DEMO_DECK)
    out, sources = tmp_path / "out.json", tmp_path / "sources.json"
    run = subprocess.run([sys.executable, "-m", "manaplan", "deck", "analyze", str(deck), "--cards", DEMO_CARDS,
                          "--games", "200", "--turns", "3", "--seed", "5", "--on", "play", "--mulligan", "london",
                          "--json", str(out), "--quiet"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    report = json.loads(out.read_text())
    assert report["games"] == 200
    by_name = {c["name"]: c for c in report["cards"]}
    assert set(by_name) == {"Llanowar Elves", "Simic Signet", "Grizzly Bears", "Kalonian Tusker", "Counterspell",
                            "Opt", "Centaur Courser", "Cancel", "Air Elemental", "Craw Wurm", "Coiling Oracle"}
    assert by_name["Opt"]["on_curve"] == by_name["Opt"]["by_turn"][0] and by_name["Craw Wurm"]["on_curve"] is None
    assert all(len(c["by_turn"]) == 3 and len(c["by_turn_given_lands"]) == 3 for c in report["cards"])
    run = subprocess.run([sys.executable, "-m", "manaplan", "deck", "sources", "--deck-size", "60", "--lands", "25",
                          "--json", str(sources)], capture_output=True, text=True)
    assert run.returncode == 0 and json.loads(sources.read_text())["sources_needed"]["{1}{C}"] == 13
    few = tmp_path / "few.json"
    few.write_text(json.dumps([c for c in json.load(open(DEMO_CARDS)) if c["name"] != "Opt"]))
    bad = subprocess.run([sys.executable, "-m", "manaplan", "deck", "analyze", str(deck), "--cards", str(few)],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "no card data for 'Opt'" in bad.stderr, bad.stderr


def test_the_exact_sources_table_is_the_published_one_but_one_cell():
    """Karsten 2022, every pattern and deck size; the one cell apart is explained in the
    README (80 cards, {4}{C}: 13 sources already reach 94.30%)."""
    apart = set()
    for size, published in PUBLISHED.items():
        mine = sources_needed(size, PRESET_LANDS[size])
        apart |= {(size, p) for p in published if mine[p] != published[p]}
    assert apart == {(80, "{4}{C}")}
    assert 0.94 <= probability(80, 35, 13, 5, 1) < probability(80, 35, 14, 5, 1)


def test_the_dask_engine_on_a_local_cluster_gives_the_local_numbers():
    pytest.importorskip("dask.distributed")
    local = analyze(DEMO_DECK, games=600, turns=3, seed=9, workers=1, progress=False, chunk=600)
    cluster = analyze(DEMO_DECK, games=600, turns=3, seed=9, engine="dask", workers=2, progress=False, chunk=150)
    for r in (local, cluster):
        r.pop("seconds"), r.pop("workers"), r.pop("engine")
    assert local == cluster


def test_a_split_card_is_castable_by_either_half_and_x_is_zero():
    demo = {c["name"]: c for c in json.load(open(DEMO_CARDS))}
    blaze = {"object": "card", "name": "Blaze", "mana_cost": "{X}{R}", "cmc": 1, "type_line": "Sorcery",
             "oracle_text": "Blaze deals X damage to any target."}
    fire_ice = {"object": "card", "name": "Fire // Ice", "mana_cost": "{1}{R} // {1}{U}", "cmc": 4,
                "type_line": "Instant // Instant", "layout": "split", "card_faces": [
                    {"name": "Fire", "mana_cost": "{1}{R}", "type_line": "Instant",
                     "oracle_text": "Fire deals 2 damage divided as you choose among one or two targets."},
                    {"name": "Ice", "mana_cost": "{1}{U}", "type_line": "Instant",
                     "oracle_text": "Tap target permanent.\nDraw a card."}]}
    report = analyze("24 Island\n18 Blaze\n18 Fire // Ice\n", cards=[demo["Island"], blaze, fire_ice], games=200,
                     turns=2, seed=2, workers=1, mulligan="none", progress=False)
    by_name = {c["name"]: c for c in report["cards"]}
    assert by_name["Blaze"]["by_turn"] == [0.0, 0.0]  # {R} with X = 0: no red source
    assert by_name["Fire // Ice"]["by_turn"][1] == report["lands_hit"][1] > 0.5  # Ice, on two Islands
    assert by_name["Fire // Ice"]["on_curve"] is None  # mana value 4 (CR 709.4), past turn 2


def test_a_card_without_scryfalls_cmc_has_the_mana_value_of_its_cost():
    """(review) without ``cmc`` the mana value came out 0, and on_curve was turn 1."""
    demo = {c["name"]: c for c in json.load(open(DEMO_CARDS))}
    bears = {"name": "Bears", "mana_cost": "{1}{G}", "type_line": "Creature — Bear", "oracle_text": ""}
    report = analyze("30 Forest\n30 Bears\n", cards=[demo["Forest"], bears], games=100, turns=3, seed=1, workers=1,
                     progress=False)
    card = report["cards"][0]
    assert card["mana_value"] == 2 and card["on_curve"] == card["by_turn"][1] > 0.5


def _killing_one_worker(engine_name: str):
    """A progress callback that kills one worker process (SIGKILL) when the first chunk
    is done, as an out-of-memory kill would."""
    import signal
    import psutil

    done = []

    def progress(games: int) -> None:
        done.append(games)
        if len(done) == 1:
            workers = [(p, line) for p in psutil.Process().children(recursive=True) if (line := _worker_line(p))]
            assert workers, "no worker process to kill"
            os.kill(workers[-1][0].pid, signal.SIGKILL)
            killed.append(workers[-1][1])
    killed: list = []
    return progress, done, killed


def _worker_line(process) -> str:
    """The command line of a process that plays games (no children of its own, not a
    tracker or fork server, alive), or ""."""
    import psutil
    try:
        line = " ".join(process.cmdline())
        if process.children() or process.status() == psutil.STATUS_ZOMBIE:
            return ""
    except psutil.Error:
        return ""
    return "" if any(word in line for word in ("resource_tracker", "forkserver")) else line


@pytest.mark.parametrize("engine_name", ["local", "dask"])
def test_a_run_with_a_worker_killed_mid_run_gives_the_undisturbed_report(engine_name):
    """A worker killed mid-run (out of memory, or by hand): its chunks are
    played again (the local pool is started anew; Dask's scheduler moves them), and the
    total equals the undisturbed run's for the same seed: never a total with games
    missing."""
    if engine_name == "dask":
        pytest.importorskip("dask.distributed")
    from manaplan.deck import engine
    from manaplan.deck.decklist import Decklist

    deck = Decklist.parse(DEMO_DECK)
    data = load_cards(deck.names, None, None)
    policy = Policy(turns=3)
    undisturbed = engine.run(deck, data, policy, 1200, 5, workers=1, chunk=100)
    progress, done, killed = _killing_one_worker(engine_name)
    disturbed = engine.run(deck, data, policy, 1200, 5, engine=engine_name, workers=2, progress=progress, chunk=100)
    assert len(killed) == 1 and sum(done) == 1200 and disturbed.games == 1200
    assert disturbed == undisturbed


def test_a_run_whose_workers_keep_dying_stops_with_a_message_and_no_total(monkeypatch):
    """Past its retries, a run stops with a message saying so, never a total."""
    from manaplan.deck import engine
    from manaplan.deck.decklist import Decklist

    deck = Decklist.parse(DEMO_DECK)
    data = load_cards(deck.names, None, None)
    monkeypatch.setattr(engine, "play_chunk", _die)  # (forked workers inherit it)
    monkeypatch.setattr(engine, "RETRIES", 1)
    with pytest.raises(engine.WorkerLost, match="died 2 times.*no total is given"):
        engine.run(deck, data, Policy(turns=3), 400, 5, workers=2, chunk=100)


def _die(job):
    os.kill(os.getpid(), 9)


SIMIC = open(os.path.join(HERE, "..", "benchmarks", "decks", "simic_ramp.txt")).read()


def test_a_board_is_asked_by_its_ready_part_only_where_the_rest_never_pays():
    """On the Simic deck (lands, Signets, Elves: every mana ability taps its own
    permanent) a tapped permanent or a summoning-sick Elf changes nothing a board pays, so
    boards are asked by their ready part; the masks are those of the whole board. A card
    that could make the rest matter (convoke: sick creatures tap for it; a count of
    lands) keeps the whole board."""
    deck = Decklist.parse(SIMIC)
    cards = load_cards(deck.names)
    model = DeckModel.build(deck, cards)
    assert model.idle_when_tapped
    seen = BoardAnswers(model)
    play_games(model, Policy(turns=5), seen, "ready", 0, 60)
    whole = DeckModel.build(deck, cards)
    whole.idle_when_tapped = False
    answers = BoardAnswers(whole)
    elves, forest = model.names.index("Llanowar Elves"), model.names.index("Forest")
    boards = [sig + ((elves << 2) | 2, (forest << 2) | 1, (elves << 2) | 1) for sig in list(seen.castable)[:40]]
    for sig in boards:
        assert seen.masks(tuple(sorted(sig))) == answers.masks(tuple(sorted(sig))), sig
    convoke = {"name": "Chord of Calling", "mana_cost": "{X}{G}{G}{G}", "cmc": 3, "type_line": "Instant",
               "oracle_text": "Convoke\nSearch your library for a creature card with mana value X or less.",
               "keywords": ["Convoke"], "colors": ["G"]}
    with_convoke = Decklist.parse(SIMIC + "1 Chord of Calling\n")
    assert not DeckModel.build(with_convoke, {**cards, "Chord of Calling": convoke}).idle_when_tapped
    rites = {"name": "Village Rites", "mana_cost": "{B}", "cmc": 1, "type_line": "Instant", "colors": ["B"],
             "oracle_text": "As an additional cost to cast this spell, sacrifice a creature.\nDraw two cards."}
    with_rites = Decklist.parse(SIMIC + "1 Village Rites\n")  # (review: a sick Elf may be sacrificed)
    assert not DeckModel.build(with_rites, {**cards, "Village Rites": rites}).idle_when_tapped
    cradle = {"name": "Gaea's Cradle", "type_line": "Legendary Land", "mana_cost": "", "cmc": 0,
              "oracle_text": "{T}: Add {G} for each creature you control."}
    with_cradle = Decklist.parse(SIMIC + "1 Gaea's Cradle\n")
    assert not DeckModel.build(with_cradle, {**cards, "Gaea's Cradle": cradle}).idle_when_tapped


def _publish_and_exit(directory, records):
    from manaplan.deck.exchange import Exchange

    exchange = Exchange(directory)
    for record in records:
        exchange.publish(*record)
    exchange.close()


def test_what_one_process_publishes_the_others_read_once_and_whole(tmp_path):
    """The run's processes share answers through one append-only log each: another
    process's records are read once; a record half written is read when it is whole;
    a process never reads its own."""
    import multiprocessing
    import pickle
    import struct

    from manaplan.deck.exchange import Exchange

    mine = Exchange(str(tmp_path))
    mine.publish("masks", (1, 2), (3, 0, 4))
    assert mine.news() == []
    records = [("masks", (8,), (1, 0, 2)), ("paid", ((8,), 3), None)]
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    child = context.Process(target=_publish_and_exit, args=(str(tmp_path), records))
    child.start()
    child.join(30)
    assert child.exitcode == 0
    assert mine.news() == records
    assert mine.news() == []
    record = pickle.dumps(("masks", (9,), (0, 1, 0)))
    framed = struct.pack("<I", len(record)) + record
    with open(tmp_path / "999999.log", "ab") as f:
        f.write(framed[:7])
    assert mine.news() == []
    with open(tmp_path / "999999.log", "ab") as f:
        f.write(framed[7:])
    assert mine.news() == [("masks", (9,), (0, 1, 0))]
    torn = b"\x05\x00\x00\x00" + b"junk!" + framed  # (review: a process killed while writing)
    with open(tmp_path / "4242-dead.log", "wb") as f:
        f.write(torn)
    assert mine.news() == []
    with open(tmp_path / "4242-dead.log", "ab") as f:
        f.write(framed)
    assert mine.news() == []  # (a log with a torn record is read no further)


def _play_and_publish(directory):
    from manaplan.deck.exchange import Exchange

    deck = Decklist.parse(SIMIC)
    model = DeckModel.build(deck, load_cards(deck.names))
    play_games(model, Policy(turns=4), BoardAnswers(model, Exchange(directory)), "shared", 0, 40)


def test_a_process_reads_the_boards_another_solved_instead_of_solving_them(tmp_path):
    """A worker that plays games another already played solves no board again,
    and its tally is the one it would have found alone."""
    import multiprocessing

    from manaplan.deck.exchange import Exchange

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    child = context.Process(target=_play_and_publish, args=(str(tmp_path),))
    child.start()
    child.join(120)
    assert child.exitcode == 0
    deck = Decklist.parse(SIMIC)
    model = DeckModel.build(deck, load_cards(deck.names))
    solved = []

    class Counting(BoardAnswers):
        def _masks(self, sig, pool=()):
            solved.append((sig, pool))
            return super()._masks(sig, pool)

    shared = play_games(model, Policy(turns=4), Counting(model, Exchange(str(tmp_path))), "shared", 0, 40)
    assert solved == []
    alone = play_games(model, Policy(turns=4), Counting(model), "shared", 0, 40)
    assert len(solved) > 20
    assert vars(shared) == vars(alone)


def test_output_folders_are_checked_before_the_games_and_the_json_is_written_whole(tmp_path):
    """--json or --plot into a folder that doesn't exist is an error before any
    game is played (it came as a traceback after the whole run); the JSON file appears
    whole or not at all."""
    deck = tmp_path / "deck.txt"
    deck.write_text(DEMO_DECK)
    for flag in ("--json", "--plot"):
        target = str(tmp_path / "missing" / "out")
        run = subprocess.run([sys.executable, "-m", "manaplan", "deck", "analyze", str(deck), "--games", "100000",
                              flag, target, "--quiet"], capture_output=True, text=True)
        assert run.returncode == 2 and run.stdout == "", (run.stdout, run.stderr)
        assert f"the folder of {flag}" in run.stderr and "Traceback" not in run.stderr
    run = subprocess.run([sys.executable, "-m", "manaplan", "deck", "sources", "--deck-size", "60", "--lands", "24",
                          "--json", str(tmp_path / "missing" / "s.json")], capture_output=True, text=True)
    assert run.returncode == 2 and "the folder of --json" in run.stderr and "Traceback" not in run.stderr
    out = tmp_path / "out.json"
    run = subprocess.run([sys.executable, "-m", "manaplan", "deck", "analyze", str(deck), "--games", "50", "--turns",
                          "2", "--json", str(out), "--quiet", "--on", "both"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(out.read_text())["games"] == 50
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".manaplan-")] == []
    assert "half on the play, half on the draw" in run.stdout and "on the both" not in run.stdout


def test_a_card_file_indented_by_one_space_is_read_whole(tmp_path):
    """A JSON list written with one-space indentation was taken for a bulk file
    (one object a line) and read as holding no card ("no card data for 'Forest'")."""
    names = Decklist.parse(DEMO_DECK).names
    cards = [c for c in json.load(open(DEMO_CARDS)) if c["name"] in names]
    for indent in (1, 2, None):
        path = tmp_path / f"cards{indent}.json"
        path.write_text(json.dumps(cards, indent=indent))
        assert set(load_cards(names, str(path))) == set(names)


def test_a_missing_card_gets_a_guess_a_sideboard_needs_no_data_and_a_deck_without_lands_is_refused(tmp_path):
    """"did you mean" for a name not in the card data; cards of the sideboard
    are never played, so they need no data; a deck with no lands is an error (it ran
    silently)."""
    with pytest.raises(RequestError, match=r"'Llanowar Elfs' \(did you mean 'Llanowar Elves'\?\)"):
        load_cards(["Forest", "Llanowar Elfs"])
    report = analyze(DEMO_DECK + "\nSideboard\n2 Not A Real Card\n", games=40, turns=2, workers=1, progress=False)
    assert report["games"] == 40
    with pytest.raises(RequestError, match="no lands"):
        analyze("4 Llanowar Elves\n", games=10, turns=2, workers=1, progress=False)


# --- castability as players mean it ---------------------------------------

AZORIUS = open(os.path.join(HERE, "..", "benchmarks", "decks", "azorius_lions.txt")).read()


def test_a_card_is_castable_when_some_land_drops_pay_it_not_only_the_simulated_players():
    """The deck: 12 Plains, 12 Islands, 36 others with Savannah Lions and Opt, on
    the play, no mulligan. Lions on turn one is castable exactly when a Plains is among
    the seven: 1 - C(48,7)/C(60,7) = 80.94%; Counterspell on turn two when two Islands
    are among the first eight (the first of them in the seven, or there weren't two).
    The simulated player's own line (it plays the Island beside a Plains) is kept as
    ``on_curve_as_played``, far lower for Lions."""
    games = 4000
    report = analyze(AZORIUS, games=games, turns=3, seed=11, on="play", mulligan="none", workers=1, progress=False)
    cards = {c["name"]: c for c in report["cards"]}
    for name, exact in (("Savannah Lions", 1 - comb(48, 7) / comb(60, 7)),
                        ("Opt", 1 - comb(48, 7) / comb(60, 7)),
                        ("Counterspell", _hypergeometric_at_least(60, 12, 8, 2))):
        standard_error = (exact * (1 - exact) / games) ** 0.5
        assert abs(cards[name]["on_curve"] - exact) < 4 * standard_error, (name, cards[name]["on_curve"], exact)
    assert cards["Savannah Lions"]["on_curve_as_played"] < 0.5 < cards["Savannah Lions"]["on_curve"]
    assert all(c["by_turn_as_played"][t] <= c["by_turn"][t] for c in cards.values() for t in range(3))
    assert report["lines_cut"] == 0


POOL = ["Plains", "Island", "Forest", "Thornwood Falls", "Azorius Chancery", "Botanical Sanctum",
        "Vineglimmer Snarl", "Glacial Fortress", "Llanowar Elves", "Azorius Signet", "Sol Ring", "Savannah Lions",
        "Opt", "Counterspell", "Grizzly Bears", "Growth Spiral", "Cancel", "Air Elemental"]


def _every_line(deck, policy, answers, hand, draws):
    """The reference: every line of play, one by one, depth first (each land of the
    hand, or none, every turn; every order of casting the hand's mana permanents), no
    state merged or pruned."""
    from manaplan.deck.simulate import READY, SICK, TAPPED

    turns = policy.turns
    castable, short = [0] * turns, [-1] * turns

    def turn(t, battlefield, hand):
        if t == turns:
            return
        hand = hand + [draws[t]] if draws[t] is not None else list(hand)
        battlefield = tuple(sorted(code & ~3 for code in battlefield))
        explore(t, battlefield, hand)
        lines = tuple(deck.type_line[code >> 2] for code in battlefield if deck.is_land[code >> 2])
        for i, c in enumerate(hand):
            if not deck.is_land[c]:
                continue
            rest = hand[:i] + hand[i + 1:]
            tapped = deck.enters[c].tapped(lines, tuple(deck.type_line[h] for h in rest), policy.opponents)
            board = battlefield + ((c << 2) | (TAPPED if tapped else READY),)
            if deck.enters[c].returns_land:
                for j, code in enumerate(board):
                    if deck.is_land[code >> 2]:
                        explore(t, tuple(sorted(board[:j] + board[j + 1:])), rest + [code >> 2])
            else:
                explore(t, tuple(sorted(board)), rest)

    def explore(t, board, hand, pool=()):
        castable_now, short_now = answers.masks(board, pool)[:2]
        castable[t] |= castable_now
        short[t] &= short_now
        if not pool:  # (the pool empties before the next turn: the same board goes on)
            turn(t + 1, board, hand)
        for i, c in enumerate(hand):
            paid = answers.pay_floating(board, c, pool) if deck.is_source[c] else None
            if paid is not None:  # (what it leaves floating pays the next one: CR 106.4)
                state = TAPPED if deck.enters[c].tapped((), (), 1) else SICK if deck.creature[c] else READY
                explore(t, tuple(sorted(paid[0] + ((c << 2) | state,))), hand[:i] + hand[i + 1:], paid[1])
                if paid[1]:
                    turn(t + 1, tuple(sorted(paid[0] + ((c << 2) | state,))), hand[:i] + hand[i + 1:])

    turn(0, (), list(hand))
    return castable, [s & ~c for s, c in zip(short, castable)]


@given(st.lists(st.sampled_from(POOL[:8]), min_size=3, max_size=9), st.lists(st.sampled_from(POOL[8:]), min_size=2,
                                                                               max_size=7),
       st.integers(0, 10 ** 6), st.booleans())
def test_every_line_of_play_is_followed_as_the_one_by_one_search_finds(lands, spells, seed, on_play):
    """The players' figure of a game (``players.lines_of_play``: states merged, a land
    drop left out only where it may matter) against the reference search over every line
    one by one, on small random decks of taplands, a bounce land, fast, reveal and check
    lands, mana creatures and rocks."""
    import random

    from manaplan.deck.players import lines_of_play

    text = "".join(f"1 {name}\n" for name in lands + spells)
    deck_list = Decklist.parse(text)
    model = DeckModel.build(deck_list, load_cards(deck_list.names))
    answers = BoardAnswers(model)
    policy = Policy(turns=5)
    library = model.library[:]
    random.Random(seed).shuffle(library)
    hand, library = library[:3], library[3:]
    drawn = iter(library)
    draws = [next(drawn, None) if t or not on_play else None for t in range(5)]
    found = lines_of_play(model, policy, answers, hand, draws)
    assert found[:2] == _every_line(model, policy, answers, hand, draws)
    assert not found[2]


@given(st.lists(st.sampled_from([n for n in POOL[:8] if n != "Vineglimmer Snarl"]), min_size=3, max_size=9),
       st.lists(st.sampled_from(POOL[8:]), min_size=2, max_size=7), st.integers(0, 10 ** 6))
def test_turns_kept_by_the_hands_lands_and_mana_permanents_are_the_turns_followed_whole(lands, spells, seed):
    """A turn of every line kept by its states with each hand cut to its lands and mana
    permanents (``players._lines_kept``, ``answers.turns`` shared by the games) answers as
    the turn followed with whole hands (``players._lines_followed``), game after game,
    on small random decks of taplands, a bounce land, fast and check lands, mana creatures
    and rocks, and spells that make no mana."""
    import random

    from manaplan.deck.players import _hands_shape_nothing_else, _lines_followed, _lines_kept, _waiting

    text = "".join(f"1 {name}\n" for name in lands + spells)
    deck_list = Decklist.parse(text)
    model = DeckModel.build(deck_list, load_cards(deck_list.names))
    answers = BoardAnswers(model)
    policy = Policy(turns=5)
    waiting = _waiting(model)
    assert _hands_shape_nothing_else(model, None, waiting)
    rng = random.Random(seed)
    for _ in range(6):  # (games share the kept turns)
        library = model.library[:]
        rng.shuffle(library)
        hand, library = library[:3], library[3:]
        draws = [library[t] if t < len(library) else None for t in range(5)]
        assert _lines_kept(model, policy, answers, hand, draws, waiting) == \
            _lines_followed(model, policy, answers, hand, draws, None, (0, ()), waiting)


@pytest.mark.parametrize("names", [
    ["Forest"] * 7 + ["Island"] * 6 + ["Simic Signet"] * 2 + ["Llanowar Elves"] * 3 + ["Grizzly Bears", "Cancel"],
    ["Plains"] * 5 + ["Azorius Chancery"] * 2 + ["Vineglimmer Snarl"] * 3 + ["Azorius Signet", "Sol Ring"]
    + ["Savannah Lions", "Counterspell", "Air Elemental"] * 2])
def test_games_played_from_answers_kept_by_earlier_games_are_the_games_played_fresh(names):
    """The answers a run keeps (the turns of every line, the simulated player's land
    drops, each board's masks and plans) change no game: the same games played again on
    the answers the first ones kept tally as on fresh answers (a Signet deck; a deck of a
    bounce land and a snarl, whose land drops read the hand)."""
    text = "".join(f"1 {name}\n" for name in names)
    deck_list = Decklist.parse(text)
    model = DeckModel.build(deck_list, load_cards(deck_list.names))
    warm = BoardAnswers(model)
    first = play_games(model, Policy(turns=5), warm, "kept", 0, 40)
    assert warm.turns or warm.land_drops
    again = play_games(model, Policy(turns=5), warm, "kept", 0, 40)
    fresh = play_games(model, Policy(turns=5), BoardAnswers(model), "kept", 0, 40)
    assert again == first == fresh


def test_lines_whose_states_would_be_cut_are_followed_with_whole_hands(monkeypatch):
    """Where a turn's states outnumber ``MOST_STATES``, the kept turns give way to the game
    followed with whole hands (``_lines_kept`` says None), so that the same states are cut
    and the game is counted as cut."""
    import random

    from manaplan.deck import players

    names = ["Forest"] * 6 + ["Island"] * 6 + ["Simic Signet"] * 2 + ["Llanowar Elves"] * 4 + ["Cancel"] * 2
    deck_list = Decklist.parse("".join(f"1 {name}\n" for name in names))
    model = DeckModel.build(deck_list, load_cards(deck_list.names))
    monkeypatch.setattr(players, "MOST_STATES", 1)
    library = model.library[:]
    random.Random(3).shuffle(library)
    hand, draws = library[:7], library[7:12]
    waiting = players._waiting(model)
    assert players._lines_kept(model, Policy(turns=5), BoardAnswers(model), hand, draws, waiting) is None
    found = players.lines_of_play(model, Policy(turns=5), BoardAnswers(model), hand, draws)
    assert found[2] is True
    assert found == players._lines_followed(model, Policy(turns=5), BoardAnswers(model), hand, draws, None, (0, ()),
                                            waiting)


def test_only_decks_whose_lines_read_nothing_else_of_the_hand_keep_their_turns():
    """The turns are kept by hands cut to their lands and mana permanents only where nothing
    else of the hand is read: not with a snarl (it reveals a card of the hand), not where a
    fetch searches the library, not with a bounce land where states are not merged by
    domination."""
    from types import SimpleNamespace

    from manaplan.deck.players import _hands_shape_nothing_else, _waiting

    def deck(names):
        deck_list = Decklist.parse("".join(f"1 {name}\n" for name in names))
        return DeckModel.build(deck_list, load_cards(deck_list.names))

    plain = deck(["Forest", "Island", "Simic Signet", "Azorius Chancery", "Cancel"])
    assert _hands_shape_nothing_else(plain, None, _waiting(plain))
    snarl = deck(["Plains", "Island", "Vineglimmer Snarl", "Cancel"])
    assert not _hands_shape_nothing_else(snarl, None, _waiting(snarl))
    fetching = SimpleNamespace(fetches={0: "a fetch"}, monotone=True)
    assert not _hands_shape_nothing_else(fetching, [(0, 0)], (False, None))
    assert _hands_shape_nothing_else(fetching, None, (False, None))
    bouncing = SimpleNamespace(fetches={}, monotone=False, names=["Azorius Chancery"], is_land=[True],
                               enters=[EntersRule("tapped", (), 0, True)])
    assert not _hands_shape_nothing_else(bouncing, None, (False, None))


@pytest.mark.parametrize("seed", range(3))
def test_the_plans_and_mana_found_in_one_step_are_the_planners(monkeypatch, seed):
    """On random boards of a Signet deck, the board after each cast (``pay_floating``:
    what the forced outcome of every best plan taps, put back on the board's codes) and
    the most generic mana (``mana``, from ``most_generic``) are what the planner's plan and
    can_pay asked N by N give."""
    import random

    from manaplan.deck.simulate import READY, TAPPED

    names = ["Forest"] * 5 + ["Island"] * 5 + ["Simic Signet"] * 2 + ["Llanowar Elves"] * 3 + ["Grizzly Bears"]
    deck_list = Decklist.parse("".join(f"1 {name}\n" for name in names))
    model = DeckModel.build(deck_list, load_cards(deck_list.names))
    fast, slow = BoardAnswers(model), BoardAnswers(model)
    rng = random.Random(seed)
    cards = [c for c in range(len(model.names)) if model.is_source[c]]
    questions = []
    for _ in range(40):
        sig = tuple(sorted(rng.choice([c for c in range(len(model.names)) if model.is_land[c] or model.is_source[c]])
                           << 2 | rng.choice([READY, READY, TAPPED]) for _ in range(rng.randint(1, 7))))
        questions.append((sig, rng.choice(cards), rng.choice([(), ("G",), ("U", "U")])))
    found = [(fast.pay_floating(*q), fast.mana(q[0])) for q in questions]
    monkeypatch.setattr("manaplan.solver.direct.forced_outcome", lambda problem: None)
    monkeypatch.setattr("manaplan.solver.direct.most_generic", lambda problem: None)
    assert found == [(slow.pay_floating(*q), slow.mana(q[0])) for q in questions]


@pytest.mark.parametrize("engine_name,workers", [("local", 1), ("local", 2), ("dask", 2)])
def test_ctrl_c_stops_a_run_within_two_seconds_quietly_on_every_engine(engine_name, workers):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) in the
    middle of a long run: the queued chunks are not played, no process prints a
    traceback, no worker is left, within 2 s (it took 79 s on the local pool, and Dask's
    workers each printed one)."""
    import signal
    import time

    if engine_name == "dask":
        pytest.importorskip("dask.distributed")
    psutil = pytest.importorskip("psutil")
    command = [sys.executable, "-m", "manaplan", "deck", "analyze", "demo", "--games", "1000000", "--engine",
               engine_name, "--workers", str(workers)]
    # (started as a terminal starts a command: Ctrl-C not ignored, whatever an earlier test in this
    # process left its own SIGINT set to: an ignored SIGINT is inherited, and Python then keeps it)
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(8 if engine_name == "dask" else 4)  # (the games under way)
    family = [run.pid] + [p.pid for p in psutil.Process(run.pid).children(recursive=True)]
    assert run.poll() is None, run.communicate()
    sent = time.perf_counter()
    os.killpg(run.pid, signal.SIGINT)
    out, err = run.communicate(timeout=60)
    stopped = time.perf_counter() - sent
    assert run.returncode == 130 and "no report written" in err
    assert "Traceback" not in err and "WARNING" not in err and "Error" not in err, err
    assert stopped < 2.0, stopped
    time.sleep(0.5)
    assert not [pid for pid in family if psutil.pid_exists(pid) and psutil.Process(pid).status() != "zombie"]


def test_plots_give_each_card_its_look_whole_turns_a_title_and_the_on_curve_mark(tmp_path):
    """Colors repeated past 10 cards, cards of one cost drawn as one line,
    turns 1.5 and 2.5, no title, nothing marked the on-curve turn, ``--plot plots/``
    wrote ``plots/-by-turn.png``."""
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from manaplan.deck.analyze import MEANING, by_turn_figure, card_look, plot

    looks = [card_look(i) for i in range(30)]
    assert len({look[0] for look in looks}) == 30
    assert all(looks[i][1:] != looks[i + 1][1:] for i in range(29))
    report = analyze(AZORIUS, games=200, turns=4, seed=1, on="draw", workers=1, progress=False, name="azorius")
    figure = by_turn_figure(report)
    ax = figure.axes[0]
    assert "azorius" in ax.get_title() and "on the draw" in ax.get_title()
    assert list(ax.get_xticks()) == [1, 2, 3, 4]
    stars = [line for line in ax.get_lines() if line.get_marker() == "*" and len(line.get_xdata()) == 1]
    lions = next(c for c in report["cards"] if c["name"] == "Savannah Lions")
    assert any(line.get_xdata()[0] == 1 and line.get_ydata()[0] == 100 * lions["on_curve"] for line in stars)
    assert ax.get_legend().get_title().get_text() == MEANING
    folder = tmp_path / "plots"
    folder.mkdir()
    written = plot(report, str(folder) + "/")
    assert written == [str(folder / "azorius-by-turn.png"), str(folder / "azorius-heat.png")]
    assert all(os.path.getsize(path) > 10_000 for path in written)


def test_deck_sources_has_a_header_writes_colors_as_players_read_them_and_checks_the_decks_own(tmp_path):
    """``deck sources`` printed a bare list, wrote ``{C}`` (colorless mana, CR
    107.4c) for "one colored symbol", and could not check a deck."""
    deck = tmp_path / "azorius.txt"
    deck.write_text(AZORIUS)
    out_json = tmp_path / "sources.json"
    done = subprocess.run([sys.executable, "-m", "manaplan", "deck", "sources", str(deck), "--json", str(out_json)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "{C}" not in done.stdout and "mana value" in done.stdout.splitlines()[2]
    assert "12 white sources; Wrath of God {2}{W}{W} wants 16: short by 4" in done.stdout
    assert "also short: Savannah Lions {W} wants 14" in done.stdout
    written = json.loads(out_json.read_text())
    assert written["sources_needed"]["{C}"] == 14 and written["deck"]["sources"] == {"W": 12, "U": 12}
    lions = next(c for c in written["deck"]["cards"] if c["name"] == "Savannah Lions")
    assert lions == {"name": "Savannah Lions", "mana_cost": "{W}", "color": "W", "mana_value": 1, "symbols": 1,
                     "wants": 14, "has": 12, "short": True}
    bare = subprocess.run([sys.executable, "-m", "manaplan", "deck", "sources"], capture_output=True, text=True)
    assert bare.returncode == 2 and "give a decklist, or --deck-size and --lands" in bare.stderr


TATYOVA = open(os.path.join(HERE, "..", "benchmarks", "decks", "tatyova_commander.txt")).read()


def test_a_commander_deck_runs_with_its_commander_in_the_command_zone_and_is_checked():
    """--format commander: 99 cards and a commander cast from the command zone
    (never drawn; its castability by turn reported), nobody skips the first draw (CR
    103.8c), the first mulligan is free (103.5c), 100 cards, singleton, the color identity
    (CR 903.5); Arcane Signet's mana is the commander's colors."""
    report = analyze(TATYOVA, games=40, turns=5, seed=3, workers=1, progress=False, format="commander")
    commander = next(c for c in report["cards"] if c["name"] == "Tatyova, Benthic Druid")
    assert commander["zone"] == "command" and commander["copies"] == 1 and len(commander["by_turn"]) == 5
    # (five mana: not on turn one, where a land and Sol Ring make three at most)
    assert commander["by_turn"][0] == 0 < commander["by_turn"][2] <= commander["by_turn"][4]
    arcane = next(c for c in report["cards"] if c["name"] == "Arcane Signet")
    assert arcane["by_turn"][1] > 0.9 and report["format"] == "commander"
    deck = Decklist.parse(TATYOVA)
    model = DeckModel.build(deck, load_cards(deck.played_names))
    assert len(model.library) == 99 and model.names.index("Tatyova, Benthic Druid") not in model.library
    assert model.identity == {"G", "U"} and {"G", "U"} <= model.makes[model.names.index("Arcane Signet")]
    for change, message in ((TATYOVA.replace("1 Opt", "1 Lightning Bolt"), r"color identity \(UG.*Lightning Bolt \(R\)"),
                            (TATYOVA.replace("36 Forest", "35 Forest"), "100 cards with its commander.*98 \\+ 1"),
                            (TATYOVA.replace("1 Opt", "2 Opt").replace("36 Forest", "35 Forest"), "one copy.*Opt")):
        with pytest.raises(RequestError, match=message):
            analyze(change, games=1, turns=1, workers=1, progress=False, format="commander")


def test_limited_needs_forty_cards_and_the_mana_by_turn_is_the_hypergeometric_on_lands_only():
    """--format limited checks 40 cards; ``mana_at_least`` (P(at least k mana by
    turn t)): on the play with no mulligan, two mana on turn two needs two lands among eight
    cards."""
    with pytest.raises(RequestError, match="at least 40 cards"):
        analyze("17 Forest\n22 Grizzly Bears\n", games=1, workers=1, progress=False, format="limited")
    games = 3000
    report = analyze("17 Forest\n23 Grizzly Bears\n", games=games, turns=2, seed=5, mulligan="none", workers=1,
                     progress=False, format="limited")
    exact = _hypergeometric_at_least(40, 17, 8, 2)
    assert abs(report["mana_at_least"][1][1] - exact) < 4 * (exact * (1 - exact) / games) ** 0.5
    assert report["mana_at_least"][0] == [pytest.approx(1 - comb(23, 7) / comb(40, 7), abs=0.04)]


def test_deck_lands_proposes_bases_from_karstens_counts_and_chooses_by_the_same_games(tmp_path):
    """``deck lands``: proposals by CP-SAT (the land count, four copies of a
    nonbasic land), the deck's base and a hand-built one from Karsten's counts, each played
    on the same games; the best by mean on-curve score, with paired 95% intervals; the same
    seed, the same report."""
    from manaplan.deck import lands

    assert lands.land_counts("23-25") == (23, 24, 25) and lands.land_counts("17") == (17,)
    with pytest.raises(RequestError, match="--lands"):
        lands.land_counts("25-23")
    assert lands.hand_built({"W": (16, 12, []), "U": (21, 12, []), "G": (21, 20, [])}, 24) == \
        {"Plains": 6, "Island": 9, "Forest": 9}
    text = "9 Plains\n8 Island\n4 Savannah Lions\n4 Opt\n4 Counterspell\n4 Serra Angel\n4 Divination\n3 Cancel\n"
    deck = Decklist.parse(text)
    everything = {c["name"]: c for c in json.load(open(DEMO_CARDS))}
    cards = {n: everything[n] for n in deck.names}
    pool = {n: everything[n] for n in ("Plains", "Island", "Glacial Fortress", "Tranquil Cove", "Hallowed Fountain")}
    one = lands.choose(deck, cards, pool, games=300, seed=4, workers=1)
    two = lands.choose(deck, cards, pool, games=300, seed=4, workers=1)
    one.pop("seconds"), two.pop("seconds")
    assert one == two
    tried = {t["label"]: t for t in one["tried"]}
    assert tried["the deck's own"]["base"] == {"Plains": 9, "Island": 8}
    for t in one["tried"]:
        assert sum(t["base"].values()) == 17
        assert all(n <= 4 for name, n in t["base"].items() if name not in ("Plains", "Island"))
        assert t["ci95"][0] <= t["score"] <= t["ci95"][1]
    best = max(one["tried"], key=lambda t: t["score"])
    assert one["best"] == best["label"] and best["score"] >= tried["the deck's own"]["score"]
    gain = one["gain"]["the deck's own"]
    assert gain["ci95"][0] <= gain["mean"] <= gain["ci95"][1]
    assert one["confirmed_on"] == "4:confirm"  # (the gains on games the choice never saw)
    assert "4 Savannah Lions" in one["decklist"] and "Hallowed Fountain" in one["decklist"]


def test_a_mana_permanent_sacrificed_for_mana_does_not_make_its_line_dominate_the_one_keeping_it():
    """(review) Lotus Petal spent to cast Llanowar Elves on turn one looked like 'more cast'
    than Petal kept: the line keeping it, which casts Opt on turn two, was dropped."""
    from manaplan.deck.players import lines_of_play

    petal = {"name": "Lotus Petal", "type_line": "Artifact", "mana_cost": "{0}", "cmc": 0.0,
             "oracle_text": "{T}, Sacrifice Lotus Petal: Add one mana of any color."}
    deck_list = Decklist.parse("2 Plains\n1 Lotus Petal\n1 Llanowar Elves\n1 Opt\n")
    cards = {**load_cards(["Plains", "Llanowar Elves", "Opt"]), "Lotus Petal": petal}
    model = DeckModel.build(deck_list, cards)
    answers = BoardAnswers(model)
    plains, lotus, elves, opt = (model.names.index(n) for n in ("Plains", "Lotus Petal", "Llanowar Elves", "Opt"))
    hand, draws = [plains, lotus, elves], [None, plains]
    found = lines_of_play(model, Policy(turns=2), answers, hand, draws)
    assert found[:2] == _every_line(model, Policy(turns=2), answers, hand, draws)
    assert found[0][1] >> model.measured_index[opt] & 1


def test_deck_lands_leaves_out_lands_it_cant_read_and_refuses_what_it_cant_do(tmp_path):
    """(review) one land of the pool whose entering text isn't understood stopped the
    whole command; --games 0 and a card file without the basic lands the hand-built base
    needs were tracebacks; --json into a folder failed after the run; in Commander a
    nonbasic land may be chosen once only."""
    from manaplan.deck import lands

    odd = {"name": "Odd Town", "type_line": "Land", "mana_cost": "", "oracle_text":
           "This land enters tapped unless it's your first, second, or third turn.\n{T}: Add {W}."}
    text = "9 Plains\n8 Island\n4 Savannah Lions\n4 Opt\n4 Counterspell\n4 Serra Angel\n4 Divination\n3 Cancel\n"
    deck = Decklist.parse(text)
    everything = {c["name"]: c for c in json.load(open(DEMO_CARDS))}
    cards = {n: everything[n] for n in deck.names}
    pool = {n: everything[n] for n in ("Plains", "Island", "Glacial Fortress")} | {"Odd Town": odd}
    result = lands.choose(deck, cards, pool, games=60, seed=1, workers=1)
    assert "Odd Town" in result["skipped_lands"] and "not understood" in result["skipped_lands"]["Odd Town"]
    with pytest.raises(RequestError, match="'games' must be"):
        lands.choose(deck, cards, pool, games=0, workers=1)
    no_basics = Decklist.parse(text.replace("9 Plains\n8 Island", "9 Hallowed Fountain\n8 Glacial Fortress"))
    with pytest.raises(RequestError, match="no Plains, Island"):
        lands.choose(no_basics, {n: everything[n] for n in no_basics.names}, {"Tranquil Cove": everything["Tranquil Cove"]},
                     games=10, workers=1)
    wanted = lands.needs(DeckModel.build(deck, cards), 17)
    pool_model, _ = lands._pool({n: everything[n] for n in ("Plains", "Island", "Glacial Fortress", "Hallowed Fountain")},
                                set(wanted))
    singleton = lands.proposals(pool_model, list(range(4)), 17, wanted, 40, most_copies=1)
    assert all(n == 1 for base in singleton for name, n in base.items() if name not in ("Plains", "Island"))
    folder = tmp_path / "out"
    folder.mkdir()
    done = subprocess.run([sys.executable, "-m", "manaplan", "deck", "analyze", "demo", "--games", "5", "--json",
                           str(folder) + "/"], capture_output=True, text=True)
    assert done.returncode == 2 and "--json names a file, not a folder" in done.stderr and "Traceback" not in done.stderr


def test_a_commanders_own_convoke_keeps_the_whole_board_asked():
    """(review) the command zone's card was left out of the check for text that makes a
    tapped or summoning-sick permanent pay (convoke, CR 702.51a): its castability came out
    short."""
    commander = {"name": "Convoking Leader", "type_line": "Legendary Creature — Elf", "mana_cost": "{2}{G}{G}",
                 "cmc": 4, "oracle_text": "Convoke", "keywords": ["Convoke"], "color_identity": ["G"]}
    deck_list = Decklist.parse("Commander\n1 Convoking Leader\n\nDeck\n50 Forest\n49 Llanowar Elves\n")
    cards = {**load_cards(["Forest", "Llanowar Elves"]), "Convoking Leader": commander}
    assert not DeckModel.build(deck_list, cards).idle_when_tapped


def test_deck_lands_weights_cards_by_name_in_place_of_copies():
    """The score's weights are each card's copies unless given: one card
    weighted alone, the score is its own on-curve figure; weights of unknown cards are
    refused."""
    from manaplan.deck import lands

    text = "9 Plains\n8 Island\n4 Savannah Lions\n4 Opt\n4 Counterspell\n4 Serra Angel\n4 Divination\n3 Cancel\n"
    deck = Decklist.parse(text)
    everything = {c["name"]: c for c in json.load(open(DEMO_CARDS))}
    cards = {n: everything[n] for n in deck.names}
    alone = {name: 0 for name in ("Opt", "Counterspell", "Serra Angel", "Divination", "Cancel")} | {"Savannah Lions": 1}
    result = lands.choose(deck, cards, {}, games=200, seed=2, workers=1, weights=alone)
    for tried in result["tried"]:
        assert tried["score"] == pytest.approx(tried["on_curve"]["Savannah Lions"], abs=1e-9)
    with pytest.raises(RequestError, match="Grizzly Bears"):
        lands.choose(deck, cards, {}, games=10, workers=1, weights={"Grizzly Bears": 1})


def test_mana_floating_between_two_casts_pays_the_next_card():
    """Mountain, Sol Ring, Sol Ring, then a {3} card on turn one: the second Sol
    Ring is paid from the first's {C}{C}, leaving {C} floating (CR 106.4), and its own
    {C}{C} with it pay Bottle Gnomes. On the play without mulligans that is exactly the
    hands holding a Mountain and two Sol Rings (no other line makes three mana)."""
    demo = load_cards(["Mountain", "Sol Ring"])
    gnomes = {"object": "card", "name": "Bottle Gnomes", "mana_cost": "{3}", "cmc": 3,
              "type_line": "Artifact Creature — Gnome", "oracle_text": "Sacrifice Bottle Gnomes: You gain 3 life.",
              "layout": "normal"}
    filler = {"object": "card", "name": "Hill Giant", "mana_cost": "{3}{R}", "cmc": 4,
              "type_line": "Creature — Giant", "oracle_text": "", "layout": "normal"}
    games = 4000
    report = analyze("20 Mountain\n4 Sol Ring\n4 Bottle Gnomes\n32 Hill Giant\n",
                     cards=[demo["Mountain"], demo["Sol Ring"], gnomes, filler], games=games, turns=1, seed=5,
                     on="play", mulligan="none", workers=1, progress=False)
    cards = {c["name"]: c for c in report["cards"]}
    total = comb(60, 7)
    exact = sum(comb(20, m) * comb(4, r) * comb(36, 7 - m - r)
                for m in range(1, 8) for r in range(2, 5) if m + r <= 7) / total
    standard_error = (exact * (1 - exact) / games) ** 0.5
    assert abs(cards["Bottle Gnomes"]["by_turn"][0] - exact) < 4 * standard_error, (cards["Bottle Gnomes"], exact)


@given(st.lists(st.tuples(st.lists(st.integers(0, 11), max_size=5).map(lambda xs: tuple(sorted(xs))),
                          st.lists(st.integers(0, 2), max_size=4).map(lambda xs: tuple(sorted(xs))),
                          st.sampled_from([(), (3,)])),
                max_size=12))
def test_states_kept_are_those_no_other_dominates_as_multisets_say(states):
    """The packed comparison of lines of play (``players._undominated``: each
    multiset one integer) keeps exactly the states no other state holds, battlefield and
    cards (battlefield and hand), as counting by ``Counter`` says."""
    from collections import Counter

    from manaplan.deck.players import _undominated

    deck = DeckModel.build(Decklist.parse("4 Forest\n4 Llanowar Elves\n4 Grizzly Bears\n"),
                           load_cards(["Forest", "Llanowar Elves", "Grizzly Bears"]))
    states = set(states)

    def cards(state):
        return Counter([code >> 2 for code in state[0]] + list(state[1]))

    def holds(big, small):
        return all(big[k] >= n for k, n in small.items())

    expected = {s for s in states if not any(o != s and o[2] == s[2] and holds(Counter(o[0]), Counter(s[0]))
                                             and holds(cards(o), cards(s)) for o in states)}  # (the same copies fetched)
    assert _undominated(deck, states, (False, None)) == expected


def test_a_line_casting_a_mana_permanent_is_compared_by_its_cards_not_its_codes():
    """``_most_cast`` counted a battlefield's permanent
    codes (``card << 2 | state``) and the hand's card numbers in one multiset, so card 8
    in hand and card 2 on the battlefield (code 8) were one element: casting card 8 did
    not look like keeping every card, and the line was not dropped."""
    from types import SimpleNamespace

    from manaplan.deck.players import _most_cast

    deck = SimpleNamespace(names=[f"card {c}" for c in range(9)], copies=[1] * 9)  # (what the packing reads)
    kept_in_hand, cast = ((8,), ()), ((8, 32), (8,))
    assert _most_cast(deck, {kept_in_hand, cast}, (8,)) == {cast}


def test_the_games_ask_yes_or_no_without_the_proofs_words_and_one_plan_per_cast():
    """A board the deck's games find unable to pay is not explained (no
    counting bound is computed: the games read no words), while the same request through
    the protocol still carries its proof; the simulated player's cast and a line of
    play's cast on the same board are one request, solved once."""
    from manaplan.protocol import mtg
    from manaplan.queries import answer
    from manaplan.model.plan import Unpayable
    from manaplan.model.problem import copied_with
    from manaplan.solver.one_spell import UNEXPLAINED

    forest = load_cards(["Forest"])["Forest"]
    problem = mtg.read({"query": "can_pay", "spell": {"mana_cost": "{U}"},
                        "permanents": [{"id": "f", "card": forest}]})
    told = answer(problem)
    bare = answer(copied_with(problem, explain_no=False))
    assert isinstance(told, Unpayable) and isinstance(bare, Unpayable)
    assert bare.message == UNEXPLAINED and told.message != UNEXPLAINED and "blue" in told.message

    deck = Decklist.parse(SIMIC)
    model = DeckModel.build(deck, load_cards(deck.names))
    answers = BoardAnswers(model)
    play_games(model, Policy(turns=4), answers, "shared", 0, 40)
    singles = [key for key in answers.paid if len(key) == 2]
    assert not singles, "a cast asked without mana floating is kept under pay_floating's key"
    forest_code, elves = model.names.index("Forest") << 2, model.names.index("Llanowar Elves")
    board = (forest_code,)
    assert answers.pay(board, elves) == answers.pay_floating(board, elves)[0] == ((forest_code | 1),)
