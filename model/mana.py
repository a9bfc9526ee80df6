"""Mana costs and mana.

``ManaCost`` is a printed cost (a tuple of symbols, CR 107.4, 202.1); ``Mana`` is one
unit of mana in a pool, with its type and what it may be spent on (CR 106.6).

>>> cost = ManaCost.parse("{X}{R}")
>>> cost.mana_value, cost.mana_value_on_stack(x=2)
(1, 3)
>>> str(ManaCost.parse("{2}{W}{U/P}")), sorted(ManaCost.parse("{2}{W}{U/P}").colors)
('{2}{W}{U/P}', ['U', 'W'])
>>> [str(m) for m in parse_mana("{C}{C}")]
['C', 'C']
"""

from __future__ import annotations

from dataclasses import dataclass

from manaplan.model.errors import SymbolError
from manaplan.model.symbols import (
                                    COLORED, COLORLESS, MANA_TYPES, VARIABLE, Need, format_symbols, parse_symbols,
                                    )


@dataclass(frozen=True, slots=True)
class ManaCost:
    """A printed mana cost: the symbols in the order printed.

    ``ManaCost.parse`` and ``str`` round-trip. An object with *no* mana cost is not a
    ManaCost with no symbols: callers keep ``None`` for that (CR 202.1b).
    """

    def __repr__(self) -> str:
        """Short and parseable: ``ManaCost.parse('{2}{W}')``."""
        return f"ManaCost.parse({str(self)!r})"


    symbols: tuple = ()

    @classmethod
    def parse(cls, text: str) -> "ManaCost":
        return cls(parse_symbols(text))

    def __str__(self) -> str:
        return format_symbols(self.symbols)

    def __add__(self, other: "ManaCost") -> "ManaCost":
        return ManaCost(self.symbols + other.symbols)

    @property
    def mana_value(self) -> int:
        """Mana value off the stack (CR 202.3): X counts 0 (202.3e), hybrid its largest
        half (202.3f), Phyrexian 1 (202.3g)."""
        return self.mana_value_on_stack(0)

    def mana_value_on_stack(self, x: int) -> int:
        """Mana value of the spell on the stack, cast with X = ``x`` (CR 202.3e)."""
        return sum(s.mana_value(x) for s in self.symbols)

    @property
    def colors(self) -> frozenset:
        """The object's colors from its cost (CR 202.2, hybrid and Phyrexian included)."""
        out: frozenset[str] = frozenset()
        for s in self.symbols:
            out |= s.color_set
        return out

    @property
    def x_count(self) -> int:
        """How many ``{X}`` (or Y, Z) symbols: Orochi Hatchery ``{X}{X}`` has 2."""
        return sum(1 for s in self.symbols if s.kind == VARIABLE)


def split_card_mana_value(halves, cast_half: int | None = None, fused: bool = False, x: int = 0) -> int:
    """Mana value of a split card (CR 202.3d, 709.3b): the sum of both halves' costs
    off the stack or when fused, the cast half's cost on the stack."""
    halves = list(halves)
    if cast_half is None or fused:
        return sum(h.mana_value_on_stack(x if fused else 0) for h in halves)
    return halves[cast_half].mana_value_on_stack(x)


def back_face_mana_value(front: ManaCost | None, x: int = 0) -> int:
    """A transforming double-faced card's back face uses its front face's cost (CR 202.3b)."""
    return 0 if front is None else front.mana_value_on_stack(x)


def melded_mana_value(front_a: ManaCost | None, front_b: ManaCost | None) -> int:
    """A melded permanent's mana value is the sum of both front faces' (CR 202.3c)."""
    return back_face_mana_value(front_a) + back_face_mana_value(front_b)


@dataclass(frozen=True, slots=True)
class Mana:
    """One mana in a pool: its type (W U B R G or C), whether it came from a snow
    source (CR 107.4h), and what it may be spent on.

    ``spell_only`` mana may pay only the spell being cast (a restriction such as
    "spend this mana only to cast creature spells" that this spell meets, or convoke);
    ``generic_only`` mana may pay only generic costs (improvise and delve, CR 702.126,
    702.66, and colorless convoke); ``ability_only`` mana may not pay this
    spell but may pay ability costs (Powerstone's, for a nonartifact spell). ``source`` names the permanent (or ``pool``) it came from.
    ``keyword`` marks what convoke, improvise and delve pay: not mana at all (a creature
    tapped, a card exiled, CR 702.51a), so effects on how mana is spent don't apply to it.
    """

    type: str
    snow: bool = False
    spell_only: bool = False
    generic_only: bool = False
    ability_only: bool = False
    source: str = ""
    keyword: bool = False

    def __str__(self) -> str:
        return self.type

    @property
    def kind(self) -> tuple:
        """Everything that decides what this mana can pay, without its source."""
        return (self.type, self.snow, self.spell_only, self.generic_only, self.ability_only, self.keyword)

    @classmethod
    def of_kind(cls, kind: tuple, source: str = "") -> "Mana":
        """The mana of a :attr:`kind` (inverse of it)."""
        return cls(kind[0], kind[1], kind[2], kind[3], kind[4], source, kind[5])

    def can_pay(self, need: Need, for_spell: bool, any_color: bool = False) -> bool:
        """Whether this mana may pay ``need`` on the spell (``for_spell``) or on an
        ability's cost (CR 106.6: restrictions say what mana may be spent on).
        ``any_color``: the player may spend mana as though it were mana of any color
        (Chromatic Orrery, CR 609.4b), so any mana pays a need of one color; it changes
        neither the cost ({C} still takes colorless mana, {S} snow mana) nor what
        convoke, improvise or delve pay.

        >>> from manaplan.model.symbols import need_of
        >>> Mana("C").can_pay(need_of("W"), True), Mana("C").can_pay(need_of("W"), True, any_color=True)
        (False, True)
        >>> Mana("G").can_pay(need_of("C"), True, any_color=True)
        False
        """
        if (self.ability_only and for_spell) or (self.spell_only and not for_spell):
            return False
        if self.generic_only and not need.generic:
            return False
        if need.snow and not self.snow:
            return False
        if any_color and not self.keyword and len(need.types) == 1 and not need.types & _COLORLESS:
            return True
        return self.type in need.types


#: how a player may spend mana (CR 609.4b): as though it were mana of any color
SPEND_AS_ANY_COLOR = "any_color"
_COLORLESS = frozenset("C")


def parse_mana(text: str, **props) -> tuple:
    """Read mana that is *added* (``{R}{G}``, ``{C}{C}``) into Mana units.

    Only one-type symbols can be added; ``{2}`` is a cost, not mana (CR 106.1).
    """
    out = []
    for s in parse_symbols(text):
        if s.kind not in (COLORED, COLORLESS):
            raise SymbolError(f"{s} is not a type of mana that can be added; use {{W}} {{U}} {{B}} {{R}} {{G}} or {{C}}")
        out.append(Mana(s.colors[0], **props))
    return tuple(out)


def format_types(types) -> str:
    """Mana types as a mana string, in WUBRGC order: ``('G', 'W')`` -> ``{W}{G}``."""
    types = tuple(types)
    if len(types) == 1:  # most steps add one mana
        return _ONE_TYPE.get(types[0]) or "{%s}" % types[0]
    return "".join("{%s}" % t for t in sorted(types, key=MANA_TYPES.index))


_ONE_TYPE = {t: "{%s}" % t for t in MANA_TYPES}


def format_mana(units) -> str:
    """Mana units as a mana string, in WUBRGC order: ``{W}{U}{C}``."""
    return format_types(m.type for m in units)
