"""The figures of ``deck lands --plot`` and ``deck sources --plot`` (``deck analyze``'s
are in :mod:`manaplan.deck.analyze`): PNG files written whole or not at all. Needs
matplotlib (``pip install 'manaplan[deck]'``)."""

from __future__ import annotations

from .analyze import plot_stem, save_figure


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise RuntimeError("plots need matplotlib: pip install 'manaplan[deck]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def lands_plot(result: dict, path: str, deck: str = "") -> list:
    """``PATH-lands.png``: each base tried (the deck's own, the hand-built one, the
    proposals) with its score and 95% interval, the best in its own color, on the same
    games (``deck lands``'s report)."""
    plt = _pyplot()
    tried = result["tried"]
    best = result.get("best")  # (the best base's label)
    fig, ax = plt.subplots(figsize=(12, 1.6 + 0.5 * len(tried)))
    for i, base in enumerate(tried):
        low, high = base["ci95"]
        color = "tab:green" if base["label"] == best else "tab:blue"
        ax.errorbar(100 * base["score"], i, xerr=[[100 * (base["score"] - low)], [100 * (high - base["score"])]],
                    fmt="o", color=color, capsize=3)
    ax.set_yticks(range(len(tried)), [_base_label(base) for base in tried], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("score (%): castable on curve, weighted by copies; bars: 95% interval")
    games = f"{result['games']:,} games a base {'on the play' if result['on'] == 'play' else 'on the ' + result['on']}"
    ax.set_title(f"Mana bases tried: {deck or 'deck'}, {games}; the best in green", fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    return _written(plt, fig, f"{plot_stem(path, deck)}-lands.png")


def _base_label(base: dict) -> str:
    lands = ", ".join(f"{n} {name}" for name, n in sorted(base["base"].items(), key=lambda kv: (-kv[1], kv[0])))
    return f"{base['label']}:\n{lands[:70]}{'...' if len(lands) > 70 else ''}"


def sources_plot(report: dict, path: str, deck: str = "") -> list:
    """``PATH-sources.png``: with a decklist, each card's colored symbols, the sources it
    wants (Karsten 2022) beside the sources the deck has, the short ones in red; without
    one, the table of sources needed for each cost pattern as a heat map."""
    plt = _pyplot()
    check = report.get("deck")
    if check is not None and check["cards"]:
        cards = check["cards"]
        fig, ax = plt.subplots(figsize=(9, 1.2 + 0.35 * len(cards)))
        for i, c in enumerate(cards):
            wants = c["wants"] if c["wants"] is not None else report["lands"]
            ax.barh(i, wants, color="lightgray", edgecolor="gray", height=0.6)
            ax.plot([c["has"]], [i], marker="o", color="tab:red" if c["short"] else "tab:green", linestyle="none")
        ax.set_yticks(range(len(cards)), [f"{c['name']} {c['mana_cost']} ({c['color']})" for c in cards], fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel("sources of the color: wanted (bar, Karsten 2022) and the deck's (dot: red when short)")
        ax.set_title(f"Sources by card: {deck or 'deck'}, {report['deck_size']} cards, {report['lands']} lands",
                     fontsize=9)
    else:
        needed = report["sources_needed"]
        rows = sorted({key.count("{C}") for key in needed})
        generic = sorted({_generic(key) for key in needed})
        grid = [[needed.get(_pattern(g, r)) for g in generic] for r in rows]
        fig, ax = plt.subplots(figsize=(2 + 0.8 * len(generic), 1.4 + 0.5 * len(rows)))
        cmap = plt.get_cmap("viridis").copy()
        cmap.set_bad("white")  # (a pattern the preset has no row for: blank, not 0)
        image = ax.imshow([[v if v is not None else float("nan") for v in row] for row in grid], cmap=cmap,
                          aspect="auto")
        for i, row in enumerate(grid):
            for j, v in enumerate(row):
                ax.text(j, i, "" if v is None else str(v), ha="center", va="center", fontsize=8,
                        color="white" if v is not None and v < 15 else "black")
        ax.set_xticks(range(len(generic)), [str(g) for g in generic])
        ax.set_yticks(range(len(rows)), ["C" * r for r in rows])
        ax.set_xlabel("generic mana in the cost")
        ax.set_ylabel("colored symbols of one color")
        ax.set_title(f"Sources needed (Karsten 2022): {report['deck_size']} cards, {report['lands']} lands", fontsize=9)
        fig.colorbar(image, ax=ax, label="sources of the color")
    ax.grid(alpha=0.2)
    return _written(plt, fig, f"{plot_stem(path, deck or 'sources')}-sources.png")


def _written(plt, fig, path: str) -> list:
    """[path] once the figure is laid out, written whole (``analyze.save_figure``) and closed."""
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)
    return [path]


def _generic(pattern: str) -> int:
    first = pattern.split("}")[0].lstrip("{")
    return int(first) if first.isdigit() else 0


def _pattern(generic: int, colored: int) -> str:
    return ("{%d}" % generic if generic else "") + "{C}" * colored
