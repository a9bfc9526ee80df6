"""Where a payment's mana goes (solver.cpsat.PaymentModel): each need paid by a kind of mana
that may pay it (CR 106.6, 107.4), no kind spent before it is made (CR 605.3), the
relaxed tail's conditions, the doubling of the pool (Doubling Cube, CR 701.9f)."""

from __future__ import annotations

from manaplan.model.mana import SPEND_AS_ANY_COLOR
from manaplan.model.symbols import MANA_TYPES
from manaplan.solver.payment_values import SPELL, can_pay_kind, cheapest
from manaplan.solver.runtime import is_zero, linear_sum


def add_payments(pm) -> None:
    """Every need is paid by a kind of mana that may pay it (CR 106.6, 107.4), and at
    each stage no kind is spent beyond the floating mana and what the earlier layers
    made (CR 605.3: an ability's cost is paid from what exists when it is
    activated). With a relaxed tail, the last layer may also fund itpm."""
    m = pm.model
    stages = list(range(1, pm.layers + 1)) + [SPELL]
    spent: dict[tuple, list] = {(s, k): [] for s in stages for k in pm.kinds}
    any_color_on = any_color_switch(pm)
    for (stage, need), terms in pm.demand.items():
        able = [k for k in pm.kinds if can_pay_kind(k, need, stage == SPELL, pm.any_color)]
        as_any = {k for k in able if any_color_on is not None and not can_pay_kind(k, need, stage == SPELL)}
        if len(able) == 1 and not as_any:  # one kind of mana can pay it: the demand itself, no variable
            pm.pay_vars[(stage, need, able[0])] = paid = linear_sum(terms)
            spent[(stage, able[0])].append(paid)
            continue
        shares = []
        for k in able:
            v = m.new_int_var(0, pm.bound, f"pay_{stage}_{need}_{''.join(map(str, k))}")
            pm.pay_vars[(stage, need, k)] = v
            shares.append(v)
            spent[(stage, k)].append(v)
            if k in as_any:  # spent as though it were another color: only while the effect lasts
                m.add(v <= pm.bound * any_color_on)
        m.add(linear_sum(shares) == linear_sum(terms))
    doubled = {id(v) for (l, j, t), v in pm.comb_vars.items() if pm.acts[j].doubles}
    for k in pm.kinds:
        for si, s in enumerate(stages):
            made_before = range(0, s) if isinstance(s, int) else range(0, pm.layers + 1)  # (s an int or SPELL)
            own_layer = []
            if pm.self_funding and s != SPELL:  # its own layer too, but for a doubling: it comes last
                own_layer = [v for v in pm.produced[(s, k)] if id(v) not in doubled]
            if pm.relaxed and s == pm.layers:
                made_before = range(0, pm.layers + 1)  # the tail may fund itself, in any order
            use = [v for st in stages[: si + 1] for v in spent[(st, k)]]
            if use:
                m.add(linear_sum(use) <= pm.pool0[k] + linear_sum([v for l in made_before for v in pm.produced[(l, k)]]
                                                        + own_layer))
    pm.spent = spent
    if not pm.self_funding:  # (it restates the strict limits)
        add_mana_count(pm)
    if pm.relaxed:
        add_relaxed_tail(pm, stages)
    add_doublings(pm)


def any_color_switch(pm):
    """Whether this payment spends mana as though it were mana of any color (CR 609.4b),
    as a 0/1 variable, where every permanent that allows it may be sacrificed (by this
    payment or an earlier one of its line: ``CarriedOver.sacrificed``); None where the
    effect surely lasts, or there is none. The effect ends with its permanent (CR 611.3a);
    a plan that sacrifices the last of them spends no mana as another color in that
    payment, not even before the sacrifice (a plan that would is not found)."""
    if not pm.any_color:
        return None
    givers = {p.id for p in pm.problem.board.permanents if SPEND_AS_ANY_COLOR in p.spending}
    grouped = {g: grp for g, grp in enumerate(pm.supply.groups) if set(grp.ids) & givers}
    if givers - {i for grp in grouped.values() for i in grp.ids}:
        return None  # one of them is in no group: nothing sacrifices it
    remaining = []
    for g, grp in grouped.items():
        # (this payment's mana abilities only: a permanent sacrificed for the spell's additional
        # cost goes while the total is paid, in any order with the mana, CR 601.2h)
        gone = [pm.mana_sacrifices(g), pm.carried.sacrificed.get(grp.ids, 0)]
        gone = [e for e in gone if not is_zero(e)]
        if not gone:
            return None  # nothing sacrifices this group: the effect lasts
        remaining.append(grp.size - linear_sum(gone))
    on = pm.model.new_bool_var("any_color_spending")
    pm.model.add(linear_sum(remaining) >= on)
    return on


def add_doublings(pm) -> None:
    """A doubling (Doubling Cube: "Double the amount of each type of unspent mana you
    have", CR 701.9f) activated in layer l comes after every other activation of its
    layer, one doubling per layer: it adds as much of each type as the pool then holds,
    whatever the mana's restrictions (the floating mana, what layers 0..l made, less
    what stages 1..l spent, its own {3} included). What convoke, improvise and delve
    pay is no mana and is not doubled. Linked to its activation with the pool's bound:
    all of it when activated, nothing otherwise.

    The pool it doubles does not depend on the order of what came before it. So with
    ``self_funding`` and a layer for each stretch between doublings (and one after),
    every plan has a place: what it activates before the first doubling in layer 1,
    then the doubling, and so on."""
    doubling = [j for j, a in enumerate(pm.acts) if a.doubles]
    if not doubling:
        return
    m, big = pm.model, pm.bound
    for j in doubling:  # its own permanent's sacrifice comes after it, in a later layer
        for k, a in enumerate(pm.acts):
            if k != j and a.sacrifice and a.group == pm.acts[j].group:  # (a doubling may sacrifice itself)
                for l in range(pm.layers + 1):
                    if (l, j) in pm.count and (l, k) in pm.count:
                        m.add(pm.count[(l, j)] + pm.count[(l, k)] <= 1)
    for l in range(pm.layers + 1):  # layer 0 too: a doubling that costs no mana
        here = [j for j in doubling if (l, j) in pm.count]
        if not here:
            continue
        m.add(linear_sum([pm.count[(l, j)] for j in here]) <= 1)  # (one that removes counters too)
        own = {id(pm.comb_vars[(l, j, t)]) for j in here for t in MANA_TYPES}
        for t in MANA_TYPES:
            kinds = [k for k in pm.kinds if k[0] == t and not k[5]]
            held = sum(pm.pool0[k] for k in kinds) + linear_sum(
                [v for ll in range(l + 1) for k in kinds for v in pm.produced[(ll, k)] if id(v) not in own]) - linear_sum(
                [v for s in range(1, l + 1) for k in kinds for v in pm.spent.get((s, k), ())])
            for j in here:
                made, on = pm.comb_vars[(l, j, t)], pm.count[(l, j)]
                m.add(made <= held)
                m.add(made <= big * on)
                m.add(made >= held - big * (1 - on))


def add_mana_count(pm) -> None:
    """The limits above summed over the kinds abilities may spend, stage by stage: the
    mana spent on abilities by stage s is at most the floating mana and what the
    earlier layers made. Implied by the limits of each kind, so the model's plans are
    the same; but written over activation counts, what a converter ({1}: Add {W},
    {2}: Add {C}{C}) costs and makes cancels, and the search sees at once that
    converters add no mana (2 x activations <= 1 fixes a {2} converter at 0, where the
    LP alone allows half an activation in every layer). Without it, proving that a
    chain of converters can't be fed took seconds on 20 to 42 layers (``SLOW`` of
    tests/test_edges.py: 2.9 s at 42 layers, 15 s at 20; with it 0.1 s and 0.04 s).
    Only boards with abilities that cost mana and don't tap or sacrifice (the ones
    that can be activated again and again, in many layers) need it; elsewhere it
    costs about 1 ms of a 5 ms solve."""
    if not any(a.costs_mana and not a.tap and not a.sacrifice for a in pm.acts):
        return
    kinds = [k for k in pm.kinds if any(pm.spent[(s, k)] for s in range(1, pm.layers + 1))]
    spend: list
    made: list
    spend, made = [], []
    for s in range(1, pm.layers + 1):
        spend.extend(t for (st, _), terms in pm.demand.items() if st == s for t in terms)
        layers = range(s - 1, pm.layers + 1) if pm.relaxed and s == pm.layers else (s - 1,)
        made.extend(v for l in layers for k in kinds for v in pm.produced[(l, k)])
        if spend:
            pm.model.add(linear_sum(spend) - linear_sum(made) <= sum(pm.pool0[k] for k in kinds))


def add_relaxed_tail(pm, stages: list) -> None:
    """What every real order of the tail layer satisfies (so the model stays a
    relaxation of plans of any depth): its first activation is paid from outside the
    tail, and the mana the tail makes last pays nothing in it. ``tail_self`` counts
    the tail's mana spent in the tail."""
    m, acts, L = pm.model, pm.acts, pm.layers
    tail_spent, tail_made = [], []
    for k in pm.kinds:
        outside = pm.pool0[k] + sum(v for l in range(L) for v in pm.produced[(l, k)]) - sum(
            v for st in stages[: L - 1] for v in pm.spent[(st, k)])
        here = sum(pm.spent[(L, k)]) if pm.spent[(L, k)] else 0
        own = m.new_int_var(0, pm.bound, f"tail_self_{''.join(map(str, k))}")
        m.add(own >= here - outside)
        tail_spent.append(here)
        pm.tail_self.append(own)
        tail_made.extend(pm.produced[(L, k)])
    in_tail = [j for j in range(len(acts)) if (L, j) in pm.count]
    busy = m.new_bool_var("tail_used")
    m.add(sum(pm.count[(L, j)] for j in in_tail) <= sum(acts[j].cap for j in in_tail) * busy)
    least_cost = min(sum(o.mana_count for o in cheapest(acts[j].cost_symbols)) for j in in_tail)
    least_made = min(acts[j].combination or min(len(alt) for alt in acts[j].alternatives) for j in in_tail)
    m.add(sum(tail_spent) - sum(pm.tail_self) >= least_cost * busy)
    m.add(sum(pm.tail_self) <= sum(tail_made) - least_made * busy)
