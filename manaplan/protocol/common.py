"""Input checks and answer shapes shared by every game profile.

Every check names what is wrong and where (``at``, a JSON path such as
``permanents[3].abilities[0].cost``), so an engine author sees the place rather than a
traceback. The checks are written out rather than delegated to a schema library: see
the README, "Why no schema library".
"""

from __future__ import annotations

from ..model.errors import RequestError
from ..model.symbols import MAX_AMOUNT


def expect(cond: object, message: str, at: str | None) -> None:
    """Raise a located RequestError unless ``cond``."""
    if not cond:
        raise RequestError(message, at)


def is_whole_number(value) -> bool:
    """An integer that is not a bool (JSON's true is no number)."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole_number(obj: dict, key: str, at: str, default: int | None = 0, minimum: int = 0,
                 maximum: int = MAX_AMOUNT) -> int:
    """``obj[key]`` (or ``default``) as a whole number from ``minimum`` to ``maximum``."""
    value = obj.get(key, default)
    expect(is_whole_number(value), f"'{key}' must be a whole number, not {value!r}", at)
    assert value is not None  # (a whole number: expect raised otherwise)
    expect(value >= minimum, f"'{key}' must be {minimum} or more, not {value}", at)
    expect(value <= maximum, f"'{key}' must be at most {maximum}, not {value}", at)
    return value


def boolean(obj: dict, key: str, at: str, default: bool = False) -> bool:
    value = obj.get(key, default)
    expect(isinstance(value, bool), f"'{key}' must be true or false, not {value!r}", at)
    return value


def text(obj: dict, key: str, at: str, default: str = "") -> str:
    value = obj.get(key, default)
    expect(isinstance(value, str), f"'{key}' must be text, not {value!r}", at)
    return value


def an_object(value, what: str, at: str | None) -> dict:
    expect(isinstance(value, dict), f"{what} must be an object, not {type(value).__name__}", at)
    return value


def a_list(value, what: str, at: str | None) -> list:
    expect(isinstance(value, list), f"{what} must be a list, not {type(value).__name__}", at)
    return value


def join(prefix: str, key) -> str:
    """``prefix.key`` (or ``prefix[key]`` for an index), the JSON path of a field."""
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else str(key)


def no_unknown_fields(obj: dict, known, at: str, what: str) -> None:
    """A misspelt field would otherwise be ignored and its default used: refuse it, and
    every other unknown field of the object with it, each with the known field it most
    looks like (the error is located at the first)."""
    unknown = [key for key in obj if key not in known]
    if not unknown:
        return
    words = [f"{key!r}{_did_you_mean(key, known)}" for key in unknown[:10]]
    more = f" and {len(unknown) - 10} more" if len(unknown) > 10 else ""
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    raise RequestError(f"unknown field{'s' if len(unknown) > 1 else ''} {listed}{more} in {what}",
                       join(at, unknown[0]))


def _did_you_mean(key, known) -> str:
    """`` (did you mean 'tapped'?)`` for a key close to a known one, else nothing."""
    if not isinstance(key, str):
        return ""
    import difflib
    close = difflib.get_close_matches(key.lower()[:100], list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


#: how deeply lists and objects may nest in an ``id`` that is echoed back (docs/protocol.md,
#: "Ids"): a deeper one is answered with an error at ``id``, the answer's id null
MAX_ID_NESTING = 32


def request_id(request) -> object:
    """The request's ``id``, echoed back as it came: null when there is none, or when it
    nests lists or objects deeper than MAX_ID_NESTING (:func:`id_problem` says so)."""
    rid = request.get("id") if isinstance(request, dict) else None
    return rid if not isinstance(rid, (list, dict)) or _nesting(rid, MAX_ID_NESTING) <= MAX_ID_NESTING else None


def id_problem(request) -> str | None:
    """Why the request's ``id`` can't be echoed back, or None.

    >>> id_problem({"id": [[["a"]]]}) is None, id_problem({"id": "x"}) is None
    (True, True)
    >>> deep = "x"
    >>> for _ in range(40):
    ...     deep = [deep]
    >>> id_problem({"id": deep})
    "an 'id' may nest lists or objects at most 32 deep to be echoed back; send text or a whole number"
    """
    rid = request.get("id") if isinstance(request, dict) else None
    if isinstance(rid, (list, dict)) and _nesting(rid, MAX_ID_NESTING) > MAX_ID_NESTING:
        return (f"an 'id' may nest lists or objects at most {MAX_ID_NESTING} deep to be echoed back; send text or "
                "a whole number")
    return None


def _nesting(value, most: int) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar: 0), counted without
    recursion and no further than one past ``most``."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if not isinstance(item, (list, dict)):
            continue
        deepest = max(deepest, depth)
        if depth > most:
            return deepest
        stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def check_request_id(request: dict) -> None:
    value = request.get("id")
    expect(value is None or isinstance(value, str) or is_whole_number(value),
           f"'id' must be text or a whole number, not {value!r}", "id")


#: the longest message or location an error answer carries: a long bad value is cut,
#: never echoed whole
MAX_ERROR_TEXT = 500


def cut(text: str) -> str:
    """``text``, cut to MAX_ERROR_TEXT characters, saying so."""
    if len(text) <= MAX_ERROR_TEXT:
        return text
    return text[:MAX_ERROR_TEXT] + f"... ({len(text) - MAX_ERROR_TEXT} more characters cut)"


def error_answer(request_id, message: str, at: str | None, internal: bool = False, code: str | None = None) -> dict:
    """The protocol's error object: ``{"id", "error": {"message", "at"}}``, its texts
    bounded in size; ``code`` where an engine may act on the kind of error (a kept
    board dropped for room)."""
    error: dict[str, str | bool] = {"message": cut(message)}
    if at is not None:
        error["at"] = cut(at)
    if internal:
        error["internal"] = True
    if code is not None:
        error["code"] = code
    return {"id": request_id, "error": error}


def with_id(request_id, answer: dict) -> dict:
    """The answer with the request's ``id`` first, as every answer carries it."""
    return {"id": request_id, **answer}


def is_error(answer: dict) -> bool:
    return "error" in answer


def version_answer(version: str, protocol: str, games: dict) -> dict:
    """The answer to ``{"query": "version"}``: the package, the protocol and each game's
    queries."""
    return {"version": version, "protocol": protocol, "games": games}


def undecided_reason(result) -> dict:
    """The reason of a ``payable: null`` answer (a :class:`manaplan.model.plan.Undecided`)."""
    reason = {"code": result.code, "message": result.message}
    if result.time_limit is not None:
        reason["time_limit"] = result.time_limit
    if result.unread:
        reason["unread"] = [{"permanent": pid, "text": line} for pid, line in result.unread]
    return reason
