"""Two revisions of manaplan side by side, through `manaplan serve`, on the same boards.

    python benchmarks/compare.py --base REV [--head REV] [--repeats 30] [--out FILE.md]
        [--only plain:20,5000 chains:5000] [--cold RUNS]

Each revision is installed (without dependencies) into a folder of its own and runs as a
`serve` process; every board of the benchmark's families (benchmarks/boards.py) is sent
to both, one after the other, the order alternating from board to board, so both see the
same boards under the same machine load. The head defaults to the working tree. It prints
p50, p95 and p99 of the round trip per family and size, and the ratio head/base of the
medians; the answers of the two must agree on ``payable``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import boards  # noqa: E402
from serving import Serve  # noqa: E402


def install(rev: str | None, into: str) -> str:
    """Install revision ``rev`` (None: the working tree) into ``into``; its folder."""
    source = ROOT
    if rev is not None:
        source = os.path.join(into, "src")
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", "-f", source, rev], check=True,
                       capture_output=True)
    target = os.path.join(into, "site")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", target, source],
                   check=True, capture_output=True)
    if rev is not None:
        subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", source], check=True, capture_output=True)
    return target


def percentile(samples: list, q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


FAMILIES = [("plain", boards.plain_board, boards.PLAIN_COSTS, [5, 20, 80, 320, 500]),
            ("chains", boards.chain_board, boards.COSTS, [5, 20, 100, 500]),
            ("converters", boards.converter_board, boards.COSTS, [20]),
            ("ai-step", boards.chain_board, boards.COSTS, [20])]


def ai_step(board: list, rng: random.Random) -> dict:
    """An AI's question in a game step (benchmarks/turn_step.py): which of a 7-card hand
    the board can cast (``castable``), with the whole board sent."""
    hand = [{"id": f"h{k}", "mana_cost": rng.choice([c for c in boards.COSTS if "X" not in c]),
             "type_line": rng.choice(["Creature — Elf", "Instant", "Sorcery"])} for k in range(7)]
    return {"query": "castable", "hand": hand, "permanents": board}
MAKERS = {family: (make, costs) for family, make, costs, _ in FAMILIES}


def families(only: list | None) -> list:
    """The families and sizes to compare: all, or ``family:n,n`` items."""
    if not only:
        return FAMILIES
    out = []
    for item in only:
        family, _, sizes = item.partition(":")
        make, costs = MAKERS[family]
        out.append((family, make, costs, [int(n) for n in sizes.split(",")]))
    return out


def cold_starts(sites: dict, runs: int, rng: random.Random) -> dict:
    """Milliseconds of ``manaplan solve FILE`` in a new process, each revision in turn
    (the order alternating), on one 20-permanent plain board: what a tool that starts
    manaplan once per question pays."""
    request = boards.request(boards.plain_board(20, rng), "{2}{W}{U}", rng)
    times = {name: [] for name in sites}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(request, f)
    try:
        names = list(sites)
        for r in range(runs):
            for name in (names if r % 2 == 0 else names[::-1]):
                env = dict(os.environ, PYTHONPATH=sites[name])
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-m", "manaplan.cli", "solve", f.name], check=True, env=env,
                               capture_output=True, cwd=tempfile.gettempdir())
                times[name].append((time.perf_counter() - t0) * 1000)
    finally:
        os.unlink(f.name)
    return times


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the revision to compare against (a commit, a tag)")
    ap.add_argument("--head", default=None, help="the revision measured (default: the working tree)")
    ap.add_argument("--repeats", type=int, default=30, help="boards per family and size")
    ap.add_argument("--rounds", type=int, default=3, help="times each board is sent to each server")
    ap.add_argument("--out", default=None, help="also write the table to this Markdown file")
    ap.add_argument("--only", nargs="*", default=None, metavar="FAMILY:N,N",
                    help="families and sizes to compare (plain, chains, converters, ai-step), such as plain:20,5000")
    ap.add_argument("--cold", type=int, default=0, metavar="RUNS",
                    help="also time `manaplan solve` started anew, RUNS times each, on a 20-permanent plain board")
    args = ap.parse_args(argv)
    cold = None
    with tempfile.TemporaryDirectory() as tmp:
        sites = {"base": install(args.base, os.path.join(tmp, "base")), "head": install(args.head, os.path.join(tmp, "head"))}
        rng = random.Random(20261130)
        if args.cold:
            cold = cold_starts(sites, args.cold, rng)
            print(f"cold solve: base {statistics.median(cold['base']):.0f} ms, head {statistics.median(cold['head']):.0f} ms",
                  file=sys.stderr)
        base = Serve(sites["base"], cwd=tempfile.gettempdir())
        head = Serve(sites["head"], cwd=tempfile.gettempdir())
        rows = []
        try:
            warm = boards.request(boards.plain_board(3, rng), "{1}", rng)
            for server in (base, head):
                for _ in range(3):
                    server.ask(warm)
            for family, make, costs, sizes in families(args.only):
                for n in sizes:
                    times = {"base": [], "head": []}
                    for r in range(args.repeats):
                        request = (ai_step(make(n, rng), rng) if family == "ai-step"
                                   else boards.request(make(n, rng), rng.choice(costs), rng))
                        order = [("base", base), ("head", head)]
                        if r % 2:
                            order.reverse()
                        answers = {}
                        for _ in range(args.rounds):
                            for name, server in order:
                                ms, answers[name] = server.ask(request)
                                times[name].append(ms)
                        assert (answers["base"].get("payable"), answers["base"].get("castable")) == \
                            (answers["head"].get("payable"), answers["head"].get("castable")), request
                    b50, h50 = statistics.median(times["base"]), statistics.median(times["head"])
                    rows.append((family, n, b50, percentile(times["base"], 0.95), percentile(times["base"], 0.99),
                                 h50, percentile(times["head"], 0.95), percentile(times["head"], 0.99), h50 / b50))
                    print(f"{family} {n}: base {b50:.2f} ms, head {h50:.2f} ms, ratio {h50 / b50:.2f}", file=sys.stderr)
        finally:
            base.close()
            head.close()
    head_name = args.head or "working tree"
    lines = [f"Through `manaplan serve`, round trip in ms; base {args.base}, head {head_name}; "
             f"{args.repeats} boards per size, each sent {args.rounds} times to each server, interleaved.", "",
             "| family | permanents | base p50 | base p95 | base p99 | head p50 | head p95 | head p99 | head/base p50 |",
             "|---|---|---|---|---|---|---|---|---|"]
    lines += [f"| {f} | {n} | {b50:.2f} | {b95:.2f} | {b99:.2f} | {h50:.2f} | {h95:.2f} | {h99:.2f} | {ratio:.2f} |"
              for f, n, b50, b95, b99, h50, h95, h99, ratio in rows]
    if cold is not None:
        b50, h50 = statistics.median(cold["base"]), statistics.median(cold["head"])
        lines += ["", f"`manaplan solve FILE` in a new process (a 20-permanent plain board; {args.cold} runs each, "
                      "alternating), ms:", "",
                  "| revision | p50 | p95 | p99 |", "|---|---|---|---|",
                  f"| base | {b50:.0f} | {percentile(cold['base'], 0.95):.0f} | {percentile(cold['base'], 0.99):.0f} |",
                  f"| head | {h50:.0f} | {percentile(cold['head'], 0.95):.0f} | {percentile(cold['head'], 0.99):.0f} |",
                  "", f"head/base p50: {h50 / b50:.2f}"]
    table = "\n".join(lines)
    print(table)
    if args.out:
        with open(args.out, "w") as f:
            f.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
