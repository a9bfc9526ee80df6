"""The ``manaplan`` command: ``solve [FILE] [--explain]``, ``serve``, ``demo`` and
``--version`` (also as ``python -m manaplan``)."""

from __future__ import annotations

import argparse
import gc
import json
import os
import signal
import tempfile
import sys
import threading

from .version import __version__
from .api import explain, explain_text, solve, solve_text, write_json
from .kept_boards import MAX_KEPT_BOARDS, MAX_KEPT_MB, BoardStore
from .protocol.common import error_answer, is_error

DEMO_REQUEST = {
    "id": "demo",
    "spell": {"name": "Tidehollow Strix", "mana_cost": "{U}{B}", "type_line": "Artifact Creature — Sphinx"},
    "permanents": [
        {"id": "island", "name": "Island", "type_line": "Basic Land — Island"},
        {"id": "mountain", "name": "Mountain", "type_line": "Basic Land — Mountain"},
        {"id": "signet", "name": "Dimir Signet", "type_line": "Artifact",
         "oracle_text": "{1}, {T}: Add {U}{B}."},
        {"id": "heath", "name": "Fetid Heath", "type_line": "Land",
         "oracle_text": "{T}: Add {C}.\n{W/B}, {T}: Add {W}{W}, {W}{B}, or {B}{B}."},
    ],
}


def main(argv=None) -> int:
    """The command line; a reader that stops early (``manaplan demo | head``) or Ctrl-C
    ends it quietly rather than with a traceback."""
    try:
        return _main(argv)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush
        return 0
    except KeyboardInterrupt:
        return 130  # the shell's code for a program ended by SIGINT


def _stop(signum, frame) -> None:
    """Ctrl-C (or SIGTERM) ends `serve` at once and quietly: every answer already written
    was flushed with its line, and nothing is half-written."""
    with _WRITING:
        os._exit(128 + signum)  # the shell's code for a program ended by that signal (130: SIGINT)


#: held while an answer line is written: a stop waits for the line to be whole
_WRITING = threading.Lock()


#: the signal that asked to stop while the main thread was writing a line (it stops after it)
_STOPPING: list = []


def _stop_unless_writing(signum, frame) -> None:
    """The signal's handler in the main thread (run between two of its steps): stop now,
    unless the main thread itself is writing an answer line; then it stops once the line
    is whole (:func:`_answer_lines`, or the watching thread)."""
    if _WRITING.acquire(blocking=False):
        os._exit(128 + signum)
    _STOPPING.append(signum)


def _stop_even_mid_solve() -> None:
    """SIGINT and SIGTERM end `serve` within moments even while a solve runs. Python runs
    a signal's handler only between its own steps, and a CP-SAT solve (C++) is one long
    step; but the solve lets other threads run, and the signal's number is written to a
    pipe the moment it arrives (``signal.set_wakeup_fd``): a watching thread reads it and
    stops the process (Ctrl-C waited for the solve, up to its time limit)."""
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _stop_unless_writing)

    def watch() -> None:
        while True:
            got = os.read(read_end, 1)
            if got and got[0] in (signal.SIGINT, signal.SIGTERM):
                _stop(got[0], None)
    threading.Thread(target=watch, name="manaplan-stop", daemon=True).start()


#: the longest request line `serve` and `solve` read (bytes): a longer one is skipped to
#: its end and answered with an error, so no input can take unbounded memory
MAX_REQUEST_BYTES = 64 * 1024 * 1024


def request_lines(stream, limit: int = MAX_REQUEST_BYTES):
    """The lines of a binary stream, each at most ``limit`` bytes; a longer line is read
    to its end in pieces and given as None."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):
                line = stream.readline(limit)
            yield None
            continue
        yield line


def serve(lines, out, boards: BoardStore | None = None) -> None:
    """One answer per non-blank line, in order, whatever the line holds: a line that is
    not a request gets an error answer, a bug an internal-error answer, and the server
    goes on. ``lines`` yields bytes (read as UTF-8 one line at a time), or None for a line
    longer than MAX_REQUEST_BYTES. Boards named in requests are kept for the session
    (:class:`manaplan.kept_boards.BoardStore`).

    After a request that imported libraries (OR-Tools brings protobuf, numpy and pandas:
    hundreds of thousands of objects), what exists is frozen out of the garbage
    collector's way (``gc.freeze``): its full collections otherwise walked all of it
    (measured on 150 chain boards of 100 permanents: the slowest request 28 to 41 ms
    without, 13 ms with; the median unchanged). The collector runs between requests,
    once each answer is out (:func:`_collect_between`), rather than while a large
    request is read: the young collections that parsing 5,000 permanents set off took a
    sixth of the request (measured in process, alternating: p50 6.9 -> 5.8 ms). The
    request itself is freed then too, once its answer is out (``solve_text``'s
    ``hold``)."""
    thresholds = gc.get_threshold()
    gc.set_threshold(YOUNG_DURING_REQUESTS, *thresholds[1:])
    try:
        _answer_lines(lines, out, boards if boards is not None else BoardStore())
    finally:
        gc.set_threshold(*thresholds)


def _answer_lines(lines, out, boards: BoardStore) -> None:
    """:func:`serve`'s loop."""
    imported = len(sys.modules)
    answered = 0
    held: list = []  # the request being answered, freed once its answer is out
    for line in lines:
        if line is not None and not line.strip():
            continue  # blank lines are no requests (docs/protocol.md, "Transport")
        try:
            if line is None:
                text = write_json(error_answer(None, f"the request is longer than {MAX_REQUEST_BYTES} bytes", ""))
            else:
                text = write_json(solve_text(line, boards, hold=held))
        except Exception as e:  # noqa: BLE001  (solve_text answers everything; this is a last guard)
            text = write_json(error_answer(None, f"internal error ({type(e).__name__})", None, internal=True))
        with _WRITING:
            out.write(text + "\n")
            out.flush()
        if _STOPPING:  # (a signal came while the line was written: stop now that it is whole)
            _stop(_STOPPING[0], None)
        held.clear()
        line = None
        answered += 1
        _collect_between(answered)
        if len(sys.modules) != imported:  # a request imported a library (OR-Tools, networkx)
            imported = len(sys.modules)
            gc.freeze()


#: how many objects a request may allocate (net) before the collector runs during it:
#: what a request leaves is collected after its answer (a bound for the longest ones)
YOUNG_DURING_REQUESTS = 200_000


#: answers between two collections of the middle generation, and of all of it
MIDDLE_EVERY, FULL_EVERY = 400, 4000
#: the young objects (allocations less frees) past which they are collected after an
#: answer: a collection costs about 50 µs however few there are (a tenth of a plain
#: request), so small requests leave theirs to a later one
YOUNG_BETWEEN = 10_000


def _collect_between(answered: int) -> None:
    """Collect garbage after the ``answered``-th answer: the young objects once there
    are more than :data:`YOUNG_BETWEEN` of them (a tenth of a millisecond after a
    5,000-permanent request), the middle generation each :data:`MIDDLE_EVERY`, all of it
    each :data:`FULL_EVERY` (what was frozen is not walked). A request's garbage is
    young: collecting the middle generation each tenth answer and all of it each
    hundredth cost 13% of a plain request's CPU (a full collection takes 5 to
    25 ms)."""
    if answered % FULL_EVERY == 0:
        gc.collect(2)
    elif answered % MIDDLE_EVERY == 0:
        gc.collect(1)
    elif gc.get_count()[0] > YOUNG_BETWEEN:
        gc.collect(0)


def _sentence(words: str) -> str:
    """``words`` begun with a capital letter, as a description starts."""
    return words[:1].upper() + words[1:]


def _deck_parsers(sub) -> None:
    help_ = "deck analysis: castability on curve by simulation, sources needed"
    p_deck = sub.add_parser("deck", help=help_, description=_sentence(help_) + ". Choose one: analyze, lands or "
                            "sources.")
    deck = p_deck.add_subparsers(dest="deck_command", required=True, metavar="{analyze,lands,sources}",
                                 title="deck commands")
    help_ = "how often each nonland card is castable, turn by turn (simulated games, exact payment)"
    p = deck.add_parser("analyze", help=help_, description=_sentence(help_) + ".")
    p.add_argument("decklist", help="Arena or MTGO text, an MTGO .dek, a CSV export, Archidekt text or a JSON "
                   "list; 'demo' for the built-in deck")
    p.add_argument("--cards", help="Scryfall card objects: a JSON list or a bulk file (default: the demo cards)")
    p.add_argument("--games", type=int, default=10000, help="games to simulate (default: %(default)s)")
    p.add_argument("--turns", type=int, default=8, help="turns measured in each game (default: %(default)s)")
    p.add_argument("--seed", default="0", help="the games' random seed (the same seed, the same games) (default: %(default)s)")
    p.add_argument("--on", choices=("play", "draw", "both"), default="play", help="on the play, the draw, or half each (default: %(default)s)")
    p.add_argument("--mulligan", choices=("london", "none"), default="london", help="the mulligan rule (default: %(default)s)")
    p.add_argument("--no-ramp", action="store_true", help="never cast mana rocks and creatures")
    p.add_argument("--format", choices=("constructed", "limited", "commander"), default="constructed",
                   help="the deck's format: its checks and game rules (commander: 99 cards and a commander in the "
                        "command zone, no first-draw skip, a free first mulligan) (default: %(default)s)")
    p.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="where the games run: local processes, or a Dask cluster (default: %(default)s)")
    p.add_argument("--workers", type=int, help="processes (default: one per core)")
    p.add_argument("--address", help="a Dask scheduler's address (default: a local cluster)")
    p.add_argument("--json", dest="json_out", help="write the report as JSON to this file")
    p.add_argument("--plot", help="write PNG plots: PATH-by-turn.png and PATH-heat.png")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    help_ = "the best mana base for a deck's spells: proposed from Karsten's counts, chosen by simulation"
    m = deck.add_parser("lands", help=help_, description=_sentence(help_) + " on the same games (common random "
                        "numbers), with 95% intervals and the gain over the deck's own base.")
    m.add_argument("decklist", help="Arena or MTGO text, an MTGO .dek, a CSV export, Archidekt text or a JSON "
                   "list; 'demo' for the built-in deck")
    m.add_argument("--cards", help="Scryfall card objects: the deck's, and the lands that may be chosen (default: "
                   "the demo cards)")
    m.add_argument("--pool", help="the lands that may be chosen, comma-separated names (default: every land of "
                   "the card data that makes one of the deck's colors)")
    m.add_argument("--lands", help="the land count, or a range like 23-25 (default: the deck's own)")
    m.add_argument("--weight", action="append", default=[], metavar="NAME=W",
                   help="a card's weight in the score in place of its copies (again for more cards)")
    m.add_argument("--games", type=int, default=4000, help="games per base (default: %(default)s)")
    m.add_argument("--seed", default="0", help="the games' random seed (default: %(default)s)")
    m.add_argument("--on", choices=("play", "draw", "both"), default="play",
                   help="on the play, the draw, or half each (default: %(default)s)")
    m.add_argument("--format", choices=("constructed", "limited", "commander"), default="constructed",
                   help="the deck's format: its checks and game rules; commander: one copy of each nonbasic land "
                        "(default: %(default)s)")
    m.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="where the games run: local processes, or a Dask cluster (default: %(default)s)")
    m.add_argument("--workers", type=int, help="processes (default: one per core)")
    m.add_argument("--address", help="a Dask scheduler's address (default: a local cluster)")
    m.add_argument("--json", dest="json_out", help="write the report as JSON to this file")
    m.add_argument("--plot", help="write a PNG figure of the bases tried: PATH-lands.png (a folder: named by the deck)")
    m.add_argument("--quiet", action="store_true", help="no progress bar")
    help_ = "sources of a color needed for each cost pattern (Karsten 2022 preset)"
    s = deck.add_parser("sources", help=help_, description=_sentence(help_) + ", computed exactly for the deck "
                        "size and land count given.")
    s.add_argument("decklist", nargs="?", help="a decklist: its size and lands are used, and its own sources "
                   "checked against each of its cards ('demo' for the built-in deck)")
    s.add_argument("--cards", help="Scryfall card objects for the decklist (default: the demo cards)")
    s.add_argument("--deck-size", type=int, help="cards in the deck (e.g. 60, 40, 99); without a decklist")
    s.add_argument("--lands", type=int, help="lands in the deck; without a decklist")
    s.add_argument("--json", dest="json_out", help="write {\"sources_needed\": ...} to this file")
    s.add_argument("--plot", help="write a PNG figure: each card's sources wanted and had (with a decklist), else "
                   "the table as a heat map: PATH-sources.png")


def _suite_parsers(sub) -> None:
    help_ = "the conformance suite: boards of real cards with exact answers, and an engine's score on them"
    p_suite = sub.add_parser("suite", help=help_, description=_sentence(help_) + " (docs/suite.md). Choose one: "
                             "make or score.")
    suite = p_suite.add_subparsers(dest="suite_command", required=True, metavar="{make,score}", title="suite commands")
    help_ = "write a suite of cases (JSON lines), each with manaplan's exact answer"
    p = suite.add_parser("make", help=help_, description=_sentence(help_) + "; the same seed, the same suite.")
    p.add_argument("--cases", type=int, default=1000, help="how many cases (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="the random seed (default: %(default)s)")
    p.add_argument("--cards", help="a Scryfall file (a JSON list of card objects) instead of the shipped card pool")
    p.add_argument("--out", help="write the suite to this file (default: standard output)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    help_ = "score an engine's answers to a suite (each judged by the check query)"
    p = suite.add_parser("score", help=help_, description=_sentence(help_) + ": right and wrong yes and no, illegal "
                         "plans, plans worse than the optimum and by how much.")
    p.add_argument("suite", help="the suite (JSON lines, from `manaplan suite make`)")
    p.add_argument("answers", help="the engine's answers: one {\"case\", \"payable\", \"plan\"} per line")
    p.add_argument("--engine", default="the engine", help="the engine's name, for the table")
    p.add_argument("--json", dest="json_out", help="write the score, with each case's verdict, as JSON to this file")
    p.add_argument("--time-limit-ms", type=_time_limit_ms, default=10_000,
                   help="each check's time guard, 1 to 600,000 (default: %(default)s)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _time_limit_ms(text: str) -> int:
    """``--time-limit-ms``: a whole number of milliseconds, 1 to 600,000."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number of milliseconds: {text!r}") from None
    if not 1 <= value <= 600_000:
        raise argparse.ArgumentTypeError(f"must be 1 to 600,000, not {value}")
    return value


def _suite(args) -> int:
    from .model.errors import ManaplanError
    from .suite import make_suite, read_jsonl, score_answers, score_table, suite_cards
    try:
        if args.suite_command == "make":
            if args.cases < 1:
                raise ManaplanError("--cases must be 1 or more")
            with _progress(args.cases, args.quiet or args.out is None, "cases") as bar:
                cases = make_suite(args.cases, args.seed, suite_cards(args.cards), bar.update)
            text = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases)
            if args.out:
                from .files import write_whole
                write_whole(args.out, text)  # (whole or not at all; a link at the path is replaced, not followed)
                print(f"{len(cases)} cases written to {args.out}", file=sys.stderr)
            else:
                sys.stdout.write(text)
            return 0
        cases = read_jsonl(args.suite, "suite")
        answers = read_jsonl(args.answers, "answers")
        with _progress(len(cases), args.quiet, "cases") as bar:
            score = score_answers(cases, answers, args.time_limit_ms, bar.update, where=args.suite)
        print(score_table(score, args.engine))
        if args.json_out:
            _write(args.json_out, score)
        return 0
    except (ManaplanError, OSError, ValueError, RuntimeError) as e:  # (ValueError: a file not JSON, or not UTF-8)
        print(f"manaplan suite: {getattr(e, 'message', None) or e}", file=sys.stderr)
        return 2


class _progress:
    """A tqdm progress bar on standard error when tqdm is installed (an extra) and one is
    wanted; otherwise nothing."""

    def __init__(self, total: int | None, quiet: bool, unit: str):
        self.bar = None
        if not quiet:
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total, unit=unit, file=sys.stderr)
            except ImportError:
                pass

    def __enter__(self):
        return self

    def update(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def set_total(self, total: int) -> None:
        """The bar's total, once it is known (``deck lands``: after its bases are proposed)."""
        if self.bar is not None:
            self.bar.total = total
            self.bar.refresh()

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.close()


def _deck(args) -> int:
    from .model.errors import ManaplanError

    try:
        if args.deck_command == "sources":
            return _deck_sources(args)
        if args.deck_command == "lands":
            return _deck_lands(args)
        from .deck.analyze import analyze, plot, table

        text, name = _decklist_text(args.decklist)
        for flag, path in (("json", args.json_out), ("plot", args.plot)):  # (checked before the games, not after)
            _check_folder(flag, path)
        result = analyze(text, cards_file=args.cards, games=args.games, turns=args.turns, seed=args.seed, on=args.on,
                         mulligan=args.mulligan, ramp=not args.no_ramp, engine=args.engine, workers=args.workers,
                         address=args.address, progress=not args.quiet, name=name, format=args.format)
        if args.json_out:  # (the files first: a full standard output leaves them written)
            _write(args.json_out, result)
        written = plot(result, args.plot) if args.plot else []
        print(table(result))
        for path in written:
            print(f"wrote {path}")
        return 0
    except (ManaplanError, ValueError, RuntimeError) as e:
        message = e.message if isinstance(e, ManaplanError) else str(e)
        at = f" (at {e.at})" if isinstance(e, ManaplanError) and e.at else ""
        print(f"error{at}: {message}", file=sys.stderr)
        return 2
    except OSError as e:  # (standard output full or closed: the report can't be printed)
        print(f"error: can't write the report: {e.strerror or e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # (the workers already stopped: manaplan.deck.engine)
        print("\nstopped (Ctrl-C): no report written", file=sys.stderr)
        return 130


def _decklist_text(path: str) -> tuple:
    """(the decklist's text, its name) of a file, or of the built-in deck ('demo')."""
    from .deck.analyze import DEMO_DECK
    from .model.errors import ManaplanError

    from .deck.decklist import MOST_LINE_BYTES, MOST_LINES
    from .files import capped_lines

    if path == "demo":
        return DEMO_DECK, "demo"
    lines = []
    try:  # (each line capped, and their number: /dev/zero or a million lines is an error, not a wait)
        for n, raw in capped_lines(path, "decklist", MOST_LINE_BYTES):
            if n > MOST_LINES:
                raise ManaplanError(f"{path}: a decklist of more than {MOST_LINES:,} lines", "decklist")
            lines.append(raw)
    except OSError as e:
        raise ManaplanError(f"can't read the decklist: {e.strerror}", "decklist") from None
    try:
        text = b"".join(lines).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ManaplanError(f"{path}: not UTF-8 text", "decklist") from None
    return text, os.path.splitext(os.path.basename(path))[0]


def _deck_lands(args) -> int:
    """``deck lands``: the best mana base (manaplan.deck.lands)."""
    from .deck import lands
    from .deck.cards import land_cards, load_cards
    from .deck.decklist import Decklist
    from .model.errors import ManaplanError

    _check_folder("json", args.json_out)
    _check_folder("plot", args.plot)
    text, deck_name = _decklist_text(args.decklist)
    deck = Decklist.parse(text)
    pool_names = [n.strip() for n in args.pool.split(",") if n.strip()] if args.pool else None
    cards = load_cards(tuple(dict.fromkeys(deck.played_names + tuple(pool_names or ()))), args.cards)
    everything = cards if pool_names else land_cards(args.cards)
    pool = {n: everything[n] for n in pool_names} if pool_names else everything
    counts = lands.land_counts(args.lands)
    weights = {}
    for item in args.weight:
        name, _, value = item.rpartition("=")
        try:
            weights[name.strip()] = float(value)
        except ValueError:
            raise ManaplanError(f"--weight is NAME=W, a number: not {item!r}", "weight") from None
    with _progress(None, args.quiet, "game") as bar:
        result = lands.choose(deck, {n: cards[n] for n in deck.played_names}, pool, counts, args.games, args.seed,
                              args.on, engine=args.engine, workers=args.workers, address=args.address,
                              progress=bar.update, format=args.format, weights=weights, total=bar.set_total)
    print(lands.table(result))
    if args.json_out:
        _write(args.json_out, result)
    if args.plot:
        from .deck.figures import lands_plot
        for path in lands_plot(result, args.plot, deck_name):
            print(f"wrote {path}")
    return 0


def _deck_sources(args) -> int:
    """``deck sources``: the preset's table (for a size and land count, or a decklist's),
    and a decklist's own sources checked against each of its cards."""
    from .deck import sources
    from .model.errors import ManaplanError

    _check_folder("json", args.json_out)
    _check_folder("plot", args.plot)
    check, deck_name = None, ""
    if args.decklist:
        from .deck.cards import load_cards
        from .deck.decklist import Decklist
        from .deck.simulate import DeckModel

        text, deck_name = _decklist_text(args.decklist)
        deck = Decklist.parse(text)
        check = sources.deck_check(DeckModel.build(deck, load_cards(deck.played_names, args.cards)))
        size, lands = check["deck_size"], check["lands"]
    elif args.deck_size is None or args.lands is None:
        raise ManaplanError("give a decklist, or --deck-size and --lands", "lands")
    else:
        size, lands = args.deck_size, args.lands
    if not 1 <= lands <= size <= 1000:
        raise ManaplanError("give 1 <= lands <= deck size <= 1000", "lands")
    needed = sources.sources_needed(size, lands)
    print(sources.table(size, lands, needed))
    if check is not None:
        print()
        print(sources.check_lines(check))
    report = {"deck_size": size, "lands": lands, "preset": "karsten2022", "sources_needed": needed,
              **({"deck": check} if check is not None else {})}
    if args.json_out:
        _write(args.json_out, report)
    if args.plot:
        from .deck.figures import sources_plot
        for path in sources_plot(report, args.plot, deck_name):
            print(f"wrote {path}")
    return 0


def _solve(args) -> int:
    """``manaplan solve``: one request from a file or standard input; its answer as JSON
    on standard output, or (``--explain``) in words; an error in words on standard
    error under ``--explain``, exit code 2."""
    try:
        with open(args.file, "rb") if args.file else sys.stdin.buffer as f:
            text = f.read(MAX_REQUEST_BYTES + 1)
    except OSError as e:
        return _refuse(args, f"cannot read {args.file}: {e.strerror}", None)
    if len(text) > MAX_REQUEST_BYTES:
        return _refuse(args, f"the request is longer than {MAX_REQUEST_BYTES} bytes", "")
    if not text.strip():
        where = args.file or "standard input"
        return _refuse(args, f"no request: {where} is empty (give one JSON request, docs/protocol.md)", "")
    if args.explain:
        words, ok = explain_text(text)
        print(words, file=sys.stdout if ok else sys.stderr)
        return 0 if ok else 2
    held: list = []  # (the request is freed once its answer is out)
    response = solve_text(text, hold=held)
    print(write_json(response), flush=True)
    return 2 if is_error(response) else 0


def _load_the_solver_meanwhile() -> None:
    """`serve` loads its readers and solvers before it reads its first line (about
    0.25 s), and networkx and OR-Tools in the background from then (about 0.5 s): the
    first request that needs them would otherwise spend that much of its time guard on
    the imports (a `pay` with `time_limit_ms` 100 answered after 0.6 s). A
    request that needs OR-Tools while it loads waits for it within its own time
    (``solver.runtime.cp_model``). ``manaplan solve`` stays lazy."""
    import importlib
    from .solver.runtime import load_in_background

    for name in (".profiles.mtg", ".solver.planner", ".solver.total"):
        importlib.import_module(name, "manaplan")
    load_in_background("ortools.sat.python.cp_model", "networkx")


def _positive_mb(text: str) -> float:
    """``--max-kept-mb``: a positive number of megabytes."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of megabytes, not {text!r}")
    return value


def _refuse(args, message: str, at) -> int:
    """An input ``solve`` can't read: the protocol's error answer, or words on standard
    error under ``--explain``; exit code 2."""
    if args.explain:
        print(f"error{f' (at {at})' if at else ''}: {message}", file=sys.stderr)
    else:
        print(write_json(error_answer(None, message, at)))
    return 2


def _check_folder(flag: str, path: str | None) -> None:
    """An error naming the option when the folder ``path`` would be written in doesn't exist."""
    from .model.errors import ManaplanError

    if path and flag == "json" and (path.endswith(("/", os.sep)) or os.path.isdir(path)):
        raise ManaplanError(f"--json names a file, not a folder: {path!r}", flag)
    if path and flag == "plot" and path.endswith(("/", os.sep)):
        os.makedirs(path, exist_ok=True)  # (the README's own form, --plot plots/: the folder made)
    folder = (path if path.endswith(("/", os.sep)) else os.path.dirname(os.path.abspath(path))) if path else None
    if folder and not os.path.isdir(folder):
        raise ManaplanError(f"the folder of --{flag} {path!r} does not exist: {folder}", flag)


def _write(path: str, value: dict) -> None:
    """The JSON file, written whole or not at all (manaplan.files.write_whole); a file
    that can't be written (a full disk) is an error naming it, the old one left as it was."""
    from .files import write_whole
    from .model.errors import ManaplanError

    try:
        write_whole(path, json.dumps(value, indent=1) + "\n")
    except OSError as e:
        raise ManaplanError(f"can't write {path}: {e.strerror or e} (nothing written there)", "json") from None


def _main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="manaplan", description="Exact mana payment for Magic: The Gathering (and Duel Masters): can this be "
        "paid, and what to tap; a proof in words when it can't. Requests and answers: docs/protocol.md.")
    parser.add_argument("--version", action="version", version=f"manaplan {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="{solve,serve,demo,deck,suite}")
    help_ = "answer one JSON request (a file, or standard input)"
    p_solve = sub.add_parser("solve", help=help_, description=_sentence(help_) + ": the answer as JSON on "
                             "standard output; exit code 0 for an answer, 2 for an error in the request.")
    p_solve.add_argument("file", nargs="?", help="request file (default: standard input)")
    p_solve.add_argument("--explain", action="store_true",
                         help="print the answer as the plan a player follows, instead of JSON (errors on standard "
                              "error)")
    help_ = "answer one JSON request per line until end of input"
    p_serve = sub.add_parser("serve", help=help_, description=_sentence(help_) + " (JSON lines over stdio, for "
                             "engines in any language): one answer line per request line, in order; boards named "
                             "in requests are kept for the session. Ctrl-C or end of input stops it.")
    p_serve.add_argument("--max-kept-mb", type=_positive_mb, default=MAX_KEPT_MB, metavar="MB",
                         help=f"memory the kept boards may take, by their estimate (default {MAX_KEPT_MB}); past "
                              f"it, or past {MAX_KEPT_BOARDS} boards, the least recently used is dropped")
    help_ = "solve a built-in example and print the plan"
    p_demo = sub.add_parser("demo", help=help_, description=_sentence(help_) + ".")
    p_demo.add_argument("--json", action="store_true", help="print the JSON response instead of the plan in words")
    _deck_parsers(sub)
    _suite_parsers(sub)
    args = parser.parse_args(argv)
    if args.command == "deck":
        return _deck(args)
    if args.command == "suite":
        return _suite(args)
    if args.command == "solve":
        return _solve(args)
    if args.command == "serve":
        _stop_even_mid_solve()
        _load_the_solver_meanwhile()
        serve(request_lines(sys.stdin.buffer), sys.stdout, BoardStore(max_kept_mb=args.max_kept_mb))
        return 0
    if args.json:  # (JSON alone: what a program reads)
        answer = solve(DEMO_REQUEST)
        print(json.dumps(answer, indent=2))
        return 0 if answer.get("payable") else 1
    words, ok = explain(DEMO_REQUEST)
    print(words)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
