"""Duel Masters requests and answers in the protocol's JSON shape (the game's profile is
``manaplan.profiles.duel_masters``).

``read`` checks a request and builds the problem value (``DMRequest``); ``write`` turns
an answer value (``DMPlan``, ``Unpayable``, ``Undecided``) into the protocol's answer,
without the request's ``id`` (the API adds it). ``read_plan`` reads a plan back from
JSON, so that hand-written plans can be judged by ``solver.checks.dm_validator``, and
``write_request`` is ``read``'s inverse.

Every bad input raises ``RequestError`` with ``at`` set to where it is
(``mana_zone[2].civilizations[0]``); nothing is guessed: unknown fields, a card without
civilizations, ``"Fire"`` instead of ``"fire"`` are errors. Defaults are the protocol's:
``mana_number`` 1 (``null`` = not printed = 0 points, seed 004), ``tapped`` false,
``cost_change`` 0.

>>> request = {"game": "duel-masters",
...     "card": {"name": "Faerie Life", "cost": 2, "civilizations": ["nature"]},
...     "mana_zone": [{"id": "f1", "civilizations": ["fire"]}, {"id": "f2", "civilizations": ["fire"]},
...                   {"id": "n1", "civilizations": ["nature"]}]}
>>> from manaplan.profiles.duel_masters import DuelMastersProfile
>>> profile = DuelMastersProfile()
>>> problem = profile.read(request)
>>> out = profile.write(problem, profile.answer(problem))
>>> out["payable"], out["plan"]["tapped"], out["plan"]["civilizations"], out["plan"]["excess"]
(True, ['n1', 'f1'], {'nature': 'n1'}, 0)
>>> read_plan(problem, out["plan"]) == profile.answer(problem)
True
"""

from __future__ import annotations

from typing import Any

from ..model.duel_masters import (
    PAYS_CIVILIZATION, PAYS_POINTS, UNPRINTED_MANA_NUMBER, Civilization, CivilizationShortfall,
    DMCard, DMPlan, DMRequest, DMStep, ManaCard, PointsShortfall, in_game_order,
)
from ..model.errors import RequestError
from ..model.symbols import MAX_AMOUNT
from ..model.plan import Undecided, Unpayable
from .common import (
    a_list, an_object, boolean, check_request_id, expect, join, no_unknown_fields, text,
    undecided_reason, whole_number,
)

GAME = "duel-masters"

_REQUEST_FIELDS = ("game", "query", "id", "card", "cost_change", "min_cost", "mana_zone", "time_limit_ms")
_CARD_FIELDS = ("name", "cost", "civilizations")
_MANA_CARD_FIELDS = ("id", "name", "civilizations", "mana_number", "tapped")
_PLAN_FIELDS = ("tapped", "civilizations", "points", "excess", "sacrificed", "life_paid", "steps")
_STEP_FIELDS = ("card", "civilization", "points", "pays")

#: Duel Masters numbers are bounded like Magic's amounts (MAX_AMOUNT, 1,000,000): far
#: beyond any game, and small enough that CP-SAT's 64-bit sums can't overflow (a cost
#: near 2^62 was an internal error)
_BOUND = MAX_AMOUNT


def _known(what: str, fields: tuple) -> str:
    return f"{what} (known: {', '.join(fields)})"


def _required(data: dict, key: str, what: str, at: str) -> Any:
    expect(key in data, f"{what} is missing", at)
    return data[key]


# --- reading a request ----------------------------------------------------------------

def _civilizations(value: Any, at: str) -> frozenset:
    a_list(value, "civilizations", at)
    seen: set = set()
    for i, name in enumerate(value):
        try:
            civilization = Civilization(name)  # raises, naming what is wrong
        except RequestError as error:
            raise error.located(join(at, i)) from None
        expect(civilization not in seen, f"civilization {name!r} is listed twice", join(at, i))
        seen.add(civilization)
    return frozenset(seen)


def _card(data: Any) -> DMCard:
    an_object(data, "card", "card")
    no_unknown_fields(data, _CARD_FIELDS, "card", _known("the card", _CARD_FIELDS))
    name = text(data, "name", "card.name", default="the card")
    _required(data, "cost", "card.cost", "card.cost")
    cost = whole_number(data, "cost", "card.cost", default=None, minimum=0, maximum=_BOUND)
    civilizations = _civilizations(
        _required(data, "civilizations", "card.civilizations (use [] for a colorless card)",
                  "card.civilizations"),
        "card.civilizations")
    return DMCard(name, cost, civilizations)


def _mana_card(data: Any, at: str) -> ManaCard:
    an_object(data, "a mana-zone card", at)
    no_unknown_fields(data, _MANA_CARD_FIELDS, at, _known("a mana-zone card", _MANA_CARD_FIELDS))
    card_id = _required(data, "id", "id", join(at, "id"))
    expect(isinstance(card_id, str) and card_id != "",
           f"id must be a non-empty string, not {card_id!r}", join(at, "id"))
    civilizations = _civilizations(_required(data, "civilizations", "civilizations", join(at, "civilizations")),
                                   join(at, "civilizations"))
    if "mana_number" in data and data["mana_number"] is None:  # not printed: 0 points (seed 004)
        mana_number = UNPRINTED_MANA_NUMBER
    else:
        mana_number = whole_number(data, "mana_number", join(at, "mana_number"), default=1, minimum=0,
                                   maximum=_BOUND)
    tapped = boolean(data, "tapped", join(at, "tapped"))
    name = data.get("name")
    if name is not None:
        text(data, "name", join(at, "name"))
    return ManaCard(card_id, civilizations, mana_number, tapped, name)


def read(request: Any) -> DMRequest:
    """Read and check a Duel Masters request (protocol shape) into its problem value."""
    an_object(request, "a request", None)
    no_unknown_fields(request, _REQUEST_FIELDS, "", _known("a Duel Masters request", _REQUEST_FIELDS))
    expect(request.get("game", GAME) == GAME,
           f"this is the Duel Masters profile; game must be {GAME!r}, not {request.get('game')!r}", "game")
    expect(request.get("query", "pay") == "pay",
           f"Duel Masters requests support the query 'pay' only, not {request.get('query')!r}", "query")
    check_request_id(request)
    card = _card(_required(request, "card", "card", "card"))
    cost_change = whole_number(request, "cost_change", "cost_change", default=0, minimum=-_BOUND,
                               maximum=_BOUND)
    min_cost = request.get("min_cost")
    if min_cost is not None:
        whole_number(request, "min_cost", "min_cost", minimum=0, maximum=_BOUND)
    zone = _required(request, "mana_zone", "mana_zone (use [] for an empty mana zone)", "mana_zone")
    a_list(zone, "mana_zone", "mana_zone")
    cards = tuple(_mana_card(entry, join("mana_zone", i)) for i, entry in enumerate(zone))
    return DMRequest(card, cards, cost_change, min_cost)  # duplicate ids: located by DMRequest


def write_request(problem: DMRequest) -> dict:
    """The problem in protocol shape (without an ``id``); ``read(write_request(p)) == p``."""
    out: dict = {"game": GAME,
                 "card": {"name": problem.card.name, "cost": problem.card.cost,
                          "civilizations": [str(c) for c in in_game_order(problem.card.civilizations)]},
                 "cost_change": problem.cost_change}
    if problem.min_cost is not None:
        out["min_cost"] = problem.min_cost
    zone = []
    for card in problem.mana_zone:
        entry = {"id": card.id, "civilizations": [str(c) for c in in_game_order(card.civilizations)],
                 "mana_number": card.mana_number, "tapped": card.tapped}
        if card.name is not None:
            entry["name"] = card.name
        zone.append(entry)
    out["mana_zone"] = zone
    return out


# --- writing an answer ----------------------------------------------------------------

def write_plan(plan: DMPlan) -> dict:
    """A plan in protocol shape: the summary (read off the steps), then the steps."""
    return {"tapped": list(plan.tapped),
            "civilizations": {str(civ): card for civ, card in plan.civilizations.items()},
            "points": plan.points,
            "excess": plan.excess,
            "sacrificed": [],
            "life_paid": 0,
            "steps": [{"card": step.card,
                       "civilization": None if step.civilization is None else str(step.civilization),
                       "points": step.points,
                       "pays": step.pays} for step in plan.steps]}


def _unpayable_reason(result: Unpayable) -> dict:
    reason: dict[str, object] = {"code": result.code, "message": result.message}
    certificate = result.certificate
    if isinstance(certificate, CivilizationShortfall):
        reason["civilizations"] = [str(c) for c in certificate.civilizations]
        reason["sources"] = list(certificate.sources)
    elif isinstance(certificate, PointsShortfall):
        reason["needed"] = certificate.needed
        reason["available"] = certificate.available
    return reason


def write(problem: DMRequest, result: Any) -> dict:
    """The answer in protocol shape (``payable``, ``total_cost``, ``plan``, ``reason``),
    without ``id``: ``payable`` is true with a plan, false with a reason and its
    certificate, null (code ``timeout``) when the time guard ran out."""
    out: dict = {"payable": False, "total_cost": problem.cost_to_pay, "plan": None, "reason": None}
    if isinstance(result, DMPlan):
        out["payable"] = True
        out["plan"] = write_plan(result)
    elif isinstance(result, Unpayable):
        out["reason"] = _unpayable_reason(result)
    elif isinstance(result, Undecided):
        out["payable"] = None
        out["reason"] = undecided_reason(result)
    else:
        raise TypeError(f"not a Duel Masters answer: {result!r}")
    return out


# --- reading a plan back --------------------------------------------------------------

def _step(data: Any, at: str) -> DMStep:
    an_object(data, "a step", at)
    no_unknown_fields(data, _STEP_FIELDS, at, _known("a step", _STEP_FIELDS))
    card = _required(data, "card", "card", join(at, "card"))
    expect(isinstance(card, str), f"card must be a mana-zone card's id, not {card!r}", join(at, "card"))
    made = data.get("civilization")
    try:
        civilization = None if made is None else Civilization(made)
    except RequestError as error:
        raise error.located(join(at, "civilization")) from None
    _required(data, "points", "points", join(at, "points"))
    points = whole_number(data, "points", join(at, "points"), default=None, minimum=0, maximum=_BOUND)
    pays = _required(data, "pays", "pays", join(at, "pays"))
    expect(pays in (PAYS_CIVILIZATION, PAYS_POINTS),
           f"pays must be {PAYS_CIVILIZATION!r} or {PAYS_POINTS!r}, not {pays!r}", join(at, "pays"))
    return DMStep(card, civilization, points, pays)


def read_plan(problem: DMRequest, data: Any) -> DMPlan:
    """A plan in protocol shape (as ``write`` gives it, or written by hand) as a value
    for ``problem``, to be judged by ``solver.checks.dm_validator.validate``.

    Only the shape is checked here, and that the summary agrees with the steps (the
    summary is read off the steps in a ``DMPlan``, so a contradiction must be caught
    now): ``tapped`` lists the cards the steps tap, ``civilizations`` who paid each,
    ``points`` their points, ``excess`` (if given) the points beyond the cost to pay,
    and ``sacrificed``/``life_paid`` (if given) are empty and 0. Whether the plan keeps
    the rules is the validator's question.
    """
    an_object(data, "a plan", None)
    no_unknown_fields(data, _PLAN_FIELDS, "", _known("a plan", _PLAN_FIELDS))
    steps = a_list(_required(data, "steps", "steps", "steps"), "steps", "steps")
    plan = DMPlan(tuple(_step(step, join("steps", n)) for n, step in enumerate(steps)), problem.cost_to_pay)
    tapped = _required(data, "tapped", "tapped", "tapped")
    expect(isinstance(tapped, list) and sorted(map(str, tapped)) == sorted(plan.tapped)
           and len(tapped) == len(plan.tapped),
           f"tapped {tapped!r} does not list the cards the steps tap {list(plan.tapped)!r}", "tapped")
    civilizations = {str(civ): card for civ, card in plan.civilizations.items()}
    expect(_required(data, "civilizations", "civilizations", "civilizations") == civilizations,
           f"civilizations {data['civilizations']!r} disagree with the steps {civilizations!r}", "civilizations")
    expect(_required(data, "points", "points", "points") == plan.points,
           f"points {data['points']!r}; the steps give {plan.points}", "points")
    expect(data.get("excess", plan.excess) == plan.excess,
           f"excess {data.get('excess')!r}; the steps give {plan.excess} beyond the cost to pay "
           f"{problem.cost_to_pay}", "excess")
    expect(data.get("sacrificed", []) == [], "Duel Masters payments sacrifice nothing", "sacrificed")
    expect(data.get("life_paid", 0) == 0, "Duel Masters payments pay no life", "life_paid")
    return plan


# --- the profile ----------------------------------------------------------------------
