"""One Magic payment question, apart from any JSON: the spell, the board, the player.

``manaplan.protocol.mtg`` reads requests into these; Python code may build them directly.

>>> from manaplan.model.sources import Ability, AbilityCost, Output, Permanent
>>> forest = Permanent("f1", abilities=(Ability(AbilityCost(tap=True), Output.parse("{G}")),))
>>> problem = PaymentProblem(Spell(SpellCost.of("{G}")), Board((forest,)), Player())
>>> problem.query, [p.id for p in problem.board.permanents]
('pay', ['f1'])
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .cost import SpellCost
from .restrictions import restriction_allows
from .sources import Board, Player

#: what a Magic request may ask: the best plan, the largest X, yes/no, or which cards of
#: a hand can be cast now
PAY, MAX_X, CAN_PAY, CASTABLE = "pay", "max_x", "can_pay", "castable"
QUERIES = (PAY, MAX_X, CAN_PAY, CASTABLE)
#: the queries about a hand rather than one spell
HAND_QUERIES = (CASTABLE,)


@dataclass(frozen=True)
class Spell:
    """The spell being cast: its cost, and what restrictions on mana look at (its name,
    type line and colors); convoke, improvise and delve (CR 702.51, 702.126, 702.66)."""

    cost: SpellCost
    name: str = ""
    type_line: str = ""
    convoke: bool = False
    improvise: bool = False
    delve: bool = False
    id: str = ""  # a card in a hand: its id, echoed in answers
    value: int | None = None  # what casting it is worth (best_turn); None: its mana value

    @property
    def worth(self) -> int:
        """Its ``value``, or else its mana value (CR 202.3: X is 0 off the stack)."""
        if self.value is not None:
            return self.value
        return self.cost.mana_cost.mana_value if self.cost.mana_cost else 0

    @property
    def colors(self) -> frozenset:
        return self.cost.mana_cost.colors if self.cost.mana_cost else frozenset()

    def allows(self, restrict: str) -> bool:
        """Whether mana restricted by ``restrict`` may be spent on this spell (CR 106.6)."""
        return restriction_allows(restrict, self.type_line, self.colors)

    def with_x(self, x: int) -> "Spell":
        """The same spell cast with X = ``x`` (CR 107.3, 601.2b)."""
        return replace(self, cost=replace(self.cost, x=x))


@dataclass(frozen=True)
class PaymentProblem:
    """One Magic payment question: can ``spell`` be paid from ``board`` and ``player``,
    and how best (``query``: :data:`PAY`, :data:`MAX_X` or :data:`CAN_PAY`)? With
    :data:`CASTABLE`, the question is asked of each spell in ``hand`` instead."""

    spell: Spell
    board: Board
    player: Player
    query: str = PAY
    hand: tuple = ()  # Spells with ids: the cards a hand question is about

    def __post_init__(self):
        # amounts counted on the board (Gaea's Cradle, devotion) are counted once, here,
        # however the problem was built (see Board.resolve_amounts)
        object.__setattr__(self, "board", self.board.resolve_amounts())

    def with_x(self, x: int) -> "PaymentProblem":
        """The ``pay`` question for the spell cast with X = ``x``, on the same board (its
        grouping is kept, see ``Board.grouping``)."""
        return replace(self, spell=self.spell.with_x(x), query=PAY)

    def for_spell(self, spell: Spell) -> "PaymentProblem":
        """The ``pay`` question for ``spell`` (a card of the hand) on the same board."""
        return replace(self, spell=spell, query=PAY)

    def after(self, plan) -> tuple:
        """(board, player) after carrying ``plan`` out: see :meth:`Board.after` and
        :meth:`Player.after`."""
        return self.board.after(plan), self.player.after(plan)
