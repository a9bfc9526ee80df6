"""Several payments of one step as one CP-SAT model: spells cast one after another, and
spells kept castable after a payment (docs/protocol.md, "The hand").

Each payment is a :class:`~manaplan.solver.cpsat.PaymentModel` built into one shared
CP-SAT model, with what the payments before it in its line carry (:class:`Carried`):
the mana still floating (CR 106.4: the pool empties between steps, not between spells;
mana a restriction ties to one spell is not carried, CR 106.6), the life lost, the
permanents sacrificed. A *line* is a sequence of payments made one after another; the
permanents of a line are shared, so the lines are linked by the rules of one permanent
(:func:`link`):

- it taps once, is sacrificed once, and has only its counters (CR 302.6, 701.21);
- once sacrificed, nothing of it is used in a later payment of the line;
- a permanent is tapped before it is sacrificed.

The main line is what is paid now; a *branch* is a line that continues the main line
with spells that must stay payable afterwards (``keep_castable``): it starts with an
empty pool (floating mana empties before a later step) and is not paid now, so only the
main line's payments enter the objective.

>>> from manaplan.model.cost import SpellCost
>>> from manaplan.model.problem import PaymentProblem, Spell
>>> from manaplan.model.sources import Ability, AbilityCost, Board, Output, Permanent, Player
>>> forest = Ability(AbilityCost(tap=True), Output.parse("{G}"))
>>> board = Board(tuple(Permanent(f"f{i}", abilities=(forest,)) for i in range(3)))
>>> bear = Spell(SpellCost.of("{1}{G}"), id="bear")
>>> turn = TurnModel(PaymentProblem(bear, board, Player()), [bear], [[Spell(SpellCost.of("{G}"), id="elf")]])
>>> solver, status = turn.solve(5.0)
>>> status.solved, [len(p.tapped) for p in turn.plans(solver)]
(True, [2])
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ..model.mana import Mana
from ..model.oracle import EXILE_FROM_HAND
from ..model.plan import GRAVEYARD
from ..model.problem import PaymentProblem, pool_after_cast
from ..model.sources import Board, Player

from .chains import depth_bound
from .cpsat import (TURN_TUNING, Carried, Objective, PaymentModel, _is_zero, _sum, check_model_size, new_model,
                    solve_lexicographic)
from .extract import extract_plan
from .supply import build_supply


def carriable(kind: tuple) -> bool:
    """Whether mana of this kind stays usable for a later spell of the step: not mana
    that a restriction, convoke, improvise or delve tie to one spell (CR 106.6)."""
    _, _, spell_only, generic_only, ability_only, keyword = kind
    return not spell_only and not generic_only and not ability_only and not keyword


class Depth:
    """How deep each payment of a turn model chains: ``layers`` None for each payment's
    deepest chain (:func:`solver.chains.depth_bound`: exact); else at most that many
    layers, the last a relaxed tail standing for every deeper activation when
    ``relaxed`` (a relaxation: its "no" is a proof, its optimum a lower bound) or not
    (a restriction: its plans are real). The planner tries shallow depths first
    (``planner.best_plan``'s order), as for one payment."""

    def __init__(self, layers: int | None = None, relaxed: bool = False):
        self.layers, self.relaxed = layers, relaxed
        self.exact = True  # every payment was built at its deepest chain
        self.cells = 0  # layers times abilities, over the payments: the model's size

    def payment(self, problem: PaymentProblem, supply, x, model, carried, candidates=None) -> PaymentModel:
        """One payment's model at this depth (a doubling is never relaxed: its amount is
        the pool at one point; it gets its deepest chain)."""
        full = depth_bound(supply)
        layers, relaxed = full, False
        if self.layers is not None and self.layers < full and not supply.doubles:
            layers, relaxed = self.layers, self.relaxed
            self.exact = False
        self.cells += max(1, layers) * len(supply.acts)
        check_model_size(self.cells)
        return PaymentModel(problem, supply, layers, x, relaxed_tail=relaxed, model=model, carried=carried,
                            candidates=candidates)


class TurnModel:
    """The payments of ``main`` (spells paid now, in order) and of each line of
    ``branches`` (spells that must stay payable after them), on ``base``'s board, each
    chaining as deep as ``depth`` says (default: exact)."""

    def __init__(self, base: PaymentProblem, main: list, branches: list = (), depth: Depth | None = None):
        self.model = new_model()
        self.base = base
        self.depth = depth = depth or Depth()
        everything = list(main) + [s for line in branches for s in line]
        self.grouping = (any(s.convoke for s in everything), any(s.improvise for s in everything))
        self.main, after_main, joined = self._line(main, Carried(), first_pool=True)
        # a kept spell is paid in a later step: floating mana is gone by then (CR 106.4)
        self.branches = [self._line(line, replace(after_main, pool={}), first_pool=False, joined=joined)[0]
                         for line in branches]
        link(self.model, self.main)
        for line in self.branches:
            link(self.model, self.main + line)
        self.objective_terms, self.objective_bounds = self._objective()

    # -- building --------------------------------------------------------------------------
    def _line(self, spells: list, carried: Carried, first_pool: bool, joined: tuple = ()) -> tuple:
        """One PaymentModel per spell, each carrying what the ones before it leave: their
        floating mana, what they added on resolving, the permanents they became; with
        what the last one leaves, and the permanents joined by then."""
        models = []
        for i, spell in enumerate(spells):
            player = self.base.player if first_pool and i == 0 else replace(self.base.player, pool=())
            # a permanent that joined is counted too (Cradle, devotion): the board as given, plus it
            source = self.base.board.counted_from or self.base.board
            board = self.base.board if not joined else Board(source.permanents + joined)
            problem = replace(self.base, spell=spell, player=player, board=board, query="pay", hand=(), keep=(),
                              spells=())
            supply = build_supply(problem, grouping=self.grouping)
            pm = self.depth.payment(problem, supply, spell.cost.x, self.model, carried)
            models.append(pm)
            carried = carried_after(models, carried)
            for t in spell.adds:  # a ritual's mana, once it resolves
                k = Mana(t).kind
                carried.pool[k] = carried.pool.get(k, 0) + 1
            carried.pool_bound += len(spell.adds)
            if spell.permanent is not None:
                joined += (spell.permanent,)
        return models, carried, joined

    def _objective(self) -> tuple:
        """The protocol's objective over the main line's payments: the sum of each term;
        for mana left floating, the sum of what floats after each payment (mana made for
        a later spell is made while paying it, where the order allows)."""
        terms = [pm.objective_terms for pm in self.main]
        bounds = [pm.objective_bounds() for pm in self.main]
        summed = Objective(*(_sum([t[i] for t in terms if not _is_zero(t[i])]) for i in range(len(Objective._fields))))
        summed_bounds = Objective(*(sum(b[i] for b in bounds) for i in range(len(Objective._fields))))
        return summed, summed_bounds

    # -- solving ---------------------------------------------------------------------------
    def solve(self, time_limit: float):
        """(solver, Status) of the lexicographic optimum of the main line."""
        hinted = []
        rank = self.base.prefer.rank
        return solve_lexicographic(self.model, rank(self.objective_terms), rank(self.objective_bounds), hinted,
                                   time_limit, TURN_TUNING)

    def payments(self) -> list:
        """Every payment of the model: the main line's, then each branch's."""
        return self.main + [pm for line in self.branches for pm in line]

    def tails_are_real(self, solver) -> bool:
        """Whether every relaxed tail of a solution is a real chain (PaymentModel.tail_is_real)."""
        return all(pm.tail_is_real(solver) for pm in self.payments() if pm.relaxed)

    def objective_tuple(self, solver) -> tuple:
        """The objective's value in a solution (comparable across depths)."""
        return objective_value(solver, self.base.prefer.rank(self.objective_terms))

    def plans(self, solver, optimal: bool = True) -> list:
        """The main line's plans, each carried out on what the ones before it left (the
        floating mana that may be carried now comes from the pool)."""
        out, pool = [], None
        for pm in self.main:
            plan = extract_plan(pm.problem, pm, solver, optimal, start_pool=pool, earlier=tuple(out))
            out.append(plan)
            pool = pool_after_cast(Player().after(plan).pool, pm.problem.spell)
        return out


def carried_after(models: list, before: Carried) -> Carried:
    """What the payments of ``models`` (the last one new) leave the next one."""
    if not models:
        return before
    last = models[-1]
    pool = {k: e for k, e in last.floating_by_kind().items() if carriable(k)}
    sacrificed = dict(before.sacrificed)
    for g, grp in enumerate(last.supply.groups):
        used = last.group_usage(g)["sacrifices"]
        if not (isinstance(used, int) and used == 0):
            sacrificed[grp.ids] = sacrificed.get(grp.ids, 0) + used
    return Carried(pool, last.bound, before.life_lost + last.life_lost(), sacrificed,
                   before.energy_paid + last.energy_paid())


def link(m, line: list) -> None:
    """The rules of one permanent across the payments of a line (see the module)."""
    by_ids: dict = {}
    for k, pm in enumerate(line):
        for g, grp in enumerate(pm.supply.groups):
            delve = any(a.exile for a in pm.acts if a.group == g)  # each payment sizes its own: one graveyard
            by_ids.setdefault(GRAVEYARD if delve else grp.ids, []).append((k, pm, g, grp))
    for ids, places in by_ids.items():
        if len(places) < 2:
            continue
        grp = places[0][3]
        usage = [(k, pm.group_usage(g), pm, g) for k, pm, g, _ in places]
        if ids == GRAVEYARD:  # delve: each card of the graveyard exiled once in the whole line
            m.add(_sum([u["uses"] for _, u, _, _ in usage]) <= places[0][1].problem.player.graveyard)
            continue
        for key in ("taps", "sacrifices"):
            terms = [u[key] for _, u, _, _ in usage if not _is_zero(u[key])]
            if len(terms) > 1:
                m.add(_sum(terms) <= grp.size)
        kinds = {kind for _, u, _, _ in usage for kind in u["counters"]}
        for kind in kinds:
            m.add(_sum([u["counters"][kind] for _, u, _, _ in usage if kind in u["counters"]])
                  <= grp.size * grp.counter(kind))
        for split in range(1, len(usage)):
            early = [u["sacrifices"] for k, u, _, _ in usage if k < split and not _is_zero(u["sacrifices"])]
            if not early:
                continue
            late_taps = [u["taps"] for k, u, _, _ in usage if k >= split and not _is_zero(u["taps"])]
            if late_taps:
                m.add(_sum(early) + _sum(late_taps) <= grp.size)
            if grp.size == 1:  # one permanent: nothing of it after its sacrifice
                late = [u["uses"] for k, u, _, _ in usage if k >= split and not _is_zero(u["uses"])]
                if late:
                    most = sum(a.cap for k, _, pm, g in usage if k >= split for a in pm.acts if a.group == g)
                    m.add(_sum(late) + most * _sum(early) <= most)


class ChosenTurnModel:
    """Spells of a hand cast in an order the model chooses, as one model: ``best_turn``
    (which of them, and in what order, for the most value) and ``sequence`` in any order
    (all of them).

    Payment ``w`` (a *window*) pays at most one spell: ``cast[i][w]`` says it is spell
    ``i``, and each candidate's cost is scaled by it (PaymentModel's candidates). The
    board holds, besides the permanents, every permanent a spell of the hand becomes and
    the lands the land drop may play; their abilities are used only once they are there:
    a spell's permanent after the window that cast it, a land if it was played (first:
    it is not a spell, CR 305.1). A ritual's mana joins the pool after its window. As in
    :class:`TurnModel`, the windows are linked by the rules of one permanent."""

    def __init__(self, base: PaymentProblem, spells: list, lands: list = (), all_of_them: bool = False,
                 land_drop: bool = True, depth: Depth | None = None):
        self.model = m = new_model()
        self.depth = depth = depth or Depth()
        self.base, self.spells, self.lands = base, list(spells), list(lands) if land_drop else []
        n = len(self.spells)
        self.cast = [[m.new_bool_var(f"cast_{i}_{w}") for w in range(n)] for i in range(n)]
        self.played = [m.new_bool_var(f"play_{land.id}") for land in self.lands]
        for w in range(n):
            m.add(sum(self.cast[i][w] for i in range(n)) <= 1)
            if w:  # windows are used in order: no gap (symmetry)
                m.add(sum(self.cast[i][w] for i in range(n)) <= sum(self.cast[i][w - 1] for i in range(n)))
        for i in range(n):
            m.add(sum(self.cast[i]) == 1) if all_of_them else m.add(sum(self.cast[i]) <= 1)
        if self.played:
            m.add(sum(self.played) <= 1)  # one land drop (CR 305.2)
        # a card exiled from the hand for mana (Simian Spirit Guide) is a source on the board
        # already (its id); cast instead, its permanent is not followed
        joined = tuple(s.permanent for s in self.spells if s.permanent is not None and s.from_hand is None)
        board = Board(base.board.permanents + tuple(land.permanent for land in self.lands) + joined)
        self.board = board
        everything = self.spells
        grouping = (any(s.convoke for s in everything), any(s.improvise for s in everything))
        self.windows = []
        carried = Carried()
        for w in range(n):
            player = base.player if w == 0 else replace(base.player, pool=())
            problem = replace(base, spell=self.spells[w], player=player, board=board, query="pay", hand=(), keep=(),
                              spells=())
            supply = build_supply(problem, grouping=grouping, spells=tuple(self.spells))
            pm = depth.payment(problem, supply, 0, m, carried,
                               candidates=[(s, self.cast[i][w]) for i, s in enumerate(self.spells)])
            self._gate_arrivals(pm, w)
            self.windows.append(pm)
            carried = carried_after(self.windows, carried)
            for i, s in enumerate(self.spells):  # a ritual's mana, once it resolves
                for t, c in Counter(s.adds).items():
                    k = Mana(t).kind
                    carried.pool[k] = carried.pool.get(k, 0) + c * self.cast[i][w]
                carried.pool_bound += len(s.adds)
        link(self.model, self.windows)
        self._cast_or_exile()
        self.value = _sum([s.worth * self.cast[i][w] for i, s in enumerate(self.spells) for w in range(n)])
        terms, bounds = self._payment_objective()
        most = sum(s.worth for s in self.spells)
        # value first, then the payments' objective, then no land played that isn't needed
        rank = base.prefer.rank
        self.objective_terms = (most - self.value,) + rank(terms) + (_sum(list(self.played)),)
        self.objective_bounds = (most,) + rank(bounds) + (len(self.played),)

    def _cast_or_exile(self) -> None:
        """A card is cast, or played as the land drop, or exiled from the hand for mana:
        one of them (CR 113.6m: its ability works only while it is in the hand)."""
        for i, s in enumerate(self.spells):
            if s.from_hand is not None:
                self.model.add(self._exiled(s.from_hand.id) + sum(self.cast[i]) <= 1)
        for k, land in enumerate(self.lands):
            if land.from_hand is not None:
                self.model.add(self._exiled(land.from_hand.id) + self.played[k] <= 1)

    def _exiled(self, card_id: str):
        """How many times the card ``card_id`` is exiled from the hand for mana (its
        hand's group: a land card's permanent, once played, has the same id)."""
        return _sum([pm.group_usage(g)["sacrifices"] for pm in self.windows
                     for g, grp in enumerate(pm.supply.groups) if grp.ids == (card_id,) and _in_hand(pm, g)])

    def _gate_arrivals(self, pm: PaymentModel, w: int) -> None:
        """A spell's permanent is used only after the window that cast it; a land only if
        it was played."""
        arrives = {}
        for i, s in enumerate(self.spells):
            if s.permanent is not None and s.from_hand is None:
                arrives[s.permanent.id] = _sum([self.cast[i][v] for v in range(w)]) if w else 0
        for k, land in enumerate(self.lands):
            arrives[land.id] = self.played[k]
        for g, grp in enumerate(pm.supply.groups):
            here = [arrives[pid] for pid in grp.ids if pid in arrives]
            if not here or _in_hand(pm, g):  # (a land card's ability from the hand: before it arrives)
                continue
            uses = pm.group_usage(g)["uses"]
            if _is_zero(uses):
                continue
            most = sum(a.cap for a in pm.acts if a.group == g)
            gate = here[0]
            if _is_zero(gate):
                self.model.add(uses == 0)
            else:
                self.model.add(uses <= most * gate)

    def _payment_objective(self) -> tuple:
        terms = [pm.objective_terms for pm in self.windows]
        bounds = [pm.objective_bounds() for pm in self.windows]
        fields = range(len(Objective._fields))
        return (Objective(*(_sum([t[i] for t in terms if not _is_zero(t[i])]) for i in fields)),
                Objective(*(sum(b[i] for b in bounds) for i in fields)))

    def solve(self, time_limit: float):
        return solve_lexicographic(self.model, self.objective_terms, self.objective_bounds, [], time_limit,
                                   TURN_TUNING)

    def tails_are_real(self, solver) -> bool:
        """Whether every relaxed tail of a solution is a real chain (PaymentModel.tail_is_real)."""
        return all(pm.tail_is_real(solver) for pm in self.windows if pm.relaxed)

    def objective_tuple(self, solver) -> tuple:
        """The objective's value in a solution (comparable across depths)."""
        return objective_value(solver, self.objective_terms)

    def chosen(self, solver) -> tuple:
        """(the spells cast in order, the land played or None)."""
        order = []
        for w in range(len(self.spells)):
            order += [s for i, s in enumerate(self.spells) if solver.value(self.cast[i][w])]
        land = next((land for k, land in enumerate(self.lands) if solver.value(self.played[k])), None)
        return order, land

    def plans(self, solver, optimal: bool = True) -> list:
        """The plans of the windows that cast a spell, in order, each from what the ones
        before it left."""
        order, _ = self.chosen(solver)
        out, pool = [], None
        for w, spell in enumerate(order):
            pm = self.windows[w]
            plan = extract_plan(replace(pm.problem, spell=spell), pm, solver, optimal, start_pool=pool,
                                earlier=tuple(out))
            out.append(plan)
            pool = pool_after_cast(Player().after(plan).pool, spell)
        return out


def _in_hand(pm: PaymentModel, g: int) -> bool:
    """Whether group ``g`` is a card in the hand (its one ability: exile it for mana)."""
    return any(a.group == g and a.text == EXILE_FROM_HAND for a in pm.acts)


def objective_value(solver, terms) -> tuple:
    """The value of each objective term in a solution (a term may be a constant)."""
    return tuple(PaymentModel.value(solver, term) for term in terms)
