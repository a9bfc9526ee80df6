"""What each group of interchangeable permanents can give a payment (solver.cpsat.
PaymentModel): each taps once, is sacrificed once, has only its counters (CR 302.6,
701.21); convoke and improvise share the tap and come after mana abilities (CR
601.2g-h); a permanent is tapped before it is sacrificed, nothing of it used after; the
player's energy across the step (CR 107.14)."""

from __future__ import annotations

from manaplan.model.plan import CONVOKE, IMPROVISE
from manaplan.solver.runtime import is_zero, linear_sum


def add_permanent_budgets(pm) -> None:
    """What each group of interchangeable permanents can give: each taps once
    ({T}, convoke and improvise share the tap: CR 302.6, 702.51a), is sacrificed
    once, and has only its counters to remove; a permanent is tapped before it is
    sacrificed, and nothing of it is used after its sacrifice."""
    m, acts = pm.model, pm.acts
    pm.taps, pm.sacrifices, pm.exiles, pm.flexibility_used = [], [], [], []
    acts_of_group: dict = {}
    for j, a in enumerate(acts):
        acts_of_group.setdefault(a.group, []).append(j)
    co_tapping: dict = {}  # group -> acts of other groups whose activation taps it too (Springleaf Drum)
    for j, a in enumerate(acts):
        if a.co_tap is not None:
            co_tapping.setdefault(a.co_tap, []).append(j)
    for g, grp in enumerate(pm.supply.groups):
        mine = acts_of_group.get(g, [])
        tap_js = [j for j in mine if acts[j].tap]
        sac_js = [j for j in mine if acts[j].sacrifice]
        if tap_js or co_tapping.get(g):
            taps = [pm.totals[j] for j in tap_js + co_tapping.get(g, []) if j in pm.totals]
            if len(taps) > 1 or co_tapping.get(g) or acts[tap_js[0]].cap > grp.size:  # else held to its cap
                m.add(linear_sum(taps) <= grp.size)
            pm.taps.extend(taps)
            if grp.flexibility:
                pm.flexibility_used.extend(grp.flexibility * t for t in taps)
        if sac_js:
            sacs = [pm.totals[j] for j in sac_js]
            if len(sac_js) > 1 or acts[sac_js[0]].cap > grp.size:
                m.add(linear_sum(sacs) <= grp.size)
            pm.sacrifices.extend(sacs)
        add_convoke_after_mana_abilities(pm, mine, sac_js, grp.size)
        if grp.ordered:
            add_nothing_after_sacrifice(pm, mine, sac_js)
        elif sac_js and any(acts[j].tap and (acts[j].costs_mana or acts[j].movable) for j in mine):
            add_tap_before_sacrifice(pm, mine, grp.size)
        for kind in {acts[j].counter_kind for j in mine if acts[j].counters}:
            m.add(sum(acts[j].counters * pm.totals[j] for j in mine if acts[j].counter_kind == kind)
                  <= grp.size * grp.counter(kind))
        pm.exiles.extend(pm.totals[j] for j in mine if acts[j].exile)


def add_convoke_after_mana_abilities(pm, mine: list, sac_js: list, size: int) -> None:
    """CR 601.2g-h: mana abilities are activated before the total cost is paid, and
    convoke and improvise tap permanents while it is paid: a permanent tapped for
    them must still be on the battlefield, so none is both sacrificed and tapped to
    convoke or improvise (and the shared tap keeps them apart from {T} abilities)."""
    if not sac_js:
        return
    taps_for_cost = [pm.totals[j] for j in mine if pm.acts[j].index in (CONVOKE, IMPROVISE)]
    if taps_for_cost:
        pm.model.add(linear_sum(taps_for_cost) + linear_sum([pm.totals[j] for j in sac_js]) <= size)


def add_nothing_after_sacrifice(pm, mine: list, sac_js: list) -> None:
    """One permanent: after its sacrifice (within a layer, sacrifices come last) none
    of its abilities is activated again."""
    for l in range(pm.layers):
        gone = sum(pm.count[(ll, j)] for j in sac_js for ll in pm.layers_of(pm.acts[j]) if ll <= l)
        for j in mine:
            later = [pm.count[(ll, j)] for ll in pm.layers_of(pm.acts[j]) if ll > l]
            if later and not pm.acts[j].sacrifice:
                pm.model.add(sum(later) <= pm.acts[j].cap * (1 - gone))


def add_tap_before_sacrifice(pm, mine: list, size: int) -> None:
    """A permanent is tapped before it is sacrificed: sacrifices by layer l and taps
    after layer l use different permanents of the group."""
    for l in range(pm.layers):
        early_sacs = [pm.count[(ll, j)] for j in mine if pm.acts[j].sacrifice for ll in range(l + 1)
                      if (ll, j) in pm.count]
        late_taps = [pm.count[(ll, j)] for j in mine if pm.acts[j].tap for ll in range(l + 1, pm.layers + 1)
                     if (ll, j) in pm.count]
        if early_sacs and late_taps:
            pm.model.add(sum(early_sacs) + sum(late_taps) <= size)


def add_energy_budget(pm) -> None:
    """The player's energy counters ({E}, CR 107.14) pay every "Pay {E}" of the step:
    this payment's and those before it in the step."""
    paid = pm.energy_paid()
    if not is_zero(paid):
        pm.model.add(paid + pm.carried.energy_paid <= pm.problem.player.energy)
