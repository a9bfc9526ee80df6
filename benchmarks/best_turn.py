"""``best_turn`` with 7 cards on 20 permanents (issue 26): p50, p95, p99 over many hands.

    python benchmarks/best_turn.py [--hands 120] [--seed 1] [--name best_turn]

The hands and boards are the main benchmark's (benchmarks/turn_step.py: 7 cards of the
plain costs, each a creature, an instant or a sorcery; boards/plain_board of 20
permanents), each asked in process, once, after OR-Tools is loaded. Run it on two
revisions (``PYTHONPATH=<checkout>``) to compare.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import boards  # noqa: E402
import turn_step  # noqa: E402
from recording import record  # noqa: E402


def main(argv=None) -> int:
    from manaplan import __version__
    from manaplan.protocol.mtg import read
    from manaplan.queries import answer
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--name", default="best_turn")
    parser.add_argument("--label", default="", help="what is measured (a revision), for the table")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    answer(read(boards.request(boards.plain_board(3, rng), "{1}", rng)))  # OR-Tools loaded once
    times, values = [], []
    for r in range(args.hands):
        request = {"query": "best_turn", "hand": turn_step._hand(rng, r), "permanents": boards.plain_board(20, rng)}
        problem = read(request)
        t0 = time.perf_counter()
        out = answer(problem)
        times.append((time.perf_counter() - t0) * 1000)
        values.append(getattr(out, "value", None))
    s = sorted(times)
    pick = lambda q: s[min(len(s) - 1, int(q * len(s)))]
    row = (f"| {args.label or __version__} | {len(s)} | {pick(0.5):.0f} | {pick(0.95):.0f} | {pick(0.99):.0f} | "
           f"{s[-1]:.0f} | {sum(v or 0 for v in values)} |")
    table = "\n".join(["| revision | hands | p50 ms | p95 ms | p99 ms | max ms | values summed |",
                       "|---|---:|---:|---:|---:|---:|---:|", row])
    path = record(args.name, "best_turn, 7 cards on 20 permanents",
                  f"`python benchmarks/best_turn.py --hands {args.hands} --seed {args.seed}`: " +
                  __doc__.split("\n\n")[2].replace("\n", " "), table)
    print(open(path).read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
