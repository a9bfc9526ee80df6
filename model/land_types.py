"""Land types changed by the board (CR 305.7, 613.1d), and so the lands' mana abilities.

A land's basic land types give it its intrinsic mana abilities (CR 305.6: a Forest has
"{T}: Add {G}."). Some permanents change them:

- an effect that *sets* a land's subtype (Blood Moon and Magus of the Moon's "Nonbasic
  lands are Mountains.", an Aura's "Enchanted land is an Island.") makes it lose its
  other land types and every ability from its rules text: it has only the new types'
  abilities (CR 305.7) - a Blood Moon'd Volcanic Island taps only for {R};
- an effect that *adds* types ("Each land is a Swamp in addition to its other land
  types." of Urborg, Tomb of Yawgmoth, Yavimaya, Cradle of Growth; "Lands you control are
  every basic land type in addition to their other types." of Prismatic Omen and Dryad
  of the Ilysian Grove) gives the new types' abilities and keeps the rest.

All are type-changing effects of layer 4 (CR 613.1d), applied in timestamp order (613.7)
unless one depends on another (613.8): an effect that sets the land types of the land
whose ability adds types removes that ability, so the adding effect depends on it and
comes after it, whatever the timestamps - with Blood Moon and Urborg both out, Urborg is
only a Mountain and no land is a Swamp. Where the order of two independent effects
matters and the request gives no ``timestamp`` for their permanents, the land is taken as
the effect that sets its types left it (it has those abilities in either order), and its
permanent lists why: a "no" is then not certain.

:func:`apply_land_types` rewrites the lands of one board before anything else reads it
(model.dependent_mana runs it first).

>>> LandTypeEffect.parse("Nonbasic lands are Mountains.")
LandTypeEffect(sets=True, types=('Mountain',), lands='nonbasic', text='Nonbasic lands are Mountains.')
>>> LandTypeEffect.parse("Each land is a Swamp in addition to its other land types.").types
('Swamp',)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from manaplan.model.abilities import Ability, AbilityCost, Output
from manaplan.model.board import Board, split_type_line

#: basic land types and the mana their intrinsic ability adds (CR 305.6)
BASIC_LAND_TYPES = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
_TYPE = r"(Plains|Island|Swamp|Mountain|Forest)s?"
#: which lands an effect changes
NONBASIC, EACH, YOURS, ENCHANTED = "nonbasic", "each", "yours", "enchanted"

_PATTERNS = (
    (re.compile(r"Nonbasic lands are " + _TYPE + r"\."), True, NONBASIC),
    (re.compile(r"Each land is an? " + _TYPE + r" in addition to its other land types\."), False, EACH),
    (re.compile(r"Enchanted land is an? " + _TYPE + r"\."), True, ENCHANTED),
)
_EVERY_TYPE = re.compile(r"Lands you control are every basic land type in addition to their other types\.")
#: a line that changes land types: read here, or else an error (it removes or gives abilities)
CHANGES_LAND_TYPES = re.compile(r"\b(?:Each land|Lands|Nonbasic lands|Enchanted land|All (?:Plains|Islands|Swamps|"
                                r"Mountains|Forests|lands))\b[^.]*\b(?:is|are|becomes?)\b[^.]*"
                                r"\b(?:Plains|Islands?|Swamps?|Mountains?|Forests?|every basic land type|the chosen "
                                r"type)\b|\blose all land types\b")
#: why a land's abilities are not certain (the order of two effects matters, CR 613.7)
ORDER_UNKNOWN = ("the order of the effects that change its land types matters (CR 613.7) and the request gives no "
                 "'timestamp' for them: taken with only the types an effect set")


@dataclass(frozen=True)
class LandTypeEffect:
    """One line that changes lands' types: it ``sets`` them (or adds to them) to
    ``types``, for the ``lands`` it names (:data:`NONBASIC`, :data:`EACH`,
    :data:`YOURS`: its controller's, :data:`ENCHANTED`: the land it is attached to)."""

    sets: bool
    types: tuple
    lands: str
    text: str = ""

    @classmethod
    def parse(cls, line: str) -> "LandTypeEffect | None":
        for pattern, sets, lands in _PATTERNS:
            if m := pattern.fullmatch(line):
                return cls(sets, (m.group(1),), lands, line)
        if _EVERY_TYPE.fullmatch(line):
            return cls(False, tuple(BASIC_LAND_TYPES), YOURS, line)
        return None

    def format(self) -> str:
        """The line, as Oracle text writes it."""
        if self.lands == YOURS:
            return "Lands you control are every basic land type in addition to their other types."
        t = self.types[0]
        plural = t if t == "Plains" else t + "s"
        article = "an" if t[0] in "AEIOU" else "a"
        return {NONBASIC: f"Nonbasic lands are {plural}.", ENCHANTED: f"Enchanted land is {article} {t}.",
                EACH: f"Each land is {article} {t} in addition to its other land types."}[self.lands]


@dataclass(frozen=True)
class _Source:
    """An effect with its permanent: its id, controller's side, timestamp, whether it is
    a land itself (then an effect that sets its types removes it), what it enchants."""

    effect: LandTypeEffect
    pid: str
    ours: bool
    timestamp: int | None
    land: bool
    nonbasic: bool
    attached_to: str


def apply_land_types(board: Board, opponents) -> Board:
    """The board with each land's types and intrinsic mana abilities as the effects of
    ``board`` (the player's permanents) and ``opponents`` (theirs; None: not given) leave
    them (see the module); the same board where nothing changes land types."""
    sources = [_Source(e, p.id, ours, p.timestamp, p.is_a("land"), "Basic" not in split_type_line(p.type_line)[0],
                       p.attached_to)
               for ours, group in ((True, board.permanents), (False, opponents or ()))
               for p in group for e in p.land_types]
    if not sources:
        return board
    # CR 613.8: an adding effect of a land that a setting effect changes depends on it,
    # and loses its ability: it does not apply at all
    setters = [s for s in sources if s.effect.sets]
    live = [s for s in sources if s.effect.sets or not (s.land and any(_changes(t, s.pid, s.nonbasic, s.ours)
                                                                          for t in setters))]
    return Board(tuple(_typed(p, live) if p.is_a("land") else p for p in board.permanents))


def as_it_enters(land, board: Board, opponents):
    """The land ``land`` (a card of the hand played as the land drop) as the effects of
    ``board`` and ``opponents`` leave it once it is on the battlefield (see the module)."""
    if not any(p.land_types for p in board.permanents) and not any(p.land_types for p in opponents or ()):
        return land
    return apply_land_types(Board(board.permanents + (land,)), opponents).permanents[-1]


def _changes(source: _Source, pid: str, nonbasic: bool, ours: bool) -> bool:
    """Whether ``source``'s effect changes the land ``pid`` (of the player when ``ours``)."""
    lands = source.effect.lands
    if lands == NONBASIC:
        return nonbasic
    if lands == ENCHANTED:
        return source.attached_to == pid
    if lands == YOURS:
        return source.ours == ours
    return True


def _typed(p, live: list):
    """The land ``p`` with the live effects applied in layer 4 (CR 305.7, 613.7)."""
    nonbasic = "Basic" not in split_type_line(p.type_line)[0]
    mine = [s for s in live if _changes(s, p.id, nonbasic, True)]
    if not mine:
        return p
    sets = [s for s in mine if s.effect.sets]
    adds = [s for s in mine if not s.effect.sets]
    unsure = False
    if sets:
        known = all(s.timestamp is not None for s in mine)
        if known:
            order = sorted(mine, key=lambda s: s.timestamp)
            last_set = max(i for i, s in enumerate(order) if s.effect.sets)
            types = tuple(order[last_set].effect.types)
            for s in order[last_set + 1:]:
                types += tuple(t for t in s.effect.types if t not in types)
        else:  # (in either order the land has the types the last effect that sets them gives)
            types = tuple(sets[-1].effect.types)
            unsure = bool(adds) or len({s.effect.types for s in sets}) > 1
        return _with_types(p, types, keep_own=False, unsure=unsure)
    added = tuple(t for s in adds for t in s.effect.types)
    return _with_types(p, added, keep_own=True)


def _with_types(p, types: tuple, keep_own: bool, unsure: bool = False):
    """``p`` with the basic land types ``types``: added to its own (its abilities kept), or
    instead of them (CR 305.7: its rules-text abilities and old land types gone), each
    new type's intrinsic ability added once (CR 305.6)."""
    main, subtypes = split_type_line(p.type_line)
    own = [t for t in subtypes if t in BASIC_LAND_TYPES]
    if keep_own:
        new = [t for t in dict.fromkeys(types) if t not in own]
        if not new:
            return p
        abilities = p.abilities + tuple(_intrinsic(t) for t in new)
        return replace(p, type_line=f"{' '.join(main)} — {' '.join(subtypes + new)}", abilities=abilities,
                       key=_key(p, "+" + "".join(new)))
    types = tuple(dict.fromkeys(types))
    out = replace(p, type_line=f"{' '.join(main)} — {' '.join(types)}", abilities=tuple(_intrinsic(t) for t in types),
                  triggers=(), grants=(), replaces=(), spending=(), landfall=(), cost_effects=(), land_types=(),
                  unread=((p.type_line, ORDER_UNKNOWN),) if unsure else (), key=_key(p, "=" + "".join(types)))
    return out


def _key(p, change: str) -> str:
    """The permanent's key with its change of land types: what is built for a permanent
    across boards by its key (solver.supply) is not taken for the land as it was."""
    return f"{p.key}|types{change}" if p.key else ""


def _intrinsic(land_type: str) -> Ability:
    """A basic land type's intrinsic ability: "{T}: Add {G}." for a Forest (CR 305.6)."""
    mana = BASIC_LAND_TYPES[land_type]
    return Ability(AbilityCost(tap=True), Output(((mana,),)), text=f"{land_type}: {{T}}: Add {{{mana}}}.")
