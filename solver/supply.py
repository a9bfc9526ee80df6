"""What the board can do for one payment: groups of interchangeable permanents and the
abilities each group may use while this spell is being cast.

Identical permanents (same abilities and state) are grouped so the CP-SAT model has one
variable per group and ability, not per permanent: its size does not grow with the
number of Forests (measured: about 1.5 ms at 320 sources, against 30 ms for one
variable per source). Convoke, improvise and
delve are turned into abilities here too (CR 702.51, 702.126, 702.66): tapping a
creature for convoke uses the same tap as its mana abilities.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import chain

from manaplan.model.abilities import why_unusable
from manaplan.model.board import (DOUBLING_WITH_TRIGGERS, KEPT_WORK, NOT_SELF_CONTAINED, RESTRICTS, Board,
                                  PermanentsByBody, flexibility)
from manaplan.model.dependent_mana import acting
from manaplan.model.errors import RequestError
from manaplan.model.mana import Mana
from manaplan.model.oracle import EXILE_FROM_HAND, LOYALTY_ACTIVATION
from manaplan.model.plan import CONVOKE, DELVE, GRAVEYARD, IMPROVISE
from manaplan.model.problem import PaymentProblem
from manaplan.model.symbols import COLORS, MANA_TYPES
from manaplan.model.triggers import activation_outputs, board_triggers


@dataclass(frozen=True)
class GroupAbility:
    """One ability a group may activate during this payment.

    ``index`` is the ability's index on the permanent, or CONVOKE / IMPROVISE / DELVE.
    ``alternatives`` are the outputs to choose from (tuples of mana types), or, when
    ``combination`` > 0, that many mana of any ``combination_types``. ``mana`` is the
    template Mana (its snow flag and restrictions) for what it adds.
    """

    group: int
    index: object
    cost_symbols: tuple
    tap: bool
    sacrifice: bool
    counter_kind: str
    counters: int
    life: int
    alternatives: tuple
    combination: int
    combination_types: tuple
    mana: Mana
    cap: int
    exile: bool = False
    text: str = ""
    damage: int = 0
    #: life lost by a trigger of its tapping (City of Brass): after the spell is cast (CR 603.3)
    trigger_damage: int = 0
    movable: bool = False  # a free ability that may happen in any layer (after a tap)
    precast: bool = False  # not usable while casting: activated before (not a mana ability, instant-only)
    bonus: tuple = ()  # with triggers: for each alternative, the Extra mana its triggers add
    #: a counted amount (Gaea's Cradle, Nykthos): for each alternative, (the mana of one
    #: unit, ((group, units each of its permanents accounts for), ...)) over the groups
    #: that may be sacrificed first: each one sacrificed before an activation takes its
    #: units away (the count is made as the ability resolves)
    counted: tuple = ()
    #: the permanent whose ability makes the mana, when not the group's own (the altar of
    #: a "Sacrifice this" had through Ashnod's Altar): the mana's source in the plan
    made_by: str = ""
    made_by_ability: int | None = None
    #: the group of ``made_by`` when its ability taps it too (Springleaf Drum, Phyrexian
    #: Tower): each activation also uses one of that group's taps
    co_tap: int | None = None
    energy: int = 0  # energy paid per activation (the player's, shared by every ability)
    given_by: str = ""  # the permanent that gives the group this ability (Chromatic Lantern)
    #: with several candidate spells (solver.turn): the indices of those it may pay for
    #: (a restriction, convoke, improvise, delve); None: any
    for_spells: tuple | None = None
    #: it adds as much of each type of mana as the pool holds when it resolves (Doubling
    #: Cube, CR 701.9f): ``alternatives`` is empty, the model works its amount out
    doubles: bool = False

    @property
    def costs_mana(self) -> bool:
        return bool(self.cost_symbols)

    def in_group(self, g: int) -> "GroupAbility":
        """The same act for group number ``g`` (a group built on another board, at
        another place): its fields and what was worked out from them copied."""
        twin = object.__new__(GroupAbility)
        twin.__dict__.update(self.__dict__)
        twin.__dict__["group"] = g
        return twin

    @cached_property
    def plain_types(self) -> frozenset | None:
        """The types it may make where it makes one mana of one type for {T} alone,
        from a source that is not snow, without restriction and setting off no
        trigger (one unit of solver.hall's transport); None otherwise. Found once (a
        twin in another group copies it: :meth:`in_group`)."""
        plain = (self.tap and not self.costs_mana and not self.sacrifice and not self.counters and not self.life
                 and not self.damage and not self.trigger_damage and not self.precast and not self.exile
                 and not self.combination
                 and not self.bonus and not self.mana.snow and not self.mana.spell_only and not self.mana.ability_only
                 and not self.made_by and not self.energy  # another permanent's ability (Springleaf Drum), energy
                 and not self.doubles  # Doubling Cube: as much as the pool holds
                 and isinstance(self.index, int) and all(len(alt) == 1 for alt in self.alternatives))
        return frozenset(t for alt in self.alternatives for t in alt) if plain else None

    @cached_property
    def stands_alone(self) -> bool:
        """Whether nothing about it bears on the acts of other groups or theirs on it
        (:func:`_acts_together`): no converter's cap to set from the rest, no tap
        shared with another group, no count, no doubling, no life or damage to order.
        Found once (a twin in another group copies it: :meth:`in_group`)."""
        return _patchable(self) and not self.damage and not self.pays_life

    @cached_property
    def pays_life(self) -> bool:
        """Whether an activation may pay life: a life cost, or a Phyrexian symbol in its
        mana cost paid with life (CR 118.3, 107.4f)."""
        return bool(self.life) or any(o.life for s in self.cost_symbols for o in s.payment_options(0))

    @cached_property
    def output_types(self) -> frozenset:
        """Every type its activation adds, its triggers' mana included."""
        if self.doubles:
            return frozenset(MANA_TYPES)
        if self.combination:
            return frozenset(self.combination_types)
        return frozenset(t for a in self.alternatives for t in a) | frozenset(
            e.type for extra in self.bonus for e in extra)

    def extra(self, alternative: int) -> tuple:
        """The triggers' mana that comes with alternative number ``alternative``."""
        return self.bonus[alternative] if self.bonus else ()

    @cached_property
    def max_output(self) -> int:
        """The most mana one activation adds by itself (a doubling: see ``mana_bound``)."""
        if self.doubles:
            return 0
        if self.combination:
            return self.combination
        return max(len(a) + len(self.extra(i)) for i, a in enumerate(self.alternatives))


@dataclass(frozen=True)
class Group:
    """Interchangeable permanents (or the graveyard, for delve)."""

    ids: tuple
    tapped: bool
    can_tap: bool
    counters: tuple
    flexibility: int
    ordered: bool = False  # one permanent whose sacrifice must come after its other uses
    types: frozenset = frozenset()  # the types its abilities make (its flexibility's basis)
    #: its permanents' key (model.board.Permanent.key): what tells apart groups of one id
    #: (a card of the hand, and the permanent it becomes; a land card's ways to enter)
    key: str = field(default="", compare=False)

    @property
    def size(self) -> int:
        return len(self.ids)

    def with_ids(self, ids: tuple) -> "Group":
        """The same group of other, interchangeable permanents (twins on another board):
        its fields copied, as a kept board's change makes one per group it reuses, and
        each request's board one per group built before (``replace`` takes 2.4 µs, a
        call of ``__init__`` 1, this a third of that)."""
        twin = object.__new__(Group)
        twin.__dict__.update(self.__dict__)
        twin.__dict__["ids"] = ids
        return twin

    def with_flexibility(self, flexibility: int) -> "Group":
        """The same group, its flexibility weighed otherwise."""
        return replace(self, flexibility=flexibility)

    def counter(self, kind: str) -> int:
        return dict(self.counters).get(kind, 0)


@dataclass(frozen=True)
class Supply:
    groups: tuple
    acts: tuple
    pool: tuple           # Mana units floating before casting
    excluded: tuple       # (permanent id, ability index, why) not usable mid-cast
    mana_bound: int       # an upper bound on all mana that can ever be in the pool
    #: some ability pays life and some deals damage: the order of the two matters (CR
    #: 118.3), and the abilities that deal damage may wait for the ones that pay life
    life_order: bool = False
    #: what the solver's steps derive from this supply once (the counting proof's table)
    memo: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def doubles(self) -> bool:
        """Whether an ability of it doubles the pool (Doubling Cube); found once."""
        if "doubles" not in self.memo:
            self.memo["doubles"] = any(a.doubles for a in self.acts)
        return self.memo["doubles"]


def group_board(board: Board, convoke: bool = False, improvise: bool = False, apart: frozenset = frozenset()) -> tuple:
    """The board's permanents in groups of interchangeable ones, each ``(their body, the
    ids of all)`` (the body as read, under the id of any of them: the first's is given to
    it where a group is built, :func:`_group_built`), computed once per board and kept in ``board.memo``:
    every later question on the same board (another X, the general model after the
    plain one, a proof) reuses it. It looks at the board's distinct bodies
    (``Board.kinds``), and at single permanents only where one must stand alone.

    A permanent that can be sacrificed by one ability and use another (or convoke or
    improvise, when the spell has it) is kept on its own: the model then orders its
    activations, nothing after the sacrifice. Where its other abilities are all free {T}
    abilities (Treasure-like lands and creatures: tap for {G}, or sacrifice for any
    color), it is grouped with its twins: those taps happen first, in layer 0, and the
    group's tap and sacrifice budgets say the rest. What sets triggers off depends on the
    permanent's text, except for Auras' hosts, which are told apart by what is attached.
    """
    key = _groups_key(convoke, improvise, apart)
    if key in board.memo:
        return board.memo[key]
    patched = _groups_patched(board, key)
    if patched is not None:
        return patched
    kinds = board.kinds
    hosts = {p.attached_to for p, _ in kinds if p.triggers and p.attached_to}
    counting = counting_ids(board)
    singled = hosts | counting | apart  # ids whose permanents may differ from their twins here
    by_key: dict = {}
    one_by_one = False
    for body, ids in kinds:
        extra = (convoke and body.creature) or (improvise and body.artifact)
        sacrifices, more, doubles = body.sacrifices_for_mana
        alone = (sacrifices and (extra or more)
                 or body.taps_itself_and_another  # its tap is shared with acts of other groups
                 or doubles)  # a Doubling Cube: one activation per layer
        if not alone and not (singled and singled.intersection(ids)):
            by_key.setdefault((body.grouping_key(), None, ()), [body, []])[1].extend(ids)
            continue
        one_by_one = one_by_one or len(ids) > 1
        for pid in ids:
            attached = tuple(i for src, on in kinds if src.triggers and src.attached_to == pid for i in on) \
                if pid in hosts else ()
            apart_here = alone or pid in counting or pid in apart
            by_key.setdefault((body.grouping_key(), pid if apart_here else None, attached), [body, []])[1].append(pid)
    listed = [(body, tuple(ids)) for body, ids in by_key.values()]
    moved = False
    if isinstance(board.permanents, PermanentsByBody) and len(listed) > 1 and not (
            board.permanents.in_order and not one_by_one):
        # in the order the permanents are given, as if read one by one: a kept board whose
        # changes moved a permanent to a kind of its own groups as the same board sent whole,
        # and breaks ties alike (found by the fuzz run: a Forest tapped on a kept board).
        # (Kinds in the order of their first permanents, none split: groups are in order.)
        position = {pid: k for k, pid in enumerate(board.permanents.order)}
        places = [position[ids[0]] for _, ids in listed]
        if any(a > b for a, b in zip(places, places[1:])):
            listed.sort(key=lambda group: position[group[1][0]])
            moved = True
    groups = tuple(listed)
    board.memo[key] = groups
    if not one_by_one and not moved and len(groups) == len(kinds):  # each kind a group, in order: a change may patch them
        board.memo[_places_key(key)] = (by_key, singled)  # (each group's key, in order: read as a list)
    return groups


def _groups_key(convoke: bool, improvise: bool, apart: frozenset) -> tuple:
    """``Board.memo``'s key for :func:`group_board`'s groups."""
    return ("groups", convoke, improvise, apart)


def _groups_patched(board: Board, key: tuple) -> tuple | None:
    """:func:`group_board`'s groups of a board made from another by tapping or untapping
    permanents each of a kind of its own (``Board.after_state_change``), patched at
    those places where the other's groups were its kinds in order and each changed
    permanent stays a group of its own (no twin to join); None where that can't be said."""
    changed = board.memo.get("changed_from")
    if changed is None:
        return None
    before, places = changed
    old, found = before.memo.get(key), before.memo.get(_places_key(key))
    if old is None or found is None:
        return None
    keys, singled = found
    kinds = board.kinds
    keys, groups = list(keys), list(old)
    at = {k: place for place, k in enumerate(keys)}  # (keys are distinct: each group's place by its key)
    for place in places:
        body, ids = kinds[place]
        sacrifices, more, doubles = body.sacrifices_for_mana
        if sacrifices or body.taps_itself_and_another or doubles or singled and singled.intersection(ids):
            return None  # (a permanent that stands alone: the long way)
        new = (body.grouping_key(), None, ())
        if at.get(keys[place]) == place:
            del at[keys[place]]
        if new in at:
            return None  # (it joins a twin: the groups change shape)
        at[new], keys[place] = place, new
        groups[place] = (body, tuple(ids))
    result = tuple(groups)
    board.memo[key] = result
    board.memo[_places_key(key)] = (keys, singled)
    return result


def _places_key(groups_key: tuple) -> tuple:
    """``Board.memo``'s key for where each kind's group stands, beside :func:`group_board`'s
    ``groups_key``, kept where the groups are the kinds in order."""
    return ("group places",) + groups_key


def counting_ids(board: Board) -> frozenset:
    """The permanents with an ability that counts the board (Gaea's Cradle, Nykthos):
    each is a group of its own, so what it adds can follow the sacrifices made before
    each of its activations."""
    source = board.counted_from
    if source is None:
        return frozenset()
    return frozenset(pid for p, ids in source.kinds if any(a.output.per for a in p.abilities) for pid in ids)


def _outcomes(board: Board, triggers: tuple, proto, index: int, ability):
    """``activation_outputs`` of one ability of a group's first permanent, kept with the
    board: the triggers' outcomes depend on the board alone. Kept by the permanent's id
    and key: the faces of a card, and a card and the permanent it becomes, share an id
    (a face's outcomes were once taken for the other's)."""
    key = ("outcomes", proto.id, proto.key, index)
    if key not in board.memo:
        board.memo[key] = activation_outputs(triggers, proto, ability)
    return board.memo[key]


def _with_counted_losses(board: Board, groups: list, acts: list) -> list:
    """Each counted ability's losses (``GroupAbility.counted``): the groups that can be
    sacrificed while paying and what each of their permanents adds to its count. Either
    may wait for the other (``movable``): a group's free sacrifice for the count, or the
    count for the sacrifice (a plan may make less mana that way, and float less)."""
    source = board.counted_from
    if source is None:
        return acts
    originals: dict = {}
    for p in source.permanents:
        originals.setdefault(p.id, []).append(p)
    members = {g: _original(originals[grp.ids[0]], grp) for g, grp in enumerate(groups) if grp.ids[0] in originals}
    sacrificing = {a.group for a in acts if a.sacrifice and a.index not in (CONVOKE, IMPROVISE, DELVE)}
    out: list[GroupAbility] = []
    waits: set[int] = set()
    for a in acts:
        proto = members.get(a.group)
        original = proto.abilities[a.index] if proto is not None and isinstance(a.index, int) else None
        if original is None or not original.output.per:
            out.append(a)
            continue
        per = original.output.per
        counted: list[tuple] = []
        for alt in a.alternatives:
            if not alt:  # a color of devotion 0: nothing to lose
                counted.append(((), ()))
                continue
            unit = _unit(source, proto, original, alt)
            losses = tuple((g, w) for g in sorted(sacrificing) if g != a.group
                           for w in [source.counted_loss(members[g], per, unit)] if w)
            counted.append((unit, losses))
            waits.update(g for g, _ in losses)
        out.append(replace(a, counted=tuple(counted)) if any(losses for _, losses in counted) else a)
    return [replace(a, movable=True) if not a.costs_mana and (a.counted or a.group in waits and a.sacrifice) else a
            for a in out]


def _original(permanents: list, group: Group):
    """The permanent as given of a group, among those of its id: one, or the one whose
    key is the longest the group's starts with (a card of the hand and the permanent it
    becomes share their id, as do the two faces of a card, ``cast|id`` and ``cast|id|1``;
    counting adds to the key, model.board.Board.resolve_amounts)."""
    if len(permanents) == 1:
        return permanents[0]
    keyed = [p for p in permanents if p.key and group.key.startswith(p.key)]
    return max(keyed, key=lambda p: len(p.key)) if keyed else permanents[0]


def _unit(source: Board, proto, original, alt: tuple) -> tuple:
    """The mana one counted unit of ``alt`` stands for (an output of the counted
    ability ``original``, replacement effects included): ``alt`` divided by the count it
    was made with; ``alt`` itself where that doesn't divide (each loss then takes all of
    it: never too much mana)."""
    gone = {proto.id} if original.cost.sacrifice else set()
    n = sum(source.counted_loss(q, original.output.per, alt[:1]) for q in source.permanents if q.id not in gone)
    counts = Counter(alt)
    if n <= 0 or any(c % n for c in counts.values()):
        return alt
    return tuple(t for t, c in sorted(counts.items()) for _ in range(c // n))


#: what :func:`_group_acts` built for a group, and the group, by what they depend on (its
#: permanents' key, their number, the payment's context), kept across boards: a kept
#: board's next change, or the next request's board, rebuilds only the groups that changed
GROUPS_KEPT = 16_384
_GROUPS_BUILT: OrderedDict = OrderedDict()


def _keep_group(key: tuple, built: tuple) -> None:
    _GROUPS_BUILT[key] = built
    _GROUPS_BUILT.move_to_end(key)
    if len(_GROUPS_BUILT) > GROUPS_KEPT:
        _GROUPS_BUILT.popitem(last=False)


def _alike_everywhere(board: Board, triggers: tuple, candidates) -> bool:
    """Whether each group's abilities depend only on its own permanents as read (their
    ``key``) and the payment's context, so that what was built for them on one board
    serves another: nothing on the board gives, replaces, counts, triggers, restricts,
    doubles or is had through another permanent, and no spell convokes or improvises."""
    if triggers or board.counted_from is not None or any(s.convoke or s.improvise for s in candidates):
        return False
    return NOT_SELF_CONTAINED not in board.traits


def _group_acts(problem: PaymentProblem, board: Board, triggers: tuple, candidates, allow_precast: bool, proto,
                ids: tuple, g: int, which) -> tuple:
    """What one group (interchangeable permanents: ``proto``, the first, and the ``ids``
    of all; group number ``g``) may activate: (its acts, (ability index, why unusable)
    for each one it can't, its Group)."""
    life = problem.player.life
    prefer = problem.prefer
    doubling = board.has_doubling  # Doubling Cube
    group_acts, reasons = [], []
    for i, ab in enumerate(proto.abilities):
        why = why_unusable(proto, ab, life, allow_precast)
        if not why and ab.cost.sacrifice and proto.id in prefer.never_sacrifice:
            why = "never sacrificed (prefer)"
        if not why and ab.cost.energy > problem.player.energy:
            why = "not enough energy"
        if not why and ab.output.doubles and triggers:
            why = DOUBLING_WITH_TRIGGERS  # listed as unread by the board: a "no" says so
        if why:
            reasons.append((i, why))
            continue
        # asked with priority (not mid_cast): what can't be used while casting is activated
        # before, and counted so (the hint of a mid_cast answer only looks for them)
        precast = not problem.mid_cast and not ab.usable_mid_cast  # why_unusable's PRECAST_ONLY reasons
        spending = _spending(ab, which, len(candidates), doubling)
        if spending is None:
            continue  # its mana could pay nothing here
        spell_only, ability_only, for_spells = spending
        caps = _caps(ab.cost, proto, len(ids), life, problem.player.energy)
        alternatives, combination, bonus = ab.output.alternatives, ab.output.combination, ()
        host, host_ability, snow = acting(board, proto, ab)
        through = bool(ab.through)  # the ability of an altar that sacrifices it
        host_index = ab.through[1] if through else i
        outcomes = _outcomes(board, triggers, host, host_index, host_ability) if triggers else None
        if outcomes is not None:  # CR 605.4a: its triggers' mana comes with it
            alternatives, combination = tuple(own for own, _ in outcomes), 0
            bonus = tuple(extra for _, extra in outcomes)
        group_acts.append(GroupAbility(g, i, ab.cost.mana.symbols, ab.cost.tap, ab.cost.sacrifice,
                              ab.cost.counter_kind, ab.cost.counters, ab.cost.life, alternatives,
                              combination, ab.output.combination_types,
                              Mana("C", snow, spell_only, ability_only=ability_only), min(caps) if caps else -1,
                              text=ab.text if ab.text == EXILE_FROM_HAND or ab.cost.counter_kind == LOYALTY_ACTIVATION
                              else str(host_ability.cost),
                              damage=ab.damage, trigger_damage=ab.trigger_damage, bonus=bonus,
                              for_spells=for_spells, precast=precast,
                              energy=ab.cost.energy, made_by=host.id if through else "",
                              given_by=ab.given_by,
                              made_by_ability=host_index if through else None, doubles=ab.output.doubles))
    if not proto.tapped and proto.creature and any(s.convoke for s in candidates):
        colors = tuple(c for c in COLORS if c in proto.colors)
        alts = tuple((c,) for c in colors) or (("C",),)
        group_acts.append(GroupAbility(g, CONVOKE, (), True, False, "", 0, 0, alts, 0, (),
                              Mana("C", False, True, not colors, keyword=True), len(ids), text=CONVOKE,
                              for_spells=which(lambda s: s.convoke)))
    if not proto.tapped and proto.artifact and any(s.improvise for s in candidates):
        group_acts.append(GroupAbility(g, IMPROVISE, (), True, False, "", 0, 0, (("C",),), 0, (),
                              Mana("C", False, True, True, keyword=True), len(ids), text=IMPROVISE,
                              for_spells=which(lambda s: s.improvise)))
    types: frozenset = frozenset()
    for a in group_acts:
        if a.index not in (CONVOKE, IMPROVISE) and not a.doubles:  # a doubling makes no color of its own
            types |= a.output_types
    ordered = len(ids) == 1 and any(a.sacrifice for a in group_acts) and len(group_acts) > 1
    if ordered:
        group_acts = [replace(a, movable=not a.costs_mana) for a in group_acts]
    group = Group(ids, proto.tapped, proto.can_tap, proto.counters, flexibility(types),
                  ordered, types, proto.key)
    return tuple(group_acts), tuple(reasons), group


def _spending(ab, which, candidates: int, doubling: bool):
    """(spell only, ability only, the candidates it may pay for) of an ability's mana
    under its restriction (CR 106.6), or None where its mana could pay nothing here: a
    restriction the spell meets is none; Powerstone's mana, for a nonartifact spell,
    pays abilities only; mana that pays nothing may still be doubled (Doubling Cube)."""
    if not ab.restrict:
        return False, False, None
    for_spells = which(lambda s: s.allows(ab.restrict))
    if not ab.restrict_abilities and for_spells == () and candidates == 1:
        return False, True, None  # Powerstone, a nonartifact spell: abilities only
    if not ab.restrict_abilities and for_spells is None:
        return False, False, None  # it may pay this spell and any ability: no restriction here
    if for_spells == () and candidates == 1 and doubling:
        return True, True, None  # it pays nothing, but is doubled
    if for_spells == ():
        return None
    return True, False, for_spells


def _caps(cost, proto, size: int, life: int, energy: int) -> list:
    """The most activations a group's costs allow: a tap or a sacrifice each permanent
    once, its counters, the life total (CR 118.3), the player's energy."""
    caps = []
    if cost.tap or cost.sacrifice:
        caps.append(size)
    if cost.counters:
        caps.append(size * (proto.counter(cost.counter_kind) // cost.counters))
    if cost.life:
        caps.append(size * (life // cost.life))
    if cost.energy:
        caps.append(energy // cost.energy)
    return caps


def build_supply(problem: PaymentProblem, allow_precast: bool = False, grouping: tuple | None = None,
                 spells: tuple | None = None) -> Supply:
    """The groups of the board and the abilities each may use while this spell is being
    cast (CR 605.3, 601.2g, 302.6), with convoke, improvise and delve (702.51, 702.126,
    702.66) as abilities of their own. With ``spells`` (candidates for one payment, of
    which the model picks one), an ability some of them can't use says which can
    (``GroupAbility.for_spells``)."""
    allow_precast = allow_precast or not problem.mid_cast
    if spells is not None:
        return _build_supply(problem, allow_precast, grouping, spells)
    key = supply_key(problem, allow_precast, grouping)
    return kept_with_supplies(problem.board, key, lambda: _supply_patched(problem, key, allow_precast, grouping)
                              or _build_supply(problem, allow_precast, grouping, (problem.spell,)))


def kept_with_supplies(board: Board, key: tuple, make):
    """What ``make()`` gives, kept with the board's supplies under ``key`` (what depends
    on the question besides the board: :func:`supply_key`), the least recently used
    dropped past :data:`SUPPLIES_KEPT`."""
    kept = board.memo.setdefault("supplies", OrderedDict())
    if key in kept:
        kept.move_to_end(key)
        return kept[key]
    found = kept[key] = make()
    if len(kept) > SUPPLIES_KEPT:
        kept.popitem(last=False)
    return found


def weighed_by_hand(supply: Supply, needs: dict) -> Supply:
    """The supply with each group's flexibility weighed by the colors the rest of the
    hand needs (kept with the supply: each card of a hand has its own rest). Only the
    general model's flexibility term reads it: the plain path weighs its few kinds of
    source itself, so a hand's cards on a plain board never build it."""
    if not needs:
        return supply
    key = ("weighed", tuple(sorted(needs.items())))
    if key not in supply.memo:
        groups = tuple(g if not g.types & needs.keys() else g.with_flexibility(flexibility(g.types, needs))
                       for g in supply.groups)
        # what the steps derive from a supply (the plain sources, the proof's table) does not
        # depend on flexibility: the two share it (``replace`` keeps the memo)
        supply.memo[key] = replace(supply, groups=groups)
    return supply.memo[key]


def without_flexibility(supply: Supply, gone: frozenset) -> Supply:
    """The supply with no flexibility for the groups of permanents in ``gone`` (they leave
    as the spell is cast: model.problem.Preference.gone)."""
    if not gone:
        return supply
    return replace(supply, groups=tuple(g.with_flexibility(0) if set(g.ids) <= gone else g for g in supply.groups))


#: supplies kept with a board, the least recently used dropped first (a kept board asked
#: with many life totals would otherwise grow without end)
SUPPLIES_KEPT = 16


def doubling_factor(acts) -> int:
    """How many times all the mana there is can be doubled (Doubling Cube, once per
    activation): the factor of the mana bound."""
    return 2 ** sum(a.cap for a in acts if a.doubles)


def _with_co_taps(board: Board, groups: list, acts: list) -> list:
    """Acts had through another permanent whose ability taps that permanent too: the
    group of that permanent (kept alone by group_board) shares its taps with them."""
    if not any(a.made_by for a in acts):
        return acts
    group_of = {pid: g for g, grp in enumerate(groups) for pid in grp.ids}
    by_id = {p.id: p for p in board.permanents}
    out = []
    for a in acts:
        if a.made_by and by_id[a.made_by].abilities[a.made_by_ability].cost.tap:
            if by_id[a.made_by].tapped:
                continue  # its permanent is tapped: its {T} can't be paid (CR 107.5)
            a = replace(a, co_tap=group_of[a.made_by])
        out.append(a)
    return out


def supply_key(problem: PaymentProblem, allow_precast: bool, grouping) -> tuple:
    """What a supply depends on besides the board: one supply serves every spell that
    agrees on it (the cards of a hand, each X of max_x). ``mid_cast`` decides which
    abilities are marked as activated before casting."""
    spell = problem.spell
    restrictions = board_restrictions(problem.board)
    delve = min(problem.player.graveyard, spell.cost.most_generic) if spell.delve else 0
    return ("supply", allow_precast, problem.mid_cast, grouping or (spell.convoke, spell.improvise), spell.convoke,
            spell.improvise,
            delve, tuple(_allows(spell, r) for r in restrictions), problem.player.life, problem.player.pool,
            problem.prefer.never_sacrifice, problem.prefer.keep_untapped, problem.player.energy)


def _allows(spell, restrict: str):
    """Whether the spell may be paid with mana so restricted; None where that can't be
    told (the supply is then built, and says so if it matters)."""
    try:
        return spell.allows(restrict)
    except RequestError:
        return None


def board_restrictions(board: Board) -> tuple:
    """Every spending restriction on the board's abilities (read once per board)."""
    if "restrictions" not in board.memo:
        board.memo["restrictions"] = () if RESTRICTS not in board.traits else tuple(sorted(
            {a.restrict for p in board.bodies for a in p.abilities if a.restrict}))
    return board.memo["restrictions"]


def _build_supply(problem: PaymentProblem, allow_precast: bool, grouping, candidates) -> Supply:
    spell = problem.spell
    life = problem.player.life
    board = problem.board
    triggers = board_triggers(board)
    groups: list[Group] = []
    acts: list[GroupAbility] = []
    excluded: list[tuple] = []
    convoke, improvise = grouping if grouping is not None else (spell.convoke, spell.improvise)
    which = _passing(candidates)
    prefer = problem.prefer
    alike = _alike_everywhere(board, triggers, candidates)
    kept = _kept_work(board) if alike else None
    acts_of, excluded_of = [], []  # (each group's: what a change may patch, _supply_patched)
    for proto, ids in group_board(board, convoke, improvise, prefer.keep_untapped | prefer.never_sacrifice):
        g = len(groups)
        group_acts, reasons, group = _group_built(problem, board, triggers, candidates, allow_precast, proto, ids,
                                                  g, which, alike, kept)
        out = _excluded(reasons, ids) if reasons else ()
        excluded.extend(out)
        groups.append(group)
        acts.extend(group_acts)
        acts_of.append(group_acts)
        excluded_of.append(out)
    # cards beyond the most generic mana the total can ask for are never exiled: the work
    # does not grow with the graveyard (CR 702.66)
    delving = [s for s in candidates if s.delve]
    n = min(problem.player.graveyard, max(s.cost.most_generic for s in delving)) if delving else 0
    if n:
        g = len(groups)
        groups.append(Group(tuple(f"{GRAVEYARD}:{k + 1}" for k in range(n)), False, False, (), 0))
        acts.append(GroupAbility(g, DELVE, (), False, False, "", 0, 0, (("C",),), 0, (),
                        Mana("C", False, True, True, keyword=True), n, exile=True, text="exile a card from your graveyard",
                        for_spells=which(lambda s: s.delve)))
    alone, mana_bound = board.counted_from is None, len(problem.player.pool)
    for a in acts if alone else ():
        if not a.stands_alone:
            alone = False
            break
        mana_bound += a.cap * a.max_output
    if alone:
        final, life_order = acts, False  # (the usual board: each act as built, see GroupAbility.stands_alone)
    else:
        final, mana_bound, life_order = _acts_together(problem, board, groups, acts)
    supply = Supply(tuple(groups), tuple(final), problem.player.pool, tuple(excluded), mana_bound,
                    life_order=life_order)
    if alike and not triggers and not n and (alone or not life_order and len(final) == len(acts) and all(
            a is b and _patchable(a) for a, b in zip(final, acts))):
        supply.memo[BY_GROUP] = (acts_of, excluded_of, _life_counts(acts))
    return supply


def _acts_together(problem: PaymentProblem, board: Board, groups: list, acts: list) -> tuple:
    """(the acts, the mana bound, whether life is paid before damage is taken) once what
    bears on acts of other groups is applied: converters capped by the mana of the rest,
    taps shared with another group, counted losses, damage waiting for life paid (CR
    118.3), free abilities waiting for a doubling."""
    final = _converters_capped(acts, len(problem.player.pool))
    final = _with_co_taps(board, groups, final)
    final = _with_counted_losses(board, groups, final)
    mana_bound = (sum(a.cap * a.max_output for a in final) + len(problem.player.pool)) * doubling_factor(final)
    life_order = any(a.pays_life for a in final) and any(a.damage for a in final)
    if life_order:  # pay the life first, take the damage after (CR 118.3): a free ability
        final = [replace(a, movable=True) if a.damage and not a.costs_mana else a for a in final]  # may wait
    if any(a.doubles for a in final):  # a free ability may wait for a doubling (its mana then isn't doubled)
        final = [replace(a, movable=True) if not a.costs_mana and not a.movable else a for a in final]
    return final, mana_bound, life_order


def _converters_capped(acts: list, pooled: int) -> list:
    """The acts with each converter's cap (-1: only a mana cost, and it adds no more than
    it costs, check_bounded) set to all the mana the rest can make. Its output may pay for
    it again (pay {2}, add {C}{C}, then pay one of those and a fresh mana), so each
    activation need not use up mana; but a useful chain passes each mana made elsewhere
    through it at most once (a loop through it could have chosen its last output at
    once), so it is activated at most once per such mana."""
    if all(a.cap >= 0 for a in acts):
        return acts
    bounded = (sum(a.cap * a.max_output for a in acts if a.cap >= 0) + pooled) * doubling_factor(acts)
    return [replace(a, cap=bounded) if a.cap < 0 else a for a in acts]


#: ``Supply.memo``'s key for each group's acts and exclusions, and how many acts pay life
#: and deal damage, where a change on a kept board may patch them (:func:`_supply_patched`)
BY_GROUP = "by group"


def _passing(candidates: tuple):
    """``which(test)``: the candidates that pass ``test``, None when all do, () when none does."""
    def which(test) -> tuple | None:
        ok = tuple(i for i, s in enumerate(candidates) if test(s))
        return None if len(ok) == len(candidates) else ok
    return which


def _excluded(reasons: tuple, ids: tuple) -> tuple:
    """(permanent id, ability index, why) for each ability a group can't use, each of its permanents."""
    return tuple((pid, i, why) for i, why in reasons for pid in ids)


def _patchable(a: GroupAbility) -> bool:
    """An act the board's other permanents don't bear on once built (no converter whose
    cap counts all the mana, no tap shared with another group, no counted amount, no
    doubling): a supply of such acts is patched group by group."""
    return a.cap >= 0 and a.co_tap is None and not a.counted and not a.doubles and not a.made_by


def _life_counts(acts) -> tuple:
    return sum(1 for a in acts if a.pays_life), sum(1 for a in acts if a.damage)


def _kept_work(board: Board) -> dict | None:
    """What a kept board keeps of the groups built for it (model.board.KEPT_WORK), or
    None on another board; emptied once its changes left too much behind (built again
    as needed)."""
    kept = board.memo.get(KEPT_WORK)
    if kept is not None and len(kept) > 4 * len(board.kinds) + 64:
        kept.clear()
    return kept


def groups_as_built(problem: PaymentProblem) -> tuple | None:
    """``((ids, acts, reasons), ...)``: each group of the board with what was built for
    its permanents as :func:`build_supply` builds it (:func:`_built_for`: the acts at
    whatever place on a board they were built for, the abilities it can't use and why),
    where each group's acts depend on its own permanents alone (the board
    ``_alike_everywhere``: nothing gives, counts, triggers, restricts, doubles; the spell
    does not convoke, improvise or delve, and uses abilities usable while casting as
    ``mid_cast`` says); None otherwise. What a payment that needs no Supply reads
    (solver.hall.plain_lane_board)."""
    spell, board = problem.spell, problem.board
    candidates = (spell,)
    if spell.convoke or spell.improvise or spell.delve or board_triggers(board) or not _alike_everywhere(
            board, (), candidates):
        return None
    allow_precast, which, kept = not problem.mid_cast, _passing(candidates), _kept_work(board)
    apart = problem.prefer.keep_untapped | problem.prefer.never_sacrifice
    return tuple((ids, *_built_for(problem, board, (), candidates, allow_precast, proto, ids, g, which, True,
                                   kept)[0][:2])
                 for g, (proto, ids) in enumerate(group_board(board, False, False, apart)))


def _group_built(problem: PaymentProblem, board: Board, triggers: tuple, candidates, allow_precast: bool, proto,
                 ids: tuple, g: int, which, alike: bool, kept: dict | None) -> tuple:
    """:func:`_built_for` the group ``g``, moved to its place and ids."""
    built, shared = _built_for(problem, board, triggers, candidates, allow_precast, proto, ids, g, which, alike, kept)
    if built[0] and built[0][0].group != g:  # built at another place on its board
        built = (_moved_acts(shared, built[0], g), built[1], built[2])
    if built[2].ids != ids:  # twins of the permanents it was built for
        built = (built[0], built[1], built[2].with_ids(ids))
    return built


def _built_for(problem: PaymentProblem, board: Board, triggers: tuple, candidates, allow_precast: bool, proto,
               ids: tuple, g: int, which, alike: bool, kept: dict | None) -> tuple:
    """(:func:`_group_acts` for the group ``g``, or what was built for its permanents
    before, on this kept board (``kept``) or on any board (``_GROUPS_BUILT``), where
    nothing else bears on it (``alike``): at the place and for the ids it was built for;
    what it is kept under, or "")."""
    text_key = proto.text_key if alike else ""
    shared = text_key and (text_key, len(ids), problem.player.life, allow_precast, problem.mid_cast,
                           problem.player.energy, ids[0] in problem.prefer.never_sacrifice)
    built = None
    if shared:
        built = kept.get(shared) if kept is not None else None
        if built is None:
            built = _GROUPS_BUILT.get(shared)
            if built is not None and kept is not None:
                kept[shared] = built
    if built is None:
        if proto.id != ids[0]:  # (the body under its first permanent's id: what the group's words name)
            proto = proto.with_id(ids[0])
        built = _group_acts(problem, board, triggers, candidates, allow_precast, proto, ids, g, which)
        if shared:
            _keep_group(shared, built)
            if kept is not None:
                kept[shared] = built
    return built, shared


def _moved_acts(shared, acts: tuple, g: int) -> tuple:
    """The acts built for a group (by what they depend on, ``shared``), as group number
    ``g``'s: moved once per place (:data:`_ACTS_MOVED`), then shared by every board that
    has the group there (each a copy of the built act, GroupAbility.in_group)."""
    key = (shared, g)
    moved = _ACTS_MOVED.get(key)
    if moved is None or moved[0] is not acts:  # (not yet, or moved from acts built again since)
        if len(_ACTS_MOVED) >= GROUPS_KEPT:
            _ACTS_MOVED.clear()
        moved = _ACTS_MOVED[key] = (acts, tuple(a.in_group(g) for a in acts))
    return moved[1]


#: the acts of ``_GROUPS_BUILT`` moved to another place on a board, by (what they depend
#: on, the place): a board of ten kinds of land moved about ten groups per request
_ACTS_MOVED: dict = {}


def _supply_patched(problem: PaymentProblem, key: tuple, allow_precast: bool, grouping) -> Supply | None:
    """The supply of a board made from another by tapping or untapping permanents each
    of a kind of its own (``Board.after_state_change``), patched from the other's supply
    for the same question where each group's acts depend on its permanents alone
    (:data:`BY_GROUP`): only the changed groups are built (a change on a kept
    board of 5,000 distinct permanents rebuilt every group). None where it can't be."""
    board = problem.board
    changed = board.memo.get("changed_from")
    if changed is None or problem.spell.convoke or problem.spell.improvise:
        return None
    before, places = changed
    old = before.memo.get("supplies", {}).get(key)
    if old is None or BY_GROUP not in old.memo:
        return None
    spell = problem.spell
    convoke, improvise = grouping if grouping is not None else (spell.convoke, spell.improvise)
    prefer = problem.prefer
    apart = prefer.keep_untapped | prefer.never_sacrifice
    groups_now = group_board(board, convoke, improvise, apart)
    places_key = _places_key(_groups_key(convoke, improvise, apart))
    if len(groups_now) != len(old.groups) or places_key not in board.memo or places_key not in before.memo:
        return None  # (a group is not the kind at its place, on one board or the other)
    acts_of, excluded_of, (paying, damaging) = old.memo[BY_GROUP]
    acts_of, excluded_of, groups = list(acts_of), list(excluded_of), list(old.groups)
    bound = old.mana_bound - len(problem.player.pool)
    kept = board.memo.get(KEPT_WORK)
    candidates = (spell,)
    which = _passing(candidates)
    for g in places:
        proto, ids = groups_now[g]
        if old.groups[g].ids != ids:
            return None
        group_acts, reasons, group = _group_built(problem, board, (), candidates, allow_precast, proto, ids, g, which,
                                                  True, kept)
        if not all(_patchable(a) for a in group_acts):
            return None
        was, now = _life_counts(acts_of[g]), _life_counts(group_acts)
        paying, damaging = paying - was[0] + now[0], damaging - was[1] + now[1]
        bound += sum(a.cap * a.max_output for a in group_acts) - sum(a.cap * a.max_output for a in acts_of[g])
        acts_of[g], groups[g] = group_acts, group
        excluded_of[g] = _excluded(reasons, ids)
    if paying and damaging:
        return None  # (the order of life and damage now matters: the long way)
    supply = Supply(tuple(groups), tuple(chain.from_iterable(acts_of)), problem.player.pool,
                    tuple(chain.from_iterable(excluded_of)), bound + len(problem.player.pool))
    supply.memo[BY_GROUP] = (acts_of, excluded_of, (paying, damaging))
    supply.memo["patched_from"] = (old, places)
    return supply
