"""The payment planner: one question in, a plan or a proof out, as values.

:func:`answer` is the one way into the solvers for a :class:`PaymentProblem`: it starts
the question's time guard and hands the problem to the answer of its query: one spell's
(``solver.one_spell``: ``pay``, ``max_x``, ``can_pay``, each card of ``castable``),
several payments' (``solver.several``: keeps, ``sequence``, ``best_turn``), each through
the rule about unread card text (``solver.unread``). A model too large to build makes the
answer undecided, never a guess.
"""

from __future__ import annotations

from ..model.errors import ModelTooLarge
from ..model.plan import TIME_LIMIT, Castable
from ..model.problem import BEST_TURN, CASTABLE, SEQUENCE, PaymentProblem

from .one_spell import answer_alone
from .search import Budget, too_large
from .several import answer_best_turn, answer_keeping, answer_sequence
from .unread import unless_unread


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
        return too_large(e)


def _answer_query(problem: PaymentProblem, budget: Budget, plain_path: bool):
    """:func:`answer`'s work, by query."""
    if problem.query == CASTABLE:
        cards = [(spell, problem.for_spell(spell)) for spell in problem.hand]
        return Castable(tuple((spell, unless_unread(alone, answer_alone(alone, budget, plain_path)))
                              for spell, alone in cards))
    if problem.query == SEQUENCE:
        return unless_unread(problem, answer_sequence(problem, budget))
    if problem.query == BEST_TURN:
        return answer_best_turn(problem, budget)  # (card text not read: listed in not_modelled)
    problem = problem.for_spell(problem.spell, problem.query)  # (never paid by exiling itself)
    if problem.keep:
        return unless_unread(problem, answer_keeping(problem, budget, plain_path))
    return unless_unread(problem, answer_alone(problem, budget, plain_path))
