"""The time guard of the request being answered, as one deadline every layer may look
at (docs/protocol.md, "Limits": reading, solving and checking all count): the reader of
large boards between its steps, the solver's runtime while OR-Tools loads.

>>> import time
>>> with answering_until(time.monotonic() + 60):
...     time_is_up()
False
>>> with answering_until(time.monotonic() - 1):
...     time_is_up()
True
>>> time_is_up()  # (no request being answered)
False
"""

from __future__ import annotations

import contextvars
import time

from manaplan.model.errors import OutOfTime

#: when the request being answered must be answered by (``time.monotonic()``), or None
_DEADLINE: contextvars.ContextVar = contextvars.ContextVar("manaplan_deadline", default=None)


class answering_until:  # noqa: N801  (a context manager, used as a function: ``with answering_until(t):``)
    """Answer within this block by ``deadline`` (``time.monotonic()``; None: no guard).
    (A class rather than a generator: entered twice a request, it costs a tenth.)"""

    __slots__ = ("deadline", "token")

    def __init__(self, deadline: float | None):
        self.deadline = deadline

    def __enter__(self) -> None:
        self.token = _DEADLINE.set(self.deadline)

    def __exit__(self, *exc) -> None:
        _DEADLINE.reset(self.token)


def deadline() -> float | None:
    """The deadline of the request being answered, or None."""
    return _DEADLINE.get()


def time_is_up() -> bool:
    """Whether the request being answered has run out of time."""
    end = _DEADLINE.get()
    return end is not None and time.monotonic() > end


def check_clock() -> None:
    """Raise :class:`~manaplan.model.errors.OutOfTime` when the request's time is up:
    each step that builds a model looks at the clock first ("every limit is kept")."""
    if time_is_up():
        raise OutOfTime()
