"""``manaplan deck sources``: how many sources of a color a deck needs to cast a cost
pattern on curve, as the published tables count it.

The preset is Frank Karsten's 2022 update ("How Many Sources Do You Need to Consistently
Cast Your Spells? A 2022 Update", TCGplayer, 2022-08-02): a card of mana value M with N
symbols of one color (``{C}`` in a pattern) is castable consistently when, **on the
play**, the probability of having drawn at least N sources of that color by turn M,
given at least M lands by turn M, is at least 89 + M percent (90% for one-drops, 96% for
seven-drops). Lands are the only sources; 40, 60, 80 and 99-card decks hold 17, 25, 35
and 41 lands. London mulligan: keep seven with 2 to 5 lands, six or five cards (after
bottoming) with 2 to 4, always four; bottom a spell from six if three or more are
spells, else a land; from five or four aim for three lands, off-color lands first.
Commander (99 cards): a free first mulligan (kept at 3 to 5 lands) and a draw on turn
one (CR 103.5c, 103.8c).

Where his numbers come from five million simulated games per cell, these are exact:
the composition of every kept hand is enumerated (multivariate hypergeometric), the
bottoming rule applied to it, and the draws after it counted in closed form. With lands
only, a board pays ``{M-N}`` plus N colored symbols exactly when it has M lands and N of
that color (Hall's condition, which manaplan's own answers meet: ``tests``), so the
count is the payment.

>>> sources_needed(60, 25)["{1}{C}"]
13
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

#: the published table (Karsten 2022), deck size -> pattern -> sources
PUBLISHED = {
    60: {"{C}": 14, "{1}{C}": 13, "{2}{C}": 12, "{3}{C}": 10, "{4}{C}": 9, "{5}{C}": 9, "{C}{C}": 21, "{1}{C}{C}": 18,
         "{2}{C}{C}": 16, "{3}{C}{C}": 15, "{4}{C}{C}": 13, "{5}{C}{C}": 12, "{C}{C}{C}": 23, "{1}{C}{C}{C}": 21,
         "{2}{C}{C}{C}": 19, "{3}{C}{C}{C}": 17, "{4}{C}{C}{C}": 16, "{C}{C}{C}{C}": 24, "{1}{C}{C}{C}{C}": 22},
    80: {"{C}": 19, "{1}{C}": 18, "{2}{C}": 16, "{3}{C}": 15, "{4}{C}": 14, "{5}{C}": 12, "{C}{C}": 28, "{1}{C}{C}": 25,
         "{2}{C}{C}": 23, "{3}{C}{C}": 20, "{4}{C}{C}": 19, "{5}{C}{C}": 17, "{C}{C}{C}": 32, "{1}{C}{C}{C}": 29,
         "{2}{C}{C}{C}": 26, "{3}{C}{C}{C}": 24, "{4}{C}{C}{C}": 22, "{C}{C}{C}{C}": 34, "{1}{C}{C}{C}{C}": 31},
    99: {"{C}": 19, "{1}{C}": 19, "{2}{C}": 18, "{3}{C}": 16, "{4}{C}": 15, "{5}{C}": 14, "{C}{C}": 30, "{1}{C}{C}": 28,
         "{2}{C}{C}": 26, "{3}{C}{C}": 23, "{4}{C}{C}": 22, "{5}{C}{C}": 20, "{C}{C}{C}": 36, "{1}{C}{C}{C}": 33,
         "{2}{C}{C}{C}": 30, "{3}{C}{C}{C}": 28, "{4}{C}{C}{C}": 26, "{C}{C}{C}{C}": 39, "{1}{C}{C}{C}{C}": 36},
    40: {"{C}": 9, "{1}{C}": 9, "{2}{C}": 8, "{3}{C}": 7, "{4}{C}": 6, "{5}{C}": 6, "{C}{C}": 14, "{1}{C}{C}": 12,
         "{2}{C}{C}": 11, "{3}{C}{C}": 10, "{4}{C}{C}": 9, "{5}{C}{C}": 8, "{C}{C}{C}": 16, "{1}{C}{C}{C}": 14,
         "{2}{C}{C}{C}": 13, "{3}{C}{C}{C}": 11, "{4}{C}{C}{C}": 10, "{C}{C}{C}{C}": 17, "{1}{C}{C}{C}{C}": 15},
}
#: the lands of the preset's decks
PRESET_LANDS = {40: 17, 60: 25, 80: 35, 99: 41}
PATTERNS = tuple(PUBLISHED[60])


def pattern_needs(pattern: str) -> tuple:
    """(mana value, colored symbols) of ``{2}{C}{C}``-style patterns."""
    symbols = pattern.strip("{}").split("}{")
    colored = sum(1 for s in symbols if s == "C")
    generic = sum(int(s) for s in symbols if s.isdigit())
    if colored + sum(1 for s in symbols if s.isdigit()) != len(symbols) or not colored:
        raise ValueError(f"a pattern is generic and {{C}} symbols, like {{1}}{{C}}{{C}}: not {pattern!r}")
    return generic + colored, colored


def target(mana_value: int) -> float:
    """The preset's consistency target for a mana value: 89 + M percent."""
    return (89 + mana_value) / 100


def probability(deck_size: int, lands: int, sources: int, mana_value: int, colored: int,
                commander: bool | None = None) -> float:
    """P(at least ``colored`` sources by turn ``mana_value`` | at least ``mana_value``
    lands by then), on the play, after Karsten's London mulligans; exact."""
    commander = deck_size >= 99 if commander is None else commander
    return _probability(deck_size, lands, sources, mana_value, colored, commander)


@lru_cache(maxsize=None)
def _probability(n: int, lands: int, sources: int, turn: int, colored: int, commander: bool) -> float:
    kept = _kept_hands(n, lands, sources, commander)
    hit = both = 0.0
    draws = turn - 1 + (1 if commander else 0)  # on the play: no draw on turn one, but Commander's
    for (x, o, s, bottom_x, bottom_o, bottom_s), weight in kept.items():
        # the library after the hand: the bottomed cards are at its bottom, not drawn
        lib_x, lib_o = sources - x - bottom_x, lands - sources - o - bottom_o
        lib = n - (x + o + s) - (bottom_x + bottom_o + bottom_s)
        lib_s = lib - lib_x - lib_o
        for dx in range(0, min(draws, lib_x) + 1):
            for do in range(0, min(draws - dx, lib_o) + 1):
                ds = draws - dx - do
                if ds > lib_s:
                    continue
                p = weight * comb(lib_x, dx) * comb(lib_o, do) * comb(lib_s, ds) / comb(lib, draws)
                if x + dx + o + do >= turn:
                    hit += p
                    if x + dx >= colored:
                        both += p
    return both / hit if hit else 0.0


def _kept_hands(n: int, lands: int, sources: int, commander: bool) -> dict:
    """{(sources, other lands, spells in the kept hand, and put on the bottom): the
    probability of keeping that}, by Karsten's mulligan rule."""
    others, spells = lands - sources, n - lands
    out: dict = {}
    reach = 1.0
    for taken in range(0, 4):
        keep_size = 7 - max(0, taken - (1 if commander else 0))
        go_on = 0.0
        for x in range(0, 8):
            for o in range(0, 8 - x):
                s = 7 - x - o
                if x > sources or o > others or s > spells:
                    continue
                p = reach * comb(sources, x) * comb(others, o) * comb(spells, s) / comb(n, 7)
                hand, bottom = _bottomed(x, o, s, 7 - keep_size)
                kept_lands = hand[0] + hand[1]
                if keep_size <= 4:
                    ok = True
                elif commander and taken == 0:
                    ok = 3 <= kept_lands <= 5
                elif keep_size == 7:
                    ok = 2 <= kept_lands <= 5
                else:
                    ok = 2 <= kept_lands <= 4
                if ok:
                    out[hand + bottom] = out.get(hand + bottom, 0.0) + p
                else:
                    go_on += p
        reach = go_on
        if not reach:
            break
    return out


def _bottomed(x: int, o: int, s: int, k: int) -> tuple:
    """((sources, others, spells) kept, (sources, others, spells) bottomed): from six a
    spell if three or more spells, else a land; from five or four, three lands and the
    rest spells; off-color lands go first."""
    kept, bottom = [x, o, s], [0, 0, 0]

    def put(kind: int) -> None:
        kept[kind] -= 1
        bottom[kind] += 1

    for i in range(k):
        lands, spells = kept[0] + kept[1], kept[2]
        if k == 1:
            take_spell = spells >= 3 or lands == 0
        else:
            take_spell = spells > 7 - k - 3 and spells > 0 or lands == 0
            take_spell = take_spell and not (lands > 3 and spells <= 7 - k - 3)
        if take_spell:
            put(2)
        else:
            put(1 if kept[1] else 0)
    return tuple(kept), tuple(bottom)


def sources_needed(deck_size: int, lands: int, patterns=PATTERNS) -> dict:
    """{pattern: the fewest sources reaching the target (None if even all lands don't)}."""
    return {pattern: fewest_sources(deck_size, lands, *pattern_needs(pattern)) for pattern in patterns}


def fewest_sources(deck_size: int, lands: int, mana_value: int, colored: int) -> int | None:
    """The fewest sources of a color that cast a card of ``mana_value`` with ``colored``
    symbols of that color on curve at the preset's target (None: not even all lands)."""
    goal = target(mana_value)
    for sources in range(colored, lands + 1):
        if probability(deck_size, lands, sources, mana_value, colored) >= goal:
            return sources
    return None


#: the colors' names, for words a player reads
COLOR_NAMES = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}


def pattern_words(pattern: str) -> tuple:
    """(mana value, colored symbols, an example cost in one color) of a pattern: the
    table's ``{C}`` stands for one colored symbol, which a player would read as colorless
    mana (CR 107.4c): ``{1}{C}{C}`` -> (3, 2, "{1}{W}{W}")."""
    value, colored = pattern_needs(pattern)
    return value, colored, ("{%d}" % (value - colored) if value > colored else "") + "{W}" * colored


def table(deck_size: int, lands: int, needed: dict) -> str:
    """The preset's table for a player: what each row means, by mana value and colored
    symbols, with a cost as example."""
    lines = [f"Sources of one color needed to cast a card on curve: {deck_size} cards, {lands} lands",
             "(Frank Karsten 2022: on the play, given M lands by turn M, at least 89 + M percent; lands the only "
             "sources)", f"{'mana value':>10}  {'symbols of the color':>20}  {'for example':<16} sources"]
    for pattern, n in needed.items():
        value, colored, example = pattern_words(pattern)
        lines.append(f"{value:>10}  {colored:>20}  {example:<16} {n if n is not None else 'not reachable'}")
    return "\n".join(lines)


def color_symbols(model, c: int) -> tuple:
    """(the mana cost of card ``c`` of a DeckModel (its front face's where the card has
    faces), {color: its plain symbols of that color}); hybrid and Phyrexian symbols,
    payable otherwise, are not counted."""
    from ..model.mana import ManaCost
    from ..model.symbols import COLORED

    from ..scryfall import front_mana_cost

    card = model.cards[c]
    cost = front_mana_cost(card)
    try:  # (the notation's own reader: {10}, {2/W} and the like are symbols, never split by hand)
        parsed = ManaCost.parse(cost.split(" // ")[0]) if cost else None
    except ValueError:
        parsed = None
    plain = [s.colors[0] for s in parsed.symbols if s.kind == COLORED] if parsed is not None else []
    return cost, {color: plain.count(color) for color in COLOR_NAMES if color in plain}


def curve_turn(model, c: int) -> int:
    """The turn the preset judges card ``c`` on: its mana value (1 at least, 7 at most)."""
    return min(max(1, model.mana_value[c]), 7)


def deck_check(model) -> dict:
    """The deck's own sources of each color (its lands that can make it, by copies)
    against what each nonland card wants under the preset (its mana value and its
    symbols of that color; hybrid and Phyrexian symbols, payable otherwise, are not
    counted): {"deck_size", "lands", "sources": {color: n}, "cards": [{name, mana_cost,
    color, mana_value, symbols, wants, has, short}]}."""
    deck_size = sum(model.copies)
    lands = sum(n for n, land in zip(model.copies, model.is_land) if land)
    sources = {color: sum(n for c, n in enumerate(model.copies) if model.is_land[c] and color in model.makes[c])
               for color in COLOR_NAMES}
    cards = []
    for c in model.measured:
        cost, symbols = color_symbols(model, c)
        for color, n in symbols.items():
            wants = fewest_sources(deck_size, lands, curve_turn(model, c), n)
            cards.append({"name": model.names[c], "mana_cost": cost, "color": color, "mana_value": model.mana_value[c],
                          "symbols": n, "wants": wants, "has": sources[color],
                          "short": (wants is None) or sources[color] < wants})
    return {"deck_size": deck_size, "lands": lands, "sources": {k: v for k, v in sources.items() if v}, "cards": cards}


def check_lines(check: dict) -> str:
    """The deck's sources against its cards, in words: a line per color the costs use
    ("12 white sources; Savannah Lions {W} wants 14: short by 2"), its most demanding
    card first, then every card short."""
    lines = [f"The deck's own sources ({check['deck_size']} cards, {check['lands']} lands):"]
    for color, name in COLOR_NAMES.items():
        wanting = [c for c in check["cards"] if c["color"] == color]
        if not wanting:
            continue
        most = max(wanting, key=lambda c: (c["wants"] is None, c["wants"] or 0))
        has = check["sources"].get(color, 0)
        if most["wants"] is None:
            verdict = "no land count reaches the target"
        elif has < most["wants"]:
            verdict = f"short by {most['wants'] - has}"
        else:
            verdict = "enough"
        lines.append(f"  {has} {name} source{'s' if has != 1 else ''}; {most['name']} {most['mana_cost']} wants "
                     f"{most['wants'] if most['wants'] is not None else 'more than the lands'}: {verdict}")
        for c in wanting:
            if c is not most and c["short"]:
                lines.append(f"    also short: {c['name']} {c['mana_cost']} wants {c['wants']}")
    return "\n".join(lines)


def comparison_table(sizes=(40, 60, 80, 99)) -> str:
    """Markdown: manaplan's exact numbers beside the published ones, by deck size."""
    rows = ["| pattern | " + " | ".join(f"{n} ({PRESET_LANDS[n]} lands): exact / published" for n in sizes) + " |",
            "|---|" + "---|" * len(sizes)]
    exact = {n: sources_needed(n, PRESET_LANDS[n]) for n in sizes}
    for pattern in PATTERNS:
        cells = []
        for n in sizes:
            mine, theirs = exact[n][pattern], PUBLISHED[n][pattern]
            mark = "" if mine == theirs else " *"
            cells.append(f"{mine} / {theirs}{mark}")
        rows.append(f"| `{pattern}` | " + " | ".join(cells) + " |")
    return "\n".join(rows)
