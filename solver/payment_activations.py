"""The activations of a payment's model (solver.cpsat.PaymentModel): how many times each
ability of each group is activated in each layer, with which output, and the mana each
layer makes (CR 605.3: an ability that costs mana is paid by what earlier layers made;
605.4a: its triggers' mana comes with it); what each activation costs (CR 602.2b); the
losses of amounts counted on the board as sacrifices come first (CR 700.5); the mana
only some of a turn's spells may spend (CR 106.6)."""

from __future__ import annotations

from collections import Counter
from manaplan.model.symbols import MANA_TYPES, VARIABLE
from manaplan.solver.payment_values import extra_kind
from manaplan.solver.runtime import is_one, linear_sum


def add_activations(pm) -> None:
    """How many times each ability is activated in each layer, with which output
    (one of its alternatives, or a combination's split among types), and the mana
    each layer produces, its triggers' mana included (CR 605.4a)."""
    m = pm.model
    for j, a in enumerate(pm.acts):
        flags = a.mana.kind[1:]
        for l in pm.layers_of(a):
            if a.doubles:  # what it adds of each type: fixed by add_doublings, once the pool is known
                n = m.new_int_var(0, a.cap, f"double_L{l}_{j}")
                pm.act_vars[(l, j, None)] = n
                for t in MANA_TYPES:
                    v = m.new_int_var(0, pm.bound, f"doubled_L{l}_{j}_{t}")
                    pm.comb_vars[(l, j, t)] = v
                    pm.produced[(l, (t,) + flags)].append(v)
                pm.count[(l, j)] = n
                continue
            if a.combination:
                n = m.new_int_var(0, a.cap, f"act_L{l}_{j}")
                pm.act_vars[(l, j, None)] = n
                per_type = []
                for t in a.combination_types:
                    v = m.new_int_var(0, a.cap * a.combination, f"make_L{l}_{j}_{t}")
                    pm.comb_vars[(l, j, t)] = v
                    pm.produced[(l, (t,) + flags)].append(v)
                    per_type.append(v)
                m.add(linear_sum(per_type) == a.combination * n)
                pm.count[(l, j)] = n
                continue
            chosen = []
            for ai, alt in enumerate(a.alternatives):
                v = m.new_int_var(0, a.cap, f"act_L{l}_{j}_{''.join(alt)}")
                pm.act_vars[(l, j, ai)] = v
                chosen.append(v)
                if a.bonus:
                    for k, c in Counter(extra_kind(e) for e in a.extra(ai)).items():
                        pm.produced[(l, k)].append(c * v if c > 1 else v)
                if len(alt) == 1:  # most abilities add one mana: no Counter needed
                    pm.produced[(l, (alt[0],) + flags)].append(v)
                    continue
                for t, c in Counter(alt).items():
                    pm.produced[(l, (t,) + flags)].append(c * v if c > 1 else v)
            pm.count[(l, j)] = linear_sum(chosen)
        within = [pm.count[(l, j)] for l in pm.layers_of(a)]
        if len(within) > 1 or not a.combination and len(a.alternatives) > 1 or a.doubles:
            m.add(linear_sum(within) <= a.cap)  # a single variable has the cap as its domain
    by_act: dict = {}
    for (l, j), e in pm.count.items():
        by_act.setdefault(j, []).append(e)
    pm.totals = {j: linear_sum(es) for j, es in by_act.items()}
    add_counted_losses(pm)
    add_for_spells(pm)


def add_for_spells(pm) -> None:
    """With several candidate spells: an ability whose mana only some may spend (a
    restriction, CR 106.6), convoke, improvise or delve (702.51, 702.126, 702.66) is
    used only when one of those is the spell paid."""
    if all(is_one(sel) for _, sel in pm.candidates):
        return
    for j, a in enumerate(pm.acts):
        if a.for_spells is not None and j in pm.totals:
            sels = [pm.candidates[i][1] for i in a.for_spells]
            pm.model.add(pm.totals[j] <= a.cap * linear_sum(sels))


def add_counted_losses(pm) -> None:
    """CR 700.5, "for each ... you control": a counting ability counts the board as
    it resolves, so each permanent that adds to its count and was sacrificed in an
    earlier layer takes its units away from each of its activations (one that
    sacrifices its own permanent comes after the other sacrifices of its layer too).
    ``lost[(layer, act#, alt#)]`` is how many units the layer's activations lose."""
    m = pm.model
    pm.lost = {}
    sacs_of: dict = {}
    for j, a in enumerate(pm.acts):
        if a.sacrifice:
            sacs_of.setdefault(a.group, []).append(j)
    for j, a in enumerate(pm.acts):
        if not a.counted:
            continue
        for l in pm.layers_of(a):
            for ai, (unit, losses) in enumerate(a.counted):
                if not losses:
                    continue
                # the relaxed tail stands for every later layer: there a sacrifice may come
                # before the count or after it, whether the count sacrifices its own
                # permanent or not (a sacrifice in a layer after it is in the tail too)
                tail = pm.relaxed and l == pm.layers
                gone_here = [w * pm.count[(ll, k)] for g, w in losses for k in sacs_of.get(g, ())
                             for ll in pm.layers_of(pm.acts[k])
                             if ll < l or ll == l and a.sacrifice and not tail]
                earlier = pm.carried.sacrificed
                gone_here += [w * earlier[pm.supply.groups[g].ids] for g, w in losses
                              if pm.supply.groups[g].ids in earlier]
                in_tail = [w * pm.count[(l, k)] for g, w in losses for k in sacs_of.get(g, ())
                           if l in pm.layers_of(pm.acts[k])] if tail else []
                if not gone_here and not in_tail:
                    continue
                most = sum(w * pm.supply.groups[g].size for g, w in losses)
                before = m.new_int_var(0, most, f"counted_gone_L{l}_{j}_{ai}")
                if in_tail:  # the tail's order is not fixed: its own sacrifices may come first
                    m.add(before >= linear_sum(gone_here))
                    m.add(before <= linear_sum(gone_here + in_tail))
                    # a real plan counts as the strict rule does: one that sacrifices its own
                    # permanent after the layer's other sacrifices, any other before them
                    strict = gone_here + in_tail if a.sacrifice else gone_here
                    pm.tail_count_checks.append((before, linear_sum(strict)))
                else:
                    m.add(before == linear_sum(gone_here))
                n = pm.act_vars[(l, j, ai)]
                if a.extra(ai):  # its triggers need mana made (model.triggers.sets_off): some units left
                    full = len(a.alternatives[ai]) // max(1, len(unit))
                    active = m.new_bool_var(f"counted_active_L{l}_{j}_{ai}")
                    m.add(n >= 1).only_enforce_if(active)
                    m.add(n == 0).only_enforce_if(~active)
                    m.add(before <= full - 1).only_enforce_if(active)
                lost = m.new_int_var(0, most * a.cap, f"counted_lost_L{l}_{j}_{ai}")
                m.add_multiplication_equality(lost, [n, before])
                pm.lost[(l, j, ai)] = (lost, before)
                flags = a.mana.kind[1:]
                for t, c in Counter(unit).items():
                    pm.produced[(l, (t,) + flags)].append(-c * lost)


def add_ability_costs(pm) -> None:
    """Each activation's cost (CR 602.2b, 605.3): its life and damage, and the mana
    it needs in its layer; a symbol with a choice (hybrid, Phyrexian) is paid by one
    of its options per activation."""
    m = pm.model
    for j, a in enumerate(pm.acts):
        for l in pm.layers_of(a):
            if a.life:
                pm.life_at.setdefault((l, a.sacrifice), []).append(a.life * pm.count[(l, j)])
            if a.damage:
                pm.damage_at.setdefault((l, a.sacrifice, a.pays_life), []).append(a.damage * pm.count[(l, j)])
            if a.trigger_damage:  # (City of Brass: its trigger resolves after the spell is cast, CR 603.3)
                pm.damage_later.append(a.trigger_damage * pm.count[(l, j)])
        if not a.costs_mana:
            continue
        for l in range(1, pm.layers + 1):
            n = pm.count[(l, j)]
            for si, sym in enumerate(a.cost_symbols):
                if sym.kind == VARIABLE:
                    raise ValueError("X in an ability cost is not supported")
                options = sym.payment_options(0)
                if len(options) == 1:
                    for need in options[0].needs:
                        pm.demand.setdefault((l, need), []).append(n)
                    continue
                chosen = []
                for oi, opt in enumerate(options):
                    v = m.new_int_var(0, a.cap, f"opt_L{l}_{j}_{si}_{opt.label}")
                    pm.opt_vars[(l, j, si, oi)] = v
                    chosen.append(v)
                    for need in opt.needs:
                        pm.demand.setdefault((l, need), []).append(v)
                    if opt.life:
                        pm.life_at.setdefault((l, a.sacrifice), []).append(opt.life * v)
                m.add(sum(chosen) == n)
