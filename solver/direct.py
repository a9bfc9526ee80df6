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
  largest pool;
- :func:`forced_outcome`: what every best plan of ``pay`` does on a board of pools (how
  many of each group of alike permanents it taps, the mana it leaves floating), where all
  of them do the same: the activations in order of how many permanents they tap, the
  first count at which the cost is paid being the fewest (each ability in the class taps
  its own permanent, and nothing is sacrificed, paid in life or exiled: the objective's
  first terms are then nought), the flexibility used and the mana left floating next.
  Where best plans differ it says None: which one the planner gives is the planner's.

Each says None where something else bears on the answer: card text not read (a "no" is
then uncertain, and ``can_pay`` says so), choices of the spell's own (another way to cast
it, a kicker, a card discarded or sacrificed, a card cast from the hand whose ability is
on the board), cards to keep, or a board or cost outside the two classes: the caller then
asks ``can_pay`` itself.
"""

from __future__ import annotations

from operator import add

from manaplan.model.plan import NO_PAYMENT, Payable, Unpayable
from manaplan.model.problem import Preference, PaymentProblem
from manaplan.model.symbols import ALL_TYPES, ALL_TYPES_MASK, type_mask
from manaplan.solver.hall import hall_violation, plain_board, plain_needs, plain_view, supply_vector, two_way_payable
from manaplan.solver.pools import (groups_in_class, left_after, left_after_any, pool_can_pay, reachable_pools,
                                   spell_in_class)
from manaplan.solver.supply import build_supply, weighed_by_hand
from manaplan.solver.unread import unless_unread


def can_pay_directly(problem: PaymentProblem) -> bool | None:
    """Whether the spell can be paid, as ``can_pay`` answers it, where the board is plain
    or of pools and nothing else bears (the module's docstring); else None."""
    if not _no_choice_of_its_own(problem):
        return None
    supply = build_supply(problem)
    view = plain_view(problem, supply)
    found: bool | None
    if view is not None:
        found = hall_violation(view.needs, view.sources) is None
    else:
        found = two_way_payable(problem, supply)
        if found is None:
            found = pool_can_pay(problem, supply)
    return found if found is not None and _no_text_unread(problem) else None


def most_generic(problem: PaymentProblem) -> int | None:
    """The largest N for which the board (and the mana floating) pays ``{N}`` for the
    problem's spell (its kind and restrictions; its cost must be generic mana alone, as
    printed, of any amount), or None where this module does not decide it."""
    cost = problem.spell.cost
    if cost.additional or cost.increase or cost.reduce or cost.minimum or cost.x:
        return None
    needs = plain_needs(cost)
    if needs is None or set(needs) != {ALL_TYPES} or not _no_choice_of_its_own(problem):
        return None
    supply = build_supply(problem)
    board = plain_board(problem, supply)
    if board is not None:  # (what Hall's condition weighs for the set of every type)
        found = supply_vector(board[0])[ALL_TYPES_MASK]
    else:
        pools = reachable_pools(supply) if spell_in_class(problem) else None
        if pools is None:
            return None
        found = max((pool[1][ALL_TYPES_MASK] for pool in pools), default=0)
    return found if _no_text_unread(problem) else None


#: the most states (pool and untapped permanents) :func:`forced_outcome` visits before it
#: leaves the board to the planner
MOST_OUTCOME_STATES = 5_000


def forced_outcome(problem: PaymentProblem):
    """(((a group's ids, how many of them every best plan taps), ...), the mana it leaves
    floating as counts of W U B R G C) where the best plans of ``pay`` all tap as many of
    each group of alike permanents and leave the same mana (which of a group's alike
    permanents is the planner's choice); False where no plan pays; None outside the class
    (the module's docstring, and the request's own order of the objective's terms), past
    :data:`MOST_OUTCOME_STATES`, or where best plans differ."""
    if problem.prefer != Preference() or not spell_in_class(problem) or not _no_choice_of_its_own(problem):
        return None
    needs = plain_needs(problem.spell.cost)
    if needs is None:
        return None
    supply = weighed_by_hand(build_supply(problem), problem.color_needs)  # (the objective's flexibility)
    shape = groups_in_class(supply)
    if shape is None or not _no_text_unread(problem):
        return None
    start, groups = shape
    sizes = tuple(group.size for group, _ in groups)
    units = tuple(type_mask(types) for types, n in needs.items() for _ in range(n))
    layer = {(start, sizes)}
    seen = len(layer)
    flexibility = [group.flexibility for group, _ in groups]
    while layer:
        # (each state of a layer has as many permanents tapped; what a payment leaves floating
        # is its pool less the cost's units: the states in order of the terms left, each paid
        # every way only until the best that pays is known)
        ranked = sorted((sum(flex * (size - left) for flex, size, left in zip(flexibility, sizes, untapped)),
                         sum(pool), pool, untapped) for pool, untapped in layer)
        best, outcomes = None, set[tuple]()
        for flex, total, pool, untapped in ranked:
            if best is not None and (flex, total) > best:
                break
            lefts = left_after(pool, units)
            if not lefts:
                continue
            best = (flex, total)
            tapped = tuple(size - left for size, left in zip(sizes, untapped))
            outcomes.update((tapped, left) for left in lefts)
            if len(outcomes) > 1:
                return None
        if best is not None:  # (the fewest permanents tapped: the first layer that pays)
            ((tapped, left),) = outcomes
            return tuple((group.ids, n) for (group, _), n in zip(groups, tapped) if n), left
        layer = _one_more_tap(layer, groups)
        seen += len(layer)
        if seen > MOST_OUTCOME_STATES:
            return None
    return False


def _one_more_tap(layer: set, groups: list) -> set:
    """The states one more activation reaches (each ability in the class taps its own
    permanent: one permanent more tapped), its mana cost paid from the pool every way."""
    out = set()
    for pool, untapped in layer:
        for g, (_, terms) in enumerate(groups):
            if not untapped[g]:
                continue
            rest = untapped[:g] + (untapped[g] - 1,) + untapped[g + 1:]
            for costs, outputs in terms:
                for paid in (left_after_any(pool, costs) if costs else (pool,)):
                    for made in outputs:
                        out.add((tuple(map(add, paid, made)), rest))
    return out


def _no_choice_of_its_own(problem: PaymentProblem) -> bool:
    """Whether ``can_pay``'s answer is the board's alone as far as the question goes: the
    spell has a mana cost (CR 202.1b), no choice of its own (``solver.one_spell.answer_alone``),
    is not a card of the hand with an ability on the board (``PaymentProblem.for_spell``),
    and no card is to be kept."""
    spell = problem.spell
    return not (spell.cost.mana_cost is None or problem.keep or spell.from_hand is not None
                or spell.alternative_costs or spell.discards or spell.sacrifices or spell.kicker is not None
                or spell.multikicker is not None)


def _no_text_unread(problem: PaymentProblem) -> bool:
    """Whether no text that was not read turns a yes or a no into "unknown"
    (``solver.unread.unless_unread``): asked last, once the board is known to be in the
    class (the rest of a deck's boards are not asked it twice)."""
    yes, no = Payable(), Unpayable(NO_PAYMENT, "")
    return unless_unread(problem, yes) is yes and unless_unread(problem, no) is no
