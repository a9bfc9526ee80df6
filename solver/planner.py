"""The payment planner: one question in, a plan or a proof out.

``answer(problem)`` runs the steps of docs/design.md: the spell's total cost is
modelled with the board's grouped sources in CP-SAT, the best plan is read back and
replayed by the validator, and an unpayable answer carries a proof.

How deep chains may go (layers of abilities paid by earlier abilities) is chosen so
the answer stays exact: a first solve uses few layers; when the best plan found pays no
life and sacrifices nothing, no better plan can tap more permanents than it does, so no
better plan has more mana-costing activations than that many taps (plus abilities that
don't tap); if that bound exceeds the layers used, the model is solved again that deep.
An "unpayable" from the shallow model is never trusted: it is re-solved at full depth
unless a counting proof already settles it.
"""

from __future__ import annotations

from model.request import PaymentProblem

from . import cpsat
from dataclasses import replace

from .extract import extract_plan
from .hall import can_pay_plain
from .proof import counting_bound
from .supply import build_supply
from .validator import validate_plan

FIRST_LAYERS = 3
TIME_LIMIT = 10.0


class InternalError(RuntimeError):
    """A plan failed its own validation: a bug in manaplan, reported as such."""


def _full_depth(supply) -> int:
    return sum(a.cap for a in supply.acts if a.costs_mana)


def _solve(problem, supply, layers, x_fixed, time_limit):
    b = cpsat.build(problem, supply, layers, x_fixed)
    cpsat.set_objective(b, problem)
    solver, status = cpsat.solve(b, time_limit)
    return b, solver, status


def _status_name(status) -> str:
    from ortools.sat.python import cp_model
    return {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible", cp_model.INFEASIBLE: "infeasible",
            cp_model.MODEL_INVALID: "invalid"}.get(status, "unknown")


def answer(problem: PaymentProblem, time_limit: float = TIME_LIMIT) -> dict:
    """Answer a payment problem with the protocol's response fields (without ``id``)."""
    if problem.spell.cost.mana_cost is None:
        return {"payable": False, "reason": counting_bound(problem)}
    if problem.query == "max_x":
        return _answer_max_x(problem, time_limit)
    if problem.query == "can_pay":
        fast = can_pay_plain(problem)
        if fast is True:
            return {"payable": True, "reason": None}
        if fast is False:
            return {"payable": False, "reason": counting_bound(problem)}
        full = answer(replace(problem, query="pay"), time_limit)
        return {"payable": full["payable"], "reason": full["reason"]}
    supply = build_supply(problem)
    full = _full_depth(supply)
    layers = min(full, FIRST_LAYERS)
    b, solver, status = _solve(problem, supply, layers, problem.spell.cost.x, time_limit)
    name = _status_name(status)
    if name == "infeasible":
        proof = counting_bound(problem, supply)
        if proof is not None:
            return _unpayable(problem, proof)
        if layers < full:
            layers = full
            b, solver, status = _solve(problem, supply, layers, problem.spell.cost.x, time_limit)
            name = _status_name(status)
    elif name in ("optimal", "feasible"):
        terms = {k: solver.value(v) if not isinstance(v, int) else v for k, v in b.objective_terms.items()}
        if terms["sacrificed"] == 0 and terms["life"] == 0:
            needed = terms["tapped"] + sum(a.cap for a in supply.acts if a.costs_mana and not a.tap)
        else:
            needed = full
        needed = min(needed, full)
        if needed > layers:
            layers = needed
            b, solver, status = _solve(problem, supply, layers, problem.spell.cost.x, time_limit)
            name = _status_name(status)
    if name == "infeasible":
        return _unpayable(problem)
    if name not in ("optimal", "feasible"):
        return {"payable": None, "reason": {"code": "timeout", "message":
                f"no answer within {time_limit:g} s; neither a plan nor a proof was found"}}
    return _finish(problem, b, solver, name == "optimal")


def _finish(problem, b, solver, optimal: bool) -> dict:
    out = extract_plan(problem, b, solver, optimal)
    errors = validate_plan(problem, out)
    if errors:
        raise InternalError("the plan failed validation: " + "; ".join(errors))
    return {"payable": True, **out, "reason": None}


def _unpayable(problem: PaymentProblem, reason: dict | None = None) -> dict:
    """The proof for an infeasible model: a counting bound if one exists, else the
    exhaustive search, plus a hint when abilities that can't be used mid-cast would help."""
    reason = reason or counting_bound(problem)
    if reason is None:
        reason = {"code": "no_payment", "message": _no_payment_message(problem)}
    supply = build_supply(problem)
    if supply.excluded:
        wider = build_supply(problem, allow_precast=True)
        if len(wider.acts) > len(supply.acts):
            layers = _full_depth(wider)
            b, solver, status = _solve(problem, wider, layers, problem.spell.cost.x, TIME_LIMIT)
            if _status_name(status) in ("optimal", "feasible"):
                ids = sorted({pid for pid, i, why in supply.excluded
                              if why in ("not a mana ability", "activate only as an instant")})
                reason = dict(reason)
                reason["code_detail"] = reason["code"]
                reason["code"] = "needs_activation_before_casting"
                reason["before_casting"] = ids
                reason["message"] = (reason["message"] + "; it would be payable by activating abilities "
                                     "that can't be used while casting (not mana abilities, or instant-only) "
                                     "before casting: " + ", ".join(ids))
    return {"payable": False, "reason": reason}


def _no_payment_message(problem: PaymentProblem) -> str:
    cost = problem.spell.cost
    text = str(cost.mana_cost)
    if cost.x:
        text += f" with X={cost.x}"
    return (f"no order of mana abilities pays {text}: every source was counted, but their costs, "
            f"colors and the order they can be activated in leave the cost short")


def _answer_max_x(problem: PaymentProblem, time_limit: float) -> dict:
    """The largest X that can be paid (one solve maximising X at full chain depth), then
    the best plan for that X."""
    if problem.spell.cost.mana_cost.x_count == 0:
        base = answer(PaymentProblem(problem.spell, problem.board, problem.player, "pay", problem.id), time_limit)
        return {**base, "x": 0} if base.get("payable") else base
    supply = build_supply(problem)
    layers = _full_depth(supply)
    b = cpsat.build(problem, supply, layers, None)
    b.model.maximize(b.x_var)
    solver, status = cpsat.solve(b, time_limit)
    name = _status_name(status)
    if name == "infeasible":
        zero = _with_x(problem, 0)
        return _unpayable(zero)
    if name not in ("optimal", "feasible"):
        return {"payable": None, "reason": {"code": "timeout", "message": f"no answer within {time_limit:g} s"}}
    x = solver.value(b.x_var)
    best = answer(_with_x(problem, x), time_limit)
    if best.get("payable") and name != "optimal":
        best["plan"]["optimal"] = False
    return {**best, "x": x}


def _with_x(problem: PaymentProblem, x: int) -> PaymentProblem:
    spell = replace(problem.spell, cost=replace(problem.spell.cost, x=x))
    return PaymentProblem(spell, problem.board, problem.player, "pay", problem.id)
