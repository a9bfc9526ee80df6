"""Mana restrictions: "Spend this mana only to cast ..." (CR 106.6).

>>> parse_restriction("a multicolored spell")
(('multicolored',),)
"""

from __future__ import annotations

import re
from functools import lru_cache

from manaplan.model.errors import RequestError

#: "Spend this mana only to cast your commander." (Jeweled Lotus): a spell flagged
#: ``commander`` (CR 903.3)
YOUR_COMMANDER = "your commander"
COMMANDER = "commander"
_TYPE_WORDS = {"artifact", "creature", "enchantment", "instant", "sorcery", "planeswalker", "battle",
               "land", "kindred", "legendary", "snow"}
_COLOR_WORD = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_COLOR_CONDITIONS = {"multicolored", "monocolored", "colorless"} | set(_COLOR_WORD)


@lru_cache(maxsize=1024)
def parse_restriction(restrict: str) -> tuple:
    """The restriction as alternatives, each a tuple of condition words.

    ``restrict`` is the spell part of "Spend this mana only to cast ...": "creature
    spells", "a multicolored spell", "instant or sorcery spells", "colorless Eldrazi
    spells". Lowercase words must be card types, "non"-types, colors, "multicolored",
    "monocolored" or "colorless"; capitalised words are subtypes (Eldrazi, Dragon). A
    clause about activating abilities is dropped: such mana is never spent on ability
    costs here (the conservative reading). Raises RequestError for a word it doesn't know.
    """
    if not isinstance(restrict, str) or not restrict.strip():
        raise RequestError("a restriction must be text such as 'creature spells'")
    if restrict.strip().rstrip(".") == YOUR_COMMANDER:  # Jeweled Lotus
        return ((COMMANDER,),)
    text = re.sub(r"\s+or activate abilities.*$", "", restrict.strip().rstrip("."), flags=re.I)
    out = []
    for alternative in re.split(r"\s+or\s+|,\s*", text):
        words = []
        for word in alternative.split():
            w = word.lower()
            if w in ("a", "an", "spell", "spells"):
                continue
            if not (w in _COLOR_CONDITIONS or w in _TYPE_WORDS or (w.startswith("non") and w[3:] in _TYPE_WORDS)
                    or word[:1].isupper()):
                raise RequestError(f"unknown word {word!r} in the mana restriction {restrict!r}")
            words.append(word if word[:1].isupper() and w not in _TYPE_WORDS else w)
        if not words:
            raise RequestError(f"the mana restriction {restrict!r} names no kind of spell")
        out.append(tuple(words))
    return tuple(out)


@lru_cache(maxsize=4096)
def restriction_allows(restrict: str, type_line: str, colors: frozenset, commander: bool = False,
                       changeling: bool = False) -> bool:
    """Whether mana with the restriction ``restrict`` may be spent on a spell with this
    type line and these colors (``commander``: the spell is the player's commander;
    ``changeling``: a creature spell with every creature type, CR 702.73a). Raises
    RequestError when the answer depends on a type line the spell does not give. Kept
    for the last few thousand asked (a deck's boards ask it of each card again and again)."""
    line = {x.lower() for x in type_line.replace("—", " ").split()}
    types_part = {x.lower() for x in type_line.split("—")[0].split()}
    for words in parse_restriction(restrict):
        if words == (COMMANDER,):
            if commander:
                return True
            continue
        color_ok, type_words = True, []
        for word in words:
            if word == "multicolored":
                color_ok &= len(colors) >= 2
            elif word == "monocolored":
                color_ok &= len(colors) == 1
            elif word == "colorless":
                color_ok &= not colors
            elif word in _COLOR_WORD:
                color_ok &= _COLOR_WORD[word] in colors
            else:
                type_words.append(word.lower())
        if not color_ok:
            continue
        if type_words and not type_line:
            raise RequestError(f"spell.type_line is needed to decide whether mana restricted to "
                               f"{restrict!r} can pay it", "spell.type_line")
        if all((w[3:] not in line) if w.startswith("non") and w[3:] in _TYPE_WORDS
               else w in line or (changeling and "creature" in types_part and w not in _TYPE_WORDS)
               for w in type_words):
            return True
    return False
