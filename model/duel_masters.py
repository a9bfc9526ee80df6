"""Duel Masters game objects: civilizations, mana-zone cards, the card to play, the
problem (``DMRequest``), and the answer values (``DMPlan`` and the certificates of an
unpayable card).

Duel Masters pays costs differently from Magic (seed 004, DM Wiki "マナ"): there is no
mana pool and no symbol grammar. Each card in the mana zone, when tapped, makes one mana
whose *points* are the card's mana number and whose *color* is one of the card's
civilizations; the card to play needs its cost in points and, for each of its
civilizations, a different tapped card that paid that civilization.

This module only describes and validates values; reading and writing JSON is
``manaplan.protocol.duel_masters``, deciding how to pay is ``solver.duel_masters``.

>>> request = DMRequest(DMCard("Faerie Life", 2, {"nature"}),
...                     (ManaCard("f1", {"fire"}), ManaCard("n1", {"nature"}, tapped=True)))
>>> request.cost_to_pay, [str(c) for c in request.required_civilizations]
(2, ['nature'])
>>> [card.id for card in request.untapped]
['f1']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from manaplan.model.errors import RequestError

#: The five civilizations in the order the game lists them (光 水 闇 火 自然); outputs
#: use this order so that answers never depend on how a request listed things.
CIVILIZATION_NAMES = ("light", "water", "darkness", "fire", "nature")

#: What a mana-zone card gives when its mana number is not printed (seed 004: 「マナ数が
#: 書かれていない場合はマナの点数は0として扱い」 — zero points, its own civilizations).
UNPRINTED_MANA_NUMBER = 0


@dataclass(frozen=True, slots=True)
class Civilization:
    """One of the five civilizations, the Duel Masters colors.

    Only the lowercase English names are accepted, so that a typo ("Fire", "red") is an
    error instead of a silently colorless card.

    >>> Civilization("fire"), str(Civilization("nature"))
    (Civilization(name='fire'), 'nature')
    >>> Civilization("red")
    Traceback (most recent call last):
    ...
    manaplan.model.errors.RequestError: unknown civilization 'red' (the five are light, water, darkness, fire, nature)
    """

    name: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise RequestError(f"a civilization is a name such as 'fire', not {self.name!r}")
        if self.name not in CIVILIZATION_NAMES:
            hint = f"; did you mean '{self.name.strip().lower()}'?" \
                if self.name.strip().lower() in CIVILIZATION_NAMES else ""
            raise RequestError(f"unknown civilization {self.name!r} (the five are "
                               f"{', '.join(CIVILIZATION_NAMES)}){hint}")

    @property
    def order(self) -> int:
        """Position in the game's own order (light, water, darkness, fire, nature)."""
        return CIVILIZATION_NAMES.index(self.name)

    def __lt__(self, other: "Civilization") -> bool:
        return self.order < other.order

    def __str__(self) -> str:
        return self.name


LIGHT, WATER, DARKNESS, FIRE, NATURE = (Civilization(n) for n in CIVILIZATION_NAMES)


def civilization_set(values: Iterable[Any]) -> frozenset:
    """Civilizations from names or ``Civilization`` objects (a convenience for the
    Python API; JSON requests go through ``manaplan.protocol.duel_masters.read``,
    which also locates errors)."""
    if isinstance(values, (str, Civilization)):
        raise RequestError("civilizations must be a list of names, not a single value")
    out = set()
    for i, value in enumerate(values):
        try:
            out.add(value if isinstance(value, Civilization) else Civilization(value))
        except RequestError as error:
            raise error.located(f"[{i}]") from None
    return frozenset(out)


def in_game_order(civilizations: Iterable[Civilization]) -> tuple:
    """The civilizations sorted light, water, darkness, fire, nature."""
    return tuple(sorted(civilizations))


def _whole_number(value: Any, what: str, at: str, minimum: int | None = None) -> int:
    # bool is an int in Python but never a number in a request.
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(f"{what} must be a whole number, not {value!r}", at)
    if minimum is not None and value < minimum:
        raise RequestError(f"{what} must be at least {minimum}, not {value}", at)
    return value


@dataclass(frozen=True, slots=True)
class ManaCard:
    """A card in the mana zone.

    Tapped, it gives ``mana_number`` points of ONE of its civilizations (seed 004:
    「色はひとつのマナにつき1色しか生み出せない」 — a fire/nature card gives fire or
    nature, never both). The mana number is usually 1; five-civilization "rainbow" cards
    print 0 and still pay a civilization (「タップしても点数は生み出せない。しかし文明の
    支払いには使うことができる」); a card with no printed mana number counts 0 points of
    its own civilizations; effects may make it 2 or more. A card that is already tapped
    gives nothing (「すでにタップされているカードからマナを生み出すことはできない」).
    A card with no civilization (a colorless card in the mana zone) gives points only.

    >>> ManaCard("d1", {"fire", "nature"}).civilizations == {FIRE, NATURE}
    True
    """

    id: str
    civilizations: frozenset = frozenset()
    mana_number: int = 1
    tapped: bool = False
    name: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise RequestError(f"a mana-zone card needs an id (a non-empty string), not {self.id!r}", "id")
        try:
            object.__setattr__(self, "civilizations", civilization_set(self.civilizations))
        except RequestError as error:
            raise error.located("civilizations") from None
        _whole_number(self.mana_number, "mana_number", "mana_number", minimum=0)
        if not isinstance(self.tapped, bool):
            raise RequestError(f"tapped must be true or false, not {self.tapped!r}", "tapped")
        if self.name is not None and not isinstance(self.name, str):
            raise RequestError(f"name must be a string, not {self.name!r}", "name")

    @property
    def kind(self) -> tuple:
        """What makes two mana-zone cards interchangeable for paying: the same
        civilizations and the same mana number (the id and name do not matter)."""
        return (self.civilizations, self.mana_number)

    def has(self, civilization: Civilization) -> bool:
        return civilization in self.civilizations


@dataclass(frozen=True, slots=True)
class DMCard:
    """The card to play: its printed cost and civilizations (none for a colorless card).

    The printed cost never changes: reductions and increases change only what is paid
    (seed 004: 「マナコストの値自体が変化するのではなく、あくまで支払いコストが変化する
    だけである」), so they live on ``DMRequest``, not here.
    """

    name: str
    cost: int
    civilizations: frozenset = frozenset()

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise RequestError(f"name must be a string, not {self.name!r}", "name")
        _whole_number(self.cost, "cost", "cost", minimum=0)
        try:
            object.__setattr__(self, "civilizations", civilization_set(self.civilizations))
        except RequestError as error:
            raise error.located("civilizations") from None


@dataclass(frozen=True, slots=True)
class DMRequest:
    """A Duel Masters payment request: the card to play, cost changes, the mana zone.

    ``cost_change`` is the sum of all reductions (negative) and increases (positive) on
    the card (seed 004: コスト軽減 such as コッコ・ルピア, コスト加重 such as 封魔ゴーゴン
    シャック). ``min_cost`` is the floor the effects set; without it, a reduction stops at
    1, as Duel Masters reductions say ("コストは1より少なくならない"), and never raises a
    card that costs 0.
    """

    card: DMCard
    mana_zone: tuple = ()
    cost_change: int = 0
    min_cost: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "mana_zone", tuple(self.mana_zone))
        _whole_number(self.cost_change, "cost_change", "cost_change")
        if self.min_cost is not None:
            _whole_number(self.min_cost, "min_cost", "min_cost", minimum=0)
        first_seen: dict = {}
        for i, card in enumerate(self.mana_zone):
            if not isinstance(card, ManaCard):
                raise RequestError(f"expected a mana-zone card, not {card!r}", f"mana_zone[{i}]")
            if card.id in first_seen:
                raise RequestError(f"duplicate id {card.id!r} (also mana_zone[{first_seen[card.id]}])",
                                   f"mana_zone[{i}].id")
            first_seen[card.id] = i

    @property
    def cost_to_pay(self) -> int:
        """The points to pay: the card's cost changed by ``cost_change``, floored.

        >>> card = DMCard("Perfect Earth", 5, {"light", "water", "darkness", "fire", "nature"})
        >>> DMRequest(card, cost_change=-2).cost_to_pay, DMRequest(card, cost_change=-9).cost_to_pay
        (3, 1)
        >>> DMRequest(card, cost_change=-9, min_cost=0).cost_to_pay
        0
        """
        floor = self.min_cost if self.min_cost is not None else min(1, self.card.cost)
        return max(self.card.cost + self.cost_change, floor)

    @property
    def required_civilizations(self) -> tuple:
        """Each civilization of the card, in game order: each needs its own tapped card."""
        return in_game_order(self.card.civilizations)

    @property
    def untapped(self) -> tuple:
        """The mana-zone cards that can still be tapped for mana."""
        return tuple(card for card in self.mana_zone if not card.tapped)


# --- answers: a plan, or the certificate of an unpayable card --------------------------

#: what a step of a plan pays: one of the card's civilizations, or points only
PAYS_CIVILIZATION, PAYS_POINTS = "civilization", "points"

#: the reason codes of an unpayable Duel Masters card (the protocol's ``reason.code``)
CIVILIZATIONS, POINTS = "civilizations", "points"


@dataclass(frozen=True, slots=True)
class DMStep:
    """One mana-zone card tapped: it makes ``points`` (its mana number) of ONE
    ``civilization`` (None for a card with no civilization), and ``pays`` either a
    civilization of the card to play or points only.

    The official order is civilizations, then the missing points (seed 004 補足), so a
    plan lists its civilization payers first.

    >>> DMStep("n1", NATURE, 1, "both")
    Traceback (most recent call last):
    ...
    manaplan.model.errors.RequestError: pays must be 'civilization' or 'points', not 'both' (at pays)
    """

    card: str
    civilization: Civilization | None
    points: int
    pays: str

    def __post_init__(self) -> None:
        if self.pays not in (PAYS_CIVILIZATION, PAYS_POINTS):
            raise RequestError(f"pays must be {PAYS_CIVILIZATION!r} or {PAYS_POINTS!r}, not {self.pays!r}",
                               "pays")
        if self.civilization is not None and not isinstance(self.civilization, Civilization):
            object.__setattr__(self, "civilization", Civilization(self.civilization))


@dataclass(frozen=True, slots=True)
class DMPlan:
    """A Duel Masters payment: the cards tapped, in the order a player taps them, for a
    card whose cost to pay is ``cost_to_pay``. What it taps, which card paid each
    civilization, its points and its excess are read off the steps, never stored twice.
    Duel Masters payments neither sacrifice nor pay life.

    >>> plan = DMPlan((DMStep("n1", NATURE, 1, PAYS_CIVILIZATION), DMStep("f1", FIRE, 1, PAYS_POINTS)), 2)
    >>> plan.tapped, plan.civilizations, plan.points, plan.excess
    (('n1', 'f1'), {Civilization(name='nature'): 'n1'}, 2, 0)
    """

    steps: tuple
    cost_to_pay: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", tuple(self.steps))

    @property
    def tapped(self) -> tuple:
        """The ids of the cards tapped, in order."""
        return tuple(step.card for step in self.steps)

    @property
    def civilizations(self) -> dict:
        """Each civilization paid and the card that paid it (the first, if a broken plan
        pays one twice), in the order of the steps."""
        paid: dict = {}
        for step in self.steps:
            if step.pays == PAYS_CIVILIZATION and step.civilization is not None:
                paid.setdefault(step.civilization, step.card)
        return paid

    @property
    def points(self) -> int:
        """The points tapped."""
        return sum(step.points for step in self.steps)

    @property
    def excess(self) -> int:
        """The points tapped beyond the cost to pay (allowed only as far as finishing the
        civilizations needs, seed 004)."""
        return self.points - self.cost_to_pay


@dataclass(frozen=True, slots=True)
class CivilizationShortfall:
    """Certificate (Hall's condition): the card needs each of ``civilizations`` paid by
    a different card, and only the untapped cards ``sources`` (fewer than the
    civilizations) have any of them; a card pays only one civilization (seed 004:
    「それ1枚で文明の支払いを済ませることはできない」)."""

    civilizations: tuple  # Civilization, in game order
    sources: tuple        # card ids, sorted


@dataclass(frozen=True, slots=True)
class PointsShortfall:
    """Certificate: the cost to pay is ``needed`` points and the whole untapped mana
    zone gives only ``available``."""

    needed: int
    available: int
