"""Magic: The Gathering (``"game": "mtg"``, the default): each request read, answered,
written and explained by its query's entry in the registry (``manaplan.queries``).

>>> profile = MagicProfile()
>>> problem = profile.read({"query": "can_pay", "spell": {"mana_cost": "{G}"},
...                         "permanents": [{"id": "f", "type_line": "Basic Land — Forest"}]})
>>> profile.write(problem, profile.answer(problem))
{'payable': True, 'reason': None}
"""

from __future__ import annotations

from ..model.plan import TIME_LIMIT
from ..model.problem import PaymentProblem
from ..protocol import mtg
from ..queries import DROP_BOARD, MAGIC, answer, magic_query


class MagicProfile:
    """Magic: The Gathering (``"game": "mtg"``, the default)."""

    name = "mtg"
    #: the queries it answers (besides ``version``, which every game answers)
    queries = tuple(q.name for q in MAGIC) + (DROP_BOARD,)

    def read(self, request: dict, boards=None, parsed: bool = False) -> PaymentProblem:
        return mtg.read(request, boards, parsed)

    def answer(self, problem: PaymentProblem, time_limit: float = TIME_LIMIT, started: float | None = None):
        return answer(problem, time_limit, started=started)

    def write(self, problem: PaymentProblem, result) -> dict:
        return magic_query(problem.query).write(problem, result)

    def explain(self, problem: PaymentProblem, result) -> str:
        return magic_query(problem.query).explain(problem, result)
