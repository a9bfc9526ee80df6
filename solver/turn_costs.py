"""What a turn's spell costs at its turn in the order (CR 601.2f: the total is locked in
as the spell is cast, on the board as it stands then), in a model of several payments
(solver.turn).

Each payment of a turn is built on a board worked out by model/ code: the permanents as
given, those of the cards cast before it that change what spells cost or what lands are
(a Medallion, Trinisphere, Blood Moon: their place in the order is fixed for the model),
the land played, and the spells cast so far (Damping Sphere); its spell is costed there
(:meth:`PaymentProblem.cost_on <manaplan.model.problem.PaymentProblem.cost_on>`). What
the model itself decides still moves the total, and :func:`cost_shift` says how, as
model expressions:

- a count of the caster's permanents (affinity, "for each artifact you control", Hum of
  the Radix, metalcraft's "three or more", Ghalta's total power) rises with each
  permanent that joined since (a card cast earlier, the land played) and falls with each
  one sacrificed earlier (Ashnod's Altar, Lotus Petal): :class:`CountedCost`;
- an effect whose permanent was sacrificed earlier no longer applies (Thalia sacrificed
  to an altar), and a floor whose permanent was tapped earlier (Trinisphere tapped for
  improvise) no longer applies (CR 601.2f, the floor "as long as ~ is untapped").

The plan read back is costed again on the board its earlier plans left
(solver.turn's ``plans``), and held to what the model demanded: a shift that was wrong
is a failed plan, never a wrong answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from manaplan.model.cost_effects import CountedCost
from manaplan.model.symbols import GENERIC
from manaplan.solver.payment_values import CostShift
from manaplan.solver.payment_victims import Victim
from manaplan.solver.runtime import is_one, is_zero, linear_sum


class NotFollowed(Exception):
    """A turn whose totals the model can't follow exactly (a count that is not a sum,
    the permanent of a counted effect sacrificed): the answer says it is not known."""


@dataclass
class Earlier:
    """What the payments before one of a turn did to the board its spell was costed on,
    as model expressions: permanents that joined since (each with how many of it are
    there: a 0/1 expression), and for each group of permanents used before (by its ids)
    a permanent of it, how many of it were sacrificed and how many tapped."""

    joined: list = field(default_factory=list)  # (Permanent, expression)
    gone: dict = field(default_factory=dict)  # ids -> (Permanent, sacrificed, tapped)

    def __bool__(self) -> bool:
        return bool(self.joined or self.gone)


def sacrificed_before(windows: list, ids: tuple):
    """How many of the permanents ``ids`` the payments ``windows`` sacrificed (for mana
    or for a spell's additional cost)."""
    terms = []
    for pm in windows:
        terms += [pm.group_usage(g)["sacrifices"] for g, grp in enumerate(pm.supply.groups) if grp.ids == ids]
        beyond = pm.victims_beyond_supply().get(ids)
        if beyond is not None:
            terms.append(beyond)
    return linear_sum([t for t in terms if not is_zero(t)])


def victim_options(spell, supply, board, windows: list, arrival) -> list | None:
    """What ``spell`` may sacrifice for its additional cost (solver.payment_victims) in a
    payment from ``supply`` on ``board`` after the payments ``windows``: each group of
    the supply (or of the board, for permanents no ability of which pays) of a kind
    the cost names, with how many of it are there (``arrival``: a permanent's key -> how
    many of it have arrived, for the permanents of cards and lands of the turn; 1 for
    the others) less those sacrificed before; None where it sacrifices nothing."""
    if not spell.sacrifices:
        return None
    if len(spell.sacrifices) > 1:
        raise NotFollowed(f"{spell.id or 'the spell'} has two additional costs that sacrifice")
    kinds = spell.sacrifices[0].kinds
    there: dict = {}  # ids -> [a permanent, arrived]
    covered = set()
    for grp in supply.groups:
        covered.update(grp.ids)
        rep = board.find(grp.ids[0])
        if rep is None or grp.key.startswith("hand|"):
            continue
        entry = there.setdefault(grp.ids, [rep, []])
        entry[1].append(arrival.get(arrival_key(grp.key), 1))
    for body, ids in board.kinds:
        if not set(ids) & covered and not body.key.startswith("hand|"):
            entry = there.setdefault(tuple(ids), [body, []])
            entry[1].append(arrival.get(arrival_key(body.key), 1))
    out = []
    for ids, (rep, arrived) in there.items():
        if not any(rep.is_a(k) for k in kinds):
            continue
        present = len(ids) * linear_sum([a for a in arrived if not is_zero(a)]) if any(
            not isinstance(a, int) for a in arrived) else len(ids) * min(1, sum(arrived))
        gone = sacrificed_before(windows, ids)
        out.append(Victim(ids, present - gone if not is_zero(gone) else present, rep))
    return out


def arrival_key(key) -> str:
    """A permanent's key as its arrival is known by: without what a change of its land
    types added to it (model.land_types: a land played under Blood Moon is a Mountain)."""
    return key.split("|types")[0] if isinstance(key, str) else key


def earlier_uses(windows: list, find) -> dict:
    """ids -> (a permanent of the group, sacrificed, tapped) over the payments ``windows``
    (PaymentModels made before), ``find`` giving a permanent by id (None: not one of the
    caster's permanents, such as a card exiled from the hand)."""
    out: dict = {}
    for pm in windows:
        for g, grp in enumerate(pm.supply.groups):
            usage = pm.group_usage(g)
            if is_zero(usage["sacrifices"]) and is_zero(usage["taps"]):
                continue
            rep = find(grp.ids[0])
            if rep is None:
                continue
            _, sac, tap = out.get(grp.ids, (rep, [], []))
            out[grp.ids] = (rep, sac + [usage["sacrifices"]], tap + [usage["taps"]])
    for pm in windows:  # what an additional cost sacrificed of permanents no ability of which pays
        for ids, victims in pm.victims_beyond_supply().items():
            rep = find(ids[0])
            if rep is not None:
                _, sac, tap = out.get(ids, (rep, [], []))
                out[ids] = (rep, sac + [victims], tap)
    return {ids: (rep, linear_sum([t for t in sac if not is_zero(t)]), linear_sum([t for t in tap if not is_zero(t)]))
            for ids, (rep, sac, tap) in out.items()}


def moves_with_the_board(spell) -> bool:
    """Whether what the turn does before ``spell`` may move its total: it counts the
    caster's permanents, or a permanent's effect on it may be sacrificed or tapped."""
    if spell.cost_counts or any(a.source for a in spell.cost_effects):
        return True
    return bool(_given_keywords(spell))  # (a keyword the board gives it: its giver may go)


def _given_keywords(spell) -> list:
    """The cost keywords (convoke, improvise, delve) the board gives ``spell`` and its
    own text doesn't (Chief Engineer's "Artifact spells you cast have convoke")."""
    unapplied = spell.unapplied()
    return [k for k in ("convoke", "improvise", "delve") if getattr(spell, k) and not getattr(unapplied, k)]


def cost_shift(m, spell, sel, earlier: Earlier, name: str) -> CostShift | None:
    """How what was done before moves ``spell``'s total (costed on a board without it:
    see the module), each expression 0 unless ``sel`` (1, or the 0/1 variable of the
    candidate); None where nothing moves it."""
    if not earlier or not moves_with_the_board(spell):
        return None
    shift = CostShift()
    gone_ids = {i for ids, (_, sacrificed, _) in earlier.gone.items() if not is_zero(sacrificed) for i in ids}
    _keywords_stay(spell, earlier)
    for k, counted in enumerate(spell.cost_counts):
        _count_shift(m, counted, earlier, gone_ids, sel, shift, f"{name}_{k}")
    counted_sources = {(c.source, c.text) for c in spell.cost_counts}
    floors = []
    for ids, (rep, sacrificed, tapped) in earlier.gone.items():
        floor = max((a.amount for a in spell.cost_effects if a.what == "minimum" and a.source in ids), default=0)
        if floor:  # (a floor of the group's: one of them untapped and there keeps it)
            floors.append((floor, ids, sacrificed, tapped))
        # each permanent of the group brings the same parts: one's stand for each (CR 601.2f)
        parts = [a for a in spell.cost_effects if a.source == ids[0] and (a.source, a.text) not in counted_sources]
        for part in parts:
            if part.what == "minimum":
                continue
            elif not is_zero(sacrificed):  # each permanent of the group brings the part (CR 601.2f)
                for sym in part.amount.symbols:
                    kind = "generic" if sym.kind == GENERIC else sym.colors[0]
                    per = sym.amount if sym.kind == GENERIC else 1
                    most = per * len(ids)
                    shift.add(part.what, kind, _gated(m, -per * sacrificed, sel, -most, 0))
    if floors:
        shift.floor = _floor(m, spell, floors, sel, name)
    shift.bound = sum(c.amount_at(c.count + _most_joined(c, earlier)) for c in spell.cost_counts if c.what == "increase")
    if not (shift.increase or shift.reduce or shift.floor is not None):
        return None
    return shift


def _keywords_stay(spell, earlier: Earlier) -> None:
    """A cost keyword the board gives the spell (convoke from Chief Engineer) must still be
    given when it is cast: where the permanent that gives it may have been sacrificed
    before, the turn is not followed (NotFollowed)."""
    given = _given_keywords(spell)
    if not given:
        return
    for ids, (rep, sacrificed, _) in earlier.gone.items():
        if not is_zero(sacrificed) and any(e.change == "keyword" and e.keyword in given for e in rep.cost_effects):
            raise NotFollowed(f"{spell.id or 'a spell'} has {given[0]} from {ids[0]}, which may be sacrificed "
                              f"earlier in the turn")


def _most_joined(counted: CountedCost, earlier: Earlier) -> int:
    return sum(counted.weight(p) for p, _ in earlier.joined)


def _count_shift(m, counted: CountedCost, earlier: Earlier, gone_ids: set, sel, shift: CostShift, name: str) -> None:
    """The change of one counted part: each permanent's weight as it joined or left."""
    if counted.source and counted.source in gone_ids:
        raise NotFollowed(f"{counted.text!r} counts while its own permanent may be sacrificed earlier in the turn")
    terms, low, high = [], 0, 0
    for p, there in earlier.joined:
        w = counted.weight(p)
        if w:
            terms.append(w * there)
            high += w
    for ids, (rep, sacrificed, _) in earlier.gone.items():
        w = counted.weight(rep)
        if w and not is_zero(sacrificed):
            terms.append(-w * sacrificed)
            low -= w * len(ids)
    if not terms:
        return
    if not counted.linear:
        raise NotFollowed(f"{counted.text!r} counts {counted.per}, which changes with the permanents cast or "
                          f"sacrificed earlier in the turn in a way not followed")
    change = linear_sum(terms)
    unit = sum(s.amount for s in counted.unit.symbols)
    if counted.at_least:  # the whole amount once the count reaches it: reified (CR 601.2f)
        reached = m.new_bool_var(f"reached_{name}")
        now = 1 if counted.count >= counted.at_least else 0
        m.add(counted.count + change >= counted.at_least).only_enforce_if(reached)
        m.add(counted.count + change <= counted.at_least - 1).only_enforce_if(~reached)
        shift.add(counted.what, "generic", _gated(m, unit * (reached - now), sel, -unit, unit))
        return
    shift.add(counted.what, "generic", _gated(m, unit * change, sel, unit * low, unit * high))


def _floor(m, spell, floors: list, sel, name: str):
    """The floor (CR 601.2f) as an expression: each floor whose permanent may have been
    tapped or sacrificed before applies only while one of its group is still untapped
    and there; the others (and the spell's own) as they were."""
    moving = {i for _, ids, _, _ in floors for i in ids}
    staying = {a.source for a in spell.cost_effects if a.what == "minimum"} - moving
    fixed = max([a.amount for a in spell.cost_effects if a.what == "minimum" and a.source in staying]
                + [spell.unapplied().cost.minimum], default=0)
    terms = [fixed] if fixed else []
    for k, (amount, ids, sacrificed, tapped) in enumerate(floors):
        size = len(ids)
        active = m.new_bool_var(f"floor_{name}_{k}")
        out = linear_sum([t for t in (sacrificed, tapped) if not is_zero(t)])
        # one of them untapped and there: the floor applies (a permanent both tapped and sacrificed
        # counts twice here, which can only keep the floor off where one is left: see the plan's replay)
        m.add(size * active >= size - out)
        for t in (sacrificed, tapped):
            if not is_zero(t):
                m.add(active <= size - t)
        terms.append(amount * active)
    top = max([fixed] + [amount for amount, _, _, _ in floors])
    floor = m.new_int_var(0, top, f"floor_{name}")
    m.add_max_equality(floor, terms or [0])
    return _gated(m, floor, sel, 0, top)


def _gated(m, expr, sel, low: int, high: int):
    """``expr`` where ``sel`` (1, or a 0/1 variable), else 0: a new variable."""
    if is_one(sel):
        return expr
    v = m.new_int_var(min(low, 0), max(high, 0), "shift")
    m.add(v == expr).only_enforce_if(sel)
    m.add(v == 0).only_enforce_if(~sel)
    return v


def spells_cast_after(player, windows: int):
    """The player as a spell ``windows`` later in the turn finds it: that many more
    spells cast this turn (Damping Sphere counts them), where the count is known."""
    if player.spells_cast is None or not windows:
        return player
    return replace(player, spells_cast=player.spells_cast + windows)

