"""Several payments in one step: ``pay`` keeping cards castable or mana open, ``sequence``
(spells paid one after another, in the given order or any), ``best_turn`` (the hand's
spells worth the most, with the land drop). Each is one CP-SAT model over every payment
(``solver.turn``), solved depth by depth (``solver.search.deepening``), every plan then
replayed by the validator in order.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

from manaplan.model.board import Board
from manaplan.model.mana import Mana
from manaplan.model.oracle import CHANGES_COSTS
from manaplan.model.plan import (KEEP_CONFLICT, POOL, SEQUENCE_FAILS, UNREAD_ABILITIES, BestTurn, CannotKeep, FirstFailure, Plan,
                                 Sequence, Undecided, Unpayable)
from manaplan.model.problem import (ANY_ORDER, FOLLOWED_IN_A_TURN, MOST, OBJECTIVE_TERMS, WHEN_NEEDED, LandPlay,
                                    PaymentProblem)
from manaplan.solver.hall import best_subsets, plain_board, plain_ways, two_way_choices
from manaplan.solver.one_spell import answer_alone
from manaplan.solver.runtime import Status
from manaplan.solver.search import Budget, check_in_order, deepening
from manaplan.solver.supply import board_restrictions, build_supply
from manaplan.solver.turn import ChosenTurnModel, TurnModel, card_key, costs_may_move, inert, order_free
from manaplan.solver.turn_costs import NotFollowed
from manaplan.solver.unread import unread_of


def answer_keeping(problem: PaymentProblem, budget: Budget, plain_path: bool):
    """``pay`` with ``keep_castable`` / ``keep_open`` (:func:`_answer_keeping`)."""
    return _not_followed_is_unknown(_answer_keeping, problem, budget, plain_path)


def answer_sequence(problem: PaymentProblem, budget: Budget):
    """``sequence`` (:func:`_answer_sequence`)."""
    return _not_followed_is_unknown(_answer_sequence, problem, budget)


def answer_best_turn(problem: PaymentProblem, budget: Budget):
    """``best_turn`` (:func:`_answer_best_turn`)."""
    return _not_followed_is_unknown(_answer_best_turn, problem, budget)


def _not_followed_is_unknown(answer, *args):
    """The answer, or where a spell's total can't be followed through the turn
    (solver.turn_costs.NotFollowed) an honest "not known" that says why."""
    try:
        return answer(*args)
    except NotFollowed as e:
        return Undecided(UNREAD_ABILITIES, f"a spell's total cost is not followed through the turn: {e}")


def _answer_keeping(problem: PaymentProblem, budget: Budget, plain_path: bool):
    """``pay`` with ``keep_castable`` / ``keep_open``: the best plan after which each kept
    spell (or all of them, ``keep_together``) is still payable from the untapped
    permanents left, floating mana not counted; one model for all (solver.turn). When
    the spell alone is payable but not so, ``keep_conflict`` names what can't be kept."""
    kept = list(problem.keep)
    if (unfollowed := _discarding([problem.spell] + kept)) is not None:
        return unfollowed
    branches = [kept] if problem.keep_together else [[k] for k in kept]
    found = _solve_turn(problem, [problem.spell], branches, budget)
    if isinstance(found, list):
        plan, = found
        return plan
    if found == Status.UNKNOWN:
        return budget.undecided()
    alone = answer_alone(replace(problem, keep=()), budget, plain_path)
    if not isinstance(alone, Plan):
        return alone
    cannot = [k for k in kept if _solve_turn(problem, [problem.spell], [[k]], budget) == Status.INFEASIBLE]
    cannot = cannot or kept
    names = [k.id for k in cannot]
    return Unpayable(KEEP_CONFLICT, f"{_title(problem.spell)} can be paid, but not while keeping "
                                    f"{_words(names)} payable{' together' if problem.keep_together else ''}",
                     CannotKeep(tuple(names)))


def _answer_sequence(problem: PaymentProblem, budget: Budget):
    """``sequence``: the spells paid one after another within one step, each plan carried
    out on the board the previous ones left (solver.turn), in the given order or, with
    ``"order": "any"``, the first order found that works (the given one first). When
    none works, the answer names the first spell that fails in the given order."""
    spells = list(problem.spells)
    orders = [spells]
    if problem.order == ANY_ORDER and _can_choose(problem, spells):
        found = _solve_chosen(problem, spells, [], True, budget)
        if isinstance(found, tuple):
            return Sequence(found[0].plans)
        if found == Status.UNKNOWN:
            return budget.undecided()
        orders = []
    elif problem.order == ANY_ORDER:
        orders += [list(o) for o in itertools.permutations(spells) if list(o) != spells]
    unfollowed = None
    for order in orders:
        if budget.spent:
            return budget.undecided()
        try:
            found = _pay_in_order(problem, order, budget)
        except NotFollowed as e:  # (another order may still pay: the answer is not known only if none does)
            unfollowed = unfollowed or e
            continue
        if isinstance(found, tuple):
            return Sequence(found)
        if found == Status.UNKNOWN:
            return budget.undecided()
    if unfollowed is not None:
        raise unfollowed
    for k in range(1, len(spells) + 1):
        found = _pay_in_order(problem, spells[:k], budget)
        if found == Status.UNKNOWN:
            return budget.undecided()
        if found == Status.INFEASIBLE:
            failed = spells[k - 1]
            first = "" if k == 1 else f" after {_words([s.id for s in spells[:k - 1]])}"
            how = " in any order" if problem.order == ANY_ORDER else ""
            return Unpayable(SEQUENCE_FAILS, f"{failed.id} can't be paid{first}{how}", FirstFailure(failed.id))
    return budget.undecided()  # each prefix pays but no order of all of them was found in time


def _answer_best_turn(problem: PaymentProblem, budget: Budget):
    """``best_turn``: the spells of the hand to cast now, and their order, for the most
    total ``value``, with one land of the hand played first when that helps (in each way
    it may enter: model.problem.LandPlay); one model for every choice
    (solver.turn.ChosenTurnModel), then each plan validated in order. A land whose
    arrival changes what other permanents make (a Swamp beside Cabal Coffers) gets a
    model of its own, the board worked out with it there; the best answer of all is
    given. What it does not follow (card text not read, a spell's permanent whose arrival
    would change what others make) is listed in the answer (``not_modelled``)."""
    faces = [face for card in problem.hand for face in (card,) + card.faces]
    spells, not_modelled = _followed(problem, [card for card in faces if not card.is_land])
    plays: list[LandPlay]
    apart: list[LandPlay]
    plays, apart = [], []
    for card in (card for card in faces if card.is_land) if problem.land_drop else ():
        ways, unsure = problem.land_plays(card)
        not_modelled += unsure
        for play in ways:
            (plays if problem.joins_unchanged(play.permanent) else apart).append(play)
    hand_lands = bool(plays or apart)
    if hand_lands:
        not_modelled += tuple((card.id, "its landfall is not followed: the land drop comes first, before any spell, "
                                        "so a turn that casts it and then plays the land is not tried")
                              for card in spells if card.permanent is not None and card.permanent.landfall)
    if hand_lands and not any(p.landfall for p in problem.board.permanents):
        found = _each_land_apart(problem, spells, plays + apart, budget)
    else:
        found = _solve_chosen(problem, spells, plays, False, budget, hand_lands=hand_lands)
        for play in apart:
            found = _best_of(found, _solve_chosen(problem, spells, [play], False, budget, must_play=True,
                                                  hand_lands=True))
    if isinstance(found, Status):
        return budget.undecided()
    best, _ = found
    unread = tuple((pid, f"{why}: {line!r}") for pid, line, why in unread_of(problem) if why != CHANGES_COSTS)
    if len(spells) < len([card for card in faces if not card.is_land and not card.cost_unread]):
        best = replace(best, optimal=False)  # (a card left out may have been worth casting)
    return replace(best, not_modelled=not_modelled + unread)


def _each_land_apart(problem: PaymentProblem, spells: list, plays: list, budget: Budget):
    """best_turn's land drop decided outside the model: each way of playing a
    land of the hand (CR 305.1: before any spell) is a turn of its own, worked out on the
    board with the land there (as it entered, its life paid, its card out of the hand),
    and not playing one where that may be best; the best of them by the chosen-order
    model's objective (:func:`_land_terms`). Equal to that model's own choice, which
    holds the value, the choices and the missed land drop before the payments, but each
    turn is a model without the land's choice in it (a hand with a basic land to play
    was hitting the time guard proving what the same board with the land on it proves
    in milliseconds). Not playing is left out where a play only adds (it joins the board
    unchanged, takes no life, its card has no other use, and no card of the turn would
    rather discard it): every turn without it is a turn with it, the land drop then not
    missed."""
    distinct, seen = [], set()
    for play in plays:
        key = (replace(play.permanent, id="", key=""), play.life, play.returns_land, play.card.face)
        if key not in seen:
            seen.add(key)
            distinct.append(play)
    moving = costs_may_move(problem, spells)  # (a land may raise a count: Hum of the Radix and an artifact land)
    adds_only = problem.land_drop is True and not moving and not any(s.discards for s in spells) and any(
        play.life == 0 and problem.joins_unchanged(play.permanent) and not _card_has_other_uses(problem, spells, play)
        for play in distinct)
    found = Status.INFEASIBLE
    for play in ([] if adds_only else [None]) + distinct:
        if budget.spent:
            return _best_of(found, Status.UNKNOWN)
        on = _after_land_drop(problem, play, ())
        cards = [s for s in spells if play is None or s.id != play.id]  # (its other face is not cast)
        if play is not None and (moving or play.permanent.cost_effects or play.permanent.land_types):
            cards = [on.cost_on(s, on.board) for s in cards]  # (Eye of Ugin, affinity: each costed with it there)
        one = _solve_chosen(on, cards, [], False, budget)
        found = _best_of(found, _land_terms(one, play, problem, spells, bool(plays)))
    return found


def _card_has_other_uses(problem: PaymentProblem, spells: list, play) -> bool:
    """Whether the land's card could serve the turn otherwise: another face cast as a
    spell (a modal double-faced card), or mana made from the hand (a face exiled from
    the hand for mana, CR 605.1a). Played as the land, neither is left."""
    return any(s.id == play.id for s in spells) or any(
        face.from_hand is not None for card in problem.hand if card.id == play.id for face in (card,) + card.faces)


def _land_terms(found, play, problem: PaymentProblem, spells: list, hand_lands: bool):
    """A turn found with the land ``play`` already played (or None played), its
    objective as :class:`~manaplan.solver.turn.ChosenTurnModel` ranks it with the land
    drop among its choices, the same for every play: the value against every card's
    worth, the kicks of "max" multikickers (each turn's model counted them against a
    most of its own mana: here the kicks alone, fewer ranking lower), the land drop
    missed, the land's life among the payments' life, the last term (an untapped land
    played rather than a tapped one; with "when_needed", a land played)."""
    if isinstance(found, Status):
        return found
    best, objective = found
    terms = list(objective) or [0] * (6 + len(OBJECTIVE_TERMS))
    terms[0] = sum(card.worth for card in spells) - best.value
    most = {card.id for card in spells if card.kicks == MOST}
    terms[2] = -sum(plan.kicks or 0 for spell, plan in best.plans if spell.id in most)
    terms[4] = 1 if play is None and problem.land_drop is True and hand_lands else 0
    if play is not None:
        terms[5 + problem.prefer.ranked.index("life")] += play.life
        terms[-1] = 1 if problem.land_drop == WHEN_NEEDED else int(not play.tapped)
    return replace(best, land=play), tuple(terms)


def _best_of(found, other):
    """Of two answers of :func:`_solve_chosen` ((BestTurn, objective) or a Status), the
    better: the lower objective; one cut short by the time guard makes the answer not
    proven best."""
    if isinstance(other, Status) or isinstance(found, Status):
        if isinstance(other, Status) and isinstance(found, Status):
            return found if found == Status.UNKNOWN else other
        kept = other if isinstance(found, Status) else found
        cut = Status.UNKNOWN in (found, other)
        return (replace(kept[0], optimal=False), kept[1]) if cut else kept
    best = other if other[1] < found[1] else found
    if not (found[0].optimal and other[0].optimal):
        best = (replace(best[0], optimal=False), best[1])
    return best


def _followed(problem: PaymentProblem, cards: list) -> tuple:
    """(the cards, each with its permanent only where the chosen-order model follows it
    exactly (PaymentProblem.joins_unchanged), (id, why) for each one it doesn't: cast,
    it is not followed on the battlefield, so a turn that would use it, or what it
    changes, is not seen)."""
    unfollowed: tuple
    out, unfollowed = [], ()
    for card in cards:
        if any(not c.linear for c in card.cost_counts) and len(cards) > 1:
            unfollowed += ((card.id, f"what it costs counts {next(c.per for c in card.cost_counts if not c.linear)}, "
                                     "which the other cards of the turn may change in a way not followed: it is "
                                     "not cast"),)
            continue
        if card.cost_unread:  # its total is not known (model.spell_text, model.cost_effects)
            unfollowed += tuple((card.id, f"what it costs is not known ({line!r}: {why}): it is not cast")
                                for line, why in card.cost_unread)
            continue
        untried = [a.text for a in card.alternative_costs if a.keyword not in FOLLOWED_IN_A_TURN or is_placed(
            problem, card)] + [line for line, _ in card.alternatives]  # (the others are ways of the card: Spell.ways)
        if untried:
            unfollowed += tuple((card.id, f"another way to cast it ({line!r}) is not tried by best_turn: cast for its "
                                          "mana cost only") for line in untried)
        if card.permanent is None or problem.joins_unchanged(card.permanent) or is_placed(problem, card):
            out.append(card)  # (a placed card: its place in the order is tried each way, _solve_placed)
            continue
        out.append(replace(card, permanent=None, cast_with=LAST_ONLY))
        unfollowed += ((card.id, "once cast, its permanent would change what permanents make (or count, or "
                                 "trigger), which best_turn does not follow: it is cast last, if at all (no spell "
                                 "of the turn after it, so every plan can be carried out)"),)
    placed = [card for card in out if is_placed(problem, card)]
    while placed and _placings_count(len(placed), len(out)) > MOST_PLACINGS:
        last = placed.pop()
        out.remove(last)
        unfollowed += ((last.id, "it changes what the other spells cost or what lands are, and the turn has more "
                                 "such cards than it tries each placing of: it is not cast"),)
    return out, unfollowed


def _placings_count(placed: int, windows: int) -> int:
    """How many placings :func:`placings` makes (each of ``placed`` cards in a distinct
    window of ``windows``, or not cast)."""
    return sum(math.comb(placed, j) * math.perm(windows, j) for j in range(placed + 1))


def _discarding(cards: list):
    """An answer saying it is not known, where a card's additional cost discards cards:
    ``pay``, ``can_pay``, ``max_x`` and ``castable`` follow that cost (solver.one_spell),
    ``sequence`` and ``best_turn`` too (solver.turn), a ``pay`` keeping cards castable
    or mana open not yet; else None. (A sacrifice is followed: solver.payment_victims.)"""
    lines = tuple((card.id or "spell", cost.text) for card in cards for cost in card.discards)
    if not lines:
        return None
    return Undecided(UNREAD_ABILITIES, "an additional cost that discards cards is followed by pay, can_pay, "
                                       "max_x, castable, sequence and best_turn, not yet by a pay that keeps "
                                       "cards castable or mana open: "
                                       + "; ".join(f"{who}: {line!r}" for who, line in lines), unread=lines)


def _can_choose(problem: PaymentProblem, cards: list) -> bool:
    """Whether the chosen-order model follows these cards exactly (see :func:`_followed`)."""
    return not _followed(problem, cards)[1]


#: a card of a turn whose permanent the chosen-order model does not follow (it would change
#: what other permanents make): cast last, if at all (marked by :func:`_followed`)
LAST_ONLY = "last only"


def _solve_chosen(problem: PaymentProblem, spells: list, lands: list, all_of_them: bool, budget: Budget,
                  must_play: bool = False, hand_lands: bool = False):
    """(a BestTurn with validated plans, its objective), or Status.INFEASIBLE /
    Status.UNKNOWN. ``hand_lands``: the hand has a land to play, in this model or in one
    of its own (the objectives of the two compare). A card :func:`_followed` marks
    ``LAST_ONLY`` is cast last if at all (the plain paths step aside then)."""
    last = frozenset(card_key(s) for s in spells if s.cast_with == LAST_ONLY)
    spells = [replace(s, cast_with="") if s.cast_with == LAST_ONLY else s for s in spells]
    if all_of_them and any(s.cost.mana_cost is None for s in spells):
        return Status.INFEASIBLE
    spells = [s for s in spells if s.cost.mana_cost is not None]  # no mana cost: can't be cast (CR 202.1b)
    if not spells and not lands and not hand_lands:
        return BestTurn(None, (), 0), ()
    placed = [card_key(s) for s in spells if is_placed(problem, s)]
    if placed:  # each placing of the cards that change the board for the others, a model of its own
        return _solve_placed(problem, spells, lands, all_of_them, budget, must_play, hand_lands, placed, last)
    if last:
        return _solve_model(problem, spells, lands, all_of_them, budget, must_play, hand_lands, last=last)
    known = None
    if not all_of_them and not lands and not hand_lands:
        chosen, known = _plain_turn(problem, spells, budget)
        if chosen is not None:
            return chosen
        known = None if must_play else known  # (its value is the turn's without a land to play)
    if known is None and not all_of_them:
        known = plain_turn_value(problem, spells, lands, must_play)
    own = not lands and bool(spells) and order_free(problem, spells)  # (the order changes nothing: fixed)
    found = _solve_model(problem, spells, lands, all_of_them, budget, must_play, hand_lands, known, own_window=own)
    if found == Status.INFEASIBLE and known is not None:  # (never expected: the model decides without the value)
        found = _solve_model(problem, spells, lands, all_of_them, budget, must_play, hand_lands)
    return found


#: the most placings of the cards that change costs or land types for the others that a
#: turn tries (each a model of its own); past them, the extra cards are not cast
MOST_PLACINGS = 64


def is_placed(problem: PaymentProblem, card) -> bool:
    """Whether ``card``'s permanent changes what the others cost or what lands are (a
    Medallion, Thalia, Trinisphere, Blood Moon) and is otherwise followed exactly: its
    place in the order decides the board each later spell is costed and paid on, so a
    turn fixes it, one placing a model (:func:`_solve_placed`)."""
    p = card.permanent
    return p is not None and bool(p.cost_effects or p.land_types) and problem.joins_unchanged(inert(p))


def placings(placed: list, windows: int, all_of_them: bool) -> list:
    """Every placing of the cards ``placed`` (their keys) in ``windows`` windows: a
    distinct window each, or (unless ``all_of_them``) not cast."""
    options = ([] if all_of_them else [None]) + list(range(windows))
    return [dict(zip(placed, at)) for at in itertools.product(options, repeat=len(placed))
            if len([w for w in at if w is not None]) == len({w for w in at if w is not None})]


def _solve_placed(problem: PaymentProblem, spells: list, lands: list, all_of_them: bool, budget: Budget,
                  must_play: bool, hand_lands: bool, placed: list, last: frozenset = frozenset()):
    """:func:`_solve_chosen` over every placing of the cards ``placed`` (see
    :func:`is_placed`): the best answer of them (for a sequence in any order, the first
    that pays)."""
    found = Status.INFEASIBLE
    for placing in placings(placed, len(spells), all_of_them):
        if budget.spent:
            return _best_of(found, Status.UNKNOWN)
        one = _solve_model(problem, spells, lands, all_of_them, budget, must_play, hand_lands, placing=placing,
                           last=last)
        found = _best_of(found, one)
        if all_of_them and not isinstance(found, Status):
            return found
    return found


def _solve_model(problem: PaymentProblem, spells: list, lands: list, all_of_them: bool, budget: Budget,
                 must_play: bool, hand_lands: bool, known: int | None = None, placing: dict | None = None,
                 fixed_order: bool = False, last: frozenset = frozenset(), own_window: bool = False):
    """One chosen-order model solved (:func:`_solve_chosen`'s answer), its plans read
    back and replayed by the validator in order on the board as it changes.
    ``own_window``: the order changes nothing (solver.turn.order_free), each card is
    cast in the hand's order if at all."""
    found = deepening(lambda depth: ChosenTurnModel(problem, spells, lands, all_of_them, problem.land_drop, depth,
                                                     must_play, hand_lands, value=known, placed=placing,
                                                     fixed_order=fixed_order, last=last, own_window=own_window),
                      budget)
    if isinstance(found, Status):
        return found
    turn, solver, optimal = found
    order, land = turn.chosen(solver)
    landfall = turn.landfall_made(solver)
    start = _after_land_drop(problem, land, landfall)
    plans = check_in_order(start, order, turn.plans(solver, optimal=optimal, start=start))
    return (BestTurn(land, tuple(zip(order, plans)), sum(s.worth for s in order), optimal, landfall=landfall),
            turn.objective_tuple(solver))


def plain_turn_value(problem: PaymentProblem, spells: list, lands: list, must_play: bool = False) -> int | None:
    """The most value a turn can cast, worked out without CP-SAT where that is exact: a
    plain board (single-mana {T} sources, nothing restricted: solver.hall), with each land
    the turn may play (or none, unless ``must_play``; a shock land's life paid first), and
    cards of plain costs (twobrid and Phyrexian symbols announced each way, the life within
    the life total) that add no mana, become no mana source and have no choice to make
    (kicker, another face, convoke, improvise, delve, an additional cost). The cards then
    share the board's sources as one payment does, so a set of them is castable this turn
    exactly when Hall's condition holds for all their symbols (the turn model,
    told its value, has only the plans' objective left to prove). None otherwise."""
    found = _plain_turn_subsets(problem, spells, lands, must_play)
    return None if found is None else found[0]


#: the most sets of cards of the best value a plain turn pays one by one (past them, the
#: turn model chooses among them itself)
MOST_BEST_SETS = 24
#: without twobrid or Phyrexian symbols, past this many sets the chosen-order model told
#: the value proves the turn sooner than the sets' models one by one (benchmarks/best_turn.py)
FEW_BEST_SETS = 2


def _plain_turn(problem: PaymentProblem, spells: list, budget: Budget):
    """best_turn without a land to play and with no mana floating, where
    :func:`plain_turn_value` is exact and few sets of cards reach the best value: each set
    paid in the hand's order by the sequence's turn model, the best objective of them (its
    terms as the chosen-order model ranks them); None where that doesn't apply or a set's
    payment wasn't proven best in time: (that, the value or None). On a plain board with nothing floating each
    source's one mana is spent as it is made, so the order of the cards changes neither
    the mana nor the objective (nothing floats after any payment). Returned with the
    turn's value where it was worked out (the chosen-order model is told it then), else
    None."""
    if problem.player.pool:
        return None, None  # (when floating mana is spent changes what floats after each payment: order matters)
    found = _plain_turn_subsets(problem, spells, [], False, MOST_BEST_SETS)
    if found is None:
        return None, None
    value, subsets = found
    if len(subsets) > FEW_BEST_SETS and not any(two_way_choices(s.cost) for s in spells):
        return None, value  # (measured: the chosen-order model told the value is quicker then)
    if not value:
        return None, value  # (nothing to cast: the chosen-order model says so at once)
    most = sum(card.worth for card in spells)
    best = None
    for subset in subsets:
        cards = [spells[k] for k in subset]
        turn = deepening(lambda depth: TurnModel(problem, cards, [], depth), budget)
        if isinstance(turn, Status) or not turn[2]:
            return None, value  # (the chosen-order model decides, and says what it found)
        model, solver, _ = turn
        ranked = model.objective_tuple(solver)
        plans = model.plans(solver, optimal=True)
        plans = check_in_order(problem, cards, plans)
        objective = (most - value,) + ranked[:3] + (0,) + ranked[3:] + (0,)
        if best is None or objective < best[1]:
            best = (BestTurn(None, tuple(zip(cards, plans)), value, True), objective)
    return best, value


def _plain_turn_subsets(problem: PaymentProblem, spells: list, lands: list, must_play: bool, most: int = 0):
    """(the most value, the sets of spell indices reaching it, listed up to ``most``) of
    :func:`plain_turn_value`'s turns, or None."""
    board = problem.board
    if not spells or problem.prefer.keep_untapped or board.counted_from is not None or board_restrictions(board):
        return None
    if problem.player.spells_cast is not None and any(
            e.per == "spells cast" for p in board.bodies + tuple(problem.opponents or ()) for e in p.cost_effects):
        return None  # (Damping Sphere: each card costs more the later it comes)
    if lands and any(p.landfall for p in board.permanents):
        return None
    cards = []
    for s in spells:
        if (s.kicker is not None or s.multikicker is not None or s.adds or s.from_hand is not None or s.faces
                or s.convoke or s.improvise or s.delve or s.commander or s.sacrifices or s.discards
                or s.alternative_costs or s.unread or s.cost_counts):
            return None  # (cost_counts: a count a card cast before it may change, solver.turn_costs)
        p = s.permanent
        if p is not None and (p.abilities or p.triggers or p.grants or p.replaces or p.landfall or p.cost_effects
                              or p.land_types or p.spending):
            return None
        ways = plain_ways(s.cost)
        if ways is None:
            return None
        cards.append((ways, s.worth))
    best = None
    for land in ([] if must_play else [None]) + list(lands):
        if land is not None and (land.returns_land or land.card.from_hand is not None or land.permanent.cost_effects
                                 or land.permanent.land_types):
            return None  # (a land that changes what spells cost: each is costed on the board with it, solver.turn)
        on = problem if land is None else replace(problem, board=Board(board.permanents + (land.permanent,)))
        if land is not None and (on.board.counted_from is not None or board_restrictions(on.board)):
            return None
        first = replace(on, spell=spells[0], query="pay", hand=(), keep=(), spells=())
        sources = plain_board(first, build_supply(first))
        life = problem.player.life - (land.life if land is not None else 0)
        found = None if sources is None else best_subsets(cards, sources[0], life, most)
        if found is None:
            return None
        if best is None or found[0] > best[0]:
            best = found
    return best


def _after_land_drop(problem: PaymentProblem, land, landfall: tuple) -> PaymentProblem:
    """The problem the first spell of a turn starts from once ``land`` (a LandPlay, or
    None) is played: the land on the board as it entered (its card no longer in the
    hand), the life it took, the landfall mana in the pool."""
    if land is None:
        return problem
    hand = land.card.from_hand.key if land.card.from_hand is not None else None
    given = problem.board.given()  # (worked out anew with the land: counted amounts, mana from the board)
    board = Board(tuple(p for p in given.permanents if hand is None or p.key != hand) + (land.permanent,))
    pool = problem.player.pool + tuple(Mana(t, source=POOL) for _, alt in landfall for t in alt)
    return replace(problem, board=board, player=replace(problem.player, life=problem.player.life - land.life,
                                                        pool=pool), hand=tuple(c for c in problem.hand
                                                                               if c.id != land.id))


def _solve_turn(problem: PaymentProblem, main: list, branches: list, budget: Budget):
    """The main line's validated plans, or Status.INFEASIBLE / Status.UNKNOWN."""
    if any(spell.cost.mana_cost is None for spell in main + [s for line in branches for s in line]):
        return Status.INFEASIBLE  # no mana cost: it can't be cast by paying one (CR 202.1b)
    found = deepening(lambda depth: TurnModel(problem, main, branches, depth), budget)
    if isinstance(found, Status):
        return found
    turn, solver, optimal = found
    plans = turn.plans(solver, optimal=optimal)
    plans = check_in_order(problem, main, plans)
    return plans


def _pay_in_order(problem: PaymentProblem, spells: list, budget: Budget):
    """((spell as cast, plan), ...) paying ``spells`` in this order, or Status.INFEASIBLE /
    Status.UNKNOWN. A card that may be cast another way for mana alone (evoke, dash,
    overload) is one of the chosen-order model's ways, that model's order held to this
    one; the others are the sequence's own model (solver.turn.TurnModel)."""
    others = [s for s in spells if any(a.keyword in FOLLOWED_IN_A_TURN for a in s.alternative_costs)]
    if others and not _can_choose(problem, spells):  # (the chosen-order model would not follow the board)
        found = _solve_turn(problem, spells, [], budget)
        if found == Status.INFEASIBLE:
            raise NotFollowed(f"{others[0].id}'s other way to cast it is not tried beside a permanent the turn "
                              f"does not follow in that model: its mana cost alone can't be paid")
        return tuple(zip(spells, found)) if isinstance(found, list) else found
    if others:
        if any(s.cost.mana_cost is None for s in spells):
            return Status.INFEASIBLE
        placing = {card_key(s): k for k, s in enumerate(spells) if is_placed(problem, s)}  # (their place: given)
        found = _solve_model(problem, spells, [], True, budget, False, False, placing=placing, fixed_order=True)
        return found if isinstance(found, Status) else found[0].plans
    found = _solve_turn(problem, spells, [], budget)
    return tuple(zip(spells, found)) if isinstance(found, list) else found


def _title(spell) -> str:
    return spell.name or spell.id or str(spell.cost.mana_cost)


def _words(names: list) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
