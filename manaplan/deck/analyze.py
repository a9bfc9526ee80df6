"""``manaplan deck analyze``: how often each nonland card of a deck is castable, turn by
turn, with exact payment inside every simulated game.

>>> report = analyze(DEMO_DECK, games=40, turns=3, seed=1, workers=1, progress=False)
>>> report["games"], [c["name"] for c in report["cards"]][:2]
(40, ['Llanowar Elves', 'Simic Signet'])
"""

from __future__ import annotations

import math
import sys
import time

from ..model.errors import RequestError
from .cards import load_cards
from .decklist import Decklist
from .engine import CHUNK, LOCAL, run
from .formats import CONSTRUCTED, check_deck, check_name, policy_rules
from .simulate import DeckModel, Policy, Tally

#: the demo deck (two colors: filter lands, a check land, taplands, a bounce land,
#: Signets and mana creatures), whose cards ship in the demo card file
DEMO_DECK = """Deck
8 Forest
7 Island
4 Flooded Grove
2 Hinterland Harbor
2 Thornwood Falls
1 Simic Growth Chamber
4 Llanowar Elves
2 Simic Signet
4 Grizzly Bears
4 Kalonian Tusker
4 Counterspell
4 Opt
4 Centaur Courser
4 Cancel
2 Air Elemental
2 Craw Wurm
2 Coiling Oracle
"""
#: z for a two-sided 95% interval
Z95 = 1.959964


def analyze(decklist, cards: list | None = None, cards_file: str | None = None, games: int = 10000,
            turns: int = 8, seed=0, on: str = "play", mulligan: str = "london", ramp: bool = True,
            engine: str = LOCAL, workers: int | None = None, address: str | None = None, progress=True,
            chunk: int = CHUNK, name: str = "", format: str = CONSTRUCTED) -> dict:
    """The report (the contract's JSON, with more fields) for a decklist (text or a
    :class:`Decklist`), card objects given inline (``cards``: a list) or read from
    ``cards_file`` (default: the demo card file)."""
    deck = decklist if isinstance(decklist, Decklist) else Decklist.parse(decklist)
    if not 1 <= games <= 100_000_000:
        raise ValueError("'games' must be 1 to 100,000,000")
    check_name(format)
    data = load_cards(deck.played_names, cards_file, cards)  # (a sideboard's cards need no data: never played)
    check_deck(format, deck, data)
    policy = Policy(turns=turns, on=on, mulligan=mulligan, ramp=ramp, **policy_rules(format))
    model = DeckModel.build(deck, data)  # (checked here, before any worker starts)
    started = time.perf_counter()
    bar = _progress_bar(games) if progress else None
    try:
        tally = run(deck, data, policy, games, seed, engine, workers, address,
                    progress=(lambda n: bar.update(n)) if bar is not None else None, chunk=chunk)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - started
    return {"deck": name, "format": format, **report(model, policy, tally, seed, engine, workers, seconds)}


def _progress_bar(games: int):
    try:
        from tqdm import tqdm
    except ImportError:  # (without tqdm, a line now and then: never silent for minutes)
        return _PlainProgress(games)
    return tqdm(total=games, unit="game", unit_scale=True, file=sys.stderr, desc="games", smoothing=0.1)


class _PlainProgress:
    """Progress without tqdm: a line on standard error at each tenth of the games."""

    def __init__(self, total: int):
        self.total, self.done, self.shown = total, 0, 0
        print(f"games: 0 of {total:,}", file=sys.stderr, flush=True)

    def update(self, n: int) -> None:
        self.done += n
        if self.done * 10 // max(1, self.total) > self.shown or self.done >= self.total:
            self.shown = self.done * 10 // max(1, self.total)
            print(f"games: {self.done:,} of {self.total:,}", file=sys.stderr, flush=True)

    def close(self) -> None:
        pass


def _mean_largest_x(tally: Tally, k: int, turns: int) -> list:
    """An X spell's figure beside ``by_turn`` (which asks X = 0): by turn, the mean of the
    largest X the best line of play pays, over the games where some line casts it (null
    where none does)."""
    out = []
    for t in range(turns):
        counts = tally.largest_x[t].get(k, {})
        games = sum(counts.values())
        out.append(round(sum(x * n for x, n in counts.items()) / games, 4) if games else None)
    return out


def report(model: DeckModel, policy: Policy, tally: Tally, seed, engine: str, workers, seconds: float) -> dict:
    """The numbers of a run, per nonland card and per turn."""
    games = tally.games
    cards = []
    for k, c in enumerate(model.measured):
        by_turn = [_share(tally.castable[t], k, games) or 0.0 for t in range(policy.turns)]
        given = [_share(tally.castable_given_lands[t], k, tally.lands_hit[t]) for t in range(policy.turns)]
        played = [_share(tally.castable_as_played[t], k, games) for t in range(policy.turns)]
        short = [_share(tally.short[t], k, games) or 0.0 for t in range(policy.turns)]
        undecided = [_share(tally.undecided[t], k, games) or 0.0 for t in range(policy.turns)]
        undecided_played = [_share(tally.undecided_as_played[t], k, games) or 0.0 for t in range(policy.turns)]
        value = model.mana_value[c]
        curve = max(1, value)

        def at_curve(figures):
            return figures[curve - 1] if curve <= policy.turns else None

        cards.append({
            "name": model.names[c],
            "mana_cost": model.cards[c].get("mana_cost", ""),
            "mana_value": value,
            "copies": model.copies[c],
            **({"zone": "command"} if c in model.commanders else {}),
            "on_curve": at_curve(by_turn),
            "on_curve_given_lands": at_curve(given),
            "on_curve_as_played": at_curve(played),
            "by_turn": by_turn,
            "by_turn_given_lands": given,
            "by_turn_as_played": played,
            "ci95": [list(wilson(p, games)) for p in by_turn],
            "fails_for_mana": short,
            "fails_for_colors": [round(1 - p - s - u, 6) for p, s, u in zip(by_turn, short, undecided)],
            # (games whose answer was undecided, text not read or a time guard: counted
            # neither castable nor not; ``by_turn`` is then a lower bound)
            "undecided_by_turn": undecided,
            "undecided_as_played": undecided_played,
            **({"largest_x_by_turn": _mean_largest_x(tally, k, policy.turns)} if k in model.x_spells else {}),
        })
    return {
        "games": games,
        "turns": policy.turns,
        "seed": seed,
        "on": policy.on,
        "mulligan": policy.mulligan,
        "ramp": policy.ramp,
        "cards": cards,
        "lands_hit": [n / games for n in tally.lands_hit],
        "mana_spent": [n / games for n in tally.spent],
        "mulligans": {str(k): n for k, n in sorted(tally.mulligans.items())},
        "lines_cut": tally.cut,
        "mana_at_least": [_at_least(tally.mana[t], games) for t in range(policy.turns)],
        "unread": model.unread,
        "engine": engine,
        "workers": workers,
        "seconds": round(seconds, 3),
    }


def _at_least(row: dict, games: int) -> list:
    """[P(at least 1 mana), P(at least 2), ...] up to the most any game had."""
    most = max(row, default=0)
    return [sum(n for amount, n in row.items() if amount >= k) / games for k in range(1, most + 1)] if games else []


def _share(row: dict, k: int, of: int) -> float | None:
    if not of:
        return None
    return sum(n for mask, n in row.items() if mask >> k & 1) / of


def wilson(p: float, n: int) -> tuple:
    """The Wilson score interval of a proportion at 95% (rounded to 6 places)."""
    if not n:
        return (0.0, 1.0)
    centre = p + Z95 * Z95 / (2 * n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n))
    scale = 1 + Z95 * Z95 / n
    return (round(max(0.0, (centre - half) / scale), 6), round(min(1.0, (centre + half) / scale), 6))


def table(result: dict) -> str:
    """The report as a terminal table: each card's chance to be castable by turn (%), as
    players mean it (some land drops pay it), with its on-curve figure, Karsten's
    conditional (given every land drop so far) and the simulated player's own line."""
    turns = result["turns"]
    width = max(len(c["name"]) + (12 if c.get("zone") else 0) for c in result["cards"]) if result["cards"] else 4
    head = f"{'card':<{width}}  {'cost':<12} {'n':>2}  {'curve':>6} {'|lands':>6} {'played':>6}  " + " ".join(
        f"{'t' + str(t + 1):>5}" for t in range(turns))
    rules = " (Commander: nobody skips the first draw, the first mulligan is free)" \
        if result.get("format") == "commander" else ""
    lines = [f"{result['games']:,} games, {turns} turns, {play_or_draw(result['on'])}{rules}, mulligan "
             f"{result['mulligan']} (seed {result['seed']}); % castable by turn if the lands are played for the card",
             "(curve: on curve; |lands: on curve given every land drop so far; played: on curve as the simulated "
             "player played)", head, "-" * len(head)]

    def percent(p):
        return "-" if p is None else f"{100 * p:5.1f}"

    for c in result["cards"]:
        lines.append(f"{c['name'] + (' (commander)' if c.get('zone') == 'command' else ''):<{width}}  {c['mana_cost']:<12} {c['copies']:>2}  {percent(c['on_curve']):>6} "
                     f"{percent(c['on_curve_given_lands']):>6} {percent(c['on_curve_as_played']):>6}  "
                     + " ".join(f"{100 * p:5.1f}" for p in c["by_turn"]))
    pad = f"{'':<12} {'':>2}  {'':>6} {'':>6} {'':>6}  "
    lines.append(f"{'lands on curve':<{width}}  {pad}" + " ".join(f"{100 * p:5.1f}" for p in result["lands_hit"]))
    lines.append(f"{'mana spent':<{width}}  {pad}" + " ".join(f"{p:5.2f}" for p in result["mana_spent"]))
    if result.get("lines_cut"):
        lines.append(f"{result['lines_cut']:,} games had more lines of play than followed: their figures are a "
                     f"lower bound")
    for c in result["cards"]:
        if any(c.get("undecided_by_turn") or ()):
            lines.append(f"undecided for {c['name']} (counted neither castable nor not; the figures above are a lower "
                         f"bound): " + " ".join(f"t{t + 1} {100 * u:.1f}%" for t, u in
                                               enumerate(c["undecided_by_turn"]) if u))
    for c in result["cards"]:
        if "largest_x_by_turn" in c:
            lines.append(f"{c['name']} (figures at X = 0): the largest X a line pays, mean by turn: " + " ".join(
                f"t{t + 1} {'-' if x is None else f'{x:.2f}'}" for t, x in enumerate(c["largest_x_by_turn"])))
    for name, lines_unread in result["unread"].items():
        lines.append(f"unread text on {name}: {'; '.join(lines_unread)}")
    return "\n".join(lines)


def play_or_draw(on: str) -> str:
    """The words for ``on``: "on the play", "on the draw", or "half on the play, half on
    the draw" ("on the both")."""
    return "half on the play, half on the draw" if on == "both" else f"on the {on}"


#: what the plotted figure means (the legend's title)
MEANING = "castable: some land drops\n(and mana permanents cast before) pay it"
#: line styles and markers, combined with 20 + 20 colors: every card of a deck up to 40
#: has a color of its own, and cards side by side differ in style and marker too
_STYLES = ("-", "--", "-.", ":")
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "h", "p")


def plot_stem(path: str, deck: str) -> str:
    """The plots' path without ``.png``; a folder (``plots/``) gets the deck's name."""
    import os

    if path.endswith(("/", os.sep)) or os.path.isdir(path):
        return os.path.join(path, deck or "deck")
    return path[:-4] if path.lower().endswith(".png") else path


def plot(result: dict, path: str) -> list:
    """Two PNG files from ``path`` (``deck.png`` -> ``deck-by-turn.png``,
    ``deck-heat.png``; a folder: named by the deck): castability by turn, one line per
    card (a color, line style and marker of its own; a star on its on-curve turn); a
    heat map of cards x turns (the on-curve cell framed). Needs matplotlib (``pip
    install 'manaplan[deck]'``)."""
    try:
        import matplotlib
    except ImportError:
        raise RuntimeError("plots need matplotlib: pip install 'manaplan[deck]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    stem = plot_stem(path, result.get("deck", ""))
    turns = list(range(1, result["turns"] + 1))
    about = _about(result)
    out = []
    fig = by_turn_figure(result)
    out.append(f"{stem}-by-turn.png")
    _save_whole(fig, out[-1])
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(2.6 + 0.7 * len(turns), 1.4 + 0.32 * len(result["cards"])))
    grid = [[100 * p for p in c["by_turn"]] for c in result["cards"]]
    image = ax.imshow(grid, cmap="viridis", vmin=0, vmax=100, aspect="auto")
    ax.set_xticks(range(len(turns)), [str(t) for t in turns])
    ax.set_yticks(range(len(grid)), [f"{c['name']} {c['mana_cost']}" for c in result["cards"]], fontsize=7)
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            ax.text(j, i, f"{v:.0f}", ha="center", va="center", fontsize=6, color="white" if v < 60 else "black")
        c = result["cards"][i]
        if c["on_curve"] is not None:
            ax.add_patch(Rectangle((max(1, c["mana_value"]) - 1.5, i - 0.5), 1, 1, fill=False, edgecolor="red",
                                   linewidth=1.5))
    ax.set_xlabel("turn (red frame: on curve)")
    ax.set_title(f"Castable by turn (%): {about}", fontsize=9)
    fig.colorbar(image, ax=ax, label="castable (% of games)")
    fig.tight_layout()
    out.append(f"{stem}-heat.png")
    _save_whole(fig, out[-1])
    plt.close(fig)
    return out


def _save_whole(fig, path: str) -> None:
    """The figure as a PNG at ``path``, written whole or not at all, a link there replaced
    rather than followed."""
    import io

    from ..files import write_whole

    buffer = io.BytesIO()
    fig.savefig(buffer, dpi=110, format="png", bbox_inches="tight")  # (long labels kept whole)
    try:
        write_whole(path, buffer.getvalue())
    except OSError as e:
        raise RequestError(f"can't write {path}: {e.strerror or e} (nothing written there)", "plot") from None


def _about(result: dict) -> str:
    rules = ", Commander rules" if result.get("format") == "commander" else ""
    return f"{result.get('deck') or 'deck'}, {result['games']:,} games {play_or_draw(result['on'])}{rules}"


def card_look(i: int) -> tuple:
    """(color, line style, marker) of the i-th card's line: 40 colors, each card its own,
    the strong shades first; neighbours differ in style and marker too."""
    import matplotlib.pyplot as plt

    # (both are ListedColormaps, whose ``colors`` matplotlib's stubs type too loosely to list)
    colors = list(plt.get_cmap("tab20").colors) + list(plt.get_cmap("tab20b").colors)  # type: ignore[attr-defined]
    colors = colors[0::2] + colors[1::2]
    return colors[i % len(colors)], _STYLES[i % len(_STYLES)], _MARKERS[i % len(_MARKERS)]


#: the most cards the line plot draws: past it, lines can't be told apart (the heat map
#: shows every card)
MOST_LINES_PLOTTED = 12


def plotted_cards(cards: list) -> list:
    """The cards the line plot draws: all of them up to :data:`MOST_LINES_PLOTTED`, else
    the commanders and then the cards least often castable on curve (the ones a player
    would look at), ties to the more copies, in the report's order."""
    if len(cards) <= MOST_LINES_PLOTTED:
        return list(cards)

    def concern(k: int) -> tuple:
        c = cards[k]
        on_curve = c["on_curve"] if c["on_curve"] is not None else 1.0
        return (not c.get("zone"), on_curve, -c.get("copies", 1), k)
    chosen = sorted(sorted(range(len(cards)), key=concern)[:MOST_LINES_PLOTTED])
    return [cards[k] for k in chosen]


def save_figure(fig, path: str) -> None:
    """The figure as a PNG at ``path`` (:func:`_save_whole`): for the other commands' plots."""
    _save_whole(fig, path)


def by_turn_figure(result: dict):
    """The line plot: one line per card, a star on its on-curve turn, whole turns, the
    deck and play/draw in the title, the figure's meaning in the legend."""
    import matplotlib.pyplot as plt

    turns = list(range(1, result["turns"] + 1))
    shown = plotted_cards(result["cards"])
    fig, ax = plt.subplots(figsize=(10, 6))
    for i, c in enumerate(shown):
        color, style, marker = card_look(i)
        ax.plot(turns, [100 * p for p in c["by_turn"]], color=color, linestyle=style, marker=marker, markersize=4,
                linewidth=1.4, label=f"{c['name']} {c['mana_cost']}" + (" (commander)" if c.get("zone") else ""))
        if c["on_curve"] is not None:
            ax.plot([max(1, c["mana_value"])], [100 * c["on_curve"]], marker="*", markersize=13, color=color,
                    markeredgecolor="black", markeredgewidth=0.6, linestyle="none")
    ax.plot([], [], marker="*", markersize=11, color="white", markeredgecolor="black", linestyle="none",
            label="on curve (turn = mana value)")
    ax.set_xticks(turns)
    ax.set_xlim(0.7, turns[-1] + 0.3)
    ax.set_xlabel("turn")
    ax.set_ylabel("castable (% of games)")
    ax.set_ylim(0, 102)
    left_out = len(result["cards"]) - len(shown)
    ax.set_title(f"Castable by turn: {_about(result)}" + (
        f"\nthe {len(shown)} cards least often castable on curve (commanders first); all "
        f"{len(result['cards'])} in the heat map" if left_out else ""), fontsize=11 if not left_out else 9)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), title=MEANING, title_fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig
