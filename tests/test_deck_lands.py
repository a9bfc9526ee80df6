"""``deck lands``: the bases tried include Karsten's counts met with the pool's lands
(duals, not only basics), a one-drop's sources are the lands that cast it on turn one
alone (no tapland, slow land or filter land), and the proposals and the games are the same
for any order of the pool and of the deck."""

import json
import os
import random

from manaplan.deck import lands
from manaplan.deck.cards import DEMO_CARDS, load_cards
from manaplan.deck.decklist import Decklist, Entry
from manaplan.deck.simulate import DeckModel

DEMO = {c["name"]: c for c in json.load(open(DEMO_CARDS))}
TEXT = ("8 Forest\n7 Island\n4 Flooded Grove\n2 Hinterland Harbor\n2 Thornwood Falls\n1 Simic Growth Chamber\n"
        "4 Llanowar Elves\n4 Opt\n4 Grizzly Bears\n4 Counterspell\n4 Kalonian Tusker\n4 Cancel\n4 Centaur Courser\n"
        "2 Air Elemental\n2 Craw Wurm\n4 Coiling Oracle\n")


def _shuffled_deck(seed: int) -> Decklist:
    deck = Decklist.parse(TEXT)
    entries = list(deck.entries)
    random.Random(seed).shuffle(entries)
    return Decklist(tuple(entries))


def _pool_cards(seed: int) -> dict:
    items = list(DEMO.items())
    random.Random(seed).shuffle(items)
    return dict(items)


def test_the_proposals_and_the_choice_are_the_same_for_any_order_of_the_pool_and_the_deck():
    reports = []
    for seed in range(3):
        deck = _shuffled_deck(seed)
        cards = _pool_cards(seed + 10)
        report = lands.choose(deck, {n: cards[n] for n in deck.played_names}, cards, games=20, seed=1)
        reports.append([(t["label"], sorted(t["base"].items()), t["score"]) for t in report["tried"]]
                       + [report["best"], report["decklist"]])
    assert reports[0] == reports[1] == reports[2]
    labels = [label for label, _, _ in reports[0][:-2]]
    assert "Karsten's counts with the pool's lands" in labels


def test_a_one_drops_sources_are_the_lands_that_cast_it_on_turn_one():
    pool, _ = lands._pool(DEMO, {"G", "U"})
    early = {pool.names[i] for i in range(len(pool.names)) if lands.early_source(pool, i, "U")}
    assert {"Island", "Breeding Pool", "Yavimaya Coast", "Tropical Island", "Botanical Sanctum"} <= early
    assert not early & {"Flooded Grove", "Thornwood Falls", "Simic Growth Chamber", "Dreamroot Cascade"}


def test_karstens_counts_are_met_with_duals_where_the_pool_has_them():
    deck = Decklist.parse(TEXT)
    model = DeckModel.build(deck, load_cards(deck.played_names))
    pool, _ = lands._pool(DEMO, {"G", "U"})
    wanted = lands.needs(model, 24)
    base = lands.karsten_base(pool, list(range(len(pool.names))), 24, wanted)
    assert base is not None and sum(base.values()) == 24
    for color in ("G", "U"):
        have = sum(n for name, n in base.items() if color in pool.makes[pool.names.index(name)])
        assert have >= wanted[color][0]  # (20 sources of each: only duals reach both)
    assert set(base) - {"Forest", "Island"}


def test_fetch_lands_may_be_proposed_with_lands_they_find():
    from manaplan.deck.simulate import DeckModel as Model
    from test_deck_fetch import MISTY

    deck = Decklist.parse(TEXT)
    model = Model.build(deck, load_cards(deck.played_names))
    pool, _ = lands._pool({**DEMO, "Misty Rainforest": MISTY}, {"G", "U"})
    misty = pool.names.index("Misty Rainforest")
    assert lands.early_source(pool, misty, "U") and pool.makes[misty] >= {"G", "U"}
    found = lands.proposals(pool, list(range(len(pool.names))), 24, lands.needs(model, 24), 60)
    assert any("Misty Rainforest" in base for base in found)
    for base in found:
        finds = sum(n for name, n in base.items() if name != "Misty Rainforest"
                    and pool.names.index(name) in pool.fetches[misty][1])
        assert base.get("Misty Rainforest", 0) <= finds



def test_a_fetch_is_a_source_of_a_color_only_with_a_land_of_it_to_find():
    """17 Islands and a red splash, the pool Island, Mountain, Scalding Tarn and Prismatic
    Vista: a base's fetches count as red sources only beside a Mountain they can find."""
    from test_deck_fetch import TARN, VISTA

    pool_cards = {"Island": DEMO["Island"], "Mountain": DEMO["Mountain"], "Scalding Tarn": TARN, "Prismatic Vista": VISTA}
    deck = Decklist.parse("17 Island\n4 Lightning Bolt\n4 Opt\n4 Counterspell\n")
    model = DeckModel.build(deck, {n: DEMO[n] for n in deck.played_names})
    pool, _ = lands._pool(pool_cards, {"U", "R"})
    wanted = lands.needs(model, 17)
    bases = lands.proposals(pool, list(range(len(pool.names))), 17, wanted, 29)
    bases.append(lands.karsten_base(pool, list(range(len(pool.names))), 17, wanted))
    for base in bases:
        fetches = base.get("Scalding Tarn", 0) + base.get("Prismatic Vista", 0)
        assert base.get("Mountain", 0) >= 1 and fetches <= base.get("Island", 0) + base.get("Mountain", 0), base


def test_a_verge_is_a_one_drop_source_of_its_first_color_only():
    cards = {c["name"]: c for c in json.load(open(os.path.join(os.path.dirname(__file__), "..", "benchmarks", "decks",
                                                               "rakdos_cards.json")))}
    pool, _ = lands._pool(cards, {"B", "R"})
    verge = pool.names.index("Blazemire Verge")
    assert lands.early_source(pool, verge, "B") and not lands.early_source(pool, verge, "R")
