"""The payment planner: one question in, a plan or a proof out.

``answer(problem)`` runs the steps of docs/design.md: the spell's total cost is
modelled with the board's grouped sources in CP-SAT, the best plan is read back and
replayed by the validator, and an unpayable answer carries a proof.

How deep chains may go (layers of abilities paid by earlier abilities) is chosen so
the answer stays exact without modelling every possible depth: see :func:`best_plan`.
"""

from __future__ import annotations

import time
from dataclasses import replace

from ..model.request import PaymentProblem
from ..model.sources import PRECAST_ONLY

from . import cpsat
from .extract import extract_plan
from .hall import can_pay_plain, hall_certificate
from .plain import plain_payment
from .proof import counting_bound
from .supply import build_supply
from .checks.validator import validate_plan

#: depths tried before the exact one: most chains are one Signet or filter deep
DEPTHS = (1, 3, 8)
FIRST_LAYERS = DEPTHS[0]
TIME_LIMIT = 10.0


class InternalError(RuntimeError):
    """A plan failed its own validation: a bug in manaplan, reported as such."""


def _full_depth(supply) -> int:
    return sum(a.cap for a in supply.acts if a.costs_mana)


def _solve(problem, supply, layers, x_fixed, time_limit, relaxed=False):
    b = cpsat.build(problem, supply, layers, x_fixed, relaxed_tail=relaxed)
    cpsat.set_objective(b, problem)
    solver, status = cpsat.solve(b, time_limit)
    return b, solver, status


_STATUS_NAMES: dict = {}


def _status_name(status) -> str:
    if not _STATUS_NAMES:
        from ortools.sat.python import cp_model
        _STATUS_NAMES.update({cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible",
                              cp_model.INFEASIBLE: "infeasible", cp_model.MODEL_INVALID: "invalid"})
    return _STATUS_NAMES.get(status, "unknown")


def answer(problem: PaymentProblem, time_limit: float = TIME_LIMIT, plain_path: bool = True) -> dict:
    """Answer a payment problem with the protocol's response fields (without ``id``).

    ``plain_path`` False sends plain boards through the general model too (tests compare
    the two; the benchmark measures both)."""
    if problem.spell.cost.mana_cost is None:
        return {"payable": False, "reason": counting_bound(problem)}
    if problem.query == "max_x":
        return _answer_max_x(problem, time_limit)
    if problem.query == "can_pay":
        fast = can_pay_plain(problem)
        if fast is False:  # Hall's condition fails: the proof is the violated set, no CP-SAT
            return _unpayable(problem, hall_certificate(problem))
        if fast is True:
            return {"payable": True, "reason": None}
        supply = build_supply(problem)
        quick = _quick_yes(problem, supply, time_limit)
        if quick is not None:
            return quick
        full = _pay(replace(problem, query="pay"), supply, time_limit)
        return {"payable": full["payable"], "reason": full["reason"]}
    plain = plain_payment(problem, time_limit) if plain_path else None
    if plain is not None:
        if plain["payable"]:
            _check(problem, plain)
        return plain
    return _pay(problem, build_supply(problem), time_limit)


def _pay(problem: PaymentProblem, supply, time_limit: float) -> dict:
    """The best plan through the general model, or the proof that none exists."""
    found = best_plan(problem, supply, problem.spell.cost.x, time_limit)
    if found == "infeasible":
        return _unpayable(problem, hall_certificate(problem), supply)
    if found == "timeout":
        return {"payable": None, "reason": {"code": "timeout", "message":
                f"no answer within {time_limit:g} s; neither a plan nor a proof was found"}}
    out = _finish(problem, *found)
    helping = _precast_help(problem, supply, _terms(found[0], found[1]))
    if helping:
        out["plan"]["better_before_casting"] = {
            "permanents": sorted(helping),
            "message": f"a better payment exists by activating {_listing(helping)} before casting: those can't be "
                       f"activated while a spell is being cast (CR 601.2g)"}
    return out


def _terms(b, solver) -> tuple:
    """The objective as a tuple in the protocol's order (comparable across models)."""
    return tuple(solver.value(v) if not isinstance(v, int) else v
                 for v in (b.objective_terms[k] for k in cpsat.OBJECTIVE_ORDER))


def _precast_help(problem: PaymentProblem, supply, than: tuple | None) -> dict:
    """Abilities that can't be activated mid-cast (not mana abilities, or instant-only)
    but would pay the cost (``than`` None) or pay it better than ``than``, activated
    before casting: {permanent id: why it can't be used mid-cast}."""
    precast = {(pid, i): why for pid, i, why in supply.excluded if why in PRECAST_ONLY}
    if not precast:
        return {}
    wider = build_supply(problem, allow_precast=True)
    found = best_plan(problem, wider, problem.spell.cost.x, TIME_LIMIT)
    if found in ("infeasible", "timeout"):
        return {}
    b, solver, _ = found
    if than is not None and not _terms(b, solver) < than:
        return {}
    helping = {}
    for (l, j, ai), v in b.act_vars.items():
        a = wider.acts[j]
        ids = [pid for pid in wider.groups[a.group].ids if (pid, a.index) in precast]
        for pid in ids[: solver.value(v)]:
            helping[pid] = precast[(pid, a.index)]
    return helping


def _quick_yes(problem: PaymentProblem, supply, time_limit: float) -> dict | None:
    """"Can I pay?" without the best plan: a relaxed chain model whose only objective is
    to fund nothing inside its last layer. A solution that does is a real payment (yes);
    anything else goes to the full planner, which also writes the proof of a no."""
    full = _full_depth(supply)
    layers = min(full, FIRST_LAYERS)
    b = cpsat.build(problem, supply, layers, problem.spell.cost.x, relaxed_tail=layers < full)
    if b.tail_self:
        b.model.minimize(sum(b.tail_self))
    solver, status = cpsat.solve(b, time_limit)
    if _status_name(status) in ("optimal", "feasible") and all(solver.value(v) == 0 for v in b.tail_self):
        return {"payable": True, "reason": None}
    return None


def best_plan(problem: PaymentProblem, supply, x, time_limit: float):
    """The optimal plan's model and solver, "infeasible", or "timeout".

    Chains are searched layer by layer (see the module docstring): with L layers, the
    relaxed model (its last layer standing for every deeper activation) bounds every plan
    of any depth from below. If its optimum funds nothing inside that last layer, it is a
    real plan and optimal; if the strict L-layer model reaches the same objective, that
    one is; if the relaxation is infeasible, nothing pays. Otherwise L grows (1, 3, 8,
    then all the way) to the number of mana-costing activations possible, where the
    strict model is exact. On the benchmark's chain boards the first
    relaxed solve settles every query; only boards with abilities that cost mana without
    tapping (Orochi Leafcaller) need the deeper models.
    """
    deadline = time.monotonic() + time_limit
    full = _full_depth(supply)
    layers = min(full, FIRST_LAYERS)
    while True:
        left = max(0.05, deadline - time.monotonic())
        if layers >= full:
            b, solver, status = _solve(problem, supply, layers, x, left)
            name = _status_name(status)
            if name in ("optimal", "feasible"):
                return b, solver, name == "optimal"
            return "infeasible" if name == "infeasible" else "timeout"
        rb, rsolver, rstatus = _solve(problem, supply, layers, x, left, relaxed=True)
        rname = _status_name(rstatus)
        if rname == "infeasible":
            return "infeasible"
        if rname == "optimal" and all(rsolver.value(v) == 0 for v in rb.tail_self):
            return rb, rsolver, True
        b, solver, status = _solve(problem, supply, layers, x, max(0.05, deadline - time.monotonic()))
        name = _status_name(status)
        if rname == "optimal" and name == "optimal" and _terms(b, solver) == _terms(rb, rsolver):
            return b, solver, True
        if time.monotonic() >= deadline:
            if name in ("optimal", "feasible"):
                return b, solver, False
            return "timeout"
        layers = min([d for d in DEPTHS if d > layers] + [full])


def _finish(problem, b, solver, optimal: bool) -> dict:
    """Read the plan back and replay it."""
    out = extract_plan(problem, b, solver, optimal)
    _check(problem, out)
    return {"payable": True, **out, "reason": None}


def _check(problem, out: dict) -> None:
    """Replay a plan with the independent validator; a plan that fails is a bug."""
    errors = validate_plan(problem, out)
    if errors:
        raise InternalError("the plan failed validation: " + "; ".join(errors))


def _listing(helping: dict) -> str:
    return ", ".join(f"{pid} ({why})" for pid, why in sorted(helping.items()))


def _unpayable(problem: PaymentProblem, reason: dict | None = None, supply=None) -> dict:
    """The proof for an infeasible model: a counting bound if one exists, else the
    exhaustive search, plus a hint when abilities that can't be used mid-cast would help."""
    supply = supply or build_supply(problem)
    reason = reason or counting_bound(problem, supply)
    if reason is None:
        reason = {"code": "no_payment", "message": _no_payment_message(problem)}
    helping = _precast_help(problem, supply, None)
    if helping:
        reason = dict(reason)
        reason["code_detail"] = reason["code"]
        reason["code"] = "needs_activation_before_casting"
        reason["before_casting"] = sorted(helping)
        reason["message"] = (f"payable only by activating {_listing(helping)} before casting, since those can't "
                             f"be activated while a spell is being cast (CR 601.2g); without them it "
                             + reason["message"])
    return {"payable": False, "reason": reason}


def _no_payment_message(problem: PaymentProblem) -> str:
    cost = problem.spell.cost
    text = str(cost.mana_cost)
    if cost.x:
        text += f" with X={cost.x}"
    return (f"no order of mana abilities pays {text}: every source was counted, but their costs, "
            f"colors and the order they can be activated in leave the cost short")


def _answer_max_x(problem: PaymentProblem, time_limit: float) -> dict:
    """The largest X that can be paid: one solve maximising X over a relaxation of every
    plan (the relaxed chain model), then the exact planner at that X, searching down by
    halves only if the relaxation promised too much."""
    if problem.spell.cost.mana_cost.x_count == 0:
        base = answer(replace(problem, query="pay"), time_limit)
        return {**base, "x": 0} if base.get("payable") else base
    supply = build_supply(problem)
    full = _full_depth(supply)
    layers = min(full, FIRST_LAYERS)
    b = cpsat.build(problem, supply, layers, None, relaxed_tail=layers < full)
    b.model.maximize(b.x_var)
    solver, status = cpsat.solve(b, time_limit)
    name = _status_name(status)
    if name == "infeasible":
        return _unpayable(_with_x(problem, 0))
    if name != "optimal":
        return {"payable": None, "reason": {"code": "timeout", "message": f"no answer within {time_limit:g} s"}}
    high = solver.value(b.x_var)  # an upper bound on X: the relaxation admits every plan
    first = answer(_with_x(problem, high), time_limit)
    if first.get("payable") is not False:
        return {**first, "x": high} if first.get("payable") else first
    best, low, high = None, 0, high - 1  # more X never helps: search down by halves
    while low <= high:
        x = (low + high + 1) // 2
        out = answer(_with_x(problem, x), time_limit)
        if out.get("payable") is None:
            return out
        if out["payable"]:
            best, low = (x, out), x + 1
        else:
            high = x - 1
    if best is None:
        return _unpayable(_with_x(problem, 0))
    return {**best[1], "x": best[0]}


def _with_x(problem: PaymentProblem, x: int) -> PaymentProblem:
    spell = replace(problem.spell, cost=replace(problem.spell.cost, x=x))
    return PaymentProblem(spell, problem.board, problem.player, "pay", problem.id)
