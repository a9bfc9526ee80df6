"""The deck analysis held to closed forms, on large runs:

- a lands-only deck with ``--mulligan none``: castability of a two-drop on turn t equals
  the hypergeometric probability of two lands among the cards seen, within the run's
  95% interval, on the play and on the draw;
- the sources-needed table computed exactly beside Karsten's published one.

    python benchmarks/deck_checks.py [--games 200000] [--out benchmarks/results/deck_checks.md]
"""

from __future__ import annotations

import argparse
import os
import sys
from math import comb

HERE = os.path.dirname(os.path.abspath(__file__))

from manaplan.deck.analyze import analyze  # noqa: E402
from manaplan.deck.sources import comparison_table  # noqa: E402


def at_least(n: int, good: int, drawn: int, k: int) -> float:
    return sum(comb(good, i) * comb(n - good, drawn - i) for i in range(k, min(good, drawn) + 1)) / comb(n, drawn)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--out", default=os.path.join(HERE, "results", "deck_checks.md"))
    args = parser.parse_args(argv)
    lines = ["# Deck analysis against closed forms", "",
             f"## A lands-only deck: 24 Forests, 36 Grizzly Bears ({{1}}{{G}}), no mulligan, {args.games:,} games", "",
             "| on | turn | cards seen | simulated | 95% interval | hypergeometric P(2+ lands) | inside |",
             "|---|---|---|---|---|---|---|"]
    inside = True
    for on in ("play", "draw"):
        report = analyze("24 Forest\n36 Grizzly Bears\n", games=args.games, turns=6, seed=11, on=on, mulligan="none")
        bears = report["cards"][0]
        for t in range(1, 7):
            seen = 7 + t - (1 if on == "play" else 0)
            exact = at_least(60, 24, seen, 2) if t >= 2 else 0.0
            low, high = bears["ci95"][t - 1]
            ok = low <= exact <= high
            inside = inside and ok
            lines.append(f"| {on} | {t} | {seen} | {bears['by_turn'][t - 1]:.4f} | {low:.4f} to {high:.4f} | "
                         f"{exact:.4f} | {'yes' if ok else 'NO'} |")
    lines += ["", "(Turn one: one land, never two mana: 0 exactly.)", "",
              "## Sources needed: exact, beside Karsten 2022", "",
              "Each cell: manaplan's exact count / the published one; `*` where they differ (README, "
              "\"Deck analysis\", explains the one cell).", "", comparison_table()]
    text = "\n".join(lines) + "\n"
    print(text)
    with open(args.out, "w") as f:
        f.write(text)
    return 0 if inside else 1


if __name__ == "__main__":
    sys.exit(main())
