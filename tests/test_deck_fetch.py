"""Fetch lands as a line of play (model.fetch, deck.players): the land drop, then at once
the land it finds, its lowest-numbered copy taken out of the library. Against an
independent search over every line of every deal of a small deck (each hand and order of
numbered copies, each land drop and each land a fetch may find), game by game; the
8-card repro at 100% on turn 1; a fetch counted as a source of each color it finds."""

import itertools
import json

import pytest

from manaplan.deck.analyze import analyze
from manaplan.deck.cards import DEMO_CARDS
from manaplan.deck.decklist import Decklist
from manaplan.deck.players import lines_of_play
from manaplan.deck.simulate import BoardAnswers, DeckModel, Policy
from manaplan.deck.sources import deck_check
from manaplan.model.errors import RequestError
from manaplan.model.fetch import fetch_rule

DEMO = {c["name"]: c for c in json.load(open(DEMO_CARDS))}


def land(name: str, text: str, type_line: str = "Land") -> dict:
    return {"object": "card", "name": name, "type_line": type_line, "mana_cost": "", "cmc": 0, "oracle_text": text}


MISTY = land("Misty Rainforest", "{T}, Pay 1 life, Sacrifice this land: Search your library for a Forest or Island "
                                 "card, put it onto the battlefield, then shuffle.")
WILDS = land("Evolving Wilds", "{T}, Sacrifice this land: Search your library for a basic land card, put it onto the "
                               "battlefield tapped, then shuffle.")
PASSAGE = land("Fabled Passage", "{T}, Sacrifice this land: Search your library for a basic land card, put it onto the "
                                 "battlefield tapped, then shuffle. Then if you control four or more lands, untap that "
                                 "land.")
VISTA = land("Prismatic Vista", "{T}, Pay 1 life, Sacrifice this land: Search your library for a basic land card, put "
                                "it onto the battlefield, then shuffle.")
TARN = land("Scalding Tarn", "{T}, Pay 1 life, Sacrifice Scalding Tarn: Search your library for an Island or Mountain "
                             "card, put it onto the battlefield, then shuffle.")
FETCHES = {c["name"]: c for c in (MISTY, WILDS, PASSAGE, VISTA, TARN)}


def test_the_eight_card_repro_casts_opt_on_turn_one_in_every_game():
    cards = [MISTY, DEMO["Island"], DEMO["Opt"]]
    report = analyze("1 Misty Rainforest\n1 Island\n6 Opt\n", cards=cards, games=400, turns=2, progress=False)
    opt = next(c for c in report["cards"] if c["name"] == "Opt")
    assert opt["by_turn"] == [1.0, 1.0] and opt["by_turn_as_played"] == [1.0, 1.0]


def test_every_fetch_form_is_read_and_others_are_named():
    assert str(fetch_rule(TARN["oracle_text"], "Scalding Tarn")) == "finds a Island or Mountain card, for 1 life"
    assert fetch_rule(PASSAGE["oracle_text"]).enters_tapped(3) and not fetch_rule(PASSAGE["oracle_text"]).enters_tapped(4)
    assert fetch_rule(VISTA["oracle_text"]).finds("Basic Snow Land — Forest")
    assert not fetch_rule(VISTA["oracle_text"]).finds("Land — Forest Island")
    assert fetch_rule("{T}: Add {G}.") is None
    with pytest.raises(RequestError, match="Jund Panorama"):
        fetch_rule("{1}, {T}, Sacrifice this land: Search your library for a basic Swamp, Mountain, or Forest card, "
                   "put it onto the battlefield tapped, then shuffle.", "Jund Panorama")


def _pays(lands: list, cost: str) -> bool:
    """Basic lands only: the colored symbols each a land of its color, the rest any."""
    need = {c: cost.count("{" + c + "}") for c in "WUBRG"}
    generic = sum(int(x) for x in __import__("re").findall(r"\{(\d+)\}", cost))
    have = {c: sum(1 for m in lands if m == c) for c in "WUBRG"}
    return all(have[c] >= n for c, n in need.items()) and len(lands) >= sum(need.values()) + generic


def _every_line(deck: DeckModel, hand: list, library: list, turns: int, on_play: bool) -> list:
    """Castable masks by turn over every line of one deal, searched one by one: the land
    drop each way (a fetch: each card it finds, its lowest-numbered copy out of the
    library, the fetched land untapped unless the fetch says tapped)."""
    color = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
    masks = [0] * turns

    def go(t: int, field: tuple, tapped_now: tuple, held: list, lib: list):
        if t == turns:
            return
        held = list(held)
        lib = list(lib)
        if (t > 0 or not on_play) and lib:
            held.append(lib.pop(0)[0])
        options = [(field, (), held, lib)]  # (no land: never better with basics, searched anyway)
        for c in sorted(set(held)):
            if not deck.is_land[c]:
                continue
            rest = list(held)
            rest.remove(c)
            if c in deck.fetches:
                rule, finds = deck.fetches[c]
                took = False
                for f in finds:
                    copies = [k for card, k in lib if card == f]
                    if copies:
                        took = True
                        k = min(copies)
                        left = [x for x in lib if x[1] != k]
                        lands = sum(1 for _ in field) + 1
                        tapped = rule.enters_tapped(lands)
                        options.append((field + (f,), (f,) if tapped else (), rest, left))
                if not took:
                    options.append((field + (c,), (), rest, lib))
            else:
                options.append((field + (c,), (), rest, lib))
        for new_field, tapped, rest, left in options:
            untapped = list(new_field)
            for f in tapped:
                untapped.remove(f)
            colors = [color[deck.type_line[f].split(" — ")[-1]] for f in untapped if f not in deck.fetches]
            for k, c in enumerate(deck.measured):
                if _pays(colors, deck.cards[c]["mana_cost"]):
                    masks[t] |= 1 << k
            go(t + 1, new_field, (), rest, left)

    go(0, (), (), hand, library)
    return masks


@pytest.mark.parametrize("fetch", ["Misty Rainforest", "Evolving Wilds", "Fabled Passage", "Prismatic Vista"])
@pytest.mark.parametrize("on_play", [True, False])
def test_every_deal_of_a_small_fetch_deck_agrees_with_the_search_over_every_line(fetch, on_play):
    text = f"2 {fetch}\n2 Island\n1 Forest\n1 Mountain\n1 Opt\n1 Grizzly Bears\n1 Counterspell\n1 Lightning Bolt\n"
    deck_list = Decklist.parse(text)
    cards = {**{n: DEMO[n] for n in deck_list.names if n in DEMO}, fetch: FETCHES[fetch]}
    model = DeckModel.build(deck_list, cards)
    answers = BoardAnswers(model)
    turns = 3
    policy = Policy(turns=turns)
    copies = list(range(len(model.library)))
    checked = 0
    for hand_copies in itertools.combinations(copies, 6):
        rest = [k for k in copies if k not in hand_copies]
        for order in itertools.permutations(rest):
            if order != tuple(sorted(order)) and checked % 7:  # (a sample of the orders, each hand)
                checked += 1
                continue
            checked += 1
            hand = [model.library[k] for k in hand_copies]
            library = [(model.library[k], k) for k in order]
            draws = [library[d][0] if d < len(library) else None
                     for d in range(turns)] if not on_play else [None] + [library[d][0] for d in range(turns - 1)]
            found = lines_of_play(model, policy, answers, hand, draws, library)
            assert found[0] == _every_line(model, hand, library, turns, on_play), (hand, order)


def test_a_fetch_is_a_source_of_each_color_it_finds():
    deck_list = Decklist.parse("4 Misty Rainforest\n8 Island\n8 Forest\n4 Mountain\n4 Opt\n4 Grizzly Bears\n")
    cards = {**{n: DEMO[n] for n in deck_list.names if n in DEMO}, "Misty Rainforest": MISTY}
    check = deck_check(DeckModel.build(deck_list, cards))
    assert check["sources"] == {"U": 12, "R": 4, "G": 12}


def test_a_fetch_decks_figures_are_within_four_standard_errors_of_the_exact_count():
    """Every deal of a 10-card deck with two fetch lands (7 in hand on the play, no
    mulligan) counted exactly by the search above, against ``deck analyze``'s games."""
    text = "2 Misty Rainforest\n2 Island\n1 Forest\n1 Mountain\n1 Opt\n1 Grizzly Bears\n1 Counterspell\n1 Lightning Bolt\n"
    deck_list = Decklist.parse(text)
    cards = {**{n: DEMO[n] for n in deck_list.names if n in DEMO}, "Misty Rainforest": MISTY}
    model = DeckModel.build(deck_list, cards)
    turns, deals = 3, 0
    counts = [[0] * turns for _ in model.measured]
    copies = list(range(len(model.library)))
    for hand_copies in itertools.combinations(copies, 7):
        rest = [k for k in copies if k not in hand_copies]
        for order in itertools.permutations(rest):
            deals += 1
            masks = _every_line(model, [model.library[k] for k in hand_copies],
                                [(model.library[k], k) for k in order], turns, True)
            for k in range(len(model.measured)):
                for t in range(turns):
                    counts[k][t] += masks[t] >> k & 1
    games = 3000
    report = analyze(text, cards=list(cards.values()), games=games, turns=turns, mulligan="none", progress=False)
    by_name = {c["name"]: c for c in report["cards"]}
    for k, c in enumerate(model.measured):
        for t in range(turns):
            exact = counts[k][t] / deals
            se = max((exact * (1 - exact) / games) ** 0.5, 1 / games)
            assert abs(by_name[model.names[c]]["by_turn"][t] - exact) <= 4 * se, (model.names[c], t, exact)


FIREBALL = {"object": "card", "name": "Fireball", "mana_cost": "{X}{R}", "cmc": 1, "type_line": "Sorcery",
            "oracle_text": "This spell costs {1} more to cast for each target beyond the first.\nFireball deals X damage "
                           "divided as you choose among any number of targets."}


def test_an_x_spell_is_castable_at_x_zero_and_its_largest_x_is_reported_beside():
    """1 Mountain and 6 Fireball: castable in every game from turn 1 (X = 0); the largest
    X beside it. With Mountains only, the largest X on a turn is the lands played less
    one, counted here game by game from the same deals."""
    report = analyze("1 Mountain\n6 Fireball\n", cards=[DEMO["Mountain"], FIREBALL], games=300, turns=3,
                     progress=False)
    fireball = report["cards"][0]
    assert fireball["by_turn"] == [1.0, 1.0, 1.0] and fireball["largest_x_by_turn"] == [0.0, 0.0, 0.0]
    games = 4000
    report = analyze("20 Mountain\n20 Fireball\n", cards=[DEMO["Mountain"], FIREBALL], games=games, turns=4,
                     mulligan="none", progress=False)
    largest = report["cards"][0]["largest_x_by_turn"]
    # (exact: on the play, t lands at most, the lands among the 7 + t - 1 cards seen)
    from math import comb
    for t in range(1, 5):
        seen = 7 + t - 1
        dist = {k: comb(20, k) * comb(20, seen - k) / comb(40, seen) for k in range(seen + 1)}
        castable = 1 - dist[0]
        mean = sum(p * (min(k, t) - 1) for k, p in dist.items() if k) / castable
        assert abs(largest[t - 1] - mean) < 0.06, (t, largest[t - 1], mean)
    assert "the largest X a line pays" in __import__("manaplan.deck.analyze", fromlist=["table"]).table(report)


def test_a_landcycling_search_is_no_fetch_and_a_fetch_that_enters_tapped_is_named():
    ash = land("Ash Barrens", "{T}: Add {C}.\nBasic landcycling {1} ({1}, Discard this card: Search your library for a "
                              "basic land card, reveal it, put it into your hand, then shuffle.)")
    assert fetch_rule(ash["oracle_text"], "Ash Barrens") is None
    bad_river = land("Bad River", "This land enters tapped.\n{T}, Sacrifice this land: Search your library for an "
                                  "Island or Swamp card, put it onto the battlefield, then shuffle.")
    landscape = land("Myriad Landscape", "This land enters tapped.\n{T}: Add {C}.\n{2}, {T}, Sacrifice this land: "
                                         "Search your library for up to two basic land cards that share a land type, "
                                         "put them onto the battlefield tapped, then shuffle.")
    deck_list = Decklist.parse("2 Bad River\n1 Myriad Landscape\n4 Island\n4 Opt\n")
    model = DeckModel.build(deck_list, {"Bad River": bad_river, "Myriad Landscape": landscape, "Island": DEMO["Island"],
                                        "Opt": DEMO["Opt"]})
    # (the deck is analysed; the searches it doesn't follow are named, the lands play on without them)
    assert not model.fetches and set(model.unread) == {"Bad River", "Myriad Landscape"}
    assert "C" in model.makes[model.names.index("Myriad Landscape")]


def test_a_land_creature_enters_summoning_sick_fetched_or_played():
    arbor = {"object": "card", "name": "Dryad Arbor", "type_line": "Land Creature — Forest Dryad", "mana_cost": "",
             "cmc": 0, "oracle_text": "(Dryad Arbor isn't a spell, it's affected by summoning sickness, and it has "
                                      "\"{T}: Add {G}.\")", "power": "1", "toughness": "1"}
    for text in ("1 Dryad Arbor\n7 Llanowar Elves\n", "1 Misty Rainforest\n1 Dryad Arbor\n6 Llanowar Elves\n"):
        cards = [arbor, DEMO["Llanowar Elves"], MISTY]
        report = analyze(text, cards=cards, games=100, turns=2, progress=False)
        elves = next(c for c in report["cards"] if c["name"] == "Llanowar Elves")
        assert elves["by_turn"][0] == 0.0 and elves["by_turn_as_played"][0] == 0.0, text  # (CR 302.6)
