"""What a server has read, kept by the text it was read from, within a bound on its count
and its size (a cache bounded by its count alone kept about 10 MB for each
distinct 2.7 MB text).

>>> cache = ReadCache(most=2, most_chars=10, longest=5)
>>> cache.put("abc", 1); cache.put("de", 2); cache.get("abc")
1
>>> cache.put("fghijk", 3); cache.get("fghijk") is None  # (longer than the longest kept)
True
>>> cache.put("x", 4); len(cache)  # (a third entry: it starts again)
1
"""

from __future__ import annotations

#: the most entries kept
MOST_KEPT_READS = 4096
#: the most characters of keys kept in one cache: what was read from them costs a few
#: times their length
MOST_KEPT_CHARS = 8 * 1024 * 1024


class ReadCache:
    """A dict of what was read, by the text it was read from (``str`` or ``bytes``). Past
    ``most`` entries or ``most_chars`` characters of keys it starts again; a key longer
    than ``longest`` (a sixteenth of ``most_chars`` by default) is not kept (read again
    when met again: reading it costs about what it weighs)."""

    __slots__ = ("most", "most_chars", "longest", "_kept", "_chars")

    def __init__(self, most: int = MOST_KEPT_READS, most_chars: int = MOST_KEPT_CHARS, longest: int | None = None):
        self.most, self.most_chars = most, most_chars
        self.longest = most_chars // 16 if longest is None else longest
        self._kept: dict = {}
        self._chars = 0

    def get(self, key):
        return self._kept.get(key)

    def lookup(self):
        """``get`` as the kept dict's own, for a loop that looks up many keys (the dict
        is emptied when the cache starts again, never replaced)."""
        return self._kept.get

    def put(self, key, value) -> None:
        size = len(key)
        if size > self.longest:
            return
        if len(self._kept) >= self.most or self._chars + size > self.most_chars:
            self.clear()
        if key not in self._kept:
            self._chars += size
        self._kept[key] = value

    def clear(self) -> None:
        self._kept.clear()
        self._chars = 0

    def __len__(self) -> int:
        return len(self._kept)
