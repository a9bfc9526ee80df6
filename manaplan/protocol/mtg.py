"""Magic requests and answers: the JSON protocol's shapes (docs/protocol.md) read into
``manaplan.model`` values, and answer values written back as JSON.

This module and its siblings are the only places that know the protocol's keys: the
solvers return :class:`~manaplan.model.plan.Plan`, ``Unpayable``, ``Undecided`` or
``Payable`` values, and :func:`write` turns them into the response.

>>> problem = read({"spell": {"mana_cost": "{1}{G}"},
...                 "permanents": [{"id": "f1", "type_line": "Basic Land — Forest"}]})
>>> str(problem.spell.cost.mana_cost), problem.board.permanents[0].id
('{1}{G}', 'f1')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..model.cost import SpellCost, choice_symbols
from ..model.entering import TAPPED, EntersRule
from ..model.errors import ManaplanError, ReadingTimeout, RequestError
from ..model.mana import format_types, parse_mana
from ..model.oracle import EXILE_FROM_HAND, PERMANENT_TYPES, entering_mana, hand_mana_from_text, spell_mana_from_text
from ..model.spell_text import read_spell_text
from ..model.plan import GRAVEYARD, POOL, BestTurn, Castable, Payable, Plan, Sequence, TIMEOUT, Undecided, Unpayable
from ..model.problem import (ANY_ORDER, CASTABLE, CHECK, GIVEN, IF_POSSIBLE, MOST, OBJECTIVE_TERMS, PAY, TOTAL_COST,
                             WHEN_NEEDED, PaymentProblem, Preference, Spell, copied_with)
from ..model.abilities import Ability, AbilityCost, Output
from ..model.board import Board, Permanent, PermanentsByBody, Player, split_type_line
from ..model.symbols import COLORS, VARIABLE
from ..kept_boards import KeptBoard
from .. import scryfall
from .permanents import DELVED, check_triggers, mana_string, read_board, read_once, read_permanent
from .large_requests import PermanentTexts
from .read_cache import ReadCache
from .common import boolean, expect, is_whole_number, no_unknown_fields, undecided_reason, whole_number
from .plans import read_written_plan
from .plan_writing import write_plan, write_reason  # noqa: F401 (written here, and by other modules)
from ..queries import MAGIC, magic_query

#: the spell of a request that asks about a hand only (``castable``): none
NO_SPELL = Spell(SpellCost(None))

#: the request fields every Magic query reads; each query reads those its entry in the
#: registry names besides (manaplan.queries): a field its query does not use is an error
#: (protocol 3.0), never silently ignored
COMMON_FIELDS = ("id", "game", "query", "player", "permanents", "board", "changes", "time_limit_ms", "prefer",
                 "opponents", "mid_cast")
#: what a query that needs a field says when it is missing
_MISSING = {"spell": "the request needs a 'spell'", "spells": "'{query}' pays a list of 'spells': give them",
            "hand": "'{query}' asks about a 'hand': give one",
            "plan": "'{query}' judges a 'plan' another engine wrote (null: its claim that the spell can't be paid)"}
CHANGES_FIELDS = ("tapped", "untapped", "add", "remove", "player")
SPELL_FIELDS = ("name", "mana_cost", "type_line", "x", "additional", "increase", "reduce", "minimum",
                "convoke", "improvise", "delve", "oracle_text", "id", "value", "kicker", "kicked", "multikicker",
                "kicks", "alternative_cost", "commander", "colors", "targets")
PLAYER_FIELDS = ("life", "pool", "graveyard", "commander_identity", "energy", "spells_cast")


# -- reading ------------------------------------------------------------------------------

def request_fields() -> tuple:
    """Every field a Magic request may have: every query's and each query's own."""
    return _REQUEST_FIELDS


def _fields_of(queries: tuple) -> tuple:
    """:func:`request_fields` of a registry of queries."""
    return COMMON_FIELDS + tuple(dict.fromkeys(f for q in queries for f in q.fields))


_REQUEST_FIELDS = _fields_of(MAGIC)  # (found once: the registry does not change)


def read(request, boards=None, parsed: bool = False) -> PaymentProblem:
    """Validate a Magic request and build the problem (:func:`_read`); raise RequestError
    on bad input. Where its time runs out while permanents are read
    (:class:`ReadingTimeout`, answered undecided), the error carries the hand (each card
    of ``castable`` is answered), and a kept board the request was sending or changing
    is forgotten (its board as sent was not read: never answered as the old one)."""
    try:
        return _read(request, boards, parsed)
    except ReadingTimeout as e:
        if not e.hand and request.get("hand") is not None:
            e.hand = _read_hand_once(request["hand"], magic_query(request.get("query", PAY)).resolving == "hand")[1]
        name = request.get("board")
        if boards is not None and isinstance(name, str) and ("permanents" in request or "changes" in request):
            boards.forget(name, "because the request that sent or changed it ran out of time while its permanents "
                               "were read")
        raise


def _read(request, boards=None, parsed: bool = False) -> PaymentProblem:
    """:func:`read`. ``parsed``: manaplan parsed the request from JSON text (see
    :func:`read_board`).

    Its query's entry in the registry (manaplan.queries) says which fields it reads and
    needs; each field has one reader here. With ``"board": NAME`` and a ``boards`` store
    (``serve``'s), ``permanents`` are kept under NAME, or, without them, the kept board
    is used after its ``changes``; the request's ``player`` fields override the kept
    player for this request only."""
    expect(isinstance(request, dict), "a request must be a JSON object", "")
    no_unknown_fields(request, request_fields(), "", "the request")
    query = magic_query(request.get("query", PAY))
    _only_fields_of(request, query)
    hand_items, hand = _read_hand_once(request.get("hand"), query.resolving == "hand")
    spell_items = _spell_objects(request.get("spells"), "spells")
    spells = read_hand(spell_items, "spells", resolving=query.resolving == "spells")
    for i, card in enumerate(spells):
        expect(not card.is_land, f"{card.id!r} is a land: lands are played, not cast (best_turn plays the hand's "
                                 f"lands)", f"spells[{i}]")
    for field in query.required:
        if not (field in request and (field != "spells" or spells)):  # (the message written only when it is said)
            raise RequestError(_MISSING[field].format(query=query.name), field)
    spell = read_spell(spell_object(request["spell"], "spell")) if "spell" in request else NO_SPELL
    if "keep_castable" in request or "keep_open" in request:  # (kept cards are paid once it resolved)
        left = what_it_leaves(copied_with(spell, id=spell.id or "the spell"), spell_object(request["spell"], "spell"),
                              "spell")
        spell = copied_with(left, id=spell.id)
    name = request.get("board")
    expect(name is None or isinstance(name, str) and name, "'board' must be a name (non-empty text)", "board")
    if name is None or "permanents" in request:
        expect("changes" not in request, "'changes' apply to a kept board: give 'board' without 'permanents'",
               "changes")
        perms = request.get("permanents", [])
        expect(isinstance(perms, (list, PermanentTexts)), "'permanents' must be a list", "permanents")
        board = read_board(perms, "permanents", parsed=parsed)
        player_fields = request.get("player")
        if name is not None and boards is not None:
            base = request.get("player", {})
            expect(isinstance(base, dict), "'player' must be an object", "player")
            boards.put(name, KeptBoard.of(dict(base), board))
    else:
        if boards is None:
            raise RequestError(f"no board is kept under {name!r}: boards are kept by `manaplan serve`; give "
                               f"'permanents' too", "board")
        kept = boards.get(name)
        if "changes" in request:
            kept = apply_changes(kept, request["changes"])
            boards.put(name, kept)
        board = kept.board
        given = request.get("player", {})
        expect(isinstance(given, dict), "'player' must be an object", "player")
        player_fields = {**kept.player, **given}
    ids = board.ids
    for key, cards in (("hand", hand), ("spells", spells)):
        for i, card in enumerate(cards):
            if card.id in ids:
                raise RequestError(f"{card.id!r} is the id of a permanent too: one id namespace per request",
                                   f"{key}[{i}].id")
    order = request.get("order", GIVEN)
    if order not in (GIVEN, ANY_ORDER):
        raise RequestError(f"'order' must be \"{GIVEN}\" or \"{ANY_ORDER}\", not {order!r}", "order")
    sources = tuple(card.from_hand for card in hand if card.from_hand is not None)
    if sources:  # the hand's mana abilities join this request's board (not a kept one)
        board = Board(board.permanents + sources)
        spell, spells = _same_cards(spell, spells, hand)
    keep, together = read_keep(request, spell, hand)
    land_drop = request.get("land_drop", True)
    if not (isinstance(land_drop, bool) or land_drop == WHEN_NEEDED):
        raise RequestError(f"'land_drop' must be true, false or \"{WHEN_NEEDED}\", not {land_drop!r}", "land_drop")
    prefer = read_prefer(request.get("prefer"), board.ids)
    opponents = None
    if "opponents" in request:  # what the opponents control: read by text such as Exotic Orchard's
        expect(isinstance(request["opponents"], list), "'opponents' must be a list of permanents", "opponents")
        opponents = read_board(request["opponents"], "opponents", known=ids | {c.id for c in hand + spells}).permanents
    player = read_player(player_fields)
    hand = _at_threshold(hand, hand_items, player.graveyard)
    spells = _at_threshold(spells, spell_items, player.graveyard)
    claim = read_written_plan(request["plan"]) if "plan" in request else None
    return PaymentProblem(spell=spell, board=board, player=player, query=query.name, hand=hand, keep=keep,
                          keep_together=together, spells=spells, order=order, land_drop=land_drop,
                          mid_cast=boolean(request, "mid_cast", "mid_cast"), prefer=prefer, opponents=opponents,
                          claim=claim)


#: each query's fields and the common ones, by the query's name (found once)
_USED_FIELDS: dict = {}


def _only_fields_of(request: dict, query) -> None:
    """A request field that its query does not use is an error naming it (protocol
    3.0: 2.x ignored ``spell`` in a query about a hand, and ``spells`` outside
    ``sequence``)."""
    used = _USED_FIELDS.get(query.name)
    if used is None:
        used = _USED_FIELDS[query.name] = frozenset(COMMON_FIELDS + query.fields)
    for key in request:
        if key not in used:
            users = [q.name for q in MAGIC if key in q.fields]
            raise RequestError(f"'{key}' is not a field of the '{query.name}' query: it is for "
                               f"{_or([repr(q) for q in users])}", key)


def _or(words: list) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _same_cards(spell: Spell, spells: tuple, hand: tuple) -> tuple:
    """(spell, spells) where a spell with the id of a card of the hand is that card
    (docs/protocol.md, "The hand"): it carries the card's ability from the hand, so no
    payment exiles it for mana while it is cast (CR 601.2a)."""
    sources = {card.id: card.from_hand for card in hand if card.from_hand is not None}

    def same(card: Spell) -> Spell:
        source = sources.get(card.id) if card.id else None
        return card if source is None else replace(card, from_hand=source)
    return same(spell), tuple(same(card) for card in spells)


def _at_threshold(cards: tuple, items, graveyard: int) -> tuple:
    """Rituals whose mana depends on the cards in the graveyard (Cabal Ritual's threshold),
    with the mana they certainly add: the graveyard only grows within a step unless a
    spell of the request delves, and each instant or sorcery cast before the ritual may
    add one card (CR 608.2n). Where the count before it resolves can't be told, the
    ritual adds the smaller amount and lists its threshold line as unread."""
    if not cards or not isinstance(items, list) or not any(card.adds for card in cards):
        return cards  # (only a ritual's mana may depend on the graveyard)
    out = []
    for card, item in zip(cards, items):
        text = item.get("oracle_text", "") if isinstance(item, dict) else ""
        line = next((x for x in text.split("\n") if x.startswith("Threshold")), None)
        if not card.adds or line is None:
            out.append(card)
            continue
        others = [c for c in cards if c is not card]
        may_grow = sum(1 for c in others if c.permanent is None)  # instants and sorceries go to the graveyard
        shrinks = any(c.delve for c in others)
        if graveyard >= 7 and not shrinks:
            out.append(replace(card, adds=spell_mana_from_text(text, card.name, graveyard)))
        elif graveyard + may_grow < 7:
            out.append(card)
        else:
            out.append(replace(card, unread=card.unread + ((line, "the cards in the graveyard when it resolves "
                                                                  "depend on what is cast before it"),)))
    return tuple(out)


#: a request's preference and player when it gives none (immutable values, shared)
NO_PREFERENCE, DEFAULT_PLAYER = Preference(), Player()


def read_prefer(prefer, ids: set) -> Preference:
    """``prefer``: the objective's terms to count first (``order``), permanents never to
    sacrifice and permanents to keep untapped when the payment allows."""
    if prefer is None:
        return NO_PREFERENCE
    expect(isinstance(prefer, dict), "'prefer' must be an object", "prefer")
    no_unknown_fields(prefer, ("order", "never_sacrifice", "keep_untapped"), "prefer", "prefer")
    order = prefer.get("order", [])
    expect(isinstance(order, list), "'order' must be a list of the objective's terms", "prefer.order")
    for k, name in enumerate(order):
        expect(isinstance(name, str) and name in OBJECTIVE_TERMS, f"{name!r} is not a term of the objective; the terms: "
                                        f"{', '.join(OBJECTIVE_TERMS)}", f"prefer.order[{k}]")
        expect(order.index(name) == k, f"{name!r} is named twice", f"prefer.order[{k}]")
    sets = []
    for key in ("never_sacrifice", "keep_untapped"):
        named = prefer.get(key, [])
        expect(isinstance(named, list), f"'{key}' must be a list of permanent ids", f"prefer.{key}")
        for k, pid in enumerate(named):
            expect(isinstance(pid, str), f"'{key}' must list permanent ids (text)", f"prefer.{key}[{k}]")
            expect(pid in ids, f"no permanent {pid!r} on the board", f"prefer.{key}[{k}]")
        sets.append(frozenset(named))
    return Preference(tuple(order), sets[0], sets[1])


def read_keep(request: dict, spell: Spell, hand: tuple) -> tuple:
    """(spells to keep payable, together?) of a ``pay``: hand cards by id, and the mana
    of ``keep_open`` as a spell of that cost (an id of its own: the mana string)."""
    if not any(k in request for k in ("keep_castable", "keep_open", "keep_together")):
        return (), False
    by_id = {card.id: card for card in hand}
    ids = request.get("keep_castable", [])
    expect(isinstance(ids, list) and all(isinstance(i, str) for i in ids),
           "'keep_castable' must be a list of ids of the hand's cards", "keep_castable")
    kept = []
    for i, cid in enumerate(ids):
        expect(cid in by_id, f"no card {cid!r} in the hand", f"keep_castable[{i}]")
        expect(cid != spell.id or not spell.id, "the spell being paid can't be kept too", f"keep_castable[{i}]")
        kept.append(by_id[cid])  # (in any of its ways: solver.turn)
    if "keep_open" in request:
        mana = mana_string(request["keep_open"], "keep_open")
        expect(all(s.kind in ("colored", "colorless", "generic") for s in mana.symbols),
               "'keep_open' is mana to keep producible, such as \"{U}{U}\" or \"{2}\"", "keep_open")
        kept.append(Spell(SpellCost(mana), name=str(mana), id=str(mana)))
    return tuple(kept), boolean(request, "keep_together", "keep_together")


def spell_object(item, at: str):
    """The protocol's spell object for ``item``: a spell given as a Scryfall card (or
    with two faces) is turned into one (:mod:`manaplan.scryfall`)."""
    return scryfall.spell_fields(item, at) if scryfall.is_card(item) or scryfall.has_faces(item) else item


def _spell_objects(items, key: str):
    if not isinstance(items, list):
        return items  # read_hand says what is wrong
    return [spell_object(item, f"{key}[{i}]") for i, item in enumerate(items)]


def _read_hand_once(given, resolving: bool) -> tuple:
    """(the hand's spell objects, the hand read, with the mana its cards can make from
    the hand): read once for hands given alike (a ``pay`` after a ``castable`` for the
    same hand)."""
    if not isinstance(given, list) or not given:
        return given, read_hand(given, "hand", resolving)

    def read() -> tuple:
        items = _spell_objects(given, "hand")
        cards = tuple(_with_hand_mana(card, item) for card, item in zip(read_hand(items, "hand", resolving), items))
        if resolving:
            cards = tuple(_with_other_face(card, raw, f"hand[{i}]") for i, (card, raw) in enumerate(zip(cards, given)))
        return items, cards
    return read_once(_HANDS, repr((resolving, given)), read)


def _with_other_face(card: Spell, raw, at: str) -> Spell:
    """A modal double-faced card given without a ``face`` (CR 712, modal double-faced cards: either face may be
    cast or played, a pathway's either land): the card as its front face, with its back
    face beside it (``Spell.faces``) for ``best_turn`` to choose."""
    if not scryfall.is_modal(raw):
        return card
    item = scryfall.spell_fields({**raw, "face": 1}, at)
    back = what_it_leaves(copied_with(read_spell(item), id=card.id), item, at)
    if back.permanent is not None:  # (its own key: the two faces' permanents are told apart by key)
        back = replace(back, permanent=replace(back.permanent, key=f"cast|{card.id}|1"))
    # one card in the hand: exiled for mana by its front face's ability, it is neither face any more
    return replace(card, face=0, faces=(replace(back, face=1, from_hand=card.from_hand),))


def read_hand(hand, key: str, resolving: bool = False) -> tuple:
    """A list of spells (``hand``, ``spells``), each with an ``id`` (distinct) and an
    optional ``value``; with ``resolving``, also what each leaves when it resolves (a
    ritual's mana, a permanent spell's permanent: :func:`what_it_leaves`)."""
    if hand is None:
        return ()
    expect(isinstance(hand, list), f"'{key}' must be a list of spells", key)
    out, seen = [], set()
    for i, item in enumerate(hand):
        try:
            card = read_spell(item)
        except ManaplanError as e:
            raise RequestError(e.message, f"{key}[{i}]{e.at[len('spell'):] if e.at else ''}") from None
        expect(card.id != "", f"every spell of the {key} needs an 'id'", f"{key}[{i}].id")
        expect(card.id not in seen, f"duplicate id {card.id!r} in the {key}", f"{key}[{i}].id")
        seen.add(card.id)
        if resolving:
            card = what_it_leaves(card, item, f"{key}[{i}]")
        out.append(card)
    return tuple(out)


def _with_hand_mana(card: Spell, item: dict) -> Spell:
    """A hand card that can be exiled from the hand for mana carries that ability as a
    source: no card types, no mana cost (on no battlefield: it counts for nothing)."""
    mana = hand_mana_from_text(item.get("oracle_text", ""), card.name)
    if mana is None:
        return card
    ability = Ability(AbilityCost(sacrifice=True), Output((mana,)), text=EXILE_FROM_HAND)
    source = Permanent(card.id, card.name, abilities=(ability,), key=f"hand|{card.id}")
    return replace(card, from_hand=source)


#: a permanent that enters tapped, by its text (Coldsteel Heart); a land's text is read
#: by model.entering (a check land, a shock land: how it enters is a choice or a rule)
ENTERS_TAPPED = re.compile(r"enters (?:the battlefield )?tapped", re.I)


#: why a permanent spell's grant of haste is listed: a turn does not follow it for the
#: creatures cast after it (they are taken as summoning sick)
HASTE_NOT_FOLLOWED = ("gives haste to creatures, which a turn does not follow for the creatures cast after it: "
                      "they are taken as summoning sick")


def what_it_leaves(card: Spell, item: dict, at: str) -> Spell:
    """The spell with what it leaves once it resolves: a permanent spell (CR 110.4)
    becomes a permanent with the card's abilities, summoning sick if a creature (CR
    302.6), tapped if its text says it enters tapped; an instant or sorcery may add mana
    (a ritual, read from its text). A land card (played, not cast) keeps how it enters
    (model.entering.EntersRule); text about entering that can't be read is listed as
    unread, and the land taken to enter tapped."""
    types, _ = split_type_line(card.type_line)
    if set(types) & set(PERMANENT_TYPES):
        body = {k: item[k] for k in ("name", "type_line", "oracle_text", "mana_cost") if k in item}
        if "oracle_text" in body:  # an ability that works from the hand only (113.6m) is not the permanent's
            body["oracle_text"] = "\n".join(line for line in body["oracle_text"].split("\n")
                                            if hand_mana_from_text(line, card.name) is None)
        text = item.get("oracle_text", "")
        unread: tuple[tuple[str, str], ...]
        enters, unread = None, ()
        if "Land" in types:
            try:
                enters = EntersRule.parse(text, card.name)
            except ManaplanError as e:
                enters, unread = EntersRule(TAPPED), ((text, e.message + ": taken to enter tapped"),)
        tapped = "Land" not in types and bool(ENTERS_TAPPED.search(text))
        permanent = read_permanent({"id": card.id, **body, "summoning_sick": "Creature" in types, "tapped": tapped}, at)
        adds, unread_mana = entering_mana(body.get("oracle_text", ""), card.name)
        # (haste it gives the creatures cast after it this turn is not followed: a "no" is not certain)
        unread += tuple((grant.text, HASTE_NOT_FOLLOWED) for grant in permanent.gives_haste)
        permanent = replace(permanent, gives_haste=())
        return replace(card, permanent=replace(permanent, key=f"cast|{card.id}"), adds=adds,
                       unread=unread_mana + unread, enters=enters)
    try:
        return replace(card, adds=spell_mana_from_text(item.get("oracle_text", ""), card.name))
    except ManaplanError as e:
        raise e.located(at) from None


def apply_changes(kept: KeptBoard, changes) -> KeptBoard:
    """The kept board after ``changes``: permanents tapped, untapped, removed, added (in
    that order), and player fields replaced; every id named must be on the board. The
    permanents already read are kept as they are, only their state changed: only what
    is added is read, and on a board held by body only what is touched is looked at."""
    expect(isinstance(changes, dict), "'changes' must be an object", "changes")
    no_unknown_fields(changes, CHANGES_FIELDS, "changes", "changes")
    board = kept.board
    assert isinstance(board, Board)  # (a kept board is a Board read from a request; KeptBoard.board is typed object)
    replaced: dict = {}
    for key, state in (("tapped", True), ("untapped", False)):
        for k, pid in enumerate(_id_list(changes, key)):
            p = replaced.get(pid) or board.find(pid)
            expect(p is not None, f"no permanent {pid!r} on the kept board", f"changes.{key}[{k}]")
            assert p is not None  # (expect raised otherwise)
            if p.tapped != state:  # equal permanents in equal states keep equal keys
                # (after a newline, which the key's repr of the fields never holds: a name
                # with "|tapped=" in it can't cut the key short)
                base = p.key.rsplit(_STATE, 1)[0]
                replaced[pid] = replace(p, tapped=state, key=f"{base}{_STATE}{state}" if base else "")
    gone = set()
    for k, pid in enumerate(_id_list(changes, "remove")):
        expect(board.find(pid) is not None, f"no permanent {pid!r} on the kept board", f"changes.remove[{k}]")
        gone.add(pid)
        replaced.pop(pid, None)
    added = changes.get("add", [])
    expect(isinstance(added, list), "'add' must be a list of permanents", "changes.add")
    board = _changed_board(board, replaced, gone)
    if added:
        more = read_board(added, "changes.add", known=board.ids)
        board = Board(board.permanents.joined(more.permanents)
                      if isinstance(board.permanents, PermanentsByBody) and isinstance(more.permanents, PermanentsByBody)
                      else tuple(board.permanents) + tuple(more.permanents))
    if gone or added:
        ids = board.ids
        for p in board.bodies:
            expect(not p.attached_to or p.attached_to in ids,
                   f"'attached_to' of {p.id!r} names a permanent no longer on the board", "changes.remove")
        check_triggers(board)
    player = kept.player
    if "player" in changes:
        expect(isinstance(changes["player"], dict), "'player' must be an object", "changes.player")
        player = {**player, **changes["player"]}
        read_player(player)
    return KeptBoard.of(player, board, before=kept.board)


def _changed_board(board: Board, replaced: dict, gone: set) -> Board:
    """``board`` with the permanents of ``replaced`` (``{id: permanent}``) in their new
    state and those of ``gone`` removed."""
    if not replaced and not gone:
        return Board(board.permanents)  # (a new board: its memo starts empty, as after any change)
    if isinstance(board.permanents, PermanentsByBody):
        return Board(board.permanents.changed(replaced, gone)).after_state_change(board)
    return Board(tuple(replaced.get(p.id, p) for p in board.permanents if p.id not in gone))


#: what separates a kept permanent's key (repr of its fields) from its tapped state
_STATE = "\ntapped="


def _id_list(changes: dict, key: str) -> list:
    ids = changes.get(key, [])
    expect(isinstance(ids, list) and all(isinstance(i, str) for i in ids),
           f"'{key}' must be a list of permanent ids", f"changes.{key}")
    return ids


def _mana_list(spell: dict, key: str) -> tuple:
    value = spell.get(key, [])
    if isinstance(value, str):
        value = [value]
    expect(isinstance(value, list), f"'{key}' must be a list of mana strings", f"spell.{key}")
    return tuple(mana_string(v, f"spell.{key}[{i}]") for i, v in enumerate(value))


#: spells already read, by everything but their id: a hand is asked about again and
#: again (``castable``, then ``pay`` of one of its cards), and copies share a read
_SPELLS = ReadCache()
_HANDS = ReadCache()  # hands read, by their text


def read_spell(spell) -> Spell:
    """Read one spell object. Identical spells (all but the id) are read once."""
    expect(isinstance(spell, dict), "'spell' must be an object with at least 'mana_cost'", "spell")
    sid = spell.get("id", "")
    key = repr([(k, v) for k, v in spell.items() if k != "id"])  # spells written alike share a key
    template = read_once(_SPELLS, key, lambda: _read_spell({k: v for k, v in spell.items() if k != "id"}))
    expect(isinstance(sid, str), "'id' must be text", "spell.id")
    if sid in (POOL, GRAVEYARD) or sid.startswith(DELVED):
        raise RequestError(f"{sid!r} is a word plans use; choose another id", "spell.id")
    return copied_with(template, id=sid) if sid else template  # the id is not checked: no checks run again


def _read_spell(spell: dict) -> Spell:
    no_unknown_fields(spell, SPELL_FIELDS, "spell", "the spell")
    raw = spell.get("mana_cost")
    expect(raw is None or raw == "" or (isinstance(raw, str) and raw.strip()),
           "'mana_cost' is blank: use null (or \"\") for no mana cost, or {0}", "spell.mana_cost")
    # Scryfall writes an absent mana cost as "" (CR 202.1b)
    mana_cost = None if raw is None or raw == "" else mana_string(raw, "spell.mana_cost")
    printed = None
    if "alternative_cost" in spell:  # CR 118.9: paid rather than the mana cost; the rest still applies
        printed, mana_cost = mana_cost, mana_string(spell["alternative_cost"], "spell.alternative_cost")
    x = whole_number(spell, "x", "spell.x", 0)
    cost = SpellCost(mana_cost, x, _mana_list(spell, "additional"), _mana_list(spell, "increase"),
                     _mana_list(spell, "reduce"), whole_number(spell, "minimum", "spell.minimum", 0))
    cost.check()
    kicker, kicked = _choice(spell, "kicker", "kicked", False)
    multikicker, kicks = _choice(spell, "multikicker", "kicks", 0)
    for key in ("name", "type_line", "oracle_text"):
        expect(isinstance(spell.get(key, ""), str), f"'{key}' must be text", f"spell.{key}")
    value = whole_number(spell, "value", "spell.value", None) if "value" in spell else None
    changes_given = any(k in spell for k in ("increase", "reduce", "minimum"))
    text = read_spell_text(spell.get("type_line", ""), spell.get("oracle_text", ""), spell.get("name", ""))
    # the request's own flags and parts are the caller's word: the text is not counted again
    keyword = lambda key: boolean(spell, key, f"spell.{key}") if key in spell else key in text.keywords  # noqa: E731
    additional_given = "additional" in spell
    return Spell(cost, name=spell.get("name", ""), type_line=spell.get("type_line", ""),
                 convoke=keyword("convoke"), improvise=keyword("improvise"), delve=keyword("delve"), value=value,
                 kicker=kicker, kicked=kicked, multikicker=multikicker, kicks=kicks, printed=printed,
                 commander=boolean(spell, "commander", "spell.commander"), given_colors=_spell_colors(spell),
                 targets=whole_number(spell, "targets", "spell.targets", 1),
                 cost_changes_given=changes_given,
                 changeling=bool(re.search(r"(?m)^Changeling\b", spell.get("oracle_text", ""))),
                 reductions=() if changes_given else text.reductions,
                 sacrifices=() if additional_given else text.sacrifices,
                 discards=() if additional_given else text.discards,
                 alternatives=() if "alternative_cost" in spell else text.alternatives,
                 alternative_costs=() if "alternative_cost" in spell else text.alternative_costs,
                 cost_unread=tuple((line, why) for line, why in text.unread
                                   if not (additional_given and why.startswith("an additional cost"))
                                   and not (changes_given and not why.startswith("an additional cost"))))


def _spell_colors(spell: dict):
    """A spell's ``colors`` when given (devoid, a color indicator), else None."""
    if "colors" not in spell:
        return None
    colors = spell["colors"]
    expect(isinstance(colors, list) and all(isinstance(c, str) and c in COLORS for c in colors),
           "'colors' must be a list of W, U, B, R, G", "spell.colors")
    return frozenset(colors)


def _choice(spell: dict, cost_key: str, choice_key: str, default) -> tuple:
    """(cost, choice) of a kicker (``kicked``: true, false or "if_possible") or a
    multikicker (``kicks``: a count or "max"); the choice needs its cost."""
    if cost_key not in spell:
        expect(choice_key not in spell, f"'{choice_key}' needs a '{cost_key}'", f"spell.{choice_key}")
        return None, default
    cost = mana_string(spell[cost_key], f"spell.{cost_key}")
    choice = spell.get(choice_key, default)
    if cost_key == "kicker":
        expect(isinstance(choice, bool) or choice == IF_POSSIBLE,
               f"'kicked' must be true, false or \"{IF_POSSIBLE}\", not {choice!r}", "spell.kicked")
        return cost, choice
    expect(not any(s.kind == VARIABLE for s in cost.symbols), "a multikicker with X is not supported",
           "spell.multikicker")
    if choice == MOST:
        expect(any(s.kind != "generic" or s.amount for s in cost.symbols),
               f"a multikicker of {cost} costs nothing, so it can be paid any number of times: there is no most; "
               f"give 'kicks' a number", "spell.kicks")
        return cost, MOST
    expect(is_whole_number(choice), f"'kicks' must be a whole number or \"{MOST}\", not {choice!r}", "spell.kicks")
    return cost, whole_number(spell, "kicks", "spell.kicks", default)


def read_player(player) -> Player:
    """The paying player (``player``); players given alike are read once."""
    if player is None:
        return DEFAULT_PLAYER
    expect(isinstance(player, dict), "'player' must be an object", "player")
    return read_once(_PLAYERS, repr(player), lambda: _read_player(player))


_PLAYERS = ReadCache()  # players read, by their text


def _read_player(player: dict) -> Player:
    no_unknown_fields(player, PLAYER_FIELDS, "player", "the player")
    life = whole_number(player, "life", "player.life", 20)
    pool_text = player.get("pool", "")
    expect(isinstance(pool_text, str), "'pool' must be a mana string such as '{R}{R}'", "player.pool")
    try:
        pool = parse_mana(pool_text, source=POOL)
    except ManaplanError as e:
        raise RequestError(e.message, "player.pool") from None
    identity = None
    if "commander_identity" in player:
        identity = player["commander_identity"]
        expect(isinstance(identity, list) and all(isinstance(c, str) and c in COLORS for c in identity),
               "'commander_identity' must be a list of W, U, B, R, G (empty for a colorless commander)",
               "player.commander_identity")
        identity = frozenset(identity)
    return Player(life, pool, whole_number(player, "graveyard", "player.graveyard", 0), identity,
                  whole_number(player, "energy", "player.energy", 0),
                  whole_number(player, "spells_cast", "player.spells_cast", None) if "spells_cast" in player else None)


# -- writing ------------------------------------------------------------------------------

def _write_sequence(plans: tuple, life: int) -> list:
    """``[{"id", "total_cost", "plan"}, ...]`` for spells paid one after another, each
    plan's ``lethal`` judged on the life the ones before it left."""
    out = []
    for spell, plan in plans:
        entry = {"id": spell.id, "total_cost": str(plan.total_cost), "plan": write_plan(plan, life)}
        if spell.face is not None:
            entry["face"] = spell.face
        entry.update(_kicks(plan))
        out.append(entry)
        life -= plan.life_paid
    return out


def _land_entry(land, landfall: tuple, life: int) -> dict:
    """How the land of ``best_turn`` entered: tapped or not, the life it took (``lethal``
    when that leaves none: legal, CR 119.4, but the game is lost), its face (a two-faced
    card), whether it returns a land, the landfall mana it set off."""
    out = {"tapped": land.tapped, "life": land.life}
    if land.life and land.life >= life:
        out["lethal"] = True
    if land.card.face is not None:
        out["face"] = land.card.face
    if land.returns_land:
        out["returns_a_land"] = True
    if landfall:
        out["landfall"] = [{"permanent": pid, "adds": format_types(alt)} for pid, alt in landfall]
    return out


def _kicks(plan: Plan) -> dict:
    """How a plan's spell was kicked, where it has a kicker or a multikicker."""
    out: dict[str, bool | int] = {}
    if plan.kicked is not None:
        out["kicked"] = plan.kicked
    if plan.kicks is not None:
        out["kicks"] = plan.kicks
    return out


def write_payment(problem: PaymentProblem, result) -> dict:
    """One spell's answer (``pay``, ``max_x``, ``can_pay``, a card of ``castable``) in the
    protocol's shape (without the request's ``id``): a plan, a yes, a no with its
    reason, or undecided."""
    if isinstance(result, Plan):
        out = {"payable": True, "total_cost": str(result.total_cost),
               "plan": write_plan(result, problem.player.life), "reason": None}
        if result.x is not None:
            out["x"] = result.x
        out.update(_kicks(result))
        return out
    if isinstance(result, Payable):
        return {"payable": True, "reason": None}
    if isinstance(result, Unpayable):
        return {"payable": False, "reason": write_reason(result)}
    if isinstance(result, Undecided):
        return {"payable": None, "reason": undecided_reason(result)}
    raise TypeError(f"not an answer value: {result!r}")


def write_castable(problem: PaymentProblem, result: Castable) -> dict:
    """``castable``: each card of the hand as ``pay`` writes it, with its id."""
    return {"castable": [{"id": spell.id, **write_payment(problem, answer)} for spell, answer in result.answers]}


def write_several(problem: PaymentProblem, result) -> dict:
    """``sequence`` and ``best_turn``: the plans in order (a best turn with its value, its
    land and what it did not follow); a sequence that fails, or either undecided, as
    one spell's answer is written."""
    if isinstance(result, BestTurn):
        land = result.land
        life = problem.player.life - (land.life if land is not None else 0)
        out = {"cast": [spell.id for spell, _ in result.plans], "value": result.value,
               "land": land.id if land is not None else None,
               "sequence": _write_sequence(result.plans, life), "optimal": result.optimal}
        if land is not None:
            out["land_entry"] = _land_entry(land, result.landfall, problem.player.life)
        if result.not_modelled:
            out["not_modelled"] = [{"id": pid, "reason": why} for pid, why in result.not_modelled]
        return out
    if isinstance(result, Sequence):
        return {"payable": True, "sequence": _write_sequence(result.plans, problem.player.life), "reason": None}
    return write_payment(problem, result)


@dataclass(frozen=True)
class ReadOutOfTime:
    """A request whose time guard ran out while its permanents were read (reading counts,
    docs/protocol.md "Limits"): answered undecided, as a solve that runs out is, in its
    query's shape (``castable``: each card of the hand; ``total_cost``, which has no
    undecided answer: an error)."""

    query: str
    hand: tuple
    permanents: int
    what: str = ""

    @classmethod
    def of(cls, request: dict, e: ReadingTimeout) -> "ReadOutOfTime":
        return cls(request.get("query", PAY), e.hand, e.permanents, e.what)

    def undecided(self, time_limit: float) -> Undecided:
        if self.what:
            return Undecided(TIMEOUT, f"no answer within {time_limit:g} s; the time ran out while {self.what} were read")
        return Undecided(TIMEOUT, f"no answer within {time_limit:g} s; the time ran out while the request's "
                                  f"{self.permanents:,} permanent{'s were' if self.permanents != 1 else ' was'} read")

    def write(self, result: Undecided) -> dict:
        if self.query == TOTAL_COST:
            raise RequestError(result.message, "permanents")
        reason = undecided_reason(result)
        if self.query == CASTABLE:
            return {"castable": [{"id": card.id, "payable": None, "reason": reason} for card in self.hand]}
        if self.query == CHECK:
            return {"verdict": "unknown", "legal": None, "payable": None, "reason": reason}
        return {"payable": None, "reason": reason}


def write(problem: PaymentProblem, result) -> dict:
    """The answer to ``problem`` in the protocol's shape, as its query's entry writes it
    (manaplan.queries)."""
    return magic_query(problem.query).write(problem, result)


def write_total_cost(problem: PaymentProblem, result) -> dict:
    """``total_cost``: the total as written before announcing (null where a choice decides
    it), each distinct locked-in total with its announcement, the parts and where each
    came from, the spell's mana value."""
    out = {"total_cost": result.written, "mana_value": result.mana_value,
           "parts": [_write_part(*part) for part in result.parts]}
    if result.totals and (len(result.totals) > 1 or result.written is None):
        out["totals"] = [{"total_cost": str(total),
                          "announced": [{"symbol": str(s), "as": h} for s, h in
                                        zip(choice_symbols(problem_cost_symbols(problem)), a.halves)]}
                         for total, a in result.totals]
    if result.cut:
        out["totals_cut"] = True
    if result.unread:
        out["unread"] = [{"permanent": who, "text": line} for who, line in result.unread]
    return out


def _write_part(what: str, cost, optional: bool, source: str = "", text: str = "") -> dict:
    """One part of a ``total_cost`` answer: where it came from, its mana (or a floor's
    amount), whether it is the player's choice, and the permanent whose text added it."""
    if what == "discard":
        n, kind = cost.split(" ", 1)
        out = {"from": what, "cards": int(n), "kind": kind}
    else:
        out = {"from": what, **({"amount": cost} if what == "minimum" else {"kinds": cost.split(", ")}
                                if what == "sacrifice" else {"cost": cost})}
    if optional:
        out["optional"] = True
    if source:
        out["permanent"] = source
    if text:
        out["text"] = text
    return out


def problem_cost_symbols(problem: PaymentProblem) -> tuple:
    """The symbols the spell's announcements are about (its kicker and kicks as fixed)."""
    spell = problem.spell
    fixed = spell.with_kicks(spell.kicked is True, spell.kicks if isinstance(spell.kicks, int) else 0)
    return fixed.cost.added_symbols
