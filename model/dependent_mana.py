"""Mana that depends on the rest of the board, resolved on each board into the fixed
abilities the solver knows.

Some card text makes mana according to other permanents: the types another permanent
"could produce" (Reflecting Pool, Incubation Druid: CR 106.7), the colors among
permanents (Bloom Tender, Mox Amber), the commander's color identity (Command Tower,
Arcane Signet: CR 903.4), a condition on what the player controls (Urza's Tower's
"instead", Mox Opal's metalcraft), abilities one permanent gives others ("Lands you
control have ..." : Chromatic Lantern, Cryptolith Rite), and costs that sacrifice another
permanent (Ashnod's Altar's "Sacrifice a creature: Add {C}{C}.": each creature then has
that ability as a "Sacrifice this" of its own, whose mana the altar makes). The reader
(:mod:`manaplan.model.oracle`) writes each as a spec in ``Ability.depends`` or
``Permanent.grants``; :func:`resolve_board_mana` turns them into plain outputs on one
board, before anything else sees it.

A permanent that may be sacrificed while paying (a Treasure) may be gone before such an
ability is activated, so it is not counted: an ability never adds more than it would at
the table. Where counting it would have changed the amount, the ability's permanent
lists that in ``unread``, so that a "no" on this board is not called certain.

>>> from manaplan.model.oracle import read_card_text
>>> from manaplan.model.board import Board, Permanent, Player
>>> pool = read_card_text("Land", "{T}: Add one mana of any type that a land you control could produce.")
>>> board = Board((Permanent("rp", abilities=pool.abilities, type_line="Land"),
...                Permanent("f", abilities=read_card_text("Basic Land — Forest", "").abilities,
...                          type_line="Basic Land — Forest")))
>>> resolve_board_mana(board, Player()).permanents[0].abilities[0].output.alternatives
(('G',),)
"""

from __future__ import annotations

from dataclasses import replace

from manaplan.model.abilities import AbilityCost, Output
from manaplan.model.board import DEPENDS_ON_BOARD, Board, PermanentsByBody, Player, split_type_line
from manaplan.model.errors import RequestError
from manaplan.model.land_types import apply_land_types
from manaplan.model.symbols import COLORS, MANA_TYPES

#: the kinds of ``Ability.depends``
COULD_PRODUCE = "could_produce"  # (COULD_PRODUCE, n): n mana of one type a land you control could produce
COMMANDER = "commander_identity"  # (COMMANDER,): one mana of a color of the commander's identity
COLORS_AMONG = "colors_among"  # (COLORS_AMONG, which, each): colors among permanents of a kind
IF_CONTROL = "if_control"  # (IF_CONTROL, (subtypes, ...), mana): this mana instead if all are there
IF_COUNT = "if_count"  # (IF_COUNT, kind, n): usable only with n or more permanents of a kind
IF_ANY = "if_any"  # (IF_ANY, (kind, ...)): usable only with a permanent of one of the kinds (a Verge)
OPPONENT_LAND_COLORS = "opponent_land_colors"  # one mana of a color a land an opponent controls could produce
ON_BATTLEFIELD = "on_battlefield"  # (ON_BATTLEFIELD, kind, mana): mana for each kind on the battlefield, all players'

#: the mana replacement effect of Damping Sphere on lands (``Permanent.replaces``)
LANDS_MAKE_ONE_COLORLESS = "lands_make_one_colorless"

#: an ability that adds nothing (its condition does not hold): it keeps its index
NOTHING = Output(((),))


def resolve_board_mana(board: Board, player: Player, opponents: tuple | PermanentsByBody | None = None) -> Board:
    """The board with every ability that depends on the board resolved (and granted
    abilities given); the same board when there is none. ``opponents``: the permanents
    the opponents control, or None when the request does not give them.

    In short steps: the permanents as given (a board built from resolved permanents, as
    a sequence builds them, is resolved anew); the abilities others give them (granted,
    or through an altar); then what depends on that board, counted without the
    permanents that may be sacrificed while paying."""
    memo = board.memo
    if memo.get("board_mana_done") or board.counted_from is not None and board.counted_from.memo.get(
            "board_mana_done"):  # resolved already (its counted amounts too: Board.resolve_amounts)
        return board
    if DEPENDS_ON_BOARD not in board.traits and not any(p.land_types for p in opponents or ()):
        return board
    key = ("dependent_mana", player.commander_identity, opponents)
    if key in memo:
        return memo[key]
    as_given = Board(tuple(_as_given(p) for p in board.permanents))
    given = apply_land_types(as_given, opponents)  # layer 4 first (CR 613.1d): model.land_types
    altars = _altars(given)
    victims = {q.id for q in given.permanents for altar, j, kind in altars
               if altar.abilities[j].cost.sacrifice_other and q.is_a(kind) and not q.triggers}
    may_go = {p.id for p in given.permanents if any(a.cost.sacrifice for a in p.abilities)} | victims
    grants = [(g, which, ability) for g in given.permanents for which, ability in g.grants]
    granted = Board(tuple(_with_given_abilities(p, given, grants, altars, may_go) for p in given.permanents))
    granted = _with_replacements(granted, may_go)
    their = _with_grants_among(opponents) if opponents is not None else None
    stable = [q for q in granted.permanents if q.id not in may_go]
    out = [_resolved(p, granted, stable, may_go, player, their) for p in granted.permanents]
    resolved_board = Board(tuple(out))
    resolved_board.memo["board_mana_done"] = True
    resolved_board.memo["given"] = as_given
    memo[key] = resolved_board
    return resolved_board


#: the notes a resolution adds to a permanent's unread lines (dropped when it is resolved anew)
NEEDS_COMMANDER = "needs the player's 'commander_identity' (the colors of the commander's color identity)"
NEEDS_OPPONENTS = "needs the permanents the opponents control ('opponents' in the request)"
MAY_MAKE_MORE = ("counted without the permanents that may be sacrificed while paying (they may be gone by then): it "
                 "may make more")
GIVER_MAY_GO = "given by a permanent that may be sacrificed while paying: not used"
VICTIM_TRIGGERS = ("a permanent it could sacrifice has triggered mana abilities, which stop when it leaves (CR "
                   "603.10): not sacrificed here")
ALTAR_MAY_GO = "it may be sacrificed while paying, so it sacrifices only itself here: it may make more"
RESOLUTION_NOTES = frozenset({NEEDS_COMMANDER, NEEDS_OPPONENTS, MAY_MAKE_MORE, GIVER_MAY_GO, VICTIM_TRIGGERS,
                              ALTAR_MAY_GO})


def _as_given(p):
    """The permanent as read: without the abilities a resolution gave it (each has
    ``via``), its resolved abilities as written (``unresolved``), and without the notes
    a resolution added."""
    if not any(a.via or a.unresolved for a in p.abilities) and not any(why in RESOLUTION_NOTES for _, why in p.unread):
        return p
    return replace(p, abilities=tuple(a.unresolved or a for a in p.abilities if not a.via),
                   unread=tuple(n for n in p.unread if n[1] not in RESOLUTION_NOTES))


def _with_given_abilities(p, given: Board, grants: list, altars: list, may_go: set):
    """``p`` with the abilities other permanents give it: granted (``grants``: "Lands you
    control have ...", from a permanent that stays while paying) and through an altar."""
    added, notes = [], []
    for g, which, ability in grants:
        if p.is_a(which):
            if g.id in may_go:
                notes.append((ability.text, GIVER_MAY_GO))
            else:
                added.append(replace(ability, via=(g.id, None, False)))
    added += _sacrificed_through(p, altars, may_go)
    for altar, j, kind in altars:
        if altar.id == p.id:
            text = p.abilities[j].text or str(p.abilities[j].cost)
            if any(q.is_a(kind) and q.triggers for q in given.permanents):
                notes.append((text, VICTIM_TRIGGERS))
            if p.id in may_go and any(q.is_a(kind) and q.id != p.id for q in given.permanents):
                notes.append((text, ALTAR_MAY_GO))
    if not added and not notes:
        return p
    return replace(p, abilities=p.abilities + tuple(added), unread=p.unread + tuple(notes))


def _with_replacements(board: Board, may_go: set) -> Board:
    """Mana replacement effects other permanents apply (CR 614): Damping Sphere makes a
    land tapped for two or more mana produce {C} instead (CR 106.12a: an ability with {T}
    in its cost). A count not yet made (Gaea's Cradle) or a board that multiplies mana
    too (the order of replacements) is not modelled: refused."""
    effects = {e for p in board.permanents for e in p.replaces}
    if LANDS_MAKE_ONE_COLORLESS not in effects:
        return board
    if any(p.id in may_go for p in board.permanents if LANDS_MAKE_ONE_COLORLESS in p.replaces):
        raise RequestError("a permanent that replaces what lands make and may be sacrificed while paying is not "
                           "modelled")
    if any(t.multiply for p in board.permanents for t in p.triggers):
        raise RequestError("Damping Sphere beside an effect that multiplies mana is not modelled (the order of "
                           "replacement effects, CR 616)")
    out = []
    for p in board.permanents:
        if p.is_a("land") and any(a.cost.tap and a.output.max_count >= 2 for a in p.abilities):
            if any(a.cost.tap and a.output.per for a in p.abilities):
                raise RequestError(f"{p.id!r}: a counted amount beside Damping Sphere is not modelled")
            p = replace(p, abilities=tuple(replace(a, output=_one_colorless(a.output)) if a.cost.tap else a
                                           for a in p.abilities))
        out.append(p)
    return Board(tuple(out))


def _one_colorless(output: Output) -> Output:
    """What a land's ability produces under Damping Sphere: {C} for any two or more."""
    if output.combination >= 2:
        return Output((("C",),))
    return Output(tuple(("C",) if len(a) >= 2 else a for a in output.alternatives))


def _with_grants_among(permanents: tuple | PermanentsByBody) -> tuple | PermanentsByBody:
    """The opponents' permanents with what they give each other (an opponent's
    Chromatic Lantern makes their lands produce any color, for Exotic Orchard)."""
    grants = [(which, ability) for g in permanents for which, ability in g.grants]
    if not grants:
        return permanents
    return tuple(replace(q, abilities=q.abilities + tuple(a for which, a in grants if q.is_a(which)))
                 for q in permanents)


def _resolved(p, board: Board, stable: list, may_go: set, player: Player, opponents):
    """``p`` with each ability that depends on ``board`` resolved (``stable``: the
    permanents that stay while paying)."""
    if not any(a.depends for a in p.abilities):
        return p
    abilities, notes = list(p.abilities), list(p.unread)
    for j, a in enumerate(abilities):
        if a.depends:
            abilities[j], note = _resolve(a, p, board, stable, may_go, player, opponents)
            if note:
                notes.append((a.text, note))
    resolved = tuple(a.output for a in abilities)
    return replace(p, abilities=tuple(abilities), unread=tuple(dict.fromkeys(notes)),
                   key=f"{p.key}|{resolved}" if p.key else "")


def _altars(board: Board) -> list:
    """(permanent, ability index, kind) for each ability whose cost sacrifices or taps
    another permanent of a kind (Ashnod's Altar: creature; Skirk Prospector: Goblin;
    Springleaf Drum taps a creature), if that permanent can ever pay the rest of the cost
    (its own {T}: not summoning sick). A tapped one still gives its abilities, which its
    {T} makes unusable now (solver.supply, the validator and the reference search each
    hold it to that): what the board's permanents have does not change as they tap, so a
    turn's plan names the same ability on the board before and after a tap (CR 107.5)."""
    return [(p, j, a.cost.sacrifice_other or a.cost.tap_other) for p in board.permanents
            for j, a in enumerate(p.abilities) if (a.cost.sacrifice_other or a.cost.tap_other)
            and not (a.cost.tap and p.creature and p.summoning_sick)]


def _sacrificed_through(q, altars: list, may_go: set) -> list:
    """The "Sacrifice this" abilities ``q`` has through each altar that may sacrifice it:
    the altar's cost and mana, the sacrifice being ``q``'s (CR 602.2b: sacrificing is
    part of the altar's cost). An altar that may itself be sacrificed while paying is
    used only to sacrifice itself, since it might be gone before another activation."""
    out = []
    for altar, j, kind in altars:
        a = altar.abilities[j]
        if not q.is_a(kind) or (altar.id in may_go and altar.id != q.id):
            continue
        if a.cost.tap and q.id == altar.id:  # it taps itself already: another permanent pays the rest
            continue
        if a.cost.tap_other:  # q is tapped by the altar's cost (CR 302.6 does not apply: not q's own {T})
            cost = AbilityCost(mana=a.cost.mana, life=a.cost.life, tap=True, by_other=True)
        else:
            if q.triggers:  # its triggers would stop when it leaves (CR 603.10): not modelled
                continue
            cost = AbilityCost(mana=a.cost.mana, life=a.cost.life, sacrifice=True)
        out.append(replace(a, cost=cost, via=(altar.id, j, altar.snow)))
    return out


def _resolve(ability, p, board: Board, stable: list, may_go: set, player: Player, opponents) -> tuple:
    """(the ability with its output for this board, a note when the permanents that may
    be sacrificed would have changed it, or when it can't be resolved)."""
    output = _output(ability, p, stable, board, player, opponents)
    note = ""
    if isinstance(output, str):
        note, output = output, NOTHING  # (in this order: mypy reads the other as assigning NOTHING to a str)
    elif may_go:
        every = _output(ability, p, list(board.permanents), board, player, opponents)
        if not isinstance(every, str) and every != output:
            note = MAY_MAKE_MORE
    return replace(ability, output=output, depends=(), unresolved=ability), note


def ability_now(problem, p, ability, gone: set):
    """``ability`` of ``p`` (one whose mana depends on the rest of the board: Mox Opal's
    metalcraft, Mox Amber's colors, Reflecting Pool) as it is now, once the permanents in
    ``gone`` have been sacrificed: the ability with its output counted on that board. The
    board read counts it without every permanent that may be sacrificed while paying
    (``MAY_MAKE_MORE``); a judge replaying a plan counts what is there at each step
    (CR 602.5b: an activation restriction is checked as the ability is activated). None
    for an ability that depends on nothing."""
    original = ability.unresolved
    if original is None or not original.depends:
        return None
    board = problem.board
    left = [q for q in board.permanents if q.id not in gone]
    output = _output(original, p, left, board, problem.player, problem.opponents)
    return None if isinstance(output, str) else replace(ability, output=output)


def _output(ability, p, permanents: list, board: Board, player: Player, opponents) -> Output | str:
    """What the ability adds with ``permanents`` on the battlefield (an Output), or why
    it can't be told (a message)."""
    kind, *args = ability.depends
    if kind in (OPPONENT_LAND_COLORS, ON_BATTLEFIELD) and opponents is None:
        return NEEDS_OPPONENTS
    if kind == OPPONENT_LAND_COLORS:  # CR 106.7, the opponents' lands (Exotic Orchard, Fellwar Stone)
        types = _lands_could_produce(opponents, lambda q, a: a.output.types)
        return Output(tuple((c,) for c in COLORS if c in types) or ((),))
    if kind == ON_BATTLEFIELD:  # Priest of Titania: every player's permanents of the kind
        which, mana = args
        n = sum(1 for q in list(permanents) + list(opponents) if q.is_a(which))
        return Output((tuple(mana) * n,)) if n else NOTHING
    if kind == COULD_PRODUCE:  # CR 106.7: what the lands' own abilities would produce
        n, = args
        gone = {q.id for q in board.permanents} - {q.id for q in permanents}
        types = _lands_could_produce(permanents, lambda q, a: board.live_output(q, a, gone).types if a.output.per
                                     else a.output.types)
        return Output(tuple((t,) * n for t in MANA_TYPES if t in types) or ((),))
    if kind == COMMANDER:  # CR 903.4f: a color outside the identity makes no mana
        if player.commander_identity is None:
            return NEEDS_COMMANDER
        return Output(tuple((c,) for c in COLORS if c in player.commander_identity) or ((),))
    if kind == COLORS_AMONG:
        which, each = args
        colors = set()
        for q in permanents:
            if _is(q, which):
                colors |= set(q.colors)
        ordered = [c for c in COLORS if c in colors]
        if each:  # one mana of each color (Bloom Tender)
            return Output((tuple(ordered),) if ordered else ((),))
        return Output(tuple((c,) for c in ordered) or ((),))  # one mana of one of them (Mox Amber)
    if kind == IF_CONTROL:
        needed, mana = args
        held = all(any(set(name.split()) <= set(split_type_line(q.type_line)[1]) for q in permanents)
                   for name in needed)
        return Output((mana,)) if held else ability.output
    if kind == IF_COUNT:
        which, n = args
        return ability.output if sum(1 for q in permanents if _is(q, which)) >= n else NOTHING
    if kind == IF_ANY:  # "Activate only if you control a Plains or an Island." (CR 602.5b)
        kinds, = args
        return ability.output if any(_is(q, which) for q in permanents for which in kinds) else NOTHING
    raise ValueError(f"unknown dependency {kind!r}")


def _lands_could_produce(permanents, made) -> set:
    """The types of mana the lands among ``permanents`` could produce (CR 106.7): what
    ``made(land, ability)`` says each of their own (or granted) abilities adds, leaving
    out abilities that themselves depend on the board (two Reflecting Pools alone could
    produce nothing) and an altar's ability had through a land."""
    types = set()
    for q in permanents:
        if q.is_a("land"):
            for a in q.abilities:
                if not a.depends and not a.through:
                    types |= made(q, a)
    return types


def _is(q, which: str) -> bool:
    """Whether ``q`` is a ``which``: a kind :meth:`Permanent.is_a` knows, or "legendary
    creature or planeswalker"."""
    if which == "legendary creature or planeswalker":
        types = split_type_line(q.type_line)[0]
        return "Planeswalker" in types or ("Legendary" in types and q.is_a("creature"))
    return q.is_a(which)


def acting(board: Board, permanent, ability) -> tuple:
    """(the permanent whose ability makes the mana, that ability, whether its mana is
    snow): the altar for a "Sacrifice this" had through an altar, else the permanent
    itself. Triggers and replacement effects look at it (CR 605.4a, 106.12)."""
    if ability.through:
        host_id, index = ability.through
        host = board.find(host_id)
        if host is not None:
            return host, host.abilities[index], ability.via[2]
    return permanent, ability, permanent.snow

