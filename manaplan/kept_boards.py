"""Boards kept by ``manaplan serve``, like a chess engine's ``position`` then many ``go``
(docs/protocol.md, "Kept boards").

A request with ``"board": NAME`` and ``permanents`` stores that board; later requests
name it and give only what changed (``changes``), or override the player for one
request. What is kept is the board as read (:class:`manaplan.model.sources.Board`), so
its grouping of interchangeable permanents, kept in ``Board.memo``, serves every later
question on it until a change makes a new board. At most ``MAX_KEPT_BOARDS`` are kept,
the least recently used dropped first.

>>> store = BoardStore(capacity=2)
>>> for name in ("a", "b", "c"):
...     store.put(name, KeptBoard({}, None))
>>> store.names()
('b', 'c')
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from .model.errors import RequestError

#: how many boards one ``serve`` keeps (least recently used dropped first)
MAX_KEPT_BOARDS = 64
#: the query that forgets a kept board


@dataclass(frozen=True)
class KeptBoard:
    """One kept board: the player as given (JSON fields), and the board as read (with
    its memo); a change makes a new board from the permanents already read."""

    player: dict
    board: object


class BoardStore:
    """The boards of one ``serve`` session, by name, least recently used first."""

    def __init__(self, capacity: int = MAX_KEPT_BOARDS):
        self.capacity = capacity
        self._boards: OrderedDict = OrderedDict()

    def get(self, name: str) -> KeptBoard:
        """The board kept under ``name`` (now the most recently used); a located error if
        there is none."""
        kept = self._boards.get(name)
        if kept is None:
            known = ", ".join(repr(n) for n in self._boards) or "none"
            raise RequestError(f"no board is kept under {name!r} (kept: {known}); send it once with "
                               f"'permanents'", "board")
        self._boards.move_to_end(name)
        return kept

    def put(self, name: str, kept: KeptBoard) -> None:
        """Keep ``kept`` under ``name`` (replacing an older one), dropping the least
        recently used board beyond the capacity."""
        self._boards[name] = kept
        self._boards.move_to_end(name)
        while len(self._boards) > self.capacity:
            self._boards.popitem(last=False)

    def drop(self, name: str) -> None:
        self.get(name)
        del self._boards[name]

    def names(self) -> tuple:
        return tuple(self._boards)
