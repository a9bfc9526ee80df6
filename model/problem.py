"""One Magic payment question, apart from any JSON: the spell, the board, the player.

``manaplan.protocol.mtg`` reads requests into these; Python code may build them directly.

>>> from manaplan.model.abilities import Ability, AbilityCost, Output
>>> from manaplan.model.board import Permanent
>>> forest = Permanent("f1", abilities=(Ability(AbilityCost(tap=True), Output.parse("{G}")),))
>>> problem = PaymentProblem(Spell(SpellCost.of("{G}")), Board((forest,)), Player())
>>> problem.query, [p.id for p in problem.board.permanents]
('pay', ['f1'])
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Final, Literal

from manaplan.model.board import (COST_EFFECTS, COUNTS, DEPENDS_ON_BOARD, GIVES_HASTE, Board, Permanent,
                                  PermanentsByBody, Player)
from manaplan.model.cost import SpellCost, total_before_announcing  # noqa: F401 (the latter: a doctest)
from manaplan.model.cost_effects import apply_cost_effects
from manaplan.model.dependent_mana import resolve_board_mana
from manaplan.model.entering import UNLESS_OPPONENTS, EntersRule
from manaplan.model.haste import haste_givers, reached, with_haste
from manaplan.model.land_types import as_it_enters
from manaplan.model.mana import Mana, ManaCost
from manaplan.model.plan import POOL
from manaplan.model.restrictions import restriction_allows
from manaplan.model.spell_text import read_spell_text  # noqa: F401 (its doctest)
from manaplan.model.symbols import GENERIC, MAX_AMOUNT, Symbol
from manaplan.model.written_plan import WrittenPlan

#: what a Magic request may ask: the best plan, the largest X, yes/no, or which cards of
#: a hand can be cast now
PAY, MAX_X, CAN_PAY, CASTABLE, SEQUENCE, BEST_TURN = "pay", "max_x", "can_pay", "castable", "sequence", "best_turn"
#: the referee's query: another engine's plan (or its "can't be paid") judged (solver.referee)
CHECK = "check"
#: the total cost of a spell on the board, where each part came from, without paying
TOTAL_COST = "total_cost"
#: the orders a sequence may be paid in: as given, or any that works
GIVEN, ANY_ORDER = "given", "any"
#: best_turn's land drop only when it helps the turn's spells (protocol 2.x's rule)
WHEN_NEEDED = "when_needed"
#: the default objective's terms, most important first (docs/protocol.md, "The default
#: objective"); ``spared`` counts the permanents a preference keeps untapped that the
#: plan taps or sacrifices
OBJECTIVE_TERMS = ("before_casting", "sacrificed", "life", "spared", "tapped", "exiled", "flexibility", "floating")


def copied_with(value, **changes):
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
    #: (not a request field) permanents that leave as the spell is cast whatever the plan
    #: (sacrificed for its additional cost: solver.one_spell): tapping them keeps no
    #: flexibility, so the flexibility term counts them as untapped
    gone: frozenset = frozenset()

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
IF_POSSIBLE: Final = "if_possible"
MOST: Final = "max"
#: the other ways to cast a card for mana alone that a turn chooses among (Spell.ways):
#: bestow's Aura needs a creature to enchant, which a turn does not follow
FOLLOWED_IN_A_TURN = ("evoke", "dash", "overload")


def kicked_times(multikicker: ManaCost, kicks: int) -> ManaCost:
    """A multikicker paid ``kicks`` times, as one additional cost (CR 702.33c): its
    generic mana as one symbol of the whole amount, each other symbol ``kicks`` times
    (Everflowing Chalice's ``{2}`` kicked three times is ``{6}``; ``{0}`` adds nothing:
    a million kicks are not a million symbols)."""
    generic = sum(s.amount for s in multikicker.symbols if s.kind == GENERIC) * kicks
    others = tuple(s for s in multikicker.symbols if s.kind != GENERIC) * kicks
    return ManaCost(((Symbol(GENERIC, (), generic),) if generic else ()) + others)


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
    kicked: bool | Literal["if_possible"] = False  # True, False, or IF_POSSIBLE: paid whenever the board allows
    multikicker: ManaCost | None = None  # CR 702.33c: paid any number of times
    kicks: int | Literal["max"] = 0  # how many times, or MOST: as many as the board allows
    printed: ManaCost | None = None  # cast for an alternative cost (CR 118.9): the mana cost printed
    #: what it leaves when it resolves, for a later spell of the same step: the mana a
    #: ritual adds (Dark Ritual: B, B, B; it is a spell, not a mana ability: CR 605.5b),
    #: or the permanent a permanent spell becomes (Sol Ring's ability is usable, a
    #: creature is summoning sick: CR 302.6)
    adds: tuple = ()
    permanent: Permanent | None = None
    #: a card whose ability exiles it from the hand for mana (Simian Spirit Guide, CR
    #: 605.1a): that ability as a source, like a permanent sacrificed for mana
    from_hand: Permanent | None = None
    #: the spell is the player's commander (CR 903.3): mana spendable only on it may pay
    commander: bool = False
    #: its colors when given rather than read from its mana cost (devoid, a color indicator)
    given_colors: frozenset | None = None
    #: how many targets it is cast with: what "costs {1} more to cast for each target beyond
    #: the first" counts (Fireball); one unless the request says (``targets``)
    targets: int = 1
    #: it has changeling: every creature type (CR 702.73a), for restrictions naming one
    changeling: bool = False
    #: lines of its text about the mana it adds on resolving that could not be read, as
    #: (line, why): a "no" for a sequence with it is not certain
    unread: tuple = ()
    #: the request said how its cost changes (``increase``, ``reduce`` or ``minimum``
    #: given, even empty): text on the board that changes costs is then the caller's
    cost_changes_given: bool = False
    #: the parts of its total that the board's cost effects added (model.cost_effects
    #: .AppliedCost), once they were applied (``cost_effects_applied``)
    cost_effects: tuple = field(default=(), compare=False)
    cost_effects_applied: bool = field(default=False, compare=False)
    #: read from its own text (model.spell_text): "costs {1} less for each ..."
    #: (SelfReduction, applied with the board's cost effects), additional costs that
    #: sacrifice (SacrificeCost), other ways to cast it not tried and lines about its cost
    #: not read, as (line, why); ``cost_unsure``: why a "no" is not certain (a count over
    #: the battlefield without the opponents' permanents is a lower bound)
    reductions: tuple = ()
    sacrifices: tuple = ()
    alternatives: tuple = ()
    cost_unread: tuple = ()
    #: other ways to cast it from the hand for mana alone (model.spell_text.AlternativeCost),
    #: tried when its mana cost can't be paid; ``cast_with``: the one this spell is cast with
    alternative_costs: tuple = ()
    cast_with: str = ""
    #: additional costs that discard cards of the hand (model.spell_text.DiscardCost)
    discards: tuple = ()
    cost_unsure: tuple = field(default=(), compare=False)
    #: a land card: how it enters as the land drop (:class:`~manaplan.model.entering.EntersRule`)
    enters: EntersRule | None = None
    #: which face of a two-faced card this is (0 front, 1 back), when it has two
    face: int | None = None
    #: a modal double-faced card given without a ``face`` (CR 712): its other
    #: face, which ``best_turn`` may cast or play instead (a pathway's other land)
    faces: tuple = ()
    #: the spell as it was before a board's cost effects were applied to it (see
    #: :meth:`unapplied`): a turn applies them again on the board as it stands
    before_effects: Spell | None = field(default=None, compare=False, repr=False)
    #: the parts of its total that count the caster's permanents, whatever their count
    #: now (model.cost_effects.CountedCost): what a turn follows as permanents join or leave
    cost_counts: tuple = field(default=(), compare=False)

    def unapplied(self) -> "Spell":
        """The spell without what a board's cost effects added to its total (CR 601.2f):
        its own increases, reductions and floor as the request gave them, its own cost
        keywords, its own unread lines; its choices (kicks, X) and everything else as
        they are. Each spell of a turn is paid at the total the board gives it when it
        is cast, so a turn applies the effects again on that board
        (:meth:`PaymentProblem.cost_on`).

        >>> from manaplan.model.cost_effects import CostEffect
        >>> from manaplan.model.board import Board, Permanent, Player
        >>> thalia = Permanent("t", cost_effects=(CostEffect.parse("Noncreature spells cost {1} more to cast."),))
        >>> shock = PaymentProblem(Spell(SpellCost.of("{R}"), type_line="Instant"), Board((thalia,)), Player()).spell
        >>> str(shock.cost.increase[0]), shock.unapplied().cost.increase
        ('{1}', ())
        """
        base = self.before_effects
        if base is None:
            return self
        cost = replace(self.cost, increase=base.cost.increase, reduce=base.cost.reduce, minimum=base.cost.minimum)
        return replace(self, cost=cost, convoke=base.convoke, improvise=base.improvise, delve=base.delve,
                       cost_unread=base.cost_unread, cost_effects=(), cost_effects_applied=False, cost_unsure=(),
                       cost_counts=(), before_effects=None)

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

    def kicks_refused(self, kicked: bool | None, kicks: int | None) -> str | None:
        """Why a plan's kicker and kicks (None: not said) can't be this spell's as the
        question asked it (CR 702.33): a kicker it doesn't have, or other kicks than the
        question fixed; None where they can."""
        if kicked and self.kicker is None or kicks and self.multikicker is None:
            return "the plan kicks a spell without a kicker"
        if kicked is not None and self.kicker is not None and self.kicked != IF_POSSIBLE and kicked != bool(
                self.kicked):
            return f"the question fixed kicked={bool(self.kicked)}"
        if kicks is not None and self.multikicker is not None and self.kicks != MOST and kicks != self.kicks:
            return f"the question fixed {self.kicks} kicks, the plan has {kicks}"
        return None

    def with_kicks(self, kicked: bool, kicks: int) -> "Spell":
        """The spell cast with its kicker paid or not and its multikicker paid ``kicks``
        times: additional costs (CR 702.33, 601.2f), no choice left."""
        extra: tuple[ManaCost, ...] = ()
        if kicked and self.kicker is not None:
            extra += (self.kicker,)
        if kicks and self.multikicker is not None:
            extra += (kicked_times(self.multikicker, kicks),)
        return replace(self, cost=replace(self.cost, additional=self.cost.additional + extra),
                       kicker=None, kicked=False, multikicker=None, kicks=0)

    @property
    def mana_per_kick(self) -> int:
        """The least mana (or pairs of life) one payment of its multikicker takes: a
        generic symbol its amount, any other symbol one (CR 702.33c); 0 for ``{0}``."""
        symbols = self.multikicker.symbols if self.multikicker is not None else ()
        return sum(s.amount if s.kind == GENERIC else 1 for s in symbols)

    def kicks_within(self, mana: int, life: int, graveyard: int) -> int:
        """More kicks than can ever be paid with ``mana`` mana at most, ``life`` life
        (2 a Phyrexian symbol) and ``graveyard`` cards to delve, after the spell's own
        reductions; :data:`MAX_AMOUNT` for a multikicker that costs nothing."""
        per_kick = self.mana_per_kick
        if per_kick == 0:
            return MAX_AMOUNT
        reductions = sum(s.amount if s.kind == GENERIC else 1 for s in self.cost.reduction_symbols)
        return min(MAX_AMOUNT, (mana + graveyard + life // 2 + reductions) // per_kick)

    def ways(self, most_kicks: int = 0, variable: bool = False, alternatives: bool = False) -> tuple:
        """Every way the card may be cast as its choices allow (CR 601.2b, 702.33): the
        kicker paid or not (both when ``kicked`` is "if_possible"), the multikicker paid
        a fixed number of times, or 0 to ``most_kicks`` times (``kicks`` "max": a way for
        each number, or with ``variable`` one way whose number a solver chooses); the
        preferred way first. A card without a kicker has one way, itself.

        With ``alternatives``, each of those also cast for each other cost it may be cast
        for mana alone (:meth:`another_way`: evoke, dash, overload; CR 118.9), after them.

        >>> bolt = Spell(SpellCost.of("{R}"), kicker=ManaCost.parse("{4}"), kicked=IF_POSSIBLE)
        >>> [(str(w.spell.cost.additional[0]) if w.kicked else "", w.kicked) for w in bolt.ways()]
        [('{4}', True), ('', False)]
        """
        if alternatives and self.alternative_costs:
            plain = replace(self, alternative_costs=()).ways(most_kicks, variable)
            others = tuple(replace(way, spell=self.another_way(way.spell, alt), cast_with=alt.keyword)
                           for alt in self.alternative_costs if alt.keyword in FOLLOWED_IN_A_TURN for way in plain)
            return tuple(replace(way, card=self) for way in plain + others)
        if self.kicker is None and self.multikicker is None:
            return (Way(self, self),)
        kicked = (True, False) if self.kicked == IF_POSSIBLE else (bool(self.kicked),)
        if variable and self.kicks == MOST:
            return tuple(Way(self, self.with_kicks(k, 0), k if self.kicker is not None else None, None, most_kicks,
                             variable=True) for k in kicked)
        kicks = range(most_kicks, -1, -1) if self.kicks == MOST else (self.kicks,)
        return tuple(Way(self, self.with_kicks(k, n), k if self.kicker is not None else None,
                         n if self.multikicker is not None else None, most_kicks)
                     for k in kicked for n in (kicks if self.multikicker is not None else (0,)))

    def another_way(self, spell: "Spell", alt) -> "Spell":
        """``spell`` (this card, its choices made) cast for the alternative cost ``alt``
        (model.spell_text.AlternativeCost, CR 118.9) rather than its mana cost: the same
        additional costs, increases and reductions (601.2f), its printed mana cost kept
        for its colors and mana value (118.9c); what it leaves once it resolves as the
        keyword says: evoked, its permanent is sacrificed as it enters (702.74a: it
        stays for no later spell); dashed, it has haste (702.109a: it may tap now)."""
        permanent = spell.permanent
        if alt.keyword == "evoke":
            permanent = None
        elif alt.keyword == "dash" and permanent is not None:
            permanent = replace(permanent, summoning_sick=False, key=f"{permanent.key}|dash")
        return replace(spell, cost=replace(spell.cost, mana_cost=alt.mana), printed=self.mana_cost,
                       cast_with=alt.keyword, alternative_costs=(), permanent=permanent)

    def allows(self, restrict: str) -> bool:
        """Whether mana restricted by ``restrict`` may be spent on this spell (CR 106.6)."""
        return restriction_allows(restrict, self.type_line, frozenset(self.colors), self.commander, self.changeling)

    def with_x(self, x: int) -> "Spell":
        """The same spell cast with X = ``x`` (CR 107.3, 601.2b)."""
        return replace(self, cost=replace(self.cost, x=x))


@dataclass(frozen=True)
class Way:
    """One way to cast ``card``: ``spell`` is the card with its choices made into
    additional costs (its kicker paid or not, its multikicker paid ``kicks`` times: CR
    702.33, 601.2f); ``kicked`` and ``kicks`` are None where the card has no kicker or
    no multikicker."""

    card: Spell
    spell: Spell
    kicked: bool | None = None
    kicks: int | None = None
    most_kicks: int = 0  # the most kicks tried (its multikicker "max")
    #: its multikicker is paid a number of times a solver chooses, 0 to ``most_kicks``
    #: (``spell`` is the card with none): ``kicks`` is None until then
    variable: bool = False
    #: cast for an alternative cost rather than its mana cost (its keyword: "evoke"), or ""
    cast_with: str = ""

    @property
    def missed(self) -> tuple:
        """What this way gives up of what the card asks for: (1 if its kicker is "if
        possible" and not paid, how many kicks fewer than the most tried when its
        multikicker is "max"; a variable way's is the solver's): the choices' objective,
        before the payments' (an answer kicks whenever it can, as ``pay`` does)."""
        card = self.card
        return (int(card.kicked == IF_POSSIBLE and not self.kicked),
                self.most_kicks - (self.kicks or 0) if card.kicks == MOST and not self.variable else 0)

    @property
    def cast_card(self) -> Spell:
        """The card as it is cast this way, its kicker and kicks still its own choices
        (what a plan of it is validated against): the card, or the card for its
        alternative cost (:meth:`Spell.another_way`)."""
        if not self.cast_with:
            return self.card
        alt = next(a for a in self.card.alternative_costs if a.keyword == self.cast_with)
        return self.card.another_way(self.card, alt)

    @property
    def widest(self) -> Spell:
        """The spell of the most this way can cost: its multikicker paid the most times
        (what bounds the graveyard delve may exile, for instance)."""
        return self.card.with_kicks(bool(self.kicked), self.most_kicks) if self.variable else self.spell


@dataclass(frozen=True)
class LandPlay:
    """A land card of the hand played as the turn's land drop (CR 305.2), as it enters:
    ``permanent`` tapped or untapped, ``life`` paid for it to enter untapped (a shock
    land, CR 119.4), whether it returns a land you control to its owner's hand (a bounce
    land's trigger: the plans never need the land returned, and the bounce land itself
    can always be the one)."""

    card: Spell
    permanent: Permanent
    life: int = 0
    returns_land: bool = False

    @property
    def id(self) -> str:
        return self.card.id

    @property
    def tapped(self) -> bool:
        return self.permanent.tapped


#: what a board's bodies may hold that changes the question as it is built (PaymentProblem):
#: haste given, mana that depends on the board, amounts counted on it, cost effects
_CHANGES_THE_QUESTION = frozenset((GIVES_HASTE, DEPENDS_ON_BOARD, COUNTS, COST_EFFECTS))


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
    #: best_turn: a land of the hand is played first (CR 305.2) whenever the hand has one
    #: (True), only when it helps this turn's spells (WHEN_NEEDED), or not (False)
    land_drop: object = True
    #: the question is asked while the spell is being cast (CR 601.2g): only mana
    #: abilities usable then; by default it is asked while the player has priority, so
    #: other abilities that make mana may be activated first (``before_casting`` steps)
    mid_cast: bool = False
    prefer: Preference = Preference()
    #: the permanents the opponents control, when given (None: not given): what some
    #: card text reads (Exotic Orchard, Priest of Titania); they never pay
    opponents: tuple | PermanentsByBody | None = None
    #: ``check``: the answer another engine gave, judged (model.written_plan: a
    #: WrittenPlan, or CANT_PAY)
    claim: WrittenPlan | None = None
    #: whether a no comes with its proof in words (a counting bound, Hall's violated set):
    #: the deck's games ask yes or no only and read no words (manaplan.deck.simulate)
    explain_no: bool = True

    def __post_init__(self):
        board = self.board
        if not self.opponents and board.counted_from is None and "given" not in board.memo and not (
                board.traits & _CHANGES_THE_QUESTION) and not any(
                s.reductions for s in (self.spell,) + self.hand + self.keep + self.spells):
            return  # (the usual board: nothing below changes the board or a cost)
        # amounts counted on the board (Gaea's Cradle, devotion) are counted once, here,
        # however the problem was built (see Board.resolve_amounts)
        # haste given by either side's permanents (CR 702.10c: a hasty creature is not summoning sick)
        object.__setattr__(self, "board", _with_haste(self.board, self.opponents))
        object.__setattr__(self, "board", resolve_board_mana(self.board, self.player, self.opponents).resolve_amounts())
        # what the permanents' text does to the spells' costs (CR 601.2f), applied once
        self._apply_cost_effects()
        self._apply_haste_to_spells()

    def _apply_haste_to_spells(self) -> None:
        """The creatures the spells become hasty where the board gives them haste."""
        if GIVES_HASTE not in self.board.traits and not any(p.gives_haste for p in self.opponents or ()):
            return
        givers = haste_givers(self.board.permanents, self.opponents)  # (found once for every spell)
        for name in ("spell", "hand", "keep", "spells"):
            value = getattr(self, name)
            spells = (value,) if name == "spell" else value
            done = tuple(_spell_with_haste(s, givers) for s in spells)
            object.__setattr__(self, name, done[0] if name == "spell" else done)

    def _apply_cost_effects(self) -> None:
        """The board's and the opponents' cost effects added to every spell the question
        is about (model.cost_effects), each once."""
        given = self.board.given()
        if "cost_effects" not in given.memo:  # (looked for once per board)
            given.memo["cost_effects"] = tuple(p for p in given.permanents if p.cost_effects) \
                if COST_EFFECTS in given.traits else ()
        holders = given.memo["cost_effects"]
        spells = (self.spell,) + self.hand + self.keep + self.spells
        if not holders and not any(p.cost_effects for p in self.opponents or ()) and not any(
                s.reductions for s in spells):
            return
        # counts are of the permanents as they are: their land types changed (model.land_types)
        apply = lambda spell: apply_cost_effects(spell, self.board, holders, self.opponents, self.player)  # noqa: E731
        object.__setattr__(self, "spell", apply(self.spell))
        for name in ("hand", "keep", "spells"):
            object.__setattr__(self, name, tuple(apply(s) for s in getattr(self, name)))

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

    def for_spell(self, spell: Spell, query: str = PAY) -> "PaymentProblem":
        """The question (``pay`` by default) for ``spell``, a card of the hand or the
        spell of the problem, on the same board: a card being cast is on the stack (CR
        601.2a), so it can't be exiled from the hand to pay for itself."""
        if spell.from_hand is not None and spell.from_hand.id in self.board.ids:
            board = Board(tuple(p for p in self.board.permanents if p is not spell.from_hand))
            return replace(self, spell=spell, query=query, board=board)
        return copied_with(self, spell=spell, query=query)  # the same board: nothing to resolve again

    def joins_unchanged(self, permanent) -> bool:
        """Whether ``permanent`` (a card of the hand cast or played this step) can join
        the board without changing what any other permanent makes, and makes what it
        makes whatever else is there: it triggers, gives, replaces, counts and depends on
        nothing, and nothing on the board counts it or depends on it (Gaea's Cradle
        counting creatures, Bloom Tender the colors among permanents). A model that
        chooses the order of a hand's cards follows such a permanent exactly."""
        p = permanent
        if p.triggers or p.grants or p.replaces or p.spending or p.cost_effects or p.land_types or p.depends_on_board or any(
                a.output.per for a in p.abilities):
            return False
        given = self.board.given()
        if self.board.counted_from is None and DEPENDS_ON_BOARD not in given.traits:
            return True  # nothing on the board depends on what else is there
        others = tuple(q for q in given.permanents if q.id != p.id)  # (not its card in the hand: it was cast)
        joined = PaymentProblem(self.spell, Board(others + (p,)), self.player, opponents=self.opponents)
        before = {q.id: q.abilities for q in self.board.permanents}
        return all(q.abilities == before.get(q.id) for q in joined.board.permanents if q is not p and q.id != p.id)

    def land_plays(self, card: Spell) -> tuple:
        """(every way to play the land card ``card`` as the land drop now, what is not
        modelled about it as (id, why) pairs): how it enters, judged on the lands on the
        board and the other cards of the hand (:meth:`EntersRule.entries
        <manaplan.model.entering.EntersRule.entries>`)."""
        rule = card.enters or EntersRule()
        lands = tuple(p.type_line for p in self.board.permanents if p.is_a("land"))
        hand = tuple(c.type_line for c in self.hand if c.id != card.id)
        not_modelled: tuple[tuple[str, str], ...] = ()
        if rule.kind == UNLESS_OPPONENTS:
            not_modelled = ((card.id, "it enters tapped unless its controller has several opponents, which the "
                                      "request doesn't say: taken to enter tapped"),)
        plays = []
        given = self.board.given()
        for tapped, life in rule.entries(lands, hand, self.player.life):
            body = as_it_enters(card.permanent, given, self.opponents)  # (Blood Moon: model.land_types)
            key = f"land|{card.id}|{card.face}|{tapped}"
            plays.append(LandPlay(card, replace(body, tapped=tapped, key=key), life, rule.returns_land))
        return tuple(plays), not_modelled

    def cost_on(self, spell: Spell, board: Board, player: Player | None = None) -> Spell:
        """``spell`` with the total the cards give it when it is cast on ``board`` by
        ``player`` (CR 601.2f): its own reductions counted there, the cost effects of
        ``board``'s permanents and the opponents' (:meth:`Spell.unapplied`, then
        model.cost_effects, on that board as its land types leave it). What a turn's
        spell costs at its turn in the order, where earlier spells changed the board.

        >>> from manaplan.model.board import Permanent
        >>> frog = Spell(SpellCost.of("{4}"), type_line="Artifact Creature — Frog",
        ...              reductions=read_spell_text("Artifact Creature", "Affinity for artifacts").reductions)
        >>> mox = Permanent("m", type_line="Artifact")
        >>> empty = PaymentProblem(frog, Board(()), Player())
        >>> total_before_announcing(empty.spell.cost), total_before_announcing(empty.cost_on(empty.spell, Board((mox, mox))).cost)
        ('{4}', '{2}')
        """
        if not spell.reductions and not holds_cost_effects(board) and not any(
                p.cost_effects for p in self.opponents or ()):
            return spell.unapplied()  # (nothing there changes what it costs: its own total)
        problem = PaymentProblem(spell.unapplied(), board, player if player is not None else self.player,
                                 opponents=self.opponents)
        return problem.spell

    def after_cast(self, plan) -> "PaymentProblem":
        """The problem a later spell of the same step starts from (CR 106.4: the pool
        empties between steps, not between spells): the board after ``plan`` with the
        permanent the spell became (and no longer its card in the hand), the life it
        cost, its floating mana (what may be carried: :meth:`Player.after`), the mana
        the spell added on resolving, and one more spell cast this turn."""
        board, player = self.after(plan)
        # it left the hand when it was cast (CR 601.2a), the cards its cost discarded too (601.2h)
        left = {f"hand|{cid}" for cid in plan.cost_discarded}
        if self.spell.from_hand is not None:
            left.add(self.spell.from_hand.key)
        if left:
            board = Board(tuple(p for p in board.permanents if p.key not in left))
        if self.spell.permanent is not None:
            board = Board(board.permanents + (self.spell.permanent,))
        cast = None if player.spells_cast is None else player.spells_cast + 1
        gone = set(plan.cost_discarded) | {self.spell.id} | set(plan.sacrificed)  # (exiled for mana: CR 113.6m)
        hand = tuple(c for c in self.hand if c.id not in gone) if self.hand else ()
        return replace(self, board=board, player=replace(player, pool=pool_after_cast(player.pool, self.spell),
                                                         spells_cast=cast), hand=hand)

    def after(self, plan) -> tuple:
        """(board, player) after carrying ``plan`` out: see :meth:`Board.after` and
        :meth:`Player.after`."""
        return self.board.after(plan), self.player.after(plan)


def holds_cost_effects(board: Board) -> bool:
    """Whether a permanent of ``board`` changes what spells cost (looked for once a board)."""
    return COST_EFFECTS in board.given().traits


def pool_after_cast(floating: tuple, spell: Spell) -> tuple:
    """The pool a later spell of the step finds: what floats after the payment (already
    carried over: :meth:`Player.after`) and the mana ``spell`` added on resolving."""
    return floating + tuple(Mana(t, source=POOL) for t in spell.adds)


def _with_haste(board: Board, opponents) -> Board:
    """``board`` with the creatures that a grant of haste on either side reaches no longer
    summoning sick (model.haste); the same board where none does. Whether the board
    gives haste at all is looked for once per board."""
    if GIVES_HASTE not in board.traits and not any(p.gives_haste for p in opponents or ()):
        return board
    hasty = with_haste(board.permanents, opponents)
    if hasty is board.permanents:
        return board
    return Board(hasty)


def _spell_with_haste(spell, givers: list):
    """``spell`` whose permanent, a creature, some grant of ``givers`` (on the board or
    the opponents', model.haste.haste_givers) reaches: that permanent not summoning sick
    (a spell's own haste is read with it)."""
    for_spell = spell.permanent
    if for_spell is None or not reached(for_spell, givers):
        return spell
    # (its key kept: a turn links the card to its permanent by it)
    return replace(spell, permanent=replace(for_spell, summoning_sick=False))
