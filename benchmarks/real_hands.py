"""``best_turn`` on hands dealt from real decklists: p50, p95, p99 over many hands.

    python benchmarks/real_hands.py [--hands 60] [--sizes 7 10 12] [--seed 1] [--base REV]
        [--limit-ms 10000] [--check 0] [--name real_hands]

Each hand is dealt from one of the five decks of benchmarks/decks/real_hands.json (kicker
and multikicker cards, twobrid, Phyrexian and hybrid symbols, basics, shock, check and
pain lands: the cards as Scryfall gives them, benchmarks/decks/real_hand_cards.json): the
first 7, 10 or 12 cards of the shuffled deck are the hand, lands and all, and 20 of the
rest's lands and mana creatures are on the battlefield, untapped. Each request is asked once through
``manaplan.api.solve`` (its ``time_limit_ms`` the guard), in a process that has loaded
OR-Tools; wall and CPU time of each, how many hands reached the guard (an answer not
proven best, or none). With ``--base`` the revision given and the working tree are
installed each into a folder of its own (benchmarks/compare.py) and measured in turn, in
one run, on the same hands. ``--check N``: the first N hands of each size are asked
again with 120 s of the base (or without ``--base``, of the working tree), and the values
compared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from recording import record  # noqa: E402

DECKS = os.path.join(HERE, "decks", "real_hands.json")
CARDS = os.path.join(HERE, "decks", "real_hand_cards.json")
BOARD_SIZE = 20


def _deck(lines: list, cards: dict) -> list:
    """The deck's 60 card objects (a copy of the object for each copy of the card)."""
    out = []
    for line in lines:
        count, name = line.split(" ", 1)
        out += [cards[name]] * int(count)
    return out


def _is_mana_permanent(card: dict) -> bool:
    return "Land" in card["type_line"] or (bool(card.get("produced_mana")) and "Creature" in card["type_line"])


def requests(hands: int, size: int, seed: int, limit_ms: int) -> list:
    """``hands`` best_turn requests, dealt in turn from each deck: 20 mana permanents on
    the battlefield, a hand of ``size`` from the rest of the deck."""
    cards = {c["name"]: c for c in json.load(open(CARDS))}
    decks = json.load(open(DECKS))["decks"]
    names = sorted(decks)
    rng = random.Random(f"{seed}-{size}")
    out = []
    for h in range(hands):
        deck = _deck(decks[names[h % len(names)]], cards)
        rng.shuffle(deck)
        dealt, rest = deck[:size], deck[size:]
        mana = [c for c in rest if _is_mana_permanent(c)]
        mana = (mana * BOARD_SIZE)[:BOARD_SIZE]  # (a deck short of 20 mana permanents repeats them)
        board = [{**card, "instance": f"p{k}"} for k, card in enumerate(mana)]
        hand = [{**card, "instance": f"h{k}"} for k, card in enumerate(dealt)]
        out.append({"query": "best_turn", "hand": hand, "permanents": board, "time_limit_ms": limit_ms})
    return out


def measure(hands: int, size: int, seed: int, limit_ms: int) -> tuple:
    """(wall ms, CPU ms, value, whether at the guard) of each hand's best_turn, in this
    process."""
    from manaplan.api import solve
    import ortools.sat.python.cp_model  # noqa: F401 (loaded before the first hand)
    solve({"query": "best_turn", "hand": [{"id": "a", "mana_cost": "{G}", "type_line": "Sorcery"}],
           "permanents": [{"id": "f", "type_line": "Basic Land — Forest"}]})
    walls, cpus, values, guarded = [], [], [], []
    for request in requests(hands, size, seed, limit_ms):
        t0, c0 = time.perf_counter(), time.process_time()
        out = solve(request)
        walls.append((time.perf_counter() - t0) * 1000)
        cpus.append((time.process_time() - c0) * 1000)
        values.append(out.get("value"))
        guarded.append(out.get("value") is None or out.get("optimal") is False)
    return walls, cpus, values, guarded


def elsewhere(site: str, hands: int, size: int, seed: int, limit_ms: int) -> tuple:
    """:func:`measure` in a new process running the manaplan installed in ``site``."""
    code = (f"import json, sys; sys.path.insert(0, {HERE!r}); import real_hands; "
            f"print(json.dumps(real_hands.measure({hands}, {size}, {seed}, {limit_ms})))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": site}, cwd=tempfile.gettempdir())
    return tuple(json.loads(out.stdout.strip().splitlines()[-1]))


def _picks(xs: list) -> list:
    s = sorted(xs)
    return [s[min(len(s) - 1, int(q * len(s)))] for q in (0.5, 0.95, 0.99)] + [s[-1]] if s else [0] * 4


def row(label: str, size: int, walls: list, cpus: list, values: list, guarded: list) -> str:
    """A table row: wall p50/p95/p99/max, CPU p50/p95/p99/max, hands at the guard, values summed."""
    return (f"| {label} | {size} | {len(walls)} | " + " | ".join(f"{v:.0f}" for v in _picks(walls)) + " | "
            + " | ".join(f"{v:.0f}" for v in _picks(cpus)) + f" | {sum(guarded)} | {sum(v or 0 for v in values)} |")


def check(site: str | None, hands: int, size: int, seed: int, values: list) -> str:
    """The first ``hands`` hands asked again with 120 s, of the chosen-order model of
    the revision installed in ``site`` (the base: the whole turn in one model, the land
    drop among its choices), or of the working tree: how many values agree."""
    _, _, theirs, guarded = (elsewhere(site, hands, size, seed, 120_000) if site
                             else measure(hands, size, seed, 120_000))
    agree = sum(a == b for a, b in zip(theirs, values))
    proven = sum(not g for g in guarded)
    return (f"{size} cards: {agree} of {hands} values equal to the {'base' if site else 'head'}'s with 120 s "
            f"({proven} of its {hands} proven best)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--sizes", type=int, nargs="+", default=[7, 10, 12])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit-ms", type=int, default=10_000)
    parser.add_argument("--base", help="a revision measured first, in the same run")
    parser.add_argument("--check", type=int, default=0, help="hands of each size asked again with 120 s")
    parser.add_argument("--name", default="real_hands")
    args = parser.parse_args(argv)
    rows, checks = [], []
    from tqdm import tqdm
    with tempfile.TemporaryDirectory() as tmp:
        if args.base:
            from compare import install
            sites = [(f"{args.base} (base)", install(args.base, os.path.join(tmp, "base"))),
                     ("head (working tree)", install(None, os.path.join(tmp, "head")))]
        else:
            sites = [("head (working tree)", None)]
        for size in tqdm(args.sizes, desc="hand sizes", disable=not sys.stderr.isatty()):
            for label, site in sites:
                got = (elsewhere(site, args.hands, size, args.seed, args.limit_ms) if site
                       else measure(args.hands, size, args.seed, args.limit_ms))
                rows.append(row(label, size, *got))
                if args.check and label.startswith("head"):
                    checks.append(check(sites[0][1] if args.base else None, args.check, size, args.seed,
                                        got[2][:args.check]))
    table = "\n".join(["| revision | cards | hands | p50 ms | p95 ms | p99 ms | max ms | CPU p50 ms | CPU p95 ms | "
                       "CPU p99 ms | CPU max ms | at the guard | values summed |",
                       "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|", *rows])
    if checks:
        table += "\n\nThe first hands asked again with `time_limit_ms` 120,000:\n\n" + "\n".join(
            f"- {line}" for line in checks)
    base = f" --base {args.base}" if args.base else ""
    path = record(args.name, "best_turn on hands dealt from real decklists",
                  f"`python benchmarks/real_hands.py --hands {args.hands} --sizes {' '.join(map(str, args.sizes))} "
                  f"--seed {args.seed} --limit-ms {args.limit_ms}{base}"
                  + (f" --check {args.check}" if args.check else "") + "`: "
                  + __doc__.split("\n\n")[2].replace("\n", " "), table)
    print(open(path).read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
