"""Would solution hints speed up the chain models? The first relaxed solve of a payment
(what settles nearly every chain query: search.best_plan), timed without a hint and
with the best hint there can be: the optimum itself, from an earlier solve of the same
model. A hint from the plain part of the board would be a worse one, and cost time to
make; if even the optimum saves little, it is not worth making.

    python benchmarks/hints.py [--boards 60] [--out FILE.md]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import boards  # noqa: E402
from manaplan.protocol.mtg import read  # noqa: E402
from manaplan.solver.chains import activation_bound  # noqa: E402
from manaplan.solver.cpsat import PaymentModel
from manaplan.solver.runtime import Status  # noqa: E402
from manaplan.solver.supply import build_supply  # noqa: E402

FAMILIES = {"chains 20": (boards.chain_board, 20), "chains 100": (boards.chain_board, 100),
            "converters 20": (boards.converter_board, 20)}


def percentile(samples: list, q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def best_of(runs: int, fn) -> float:
    """The fastest of ``runs`` calls, in ms (each on a model built anew)."""
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return min(out)


def one_board(problem) -> tuple | None:
    """(ms without a hint, ms with the optimum as a hint), or None if no optimum."""
    supply = build_supply(problem)
    if supply.doubles:
        return None
    full = activation_bound(supply)
    layers = min(full, 1)

    def model():
        return PaymentModel(problem, supply, layers, problem.spell.cost.x, relaxed_tail=layers < full)
    first = model()
    solver, status = first.solve_best(10.0)
    if status != Status.OPTIMAL:
        return None
    optimum = [(v.index, solver.value(v)) for v in first._decision_variables()]

    def hinted():
        m = model()
        by_index = {v.index: v for v in m._decision_variables()}
        for index, value in optimum:
            m.model.add_hint(by_index[index], value)
        m.solve_best(10.0)
    return best_of(3, lambda: model().solve_best(10.0)), best_of(3, hinted)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=60)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    rng = random.Random(20261201)
    lines = ["The first relaxed solve of a payment, ms (best of 3 each), without a hint and with the optimum "
             f"itself as the hint; {args.boards} boards a family.", "",
             "| family | boards | no hint p50 | no hint p95 | optimum hinted p50 | optimum hinted p95 |",
             "|---|---|---|---|---|---|"]
    for name, (make, n) in FAMILIES.items():
        plain, hinted = [], []
        for _ in range(args.boards):
            found = one_board(read(boards.request(make(n, rng), rng.choice(boards.COSTS), rng)))
            if found is not None:
                plain.append(found[0])
                hinted.append(found[1])
        lines.append(f"| {name} | {len(plain)} | {percentile(plain, 0.5):.2f} | {percentile(plain, 0.95):.2f} | "
                     f"{percentile(hinted, 0.5):.2f} | {percentile(hinted, 0.95):.2f} |")
        print(lines[-1], file=sys.stderr)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
