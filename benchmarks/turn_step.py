"""The AI's questions in a game step (issue 10), measured side by side in one run:

- one step on a kept 20-permanent board through one ``manaplan serve``: a change to the
  kept board with ``castable`` for a new 7-card hand (one request), then one ``pay`` of
  a castable card; beside it the same step sending the whole board with each request,
  and the naive per-source CP-SAT model's 8 solves (7 cards and the payment) in process;
- ``best_turn`` for 7 cards at 20 permanents, in process, beside a brute force over
  subsets (most value first) and orders, each order paid exactly by ``sequence``.
"""

from __future__ import annotations

import itertools
import random
import time

from manaplan.protocol.mtg import read as parse_request
from manaplan.solver.planner import answer

import baselines
import boards

HAND_SIZE = 7


def _hand(rng: random.Random, step: int) -> list:
    return [{"id": f"h{step}_{k}", "mana_cost": rng.choice([c for c in boards.PLAIN_COSTS if "X" not in c]),
             "type_line": rng.choice(["Creature — Elf", "Instant", "Sorcery"])} for k in range(HAND_SIZE)]


def _change(board: list, rng: random.Random) -> dict:
    """A change between two questions: a land tapped or untapped."""
    pid = rng.choice(board)["id"]
    return {"tapped": [pid]} if rng.random() < 0.5 else {"untapped": [pid]}


def bench_ai_step(serve, rng: random.Random, repeats: int, results: list, summary) -> None:
    rows: dict = {}
    board = boards.plain_board(20, rng)
    state = {p["id"]: False for p in board}
    serve.ask({"board": "ai", "query": "castable", "hand": _hand(rng, -1), "permanents": board})  # kept once
    for step in range(repeats):
        hand = _hand(rng, step)
        change = _change(board, rng)
        for pid in change.get("tapped", []):
            state[pid] = True
        for pid in change.get("untapped", []):
            state[pid] = False
        full = [{**p, "tapped": state[p["id"]]} for p in board]

        def kept():
            ms1, cast = serve.ask({"board": "ai", "query": "castable", "hand": hand, "changes": change})
            ok = [c for c in cast["castable"] if c["payable"]]
            pick = next((h for h in hand if ok and h["id"] == ok[0]["id"]), hand[0])
            ms2, paid = serve.ask({"board": "ai", "spell": pick, "hand": hand})
            assert paid["payable"] == bool(ok)
            rows.setdefault("kept board through serve: castable + pay", []).append(ms1 + ms2)
            return cast, pick

        def whole(pick):
            ms3, cast2 = serve.ask({"query": "castable", "hand": hand, "permanents": full})
            ms4, _ = serve.ask({"spell": pick, "hand": hand, "permanents": full})
            rows.setdefault("whole board each request through serve: castable + pay", []).append(ms3 + ms4)
            return cast2

        if step % 2:  # which goes first alternates: the first after a pause finds the server cold
            cast = kept()[0]
            pick = next((h for h in hand if h["id"] == next((c["id"] for c in cast["castable"] if c["payable"]),
                                                              hand[0]["id"])), hand[0])
            cast2 = whole(pick)
        else:
            ok2 = whole(hand[0])
            cast, pick = kept()
            cast2 = ok2
        assert [c["payable"] for c in cast2["castable"]] == [c["payable"] for c in cast["castable"]]
        t0 = time.perf_counter()
        for card in hand + [pick]:
            naive = baselines.naive_cpsat(parse_request({"spell": card, "permanents": full}))
            if card is not pick:
                assert naive == next(c["payable"] for c in cast["castable"] if c["id"] == card["id"])
        rows.setdefault("baseline: naive CP-SAT, 8 solves in process", []).append((time.perf_counter() - t0) * 1000)
    for method, samples in rows.items():
        results.append({"family": "ai step", "size": 20, "method": method, **summary(samples)})


def _brute_best_turn(request: dict, budget: float):
    """The most value of any subset of the hand paid in some order (``sequence`` in the
    given order, every order tried), most valuable subsets first; None past ``budget``."""
    deadline = time.perf_counter() + budget
    hand = request["hand"]
    base = {k: v for k, v in request.items() if k not in ("query", "hand")}
    subsets = sorted((s for k in range(len(hand) + 1) for s in itertools.combinations(hand, k)),
                     key=lambda s: -sum(parse_request({"spell": c}).spell.worth for c in s))
    for subset in subsets:
        if not subset:
            return 0
        for order in itertools.permutations(subset):
            if time.perf_counter() > deadline:
                return None
            out = answer(parse_request({**base, "query": "sequence", "spells": list(order)}))
            if type(out).__name__ == "Sequence":
                return sum(parse_request({"spell": c}).spell.worth for c in subset)
    return 0


def bench_best_turn(rng: random.Random, repeats: int, results: list, summary, brute_budget: float) -> None:
    rows: dict = {}
    for r in range(repeats):
        request = {"query": "best_turn", "hand": _hand(rng, r), "permanents": boards.plain_board(20, rng)}
        t0 = time.perf_counter()
        out = answer(parse_request(request))
        rows.setdefault("manaplan best_turn", []).append((time.perf_counter() - t0) * 1000)
        if r < 5:  # exponential: a few samples
            t0 = time.perf_counter()
            brute = _brute_best_turn(request, brute_budget)
            ms = (time.perf_counter() - t0) * 1000
            if brute is None:
                rows.setdefault("baseline: brute force over subsets and orders, timeouts", []).append(ms)
            else:
                assert brute == out.value, (brute, out.value)
                rows.setdefault("baseline: brute force over subsets and orders", []).append(ms)
    for method, samples in rows.items():
        results.append({"family": "best_turn 7 cards", "size": 20, "method": method, **summary(samples)})
