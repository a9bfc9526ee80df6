"""The mana-symbol grammar (CR 107.4), in one place.

Every notation manaplan reads or writes (spell costs, ability costs, mana added, the
floating pool) is a run of braced symbols as Scryfall writes them: ``{2}{W}{U/P}``.
This module is the only one that knows how a symbol is spelled, what it is worth for
mana value (CR 202.3) and how it may be paid (CR 107.4, 118.13a): adding a symbol kind
is one change here.

>>> Symbol.parse("{W/U/P}")
Symbol(kind='hybrid_phyrexian', colors=('W', 'U'), amount=1)
>>> str(Symbol.parse("{2/G}")), str(Symbol.parse("{C/W}"))
('{2/G}', '{C/W}')
>>> [str(s) for s in parse_symbols("{X}{R}")]
['{X}', '{R}']
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import lru_cache
from manaplan.model.errors import SymbolError

#: The five colors in WUBRG order (CR 105.1), then colorless mana's type (CR 106.1b).
COLORS = ("W", "U", "B", "R", "G")
MANA_TYPES = COLORS + ("C",)
COLOR_NAMES = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green", "C": "colorless"}

#: The ten two-color pairs as printed (CR 107.4e): allied pairs, then enemy pairs.
HYBRID_PAIRS = (
    ("W", "U"), ("U", "B"), ("B", "R"), ("R", "G"), ("G", "W"),
    ("W", "B"), ("U", "R"), ("B", "G"), ("R", "W"), ("G", "U"),
)

GENERIC = "generic"
COLORED = "colored"
COLORLESS = "colorless"
VARIABLE = "variable"
HYBRID = "hybrid"
TWOBRID = "twobrid"
PHYREXIAN = "phyrexian"
HYBRID_PHYREXIAN = "hybrid_phyrexian"
SNOW = "snow"
COLORLESS_HYBRID = "colorless_hybrid"

#: the announced halves of a symbol that are not a color (CR 601.2b, 107.4e-f): paid as
#: generic mana, or with 2 life
GENERIC_HALF = "generic"
LIFE_HALF = "life"

#: The largest number a generic symbol, X or any count in a request may have: far
#: beyond any game, small enough that nothing downstream has to fear it.
MAX_AMOUNT = 1_000_000

ALL_TYPES = frozenset(MANA_TYPES)

#: every non-empty set of mana types, smallest first: the 63 sets Hall-style counting
#: proofs range over ("needs 3 blue mana; only 2 sources can make blue")
TYPE_SETS = tuple(frozenset(c) for r in range(1, len(MANA_TYPES) + 1) for c in itertools.combinations(MANA_TYPES, r))


def type_mask(types) -> int:
    """A set of mana types as a bit mask over MANA_TYPES: ``{'W', 'U'}`` -> 3."""
    return sum(1 << MANA_TYPES.index(t) for t in types)


#: the mask of every mana type
ALL_TYPES_MASK = type_mask(MANA_TYPES)

_TOKEN = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True, slots=True)
class Need:
    """One mana that must be of a type in ``types`` (and from a snow source if ``snow``).

    What a single mana must be to pay one unit of a symbol: ``{W}`` needs W; ``{1}``
    needs any type; ``{S}`` needs any type from a snow source (CR 107.4h); ``{C}``
    needs colorless mana, which colored mana cannot pay (CR 107.4c).
    """

    types: frozenset
    snow: bool = False

    @property
    def generic(self) -> bool:
        return self.types == ALL_TYPES and not self.snow

    def __str__(self) -> str:
        if self.snow:
            return "snow"
        if self.generic:
            return GENERIC
        return "/".join(t for t in MANA_TYPES if t in self.types)


ANY = Need(ALL_TYPES)
SNOW_ANY = Need(ALL_TYPES, snow=True)
_NEED_OF = {t: Need(frozenset((t,))) for t in MANA_TYPES}


def need_of(mana_type: str) -> Need:
    """The need paid only by mana of ``mana_type``: ``need_of('W')`` is what ``{W}`` asks."""
    need = _NEED_OF.get(mana_type)
    return need if need is not None else Need(frozenset((mana_type,)))


@dataclass(frozen=True, slots=True)
class PaymentOption:
    """One way to pay a symbol: some mana (each unit a :class:`Need`) and some life.

    Hybrid symbols have one option per half (CR 107.4e); ``{2/W}`` may be paid with
    ``{W}`` or with two generic mana; Phyrexian symbols with their color or 2 life
    (CR 107.4f). Which option is used is announced while casting (CR 601.2b).
    """

    needs: tuple
    life: int = 0
    label: str = ""

    @property
    def mana_count(self) -> int:
        return len(self.needs)


@dataclass(frozen=True, slots=True)
class Symbol:
    """One mana symbol (CR 107.4).

    ``kind`` is one of the module's kind names; ``colors`` the colors in it (or
    ``('C',)`` for ``{C}``); ``amount`` the number for a generic symbol, 2 for
    twobrid, 1 otherwise; a variable symbol keeps its letter in ``colors``.
    """


    kind: str
    colors: tuple = ()
    amount: int = 1

    # -- notation -----------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> "Symbol":
        """Read one braced symbol such as ``{W/P}``; raise SymbolError if unknown."""
        m = _TOKEN.fullmatch(text.strip()) if isinstance(text, str) else None
        if not m:
            raise SymbolError(f"not a mana symbol: {text!r} (symbols are written in braces, like {{W}})")
        return cls._from_body(m.group(1), text)

    @classmethod
    def _from_body(cls, body: str, text: str) -> "Symbol":
        if body.isascii() and body.isdigit():
            if len(body) > 1 and body.startswith("0"):
                raise SymbolError(f"unknown mana symbol {text}: write {{{int(body)}}}")
            if len(body) > 7 or int(body) > MAX_AMOUNT:
                raise SymbolError(f"mana symbol {text} is too large (at most {MAX_AMOUNT})")
            return cls(GENERIC, (), int(body))
        if body in COLORS:
            return cls(COLORED, (body,))
        if body == "C":
            return cls(COLORLESS, ("C",))
        if body in ("X", "Y", "Z"):
            return cls(VARIABLE, (body,), 0)
        if body == "S":
            return cls(SNOW)
        parts = body.split("/")
        if len(parts) == 2 and parts[0] == "2" and parts[1] in COLORS:
            return cls(TWOBRID, (parts[1],), 2)
        if len(parts) == 2 and parts[0] == "C" and parts[1] in COLORS:
            return cls(COLORLESS_HYBRID, ("C", parts[1]))
        if len(parts) == 2 and parts[0] in COLORS and parts[1] == "P":
            return cls(PHYREXIAN, (parts[0],))
        if len(parts) in (2, 3) and all(p in COLORS for p in parts[:2]):
            pair = (parts[0], parts[1])
            if len(parts) == 3 and parts[2] != "P":
                raise SymbolError(f"unknown mana symbol {text}")
            if pair not in HYBRID_PAIRS:
                if (pair[1], pair[0]) in HYBRID_PAIRS:
                    right = "/".join((pair[1], pair[0]) + tuple(parts[2:]))
                    raise SymbolError(f"unknown mana symbol {text}: hybrid symbols are written {{{right}}}")
                raise SymbolError(f"unknown mana symbol {text}")
            return cls(HYBRID if len(parts) == 2 else HYBRID_PHYREXIAN, pair)
        raise SymbolError(f"unknown mana symbol {text}")

    def __str__(self) -> str:
        k = self.kind
        if k == GENERIC:
            return "{%d}" % self.amount
        if k in (COLORED, COLORLESS, VARIABLE):
            return "{%s}" % self.colors[0]
        if k == SNOW:
            return "{S}"
        if k == TWOBRID:
            return "{2/%s}" % self.colors[0]
        if k == COLORLESS_HYBRID:
            return "{C/%s}" % self.colors[1]
        if k == PHYREXIAN:
            return "{%s/P}" % self.colors[0]
        if k == HYBRID:
            return "{%s/%s}" % self.colors
        return "{%s/%s/P}" % self.colors

    # -- rules ----------------------------------------------------------------------
    def mana_value(self, x: int = 0) -> int:
        """This symbol's share of mana value (CR 202.3): hybrid counts its largest
        half (202.3f), Phyrexian counts 1 (202.3g), X its chosen value on the stack and
        0 elsewhere (202.3e)."""
        if self.kind == VARIABLE:
            return x
        return self.amount

    @property
    def color_set(self) -> frozenset:
        """Colors this symbol gives an object (CR 202.2, 202.2d); ``{C}`` gives none."""
        return frozenset(c for c in self.colors if c in COLORS)

    def payment_options(self, x: int = 0) -> tuple:
        """Every way to pay this symbol (CR 107.4, 118.13a), as PaymentOptions.

        A generic ``{N}`` and ``{X}`` (with value ``x``) are N or x generic needs;
        ``{C/W}`` is paid with colorless or white mana (CR 107.4e).
        """
        k = self.kind
        if k == GENERIC:
            return (PaymentOption((ANY,) * self.amount, 0, GENERIC_HALF),)
        if k == VARIABLE:
            return (PaymentOption((ANY,) * x, 0, GENERIC_HALF),)
        if k in (COLORED, COLORLESS):
            return (PaymentOption((need_of(self.colors[0]),), 0, self.colors[0]),)
        if k == SNOW:
            return (PaymentOption((SNOW_ANY,), 0, "snow"),)
        if k in (HYBRID, COLORLESS_HYBRID):
            return tuple(PaymentOption((need_of(c),), 0, c) for c in self.colors)
        if k == TWOBRID:
            return (PaymentOption((need_of(self.colors[0]),), 0, self.colors[0]),
                    PaymentOption((ANY, ANY), 0, GENERIC_HALF))
        if k == PHYREXIAN:
            return (PaymentOption((need_of(self.colors[0]),), 0, self.colors[0]),
                    PaymentOption((), 2, LIFE_HALF))
        return tuple(PaymentOption((need_of(c),), 0, c) for c in self.colors) + (PaymentOption((), 2, LIFE_HALF),)

    @property
    def has_choice(self) -> bool:
        """Whether paying it needs an announcement (hybrid, twobrid or Phyrexian)."""
        return self.kind in (HYBRID, TWOBRID, PHYREXIAN, HYBRID_PHYREXIAN, COLORLESS_HYBRID)


def parse_symbols(text: str) -> tuple:
    """Split a mana string such as ``{2}{W}{U/P}`` into Symbols (empty string: none).

    Raises SymbolError naming the first unknown symbol, or stray text between symbols.
    """
    if not isinstance(text, str):
        raise SymbolError(f"a mana string must be text like '{{2}}{{W}}', not {text!r}")
    return _parse_symbols(text)


@lru_cache(maxsize=4096)
def _parse_symbols(text: str) -> tuple:
    """The parse itself, remembered: the same few mana strings recur in every request and
    plan, and the result is an immutable tuple of immutable Symbols."""
    symbols = []
    pos = 0
    for m in _TOKEN.finditer(text):
        if text[pos:m.start()].strip():
            raise SymbolError(f"unexpected text {text[pos:m.start()]!r} in mana string {text!r}")
        symbols.append(Symbol._from_body(m.group(1), m.group(0)))
        pos = m.end()
    if text[pos:].strip():
        raise SymbolError(f"unexpected text {text[pos:]!r} in mana string {text!r}")
    return tuple(symbols)


def format_symbols(symbols) -> str:
    """The inverse of :func:`parse_symbols`."""
    return "".join(str(s) for s in symbols)


def describe_types(types) -> str:
    """``{'U'}`` -> 'blue'; ``{'W', 'U'}`` -> 'white or blue'."""
    names = [COLOR_NAMES[t] for t in MANA_TYPES if t in types]
    if len(names) <= 2:
        return " or ".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]
