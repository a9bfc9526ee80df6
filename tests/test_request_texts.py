"""A large request's permanents read as the texts they came in (``manaplan.protocol.large_requests``):
whatever the text, the answer is the one the long way gives (``read_json``,
then the board read from parsed values), errors and where they are included."""

import json
import random
from unittest import mock

import orjson
import pytest
from hypothesis import example, given, reject, strategies as st

from manaplan import api
from manaplan.api import read_request, solve_text
from manaplan.protocol.large_requests import PermanentTexts

from strategies import requests
from test_large_boards import with_twins


def both_ways(text: bytes) -> tuple:
    """(the answer with every request read as a large one, the answer the long way)."""
    with mock.patch.object(api, "LARGE_REQUEST", 0):
        by_text = solve_text(text)
    with mock.patch.object(api, "LARGE_REQUEST", float("inf")):
        long_way = solve_text(text)
    return by_text, long_way


def _shuffled_keys(value, rng: random.Random):
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {k: _shuffled_keys(v, rng) for k, v in items}
    if isinstance(value, list):
        return [_shuffled_keys(v, rng) for v in value]
    return value


#: the ways engines write JSON: json's default, compact, orjson, UTF-8 as it is, one
#: value a line (line breaks inside each permanent), keys in any order
WRITERS = [
    lambda r: json.dumps(r).encode(),
    lambda r: json.dumps(r, separators=(",", ":")).encode(),
    orjson.dumps,
    lambda r: json.dumps(r, ensure_ascii=False).encode(),
    lambda r: json.dumps(r, indent=1).encode(),
    lambda r: json.dumps(_shuffled_keys(r, random.Random(len(json.dumps(r))))).encode(),
]


@given(requests(), st.lists(st.integers(0, 3), min_size=1, max_size=4), st.integers(0, 9),
       st.integers(0, len(WRITERS) - 1))
def test_a_request_read_by_its_texts_is_answered_as_the_long_way(request, copies, seed, writer):
    request = {**request, "permanents": with_twins(request.get("permanents", []), copies, seed)}
    by_text, long_way = both_ways(WRITERS[writer](request))
    if not (_settled(by_text) and _settled(long_way)):
        reject()  # (cut short by the time guard: which plan was found by then is not the reader's doing)
    assert by_text == long_way


def _settled(answer: dict) -> bool:
    """Whether an answer is not one the time guard cut short (an undecided `timeout`, a
    plan not proven optimal): those may differ from run to run."""
    if (answer.get("reason") or {}).get("code") == "timeout":
        return False
    return (answer.get("plan") or {}).get("optimal", True) is not False


FOREST = {"type_line": "Basic Land — Forest"}
GREEN = {"spell": {"mana_cost": "{G}{G}"}}


def forests(n: int, **more) -> list:
    return [{"id": f"f{i}", **FOREST, **more} for i in range(n)]


#: texts that the regular expression must not take for what they aren't, and requests
#: msgspec splits differently or not at all: each is answered as the long way answers
HOSTILE = [
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a", "type_line": "Basic Land \\u2014 Forest", "id": "b"}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a", "id": "a", "type_line": "Basic Land \\u2014 Forest"}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "f\\u0031", "type_line": "Basic Land \\u2014 Forest"}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "f\\"", "type_line": "Basic Land \\u2014 Forest"}]}',
    '{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "for\u00eat", "type_line": "Basic Land"}]}'.encode(),
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{ "id": "a", "type_line": "Basic Land \\u2014 Forest"}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id" : "a", "type_line": "Basic Land \\u2014 Forest"}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a"}, {"id": "b" }, {"id":"c"\t}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a",\n"o":\n{"id": "b"}}, {"id": "c"}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a", "abilities": [{"id": "a", "cost": "{T}"}]}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a", "name": "\\"id\\": \\"b\\""}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "", "type_line": "Basic Land \\u2014 Forest"}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "pool"}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [1, "x", null, [], {}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": 5}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": null}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": []}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [], "permanents": [{"id": "a", "type_line": "Basic Land"}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a"}], "surprise": 1}',
    b'{"game": "duel-masters", "permanents": [{"id": "a"}]}',
    b'{"game": 7, "permanents": [{"id": "a"}]}',
    b'[{"permanents": [{"id": "a"}]}]',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a", "counters": 12345678901234567890123}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a", "name": "\\ud800"}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a", "name": NaN}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a", "counters": 1e400}]}',
    # (found: deeper than orjson writes, which the fast way's body text met unguarded)
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a", "x": ' + b"[" * 300 + b"]" * 300 + b'}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a", "object": "card", "name": "Forest"}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a", "type_line": "Basic Land \\u2014 Forest"},',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a", "type_line": "Basic Land \xe2\x80\x94 Forest"}]}',
    b'{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a", "type_line": "\xff"}]}',
    b'\xef\xbb\xbf{"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "a"}]}',
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_texts_are_answered_as_the_long_way(text):
    by_text, long_way = both_ways(text)
    assert by_text == long_way


@given(st.sampled_from(HOSTILE), st.integers(1, 400), st.integers(0, 9))
@example(HOSTILE[0], 300, 0)
def test_hostile_texts_among_many_twins_are_answered_as_the_long_way(text, n, seed):
    """The same texts with a large board before them: a permanent of its own among twins."""
    head = orjson.dumps({**GREEN, "permanents": forests(n)})
    at = text.find(b'"permanents": [')
    if at < 0 or not text.startswith(b"{"):
        return
    rest = text[at + len(b'"permanents": ['):]
    joined = head[:-2] + (b"," + rest if not rest.startswith(b"]") else rest)
    by_text, long_way = both_ways(joined)
    assert by_text == long_way


def test_large_requests_as_engines_write_them_are_read_by_their_texts():
    """The fast way is taken for the writers engines use, so its speed can't silently go."""
    request = {**GREEN, "permanents": forests(3000) + [{"id": "s", "abilities": [{"cost": "{1}, {T}", "add": "{G}{U}"}]}]}
    for write in WRITERS[:5]:
        text = write(request)
        assert len(text) >= api.LARGE_REQUEST
        read = read_request(text)
        perms = read["permanents"]
        if write is WRITERS[4]:  # (one value a line: a permanent's text is several lines)
            assert isinstance(perms, PermanentTexts) and perms.kinds() is None
            continue
        assert isinstance(perms, PermanentTexts)
        distinct, kind_of, order, names = perms.kinds()
        assert len(distinct) == 2 and order[0] == "f0" and order[-1] == "s" and kind_of[-1] == 1 and names is None
        answer = solve_text(text)
        assert answer["payable"] is True and answer["plan"]["tapped"] == ["f0", "f1"]
    assert read_request(json.dumps(request)) == json.loads(json.dumps(request))  # (text as str: the long way)


def test_a_duel_masters_request_is_never_read_by_texts():
    text = json.dumps({"game": "duel-masters", "card": {"cost": 1, "civilizations": ["fire"]},
                       "permanents": forests(3000)}).encode()
    assert not isinstance(read_request(text).get("permanents"), PermanentTexts)


def test_what_msgspec_hands_on_unread_is_located_in_the_whole_request():
    """msgspec finds where each value ends without reading all of it: text that is not
    JSON inside one is said where it is in the request, as the long way says it."""
    for inside in (b'"\\x"', b'tru', b'1.e5', b'"\\u12"', b'[1,]', b'-', b'01'):
        for where in ("spell", "permanent", "player"):
            head = {"spell": b'{"mana_cost": ' + inside + b'}' if where == "spell" else b'{"mana_cost": "{G}"}',
                    "player": b'{"life": ' + inside + b'}' if where == "player" else b'{"life": 20}'}
            perm = b'{"id": "z", "name": ' + inside + b'}' if where == "permanent" else b'{"id": "z"}'
            text = (b'{"spell": ' + head["spell"] + b', "player": ' + head["player"] + b', "permanents": ['
                    + b", ".join(b'{"id": "f%d", "type_line": "Basic Land"}' % i for i in range(50)) + b", " + perm + b"]}")
            by_text, long_way = both_ways(text)
            assert by_text == long_way and "error" in long_way, (inside, where)


F = '"type_line": "Basic Land \\u2014 Forest"'
MANY = ", ".join('{"id": "f%d", %s}' % (i, F) for i in range(2, 2000))  # (past LARGE_REQUEST)


def test_review_twins_written_apart_are_one_body_and_tap_as_the_long_way():
    """(review) twins whose texts differ only in how they are written ("a": 1 and
    "a":1, a dash raw or escaped) were two bodies, so the plan tapped other ids."""
    for second in ('{"id": "f1",%s}' % F, '{"id": "f1", %s }' % F,
                   '{"id": "f1", "type_line": "Basic Land \u2014 Forest"}'):
        text = ('{"spell": {"mana_cost": "{G}{G}"}, "permanents": [{"id": "f0", %s}, %s, %s]}'
                % (F, second, MANY)).encode()
        assert len(text) >= api.LARGE_REQUEST
        by_text, long_way = both_ways(text)
        assert by_text == long_way and by_text["plan"]["tapped"] == ["f0", "f1"]
        assert len(read_request(text)["permanents"].kinds()[0]) == 1


def test_review_drop_board_names_unknown_fields_in_the_order_given():
    text = ('{"query": "drop_board", "board": "x", "permanents": [%s], "spell": {"mana_cost": "{G}"}}' % MANY).encode()
    by_text, long_way = both_ways(text)
    assert by_text == long_way and by_text["error"]["at"] == "permanents"


def test_review_a_field_given_twice_is_read_both_times():
    """(review) msgspec handed on the first of two values of a key unread: a number too
    large for a float there passed, where the long way refuses the request."""
    for text in ('{"player": 1e400, "spell": {"mana_cost": "{G}"}, "permanents": [%s], "player": {"life": 20}}' % MANY,
                 '{"spell": {"mana_cost": "{G}"}, "permanents": [1e400], "permanents": [%s]}' % MANY,
                 '{"spell": 1e400, "spell": {"mana_cost": "{G}"}, "permanents": [%s]}' % MANY,
                 '{"spell": {"mana_cost": "{G}"}, "permanents": [%s], "spell": {"mana_cost": "{G}", "x": 1e999}}' % MANY):
        by_text, long_way = both_ways(text.encode())
        assert by_text == long_way and "error" in long_way, text[:60]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 63, 2 ** 64 - 1) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=8)


@given(st.sampled_from(["spell", "player", "hand", "prefer", "x", "query", "time_limit_ms", "id", "board"]), JSON_VALUES,
       st.booleans())
def test_any_value_of_another_field_is_read_as_the_long_way(field, value, twice):
    """msgspec reads the fields besides the permanents: whatever they hold, the answer
    (or the error, and where) is the long way's."""
    field_text = json.dumps({field: value})[1:-1]
    spell = '"spell": {"mana_cost": "{G}"}, ' if field != "spell" else ""
    first = f'"{field}": 0, ' if twice else ""
    text = ('{%s%s"permanents": [%s], %s}' % (first, spell, MANY, field_text)).encode()
    by_text, long_way = both_ways(text)
    assert by_text == long_way


_KEYS = ["permanents", "spell", "player", "query", "id"]


def _escaped(key: str, how: int) -> str:
    """``key`` as JSON text, one of its letters written as an escape (``\\u0070``) or not."""
    if how == 0:
        return json.dumps(key)
    i = how % len(key)
    return '"' + key[:i] + "\\u%04x" % ord(key[i]) + key[i + 1:] + '"'


@given(st.lists(st.tuples(st.sampled_from(_KEYS), st.integers(0, 9),
                          st.sampled_from(["[1e400]", "[]", "{}", '"x"', "7", '[{"id": "z", "type_line": "Land"}]'])),
                min_size=1, max_size=3), st.booleans())
@example([("permanents", 1, "[1e400]")], True)
@example([("permanents", 1, "[]")], False)
def test_escaped_and_twice_given_keys_are_read_alike_at_both_sizes(extra, before):
    """A key written with an escape (``"\\u0070ermanents"``), given beside
    the same key written plainly, before or after it, gets the same answer from the
    reader of large requests as from the long way (it was refused small and let through
    large)."""
    body = '"spell": {"mana_cost": "{G}"}, "permanents": [{"id": "f", "type_line": "Basic Land — Forest"}]'
    more = ", ".join(f"{_escaped(key, how)}: {value}" for key, how, value in extra)
    text = ("{" + more + ", " + body + "}") if before else ("{" + body + ", " + more + "}")
    by_text, long_way = both_ways(text.encode())
    assert by_text == long_way
