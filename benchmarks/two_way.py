"""Costs as real costs are, twobrid and Phyrexian symbols among them, on plain boards:
manaplan beside the naive per-source CP-SAT model, in one run.

    python benchmarks/two_way.py [--boards 40] [--rounds 3] [--sizes 20,80,320] [--name two_way]

Boards of single-mana lands (benchmarks/boards.py, ``plain_board``). Each cost has two to
five symbols, each drawn as real costs are: a colored or generic symbol mostly, a hybrid
one in ten, and one symbol in ten each a twobrid (``{2/W}``) and a Phyrexian (``{G/P}``);
life 20. For each size, the same boards are asked:

- through a warm ``manaplan serve`` (the engine's view: a round trip; each round the
  boards' permanents renamed, so that no answer is one kept from a round before), and
- of the naive model (one Boolean per source and unit of cost, no grouping, in process;
  each twobrid or Phyrexian symbol a Boolean choice of its half), and of the same model
  with each such symbol fixed to its colored half (the naive model before these
  measurements: faster, but a wrong "no" where only the other half pays),

in interleaved rounds (the two take turns to go first), and in process of manaplan's
``pay`` with its fast path and with the general model only (each time a board read anew,
its permanents renamed, so that nothing read or answered before is kept). The ratio is manaplan's p50
over the naive model's; the costs are then split by kind (plain and hybrid, twobrid,
Phyrexian) for manaplan in process.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import baselines  # noqa: E402
import boards  # noqa: E402
import turn_step  # noqa: E402
from recording import record  # noqa: E402
from serving import Serve  # noqa: E402

PLAIN = ["{1}", "{2}", "{W}", "{U}", "{B}", "{R}", "{G}", "{3}"]
HYBRID = ["{W/U}", "{U/B}", "{B/R}", "{R/G}", "{G/W}"]
TWOBRID = ["{2/W}", "{2/U}", "{2/B}", "{2/R}", "{2/G}"]
PHYREXIAN = ["{W/P}", "{U/P}", "{B/P}", "{R/P}", "{G/P}"]


def real_cost(rng: random.Random) -> str:
    """Two to five symbols: a twobrid one in ten, a Phyrexian one in ten, a hybrid one in
    ten, the rest colored or generic."""
    out = []
    for _ in range(rng.randint(2, 5)):
        r = rng.random()
        out.append(rng.choice(TWOBRID if r < 0.1 else PHYREXIAN if r < 0.2 else HYBRID if r < 0.3 else PLAIN))
    return "".join(out)


def afresh(request: dict, tag: str) -> dict:
    """The request with its permanents renamed: read anew, nothing of an earlier reading
    or answer kept (the round's in-process times are of a first question)."""
    return {**request, "permanents": [{**p, "id": f"{p['id']}-{tag}"} for p in request["permanents"]]}


def kind(cost: str) -> str:
    return "twobrid" if "{2/" in cost else "Phyrexian" if "/P}" in cost else "plain and hybrid"


def summary(samples: list) -> dict:
    p50, p95, p99 = percentiles(samples)
    return {"p50": p50, "p95": p95, "p99": p99, "n": len(samples)}


def percentiles(samples: list) -> tuple:
    s = sorted(samples)
    pick = lambda q: s[min(len(s) - 1, int(q * len(s)))]
    return pick(0.5), pick(0.95), pick(0.99)


def main(argv=None) -> int:
    from manaplan.protocol.mtg import read
    from manaplan.queries import answer
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", default="20,80,320")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--ai-steps", type=int, default=30)
    parser.add_argument("--name", default="two_way")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    answer(read(boards.request(boards.plain_board(3, rng), "{1}", rng)))  # OR-Tools imported once
    serve = Serve(cwd=os.path.dirname(HERE))
    rows, by_kind = [], {}
    try:
        for n in [int(x) for x in args.sizes.split(",")]:
            asked = []
            for _ in range(args.boards):
                request = {"spell": {"mana_cost": real_cost(rng)}, "permanents": boards.plain_board(n, rng)}
                asked.append((request, read(request)))
            times = {"manaplan serve": [], "naive CP-SAT": [], "naive CP-SAT, one announcement (inexact)": [],
                     "manaplan pay (in process)": [],
                     "manaplan pay, general model": []}
            serve.ask(asked[0][0])
            for rnd in range(args.rounds):
                for method in (("serve", "naive") if rnd % 2 == 0 else ("naive", "serve")):
                    for request, problem in asked:
                        if method == "serve":
                            ms, _ = serve.ask(afresh(request, f"s{rnd}"))  # (each round a board not seen before)
                            times["manaplan serve"].append(ms)
                        else:
                            t0 = time.perf_counter()
                            baselines.naive_cpsat(problem)
                            times["naive CP-SAT"].append((time.perf_counter() - t0) * 1000)
                            t0 = time.perf_counter()
                            baselines.naive_cpsat(problem, choices_too=False)
                            times["naive CP-SAT, one announcement (inexact)"].append((time.perf_counter() - t0) * 1000)
                for request, _ in asked:
                    for name, plain_path in (("manaplan pay (in process)", True), ("manaplan pay, general model", False)):
                        fresh = read(afresh(request, f"{rnd}{plain_path}"))  # (nothing kept from before)
                        t0 = time.perf_counter()
                        answer(fresh, plain_path=plain_path)
                        ms = (time.perf_counter() - t0) * 1000
                        times[name].append(ms)
                        if plain_path:
                            by_kind.setdefault((n, kind(request["spell"]["mana_cost"])), []).append(ms)
            naive50 = percentiles(times["naive CP-SAT"])[0]
            one50 = percentiles(times["naive CP-SAT, one announcement (inexact)"])[0]
            for method, samples in times.items():
                p50, p95, p99 = percentiles(samples)
                rows.append(f"| {n} | {method} | {p50:.2f} | {p95:.2f} | {p99:.2f} | {p50 / naive50:.2f} | "
                            f"{p50 / one50:.2f} |")
        steps = []
        turn_step.bench_ai_step(serve, rng, args.ai_steps, steps, summary, draw_cost=lambda r: real_cost(r).replace(
            "{X}", ""), family="ai step, real costs")
        naive_step = next(r["p50"] for r in steps if r["method"].startswith("baseline: naive"))
        ai_rows = [f"| {r['method']} | {r['p50']:.2f} | {r['p95']:.2f} | {r['p99']:.2f} | {r['p50'] / naive_step:.3f} |"
                   for r in steps]
    finally:
        serve.close()
    ai_table = "\n".join(["| AI step (20 permanents, 7-card hands of real costs) | p50 ms | p95 ms | p99 ms | "
                          "p50 / naive p50 |", "|---|---:|---:|---:|---:|"] + ai_rows)
    table = "\n".join(["| permanents | method | p50 ms | p95 ms | p99 ms | p50 / naive p50 | p50 / one-announcement "
                        "naive p50 |",
                       "|---:|---|---:|---:|---:|---:|---:|"] + rows)
    kinds = "\n".join(["| permanents | cost | p50 ms | p95 ms | boards |", "|---:|---|---:|---:|---:|"] + [
        f"| {n} | {k} | {percentiles(v)[0]:.2f} | {percentiles(v)[1]:.2f} | {len(v) // args.rounds} |"
        for (n, k), v in sorted(by_kind.items())])
    path = record(args.name, "Twobrid and Phyrexian costs on plain boards, beside the naive model",
                  f"`python benchmarks/two_way.py --boards {args.boards} --rounds {args.rounds} --sizes {args.sizes}`. "
                  + " ".join(__doc__.split("\n\n")[2:4]).replace("\n", " "),
                  f"## Side by side\n\n{table}", f"## manaplan in process, by the kind of cost\n\n{kinds}",
                  f"## One AI step\n\nA kept board of 20 permanents: a land tapped or untapped, `castable` for a new "
                  f"7-card hand whose costs are drawn as above, one `pay` (benchmarks/turn_step.py), beside the naive "
                  f"model's 8 solves.\n\n{ai_table}")
    print(open(path).read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
