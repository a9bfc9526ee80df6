"""The payment as one CP-SAT model, built in named steps that each state their rule.

Variables count activations per (layer, group, ability, output choice). Layer 0 holds
abilities with no mana in their cost; an ability whose cost includes mana sits in a
layer 1..L and is paid only with mana made in earlier layers (or floating), so chains
are acyclic and a filter land never pays for itself (CR 605.3c). The spell is paid
last from everything left (CR 601.2g-h).

The spell's choices are variables too: how many of each hybrid, twobrid or Phyrexian
symbol are announced as each half (CR 601.2b), which half each hybrid reduction
reduces (118.7e), and the reductions' effect is stated with min/max constraints that
mirror :func:`manaplan.model.cost.total_cost` (118.7a-d, then the Trinisphere floor,
601.2f).

The objective is the protocol's, lexicographic by weights: sacrifices, life, permanents
tapped, cards exiled (delve), flexibility kept, mana left floating.

>>> from manaplan.model.cost import SpellCost
>>> from manaplan.model.problem import PaymentProblem, Spell
>>> from manaplan.model.sources import Ability, AbilityCost, Board, Output, Permanent, Player
>>> from manaplan.solver.supply import build_supply
>>> forest = Permanent("f", abilities=(Ability(AbilityCost(tap=True), Output.parse("{G}")),))
>>> problem = PaymentProblem(Spell(SpellCost.of("{G}")), Board((forest,)), Player())
>>> model = PaymentModel(problem, build_supply(problem), layers=0, x_fixed=0)
>>> solver, status = model.solve_best(1.0)
>>> status, model.value(solver, model.objective_terms.tapped)
(<Status.OPTIMAL: 'proven optimal'>, 1)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from ..model.cost import HALVED_REDUCTIONS
from ..model.mana import Mana
from ..model.plan import CONVOKE, IMPROVISE
from ..model.problem import PaymentProblem
from ..model.symbols import ALL_TYPES, ANY, GENERIC, GENERIC_HALF, MANA_TYPES, SNOW, SNOW_ANY, TWOBRID, VARIABLE, need_of

from .runtime import (check_model_size, is_one, is_zero, linear_sum, new_model, payment_tuning, solve_lexicographic,
                      solve_model, value_of)
from .supply import Supply, doubling_factor, weighed_by_hand

#: the stage at which the spell itself is paid, after every layer of abilities
SPELL = "spell"
class Objective(NamedTuple):
    """The protocol's default objective, most important term first (each term an
    expression of the model, or its value in a solution). ``before_casting`` counts the
    activations a payment needs before the spell is cast: a payment that needs none is
    preferred (v2's ``mid_cast``)."""

    before_casting: object
    sacrificed: object
    life: object
    spared: object
    tapped: object
    exiled: object
    flexibility: object
    floating: object


def _extra_kind(extra) -> tuple:
    """The kind of a mana a trigger adds: its source's snow, no spending restriction."""
    return Mana(extra.type, extra.snow).kind


@lru_cache(maxsize=4096)
def _can_pay(kind: tuple, need, for_spell: bool, any_color: bool = False) -> bool:
    """Whether mana of this kind may pay ``need`` (cached: a handful of kinds and needs
    recur in every query); ``any_color``: as though it were mana of any color."""
    return Mana.of_kind(kind).can_pay(need, for_spell, any_color)


def _cheapest(symbols) -> list:
    """For each symbol, its option paid with the fewest mana."""
    return [min(s.payment_options(0), key=lambda o: o.mana_count) for s in symbols]


@dataclass
class Carried:
    """What the payments made before this one in the same step leave it (a sequence of
    spells, or a spell kept castable after a payment): mana still floating, by kind, as
    expressions of the shared model (CR 106.4: the pool empties only between steps), an
    upper bound on it, the life lost so far, and how many permanents of each group (by
    its ids) were sacrificed (they count no more: CR 700.5)."""

    pool: dict = field(default_factory=dict)
    pool_bound: int = 0
    life_lost: object = 0
    sacrificed: dict = field(default_factory=dict)
    energy_paid: object = 0  # the player's energy counters paid so far ({E})


class VariableKicks(NamedTuple):
    """A candidate spell's multikicker (CR 702.33c) paid ``count`` times, a variable of the
    model from 0 to ``most`` (0 when the candidate is not the spell paid)."""

    per_kick: object  # ManaCost: one kick
    count: object
    most: int


@dataclass
class SpellDemand:
    """The spell's locked-in total as model expressions: generic mana, mana of each
    type, snow mana."""

    generic: object
    typed: dict
    snow: object


class PaymentModel:
    """The CP-SAT model of one payment, with the handles a plan is read back from.

    ``layers`` is the number of layers for abilities that cost mana; ``x_fixed`` None
    makes X a variable (for the ``max_x`` query). With ``relaxed_tail`` the last layer
    stands for every activation at that depth or deeper: it may fund itself (in an order
    the model does not fix), under two conditions every real order meets, so the model
    is a relaxation of plans of any depth. A solution whose tail funds nothing from
    itself (``tail_self`` all 0) is a real plan. With ``self_funding`` every layer may
    fund itself: with one layer more than the doublings on the board (Doubling Cube), a
    relaxation of every plan (see :meth:`_add_doublings`) whose solutions are not read
    as plans.
    """

    def __init__(self, problem: PaymentProblem, supply: Supply, layers: int, x_fixed: int | None,
                 relaxed_tail: bool = False, model=None, carried: Carried | None = None, candidates=None,
                 self_funding: bool = False):
        if model is None:  # (a shared model's owner counts all of its payments: solver.turn.Depth)
            check_model_size(max(1, layers) * len(supply.acts))
        self.model = model if model is not None else new_model()
        #: the spells this payment may be for, each with its selector (1, or a 0/1 variable
        #: of the shared model: solver.turn picks at most one per payment), and for some a
        #: multikicker paid a number of times the model chooses: {candidate#: VariableKicks}
        given = candidates if candidates is not None else [(problem.spell, 1)]
        self.candidates = [(c[0], c[1]) for c in given]
        self.kicks = {ci: c[2] for ci, c in enumerate(given) if len(c) > 2 and c[2] is not None}
        supply = weighed_by_hand(supply, problem.color_needs)  # the flexibility term's weights
        self.any_color = problem.board.any_color_spending  # CR 609.4b: how mana may be spent
        self.problem, self.supply, self.layers = problem, supply, layers
        self.carried = carried or Carried()
        self.acts = supply.acts
        # the mana carried from earlier payments (a ritual's too) may be doubled here as well
        self.bound = max(supply.mana_bound + self.carried.pool_bound * doubling_factor(supply.acts), 1)
        self.relaxed = relaxed_tail and layers >= 1
        self.self_funding = self_funding
        if self.relaxed and supply.doubles:
            raise ValueError("a relaxed tail can't stand for a doubling: its amount is the pool at one point")
        self.act_vars: dict = {}    # (layer, act#, alt#) -> var (alt# None for a combination)
        self.comb_vars: dict = {}   # (layer, act#, type) -> var
        self.opt_vars: dict = {}    # (layer, act#, symbol#, option#) -> var
        self.pay_vars: dict = {}    # (stage, need, kind) -> var
        self.ann_vars: dict = {}    # (candidate#, symbol, option label) -> var
        self.red_vars: dict = {}    # (candidate#, reduction symbol, half) -> var
        self.x_var = None
        self.tail_self: list = []
        self.demand: dict = {}      # (stage, need) -> terms
        self.life_at: dict = {}     # (layer, sacrifices?) -> life its activations pay
        self.damage_at: dict = {}   # (layer, sacrifices?, also pays life?) -> damage they deal
        self.spell_life: list = []  # the spell's Phyrexian symbols announced as life
        self.tail_life_checks: list = []  # (life paid, life lost by then): the tail's strict rule
        self.tail_count_checks: list = []  # (units gone, gone in earlier layers): the tail's strict count
        self.kinds = self._mana_kinds()
        self.pool0 = Counter(u.kind for u in supply.pool)  # (Mana.kind: what decides what it pays)
        for k, expr in self.carried.pool.items():
            self.pool0[k] = self.pool0[k] + expr
        self.produced = {(l, k): [] for l in range(layers + 1) for k in self.kinds}
        self.count: dict = {}       # (layer, act#) -> activations of act# in that layer
        self._add_activations()
        self._add_permanent_budgets()
        self._add_energy_budget()
        self._add_ability_costs()
        self.spell_demand = self._add_spell_cost(x_fixed)
        self._add_payments()
        self._add_life_rule()
        self.objective_terms = self._objective_terms()

    # -- the steps ---------------------------------------------------------------------
    def _mana_kinds(self) -> tuple:
        """Every kind of mana that can exist: floating, and what each ability and its
        triggers can add (CR 106.6: restrictions travel with the mana)."""
        kinds = {u.kind for u in self.supply.pool} | set(self.carried.pool)
        for a in self.acts:
            for t in a.output_types:
                kinds.add((t,) + a.mana.kind[1:])
            for extra in a.bonus:
                kinds.update(_extra_kind(e) for e in extra)
        return tuple(sorted(kinds))

    def _layers_of(self, a) -> range:
        """CR 605.3c: an ability that costs mana is paid by mana made in earlier layers,
        so it sits in layers 1..L; the others in layer 0, or any layer when they must be
        able to follow a tap of their own permanent (``movable``)."""
        if a.costs_mana:
            return range(1, self.layers + 1)
        return range(0, self.layers + 1) if a.movable else range(0, 1)

    def _add_activations(self) -> None:
        """How many times each ability is activated in each layer, with which output
        (one of its alternatives, or a combination's split among types), and the mana
        each layer produces, its triggers' mana included (CR 605.4a)."""
        m = self.model
        for j, a in enumerate(self.acts):
            flags = a.mana.kind[1:]
            for l in self._layers_of(a):
                if a.doubles:  # what it adds of each type: fixed by _add_doublings, once the pool is known
                    n = m.new_int_var(0, a.cap, f"double_L{l}_{j}")
                    self.act_vars[(l, j, None)] = n
                    for t in MANA_TYPES:
                        v = m.new_int_var(0, self.bound, f"doubled_L{l}_{j}_{t}")
                        self.comb_vars[(l, j, t)] = v
                        self.produced[(l, (t,) + flags)].append(v)
                    self.count[(l, j)] = n
                    continue
                if a.combination:
                    n = m.new_int_var(0, a.cap, f"act_L{l}_{j}")
                    self.act_vars[(l, j, None)] = n
                    per_type = []
                    for t in a.combination_types:
                        v = m.new_int_var(0, a.cap * a.combination, f"make_L{l}_{j}_{t}")
                        self.comb_vars[(l, j, t)] = v
                        self.produced[(l, (t,) + flags)].append(v)
                        per_type.append(v)
                    m.add(linear_sum(per_type) == a.combination * n)
                    self.count[(l, j)] = n
                    continue
                chosen = []
                for ai, alt in enumerate(a.alternatives):
                    v = m.new_int_var(0, a.cap, f"act_L{l}_{j}_{''.join(alt)}")
                    self.act_vars[(l, j, ai)] = v
                    chosen.append(v)
                    if a.bonus:
                        for k, c in Counter(_extra_kind(e) for e in a.extra(ai)).items():
                            self.produced[(l, k)].append(c * v if c > 1 else v)
                    if len(alt) == 1:  # most abilities add one mana: no Counter needed
                        self.produced[(l, (alt[0],) + flags)].append(v)
                        continue
                    for t, c in Counter(alt).items():
                        self.produced[(l, (t,) + flags)].append(c * v if c > 1 else v)
                self.count[(l, j)] = linear_sum(chosen)
            within = [self.count[(l, j)] for l in self._layers_of(a)]
            if len(within) > 1 or not a.combination and len(a.alternatives) > 1 or a.doubles:
                m.add(linear_sum(within) <= a.cap)  # a single variable has the cap as its domain
        by_act: dict = {}
        for (l, j), e in self.count.items():
            by_act.setdefault(j, []).append(e)
        self.totals = {j: linear_sum(es) for j, es in by_act.items()}
        self._add_counted_losses()
        self._add_for_spells()

    def _add_for_spells(self) -> None:
        """With several candidate spells: an ability whose mana only some may spend (a
        restriction, CR 106.6), convoke, improvise or delve (702.51, 702.126, 702.66) is
        used only when one of those is the spell paid."""
        if all(is_one(sel) for _, sel in self.candidates):
            return
        for j, a in enumerate(self.acts):
            if a.for_spells is not None and j in self.totals:
                sels = [self.candidates[i][1] for i in a.for_spells]
                self.model.add(self.totals[j] <= a.cap * linear_sum(sels))

    def _add_counted_losses(self) -> None:
        """CR 700.5, "for each ... you control": a counting ability counts the board as
        it resolves, so each permanent that adds to its count and was sacrificed in an
        earlier layer takes its units away from each of its activations (one that
        sacrifices its own permanent comes after the other sacrifices of its layer too).
        ``lost[(layer, act#, alt#)]`` is how many units the layer's activations lose."""
        m = self.model
        self.lost: dict = {}
        sacs_of: dict = {}
        for j, a in enumerate(self.acts):
            if a.sacrifice:
                sacs_of.setdefault(a.group, []).append(j)
        for j, a in enumerate(self.acts):
            if not a.counted:
                continue
            for l in self._layers_of(a):
                for ai, (unit, losses) in enumerate(a.counted):
                    if not losses:
                        continue
                    # the relaxed tail stands for every later layer: there a sacrifice may come
                    # before the count or after it, whether the count sacrifices its own
                    # permanent or not (a sacrifice in a layer after it is in the tail too)
                    tail = self.relaxed and l == self.layers
                    gone_here = [w * self.count[(ll, k)] for g, w in losses for k in sacs_of.get(g, ())
                                 for ll in self._layers_of(self.acts[k])
                                 if ll < l or ll == l and a.sacrifice and not tail]
                    earlier = self.carried.sacrificed
                    gone_here += [w * earlier[self.supply.groups[g].ids] for g, w in losses
                                  if self.supply.groups[g].ids in earlier]
                    in_tail = [w * self.count[(l, k)] for g, w in losses for k in sacs_of.get(g, ())
                               if l in self._layers_of(self.acts[k])] if tail else []
                    if not gone_here and not in_tail:
                        continue
                    most = sum(w * self.supply.groups[g].size for g, w in losses)
                    before = m.new_int_var(0, most, f"counted_gone_L{l}_{j}_{ai}")
                    if in_tail:  # the tail's order is not fixed: its own sacrifices may come first
                        m.add(before >= linear_sum(gone_here))
                        m.add(before <= linear_sum(gone_here + in_tail))
                        # a real plan counts as the strict rule does: one that sacrifices its own
                        # permanent after the layer's other sacrifices, any other before them
                        strict = gone_here + in_tail if a.sacrifice else gone_here
                        self.tail_count_checks.append((before, linear_sum(strict)))
                    else:
                        m.add(before == linear_sum(gone_here))
                    n = self.act_vars[(l, j, ai)]
                    if a.extra(ai):  # its triggers need mana made (model.triggers.sets_off): some units left
                        full = len(a.alternatives[ai]) // max(1, len(unit))
                        active = m.new_bool_var(f"counted_active_L{l}_{j}_{ai}")
                        m.add(n >= 1).only_enforce_if(active)
                        m.add(n == 0).only_enforce_if(~active)
                        m.add(before <= full - 1).only_enforce_if(active)
                    lost = m.new_int_var(0, most * a.cap, f"counted_lost_L{l}_{j}_{ai}")
                    m.add_multiplication_equality(lost, [n, before])
                    self.lost[(l, j, ai)] = (lost, before)
                    flags = a.mana.kind[1:]
                    for t, c in Counter(unit).items():
                        self.produced[(l, (t,) + flags)].append(-c * lost)

    def _add_energy_budget(self) -> None:
        """The player's energy counters ({E}, CR 107.14) pay every "Pay {E}" of the step:
        this payment's and those before it in the step."""
        paid = self.energy_paid()
        if not is_zero(paid):
            self.model.add(paid + self.carried.energy_paid <= self.problem.player.energy)

    def energy_paid(self):
        """The energy this payment pays, as an expression."""
        return linear_sum([a.energy * self.totals[j] for j, a in enumerate(self.acts) if a.energy and j in self.totals])

    def _add_permanent_budgets(self) -> None:
        """What each group of interchangeable permanents can give: each taps once
        ({T}, convoke and improvise share the tap: CR 302.6, 702.51a), is sacrificed
        once, and has only its counters to remove; a permanent is tapped before it is
        sacrificed, and nothing of it is used after its sacrifice."""
        m, acts = self.model, self.acts
        self.taps, self.sacrifices, self.exiles, self.flexibility_used = [], [], [], []
        acts_of_group: dict = {}
        for j, a in enumerate(acts):
            acts_of_group.setdefault(a.group, []).append(j)
        co_tapping: dict = {}  # group -> acts of other groups whose activation taps it too (Springleaf Drum)
        for j, a in enumerate(acts):
            if a.co_tap is not None:
                co_tapping.setdefault(a.co_tap, []).append(j)
        for g, grp in enumerate(self.supply.groups):
            mine = acts_of_group.get(g, [])
            tap_js = [j for j in mine if acts[j].tap]
            sac_js = [j for j in mine if acts[j].sacrifice]
            if tap_js or co_tapping.get(g):
                taps = [self.totals[j] for j in tap_js + co_tapping.get(g, []) if j in self.totals]
                if len(taps) > 1 or co_tapping.get(g) or acts[tap_js[0]].cap > grp.size:  # else held to its cap
                    m.add(linear_sum(taps) <= grp.size)
                self.taps.extend(taps)
                if grp.flexibility:
                    self.flexibility_used.extend(grp.flexibility * t for t in taps)
            if sac_js:
                sacs = [self.totals[j] for j in sac_js]
                if len(sac_js) > 1 or acts[sac_js[0]].cap > grp.size:
                    m.add(linear_sum(sacs) <= grp.size)
                self.sacrifices.extend(sacs)
            self._add_convoke_after_mana_abilities(mine, sac_js, grp.size)
            if grp.ordered:
                self._add_nothing_after_sacrifice(mine, sac_js)
            elif sac_js and any(acts[j].tap and (acts[j].costs_mana or acts[j].movable) for j in mine):
                self._add_tap_before_sacrifice(mine, grp.size)
            for kind in {acts[j].counter_kind for j in mine if acts[j].counters}:
                m.add(sum(acts[j].counters * self.totals[j] for j in mine if acts[j].counter_kind == kind)
                      <= grp.size * grp.counter(kind))
            self.exiles.extend(self.totals[j] for j in mine if acts[j].exile)

    def _add_convoke_after_mana_abilities(self, mine: list, sac_js: list, size: int) -> None:
        """CR 601.2g-h: mana abilities are activated before the total cost is paid, and
        convoke and improvise tap permanents while it is paid: a permanent tapped for
        them must still be on the battlefield, so none is both sacrificed and tapped to
        convoke or improvise (and the shared tap keeps them apart from {T} abilities)."""
        if not sac_js:
            return
        taps_for_cost = [self.totals[j] for j in mine if self.acts[j].index in (CONVOKE, IMPROVISE)]
        if taps_for_cost:
            self.model.add(linear_sum(taps_for_cost) + linear_sum([self.totals[j] for j in sac_js]) <= size)

    def _add_nothing_after_sacrifice(self, mine: list, sac_js: list) -> None:
        """One permanent: after its sacrifice (within a layer, sacrifices come last) none
        of its abilities is activated again."""
        for l in range(self.layers):
            gone = sum(self.count[(ll, j)] for j in sac_js for ll in self._layers_of(self.acts[j]) if ll <= l)
            for j in mine:
                later = [self.count[(ll, j)] for ll in self._layers_of(self.acts[j]) if ll > l]
                if later and not self.acts[j].sacrifice:
                    self.model.add(sum(later) <= self.acts[j].cap * (1 - gone))

    def _add_tap_before_sacrifice(self, mine: list, size: int) -> None:
        """A permanent is tapped before it is sacrificed: sacrifices by layer l and taps
        after layer l use different permanents of the group."""
        for l in range(self.layers):
            early_sacs = [self.count[(ll, j)] for j in mine if self.acts[j].sacrifice for ll in range(l + 1)
                          if (ll, j) in self.count]
            late_taps = [self.count[(ll, j)] for j in mine if self.acts[j].tap for ll in range(l + 1, self.layers + 1)
                         if (ll, j) in self.count]
            if early_sacs and late_taps:
                self.model.add(sum(early_sacs) + sum(late_taps) <= size)

    def _add_ability_costs(self) -> None:
        """Each activation's cost (CR 602.2b, 605.3): its life and damage, and the mana
        it needs in its layer; a symbol with a choice (hybrid, Phyrexian) is paid by one
        of its options per activation."""
        m = self.model
        for j, a in enumerate(self.acts):
            for l in self._layers_of(a):
                if a.life:
                    self.life_at.setdefault((l, a.sacrifice), []).append(a.life * self.count[(l, j)])
                if a.damage:
                    self.damage_at.setdefault((l, a.sacrifice, a.pays_life), []).append(a.damage * self.count[(l, j)])
            if not a.costs_mana:
                continue
            for l in range(1, self.layers + 1):
                n = self.count[(l, j)]
                for si, sym in enumerate(a.cost_symbols):
                    if sym.kind == VARIABLE:
                        raise ValueError("X in an ability cost is not supported")
                    options = sym.payment_options(0)
                    if len(options) == 1:
                        for need in options[0].needs:
                            self.demand.setdefault((l, need), []).append(n)
                        continue
                    chosen = []
                    for oi, opt in enumerate(options):
                        v = m.new_int_var(0, a.cap, f"opt_L{l}_{j}_{si}_{opt.label}")
                        self.opt_vars[(l, j, si, oi)] = v
                        chosen.append(v)
                        for need in opt.needs:
                            self.demand.setdefault((l, need), []).append(v)
                        if opt.life:
                            self.life_at.setdefault((l, a.sacrifice), []).append(opt.life * v)
                    m.add(sum(chosen) == n)

    def _add_spell_cost(self, x_fixed: int | None) -> SpellDemand:
        """The spell's total cost (CR 601.2f): announced symbols, minus reductions,
        then the floor; its mana is demanded at the SPELL stage. With several candidate
        spells, each one's cost is scaled by its selector (0 or 1), so only the chosen
        one is demanded."""
        self.spell_demands = []
        for ci, (spell, sel) in enumerate(self.candidates):
            cost = spell.cost
            if x_fixed is None:
                most = self.bound + sum(max(s.amount, 2) for s in cost.reduction_symbols) + len(cost.added_symbols)
                self.x_var = x = self.model.new_int_var(0, most, "X")
            else:
                x = most = x_fixed if is_one(sel) else cost.x
            typed_pre, generic_pre, snow_pre = self._announce(cost, x, sel, ci)
            typed_req, generic = self._reduce(cost, typed_pre, generic_pre, most, ci)
            snow = linear_sum(snow_pre)
            generic = self._floor(cost, generic, typed_req, snow, most, sel, ci)
            if not is_zero(generic):
                self.demand.setdefault((SPELL, ANY), []).append(generic)
            for t in MANA_TYPES:
                if not is_zero(typed_req[t]):
                    self.demand.setdefault((SPELL, need_of(t)), []).append(typed_req[t])
            if not is_zero(snow):
                self.demand.setdefault((SPELL, SNOW_ANY), []).append(snow)
            self.spell_demands.append(SpellDemand(generic, typed_req, snow))
        return self.spell_demands[0]

    def _announce(self, cost, x, sel, ci: int) -> tuple:
        """CR 601.2b, 107.3, 118.13a: X is announced, and each hybrid, twobrid or Phyrexian
        symbol as one of its halves (how many of each symbol take each half); returns
        the mana each type needs, the generic mana and the snow mana before reductions."""
        typed = {t: [] for t in MANA_TYPES}
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
        kicks = self.kicks.get(ci)
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
                v = self.model.new_int_var(0, most, f"announce_{sym}_{opt.label}")
                self.ann_vars[(ci, sym, opt.label)] = v
                halves.append(v)
                for n_need in opt.needs:
                    need(n_need, v)
                if opt.life:
                    self.spell_life.append(opt.life * v)
            self.model.add(sum(halves) == count)
        return typed, generic, snow

    def _reduce(self, cost, typed_pre: dict, generic_pre: list, most: int, ci: int) -> tuple:
        """CR 118.7: generic reductions reduce generic mana (118.7a); a typed one reduces
        its type, and what its type doesn't require spills to generic (118.7b-d); a
        hybrid reduction reduces the half the player picks (118.7e), snow reduces generic
        (118.7g). Generic mana never goes below 0 (so a candidate spell not chosen, whose
        symbols are all 0, costs nothing whatever its reductions)."""
        m = self.model
        generic_red = 0
        typed_red = {t: [] for t in MANA_TYPES}
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
                    self.red_vars[(ci, sym, h)] = v
                    picks.append(v)
                    if h == GENERIC_HALF:
                        generic_red = generic_red + 2 * v
                    else:
                        typed_red[h].append(v)
                m.add(sum(picks) == n)
            else:
                typed_red[sym.colors[0]].append(n)
        reduction_bound = sum(2 * n for n in Counter(cost.reduction_symbols).values()) + sum(
            s.amount for s in cost.reduction_symbols)
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
        generic = m.new_int_var(0, self._generic_bound(cost, most, self.kicks.get(ci)), "generic_after_reductions")
        m.add_max_equality(generic, [0, rest])
        return typed_req, generic

    def _floor(self, cost, generic, typed_req: dict, snow, most: int, sel=1, ci: int = 0):
        """CR 601.2f: effects that set the total apply last (Trinisphere: at least
        ``minimum`` mana), by adding generic mana."""
        minimum = cost.minimum
        if not minimum:
            return generic
        floor = minimum * sel if not is_one(sel) else minimum
        total = generic + linear_sum(list(typed_req.values())) + snow
        if isinstance(total, int) and isinstance(floor, int):
            return max(generic, generic + floor - total)
        floored = self.model.new_int_var(0, self._generic_bound(cost, most, self.kicks.get(ci)) + minimum,
                                         "generic_total")
        self.model.add_max_equality(floored, [generic, generic + floor - total])
        return floored

    @staticmethod
    def _generic_bound(cost, x_bound: int, kicks=None) -> int:
        """The most generic mana the spell's total could ask for, before reductions (its
        multikicker paid the most times the model allows, when the model chooses)."""
        per_kick = sum(max(s.amount, 2) for s in kicks.per_kick.symbols) * kicks.most if kicks is not None else 0
        return sum(max(s.amount, 2) for s in cost.added_symbols) + x_bound * (cost.x_count + 1) + 1 + per_kick

    def _add_payments(self) -> None:
        """Every need is paid by a kind of mana that may pay it (CR 106.6, 107.4), and at
        each stage no kind is spent beyond the floating mana and what the earlier layers
        made (CR 605.3: an ability's cost is paid from what exists when it is
        activated). With a relaxed tail, the last layer may also fund itself."""
        m = self.model
        stages = list(range(1, self.layers + 1)) + [SPELL]
        spent = {(s, k): [] for s in stages for k in self.kinds}
        for (stage, need), terms in self.demand.items():
            able = [k for k in self.kinds if _can_pay(k, need, stage == SPELL, self.any_color)]
            if len(able) == 1:  # one kind of mana can pay it: the demand itself, no variable
                self.pay_vars[(stage, need, able[0])] = paid = linear_sum(terms)
                spent[(stage, able[0])].append(paid)
                continue
            shares = []
            for k in able:
                v = m.new_int_var(0, self.bound, f"pay_{stage}_{need}_{''.join(map(str, k))}")
                self.pay_vars[(stage, need, k)] = v
                shares.append(v)
                spent[(stage, k)].append(v)
            m.add(linear_sum(shares) == linear_sum(terms))
        doubled = {id(v) for (l, j, t), v in self.comb_vars.items() if self.acts[j].doubles}
        for k in self.kinds:
            for si, s in enumerate(stages):
                made_before = range(0, s) if s != SPELL else range(0, self.layers + 1)
                own_layer = []
                if self.self_funding and s != SPELL:  # its own layer too, but for a doubling: it comes last
                    own_layer = [v for v in self.produced[(s, k)] if id(v) not in doubled]
                if self.relaxed and s == self.layers:
                    made_before = range(0, self.layers + 1)  # the tail may fund itself, in any order
                use = [v for st in stages[: si + 1] for v in spent[(st, k)]]
                if use:
                    m.add(linear_sum(use) <= self.pool0[k] + linear_sum([v for l in made_before for v in self.produced[(l, k)]]
                                                            + own_layer))
        self.spent = spent
        if not self.self_funding:  # (it restates the strict limits)
            self._add_mana_count()
        if self.relaxed:
            self._add_relaxed_tail(stages)
        self._add_doublings()

    def _add_doublings(self) -> None:
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
        doubling = [j for j, a in enumerate(self.acts) if a.doubles]
        if not doubling:
            return
        m, big = self.model, self.bound
        for j in doubling:  # its own permanent's sacrifice comes after it, in a later layer
            for k, a in enumerate(self.acts):
                if k != j and a.sacrifice and a.group == self.acts[j].group:  # (a doubling may sacrifice itself)
                    for l in range(self.layers + 1):
                        if (l, j) in self.count and (l, k) in self.count:
                            m.add(self.count[(l, j)] + self.count[(l, k)] <= 1)
        for l in range(self.layers + 1):  # layer 0 too: a doubling that costs no mana
            here = [j for j in doubling if (l, j) in self.count]
            if not here:
                continue
            m.add(linear_sum([self.count[(l, j)] for j in here]) <= 1)  # (one that removes counters too)
            own = {id(self.comb_vars[(l, j, t)]) for j in here for t in MANA_TYPES}
            for t in MANA_TYPES:
                kinds = [k for k in self.kinds if k[0] == t and not k[5]]
                held = sum(self.pool0[k] for k in kinds) + linear_sum(
                    [v for ll in range(l + 1) for k in kinds for v in self.produced[(ll, k)] if id(v) not in own]) - linear_sum(
                    [v for s in range(1, l + 1) for k in kinds for v in self.spent.get((s, k), ())])
                for j in here:
                    made, on = self.comb_vars[(l, j, t)], self.count[(l, j)]
                    m.add(made <= held)
                    m.add(made <= big * on)
                    m.add(made >= held - big * (1 - on))

    def _add_mana_count(self) -> None:
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
        if not any(a.costs_mana and not a.tap and not a.sacrifice for a in self.acts):
            return
        kinds = [k for k in self.kinds if any(self.spent[(s, k)] for s in range(1, self.layers + 1))]
        spend, made = [], []
        for s in range(1, self.layers + 1):
            spend.extend(t for (st, _), terms in self.demand.items() if st == s for t in terms)
            layers = range(s - 1, self.layers + 1) if self.relaxed and s == self.layers else (s - 1,)
            made.extend(v for l in layers for k in kinds for v in self.produced[(l, k)])
            if spend:
                self.model.add(linear_sum(spend) - linear_sum(made) <= sum(self.pool0[k] for k in kinds))

    def _add_relaxed_tail(self, stages: list) -> None:
        """What every real order of the tail layer satisfies (so the model stays a
        relaxation of plans of any depth): its first activation is paid from outside the
        tail, and the mana the tail makes last pays nothing in it. ``tail_self`` counts
        the tail's mana spent in the tail."""
        m, acts, L = self.model, self.acts, self.layers
        tail_spent, tail_made = [], []
        for k in self.kinds:
            outside = self.pool0[k] + sum(v for l in range(L) for v in self.produced[(l, k)]) - sum(
                v for st in stages[: L - 1] for v in self.spent[(st, k)])
            here = sum(self.spent[(L, k)]) if self.spent[(L, k)] else 0
            own = m.new_int_var(0, self.bound, f"tail_self_{''.join(map(str, k))}")
            m.add(own >= here - outside)
            tail_spent.append(here)
            self.tail_self.append(own)
            tail_made.extend(self.produced[(L, k)])
        in_tail = [j for j in range(len(acts)) if (L, j) in self.count]
        busy = m.new_bool_var("tail_used")
        m.add(sum(self.count[(L, j)] for j in in_tail) <= sum(acts[j].cap for j in in_tail) * busy)
        least_cost = min(sum(o.mana_count for o in _cheapest(acts[j].cost_symbols)) for j in in_tail)
        least_made = min(acts[j].combination or min(len(alt) for alt in acts[j].alternatives) for j in in_tail)
        m.add(sum(tail_spent) - sum(self.tail_self) >= least_cost * busy)
        m.add(sum(self.tail_self) <= sum(tail_made) - least_made * busy)

    def _add_life_rule(self) -> None:
        """CR 118.3: life can be paid only while the life total covers it; damage from
        mana abilities (pain lands) is an effect, not a cost, and may be lethal. The
        spell's Phyrexian life is paid after every mana ability (601.2g-h), so after all
        their damage. Abilities' life is paid as they are activated: where some pay life
        and others deal damage, the life is paid as early as the layers allow
        (:meth:`_add_life_before_damage`)."""
        life = self.problem.player.life
        ability_life = [t for ts in self.life_at.values() for t in ts]
        damage = [t for ts in self.damage_at.values() for t in ts]
        self.life_total = linear_sum(ability_life + self.spell_life)
        self.damage_total = linear_sum(damage)
        if ability_life and not damage:  # life never goes up while paying: the last payment decides
            self._add_checkpoint(linear_sum(ability_life), linear_sum(ability_life))
        elif ability_life:
            self.model.add(linear_sum(ability_life) <= life)
        if self.spell_life:
            self._add_checkpoint(linear_sum(self.spell_life), self.life_total + self.damage_total)
        if ability_life and damage:
            self._add_life_before_damage()

    def _add_checkpoint(self, paid_here, lost_by_then) -> None:
        """If ``paid_here`` is more than 0, everything lost up to and including that
        payment is at most the life total (CR 118.3: each payment needs the life)."""
        pays = self.model.new_bool_var("pays_life")
        self.model.add(paid_here == 0).only_enforce_if(~pays)
        self.model.add(lost_by_then + self.carried.life_lost <= self.problem.player.life).only_enforce_if(pays)

    def _add_life_before_damage(self) -> None:
        """The order of a layer's activations: those that don't sacrifice, then those
        that do (a permanent is tapped before it is sacrificed); within each, those that
        only pay life, then those that pay life and deal damage (smallest damage
        first), then the rest, then those that only deal damage. A layer's last payment
        of life is then checked against the life paid so far and the damage dealt before
        it. Damage that can wait is free to sit in a later layer (``movable``), so this
        is exact. In the relaxed tail, whose order is not fixed, only what every order
        meets is required (life paid there and before, damage dealt before the tail);
        the strict rule is kept to tell whether a solution is a real plan."""
        life_so_far, damage_before_layer = [], []
        for l in range(self.layers + 1):
            damage_this_layer = []
            for half in (False, True):
                paid_here = self.life_at.get((l, half), [])
                life_so_far = life_so_far + paid_here
                both = self.damage_at.get((l, half, True), [])
                if paid_here:
                    strict = damage_before_layer + damage_this_layer + both
                    if both:  # the last payment is one that also deals damage: its own comes after
                        least = min(a.damage for a in self.acts if a.damage and a.pays_life and a.sacrifice == half
                                    and l in self._layers_of(a))
                        used = self.model.new_bool_var(f"life_and_damage_L{l}_{int(half)}")
                        self.model.add(used <= linear_sum(both))
                        strict = strict + [-least * used]
                    if self.relaxed and l == self.layers:
                        self._add_checkpoint(linear_sum(paid_here), linear_sum(life_so_far + damage_before_layer))
                        self.tail_life_checks.append((linear_sum(paid_here), linear_sum(life_so_far + strict)))
                    else:
                        self._add_checkpoint(linear_sum(paid_here), linear_sum(life_so_far + strict))
                damage_this_layer += both + self.damage_at.get((l, half, False), [])
            damage_before_layer = damage_before_layer + damage_this_layer

    def _spared(self):
        """How many of the permanents the request keeps untapped (``prefer``) the plan
        taps or sacrifices: each is a group of its own (solver.supply)."""
        keep = self.problem.prefer.keep_untapped
        if not keep:
            return 0
        used = []
        for g, grp in enumerate(self.supply.groups):
            if set(grp.ids) & keep:
                usage = self.group_usage(g)
                if is_zero(usage["taps"]) and is_zero(usage["sacrifices"]):
                    continue
                u = self.model.new_bool_var(f"spared_{g}")
                for key in ("taps", "sacrifices"):
                    if not is_zero(usage[key]):
                        self.model.add(usage[key] <= grp.size * u)
                used.append(u)
        return linear_sum(used)

    def _objective_terms(self) -> Objective:
        """The protocol's objective, term by term: activations before casting,
        sacrifices, life lost, permanents tapped, cards exiled, flexibility used, mana
        left floating."""
        made = [v for l in range(self.layers + 1) for k in self.kinds for v in self.produced[(l, k)]]
        spent = [v for vs in self.spent.values() for v in vs]
        return Objective(
            before_casting=linear_sum([self.totals[j] for j, a in enumerate(self.acts) if a.precast and j in self.totals]),
            sacrificed=linear_sum(self.sacrifices),
            life=linear_sum([t for t in (self.life_total, self.damage_total) if not is_zero(t)]),
            spared=self._spared(),
            tapped=linear_sum(self.taps),
            exiled=linear_sum(self.exiles),
            flexibility=linear_sum(self.flexibility_used),
            floating=sum(self.pool0.values()) + linear_sum(made) - linear_sum(spent),
        )

    # -- objectives and solving ---------------------------------------------------------
    def objective_bounds(self) -> Objective:
        """Upper bounds on each objective term, which make the weights lexicographic."""
        supply = self.supply
        n_perm = sum(g.size for g in supply.groups)
        return Objective(
            before_casting=sum(a.cap for a in supply.acts if a.precast),
            sacrificed=n_perm,
            # life paid as costs is at most the life total (CR 118.3); damage is not bounded by it
            life=self.problem.player.life + sum(a.cap * a.damage for a in supply.acts),
            spared=len(self.problem.prefer.keep_untapped),
            tapped=n_perm,
            exiled=sum(a.cap for a in supply.acts if a.exile),
            flexibility=sum(g.flexibility * g.size for g in supply.groups),
            floating=supply.mana_bound,
        )

    def solve_best(self, time_limit: float):
        """(solver, :class:`Status`) of the lexicographic optimum (see
        :func:`solve_lexicographic`)."""
        rank = self.problem.prefer.rank
        return solve_lexicographic(self.model, rank(self.objective_terms), rank(self.objective_bounds()),
                                   self._decision_variables(), time_limit, payment_tuning(self.layers))

    def _decision_variables(self) -> list:
        """Each variable that decides a plan once (activations, outputs, announcements),
        for solution hints."""
        unique = {}
        for handles in (self.act_vars, self.comb_vars, self.opt_vars, self.ann_vars, self.red_vars):
            for v in handles.values():
                unique.setdefault(v.index, v)
        return list(unique.values())

    # -- what a later payment of the same step sees (solver.turn) ----------------------
    def group_usage(self, g: int) -> dict:
        """How this payment uses group ``g``: ``taps``, ``sacrifices``, ``uses`` (every
        activation) and ``counters`` by kind, as expressions."""
        mine = [j for j, a in enumerate(self.acts) if a.group == g and j in self.totals]  # (never in a layer: unused)
        counters: dict = {}
        for j in mine:
            a = self.acts[j]
            if a.counters:
                counters.setdefault(a.counter_kind, []).append(a.counters * self.totals[j])
        co = [j for j, a in enumerate(self.acts) if a.co_tap == g and j in self.totals]  # its ability, another's act
        return {"taps": linear_sum([self.totals[j] for j in mine if self.acts[j].tap] + [self.totals[j] for j in co]),
                "sacrifices": linear_sum([self.totals[j] for j in mine if self.acts[j].sacrifice]),
                "uses": linear_sum([self.totals[j] for j in mine]),
                "counters": {kind: linear_sum(ts) for kind, ts in counters.items()}}

    def floating_by_kind(self) -> dict:
        """The mana left in the pool after this payment, by kind, as expressions."""
        out = {}
        for k in self.kinds:
            made = [v for l in range(self.layers + 1) for v in self.produced[(l, k)]]
            spent = [v for (stage, kk), vs in self.spent.items() if kk == k for v in vs]
            out[k] = self.pool0[k] + linear_sum(made) - linear_sum(spent)
        return out

    def life_lost(self):
        """All life this payment loses: life paid and damage taken."""
        return self.life_total + self.damage_total

    def tail_is_real(self, solver) -> bool:
        """Whether a solution of the relaxed model is a real plan: its tail funds nothing
        from itself, pays its life in the order the strict rule fixes, and counts the
        board as the strict rule does (sacrifices of the tail after its counts)."""
        life = self.problem.player.life
        before = self.value(solver, self.carried.life_lost)
        return all(solver.value(v) == 0 for v in self.tail_self) and all(
            self.value(solver, paid) == 0 or before + self.value(solver, lost) <= life for paid, lost in self.tail_life_checks
        ) and all(solver.value(gone) == self.value(solver, earlier) for gone, earlier in self.tail_count_checks)

    def minimize_tail_self_funding(self) -> None:
        """For a yes/no answer: a solution whose tail funds nothing from itself is a real
        payment."""
        if self.tail_self:
            self.model.minimize(linear_sum(self.tail_self))

    def maximize_x(self) -> None:
        self.model.maximize(self.x_var)

    def solve(self, time_limit: float):
        """(solver, :class:`Status`), with :func:`payment_tuning`."""
        return solve_model(self.model, time_limit, payment_tuning(self.layers))

    value = staticmethod(value_of)  # (the value of an expression in a solution)

    def objective_tuple(self, solver) -> Objective:
        """The objective's value in a solution (comparable across models)."""
        return self.problem.prefer.rank(Objective(*(self.value(solver, term) for term in self.objective_terms)))
