"""check on long plans, two revisions side by side.

    python benchmarks/check_long_plans.py --base REV [--head REV]

Each revision is installed into a folder of its own (benchmarks/compare.py); each plan is
judged in a new process of each revision in turn (the time to start excluded: the
request's own CPU and wall time are measured inside the process): a legal plan tapping N
Forests for a generic cost (N up to 200,000), and the same beside Dictate of Karametra
(each tap triggers: the referee works out each trigger's mana). The verdict, or the
error, of each is listed, with CPU time beside wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from compare import install  # noqa: E402
from recording import record  # noqa: E402

#: run in each revision's process: the plan built, judged, timed
RUN = r"""
import json, sys, time
from manaplan import solve
n, dictate = int(sys.argv[1]), sys.argv[2] == "dictate"
board = [{"id": f"f{i}", "type_line": "Basic Land — Forest"} for i in range(n)]
total = 2 * n if dictate else n
payment = [{"symbol": "{%d}" % total, "mana": "G", "from": f"f{i}"} for i in range(n)]
if dictate:
    board.append({"id": "dk", "name": "Dictate of Karametra", "type_line": "Enchantment",
                  "oracle_text": "Flash\nWhenever a land is tapped for mana, its controller adds an additional {G}."})
    payment += [{"symbol": "{%d}" % total, "mana": "G", "from": "dk"}] * n
request = {"query": "check", "spell": {"mana_cost": "{%d}" % total}, "permanents": board, "time_limit_ms": 120000,
           "plan": {"steps": [{"permanent": f"f{i}", "adds": "{G}"} for i in range(n)], "payment": payment}}
cpu, wall = time.process_time(), time.perf_counter()
out = solve(request)
print(json.dumps({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall,
                  "verdict": out.get("verdict") or ("error: " + out.get("error", {}).get("message", "?"))[:90]}))
"""

SIZES = [("forests", 2_000), ("forests", 20_000), ("forests", 100_000), ("forests", 200_000),
         ("dictate", 2_000), ("dictate", 8_000), ("dictate", 32_000)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--head")
    parser.add_argument("--name", default="check_long_plans")
    args = parser.parse_args(argv)
    rows = ["| plan | steps | base CPU s | base wall s | base verdict | head CPU s | head wall s | head verdict |",
            "|---|---:|---:|---:|---|---:|---:|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        sites = {"base": install(args.base, os.path.join(tmp, "base")),
                 "head": install(args.head, os.path.join(tmp, "head"))}
        for kind, n in SIZES:
            cells = []
            for name in ("base", "head"):
                done = subprocess.run([sys.executable, "-c", RUN, str(n), kind], capture_output=True, text=True,
                                      env={**os.environ, "PYTHONPATH": sites[name]}, timeout=900,
                                      cwd=tempfile.gettempdir())  # (not the checkout: its package would come first)
                try:
                    r = json.loads(done.stdout.strip().splitlines()[-1])
                    cells.append(f"{r['cpu']:.2f} | {r['wall']:.2f} | {r['verdict']}")
                except (IndexError, ValueError):
                    cells.append(f"- | - | crashed: {done.stderr.strip().splitlines()[-1][:80] if done.stderr else '?'}")
                print(kind, n, name, cells[-1], file=sys.stderr)
            rows.append(f"| {kind} | {n:,} | {cells[0]} | {cells[1]} |")
    intro = (f"`python benchmarks/check_long_plans.py --base {args.base}`: `check` on a legal plan of N steps, base "
             f"({args.base}) and head ({args.head or 'the working tree'}), each a new process, time limit 120 s; "
             f"`forests`: N Forests tapped for {{N}}; `dictate`: the same beside Dictate of Karametra.")
    path = record(args.name, "check on long plans", intro, "\n".join(rows))
    print(open(path).read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
