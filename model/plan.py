"""Answers as values: a plan that can be carried out at the table, or why there is none.

The solvers return these; the validator and the reference search judge them; only the
protocol layer (``manaplan.protocol``) turns them into JSON. A :class:`Plan` lists its
:class:`Step` s in the order a player carries them out (CR 605.3: each mana ability is
activated by paying its whole cost from what exists at that moment), then the
:class:`PaymentLine` s that pay the spell's locked-in total cost (CR 601.2h). What a plan
taps, sacrifices and costs in life is read off its steps, never stored twice.

>>> from manaplan.model.cost import TotalCost
>>> forest = Step("f1", 0, "{T}", ("G",), taps=True)
>>> plan = Plan((forest,), TotalCost(typed=(0, 0, 0, 0, 1, 0)), (PaymentLine(Symbol.parse("{G}"), "G", "f1"),))
>>> plan.tapped, plan.life_paid, str(plan.total_cost)
(('f1',), 0, '{G}')
"""

from __future__ import annotations

import contextvars
from contextlib import contextmanager

from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

from manaplan.model.cost import TotalCost
from manaplan.model.symbols import ALL_TYPES, Symbol, describe_types

if TYPE_CHECKING:
    from manaplan.model.problem import LandPlay

#: where floating mana comes from, in payment lines: a word no permanent may use as its id
POOL = "pool"
#: the source of the cards delve exiles (CR 702.66); the model names each card
#: ``graveyard:N``. No permanent may take either word as its id.
GRAVEYARD = "graveyard"

#: what a step does when it is not one of the permanent's abilities
CONVOKE, IMPROVISE, DELVE = "convoke", "improvise", "delve"

#: the time guard of one question, in seconds: past it the answer is Undecided (TIMEOUT)
TIME_LIMIT = 10.0
#: the most activations a written plan may list (an answer of about 20 MB, with its
#: payment lines): a larger one is refused with an error, never cut short
MAX_PLAN_STEPS = 100_000


#: a larger cap while ``check`` works out the optimum beside a written plan of that many
#: steps (it is compared, and written only when it shows the plan worse): see
#: :func:`plans_of_up_to`
_STEPS_CAP = contextvars.ContextVar("manaplan_plan_steps", default=MAX_PLAN_STEPS)


@contextmanager
def plans_of_up_to(steps: int):
    """Within this block, plans of up to ``steps`` activations (at least the written
    cap) are built."""
    token = _STEPS_CAP.set(max(MAX_PLAN_STEPS, steps))
    try:
        yield
    finally:
        _STEPS_CAP.reset(token)


def check_plan_size(activations: int) -> None:
    """Refuse a plan of more than ``MAX_PLAN_STEPS`` activations before it is built (X
    of a million paid one counter at a time): the question stays answerable with
    ``can_pay``."""
    if activations > _STEPS_CAP.get():
        from manaplan.model.errors import PlanTooLarge
        raise PlanTooLarge(f"the plan would take {activations:,} activations; a written plan has at most "
                           f"{MAX_PLAN_STEPS:,} (ask \"query\": \"can_pay\" for yes or no)")

# reason codes of an unpayable answer (the protocol's ``reason.code``)
NO_MANA_COST = "no_mana_cost"
NOT_ENOUGH_MANA = "not_enough_mana"
NOT_ENOUGH_LIFE = "not_enough_life"
NO_PAYMENT = "no_payment"
NEEDS_ACTIVATION_BEFORE_CASTING = "needs_activation_before_casting"
#: the spell is payable alone, but not while keeping what the request keeps
KEEP_CONFLICT = "keep_conflict"
#: the spells can't all be paid one after another (the answer names the first that fails)
SEQUENCE_FAILS = "sequence_fails"
# reason code of an undecided answer (``payable: null``)
TIMEOUT = "timeout"
#: a "no" on a board with card text about mana that could not be read: not certain
UNREAD_ABILITIES = "unread_abilities"


@dataclass(frozen=True, slots=True)
class PaymentLine:
    """One mana, or some life, paying one unit of a symbol (CR 601.2h).

    ``mana`` is the type of the mana spent (W U B R G C) and ``source`` the permanent it
    came from (or :data:`POOL`); a Phyrexian symbol paid with life has ``life`` 2 and no
    mana (CR 107.4f). ``half`` names the announced half of a symbol with a choice, where
    the payment of an ability's cost says it.
    """

    symbol: Symbol
    mana: str = ""
    source: str = ""
    life: int = 0
    half: str = ""


@dataclass(frozen=True, slots=True)
class TriggeredMana:
    """The mana one triggered mana ability added when a step set it off (CR 605.1b,
    605.4a): ``permanent`` is the trigger's permanent, which is its mana's source."""

    permanent: str
    trigger: int
    adds: tuple  # mana types


@dataclass(frozen=True, slots=True)
class Step:
    """One activation: ``ability`` is the index of the permanent's ability, or
    :data:`CONVOKE`, :data:`IMPROVISE` or :data:`DELVE` (then ``permanent`` is
    :data:`GRAVEYARD`). ``cost`` is the cost as cards write it, ``payment`` the lines
    paying its mana, ``adds`` the mana types it adds; ``taps``, ``sacrifices`` and
    ``exiles`` say what it does to its permanent (or card), ``life`` the life paid as its
    cost and ``damage`` the life its effect takes (pain lands)."""

    permanent: str
    ability: int | str
    cost: str
    adds: tuple
    payment: tuple = ()
    triggered: tuple = ()
    taps: bool = False
    sacrifices: bool = False
    exiles: bool = False
    life: int = 0
    damage: int = 0
    before_casting: bool = False  # activated before the spell is cast (not usable while casting: CR 601.2g)
    #: (permanent id, ability index) of the ability activated, when ``permanent`` is what
    #: its cost sacrifices (Ashnod's Altar sacrificing a creature): at the table, the
    #: altar's ability is activated, sacrificing ``permanent``
    via: tuple = ()
    #: the ability of ``via`` taps its own permanent too (Springleaf Drum, Phyrexian Tower)
    co_taps: bool = False
    energy: int = 0  # energy paid as its cost ({E}, Aether Hub)
    #: the permanent that gives ``permanent`` this ability ("Lands you control have ...":
    #: Chromatic Lantern), when it is not its own
    given_by: str = ""

    @property
    def pays(self) -> tuple:
        """The types of the mana spent on its cost."""
        return tuple(line.mana for line in self.payment if line.mana)

    @property
    def life_lost(self) -> int:
        """Life paid for its cost (Phyrexian symbols included) plus its damage."""
        return self.life + self.damage + sum(line.life for line in self.payment)


#: the fields of a Plan that hold a sequence: kept as tuples (a plan is an immutable value)
_PLAN_TUPLES = ("steps", "payment", "floating", "announced", "reduction_halves", "better_before_casting")


@dataclass(frozen=True)
class Plan:
    """A payment that can be carried out at the table, in order.

    ``total_cost`` is the locked-in total (CR 601.2f; None only in a written plan the
    referee read up to a step it rejected), ``announced`` and
    ``reduction_halves`` the choices that fixed it ((symbol, half) pairs, CR 601.2b,
    118.7e), ``payment`` the lines paying it, ``floating`` the mana left in the pool
    (:class:`~manaplan.model.mana.Mana` units, their restrictions kept).
    ``optimal`` is False only when the time guard stopped the search first. ``x`` is the
    X announced, for a ``max_x`` answer. ``better_before_casting`` lists
    ``(permanent id, why)`` for abilities that can't be used while casting but would
    give a better payment if activated before (CR 601.2g).
    """

    steps: tuple
    total_cost: TotalCost | None
    payment: tuple
    floating: tuple = ()
    announced: tuple = ()
    reduction_halves: tuple = ()
    optimal: bool = True
    x: int | None = None
    better_before_casting: tuple = ()
    kicked: bool | None = None  # the spell has a kicker: whether the plan pays it (CR 702.33a)
    kicks: int | None = None  # the spell has a multikicker: how many times the plan pays it (702.33c)
    #: the permanents sacrificed to pay the spell's additional cost (Bone Splinters'
    #: "sacrifice a creature", CR 601.2h: after every mana ability)
    cost_sacrificed: tuple = ()
    #: the cards of the hand discarded for the spell's additional cost (CR 601.2h)
    cost_discarded: tuple = ()
    #: the other way the spell is cast, when not for its mana cost (evoke, dash, overload,
    #: bestow: CR 118.9); "" for its mana cost
    cast_with: str = ""

    def __post_init__(self):
        if not (type(self.steps) is type(self.payment) is type(self.floating) is type(self.announced)
                is type(self.reduction_halves) is type(self.better_before_casting) is tuple):  # (the usual: all are)
            for name in _PLAN_TUPLES:
                value = getattr(self, name)
                if type(value) is not tuple:
                    object.__setattr__(self, name, tuple(value))

    @cached_property
    def tapped(self) -> tuple:
        """Every permanent the plan taps: by its own {T}, convoke or improvise, and the
        permanents whose ability taps them and another one (Springleaf Drum); found once
        (the validator and the writer both ask)."""
        return tuple(p for s in self.steps for p in ((s.via[0],) if s.co_taps else ()) + ((s.permanent,) if s.taps
                                                                                          else ()))

    @property
    def sacrificed(self) -> tuple:
        """Every permanent the plan sacrifices: for mana, then for the spell's cost."""
        return tuple(s.permanent for s in self.steps if s.sacrifices) + tuple(self.cost_sacrificed)

    @property
    def exiled(self) -> int:
        return sum(1 for s in self.steps if s.exiles)

    @property
    def damage(self) -> int:
        return sum(s.damage for s in self.steps)

    @property
    def energy_paid(self) -> int:
        """Energy counters the plan pays ({E}, CR 107.14)."""
        return sum(s.energy for s in self.steps)

    @cached_property
    def life_paid(self) -> int:
        """All life the plan loses: costs (Phyrexian symbols, "Pay N life") and damage
        (computed once: the validator and the writer both ask)."""
        lost = sum(line.life for line in self.payment)
        for s in self.steps:
            lost += s.life + s.damage + (sum(line.life for line in s.payment) if s.payment else 0)
        return lost

    def is_lethal(self, life: int) -> bool:
        """Whether the life lost reaches a life total of ``life`` (legal, since damage is
        not a cost, CR 118.3; the player then loses)."""
        return self.life_paid > 0 and self.life_paid >= life


@dataclass(frozen=True)
class NotEnoughMana:
    """A counting certificate (Hall's condition): every announcement of the cost needs
    ``needs`` mana whose type lies in ``types`` (or snow mana, with ``snow``), and the
    board can make at most ``available`` of it, from ``sources``. ``amounts``: how
    much of it each source could make (in the order of ``sources``); ``idle``: the
    permanents that could make such mana but can't now, as (id, why): a creature's {T}
    abilities under summoning sickness (CR 302.6)."""

    types: tuple
    needs: int
    available: int
    sources: tuple
    snow: bool = False
    amounts: tuple = ()
    idle: tuple = ()
    #: the life total, where paying the cost's Phyrexian symbols with life instead would
    #: have needed more (CR 118.3)
    life_short: int | None = None

    def sentence(self, name=lambda pid: pid) -> str:
        """The player's sentence for this certificate, each permanent called by
        ``name(id)`` (ids in answers, card names in explanations).

        >>> NotEnoughMana(("B",), 1, 0, (), idle=(("bop", "summoning sick"),)).sentence()
        "needs 1 black mana; nothing untapped can make it (bop can't tap for it yet: summoning sick, CR 302.6)"
        """
        what = "snow mana" if self.snow else ("mana" if frozenset(self.types) == ALL_TYPES
                                             else describe_types(self.types) + " mana")
        amounts = dict(zip(self.sources, self.amounts or (1,) * len(self.sources)))
        listing = ", ".join(name(s) if amounts[s] == 1 else f"{name(s)} ({amounts[s]})" for s in self.sources)
        n = len(self.sources)
        if not n:
            words = f"needs {self.needs} {what}; nothing untapped can make it"
        elif all(amounts[s] == 1 for s in self.sources):
            words = (f"needs {self.needs} {what}; only {n} untapped source{'s' if n != 1 else ''} "
                     f"can make {what.replace(' mana', '') if what != 'mana' else 'it'}: {listing}")
        else:
            words = f"needs {self.needs} {what}; at most {self.available} can be made: {listing}"
        if self.idle:
            who = ", ".join(name(pid) for pid, _ in self.idle)
            why = sorted({reason for _, reason in self.idle})
            words += (f" ({who} can't tap for it yet: {', '.join(why)}, CR 302.6)" if why == ["summoning sick"]
                      else f" ({who} can't make it now: {', '.join(why)})")
        if self.life_short is not None:
            words += (" (its Phyrexian symbols could be paid with 2 life each instead, but life is "
                      f"{self.life_short}, CR 118.3)")
        return words


@dataclass(frozen=True)
class NotEnoughLife:
    """Every announcement needs ``needs`` life (Phyrexian symbols with no mana for them),
    and the life total is ``available`` (CR 118.3)."""

    needs: int
    available: int


@dataclass(frozen=True)
class Unpayable:
    """No payment exists: ``code`` (one of the reason codes above, or a game profile's
    own), the sentence a player reads, and the machine-checkable ``certificate`` (None
    where the proof is the exhaustive search itself). With ``before_casting``, the
    payment would exist if those permanents' abilities, which can't be used while
    casting, were activated first; ``detail`` then keeps the proof's own code."""

    code: str
    message: str
    certificate: object = None
    before_casting: tuple = ()
    detail: str = ""


@dataclass(frozen=True)
class Undecided:
    """Neither a plan nor a proof (``payable: null``): the time guard ran out, or the
    abilities read could not pay and some card text about mana was not read."""

    code: str
    message: str
    time_limit: float | None = None
    #: (permanent id, line) for each line of card text about mana that was not read
    unread: tuple = ()


@dataclass(frozen=True)
class CannotKeep:
    """The proof of a ``keep_conflict``: what can't be kept (hand ids, or the kept mana
    as a mana string); each was tried with the payment alone, and found impossible, or,
    when each alone could be kept, all of them together were."""

    cannot_keep: tuple


@dataclass(frozen=True)
class FirstFailure:
    """Why a sequence can't be paid: the spells before ``failed`` can be paid one after
    another, and with ``failed`` they can't (in the given order)."""

    failed: str


@dataclass(frozen=True)
class Sequence:
    """The answer to ``sequence``: ``(spell, plan)`` in the order to cast them, each plan
    carried out on what the ones before it left."""

    plans: tuple


@dataclass(frozen=True)
class BestTurn:
    """The answer to ``best_turn``: the land played (a hand card, or None), and ``(spell,
    plan)`` for the spells cast, in order, worth ``value`` together; ``optimal`` False
    when the time guard ran out before the best was proven. ``not_modelled``: what the
    answer did not follow and could matter, as (card or permanent id, why) pairs: the
    plans stand, but a turn that used it might be worth more."""

    land: LandPlay | None  # a model.problem.LandPlay: the card and how it entered
    plans: tuple
    value: int
    optimal: bool = True
    not_modelled: tuple = ()
    landfall: tuple = ()  # (permanent id, mana types) for each landfall trigger the land drop set off


@dataclass(frozen=True)
class CostParts:
    """The answer to ``total_cost``: the spell's total cost (CR 601.2f) as a player reads
    it before announcing anything (``written``; None where a choice decides it), each
    distinct locked-in total with an announcement that gives it (``totals``: (TotalCost,
    Announcement) pairs, at most ``MOST_TOTALS``; ``cut`` when there are more), and where
    each part came from (``parts``: (what, its mana string or amount, whether it is the
    player's choice to pay it) in the order they apply)."""

    written: str | None
    totals: tuple
    parts: tuple
    mana_value: int
    cut: bool = False
    #: (permanent or spell id, line) for each line about the cost that was not read: the
    #: total is then not known (docs/protocol.md, "The spell's text")
    unread: tuple = ()


#: an additional cost that sacrifices a permanent, and no permanent of the kind to sacrifice
NOTHING_TO_SACRIFICE = "nothing_to_sacrifice"
#: an additional cost that discards cards, and not enough cards of the kind in the hand
NOTHING_TO_DISCARD = "nothing_to_discard"

#: the most distinct totals a ``total_cost`` answer lists
MOST_TOTALS = 64


@dataclass(frozen=True)
class Castable:
    """The answer to ``castable``: for each spell of the hand, in order, ``(spell,
    answer)``, each answer what ``pay`` gives for that spell alone."""

    answers: tuple


@dataclass(frozen=True)
class Payable:
    """Yes, without a plan: the answer to a yes/no question (``can_pay``)."""


def listing(helping) -> str:
    """``helping`` ((permanent id, why) pairs) as words: "id (why), ..."."""
    return ", ".join(f"{pid} ({why})" for pid, why in sorted(dict(helping).items()))


def better_before_casting_message(helping) -> str:
    """The sentence for a plan that activating ``helping`` ((id, why) pairs) before
    casting would better (CR 601.2g)."""
    return (f"a better payment exists by activating {listing(helping)} before casting: those can't be "
            f"activated while a spell is being cast (CR 601.2g)")


def on_board(plan, board):
    """``plan`` with each step's ability numbered as ``board`` lists its permanent's
    abilities: an ability another permanent gives (``via``: an altar's) found by its
    giver, where a turn's earlier payments changed what others give (an altar sacrificed
    for a cost: the abilities given after its own move up). A permanent's own abilities
    come first and never move."""
    steps, moved = [], False
    for step in plan.steps:
        p = board.find(step.permanent) if isinstance(step.ability, int) and step.via else None
        if p is not None and not _given_by(p.abilities, step.ability, step.via):
            index = next((k for k in range(len(p.abilities)) if _given_by(p.abilities, k, step.via)), None)
            if index is not None:
                step, moved = replace(step, ability=index), True
        steps.append(step)
    return replace(plan, steps=tuple(steps)) if moved else plan


def _given_by(abilities: tuple, index: int, via: tuple) -> bool:
    """Whether ability ``index`` is the one ``via`` (giver id, its ability) gives."""
    return index < len(abilities) and tuple(abilities[index].via[:2]) == tuple(via[:2])
