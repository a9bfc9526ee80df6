"""Hostile input through `manaplan serve`: every non-blank line gets exactly one answer, in
order, as strict JSON, small, without a traceback, whatever the line holds.

The lines are the worst an engine could send (nesting 100,000 deep, numbers of 5,000
digits, NaN and Infinity, invalid UTF-8, a 1 MB value, control characters) and random
mutations of the acceptance cases (values replaced by hostile ones, keys dropped and
added, types swapped). ``HOSTILE_MUTATIONS=N`` (default 300) and ``HOSTILE_SEED`` scale
it up for a long run; the time bound is a check against hangs, not a speed target.
"""

import copy
import json
import os
import random
import resource
import signal
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
MUTATIONS = int(os.environ.get("HOSTILE_MUTATIONS", 300))
SEED = int(os.environ.get("HOSTILE_SEED", 20261130))
#: an answer to one hostile line is at most this long (a long bad value is cut)
MAX_ANSWER_BYTES = 64 * 1024

HOSTILE_LINES = [
    b"[" * 100_000 + b"]" * 100_000,                                   # nesting far past any limit
    b'{"id": 1, "spell": ' * 3000 + b"{}" + b"}" * 3000,
    b'{"id": ' + b"9" * 5000 + b', "spell": {"mana_cost": "{1}"}}',     # more digits than Python converts
    b'{"id": NaN, "spell": {"mana_cost": "{1}"}}',                      # not JSON, though Python reads it
    b'{"id": Infinity}', b'{"id": -Infinity}', b"NaN",
    b'{"id": "\xff\xfe", "spell": {"mana_cost": "{1}"}}',               # invalid UTF-8
    b"\x00\x01\x02", b"\xef\xbb\xbf{}",                                 # control bytes, a BOM
    b'{"spell": {"mana_cost": "{1}", "x": "' + b"A" * 1_000_000 + b'"}}',  # a 1 MB bad value
    b'{"spell": {"mana_cost": "' + b"{Q}" * 100_000 + b'"}}',
    b'{"' + b"k" * 100_000 + b'": 1}',                                  # a 100 KB unknown key
    b'{"id": 1e999, "spell": {"mana_cost": "{1}"}}',
    b'"just a string"', b"42", b"null", b"[]", b"{", b"}", b'{"id": 1,}',
    b'{"id": {"nested": [1, 2, {"x": null}]}, "spell": {"mana_cost": "{G}"}}',
    b'{"game": "chess"}', b'{"game": ["mtg"]}', b'{"query": {"pay": true}}',
    b'{"game": "duel-masters", "card": {"name": "x", "cost": 99999999999999999999, "civilizations": []}, '
    b'"mana_zone": []}',
]

HOSTILE_VALUES = [None, True, False, -1, 0, 1.5, -0.0, 10 ** 30, 2 ** 63, 1e308, "", "x" * 10_000, "{Q/W}",
                  "{99999999}", "{X}{X}{X}", "💥", "\u0000", "NaN", [], {}, [[[[[]]]]], {"a": {"b": {"c": {}}}},
                  [None] * 50, "graveyard", "pool", "Sacrifice this", "{T}"]


def _nested(depth: int, kind=list) -> str:
    """JSON text: ``"x"`` inside ``depth`` lists (or objects)."""
    return ("[" * depth + '"x"' + "]" * depth) if kind is list else ('{"a": ' * depth + '"x"' + "}" * depth)


#: Values nested just under the reader's limit, and past the id's echo bound (as
#: JSON text: Python's own json would recurse too deep writing them)
NESTED_VALUES = [_nested(990), _nested(1000, dict), _nested(40), '[["x"]]', '{"x": ["y"]}']
_HOLE = "\u0000nested"


def _with_text(request: dict, path: tuple, text: str) -> str:
    """The request as JSON with the value at ``path`` replaced by the JSON ``text``."""
    return json.dumps(_set(copy.deepcopy(request), path, _HOLE)).replace(json.dumps(_HOLE), text)


#: v2's shapes, mutated like the acceptance cases: kept boards, a hand, sequences, the
#: best turn, spell choices
_LANDS = [{"id": "f1", "type_line": "Basic Land — Forest"}, {"id": "s1", "type_line": "Basic Land — Swamp"},
          {"id": "m1", "type_line": "Basic Land — Mountain"}]
_HAND = [{"id": "bear", "mana_cost": "{1}{G}", "type_line": "Creature — Bear"},
         {"id": "ritual", "mana_cost": "{B}", "type_line": "Instant", "oracle_text": "Add {B}{B}{B}."},
         {"id": "ssg", "mana_cost": "{2}{R}", "type_line": "Creature — Ape Spirit",
          "oracle_text": "Exile this card from your hand: Add {R}."},
         {"id": "isl", "type_line": "Basic Land — Island"}]
V2_REQUESTS = [
    {"board": "me", "spell": {"mana_cost": "{G}"}, "permanents": _LANDS, "player": {"life": 3}},
    {"board": "me", "spell": {"mana_cost": "{B}"}, "changes": {"tapped": ["f1"], "add": [_HAND[3] | {"id": "i2"}]}},
    {"query": "drop_board", "board": "me"},
    {"query": "castable", "hand": _HAND, "permanents": _LANDS, "time_limit_ms": 2000},
    {"query": "sequence", "order": "any", "spells": _HAND[:2], "permanents": _LANDS},
    {"query": "best_turn", "hand": _HAND, "land_drop": True, "permanents": _LANDS},
    {"spell": {"mana_cost": "{R}", "kicker": "{4}", "kicked": "if_possible", "multikicker": "{1}", "kicks": "max"},
     "hand": _HAND, "keep_castable": ["bear"], "keep_open": "{B}", "keep_together": True, "permanents": _LANDS},
    {"spell": {"mana_cost": "{4}{U}", "alternative_cost": "{2}{U}"}, "mid_cast": True, "permanents": _LANDS},
    # cards as they come (protocol 2.1): Scryfall objects, faces, text that depends on the board
    {"spell": {"card": {"object": "card", "name": "Fire // Ice", "layout": "split", "mana_cost": "{1}{R} // {1}{U}",
                        "card_faces": [{"object": "card_face", "name": "Fire", "mana_cost": "{1}{R}", "type_line": "Instant"},
                                       {"object": "card_face", "name": "Ice", "mana_cost": "{1}{U}", "type_line": "Instant"}]},
               "face": 1, "commander": False},
     "player": {"commander_identity": ["U"], "graveyard": 7},
     "permanents": _LANDS + [
         {"object": "card", "id": "x", "instance": "pw", "name": "Brightclimb Pathway // Grimclimb Pathway",
          "layout": "modal_dfc", "prices": {"usd": "1"},
          "card_faces": [{"name": "Brightclimb Pathway", "type_line": "Land", "oracle_text": "{T}: Add {W}."},
                         {"name": "Grimclimb Pathway", "type_line": "Land", "oracle_text": "{T}: Add {B}."}], "face": 1},
         {"id": "alt", "type_line": "Artifact", "oracle_text": "Sacrifice a creature: Add {C}{C}."},
         {"id": "elf", "type_line": "Creature — Elf", "oracle_text": "{T}: Add {G}.", "summoning_sick": True},
         {"id": "rp", "type_line": "Land", "oracle_text": "{T}: Add one mana of any type that a land you control could produce."},
         {"id": "ct", "type_line": "Land", "oracle_text": "{T}: Add one mana of any color in your commander's color identity."},
         {"id": "vault", "type_line": "Land", "counters": {"storage": 3}, "oracle_text":
          "{T}, Remove any number of storage counters from this land: Add {B} for each storage counter removed this way."},
         {"id": "cav", "type_line": "Land", "chosen_type": "Elf", "oracle_text": "{T}: Add one mana of any color. "
          "Spend this mana only to cast a creature spell of the chosen type."},
         {"id": "lan", "type_line": "Artifact", "oracle_text": "Lands you control have \"{T}: Add one mana of any color.\""}],
     "opponents": [{"id": "o1", "type_line": "Basic Land — Island"}]},
]


def load_cases() -> list:
    requests = list(V2_REQUESTS)
    folder = os.path.join(HERE, "cases")
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name)) as f:
            requests += [json.loads(line)["request"] for line in f if line.strip() and not line.startswith("#")]
    return requests


def _nodes(value, path=()):
    """Every (path, value) inside a JSON value."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _nodes(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _nodes(v, path + (i,))


def _set(root, path, value):
    if not path:
        return value
    parent = root
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return root


def mutate(request: dict, rng: random.Random) -> object:
    """One random hostile change to a copy of ``request``: a value replaced, a key
    dropped or added, a list lengthened, a container's type swapped."""
    out = copy.deepcopy(request)
    path, node = rng.choice(list(_nodes(out)))
    kind = rng.randrange(5)
    if kind == 0 or not isinstance(node, (dict, list)):
        return _set(out, path, copy.deepcopy(rng.choice(HOSTILE_VALUES)))
    if kind == 1 and isinstance(node, dict) and node:
        del node[rng.choice(list(node))]
    elif kind == 2 and isinstance(node, dict):
        node[rng.choice(["colour", "abilitys", "", "id", "tapped", "x", "spell"])] = rng.choice(HOSTILE_VALUES)
    elif kind == 3 and isinstance(node, list) and node:
        node.extend(copy.deepcopy(node) * rng.randrange(1, 4))
    else:
        return _set(out, path, list(node.values()) if isinstance(node, dict) else {str(i): v for i, v in enumerate(node)})
    return out


def test_every_hostile_line_gets_one_small_strict_json_answer_in_order():
    rng = random.Random(SEED)
    cases = load_cases()
    lines, ids = [], []
    for i, raw in enumerate(HOSTILE_LINES):
        lines.append(raw)
        ids.append(None)
        lines.append(b"")  # blank lines are skipped: no answer
    for i in range(MUTATIONS):
        request = mutate(rng.choice(cases), rng)
        tag = None
        if isinstance(request, dict):
            tag = request["id"] = f"m{i}"
        lines.append(json.dumps(request).encode())
        ids.append(tag)
    expected = [tag for line, tag in zip([x for x in lines if x.strip()], ids)]
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "manaplan", "serve"], input=b"\n".join(lines) + b"\n",
                          capture_output=True, timeout=300, cwd=HERE)
    elapsed = time.monotonic() - started
    assert proc.returncode == 0
    assert b"Traceback" not in proc.stderr, proc.stderr[-2000:]
    answers = proc.stdout.split(b"\n")
    assert answers[-1] == b""
    answers = answers[:-1]
    assert len(answers) == len(expected)
    for raw, tag in zip(answers, expected):
        assert len(raw) <= MAX_ANSWER_BYTES
        answer = json.loads(raw, parse_constant=lambda c: (_ for _ in ()).throw(AssertionError(c)))
        assert set(answer) & {"error", "payable", "castable", "cast", "dropped"}, answer
        if tag is not None:
            assert answer["id"] == tag
        if "error" in answer:
            assert isinstance(answer["error"]["message"], str) and answer["error"]["message"]
            assert not answer["error"].get("internal"), answer  # every hostile line is bad input, not a bug
    assert elapsed < 60 + MUTATIONS * 0.5  # a check against hangs, not a speed target
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    assert peak_mib < 2048


#: one request of every query, each then given nested values at every place
EVERY_QUERY = [
    {"spell": {"mana_cost": "{R}"}, "permanents": _LANDS, "prefer": {"order": ["life"], "keep_untapped": ["m1"]}},
    {"query": "max_x", "spell": {"mana_cost": "{X}{R}"}, "permanents": _LANDS},
    {"query": "can_pay", "spell": {"mana_cost": "{R}"}, "permanents": _LANDS},
    {"query": "castable", "hand": _HAND, "permanents": _LANDS},
    {"query": "sequence", "spells": _HAND[:2], "order": "any", "permanents": _LANDS},
    {"query": "best_turn", "hand": _HAND, "land_drop": True, "permanents": _LANDS},
    {"query": "total_cost", "spell": {"mana_cost": "{R}", "reduce": ["{1}"]}, "permanents": _LANDS},
    {"query": "pay", "spell": {"mana_cost": "{R}"}, "hand": _HAND, "keep_castable": ["bear"], "permanents": _LANDS},
    {"board": "me", "changes": {"tapped": ["f1"], "untapped": ["f1"], "add": [_HAND[3] | {"id": "i2"}]},
     "spell": {"mana_cost": "{R}"}},
    {"query": "drop_board", "board": "me"},
    {"query": "version"},
    {"game": "duel-masters", "card": {"cost": 1, "civilizations": ["fire"]}, "mana_zone": [{"id": "a", "civilizations":
                                                                                            ["fire"]}]},
]


def test_a_deeply_nested_id_or_value_is_a_located_error_never_an_internal_one():
    """An ``id`` nested 990 levels deep (and at the reader's limit, 1,023 inside
    the request) on every query is an error at ``id`` (its answer's id null), not an
    internal error, and the next request is answered; nested values at every other place
    of every query are located errors or answers, each written back."""
    keep = json.dumps({"board": "me", "spell": {"mana_cost": "{R}"}, "permanents": _LANDS})
    lines, expect_id_error = [], []
    for request in EVERY_QUERY:
        for depth in (990, 1023):
            lines += [keep, _with_text(request, ("id",), _nested(depth)), json.dumps({"id": "next", "query": "version"})]
            expect_id_error.append(len(lines) - 2)
        for path, _ in list(_nodes(request)):
            if path:
                for text in NESTED_VALUES:
                    lines += [keep, _with_text(request, path, text)]
    proc = subprocess.run([sys.executable, "-m", "manaplan", "serve"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=300, cwd=HERE)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    answers = [json.loads(line) for line in proc.stdout.splitlines()]  # (each answer was written whole)
    assert len(answers) == len(lines)
    for k, answer in enumerate(answers):
        assert not answer.get("error", {}).get("internal"), (lines[k][:300], answer)
    for k in expect_id_error:
        assert answers[k]["id"] is None and answers[k]["error"]["at"] == "id", answers[k]
        assert answers[k + 1]["id"] == "next" and "version" in answers[k + 1]


def test_ctrl_c_ends_serve_quietly():
    proc = subprocess.Popen([sys.executable, "-m", "manaplan", "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=HERE)
    proc.stdin.write(b'{"id": 1, "query": "version"}\n')
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1
    proc.send_signal(2)  # SIGINT, as Ctrl-C sends
    _, err = proc.communicate(timeout=60)
    assert b"Traceback" not in err and proc.returncode == 130


def test_a_line_longer_than_the_limit_is_answered_without_being_held():
    """`serve` reads at most MAX_REQUEST_BYTES of a line: a longer one is read to its end
    in pieces and gets an error, and the lines after it are answered as usual."""
    import io

    from manaplan.cli import request_lines, serve
    data = (b'{"id": 1, "query": "version"}\n' + b"x" * 100 + b"\n" + b'{"id": 3, "query": "version"}\n'
            + b"y" * 500)
    out = io.StringIO()
    serve(request_lines(io.BytesIO(data), limit=60), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [1, None, 3, None]
    assert "longer than" in answers[1]["error"]["message"] and "longer than" in answers[3]["error"]["message"]


def _long_request() -> str:
    """A best_turn that runs to a 60-second time limit (12 cards on 1,500 chain
    permanents, two mana rocks and a ritual among them: the order matters)."""
    import random

    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "benchmarks"))
    import boards
    perms = boards.chain_board(1500, random.Random(1))
    hand = [{"id": f"h{k}", "mana_cost": c, "type_line": "Sorcery"}
            for k, c in enumerate(["{3}{G}{U}", "{2}{W}{B}", "{4}{R}", "{1}{U}{U}", "{5}", "{2}{B}{B}"])]
    hand += [{"id": f"rock{k}", "name": "Mind Stone", "mana_cost": "{2}", "type_line": "Artifact",
              "oracle_text": "{T}: Add {C}."} for k in range(2)]
    hand += [{"id": "rit", "name": "Dark Ritual", "mana_cost": "{B}", "type_line": "Instant", "oracle_text": "Add {B}{B}{B}."}]
    hand += [{"id": f"g{k}", "mana_cost": c, "type_line": "Sorcery"} for k, c in enumerate(["{6}{G}{G}", "{5}{U}{U}{U}", "{7}{B}"])]
    return json.dumps({"query": "best_turn", "hand": hand, "permanents": perms, "time_limit_ms": 60000})


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_ends_serve_within_a_second_even_mid_solve(signum, code):
    """Ctrl-C (and SIGTERM) during a long CP-SAT solve ends `serve` at once,
    the answers before it whole; it waited for the solve (up to its time limit)."""
    proc = subprocess.Popen([sys.executable, "-m", "manaplan", "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=HERE)
    proc.stdin.write('{"id": 1, "query": "version"}\n' + _long_request() + "\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1
    time.sleep(1.5)  # (the long request is being solved)
    assert proc.poll() is None
    started = time.monotonic()
    proc.send_signal(signum)
    assert proc.wait(timeout=30) == code
    assert time.monotonic() - started < 1.0
    assert proc.stdout.read() == "" and "Traceback" not in proc.stderr.read()
