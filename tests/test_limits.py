"""Every limit kept: no total counted one mana at a time, no model built once
the request's time is up. These tests assert what is answered, never how fast
(benchmarks/time_budgets.py measures the time)."""

from __future__ import annotations

import time

import pytest

from manaplan import solve
from manaplan.model.deadline import answering_until, check_clock
from manaplan.model.errors import OutOfTime
from manaplan.model.mana import ManaCost
from manaplan.model.problem import kicked_times
from manaplan.solver.runtime import Status
from manaplan.solver.search import Budget, deepening

FORESTS = [{"id": f"f{i}", "type_line": "Basic Land — Forest"} for i in range(3)]


def test_a_total_of_huge_generic_symbols_is_counted_whole():
    """{G} with twenty {1000000} increases: twenty million and {G}, said at once (each
    symbol counted whole, not a million needs each)."""
    out = solve({"query": "total_cost", "spell": {"mana_cost": "{G}", "increase": ["{1000000}"] * 20},
                 "permanents": FORESTS})
    assert out["total_cost"] == "{20000000}{G}"
    paid = solve({"spell": {"mana_cost": "{X}{G}", "increase": ["{1000000}"] * 20}, "query": "max_x",
                  "permanents": FORESTS})
    assert paid["payable"] is False


def test_a_multikicker_paid_a_million_times():
    """A free multikicker kicked a million times adds nothing (CR 702.33c); one that costs
    {G} a million times is more than three Forests could ever pay: no, at once."""
    free = solve({"spell": {"mana_cost": "{G}", "multikicker": "{0}", "kicks": 1_000_000}, "permanents": FORESTS})
    assert free["payable"] and free["kicks"] == 1_000_000 and free["total_cost"] == "{G}"
    green = solve({"spell": {"mana_cost": "{G}", "multikicker": "{G}", "kicks": 1_000_000}, "permanents": FORESTS})
    assert green["payable"] is False and green["reason"]["code"] == "no_payment"
    two = solve({"spell": {"mana_cost": "{G}", "multikicker": "{1}", "kicks": 2}, "permanents": FORESTS})
    assert two["payable"] and two["total_cost"] == "{2}{G}"


def test_kicks_are_one_generic_symbol_and_the_others_each_time():
    assert str(kicked_times(ManaCost.parse("{2}"), 3)) == "{6}"
    assert str(kicked_times(ManaCost.parse("{1}{G}"), 3)) == "{3}{G}{G}{G}"
    assert str(kicked_times(ManaCost.parse("{0}"), 5)) == ""


def test_no_model_is_built_once_the_time_is_up():
    """The clock is looked at before each window of a turn is built: past the deadline
    the build stops (OutOfTime), and the turn's search says it has no answer in time."""
    with answering_until(time.monotonic() - 1):
        with pytest.raises(OutOfTime):
            check_clock()
    check_clock()  # (no request being answered: no guard)

    def build(depth):
        raise OutOfTime()
    assert deepening(build, Budget(1.0)) == Status.UNKNOWN


def test_a_turn_out_of_time_is_undecided_not_a_guess():
    """A 12-card best_turn and a sequence in any order on a board with a Doubling Cube,
    with 1 ms: undecided (code timeout), never a plan not proven or an error."""
    cube = {"id": "dc", "name": "Doubling Cube", "type_line": "Artifact",
            "oracle_text": "{3}, {T}: Double the amount of each type of unspent mana you have."}
    board = [cube] + [{"id": f"s{i}", "type_line": "Basic Land — Swamp"} for i in range(10)]
    hand = [{"id": f"h{k}", "mana_cost": cost, "type_line": "Sorcery"}
            for k, cost in enumerate(["{2}{B}", "{3}", "{B}{B}", "{4}", "{2/B}{2/B}", "{B/P}{1}"] * 2)]
    for request in ({"query": "best_turn", "hand": hand}, {"query": "sequence", "order": "any", "spells": hand[:6]}):
        out = solve({**request, "permanents": board, "time_limit_ms": 1})
        assert out.get("reason", {}).get("code") == "timeout" or out.get("optimal") is False, out


def test_a_plain_pay_whose_time_ran_out_while_its_board_was_grouped_is_undecided(monkeypatch):
    """The plain lane groups the board as the supply's path did, and its answer is held to
    the same guard: a plan found after the time ran out is not sent (review: a 4,000-permanent
    pay at 250 ms sent its plan after 345 ms, where the supply's path said timeout)."""
    import manaplan.solver.one_spell as one_spell
    lane = one_spell.plain_lane

    def slow_lane(problem):
        time.sleep(0.08)  # (grouping a large board, past the request's 50 ms)
        return lane(problem)
    monkeypatch.setattr(one_spell, "plain_lane", slow_lane)
    request = {"spell": {"mana_cost": "{G}"}, "time_limit_ms": 50,
               "permanents": [{"id": "f", "type_line": "Basic Land — Forest"}]}
    out = solve(request)
    assert out["payable"] is None and out["reason"]["code"] == "timeout", out
    monkeypatch.setattr(one_spell, "plain_lane", lane)
    assert solve(request)["payable"] is True
