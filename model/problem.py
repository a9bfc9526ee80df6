"""One Magic payment question, apart from any JSON: the spell, the board, the player.

``manaplan.protocol.mtg`` reads requests into these; Python code may build them directly.

>>> from manaplan.model.sources import Ability, AbilityCost, Output, Permanent
>>> forest = Permanent("f1", abilities=(Ability(AbilityCost(tap=True), Output.parse("{G}")),))
>>> problem = PaymentProblem(Spell(SpellCost.of("{G}")), Board((forest,)), Player())
>>> problem.query, [p.id for p in problem.board.permanents]
('pay', ['f1'])
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cached_property

from .board_mana import resolve_board_mana
from .cost import SpellCost
from .mana import Mana, ManaCost
from .plan import POOL
from .restrictions import restriction_allows
from .sources import Board, Player

#: what a Magic request may ask: the best plan, the largest X, yes/no, or which cards of
#: a hand can be cast now
PAY, MAX_X, CAN_PAY, CASTABLE, SEQUENCE, BEST_TURN = "pay", "max_x", "can_pay", "castable", "sequence", "best_turn"
QUERIES = (PAY, MAX_X, CAN_PAY, CASTABLE, SEQUENCE, BEST_TURN)
#: the queries about several spells rather than one
HAND_QUERIES = (CASTABLE, SEQUENCE, BEST_TURN)
#: the orders a sequence may be paid in: as given, or any that works
GIVEN, ANY_ORDER = "given", "any"
#: the default objective's terms, most important first (docs/protocol.md, "The default
#: objective"); ``spared`` counts the permanents a preference keeps untapped that the
#: plan taps or sacrifices
OBJECTIVE_TERMS = ("before_casting", "sacrificed", "life", "spared", "tapped", "exiled", "flexibility", "floating")


def renewed(value, **changes):
    """``dataclasses.replace`` for a value whose checks (``__post_init__``) don't look at
    the fields changed: the fields copied as they are, without running the checks again,
    and without what was cached on ``value`` (a ``cached_property``). A hand's questions
    make a problem per card, and a request a spell per card: this is their hot path."""
    new = object.__new__(type(value))
    state = value.__dict__
    new.__dict__.update({name: state[name] for name in _field_names(type(value))})
    new.__dict__.update(changes)
    return new


def _field_names(cls) -> tuple:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


_FIELD_NAMES: dict = {}



@dataclass(frozen=True)
class Preference:
    """A request's changes to the default objective (``prefer``): the terms named in
    ``order`` come first, in that order, the others after in their default order (life
    is cheap at 20: ``("tapped", "life")``); permanents in ``never_sacrifice`` are not
    sacrificed; those in ``keep_untapped`` are tapped or sacrificed only when needed
    (the ``spared`` term)."""

    order: tuple = ()
    never_sacrifice: frozenset = frozenset()
    keep_untapped: frozenset = frozenset()

    @property
    def ranked(self) -> tuple:
        """The terms' names in the order they count."""
        return tuple(self.order) + tuple(t for t in OBJECTIVE_TERMS if t not in self.order)

    def rank(self, values) -> tuple:
        """Values in the default order (an Objective), put in this preference's order."""
        if not self.order:
            return tuple(values)
        by_name = dict(zip(OBJECTIVE_TERMS, values))
        return tuple(by_name[t] for t in self.ranked)
#: a spell's choices left to the planner: kick it when the board allows, kick it as many
#: times as the board allows
IF_POSSIBLE, MOST = "if_possible", "max"


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
    kicker: ManaCost | None = None  # CR 702.33a: an optional additional cost
    kicked: object = False  # True, False, or IF_POSSIBLE: paid whenever the board allows
    multikicker: ManaCost | None = None  # CR 702.33c: paid any number of times
    kicks: object = 0  # how many times, or MOST: as many as the board allows
    printed: ManaCost | None = None  # cast for an alternative cost (CR 118.9): the mana cost printed
    #: what it leaves when it resolves, for a later spell of the same step: the mana a
    #: ritual adds (Dark Ritual: B, B, B; it is a spell, not a mana ability: CR 605.5b),
    #: or the permanent a permanent spell becomes (Sol Ring's ability is usable, a
    #: creature is summoning sick: CR 302.6)
    adds: tuple = ()
    permanent: object = None
    #: a card whose ability exiles it from the hand for mana (Simian Spirit Guide, CR
    #: 605.1a): that ability as a source, like a permanent sacrificed for mana
    from_hand: object = None
    #: the spell is the player's commander (CR 903.3): mana spendable only on it may pay
    commander: bool = False
    #: its colors when given rather than read from its mana cost (devoid, a color indicator)
    given_colors: frozenset | None = None
    #: it has changeling: every creature type (CR 702.73a), for restrictions naming one
    changeling: bool = False
    #: lines of its text about the mana it adds on resolving that could not be read, as
    #: (line, why): a "no" for a sequence with it is not certain
    unread: tuple = ()
    #: the request said how its cost changes (``increase``, ``reduce`` or ``minimum``
    #: given, even empty): text on the board that changes costs is then the caller's
    cost_changes_given: bool = False

    @property
    def mana_cost(self) -> ManaCost | None:
        """The mana cost printed on the card: an alternative cost leaves it as it is, for
        its colors and mana value (CR 118.9c)."""
        return self.printed or self.cost.mana_cost

    @property
    def worth(self) -> int:
        """Its ``value``, or else its mana value (CR 202.3: X is 0 off the stack)."""
        if self.value is not None:
            return self.value
        return self.mana_cost.mana_value if self.mana_cost else 0

    @property
    def colors(self) -> frozenset:
        """Its colors: given (devoid, a color indicator: CR 702.114a, 202.2e), or those of
        its mana cost (CR 105.2)."""
        if self.given_colors is not None:
            return self.given_colors
        return self.mana_cost.colors if self.mana_cost else frozenset()

    @cached_property
    def colored_symbols(self) -> tuple:
        """(color, how many of its printed symbols have it) for each of WUBRG: a hybrid
        symbol counts for each of its colors (what the rest of a hand asks the objective
        to keep: :attr:`PaymentProblem.color_needs`)."""
        out: dict = {}
        for s in self.mana_cost.symbols if self.mana_cost is not None else ():
            for c in s.colors:
                if c in "WUBRG":
                    out[c] = out.get(c, 0) + 1
        return tuple(out.items())

    @property
    def is_land(self) -> bool:
        """A land card (CR 305.1): played, not cast."""
        return "Land" in self.type_line.replace("—", " ").split()

    @property
    def choices_open(self) -> bool:
        """Whether the kicker or the number of kicks is still to be chosen (CR 601.2b)."""
        return self.kicked == IF_POSSIBLE or self.kicks == MOST

    def with_kicks(self, kicked: bool, kicks: int) -> "Spell":
        """The spell cast with its kicker paid or not and its multikicker paid ``kicks``
        times: additional costs (CR 702.33, 601.2f), no choice left."""
        extra = ()
        if kicked and self.kicker is not None:
            extra += (self.kicker,)
        if kicks and self.multikicker is not None:
            extra += (ManaCost(self.multikicker.symbols * kicks),)
        return replace(self, cost=replace(self.cost, additional=self.cost.additional + extra),
                       kicker=None, kicked=False, multikicker=None, kicks=0)

    def allows(self, restrict: str) -> bool:
        """Whether mana restricted by ``restrict`` may be spent on this spell (CR 106.6)."""
        return restriction_allows(restrict, self.type_line, self.colors, self.commander, self.changeling)

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
    keep: tuple = ()  # Spells that must stay payable after a pay (kept cards, kept mana)
    keep_together: bool = False  # ... all together rather than each on its own
    spells: tuple = ()  # a sequence: the spells paid one after another
    order: str = GIVEN  # ... in the given order, or ANY_ORDER
    land_drop: bool = True  # best_turn: a land of the hand may be played first (CR 305.2)
    #: the question is asked while the spell is being cast (CR 601.2g): only mana
    #: abilities usable then; by default it is asked while the player has priority, so
    #: other abilities that make mana may be activated first (``before_casting`` steps)
    mid_cast: bool = False
    prefer: Preference = Preference()
    #: the permanents the opponents control, when given (None: not given): what some
    #: card text reads (Exotic Orchard, Priest of Titania); they never pay
    opponents: tuple | None = None

    def __post_init__(self):
        # amounts counted on the board (Gaea's Cradle, devotion) are counted once, here,
        # however the problem was built (see Board.resolve_amounts)
        object.__setattr__(self, "board", resolve_board_mana(self.board, self.player, self.opponents).resolve_amounts())

    def with_x(self, x: int) -> "PaymentProblem":
        """The ``pay`` question for the spell cast with X = ``x``, on the same board (its
        grouping is kept, see ``Board.grouping``)."""
        return replace(self, spell=self.spell.with_x(x), query=PAY)

    @cached_property
    def color_needs(self) -> dict:
        """The colored symbols the rest of the hand asks for, by color (a hybrid symbol
        for each of its colors): what the flexibility term keeps untapped."""
        out: dict = {}
        for card in self.hand:
            if card.id and card.id == self.spell.id:
                continue
            for c, n in card.colored_symbols:
                out[c] = out.get(c, 0) + n
        return out

    def with_kicks(self, kicked: bool, kicks: int) -> "PaymentProblem":
        """The same question with the spell's kicker and multikicker chosen."""
        return replace(self, spell=self.spell.with_kicks(kicked, kicks))

    def for_spell(self, spell: Spell) -> "PaymentProblem":
        """The ``pay`` question for ``spell`` (a card of the hand) on the same board; a
        card can't be exiled from the hand to pay for casting itself."""
        if spell.from_hand is not None:
            board = Board(tuple(p for p in self.board.permanents if p is not spell.from_hand))
            return replace(self, spell=spell, query=PAY, board=board)
        return renewed(self, spell=spell, query=PAY)  # the same board: nothing to resolve again

    def after_cast(self, plan) -> "PaymentProblem":
        """The problem a later spell of the same step starts from (CR 106.4: the pool
        empties between steps, not between spells): the board after ``plan`` with the
        permanent the spell became, the life it cost, its floating mana (what may be
        carried: :meth:`Player.after`) and the mana the spell added on resolving."""
        board, player = self.after(plan)
        if self.spell.permanent is not None:
            board = Board(board.permanents + (self.spell.permanent,))
        return replace(self, board=board, player=replace(player, pool=pool_after_cast(player.pool, self.spell)))

    def after(self, plan) -> tuple:
        """(board, player) after carrying ``plan`` out: see :meth:`Board.after` and
        :meth:`Player.after`."""
        return self.board.after(plan), self.player.after(plan)


def pool_after_cast(floating: tuple, spell: Spell) -> tuple:
    """The pool a later spell of the step finds: what floats after the payment (already
    carried over: :meth:`Player.after`) and the mana ``spell`` added on resolving."""
    return floating + tuple(Mana(t, source=POOL) for t in spell.adds)
