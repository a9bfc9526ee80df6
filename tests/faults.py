"""Plans for testing the referee (the ``check`` query): legal plans manaplan did not make,
and faults planted in legal plans, each judged by the reference search too.

- :func:`written` turns a :class:`~manaplan.model.plan.Plan` into the least another engine
  writes (steps: permanent, ability, adds, what paid the ability's cost; the spell's
  payment lines);
- :func:`walked_plan` walks the reference search's own moves at random and pays the spell
  from what they made: a plan no solver chose (kept where the reference judges it legal);
- :func:`planted` changes a legal plan by one thing a buggy engine gets wrong: a tapped
  permanent tapped again, a symbol paid with the wrong color or from the wrong
  permanent, more life than the player has, a sacrifice left out, a step moved before
  the mana it spends exists, a step or a line dropped, another ability, other mana;
- :func:`judged` asks both judges: the referee through the public API, the reference
  search (``reference_legal``) on the same plan.

Used by tests/test_check.py and benchmarks/check_faults.py.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

from manaplan.api import solve
from manaplan.model.cost import all_total_costs
from manaplan.model.mana import Mana, format_types
from manaplan.model.plan import DELVE, GRAVEYARD
from manaplan.model.problem import CHECK, PAY
from manaplan.model.symbols import LIFE_HALF, MANA_TYPES
from manaplan.protocol.mtg import read as read_request, write_plan
from manaplan.protocol.plans import read_written_plan
from manaplan.solver.checks.reference import _live_outputs, _moves, _without_cards, reference_legal
from manaplan.solver.referee import completed_plan

#: the kinds of planted fault, each a function below
KINDS = ("tap_again", "wrong_color", "wrong_source", "life_short", "sacrifice_left_out", "order", "step_dropped",
         "line_dropped", "other_ability", "other_mana", "phyrexian_as_life")


def written(plan, life: int = 20) -> dict:
    """The least another engine writes for ``plan`` (manaplan's own plan JSON, trimmed)."""
    full = write_plan(plan, life)
    out = {"steps": [], "payment": full["payment"]}
    for step in full["steps"]:
        keep = {k: step[k] for k in ("permanent", "ability", "adds", "sacrifices", "taps", "triggered") if k in step}
        if step["payment"]:
            keep["payment"] = step["payment"]
        out["steps"].append(keep)
    for key in ("sacrificed_for_cost", "discarded_for_cost"):
        if key in full:
            out[key] = full[key]
    if plan.kicked is not None:
        out["kicked"] = plan.kicked
    if plan.kicks is not None:
        out["kicks"] = plan.kicks
    return out


def judged(request: dict, plan: dict) -> tuple:
    """(the referee's answer, the reference search's legality: True, False, or None
    where it can't judge) of ``plan`` for ``request`` (a ``pay`` request)."""
    ask = {k: v for k, v in request.items() if k not in ("query", "keep_castable", "keep_open", "keep_together")}
    answer = solve({**ask, "query": CHECK, "plan": plan})
    problem = read_request({**ask, "query": PAY})
    problem = problem.for_spell(problem.spell, PAY)
    whole, _ = completed_plan(problem, read_written_plan(plan))
    if whole.total_cost is None:
        return answer, False  # (no announcement makes the total its lines pay)
    return answer, reference_legal(problem, whole)


# -- plans no solver chose -------------------------------------------------------------

def walked_plan(request: dict, rng: random.Random, most_steps: int = 8) -> dict | None:
    """A written plan made by choosing a random locked-in total of the spell, activating
    the reference search's moves at random until what they made covers it (and maybe one
    more; each cost paid with mana made before, of a random source that can pay it), then
    paying the total from what was made, each symbol from a random source. None where
    the board has triggered mana or doublings (whose outputs the walk doesn't split), or
    nothing fits."""
    problem = read_request({**{k: v for k, v in request.items() if k != "query"}, "query": PAY})
    problem = _without_cards(problem.for_spell(problem.spell, PAY), [problem.spell])
    if problem.spell.cost.mana_cost is None or problem.board.has_doubling or any(
            p.triggers for p in problem.board.permanents):
        return None
    moves, _ = _moves(problem)
    perms = {p.id: p for p in problem.board.permanents}
    pool = Counter((u.type, u.source) for u in problem.player.pool if not u.snow)
    life_left = problem.player.life
    tapped, sacrificed, steps = set(), set(), []
    paying = False
    totals = [t for t in all_total_costs(problem.spell.cost) if not t.snow and t.life <= life_left]
    if not totals:
        return None
    total = rng.choice(totals)
    extra = rng.randint(0, 1)
    for _ in range(most_steps):
        if _covers(pool, total):
            if not extra:
                break
            extra -= 1
        usable = [mv for mv in moves if mv.pid not in sacrificed and not (mv.tap and mv.pid in tapped)
                  and not mv.counters and not mv.energy and not mv.doubles
                  and not (mv.co_tap and (mv.co_tap in tapped or mv.co_tap in sacrificed))
                  and not (paying and mv.ability not in ("convoke", "improvise", DELVE))]
        if not usable:
            break
        mv = rng.choice(usable)
        lines, spent, life = [], Counter(), mv.life + mv.damage
        for sym in mv.cost_symbols:
            options = sym.payment_options(0)
            option = rng.choice(options)
            if option.life:
                lines.append({"symbol": str(sym), "life": option.life})
                life += option.life
                continue
            for need in option.needs:
                able = [k for k, n in (pool - spent).items() if n > 0 and Mana(k[0]).can_pay(need, False)]
                if not able:
                    break
                kind = rng.choice(sorted(able))
                spent[kind] += 1
                line = {"symbol": str(sym), "mana": kind[0], "from": kind[1]}
                if len(options) > 1:
                    line["as"] = option.label
                lines.append(line)
            else:
                continue
            break
        else:
            if life > life_left:
                continue
            outs = _live_outputs(problem, mv, sacrificed)
            out = rng.choice(outs)
            pool -= spent
            life_left -= life
            maker = GRAVEYARD if mv.ability == DELVE else mv.pid
            p = perms.get(mv.pid)
            step = {"permanent": mv.pid, "ability": mv.ability, "adds": format_types(u[0] for u in out)}
            if p is not None and isinstance(mv.ability, int) and p.abilities[mv.ability].through:
                host, index = p.abilities[mv.ability].through
                step = {"permanent": host, "ability": index, "adds": step["adds"],
                        ("sacrifices" if mv.sacrifice else "taps"): mv.pid}
                maker = host
            if mv.ability == DELVE:
                step = {"permanent": GRAVEYARD, "ability": DELVE, "adds": "{C}"}
            if lines:
                step["payment"] = lines
            steps.append(step)
            pool.update((u[0], maker) for u in out)
            tapped |= {mv.pid} if mv.tap else set()
            tapped |= {mv.co_tap} if mv.co_tap else set()
            sacrificed |= {mv.pid} if mv.sacrifice else set()
            paying = paying or mv.ability in ("convoke", "improvise", DELVE)
    if total.life > life_left:
        return None
    payment, spent = [], Counter()
    wants = [("{%d}" % total.generic, None)] * total.generic + [
        ("{%s}" % t, t) for t, n in zip(MANA_TYPES, total.typed) for _ in range(n)]
    for symbol, mana_type in wants:
        able = sorted(k for k, n in (pool - spent).items() if n > 0 and (mana_type is None or k[0] == mana_type))
        if not able:
            return None
        kind = rng.choice(able)
        spent[kind] += 1
        payment.append({"symbol": symbol, "mana": kind[0], "from": kind[1]})
    payment += [{"symbol": str(s), "life": 2} for s in total.life_symbols]
    plan = {"steps": steps, "payment": payment}
    wanted = [c for c in problem.spell.sacrifices for _ in range(c.count)]
    if wanted:
        left = [p.id for p in problem.board.permanents if p.id not in sacrificed
                and any(p.is_a(k) for c in wanted for k in c.kinds)]
        plan["sacrificed_for_cost"] = left[:len(wanted)]
    discards = sum(c.count for c in problem.spell.discards)
    if discards:
        plan["discarded_for_cost"] = [c.id for c in problem.hand if c.id != problem.spell.id][:discards]
    return plan


def _covers(pool: Counter, total) -> bool:
    """Whether the mana in ``pool`` ((type, source) counts) pays ``total``'s mana."""
    by_type = Counter()
    for (t, _), n in pool.items():
        by_type[t] += n
    left = sum(by_type.values())
    for t, n in zip(MANA_TYPES, total.typed):
        if by_type[t] < n:
            return False
        left -= n
    return left >= total.generic


# -- faults ------------------------------------------------------------------------------

def planted(request: dict, plan: dict, rng: random.Random, announced: list | None = None) -> list:
    """(kind, request, plan) for each fault of :data:`KINDS` that fits this plan: each
    the legal plan changed by one thing (the request's life, for ``life_short``).
    ``announced``: the plan's announcements (manaplan's answer's), where the plan
    itself doesn't say them."""
    out = []
    announced = plan.get("announced", announced)
    steps, payment = plan["steps"], plan["payment"]
    ids = [p["id"] for p in request.get("permanents", []) if isinstance(p, dict) and "id" in p]

    def changed(kind, **fields):
        new = copy.deepcopy(plan)
        new.update(fields)
        out.append((kind, request, new))

    tapping = [i for i, s in enumerate(steps) if s.get("ability") != DELVE]
    if tapping:
        i = rng.choice(tapping)
        changed("tap_again", steps=steps[:i + 1] + [copy.deepcopy(steps[i])] + steps[i + 1:])
    mana_lines = [i for i, line in enumerate(payment) if "mana" in line]
    if mana_lines:
        i = rng.choice(mana_lines)
        other = rng.choice([t for t in MANA_TYPES if t != payment[i]["mana"]])
        changed("wrong_color", payment=payment[:i] + [{**payment[i], "mana": other}] + payment[i + 1:])
        sources = [s for s in ids if s != payment[i]["from"]]
        if sources:
            changed("wrong_source", payment=payment[:i] + [{**payment[i], "from": rng.choice(sources)}]
                    + payment[i + 1:])
        j = rng.choice(mana_lines)
        changed("line_dropped", payment=payment[:j] + payment[j + 1:])
    life_paid = sum(line.get("life", 0) for line in payment) + sum(
        line.get("life", 0) for s in steps for line in s.get("payment", []))
    pays_life = life_paid or any(s.get("permanent") in _paying_life(request) for s in steps)
    if pays_life:
        out.append(("life_short", {**request, "player": {**request.get("player", {}), "life": max(
            0, min(request.get("player", {}).get("life", 20), life_paid) - rng.randint(1, 2))}}, plan))
    if plan.get("sacrificed_for_cost"):
        changed("sacrifice_left_out", sacrificed_for_cost=plan["sacrificed_for_cost"][1:])
    altars = [i for i, s in enumerate(steps) if "sacrifices" in s]
    if altars:  # an altar's step that doesn't say what it sacrificed
        i = rng.choice(altars)
        changed("sacrifice_left_out", steps=steps[:i] + [{k: v for k, v in steps[i].items() if k != "sacrifices"}]
                + steps[i + 1:])
    if len(steps) >= 2:
        i = rng.randrange(len(steps) - 1)
        j = rng.randrange(i + 1, len(steps))
        moved = steps[:i] + [steps[j]] + steps[i:j] + steps[j + 1:]
        if moved != steps:
            changed("order", steps=moved)
    if steps:
        i = rng.randrange(len(steps))
        changed("step_dropped", steps=steps[:i] + steps[i + 1:])
        k = rng.randrange(len(steps))
        s = steps[k]
        if isinstance(s.get("ability"), int):
            other_index = rng.choice([i for i in (s["ability"] - 1, s["ability"] + 1, s["ability"] + 2) if i >= 0])
            changed("other_ability", steps=steps[:k] + [{**s, "ability": other_index}] + steps[k + 1:])
        if s.get("adds"):
            first = s["adds"][1]
            other = rng.choice([t for t in MANA_TYPES if t != first])
            changed("other_mana", steps=steps[:k] + [{**s, "adds": s["adds"].replace("{%s}" % first, "{%s}" % other, 1)}]
                    + steps[k + 1:])
    for a, said in enumerate(announced or ()):
        if said["symbol"].endswith("/P}") and said["as"] != LIFE_HALF:  # a Phyrexian symbol paid with mana
            lines = [i for i, line in enumerate(payment) if line.get("symbol") == "{%s}" % said["as"]]
            if lines:
                i = rng.choice(lines)
                fields = {"payment": payment[:i] + [{"symbol": said["symbol"], "life": 2}] + payment[i + 1:]}
                if "announced" in plan:
                    fields["announced"] = [dict(x, **({"as": LIFE_HALF} if k == a else {}))
                                           for k, x in enumerate(announced)]
                changed("phyrexian_as_life", **fields)
            break
    return out


def _paying_life(request: dict) -> set:
    """The permanents whose text or abilities speak of life (Mana Confluence, pain lands)."""
    out = set()
    for p in request.get("permanents", []):
        text = str(p.get("oracle_text", "")) + str(p.get("abilities", ""))
        if "life" in text or "damage" in text:
            out.add(p.get("id"))
    return out

