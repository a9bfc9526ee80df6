"""An independent checker that replays a plan step by step, as a judge would at the table.

It uses no CP-SAT and none of the solver's grouping: only the request's objects and the
rules in ``model/``. Every step is checked when it happens (CR 605.3: a mana ability is
activated by paying its whole cost from what exists at that moment), then the spell's
total cost is recomputed from the announcements (CR 601.2b, 601.2f) and each symbol's
payment is checked (CR 601.2h), then the plan's summary (tapped, sacrificed, life,
floating mana) must match what the replay saw.

``validate_plan`` judges a :class:`~manaplan.model.plan.Plan` value and returns a list
of errors, each naming the step; empty means legal.
"""

from __future__ import annotations

from manaplan.model.deadline import check_clock

from collections import Counter
from dataclasses import replace

from manaplan.model.cost import Announcement, choice_symbols, total_cost
from manaplan.model.dependent_mana import ability_now, acting
from manaplan.model.errors import PlanRejected
from manaplan.model.mana import Mana, format_mana, format_types
from manaplan.model.plan import CONVOKE, DELVE, GRAVEYARD, IMPROVISE, PaymentLine, Plan, Step
from manaplan.model.problem import MAX_X, PaymentProblem
from manaplan.model.symbols import ANY, COLORED, COLORLESS, COLORS, GENERIC, MANA_TYPES, SNOW, SNOW_ANY, need_of
from manaplan.model.triggers import board_triggers, multiplier


class _Pool:
    """The mana pool during the replay: how many units of each exact kind (type,
    restrictions, source) are in it, so that spending one costs the same however much
    mana a plan makes."""

    def __init__(self, units=()):
        self.by_line: dict = {}  # (type, source) -> {unit: how many}
        for u in units:
            self.add(u)

    def add(self, u: Mana) -> None:
        held = self.by_line.setdefault((u.type, u.source), {})
        held[u] = held.get(u, 0) + 1

    def remove(self, u: Mana) -> bool:
        held = self.by_line.get((u.type, u.source), {})
        if held.get(u, 0) <= 0:
            return False
        held[u] -= 1
        return True

    def named(self, mtype: str, source: str) -> list:
        """The kinds of unit of this type from this source still in the pool."""
        return [u for u, n in self.by_line.get((mtype, source), {}).items() if n > 0]

    def units(self) -> list:
        return [u for held in self.by_line.values() for u, n in held.items() for _ in range(n)]


def _tapped_for(mtype: str, snow: bool, source: str) -> Mana:
    """The unrestricted mana a permanent taps for (one value per kind and source)."""
    key = (mtype, snow, source)
    unit = _TAPPED_FOR.get(key)
    if unit is None:
        if len(_TAPPED_FOR) > 4096:
            _TAPPED_FOR.clear()
        unit = _TAPPED_FOR[key] = Mana(mtype, snow, source=source)
    return unit


_TAPPED_FOR: dict = {}


#: the rule of each keyword that taps a permanent to pay a spell's cost
_KEYWORD_RULE: dict[int | str, str] = {CONVOKE: "CR 702.51a", IMPROVISE: "CR 702.126a"}


class _Where:
    """Names a step in an error ("step 2 (l1, ability 0)"), written only when one is."""

    __slots__ = ("i", "step")

    def __init__(self, i: int, step: Step):
        self.i, self.step = i, step

    def __str__(self) -> str:
        return f"step {self.i + 1} ({self.step.permanent}, ability {self.step.ability})"


def _take_unit(pool: _Pool, line: PaymentLine, need, for_spell: bool, where: str, any_color: bool = False) -> None:
    """Spend the mana a payment line names. A line names a type and a source; where the
    source made units of that type with different restrictions (its own restricted mana,
    a trigger's unrestricted mana), the most restricted one that may pay is spent: any
    payment the others allow, it allows too. ``any_color``: the player may spend mana as
    though it were mana of any color (CR 609.4b)."""
    named = pool.named(line.mana, line.source)
    able = [u for u in named if u.can_pay(need, for_spell, any_color)]
    if able:
        pool.remove(able[0] if len(able) == 1 else min(able, key=lambda u: (not u.generic_only, not u.spell_only)))
        return
    if named:  # the wrong type for the symbol (CR 107.4), or mana whose restriction forbids it (106.6)
        rule = "CR 106.6" if any(Mana(u.type).can_pay(need, for_spell, any_color) for u in named) else "CR 107.4"
        raise PlanRejected(f"{where}: {line.mana} from {line.source} may not pay {line.symbol}", rule)
    raise PlanRejected(f"{where}: there is no {line.mana} from {line.source} in the pool", "CR 601.2h")


def _pay_symbols(symbols, lines, pool, life_left, for_spell, where, any_color=False) -> int:
    """Check that ``lines`` pay ``symbols`` in order (each line one mana, or life; lines
    of a symbol with a choice say which half in ``as``); return the life paid."""
    lines = list(lines)
    life = 0
    for sym in symbols:
        options = sym.payment_options(0)
        if not lines or lines[0].symbol != sym:
            raise PlanRejected(f"{where}: nothing pays {sym}", "CR 601.2h")
        first = lines[0]
        if first.life:
            lines.pop(0)
            opts = [o for o in options if o.life]
            if not opts or first.life != opts[0].life or first.mana:
                raise PlanRejected(f"{where}: {sym} can't be paid with {first.life} life", "CR 107.4f")
            if life + opts[0].life > life_left:
                raise PlanRejected(f"{where}: not enough life to pay {sym} (CR 119.4)", "CR 119.4")
            life += opts[0].life
            continue
        label = first.half or options[0].label
        opts = [o for o in options if o.label == label and not o.life]
        if not opts:
            raise PlanRejected(f"{where}: {sym} has no half {label!r}", "CR 107.4")
        for need in opts[0].needs:
            if not lines or lines[0].symbol != sym or lines[0].life:
                raise PlanRejected(f"{where}: too little mana pays {sym}", "CR 601.2h")
            _take_unit(pool, lines.pop(0), need, for_spell, where, any_color)
    if lines:
        raise PlanRejected(f"{where}: payment line for {lines[0].symbol} pays nothing in the cost", "CR 601.2h")
    return life


def _counted_now(board, pid: str, index: int, sacrificed: list):
    """A counting ability (Gaea's Cradle, Nykthos) as it resolves now: its amount
    counted on the board given, without what has been sacrificed (CR 700.5); None for
    any other ability."""
    source = board.counted_from
    if source is None:
        return None
    original = next((q for q in source.permanents if q.id == pid), None)
    if original is None or not original.abilities[index].output.per:
        return None
    ability = original.abilities[index]
    return replace(ability, output=source.live_output(original, ability, set(sacrificed)))


def _output_ok(ability, added: tuple, times: int = 1) -> bool:
    """Whether one activation may add ``added`` (mana types; ``times`` as much under
    replacement effects such as Mana Reflection, CR 106.12b)."""
    out = ability.output
    if times == 1 and len(added) == 1 and not out.combination:  # most abilities: one mana of one type
        return tuple(added) in out.alternatives
    adds = Counter(added)
    if out.combination:
        return (sum(adds.values()) == out.combination * times and all(t in out.combination_types for t in adds)
                and all(n % times == 0 for n in adds.values()))
    return any(Counter({t: n * times for t, n in Counter(a).items()}) == adds for a in out.alternatives)


def _replay_plain_tap(step: Step, pid: str, p, added: tuple, tapped: set, where) -> None:
    """A step activating ability ``step.ability`` of the permanent ``pid`` (``p``, its
    body), one of its :attr:`~manaplan.model.board.Permanent.plain_taps` ({T}: add one
    mana): the permanent is untapped and, if a creature, not summoning sick (CR 302.6);
    the mana added is one the ability makes; the step says it taps, and nothing else."""
    if pid in tapped:
        raise PlanRejected(f"{where}: {pid} is already tapped", "CR 107.5")
    if p.creature and p.summoning_sick:
        raise PlanRejected(f"{where}: {pid} is summoning sick (CR 302.6)", "CR 302.6")
    tapped.add(pid)
    if not _output_ok(p.abilities[step.ability], added):
        raise PlanRejected(f"{where}: this ability can't add {format_types(step.adds) or 'nothing'}", "CR 106.3")
    if (step.taps, step.sacrifices, step.exiles) != (True, False, False):
        raise PlanRejected(f"{where}: the step says it taps {step.taps}, sacrifices {step.sacrifices}, exiles "
                           f"{step.exiles}; the replay: True, False, False", "CR 602.2b")
    if step.life or step.damage or step.energy or step.given_by:
        raise PlanRejected(f"{where}: the step's life, damage, energy or giver don't match the ability's", "CR 602.2b")


def _replay_triggers(step: Step, triggers: tuple, p, ability, made: tuple, gone: list, where: str) -> list:
    """The mana the step's triggered mana abilities add (CR 605.1b, 605.4a): exactly the
    triggers this activation sets off, each once, each adding one of its choices; a
    source already sacrificed (``gone``) triggers nothing (603.10)."""
    fired = {(src.id, i): (src, t) for src, i, t in triggers
             if not t.multiply and src.id not in gone and ability is not None and t.sets_off(p, ability, made, src)}
    listed = step.triggered
    keys = [(line.permanent, line.trigger) for line in listed]
    if sorted(keys, key=repr) != sorted(fired, key=repr):
        raise PlanRejected(f"{where}: the triggered mana abilities listed {keys} are not the ones this activation sets "
                      f"off {sorted(fired, key=repr)} (CR 605.4a)", "CR 605.4a")
    units = []
    for line, key in zip(listed, keys):
        src, trigger = fired[key]
        adds = Counter(line.adds)
        if not any(Counter(c) == adds for c in trigger.choices(made)):
            raise PlanRejected(f"{where}: the trigger of {src.id} can't add {format_types(line.adds)}", "CR 605.4a")
        units += [Mana(t, src.snow, False, False, False, src.id) for t in adds.elements()]
    return units


def _with_chosen_kicks(problem: PaymentProblem, plan: Plan) -> PaymentProblem:
    """The problem with the kicker and kicks the plan chose, which must be choices the
    question left open or the ones it fixed (CR 702.33)."""
    spell = problem.spell
    refused = spell.kicks_refused(plan.kicked, plan.kicks)
    if refused:
        raise PlanRejected(f"spell: {refused}", "CR 702.33")
    if (plan.kicked is None) != (spell.kicker is None) or (plan.kicks is None) != (spell.multikicker is None):
        raise PlanRejected("spell: the plan doesn't say how it was kicked", "CR 702.33")
    if spell.kicker is None and spell.multikicker is None:
        return problem
    return problem.with_kicks(bool(plan.kicked), plan.kicks or 0)


def validate_plan(problem: PaymentProblem, plan: Plan) -> list:
    """Replay ``plan`` against ``problem``: a list of errors, empty when it is legal. A
    plan that announces X (a ``max_x`` answer) is replayed with that X, and one that
    chose a kicker and kicks with them (CR 601.2b, 702.33)."""
    return [str(e) for e in judge_plan(problem, plan)[0]]


def judge_plan(problem: PaymentProblem, plan: Plan, floating_given: bool = True, steps_only: bool = False) -> tuple:
    """:func:`validate_plan`, as ``(violations, floating)``: the rules broken, as
    :class:`~manaplan.model.errors.PlanRejected` values with their rule and step (the
    first illegal step's alone, or each way the summary differs from the replay), and the
    mana left in the pool. ``floating_given`` False: the plan does not say what floats
    (another engine's plan read by the referee), and whatever its payment leaves is.
    ``steps_only``: the steps alone are replayed (the referee looks for a step breaking
    a rule before a payment it can't read)."""
    try:
        if plan.x is not None and problem.query != MAX_X and not steps_only:
            raise PlanRejected(f"spell: the plan announces X={plan.x}, but the question fixed X={problem.spell.cost.x}",
                               "CR 601.2b")
        if not steps_only:
            problem = _with_chosen_kicks(problem, plan)
        table = _Table(problem if plan.x is None else problem.with_x(plan.x))
        for i, step in enumerate(plan.steps):
            if i % CLOCK_EVERY == CLOCK_EVERY - 1:
                check_clock()  # (a plan of many steps: its time guard held while it is judged)
            try:
                table.step(i, step)
            except PlanRejected as e:
                e.step = i
                raise
        if steps_only:
            return [], tuple(table.pool.units())
        table.pay_spell(plan, floating_given)
        return table.summary_errors(plan, floating_given), tuple(table.pool.units())
    except PlanRejected as e:
        return [e], ()
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        return [PlanRejected(f"malformed plan: {e!r}")], ()


class _Table:
    """What a judge keeps track of while a plan is replayed (the pool, what is tapped and
    sacrificed, the life paid and damage taken, the cards exiled, the energy and
    counters spent), and one method for each rule a step must follow."""

    def __init__(self, problem: PaymentProblem):
        self.problem, self.spell = problem, problem.spell
        self.find = problem.board.find  # (a twin made for each id the plan names, not the whole board)
        self.body = problem.board.body
        self.triggers = board_triggers(problem.board)
        self.pool = _Pool(problem.player.pool)
        self.tapped = set(problem.board.tapped_ids)
        self.tapped_now: list[str] = []
        self.sacrificed: list[str] = []
        self.tapped_for_cost: list[str] = []
        self.life_paid = self.damage = self.exiled = self.energy = 0
        self.later_damage = 0  # a trigger's (City of Brass): dealt after the spell is cast (CR 603.3)
        self.board = problem.board
        self.counters_used: dict = {}
        # nothing on the board reacts to an activation or counts the board: a step that taps
        # a permanent for one mana by its own {T} ability is replayed briefly
        self.brief = not self.triggers and problem.board.counted_from is None

    @property
    def any_color(self) -> bool:
        """Whether mana may now be spent as though it were any color (CR 609.4b): a
        permanent that allows it is still there (CR 611.3a)."""
        return self.board.any_color_spending_without(self.sacrificed)

    # -- one step ---------------------------------------------------------------------
    def step(self, i: int, step: Step) -> None:
        """Replay one step: what it does to its permanent (or the graveyard), checked by
        the rule of what it is, then the mana it adds, its triggers' too."""
        where = _Where(i, step)
        pid, index = step.permanent, step.ability
        if step.before_casting and not isinstance(index, int):
            raise PlanRejected(f"{where}: only an ability is activated before casting", "CR 601.2g")
        if index == DELVE:
            done = self._delve(step, where)
        else:
            body = self.body(pid)  # (what it is, under any id: no twin made for a plain tap)
            if body is None:
                raise PlanRejected(f"{where}: no permanent {pid!r}", "CR 602.2")
            if pid in self.sacrificed:
                raise PlanRejected(f"{where}: {pid} was already sacrificed", "CR 400.7")
            if self.brief and index in body.plain_taps and not (step.payment or step.via or step.co_taps
                                                                or step.triggered or step.before_casting):
                _replay_plain_tap(step, pid, body, tuple(step.adds), self.tapped, where)  # CR 605.3a: {T}, one mana
                self.tapped_now.append(pid)
                self.pool.add(_tapped_for(step.adds[0], body.snow, pid))
                return
            p = self.find(pid)
            if index in (CONVOKE, IMPROVISE):
                done = self._tap_for_cost(step, p, where)
            else:
                done = self._activate(step, p, where)
        self._add(step, done, where)

    def _delve(self, step: Step, where) -> _Done:
        """CR 702.66: a card of the graveyard exiled pays one generic mana of a spell with
        delve."""
        if step.permanent != GRAVEYARD or not self.spell.delve or self.exiled >= self.problem.player.graveyard:
            raise PlanRejected(f"{where}: no card left to exile for delve", "CR 702.66a")
        self.exiled += 1
        if tuple(step.adds) != ("C",) or step.payment:
            raise PlanRejected(f"{where}: delve pays one generic mana", "CR 702.66a")
        return _Done(exiles=True, spell_only=True, generic_only=True, keyword=True)

    def _tap_for_cost(self, step: Step, p, where) -> _Done:
        """CR 702.51a, 702.126a: an untapped creature convokes (one mana of one of its
        colors, or generic), an untapped artifact improvises (generic)."""
        index, pid = step.ability, p.id
        if not (self.spell.convoke if index == CONVOKE else self.spell.improvise):
            raise PlanRejected(f"{where}: the spell doesn't have {index}", _KEYWORD_RULE[index])
        if index == CONVOKE and not p.creature:
            raise PlanRejected(f"{where}: only creatures convoke (CR 702.51a)", "CR 702.51a")
        if index == IMPROVISE and not p.artifact:
            raise PlanRejected(f"{where}: only artifacts improvise (CR 702.126a)", "CR 702.126a")
        if pid in self.tapped:
            raise PlanRejected(f"{where}: {pid} is already tapped", _KEYWORD_RULE[index])
        self.tapped.add(pid)
        self.tapped_now.append(pid)
        self.tapped_for_cost.append(pid)
        colors = [c for c in COLORS if c in p.colors] if index == CONVOKE else []
        allowed = [Counter(c) for c in colors] + [Counter("C")]  # {C}: it pays generic mana (any creature may)
        if Counter(step.adds) not in allowed or step.payment:
            raise PlanRejected(f"{where}: {index} can't pay with {format_types(step.adds) or 'nothing'}",
                               _KEYWORD_RULE[index])
        return _Done(taps=True, spell_only=True, generic_only=tuple(step.adds) == ("C",), keyword=True)

    def _activate(self, step: Step, p, where) -> _Done:
        """A mana ability (or, before casting, another ability that makes mana) activated
        by paying its whole cost now (CR 602.2b, 605.3)."""
        pid, index = p.id, step.ability
        if not isinstance(index, int) or not 0 <= index < len(p.abilities):
            raise PlanRejected(f"{where}: {pid} has no ability {index!r}", "CR 602.2")
        ability = p.abilities[index]
        if not ability.usable_mid_cast and (self.problem.mid_cast or not step.before_casting):
            raise PlanRejected(f"{where}: this ability can't be activated while casting a spell (CR 601.2g)", "CR 601.2g")
        if step.before_casting and ability.usable_mid_cast:
            raise PlanRejected(f"{where}: a mana ability usable while casting is not marked before casting", "CR 601.2g")
        other = ability.cost.sacrifice_other or ability.cost.tap_other
        if other and not ability.through:  # (the ability had through the permanent it takes names it)
            raise PlanRejected(f"{where}: its cost {'sacrifices' if ability.cost.sacrifice_other else 'taps'} "
                               f"{other}: the step must say which (its 'sacrifices' or 'taps')", "CR 602.2b")
        done = self._pay_ability_cost(step, p, ability, where)
        host, host_ability, snow = acting(self.problem.board, p, ability)  # an altar makes the mana
        self._check_host(step, p, ability, host, host_ability, where)
        self._check_output(step, p, ability, host, host_ability, where)
        done.ability, done.snow, done.maker = ability, snow, host.id
        if ability.restrict:  # CR 106.6
            if not self.spell.allows(ability.restrict):  # abilities only (Powerstone's, for a nonartifact
                done.ability_only = True  # spell); or nothing at all, where abilities can't either (it can
                done.spell_only = ability.restrict_abilities  # still be doubled: Doubling Cube)
            else:
                done.spell_only = ability.restrict_abilities
        return done

    def _pay_ability_cost(self, step: Step, p, ability, where) -> _Done:
        """The ability's cost, part by part: {T} (an untapped permanent, not summoning
        sick: CR 302.6), counters, mana from the pool now (605.3), life while the total
        covers it (118.3), energy (107.14), the sacrifice."""
        pid, cost = p.id, ability.cost
        done = _Done(life=cost.life, damage=ability.damage + ability.trigger_damage)
        if cost.untap:
            raise PlanRejected(f"{where}: {{Q}} costs are not supported", "")
        if cost.tap:
            if pid in self.tapped:
                raise PlanRejected(f"{where}: {pid} is already tapped", "CR 107.5")
            if p.creature and p.summoning_sick and not cost.by_other:  # another's cost taps it: allowed
                raise PlanRejected(f"{where}: {pid} is summoning sick (CR 302.6)", "CR 302.6")
            self.tapped.add(pid)
            self.tapped_now.append(pid)
            done.taps = True
        if cost.counters:
            key = (pid, cost.counter_kind)
            self.counters_used[key] = self.counters_used.get(key, 0) + cost.counters
            if self.counters_used[key] > p.counter(cost.counter_kind):
                raise PlanRejected(f"{where}: no {cost.counter_kind} counter left on {pid}", "CR 118.3")
        life_total = self.problem.player.life
        if cost.mana.symbols or step.payment:
            self.life_paid += _pay_symbols(cost.mana.symbols, step.payment, self.pool,
                                           life_total - self.life_paid - self.damage, False, where, self.any_color)
        if cost.life and self.life_paid + self.damage + cost.life > life_total:
            raise PlanRejected(f"{where}: not enough life to pay {cost.life} after {self.life_paid} life paid and "
                               f"{self.damage} damage (CR 119.4)", "CR 119.4")
        self.life_paid += cost.life
        self.damage += ability.damage
        self.later_damage += ability.trigger_damage
        self.energy += cost.energy
        if self.energy > self.problem.player.energy:
            raise PlanRejected(f"{where}: {self.energy} energy paid, the player has {self.problem.player.energy}", "CR 107.14")
        if step.energy != cost.energy:
            raise PlanRejected(f"{where}: the step pays {step.energy} energy, the cost {cost.energy}", "CR 602.2b")
        if cost.sacrifice:
            if pid in self.problem.prefer.never_sacrifice:
                raise PlanRejected(f"{where}: the request never sacrifices {pid} (prefer)", "prefer.never_sacrifice")
            self.sacrificed.append(pid)
            done.sacrifices = True
        return done

    def _check_host(self, step: Step, p, ability, host, host_ability, where) -> None:
        """An ability given by another permanent (Chromatic Lantern) or had through one
        (an altar's "Sacrifice a creature") says so; an altar already sacrificed makes
        nothing; one whose ability taps it too (Springleaf Drum) is tapped (CR 302.6)."""
        through, given = ability.through, ability.given_by
        if step.given_by != given:
            raise PlanRejected(f"{where}: the step says {step.given_by or 'no permanent'} gives this ability, "
                               f"the board: {given or 'its own'}", "CR 602.2b")
        if tuple(step.via) != through:
            raise PlanRejected(f"{where}: the step says it is activated through {step.via}, the ability "
                               f"{through or 'its own'}", "CR 602.2b")
        if through and host.id != p.id and host.id in self.sacrificed:
            raise PlanRejected(f"{where}: {host.id}, whose ability this is, was already sacrificed", "CR 400.7")
        if step.co_taps != bool(through and host_ability.cost.tap):
            raise PlanRejected(f"{where}: the step says it taps {step.via[:1]}: {step.co_taps}; the ability: "
                               f"{bool(through and host_ability.cost.tap)}", "CR 602.2b")
        if step.co_taps:  # its ability taps its own permanent too (Springleaf Drum, Phyrexian Tower)
            if host.id in self.tapped:
                raise PlanRejected(f"{where}: {host.id} is already tapped", "CR 107.5")
            if host.creature and host.summoning_sick:
                raise PlanRejected(f"{where}: {host.id} is summoning sick (CR 302.6)", "CR 302.6")
            self.tapped.add(host.id)
            self.tapped_now.append(host.id)

    def _check_output(self, step: Step, p, ability, host, host_ability, where) -> None:
        """What the step adds is what the ability makes now: a doubling, as much of each
        type as is unspent (CR 701.9f); a count, on the board left by the sacrifices so far
        (700.5); under replacement effects, that many times (106.12b)."""
        added = tuple(step.adds)
        if ability.output.doubles:  # CR 701.9f: as much of each type as is unspent now
            if self.triggers:
                raise PlanRejected(f"{where}: a doubling on a board with triggered mana is not modelled", "")
            held = Counter(u.type for u in self.pool.units() if not u.keyword)
            if Counter(added) != held:
                raise PlanRejected(f"{where}: doubling adds {format_mana(Mana(t) for t in held.elements())}, "
                                   f"not {step.adds}", "CR 701.9f")
            return
        live = tuple(tr for tr in self.triggers if tr[0].id not in self.sacrificed) if self.triggers else ()
        assert isinstance(step.ability, int)  # (an ability's index: _activate checked it)
        counted = _counted_now(self.problem.board, p.id, step.ability, self.sacrificed)
        times = multiplier(live, host, host_ability) if live else 1
        if not _output_ok(counted or ability, added, times):
            now = ability_now(self.problem, p, ability, set(self.sacrificed))  # (read as if the permanents that
            if now is None or not _output_ok(now, added, times):             # may be sacrificed were gone)
                if times > 1:  # (the effect that multiplies it named, not only the ability)
                    makers = sorted({tr[0].id for tr in live if tr[2].multiply})
                    raise PlanRejected(f"{where}: this ability adds {times} times as much here ("
                                       f"{', '.join(makers)}: a replacement effect, CR 106.12b), not "
                                       f"{format_types(step.adds) or 'nothing'}", "CR 106.12b")
                raise PlanRejected(f"{where}: this ability can't add {format_types(step.adds) or 'nothing'}",
                                   "CR 106.3")

    def _add(self, step: Step, done: _Done, where) -> None:
        """The step's summary matches what it did; its mana joins the pool, and what the
        triggers it sets off add (CR 605.4a)."""
        if (step.taps, step.sacrifices, step.exiles) != (done.taps, done.sacrifices, done.exiles):
            raise PlanRejected(f"{where}: the step says it taps {step.taps}, sacrifices {step.sacrifices}, exiles "
                               f"{step.exiles}; the replay: {done.taps}, {done.sacrifices}, {done.exiles}", "CR 602.2b")
        if step.life != done.life or step.damage != done.damage:
            raise PlanRejected(f"{where}: the step's life and damage don't match the ability's", "CR 602.2b")
        for t in step.adds:
            self.pool.add(Mana(t, done.snow, done.spell_only, done.generic_only, done.ability_only,
                               done.maker or step.permanent, done.keyword))
        if self.triggers or step.triggered:
            p = self.find(step.permanent)
            host, host_ability = (p, None) if done.ability is None else acting(self.problem.board, p, done.ability)[:2]
            for u in _replay_triggers(step, self.triggers, host, host_ability, tuple(step.adds), self.sacrificed,
                                      where):
                self.pool.add(u)

    # -- the spell, and the summary -----------------------------------------------------
    def pay_spell(self, plan: Plan, floating_given: bool = True) -> None:
        """The total cost, recomputed from the announcements (CR 601.2b, 601.2f), paid
        line by line from the pool (601.2h); convoke and improvise tap permanents after
        every mana ability, so none of them was sacrificed (601.2g-h). What the plan says
        floats is set aside first, where it says."""
        gone = sorted(set(self.tapped_for_cost) & set(self.sacrificed)) if self.tapped_for_cost and self.sacrificed \
            else ()
        if gone:
            raise PlanRejected(f"spell: {', '.join(gone)} can't convoke or improvise: sacrificed for mana first", "CR 601.2g")
        cost = self.spell.cost
        if [s for s, _ in plan.announced] != list(choice_symbols(cost.added_symbols)):
            raise PlanRejected("spell: the announcements don't match the cost's hybrid and Phyrexian symbols", "CR 601.2b")
        total = total_cost(cost, Announcement(tuple(h for _, h in plan.announced),
                                              tuple(h for _, h in plan.reduction_halves)))
        if total != plan.total_cost:
            raise PlanRejected(f"spell: the total cost is {total}, not {plan.total_cost}", "CR 601.2f")
        for u in plan.floating if floating_given else ():  # what the plan says stays in the pool is not spent
            if not self.pool.remove(u):
                raise PlanRejected(f"summary: floating {u.type} from {u.source} is not in the pool", "CR 106.4")
        self._pay_mana(plan, total)
        self._pay_life(plan, total)
        self._sacrifice_for_cost(plan)
        self._discard_for_cost(plan)

    def _discard_for_cost(self, plan: Plan) -> None:
        """The spell's additional costs that discard cards (CR 601.2h): cards of the hand,
        distinct, not the spell, not exiled from the hand for mana, of the kind."""
        if not self.spell.discards and not plan.cost_discarded:
            return  # (nothing to discard, nothing discarded)
        wanted = sum(c.count for c in self.spell.discards)
        if len(plan.cost_discarded) != wanted or len(set(plan.cost_discarded)) != wanted:
            raise PlanRejected(f"spell: its additional cost discards {wanted} card(s), the plan "
                               f"{len(plan.cost_discarded)}", "CR 601.2h")
        hand = {c.id: c for c in self.problem.hand if c.id != self.spell.id}
        for cid in plan.cost_discarded:
            if cid not in hand:
                raise PlanRejected(f"spell: {cid!r} is not a card of the hand besides the spell", "CR 601.2h")
            if cid in self.sacrificed:
                raise PlanRejected(f"spell: {cid} was exiled from the hand for mana, it can't be discarded too", "CR 601.2h")
            kinds = {c.kind for c in self.spell.discards}
            if "card" not in kinds and not any(k.split()[0].capitalize() in hand[cid].type_line for k in kinds):
                raise PlanRejected(f"spell: {cid} is not {' or '.join(kinds)}", "CR 601.2h")

    def _sacrifice_for_cost(self, plan: Plan) -> None:
        """The spell's additional costs that sacrifice a permanent (CR 601.2h): one
        permanent of the kind each, on the battlefield and not sacrificed for mana."""
        wanted = self.spell.sacrifices
        if not wanted and not plan.cost_sacrificed:
            return  # (nothing to sacrifice, nothing sacrificed)
        if len(plan.cost_sacrificed) != sum(c.count for c in wanted):
            raise PlanRejected(f"spell: its additional cost sacrifices {sum(c.count for c in wanted)} permanent(s), "
                               f"the plan {len(plan.cost_sacrificed)}", "CR 601.2h")
        ids = list(plan.cost_sacrificed)
        for cost in wanted:
            for _ in range(cost.count):
                pid = ids.pop(0)
                p = self.board.find(pid)
                if p is None:
                    raise PlanRejected(f"spell: no permanent {pid!r} to sacrifice", "CR 601.2h")
                if pid in self.sacrificed:
                    raise PlanRejected(f"spell: {pid} was sacrificed already", "CR 400.7")
                if not any(p.is_a(kind) for kind in cost.kinds):
                    raise PlanRejected(f"spell: {pid} is not {' or '.join(cost.kinds)}: {cost.text}", "CR 601.2h")
                self.sacrificed.append(pid)

    def _pay_mana(self, plan: Plan, total) -> None:
        """Each line of the spell's payment one mana that may pay its symbol, the lines
        covering the total exactly."""
        need_lines: dict = {}
        any_color = self.any_color  # (nothing leaves the battlefield while the spell is paid)
        for line in plan.payment:
            if line.life:
                continue
            sym = line.symbol
            if sym.kind == GENERIC:
                need = ANY
            elif sym.kind == SNOW:
                need = SNOW_ANY
            elif sym.kind in (COLORED, COLORLESS):
                need = need_of(sym.colors[0])
            else:
                raise PlanRejected(f"spell: {sym} is not a symbol of a locked-in total cost", "CR 601.2f")
            need_lines[need] = need_lines.get(need, 0) + 1
            _take_unit(self.pool, line, need, True, "spell", any_color)
        expected = {need_of(t): n for t, n in zip(MANA_TYPES, total.typed) if n}
        if total.generic:
            expected[ANY] = total.generic
        if total.snow:
            expected[SNOW_ANY] = total.snow
        if expected != need_lines:  # (each need counted there was paid by a line: none is 0)
            raise PlanRejected(f"spell: the payment lines don't cover {total} exactly", "CR 601.2h")

    def _pay_life(self, plan: Plan, total) -> None:
        """The spell's Phyrexian symbols announced as life cost 2 each (CR 107.4f), paid
        after every mana ability while the total covers it (601.2g-h, 118.3)."""
        life_lines = [line for line in plan.payment if line.life]
        if not life_lines and not total.life_symbols:
            self.life_paid += self.damage + self.later_damage
            return  # (no Phyrexian symbol paid with life)
        if sorted(str(line.symbol) for line in life_lines) != sorted(str(s) for s in total.life_symbols):
            raise PlanRejected("spell: life payments don't match the symbols announced as life", "CR 107.4f")
        spell_life = 0
        for line in life_lines:
            if line.life != 2 or line.mana:
                raise PlanRejected("spell: a Phyrexian symbol costs 2 life (CR 107.4f)", "CR 107.4f")
            spell_life += 2
        life_total = self.problem.player.life
        if spell_life and self.life_paid + self.damage + spell_life > life_total:
            raise PlanRejected(f"spell: {spell_life} life can't be paid after {self.life_paid} life paid and "
                               f"{self.damage} damage from {life_total} (CR 119.4)", "CR 119.4")
        self.life_paid += spell_life + self.damage + self.later_damage

    def summary_errors(self, plan: Plan, floating_given: bool = True) -> list:
        """What the plan says it did (tapped, sacrificed, life, what floats) is what the
        replay saw: each difference, as a PlanRejected (the costs paid: CR 601.2h; what
        floats: 106.4)."""
        errors = []
        if sorted(plan.tapped) != sorted(self.tapped_now):
            errors.append(PlanRejected(f"summary: tapped {sorted(plan.tapped)}, replay tapped {sorted(self.tapped_now)}",
                                       "CR 601.2h"))
        if sorted(plan.sacrificed) != sorted(self.sacrificed):
            errors.append(PlanRejected(f"summary: sacrificed {sorted(plan.sacrificed)}, replay {sorted(self.sacrificed)}",
                                       "CR 601.2h"))
        if plan.life_paid != self.life_paid:
            errors.append(PlanRejected(f"summary: life_paid {plan.life_paid}, replay {self.life_paid}", "CR 601.2h"))
        if floating_given and self.pool.units():
            errors.append(PlanRejected(f"summary: floating {format_mana(plan.floating)}, but the replay leaves "
                                       f"{format_mana(self.pool.units())} unspent besides", "CR 106.4"))
        return errors


#: how many steps are replayed between looks at the clock
CLOCK_EVERY = 2048


class _Done:
    """What one step did, as the replay found it: tapped, sacrificed, exiled, the life
    and damage of its cost, and the kind of mana it adds (its restrictions, its maker)."""

    __slots__ = ("taps", "sacrifices", "exiles", "life", "damage", "snow", "spell_only", "generic_only",
                 "ability_only", "keyword", "ability", "maker")

    def __init__(self, taps=False, sacrifices=False, exiles=False, life=0, damage=0, spell_only=False,
                 generic_only=False, keyword=False):
        self.taps, self.sacrifices, self.exiles, self.life, self.damage = taps, sacrifices, exiles, life, damage
        self.snow, self.spell_only, self.generic_only, self.ability_only = False, spell_only, generic_only, False
        self.keyword, self.ability, self.maker = keyword, None, ""
