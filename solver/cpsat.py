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
>>> from manaplan.model.abilities import Ability, AbilityCost, Output
>>> from manaplan.model.board import Board, Permanent, Player
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
from typing import Any

from manaplan.model.problem import PaymentProblem
from manaplan.solver.payment_activations import add_ability_costs, add_activations
from manaplan.solver.payment_flow import add_payments
from manaplan.solver.payment_life import add_life_rule
from manaplan.solver.payment_objective import objective_bounds, objective_terms
from manaplan.solver.payment_permanents import add_energy_budget, add_permanent_budgets
from manaplan.solver.payment_total import add_spell_cost
from manaplan.solver.payment_values import CarriedOver, Objective, extra_kind
from manaplan.solver.payment_victims import add_cost_sacrifices, victims_of
from manaplan.solver.runtime import check_model_size, is_zero, linear_sum, new_model, payment_tuning, solve_lexicographic, solve_model, value_of
from manaplan.solver.supply import Supply, doubling_factor, weighed_by_hand, without_flexibility

class PaymentModel:
    """The CP-SAT model of one payment, with the handles a plan is read back from.

    ``layers`` is the number of layers for abilities that cost mana; ``x_fixed`` None
    makes X a variable (for the ``max_x`` query). With ``relaxed_tail`` the last layer
    stands for every activation at that depth or deeper: it may fund itself (in an order
    the model does not fix), under two conditions every real order meets, so the model
    is a relaxation of plans of any depth. A solution whose tail funds nothing from
    itself (``tail_self`` all 0) is a real plan. With ``self_funding`` every layer may
    fund itself: with one layer more than the doublings on the board (Doubling Cube), a
    relaxation of every plan (see solver.payment_flow.add_doublings) whose solutions are not read
    as plans.
    """

    # set by the steps, in their modules (declared for mypy)
    totals: dict        # act# -> its activations in every layer (solver.payment_activations)
    lost: dict          # (layer, act#, alt#) -> units lost (solver.payment_activations)
    spell_demands: list  # [SpellDemand], one a candidate (solver.payment_total)
    spent: dict         # (stage, kind) -> terms (solver.payment_flow)
    life_total: Any     # life paid, an expression (solver.payment_life)
    damage_total: Any   # damage taken, an expression (solver.payment_life)

    def __init__(self, problem: PaymentProblem, supply: Supply, layers: int, x_fixed: int | None,
                 relaxed_tail: bool = False, model=None, carried: CarriedOver | None = None, candidates=None,
                 self_funding: bool = False, shifts: dict | None = None, victims: dict | None = None):
        if model is None:  # (a shared model's owner counts all of its payments: solver.turn.Depth)
            check_model_size(max(1, layers) * len(supply.acts))
        self.model = model if model is not None else new_model()
        #: the spells this payment may be for, each with its selector (1, or a 0/1 variable
        #: of the shared model: solver.turn picks at most one per payment), and for some a
        #: multikicker paid a number of times the model chooses: {candidate#: VariableKicks}
        given = candidates if candidates is not None else [(problem.spell, 1)]
        self.candidates = [(c[0], c[1]) for c in given]
        self.kicks = {ci: c[2] for ci, c in enumerate(given) if len(c) > 2 and c[2] is not None}
        #: how a turn's board moves a candidate's total (solver.turn): {candidate#: CostShift}
        self.shifts = shifts or {}
        #: what a candidate may sacrifice for its additional cost in a turn (solver.payment_victims):
        #: {candidate#: [Victim]}
        self.victims = victims or {}
        self.victim_vars: dict = {}
        supply = weighed_by_hand(supply, problem.color_needs)  # the flexibility term's weights
        supply = without_flexibility(supply, problem.prefer.gone)  # (what leaves anyway keeps none)
        self.any_color = problem.board.any_color_spending  # CR 609.4b: how mana may be spent
        self.problem, self.supply, self.layers = problem, supply, layers
        self.carried = carried or CarriedOver()
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
        self.damage_later: list = []  # damage dealt by triggers, after the spell is cast: never before a payment
        self.spell_life: list = []  # the spell's Phyrexian symbols announced as life
        self.tail_life_checks: list = []  # (life paid, life lost by then): the tail's strict rule
        self.tail_count_checks: list = []  # (units gone, gone in earlier layers): the tail's strict count
        self.kinds = self._mana_kinds()
        self.pool0 = Counter(u.kind for u in supply.pool)  # (Mana.kind: what decides what it pays)
        for k, expr in self.carried.pool.items():
            self.pool0[k] = self.pool0[k] + expr
        self.produced: dict[tuple, list] = {(l, k): [] for l in range(layers + 1) for k in self.kinds}
        self.count: dict = {}       # (layer, act#) -> activations of act# in that layer
        # the model, step by step, each stating its rule in its own module
        add_activations(self)           # solver.payment_activations: what each layer activates and makes
        add_permanent_budgets(self)     # solver.payment_permanents: what each group of permanents can give
        add_energy_budget(self)
        add_ability_costs(self)         # what each activation costs (CR 602.2b, 605.3)
        add_spell_cost(self, x_fixed)   # solver.payment_total: the total (CR 601.2f)
        add_cost_sacrifices(self)       # solver.payment_victims: its additional cost's sacrifices (601.2h)
        add_payments(self)              # solver.payment_flow: which mana pays what, and when
        add_life_rule(self)             # solver.payment_life: life and damage (CR 118.3)
        self.objective_terms = objective_terms(self)  # solver.payment_objective

    # -- what the steps share ----------------------------------------------------------

    def _mana_kinds(self) -> tuple:
        """Every kind of mana that can exist: floating, and what each ability and its
        triggers can add (CR 106.6: restrictions travel with the mana)."""
        kinds = {u.kind for u in self.supply.pool} | set(self.carried.pool)
        for a in self.acts:
            for t in a.output_types:
                kinds.add((t,) + a.mana.kind[1:])
            for extra in a.bonus:
                kinds.update(extra_kind(e) for e in extra)
        return tuple(sorted(kinds))

    def layers_of(self, a) -> range:
        """CR 605.3c: an ability that costs mana is paid by mana made in earlier layers,
        so it sits in layers 1..L; the others in layer 0, or any layer when they must be
        able to follow a tap of their own permanent (``movable``)."""
        if a.costs_mana:
            return range(1, self.layers + 1)
        return range(0, self.layers + 1) if a.movable else range(0, 1)

    def energy_paid(self):
        """The energy this payment pays, as an expression."""
        return linear_sum([a.energy * self.totals[j] for j, a in enumerate(self.acts) if a.energy and j in self.totals])

    def objective_bounds(self):
        """Upper bounds on each objective term (solver.payment_objective), which make the
        weights lexicographic."""
        return objective_bounds(self)

    def solve_best(self, time_limit: float):
        """(solver, :class:`Status`) of the lexicographic optimum (see
        :func:`solve_lexicographic`)."""
        rank = self.problem.prefer.rank
        return solve_lexicographic(self.model, rank(self.objective_terms), rank(self.objective_bounds()),
                                   self._decision_variables(), time_limit, payment_tuning(self.layers))

    def _decision_variables(self) -> list:
        """Each variable that decides a plan once (activations, outputs, announcements),
        for solution hints."""
        unique: dict = {}
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
        sacrifices = [self.totals[j] for j in mine if self.acts[j].sacrifice]
        if self.victim_vars:  # (its additional cost's, solver.payment_victims)
            sacrifices.append(victims_of(self, self.supply.groups[g].ids))
        return {"taps": linear_sum([self.totals[j] for j in mine if self.acts[j].tap] + [self.totals[j] for j in co]),
                "sacrifices": linear_sum([t for t in sacrifices if not is_zero(t)]),
                "uses": linear_sum([self.totals[j] for j in mine]),
                "counters": {kind: linear_sum(ts) for kind, ts in counters.items()}}

    def mana_sacrifices(self, g: int):
        """How many of group ``g`` this payment's mana abilities sacrifice."""
        return linear_sum([self.totals[j] for j, a in enumerate(self.acts)
                           if a.group == g and a.sacrifice and j in self.totals])

    def victims_beyond_supply(self) -> dict:
        """ids -> what the additional cost sacrifices of permanents no ability of which
        is in this payment's supply (an Ornithopter for Deadly Dispute)."""
        grouped = {grp.ids for grp in self.supply.groups}
        out: dict = {}
        for (_, ids), v in self.victim_vars.items():
            if ids not in grouped:
                out.setdefault(ids, []).append(v)
        return {ids: linear_sum(vs) for ids, vs in out.items()}

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

    def objective_tuple(self, solver) -> tuple:
        """The objective's value in a solution (comparable across models)."""
        return self.problem.prefer.rank(Objective(*(self.value(solver, term) for term in self.objective_terms)))
