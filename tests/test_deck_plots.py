"""Figures where people would rather look than read: ``deck lands --plot`` (the bases
tried with their intervals), ``deck sources --plot`` (each card's sources wanted and had,
or the preset's table), and ``deck analyze``'s line plot past 12 cards (the commanders and
the cards least often castable on curve; every card in the heat map)."""

import subprocess
import sys

import pytest

from manaplan.deck.analyze import MOST_LINES_PLOTTED, plotted_cards

pytest.importorskip("matplotlib")
PNG = b"\x89PNG\r\n\x1a\n"


def _deck(*args, cwd):
    return subprocess.run([sys.executable, "-m", "manaplan", "deck", *args, "--quiet"] if args[0] != "sources" else
                          [sys.executable, "-m", "manaplan", "deck", *args], capture_output=True, text=True,
                          timeout=600, cwd=cwd)


def test_lands_and_sources_write_a_figure_each(tmp_path):
    lands = _deck("lands", "demo", "--games", "20", "--plot", "plots/", cwd=tmp_path)
    sources = _deck("sources", "demo", "--plot", "plots/", cwd=tmp_path)
    table = _deck("sources", "--deck-size", "40", "--lands", "17", "--plot", str(tmp_path / "table.png"), cwd=tmp_path)
    for run in (lands, sources, table):
        assert run.returncode == 0, run.stderr
    for path in ("plots/demo-lands.png", "plots/demo-sources.png", "table-sources.png"):
        assert (tmp_path / path).read_bytes().startswith(PNG)
        assert f"wrote {tmp_path / path}" in lands.stdout + sources.stdout + table.stdout or path.startswith("plots")


def _card(name: str, on_curve, copies: int = 4, zone: str | None = None) -> dict:
    return {"name": name, "on_curve": on_curve, "copies": copies, **({"zone": zone} if zone else {})}


def test_past_twelve_cards_the_line_plot_shows_the_commanders_and_the_least_castable():
    cards = [_card(f"c{k}", k / 20) for k in range(20)] + [_card("commander", 0.99, 1, "command")]
    shown = plotted_cards(cards)
    assert len(shown) == MOST_LINES_PLOTTED and shown[-1]["name"] == "commander"
    assert [c["name"] for c in shown[:-1]] == [f"c{k}" for k in range(MOST_LINES_PLOTTED - 1)]
    assert plotted_cards(cards[:12]) == cards[:12]
    ties = [_card("few", 0.5, 1), _card("many", 0.5, 4)] + [_card(f"sure{k}", 1.0) for k in range(11)]
    assert "many" in [c["name"] for c in plotted_cards(ties)] and "few" in [c["name"] for c in plotted_cards(ties)]
