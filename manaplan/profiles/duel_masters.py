"""Duel Masters (``"game": "duel-masters"``): its one query, ``pay`` (docs/protocol.md,
"Duel Masters"), read, answered, written and explained by its entry in the registry
(``manaplan.queries.DUEL_MASTERS``).
"""

from __future__ import annotations

import time
from typing import Any

from ..model.duel_masters import DMRequest
from ..model.plan import TIME_LIMIT
from ..protocol.duel_masters import GAME, read
from ..queries import DUEL_MASTERS

PAY, = DUEL_MASTERS


class DuelMastersProfile:
    """The Duel Masters game profile (``"game": "duel-masters"``)."""

    name = GAME
    #: the queries it answers (besides ``version``, which the API answers for every game)
    queries = tuple(q.name for q in DUEL_MASTERS)

    def read(self, request: dict, boards=None, parsed: bool = False) -> DMRequest:
        return read(request)  # boards are kept for Magic only

    def answer(self, problem: DMRequest, time_limit: float = TIME_LIMIT, started: float | None = None) -> Any:
        spent = time.monotonic() - started if started is not None else 0.0
        return PAY.answer(problem, max(0.05, time_limit - spent))

    def write(self, problem: DMRequest, result: Any) -> dict:
        return PAY.write(problem, result)

    def explain(self, problem: DMRequest, result: Any) -> str:
        return PAY.explain(problem, result)
