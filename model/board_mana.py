"""Mana that depends on the rest of the board, resolved on each board into the fixed
abilities the solver knows.

Some card text makes mana according to other permanents: the types another permanent
"could produce" (Reflecting Pool, Incubation Druid: CR 106.7), the colors among
permanents (Bloom Tender, Mox Amber), the commander's color identity (Command Tower,
Arcane Signet: CR 903.4), a condition on what the player controls (Urza's Tower's
"instead", Mox Opal's metalcraft), and abilities one permanent gives others ("Lands you
control have ..." : Chromatic Lantern, Cryptolith Rite). The reader
(:mod:`manaplan.model.oracle`) writes each as a spec in ``Ability.depends`` or
``Permanent.grants``; :func:`resolve_board_mana` turns them into plain outputs on one
board, before anything else sees it.

A permanent that may be sacrificed while paying (a Treasure) may be gone before such an
ability is activated, so it is not counted: an ability never adds more than it would at
the table. Where counting it would have changed the amount, the ability's permanent
lists that in ``unread``, so that a "no" on this board is not called certain.

>>> from manaplan.model.oracle import read_card_text
>>> from manaplan.model.sources import Board, Permanent, Player
>>> pool = read_card_text("Land", "{T}: Add one mana of any type that a land you control could produce.")
>>> board = Board((Permanent("rp", abilities=pool.abilities, type_line="Land"),
...                Permanent("f", abilities=read_card_text("Basic Land — Forest", "").abilities,
...                          type_line="Basic Land — Forest")))
>>> resolve_board_mana(board, Player()).permanents[0].abilities[0].output.alternatives
(('G',),)
"""

from __future__ import annotations

from dataclasses import replace

from .sources import Board, Output, Player, split_type_line
from .symbols import COLORS, MANA_TYPES

#: the kinds of ``Ability.depends``
LAND_TYPES = "land_types"  # (LAND_TYPES, n): n mana of one type a land you control could produce
COMMANDER = "commander_identity"  # (COMMANDER,): one mana of a color of the commander's identity
COLORS_AMONG = "colors_among"  # (COLORS_AMONG, which, each): colors among permanents of a kind
IF_CONTROL = "if_control"  # (IF_CONTROL, (subtypes, ...), mana): this mana instead if all are there
IF_COUNT = "if_count"  # (IF_COUNT, kind, n): usable only with n or more permanents of a kind
OPPONENT_LAND_COLORS = "opponent_land_colors"  # one mana of a color a land an opponent controls could produce
ON_BATTLEFIELD = "on_battlefield"  # (ON_BATTLEFIELD, kind, mana): mana for each kind on the battlefield, all players'

#: an ability that adds nothing (its condition does not hold): it keeps its index
NOTHING = Output(((),))


def resolve_board_mana(board: Board, player: Player, opponents: tuple | None = None) -> Board:
    """The board with every ability that depends on the board resolved (and granted
    abilities given); the same board when there is none. ``opponents``: the permanents
    the opponents control, or None when the request does not give them."""
    if not any(p.grants or any(a.depends for a in p.abilities) for p in board.permanents):
        return board
    key = ("board_mana", player.commander_identity, opponents)
    if key in board.memo:
        return board.memo[key]
    may_go = {p.id for p in board.permanents if any(a.cost.sacrifice for a in p.abilities)}
    granted = _granted(board, may_go)
    out = []
    for p in board.permanents:
        abilities = list(p.abilities) + [ability for which, ability in granted if p.is_a(which)]
        notes = list(p.unread)
        for j, a in enumerate(abilities):
            if a.depends:
                abilities[j], note = _resolve(a, p, board, may_go, player, opponents)
                if note:
                    notes.append((a.text, note))
        if any(g.id in may_go for g in board.permanents if g.grants):
            notes += [(text, "given by a permanent that may be sacrificed while paying: not used")
                      for which, text in _grants_of_sacrificed(board, may_go) if p.is_a(which)]
        resolved = tuple(a.output for a in abilities)
        out.append(replace(p, abilities=tuple(abilities), unread=tuple(notes),
                           key=f"{p.key}|{resolved}" if p.key else ""))
    resolved_board = Board(tuple(out))
    board.memo[key] = resolved_board
    return resolved_board


def _granted(board: Board, may_go: set) -> list:
    """(which, ability) given by permanents that stay while paying."""
    return [(which, ability) for g in board.permanents if g.id not in may_go for which, ability in g.grants]


def _grants_of_sacrificed(board: Board, may_go: set) -> list:
    return [(which, ability.text) for g in board.permanents if g.id in may_go for which, ability in g.grants]


def _resolve(ability, p, board: Board, may_go: set, player: Player, opponents) -> tuple:
    """(the ability with its output for this board, a note when the permanents that may
    be sacrificed would have changed it, or when it can't be resolved)."""
    stable = [q for q in board.permanents if q.id not in may_go]
    output = _output(ability, p, stable, board, player, opponents)
    note = ""
    if isinstance(output, str):
        output, note = NOTHING, output
    elif may_go:
        every = _output(ability, p, list(board.permanents), board, player, opponents)
        if not isinstance(every, str) and every != output:
            note = ("counted without the permanents that may be sacrificed while paying (they may be gone "
                    "by then): it may make more")
    return replace(ability, output=output, depends=()), note


def _output(ability, p, permanents: list, board: Board, player: Player, opponents):
    """What the ability adds with ``permanents`` on the battlefield (an Output), or why
    it can't be told (a message)."""
    kind, *args = ability.depends
    if kind in (OPPONENT_LAND_COLORS, ON_BATTLEFIELD) and opponents is None:
        return "needs the permanents the opponents control ('opponents' in the request)"
    if kind == OPPONENT_LAND_COLORS:  # CR 106.7, the opponents' lands (Exotic Orchard, Fellwar Stone)
        types = set()
        for q in opponents:
            if q.is_a("land"):
                for a in q.abilities:
                    if not a.depends:
                        types |= a.output.types
        return Output(tuple((c,) for c in COLORS if c in types) or ((),))
    if kind == ON_BATTLEFIELD:  # Priest of Titania: every player's permanents of the kind
        which, mana = args
        n = sum(1 for q in list(permanents) + list(opponents) if q.is_a(which))
        return Output((tuple(mana) * n,)) if n else NOTHING
    if kind == LAND_TYPES:  # CR 106.7: what the lands' own abilities would produce
        n, = args
        gone = {q.id for q in board.permanents} - {q.id for q in permanents}
        types = set()
        for q in permanents:
            if q.is_a("land"):
                for a in q.abilities:
                    if not a.depends:
                        made = board.live_output(q, a, gone).types if a.output.per else a.output.types
                        types |= made
        return Output(tuple((t,) * n for t in MANA_TYPES if t in types) or ((),))
    if kind == COMMANDER:  # CR 903.4f: a color outside the identity makes no mana
        if player.commander_identity is None:
            return "needs the player's 'commander_identity' (the colors of the commander's color identity)"
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
    raise ValueError(f"unknown dependency {kind!r}")


def _is(q, which: str) -> bool:
    """Whether ``q`` is a ``which``: a kind :meth:`Permanent.is_a` knows, or "legendary
    creature or planeswalker"."""
    if which == "legendary creature or planeswalker":
        types = split_type_line(q.type_line)[0]
        return "Planeswalker" in types or ("Legendary" in types and q.is_a("creature"))
    return q.is_a(which)
