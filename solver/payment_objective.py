"""The protocol's objective over one payment (solver.cpsat.PaymentModel; docs/protocol.md,
"The default objective"): each term as an expression, and a bound on each that makes the
weights lexicographic."""

from __future__ import annotations

from manaplan.solver.payment_values import Objective
from manaplan.solver.runtime import is_zero, linear_sum


def objective_terms(pm) -> Objective:
    """The protocol's objective, term by term: activations before casting,
    sacrifices, life lost, permanents tapped, cards exiled, flexibility used, mana
    left floating."""
    made = [v for l in range(pm.layers + 1) for k in pm.kinds for v in pm.produced[(l, k)]]
    spent = [v for vs in pm.spent.values() for v in vs]
    return Objective(
        before_casting=linear_sum([pm.totals[j] for j, a in enumerate(pm.acts) if a.precast and j in pm.totals]),
        sacrificed=linear_sum(pm.sacrifices),
        life=linear_sum([t for t in (pm.life_total, pm.damage_total) if not is_zero(t)]),
        spared=kept_untapped_used(pm),
        tapped=linear_sum(pm.taps),
        exiled=linear_sum(pm.exiles),
        flexibility=linear_sum(pm.flexibility_used),
        floating=sum(pm.pool0.values()) + linear_sum(made) - linear_sum(spent),
    )

# -- objectives and solving ---------------------------------------------------------


def kept_untapped_used(pm):
    """How many of the permanents the request keeps untapped (``prefer``) the plan
    taps or sacrifices: each is a group of its own (solver.supply)."""
    keep = pm.problem.prefer.keep_untapped
    if not keep:
        return 0
    used = []
    for g, grp in enumerate(pm.supply.groups):
        if set(grp.ids) & keep:
            usage = pm.group_usage(g)
            if is_zero(usage["taps"]) and is_zero(usage["sacrifices"]):
                continue
            u = pm.model.new_bool_var(f"spared_{g}")
            for key in ("taps", "sacrifices"):
                if not is_zero(usage[key]):
                    pm.model.add(usage[key] <= grp.size * u)
            used.append(u)
    return linear_sum(used)


def objective_bounds(pm) -> Objective:
    """Upper bounds on each objective term, which make the weights lexicographic."""
    supply = pm.supply
    n_perm = sum(g.size for g in supply.groups)
    return Objective(
        before_casting=sum(a.cap for a in supply.acts if a.precast),
        # (a spell's additional cost may sacrifice too: solver.payment_victims)
        sacrificed=n_perm + sum(sum(c.count for c in pm.candidates[ci][0].sacrifices) for ci in pm.victims),
        # life paid as costs is at most the life total (CR 118.3); damage is not bounded by it
        life=pm.problem.player.life + sum(a.cap * (a.damage + a.trigger_damage) for a in supply.acts),
        spared=len(pm.problem.prefer.keep_untapped),
        tapped=n_perm,
        exiled=sum(a.cap for a in supply.acts if a.exile),
        # (a victim of the additional cost counts once more: solver.payment_victims)
        flexibility=sum(g.flexibility * g.size for g in supply.groups) * (2 if getattr(pm, "victim_vars", None) else 1),
        floating=supply.mana_bound,
    )
