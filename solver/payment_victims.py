"""Additional costs that sacrifice permanents in a turn's payment (Deadly Dispute: "As an
additional cost to cast this spell, sacrifice an artifact or creature."), as variables of
the payment's model (solver.cpsat.PaymentModel): which permanents go (CR 601.2f, 601.2h).

Costs are paid after mana abilities are activated (CR 601.2g-h), so the permanent may
first tap for mana in the same payment, but is not sacrificed for mana too; it must be on
the battlefield then: not sacrificed earlier in the turn, and a card's permanent only
once that card was cast (each option's ``room``, worked out by solver.turn). The
sacrifice counts in the objective's ``sacrificed`` term, as a plan's ``sacrificed``
lists it, and a later payment of the turn sees the permanent gone (``group_usage``).
"""

from __future__ import annotations

from dataclasses import dataclass

from manaplan.solver.runtime import is_one, linear_sum


@dataclass(frozen=True)
class Victim:
    """Permanents one candidate spell may sacrifice for its additional cost: ``ids``
    (interchangeable: a group of the supply, or of the board where no ability of
    theirs pays), how many are there to sacrifice now (``room``: an int or an
    expression of the shared model), one of them (``permanent``)."""

    ids: tuple
    room: object
    permanent: object


def add_cost_sacrifices(pm) -> None:
    """For each candidate with a sacrifice among its additional costs: how many of each
    option it sacrifices, as many as its costs ask when it is the spell cast (CR
    601.2h); each option no more than is there, less what this payment sacrifices for
    mana (CR 601.2g comes first: a permanent sacrificed for mana is gone)."""
    pm.victim_vars = {}  # (candidate#, ids) -> variable
    if not pm.victims:
        return
    m = pm.model
    rooms: dict = {}
    for ci, options in pm.victims.items():
        spell, sel = pm.candidates[ci]
        needed = sum(c.count for c in spell.sacrifices)
        chosen = []
        for option in options:
            v = m.new_int_var(0, min(len(option.ids), needed), f"victim_{ci}_{option.ids[0]}")
            pm.victim_vars[(ci, option.ids)] = v
            chosen.append(v)
            rooms.setdefault(option.ids, (option.room, []))[1].append(v)
        m.add(linear_sum(chosen) == (needed if is_one(sel) else needed * sel))
    for ids, (room, chosen) in rooms.items():
        for_mana = [pm.mana_sacrifices(g) for g, grp in enumerate(pm.supply.groups) if grp.ids == ids]
        m.add(linear_sum(chosen + for_mana) <= room)
        pm.sacrifices.extend(chosen)
        # (a victim's mana is lost too: its flexibility counts as used; one it tapped first
        # counts twice here, so a turn sacrifices a creature that makes no mana before one that does)
        flex = max((grp.flexibility for grp in pm.supply.groups if grp.ids == ids), default=0)
        if flex:
            pm.flexibility_used.extend(flex * v for v in chosen)


def victims_of(pm, ids: tuple):
    """What this payment sacrifices of ``ids`` for its spell's additional cost."""
    return linear_sum([v for (_, i), v in pm.victim_vars.items() if i == ids])


def chosen_victims(pm, solver, gone) -> tuple:
    """The ids a solved payment sacrifices for its spell's additional cost: of each
    option, as many as the model chose, none of ``gone`` (sacrificed already)."""
    out = []
    for (ci, ids), v in pm.victim_vars.items():
        sel = pm.candidates[ci][1]
        if not (is_one(sel) or solver.value(sel)):
            continue
        n = solver.value(v)
        left = [i for i in ids if i not in gone and i not in out]
        out += left[:n]
    return tuple(out)
