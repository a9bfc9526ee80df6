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
    _check_commanders([e.name for e in commanders for _ in range(e.count)], cards)
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


#: the abilities that let two commanders stand together (CR 702.124): each read from a
#: line of the card's text (or Scryfall's ``keywords``)
PARTNER, PARTNER_WITH, FRIENDS_FOREVER, BACKGROUND, DOCTORS_COMPANION = (
    "Partner", "Partner with", "Friends forever", "Choose a Background", "Doctor's companion")


def _check_commanders(names: list, cards: dict) -> None:
    """A RequestError naming the commanders unless each may be a commander (a legendary
    creature, or its text says it can be your commander: CR 903.3) and two stand together
    by their abilities (CR 702.124): both with Partner (or Partner—the same words), each
    with "Partner with" the other, both with Friends forever, one with "Choose a
    Background" beside a Background, or one with "Doctor's companion" beside a Time Lord
    Doctor."""
    for name in names:
        card = cards[name]
        front = _front(card)
        type_line = str(front.get("type_line") or card.get("type_line") or "")
        if not (("Legendary" in type_line and "Creature" in type_line.split(" — ")[0])
                or "can be your commander" in _text(card) or len(names) == 2 and _is_background(card)):
            raise RequestError(f"{name} can't be a commander: a commander is a legendary creature, or its text says it "
                               f"can be your commander (CR 903.3)", "decklist")
    if len(names) < 2:
        return
    a, b = (cards[n].get("name", n) for n in names)  # (as the card data writes them: the decklist's case aside)
    if a == b:
        raise RequestError(f"two commanders are two different cards, not {a} twice (CR 903.5b)", "decklist")
    pa, pb = _pairing(cards[names[0]]), _pairing(cards[names[1]])
    ok = (PARTNER in pa and PARTNER in pb
          or any(k.startswith(PARTNER + "—") and k in pb for k in pa)
          or f"{PARTNER_WITH} {b}" in pa and f"{PARTNER_WITH} {a}" in pb
          or FRIENDS_FOREVER in pa and FRIENDS_FOREVER in pb
          or BACKGROUND in pa and _is_background(cards[names[1]]) or BACKGROUND in pb and _is_background(cards[names[0]])
          or DOCTORS_COMPANION in pa and _is_doctor(cards[names[1]])
          or DOCTORS_COMPANION in pb and _is_doctor(cards[names[0]]))
    if not ok:
        raise RequestError(f"{a} and {b} can't be commanders together: two commanders need Partner on both, "
                           f"\"Partner with\" naming each other, Friends forever on both, \"Choose a Background\" "
                           f"beside a Background, or \"Doctor's companion\" beside a Time Lord Doctor "
                           f"(CR 702.124); {_said(a, pa)}; {_said(b, pb)}", "decklist")


def _front(card: dict) -> dict:
    faces = card.get("card_faces") or []
    return faces[0] if faces and isinstance(faces[0], dict) else card


def _text(card: dict) -> str:
    faces = [card] + [f for f in card.get("card_faces") or () if isinstance(f, dict)]
    return "\n".join(str(f.get("oracle_text") or "") for f in faces)


def _pairing(card: dict) -> set:
    """The pairing abilities of a card (CR 702.124), each as written: "Partner", "Partner
    with Name", "Partner—Words", "Friends forever", "Choose a Background", "Doctor's companion"."""
    found = set()
    for line in _text(card).splitlines():
        line = re.sub(r"\s*\(.*\)\s*$", "", line.strip())  # (reminder text)
        if line == PARTNER or line.startswith(PARTNER + "—") or line.startswith(PARTNER_WITH + " "):
            found.add(line)
        elif line.lower() in (FRIENDS_FOREVER.lower(), BACKGROUND.lower(), DOCTORS_COMPANION.lower()):
            found.add({FRIENDS_FOREVER.lower(): FRIENDS_FOREVER, BACKGROUND.lower(): BACKGROUND,
                       DOCTORS_COMPANION.lower(): DOCTORS_COMPANION}[line.lower()])
    return found


def _said(name: str, pairing: set) -> str:
    return f"{name} has {', '.join(sorted(pairing))}" if pairing else f"{name} has none of them"


def _is_background(card: dict) -> bool:
    type_line = str(_front(card).get("type_line") or card.get("type_line") or "")
    return "Legendary" in type_line and "Background" in type_line.partition(" — ")[2].split()


def _is_doctor(card: dict) -> bool:
    """A legendary Time Lord Doctor creature with no other creature types (CR 702.124k)."""
    type_line = str(_front(card).get("type_line") or card.get("type_line") or "")
    types, _, subtypes = type_line.partition(" — ")
    return "Legendary" in types and "Creature" in types and sorted(subtypes.split()) == ["Doctor", "Lord", "Time"]


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
