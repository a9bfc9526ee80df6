"""The JSON protocol through the CLI: the acceptance cases, bad input, serve, demo,
``--explain``, the version query."""

import json
import os
import subprocess
import sys

import pytest

import manaplan

HERE = os.path.dirname(os.path.abspath(__file__))
#: the acceptance cases the tests rely on live here; ../shared/cases, where a checkout
#: has it beside it, only adds more (CI also runs ../shared/tools/check_cases.py)
CASE_FOLDERS = [os.path.join(HERE, "cases"), os.path.join(HERE, "..", "..", "shared", "cases")]


def manaplan_cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "manaplan", *args], input=stdin, capture_output=True,
                          text=True, timeout=120, cwd=HERE)


def load_cases(folders=CASE_FOLDERS):
    cases = {}
    for folder in folders:
        if os.path.isdir(folder):
            for name in sorted(os.listdir(folder)):
                if name.endswith(".jsonl"):
                    with open(os.path.join(folder, name)) as f:
                        for line in f:
                            if line.strip() and not line.startswith("#"):
                                case = json.loads(line)
                                cases.setdefault(case["name"], case)
    return list(cases.values())


CASES = load_cases()


def test_the_cases_live_in_the_repository():
    """A clone without ../shared still runs every acceptance case."""
    assert len(load_cases(CASE_FOLDERS[:1])) >= 15


def test_every_case_passes_through_serve():
    """Every acceptance case, answered by ``manaplan serve`` and judged like check_cases.py."""
    text = "".join(json.dumps(c["request"]) + "\n" for c in CASES)
    out = manaplan_cli("serve", stdin=text)
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
    (json.dumps({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "graveyard:1"}]}), "reserved", "permanents[0].id"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "pool"}]}), "reserved", "permanents[0].id"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "query": "everything"}), "unknown query", "query"),
    (json.dumps({"spell": {"mana_cost": "{1}"}, "permanents": [{"id": "g", "type_line": "Land",
      "oracle_text": "All Mountains are Plains."}]}), "cannot read", "permanents[0].oracle_text"),
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
    out = manaplan_cli("solve", stdin=text)
    assert out.returncode == 2
    assert "Traceback" not in out.stdout + out.stderr
    response = json.loads(out.stdout)
    assert message in response["error"]["message"]
    assert response["error"]["at"] == at


def test_serve_answers_in_order_and_goes_on_after_an_error():
    lines = [json.dumps({"id": 1, "spell": {"mana_cost": "{G}"}, "permanents": [{"id": "f", "type_line": "Basic Land — Forest"}]}),
             "{oops",
             json.dumps({"id": 3, "spell": {"mana_cost": "{U}"}, "permanents": []})]
    out = manaplan_cli("serve", stdin="\n".join(lines) + "\n")
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert [a.get("id") for a in answers] == [1, None, 3]
    assert answers[0]["payable"] is True and "error" in answers[1] and answers[2]["payable"] is False


def test_solve_reads_a_file(tmp_path):
    path = tmp_path / "req.json"
    path.write_text(json.dumps({"id": "x", "spell": {"mana_cost": "{0}"}}))
    out = manaplan_cli("solve", str(path))
    assert out.returncode == 0 and json.loads(out.stdout)["payable"] is True


def test_demo_prints_a_plan_a_player_can_follow():
    out = manaplan_cli("demo")
    assert out.returncode == 0
    assert "Tidehollow Strix: pay {U}{B}" in out.stdout
    assert "tap Dimir Signet: {1}, {T}, paying R from Mountain -> add {U}{B}" in out.stdout


def test_a_permanent_named_like_a_cost_word_is_read_right():
    """The name stands for "this" only in 'Sacrifice NAME' and 'Remove ... from NAME'."""
    request = {"spell": {"mana_cost": "{1}"}, "permanents": [
        {"id": "t", "name": "T", "abilities": [{"cost": "{T}", "add": "{C}"}]},
        {"id": "a", "name": "a", "abilities": [{"cost": "{T}, Pay 1 life", "add": "{C}"}]}]}
    out = manaplan_cli("solve", stdin=json.dumps(request))
    assert out.returncode == 0 and json.loads(out.stdout)["payable"] is True


def test_duel_masters_through_the_cli():
    """Seed 004's example: two fire cards and a nature card pay Faerie Life (nature, 2)
    with the nature card and one fire card; a bad civilization is an error with exit 2."""
    request = {"game": "duel-masters", "id": "dm", "card": {"name": "Faerie Life", "cost": 2, "civilizations": ["nature"]},
               "mana_zone": [{"id": "f1", "civilizations": ["fire"]}, {"id": "f2", "civilizations": ["fire"]},
                             {"id": "n1", "civilizations": ["nature"]}]}
    out = manaplan_cli("solve", stdin=json.dumps(request))
    answer = json.loads(out.stdout)
    assert out.returncode == 0 and answer["id"] == "dm"
    assert sorted(answer["plan"]["tapped"]) in (["f1", "n1"], ["f2", "n1"])
    assert answer["plan"]["civilizations"] == {"nature": "n1"}
    request["mana_zone"][0]["civilizations"] = ["red"]
    out = manaplan_cli("solve", stdin=json.dumps(request))
    assert out.returncode == 2 and json.loads(out.stdout)["error"]["at"] == "mana_zone[0].civilizations[0]"


def test_a_reader_that_stops_early_gets_no_traceback():
    proc = subprocess.Popen([sys.executable, "-m", "manaplan", "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()  # like `manaplan serve | head -0`
    _, err = proc.communicate('{"spell": {"mana_cost": "{0}"}}\n' * 2000, timeout=120)
    assert "Traceback" not in err and proc.returncode == 0


def test_solve_explain_prints_the_plan_with_card_names_x_reductions_and_the_pool():
    request = {"spell": {"name": "Fireball", "mana_cost": "{X}{R}", "x": 2, "reduce": ["{1}"]},
               "player": {"pool": "{G}"},
               "permanents": [{"id": "m1", "name": "Mountain", "type_line": "Basic Land — Mountain"},
                              {"id": "m2", "name": "Mountain", "type_line": "Basic Land — Mountain"},
                              {"id": "cc", "name": "Sol Ring", "type_line": "Artifact",
                               "oracle_text": "{T}: Add {C}{C}."}]}
    out = manaplan_cli("solve", "--explain", stdin=json.dumps(request))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "Fireball: pay {1}{R} (mana cost {X}{R} with X=2; reduced by {1})"
    assert "{1} paid with G from your mana pool" in out.stdout
    assert "tap Mountain (m1): {T} -> add {R}" in out.stdout
    unpayable = dict(request, spell={"name": "Fireball", "mana_cost": "{U}"})
    out = manaplan_cli("solve", "--explain", stdin=json.dumps(unpayable))
    assert out.returncode == 0
    assert out.stdout.startswith("Fireball: can't be paid: needs 1 blue mana")
    out = manaplan_cli("solve", "--explain", stdin='{"spell": {"mana_cost": "{Q/W}"}}')
    assert out.returncode == 2 and out.stderr.startswith("error (at spell.mana_cost): unknown mana symbol")
    assert out.stdout == ""  # Under --explain an error is words on standard error


def test_the_way_in_rough_edges():
    """Empty input is named as such; an unpayable answer in words calls permanents by
    name; a summoning-sick mana creature is named as the reason; `deck` alone names its
    commands; every option of `deck analyze` shows its default."""
    out = manaplan_cli("solve", stdin="")
    assert out.returncode == 2 and "standard input is empty" in json.loads(out.stdout)["error"]["message"]
    out = manaplan_cli("solve", "--explain", stdin=" \n")
    assert out.returncode == 2 and out.stderr.startswith("error: no request") and out.stdout == ""
    pool = {"spell": {"mana_cost": "{G}{W}{U}"},
            "permanents": [{"id": "bpool", "name": "Breeding Pool", "type_line": "Land — Forest Island"},
                           {"id": "p", "name": "Plains", "type_line": "Basic Land — Plains"}]}
    out = manaplan_cli("solve", "--explain", stdin=json.dumps(pool))
    assert out.stdout.strip().endswith("can make blue or green: Breeding Pool")
    assert json.loads(manaplan_cli("solve", stdin=json.dumps(pool)).stdout)["reason"]["sources"] == ["bpool"]
    birds = {"spell": {"mana_cost": "{G}"},
             "permanents": [{"id": "bop", "name": "Birds of Paradise", "type_line": "Creature — Bird",
                             "oracle_text": "Flying\n{T}: Add one mana of any color.", "summoning_sick": True}]}
    reason = json.loads(manaplan_cli("solve", stdin=json.dumps(birds)).stdout)["reason"]
    assert reason["sources"] == [] and "bop can't tap for it yet: summoning sick, CR 302.6" in reason["message"]
    assert "Birds of Paradise can't tap" in manaplan_cli("solve", "--explain", stdin=json.dumps(birds)).stdout
    sequence = {"query": "sequence", "permanents": [{"id": "m", "name": "Mountain", "type_line": "Basic Land — Mountain"}],
                "spells": [{"id": "b1", "name": "Lightning Bolt", "mana_cost": "{R}"},
                           {"id": "b2", "name": "Shock", "mana_cost": "{R}"}]}
    words = manaplan_cli("solve", "--explain", stdin=json.dumps(sequence)).stdout
    assert words.strip() == "the sequence: can't be paid: Shock can't be paid after Lightning Bolt"
    out = manaplan_cli("deck")
    assert out.returncode == 2 and "{analyze,lands,sources}" in out.stderr
    helped = manaplan_cli("deck", "analyze", "--help").stdout.split("options:", 1)[1]
    for option, default in [("--games", "10000"), ("--turns", "8"), ("--seed", "0"), ("--on", "play")]:
        assert f"(default: {default})" in helped.split("\n  " + option, 1)[1].split("\n  --", 1)[0], option
    for command in ("solve", "serve", "demo", "deck", "deck sources", "deck lands"):
        assert len(manaplan_cli(*command.split(), "--help").stdout.split("\n\n")[1]) > 20, command  # a description


def test_explain_a_duel_masters_answer():
    request = {"game": "duel-masters", "card": {"name": "Faerie Life", "cost": 2, "civilizations": ["nature"]},
               "mana_zone": [{"id": "f1", "name": "Bolshack Dragon", "civilizations": ["fire"]},
                             {"id": "n1", "civilizations": ["nature"]}]}
    out = manaplan_cli("solve", "--explain", stdin=json.dumps(request))
    assert out.returncode == 0
    assert out.stdout.splitlines() == ["Faerie Life: pay 2 points", "  1. tap n1: 1 point of nature, pays nature",
                                       "  2. tap Bolshack Dragon (f1): 1 point of fire, for points",
                                       "  tapped: 2 cards, 2 points"]


def test_serve_says_which_version_it_is():
    out = manaplan_cli("serve", stdin=json.dumps({"id": 7, "query": "version"}) + "\n")
    answer = json.loads(out.stdout)
    assert answer == {"id": 7, "version": manaplan.__version__, "protocol": manaplan.PROTOCOL_VERSION,
                      "games": {"mtg": ["pay", "max_x", "can_pay", "castable", "sequence", "best_turn", "total_cost", "check", "drop_board"],
                                "duel-masters": ["pay"]}}


def test_every_unknown_field_is_named_at_once_with_a_suggestion():
    from manaplan.api import solve
    out = solve({"spell": {"mana_cost": "{G}"},
                 "permanents": [{"id": "f", "type_line": "Basic Land — Forest", "tapd": True, "colour": ["G"],
                                 "zzz": 1}]})
    message = out["error"]["message"]
    assert "'tapd' (did you mean 'tapped'?)" in message and "'colour' (did you mean 'colors'?)" in message
    assert "'zzz'" in message and "'zzz' (" not in message
    assert out["error"]["at"] == "permanents[0].tapd"


def test_a_body_read_before_is_found_only_when_it_is_the_same_value():
    """Permanents read before are found by their fields written as JSON, and then must be
    equal as values too: a tuple (Python callers) is no list, even where the JSON is the
    same, and is refused each time."""
    from manaplan import solve
    as_list = {"id": "b", "abilities": [{"cost": "{T}", "add": "{G}"}]}
    as_tuple = {"id": "a", "abilities": ({"cost": "{T}", "add": "{G}"},)}
    assert solve({"spell": {"mana_cost": "{G}"}, "permanents": [as_list]})["payable"] is True
    out = solve({"spell": {"mana_cost": "{G}"}, "permanents": [as_tuple]})
    assert out["error"]["at"] == "permanents[0].abilities"
