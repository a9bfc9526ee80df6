"""Deck analysis beside mtg-mana-simulator, CPU time and wall, in one run.

    python benchmarks/deck_peer.py --base REV --peer-python VENV/bin/python
        [--deck benchmarks/decks/simic_ramp.txt] [--games 20000] [--rounds 3]

mtg-mana-simulator (PyPI ``mtg-mana-simulator``, a generic-mana simulator: lands tapped or
untapped, mana rocks, draw spells, a cost per card) is installed in a virtual environment
of its own (``python -m venv VENV && VENV/bin/pip install mtg-mana-simulator``): never a
dependency of manaplan. The deck is translated into its cards from manaplan's own reading
of it (a land makes one mana and enters tapped when its text says so without a condition; a mana creature is
a rock from the next turn, another mana permanent a rock now, netting what it makes past
its ability's cost; a spell whose text draws a card draws one; any other card a cost), and
it plays the same number of games of the same turns with its ``less_naive`` player.

manaplan runs ``manaplan deck analyze DECK --games N --workers 1`` (one process: the CPU
time is the work), the base revision and the head in turn, each round in a new process;
the CPU time of each child (user + system, from ``getrusage``) is reported beside its
wall time, p50 over the rounds, and the head's and base's JSON reports must be the same
but for the time they took.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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

#: run in the peer's own Python: its cards from the translation (JSON on stdin), N games
PEER_SCRIPT = r"""
import json, random, sys, time
from mtg_mana_simulator.ai import AI
from mtg_mana_simulator.card import Card
from mtg_mana_simulator.experiment import Experiment
from mtg_mana_simulator.metric import Metric
from mtg_mana_simulator.sequence import Sequence
spec = json.load(sys.stdin)
deck = []
for kind, cost, mana, count in spec["cards"]:
    card = {"untapped_land": lambda: Card.untapped_land, "tapped_land": lambda: Card.tapped_land,
            "rock_now": lambda: Card.untapped_rock(cost, mana), "rock_later": lambda: Card.tapped_rock(cost, mana),
            "draw": lambda: Card.draw_spell(cost, 1), "spell": lambda: Card(cost=cost)}[kind]()
    deck += [card] * count
random.seed(0)
started = time.process_time()
experiment = Experiment(deck, AI.less_naive, spec["turns"], spec["games"])
print(json.dumps({"cpu": time.process_time() - started, "mean_mana": experiment.evaluate([Metric.mean])["Mean"]}))
"""


def translate(deck_path: str) -> list:
    """The deck as mtg-mana-simulator's cards: [kind, cost, mana, copies] (the module's
    docstring), from manaplan's reading of the deck."""
    from manaplan.deck.cards import load_cards
    from manaplan.deck.decklist import Decklist
    from manaplan.deck.simulate import DeckModel
    from manaplan.model.entering import TAPPED

    with open(deck_path) as f:
        decklist = Decklist.parse(f.read())
    deck = DeckModel.build(decklist, load_cards(decklist.names))
    out = []
    for c, name in enumerate(deck.names):
        text = str(deck.cards[c].get("oracle_text") or "")
        value = deck.mana_value[c]
        if deck.is_land[c]:
            kind, cost, mana = ("tapped_land" if deck.enters[c].kind == TAPPED else "untapped_land"), 0, 1
        elif deck.is_source[c]:
            makes = 2 if "Add {" in text and "}{" in text.split("Add ", 1)[1][:8] else 1
            paid = 1 if "{1}, {T}" in text else 0
            kind, cost, mana = ("rock_later" if deck.creature[c] else "rock_now"), value, makes - paid
        elif "draw a card" in text.lower():
            kind, cost, mana = "draw", value, 0
        else:
            kind, cost, mana = "spell", value, 0
        out.append([kind, cost, mana, deck.copies[c]])
    return out


def child_cpu(command: list, env: dict | None = None, stdin: str | None = None) -> tuple:
    """(CPU seconds of the child, user + system; wall seconds; its stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, check=True, capture_output=True, text=True, env=env, input=stdin,
                          cwd=tempfile.gettempdir())
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall, done.stdout


def report(path: str) -> dict:
    with open(path) as f:
        data = json.load(f)
    data.pop("seconds", None)
    return data


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True, help="the revision to compare with (the commit before the work)")
    parser.add_argument("--head", help="the revision measured (default: the working tree)")
    parser.add_argument("--peer-python", required=True, help="the Python of a venv with mtg-mana-simulator")
    parser.add_argument("--deck", default=os.path.join(HERE, "decks", "simic_ramp.txt"))
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--turns", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--name", default="deck_peer", help="the results file: benchmarks/results/NAME.md")
    args = parser.parse_args(argv)
    spec = json.dumps({"cards": translate(args.deck), "games": args.games, "turns": args.turns})
    times = {"mtg-mana-simulator": [], "base": [], "head": []}
    reports = {}
    with tempfile.TemporaryDirectory() as tmp:
        sites = {"base": install(args.base, os.path.join(tmp, "base")),
                 "head": install(args.head, os.path.join(tmp, "head"))}
        for r in range(args.rounds):
            order = ("mtg-mana-simulator", "base", "head") if r % 2 == 0 else ("head", "base", "mtg-mana-simulator")
            for name in order:
                if name == "mtg-mana-simulator":
                    cpu, wall, out = child_cpu([args.peer_python, "-c", PEER_SCRIPT], stdin=spec)
                else:
                    out_path = os.path.join(tmp, f"{name}{r}.json")
                    cpu, wall, _ = child_cpu([sys.executable, "-m", "manaplan", "deck", "analyze", args.deck,
                                              "--games", str(args.games), "--turns", str(args.turns), "--workers",
                                              "1", "--quiet", "--json", out_path],
                                             env={**os.environ, "PYTHONPATH": sites[name]})
                    reports.setdefault(name, []).append(report(out_path))
                times[name].append((cpu, wall))
                print(f"round {r + 1} {name}: {cpu:.1f} s CPU, {wall:.1f} s wall", file=sys.stderr)
    same = all(rep == reports["base"][0] for reps in reports.values() for rep in reps)
    peer = statistics.median(c for c, _ in times["mtg-mana-simulator"])
    rows = ["| engine | runs | p50 CPU s | p50 wall s | min CPU | max CPU | CPU / mtg-mana-simulator |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for name, t in times.items():
        cpus = [c for c, _ in t]
        rows.append(f"| {name} | {len(t)} | {statistics.median(cpus):.1f} | {statistics.median(w for _, w in t):.1f} | "
                    f"{min(cpus):.1f} | {max(cpus):.1f} | {statistics.median(cpus) / peer:.1f} |")
    intro = (f"`python benchmarks/deck_peer.py --base {args.base} --games {args.games} --rounds {args.rounds}`: "
             f"`{os.path.relpath(args.deck, ROOT)}`, {args.games} games of {args.turns} turns each, "
             f"mtg-mana-simulator's `less_naive` player on the deck as it reads it (benchmarks/deck_peer.py) beside "
             f"`manaplan deck analyze --workers 1` at the base ({args.base}) and the head "
             f"({args.head or 'the working tree'}), each a new process, in turn.")
    verdict = ("The base's and the head's reports (every figure, all runs) are the same." if same else
               "**The base's and the head's reports differ.**")
    path = record(args.name, "Deck analysis beside mtg-mana-simulator", intro, "\n".join(rows), verdict)
    print(open(path).read())
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
