"""The symbol grammar (CR 107.4), mana costs, mana value and color (CR 202)."""

import pytest
from hypothesis import given, strategies as st

from manaplan.model.errors import SymbolError
from manaplan.model.mana import ManaCost, back_face_mana_value, melded_mana_value, parse_mana, split_card_mana_value
from manaplan.model.symbols import HYBRID_PAIRS, Symbol

ALL_SYMBOLS = (["{%d}" % n for n in range(0, 17)] + ["{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{X}", "{Y}",
               "{Z}", "{S}"] + ["{%s/%s}" % p for p in HYBRID_PAIRS] + ["{%s/%s/P}" % p for p in HYBRID_PAIRS]
               + ["{2/%s}" % c for c in "WUBRG"] + ["{%s/P}" % c for c in "WUBRG"])


@pytest.mark.parametrize("text", ALL_SYMBOLS)
def test_every_symbol_round_trips(text):
    assert str(Symbol.parse(text)) == text


@given(st.lists(st.sampled_from(ALL_SYMBOLS), max_size=8))
def test_mana_costs_round_trip(symbols):
    text = "".join(symbols)
    assert str(ManaCost.parse(text)) == text


@pytest.mark.parametrize("bad", ["{Q/W}", "{U/W}", "{W/W}", "{P}", "{2/C}", "{T}", "{01}", "{w}", "W", "{W}x", "{W/U/G}"])
def test_unknown_symbols_are_rejected_by_name(bad):
    with pytest.raises(SymbolError) as err:
        ManaCost.parse(bad)
    assert isinstance(err.value, ValueError)
    assert bad.strip("x").split("}")[0].lstrip("{") in str(err.value) or "unexpected text" in str(err.value)


def test_hybrid_written_backwards_says_how_to_write_it():
    with pytest.raises(SymbolError, match=r"\{W/U\}"):
        Symbol.parse("{U/W}")


# CR 202.3 and the seed examples (seeds/002: mana cost and mana value)
def test_blaze_x2_has_mana_value_3_on_the_stack_and_1_elsewhere():
    blaze = ManaCost.parse("{X}{R}")
    assert blaze.mana_value == 1
    assert blaze.mana_value_on_stack(x=2) == 3


def test_orochi_hatchery_x3_has_mana_value_6_on_the_stack_and_0_elsewhere():
    hatchery = ManaCost.parse("{X}{X}")
    assert hatchery.mana_value == 0
    assert hatchery.mana_value_on_stack(x=3) == 6


def test_hybrid_counts_its_largest_half_cr_202_3f():
    assert ManaCost.parse("{2/W}").mana_value == 2
    assert ManaCost.parse("{W/U}").mana_value == 1
    assert ManaCost.parse("{2/W}{2/U}{2/B}{2/R}{2/G}").mana_value == 10  # Reaper King


def test_phyrexian_counts_one_cr_202_3g():
    assert ManaCost.parse("{W/P}").mana_value == 1
    assert ManaCost.parse("{1}{W/U/P}").mana_value == 2


def test_color_comes_from_every_symbol_cr_202_2():
    assert ManaCost.parse("{2}{W}{U/P}").colors == {"W", "U"}
    assert ManaCost.parse("{2/G}{B/R}").colors == {"G", "B", "R"}
    assert ManaCost.parse("{C}{3}").colors == frozenset()


def test_split_cards_cr_202_3d():
    fire, ice = ManaCost.parse("{1}{R}"), ManaCost.parse("{1}{U}")
    assert split_card_mana_value([fire, ice]) == 4          # off the stack
    assert split_card_mana_value([fire, ice], cast_half=1) == 2
    assert split_card_mana_value([fire, ice], cast_half=0, fused=True) == 4


def test_back_faces_and_melds_cr_202_3b_c():
    assert back_face_mana_value(ManaCost.parse("{2}{G}")) == 3
    assert back_face_mana_value(None) == 0
    assert melded_mana_value(ManaCost.parse("{4}{W}"), ManaCost.parse("{3}{W}{W}")) == 10


def test_only_one_type_mana_can_be_added():
    assert [m.type for m in parse_mana("{W}{C}")] == ["W", "C"]
    with pytest.raises(SymbolError):
        parse_mana("{2}")
