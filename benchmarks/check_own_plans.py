"""Every plan ``pay`` writes, judged by ``check``.

    python benchmarks/check_own_plans.py [--requests 100000] [--seed 0]

Requests are drawn as the suite draws them (``manaplan.suite.make_suite``: real cards of
every family), in chunks of 1,000, each seed its own; each payable request's ``pay`` plan
is checked as written, with its announcements reversed and shuffled, and with two
announcements of one symbol swapped (tests/test_check_own_plans.py's variants). The
verdicts are counted; any other than ``optimal`` is listed with its request (there should
be none). CPU time beside wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from recording import record  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--name", default="check_own_plans")
    args = parser.parse_args(argv)
    import random

    from manaplan import solve
    from manaplan.suite import make_suite
    from test_check_own_plans import variants

    verdicts, payable, checks, wrong = Counter(), 0, 0, []
    cpu, wall = time.process_time(), time.perf_counter()
    rng = random.Random(args.seed)
    done = 0
    chunk = 1000
    while done < args.requests:
        n = min(chunk, args.requests - done)
        for case in make_suite(n, seed=args.seed * 1_000_003 + done):
            paid = solve({**case["request"], "query": "pay"})
            if not paid.get("payable") or not paid["plan"].get("optimal"):
                continue
            payable += 1
            for plan in variants(paid["plan"], rng):
                out = solve({**case["request"], "query": "check", "plan": plan})
                checks += 1
                verdicts[out.get("verdict", "error")] += 1
                if out.get("verdict") not in ("optimal", "unknown") and len(wrong) < 20:
                    wrong.append({"request": case["request"], "plan": plan, "answer": out})
        done += n
        print(f"{done:,} requests, {checks:,} checks, {dict(verdicts)}", file=sys.stderr)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    rows = ["| requests | payable (optimal plan) | checks | " + " | ".join(sorted(verdicts)) + " | CPU s | wall s |",
            "|---:|---:|---:|" + "---:|" * len(verdicts) + "---:|---:|",
            f"| {args.requests:,} | {payable:,} | {checks:,} | " + " | ".join(f"{verdicts[v]:,}" for v in sorted(verdicts))
            + f" | {cpu:.0f} | {wall:.0f} |"]
    intro = (f"`python benchmarks/check_own_plans.py --requests {args.requests} --seed {args.seed}`: requests drawn "
             f"as the suite draws them, each payable one's `pay` plan checked as written and with its announcements "
             f"reversed, shuffled and (two of one symbol) swapped.")
    listed = "No verdict other than `optimal` (or `unknown`, time out)." if not wrong else (
        "**Other verdicts:**\n\n```json\n" + "\n".join(json.dumps(w)[:2000] for w in wrong) + "\n```")
    path = record(args.name, "pay's own plans in check's eyes", intro, "\n".join(rows), listed)
    print(open(path).read())
    return 0 if not wrong else 1


if __name__ == "__main__":
    sys.exit(main())
