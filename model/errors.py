"""Errors for bad input.

Every error names what was wrong and, where the input came from a request, where
(`at`, a JSON path such as ``permanents[3].abilities[0].cost``). They subclass
``ValueError`` so that callers of the Python API can catch them as such.
"""

from __future__ import annotations


class ManaplanError(ValueError):
    """Base class of every input error manaplan raises on purpose."""

    def __init__(self, message: str, at: str | None = None):
        super().__init__(message)
        self.message = message
        self.at = at

    def located(self, prefix: str) -> "ManaplanError":
        """Return a copy whose location is prefixed by ``prefix`` (a JSON path)."""
        where = prefix if not self.at else (f"{prefix}.{self.at}" if not self.at.startswith("[") else prefix + self.at)
        return type(self)(self.message, where)

    def __str__(self) -> str:
        return f"{self.message} (at {self.at})" if self.at else self.message


class SymbolError(ManaplanError):
    """A mana symbol or mana string that is not in the grammar (CR 107.4)."""


class RequestError(ManaplanError):
    """A request that is not valid: a missing or ill-typed field, a bad value."""


class PlanTooLarge(ManaplanError):
    """The plan would be longer than a written answer may be (``MAX_PLAN_STEPS``): an
    answer refused, not a wrong one."""


class InternalError(RuntimeError):
    """A bug in manaplan, reported as such (``"internal": true``), never bad input."""


class PlanError(InternalError):
    """A solved model could not be turned into a plan."""


class InvalidPlan(InternalError):
    """A plan failed its own validation before it was returned."""


class SearchTooLarge(RuntimeError):
    """The reference search met more states than it was allowed: no answer, not a wrong one."""


class SolverTimeout(RuntimeError):
    """CP-SAT did not prove an optimum within the time limit (the answer is then
    ``payable: null``, never a guess)."""


class OutOfTime(SolverTimeout):
    """The request's time ran out while a model was being built (a turn of
    twelve windows took 0.5 s to build at a 50 ms limit): the model is not finished,
    the answer is undecided, or the best real plan found before it, never a guess."""


class PlanRejected(ValueError):
    """A plan breaks a rule where the validator replays it; the message names the step,
    ``rule`` the rule it breaks ("CR 107.5"; the request's field, such as
    "prefer.never_sacrifice", for a preference; "" for what is not modelled), ``step``
    the index of the step (None: the spell's payment or the plan's summary)."""

    def __init__(self, message: str, rule: str = "", step: int | None = None):
        super().__init__(message)
        self.message, self.rule, self.step = message, rule, step


class ModelTooLarge(Exception):
    """A model larger than :data:`MOST_MODEL_CELLS`: the question is left undecided."""

    def __init__(self, cells: int, most: int):
        super().__init__(f"{cells} cells, more than {most}")
        self.cells, self.most = cells, most


class ReadingTimeout(Exception):
    """The request's time guard ran out while its permanents were being read (reading
    counts, docs/protocol.md "Limits"): the answer is undecided, as when a solve runs
    out. ``hand``: the cards of the hand read before it ran out (``castable`` answers
    each one)."""

    def __init__(self, permanents: int = 0, what: str = ""):
        super().__init__("the time ran out while the request was read")
        self.permanents = permanents
        self.hand: tuple = ()
        #: what was being read, where not its permanents ("the plan's 200,000 steps")
        self.what = what
