"""Duel Masters requests and answers (a stub around the solver, being split up)."""

from __future__ import annotations

from ..profiles import TIME_LIMIT, register


class DuelMastersProfile:
    name = "duel-masters"

    def read(self, request: dict):
        from ..model.duel_masters import parse_request
        return parse_request(request)

    def answer(self, problem, time_limit: float = TIME_LIMIT):
        from ..solver.duel_masters import answer
        return answer(problem, time_limit=time_limit)

    def write(self, problem, result) -> dict:
        return {k: v for k, v in result.items() if k != "id"}


register(DuelMastersProfile())
