"""A large request read with its permanents kept as the text they came in.

A board of thousands of permanents repeats a handful of bodies (the same basic land,
the same dual land under other ids). Parsing each permanent into Python values, only
to find that most are twins of another, was most of the time such a request took
(5,000 permanents: orjson's parse 1.3 ms and finding the bodies 1.4 ms, of 4.5 ms).
Here msgspec reads the request's other fields and splits its permanents into their
texts (``msgspec.Raw``: views of the request, nothing parsed); one regular expression
over the permanents, a line each, takes each one's id and the text after it; each
distinct text after an id is parsed once, and texts that parse to the same fields
(written apart: a space, an escaped dash) are one body (0.3 ms for the split, about
1.7 ms to the bodies in all).

Nothing is read differently from :func:`manaplan.api.read_json`: msgspec's values are
orjson's wherever msgspec reads them at all, and it reads every value of a field given
twice; a permanent is taken by its text only when that text begins with its id as plain
text (``{"id": "f1", ...``: no escapes), and the rest parses as an object without
another ``"id"``; a second ``permanents`` list, anything else, and anything msgspec or
orjson refuses, is read the long way (:meth:`PermanentTexts.parsed`, or the whole
request), which says where it is wrong. msgspec is imported the first time a request
this large comes.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from ..model.errors import ManaplanError, ReadingTimeout
from .reading_time import EVERY, check_reading_time

#: a permanent's text on a line of its own: its id as plain JSON text first (no escape,
#: quote or line break in it), its name if it comes next as plain text, then the rest
_ID_FIRST = re.compile(r'^\{"id": ?"([^"\\\n]*)"(?:, ?"name": ?"([^"\\\n]+)")?(.*)$', re.M)
_BLANK = " \t\r"
#: how many permanents' texts are split in one call (about 20 ms)
_SPLIT_AT_ONCE = 32_768

_DECODERS: dict = {}


class PermanentTexts:
    """A request's ``permanents``, each the JSON text it was given as (``msgspec.Raw``);
    an immutable value of the request being answered."""

    __slots__ = ("texts", "read_value", "request", "left_over")

    def __init__(self, texts: list, read_value, request: bytes):
        self.texts = texts
        self.read_value = read_value  # (the reader of JSON text: manaplan.api.read_json)
        self.request = request  # (the whole text, for the error it holds)
        #: what was read when the time ran out: freed with the request, once the answer
        #: is out (freeing a million strings takes 70 ms)
        self.left_over: object = None

    def __len__(self) -> int:
        return len(self.texts)

    def parsed(self) -> list:
        """The permanents as JSON values, as the request's reader gives them, for the
        long way, a step at a time under the time guard; text it won't read raises the
        error reading the whole request raises (located in it: msgspec does not look
        inside every text it hands on)."""
        out: list = []
        try:
            for start in range(0, len(self.texts), _SPLIT_AT_ONCE):
                check_reading_time(len(self.texts))
                out += self.read_value(b"[" + b",".join(self.texts[start:start + _SPLIT_AT_ONCE]) + b"]")
        except ManaplanError:
            self.read_value(self.request)
            raise
        except ReadingTimeout:
            self.left_over = out  # (freed with the request, after the answer)
            raise
        return out

    def kinds(self) -> tuple[list, list, list, list | None] | None:
        """(the distinct bodies met, each as (its fields but the id and name as JSON, those
        fields, whether it is named); each permanent's number among them; the ids; each
        one's name ("" for none), or None where none is named), as
        ``protocol.permanents._kinds_of`` gives them for parsed permanents; or None where a permanent's text is not its plain id then the rest
        (then read them parsed). A name is taken from the text where it comes right after
        the id, else from the fields parsed (the last one given is the name, as JSON has
        it). The time guard is looked at as it goes (``reading_time``)."""
        order: list[str]
        first_names: list[str]
        rests: list[str]
        order, first_names, rests = [], [], []
        try:
            return self._kinds(order, first_names, rests)
        except ReadingTimeout:
            self.left_over = (order, first_names, rests)
            raise

    def _kinds(self, order: list, first_names: list, rests: list) -> tuple[list, list, list, list | None] | None:
        """:meth:`kinds`, each permanent's id, name and rest put in the lists given."""
        for start in range(0, len(self.texts), _SPLIT_AT_ONCE):  # (a step at a time: the guard is looked at between)
            check_reading_time(len(self.texts))
            texts = self.texts[start:start + _SPLIT_AT_ONCE]
            try:
                joined = b"\n".join(texts).decode()
            except UnicodeDecodeError:
                return None  # (msgspec read it as UTF-8: not met)
            if joined.count("\n") != len(texts) - 1:
                return None  # (a line break inside a permanent's text: it would not be a line)
            found = _ID_FIRST.findall(joined)
            if len(found) != len(texts):
                return None
            more_ids, more_names, more_rests = zip(*found)
            order += more_ids
            first_names += more_names
            rests += more_rests
        check_reading_time(len(self.texts))
        number_of_text: dict = {}  # (twins written apart, "a": 1 and "a":1, are one body: as parsed)
        distinct: list = []
        read: dict = {}  # (each distinct rest's fields but the name, as JSON and as values)
        name_in_rest: dict = {}
        for i, rest in enumerate(dict.fromkeys(rests)):
            if not i % EVERY:
                check_reading_time(len(self.texts))
            fields = _fields_after_id(rest)
            if fields is None:
                return None
            name = fields.get("name")
            if type(name) is str and name:  # (a name that is not text, or empty, is read as given)
                del fields["name"]
                name_in_rest[rest] = name
            try:
                read[rest] = (orjson.dumps(fields), fields)
            except orjson.JSONEncodeError:  # (nested deeper than orjson writes)
                return None
        check_reading_time(len(self.texts))
        if name_in_rest:  # (the name of a rest's permanents is the one in the rest: the last given)
            names = [name_in_rest.get(rest) or first for first, rest in zip(first_names, rests)]
        else:
            names = first_names
        all_named = all(names)
        if all_named or not any(names):  # (the usual boards: every permanent named, or none)
            numbers = {rest: self._number(distinct, number_of_text, read[rest], all_named) for rest in read}
            kind_of = list(map(numbers.__getitem__, rests))
        else:
            kinds = list(zip(rests, map(bool, names)))
            numbers = {kind: self._number(distinct, number_of_text, read[kind[0]], kind[1])
                       for kind in dict.fromkeys(kinds)}
            kind_of = list(map(numbers.__getitem__, kinds))
        return distinct, kind_of, order, names if any(names) else None

    @staticmethod
    def _number(distinct: list, number_of_text: dict, read: tuple, has_name: bool) -> int:
        """The number of the body of fields ``read`` (as JSON, as values), named or not,
        among ``distinct`` (added if new)."""
        text, fields = read
        if (text, has_name) not in number_of_text:
            number_of_text[text, has_name] = len(distinct)
            distinct.append((text, fields, has_name))
        return number_of_text[text, has_name]


def _fields_after_id(rest: str) -> dict | None:
    """The fields of a permanent whose text after its id is ``rest`` (``, "a": 1}`` or
    ``}``); None if they are not an object without an id of its own."""
    rest = rest.lstrip(_BLANK)
    if rest.startswith(","):
        text = "{" + rest[1:]
    elif rest == "}":
        text = "{}"
    else:
        return None
    try:
        fields = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    if type(fields) is not dict or "id" in fields:
        return None  # (a second "id": the last one is the permanent's)
    return fields


#: an escape of a character of the ASCII range (``\u0070``): the only escapes a key can be
#: written with and still read as a request's field (each field's name is ASCII)
_ASCII_ESCAPE = re.compile(rb"\\u00[0-7][0-9a-fA-F]")


def _escaped_key(raw: bytes) -> bool:
    """Whether a key of the request may be written with an escape of one of its letters:
    counting ``"permanents"`` as text would miss it, so such a request is read the long
    way (an escaped second ``permanents`` was refused when small and let through
    when large). Only an escape of an ASCII character can spell a field's name; other
    escapes (a dash in a type line, ``\u2014``) are common and harmless, and a keys'
    search over every string of 64 MiB took 2 s. Keys inside a permanent are its own
    reader's (``_fields_after_id`` parses them), and anything ASCII escaped anywhere is
    read the long way, which is never wrong."""
    return b"\\u00" in raw and _ASCII_ESCAPE.search(raw) is not None


def read_large_request(raw: bytes, fields: tuple, read_value) -> dict | None:
    """A request (a large one: ``manaplan.api.LARGE_REQUEST``) as a dict whose
    ``permanents`` are :class:`PermanentTexts` (``read_value``, the reader of JSON text,
    reads them if they must be parsed); None if it is not an object of ``fields`` only
    with one list of permanents, or not JSON that msgspec reads (then read it the long
    way: the same value, or the error that says what is wrong).

    The other fields are msgspec's values, which are the long way's where msgspec reads
    them at all (numbers past 64 bits are not sent here: ``api.read_request``); a field
    given twice is read both times, the last kept, as the long way does. A second
    ``"permanents"`` is not: msgspec would hand on the first unread (a number too large
    for a float in it would pass), so such text goes the long way."""
    import msgspec  # (only for large requests: it adds 14 ms to starting)

    decoder = _DECODERS.get(fields)
    if decoder is None:
        shape = msgspec.defstruct("Request", [(name, Any, msgspec.UNSET) for name in fields if name != "permanents"]
                                  + [("permanents", list[msgspec.Raw] | msgspec.UnsetType, msgspec.UNSET)],
                                  forbid_unknown_fields=True)
        decoder = _DECODERS[fields] = msgspec.json.Decoder(shape)
    if raw.count(b'"permanents"') != 1 or _escaped_key(raw):
        return None
    try:
        raw.decode()  # (msgspec hands on text in strings unchecked)
        split = decoder.decode(raw)
    except (UnicodeDecodeError, msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None
    if split.permanents is msgspec.UNSET:
        return None
    request = {name: value for name in fields if (value := getattr(split, name)) is not msgspec.UNSET}
    request["permanents"] = PermanentTexts(split.permanents, read_value, raw)
    return request
