"""Answers in words: the plan a player follows at the table, or why there is none.

``manaplan solve --explain`` and ``manaplan demo`` print these. Permanents are named by
their card names (with the id where two share a name), the total cost says how it was
reached (X, additional costs, increases, reductions, the floor), and each payment line
says where its mana came from, the floating pool included.

>>> from manaplan.protocol.mtg import read
>>> from manaplan.queries import answer
>>> problem = read({"spell": {"name": "Grizzly Bears", "mana_cost": "{1}{G}"}, "player": {"pool": "{R}"},
...                 "permanents": [{"id": "f1", "name": "Forest", "type_line": "Basic Land — Forest"}]})
>>> print(payment(problem, answer(problem)))
Grizzly Bears: pay {1}{G}
  1. tap Forest: {T} -> add {G}
     {1} paid with R from your mana pool
     {G} paid with G from Forest
  tapped: Forest; sacrificed: nothing; life paid: 0; floating: nothing
"""

from __future__ import annotations

import re

from dataclasses import replace

from collections import Counter

from .model.duel_masters import PAYS_CIVILIZATION
from .model.plan import (CannotKeep, FirstFailure, CONVOKE, DELVE, GRAVEYARD, IMPROVISE, POOL, BestTurn, Castable, NotEnoughMana, Payable, Plan, Sequence,
                         Undecided, Unpayable)
from .model.problem import PAY, LandPlay, PaymentProblem
from .model.mana import format_types
from .model.symbols import LIFE_HALF


def _mana(types) -> str:
    return format_types(types) or "nothing"


class _Names:
    """Card names for ids: the name alone where it is unique, ``Name (id)`` where two
    permanents share it, the id where none was given."""

    def __init__(self, problem: PaymentProblem):
        perms = problem.board.permanents
        shared = Counter(p.name for p in perms if p.name)
        self.names = {p.id: (p.name if shared[p.name] == 1 else f"{p.name} ({p.id})") if p.name else p.id
                      for p in perms}

    def __call__(self, pid: str) -> str:
        if pid == POOL:
            return "your mana pool"
        if pid == GRAVEYARD:
            return "your graveyard"
        return self.names.get(pid, pid)


def _title(problem: PaymentProblem) -> str:
    spell = problem.spell
    return spell.name or (str(spell.cost.mana_cost) if spell.cost.mana_cost is not None else "the spell")


def _how_the_total_came(problem: PaymentProblem, plan: Plan) -> str:
    """``(mana cost {X}{R} with X=3, additional {1}, reduced by {2})``, or '' when the
    total is the mana cost as printed."""
    cost = problem.spell.cost
    parts = []
    x = plan.x if plan.x is not None else cost.x
    if cost.mana_cost is not None and cost.mana_cost.x_count:
        parts.append(f"mana cost {cost.mana_cost} with X={x}")
    elif cost.x_count:
        parts.append(f"X={x}")
    if cost.additional:
        parts.append("additional " + " ".join(str(c) for c in cost.additional))
    if cost.increase:
        parts.append("increased by " + " ".join(str(c) for c in cost.increase))
    if cost.reduce:
        halves = ", ".join(f"{s} as {h}" for s, h in plan.reduction_halves)
        parts.append("reduced by " + " ".join(str(c) for c in cost.reduce) + (f" ({halves})" if halves else ""))
    if cost.minimum:
        parts.append(f"at least {cost.minimum} in all")
    return f" ({'; '.join(parts)})" if parts else ""


def _step_words(step, names) -> str:
    who = names(step.permanent)
    if step.ability == CONVOKE:
        return f"tap {who} to convoke -> pays {_mana(step.adds)}"
    if step.ability == IMPROVISE:
        return f"tap {who} to improvise -> pays {_mana(step.adds)}"
    if step.ability == DELVE:
        return "exile a card from your graveyard (delve) -> pays {1}"
    if step.via:  # an altar's ability, sacrificing this permanent
        paid = "".join(f", paying {_mana((line.mana,))}" for line in step.payment if line.mana)
        doing = "sacrificing" if step.sacrifices else "tapping"
        return f"use {names(step.via[0])}: {step.cost}, {doing} {who}{paid} -> add {_mana(step.adds)}"
    verb = " and ".join(v for v, does in (("tap", step.taps), ("sacrifice", step.sacrifices)) if does) or "use"
    paid = ""
    if step.payment:
        paid = ", paying " + ", ".join(f"{line.life} life" if line.life else f"{line.mana} from {names(line.source)}"
                                       for line in step.payment)
    life = f" and {step.life} life" if step.life else ""
    damage = f" ({step.damage} damage to you)" if step.damage else ""
    triggered = "".join(f", and {names(t.permanent)}'s trigger adds {_mana(t.adds)}" for t in step.triggered)
    return f"{verb} {who}: {step.cost}{paid}{life} -> add {_mana(step.adds)}{damage}{triggered}"


def several(problem: PaymentProblem, result) -> str:
    """``sequence`` and ``best_turn``: each plan in order, on what the ones before it
    left (a best turn says its land and its value first); a sequence that fails, or
    either undecided, as one spell's answer reads."""
    if not isinstance(result, (Sequence, BestTurn)):
        if isinstance(result, Unpayable) and isinstance(result.certificate, FirstFailure):
            return f"the sequence: can't be paid: {_cards_named(problem, result.message)}"
        return payment(problem, result)
    lines = []
    if isinstance(result, BestTurn):
        land = ""
        if result.land is not None:
            play = result.land
            assert isinstance(play, LandPlay)  # (BestTurn.land is typed object: see model.plan)
            how = " tapped" if play.tapped else f" untapped, paying {play.life} life" if play.life else ""
            landfall = "".join(f" ({_mana(alt)} from its landfall)" for _, alt in result.landfall)
            land = f"play {play.card.name or play.id}{how}{landfall}, then "
        cast = ", ".join(spell.name or spell.id for spell, _ in result.plans) or "nothing"
        proven = "" if result.optimal else " (not proven best: the time guard ran out)"
        lines.append(f"best turn: {land}cast {cast}, worth {result.value}{proven}")
    state = replace(problem, query=PAY, hand=(), spells=(), keep=())
    for spell, plan in result.plans:
        state = replace(state, spell=state.cost_on(spell, state.board))  # (each at its turn: CR 601.2f)
        lines.append(payment(state, plan))
        if spell.adds:
            lines.append(f"  {spell.name or spell.id} resolves: add {_mana(spell.adds)}")
        state = state.after_cast(plan)
    return "\n".join(lines)




def total_cost(problem: PaymentProblem, result) -> str:
    """``total_cost``: the total and where each part came from (the permanent by name)."""
    title = _title(problem)
    names = _Names(problem)
    for p in problem.opponents or ():
        names.names.setdefault(p.id, p.name or p.id)
    if not result.totals:
        return f"{title}: it has no mana cost, so it can't be cast by paying one (CR 202.1b)"
    total = result.written or " or ".join(str(t) for t, _ in result.totals)
    first = result.parts[0]
    lines = [f"{title}: total cost {total}", f"  {first[1]} {first[0].replace('_', ' ')}"]
    for what, cost, optional, *origin in result.parts[1:]:
        source, text = (origin + ["", ""])[:2]
        why = f" ({names(source)}: {text})" if source else f" ({text})" if text else ""
        if what == "minimum":
            lines.append(f"  at least {cost} mana in all{why}")
        elif what == "sacrifice":
            lines.append(f"  and sacrifice {cost}{why}")
        elif what == "discard":
            lines.append(f"  and discard {cost}{why}")
        elif optional:
            lines.append(f"  may also pay {cost} ({what})")
        else:
            lines.append(f"  {'-' if what == 'reduce' else '+'} {cost} {what}{why}")
    if result.unread:
        lines.append("  not known: " + "; ".join(f"{names(who)}: {line!r}" for who, line in result.unread))
    return "\n".join(lines)


def check(problem: PaymentProblem, checked) -> str:
    """``check``: the referee's verdict on another engine's answer, then manaplan's plan
    where it shows the answer wrong."""
    from .solver.referee import Checked, undecided
    if not isinstance(checked, Checked):  # (the time guard ran out before any judging)
        checked = undecided(checked)
    title = _title(problem)
    v = checked.violation
    verdicts = {"optimal": "legal and optimal", "suboptimal": "legal, not optimal", "illegal": "illegal",
                "right_no": "right: it can't be paid", "wrong_no": "wrong: it can be paid",
                "unknown": "not decided"}
    lines = [f"{title}: the answer is {verdicts[checked.verdict]}"]
    if v is not None:
        lines.append(f"  {v.message} ({v.rule or 'not modelled'})")
    for words in checked.differences:
        lines.append(f"  it {words}")
    if checked.lethal:
        lines.append("  it pays the player's last life: legal (CR 119.4), but the game is lost")
    if checked.better is not None:
        lines.append("  manaplan's plan:")
        lines += ["  " + line for line in payment(problem, checked.better).split("\n")[1:]]
    elif isinstance(checked.truth, (Unpayable, Undecided)):
        lines.append("  " + payment(problem, checked.truth).split(": ", 1)[1])
    return "\n".join(lines)


def castable(problem: PaymentProblem, result: Castable) -> str:
    """``castable``: each card as ``pay`` reads it alone."""
    return "\n".join(payment(problem.for_spell(spell), answer) for spell, answer in result.answers)


def _reason_words(result: Unpayable, names, problem: PaymentProblem | None = None) -> str:
    """The reason's message with each permanent called by its card name (the answer's
    message names ids, for engines), and each card of the hand a reason names (a kept
    card that can't be kept)."""
    cert = result.certificate
    if isinstance(cert, NotEnoughMana) and result.message.startswith(cert.sentence()):
        return cert.sentence(names) + result.message[len(cert.sentence()):]
    if isinstance(cert, (CannotKeep, FirstFailure)) and problem is not None:
        return _cards_named(problem, result.message)
    return result.message


def _cards_named(problem: PaymentProblem, message: str) -> str:
    """``message`` with the ids of the question's cards (a sequence's spells, the hand,
    what is kept) written as their names, where they have one."""
    named = {c.id: c.name for c in problem.spells + problem.hand + problem.keep if c.id and c.name and c.id != c.name}
    for cid in sorted(named, key=len, reverse=True):
        message = re.sub(r"(?<![\w-])" + re.escape(cid) + r"(?![\w-])", named[cid], message)
    return message


def payment(problem: PaymentProblem, result) -> str:
    """One spell's answer (``pay``, ``max_x``, ``can_pay``): the plan step by step, or why
    it can't be paid."""
    title = _title(problem)
    names = _Names(problem)
    if isinstance(result, Unpayable):
        return f"{title}: can't be paid: {_reason_words(result, names, problem)}"
    if isinstance(result, Undecided):
        return f"{title}: no answer: {result.message}"
    if isinstance(result, Payable):
        return f"{title}: can be paid"
    plan: Plan = result
    how = f" (cast with {plan.cast_with})" if plan.cast_with else ""
    lines = [f"{title}: pay {plan.total_cost}{how}{_how_the_total_came(problem, plan)}"]
    for s, half in plan.announced:
        lines.append(f"  announce {s} as {'2 life' if half == LIFE_HALF else half}")
    for i, step in enumerate(plan.steps, 1):
        lines.append(f"  {i}. {_step_words(step, names)}")
    for line in plan.payment:
        source = f"{line.life} life" if line.life else f"{line.mana} from {names(line.source)}"
        lines.append(f"     {line.symbol} paid with {source}")
    listing = ", ".join(names(p) for p in plan.tapped) or "nothing"
    gone = ", ".join(names(p) for p in plan.sacrificed) or "nothing"
    floating = _mana(u.type for u in plan.floating)
    lines.append(f"  tapped: {listing}; sacrificed: {gone}; life paid: {plan.life_paid}; floating: {floating}")
    if plan.exiled:
        lines.append(f"  exiled from your graveyard: {plan.exiled}")
    if plan.cost_sacrificed:
        lines.append(f"  sacrificed for its additional cost: {', '.join(names(p) for p in plan.cost_sacrificed)}")
    if plan.cost_discarded:
        hand = {c.id: c.name or c.id for c in problem.hand}
        lines.append(f"  discarded for its additional cost: {', '.join(hand.get(c, c) for c in plan.cost_discarded)}")
    if plan.is_lethal(problem.player.life):
        lines.append(f"  this loses {plan.life_paid} life from {problem.player.life}: the player loses the game")
    if plan.better_before_casting:
        who = ", ".join(names(pid) for pid, _ in plan.better_before_casting)
        lines.append(f"  better: activate {who} before casting (they can't be activated while casting, CR 601.2g)")
    if not plan.optimal:
        lines.append("  (the time guard stopped the search before this plan was proven the best)")
    return "\n".join(lines)


def duel_masters(problem, result) -> str:
    """A Duel Masters answer as a player reads it: which card pays each civilization,
    which only points (seed 004: civilizations first, then the missing points)."""
    title = problem.card.name or "the card"
    if isinstance(result, Unpayable):
        return f"{title}: can't be paid: {result.message}"
    if isinstance(result, Undecided):
        return f"{title}: no answer: {result.message}"
    cards = {card.id: card for card in problem.mana_zone}
    points = "point" if result.cost_to_pay == 1 else "points"
    lines = [f"{title}: pay {result.cost_to_pay} {points}"]
    for i, step in enumerate(result.steps, 1):
        card = cards[step.card]
        who = f"{card.name} ({card.id})" if card.name else card.id
        civ = step.civilization or "no civilization"
        why = f"pays {civ}" if step.pays == PAYS_CIVILIZATION else "for points"
        lines.append(f"  {i}. tap {who}: {step.points} {'point' if step.points == 1 else 'points'} of {civ}, {why}")
    over = f" ({result.excess} more than the cost, to pay every civilization)" if result.excess else ""
    lines.append(f"  tapped: {len(result.steps)} cards, {result.points} points{over}")
    return "\n".join(lines)
