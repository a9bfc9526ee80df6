"""The registry of queries: each query a game answers is one entry here, and nothing else
needs to know the list (docs/architecture.md, "Adding a query").

An entry says everything about its query: its name, the request fields it reads besides
those every query reads (any other is an error), which of them it needs, which list's
cards resolve within the step (their mana, the permanents they become), the function of
the solvers that answers it, how its answer is written as JSON and explained in words.
The game's profile (``manaplan.profiles``) reads a request by its entry's fields
(``manaplan.protocol``), answers, writes and explains by its entry.

The functions are named, and imported the first time a query uses them: a request
answered with an error, or ``version``, never loads the solvers or OR-Tools.

>>> [q.name for q in MAGIC]
['pay', 'max_x', 'can_pay', 'castable', 'sequence', 'best_turn', 'total_cost', 'check']
>>> magic_query("castable").required
('hand',)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .model.errors import RequestError
from .model.plan import TIME_LIMIT
from .model.problem import BEST_TURN, CAN_PAY, CASTABLE, CHECK, MAX_X, PAY, SEQUENCE, TOTAL_COST

#: what every game answers (manaplan.api), and Magic's forgetting of a kept board
VERSION, DROP_BOARD = "version", "drop_board"


class Named:
    """A function of a module of manaplan, imported when first called."""

    _function: Callable[..., Any] | None

    def __init__(self, module: str, name: str):
        self.module, self.name, self._function = module, name, None

    def __call__(self, *args, **kwargs):
        if self._function is None:
            self._function = getattr(importlib.import_module(self.module, "manaplan"), self.name)
        return self._function(*args, **kwargs)

    def __repr__(self) -> str:
        return f"manaplan{self.module}.{self.name}"


@dataclass(frozen=True)
class Query:
    """One query: see the module. ``resolving``: "hand" or "spells", the list whose cards
    resolve within the step (a ritual's mana, a permanent spell's permanent, a land's
    entering), "" for none."""

    name: str
    fields: tuple
    required: tuple
    answer: Named
    write: Named
    explain: Named
    resolving: str = ""


def _magic(name: str, fields: tuple, required: tuple, answer: str, write: str, explain: str,
           resolving: str = "") -> Query:
    return Query(name, fields, required, Named(".solver.planner", answer), Named(".protocol.mtg", write),
                 Named(".explain", explain), resolving)


#: Magic's queries (docs/protocol.md, "Queries"), in the order the version answer lists them
MAGIC = (
    _magic(PAY, ("spell", "hand", "keep_castable", "keep_open", "keep_together"), ("spell",), "pay_answer",
           "write_payment", "payment"),
    _magic(MAX_X, ("spell", "hand"), ("spell",), "pay_answer", "write_payment", "payment"),
    _magic(CAN_PAY, ("spell", "hand"), ("spell",), "pay_answer", "write_payment", "payment"),
    _magic(CASTABLE, ("hand",), ("hand",), "castable_answer", "write_castable", "castable"),
    _magic(SEQUENCE, ("spells", "order", "hand"), ("spells",), "sequence_answer", "write_several", "several",
           resolving="spells"),
    _magic(BEST_TURN, ("hand", "land_drop"), ("hand",), "best_turn_answer", "write_several", "several",
           resolving="hand"),
    Query(TOTAL_COST, ("spell", "hand"), ("spell",), Named(".solver.total", "total_cost_answer"),
          Named(".protocol.mtg", "write_total_cost"), Named(".explain", "total_cost")),
    Query(CHECK, ("spell", "hand", "plan"), ("spell", "plan"), Named(".solver.referee", "check_answer"),
          Named(".protocol.plans", "write_check"), Named(".explain", "check")),
)
_BY_NAME = {q.name: q for q in MAGIC}


def magic_query(name) -> Query:
    """The entry of the Magic query ``name``; a located error naming every query."""
    query = _BY_NAME.get(name) if isinstance(name, str) else None
    if query is None:
        known = ", ".join(list(_BY_NAME) + [VERSION, DROP_BOARD])
        raise RequestError(f"unknown query {name!r}; known: {known}", "query")
    return query


#: Duel Masters' one query (docs/protocol.md, "Duel Masters")
DUEL_MASTERS = (
    Query(PAY, ("card", "cost_change", "mana_zone", "min_cost"), ("card",), Named(".solver.duel_masters", "answer"),
          Named(".protocol.duel_masters", "write"), Named(".explain", "duel_masters")),
)


def answer(problem, time_limit: float = TIME_LIMIT, plain_path: bool = True, started: float | None = None):
    """The answer value to a Magic problem (``model.problem.PaymentProblem``), by its
    query's entry, within ``time_limit`` seconds from ``started`` (solver.planner.run)."""
    return _RUN(magic_query(problem.query).answer, problem, time_limit, plain_path, started)


#: the planner's entry (solver.planner.run), imported with the first question answered
_RUN = Named(".solver.planner", "run")
