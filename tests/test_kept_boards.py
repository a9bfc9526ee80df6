"""Boards kept by `manaplan serve` (docs/protocol.md, "Kept boards"; issue 10): stored,
reused, changed, overridden for one request, dropped, bounded."""

import io
import json
import os
import subprocess
import sys

from manaplan import solve
from manaplan.kept_boards import MAX_KEPT_BOARDS, BoardStore, KeptBoard
from manaplan.cli import serve

HERE = os.path.dirname(os.path.abspath(__file__))
FORESTS = [{"id": f"f{i}", "type_line": "Basic Land — Forest"} for i in range(2)]
SWAMP = {"id": "s1", "type_line": "Basic Land — Swamp"}


def answers(*requests, boards=None):
    """Each request's answer through one in-process `serve` session."""
    out = io.StringIO()
    serve([json.dumps(r).encode() + b"\n" for r in requests], out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_kept_board_answers_later_requests_that_name_it():
    keep = {"id": 1, "board": "me", "spell": {"mana_cost": "{G}"}, "permanents": FORESTS + [SWAMP]}
    again = {"id": 2, "board": "me", "spell": {"mana_cost": "{G}{G}{B}"}}
    too_much = {"id": 3, "board": "me", "spell": {"mana_cost": "{G}{G}{G}"}}
    a1, a2, a3 = answers(keep, again, too_much)
    assert a1["payable"] and a2["payable"] and a3["payable"] is False
    assert sorted(a2["plan"]["tapped"]) == ["f0", "f1", "s1"]  # a pay taps nothing on the kept board


def test_changes_are_applied_before_the_query_and_kept():
    keep = {"id": 1, "board": "me", "spell": {"mana_cost": "{G}"}, "permanents": FORESTS + [SWAMP]}
    tap = {"id": 2, "board": "me", "spell": {"mana_cost": "{G}{G}"}, "changes": {"tapped": ["f0"]}}
    still = {"id": 3, "board": "me", "spell": {"mana_cost": "{G}"}}
    swap = {"id": 4, "board": "me", "spell": {"mana_cost": "{U}{G}{G}"},
            "changes": {"untapped": ["f0"], "remove": ["s1"], "add": [{"id": "i1", "type_line": "Basic Land — Island"}]}}
    gone = {"id": 5, "board": "me", "spell": {"mana_cost": "{B}"}}
    a = answers(keep, tap, still, swap, gone)
    assert [x["payable"] for x in a] == [True, False, True, True, False]
    assert a[2]["plan"]["tapped"] == ["f1"]                      # f0 stays tapped: changes are kept
    assert sorted(a[3]["plan"]["tapped"]) == ["f0", "f1", "i1"]


def test_the_player_may_be_overridden_for_one_request_or_changed_for_good():
    phyrexian = {"mana_cost": "{G/P}{G/P}{G/P}"}
    keep = {"id": 1, "board": "me", "spell": {"mana_cost": "{G}"}, "permanents": FORESTS, "player": {"life": 3}}
    a = answers(keep,
                {"id": 2, "board": "me", "spell": phyrexian},                               # life 3: one 2-life
                {"id": 3, "board": "me", "spell": phyrexian, "player": {"life": 1}},       # just this once
                {"id": 4, "board": "me", "spell": phyrexian},
                {"id": 5, "board": "me", "spell": phyrexian, "changes": {"player": {"life": 1}}},
                {"id": 6, "board": "me", "spell": phyrexian})
    assert [x["payable"] for x in a] == [True, True, False, True, False, False]


def test_mistakes_are_located_errors_and_change_nothing():
    keep = {"id": 1, "board": "me", "spell": {"mana_cost": "{G}"}, "permanents": FORESTS}
    a = answers(keep,
                {"id": 2, "board": "you", "spell": {"mana_cost": "{G}"}},
                {"id": 3, "board": "me", "spell": {"mana_cost": "{G}"}, "changes": {"tapped": ["f0", "zz"]}},
                {"id": 4, "board": "me", "spell": {"mana_cost": "{G}{G}"}},                # f0 was not tapped
                {"id": 5, "board": "me", "spell": {"mana_cost": "{G}"}, "changes": {"add": [FORESTS[0]]}},
                {"id": 6, "board": "me", "spell": {"mana_cost": "{G}"}, "permanents": FORESTS,
                 "changes": {"tapped": ["f0"]}},
                {"id": 7, "board": "me", "spell": {"mana_cost": "{G}"}, "changes": {"tap": ["f0"]}})
    assert a[1]["error"]["at"] == "board" and "'me'" in a[1]["error"]["message"]
    assert a[2]["error"]["at"] == "changes.tapped[1]"
    assert a[3]["payable"] is True
    assert a[4]["error"]["at"] == "changes.add[0].id"                                  # a duplicate id
    assert a[5]["error"]["at"] == "changes"
    assert a[6]["error"]["at"] == "changes.tap"


def test_drop_board_forgets_it():
    keep = {"id": 1, "board": "me", "spell": {"mana_cost": "{G}"}, "permanents": FORESTS}
    a = answers(keep, {"id": 2, "query": "drop_board", "board": "me"},
                {"id": 3, "board": "me", "spell": {"mana_cost": "{G}"}},
                {"id": 4, "query": "drop_board", "board": "me"})
    assert a[1] == {"id": 2, "dropped": True}
    assert a[2]["error"]["at"] == "board" and a[3]["error"]["at"] == "board"


def test_at_most_the_documented_number_of_boards_are_kept_least_recently_used_dropped():
    store = BoardStore()
    assert store.capacity == MAX_KEPT_BOARDS == 64
    for k in range(MAX_KEPT_BOARDS):
        store.put(f"b{k}", KeptBoard({}, None))
    store.get("b0")                        # used: now the most recent
    store.put("new", KeptBoard({}, None))
    assert "b1" not in store.names() and "b0" in store.names() and len(store.names()) == MAX_KEPT_BOARDS


def test_the_kept_board_keeps_its_grouping():
    """The board read once is the board every later question uses, so its grouping of
    interchangeable permanents (Board.memo) is computed once."""
    from manaplan.protocol.mtg import read
    store = BoardStore()
    first = read({"board": "me", "spell": {"mana_cost": "{G}"}, "permanents": FORESTS}, store)
    later = read({"board": "me", "spell": {"mana_cost": "{G}{G}"}}, store)
    assert later.board is first.board
    changed = read({"board": "me", "spell": {"mana_cost": "{G}"}, "changes": {"tapped": ["f0"]}}, store)
    assert changed.board is not first.board and [p.tapped for p in changed.board.permanents] == [True, False]


def test_solve_keeps_nothing_and_says_so():
    out = solve({"board": "me", "spell": {"mana_cost": "{G}"}})
    assert out["error"]["at"] == "board" and "serve" in out["error"]["message"]
    assert solve({"board": "me", "spell": {"mana_cost": "{G}"}, "permanents": FORESTS})["payable"]
    assert solve({"query": "drop_board", "board": "me"})["error"]["at"] == "board"


def test_time_limit_ms_sets_the_time_guard():
    from test_edges import SLOW
    out = solve({**SLOW, "time_limit_ms": 1})
    assert out["payable"] is None and out["reason"]["code"] == "timeout"
    assert solve({"spell": {"mana_cost": "{G}"}, "time_limit_ms": 0})["error"]["at"] == "time_limit_ms"
    assert solve({"spell": {"mana_cost": "{G}"}, "time_limit_ms": 600_001})["error"]["at"] == "time_limit_ms"


def test_kept_boards_through_the_real_serve_process():
    lines = [{"id": 1, "board": "me", "spell": {"mana_cost": "{G}"}, "permanents": FORESTS},
             {"id": 2, "board": "me", "spell": {"mana_cost": "{G}{G}"}, "changes": {"tapped": ["f1"]}}]
    out = subprocess.run([sys.executable, "-m", "manaplan", "serve"], capture_output=True, text=True, cwd=HERE,
                         input="".join(json.dumps(r) + "\n" for r in lines), timeout=60)
    got = [json.loads(line) for line in out.stdout.splitlines()]
    assert [g["payable"] for g in got] == [True, False]


def test_a_kept_board_asked_mid_cast_and_then_with_priority_marks_its_steps_each_time():
    """The supply kept with a board depends on mid_cast: Lion's Eye Diamond is a hint
    mid-cast and a step before casting with priority (a shared supply once gave the
    second answer unmarked steps)."""
    led = {"id": "led", "type_line": "Artifact",
           "abilities": [{"cost": "{T}, Sacrifice this", "add": {"any": 3}, "instant_only": True}]}
    mid, priority = answers({"id": 1, "board": "me", "mid_cast": True, "spell": {"mana_cost": "{R}{R}"},
                             "permanents": [led]},
                            {"id": 2, "board": "me", "spell": {"mana_cost": "{R}{R}"}})
    assert mid["payable"] is False and mid["reason"]["code"] == "needs_activation_before_casting"
    assert priority["payable"] is True and priority["plan"]["steps"][0]["before_casting"] is True


def test_a_name_holding_the_state_marker_does_not_mix_permanents_up():
    """Found by review: a change's tapped state was written into the permanent's key
    after "|tapped=", and a name holding that text cut the key short, so two different
    permanents shared a key (and what was built for one served the other: a wrong "no")."""
    store = BoardStore()
    sac = lambda pid, mana: {"id": pid, "name": "X|tapped=", "abilities": [{"cost": "Sacrifice this", "add": mana}]}
    assert solve({"board": "b1", "spell": {"mana_cost": "{G}"}, "permanents": [sac("a", "{G}")]}, boards=store)["payable"]
    assert solve({"board": "b1", "changes": {"tapped": ["a"]}, "spell": {"mana_cost": "{G}"}}, boards=store)["payable"]
    assert solve({"board": "b2", "spell": {"mana_cost": "{R}"}, "permanents": [sac("c", "{R}")]}, boards=store)["payable"]
    tapped = solve({"board": "b2", "changes": {"tapped": ["c"]}, "spell": {"mana_cost": "{R}"}}, boards=store)
    assert tapped["payable"] is True  # a tapped permanent can still be sacrificed
    mixed = [sac("a", "{G}"), sac("c", "{R}"), sac("d", "{R}")]
    solve({"board": "b3", "spell": {"mana_cost": "{R}{R}"}, "permanents": mixed}, boards=store)
    after = solve({"board": "b3", "changes": {"tapped": ["a", "c", "d"]}, "spell": {"mana_cost": "{R}{R}"}},
                  boards=store)
    assert after["payable"] is True and sorted(after["plan"]["sacrificed"]) == ["c", "d"]


def test_serve_collects_garbage_between_requests_and_restores_the_collector():
    """The collector runs after answers (all generations every hundredth), not during a
    request; the thresholds are as before once serve ends."""
    import gc
    before, full = gc.get_threshold(), gc.get_stats()[2]["collections"]
    answers(*[{"id": i, "spell": {"mana_cost": "{G}"}, "permanents": FORESTS} for i in range(100)])
    assert gc.get_stats()[2]["collections"] > full and gc.get_threshold() == before
