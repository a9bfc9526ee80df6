"""Dask and Ray side by side on the deck analysis's chunks (the cluster engine
chosen by measurement). Ray is measured here only: manaplan's `--engine dask` is the
cluster engine it ships (README, "Deck analysis", says why).

    pip install 'dask[distributed]' ray   # (Ray is needed by this measurement only)
    python benchmarks/deck_engines.py [--games 50000] [--out benchmarks/results/deck_engines.md]

Each engine starts a local cluster of 1, then 2 worker processes, and runs the same
chunks of ``benchmarks/decks/simic_ramp.txt``; the time includes starting the cluster.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

from manaplan.deck.cards import load_cards  # noqa: E402
from manaplan.deck.decklist import Decklist  # noqa: E402
from manaplan.deck.engine import run  # noqa: E402
from manaplan.deck.simulate import Policy, Tally  # noqa: E402


def ray_run(decklist, cards, policy, games, seed, workers) -> Tally:
    import ray

    from manaplan.deck import engine

    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        chunk = ray.remote(engine.play_chunk)
        key = ("ray", seed)
        futures = [chunk.remote((key, decklist, cards, policy, seed, first, n, None)) for first, n in engine.chunks(games)]
        total = Tally(policy.turns)
        for tally in ray.get(futures):
            total.add(tally)
        return total
    finally:
        ray.shutdown()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--out", default=os.path.join(HERE, "results", "deck_engines.md"))
    args = parser.parse_args(argv)
    with open(os.path.join(HERE, "decks", "simic_ramp.txt")) as f:
        deck = Decklist.parse(f.read())
    cards = load_cards(deck.names)
    policy = Policy()
    rows, tallies = [], {}
    for workers in (1, 2):
        for name in ("dask", "ray"):
            started = time.perf_counter()
            if name == "ray":
                tally = ray_run(deck, cards, policy, args.games, 1, workers)
            else:
                tally = run(deck, cards, policy, args.games, 1, "dask", workers)
            seconds = time.perf_counter() - started
            tallies[(name, workers)] = tally
            rows.append(f"| {name} | {workers} | {seconds:.1f} | {args.games / seconds:,.0f} |")
            print(rows[-1], flush=True)
    first = next(iter(tallies.values()))
    same = all(vars(t) == vars(first) for t in tallies.values())
    text = "\n".join(["# Cluster engines side by side", "",
                      f"{args.games:,} games of `benchmarks/decks/simic_ramp.txt` (8 turns, on the play), a local cluster "
                      "started per run (its start included), 2 cores.", "",
                      "| engine | workers | seconds | games per second |", "|---|---|---|---|", *rows, "",
                      f"All four runs give {'the same' if same else 'DIFFERENT'} tallies."]) + "\n"
    print(text)
    with open(args.out, "w") as f:
        f.write(text)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
