"""The rule about card text that was not read (docs/protocol.md, "Card text"): a "yes"
uses only what was read, and stands; a "no" found without the unread lines is not
certain (``payable: null``, reason ``unread_abilities``, naming each card and line);
text that changes what spells cost makes any answer uncertain unless the spell says how
its cost changes. Every query's answer passes through :func:`unless_unread`, or lists
the lines (``best_turn``'s ``not_modelled``) through :func:`unread_of`.
"""

from __future__ import annotations

from manaplan.model.oracle import CHANGES_ABILITIES, CHANGES_COSTS, CHANGES_TURNS, LOYALTY_TIMING
from manaplan.model.plan import NO_MANA_COST, UNREAD_ABILITIES, Payable, Plan, Sequence, Undecided, Unpayable
from manaplan.model.problem import FOLLOWED_IN_A_TURN, BEST_TURN, SEQUENCE, PaymentProblem


def _cast_in(problem: PaymentProblem) -> tuple:
    """The spells the question casts: a sequence's, the hand of ``best_turn``, else its
    one spell."""
    if problem.query == SEQUENCE:
        return problem.spells
    if problem.query == BEST_TURN:
        return problem.hand
    return (problem.spell,)


def unread_of(problem: PaymentProblem) -> tuple:
    """(id, line, why) for each line about mana that was not read and could matter: the
    board's, and, where spells resolve within the step (``sequence``, ``best_turn``),
    theirs and those of the permanents they become."""
    unread = problem.board.unread
    cards = _cast_in(problem) if problem.query in (SEQUENCE, BEST_TURN) else ()
    for card in cards:
        unread += tuple((card.id, line, why) for line, why in card.unread)
        if card.permanent is not None:
            unread += tuple((card.id, line, why) for line, why in card.permanent.unread)
    return unread


def _has_instant(problem: PaymentProblem) -> bool:
    """Whether a spell of the question is an instant: then whether loyalty abilities
    could be activated first (sorcery speed, CR 606.3) is not known."""
    return any("Instant" in s.type_line.split("—")[0] for s in _cast_in(problem))


def _cost_changes_given(problem: PaymentProblem) -> bool:
    """Whether every spell the question casts says how its cost changes."""
    return all(s.cost_changes_given for s in _cast_in(problem))


def _cost_unknown(problem: PaymentProblem, unknown: tuple) -> Undecided:
    """The answer where a spell's total is not known: each line named by the permanent
    whose text it is (a Damping Sphere's, with what the request lacks) or the spell's."""
    whose = {e.text: p.id for p in problem.board.bodies + tuple(problem.opponents or ()) for e in p.cost_effects}
    whys = {line: why for s in _cast_in(problem) for line, why in s.cost_unread}
    named = tuple((whose.get(line, who), line) for who, line in unknown)
    parts = "; ".join(f"{who}: {line!r} ({whys.get(line, '')})" for who, line in named[:10])
    board_only = all(line in whose for _, line in unknown)
    advice = "" if board_only else " (a spell's own: give its total in 'additional', 'increase', 'reduce' or 'minimum')"
    return Undecided(UNREAD_ABILITIES, f"the total cost is not known: {parts}{advice}", unread=named)


def _spell_lines(problem: PaymentProblem) -> tuple:
    """(lines about a spell's own cost that were not read, as (spell, line): the total
    is not known; reasons a "no" is not certain, as (spell, line)): other ways to cast it
    that were not tried, counts that lack the opponents' permanents (model.spell_text,
    model.cost_effects)."""
    unknown, unsure = [], []
    for s in _cast_in(problem):
        who = s.id or "spell"
        unknown += [(who, line) for line, _ in s.cost_unread]
        unsure += [(who, line, why) for line, why in s.alternatives + s.cost_unsure]
        if problem.query in (SEQUENCE, BEST_TURN):  # (pay and castable try them: solver.one_spell; a turn
            # the ones of model.problem.FOLLOWED_IN_A_TURN, as ways of the card)
            unsure += [(who, alt.text, "another way to cast it, which a sequence does not try")
                       for alt in s.alternative_costs if alt.keyword not in FOLLOWED_IN_A_TURN]
    return tuple(unknown), tuple(unsure)


def unless_unread(problem: PaymentProblem, result):
    """A "no" found from the abilities that were read is not certain when some card text
    about mana was not read: ``payable: null``, naming each card and line. A "yes" uses
    only abilities that were read, and stands. A spell with no mana cost is a "no"
    whatever the board (CR 202.1b). Text about a spell's own cost that was not read
    makes any answer uncertain (its total is not known); another way to cast it that
    was not tried, a "no" (model.spell_text)."""
    unknown, unsure = _spell_lines(problem)
    if unknown and isinstance(result, (Plan, Payable, Unpayable, Sequence)):
        return _cost_unknown(problem, unknown)
    if unsure and isinstance(result, Unpayable) and result.code != NO_MANA_COST:
        lines = "; ".join(f"{who}: {line!r} ({why})" for who, line, why in unsure[:10])
        return Undecided(UNREAD_ABILITIES, f"it can't be paid as it was read ({result.message}); but {lines}",
                         unread=tuple((who, line) for who, line, _ in unsure))
    unread = unread_of(problem)
    theirs = tuple((p.id, line, why) for p in problem.opponents or () for line, why in p.unread if why == CHANGES_COSTS)
    costs = [(pid, line) for pid, line, why in unread + theirs if why == CHANGES_COSTS]
    if costs and not _cost_changes_given(problem) and isinstance(result, (Plan, Payable, Unpayable)):
        lines = "; ".join(f"{pid}: {line!r}" for pid, line in costs[:10])
        return Undecided(UNREAD_ABILITIES, f"the board has text that changes what spells cost, which is not read "
                                           f"from the board: {lines}; give the change in the spell's 'increase', "
                                           f"'reduce' or 'minimum' (empty when none applies)",
                         unread=tuple(costs))
    # (what changes a turn's entering and land drops matters to the turn's queries only)
    kinds = (CHANGES_ABILITIES, CHANGES_TURNS) if problem.query in (SEQUENCE, BEST_TURN) else (CHANGES_ABILITIES,)
    changing = [(pid, line) for pid, line, why in unread if why in kinds]
    changing += [(p.id, line) for p in problem.opponents or () for line, why in p.unread if why in kinds]
    if changing and isinstance(result, (Plan, Payable, Unpayable, Sequence)) and getattr(result, "code", "") != NO_MANA_COST:
        lines = "; ".join(f"{pid}: {line!r}" for pid, line in changing[:10])
        return Undecided(UNREAD_ABILITIES, f"the board has text that could change what permanents make or are, which "
                                           f"is not read: {lines}; no answer is certain with it (an answer as read "
                                           f"would be: {_said(result)})", unread=tuple(changing))
    unread = tuple(u for u in unread if u[2] not in (CHANGES_COSTS, CHANGES_ABILITIES, CHANGES_TURNS)
                   # (a loyalty ability: a question asked mid-cast can't use it, and says so with its hint;
                   # otherwise only an instant's timing leaves it open)
                   and not (u[2] == LOYALTY_TIMING and (problem.mid_cast or not _has_instant(problem))))
    if not unread or not isinstance(result, Unpayable) or result.code == NO_MANA_COST:
        return result
    lines = "; ".join(f"{pid}: {line!r}" for pid, line, _ in unread[:10])
    more = f" and {len(unread) - 10} more" if len(unread) > 10 else ""
    return Undecided(UNREAD_ABILITIES, f"the abilities read can't pay ({result.message}); but some card text about "
                                       f"mana was not read, and might: {lines}{more}",
                     unread=tuple((pid, line) for pid, line, _ in unread))


def _said(result) -> str:
    """What an answer says, in a few words (for an answer set aside as uncertain)."""
    if isinstance(result, Unpayable):
        return f"no: {result.message}"
    return "yes"
