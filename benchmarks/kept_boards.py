"""Kept boards at scale, through one ``manaplan serve``:

1. a change (tap one permanent, untap the one tapped before) plus ``pay`` on a kept board of
   5,000 distinct permanents, beside the same board in the same state sent whole, the two
   interleaved: p50 and p95 of each;
2. 64 such boards kept at the default memory budget (``serve --max-kept-mb``): how many
   are kept, the estimate, and the server's resident memory.

    python benchmarks/kept_boards.py            # the tables, on stdout
    python benchmarks/kept_boards.py --record   # ... written to benchmarks/results/kept_boards.md

Each permanent is its own body (a land with a counter of its own): the heaviest board to
keep. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from recording import record  # noqa: E402

PERMANENTS = 5000
BOARDS = 64
COLORS = ("{W}", "{U}", "{B}", "{R}", "{G}")


def distinct_board(seed: int, n: int = PERMANENTS) -> list:
    """``n`` lands, each its own body (a charge counter of its own)."""
    rng = random.Random(seed)
    return [{"id": f"l{i}", "type_line": "Land", "abilities": [{"cost": "{T}", "add": rng.choice(COLORS)}],
             "counters": {"charge": seed * n + i}} for i in range(n)]


class Server:
    """One ``manaplan serve``, asked one line at a time."""

    def __init__(self, *args: str):
        self.process = subprocess.Popen([sys.executable, "-m", "manaplan", "serve", *args], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)

    def ask(self, request: dict) -> tuple:
        """(seconds from sending to the answer, the answer)."""
        line = json.dumps(request, separators=(",", ":")).encode() + b"\n"
        started = time.perf_counter()
        self.process.stdin.write(line)
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        return time.perf_counter() - started, json.loads(answer)

    def rss_mb(self) -> float:
        with open(f"/proc/{self.process.pid}/status") as f:
            return int(f.read().split("VmRSS:")[1].split()[0]) / 1024

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def percentile(values: list, q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def change_and_pay(rounds: int) -> str:
    perms = distinct_board(0)
    server = Server()
    spell = {"mana_cost": "{1}{G}"}
    server.ask({"board": "k", "spell": spell, "permanents": perms})
    kept, whole = [], []
    tapped = None
    for k in range(rounds):
        target = f"l{k % PERMANENTS}"
        changes = {"tapped": [target], **({"untapped": [tapped]} if tapped else {})}
        state = [dict(p, tapped=True) if p["id"] == target else p for p in perms]
        for which in (("kept", "whole") if k % 2 else ("whole", "kept")):
            if which == "kept":
                seconds, answer = server.ask({"board": "k", "spell": spell, "changes": changes})
                kept.append(seconds)
            else:
                seconds, answer = server.ask({"spell": spell, "permanents": state})
                whole.append(seconds)
            assert answer.get("payable") is True, answer
        tapped = target
    server.close()
    rows = ["| 5,000 distinct permanents | p50 | p95 | rounds |", "|---|---|---|---|"]
    for label, times in (("kept: a change (tap one, untap one) + `pay`", kept), ("the whole board sent afresh", whole)):
        rows.append(f"| {label} | {statistics.median(times) * 1000:.1f} ms | {percentile(times, 0.95) * 1000:.1f} ms | "
                    f"{len(times)} |")
    rows.append(f"| kept / whole (p50) | {statistics.median(kept) / statistics.median(whole):.2f} | | |")
    return "\n".join(rows)


def many_boards() -> str:
    from manaplan.kept_boards import MAX_KEPT_MB

    server = Server()
    spell = {"mana_cost": "{G}"}
    server.ask({"query": "version"})
    started_rss = server.rss_mb()
    for b in range(BOARDS):
        server.ask({"board": f"b{b}", "spell": spell, "permanents": distinct_board(b + 1)})
    kept = 0
    for b in range(BOARDS):
        _, answer = server.ask({"board": f"b{b}", "spell": spell})
        kept += "error" not in answer
    rss = server.rss_mb()
    server.close()
    return ("| boards of 5,000 distinct permanents sent | kept at the default budget | default `--max-kept-mb` | "
            "server RSS, empty | server RSS, all sent |\n|---|---|---|---|---|\n"
            f"| {BOARDS} | {kept} | {MAX_KEPT_MB:,} | {started_rss:.0f} MB | {rss:,.0f} MB |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/kept_boards.md")
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    first = change_and_pay(args.rounds)
    print(first)
    second = many_boards()
    print(second)
    if args.record:
        record("kept_boards", "Kept boards at scale", __doc__.split("    python")[0], first, second)

if __name__ == "__main__":
    main()
