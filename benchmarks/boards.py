"""Benchmark boards and costs, generated from a seed so every run measures the same.

Plain boards hold single-mana sources only (basics, duals, tri-lands, any-color dorks);
chain boards add Sol Ring-style multi-mana rocks, Signets, filter lands, Treasures and
pain lands; converter boards abilities that cost mana or life and don't tap; the two XMage freeze boards are Cascading Cataracts among 30 lands and a
Dryad of the Ilysian Grove board where every land taps for any color.
"""

from __future__ import annotations

import random

BASICS = ["{W}", "{U}", "{B}", "{R}", "{G}"]
DUALS = [["{W}", "{U}"], ["{U}", "{B}"], ["{B}", "{R}"], ["{R}", "{G}"], ["{G}", "{W}"]]
TRIS = [["{W}", "{U}", "{B}"], ["{B}", "{R}", "{G}"], ["{G}", "{W}", "{U}"]]
SIGNETS = ["{W}{U}", "{U}{B}", "{B}{R}", "{R}{G}", "{G}{W}"]
FILTERS = [("{W/U}", ["{W}{W}", "{W}{U}", "{U}{U}"]), ("{B/R}", ["{B}{B}", "{B}{R}", "{R}{R}"]),
           ("{G/W}", ["{G}{G}", "{G}{W}", "{W}{W}"])]
#: costs of colored, {C}, hybrid, generic and X symbols: what Hall's condition and the
#: naive per-source model decide exactly (the plain family uses only these)
PLAIN_COSTS = ["{2}{W}{U}", "{1}{B}{B}", "{3}{R}", "{G}{G}{G}", "{X}{R}", "{W/U}{W/U}{1}", "{C}{3}", "{4}{B}{R}",
               "{1}{U/B}{U/B}", "{2}{G}{U}{W}"]
#: every symbol kind, twobrid and Phyrexian included
COSTS = ["{2}{W}{U}", "{1}{B}{B}", "{3}{R}", "{G}{G}{G}", "{1}{W/P}", "{2/R}{2/G}", "{X}{R}", "{W/U}{W/U}{1}",
         "{C}{3}", "{4}{B}{R}", "{1}{U/B}{U/B}", "{2}{G}{U}{W}"]


def _tap(pid, add, **extra):
    return {"id": pid, "abilities": [{"cost": "{T}", "add": add}], **extra}


def plain_board(n: int, rng: random.Random) -> list:
    """n single-mana sources: mostly basics, some duals, tri-lands and any-color dorks."""
    board = []
    for i in range(n):
        r = rng.random()
        if r < 0.55:
            board.append(_tap(f"l{i}", rng.choice(BASICS)))
        elif r < 0.8:
            board.append(_tap(f"l{i}", rng.choice(DUALS)))
        elif r < 0.9:
            board.append(_tap(f"l{i}", rng.choice(TRIS)))
        else:
            board.append(_tap(f"d{i}", "any", type_line="Creature — Elf Druid"))
    return board


def _land(i: int, rng: random.Random) -> dict:
    """The i-th permanent of a mixed board as a plain source (plain_board's mix)."""
    return {**plain_board(1, rng)[0], "id": f"l{i}"}


def _signet(i: int, rng: random.Random) -> dict:
    return {"id": f"sig{i}", "abilities": [{"cost": "{1}, {T}", "add": rng.choice(SIGNETS)}]}


def chain_board(n: int, rng: random.Random) -> list:
    """n sources of which about a third make several mana or cost mana to activate."""
    board = []
    for i in range(n):
        r = rng.random()
        if r < 0.6:
            board.append(_land(i, rng))
        elif r < 0.7:
            board.append(_signet(i, rng))
        elif r < 0.78:
            cost, adds = rng.choice(FILTERS)
            board.append({"id": f"fil{i}", "abilities": [{"cost": "{T}", "add": "{C}"}, {"cost": f"{cost}, {{T}}", "add": adds}]})
        elif r < 0.86:
            board.append({"id": f"tr{i}", "abilities": [{"cost": "{T}, Sacrifice this", "add": "any"}]})
        elif r < 0.93:
            color = rng.choice(DUALS)
            board.append({"id": f"pain{i}", "abilities": [{"cost": "{T}", "add": "{C}"},
                                                          {"cost": "{T}", "add": color, "damage": 1}]})
        else:
            board.append(_tap(f"rock{i}", "{C}{C}"))
    return board


def converter_board(n: int, rng: random.Random) -> list:
    """n sources among which abilities that don't tap: Orochi Leafcaller ({G}: add one
    mana of any color), Treasonous Ogre (Pay 3 life: add {R}), a colorless converter
    ({1}: add {C}, a mana filtered to itself), beside lands and a few Signets."""
    board = []
    for i in range(n):
        r = rng.random()
        if r < 0.65:
            board.append(_land(i, rng))
        elif r < 0.8:
            board.append({"id": f"leaf{i}", "type_line": "Creature — Snake Shaman",
                          "abilities": [{"cost": "{G}", "add": "any"}]})
        elif r < 0.88:
            board.append({"id": f"ogre{i}", "type_line": "Creature — Ogre Shaman",
                          "abilities": [{"cost": "Pay 3 life", "add": "{R}"}]})
        elif r < 0.93:
            board.append({"id": f"conv{i}", "type_line": "Artifact", "abilities": [{"cost": "{1}", "add": "{C}"}]})
        else:
            board.append(_signet(i, rng))
    return board


def cataracts_board(copies: int, rng: random.Random) -> list:
    """``copies`` Cascading Cataracts ({5}, {T}: five mana in any combination of colors)
    among 30 lands: the board that froze XMage's enumeration."""
    board = plain_board(30 - copies, rng)
    for k in range(copies):
        board.append({"id": f"cat{k}", "abilities": [{"cost": "{T}", "add": "{C}"},
                                                     {"cost": "{5}, {T}", "add": {"combination": 5}}]})
    return board


def dryad_board(n: int = 12) -> list:
    """Every land taps for any color (Dryad of the Ilysian Grove)."""
    return [_tap(f"any{i}", "any") for i in range(n)]


def request(board: list, cost: str, rng: random.Random, query: str = "pay") -> dict:
    spell = {"mana_cost": cost}
    if "{X}" in cost:
        spell["x"] = rng.randint(1, 4)
    return {"spell": spell, "permanents": board, "query": query}
