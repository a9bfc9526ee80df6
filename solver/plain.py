"""The best payment on a plain board, as a small transport problem, without CP-SAT.

On a plain board (see :func:`solver.hall.plain_view`: every usable source makes one mana
for ``{T}`` alone, and the cost is colored, ``{C}``, hybrid and generic symbols) each
tapped permanent pays exactly one unit of the cost, so a payment is an assignment of
sources to the cost's unit needs, and the protocol's objective reduces to: fewest
permanents tapped (floating mana first), then the least flexible ones tapped (the
fourth objective), with nothing else in play (no sacrifice, life, exile; floating mana
is what the pool keeps). That is a transportation problem between kinds of source (the
set of types it makes, and whether it is floating mana) and kinds of need (the set of
types that may pay it), with costs on the sources alone: the greedy algorithm of a
matroid solves it exactly (see :func:`_transport`), in pure Python, so a plain board
needs no OR-Tools at all.

The general model in :mod:`solver.cpsat` finds the same optimum (``tests/test_fuzz.py``
checks that on random plain boards, against the reference search too); this one costs a
fraction of it, which matters on the question an AI asks most, and its plan is replayed
by the same validator.
"""

from __future__ import annotations

from collections import Counter

from manaplan.model.abilities import PRECAST_ONLY, can_pay_life
from manaplan.model.board import flexibility
from manaplan.model.cost import Announcement, choice_symbols, total_cost
from manaplan.model.plan import POOL, PaymentLine, Plan, Step, check_plan_size
from manaplan.model.problem import PaymentProblem
from manaplan.model.symbols import ALL_TYPES, GENERIC, MANA_TYPES, Symbol
from manaplan.solver.hall import (TWO_WAY, PlainView, hall_certificate, plain_board, plain_lane_board, plain_needs,
                                  plain_view, two_way_choices)
from manaplan.solver.supply import BY_GROUP, Supply

#: the one-type symbol paid by each type of mana ({W}, ..., {C})
_TYPE_SYMBOL = {t: Symbol.parse("{%s}" % t) for t in MANA_TYPES}


def plain_lane(problem: PaymentProblem) -> Plan | None:
    """The best plan of a ``pay`` query on a plain board (not yet validated) found
    without building the supply: from each group's acts as built
    (solver.hall.plain_lane_board), the same transport and the same plan as
    :func:`plain_payment`; None where that can't be said so (the board or the cost is
    not plain, floating mana, another order of the objective's terms; or no payment:
    the supply's path then writes the proof)."""
    if problem.prefer.order or problem.prefer.keep_untapped:
        return None
    needs = plain_needs(problem.spell.cost)
    if needs is None:
        return None
    found = plain_lane_board(problem)
    if found is None:
        return None
    classes = _classes(found, PlainView(needs, *found["sources"]))
    flows = _transport(classes, needs, _cheapest_first(found, classes, problem.color_needs))
    return None if flows is None else _plan(problem, found["acts"], classes, flows)


def plain_payment(problem: PaymentProblem, supply: Supply):
    """The answer to a ``pay`` query on a plain board (a :class:`Plan`, not yet
    validated, or an :class:`Unpayable` with its Hall certificate), or None if the board
    or the cost is not plain."""
    if any(why in PRECAST_ONLY for _, _, why in supply.excluded):
        return None  # the general planner says when activating before casting would help
    if problem.prefer.order or problem.prefer.keep_untapped:
        return None  # another order of the objective's terms: the general model
    view = plain_view(problem, supply)
    if view is None:
        return _two_way_payment(problem, supply)
    classes = _classes(supply.memo, view)
    flows = _transport(classes, view.needs, _cheapest_first(supply.memo, classes, problem.color_needs))
    if flows is None:  # Hall's condition fails (it is exact here): the violated set is the proof
        return hall_certificate(problem, supply, view)
    return _plan(problem, _acts_by_group(supply), classes, flows)


def _two_way_payment(problem: PaymentProblem, supply: Supply):
    """The best payment of a cost with twobrid and Phyrexian symbols on a plain board,
    :data:`NO_WAY_PAYS` where none does, or None (the board or cost isn't plain this
    way). Each announcement of those symbols (solver.hall.two_way_choices) is a
    plain cost: the transport pays it at least cost, and the objective (life, then
    permanents tapped, then their flexibility, then mana left floating: docs/protocol.md)
    picks the best of them. The announcements come cheapest in life and mana first, and
    stop once none left can beat the best found: a way's life is fixed, and it taps at
    least its mana less the floating mana."""
    ways = two_way_choices(problem.spell.cost)
    board = plain_board(problem, supply) if ways is not None else None
    if board is None:
        return None
    assert ways is not None
    view = PlainView(Counter(), *board)
    classes = _classes(supply.memo, view)
    order = _cheapest_first(supply.memo, classes, problem.color_needs)
    pooled = sum(len(c[2]) for c in classes if c[1])
    life = problem.player.life
    best, best_key = None, None
    for way in ways:
        if not can_pay_life(way.life, life):
            continue
        if best_key is not None and (way.life, max(0, way.mana - pooled)) > best_key[:2]:
            if way.life > best_key[0]:
                break  # (sorted by life: no later way pays less)
            continue
        flows = _transport(classes, way.needs, order)
        if flows is None:
            continue
        key = _objective(classes, flows, way.life, pooled, problem.color_needs)
        if best_key is None or key < best_key:
            best, best_key = (way, flows), key
    if best is None:
        return NO_WAY_PAYS  # (each announcement tried, Hall's condition exact: a proof, solver.hall.two_way_payable)
    way, flows = best
    return _plan(problem, _acts_by_group(supply), classes, flows, way.halves)


#: :func:`plain_payment`'s answer where no announcement of a twobrid or Phyrexian cost
#: pays on a plain board: a "no" proven, whose words the caller writes (one_spell.unpayable)
NO_WAY_PAYS = "no announcement pays"


def _objective(classes: list, flows: dict, life: int, pooled: int, hand_needs: dict) -> tuple:
    """(life, permanents tapped, their flexibility, floating mana left) of an assignment:
    the default objective's terms that can differ on a plain board."""
    tapped = flex = from_pool = 0
    for (c, _), n in flows.items():
        if classes[c][1]:
            from_pool += n
        else:
            tapped += n
            flex += n * flexibility(classes[c][0], hand_needs)
    return life, tapped, flex, pooled - from_pool


def _classes(memo: dict, view) -> list:
    """(types made, floating mana?, ids, the group of each) for each kind of source: one
    cost per class; read once per supply (``memo``: the supply's, or the plain lane's
    board: a hand's cards share it)."""
    if "plain_classes" in memo:
        return memo["plain_classes"]
    classes = []
    for types, who in view.ids.items():
        groups = view.groups[types]
        pooled = who.count(POOL)  # (the floating mana comes first: hall._plain_sources)
        if not pooled:
            classes.append((types, False, tuple(who), tuple(groups)))
            continue
        classes.append((types, True, tuple(who[:pooled]), tuple(groups[:pooled])))
        if pooled < len(who):
            classes.append((types, False, tuple(who[pooled:]), tuple(groups[pooled:])))
    memo["plain_classes"] = classes
    return classes


def _acts_by_group(supply: Supply):
    """Each group's acts, by its number: as the supply keeps them (``BY_GROUP``), or
    {group: the abilities plain_view counted for its permanents} (usable, and allowed for
    this spell; read once per supply)."""
    by_group = supply.memo.get(BY_GROUP)
    if by_group is not None:
        return by_group[0]
    if "plain_abilities" not in supply.memo:
        acts_of: dict = {}
        for a in supply.acts:
            acts_of.setdefault(a.group, []).append(a)
        supply.memo["plain_abilities"] = acts_of
    return supply.memo["plain_abilities"]


def _paid_with(types: frozenset, need: frozenset) -> str:
    """The type a source of ``types`` pays a unit of ``need`` with: the first of both in
    the order of mana types (found once per pair)."""
    found = _PAID_WITH.get((types, need))
    if found is None:
        found = _PAID_WITH[(types, need)] = next(t for t in MANA_TYPES if t in types and t in need)
    return found


_PAID_WITH: dict = {}  # (at most 63 x 63 pairs of sets of the six types)


def _generic_symbol(amount: int) -> Symbol:
    """``{amount}``, made once for the amounts plans pay most."""
    if amount >= len(_GENERIC_SYMBOLS):
        return Symbol(GENERIC, (), amount)
    return _GENERIC_SYMBOLS[amount]


_GENERIC_SYMBOLS = tuple(Symbol(GENERIC, (), n) for n in range(64))


def _in_order(types: frozenset) -> tuple:
    """A set of types as a sorted tuple (the order of a plan's units), found once."""
    if types not in _SORTED_TYPES:
        _SORTED_TYPES[types] = tuple(sorted(types))
    return _SORTED_TYPES[types]


_SORTED_TYPES: dict = {}


def _tap_step(acts: tuple, pid: str, mana: str) -> Step:
    """The step tapping ``pid`` for one ``mana``: by the first of its group's ``acts``
    that makes it."""
    for act in acts:
        if (mana,) in act.alternatives:
            break
    else:
        raise AssertionError(f"no ability of {pid}'s group adds {mana}")  # (its class's types are its acts')
    key = (pid, act.index, act.text, mana, act.given_by)
    step = _TAP_STEPS.get(key)
    if step is None:
        if len(_TAP_STEPS) >= _TAP_STEPS_KEPT:
            _TAP_STEPS.clear()
        step = _TAP_STEPS[key] = Step(pid, act.index, act.text, (mana,), taps=True, given_by=act.given_by)
    return step


#: tap steps, each an immutable value of what it is made of: an engine names the same
#: permanents request after request, and a step made is made again only past this many
_TAP_STEPS: dict = {}
_TAP_STEPS_KEPT = 4096


def _cheapest_first(memo: dict, classes: list, hand_needs: dict) -> list:
    """The classes in the order the greedy takes them: floating mana, then the least
    flexible sources (weighed by the colors the rest of the hand needs); found once per
    supply (``memo``, as :func:`_classes`) and hand."""
    key = ("plain_order", tuple(sorted(hand_needs.items())))
    if key not in memo:
        cost = [(not pooled, flexibility(types, hand_needs)) for types, pooled, _, _ in classes]
        memo[key] = sorted(range(len(classes)), key=cost.__getitem__)
    return memo[key]


def _transport(classes: list, needs: Counter, order: list):
    """{(class#, need types): units} of the cheapest assignment, or None if none pays;
    ``order`` lists the classes cheapest first (:func:`_cheapest_first`).

    A floating mana costs nothing; a tapped permanent costs more than all the
    flexibility on the board, plus its own flexibility, so the cheapest assignment taps
    the fewest permanents, then the least flexible ones (floating mana left is fixed by
    the first). The cost lies on the sources alone, so the sets of source units that can
    pay distinct units of the cost are the independent sets of a transversal matroid,
    and the greedy algorithm is exact: take the cheapest units first, each one only if
    the units taken so far can still all be matched to distinct needs (an augmenting
    path, as in bipartite matching). Every payment is a basis of that matroid, and the
    greedy basis is one of least cost.
    """
    demand = dict(needs)
    total = sum(demand.values())
    if not total:
        return {}
    flows: dict = {}
    room = dict(demand)  # what each need still lacks
    matched = 0
    for c in order:
        types = classes[c][0]
        for _ in range(len(classes[c][2])):  # each unit of the class, while one more can be matched
            free = None
            for need in demand:
                if room[need] and types & need:
                    free = need
                    break
            if free is not None:  # an augmenting path of one edge: a need with room this class pays
                room[free] -= 1
                flows[(c, free)] = flows.get((c, free), 0) + 1
            elif not _augment(c, classes, demand, room, flows):
                break
            matched += 1
            if matched == total:
                return {key: n for key, n in flows.items() if n}
    return None


def _augment(c: int, classes: list, demand: dict, room: dict, flows: dict) -> bool:
    """Match one more unit of class ``c``: a breadth-first search for a need with room,
    moving units already matched from need to need along the way; False if none."""
    start = [need for need in demand if classes[c][0] & need]
    came_from: dict[frozenset, tuple[frozenset, int] | None] = {need: None for need in start}
    queue = list(start)
    while queue:
        need = queue.pop(0)
        if room[need]:
            room[need] -= 1
            while (step := came_from[need]) is not None:  # move each unit on the path one need along
                before, via = step
                flows[(via, need)] = flows.get((via, need), 0) + 1
                flows[(via, before)] -= 1
                need = before
            flows[(c, need)] = flows.get((c, need), 0) + 1
            return True
        for (via, held), n in list(flows.items()):
            if held != need or n <= 0:
                continue
            for other in demand:
                if other not in came_from and classes[via][0] & other:
                    came_from[other] = (need, via)
                    queue.append(other)
    return False


def _plan(problem: PaymentProblem, acts_of, classes: list, flows: dict, announced: tuple = ()) -> Plan:
    """The assignment as a plan at the table: tap each chosen permanent for the type its
    unit is paid with, announce each hybrid as the half it was paid with and each two-way
    symbol as ``announced`` says (CR 601.2b), then pay the locked-in total (601.2h): a
    Phyrexian symbol announced as life with 2 life (107.4f)."""
    check_plan_size(sum(flows.values()))
    units = []  # (need types, mana type, source id)
    steps = []
    used = [0] * len(classes)
    for (c, need), n in sorted(flows.items(), key=lambda kv: (kv[0][0], _in_order(kv[0][1]))):
        types, _, ids, groups = classes[c]
        mana = _paid_with(types, need)
        for k in range(used[c], used[c] + n):
            units.append((need, mana, ids[k]))
            if ids[k] != POOL:
                steps.append(_tap_step(acts_of[groups[k]], ids[k], mana))
        used[c] += n
    cost = problem.spell.cost
    halves_by_types: dict = {}
    for need, mana, pid in units:
        if len(need) == 2:
            halves_by_types.setdefault(need, []).append(mana)
    choices = choice_symbols(cost.added_symbols)
    halves = [said if s.kind in TWO_WAY else halves_by_types[frozenset(s.colors)].pop()
              for s, said in zip(choices, announced or [None] * len(choices))]
    total = total_cost(cost, Announcement(tuple(halves)))
    generic_symbol = _generic_symbol(total.generic)
    generic = [(mana, pid) for need, mana, pid in units if need == ALL_TYPES]
    typed = sorted(((mana, pid) for need, mana, pid in units if need != ALL_TYPES),
                   key=lambda u: MANA_TYPES.index(u[0]))
    payment = [PaymentLine(generic_symbol, mana, pid) for mana, pid in generic]
    payment += [PaymentLine(_TYPE_SYMBOL[mana], mana, pid) for mana, pid in typed]
    payment += [PaymentLine(sym, life=2) for sym in total.life_symbols]  # CR 107.4f
    spent = Counter(mana for _, mana, pid in units if pid == POOL) if problem.player.pool else {}
    floating = []
    for u in problem.player.pool:
        if spent[u.type]:
            spent[u.type] -= 1
        else:
            floating.append(u)
    return Plan(tuple(steps), total, tuple(payment), tuple(floating), tuple(zip(choices, halves)))
