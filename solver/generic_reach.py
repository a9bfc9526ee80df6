"""The most generic mana a board pays at once: the largest N for which ``can_pay`` of a
spell costing ``{N}`` alone says yes, found in one pass where ``can_pay`` decides every
N the same exact way (``solver.one_spell.answer_can_pay``):

- a plain board (each source makes one mana for {T}): Hall's condition, where N generic
  mana may be paid with mana of any type (CR 107.4c, 601.2h), asks only that the board's
  sources number N or more;
- a board of tap abilities that make several mana or cost mana (Signets, filter lands,
  bounce lands): the largest pool it can make (``solver.pools``).

Elsewhere (and for any cost that is not generic mana alone, as printed: no additional
cost, increase, reduction or floor) it says None, and the caller asks N by N. A deck's
analysis asks this of every board it meets (how far its mana reaches), in place of a
halving search of ``can_pay`` questions.
"""

from __future__ import annotations

from manaplan.model.plan import NO_PAYMENT, Payable, Unpayable
from manaplan.model.problem import PaymentProblem
from manaplan.model.symbols import ALL_TYPES, ALL_TYPES_MASK
from manaplan.solver.hall import plain_board, plain_needs, supply_vector
from manaplan.solver.pools import reachable_pools, spell_in_class
from manaplan.solver.supply import build_supply
from manaplan.solver.unread import unless_unread


def most_generic(problem: PaymentProblem) -> int | None:
    """The largest N for which the board (and the mana floating) pays ``{N}`` for the
    problem's spell (its kind and restrictions; its cost must be generic mana alone, of
    any amount), or None where this module does not decide it (above)."""
    spell, cost = problem.spell, problem.spell.cost
    if cost.additional or cost.increase or cost.reduce or cost.minimum or cost.x:
        return None
    if (problem.keep or spell.alternative_costs or spell.discards or spell.sacrifices or spell.kicker is not None
            or spell.multikicker is not None):
        return None  # (choices of their own: solver.one_spell.answer_alone)
    yes, no = Payable(), Unpayable(NO_PAYMENT, "")
    if unless_unread(problem, yes) is not yes or unless_unread(problem, no) is not no:
        return None  # (text not read makes some answer uncertain: asked N by N, it says so)
    needs = plain_needs(cost)
    if needs is None or set(needs) != {ALL_TYPES}:
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
