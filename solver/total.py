"""``total_cost``: the total cost of a spell (CR 601.2f) without paying it, with where each
part came from: what a game's interface shows beside a card in hand. It needs no solver:
the total is worked out by the rules of ``model.cost`` (its additional costs, increases,
reductions and floor applied as CR 118.7 says), for the spell's choices the request fixed
(a kicker paid or not, a number of kicks); one left open is listed as a part the player
may choose to pay.
"""

from __future__ import annotations

import itertools

from manaplan.model.cost import all_announcements, total_before_announcing, total_cost
from manaplan.model.mana import ManaCost
from manaplan.model.oracle import CHANGES_COSTS
from manaplan.model.plan import MOST_TOTALS, CostParts
from manaplan.model.problem import IF_POSSIBLE, MOST, PaymentProblem
from manaplan.model.symbols import GENERIC, Symbol


def total_cost_answer(problem: PaymentProblem, budget=None, plain_path: bool = True) -> CostParts:
    """The spell's total cost and its parts (the registry's answer for ``total_cost``);
    a spell with no mana cost has none (CR 202.1b: ``written`` None, no totals)."""
    spell = problem.spell
    fixed = spell.with_kicks(spell.kicked is True, spell.kicks if isinstance(spell.kicks, int) else 0)
    cost = fixed.cost
    mana_value = spell.mana_cost.mana_value if spell.mana_cost is not None else 0
    unread = _unread(problem)
    if cost.mana_cost is None:
        return CostParts(None, (), _parts(spell), mana_value, unread=unread)
    totals, seen = [], set()
    for announcement in itertools.islice(all_announcements(cost), MOST_TOTALS * 16):
        total = total_cost(cost, announcement)
        if total not in seen:
            seen.add(total)
            totals.append((total, announcement))
    cut = len(totals) > MOST_TOTALS
    return CostParts(total_before_announcing(cost), tuple(totals[:MOST_TOTALS]), _parts(spell), mana_value, cut, unread)


def _unread(problem: PaymentProblem) -> tuple:
    """The lines about the spell's cost that were not read, its own and the board's (and
    the opponents'), unless the spell said how its cost changes (model.oracle CHANGES_COSTS)."""
    spell = problem.spell
    out = tuple((spell.id or "spell", line) for line, _ in spell.cost_unread)
    if not spell.cost_changes_given:
        out += tuple((p.id, line) for p in tuple(problem.board.permanents) + tuple(problem.opponents or ())
                     for line, why in p.unread if why == CHANGES_COSTS)
    return out


def _parts(spell) -> tuple:
    """(what, its mana string or amount, optional[, the permanent and line it comes
    from]) for each part of the total, in the order CR 601.2f adds them: the mana cost (or
    the alternative cost paid instead, 118.9), X, additional costs (a kicker paid, each
    kick), increases, reductions (the request's, then the board's cost effects, each with
    its permanent), then the floor (the one that applies)."""
    cost = spell.cost
    parts: list[tuple] = []
    if spell.printed is not None:
        parts.append(("alternative_cost", str(cost.mana_cost), False))
    elif cost.mana_cost is not None:
        parts.append(("mana_cost", str(cost.mana_cost), False))
    if cost.x_count:
        parts.append(("x", str(ManaCost((Symbol(GENERIC, (), cost.x),) * cost.x_count)), False))
    parts += [("additional", str(a), False) for a in cost.additional]
    if spell.kicker is not None and spell.kicked is not False:
        parts.append(("kicker", str(spell.kicker), spell.kicked == IF_POSSIBLE))
    if spell.multikicker is not None and (spell.kicks == MOST or spell.kicks):
        many = spell.kicks if isinstance(spell.kicks, int) else 1
        parts.append(("multikicker", str(ManaCost(spell.multikicker.symbols * many)), spell.kicks == MOST))
    effects = spell.cost_effects  # the board's, added after the request's own (model.cost_effects)
    given = {what: len(getattr(cost, what)) - sum(1 for e in effects if e.what == what) for what in ("increase", "reduce")}
    for what in ("increase", "reduce"):
        parts += [(what, str(a), False) for a in getattr(cost, what)[:given[what]]]
        parts += [(what, str(e.amount), False, e.source, e.text) for e in effects if e.what == what]
    floors = [e for e in effects if e.what == "minimum"]
    parts += [("sacrifice", ", ".join(c.kinds), False, "", c.text) for c in spell.sacrifices]
    parts += [("discard", f"{c.count} {c.kind}", False, "", c.text) for c in spell.discards]
    if cost.minimum and not any(e.amount == cost.minimum for e in floors):
        parts.append(("minimum", cost.minimum, False))
    parts += [("minimum", e.amount, False, e.source, e.text) for e in floors if e.amount == cost.minimum][:1]
    return tuple(parts)
