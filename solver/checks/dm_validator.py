"""An independent checker of a Duel Masters plan: it replays the plan value step by
step, as a judge would at the table.

It uses no CP-SAT and none of the solver's grouping: only the values of
``model.duel_masters``, and for the overpayment rule the fewest legal points computed
independently by ``dm_reference.minimum_legal_points``.

>>> from manaplan.model.duel_masters import (DMCard, DMPlan, DMRequest, DMStep, FIRE, ManaCard,
...     NATURE)
>>> faerie_life = DMRequest(DMCard("Faerie Life", 2, {"nature"}),
...     (ManaCard("f1", {"fire"}), ManaCard("f2", {"fire"}), ManaCard("n1", {"nature"})))
>>> validate(faerie_life, DMPlan((DMStep("n1", NATURE, 1, "civilization"), DMStep("f1", FIRE, 1, "points")), 2))
[]
>>> validate(faerie_life, DMPlan((DMStep("n1", NATURE, 1, "civilization"), DMStep("f1", FIRE, 1, "points"),
...                               DMStep("f2", FIRE, 1, "points")), 2))  # doctest: +ELLIPSIS
['overpays: 3 points tapped where 2 pay the cost and every civilization ...']
"""

from __future__ import annotations

from manaplan.model.duel_masters import (
                                         CIVILIZATION_NAMES, PAYS_CIVILIZATION, PAYS_POINTS, DMPlan, DMRequest, DMStep,
                                         )
from manaplan.solver.checks.dm_reference import minimum_legal_points


def validate(problem: DMRequest, plan: DMPlan) -> list:
    """Replay ``plan`` step by step against the rules; return the problems (none = legal).

    Checks: every step taps a mana-zone card that exists and was untapped, once; it
    makes mana of one of its own civilizations (none only for a card that has none) and
    its mana number in points; every civilization of the card is paid by its own card
    that has it; the points reach the cost; and the points are the fewest any legal
    tapping needs (overpayment rule, seed 004: 「コストの点数の範囲内で文明の支払いを
    終了させることができない場合に限り、余分にマナをタップすることが認められる」),
    computed independently by ``minimum_legal_points``. The plan must be for this
    card's cost to pay.
    """
    if not isinstance(plan, DMPlan):
        return [f"the plan must be a Duel Masters plan, not {plan!r}"]
    problems = []
    by_id = {card.id: card for card in problem.mana_zone}
    required = {str(c) for c in problem.required_civilizations}
    tapped_now: list = []
    paid_by: dict = {}
    points = 0
    for n, step in enumerate(plan.steps):
        if not isinstance(step, DMStep):
            problems.append(f"step {n}: not a step: {step!r}")
            continue
        card_id = step.card
        card = by_id.get(card_id)
        if card is None:
            problems.append(f"step {n}: no card {card_id!r} in the mana zone")
            continue
        if card.tapped:
            problems.append(f"step {n}: {card_id} was already tapped, and a tapped card gives nothing")
        if card_id in tapped_now:
            problems.append(f"step {n}: {card_id} is tapped a second time")
        tapped_now.append(card_id)
        if step.points != card.mana_number:
            problems.append(f"step {n}: {card_id} gives {card.mana_number} points, not {step.points!r}")
        points += card.mana_number
        own = {str(c) for c in card.civilizations}
        made = None if step.civilization is None else str(step.civilization)
        if made is None and own:
            problems.append(f"step {n}: {card_id} must make mana of one of its civilizations")
        elif made is not None and made not in own:
            problems.append(f"step {n}: {card_id} cannot make {made!r} mana (it has {sorted(own) or 'none'})")
        if step.pays == PAYS_CIVILIZATION:
            if made not in required:
                problems.append(f"step {n}: {card_id} pays {made!r}, which the card does not need")
            elif made in paid_by:
                problems.append(f"step {n}: {made} is already paid by {paid_by[made]}")
            else:
                paid_by[made] = card_id
        elif step.pays != PAYS_POINTS:
            problems.append(f"step {n}: pays must be {PAYS_CIVILIZATION!r} or {PAYS_POINTS!r}, not {step.pays!r}")
    for civ in sorted(required - paid_by.keys(), key=CIVILIZATION_NAMES.index):
        problems.append(f"{civ} is not paid by any tapped card")
    need = problem.cost_to_pay
    if plan.cost_to_pay != need:
        problems.append(f"the plan is for a cost to pay of {plan.cost_to_pay!r}; the card's is {need}")
    if points < need:
        problems.append(f"{points} points tapped; the cost to pay is {need}")
    fewest = minimum_legal_points(problem)
    if fewest is None:
        problems.append("no legal payment exists, yet a plan was given")
    elif points > fewest:
        problems.append(f"overpays: {points} points tapped where {fewest} pay the cost and every "
                        f"civilization (tapping more than needed is not allowed, seed 004)")
    return problems
