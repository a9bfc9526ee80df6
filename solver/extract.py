"""Turning a CP-SAT solution into a plan that can be carried out at the table.

Counts per group become activations of named permanents, in layer order (an ability
that costs mana comes after the abilities whose mana pays it), and the counts of mana
per kind become concrete mana: each payment line says which permanent's mana paid which
symbol. The plan carries the announcements too, so the validator can recompute the
locked-in total cost on its own (CR 601.2b, 601.2f).
"""

from __future__ import annotations

from bisect import insort

from collections import Counter, defaultdict, deque
from dataclasses import dataclass, replace

from manaplan.model.cost import HALVED_REDUCTIONS, Announcement, choice_symbols, total_cost
from manaplan.model.errors import PlanError
from manaplan.model.mana import Mana, ManaCost
from manaplan.model.plan import PaymentLine, Plan, Step, TriggeredMana, check_plan_size
from manaplan.model.problem import PaymentProblem
from manaplan.model.symbols import ANY, GENERIC, MANA_TYPES, SNOW, SNOW_ANY, Symbol, need_of
from manaplan.solver.cpsat import PaymentModel
from manaplan.solver.payment_values import SPELL


class _Pool:
    """Concrete mana in the pool, by kind, oldest first."""

    def __init__(self, units):
        self.by_kind = defaultdict(deque)
        for u in units:
            self.add(u)

    def add(self, u: Mana):
        self.by_kind[u.kind].append(u)

    def take(self, kind) -> Mana:
        if not self.by_kind[kind]:
            raise PlanError(f"no mana of kind {kind} left to spend")
        return self.by_kind[kind].popleft()

    def rest(self) -> list:
        return [u for us in self.by_kind.values() for u in us]


def extract_plan(problem: PaymentProblem, b: PaymentModel, solver, optimal: bool, start_pool=None,
                 earlier: tuple = (), cost=None) -> Plan:
    """The solved model as a :class:`Plan`: activations of named permanents layer by layer
    (taps before sacrifices within a layer, life paid before damage), each cost symbol
    paid by concrete mana from the pool, then the spell's locked-in total cost (CR
    601.2h). ``earlier``: the plans made before this one in the same step (a sequence):
    what they tapped, sacrificed and removed is used up. ``cost``: the chosen spell's cost
    as the board stood when it was cast (a turn's: solver.turn_costs), in place of the
    cost it was modelled from; held to the model's demand all the same."""
    val = solver.value
    check_plan_size(sum(val(v) for v in b.act_vars.values()))
    pay_budget = Counter({key: val(v) for key, v in b.pay_vars.items() if val(v)})
    uses = _Uses(b.supply.groups)
    _used_up(uses, b.supply, earlier)
    pool = _Pool(b.supply.pool if start_pool is None else start_pool)
    steps = _steps(b, val, _activations(b, val, uses), pool, pay_budget)
    total, halves, red_halves = _chosen_total(b, val, cost)
    payment = _spell_payment(total, pool, pay_budget)
    return Plan(tuple(steps), total, tuple(payment), tuple(pool.rest()),
                tuple((s, h) for h, s in halves), tuple((s, h) for h, s in red_halves), optimal)


def _used_up(uses: "_Uses", supply, earlier: tuple) -> None:
    """What the plans before this one in the step tapped, sacrificed and removed."""
    for plan in earlier:
        for step in plan.steps:
            s = uses.named(step.permanent)
            if s is None:
                continue
            s.tapped = s.tapped or step.taps
            s.sacrificed = s.sacrificed or step.sacrifices
            a = next((a for a in supply.acts if a.index == step.ability and step.permanent in supply.groups[a.group].ids),
                     None)
            if a is not None and a.counters:
                s.counters[a.counter_kind] -= a.counters
        for pid in plan.cost_sacrificed:  # (its spell's additional cost: gone too, CR 601.2h)
            s = uses.named(pid)
            if s is not None:
                s.sacrificed = True


def _activations(b: PaymentModel, val, uses: "_Uses") -> list:
    """(layer, act#, (own mana, triggers' mana), permanent id) for each activation, layer
    by layer, in the order the model's rules give within a layer (taps before
    sacrifices, a counting sacrifice after the others, life before damage, a doubling
    last), each by a permanent of its group that can."""
    acts = b.supply.acts
    activations = []
    for l in range(b.layers + 1):
        this_layer = []
        for (ll, j, ai), v in b.act_vars.items():
            if ll != l or not val(v):
                continue
            a = acts[j]
            for out in _outputs(b, val, l, j, ai, v):
                this_layer.append((a.doubles, a.sacrifice, bool(a.counted) and a.sacrifice, _life_order(a), not a.tap, j,
                                   out))
        for *_, j, out in sorted(this_layer, key=lambda r: r[:6]):
            a = acts[j]
            activations.append((l, j, out, _pick_permanent(a, uses, a.group)))
    return activations


def _outputs(b: PaymentModel, val, l: int, j: int, ai, v) -> list:
    """(own mana, triggers' mana) of each activation a variable counts: a doubling's as
    the pool holds then, a combination's as split among its types, a counted amount less
    what sacrifices before it took (CR 700.5)."""
    a = b.supply.acts[j]
    if a.doubles:  # as much of each type as the pool holds then (the model's amounts)
        return [(tuple(t for t in MANA_TYPES for _ in range(val(b.comb_vars[(l, j, t)]))), ())]
    if ai is None:
        made = []
        for t in a.combination_types:
            made += [t] * val(b.comb_vars[(l, j, t)])
        return [(tuple(made[k * a.combination:(k + 1) * a.combination]), ()) for k in range(val(v))]
    own = a.alternatives[ai]
    if (l, j, ai) in b.lost:  # counted on a board some sacrifices left first (CR 700.5)
        unit, gone = a.counted[ai][0], val(b.lost[(l, j, ai)][1])
        own = tuple((Counter(own) - Counter({t: c * gone for t, c in Counter(unit).items()})).elements())
    return [(own, a.extra(ai))] * val(v)


def _steps(b: PaymentModel, val, activations: list, pool: "_Pool", pay_budget: Counter) -> list:
    """The plan's steps: each activation's cost symbols paid by concrete mana from the
    pool as it is then (CR 605.3), its mana joining the pool after its layer (a doubling
    doubles what the layer left before it too)."""
    acts = b.supply.acts
    steps = []
    opt_budget = Counter({key: val(v) for key, v in b.opt_vars.items() if val(v)})
    for l in range(b.layers + 1):
        made_now: list[Mana] = []
        for (ll, j, (out, extra), pid) in activations:
            if ll != l:
                continue
            a = acts[j]
            if a.doubles:  # it doubles what the layer's other activations left in the pool too
                for u in made_now:
                    pool.add(u)
                made_now = []
            payment = []
            for si, sym in enumerate(a.cost_symbols):
                options = sym.payment_options(0)
                oi = 0
                if len(options) > 1:
                    oi = next(o for o in range(len(options)) if opt_budget[(l, j, si, o)] > 0)
                    opt_budget[(l, j, si, oi)] -= 1
                opt = options[oi]
                if opt.life:
                    payment.append(PaymentLine(sym, life=opt.life))
                for need in opt.needs:
                    unit = _spend(pool, pay_budget, l, need)
                    payment.append(PaymentLine(sym, unit.type, unit.source, half=opt.label if len(options) > 1 else ""))
            who = pid.split(":")[0] if a.exile else pid
            made_now += [Mana(t, a.mana.snow, a.mana.spell_only, a.mana.generic_only, a.mana.ability_only,
                              a.made_by or who, a.mana.keyword) for t in out]
            made_now += [Mana(e.type, e.snow, False, False, False, e.source) for e in extra]
            steps.append(Step(who, a.index, a.text, tuple(out), payment=tuple(payment), triggered=_triggered(extra),
                              taps=a.tap, sacrifices=a.sacrifice, exiles=a.exile, life=a.life, damage=a.damage + a.trigger_damage,
                              before_casting=a.precast, via=(a.made_by, a.made_by_ability) if a.made_by else (),
                              co_taps=a.co_tap is not None, energy=a.energy, given_by=a.given_by))
        for u in made_now:
            pool.add(u)
    return steps


def _chosen_total(b: PaymentModel, val, cost=None) -> tuple:
    """(the locked-in total of the candidate spell the model chose, its announced halves,
    its reductions' halves): recomputed by the rules (model.cost) from the model's
    announcements, and held to the model's own demand (CR 601.2b, 601.2f)."""
    ci = next(i for i, (_, sel) in enumerate(b.candidates) if _value(val, sel))
    spell = b.candidates[ci][0].cost if cost is None else cost
    if ci in b.kicks:  # its multikicker, paid as many times as the model chose (CR 702.33c)
        kicks = b.kicks[ci]
        spell = replace(spell, additional=spell.additional + (ManaCost(kicks.per_kick.symbols * val(kicks.count)),))
    ann = {(sym, label): v for (i, sym, label), v in b.ann_vars.items() if i == ci}
    red = {(sym, half): v for (i, sym, half), v in b.red_vars.items() if i == ci}
    halves = _labels(choice_symbols(spell.added_symbols), ann, val)
    red_halves = _labels([s for s in spell.reduction_symbols if s.kind in HALVED_REDUCTIONS], red, val)
    total = total_cost(spell, Announcement(tuple(h for h, _ in halves), tuple(h for h, _ in red_halves)))
    d = b.spell_demands[ci]
    expect = (_value(val, d.generic), tuple(_value(val, d.typed[t]) for t in MANA_TYPES), _value(val, d.snow))
    if (total.generic, total.typed, total.snow) != expect:
        raise PlanError(f"total cost {total} does not match the model's {expect}")
    return total, halves, red_halves


def _spell_payment(total, pool: "_Pool", pay_budget: Counter) -> list:
    """The spell's payment lines (CR 601.2h): generic, each type, snow, each from the
    pool as the model spent it; a Phyrexian symbol announced as life, 2 life (107.4f)."""
    payment = []
    generic_symbol = Symbol(GENERIC, (), total.generic)
    for _ in range(total.generic):
        u = _spend(pool, pay_budget, SPELL, ANY)
        payment.append(PaymentLine(generic_symbol, u.type, u.source))
    for t, n in zip(MANA_TYPES, total.typed):
        for _ in range(n):
            u = _spend(pool, pay_budget, SPELL, need_of(t))
            payment.append(PaymentLine(Symbol.parse("{%s}" % t), u.type, u.source))
    for _ in range(total.snow):
        u = _spend(pool, pay_budget, SPELL, SNOW_ANY)
        payment.append(PaymentLine(Symbol(SNOW), u.type, u.source))
    for sym in total.life_symbols:
        payment.append(PaymentLine(sym, life=2))  # CR 107.4f
    return payment


def _life_order(a) -> tuple:
    """Where an activation stands among its layer's (the model's rule, CR 118.3): life
    paid first, smallest damage first among those that also deal damage, damage last."""
    if a.pays_life:
        return (0, 0) if not a.damage else (1, a.damage)
    return (3, 0) if a.damage else (2, 0)


def _triggered(extra) -> tuple:
    """The triggered mana abilities a step set off (CR 605.4a), each with the mana it
    added."""
    by_trigger: dict = {}
    for e in extra:
        by_trigger.setdefault((e.source, e.index), []).append(e.type)
    return tuple(TriggeredMana(src, index, tuple(types)) for (src, index), types in by_trigger.items())


def _value(val, expr) -> int:
    return expr if isinstance(expr, int) else val(expr)


def _labels(symbols, counts: dict, val) -> list:
    """(label, symbol) for each symbol in order, from the model's counts per
    (symbol, label): the announced halves of hybrid symbols, or of hybrid reductions."""
    left = Counter({key: val(v) for key, v in counts.items()})
    out = []
    for sym in symbols:
        label = next(lb for (s, lb), n in left.items() if s == sym and n > 0)
        left[(sym, label)] -= 1
        out.append((label, sym))
    return out


def _spend(pool: _Pool, budget: Counter, stage, need) -> Mana:
    for (st, nd, kind), n in budget.items():
        if st == stage and nd == need and n > 0:
            budget[(st, nd, kind)] -= 1
            return pool.take(kind)
    raise PlanError(f"the model pays {need} at stage {stage} with nothing")


def _pick_permanent(a, uses: "_Uses", g: int) -> str:
    """Choose which permanent of group ``g`` performs activation ``a``: the first in the
    group's order that can, or, for a sacrifice without {T}, one already tapped."""
    ids = uses.groups[g].ids
    best = None
    for k in uses.candidates(g, a.tap):
        s = uses.at(g, k)
        if s.sacrificed:
            continue
        if a.tap and s.tapped:
            continue
        if a.counters and s.counters.get(a.counter_kind, 0) < a.counters:
            continue
        if best is None or (a.sacrifice and not a.tap and s.tapped and not uses.at(g, best).tapped):
            best = k
    if best is None:
        raise PlanError(f"no permanent left in the group for ability {a.index}")
    s = uses.touch(g, best)
    s.tapped = s.tapped or a.tap
    s.sacrificed = s.sacrificed or a.sacrifice
    if a.counters:
        s.counters[a.counter_kind] -= a.counters
    return ids[best]


class _Uses:
    """What has happened to the permanents while the plan is read back. A group's
    members are alike until one is used: only the used ones are kept (by position in the
    group), so a group of thousands costs what its activations cost."""

    def __init__(self, groups):
        self.groups = groups
        self.used: list[dict[int, _Use]] = [{} for _ in groups]  # group -> {position: _Use}
        self.fresh = [0] * len(groups)  # group -> the first position not used
        self._where = None
        # group -> used positions, in order, that may still act: not sacrificed (``live``),
        # and not tapped either (``untapped``); a position found past use is dropped for good,
        # so a plan of many steps reads back in time linear in its steps
        self.live: list[list[int]] = [[] for _ in groups]
        self.untapped: list[list[int]] = [[] for _ in groups]

    def at(self, g: int, k: int) -> "_Use":
        """The state of the member at position ``k`` of group ``g`` (as the group has it
        if unused)."""
        s = self.used[g].get(k)
        return s if s is not None else _Use(self.groups[g].tapped, False, dict(self.groups[g].counters))

    def touch(self, g: int, k: int) -> "_Use":
        """The state of that member, kept from now on."""
        if k not in self.used[g]:
            self.used[g][k] = self.at(g, k)
            while self.fresh[g] in self.used[g]:
                self.fresh[g] += 1
            insort(self.live[g], k)
            insort(self.untapped[g], k)
        return self.used[g][k]

    def candidates(self, g: int, tap: bool = False) -> list:
        """The positions worth looking at, in order: those used that may still act (not
        sacrificed; for a {T} ability, not tapped), and the first unused (the unused after
        it are alike)."""
        kept = self.untapped[g] if tap else self.live[g]
        used = self.used[g]
        kept[:] = [k for k in kept if not used[k].sacrificed and not (tap and used[k].tapped)]  # (each dropped once)
        out = list(kept)
        if self.fresh[g] < len(self.groups[g].ids):
            insort(out, self.fresh[g])
        return out

    def named(self, pid: str) -> "_Use | None":
        """The state of permanent ``pid``, kept from now on; None if no group has it."""
        if self._where is None:
            self._where = {i: (g, k) for g, grp in enumerate(self.groups) for k, i in enumerate(grp.ids)}
        where = self._where.get(pid)
        return None if where is None else self.touch(*where)


@dataclass
class _Use:
    """What has happened to one permanent so far while the plan is read back."""

    tapped: bool
    sacrificed: bool
    counters: dict
