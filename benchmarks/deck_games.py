"""Deck analysis at scale: games per second on 1 and 2 workers, the same
numbers whatever the workers, a million games of 8 turns timed, and the deck beside
itself with its filter lands and Signets made basic lands.

    python benchmarks/deck_games.py [--games 1000000] [--check 100000] [--engine local|dask]
        [--out benchmarks/results/deck_games.md]

The deck is ``benchmarks/decks/simic_ramp.txt`` (two colors: filter lands, a check land,
gain lands, a bounce land, Signets, Llanowar Elves), its cards from the demo card file.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

from manaplan.deck.analyze import analyze  # noqa: E402


def deck(name: str) -> str:
    with open(os.path.join(HERE, "decks", name)) as f:
        return f.read()


def strip(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in ("seconds", "workers", "engine")}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--check", type=int, default=100_000, help="games of the 1- and 2-worker runs compared")
    parser.add_argument("--engine", default="local")
    parser.add_argument("--out", default=os.path.join(HERE, "results", "deck_games.md"))
    args = parser.parse_args(argv)
    real, basics = deck("simic_ramp.txt"), deck("simic_basics.txt")
    lines = ["# Deck analysis at scale", "",
             f"`benchmarks/decks/simic_ramp.txt`, 8 turns, on the play, London mulligan; engine `{args.engine}`; "
             f"{os.cpu_count()} cores. Each run starts its workers from nothing (no answers kept from another run).", ""]
    one = analyze(real, games=args.check, seed=1, workers=1, engine=args.engine)
    two = analyze(real, games=args.check, seed=1, workers=2, engine=args.engine)
    same = strip(one) == strip(two)
    lines += ["| run | games | workers | seconds | games per second |", "|---|---|---|---|---|",
              f"| check | {args.check:,} | 1 | {one['seconds']:.1f} | {args.check / one['seconds']:,.0f} |",
              f"| check | {args.check:,} | 2 | {two['seconds']:.1f} | {args.check / two['seconds']:,.0f} |"]
    full = analyze(real, games=args.games, seed=2, workers=2, engine=args.engine)
    lines += [f"| full | {args.games:,} | 2 | {full['seconds']:.1f} | {args.games / full['seconds']:,.0f} |", "",
              f"The 1- and 2-worker runs of the same seed give {'the same' if same else 'DIFFERENT'} numbers "
              "(every field of the report but the time and the worker count).", ""]
    plain = analyze(basics, games=args.check, seed=1, workers=2, engine=args.engine)
    lines += ["## What the mana base is worth",
              f"Castable by turn (%), {args.check:,} games each: the deck as built, and the same deck with its 4 "
              "Flooded Groves and 2 Simic Signets replaced by 3 Forests and 3 Islands "
              "(`benchmarks/decks/simic_basics.txt`); the difference in points.", ""]
    turns = full["turns"]
    lines += ["| card | " + " | ".join(f"t{t + 1}" for t in range(turns)) + " |", "|---|" + "---|" * turns]
    theirs = {c["name"]: c for c in plain["cards"]}
    for c in one["cards"]:
        other = theirs.get(c["name"])
        if other is None:
            continue
        cells = [f"{100 * a:.1f} / {100 * b:.1f} ({100 * (a - b):+.1f})" for a, b in zip(c["by_turn"], other["by_turn"])]
        lines.append(f"| {c['name']} {c['mana_cost']} | " + " | ".join(cells) + " |")
    lines += ["", f"Mana spent per turn (as built / basics): " + ", ".join(
        f"t{t + 1} {a:.2f} / {b:.2f}" for t, (a, b) in enumerate(zip(one["mana_spent"], plain["mana_spent"])))]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
