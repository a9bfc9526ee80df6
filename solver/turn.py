"""Several payments of one step as one CP-SAT model: spells cast one after another, and
spells kept castable after a payment (docs/protocol.md, "The hand").

Each payment is a :class:`~manaplan.solver.cpsat.PaymentModel` built into one shared
CP-SAT model, with what the payments before it in its line carry (:class:`CarriedOver`):
the mana still floating (CR 106.4: the pool empties between steps, not between spells;
mana a restriction ties to one spell is not carried, CR 106.6), the life lost, the
permanents sacrificed. A *line* is a sequence of payments made one after another; the
permanents of a line are shared, so the lines are linked by the rules of one permanent
(:func:`link_shared_permanents`):

- it taps once, is sacrificed once, and has only its counters (CR 302.6, 701.21);
- once sacrificed, nothing of it is used in a later payment of the line;
- a permanent is tapped before it is sacrificed.

The main line is what is paid now; a *branch* is a line that continues the main line
with spells that must stay payable afterwards (``keep_castable``): it starts with an
empty pool (floating mana empties before a later step) and is not paid now, so only the
main line's payments enter the objective.

>>> from manaplan.model.cost import SpellCost
>>> from manaplan.model.problem import PaymentProblem, Spell
>>> from manaplan.model.abilities import Ability, AbilityCost, Output
>>> from manaplan.model.board import Board, Permanent, Player
>>> forest = Ability(AbilityCost(tap=True), Output.parse("{G}"))
>>> board = Board(tuple(Permanent(f"f{i}", abilities=(forest,)) for i in range(3)))
>>> bear = Spell(SpellCost.of("{1}{G}"), id="bear")
>>> turn = TurnModel(PaymentProblem(bear, board, Player()), [bear], [[Spell(SpellCost.of("{G}"), id="elf")]])
>>> solver, status = turn.solve(5.0)
>>> status.solved, [len(p.tapped) for p in turn.plans(solver)]
(True, [2])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from manaplan.model.board import Board, Player
from manaplan.model.deadline import check_clock
from manaplan.model.land_types import as_it_enters
from manaplan.model.mana import Mana
from manaplan.model.oracle import EXILE_FROM_HAND
from manaplan.model.plan import GRAVEYARD, POOL, Plan, on_board
from manaplan.model.problem import IF_POSSIBLE, MOST, PAY, WHEN_NEEDED, PaymentProblem, holds_cost_effects, pool_after_cast
from manaplan.model.symbols import HYBRID_PHYREXIAN, PHYREXIAN
from manaplan.solver.chains import depth_bound
from manaplan.solver.cpsat import PaymentModel
from manaplan.solver.extract import extract_plan
from manaplan.solver.payment_values import CarriedOver, Objective, VariableKicks
from manaplan.solver.payment_victims import chosen_victims
from manaplan.solver.runtime import (TURN_TUNING, check_model_size, is_one, is_zero, linear_sum, new_model, solve_lexicographic,
                                     value_of)
from manaplan.solver.supply import build_supply
from manaplan.solver.turn_costs import (Earlier, NotFollowed, arrival_key, cost_shift, earlier_uses, moves_with_the_board,
                                        sacrificed_before, spells_cast_after, victim_options)


def _gives(cards: list, keyword: str) -> bool:
    """Whether a card's permanent gives spells ``keyword`` once it is there ("Artifact
    spells you cast have convoke.": Chief Engineer)."""
    return any(e.change == "keyword" and e.keyword == keyword for c in cards if c.permanent is not None
               for e in c.permanent.cost_effects)


def _known(costed, before):
    """``costed`` (a spell costed on a turn's board), where its total is known: a line
    about costs that board leaves unread (Damping Sphere cast this turn, with no count of
    the spells cast before) is a total the turn can't follow."""
    new = [line for line, _ in costed.cost_unread if (line, _) not in before.cost_unread]
    if new:
        raise NotFollowed(f"{costed.id or 'a spell'}'s total is not known on the board it is cast on: {new[0]!r}")
    return costed


def costs_may_move(base: PaymentProblem, cards: list) -> bool:
    """Whether a turn's spells may cost otherwise than they were modelled (CR 601.2f: the
    board as it stands): something on the board, the opponents' side or the cards'
    permanents changes costs, a card counts permanents or has reductions of its own, or
    the spells cast so far are counted. Where none does, each spell's modelled cost is
    the one it is cast for, and its plan is read back as modelled."""
    return bool(base.player.spells_cast is not None or holds_cost_effects(base.board)
                or any(p.cost_effects for p in base.opponents or ())
                or any(c.reductions or c.cost_counts or c.cost_effects
                       or c.permanent is not None and (c.permanent.cost_effects or c.permanent.land_types)
                       for c in cards))


def order_free(base: PaymentProblem, cards: list) -> bool:
    """Whether the order in which a turn casts ``cards`` changes nothing (a
    7-card hand on 20 lands with two pain lands took the chosen-order model over 20 s to
    prove what it proves in 0.03 s with the order given): nothing floats in at the
    start, each ability on the board makes exactly one mana and costs no mana (tapping
    or sacrificing its own permanent, paying life or taking damage), nothing it makes
    depends on what else is there, and no life is paid beside a pain land's damage; no
    card leaves mana, a usable permanent, a victim, a discard or a changed count behind
    for the cards after it (a creature cast is summoning sick: CR 302.6), none is
    another way to cast it, and no cost counts the spells cast. Then, in a best plan,
    each mana is made in the window that spends it (made earlier, it would only float),
    so each window pays from its own sources, and the windows of any order are the
    windows of another (CR 601.2g-h): the cards cast may keep the hand's order."""
    if base.player.pool or base.player.spells_cast is not None or base.board.counted_from is not None:
        return False
    if any(e.per for p in base.board.given().bodies + tuple(base.opponents or ()) for e in p.cost_effects):
        return False
    for card in cards:
        if (card.adds or card.from_hand is not None or card.convoke or card.improvise or card.delve or card.sacrifices
                or card.discards or card.cost_counts or card.cast_with or card.alternative_costs or card.alternatives
                or card.unread or card.faces):
            return False
        p = card.permanent
        if p is not None and (not base.joins_unchanged(p) or p.cost_effects or p.land_types or not all(
                p.creature and p.summoning_sick and a.cost.tap for a in p.abilities)):
            return False
    cards_pay_life = any(s.kind in (PHYREXIAN, HYBRID_PHYREXIAN) for c in cards for s in c.cost.added_symbols
                         + (c.kicker.symbols if c.kicker else ()) + (c.multikicker.symbols if c.multikicker else ()))
    for card in cards:  # (each card's own: a restriction may leave an ability out of another's supply)
        supply = build_supply(replace(base, spell=card, query=PAY, hand=base.hand, keep=(), spells=()))
        if not all(not a.costs_mana and not a.counters and not a.combination and not a.bonus and not a.counted
                   and not a.made_by and a.co_tap is None and not a.energy and not a.doubles and not a.exile
                   and isinstance(a.index, int) and all(len(alt) == 1 for alt in a.alternatives)
                   for a in supply.acts):
            return False
        if any(a.damage for a in supply.acts) and (cards_pay_life or any(a.pays_life for a in supply.acts)):
            return False  # (life paid before a pain land's damage is taken: the order of the two matters, CR 119.4)
    return True


def card_key(card) -> tuple:
    """A card of the hand as one of its faces: (id, face)."""
    return card.id, card.face


def inert(permanent):
    """A card's permanent before it is cast, as far as the rest of the board can tell:
    its effects on costs and land types not applied (it is gated off all the same)."""
    return replace(permanent, cost_effects=(), land_types=())


def _finder(board: Board, joined: tuple = ()):
    """A permanent of ``board`` (or of ``joined``) by id, or None."""
    by_id = board.by_id
    extra = {p.id: p for p in joined}
    return lambda pid: by_id.get(pid) or extra.get(pid)


def carriable(kind: tuple) -> bool:
    """Whether mana of this kind stays usable for a later spell of the step: not mana
    that a restriction, convoke, improvise or delve tie to one spell (CR 106.6)."""
    _, _, spell_only, generic_only, ability_only, keyword = kind
    return not spell_only and not generic_only and not ability_only and not keyword


class Depth:
    """How deep each payment of a turn model chains: ``layers`` None for each payment's
    deepest chain (:func:`solver.chains.depth_bound`: exact); else at most that many
    layers, the last a relaxed tail standing for every deeper activation when
    ``relaxed`` (a relaxation: its "no" is a proof, its optimum a lower bound) or not
    (a restriction: its plans are real). The planner tries shallow depths first
    (``planner.best_plan``'s order), as for one payment."""

    def __init__(self, layers: int | None = None, relaxed: bool = False):
        self.layers, self.relaxed = layers, relaxed
        self.exact = True  # every payment was built at its deepest chain
        self.cells = 0  # layers times abilities, over the payments: the model's size

    def payment(self, problem: PaymentProblem, supply, x, model, carried, candidates=None,
                shifts=None, victims=None) -> PaymentModel:
        """One payment's model at this depth (a doubling is never relaxed: its amount is
        the pool at one point; it gets its deepest chain), built only while the request
        has time left (model.deadline.check_clock: each window of a turn may take tens of
        milliseconds to build)."""
        check_clock()
        full = depth_bound(supply)
        layers, relaxed = full, False
        if self.layers is not None and self.layers < full and not supply.doubles:
            layers, relaxed = self.layers, self.relaxed
            self.exact = False
        self.cells += max(1, layers) * len(supply.acts)
        check_model_size(self.cells)
        return PaymentModel(problem, supply, layers, x, relaxed_tail=relaxed, model=model, carried=carried,
                            candidates=candidates, shifts=shifts, victims=victims)


class TurnModel:
    """The payments of ``main`` (cards paid now, in order) and of each line of
    ``branches`` (cards that must stay payable after them), on ``base``'s board, each
    chaining as deep as ``depth`` says (default: exact).

    A card whose kicker or multikicker is still to be chosen is paid in one of its ways
    (:meth:`Spell.ways <manaplan.model.problem.Spell.ways>`), each a candidate of its
    payment: the main line kicks whenever it can (the choices come before the payments
    in the objective); a kept card stays payable in any of its ways. A card in the hand
    is one card: cast (or kept to be cast), it is not exiled from the hand for mana by
    any payment of its line (CR 601.2a: it is on the stack)."""

    def __init__(self, base: PaymentProblem, main: list, branches: Sequence = (), depth: Depth | None = None):
        self.model = new_model()
        self.base = base
        self.depth = depth = depth or Depth()
        everything = list(main) + [s for line in branches for s in line]
        self.grouping = (any(s.convoke for s in everything), any(s.improvise for s in everything))
        self.ways: list = []  # each main payment's (ways, selectors)
        self._made: list = []  # the main line's payments, once made (a branch follows them)
        #: each payment's cards discarded for its cost, by way: ({way#: {card id: var}}, selectors)
        self.discards: list = []
        self.protected = frozenset(s.id for s in everything if s.id)  # (cast or kept: never discarded)
        cast = hand_ids(main)
        self.main, after_main, joined = self._line(main, CarriedOver(), True, cast | hand_ids(everything))
        self._made = self.main
        # a kept spell is paid in a later step: floating mana is gone by then (CR 106.4)
        self.branches = [self._line(line, replace(after_main, pool={}), False, cast | hand_ids(line), joined)[0]
                         for line in branches]
        link_shared_permanents(self.model, self.main)
        gate_given_abilities(self.model, self.main)
        for line in self.branches:
            link_shared_permanents(self.model, self.main + line)
            gate_given_abilities(self.model, self.main + line)
        self._discarded_once()
        self.objective_terms, self.objective_bounds = self._objective()
        self.choice_terms, self.choice_bounds = choices_objective(self.ways)

    # -- building --------------------------------------------------------------------------
    def _line(self, cards: list, carried: CarriedOver, first_pool: bool, spent: frozenset, joined: tuple = ()) -> tuple:
        """One PaymentModel per card, each carrying what the ones before it leave: their
        floating mana, what they added on resolving, the permanents they became; with
        what the last one leaves, and the permanents joined by then. No payment exiles
        from the hand a card of ``spent`` (cast or kept: its ids)."""
        models: list[PaymentModel] = []
        given = self.base.board.given()
        for i, card in enumerate(cards):
            player = self.base.player if first_pool and i == 0 else replace(self.base.player, pool=())
            player = spells_cast_after(player, i if first_pool else len(self.main) + i)
            # the board as it stands when the card is cast: the permanents of the cards cast before it
            # joined (their cost effects and land types apply), its total worked out there (CR 601.2f)
            board = self.base.board if not joined else Board(given.permanents + joined)
            if joined or player.spells_cast != self.base.player.spells_cast:
                card = _known(self.base.cost_on(card, board, player), card)
            problem = replace(self.base, spell=card, player=player, board=board, query="pay", hand=(), keep=(),
                              spells=())
            ways = card.ways(most_kicks(problem, card, sum(len(c.adds) for c in cards)), variable=True)
            candidates = None
            selectors = [1]
            if card.kicker is not None or card.multikicker is not None:  # (each way its own total cost)
                selectors = [self.model.new_bool_var(f"way_{card.id}_{k}") for k in range(len(ways))] \
                    if len(ways) > 1 else [1]
                candidates = [(w.spell, sel, variable_kicks(self.model, w, sel, card.id)) for w, sel in zip(ways, selectors)]
                self.model.add(linear_sum(selectors) == 1)
            supply = build_supply(problem, grouping=self.grouping,
                                  spells=tuple(w.widest for w in ways) if candidates else None)
            shifts = {}
            if any(moves_with_the_board(w.spell) for w in ways) and (self._made or models):
                earlier = Earlier(gone=earlier_uses(self._made + models, _finder(board)))
                shifts = {k: shift for k, (w, sel) in enumerate(zip(ways, selectors))
                          if (shift := cost_shift(self.model, w.spell, sel, earlier, f"{card.id}_{i}_{k}"))
                          is not None}
            victims = {k: options for k, w in enumerate(ways)
                       if (options := victim_options(w.spell, supply, board, self._made + models, {})) is not None}
            pm = self.depth.payment(problem, supply, card.cost.x, self.model, carried, candidates, shifts, victims)
            discards = {k: choices for k, (w, sel) in enumerate(zip(ways, selectors))
                        if (choices := discard_choices(self.model, w.spell, sel, self.base.hand, self.protected,
                                                       f"{card.id}_{i}_{k}"))}
            if discards and not first_pool:
                raise NotFollowed(f"{card.id} kept castable discards cards for its cost: not followed")
            self.discards.append((discards, selectors))
            forbid_hand_sources(self.model, pm, spent)
            if first_pool:
                self.ways.append((ways, [c[1] for c in candidates] if candidates else [1],
                                  [c[2] for c in candidates] if candidates else [None]))
            models.append(pm)
            carried = carried_after(models, carried)
            for t in card.adds:  # a ritual's mana, once it resolves
                k = Mana(t).kind
                carried.pool[k] = carried.pool.get(k, 0) + 1
            carried.pool_bound += len(card.adds)
            if card.permanent is not None:
                joined += (card.permanent,)
        return models, carried, joined

    def _discarded_once(self) -> None:
        """A card of the hand leaves it once: discarded by one payment's cost, or exiled
        for mana (CR 601.2h, 113.6m)."""
        for cid, vs in discards_by_card(choices for choices, _ in self.discards).items():
            self.model.add(linear_sum(vs) + exiled_from_hand(self.main, cid) <= 1)

    def _objective(self) -> tuple:
        """The protocol's objective over the main line's payments: the sum of each term;
        for mana left floating, the sum of what floats after each payment (mana made for
        a later spell is made while paying it, where the order allows)."""
        terms = [pm.objective_terms for pm in self.main]
        bounds = [pm.objective_bounds() for pm in self.main]
        summed = Objective(*(linear_sum([t[i] for t in terms if not is_zero(t[i])]) for i in range(len(Objective._fields))))
        summed_bounds = Objective(*(sum(b[i] for b in bounds) for i in range(len(Objective._fields))))
        return summed, summed_bounds

    # -- solving ---------------------------------------------------------------------------
    def _ranked(self) -> tuple:
        """(terms, bounds): the choices first (kick whenever possible), then the
        protocol's objective in the request's order."""
        rank = self.base.prefer.rank
        return (self.choice_terms + rank(self.objective_terms), self.choice_bounds + rank(self.objective_bounds))

    def solve(self, time_limit: float):
        """(solver, Status) of the lexicographic optimum of the main line."""
        terms, bounds = self._ranked()
        return solve_lexicographic(self.model, terms, bounds, [], time_limit, TURN_TUNING)

    def payments(self) -> list:
        """Every payment of the model: the main line's, then each branch's."""
        return self.main + [pm for line in self.branches for pm in line]

    def tails_are_real(self, solver) -> bool:
        """Whether every relaxed tail of a solution is a real chain (PaymentModel.tail_is_real)."""
        return all(pm.tail_is_real(solver) for pm in self.payments() if pm.relaxed)

    def objective_tuple(self, solver) -> tuple:
        """The objective's value in a solution (comparable across depths)."""
        return objective_value(solver, self._ranked()[0])

    def plans(self, solver, optimal: bool = True) -> list:
        """The main line's plans, each carried out on what the ones before it left (the
        floating mana that may be carried now comes from the pool), each saying how its
        card was kicked."""
        out: list[Plan]
        out, pool = [], None
        walk = costs_may_move(self.base, [pm.problem.spell for pm in self.main])
        state = replace(self.base, query=PAY, hand=(), keep=(), spells=()) if walk else None
        for pm, (ways, selectors, kicks), (discards, _) in zip(self.main, self.ways, self.discards):
            way, count = chosen_way(solver, ways, selectors, kicks)
            spell = (state.cost_on(way.spell, state.board) if state is not None
                     else way.spell)  # as the board stands (601.2f)
            plan = extract_plan(pm.problem, pm, solver, optimal, start_pool=pool, earlier=tuple(out),
                                cost=spell.cost if walk else None)
            plan = with_victims(plan, pm, solver, out)
            if state is not None:
                plan = on_board(plan, state.board)
            thrown = tuple(cid for k, choices in discards.items() for cid in chosen_discards(solver, choices, selectors[k]))
            if thrown:
                plan = replace(plan, cost_discarded=thrown)
            out.append(with_way(plan, way, count))
            pool = pool_after_cast(Player().after(plan).pool, pm.problem.spell)
            if state is not None:
                state = replace(state, spell=spell).after_cast(plan)
        return out


def hand_ids(cards) -> frozenset:
    """The ids of the cards among ``cards`` that can be exiled from the hand for mana."""
    return frozenset(card.from_hand.id for card in cards if card.from_hand is not None)


def forbid_hand_sources(m, pm: PaymentModel, ids: frozenset) -> None:
    """No activation of the hand ability of a card of ``ids`` in this payment: the card
    is cast (on the stack, CR 601.2a) or kept to be cast, not exiled for mana."""
    if not ids:
        return
    for g, grp in enumerate(pm.supply.groups):
        if grp.ids[0] in ids and _in_hand(pm, g):
            uses = pm.group_usage(g)["uses"]
            if not is_zero(uses):
                m.add(uses == 0)


def most_kicks(problem: PaymentProblem, card, rituals: int = 0) -> int:
    """The most kicks worth trying for a card whose multikicker is paid as often as
    possible: more than the board, the pool, ``rituals`` (the mana spells of the step
    add), the life and the graveyard could pay for (model.problem.Spell.kicks_within)."""
    if card.kicks != MOST:
        return 0
    mana = build_supply(replace(problem, spell=card.with_kicks(False, 0))).mana_bound + rituals
    return min(MOST_WAYS, card.kicks_within(mana, problem.player.life, problem.player.graveyard))


#: the most kicks a turn model tries for one card ("kicks": "max"): each is a way of its
#: own, a candidate of every payment
MOST_WAYS = 32


def variable_kicks(m, way, selector, name: str):
    """The number of kicks of a way whose multikicker the model pays as many times as it
    chooses (``way.variable``), 0 unless the way is the one cast: a VariableKicks for
    PaymentModel's candidates; None for any other way."""
    if not way.variable:
        return None
    count = m.new_int_var(0, way.most_kicks, f"kicks_{name}")
    if not is_one(selector):
        m.add(count <= way.most_kicks * selector)
    return VariableKicks(way.card.multikicker, count, way.most_kicks)


def choices_objective(ways: list) -> tuple:
    """(terms, bounds) of the choices, as few as possible: the "if possible" kickers not
    paid, then the kicks fewer than the most of "max" multikickers, then the cards cast
    for an alternative cost (evoke, dash: as ``pay`` does, only where the mana cost won't
    do), over ``ways``: (ways,
    their selectors, their VariableKicks or None, each a list of them when a way may be
    cast in several windows) for each card. A card that is not cast pays neither, so a
    turn of the same value that kicks a card is preferred to one that casts another
    (best_turn: "kick whenever possible"; the reference search counts kickers paid)."""
    terms: tuple[list, list, list]
    terms, bounds = ([], [], []), [0, 0, 0]
    for options, selectors, kicks in ways:
        card = options[0].card
        if any(way.cast_with for way in options):  # an alternative cost only where the mana cost won't do
            terms[2].extend(sel for way, sel in zip(options, selectors) if way.cast_with)
            bounds[2] += 1
        if card.kicked == IF_POSSIBLE:
            terms[0].extend([1] + [-sel for way, sel in zip(options, selectors) if way.kicked])
            bounds[0] += 1
        if card.kicks == MOST:
            most = max(way.most_kicks for way in options)
            terms[1].append(most)
            for way, sel, kick in zip(options, selectors, kicks):
                if way.variable:
                    terms[1].extend(-k.count for k in (kick if isinstance(kick, list) else [kick]))
                elif way.kicks:
                    terms[1].append(-way.kicks * sel)
            bounds[1] += most
    return (linear_sum(terms[0]), linear_sum(terms[1]), linear_sum(terms[2])), tuple(bounds)


def chosen_way(solver, ways, selectors, kicks) -> tuple:
    """(the way a solution casts a card, its number of kicks when the model chose it)."""
    for way, sel, kick in zip(ways, selectors, kicks):
        if value_of(solver, sel):
            return way, solver.value(kick.count) if kick is not None else None
    raise AssertionError("no way chosen")


def discard_choices(m, spell, sel, hand: tuple, keep: frozenset, name: str) -> dict:
    """{card id: 0/1 variable}: which cards of ``hand`` the additional cost of ``spell``
    (a candidate, cast when ``sel``) discards (CR 601.2h: "discard a card", "a land
    card"): as many as it asks when cast, none of ``keep`` (cast in the turn) nor the
    spell itself."""
    if not spell.discards:
        return {}
    if len(spell.discards) > 1:
        raise NotFollowed(f"{spell.id or 'the spell'} has two additional costs that discard")
    cost = spell.discards[0]
    ids = sorted({c.id for c in hand if c.id != spell.id and c.id not in keep
                  and (cost.kind == "card" or cost.kind.split()[0].capitalize() in c.type_line)})
    chosen = {cid: m.new_bool_var(f"discard_{name}_{cid}") for cid in ids}
    m.add((linear_sum(list(chosen.values())) if chosen else m.new_constant(0)) == cost.count * sel)
    return chosen


def chosen_discards(solver, choices: dict, sel) -> tuple:
    """The ids a solved candidate discarded (none unless it is the one cast)."""
    if not (is_one(sel) or solver.value(sel)):
        return ()
    return tuple(cid for cid, v in choices.items() if solver.value(v))


def discards_by_card(windows) -> dict:
    """{card id: its discard variables} over each payment's {way: {card id: var}}."""
    by_card: dict = {}
    for window in windows:
        for choices in window.values():
            for cid, v in choices.items():
                by_card.setdefault(cid, []).append(v)
    return by_card


def exiled_from_hand(payments: list, card_id: str):
    """How many times the payments exile the card ``card_id`` from the hand for mana (its
    hand's group: a land card's permanent, once played, has the same id but is no hand
    group)."""
    return linear_sum([pm.group_usage(g)["uses"] for pm in payments for g, grp in enumerate(pm.supply.groups)
                       if grp.ids == (card_id,) and _in_hand(pm, g)])


def with_victims(plan, pm: PaymentModel, solver, earlier: list):
    """The plan with what its spell's additional cost sacrificed (solver.payment_victims):
    permanents not sacrificed before in the turn or by the plan itself for mana."""
    if not pm.victim_vars:
        return plan
    gone = {i for p in earlier for i in p.sacrificed} | set(plan.sacrificed)
    return replace(plan, cost_sacrificed=chosen_victims(pm, solver, gone))


def with_way(plan, way, kicks: int | None = None):
    """The plan saying how its card was kicked (the answer's ``kicked`` and ``kicks``)."""
    return replace(plan, kicked=way.kicked, kicks=kicks if way.variable else way.kicks)


def carried_after(models: list, before: CarriedOver) -> CarriedOver:
    """What the payments of ``models`` (the last one new) leave the next one."""
    if not models:
        return before
    last = models[-1]
    pool = {k: e for k, e in last.floating_by_kind().items() if carriable(k)}
    sacrificed = dict(before.sacrificed)
    for g, grp in enumerate(last.supply.groups):
        used = last.group_usage(g)["sacrifices"]
        if not (isinstance(used, int) and used == 0):
            sacrificed[grp.ids] = sacrificed.get(grp.ids, 0) + used
    return CarriedOver(pool, last.bound, before.life_lost + last.life_lost(), sacrificed,
                   before.energy_paid + last.energy_paid())


def gate_given_abilities(m, line: list) -> None:
    """An ability another permanent gives (an altar's "Sacrifice a creature", a granted
    one) is there only while that permanent is: none of it in a payment after the
    payments of the line sacrificed every permanent of the giver's group (for mana, or
    for a spell's additional cost: Deadly Dispute sacrificing the altar, CR 400.7)."""
    for k, pm in enumerate(line[1:], start=1):
        for j, a in enumerate(pm.acts):
            host = a.made_by or getattr(a, "given_by", "")
            if not host or j not in pm.totals or host in pm.supply.groups[a.group].ids:
                continue
            giver = next((grp for grp in pm.supply.groups if host in grp.ids), None)
            if giver is None:
                continue
            gone = sacrificed_before(line[:k], giver.ids)
            if not is_zero(gone):
                m.add(pm.totals[j] <= a.cap * (giver.size - gone))


def link_shared_permanents(m, line: list) -> None:
    """The rules of one permanent across the payments of a line (see the module)."""
    by_ids: dict = {}
    for k, pm in enumerate(line):
        for g, grp in enumerate(pm.supply.groups):
            delve = any(a.exile for a in pm.acts if a.group == g)  # each payment sizes its own: one graveyard
            by_ids.setdefault(GRAVEYARD if delve else grp.ids, []).append((k, pm, g, grp))
    for ids, places in by_ids.items():
        if len(places) < 2:
            continue
        grp = places[0][3]
        usage = [(k, pm.group_usage(g), pm, g) for k, pm, g, _ in places]
        if ids == GRAVEYARD:  # delve: each card of the graveyard exiled once in the whole line
            m.add(linear_sum([u["uses"] for _, u, _, _ in usage]) <= places[0][1].problem.player.graveyard)
            continue
        for key in ("taps", "sacrifices"):
            terms = [u[key] for _, u, _, _ in usage if not is_zero(u[key])]
            if len(terms) > 1:
                m.add(linear_sum(terms) <= grp.size)
        kinds = {kind for _, u, _, _ in usage for kind in u["counters"]}
        for kind in kinds:
            m.add(linear_sum([u["counters"][kind] for _, u, _, _ in usage if kind in u["counters"]])
                  <= grp.size * grp.counter(kind))
        for split in sorted({k for k, _, _, _ in usage})[1:]:  # (a card's permanent is there from its window on)
            early = [u["sacrifices"] for k, u, _, _ in usage if k < split and not is_zero(u["sacrifices"])]
            if not early:
                continue
            late_taps = [u["taps"] for k, u, _, _ in usage if k >= split and not is_zero(u["taps"])]
            if late_taps:
                m.add(linear_sum(early) + linear_sum(late_taps) <= grp.size)
            if grp.size == 1:  # one permanent: nothing of it after its sacrifice
                late = [u["uses"] for k, u, _, _ in usage if k >= split and not is_zero(u["uses"])]
                if late:
                    most = sum(a.cap for k, _, pm, g in usage if k >= split for a in pm.acts if a.group == g)
                    m.add(linear_sum(late) + most * linear_sum(early) <= most)


class ChosenTurnModel:
    """Cards of a hand cast in an order the model chooses, as one model: ``best_turn``
    (which of them, and in what order, for the most value) and ``sequence`` in any order
    (all of them).

    Payment ``w`` (a *window*) pays at most one card, in one of its ways (its kicker and
    kicks chosen: :meth:`Spell.ways <manaplan.model.problem.Spell.ways>`): ``cast[i][w]``
    says it is way ``i``, and each candidate's cost is scaled by it (PaymentModel's
    candidates). The land drop (``lands``: :class:`~manaplan.model.problem.LandPlay`, each
    a land card as it may enter) comes first, before any spell (CR 305.1: it is not a
    spell), and at most one (CR 305.2): the life a shock land takes counts as life lost
    before the first payment, and landfall mana (Lotus Cobra) joins the pool then. The
    board holds, besides the permanents, every permanent a card of the hand becomes and
    each way a land may enter; their abilities are used only once they are there: a
    card's permanent after the window that cast it, a land if it was played that way. A
    ritual's mana joins the pool after its window. A card is cast in one way, or played
    as the land drop in one way, or exiled from the hand for mana (Simian Spirit Guide),
    or none of them. As in :class:`TurnModel`, the windows are linked by the rules of
    one permanent; the value comes first, then the choices (kick whenever possible), then
    the payments' objective (the land's life among it), then no land played that isn't
    needed. ``must_play``: the one land given is played (a land whose arrival changes
    what others make, with the board worked out with it there). ``value``: the turn's
    value when it is known exactly beforehand (the model then proves only the rest).
    ``own_window``: the order changes nothing (:func:`order_free`): the cards cast keep
    the hand's order."""

    def __init__(self, base: PaymentProblem, spells: list, lands: Sequence = (), all_of_them: bool = False,
                 land_drop: object = True, depth: Depth | None = None, must_play: bool = False,
                 hand_lands: bool | None = None, value: int | None = None, placed: dict | None = None,
                 fixed_order: bool = False, last: frozenset = frozenset(), own_window: bool = False):
        self.model = m = new_model()
        self.depth = depth = depth or Depth()
        self.base, self.cards, self.lands = base, list(spells), list(lands) if land_drop else []
        #: cards whose permanent changes what spells cost or what lands are, each at the
        #: window it is cast in, or None: not cast (solver.several tries each placing)
        self.placed = placed = placed or {}
        self.must_play = must_play
        n = len(self.cards)
        # a card's permanent joins once it is cast (the one of the way it was cast: evoked, none;
        # dashed, a hasty one); a land card's once it is played
        self.fixed_order = fixed_order
        self.ways = [w for card in self.cards
                     for w in card.ways(0, variable=True, alternatives=card_key(card) not in placed)]
        self.way_permanents: dict = {}  # key -> the permanent, for every permanent a way leaves
        for w in self.ways:
            if w.spell.permanent is not None:
                self.way_permanents.setdefault(w.spell.permanent.key, w.spell.permanent)
        joined = tuple(land.permanent for land in self.lands) + tuple(self.way_permanents.values())
        # counted amounts (Gaea's Cradle) count the board as given, and what joins it
        source = base.board.counted_from or base.board
        self.board = board = Board(source.permanents + joined) if joined else base.board
        rituals = sum(len(card.adds) for card in self.cards)
        if self.lands:  # landfall mana is mana for the kicks too
            rituals += sum(max(len(alt) for alt in out.alternatives) for p in base.board.permanents for out in p.landfall)
        bound_problem = replace(base, board=board, query="pay", hand=(), keep=(), spells=())
        self.ways = [w for card in self.cards
                     for w in card.ways(most_kicks(replace(bound_problem, spell=card), card, rituals), variable=True,
                                        alternatives=card_key(card) not in placed)]
        ways = self.ways
        self.cast = [[m.new_bool_var(f"cast_{i}_{w}") for w in range(n)] for i in range(len(ways))]
        #: for a way whose multikicker the model pays as it chooses: its kicks in each window
        self.kicks = [[variable_kicks(m, way, self.cast[i][w], f"{i}_{w}") for w in range(n)]
                      for i, way in enumerate(ways)]
        self.played = [m.new_bool_var(f"play_{land.id}_{k}") for k, land in enumerate(self.lands)]
        for w in range(n):
            m.add(sum(self.cast[i][w] for i in range(len(ways))) <= 1)
            if w:  # windows are used in order: no gap (symmetry)
                m.add(sum(self.cast[i][w] for i in range(len(ways)))
                      <= sum(self.cast[i][w - 1] for i in range(len(ways))))
        for card in self.cards:
            times = self._cast_times(card)
            m.add(times == 1) if all_of_them else m.add(times <= 1)
            if card_key(card) in last:  # cast last if at all: no card in the window after its own
                for w in range(n - 1):
                    m.add(self._cast_times(card, before=w + 1) - self._cast_times(card, before=w)
                          + sum(self.cast[i][w + 1] for i in range(len(self.ways))) <= 1)
            if fixed_order:  # a sequence in the order given: the k-th card in the k-th window
                k = self.cards.index(card)
                m.add(self._cast_times(card, before=k + 1) - self._cast_times(card, before=k) == 1)
            elif own_window:  # the order changes nothing (order_free): the cards cast keep the hand's order
                k = self.cards.index(card)
                for first in self.cards[:k]:  # cast in a window up to w: ``first`` in one before w, or not at all
                    for w in range(n):
                        m.add(self._cast_times(card, before=w + 1)
                              <= self._cast_times(first, before=w) + 1 - self._cast_times(first))
                m.add(self._cast_times(card) == self._cast_times(card, before=k + 1))  # (no window past the k-th)
            if card_key(card) in placed:  # its place in the order is fixed for this model
                at = placed[card_key(card)]
                m.add(times == 0) if at is None else m.add(self._cast_times(card, before=at + 1)
                                                           - self._cast_times(card, before=at) == 1)
        if self.played:
            m.add(sum(self.played) == 1) if must_play else m.add(sum(self.played) <= 1)  # one land drop (CR 305.2)
        self._one_use_a_card()
        self._interchangeable_in_order()
        grouping = (any(s.convoke for s in self.cards) or _gives(self.cards, "convoke"),
                    any(s.improvise for s in self.cards) or _gives(self.cards, "improvise"))
        self.windows: list[PaymentModel] = []
        self.discards: list = []  # each window's {way#: {card id: var}}: cards discarded for a cost
        self.land_life = linear_sum([land.life * v for land, v in zip(self.lands, self.played) if land.life])
        carried = CarriedOver(life_lost=self.land_life)
        self.landfall = self._add_landfall(carried)
        for w in range(n):
            player = base.player if w == 0 else replace(base.player, pool=())
            player = spells_cast_after(player, w)
            board_here, costed_on = self._boards_at(w)
            problem = replace(base, spell=self.cards[w], player=player, board=board_here, query="pay", hand=(),
                              keep=(), spells=())
            # the ways this window may cast: every card's, or with own_window those of the cards that may be
            # cast this late in the hand's order (the k-th card in one of the first k + 1 windows)
            here = [i for i, way in enumerate(ways) if not own_window or self.cards.index(way.card) >= w]
            # each candidate's total as the board stands at this window (CR 601.2f: solver.turn_costs)
            spells = [ways[i].spell if costed_on is base.board and player.spells_cast == base.player.spells_cast
                      else _known(base.cost_on(ways[i].spell, costed_on, player), ways[i].spell) for i in here]
            widest = tuple(replace(ways[i].widest, convoke=spell.convoke, improvise=spell.improvise,
                                   delve=spell.delve) if ways[i].variable else spell for i, spell in zip(here, spells))
            supply = build_supply(problem, grouping=grouping, spells=widest)
            shifts = {}  # (each keyed by the candidate's place among this window's)
            if any(moves_with_the_board(spell) for spell in spells):
                earlier = self._earlier(w, costed_on)
                shifts = {c: shift for c, (i, spell) in enumerate(zip(here, spells))
                          if (shift := cost_shift(m, spell, self.cast[i][w], earlier, f"{i}_{w}")) is not None}
            victims = {}
            if any(spell.sacrifices for spell in spells):
                arrival = self._arrivals(w)
                victims = {c: options for c, spell in enumerate(spells)
                           if (options := victim_options(spell, supply, board_here, self.windows, arrival)) is not None}
            pm = depth.payment(problem, supply, 0, m, carried,
                               candidates=[(spell, self.cast[i][w], self.kicks[i][w]) for i, spell in zip(here, spells)],
                               shifts=shifts, victims=victims)
            self.discards.append({i: choices for i, spell in zip(here, spells)
                                  if (choices := discard_choices(m, spell, self.cast[i][w], base.hand,
                                                                 frozenset({ways[i].card.id}), f"{i}_{w}"))})
            self._gate_arrivals(pm, w)
            self.windows.append(pm)
            carried = carried_after(self.windows, carried)
            for i, way in enumerate(ways):  # a ritual's mana, once it resolves
                for t, c in Counter(way.card.adds).items():
                    kind = Mana(t).kind
                    carried.pool[kind] = carried.pool.get(kind, 0) + c * self.cast[i][w]
                carried.pool_bound += len(way.card.adds)
        link_shared_permanents(self.model, self.windows)
        gate_given_abilities(self.model, self.windows)
        self._cast_or_exile()
        self._discarded_or_used()
        self.value = linear_sum([way.card.worth * self.cast[i][w] for i, way in enumerate(ways) for w in range(n)])
        self.value_given = value is not None
        if value is not None:  # the value, worked out exactly beforehand (solver.several.plain_turn_value)
            m.add(self.value == value)
        terms, bounds = self._payment_objective()
        most = sum(card.worth for card in self.cards)
        choices, choice_bounds = choices_objective(
            [([way for way in ways if way.card is card],
              [linear_sum(row) for way, row in zip(ways, self.cast) if way.card is card],
              [kicks if way.variable else None for way, kicks in zip(ways, self.kicks) if way.card is card])
             for card in self.cards])
        # value first, then the choices, the payments' objective, then the land drop's own terms
        rank = base.prefer.rank
        missed, last, drop_bounds = self._land_drop_objective(land_drop, bool(self.lands) if hand_lands is None
                                                               else hand_lands)
        self.objective_terms = (most - self.value,) + choices + (missed,) + rank(terms) + (last,)
        self.objective_bounds = (most,) + choice_bounds + (drop_bounds[0],) + rank(bounds) + (drop_bounds[1],)

    def _boards_at(self, w: int) -> tuple:
        """(the board window ``w`` pays from, the board its spell is costed on): the
        permanents as given with the cards placed before ``w`` on the battlefield (their
        cost effects and land types applied), the land when it is surely played, and the
        others' permanents there only to be gated (solver.turn_costs follows what they
        count). Without placed cards or a land surely played, the board as it is."""
        active = tuple(self.placed.get(card_key(card)) is not None and self.placed[card_key(card)] < w
                       for card in self.cards)
        static = tuple(land.permanent for land in self.lands) if self.must_play else ()
        if not any(active) and not static:
            if not any(p.permanent is not None and p.permanent.land_types for p in self.cards
                       if card_key(p) in self.placed):
                return self.board, self.base.board
        key = ("boards", active)
        if key in self.board.memo:
            return self.board.memo[key]
        given = self.base.board.given()
        on = tuple(card.permanent for card, here in zip(self.cards, active) if here)
        costed_on = Board(given.permanents + static + on)
        joined = tuple(land.permanent for land in self.lands)
        placed_now = {card.permanent.key: here for card, here in zip(self.cards, active)
                      if card_key(card) in self.placed and card.permanent is not None}
        joined += tuple(p if placed_now.get(key, True) else inert(p) for key, p in self.way_permanents.items())
        self.board.memo[key] = out = (Board(given.permanents + joined), costed_on)
        return out

    def _earlier(self, w: int, costed_on: Board):
        """What the windows before ``w`` and the land drop did to ``costed_on``
        (solver.turn_costs.Earlier): the permanents of cards not placed, cast before
        ``w``; a land played, unless the board has it; what was sacrificed or tapped."""
        placed_keys = {card.permanent.key for card in self.cards if card_key(card) in self.placed
                       and card.permanent is not None}
        arrived = self._arrivals(w)
        joined = [(p, arrived[key]) for key, p in self.way_permanents.items()
                  if key not in placed_keys and w and not is_zero(arrived[key])]
        if not self.must_play:  # (each as the board's land types leave it: Blood Moon placed before)
            joined += [(as_it_enters(land.permanent, costed_on, self.base.opponents), v)
                       for land, v in zip(self.lands, self.played)]
        extra = tuple(p for p, _ in joined) + tuple(self.way_permanents.values())
        return Earlier(joined, earlier_uses(self.windows[:w], _finder(costed_on, extra)))

    def _land_drop_objective(self, land_drop, hand_lands: bool) -> tuple:
        """(no land played though the hand has one, the last term, their bounds): with
        ``land_drop`` True a land is played whenever the hand has one (a land on the
        battlefield serves the next turns too: before the payments' objective, so mana
        the land makes and nothing spends does not count against it), one that enters
        tapped rather than one that doesn't when neither helps now (the last term); with
        WHEN_NEEDED (2.x) only when it helps (the last term counts the land played).
        ``hand_lands``: the hand has a land to play, here or in a model of its own."""
        played = linear_sum(list(self.played))
        if land_drop == WHEN_NEEDED:
            return 0, played, (0, 1)
        untapped = linear_sum([v for land, v in zip(self.lands, self.played) if not land.tapped])
        return (1 - played if hand_lands else 0), untapped, (1, 1)

    def _cast_times(self, card, before: int | None = None):
        """How many times ``card`` is cast (in the windows before ``before``), any way."""
        windows = range(len(self.cards) if before is None else before)
        return linear_sum([self.cast[i][w] for i, way in enumerate(self.ways) if way.card is card for w in windows])

    def _interchangeable_in_order(self) -> None:
        """Interchangeable cards are cast in the order given: the second only in a later
        window than the first (so only if the first is). Two cards are interchangeable
        when they are the same spell but for their ids and, where no mana on the board is
        restricted (CR 106.6: a restriction looks at a spell's name and types), their
        names and type lines; cards that become permanents when those permanents are the
        same but for their ids (swapping the cards and their permanents together); never
        cards that exile themselves for mana or have two faces. Every plan of the turn
        has a twin that keeps this order, of the same value and objective: the solver need
        not explore both (four {1}{B}{B} in a hand took 1.6 s)."""
        restricted = any(a.restrict for p in self.board.permanents for a in p.abilities)
        groups: dict = {}
        for card in self.cards:
            if card.from_hand is not None or card.faces or card.unread:
                continue
            if card.permanent is not None:  # twins with twin permanents: swapping both is a symmetry too
                key = (replace(card, id="", permanent=None), replace(card.permanent, id=""))
            else:
                key = replace(card, id="") if restricted else replace(card, id="", name="", type_line="")
            groups.setdefault(key, []).append(card)
        for same in groups.values():
            for first, second in zip(same, same[1:]):
                for w in range(len(self.cards)):  # the second in a window up to w: the first in one before w
                    self.model.add(self._cast_times(second, before=w + 1) <= self._cast_times(first, before=w))

    def _one_use_a_card(self) -> None:
        """A modal double-faced card (one id, two faces: a spell and a land, or two lands)
        is cast or played once, as one face (CR 712)."""
        ids = {card.id for card in self.cards} & {land.id for land in self.lands}
        for cid in ids:
            self.model.add(linear_sum([self._cast_times(card) for card in self.cards if card.id == cid]
                                + [v for land, v in zip(self.lands, self.played) if land.id == cid]) <= 1)
        faces = Counter(card.id for card in self.cards)
        for cid, count in faces.items():
            if count > 1:  # two spell faces of one card
                self.model.add(linear_sum([self._cast_times(card) for card in self.cards if card.id == cid]) <= 1)

    def _add_landfall(self, carried: CarriedOver) -> list:
        """Landfall mana (Lotus Cobra: "Whenever a land you control enters, add one mana of
        any color"; a triggered ability that is not a mana ability, CR 605.1b): the land
        drop comes first, so what each landfall permanent of the board adds joins the
        pool before the first payment, and stays while the phase lasts (CR 106.4). Returns
        (permanent id, [(mana types, variable)]) for each one, its choice of mana."""
        if not self.played:
            return []
        played = linear_sum(list(self.played))
        out = []
        for p in self.base.board.permanents:
            for output in p.landfall:
                options = []
                for k, alt in enumerate(output.alternatives):
                    v = played if len(output.alternatives) == 1 else self.model.new_bool_var(f"landfall_{p.id}_{k}")
                    options.append((alt, v))
                    for t, c in Counter(alt).items():
                        kind = Mana(t).kind
                        carried.pool[kind] = carried.pool.get(kind, 0) + (c * v if c > 1 else v)
                if len(options) > 1:
                    self.model.add(linear_sum([v for _, v in options]) == played)
                carried.pool_bound += max(len(alt) for alt in output.alternatives)
                out.append((p.id, options))
        return out

    def _cast_or_exile(self) -> None:
        """A card is cast, or played as the land drop, or exiled from the hand for mana:
        one of them (CR 113.6m: its ability works only while it is in the hand)."""
        for card in self.cards:
            if card.from_hand is not None:
                self.model.add(self._exiled(card.from_hand.id) + self._cast_times(card) <= 1)
        for k, land in enumerate(self.lands):
            if land.card.from_hand is not None:
                self.model.add(self._exiled(land.card.from_hand.id) + self.played[k] <= 1)

    def _discarded_or_used(self) -> None:
        """A card discarded for a cost (CR 601.2h) is neither cast, nor played, nor exiled
        for mana, nor discarded again."""
        for cid, vs in discards_by_card(self.discards).items():
            used = [self._cast_times(card) for card in self.cards if card.id == cid]
            used += [v for land, v in zip(self.lands, self.played) if land.id == cid]
            self.model.add(linear_sum(vs + used) + self._exiled(cid) <= 1)

    def _exiled(self, card_id: str):
        """How many times the card ``card_id`` is exiled from the hand for mana."""
        return exiled_from_hand(self.windows, card_id)

    def _arrivals(self, w: int) -> dict:
        """{a permanent's key: how many of it are there by window ``w``} for the
        permanents of the hand's cards (cast before ``w``) and lands (played)."""
        arrives = {key: 0 for key in self.way_permanents}
        for i, way in enumerate(self.ways):
            if way.spell.permanent is not None and w:
                key = way.spell.permanent.key
                arrives[key] = linear_sum([t for t in (arrives[key], linear_sum(self.cast[i][:w])) if not is_zero(t)])
        for k, land in enumerate(self.lands):
            arrives[land.permanent.key] = self.played[k]
        return arrives

    def _gate_arrivals(self, pm: PaymentModel, w: int) -> None:
        """A card's permanent is used only after the window that cast it; a land only if
        it was played, as it entered (by its permanent's key: the ways a land may enter
        share its id)."""
        arrives = self._arrivals(w)
        for g, grp in enumerate(pm.supply.groups):
            key = arrival_key(grp.key)
            if key not in arrives:
                continue
            uses = pm.group_usage(g)["uses"]
            if is_zero(uses):
                continue
            most = sum(a.cap for a in pm.acts if a.group == g)
            gate = arrives[key]
            if is_zero(gate):
                self.model.add(uses == 0)
            else:
                self.model.add(uses <= most * gate)

    def _payment_objective(self) -> tuple:
        """The payments' objective summed over the windows, the land's life among it."""
        terms = [pm.objective_terms for pm in self.windows]
        bounds = [pm.objective_bounds() for pm in self.windows]
        fields = range(len(Objective._fields))
        summed = Objective(*(linear_sum([t[i] for t in terms if not is_zero(t[i])]) for i in fields))
        summed_bounds = Objective(*(sum(b[i] for b in bounds) for i in fields))
        if not is_zero(self.land_life):
            summed = summed._replace(life=linear_sum([t for t in (summed.life, self.land_life) if not is_zero(t)]))
            summed_bounds = summed_bounds._replace(life=summed_bounds.life + max(land.life for land in self.lands))
        return summed, summed_bounds

    def solve(self, time_limit: float):
        """(solver, Status) of the lexicographic optimum: the value in a stage of its own
        when it was not given (its optimum then fixed, as a value given is: measured,
       , a hand of seven castable cards on 20 lands proved in 0.02 s so and not
        in 10 s with the value weighted in one sum with the payments' terms), the cast
        choices of that stage the hint of the next."""
        first = 0 if self.value_given else 1
        hinted = [v for row in self.cast for v in row] if first else []
        return solve_lexicographic(self.model, self.objective_terms, self.objective_bounds, hinted, time_limit,
                                   TURN_TUNING, first=first)

    def tails_are_real(self, solver) -> bool:
        """Whether every relaxed tail of a solution is a real chain (PaymentModel.tail_is_real)."""
        return all(pm.tail_is_real(solver) for pm in self.windows if pm.relaxed)

    def objective_tuple(self, solver) -> tuple:
        """The objective's value in a solution (comparable across depths)."""
        return objective_value(solver, self.objective_terms)

    def _chosen_ways(self, solver) -> list:
        """(way, its kicks where the model chose them) for each window that casts a card."""
        out = []
        for w in range(len(self.cards)):
            out += [(way, solver.value(self.kicks[i][w].count) if way.variable else None)
                    for i, way in enumerate(self.ways) if solver.value(self.cast[i][w])]
        return out

    def chosen(self, solver) -> tuple:
        """(the cards cast in order, the land played or None)."""
        order = [way.cast_card for way, _ in self._chosen_ways(solver)]
        land = next((land for k, land in enumerate(self.lands) if solver.value(self.played[k])), None)
        return order, land

    def landfall_made(self, solver) -> tuple:
        """(permanent id, mana types) for each landfall trigger the land drop set off."""
        return tuple((pid, alt) for pid, options in self.landfall for alt, v in options
                     if value_of(solver, v))

    def plans(self, solver, optimal: bool = True, start: PaymentProblem | None = None) -> list:
        """The plans of the windows that cast a card, in order, each from what the ones
        before it left (the first from the pool with the landfall mana), each saying how
        its card was kicked; each spell costed on the board as it stands when it is cast,
        from ``start`` (the problem once the land drop is made; default the base)."""
        out: list[Plan] = []
        pool = self.base.player.pool + tuple(Mana(t, source=POOL) for _, alt in self.landfall_made(solver)
                                             for t in alt)
        walk = bool(self.placed) or self.must_play or costs_may_move(self.base, self.cards)
        state = replace(start or self.base, query=PAY, hand=(), keep=(), spells=()) if walk else None
        for w, (way, kicks) in enumerate(self._chosen_ways(solver)):
            pm = self.windows[w]
            spell = state.cost_on(way.spell, state.board) if state is not None else way.spell  # (CR 601.2f)
            plan = extract_plan(replace(pm.problem, spell=way.card), pm, solver, optimal, start_pool=pool,
                                earlier=tuple(out), cost=spell.cost if walk else None)
            plan = with_victims(plan, pm, solver, out)
            if state is not None:
                plan = on_board(plan, state.board)
            thrown = tuple(cid for i, choices in self.discards[w].items()
                           for cid in chosen_discards(solver, choices, self.cast[i][w]))
            if thrown:
                plan = replace(plan, cost_discarded=thrown)
            if way.cast_with:
                plan = replace(plan, cast_with=way.cast_with)
            out.append(with_way(plan, way, kicks))
            pool = pool_after_cast(Player().after(plan).pool, way.card)
            if state is not None:
                state = replace(state, spell=spell).after_cast(plan)
        return out


def _in_hand(pm: PaymentModel, g: int) -> bool:
    """Whether group ``g`` is a card in the hand (its one ability: exile it for mana)."""
    return any(a.group == g and a.text == EXILE_FROM_HAND for a in pm.acts)


def objective_value(solver, terms) -> tuple:
    """The value of each objective term in a solution (a term may be a constant)."""
    return tuple(value_of(solver, term) for term in terms)
