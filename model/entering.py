"""How a permanent enters the battlefield, read from its Oracle text: untapped, tapped,
or tapped unless a condition holds (CR 614.1c: "enters tapped" is a replacement effect;
614.12 for "as ~ enters" choices), and whether it returns a land (the bounce lands).

The deck simulation asks it of every land and mana permanent it plays. Text about
entering that is not one of these forms is not guessed at: :meth:`EntersRule.parse`
raises, naming the sentence.

>>> EntersRule.parse("This land enters tapped unless you control a Plains or an Island.\\n{T}: Add {W} or {U}.")
EntersRule(kind='unless_types', types=('Plains', 'Island'), count=0, returns_land=False)
>>> str(EntersRule.parse("This land enters tapped unless you control two or fewer other lands."))
'tapped unless two or fewer other lands'
>>> EntersRule.parse("{T}: Add {G}.").tapped(lands=(), hand=())
False
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from manaplan.model.abilities import number_word
from manaplan.model.board import split_type_line
from manaplan.model.errors import RequestError

UNTAPPED, TAPPED = "untapped", "tapped"
UNLESS_TYPES = "unless_types"  # check lands: "unless you control a Plains or an Island"
UNLESS_FEW = "unless_few"  # fast lands: "unless you control two or fewer other lands"
UNLESS_MANY = "unless_many"  # slow lands: "unless you control two or more other lands"
UNLESS_REVEAL = "unless_reveal"  # snarls: "you may reveal a Plains or Swamp card from your hand"
PAY_LIFE = "pay_life"  # shock lands: "you may pay 2 life. If you don't, it enters tapped"
UNLESS_OPPONENTS = "unless_opponents"  # Battlebond lands: "unless you have two or more opponents"

_SELF = r"(?:this (?:land|artifact|creature|permanent)|it|[^.\n]*?)"
_FORMS = [
    (re.compile(_SELF + r" enters (?:the battlefield )?tapped unless you control an? ([A-Z][a-z]+) or an? ([A-Z][a-z]+)\.",
                re.I), UNLESS_TYPES),
    (re.compile(_SELF + r" enters (?:the battlefield )?tapped unless you control (\w+) or fewer other lands\.", re.I),
     UNLESS_FEW),
    (re.compile(_SELF + r" enters (?:the battlefield )?tapped unless you control (\w+) or more other lands\.", re.I),
     UNLESS_MANY),
    (re.compile(r"As " + _SELF + r" enters(?: the battlefield)?, you may reveal an? ([A-Z][a-z]+) or ([A-Z][a-z]+) card "
                r"from your hand\. If you don't, " + _SELF + r" enters (?:the battlefield )?tapped\.", re.I),
     UNLESS_REVEAL),
    (re.compile(r"As " + _SELF + r" enters(?: the battlefield)?, you may pay (\w+) life\. If you don't, " + _SELF
                + r" enters (?:the battlefield )?tapped\.", re.I), PAY_LIFE),
    (re.compile(_SELF + r" enters (?:the battlefield )?tapped unless you have (\w+) or more opponents\.", re.I),
     UNLESS_OPPONENTS),
    (re.compile(_SELF + r" enters (?:the battlefield )?tapped\.", re.I), TAPPED),
]
_BOUNCE = re.compile(r"When " + _SELF + r" enters(?: the battlefield)?, return a land you control to its owner's hand\.",
                     re.I)
#: sentences about entering that change nothing the simulation follows
_HARMLESS = re.compile(r"When " + _SELF + r" enters(?: the battlefield)?, you gain \w+ life\.|"
                       r"As " + _SELF + r" enters(?: the battlefield)?, choose a (?:color|creature type|basic land type)"
                       r"(?: other than [A-Za-z]+)?\.", re.I)


@dataclass(frozen=True)
class EntersRule:
    """How it enters: ``kind`` (untapped, tapped, or one of the conditions), the land
    types a check land or snarl looks for, the number in "two or fewer", and whether it
    returns a land you control to your hand (CR 603: a triggered ability; the bounce
    lands)."""

    kind: str = UNTAPPED
    types: tuple = ()
    count: int = 0
    returns_land: bool = False

    @classmethod
    def parse(cls, oracle_text: str, name: str = "") -> "EntersRule":
        """The rule its text states (the card's name may stand for "this land"); a
        sentence about entering tapped that isn't one of the known forms raises."""
        text = (oracle_text or "").replace(name, "this permanent") if name else (oracle_text or "")
        text = re.sub(r"\([^)]*\)", "", text)  # reminder text
        rule = cls()
        for sentence in (s.strip() for s in text.split("\n")):
            if not re.search(r"\benters\b", sentence, re.I):
                continue
            if _BOUNCE.fullmatch(sentence):
                rule = EntersRule(rule.kind, rule.types, rule.count, True)
                continue
            if _HARMLESS.fullmatch(sentence):
                continue
            for pattern, kind in _FORMS:
                m = pattern.fullmatch(sentence)
                if m is None:
                    continue
                groups = [g for g in m.groups()]
                if kind in (UNLESS_TYPES, UNLESS_REVEAL):
                    rule = EntersRule(kind, tuple(g.capitalize() for g in groups[-2:]), 0, rule.returns_land)
                elif kind in (UNLESS_FEW, UNLESS_MANY, PAY_LIFE, UNLESS_OPPONENTS):
                    n = number_word(groups[-1].lower()) if not groups[-1].isdigit() else int(groups[-1])
                    rule = EntersRule(kind, (), n or 0, rule.returns_land)
                else:
                    rule = EntersRule(kind, (), 0, rule.returns_land)
                break
            else:
                if re.search(r"\b(?:this (?:land|artifact|creature|permanent)|it) enters\b", sentence, re.I):
                    raise RequestError(f"how this enters is not understood: {sentence!r}", "oracle_text")
        return rule

    def tapped(self, lands: tuple, hand: tuple, opponents: int = 1) -> bool:
        """Whether it enters tapped, given the type lines of the other lands its
        controller has (``lands``) and of the cards in hand. Shock lands are paid for
        (2 life; the analysis does not follow life)."""
        if self.kind == UNTAPPED or self.kind == PAY_LIFE:
            return False
        if self.kind == TAPPED:
            return True
        if self.kind == UNLESS_TYPES:
            return not any(_has_subtype(t, self.types) for t in lands)
        if self.kind == UNLESS_REVEAL:
            return not any(_has_subtype(t, self.types) for t in hand)
        if self.kind == UNLESS_FEW:
            return len(lands) > self.count
        if self.kind == UNLESS_MANY:
            return len(lands) < self.count
        if self.kind == UNLESS_OPPONENTS:
            return opponents < self.count
        raise ValueError(self.kind)

    def entries(self, lands: tuple, hand: tuple, life: int, opponents: int | None = None) -> tuple:
        """Every way it may enter as the land drop of a turn, as ``(tapped, life paid)``
        pairs, judged on the type lines of the other lands its controller has then
        (``lands``) and of the other cards in hand: a shock land untapped for its life
        while the life total covers it (CR 119.4, 614.12), or tapped; a check, fast,
        slow or reveal land as the board says. ``opponents`` None: not known (a land that
        needs several opponents enters tapped)."""
        if self.kind == PAY_LIFE:
            return ((False, self.count), (True, 0)) if life >= self.count else ((True, 0),)
        return ((self.tapped(lands, hand, 1 if opponents is None else opponents), 0),)

    def __str__(self) -> str:
        words = {UNLESS_TYPES: f"tapped unless you control a {' or '.join(self.types)}",
                 UNLESS_REVEAL: f"tapped unless a {' or '.join(self.types)} is revealed",
                 UNLESS_FEW: f"tapped unless {_number(self.count)} or fewer other lands",
                 UNLESS_MANY: f"tapped unless {_number(self.count)} or more other lands",
                 PAY_LIFE: f"untapped for {self.count} life", UNLESS_OPPONENTS: "tapped unless several opponents"}
        out = words.get(self.kind, self.kind)
        return out + (", returning a land" if self.returns_land else "")


def _has_subtype(type_line: str, types: tuple) -> bool:
    return bool(set(split_type_line(type_line)[1]) & set(types))


def _number(n: int) -> str:
    return {1: "one", 2: "two", 3: "three"}.get(n, str(n))
