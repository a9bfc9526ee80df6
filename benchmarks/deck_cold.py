"""Deck analysis from a cold start, two revisions side by side.

    python benchmarks/deck_cold.py --base REV [--games 20000] [--workers 2] [--rounds 3]
        [--name deck_cold]

Each revision is installed into a folder of its own (as benchmarks/compare.py does); each
round runs ``manaplan deck analyze benchmarks/decks/simic_ramp.txt --games N --workers W``
as a new process for the base and the head in turn (the order alternating), so both start
cold under the same machine load. The wall time of each whole process is recorded (p50,
min, max), and the JSON reports must be the same but for the time they took.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from compare import install  # noqa: E402
from recording import record  # noqa: E402


def run(site: str, games: int, workers: int, out: str) -> float:
    """One cold run of the command in a new process; its wall seconds."""
    env = {**os.environ, "PYTHONPATH": site}
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "manaplan", "deck", "analyze", os.path.join(HERE, "decks", "simic_ramp.txt"),
                    "--games", str(games), "--workers", str(workers), "--quiet", "--json", out],
                   check=True, capture_output=True, env=env, cwd=tempfile.gettempdir())
    return time.perf_counter() - started


def report(path: str) -> dict:
    """What both revisions report alike: the headline is castability as
    players mean it and the simulated player's figure is ``*_as_played``: that one is
    compared with an older revision's ``by_turn`` (the same games, the same meaning)."""
    with open(path) as f:
        data = json.load(f)
    cards = [{"name": c["name"], "by_turn": c.get("by_turn_as_played", c["by_turn"])} for c in data["cards"]]
    return {"games": data["games"], "cards": cards, "lands_hit": data["lands_hit"], "mana_spent": data["mana_spent"],
            "mulligans": data["mulligans"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True, help="the revision to compare with (the commit before the work)")
    parser.add_argument("--head", help="the revision measured (default: the working tree)")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--name", default="deck_cold", help="the results file: benchmarks/results/NAME.md")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        sites = {"base": install(args.base, os.path.join(tmp, "base")),
                 "head": install(args.head, os.path.join(tmp, "head"))}
        times = {"base": [], "head": []}
        reports = {}
        for r in range(args.rounds):
            for name in (("base", "head") if r % 2 == 0 else ("head", "base")):
                out = os.path.join(tmp, f"{name}{r}.json")
                times[name].append(run(sites[name], args.games, args.workers, out))
                reports.setdefault(name, []).append(report(out))
                print(f"round {r + 1} {name}: {times[name][-1]:.1f} s", file=sys.stderr)
    same = all(rep == reports["base"][0] for reps in reports.values() for rep in reps)
    head = args.head or "the working tree"
    rows = ["| revision | runs | p50 wall s | min | max | head / base (p50) |", "|---|---:|---:|---:|---:|---:|"]
    base50 = statistics.median(times["base"])
    for name in ("base", "head"):
        t = times[name]
        rows.append(f"| {name} | {len(t)} | {statistics.median(t):.1f} | {min(t):.1f} | {max(t):.1f} | "
                    f"{statistics.median(t) / base50:.2f} |")
    path = record(args.name, "Deck analysis from a cold start, beside the commit before",
                  f"`python benchmarks/deck_cold.py --base {args.base} --games {args.games} --workers {args.workers} "
                  f"--rounds {args.rounds}`: `manaplan deck analyze benchmarks/decks/simic_ramp.txt --games "
                  f"{args.games} --workers {args.workers}` as a new process each time, base ({args.base}) and head "
                  f"({head}) in turn.", "\n".join(rows),
                  f"The figures both revisions report (each card's castability as the simulated player played, the "
                  f"lands on curve, the mana spent, the mulligans) of all {2 * args.rounds} runs are "
                  f"{'the same' if same else 'NOT the same'}; the head also follows every line of play for the "
                  f"players' figure.")
    print(open(path).read())
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
