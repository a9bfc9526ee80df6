"""The one Python API behind the CLI and the JSON protocol (docs/protocol.md).

>>> answer = solve({"spell": {"mana_cost": "{1}{G}"},
...                 "permanents": [{"id": "f1", "type_line": "Basic Land — Forest"},
...                                {"id": "f2", "type_line": "Basic Land — Forest"}]})
>>> answer["payable"], sorted(answer["plan"]["tapped"])
(True, ['f1', 'f2'])
"""

from __future__ import annotations

import json
import math
import time

import orjson
from typing import TypedDict, cast

from .version import PROTOCOL_VERSION, __version__
from .model.errors import ManaplanError
from .model.plan import TIME_LIMIT, Payable, Plan
from .profiles import find_profile, game_names
from .queries import DROP_BOARD, VERSION
from .model.errors import RequestError
from .model.deadline import answering_until
from .protocol.common import (error_answer, expect, id_problem, no_unknown_fields, request_id, version_answer, whole_number,
                              with_id)

#: the longest time guard a request may ask for (``time_limit_ms``): ten minutes
MAX_TIME_LIMIT_MS = 600_000
#: requests this long (bytes) or longer may be read by body (``protocol.large_requests``)
LARGE_REQUEST = 64 * 1024


def solve(request, time_limit_ms: int | None = None, *, time_limit: float | None = None) -> dict:
    """Answer one request (a dict in the protocol's shape, docs/protocol.md) with a
    response dict, within ``time_limit_ms`` milliseconds (default: the request's own
    ``time_limit_ms``, else 10 s; ``time_limit`` in seconds is still accepted). Bad input
    gives ``{"id": ..., "error": {"message": ..., "at": ...}}``: it never raises."""
    seconds = time_limit_ms / 1000 if time_limit_ms is not None else time_limit if time_limit is not None else TIME_LIMIT
    if time_limit_ms is not None and isinstance(request, dict) and "time_limit_ms" not in request:
        request = {**request, "time_limit_ms": time_limit_ms}
    return answer_request(request, seconds)


def answer_request(request, time_limit: float = TIME_LIMIT, boards=None, parsed: bool = False,
                   started: float | None = None) -> dict:
    """Answer one request (a dict in the protocol's shape) with a response dict: what
    :func:`solve` and ``serve`` call.

    The request's ``game`` picks the profile (Magic by default) that reads it, answers
    it and writes the answer. Bad input gives ``{"id": ..., "error": {"message": ...,
    "at": ...}}``; so does an internal failure (with ``"internal": true``), so that no
    traceback reaches a user. ``boards`` is the store of kept boards (``serve`` keeps
    one per session); ``time_limit_ms`` in the request overrides ``time_limit``;
    ``parsed``: the request was parsed from JSON text by :func:`read_json` (see
    ``GameProfile.read``); ``started``: when its text came (``time.monotonic()``; default
    now), from which its time guard counts.
    """
    rid = request_id(request)
    if (problem := id_problem(request)) is not None:
        return error_answer(None, problem, "id")
    try:
        if _asks_version(request):
            return with_id(rid, version())
        if isinstance(request, dict) and request.get("query") == DROP_BOARD:
            answer = with_id(rid, _drop_board(request, boards))
        else:
            profile, problem, result = _answer(request, time_limit, boards, parsed, started)
            answer = with_id(rid, profile.write(problem, result))
    except Exception as e:  # noqa: BLE001 (every failure becomes an answer)
        if boards is not None:
            boards.discard()  # (all or nothing: a request that fails changes no kept board)
        return error_answer(rid, *_failure(e))
    if boards is not None:
        boards.commit()
    return answer


def explain(request, time_limit: float = TIME_LIMIT) -> tuple:
    """(the answer in words, as a player follows it; whether it is an answer rather than
    an error): what ``manaplan solve --explain`` prints."""
    try:
        if _asks_version(request):
            return f"manaplan {__version__}, protocol {PROTOCOL_VERSION}", True
        profile, problem, result = _answer(request, time_limit)
        return profile.explain(problem, result), True
    except Exception as e:  # noqa: BLE001
        message, at, _, _ = _failure(e)
        return f"error{f' (at {at})' if at else ''}: {message}", False


def _asks_version(request) -> bool:
    return isinstance(request, dict) and request.get("query") == VERSION


def _answer(request, time_limit: float, boards=None, parsed: bool = False, started: float | None = None) -> tuple:
    """(profile, problem, answer value) for a request; raises on bad input. The time
    guard covers reading the request too (``protocol.reading_time``): a profile reads
    within it, and answers undecided if it ran out while reading."""
    if not isinstance(request, dict):
        raise ManaplanError("a request must be a JSON object", "")
    if started is None:
        started = time.monotonic()
    if "time_limit_ms" in request:
        time_limit = whole_number(request, "time_limit_ms", "time_limit_ms", minimum=1,
                                  maximum=MAX_TIME_LIMIT_MS) / 1000
    profile = find_profile(request.get("game", "mtg"))
    with answering_until(started + time_limit):
        problem = profile.read(request, boards, parsed)
        return profile, problem, profile.answer(problem, time_limit, started)


def _drop_board(request: dict, boards) -> dict:
    """``{"query": "drop_board", "board": NAME}``: forget a kept board."""
    no_unknown_fields(request, ("id", "game", "query", "board"), "", "a drop_board request")
    name = request.get("board")
    expect(isinstance(name, str) and bool(name), "'board' must be the name of a kept board", "board")
    if boards is None:
        raise RequestError(f"no board is kept under {name!r}: boards are kept by `manaplan serve`", "board")
    boards.drop(name)
    return {"dropped": True}


def _failure(e: Exception) -> tuple:
    """(message, where, whether it is a bug, its code or None) for an exception: bad input
    is located; anything else is a bug, said plainly, without a traceback."""
    if isinstance(e, ManaplanError):
        return e.message, e.at if e.at is not None else "", False, getattr(e, "code", None)
    if isinstance(e, RecursionError):
        return "the request is too deeply nested", None, False, None
    return f"internal error ({type(e).__name__}): {e}", None, True, None


def version() -> dict:
    """The ``version`` answer: the package, the protocol, and each game's queries."""
    return version_answer(__version__, PROTOCOL_VERSION,
                          {name: list(find_profile(name).queries) for name in game_names()})


def can_pay(mana_cost: str | None, permanents: list, player: dict | None = None, **spell) -> bool:
    """Whether ``mana_cost`` can be paid from ``permanents`` (protocol shapes); other spell
    fields (``x``, ``reduce``, ``type_line``...) go in ``spell``. Raises ValueError
    (a ManaplanError) on bad input.

    >>> can_pay("{G}{G}", [{"id": "f", "type_line": "Basic Land — Forest"}])
    False
    """
    request = {"query": "can_pay", "spell": {"mana_cost": mana_cost, **spell}, "permanents": permanents}
    if player is not None:
        request["player"] = player
    _, _, result = _answer(request, TIME_LIMIT)
    return isinstance(result, (Payable, Plan))


def check(plan, mana_cost: str | None, permanents: list, player: dict | None = None, **spell) -> dict:
    """The referee's answer (the ``check`` query, docs/protocol.md) on ``plan``, a plan
    another engine wrote for ``mana_cost`` on ``permanents`` (or None: its claim that the
    spell can't be paid); other spell fields go in ``spell``. Raises ValueError (a
    ManaplanError) on bad input.

    >>> forests = [{"id": "f", "type_line": "Basic Land — Forest"}, {"id": "g", "type_line": "Basic Land — Forest"}]
    >>> check({"steps": [{"permanent": "f", "adds": "{G}"}, {"permanent": "f", "adds": "{G}"}],
    ...        "payment": [{"symbol": "{G}", "mana": "G", "from": "f"}, {"symbol": "{G}", "mana": "G", "from": "f"}]},
    ...       "{G}{G}", forests)["violation"]["rule"]
    'CR 107.5'
    """
    request = {"query": "check", "spell": {"mana_cost": mana_cost, **spell}, "permanents": permanents, "plan": plan}
    if player is not None:
        request["player"] = player
    profile, problem, result = _answer(request, TIME_LIMIT)
    return profile.write(problem, result)


def solve_text(text, boards=None, hold: list | None = None) -> dict:
    """Answer one request given as JSON text (``str``, or UTF-8 ``bytes``). Whatever the
    text holds, the answer is one dict: bad text gets a located error. ``hold``: a list
    the parsed request is put in, for a server to free once the answer is out (freeing
    the dicts of 5,000 permanents takes 0.4 ms, a tenth of answering them)."""
    started = time.monotonic()  # (the time guard counts reading the text too)
    try:
        request = read_request(text)
    except ManaplanError as e:
        return error_answer(None, e.message, e.at)
    if hold is not None:
        hold.append(request)
    return answer_request(request, boards=boards, parsed=True, started=started)


def read_request(text):
    """The request in ``text``, as :func:`read_json` reads it; a large Magic request's
    permanents are kept as their texts, read by body (:mod:`manaplan.protocol.large_requests`)."""
    if isinstance(text, (bytes, bytearray)) and len(text) >= LARGE_REQUEST:
        from .model.problem import PAY
        from .protocol.mtg import request_fields
        from .protocol.large_requests import read_large_request
        from .queries import MAGIC

        raw = bytes(text)
        if _LONG_NUMBER not in raw.translate(_DIGITS_AS_ZERO):  # (read_json's own check: json reads those)
            request = read_large_request(raw, request_fields(), read_json)
            if (request is not None and request.get("game", "mtg") == "mtg"
                    and request.get("query", PAY) in [q.name for q in MAGIC]):  # (drop_board names its unknown fields in order)
                return request
    return read_json(text)


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is too large for a number")
    return value


#: a number of 19 digits or more may be past 64 bits, which the fast reader takes as a
#: float: such text is read by json, which keeps it an integer (found as 19 zeros once
#: every digit is written as one: a scan in C, where a regular expression took 3 ms on
#: a 5,000-permanent request)
_LONG_NUMBER = b"0" * 19
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
#: what orjson would write and json would not: handed on to json
_STRICT = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS


def read_json(text):
    """The JSON value in ``text``; a located ManaplanError for anything that is not JSON
    as RFC 8259 has it: invalid UTF-8, NaN and Infinity, numbers Python won't convert
    (more than 4,300 digits), nesting too deep to read."""
    given_bytes = isinstance(text, (bytes, bytearray))
    raw = bytes(text) if given_bytes else text.encode("utf-8", "surrogatepass")
    if _LONG_NUMBER not in raw.translate(_DIGITS_AS_ZERO):  # the fast reader, where it reads exactly as json does
        try:
            return orjson.loads(raw if given_bytes else text)  # (bytes: it reads UTF-8 itself, refusing what is not)
        except orjson.JSONDecodeError:
            pass  # json says what is wrong, and reads what it reads besides (a lone surrogate)
    if given_bytes:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ManaplanError(f"the request is not UTF-8 text ({e.reason})", f"byte {e.start}") from None
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except json.JSONDecodeError as e:
        raise ManaplanError(f"bad JSON: {e.msg}", f"line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise ManaplanError("bad JSON: nested too deep to read", "") from None
    except ValueError as e:
        raise ManaplanError(f"bad JSON: {str(e).split(';')[0]}", "") from None


def write_json(answer: dict) -> str:
    """The answer as one line of JSON (ASCII; the values json.dumps writes, without its
    spaces); if it can't be written as strict JSON (a bug), the internal error that says
    so, so that every request gets one line. An answer's only numbers that are not whole
    are ids echoed back, finite once read (:func:`read_json`), so orjson, which would
    write NaN as null, meets none; what orjson writes but json refuses (dataclasses,
    subclasses) goes to json, which says so."""
    try:
        fast = orjson.dumps(answer, option=_STRICT)
        if fast.isascii():
            return fast.decode("ascii")
    except (TypeError, orjson.JSONEncodeError):
        pass  # an integer past 64 bits (an id echoed back): json writes it
    try:
        return json.dumps(answer, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as e:
        return json.dumps(error_answer(None, f"internal error: the answer could not be written ({e})", None,
                                       internal=True))


def explain_text(text) -> tuple:
    """:func:`explain` for a request given as JSON text."""
    try:
        request = read_json(text)
    except ManaplanError as e:
        return f"error{f' (at {e.at})' if e.at else ''}: {e.message}", False
    return explain(request)


# -- the AI's questions, as typed functions ------------------------------------------------
# Each asks one query of docs/protocol.md and returns its answer (without the "id"), typed
# below; a bad request raises ValueError (a ManaplanError) naming the field. Times are in
# milliseconds, as in the protocol.


class Reason(TypedDict, total=False):
    """Why an answer is "no" or not known: ``code`` and ``message`` (docs/protocol.md,
    "reason"), and the fields of its certificate."""

    code: str
    message: str


class CardAnswer(TypedDict, total=False):
    """One card of :func:`castable`: its ``id``; ``payable`` True, False or None (not
    known); its ``plan`` (the best, as ``pay`` writes it) where payable; its ``reason``
    otherwise."""

    id: str
    payable: bool | None
    total_cost: str
    plan: dict
    reason: Reason | None


class TurnAnswer(TypedDict, total=False):
    """:func:`best_turn`: the cards ``cast`` in order, the ``value`` of the turn, the
    ``land`` played (an id, or None), each payment in ``sequence`` ({id, total_cost,
    plan}), whether it is proven ``optimal``, and what was ``not_modelled``."""

    cast: list
    value: int
    land: str | None
    sequence: list
    optimal: bool
    not_modelled: list


class SequenceAnswer(TypedDict, total=False):
    """:func:`sequence`: whether the spells can be paid one after another (``payable``:
    True, False or None), each payment (``sequence``), the order chosen (``order``
    "any") and the ``reason`` of a "no"."""

    payable: bool | None
    sequence: list
    reason: Reason | None


class TotalCostAnswer(TypedDict, total=False):
    """:func:`total_cost`: the locked-in ``total_cost`` (Scryfall notation), the spell's
    ``mana_value``, and each ``part`` of it (mana cost, X, increases, reductions, each
    with the permanent whose text it is)."""

    total_cost: str
    mana_value: int
    parts: list


def _asked(query: str, fields: dict, permanents: list, player: dict | None, opponents: list | None,
           time_limit_ms: int | None) -> dict:
    request = {"query": query, **fields, "permanents": permanents}
    if player is not None:
        request["player"] = player
    if opponents is not None:
        request["opponents"] = opponents
    if time_limit_ms is not None:
        request["time_limit_ms"] = time_limit_ms
    answer = answer_request(request)
    if "error" in answer:
        raise RequestError(answer["error"]["message"], answer["error"].get("at", ""))
    answer.pop("id", None)
    return answer


def castable(hand: list, permanents: list, *, player: dict | None = None, opponents: list | None = None,
             time_limit_ms: int | None = None) -> list[CardAnswer]:
    """Which cards of ``hand`` (spells with ``id``s: Scryfall cards or the protocol's
    spell objects) the board pays, each with its best plan: the ``castable`` query.

    >>> forest = {"id": "f", "type_line": "Basic Land — Forest"}
    >>> [(c["id"], c["payable"]) for c in castable([{"id": "bear", "mana_cost": "{1}{G}"},
    ...                                              {"id": "elf", "mana_cost": "{G}"}], [forest])]
    [('bear', False), ('elf', True)]
    """
    return _asked("castable", {"hand": hand}, permanents, player, opponents, time_limit_ms)["castable"]


def best_turn(hand: list, permanents: list, *, land_drop=True, player: dict | None = None,
              opponents: list | None = None, time_limit_ms: int | None = None) -> TurnAnswer:
    """The best turn the hand allows (the ``best_turn`` query): a land played first where
    ``land_drop`` allows, then the cards cast that are worth most, each paid on the board
    as it stands then.

    >>> forest = {"id": "f", "type_line": "Basic Land — Forest"}
    >>> turn = best_turn([{"id": "elf", "mana_cost": "{G}", "type_line": "Creature — Elf"},
    ...                   {"id": "l", "type_line": "Basic Land — Forest"},
    ...                   {"id": "bear", "mana_cost": "{1}{G}", "type_line": "Creature — Bear"}], [forest])
    >>> turn["cast"], turn["land"]
    (['bear'], 'l')
    """
    return cast(TurnAnswer, _asked("best_turn", {"hand": hand, "land_drop": land_drop}, permanents, player, opponents,
                                   time_limit_ms))


def sequence(spells: list, permanents: list, *, order: str = "given", player: dict | None = None,
             opponents: list | None = None, time_limit_ms: int | None = None) -> SequenceAnswer:
    """Whether ``spells`` can be paid one after another (the ``sequence`` query), in the
    order given or in any (``order="any"``).

    >>> forests = [{"id": f"f{i}", "type_line": "Basic Land — Forest"} for i in range(2)]
    >>> sequence([{"id": "a", "mana_cost": "{G}"}, {"id": "b", "mana_cost": "{G}"}], forests)["payable"]
    True
    """
    return cast(SequenceAnswer, _asked("sequence", {"spells": spells, "order": order}, permanents, player, opponents,
                                       time_limit_ms))


def total_cost(spell: dict, permanents: list, *, player: dict | None = None, opponents: list | None = None,
               time_limit_ms: int | None = None) -> TotalCostAnswer:
    """The spell's locked-in total on this board (the ``total_cost`` query), with its parts.

    >>> thalia = {"id": "t", "type_line": "Legendary Creature — Human Soldier",
    ...           "oracle_text": "Noncreature spells cost {1} more to cast."}
    >>> total_cost({"mana_cost": "{R}", "type_line": "Instant"}, [thalia])["total_cost"]
    '{1}{R}'
    """
    return cast(TotalCostAnswer, _asked("total_cost", {"spell": spell}, permanents, player, opponents, time_limit_ms))
