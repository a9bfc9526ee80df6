"""A corpus of real cards with static abilities (tests/fixtures/
static_cards.json: Oracle text as Scryfall gives it, from both sides of the table), each
classed by what manaplan's reader makes of it: ``read`` (turned into abilities, cost
effects, land types or haste), ``unread`` (a line that could matter is named, and every
answer on its board is null), ``refused`` (an error naming the line), ``irrelevant``
(nothing in it bears on paying). No card that changes mana, costs, land types or
abilities is ``irrelevant``: none is silently ignored."""

import json
import os
from collections import Counter

import pytest

from manaplan import solve
from manaplan.model.errors import ManaplanError
from manaplan.model.haste import has_haste_keyword
from manaplan.protocol import mtg

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "static_cards.json"), encoding="utf-8") as f:
    CORPUS = json.load(f)["cards"]

FOREST = {"id": "f", "type_line": "Basic Land — Forest"}
ELF = {"id": "e", "type_line": "Creature — Elf Druid", "oracle_text": "{T}: Add {G}."}


def permanent(card: dict) -> dict:
    """The card as a permanent, attached to the Forest or the Elf where it is an Aura."""
    out = {"id": "p", "card": {k: card[k] for k in ("name", "mana_cost", "type_line", "oracle_text")}}
    enchant = next((line for line in card["oracle_text"].split("\n") if line.startswith("Enchant ")), "")
    if enchant:
        out["attached_to"] = "f" if "land" in enchant else "e"
    return out


def request(card: dict, side: str) -> dict:
    mine = [FOREST, ELF] + ([permanent(card)] if side == "mine" else [])
    return {"query": "can_pay", "spell": {"mana_cost": "{G}"}, "permanents": mine,
            **({"opponents": [permanent(card)]} if side == "theirs" else {})}


def classify(card: dict, side: str = "mine") -> str:
    """What the reader makes of the card on ``side`` ("mine" or "theirs")."""
    try:
        problem = mtg.read(request(card, side))
    except ManaplanError:
        return "refused"
    p = (problem.board.permanents[-1] if side == "mine" else problem.opponents[0])
    if p.unread:
        return "unread"
    if any((p.abilities, p.cost_effects, p.land_types, p.gives_haste, p.grants, p.replaces, p.spending, p.triggers,
            p.landfall)) or has_haste_keyword(card["oracle_text"]):
        return "read"
    return "irrelevant"


def _takes_away(card: dict) -> bool:
    """Whether a line of the card left unread could take away or change what is paid
    (not only add mana): then no answer on its board is certain."""
    from manaplan.model.oracle import CHANGES_ABILITIES, CHANGES_COSTS

    p = mtg.read(request(card, "mine")).board.permanents[-1]
    return any(why in (CHANGES_ABILITIES, CHANGES_COSTS) for _, why in p.unread)


def test_the_corpus_is_big_enough_and_every_card_that_matters_is_read_or_named():
    groups = Counter(c["group"] for c in CORPUS)
    assert len(CORPUS) >= 150 and groups["matters"] >= 60 and groups["irrelevant"] >= 60, groups
    assert len({c["name"] for c in CORPUS}) == len(CORPUS)
    silent = [c["name"] for c in CORPUS if c["group"] == "matters" and classify(c) == "irrelevant"]
    assert not silent, f"silently ignored: {silent}"


@pytest.mark.parametrize("card", CORPUS, ids=[c["name"] for c in CORPUS])
def test_each_card_is_classed_as_recorded_on_either_side(card):
    """The class recorded in the corpus, on the player's side and the opponents' (an
    effect on the player's lands from an opponent's Blood Moon, a cost effect from an
    opponent's Thalia), and what it means for an answer: an unread card makes the answer
    null, a refused one an error naming its text."""
    assert classify(card, "mine") == card["class"]
    theirs = classify(card, "theirs")
    assert theirs == card["class"] or (card["class"] == "read" and theirs == "irrelevant"), theirs
    out = solve(request(card, "mine"))
    if card["class"] == "unread" and _takes_away(card):
        assert out["payable"] is None and out["reason"]["code"] == "unread_abilities"
    elif card["class"] == "unread":  # (mana it might add, not read: a yes stands, a no would be null)
        assert out["payable"] in (True, None)
    elif card["class"] == "refused":
        assert "error" in out and "oracle_text" in out["error"]["at"]
    elif card["class"] == "irrelevant":
        assert out["payable"] is True  # (a Forest pays {G} whatever the card does)
