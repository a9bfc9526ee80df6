"""Boards kept by ``manaplan serve``, like a chess engine's ``position`` then many ``go``
(docs/protocol.md, "Kept boards").

A request with ``"board": NAME`` and ``permanents`` stores that board; later requests
name it and give only what changed (``changes``), or override the player for one
request. What is kept is the board as read (:class:`manaplan.model.board.Board`), so
its grouping of interchangeable permanents, kept in ``Board.memo``, serves every later
question on it until a change makes a new board.

Every request is all or nothing: what a request keeps or changes is staged,
seen by that request alone, and kept only once it is answered without an error
(:meth:`BoardStore.commit`, from ``manaplan.api.solve``); a request that fails changes
nothing, the first keeping of a board included. At most ``MAX_KEPT_BOARDS`` are kept,
within a memory budget (``serve --max-kept-mb``), the least recently used dropped first;
a request naming a board dropped for room is told so (``board_dropped``), apart from one
never kept (``board_not_kept``).

>>> store = BoardStore(capacity=2)
>>> for name in ("a", "b", "c"):
...     store.put(name, KeptBoard({}, None)); store.commit()
>>> store.names()
('b', 'c')
>>> store.put("d", KeptBoard({}, None)); store.discard(); store.names()  # (a request that failed)
('b', 'c')
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from .model.errors import RequestError
from .model.board import KEPT_WORK

#: how many boards one ``serve`` keeps (least recently used dropped first)
MAX_KEPT_BOARDS = 64
#: the memory kept boards may take, by their estimate (``serve --max-kept-mb``)
MAX_KEPT_MB = 2048
#: the estimate of a kept board's memory: each permanent (its id, its place among its
#: body's twins), and each distinct body read (a Permanent with its abilities and what
#: is worked out once for it), measured with tracemalloc on boards of 5,000 permanents
#: (benchmarks/kept_boards.py)
BYTES_PER_PERMANENT = 400
BYTES_PER_BODY = 6 * 1024
#: how many names of boards dropped for room are remembered, to say so
REMEMBERED_DROPS = 1024

BOARD_DROPPED, BOARD_NOT_KEPT = "board_dropped", "board_not_kept"


class KeptBoardMissing(RequestError):
    """A request names a board that is not kept: ``code`` says whether it was dropped
    for room (``board_dropped``) or never kept, or forgotten on request
    (``board_not_kept``)."""

    def __init__(self, message: str, at: str | None = "board", code: str = BOARD_NOT_KEPT):
        super().__init__(message, at)
        self.code = code

    def located(self, prefix: str) -> "KeptBoardMissing":
        moved = super().located(prefix)
        return KeptBoardMissing(moved.message, moved.at, self.code)


@dataclass(frozen=True)
class KeptBoard:
    """One kept board: the player as given (JSON fields), and the board as read (with
    its memo); a change makes a new board from the permanents already read."""

    player: dict
    board: object
    #: its estimated memory (bytes): see :func:`estimated_bytes`
    size: int = field(default=0, compare=False)

    @classmethod
    def of(cls, player: dict, board, before=None) -> "KeptBoard":
        """The board kept, with what the solver built for its parts (``KEPT_WORK``): the
        work of ``before`` (the board a change was made to) carried over."""
        if board is not None:
            work = before.memo.get(KEPT_WORK) if before is not None else None
            board.memo.setdefault(KEPT_WORK, work if work is not None else {})
        return cls(player, board, estimated_bytes(board))


def estimated_bytes(board) -> int:
    """The memory a kept board is taken to hold (bytes): see ``BYTES_PER_PERMANENT``."""
    if board is None:
        return 0
    return BYTES_PER_PERMANENT * len(board.permanents) + BYTES_PER_BODY * len(board.kinds)


class BoardStore:
    """The boards of one ``serve`` session, by name, least recently used first; what the
    request being answered keeps is staged until :meth:`commit` (or :meth:`discard`)."""

    def __init__(self, capacity: int = MAX_KEPT_BOARDS, max_kept_mb: float = MAX_KEPT_MB):
        self.capacity = capacity
        self.budget = int(max_kept_mb * 1024 * 1024)
        self._boards: OrderedDict = OrderedDict()
        self._staged: dict = {}  # (name: KeptBoard, or None for a board dropped by the request)
        self._used: list = []  # (names the request used: the most recent once it is answered)
        self._dropped: OrderedDict = OrderedDict()  # (names dropped, with why)
        self._why: dict = {}  # (why the request being answered forgets a board)

    def get(self, name: str) -> KeptBoard:
        """The board kept under ``name``, as the request being answered sees it; a
        located error if there is none, saying whether it was dropped for room."""
        kept = self._staged[name] if name in self._staged else self._boards.get(name)
        if kept is None:
            known = ", ".join(repr(n) for n in self._boards if self._staged.get(n, True) is not None) or "none"
            if name in self._dropped and name not in self._staged:
                raise KeptBoardMissing(f"the board {name!r} was dropped {self._dropped[name]}; send it again with "
                                       f"'permanents'", "board", BOARD_DROPPED)
            raise KeptBoardMissing(f"no board is kept under {name!r} (kept: {known}); send it once with "
                                   f"'permanents'", "board", BOARD_NOT_KEPT)
        self._used.append(name)
        return kept

    def put(self, name: str, kept: KeptBoard) -> None:
        """Keep ``kept`` under ``name`` (replacing an older one) once the request is
        answered."""
        self._staged[name] = kept

    def drop(self, name: str) -> None:
        """Forget the board ``name`` once the request is answered (an error if none)."""
        self.get(name)
        self._staged[name] = None

    def forget(self, name: str, why: str) -> None:
        """Forget the board ``name``, if kept, once the request is answered, and say
        ``why`` to a request that names it (``board_dropped``): a request that sent or
        changed it was answered without reading it whole (its time ran out)."""
        self._staged[name] = None
        self._why[name] = why

    def commit(self) -> None:
        """The request was answered: keep what it staged, drop the least recently used
        boards beyond the count and the memory budget (never the board it just kept)."""
        for name, kept in self._staged.items():
            self._dropped.pop(name, None)
            if kept is not None:
                self._boards[name] = kept
            else:
                self._boards.pop(name, None)
                if name in self._why:
                    self._remember_drop(name, self._why[name])
        for name in self._used + [n for n, k in self._staged.items() if k is not None]:
            if name in self._boards:
                self._boards.move_to_end(name)
        self._staged.clear()
        self._used.clear()
        self._why.clear()
        while len(self._boards) > 1 and (len(self._boards) > self.capacity or self.kept_bytes() > self.budget):
            name, _ = self._boards.popitem(last=False)
            self._remember_drop(name, f"to make room (the least recently used goes when more than {self.capacity} "
                                      f"boards are kept or they pass serve's --max-kept-mb, "
                                      f"{self.budget / 2 ** 20:g} MB)")

    def _remember_drop(self, name: str, why: str) -> None:
        """Say ``why`` to a later request naming the board ``name`` (the latest
        ``REMEMBERED_DROPS`` names)."""
        self._dropped[name] = why
        while len(self._dropped) > REMEMBERED_DROPS:
            self._dropped.popitem(last=False)

    def discard(self) -> None:
        """The request failed: nothing it staged is kept, nothing it used is touched."""
        self._staged.clear()
        self._used.clear()
        self._why.clear()

    def kept_bytes(self) -> int:
        """The estimated memory of the boards kept (bytes)."""
        return sum(kept.size for kept in self._boards.values())

    def names(self) -> tuple:
        return tuple(self._boards)
