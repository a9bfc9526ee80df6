"""The one Python API behind the CLI and the JSON protocol (docs/protocol.md).

>>> answer = solve({"spell": {"mana_cost": "{1}{G}"},
...                 "permanents": [{"id": "f1", "type_line": "Basic Land — Forest"},
...                                {"id": "f2", "type_line": "Basic Land — Forest"}]})
>>> answer["payable"], sorted(answer["plan"]["tapped"])
(True, ['f1', 'f2'])
"""

from __future__ import annotations

import json

from . import PROTOCOL_VERSION, __version__
from .model.errors import ManaplanError
from .profiles import TIME_LIMIT, find_profile, game_names
from .protocol.common import error_answer, request_id

#: a query every game answers: which package and protocol this is
VERSION = "version"


def solve(request, time_limit: float = TIME_LIMIT) -> dict:
    """Answer one request (a dict in the protocol's shape) with a response dict.

    The request's ``game`` picks the profile (Magic by default) that reads it, answers
    it and writes the answer. Bad input gives ``{"id": ..., "error": {"message": ...,
    "at": ...}}``; so does an internal failure (with ``"internal": true``), so that no
    traceback reaches a user.
    """
    rid = request_id(request)
    try:
        if not isinstance(request, dict):
            raise ManaplanError("a request must be a JSON object", "")
        if request.get("query") == VERSION:
            return {"id": rid, **version()}
        profile = find_profile(request.get("game", "mtg"))
        problem = profile.read(request)
        out = profile.write(problem, profile.answer(problem, time_limit))
    except ManaplanError as e:
        return error_answer(rid, e.message, e.at if e.at is not None else "")
    except RecursionError:
        return error_answer(rid, "the request is too deeply nested", None)
    except Exception as e:  # a bug: say so plainly, without a traceback
        return error_answer(rid, f"internal error ({type(e).__name__}): {e}", None, internal=True)
    return {"id": rid, **out}


def version() -> dict:
    """The ``version`` answer: the package, the protocol, and each game's queries."""
    return {"version": __version__, "protocol": PROTOCOL_VERSION,
            "games": {name: list(find_profile(name).queries) for name in game_names()}}


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
    out = solve(request)
    if "error" in out:
        raise ManaplanError(out["error"]["message"], out["error"].get("at"))
    return bool(out["payable"])


def solve_text(text: str) -> dict:
    """Answer one request given as JSON text."""
    try:
        request = json.loads(text)
    except json.JSONDecodeError as e:
        return error_answer(None, f"bad JSON: {e.msg}", f"line {e.lineno} column {e.colno}")
    return solve(request)
