"""An independent checker that replays a plan step by step, as a judge would at the table.

It uses no CP-SAT and none of the solver's grouping: only the request's objects and the
rules in ``model/``. Every step is checked when it happens (CR 605.3: a mana ability is
activated by paying its whole cost from what exists at that moment), then the spell's
total cost is recomputed from the announcements (CR 601.2b, 601.2f) and each symbol's
payment is checked (CR 601.2h), then the plan's summary (tapped, sacrificed, life,
floating mana) must match what the replay saw.

``validate_plan`` returns a list of errors, each naming the step; empty means legal.
"""

from __future__ import annotations

from collections import Counter

from ...model.cost import Announcement, choice_symbols, total_cost
from ...model.mana import Mana, format_mana, parse_mana
from ...model.request import PaymentProblem
from ...model.sources import life_rule_ok
from ...model.symbols import ANY, SNOW_ANY, COLORS, Symbol, need_of
from ...model.triggers import board_triggers, multiplier


class _Broken(Exception):
    pass


def _take_unit(pool: list, line: dict, need, for_spell: bool, where: str) -> None:
    mtype, src = line.get("mana"), line.get("from")
    for i, u in enumerate(pool):
        if u.type == mtype and u.source == src and u.can_pay(need, for_spell):
            del pool[i]
            return
    if any(u.type == mtype and u.source == src for u in pool):
        raise _Broken(f"{where}: {mtype} from {src} may not pay {line.get('symbol')}")
    raise _Broken(f"{where}: there is no {mtype} from {src} in the pool")


def _pay_symbols(symbols, lines, pool, life_left, for_spell, where) -> int:
    """Check that ``lines`` pay ``symbols`` in order (each line one mana, or life; lines
    of a symbol with a choice say which half in ``as``); return the life paid."""
    lines = list(lines)
    life = 0
    for sym in symbols:
        options = sym.payment_options(0)
        if not lines or lines[0].get("symbol") != str(sym):
            raise _Broken(f"{where}: nothing pays {sym}")
        first = lines[0]
        if "life" in first:
            lines.pop(0)
            opts = [o for o in options if o.life]
            if not opts or first["life"] != opts[0].life:
                raise _Broken(f"{where}: {sym} can't be paid with {first['life']} life")
            if life + opts[0].life > life_left:
                raise _Broken(f"{where}: not enough life to pay {sym} (CR 118.3)")
            life += opts[0].life
            continue
        label = first.get("as", options[0].label)
        opts = [o for o in options if o.label == label and not o.life]
        if not opts:
            raise _Broken(f"{where}: {sym} has no half {label!r}")
        for need in opts[0].needs:
            if not lines or lines[0].get("symbol") != str(sym):
                raise _Broken(f"{where}: too little mana pays {sym}")
            _take_unit(pool, lines.pop(0), need, for_spell, where)
    if lines:
        raise _Broken(f"{where}: payment line for {lines[0].get('symbol')} pays nothing in the cost")
    return life


def _output_ok(ability, adds: Counter, times: int = 1) -> bool:
    """Whether one activation may add ``adds`` (``times`` as much under replacement
    effects such as Mana Reflection, CR 106.12b)."""
    out = ability.output
    if out.combination:
        return (sum(adds.values()) == out.combination * times and all(t in out.combination_types for t in adds)
                and all(n % times == 0 for n in adds.values()))
    return any(Counter({t: n * times for t, n in Counter(a).items()}) == adds for a in out.alternatives)


def _replay_triggers(step: dict, triggers: tuple, p, ability, made: tuple, gone: list, where: str) -> list:
    """The mana the step's triggered mana abilities add (CR 605.1b, 605.4a): exactly the
    triggers this activation sets off, each once, each adding one of its choices; a
    source already sacrificed (``gone``) triggers nothing (603.10)."""
    fired = {(src.id, i): (src, t) for src, i, t in triggers
             if not t.multiply and src.id not in gone and ability is not None and t.sets_off(p, ability, made, src)}
    listed = step.get("triggered", [])
    keys = [(line.get("permanent"), line.get("trigger")) for line in listed]
    if sorted(keys, key=repr) != sorted(fired, key=repr):
        raise _Broken(f"{where}: the triggered mana abilities listed {keys} are not the ones this activation sets "
                      f"off {sorted(fired, key=repr)} (CR 605.4a)")
    units = []
    for line, key in zip(listed, keys):
        src, trigger = fired[key]
        adds = Counter(m.type for m in parse_mana(line.get("adds", "")))
        if not any(Counter(c) == adds for c in trigger.choices(made)):
            raise _Broken(f"{where}: the trigger of {src.id} can't add {line.get('adds')}")
        units += [Mana(t, src.snow, False, False, False, src.id) for t in adds.elements()]
    return units


def validate_plan(problem: PaymentProblem, answer: dict) -> list:
    """Replay ``answer`` (with ``plan`` and ``total_cost``) against ``problem``."""
    try:
        return _replay(problem, answer)
    except _Broken as e:
        return [str(e)]
    except (KeyError, TypeError, ValueError) as e:
        return [f"malformed plan: {e!r}"]


def _replay(problem: PaymentProblem, answer: dict) -> list:
    plan = answer["plan"]
    if "x" in answer:  # a max_x answer: X is the value it announces (CR 601.2b)
        from dataclasses import replace
        spell = replace(problem.spell, cost=replace(problem.spell.cost, x=answer["x"]))
        problem = PaymentProblem(spell, problem.board, problem.player, "pay", problem.id)
    spell = problem.spell
    life_total = problem.player.life
    perms = {p.id: p for p in problem.board.permanents}
    triggers = board_triggers(problem.board)
    pool = list(problem.player.pool)
    tapped = {p.id for p in problem.board.permanents if p.tapped}
    tapped_now, sacrificed = [], []
    life_paid = damage = exiled = 0
    counters_used: dict = {}
    for i, step in enumerate(plan["steps"]):
        where = f"step {i + 1} ({step.get('permanent')}, ability {step.get('ability')})"
        pid, index = step["permanent"], step["ability"]
        added = [m.type for m in parse_mana(step["adds"])]
        adds = Counter(added)
        snow = spell_only = generic_only = False
        ability = None
        if index == "delve":
            if not spell.delve or exiled >= problem.player.graveyard:
                raise _Broken(f"{where}: no card left to exile for delve")
            exiled += 1
            if adds != Counter("C"):
                raise _Broken(f"{where}: delve pays one generic mana")
            spell_only = generic_only = True
        else:
            if pid not in perms:
                raise _Broken(f"{where}: no permanent {pid!r}")
            p = perms[pid]
            if pid in sacrificed:
                raise _Broken(f"{where}: {pid} was already sacrificed")
            if index in ("convoke", "improvise"):
                if not (spell.convoke if index == "convoke" else spell.improvise):
                    raise _Broken(f"{where}: the spell doesn't have {index}")
                if index == "convoke" and not p.creature:
                    raise _Broken(f"{where}: only creatures convoke (CR 702.51a)")
                if index == "improvise" and not p.artifact:
                    raise _Broken(f"{where}: only artifacts improvise (CR 702.126a)")
                if pid in tapped:
                    raise _Broken(f"{where}: {pid} is already tapped")
                tapped.add(pid)
                tapped_now.append(pid)
                colors = [c for c in COLORS if c in p.colors] if index == "convoke" else []
                allowed = [Counter(c) for c in colors] or [Counter("C")]
                if adds not in allowed:
                    raise _Broken(f"{where}: {index} can't pay with {step['adds']}")
                spell_only, generic_only = True, not colors
            else:
                ability = p.abilities[index]
                if not ability.usable_mid_cast:
                    raise _Broken(f"{where}: this ability can't be activated while casting a spell (CR 601.2g)")
                cost = ability.cost
                if cost.untap:
                    raise _Broken(f"{where}: {{Q}} costs are not supported")
                if cost.tap:
                    if pid in tapped:
                        raise _Broken(f"{where}: {pid} is already tapped")
                    if p.creature and p.summoning_sick:
                        raise _Broken(f"{where}: {pid} is summoning sick (CR 302.6)")
                    tapped.add(pid)
                    tapped_now.append(pid)
                if cost.counters:
                    key = (pid, cost.counter_kind)
                    counters_used[key] = counters_used.get(key, 0) + cost.counters
                    if counters_used[key] > p.counter(cost.counter_kind):
                        raise _Broken(f"{where}: no {cost.counter_kind} counter left on {pid}")
                life_paid += _pay_symbols(cost.mana.symbols, step.get("payment", []), pool,
                                          life_total - life_paid, False, where)
                if life_paid + cost.life > life_total:
                    raise _Broken(f"{where}: not enough life to pay {cost.life} (CR 118.3)")
                life_paid += cost.life
                damage += ability.damage
                if step.get("life", 0) != cost.life or step.get("damage", 0) != ability.damage:
                    raise _Broken(f"{where}: the step's life and damage don't match the ability's")
                if cost.sacrifice:
                    sacrificed.append(pid)
                live = tuple(tr for tr in triggers if tr[0].id not in sacrificed)
                if not _output_ok(ability, adds, multiplier(live, p, ability) if live else 1):
                    raise _Broken(f"{where}: this ability can't add {step['adds']}")
                snow = p.snow
                if ability.restrict:
                    if not spell.allows(ability.restrict):
                        raise _Broken(f"{where}: its mana can't be spent on this spell")
                    spell_only = True
        for t in added:
            pool.append(Mana(t, snow, spell_only, generic_only, False, pid))
        if triggers or step.get("triggered"):
            pool += _replay_triggers(step, triggers, perms.get(pid), ability, tuple(added), sacrificed, where)

    # the spell (CR 601.2b, 601.2f, 601.2h)
    cost = spell.cost
    announced = plan.get("announced", [])
    choice = choice_symbols(cost.added_symbols)
    if [a["symbol"] for a in announced] != [str(s) for s in choice]:
        raise _Broken("spell: the announcements don't match the cost's hybrid and Phyrexian symbols")
    reds = plan.get("reduction_halves", [])
    total = total_cost(cost, Announcement(tuple(a["as"] for a in announced), tuple(r["as"] for r in reds)))
    if str(total) != answer["total_cost"]:
        raise _Broken(f"spell: the total cost is {total}, not {answer['total_cost']}")
    lines = list(plan["payment"])
    need_lines = Counter()
    for line in lines:
        if "life" in line:
            continue
        sym = Symbol.parse(line["symbol"])
        if sym.kind == "generic":
            need = ANY
        elif sym.kind == "snow":
            need = SNOW_ANY
        else:
            need = need_of(sym.colors[0])
        need_lines[need] += 1
        _take_unit(pool, line, need, True, "spell")
    expected = Counter({ANY: total.generic, SNOW_ANY: total.snow})
    for t in ("W", "U", "B", "R", "G", "C"):
        expected[need_of(t)] = total.count(t)
    if +expected != +need_lines:
        raise _Broken(f"spell: the payment lines don't cover {total} exactly")
    life_lines = [line for line in lines if "life" in line]
    if sorted(line["symbol"] for line in life_lines) != sorted(str(s) for s in total.life_symbols):
        raise _Broken("spell: life payments don't match the symbols announced as life")
    for line in life_lines:
        if line["life"] != 2:
            raise _Broken("spell: a Phyrexian symbol costs 2 life (CR 107.4f)")
        life_paid += 2
    if not life_rule_ok(life_total, life_paid, damage):
        raise _Broken(f"spell: {life_paid} life paid after {damage} damage with only {life_total} (CR 118.3)")
    life_paid += damage
    errors = []
    if sorted(plan["tapped"]) != sorted(tapped_now):
        errors.append(f"summary: tapped {sorted(plan['tapped'])}, replay tapped {sorted(tapped_now)}")
    if sorted(plan["sacrificed"]) != sorted(sacrificed):
        errors.append(f"summary: sacrificed {sorted(plan['sacrificed'])}, replay {sorted(sacrificed)}")
    if plan["life_paid"] != life_paid:
        errors.append(f"summary: life_paid {plan['life_paid']}, replay {life_paid}")
    if plan["floating"] != format_mana(pool):
        errors.append(f"summary: floating {plan['floating']}, replay {format_mana(pool)}")
    return errors

