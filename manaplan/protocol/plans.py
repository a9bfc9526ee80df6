"""Reading a plan another engine wrote (the ``check`` query's ``plan``), and writing the
referee's answer (docs/protocol.md, "check").

A plan is read in the shape manaplan's own answers have (so a ``pay`` answer's plan is
checked as it is), of which only ``steps`` (permanent, adds) and ``payment`` are needed;
every error is located (``plan.steps[2].adds``). ``null`` is the claim that the spell
can't be paid.

>>> plan = read_written_plan({"steps": [{"permanent": "f", "adds": "{G}"}],
...                           "payment": [{"symbol": "{G}", "mana": "G", "from": "f"}]})
>>> plan.steps[0].permanent, plan.payment[0].source
('f', 'f')
"""

from __future__ import annotations

from ..model.deadline import time_is_up
from ..model.errors import ReadingTimeout
from .reading_time import EVERY

from ..model.errors import ManaplanError, RequestError
from ..model.mana import parse_mana
from ..model.plan import CONVOKE, DELVE, IMPROVISE, PaymentLine, TriggeredMana
from ..model.symbols import MANA_TYPES, MAX_AMOUNT, Symbol
from ..model.written_plan import CANT_PAY, WrittenPlan, WrittenStep
from .common import a_list, an_object, expect, is_whole_number, join, no_unknown_fields

#: a step's fields: what the referee reads, then what manaplan's own answers write besides
#: (compared with what the step does where the referee can tell: life, damage, energy, giver)
STEP_FIELDS = ("permanent", "ability", "adds", "payment", "triggered", "sacrifices", "taps", "before_casting",
               "life", "damage", "energy", "given_by", "cost", "pays")
#: a plan's fields, the same way: ``optimal``, ``lethal``, ``exiled``, ``cast_with`` and
#: ``better_before_casting`` are manaplan's own remarks, not part of what was done
PLAN_FIELDS = ("steps", "payment", "announced", "reduction_halves", "total_cost", "tapped", "sacrificed", "life_paid",
               "floating", "x", "kicked", "kicks", "sacrificed_for_cost", "discarded_for_cost", "optimal", "lethal",
               "exiled", "cast_with", "better_before_casting")
LINE_FIELDS = ("symbol", "mana", "from", "life", "as")
KEYWORD_STEPS = (CONVOKE, IMPROVISE, DELVE)


def _count(value) -> bool:
    """A whole number from 0 to the largest amount manaplan reads."""
    return is_whole_number(value) and 0 <= value <= MAX_AMOUNT


def read_written_plan(data, at: str = "plan"):
    """A :class:`~manaplan.model.written_plan.WrittenPlan`, or
    :data:`~manaplan.model.written_plan.CANT_PAY` for ``null``."""
    if data is None:
        return CANT_PAY
    plan = an_object(data, "'plan' (steps and payment, or null for \"can't be paid\")", at)
    no_unknown_fields(plan, PLAN_FIELDS, at, "a plan")
    expect("steps" in plan and "payment" in plan, "a plan needs 'steps' and 'payment' (each may be empty)", at)
    listed = a_list(plan["steps"], "'steps'", join(at, "steps"))
    steps = tuple(_step(s, join(join(at, "steps"), i)) for i, s in _looking_at_the_clock(listed, "steps"))
    payment = _lines(_looked_through(plan["payment"], "payment lines"), join(at, "payment"))
    return WrittenPlan(
        steps, payment,
        announced=_halves(plan, "announced", at), reduction_halves=_halves(plan, "reduction_halves", at),
        total_cost=_optional_text(plan, "total_cost", at),
        tapped=_ids(plan, "tapped", at), sacrificed=_ids(plan, "sacrificed", at),
        life_paid=_optional_number(plan, "life_paid", at),
        floating=_types(plan["floating"], join(at, "floating")) if plan.get("floating") is not None else None,
        x=_optional_number(plan, "x", at),
        kicked=_optional_bool(plan, "kicked", at), kicks=_optional_number(plan, "kicks", at),
        sacrificed_for_cost=_ids(plan, "sacrificed_for_cost", at) or (),
        discarded_for_cost=_ids(plan, "discarded_for_cost", at) or ())


def _looking_at_the_clock(items: list, what: str):
    """(index, item) of ``items``, the request's time guard looked at every
    :data:`~manaplan.protocol.reading_time.EVERY` items (a plan of many steps is read
    within its limit; the timeout says what was being read)."""
    for i, item in enumerate(items):
        if i % EVERY == EVERY - 1 and time_is_up():
            raise ReadingTimeout(0, f"the plan's {len(items):,} {what}")
        yield i, item


def _looked_through(items, what: str):
    """``items`` (a list), looked through with the clock (:func:`_looking_at_the_clock`)."""
    if isinstance(items, list) and len(items) >= EVERY:
        for _ in _looking_at_the_clock(items, what):
            pass
    return items


def _step(data, at: str) -> WrittenStep:
    step = an_object(data, "a step ({\"permanent\", \"adds\", ...})", at)
    no_unknown_fields(step, STEP_FIELDS, at, "a step")
    expect(isinstance(step.get("permanent"), str) and step["permanent"] != "",
           "a step needs a 'permanent' (an id)", join(at, "permanent"))
    ability = step.get("ability")
    expect(ability is None or _count(ability) or ability in KEYWORD_STEPS,
           f"'ability' must be an index of the permanent's abilities, or one of {', '.join(KEYWORD_STEPS)}",
           join(at, "ability"))
    expect("adds" in step, "a step needs 'adds': the mana it added (a mana string, \"\" for none)", join(at, "adds"))
    other = [k for k in ("sacrifices", "taps") if k in step]
    expect(len(other) <= 1, "a step names one permanent its cost sacrifices or taps, not both", at)
    if other:
        expect(isinstance(step[other[0]], str) and step[other[0]] != "",
               f"'{other[0]}' names the permanent the ability's cost {other[0].rstrip('s')}s (an id)",
               join(at, other[0]))
    triggered = None if step.get("triggered") is None else tuple(
        _triggered(t, join(join(at, "triggered"), i)) for i, t in enumerate(a_list(
            step["triggered"], "'triggered'", join(at, "triggered"))))
    given_by = step.get("given_by")
    expect(given_by is None or isinstance(given_by, str), "'given_by' must be an id", join(at, "given_by"))
    return WrittenStep(step["permanent"], ability, _types(step["adds"], join(at, "adds")),
                       _lines(step.get("payment", []), join(at, "payment")), triggered,
                       step[other[0]] if other else "", other[0] if other else "",
                       _optional_bool(step, "before_casting", at),
                       _optional_number(step, "life", at), _optional_number(step, "damage", at),
                       _optional_number(step, "energy", at), given_by)


def _triggered(data, at: str) -> TriggeredMana:
    item = an_object(data, "a triggered mana ability ({\"permanent\", \"trigger\", \"adds\"})", at)
    no_unknown_fields(item, ("permanent", "trigger", "adds"), at, "a triggered mana ability")
    expect(isinstance(item.get("permanent"), str), "'permanent' must be an id", join(at, "permanent"))
    expect(_count(item.get("trigger")), "'trigger' must be the index of the trigger", join(at, "trigger"))
    return TriggeredMana(item["permanent"], item["trigger"], _types(item.get("adds"), join(at, "adds")))


def _lines(data, at: str) -> tuple:
    return tuple(_line(x, join(at, i)) for i, x in enumerate(a_list(data, "'payment'", at)))


def _line(data, at: str) -> PaymentLine:
    """``{"symbol", "mana", "from"}`` (one mana: its type and the permanent it came
    from, or "pool"), or ``{"symbol", "life"}``; ``as``: the half of a symbol with a
    choice it pays."""
    line = an_object(data, "a payment line ({\"symbol\", \"mana\", \"from\"} or {\"symbol\", \"life\"})", at)
    no_unknown_fields(line, LINE_FIELDS, at, "a payment line")
    symbol = _symbol(line.get("symbol"), join(at, "symbol"))
    half = line.get("as", "")
    expect(isinstance(half, str), "'as' must be the half paid (a color, \"generic\" or \"life\")", join(at, "as"))
    if "life" in line:
        expect(_count(line["life"]) and line["life"] > 0, "'life' must be a whole number above 0",
               join(at, "life"))
        expect("mana" not in line and "from" not in line, "a line pays mana or life, not both", at)
        return PaymentLine(symbol, life=line["life"], half=half)
    mana = line.get("mana")
    if isinstance(mana, str) and mana.startswith("{") and mana.endswith("}"):
        mana = mana[1:-1]
    expect(mana in MANA_TYPES, "'mana' must be one mana type: W, U, B, R, G or C", join(at, "mana"))
    assert mana is not None  # (one of MANA_TYPES: expect raised otherwise)
    expect(isinstance(line.get("from"), str) and line["from"] != "",
           "'from' must name the permanent the mana came from (or \"pool\")", join(at, "from"))
    return PaymentLine(symbol, mana, line["from"], half=half)


def _symbol(value, at: str) -> Symbol:
    expect(isinstance(value, str), "'symbol' must be one mana symbol, such as \"{G/W}\"", at)
    try:
        return Symbol.parse(value)
    except (ManaplanError, ValueError) as e:
        raise RequestError(f"{value!r} is not a mana symbol: {e}", at) from None


def _types(value, at: str) -> tuple:
    """A mana string of added mana (``{R}{G}``, ``""``) as its types."""
    expect(isinstance(value, str), "mana must be a mana string such as \"{R}{G}\" (\"\" for none)", at)
    try:
        return tuple(m.type for m in parse_mana(value))
    except (ManaplanError, ValueError) as e:
        raise RequestError(f"{value!r} is not mana: {e}", at) from None


def _halves(plan: dict, key: str, at: str):
    if plan.get(key) is None:
        return None
    where = join(at, key)
    out = []
    for i, item in enumerate(a_list(plan[key], f"'{key}'", where)):
        item = an_object(item, "an announcement ({\"symbol\", \"as\"})", join(where, i))
        no_unknown_fields(item, ("symbol", "as"), join(where, i), "an announcement")
        expect(isinstance(item.get("as"), str), "'as' must be the half announced", join(join(where, i), "as"))
        out.append((_symbol(item.get("symbol"), join(join(where, i), "symbol")), item["as"]))
    return tuple(out)


def _ids(plan: dict, key: str, at: str):
    if plan.get(key) is None:
        return None
    value = plan[key]
    expect(isinstance(value, list) and all(isinstance(v, str) for v in value), f"'{key}' must be a list of ids",
           join(at, key))
    return tuple(value)


def _optional_number(obj: dict, key: str, at: str):
    if obj.get(key) is None:
        return None
    expect(_count(obj[key]), f"'{key}' must be a whole number, 0 or more", join(at, key))
    return obj[key]


def _optional_bool(obj: dict, key: str, at: str):
    if obj.get(key) is None:
        return None
    expect(isinstance(obj[key], bool), f"'{key}' must be true or false", join(at, key))
    return obj[key]


def _optional_text(obj: dict, key: str, at: str):
    if obj.get(key) is None:
        return None
    expect(isinstance(obj[key], str), f"'{key}' must be text", join(at, key))
    return obj[key]


def write_check(problem, checked) -> dict:
    """The ``check`` answer (without the request's ``id``): the verdict, whether the
    spell can be paid, the plan's first violation with its rule, its objective beside the
    optimum, whether it is lethal, the differences in words, manaplan's better plan or
    counter-example, and the reason there is no payment (docs/protocol.md, "check")."""
    from .common import undecided_reason
    from .plan_writing import write_plan, write_reason
    from ..model.plan import Undecided, Unpayable
    from ..solver.referee import Checked, undecided
    if not isinstance(checked, Checked):  # (the time guard ran out before any judging)
        checked = undecided(checked)
    out = {"verdict": checked.verdict, "legal": checked.legal, "payable": checked.payable}
    v = checked.violation
    if v is not None:
        where = f"step {v.step + 1}" if v.step is not None else v.message.split(":", 1)[0]
        out["violation"] = {"at": where, "rule": v.rule, "message": v.message}
        if v.step is not None:
            out["violation"]["step"] = v.step + 1
    if checked.terms is not None:
        out["objective"] = checked.terms
        out["lethal"] = checked.lethal
    if checked.optimum is not None:
        out["optimum"] = checked.optimum
        out["optimum_proven"] = checked.proven
        out["differences"] = list(checked.differences)
    if checked.better is not None:
        out["better_plan"] = write_plan(checked.better, problem.player.life)
        out["better_total_cost"] = str(checked.better.total_cost)
    if isinstance(checked.truth, Unpayable):
        out["reason"] = write_reason(checked.truth)
    elif isinstance(checked.truth, Undecided):
        out["reason"] = undecided_reason(checked.truth)
    return out
