"""The protocol's JSON Schemas (docs/schema/) against the documentation and the code.

- every example in docs/protocol.md validates against its schema, and each answer there is
  what ``manaplan.solve`` answers to the request before it;
- every acceptance case (tests/cases/*.jsonl) is a valid request, and its answer a valid
  answer;
- answers to random requests (the hypothesis strategies of tests/strategies.py) for
  every query are valid answers, and a request the server accepts is a valid request;
- error answers to bad requests are valid answers, and the request schema refuses the
  bad requests it can see are bad.
"""

import glob
import json
import os
import re

import pytest
from hypothesis import given, settings, strategies as st
from jsonschema import Draft202012Validator

import manaplan
from strategies import plain_requests, requests

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DOCS = os.path.join(ROOT, "docs")


def _validator(name: str) -> Draft202012Validator:
    with open(os.path.join(DOCS, "schema", name), encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


REQUEST = _validator("request.schema.json")
RESPONSE = _validator("response.schema.json")


def problems(validator: Draft202012Validator, instance) -> list:
    """Every schema violation, as readable lines (empty: valid)."""
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
            for e in sorted(validator.iter_errors(instance), key=lambda e: list(map(str, e.path)))]


def assert_valid(validator: Draft202012Validator, instance, what: str = "") -> None:
    found = problems(validator, instance)
    assert not found, f"{what}\n{json.dumps(instance)}\n" + "\n".join(found)


# --- the examples in docs/protocol.md --------------------------------------------

#: each role an example block may have, and the schema it must satisfy
REQUEST_ROLES = ("request", "dm-request")
BAD_REQUEST_ROLES = ("bad-request",)
ANSWER_ROLES = ("response", "dm-response", "error")
_BLOCK = re.compile(r"<!--\s*([\w-]+)\s*-->\s*\n```json\n(.*?)\n```", re.S)


def doc_examples() -> list:
    """(role, parsed JSON, line number) of every marked example block, in order."""
    with open(os.path.join(DOCS, "protocol.md"), encoding="utf-8") as f:
        text = f.read()
    out = []
    for m in _BLOCK.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        try:
            value = json.loads(m.group(2))
        except json.JSONDecodeError as e:  # a broken example is a failure, with its place
            pytest.fail(f"docs/protocol.md line {line}: the {m.group(1)} example is not JSON: {e}")
        out.append((m.group(1), value, line))
    return out


EXAMPLES = doc_examples()


def example_pairs() -> list:
    """(request, answer, role of the answer, line of the answer) for each answer example
    and the request example right before it."""
    pairs, last = [], None
    for role, value, line in EXAMPLES:
        if role in REQUEST_ROLES + BAD_REQUEST_ROLES:
            last = (role, value, line)
        elif role in ANSWER_ROLES:
            assert last is not None, f"docs/protocol.md line {line}: a {role} example with no request before it"
            pairs.append((last[1], value, role, line))
            last = None
    return pairs


PAIRS = example_pairs()


def test_every_json_block_in_the_docs_is_a_marked_example():
    """Complete examples are fenced ```json and marked with their role; fragments (shapes
    with ``...``) are fenced ```jsonc, so no example escapes the checks below."""
    with open(os.path.join(DOCS, "protocol.md"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    unmarked = [i + 1 for i, line in enumerate(lines)
                if line.strip() == "```json" and not re.fullmatch(r"<!--\s*[\w-]+\s*-->", lines[i - 1].strip())]
    assert not unmarked, f"docs/protocol.md: ```json blocks without a role comment at lines {unmarked}"
    assert len(EXAMPLES) == sum(1 for line in lines if line.strip() == "```json")


def test_the_docs_have_examples_of_every_kind():
    roles = [role for role, _, _ in EXAMPLES]
    assert set(roles) <= set(REQUEST_ROLES + BAD_REQUEST_ROLES + ANSWER_ROLES), set(roles)
    for role in REQUEST_ROLES + BAD_REQUEST_ROLES + ANSWER_ROLES:
        assert role in roles, f"docs/protocol.md has no {role} example"
    queries = {value.get("query", "pay") for role, value, _ in EXAMPLES if role == "request"}
    assert queries >= {"pay", "max_x", "can_pay", "version"}, queries
    # every request example is answered right after it
    requests_seen = sum(1 for role, _, _ in EXAMPLES if role in REQUEST_ROLES + BAD_REQUEST_ROLES)
    assert requests_seen == len(PAIRS)


@pytest.mark.parametrize("role,value,line", EXAMPLES, ids=[f"line{line}-{role}" for role, _, line in EXAMPLES])
def test_each_doc_example_fits_its_schema(role, value, line):
    where = f"docs/protocol.md line {line} ({role})"
    if role in REQUEST_ROLES:
        assert_valid(REQUEST, value, where)
        assert (value.get("game") == "duel-masters") == (role == "dm-request"), where
    elif role in BAD_REQUEST_ROLES:
        # bad on purpose; the schema sees some of it (a stray key, an unknown symbol), not
        # all (card text it can't read): test_bad_requests_... checks which it must refuse
        assert isinstance(value, dict), where
    else:
        assert_valid(RESPONSE, value, where)
        assert ("error" in value) == (role == "error"), where
        if role == "dm-response":
            assert isinstance(value.get("total_cost"), int), where


def _expected(answer: dict) -> dict:
    """The documented answer with what legitimately varies filled in from the package:
    the version answer's ``version`` is the package version (``manaplan.__version__``),
    which changes with every release while the example stays. Nothing else varies: the
    planner is deterministic (one CP-SAT worker, canonical model order)."""
    answer = json.loads(json.dumps(answer))
    if "version" in answer and "protocol" in answer:
        assert re.fullmatch(r"\d+\.\d+(\.\d+)?\S*", answer["version"]), answer["version"]
        answer["version"] = manaplan.__version__
    return answer


@pytest.mark.parametrize("request_,answer,role,line", PAIRS, ids=[f"line{line}-{role}" for _, _, role, line in PAIRS])
def test_each_doc_answer_is_what_manaplan_answers(request_, answer, role, line):
    got = manaplan.solve(request_)
    assert got == _expected(answer), (f"docs/protocol.md line {line}: manaplan answers\n"
                                      f"{json.dumps(got)}\nto the request before it")


def test_the_docs_state_the_package_protocol_version():
    versions = [value for role, value, _ in EXAMPLES if role == "response" and "protocol" in value]
    assert versions, "docs/protocol.md has no version answer example"
    assert all(v["protocol"] == manaplan.PROTOCOL_VERSION for v in versions)


def test_one_protocol_version_everywhere():
    """The title said 2.0, a section "this is 2.1", the version query 2.2: the
    title, the "currently" of Versions, the newest entry of History and the version
    answer all say the one version, and every version History names is in order."""
    with open(os.path.join(ROOT, "docs", "protocol.md"), encoding="utf-8") as f:
        text = f.read()
    version = manaplan.PROTOCOL_VERSION
    assert text.splitlines()[0] == f"# The manaplan protocol (version {version})"
    assert f'currently `"{version}"`' in text
    history = text[text.index("## History"):]
    entries = re.findall(r"^- \*\*(\d+\.\d+)\*\*", history, re.M)
    assert entries[-1] == version, entries
    as_numbers = [tuple(map(int, v.split("."))) for v in entries]
    assert as_numbers == sorted(as_numbers) and len(set(as_numbers)) == len(as_numbers)
    assert manaplan.solve({"query": "version"})["protocol"] == version
    assert f"this is **{version}**" in text or f"This page is protocol **{version}**" in text


# --- the acceptance cases ----------------------------------------------------------

def load_cases() -> list:
    cases = []
    for path in sorted(glob.glob(os.path.join(HERE, "cases", "*.jsonl"))):
        with open(path, encoding="utf-8") as f:
            cases += [json.loads(line) for line in f if line.strip() and not line.startswith("#")]
    return cases


CASES = load_cases()


def test_there_are_cases():
    assert CASES


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_each_case_and_its_answer_fit_the_schemas(case):
    request = case["request"]
    answer = manaplan.solve(request)
    assert_valid(RESPONSE, answer, case["name"])
    if case["expect"].get("error"):
        assert "error" in answer, case["name"]
    else:
        assert_valid(REQUEST, request, case["name"])
        assert "error" not in answer, (case["name"], answer)


# --- random requests ---------------------------------------------------------------

QUERIES = st.sampled_from(["pay", "can_pay", "max_x"])


def _check_random(request: dict, query: str) -> None:
    request = {**request, "query": query}
    answer = manaplan.solve(request)
    assert_valid(RESPONSE, answer, f"the answer to a random {query} request")
    if "error" not in answer:  # what the server accepts, the request schema accepts
        assert_valid(REQUEST, request, "a request the server answered")


@settings(max_examples=60)
@given(requests(), QUERIES)
def test_answers_to_random_requests_fit_the_schema(request, query):
    _check_random(request, query)


@settings(max_examples=40)
@given(plain_requests(), QUERIES)
def test_answers_to_random_plain_requests_fit_the_schema(request, query):
    _check_random(request, query)


# --- bad requests ------------------------------------------------------------------

FOREST = {"id": "f", "type_line": "Basic Land — Forest"}

#: (bad request, whether the request schema can see it is bad)
BAD = [
    ({"spell": {"mana_cost": "{Q/W}"}}, True),
    ({"spell": {"mana_cost": "{U/W}"}}, True),
    ({"spell": {"mana_cost": "{1}"}, "player": {"life": -1}}, True),
    ({"spell": {"mana_cost": "{X}", "x": 10 ** 8}}, True),
    ({"spell": {"mana_cost": "{1}", "colour": "red"}}, True),
    ({"spell": {"mana_cost": "{1}"}, "objective": "fast"}, True),
    ({"spell": {"mana_cost": "{1}"}, "query": "everything"}, True),
    ({"spell": {"mana_cost": "{1}", "reduce": ["{X}"]}}, True),
    ({"permanents": []}, True),
    ({"spell": {"mana_cost": "{1}"}, "permanents": [{"name": "Forest"}]}, True),
    ({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "pool"}]}, True),
    ({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "abilities": [{"cost": "{T}", "add": "{2}"}]}]}, True),
    ({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "abilities": [{"cost": "{T}", "add": {"any": 0}}]}]},
     True),
    ({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "abilities": [{"cost": "{T}"}]}]}, True),
    ({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "triggers": [{"when": "untapped", "of": "land",
                                                                              "add": "{G}"}]}]}, True),
    ({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "triggers": [{"when": "tapped", "of": "Land",
                                                                              "add": "{G}"}]}]}, True),
    ({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "triggers": [{"when": "adds", "of": "land",
                                                                              "multiply": 2}]}]}, True),
    ({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "counters": {"charge": -1}}]}, True),
    ({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "colors": ["Green"]}]}, True),
    ({"game": "chess", "spell": {"mana_cost": "{1}"}}, True),
    ({"game": "duel-masters", "card": {"cost": 2, "civilizations": ["red"]}, "mana_zone": []}, True),
    ({"game": "duel-masters", "card": {"cost": 2, "civilizations": []}}, True),
    ({"game": "duel-masters", "query": "max_x", "card": {"cost": 2, "civilizations": []}, "mana_zone": []}, True),
    ({"game": "duel-masters", "card": {"cost": 2, "civilizations": []},
      "mana_zone": [{"id": "a", "civilizations": ["fire", "fire"]}]}, True),
    ([1, 2], True),
    # what only the server can see: the board, the grammar of text
    ({"spell": {"mana_cost": "{1}"}, "permanents": [FOREST, FOREST]}, False),
    ({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "abilities": [{"cost": "{T}, Discard a card",
                                                                              "add": "{R}"}]}]}, False),
    ({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "abilities": [{"cost": "{T}", "add": "{C}",
                                                                              "restrict": "blah spells"}]}]}, False),
    ({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "g", "type_line": "Land",
                                                     "oracle_text": "All Mountains are Plains."}]},
     False),
    ({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "attached_to": "nowhere"}]}, False),
    ({"game": "duel-masters", "card": {"cost": 2, "civilizations": []},
      "mana_zone": [{"id": "a", "civilizations": []}, {"id": "a", "civilizations": []}]}, False),
]


@pytest.mark.parametrize("request_,schema_sees_it", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_bad_requests_get_errors_that_fit_the_schema(request_, schema_sees_it):
    if isinstance(request_, dict):
        request_ = {"id": "bad", **request_}
    answer = manaplan.solve(request_)
    assert "error" in answer, answer
    assert_valid(RESPONSE, answer, "an error answer")
    assert answer["id"] == (request_.get("id") if isinstance(request_, dict) else None)
    if schema_sees_it:
        assert problems(REQUEST, request_), f"the request schema accepts {json.dumps(request_)}"


@pytest.mark.parametrize("text", ["{oops", "", "[", '{"spell": {"mana_cost": "{1}"}, "id": 1,}'])
def test_text_that_is_not_json_gets_an_error_that_fits_the_schema(text):
    answer = manaplan.solve_text(text)
    assert_valid(RESPONSE, answer, "an error answer")
    assert answer["id"] is None and answer["error"]["at"].startswith("line ")


def test_the_response_schema_catches_a_renamed_or_stray_key():
    """The schema is closed where the answer is: a key renamed or added is caught."""
    answer = manaplan.solve({"id": 1, "spell": {"mana_cost": "{G}"}, "permanents": [FOREST]})
    assert_valid(RESPONSE, answer)
    renamed = json.loads(json.dumps(answer))
    renamed["plan"]["tapped_ids"] = renamed["plan"].pop("tapped")
    assert problems(RESPONSE, renamed)
    stray = json.loads(json.dumps(answer))
    stray["plan"]["steps"][0]["extra"] = 1
    assert problems(RESPONSE, stray)
    wrong_type = {**answer, "total_cost": 1}
    assert problems(RESPONSE, wrong_type)
