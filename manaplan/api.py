"""The one Python API behind the CLI and the JSON protocol (docs: ../shared/docs/protocol.md).

>>> answer = solve({"spell": {"mana_cost": "{1}{G}"},
...                 "permanents": [{"id": "f1", "type_line": "Basic Land — Forest"},
...                                {"id": "f2", "type_line": "Basic Land — Forest"}]})
>>> answer["payable"], sorted(answer["plan"]["tapped"])
(True, ['f1', 'f2'])
"""

from __future__ import annotations

import json

from .model.errors import ManaplanError

GAMES = ("mtg", "duel-masters")


def _error(request_id, message: str, at: str | None) -> dict:
    err = {"message": message}
    if at is not None:
        err["at"] = at
    return {"id": request_id, "error": err}


def solve(request) -> dict:
    """Answer one request (a dict in the protocol's shape) with a response dict.

    Bad input gives ``{"id": ..., "error": {"message": ..., "at": ...}}``; so does an
    internal failure (with ``"internal": true``), so that no traceback reaches a user.
    """
    request_id = request.get("id") if isinstance(request, dict) else None
    try:
        if not isinstance(request, dict):
            raise ManaplanError("a request must be a JSON object", "")
        game = request.get("game", "mtg")
        if game not in GAMES:
            raise ManaplanError(f"unknown game {game!r}; known: {', '.join(GAMES)}", "game")
        if game == "duel-masters":
            from .solver.duel_masters import answer as dm_answer
            out = dm_answer(request)
        else:
            from .model.request import parse_request
            from .solver.planner import answer
            out = answer(parse_request(request))
    except ManaplanError as e:
        return _error(request_id, e.message, e.at if e.at is not None else "")
    except RecursionError:
        return {**_error(request_id, "the request is too deeply nested", None)}
    except Exception as e:  # a bug: say so plainly, without a traceback
        out = _error(request_id, f"internal error ({type(e).__name__}): {e}", None)
        out["error"]["internal"] = True
        return out
    return {"id": request_id, **out}


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
        return _error(None, f"bad JSON: {e.msg}", f"line {e.lineno} column {e.colno}")
    return solve(request)
