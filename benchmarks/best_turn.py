"""``best_turn`` with 7 cards on 20 permanents: p50, p95, p99 over many hands.

    python benchmarks/best_turn.py [--hands 120] [--real-hands 40] [--seed 1] [--name best_turn]
        [--base REV]

The hands and boards are the main benchmark's (benchmarks/turn_step.py: 7 cards of the
plain costs, each a creature, an instant or a sorcery; boards/plain_board of 20
permanents), and with ``--real-hands`` as many hands again of costs drawn as real costs
are (a twobrid and a Phyrexian symbol one in ten each: benchmarks/two_way.py), each asked
in process, once, after OR-Tools is loaded. With ``--base`` the
revision given and the working tree are installed each into a folder of its own (as
benchmarks/compare.py does) and measured in turn, in one run, on the same hands.
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

import boards  # noqa: E402
import turn_step  # noqa: E402
from recording import record  # noqa: E402


def measure(hands: int, seed: int, costs: str = "plain") -> tuple:
    """(milliseconds, value) of each hand's best_turn, in this process: the hands' costs
    plain (boards.PLAIN_COSTS), or drawn as real costs are, twobrid and Phyrexian symbols
    among them (benchmarks/two_way.py, ``real_cost``)."""
    from manaplan.protocol.mtg import read
    from manaplan.queries import answer
    import two_way
    draw_cost = two_way.real_cost if costs == "real" else None
    rng = random.Random(seed)
    answer(read(boards.request(boards.plain_board(3, rng), "{1}", rng)))  # OR-Tools loaded once
    times, values, cpu = [], [], []
    for r in range(hands):
        request = {"query": "best_turn", "hand": turn_step._hand(rng, r, draw_cost),
                   "permanents": boards.plain_board(20, rng)}
        problem = read(request)
        t0, c0 = time.perf_counter(), time.process_time()
        out = answer(problem)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        values.append(getattr(out, "value", None))
    return times, values, cpu


def row(label: str, times: list, values: list, cpu: list = ()) -> str:
    """A table row: wall p50/p95/p99/max, then CPU p50/p95/p99 (the machine is shared:
    CPU time is what the process itself spent), the values summed."""
    def picks(xs):
        s = sorted(xs)
        return [s[min(len(s) - 1, int(q * len(s)))] for q in (0.5, 0.95, 0.99)] + [s[-1]] if s else [0] * 4
    wall, used = picks(times), picks(cpu)
    return (f"| {label} | {len(times)} | " + " | ".join(f"{v:.0f}" for v in wall) + " | "
            + " | ".join(f"{v:.0f}" for v in used[:3]) + f" | {sum(v or 0 for v in values)} |")


def elsewhere(site: str, hands: int, seed: int, costs: str) -> tuple:
    """:func:`measure` in a new process running the manaplan installed in ``site``."""
    code = (f"import json, sys; sys.path.insert(0, {HERE!r}); import best_turn; "
            f"print(json.dumps(best_turn.measure({hands}, {seed}, {costs!r})))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": site}, cwd=tempfile.gettempdir())
    return tuple(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--name", default="best_turn")
    parser.add_argument("--label", default="", help="what is measured (a revision), for the table")
    parser.add_argument("--base", help="a revision measured first, in the same run")
    parser.add_argument("--real-hands", type=int, default=0,
                        help="also this many hands of real costs (twobrid and Phyrexian symbols among them)")
    args = parser.parse_args(argv)
    rows = []
    kinds = [("plain", args.hands)] + ([("real", args.real_hands)] if args.real_hands else [])
    if args.base:
        from compare import install
        with tempfile.TemporaryDirectory() as tmp:
            sites = [(f"{args.base} (base)", install(args.base, os.path.join(tmp, "base"))),
                     (args.label or "head (working tree)", install(None, os.path.join(tmp, "head")))]
            for costs, hands in kinds:
                for label, site in sites:
                    rows.append(row(f"{label}, {costs} costs", *elsewhere(site, hands, args.seed, costs)))
    else:
        from manaplan import __version__
        for costs, hands in kinds:
            rows.append(row(f"{args.label or __version__}, {costs} costs", *measure(hands, args.seed, costs)))
    table = "\n".join(["| revision, hands' costs | hands | p50 ms | p95 ms | p99 ms | max ms | CPU p50 ms | "
                       "CPU p95 ms | CPU p99 ms | values summed |",
                       "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|", *rows])
    base = (f" --base {args.base}" if args.base else "") + (f" --real-hands {args.real_hands}" if args.real_hands else "")
    path = record(args.name, "best_turn, 7 cards on 20 permanents",
                  f"`python benchmarks/best_turn.py --hands {args.hands} --seed {args.seed}{base}`: " +
                  __doc__.split("\n\n")[2].replace("\n", " "), table)
    print(open(path).read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
