"""The payment planner: one question in, a plan or a proof out, as values.

``answer(problem)`` groups the board once (``solver.supply``), then: on a plain board
the exact transport of ``solver.plain`` (or Hall's check for yes/no); otherwise the
spell's total cost is modelled with the grouped sources in CP-SAT (``solver.cpsat``),
the best plan is read back (``solver.extract``) and replayed by the independent
validator, and an unpayable answer carries a proof (``solver.proof``).

How deep chains may go (layers of abilities paid by earlier abilities) is chosen so
the answer stays exact without modelling every possible depth: see :func:`best_plan`
and ``solver.chains``.
"""

from __future__ import annotations

import itertools
import time
from collections import OrderedDict
from dataclasses import fields, replace

from ..model.errors import InvalidPlan
from ..model.mana import Mana
from ..model.plan import (
    KEEP_CONFLICT, NEEDS_ACTIVATION_BEFORE_CASTING, NO_MANA_COST, NO_PAYMENT, POOL, SEQUENCE_FAILS, TIME_LIMIT, TIMEOUT,
    UNREAD_ABILITIES, CannotKeep,
    BestTurn, Castable, FirstFailure, Payable, Plan, Sequence, Undecided, Unpayable,
)
from ..model.oracle import CHANGES_COSTS, LOYALTY_TIMING
from ..model.problem import (ANY_ORDER, BEST_TURN, CAN_PAY, CASTABLE, IF_POSSIBLE, MAX_X, MOST, PAY, SEQUENCE,
                             PaymentProblem, Spell)
from ..model.sources import PRECAST_ONLY, Board

from ..model.errors import ModelTooLarge
from .cpsat import PaymentModel
from .runtime import Status
from .chains import activation_bound, depth_bound
from .checks.validator import validate_plan
from .extract import extract_plan
from .hall import hall_certificate, hall_violation, plain_view
from .plain import plain_payment
from .proof import counting_bound
from .supply import Supply, build_supply
from .turn import ChosenTurnModel, Depth, TurnModel

#: depths tried before the exact one: most chains are one Signet or filter deep
DEPTHS = (1, 3, 8)
#: once the funding graph bounds the depth (solver.chains.depth_bound) this low, the
#: exact model is solved next, without the depths between (measured on converter
#: boards: a strict model of 11 layers takes about 20 ms, the relaxed and strict pairs at
#: 3 and 8 layers about 30 ms)
EXACT_NEXT = 16


class Budget:
    """The time guard of one question, shared by every solve it needs (the exact depths,
    the hint about abilities before casting, each X that max_x tries)."""

    def __init__(self, seconds: float, started: float | None = None):
        self.seconds = seconds
        self.deadline = (time.monotonic() if started is None else started) + seconds

    def left(self) -> float:
        """What a solve may take now: the time left, and at least a moment."""
        return max(0.05, self.deadline - time.monotonic())

    @property
    def spent(self) -> bool:
        return time.monotonic() >= self.deadline

    def undecided(self) -> Undecided:
        return Undecided(TIMEOUT, f"no answer within {self.seconds:g} s; neither a plan nor a proof was found")


def answer(problem: PaymentProblem, time_limit: float = TIME_LIMIT, plain_path: bool = True,
           started: float | None = None):
    """Answer a payment problem: a :class:`Plan` (validated), :class:`Unpayable` with its
    proof, :class:`Undecided` when the time guard runs out, :class:`Payable` for a
    yes/no question, :class:`Castable` for a hand (each card as ``pay`` answers it),
    :class:`Sequence` or :class:`BestTurn` for several spells. ``time_limit`` bounds
    every solve the question needs, together, from ``started`` (``time.monotonic()``
    when the request came in; default now).

    ``plain_path`` False sends plain boards through the general model too (tests compare
    the two; the benchmark measures both)."""
    budget = Budget(time_limit, started)
    try:
        return _answer_query(problem, budget, plain_path)
    except ModelTooLarge as e:
        return _too_large(e)


def _too_large(e: ModelTooLarge) -> Undecided:
    """The answer where the model a question needs is larger than manaplan builds."""
    return Undecided(TIMEOUT, f"no answer: the chains of abilities on this board would need a model of "
                              f"{e.cells:,} cells (layers times abilities), more than the {e.most:,} "
                              f"manaplan builds; neither a plan nor a proof was found")


def _answer_query(problem: PaymentProblem, budget: Budget, plain_path: bool):
    """:func:`answer`'s work, by query."""
    if problem.query == CASTABLE:
        cards = [(spell, problem.for_spell(spell)) for spell in problem.hand]
        return Castable(tuple((spell, _unless_unread(alone, _answer_alone(alone, budget, plain_path)))
                              for spell, alone in cards))
    if problem.query == SEQUENCE:
        return _unless_unread(problem, _answer_sequence(problem, budget))
    if problem.query == BEST_TURN:
        return _answer_best_turn(problem, budget)  # (card text not read: listed in not_modelled)
    problem = problem.for_spell(problem.spell, problem.query)  # (never paid by exiling itself)
    if problem.keep:
        return _unless_unread(problem, _answer_keeping(problem, budget, plain_path))
    return _unless_unread(problem, _answer_alone(problem, budget, plain_path))


def _cast_in(problem: PaymentProblem) -> tuple:
    """The spells the question casts: a sequence's, the hand of ``best_turn``, else its
    one spell."""
    if problem.query == SEQUENCE:
        return problem.spells
    if problem.query == BEST_TURN:
        return problem.hand
    return (problem.spell,)


def _unread_of(problem: PaymentProblem) -> tuple:
    """(id, line, why) for each line about mana that was not read and could matter: the
    board's, and, where spells resolve within the step (``sequence``, ``best_turn``),
    theirs and those of the permanents they become."""
    unread = problem.board.unread
    cards = _cast_in(problem) if problem.query in (SEQUENCE, BEST_TURN) else ()
    for card in cards:
        unread += tuple((card.id, line, why) for line, why in card.unread)
        if card.permanent is not None:
            unread += tuple((card.id, line, why) for line, why in card.permanent.unread)
    return unread


def _has_instant(problem: PaymentProblem) -> bool:
    """Whether a spell of the question is an instant: then whether loyalty abilities
    could be activated first (sorcery speed, CR 606.3) is not known."""
    return any("Instant" in s.type_line.split("—")[0] for s in _cast_in(problem))


def _cost_changes_given(problem: PaymentProblem) -> bool:
    """Whether every spell the question casts says how its cost changes."""
    return all(s.cost_changes_given for s in _cast_in(problem))


def _unless_unread(problem: PaymentProblem, result):
    """A "no" found from the abilities that were read is not certain when some card text
    about mana was not read: ``payable: null``, naming each card and line. A "yes" uses
    only abilities that were read, and stands. A spell with no mana cost is a "no"
    whatever the board (CR 202.1b)."""
    unread = _unread_of(problem)
    costs = [(pid, line) for pid, line, why in unread if why == CHANGES_COSTS]
    if costs and not _cost_changes_given(problem) and isinstance(result, (Plan, Payable, Unpayable)):
        lines = "; ".join(f"{pid}: {line!r}" for pid, line in costs[:10])
        return Undecided(UNREAD_ABILITIES, f"the board has text that changes what spells cost, which is not read "
                                           f"from the board: {lines}; give the change in the spell's 'increase', "
                                           f"'reduce' or 'minimum' (empty when none applies)",
                         unread=tuple(costs))
    unread = tuple(u for u in unread if u[2] != CHANGES_COSTS
                   and not (u[2] == LOYALTY_TIMING and not _has_instant(problem)))
    if not unread or not isinstance(result, Unpayable) or result.code == NO_MANA_COST:
        return result
    lines = "; ".join(f"{pid}: {line!r}" for pid, line, _ in unread[:10])
    more = f" and {len(unread) - 10} more" if len(unread) > 10 else ""
    return Undecided(UNREAD_ABILITIES, f"the abilities read can't pay ({result.message}); but some card text about "
                                       f"mana was not read, and might: {lines}{more}",
                     unread=tuple((pid, line) for pid, line, _ in unread))


def _answer_keeping(problem: PaymentProblem, budget: Budget, plain_path: bool):
    """``pay`` with ``keep_castable`` / ``keep_open``: the best plan after which each kept
    spell (or all of them, ``keep_together``) is still payable from the untapped
    permanents left, floating mana not counted; one model for all (solver.turn). When
    the spell alone is payable but not so, ``keep_conflict`` names what can't be kept."""
    kept = list(problem.keep)
    branches = [kept] if problem.keep_together else [[k] for k in kept]
    found = _solve_turn(problem, [problem.spell], branches, budget)
    if isinstance(found, list):
        plan, = found
        return plan
    if found == Status.UNKNOWN:
        return budget.undecided()
    alone = _answer_alone(replace(problem, keep=()), budget, plain_path)
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
    for order in orders:
        if budget.spent:
            return budget.undecided()
        found = _solve_turn(problem, order, [], budget)
        if isinstance(found, list):
            return Sequence(tuple(zip(order, found)))
        if found == Status.UNKNOWN:
            return budget.undecided()
    for k in range(1, len(spells) + 1):
        found = _solve_turn(problem, spells[:k], [], budget)
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
    found = _solve_chosen(problem, spells, plays, False, budget, hand_lands=hand_lands)
    for play in apart:
        found = _best_of(found, _solve_chosen(problem, spells, [play], False, budget, must_play=True,
                                              hand_lands=True))
    if isinstance(found, Status):
        return budget.undecided()
    best, _ = found
    unread = tuple((pid, f"{why}: {line!r}") for pid, line, why in _unread_of(problem) if why != CHANGES_COSTS)
    return replace(best, not_modelled=not_modelled + unread)


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
    out, unfollowed = [], ()
    for card in cards:
        if card.permanent is None or problem.joins_unchanged(card.permanent):
            out.append(card)
            continue
        out.append(replace(card, permanent=None))
        unfollowed += ((card.id, "once cast, its permanent would change what permanents make (or count, or "
                                 "trigger), which best_turn does not follow: later spells are planned without it"),)
    return out, unfollowed


def _can_choose(problem: PaymentProblem, cards: list) -> bool:
    """Whether the chosen-order model follows these cards exactly (see :func:`_followed`)."""
    return not _followed(problem, cards)[1]


def _solve_chosen(problem: PaymentProblem, spells: list, lands: list, all_of_them: bool, budget: Budget,
                  must_play: bool = False, hand_lands: bool = False):
    """(a BestTurn with validated plans, its objective), or Status.INFEASIBLE /
    Status.UNKNOWN. ``hand_lands``: the hand has a land to play, in this model or in one
    of its own (the objectives of the two compare)."""
    if all_of_them and any(s.cost.mana_cost is None for s in spells):
        return Status.INFEASIBLE
    spells = [s for s in spells if s.cost.mana_cost is not None]  # no mana cost: can't be cast (CR 202.1b)
    if not spells and not lands and not hand_lands:
        return BestTurn(None, (), 0), ()
    found = _deepening(lambda depth: ChosenTurnModel(problem, spells, lands, all_of_them, problem.land_drop, depth,
                                                     must_play, hand_lands), budget)
    if isinstance(found, Status):
        return found
    turn, solver, optimal = found
    order, land = turn.chosen(solver)
    landfall = turn.landfall_made(solver)
    plans = turn.plans(solver, optimal=optimal)
    _check_in_order(_after_land_drop(problem, land, landfall), order, plans)
    return (BestTurn(land, tuple(zip(order, plans)), sum(s.worth for s in order), optimal, landfall=landfall),
            turn.objective_tuple(solver))


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
                                                        pool=pool))


def _solve_turn(problem: PaymentProblem, main: list, branches: list, budget: Budget):
    """The main line's validated plans, or Status.INFEASIBLE / Status.UNKNOWN."""
    if any(spell.cost.mana_cost is None for spell in main + [s for line in branches for s in line]):
        return Status.INFEASIBLE  # no mana cost: it can't be cast by paying one (CR 202.1b)
    found = _deepening(lambda depth: TurnModel(problem, main, branches, depth), budget)
    if isinstance(found, Status):
        return found
    turn, solver, optimal = found
    plans = turn.plans(solver, optimal=optimal)
    _check_in_order(problem, main, plans)
    return plans


def _deepening(build, budget: Budget):
    """(a turn model, its solver, whether its optimum is proven) or Status.INFEASIBLE /
    Status.UNKNOWN: the payments of a turn chained 1, 3, then 8 layers deep, then as deep
    as each can chain (``build(depth)`` makes the model: solver.turn.Depth), as
    :func:`best_plan` does for one payment. At each depth the relaxed model, whose last
    layers stand for every deeper activation, bounds every turn from below: infeasible,
    nothing pays; optimal with every tail a real chain, that is the answer; else the
    strict model at that depth, if it reaches the same objective. A solve cut short by
    the time guard leaves the best real plan found, not proven best (a relaxed one whose
    tails are real chains, a strict one); so does a model too large to build
    (:class:`ModelTooLarge`). (A turn's payments built at their deepest chains at
    once made models of thousands of layers on large chain boards, which ran a machine
    out of memory.)"""
    found = None  # the best real plan yet: the answer, not proven best, if nothing better comes
    try:
        for layers in DEPTHS:
            relaxed = build(Depth(layers, relaxed=True))
            if relaxed.depth.exact:  # each payment is as deep as it can chain: this model is exact
                break
            rsolver, rstatus = relaxed.solve(budget.left() / 2)  # (half: the strict model's turn comes next)
            if rstatus == Status.INFEASIBLE:
                return rstatus
            if rstatus.solved and relaxed.tails_are_real(rsolver):
                if rstatus == Status.OPTIMAL:
                    return relaxed, rsolver, True
                found = _better(found, (relaxed, rsolver, False))  # (cut short by the time guard: real, not best)
            strict = build(Depth(layers))
            solver, status = strict.solve(budget.left())
            if rstatus == status == Status.OPTIMAL and strict.objective_tuple(solver) == relaxed.objective_tuple(rsolver):
                return strict, solver, True
            if status.solved:
                found = _better(found, (strict, solver, False))
            if budget.spent:
                return found or Status.UNKNOWN
        else:
            relaxed = build(Depth())
    except ModelTooLarge:
        if found is None:
            raise
        return found  # (a real plan, the deepest one that could be built)
    solver, status = relaxed.solve(budget.left())
    if status == Status.OPTIMAL:
        return relaxed, solver, True
    if status.solved:
        return _better(found, (relaxed, solver, False))
    return found if found is not None and status == Status.UNKNOWN else status


def _better(found, other):
    """Of two (turn model, solver, False) solutions (or None), the one with the lower
    objective; ``found`` on a tie."""
    if found is None or other[0].objective_tuple(other[1]) < found[0].objective_tuple(found[1]):
        return other
    return found


def _check_in_order(problem: PaymentProblem, spells: list, plans: list) -> None:
    """Replay each plan with the validator on what the ones before it left."""
    state = problem
    for spell, plan in zip(spells, plans):
        state = replace(state, spell=spell, query=PAY, keep=(), spells=(), hand=())
        _check(state, plan)
        state = state.after_cast(plan)


def _title(spell) -> str:
    return spell.name or spell.id or str(spell.cost.mana_cost)


def _words(names: list) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


#: settled answers kept with a board, the least recently used dropped first: a kept
#: board asked the same question again (a ``pay`` of a card ``castable`` just answered)
#: or a hand holding copies of one card answers it once
ANSWERS_KEPT = 64


def _answer_alone(problem: PaymentProblem, budget: Budget, plain_path: bool = True):
    """The answer to one spell's question within the request's ``budget``, from the
    board's kept answers when the same question was settled on it before."""
    kept = problem.board.memo.setdefault("answers", OrderedDict())
    key = (_question_key(problem), plain_path)
    if key in kept:
        kept.move_to_end(key)
        return kept[key]
    try:
        out = _answer_now(problem, budget, plain_path)
    except ModelTooLarge as e:  # (one card of a hand: the others are answered)
        out = _too_large(e)
    if _settled(out):
        kept[key] = out
        if len(kept) > ANSWERS_KEPT:
            kept.popitem(last=False)
    return out


def _question_key(problem: PaymentProblem) -> tuple:
    """What a one-spell answer depends on besides the board: every field of the problem,
    with the hand as the colors the rest of it needs (what the objective weighs) and the
    spell without what only names it or matters after it resolves (its id, value, the
    mana it adds, the permanent it becomes)."""
    spell = problem.spell
    return (tuple(getattr(spell, name) for name in _SPELL_KEY), tuple(sorted(problem.color_needs.items())),
            tuple(getattr(problem, name) for name in _PROBLEM_KEY))


_SPELL_KEY = tuple(f.name for f in fields(Spell) if f.name not in ("id", "value", "adds", "permanent"))
_PROBLEM_KEY = tuple(f.name for f in fields(PaymentProblem) if f.name not in ("board", "hand", "spell"))


def _settled(answer) -> bool:
    """An answer that another solve would give again: a plan proven optimal, a proof,
    a yes; not one the time guard cut short."""
    if isinstance(answer, Plan):
        return answer.optimal
    return isinstance(answer, (Unpayable, Payable))


def _answer_now(problem: PaymentProblem, budget: Budget, plain_path: bool = True):
    spell = problem.spell
    if spell.kicker is not None or spell.multikicker is not None:
        return _answer_choices(problem, budget, plain_path)
    if problem.spell.cost.mana_cost is None:
        return counting_bound(problem, None)  # no mana cost (CR 202.1b)
    supply = build_supply(problem)
    if budget.spent:
        return budget.undecided()
    if problem.query == MAX_X:
        return _answer_max_x(problem, supply, budget)
    if problem.query == CAN_PAY:
        return _answer_can_pay(problem, supply, budget)
    return _answer_pay(problem, supply, budget, plain_path)


def _answer_choices(problem: PaymentProblem, budget: Budget, plain_path: bool):
    """A spell with a kicker or a multikicker (CR 702.33): the choices the request fixed,
    or the best the board allows: kicked if it can be ("if_possible"), as many kicks as
    can be paid ("max", found by halving: each kick only adds to the cost). With
    ``max_x``, X is maximised first, then the kicks at that X."""
    spell = problem.spell
    options = [True, False] if spell.kicked == IF_POSSIBLE else [bool(spell.kicked)]
    for kicked in options:
        if spell.kicks == MOST:
            result = _most_kicks(problem, kicked, budget, plain_path)
        else:
            result = _with_choices(_answer_alone(problem.with_kicks(kicked, spell.kicks), budget, plain_path),
                                   spell, kicked, spell.kicks)
        if not isinstance(result, Unpayable) or kicked is options[-1]:
            return result
    raise AssertionError("unreachable")


def _most_kicks(problem: PaymentProblem, kicked: bool, budget: Budget, plain_path: bool):
    """The plan with the most kicks of the multikicker the board can pay."""
    best = _answer_alone(problem.with_kicks(kicked, 0), budget, plain_path)
    if not isinstance(best, (Plan, Payable)):
        return _with_choices(best, problem.spell, kicked, 0)
    x = best.x if isinstance(best, Plan) else None
    base = problem if x is None else problem.with_x(x)
    most, low, high = 0, 1, _kicks_bound(problem)
    while low <= high:  # each probe a yes or no (CAN_PAY: no best plan needed)
        if budget.spent:
            return budget.undecided()
        k = (low + high) // 2
        out = _answer_alone(replace(base.with_kicks(kicked, k), query=CAN_PAY), budget, plain_path)
        if isinstance(out, Undecided):
            return out
        if isinstance(out, Payable):
            most, low = k, k + 1
        else:
            high = k - 1
    if most:  # the best plan at the most kicks
        best = _answer_alone(base.with_kicks(kicked, most), budget, plain_path)
        if not isinstance(best, (Plan, Payable)):
            return best if isinstance(best, Undecided) else budget.undecided()
    if x is not None and isinstance(best, Plan):
        best = replace(best, x=x)
    return _with_choices(best, problem.spell, kicked, most)


def _kicks_bound(problem: PaymentProblem) -> int:
    """More kicks than the board could ever pay for (model.problem.Spell.kicks_within)."""
    supply = build_supply(problem.with_kicks(False, 0))
    return problem.spell.kicks_within(supply.mana_bound, problem.player.life, problem.player.graveyard)


def _with_choices(result, spell, kicked: bool, kicks: int):
    """A plan says whether it pays the kicker and how many kicks (the answer's top level)."""
    if not isinstance(result, Plan):
        return result
    return replace(result, kicked=kicked if spell.kicker is not None else None,
                   kicks=kicks if spell.multikicker is not None else None)


def _answer_pay(problem: PaymentProblem, supply: Supply, budget: Budget, plain_path: bool = True):
    plain = plain_payment(problem, supply) if plain_path else None
    if plain is not None:
        if isinstance(plain, Plan):
            _check(problem, plain)
        return plain
    found = best_plan(problem, supply, problem.spell.cost.x, budget)
    if found == Status.INFEASIBLE:
        return _unpayable(problem, supply, budget)
    if isinstance(found, Status):
        return budget.undecided()
    model, solver, optimal = found
    plan = extract_plan(problem, model, solver, optimal)
    helping = _precast_help(problem, supply, model.objective_tuple(solver), budget)
    if helping:
        plan = replace(plan, better_before_casting=tuple(sorted(helping.items())))
    if budget.spent:  # the whole question stays within its time guard: no plan goes out unchecked
        return budget.undecided()
    _check(problem, plan)
    return plan


def _answer_can_pay(problem: PaymentProblem, supply: Supply, budget: Budget):
    """Yes or no, without the best plan: Hall's condition decides plain boards exactly
    (its violated set is the proof); otherwise a quick relaxed solve may say yes, and
    the full planner decides the rest."""
    view = plain_view(problem, supply)
    if view is not None:
        if hall_violation(view.needs, view.sources) is None:
            return Payable()
        return _unpayable(problem, supply, budget, hall_certificate(problem, supply, view))
    if _quick_yes(problem, supply, budget):
        return Payable()
    full = _answer_pay(problem, supply, budget, plain_path=False)
    return Payable() if isinstance(full, Plan) else full


def _solve(problem, supply, layers, x, budget: Budget, relaxed=False):
    model = PaymentModel(problem, supply, layers, x, relaxed_tail=relaxed)
    solver, status = model.solve_best(budget.left())
    return model, solver, status


def _precast_help(problem: PaymentProblem, supply: Supply, than: tuple | None, budget: Budget) -> dict:
    """Abilities that can't be activated mid-cast (not mana abilities, or instant-only)
    but would pay the cost (``than`` None) or pay it better than ``than``, activated
    before casting: {permanent id: why it can't be used mid-cast}."""
    precast = {(pid, i): why for pid, i, why in supply.excluded if why in PRECAST_ONLY}
    if not precast or not problem.mid_cast:  # asked with priority: the plan already uses them
        return {}
    wider = build_supply(problem, allow_precast=True)
    try:
        found = best_plan(problem, wider, problem.spell.cost.x, budget)
    except ModelTooLarge:
        return {}  # (a hint beside an answer in hand)
    if isinstance(found, Status):
        return {}
    model, solver, _ = found
    if than is not None and not model.objective_tuple(solver) < than:
        return {}
    helping = {}
    for (l, j, ai), v in model.act_vars.items():
        a = wider.acts[j]
        ids = [pid for pid in wider.groups[a.group].ids if (pid, a.index) in precast]
        for pid in ids[: solver.value(v)]:
            helping[pid] = precast[(pid, a.index)]
    return helping


def _quick_yes(problem: PaymentProblem, supply: Supply, budget: Budget) -> bool:
    """"Can I pay?" without the best plan: a relaxed chain model whose only objective is
    to fund nothing inside its last layer. A solution that does is a real payment (yes);
    anything else goes to the full planner, which also writes the proof of a no."""
    if supply.doubles:
        return False  # its relaxed model bounds a doubling's amount only: the full planner decides
    full = activation_bound(supply)
    layers = min(full, DEPTHS[0])
    try:
        model = PaymentModel(problem, supply, layers, problem.spell.cost.x, relaxed_tail=layers < full)
    except ModelTooLarge:
        return False  # (the full planner says what it can)
    model.minimize_tail_self_funding()
    solver, status = model.solve(budget.left())
    return status.solved and model.tail_is_real(solver)


def best_plan(problem: PaymentProblem, supply: Supply, x, budget: Budget):
    """The optimal plan's model and solver and whether optimality was proven, or
    Status.INFEASIBLE, or Status.UNKNOWN (no answer in time).

    Chains are searched layer by layer: with L layers, the relaxed model (its last layer
    standing for every deeper activation) bounds every plan of any depth from below. If
    its optimum funds nothing inside that last layer, it is a real plan and optimal; if
    the strict L-layer model reaches the same objective, that one is; if the relaxation
    is infeasible, nothing pays. Otherwise L grows (1, 3, 8, then all the way) to the
    deepest chain any plan can have, where the strict model is exact: first bounded by
    counting every activation that costs mana (:func:`solver.chains.activation_bound`),
    then, once one depth has not settled it, by the graph of which ability can fund
    which (:func:`solver.chains.depth_bound`). On the benchmark's chain boards the first
    relaxed solve settles nearly every query; boards with abilities that cost mana
    without tapping (Orochi Leafcaller) need the deeper models.
    """
    if supply.doubles:
        return _best_plan_doubling(problem, supply, x, budget)
    full, tightened = activation_bound(supply), False
    layers = min(full, DEPTHS[0])
    found = None  # the deepest strict plan yet: the answer, not proven best, if nothing better comes
    try:
        while True:
            if layers >= full:
                model, solver, status = _solve(problem, supply, layers, x, budget)
                if status.solved:
                    return model, solver, status == Status.OPTIMAL
                return found if found is not None and status == Status.UNKNOWN else status
            relaxed, rsolver, rstatus = _solve(problem, supply, layers, x, budget, relaxed=True)
            if rstatus == Status.INFEASIBLE:
                return rstatus
            if rstatus == Status.OPTIMAL and relaxed.tail_is_real(rsolver):
                return relaxed, rsolver, True
            model, solver, status = _solve(problem, supply, layers, x, budget)
            if rstatus == status == Status.OPTIMAL and model.objective_tuple(solver) == relaxed.objective_tuple(rsolver):
                return model, solver, True
            if status.solved:
                found = (model, solver, False)
            if not tightened:
                full, tightened = depth_bound(supply), True
                if layers >= full:  # the strict model just solved is deep enough: exact
                    return (model, solver, status == Status.OPTIMAL) if status.solved else status
            if budget.spent:
                return found or Status.UNKNOWN
            layers = full if full <= EXACT_NEXT else min([d for d in DEPTHS if d > layers] + [full])
    except ModelTooLarge:
        if found is None:
            raise
        return found  # (a real plan, the deepest one that could be built)


def _best_plan_doubling(problem: PaymentProblem, supply: Supply, x, budget: Budget):
    """:func:`best_plan` on a board with a doubling (Doubling Cube), whose amount is the
    pool at one point of the plan: a model whose layers fund themselves, one for each
    stretch between doublings, is a relaxation of every plan (its "no" is a proof, its
    optimum a lower bound); strict models of growing depth find the plan, optimal once it
    reaches that bound, or once the depth is that of the deepest chain."""
    full = depth_bound(supply)
    bound = None
    relaxed, rsolver, rstatus = _solve_self_funding(problem, supply, x, budget)
    if rstatus == Status.INFEASIBLE:
        return rstatus
    if rstatus == Status.OPTIMAL:
        bound = relaxed.objective_tuple(rsolver)
    layers, found = min(full, DEPTHS[0]), None
    while True:
        # once a plan is in hand, a deeper model may take half the time left: the plan, not
        # proven best ("optimal": false), still goes out checked within the time guard
        guard = budget if found is None else Budget(budget.left() / 2)
        model, solver, status = _solve(problem, supply, layers, x, guard)
        if status == Status.OPTIMAL and (layers >= full or model.objective_tuple(solver) == bound):
            return model, solver, True
        if status.solved:
            found = (model, solver, False)  # a real plan: the best one yet, not proven best
        if layers >= full or guard.spent:
            if found is not None:
                return found
            return status if layers >= full and status == Status.INFEASIBLE else Status.UNKNOWN
        layers = min([d for d in DEPTHS if d > layers] + [full])


def _solve_self_funding(problem: PaymentProblem, supply: Supply, x, budget: Budget, maximize_x: bool = False):
    """The relaxation of every plan on a board with doublings: a layer for each stretch
    between them, each funding itself (:class:`PaymentModel`, ``self_funding``)."""
    layers = sum(a.cap for a in supply.acts if a.doubles) + 1
    model = PaymentModel(problem, supply, layers, x, self_funding=True)
    if maximize_x:
        model.maximize_x()
        solver, status = model.solve(budget.left())
    else:
        solver, status = model.solve_best(budget.left())
    return model, solver, status


def _check(problem: PaymentProblem, plan: Plan) -> None:
    """Replay a plan with the independent validator; a plan that fails is a bug."""
    errors = validate_plan(problem, plan)
    if errors:
        raise InvalidPlan("the plan failed validation: " + "; ".join(errors))


def _listing(helping) -> str:
    return ", ".join(f"{pid} ({why})" for pid, why in sorted(dict(helping).items()))


def better_before_casting_message(helping) -> str:
    """The sentence for a plan that activating ``helping`` ((id, why) pairs) before
    casting would better (CR 601.2g)."""
    return (f"a better payment exists by activating {_listing(helping)} before casting: those can't be "
            f"activated while a spell is being cast (CR 601.2g)")


def _unpayable(problem: PaymentProblem, supply: Supply, budget: Budget, proof: Unpayable | None = None) -> Unpayable:
    """The proof for an infeasible model: a counting bound if one exists, else the
    exhaustive search, plus a hint when abilities that can't be used mid-cast would help."""
    proof = proof or counting_bound(problem, supply) or Unpayable(NO_PAYMENT, _no_payment_message(problem))
    helping = _precast_help(problem, supply, None, budget)
    if not helping:
        return proof
    message = (f"payable only by activating {_listing(helping)} before casting, since those can't be activated "
               f"while a spell is being cast (CR 601.2g); without them it " + proof.message)
    return Unpayable(NEEDS_ACTIVATION_BEFORE_CASTING, message, proof.certificate, tuple(sorted(helping)),
                     proof.code)


def _no_payment_message(problem: PaymentProblem) -> str:
    cost = problem.spell.cost
    text = str(cost.mana_cost)
    if cost.x:
        text += f" with X={cost.x}"
    return (f"no order of mana abilities pays {text}: every source was counted, but their costs, "
            f"colors and the order they can be activated in leave the cost short")


def _answer_max_x(problem: PaymentProblem, supply: Supply, budget: Budget):
    """The largest X that can be paid: one solve maximising X over a relaxation of every
    plan (the relaxed chain model), then the exact planner at that X, searching down by
    halves only if the relaxation promised too much. The board's grouping serves every X."""
    if problem.spell.cost.x_count == 0:
        return _with_x_announced(_answer_pay(problem.with_x(problem.spell.cost.x), supply, budget), 0)
    if supply.doubles:  # a relaxation of every plan: its X bounds the real one
        model, solver, status = _solve_self_funding(problem, supply, None, budget, maximize_x=True)
    else:
        full = activation_bound(supply)
        layers = min(full, DEPTHS[0])
        model = PaymentModel(problem, supply, layers, None, relaxed_tail=layers < full)
        model.maximize_x()
        solver, status = model.solve(budget.left())
    if status == Status.INFEASIBLE:
        return _unpayable(problem.with_x(0), supply, budget)
    if status != Status.OPTIMAL:
        return budget.undecided()
    high = solver.value(model.x_var)  # an upper bound on X: the relaxation admits every plan
    first = _answer_pay(problem.with_x(high), supply, budget)
    if not isinstance(first, Unpayable):
        return _with_x_announced(first, high)
    best, low, high = None, 0, high - 1  # more X never helps: search down by halves
    while low <= high:
        x = (low + high + 1) // 2
        if budget.spent:
            return budget.undecided()
        out = _answer_pay(problem.with_x(x), supply, budget)
        if isinstance(out, Undecided):
            return out
        if isinstance(out, Plan):
            best, low = (x, out), x + 1
        else:
            high = x - 1
    if best is None:
        return _unpayable(problem.with_x(0), supply, budget)
    return _with_x_announced(best[1], best[0])


def _with_x_announced(result, x: int):
    """A plan says which X it announces (CR 601.2b); other answers stay as they are."""
    return replace(result, x=x) if isinstance(result, Plan) else result
