"""The referee (the ``check`` query) against the reference search, on random boards:
does it find every planted fault, and accept every legal plan?

    python benchmarks/check_faults.py [--requests 8000] [--seed 7] [--out benchmarks/results/check_faults.md]

Boards and spells are the property tests' random requests (tests/strategies.py, every
symbol kind, chains, converters, altars, triggers, life at the edge), a fifth of them
with an additional cost that sacrifices a permanent. For each:

- **legal plans manaplan did not make**: plans walked at random over the reference
  search's own moves (tests/faults.py, ``walked_plan``), and plans made from manaplan's
  plans by one change that the reference search judges legal (steps reordered, another
  source of the same mana, ...). The referee must call each legal (a false alarm
  otherwise);
- **planted faults**: manaplan's plan, and each legal walked plan, changed by one thing
  (tests/faults.py, ``planted``: a tapped permanent tapped again, a symbol paid with the
  wrong color or from the wrong permanent, more life than the player has, a sacrifice
  left out, a step moved before the mana it spends exists, a step or a line dropped,
  another ability, other mana, a Phyrexian symbol paid with life). Counted only where
  the reference search (``reference_legal``) confirms the changed plan is illegal; the
  referee must call each illegal, naming a rule.

A case the reference search can't judge (an ability it never uses) or the referee
leaves undecided is counted apart. The result is a table; every disagreement is listed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from compare_answers import drawn  # noqa: E402
from recording import record  # noqa: E402

SACRIFICE_TEXT = "As an additional cost to cast this spell, sacrifice a {}."
#: a board whose ``pay`` takes longer (a Doubling Cube with counted and combination mana:
#: up to the 10 s guard) is left out and counted: each of its dozen plans would
#: be judged by solving it again
SLOW = 0.5


def requests(n: int, seed: int) -> list:
    """``n`` random pay requests, a fifth with an additional cost that sacrifices."""
    from strategies import requests as strategy
    rng = random.Random(seed)
    out = []
    for r in drawn(strategy(max_permanents=6), n, seed):
        if rng.random() < 0.2 and isinstance(r.get("spell"), dict):
            kind = rng.choice(["creature", "land", "artifact"])
            r = {**r, "spell": {**r["spell"], "oracle_text": SACRIFICE_TEXT.format(kind)}}
        out.append(r)
    return out


def run(n: int, seed: int, progress: bool = True) -> tuple:
    """(counts, disagreements) over ``n`` requests."""
    from faults import planted, walked_plan, written
    from manaplan.model.plan import Plan
    from manaplan.protocol.mtg import read as read_request, write_plan
    from manaplan.queries import answer
    rng = random.Random(seed)
    counts, wrong = Counter(), []
    todo = requests(n, seed)
    bar = _bar(len(todo), progress)
    for request in todo:
        bar.update(1)
        try:
            problem = read_request(request)
        except ValueError:
            counts["request not read"] += 1
            continue
        started = time.perf_counter()
        out = answer(problem)
        if time.perf_counter() - started > SLOW:  # (each plan judged solves it again: see SLOW)
            counts["boards left out: pay took over 0.5 s"] += 1
            continue
        bases = []
        if isinstance(out, Plan):
            full = write_plan(out, problem.player.life)
            plan = written(out, problem.player.life)
            if rng.random() < 0.5:
                plan["announced"] = full["announced"]
            bases.append(("manaplan", plan, full["announced"]))
        for _ in range(3):
            walked = walked_plan(request, rng)
            if walked is not None:
                bases.append(("walked", walked, None))
        for source, plan, announced in bases:
            legal = _tally(counts, wrong, request, plan, source, f"legal plans: {source}", f"illegal {source} plans",
                           "illegal plan called legal")
            if not legal:
                continue
            for kind, changed_request, changed in planted(request, plan, rng, announced):
                _tally(counts, wrong, changed_request, changed, kind, "legal plans: changed, judged legal",
                       f"fault: {kind}", "fault not found")
    bar.close()
    return counts, wrong


def _tally(counts: Counter, wrong: list, request, plan, what: str, legal_key: str, illegal_key: str,
           missed: str) -> bool | None:
    """Judge one plan both ways and count it: under ``legal_key`` where the reference
    search finds it legal (the referee must too: else a false alarm), under
    ``illegal_key`` where it doesn't (the referee must call it illegal: else ``missed``).
    The reference's judgment, or None where it or the referee can't judge."""
    verdict, legal = _judge(request, plan, counts)
    if legal is None:
        return None
    counts[legal_key if legal else illegal_key] += 1
    if legal and verdict not in ("optimal", "suboptimal"):
        wrong.append(("false alarm", what, request, plan, verdict))
    if not legal and verdict != "illegal":
        wrong.append((missed, what, request, plan, verdict))
    return legal


def _judge(request, plan, counts) -> tuple:
    """(the referee's verdict, with its rule; the reference's legality or None)."""
    from faults import judged
    answer, legal = judged(request, plan)
    verdict = answer.get("verdict")
    if verdict == "illegal" and not answer["violation"]["rule"]:
        verdict = "illegal, no rule"
    if "error" in answer:
        counts["error answers"] += 1
        return answer["error"], None
    if legal is None:
        counts["reference can't judge"] += 1
        return verdict, None
    if verdict == "unknown":
        counts["referee undecided"] += 1
        return verdict, None
    if verdict == "illegal":
        counts[f"rule named: {answer['violation']['rule'] or 'none'}"] += 1
    return verdict, legal


def _bar(total: int, on: bool):
    try:
        from tqdm import tqdm
        return tqdm(total=total, disable=not on, unit="request")
    except ImportError:  # (a progress bar is a benchmark extra)
        class Quiet:
            def update(self, n): pass
            def close(self): pass
        return Quiet()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--name", default="check_faults", help="the results file: benchmarks/results/NAME.md")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    counts, wrong = run(args.requests, args.seed)
    seconds = time.perf_counter() - started
    faults = sum(n for k, n in counts.items() if k.startswith("fault: "))
    legal = sum(n for k, n in counts.items() if k.startswith("legal plans: ") and k != "legal plans: manaplan")
    found = faults - sum(1 for w in wrong if w[0] == "fault not found")
    alarms = sum(1 for w in wrong if w[0] == "false alarm")
    rows = [f"| {k} | {n:,} |" for k, n in sorted(counts.items())]
    table = "\n".join(["| what | count |", "|---|---:|"] + rows)
    summary = (f"**{faults:,} planted faults confirmed illegal by the reference search: {found:,} found by `check`, each "
               f"naming its rule. {legal:,} legal plans manaplan did not make: {alarms} false alarms.** "
               f"{len(wrong)} disagreements in all. {args.requests:,} requests, seed {args.seed}, {seconds:.0f} s.")
    listing = "\n".join(f"- {w[0]} ({w[1]}): verdict {w[4]!r}; plan `{json.dumps(w[3])}`; request "
                        f"`{json.dumps(w[2])}`" for w in wrong[:30]) or "none"
    record(args.name, "The referee against the reference search: planted faults and legal plans",
           f"`python benchmarks/check_faults.py --requests {args.requests} --seed {args.seed}`: see the "
           f"script's docstring for what is counted. \"legal plans: manaplan\" (manaplan's own, all accepted) are "
           f"not among the legal plans manaplan did not make.",
           f"## Summary\n\n{summary}", f"## Counts\n\n{table}", f"## Disagreements\n\n{listing}")
    print(summary)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
