"""The AI's questions in a game step, measured side by side in one run:

- one step on a kept 20-permanent board through one ``manaplan serve``: a change to the
  kept board with ``castable`` for a new 7-card hand (one request), then one ``pay`` of
  a castable card; beside it the same step sending the whole board with each request,
  and the naive per-source CP-SAT model's 8 solves (7 cards and the payment) in process.
  Steps are taken in rounds (each method's steps back to back: a warm server), and
  once more one at a time with the naive solves between (the server idle between);
- ``best_turn`` for 7 cards at 20 permanents, in process, beside a brute force over
  subsets (most value first) and orders, each order paid exactly by ``sequence``.
"""

from __future__ import annotations

import itertools
import random
import time

from manaplan.protocol.mtg import read as parse_request
from manaplan.queries import answer

import baselines
import boards

HAND_SIZE = 7


def _hand(rng: random.Random, step: int, draw_cost=None) -> list:
    """A 7-card hand: costs from boards.PLAIN_COSTS, or drawn by ``draw_cost(rng)``."""
    draw_cost = draw_cost or (lambda r: r.choice([c for c in boards.PLAIN_COSTS if "X" not in c]))
    return [{"id": f"h{step}_{k}", "mana_cost": draw_cost(rng),
             "type_line": rng.choice(["Creature — Elf", "Instant", "Sorcery"])} for k in range(HAND_SIZE)]


def _change(board: list, rng: random.Random) -> dict:
    """A change between two questions: a land tapped or untapped."""
    pid = rng.choice(board)["id"]
    return {"tapped": [pid]} if rng.random() < 0.5 else {"untapped": [pid]}


#: steps asked back to back in one round of the AI step (the server warm within it)
ROUND = 5


def bench_ai_step(serve, rng: random.Random, repeats: int, results: list, summary, draw_cost=None,
                  family: str = "ai step") -> None:
    """Each step: a land tapped or untapped, ``castable`` for a new 7-card hand, then a
    ``pay`` of the first castable card. Steps go in rounds of ROUND, each method taking
    the round's steps back to back (a warm server, as in the speed issue's interleaved
    rounds), the methods' order turning from round to round; beside them, the same
    steps on a second kept board one at a time, each followed by the naive model's 8
    solves (the server idle about 10 ms between steps, as between an AI's turns). The
    hands' costs are drawn by ``draw_cost`` where given (benchmarks/two_way.py)."""
    rows: dict = {}
    board = boards.plain_board(20, rng)
    state = {p["id"]: False for p in board}
    for name in ("ai", "ai_idle"):  # kept once each
        serve.ask({"board": name, "query": "castable", "hand": _hand(rng, -1, draw_cost), "permanents": board})
    steps = []
    for step in range(repeats):
        change = _change(board, rng)
        for pid in change.get("tapped", []):
            state[pid] = True
        for pid in change.get("untapped", []):
            state[pid] = False
        steps.append((_hand(rng, step, draw_cost), change, [{**p, "tapped": state[p["id"]]} for p in board]))
    castable: dict = {}

    def ask_step(k: int, castable_on: dict, pay_on: dict) -> float:
        """``castable`` for step k's hand, then ``pay`` of its first castable card, each
        request on the board its fields name; the round trips' milliseconds."""
        hand = steps[k][0]
        ms1, cast = serve.ask({"query": "castable", "hand": hand, **castable_on})
        payable = [c["payable"] for c in cast["castable"]]
        pick = next((h for h, ok in zip(hand, payable) if ok), hand[0])
        ms2, paid = serve.ask({"spell": pick, "hand": hand, **pay_on})
        assert paid["payable"] == any(payable)
        assert castable.setdefault(k, payable) == payable
        return ms1 + ms2

    def kept(name: str, k: int) -> float:
        return ask_step(k, {"board": name, "changes": steps[k][1]}, {"board": name})

    def whole(k: int) -> float:
        return ask_step(k, {"permanents": steps[k][2]}, {"permanents": steps[k][2]})

    def naive(k: int) -> float:
        hand, _, full = steps[k]
        t0 = time.perf_counter()
        answers = [baselines.naive_cpsat(parse_request({"spell": card, "permanents": full})) for card in hand]
        baselines.naive_cpsat(parse_request({"spell": next((c for c, ok in zip(hand, answers) if ok), hand[0]),
                                             "permanents": full}))
        ms = (time.perf_counter() - t0) * 1000
        assert castable.setdefault(k, answers) == answers
        return ms

    warm = [("kept board through serve: castable + pay", lambda k: kept("ai", k)),
            ("whole board each request through serve: castable + pay", whole)]
    for r, first in enumerate(range(0, repeats, ROUND)):
        ks = range(first, min(first + ROUND, repeats))
        for phase in (["warm", "idle"] if r % 2 else ["idle", "warm"]):
            if phase == "warm":
                for method, run in (warm if r // 2 % 2 else warm[::-1]):
                    for k in ks:
                        rows.setdefault(method, []).append(run(k))
            else:
                for k in ks:
                    rows.setdefault("kept board through serve, one step at a time (the server idle between)",
                                    []).append(kept("ai_idle", k))
                    rows.setdefault("baseline: naive CP-SAT, 8 solves in process", []).append(naive(k))
    for method, samples in rows.items():
        results.append({"family": family, "size": 20, "method": method, **summary(samples)})


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
