"""An exact, CP-SAT-free "can I pay?" for plain boards, by Hall's condition.

On a board where every usable source makes one mana per activation, at most once, for
nothing but ``{T}`` (basic lands, duals, tri-lands, mana dorks, floating mana), paying a
cost of colored, ``{C}``, hybrid and generic symbols is a bipartite matching of symbols
to sources. Hall's theorem says it exists exactly when, for every set U of mana types,
the symbols that must be paid within U are no more than the sources that can make
something in U. Six types give 63 sets: microseconds at any board size, and the violated
set is the proof a player reads ("needs 3 blue mana; only 2 sources can make blue").

Twobrid and Phyrexian symbols change the total itself: each way to announce them
(:func:`two_way_choices`) is a plain cost, checked the same way. Snow, restrictions,
reductions with choices and sources that make several mana or cost mana fall outside:
``plain_view`` returns None and the CP-SAT model decides. The view is read off the board's one grouping (``solver.supply``).
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections import Counter
from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

from manaplan.model.abilities import can_pay_life
from manaplan.model.cost import Announcement, SpellCost, choice_symbols, total_cost
from manaplan.model.plan import NOT_ENOUGH_MANA, POOL, NotEnoughMana, Unpayable
from manaplan.model.problem import PaymentProblem
from manaplan.model.symbols import (ALL_TYPES, ALL_TYPES_MASK, COLORLESS_HYBRID, HYBRID, HYBRID_PHYREXIAN, MANA_TYPES,
                                    PHYREXIAN, TWOBRID, TYPE_SETS, type_mask)
from manaplan.solver.proof import explain
from manaplan.model.abilities import PRECAST_ONLY
from manaplan.model.board import KEPT_WORK
from manaplan.solver.supply import BY_GROUP, Supply, groups_as_built, kept_with_supplies, supply_key


class PlainView(NamedTuple):
    """A plain board and cost: ``needs`` and ``sources`` are Counters of type sets (what
    each unit of the cost may be paid with, what each source can make), ``ids`` maps
    each type set to the sources that make it."""

    needs: Counter
    sources: Counter
    ids: dict
    #: {type set: the group (index in the supply) of each of ``ids``' sources, None for
    #: floating mana}: which abilities tap it, without a table of every id
    groups: dict


def plain_view(problem: PaymentProblem, supply: Supply) -> PlainView | None:
    """The plain view of the board's one grouping (``supply``), or None if the board or
    the cost isn't plain."""
    needs = plain_needs(problem.spell.cost)
    if needs is None:
        return None
    board = plain_board(problem, supply)
    if board is None:
        return None
    return PlainView(needs, *board)


@lru_cache(maxsize=1024)
def plain_needs(cost: SpellCost) -> Counter | None:
    """What each unit of a plain cost may be paid with (a Counter of type sets; read
    only), or None if the cost isn't plain: found once per cost (a hand's cards, each
    question on a kept board)."""
    if cost.mana_cost is None:
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
    return None if total.snow else _unit_needs(total, hybrids)


def _unit_needs(total, hybrids: list) -> Counter:
    """What each unit of a locked-in total may be paid with, the ``hybrids`` (announced
    as their first halves to total the rest) left two-type needs."""
    needs: Counter[frozenset] = Counter()
    for t, n in zip(MANA_TYPES, total.typed):
        needs[frozenset((t,))] += n
    for s in hybrids:
        needs[frozenset((s.colors[0],))] -= 1
        needs[frozenset(s.colors)] += 1
    needs[ALL_TYPES] += total.generic
    return +needs


#: symbols with two ways to pay that change the total, not only the type paid: a twobrid
#: ({2/W}: its color, or two generic mana) and a Phyrexian symbol ({G/P}, {G/W/P}: a
#: color, or 2 life), CR 107.4e-f
TWO_WAY = (TWOBRID, PHYREXIAN, HYBRID_PHYREXIAN)
#: the most announcements of two-way symbols the fast path tries (a cost of a dozen of
#: them goes to the general model)
MOST_TWO_WAY = 64


class TwoWayChoice(NamedTuple):
    """One announcement of a cost's two-way symbols: ``halves`` (the half of each choice
    symbol of the cost, in order; a plain hybrid's first half only as a placeholder, it
    stays a two-type need), what each unit of the total may be paid with (``needs``), the
    life it pays and its mana."""

    halves: tuple
    needs: Counter
    life: int
    mana: int


@lru_cache(maxsize=1024)
def two_way_choices(cost: SpellCost) -> tuple | None:
    """Each distinct announcement of a cost's twobrid and Phyrexian symbols that is
    otherwise plain (as :func:`plain_needs` reads it), as :class:`TwoWayChoice` s; None
    for a cost without them, or not plain, or with more than :data:`MOST_TWO_WAY` ways.
    Each choice's total is a plain cost: the transport pays it exactly, and the best of
    them is the best payment (solver.plain)."""
    if cost.mana_cost is None or any(s.has_choice for s in cost.reduction_symbols):
        return None
    choice = choice_symbols(cost.added_symbols)
    if not any(s.kind in TWO_WAY for s in choice):
        return None
    if any(s.kind not in TWO_WAY + (HYBRID, COLORLESS_HYBRID) for s in choice):
        return None
    hybrids = [s for s in choice if s.kind in (HYBRID, COLORLESS_HYBRID)]
    if hybrids and (cost.reduce or cost.minimum):
        return None  # the announced half changes how reductions and floors apply
    labels = [[o.label for o in s.payment_options(0)] if s.kind in TWO_WAY else [s.colors[0]] for s in choice]
    ways, seen = [], set()
    for halves in itertools.product(*labels):
        key = tuple(sorted((str(s), h) for s, h in zip(choice, halves)))
        if key in seen:
            continue
        seen.add(key)
        if len(seen) > MOST_TWO_WAY:
            return None
        total = total_cost(cost, Announcement(tuple(halves)))
        if total.snow:
            return None
        ways.append(TwoWayChoice(tuple(halves), _unit_needs(total, hybrids), total.life, total.mana))
    return tuple(sorted(ways, key=lambda w: (w.life, w.mana)))


def plain_board(problem: PaymentProblem, supply: Supply):
    """(sources, ids, groups) of a plain board (as :class:`PlainView` holds them), or
    None: the board's half of :func:`plain_view`, for costs that are plain once their
    two-way symbols are announced."""
    return _plain_sources(supply) if _plain_spell_and_board(problem) else None


def _plain_spell_and_board(problem: PaymentProblem) -> bool:
    """Whether nothing but the board's sources pays, as the plain view counts them: no
    convoke, improvise or delve, no mana spent as though of any color (CR 609.4b), no
    permanent that leaves anyway (the general model weighs those)."""
    spell = problem.spell
    return not (spell.convoke or spell.improvise or spell.delve or problem.board.any_color_spending
                or problem.prefer.gone)


def two_way_payable(problem: PaymentProblem, supply: Supply) -> bool | None:
    """Whether some announcement of the cost's two-way symbols is payable on a plain
    board (Hall's condition, with the life it pays within the life total, CR 119.4):
    every distinct announcement is tried, and Hall's condition is exact on a plain
    board, so False is a proof (the general model was asked for it, half an
    AI step's time on such hands); None where the board or cost isn't plain this way."""
    ways = two_way_choices(problem.spell.cost)
    board = plain_board(problem, supply) if ways is not None else None
    if board is None:
        return None
    assert ways is not None
    life = problem.player.life
    return any(can_pay_life(way.life, life) and hall_violation(way.needs, board[0]) is None for way in ways)


def _plain_sources(supply: Supply):
    """(sources by the set of types each makes, their ids, the group of each), or None
    if some ability is not plain; read once per supply (a hand's cards share it)."""
    if "plain_sources" in supply.memo:
        return supply.memo["plain_sources"]
    patched = _plain_sources_patched(supply)
    if patched is not _NOT_PATCHED:
        supply.memo["plain_sources"] = patched
        return patched
    ids: dict = {}
    groups: dict = {}
    for u in supply.pool:
        ids.setdefault(frozenset((u.type,)), []).append(POOL)
        groups.setdefault(frozenset((u.type,)), []).append(None)
    makes_by_group = _makes_by_group(supply)
    out = None
    if makes_by_group is not None:
        all_groups = supply.groups
        out = _sources_of(ids, groups, [(g, makes, all_groups[g].ids) for g, makes in makes_by_group])
    supply.memo["plain_sources"] = out
    return out


def _sources_of(ids: dict, groups: dict, made: list) -> tuple:
    """(sources, ids, groups) as :func:`_plain_sources` gives them: ``ids`` and
    ``groups`` (holding the floating mana's first, if any) with each group's permanents
    added under the types they make, ``made`` giving (group, types, its ids) in order."""
    for g, makes, members in made:
        if makes in ids:
            ids[makes].extend(members)
            groups[makes].extend([g] * len(members))
        else:
            ids[makes], groups[makes] = list(members), [g] * len(members)
    sources: Counter[frozenset] = Counter()
    for makes, who in ids.items():
        sources[makes] = len(who)
    return sources, ids, groups


def plain_lane_board(problem: PaymentProblem):
    """``{"sources": (sources, ids, groups) as :func:`plain_board` finds them, "acts":
    each group's acts}``, read from the groups as built (``solver.supply.groups_as_built``)
    without building the supply: for a board of plain sources only, no floating mana,
    nothing kept for before casting, not a kept board (whose changes patch its supply);
    None otherwise (then the supply is built, and says more). Kept with the board's
    supplies (the cards of a hand share it)."""
    if not _plain_spell_and_board(problem) or problem.player.pool or KEPT_WORK in problem.board.memo:
        return None  # (a kept board's changes patch its supply: built)
    return kept_with_supplies(problem.board, ("plain lane",) + supply_key(problem, not problem.mid_cast, None),
                              lambda: _plain_lane_board(groups_as_built(problem)))


def _plain_lane_board(built: tuple | None):
    """:func:`plain_lane_board` of the groups as built."""
    if built is None:
        return None
    made, acts_of = [], []
    for g, (members, acts, reasons) in enumerate(built):
        acts_of.append(acts)
        if reasons and any(why in PRECAST_ONLY for _, why in reasons):
            return None  # (the general planner says when activating before casting would help)
        if not acts:
            continue
        makes = _makes_of(acts)
        if makes is _NOT_PATCHED:
            return None
        made.append((g, makes, members))
    return {"sources": _sources_of({}, {}, made), "acts": acts_of}  # (and what the plain payment derives from them)


def _makes_by_group(supply: Supply) -> list | None:
    """[(group, the types its abilities make)] for each group with an ability it may use,
    in order, or None if some ability is not plain. Where the supply keeps each group's
    acts (``BY_GROUP``: acts built once and shared by every board that has the group at
    that place), each group's types are found once for its acts (:data:`_MAKES`)."""
    by_group = supply.memo.get(BY_GROUP)
    if by_group is not None:
        out = []
        for g, acts in enumerate(by_group[0]):
            makes = _makes_of(acts)
            if makes is _NOT_PATCHED:
                return None
            if acts:
                out.append((g, makes))
        return out
    makes_by_group: dict = {}
    for a in supply.acts:
        makes = a.plain_types
        if makes is None:
            return None
        makes_by_group[a.group] = makes_by_group.get(a.group, frozenset()) | makes
    return list(makes_by_group.items())


def _makes_of(acts: tuple):
    """:func:`_group_makes` of a group's acts, found once for the acts (:data:`_MAKES`)."""
    kept = _MAKES.get(id(acts))
    if kept is None or kept[0] is not acts:
        if len(_MAKES) >= _MAKES_KEPT:
            _MAKES.clear()
        kept = _MAKES[id(acts)] = (acts, _group_makes(acts))
    return kept[1]


#: the types each group's acts make (solver.supply keeps a group's acts for every board
#: that has it), by the acts (kept with them: an id is not reused while they live)
_MAKES: dict = {}
_MAKES_KEPT = 16_384


_NOT_PATCHED = object()


def _plain_sources_patched(supply: Supply):
    """:func:`_plain_sources` of a supply patched from another's at a few groups
    (solver.supply._supply_patched: a change on a kept board), from the other's, those
    groups' sources taken out and put back in their place: what the whole count would
    give, in the same order; ``_NOT_PATCHED`` where it can't be."""
    found = supply.memo.get("patched_from")
    if found is None:
        return _NOT_PATCHED
    old, places = found
    before = old.memo.get("plain_sources")
    if before is None or BY_GROUP not in supply.memo:
        return _NOT_PATCHED
    old_acts, new_acts = old.memo[BY_GROUP][0], supply.memo[BY_GROUP][0]
    sources = Counter(before[0])
    ids = {k: list(v) for k, v in before[1].items()}
    groups = {k: list(v) for k, v in before[2].items()}
    for g in places:
        was, now = _group_makes(old_acts[g]), _group_makes(new_acts[g])
        if was is _NOT_PATCHED:
            return _NOT_PATCHED
        if now is _NOT_PATCHED:
            return None  # (an ability that is not plain: no plain sources, as the whole count says)
        if was:
            members = len(old.groups[g].ids)
            at = _place_of(groups[was], g)
            del ids[was][at:at + members], groups[was][at:at + members]
            sources[was] -= members
            if not sources[was]:
                del sources[was], ids[was], groups[was]
        if now:
            members = supply.groups[g].ids
            sources[now] = sources.get(now, 0) + len(members)
            at = _place_of(groups.setdefault(now, []), g)
            ids.setdefault(now, [])[at:at] = members
            groups[now][at:at] = [g] * len(members)
    order = sorted(groups, key=lambda k: -1 if groups[k][0] is None else groups[k][0])  # (pool first, then by group)
    return (Counter({k: sources[k] for k in order}), {k: ids[k] for k in order}, {k: groups[k] for k in order})


def _group_makes(acts):
    """The types a group's plain abilities make (empty: it has none usable), or
    ``_NOT_PATCHED`` where one is not plain."""
    makes: frozenset = frozenset()
    for a in acts:
        if a.plain_types is None:
            return _NOT_PATCHED
        makes |= a.plain_types
    return makes


def _place_of(groups: list, g: int) -> int:
    """Where group ``g``'s sources stand (or would) in a list of group numbers, the pool's
    (None) first, then ascending."""
    lo = 0
    while lo < len(groups) and groups[lo] is None:
        lo += 1
    return bisect_left(groups, g, lo)


def hall_shortfall(sets, needs: list, sources: list) -> tuple | None:
    """Hall's condition, the one form every "no" on a plain board rests on (Magic's mana
    types here, Duel Masters' civilizations in solver.duel_masters): ``needs`` and
    ``sources`` are (bit mask, count) pairs (what a unit of the cost may be paid with,
    what a source can make), ``sets`` the bit masks to try, smallest first. The first set
    U whose needs, all within U, outnumber the sources touching U, as (U, needs, sources);
    None where no set does: then, by Hall's theorem, each need has a source of its own.
    :func:`demand_vector` and :func:`supply_vector` hold the same two counts for every set
    at once (a search over many costs on one board).

    >>> hall_shortfall([0b01, 0b10, 0b11], [(0b01, 2), (0b11, 1)], [(0b01, 1), (0b10, 5)])
    (1, 2, 1)
    """
    for u in sets:
        demand = sum(n for m, n in needs if not m & ~u)
        if not demand:
            continue
        supply = sum(n for m, n in sources if m & u)
        if demand > supply:
            return u, demand, supply
    return None


#: the sets of mana types as bit masks, smallest first, and each mask's set
_TYPE_MASKS = tuple(type_mask(U) for U in TYPE_SETS)
_TYPES_OF = dict(zip(_TYPE_MASKS, TYPE_SETS))


def hall_violation(needs: Counter, sources: Counter):
    """The smallest set of types U with more needs inside U than sources touching U, as
    (U, needs, sources), or None (:func:`hall_shortfall` over the 63 sets of mana types:
    a few thousand integer operations)."""
    found = hall_shortfall(_TYPE_MASKS, [(type_mask(types), n) for types, n in needs.items()],
                           [(type_mask(types), n) for types, n in sources.items()])
    return None if found is None else (_TYPES_OF[found[0]],) + found[1:]


def plain_ways(cost: SpellCost) -> tuple | None:
    """((needs, life it pays), ...): a plain cost's one reading (:func:`plain_needs`), or
    each announcement of its twobrid and Phyrexian symbols (:func:`two_way_choices`);
    None where the cost isn't plain either way."""
    needs = plain_needs(cost)
    if needs is not None:
        return ((needs, 0),)
    ways = two_way_choices(cost)
    return None if ways is None else tuple((w.needs, w.life) for w in ways)


#: past this X a plain board's max_x is left to the general model (a board's reductions
#: would have to be worth more than a million mana)
MOST_X = 1 << 20


def plain_max_x(problem: PaymentProblem, supply: Supply) -> int | None:
    """The largest X with which a plain board pays the cost (Hall's condition at each X,
    each announcement of its twobrid and Phyrexian symbols tried within the life total,
    CR 119.4; more X never pays less, so the search halves its range), -1 where not even
    X = 0 is paid; None where the board, or the cost at some X, isn't plain."""
    board = plain_board(problem, supply)
    if board is None:
        return None
    sources, life, cost = board[0], problem.player.life, problem.spell.cost

    def pays(x: int):
        ways = plain_ways(replace(cost, x=x))
        if ways is None:
            return None
        return any(can_pay_life(paid, life) and hall_violation(needs, sources) is None for needs, paid in ways)

    first = pays(0)
    if not first:
        return None if first is None else -1
    low, high = 0, sum(sources.values()) + 1  # pays(low); high: to be found unpaid
    while True:
        paid = pays(high)
        if paid is None or high > MOST_X:
            return None
        if not paid:
            break
        low, high = high, high * 2  # (reductions: X past the board's mana may still be paid)
    while high - low > 1:
        mid = (low + high) // 2
        paid = pays(mid)
        if paid is None:
            return None
        low, high = (mid, high) if paid else (low, mid)
    return low


#: the most cards :func:`best_subsets` looks at, and the most steps of its search (past
#: either the turn model decides alone)
MOST_CARDS_TOGETHER = 12
MOST_VALUE_STEPS = 50_000


def best_subsets(cards: list, sources: Counter, life: int, most: int = 0):
    """(the most total worth of a subset of ``cards`` (each (its ways to announce it:
    (needs, life it pays), ...), worth)) that a plain board's ``sources`` pay all
    together, one way each, with the life paid within ``life`` (CR 119.4), the subsets of
    card indices that reach it, listed up to ``most`` of them); None past ``most``
    subsets, :data:`MOST_CARDS_TOGETHER` cards or :data:`MOST_VALUE_STEPS` steps.

    On a plain board each source makes one mana once, so spells cast one after another
    share the sources as one payment does: a set of them is castable exactly when Hall's
    condition holds for all their symbols at once. A depth-first search over the cards,
    best first, adds each card in each of its ways or leaves it out; it cuts a branch whose
    needs already break Hall's condition (needs only grow) or whose value can no longer
    reach the best found."""
    if len(cards) > MOST_CARDS_TOGETHER:
        return None
    full = ALL_TYPES_MASK
    supply = supply_vector(sources)
    order = sorted(range(len(cards)), key=lambda k: -cards[k][1])
    options = [[(demand_vector(needs), paid) for needs, paid in cards[k][0]] for k in order]
    worths = [cards[k][1] for k in order]
    rest = [sum(max(0, w) for w in worths[k:]) for k in range(len(order) + 1)]
    reached: set[frozenset[int]]
    best, reached, steps = 0, {frozenset()}, 0

    def search(k: int, demand: list, lost: int, value: int, chosen: tuple) -> None:
        nonlocal best, reached, steps
        steps += 1
        if steps > MOST_VALUE_STEPS:
            raise _TooManySteps
        if value > best:
            best, reached = value, set()
        if value == best and (most or not reached):
            reached.add(frozenset(order[j] for j in chosen))
            if most and len(reached) > most:
                raise _TooManySteps
        if k == len(order) or value + rest[k] < best or not most and value + rest[k] == best:
            return
        if worths[k] > 0:
            for vector, paid in options[k]:
                if not can_pay_life(lost + paid, life):
                    continue
                summed = [d + v for d, v in zip(demand, vector)]
                if all(d <= s for d, s in zip(summed, supply)):
                    search(k + 1, summed, lost + paid, value + worths[k], chosen + (k,))
        search(k + 1, demand, lost, value, chosen)

    try:
        search(0, [0] * (full + 1), 0, 0, ())
    except _TooManySteps:
        return None
    return best, sorted(sorted(subset) for subset in reached)


class _TooManySteps(Exception):
    pass


def demand_vector(needs: Counter) -> tuple:
    """For each set U of types, by its bit mask, the needs that must be paid within U:
    Hall's condition (:func:`hall_shortfall`) is ``demand_vector(needs)[u] <=
    supply_vector(sources)[u]`` for every u."""
    return _demand_vector(frozenset(needs.items()))


@lru_cache(maxsize=4096)
def _demand_vector(needs: frozenset) -> tuple:
    masks = [(type_mask(types), n) for types, n in needs]
    return tuple(sum(n for m, n in masks if not m & ~u) if u else 0 for u in range(ALL_TYPES_MASK + 1))


def supply_vector(sources: Counter) -> tuple:
    """For each set U of types, by its bit mask, the sources that can make something in U
    (kept by the sources: a deck's games ask of the same few boards again and again)."""
    return _supply_vector(frozenset(sources.items()))


@lru_cache(maxsize=4096)
def _supply_vector(sources: frozenset) -> tuple:
    masks = [(type_mask(types), n) for types, n in sources]
    return tuple(sum(n for m, n in masks if m & u) for u in range(ALL_TYPES_MASK + 1))


def can_pay_plain(problem: PaymentProblem, supply: Supply):
    """True or False on a plain board; None if the board or cost is not plain."""
    view = plain_view(problem, supply)
    if view is None:
        return None
    return hall_violation(view.needs, view.sources) is None


def hall_certificate(problem: PaymentProblem, supply: Supply, view=None) -> Unpayable | None:
    """The counting certificate (as :func:`solver.proof.counting_bound` gives it) read
    off the violated Hall set, or None if the board is not plain or the cost is payable."""
    view = view or plain_view(problem, supply)
    if view is None:
        return None
    found = hall_violation(view.needs, view.sources)
    if found is None:
        return None
    types, demand, available = found
    amounts: Counter[str] = Counter()
    for makes, who in view.ids.items():
        if makes & types:
            for pid in who:
                amounts[pid] += 1
    cert = NotEnoughMana(tuple(t for t in MANA_TYPES if t in types), demand, available, tuple(sorted(amounts)))
    message, cert = explain(cert, amounts, problem)
    return Unpayable(NOT_ENOUGH_MANA, message, cert)
