"""The best payment on a plain board, as a small transport problem in CP-SAT.

On a plain board (see :func:`solver.hall.plain_view`: every usable source makes one mana
for ``{T}`` alone, and the cost is colored, ``{C}``, hybrid and generic symbols) each
tapped permanent pays exactly one unit of the cost, so a payment is an assignment of
sources to the cost's unit needs, and the protocol's objective reduces to: fewest
permanents tapped (floating mana first), then the least flexible ones tapped (the
fourth objective), with nothing else in play (no sacrifice, life, exile; floating mana
is what the pool keeps). That is a transportation problem: one integer variable per
kind of source (the set of types it makes, and whether it is floating mana) and kind of
need (the set of types that may pay it) that can meet.

The general model in :mod:`solver.cpsat` finds the same optimum (``tests/test_fuzz.py``
checks that on random plain boards); this one is a fraction of its size to build and to
read back, which matters on the question an AI asks most, and its plan is replayed by
the same validator.
"""

from __future__ import annotations

from collections import Counter

from ..model.cost import Announcement, choice_symbols, total_cost
from ..model.plan import POOL, PaymentLine, Plan, Step
from ..model.problem import PaymentProblem
from ..model.sources import PRECAST_ONLY, flexibility, why_unusable
from ..model.symbols import ALL_TYPES, GENERIC, MANA_TYPES, Symbol

from .cpsat import Status, solve_model
from .hall import hall_certificate, plain_view
from .supply import Supply

def plain_payment(problem: PaymentProblem, supply: Supply, time_limit: float):
    """The answer to a ``pay`` query on a plain board (a :class:`Plan`, not yet
    validated, or an :class:`Unpayable` with its Hall certificate), or None if the board
    or the cost is not plain."""
    if any(why in PRECAST_ONLY for _, _, why in supply.excluded):
        return None  # the general planner says when activating before casting would help
    view = plain_view(problem, supply)
    if view is None:
        return None
    needs, sources, ids = view
    classes = []  # (types made, floating mana?, ids): one cost per class
    for types, who in ids.items():
        pooled = [pid for pid in who if pid == POOL]
        if pooled:
            classes.append((types, True, pooled))
        if len(pooled) < len(who):
            classes.append((types, False, [pid for pid in who if pid != POOL]))
    flows, optimal = _transport(classes, needs, time_limit)
    if flows == Status.INFEASIBLE:  # Hall's condition fails (it is exact here): the violated set is the proof
        return hall_certificate(problem, supply, view)
    if flows is None:
        return None  # no answer in time: the general planner reports it
    return _plan(problem, classes, flows, optimal)


def _transport(classes: list, needs: Counter, time_limit: float):
    """{(class#, need types): units} of the cheapest assignment, and whether it is proved
    optimal; (Status.INFEASIBLE, False) if nothing pays, (None, False) on a timeout.

    A floating mana costs nothing; a permanent costs more than all the flexibility on the
    board, plus its own, so the weighted sum ranks payments by permanents tapped, then
    flexibility (floating mana left is fixed by the first)."""
    if not needs:
        return {}, True
    from ortools.sat.python import cp_model  # lazy, as in solver.cpsat
    LinearExpr = cp_model.LinearExpr
    m = cp_model.CpModel()
    tap_weight = 1 + sum(flexibility(t) * len(who) for t, pooled, who in classes if not pooled)
    flows, by_need, terms, weights = {}, {}, [], []
    for c, (types, pooled, who) in enumerate(classes):
        mine = []
        for need, n in needs.items():
            if types & need:
                v = m.new_int_var(0, min(len(who), n), f"c{c}_{''.join(sorted(types))}_{''.join(sorted(need))}")
                flows[(c, need)] = v
                by_need.setdefault(need, []).append(v)
                mine.append(v)
        if len(mine) > 1:
            m.add(LinearExpr.sum(mine) <= len(who))
        if not pooled:
            terms.extend(mine)
            weights.extend([tap_weight + flexibility(types)] * len(mine))
    for need, n in needs.items():
        if need not in by_need:
            return Status.INFEASIBLE, False  # no source makes any type that pays it
        m.add(LinearExpr.sum(by_need[need]) == n)
    if terms:
        m.minimize(LinearExpr.weighted_sum(terms, weights))
    solver, status = solve_model(m, time_limit, presolve=False)
    if status == Status.INFEASIBLE:
        return status, False
    if not status.solved:
        return None, False
    return {key: solver.value(v) for key, v in flows.items() if solver.value(v)}, status == Status.OPTIMAL


def _plan(problem: PaymentProblem, classes: list, flows: dict, optimal: bool) -> Plan:
    """The assignment as a plan at the table: tap each chosen permanent for the type its
    unit is paid with, announce each hybrid as the half it was paid with (CR 601.2b), then
    pay the locked-in total (601.2h)."""
    perms = {p.id: p for p in problem.board.permanents}
    life = problem.player.life
    units = []  # (need types, mana type, source id)
    left = [list(who) for _, _, who in classes]
    for (c, need), n in sorted(flows.items(), key=lambda kv: (kv[0][0], sorted(kv[0][1]))):
        types = classes[c][0]
        mana = next(t for t in MANA_TYPES if t in types and t in need)
        for _ in range(n):
            units.append((need, mana, left[c].pop(0)))
    steps = []
    for need, mana, pid in units:
        if pid == POOL:
            continue
        index = next(i for i, a in enumerate(perms[pid].abilities)  # one that plain_view counted
                     if why_unusable(perms[pid], a, life) is None and (mana,) in a.output.alternatives)
        steps.append(Step(pid, index, str(perms[pid].abilities[index].cost), (mana,), taps=True))
    cost = problem.spell.cost
    halves_by_types: dict = {}
    for need, mana, pid in units:
        if len(need) == 2:
            halves_by_types.setdefault(need, []).append(mana)
    choices = choice_symbols(cost.added_symbols)
    halves = [halves_by_types[frozenset(s.colors)].pop() for s in choices]
    total = total_cost(cost, Announcement(tuple(halves)))
    generic_symbol = Symbol(GENERIC, (), total.generic)
    generic = [(mana, pid) for need, mana, pid in units if need == ALL_TYPES]
    typed = sorted(((mana, pid) for need, mana, pid in units if need != ALL_TYPES),
                   key=lambda u: MANA_TYPES.index(u[0]))
    payment = [PaymentLine(generic_symbol, mana, pid) for mana, pid in generic]
    payment += [PaymentLine(Symbol.parse("{%s}" % mana), mana, pid) for mana, pid in typed]
    spent = Counter(mana for _, mana, pid in units if pid == POOL)
    floating = []
    for u in problem.player.pool:
        if spent[u.type]:
            spent[u.type] -= 1
        else:
            floating.append(u)
    return Plan(tuple(steps), total, tuple(payment), tuple(floating), tuple(zip(choices, halves)), optimal=optimal)
