"""A long fuzz run that keeps going: every random board is answered and judged, and the
run ends with counts instead of stopping (and shrinking) at the first failure.

    python tests/fuzz_report.py --examples 20000 [--seed S] [--time-limit 10] [--out FILE.jsonl]

Each example is a random request of ``strategies.requests()`` (or ``plain_requests()``
for the plain-path check), judged as ``test_fuzz.py`` judges it: the plan is replayed by
the validator, a proof is checked, payability and the optimum equal the exhaustive
reference search's, ``can_pay`` equals ``pay``, the plain transport equals the general
model, and shuffling the board changes nothing. An answer that runs out of time
(``payable: null`` or a plan not proven optimal) is counted apart as a timeout, not as a
disagreement; every failure and timeout is written to ``--out`` as a request to replay.
It is not collected by pytest (the CI properties are in test_fuzz.py).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hypothesis import HealthCheck, Phase, given, seed as hypothesis_seed, settings  # noqa: E402

from manaplan.model.errors import SearchTooLarge  # noqa: E402
from manaplan.model.plan import Payable, Plan, Undecided, Unpayable  # noqa: E402
from manaplan.protocol.mtg import read  # noqa: E402
from manaplan.solver.checks.reference import plan_objective, reference_optimum  # noqa: E402
from manaplan.solver.checks.validator import validate_plan  # noqa: E402
from manaplan.solver.plain import NO_WAY_PAYS, plain_payment  # noqa: E402
from manaplan.queries import answer  # noqa: E402
from manaplan.solver.proof import check_certificate  # noqa: E402
from manaplan.solver.supply import build_supply  # noqa: E402
from strategies import plain_requests, requests  # noqa: E402

MAX_REFERENCE_STATES = 50_000


class TimedOut(Exception):
    pass


def solved(request: dict, time_limit: float, **kw):
    problem = read(request)
    out = answer(problem, time_limit, **kw)
    if isinstance(out, Undecided) or (isinstance(out, Plan) and not out.optimal):
        raise TimedOut()
    if isinstance(out, Plan):
        assert validate_plan(problem, out) == [], validate_plan(problem, out)
    elif isinstance(out, Unpayable):
        assert check_certificate(problem, out) is True, out
    return problem, out


def payable(out) -> bool:
    return isinstance(out, (Plan, Payable))


def check_board(request: dict, time_limit: float, rnd: random.Random) -> str:
    """'ok', 'skipped' (the reference search was too large) or raises."""
    problem, out = solved(request, time_limit)
    try:
        best = reference_optimum(problem, MAX_REFERENCE_STATES)
    except SearchTooLarge:
        return "skipped"
    assert payable(out) == (best is not None), ("payable", payable(out), best)
    if best is not None:
        assert plan_objective(problem, out) == best, ("optimum", plan_objective(problem, out), best)
    _, quick = solved({**request, "query": "can_pay"}, time_limit)
    assert payable(quick) == payable(out), ("can_pay", quick)
    shuffled = dict(request, permanents=list(request["permanents"]))
    rnd.shuffle(shuffled["permanents"])
    problem2, out2 = solved(shuffled, time_limit)
    assert payable(out2) == payable(out), "order"
    if payable(out):
        assert plan_objective(problem2, out2) == plan_objective(problem, out), "order optimum"
    return "ok"


def check_plain(request: dict, time_limit: float, rnd: random.Random) -> str:
    problem = read(request)
    fast = plain_payment(problem, build_supply(problem))
    if fast is None or fast is NO_WAY_PAYS:
        return "skipped"
    _, general = solved(request, time_limit, plain_path=False)
    assert payable(fast) == payable(general), "plain payable"
    if payable(fast):
        assert validate_plan(problem, fast) == []
        assert plan_objective(problem, fast) == plan_objective(problem, general), "plain optimum"
    else:
        assert check_certificate(problem, fast) is True
    return "ok"


def run(name, strategy, check, examples: int, seed: int, time_limit: float, out) -> Counter:
    counts: Counter = Counter()
    rnd = random.Random(seed)
    started = time.monotonic()

    @hypothesis_seed(seed)
    @settings(max_examples=examples, deadline=None, database=None, phases=(Phase.generate,),
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def each(request):
        try:
            counts[check(request, time_limit, rnd)] += 1
        except TimedOut:
            counts["timeout"] += 1
            out.write(json.dumps({"property": name, "outcome": "timeout", "request": request}) + "\n")
        except AssertionError as e:
            counts["FAILED"] += 1
            out.write(json.dumps({"property": name, "outcome": "failed", "why": repr(e), "request": request}) + "\n")
        out.flush()
        done = sum(counts.values())
        if done % 500 == 0:
            print(f"  {name}: {done} examples, {dict(counts)}, {time.monotonic() - started:.0f} s",
                  file=sys.stderr, flush=True)

    each()
    return counts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=2000, help="random boards per property")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--time-limit", type=float, default=10.0, help="the planner's time guard per answer, s")
    ap.add_argument("--out", default=os.devnull, help="write failures and timeouts here (JSON lines)")
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(2 ** 32)
    print(f"seed {seed}", file=sys.stderr)
    totals = {}
    with open(args.out, "a") as out:
        totals["against the reference search"] = run("reference", requests(), check_board, args.examples, seed,
                                                      args.time_limit, out)
        totals["plain transport against the general model"] = run("plain", plain_requests(), check_plain,
                                                                   args.examples, seed, args.time_limit, out)
    for name, counts in totals.items():
        print(f"{name}: {sum(counts.values())} examples: {dict(counts)}")
    return 1 if any(c["FAILED"] for c in totals.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
