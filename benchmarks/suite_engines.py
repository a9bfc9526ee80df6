"""The conformance suite made, held to the reference search, and other engines scored on it.

    python benchmarks/suite_engines.py [--cases 1000] [--seed 0] [--phase-python PATH] [--name suite_engines]

1. ``manaplan suite make --cases N`` from a cold start (a new process), timed;
2. every case's answer against the reference search (payable, and the optimum's terms
   in the default order), within its limit of eight permanents and a state budget;
3. the engines under test, each as a separate process writing the suite's answer
   format, scored by ``manaplan suite score``:
   - the greedy example engine (benchmarks/greedy_engine.py, the standard library only);
   - phase.rs, through its Python bindings (benchmarks/phase_engine.py), where
     ``--phase-python`` names a Python with ``phase-python`` installed (a benchmark
     extra, never a dependency: ``python -m venv V && V/bin/pip install phase-python``);
     skipped, and said so, where it is not given or does not import.
The tables go to benchmarks/results/NAME.md, with the machine (cores, CPU).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from recording import record  # noqa: E402

REFERENCE_STATES = 200_000


def made(cases: int, seed: int, path: str) -> float:
    """Seconds for ``manaplan suite make`` in a new process."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "manaplan", "suite", "make", "--cases", str(cases), "--seed", str(seed),
                    "--out", path, "--quiet"], check=True, cwd=ROOT)
    return time.perf_counter() - started


def against_reference(cases: list) -> dict:
    """How many cases' answers the reference search confirms, contradicts, or can't
    search within its budget."""
    from manaplan.model.errors import SearchTooLarge
    from manaplan.protocol.mtg import read
    from manaplan.solver.checks.reference import reference_optimum
    out = {"agree": 0, "disagree": [], "too large": 0}
    for case in cases:
        problem = read(case["request"])
        try:
            best = reference_optimum(problem, REFERENCE_STATES)
        except SearchTooLarge:
            out["too large"] += 1
            continue
        expected = case["expected"]
        same = (best is None and not expected["payable"]) or (
            best is not None and expected["payable"]
            and problem.prefer.rank(tuple(expected["objective"].values())) == best)
        if same:
            out["agree"] += 1
        else:
            out["disagree"].append(case["case"])
    return out


def scored(name: str, command: list, suite: str, folder: str) -> tuple:
    """(seconds the engine took, its score table, its score) or an explanation."""
    answers = os.path.join(folder, f"{name}.jsonl")
    started = time.perf_counter()
    run = subprocess.run(command + [suite, answers], capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - started
    if run.returncode != 0:
        return seconds, f"{name} did not run: {run.stderr.strip()[-500:]}", None
    score_file = os.path.join(folder, f"{name}-score.json")
    table = subprocess.run([sys.executable, "-m", "manaplan", "suite", "score", suite, answers, "--engine", name,
                            "--quiet", "--json", score_file], capture_output=True, text=True, check=True, cwd=ROOT)
    with open(score_file) as f:
        return seconds, table.stdout.strip() + (f"\n\n{run.stderr.strip()}" if run.stderr.strip() else ""), json.load(f)


def examples(score: dict, cases: dict, verdicts=("illegal plan", "wrong yes", "wrong no"), most: int = 6) -> str:
    """A few wrong answers, each with its board and the referee's words."""
    lines = []
    for r in score["results"]:
        if r["verdict"] in verdicts and len(lines) < most:
            req = cases[r["case"]]["request"]
            board = ", ".join(p.get("name", p["id"]) + (" (tapped)" if p.get("tapped") else "")
                              for p in req["permanents"])
            why = r.get("violation", {}).get("message", "") or "it can be paid"
            lines.append(f"- {r['case']}: {req['spell'].get('name', '')} {req['spell']['mana_cost']} at life "
                         f"{req['player']['life']} with {board}: **{r['verdict']}** ({why})")
    return "\n".join(lines) or "none"


def why_no(name: str, folder: str, score: dict) -> str:
    """The engine's own reasons (an answer's ``note``) for its wrong "no"s, counted."""
    with open(os.path.join(folder, f"{name}.jsonl")) as f:
        notes = {a.get("case"): a.get("note", "") for a in map(json.loads, f)}
    wrong = Counter(notes.get(r["case"], "")[:90] or "(no note)" for r in score["results"] if r["verdict"] == "wrong no")
    if not wrong or set(wrong) == {"(no note)"}:
        return ""
    return "Its wrong \"no\"s, by the reason it gave:\n\n" + "\n".join(
        f"- {n} × {note}" for note, n in wrong.most_common(8)) + "\n\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--phase-python", help="a Python with phase-python installed")
    parser.add_argument("--name", default="suite_engines")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        suite = os.path.join(folder, "suite.jsonl")
        make_seconds = made(args.cases, args.seed, suite)
        with open(suite) as f:
            cases = [json.loads(line) for line in f]
        by_id = {c["case"]: c for c in cases}
        started = time.perf_counter()
        reference = against_reference(cases)
        reference_seconds = time.perf_counter() - started
        payable = sum(1 for c in cases if c["expected"]["payable"])
        sections = [
            f"## The suite\n\n`manaplan suite make --cases {args.cases} --seed {args.seed}`: **{make_seconds:.1f} s** "
            f"from a cold start (a new process), {payable:,} payable and {len(cases) - payable:,} not.",
            f"## Against the reference search\n\n**{reference['agree']:,} of {len(cases):,} cases agree** (payable, "
            f"and the optimum's terms), {len(reference['disagree'])} disagree"
            f"{': ' + ', '.join(reference['disagree'][:20]) if reference['disagree'] else ''}, "
            f"{reference['too large']} beyond the search's budget of {REFERENCE_STATES:,} states "
            f"({reference_seconds:.0f} s).",
        ]
        engines = [("greedy example", [sys.executable, os.path.join(HERE, "greedy_engine.py")])]
        phase = args.phase_python
        if phase and subprocess.run([phase, "-c", "import phase"], capture_output=True).returncode == 0:
            engines.append(("phase.rs", [phase, os.path.join(HERE, "phase_engine.py")]))
        else:
            sections.append("phase.rs: not run (no `--phase-python` with `phase-python` installed).")
        failures = 0
        for name, command in engines:
            seconds, table, score = scored(name, command, suite, folder)
            if score is None:
                failures += 1
                sections.append(f"## {name}\n\n{table}")
                continue
            sections.append(f"## {name}\n\nAnswered in {seconds:.1f} s.\n\n{table}\n\n{why_no(name, folder, score)}"
                            f"Some of its wrong answers:\n\n{examples(score, by_id)}")
    path = record(args.name, "The conformance suite: made, held to the reference search, engines scored",
                  f"`python benchmarks/suite_engines.py --cases {args.cases} --seed {args.seed}" +
                  (" --phase-python PATH" if phase else "") + "`: the suite made from a cold start, every case's "
                  "answer against the reference search, then each engine under test (a separate process writing "
                  "the suite's answer format) scored by `manaplan suite score`.", *sections)
    print(open(path).read())
    return 1 if reference["disagree"] or failures else 0


if __name__ == "__main__":
    sys.exit(main())
