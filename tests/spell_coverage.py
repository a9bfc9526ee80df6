"""The spell corpus (tests/fixtures/spell_cards.json) read by manaplan, case by case: read
(the total, the additional costs, the keywords and the other ways to cast it as a careful
reader gets them), refused (an honest "not known": a line listed unread, the answer null)
or misread (anything else). ``python tests/spell_coverage.py`` prints the table the
README quotes; tests/test_spell_corpus.py holds the count of misread cases at 0.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "fixtures", "spell_cards.json")

READ, REFUSED, MISREAD = "read", "refused", "misread"


def load() -> list:
    with open(FIXTURE, encoding="utf-8") as f:
        return json.load(f)["cards"]


def _kind(word: str) -> str:
    word = word.strip().lower()
    return word[:-1] if word.endswith("s") and word != "plains" else word


def _request(card: dict, case: dict) -> dict:
    spell = dict(case.get("spell") or card["card"])
    if "x" in case:
        spell["x"] = case["x"]
    request = {"spell": spell, "permanents": case.get("board", [])}
    if "opponents" in case:
        request["opponents"] = case["opponents"]
    if case.get("hand"):
        request["hand"] = [dict(h, id=h.get("id", f"h{i}")) for i, h in enumerate(case["hand"])]
    if "graveyard" in case:
        request["player"] = {"graveyard": case["graveyard"]}
    return request


def classify(card: dict, case: dict) -> tuple:
    """(READ, REFUSED or MISREAD, what was seen) for one case."""
    from manaplan import solve
    from manaplan.model.land_types import ORDER_UNKNOWN
    from manaplan.model.oracle import CHANGES_COSTS
    from manaplan.protocol.mtg import read
    from manaplan.solver.total import total_cost_answer

    expect = case["expect"]
    request = _request(card, case)
    if "pays" in expect:
        seen = {}
        for cost, want in expect["pays"].items():
            got = solve({**request, "spell": {"mana_cost": cost}}).get("payable")
            seen[cost] = got
            if got is None:
                continue
            if got != want:
                return MISREAD, f"{cost}: {got}, not {want}"
        return (REFUSED if None in seen.values() else READ), json.dumps(seen)
    try:
        problem = read({**request, "query": "total_cost"})
    except Exception as e:  # noqa: BLE001 (an error is a refusal, said in words)
        return REFUSED, f"error: {e}"
    spell = problem.spell
    unknown = [line for line, _ in spell.cost_unread]
    unknown += [line for p in tuple(problem.board.permanents) + tuple(problem.opponents or ())
                for line, why in p.unread if why == CHANGES_COSTS]
    total = total_cost_answer(problem).written
    if "unknown" in expect and card["family"] == "land_type_changer":  # (the order of two effects: CR 613.7)
        order = [line for p in problem.board.permanents for line, why in p.unread if why == ORDER_UNKNOWN]
        return (REFUSED, "; ".join(order)) if order else (MISREAD, f"lands read as certain, but {expect['unknown']}")
    if "unknown" in expect:
        return (REFUSED, "; ".join(unknown)) if unknown else (MISREAD, f"read as {total}, but {expect['unknown']}")
    if unknown:
        return REFUSED, "; ".join(unknown)
    if "total" in expect and total != expect["total"]:
        if (spell.alternatives or spell.alternative_costs) and any(a.get("cost") == total for a in expect.get("alternative", [])):
            pass
        else:
            return MISREAD, f"total {total}, not {expect['total']}"
    wanted = sorted(_kind(k) for kinds in expect.get("sacrifice", []) for k in kinds.split(" or "))
    got = sorted(_kind(k) for cost in spell.sacrifices for k in cost.kinds)
    if wanted != got and not (wanted and len(wanted) == 1 and set(got) >= set(wanted)):
        return MISREAD, f"sacrifices {got}, not {wanted}"
    discards = sum(c.count for c in spell.discards)
    if expect.get("discard", 0) != discards:
        return MISREAD, f"discards {discards}, not {expect.get('discard', 0)}"
    if "discard_what" in expect and any(c.kind != expect["discard_what"] for c in spell.discards):
        return MISREAD, f"discards {[c.kind for c in spell.discards]}, not {expect['discard_what']}"
    for other in ("life", "exile_from_graveyard", "tap_untapped", "one_of"):
        if other in expect:
            return MISREAD, f"its {other.replace('_', ' ')} cost was neither read nor listed"
    flags = {k for k in ("convoke", "improvise", "delve") if getattr(spell, k)}
    if set(expect.get("keywords", [])) != flags:
        return MISREAD, f"keywords {sorted(flags)}, not {expect.get('keywords', [])}"
    if expect.get("alternative") and not (spell.alternatives or spell.alternative_costs):
        return MISREAD, "another way to cast it was not seen"
    return READ, total or ""


def table(cards: list | None = None) -> tuple:
    """(rows per family: read, refused, misread cards; every refused or misread case)."""
    cards = cards or load()
    per_family: dict = {}
    details = []
    for card in cards:
        results = [classify(card, case) for case in card["cases"]]
        worst = MISREAD if any(r == MISREAD for r, _ in results) else REFUSED if any(
            r == REFUSED for r, _ in results) else READ
        per_family.setdefault(card["family"], Counter())[worst] += 1
        details += [(card["name"], r, why) for r, why in results if r != READ]
    return per_family, details


def markdown(per_family: dict) -> str:
    lines = ["| family | cards | read | refused (an honest null, its line named) | misread |", "|---|---|---|---|---|"]
    total = Counter()
    for family, c in sorted(per_family.items()):
        n = sum(c.values())
        total.update(c)
        lines.append(f"| {family} | {n} | {c[READ]} | {c[REFUSED]} | {c[MISREAD]} |")
    lines.append(f"| all | {sum(total.values())} | {total[READ]} | {total[REFUSED]} | {total[MISREAD]} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(HERE))
    per_family, details = table()
    print(markdown(per_family))
    print()
    for name, result, why in details:
        print(f"- {name}: {result}: {why}")
