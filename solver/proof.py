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

import itertools

from ..model.cost import all_total_costs, count_announcements
from ..model.request import PaymentProblem
from ..model.symbols import ALL_TYPES, MANA_TYPES
from ..model.sources import describe_types

from .supply import Supply, build_supply

MAX_ANNOUNCEMENTS = 4096


def _subsets():
    for r in range(1, len(MANA_TYPES) + 1):
        for combo in itertools.combinations(MANA_TYPES, r):
            yield frozenset(combo)


def supply_of(supply: Supply, types: frozenset, snow_only: bool = False) -> dict:
    """The most mana with a type in ``types`` each source could make for the spell,
    ignoring ability costs (so an upper bound): {source id: amount}."""
    everything = types == ALL_TYPES
    out = {}
    for u in supply.pool:
        if u.type in types and (everything or not u.generic_only) and (u.snow or not snow_only):
            out["pool"] = out.get("pool", 0) + 1
    for g, grp in enumerate(supply.groups):
        tap_best, free = 0, 0
        for a in supply.acts:
            if a.group != g:
                continue
            own_counts = not (snow_only and not a.mana.snow) and not (a.mana.generic_only and not everything)
            if a.combination:
                per = a.combination if own_counts and types & set(a.combination_types) else 0
            else:  # its own mana, and what its triggers add (their source's snow, no restriction)
                per = max(sum(1 for t in alt if t in types and own_counts)
                          + sum(1 for e in a.extra(i) if e.type in types and (e.snow or not snow_only))
                          for i, alt in enumerate(a.alternatives))
            if not per:
                continue
            if a.tap:
                tap_best = max(tap_best, per)
            else:
                free += per * -(-a.cap // grp.size)
        if tap_best + free:
            for pid in grp.ids:
                key = pid.split(":")[0]
                out[key] = out.get(key, 0) + tap_best + free
    return out


def _demand(total, types: frozenset) -> int:
    n = sum(c for t, c in zip(MANA_TYPES, total.typed) if t in types)
    if types == ALL_TYPES:
        n += total.generic + total.snow
    return n


def counting_bound(problem: PaymentProblem, supply: Supply | None = None) -> dict | None:
    """A certificate that the spell can't be paid, or None if counting can't show it."""
    spell = problem.spell.cost
    if spell.mana_cost is None:
        return {"code": "no_mana_cost",
                "message": "it has no mana cost, so it can't be cast by paying one (CR 202.1b)"}
    if count_announcements(spell) > MAX_ANNOUNCEMENTS:
        return None
    supply = supply or build_supply(problem)
    life = problem.player.life
    totals = [t for t in all_total_costs(spell) if t.life <= life]
    if not totals:
        need = min(t.life for t in all_total_costs(spell))
        return {"code": "not_enough_life", "needs": need, "available": life,
                "message": f"needs {need} life for its Phyrexian symbols with no colored mana for them; "
                           f"life is {life} (CR 118.3)"}
    best = None
    for types in _subsets():
        sources = supply_of(supply, types)
        available = sum(sources.values())
        needs = min(_demand(t, types) for t in totals)
        if needs > available and (best is None or len(types) < len(best["types"])):
            best = {"code": "not_enough_mana", "types": [t for t in MANA_TYPES if t in types],
                    "needs": needs, "available": available, "sources": sorted(sources)}
    snow_sources = supply_of(supply, ALL_TYPES, snow_only=True)
    snow_needs = min(t.snow for t in totals)
    if best is None and snow_needs > sum(snow_sources.values()):
        best = {"code": "not_enough_mana", "types": list(MANA_TYPES), "snow": True, "needs": snow_needs,
                "available": sum(snow_sources.values()), "sources": sorted(snow_sources)}
    if best is None:
        return None
    best["message"] = explain(best, supply_of(supply, frozenset(best["types"]), best.get("snow", False)))
    priced_out = [t for t in all_total_costs(spell) if t.life > life]
    if priced_out:
        best["message"] += (f" (its Phyrexian symbols could be paid with 2 life each instead, "
                            f"but life is {life}, CR 118.3)")
    return best


def explain(cert: dict, amounts: dict) -> str:
    """The player's sentence for a counting certificate; ``amounts`` is how much of the
    certificate's mana each source could make."""
    types = frozenset(cert["types"])
    what = "snow mana" if cert.get("snow") else ("mana" if types == ALL_TYPES else describe_types(types) + " mana")
    src = cert["sources"]
    if not src:
        return f"needs {cert['needs']} {what}; nothing untapped can make it"
    listing = ", ".join(s if amounts[s] == 1 else f"{s} ({amounts[s]})" for s in src)
    if all(amounts[s] == 1 for s in src):
        n = len(src)
        return (f"needs {cert['needs']} {what}; only {n} untapped source{'s' if n != 1 else ''} "
                f"can make {what.replace(' mana', '') if what != 'mana' else 'it'}: {listing}")
    return f"needs {cert['needs']} {what}; at most {cert['available']} can be made: {listing}"


def check_certificate(problem: PaymentProblem, reason: dict) -> bool | None:
    """Check an unpayable answer's certificate without CP-SAT.

    True: the certificate proves that no payment exists. False: it does not.
    None: it can't be checked here (an exhaustive proof on a board too large for the
    reference search).
    """
    code = reason.get("code")
    if code == "no_mana_cost":
        return problem.spell.cost.mana_cost is None
    if code == "not_enough_life":
        totals = all_total_costs(problem.spell.cost)
        return all(t.life > problem.player.life for t in totals)
    if code == "not_enough_mana":
        supply = build_supply(problem)
        types = frozenset(reason["types"])
        snow = reason.get("snow", False)
        available = sum(supply_of(supply, types, snow).values())
        totals = [t for t in all_total_costs(problem.spell.cost) if t.life <= problem.player.life]
        needs = min((t.snow if snow else _demand(t, types)) for t in totals)
        return needs > available and reason["needs"] == needs and reason["available"] == available
    if code in ("no_payment", "needs_activation_before_casting"):
        from .checks.reference import MAX_REFERENCE_PERMANENTS, reference_optimum
        if len(problem.board.permanents) > MAX_REFERENCE_PERMANENTS:
            return None
        return reference_optimum(problem) is None
    return False
