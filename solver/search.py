"""The search machinery every query shares: the time guard (:class:`Budget`), one
payment's deepening through the layers of its chains (:func:`best_plan`), a turn's
(:func:`deepening`), and the validator that every plan passes before it leaves
(:func:`check_plan`, :func:`check_in_order`).

How deep chains may go (layers of abilities paid by earlier abilities) is chosen so the
answer stays exact without modelling every possible depth: relaxed models (their last
layer stands for every deeper activation) bound every plan from below, strict ones give
real plans, and the depth grows (1, 3, 8, then each payment's deepest chain:
``solver.chains``) until the two meet.
"""

from __future__ import annotations

import time
from dataclasses import replace

from manaplan.model.errors import InvalidPlan, ModelTooLarge, OutOfTime
from manaplan.model.plan import TIMEOUT, Plan, Undecided, on_board
from manaplan.model.problem import PAY, PaymentProblem
from manaplan.solver.chains import activation_bound, depth_bound
from manaplan.solver.checks.validator import validate_plan
from manaplan.solver.cpsat import PaymentModel
from manaplan.solver.runtime import Status
from manaplan.solver.supply import Supply
from manaplan.solver.turn import Depth


#: depths tried before the exact one: most chains are one Signet or filter deep
DEPTHS = (1, 3, 8)


#: once the funding graph bounds the depth (solver.chains.depth_bound) this low, the
#: exact model is solved next, without the depths between (measured on converter
#: boards: a strict model of 11 layers takes about 20 ms, the relaxed and strict pairs at
#: 3 and 8 layers about 30 ms)
EXACT_NEXT = 16


#: the least time a solve is given (seconds), when the question's time is nearly gone
MOMENT = 0.01


class Budget:
    """The time guard of one question, shared by every solve it needs (the exact depths,
    the hint about abilities before casting, each X that max_x tries)."""

    def __init__(self, seconds: float, started: float | None = None):
        self.seconds = seconds
        self.deadline = (time.monotonic() if started is None else started) + seconds

    def left(self) -> float:
        """What a solve may take now: the time left, and at least a moment (10 ms: a
        question whose time is gone still gets one short solve, not one per step: issue
        29, a best_turn with 1 ms took 250 ms at 50 ms a solve)."""
        return max(MOMENT, self.deadline - time.monotonic())

    @property
    def spent(self) -> bool:
        return time.monotonic() >= self.deadline

    def undecided(self) -> Undecided:
        return Undecided(TIMEOUT, f"no answer within {self.seconds:g} s; neither a plan nor a proof was found")


def too_large(e: ModelTooLarge) -> Undecided:
    """The answer where the model a question needs is larger than manaplan builds."""
    return Undecided(TIMEOUT, f"no answer: the chains of abilities on this board would need a model of "
                              f"{e.cells:,} cells (layers times abilities), more than the {e.most:,} "
                              f"manaplan builds; neither a plan nor a proof was found")


def best_plan(problem: PaymentProblem, supply: Supply, x, budget: Budget):
    """The optimal plan's model and solver and whether optimality was proven, or
    Status.INFEASIBLE, or Status.UNKNOWN (no answer in time).

    Chains are searched layer by layer: with L layers, the relaxed model (its last layer
    standing for every deeper activation) bounds every plan of any depth from below. If
    its optimum funds nothing inside that last layer, it is a real plan and optimal; if
    the strict L-layer model reaches the same objective, that one is; if the relaxation
    is infeasible, nothing pays. Otherwise L grows (1, 3, 8, then all the way) to the
    deepest chain any plan can have, where the strict model is exact: first bounded by
    counting every activation that costs mana (:func:`solver.chains.activation_bound`),
    then, once one depth has not settled it, by the graph of which ability can fund
    which (:func:`solver.chains.depth_bound`). On the benchmark's chain boards the first
    relaxed solve settles nearly every query; boards with abilities that cost mana
    without tapping (Orochi Leafcaller) need the deeper models.
    """
    if supply.doubles:
        return _best_plan_doubling(problem, supply, x, budget)
    full, tightened = activation_bound(supply), False
    layers = min(full, DEPTHS[0])
    found = None  # the deepest strict plan yet: the answer, not proven best, if nothing better comes
    try:
        while True:
            if layers >= full:
                model, solver, status = solve_payment(problem, supply, layers, x, budget)
                if status.solved:
                    return model, solver, status == Status.OPTIMAL
                return found if found is not None and status == Status.UNKNOWN else status
            relaxed, rsolver, rstatus = solve_payment(problem, supply, layers, x, budget, relaxed=True)
            if rstatus == Status.INFEASIBLE:
                return rstatus
            if rstatus == Status.OPTIMAL and relaxed.tail_is_real(rsolver):
                return relaxed, rsolver, True
            model, solver, status = solve_payment(problem, supply, layers, x, budget)
            if rstatus == status == Status.OPTIMAL and model.objective_tuple(solver) == relaxed.objective_tuple(rsolver):
                return model, solver, True
            if status.solved:
                found = (model, solver, False)
            if not tightened:
                full, tightened = depth_bound(supply), True
                if layers >= full:  # the strict model just solved is deep enough: exact
                    return (model, solver, status == Status.OPTIMAL) if status.solved else status
            if budget.spent:
                return found or Status.UNKNOWN
            layers = full if full <= EXACT_NEXT else min([d for d in DEPTHS if d > layers] + [full])
    except ModelTooLarge:
        if found is None:
            raise
        return found  # (a real plan, the deepest one that could be built)


def _best_plan_doubling(problem: PaymentProblem, supply: Supply, x, budget: Budget):
    """:func:`best_plan` on a board with a doubling (Doubling Cube), whose amount is the
    pool at one point of the plan: a model whose layers fund themselves, one for each
    stretch between doublings, is a relaxation of every plan (its "no" is a proof, its
    optimum a lower bound); strict models of growing depth find the plan, optimal once it
    reaches that bound, or once the depth is that of the deepest chain."""
    full = depth_bound(supply)
    bound = None
    relaxed, rsolver, rstatus = solve_self_funding(problem, supply, x, budget)
    if rstatus == Status.INFEASIBLE:
        return rstatus
    if rstatus == Status.OPTIMAL:
        bound = relaxed.objective_tuple(rsolver)
    layers, found = min(full, DEPTHS[0]), None
    while True:
        # once a plan is in hand, a deeper model may take half the time left: the plan, not
        # proven best ("optimal": false), still goes out checked within the time guard
        guard = budget if found is None else Budget(budget.left() / 2)
        model, solver, status = solve_payment(problem, supply, layers, x, guard)
        if status == Status.OPTIMAL and (layers >= full or model.objective_tuple(solver) == bound):
            return model, solver, True
        if status.solved:
            found = (model, solver, False)  # a real plan: the best one yet, not proven best
        if layers >= full or guard.spent:
            if found is not None:
                return found
            return status if layers >= full and status == Status.INFEASIBLE else Status.UNKNOWN
        layers = min([d for d in DEPTHS if d > layers] + [full])


def solve_payment(problem, supply, layers, x, budget: Budget, relaxed=False):
    model = PaymentModel(problem, supply, layers, x, relaxed_tail=relaxed)
    solver, status = model.solve_best(budget.left())
    return model, solver, status


def solve_self_funding(problem: PaymentProblem, supply: Supply, x, budget: Budget, maximize_x: bool = False):
    """The relaxation of every plan on a board with doublings: a layer for each stretch
    between them, each funding itself (:class:`PaymentModel`, ``self_funding``)."""
    layers = sum(a.cap for a in supply.acts if a.doubles) + 1
    model = PaymentModel(problem, supply, layers, x, self_funding=True)
    if maximize_x:
        model.maximize_x()
        solver, status = model.solve(budget.left())
    else:
        solver, status = model.solve_best(budget.left())
    return model, solver, status


def deepening(build, budget: Budget):
    """(a turn model, its solver, whether its optimum is proven) or Status.INFEASIBLE /
    Status.UNKNOWN: the payments of a turn chained 1, 3, then 8 layers deep, then as deep
    as each can chain (``build(depth)`` makes the model: solver.turn.Depth), as
    :func:`best_plan` does for one payment. At each depth the relaxed model, whose last
    layers stand for every deeper activation, bounds every turn from below: infeasible,
    nothing pays; optimal with every tail a real chain, that is the answer; else the
    strict model at that depth, if it reaches the same objective. A solve cut short by
    the time guard leaves the best real plan found, not proven best (a relaxed one whose
    tails are real chains, a strict one); so does a model too large to build
    (:class:`ModelTooLarge`). (A turn's payments built at their deepest chains at
    once made models of thousands of layers on large chain boards, which ran a machine
    out of memory.)"""
    found = None  # the best real plan yet: the answer, not proven best, if nothing better comes
    try:
        for layers in DEPTHS:  # (no deeper model is built once the time is gone: the checks below)
            relaxed = build(Depth(layers, relaxed=True))
            if relaxed.depth.exact:  # each payment is as deep as it can chain: this model is exact
                break
            rsolver, rstatus = relaxed.solve(budget.left() / 2)  # (half: the strict model's turn comes next)
            if rstatus == Status.INFEASIBLE:
                return rstatus
            if rstatus.solved and relaxed.tails_are_real(rsolver):
                if rstatus == Status.OPTIMAL:
                    return relaxed, rsolver, True
                found = _better(found, (relaxed, rsolver, False))  # (cut short by the time guard: real, not best)
            if budget.spent:
                return found or Status.UNKNOWN
            strict = build(Depth(layers))
            solver, status = strict.solve(budget.left())
            if rstatus == status == Status.OPTIMAL and strict.objective_tuple(solver) == relaxed.objective_tuple(rsolver):
                return strict, solver, True
            if status.solved:
                found = _better(found, (strict, solver, False))
            if budget.spent:
                return found or Status.UNKNOWN
        else:
            relaxed = build(Depth())
    except ModelTooLarge:
        if found is None:
            raise
        return found  # (a real plan, the deepest one that could be built)
    except OutOfTime:
        return found or Status.UNKNOWN  # (the time ran out while a model was being built)
    solver, status = relaxed.solve(budget.left())
    if status == Status.OPTIMAL:
        return relaxed, solver, True
    if status.solved:
        return _better(found, (relaxed, solver, False))
    return found if found is not None and status == Status.UNKNOWN else status


def _better(found, other):
    """Of two (turn model, solver, False) solutions (or None), the one with the lower
    objective; ``found`` on a tie."""
    if found is None or other[0].objective_tuple(other[1]) < found[0].objective_tuple(found[1]):
        return other
    return found


def check_plan(problem: PaymentProblem, plan: Plan) -> None:
    """Replay a plan with the independent validator; a plan that fails is a bug."""
    errors = validate_plan(problem, plan)
    if errors:
        raise InvalidPlan("the plan failed validation: " + "; ".join(errors))


def check_in_order(problem: PaymentProblem, spells: list, plans: list) -> list:
    """Replay each plan with the validator on what the ones before it left, each spell
    costed on the board as it stands then (CR 601.2f: PaymentProblem.cost_on); the plans,
    each naming its abilities as that board lists them (an altar sacrificed earlier no
    longer gives its ability: the others' places move up, :func:`on_board`)."""
    state = replace(problem, query=PAY, keep=(), spells=())  # (the hand: what a discard may take)
    out = []
    for spell, plan in zip(spells, plans):
        state = replace(state, spell=state.cost_on(spell, state.board))
        plan = on_board(plan, state.board)
        check_plan(state, plan)
        out.append(plan)
        state = state.after_cast(plan)
    return out
