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
HasteGrant(whose='yours', kinds=('Goblin',), other=True, text='Other Goblin creatures you control have haste and trample.')
>>> HasteGrant.parse("All creatures have haste.").format()
'All creatures have haste.'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from manaplan.model.board import PermanentsByBody, split_type_line

#: whose creatures a grant reaches: every player's, its controller's, the one it is attached to
ALL, YOURS, ATTACHED = "all", "yours", "attached"

_KEYWORD_LINE = re.compile(r"[A-Za-z ,;-]+")
_GRANT = re.compile(r"(?P<other>Other )?(?:(?P<all>All (?P<all_kind>[A-Za-z ]+?)?creatures)|(?P<kind>[A-Za-z ]+? )?"
                    r"[Cc]reatures you control|(?P<plural>[A-Z][a-z]+) you control|(?P<attached>Equipped|Enchanted) "
                    r"creature) ha(?:ve|s) (?P<list>[a-z ,]+)\.")
#: the keyword abilities a grant may list beside haste (a longer list, or a condition after
#: it, is not read: "... have haste as long as ...")
_KEYWORDS = frozenset({"flying", "first strike", "double strike", "deathtouch", "haste", "hexproof", "indestructible",
                       "lifelink", "menace", "reach", "trample", "vigilance", "shroud", "defender", "prowess",
                       "ward {1}", "ward {2}", "intimidate", "fear", "horsemanship", "shadow", "flanking"})
_CARD_TYPES = {"artifact": "artifact", "enchantment": "enchantment", "land": "land"}
_COLORS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
#: plurals of creature types that don't end in a plain "s"
_PLURALS = {"Elves": "Elf", "Dwarves": "Dwarf", "Wolves": "Wolf", "Werewolves": "Werewolf", "Mercenaries": "Mercenary",
            "Faeries": "Faerie", "Fungi": "Fungus", "Sphinxes": "Sphinx", "Foxes": "Fox", "Allies": "Ally"}


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
    """A line that gives creatures haste: ``whose`` creatures (:data:`ALL` players',
    :data:`YOURS`: its controller's, :data:`ATTACHED`: the one it enchants or equips),
    each of ``kinds`` (a card type, a color or a creature type, all of them) where named,
    not its own permanent where ``other``."""

    whose: str
    kinds: tuple = ()
    other: bool = False
    text: str = ""

    @classmethod
    def parse(cls, line: str) -> "HasteGrant | None":
        """The grant of ``line``, or None where the line gives no haste or is not read
        whole (a qualifier such as "nontoken" or "legendary", a condition)."""
        m = _GRANT.fullmatch(line)
        if m is None:
            return None
        words = _words(m.group("list"))
        if "haste" not in words or not all(w in _KEYWORDS or w.startswith(("protection from ", "from ", "ward "))
                                           for w in words):
            return None
        if m.group("attached"):
            return cls(ATTACHED, (), False, line)
        if m.group("plural"):
            plural = m.group("plural")
            kinds: tuple[str, ...] = (_PLURALS.get(plural) or (plural[:-1] if plural.endswith("s") else ""),)
            if not kinds[0]:
                return None
        else:
            kinds = tuple(w for w in (m.group("all_kind") or m.group("kind") or "").split())
            read = []
            for word in kinds:
                kind = _CARD_TYPES.get(word.lower()) or (f"color {_COLORS[word.lower()]}" if word.lower() in _COLORS
                                                         else word if re.fullmatch(r"[A-Z][a-z]+", word)
                                                         and word not in ("Nontoken", "Legendary", "Token", "Other",
                                                                          "Attacking", "Tapped", "Untapped") else None)
                if kind is None:
                    return None
                read.append(kind)
            kinds = tuple(read)
        return cls(ALL if m.group("all") else YOURS, kinds, bool(m.group("other")), line)

    def format(self) -> str:
        """The line's core, as Oracle text writes it (the other keywords it gives left out)."""
        if self.whose == ATTACHED:
            return "Equipped creature has haste."
        words = " ".join(k[len("color "):].capitalize() if k.startswith("color ") else k.capitalize() if k in
                         _CARD_TYPES.values() else k for k in self.kinds)
        if self.whose == ALL:
            return f"All {words.lower() + ' ' if words else ''}creatures have haste."
        who = " ".join(w for w in ("Other" if self.other else "", words) if w)
        return f"{who + ' c' if who else 'C'}reatures you control have haste."

    def reaches(self, giver, creature, same_side: bool) -> bool:
        """Whether it gives ``creature`` haste: ``giver`` its permanent, ``same_side``
        whether the two have one controller."""
        if self.whose == ATTACHED:
            return bool(giver.attached_to) and giver.attached_to == creature.id
        if self.whose == YOURS and not same_side:
            return False
        if self.other and creature.id == giver.id and same_side:
            return False
        for kind in self.kinds:
            if kind.startswith("color "):
                if kind[-1] not in creature.colors:
                    return False
            elif kind in _CARD_TYPES.values():
                if not creature.is_a(kind):
                    return False
            elif kind not in split_type_line(creature.type_line)[1] and not creature.changeling:
                return False
        return True


def haste_givers(permanents: tuple | PermanentsByBody, opponents) -> list:
    """(permanent, grant, whether it is on ``permanents``' side) for each grant of haste
    among ``permanents`` (one player's) and ``opponents`` (the other side's, or None)."""
    return ([(g, grant, True) for g in permanents for grant in g.gives_haste]
            + [(g, grant, False) for g in opponents or () for grant in g.gives_haste])


def reached(creature, givers: list) -> bool:
    """Whether some grant of ``givers`` (:func:`haste_givers`) gives ``creature``, one of
    the first side's, haste while it is summoning sick."""
    return creature.creature and creature.summoning_sick and any(grant.reaches(g, creature, mine)
                                                                 for g, grant, mine in givers)


def with_haste(permanents: tuple | PermanentsByBody, opponents) -> tuple | PermanentsByBody:
    """``permanents`` (one player's) with each creature that some grant on either side
    reaches (``opponents``: the other side's permanents, or None) no longer summoning
    sick; the same tuple where no grant reaches one."""
    givers = haste_givers(permanents, opponents)
    if not givers:
        return permanents
    out, changed = [], False
    for p in permanents:
        if reached(p, givers):
            p = replace(p, summoning_sick=False, key=f"{p.key}|haste" if p.key else "")
            changed = True
        out.append(p)
    return tuple(out) if changed else permanents
