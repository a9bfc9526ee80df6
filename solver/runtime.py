"""The OR-Tools runtime every CP-SAT model of manaplan shares: making a model, the
solver's parameters, solving it (one objective, or lexicographic stages), and what a
solve ended with (:class:`Status`); the guard on a model's size. One payment
(``solver.cpsat``), several payments of a turn (``solver.turn``) and Duel Masters
(``solver.duel_masters``) all solve through here.

OR-Tools is imported the first time a model is made (it costs about 0.4 s: plain boards
never pay it).

>>> m = new_model()
>>> x = m.new_int_var(0, 3, "x")
>>> solver, status = solve_lexicographic(m, [3 - x], [3], [], 1.0)
>>> status, solver.value(x)
(<Status.OPTIMAL: 'proven optimal'>, 3)
"""

from __future__ import annotations

import importlib
import threading
import time
from enum import Enum
from typing import Any

from manaplan.model.deadline import deadline
from manaplan.model.errors import ModelTooLarge, SolverTimeout

#: the largest range one weighted sum of the objective may span (CP-SAT works in 64-bit
#: integers and checks that no sum can overflow them)
MAX_OBJECTIVE_SPAN = 2 ** 50


class Status(Enum):
    """What a solve ended with."""

    OPTIMAL = "proven optimal"
    FEASIBLE = "a solution, not proven optimal"
    INFEASIBLE = "proven infeasible"
    UNKNOWN = "no solution found in time"

    @property
    def solved(self) -> bool:
        return self in (Status.OPTIMAL, Status.FEASIBLE)


class SolverLoading(SolverTimeout):
    """OR-Tools was still loading in the background when the question's time ran out
    (a ``serve`` just started): the answer is undecided, as when a solve runs out (a
    kind of :class:`SolverTimeout`: Duel Masters answers it so too)."""


#: set once OR-Tools is loaded by :func:`load_in_background` (None: nothing loads it)
_LOADED: threading.Event | None = None
def load_in_background(*modules: str) -> None:
    """Import ``modules`` (names relative to ``manaplan``, or absolute; OR-Tools' among
    them), in order, in a thread of their own (``serve`` from its start, the first
    question that needs the general model would spend about 0.4 s of its time guard on
    the import). A question that needs OR-Tools meanwhile waits for it within its own
    time (:func:`cp_model`)."""
    global _LOADED
    loaded = _LOADED = threading.Event()

    def load() -> None:
        try:
            for name in modules:
                importlib.import_module(name, "manaplan")
        except Exception:  # noqa: BLE001 (the question that needs it imports it, and says what is wrong)
            pass
        finally:
            loaded.set()
    threading.Thread(target=load, name="load OR-Tools", daemon=True).start()


def cp_model():
    """OR-Tools' CP-SAT module, imported the first time (about 0.4 s); while it loads in
    the background, waited for until the question's time is up (then
    :class:`SolverLoading`)."""
    loaded = _LOADED
    if loaded is not None and not loaded.is_set():
        end = deadline()
        if not loaded.wait(None if end is None else max(0.0, end - time.monotonic())):
            raise SolverLoading()
    from ortools.sat.python import cp_model  # lazy: the import costs ~0.4 s
    return cp_model


#: the most layers times abilities (each a few variables and constraints) that the
#: model of one solve may hold: past it a chain model takes gigabytes and more than the
#: time guard, so the answer is undecided (:class:`ModelTooLarge`), never a guess
#: (measured: a sequence of 3 spells on 2,000 permanents of Signets, filters, Treasures
#: and pain lands, 3 payments 338 layers deep, 37,500 cells, took 900 MB and ran out of
#: time; one of 5,000 permanents ran a machine out of its 12 GB)
MOST_MODEL_CELLS = 20_000


def check_model_size(cells: int) -> None:
    """Refuse to build a model of more than :data:`MOST_MODEL_CELLS` cells."""
    if cells > MOST_MODEL_CELLS:
        raise ModelTooLarge(cells, MOST_MODEL_CELLS)


def new_model():
    """An empty CpModel. OR-Tools' own constructor gives each model camelCase aliases
    of its methods (``_add_pre_pep8_methods``, for code written before PEP 8 names),
    which took 210 us of a model's life here, more than solving most payment models;
    manaplan calls none of them, so its models are made without (1.2 us)."""
    global _Model
    if _Model is None:
        base: Any = cp_model().CpModel  # (a class of the module imported lazily: a name, for mypy)
        class _Model(base):  # noqa: N801 (made once, when OR-Tools is first needed)
            def _add_pre_pep8_methods(self) -> None:
                pass  # (the aliases: see new_model)
    assert _Model is not None  # (the class statement above sets it)
    return _Model()


_Model: type | None = None


def linear_sum(terms: list):
    """The sum of variables and expressions as one linear expression (0 when empty).

    ``LinearExpr.sum`` builds it in one call; Python's ``sum`` chains one object per
    term, which is a measurable part of a small query (see benchmarks/)."""
    if not terms:
        return 0
    if len(terms) == 1:
        return terms[0]
    return cp_model().LinearExpr.sum(terms)


def is_one(expr) -> bool:
    """A selector that is the constant 1: the only spell of its payment."""
    return isinstance(expr, int) and expr == 1


def is_zero(expr) -> bool:
    """A demand that is the constant 0 (an empty sum): no variables are needed for it."""
    return isinstance(expr, int) and expr == 0


def objective_stages(terms, bounds) -> list:
    """The objective's terms in stages, most important first, each stage a list of
    (term, bound) whose lexicographic weights fit CP-SAT's 64-bit arithmetic with room
    to spare. A term that is a constant is left out. One stage is the rule; huge numbers
    (a graveyard of 700,000 for delve, life 1,000,000) need more."""
    stage: list[tuple]
    stages, stage, span = [], [], 1
    for term, bound in zip(terms, bounds):
        if isinstance(term, int):
            continue
        if stage and span * (bound + 1) > MAX_OBJECTIVE_SPAN:
            stages.append(stage)
            stage, span = [], 1
        stage.append((term, bound))
        span *= bound + 1
    return stages + [stage] if stage else stages


def weighted(stage: list):
    """A stage's terms as one weighted sum: each term's weight exceeds the most all later
    terms of the stage can add."""
    weight, terms, weights = 1, [], []
    for term, bound in reversed(stage):
        terms.append(term)
        weights.append(weight)
        weight *= bound + 1
    return cp_model().LinearExpr.weighted_sum(terms, weights)


#: CP-SAT's parameters for a payment's model (one spell), beside those every model gets
#: (:func:`new_solver`), chosen by measurement on the benchmark's boards: each query
#: answered in full, 40 to 80 queries a family, the same answers with every setting.
#:
#: - no presolve: chains of 100 permanents p50 5.7 -> 3.7 ms, p95 8.8 -> 7.2; converter
#:   boards of 20 p50 2.9 -> 1.7, p95 5.0 -> 2.4; boards asked for more of one color than
#:   they make (proofs of unpayability among them) p95 16 -> 10 (chains of 20) and
#:   20 -> 14 (converters). Models without layers never needed it.
#: - then no generic cuts (Chvatal-Gomory, MIR, zero-half, clique): chains of 100 p95
#:   6.7 -> 4.4 ms and p99 9.6 -> 5.1, chains of 500 p95 6.8 -> 5.2, chains of 20 3.2 -> 2.7,
#:   converters 2.5 -> 2.2, proofs on chains of 20 9.7 -> 8.5; the rest within noise.
#: - tried and left: search led by the LP or by pseudo-costs, a deeper linearization
#:   (better on some families, worse on others), core-based or portfolio search (slower
#:   everywhere), no linearization (proofs far slower, as measured before).
#: - hints, left (benchmarks/hints.py, results/hints.md): even the optimum itself given
#:   as a hint to the first relaxed solve made chains of 20 slower (p50 1.32 -> 1.45 ms),
#:   converters no faster, chains of 100 a little faster (p50 2.88 -> 2.75, p95 4.17 ->
#:   3.54); a hint from the board's plain part would be a worse one, and cost its making.
PAYMENT_TUNING = {"cp_model_presolve": False, "add_cg_cuts": False, "add_mir_cuts": False,
                  "add_zero_half_cuts": False, "add_clique_cuts": False}
#: the most layers a payment's model has for :data:`PAYMENT_TUNING`; deeper ones keep
#: CP-SAT's presolve and cuts: on a board with counted mana, sacrifices and a preferred
#: order (a fuzz example), the strict model of 17 layers took 0.9 s with them and ran out
#: of its 10 s without (8 layers: 180 against 250 ms)
SHALLOW = 4


def payment_tuning(layers: int) -> dict:
    """The parameters for a payment's model of ``layers`` layers."""
    return PAYMENT_TUNING if layers <= SHALLOW else {}


#: the parameters of the models of several spells (solver.turn): presolve kept, since
#: without it best_turn's p95 for 7 cards at 20 permanents went from 250 to 490 ms
TURN_TUNING: dict = {}


def solve_lexicographic(model, terms, bounds, hinted: list, time_limit: float, tuning: dict | None = None,
                        first: int = 0):
    """(solver, :class:`Status`) of the lexicographic optimum of ``terms`` (each at most
    its bound): one solve when the objective fits one weighted sum; otherwise stage by
    stage, each stage's optimum fixed before the next is minimised. ``first``: the first
    that many terms are a stage of their own."""
    stages = objective_stages(terms[:first], bounds[:first]) + objective_stages(terms[first:], bounds[first:])
    if len(stages) <= 1:
        model.minimize(weighted(stages[0]) if stages else 0)
        return solve_model(model, time_limit, tuning)
    return solve_in_stages(model, [weighted(stage) for stage in stages], hinted, time_limit, tuning)


def new_solver(time_limit: float, tuning: dict | None = None):
    """A CpSolver with one worker (one query, one core), no symmetry detection and no
    probing (they cost more than they save on these small models), a time guard, and
    the parameters of ``tuning`` (:data:`PAYMENT_TUNING`, :data:`TURN_TUNING`)."""
    solver = cp_model().CpSolver()
    p = solver.parameters
    p.num_workers = 1
    p.symmetry_level = 0
    p.cp_model_probing_level = 0
    p.max_time_in_seconds = time_limit
    p.catch_sigint_signal = False  # a library call: Ctrl-C belongs to the caller
    for name, value in (tuning or {}).items():
        setattr(p, name, value)
    return solver


def solve_in_stages(model, objectives: list, hinted: list, time_limit: float, tuning: dict | None = None):
    """(solver, :class:`Status`) of a lexicographic optimum: each objective minimised in
    turn, its optimum then fixed (at its exact value: ``objective_value`` is a float) and
    the solution kept as a hint for the next. It stops at the first stage not proven
    optimal; all stages share ``time_limit``. A stage that finds nothing in time leaves
    the stage before's solution, not proven best (it meets every constraint so far)."""
    deadline = time.monotonic() + time_limit
    before = None
    for k, expr in enumerate(objectives):
        model.minimize(expr)
        solver, status = solve_model(model, max(0.0, deadline - time.monotonic()), tuning)
        if status == Status.UNKNOWN and before is not None:
            return before, Status.FEASIBLE  # (the stage before's solution meets this stage's constraints: not best)
        if status != Status.OPTIMAL or k == len(objectives) - 1:
            return solver, status
        before = solver
        model.add(expr == solver.value(expr))
        model.clear_hints()
        for v in hinted:
            model.add_hint(v, solver.value(v))
    return solver, status


def solve_model(model, time_limit: float, tuning: dict | None = None):
    """(solver, :class:`Status`) with the parameters of :func:`new_solver`."""
    cp = cp_model()
    solver = new_solver(time_limit, tuning)
    status = solver.solve(model)
    if status == cp.MODEL_INVALID:  # a bug in the model, never an answer
        raise ValueError(f"CP-SAT says the model is invalid: {model.validate()}")
    return solver, {cp.OPTIMAL: Status.OPTIMAL, cp.FEASIBLE: Status.FEASIBLE,
                    cp.INFEASIBLE: Status.INFEASIBLE}.get(status, Status.UNKNOWN)


def value_of(solver, expr) -> int:
    """The value of a model expression in a solution (a constant is itself)."""
    return expr if isinstance(expr, int) else solver.value(expr)
