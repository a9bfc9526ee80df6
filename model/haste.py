"""Haste (CR 702.10): a creature with haste may tap for its {T} abilities the turn it came
under its controller's control (CR 302.6, 702.10c).

A creature has haste by its own keyword ("Haste", "Flying, haste", with or without
reminder text) or because a permanent gives it: "All creatures have haste." (Concordant
Crossroads: every player's, so an opponent's counts too), "Creatures you control have
haste." (Fervor), "Other Goblin creatures you control have haste and ...". Both are turned
into the words the solver already knows before it sees the board: a hasty creature is a
creature that is not summoning sick (:func:`with_haste`).

>>> has_haste_keyword("Flying, haste\\n{T}: Add {G}.")
True
>>> HasteGrant.parse("Other Goblin creatures you control have haste and trample.")
HasteGrant(whose='yours', subtype='Goblin', other=True, text='Other Goblin creatures you control have haste and trample.')
>>> HasteGrant.parse("All creatures have haste.").format()
'All creatures have haste.'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

#: whose creatures a grant reaches
ALL, YOURS = "all", "yours"

_KEYWORD_LINE = re.compile(r"[A-Za-z ,;-]+")
_GRANT = re.compile(r"(?P<other>Other )?(?:(?P<all>All creatures)|(?:(?P<subtype>[A-Z][a-z]+) )?[Cc]reatures you "
                    r"control) ha(?:ve|s) (?P<list>[a-z ,]+)\.")


def has_haste_keyword(oracle_text: str) -> bool:
    """Whether a line of ``oracle_text`` is a list of keywords holding haste (reminder
    text in parentheses set aside): the creature's own haste (CR 702.10a)."""
    for line in (oracle_text or "").split("\n"):
        bare = re.sub(r"\s*\([^)]*\)", "", line).strip()
        if bare and _KEYWORD_LINE.fullmatch(bare) and "haste" in _words(bare):
            return True
    return False


def _words(listing: str) -> set:
    return {w.strip().lower() for w in re.split(r",|;| and ", listing) if w.strip()}


@dataclass(frozen=True)
class HasteGrant:
    """A line that gives creatures haste: ``whose`` creatures (:data:`ALL` players' or
    :data:`YOURS`: its controller's), those of ``subtype`` only where one is named,
    not its own permanent where ``other``."""

    whose: str
    subtype: str = ""
    other: bool = False
    text: str = ""

    @classmethod
    def parse(cls, line: str) -> "HasteGrant | None":
        m = _GRANT.fullmatch(line)
        if m is None or "haste" not in _words(m.group("list")):
            return None
        return cls(ALL if m.group("all") else YOURS, m.group("subtype") or "", bool(m.group("other")), line)

    def format(self) -> str:
        """The line's core, as Oracle text writes it (the other keywords it gives left out)."""
        if self.whose == ALL:
            return "All creatures have haste."
        who = " ".join(w for w in ("Other" if self.other else "", self.subtype) if w)
        return f"{who + ' c' if who else 'C'}reatures you control have haste."

    def reaches(self, giver, creature, same_side: bool) -> bool:
        """Whether it gives ``creature`` haste: ``giver`` its permanent, ``same_side``
        whether the two have one controller."""
        if self.whose == YOURS and not same_side:
            return False
        if self.other and creature.id == giver.id and same_side:
            return False
        return not self.subtype or creature.is_a(self.subtype)


def with_haste(permanents: tuple, opponents) -> tuple:
    """``permanents`` (one player's) with each creature that some grant on either side
    reaches (``opponents``: the other side's permanents, or None) no longer summoning
    sick; the same tuple where no grant reaches one."""
    givers = [(g, grant, True) for g in permanents for grant in g.gives_haste]
    givers += [(g, grant, False) for g in opponents or () for grant in g.gives_haste]
    if not givers:
        return permanents
    out, changed = [], False
    for p in permanents:
        if p.creature and p.summoning_sick and any(grant.reaches(g, p, mine) for g, grant, mine in givers):
            p = replace(p, summoning_sick=False, key=f"{p.key}|haste" if p.key else "")
            changed = True
        out.append(p)
    return tuple(out) if changed else permanents
