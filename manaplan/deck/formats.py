"""The deck formats of ``deck analyze --format``: what a legal deck of each holds, and
the game rules the simulation plays by.

- ``constructed`` (the default): at least 60 cards is not enforced (a test deck may be
  anything); two players, the player on the play skips the first draw (CR 103.8a).
- ``limited``: at least 40 cards (CR 100.2b); the same game rules.
- ``commander``: one or two commanders in a Commander section, in the command zone (CR
  903.6; cast from there, its castability by turn reported like any card's) and 99 or 98
  cards beside them, 100 in all (CR 903.5a); one copy of each card but basic lands (CR
  903.5b); every card within the commanders' color identity (CR 903.4, 903.5c), read from
  Scryfall's ``color_identity`` (else from the card's mana cost and the mana symbols of
  its text, CR 903.4); multiplayer rules: nobody skips the first draw (CR 103.8c) and the
  first mulligan is free (CR 103.5c); four players (three opponents, for the lands that
  count them).
"""

from __future__ import annotations

import re

from ..model.errors import RequestError
from ..model.symbols import COLORS

CONSTRUCTED, LIMITED, COMMANDER = "constructed", "limited", "commander"
FORMATS = (CONSTRUCTED, LIMITED, COMMANDER)
#: the basic lands' names (CR 205.4c: any number of copies, CR 100.2a, 903.5b)
BASIC = ("Plains", "Island", "Swamp", "Mountain", "Forest", "Wastes")


def policy_rules(name: str) -> dict:
    """The :class:`~.simulate.Policy` fields the format's game rules set."""
    check_name(name)
    # (a commander game: four players, three opponents for the lands that count them)
    return {"draw_first": True, "free_mulligan": True, "opponents": 3} if name == COMMANDER else {}


def check_name(name: str) -> None:
    if name not in FORMATS:
        raise RequestError(f"unknown format {name!r}; known: {', '.join(FORMATS)}", "format")


def check_deck(name: str, deck, cards: dict) -> None:
    """A :class:`RequestError` naming what makes ``deck`` (a Decklist) not a deck of the
    format; ``cards``: the card objects by name."""
    check_name(name)
    main = deck.main_count
    if name == LIMITED and main < 40:
        raise RequestError(f"a limited deck holds at least 40 cards (CR 100.2b), this one {main}", "decklist")
    if name != COMMANDER:
        if deck.commanders:
            raise RequestError("a Commander section is for --format commander", "decklist")
        return
    commanders = deck.commanders
    count = sum(e.count for e in commanders)
    if not 1 <= count <= 2:
        raise RequestError(f"a commander deck names one commander (or two partners) in a Commander section, "
                           f"not {count}", "decklist")
    if main + count != 100:
        raise RequestError(f"a commander deck holds 100 cards with its commander (CR 903.5a): {main} + {count}",
                           "decklist")
    seen: dict = {}
    for e in deck.main + commanders:
        seen[e.name] = seen.get(e.name, 0) + e.count
    doubled = [n for n, k in seen.items() if k > 1 and n not in BASIC and not n.startswith("Snow-Covered ")]
    if doubled:
        raise RequestError(f"a commander deck holds one copy of each card but basic lands (CR 903.5b): "
                           f"{', '.join(doubled)}", "decklist")
    identity = set().union(*(color_identity(cards[e.name]) for e in commanders))
    outside = [f"{e.name} ({''.join(sorted(color_identity(cards[e.name]) - identity, key=COLORS.index))})"
               for e in deck.main if color_identity(cards[e.name]) - identity]
    if outside:
        raise RequestError(f"outside the commander's color identity "
                           f"({''.join(sorted(identity, key=COLORS.index)) or 'colorless'}, CR 903.5c): "
                           f"{', '.join(outside)}", "decklist")


def color_identity(card: dict) -> set:
    """A card's color identity (CR 903.4): Scryfall's ``color_identity``, else the colors of
    the mana symbols in its costs and text (both faces), and its color indicator."""
    if isinstance(card.get("color_identity"), list):
        return set(card["color_identity"])
    faces = [card] + list(card.get("card_faces") or ())
    text = " ".join(f"{f.get('mana_cost') or ''} {f.get('oracle_text') or ''}" for f in faces)
    text = re.sub(r"\([^)]*\)", "", text)  # (reminder text doesn't count, CR 903.4)
    found = {c for symbol in re.findall(r"\{([^}]*)\}", text) for c in COLORS if c in symbol.split("/")}
    found |= {c for f in faces for c in (f.get("color_indicator") or ())}
    return found
