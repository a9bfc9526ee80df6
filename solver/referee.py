"""The referee: another engine's answer to "can I pay this, and how?" judged by the rules
(the ``check`` query, docs/protocol.md).

A written plan (``model.written_plan``) is first completed from the board, in short
steps each stating its rule: which ability each step used and what its cost does
(:func:`plan_of_written`), which hybrid, twobrid and Phyrexian halves the payment
announces (CR 601.2b, :func:`announced_by_payment`). The plan is then replayed by the
independent validator (``solver.checks.validator``): the first illegal step, with the
rule it breaks. A legal plan is set beside the optimum manaplan proves under the
default objective (or the request's ``prefer``), term by term, in words. A claim that
the spell can't be paid is held to the optimum too: a counter-example plan when it can.

>>> from manaplan.api import solve
>>> request = {"query": "check", "spell": {"mana_cost": "{G}"},
...            "permanents": [{"id": "f", "type_line": "Basic Land — Forest"},
...                           {"id": "g", "type_line": "Basic Land — Forest"}],
...            "plan": {"steps": [{"permanent": "f", "adds": "{G}"}, {"permanent": "g", "adds": "{G}"}],
...                     "payment": [{"symbol": "{G}", "mana": "G", "from": "f"}]}}
>>> answer = solve(request)
>>> answer["verdict"], answer["differences"]
('suboptimal', ['taps 1 permanent more than needed', 'leaves {G} floating (the optimum leaves none)'])
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from manaplan.model.cost import Announcement, SpellCost, choice_symbols, count_announcements, all_announcements, total_cost
from manaplan.model.dependent_mana import acting
from manaplan.model.errors import ManaplanError, PlanRejected, RequestError
from manaplan.model.mana import format_types
from manaplan.model.plan import (CONVOKE, DELVE, GRAVEYARD, IMPROVISE, PaymentLine, Plan, Step, TriggeredMana, Undecided,
                                 plans_of_up_to,
                                 Unpayable)
from manaplan.model.problem import IF_POSSIBLE, MOST, OBJECTIVE_TERMS, PAY, PaymentProblem
from manaplan.model.symbols import (COLORED, COLORLESS, GENERIC, GENERIC_HALF, LIFE_HALF, SNOW, TWOBRID, VARIABLE,
                                    Symbol)
from manaplan.model.triggers import board_triggers, multiplier
from manaplan.model.written_plan import CANT_PAY, WrittenPlan, WrittenStep
from manaplan.solver.checks.validator import judge_plan
from manaplan.solver.one_spell import plan_terms
from manaplan.solver.search import Budget

#: verdicts (the answer's ``verdict``)
OPTIMAL, SUBOPTIMAL, ILLEGAL = "optimal", "suboptimal", "illegal"
RIGHT_NO, WRONG_NO, UNKNOWN = "right_no", "wrong_no", "unknown"
#: the most announcements tried to read a payment's halves (a cost of a dozen hybrid
#: symbols has thousands); past it the plan must say them in ``announced``
MOST_ANNOUNCEMENTS_TRIED = 4096


@dataclass(frozen=True)
class Checked:
    """The referee's finding. ``verdict`` is one of OPTIMAL, SUBOPTIMAL, ILLEGAL (the
    written plan), RIGHT_NO, WRONG_NO (the claim "can't be paid"), UNKNOWN (the time
    guard ran out, or text that could matter was not read); ``truth`` is manaplan's own
    answer to the ``pay`` question (a Plan, Unpayable or Undecided); ``violation`` the
    first rule the plan breaks; ``replayed`` whether the replay found the plan legal;
    ``terms`` and ``optimum`` the objective's terms of the plan and of manaplan's plan;
    ``differences`` in words; ``plan`` the written plan completed, as judged."""

    verdict: str
    truth: object
    violation: PlanRejected | None = None
    terms: dict | None = None
    optimum: dict | None = None
    proven: bool = False
    lethal: bool = False
    differences: tuple = ()
    plan: Plan | None = None
    replayed: bool = False

    @property
    def legal(self) -> bool | None:
        if self.verdict in (OPTIMAL, SUBOPTIMAL) or self.replayed:
            return True
        return False if self.verdict == ILLEGAL else None

    @property
    def payable(self) -> bool | None:
        if isinstance(self.truth, Plan) or self.legal:
            return True
        return False if isinstance(self.truth, Unpayable) else None

    @property
    def better(self) -> Plan | None:
        """manaplan's plan, where it shows the answer wrong: the optimum beside a worse
        plan, the counter-example to a wrong "can't be paid"."""
        if self.verdict in (SUBOPTIMAL, WRONG_NO) or self.verdict == ILLEGAL and isinstance(self.truth, Plan):
            assert isinstance(self.truth, Plan)  # (a worse plan or a wrong no is judged beside manaplan's Plan)
            return self.truth
        return None


def undecided(truth) -> Checked:
    """The finding where no judging was done: the time guard ran out first (an
    :class:`Undecided` answer)."""
    return Checked(UNKNOWN, truth)


def check_answer(problem: PaymentProblem, budget: Budget, plain_path: bool = True) -> Checked:
    """The ``check`` query: ``problem.claim`` judged (see the module)."""
    from manaplan.solver.planner import pay_answer
    asked = replace(problem, query=PAY, claim=CANT_PAY)
    written_steps = 0 if problem.claim is CANT_PAY else len(problem.claim.steps)
    with plans_of_up_to(written_steps):  # (the optimum beside a plan as long as the one written)
        truth = pay_answer(asked, budget, plain_path)
    if problem.claim is CANT_PAY:
        if isinstance(truth, Plan):
            return Checked(WRONG_NO, truth)
        return Checked(RIGHT_NO if isinstance(truth, Unpayable) else UNKNOWN, truth)
    judged = asked.for_spell(asked.spell, PAY)
    plan, violation = completed_plan(judged, problem.claim)
    if violation is None:
        violations, floating = judge_plan(judged, plan, floating_given=False)
        if not violations:
            said_otherwise(problem.claim, plan, floating)  # (a summary its steps contradict: an error)
        violation = violations[0] if violations else None
        plan = replace(plan, floating=floating)
    elif violation.step is None:  # (the payment's fault: a step before it may break a rule first)
        earlier = [e for e in judge_plan(judged, plan, floating_given=False, steps_only=True)[0] if e.step is not None]
        violation = earlier[0] if earlier else violation
    if violation is not None:
        certain = violation.step is not None or not isinstance(truth, Undecided)
        return Checked(ILLEGAL if certain else UNKNOWN, truth, violation, plan=plan)
    terms = plan_terms(judged, plan)
    lethal = plan.is_lethal(problem.player.life)
    if not isinstance(truth, Plan):  # (a legal plan where manaplan found none in time, or read less)
        return Checked(UNKNOWN, truth, terms=terms, lethal=lethal, plan=plan, replayed=True)
    optimum = plan_terms(judged, truth)
    mine, best = (problem.prefer.rank(tuple(t.values())) for t in (terms, optimum))
    fewer_kicks = _fewer_kicks(problem.spell, plan, truth)
    worse = bool(fewer_kicks) or mine > best
    if not worse and not truth.optimal:
        return Checked(UNKNOWN, truth, terms=terms, optimum=optimum, lethal=lethal, plan=plan, replayed=True)
    words = fewer_kicks + differences(terms, optimum, plan, truth, problem.prefer.ranked) if worse else ()
    # a plan better than manaplan's shows manaplan's was no optimum (a count read without the permanents that
    # may be sacrificed, model.dependent_mana.MAY_MAKE_MORE): not proven, whatever the search said
    beaten = not worse and mine < best
    return Checked(SUBOPTIMAL if worse else OPTIMAL, truth, terms=terms, optimum=optimum,
                   proven=truth.optimal and not beaten, lethal=lethal, differences=words, plan=plan)


def _fewer_kicks(spell, plan: Plan, best: Plan) -> tuple:
    """Where the question left the kicks to the player as many as the board allows
    (``"if_possible"``, ``"max"``) and the plan kicks fewer than the optimum: that, in
    words (the question's choice comes before the objective, docs/protocol.md)."""
    out: tuple = ()
    if spell.kicker is not None and spell.kicked == IF_POSSIBLE and best.kicked and not plan.kicked:
        out += ("doesn't pay the kicker, which the board can pay (kicked: \"if_possible\")",)
    if spell.multikicker is not None and spell.kicks == MOST and (best.kicks or 0) > (plan.kicks or 0):
        out += (f"kicks {plan.kicks or 0} times where the board can pay {best.kicks} (kicks: \"max\")",)
    return out


# -- the written plan completed from the board ---------------------------------------

def completed_plan(problem: PaymentProblem, written: WrittenPlan) -> tuple:
    """(the :class:`Plan` the written one describes, a violation found while reading it
    or None): each step completed from its ability (:func:`step_of_written`), the
    spell's payment with its announcements (:func:`announced_by_payment`) and its
    kicks: those written, or those the question fixed, or (it left them to the player:
    ``"if_possible"``, ``"max"``) those whose total the payment pays (CR 702.33)."""
    read, violation = [], None
    for i, said in enumerate(written.steps):
        try:
            read.append(step_of_written(problem, said))
        except PlanRejected as e:
            e.step = i
            violation = violation or e
            read.append(Step(said.permanent, said.ability if said.ability is not None else 0, "", said.adds))
    steps = with_triggered_mana(problem, written, tuple(read))
    spell = problem.spell
    plan = Plan(steps, None, written.payment, x=None,  # (its total and kicks: below)
                cost_sacrificed=written.sacrificed_for_cost, cost_discarded=written.discarded_for_cost)
    if violation is not None:
        return plan, violation
    if written.x is not None and written.x != spell.cost.x:
        return plan, PlanRejected(f"spell: the plan announces X={written.x}, but the question fixed "
                                  f"X={spell.cost.x}", "CR 601.2b")
    kicks_said = _kicks_said(spell, written)
    if kicks_said is not None:
        return plan, kicks_said
    any_color = problem.board.any_color_spending_without(
        {s.permanent for s in steps if s.sacrifices})  # CR 609.4b (Chromatic Orrery), 611.3a
    first_error: tuple | None = None
    for kicked, kicks in _kick_choices(spell, written):
        cost = problem.with_kicks(bool(kicked), kicks or 0).spell.cost if (kicked or kicks) else spell.cost
        try:
            total, announced, halves, lines = announced_by_payment(cost, written, any_color)
        except PlanRejected as e:
            first_error = first_error or (e, kicked, kicks)
            continue
        plan = replace(plan, total_cost=total, announced=announced, reduction_halves=halves, payment=lines,
                       kicked=kicked, kicks=kicks)
        if written.total_cost is not None and not _same_total(written.total_cost, total):
            return plan, PlanRejected(f"spell: the plan says the total cost is {written.total_cost}; its "
                                      f"announcements make it {total}", "CR 601.2f")
        return plan, None
    assert first_error is not None  # (every choice failed: there is at least one, _kick_choices)
    error, kicked, kicks = first_error
    return replace(plan, kicked=kicked, kicks=kicks), error


def _kicks_said(spell, written: WrittenPlan) -> PlanRejected | None:
    """Where the plan's kicks contradict the spell or the question
    (:meth:`Spell.kicks_refused <manaplan.model.problem.Spell.kicks_refused>`, CR 702.33):
    found before any cost is worked out (a million kicks is refused at once)."""
    refused = spell.kicks_refused(written.kicked, written.kicks)
    return PlanRejected(f"spell: {refused}", "CR 702.33") if refused else None


#: the most multikicker counts tried where the plan doesn't say how many times it kicked
MOST_KICKS_TRIED = 64


def _kick_choices(spell, written: WrittenPlan) -> list:
    """(kicked, kicks) to try for the written plan: what it says, else what the question
    fixed, else each choice the player had (unkicked first)."""
    kicked_options: list[bool | None]
    kicks_options: list[int | None]
    if spell.kicker is None:
        kicked_options = [None]
    elif written.kicked is not None:
        kicked_options = [written.kicked]
    elif spell.kicked != IF_POSSIBLE:
        kicked_options = [bool(spell.kicked)]
    else:
        kicked_options = [False, True]
    if spell.multikicker is None:
        kicks_options = [None]
    elif written.kicks is not None:
        kicks_options = [written.kicks]
    elif spell.kicks != MOST:
        kicks_options = [spell.kicks]
    else:
        kicks_options = list(range(min(len(written.payment) + 1, MOST_KICKS_TRIED)))
    return [(k, n) for n in kicks_options for k in kicked_options]


def _same_total(text: str, total) -> bool:
    """Whether a total written as a mana string (``{G}{1}``, ``{1}{G}``) is ``total``'s
    mana: the string totalled as a cost is (its generic summed, its symbols in any order);
    one with a symbol that needs a choice or an X is no locked-in total."""
    try:
        cost = SpellCost.of(text)
        written = total_cost(cost, Announcement())
    except (ValueError, ManaplanError):
        return False
    return not any(s.kind == VARIABLE for s in cost.added_symbols) and \
        (written.generic, written.typed, written.snow) == (total.generic, total.typed, total.snow)


def step_of_written(problem: PaymentProblem, written: WrittenStep) -> Step:
    """The step the engine wrote, completed from the ability it used (CR 602.2b: its
    cost is paid whole): whether it taps, sacrifices or exiles, the life its cost and
    effect take, its energy, who gives it, through which altar or drum it is activated,
    and whether it can only be activated before casting (601.2g). What the engine said of
    these itself is kept, for the validator to compare. A step the board can't explain
    (no such permanent or ability) is kept as written: the validator names it."""
    index = written.ability
    if index == DELVE:
        return Step(GRAVEYARD, DELVE, "exile a card", written.adds, exiles=True)
    if index in (CONVOKE, IMPROVISE):
        return Step(written.permanent, index, index, written.adds, taps=True)
    pid = written.other or written.permanent
    p = problem.board.find(pid)
    if p is None:
        return Step(pid, index if index is not None else 0, "", written.adds, written.payment, written.triggered or ())
    if index is None or written.other:
        index = _ability_index(problem, p, written)
    assert isinstance(index, int)  # (the keyword steps, the only names, returned above)
    if written.other and index < 0:
        raise PlanRejected(f"step: {written.permanent} has no ability whose cost {written.other_is[:-1]}s "
                           f"{written.other}", "CR 602.2")
    if not 0 <= index < len(p.abilities):
        return Step(pid, index, "", written.adds, written.payment, written.triggered or ())
    ability = p.abilities[index]
    host, host_ability, _ = acting(problem.board, p, ability)
    through = ability.through
    before = written.before_casting
    if before is None:
        before = not ability.usable_mid_cast and not problem.mid_cast
    cost = ability.cost
    return Step(pid, index, ability.text, written.adds, _matched_to_cost(written.payment, cost.mana.symbols),
                written.triggered or (),  # (None, not written: with_triggered_mana reads the written plan)
                taps=cost.tap, sacrifices=cost.sacrifice,
                life=cost.life if written.life is None else written.life,
                damage=ability.damage + ability.trigger_damage if written.damage is None else written.damage,
                before_casting=before, via=through, co_taps=bool(through and host_ability.cost.tap),
                energy=cost.energy if written.energy is None else written.energy,
                given_by=ability.given_by if written.given_by is None else written.given_by)


def with_triggered_mana(problem: PaymentProblem, written: WrittenPlan, steps: tuple) -> tuple:
    """The steps, each whose triggered mana was not written given what its activation
    sets off (CR 605.4a: triggered mana abilities resolve at once, whether or not the
    mana is wanted): the triggers' choices of mana together such that each trigger's
    permanent made what the plan's lines spend from it, where some do (else each one's
    first). A step that lists its triggers (even none) is kept as written, for the
    validator to judge."""
    triggers = board_triggers(problem.board)
    if not triggers:
        return steps
    gone: set[str]
    fired, gone = [], set()  # (step index, trigger's permanent, trigger index, its choices)
    for i, (step, said) in enumerate(zip(steps, written.steps)):
        if said.triggered is None:
            fired += [(i,) + f for f in _fired(problem, triggers, step, gone)]
        if step.sacrifices:
            gone.add(step.permanent)
    chosen = _trigger_choices(fired, _spent_beyond_steps(written, steps, {f[1] for f in fired}))
    by_step: dict = {}  # (each step's fired triggers, found once: linear in the plan)
    for (j, source, index, _), choice in zip(fired, chosen):
        by_step.setdefault(j, []).append(TriggeredMana(source, index, tuple(choice)))
    out = []
    for i, step in enumerate(steps):
        if written.steps[i].triggered is None:
            step = replace(step, triggered=tuple(by_step.get(i, ())))
        out.append(step)
    return tuple(out)


def _spent_beyond_steps(written: WrittenPlan, steps: tuple, sources: set) -> Counter:
    """What the plan's lines spend from each trigger's permanent beyond what its own
    steps added: what its triggers must have made."""
    spent = Counter((line.source, line.mana) for line in written.payment if line.source in sources)
    spent.update((line.source, line.mana) for s in written.steps for line in s.payment if line.source in sources)
    for step in steps:
        maker = step.via[0] if step.via else step.permanent
        if maker in sources:
            spent.subtract((maker, t) for t in step.adds)
    return spent


#: the most combinations of triggered mana tried to match what a plan spends
MOST_TRIGGER_COMBINATIONS = 4096


def _trigger_choices(fired: list, wanted: Counter) -> list:
    """One choice for each fired trigger such that each permanent's triggers made at
    least what ``wanted`` says ((permanent, type) -> count); the first choices where no
    combination within the bound does. Triggers with one choice are counted once, the
    others searched depth first without recursion, one shared count changed and
    restored (linear in the plan where the triggers have no choice:)."""
    firsts = [choices[0] for *_, choices in fired]
    need = {k: n for k, n in wanted.items() if n > 0}
    if not need:
        return firsts
    made: Counter[tuple] = Counter()
    open_ones = []  # (index in fired, source, choices) of triggers with a choice
    for k, (_, source, _, choices) in enumerate(fired):
        if len(choices) == 1:
            made.update((source, t) for t in choices[0])
        else:
            open_ones.append((k, source, choices))
    if all(made[key] >= n for key, n in need.items()):
        return firsts
    picked = [0] * len(open_ones)
    depth, tried = 0, 0
    while 0 <= depth:  # (picked[d]: the next choice to try at depth d)
        if depth == len(open_ones):
            if all(made[key] >= n for key, n in need.items()):
                out = list(firsts)
                for (k, _, choices), c in zip(open_ones, picked):
                    out[k] = choices[c - 1]
                return out
            depth -= 1
            if depth >= 0:
                _, source, choices = open_ones[depth]
                made.subtract((source, t) for t in choices[picked[depth] - 1])
            continue
        tried += 1
        _, source, choices = open_ones[depth]
        if picked[depth] == len(choices) or tried > MOST_TRIGGER_COMBINATIONS:
            if tried > MOST_TRIGGER_COMBINATIONS:
                return firsts
            picked[depth] = 0
            depth -= 1
            if depth >= 0:
                _, up, up_choices = open_ones[depth]
                made.subtract((up, t) for t in up_choices[picked[depth] - 1])
            continue
        made.update((source, t) for t in choices[picked[depth]])
        picked[depth] += 1
        depth += 1
    return firsts


def _fired(problem: PaymentProblem, triggers: tuple, step: Step, gone: set) -> list:
    """(trigger's permanent, trigger index, its choices) for each triggered mana ability
    one step sets off (see :func:`with_triggered_mana`)."""
    p = problem.board.find(step.permanent)
    if p is None or not isinstance(step.ability, int) or not 0 <= step.ability < len(p.abilities):
        return []
    host, host_ability, _ = acting(problem.board, p, p.abilities[step.ability])
    out = []
    for source, index, trigger in triggers:
        if trigger.multiply or source.id in gone or not trigger.sets_off(host, host_ability, tuple(step.adds), source):
            continue
        choices = list(trigger.choices(tuple(step.adds)))
        if choices:
            out.append((source.id, index, choices))
    return out


def _ability_index(problem: PaymentProblem, p, written: WrittenStep) -> int:
    """The ability of ``p`` the step used: with ``other``, the one had through the
    written permanent (an altar's, a drum's, at that index when given); otherwise the
    first that can add what the step added (as many times over as a replacement effect
    multiplies it: Mana Reflection, CR 106.12b), one whose cost is only {T} first; -1
    when none can (the validator then says so)."""
    if written.other:
        for i, a in enumerate(p.abilities):
            if a.through and a.through[0] == written.permanent and written.ability in (None, a.through[1]):
                return i
        return -1
    triggers = board_triggers(problem.board)
    able = [i for i, a in enumerate(p.abilities)
            if _can_add(a, written.adds, multiplier(triggers, *acting(problem.board, p, a)[:2]) if triggers else 1)]
    plain = [i for i in able if p.abilities[i].cost.tap and not p.abilities[i].cost.mana.symbols
             and not p.abilities[i].cost.life and not p.abilities[i].cost.sacrifice]
    return (plain or able or [0 if p.abilities else -1])[0]


def _can_add(ability, adds: tuple, times: int = 1) -> bool:
    """Whether one activation may add ``adds``, ``times`` as much as the ability says
    (a replacement effect); triggered mana is not in ``adds``."""
    out = ability.output
    want = Counter(adds)
    if times > 1:
        if any(n % times for n in want.values()):
            return False
        want = Counter({t: n // times for t, n in want.items()})
    if out.combination:
        return sum(want.values()) == out.combination and all(t in out.combination_types for t in want)
    return any(Counter(a) == want for a in out.alternatives) or bool(out.per or out.doubles)


def _matched_to_cost(lines: tuple, symbols: tuple) -> tuple:
    """An ability's cost lines put in the order of its cost's symbols, each written as the
    symbol it pays, with the half paid (CR 107.4): a line may name the symbol itself, or
    the half it pays (``{U}`` for ``{W/U}`` paid with blue mana; ``{1}`` or ``{2}`` for a
    generic symbol or a twobrid's generic half, two lines); a Phyrexian symbol's line of
    life pays its life half. Without ``as``, the half is the mana's color where the symbol
    has it, else a twobrid's generic half. Lines no symbol takes are kept at the end (the
    validator says they pay nothing in the cost); a symbol no line takes is left unpaid."""
    free = list(lines)
    out = []
    for sym in symbols:
        line = next((x for x in free if _fits(x, sym)), None)
        if line is None:
            continue
        free.remove(line)
        half = _half(line, sym)
        out.append(replace(line, symbol=sym, half=half if sym.has_choice else line.half))
        more = len(next((o.needs for o in sym.payment_options(0) if o.label == half), ())) - 1 if sym.has_choice \
            else len(sym.payment_options(0)[0].needs) - 1
        for _ in range(max(0, more)):
            extra = next((x for x in free if _fits(x, sym) and not x.life), None)
            if extra is None:
                break
            free.remove(extra)
            out.append(replace(extra, symbol=sym, half=half if sym.has_choice else extra.half))
    return tuple(out + free)


def _fits(line: PaymentLine, sym) -> bool:
    """Whether a written line may be read as paying (part of) ``sym``."""
    written = line.symbol
    if written == sym:
        return True
    if line.life:
        return False
    if sym.kind == GENERIC or sym.kind == TWOBRID:
        if written.kind in (GENERIC, VARIABLE):
            return True
    if written.kind in (COLORED, COLORLESS) and sym.has_choice:
        return written.colors[0] in sym.colors
    return False


def _half(line: PaymentLine, sym) -> str:
    """The half of ``sym`` a line pays (see :func:`_matched_to_cost`)."""
    if not sym.has_choice:
        return ""
    if line.half:
        return line.half
    if line.life:
        return LIFE_HALF
    written = line.symbol
    if written.kind in (COLORED, COLORLESS) and written.colors[0] in sym.colors:
        return written.colors[0]
    if written.kind in (GENERIC, VARIABLE) and sym.kind == TWOBRID:
        return GENERIC_HALF
    if line.mana in sym.colors:
        return line.mana
    return GENERIC_HALF if sym.kind == TWOBRID else ""


def announced_by_payment(cost, written: WrittenPlan, any_color: bool = False) -> tuple:
    """(total cost, announced halves, reduction halves, payment lines) of the written
    spell payment. Each line's symbol is one of the locked-in total or the printed
    symbol it pays: a hybrid or twobrid symbol paid with one of its colors announces that
    color, a twobrid paid with other mana its generic half (two lines), a Phyrexian
    symbol paid with life its life (CR 601.2b, 107.4). The announcement whose total the
    lines pay exactly is the one made (CR 601.2f); the plan's ``announced``, where
    written, is taken as it is. With ``any_color`` (mana may be spent as though it were
    any color, CR 609.4b), a line of another mana pays a color half too. No announcement
    fitting: PlanRejected (601.2h)."""
    lines = written.payment
    # (an announcement is a choice per symbol, CR 601.2b: the list's order means nothing)
    if written.announced is not None and Counter(s for s, _ in written.announced) != Counter(
            choice_symbols(cost.added_symbols)):
        raise PlanRejected(f"spell: the announcements {[str(s) for s, _ in written.announced]} are not the cost's "
                           f"hybrid, twobrid and Phyrexian symbols", "CR 601.2b")
    kinds = _paid_as(lines, any_color, Counter(choice_symbols(cost.added_symbols)))
    generic = sum(1 for k in kinds if k == (GENERIC,))
    typed = Counter(k[1] for k in kinds if k[0] == COLORED)
    snow = sum(1 for k in kinds if k == (SNOW,))
    life = sorted(k[1] for k in kinds if k[0] == LIFE_HALF)
    wanted = (generic, tuple(typed.get(t, 0) for t in "WUBRGC"), snow, life)
    choices = choice_symbols(cost.added_symbols)
    reducing = [s for s in cost.reduction_symbols if s.has_choice]
    if written.announced is not None and written.reduction_halves is not None:
        candidates = [Announcement(_in_order(choices, written.announced), _in_order(reducing, written.reduction_halves))]
    elif count_announcements(cost) <= MOST_ANNOUNCEMENTS_TRIED:
        said = Counter(written.announced) if written.announced is not None else None
        reduced = Counter(written.reduction_halves) if written.reduction_halves is not None else None
        candidates = [a for a in all_announcements(cost) if (said is None or Counter(zip(choices, a.halves)) == said)
                      and (reduced is None or Counter(zip(reducing, a.reduction_halves)) == reduced)]
    else:
        raise PlanRejected(f"spell: {count_announcements(cost):,} announcements could give the total; the plan must "
                           f"say its own in 'announced'", "CR 601.2b")
    fitting = None
    for a in candidates:
        try:
            total = total_cost(cost, a)
        except ValueError as e:
            raise PlanRejected(f"spell: {e}", "CR 601.2b") from None
        if (total.generic, total.typed, total.snow, sorted(str(s) for s in total.life_symbols)) == wanted:
            fitting = (total, a)
            break
    if fitting is None:
        paid = "".join("{%s}" % k[1] if k[0] == COLORED else "{1}" if k == (GENERIC,) else "{S}" if k == (SNOW,)
                       else f"[{k[1]} with 2 life]" if k[0] == LIFE_HALF else f"[{k[1]}]" for k in kinds)
        printed = _short("".join(str(s) for s in cost.added_symbols) or "{0}")
        paid = _short(paid)
        raise PlanRejected(f"spell: the payment pays {paid or 'nothing'}, which is not the total cost of {printed} "
                           f"for any announcement of its symbols", "CR 601.2h")
    total, a = fitting
    announced = tuple(zip(choice_symbols(cost.added_symbols), a.halves))
    halves = tuple(zip([s for s in cost.reduction_symbols if s.has_choice], a.reduction_halves))
    generic_symbol = Symbol(GENERIC, (), total.generic)
    rewritten = []
    for line, k in zip(lines, kinds):
        if k == (GENERIC,):
            rewritten.append(replace(line, symbol=generic_symbol, half=""))
        elif k[0] == COLORED:
            rewritten.append(replace(line, symbol=Symbol.parse("{%s}" % k[1]), half=""))
        elif k == (SNOW,):
            rewritten.append(replace(line, symbol=Symbol(SNOW), half=""))
        else:
            rewritten.append(line)
    return total, announced, halves, tuple(rewritten)


def _in_order(symbols: list, said) -> tuple:
    """The halves of ``said`` ((symbol, half) pairs, in any order) for ``symbols`` in
    their own order: each symbol takes the half of an unused pair of the same symbol."""
    left = list(said)
    out = []
    for sym in symbols:
        k = next((i for i, (s, _) in enumerate(left) if s == sym), None)
        if k is None:
            raise PlanRejected(f"spell: no announcement is given for {sym}", "CR 601.2b")
        out.append(left.pop(k)[1])
    return tuple(out)


def _paid_as(lines: tuple, any_color: bool, printed: Counter) -> list:
    """What each line of the spell's payment pays in the locked-in total: (GENERIC,),
    (COLORED, type), (SNOW,), (LIFE_HALF, symbol), or (None, symbol) for a line no half of
    its printed symbol takes (a hybrid paid with another color). The lines paying a
    twobrid symbol (``printed``: how many of each the cost has) are read together: as many
    color halves (one line each, of its color, or of any mana where it may be spent as
    though it were that color, CR 609.4b) and generic halves (two lines each) as their
    count says: ``{2/G}`` paid with two {G} is its generic half."""
    kinds = [_paid_as_alone(line, any_color) for line in lines]
    for sym in {line.symbol for line in lines if line.symbol.kind == TWOBRID}:
        mine = [i for i, line in enumerate(lines) if line.symbol == sym]
        free = [i for i in mine if not lines[i].life and not lines[i].half]
        left = printed[sym] - (len(mine) - len(free))  # the symbols the lines without a said half pay
        generic = len(free) - left  # paid as {2}: two lines each; the rest one line each, as the color
        colored = left - generic
        own = [i for i in free if lines[i].mana in sym.colors]
        if not free or not 0 <= generic <= left or (colored > len(own) and not any_color):
            continue
        as_color = (own + [i for i in free if i not in own])[:colored]
        for i in free:
            kinds[i] = (COLORED, sym.colors[0]) if i in as_color else (GENERIC,)
    return kinds


def _short(text: str, most: int = 200) -> str:
    """``text``, cut to ``most`` characters with an ellipsis (a cost kicked a thousand
    times is not written out in a message)."""
    return text if len(text) <= most else text[:most] + "..."


def _paid_as_alone(line: PaymentLine, any_color: bool) -> tuple:
    """:func:`_paid_as` for one line read alone."""
    sym = line.symbol
    if line.life:
        return (LIFE_HALF, str(sym)) if sym.has_choice else (None, str(sym))
    if sym.kind in (GENERIC, VARIABLE):
        return (GENERIC,)
    if sym.kind == SNOW:
        return (SNOW,)
    if sym.kind in (COLORED, COLORLESS):
        return (COLORED, sym.colors[0])
    half = _half(line, sym)
    if half == GENERIC_HALF and sym.kind == TWOBRID:
        return (GENERIC,)
    if half in sym.colors:
        return (COLORED, half)
    if any_color:  # a color half, paid with mana spent as though it were that color (CR 609.4b)
        return (COLORED, sym.colors[0])
    return (None, str(sym))


def said_otherwise(written: WrittenPlan, plan: Plan, floating: tuple) -> None:
    """Where the engine's own summary (tapped, sacrificed, life paid, what floats) is not
    what its steps did: the plan is malformed, not a payment that breaks a rule: a
    located error naming the field (the steps alone are judged where the
    summary is left out)."""
    said = (("tapped", written.tapped, plan.tapped), ("sacrificed", written.sacrificed, plan.sacrificed))
    for name, given, done in said:
        if given is not None and sorted(given) != sorted(done):
            raise RequestError(f"the plan's summary says {name} {sorted(given)}, its steps {name} {sorted(done)}: "
                               f"give the summary its steps make, or leave it out", f"plan.{name}")
    if written.life_paid is not None and written.life_paid != plan.life_paid:
        raise RequestError(f"the plan's summary says it pays {written.life_paid} life, its steps and payment "
                           f"{plan.life_paid}: give the summary its steps make, or leave it out", "plan.life_paid")
    if written.floating is not None and sorted(written.floating) != sorted(u.type for u in floating):
        raise RequestError(f"the plan's summary says {format_types(written.floating) or 'nothing'} floats; its "
                           f"steps leave {format_types(u.type for u in floating) or 'nothing'} in the pool: give the "
                           f"summary its steps make, or leave it out", "plan.floating")


# -- the plan beside the optimum ---------------------------------------------------------

def _flexibility_words(n: int, o: int, plan: Plan, best: Plan) -> str:
    """The flexibility term's difference in words: the sources the plan uses up (taps, or
    sacrifices for the cost) where the optimum's would do, named (never blank)."""
    used = lambda q: set(q.tapped) | set(q.cost_sacrificed)  # noqa: E731
    mine, theirs = sorted(used(plan) - used(best)), sorted(used(best) - used(plan))
    if not mine or not theirs:
        return f"uses more flexible sources than needed (flexibility {o + n} against {o})"
    return (f"uses up more flexible sources than needed: {', '.join(mine)} where {', '.join(theirs)} would do "
            f"(flexibility {o + n} against {o})")


def differences(terms: dict, optimum: dict, plan: Plan, best: Plan, order: tuple = OBJECTIVE_TERMS) -> tuple:
    """Where the plan is worse than the optimum, term by term in the objective's order
    (``order``: the request's ``prefer``), in a player's words ("taps 1 permanent more
    than needed", "pays 2 life where mana was free", "leaves {U} floating")."""
    out = []
    for term in order:
        more = terms[term] - optimum[term]
        if more <= 0 or term == "flexibility" and terms["tapped"] != optimum["tapped"]:
            continue  # (with more permanents tapped, more flexibility is tapped: said once)
        out.append(_IN_WORDS[term](more, optimum[term], plan, best))
    return tuple(out)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


_IN_WORDS = {
    "before_casting": lambda n, o, p, b: (f"activates {n} {'ability' if n == 1 else 'abilities'} before casting "
                                          f"more than needed (CR 601.2g)"),
    "sacrificed": lambda n, o, p, b: f"sacrifices {_plural(n, 'permanent')} more than needed",
    "life": lambda n, o, p, b: (f"pays {n} life where mana was free" if o == 0 and not p.damage
                                and len(b.sacrificed) <= len(p.sacrificed)
                                else f"loses {n} life more than needed ({o + n} against {o})"),
    "spared": lambda n, o, p, b: f"uses {_plural(n, 'permanent')} asked to be kept untapped more than needed",
    "tapped": lambda n, o, p, b: f"taps {_plural(n, 'permanent')} more than needed",
    "exiled": lambda n, o, p, b: f"exiles {_plural(n, 'card')} more than needed (delve)",
    "flexibility": lambda n, o, p, b: _flexibility_words(n, o, p, b),
    "floating": lambda n, o, p, b: (f"leaves {format_types(u.type for u in p.floating)} floating "
                                    f"(the optimum leaves {format_types(u.type for u in b.floating) or 'none'})"),
}
