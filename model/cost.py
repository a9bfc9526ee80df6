"""The total cost of casting a spell (CR 601.2b, 601.2f, 118.7-118.9).

Casting locks in one *total cost*: the mana cost (or nothing, if the object has none:
unpayable, CR 202.1b, 118.6), with X announced (107.3) and each hybrid, twobrid or
Phyrexian symbol announced as one of its halves (601.2b, 118.13a), plus additional
costs and increases, minus reductions (118.7), then effects that set a floor on the
total (Trinisphere) apply, and the result is locked in (601.2f).

The solver chooses the announcements itself; this module computes the total cost for
*given* choices, which is what the validator and the reference search use.

>>> spell = SpellCost.of("{X}{R}", x=2)
>>> str(total_cost(spell, Announcement()))
'{2}{R}'
>>> str(total_cost(SpellCost.of("{1}{W}{W}", reduce=["{W}", "{W}", "{W}"]), Announcement()))
'{0}'
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from manaplan.model.errors import RequestError
from manaplan.model.mana import ManaCost
from manaplan.model.symbols import (
                                    COLORED, COLORLESS, COLORLESS_HYBRID, GENERIC, GENERIC_HALF, HYBRID, HYBRID_PHYREXIAN, MANA_TYPES, SNOW,
                                    TWOBRID, VARIABLE, Symbol,
                                    )

#: reduction symbols whose half the player picks (CR 118.7e)
HALVED_REDUCTIONS = (HYBRID, TWOBRID, HYBRID_PHYREXIAN, COLORLESS_HYBRID)


@dataclass(frozen=True)
class SpellCost:
    """What the caster must pay, before any choice is made.

    ``mana_cost`` is None for an object with no mana cost. ``additional`` and
    ``increase`` are added (601.2f); ``reduce`` are reductions (118.7); ``minimum`` is a
    floor on the total's mana (Trinisphere: "at least {3}").
    """

    mana_cost: ManaCost | None
    x: int = 0
    additional: tuple = ()
    increase: tuple = ()
    reduce: tuple = ()
    minimum: int = 0

    def __hash__(self) -> int:
        """The hash of the fields, found once: a cost is a key of every cache on the
        hot path (its total, its plain needs, a hand's answers)."""
        found = self.__dict__.get("_hash")
        if found is None:
            found = hash((self.mana_cost, self.x, self.additional, self.increase, self.reduce, self.minimum))
            self.__dict__["_hash"] = found  # written once, as a cached_property is
        return found

    @classmethod
    def of(cls, mana_cost: str | None, x: int = 0, additional=(), increase=(), reduce=(), minimum: int = 0):
        """Build from mana strings (a convenience for tests and the Python API)."""
        parse = ManaCost.parse
        return cls(None if mana_cost is None else parse(mana_cost), x,
                   tuple(parse(a) for a in additional), tuple(parse(a) for a in increase),
                   tuple(parse(r) for r in reduce), minimum)

    @cached_property
    def added_symbols(self) -> tuple:
        """Every symbol to pay before reductions: mana cost, additional costs, increases
        (read once: a request may list thousands)."""
        costs = ((self.mana_cost,) if self.mana_cost else ()) + self.additional + self.increase
        return tuple(s for c in costs for s in c.symbols)

    @property
    def most_generic(self) -> int:
        """The most generic mana any announcement of the total cost can ask for
        (CR 601.2f): generic symbols, X, twobrid symbols announced as {2}, and the floor;
        reductions only lower it. Delve pays generic mana only (CR 702.66), so it never
        exiles more cards than this."""
        out = self.minimum
        for s in self.added_symbols:
            out += s.amount if s.kind == GENERIC else self.x if s.kind == VARIABLE else 2 if s.kind == TWOBRID else 0
        return out

    @property
    def x_count(self) -> int:
        """How many X (or Y, Z) symbols the caster pays, wherever they stand: the mana
        cost's, and an additional cost's such as Verdeloth the Ancient's kicker {X}."""
        return sum(1 for s in self.added_symbols if s.kind == VARIABLE)

    @cached_property
    def reduction_symbols(self) -> tuple:
        """Every symbol of the reductions, in order (read once)."""
        return tuple(s for c in self.reduce for s in c.symbols)

    def check(self) -> None:
        """Reject what the rules give no meaning to: X in a reduction, negative X."""
        if self.x < 0:
            raise RequestError("X must be 0 or more", "spell.x")
        for s in self.reduction_symbols:
            if s.kind == VARIABLE:
                raise RequestError(f"a reduction cannot contain {s}", "spell.reduce")


@dataclass(frozen=True)
class Announcement:
    """The choices made while casting: for each choice symbol among the added symbols
    (in order), the label of the option announced (``'W'``, ``'generic'``, ``'life'``);
    for each choice symbol among the reductions, the half it reduces (118.7e)."""

    halves: tuple = ()
    reduction_halves: tuple = ()


@dataclass(frozen=True)
class TotalCost:
    """A locked-in total cost: generic mana, mana of each type (W U B R G C), snow
    mana, and life (Phyrexian symbols announced as life, CR 107.4f).

    ``life_symbols`` lists those Phyrexian symbols, for the plan's payment lines.
    """

    generic: int = 0
    typed: tuple = (0, 0, 0, 0, 0, 0)
    snow: int = 0
    life: int = 0
    life_symbols: tuple = field(default=(), compare=False)

    @property
    def mana(self) -> int:
        return self.generic + sum(self.typed) + self.snow

    def count(self, mana_type: str) -> int:
        return self.typed[MANA_TYPES.index(mana_type)]

    def symbols(self) -> tuple:
        """The total as symbols in the usual order: generic first, then WUBRG, C, S."""
        out = []
        if self.generic or self.mana == 0:
            out.append(Symbol(GENERIC, (), self.generic))
        for t, n in zip(MANA_TYPES, self.typed):
            out += [Symbol(COLORED if t != "C" else COLORLESS, (t,))] * n
        out += [Symbol(SNOW)] * self.snow
        return tuple(out)

    def __str__(self) -> str:
        """The total as a cost is written (found once: each answer writes it)."""
        found = self.__dict__.get("_text")
        if found is None:
            found = "".join(str(s) for s in self.symbols())
            self.__dict__["_text"] = found  # written once, as a cached_property is
        return found


def choice_symbols(symbols) -> list:
    return [s for s in symbols if s.has_choice]


def total_cost(spell: SpellCost, announcement: Announcement) -> TotalCost:
    """The locked-in total for the given announcements (CR 601.2f, 118.7); a small cost
    asked again (a hand's cards, a plan and its check) is looked up, not recomputed."""
    if len(spell.added_symbols) + len(spell.reduction_symbols) <= 64:
        return _small_total_cost(spell, announcement)
    return _total_cost(spell, announcement)


@lru_cache(maxsize=1024)
def _small_total_cost(spell: SpellCost, announcement: Announcement) -> TotalCost:
    return _total_cost(spell, announcement)


def _total_cost(spell: SpellCost, announcement: Announcement) -> TotalCost:
    """The locked-in total for the given announcements (CR 601.2f, 118.7).

    Raises ValueError if the spell has no mana cost or the announcement does not fit.
    Reductions are applied one mana at a time; the order does not change the result
    because a typed reduction only ever spills into the generic part (118.7b-d) and
    the generic part is floored at 0 (118.7a).
    """
    if spell.mana_cost is None:
        raise ValueError("an object with no mana cost can't be cast by paying it (CR 202.1b)")
    generic, snow, life = 0, 0, 0
    typed = dict.fromkeys(MANA_TYPES, 0)
    life_symbols = []
    halves = iter(announcement.halves)
    for s in spell.added_symbols:
        if s.kind == VARIABLE:
            generic += spell.x  # CR 107.3: X is generic mana, its value announced (601.2b)
            continue
        if s.kind == GENERIC:
            generic += s.amount  # (counted whole: {1000000} is one symbol, not a million needs)
            continue
        options = s.payment_options(0)
        if s.has_choice:
            label = next(halves, None)
            chosen = [o for o in options if o.label == label]
            if not chosen:
                raise ValueError(f"no announced half for {s} (got {label!r})")
            option = chosen[0]
        else:
            option = options[0]
        if option.life:
            life += option.life
            life_symbols.append(s)
        for need in option.needs:
            if need.snow:
                snow += 1
            elif need.generic:
                generic += 1
            else:
                (t,) = need.types
                typed[t] += 1
    if next(halves, None) is not None:
        raise ValueError("more announced halves than choice symbols")
    generic_reduction = 0
    red_halves = iter(announcement.reduction_halves)
    for s in spell.reduction_symbols:
        if s.kind == GENERIC:
            generic_reduction += s.amount  # 118.7a
            continue
        if s.kind == SNOW:
            generic_reduction += 1  # 118.7g: snow reductions reduce generic
            continue
        if s.kind in HALVED_REDUCTIONS:
            half = next(red_halves, None)  # 118.7e: the player picks a half
            if s.kind == TWOBRID and half == GENERIC_HALF:
                generic_reduction += 2
                continue
            if half not in s.colors:
                raise ValueError(f"no half chosen for the reduction {s} (got {half!r})")
            t = half
        else:  # colored, {C}, Phyrexian (118.7f: one mana of its color)
            t = s.colors[0]
        if typed[t] > 0:
            typed[t] -= 1  # 118.7c, 118.7d
        else:
            generic_reduction += 1  # 118.7b (a type not required), 118.7c-d (the excess)
    generic = max(0, generic - generic_reduction)
    total = TotalCost(generic, tuple(typed[t] for t in MANA_TYPES), snow, life, tuple(life_symbols))
    if total.mana < spell.minimum:  # 601.2f: effects that set the total apply last
        total = TotalCost(generic + spell.minimum - total.mana, total.typed, snow, life, tuple(life_symbols))
    return total


def _compositions(n: int, k: int):
    """Every way to split n identical things into k ordered parts."""
    if k == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _compositions(n - first, k - 1):
            yield (first,) + rest


def _label_choices(symbols, options_of):
    """Every distinct assignment of labels to ``symbols`` up to the order of equal
    symbols: identical symbols are interchangeable, so only the counts matter."""
    kinds = list(dict.fromkeys(symbols))
    per_kind = []
    for sym in kinds:
        labels = options_of(sym)
        per_kind.append([(sym, labels, split) for split in _compositions(symbols.count(sym), len(labels))])
    for combo in itertools.product(*per_kind):
        queues = {sym: [lb for lb, n in zip(labels, split) for _ in range(n)] for sym, labels, split in combo}
        yield tuple(queues[sym].pop(0) for sym in symbols)


def all_announcements(spell: SpellCost):
    """Every distinct Announcement the caster could make (for exhaustive checks)."""
    added = choice_symbols(spell.added_symbols)
    reds = [s for s in spell.reduction_symbols if s.kind in HALVED_REDUCTIONS]
    for halves in _label_choices(added, lambda s: [o.label for o in s.payment_options(0)]):
        for red in _label_choices(reds, lambda s: list(s.colors) + ([GENERIC_HALF] if s.kind == TWOBRID else [])):
            yield Announcement(tuple(halves), tuple(red))


def count_announcements(spell: SpellCost) -> int:
    """How many distinct announcements :func:`all_announcements` yields."""
    from math import comb
    n = 1
    for symbols, width in ((choice_symbols(spell.added_symbols), lambda s: len(s.payment_options(0))),
                           ([s for s in spell.reduction_symbols if s.kind in HALVED_REDUCTIONS],
                            lambda s: len(s.colors) + (s.kind == TWOBRID))):
        for sym in set(symbols):
            c, k = symbols.count(sym), width(sym)
            n *= comb(c + k - 1, k - 1)
    return n


def all_total_costs(spell: SpellCost) -> dict[TotalCost, Announcement]:
    """Each distinct locked-in total cost, with one announcement that gives it."""
    out: dict[TotalCost, Announcement] = {}
    for a in all_announcements(spell):
        t = total_cost(spell, a)
        out.setdefault(t, a)
    return out


def total_before_announcing(spell: SpellCost) -> str | None:
    """The total cost as a player reads it before announcing anything (a game's UI:
    Lightning Bolt under Thalia "{1}{R}"), its hybrid, twobrid and Phyrexian symbols left
    as they are; None where a choice decides it (a reduction of a color only a hybrid
    symbol has, a hybrid reduction, a floor over symbols whose amount a choice decides):
    then :func:`all_total_costs` gives each total. The same rules as :func:`total_cost`
    (CR 601.2f, 118.7), on the symbols.

    >>> total_before_announcing(SpellCost.of("{R}", increase=["{1}"]))
    '{1}{R}'
    >>> total_before_announcing(SpellCost.of("{2}{W/U}", reduce=["{1}"]))
    '{1}{W/U}'
    >>> total_before_announcing(SpellCost.of("{W/U}", reduce=["{W}"])) is None
    True
    >>> total_before_announcing(SpellCost.of("{2/W}{2/U}", reduce=["{1}"])) is None
    True
    """
    if spell.mana_cost is None:
        return None
    generic, snow, choices = 0, 0, []
    typed = dict.fromkeys(MANA_TYPES, 0)
    for s in spell.added_symbols:
        if s.kind == VARIABLE:
            generic += spell.x
        elif s.kind == GENERIC:
            generic += s.amount
        elif s.kind == SNOW:
            snow += 1
        elif s.has_choice:
            choices.append(s)
        else:
            typed[s.colors[0]] += 1
    reduction = 0
    for s in spell.reduction_symbols:
        if s.kind in (GENERIC, SNOW):
            reduction += s.amount if s.kind == GENERIC else 1  # 118.7a, 118.7g
        elif s.kind in HALVED_REDUCTIONS:
            return None  # 118.7e: the player picks the half
        elif typed[s.colors[0]]:
            typed[s.colors[0]] -= 1  # 118.7c-d
        elif any(s.colors[0] in c.colors for c in choices):
            return None  # whether it reduces a hybrid symbol depends on how that is announced
        else:
            reduction += 1  # 118.7b
    if reduction > generic and any(o.label == GENERIC_HALF for c in choices for o in c.payment_options(0)):
        return None  # (what is left of the reduction reduces a twobrid symbol announced as {2}, or not)
    generic = max(0, generic - reduction)
    if spell.minimum:
        if any(len({o.mana_count for o in c.payment_options(0)}) > 1 for c in choices):
            return None  # (a floor over a total whose amount depends on the announcements)
        amount = generic + sum(typed.values()) + snow + sum(c.payment_options(0)[0].mana_count for c in choices)
        generic += max(0, spell.minimum - amount)
    symbols = ([Symbol(GENERIC, (), generic)] if generic or not (choices or snow or any(typed.values())) else [])
    for t in MANA_TYPES:
        symbols += [Symbol(COLORED if t != "C" else COLORLESS, (t,))] * typed[t]
    return "".join(str(x) for x in symbols + choices + [Symbol(SNOW)] * snow)