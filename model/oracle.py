"""Mana abilities read from card text (type line and Oracle text, as Scryfall gives them).

Only what decides payment is read: basic land types' intrinsic abilities (CR 305.6),
lines of the form ``COST: Add MANA.`` with their riders (pain damage, "Activate only as
an instant", "Spend this mana only to ..."), triggered mana, and the text that depends on
the permanent's state or the rest of the board (:func:`read_card_text`). A line about
mana that this module cannot read is listed as unread (an error for the strict
:func:`abilities_from_text`), never a guess.

>>> [str(a.cost) + " -> " + str(a.output.format()) for a in abilities_from_text("Land — Island Swamp", "")]
['{T} -> {U}', '{T} -> {B}']
>>> a, = abilities_from_text("Land", "{T}: Add {W} or {B}. Caves of Koilos deals 1 damage to you.", "Caves of Koilos")
>>> a.output.format(), a.damage
(['{W}', '{B}'], 1)
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from manaplan.model.abilities import (COUNTABLE, DEVOTION, MAX_ADDED, Ability, AbilityCost, Output, check_bounded,
                                      number_word)
from manaplan.model.board import split_type_line
from manaplan.model.cost_effects import CostEffect
from manaplan.model.dependent_mana import (COLORS_AMONG, COMMANDER, COULD_PRODUCE, IF_ANY, IF_CONTROL, IF_COUNT, LANDS_MAKE_ONE_COLORLESS,
                                           NOTHING, ON_BATTLEFIELD, OPPONENT_LAND_COLORS)
from manaplan.model.errors import ManaplanError, RequestError
from manaplan.model.haste import HasteGrant, has_haste_keyword
from manaplan.model.land_types import CHANGES_LAND_TYPES, LandTypeEffect
from manaplan.model.mana import SPEND_AS_ANY_COLOR, ManaCost
from manaplan.model.restrictions import parse_restriction
from manaplan.model.symbols import COLORS
from manaplan.model.triggers import ADDS, ANY, SAME, TAPPED, ManaTrigger

BASIC_LAND_TYPES = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_SELF = re.compile(r"\b(this (?:land|artifact|creature|enchantment|permanent)|~)\b", re.I)


#: Urborg, Yavimaya, Prismatic Omen, Dryad of the Ilysian Grove, Blood Moon


def land_types(type_line: str) -> list:
    """Basic land types in the subtype part of a type line (after the dash)."""
    return [w for w in split_type_line(type_line)[1] if w in BASIC_LAND_TYPES]


def _rules_lines(oracle_text: str, name: str):
    """Each line of Oracle text without reminder text (it is not rules text), and the
    same with the card's name and "this land" etc. written ``~``."""
    for line in (oracle_text or "").split("\n"):
        line = re.sub(r"\([^)]*\)", "", line).strip()
        yield line, _SELF.sub("~", _named(line, name))


def _named(line: str, name: str) -> str:
    """The line with the card's own name written ``~`` (whole words only: a card named
    "B" leaves {B} alone)."""
    if not name:
        return line
    return re.sub(r"(?<![\w{/])" + re.escape(name) + r"(?![\w}/])", "~", line)


class CardText(NamedTuple):
    """What a card's type line and Oracle text give: its mana abilities, its triggered
    mana abilities and mana replacement effects, and every line about mana that could not
    be read, as (line, why) pairs: never skipped, so an answer can say it did not use them."""

    abilities: tuple
    triggers: tuple
    unread: tuple
    grants: tuple = ()  # ((which, Ability), ...): abilities it gives other permanents
    replaces: tuple = ()  # mana replacement effects on other permanents (Damping Sphere)
    spending: tuple = ()  # how its controller may spend mana (Chromatic Orrery: SPEND_AS_ANY_COLOR)
    landfall: tuple = ()  # Outputs: the mana it adds when a land enters under its controller's control
    cost_effects: tuple = ()  # what it does to what spells cost (model.cost_effects.CostEffect, CR 601.2f)
    land_types: tuple = ()  # what it does to lands' types (model.land_types.LandTypeEffect, CR 305.7)
    gives_haste: tuple = ()  # the haste it gives creatures (model.haste.HasteGrant, CR 702.10)


#: the words that make a line about mana: "add" in any case, or "mana" (not in "mana
#: value", "mana cost" or "mana ability", which name characteristics and kinds of ability)
_ABOUT_MANA = re.compile(r"\badds?\b|\bmana\b", re.I)
_NOT_ABOUT_MANA = re.compile(r"\bmana (?:values?|costs?|abilit(?:y|ies)|symbols?)\b", re.I)
#: lines about mana that never pay a cost now, each with why (they are read, and known to
#: have no bearing on a payment)
KNOWN_RIDERS = (
    (re.compile(r"^(?:When|Whenever|At)\b(?!.*\bfor mana\b)(?!.*causes you to add)", re.I),
     "a triggered ability that is not a mana ability (CR 605.1b): it does not add mana while a cost is paid"),
    (re.compile(r"\bmana (?:was |were )?spent to cast\b|\bcolors? of mana spent\b", re.I),
     "about the mana spent to cast this permanent, not about what it makes"),
    (re.compile(r"\b(?:don't|doesn't|do not|does not) (?:lose|empty)\b.*\bmana\b|\bmana\b.*\b(?:don't|doesn't) "
                r"empty\b", re.I),
     "mana kept from step to step (CR 106.4): one payment happens within one step"),
)


#: text that changes what spells cost (Thalia, Sphere of Resistance, Goblin Electromancer,
#: the Medallions, Trinisphere): not read; the spell's increase / reduce / minimum say it
_CHANGES_COSTS = re.compile(r"\bcosts? (?:\{[^}]+\})+ (?:more|less)\b(?![^.]*\bunless they're mana abilities\b)|"
                            r"\bcosts? (?:\w+ )?(?:more|less) to cast\b|\brather than pay the mana cost\b|"
                            r"\bwithout paying (?:its|their) mana costs?\b|"
                            r"\bwould cost less than\b|\bcosts? \w+ mana to cast\b|"
                            r"\bspells[^.]* ha(?:ve|s) (?:affinity for|convoke|improvise|delve)\b", re.I)
#: the reason a cost-changing line is listed: it makes any answer uncertain unless the
#: spell says how its cost changes
CHANGES_COSTS = ("changes what spells cost: not read from the board; give the change in the spell's 'increase', "
                 "'reduce' or 'minimum'")


#: the reason a line the screen (:data:`_COULD_MATTER`) caught is listed: static text that
#: could take away or change what permanents make, or change their types or colors, which
#: is not read; any answer on its board is then uncertain (solver.unread)
CHANGES_ABILITIES = ("could change what permanents make or are (their abilities, card types, land types or colors), "
                     "which is not read")
#: the reason a line of :data:`_CHANGES_TURNS` is listed: it changes what a turn's
#: permanents and land drops do (entering tapped or untapped, entering triggers, more land
#: drops), which is not read; a ``sequence`` or ``best_turn`` answer is then uncertain
CHANGES_TURNS = ("could change what a turn's permanents and land drops do (entering tapped or untapped, entering "
                 "triggers, more land drops), which is not read")
#: the conservative screen: a line no reader above took that speaks of losing
#: abilities or types, of abilities that can't be activated (but mana abilities), of a
#: permanent being or becoming a land, a land type, a creature, a color or a type, of haste,
#: riot, paying life, sacrificing or counters forbidden
_COULD_MATTER = re.compile(
    r"\blos(?:e|es|ing) (?:all )?(?:other )?(?:abilities|land types|card types)\b|\bha(?:ve|s) no abilities\b|"
    r"\babilities\b[^.]*\bcan't be activated\b(?![^.]*\bunless they're mana abilities\b)|"
    r"\b(?:is|are|becomes?|become)\b[^.]*\b(?:lands?|Plains|Islands?|Swamps?|Mountains?|Forests?)\b|"
    r"\b(?:Plains|Islands?|Swamps?|Mountains?|Forests?|[Ll]ands?)\b[^.]*\b(?:is|are|becomes?)\b[^.]*\b(?:types?|"
    r"Plains|Islands?|Swamps?|Mountains?|Forests?|lands?)\b|"
    # a card type, a color or a creature type changed (March of the Machines, Opalescence,
    # Darkest Hour, Painter's Servant, Maskwood Nexus, Xenograft)
    r"\b(?:is|are|becomes?)\b (?:an? )?(?:artifact )?(?:creatures?|artifacts?)\b|"
    r"\b(?:is|are|becomes?) (?:colorless|every color|all colors|the color|the chosen (?:color|type)|white|blue|black|"
    r"red|green)\b|\bevery creature type\b|\bin addition to (?:its|their) other (?:colors|creature types|types)\b|"
    r"\bhaste\b|\briot\b|\bcan't pay life\b|\bcan't (?:pay life or )?sacrifice\b|\blife total can't change\b|"
    r"\b[Cc]ounters can't be put\b|\bcan't get counters\b")
#: a line that takes abilities or types away (Imprisoned in the Moon's, though it gives one)
_TAKES_AWAY = re.compile(r"\blos(?:e|es|ing) (?:all )?(?:other )?(?:abilities|card types|land types)\b|"
                         r"\bha(?:ve|s) no abilities\b")
#: what a turn's permanents and land drops do, changed: others entering tapped or untapped
#: (Blind Obedience, Spelunking, Amulet of Vigor), entering that triggers nothing or twice
#: (Torpor Orb, Elesh Norn, Ancient Greenwarden), more land drops (Exploration)
_CHANGES_TURNS = re.compile(
    r"\benter (?:the battlefield )?(?:tapped|untapped)\b|\benters (?:the battlefield )?tapped, untap\b|"
    r"\b(?:lands?|permanents?|artifacts?|creatures?)\b[^.]*\benters? (?:the battlefield )?(?:tapped|untapped)\b|"
    r"\bdon't cause abilities\b[^.]*\bto trigger\b|\btriggers? an additional time\b|"
    r"\bplay an additional land\b|\bplay (?:two|three|any number of) (?:additional )?lands\b")
#: an activated ability that is no mana ability (a cost, then a colon): never activated
#: while a cost is paid, and what it did is in the state the request gives
_ACTIVATED = re.compile(r"^(?:[+−-]?\d+|[^:\"]*(?:\{[^}]+\}|\b(?:[Ss]acrifice|[Pp]ay|[Tt]ap|[Ee]xile|[Dd]iscard|"
                        r"[Rr]emove|[Rr]eturn)\b)[^:\"]*): ")
#: a permanent's own entering (a land's "this land enters tapped"): read where it is played
_OWN_ENTERING = re.compile(r"\b(?:~|this (?:land|creature|artifact|permanent|enchantment)|it) enters\b")
_TRIGGERED = re.compile(r"^(?:When|Whenever|At)\b")


def read_card_text(type_line: str, oracle_text: str, name: str = "", chosen_color: str | None = None,
                   state: dict | None = None) -> CardText:
    """Everything about mana in a card's type line and Oracle text, line by line: each
    line that adds mana or speaks of mana is read as a mana ability, a triggered mana
    ability or replacement effect, or a known rider with no bearing on payment; any other
    is listed as unread with the reason. Effects that change other permanents' mana
    abilities in ways not modelled (Urborg, Blood Moon, Contamination) are errors: no
    answer could ignore them; Damping Sphere's is read (``replaces``).

    >>> read_card_text("Artifact", "{3}, {T}: Double the amount of each type of unspent mana you have.",
    ...                "Doubling Cube").abilities[0].output.format()
    'double'
    """
    state = state or {}
    found = _Found([Ability(AbilityCost(tap=True), Output(((BASIC_LAND_TYPES[t],),)),
                            text=f"{t}: {{T}}: Add {{{BASIC_LAND_TYPES[t]}}}.") for t in land_types(type_line or "")])
    level = state.get("counters", {}).get("level", 0)
    section = None  # a leveler's "LEVEL 2-6" section: its lines apply at those levels only (CR 711)
    for line, self_line in _rules_lines(oracle_text, name):
        if not line:
            continue
        if m := _LEVEL.fullmatch(line):
            low, high = int(m.group(1)), int(m.group(2)) if m.group(2) else None
            section = (low, high)
            continue
        if section is not None and not (section[0] <= level and (section[1] is None or level <= section[1])):
            continue  # not this permanent's level now: its text does not apply (CR 711.2)
        if re.fullmatch(r"\d+/\d+", line) or _LEVEL_UP.fullmatch(line):
            continue  # a level's power/toughness; level up itself is a sorcery-speed ability that adds no mana
        if (grant := HasteGrant.parse(self_line)) is not None:  # CR 702.10: creatures it reaches may tap
            found.gives_haste.append(grant)
            continue
        if has_haste_keyword(line):
            continue  # its own haste (read with its state: a hasty creature is not summoning sick)
        if _read_static(line, self_line, found):
            continue
        try:
            if _read_ability(line, self_line, name, chosen_color, state, found):
                continue
        except RequestError as e:
            if e.message.startswith(_REFUSED):
                raise
            # (a line that gives a mana ability while it takes others away, Imprisoned in the Moon's: it
            # changes what the permanent makes, not only what it might add)
            screened = _TAKES_AWAY.search(_without_reminder(self_line)) and not _ACTIVATED.match(line)
            found.unread.append((line, CHANGES_ABILITIES if screened else e.message))
            continue
        if _CHANGES_COSTS.search(self_line):
            if (effect := CostEffect.parse(self_line, state.get("chosen_type", ""))) is not None:  # CR 601.2f
                found.cost_effects.append(effect)
            else:
                found.unread.append((line, CHANGES_COSTS))
            continue
        if _ABOUT_MANA.search(_NOT_ABOUT_MANA.sub("", line)) and not any(r.search(self_line) for r, _ in KNOWN_RIDERS):
            found.unread.append((line, f"cannot read {line!r}: no mana ability, trigger or rider of this form is known"))
        elif not _ACTIVATED.match(line) and (screen := _screened(_without_reminder(self_line))):
            found.unread.append((line, screen))
    abilities = found.abilities
    if found.tap_damage:
        abilities = [replace(a, trigger_damage=a.trigger_damage + found.tap_damage) if a.cost.tap else a for a in abilities]
    whole = _REMINDED_ABILITY.fullmatch((oracle_text or "").strip())
    if whole and "Land" in split_type_line(type_line or "")[0] and not land_types(type_line or "") and not abilities:
        # a land with no basic land type whose only text is its mana ability in parentheses, as Wastes is
        # printed and as Scryfall writes it: that is the ability it has
        abilities = [ability_from_line(whole.group(1), name, chosen_color, found.unread, state)]
    found.unread += _reminded_not_given(oracle_text, abilities, name, chosen_color)
    return CardText(tuple(abilities), tuple(found.triggers), tuple(found.unread), tuple(found.grants),
                    tuple(found.replaces), tuple(found.spending), tuple(found.landfall), tuple(found.cost_effects), tuple(found.land_types),
                    tuple(found.gives_haste))


@dataclass
class _Found:
    """What :func:`read_card_text` has found so far, line by line (see :class:`CardText`);
    ``tap_damage``: damage dealt to the controller whenever the permanent becomes tapped."""

    abilities: list
    triggers: list = field(default_factory=list)
    unread: list = field(default_factory=list)
    grants: list = field(default_factory=list)
    replaces: list = field(default_factory=list)
    spending: list = field(default_factory=list)
    landfall: list = field(default_factory=list)
    cost_effects: list = field(default_factory=list)
    land_types: list = field(default_factory=list)
    gives_haste: list = field(default_factory=list)
    tap_damage: int = 0


def _screened(line: str) -> str:
    """Why the conservative screen lists ``line`` (:data:`CHANGES_ABILITIES`,
    :data:`CHANGES_TURNS`), or "". A trigger's effect counts as text that could matter
    when it changes what permanents are (Quicksilver Fountain's "That land is an
    Island ..."): whether it is in force is not known."""
    if _OWN_ENTERING.search(line) and not re.search(r"\b(?:lands|permanents|artifacts|creatures)\b", line):
        return ""  # (its own entering: read where it is played)
    if _CHANGES_TURNS.search(line):
        return CHANGES_TURNS
    if _COULD_MATTER.search(line) and not (_TRIGGERED.match(line) and re.search(r"\bhaste\b", line)
                                           and not re.search(r"\bis an?\b|\bare\b", line)):
        return CHANGES_ABILITIES
    return ""


def _without_reminder(line: str) -> str:
    """The line without its reminder text (in parentheses)."""
    return re.sub(r"\s*\([^)]*\)", "", line)


def _read_static(line: str, self_line: str, found: _Found) -> bool:
    """A line that is no mana ability but changes how mana is made or spent, read into
    ``found``; whether the line was one. City of Brass's damage on tapping (a trigger,
    counted with the tap), Damping Sphere, Chromatic Orrery (CR 609.4b), Lotus Cobra's
    landfall mana (not a mana ability, CR 605.1b: no land enters while a cost is paid;
    best_turn's land drop sets it off), a change of other permanents' card types or
    colors (listed unread); a change of other permanents' land types is an error."""
    if m := re.fullmatch(r"Whenever ~ becomes tapped, it deals (\w+) damage to you\.", self_line):
        found.tap_damage += number_word(m.group(1)) or 0
        return True
    if CHANGES_LAND_TYPES.search(line):  # model.land_types (CR 305.7, 613)
        if (effect := LandTypeEffect.parse(line)) is not None:
            found.land_types.append(effect)
            return True
        raise RequestError(f"cannot read {line!r}: this change of other permanents' land types (and so of their "
                           "mana abilities) is not one that is read")
    if _DAMPING.fullmatch(line):
        found.replaces.append(LANDS_MAKE_ONE_COLORLESS)
        return True
    if _ANY_COLOR.fullmatch(line):
        found.spending.append(SPEND_AS_ANY_COLOR)
        return True
    if m := _LANDFALL.fullmatch(line):
        try:
            found.landfall.append(Output.parse("any" if m.group(1) == "one mana of any color" else m.group(1)))
            return True
        except ManaplanError:
            pass  # (what it adds is not read: listed as unread by the reader's last rule)
    if _CHANGES_TYPES_OR_COLORS.search(line):  # Mycosynth Lattice: convoke and improvise would change
        found.unread.append((line, "changes other permanents' card types or colors (what convoke and improvise "
                                   "may tap): not modelled"))
        return True
    return False


def _read_ability(line: str, self_line: str, name: str, chosen_color, state: dict, found: _Found) -> bool:
    """A line that gives mana, read into ``found``; whether the line was one: a
    triggered mana ability (CR 605.1b), an amount counted on the permanent's own state,
    mana that depends on the rest of the board, an ability granted to other permanents,
    a loyalty ability, a doubling of the pool (Doubling Cube), any other line with
    "Add". RequestError where such a line is not understood."""
    trigger = _trigger_line(self_line, chosen_color)
    if trigger is _NO_MANA:
        return True
    if trigger is not None:
        found.triggers.append(trigger)
        return True
    special = _counted_by_state(self_line, line, state, found.unread)
    if special is None:
        special = _depends_on_board(_without_ability_word(self_line), line, state)
    if special is not None:
        found.abilities.extend(special)
        return True
    if (m := _GRANTS.fullmatch(self_line)) and re.search(r"\bAdd\b", m.group(2)):  # a mana ability given
        which = _GRANTED_TO.get(m.group(1)) or m.group(1)[:-1]  # "Goblins": Goblin
        found.grants.append((which, ability_from_line(m.group(2), "", chosen_color, None, state)))
        return True
    if m := _LOYALTY.fullmatch(line):
        found.abilities.append(_loyalty_ability(m, line, chosen_color, state))
        found.unread.append((line, LOYALTY_TIMING))
        return True
    if m := _DOUBLING.fullmatch(self_line):  # Doubling Cube
        found.abilities.append(Ability(_cost_of(m.group(1), line), Output((), doubles=True), text=line))
        return True
    if re.search(r"\bAdd\b", line):
        found.abilities.append(ability_from_line(_without_ability_word(line), name, chosen_color, found.unread, state))
        return True
    return False


#: landfall mana (Lotus Cobra): "Landfall — Whenever a land you control enters, add one mana
#: of any color." (older wording: "enters the battlefield under your control")
_LANDFALL = re.compile(r"(?:Landfall — )?Whenever a land (?:you control enters|enters(?: the battlefield)? under your "
                       r"control), add (one mana of any color|(?:\{[WUBRGC]\})+)\.")

#: Doubling Cube: a mana ability that adds as much of each type as the player has (CR 701.9f)
_DOUBLING = re.compile(r"(.*?):\s*Double the amount of each type of unspent mana you have\.")

#: reminder text that is a whole mana ability: "({T}: Add {G}.)" on a basic Forest
_REMINDED_ABILITY = re.compile(r"\((\{T\}: Add [^()]*\.)\)")


def _reminded_not_given(oracle_text: str, abilities: list, name: str, chosen_color) -> list:
    """Reminder text is not rules text (CR 207.2), so "({T}: Add {C}.)" gives nothing;
    where it names a mana ability the card's land types don't give (a Wastes written
    with parentheses), it is listed as unread rather than silently dropped."""
    out = []
    for m in _REMINDED_ABILITY.finditer(oracle_text or ""):
        try:
            reminded = ability_from_line(m.group(1), name, chosen_color, None, {})
        except RequestError:
            continue
        same_cost = [a.output for a in abilities if a.cost == reminded.cost]
        given = reminded.output in same_cost or not reminded.output.combination and all(  # a dual's "{W} or {U}"
            any(alt in out.alternatives for out in same_cost) for alt in reminded.output.alternatives)
        if not given:
            out.append((m.group(0), "reminder text (in parentheses) is not rules text, and no land type of the card "
                                    "gives this ability: write it without the parentheses"))
    return out


#: Damping Sphere: "If a land is tapped for two or more mana, it produces {C} instead of
#: any other type and amount." (CR 106.12: tapped for mana; 614: a replacement effect)
_DAMPING = re.compile(r"If a land is tapped for two or more mana, it produces \{C\} instead of any other type and "
                      r"amount\.")

#: Chromatic Orrery, Mycosynth Lattice: its controller may pay colored costs with any mana
#: (CR 609.4b; "Players may" includes them). Narrower ones ("to cast creature spells",
#: "blue mana as though") are not read: listed as unread
_ANY_COLOR = re.compile(r"(?:You|Players) may spend mana as though it were mana of any color\.")

#: "All permanents are artifacts in addition to their other types.", "... and permanents are
#: colorless." (Mycosynth Lattice): what may convoke or improvise changes
_CHANGES_TYPES_OR_COLORS = re.compile(r"\bpermanents (?:are|you control are) (?:artifacts|colorless)\b|"
                                      r"\bpermanents are colorless\b|, and permanents are colorless\b", re.I)

#: the start of the message of an effect that no answer may ignore (it changes what other
#: permanents make): the whole request is refused
_REFUSED = "cannot read the mana replacement effect"


def abilities_from_text(type_line: str, oracle_text: str, name: str = "", chosen_color: str | None = None) -> list:
    """Every mana ability the type line and Oracle text give, in order; a line about
    mana that can't be read is an error (:func:`read_card_text` lists it instead)."""
    read = read_card_text(type_line, oracle_text, name, chosen_color)
    if read.unread:
        raise RequestError(read.unread[0][1])
    return list(read.abilities)


#: storage counters removed any number at a time, each adding one mana (Bottomless Vault)
_ANY_NUMBER = re.compile(r"\{T\}, Remove any number of ([\w+/-]+) counters from ~: Add (\{[WUBRGC]\}) for each \1 "
                         r"counter removed this way\.")
#: storage counters removed X at a time for X mana of two colors (Calciform Pools)
_REMOVE_X = re.compile(r"((?:\{[^}]+\})+), Remove X ([\w+/-]+) counters from ~: Add X mana in any combination of "
                       r"\{([WUBRG])\} and/or \{([WUBRG])\}\.")
#: mana counted on the permanent's own counters (Everflowing Chalice)
_PER_OWN_COUNTER = re.compile(r"\{T\}: Add (\{[WUBRGC]\}) for each ([\w+/-]+) counter on ~\.")
#: the most counters removed at once that are modelled (one ability per number)
MOST_COUNTERS_AT_ONCE = 20


def _counted_by_state(self_line: str, line: str, state: dict, unread: list):
    """Abilities whose amounts are the permanent's own counters, read as one ability per
    number of counters that may be removed (each its own ``ability`` index in a plan),
    or with the amount counted; None if the line is none of these."""
    counters = state.get("counters", {})
    if m := _ANY_NUMBER.fullmatch(self_line):
        kind, t = m.group(1).lower(), m.group(2)[1]
        n = counters.get(kind, 0)
        return [Ability(AbilityCost(tap=True, counter_kind=kind, counters=k), Output(((t,) * k,)),
                        text=f"{{T}}, Remove {k} {kind} counter{'s' if k > 1 else ''} from this")
                for k in range(1, _at_once(n, line, unread) + 1)]
    if m := _REMOVE_X.fullmatch(self_line):
        cost, kind = ManaCost.parse(m.group(1)), m.group(2).lower()
        colors = tuple(c for c in COLORS if c in (m.group(3), m.group(4)))
        n = counters.get(kind, 0)
        return [Ability(AbilityCost(mana=cost, counter_kind=kind, counters=k), Output((), k, colors),
                        text=f"{cost}, Remove {k} {kind} counter{'s' if k > 1 else ''} from this")
                for k in range(1, _at_once(n, line, unread) + 1)]
    if m := _PER_OWN_COUNTER.fullmatch(self_line):
        n = counters.get(m.group(2).lower(), 0)
        if n > MAX_ADDED:
            raise RequestError(f"{line!r} would add {n} mana; at most {MAX_ADDED} per activation are supported")
        return [Ability(AbilityCost(tap=True), Output(((m.group(1)[1],) * n,)), text=line)]
    return None


#: abilities whose mana depends on the rest of the board (resolved by model.dependent_mana)
_COULD_PRODUCE = re.compile(r"(.+): Add one mana of any type that a land you control could produce\.(?: If ~ has a "
                            r"\+1/\+1 counter on it, add three mana of that type instead\.)?")
_COMMANDER = re.compile(r"(.+): Add one mana of any color in your commander's color identity\.")
_EACH_COLOR_AMONG = re.compile(r"(.+): For each color among permanents you control, add one mana of that color\.")
_COLOR_AMONG_LEGENDS = re.compile(r"(.+): Add one mana of any color among legendary creatures and planeswalkers you "
                                  r"control\.")
_OPPONENT_LANDS = re.compile(r"(.+): Add one mana of any color that a land an opponent controls could produce\.")
_ON_BATTLEFIELD = re.compile(r"(.+): Add (\{[WUBRGC]\}) for each ([A-Z][a-z]+) on the battlefield\.")
#: "Lands you control have "{T}: Add one mana of any color."" (Chromatic Lantern)
_GRANTS = re.compile(r"([A-Z][a-z]+) you control have \"(.+)\"\.?")
_GRANTED_TO = {"Lands": "land", "Creatures": "creature", "Artifacts": "artifact", "Elves": "Elf", "Dwarves": "Dwarf"}
#: a leveler's sections (CR 711): "LEVEL 1-4", "LEVEL 5+"; and its "Level up {1}{G}"
_LEVEL = re.compile(r"LEVEL (\d+)(?:-(\d+)|\+)")
_LEVEL_UP = re.compile(r"Level up (?:\{[^}]+\})+")


def _depends_on_board(self_line: str, line: str, state: dict):
    """An ability whose mana depends on the rest of the board, as a spec that
    :func:`manaplan.model.dependent_mana.resolve_board_mana` resolves; None if the line is
    none of these."""
    if m := _COULD_PRODUCE.fullmatch(self_line):
        three = "instead" in self_line and state.get("counters", {}).get("+1/+1", 0) > 0  # Incubation Druid
        depends: tuple = (COULD_PRODUCE, 3 if three else 1)
    elif m := _COMMANDER.fullmatch(self_line):
        depends = (COMMANDER,)
    elif m := _EACH_COLOR_AMONG.fullmatch(self_line):
        depends = (COLORS_AMONG, "permanent", True)
    elif m := _COLOR_AMONG_LEGENDS.fullmatch(self_line):
        depends = (COLORS_AMONG, "legendary creature or planeswalker", False)
    elif m := _OPPONENT_LANDS.fullmatch(self_line):
        depends = (OPPONENT_LAND_COLORS,)
    elif m := _ON_BATTLEFIELD.fullmatch(self_line):
        depends = (ON_BATTLEFIELD, m.group(3), (m.group(2)[1],))
    else:
        return None
    return [Ability(_cost_of(m.group(1), line), NOTHING, text=line, depends=depends)]


#: a loyalty ability that adds mana ("+1: Add {R}{R}.", Chandra, Torch of Defiance)
_LOYALTY = re.compile(r"([+−-]?)(\d+): (Add [^.]+\.)")
#: the counter each planeswalker has for its one loyalty ability a turn (CR 606.3)
LOYALTY_ACTIVATION = "loyalty activation"
#: why a loyalty ability's line is listed: it is read, and used for spells cast at
#: sorcery speed (the main phase, the stack empty: CR 606.3); for an instant the request
#: does not say whether now is such a time
LOYALTY_TIMING = "a loyalty ability: activated only at sorcery speed (CR 606.3), which the request doesn't say for an instant"


def _loyalty_ability(m, line: str, chosen_color, state: dict) -> Ability:
    """A loyalty ability that adds mana: not a mana ability (CR 605.1a, 606), activated
    before casting, once a turn for its planeswalker (a counter the permanent has: CR
    606.3); its mana pays sorcery-speed spells only ("noninstant spells"). One that
    removes loyalty counters is not read."""
    sign, n = m.group(1), int(m.group(2))
    if sign in ("−", "-") and n:
        raise RequestError(f"cannot read {line!r}: a loyalty ability that removes loyalty counters is not modelled")
    output = _read_add(m.group(3), line, chosen_color, state)
    cost = AbilityCost(counter_kind=LOYALTY_ACTIVATION, counters=1)
    return Ability(cost, output, "noninstant spells", mana_ability=False, text=f"{sign}{n}")


def _at_once(n: int, line: str, unread: list) -> int:
    if n > MOST_COUNTERS_AT_ONCE:
        unread.append((line, f"removing more than {MOST_COUNTERS_AT_ONCE} counters at once is not modelled: {line!r} "
                             f"is read for 1 to {MOST_COUNTERS_AT_ONCE}"))
    return min(n, MOST_COUNTERS_AT_ONCE)


def _without_ability_word(line: str) -> str:
    """The line without an ability word ("Metalcraft — "), which has no rules meaning
    (CR 207.2c)."""
    return re.sub(r"^[A-Z][a-z']+(?: [a-z']+){0,2} — (?=\{|[A-Z][^:]*:)", "", line)


def _cost_of(cost_text: str, line: str) -> AbilityCost:
    """The cost part of a line (its name written ``~``), or an error naming the line."""
    try:
        return AbilityCost.parse(cost_text, "~")
    except ManaplanError as e:
        raise RequestError(f"cannot read the cost of {line!r}: {e.message}") from None


def ability_from_line(line: str, name: str = "", chosen_color: str | None = None, unread: list | None = None,
                      state: dict | None = None) -> Ability:
    """Read one ``COST: Add ...`` line; raise RequestError saying what was not understood.

    A rider that makes the ability add more of the same mana under a condition ("If you
    control an Urza's Mine and an Urza's Power-Plant, add {C}{C}{C} instead.") leaves
    the ability as written (a plan that counts on less mana stays legal); with
    ``unread`` the rider is listed there, else it is an error."""
    text = _named(line, name)
    text = _SELF.sub("~", text)
    text = text.replace(": Choose a color. Add an amount of mana of that color", ": Add an amount of mana of that color")
    m = re.match(r"^(.*?):\s*(Add .*)$", text)
    if not m:
        raise RequestError(f"cannot read the mana ability {line!r}: mana that is not added by an "
                           "activated ability 'COST: Add ...' is not supported")
    cost_text, effect = m.group(1), m.group(2)
    cost = _cost_of(cost_text, line)
    sentences = [s.strip() for s in re.split(r"(?<=\.)\s+", effect) if s.strip()]
    output = _read_add(sentences[0], line, chosen_color, state or {})
    depends: tuple
    damage, restrict, instant_only, mana_ability, depends, restrict_abilities = 0, "", False, True, (), True
    if re.search(r"\btarget\b", effect + cost_text, re.I):
        mana_ability = False  # CR 605.1a: an ability that could target is not a mana ability
    for s in sentences[1:]:
        if d := re.fullmatch(r"~ deals (\w+) damage to you\.", s):
            damage = number_word(d.group(1)) or 0
        elif r := re.fullmatch(r"Spend this mana only to cast (.+?)\.", s):
            restrict = _chosen_type_restriction(r.group(1), line, state or {})
            parse_restriction(restrict)
        elif r := re.fullmatch(r"This mana can't be spent to cast (?:an? )?non(\w+) spells?\.", s):
            restrict, restrict_abilities = f"{r.group(1)} spells", False  # Powerstone: abilities are fine
            parse_restriction(restrict)
        elif s == "Activate only as an instant.":
            instant_only = True
        elif re.search(r"\btarget\b", s, re.I):
            mana_ability = False  # CR 605.1a: could target
        elif re.search(r"\blibrary\b|\bdraw\b|\bmill\b", s, re.I):
            mana_ability = False  # CR 605.1a (2026-08-07): moves cards into or out of a library
        elif re.fullmatch(r"Activate only (once each turn|during your turn)\.", s):
            pass
        elif re.fullmatch(r"If that mana is spent on [^.]+, that spell can't be countered\.", s):
            pass  # Boseiju's rider: no bearing on paying
        elif (c := _DEPLETED.fullmatch(s)) and cost.counter_kind == c.group(1).lower():
            if (state or {}).get("counters", {}).get(cost.counter_kind, 0) <= cost.counters:  # its last activation
                cost = replace(cost, sacrifice=True)  # depletion lands: gone once the counters are
        elif (c := _CONTROL_INSTEAD.fullmatch(s)) and _adds_more_instead(s, output):
            depends = (IF_CONTROL, tuple(re.split(r" and an? ", c.group(1))),
                       tuple(re.findall(r"[WUBRGC]", c.group(2))))  # Urza's Tower
        elif c := _ONLY_IF_COUNT.fullmatch(s):
            depends = (IF_COUNT, _COUNTED_KIND[c.group(2)], number_word(c.group(1)) or 0)  # metalcraft
        elif c := _ONLY_IF_ANY.fullmatch(s):
            depends = (IF_ANY, _kinds_named(c.group(1)))  # the Verges (CR 602.5b: a restriction on activating)
        elif unread is not None and _adds_more_instead(s, output):
            unread.append((s, f"cannot read the condition of {s!r}: the ability is read as adding what it adds "
                              "otherwise (never more than it makes)"))
        else:
            raise RequestError(f"cannot read {s!r} in the mana ability {line!r}")
    if re.search(r"\blibrary\b|\bdraw\b|\bmill\b", cost_text, re.I):
        mana_ability = False
    ability = Ability(cost, output, restrict, instant_only, mana_ability, damage, line, depends,
                      restrict_abilities=restrict_abilities)
    check_bounded(ability)
    return ability


#: "If you control an Urza's Mine and an Urza's Power-Plant, add {C}{C}{C} instead."
_CONTROL_INSTEAD = re.compile(r"If you control an? ((?:[A-Z][\w'-]* ?)+(?: and an? (?:[A-Z][\w'-]* ?)+)*), add "
                              r"((?:\{[WUBRGC]\})+) instead\.")
#: depletion lands: "If there are no depletion counters on this land, sacrifice it."
_DEPLETED = re.compile(r"If there are no ([\w-]+) counters on ~, sacrifice it\.")
#: "Activate only if you control three or more artifacts." (metalcraft)
_ONLY_IF_COUNT = re.compile(r"Activate only if you control (\w+) or more (artifacts|lands|creatures|enchantments)\.")
_COUNTED_KIND = {"artifacts": "artifact", "lands": "land", "creatures": "creature", "enchantments": "enchantment"}
#: "Activate only if you control a Plains or an Island." (the Verge lands), "... an artifact",
#: "... a Desert or there is a Desert card in your graveyard" is not this (the graveyard)
_ONLY_IF_ANY = re.compile(r"Activate only if you control ((?:an? [A-Za-z]+)(?:(?:,| or) (?:an? )?[A-Za-z]+)*)\.")
_KIND_WORDS = {"artifact": "artifact", "creature": "creature", "enchantment": "enchantment", "land": "land"}


def _kinds_named(words: str) -> tuple:
    """The kinds of ``words`` ("a Plains or an Island", "an artifact or a creature"):
    card types (``Permanent.is_a``'s kinds) or subtypes as written; RequestError for a
    word that is neither."""
    kinds = []
    for word in re.split(r",? or |, ", words):
        word = re.sub(r"^an? ", "", word.strip())
        if word in _KIND_WORDS:
            kinds.append(_KIND_WORDS[word])
        elif re.fullmatch(r"[A-Z][a-z']+", word):
            kinds.append(word)
        else:
            raise RequestError(f"cannot read the kind {word!r} in the condition 'Activate only if you control {words}'")
    return tuple(kinds)


def _chosen_type_restriction(restrict: str, line: str, state: dict) -> str:
    """"a creature spell of the chosen type" (Cavern of Souls, Unclaimed Territory) with
    the permanent's ``chosen_type``; a rider after it with no bearing on payment ("and
    that spell can't be countered") is dropped."""
    m = re.fullmatch(r"a creature spell of the chosen type(?:, and that spell can't be countered)?", restrict)
    if not m:
        return restrict
    chosen = state.get("chosen_type")
    if not chosen:
        raise RequestError(f"{line!r} needs the permanent's 'chosen_type' (a creature type such as \"Elf\")")
    return f"{chosen} creature spells"


def _adds_more_instead(sentence: str, output: Output) -> bool:
    """Whether ``sentence`` is "If ..., add MANA instead." with MANA containing each of
    the ability's own fixed outputs (Urza's Tower: {C}{C}{C} instead of {C})."""
    m = re.fullmatch(r"If [^.]+, add ((?:\{[WUBRGC]\})+) instead\.", sentence)
    if not m or output.combination or output.per:
        return False
    more = Counter(re.findall(r"[WUBRGC]", m.group(1)))
    return all(not Counter(alt) - more for alt in output.alternatives)


def _read_add(sentence: str, line: str, chosen_color: str | None, state: dict) -> Output:
    s = sentence.rstrip(".")
    body = s[len("Add "):]
    if re.fullmatch(r"(\{[WUBRGC]\})+", body):
        return Output.parse(body)
    alts = re.split(r",\s*(?:or\s+)?|\s+or\s+", body)
    if len(alts) > 1 and all(re.fullmatch(r"(\{[WUBRGC]\})+", a) for a in alts):
        return Output.parse(alts)
    if m := re.fullmatch(r"((?:\{[WUBRGC]\})+) for each (.+?) you control", body):
        what = {"creature": "creature", "artifact": "artifact", "enchantment": "enchantment", "land": "land",
                "basic land": "basic land", "permanent": "permanent"}.get(m.group(2), m.group(2))
        if what in COUNTABLE or re.fullmatch(r"(?:basic )?[A-Z][a-z]+", what):
            return Output.parse({"for_each": what, "mana": m.group(1)})  # Gaea's Cradle, Cabal Coffers
    if body == "an amount of mana of that color equal to your devotion to that color":  # Nykthos
        return Output.parse({"for_each": DEVOTION, "mana": "any"})
    if (m := re.fullmatch(r"an amount of (\{[WUBRG]\}) equal to your devotion to (\w+)", body)) \
            and _COLOR_WORDS.get(m.group(2)) == m.group(1)[1]:  # Karametra's Acolyte
        return Output.parse({"for_each": DEVOTION, "mana": m.group(1)})
    if m := re.fullmatch(r"(\w+) mana of any (one )?color", body):
        n = number_word(m.group(1))
        if n:
            return Output.parse("any" if n == 1 else {"any": n})
    if m := re.fullmatch(r"(\w+) mana in any combination of \{([WUBRG])\} and/or \{([WUBRG])\}", body):
        n = number_word(m.group(1))  # Orcish Lumberjack
        if n:
            return Output((), n, tuple(c for c in COLORS if c in (m.group(2), m.group(3))))
    if m := re.fullmatch(r"(\w+) mana in any combination of colors", body):
        n = number_word(m.group(1))
        if n:
            return Output.parse({"combination": n})
    if m := re.fullmatch(r"(\{[WUBRGC]\}) or one mana of the chosen color", body):
        if not chosen_color:
            raise RequestError(f"{line!r} needs the permanent's 'chosen_color'")
        return Output.parse([m.group(1), "{%s}" % chosen_color])
    if body == "one mana of any of the exiled card's colors":  # Chrome Mox: its imprinted card's colors
        colors = state.get("exiled_colors")
        if colors is None:
            raise RequestError(f"{line!r} needs the permanent's 'exiled_colors' (the colors of the card it exiled)")
        return Output(tuple((c,) for c in COLORS if c in colors) or ((),))
    if body == "one mana of the chosen color":
        if not chosen_color:
            raise RequestError(f"{line!r} needs the permanent's 'chosen_color'")
        return Output.parse("{%s}" % chosen_color)
    raise RequestError(f"cannot read what {line!r} adds")


_TRIGGER_WHO = {"a land": "land", "a basic land": "basic land", "a creature": "creature", "an artifact": "artifact",
                "a nonland permanent": "nonland permanent",
                "a permanent": "permanent", "enchanted land": "enchanted", "enchanted permanent": "enchanted",
                "enchanted creature": "enchanted"}
_TAPPED_FOR_MANA = re.compile(
    r"Whenever (?:(?P<who1>.+?) is tapped for mana|(?:you tap|a player taps) (?P<who2>.+?) for mana)"
    r"(?P<chosen> of the chosen color)?, (?:add|(?:its controller|that player) adds) (?P<add>.+?)\.")
_CAUSES_TO_ADD = re.compile(
    r"Whenever (?P<who>.+?)'s ability causes you to add one or more mana(?P<chosen> of the chosen color)?, "
    r"add (?P<add>.+?)\.")


def triggers_from_text(oracle_text: str, name: str = "", chosen_color: str | None = None) -> list:
    """The triggered mana abilities in Oracle text (CR 605.1b): lines that trigger on a
    permanent being tapped for mana or on an ability adding mana. Such a line that can't
    be read is an error; other triggers that add mana (landfall, "When ~ enters") are
    not mana abilities and can't happen while a cost is paid, so they are not read.

    >>> [t.format() for t in triggers_from_text("Whenever a Forest is tapped for mana, its controller adds an additional {G}.")]
    [{'when': 'tapped', 'of': 'Forest', 'add': '{G}'}]
    """
    read = read_card_text("", oracle_text, name, chosen_color)
    unread = [(line, why) for line, why in read.unread if is_trigger_line(line)]
    if unread:
        raise RequestError(unread[0][1])
    return list(read.triggers)


#: a trigger on mana that adds no mana (Forbidden Orchard, Manabarbs): not a mana ability
_NO_MANA = object()


def is_trigger_line(line: str) -> bool:
    return bool(line.startswith("Whenever") and re.search(r"for mana|causes you to add", line)
                or _PRODUCES_TIMES.fullmatch(line))


def _trigger_line(line: str, chosen_color: str | None):
    """The triggered mana ability or mana replacement effect on this line (its name
    written ``~``), None if the line is neither, _NO_MANA for a trigger on mana that adds
    none; raises if it is one that can't be read."""
    if m := _PRODUCES_TIMES.fullmatch(line):
        times = {"twice": 2, "three times": 3}.get(m.group("times"))
        who = _TRIGGER_WHO.get(m.group("who"))
        if not times or not who:
            raise RequestError(f"{_REFUSED} {line!r}")
        return ManaTrigger.parse({"when": "tapped", "of": who, "multiply": times, "text": line})
    if re.search(r"\bfor (?:[\w ]+ )?mana\b.*\binstead\b", line):  # Contamination (Damping Sphere is read before)
        raise RequestError(f"{_REFUSED} {line!r}")
    if not line.startswith("Whenever") or not re.search(r"for mana|causes you to add", line):
        return None
    if not re.search(r"\badds?\b", line):
        return _NO_MANA  # it adds no mana, so it is not a mana ability (Forbidden Orchard, Manabarbs)
    return _trigger_from_line(line, chosen_color)


_PRODUCES_TIMES = re.compile(r"If you tap (?P<who>.+?) for mana, it produces (?P<times>\w+(?: times)?) as much "
                             r"of that mana instead\.")


def _trigger_from_line(line: str, chosen_color: str | None):
    if m := _TAPPED_FOR_MANA.fullmatch(line):
        when, who = TAPPED, m.group("who1") or m.group("who2")
    elif m := _CAUSES_TO_ADD.fullmatch(line):
        when, who = ADDS, m.group("who")
    else:
        raise RequestError(f"cannot read the triggered mana ability {line!r}")
    of: str | list[str] | None = _TRIGGER_WHO.get(who)
    if of is None:
        words = re.fullmatch(r"(?:an? |enchanted )?((?:[A-Z][a-z]+)(?:(?:,| or|, or) [A-Z][a-z]+)*)", who)
        if not words:
            raise RequestError(f"cannot read what sets off {line!r}: {who!r}")
        of = [w for w in re.split(r",\s*(?:or\s+)?|\s+or\s+", words.group(1)) if w]
        if who.startswith("enchanted "):
            of = "enchanted"  # an Aura that enchants only Forests is on a Forest
    add = re.sub(r"^an additional ", "", m.group("add"))
    if re.fullmatch(r"(\{[WUBRGC]\})+", add):
        spec_add: str | dict[str, int | None] = add
    elif add in ("one mana of any color", "one additional mana of any color"):
        spec_add = ANY
    elif re.fullmatch(r"one (?:additional )?mana of any type that (?:land|permanent|creature|Forest|Swamp|Island"
                      r"|Mountain|Plains) produced", add):
        spec_add = SAME
    elif add in ("one mana of the chosen color", "one mana of that color", "one additional mana of that color"):
        spec_add = "chosen"
    elif (c := re.fullmatch(r"(\w+) mana in any combination of colors", add)) and number_word(c.group(1)):
        spec_add = {"combination": number_word(c.group(1))}  # Market Festival
    else:
        raise RequestError(f"cannot read what {line!r} adds")
    spec = {"when": when, "of": of, "add": spec_add}
    if m.group("chosen"):
        spec["produces"] = "chosen"
    return ManaTrigger.parse({**spec, "text": line}, chosen_color)


def chosen_color_code(value) -> str:
    """Accept ``'W'`` or ``'white'`` for a permanent's chosen color."""
    if isinstance(value, str):
        if value in COLORS:
            return value
        if value.lower() in _COLOR_WORDS:
            return _COLOR_WORDS[value.lower()]
    raise RequestError(f"unknown color {value!r}; use W, U, B, R, G or white, blue, black, red, green")


#: the permanent card types: a spell of one of them becomes a permanent (CR 110.4)
PERMANENT_TYPES = ("Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker")


def spell_mana_from_text(oracle_text: str, name: str = "", graveyard: int = 0) -> tuple:
    """The mana an instant or sorcery adds when it resolves (a ritual: "Add {B}{B}{B}."
    is Dark Ritual's whole text; CR 605.5b: a spell is never a mana ability), as mana
    types; with Cabal Ritual's threshold, the mana it adds instead when ``graveyard``
    (the cards in the player's graveyard) is seven or more (checked as it resolves; the
    ritual itself is on the stack then). A line that speaks of adding mana in any other
    way is an error, never skipped ("Add one mana of any color")."""
    out, instead = [], None
    for line, self_line in _rules_lines(oracle_text, name):
        if m := re.fullmatch(r"Add ((?:\{[WUBRGC]\})+)\.", self_line):
            out += re.findall(r"[WUBRGC]", m.group(1))
        elif m := _THRESHOLD.fullmatch(self_line):
            instead = re.findall(r"[WUBRGC]", m.group(1))
        elif re.search(r"\badd\b", line, re.I):
            raise RequestError(f"cannot read {line!r}: a spell's mana is read from \"Add\" and fixed mana only "
                               "(\"Add {B}{B}{B}.\")", "oracle_text")
    if instead is not None and not out:
        raise RequestError("a threshold that adds mana instead needs the mana the spell adds otherwise", "oracle_text")
    return tuple(instead if instead is not None and graveyard >= 7 else out)


def entering_mana(oracle_text: str, name: str = "") -> tuple:
    """(the mana a permanent spell's "When ~ enters, add ..." trigger adds once it
    resolves, within the same step, like a ritual's: Priest of Urabrask; the lines of its
    text about entering and mana that can't be read, as (line, why))."""
    adds, unread = [], []
    for line, self_line in _rules_lines(oracle_text, name):
        if m := re.fullmatch(r"When ~ enters, add ((?:\{[WUBRGC]\})+)\.", self_line):
            adds += re.findall(r"[WUBRGC]", m.group(1))
        elif re.match(r"(?:When|Whenever) ~ enters\b", self_line) and _ABOUT_MANA.search(_NOT_ABOUT_MANA.sub("", line)):
            unread.append((line, f"cannot read what {line!r} adds as it enters"))
    return tuple(adds), tuple(unread)


#: Cabal Ritual: "Threshold — Add {B}{B}{B}{B}{B} instead if there are seven or more cards
#: in your graveyard."
_THRESHOLD = re.compile(r"Threshold — Add ((?:\{[WUBRGC]\})+) instead if there are seven or more cards in your "
                        r"graveyard\.")


#: "Exile this card from your hand: Add {R}." (Simian Spirit Guide): a mana ability of a
#: card in the hand (CR 605.1a; it works from the hand, 113.6m)
_FROM_HAND = re.compile(r"Exile (?:~|this card) from your hand: Add ((?:\{[WUBRGC]\})+)\.", re.I)
#: the cost a hand card's mana ability shows in a plan
EXILE_FROM_HAND = "Exile this card from your hand"


@functools.lru_cache(maxsize=1024)
def hand_mana_from_text(oracle_text: str, name: str = "") -> tuple | None:
    """The mana a card adds by being exiled from the hand (Simian Spirit Guide), as mana
    types, or None. Once exiled it is gone, like a permanent sacrificed for mana."""
    for line, self_line in _rules_lines(oracle_text, name):
        if m := _FROM_HAND.fullmatch(self_line):
            return tuple(re.findall(r"[WUBRGC]", m.group(1)))
    return None
