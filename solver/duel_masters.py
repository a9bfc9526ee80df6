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

``answer`` returns values (``model.duel_masters.DMPlan``, ``model.plan.Unpayable`` with a
``CivilizationShortfall`` or ``PointsShortfall`` certificate, ``model.plan.Undecided``);
``manaplan.protocol.duel_masters`` reads requests and writes answers. The independent
checks the tests use are ``solver.checks.dm_validator`` and ``solver.checks.dm_reference``;
none of them touches CP-SAT or this module's grouping.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from manaplan.model.duel_masters import (
                                         CIVILIZATION_NAMES, CIVILIZATIONS, PAYS_CIVILIZATION, PAYS_POINTS, POINTS, Civilization,
                                         CivilizationShortfall, DMPlan, DMRequest, DMStep, PointsShortfall, in_game_order,
                                         )
from manaplan.model.errors import SolverTimeout
from manaplan.model.plan import TIME_LIMIT, TIMEOUT, Undecided, Unpayable
from manaplan.solver.hall import hall_shortfall
from manaplan.solver.runtime import Status, solve_in_stages

#: Guard on the whole optimisation (all stages together), in seconds.
TIME_LIMIT_SECONDS = TIME_LIMIT


# --- the mana zone, seen by the solver -----------------------------------------------

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


# --- why a card cannot be paid -----------------------------------------------------

def _words(items) -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _civilization_shortfall(request: DMRequest):
    """The smallest set of the card's civilizations that the untapped cards cannot
    pay with distinct cards, or None.

    By Hall's theorem distinct payers exist for every civilization exactly when every
    set of k civilizations is shared among at least k untapped cards
    (:func:`manaplan.solver.hall.hall_shortfall`, each civilization a bit); a set that is
    not is the proof, and the smallest one is the easiest to read ("needs nature: no
    untapped nature card").
    """
    required = request.required_civilizations
    bit = {civ: 1 << i for i, civ in enumerate(required)}
    cards_by_civilizations: dict = {}  # count once per civilization set, not per subset
    for card in request.untapped:
        cards_by_civilizations[card.civilizations] = cards_by_civilizations.get(card.civilizations, 0) + 1
    sets = [sum(bit[c] for c in civs) for size in range(1, len(required) + 1)
            for civs in itertools.combinations(required, size)]
    sources = [(sum(bit.get(c, 0) for c in have), n) for have, n in cards_by_civilizations.items()]
    found = hall_shortfall(sets, [(b, 1) for b in bit.values()], sources)
    if found is None:
        return None
    civs = tuple(c for c in required if found[0] & bit[c])
    wanted = set(civs)
    return civs, sorted(card.id for card in request.untapped if card.civilizations & wanted)


def unpayable_reason(request: DMRequest) -> Unpayable | None:
    """Why no tapping pays the card, with its certificate; None if one does.

    A payment exists exactly when the civilizations have distinct payers and the whole
    untapped zone reaches the cost: then tapping the payers and every other untapped
    card pays, overpaying being allowed as far as the civilizations need.

    >>> from manaplan.model.duel_masters import DMCard, ManaCard
    >>> unpayable_reason(DMRequest(DMCard("Faerie Life", 2, {"nature"}), (ManaCard("f1", {"fire"}),)))
    Unpayable(code='civilizations', message='needs nature: no untapped nature card in the mana zone', \
certificate=CivilizationShortfall(civilizations=(Civilization(name='nature'),), sources=()), \
before_casting=(), detail='')
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
        return Unpayable(CIVILIZATIONS, message, CivilizationShortfall(tuple(civs), tuple(sources)))
    needed = request.cost_to_pay
    available = sum(card.mana_number for card in request.untapped)
    if available < needed:
        return Unpayable(POINTS,
                         f"needs {needed} point{'s' if needed != 1 else ''}; "
                         f"the untapped mana zone gives at most {available}",
                         PointsShortfall(needed, available))
    return None


# --- the best tapping (CP-SAT) -----------------------------------------------------

@dataclass(frozen=True, slots=True)
class Tapping:
    """A chosen payment: who paid each civilization, and who was tapped for points only."""

    payers: tuple   # (Civilization, card id), in game order
    others: tuple   # card ids tapped for points only


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

    from manaplan.solver.runtime import new_model

    model = new_model()
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

    solver, status = solve_in_stages(model, [points, cards, civilizations_tapped, scarcity],
                                     tapped + list(pays.values()), time_limit)
    if status == Status.INFEASIBLE:  # feasibility was proven before: a bug, not an answer
        raise AssertionError("CP-SAT says infeasible for a payable request")
    if status != Status.OPTIMAL:
        raise SolverTimeout()

    unused = {i: list(g.ids[:solver.value(tapped[i])]) for i, g in enumerate(groups)}
    payers = []
    for c in required:
        i = next(i for i in range(len(groups)) if (i, c) in pays and solver.boolean_value(pays[i, c]))
        payers.append((c, unused[i].pop(0)))
    others = [card_id for i in range(len(groups)) for card_id in unused[i]]
    return Tapping(tuple(payers), tuple(others))


def _plan(request: DMRequest, tapping: Tapping) -> DMPlan:
    """The plan: civilization payers first, then the points (the official order is
    civilizations, then the missing points, seed 004 補足). A card tapped for points
    makes mana of the first of its civilizations in game order."""
    by_id = {card.id: card for card in request.untapped}
    steps = [DMStep(card_id, civ, by_id[card_id].mana_number, PAYS_CIVILIZATION)
             for civ, card_id in tapping.payers]
    for card_id in tapping.others:
        card = by_id[card_id]
        made = in_game_order(card.civilizations)
        steps.append(DMStep(card_id, made[0] if made else None, card.mana_number, PAYS_POINTS))
    return DMPlan(tuple(steps), request.cost_to_pay)


def answer(problem: DMRequest, time_limit: float = TIME_LIMIT_SECONDS) -> DMPlan | Unpayable | Undecided:
    """Answer a Duel Masters payment problem.

    A payable card gets the best plan (a ``DMPlan``); an unpayable one an ``Unpayable``
    whose certificate ``solver.checks.dm_reference.check_certificate`` accepts; a solver
    timeout an ``Undecided`` with code ``"timeout"``, never ``Unpayable``.

    >>> from manaplan.model.duel_masters import DMCard, ManaCard
    >>> plan = answer(DMRequest(DMCard("Faerie Life", 2, {"nature"}),
    ...     (ManaCard("f1", {"fire"}), ManaCard("f2", {"fire"}), ManaCard("n1", {"nature"}))))
    >>> plan.tapped, {str(c): card for c, card in plan.civilizations.items()}
    (('n1', 'f1'), {'nature': 'n1'})
    """
    reason = unpayable_reason(problem)
    if reason is not None:
        return reason
    try:
        tapping = _solve_best_tapping(problem, time_limit)
    except SolverTimeout:
        return Undecided(TIMEOUT,
                         f"no best payment was proven within {time_limit:g} s; the mana zone can pay "
                         f"this card, but the plan that overpays least was not found in time",
                         time_limit)
    return _plan(problem, tapping)

