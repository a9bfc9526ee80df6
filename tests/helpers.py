"""Shared helpers: solve a request and check every plan with the validator."""

from manaplan.model.request import parse_request
from manaplan.solver.planner import answer
from manaplan.solver.proof import check_certificate
from manaplan.solver.checks.validator import validate_plan


def land(pid, add, **kw):
    return {"id": pid, "abilities": [{"cost": "{T}", "add": add}], **kw}


def pay(spell, permanents, **request):
    """Answer a request; every plan is replayed by the validator and every proof checked."""
    if isinstance(spell, str):
        spell = {"mana_cost": spell}
    req = {"spell": spell, "permanents": permanents, **request}
    problem = parse_request(req)
    out = answer(problem)
    if out["payable"]:
        assert validate_plan(problem, out) == [], out
    elif out["payable"] is False:
        assert check_certificate(problem, out["reason"]) in (True, None), out["reason"]
    return out
