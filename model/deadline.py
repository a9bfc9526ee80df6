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
from contextlib import contextmanager

from manaplan.model.errors import OutOfTime

#: when the request being answered must be answered by (``time.monotonic()``), or None
_DEADLINE: contextvars.ContextVar = contextvars.ContextVar("manaplan_deadline", default=None)


@contextmanager
def answering_until(deadline: float | None):
    """Answer within this block by ``deadline`` (``time.monotonic()``; None: no guard)."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


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
