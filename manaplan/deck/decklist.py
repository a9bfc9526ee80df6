"""Decklists as players export them: MTG Arena and MTGO text, MTGO's ``.dek`` file (XML),
a CSV export with a header (Moxfield, Deckbox, Archidekt: ``Quantity``/``Count`` and
``Name`` columns), Archidekt's text with its ``[tags]``, or a JSON list.

Arena writes a ``Deck`` section (and ``Sideboard``, ``Commander``, ``Companion``), one
line per card: ``4 Llanowar Elves (M19) 314``. MTGO writes ``4 Llanowar Elves``, with the
sideboard after a blank line or a ``Sideboard`` line. A JSON decklist is a list of
``{"count": 4, "name": "Llanowar Elves"}`` objects (``set``, ``number`` and ``section``
optional). :meth:`Decklist.parse` reads any of them; ``str()`` writes Arena's format, which
parses back to the same value.

>>> deck = Decklist.parse("Deck\\n4 Llanowar Elves (M19) 314\\n20 Forest\\n\\nSideboard\\n2 Duress")
>>> deck.main_count, [e.name for e in deck.main]
(24, ['Llanowar Elves', 'Forest'])
>>> Decklist.parse(str(deck)) == deck
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import orjson

from ..model.errors import RequestError

#: the sections of a decklist; the main deck is what the simulation draws from (the
#: commander and companion are not in the library: see ``Decklist.main``)
MAIN, SIDEBOARD, COMMANDER, COMPANION, MAYBEBOARD = "Deck", "Sideboard", "Commander", "Companion", "Maybeboard"
SECTIONS = (MAIN, SIDEBOARD, COMMANDER, COMPANION, MAYBEBOARD)
_SECTION_NAMES = {s.lower(): s for s in SECTIONS} | {"main": MAIN, "maindeck": MAIN, "mainboard": MAIN,
                                                     "sideboard:": SIDEBOARD, "deck:": MAIN}
#: "4 Name", "4x Name", "4 Name (SET) 123", "4 Name (SET) 123a *F*"
_LINE = re.compile(r"^(?P<count>\d+)x?\s+(?P<name>.+?)(?:\s+\((?P<set>[A-Za-z0-9]{2,6})\)(?:\s+(?P<number>\S+))?)?"
                   r"(?:\s+\*[A-Z]+\*)?\s*$")
#: Arena's header lines that say nothing about cards
_IGNORED = re.compile(r"^(about|name\s.*)$", re.I)
#: the most copies of one line (a typo of 400 for 4 would be a 400-card deck)
MOST_COPIES = 250
#: the most lines (or items) a decklist may have: a deck of 250 cards a line is far below
MOST_LINES = 10_000
#: the longest line a decklist file may have (bytes)
MOST_LINE_BYTES = 1 << 20
#: Archidekt's trailing tags ("1x Sol Ring (cmm) 410 [Ramp,Commander{top}]") and color
#: labels ("^Have,#37d67a^"): read for the section they name, else left aside
_TAGS = re.compile(r"\s*(?:\[(?P<tags>[^\]]*)\]|\^[^^]*\^)\s*$")
_TAG_SECTIONS = {"commander": COMMANDER, "sideboard": SIDEBOARD, "maybeboard": MAYBEBOARD, "companion": COMPANION}
#: a CSV's board column as other sites write it (TappedOut: main, side, maybe)
_CSV_SECTIONS = {"side": SIDEBOARD, "sb": SIDEBOARD, "maybe": MAYBEBOARD, "considering": MAYBEBOARD,
                 "main": MAIN, "mainboard": MAIN, "deck": MAIN, "": MAIN}


@dataclass(frozen=True)
class Entry:
    """One line: ``count`` copies of the card ``name`` (the printing's ``set`` and
    collector ``number`` when given), in ``section``."""

    count: int
    name: str
    section: str = MAIN
    set: str = ""
    number: str = ""

    def __str__(self) -> str:
        printing = f" ({self.set}) {self.number}".rstrip() if self.set else ""
        return f"{self.count} {self.name}{printing}"


@dataclass(frozen=True)
class Decklist:
    """A deck's lines in order."""

    entries: tuple = ()

    @property
    def main(self) -> tuple:
        """The main deck's entries: the library the simulation shuffles."""
        return tuple(e for e in self.entries if e.section == MAIN)

    @property
    def commanders(self) -> tuple:
        """The Commander section's entries: cards in the command zone, cast from there
        (CR 903.6, 903.8), never in the library."""
        return tuple(e for e in self.entries if e.section == COMMANDER)

    @property
    def played_names(self) -> tuple:
        """The names a simulation needs card data for: the main deck's and the
        commanders' (a sideboard's cards are never played)."""
        return tuple(dict.fromkeys(e.name for e in self.main + self.commanders))

    @property
    def main_count(self) -> int:
        return sum(e.count for e in self.main)

    @property
    def names(self) -> tuple:
        """Every distinct card name, in order of first appearance."""
        return tuple(dict.fromkeys(e.name for e in self.entries))

    @classmethod
    def parse(cls, text: str) -> "Decklist":
        """Read Arena or MTGO text, or a JSON list; RequestError naming the line (or
        item) that is not a card line."""
        stripped = text.lstrip("\ufeff").strip()
        if stripped.count("\n") >= MOST_LINES:
            raise RequestError(f"a decklist of more than {MOST_LINES:,} lines", "decklist")
        if stripped.startswith("["):
            return cls._parse_json(stripped)
        if stripped.startswith("<"):
            return cls._parse_dek(stripped)
        first = stripped.split("\n", 1)[0]
        if "," in first and _csv_header(first) is not None:
            return cls._parse_csv(stripped)
        entries, section, seen_cards, blank_after_cards = [], MAIN, False, False
        for number, raw in enumerate(stripped.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("//") or line.startswith("#"):
                blank_after_cards = blank_after_cards or (seen_cards and not line)
                continue
            header = _SECTION_NAMES.get(line.lower().rstrip(":")) or _SECTION_NAMES.get(line.lower())
            if header is not None:
                section, blank_after_cards = header, False
                continue
            if _IGNORED.match(line):
                continue
            line, tagged = _without_tags(line)
            m = _LINE.match(line)
            if m is None and "," in line and number == 1:
                raise RequestError(f"not a decklist line: {line!r} (a CSV decklist needs a header line naming a "
                                   "'Quantity' or 'Count' column and a 'Name' column)", f"line {number}")
            if m is None:
                raise RequestError(f"not a decklist line: {line!r} (expected '4 Card Name' or "
                                   "'4 Card Name (SET) 123')", f"line {number}")
            if blank_after_cards and section == MAIN:  # MTGO: the sideboard follows a blank line
                section = SIDEBOARD
            blank_after_cards = False
            entries.append(_entry(int(m["count"]), m["name"], tagged or section, m["set"] or "", m["number"] or "",
                                  f"line {number}"))
            seen_cards = True
        return cls(tuple(entries))

    @classmethod
    def _parse_json(cls, text: str) -> "Decklist":
        try:
            items = orjson.loads(text)
        except orjson.JSONDecodeError as e:
            raise RequestError(f"bad JSON decklist: {e}", "") from None
        if not isinstance(items, list):
            raise RequestError("a JSON decklist is a list of {\"count\": N, \"name\": ...} items", "")
        if len(items) > MOST_LINES:
            raise RequestError(f"a decklist of more than {MOST_LINES:,} items", "")
        entries = []
        for i, item in enumerate(items):
            at = f"[{i}]"
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                raise RequestError("each item needs a 'name' (text) and a 'count'", at)
            unknown = set(item) - {"count", "name", "section", "set", "number"}
            if unknown:
                raise RequestError(f"unknown field(s) {sorted(unknown)} in a decklist item", at)
            count = item.get("count", 1)
            if not isinstance(count, int) or isinstance(count, bool):
                raise RequestError("'count' must be a whole number", f"{at}.count")
            section = _SECTION_NAMES.get(str(item.get("section", MAIN)).lower())
            if section is None:
                raise RequestError(f"unknown section {item.get('section')!r}; known: {', '.join(SECTIONS)}",
                                   f"{at}.section")
            entries.append(_entry(count, item["name"], section, str(item.get("set", "")), str(item.get("number", "")),
                                  at))
        return cls(tuple(entries))

    @classmethod
    def _parse_dek(cls, text: str) -> "Decklist":
        """MTGO's ``.dek`` file: ``<Cards Quantity="4" Sideboard="false" Name="..." .../>``
        elements of a ``<Deck>``, read by their attributes (no XML entity is expanded)."""
        if not re.search(r"<Deck\b", text):
            raise RequestError("an XML file that is not an MTGO .dek deck (no <Deck> element)", "decklist")
        entries = []
        for number, m in enumerate(re.finditer(r"<Cards\b([^>]*)>", text), start=1):
            attributes = dict(re.findall(r'(\w+)\s*=\s*"([^"]*)"', m.group(1)))
            at = f"Cards element {number}"
            if "Name" not in attributes or not attributes.get("Quantity", "").isdigit():
                raise RequestError("an MTGO .dek card needs Quantity (a whole number) and Name", at)
            section = SIDEBOARD if attributes.get("Sideboard", "false").lower() == "true" else MAIN
            name = _xml_text(attributes["Name"])
            entries.append(_entry(int(attributes["Quantity"]), name, section, "", "", at))
        if not entries:
            raise RequestError("an MTGO .dek deck with no <Cards> element", "decklist")
        return cls(tuple(entries))

    @classmethod
    def _parse_csv(cls, text: str) -> "Decklist":
        """A CSV export: its header names the count column (``Quantity``, ``Count``,
        ``Qty``) and the ``Name``; a ``Section``, ``Board`` or ``Category`` column may name the
        sideboard, the commander or the maybeboard; ``Edition``/``Set`` and ``Collector
        Number`` are kept."""
        import csv

        rows = csv.reader(text.splitlines())
        header = next(rows)
        columns = _csv_header(",".join(header))
        assert columns is not None  # (parse saw the header)
        count_at, name_at, section_at, set_at, number_at = columns
        entries = []
        for number, row in enumerate(rows, start=2):
            if not any(cell.strip() for cell in row):
                continue
            at = f"line {number}"
            if len(row) <= max(count_at, name_at) or not row[count_at].strip().isdigit():
                raise RequestError(f"a CSV line needs a whole number in column {header[count_at]!r} and a name in "
                                   f"{header[name_at]!r}", at)
            where = row[section_at].strip().lower() if section_at is not None and len(row) > section_at else ""
            section = _CSV_SECTIONS.get(where) or next((sec for word, sec in _TAG_SECTIONS.items() if word in where),
                                                       MAIN)
            set_code = row[set_at].strip() if set_at is not None and len(row) > set_at else ""
            printing = row[number_at].strip() if number_at is not None and len(row) > number_at else ""
            entries.append(_entry(int(row[count_at]), row[name_at], section, set_code, printing, at))
        return cls(tuple(entries))

    def __str__(self) -> str:
        out = []
        for section in SECTIONS:
            lines = [str(e) for e in self.entries if e.section == section]
            if lines:
                out.append("\n".join([section] + lines))
        return "\n\n".join(out) + "\n"


def _without_tags(line: str) -> tuple:
    """(a line without Archidekt's trailing ``[tags]`` and ``^labels^``, the section a tag
    names or None)."""
    section = None
    while True:
        m = _TAGS.search(line)
        if m is None or m.start() == 0:
            return line, section
        for tag in (m.group("tags") or "").split(","):
            word = re.sub(r"\{.*\}", "", tag).strip().lower()
            if "{nodeck}" in tag.lower().replace(" ", ""):  # (a category Archidekt leaves out of the deck)
                section = section or MAYBEBOARD
            section = section or _TAG_SECTIONS.get(word)
        line = line[:m.start()]


def _csv_header(line: str) -> tuple | None:
    """(count, name, section, set, collector number) column numbers of a CSV header line
    (None for a column it lacks), or None: not such a header."""
    import csv

    cells = [c.strip().lower() for c in next(csv.reader([line]))]

    def column(*names: str) -> int | None:
        return next((i for i, c in enumerate(cells) if c in names), None)
    count, name = column("quantity", "count", "qty", "amount"), column("name", "card name", "card")
    if count is None or name is None:
        return None
    return (count, name, column("section", "board", "category", "categories"),
            column("edition", "set", "set code", "edition code"), column("collector number", "card number", "number"))


def _xml_text(value: str) -> str:
    """An XML attribute's text, its five predefined entities and character references read."""
    import html

    return html.unescape(value)


def _entry(count: int, name: str, section: str, set_code: str, number: str, at: str) -> Entry:
    if not 1 <= count <= MOST_COPIES:
        raise RequestError(f"a line must hold 1 to {MOST_COPIES} copies, not {count}", at)
    name = " ".join(name.split())
    if not name:
        raise RequestError("a card needs a name", at)
    return Entry(count, name, section, set_code.upper(), number)
