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

from ..model.cost import Announcement, choice_symbols, count_announcements, all_announcements, total_cost
from ..model.dependent_mana import acting
from ..model.errors import PlanRejected
from ..model.mana import format_types
from ..model.plan import (CONVOKE, DELVE, GRAVEYARD, IMPROVISE, PaymentLine, Plan, Step, TriggeredMana, Undecided,
                          Unpayable)
from ..model.problem import IF_POSSIBLE, MOST, OBJECTIVE_TERMS, PAY, PaymentProblem
from ..model.symbols import (COLORED, COLORLESS, GENERIC, GENERIC_HALF, LIFE_HALF, SNOW, TWOBRID, VARIABLE,
                             Symbol)
from ..model.triggers import board_triggers
from ..model.written_plan import CANT_PAY, WrittenPlan, WrittenStep
from .checks.validator import judge_plan
from .one_spell import plan_terms
from .search import Budget

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
    first rule the plan breaks; ``terms`` and ``optimum`` the objective's terms of the
    plan and of manaplan's plan; ``differences`` in words; ``plan`` the written plan
    completed, as judged."""

    verdict: str
    truth: object
    violation: PlanRejected | None = None
    terms: dict | None = None
    optimum: dict | None = None
    proven: bool = False
    lethal: bool = False
    differences: tuple = ()
    plan: Plan | None = None

    @property
    def legal(self) -> bool | None:
        if self.verdict in (OPTIMAL, SUBOPTIMAL):
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
            return self.truth
        return None


def check_answer(problem: PaymentProblem, budget: Budget, plain_path: bool = True) -> Checked:
    """The ``check`` query: ``problem.claim`` judged (see the module)."""
    from .planner import pay_answer
    asked = replace(problem, query=PAY, claim=CANT_PAY)
    truth = pay_answer(asked, budget, plain_path)
    if problem.claim is CANT_PAY:
        if isinstance(truth, Plan):
            return Checked(WRONG_NO, truth)
        return Checked(RIGHT_NO if isinstance(truth, Unpayable) else UNKNOWN, truth)
    judged = asked.for_spell(asked.spell, PAY)
    plan, violation = completed_plan(judged, problem.claim)
    if violation is None:
        violations, floating = judge_plan(judged, plan, floating_given=False)
        violation = violations[0] if violations else said_otherwise(problem.claim, plan, floating)
        plan = replace(plan, floating=floating)
    if violation is not None:
        certain = violation.step is not None or not isinstance(truth, Undecided)
        return Checked(ILLEGAL if certain else UNKNOWN, truth, violation, plan=plan)
    terms = plan_terms(judged, plan)
    lethal = plan.is_lethal(problem.player.life)
    if not isinstance(truth, Plan):  # (a legal plan where manaplan found none in time, or read less)
        return Checked(UNKNOWN, truth, terms=terms, lethal=lethal, plan=plan)
    optimum = plan_terms(judged, truth)
    rank = problem.prefer.rank
    worse = rank(tuple(terms.values())) > rank(tuple(optimum.values()))
    if not worse and not truth.optimal:
        return Checked(UNKNOWN, truth, terms=terms, optimum=optimum, lethal=lethal, plan=plan)
    return Checked(SUBOPTIMAL if worse else OPTIMAL, truth, terms=terms, optimum=optimum, proven=truth.optimal,
                   lethal=lethal, differences=differences(terms, optimum, plan, truth) if worse else (), plan=plan)


# -- the written plan completed from the board ---------------------------------------

def completed_plan(problem: PaymentProblem, written: WrittenPlan) -> tuple:
    """(the :class:`Plan` the written one describes, a violation found while reading it
    or None): each step completed from its ability (:func:`step_of_written`), the
    spell's payment with its announcements (:func:`announced_by_payment`)."""
    steps = with_triggered_mana(problem, written, tuple(step_of_written(problem, s) for s in written.steps))
    spell = problem.spell
    kicked = written.kicked
    if kicked is None and spell.kicker is not None and spell.kicked != IF_POSSIBLE:
        kicked = bool(spell.kicked)  # the question fixed it
    kicks = written.kicks
    if kicks is None and spell.multikicker is not None and spell.kicks != MOST:
        kicks = spell.kicks
    x = None if written.x is None or written.x == spell.cost.x else written.x
    cost = problem.with_kicks(bool(kicked), kicks or 0).spell.cost if (kicked or kicks) else spell.cost
    plan = Plan(steps, None, written.payment, kicked=kicked, kicks=kicks, x=x,  # (its total: below)
                cost_sacrificed=written.sacrificed_for_cost, cost_discarded=written.discarded_for_cost)
    try:
        any_color = problem.board.any_color_spending_without(
            {s.permanent for s in steps if s.sacrifices})  # CR 609.4b (Chromatic Orrery), 611.3a
        total, announced, halves, lines = announced_by_payment(cost, written, any_color)
    except PlanRejected as e:
        return plan, e
    plan = replace(plan, total_cost=total, announced=announced, reduction_halves=halves, payment=lines)
    if written.total_cost is not None and written.total_cost != str(total):
        return plan, PlanRejected(f"spell: the plan says the total cost is {written.total_cost}; its announcements "
                                  f"make it {total}", "CR 601.2f")
    return plan, None


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
        return Step(pid, index if index is not None else 0, "", written.adds, written.payment, written.triggered)
    if index is None or written.other:
        index = _ability_index(p, written)
    if not 0 <= index < len(p.abilities):
        return Step(pid, index, "", written.adds, written.payment, written.triggered)
    ability = p.abilities[index]
    host, host_ability, _ = acting(problem.board, p, ability)
    through = ability.through
    before = written.before_casting
    if before is None:
        before = not ability.usable_mid_cast and not problem.mid_cast
    cost = ability.cost
    return Step(pid, index, ability.text, written.adds, _with_halves(written.payment), written.triggered,
                taps=cost.tap, sacrifices=cost.sacrifice,
                life=cost.life if written.life is None else written.life,
                damage=ability.damage if written.damage is None else written.damage,
                before_casting=before, via=through, co_taps=bool(through and host_ability.cost.tap),
                energy=cost.energy if written.energy is None else written.energy,
                given_by=ability.given_by if written.given_by is None else written.given_by)


def with_triggered_mana(problem: PaymentProblem, written: WrittenPlan, steps: tuple) -> tuple:
    """The steps, each whose triggered mana was not written given what its activation
    sets off (CR 605.4a: triggered mana abilities resolve at once, whether or not the
    mana is wanted): each trigger's choice of mana the one the plan's lines spend from
    that permanent, where they tell; else its first. A step that lists its triggers
    (even none) is kept as written, for the validator to judge."""
    triggers = board_triggers(problem.board)
    if not triggers:
        return tuple(replace(s, triggered=s.triggered or ()) for s in steps)
    spent = Counter((line.source, line.mana) for line in written.payment)
    spent.update((line.source, line.mana) for s in written.steps for line in s.payment)
    out, gone = [], set()
    for step, said in zip(steps, written.steps):
        if said.triggered is None:
            step = replace(step, triggered=_fired(problem, triggers, step, gone, spent))
        out.append(step)
        if step.sacrifices:
            gone.add(step.permanent)
    return tuple(out)


def _fired(problem: PaymentProblem, triggers: tuple, step: Step, gone: set, spent: Counter) -> tuple:
    """The triggered mana one step sets off (see :func:`with_triggered_mana`)."""
    p = problem.board.find(step.permanent)
    if p is None or not isinstance(step.ability, int) or not 0 <= step.ability < len(p.abilities):
        return ()
    host, host_ability, _ = acting(problem.board, p, p.abilities[step.ability])
    fired = []
    for source, index, trigger in triggers:
        if trigger.multiply or source.id in gone or not trigger.sets_off(host, host_ability, tuple(step.adds), source):
            continue
        choices = trigger.choices(tuple(step.adds))
        if not choices:
            continue
        wanted = [c for c in choices if all(spent[(source.id, t)] >= n for t, n in Counter(c).items())]
        choice = (wanted or list(choices))[0]
        for t in choice:
            spent[(source.id, t)] -= 1
        fired.append(TriggeredMana(source.id, index, tuple(choice)))
    return tuple(fired)


def _ability_index(p, written: WrittenStep) -> int:
    """The ability of ``p`` the step used: with ``other``, the one had through the
    written permanent (an altar's, a drum's, at that index when given); otherwise the
    first that can add what the step added, one whose cost is only {T} first; -1 when
    none can (the validator then says so)."""
    if written.other:
        for i, a in enumerate(p.abilities):
            if a.through and a.through[0] == written.permanent and written.ability in (None, a.through[1]):
                return i
        return -1
    able = [i for i, a in enumerate(p.abilities) if _can_add(a, written.adds)]
    plain = [i for i in able if p.abilities[i].cost.tap and not p.abilities[i].cost.mana.symbols
             and not p.abilities[i].cost.life and not p.abilities[i].cost.sacrifice]
    return (plain or able or [0 if p.abilities else -1])[0]


def _can_add(ability, adds: tuple) -> bool:
    """Whether one activation may add ``adds`` (ignoring triggers and replacement
    effects, which the validator follows)."""
    out = ability.output
    want = Counter(adds)
    if out.combination:
        return sum(want.values()) == out.combination and all(t in out.combination_types for t in want)
    return any(Counter(a) == want for a in out.alternatives) or bool(out.per or out.doubles)


def _with_halves(lines: tuple) -> tuple:
    """An ability's cost lines with the half each pays, where the engine left it out: the
    color of the mana, "generic" for a twobrid symbol paid with other mana (two lines),
    "life" for a Phyrexian symbol paid with life (CR 107.4)."""
    out, skip = [], 0
    for i, line in enumerate(lines):
        if skip:
            skip -= 1
            out.append(line)
            continue
        sym = line.symbol
        if line.half or not sym.has_choice:
            out.append(line)
            continue
        if line.life:
            out.append(replace(line, half=LIFE_HALF))
        elif line.mana in sym.colors:
            out.append(replace(line, half=line.mana))
        elif sym.kind == TWOBRID:
            out.append(replace(line, half=GENERIC_HALF))
            skip = 1
        else:
            out.append(line)
    return tuple(out)


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
    if written.announced is not None and [s for s, _ in written.announced] != choice_symbols(cost.added_symbols):
        raise PlanRejected(f"spell: the announcements {[str(s) for s, _ in written.announced]} are not the cost's "
                           f"hybrid, twobrid and Phyrexian symbols", "CR 601.2b")
    kinds = _paid_as(lines, any_color, Counter(choice_symbols(cost.added_symbols)))
    generic = sum(1 for k in kinds if k == (GENERIC,))
    typed = Counter(k[1] for k in kinds if k[0] == COLORED)
    snow = sum(1 for k in kinds if k == (SNOW,))
    life = sorted(k[1] for k in kinds if k[0] == LIFE_HALF)
    wanted = (generic, tuple(typed.get(t, 0) for t in "WUBRGC"), snow, life)
    if written.announced is not None and written.reduction_halves is not None:
        candidates = [Announcement(tuple(h for _, h in written.announced),
                                   tuple(h for _, h in written.reduction_halves))]
    elif count_announcements(cost) <= MOST_ANNOUNCEMENTS_TRIED:
        said = tuple(h for _, h in written.announced) if written.announced is not None else None
        candidates = [a for a in all_announcements(cost) if said is None or a.halves == said]
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
        printed = "".join(str(s) for s in cost.added_symbols) or "{0}"
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


def _paid_as(lines: tuple, any_color: bool, printed: Counter) -> list:
    """What each line of the spell's payment pays in the locked-in total: (GENERIC,),
    (COLORED, type), (SNOW,), (LIFE_HALF, symbol), or (None, symbol) for a line no half of
    its printed symbol takes (a hybrid paid with another color). Where mana may be spent
    as though it were any color (CR 609.4b), the lines of other mana paying a twobrid
    symbol (``printed``: how many of each the cost has) are read together: as many color
    halves (one line each) and generic halves (two lines each) as their count says."""
    kinds = [_paid_as_alone(line, any_color) for line in lines]
    if not any_color:
        return kinds
    for sym in {line.symbol for line in lines if line.symbol.kind == TWOBRID}:
        mine = [i for i, line in enumerate(lines) if line.symbol == sym]
        other = [i for i in mine if not lines[i].life and not lines[i].half and lines[i].mana not in sym.colors]
        left = printed[sym] - (len(mine) - len(other))  # the symbols the other lines pay
        generic = len(other) - left  # {2/W}s paid as {2}: two lines each, the rest one line as W
        if other and 0 <= generic <= left:
            for n, i in enumerate(other):
                kinds[i] = (GENERIC,) if n < 2 * generic else (COLORED, sym.colors[0])
    return kinds


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
    half = line.half or (line.mana if line.mana in sym.colors else GENERIC_HALF if sym.kind == TWOBRID else "")
    if half == GENERIC_HALF and sym.kind == TWOBRID:
        return (GENERIC,)
    if half in sym.colors:
        return (COLORED, half)
    if any_color:  # a color half, paid with mana spent as though it were that color (CR 609.4b)
        return (COLORED, sym.colors[0])
    return (None, str(sym))


def said_otherwise(written: WrittenPlan, plan: Plan, floating: tuple) -> PlanRejected | None:
    """Where the engine's own summary (tapped, sacrificed, life paid, what floats) is not
    what its steps did: the plan contradicts itself (CR 601.2h, 106.4)."""
    said = (("tapped", written.tapped, plan.tapped), ("sacrificed", written.sacrificed, plan.sacrificed))
    for name, given, done in said:
        if given is not None and sorted(given) != sorted(done):
            return PlanRejected(f"summary: the plan says {name} {sorted(given)}, its steps {name} {sorted(done)}",
                                "CR 601.2h")
    if written.life_paid is not None and written.life_paid != plan.life_paid:
        return PlanRejected(f"summary: the plan says it pays {written.life_paid} life, its steps and payment "
                            f"{plan.life_paid}", "CR 601.2h")
    if written.floating is not None and sorted(written.floating) != sorted(u.type for u in floating):
        return PlanRejected(f"summary: the plan says {format_types(written.floating) or 'nothing'} floats; "
                            f"{format_types(u.type for u in floating) or 'nothing'} is left in the pool", "CR 106.4")
    return None


# -- the plan beside the optimum ---------------------------------------------------------

def differences(terms: dict, optimum: dict, plan: Plan, best: Plan) -> tuple:
    """Where the plan is worse than the optimum, term by term in the objective's order,
    in a player's words ("taps 1 permanent more than needed", "pays 2 life where mana was
    free", "leaves {U} floating")."""
    out = []
    for term in OBJECTIVE_TERMS:
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
    "life": lambda n, o, p, b: (f"pays {n} life where mana was free" if o == 0
                                else f"loses {n} life more than needed ({o + n} against {o})"),
    "spared": lambda n, o, p, b: f"uses {_plural(n, 'permanent')} asked to be kept untapped more than needed",
    "tapped": lambda n, o, p, b: f"taps {_plural(n, 'permanent')} more than needed",
    "exiled": lambda n, o, p, b: f"exiles {_plural(n, 'card')} more than needed (delve)",
    "flexibility": lambda n, o, p, b: (f"taps more flexible sources than needed: "
                                       f"{', '.join(sorted(set(p.tapped) - set(b.tapped)))} where "
                                       f"{', '.join(sorted(set(b.tapped) - set(p.tapped)))} would do (flexibility "
                                       f"{o + n} against {o})"),
    "floating": lambda n, o, p, b: (f"leaves {format_types(u.type for u in p.floating)} floating "
                                    f"(the optimum leaves {format_types(u.type for u in b.floating) or 'none'})"),
}
