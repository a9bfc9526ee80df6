"""Latency of manaplan against baselines, on the same boards, in one process.

    python benchmarks/run.py            # full run: JSON, table, PNG in benchmarks/results/local/
    python benchmarks/run.py --record   # the same, written to benchmarks/results/ (committed)
    python benchmarks/run.py --smoke    # seconds; what CI runs (asserts nothing on time)

A bar on stderr shows the progress (tqdm). ``manaplan serve`` is measured in rounds: all
the boards of a size back to back on a warm server, interleaved with the naive model's
solves of the same boards, the two taking turns to go first.

Methods (baselines are labelled ``baseline:``):
- ``manaplan pay``: the optimal plan, validated (the product; plain boards take the
  transport of solver/plain.py).
- ``manaplan pay, general model``: the same on plain boards through the general model.
- ``manaplan can_pay``: the yes/no answer (Hall fast path on plain boards).
- ``manaplan serve``: ``pay`` through the JSON-lines server, round trip per request
  (warm: interleaved rounds).
- ``hall check``: the exact Hall-condition check alone (plain boards).
- ``baseline: greedy (Forge-style)``, ``baseline: enumeration (XMage-style)``,
  ``baseline: naive CP-SAT`` (one Boolean per source and symbol), ``baseline: reference
  search`` (exhaustive, small boards only).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import baselines  # noqa: E402
import boards  # noqa: E402
import turn_step  # noqa: E402
from serving import Serve  # noqa: E402
from manaplan.model.plan import Payable, Plan  # noqa: E402
from manaplan.protocol.mtg import read as parse_request  # noqa: E402
from manaplan.solver.hall import hall_violation, plain_view  # noqa: E402
from manaplan.queries import answer  # noqa: E402
from manaplan.solver.checks.reference import reference_optimum  # noqa: E402
from manaplan.solver.supply import build_supply  # noqa: E402


def payable(out) -> bool:
    return isinstance(out, (Plan, Payable))


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return (time.perf_counter() - t0) * 1000, out


def summary(samples):
    if not samples:
        return None
    s = sorted(samples)
    return {"n": len(s), "p50": statistics.median(s), "p95": s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))],
            "p99": s[min(len(s) - 1, int(round(0.99 * (len(s) - 1))))], "max": s[-1]}


#: times each board of a size is sent to the server, in rounds interleaved with the naive model
SERVE_ROUNDS = 3


def bench_family(name, make_board, costs, sizes, repeats, rng, serve, with_naive, with_hall, results, wrong,
                 enum_budget=2.0, progress=None):
    for n in sizes:
        rows = {}
        asked = []  # (request, payable) for the serve rounds
        for r in range(repeats):
            board = make_board(n, rng)
            cost = rng.choice(costs)
            req = boards.request(board, cost, rng)
            problem = parse_request(req)
            ms, out = timed(answer, problem)
            rows.setdefault("manaplan pay", []).append(ms)
            is_payable = payable(out)
            asked.append((req, problem, is_payable))
            if with_hall:  # the general model on the same plain board, for comparison
                ms, general = timed(lambda p: answer(p, plain_path=False), problem)
                rows.setdefault("manaplan pay, general model", []).append(ms)
                assert payable(general) == is_payable
            ms, _ = timed(answer, parse_request({**req, "query": "can_pay"}))
            rows.setdefault("manaplan can_pay", []).append(ms)
            if with_hall:
                if plain_view(problem, build_supply(problem)) is not None:  # the exact check, from the board
                    ms, _ = timed(lambda p: hall_violation(*plain_view(p, build_supply(p))[:2]), problem)
                    rows.setdefault("hall check", []).append(ms)
            ms, greedy = timed(baselines.greedy_forge_style, problem)
            rows.setdefault("baseline: greedy (Forge-style)", []).append(ms)
            wrong.setdefault(name, {"boards": 0, "payable": 0, "greedy_says_unpayable": 0})
            wrong[name]["boards"] += 1
            if is_payable:
                wrong[name]["payable"] += 1
                wrong[name]["greedy_says_unpayable"] += 0 if greedy else 1
            if n <= 40 and r < 5:  # exponential: a few samples are enough
                try:
                    ms, enum = timed(baselines.enumerate_xmage_style, problem, enum_budget)
                    rows.setdefault("baseline: enumeration (XMage-style)", []).append(ms)
                except baselines.OutOfTime:
                    rows.setdefault("baseline: enumeration (XMage-style) timeouts", []).append(enum_budget * 1000)
            if n <= 6:
                ms, best = timed(reference_optimum, problem)
                rows.setdefault("baseline: reference search", []).append(ms)
                assert (best is not None) == is_payable
            if progress is not None:
                progress.update(1)
        _serve_rounds(asked, serve, with_naive, rows)
        for method, samples in rows.items():
            results.append({"family": name, "size": n, "method": method, **summary(samples)})


def _serve_rounds(asked: list, serve, with_naive: bool, rows: dict) -> None:
    """The size's boards through ``serve``, each round all of them back to back (a warm
    server), and the naive model's solves of the same boards likewise in process, the two
    taking turns to go first: the speed issue's interleaved rounds."""
    if serve is not None:
        serve.ask(asked[0][0])  # the server's imports and first solve, once per size
    for rnd in range(SERVE_ROUNDS):
        methods = []
        if serve is not None:
            methods.append("serve")
        if with_naive:
            methods.append("naive")
        for method in (methods if rnd % 2 == 0 else methods[::-1]):
            for req, problem, is_payable in asked:
                if method == "serve":
                    ms, out = serve.ask(req)
                    assert out["payable"] == is_payable
                    rows.setdefault("manaplan serve", []).append(ms)
                else:
                    ms, naive = timed(baselines.naive_cpsat, problem)
                    assert naive == is_payable, (req, naive, is_payable)
                    rows.setdefault("baseline: naive CP-SAT", []).append(ms)


def bench_freeze_boards(rng, repeats, results, budget=5.0):
    cases = [(f"cataracts x{k}", lambda k=k: boards.cataracts_board(k, rng)) for k in range(3, 8)]
    cases.append(("dryad 12 lands", lambda: boards.dryad_board(12)))
    for label, make in cases:
        board = make()
        for cost in ["{W}{U}{B}{R}{G}{5}", "{G}{G}{G}{G}{G}{G}{G}{7}", "{2}{W}{W}{U}{U}"][: max(1, repeats)]:
            req = boards.request(board, cost, rng)
            problem = parse_request(req)
            ms, out = timed(answer, problem)
            results.append({"family": "xmage freeze", "board": label, "cost": cost, "method": "manaplan pay",
                            "ms": ms, "payable": payable(out)})
            try:
                ms, _ = timed(baselines.enumerate_xmage_style, problem, budget)
                results.append({"family": "xmage freeze", "board": label, "cost": cost,
                                "method": "baseline: enumeration (XMage-style)", "ms": ms})
            except baselines.OutOfTime:
                results.append({"family": "xmage freeze", "board": label, "cost": cost,
                                "method": "baseline: enumeration (XMage-style)", "ms": None, "timeout_s": budget})


FAMILIES_PLOTTED = ("plain", "chains", "converters")


def plot(results, path):
    """p50 by board size, one panel per family: manaplan's methods as solid lines with
    filled dots, the baselines dashed in grey with hollow squares, and runs stopped at a
    time limit as crosses at that limit (the real time is longer: no line joins them)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed (pip install '.[bench]'): no plot")
        return
    fig, axes = plt.subplots(1, len(FAMILIES_PLOTTED), figsize=(19, 7))
    ours = plt.get_cmap("tab10")
    greys = ["0.35", "0.55", "0.7", "0.45", "0.6"]
    for ax, family in zip(axes, FAMILIES_PLOTTED):
        methods = sorted({r["method"] for r in results if r.get("family") == family and "size" in r})
        mine = [m for m in methods if not m.startswith("baseline")]
        for method in methods:
            pts = sorted((r["size"], r["p50"]) for r in results if r.get("family") == family and r["method"] == method)
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            if method.endswith("timeouts"):
                ax.plot(xs, ys, linestyle="none", marker="x", markersize=10, color="tab:red",
                        label=f"{method[: -len(' timeouts')]}: stopped at this limit (longer in truth)")
            elif method.startswith("baseline"):
                k = methods.index(method) % len(greys)
                ax.plot(xs, ys, linestyle="--", marker="s", markerfacecolor="none", color=greys[k], label=method)
            else:
                ax.plot(xs, ys, linestyle="-", marker="o", linewidth=2, color=ours(mine.index(method)), label=method)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("permanents")
        ax.set_ylabel("p50 latency (ms)")
        ax.set_title(f"{family} boards")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=1)  # below: no line hidden
    fig.suptitle("manaplan: solid lines, filled dots; baselines: dashed grey, hollow squares; x: stopped at a limit")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print(f"wrote {path}")


def table(results) -> str:
    lines = ["| family | size | method | p50 ms | p95 ms | p99 ms | max ms |", "|---|---|---|---|---|---|---|"]
    for r in results:
        if "size" in r:
            lines.append(f"| {r['family']} | {r['size']} | {r['method']} | {r['p50']:.2f} | {r['p95']:.2f} | "
                         f"{r['p99']:.2f} | {r['max']:.2f} |")
    lines += ["", "| XMage freeze board | cost | method | ms |", "|---|---|---|---|"]
    for r in results:
        if r.get("family") == "xmage freeze":
            ms = f"{r['ms']:.1f}" if r.get("ms") is not None else f"> {r['timeout_s'] * 1000:.0f} (stopped)"
            lines.append(f"| {r['board']} | {r['cost']} | {r['method']} | {ms} |")
    return "\n".join(lines)


def _progress(total: int):
    """A bar on stderr (tqdm, from the bench and test extras), or None without tqdm."""
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, file=sys.stderr, unit="board", mininterval=1.0, dynamic_ncols=True)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, a few seconds")
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--record", action="store_true",
                    help="write the results to benchmarks/results/ (committed) instead of benchmarks/results/local/")
    ap.add_argument("--out", default=None, help="folder for the results (default: see --record)")
    args = ap.parse_args(argv)
    if args.smoke and args.record:
        ap.error("a smoke run is not recorded")
    out = args.out or os.path.join(HERE, "results", "" if args.record else "local")
    rng = random.Random(20261129)
    if args.smoke:
        plain_sizes, chain_sizes, converter_sizes, repeats = [5, 20], [5, 20], [5, 20], 2
    else:
        plain_sizes, chain_sizes, converter_sizes, repeats = ([5, 10, 20, 40, 80, 160, 320, 500],
                                                             [5, 10, 20, 50, 100, 200, 500], [5, 10, 20, 50],
                                                             args.repeats)
    ai_steps, turns = (3, 2) if args.smoke else (repeats, repeats)
    progress = _progress(repeats * (len(plain_sizes) + len(chain_sizes) + len(converter_sizes)))
    results, wrong = [], {}
    answer(parse_request(boards.request(boards.plain_board(3, rng), "{1}", rng)))  # import OR-Tools once
    answer(parse_request(boards.request(boards.converter_board(12, random.Random(1)), "{G}{G}{G}", rng)))  # networkx
    serve = Serve(cwd=os.path.dirname(HERE))
    try:
        budget = 0.2 if args.smoke else 2.0
        for name, make, costs, sizes, naive_too in (("plain", boards.plain_board, boards.PLAIN_COSTS, plain_sizes, True),
                                                    ("chains", boards.chain_board, boards.COSTS, chain_sizes, False),
                                                    ("converters", boards.converter_board, boards.COSTS,
                                                     converter_sizes, False)):
            if progress is not None:
                progress.set_description(name)
            bench_family(name, make, costs, sizes, repeats, rng, serve, naive_too, naive_too, results, wrong, budget,
                         progress)
        if progress is not None:
            progress.set_description("ai step, best_turn, XMage boards")
        turn_step.bench_ai_step(serve, rng, ai_steps, results, summary)
    finally:
        serve.close()
    bench_freeze_boards(rng, 1 if args.smoke else 3, results, 0.2 if args.smoke else 5.0)
    turn_step.bench_best_turn(rng, turns, results, summary, 1.0 if args.smoke else 20.0)
    if progress is not None:
        progress.close()
    os.makedirs(out, exist_ok=True)
    name = "smoke" if args.smoke else "latest"
    doc = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
           "results": results, "greedy_wrong_unpayable": wrong}
    with open(os.path.join(out, f"{name}.json"), "w") as f:
        json.dump(doc, f, indent=1)
    print(table(results))
    with open(os.path.join(out, f"{name}.md"), "w") as f:
        f.write(table(results) + "\n")
    print("greedy (Forge-style) called payable boards unpayable:", json.dumps(wrong))
    if not args.smoke:
        plot(results, os.path.join(out, "latency.png"))
    print(f"results in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
