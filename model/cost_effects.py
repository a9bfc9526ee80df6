"""Static effects that change what spells cost (CR 601.2f), read from the permanents of the
board and of the opponents, and applied to the spell before anything else sees it.

Casting locks in the total cost: the mana cost plus additional costs and increases, less
reductions, then floors (CR 601.2f, 118.7). Permanents change it for the spells their text
names: Thalia's "Noncreature spells cost {1} more to cast.", Goblin Electromancer's "Instant
and sorcery spells you cast cost {1} less to cast.", Grand Arbiter Augustin IV's "Spells your
opponents cast cost {1} more to cast.", Trinisphere's floor of three mana while it is
untapped. Each such line is a :class:`CostEffect`; :func:`apply_cost_effects` turns the
effects that apply to a spell into its ``increase``, ``reduce`` and ``minimum``, the
vocabulary the solver already knows, and says where each part came from.

Whose spells a line names is read from its controller's side: "you cast" are the
controller's, "your opponents cast" everyone else's, a line with neither every spell. A
line about costs that is not read stays unread (model.oracle ``CHANGES_COSTS``), and an
answer on its board is then ``null`` unless the spell says how its cost changes.

>>> e = CostEffect.parse("Noncreature spells cost {1} more to cast.")
>>> e.format(), e.change, str(e.amount)
('Noncreature spells cost {1} more to cast.', 'more', '{1}')
>>> CostEffect.parse("Instant and sorcery spells you cast cost {1} less to cast.").spells.types
('Instant', 'Sorcery')
>>> CostEffect.parse("As long as ~ is untapped, each spell that would cost less than three mana to cast costs three "
...                  "mana to cast.").floor
3
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from manaplan.model.board import split_type_line
from manaplan.model.errors import ManaplanError
from manaplan.model.mana import ManaCost
from manaplan.model.symbols import COLOR_NAMES, COLORED, Symbol

#: who casts the spells a line names, from its controller's side
ANY, YOU, OPPONENTS = "any", "you", "opponents"

#: card types a line may name (CR 300.1), and "historic" (CR 700.6: artifacts, legendaries, Sagas)
_CARD_TYPES = ("Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land", "Planeswalker",
               "Sorcery")
_SUPERTYPES = ("Legendary", "Snow")  # (read like types: "Legendary spells")
_COLOR_WORDS = {name.capitalize(): code for code, name in COLOR_NAMES.items() if code != "C"}
_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5}

_SPELLS_COST = re.compile(
    r"(?:(?P<what>[A-Za-z][A-Za-z ,-]*?) )?[Ss]pells(?: (?P<who>you cast|your opponents cast))?"
    r"(?: with mana value (?P<mv>\d+) or greater)? cost (?P<amount>(?:\{[^}]+\})+) (?P<dir>more|less) to cast\."
    # (Edgewalker, Morophon: a colored reduction that never spills into the generic part, as
    # CR 118.7c-d would have it otherwise)
    r"(?P<colored_only> This effect reduces only the amount of colored mana you pay\.)?"
    # (a generic reduction reduces generic mana only anyway, CR 118.7a: the rider changes nothing)
    r"(?P<generic_only> This effect reduces only the amount of generic mana you pay\.)?")
_EACH_SPELL_COSTS = re.compile(r"Each spell(?: a player casts)? costs (?P<amount>(?:\{[^}]+\})+) (?P<dir>more|less) "
                               r"to cast\.")
_HAVE = re.compile(
    r"(?:(?P<what>[A-Za-z][A-Za-z ,-]*?) )?[Ss]pells(?: (?P<who>you cast|your opponents cast))? have "
    r"(?:affinity for (?P<per>artifacts|creatures|lands|enchantments|[A-Z][a-z]+s)|(?P<kw>convoke|improvise|delve))\.")
#: Hum of the Radix: "Each artifact spell costs {1} more to cast for each artifact its
#: controller controls."; Damping Sphere: "... for each other spell that player has cast
#: this turn."; Animar: "Creature spells you cast cost {1} less to cast for each +1/+1
#: counter on ~."
_EACH_PER = re.compile(r"Each (?P<what>[a-z]+ )?spell(?: a player casts)? costs (?P<amount>(?:\{[^}]+\})+) (?P<dir>more|less) "
                       r"to cast for each (?:(?P<kind>artifact|creature|land|enchantment) its controller controls|"
                       r"(?P<spells>other spell that player has cast this turn))\.")
_PER_COUNTER = re.compile(r"(?:(?P<what>[A-Za-z][A-Za-z ,-]*?) )?[Ss]pells(?: (?P<who>you cast|your opponents cast))? cost "
                          r"(?P<amount>(?:\{[^}]+\})+) (?P<dir>more|less) to cast for each (?P<counter>[+-]1/[+-]1|[a-z]+) "
                          r"counter on (?:~|[A-Z][\w'-]*)\.")  # (its own name, or a legend's short one: Animar)
_FLOOR = re.compile(r"As long as ~ is untapped, each spell that would cost less than (?P<n>\w+) mana to cast costs "
                    r"(?P=n) mana to cast\.")


@dataclass(frozen=True)
class SpellFilter:
    """Which spells a line names: any of ``types`` (card types, or "Historic"), none of
    ``not_types``, any of ``colors`` (or ``colorless``), ``subtypes`` (any of), a mana
    value of at least ``min_mana_value``, cast by ``who`` (from the line's controller's
    side: :data:`YOU`, :data:`OPPONENTS` or :data:`ANY`)."""

    types: tuple = ()
    not_types: tuple = ()
    colors: tuple = ()
    colorless: bool = False
    subtypes: tuple = ()
    min_mana_value: int = 0
    who: str = ANY

    @classmethod
    def parse(cls, words: str, who: str = ANY, min_mana_value: int = 0) -> "SpellFilter":
        """The filter of a line's words before "spells" ("Noncreature", "Instant and
        sorcery", "White", "Artifact and enchantment", "Cleric"); ValueError if a word
        is not a type, a color or a creature type written as one."""
        types, not_types, colors, subtypes, colorless = [], [], [], [], False
        conjuncts = re.split(r",? and |, | or ", words.strip()) if words else ()
        if len(conjuncts) == 1 and " " in conjuncts[0].strip():
            # one kind of spell in several words, each narrowing it ("Colorless Eldrazi": Eye of Ugin):
            # a color or colorless and a creature type at most, so that every word holds
            parts = [cls.parse(w, who, min_mana_value) for w in conjuncts[0].split()]
            if len(parts) != 2 or not (parts[0].colors or parts[0].colorless) or not parts[1].subtypes:
                raise ValueError(f"not a kind of spell: {words!r}")
            return replace(parts[0], subtypes=parts[1].subtypes)
        for word in conjuncts:
            word = word.strip().capitalize()
            if word.startswith("Non") and word[3:].capitalize() in _CARD_TYPES:
                not_types.append(word[3:].capitalize())
            elif word in _CARD_TYPES or word == "Historic":
                types.append(word)
            elif word in _SUPERTYPES:
                types.append(word)
            elif word in _COLOR_WORDS:
                colors.append(_COLOR_WORDS[word])
            elif word == "Colorless":
                colorless = True
            elif re.fullmatch(r"[A-Z][a-z]+", word) and word not in ("Other", "Each", "All", "Your", "Their"):
                subtypes.append(word)
            else:
                raise ValueError(f"not a kind of spell: {word!r}")
        return cls(tuple(types), tuple(not_types), tuple(colors), colorless, tuple(subtypes), min_mana_value, who)

    def format(self) -> str:
        """The words before "spells", as Oracle text writes them."""
        words = ["Non" + t.lower() for t in self.not_types] + list(self.types)
        words += [next(n for n, c in _COLOR_WORDS.items() if c == code) for code in self.colors]
        words += ["Colorless"] * self.colorless + list(self.subtypes)
        if (self.colors or self.colorless) and self.subtypes and len(words) == 2:
            return " ".join(words)  # one kind in two words: "Colorless Eldrazi"
        text = " and ".join(w if i == 0 else w.lower() if w in _CARD_TYPES + _SUPERTYPES or w == "Historic" else w
                            for i, w in enumerate(words))
        return text

    def matches(self, spell, casters_side: str) -> bool:
        """Whether ``spell`` (model.problem.Spell) is one of these, cast by a player on
        ``casters_side`` of the line's controller (:data:`YOU` or :data:`OPPONENTS`)."""
        if self.who != ANY and self.who != casters_side:
            return False
        main, _, sub = spell.type_line.partition("—")
        card_types = set(main.split())
        if self.not_types and card_types & set(self.not_types):
            return False
        if self.types:
            historic = "Historic" in self.types and (card_types & {"Artifact", "Legendary"} or "Saga" in sub.split())
            if not historic and not card_types & set(self.types):
                return False
        if self.colors and not spell.colors & set(self.colors):
            return False
        if self.colorless and spell.colors:
            return False
        if self.subtypes and not (spell.changeling or set(sub.split()) & set(self.subtypes)):
            return False
        if self.min_mana_value and (spell.mana_cost.mana_value if spell.mana_cost else 0) < self.min_mana_value:
            return False
        return True


@dataclass(frozen=True)
class CostEffect:
    """One line that changes what spells cost (CR 601.2f): ``change`` "more" (an
    increase), "less" (a reduction, CR 118.7) or "floor" (Trinisphere: the total's mana
    is at least ``floor``, only while its permanent is untapped), by ``amount``, for the
    spells ``spells`` names; or "affinity" (they have affinity for ``per``: {1} less for
    each such permanent their caster controls, CR 702.41) or "keyword" (they have
    ``keyword``: convoke, improvise or delve)."""

    change: str
    spells: SpellFilter
    amount: ManaCost | None = None
    floor: int = 0
    text: str = ""
    per: str = ""
    keyword: str = ""
    #: the amount counted: for each ``counter`` counter on its own permanent (Animar), or
    #: for each spell its caster cast this turn before it (``per`` "spells cast")
    counter: str = ""
    #: "This effect reduces only the amount of colored mana you pay." (Edgewalker): the
    #: excess of a color over what the cost asks of it reduces nothing (not generic mana,
    #: as CR 118.7c-d would have it)
    colored_only: bool = False
    #: "This effect reduces only the amount of generic mana you pay." (said of a generic
    #: amount: what CR 118.7a does anyway; kept so the line is written back as it was)
    generic_only: bool = False

    @classmethod
    def parse(cls, line: str, chosen_type: str = "") -> "CostEffect | None":
        """The effect of one line of Oracle text (the card's own name written ``~``), or
        None when the line is not one this reads. ``chosen_type``: the creature type
        chosen as the permanent entered ("Creature spells you cast of the chosen type";
        without one, such a line is not read)."""
        if " of the chosen type" in line:
            if not chosen_type:
                return None
            effect = cls.parse(line.replace(" of the chosen type", ""))
            if effect is None:
                return None
            return replace(effect, spells=replace(effect.spells, subtypes=effect.spells.subtypes + (chosen_type,)),
                           text=line)
        if m := _EACH_PER.fullmatch(line):
            try:
                spells = SpellFilter.parse((m.group("what") or "").strip())
                amount = ManaCost.parse(m.group("amount"))
            except (ValueError, ManaplanError):
                return None
            per = m.group("kind") or "spells cast"
            return cls(m.group("dir"), spells, amount, text=line, per=per)
        if m := _PER_COUNTER.fullmatch(line):
            who = {None: ANY, "you cast": YOU, "your opponents cast": OPPONENTS}[m.group("who")]
            try:
                spells = SpellFilter.parse(m.group("what") or "", who)
                amount = ManaCost.parse(m.group("amount"))
            except (ValueError, ManaplanError):
                return None
            return cls(m.group("dir"), spells, amount, text=line, counter=m.group("counter"))
        if m := _FLOOR.fullmatch(line):
            n = _NUMBERS.get(m.group("n"), int(m.group("n")) if m.group("n").isdigit() else 0)
            return cls("floor", SpellFilter(), floor=n, text=line) if n else None
        if m := _HAVE.fullmatch(line):
            who = {None: ANY, "you cast": YOU, "your opponents cast": OPPONENTS}[m.group("who")]
            try:
                spells = SpellFilter.parse(m.group("what") or "", who)
            except ValueError:
                return None
            if m.group("kw"):
                return cls("keyword", spells, text=line, keyword=m.group("kw"))
            per = m.group("per")
            return cls("affinity", spells, ManaCost.parse("{1}"), text=line, per=per[:-1] if per.endswith("s") else per)
        # "White spells and black spells you cast" (the Familiars): "White and black spells"
        given, line = line, re.sub(r"\b([A-Z]?[a-z]+) spells and ([a-z]+) spells\b", r"\1 and \2 spells", line)
        m = _SPELLS_COST.fullmatch(line) or _EACH_SPELL_COSTS.fullmatch(line)
        if m is None:
            return None
        groups = m.groupdict()
        who = {None: ANY, "you cast": YOU, "your opponents cast": OPPONENTS}[groups.get("who")]
        try:
            spells = SpellFilter.parse(groups.get("what") or "", who, int(groups.get("mv") or 0))
            amount = ManaCost.parse(groups["amount"])
        except (ValueError, ManaplanError):
            return None
        if any(s.kind not in ("generic", "colored") for s in amount.symbols):
            return None  # ({X}, hybrid...: no such card is read)
        if groups.get("generic_only") and any(s.kind != "generic" for s in amount.symbols):
            return None  # (a colored amount that reduces generic mana only: no such card is read)
        return cls(groups["dir"], spells, amount, text=given, colored_only=bool(groups.get("colored_only")),
                   generic_only=bool(groups.get("generic_only")))

    def format(self) -> str:
        """The line, as Oracle text writes it."""
        if self.change == "floor":
            words = {v: k for k, v in _NUMBERS.items()}.get(self.floor, str(self.floor))
            return (f"As long as ~ is untapped, each spell that would cost less than {words} mana to cast costs "
                    f"{words} mana to cast.")
        what = self.spells.format()
        who = {ANY: "", YOU: " you cast", OPPONENTS: " your opponents cast"}[self.spells.who]
        if self.change in ("affinity", "keyword"):
            has = f"affinity for {self.per}s" if self.change == "affinity" else self.keyword
            return f"{what + ' s' if what else 'S'}pells{who} have {has}."
        mv = f" with mana value {self.spells.min_mana_value} or greater" if self.spells.min_mana_value else ""
        rider = " This effect reduces only the amount of colored mana you pay." if self.colored_only else ""
        rider += " This effect reduces only the amount of generic mana you pay." if self.generic_only else ""
        return f"{what + ' s' if what else 'S'}pells{who}{mv} cost {self.amount} {self.change} to cast.{rider}"


@dataclass(frozen=True)
class AppliedCost:
    """A part of a spell's total that an effect added: ``what`` "increase", "reduce" or
    "minimum", its mana (or the floor's amount), and the permanent whose line it is."""

    what: str
    amount: object
    source: str
    text: str = ""


#: what a :class:`CountedCost` counts besides permanents of a kind: the total power of
#: the caster's creatures, the total mana value of their noncreature artifacts (both sums
#: of what each permanent brings), the greatest power, the basic land types (domain)
TOTAL_POWER, TOTAL_MANA_VALUE, GREATEST_POWER, DOMAIN = "total power", "total mana value", "greatest power", "domain"


@dataclass(frozen=True)
class CountedCost:
    """A part of a spell's total that counts the caster's permanents (CR 601.2f, 702.41):
    ``unit`` of mana "reduce" or "increase" (``what``) for each permanent that
    :meth:`weight` gives a weight (affinity, "for each artifact you control", Hum of the
    Radix), or, with ``at_least``, the unit once the count reaches it ("if you control
    three or more artifacts"). ``count`` is the count on the board the spell was costed
    on; ``source`` the permanent whose line it is ("" for the spell's own). A turn's
    later spells see the count change as permanents join or leave
    (:meth:`PaymentProblem.cost_on` works the total out again; solver.turn follows the
    count): ``linear`` is False where a change is not a sum of each permanent's weight
    (the greatest power, domain)."""

    what: str
    unit: ManaCost
    per: str
    count: int
    at_least: int = 0
    source: str = ""
    text: str = ""

    @property
    def linear(self) -> bool:
        return self.per not in (GREATEST_POWER, DOMAIN)

    def weight(self, permanent) -> int:
        """What ``permanent``, the caster's, adds to the count (0 if nothing)."""
        if self.per == TOTAL_POWER:
            return (permanent.power or 0) if permanent.is_a("creature") else 0
        if self.per == TOTAL_MANA_VALUE:
            return permanent.mana_cost.mana_value if (permanent.is_a("artifact") and not permanent.is_a("creature")
                                                       and permanent.mana_cost is not None) else 0
        if self.per in (GREATEST_POWER, DOMAIN):
            return int(permanent.is_a("creature") if self.per == GREATEST_POWER else permanent.is_a("land"))
        return int(permanent.is_a(self.per))

    def amount_at(self, count: int) -> int:
        """The generic mana of the part at ``count``."""
        if self.at_least:
            return _generic(self.unit) if count >= self.at_least else 0
        return _generic(self.unit) * count


def apply_cost_effects(spell, board, permanents, opponents, player=None) -> object:
    """``spell`` (model.problem.Spell) with its own reductions (affinity, "for each ...":
    model.spell_text.SelfReduction, counted on ``board``, the caster's) and the cost
    effects of ``permanents`` (the caster's that have any) and ``opponents`` (theirs, or
    None: not given, no effects assumed) added to its ``increase``, ``reduce`` and
    ``minimum`` (CR 601.2f), and each part recorded in its ``cost_effects``
    (:class:`AppliedCost`); the parts that count the caster's permanents, whatever
    their count now, in its ``cost_counts`` (:class:`CountedCost`). A spell whose
    request said how its cost changes (``cost_changes_given``), or with effects applied
    already, is left as it is; :meth:`Spell.unapplied <manaplan.model.problem.Spell.unapplied>`
    takes them off again."""
    if spell.cost_changes_given or spell.cost_effects_applied:
        return spell
    spell = replace(spell, before_effects=spell)
    own, unsure, counted = _own_parts(spell, board, opponents)
    spell, theirs, unknown, counted_theirs = _board_parts(spell, board, permanents, opponents, player)
    parts = own + theirs
    counted = tuple(counted + counted_theirs)
    if unknown:
        spell = replace(spell, cost_unread=spell.cost_unread + unknown)
    if not parts:
        return replace(spell, cost_effects_applied=True, cost_unsure=spell.cost_unsure + unsure, cost_counts=counted)
    cost = spell.cost
    cost = replace(cost, increase=cost.increase + tuple(a.amount for a in parts if a.what == "increase"),
                   reduce=cost.reduce + tuple(a.amount for a in parts if a.what == "reduce"),
                   minimum=max([cost.minimum] + [a.amount for a in parts if a.what == "minimum"]))
    return replace(spell, cost=cost, cost_effects=tuple(parts), cost_effects_applied=True, cost_unsure=spell.cost_unsure + unsure,
                   cost_counts=counted)


def _own_parts(spell, board, opponents) -> tuple:
    """(the parts the spell's own reductions add, counted on the board: domain, "where X
    is ...", "if you control N or more", "for each ... you control / on the battlefield";
    why a count may be too low, as (line, why); the counted parts, :class:`CountedCost`)."""
    unsure: tuple[tuple[str, str], ...]
    parts, unsure, counted = [], (), []
    for own in spell.reductions:
        what = "reduce" if own.change == "less" else "increase"
        if own.where == "targets":  # Fireball: each target beyond the first (the spell's ``targets``)
            if spell.targets > 1:
                parts.append(AppliedCost(what, ManaCost.parse("{%d}" % ((spell.targets - 1) * _generic(own.amount))),
                                         "", own.text))
            continue
        if own.where == "domain":  # basic land types among the caster's lands, as the board leaves them
            n = len({t for body, _ in board.kinds if body.is_a("land") for t in split_type_line(body.type_line)[1]
                     if t in ("Plains", "Island", "Swamp", "Mountain", "Forest")})
            counted.append(CountedCost(what, own.amount, DOMAIN, n, text=own.text))
        elif own.where == "where X":  # Ghalta, The Great Henge, Metalwork Colossus
            n, missing = _x_of(board, own.kind)
            if missing:
                unsure += ((own.text, f"X counts what {missing} does not give ('power' or 'mana_cost'): counted "
                                      "without it, so the cost may be lower"),)
            unit = ManaCost.parse("{%d}" % _generic(own.amount))  # ({X}: one for each)
            counted.append(CountedCost(what, unit, own.kind, n, text=own.text))
            if n * _generic(own.amount):
                parts.append(AppliedCost(what, ManaCost.parse("{%d}" % (n * _generic(own.amount))), "", own.text))
            continue
        else:
            n = _count(board, own.kind)
        if own.at_least:  # "if you control N or more ...": the amount once (metalcraft: three artifacts)
            counted.append(CountedCost(what, own.amount, own.kind, n, own.at_least, text=own.text))
            if n >= own.at_least:
                parts.append(AppliedCost(what, own.amount, "", own.text))
            continue
        if own.where == "on the battlefield":
            if opponents is None:
                unsure += ((own.text, "it counts the opponents' permanents too, which the request does not give "
                                     "('opponents'): counted without them, so the cost may be lower"),)
            n += sum(1 for p in opponents or () if p.is_a(own.kind))
        if own.where != "domain":
            counted.append(CountedCost(what, ManaCost.parse("{%d}" % _generic(own.amount)), own.kind, n,
                                       text=own.text))
        if n:  # (generic mana only: n times {k} is {n*k}, CR 118.7)
            amount = ManaCost.parse("{%d}" % (n * _generic(own.amount)))
            parts.append(AppliedCost(what, amount, "", own.text))
    return parts, unsure, counted


def _board_parts(spell, board, permanents, opponents, player) -> tuple:
    """(the spell with the keywords the board gives it, the parts the board's and the
    opponents' cost effects add to it, lines whose count the request does not give, the
    parts that count the caster's permanents)."""
    unknown: tuple[tuple[str, str], ...]
    parts, unknown, counted = [], (), []
    colored_left = None  # (what colored-only reductions may still reduce: each copy takes from what is left)
    for side, group in ((YOU, permanents), (OPPONENTS, opponents or ())):
        for p in group:
            for effect in p.cost_effects:
                if effect.change == "floor":
                    if not p.tapped:
                        parts.append(AppliedCost("minimum", effect.floor, p.id, effect.text))
                    continue
                if not effect.spells.matches(spell, side):
                    continue
                if effect.change == "keyword":
                    spell = replace(spell, **{effect.keyword: True})
                    continue
                what = "reduce" if effect.change in ("less", "affinity") else "increase"
                if effect.change == "affinity":  # counted among the spell's caster's permanents
                    times = _count(board, effect.per)
                    counted.append(CountedCost(what, effect.amount, effect.per, times, source=p.id, text=effect.text))
                elif effect.counter:  # Animar: for each +1/+1 counter on itself
                    times = p.counter(effect.counter)
                elif effect.per == "spells cast":  # Damping Sphere: the caster's spells this turn
                    if player is None or player.spells_cast is None:
                        unknown += ((effect.text, "needs the number of spells the player cast this turn before this "
                                                  "one ('player.spells_cast')"),)
                        continue
                    times = player.spells_cast
                elif effect.per:  # Hum of the Radix: the caster's permanents of a kind
                    times = _count(board, effect.per)
                    if all(s.kind == "generic" for s in effect.amount.symbols):
                        counted.append(CountedCost(what, effect.amount, effect.per, times, source=p.id,
                                                   text=effect.text))
                else:
                    times = 1
                if effect.colored_only and what == "reduce":
                    if colored_left is None:
                        colored_left = Counter(s.colors[0] for s in spell.cost.added_symbols if s.kind == "colored")
                    amount, why = _colored_part(effect.amount, spell, colored_left)
                    if why:  # (a reduction only helps: paid without it, a yes stands)
                        spell = replace(spell, cost_unsure=spell.cost_unsure + ((effect.text, why),))
                    if amount.symbols:
                        parts.append(AppliedCost(what, amount, p.id, effect.text))
                    continue
                if times:
                    amount = effect.amount if times == 1 else ManaCost.parse("{%d}" % (_generic(effect.amount) * times)) \
                        if all(s.kind == "generic" for s in effect.amount.symbols) else ManaCost(effect.amount.symbols * times)
                    parts.append(AppliedCost(what, amount, p.id, effect.text))
    return spell, parts, unknown, counted


def _colored_part(amount: ManaCost, spell, left: Counter) -> tuple:
    """(the part of a colored-only reduction ``amount`` that reduces ``spell``'s cost: of
    each color, as many as the cost's symbols of that color alone still ask for after the
    reductions before it (``left``, taken from), why a "no" is then not certain or "").
    A color that a hybrid, Phyrexian or twobrid symbol of the cost also has depends on how
    it is announced (CR 118.7e): that part is not applied, and only a "no" is uncertain."""
    shared = {c for s in spell.cost.added_symbols if s.kind not in ("colored", "generic", "colorless")
              for c in s.colors}
    wanted = Counter(s.colors[0] for s in amount.symbols if s.kind == "colored")
    kept = []
    for c in sorted(wanted):
        n = min(wanted[c], left[c])
        left[c] -= n
        kept += [Symbol(COLORED, (c,))] * n
    why = ("a reduction of colored mana only, of a color a hybrid or Phyrexian symbol of the cost also has: what it "
           "reduces depends on how that symbol is announced; taken without it") if any(
        c in shared and wanted[c] > n for c, n in Counter(k.colors[0] for k in kept).items()) or any(
        c in shared and c not in {k.colors[0] for k in kept} for c in wanted) else ""
    return ManaCost(tuple(kept)), why


def _generic(amount: ManaCost) -> int:
    """The generic mana of a reduction's amount ({2}: 2)."""
    return sum(s.amount for s in amount.symbols)


def _x_of(board, what: str) -> tuple:
    """(X of "where X is ..." on ``board``: the total or greatest power of its creatures,
    the total mana value of its noncreature artifacts; the first permanent that does not
    give what X counts, or "")."""
    if what in ("total power", "greatest power"):
        counted = [p for p in board.permanents if p.is_a("creature")]
        values = [p.power for p in counted if p.power is not None]
        missing = next((p.id for p in counted if p.power is None), "")
        return (sum(values) if what == "total power" else max(values, default=0)), missing
    counted = [p for p in board.permanents if p.is_a("artifact") and not p.is_a("creature")]
    missing = next((p.id for p in counted if p.mana_cost is None), "")
    return sum(p.mana_cost.mana_value for p in counted if p.mana_cost is not None), missing


def _count(board, kind: str) -> int:
    """How many of the board's permanents are ``kind`` (model.board.Permanent.is_a),
    counted once per board."""
    key = ("count", kind)
    if key not in board.memo:
        board.memo[key] = sum(len(ids) for body, ids in board.kinds if body.is_a(kind))
    return board.memo[key]
