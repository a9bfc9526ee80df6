"""The time guard while a request is read: reading and grouping its permanents count
toward its ``time_limit_ms`` (docs/protocol.md, "Limits"). The reader checks the clock
between its steps and every few thousand permanents, so that a request of 64 MiB is
answered soon after its limit rather than after its reading; what is done in one call
to C (splitting the text, one regular expression over it) is the reading floor the
docs state.

>>> import time
>>> from manaplan.model.deadline import answering_until
>>> with answering_until(time.monotonic() + 60):
...     check_reading_time()
>>> with answering_until(time.monotonic() - 1):
...     check_reading_time()
Traceback (most recent call last):
...
manaplan.model.errors.ReadingTimeout: the time ran out while the request was read
"""

from __future__ import annotations

import gc
from contextlib import contextmanager

from ..model.deadline import time_is_up
from ..model.errors import ReadingTimeout

#: how many permanents a reader's loop goes through between looks at the clock
EVERY = 2048
#: boards this small are read without looking at the clock (a few milliseconds at most)
SMALL_BOARD = 64


def check_reading_time(permanents: int = 0) -> None:
    """Raise :class:`ReadingTimeout` if the request's time has run out
    (``model.deadline``). A board of fewer than :data:`SMALL_BOARD` permanents is read
    whole between two looks at the clock (a look at each of its bodies cost a twentieth
    of a plain request)."""
    if 0 < permanents < SMALL_BOARD:
        return
    if time_is_up():
        raise ReadingTimeout(permanents)


#: boards this large are read with the cyclic collector paused
LARGE_BOARD = 10_000


@contextmanager
def collector_paused(size: int):
    """Read a board of ``size`` permanents with Python's cyclic garbage collector paused
    when it is large: reading makes a million strings and tuples, none in a cycle, and
    each pass of the collector walks all of them (transposing 828,502 (id, name, text)
    triples took 0.9 s with it, 0.2 s without)."""
    if size < LARGE_BOARD:
        yield
        return
    with collector_off(collect_young=False):
        yield


@contextmanager
def collector_off(collect_young: bool):
    """Python's cyclic garbage collector paused (where it runs: a pause inside a pause
    leaves it to the outer one), then, as it comes back, what was made meanwhile either
    collected once as young objects (``collect_young``: what is left of a cycle among them
    freed) or counted as old, with no pass over it (``gc.freeze`` then ``unfreeze``)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        if collect_young:
            gc.collect(0)
        else:
            gc.freeze()  # (what was made meanwhile counts as old: no pass over all of it the moment
            gc.unfreeze()  # the collector is back, 60 ms at 828,502 permanents)
        gc.enable()
