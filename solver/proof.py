"""Proofs that no payment exists, in words a player understands, with certificates a
separate function checks.

The main certificate is a counting bound in the style of Hall's condition: for a set U
of mana types, every way of announcing the cost (CR 601.2b) still needs more mana whose
type must lie in U than the whole board could ever make of those types, even ignoring
what its abilities cost. It is exact for boards of single-mana sources paying colored,
hybrid and generic symbols, and sound everywhere. Where it finds nothing, the proof is
the exhaustive CP-SAT search itself (``code: no_payment``), which :func:`check_certificate`
re-checks with the reference search on boards small enough for it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from manaplan.model.abilities import DISCARDS_THE_SPELL, can_pay_life
from manaplan.model.cost import all_total_costs, count_announcements
from manaplan.model.plan import (
                                 NEEDS_ACTIVATION_BEFORE_CASTING, NO_MANA_COST, NO_PAYMENT, NOT_ENOUGH_LIFE, NOT_ENOUGH_MANA, POOL, NotEnoughLife,
                                 NotEnoughMana, Unpayable,
                                 )
from manaplan.model.problem import PaymentProblem
from manaplan.model.symbols import ALL_TYPES, ALL_TYPES_MASK, COLORS, MANA_TYPES, TYPE_SETS, type_mask
from manaplan.solver.supply import Supply, build_supply

MAX_ANNOUNCEMENTS = 4096


#: the index of the lowest bit set in each mask of the six mana types
_LOWEST_BIT = [0] + [(m & -m).bit_length() - 1 for m in range(1, 1 << len(MANA_TYPES))]


def supply_of(supply: Supply, types: frozenset, snow_only: bool = False) -> dict:
    """The most mana with a type in ``types`` each source could make for the spell,
    ignoring ability costs (so an upper bound): {source id: amount}."""
    everything = types == ALL_TYPES
    out: dict[str, int] = {}
    for u in supply.pool:
        if u.type in types and (everything or not u.generic_only) and (u.snow or not snow_only):
            out[POOL] = out.get(POOL, 0) + 1
    for grp, entries in _by_group(supply):
        tap_best, free = 0, 0
        for a, times, alternatives in entries:
            own_counts = not (snow_only and not a.mana.snow) and not (a.mana.generic_only and not everything)
            if a.combination:
                per = a.combination if own_counts and types & set(a.combination_types) else 0
            else:  # its own mana, and what its triggers add (their source's snow, no restriction)
                per = max((sum(n for t, n in own if t in types) if own_counts else 0)
                          + sum(1 for t, snow in extra if t in types and (snow or not snow_only))
                          for own, extra in alternatives)
            if not per:
                continue
            if a.tap:
                tap_best = max(tap_best, per)
            else:
                free += per * times
        if tap_best + free:
            for pid in grp.ids:
                key = pid.split(":")[0]
                out[key] = out.get(key, 0) + tap_best + free
    return out


def _most_by_types(supply: Supply) -> dict:
    """``sum(supply_of(supply, types).values())`` for every set of types at once: each
    ability's best alternative is summed over the types of each set by bit masks, so the
    63 sets cost one pass over the board (check_certificate recounts with supply_of)."""
    masks = [type_mask(types) for types in TYPE_SETS]
    full = ALL_TYPES_MASK
    index = {t: i for i, t in enumerate(MANA_TYPES)}

    def by_mask(counts) -> list:
        """For (type, n) pairs: the number of them within each of the 64 masks."""
        vec = [0] * len(MANA_TYPES)
        for t, n in counts:
            vec[index[t]] += n
        out = [0] * (full + 1)
        for m in range(1, full + 1):
            out[m] = out[m & (m - 1)] + vec[_LOWEST_BIT[m]]
        return out

    total = [0] * (full + 1)
    for u in supply.pool:
        for m in range(1, full + 1):
            if m >> index[u.type] & 1 and (m == full or not u.generic_only):
                total[m] += 1
    for grp, entries in _by_group(supply):
        tap_best, free = [0] * (full + 1), [0] * (full + 1)
        for a, times, alternatives in entries:
            if a.combination:
                types_mask = sum(1 << index[t] for t in a.combination_types)
                made = [([a.combination if m & types_mask else 0 for m in range(full + 1)], [0] * (full + 1))]
            else:  # its own mana, and what its triggers add
                made = [(by_mask(own), by_mask([(t, 1) for t, _ in extra])) for own, extra in alternatives]
            # mana that pays generic costs only counts for the set of every type alone
            per = [max((own[m] if m == full or not a.mana.generic_only else 0) + extra[m] for own, extra in made)
                   for m in range(full + 1)]
            for m in range(1, full + 1):
                if a.tap:
                    tap_best[m] = max(tap_best[m], per[m])
                else:
                    free[m] += per[m] * times
        for m in range(1, full + 1):
            total[m] += (tap_best[m] + free[m]) * grp.size
    return {types: total[m] for types, m in zip(TYPE_SETS, masks)}


def _by_group(supply: Supply) -> list:
    """For each group, its abilities as (act, activations per permanent, alternatives as
    (own types with counts, triggers' mana as (type, snow))): read once per supply, as
    the counting proof asks about 63 sets of types."""
    key = "proof_table"
    if key not in supply.memo:
        acts_of: dict = {}
        for a in supply.acts:
            alternatives = tuple((tuple(Counter(alt).items()), tuple((e.type, e.snow) for e in a.extra(i)))
                                 for i, alt in enumerate(a.alternatives))
            acts_of.setdefault(a.group, []).append((a, -(-a.cap // supply.groups[a.group].size), alternatives))
        supply.memo[key] = [(grp, acts_of[g]) for g, grp in enumerate(supply.groups) if g in acts_of]
    return supply.memo[key]


def _demand(total, types: frozenset) -> int:
    n = sum(c for t, c in zip(MANA_TYPES, total.typed) if t in types)
    if types == ALL_TYPES:
        n += total.generic + total.snow
    return n


def counting_bound(problem: PaymentProblem, supply: Supply | None) -> Unpayable | None:
    """A proof that the spell can't be paid, or None if counting can't show it."""
    spell = problem.spell.cost
    if spell.mana_cost is None:
        return Unpayable(NO_MANA_COST, "it has no mana cost, so it can't be cast by paying one (CR 202.1b)")
    if count_announcements(spell) > MAX_ANNOUNCEMENTS:
        return None
    supply = supply or build_supply(problem)
    life = problem.player.life
    totals = [t for t in all_total_costs(spell) if can_pay_life(t.life, life)]
    if totals and supply.doubles:
        return None  # a doubling (Doubling Cube) makes as much as there is: no count bounds it
    if not totals:
        need = min(t.life for t in all_total_costs(spell))
        return Unpayable(NOT_ENOUGH_LIFE, f"needs {need} life for its Phyrexian symbols with no colored mana for "
                                          f"them; life is {life} (CR 118.3)", NotEnoughLife(need, life))
    best = None
    if "most_by_types" not in supply.memo:  # (the same for every spell asked of this supply)
        supply.memo["most_by_types"] = _most_by_types(supply)
    most = supply.memo["most_by_types"]
    for types in _countable_sets(problem):
        needs = min(_demand(t, types) for t in totals)
        if needs > most[types] and (best is None or len(types) < len(best.types)):
            best = NotEnoughMana(tuple(t for t in MANA_TYPES if t in types), needs, most[types],
                                 tuple(sorted(supply_of(supply, types))))
    snow_sources = supply_of(supply, ALL_TYPES, snow_only=True)
    snow_needs = min(t.snow for t in totals)
    if best is None and snow_needs > sum(snow_sources.values()):
        best = NotEnoughMana(MANA_TYPES, snow_needs, sum(snow_sources.values()), tuple(sorted(snow_sources)), True)
    if best is None:
        return None
    if any(not can_pay_life(t.life, life) for t in all_total_costs(spell)):
        best = replace(best, life_short=life)
    message, best = explain(best, supply_of(supply, frozenset(best.types), best.snow), problem)
    return Unpayable(NOT_ENOUGH_MANA, message, best)


def _countable_sets(problem: PaymentProblem) -> tuple:
    """The sets of types a count may be made over: all of them; but when mana may be
    spent as though it were mana of any color (CR 609.4b), a colored symbol is paid by
    mana of any type, so only the set of every type and colorless alone ({C} still takes
    colorless mana) count."""
    if problem.board.any_color_spending:
        return tuple(types for types in TYPE_SETS if types == ALL_TYPES or not types & _COLORS)
    return TYPE_SETS


_COLORS = frozenset(COLORS)


def explain(cert: NotEnoughMana, amounts: dict, problem: PaymentProblem | None = None) -> tuple:
    """The certificate with what each source could make (``amounts``) and, given the
    problem, the permanents that could make its mana but can't tap now (summoning sick,
    CR 302.6), and its sentence for the player: (sentence, certificate)."""
    idle = _idle(problem, cert) if problem is not None else ()
    cert = replace(cert, amounts=tuple(amounts[s] for s in cert.sources), idle=idle)
    return cert.sentence(), cert


def _idle(problem: PaymentProblem, cert: NotEnoughMana) -> tuple:
    """(id, "summoning sick") for each creature whose {T} mana ability could add mana of
    the certificate's types but that can't tap yet (CR 302.6)."""
    types = set(cert.types)
    out = []
    for p in problem.board.permanents:
        sick = p.creature and p.summoning_sick and not p.tapped
        for a in p.abilities:
            made = {t for alt in a.output.alternatives for t in alt}
            if not (made & types or cert.snow and p.snow):
                continue
            if sick and a.cost.tap and not a.cost.by_other:
                out.append((p.id, "summoning sick"))
                break
            if a.cost.discards_hand:  # Lion's Eye Diamond
                out.append((p.id, DISCARDS_THE_SPELL))
                break
    return tuple(out)


def check_certificate(problem: PaymentProblem, reason: Unpayable) -> bool | None:
    """Check an unpayable answer's certificate without CP-SAT.

    True: the certificate proves that no payment exists. False: it does not.
    None: it can't be checked here (an exhaustive proof on a board too large for the
    reference search).
    """
    code, cert = reason.code, reason.certificate
    if code == NO_MANA_COST:
        return problem.spell.cost.mana_cost is None
    if code == NOT_ENOUGH_LIFE:
        totals = all_total_costs(problem.spell.cost)
        return all(not can_pay_life(t.life, problem.player.life) for t in totals)
    if code == NOT_ENOUGH_MANA and isinstance(cert, NotEnoughMana):
        if not cert.snow and frozenset(cert.types) not in _countable_sets(problem):
            return False
        supply = build_supply(problem)
        if supply.doubles:
            return False
        available = sum(supply_of(supply, frozenset(cert.types), cert.snow).values())
        payable = [t for t in all_total_costs(problem.spell.cost) if can_pay_life(t.life, problem.player.life)]
        needs = min((t.snow if cert.snow else _demand(t, frozenset(cert.types))) for t in payable)
        return needs > available and cert.needs == needs and cert.available == available
    if code in (NO_PAYMENT, NEEDS_ACTIVATION_BEFORE_CASTING):
        from manaplan.solver.checks.reference import MAX_REFERENCE_PERMANENTS, reference_optimum
        if len(problem.board.permanents) > MAX_REFERENCE_PERMANENTS:
            return None
        return reference_optimum(problem) is None
    return False
