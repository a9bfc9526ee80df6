"""Boards held by body (5,000 permanents): a board read from a request keeps
its distinct bodies with their ids (``model.board.PermanentsByBody``); reading, grouping, the
plan read back from the model and the validator look at bodies and at the permanents a
plan names, not at every permanent. These tests hold that board to the one read
permanent by permanent."""

import json
import random
import time
from dataclasses import replace
from unittest import mock

import orjson
import pytest
from hypothesis import example, given, strategies as st

from manaplan import api, solve
from manaplan.api import solve_text
from manaplan.model.board import Board, PermanentsByBody
from manaplan.protocol.large_requests import PermanentTexts
from manaplan.protocol import mtg, permanents
from manaplan.queries import answer
from manaplan.solver.supply import group_board

from strategies import requests


def with_twins(perms: list, copies: list, seed: int) -> list:
    """``perms`` with each permanent given ``copies[i]`` more times under new ids, shuffled."""
    out = list(perms)
    for i, p in enumerate(perms):
        out += [{**p, "id": f"{p['id']}.{k}"} for k in range(copies[i % len(copies)])] if isinstance(p, dict) else []
    random.Random(seed).shuffle(out)
    return out


def read_both(perms: list):
    """(the board read by body from parsed JSON, the board read one by one), or the
    errors each raised as (message, at)."""
    out = []
    for read in (lambda: mtg.read_board(orjson.loads(orjson.dumps(perms)), "permanents", parsed=True),
                 lambda: permanents._read_each(perms, "permanents", set())):
        try:
            out.append(read())
        except ValueError as e:
            out.append((e.message, e.at))
    return out


@given(requests(), st.lists(st.integers(0, 3), min_size=1, max_size=4), st.integers(0, 9))
def test_a_board_read_by_body_is_the_board_read_one_by_one(request, copies, seed):
    perms = with_twins(request.get("permanents", []), copies, seed)
    by_body, each = read_both(perms)
    assert by_body == each
    if isinstance(each, Board):
        assert [p.id for p in by_body.permanents] == [p.id for p in each.permanents]
        assert [p.key for p in by_body.permanents] == [p.key for p in each.permanents]
        assert by_body.ids == each.ids and by_body.tapped_ids == each.tapped_ids
        assert by_body.unread == each.unread
        for p in each.permanents:
            assert by_body.find(p.id) == p and by_body.find(p.id).key == p.key
        assert by_body.find("nothing here") is None


@given(requests(), st.lists(st.integers(0, 3), min_size=1, max_size=4), st.integers(0, 9))
@example({"spell": {"mana_cost": "{1}{G}"}, "permanents": [
    {"id": "t", "abilities": [{"cost": "{T}, Sacrifice this", "add": "any"}, {"cost": "{T}", "add": "{G}"}]},
    {"id": "s", "abilities": [{"cost": "{1}, {T}", "add": "{G}{W}"}]}]}, [2], 1).via("twins of a sacrificed "
                                                                                      "and a Signet")
def test_the_answer_on_a_board_held_by_body_is_the_answer_on_its_permanents(request, copies, seed):
    """Same groups, same plan: what a request answers does not depend on how its board
    is held."""
    request = {**request, "permanents": with_twins(request.get("permanents", []), copies, seed)}
    try:
        problem = mtg.read(orjson.loads(orjson.dumps(request)), parsed=True)
    except ValueError:
        return
    tuple_board = Board(tuple(problem.board.permanents))
    if problem.board.counted_from is not None or isinstance(problem.board.permanents, tuple):
        return  # (resolved against the board: held as a tuple by then)
    assert isinstance(problem.board.permanents, PermanentsByBody)
    flat = replace(problem, board=tuple_board)
    # (a group's body may be under any id: its first permanent's is given it where its acts are built)
    assert [(p.key, ids) for p, ids in group_board(problem.board)] == [(p.key, ids) for p, ids in group_board(tuple_board)]
    assert group_board(problem.board) == _groups_sorted_anyway(problem.board)
    assert mtg.write(problem, answer(problem)) == mtg.write(flat, answer(flat))


def test_a_large_board_is_held_by_body_and_its_plan_names_the_first_twins():
    forests = [{"id": f"f{i}", "type_line": "Basic Land — Forest"} for i in range(2000)]
    treasures = [{"id": f"t{i}", "abilities": [{"cost": "{T}, Sacrifice this", "add": "any"}]} for i in range(1000)]
    signets = [{"id": f"s{i}", "abilities": [{"cost": "{1}, {T}", "add": "{U}{B}"}]} for i in range(1000)]
    request = {"spell": {"mana_cost": "{3}{G}{U}{U}{B}{R}"}, "permanents": forests + treasures + signets}
    problem = mtg.read(orjson.loads(orjson.dumps(request)), parsed=True)
    assert isinstance(problem.board.permanents, PermanentsByBody) and len(problem.board.kinds) == 3
    out = solve_text(json.dumps(request))
    assert out["payable"] is True
    # twins are picked in the order given: the first Forests, Signets and a Treasure
    assert set(out["plan"]["tapped"]) <= {f"f{i}" for i in range(6)} | {"s0", "s1", "t0"}
    assert out["plan"]["sacrificed"] == ["t0"]


def _pasted(name: str, produced: str, **more) -> dict:
    """A land as Scryfall writes it, pasted as a permanent."""
    return {"object": "card", "id": f"scryfall-{name}", "name": name, "mana_cost": "", "type_line": f"Basic Land — {name}",
            "oracle_text": "({T}: Add {%s}.)" % produced, "colors": [], "produced_mana": [produced], **more}


def test_pasted_scryfall_cards_are_held_by_body_under_their_instances():
    """Pasted card objects (each copy's ``instance`` its id, Scryfall's ``id`` the
    printing's) are read by body, as the protocol's own fields are: the same board, the
    same answer, as read one by one; copies of one printing without instances are still
    the duplicate their long reading names."""
    cards = [_pasted(["Forest", "Island", "Swamp"][i % 3], "GUB"[i % 3], instance=f"c{i}", tapped=i == 4)
             for i in range(30)]
    request = {"spell": {"mana_cost": "{2}{G}{U}"}, "permanents": cards}
    problem = mtg.read(orjson.loads(orjson.dumps(request)), parsed=True)
    assert isinstance(problem.board.permanents, PermanentsByBody) and len(problem.board.kinds) == 4
    by_body, each = read_both(cards)
    assert by_body == each and [p.id for p in by_body.permanents] == [f"c{i}" for i in range(30)]
    assert by_body.tapped_ids == each.tapped_ids == frozenset({"c4"})
    flat = replace(problem, board=Board(tuple(problem.board.permanents)))
    assert mtg.write(problem, answer(problem)) == mtg.write(flat, answer(flat))
    twins = [_pasted("Forest", "G") for _ in range(20)]
    out = solve_text(json.dumps({"spell": {"mana_cost": "{G}"}, "permanents": twins}))
    assert out["error"]["message"].startswith("duplicate permanent id 'scryfall-Forest' (a pasted Scryfall card's id")


_ELF = {"object": "card", "id": "s-elf", "name": "Llanowar Elves", "type_line": "Creature — Elf Druid", "mana_cost": "{G}",
        "oracle_text": "{T}: Add {G}.", "colors": ["G"]}
_PATHWAY = {"object": "card", "id": "s-path", "name": "Brightclimb Pathway // Grimclimb Pathway", "layout": "modal_dfc",
            "type_line": "Land // Land",
            "card_faces": [{"name": "Brightclimb Pathway", "type_line": "Land", "oracle_text": "{T}: Add {W}."},
                           {"name": "Grimclimb Pathway", "type_line": "Land", "oracle_text": "{T}: Add {B}."}]}
_TOP = {"object": "card", "id": "s-top", "name": "Top", "layout": "transform", "type_line": "Land",
        "card_faces": [{"name": "Front", "type_line": "Land", "oracle_text": "{T}: Add {R}."},
                       {"name": "Back", "type_line": "Land", "oracle_text": "{T}: Add {B}."}]}


@pytest.mark.parametrize("cost, perms", [
    # a face's name is the permanent's, not the card's two-faced name (found by a review: the
    # card's name was held apart as a native permanent's is, and named the permanent)
    ("{W}{G}{R}", [dict(_PATHWAY, instance="p1"), dict(_ELF, instance="e1"), dict(_TOP, instance="t1")]),
    # two cards of the same text but their names are two groups, as read one by one (the name
    # was held apart and the two merged: another of two equal plans)
    ("{G}{G}", [dict(_ELF, instance=f"c{i}", name=["Llanowar Elves", "Elvish Mystic"][i % 2]) for i in range(4)]),
    # the same card with its fields in another order: as read one by one, two groups
    ("{G}{G}", [({"name": "Forest"} if i % 2 else {}) | {"object": "card", "instance": f"f{i}",
                "type_line": "Basic Land — Forest", "oracle_text": "({T}: Add {G}.)"} | ({} if i % 2 else {"name": "Forest"})
                for i in range(4)]),
])
def test_pasted_cards_read_by_body_answer_as_read_one_by_one(cost, perms):
    request = {"spell": {"mana_cost": cost}, "permanents": perms}
    problem = mtg.read(orjson.loads(orjson.dumps(request)), parsed=True)
    each = permanents._read_each(perms, "permanents", set())
    assert [p.name for p in problem.board.permanents] == [p.name for p in each.permanents]
    flat = replace(problem, board=each)
    assert mtg.write(problem, answer(problem)) == mtg.write(flat, answer(flat))


def test_a_large_request_of_pasted_cards_names_their_instances():
    """A request past 64 KiB is read from its text (PermanentTexts): a pasted card whose
    text gives Scryfall's ``id`` first is still named by its ``instance``, and two copies
    of one instance are the duplicate they are (found by a review: the printing's id
    named the permanent there)."""
    pad = "x" * 40000
    perms = [{"id": f"scry-{i}", "object": "card", "instance": f"c{i}", "name": "Forest",
              "type_line": "Basic Land — Forest", "oracle_text": "({T}: Add {G}.)", "flavor_text": pad} for i in range(2)]
    text = json.dumps({"spell": {"mana_cost": "{G}"}, "permanents": perms})
    assert len(text) > 64 * 1024
    assert solve_text(text.encode())["plan"]["tapped"] == ["c0"]  # (bytes: as `serve` reads a line)
    perms[1]["instance"] = "c0"
    out = solve_text(json.dumps({"spell": {"mana_cost": "{G}"}, "permanents": perms}).encode())
    assert out["error"]["message"].startswith("duplicate permanent id 'c0'") and out["error"]["at"] == "permanents[1].id"


BAD_AMONG_TWINS = [
    ({"id": "f3"}, "duplicate permanent id 'f3'", "permanents[100].id"),
    ({"id": ""}, "every permanent needs an 'id' (non-empty text)", "permanents[100].id"),
    ({"id": "pool"}, "'pool' is reserved for floating mana; choose another id", "permanents[100].id"),
    ({"id": "graveyard:2"}, "'graveyard:2' is reserved for the cards delve exiles; choose another id",
     "permanents[100].id"),
    ({"id": 7}, "every permanent needs an 'id' (non-empty text)", "permanents[100].id"),
    ({"id": "x", "attached_to": "nowhere"}, "'attached_to' names no permanent on the board: 'nowhere'",
     "permanents[100].attached_to"),
    ({"id": "x", "tapped": "yes"}, None, "permanents[100].tapped"),
]


def test_what_is_wrong_among_twins_is_said_where_it_is():
    """The board read by body falls back to reading one by one, which names the place."""
    forests = [{"id": f"f{i}", "type_line": "Basic Land — Forest"} for i in range(100)]
    for bad, message, at in BAD_AMONG_TWINS:
        for parsed in (True, False):
            perms = forests + [{"type_line": "Basic Land — Forest", **bad}] + forests[:0]
            request = {"spell": {"mana_cost": "{G}"}, "permanents": perms}
            out = solve_text(json.dumps(request)) if parsed else solve(request)
            assert out["error"]["at"] == at, (bad, out)
            assert message is None or out["error"]["message"] == message


def test_a_name_whose_truth_cant_be_told_is_refused_where_it_is():
    """A name given from Python that is no text is refused as such, not by asking whether
    it is empty (review: an array's truth value raised, an internal error)."""
    class Ambiguous:
        def __bool__(self):
            raise ValueError("ambiguous")
    perms = [{"id": "f1", "type_line": "Basic Land — Forest", "name": Ambiguous()}]
    out = solve({"spell": {"mana_cost": "{G}"}, "permanents": perms})
    assert out["error"]["at"] == "permanents[0].name" and "internal" not in out["error"], out


def test_a_tuple_among_twins_read_from_python_is_refused_where_it_is():
    forest = {"abilities": [{"cost": "{T}", "add": "{G}"}]}
    perms = [{"id": f"f{i}", **forest} for i in range(50)] + [{"id": "odd", "abilities": ({"cost": "{T}", "add": "{G}"},)}]
    out = solve({"spell": {"mana_cost": "{G}"}, "permanents": perms})
    assert out["error"]["at"] == "permanents[50].abilities"


def test_twins_are_the_sequence_of_their_permanents():
    perms = [{"id": f"a{i}", "type_line": "Basic Land — Island"} for i in range(3)] + [{"id": "z", "tapped": True}]
    board = mtg.read_board(perms, "permanents")
    assert isinstance(board.permanents, PermanentsByBody) and len(board.permanents) == 4
    assert [p.id for p in board.permanents] == ["a0", "a1", "a2", "z"] and board.permanents[3].tapped
    assert board.permanents == tuple(board.permanents) and hash(board.permanents) == hash(tuple(board.permanents))
    more = board.permanents + (board.permanents[0].with_id("new"),)
    assert isinstance(more, PermanentsByBody) and [p.id for p in more][-1] == "new" and len(more) == 5
    assert board.tapped_ids == {"z"} and board.ids == {"a0", "a1", "a2", "z"}


def test_twins_with_a_permanent_added_under_an_id_they_hold_are_the_tuple():
    """(review) an added permanent whose id is on the board already (a hand land that
    also exiles itself for mana joins twice): the sequence is the tuple's, both kept."""
    from manaplan.model.board import Permanent
    board = mtg.read_board([{"id": "x", "type_line": "Basic Land — Forest"},
                            {"id": "y", "type_line": "Basic Land — Forest"}], "permanents")
    other = Permanent("x", name="Other")
    joined = board.permanents + (other,)
    assert joined == tuple(board.permanents) + (other,)
    assert [p.name for p in joined] == ["", "", "Other"] and joined[0].type_line == "Basic Land — Forest"
    assert board.permanents != list(board.permanents)  # a sequence of it, not equal to a list (as a tuple)


def test_many_attached_permanents_are_held_by_body_and_checked():
    """(review) each attached permanent is a body of its own: the hosts are checked with
    one union of the board's ids, not one per body (that was quadratic: 4,000 of each
    took a second; the speed is the benchmark's to say, this checks the reading)."""
    n = 300
    perms = [{"id": f"f{i}", "type_line": "Basic Land — Forest"} for i in range(n)] + \
            [{"id": f"e{i}", "type_line": "Artifact — Equipment", "attached_to": f"f{i}"} for i in range(n)]
    text = orjson.dumps(perms)
    mtg.read_board(orjson.loads(text), "permanents", parsed=True)
    board = mtg.read_board(orjson.loads(text), "permanents", parsed=True)
    assert isinstance(board.permanents, PermanentsByBody) and len(board.permanents) == 2 * n
    assert board.find("e7").attached_to == "f7"
    wrong = perms + [{"id": "lost", "type_line": "Artifact — Equipment", "attached_to": "nowhere"}]
    with pytest.raises(ValueError) as e:
        mtg.read_board(orjson.loads(orjson.dumps(wrong)), "permanents", parsed=True)
    assert e.value.at == f"permanents[{2 * n}].attached_to"


def test_names_do_not_split_groups_of_twins():
    """1,000 chain permanents each with its own name group as the same board
    without names does (and so cost what it costs: the named board timed out)."""
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks"))
    import boards
    from manaplan.protocol.mtg import read
    from manaplan.solver.supply import build_supply

    perms = boards.chain_board(1000, random.Random(3))
    named = [dict(p, name=f"Card {i}") for i, p in enumerate(perms)]
    spell = {"mana_cost": "{3}{G}{U}"}
    plain = build_supply(read({"spell": spell, "permanents": perms}))
    renamed = build_supply(read({"spell": spell, "permanents": named}))
    assert len(renamed.groups) == len(plain.groups) < 50
    stamped = [dict(p, timestamp=i + 1) for i, p in enumerate(named)]  # (engines stamp every permanent)
    assert len(build_supply(read({"spell": spell, "permanents": stamped})).groups) == len(plain.groups)


def test_a_timestamp_is_kept_apart_where_it_orders_an_effect():
    """A timestamp orders the effects of layer 4 (CR 613.7a): two permanents that set
    land types, alike but for their timestamps, are no twins; lands alike but for theirs
    are."""
    from manaplan.protocol.mtg import read

    moon = {"type_line": "Enchantment", "oracle_text": "Nonbasic lands are Mountains."}
    lands = [{"id": f"v{i}", "type_line": "Land", "oracle_text": "{T}: Add {C}.", "timestamp": 10 + i}
             for i in range(3)]
    board = read({"spell": {"mana_cost": "{1}"}, "permanents": lands + [
        {"id": "m1", **moon, "timestamp": 1}, {"id": "m2", **moon, "timestamp": 2}]}).board
    keys = {p.id: p.grouping_key() for p in board.permanents}
    assert keys["v0"] == keys["v1"] == keys["v2"] and keys["m1"] != keys["m2"]


#: bodies whose twins take names: a basic land; card text that names the card (its name
#: then matters); an explicit cost that names it; a permanent with triggers (Mana Reflection)
_NAMED_BODIES = [
    {"type_line": "Basic Land — Forest"},
    {"type_line": "Artifact", "oracle_text": "Sacrifice Ashnod's Altar: Add {C}{C}."},
    {"type_line": "Artifact", "abilities": [{"cost": "{T}, Sacrifice Mind Stone", "add": "{C}"}]},
    {"type_line": "Enchantment", "triggers": [{"when": "tapped", "of": "land", "add": "same"}]},
    {"type_line": "Land", "oracle_text": "{T}: Add {G}."},
]
_NAMES = ["Forest", "Forest 7", "Ashnod's Altar", "Mind Stone", "Altar", "", 7, None, 'Say "hi"', "tab\there",
          "Dash — ok", "G", "Fire // Ice"]


@given(st.lists(st.tuples(st.integers(0, len(_NAMED_BODIES) - 1), st.sampled_from(_NAMES), st.integers(0, 2)),
                min_size=1, max_size=12), st.booleans())
@example([(1, "Ashnod's Altar", 0), (1, "Altar", 0), (1, "Forest", 2)], False).via("a name the card text says")
@example([(0, "Forest", 0), (0, None, 0), (0, "", 1)], True).via("named, unnamed and an empty name: three bodies")
@example([(0, "A", 0), (0, 7, 1)], False).via("a name that is no text is said to be wrong where it is")
@example([(0, "Forest", 0), (0, "Fire // Ice", 0)], False).via("review: a name of two faces was read only if first")
@example([(1, "Ashnod's Altar", 0), (0, "Forest", 0), (1, "Altar", 0)], False).via("a body split by names around "
                                                                                  "another: groups put in order")
def test_names_are_held_by_id_and_read_as_one_by_one(chosen, as_text):
    """A board's names are held per id beside the body their permanents
    share, by both readers (parsed values, and a large request's texts); each permanent
    has its own name, whatever the order of its fields, and a body whose text says a
    name (or that has triggers) is read once per name: the board is the board read one
    by one, errors and where they are included."""
    perms = []
    for i, (body, name, where) in enumerate(chosen):
        fields = dict(_NAMED_BODIES[body])
        if name is not None:  # (the name first after the id, last, or among the fields)
            items = list(fields.items())
            items.insert([0, len(items), min(1, len(items))][where], ("name", name))
            fields = dict(items)
        perms.append({"id": f"p{i}", **fields})
    if as_text:
        text = orjson.dumps({"query": "can_pay", "spell": {"mana_cost": "{0}"}, "permanents": perms})
        with mock.patch.object(api, "LARGE_REQUEST", 0):
            read = api.read_request(text)["permanents"]
        assert isinstance(read, PermanentTexts)
    else:
        read = orjson.loads(orjson.dumps(perms))
    try:
        by_body = mtg.read_board(read, "permanents", parsed=True)
    except ValueError as e:
        by_body = (e.message, e.at)
    try:
        each = permanents._read_each(perms, "permanents", set())
    except ValueError as e:
        each = (e.message, e.at)
    assert by_body == each
    if isinstance(each, Board):
        assert isinstance(by_body.permanents, PermanentsByBody)  # (read by body, not the long way)
        assert [(p.id, p.name) for p in by_body.permanents] == [(p.id, p.name) for p in each.permanents]
        twins = _partition(by_body.permanents)  # (twins by body: at least those of the long way, and alike)
        assert all(any(ids <= group for group in twins) for ids in _partition(each.permanents))
        alike = {p.id: replace(p, id="", name="") for p in each.permanents}
        assert all(len({alike[pid] for pid in group}) == 1 for group in twins)
        for p in reversed(each.permanents):
            assert by_body.find(p.id) == p and by_body.find(p.id).name == p.name
        assert group_board(by_body) == _groups_sorted_anyway(by_body)


def _groups_sorted_anyway(board: Board) -> tuple:
    """``group_board`` of a board read by body as if its reader had not said its kinds
    come in the order of their first permanents (PermanentsByBody.in_order): the groups
    put in order by their first permanents' places, which must change nothing where the
    reader said so."""
    held = board.permanents
    said, held.in_order = held.in_order, False
    try:
        return group_board(Board(held))
    finally:
        held.in_order = said


def _partition(perms) -> set:
    """The permanents' ids grouped by their grouping keys (which permanents are twins)."""
    groups: dict = {}
    for p in perms:
        groups.setdefault(p.grouping_key(), set()).add(p.id)
    return {frozenset(ids) for ids in groups.values()}


@pytest.mark.parametrize("query", ["pay", "can_pay", "max_x", "castable", "sequence", "best_turn", "total_cost"])
@pytest.mark.parametrize("large", [False, True])
def test_a_request_whose_time_runs_out_while_it_is_read_is_undecided_in_its_shape(query, large):
    """Reading and grouping count toward the time guard (docs/protocol.md,
    "Limits"): a request whose time is gone while its permanents are read is answered
    as a solve that runs out is (``payable: null``, code ``timeout``; ``castable``: each
    card; ``total_cost``, which has no undecided answer: a located error), never read
    to its end first. (The clock is set back, so that the guard has run out.)"""
    spell = {"mana_cost": "{X}{G}" if query == "max_x" else "{G}"}
    request = {"id": 7, "query": query, "time_limit_ms": 1000,
               "permanents": [{"id": f"f{i}", "name": f"Forest {i}", "type_line": "Basic Land — Forest"}
                              for i in range(20_000)]}
    if query in ("castable", "best_turn"):
        request["hand"] = [{"id": "a", **spell}, {"id": "b", "mana_cost": "{1}"}]
    elif query == "sequence":
        request["spells"] = [{"id": "a", **spell}]
    else:
        request["spell"] = spell
    long_ago = time.monotonic() - 5
    read = api.read_request(orjson.dumps(request)) if large else request
    assert isinstance(read["permanents"], PermanentTexts) is large
    if large and query == "pay":  # (review: a permanent whose id is not first goes the long way, under the guard too)
        shuffled = dict(request, permanents=[{"type_line": p["type_line"], "id": p["id"]} for p in request["permanents"]])
        late = api.answer_request(api.read_request(orjson.dumps(shuffled)), parsed=True, started=time.monotonic() - 5)
        assert late["payable"] is None and "while the request's 20,000 permanents were read" in late["reason"]["message"]
    answer = api.answer_request(read, parsed=large, started=long_ago)
    assert answer["id"] == 7
    if query == "total_cost":
        assert answer["error"]["at"] == "permanents" and "while the request's 20,000 permanents were read" in \
            answer["error"]["message"]
        return
    for one in answer["castable"] if query == "castable" else [answer]:
        assert one["payable"] is None and one["reason"]["code"] == "timeout"
        assert "while the request's 20,000 permanents were read" in one["reason"]["message"]
    if query == "castable":
        assert [card["id"] for card in answer["castable"]] == ["a", "b"]
    assert api.solve(dict(request, time_limit_ms=60_000))["id"] == 7  # (and in time, it is answered)


def test_what_was_read_is_kept_within_a_bound_on_its_size():
    """The caches of what was read are bounded by size, not only by count
    (distinct 2.7 MB texts kept about 10 MB each): a body longer than the longest kept
    is read again, and the characters kept never pass the bound."""
    from manaplan.protocol.read_cache import MOST_KEPT_CHARS
    long_text = "Flying\n" * 200_000
    for i in range(3):
        answer = solve({"spell": {"mana_cost": "{G}"}, "permanents": [
            {"id": "f", "type_line": "Basic Land — Forest"},
            {"id": "w", "type_line": "Creature — Wall", "oracle_text": long_text + str(i)}]})
        assert answer["payable"] is True
        for cache in (permanents._BODIES, permanents._BODIES_BY_JSON, permanents._UNNAMED):
            assert all(len(key) < len(long_text) for key in cache._kept)
            assert cache._chars <= MOST_KEPT_CHARS


@given(st.lists(st.integers(0, 2), min_size=1, max_size=12), st.lists(st.tuples(
    st.sampled_from(["tapped", "untapped", "remove", "add"]), st.integers(0, 15)), max_size=8))
@example([0, 0, 0], [("tapped", 0), ("add", 1), ("remove", 1), ("untapped", 0)]).via("a shared body in two kinds")
def test_a_change_on_a_board_held_by_body_is_the_change_on_its_permanents(bodies, steps):
    """A change on a kept board held by body (``PermanentsByBody.changed`` and
    ``joined``, touching only the permanents named) gives the board that the same
    change gives on its permanents one by one: the same permanents in order, each body
    in one kind, every id found."""
    from manaplan.kept_boards import KeptBoard
    lands = [{"type_line": "Basic Land — Forest"}, {"type_line": "Basic Land — Island"},
             {"type_line": "Land", "oracle_text": "{T}: Add {C}."}]
    perms = [{"id": f"p{i}", **lands[b]} for i, b in enumerate(bodies)]
    kept = KeptBoard.of({}, mtg.read_board(orjson.loads(orjson.dumps(perms)), "permanents", parsed=True))
    plain = KeptBoard.of({}, Board(tuple(kept.board.permanents)))
    serial = len(perms)
    for key, i in steps:
        ids = [p.id for p in plain.board.permanents]
        if key == "add":
            serial += 1
            change = {"add": [{"id": f"p{serial}", **lands[i % 3]}]}
        elif not ids:
            continue
        else:
            change = {key: [ids[i % len(ids)]]}
        kept, plain = mtg.apply_changes(kept, change), mtg.apply_changes(plain, change)
        assert tuple(kept.board.permanents) == tuple(plain.board.permanents)
        assert [p.tapped for p in kept.board.permanents] == [p.tapped for p in plain.board.permanents]
        assert set(kept.board.ids) == set(plain.board.ids)
        for p in plain.board.permanents:
            assert kept.board.find(p.id) == p
        if isinstance(kept.board.permanents, PermanentsByBody):
            shown = [id(body) for body, _ in kept.board.kinds]
            assert len(shown) == len(set(shown))  # (each body in one kind)


def test_a_name_an_ability_says_is_no_twin_of_another_name():
    """(review) "{T}, Sacrifice Mind Stone" is "sacrifice this" on Mind Stone and can't be
    read on a permanent of another name: read after a Mind Stone, that permanent was
    taken as its twin (the cache of twins of other names looked only at the card text,
    not the abilities). Each reader now says so, where it is, as reading it alone does."""
    ability = {"type_line": "Artifact", "abilities": [{"cost": "{T}, Sacrifice Mind Stone", "add": "{C}"}]}
    other = {"id": "b", "name": "Other", **ability}
    alone = read_both([dict(other)])
    assert isinstance(alone[1], tuple) and "Sacrifice Mind Stone" in alone[1][0]
    after = read_both([{"id": "a", "name": "Mind Stone", **ability}, other])
    assert after[0] == after[1] == (alone[1][0], "permanents[1].abilities[0].cost")


def test_a_board_sent_again_whole_is_read_once_and_an_error_is_never_kept():
    """An engine that sends its whole board with each question has it read once
    (the same permanents as JSON, the same board); a board that differs in anything, even
    an id, is read anew; a board with an error is an error each time."""
    from manaplan.protocol.permanents import WHOLE_BOARDS_FROM, read_board
    perms = [{"id": f"f{i}", "type_line": "Basic Land — Forest"} for i in range(WHOLE_BOARDS_FROM)]
    first = read_board(json.loads(json.dumps(perms)), "permanents", parsed=True)
    assert read_board(json.loads(json.dumps(perms)), "permanents", parsed=True) is first
    renamed = [{**p, "id": p["id"] + "x"} for p in perms]
    assert read_board(renamed, "permanents", parsed=True) is not first
    assert read_board(json.loads(json.dumps(perms)), "permanents", known={"h1"}, parsed=True) is not first
    bad = perms + [{"id": "f0", "type_line": "Basic Land — Forest"}]  # a duplicate id
    for _ in range(2):
        with pytest.raises(ValueError):
            read_board(json.loads(json.dumps(bad)), "permanents", parsed=True)
