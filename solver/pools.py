"""An exact, CP-SAT-free "can I pay?" for small boards of tap abilities that make
several mana or cost mana: the pools the board can make.

Hall's condition (``solver.hall``) decides boards where each source makes one mana for
{T}. Signets, filter lands, bounce lands, Sol Ring and Elves are one step past it: an
ability taps its permanent (CR 602.2b, once: it is then tapped) and may cost mana
(paid from the pool, CR 605.3a, 106.4) and add more than one. On such a board the mana
the player can hold at once is a finite set of pools; a cost is payable exactly when
one of them pays it (a pool of single mana is a plain board: Hall's condition again).

The pools are found by a search over states (the pool, and how many untapped
permanents each group still has), each step one activation: a free ability adds one of
its outputs, a converter first pays its cost from the pool in every way it can. More
mana and more untapped permanents never pay less here (nothing restricts, triggers,
costs life or leaves), so a state with no more of either than another is dropped: the
search keeps only undominated states. Groups whose abilities are all free are added
first, every permanent activated (unspent mana floats harmlessly, CR 106.4).

Outside the class (restrictions, snow, triggers, sacrifices, life, counters, Doubling
Cube, convoke, improvise, delve, spending as though any color) or past
:data:`MOST_STATES`, :func:`reachable_pools` says None and the general model decides.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, OrderedDict
from operator import add, ge

from manaplan.model.abilities import can_pay_life
from manaplan.model.problem import PaymentProblem
from manaplan.model.symbols import MANA_TYPES, PHYREXIAN, HYBRID_PHYREXIAN, SNOW, VARIABLE, type_mask
from manaplan.solver.hall import demand_vector, plain_ways, supply_vector
from manaplan.solver.supply import Supply

#: the most states the search visits, and the most new states of one step (pruning them
#: is quadratic), before it leaves the board to the general model (a deck's boards of
#: lands, Signets and filter lands reach about 100 new states a step)
MOST_STATES = 3_000
MOST_STEP_STATES = 300
#: the most permanents with an ability that costs mana, and the most pools the all-free
#: groups may make (counted before any is made), past which the board is left to the
#: general model: the pools grow with the board's flexibility, the model does not
#: (measured: 8 different Signets and filter lands took the search 50 s, the model 0.6 s)
MOST_COSTED = 6
MOST_FREE_POOLS = 2_000
#: the most outputs a "N mana in any combination of types" ability is expanded into, and
#: the most ways to pay an ability's mana cost
MOST_COMBINATIONS = 64

_INDEX = {t: k for k, t in enumerate(MANA_TYPES)}
_BITS = tuple(type_mask((t,)) for t in MANA_TYPES)


def pool_can_pay(problem: PaymentProblem, supply: Supply) -> bool | None:
    """Whether some pool the board can make pays the spell's cost (each way to announce
    its twobrid and Phyrexian symbols tried, with the life it costs, CR 107.4e-f,
    119.4); None where the cost or the board is outside this module's class."""
    if not spell_in_class(problem):
        return None
    ways = plain_ways(problem.spell.cost)
    if ways is None:
        return None
    pools = reachable_pools(supply)
    if pools is None:
        return None
    life = problem.player.life
    for needs, paid_life in ways:
        if not can_pay_life(paid_life, life):
            continue
        if any(_pays(pool, needs) for pool in pools):
            return True
    return False


def spell_in_class(problem: PaymentProblem) -> bool:
    """Whether the spell is paid as this module counts pools: no convoke, improvise or
    delve, no mana spent as though of any color, nothing leaving as it is cast."""
    spell = problem.spell
    return not (spell.convoke or spell.improvise or spell.delve or problem.board.any_color_spending
                or problem.prefer.gone)


def _pays(pool, needs: Counter) -> bool:
    """Whether a pool of single mana (its counts and its supply to each set of types,
    by the set's bit mask) pays ``needs``: Hall's condition, each set U of types asking
    no more than the pool holds of U."""
    return all(map(ge, pool[1], demand_vector(needs)))


def _with_supplies(counts: tuple) -> tuple:
    """(counts, what the pool supplies to each set of types, indexed by its bit mask)."""
    return counts, tuple(supply_vector(Counter({frozenset((t,)): n for t, n in zip(MANA_TYPES, counts) if n})))


#: the pools found, by the board's shape (its abilities' terms, how many permanents of
#: each group, the floating mana): boards that differ only in what is tapped or sick
#: (a deck's games) share them
POOLS_KEPT = 4096
_POOLS: OrderedDict = OrderedDict()


def reachable_pools(supply: Supply) -> tuple | None:
    """The undominated pools the board can hold at once, each (its counts of W U B R G
    C, its supplies as :func:`_with_supplies` gives them), or None outside the class or
    past :data:`MOST_STATES`; found once per supply and kept by the board's shape."""
    if "pools" not in supply.memo:
        supply.memo["pools"] = _kept_pools(supply)
    return supply.memo["pools"]


def _kept_pools(supply: Supply):
    shape = _shape(supply)
    if shape is None:
        return None
    if shape in _POOLS:
        _POOLS.move_to_end(shape)
        return _POOLS[shape]
    found = _search_shape(*shape)
    pools = None if found is None else tuple(_with_supplies(p) for p in found)
    _POOLS[shape] = pools
    if len(_POOLS) > POOLS_KEPT:
        _POOLS.popitem(last=False)
    return pools


def _shape(supply: Supply):
    """(the floating mana's counts, ((each act's terms, ...), untapped permanents) for
    each group, sorted), or None outside the class."""
    found = groups_in_class(supply)
    if found is None:
        return None
    start, groups = found
    sizes: dict = {}  # groups of the same abilities (a Forest and an Elf) counted as one
    for group, acts in groups:
        terms = tuple(sorted(acts))
        sizes[terms] = sizes.get(terms, 0) + group.size
    return start, tuple(sorted(sizes.items()))


def groups_in_class(supply: Supply):
    """(the floating mana's counts of W U B R G C, [(group, each of its abilities' (costs,
    outputs))] for each group with abilities, in the supply's order), or None outside the
    class: abilities that tap their own permanent and may cost mana (:func:`terms_of`), as
    often as the group has permanents, none tapped, and mana floating that any spell may
    spend."""
    if supply.doubles or supply.life_order:
        return None
    start = [0] * len(MANA_TYPES)
    for unit in supply.pool:
        if unit.spell_only or unit.generic_only or unit.ability_only or unit.keyword:
            return None
        start[_INDEX[unit.type]] += 1
    by_group: dict = {}
    for a in supply.acts:
        act = terms_of(a)
        if act is None:
            return None
        by_group.setdefault(a.group, []).append(act)
    groups = []
    for g, acts in sorted(by_group.items()):
        group = supply.groups[g]
        if group.tapped or not group.can_tap:
            return None  # (its abilities would not be offered: what the model does then is not this)
        if any(cap < group.size for _, _, cap in acts):
            return None
        groups.append((group, tuple((costs, outputs) for costs, outputs, _ in acts)))
    return tuple(start), groups


def _search_shape(start: tuple, groups: tuple):
    """The undominated pools of a board's shape: all-free groups first, each of their
    permanents tapped for one of its outputs, then the search over the others; None past
    :data:`MOST_COSTED` or :data:`MOST_FREE_POOLS`."""
    costed_size = sum(size for acts, size in groups if any(costs for costs, _ in acts))
    combos = 1
    for acts, size in groups:
        if not any(costs for costs, _ in acts):
            options = len({out for _, outputs in acts for out in outputs})
            combos *= math.comb(size + options - 1, options - 1)  # (an upper bound on its pools)
    if costed_size > MOST_COSTED or combos > MOST_FREE_POOLS:
        return None
    free_sums = [start]
    costed = []  # (its acts' terms, its untapped permanents)
    for acts, size in groups:
        if all(not costs for costs, _ in acts):
            outs = {out for _, outputs in acts for out in outputs}
            for _ in range(size):  # every permanent of an all-free group is tapped for mana
                free_sums = _maximal({_add(p, o) for p in free_sums for o in outs})
                if len(free_sums) > MOST_STATES:
                    return None
        else:
            costed.append((acts, size))
    if not costed:
        return free_sums
    return _search(free_sums, costed)


def terms_of(a):
    """:func:`_act` of an ability, kept with it (it depends on the ability alone)."""
    found = a.__dict__.get("_pool_terms", terms_of)
    if found is terms_of:
        found = a.__dict__["_pool_terms"] = _act(a)
    return found


def _act(a):
    """(costs: each way to pay its mana cost, a sorted tuple of its units' type masks;
    outputs: the counts of W U B R G C each choice adds; cap) of an ability in the
    class, or None: it taps its permanent and may cost mana, nothing else (no life,
    sacrifice, counters, energy, damage, trigger, count, restriction or doubling)."""
    if (not a.tap or a.sacrifice or a.counters or a.life or a.damage or a.energy or a.exile or a.precast
            or a.bonus or a.counted or a.made_by or a.co_tap is not None or a.doubles or a.movable
            or a.for_spells is not None or a.mana.spell_only or a.mana.generic_only or a.mana.ability_only
            or a.mana.keyword or not isinstance(a.index, int)):
        return None
    options = []
    for s in a.cost_symbols:
        if s.kind in (SNOW, VARIABLE, PHYREXIAN, HYBRID_PHYREXIAN):
            return None
        ways = s.payment_options(0)
        if any(o.life or any(n.snow for n in o.needs) for o in ways):
            return None
        options.append(tuple(tuple(type_mask(n.types) for n in o.needs) for o in ways))
    choices = list(itertools.islice(itertools.product(*options), MOST_COMBINATIONS + 1))
    if len(choices) > MOST_COMBINATIONS:
        return None
    costs = tuple(sorted({tuple(sorted(unit for part in choice for unit in part)) for choice in choices}))
    if a.combination:
        combos = list(itertools.islice(itertools.combinations_with_replacement(sorted(a.combination_types),
                                                                              a.combination), MOST_COMBINATIONS + 1))
        if len(combos) > MOST_COMBINATIONS:
            return None
        alternatives = combos
    else:
        alternatives = a.alternatives
    outputs = tuple(sorted({_vector(alt) for alt in alternatives}))
    return (costs if a.cost_symbols else (), outputs, a.cap)


def _vector(types) -> tuple:
    v = [0] * len(MANA_TYPES)
    for t in types:
        v[_INDEX[t]] += 1
    return tuple(v)


def _add(p: tuple, q: tuple) -> tuple:
    return tuple(map(add, p, q))


def left_after(pool: tuple, units: tuple) -> set:
    """Every pool left after paying ``units`` (each the bit mask of its allowed types)
    from ``pool``."""
    pools = {pool}
    for mask in units:
        pools = {p[:k] + (p[k] - 1,) + p[k + 1:] for p in pools for k, bit in enumerate(_BITS)
                 if bit & mask and p[k] > 0}
        if not pools:
            break
    return pools


def _search(starts: list, costed: list):
    """The undominated pools over every order of activations of the ``costed`` groups'
    abilities (each permanent at most once), from each of the ``starts``, or None past
    :data:`MOST_STEP_STATES` or :data:`MOST_STATES`. A state is one tuple: the pool's six
    counts, then each costed group's untapped permanents."""
    n = len(MANA_TYPES)
    frontier = _maximal([p + tuple(size for _, size in costed) for p in starts])
    seen = set(frontier)
    while frontier:
        nxt = set()
        for state in frontier:
            pool = state[:n]
            for g, (acts, _) in enumerate(costed):
                k = n + g
                if not state[k]:
                    continue
                rest = state[n:k] + (state[k] - 1,) + state[k + 1:]
                for costs, outputs in acts:
                    for p in (left_after_any(pool, costs) if costs else (pool,)):
                        for out in outputs:
                            after = _add(p, out) + rest
                            if after not in seen:
                                nxt.add(after)
        if len(nxt) > MOST_STEP_STATES or len(nxt) + len(seen) > MOST_STATES:  # (before the pruning)
            return None
        frontier = _maximal(nxt)
        seen.update(frontier)
    return _maximal({state[:n] for state in seen})


def left_after_any(pool: tuple, costs: tuple) -> set:
    """Every pool left after paying one of ``costs`` (the ways to pay an ability's cost)."""
    out = set()
    for units in costs:
        out |= left_after(pool, units)
    return out


def _maximal(vectors) -> list:
    """The vectors no other one has at least as much of in every place (more mana, more
    untapped permanents: never less to pay with), largest sum first, each against those
    kept; each vector packed in one integer for the comparison, every count in its own
    field below a guard bit: ``q`` holds ``v`` exactly when subtracting ``v`` from ``q``
    with every guard bit set borrows from none."""
    ordered = sorted(set(vectors), key=sum, reverse=True)
    if len(ordered) < 2:
        return ordered
    width = max(max(v) for v in ordered).bit_length() + 1
    places = range(0, width * len(ordered[0]), width)
    high = sum(1 << (place + width - 1) for place in places)
    kept: list = []
    packed: list = []
    for v in ordered:
        pv = sum(n << place for n, place in zip(v, places))
        for q in packed:
            if (q | high) - pv & high == high:
                break
        else:
            kept.append(v)
            packed.append(pv)
    return kept
