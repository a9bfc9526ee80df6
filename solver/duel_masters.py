"""Paying for a Duel Masters card: the best tapping of the mana zone, or why there is none.

The rules (seed 004, DM Wiki "マナ", summarised in rules.md section 6):

* a tapped mana-zone card gives its mana number in points, in ONE of its civilizations;
* each civilization of the card to play needs a DIFFERENT tapped card that paid it
  (「それ1枚で文明の支払いを済ませることはできない」);
* the points tapped must reach the cost to pay, and must not exceed it, except as far
  as finishing the civilizations needs (「コストの点数の範囲内で文明の支払いを終了させる
  ことができない場合に限り、余分にマナをタップすることが認められる」). Read exactly: the
  points tapped are the fewest of any tapping that pays every civilization with distinct
  cards and reaches the cost. Two fire and one nature card paying a cost-2 nature card
  tap nature + one fire; tapping all three is illegal (the seed's フェアリー・ライフ example).

Among the legal tappings (fewest points) the plan is the best by, in order:

1. the fewest cards tapped (no 0-point rainbow card is tapped for nothing);
2. the fewest civilizations on the tapped cards: a card with more civilizations can pay
   more later, so it is tapped last (the protocol's default objective);
3. the lowest scarcity: tapping a card costs, for each of its civilizations, the number
   of untapped cards that lack that civilization, so the last sources of a rare
   civilization stay untapped;
4. then a fixed canonical choice: identical cards are interchangeable and the ones with
   the smallest ids are tapped; ties between different kinds are left to CP-SAT, which
   is deterministic (one worker) on a model built in a canonical order. So the answer
   does not depend on the order of the mana zone.

Feasibility is decided exactly in plain Python (Hall's condition over the card's
civilizations, and the points in the untapped zone), which also gives the certificate
of an unpayable answer; CP-SAT then finds the best tapping on a model whose size does
not grow with the zone: identical cards are grouped into integer counts.

``validate``, ``reference_search`` and ``check_certificate`` are the independent
checks the tests use; none of them touches CP-SAT.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Any

from ..model.duel_masters import (
    CIVILIZATION_NAMES, Civilization, DMRequest, in_game_order, parse_request,
)

#: Guard on the whole optimisation (all stages together), in seconds.
TIME_LIMIT_SECONDS = 10.0

#: ``reference_search`` tries every subset; beyond this many untapped cards it refuses.
REFERENCE_SEARCH_LIMIT = 12


# --- the request, seen by the solver ------------------------------------------------

def _as_request(request: Any) -> DMRequest:
    return request if isinstance(request, DMRequest) else parse_request(request)


@dataclass(frozen=True, slots=True)
class ManaGroup:
    """Untapped mana-zone cards that are interchangeable for paying: the same
    civilizations and mana number. ``ids`` are sorted, and a plan taps a prefix."""

    civilizations: frozenset
    mana_number: int
    ids: tuple

    @property
    def size(self) -> int:
        return len(self.ids)

    @property
    def sort_key(self) -> tuple:
        return (self.mana_number, len(self.civilizations),
                tuple(c.order for c in in_game_order(self.civilizations)))


def group_mana_zone(request: DMRequest) -> tuple:
    """The untapped cards grouped by kind, in a canonical order that does not depend
    on the order of the mana zone (at most 32 civilization sets per mana number)."""
    ids_by_kind: dict = {}
    for card in request.untapped:
        ids_by_kind.setdefault(card.kind, []).append(card.id)
    groups = (ManaGroup(civs, number, tuple(sorted(ids))) for (civs, number), ids in ids_by_kind.items())
    return tuple(sorted(groups, key=lambda g: g.sort_key))


def scarcity_weights(request: DMRequest) -> dict:
    """For each civilization, how many untapped cards lack it: tapping a card that has
    a civilization few cards have costs more (tiebreak 3 of the objective)."""
    lacking = {Civilization(n): 0 for n in CIVILIZATION_NAMES}
    for card in request.untapped:
        for c in lacking:
            if c not in card.civilizations:
                lacking[c] += 1
    return lacking


def objective(request: Any, tapped_ids) -> tuple:
    """The objective of a tapping, minimised lexicographically:
    (points, cards tapped, civilizations on the tapped cards, scarcity)."""
    request = _as_request(request)
    weights = scarcity_weights(request)
    by_id = {card.id: card for card in request.mana_zone}
    cards = [by_id[card_id] for card_id in tapped_ids]
    return (sum(card.mana_number for card in cards),
            len(cards),
            sum(len(card.civilizations) for card in cards),
            sum(weights[c] for card in cards for c in card.civilizations))


# --- why a card cannot be paid -----------------------------------------------------

def _words(items) -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _civilization_shortfall(request: DMRequest):
    """The smallest set of the card's civilizations that the untapped cards cannot
    pay with distinct cards, or None.

    By Hall's theorem distinct payers exist for every civilization exactly when every
    set of k civilizations is shared among at least k untapped cards; a set that is not
    is the proof, and the smallest one is the easiest to read ("needs nature: no
    untapped nature card").
    """
    required = request.required_civilizations
    cards_by_civilizations: dict = {}  # count once per civilization set, not per subset
    for card in request.untapped:
        cards_by_civilizations[card.civilizations] = cards_by_civilizations.get(card.civilizations, 0) + 1
    for size in range(1, len(required) + 1):
        for civs in itertools.combinations(required, size):
            wanted = set(civs)
            sharing = sum(n for have, n in cards_by_civilizations.items() if have & wanted)
            if sharing < size:
                return civs, sorted(card.id for card in request.untapped if card.civilizations & wanted)
    return None


def unpayable_reason(request: DMRequest) -> dict | None:
    """The reason, with its certificate, why no tapping pays the card; None if one does.

    A payment exists exactly when the civilizations have distinct payers and the whole
    untapped zone reaches the cost: then tapping the payers and every other untapped
    card pays, overpaying being allowed as far as the civilizations need.
    """
    shortfall = _civilization_shortfall(request)
    if shortfall is not None:
        civs, sources = shortfall
        names = [str(c) for c in civs]
        if len(civs) == 1:
            tapped = sorted(card.id for card in request.mana_zone if card.tapped and card.has(civs[0]))
            message = f"needs {names[0]}: no untapped {names[0]} card in the mana zone"
            if tapped:
                message += f" ({_words(tapped)} {'is' if len(tapped) == 1 else 'are'} tapped)"
        else:
            message = (f"needs {_words(names)}, each paid by a different card: only {len(sources)} "
                       f"untapped card{'s' if len(sources) != 1 else ''} "
                       f"{'has' if len(sources) == 1 else 'have'} {'either' if len(civs) == 2 else 'any'} "
                       f"of them ({_words(sources)}), and a card pays only one civilization")
        return {"code": "civilizations", "message": message, "civilizations": names, "sources": sources}
    needed = request.cost_to_pay
    available = sum(card.mana_number for card in request.untapped)
    if available < needed:
        return {"code": "points",
                "message": f"needs {needed} point{'s' if needed != 1 else ''}; "
                           f"the untapped mana zone gives at most {available}",
                "needed": needed, "available": available}
    return None


# --- the best tapping (CP-SAT) -----------------------------------------------------

@dataclass(frozen=True, slots=True)
class Tapping:
    """A chosen payment: who paid each civilization, and who was tapped for points only."""

    payers: tuple   # (Civilization, card id), in game order
    others: tuple   # card ids tapped for points only


class SolverTimeout(Exception):
    """CP-SAT did not prove an optimum within the time limit."""


def _most_worth_tapping(group: ManaGroup, required: tuple, need: int) -> int:
    """How many cards of ``group`` a best tapping can hold: one per civilization of the
    card it shares, plus for points alone no more than ``ceil(need / mana number)``
    (one more would leave the cost reached without it: fewer points), and no 0-point
    card for points alone (the same points with fewer cards). Tightening the domains
    keeps every best tapping and spares CP-SAT the copies that never matter."""
    payers = sum(1 for c in required if c in group.civilizations)
    for_points = -(-need // group.mana_number) if group.mana_number else 0
    return min(group.size, payers + for_points)


def _solve_best_tapping(request: DMRequest, time_limit: float) -> Tapping:
    """Minimise the objective stage by stage, fixing each optimum before the next.

    One integer per group (how many of its cards are tapped) and one Boolean per group
    and civilization of the card (that group pays it): the model stays the same size
    however many copies the zone holds. Stages rather than one weighted sum: the
    weights a lexicographic sum needs grow with the zone and its mana numbers, and
    each stage is a small solve that starts from the previous solution.
    """
    groups = group_mana_zone(request)
    required = request.required_civilizations
    if not groups:  # nothing to tap: feasibility was checked, so nothing is needed
        return Tapping((), ())

    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    tapped = [model.new_int_var(0, _most_worth_tapping(g, required, request.cost_to_pay), f"tapped[{i}]")
              for i, g in enumerate(groups)]
    pays = {(i, c): model.new_bool_var(f"pays[{i},{c}]")
            for i, g in enumerate(groups) for c in required if c in g.civilizations}
    for c in required:  # each civilization by exactly one card ...
        model.add_exactly_one(pays[i, c] for i in range(len(groups)) if (i, c) in pays)
    for i in range(len(groups)):  # ... and a card pays at most one civilization
        model.add(sum(pays[i, c] for c in required if (i, c) in pays) <= tapped[i])

    weights = scarcity_weights(request)
    LinearExpr = cp_model.LinearExpr
    points = LinearExpr.weighted_sum(tapped, [g.mana_number for g in groups])
    cards = LinearExpr.sum(tapped)
    civilizations_tapped = LinearExpr.weighted_sum(tapped, [len(g.civilizations) for g in groups])
    scarcity = LinearExpr.weighted_sum(tapped, [sum(weights[c] for c in g.civilizations) for g in groups])
    model.add(points >= request.cost_to_pay)

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.symmetry_level = 0
    solver.parameters.cp_model_probing_level = 0
    deadline = time.monotonic() + time_limit
    every_variable = tapped + list(pays.values())
    for stage in (points, cards, civilizations_tapped, scarcity):
        model.minimize(stage)
        solver.parameters.max_time_in_seconds = max(deadline - time.monotonic(), 0.0)
        status = solver.solve(model)
        if status in (cp_model.FEASIBLE, cp_model.UNKNOWN):
            raise SolverTimeout()
        if status != cp_model.OPTIMAL:  # feasibility was proven before: a bug, not an answer
            raise AssertionError(f"CP-SAT says {solver.status_name(status)} for a payable request")
        model.add(stage == round(solver.objective_value))
        model.clear_hints()
        for variable in every_variable:
            model.add_hint(variable, solver.value(variable))

    unused = {i: list(g.ids[:solver.value(tapped[i])]) for i, g in enumerate(groups)}
    payers = []
    for c in required:
        i = next(i for i in range(len(groups)) if (i, c) in pays and solver.boolean_value(pays[i, c]))
        payers.append((c, unused[i].pop(0)))
    others = [card_id for i in range(len(groups)) for card_id in unused[i]]
    return Tapping(tuple(payers), tuple(others))


def _plan(request: DMRequest, tapping: Tapping) -> dict:
    """The protocol's plan: civilization payers first, then the points (the official
    order is civilizations, then the missing points, seed 004 補足)."""
    steps = []
    by_id = {card.id: card for card in request.untapped}
    for civ, card_id in tapping.payers:
        card = by_id[card_id]
        steps.append({"card": card_id, "civilization": str(civ), "points": card.mana_number,
                      "pays": "civilization"})
    for card_id in tapping.others:
        card = by_id[card_id]
        made = in_game_order(card.civilizations)
        steps.append({"card": card_id, "civilization": str(made[0]) if made else None,
                      "points": card.mana_number, "pays": "points"})
    points = sum(step["points"] for step in steps)
    return {"tapped": [step["card"] for step in steps],
            "civilizations": {str(civ): card_id for civ, card_id in tapping.payers},
            "points": points,
            "excess": points - request.cost_to_pay,
            "sacrificed": [],
            "life_paid": 0,
            "steps": steps}


def answer(request: Any, *, time_limit: float = TIME_LIMIT_SECONDS) -> dict:
    """Answer a Duel Masters payment request (a protocol dict or a ``DMRequest``).

    Bad input raises ``RequestError`` (with ``at``). A payable card gets the best plan;
    an unpayable one a reason whose certificate ``check_certificate`` accepts; a solver
    timeout gets ``payable: None`` and code ``"timeout"``, never ``false``.

    >>> r = answer({"card": {"name": "Faerie Life", "cost": 2, "civilizations": ["nature"]},
    ...             "mana_zone": [{"id": "f1", "civilizations": ["fire"]},
    ...                           {"id": "f2", "civilizations": ["fire"]},
    ...                           {"id": "n1", "civilizations": ["nature"]}]})
    >>> r["payable"], r["plan"]["tapped"], r["plan"]["civilizations"]
    (True, ['n1', 'f1'], {'nature': 'n1'})
    """
    request = _as_request(request)
    response: dict = {"id": request.id, "payable": False, "total_cost": request.cost_to_pay,
                      "plan": None, "reason": None}
    reason = unpayable_reason(request)
    if reason is not None:
        response["reason"] = reason
        return response
    try:
        tapping = _solve_best_tapping(request, time_limit)
    except SolverTimeout:
        response["payable"] = None
        response["reason"] = {
            "code": "timeout",
            "message": f"no best payment was proven within {time_limit:g} s; the mana zone can pay "
                       f"this card, but the plan that overpays least was not found in time",
            "time_limit": time_limit}
        return response
    response["payable"] = True
    response["plan"] = _plan(request, tapping)
    return response


# --- independent checks (no CP-SAT) ------------------------------------------------

def minimum_legal_points(request: Any) -> int | None:
    """The fewest points of any tapping that pays each civilization with a distinct
    card and reaches the cost (the overpayment rule's bound), or None if none exists.

    A dynamic programme over the cards one by one, with states (civilizations paid so
    far, points so far). For a given set of civilizations paid only the smallest total
    that already reaches the cost matters, so the states stay few.
    """
    request = _as_request(request)
    required = request.required_civilizations
    bit = {c: 1 << i for i, c in enumerate(required)}
    everything = (1 << len(required)) - 1
    need = request.cost_to_pay

    def tidy(sums: set) -> set:
        reached = [s for s in sums if s >= need]
        return {s for s in sums if s < need} | ({min(reached)} if reached else set())

    states: dict = {0: {0}}
    for card in request.untapped:
        grown = {mask: set(sums) for mask, sums in states.items()}
        for mask, sums in states.items():
            for total in sums:
                after = total + card.mana_number
                grown.setdefault(mask, set()).add(after)        # tapped for points
                for c in card.civilizations:                    # or to pay one civilization
                    if c in bit and not mask & bit[c]:
                        grown.setdefault(mask | bit[c], set()).add(after)
        states = {mask: tidy(sums) for mask, sums in grown.items()}
    finished = [s for s in states.get(everything, ()) if s >= need]
    return min(finished) if finished else None


def validate(request: Any, plan: Any) -> list:
    """Replay ``plan`` step by step against the rules; return the problems (none = legal).

    Checks: every step taps a mana-zone card that exists and was untapped, once; it
    makes mana of one of its own civilizations and its mana number in points; every
    civilization of the card is paid by its own card that has it; the points reach the
    cost; and the points are the fewest any legal tapping needs (overpayment rule, seed
    004), computed independently by ``minimum_legal_points``. The summary fields
    (``tapped``, ``civilizations``, ``points``) must agree with the steps.
    """
    request = _as_request(request)
    if not isinstance(plan, dict):
        return [f"the plan must be an object, not {plan!r}"]
    steps = plan.get("steps")
    if not isinstance(steps, list):
        return ["the plan has no list of steps"]
    problems = []
    by_id = {card.id: card for card in request.mana_zone}
    required = {str(c) for c in request.required_civilizations}
    tapped_now: list = []
    paid_by: dict = {}
    points = 0
    for n, step in enumerate(steps):
        card_id = step.get("card") if isinstance(step, dict) else None
        card = by_id.get(card_id)
        if card is None:
            problems.append(f"step {n}: no card {card_id!r} in the mana zone")
            continue
        if card.tapped:
            problems.append(f"step {n}: {card_id} was already tapped, and a tapped card gives nothing")
        if card_id in tapped_now:
            problems.append(f"step {n}: {card_id} is tapped a second time")
        tapped_now.append(card_id)
        if step.get("points") != card.mana_number:
            problems.append(f"step {n}: {card_id} gives {card.mana_number} points, not {step.get('points')!r}")
        points += card.mana_number
        own = {str(c) for c in card.civilizations}
        made = step.get("civilization")
        if made is None and own:
            problems.append(f"step {n}: {card_id} must make mana of one of its civilizations")
        elif made is not None and made not in own:
            problems.append(f"step {n}: {card_id} cannot make {made!r} mana (it has {sorted(own) or 'none'})")
        if step.get("pays") == "civilization":
            if made not in required:
                problems.append(f"step {n}: {card_id} pays {made!r}, which the card does not need")
            elif made in paid_by:
                problems.append(f"step {n}: {made} is already paid by {paid_by[made]}")
            else:
                paid_by[made] = card_id
        elif step.get("pays") != "points":
            problems.append(f"step {n}: pays must be 'civilization' or 'points', not {step.get('pays')!r}")
    for civ in sorted(required - paid_by.keys(), key=CIVILIZATION_NAMES.index):
        problems.append(f"{civ} is not paid by any tapped card")
    need = request.cost_to_pay
    if points < need:
        problems.append(f"{points} points tapped; the cost to pay is {need}")
    fewest = minimum_legal_points(request)
    if fewest is None:
        problems.append("no legal payment exists, yet a plan was given")
    elif points > fewest:
        problems.append(f"overpays: {points} points tapped where {fewest} pay the cost and every "
                        f"civilization (tapping more than needed is not allowed, seed 004)")
    if not isinstance(plan.get("tapped"), list) or sorted(map(str, plan["tapped"])) != sorted(tapped_now) \
            or len(plan["tapped"]) != len(tapped_now):
        problems.append(f"tapped {plan.get('tapped')!r} does not list the cards the steps tap {tapped_now!r}")
    if plan.get("civilizations") != paid_by:
        problems.append(f"civilizations {plan.get('civilizations')!r} disagree with the steps {paid_by!r}")
    if plan.get("points") != points:
        problems.append(f"points {plan.get('points')!r}; the steps give {points}")
    if plan.get("sacrificed", []) != [] or plan.get("life_paid", 0) != 0:
        problems.append("Duel Masters payments neither sacrifice nor pay life")
    return problems


def _pays_every_civilization(required: tuple, cards: tuple) -> bool:
    """Whether distinct cards among ``cards`` can pay each civilization (brute force)."""
    return any(all(card.has(c) for card, c in zip(chosen, required))
               for chosen in itertools.permutations(cards, len(required)))


def reference_search(request: Any, *, tiebreak: bool = False) -> tuple | None:
    """The optimum by trying every subset of the untapped cards: (points, cards tapped),
    or the whole objective with ``tiebreak=True``; None if nothing pays.

    Slow and plain on purpose: it is the oracle the CP-SAT model is tested against.
    """
    request = _as_request(request)
    cards = request.untapped
    if len(cards) > REFERENCE_SEARCH_LIMIT:
        raise ValueError(f"reference_search tries every subset; {len(cards)} untapped cards is too many")
    required = request.required_civilizations
    need = request.cost_to_pay
    best = None
    for size in range(len(cards) + 1):
        for chosen in itertools.combinations(cards, size):
            if sum(card.mana_number for card in chosen) < need:
                continue
            if not _pays_every_civilization(required, chosen):
                continue
            key = objective(request, [card.id for card in chosen])
            key = key if tiebreak else key[:2]
            best = key if best is None or key < best else best
    return best


def check_certificate(request: Any, reason: Any) -> bool:
    """Whether ``reason`` proves that no tapping pays the card.

    ``civilizations``: the listed civilizations are the card's, and the untapped cards
    having any of them (recomputed here) are exactly ``sources`` and fewer than the
    civilizations, so distinct payers cannot exist; a maximum matching (networkx) must
    agree. ``points``: ``needed`` is the cost to pay and ``available``, the points of
    the whole untapped zone (recomputed), falls short.
    """
    request = _as_request(request)
    if not isinstance(reason, dict):
        return False
    if reason.get("code") == "civilizations":
        names = reason.get("civilizations")
        sources = reason.get("sources")
        if not isinstance(names, list) or not names or not isinstance(sources, list):
            return False
        card_civilizations = {str(c) for c in request.card.civilizations}
        if len(set(names)) != len(names) or not set(names) <= card_civilizations:
            return False
        having = sorted(card.id for card in request.untapped
                        if {str(c) for c in card.civilizations} & set(names))
        if sorted(sources) != having or len(having) >= len(names):
            return False
        return _maximum_matching_size(request) < len(request.card.civilizations)
    if reason.get("code") == "points":
        available = sum(card.mana_number for card in request.untapped)
        return (reason.get("needed") == request.cost_to_pay and reason.get("available") == available
                and available < request.cost_to_pay)
    return False


def _maximum_matching_size(request: DMRequest) -> int:
    """How many of the card's civilizations distinct untapped cards can pay at once."""
    import networkx as nx

    graph = nx.Graph()
    civs = [("civilization", str(c)) for c in request.required_civilizations]
    graph.add_nodes_from(civs)
    for card in request.untapped:
        for c in card.civilizations:
            if ("civilization", str(c)) in graph:
                graph.add_edge(("civilization", str(c)), ("card", card.id))
    matching = nx.bipartite.hopcroft_karp_matching(graph, top_nodes=civs)
    return sum(1 for node in civs if node in matching)
