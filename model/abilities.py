"""Mana abilities (CR 605): what an activation costs and what it adds, and whether it
can be activated while a spell is paid for.

A permanent (:class:`manaplan.model.board.Permanent`) has :class:`Ability` objects; each
has an :class:`AbilityCost` (``{T}``, ``{Q}``, mana, life, sacrificing itself, removing
counters) and an :class:`Output` (what it adds). Costs are written as cards write them,
joined by ``, `` (``{1}, {T}``, ``{T}, Sacrifice this``, ``Pay 2 life``), and parse and
format round-trip.

>>> AbilityCost.parse("{W/B}, {T}")
AbilityCost.parse('{W/B}, {T}')
>>> str(AbilityCost.parse("{T}, Sacrifice this"))
'{T}, Sacrifice this'
>>> Output.parse(["{W}{W}", "{W}{B}", "{B}{B}"]).alternatives
(('W', 'W'), ('W', 'B'), ('B', 'B'))
"""

from __future__ import annotations

import re
from dataclasses import MISSING, dataclass, field
from typing import TYPE_CHECKING

from manaplan.model.errors import ManaplanError, RequestError
from manaplan.model.mana import ManaCost, parse_mana
from manaplan.model.symbols import COLORS, MANA_TYPES, VARIABLE

if TYPE_CHECKING:
    from manaplan.model.board import Permanent

#: the most mana one activation may add in a request
MAX_ADDED = 100


#: what "for each ... you control" may count, besides a subtype ("Swamp", "Elf")
COUNTABLE = ("land", "basic land", "creature", "artifact", "enchantment", "permanent")


#: "an amount of mana of that color equal to your devotion to that color" (CR 700.5)
DEVOTION = "devotion"


#: the protocol's ``add`` of an ability that doubles each type of unspent mana (Doubling Cube)
DOUBLE = "double"


_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                 "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


#: color words as a kind of permanent says them ("green creature")


def number_word(word: str) -> int | None:
    """``'two'`` -> 2, ``'3'`` -> 3, anything else -> None."""
    word = word.lower()
    if word.isdigit():
        return int(word)
    return _NUMBER_WORDS.get(word)


@dataclass(frozen=True, slots=True)
class AbilityCost:
    """The cost of an activated mana ability (CR 602.1, 118).

    ``counters`` counters of ``counter_kind`` are removed from the permanent itself.
    """

    def __repr__(self) -> str:
        """Short and parseable where its words say it whole (``AbilityCost.parse('{1}, {T}')``),
        else every field."""
        text = str(self)
        try:
            if AbilityCost.parse(text) == self:
                return f"AbilityCost.parse({text!r})"
        except ValueError:
            pass
        return "AbilityCost(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in self.__dataclass_fields__
                                          if getattr(self, f) != self.__dataclass_fields__[f].default) + ")"


    tap: bool = False
    untap: bool = False
    mana: ManaCost = ManaCost()
    life: int = 0
    sacrifice: bool = False
    counter_kind: str = ""
    counters: int = 0
    #: "Sacrifice a creature" (Ashnod's Altar): a permanent of this kind is sacrificed, not
    #: this one; paid through the sacrificed permanent (see model.dependent_mana)
    sacrifice_other: str = ""
    #: "Tap an untapped creature you control" (Springleaf Drum): a permanent of this kind
    #: is tapped, not (only) this one; paid through the tapped permanent
    tap_other: str = ""
    #: this tap is another permanent's cost (Springleaf Drum's), not this permanent's own
    #: {T} ability: summoning sickness does not stop it (CR 302.6)
    by_other: bool = False
    #: energy counters the player pays ({E}: Aether Hub's "Pay {E}", CR 107.14)
    energy: int = 0
    #: cards milled (Millikin's "Mill a card": the library is taken to hold them; an ability
    #: that moves a card out of a library is not a mana ability, CR 605.1a as of 2026-08-07)
    mills: int = 0
    #: "Discard your hand" (Lion's Eye Diamond): a spell cast from the hand goes with it
    discards_hand: bool = False

    _MILL = re.compile(r"mill (a|one|two|three|\d+) cards?", re.I)
    _SACRIFICE = re.compile(r"sacrifice (this|~|it)( [a-z]+)?", re.I)
    _SACRIFICE_OTHER = re.compile(r"sacrifice an? (creature|artifact|land|enchantment|[A-Z][a-z]+)")
    _TAP_OTHER = re.compile(r"tap an untapped (creature|artifact|land|[A-Z][a-z]+) you control")
    _LIFE = re.compile(r"pay (\w+) life", re.I)
    _ENERGY = re.compile(r"pay ((?:\{E\})+)", re.I)
    _COUNTER = re.compile(r"remove (\w+) ([\w-]+) counters? from (this|~|it)( [a-z]+)?", re.I)

    @classmethod
    def parse(cls, text: str, name: str = "") -> "AbilityCost":
        """Read a cost such as ``{2}, {T}, Pay 1 life`` (parts joined by commas).

        ``name`` is the permanent's name, which Oracle text uses for "this"."""
        if not isinstance(text, str) or not text.strip():
            raise RequestError("an ability cost must be non-empty text such as '{T}'")
        tap = untap = sacrifice = False
        mana = ManaCost()
        life = counters = 0
        counter_kind = other = tap_other = ""
        energy = mills = 0
        discards_hand = False
        for raw in text.split(","):
            part = raw.strip()
            if name and part.lower().startswith(("sacrifice ", "remove ")):
                part = re.sub(r"(?<!\w)" + re.escape(name) + r"(?!\w)", "this", part)
            if part == "{T}":
                tap = True
            elif part == "{Q}":
                raise RequestError("{Q} (untap) costs are not supported yet")
            elif part.startswith("{") and part.endswith("}") and "{T}" not in part and "{Q}" not in part:
                extra = ManaCost.parse(part)
                if any(s.kind == VARIABLE for s in extra.symbols):
                    raise RequestError(f"X in an ability's cost ({text!r}) is not supported")
                mana = mana + extra
            elif m := cls._SACRIFICE.fullmatch(part):
                sacrifice = True
            elif m := cls._SACRIFICE_OTHER.fullmatch(part[:1].lower() + part[1:]):
                if other:
                    raise RequestError(f"{text!r}: a cost that sacrifices two other permanents is not supported")
                other = m.group(1)
            elif m := cls._TAP_OTHER.fullmatch(part[:1].lower() + part[1:]):
                if tap_other:
                    raise RequestError(f"{text!r}: a cost that taps two other permanents is not supported")
                tap_other = m.group(1)
            elif m := cls._ENERGY.fullmatch(part):
                energy += m.group(1).count("{")
            elif m := cls._MILL.fullmatch(part):
                mills += number_word(m.group(1)) or (1 if m.group(1).lower() in ("a", "one") else 0)
            elif part.lower() == "discard your hand":
                discards_hand = True
            elif (m := cls._LIFE.fullmatch(part)) and (paid := number_word(m.group(1))) is not None:
                if paid > 1000:
                    raise RequestError(f"{part!r}: at most 1000 life")
                life += paid
            elif (m := cls._COUNTER.fullmatch(part)) and (removed := number_word(m.group(1))):
                if removed > 1000:
                    raise RequestError(f"{part!r}: at most 1000 counters")
                counter_kind, counters = m.group(2).lower(), removed
            else:
                raise RequestError(f"cannot read the cost part {part!r} in {text!r}; known parts: "
                                   "{T}, mana symbols, 'Pay N life', 'Sacrifice this', 'Sacrifice a creature' "
                                   "(a kind), 'Remove a <kind> counter from this'")
        if (other or tap_other) and (sacrifice or counters or (other and tap_other)):
            raise RequestError(f"{text!r}: a cost that sacrifices or taps another permanent and also sacrifices "
                               "this one, removes counters or both taps and sacrifices others is not supported yet")
        return cls(tap, untap, mana, life, sacrifice, counter_kind, counters, other, tap_other, energy=energy,
                   mills=mills, discards_hand=discards_hand)

    def __str__(self) -> str:
        parts = []
        if self.mana.symbols:
            parts.append(str(self.mana))
        if self.tap:
            parts.append("{T}")
        if self.untap:
            parts.append("{Q}")
        if self.life:
            parts.append(f"Pay {self.life} life")
        if self.energy:
            parts.append("Pay " + "{E}" * self.energy)
        if self.mills:
            parts.append("Mill a card" if self.mills == 1 else f"Mill {self.mills} cards")
        if self.discards_hand:
            parts.append("Discard your hand")
        if self.sacrifice:
            parts.append("Sacrifice this")
        if self.counters:
            n = "a" if self.counters == 1 else str(self.counters)
            parts.append(f"Remove {n} {self.counter_kind} counter{'s' if self.counters > 1 else ''} from this")
        if self.sacrifice_other:
            parts.append(f"Sacrifice {'an' if self.sacrifice_other[0] in 'aeiouAEIOU' else 'a'} {self.sacrifice_other}")
        if self.tap_other:
            parts.append(f"Tap an untapped {self.tap_other} you control")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Output:
    """What a mana ability adds: one of ``alternatives`` (each a tuple of mana types),
    or, if ``combination`` > 0, that many mana in any combination of ``combination_types``
    (Cascading Cataracts: five mana in any combination of colors). With ``doubles``
    (Doubling Cube: "Double the amount of each type of unspent mana you have"), it adds as
    much mana of each type as the player has unspent when it resolves (CR 701.9f).
    """

    def __repr__(self) -> str:
        """Short and parseable where its form says it whole (``Output.parse('{G}')``), else
        every field that is not its default."""
        form = self.format()
        try:
            if Output.parse(form) == self:
                return f"Output.parse({form!r})"
        except (ValueError, TypeError):
            pass
        return "Output(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in self.__dataclass_fields__
                                     if getattr(self, f) != self.__dataclass_fields__[f].default) + ")"


    alternatives: tuple = ()
    combination: int = 0
    combination_types: tuple = COLORS
    per: str = ""  # "for each <per> you control": counted on the board (see Board.resolve_amounts)
    doubles: bool = False

    @classmethod
    def parse(cls, spec) -> "Output":
        """Read the protocol's ``add``: a mana string, a list of them, ``"any"``,
        ``{"any": N}`` (N mana of one color), ``{"combination": N}`` or
        ``{"for_each": "creature", "mana": "{G}"}`` (Gaea's Cradle), ``"double"`` (each
        type of unspent mana doubled: Doubling Cube)."""
        if spec == "any":
            return cls(tuple((c,) for c in COLORS))
        if spec == DOUBLE:
            return cls((), doubles=True)
        if isinstance(spec, dict) and set(spec) == {"for_each", "mana"}:
            per = spec["for_each"]
            if per != DEVOTION and not (
                    isinstance(per, str) and (per in COUNTABLE or re.fullmatch(r"(?:basic )?[A-Z][a-z]+", per))):
                raise RequestError(f"'for_each' must be one of {', '.join(COUNTABLE)} or a subtype such as Swamp or "
                                   f"Elf, not {per!r}", "for_each")
            inner = cls.parse(spec["mana"])
            if per == DEVOTION:  # each alternative: its color's mana, once per symbol of that color
                if inner.combination or inner.per or not all(len(a) == 1 and a[0] in COLORS
                                                             for a in inner.alternatives):
                    raise RequestError('devotion adds mana of one color: "mana" must be "any" or one colored '
                                       'symbol such as "{G}"', "mana")
            elif inner.combination or inner.per:
                raise RequestError('"mana" of a for_each must be a mana string, a list of them or "any"', "mana")
            return cls(inner.alternatives, per=per)
        if isinstance(spec, dict):
            (key, n), = spec.items() if len(spec) == 1 else ((None, None),)
            if key in ("any", "combination") and isinstance(n, int) and not isinstance(n, bool):
                if not 1 <= n <= MAX_ADDED:
                    raise RequestError(f'"add": {{"{key}": N}} needs 1 <= N <= {MAX_ADDED}')
                return cls(tuple((c,) * n for c in COLORS)) if key == "any" else cls((), n)
            raise RequestError('"add" as an object must be {"any": N} or {"combination": N} with N >= 1')
        if isinstance(spec, str):
            spec = [spec]
        if not isinstance(spec, list) or not spec:
            raise RequestError('"add" must be a mana string, a list of them, "any", or {"any": N}')
        alts = []
        for i, s in enumerate(spec):
            try:
                alts.append(tuple(m.type for m in parse_mana(s)))
                if len(alts[-1]) > MAX_ADDED:
                    raise RequestError(f"an ability adds at most {MAX_ADDED} mana here")
            except ManaplanError as e:
                raise RequestError(e.message, f"[{i}]" if len(spec) > 1 else None) from None
            if not alts[-1]:
                raise RequestError("an ability must add at least one mana", f"[{i}]" if len(spec) > 1 else None)
        return cls(tuple(alts))

    def format(self):
        """The protocol's ``add`` form (inverse of :meth:`parse`)."""
        if self.doubles:
            return DOUBLE
        if self.per:
            return {"for_each": self.per, "mana": Output(self.alternatives).format()}
        if self.combination:
            return {"combination": self.combination}
        alts = ["".join("{%s}" % t for t in a) for a in self.alternatives]
        n = len(self.alternatives[0])
        if len(alts) == 5 and all(a == (c,) * n for a, c in zip(self.alternatives, COLORS)):
            return "any" if n == 1 else {"any": n}
        return alts[0] if len(alts) == 1 else alts

    @property
    def max_count(self) -> int:
        """The most mana one activation adds by itself (a doubling: none of its own)."""
        if self.doubles:
            return 0
        return self.combination or max(len(a) for a in self.alternatives)

    def times(self, n: int) -> "Output":
        """``n`` times as much, per alternative: "for each" amounts once counted."""
        return Output(tuple(tuple(t for t in a for _ in range(n)) for a in self.alternatives))

    @property
    def types(self) -> frozenset:
        """Every type of mana it can add."""
        if self.doubles:
            return frozenset(MANA_TYPES)
        if self.combination:
            return frozenset(self.combination_types)
        return frozenset(t for a in self.alternatives for t in a)


@dataclass(frozen=True, slots=True)
class Ability:
    """An ability that adds mana.

    ``mana_ability`` False means it uses the stack (a targeted ability, or one that moves
    cards into or out of a library, CR 605.1a as of 2026-08-07); ``instant_only`` abilities
    are mana abilities that still cannot be activated while a spell is being cast
    (Lion's Eye Diamond). Neither is used mid-payment (CR 601.2g).
    ``restrict`` is what its mana may be spent on ("creature spells"). ``damage`` is life
    lost by the ability's effect (pain lands), counted with life paid.
    ``trigger_damage`` is life lost by a trigger of its tapping (City of Brass's "Whenever
    this land becomes tapped, it deals 1 damage to you."): the trigger resolves after the
    spell is cast (CR 603.3, 601.2i), so it is lost, but never before a payment of life.
    """

    def __repr__(self) -> str:
        """Its fields that are not their defaults (a Forest's: cost, output, text)."""
        return short_repr(self)


    cost: AbilityCost
    output: Output
    restrict: str = ""
    instant_only: bool = False
    mana_ability: bool = True
    damage: int = 0
    text: str = ""
    #: what it adds depends on the rest of the board (Reflecting Pool, Urza's Tower): a
    #: spec that :mod:`manaplan.model.dependent_mana` resolves into ``output`` on each board
    depends: tuple = ()
    #: an ability a permanent has because of another (permanent id, ability index, that
    #: permanent's snow): "Sacrifice a creature: Add {C}{C}" is, for each creature, a
    #: "Sacrifice this" ability whose mana Ashnod's Altar makes; "Lands you control have
    #: ..." (index None). Added on each board by model.dependent_mana.
    via: tuple = ()
    #: whether ``restrict`` keeps its mana off ability costs too: true for "Spend this mana
    #: only to cast ..." (the conservative reading); false for Powerstone's "This mana
    #: can't be spent to cast a nonartifact spell." (it may pay any ability's cost)
    restrict_abilities: bool = True
    #: a resolved ability's form as read (``depends`` not yet worked out): a board built
    #: from resolved permanents is resolved anew from it
    unresolved: "Ability | None" = None
    trigger_damage: int = 0

    @property
    def through(self) -> tuple:
        """(permanent id, ability index) when this is another permanent's ability, had
        through what its cost sacrifices or taps (an altar's); () otherwise."""
        return self.via[:2] if self.via and self.via[1] is not None else ()

    @property
    def given_by(self) -> str:
        """The permanent that gives this ability ("Lands you control have ..."), or ""."""
        return self.via[0] if self.via and self.via[1] is None else ""

    @property
    def usable_mid_cast(self) -> bool:
        return self.mana_ability and not self.instant_only

    @property
    def life(self) -> int:
        return self.cost.life + self.damage + self.trigger_damage


def check_bounded(ability: Ability) -> None:
    """Refuse an ability that could be activated without limit for a profit: the plan
    would be infinite mana, which manaplan does not model."""
    c = ability.cost
    if ability.output.doubles and not (c.tap or c.sacrifice or c.counters):
        raise RequestError("a doubling of the pool that can be activated again and again (no {T}, sacrifice or "
                           "counter in its cost) would double without end; this is not modelled", "cost")
    if c.tap or c.untap or c.sacrifice or c.sacrifice_other or c.tap_other or c.counters or c.life or c.energy:
        return
    if ability.output.max_count > c.mana.mana_value:
        raise RequestError("an ability with no {T}, sacrifice, counter or life cost that adds more mana "
                           "than it costs would give infinite mana; this is not modelled", "cost")


def short_repr(value, skip: tuple = ()) -> str:
    """``Class(field=value, ...)`` of a dataclass, with only the fields that differ from
    their defaults (a permanent's repr was 929 characters, most of them defaults)."""
    fields = value.__dataclass_fields__
    shown = []
    for name, f in fields.items():
        if name in skip or name.startswith("_"):
            continue
        v = getattr(value, name)
        default = f.default if f.default is not MISSING else (f.default_factory() if f.default_factory is not MISSING
                                                               else MISSING)
        if default is MISSING or v != default:
            shown.append(f"{name}={v!r}")
    return f"{type(value).__name__}({', '.join(shown)})"


def can_pay_life(amount: int, life: int) -> bool:
    """CR 118.3: life can be paid only while the life total covers it, and paying 0 life
    is always possible (a life total at 0 or below, after damage, pays nothing else)."""
    return amount == 0 or amount <= life


#: why an ability whose cost sacrifices another permanent is not used as it is: each
#: permanent it may sacrifice has it as a "Sacrifice this" ability (model.dependent_mana)
SACRIFICED_THROUGH = "paid through the permanent it sacrifices or taps"


#: the reasons of :func:`why_unusable` that activating the ability before casting removes
PRECAST_ONLY = ("not a mana ability", "activate only as an instant")


#: Lion's Eye Diamond: activated before the spell is cast (it is "Activate only as an
#: instant"), "Discard your hand" discards the spell too (it is cast from the hand, CR 601.2a)
DISCARDS_THE_SPELL = "its cost discards the hand, and the spell with it (it is cast from the hand)"


def why_unusable(permanent: Permanent, ability: Ability, life: int, allow_precast: bool = False) -> str | None:
    """Why ``ability`` can't be activated while paying for a spell now, or None.

    CR 601.2g lets only mana abilities be activated mid-cast; instant-only ones can't
    (Lion's Eye Diamond); ``{T}`` needs an untapped permanent and, on a creature, no
    summoning sickness (CR 302.6); counters and life must be there to pay (CR 118.3).
    """
    if not ability.usable_mid_cast and not allow_precast:
        return PRECAST_ONLY[0] if not ability.mana_ability else PRECAST_ONLY[1]
    if ability.cost.untap:
        return "{Q} costs are not supported"
    if ability.cost.discards_hand:  # only before casting (instant only), and the spell is in the hand then
        return DISCARDS_THE_SPELL
    if ability.cost.sacrifice_other or ability.cost.tap_other:
        return SACRIFICED_THROUGH
    if ability.cost.tap and permanent.tapped:
        return "tapped"
    if ability.cost.tap and not permanent.can_tap and not ability.cost.by_other:
        return "summoning sick"
    if ability.cost.counters and permanent.counter(ability.cost.counter_kind) < ability.cost.counters:
        return f"no {ability.cost.counter_kind} counter"
    if not can_pay_life(ability.cost.life, life):
        return "not enough life"
    if not ability.output.max_count and not ability.output.doubles:
        return "adds no mana now"  # Gaea's Cradle with no creature: still a mana ability (605.2)
    return None
