"""Yes/no answers decided in one step, where the planner would decide them the same exact
way: the questions a deck's analysis asks of every board it meets, thousands of times a
run, without the planner's round of a request (its time guard, its kept answers, its
proof of a no).

- :func:`can_pay_directly`: ``can_pay`` on a plain board (each source makes one mana for
  {T}: Hall's condition, every announcement of a twobrid or Phyrexian symbol tried) or a
  board of tap abilities that make several mana or cost mana (Signets, filter lands,
  bounce lands: the pools the board can make, ``solver.pools``), as
  ``solver.one_spell.answer_can_pay`` decides them;
- :func:`most_generic`: the largest N for which ``can_pay`` of ``{N}`` says yes: on a
  plain board, Hall's condition for N generic mana (payable with mana of any type, CR
  107.4c, 601.2h) asks only that the sources number N or more; on a board of pools, the
  largest pool.

Each says None where something else bears on the answer: card text not read (a "no" is
then uncertain, and ``can_pay`` says so), choices of the spell's own (another way to cast
it, a kicker, a card discarded or sacrificed, a card cast from the hand whose ability is
on the board), cards to keep, or a board or cost outside the two classes: the caller then
asks ``can_pay`` itself.
"""

from __future__ import annotations

from manaplan.model.plan import NO_PAYMENT, Payable, Unpayable
from manaplan.model.problem import PaymentProblem
from manaplan.model.symbols import ALL_TYPES, ALL_TYPES_MASK
from manaplan.solver.hall import hall_violation, plain_board, plain_needs, plain_view, supply_vector, two_way_payable
from manaplan.solver.pools import pool_can_pay, reachable_pools, spell_in_class
from manaplan.solver.supply import build_supply
from manaplan.solver.unread import unless_unread


def can_pay_directly(problem: PaymentProblem) -> bool | None:
    """Whether the spell can be paid, as ``can_pay`` answers it, where the board is plain
    or of pools and nothing else bears (the module's docstring); else None."""
    if not _decided_by_the_board(problem):
        return None
    supply = build_supply(problem)
    view = plain_view(problem, supply)
    if view is not None:
        return hall_violation(view.needs, view.sources) is None
    two_way = two_way_payable(problem, supply)
    if two_way is not None:
        return two_way
    return pool_can_pay(problem, supply)


def most_generic(problem: PaymentProblem) -> int | None:
    """The largest N for which the board (and the mana floating) pays ``{N}`` for the
    problem's spell (its kind and restrictions; its cost must be generic mana alone, as
    printed, of any amount), or None where this module does not decide it."""
    cost = problem.spell.cost
    if cost.additional or cost.increase or cost.reduce or cost.minimum or cost.x:
        return None
    needs = plain_needs(cost)
    if needs is None or set(needs) != {ALL_TYPES} or not _decided_by_the_board(problem):
        return None
    supply = build_supply(problem)
    board = plain_board(problem, supply)
    if board is not None:  # (what Hall's condition weighs for the set of every type)
        return supply_vector(board[0])[ALL_TYPES_MASK]
    if not spell_in_class(problem):
        return None
    pools = reachable_pools(supply)
    if pools is None:
        return None
    return max((pool[1][ALL_TYPES_MASK] for pool in pools), default=0)


def _decided_by_the_board(problem: PaymentProblem) -> bool:
    """Whether ``can_pay``'s answer is the board's yes or no alone: the spell has a mana
    cost (CR 202.1b), no choice of its own (``solver.one_spell.answer_alone``), is not a
    card of the hand with an ability on the board (``PaymentProblem.for_spell``), no card
    is to be kept, and no text not read turns a yes or a no into "unknown"
    (``solver.unread.unless_unread``)."""
    spell = problem.spell
    if (spell.cost.mana_cost is None or problem.keep or spell.from_hand is not None or spell.alternative_costs
            or spell.discards or spell.sacrifices or spell.kicker is not None or spell.multikicker is not None):
        return False
    yes, no = Payable(), Unpayable(NO_PAYMENT, "")
    return unless_unread(problem, yes) is yes and unless_unread(problem, no) is no
