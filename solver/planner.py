"""The payment planner: one question in, a plan or a proof out, as values.

Each Magic query's answer (named by its entry in the registry of queries,
``manaplan.queries``) is one function here, taking the problem and the question's time
guard: one spell's (``solver.one_spell``: ``pay``, ``max_x``, ``can_pay``, each card of
``castable``), several payments' (``solver.several``: keeps, ``sequence``,
``best_turn``), each through the rule about unread card text (``solver.unread``).
:func:`run` starts the time guard and makes a model too large to build an undecided
answer, never a guess.
"""

from __future__ import annotations

from manaplan.model.deadline import answering_until
from manaplan.model.errors import ModelTooLarge, OutOfTime
from manaplan.model.plan import TIME_LIMIT, Castable
from manaplan.model.problem import PaymentProblem
from manaplan.solver.one_spell import answer_alone
from manaplan.solver.runtime import SolverLoading
from manaplan.solver.search import Budget, too_large
from manaplan.solver.several import answer_best_turn, answer_keeping, answer_sequence
from manaplan.solver.unread import unless_unread


def run(answer_with, problem: PaymentProblem, time_limit: float = TIME_LIMIT, plain_path: bool = True,
        started: float | None = None):
    """``answer_with(problem, budget, plain_path)`` (one query's answer, below) within
    ``time_limit`` seconds from ``started`` (``time.monotonic()`` when the request came
    in; default now), every solve it needs sharing that one guard: a :class:`Plan`
    (validated), :class:`Unpayable` with its proof, :class:`Undecided` when the guard
    runs out or the model would be too large, :class:`Payable` for a yes/no question,
    :class:`Castable`, :class:`Sequence` or :class:`BestTurn`.

    ``plain_path`` False sends plain boards through the general model too (tests compare
    the two; the benchmark measures both)."""
    budget = Budget(time_limit, started)
    with answering_until(budget.deadline):
        try:
            return answer_with(problem, budget, plain_path)
        except ModelTooLarge as e:
            return too_large(e)
        except (SolverLoading, OutOfTime):  # (the time ran out while OR-Tools loaded, or a model was built)
            return budget.undecided()


def pay_answer(problem: PaymentProblem, budget: Budget, plain_path: bool = True):
    """``pay``, ``max_x``, ``can_pay``: one spell, never paid by exiling itself from the
    hand (CR 601.2a), keeping cards castable or mana open when asked."""
    problem = problem.for_spell(problem.spell, problem.query)
    if problem.keep:
        return unless_unread(problem, answer_keeping(problem, budget, plain_path))
    return unless_unread(problem, answer_alone(problem, budget, plain_path))


def castable_answer(problem: PaymentProblem, budget: Budget, plain_path: bool = True):
    """``castable``: each card of the hand as ``pay`` answers it alone."""
    cards = [(spell, problem.for_spell(spell)) for spell in problem.hand]
    return Castable(tuple((spell, unless_unread(alone, _alone_in_time(alone, budget, plain_path)))
                          for spell, alone in cards))


def _alone_in_time(problem: PaymentProblem, budget: Budget, plain_path: bool):
    """One card of ``castable``: undecided if its time ran out while OR-Tools loaded."""
    try:
        return answer_alone(problem, budget, plain_path)
    except SolverLoading:
        return budget.undecided()


def sequence_answer(problem: PaymentProblem, budget: Budget, plain_path: bool = True):
    """``sequence``: the spells paid one after another (solver.several)."""
    return unless_unread(problem, answer_sequence(problem, budget))


def best_turn_answer(problem: PaymentProblem, budget: Budget, plain_path: bool = True):
    """``best_turn`` (solver.several): card text not read is listed in its
    ``not_modelled``, never a "no"."""
    return answer_best_turn(problem, budget)
