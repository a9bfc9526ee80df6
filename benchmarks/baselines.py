"""Baselines written for the comparison, and labelled as such: none of them is manaplan.

- ``greedy_forge_style``: a one-pass greedy tapper in the style of Forge's AI payer:
  sources ordered by fewest colors, colored symbols first, and no mana ability that
  costs mana (Signets and filter lands are ignored).
- ``enumerate_xmage_style``: every reachable combination of mana, de-duplicated, then a
  check whether any combination pays, as XMage's ManaOptions does; exponential, so it
  stops at a time budget and reports that it did.
- ``naive_cpsat``: one Boolean per (source, symbol) with no grouping, for boards of
  single-mana sources.
- the reference search is ``solver.reference.reference_optimum`` (small boards only).
"""

from __future__ import annotations

import itertools
import time
from collections import Counter

from manaplan.model.cost import Announcement, choice_symbols, total_cost
from manaplan.model.problem import PaymentProblem
from manaplan.model.symbols import ALL_TYPES, MANA_TYPES, need_of


class OutOfTime(Exception):
    pass


def _simple_sources(problem: PaymentProblem):
    """(id, set of single mana types it can make, how many) for {T}-only sources."""
    out = []
    for p in problem.board.permanents:
        if p.tapped:
            continue
        for a in p.abilities:
            if a.cost.tap and not a.cost.mana.symbols and not a.output.combination:
                out.append((p.id, frozenset(t for alt in a.output.alternatives for t in alt),
                            max(len(alt) for alt in a.output.alternatives), a.output.alternatives))
                break
    return out


def greedy_forge_style(problem: PaymentProblem) -> bool:
    """One pass, no backtracking: the answer a greedy AI payer would give."""
    cost = problem.spell.cost
    if cost.mana_cost is None:
        return False
    halves = []
    life = problem.player.life
    for s in choice_symbols(cost.added_symbols):
        opts = s.payment_options(cost.x)
        halves.append(opts[0].label)  # the colored half first, as greedy payers do
    total = total_cost(cost, Announcement(tuple(halves), tuple("generic" if s.kind == "twobrid" else s.colors[0]
                                                               for s in cost.reduction_symbols if s.has_choice)))
    if total.life > life:
        return False
    sources = sorted(_simple_sources(problem), key=lambda s: len(s[1]))
    pool = Counter(u.type for u in problem.player.pool)
    used = set()
    for t, n in zip(MANA_TYPES, total.typed):
        for _ in range(n):
            if pool[t]:
                pool[t] -= 1
                continue
            src = next((s for s in sources if s[0] not in used and t in s[1]), None)
            if src is None:
                return False
            used.add(src[0])
            alt = next(a for a in src[3] if t in a)
            pool.update(alt)
            pool[t] -= 1
    generic = total.generic
    left = sum(pool.values())
    for s in sources:
        if left >= generic:
            break
        if s[0] not in used:
            used.add(s[0])
            left += s[2]
    return left >= generic and total.snow == 0


def enumerate_xmage_style(problem: PaymentProblem, budget_s: float = 5.0) -> bool:
    """All reachable mana combinations (de-duplicated), then: does one pay? Raises
    OutOfTime past ``budget_s`` seconds."""
    deadline = time.perf_counter() + budget_s
    cost = problem.spell.cost
    if cost.mana_cost is None:
        return False
    combos = {tuple(sorted(Counter(u.type for u in problem.player.pool).items()))}
    for p in problem.board.permanents:
        if p.tapped:
            continue
        options = []
        for a in p.abilities:
            if not a.cost.tap:
                continue
            if a.output.combination:
                alts = list(itertools.combinations_with_replacement(a.output.combination_types, a.output.combination))
            else:
                alts = list(a.output.alternatives)
            options.append((a.cost.mana.symbols, alts))
        new = set(combos)
        for combo in combos:
            pool = Counter(dict(combo))
            for symbols, alts in options:
                for paid in _pay_options(pool, symbols):
                    for alt in alts:
                        if time.perf_counter() > deadline:
                            raise OutOfTime
                        new.add(tuple(sorted((paid + Counter(alt)).items())))
        combos = new
    halves_opts = [[o.label for o in s.payment_options(cost.x)] for s in choice_symbols(cost.added_symbols)]
    for halves in itertools.product(*halves_opts):
        try:
            total = total_cost(cost, Announcement(tuple(halves)))
        except ValueError:
            continue
        if total.life > problem.player.life:
            continue
        for combo in combos:
            if _pays(Counter(dict(combo)), total):
                return True
    return False


def _pay_options(pool: Counter, symbols):
    """Pools left after paying an ability's mana cost, every way (no cost: the pool)."""
    if not symbols:
        yield +pool
        return
    need = symbols[0].payment_options(0)[0].needs
    for opt in symbols[0].payment_options(0):
        if opt.life:
            continue
        for types in itertools.product(*[sorted(n.types) for n in opt.needs]):
            c = Counter(types)
            if all(pool[t] >= k for t, k in c.items()):
                yield from _pay_options(pool - c, symbols[1:])
    del need


def _pays(pool: Counter, total) -> bool:
    pool = +pool
    for t, n in zip(MANA_TYPES, total.typed):
        if pool[t] < n:
            return False
        pool[t] -= n
    return sum(pool.values()) >= total.generic and total.snow == 0


def naive_cpsat(problem: PaymentProblem, choices_too: bool = True) -> bool:
    """One Boolean per (source, unit of cost), no grouping; single-mana boards only. A
    twobrid or Phyrexian symbol is a Boolean choice of its half: its colored unit, or two
    generic units / 2 life (the life within the life total); with ``choices_too`` False,
    its colored half only (the earlier model: exact on costs
    without such symbols, a wrong "no" where only the other half pays)."""
    from ortools.sat.python import cp_model
    cost = problem.spell.cost
    choices = choice_symbols(cost.added_symbols)
    halves = tuple(s.colors[0] for s in choices)
    total = total_cost(cost, Announcement(halves))
    needs = []  # (types, None or (the choice's variable index, whether the unit is its colored half))
    for t, n in zip(MANA_TYPES, total.typed):
        needs += [(need_of(t).types, None)] * n
    needs += [(ALL_TYPES, None)] * total.generic
    two_way = []
    for s in choices:  # hybrids: either half; twobrid and Phyrexian: a choice
        needs.remove((need_of(s.colors[0]).types, None))
        if choices_too and s.kind in ("twobrid", "phyrexian", "hybrid_phyrexian"):
            k = len(two_way)
            two_way.append(s)
            needs.append((frozenset(s.colors), (k, True)))
            if s.kind == "twobrid":
                needs += [(ALL_TYPES, (k, False))] * 2
        else:
            needs.append((frozenset(s.colors), None))
    sources = _simple_sources(problem)
    m = cp_model.CpModel()
    colored = [m.new_bool_var(f"c{k}") for k in range(len(two_way))]  # the colored half of each choice
    life = [c.Not() for c, s in zip(colored, two_way) if s.kind != "twobrid"]
    if life:
        m.add(2 * sum(life) <= max(problem.player.life, 0))  # CR 119.4
    x = {}
    for i, (types, when) in enumerate(needs):
        row = []
        for j, (_, makes, _, _) in enumerate(sources):
            if makes & types:
                x[i, j] = m.new_bool_var(f"x{i}_{j}")
                row.append(x[i, j])
        if when is None:
            m.add_exactly_one(row) if row else m.add_bool_or([])
        else:
            k, is_colored = when
            active = colored[k] if is_colored else colored[k].Not()
            m.add(sum(row) == 1).only_enforce_if(active)
            m.add(sum(row) == 0).only_enforce_if(active.Not())
    used = []
    for j in range(len(sources)):
        col = [x[i, j] for i in range(len(needs)) if (i, j) in x]
        if col:
            m.add_at_most_one(col)
            u = m.new_bool_var(f"u{j}")
            m.add_max_equality(u, col)
            used.append(u)
    m.minimize(1000 * sum(life) + sum(used))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 10
    status = solver.solve(m)
    return status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
