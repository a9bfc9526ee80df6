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
    memo = board.memo
    if memo.get("board_mana_done"):
        return board
    if "board_mana_needed" not in memo:  # looked for once per board
        memo["board_mana_needed"] = any(p.grants or any(a.depends or a.cost.sacrifice_other for a in p.abilities)
                                        for p in board.permanents)
    if not memo["board_mana_needed"]:
        return board
    key = ("board_mana", player.commander_identity, opponents)
    if key in board.memo:
        return board.memo[key]
    asked = board
    if any(a.via for p in board.permanents for a in p.abilities):  # built from resolved permanents: anew
        board = Board(tuple(_as_given(p) for p in board.permanents))
    altars = _altars(board)
    victims = {q.id for q in board.permanents for _, _, kind in altars if q.is_a(kind) and not q.triggers}
    may_go = {p.id for p in board.permanents if any(a.cost.sacrifice for a in p.abilities)} | victims
    granted = _granted(board, may_go)
    out = []
    for p in board.permanents:
        abilities = list(p.abilities) + [ability for which, ability in granted if p.is_a(which)]
        abilities += _sacrificed_through(p, altars, may_go)
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
        out.append(replace(p, abilities=tuple(abilities), unread=tuple(dict.fromkeys(notes)),
                           key=f"{p.key}|{resolved}" if p.key else ""))
    for altar, j, kind in altars:
        if any(q.is_a(kind) and q.triggers for q in board.permanents):
            k = next(i for i, q in enumerate(out) if q.id == altar.id)
            out[k] = replace(out[k], unread=out[k].unread + (
                (altar.abilities[j].text or str(altar.abilities[j].cost),
                 "a permanent it could sacrifice has triggered mana abilities, which stop when it leaves (CR "
                 "603.10): not sacrificed here"),))
        if altar.id in may_go and any(q.is_a(kind) and q.id != altar.id for q in board.permanents):
            k = next(i for i, q in enumerate(out) if q.id == altar.id)
            out[k] = replace(out[k], unread=out[k].unread + (
                (altar.abilities[j].text or str(altar.abilities[j].cost),
                 "it may be sacrificed while paying, so it sacrifices only itself here: it may make more"),))
    resolved_board = Board(tuple(out))
    resolved_board.memo["board_mana_done"] = True
    resolved_board.memo["given"] = board
    asked.memo[key] = resolved_board
    return resolved_board


def _as_given(p):
    """The permanent without the abilities a resolution gave it (each has ``via``), so
    that resolving a board built from resolved permanents gives them once."""
    if not any(a.via for a in p.abilities):
        return p
    return replace(p, abilities=tuple(a for a in p.abilities if not a.via))


def _altars(board: Board) -> list:
    """(permanent, ability index, kind) for each ability whose cost sacrifices another
    permanent of a kind (Ashnod's Altar: creature; Skirk Prospector: Goblin)."""
    return [(p, j, a.cost.sacrifice_other) for p in board.permanents for j, a in enumerate(p.abilities)
            if a.cost.sacrifice_other]


def _sacrificed_through(q, altars: list, may_go: set) -> list:
    """The "Sacrifice this" abilities ``q`` has through each altar that may sacrifice it:
    the altar's cost and mana, the sacrifice being ``q``'s (CR 602.2b: sacrificing is
    part of the altar's cost). An altar that may itself be sacrificed while paying is
    used only to sacrifice itself, since it might be gone before another activation."""
    out = []
    for altar, j, kind in altars:
        if not q.is_a(kind) or (altar.id in may_go and altar.id != q.id):
            continue
        if q.triggers:  # its triggers would stop when it leaves (CR 603.10): not modelled
            continue
        a = altar.abilities[j]
        cost = replace(a.cost, sacrifice=True, sacrifice_other="")
        out.append(replace(a, cost=cost, via=(altar.id, j, altar.snow)))
    return out


def _granted(board: Board, may_go: set) -> list:
    """(which, ability) given by permanents that stay while paying."""
    return [(which, replace(ability, via=(g.id, None, False))) for g in board.permanents if g.id not in may_go
            for which, ability in g.grants]


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


def acting(board: Board, permanent, ability) -> tuple:
    """(the permanent whose ability makes the mana, that ability, whether its mana is
    snow): the altar for a "Sacrifice this" had through an altar, else the permanent
    itself. Triggers and replacement effects look at it (CR 605.4a, 106.12)."""
    if ability.via and ability.via[1] is not None:
        host = next((q for q in board.permanents if q.id == ability.via[0]), None)
        if host is not None:
            return host, host.abilities[ability.via[1]], ability.via[2]
    return permanent, ability, permanent.snow

