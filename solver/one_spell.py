"""One spell's questions: ``pay`` (the best plan), ``can_pay`` (yes or no), ``max_x``
(the largest X), and the spell's own choices (its kicker "if possible", its kicks
"max"), each within the request's time guard, with an unpayable answer's proof.

On a plain board the exact transport of ``solver.plain`` pays (or Hall's condition
decides yes or no); otherwise the total cost is modelled with the grouped sources in
CP-SAT (``solver.cpsat``) as deep as the chains need (``solver.search.best_plan``), the
best plan read back (``solver.extract``) and replayed by the independent validator; an
unpayable answer carries a proof (``solver.proof``). Settled answers are kept with the
board, so a hand's copies of one card, or a ``pay`` after ``castable``, are solved once.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from dataclasses import fields, replace
from operator import attrgetter

from manaplan.model.abilities import PRECAST_ONLY
from manaplan.model.board import flexibility
from manaplan.model.errors import ModelTooLarge, OutOfTime
from manaplan.model.plan import (NEEDS_ACTIVATION_BEFORE_CASTING, NO_PAYMENT, NOTHING_TO_DISCARD, NOTHING_TO_SACRIFICE,
                                 UNREAD_ABILITIES, Payable, Plan, Undecided, Unpayable, listing)
from manaplan.model.problem import CAN_PAY, IF_POSSIBLE, MAX_X, MOST, OBJECTIVE_TERMS, PAY, PaymentProblem, Spell
from manaplan.solver.chains import activation_bound
from manaplan.solver.cpsat import PaymentModel
from manaplan.solver.extract import extract_plan
from manaplan.solver.hall import hall_certificate, hall_violation, plain_max_x, plain_view, two_way_payable
from manaplan.solver.plain import NO_WAY_PAYS, plain_lane, plain_payment
from manaplan.solver.pools import pool_can_pay
from manaplan.solver.proof import counting_bound
from manaplan.solver.runtime import Status
from manaplan.solver.search import DEPTHS, Budget, best_plan, check_plan, solve_self_funding, too_large
from manaplan.solver.supply import Supply, build_supply


#: settled answers kept with a board, the least recently used dropped first: a kept
#: board asked the same question again (a ``pay`` of a card ``castable`` just answered)
#: or a hand holding copies of one card answers it once
ANSWERS_KEPT = 64


def answer_alone(problem: PaymentProblem, budget: Budget, plain_path: bool = True):
    """The answer to one spell's question within the request's ``budget``: its kicker and
    kicks chosen first where the request left them open (:func:`_answer_choices`), each
    concrete question answered once per board (:func:`_answer_kept`)."""
    spell = problem.spell
    if spell.alternative_costs:
        return _answer_any_way(problem, budget, plain_path)
    if spell.discards:
        return _answer_discarding(problem, budget, plain_path)
    if spell.sacrifices:
        return _answer_sacrificing(problem, budget, plain_path)
    if spell.kicker is not None or spell.multikicker is not None:
        return _answer_choices(problem, budget, plain_path)
    return _answer_kept(problem, budget, plain_path)


def _answer_any_way(problem: PaymentProblem, budget: Budget, plain_path: bool):
    """A spell that may be cast another way for mana alone (evoke, dash, overload, bestow:
    model.spell_text.AlternativeCost, CR 118.9): its mana cost first; when that can't be
    paid, each other way in the order its text gives them, the first that pays (the
    plan says which: ``cast_with``). The board's increases and reductions apply to an
    alternative cost as to the mana cost (CR 601.2f). A "no" is for every way."""
    spell = replace(problem.spell, alternative_costs=())
    first = answer_alone(replace(problem, spell=spell), budget, plain_path)
    if not isinstance(first, Unpayable):
        return first
    reasons = [f"its mana cost: {first.message}"]
    for alt in problem.spell.alternative_costs:
        if budget.spent:
            return budget.undecided()
        other = replace(spell, cost=replace(spell.cost, mana_cost=alt.mana), printed=spell.mana_cost,
                        cast_with=alt.keyword)
        out = answer_alone(replace(problem, spell=other), budget, plain_path)
        if isinstance(out, Plan):
            return replace(out, cast_with=alt.keyword)
        if not isinstance(out, Unpayable):
            return out
        reasons.append(f"{alt.keyword} {alt.mana}: {out.message}")
    return Unpayable(NO_PAYMENT, "no way to cast it can be paid; " + "; ".join(reasons))


def _answer_discarding(problem: PaymentProblem, budget: Budget, plain_path: bool):
    """A spell whose additional cost discards cards of the hand (Tormenting Voice: "discard
    a card"; model.spell_text.DiscardCost), paid after mana abilities (CR 601.2g-h): the
    cards discarded are of the hand given (``hand``), not the spell itself, and not a card
    exiled from the hand for mana (Simian Spirit Guide). Cards that make no mana are
    discarded first; where one that does must go, each choice of them is tried, kept from
    being exiled for mana (``prefer.never_sacrifice``), and the best plan taken. Without a
    hand, the answer is not known."""
    (cost,) = problem.spell.discards  # (one such cost: others are not read, model.spell_text)
    spell = replace(problem.spell, discards=())
    if not problem.hand:
        return Undecided(UNREAD_ABILITIES, f"its additional cost discards {_a(cost.kind)}, and the request gives no "
                                           f"hand ('hand'): {cost.text!r}", unread=((spell.id or "spell", cost.text),))
    cards = [c for c in problem.hand if c.id != spell.id and _of_kind(c, cost.kind)]
    if len(cards) < cost.count:
        return Unpayable(NOTHING_TO_DISCARD, f"its additional cost discards {cost.count} {cost.kind}(s), and the hand "
                                             f"holds {len(cards)} besides the spell: {cost.text!r} (CR 601.2f, 601.2h)")
    free = [c.id for c in cards if c.from_hand is None]
    sources = [c.id for c in cards if c.from_hand is not None]
    need = max(0, cost.count - len(free))
    found, refused = None, None
    for kept in itertools.combinations(sources, need):
        if budget.spent:
            return budget.undecided()
        prefer = replace(problem.prefer, never_sacrifice=problem.prefer.never_sacrifice | set(kept))
        out = answer_alone(replace(problem, spell=spell, prefer=prefer), budget, plain_path)
        discarded = tuple(free[:cost.count - need]) + kept
        if isinstance(out, Payable):
            return out
        if isinstance(out, Plan):
            plan = replace(out, cost_discarded=discarded)
            rank = (-(plan.x or 0), _plan_rank(problem, plan))
            if found is None or rank < found[0]:
                found = (rank, plan)
        elif isinstance(out, Undecided):
            return out
        else:
            refused = refused or out
    if found is None:
        if not need:
            return refused
        assert refused is not None  # (at least one way was tried: the hand holds enough cards)
        return Unpayable(NO_PAYMENT, f"with the card(s) it discards kept from being exiled "
                                     f"for mana ({cost.text!r}): {refused.message}")
    check_plan(problem, found[1])
    return found[1]


def _of_kind(card, kind: str) -> bool:
    """Whether a card of the hand is a ``kind`` ("card", "land card", "creature card")."""
    if kind == "card":
        return True
    return (kind.split()[0].capitalize()) in card.type_line.replace("—", " ").split()


def _answer_sacrificing(problem: PaymentProblem, budget: Budget, plain_path: bool):
    """A spell whose additional cost sacrifices a permanent (Bone Splinters: "sacrifice a
    creature"; model.spell_text.SacrificeCost). Costs are paid after mana abilities are
    activated (CR 601.2g-h), so the permanent may first tap for mana (a Birds of Paradise
    taps for {B}, then is sacrificed), but not be sacrificed for mana too. Each kind of
    permanent that could be the one is tried: the payment made with it kept from being
    sacrificed for mana (``prefer.never_sacrifice``), the best of them (the largest X for
    ``max_x``) then sacrifices it."""
    (cost,) = problem.spell.sacrifices  # (one permanent: others are not read, model.spell_text)
    spell = replace(problem.spell, sacrifices=())
    keep = problem.prefer.keep_untapped
    candidates = [next((i for i in reversed(ids) if i not in keep), ids[-1])
                  for body, ids in problem.board.given().kinds if any(body.is_a(k) for k in cost.kinds)]
    if not candidates:
        return Unpayable(NOTHING_TO_SACRIFICE, f"its additional cost needs {_a(' or '.join(cost.kinds))} to sacrifice, and "
                                               f"there is none: {cost.text!r} (CR 601.2f, 601.2h)")
    found, refused, cut = None, None, None
    for pid in candidates:
        if budget.spent:
            return budget.undecided()
        prefer = replace(problem.prefer, never_sacrifice=problem.prefer.never_sacrifice | {pid},
                         gone=problem.prefer.gone | {pid})
        out = answer_alone(replace(problem, spell=spell, prefer=prefer), budget, plain_path)
        if isinstance(out, Payable):
            return out
        if isinstance(out, Plan):
            rank = (-(out.x or 0), _plan_rank(problem, replace(out, cost_sacrificed=(pid,))))
            if found is None or rank < found[0]:
                found = (rank, pid, out)
        elif isinstance(out, Undecided):
            cut = cut or out
        else:
            refused = refused or out
    if found is None:
        if cut is not None:
            return cut
        assert refused is not None  # (every candidate was refused)
        return Unpayable(NO_PAYMENT, f"with any of {', '.join(candidates)} kept for its additional cost "
                                     f"({cost.text!r}): {refused.message}")
    _, pid, plan = found
    plan = replace(plan, cost_sacrificed=(pid,))
    check_plan(problem, plan)
    return plan


def _a(words: str) -> str:
    """``words`` with its article: "a creature", "an artifact"."""
    return ("an " if words[:1].lower() in "aeiou" else "a ") + words


def plan_terms(problem: PaymentProblem, plan: Plan) -> dict:
    """A plan's objective, term by term in the default order (docs/protocol.md, "The
    default objective"; model.problem.OBJECTIVE_TERMS), from what the plan says it does."""
    keep = problem.prefer.keep_untapped
    used = set(plan.tapped) | set(plan.sacrificed)
    needs = problem.color_needs
    flex = {i: flexibility(g.types, needs) for g in build_supply(replace(problem, spell=replace(
        problem.spell, sacrifices=(), discards=()))).groups for i in g.ids}
    return dict(zip(OBJECTIVE_TERMS, (sum(1 for s in plan.steps if s.before_casting), len(plan.sacrificed),
                                      plan.life_paid, len(used & keep), len(plan.tapped), plan.exiled,
                                      # (what an additional cost sacrifices loses its mana too: a mana
                                      # source kept where an equal plan sacrifices another)
                                      sum(flex.get(i, 0) for i in set(plan.tapped) | set(plan.cost_sacrificed)),
                                      len(plan.floating))))


def _plan_rank(problem: PaymentProblem, plan: Plan) -> tuple:
    """A plan's objective as the request's preference orders it (:func:`plan_terms`)."""
    return problem.prefer.rank(tuple(plan_terms(problem, plan).values()))


def _answer_kept(problem: PaymentProblem, budget: Budget, plain_path: bool = True):
    """The answer to a spell's question with no choice left, from the board's kept
    answers when the same question was settled on it before."""
    kept = problem.board.memo.setdefault("answers", OrderedDict())
    key = (_question_key(problem), plain_path)
    if key in kept:
        kept.move_to_end(key)
        return kept[key]
    try:
        out = _answer_now(problem, budget, plain_path)
    except ModelTooLarge as e:  # (one card of a hand: the others are answered)
        out = too_large(e)
    except OutOfTime:  # (its time ran out while a model was being built)
        out = budget.undecided()
    if _settled(out):
        kept[key] = out
        if len(kept) > ANSWERS_KEPT:
            kept.popitem(last=False)
    return out


def _question_key(problem: PaymentProblem) -> tuple:
    """What a one-spell answer depends on besides the board: every field of the problem,
    with the hand as the colors the rest of it needs (what the objective weighs) and the
    spell without what only names it or matters after it resolves (its id, value, the
    mana it adds, the permanent it becomes)."""
    spell = problem.spell
    return _SPELL_KEY(spell), tuple(sorted(problem.color_needs.items())), _PROBLEM_KEY(problem)


#: the spell's fields an answer depends on, read at once (a tuple in field order)
_SPELL_KEY = attrgetter(*(f.name for f in fields(Spell) if f.name not in ("id", "value", "adds", "permanent")))


#: the problem's fields an answer depends on besides the board, the hand and the spell
_PROBLEM_KEY = attrgetter(*(f.name for f in fields(PaymentProblem) if f.name not in ("board", "hand", "spell")))


def _settled(answer) -> bool:
    """An answer that another solve would give again: a plan proven optimal, a proof,
    a yes; not one the time guard cut short."""
    if isinstance(answer, Plan):
        return answer.optimal
    return isinstance(answer, (Unpayable, Payable))


def _answer_now(problem: PaymentProblem, budget: Budget, plain_path: bool = True):
    """The answer, solved: a spell with no mana cost can't be cast (CR 202.1b); a
    ``pay`` on a plain board from its groups as built (solver.plain.plain_lane); else
    the board grouped once for the question asked."""
    if problem.spell.cost.mana_cost is None:
        return counting_bound(problem, None)  # no mana cost (CR 202.1b)
    if budget.spent:  # (its time ran out while it was read)
        return budget.undecided()
    if problem.query == PAY and plain_path:  # (the question asked most: a plain board's plan without the supply)
        plan = plain_lane(problem)
        if plan is not None:
            if budget.spent:  # (its time ran out while the board was grouped: as the supply's path says)
                return budget.undecided()
            check_plan(problem, plan)
            return plan
    supply = build_supply(problem)
    if budget.spent:
        return budget.undecided()
    if problem.query == MAX_X:
        return answer_max_x(problem, supply, budget, plain_path)
    if problem.query == CAN_PAY:
        return answer_can_pay(problem, supply, budget)
    return answer_pay(problem, supply, budget, plain_path)


def _answer_choices(problem: PaymentProblem, budget: Budget, plain_path: bool):
    """A spell with a kicker or a multikicker (CR 702.33): the choices the request fixed,
    or the best the board allows: kicked if it can be ("if_possible"), as many kicks as
    can be paid ("max", found by halving: each kick only adds to the cost). With
    ``max_x``, X is maximised first, then the kicks at that X."""
    spell = problem.spell
    options = [True, False] if spell.kicked == IF_POSSIBLE else [bool(spell.kicked)]
    for kicked in options:
        if spell.kicks == MOST:
            result = _most_kicks(problem, kicked, budget, plain_path)
        else:
            assert isinstance(spell.kicks, int)  # a count where not MOST (protocol.mtg._choice)
            if (spell.kicks and spell.mana_per_kick and spell.multikicker is not None
                    and spell.kicks * len(spell.multikicker.symbols) > MOST_KICK_SYMBOLS
                    and spell.kicks > _kicks_bound(problem)):
                result = Unpayable(NO_PAYMENT, f"{spell.kicks} kicks of {spell.multikicker} need more mana than the "
                                               "board, the pool, the life and the graveyard could ever pay for")
            else:
                result = _with_choices(_answer_kept(problem.with_kicks(kicked, spell.kicks), budget, plain_path),
                                       spell, kicked, spell.kicks)
        if not isinstance(result, Unpayable) or kicked is options[-1]:
            return result
    raise AssertionError("unreachable")


#: past this many symbols of kicks, kicks the board could never pay for are refused at once
#: (a million kicks of {G} is a million symbols:); fewer are answered as any cost
MOST_KICK_SYMBOLS = 4096


def _most_kicks(problem: PaymentProblem, kicked: bool, budget: Budget, plain_path: bool):
    """The plan with the most kicks of the multikicker the board can pay."""
    best = _answer_kept(problem.with_kicks(kicked, 0), budget, plain_path)
    if not isinstance(best, (Plan, Payable)):
        return _with_choices(best, problem.spell, kicked, 0)
    x = best.x if isinstance(best, Plan) else None
    base = problem if x is None else problem.with_x(x)
    most, low, high = 0, 1, _kicks_bound(problem)
    while low <= high:  # each probe a yes or no (CAN_PAY: no best plan needed)
        if budget.spent:
            return budget.undecided()
        k = (low + high) // 2
        out = _answer_kept(replace(base.with_kicks(kicked, k), query=CAN_PAY), budget, plain_path)
        if isinstance(out, Undecided):
            return out
        if isinstance(out, Payable):
            most, low = k, k + 1
        else:
            high = k - 1
    if most:  # the best plan at the most kicks
        best = _answer_kept(base.with_kicks(kicked, most), budget, plain_path)
        if not isinstance(best, (Plan, Payable)):
            return best if isinstance(best, Undecided) else budget.undecided()
    if x is not None and isinstance(best, Plan):
        best = replace(best, x=x)
    return _with_choices(best, problem.spell, kicked, most)


def _kicks_bound(problem: PaymentProblem) -> int:
    """More kicks than the board could ever pay for (model.problem.Spell.kicks_within)."""
    supply = build_supply(problem.with_kicks(False, 0))
    return problem.spell.kicks_within(supply.mana_bound, problem.player.life, problem.player.graveyard)


def _with_choices(result, spell, kicked: bool, kicks: int):
    """A plan says whether it pays the kicker and how many kicks (the answer's top level)."""
    if not isinstance(result, Plan):
        return result
    return replace(result, kicked=kicked if spell.kicker is not None else None,
                   kicks=kicks if spell.multikicker is not None else None)


def answer_pay(problem: PaymentProblem, supply: Supply, budget: Budget, plain_path: bool = True):
    plain = plain_payment(problem, supply) if plain_path else None
    if plain is NO_WAY_PAYS:
        return unpayable(problem, supply, budget)
    if plain is not None:
        if isinstance(plain, Plan):
            check_plan(problem, plain)
        return plain
    found = best_plan(problem, supply, problem.spell.cost.x, budget)
    if found == Status.INFEASIBLE:
        return unpayable(problem, supply, budget)
    if isinstance(found, Status):
        return budget.undecided()
    model, solver, optimal = found
    plan = extract_plan(problem, model, solver, optimal)
    helping = _precast_help(problem, supply, model.objective_tuple(solver), budget)
    if helping:
        plan = replace(plan, better_before_casting=tuple(sorted(helping.items())))
    if budget.spent:  # the whole question stays within its time guard: no plan goes out unchecked
        return budget.undecided()
    check_plan(problem, plan)
    return plan


def answer_can_pay(problem: PaymentProblem, supply: Supply, budget: Budget):
    """Yes or no, without the best plan: Hall's condition decides plain boards exactly
    (its violated set is the proof); boards of tap abilities that make several mana or
    cost mana by the pools they can make (``solver.pools``); otherwise a quick relaxed
    solve may say yes, and the full planner decides the rest."""
    view = plain_view(problem, supply)
    if view is not None:
        if hall_violation(view.needs, view.sources) is None:
            return Payable()
        return unpayable(problem, supply, budget, hall_certificate(problem, supply, view) if problem.explain_no else None)
    two_way = two_way_payable(problem, supply)  # (a twobrid or Phyrexian cost on a plain board)
    if two_way is not None:
        return Payable() if two_way else unpayable(problem, supply, budget)
    pooled = pool_can_pay(problem, supply)  # (Signets, filter lands, bounce lands: the pools the board makes)
    if pooled is not None:
        return Payable() if pooled else unpayable(problem, supply, budget)
    if _quick_yes(problem, supply, budget):
        return Payable()
    full = answer_pay(problem, supply, budget, plain_path=False)
    return Payable() if isinstance(full, Plan) else full


def _precast_help(problem: PaymentProblem, supply: Supply, than: tuple | None, budget: Budget) -> dict:
    """Abilities that can't be activated mid-cast (not mana abilities, or instant-only)
    but would pay the cost (``than`` None) or pay it better than ``than``, activated
    before casting: {permanent id: why it can't be used mid-cast}."""
    precast = {(pid, i): why for pid, i, why in supply.excluded if why in PRECAST_ONLY}
    if not precast or not problem.mid_cast:  # asked with priority: the plan already uses them
        return {}
    wider = build_supply(problem, allow_precast=True)
    try:
        found = best_plan(problem, wider, problem.spell.cost.x, budget)
    except ModelTooLarge:
        return {}  # (a hint beside an answer in hand)
    if isinstance(found, Status):
        return {}
    model, solver, _ = found
    if than is not None and not model.objective_tuple(solver) < than:
        return {}
    helping = {}
    for (l, j, ai), v in model.act_vars.items():
        a = wider.acts[j]
        ids = [pid for pid in wider.groups[a.group].ids if (pid, a.index) in precast]
        for pid in ids[: solver.value(v)]:
            helping[pid] = precast[(pid, a.index)]
    return helping


def _quick_yes(problem: PaymentProblem, supply: Supply, budget: Budget) -> bool:
    """"Can I pay?" without the best plan: a relaxed chain model whose only objective is
    to fund nothing inside its last layer. A solution that does is a real payment (yes);
    anything else goes to the full planner, which also writes the proof of a no."""
    if supply.doubles:
        return False  # its relaxed model bounds a doubling's amount only: the full planner decides
    full = activation_bound(supply)
    layers = min(full, DEPTHS[0])
    try:
        model = PaymentModel(problem, supply, layers, problem.spell.cost.x, relaxed_tail=layers < full)
    except ModelTooLarge:
        return False  # (the full planner says what it can)
    model.minimize_tail_self_funding()
    solver, status = model.solve(budget.left())
    return status.solved and model.tail_is_real(solver)


def unpayable(problem: PaymentProblem, supply: Supply, budget: Budget, proof: Unpayable | None = None) -> Unpayable:
    """The proof for an infeasible model: a counting bound if one exists, else the
    exhaustive search, plus a hint when abilities that can't be used mid-cast would help.
    Where no words are asked (``explain_no`` off), the no alone."""
    if not problem.explain_no:
        return proof or Unpayable(NO_PAYMENT, UNEXPLAINED)
    proof = proof or counting_bound(problem, supply) or Unpayable(NO_PAYMENT, _no_payment_message(problem))
    helping = _precast_help(problem, supply, None, budget)
    if not helping:
        return proof
    message = (f"payable only by activating {listing(helping)} before casting, since those can't be activated "
               f"while a spell is being cast (CR 601.2g); without them it " + proof.message)
    return Unpayable(NEEDS_ACTIVATION_BEFORE_CASTING, message, proof.certificate, tuple(sorted(helping)),
                     proof.code)


#: the message of a no given without its proof (``PaymentProblem.explain_no`` off)
UNEXPLAINED = "no payment exists (asked without its proof in words)"


def _no_payment_message(problem: PaymentProblem) -> str:
    cost = problem.spell.cost
    text = str(cost.mana_cost)
    if cost.x:
        text += f" with X={cost.x}"
    return (f"no order of mana abilities pays {text}: every source was counted, but their costs, "
            f"colors and the order they can be activated in leave the cost short")


def answer_max_x(problem: PaymentProblem, supply: Supply, budget: Budget, plain_path: bool = True):
    """The largest X that can be paid: on a plain board, by Hall's condition at each X
    (solver.hall.plain_max_x), then the transport's plan at it; elsewhere one solve
    maximising X over a relaxation of every plan (the relaxed chain model), then the exact
    planner at that X, searching down by halves only if the relaxation promised too much.
    The board's grouping serves every X."""
    if problem.spell.cost.x_count == 0:
        return _with_x_announced(answer_pay(problem.with_x(problem.spell.cost.x), supply, budget), 0)
    x = plain_max_x(problem, supply) if plain_path else None
    if x is not None:
        if x < 0:
            return unpayable(problem.with_x(0), supply, budget)
        out = answer_pay(problem.with_x(x), supply, budget)
        if isinstance(out, Plan):
            return _with_x_announced(out, x)
    if supply.doubles:  # a relaxation of every plan: its X bounds the real one
        model, solver, status = solve_self_funding(problem, supply, None, budget, maximize_x=True)
    else:
        full = activation_bound(supply)
        layers = min(full, DEPTHS[0])
        model = PaymentModel(problem, supply, layers, None, relaxed_tail=layers < full)
        model.maximize_x()
        solver, status = model.solve(budget.left())
    if status == Status.INFEASIBLE:
        return unpayable(problem.with_x(0), supply, budget)
    if status != Status.OPTIMAL:
        return budget.undecided()
    high = solver.value(model.x_var)  # an upper bound on X: the relaxation admits every plan
    first = answer_pay(problem.with_x(high), supply, budget)
    if not isinstance(first, Unpayable):
        return _with_x_announced(first, high)
    best, low, high = None, 0, high - 1  # more X never helps: search down by halves
    while low <= high:
        x = (low + high + 1) // 2
        if budget.spent:
            return budget.undecided()
        out = answer_pay(problem.with_x(x), supply, budget)
        if isinstance(out, Undecided):
            return out
        if isinstance(out, Plan):
            best, low = (x, out), x + 1
        else:
            high = x - 1
    if best is None:
        return unpayable(problem.with_x(0), supply, budget)
    return _with_x_announced(best[1], best[0])


def _with_x_announced(result, x: int):
    """A plan says which X it announces (CR 601.2b); other answers stay as they are."""
    return replace(result, x=x) if isinstance(result, Plan) else result
