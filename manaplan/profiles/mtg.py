"""Magic: The Gathering (``"game": "mtg"``, the default): each request read, answered,
written and explained by its query's entry in the registry (``manaplan.queries``).

>>> profile = MagicProfile()
>>> problem = profile.read({"query": "can_pay", "spell": {"mana_cost": "{G}"},
...                         "permanents": [{"id": "f", "type_line": "Basic Land — Forest"}]})
>>> profile.write(problem, profile.answer(problem))
{'payable': True, 'reason': None}
"""

from __future__ import annotations

from ..model.errors import ReadingTimeout
from ..model.plan import TIME_LIMIT
from ..model.problem import PaymentProblem
from ..protocol import mtg
from ..queries import DROP_BOARD, MAGIC, answer, magic_query


class MagicProfile:
    """Magic: The Gathering (``"game": "mtg"``, the default)."""

    name = "mtg"
    #: the queries it answers (besides ``version``, which every game answers)
    queries = tuple(q.name for q in MAGIC) + (DROP_BOARD,)

    def read(self, request: dict, boards=None, parsed: bool = False) -> PaymentProblem | mtg.ReadOutOfTime:
        """The problem, or :class:`~manaplan.protocol.mtg.ReadOutOfTime` where the time
        guard ran out while the permanents were read (answered undecided)."""
        try:
            return mtg.read(request, boards, parsed)
        except ReadingTimeout as e:
            return mtg.ReadOutOfTime.of(request, e)

    def answer(self, problem: PaymentProblem, time_limit: float = TIME_LIMIT, started: float | None = None):
        if isinstance(problem, mtg.ReadOutOfTime):
            return problem.undecided(time_limit)
        return answer(problem, time_limit, started=started)

    def write(self, problem: PaymentProblem, result) -> dict:
        if isinstance(problem, mtg.ReadOutOfTime):
            return problem.write(result)
        return magic_query(problem.query).write(problem, result)

    def explain(self, problem: PaymentProblem, result) -> str:
        if isinstance(problem, mtg.ReadOutOfTime):
            return f"no answer: {result.message}"
        return magic_query(problem.query).explain(problem, result)
