"""A plan and a reason as the protocol writes them (docs/protocol.md, "plan" and
"reason"): what ``pay`` answers, and what ``check`` and the suite write beside it; one
module below both readers (manaplan.protocol.mtg, manaplan.protocol.plans), so that
neither imports the other's writing."""

from __future__ import annotations

from ..model.mana import format_mana, format_types
from ..model.plan import CannotKeep, FirstFailure, NotEnoughLife, NotEnoughMana, Plan, Unpayable, \
    better_before_casting_message


def _line(line) -> dict:
    if line.life:
        return {"symbol": str(line.symbol), "life": line.life}
    out = {"symbol": str(line.symbol), "mana": line.mana, "from": line.source}
    if line.half:
        out["as"] = line.half
    return out


def _step(step) -> dict:
    permanent, ability = step.via or (step.permanent, step.ability)  # an altar's, sacrificing step.permanent
    out = {"permanent": permanent, "ability": ability, "cost": step.cost}
    if step.via:  # what its cost does to another permanent
        out["sacrifices" if step.sacrifices else "taps"] = step.permanent
    if step.payment:
        out.update({"pays": "".join("{%s}" % t for t in step.pays), "payment": [_line(x) for x in step.payment]})
    else:  # most steps cost no mana
        out.update({"pays": "", "payment": []})
    out["adds"] = format_types(step.adds)
    if step.given_by:
        out["given_by"] = step.given_by
    if step.energy:
        out["energy"] = step.energy
    if step.triggered:
        out["triggered"] = [{"permanent": t.permanent, "trigger": t.trigger, "adds": format_types(t.adds)}
                            for t in step.triggered]
    if step.life:
        out["life"] = step.life
    if step.damage:
        out["damage"] = step.damage
    if step.before_casting:
        out["before_casting"] = True
    return out


def write_plan(plan: Plan, life: int) -> dict:
    """The protocol's ``plan`` object; ``life`` is the life total before paying."""
    out = {
        "steps": [_step(s) for s in plan.steps],
        "tapped": list(plan.tapped),
        "sacrificed": list(plan.sacrificed),
        "life_paid": plan.life_paid,
        "announced": [{"symbol": str(s), "as": h} for s, h in plan.announced],
        "payment": [_line(x) for x in plan.payment],
        "floating": format_mana(plan.floating),
        "optimal": plan.optimal,
    }
    if plan.is_lethal(life):
        out["lethal"] = True  # legal (damage is not a cost), but the player loses the game
    if plan.reduction_halves:
        out["reduction_halves"] = [{"symbol": str(s), "as": h} for s, h in plan.reduction_halves]
    if plan.exiled:
        out["exiled"] = plan.exiled
    if plan.cost_sacrificed:
        out["sacrificed_for_cost"] = list(plan.cost_sacrificed)
    if plan.cost_discarded:
        out["discarded_for_cost"] = list(plan.cost_discarded)
    if plan.cast_with:
        out["cast_with"] = plan.cast_with
    if plan.better_before_casting:
        out["better_before_casting"] = {"permanents": sorted(pid for pid, _ in plan.better_before_casting),
                                        "message": better_before_casting_message(plan.better_before_casting)}
    return out


def write_reason(result: Unpayable) -> dict:
    """The protocol's ``reason`` for an unpayable answer: code, certificate, message."""
    out: dict[str, object] = {"code": result.code}
    cert = result.certificate
    if isinstance(cert, NotEnoughMana):
        out["types"] = list(cert.types)
        if cert.snow:
            out["snow"] = True
        out.update({"needs": cert.needs, "available": cert.available, "sources": list(cert.sources)})
    elif isinstance(cert, NotEnoughLife):
        out.update({"needs": cert.needs, "available": cert.available})
    elif isinstance(cert, CannotKeep):
        out["cannot_keep"] = list(cert.cannot_keep)
    elif isinstance(cert, FirstFailure):
        out["failed"] = cert.failed
    out["message"] = result.message
    if result.before_casting:
        out["code_detail"] = result.detail
        out["before_casting"] = list(result.before_casting)
    return out
