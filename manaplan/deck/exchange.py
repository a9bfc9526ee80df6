"""Answers shared between the processes of one run: what one worker solved, the others
read instead of solving it again.

Each process appends what it solves to a log file of its own in the run's directory
(named by its process id and a random token, so a process that takes a dead one's id
starts a file of its own; one ``write`` per record: a 4-byte length, then the pickled
record) and, before solving a board, reads what the others' logs gained since it last
looked. Nothing runs besides the workers, nothing is locked; a record half written is
read on a later look, and one that can't be read ends what is read of that file. Only
proven answers are published (a plan the time guard cut short is not), and a proven
answer is the same whoever solves it, so the totals do not depend on who shared what
(the reports are the same with or without it). Two processes that meet a new board at
the same moment may both solve it.
"""

from __future__ import annotations

import os
import pickle
import struct
import uuid

_LENGTH = struct.Struct("<I")


class Exchange:
    """One process's view of the run's shared answers in ``directory``."""

    def __init__(self, directory: str):
        self.directory = directory
        self._own: int | None = None  # this process's log, opened when it first writes
        self._owner: int | None = None  # the process that opened it (a forked child opens its own)
        self._name = ""  # its file's name
        self._read: dict = {}  # other log's name -> (offset read to, bytes of a record not yet whole)
        self._broken: set = set()  # logs with a record that could not be read: not read further

    def publish(self, kind: str, key, value) -> None:
        """Tell the other processes an answer."""
        if self._own is None or self._owner != os.getpid():
            self._owner = os.getpid()
            self._name = f"{self._owner}-{uuid.uuid4().hex}.log"
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND
            self._own = os.open(os.path.join(self.directory, self._name), flags, 0o600)
        record = pickle.dumps((kind, key, value), protocol=pickle.HIGHEST_PROTOCOL)
        os.write(self._own, _LENGTH.pack(len(record)) + record)

    def news(self) -> list:
        """(kind, key, value) for each answer the other processes published since the
        last look."""
        mine = self._name if self._owner == os.getpid() else None
        out: list[tuple] = []
        try:
            names = os.listdir(self.directory)
        except OSError:
            return out  # (the run is over: its directory is gone)
        for name in names:
            if name == mine or not name.endswith(".log") or name in self._broken:
                continue
            offset, rest = self._read.get(name, (0, b""))
            try:
                with open(os.path.join(self.directory, name), "rb") as f:
                    f.seek(offset)
                    data = f.read()
            except OSError:
                continue
            if not data:
                continue
            buffer = rest + data
            at = 0
            while at + _LENGTH.size <= len(buffer):
                (n,) = _LENGTH.unpack_from(buffer, at)
                if at + _LENGTH.size + n > len(buffer):
                    break
                try:
                    out.append(pickle.loads(buffer[at + _LENGTH.size:at + _LENGTH.size + n]))
                except Exception:  # (a record torn by a process that died while writing it)
                    self._broken.add(name)
                    break
                at += _LENGTH.size + n
            self._read[name] = (offset + len(data), buffer[at:])
        return out

    def close(self) -> None:
        if self._own is not None and self._owner == os.getpid():
            os.close(self._own)
        self._own = None
