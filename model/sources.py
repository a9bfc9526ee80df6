"""Mana sources: permanents and their mana abilities (CR 605), and the player.

A :class:`Permanent` has :class:`Ability` objects; each has an :class:`AbilityCost`
(``{T}``, ``{Q}``, mana, life, sacrificing itself, removing counters) and an
:class:`Output` (what it adds). Costs are written as cards write them, joined by
``, `` (``{1}, {T}``, ``{T}, Sacrifice this``, ``Pay 2 life``), and parse and format
round-trip.

>>> AbilityCost.parse("{W/B}, {T}")
AbilityCost.parse('{W/B}, {T}')
>>> str(AbilityCost.parse("{T}, Sacrifice this"))
'{T}, Sacrifice this'
>>> Output.parse(["{W}{W}", "{W}{B}", "{B}{B}"]).alternatives
(('W', 'W'), ('W', 'B'), ('B', 'B'))
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import MISSING, dataclass, field, replace
from functools import cached_property
from itertools import compress

from manaplan.model.errors import ManaplanError, RequestError
from manaplan.model.mana import SPEND_AS_ANY_COLOR, Mana, ManaCost, parse_mana
from manaplan.model.plan import POOL
from manaplan.model.symbols import COLORS, MANA_TYPES, VARIABLE

#: the most mana one activation may add in a request
MAX_ADDED = 100
#: what "for each ... you control" may count, besides a subtype ("Swamp", "Elf")
COUNTABLE = ("land", "basic land", "creature", "artifact", "enchantment", "permanent")
#: subtypes that are not creature types, which changeling doesn't give (CR 205.3)
NONCREATURE_SUBTYPES = frozenset(
    "Plains Island Swamp Mountain Forest Desert Gate Lair Locus Mine Power-Plant Tower Urza's Cave Sphere Town "
    "Equipment Vehicle Treasure Food Clue Blood Gold Fortification Aura Saga Shrine Curse Cartouche Rune Class "
    "Role Room Case Background".split())
#: "an amount of mana of that color equal to your devotion to that color" (CR 700.5)
DEVOTION = "devotion"
#: the protocol's ``add`` of an ability that doubles each type of unspent mana (Doubling Cube)
DOUBLE = "double"
#: why a doubling is not used on a board with triggered mana abilities: what triggers and
#: replacement effects would make of it is not modelled
DOUBLING_WITH_TRIGGERS = "doubling mana on a board with triggered mana abilities is not modelled: not used"

_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                 "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def split_type_line(type_line: str) -> tuple:
    """(supertypes and card types, subtypes) of a type line, each a list of words: the
    subtypes follow the dash (CR 205.1a).

    >>> split_type_line("Basic Snow Land — Forest")
    (['Basic', 'Snow', 'Land'], ['Forest'])
    """
    parts = re.split(r"\s+[—-]\s+", type_line or "", maxsplit=1)
    return parts[0].split(), parts[1].split() if len(parts) > 1 else []


#: color words as a kind of permanent says them ("green creature")
_COLOR_CODES = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


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
        return _short_repr(self)


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


@dataclass(frozen=True)
class Permanent:
    """A permanent that may pay: its id, its abilities, and its state.

    ``colors`` matters only for convoke (CR 702.51); ``creature`` for summoning
    sickness (CR 302.6) and convoke; ``artifact`` for improvise (CR 702.126).
    """

    def __repr__(self) -> str:
        """Its fields that are not their defaults, the keys it is grouped by left out."""
        return _short_repr(self, skip=("key", "unnamed_key"))


    id: str
    name: str = ""
    abilities: tuple = ()
    tapped: bool = False
    summoning_sick: bool = False
    counters: tuple = ()  # ((kind, n), ...)
    snow: bool = False
    creature: bool = False
    artifact: bool = False
    colors: frozenset = frozenset()
    type_line: str = ""
    triggers: tuple = ()  # its triggered mana abilities (model.triggers.ManaTrigger)
    attached_to: str = ""  # the permanent it enchants or equips, for "enchanted land" triggers
    mana_cost: ManaCost | None = None  # its mana cost, for devotion (CR 700.5)
    changeling: bool = False  # every creature type (CR 702.73a)
    #: the lines of its card text about mana that could not be read, as (line, why): a
    #: "no" on a board with such lines is not certain (``unread_abilities``)
    unread: tuple = ()
    #: abilities it gives other permanents: ((which, Ability), ...) ("Lands you control
    #: have ..."), added to them by :mod:`manaplan.model.dependent_mana`
    grants: tuple = ()
    #: mana replacement effects it applies to other permanents (Damping Sphere:
    #: ``LANDS_MAKE_ONE_COLORLESS``), applied by model.dependent_mana
    replaces: tuple = ()
    #: how its controller may spend mana (Chromatic Orrery: ``SPEND_AS_ANY_COLOR``, CR
    #: 609.4b): a rule of payment, not an ability
    spending: tuple = ()
    key: str = field(default="", compare=False)  # set when read from a request: equal texts, equal keys
    #: (its key, that key without its name and the name written ~ in its card text): what
    #: grouping compares while its key is that one, so that names don't split twins
    #: (:meth:`grouping_key`)
    unnamed_key: tuple = field(default=(), compare=False)
    #: the mana it adds when a land enters under its controller's control (Lotus Cobra's
    #: landfall: a triggered ability that is not a mana ability, CR 605.1b), as Outputs
    landfall: tuple = ()
    #: what its text does to what spells cost (Thalia, Goblin Electromancer, Trinisphere:
    #: :class:`~manaplan.model.cost_effects.CostEffect`, CR 601.2f), applied to each spell
    #: by :func:`~manaplan.model.cost_effects.apply_cost_effects`
    cost_effects: tuple = ()
    #: what its text does to lands' types (Blood Moon, Urborg, Prismatic Omen, an Aura's
    #: "Enchanted land is an Island.": :class:`~manaplan.model.land_types.LandTypeEffect`,
    #: CR 305.7), applied to the board by :func:`~manaplan.model.land_types.apply_land_types`
    land_types: tuple = ()
    #: when it came under its controller's control, as the request orders them (CR 613.7):
    #: the order of effects that change land types; None when not given
    timestamp: int | None = None
    #: its power as it is now, when given (a creature's: what "the total power of
    #: creatures you control" counts); None when not given
    power: int | None = None
    #: the haste it gives creatures (:class:`~manaplan.model.haste.HasteGrant`: "All
    #: creatures have haste."), applied by :func:`~manaplan.model.haste.with_haste`
    gives_haste: tuple = ()

    def counter(self, kind: str) -> int:
        return dict(self.counters).get(kind, 0)

    @cached_property
    def depends_on_board(self) -> bool:
        """Whether what it makes, or gives others, depends on the rest of the board
        (model.dependent_mana); found once per permanent read (its twins share it)."""
        return bool(self.grants or self.replaces or self.land_types or any(
            a.depends or a.cost.sacrifice_other or a.cost.tap_other or a.via or a.unresolved for a in self.abilities))

    @cached_property
    def taps_itself_and_another(self) -> bool:
        """Whether an ability of it taps it and sacrifices or taps another permanent
        (Phyrexian Tower, Springleaf Drum): such a permanent is grouped alone."""
        return any(a.cost.tap and (a.cost.sacrifice_other or a.cost.tap_other) for a in self.abilities)

    @cached_property
    def self_contained(self) -> bool:
        """Whether what its abilities make depends on nothing but its own text and
        state: it gives, replaces, triggers, counts, restricts and doubles nothing, and
        has no ability given to it or had through another permanent (solver.supply then
        reuses what it built for its twins on another board)."""
        return not (self.grants or self.replaces or self.triggers or self.spending or any(
            a.depends or a.via or a.through or a.given_by or a.restrict or a.output.per or a.output.doubles
            for a in self.abilities))

    @cached_property
    def plain_taps(self) -> frozenset:
        """The indices of its abilities that cost {T} alone and add one mana, usable
        while casting, unrestricted, dealing no damage, its own and worked out from
        nothing else (a basic land's, a dork's): what the validator replays briefly."""
        return frozenset(i for i, a in enumerate(self.abilities)
                         if a.cost == _TAP_ONLY and a.usable_mid_cast and not (a.restrict or a.damage or a.trigger_damage or a.via
                                                                                or a.depends or a.output.per
                                                                                or a.output.doubles)
                         and not a.output.combination and all(len(alt) == 1 for alt in a.output.alternatives))

    @cached_property
    def sacrifices_for_mana(self) -> tuple:
        """(whether an ability of it sacrifices it, whether it has another ability that
        is not a free {T}, whether an ability doubles the pool): what decides whether it
        is grouped alone (solver.supply.group_board)."""
        return (any(a.cost.sacrifice for a in self.abilities),
                any(not (a.cost.tap and not a.cost.mana.symbols) for a in self.abilities if not a.cost.sacrifice),
                any(a.output.doubles for a in self.abilities))

    def is_a(self, what: str) -> bool:
        """Whether it is a ``land``, ``basic land``, ``nonland permanent``, ``creature``,
        ``artifact``, ``enchantment``, ``permanent``, or has a subtype (``Forest``,
        ``Elf``; ``basic Swamp``), read from its type line (CR 205)."""
        types, subtypes = map(set, split_type_line(self.type_line))
        color, _, rest = what.partition(" ")
        if rest and color in _COLOR_CODES:  # "green creature" (Natural Order's sacrifice)
            return _COLOR_CODES[color] in self.colors and self.is_a(rest)
        if what == "permanent":
            return True
        if what == "creature":
            return self.creature or "Creature" in types
        if what == "artifact":
            return self.artifact or "Artifact" in types
        if what in ("land", "enchantment"):
            return what.capitalize() in types
        if what == "nonland permanent":
            return "Land" not in types
        if what.startswith("basic "):
            return "Basic" in types and self.is_a(what[len("basic "):])
        return what in subtypes or (self.changeling and what not in NONCREATURE_SUBTYPES)

    def with_id(self, pid: str) -> "Permanent":
        """The same permanent under another id. A board repeats a handful of permanents
        hundreds of times, and copying the fields is a third of the cost of
        ``__init__`` (which checks nothing, so nothing is skipped)."""
        twin = object.__new__(Permanent)
        twin.__dict__.update(self.__dict__)
        twin.__dict__["id"] = pid
        return twin

    @property
    def can_tap(self) -> bool:
        """Whether a ``{T}`` cost can be paid: untapped, and not a creature that came
        under its controller's control this turn (CR 302.6)."""
        return not self.tapped and not (self.creature and self.summoning_sick)

    @property
    def text_key(self) -> str:
        """Its ``key`` when that says everything about it in any request (read from a
        request's fields, as ``repr`` of them, then its state), else "": keys made up
        within one request (a card in the hand, a spell cast in a sequence) name it by
        its id, which another request may give to another card."""
        return self.key if self.key.startswith("[") else ""

    def grouping_key(self):
        """Permanents with equal keys are interchangeable for paying. Permanents read
        from a request carry the text they were read from (all but the id), which is
        cheaper to compare than their abilities; their name is left out of it
        (real boards name every permanent, and a name split groups of twins), the name
        written ``~`` where the card text says it. So is its ``timestamp`` where it sets
        or adds no land type: a timestamp orders only the effects of layer 4 (CR 613.7a,
        an effect's timestamp is its source's), and engines give every permanent one."""
        if self.unnamed_key and self.unnamed_key[0] == self.key:  # (made from this key: not a changed copy's)
            key = self.unnamed_key[1]
        else:
            key = self.key or (self.abilities, self.tapped, self.summoning_sick, self.counters, self.snow,
                               self.creature, self.artifact, self.colors, self.type_line)
        if self.timestamp is not None and not self.land_types and type(key) is str:
            field_text = repr(("timestamp", self.timestamp))
            if key.count(field_text) == 1:  # (the field itself: text that spells one too is left as it is)
                key = key.replace(field_text, "", 1)
        return key


@dataclass(frozen=True)
class Player:
    """The paying player: life total (CR 118.3 limits life payments), mana floating in
    the pool (CR 106.4), and cards in the graveyard (for delve)."""

    life: int = 20
    pool: tuple = ()
    graveyard: int = 0
    #: the colors of the player's commander's color identity (CR 903.4), or None when
    #: not given (Command Tower then can't be read)
    commander_identity: frozenset | None = None
    #: the player's energy counters ({E}, CR 107.14, 122.1)
    energy: int = 0
    #: how many spells the player has cast this turn before this question (Damping
    #: Sphere's tax counts them); None when not given
    spells_cast: int | None = None

    def after(self, plan) -> "Player":
        """The player after carrying ``plan`` out: the life it cost (CR 118.3, and its
        damage), the cards delve exiled, and the mana left floating as the new pool
        (CR 106.4), each unit now from the pool. Mana that may only be spent on what a
        restriction allows (CR 106.6) is not carried over: a pool can't say what its
        restriction was, and carrying it as plain mana could pay what it may not."""
        pool = tuple(Mana(u.type, u.snow, source=POOL) for u in plan.floating
                     if not (u.spell_only or u.generic_only or u.ability_only))
        return replace(self, life=self.life - plan.life_paid, pool=pool, graveyard=self.graveyard - plan.exiled,
                       energy=self.energy - plan.energy_paid)


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


class PermanentsByBody(Sequence):
    """A board's permanents held as their distinct bodies, each with the ids of the
    permanents that have it: a board of thousands of permanents repeats a handful of
    bodies, and what is asked of a body is asked once (``Board.kinds``). It is the
    sequence of the permanents in the order given, each made (``Permanent.with_id``) the
    first time the sequence is looked into; an immutable value like the tuple it stands
    for, and equal to it.

    ``kinds`` is ``((body, ids), ...)``: a body is a Permanent whose own id is any of its
    ids; ``order`` the ids as given; ``body_of`` their ``{id: body}`` if the maker has
    it (else made when first needed); ``names`` each one's name in the same order ("":
    its body's), where permanents of one body have names of their own (a name says
    nothing about paying unless the card's text says it, a board that names
    each of its 100,000 Forests holds one Forest and a list of names)."""

    __slots__ = ("kinds", "order", "_all", "_body_of", "names", "_position", "_looked_up", "_position_of_kinds",
                 "changed_in_place")

    def __init__(self, kinds: tuple, order: tuple, body_of: dict | None = None, names: list | None = None):
        self.kinds = kinds
        self.order = order
        self._all: tuple[Permanent, ...] | None = None
        self._body_of = body_of
        self.names = names
        self._position: dict[str, int] | None = None
        self._looked_up = 0
        self._position_of_kinds: dict[int, int] | None = None
        #: where :meth:`changed` made this: the places of the kinds whose one permanent
        #: changed state in its place (nothing else changed); None otherwise
        self.changed_in_place: tuple[int, ...] | None = None

    @property
    def body_of(self) -> dict:
        """{id: its body} (made once, a kind at a time)."""
        if self._body_of is None:
            self._body_of = {}
            for body, ids in self.kinds:
                self._body_of.update(dict.fromkeys(ids, body))
        return self._body_of

    def member(self, pid: str) -> "Permanent | None":
        """The permanent with id ``pid`` (its body under that id, with its own name), or
        None."""
        body = self.body_of.get(pid)
        if body is None:
            return None
        return _named_as(body, pid, self.names[self._where(pid)] if self.names else "")

    def _where(self, pid: str) -> int:
        """The place of ``pid`` in ``order``: looked for the first few times (a plan names
        a few permanents), then found from a table made once."""
        if self._position is None:
            self._looked_up += 1
            if self._looked_up <= 16:
                return self.order.index(pid)
            self._position = dict(zip(self.order, range(len(self.order))))
        return self._position[pid]

    @property
    def all(self) -> tuple:
        """The permanents, in the order given (made once)."""
        if self._all is None:
            body_of = self.body_of
            self._all = tuple(_named_as(body_of[pid], pid, name)
                              for pid, name in zip(self.order, self.names or [""] * len(self.order)))
        return self._all

    def __len__(self) -> int:
        return len(self.order)

    def __getitem__(self, index):
        return self.all[index]

    def __iter__(self):
        return iter(self.all)

    def __eq__(self, other) -> bool:
        return isinstance(other, (tuple, PermanentsByBody)) and self.all == tuple(other)

    def __hash__(self) -> int:
        return hash(self.all)

    def __add__(self, more: tuple):
        """These permanents and ``more`` after them (each a body of its own); a tuple
        where one of ``more`` has an id already here, or another of ``more`` has its id (a
        card of the hand and the permanent it becomes: PermanentsByBody find a body by id)."""
        more = tuple(more)
        if any(p.id in self.body_of for p in more) or len({p.id for p in more}) < len(more):
            return self.all + more
        return PermanentsByBody(self.kinds + tuple((p, (p.id,)) for p in more), self.order + tuple(p.id for p in more),
                                names=self.names + [""] * len(more) if self.names else None)

    def changed(self, replaced: dict, removed: set) -> "PermanentsByBody":
        """These permanents with those of ``replaced`` (``{id: permanent}``: a state
        changed) each a body of its own, and those of ``removed`` gone. The work in
        Python is in the permanents touched (a change on a kept board of n
        permanents made and looked at all n); the rest is copied in C. A kind whose one
        permanent is replaced keeps its place, so the places of kinds carry over to the
        next change unless a kind is emptied."""
        at = dict(self._kind_at())
        kinds = list(self.kinds)
        by_kind: dict = {}
        for pid in set(replaced) | removed:
            k = at.get(id(self.body_of[pid]))
            if k is None or pid not in kinds[k][1]:  # (a body in two kinds: found the long way)
                k = next(j for j, (_, ids) in enumerate(kinds) if pid in ids)
            by_kind.setdefault(k, []).append(pid)
        emptied = False
        appended = []
        in_place = []
        for k, touched in by_kind.items():
            body, ids = kinds[k]
            if len(ids) == 1 and touched[0] in replaced:  # (its one permanent, changed: in its place)
                del at[id(body)]
                kinds[k] = (replaced[touched[0]], ids)
                at[id(replaced[touched[0]])] = k
                in_place.append(k)
                continue
            for pid in touched:
                i = ids.index(pid)
                ids = ids[:i] + ids[i + 1:]
                if pid in replaced:
                    appended.append((replaced[pid], (pid,)))
            kinds[k] = (body, ids)
            emptied = emptied or not ids
        for permanent, ids in appended:
            at[id(permanent)] = len(kinds)
            kinds.append((permanent, ids))
        body_of = self.body_of.copy()
        for pid in removed:
            del body_of[pid]
        body_of.update(replaced)
        order, names = self.order, self.names
        if removed:
            keep = [pid not in removed for pid in order]
            order = tuple(compress(order, keep))
            names = list(compress(names, keep)) if names else None
        out = PermanentsByBody(tuple(kind for kind in kinds if kind[1]) if emptied else tuple(kinds), order,
                               body_of, names)
        if not emptied:
            out._position_of_kinds = at
        if not removed and not appended and not emptied:
            out.changed_in_place = tuple(sorted(in_place))
        return out

    def joined(self, more: "PermanentsByBody") -> "PermanentsByBody":
        """These permanents, then ``more`` (ids distinct from these). A body of ``more``
        that is one of these (a body read before is shared) joins its kind: each body is
        in one kind."""
        names = None
        if self.names or more.names:
            names = (self.names or [""] * len(self.order)) + (more.names or [""] * len(more.order))
        body_of = self.body_of.copy()
        body_of.update(more.body_of)
        at = dict(self._kind_at())
        kinds = list(self.kinds)
        for body, ids in more.kinds:
            if id(body) in at:
                k = at[id(body)]
                kinds[k] = (body, kinds[k][1] + ids)
            else:
                at[id(body)] = len(kinds)
                kinds.append((body, ids))
        out = PermanentsByBody(tuple(kinds), self.order + more.order, body_of, names)
        out._position_of_kinds = at
        return out

    def _kind_at(self) -> dict:
        """{id() of a body: its place in ``kinds``} (made once)."""
        if self._position_of_kinds is None:
            self._position_of_kinds = {id(body): k for k, (body, _) in enumerate(self.kinds)}
        return self._position_of_kinds

    def __repr__(self) -> str:
        return repr(self.all)


def _named_as(body: "Permanent", pid: str, name: str) -> "Permanent":
    """``body`` as the permanent ``pid`` named ``name`` ("": the body's name)."""
    if body.id == pid and (not name or name == body.name):
        return body  # (a body under its own id is itself)
    twin = body.with_id(pid)
    if name and name != body.name:
        twin.__dict__["name"] = name
    return twin


#: ``Board.memo``'s key for what the solver built for each part of a kept board (each
#: group's abilities), carried to the board a change makes: a change on one of many kept
#: boards rebuilds only what it touched (a shared cache of 16,384 groups was
#: too small for 64 kept boards of 5,000 distinct permanents, and each change rebuilt all)
KEPT_WORK = "kept work"


#: what ``Board.memo`` holds that a board finds from its permanents' text alone (never
#: their state): a board whose permanents only changed state shares it
#: (:meth:`Board.after_state_change`)
TEXT_ONLY_MEMO = ("any_color", "doubling", "restrictions", "self_contained", "holds_cost_effects",
                  "board_mana_needed", "unread", "counts")


@dataclass(frozen=True)
class Board:
    """The permanents that may pay, by id. ``permanents`` is a tuple, or a :class:`PermanentsByBody`
    (a board read from a request): the same sequence, held by body."""

    permanents: tuple | PermanentsByBody = field(default=())
    #: the board as given, when this one has its counted amounts resolved
    counted_from: "Board | None" = field(default=None, init=False, compare=False, repr=False)
    #: what the layers above derive from this board once and reuse while it is unchanged
    #: (the solver's grouping of interchangeable permanents), by their own keys; a board
    #: made with ``dataclasses.replace`` starts with an empty one
    memo: dict = field(default_factory=dict, init=False, compare=False, repr=False)

    def after_state_change(self, before: "Board") -> "Board":
        """This board, made from ``before`` by tapping or untapping permanents each of a
        kind of its own (``PermanentsByBody.changed_in_place``), told so: what
        ``before`` found from its permanents' text alone is this board's too
        (:data:`TEXT_ONLY_MEMO`), and the solver may patch what it built for ``before``
        at those places (``memo["changed_from"]``: solver.supply). a change on
        a kept board of 5,000 distinct permanents looked at all of them again."""
        places = getattr(self.permanents, "changed_in_place", None)
        if places is None or before.counted_from is not None:
            return self
        for key in TEXT_ONLY_MEMO:
            if key in before.memo:
                self.memo[key] = before.memo[key]
        if before.memo.get("cost_effects") == ():  # (none on the board: the permanents that have them, none)
            self.memo["cost_effects"] = ()
        self.memo["changed_from"] = (before, places)
        return self

    @property
    def kinds(self) -> tuple:
        """``((body, ids), ...)``: the permanents by distinct body (see :class:`PermanentsByBody`);
        on a board given as a tuple of permanents, each is a body of its own. What the
        solver asks of every permanent it asks of these (grouping, restrictions, what
        is tapped), so a board of thousands of twins costs what its bodies cost."""
        if isinstance(self.permanents, PermanentsByBody):
            return self.permanents.kinds
        if "kinds" not in self.memo:
            self.memo["kinds"] = tuple((p, (p.id,)) for p in self.permanents)
        return self.memo["kinds"]

    @property
    def bodies(self) -> tuple:
        """The distinct bodies of ``kinds``: what is true of one is true of its twins
        (found once per board)."""
        found = self.memo.get("bodies")
        if found is None:
            found = self.memo["bodies"] = tuple(body for body, _ in self.kinds)
        return found

    @property
    def ids(self):
        """The ids of the permanents, a set (found once per board; on a board read by
        body, the set-like keys of its ids' bodies)."""
        if "ids" not in self.memo:
            self.memo["ids"] = frozenset(self.permanents.order if isinstance(self.permanents, PermanentsByBody)
                                         else (p.id for p in self.permanents))
        return self.memo["ids"]

    def find(self, pid: str) -> "Permanent | None":
        """The permanent with id ``pid``, or None (a twin is made for it, not the whole
        board: see :class:`PermanentsByBody`)."""
        if not isinstance(self.permanents, PermanentsByBody):
            return self.by_id.get(pid)
        return self.permanents.member(pid)

    @property
    def by_id(self) -> dict:
        """{id: permanent} (found once per board; do not change it)."""
        if "by_id" not in self.memo:
            self.memo["by_id"] = {p.id: p for p in self.permanents}
        return self.memo["by_id"]

    @property
    def any_color_spending(self) -> bool:
        """Whether the player may spend mana as though it were mana of any color (a
        permanent of theirs says so: Chromatic Orrery, CR 609.4b); found once per board."""
        if "any_color" not in self.memo:
            self.memo["any_color"] = any(SPEND_AS_ANY_COLOR in p.spending for p in self.bodies)
        return self.memo["any_color"]

    def any_color_spending_without(self, gone) -> bool:
        """Whether mana may still be spent as though it were mana of any color once the
        permanents whose ids are in ``gone`` have left the battlefield (sacrificed while
        paying): the effect ends with the last permanent that has it (CR 611.3a)."""
        return self.any_color_spending and any(
            SPEND_AS_ANY_COLOR in p.spending and p.id not in gone for p in self.permanents)

    @property
    def has_doubling(self) -> bool:
        """Whether an ability on the board doubles the pool (Doubling Cube); found once."""
        if "doubling" not in self.memo:
            self.memo["doubling"] = any(a.output.doubles for p in self.bodies for a in p.abilities)
        return self.memo["doubling"]

    @property
    def tapped_ids(self) -> frozenset:
        """The ids of the permanents that are tapped (found once per board)."""
        if "tapped_ids" not in self.memo:
            self.memo["tapped_ids"] = frozenset(pid for body, ids in self.kinds if body.tapped for pid in ids)
        return self.memo["tapped_ids"]

    @property
    def unread(self) -> tuple:
        """(permanent id, line, why) for each line of card text about mana that its
        permanent's reader could not read (found once per board)."""
        if "unread" not in self.memo:
            unread: tuple[tuple[str, str, str], ...] = ()
            if any(p.unread or p.triggers for p in self.bodies):  # (in the order given)
                unread = tuple((p.id, line, why) for p in self.permanents for line, why in p.unread)
            if any(p.triggers for p in self.bodies):  # a doubling's amount under triggered mana: not modelled
                unread += tuple((p.id, a.text or "double", DOUBLING_WITH_TRIGGERS) for p in self.permanents
                                for a in p.abilities if a.output.doubles)
            self.memo["unread"] = unread
        return self.memo["unread"]

    def after(self, plan) -> "Board":
        """The board after carrying ``plan`` out (a :class:`manaplan.model.plan.Plan`):
        what it tapped is tapped (convoke and improvise too), what it sacrificed is gone,
        the counters its costs removed are removed. Amounts counted on the board (Gaea's
        Cradle) are counted again on what is left, from the board as given."""
        tapped, gone = set(plan.tapped), set(plan.sacrificed)
        source = self.given()
        removed: dict = {}
        acting = {p.id: p for p in (self.counted_from or self).permanents}  # the abilities the plan names
        for step in plan.steps:
            if isinstance(step.ability, int) and step.permanent in acting:
                abilities = acting[step.permanent].abilities
                if step.ability >= len(abilities):  # (named on another board of the turn: its counters by its text)
                    found = [a for a in abilities if (a.text or str(a.cost)) == step.cost]
                    if not found:
                        continue
                    cost = found[0].cost
                else:
                    cost = abilities[step.ability].cost
                if cost.counters:
                    key = (step.permanent, cost.counter_kind)
                    removed[key] = removed.get(key, 0) + cost.counters
        out = []
        for p in source.permanents:
            if p.id in gone:
                continue
            counters = tuple((kind, n - removed.get((p.id, kind), 0)) for kind, n in p.counters)
            if (p.id in tapped and not p.tapped) or counters != p.counters:
                state = (p.tapped or p.id in tapped, counters)
                p = replace(p, tapped=state[0], counters=counters, key=f"{p.key}|{state}" if p.key else "")
            out.append(p)
        return Board(tuple(out))

    def given(self) -> "Board":
        """The board as the request gave it: before its counted amounts
        (:meth:`resolve_amounts`) and the mana that depends on the rest of the board
        (``model.dependent_mana``) were worked out on it; a board made from it resolves anew."""
        board = self.counted_from or self
        return board.memo.get("given", board)

    def resolve_amounts(self) -> "Board":
        """Count "for each ... you control" amounts (Gaea's Cradle, Cabal Coffers) and
        devotion (Nykthos, CR 700.5) on this board: each such ability then adds that many
        times its mana, possibly none. The board holds the payer's permanents, which is
        what "you control" counts.

        Everything on the board is counted, except the permanent an ability sacrifices
        to pay its own cost (gone before the mana is added, CR 602.2b). A permanent
        sacrificed while paying, before the counting ability is activated, stops
        counting: the solver subtracts it (:meth:`counted_loss`), and the validator and
        the reference search count the board as it is at each step (:meth:`live_output`).
        """
        if "counts" not in self.memo:
            self.memo["counts"] = any(a.output.per for p in self.bodies for a in p.abilities)
        if not self.memo["counts"]:
            return self
        if "resolved" in self.memo:
            return self.memo["resolved"]
        out = []
        for k, p in enumerate(self.permanents):
            if not any(a.output.per for a in p.abilities):
                out.append(p)
                continue
            counts, abilities = [], []
            for j, a in enumerate(p.abilities):
                if not a.output.per:
                    abilities.append(a)
                    continue
                a = replace(a, output=self.live_output(p, a, {p.id} if a.cost.sacrifice else ()))
                counts.append([len(alt) for alt in a.output.alternatives])
                at = f"permanents[{k}].abilities[{j}]"
                if a.output.max_count > MAX_ADDED:
                    raise RequestError(f"{p.id!r} would add {a.output.max_count} mana; at most {MAX_ADDED} "
                                       "per activation are supported", at)
                try:
                    check_bounded(a)
                except RequestError as e:
                    raise RequestError(e.message, at) from None
                abilities.append(a)
            out.append(replace(p, abilities=tuple(abilities), key=f"{p.key}|{counts}" if p.key else ""))
        resolved = Board(tuple(out))
        object.__setattr__(resolved, "counted_from", self)
        self.memo["resolved"] = resolved  # the same board asked again resolves to the same board
        return resolved

    def live_output(self, permanent: "Permanent", ability: "Ability", gone=()) -> Output:
        """What ``ability`` (a counted one: ``output.per``) of ``permanent`` adds on this
        board once the permanents whose ids are in ``gone`` have been sacrificed: each
        alternative its unit of mana, times the count (CR 700.5 for devotion)."""
        out = ability.output
        alts = []
        for alt in out.alternatives:
            n = sum(self.counted_loss(q, out.per, alt) for q in self.permanents if q.id not in gone)
            alts.append(alt * n)
        kept = tuple(a for a in alts if a)
        if out.per == DEVOTION:  # a color of devotion 0 may be chosen: it adds nothing (CR 700.5)
            return Output(kept + (((),) if len(kept) < len(alts) else ()))
        return Output(tuple(alts) if kept else ((),))

    @staticmethod
    def counted_loss(q: "Permanent", per: str, unit: tuple) -> int:
        """How many units of a counted ability's mana permanent ``q`` accounts for (its
        devotion to the unit's color, CR 700.5a; or 1 if it is a ``per``): what the
        ability loses when ``q`` is sacrificed before it is activated."""
        if per == DEVOTION:
            return sum(1 for s in (q.mana_cost.symbols if q.mana_cost else ()) if unit[0] in s.colors)
        return 1 if q.is_a(per) else 0


def _short_repr(value, skip: tuple = ()) -> str:
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


def flexibility(types, needs=None) -> int:
    """How much keeping a source untapped is worth (the objective's flexibility term: a
    source that makes more colors is tapped last): colors count double, colorless once;
    with ``needs`` (the colored symbols the rest of the hand asks for, by color), each
    such symbol of a color it makes adds 2 more: it keeps the colors the hand needs."""
    colors = _COLOR_SET.intersection(types)
    extra = 2 * sum(needs.get(c, 0) for c in colors) if needs else 0
    return 2 * len(colors) + (1 if "C" in types else 0) + extra


_COLOR_SET = frozenset(COLORS)
_TAP_ONLY = AbilityCost(tap=True)


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
