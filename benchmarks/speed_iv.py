"""Speed IV, each table the revision given beside the working tree, in one run:

1. limits kept: requests built to be slow (huge generic increases, a million kicks, a
   cost of 600 two-way symbols, turns of 12 cards on a Doubling Cube chain board), each
   with ``time_limit_ms`` 50, 500 and 2,000, each in a new process after OR-Tools is
   loaded: wall and CPU time, and each query's worst overrun of its limit;
2. the per-request floor: plain 20-permanent ``pay`` requests, each new, through one
   ``manaplan serve`` (given 2.5 s to load OR-Tools first): the server's CPU time per
   request (from /proc), beside the round trip; boards written as abilities and as
   Scryfall card objects; and the same requests answered back to back in one process
   (the server's own work: waiting for each request, the process runs colder);
3. the AI step on hands of real costs: ``castable`` of 7-card hands (a twobrid and a
   Phyrexian symbol one in ten each) on plain boards of 3 to 8, in process: CPU per hand
   and the CP-SAT solvers made;
4. kept boards: 64 boards of 5,000 distinct permanents kept by one ``serve``, then a
   change (tap one permanent) and ``can_pay`` on each in turn: wall and server CPU.

    python benchmarks/speed_iv.py --base REV [--only limits floor ai_step kept] [--rounds 3] [--name speed_iv]

Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from recording import record  # noqa: E402

LIMITS = (50, 500, 2000)
CUBE = {"name": "Doubling Cube", "type_line": "Artifact", "mana_cost": "{2}",
        "oracle_text": "{3}, {T}: Double the amount of each type of unspent mana you have."}
BASIC = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}


def _lands(n: int, colors: str = "WUBRG") -> list:
    return [{"id": f"l{i}", "name": BASIC[colors[i % len(colors)]],
             "type_line": "Basic Land — " + BASIC[colors[i % len(colors)]]} for i in range(n)]


def slow_requests() -> list:
    """(name, request) of the requests built to be slow."""
    import boards
    hand = [{"id": f"h{k}", "mana_cost": c, "type_line": "Sorcery"} for k, c in enumerate(
        ["{2}{B}", "{3}{R}", "{1}{W}{U}", "{4}", "{X}{B}", "{2/B}{2/B}", "{B/P}{1}", "{2}{G}"])]
    hand += [{"id": "k1", "name": "Burst Lightning", "mana_cost": "{R}", "type_line": "Instant", "kicker": "{4}",
              "kicked": "if_possible"},
             {"id": "k2", "name": "Chalice", "mana_cost": "{0}", "type_line": "Artifact", "multikicker": "{2}",
              "kicks": "max"},
             {"id": "k3", "mana_cost": "{1}{G}", "type_line": "Creature — Beast", "kicker": "{2}{G}",
              "kicked": "if_possible"},
             {"id": "forest", "name": "Forest", "type_line": "Basic Land — Forest"}]
    chain = [{"id": "dc", **CUBE}] + boards.chain_board(24, random.Random(3))
    return [
        ("total_cost, {G} and twenty {1000000} increases",
         {"query": "total_cost", "spell": {"mana_cost": "{G}", "increase": ["{1000000}"] * 20}, "permanents": _lands(5)}),
        ("max_x, {X}{G} and twenty {1000000} increases",
         {"query": "max_x", "spell": {"mana_cost": "{X}{G}", "increase": ["{1000000}"] * 20}, "permanents": _lands(5)}),
        ("pay, 100,000 increases of {1}",
         {"spell": {"mana_cost": "{G}", "increase": ["{1}"] * 100_000}, "permanents": _lands(5)}),
        ("pay, {2/W}{W/U}{G/P} x200 with 60 reductions",
         {"spell": {"mana_cost": "{2/W}{W/U}{G/P}" * 200, "reduce": ["{W}", "{1}", "{G}"] * 20},
          "permanents": _lands(20)}),
        ("pay, a {0} multikicker kicked 10^6 times",
         {"spell": {"mana_cost": "{G}", "multikicker": "{0}", "kicks": 1_000_000}, "permanents": _lands(5)}),
        ("pay, a {G} multikicker kicked 10^6 times",
         {"spell": {"mana_cost": "{G}", "multikicker": "{G}", "kicks": 1_000_000}, "permanents": _lands(5)}),
        ("best_turn, 12 cards on a Doubling Cube chain board", {"query": "best_turn", "hand": hand, "permanents": chain}),
        ("sequence in any order, 7 cards, the same board",
         {"query": "sequence", "order": "any", "spells": hand[:7], "permanents": chain}),
        ("castable, 12 cards, the same board", {"query": "castable", "hand": hand, "permanents": chain}),
        ("pay keeping 5 cards castable, the same board",
         {"spell": hand[0], "hand": hand, "keep_castable": [h["id"] for h in hand[1:6]], "permanents": chain}),
    ]


_ONE = r'''
import json, sys, time
from manaplan.api import solve
import ortools.sat.python.cp_model  # noqa (loaded before the clock starts)
solve({"query": "can_pay", "spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "type_line": "Basic Land — Forest"}]})
request = json.loads(sys.stdin.read())
t0, c0 = time.perf_counter(), time.process_time()
out = solve(request)
print(json.dumps([(time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000,
                  out.get("reason", {}).get("code") if isinstance(out.get("reason"), dict) else "answered"]))
'''


def _run(site: str, request: dict, timeout: float = 300) -> tuple:
    out = subprocess.run([sys.executable, "-c", _ONE], input=json.dumps(request), capture_output=True, text=True,
                         timeout=timeout, env={**os.environ, "PYTHONPATH": site}, cwd=tempfile.gettempdir())
    return tuple(json.loads(out.stdout.strip().splitlines()[-1]))


def limits_table(sites: list) -> str:
    rows = ["| request | revision | " + " | ".join(f"{ms} ms: wall / CPU" for ms in LIMITS) + " | worst overrun ms |",
            "|---|---|" + "---:|" * (len(LIMITS) + 1)]
    for name, request in slow_requests():
        for label, site in sites:
            cells, worst = [], float("-inf")
            for ms in LIMITS:
                try:
                    wall, cpu, code = _run(site, {**request, "time_limit_ms": ms})
                except subprocess.TimeoutExpired:
                    wall = cpu = 300_000.0
                cells.append(f"{wall:,.0f} / {cpu:,.0f}")
                worst = max(worst, max(wall, cpu) - ms)
            rows.append(f"| {name} | {label} | " + " | ".join(cells) + f" | {max(0, worst):,.0f} |")
    return "\n".join(rows)


_STEP = r'''
import json, random, sys, time
sys.path.insert(0, {here!r})
import boards, turn_step, two_way
from manaplan.api import solve
import manaplan.solver.runtime as runtime
made = [0]
new_solver = runtime.new_solver
def counted(*args, **kwargs):
    made[0] += 1
    return new_solver(*args, **kwargs)
runtime.new_solver = counted
import ortools.sat.python.cp_model  # noqa (loaded before the clock starts)
rng = random.Random(42)
steps = [{{"query": "castable", "hand": turn_step._hand(rng, k, two_way.real_cost),
          "permanents": boards.plain_board(rng.randint(3, 8), rng)}} for k in range({steps})]
solve(steps[0])
made[0] = 0
c0 = time.process_time()
payable = unpayable = 0
for request in steps:
    for card in solve(request)["castable"]:
        payable += card["payable"] is True
        unpayable += card["payable"] is False
print(json.dumps([(time.process_time() - c0) * 1000 / len(steps), made[0], payable, unpayable]))
'''


def ai_step_table(sites: list, steps: int = 200) -> str:
    """``castable`` of 7-card hands of real costs (a twobrid and a Phyrexian symbol one in
    ten each, benchmarks/two_way.py) on plain boards of 3 to 8: CPU per hand, and how many
    CP-SAT solvers the hands needed."""
    rows = ["| revision | hands | CPU ms per hand | CP-SAT solves | cards payable | cards not |", "|---|---:|---:|---:|---:|---:|"]
    for label, site in sites:
        out = subprocess.run([sys.executable, "-c", _STEP.format(here=HERE, steps=steps)], capture_output=True,
                             text=True, env={**os.environ, "PYTHONPATH": site}, cwd=tempfile.gettempdir(), check=True)
        cpu, solves, payable, unpayable = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(f"| {label} | {steps} | {cpu:.2f} | {solves:,} | {payable:,} | {unpayable:,} |")
    return "\n".join(rows)


def _cpu_of(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _serve(site: str):
    return subprocess.Popen([sys.executable, "-m", "manaplan", "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": site}, cwd=tempfile.gettempdir())


def _ask(proc, request: dict) -> dict:
    proc.stdin.write(json.dumps(request, separators=(",", ":")).encode() + b"\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def floor_requests(kind: str, n: int, seed: int = 5) -> list:
    import boards
    rng = random.Random(seed)
    lands = [c for c in json.load(open(os.path.join(HERE, "decks", "real_hand_cards.json")))
             if "Land" in c["type_line"] and "enters tapped" not in c.get("oracle_text", "")
             and "damage" not in c.get("oracle_text", "")]
    out = []
    for k in range(n):
        board = (boards.plain_board(20, rng) if kind == "abilities"
                 else [{**rng.choice(lands), "instance": f"p{i}"} for i in range(20)])
        out.append({"id": k, "spell": {"mana_cost": rng.choice(["{2}{G}", "{1}{W}{U}", "{3}{R}", "{B}{B}", "{2}{G}{U}"])},
                    "permanents": board})
    return out


def floor_table(sites: list, n: int, rounds: int = 3) -> str:
    """Each site's server CPU per request (and round trip), ``rounds`` runs taken in
    turn (the machine is shared: one run is noisy): the median and the range."""
    rows = ["| boards written as | revision | requests | rounds | server CPU ms per request, median (min-max) "
            "| round trip ms, median | in one process, back to back: CPU ms per request, median |",
            "|---|---|---:|---:|---:|---:|---:|"]
    for kind in ("abilities", "Scryfall card objects"):
        written = "abilities" if kind == "abilities" else "cards"
        requests = floor_requests(written, n + 50)
        runs: dict = {label: ([], [], []) for label, _ in sites}
        for _ in range(rounds):
            for label, site in sites:
                cpu, wall = _serve_run(site, requests, n)
                runs[label][0].append(cpu)
                runs[label][1].append(wall)
                runs[label][2].append(_back_to_back(site, written, n))
        for label, _ in sites:
            cpu, wall, alone = (sorted(v) for v in runs[label])
            rows.append(f"| {kind} | {label} | {n:,} | {rounds} | {cpu[len(cpu) // 2]:.3f} ({cpu[0]:.3f}-{cpu[-1]:.3f}) "
                        f"| {wall[len(wall) // 2]:.3f} | {alone[len(alone) // 2]:.3f} |")
    return "\n".join(rows)


def _serve_run(site: str, requests: list, n: int) -> tuple:
    """(server CPU ms, round trip ms) per request of ``requests[50:]`` through one new
    ``serve`` of ``site``, the first 50 and 2.5 s given to loading first."""
    proc = _serve(site)
    for r in requests[:50]:
        _ask(proc, r)
    time.sleep(2.5)
    c0, t0 = _cpu_of(proc.pid), time.perf_counter()
    for r in requests[50:]:
        _ask(proc, r)
    c1, t1 = _cpu_of(proc.pid), time.perf_counter()
    proc.stdin.close()
    proc.wait()
    return 1000 * (c1 - c0) / n, 1000 * (t1 - t0) / n


#: the same requests answered by ``solve_text`` in a loop, in a new process (the collector
#: set as ``serve`` sets it): the server's own work, without the wait for each request
_BACK_TO_BACK = r"""
import gc, json, sys, time
sys.path.insert(0, sys.argv[3])
from speed_iv import floor_requests
from manaplan.cli import solve_text
from manaplan.kept_boards import BoardStore
import ortools.sat.python.cp_model, networkx
n = int(sys.argv[2])
requests = [json.dumps(r).encode() for r in floor_requests(sys.argv[1], n + 50)]
boards = BoardStore()
for r in requests[:50]:
    solve_text(r, boards, hold=[])
gc.freeze()
gc.set_threshold(200_000, 10, 10)
t0 = time.process_time()
for r in requests[50:]:
    solve_text(r, boards, hold=[])
    if gc.get_count()[0] > 10_000:
        gc.collect(0)
print(1000 * (time.process_time() - t0) / n)
"""


def _back_to_back(site: str, written: str, n: int) -> float:
    """CPU ms per request of :data:`_BACK_TO_BACK` at ``site``."""
    out = subprocess.run([sys.executable, "-c", _BACK_TO_BACK, written, str(n), HERE], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": site}, cwd=tempfile.gettempdir(), timeout=600)
    return float(out.stdout.strip()) if out.returncode == 0 else float("nan")


def kept_table(sites: list, boards_kept: int = 64, rounds: int = 64) -> str:
    from kept_boards import distinct_board
    rows = ["| revision | boards kept | changes | p50 wall ms | p95 wall ms | server CPU ms per change |",
            "|---|---:|---:|---:|---:|---:|"]
    for label, site in sites:
        proc = _serve(site)
        spell = {"mana_cost": "{G}"}
        for b in range(boards_kept):
            _ask(proc, {"board": f"b{b}", "spell": spell, "permanents": distinct_board(b + 1)})
        time.sleep(2.5)  # (OR-Tools loads in the background from the server's start: not a change's CPU)
        walls = []
        c0 = _cpu_of(proc.pid)
        for k in range(rounds):
            t0 = time.perf_counter()
            out = _ask(proc, {"board": f"b{k % boards_kept}", "spell": spell, "query": "can_pay",
                              "changes": {"tapped": [f"l{k}"]}})
            walls.append((time.perf_counter() - t0) * 1000)
            assert out.get("payable") is True, out
        cpu = (_cpu_of(proc.pid) - c0) * 1000 / rounds
        proc.stdin.close()
        proc.wait()
        walls.sort()
        rows.append(f"| {label} | {boards_kept} | {rounds} | {walls[len(walls) // 2]:.1f} | "
                    f"{walls[int(0.95 * len(walls))]:.1f} | {cpu:.1f} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the revision measured beside the working tree")
    parser.add_argument("--only", nargs="+", default=["limits", "floor", "ai_step", "kept"])
    parser.add_argument("--requests", type=int, default=2000, help="plain pays per floor run")
    parser.add_argument("--rounds", type=int, default=3, help="floor runs of each revision, in turn")
    parser.add_argument("--name", default="speed_iv")
    args = parser.parse_args(argv)
    from compare import install
    sections = []
    with tempfile.TemporaryDirectory() as tmp:
        sites = [(f"{args.base} (base)", install(args.base, os.path.join(tmp, "base"))),
                 ("head (working tree)", install(None, os.path.join(tmp, "head")))]
        if "limits" in args.only:
            sections.append("## Limits kept\n\n" + limits_table(sites))
            print(sections[-1], flush=True)
        if "floor" in args.only:
            sections.append("## The per-request floor\n\n" + floor_table(sites, args.requests, args.rounds))
            print(sections[-1], flush=True)
        if "ai_step" in args.only:
            sections.append("## The AI step on hands with twobrid and Phyrexian costs\n\n" + ai_step_table(sites))
            print(sections[-1], flush=True)
        if "kept" in args.only:
            sections.append("## A change on one of 64 kept boards of 5,000 distinct permanents\n\n" + kept_table(sites))
            print(sections[-1], flush=True)
    path = record(args.name, "Speed IV", f"`python benchmarks/speed_iv.py --base {args.base} --only "
                  f"{' '.join(args.only)} --requests {args.requests} --rounds {args.rounds}`: " + __doc__.split("\n\n")[1].replace("\n", " "), *sections)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
