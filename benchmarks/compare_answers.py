"""Two revisions of manaplan answering the same random requests: are the answers the same?

    python benchmarks/compare_answers.py --base REV [--head REV] [--per-family 400] [--out FILE.md]

A refactor must not change behaviour. Each revision is installed into a folder
of its own (as benchmarks/compare.py does) and runs as a `serve` process; both get the
same lines, in the same order, from every family of request: pay, can_pay, max_x,
castable, pay keeping cards castable or mana open, sequence (in order and in any order),
best_turn (hand cards, lands of every kind of entering, kickers), kept boards (a board
kept, asked, changed and asked again, in one session), Duel Masters, and bad requests
(a field taken out, a value of the wrong type, an unknown field or query, text that is
not JSON). The requests are drawn from the tests' hypothesis strategies
(tests/strategies.py) with a fixed seed, so every run sends the same ones.

Answers are compared as JSON. A difference is counted as a tie where both answers are
plans of the same objective (the same total, the same numbers of taps, sacrifices, life
and exiled cards, the same floating amount): both are optimal, and which of the equals is
returned is not part of the protocol; as cut short where either answer says the time
guard stopped it (``"optimal": false``, or a ``timeout``): what such an answer holds
depends on the machine's speed at that moment. Every other difference is listed, with
the line.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from compare import install  # noqa: E402
from serving import Serve  # noqa: E402


def drawn(strategy, n: int, seed: int) -> list:
    """``n`` values of a hypothesis strategy, the same ones every run."""
    from hypothesis import HealthCheck, Phase, given, seed as fix_seed, settings

    out: list = []

    @fix_seed(seed)
    @settings(max_examples=n, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(value):
        out.append(value)

    collect()
    return out[:n]


def families(n: int) -> dict:
    """{family: [request line, ...]} (a kept-board family's lines belong together)."""
    from hypothesis import strategies as st
    from strategies import requests
    from test_duel_masters import requests as dm_requests
    from test_turn import ALTAR, COBRA, COFFERS, TURN_CARDS

    rng = random.Random(20261201)
    single = drawn(requests(max_permanents=5), n, 1)
    others = drawn(st.lists(requests(max_permanents=0), min_size=1, max_size=3), n, 2)
    out: dict = {}

    def spell_of(r, i):
        return {**r["spell"], "id": f"c{i}", "type_line": r["spell"].get("type_line", "Instant")}

    def base(r):
        return {"permanents": r["permanents"], "player": r["player"]}

    out["pay"] = [{"query": "pay", "spell": r["spell"], **base(r)} for r in single]
    out["can_pay"] = [{"query": "can_pay", "spell": r["spell"], **base(r)} for r in single]
    out["max_x"] = [{"query": "max_x", "spell": {**{k: v for k, v in r["spell"].items() if k != "x"},
                                                 "mana_cost": "{X}" + (r["spell"]["mana_cost"] or "")}, **base(r)}
                    for r in single]
    out["castable"] = [{"query": "castable", "hand": [spell_of(o, i) for i, o in enumerate(os_)], **base(r)}
                       for r, os_ in zip(single, others)]
    keeps = []
    for r, os_ in zip(single, others):
        hand = [spell_of(o, i) for i, o in enumerate(os_)]
        keep = {"keep_castable": [hand[0]["id"]]} if rng.random() < 0.6 else {"keep_open": rng.choice(["{U}", "{1}"])}
        keeps.append({"query": "pay", "spell": r["spell"], "hand": hand, **keep, **base(r)})
    out["keeps"] = keeps
    out["sequence"] = [{"query": "sequence", "spells": [spell_of(r, 9)] + [spell_of(o, i) for i, o in enumerate(os_)],
                        **({"order": "any"} if rng.random() < 0.4 else {}), **base(r)}
                       for r, os_ in zip(single, others)]
    turns = []
    for r, os_ in zip(single, others):
        extra = rng.sample(TURN_CARDS, rng.randint(0, 2))
        beside = rng.choice([None, COBRA, COFFERS, ALTAR])
        turns.append({"query": "best_turn", "hand": [spell_of(o, i) for i, o in enumerate(os_)] + extra,
                      "permanents": r["permanents"] + ([beside] if beside else []),
                      "player": {**r["player"], "life": rng.choice([20, 20, 3, 1])}})
    out["best_turn"] = turns
    kept = []
    for k, r in enumerate(single[: n // 4]):
        name = f"b{k}"
        kept.append({"board": name, "query": "pay", "spell": r["spell"], **base(r)})
        kept.append({"board": name, "query": "can_pay", "spell": {"mana_cost": "{1}"}})
        if r["permanents"]:
            kept.append({"board": name, "changes": {"tapped": [r["permanents"][0]["id"]]}, "spell": r["spell"]})
        kept.append({"board": name, "query": "castable", "hand": [spell_of(o, i) for i, o in enumerate(others[k])]})
    out["kept boards"] = kept
    out["duel masters"] = drawn(dm_requests(), n, 3)
    bad = []
    for r in single:
        request = {"query": "pay", "spell": r["spell"], **base(r)}
        how = rng.randrange(6)
        if how == 0:
            request.pop(rng.choice(list(request)))
        elif how == 1:
            key = rng.choice(["spell", "permanents", "player"])
            request[key] = rng.choice([7, "x", None, [1], {"nope": 1}])
        elif how == 2:
            request[rng.choice(["spells", "order", "land_drop", "colour", "hand"])] = rng.choice([[], "any", True, 3])
        elif how == 3:
            request["query"] = rng.choice(["pay ", "PAY", "best-turn", 5, None])
        elif how == 4 and r["permanents"]:
            request["permanents"][0] = {**request["permanents"][0], "id": rng.choice([None, 3, "", {"a": 1}])}
        else:
            bad.append(json.dumps(request)[: rng.randint(1, 60)])  # cut short: not JSON
            continue
        bad.append(request)
    out["bad"] = bad
    return {family: [line if isinstance(line, str) else json.dumps(line) for line in lines]
            for family, lines in out.items()}


def ask(server: Serve, line: str) -> dict:
    server.proc.stdin.write(line + "\n")
    server.proc.stdin.flush()
    return json.loads(server.proc.stdout.readline())


def objective(answer: dict):
    """What makes two plans equally good (the protocol's objective's terms)."""
    plan = answer.get("plan")
    if not isinstance(plan, dict):
        return None
    return (answer.get("total_cost"), len(plan.get("tapped", ())), len(plan.get("sacrificed", ())),
            plan.get("life_paid"), plan.get("exiled", 0), len(plan.get("floating", "")), plan.get("optimal"),
            sum(1 for s in plan.get("steps", ()) if s.get("before_casting")))


def cut_short(answer) -> bool:
    """Whether the time guard stopped this answer (anywhere in it)."""
    text = json.dumps(answer)
    return '"optimal": false' in text or '"code": "timeout"' in text


def same_but_ties(a, b) -> bool:
    """Equal answers, or answers that differ only in which of equally good plans was
    chosen (each plan, wherever it appears, compared by its objective)."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return False
        if "plan" in a and objective(a) is not None and objective(a) == objective(b):
            a = {k: v for k, v in a.items() if k != "plan"}
            b = {k: v for k, v in b.items() if k != "plan"}
        return all(same_but_ties(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_but_ties(x, y) for x, y in zip(a, b))
    return a == b


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the revision compared against (a commit, a tag)")
    ap.add_argument("--head", default=None, help="the other revision (default: the working tree)")
    ap.add_argument("--per-family", type=int, default=400, help="random requests per family")
    ap.add_argument("--out", default=None, help="also write the report to this Markdown file")
    args = ap.parse_args(argv)
    lines = families(args.per_family)
    rows, differing = [], []
    with tempfile.TemporaryDirectory() as tmp:
        sites = {"base": install(args.base, os.path.join(tmp, "base")), "head": install(args.head, os.path.join(tmp, "head"))}
        servers = {name: Serve(site, cwd=tempfile.gettempdir()) for name, site in sites.items()}
        try:
            for family, requests in lines.items():
                counts = Counter()
                for line in requests:
                    a, b = ask(servers["base"], line), ask(servers["head"], line)
                    if a == b:
                        counts["identical"] += 1
                    elif same_but_ties(a, b):
                        counts["tie"] += 1
                    elif cut_short(a) or cut_short(b):
                        counts["cut short"] += 1
                    else:
                        counts["different"] += 1
                        differing.append((family, line, a, b))
                rows.append((family, len(requests), counts["identical"], counts["tie"], counts["cut short"],
                             counts["different"]))
                print(f"{family}: {len(requests)} requests, {counts['identical']} identical, {counts['tie']} ties, "
                      f"{counts['cut short']} cut short, {counts['different']} different", file=sys.stderr)
        finally:
            for server in servers.values():
                server.close()
    head = args.head or "the working tree"
    report = [f"# Answers of {args.base} and {head} to the same requests", "",
              "| family | requests | identical | equal plans (ties) | cut short by the time guard | different |",
              "|---|---|---|---|---|---|"]
    report += [f"| {f} | {n} | {i} | {t} | {c} | {d} |" for f, n, i, t, c, d in rows]
    total = [sum(r[k] for r in rows) for k in (1, 2, 3, 4, 5)]
    report.append(f"| all | {' | '.join(map(str, total))} |")
    if differing:
        report += ["", "## Differences", ""]
        for family, line, a, b in differing:
            report += [f"- {family}: `{line[:400]}`", f"  - base: `{json.dumps(a)[:600]}`",
                       f"  - head: `{json.dumps(b)[:600]}`"]
    text = "\n".join(report) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
