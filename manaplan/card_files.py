"""Card files, read one way for every command: Scryfall card objects as Scryfall gives
them, in a JSON list, a Scryfall list object (``{"object": "list", "data": [...]}``) or
one of Scryfall's bulk files (``oracle-cards.json``: a list with one card object a line,
up to hundreds of megabytes). A bulk file is read line by line, and a reader that wants
a few cards parses only the lines that may hold them (``line_has``): what isn't needed is
never loaded. Every line is capped (:func:`manaplan.files.capped_lines`: /dev/zero is an
error naming the line, not a read without end). What a bulk file holds beside the cards
a deck plays (tokens, art series: :data:`NOT_CARDS`) is never read as a card.

``deck`` (manaplan.deck.cards) and ``suite`` (manaplan.suite) take their cards from
:func:`card_objects`; a card object, from a file or a request, is read by manaplan.scryfall.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import orjson

from .files import capped_lines
from .model.errors import RequestError

#: what a bulk file holds beside cards a deck can play, under the same names (the art
#: series card "Forest // Forest", tokens, emblems)
NOT_CARDS = ("art_series", "token", "double_faced_token", "emblem", "vanguard", "scheme", "planar")


def card_objects(path: str, what: str = "cards", line_has: Callable[[bytes], bool] | None = None,
                 left_out: tuple = NOT_CARDS) -> Iterator[dict]:
    """Each card object of the card file at ``path`` (dicts with a ``name``, of no layout
    in ``left_out``: by default what no deck plays), in the file's order. In a file of one object a line,
    only lines for which ``line_has(the line lower-cased)`` holds are parsed; a line
    that is not JSON there sends the reader to the whole file, whose objects then come
    again from the first (a reader keeps the first of each). RequestError at ``what``
    where the file can't be read, isn't JSON or holds no list."""
    try:
        with open(path, "rb") as handle:
            first = handle.read(1 << 16)
    except OSError as e:
        raise RequestError(f"can't read the card file: {e.strerror}", what) from None
    if _one_object_a_line(first):
        try:
            for _, line in capped_lines(path, what):
                text = line.strip().rstrip(b",")
                if not text.startswith(b"{") or (line_has is not None and not line_has(line.lower())):
                    continue
                card = orjson.loads(text)
                if _is_card(card, left_out):
                    yield card
            return
        except orjson.JSONDecodeError:
            pass  # (not one object a line after all: the whole file)
    try:
        data = orjson.loads(b"".join(raw for _, raw in capped_lines(path, what)))
    except orjson.JSONDecodeError as e:
        raise RequestError(f"the card file is not JSON: {e}", what) from None
    except OSError as e:
        raise RequestError(f"can't read the card file: {e.strerror}", what) from None
    if isinstance(data, dict) and isinstance(data.get("data"), list):  # a Scryfall list object
        data = data["data"]
    if not isinstance(data, list):
        raise RequestError("the card file must be a JSON list of Scryfall card objects", what)
    yield from (card for card in data if _is_card(card, left_out))


def _is_card(card, left_out: tuple) -> bool:
    return isinstance(card, dict) and isinstance(card.get("name"), str) and card.get("layout") not in left_out


def _one_object_a_line(first: bytes) -> bool:
    """Whether a file that starts with ``first`` is a JSON list with one card object on
    each line (Scryfall's bulk files): its first object opens and closes on one line. A
    list written with indentation (any: one space too) is read whole (a list indented by
    one space was taken for a bulk file and read as holding no card).

    >>> _one_object_a_line(b'[\\n{"name": "Forest"},\\n{"name": "Island"}\\n]')
    True
    >>> _one_object_a_line(b'[\\n {\\n  "name": "Forest"\\n }\\n]')
    False
    """
    if not first.lstrip().startswith(b"["):
        return False
    for line in first.splitlines()[1:]:
        text = line.strip()
        if text.startswith(b"{"):
            return text.rstrip(b",").endswith(b"}")
    return False
