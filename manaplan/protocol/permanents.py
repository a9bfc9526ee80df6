"""Magic permanents as requests give them: a permanent's fields, its card text or a
Scryfall card object read into a :class:`~manaplan.model.board.Permanent`, and a
board of them read into a :class:`~manaplan.model.board.Board`, held by body
(:class:`~manaplan.model.board.PermanentsByBody`: a board of thousands of permanents repeats a
handful of bodies, each read once). The rest of a Magic request is read by
:mod:`manaplan.protocol.mtg`.

>>> board = read_board([{"id": "f1", "type_line": "Basic Land — Forest"},
...                     {"id": "f2", "type_line": "Basic Land — Forest"}], "permanents")
>>> [p.id for p in board.permanents], len(board.kinds)
(['f1', 'f2'], 1)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import compress

import orjson

from ..model.errors import ManaplanError, ReadingTimeout, RequestError
from ..model.haste import has_haste_keyword
from ..model.mana import ManaCost
from ..model.oracle import LOYALTY_ACTIVATION, CardText, chosen_color_code, is_trigger_line, read_card_text
from ..model.plan import GRAVEYARD, POOL
from ..model.restrictions import parse_restriction
from ..model.abilities import Ability, AbilityCost, Output, check_bounded
from ..model.board import TRIGGERS, Board, Permanent, PermanentsByBody, split_type_line
from ..model.symbols import COLORS, MAX_AMOUNT
from ..model.triggers import ManaTrigger, check_board
from .. import scryfall
from .common import boolean, expect, no_unknown_fields, whole_number
from .large_requests import PermanentTexts
from .read_cache import ReadCache
from .reading_time import EVERY, SMALL_BOARD, check_reading_time, collector_paused


PERMANENT_FIELDS = ("id", "name", "type_line", "oracle_text", "abilities", "tapped", "summoning_sick",
                    "counters", "chosen_color", "snow", "colors", "mana_cost", "triggers", "attached_to",
                    "chosen_type", "exiled_colors", "timestamp", "power")


ABILITY_FIELDS = ("cost", "add", "restrict", "instant_only", "mana_ability", "damage", "restrict_abilities")


def read_board(perms, at: str, known=(), parsed: bool = False) -> Board:
    """Read a board's permanents (ids distinct, also from ``known``; Auras attached to
    permanents of the board) and check its triggers. ``perms``: a list, or a large
    request's :class:`PermanentTexts`; ``parsed``: the permanents were just parsed from
    JSON text (their values are JSON's: lists, not tuples; no NaN).

    The board is held by body (:class:`PermanentsByBody`), each permanent's body found by its
    fields but its id as JSON and each body read once: a board of thousands of
    permanents costs little more than parsing it. One with something to be said about a
    permanent is read permanent by permanent, which says where it is wrong."""
    known = set(known)
    key = _board_key(perms, known) if parsed and type(perms) is list and \
        WHOLE_BOARDS_FROM <= len(perms) <= WHOLE_BOARDS_UP_TO else None
    board = _WHOLE_BOARDS.get(key) if key is not None else None
    if board is not None:  # the same permanents as a request before: the same board (immutable)
        return board
    with collector_paused(len(perms) if isinstance(perms, (list, PermanentTexts)) else 0):
        board = _read_by_body(perms, at, known, parsed)
        if board is None:
            board = _read_each(perms.parsed() if isinstance(perms, PermanentTexts) else perms, at, known)
    check_triggers(board)
    if key is not None:
        _WHOLE_BOARDS.put(key, board)
    return board


#: boards read whole, by their permanents' JSON (and the other ids of the request): an
#: engine that sends its whole board with each question (not a kept board) has it read
#: once (at 320 permanents, reading was most of a warm ``serve`` answer), the
#: few boards of its last questions (an AI step's ``castable`` then ``pay``): each board
#: kept alive with what was worked out for it costs every later request (the collector
#: walks it; 256 boards kept cost a plain 20-permanent request 12% of its CPU).
#: Bounded as every ReadCache is.
_WHOLE_BOARDS = ReadCache(most=4, most_chars=2 * 1024 * 1024)
#: boards of fewer permanents cost less to read than to key; of more, more to key than the
#: cache keeps (a key of over 128 KB is not kept: a board that large is better kept by name)
WHOLE_BOARDS_FROM, WHOLE_BOARDS_UP_TO = 16, 1000


def _board_key(perms: list, known: set) -> bytes | None:
    """The key of a board read whole: its permanents as JSON (as parsed from a request's
    text: only JSON's values) and the request's other ids, which its ids must not meet."""
    try:
        text = orjson.dumps(perms)
    except (TypeError, orjson.JSONEncodeError):
        return None
    return text + b"|" + "|".join(sorted(known)).encode() if known else text


def check_triggers(board: Board) -> None:
    """Check the board's triggers (``model.triggers.check_board``) where a body has any:
    a board of thousands of twins without triggers is not walked permanent by permanent."""
    if TRIGGERS in board.traits:
        check_board(board.permanents)


def _read_by_body(perms, at: str, known: set, parsed: bool) -> Board | None:
    """The board as :class:`PermanentsByBody`, or None where a permanent has something to be said
    about it (then :func:`_read_each` says it). Each permanent's fields but its id and
    name, as JSON, name its body; a body not met before is read once, here. Names are
    held per id, unless the body's text names one of them or it has triggers:
    then each name is a body. ``perms`` is a list of permanents, or
    :class:`PermanentTexts` (a large request's permanents as text)."""
    if isinstance(perms, PermanentTexts):
        found = perms.kinds()
    elif type(perms) is list:
        found = _kinds_of(perms, parsed)
    else:
        return None
    if found is None:
        return None
    try:
        return _board_by_body(*found, at, known, json_alike=parsed and type(perms) is list,
                              in_order=type(perms) is list)
    except ReadingTimeout:
        if isinstance(perms, PermanentTexts):
            perms.left_over = (perms.left_over, found)  # (freed with the request, after the answer)
        raise


def _board_by_body(distinct: list, kind_of: list, order: list, names: list | None, at: str, known: set,
                   json_alike: bool = False, in_order: bool = False) -> Board | None:
    """:func:`_read_by_body` once each permanent's body is found. ``json_alike``: the
    fields were parsed from JSON by ``_kinds_of``, so that fields written alike are
    equal (a body kept by its JSON is one of those too: :func:`_remember_json`);
    ``in_order``: ``distinct`` is in the order of each body's first permanent (as
    ``_kinds_of`` finds them), which the board's kinds keep unless a body is split by
    names."""
    kinds, body_of, named = [], {}, False
    large = len(order) >= SMALL_BOARD  # (a small board is read whole between two looks at the clock)
    kept_body = _BODIES_BY_JSON.lookup()
    for k, (text, fields, has_name), pids, own in _members(distinct, kind_of, order, names):
        if large:
            check_reading_time(len(order))
        if "object" in fields and (fields["object"] != scryfall.CARD_OBJECT or "instance" in fields or has_name):
            return None  # (not a card, or a pasted card whose instance or name was not kept as _kinds_of keeps them)
        if not has_name:  # (the usual: one body, read before)
            kept = kept_body(text)
            found = (((kept[1] if kept is not None and (json_alike or kept[0] == fields)
                       else _body_or_none(pids[0], fields, at)), tuple(pids), None),)
        else:
            found = tuple(_bodies_of_kind(fields, pids, own, at))
            in_order = in_order and len(found) == 1
        for body, ids, own_names in found:
            if body is None:
                return None
            kinds.append((body, ids))
            if len(ids) <= _IDS_AT_ONCE:
                body_of.update(dict.fromkeys(ids, body))
            else:
                for start in range(0, len(ids), _IDS_AT_ONCE):  # (a step at a time: the guard is looked at between)
                    check_reading_time(len(order))
                    body_of.update(dict.fromkeys(ids[start:start + _IDS_AT_ONCE], body))
            named = named or own_names is not None
    check_reading_time(len(order))
    if (len(body_of) < len(order) or any(pid in body_of for pid in known) or "" in body_of or POOL in body_of
            or GRAVEYARD in body_of or "\0" + DELVED in "\0" + "\0".join(order)):
        return None  # (the long way names the permanent)
    hosts = {body.attached_to for body, _ in kinds if body.attached_to}
    if hosts and not all(host in body_of or host in known for host in hosts):
        return None
    board = Board(PermanentsByBody(tuple(kinds), tuple(order), body_of, names if named else None,
                                   in_order=in_order))
    board.memo["ids"] = body_of.keys()  # (a set-like view: 800,000 ids hashed once, not twice)
    return board


#: how many ids are put in the table of bodies in one call (about 20 ms)
_IDS_AT_ONCE = 65_536


def _members(distinct: list, kind_of: list, order: list, names: list | None):
    """(number, body's fields, its ids, their names or None) for each body of ``distinct``;
    a few bodies of a large board are picked out in C (``compress``: a pass over the
    board for each), more gathered permanent by permanent in one pass (a board of ten
    kinds of land: 15 µs picked out, 2 µs gathered)."""
    if len(distinct) == 1:
        yield 0, distinct[0], order, names
        return
    if len(distinct) <= _PICKED_OUT and len(order) > 64:
        for k, kind in enumerate(distinct):
            check_reading_time(len(order))
            ids = list(compress(order, map(k.__eq__, kind_of)))
            own = list(compress(names, map(k.__eq__, kind_of))) if names is not None else None
            yield k, kind, ids, own
        return
    held: list[list] = [[] for _ in distinct]
    named: list[list] | None = [[] for _ in distinct] if names is not None else None
    for start in range(0, len(order), _IDS_AT_ONCE):  # (the guard looked at between steps)
        check_reading_time(len(order))
        end = start + _IDS_AT_ONCE
        for pid, k in zip(order[start:end], kind_of[start:end]):
            held[k].append(pid)
        if named is not None and names is not None:
            for name, k in zip(names[start:end], kind_of[start:end]):
                named[k].append(name)
    for k, kind in enumerate(distinct):
        yield k, kind, held[k], named[k] if named is not None else None


#: at most this many bodies of a large board are picked out one pass each (:func:`_members`)
_PICKED_OUT = 4


def _bodies_of_kind(fields: dict, pids: list, names: list, at: str):
    """(body, ids, their names or None) for the permanents ``pids`` whose fields but the
    id and name are ``fields``, named ``names``: one body with each id's name beside it,
    unless a name matters (the body's text says it, or it has triggers), then a body per
    name; (None, ...) if a body can't be read this way (the long way says why)."""
    body = _body_kept({"name": names[0], **fields}) or _body_or_none(pids[0], {"name": names[0], **fields}, at)
    if body is None or not body.triggers and not _names_said(fields, names):
        yield body, tuple(pids), names
        return
    by_name: dict = {}
    for pid, name in zip(pids, names):
        by_name.setdefault(name, []).append(pid)
    for name, same in by_name.items():
        yield _body_or_none(same[0], {"name": name, **fields}, at), tuple(same), None


def _body_kept(fields: dict) -> Permanent | None:
    """The body read before from ``fields`` (all but the id: :func:`_remember_json`),
    or None: the same JSON, and equal as Python values too (a tuple is no list, NaN no
    null). A TypeError or orjson's error where ``fields`` are what JSON can't write."""
    kept = _BODIES_BY_JSON.get(orjson.dumps(fields))
    return kept[1] if kept is not None and kept[0] == fields else None


#: the fields of a permanent that may say its name (card text that names the card)
_SAYING_FIELDS = ("oracle_text", "abilities", "triggers")


def _names_said(fields: dict, names: list) -> bool:
    """Whether a permanent's fields may say one of ``names`` ("Sacrifice Ashnod's Altar"):
    its card text, explicit abilities or triggers hold one of them as text (a name JSON
    writes with an escape is taken to be said); or a name is of two faces (``A // B``:
    read as its faces). Nothing else reads a name."""
    said = [fields[k] for k in _SAYING_FIELDS if k in fields]
    joined = "".join(names)
    if " // " in joined:  # (a name of two faces: the permanent is read as its faces, scryfall.has_faces)
        return True
    if not said:
        return False
    text = orjson.dumps(said).decode()
    return '"' in joined or "\\" in joined or not joined.isprintable() or any(map(text.__contains__, names))


def _body_or_none(pid: str, fields: dict, at: str) -> Permanent | None:
    """The permanent ``pid`` with ``fields``, read; None if it can't be (the long way
    says where)."""
    try:
        return read_permanent({"id": pid, **fields}, at)
    except ManaplanError:
        return None


def _kinds_of(perms: list, parsed: bool) -> tuple[list, list, list, list | None] | None:
    """(the distinct bodies met, each as (its fields but the id and name as JSON, those
    fields, whether it is named); each permanent's number among them; the ids; each
    one's name ("" for none), or None where none has one), or None where a permanent is no
    object, its id no text, or its fields what JSON can't write. Each permanent is
    copied but its id and its JSON looked up (a pasted Scryfall card's id is its
    ``instance``, and Scryfall's ``id``, the printing's, no part of its body; its name
    stays in its body: as :func:`read_permanent` keys it). Fields that are not what JSON gives (a
    tuple for a list, NaN for null: possible only in ``perms`` made in Python, not
    ``parsed`` from text) must be equal too. A name that is not text, or empty, stays
    among the fields (read as given)."""
    numbered: tuple[dict, dict] = ({}, {})  # (the unnamed bodies, the named) by their JSON
    distinct: list[tuple[bytes, dict, bool]] = []
    kind_of, order, names = [], [], []
    dumps, card = orjson.dumps, scryfall.CARD_OBJECT
    for i, p in enumerate(perms):
        if not i % EVERY:
            check_reading_time(len(perms))
        if type(p) is not dict:
            return None
        fields = p.copy()
        pid = fields.pop("id", None)
        pasted = "object" in fields and fields["object"] == card
        if pasted and "instance" in fields:  # a pasted card: its instance is the permanent's id
            pid = fields.pop("instance")
        if type(pid) is not str:
            return None
        name = fields["name"] if "name" in fields and not pasted else ""  # (a pasted card's name is the card's:
        if type(name) is str and name:                                     # kept in its body, as read_permanent
            del fields["name"]                                             # keys it, faces and all)
        else:
            name = ""
        try:
            text = dumps(fields)
        except (TypeError, orjson.JSONEncodeError):
            return None
        named = name != ""
        k = numbered[named].get(text)
        if k is None:
            k = numbered[named][text] = len(distinct)
            distinct.append((text, fields, named))
        elif not parsed and distinct[k][1] != fields:
            return None
        kind_of.append(k)
        order.append(pid)
        names.append(name)
    return distinct, kind_of, order, names if numbered[True] else None


def _read_each(perms: list, at: str, known: set) -> Board:
    """The board read permanent by permanent; errors say which."""
    parsed = []
    seen = set(known)
    for i, p in enumerate(perms):
        if not i % EVERY:
            check_reading_time(len(perms))
        perm = _read_before(p) or read_permanent(p, f"{at}[{i}]")
        if perm.id in seen:
            pasted = isinstance(p, dict) and p.get("object") == "card"
            raise RequestError(f"duplicate permanent id {perm.id!r}" + (
                " (a pasted Scryfall card's id names its printing: give each copy an \"instance\" of its own, "
                "which becomes the permanent's id)" if pasted else ""), f"{at}[{i}].id")
        seen.add(perm.id)
        parsed.append(perm)
    for i, perm in enumerate(parsed):
        if perm.attached_to and perm.attached_to not in seen:
            raise RequestError(f"'attached_to' names no permanent on the board: {perm.attached_to!r}",
                               f"{at}[{i}].attached_to")
    return Board(tuple(parsed))


def mana_string(value, at: str) -> ManaCost:
    """A field that is a mana string (a mana cost, mana kept open), read; a located
    error if it is not one."""
    expect(isinstance(value, str), f"expected a mana string such as '{{1}}{{W}}', not {value!r}", at)
    try:
        return ManaCost.parse(value)
    except ManaplanError as e:
        raise RequestError(e.message, at) from None


#: permanents already read, by everything but their id: a board of 300 lands repeats a
#: handful of texts, and reading text is the slow part
_BODIES = ReadCache()


def read_permanent(p, at: str) -> Permanent:
    """Read one permanent. Identical permanents (all but the id, or a pasted card's
    ``instance``) are read once: a board of 300 lands repeats a handful of bodies. A
    permanent given as a Scryfall card (or with two faces) is turned into the protocol's
    fields first (:mod:`manaplan.scryfall`)."""
    expect(isinstance(p, dict), "a permanent must be an object with an 'id'", at)
    pasted = p.get("object") == scryfall.CARD_OBJECT
    pid = p.get("instance", p.get("id")) if pasted else p.get("id")
    where = f"{at}.instance" if pasted and "instance" in p else f"{at}.id"
    expect(isinstance(pid, str) and pid != "", "every permanent needs an 'id' (non-empty text)", where)
    expect(pid != POOL, "'pool' is reserved for floating mana; choose another id", where)
    expect(pid != GRAVEYARD and not pid.startswith(DELVED),
           f"{pid!r} is reserved for the cards delve exiles; choose another id", where)
    key = repr([(k, v) for k, v in p.items() if k != "id" and not (pasted and k == "instance")])
    template = _BODIES.get(key)
    if template is None:
        twin = _named_twin(p, key, pasted)  # (another name, the same card: read once)
        if twin is not None:
            twin.__dict__["id"] = pid
            return twin
        template = read_once(_BODIES, key, lambda: _unnamed(_read_body(p, key, at), p, pasted))
    _remember_json(p, template, pasted)
    return template.with_id(pid)


#: permanents read, by their fields but their name, where nothing of them depends on the
#: name: a board that names each of its 100,000 Forests reads one Forest
_UNNAMED = ReadCache()


def _named_twin(p: dict, key: str, pasted: bool) -> Permanent | None:
    """A permanent read before whose fields are ``p``'s but its name (which neither its
    fields say, :func:`_names_said`, the one test of the reader by body too), as ``p``
    names it; None if there is none."""
    name = p.get("name")
    if pasted or not isinstance(name, str) or not name:
        return None
    rest = {k: v for k, v in p.items() if k not in ("id", "name")}
    if _names_said(rest, [name]):
        return None
    twin = _UNNAMED.get(repr(list(rest.items())))
    if twin is None:
        return None
    copy = twin.with_id(twin.id)
    copy.__dict__["name"] = name
    copy.__dict__["key"] = key
    copy.__dict__["unnamed_key"] = (key, twin.unnamed_key[1])
    return copy


def _unnamed(template: Permanent, p: dict, pasted: bool) -> Permanent:
    """The permanent with its key but its name (and the name in its card text written
    ``~``): permanents that differ only in name group as twins. Kept with the
    name where something on it depends on names (its triggers, a chosen name)."""
    name = p.get("name", "")
    if pasted or not name or not isinstance(name, str) or template.triggers:
        return template
    fields = [(k, v.replace(name, "~") if k == "oracle_text" and isinstance(v, str) else v)
              for k, v in p.items() if k not in ("id", "name")]
    object.__setattr__(template, "unnamed_key", (template.key, repr(fields)))
    if not template.unread and not _names_said({k: v for k, v in p.items() if k not in ("id", "name")}, [name]):
        _UNNAMED.put(repr(fields), template)  # (a twin of another name reads as this one: see _names_said)
    return template


def _remember_json(p: dict, template: Permanent, pasted: bool = False) -> None:
    """Keep ``template`` under its fields as JSON too, for :func:`_read_before` and
    :func:`_read_by_body`: only fields that are what their JSON parses back to (a
    board parsed from the same text then needs no other check). A pasted Scryfall
    card's fields are all but its ``instance`` and Scryfall's ``id``, as
    :func:`read_permanent` keys it."""
    fields = {k: v for k, v in p.items() if k != "id" and not (pasted and k == "instance")}
    try:
        text = orjson.dumps(fields)
    except (TypeError, orjson.JSONEncodeError):
        return  # (what JSON can't hold is read the long way each time)
    if orjson.loads(text) != fields:
        return  # (a tuple, a NaN: read the long way)
    _BODIES_BY_JSON.put(text, (fields, template))


def _read_before(p) -> Permanent | None:
    """The permanent, if its body was read before (by :func:`read_permanent`) and its id
    is one a permanent may have; else None (then read it, and say what is wrong). A
    board of thousands of permanents repeats a handful of bodies: this is its hot path."""
    if type(p) is not dict:
        return None
    pasted = p.get("object") == scryfall.CARD_OBJECT  # (a pasted card: its ``instance`` is the id)
    if "object" in p and not pasted:
        return None
    pid = p.get("instance", p.get("id")) if pasted else p.get("id")
    if type(pid) is not str or not pid or pid == POOL or pid == GRAVEYARD or pid.startswith(DELVED):
        return None
    # (as _remember_json writes them: inline, the hot path)
    fields = {k: v for k, v in p.items() if k != "id" and not (pasted and k == "instance")}
    try:
        body = _body_kept(fields)
    except (TypeError, orjson.JSONEncodeError):
        return None
    return body.with_id(pid) if body is not None else None


#: how the ids of the cards delve exiles begin (``graveyard:1``): reserved
DELVED = GRAVEYARD + ":"


#: the bodies read, by their fields written as JSON (cheaper to write than repr): the
#: fields and the template
_BODIES_BY_JSON = ReadCache()


def _read_body(p: dict, key: str, at: str) -> Permanent:
    """A permanent as read, but for its id (a Scryfall object turned into the protocol's
    fields first), with what its grouping and the board's resolution ask of it worked
    out once: its twins copy it (``Permanent.with_id``)."""
    given = scryfall.permanent_fields(p, at) if scryfall.is_card(p) or scryfall.has_faces(p) else p
    no_unknown_fields(given, PERMANENT_FIELDS, at, "a permanent")
    try:
        template = _permanent_body({k: v for k, v in given.items() if k != "id"}, key)
    except ManaplanError as e:
        raise e.located(at) from None
    template.depends_on_board, template.taps_itself_and_another, template.self_contained, template.sacrifices_for_mana, template.plain_taps  # noqa: B018
    # (cached properties, filled before copying)
    return template


def read_once(cache: ReadCache, key: str, read):
    """What ``read()`` gives, kept in ``cache`` under ``key``: identical objects of a
    request (or of the requests of a session) are read once."""
    template = cache.get(key)
    if template is None:
        template = read()
        cache.put(key, template)
    return template


def _explicit(p: dict, field_name: str, read_one) -> list:
    """The permanent's list ``field_name`` read item by item; errors say where."""
    specs = p[field_name]
    expect(isinstance(specs, list), f"'{field_name}' must be a list", field_name)
    out = []
    for i, spec in enumerate(specs):
        try:
            out.append(read_one(spec))
        except ManaplanError as e:
            raise e.located(f"{field_name}[{i}]") from None
    return out


def _permanent_body(p: dict, key: str) -> Permanent:
    """Everything of a permanent but its id; error locations are relative to it."""
    name = p.get("name", "")
    type_line = p.get("type_line", "")
    oracle = p.get("oracle_text", "")
    for field_name, value in (("name", name), ("type_line", type_line), ("oracle_text", oracle)):
        expect(isinstance(value, str), f"'{field_name}' must be text", field_name)
    chosen = None
    if p.get("chosen_color") is not None:
        try:
            chosen = chosen_color_code(p["chosen_color"])
        except RequestError as e:
            raise RequestError(e.message, "chosen_color") from None
    text = CardText((), (), ())
    if "abilities" not in p or "triggers" not in p:
        state = _card_state(p)
        try:
            text = read_card_text(type_line, oracle, name, chosen, state)
        except ManaplanError as e:
            raise RequestError(e.message, "oracle_text") from None
    unread = text.unread
    if "abilities" in p:
        abilities: Sequence[Ability] = _explicit(p, "abilities", lambda spec: read_ability(spec, name))
        unread = tuple((line, why) for line, why in unread if is_trigger_line(line))
    else:
        abilities = text.abilities
    if "triggers" in p:
        triggers: Sequence[ManaTrigger] = _explicit(p, "triggers", lambda spec: ManaTrigger.parse(spec, chosen))
        unread = tuple((line, why) for line, why in unread if not is_trigger_line(line))
    else:
        triggers = text.triggers
    _check_card_is_known(p, type_line, oracle)
    attached_to = p.get("attached_to", "")
    expect(isinstance(attached_to, str), "'attached_to' must be the id of a permanent", "attached_to")
    counters = p.get("counters", {})
    expect(isinstance(counters, dict), "'counters' must be an object such as {\"storage\": 2}", "counters")
    for kind, n in counters.items():
        expect(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= MAX_AMOUNT,
               f"counter count must be a whole number from 0 to {MAX_AMOUNT}, not {n!r}", f"counters.{kind}")
    counters = {kind.lower(): n for kind, n in counters.items()}  # "Storage" is "storage"
    if any(a.cost.counter_kind == LOYALTY_ACTIVATION for a in abilities):
        counters.setdefault(LOYALTY_ACTIVATION, 1)  # its one loyalty ability this turn (CR 606.3)
    colors: frozenset[str] = frozenset()
    mana_cost = None
    if p.get("mana_cost"):
        mana_cost = mana_string(p["mana_cost"], "mana_cost")
        colors = mana_cost.colors
    if "colors" in p:
        expect(isinstance(p["colors"], list) and all(isinstance(c, str) and c in COLORS for c in p["colors"]),
               "'colors' must be a list of W, U, B, R, G", "colors")
        colors = frozenset(p["colors"])
    snow = boolean(p, "snow", "snow") or bool(re.search(r"\bSnow\b", type_line))
    types_part = " ".join(split_type_line(type_line)[0])
    creature = "Creature" in types_part
    if not type_line and p.get("summoning_sick"):
        creature = True  # the flag is only meaningful for creatures (CR 302.6)
    return Permanent("", name=name, abilities=tuple(abilities), tapped=boolean(p, "tapped", "tapped"),
                     # (a creature with haste may tap the turn it came: CR 702.10c)
                     summoning_sick=boolean(p, "summoning_sick", "summoning_sick") and not has_haste_keyword(oracle),
                     counters=tuple(sorted(counters.items())), snow=snow, creature=creature,
                     artifact="Artifact" in types_part, colors=colors, type_line=type_line, triggers=tuple(triggers),
                     attached_to=attached_to, mana_cost=mana_cost,
                     changeling=bool(re.search(r"(?m)^Changeling\b", oracle)), unread=tuple(unread),
                     grants=text.grants, replaces=text.replaces, spending=text.spending, key=key,
                     landfall=text.landfall, cost_effects=text.cost_effects, land_types=text.land_types,
                     gives_haste=text.gives_haste,
                     timestamp=whole_number(p, "timestamp", "timestamp", None) if "timestamp" in p else None,
                     power=whole_number(p, "power", "power", None) if "power" in p else None)


#: land subtypes (CR 205.3i): a land whose subtypes are all unknown is a misspelling
LAND_TYPES = ("Cave", "Cloud", "Desert", "Forest", "Gate", "Island", "Lair", "Locus", "Mine", "Mountain", "Planet",
              "Plains", "Power-Plant", "Sphere", "Swamp", "Tower", "Town", "Urza's")


def _card_state(p: dict) -> dict:
    """What card text may read off the permanent's state: its counters (storage lands,
    Everflowing Chalice), the creature type chosen as it entered (Cavern of Souls), the
    colors of the card it exiled (Chrome Mox)."""
    counters = p.get("counters", {})
    expect(isinstance(counters, dict), "'counters' must be an object such as {\"storage\": 2}", "counters")
    state: dict[str, object] = {"counters": {str(k).lower(): n for k, n in counters.items() if isinstance(n, int)}}
    if "chosen_type" in p:
        chosen = p["chosen_type"]
        expect(isinstance(chosen, str) and re.fullmatch(r"[A-Z][a-z'-]+", chosen or ""),
               "'chosen_type' must be a creature type such as \"Elf\"", "chosen_type")
        state["chosen_type"] = chosen
    if "exiled_colors" in p:
        colors = p["exiled_colors"]
        expect(isinstance(colors, list) and all(isinstance(c, str) and c in COLORS for c in colors),
               "'exiled_colors' must be a list of W, U, B, R, G (empty for a colorless card)", "exiled_colors")
        state["exiled_colors"] = tuple(colors)
    return state


def _check_card_is_known(p: dict, type_line: str, oracle: str) -> None:
    """A permanent given by a name alone, or a land whose only subtypes are unknown and
    that has no text, would make nothing without a word: an error. A vanilla creature
    or artifact (a type line, no text) is fine."""
    if "name" in p and not type_line and not oracle and "abilities" not in p and "triggers" not in p:
        raise RequestError(f"{p['name']!r} is given by its name alone: give its 'type_line' and 'oracle_text' (or "
                           "'abilities'), or the Scryfall card ('card'); manaplan has no card database", "name")
    types, subtypes = split_type_line(type_line)
    if "Land" in types and subtypes and not oracle and "abilities" not in p \
            and not any(t in LAND_TYPES for t in subtypes):
        raise RequestError(f"unknown land type{'s' if len(subtypes) > 1 else ''} {', '.join(subtypes)!s} in "
                           f"{type_line!r}: the basic land types are Plains, Island, Swamp, Mountain and Forest",
                           "type_line")


def read_ability(spec, name: str = "") -> Ability:
    """One ability from the protocol's explicit form ``{"cost": ..., "add": ...}``."""
    expect(isinstance(spec, dict), "an ability must be an object with 'cost' and 'add'", None)
    no_unknown_fields(spec, ABILITY_FIELDS, "", "an ability")
    expect("cost" in spec, "an ability needs a 'cost' (for example '{T}')", "cost")
    expect("add" in spec, "an ability needs an 'add' (for example '{G}')", "add")
    try:
        cost = AbilityCost.parse(spec["cost"], name)
    except ManaplanError as e:
        raise RequestError(e.message, "cost") from None
    try:
        output = Output.parse(spec["add"])
    except ManaplanError as e:
        raise e.located("add") from None
    flags = {}
    for key in ("instant_only", "mana_ability", "restrict_abilities"):
        if key in spec:
            expect(isinstance(spec[key], bool), f"'{key}' must be true or false", key)
            flags[key] = spec[key]
    restrict = spec.get("restrict", "")
    if restrict != "":
        try:
            parse_restriction(restrict)
        except RequestError as e:
            raise RequestError(e.message, "restrict") from None
    damage = spec.get("damage", 0)
    expect(isinstance(damage, int) and not isinstance(damage, bool) and 0 <= damage <= 1000,
           "'damage' must be a whole number from 0 to 1000", "damage")
    ability = Ability(cost, output, restrict, damage=damage, text=str(spec["cost"]), **flags)
    check_bounded(ability)
    return ability
