"""Card data for a decklist: Scryfall card objects, as Scryfall gives them.

``--cards FILE`` is a JSON list of card objects or one of Scryfall's bulk files
(``oracle-cards.json``, ``default-cards.json``: a list of card objects, one per line, up
to hundreds of megabytes). The bulk file is read line by line, and only lines that hold
one of the deck's names are parsed: what the deck doesn't need is never loaded. A deck's
card missing from the data is an error that names it.

A small file of real cards ships for the demo and the tests (:data:`DEMO_CARDS`: the
mana producers of ``tests/fixtures/mana_cards.json`` with their Oracle text, and a few
spells with their costs).
"""

from __future__ import annotations

import os
import re

import orjson

from ..card_files import NOT_CARDS, card_objects
from ..files import capped_lines
from ..model.errors import RequestError

#: the card file shipped with the package (Scryfall's fields for each card)
DEMO_CARDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "demo_cards.json")
#: the fields of a card object the analysis reads (the rest of a bulk file's is dropped)
FIELDS = ("object", "name", "mana_cost", "cmc", "type_line", "oracle_text", "colors", "color_identity", "layout",
          "card_faces", "keywords", "produced_mana", "set", "collector_number")


#: the most missing names an error lists (each with its guess), the rest counted
MOST_NAMED = 20


def _two_faces(name: str) -> str:
    """MTGO's split-card names ("Fire/Ice") as Scryfall writes them ("Fire // Ice")."""
    return re.sub(r"\s*/\s*", " // ", name) if "/" in name and "//" not in name else name


def card_key(name: str) -> str:
    """How a decklist's name is matched: case and spacing apart; a two-faced card also
    by its front face (``Brightclimb Pathway`` for ``Brightclimb Pathway // Grimclimb
    Pathway``)."""
    return " ".join(name.lower().split())


def load_cards(names, path: str | None = None, inline: list | None = None) -> dict:
    """{name as the deck writes it: card object} for every name, from ``inline`` card
    objects, else from the file at ``path`` (default: the demo file). RequestError naming
    the cards that are in neither."""
    wanted = {card_key(_two_faces(n)): n for n in names}
    found: dict = {}
    seen: set = set()  # the names of the cards read whole (a bulk file's lines that name no card aren't)
    if inline is not None:
        _take(inline, wanted, found, "cards", seen)
    else:
        _read_file(path or DEMO_CARDS, wanted, found, seen)
    missing = [wanted[k] for k in wanted if k not in found]
    if missing and inline is None:
        seen |= _names_in(path or DEMO_CARDS)  # (a bulk file's names, for the guess: read only on this error)
    if missing:
        where = "the cards given" if inline is not None else (path or "the demo card file")
        named = ", ".join(_with_guess(m, seen) for m in missing[:MOST_NAMED])
        more = f" and {len(missing) - MOST_NAMED:,} more" if len(missing) > MOST_NAMED else ""
        raise RequestError(f"no card data for {named}{more} in {where}"
                           + ("; pass --cards with a Scryfall bulk file (Oracle Cards: "
                              "https://scryfall.com/docs/api/bulk-data) or a JSON list of the cards" if path is None
                              and inline is None else ""),
                           "cards")
    return {wanted[k]: found[k] for k in wanted}


def land_cards(path: str | None = None) -> dict:
    """{name: card object} of every land card of a card file (a JSON list or a bulk file,
    read line by line keeping only the lines that hold "land"): the pool ``deck lands``
    chooses from by default."""
    found: dict = {}
    for card in card_objects(path or DEMO_CARDS, "cards", line_has=lambda line: b"land" in line):
        if "Land" in str(card.get("type_line") or "").split(" // ")[0] and card["name"] not in found:
            found[card["name"]] = {k: card[k] for k in FIELDS if k in card}
    return found


_NAME = re.compile(rb'"name":\s*"((?:[^"\\]|\\.)*)"')


def _names_in(path: str) -> set:
    """The first card name on each line of a card file (a bulk file's objects, one a line)."""
    names = set()
    try:
        for _, line in capped_lines(path, "cards"):
            found = _NAME.search(line)
            if found:
                try:
                    names.add(orjson.loads(b'"' + found.group(1) + b'"'))
                except orjson.JSONDecodeError:
                    continue
    except (OSError, RequestError):
        pass  # (names for a guess only: an unreadable file gives none)
    return names


def _with_guess(name: str, seen: set) -> str:
    """The missing name, and the closest names read, if any is close."""
    import difflib

    close = difflib.get_close_matches(name, sorted(seen), n=2, cutoff=0.75)
    return repr(name) + (f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else "")


def _read_file(path: str, wanted: dict, found: dict, seen: set) -> None:
    """Fill ``found`` from a card file (:func:`manaplan.card_files.card_objects`), parsing
    in a bulk file only the lines that name a wanted card, and stopping once all are found."""
    needles = [_needle(name) for name in wanted]
    for card in card_objects(path, "cards", line_has=lambda line: any(n in line for n in needles)):
        _take([card], wanted, found, path, seen)
        if len(found) == len(wanted):
            return


def _needle(name: str) -> bytes:
    """What a line naming the card holds, lower-cased (its front face's name at least)."""
    return card_key(name.split(" // ")[0]).encode("utf-8")


def _take(cards: list, wanted: dict, found: dict, where: str, seen: set) -> None:
    for card in cards:
        if not isinstance(card, dict) or not isinstance(card.get("name"), str) or card.get("layout") in NOT_CARDS:
            continue  # (inline cards: what card_objects leaves out of a file)
        seen.add(card["name"])
        keys = [card_key(card["name"])]
        if " // " in card["name"]:
            keys.append(card_key(card["name"].split(" // ")[0]))
        for key in keys:
            if key in wanted and key not in found:
                found[key] = {k: card[k] for k in FIELDS if k in card}
