"""The conformance suite (manaplan suite make | score, docs/suite.md).

Its answers agree with the reference search on every case (at most eight permanents,
the reference's limit); the same seed makes the same suite; its cases are in the
documented format, readable with no manaplan; the score judges each answer by ``check``
(manaplan's own answers all optimal or right, the greedy example's mistakes found), and
the command line reads hostile files without a traceback.
"""

import json
import os
import subprocess
import sys

import pytest

from manaplan.model.errors import SearchTooLarge
from manaplan.protocol.mtg import read as read_request
from manaplan.solver.checks.reference import reference_optimum
from manaplan.suite import MOST_PERMANENTS, SUITE_FORMAT, make_suite, score_answers

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CASES = make_suite(120, seed=3)


def test_every_answer_of_the_suite_agrees_with_the_reference_search():
    checked = 0
    for case in CASES:
        assert len(case["request"]["permanents"]) <= MOST_PERMANENTS
        problem = read_request(case["request"])
        try:
            best = reference_optimum(problem, 200_000)
        except SearchTooLarge:
            continue
        expected = case["expected"]
        if best is None:
            assert expected["payable"] is False, case
        else:
            assert expected["payable"] is True, case
            assert problem.prefer.rank(tuple(expected["objective"].values())) == best, case
        checked += 1
    assert checked >= 100


def test_the_same_seed_makes_the_same_suite_and_another_seed_another():
    assert make_suite(20, seed=3) == CASES[:20]
    assert make_suite(20, seed=4) != CASES[:20]


def test_a_case_is_in_the_documented_format():
    for case in CASES:
        assert case["suite"] == SUITE_FORMAT
        assert set(case) == {"suite", "case", "kinds", "request", "expected"}
        assert set(case["request"]) <= {"spell", "player", "permanents"}
        expected = case["expected"]
        if expected["payable"]:
            assert set(expected) == {"payable", "total_cost", "objective", "plan"}
        else:
            assert set(expected) == {"payable", "reason"}
    kinds = {k for case in CASES for k in case["kinds"]}
    assert {"hybrid", "twobrid", "phyrexian", "x", "additional_cost", "convoke_improvise_delve",
            "filter lands (Shadowmoor/Eventide)", "life at the edge"} <= kinds


def test_manaplans_own_answers_score_all_optimal_or_right():
    answers = [{"case": c["case"], "payable": c["expected"]["payable"], "plan": c["expected"].get("plan")}
               for c in CASES]
    score = score_answers(CASES, answers)
    assert score["counts"]["optimal"] + score["counts"]["right no"] == len(CASES)


def test_the_greedy_example_engine_is_scored_and_its_mistakes_found(tmp_path):
    suite = tmp_path / "suite.jsonl"
    suite.write_text("".join(json.dumps(c) + "\n" for c in CASES))
    answers = tmp_path / "answers.jsonl"
    subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "greedy_engine.py"), str(suite), str(answers)],
                   check=True, timeout=120)
    score = score_answers(CASES, [json.loads(line) for line in answers.read_text().splitlines()])
    counts = score["counts"]
    assert sum(counts[r] for r in ("optimal", "suboptimal", "illegal plan", "wrong yes", "right no", "wrong no")) \
        == len(CASES)
    assert counts["wrong no"] > 0 and counts["optimal"] > 0  # (no convoke, no filter lands: it misses some)
    for result in score["results"]:
        if result["verdict"] in ("illegal plan", "wrong yes"):
            assert result["violation"]["rule"], result


def test_wrong_answers_are_counted_as_what_they_are():
    payable = next(c for c in CASES if c["expected"]["payable"])
    unpayable = next(c for c in CASES if not c["expected"]["payable"])
    answers = [{"case": payable["case"], "payable": False},
               {"case": unpayable["case"], "payable": True, "plan": {"steps": [], "payment": []}}]
    score = score_answers([payable, unpayable], answers)
    assert [r["verdict"] for r in score["results"]] == ["wrong no", "wrong yes"]
    score = score_answers([payable], [{"case": payable["case"], "payable": True, "plan": {"steps": 3}}])
    assert score["results"][0]["verdict"] == "illegal plan"  # not a plan: an error located in it
    assert score_answers([payable], [{"case": payable["case"], "error": "boom"}])["counts"]["no answer"] == 1


def test_the_command_line_makes_and_scores_and_refuses_bad_files(tmp_path):
    suite, answers = tmp_path / "s.jsonl", tmp_path / "a.jsonl"
    run = lambda *args: subprocess.run([sys.executable, "-m", "manaplan", "suite", *args], capture_output=True,
                                       text=True, timeout=300)
    made = run("make", "--cases", "5", "--seed", "3", "--out", str(suite), "--quiet")
    assert made.returncode == 0, made.stderr
    assert [json.loads(line) for line in suite.read_text().splitlines()] == CASES[:5]
    answers.write_text("".join(json.dumps({"case": c["case"], "payable": c["expected"]["payable"],
                                           "plan": c["expected"].get("plan")}) + "\n" for c in CASES[:5]))
    scored = run("score", str(suite), str(answers), "--quiet", "--json", str(tmp_path / "score.json"))
    assert scored.returncode == 0, scored.stderr
    assert "| optimal |" in scored.stdout and json.loads((tmp_path / "score.json").read_text())["cases"] == 5
    answers.write_text("{not json\n")
    bad = run("score", str(suite), str(answers), "--quiet")
    assert bad.returncode == 2 and "line 1: not JSON" in bad.stderr and "Traceback" not in bad.stderr
    bad = run("make", "--cases", "0")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    bad = run("score", str(tmp_path / "missing.jsonl"), str(answers), "--quiet")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


@pytest.mark.parametrize("content", ["{}", "[1, 2]", '[{"name": "Forest"}]'])
def test_a_scryfall_file_without_what_the_suite_needs_is_an_error(tmp_path, content):
    path = tmp_path / "cards.json"
    path.write_text(content)
    out = subprocess.run([sys.executable, "-m", "manaplan", "suite", "make", "--cases", "1", "--cards", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "Traceback" not in out.stderr


def test_the_case_in_the_docs_is_the_one_the_suite_makes():
    with open(os.path.join(ROOT, "docs", "suite.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("One JSON object per line:\n\n```json\n") + len("One JSON object per line:\n\n```json\n")
    shown = json.loads(text[start:text.index("```", start)])
    assert shown == make_suite(206, seed=0)[-1]


def test_the_score_drops_fields_a_plan_doesnt_have_and_blames_only_the_plan(tmp_path):
    payable = [c for c in CASES if c["expected"]["payable"]][:5]
    answers = [{"case": c["case"], "payable": True, "note": "mine",
                "plan": {**c["expected"]["plan"], "engine_note": 1,
                         "steps": [{**s, "why": "cheapest"} for s in c["expected"]["plan"]["steps"]]}}
               for c in payable]
    assert score_answers(payable, answers)["counts"]["optimal"] == 5
    with pytest.raises(ValueError):  # a case the scorer itself can't ask about is no fault of the engine's
        score_answers([{**payable[0], "request": {**payable[0]["request"], "surprise": 1}}], answers)
    unpayable = next(c for c in CASES if not c["expected"]["payable"])
    score = score_answers([unpayable], [{"case": unpayable["case"], "payable": True, "plan": {"steps": 3}}])
    assert score["results"][0]["verdict"] == "wrong yes"


def test_the_command_line_refuses_what_it_cant_read_with_a_message(tmp_path):
    run = lambda *args: subprocess.run([sys.executable, "-m", "manaplan", "suite", *args], capture_output=True,
                                       text=True, timeout=300)
    suite, answers = tmp_path / "s.jsonl", tmp_path / "a.jsonl"
    suite.write_text("".join(json.dumps(c) + "\n" for c in CASES[:3]))
    answers.write_text("".join(json.dumps({"case": c["case"], "payable": False}) + "\n" for c in CASES[:3]))
    (tmp_path / "bad.json").write_text("[{")
    (tmp_path / "latin.jsonl").write_bytes(b'{"case": "\xe9"}\n')
    for args in (("score", str(answers), str(suite)),  # the files swapped
                 ("score", str(tmp_path / "latin.jsonl"), str(answers)),
                 ("make", "--cases", "1", "--cards", str(tmp_path / "bad.json")),
                 ("score", str(suite), str(answers), "--time-limit-ms", "0")):
        out = run(*args)
        assert out.returncode == 2 and "Traceback" not in out.stderr, (args, out.stderr)


def test_a_suite_of_a_scryfall_files_cards(tmp_path):
    cards = [{"object": "card", "name": "Forest", "mana_cost": "", "type_line": "Basic Land — Forest",
              "oracle_text": "({T}: Add {G}.)", "layout": "normal"},
             {"object": "card", "name": "Llanowar Elves", "mana_cost": "{G}", "type_line": "Creature — Elf Druid",
              "oracle_text": "{T}: Add {G}.", "layout": "normal"},
             {"object": "card", "name": "Kitchen Finks", "mana_cost": "{1}{G/W}{G/W}", "type_line": "Creature — Ouphe",
              "oracle_text": "When this creature enters, you gain 2 life.\nPersist", "layout": "normal"},
             {"object": "card", "name": "Delver of Secrets // Insectile Aberration", "layout": "transform",
              "card_faces": [{"name": "Delver of Secrets"}]}]
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(cards))
    out = subprocess.run([sys.executable, "-m", "manaplan", "suite", "make", "--cases", "6", "--seed", "2", "--cards",
                          str(path), "--quiet"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    cases = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(cases) == 6
    names = {p["name"] for c in cases for p in c["request"]["permanents"]}
    assert names <= {"Forest", "Llanowar Elves"} and {c["request"]["spell"]["name"] for c in cases} <= {
        "Llanowar Elves", "Kitchen Finks"}


def test_suite_files_are_written_whole_never_through_a_link_and_read_with_lines_capped(tmp_path, monkeypatch):
    """``suite make --out`` on a full disk left a truncated file where a good one
    was, and wrote through a symbolic link; ``suite score`` read a line of any length."""
    from manaplan import files

    target = tmp_path / "elsewhere.txt"
    target.write_text("not to be touched\n")
    link = tmp_path / "suite.jsonl"
    link.symlink_to(target)
    run = subprocess.run([sys.executable, "-m", "manaplan", "suite", "make", "--cases", "3", "--out", str(link),
                          "--quiet"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert target.read_text() == "not to be touched\n" and not link.is_symlink()
    assert len(link.read_text().splitlines()) == 3
    good = link.read_text()

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", full_disk)
    with pytest.raises(OSError):
        files.write_whole(str(link), "half a suite")
    assert link.read_text() == good and not [p for p in os.listdir(tmp_path) if p.startswith(".manaplan-")]
    monkeypatch.undo()
    long_line = tmp_path / "long.jsonl"
    long_line.write_text("{" + " " * 100 + "}\n")
    with pytest.raises(Exception, match="longer than 50 bytes"):
        list(files.capped_lines(str(long_line), "answers", limit=50))
    run = subprocess.run([sys.executable, "-m", "manaplan", "suite", "score", str(link), "/dev/zero", "--quiet"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "longer than" in run.stderr


def test_duplicate_answers_and_answers_to_no_case_are_reported():
    cases = make_suite(2, seed=5)
    answer = {"case": cases[0]["case"], "payable": cases[0]["expected"]["payable"],
              "plan": cases[0]["expected"].get("plan")}
    score = score_answers(cases, [answer, answer, {"case": "s9-9999", "payable": False, "plan": None}])
    assert score["duplicate_answers"] == [cases[0]["case"]] and score["unknown_cases"] == ["s9-9999"]
    from manaplan.suite import score_table
    table = score_table(score)
    assert "answered before" in table and "s9-9999" in table
