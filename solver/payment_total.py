"""The spell's total cost in a payment's model (solver.cpsat.PaymentModel), as model
expressions: X and each hybrid, twobrid or Phyrexian symbol announced (CR 601.2b,
118.13a), additional costs and increases added, reductions taken off (CR 118.7a-g), the
floor applied last (601.2f), each candidate spell's scaled by its selector."""

from __future__ import annotations

from collections import Counter
from manaplan.model.cost import HALVED_REDUCTIONS
from manaplan.model.symbols import ALL_TYPES, ANY, GENERIC, GENERIC_HALF, MANA_TYPES, SNOW, SNOW_ANY, TWOBRID, VARIABLE, need_of
from manaplan.solver.payment_values import SPELL, SpellDemand
from manaplan.solver.runtime import is_one, is_zero, linear_sum


def add_spell_cost(pm, x_fixed: int | None) -> SpellDemand:
    """The spell's total cost (CR 601.2f): announced symbols, minus reductions,
    then the floor; its mana is demanded at the SPELL stage. With several candidate
    spells, each one's cost is scaled by its selector (0 or 1), so only the chosen
    one is demanded."""
    pm.spell_demands = []
    for ci, (spell, sel) in enumerate(pm.candidates):
        cost = spell.cost
        if x_fixed is None:
            most = pm.bound + sum(max(s.amount, 2) for s in cost.reduction_symbols) + len(cost.added_symbols)
            pm.x_var = x = pm.model.new_int_var(0, most, "X")
        else:
            x = most = x_fixed if is_one(sel) else cost.x
        typed_pre, generic_pre, snow_pre = announce(pm, cost, x, sel, ci)
        shift = pm.shifts.get(ci)
        if shift is not None:  # the turn's board, as it stands when this spell is cast (solver.turn)
            generic_pre += shift.increase.get("generic", [])
            for t in MANA_TYPES:
                typed_pre[t] += shift.increase.get(t, [])
        typed_req, generic = reduce(pm, cost, typed_pre, generic_pre, most, ci, shift)
        snow = linear_sum(snow_pre)
        generic = floor(pm, cost, generic, typed_req, snow, most, sel, ci, shift)
        if not is_zero(generic):
            pm.demand.setdefault((SPELL, ANY), []).append(generic)
        for t in MANA_TYPES:
            if not is_zero(typed_req[t]):
                pm.demand.setdefault((SPELL, need_of(t)), []).append(typed_req[t])
        if not is_zero(snow):
            pm.demand.setdefault((SPELL, SNOW_ANY), []).append(snow)
        pm.spell_demands.append(SpellDemand(generic, typed_req, snow))
    return pm.spell_demands[0]


def announce(pm, cost, x, sel, ci: int) -> tuple:
    """CR 601.2b, 107.3, 118.13a: X is announced, and each hybrid, twobrid or Phyrexian
    symbol as one of its halves (how many of each symbol take each half); returns
    the mana each type needs, the generic mana and the snow mana before reductions."""
    typed: dict[str, list] = {t: [] for t in MANA_TYPES}
    generic, snow = [], []

    def need(n_need, n):
        if n_need.snow:
            snow.append(n)
        elif n_need.types == ALL_TYPES:
            generic.append(n)
        else:
            (t,) = n_need.types
            typed[t].append(n)

    fixed = Counter(cost.added_symbols)
    kicks = pm.kicks.get(ci)
    per_kick = Counter(kicks.per_kick.symbols) if kicks is not None else Counter()
    for sym in list(fixed) + [s for s in per_kick if s not in fixed]:
        n = fixed[sym]
        count = n * sel if not is_one(sel) else n  # how many times it is paid: its count, and each kick's
        most = n
        if per_kick[sym]:
            count = linear_sum([t for t in (count, per_kick[sym] * kicks.count) if not is_zero(t)])
            most += per_kick[sym] * kicks.most
        if sym.kind == VARIABLE:
            generic.append(n * x * sel if not is_one(sel) else n * x)
            continue
        options = sym.payment_options(0)
        if len(options) == 1:
            for n_need in options[0].needs:
                need(n_need, count)
            continue
        halves = []
        for opt in options:
            v = pm.model.new_int_var(0, most, f"announce_{sym}_{opt.label}")
            pm.ann_vars[(ci, sym, opt.label)] = v
            halves.append(v)
            for n_need in opt.needs:
                need(n_need, v)
            if opt.life:
                pm.spell_life.append(opt.life * v)
        pm.model.add(sum(halves) == count)
    return typed, generic, snow


def reduce(pm, cost, typed_pre: dict, generic_pre: list, most: int, ci: int, shift=None) -> tuple:
    """CR 118.7: generic reductions reduce generic mana (118.7a); a typed one reduces
    its type, and what its type doesn't require spills to generic (118.7b-d); a
    hybrid reduction reduces the half the player picks (118.7e), snow reduces generic
    (118.7g). Generic mana never goes below 0 (so a candidate spell not chosen, whose
    symbols are all 0, costs nothing whatever its reductions)."""
    m = pm.model
    generic_red = 0
    typed_red: dict[str, list] = {t: [] for t in MANA_TYPES}
    for sym, n in Counter(cost.reduction_symbols).items():
        if sym.kind == GENERIC:
            generic_red += sym.amount * n
        elif sym.kind == SNOW:
            generic_red += n
        elif sym.kind in HALVED_REDUCTIONS:
            halves = list(sym.colors) + ([GENERIC_HALF] if sym.kind == TWOBRID else [])
            picks = []
            for h in halves:
                v = m.new_int_var(0, n, f"reduce_{sym}_{h}")
                pm.red_vars[(ci, sym, h)] = v
                picks.append(v)
                if h == GENERIC_HALF:
                    generic_red = generic_red + 2 * v
                else:
                    typed_red[h].append(v)
            m.add(sum(picks) == n)
        else:
            typed_red[sym.colors[0]].append(n)
    if shift is not None:  # (a count that rose or fell since the spell was costed: solver.turn)
        generic_red = linear_sum([generic_red] + shift.reduce.get("generic", []))
        for t in MANA_TYPES:
            typed_red[t] += shift.reduce.get(t, [])
    reduction_bound = sum(2 * n for n in Counter(cost.reduction_symbols).values()) + sum(
        s.amount for s in cost.reduction_symbols) + (pm.bound if shift is not None else 0)
    spill, typed_req = [], {}
    for t in MANA_TYPES:
        pre = linear_sum(typed_pre[t])
        if not typed_red[t]:
            typed_req[t] = pre
            continue
        used = m.new_int_var(0, reduction_bound, f"reduced_{t}")
        m.add_min_equality(used, [pre, linear_sum(typed_red[t])])
        spill.append(linear_sum(typed_red[t]) - used)
        typed_req[t] = pre - used
    rest = linear_sum(generic_pre) - generic_red - linear_sum(spill)
    if isinstance(rest, int):
        return typed_req, max(0, rest)
    extra = shift.bound if shift is not None else 0
    generic = m.new_int_var(0, generic_bound(cost, most, pm.kicks.get(ci)) + extra, "generic_after_reductions")
    m.add_max_equality(generic, [0, rest])
    return typed_req, generic


def floor(pm, cost, generic, typed_req: dict, snow, most: int, sel=1, ci: int = 0, shift=None):
    """CR 601.2f: effects that set the total apply last (Trinisphere: at least
    ``minimum`` mana), by adding generic mana; a turn's board may say the floor is an
    expression (its permanent tapped or gone by then: ``shift.floor``)."""
    minimum = cost.minimum
    if shift is not None and shift.floor is not None:
        floor, minimum = shift.floor, max(minimum, pm.bound)
    elif not minimum:
        return generic
    else:
        floor = minimum * sel if not is_one(sel) else minimum
    total = generic + linear_sum(list(typed_req.values())) + snow
    if isinstance(total, int) and isinstance(floor, int):
        return max(generic, generic + floor - total)
    extra = shift.bound if shift is not None else 0
    floored = pm.model.new_int_var(0, generic_bound(cost, most, pm.kicks.get(ci)) + minimum + extra,
                                     "generic_total")
    pm.model.add_max_equality(floored, [generic, generic + floor - total])
    return floored


def generic_bound(cost, x_bound: int, kicks=None) -> int:
    """The most generic mana the spell's total could ask for, before reductions (its
    multikicker paid the most times the model allows, when the model chooses)."""
    per_kick = sum(max(s.amount, 2) for s in kicks.per_kick.symbols) * kicks.most if kicks is not None else 0
    return sum(max(s.amount, 2) for s in cost.added_symbols) + x_bound * (cost.x_count + 1) + 1 + per_kick
