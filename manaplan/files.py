"""Files the commands write and read: written whole or not at all, never through a link,
and read a line at a time with each line's length capped (as ``serve`` caps a request)."""

from __future__ import annotations

import os
import tempfile

from .model.errors import RequestError

#: the longest line a file given to a command may have (bytes): ``serve``'s request cap
MAX_LINE_BYTES = 64 * 1024 * 1024


def write_whole(path: str, text: str | bytes) -> None:
    """``text`` written to ``path`` whole or not at all: a temporary file beside it,
    renamed over it (a full disk leaves the old file as it was). A symbolic link at
    ``path`` is replaced by the file, never followed to write where it points."""
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=".manaplan-", dir=folder)
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(text.encode("utf-8") if isinstance(text, str) else text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def capped_lines(path: str, what: str, limit: int = MAX_LINE_BYTES):
    """(line number, the line's bytes) of a file, each line at most ``limit`` bytes: a
    longer one is an error naming it, found without reading it whole (/dev/zero)."""
    with open(path, "rb") as f:
        n = 0
        while True:
            raw = f.readline(limit + 1)
            if not raw:
                return
            n += 1
            if len(raw) > limit:
                raise RequestError(f"{path}, line {n}: longer than {limit:,} bytes", what)
            yield n, raw
