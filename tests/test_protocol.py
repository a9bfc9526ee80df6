"""The JSON protocol through the CLI: the shared acceptance cases, bad input, serve, demo."""

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED_CASES = os.path.join(HERE, "..", "..", "shared", "cases")
CHECK_CASES = os.path.join(HERE, "..", "..", "shared", "tools", "check_cases.py")


def manaplan(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "manaplan.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=120, cwd=os.path.join(HERE, ".."))


def load_cases():
    cases = []
    if os.path.isdir(SHARED_CASES):
        for name in sorted(os.listdir(SHARED_CASES)):
            if name.endswith(".jsonl"):
                with open(os.path.join(SHARED_CASES, name)) as f:
                    cases += [json.loads(line) for line in f if line.strip() and not line.startswith("#")]
    return cases


CASES = load_cases()


@pytest.mark.skipif(not CASES, reason="../shared/cases is not beside this checkout")
def test_every_shared_case_passes_through_serve():
    """Every acceptance case, answered by ``manaplan serve`` and judged like check_cases.py."""
    text = "".join(json.dumps(c["request"]) + "\n" for c in CASES)
    out = manaplan("serve", stdin=text)
    assert out.returncode == 0, out.stderr
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == len(CASES)
    for case, a in zip(CASES, answers):
        e = case["expect"]
        if e.get("error"):
            assert "error" in a, case["name"]
            continue
        assert a.get("payable") == e["payable"], (case["name"], a)
        plan = a.get("plan") or {}
        got = {"tapped_count": len(plan.get("tapped", [])), "sacrificed_count": len(plan.get("sacrificed", [])),
               "life_paid": plan.get("life_paid", 0), "x": a.get("x")}
        for key, value in got.items():
            if key in e:
                assert value == e[key], (case["name"], key, a)
        assert not set(e.get("untapped", [])) & set(plan.get("tapped", [])), case["name"]
        assert not set(e.get("must_tap", [])) - set(plan.get("tapped", [])), case["name"]


@pytest.mark.skipif(not os.path.exists(CHECK_CASES), reason="../shared/tools is not beside this checkout")
def test_the_shared_checker_passes():
    out = subprocess.run([sys.executable, CHECK_CASES], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]})
    assert out.returncode == 0, out.stdout + out.stderr


BAD = [
    ("{not json", "bad JSON", "line 1 column 2"),
    (json.dumps({"spell": {"mana_cost": "{Q/W}"}}), "unknown mana symbol {Q/W}", "spell.mana_cost"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "player": {"life": -1}}), "'life' must be 0 or more", "player.life"),
    (json.dumps({"spell": {"mana_cost": "{X}", "x": -2}}), "'x' must be 0 or more", "spell.x"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "permanents": [{"name": "Forest"}]}), "needs an 'id'", "permanents[0].id"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a"}, {"id": "b"}, {"id": "c"},
      {"id": "d", "abilities": [{"cost": "{T}, Discard a card", "add": "{R}"}]}]}),
     "cannot read the cost part 'Discard a card'", "permanents[3].abilities[0].cost"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "abilities": [{"cost": "{T}", "add": "{2}"}]}]}),
     "not a type of mana", "permanents[0].abilities[0].add"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a"}, {"id": "a"}]}), "duplicate", "permanents[1].id"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "query": "everything"}), "unknown query", "query"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "g", "type_line": "Land",
      "oracle_text": "{T}: Add {G} for each Elf on the battlefield."}]}), "cannot read", "permanents[0].oracle_text"),
    (json.dumps([1, 2]), "must be a JSON object", ""),
    (json.dumps({"spell": {"mana_cost": "{1}", "colour": "red"}}), "unknown field 'colour'", "spell.colour"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "abilities": [{"cost": "{X}, {T}", "add": "{C}"}]}]}),
     "X in an ability's cost", "permanents[0].abilities[0].cost"),
    (json.dumps({"spell": {"mana_cost": "{²}"}}), "unknown mana symbol", "spell.mana_cost"),
    (json.dumps({"spell": {"mana_cost": "{99999999999999999999999}"}}), "too large", "spell.mana_cost"),
    (json.dumps({"spell": {"mana_cost": "{X}", "x": 10 ** 8}}), "at most", "spell.x"),
    (json.dumps({"spell": {"mana_cost": "{W/P}"}, "player": {"life": 10 ** 23}}), "at most", "player.life"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "abilities": [{"cost": "{T}", "add": {"any": 10 ** 11}}]}]}),
     "N <=", "permanents[0].abilities[0].add"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "abilities": [{"cost": "{T}", "add": {"any": True}}]}]}),
     "must be", "permanents[0].abilities[0].add"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "abilities": [{"cost": "{Q}", "add": "{C}"}]}]}),
     "{Q}", "permanents[0].abilities[0].cost"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "abilities": [{"cost": "{T}", "add": "{C}", "restrict": "blah spells"}]}]}),
     "unknown word 'blah'", "permanents[0].abilities[0].restrict"),
    (json.dumps({"spell": {"mana_cost": "  "}}), "blank", "spell.mana_cost"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "objective": "fast"}), "unknown field 'objective'", "objective"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "a", "colors": ["W"], "mana_cost": "{Q}"}]}),
     "unknown mana symbol", "permanents[0].mana_cost"),
]


@pytest.mark.parametrize("text,message,at", BAD)
def test_bad_input_gets_a_clear_error_and_exit_2(text, message, at):
    out = manaplan("solve", stdin=text)
    assert out.returncode == 2
    assert "Traceback" not in out.stdout + out.stderr
    response = json.loads(out.stdout)
    assert message in response["error"]["message"]
    assert response["error"]["at"] == at


def test_serve_answers_in_order_and_goes_on_after_an_error():
    lines = [json.dumps({"id": 1, "spell": {"mana_cost": "{G}"}, "permanents": [{"id": "f", "type_line": "Basic Land — Forest"}]}),
             "{oops",
             json.dumps({"id": 3, "spell": {"mana_cost": "{U}"}, "permanents": []})]
    out = manaplan("serve", stdin="\n".join(lines) + "\n")
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert [a.get("id") for a in answers] == [1, None, 3]
    assert answers[0]["payable"] is True and "error" in answers[1] and answers[2]["payable"] is False


def test_solve_reads_a_file(tmp_path):
    path = tmp_path / "req.json"
    path.write_text(json.dumps({"id": "x", "spell": {"mana_cost": "{0}"}}))
    out = manaplan("solve", str(path))
    assert out.returncode == 0 and json.loads(out.stdout)["payable"] is True


def test_demo_prints_a_plan_a_player_can_follow():
    out = manaplan("demo")
    assert out.returncode == 0
    assert "Tidehollow Strix: pay {U}{B}" in out.stdout
    assert "signet" in out.stdout


def test_a_permanent_named_like_a_cost_word_is_read_right():
    """The name stands for "this" only in 'Sacrifice NAME' and 'Remove ... from NAME'."""
    request = {"spell": {"mana_cost": "{1}"}, "permanents": [
        {"id": "t", "name": "T", "abilities": [{"cost": "{T}", "add": "{C}"}]},
        {"id": "a", "name": "a", "abilities": [{"cost": "{T}, Pay 1 life", "add": "{C}"}]}]}
    out = manaplan("solve", stdin=json.dumps(request))
    assert out.returncode == 0 and json.loads(out.stdout)["payable"] is True


def test_duel_masters_through_the_cli():
    """Seed 004's example: two fire cards and a nature card pay Faerie Life (nature, 2)
    with the nature card and one fire card; a bad civilization is an error with exit 2."""
    request = {"game": "duel-masters", "id": "dm", "card": {"name": "Faerie Life", "cost": 2, "civilizations": ["nature"]},
               "mana_zone": [{"id": "f1", "civilizations": ["fire"]}, {"id": "f2", "civilizations": ["fire"]},
                             {"id": "n1", "civilizations": ["nature"]}]}
    out = manaplan("solve", stdin=json.dumps(request))
    answer = json.loads(out.stdout)
    assert out.returncode == 0 and answer["id"] == "dm"
    assert sorted(answer["plan"]["tapped"]) in (["f1", "n1"], ["f2", "n1"])
    assert answer["plan"]["civilizations"] == {"nature": "n1"}
    request["mana_zone"][0]["civilizations"] = ["red"]
    out = manaplan("solve", stdin=json.dumps(request))
    assert out.returncode == 2 and json.loads(out.stdout)["error"]["at"] == "mana_zone[0].civilizations[0]"


def test_a_reader_that_stops_early_gets_no_traceback():
    proc = subprocess.Popen([sys.executable, "-m", "manaplan.cli", "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()  # like `manaplan serve | head -0`
    _, err = proc.communicate('{"spell": {"mana_cost": "{0}"}}\n' * 2000, timeout=120)
    assert "Traceback" not in err and proc.returncode == 0
