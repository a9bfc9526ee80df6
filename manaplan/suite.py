"""The conformance suite: boards of real cards, each with its exact answer, for another
engine's tests (docs/suite.md); and the score of that engine's answers.

``make_suite`` draws cases reproducibly from a seed: a real spell (every symbol kind: plain,
hybrid, twobrid, Phyrexian, ``{C}``, ``{S}``, X; convoke, improvise, delve; additional costs
that sacrifice), a board of up to eight real mana permanents (lands of every cycle, filter
lands and Signets whose abilities cost mana, pain lands, Treasures, mana creatures, storage
lands, doublers), some tapped or summoning sick, a life total down to 1. Each case carries
manaplan's answer to ``pay``: payable or not, the total cost, the optimum's terms under the
default objective, one optimal plan. A case manaplan can't settle exactly (its time guard,
card text it doesn't read) is drawn again: every answer in the suite is exact.

``score_answers`` judges an engine's answers with the ``check`` query (solver.referee):
right and wrong yes and no, illegal plans with the rule they break, plans worse than the
optimum and by how much.

>>> cases = make_suite(3, seed=1)
>>> [c["case"] for c in cases], cases[0]["suite"]
(['s1-0001', 's1-0002', 's1-0003'], 'manaplan-conformance/1')
>>> answers = [{"case": c["case"], "payable": c["expected"]["payable"], "plan": c["expected"].get("plan")}
...            for c in cases]
>>> score_answers(cases, answers)["counts"]["optimal"] + score_answers(cases, answers)["counts"]["right no"]
3
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter

from .card_files import card_objects
from .scryfall import card_fields
from .files import capped_lines
from .model.errors import RequestError

#: the format's name and version, in every case (docs/suite.md)
SUITE_FORMAT = "manaplan-conformance/1"
#: the most permanents of a case: the reference search's limit, so that every case can be
#: held to it (tests/test_suite.py)
MOST_PERMANENTS = 8
#: how often a case is drawn again before the suite gives up on one seed's draw
MOST_DRAWS = 50
LIVES = (20, 20, 20, 20, 20, 10, 7, 5, 4, 3, 2, 1)
#: vanilla creatures and artifacts, for convoke, improvise and sacrifices (real cards)
BODIES = (
    {"name": "Grizzly Bears", "mana_cost": "{1}{G}", "type_line": "Creature — Bear", "oracle_text": ""},
    {"name": "Savannah Lions", "mana_cost": "{W}", "type_line": "Creature — Cat", "oracle_text": ""},
    {"name": "Memnite", "mana_cost": "{0}", "type_line": "Artifact Creature — Construct", "oracle_text": ""},
    {"name": "Ornithopter", "mana_cost": "{0}", "type_line": "Artifact Creature — Thopter", "oracle_text": "Flying"},
)
#: the verdicts of ``check`` as the score counts them, in the table's order
ROWS = ("optimal", "suboptimal", "illegal plan", "wrong yes", "right no", "wrong no", "right yes, no plan",
        "not decided", "no answer")


def suite_cards(path: str | None = None) -> dict:
    """The card pool: ``{"permanents": [...], "spells": [...]}``. The shipped one
    (manaplan/suite_cards.json), or one read from a Scryfall file (a JSON list of card
    objects): permanents whose text adds mana, and spells with a mana cost."""
    if path is None:
        with open(os.path.join(os.path.dirname(__file__), "suite_cards.json"), encoding="utf-8") as f:
            pool = json.load(f)
        return {"permanents": pool["permanents"], "spells": pool["spells"]}
    permanents, spells = [], []
    # (a bulk file, a list, a list object, each line capped; tokens kept: a Treasure is a mana permanent)
    for card in card_objects(path, "cards", left_out=("art_series",)):
        if not isinstance(card.get("type_line"), str) or "card_faces" in card:
            continue
        fields = {k: v for k, v in card_fields(card, "cards").items() if k != "colors"}
        if "Add " in str(card.get("oracle_text", "")) and any(
                t in card["type_line"] for t in ("Land", "Artifact", "Creature")):
            permanents.append({**fields, "family": "scryfall"})
        if "Land" not in card["type_line"] and card.get("mana_cost"):
            spells.append({**fields, "family": "scryfall"})
    if not permanents or not spells:
        raise RequestError(f"{path}: the suite needs permanents that add mana and spells with a mana cost", "cards")
    return {"permanents": permanents, "spells": spells}


def make_suite(cases: int, seed: int = 0, cards: dict | None = None, progress=None) -> list:
    """``cases`` cases drawn from ``seed`` (the same seed and cards, the same suite), each
    with manaplan's exact answer; ``progress(n)`` is called after each."""
    pool = cards or suite_cards()
    rng = random.Random(seed)
    out = []
    for i in range(1, cases + 1):
        for _ in range(MOST_DRAWS):
            request, kinds = _drawn_request(rng, pool)
            expected = exact_answer(request)
            if expected is not None:
                break
        else:
            raise RuntimeError(f"no case with an exact answer in {MOST_DRAWS} draws: the cards may be ones whose text "
                               f"manaplan doesn't read whole (docs/protocol.md, card text)")
        out.append({"suite": SUITE_FORMAT, "case": f"s{seed}-{i:04d}", "kinds": kinds, "request": request,
                    "expected": expected})
        if progress is not None:
            progress(1)
    return out


def _drawn_request(rng: random.Random, pool: dict) -> tuple:
    """A ``pay`` request of real cards, and the kinds it tests (docs/suite.md)."""
    spell = dict(rng.choice(pool["spells"]))
    family = spell.pop("family", "")
    kinds = {family} if family else set()
    board = [dict(rng.choice(pool["permanents"])) for _ in range(rng.randint(1, MOST_PERMANENTS))]
    text = spell.get("oracle_text", "").lower()
    if ("convoke" in text or "improvise" in text or "sacrifice a" in text) and rng.random() < 0.7:
        board[rng.randrange(len(board))] = dict(rng.choice(BODIES))
    permanents = []
    for i, card in enumerate(board, 1):
        kinds.add(card.pop("family", "") or "vanilla")
        card = {"id": f"p{i}", **card}
        if rng.random() < 0.1:
            card["tapped"] = True
        if "Creature" in card["type_line"] and rng.random() < 0.25:
            card["summoning_sick"] = True
        if "storage counter" in card.get("oracle_text", ""):
            card["counters"] = {"storage": rng.randint(0, 2)}
        permanents.append(card)
    life = rng.choice(LIVES)
    player: dict[str, int | str] = {"life": life}
    if life <= 3:
        kinds.add("life at the edge")
    if "delve" in text:
        player["graveyard"] = rng.randint(0, 7)
    if rng.random() < 0.08:
        player["pool"] = "{%s}" % rng.choice("WUBRGC")
        kinds.add("floating mana")
    if "{X}" in spell.get("mana_cost", ""):
        spell["x"] = rng.randint(0, 3)
    for symbol, kind in (("/P}", "phyrexian"), ("{2/", "twobrid"), ("{C}", "colorless"), ("{S}", "snow"),
                         ("{X}", "x")):
        if symbol in spell.get("mana_cost", ""):
            kinds.add(kind)
    return {"spell": spell, "player": player, "permanents": permanents}, sorted(k for k in kinds if k)


def exact_answer(request: dict) -> dict | None:
    """manaplan's answer to ``pay`` for ``request`` as a suite case holds it (payable,
    total cost, the optimum's terms, one optimal plan; or why it can't be paid), or None
    where it is not exact (undecided, or not proven optimal)."""
    from .model.plan import Plan, Unpayable
    from .model.problem import PAY
    from .protocol.mtg import read, write_plan, write_reason
    from .queries import answer
    from .solver.one_spell import plan_terms
    problem = read(request)
    result = answer(problem)
    if isinstance(result, Unpayable):
        return {"payable": False, "reason": write_reason(result)}
    if not isinstance(result, Plan) or not result.optimal:
        return None
    terms = plan_terms(problem.for_spell(problem.spell, PAY), result)
    return {"payable": True, "total_cost": str(result.total_cost), "objective": terms,
            "plan": write_plan(result, problem.player.life)}


# -- scoring -------------------------------------------------------------------------------

def read_jsonl(path: str, what: str) -> list:
    """The JSON objects of a JSONL file, one per line (blank lines skipped); a line that
    is not an object is an error naming it, as is a line longer than
    :data:`~manaplan.files.MAX_LINE_BYTES` (never read whole: /dev/zero is refused)."""
    out = []
    for n, raw in capped_lines(path, what):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise RequestError(f"{path}, line {n}: not UTF-8 text", what) from None
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as e:
            raise RequestError(f"{path}, line {n}: not JSON ({e})", what) from None
        if not isinstance(item, dict):
            raise RequestError(f"{path}, line {n}: each line must be a JSON object", what)
        out.append(item)
    return out


def check_cases(cases: list, where: str = "the suite") -> None:
    """Each case has what the score reads (``case``, ``request``, ``expected``); an error
    naming the first that doesn't (the answers file given in the suite's place)."""
    for n, case in enumerate(cases, 1):
        missing = [k for k in ("case", "request", "expected") if k not in case]
        if missing or not isinstance(case.get("request"), dict) or not isinstance(case.get("expected"), dict):
            raise RequestError(f"{where}, case {n}: not a suite case (it needs 'case', 'request' and 'expected'; "
                               f"missing {', '.join(missing) or 'nothing, but they are not objects'})", "suite")


def score_answers(cases: list, answers: list, time_limit_ms: int = 10_000, progress=None,
                  where: str = "the suite") -> dict:
    """The score of ``answers`` (``{"case", "payable", "plan"}`` each) on ``cases`` (read
    from ``where``, for the error a case not in the suite's format gets): each judged by
    ``check``; counts by verdict, the excess of suboptimal plans term by term, the wrong
    answers by kind, and each case's verdict."""
    from .api import solve
    check_cases(cases, where)
    by_case, duplicates, unknown = {}, [], []
    known = {case["case"] for case in cases}
    for a in answers:
        if isinstance(a.get("case"), str):
            if a["case"] not in known:
                unknown.append(a["case"])  # (reported: an answer to no case of the suite)
            elif a["case"] in by_case:
                duplicates.append(a["case"])  # (reported: the first answer of a case is the one scored)
            else:
                by_case[a["case"]] = a
    counts: Counter[str] = Counter()
    excess: Counter[str] = Counter()
    by_kind: dict[str, Counter[str]] = {}
    results = []
    for case in cases:
        given = by_case.get(case["case"])
        row, out = _judged(case, given, time_limit_ms, solve)
        counts[row] += 1
        for kind in case.get("kinds", []):
            by_kind.setdefault(kind, Counter())[row] += 1
        entry = {"case": case["case"], "verdict": row}
        if out is not None:
            if "violation" in out:
                entry["violation"] = out["violation"]
            if out.get("differences"):
                entry["differences"] = out["differences"]
                for term, value in out["objective"].items():
                    excess[term] += max(0, value - out["optimum"][term])
            if out.get("lethal"):
                entry["lethal"] = True
                counts["lethal plans"] += 1
        results.append(entry)
        if progress is not None:
            progress(1)
    return {"suite": SUITE_FORMAT, "cases": len(cases), "counts": {r: counts[r] for r in ROWS + ("lethal plans",)},
            "excess": dict(excess), "by_kind": {k: dict(v) for k, v in sorted(by_kind.items())}, "results": results,
            # (answers not scored, each reported: a case answered again, a case the suite doesn't have)
            "duplicate_answers": duplicates, "unknown_cases": unknown}


def _judged(case: dict, given, time_limit_ms: int, solve) -> tuple:
    """(the row of the table, the check answer or None) for one case. Fields of the
    answer's plan that the protocol doesn't know are dropped first (an engine may say
    more than a plan); a plan not in the protocol's shape is an illegal plan, or a wrong
    yes where the spell can't be paid."""
    if given is None or "error" in given or not isinstance(given.get("payable"), bool):
        return "no answer", None
    request = {**case["request"], "query": "check", "time_limit_ms": time_limit_ms}
    if given["payable"] and given.get("plan") is None:
        return ("right yes, no plan" if case["expected"]["payable"] else "wrong yes"), None
    out = solve({**request, "plan": known_fields(given.get("plan")) if given["payable"] else None})
    if "error" in out:
        at = out["error"].get("at") or ""
        if not at.startswith("plan"):  # (the case itself, or the scorer's own request, is at fault)
            raise RequestError(f"case {case['case']}: {out['error']['message']} (at {at or 'the request'})", "suite")
        out = {"verdict": "illegal", "payable": case["expected"]["payable"],
               "violation": {"at": at, "rule": "", "message": f"not a plan: {out['error']['message']}"}}
    verdict = out.get("verdict", "unknown")
    if verdict == "illegal" and out.get("payable") is False:
        return "wrong yes", out
    return {"optimal": "optimal", "suboptimal": "suboptimal", "illegal": "illegal plan", "right_no": "right no",
            "wrong_no": "wrong no"}.get(verdict, "not decided"), out


def known_fields(plan):
    """An answer's plan with only the fields a ``check`` plan has (protocol.plans): the
    rest dropped, at every level; anything not shaped as a plan is left as it is, for
    ``check`` to locate."""
    from .protocol.plans import LINE_FIELDS, PLAN_FIELDS, STEP_FIELDS
    if not isinstance(plan, dict):
        return plan
    lines = lambda items: [{k: v for k, v in x.items() if k in LINE_FIELDS} if isinstance(x, dict) else x
                           for x in items] if isinstance(items, list) else items
    out = {k: v for k, v in plan.items() if k in PLAN_FIELDS}
    if isinstance(out.get("steps"), list):
        out["steps"] = [{k: (lines(v) if k == "payment" else v) for k, v in step.items() if k in STEP_FIELDS}
                        if isinstance(step, dict) else step for step in out["steps"]]
    if "payment" in out:
        out["payment"] = lines(out["payment"])
    return out


def score_table(score: dict, engine: str = "the engine") -> str:
    """The score as a Markdown table, then the excess of suboptimal plans and the kinds
    with wrong answers."""
    n = score["cases"] or 1
    lines = [f"| {engine} | cases | share |", "|---|---:|---:|"]
    for row, count in score["counts"].items():
        lines.append(f"| {row} | {count:,} | {100 * count / n:.1f}% |")
    ex = score["excess"]
    if ex:
        words = {"tapped": "permanents tapped", "life": "life", "floating": "mana left floating",
                 "sacrificed": "permanents sacrificed", "exiled": "cards exiled", "flexibility": "flexibility",
                 "before_casting": "abilities before casting", "spared": "kept permanents used"}
        lines.append("")
        lines.append("Suboptimal plans, beyond the optimum in all: " + ", ".join(
            f"{value:,} {words.get(term, term)}" for term, value in ex.items() if value) + ".")
    wrong = {k: sum(v.get(r, 0) for r in ("illegal plan", "wrong yes", "wrong no")) for k, v in score["by_kind"].items()}
    worst = sorted(((w, k) for k, w in wrong.items() if w), reverse=True)[:8]
    if worst:
        lines.append("")
        lines.append("Wrong answers (illegal plans, wrong yes, wrong no) by kind of case: " + ", ".join(
            f"{k} {w}" for w, k in worst) + ".")
    for key, described in (("duplicate_answers", "answers to a case answered before (the first one scored)"),
                           ("unknown_cases", "answers to cases the suite doesn't have (not scored)")):
        found = score.get(key) or []
        if found:
            shown = ", ".join(found[:5]) + (f" and {len(found) - 5:,} more" if len(found) > 5 else "")
            lines += ["", f"{len(found):,} {described}: {shown}."]
    return "\n".join(lines)
