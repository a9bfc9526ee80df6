"""The deck's games put each board together from its permanents' bodies, read once per
card and state (``BoardAnswers._problem``), instead of writing and reading a request per
board: on boards drawn at random from a deck of cost changers (Thalia, Sphere of
Resistance, Etherium Sculptor, an affinity spell), a land-type changer (Urborg, Blood
Moon), mana that depends on the commander's identity (Arcane Signet) and creatures
summoning sick, every answer is the one the request read whole gives."""

import json
import os

from hypothesis import given, settings
from hypothesis import strategies as st

from manaplan.deck.cards import DEMO_CARDS
from manaplan.deck.decklist import Decklist
from manaplan.deck.simulate import READY, SICK, TAPPED, BoardAnswers, DeckModel
from manaplan.model.plan import Plan
from manaplan.model.problem import CAN_PAY, copied_with
from manaplan.protocol import mtg
from manaplan.queries import answer

HERE = os.path.dirname(os.path.abspath(__file__))
FROGMITE = {"object": "card", "name": "Frogmite", "mana_cost": "{4}", "cmc": 4, "type_line": "Artifact Creature — Frog",
            "oracle_text": "Affinity for artifacts (This spell costs {1} less to cast for each artifact you control.)"}


def _cards() -> dict:
    cards = {c["name"]: c for c in json.load(open(DEMO_CARDS))}
    for c in json.load(open(os.path.join(HERE, "fixtures", "static_cards.json")))["cards"]:
        cards.setdefault(c["name"], {k: v for k, v in c.items() if k in ("name", "mana_cost", "type_line", "oracle_text",
                                                                         "keywords")})
    cards["Frogmite"] = FROGMITE
    return cards


DECK = """Commander
1 Grand Arbiter Augustin IV
Deck
10 Forest
10 Island
6 Mountain
1 Urborg, Tomb of Yawgmoth
1 Blood Moon
1 Arcane Signet
1 Sol Ring
4 Llanowar Elves
4 Thalia, Guardian of Thraben
4 Sphere of Resistance
4 Etherium Sculptor
4 Goblin Electromancer
4 Frogmite
"""
CARDS = _cards()
MODEL = DeckModel.build(Decklist.parse(DECK), {name: CARDS[name] for name in Decklist.parse(DECK).played_names})
PERMANENTS = [i for i in range(len(MODEL.names)) if MODEL.permanent[i]]


def _read_whole(answers: BoardAnswers, sig: tuple, request: dict):
    deck = answers.deck
    return mtg.read({**request, "permanents": [
        {"id": f"p{i}", "card": deck.cards[code >> 2], "tapped": code & 3 == TAPPED,
         "summoning_sick": code & 3 == SICK and deck.creature[code >> 2]} for i, code in enumerate(sig)]})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PERMANENTS), st.sampled_from([READY, TAPPED, SICK])), min_size=1, max_size=7))
def test_a_board_put_together_from_bodies_answers_as_the_request_read_whole(codes):
    answers = BoardAnswers(MODEL)
    sig = tuple(sorted(c << 2 | state for c, state in codes))
    request = {"query": "castable", "hand": answers._hand, **answers._with_pool(())}
    built = answers._problem(sig, ("castable", ()), lambda: request)
    whole = _read_whole(answers, sig, request)
    assert [s.cost for s in built.hand] == [s.cost for s in whole.hand]  # (the board's cost effects, each once)
    for mine, theirs in zip(built.hand, whole.hand):
        a = answer(copied_with(built.for_spell(mine), query=CAN_PAY, explain_no=False))
        b = answer(copied_with(whole.for_spell(theirs), query=CAN_PAY, explain_no=False))
        assert type(a) is type(b), (mine.id, a, b)
    for c in {code >> 2 for code in sig} | {MODEL.names.index("Frogmite")}:
        spell = {"id": "cast", "card": MODEL.cards[c]}
        request = {"query": "pay", "spell": spell, **answers._with_pool(())}
        a = answer(answers._problem(sig, ("pay", c, ()), lambda: request))
        b = answer(_read_whole(answers, sig, request))
        assert type(a) is type(b) and (not isinstance(a, Plan) or a.tapped == b.tapped), (MODEL.names[c], a, b)
