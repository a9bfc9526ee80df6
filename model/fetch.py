"""Fetch lands (CR 701.23: search; 305.4: putting a land onto the battlefield is no land
play): a land whose ability sacrifices it to put a land card from the library onto the
battlefield, read from its Oracle text. The deck's games play it as a line of play: the
land drop, then at once the land it finds (``manaplan.deck.players``).

The forms read: the fetch lands ("{T}, Pay 1 life, Sacrifice this land: Search your
library for a Forest or Island card, put it onto the battlefield, then shuffle."),
Prismatic Vista (a basic land card, 1 life), Evolving Wilds and Terramorphic Expanse
(a basic land card, tapped), Fabled Passage (tapped, then untapped with four or more
lands). A search that costs mana (the Panoramas), finds two cards (Krosan Verge) or
anything else is not guessed at: :func:`fetch_rule` returns None where the text has no
search, and raises, naming the line, where it has one it does not read.

>>> rule = fetch_rule("{T}, Pay 1 life, Sacrifice this land: Search your library for a Forest or Island card, "
...                   "put it onto the battlefield, then shuffle.")
>>> rule
FetchRule(types=('Forest', 'Island'), basic=False, tapped=False, untap_with_lands=0, life=1)
>>> rule.finds("Land — Forest Island"), rule.finds("Basic Land — Mountain")
(True, False)
>>> str(fetch_rule("{T}, Sacrifice Evolving Wilds: Search your library for a basic land card, put it onto the "
...                "battlefield tapped, then shuffle.", "Evolving Wilds"))
'finds a basic land card, tapped'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from manaplan.model.board import split_type_line
from manaplan.model.errors import RequestError

_BASIC_TYPES = ("Plains", "Island", "Swamp", "Mountain", "Forest")
_SEARCH = re.compile(r"search your library for", re.I)
_FETCH = re.compile(
    r"^\{T\}, (?:Pay (?P<life>\w+) life, )?Sacrifice (?:this land|~|(?P<name>[^:]+?)): Search your library for "
    r"(?:an? )?(?P<what>basic land|(?:basic )?[A-Z][a-z]+(?:(?:,| or|, or) [A-Z][a-z]+)*) card, put it onto the "
    r"battlefield(?P<tapped> tapped)?, then shuffle\.(?P<untap> Then if you control (?P<n>\w+) or more lands, untap "
    r"that land\.)?$")


@dataclass(frozen=True)
class FetchRule:
    """What a fetch land finds: a land card with one of ``types`` (basic ones only where
    ``basic``; no types: any basic land card), entering ``tapped`` (untapped after all
    with ``untap_with_lands`` or more lands: Fabled Passage), for ``life``."""

    types: tuple = ()
    basic: bool = False
    tapped: bool = False
    untap_with_lands: int = 0
    life: int = 0

    def finds(self, type_line: str) -> bool:
        """Whether a card of ``type_line`` (its front face's) is one this finds."""
        supertypes, subtypes = split_type_line(type_line)
        if "Land" not in supertypes or self.basic and "Basic" not in supertypes:
            return False
        return not self.types or any(t in subtypes for t in self.types)

    def enters_tapped(self, lands_after: int) -> bool:
        """Whether the land found enters tapped, with ``lands_after`` lands then (it
        among them)."""
        return self.tapped and not (self.untap_with_lands and lands_after >= self.untap_with_lands)

    def __str__(self) -> str:
        what = " or ".join(self.types) if self.types else "land"
        text = f"finds a {'basic ' if self.basic else ''}{what} card"
        if self.tapped:
            text += ", tapped" + (f" (untapped with {self.untap_with_lands} lands)" if self.untap_with_lands else "")
        return text + (f", for {self.life} life" if self.life else "")


def fetch_rule(text: str, name: str = "") -> FetchRule | None:
    """The fetch a land's Oracle text says, None where it says no search; RequestError
    naming a line with a search of another form."""
    rule = None
    for line in (text or "").splitlines():
        line = re.sub(r"\s*\([^)]*\)", "", line).strip()  # (reminder text: a landcycling search is no fetch)
        if not _SEARCH.search(line) or "onto the battlefield" not in line:
            continue  # (a search into the hand: no land put onto the battlefield)
        m = _FETCH.match(line)
        if m is None or rule is not None or (m["name"] and name and m["name"] != name):
            raise RequestError(f"{name or 'a land'}: a search the deck analysis does not read: {line!r} (it reads the "
                               "fetch lands, Prismatic Vista, Evolving Wilds and Fabled Passage forms)", "cards")
        life = 0
        if m["life"]:
            life = int(m["life"]) if m["life"].isdigit() else {"one": 1, "two": 2}.get(m["life"].lower(), -1)
        what = m["what"]
        basic = what.startswith("basic ")
        types = () if what == "basic land" else tuple(re.split(r",? or |, ", what.removeprefix("basic ")))
        if life < 0 or not all(t in _BASIC_TYPES for t in types):
            raise RequestError(f"{name or 'a land'}: a search the deck analysis does not read: {line!r}", "cards")
        n = m["n"]
        untap = (int(n) if n.isdigit() else {"three": 3, "four": 4, "five": 5}.get(n.lower(), 0)) if n else 0
        rule = FetchRule(types, basic or what == "basic land", bool(m["tapped"]), untap, life)
    return rule
