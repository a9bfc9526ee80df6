"""The payment as one CP-SAT model.

Variables count activations per (layer, group, ability, output choice). Layer 0 holds
abilities with no mana in their cost; an ability whose cost includes mana sits in a
layer 1..L and is paid only with mana made in earlier layers (or floating), so chains
are acyclic and a filter land never pays for itself (CR 605.3c). The spell is paid
last from everything left (CR 601.2g-h).

The spell's choices are variables too: how many of each hybrid, twobrid or Phyrexian
symbol are announced as each half (CR 601.2b), which half each hybrid reduction
reduces (118.7e), and the reductions' effect is stated with min/max constraints that
mirror :func:`model.cost.total_cost` (118.7a-d, then the Trinisphere floor, 601.2f).

The objective is the protocol's, lexicographic by weights: sacrifices, life, permanents
tapped, cards exiled (delve), flexibility kept, mana left floating.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from ..model.mana import Mana
from ..model.cost import HALVED_REDUCTIONS
from ..model.request import PaymentProblem
from ..model.symbols import ALL_TYPES, ANY, GENERIC, MANA_TYPES, SNOW, SNOW_ANY, TWOBRID, VARIABLE, need_of

from .supply import Supply

SPELL = "spell"


def _cp():
    from ortools.sat.python import cp_model  # lazy: the import costs ~0.4 s
    return cp_model


def _sum(terms: list):
    """The sum of variables and expressions as one linear expression (0 when empty).

    ``LinearExpr.sum`` builds it in one call; Python's ``sum`` chains one object per
    term, which is a measurable part of a small query (see benchmarks/)."""
    if not terms:
        return 0
    if len(terms) == 1:
        return terms[0]
    return _cp().LinearExpr.sum(terms)


_MODEL_CLASS = None


def new_model():
    """A CpModel without the camelCase aliases OR-Tools 9.15 attaches to every new model
    (about 0.45 ms each, a tenth of a small query); the model itself is unchanged."""
    global _MODEL_CLASS
    if _MODEL_CLASS is None:
        base = _cp().CpModel

        class _Model(base):
            def _add_pre_pep8_methods(self) -> None:
                pass

        _MODEL_CLASS = _Model if hasattr(base, "_add_pre_pep8_methods") else base
    return _MODEL_CLASS()


@dataclass
class Built:
    """A CP-SAT model and the handles needed to read a plan back out of it."""

    model: object
    layers: int
    supply: Supply
    act_vars: dict = field(default_factory=dict)      # (layer, act#, alt#) -> var (alt# None for combination)
    comb_vars: dict = field(default_factory=dict)     # (layer, act#, type) -> var
    opt_vars: dict = field(default_factory=dict)      # (layer, act#, symbol#, option#) -> var
    pay_vars: dict = field(default_factory=dict)      # (stage, need, kind) -> var
    ann_vars: dict = field(default_factory=dict)      # (symbol, option label) -> var
    red_vars: dict = field(default_factory=dict)      # (reduction symbol, half) -> var
    x_var: object = None
    objective_terms: dict = field(default_factory=dict)
    spell_demand: dict = field(default_factory=dict)
    tail_self: list = field(default_factory=list)
    total_terms: dict = field(default_factory=dict)


def _kind_of(mana: Mana) -> tuple:
    return (mana.type, mana.snow, mana.spell_only, mana.generic_only)


def _extra_kind(extra) -> tuple:
    """The kind of a mana a trigger adds: its source's snow, no spending restriction."""
    return (extra.type, extra.snow, False, False)


def _kind_mana(kind: tuple, source: str = "") -> Mana:
    return Mana(kind[0], kind[1], kind[2], kind[3], False, source)


@lru_cache(maxsize=4096)
def _can_pay(kind: tuple, need, for_spell: bool) -> bool:
    """Whether mana of this kind may pay ``need`` (cached: a handful of kinds and needs
    recur in every query)."""
    return _kind_mana(kind).can_pay(need, for_spell)


def build(problem: PaymentProblem, supply: Supply, layers: int, x_fixed: int | None,
          relaxed_tail: bool = False) -> Built:
    """Build the model with ``layers`` layers for costing abilities.

    ``x_fixed`` None makes X a variable (for the max_x query). With ``relaxed_tail`` the
    last layer stands for every activation at that depth or deeper: it may fund itself
    (in an order the model does not fix), under two conditions every real order meets,
    so the model is a relaxation of plans of any depth. A solution whose tail funds
    nothing from itself (``tail_self`` all 0) is a real plan."""
    m = new_model()
    acts = supply.acts
    bound = max(supply.mana_bound, 1)
    b = Built(m, layers, supply)

    # -- mana kinds that can exist -------------------------------------------------------
    kinds = {_kind_of(u) for u in supply.pool}
    for a in acts:
        for t in a.output_types:
            kinds.add((t, a.mana.snow, a.mana.spell_only, a.mana.generic_only))
        for extra in a.bonus:
            kinds.update(_extra_kind(e) for e in extra)
    kinds = tuple(sorted(kinds))
    pool0 = Counter(_kind_of(u) for u in supply.pool)

    # -- activations and production per layer ---------------------------------------------
    produced = {(l, k): [] for l in range(layers + 1) for k in kinds}
    count = {}  # (layer, act#) -> linear expr of activations
    for j, a in enumerate(acts):
        act_layers = range(1, layers + 1) if a.costs_mana else (range(0, layers + 1) if a.movable else (0,))
        for l in act_layers:
            if a.combination:
                n = m.new_int_var(0, a.cap, f"act_L{l}_{j}")
                b.act_vars[(l, j, None)] = n
                per_type = []
                for t in a.combination_types:
                    v = m.new_int_var(0, a.cap * a.combination, f"make_L{l}_{j}_{t}")
                    b.comb_vars[(l, j, t)] = v
                    produced[(l, (t,) + _kind_of(a.mana)[1:])].append(v)
                    per_type.append(v)
                m.add(_sum(per_type) == a.combination * n)
                count[(l, j)] = n
            else:
                vs = []
                flags = _kind_of(a.mana)[1:]
                for ai, alt in enumerate(a.alternatives):
                    v = m.new_int_var(0, a.cap, f"act_L{l}_{j}_{''.join(alt)}")
                    b.act_vars[(l, j, ai)] = v
                    vs.append(v)
                    for k, c in Counter(_extra_kind(e) for e in a.extra(ai)).items():
                        produced[(l, k)].append(c * v if c > 1 else v)  # CR 605.4a: triggered mana
                    if len(alt) == 1:
                        produced[(l, (alt[0],) + flags)].append(v)
                        continue
                    for t, c in Counter(alt).items():
                        produced[(l, (t,) + flags)].append(c * v if c > 1 else v)
                count[(l, j)] = _sum(vs)
        within = [count[(l, j)] for l in act_layers]
        if len(within) > 1 or not a.combination and len(a.alternatives) > 1:
            m.add(_sum(within) <= a.cap)  # a single variable has the cap as its domain

    by_act: dict = {}
    for (l, j), e in count.items():
        by_act.setdefault(j, []).append((l, e))
    totals = {j: _sum([e for _, e in pairs]) for j, pairs in by_act.items()}

    def layers_of(j):
        return [l for l, _ in by_act[j]]

    def total_acts(j):
        return totals[j]

    acts_of_group: dict = {}
    for j, a in enumerate(acts):
        acts_of_group.setdefault(a.group, []).append(j)

    # -- per-group budgets: one tap, one sacrifice, counters --------------------------------
    taps_total, sacs_total, exiles_total, flex_total = [], [], [], []
    for g, grp in enumerate(supply.groups):
        mine = acts_of_group.get(g, [])
        tap_js = [j for j in mine if acts[j].tap]
        sac_js = [j for j in mine if acts[j].sacrifice]
        taps = [total_acts(j) for j in tap_js]
        sacs = [total_acts(j) for j in sac_js]
        if taps:
            if len(tap_js) > 1 or acts[tap_js[0]].cap > grp.size:  # one ability is held to its cap already
                m.add(_sum(taps) <= grp.size)
            taps_total.extend(taps)
            if grp.flexibility:
                flex_total.extend(grp.flexibility * t for t in taps)
        if sacs:
            if len(sac_js) > 1 or acts[sac_js[0]].cap > grp.size:
                m.add(_sum(sacs) <= grp.size)
            sacs_total.extend(sacs)
        if grp.ordered:
            # one permanent: after its sacrifice (within a layer, sacrifices come last)
            # none of its abilities is activated again
            for l in range(layers):
                gone = sum(count[(ll, j)] for j in sac_js for ll in layers_of(j) if ll <= l)
                for j in mine:
                    later = [count[(ll, j)] for ll in layers_of(j) if ll > l]
                    if later and not acts[j].sacrifice:
                        m.add(sum(later) <= acts[j].cap * (1 - gone))
        # a permanent is tapped before it is sacrificed: sacrifices by layer l and taps
        # after layer l use different permanents
        elif sacs and any(acts[j].tap and acts[j].costs_mana for j in mine):
            for l in range(layers):
                early_sacs = [count[(ll, j)] for j in mine if acts[j].sacrifice for ll in range(l + 1) if (ll, j) in count]
                late_taps = [count[(ll, j)] for j in mine if acts[j].tap for ll in range(l + 1, layers + 1) if (ll, j) in count]
                if early_sacs and late_taps:
                    m.add(sum(early_sacs) + sum(late_taps) <= grp.size)
        for kind in {acts[j].counter_kind for j in mine if acts[j].counters}:
            m.add(sum(acts[j].counters * total_acts(j) for j in mine if acts[j].counter_kind == kind)
                  <= grp.size * grp.counter(kind))
        exiles_total.extend(total_acts(j) for j in mine if acts[j].exile)

    # -- ability costs, layer by layer --------------------------------------------------
    demand = {}   # (stage, need) -> list of linear terms
    life_terms, damage_terms = [], []
    for j, a in enumerate(acts):
        if a.life:
            life_terms.append(a.life * total_acts(j))
        if a.damage:
            damage_terms.append(a.damage * total_acts(j))
        if not a.costs_mana:
            continue
        for l in range(1, layers + 1):
            n = count[(l, j)]
            for si, sym in enumerate(a.cost_symbols):
                options = sym.payment_options(0)
                if sym.kind == VARIABLE:
                    raise ValueError("X in an ability cost is not supported")
                if len(options) == 1:
                    for need in options[0].needs:
                        demand.setdefault((l, need), []).append(n)
                    continue
                ovs = []
                for oi, opt in enumerate(options):
                    v = m.new_int_var(0, a.cap, f"opt_L{l}_{j}_{si}_{opt.label}")
                    b.opt_vars[(l, j, si, oi)] = v
                    ovs.append(v)
                    for need in opt.needs:
                        demand.setdefault((l, need), []).append(v)
                    if opt.life:
                        life_terms.append(opt.life * v)
                m.add(sum(ovs) == n)

    # -- the spell's total cost (CR 601.2b, 601.2f, 118.7) ---------------------------------
    spell = problem.spell.cost
    if x_fixed is None:
        most = bound + sum(max(s.amount, 2) for s in spell.reduction_symbols) + len(spell.added_symbols)
        b.x_var = x = m.new_int_var(0, most, "X")
    else:
        x = most = x_fixed
    typed_pre = {t: [] for t in MANA_TYPES}
    generic_pre, snow_pre = [], []
    sym_counts = Counter(spell.added_symbols)
    for sym, n in sym_counts.items():
        if sym.kind == VARIABLE:
            generic_pre.append(n * x)
            continue
        options = sym.payment_options(0)
        if len(options) == 1:
            for need in options[0].needs:
                _add_need(need, n, typed_pre, generic_pre, snow_pre)
            continue
        vs = []
        for opt in options:
            v = m.new_int_var(0, n, f"announce_{sym}_{opt.label}")
            b.ann_vars[(sym, opt.label)] = v
            vs.append(v)
            for need in opt.needs:
                _add_need(need, v, typed_pre, generic_pre, snow_pre)
            if opt.life:
                life_terms.append(opt.life * v)
        m.add(sum(vs) == n)
    generic_red = 0
    typed_red = {t: [] for t in MANA_TYPES}
    for sym, n in Counter(spell.reduction_symbols).items():
        if sym.kind == GENERIC:
            generic_red += sym.amount * n
        elif sym.kind == SNOW:
            generic_red += n
        elif sym.kind in HALVED_REDUCTIONS:
            halves = list(sym.colors) + (["generic"] if sym.kind == TWOBRID else [])
            vs = []
            for h in halves:
                v = m.new_int_var(0, n, f"reduce_{sym}_{h}")
                b.red_vars[(sym, h)] = v
                vs.append(v)
                if h == "generic":
                    generic_red = generic_red + 2 * v
                else:
                    typed_red[h].append(v)
            m.add(sum(vs) == n)
        else:
            typed_red[sym.colors[0]].append(n)
    reduction_bound = sum(2 * n for n in Counter(spell.reduction_symbols).values()) + sum(
        s.amount for s in spell.reduction_symbols)
    spill = []
    typed_req = {}
    for t in MANA_TYPES:
        pre = _sum(typed_pre[t])
        if not typed_red[t]:
            typed_req[t] = pre
            continue
        used = m.new_int_var(0, reduction_bound, f"reduced_{t}")
        m.add_min_equality(used, [pre, _sum(typed_red[t])])
        spill.append(_sum(typed_red[t]) - used)
        typed_req[t] = pre - used
    # generic after reductions, then the floor; plain arithmetic when nothing is chosen
    gen_rest = _sum(generic_pre) - generic_red - _sum(spill)
    if isinstance(gen_rest, int):
        gen_after = max(0, gen_rest)
    else:
        gen_after = m.new_int_var(0, _generic_bound(spell, most), "generic_after_reductions")
        m.add_max_equality(gen_after, [0, gen_rest])
    snow_total = _sum(snow_pre)
    if spell.minimum:
        total_mana = gen_after + _sum(list(typed_req.values())) + snow_total
        if isinstance(total_mana, int):
            gen_final = max(gen_after, gen_after + spell.minimum - total_mana)
        else:
            gen_final = m.new_int_var(0, _generic_bound(spell, most) + spell.minimum, "generic_total")
            m.add_max_equality(gen_final, [gen_after, gen_after + spell.minimum - total_mana])
    else:
        gen_final = gen_after
    if not _is_zero(gen_final):
        demand.setdefault((SPELL, ANY), []).append(gen_final)
    for t in MANA_TYPES:
        if not _is_zero(typed_req[t]):
            demand.setdefault((SPELL, need_of(t)), []).append(typed_req[t])
    if not _is_zero(snow_total):
        demand.setdefault((SPELL, SNOW_ANY), []).append(snow_total)
    b.spell_demand = {"generic": gen_final, "typed": typed_req, "snow": snow_total}

    # -- paying every need with a kind of mana available at that stage ----------------------
    stages = list(range(1, layers + 1)) + [SPELL]
    spent = {(s, k): [] for s in stages for k in kinds}
    for (stage, need), terms in demand.items():
        for_spell = stage == SPELL
        ok = [k for k in kinds if _can_pay(k, need, for_spell)]
        if len(ok) == 1:  # one kind of mana can pay it: the demand itself, no variable
            b.pay_vars[(stage, need, ok[0])] = paid = _sum(terms)
            spent[(stage, ok[0])].append(paid)
            continue
        vs = []
        for k in ok:
            v = m.new_int_var(0, bound, f"pay_{stage}_{need}_{''.join(map(str, k))}")
            b.pay_vars[(stage, need, k)] = v
            vs.append(v)
            spent[(stage, k)].append(v)
        m.add(_sum(vs) == _sum(terms))
    all_made, all_spent = [], []
    relax = relaxed_tail and layers >= 1
    tail_spent, tail_self, tail_made = [], [], []
    for k in kinds:
        for si, s in enumerate(stages):
            before = stages[: si + 1]
            avail_layers = range(0, s) if s != SPELL else range(0, layers + 1)
            if relax and s == layers:
                avail_layers = range(0, layers + 1)  # the tail may fund itself, in any order
            use = [v for st in before for v in spent[(st, k)]]
            if use:
                m.add(_sum(use) <= pool0[k] + _sum([v for l in avail_layers for v in produced[(l, k)]]))
        if relax:
            outside = pool0[k] + sum(v for l in range(layers) for v in produced[(l, k)]) - sum(
                v for st in stages[: layers - 1] for v in spent[(st, k)])
            here = sum(spent[(layers, k)]) if spent[(layers, k)] else 0
            own = m.new_int_var(0, bound, f"tail_self_{''.join(map(str, k))}")
            m.add(own >= here - outside)
            tail_spent.append(here)
            tail_self.append(own)
            tail_made.extend(produced[(layers, k)])
        all_made.extend(v for l in range(layers + 1) for v in produced[(l, k)])
        all_spent.extend(v for st in stages for v in spent[(st, k)])
    if relax:
        # What every real order of the tail satisfies (so this stays a relaxation of plans
        # of any depth): its first activation is paid from outside the tail, and the mana
        # the tail makes last pays nothing in it.
        in_tail = [j for j in range(len(acts)) if (layers, j) in count]
        tail_acts = [count[(layers, j)] for j in in_tail]
        busy = m.new_bool_var("tail_used")
        m.add(sum(tail_acts) <= sum(acts[j].cap for j in in_tail) * busy)
        least_cost = min(sum(o.mana_count for o in _cheapest(acts[j].cost_symbols)) for j in in_tail)
        least_made = min(acts[j].combination or min(len(alt) for alt in acts[j].alternatives) for j in in_tail)
        m.add(sum(tail_spent) - sum(tail_self) >= least_cost * busy)
        m.add(sum(tail_self) <= sum(tail_made) - least_made * busy)
        b.tail_self = tail_self

    life_total = _sum(life_terms)
    damage_total = _sum(damage_terms)
    if life_terms:
        # CR 118.3: life can be paid only while the life total covers it. Damage from
        # mana abilities (pain lands) is not a cost and may be lethal; where both occur,
        # every payment is taken to follow all the damage (see model.sources.life_rule_ok).
        pays_life = m.new_bool_var("pays_life")
        m.add(life_total <= problem.player.life * pays_life)
        m.add(life_total + damage_total <= problem.player.life).only_enforce_if(pays_life)
    b.objective_terms = {
        "sacrificed": _sum(sacs_total),
        "life": _sum([t for t in (life_total, damage_total) if not _is_zero(t)]),
        "tapped": _sum(taps_total),
        "exiled": _sum(exiles_total),
        "flexibility": _sum(flex_total),
        "floating": sum(pool0.values()) + _sum(all_made) - _sum(all_spent),
    }
    return b


def _is_zero(expr) -> bool:
    """A demand that is the constant 0 (an empty sum): no variables are needed for it."""
    return isinstance(expr, int) and expr == 0


def _cheapest(symbols) -> list:
    """For each symbol, its option paid with the fewest mana."""
    return [min(s.payment_options(0), key=lambda o: o.mana_count) for s in symbols] or []


def _generic_bound(spell, x_bound: int) -> int:
    """The most generic mana the spell's total could ask for, before reductions."""
    return sum(max(s.amount, 2) for s in spell.added_symbols) + x_bound * (spell.mana_cost.x_count + 1) + 1


def _add_need(need, n, typed_pre, generic_pre, snow_pre):
    if need.snow:
        snow_pre.append(n)
    elif need.types == ALL_TYPES:
        generic_pre.append(n)
    else:
        (t,) = need.types
        typed_pre[t].append(n)


OBJECTIVE_ORDER = ("sacrificed", "life", "tapped", "exiled", "flexibility", "floating")


def objective_bounds(problem: PaymentProblem, supply: Supply) -> dict:
    """Upper bounds on each objective term, used to make the weights lexicographic."""
    n_perm = sum(g.size for g in supply.groups)
    flex = sum(g.flexibility * g.size for g in supply.groups)
    return {
        "sacrificed": n_perm,
        # life paid as costs is at most the life total (CR 118.3); damage is not bounded by it
        "life": problem.player.life + sum(a.cap * a.damage for a in supply.acts),
        "tapped": n_perm,
        "exiled": problem.player.graveyard,
        "flexibility": flex,
        "floating": supply.mana_bound,
    }


def set_objective(b: Built, problem: PaymentProblem) -> None:
    """Minimise the terms in OBJECTIVE_ORDER lexicographically, as one weighted sum: each
    term's weight exceeds the most all later terms can add. A term that is a constant on
    this board takes no weight, which keeps the coefficients small."""
    bounds = objective_bounds(problem, b.supply)
    weight = 1
    terms, weights = [], []
    for name in reversed(OBJECTIVE_ORDER):
        term = b.objective_terms[name]
        if isinstance(term, int):
            continue
        terms.append(term)
        weights.append(weight)
        weight *= bounds[name] + 1
    b.model.minimize(_cp().LinearExpr.weighted_sum(terms, weights) if terms else 0)


def solve(b: Built, time_limit: float):
    """Solve a built model. Models without chains (no layers) are small transport
    problems that CP-SAT's search closes at once, where presolve would cost more than the
    search (measured: 3.1 ms against 1.3 ms at 20 permanents)."""
    return solve_model(b.model, time_limit, presolve=b.layers > 0)


def solve_model(model, time_limit: float, presolve: bool = True):
    """(solver, status) with one worker and the small-model parameters of
    ../shared/docs/design.md ("What we measured")."""
    cp_model = _cp()
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.num_workers = 1
    p.symmetry_level = 0
    p.cp_model_probing_level = 0
    p.max_time_in_seconds = time_limit
    p.catch_sigint_signal = False  # a library call: Ctrl-C belongs to the caller
    p.cp_model_presolve = presolve
    status = solver.solve(model)
    return solver, status
