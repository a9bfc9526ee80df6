"""What a payment is made from: the permanents (CR 110) with their mana abilities
(:mod:`manaplan.model.abilities`), the player (life, energy, pool, graveyard) and the
board they form, which holds thousands of permanents as their few distinct bodies
(:class:`PermanentsByBody`) and works out what the permanents' text does to each other
(land types, granted abilities, counted amounts).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import compress

from manaplan.model.abilities import DEVOTION, MAX_ADDED, Ability, AbilityCost, Output, check_bounded, short_repr
from manaplan.model.errors import RequestError
from manaplan.model.mana import SPEND_AS_ANY_COLOR, Mana, ManaCost
from manaplan.model.plan import POOL
from manaplan.model.symbols import COLORS

#: subtypes that are not creature types, which changeling doesn't give (CR 205.3)
NONCREATURE_SUBTYPES = frozenset(
    "Plains Island Swamp Mountain Forest Desert Gate Lair Locus Mine Power-Plant Tower Urza's Cave Sphere Town "
    "Equipment Vehicle Treasure Food Clue Blood Gold Fortification Aura Saga Shrine Curse Cartouche Rune Class "
    "Role Room Case Background".split())
#: why a doubling is not used on a board with triggered mana abilities: what triggers and
#: replacement effects would make of it is not modelled
DOUBLING_WITH_TRIGGERS = "doubling mana on a board with triggered mana abilities is not modelled: not used"
#: a color word before a card type ("green creature"), as its mana type
_COLOR_CODES = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


def split_type_line(type_line: str) -> tuple:
    """(supertypes and card types, subtypes) of a type line, each a list of words: the
    subtypes follow the dash (CR 205.1a).

    >>> split_type_line("Basic Snow Land — Forest")
    (['Basic', 'Snow', 'Land'], ['Forest'])
    """
    parts = re.split(r"\s+[—-]\s+", type_line or "", maxsplit=1)
    return parts[0].split(), parts[1].split() if len(parts) > 1 else []


#: what :attr:`Permanent.traits` may hold (each a question a board asks of its bodies once)
TRIGGERS, UNREAD, COST_EFFECTS, GIVES_HASTE = "triggers", "unread", "cost effects", "gives haste"
DEPENDS_ON_BOARD, NOT_SELF_CONTAINED, SPENDS_AS_ANY_COLOR = "depends on the board", "not self-contained", "any color"
DOUBLES, COUNTS, RESTRICTS = "doubles", "counts", "restricts"


@dataclass(frozen=True)
class Permanent:
    """A permanent that may pay: its id, its abilities, and its state.

    ``colors`` matters only for convoke (CR 702.51); ``creature`` for summoning
    sickness (CR 302.6) and convoke; ``artifact`` for improvise (CR 702.126).
    """

    def __repr__(self) -> str:
        """Its fields that are not their defaults, the keys it is grouped by left out."""
        return short_repr(self, skip=("key", "unnamed_key"))


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
    def traits(self) -> frozenset:
        """What a board looks for among its bodies (:data:`TRIGGERS` and the names beside
        it: triggers, unread text, cost effects, haste given, what depends on the board or
        on other permanents,
        spending as any color, doubling, counting, restricted mana), found once per body
        read (its twins, and the next request's same permanent, share it): a board asks
        :attr:`Board.traits` once instead of going over its bodies for each."""
        found = [name for name, there in (
            (TRIGGERS, self.triggers), (UNREAD, self.unread), (COST_EFFECTS, self.cost_effects),
            (GIVES_HASTE, self.gives_haste), (DEPENDS_ON_BOARD, self.depends_on_board),
            (NOT_SELF_CONTAINED, not self.self_contained), (SPENDS_AS_ANY_COLOR, SPEND_AS_ANY_COLOR in self.spending),
            (DOUBLES, any(a.output.doubles for a in self.abilities)), (COUNTS, any(a.output.per for a in self.abilities)),
            (RESTRICTS, any(a.restrict for a in self.abilities))) if there]
        return frozenset(found)

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
                 "changed_in_place", "in_order")

    def __init__(self, kinds: tuple, order: tuple, body_of: dict | None = None, names: list | None = None,
                 in_order: bool = False):
        self.kinds = kinds
        #: the maker knows the kinds are in the order of their first permanents (a board
        #: read by body, no kind split by names): what comes in order needs no sorting
        self.in_order = in_order
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
TEXT_ONLY_MEMO = ("traits", "restrictions", "unread")


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
    def traits(self) -> frozenset:
        """Every :attr:`Permanent.traits` of its bodies (found once per board)."""
        found = self.memo.get("traits")
        if found is None:
            found = self.memo["traits"] = frozenset().union(*[p.traits for p in self.bodies])
        return found

    @property
    def bodies(self) -> tuple:
        """The distinct bodies of ``kinds``: what is true of one is true of its twins
        (found once per board)."""
        found = self.memo.get("bodies")
        if found is None:
            found = self.memo["bodies"] = tuple([body for body, _ in self.kinds])
        return found

    @property
    def ids(self):
        """The ids of the permanents, a set (found once per board; on a board read by
        body, the set-like keys of its ids' bodies)."""
        if "ids" not in self.memo:  # (a board changed from a kept one: its ids not hashed again, 1 ms at 5,000)
            self.memo["ids"] = self.permanents.body_of.keys() if isinstance(self.permanents, PermanentsByBody) \
                else frozenset(p.id for p in self.permanents)
        return self.memo["ids"]

    def find(self, pid: str) -> "Permanent | None":
        """The permanent with id ``pid``, or None (a twin is made for it, not the whole
        board: see :class:`PermanentsByBody`)."""
        if not isinstance(self.permanents, PermanentsByBody):
            return self.by_id.get(pid)
        return self.permanents.member(pid)

    def body(self, pid: str) -> "Permanent | None":
        """What the permanent ``pid`` is, under any id and name (its body: no twin made),
        or None: for what does not name it."""
        if not isinstance(self.permanents, PermanentsByBody):
            return self.by_id.get(pid)
        return self.permanents.body_of.get(pid)

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
        return SPENDS_AS_ANY_COLOR in self.traits

    def any_color_spending_without(self, gone) -> bool:
        """Whether mana may still be spent as though it were mana of any color once the
        permanents whose ids are in ``gone`` have left the battlefield (sacrificed while
        paying): the effect ends with the last permanent that has it (CR 611.3a)."""
        return self.any_color_spending and any(
            SPEND_AS_ANY_COLOR in p.spending and p.id not in gone for p in self.permanents)

    @property
    def has_doubling(self) -> bool:
        """Whether an ability on the board doubles the pool (Doubling Cube); found once."""
        return DOUBLES in self.traits

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
            if UNREAD in self.traits or TRIGGERS in self.traits:  # (in the order given)
                unread = tuple((p.id, line, why) for p in self.permanents for line, why in p.unread)
            if TRIGGERS in self.traits:  # a doubling's amount under triggered mana: not modelled
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
        if COUNTS not in self.traits:
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


def flexibility(types, needs=None) -> int:
    """How much keeping a source untapped is worth (the objective's flexibility term: a
    source that makes more colors is tapped last): colors count double, colorless once;
    with ``needs`` (the colored symbols the rest of the hand asks for, by color), each
    such symbol of a color it makes adds 2 more: it keeps the colors the hand needs."""
    if not needs and type(types) is frozenset:  # (the usual: found once per set of types)
        found = _FLEXIBILITY.get(types)
        if found is None:
            if len(_FLEXIBILITY) >= 4096:
                _FLEXIBILITY.clear()
            found = _FLEXIBILITY[types] = 2 * len(_COLOR_SET.intersection(types)) + (1 if "C" in types else 0)
        return found
    colors = _COLOR_SET.intersection(types)
    extra = 2 * sum(needs.get(c, 0) for c in colors) if needs else 0
    return 2 * len(colors) + (1 if "C" in types else 0) + extra


#: flexibility by the set of types, without a hand's needs (sets of the six types: at most 64)
_FLEXIBILITY: dict = {}


_COLOR_SET = frozenset(COLORS)


_TAP_ONLY = AbilityCost(tap=True)
