"""Duel Masters game objects: civilizations, mana-zone cards, the card to play, a request.

Duel Masters pays costs differently from Magic (seed 004, DM Wiki "マナ"): there is no
mana pool and no symbol grammar. Each card in the mana zone, when tapped, makes one mana
whose *points* are the card's mana number and whose *color* is one of the card's
civilizations; the card to play needs its cost in points and, for each of its
civilizations, a different tapped card that paid that civilization.

This module only describes and validates; deciding how to pay is ``solver.duel_masters``.

>>> request = parse_request({"game": "duel-masters",
...     "card": {"name": "Faerie Life", "cost": 2, "civilizations": ["nature"]},
...     "mana_zone": [{"id": "f1", "civilizations": ["fire"]},
...                   {"id": "n1", "civilizations": ["nature"], "tapped": True}]})
>>> request.cost_to_pay, [str(c) for c in request.required_civilizations]
(2, ['nature'])
>>> [card.id for card in request.untapped]
['f1']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from .errors import RequestError

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
ALL_CIVILIZATIONS = frozenset((LIGHT, WATER, DARKNESS, FIRE, NATURE))
_BY_NAME = {str(c): c for c in ALL_CIVILIZATIONS}


def civilization_set(values: Iterable[Any]) -> frozenset:
    """Civilizations from names or ``Civilization`` objects (a convenience for the
    Python API; requests go through ``parse_request``, which also locates errors)."""
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

    @property
    def is_rainbow(self) -> bool:
        """A five-civilization card (they print mana number 0)."""
        return self.civilizations == ALL_CIVILIZATIONS

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

    @property
    def is_colorless(self) -> bool:
        """A colorless card needs no civilization paid (「プレイしたいカードが無色ならば、
        この手順は必要ない」)."""
        return not self.civilizations


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
    id: Any = None

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

    def mana_card(self, card_id: str) -> ManaCard | None:
        """The mana-zone card with this id, if any."""
        return next((card for card in self.mana_zone if card.id == card_id), None)

    def as_dict(self) -> dict:
        """The request in protocol shape; ``parse_request(r.as_dict()) == r``."""
        out: dict = {"game": "duel-masters"}
        if self.id is not None:
            out["id"] = self.id
        out["card"] = {"name": self.card.name, "cost": self.card.cost,
                       "civilizations": [str(c) for c in in_game_order(self.card.civilizations)]}
        out["cost_change"] = self.cost_change
        if self.min_cost is not None:
            out["min_cost"] = self.min_cost
        zone = []
        for card in self.mana_zone:
            entry = {"id": card.id, "civilizations": [str(c) for c in in_game_order(card.civilizations)],
                     "mana_number": card.mana_number, "tapped": card.tapped}
            if card.name is not None:
                entry["name"] = card.name
            zone.append(entry)
        out["mana_zone"] = zone
        return out


# --- parsing the protocol's JSON shape -----------------------------------------------

_REQUEST_FIELDS = ("game", "query", "id", "card", "cost_change", "min_cost", "mana_zone")
_CARD_FIELDS = ("name", "cost", "civilizations")
_MANA_CARD_FIELDS = ("id", "name", "civilizations", "mana_number", "tapped")


def _object(value: Any, what: str, at: str | None) -> dict:
    if not isinstance(value, dict):
        raise RequestError(f"{what} must be an object, not {type(value).__name__}", at)
    return value


def _no_unknown_fields(data: dict, known: tuple, prefix: str) -> None:
    # A misspelt field ("mana_numer") would otherwise be ignored and its default used.
    for key in data:
        if key not in known:
            raise RequestError(f"unknown field {key!r} (known: {', '.join(known)})",
                               f"{prefix}.{key}" if prefix else str(key))


def _parse_civilizations(value: Any, at: str) -> frozenset:
    if not isinstance(value, list):
        raise RequestError(f"civilizations must be a list of names, not {value!r}", at)
    seen: set = set()
    for i, name in enumerate(value):
        if not isinstance(name, str):
            raise RequestError(f"a civilization is a name such as 'fire', not {name!r}", f"{at}[{i}]")
        civilization = _BY_NAME.get(name)
        if civilization is None:
            try:
                Civilization(name)  # raises, naming the unknown civilization
            except RequestError as error:
                raise error.located(f"{at}[{i}]") from None
        if civilization in seen:
            raise RequestError(f"civilization {name!r} is listed twice", f"{at}[{i}]")
        seen.add(civilization)
    return frozenset(seen)


def _required(data: dict, key: str, what: str, at: str) -> Any:
    if key not in data:
        raise RequestError(f"{what} is missing", at)
    return data[key]


def _parse_card(data: Any) -> DMCard:
    data = _object(data, "card", "card")
    _no_unknown_fields(data, _CARD_FIELDS, "card")
    name = data.get("name", "the card")
    if not isinstance(name, str):
        raise RequestError(f"card name must be a string, not {name!r}", "card.name")
    cost = _whole_number(_required(data, "cost", "card.cost", "card.cost"), "cost", "card.cost", minimum=0)
    civilizations = _parse_civilizations(
        _required(data, "civilizations", "card.civilizations (use [] for a colorless card)",
                  "card.civilizations"),
        "card.civilizations")
    return DMCard(name, cost, civilizations)


def _parse_mana_card(data: Any, at: str) -> ManaCard:
    data = _object(data, "a mana-zone card", at)
    _no_unknown_fields(data, _MANA_CARD_FIELDS, at)
    card_id = _required(data, "id", "id", f"{at}.id")
    if not isinstance(card_id, str) or not card_id:
        raise RequestError(f"id must be a non-empty string, not {card_id!r}", f"{at}.id")
    civilizations = _parse_civilizations(
        _required(data, "civilizations", "civilizations", f"{at}.civilizations"), f"{at}.civilizations")
    mana_number = data.get("mana_number", 1)
    if mana_number is None:  # printed without a mana number: 0 points (seed 004)
        mana_number = UNPRINTED_MANA_NUMBER
    _whole_number(mana_number, "mana_number", f"{at}.mana_number", minimum=0)
    tapped = data.get("tapped", False)
    if not isinstance(tapped, bool):
        raise RequestError(f"tapped must be true or false, not {tapped!r}", f"{at}.tapped")
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise RequestError(f"name must be a string, not {name!r}", f"{at}.name")
    return ManaCard(card_id, civilizations, mana_number, tapped, name)


def parse_request(data: Any) -> DMRequest:
    """Read and validate a Duel Masters request in protocol shape.

    Every problem raises ``RequestError`` with ``at`` set to where it is
    (``mana_zone[2].civilizations[0]``); nothing is guessed: unknown fields, a card
    without civilizations, ``"Fire"`` instead of ``"fire"`` are errors. Defaults are the
    protocol's: ``mana_number`` 1 (``null`` = not printed = 0), ``tapped`` false,
    ``cost_change`` 0.
    """
    data = _object(data, "a request", None)
    _no_unknown_fields(data, _REQUEST_FIELDS, "")
    if data.get("game", "duel-masters") != "duel-masters":
        raise RequestError(f"this is the Duel Masters profile; game must be 'duel-masters', "
                           f"not {data.get('game')!r}", "game")
    if data.get("query", "pay") != "pay":
        raise RequestError(f"Duel Masters requests support the query 'pay' only, not {data.get('query')!r}",
                           "query")
    request_id = data.get("id")
    if request_id is not None and (isinstance(request_id, bool) or not isinstance(request_id, (str, int))):
        raise RequestError(f"id must be a string or a whole number, not {request_id!r}", "id")
    card = _parse_card(_required(data, "card", "card", "card"))
    cost_change = _whole_number(data.get("cost_change", 0), "cost_change", "cost_change")
    min_cost = data.get("min_cost")
    if min_cost is not None:
        _whole_number(min_cost, "min_cost", "min_cost", minimum=0)
    zone = _required(data, "mana_zone", "mana_zone (use [] for an empty mana zone)", "mana_zone")
    if not isinstance(zone, list):
        raise RequestError(f"mana_zone must be a list of cards, not {type(zone).__name__}", "mana_zone")
    cards = tuple(_parse_mana_card(entry, f"mana_zone[{i}]") for i, entry in enumerate(zone))
    return DMRequest(card, cards, cost_change, min_cost, request_id)
