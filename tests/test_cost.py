"""Total cost: announcements, additional costs, increases, reductions, floors
(CR 601.2b, 601.2f, 118.7a-g)."""

import pytest

from manaplan.model.cost import Announcement, SpellCost, all_total_costs, total_cost


def total(cost, halves=(), red=(), **kw):
    return str(total_cost(SpellCost.of(cost, **kw), Announcement(tuple(halves), tuple(red))))


def test_x_and_additional_and_increase_are_added_cr_601_2f():
    assert total("{X}{R}", x=3, additional=["{1}{G}"], increase=["{1}"]) == "{5}{R}{G}"


def test_generic_reduction_touches_only_generic_cr_118_7a():
    assert total("{1}{W}", reduce=["{2}"]) == "{W}"
    assert total("{W}{W}", reduce=["{3}"]) == "{W}{W}"


def test_colored_reduction_of_a_missing_color_reduces_generic_cr_118_7b():
    assert total("{2}{W}", reduce=["{U}"]) == "{1}{W}"
    assert total("{2}{W}", reduce=["{C}"]) == "{1}{W}"


def test_colored_reduction_reduces_that_color_cr_118_7c():
    assert total("{1}{W}{W}", reduce=["{W}"]) == "{1}{W}"


def test_excess_colored_reduction_reduces_generic_cr_118_7d():
    assert total("{2}{W}", reduce=["{W}", "{W}"]) == "{1}"
    assert total("{1}{W}{W}", reduce=["{W}", "{W}", "{W}"]) == "{0}"


def test_hybrid_reduction_uses_the_chosen_half_cr_118_7e():
    assert total("{1}{W}{U}", reduce=["{W/U}"], red=["U"]) == "{1}{W}"
    assert total("{3}{W}", reduce=["{2/W}"], red=["generic"]) == "{1}{W}"
    assert total("{3}{W}", reduce=["{2/W}"], red=["W"]) == "{3}"


def test_phyrexian_reduction_reduces_its_color_cr_118_7f():
    assert total("{1}{B}", reduce=["{B/P}"]) == "{1}"


def test_snow_reduction_reduces_generic_cr_118_7g():
    assert total("{2}{S}", reduce=["{S}"]) == "{1}{S}"


def test_never_below_zero_and_floor_applies_last_cr_601_2f():
    assert total("{1}", reduce=["{5}"]) == "{0}"
    assert total("{G}", minimum=3) == "{2}{G}"                 # Trinisphere
    assert total("{1}{G}", reduce=["{1}"], minimum=3) == "{2}{G}"


def test_hybrid_and_phyrexian_are_announced_before_reductions_cr_601_2b():
    assert total("{2/W}", halves=["generic"], reduce=["{1}"]) == "{1}"
    assert total("{2/W}", halves=["W"], reduce=["{1}"]) == "{W}"
    t = total_cost(SpellCost.of("{1}{W/P}"), Announcement(("life",)))
    assert str(t) == "{1}" and t.life == 2
    # Trinisphere counts the mana actually paid: life is not mana
    t = total_cost(SpellCost.of("{W/P}", minimum=3), Announcement(("life",)))
    assert str(t) == "{3}" and t.life == 2


def test_all_total_costs_enumerates_every_announcement():
    costs = {str(t) + f"+{t.life}life" for t in all_total_costs(SpellCost.of("{2/W}{W/P}"))}
    assert costs == {"{W}{W}+0life", "{W}+2life", "{2}{W}+0life", "{2}+2life"}


def test_no_mana_cost_cannot_be_totalled_cr_202_1b():
    with pytest.raises(ValueError):
        total_cost(SpellCost.of(None), Announcement())
