"""An exact, CP-SAT-free "can I pay?" for plain boards, by Hall's condition.

On a board where every usable source makes one mana per activation, at most once, for
nothing but ``{T}`` (basic lands, duals, tri-lands, mana dorks, floating mana), paying a
cost of colored, ``{C}``, hybrid and generic symbols is a bipartite matching of symbols
to sources. Hall's theorem says it exists exactly when, for every set U of mana types,
the symbols that must be paid within U are no more than the sources that can make
something in U. Six types give 63 sets: microseconds at any board size, and the violated
set is the proof a player reads ("needs 3 blue mana; only 2 sources can make blue").

Twobrid and Phyrexian symbols, snow, restrictions, reductions with choices and sources
that make several mana or cost mana fall outside: ``plain_view`` returns None and the
CP-SAT model decides.
"""

from __future__ import annotations

import itertools
from collections import Counter

from ..model.cost import Announcement, total_cost
from ..model.request import PaymentProblem
from ..model.sources import why_unusable
from ..model.symbols import ALL_TYPES, COLORLESS_HYBRID, HYBRID, MANA_TYPES

from .proof import explain

_SUBSETS = [frozenset(c) for r in range(1, 7) for c in itertools.combinations(MANA_TYPES, r)]



def plain_view(problem: PaymentProblem):
    """(needs, sources, ids) or None if the board or cost isn't plain: needs and sources
    are Counters of type sets, ids maps each type set to the sources that make it."""
    spell = problem.spell
    cost = spell.cost
    if cost.mana_cost is None or spell.convoke or spell.improvise or spell.delve:
        return None
    added = cost.added_symbols
    if any(s.has_choice and s.kind not in (HYBRID, COLORLESS_HYBRID) for s in added):
        return None
    if any(s.has_choice for s in cost.reduction_symbols):
        return None
    hybrids = [s for s in added if s.kind in (HYBRID, COLORLESS_HYBRID)]
    if hybrids and (cost.reduce or cost.minimum):
        return None  # the announced half changes how reductions and floors apply
    # announce each hybrid as its first half only to total the rest; the hybrids
    # themselves stay two-type needs
    first = Announcement(tuple(s.colors[0] for s in hybrids))
    total = total_cost(cost, first)
    if total.snow:
        return None
    needs = Counter()
    for t, n in zip(MANA_TYPES, total.typed):
        needs[frozenset((t,))] += n
    for s in hybrids:
        needs[frozenset((s.colors[0],))] -= 1
        needs[frozenset(s.colors)] += 1
    needs[ALL_TYPES] += total.generic
    sources = Counter()
    ids: dict = {}
    for u in problem.player.pool:
        sources[frozenset((u.type,))] += 1
        ids.setdefault(frozenset((u.type,)), []).append("pool")
    life = problem.player.life
    kinds: dict = {}
    for p in problem.board.permanents:  # read each kind of permanent once
        if p.triggers:
            return None  # triggered mana (CR 605.1b): sources may make more than one mana
        kinds.setdefault(p.grouping_key(), []).append(p)
    for members in kinds.values():
        p = members[0]
        usable = [a for a in p.abilities if why_unusable(p, a, life) is None]
        if not usable:
            continue
        if p.snow or any(a.cost.mana.symbols or a.cost.sacrifice or a.cost.counters or a.life or a.restrict
                         or not a.cost.tap or a.output.combination
                         or any(len(alt) != 1 for alt in a.output.alternatives) for a in usable):
            return None
        makes = frozenset(t for a in usable for alt in a.output.alternatives for t in alt)
        sources[makes] += len(members)
        ids.setdefault(makes, []).extend(m.id for m in members)
    return +needs, sources, ids


def _mask(types) -> int:
    return sum(1 << MANA_TYPES.index(t) for t in types)


_FULL = (1 << len(MANA_TYPES)) - 1
_SUBSET_MASKS = [(U, _mask(U)) for U in _SUBSETS]


def hall_violation(needs: Counter, sources: Counter, ids=None):
    """The smallest set of types U with more needs inside U than sources touching U, or
    None. Type sets are bit masks, so the 63 sets cost a few thousand integer operations."""
    need_masks = [(_mask(types), n) for types, n in needs.items()]
    source_masks = [(_mask(types), n) for types, n in sources.items()]
    for U, u in _SUBSET_MASKS:
        demand = sum(n for m, n in need_masks if not m & ~u & _FULL)
        if not demand:
            continue
        supply = sum(n for m, n in source_masks if m & u)
        if demand > supply:
            return U, demand, supply
    return None


def can_pay_plain(problem: PaymentProblem):
    """True or False on a plain board; None if the board or cost is not plain."""
    view = plain_view(problem)
    if view is None:
        return None
    return hall_violation(*view) is None


def hall_certificate(problem: PaymentProblem) -> dict | None:
    """The counting certificate (as :func:`solver.proof.counting_bound` writes it) read
    off the violated Hall set, or None if the board is not plain or the cost is payable."""
    view = plain_view(problem)
    if view is None:
        return None
    found = hall_violation(*view)
    if found is None:
        return None
    types, demand, supply = found
    amounts = Counter()
    for makes, who in view[2].items():
        if makes & types:
            for pid in who:
                amounts[pid] += 1
    cert = {"code": "not_enough_mana", "types": [t for t in MANA_TYPES if t in types], "needs": demand,
            "available": supply, "sources": sorted(amounts)}
    cert["message"] = explain(cert, amounts)
    return cert
