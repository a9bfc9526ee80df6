"""A reference search that plays the payment out at the table, for testing.

It activates one mana ability at a time, paying its cost from the pool as it is at that
moment (CR 605.3), in every order and with every choice of output and of which mana
pays, and at every point tries to pay the spell's locked-in total cost from the pool
(every announcement, CR 601.2b, 601.2f). It is exhaustive and slow, meant for boards of
up to about eight permanents, and shares no solving code with the CP-SAT model: only
the rules objects of ``model/``.

``reference_optimum`` returns the best objective tuple of the protocol (sacrificed,
life, tapped, exiled, flexibility of what was tapped, mana left floating), or None if
no payment exists.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

from manaplan.model.abilities import can_pay_life, why_unusable
from manaplan.model.board import Board, flexibility
from manaplan.model.cost import all_announcements, all_total_costs, total_cost
from manaplan.model.dependent_mana import acting
from manaplan.model.errors import SearchTooLarge
from manaplan.model.mana import Mana
from manaplan.model.plan import CONVOKE, DELVE, GRAVEYARD, IMPROVISE, Plan
from manaplan.model.problem import IF_POSSIBLE, MOST, PaymentProblem
from manaplan.model.symbols import ANY, COLORED, COLORLESS, COLORS, GENERIC, SNOW, SNOW_ANY, need_of
from manaplan.model.triggers import activation_outputs, board_triggers

MAX_REFERENCE_PERMANENTS = 8
#: the key under which the energy paid is kept with the counters used
ENERGY = ("", "{E}")

# a unit of pool mana for the search: (type, snow, spell_only, generic_only, ability_only, keyword)
Unit = tuple


def _mana(u: Unit) -> Mana:
    return Mana.of_kind(u)


def _unit(mana_type: str, **flags) -> Unit:
    """A unit of ``mana_type`` with the flags given (``Mana``'s), the rest false."""
    return Mana(mana_type, **flags).kind


#: what improvise, delve and a colorless creature's convoke pay: one generic mana for the
#: spell alone, and no mana at all (CR 702.51a)
KEYWORD_GENERIC = _unit("C", spell_only=True, generic_only=True, keyword=True)


def _assignments(pool: tuple, needs: tuple, for_spell: bool, any_color: bool = False):
    """Every distinct way to pay ``needs`` (in order) with units of ``pool``: yields the
    pool left over (sorted tuples). ``any_color``: mana may be spent as though it were
    mana of any color (CR 609.4b)."""
    if not needs:
        yield pool
        return
    need = needs[0]
    seen = set()
    for i, u in enumerate(pool):
        if u in seen or not _mana(u).can_pay(need, for_spell, any_color):
            continue
        seen.add(u)
        yield from _assignments(pool[:i] + pool[i + 1:], needs[1:], for_spell, any_color)


def _needs_of(total) -> tuple:
    """What a locked-in total cost asks for, one need per mana."""
    needs = ()
    for t, n in zip(("W", "U", "B", "R", "G", "C"), total.typed):
        needs += (need_of(t),) * n
    return needs + (SNOW_ANY,) * total.snow + (ANY,) * total.generic


def _can_pay_total(pool: tuple, total, any_color: bool = False) -> bool:
    needs = _needs_of(total)
    if len(needs) > len(pool):
        return False
    return next(_assignments(pool, needs, True, any_color), None) is not None


class _Move:
    """One thing that can be done to a permanent: an ability, convoke, improvise, delve."""

    def __init__(self, pid, ability, tap, sacrifice, counters, counter_kind, life, outputs, props, cost_symbols,
                 exile=False, damage=0, later=0):
        self.pid, self.ability, self.tap, self.sacrifice = pid, ability, tap, sacrifice
        self.counters, self.counter_kind, self.life, self.damage = counters, counter_kind, life, damage
        self.later = later  # damage a trigger deals after the spell is cast (City of Brass, CR 603.3)
        self.outputs, self.props, self.cost_symbols, self.exile = outputs, props, cost_symbols, exile
        self.counted = None  # a counting ability: (triggers, permanent, original permanent, original ability)
        self.precast = False  # activated before casting
        self.co_tap = None  # the permanent whose ability this is, tapped too (Springleaf Drum)
        self.energy = 0  # the player's energy it pays ({E})
        self.doubles = False  # it adds a unit like each unspent one, of its type (Doubling Cube, CR 701.9f)


def _outputs(triggers, p, ab, props) -> list:
    """Every output of one activation as pool units: its own mana, and what its
    triggers add (CR 605.4a)."""
    out = ab.output
    outcomes = activation_outputs(triggers, p, ab) if triggers else None
    if outcomes is not None:
        return sorted({tuple(sorted([(t,) + props for t in own] + [_unit(e.type, snow=e.snow) for e in extra]))
                       for own, extra in outcomes})
    if out.combination:
        return [tuple((t,) + props for t in sorted(c))
                for c in itertools.combinations_with_replacement(out.combination_types, out.combination)]
    return [tuple((t,) + props for t in alt) for alt in sorted(set(tuple(sorted(a)) for a in out.alternatives))]


def _live_outputs(problem: PaymentProblem, mv, sacrificed) -> list:
    """A move's outputs, counted on the board left by the sacrifices so far."""
    if mv.counted is None:
        return mv.outputs
    triggers, p, original, ability = mv.counted
    assert problem.board.counted_from is not None  # (a move counts only on a board that does: _moves)
    gone = set(sacrificed) | ({mv.pid} if mv.sacrifice else set())
    live = replace(ability, output=problem.board.counted_from.live_output(original, ability, gone))
    return _outputs(triggers, p, live, mv.props)


def _moves(problem: PaymentProblem):
    spell = problem.spell
    life = problem.player.life
    triggers = board_triggers(problem.board)
    source = problem.board.counted_from
    counted = {q.id: q for q in source.permanents} if source is not None else {}
    moves, flex = [], {}
    doubling = problem.board.has_doubling
    for p in problem.board.permanents:
        types = set()
        for i, ab in enumerate(p.abilities):
            why = why_unusable(p, ab, life, allow_precast=not problem.mid_cast)
            if why is not None or ab.cost.sacrifice and p.id in problem.prefer.never_sacrifice:
                continue
            if ab.output.doubles and triggers:
                continue  # a doubling under triggered mana: not modelled, not used
            if ab.cost.energy > problem.player.energy or ab.cost.counters > p.counter(ab.cost.counter_kind):
                continue  # never payable in this payment (no energy or counters are gained meanwhile)
            precast = why_unusable(p, ab, life) is not None  # activated before casting (CR 601.2g)
            spell_only = ability_only = False
            if ab.restrict:  # CR 106.6: what its mana may be spent on
                if not spell.allows(ab.restrict):
                    if ab.restrict_abilities and not doubling:
                        continue  # its mana could pay nothing (with a doubling on the board, it is doubled)
                    ability_only = True  # Powerstone's mana, for a nonartifact spell: abilities only
                    spell_only = ab.restrict_abilities  # (or nothing at all)
                else:
                    spell_only = ab.restrict_abilities
            host, host_ability, snow = acting(problem.board, p, ab)  # an altar makes the mana
            props = _unit("C", snow=snow, spell_only=spell_only, ability_only=ability_only)[1:]  # its flags
            outputs = _outputs(triggers, host, host_ability, props) if not ab.output.doubles else [()]
            types |= {u[0] for o in outputs for u in o}
            move = _Move(p.id, i, ab.cost.tap, ab.cost.sacrifice, ab.cost.counters, ab.cost.counter_kind,
                         ab.cost.life, outputs, props, ab.cost.mana.symbols, damage=ab.damage,
                         later=ab.trigger_damage)
            move.precast = precast
            move.energy = ab.cost.energy
            move.doubles = ab.output.doubles
            if ab.through and host_ability.cost.tap:  # an altar's ability that taps the altar too
                if host.tapped:
                    continue  # (CR 107.5: a tapped altar can't pay its {T})
                move.co_tap = host.id
            original = counted.get(p.id)
            if original is not None and original.abilities[i].output.per:  # counted as it resolves (CR 700.5)
                move.counted = (triggers, p, original, original.abilities[i])
            moves.append(move)
        if not p.tapped and spell.convoke and p.creature:
            colors = [c for c in COLORS if c in p.colors]
            outs = [(_unit(c, spell_only=True, keyword=True),) for c in colors] + [(KEYWORD_GENERIC,)]  # (or {1})
            moves.append(_Move(p.id, CONVOKE, True, False, 0, "", 0, outs, outs[0][0][1:], ()))
        if not p.tapped and spell.improvise and p.artifact:
            moves.append(_Move(p.id, IMPROVISE, True, False, 0, "", 0, [(KEYWORD_GENERIC,)], KEYWORD_GENERIC[1:], ()))
        flex[p.id] = flexibility(types, problem.color_needs)
    if spell.delve:
        for k in range(problem.player.graveyard):
            moves.append(_Move(f"{GRAVEYARD}:{k}", DELVE, False, True, 0, "", 0, [(KEYWORD_GENERIC,)],
                               KEYWORD_GENERIC[1:], (), exile=True))
    return moves, flex


def reference_optimum(problem: PaymentProblem, max_states: int | None = None):
    """The best objective tuple over every legal way to pay, or None. With
    ``max_states``, a board whose search would visit more states raises SearchTooLarge
    (random boards with many mana and free converters can take hours). A card of the
    hand being cast is on the stack (CR 601.2a): it is not exiled for its own mana."""
    cost = problem.spell.cost
    if cost.mana_cost is None:
        return None
    problem = _without_cards(problem, [problem.spell])
    life = problem.player.life
    totals = [t for t in all_total_costs(cost) if can_pay_life(t.life, life)]
    moves, flex = _moves(problem)
    best = None
    for pool, life_paid, damage, tapped, sacrificed, _, exiled, precast, later in _reachable(problem, moves,
                                                                                             max_states):
        any_color = problem.board.any_color_spending_without(sacrificed)  # CR 609.4b, 611.3a
        for t in totals:  # the spell's life is paid after every mana ability (CR 601.2g-h, 118.3)
            if t.life and life_paid + damage + t.life > life or not _can_pay_total(pool, t, any_color):
                continue
            if not _can_discard(problem, sacrificed):
                continue
            for for_cost in _cost_sacrifices(problem, sacrificed):  # its additional cost's (CR 601.2h)
                gone = sacrificed | set(for_cost)
                spared = len((tapped | gone) & problem.prefer.keep_untapped)
                # (a permanent sacrificed for the cost is gone: its flexibility is lost, tapped or not)
                obj = problem.prefer.rank((precast, sum(1 for s in gone if not s.startswith(GRAVEYARD + ":")),
                                           life_paid + t.life + damage + later, spared, len(tapped), exiled,
                                           sum(flex.get(pid, 0) for pid in tapped | set(for_cost)),
                                           len(pool) - t.mana))
                if best is None or obj < best:
                    best = obj
    return best


def _can_discard(problem: PaymentProblem, gone) -> bool:
    """Whether the spell's additional costs that discard cards can be paid once the hand
    cards in ``gone`` were exiled for mana: enough other cards of the hand, of the kind."""
    for cost in problem.spell.discards:
        left = [c for c in problem.hand if c.id != problem.spell.id and c.id not in gone
                and (cost.kind == "card" or cost.kind.split()[0].capitalize() in c.type_line)]
        if len(left) < cost.count:
            return False
    return True


def _cost_sacrifices(problem: PaymentProblem, sacrificed):
    """Each way to pay the spell's additional costs that sacrifice a permanent (Bone
    Splinters) once the mana abilities sacrificed ``sacrificed``, as the ids sacrificed: a
    distinct permanent of its kind for each, still on the battlefield (CR 601.2h); one
    empty way when it has none."""
    wanted = [kinds for cost in problem.spell.sacrifices for kinds in [cost.kinds] * cost.count]
    if not wanted:
        yield ()
        return
    left = [p for p in problem.board.permanents if p.id not in sacrificed]
    for chosen in itertools.permutations(left, len(wanted)):
        if all(any(p.is_a(k) for k in kinds) for p, kinds in zip(chosen, wanted)):
            yield tuple(p.id for p in chosen)


class StateBudget:
    """A number of states shared by every search a reference question makes (each order,
    each way to cast each card): given as ``max_states``, it bounds the whole question,
    where a number bounds each search alone."""

    def __init__(self, states: int):
        self.states, self.left = states, states

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise SearchTooLarge(f"more than {self.states} states in all")


def _reachable(problem: PaymentProblem, moves: list, max_states):
    """Every state the payment can reach, once each: (pool, life paid, damage, tapped,
    sacrificed, counters used, cards exiled, activations before casting), activating one
    ability at a time, paying its cost from the pool as it is then (CR 605.3)."""
    perms = {p.id: p for p in problem.board.permanents}
    seen = set()
    stack = [_start(problem)]
    while stack:
        key = stack.pop()
        if key in seen:
            continue
        seen.add(key)
        if isinstance(max_states, StateBudget):
            max_states.spend()
        elif max_states is not None and len(seen) > max_states:
            raise SearchTooLarge(f"more than {max_states} states")
        yield key[:8] + key[9:]
        stack.extend(after for _, _, _, after in _successors(problem, moves, perms, key))


def _start(problem: PaymentProblem) -> tuple:
    """The state before anything is activated: the pool the player has."""
    return (tuple(sorted(u.kind for u in problem.player.pool)), 0, 0, frozenset(), frozenset(), (), 0, 0, False, 0)


def _successors(problem: PaymentProblem, moves: list, perms: dict, key: tuple):
    """Each (move, its output, the pool left once its cost was paid, the state after) one
    activation can lead to from state ``key``. ``paying``: convoke, improvise or delve
    has begun paying the total cost (CR 601.2h), so no mana ability can be activated any
    more (601.2g came before)."""
    life = problem.player.life
    pool, life_paid, damage, tapped, sacrificed, counters_used, exiled, precast, paying, later = key
    any_color = problem.board.any_color_spending_without(sacrificed)  # CR 609.4b, 611.3a
    used = dict(counters_used)
    for mv in moves:
        if mv.pid in sacrificed or (mv.tap and mv.pid in tapped):
            continue
        if mv.co_tap is not None and (mv.co_tap in tapped or mv.co_tap in sacrificed):
            continue
        pays_cost = mv.ability in (CONVOKE, IMPROVISE, DELVE)
        if paying and not pays_cost:
            continue
        if mv.counters:
            have = perms[mv.pid].counter(mv.counter_kind) - used.get((mv.pid, mv.counter_kind), 0)
            if have < mv.counters:
                continue
        if mv.energy and used.get(ENERGY, 0) + mv.energy > problem.player.energy:
            continue
        if mv.life and life_paid + damage + mv.life > life:  # CR 118.3, with the life lost so far
            continue
        # every way to pay the cost's symbols: choose an option per symbol, then mana
        option_lists = [s.payment_options(0) for s in mv.cost_symbols]
        for opts in itertools.product(*option_lists):
            extra_life = sum(o.life for o in opts)
            if (mv.life or extra_life) and life_paid + damage + mv.life + extra_life > life:
                continue
            needs = tuple(n for o in opts for n in o.needs)
            for rest in set(_assignments(pool, needs, False, any_color)):
                outs = _live_outputs(problem, mv, sacrificed)
                if mv.doubles:  # of each type, as much as is unspent (what convoke pays is no mana)
                    outs = [tuple((u[0],) + mv.props for u in rest if not u[5])]
                for out in outs:
                    new_used = counters_used
                    if mv.counters or mv.energy:
                        c = Counter(dict(counters_used))
                        if mv.counters:
                            c[(mv.pid, mv.counter_kind)] += mv.counters
                        if mv.energy:
                            c[ENERGY] += mv.energy
                        new_used = tuple(sorted(c.items()))
                    yield mv, out, rest, (
                        tuple(sorted(rest + out)), life_paid + mv.life + extra_life, damage + mv.damage,
                        tapped | ({mv.pid} if mv.tap else set()) | ({mv.co_tap} if mv.co_tap else set()),
                        sacrificed | {mv.pid} if mv.sacrifice else sacrificed,
                        new_used, exiled + (1 if mv.exile else 0), precast + mv.precast, paying or pays_cost,
                        later + mv.later)


def after_payments(problem: PaymentProblem, max_states: int | None = None, keep: frozenset = frozenset()) -> set:
    """Every state the step can be in once the spell is paid, in any way: (pool left,
    life lost, tapped, sacrificed, counters used, cards exiled, cards of the hand
    discarded). For a brute force over several spells paid one after another
    (:func:`sequence_payable`); ``keep``: ids of the hand's cards its additional cost may
    not discard (cast in the step)."""
    cost = problem.spell.cost
    if cost.mana_cost is None:
        return set()
    life = problem.player.life
    totals = [t for t in all_total_costs(cost) if can_pay_life(t.life, life)]
    out = set()
    for pool, life_paid, damage, tapped, sacrificed, counters_used, exiled, _, later in _reachable(
            problem, _moves(problem)[0], max_states):
        for t in totals:
            if t.life and life_paid + damage + t.life > life:
                continue
            for rest in set(_assignments(pool, _needs_of(t), True,
                                         problem.board.any_color_spending_without(sacrificed))):
                for for_cost in _cost_sacrifices(problem, sacrificed):  # its additional cost's (CR 601.2h)
                    for thrown in _cost_discards(problem, sacrificed, keep):
                        out.add((rest, life_paid + damage + t.life + later, tapped, sacrificed | set(for_cost),
                                 counters_used, exiled, thrown))
    return out


def _cost_discards(problem: PaymentProblem, gone, keep: frozenset):
    """Each way to pay the spell's additional costs that discard cards (Tormenting Voice),
    as the ids discarded: distinct cards of the hand (what the step left of it), not the
    spell, not exiled for mana (``gone``), none of ``keep`` (cast in the step), of the
    kind (CR 601.2h); one empty way when it has none."""
    wanted = problem.spell.discards
    if not wanted:
        yield ()
        return
    left = [c for c in problem.hand if c.id != problem.spell.id and c.id not in gone and c.id not in keep]
    kinds = {c.kind for c in wanted}
    fits = [c.id for c in left if "card" in kinds or any(k.split()[0].capitalize() in c.type_line for k in kinds)]
    yield from itertools.combinations(sorted(set(fits)), sum(c.count for c in wanted))


def sequence_payable(problem: PaymentProblem, spells: list, max_states: int | None = None) -> bool:
    """Whether ``spells`` can be paid one after another in this order within one step,
    by brute force: every way to pay the first, then every way to pay the next on what
    it left (floating mana carried, restricted mana not; a ritual's mana added; a
    permanent spell joining the board). A card of the hand that is cast is never exiled
    from the hand for mana (CR 601.2a): its hand ability is gone from the start. Shares
    no code with solver.turn."""
    states = [_without_cards(problem, spells)]
    keep = frozenset(spell.id for spell in spells if spell.id)
    for spell in spells:
        states = states_after(states, spell, max_states, keep)
        if not states:
            return False
    return True


def states_after(states: list, spell, max_states: int | None = None, keep: frozenset = frozenset()) -> list:
    """Every distinct problem the step can be in once ``spell`` is paid, in any way,
    from any of ``states`` (none where ``spell`` was discarded before); ``keep``: ids of
    cards of the hand no additional cost may discard (cast in the step)."""
    following = []
    for state in states:
        # costed on the board as it stands now (CR 601.2f): the board's cost effects applied anew
        here = replace(state, spell=spell.unapplied(), query="pay")
        for rest, lost, tapped, sacrificed, counters_used, exiled, thrown in after_payments(here, max_states, keep):
            following.append(_state_after(here, rest, lost, tapped, sacrificed, counters_used, exiled, thrown))
    return _distinct(following)


def _without_cards(problem: PaymentProblem, cards) -> PaymentProblem:
    """The problem without the hand abilities (Simian Spirit Guide's) of ``cards``: cast
    or played, they are not in the hand to be exiled."""
    gone = {card.from_hand.key for card in cards if card.from_hand is not None}
    if not gone:
        return problem
    source = problem.board.given()
    return replace(problem, board=Board(tuple(p for p in source.permanents if p.key not in gone)))


def best_turn_reference(problem: PaymentProblem, max_states: int | None = None, most_kicks: int = 3,
                        max_payments: int | None = None) -> tuple:
    """(the most value a turn can have, then the most "if possible" kickers paid, then
    the most kicks of "max" multikickers), by brute force over every land the hand can
    play (each face, each way it may enter: model.problem.LandPlay, as the turn's first
    action), every landfall mana choice, every subset of the hand's other cards, every
    order, every way to cast each (kicked or not, 0 to ``most_kicks`` kicks), each
    sequence paid as :func:`sequence_payable` pays it (the states after each prefix kept
    for the orders that share it). An order that can't be paid with each card cast its
    cheapest way can't be paid at all (a kicker only adds to the cost). Shares no code
    with solver.turn. With ``max_payments``, a search that would play out more payments
    than that raises SearchTooLarge."""
    faces = [face for card in problem.hand for face in (card,) + card.faces]
    spells = [card for card in faces if not card.is_land and card.cost.mana_cost is not None]
    payments = [0]
    plays = [None]
    if problem.land_drop:
        plays += [play for card in faces if card.is_land for play in problem.land_plays(card)[0]]
    best = (0, 0, 0)
    for play in plays:
        for start in _after_land(problem, play):
            others = [card for card in spells if play is None or card.id != play.id]
            subsets = [subset for k in range(1, len(others) + 1) for subset in itertools.combinations(others, k)
                       if len({card.id for card in subset}) == k]  # (not two faces of one card)
            memo: dict = {}

            def payable(order, ways) -> bool:
                states = [_without_cards(start, order)]
                for k in range(len(ways)):
                    # (by value: the ways are made anew for each order, and an id may be reused)
                    key = (frozenset((card.id, card.face) for card in order),
                           tuple((w.card.id, w.card.face, w.kicked, w.kicks, w.cast_with) for w in ways[:k + 1]))
                    if key not in memo:
                        payments[0] += len(states)
                        if max_payments is not None and payments[0] > max_payments:
                            raise SearchTooLarge(f"more than {max_payments} payments played out")
                        memo[key] = states_after(states, ways[k].spell, max_states,
                                                 frozenset(card.id for card in order))
                    states = memo[key]
                    if not states:
                        return False
                return True
            for subset in sorted(subsets, key=lambda cards: -sum(card.worth for card in cards)):
                worth = sum(card.worth for card in subset)
                if worth < best[0]:
                    continue
                for order in itertools.permutations(subset):
                    ways = [card.ways(most_kicks, alternatives=True) for card in order]
                    if not _cheapest_pays(ways, lambda chosen: payable(order, chosen)):
                        continue
                    for chosen in itertools.product(*ways):
                        score = (worth, sum(1 for w in chosen if w.kicked and w.card.kicked == IF_POSSIBLE),
                                 sum(w.kicks or 0 for w in chosen if w.card.kicks == MOST))
                        if score > best and payable(order, list(chosen)):
                            best = score
    return best


def sequence_reference(problem: PaymentProblem, orders: list, max_states: int | None = None,
                       most_kicks: int = 3) -> tuple | None:
    """For spells paid one after another in one of ``orders``: None when no order and no
    way to cast them pays, else (the most "if possible" kickers paid, then the most
    kicks of "max" multikickers) over every order and way (each card cast kicked or not,
    0 to ``most_kicks`` kicks), by :func:`sequence_payable`. Shares no code with
    solver.turn."""
    best = None
    for order in orders:
        ways = [card.ways(most_kicks, alternatives=True) for card in order]
        if not _cheapest_pays(ways, lambda chosen: sequence_payable(problem, [w.spell for w in chosen], max_states)):
            continue
        for chosen in itertools.product(*ways):
            score = (sum(1 for w in chosen if w.kicked and w.card.kicked == IF_POSSIBLE),
                     sum(w.kicks or 0 for w in chosen if w.card.kicks == MOST))
            if (best is None or score > best) and sequence_payable(problem, [w.spell for w in chosen], max_states):
                best = score
    return best


def _cheapest_pays(ways: list, pays) -> bool:
    """Whether an order can be paid at all: tried with each card cast its cheapest way of
    each cost it may be cast for (a kicker only adds to the cost; an alternative cost is
    a cost of its own, each tried), ``pays`` judging a choice of ways."""
    def cheapest(options):
        by_cost: dict = {}
        for way in options:
            by_cost.setdefault(way.cast_with, []).append(way)
        return [min(group, key=lambda way: (bool(way.kicked), way.kicks or 0)) for group in by_cost.values()]
    return any(pays(list(chosen)) for chosen in itertools.product(*(cheapest(w) for w in ways)))


def _after_land(problem: PaymentProblem, play) -> list:
    """The problems a turn's spells start from once ``play`` (a LandPlay, or None) is
    the land drop: the land as it entered, its card gone from the hand, the life it took,
    and each choice of the mana the landfall permanents add."""
    if play is None:
        return [problem]
    source = problem.board.given()
    hand = play.card.from_hand.key if play.card.from_hand is not None else None
    board = Board(tuple(p for p in source.permanents if p.key != hand) + (play.permanent,))
    player = replace(problem.player, life=problem.player.life - play.life)
    choices = [output.alternatives for p in source.permanents for output in p.landfall]
    hand = tuple(c for c in problem.hand if c.id != play.id)  # (played: no longer in the hand)
    out = []
    for picked in itertools.product(*choices):
        pool = player.pool + tuple(Mana(t, source="pool") for alt in picked for t in alt)
        out.append(replace(problem, board=board, player=replace(player, pool=pool), hand=hand))
    return out


def _state_after(problem: PaymentProblem, rest, lost, tapped, sacrificed, counters_used, exiled,
                 thrown: tuple = ()) -> PaymentProblem:
    """The problem a later spell of the step starts from, built from scratch; the cards
    ``thrown`` (discarded) gone from the hand, and their abilities from the hand too."""
    source = problem.board.counted_from or problem.board
    used = dict(counters_used)
    perms = []
    for p in source.permanents:
        if p.id in sacrificed or p.id in thrown:  # (a card discarded takes its hand ability with it)
            continue
        counters = tuple((kind, n - used.get((p.id, kind), 0)) for kind, n in p.counters)
        perms.append(replace(p, tapped=p.tapped or p.id in tapped, counters=counters, key=""))
    spell = problem.spell
    if spell.permanent is not None:
        perms.append(replace(spell.permanent, key=""))
    pool = tuple(Mana(u[0], u[1], source="pool") for u in rest if not u[2] and not u[3] and not u[4] and not u[5])
    pool += tuple(Mana(t, source="pool") for t in spell.adds)
    cast = None if problem.player.spells_cast is None else problem.player.spells_cast + 1
    player = replace(problem.player, life=problem.player.life - lost, pool=pool,
                     graveyard=problem.player.graveyard - exiled, energy=problem.player.energy - used.get(ENERGY, 0),
                     spells_cast=cast)
    # discarded, or exiled from the hand for mana (its hand ability sacrificed it): no longer in the hand
    hand = tuple(c for c in problem.hand if c.id not in thrown and c.id not in sacrificed)  # (ids: one namespace)
    return replace(problem, board=Board(tuple(perms)), player=player, hand=hand)


def _distinct(problems: list) -> list:
    seen, out = set(), []
    for p in problems:
        key = (tuple((q.id, q.tapped, q.counters) for q in p.board.permanents),
               tuple(sorted((u.type, u.snow) for u in p.player.pool)), p.player.life, p.player.graveyard,
               tuple(c.id for c in p.hand))
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def plan_objective(problem: PaymentProblem, plan: Plan) -> tuple:
    """The objective tuple of a returned plan, read from the plan alone."""
    moves, flex = _moves(problem)
    spared = len((set(plan.tapped) | set(plan.sacrificed)) & problem.prefer.keep_untapped)
    return problem.prefer.rank((sum(1 for s in plan.steps if s.before_casting), len(plan.sacrificed), plan.life_paid,
                                spared, len(plan.tapped), plan.exiled,
                                sum(flex.get(pid, 0) for pid in set(plan.tapped) | set(plan.cost_sacrificed)),
                                len(plan.floating)))


def reference_legal(problem: PaymentProblem, plan: Plan) -> bool | None:
    """Whether ``plan`` can be carried out, judged by this search's own moves (for tests
    of the referee: it shares no code with the validator). Each step must be one of the
    moves that can be made from a state the steps before it reached (CR 605.3): the same
    permanent and ability, adding the step's mana and its triggers', spending mana of the
    types its payment lines name and the life they name; each line's mana must have been
    made by an earlier step of that source and not spent yet. At the end the spell's
    lines must pay exactly the locked-in total of some announcement (CR 601.2f), each
    line's mana able to pay its symbol, with the life to cover the total (119.4), and the
    additional costs paid (601.2h). Convoke, improvise and delve pay the total (601.2h)
    after every mana ability (601.2g), wherever the plan lists them. None: a step names an
    ability this search never uses (its mana could pay nothing here), so it can't judge."""
    spell = problem.spell
    if plan.x is not None:
        problem = problem.with_x(plan.x)
    if plan.kicked or plan.kicks:
        problem = problem.with_kicks(bool(plan.kicked), plan.kicks or 0)
    if problem.spell.cost.mana_cost is None:
        return False
    problem = _without_cards(problem, [spell])
    moves, _ = _moves(problem)
    perms = {p.id: p for p in problem.board.permanents}
    triggers = board_triggers(problem.board)
    made = _Made(problem)
    states = {_start(problem)}
    keyword = (CONVOKE, IMPROVISE, DELVE)
    for step in [s for s in plan.steps if s.ability not in keyword] + [s for s in plan.steps if s.ability in keyword]:
        if not all(made.spend(line.source, line.mana) for line in step.payment if line.mana):
            return False
        fitting = [mv for mv in moves if (mv.ability == step.ability == DELVE or
                                          (mv.pid, mv.ability) == (step.permanent, step.ability))]
        if not fitting:
            p = perms.get(step.permanent)
            usable = (p is not None and isinstance(step.ability, int) and 0 <= step.ability < len(p.abilities)
                      and not p.tapped and why_unusable(p, p.abilities[step.ability], problem.player.life) is None)
            return None if usable else False
        if any(line.symbol not in mv.cost_symbols for mv in fitting for line in step.payment):
            return False  # a line that names no symbol of the ability's cost pays nothing in it
        if not _own_and_triggered(problem, triggers, perms.get(step.permanent), step):
            return False
        adds = Counter(step.adds) + Counter(t for tr in step.triggered for t in tr.adds)
        spends = Counter(line.mana for line in step.payment if line.mana)
        life = sum(line.life for line in step.payment)
        after = set()
        for key in states:
            for mv, out, rest, new in _successors(problem, fitting, perms, key):
                if Counter(u[0] for u in out) != adds or new[1] - key[1] != mv.life + life:
                    continue
                if Counter(u[0] for u in (Counter(key[0]) - Counter(rest)).elements()) != spends:
                    continue
                after.add(new)
        if not after:
            return False
        states = after
        maker = GRAVEYARD if step.ability == DELVE else step.via[0] if step.via else step.permanent
        made.add(maker, [KEYWORD_GENERIC if step.ability in keyword and t == "C" else (t,) + fitting[0].props
                         for t in step.adds])  # (a creature convoking for {1}: generic mana only, CR 702.51a)
        for tr in step.triggered:
            made.add(tr.permanent, [_unit(t, snow=perms[tr.permanent].snow) if tr.permanent in perms else _unit(t)
                                    for t in tr.adds])
    gone = {s.permanent for s in plan.steps if s.sacrifices}
    any_color = problem.board.any_color_spending_without(gone)
    for line in plan.payment:
        if line.mana and not made.spend(line.source, line.mana, _need_of_line(line), any_color):
            return False
    total = _total_paid(problem, plan)
    if total is None:
        return False
    return any(_spell_paid(problem, plan, total, state) for state in states)


def _own_and_triggered(problem: PaymentProblem, triggers: tuple, p, step) -> bool:
    """Where triggers care about the step's activation: one of its outcomes adds the
    step's own mana and its triggers' mana as the step splits them (the moves' outputs
    merge the two: a trigger's mana written as the ability's own, or the other way round,
    must not pass)."""
    if not triggers or p is None or not isinstance(step.ability, int) or not 0 <= step.ability < len(p.abilities):
        return True
    host, ability, _ = acting(problem.board, p, p.abilities[step.ability])
    source = problem.board.counted_from
    original = next((q for q in source.permanents if q.id == p.id), None) if source is not None else None
    if ability.output.doubles or original is not None and step.ability < len(original.abilities) \
            and original.abilities[step.ability].output.per:
        return True  # (counted as it resolves, or a doubling: the merged comparison of the moves stands)
    outcomes = activation_outputs(triggers, host, ability)
    if outcomes is None:
        return not step.triggered
    own, extra = Counter(step.adds), Counter(t for tr in step.triggered for t in tr.adds)
    return any(Counter(o) == own and Counter(e.type for e in ex) == extra for o, ex in outcomes)


class _Made:
    """The mana each source made and is not spent yet, as this search's units (their
    restrictions kept): the player's pool under its own source."""

    def __init__(self, problem: PaymentProblem):
        self.by_source: dict = {}
        for u in problem.player.pool:
            self.add(u.source, [u.kind])

    def add(self, source: str, units) -> None:
        self.by_source.setdefault(source, Counter()).update(units)

    def spend(self, source: str, mana_type: str, need=None, any_color: bool = False) -> bool:
        """Take a unit of ``mana_type`` from ``source``: one that may pay ``need`` for the
        spell, the most restricted first (what it can pay, the others can too: the player
        spends mana as they choose, CR 601.2h); without ``need``, for an ability's cost, one
        not kept for spells. False when there is none."""
        held = self.by_source.get(source, Counter())
        if need is None:
            able = [u for u in held if held[u] > 0 and u[0] == mana_type and not u[2]]
        else:
            able = sorted((u for u in held if held[u] > 0 and u[0] == mana_type
                           and _mana(u).can_pay(need, True, any_color)), key=lambda u: (not u[3], not u[5], not u[2], u))
        if not able:
            return False
        held[min(able) if need is None else able[0]] -= 1
        return True


def _need_of_line(line):
    sym = line.symbol
    if sym.kind == GENERIC:
        return ANY
    return SNOW_ANY if sym.kind == SNOW else need_of(sym.colors[0]) if sym.colors else ANY


def _total_paid(problem: PaymentProblem, plan: Plan):
    """The locked-in total (of some announcement of the cost) the spell's payment lines
    pay exactly, or None."""
    needs: Counter[str] = Counter()
    life_symbols = []
    for line in plan.payment:
        sym = line.symbol
        if line.life:
            if line.life != 2 or not any(o.life for o in sym.payment_options(0)):
                return None
            life_symbols.append(str(sym))
        elif sym.kind == GENERIC:
            needs["generic"] += 1
        elif sym.kind == SNOW:
            needs["snow"] += 1
        elif sym.kind in (COLORED, COLORLESS):
            needs[sym.colors[0]] += 1
        else:
            return None
    for a in all_announcements(problem.spell.cost):  # (not all_total_costs: which symbols are paid with life
        t = total_cost(problem.spell.cost, a)           # matters here, and totals that differ only in it are one)
        if (t.generic, t.snow, t.typed, sorted(str(s) for s in t.life_symbols)) == (
                needs["generic"], needs["snow"], tuple(needs[c] for c in "WUBRGC"), sorted(life_symbols)):
            return t
    return None


def _spell_paid(problem: PaymentProblem, plan: Plan, total, state) -> bool:
    """Whether the spell's lines can be paid from the state's pool, each line's mana able
    to pay its symbol, with its life and additional costs."""
    pool, life_paid, damage, tapped, sacrificed = state[:5]
    if total.life and life_paid + damage + total.life > problem.player.life:
        return False
    if not _can_discard(problem, sacrificed) or len(set(plan.cost_discarded)) != sum(
            c.count for c in problem.spell.discards):
        return False
    if tuple(plan.cost_sacrificed) not in set(_cost_sacrifices(problem, sacrificed)):
        return False
    any_color = problem.board.any_color_spending_without(sacrificed)
    lines = [line for line in plan.payment if line.mana]

    def pay(i: int, left: Counter) -> bool:
        if i == len(lines):
            return True
        line = lines[i]
        need = _need_of_line(line)
        for u in list(left):
            if left[u] > 0 and u[0] == line.mana and _mana(u).can_pay(need, True, any_color):
                left[u] -= 1
                if pay(i + 1, left):
                    return True
                left[u] += 1
        return False
    return pay(0, Counter(pool))
