"""What a spell's own text says about casting it: its cost keywords, its reductions, its
additional costs and the other ways to cast it (CR 601.2b, 601.2f, 118.7-118.9).

Each line of the spell's text (reminder text left out, CR 207.2) is one of:

- read: a keyword that pays part of the cost (convoke, improvise, delve: CR 702.51, 702.126,
  702.66); affinity for a kind (CR 702.41: "costs {1} less to cast for each KIND you
  control") and "This spell costs {N} less to cast for each KIND you control / on the
  battlefield" (a :class:`SelfReduction`, applied with the board's cost effects); "As an
  additional cost to cast this spell, sacrifice a KIND." (a :class:`SacrificeCost`);
- another way to cast it (evoke, dash, "rather than pay this spell's mana cost", ...): a
  "yes" paid with its mana cost stands; a "no" is not certain (``alternatives``);
- about its cost but not read (an additional cost of another kind, a reduction with a
  condition the request can't state, "Spend only black mana on X"): any answer is
  uncertain (``unread``), since the total itself is not known;
- anything else: no bearing on paying (what the spell does).

>>> t = read_spell_text("Artifact Creature — Frog", "Affinity for artifacts (This spell costs {1} less to cast for "
...                     "each artifact you control.)")
>>> [(str(r.amount), r.kind, r.where) for r in t.reductions]
[('{1}', 'artifact', 'you control')]
>>> read_spell_text("Instant", "As an additional cost to cast this spell, sacrifice a creature.\\n"
...                 "Destroy target creature or planeswalker.").sacrifices[0].kinds
('creature',)
>>> read_spell_text("Sorcery", "Delve (Each card you exile from your graveyard while casting this spell pays for "
...                 "{1}.)\\nDraw three cards.").keywords
frozenset({'delve'})
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from manaplan.model.errors import ManaplanError
from manaplan.model.mana import ManaCost

#: the keywords that pay part of a total cost (the protocol's flags)
PAYING_KEYWORDS = {"convoke": "convoke", "improvise": "improvise", "delve": "delve"}
#: keywords that offer another way to cast the spell (CR 702: alternative costs and
#: casting from elsewhere) - a "no" paid with its mana cost is then not certain
ALTERNATIVE_KEYWORDS = ("Evoke", "Dash", "Emerge", "Surge", "Spectacle", "Prowl", "Madness", "Flashback", "Escape",
                        "Overload", "Bestow", "Blitz", "Disturb", "Foretell", "Plot", "Miracle", "Ninjutsu",
                        "Morph", "Megamorph", "Disguise", "Suspend", "Mutate", "Sneak", "Freerunning", "Harmonize",
                        "Jump-start", "Retrace", "Aftermath", "Embalm", "Eternalize", "Unearth", "Encore",
                        "Impending", "Craft", "Warp", "Offspring", "Cleave", "Entwine", "Awaken",
                        "Buyback", "Replicate", "Splice", "Squad", "Casualty", "Bargain", "Gift")
#: of those, the ones that are optional additional costs paid on top of the mana cost
#: (CR 702.33-like): not paying them is the default, so they have no bearing on "can I
#: cast it" with its mana cost
OPTIONAL_EXTRAS = ("Entwine", "Buyback", "Replicate", "Splice", "Squad", "Casualty", "Bargain", "Gift", "Awaken",
                   "Cleave", "Offspring")

_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_KIND = r"(?:(?:white |blue |black |red |green )?(?:artifacts?|creatures?|lands?|enchantments?|permanents?)|Plains|" \
        r"Islands?|Swamps?|Mountains?|Forests?|basic lands?|[A-Z][a-z]+s?)"
_AFFINITY = re.compile(r"Affinity for (?P<kind>" + _KIND + r")")
_FOR_EACH = re.compile(r"This spell costs (?P<amount>(?:\{[^}]+\})+) (?P<dir>less|more) to cast for each "
                       r"(?:other )?(?P<kind>" + _KIND + r") (?P<where>you control|on the battlefield)\.")
_IF_CONTROL = re.compile(r"(?:[A-Z][a-z]+ — )?This spell costs (?P<amount>(?:\{[^}]+\})+) less to cast if you control "
                         r"(?:(?P<n>a|an|one|two|three|four|five) or more |(?P<one>a|an) )(?P<kind>" + _KIND + r")\.")
#: "costs {X} less to cast, where X is ..." read on the board: what is counted (Ghalta,
#: The Great Henge, Metalwork Colossus)
_DOMAIN = re.compile(r"(?:Domain — )?This spell costs (?P<amount>\{\d+\}) less to cast for each basic land type among "
                     r"lands you control\.")
_WHERE_X = re.compile(r"This spell costs \{X\} less to cast, where X is (?P<what>the total power of creatures you control|"
                      r"the greatest power among creatures you control|the total mana value of noncreature artifacts "
                      r"you control)\.")
WHERE_X = {"the total power of creatures you control": "total power",
           "the greatest power among creatures you control": "greatest power",
           "the total mana value of noncreature artifacts you control": "total mana value"}
#: Fireball: "This spell costs {1} more to cast for each target beyond the first." (the
#: spell's ``targets``, one unless the request says)
_PER_TARGET = re.compile(r"This spell costs (?P<amount>\{\d+\}) more to cast for each target beyond the first\.")
_DISCARD = re.compile(r"As an additional cost to cast this spell, discard (?P<n>a|an|one|two|three) "
                      r"(?P<kind>card|cards|land card|land cards|creature card|creature cards)\.")
_SACRIFICE = re.compile(r"As an additional cost to cast this spell, sacrifice (?P<n>a|an|one|two|three) "
                        r"(?P<kinds>" + _KIND + r"(?: or " + _KIND + r")*)\.")
_ADDITIONAL = re.compile(r"\bAs an additional cost to cast this spell\b", re.I)
_ABOUT_ITS_COST = re.compile(r"\bthis spell costs?\b|\bthis spell's (?:mana )?cost\b|\bspend only\b|"
                             r"\bcosts? (?:\{[^}]+\})+ (?:more|less)\b|\bto cast this spell\b", re.I)
#: other ways to cast a spell from the hand for mana alone, which "can I cast it" tries
#: (CR 702.74 evoke, 702.109 dash, 702.96 overload, 702.103 bestow): "Evoke {2}{U}"
TRIED_ALTERNATIVES = ("Evoke", "Dash", "Overload", "Bestow")
_MANA_ALTERNATIVE = re.compile(r"(Evoke|Dash|Overload|Bestow) ((?:\{[^}]+\})+)")
_RATHER = re.compile(r"\brather than pay(?:ing)? (?:this spell's|its) mana cost\b|\bwithout paying (?:its|this spell's) "
                     r"mana cost\b", re.I)


@dataclass(frozen=True)
class SelfReduction:
    """"This spell costs ``amount`` less (or more) to cast for each ``kind`` ``where``"
    ("you control", or "on the battlefield": both sides'): affinity (CR 702.41) among
    them."""

    amount: ManaCost
    change: str
    kind: str
    where: str
    text: str = ""
    #: "if you control N or more KIND" (or "a KIND"): the whole amount once, when the
    #: player controls at least ``at_least`` of them (0: for each one, as above)
    at_least: int = 0


@dataclass(frozen=True)
class SacrificeCost:
    """"As an additional cost to cast this spell, sacrifice ``count`` ``kinds``" (any one
    of ``kinds``: "artifact or creature"), paid after mana abilities are activated (CR
    601.2g-h): a creature that tapped for mana may be the one sacrificed."""

    kinds: tuple
    count: int = 1
    text: str = ""


@dataclass(frozen=True)
class AlternativeCost:
    """Another way to cast the spell from the hand for a mana cost alone (CR 118.9): evoke,
    dash, overload, bestow, ``keyword`` and ``mana`` ("Evoke {2}{U}")."""

    keyword: str
    mana: ManaCost
    text: str = ""


@dataclass(frozen=True)
class DiscardCost:
    """"As an additional cost to cast this spell, discard ``count`` card(s)" (a ``kind``:
    "card", or "land card"): cards of the hand other than the spell itself (CR 601.2h)."""

    count: int = 1
    kind: str = "card"
    text: str = ""


@dataclass(frozen=True)
class SpellText:
    """What :func:`read_spell_text` read: see the module."""

    keywords: frozenset = frozenset()
    reductions: tuple = ()
    sacrifices: tuple = ()
    alternatives: tuple = ()  # (line, why): other ways to cast it, not tried
    unread: tuple = ()  # (line, why): about its cost, not read: the total is not known
    alternative_costs: tuple = ()  # AlternativeCost: other ways to cast it for mana alone, tried
    discards: tuple = ()  # DiscardCost: additional costs that discard cards of the hand


def _kind(word: str) -> str:
    """A kind as model.board.Permanent.is_a takes it: "artifacts" -> "artifact",
    "Islands" -> "Island", "basic lands" -> "basic land"."""
    word = word.strip()
    if word in ("Plains",):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


#: a static ability of a permanent about what *other* spells cost (Thalia's "Noncreature
#: spells cost {1} more to cast.", Goblin Electromancer's, a Medallion's, Trinisphere's):
#: not about casting the card itself (CR 601.2f applies the effects on the battlefield to
#: the spell being cast; the card's own ability works once it is there, CR 611.3)
_OTHER_SPELLS_COST = re.compile(r"\bspells?\b[^.]*\bcosts? (?:(?:\{[^}]+\})+ |\w+ mana )?(?:(?:more|less) )?to cast\b|"
                                r"\bspells?\b[^.]* ha(?:ve|s) (?:affinity for|convoke|improvise|delve)\b", re.I)
_PERMANENT_TYPES = ("Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker")


def _about_other_spells(type_line: str, line: str) -> bool:
    """Whether ``line`` of a permanent card is its static ability about other spells'
    costs (see :data:`_OTHER_SPELLS_COST`): read on the battlefield, not here."""
    return (any(t in type_line.split("—")[0].split() for t in _PERMANENT_TYPES)
            and not re.search(r"\bthis spell\b", line, re.I) and bool(_OTHER_SPELLS_COST.search(line)))


def read_spell_text(type_line: str, oracle_text: str, name: str = "") -> SpellText:
    """Read a spell's text line by line (see the module); ``name`` is written ``~``.
    A permanent card's static ability about other spells' costs is not about its own.

    >>> read_spell_text("Legendary Creature — Human Soldier", "First strike\\nNoncreature spells cost {1} more to "
    ...                 "cast.", "Thalia, Guardian of Thraben").unread
    ()
    """
    keywords: set[str]
    keywords, reductions, sacrifices, alternatives, unread, tried, discards = set(), [], [], [], [], [], []
    for raw in (oracle_text or "").split("\n"):
        line = re.sub(r"\([^)]*\)", "", raw).strip()
        if name:
            line = re.sub(r"(?<![\w{/])" + re.escape(name) + r"(?![\w}/])", "this spell", line)
        if not line or _about_other_spells(type_line, line):
            continue
        words = [w.strip() for w in line.split(",")]
        first = re.split(r"[\s—]", words[0], maxsplit=1)[0].capitalize()
        if all(w.lower() in PAYING_KEYWORDS or w.split(" ")[0].capitalize() in OPTIONAL_EXTRAS or _is_evergreen(w)
               for w in words) and any(w.lower() in PAYING_KEYWORDS for w in words):
            keywords.update(PAYING_KEYWORDS[w.lower()] for w in words if w.lower() in PAYING_KEYWORDS)
            continue
        if m := _AFFINITY.fullmatch(line):
            reductions.append(SelfReduction(ManaCost.parse("{1}"), "less", _kind(m.group("kind")), "you control",
                                            line))
            continue
        if m := _FOR_EACH.fullmatch(line):
            try:
                amount = ManaCost.parse(m.group("amount"))
            except ManaplanError:
                unread.append((line, "a change of its cost that is not read"))
                continue
            if any(s.kind != "generic" for s in amount.symbols):
                unread.append((line, "a change of its cost that is not read"))
                continue
            reductions.append(SelfReduction(amount, m.group("dir"), _kind(m.group("kind")), m.group("where"), line))
            continue
        if m := _PER_TARGET.fullmatch(line):
            reductions.append(SelfReduction(ManaCost.parse(m.group("amount")), "more", "target beyond the first",
                                            "targets", line))
            continue
        if m := _DOMAIN.fullmatch(line):  # domain (CR 702.168... ability word): distinct basic land types
            reductions.append(SelfReduction(ManaCost.parse(m.group("amount")), "less", "basic land type", "domain",
                                            line))
            continue
        if m := _WHERE_X.fullmatch(line):
            reductions.append(SelfReduction(ManaCost.parse("{1}"), "less", WHERE_X[m.group("what")], "where X", line))
            continue
        if m := _IF_CONTROL.fullmatch(line):
            try:
                control_amount: ManaCost | None = ManaCost.parse(m.group("amount"))
            except ManaplanError:
                control_amount = None
            if control_amount is None or any(s.kind != "generic" for s in control_amount.symbols):
                unread.append((line, "a change of its cost that is not read"))
                continue
            n = _NUMBER_WORDS[(m.group("n") or m.group("one")).lower()]
            reductions.append(SelfReduction(control_amount, "less", _kind(m.group("kind")), "you control", line,
                                            at_least=n))
            continue
        if m := _DISCARD.fullmatch(line):
            kind = m.group("kind")
            kind = kind[:-1] if kind.endswith("s") else kind
            discards.append(DiscardCost(_NUMBER_WORDS[m.group("n")], kind, line))
            continue
        if m := _SACRIFICE.fullmatch(line):
            kinds = tuple(_kind(k) for k in m.group("kinds").split(" or "))
            sacrifices.append(SacrificeCost(kinds, _NUMBER_WORDS[m.group("n")], line))
            continue
        if (m := _MANA_ALTERNATIVE.fullmatch(line)) and m.group(1) in TRIED_ALTERNATIVES:
            try:
                tried.append(AlternativeCost(m.group(1).lower(), ManaCost.parse(m.group(2)), line))
                continue
            except ManaplanError:
                pass
        if first in ALTERNATIVE_KEYWORDS and first not in OPTIONAL_EXTRAS or _RATHER.search(line):
            alternatives.append((line, "another way to cast it, not tried: a \"no\" paid with its mana cost is not "
                                       "certain"))
            continue
        if first in OPTIONAL_EXTRAS or first in ("Kicker", "Multikicker"):
            continue  # an optional additional cost: not paid unless asked for (the request's kicker)
        if _ADDITIONAL.search(line):
            unread.append((line, "an additional cost that is not read"))
            continue
        if _ABOUT_ITS_COST.search(line):
            unread.append((line, "about what it costs to cast, not read"))
    return SpellText(frozenset(keywords), tuple(reductions), tuple(sacrifices), tuple(alternatives), tuple(unread),
                     tuple(tried), tuple(discards))


#: keywords that often share a line with convoke, improvise or delve and say nothing of cost
_EVERGREEN = {"flying", "trample", "haste", "vigilance", "reach", "flash", "deathtouch", "lifelink", "first strike",
              "double strike", "menace", "defender", "hexproof", "indestructible", "ward"}


def _is_evergreen(word: str) -> bool:
    return word.lower() in _EVERGREEN
