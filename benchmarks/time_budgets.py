"""Does every query keep its time budget? Through one ``manaplan serve``, each
query on hard boards with ``time_limit_ms`` of 1, 100, 1,000 and the default guard (10 s):
the wall time from sending the line to reading its answer, against the limit.

Families: the benchmark's converter and chain boards (``pay``, ``max_x``, ``can_pay``,
``castable`` of 7 cards, ``total_cost``), 7-card ``best_turn`` hands on 20 and on 100
chain permanents, 4-spell ``sequence`` in any order on 2,000 chain permanents.

    python benchmarks/time_budgets.py             # the table, on stdout
    python benchmarks/time_budgets.py --record    # ... written to benchmarks/results/time_budgets.md

The overrun is the wall time past the limit; reading the request is counted (the guard
counts it). The table's server is given 2 s after it starts to load OR-Tools (``serve``
loads it in the background from its start); the first request of a server just started
is measured apart. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import boards  # noqa: E402
from recording import record  # noqa: E402

LIMITS = (1, 100, 1000, None)  # (None: the default guard, 10 s)
#: seconds the table's server is given to load OR-Tools after it starts
LOADING = 2.0
COSTS = ("{3}{G}{U}", "{X}{G}{G}", "{2}{W}{U}{B}", "{5}{R}{R}")


def _hand(rng: random.Random, n: int = 7) -> list:
    return [{"id": f"h{k}", "mana_cost": rng.choice([c for c in boards.PLAIN_COSTS if "X" not in c]),
             "type_line": rng.choice(["Creature — Elf", "Instant", "Sorcery"])} for k in range(n)]


def cases(rng: random.Random) -> list:
    """(family, query, request without its limit)."""
    out = []
    for family, board in (("converters, 20", boards.converter_board(20, rng)), ("chains, 100", boards.chain_board(100, rng)),
                          ("chains, 1,000", boards.chain_board(1000, rng))):
        for query in ("pay", "max_x", "can_pay", "total_cost"):
            cost = "{X}{G}{U}" if query == "max_x" else rng.choice(COSTS).replace("{X}", "{1}")
            out.append((family, query, {"query": query, "spell": {"mana_cost": cost}, "permanents": board}))
        out.append((family, "castable", {"query": "castable", "hand": _hand(rng), "permanents": board}))
    for n in (20, 100):
        out.append((f"chains, {n}", "best_turn", {"query": "best_turn", "hand": _hand(rng),
                                                  "permanents": boards.chain_board(n, rng)}))
    spells = [{"id": f"s{k}", "mana_cost": rng.choice(COSTS).replace("{X}", "{2}")} for k in range(4)]
    out.append(("chains, 2,000", "sequence", {"query": "sequence", "spells": spells, "order": "any",
                                              "permanents": boards.chain_board(2000, rng)}))
    return out


def measure(rounds: int = 2) -> list:
    """(family, query, limit, worst wall seconds, the answers' kinds) for each case."""
    server = subprocess.Popen([sys.executable, "-m", "manaplan", "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    server.stdin.write(b'{"query": "version"}\n')
    server.stdin.flush()
    server.stdout.readline()
    time.sleep(LOADING)  # (serve loads OR-Tools in the background from its start: measured apart, below)
    rows = []
    for family, query, request in cases(random.Random(29)):
        for limit in LIMITS:
            worst, kinds = 0.0, set()
            for _ in range(rounds):
                line = json.dumps({**request, **({"time_limit_ms": limit} if limit else {})}).encode() + b"\n"
                started = time.perf_counter()
                server.stdin.write(line)
                server.stdin.flush()
                answer = json.loads(server.stdout.readline())
                worst = max(worst, time.perf_counter() - started)
                kinds.add(_kind(answer))
            rows.append((family, query, limit, worst, kinds))
            print(f"{family:>14} {query:>10} {limit or 'default':>7}: {worst * 1000:8.1f} ms {sorted(kinds)}",
                  file=sys.stderr)
    server.stdin.close()
    server.wait()
    return rows


def first_request() -> str:
    """The first solve of a server just started: once it answers ``version`` (it is
    reading lines), at once a converter board's ``pay`` with ``time_limit_ms`` 100, which
    needs OR-Tools while it is still loading."""
    family, query, request = cases(random.Random(29))[0]
    rows = []
    for _ in range(3):
        server = subprocess.Popen([sys.executable, "-m", "manaplan", "serve"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE)
        server.stdin.write(b'{"query": "version"}\n')
        server.stdin.flush()
        server.stdout.readline()
        line = json.dumps({**request, "time_limit_ms": 100}).encode() + b"\n"
        started = time.perf_counter()
        server.stdin.write(line)
        server.stdin.flush()
        answer = json.loads(server.stdout.readline())
        rows.append((time.perf_counter() - started, _kind(answer)))
        server.stdin.close()
        server.wait()
    worst = max(seconds for seconds, _ in rows)
    return (f"The first solve of a server just started, sent as soon as it answers `version` ({family}, {query}, "
            f"`time_limit_ms` 100, 3 servers): worst {worst * 1000:.0f} ms "
            f"({'; '.join(sorted({kind for _, kind in rows}))}): `serve` loads its readers and solvers before it "
            f"reads its first line, and OR-Tools meanwhile, which a request waits for within its own time.")


def _kind(answer: dict) -> str:
    if "error" in answer:
        return "error: " + answer["error"]["message"][:40]
    if "castable" in answer:
        return "castable: " + ",".join(sorted({str(c["payable"]) for c in answer["castable"]}))
    if "cast" in answer:
        return "best_turn" + ("" if answer.get("optimal") else " (not proven optimal)")
    if "total_cost" in answer and "payable" not in answer:
        return "total_cost"
    return f"payable {answer.get('payable')}" + (f" ({answer['reason']['code']})" if answer.get("reason") else "")


def table(rows: list) -> str:
    lines = ["| family | query | `time_limit_ms` | worst wall | overrun past the limit | answers |",
             "|---|---|---|---|---|---|"]
    for family, query, limit, worst, kinds in rows:
        seconds = (limit or 10_000) / 1000
        lines.append(f"| {family} | {query} | {limit if limit else 'default (10,000)'} | {worst * 1000:,.1f} ms | "
                     f"{max(0.0, worst - seconds) * 1000:,.1f} ms | {'; '.join(sorted(kinds))} |")
    worst_overrun = max(max(0.0, w - (lim or 10_000) / 1000) for _, _, lim, w, _ in rows)
    lines.append(f"\nWorst overrun: **{worst_overrun * 1000:.1f} ms**.")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/time_budgets.md")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    text = table(measure(args.rounds)) + "\n\n" + first_request()
    print(text)
    if args.record:
        record("time_budgets", "Time budgets on every query", __doc__.split("    python")[0], text)


if __name__ == "__main__":
    main()
