"""Shared helpers: solve a request, check every plan with the validator and every proof
with its checker, and give the answer in the protocol's shape."""

from manaplan.model.plan import Plan, Unpayable
from manaplan.protocol.mtg import read, write
from manaplan.queries import answer
from manaplan.solver.proof import check_certificate
from manaplan.solver.checks.validator import validate_plan


def land(pid, add, **kw):
    return {"id": pid, "abilities": [{"cost": "{T}", "add": add}], **kw}


def checked(problem, result):
    """``result`` after the validator (a plan) or the certificate checker (a proof)."""
    if isinstance(result, Plan):
        assert validate_plan(problem, result) == [], result
    elif isinstance(result, Unpayable):
        assert check_certificate(problem, result) in (True, None), result
    return result


def pay(spell, permanents, **request):
    """Answer a request as the protocol writes it; every plan is replayed by the
    validator and every proof checked."""
    if isinstance(spell, str):
        spell = {"mana_cost": spell}
    problem = read({"spell": spell, "permanents": permanents, **request})
    return write(problem, checked(problem, answer(problem)))
