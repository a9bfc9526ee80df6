"""The small values a payment's model (solver.cpsat.PaymentModel) and its steps share: the
stage at which the spell is paid, the objective's terms, what earlier payments of a step
carry, a candidate's kicks, the spell's demand, and three helpers about kinds of mana."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from manaplan.model.mana import Mana


#: the stage at which the spell itself is paid, after every layer of abilities
SPELL = "spell"
class Objective(NamedTuple):
    """The protocol's default objective, most important term first (each term an
    expression of the model, or its value in a solution). ``before_casting`` counts the
    activations a payment needs before the spell is cast: a payment that needs none is
    preferred (v2's ``mid_cast``)."""

    before_casting: object
    sacrificed: object
    life: object
    spared: object
    tapped: object
    exiled: object
    flexibility: object
    floating: object


def extra_kind(extra) -> tuple:
    """The kind of a mana a trigger adds: its source's snow, no spending restriction."""
    return Mana(extra.type, extra.snow).kind


@lru_cache(maxsize=4096)
def can_pay_kind(kind: tuple, need, for_spell: bool, any_color: bool = False) -> bool:
    """Whether mana of this kind may pay ``need`` (cached: a handful of kinds and needs
    recur in every query); ``any_color``: as though it were mana of any color."""
    return Mana.of_kind(kind).can_pay(need, for_spell, any_color)


def cheapest(symbols) -> list:
    """For each symbol, its option paid with the fewest mana."""
    return [min(s.payment_options(0), key=lambda o: o.mana_count) for s in symbols]


@dataclass
class CarriedOver:
    """What the payments made before this one in the same step leave it (a sequence of
    spells, or a spell kept castable after a payment): mana still floating, by kind, as
    expressions of the shared model (CR 106.4: the pool empties only between steps), an
    upper bound on it, the life lost so far, and how many permanents of each group (by
    its ids) were sacrificed (they count no more: CR 700.5)."""

    pool: dict = field(default_factory=dict)
    pool_bound: int = 0
    life_lost: object = 0
    sacrificed: dict = field(default_factory=dict)
    energy_paid: object = 0  # the player's energy counters paid so far ({E})


class VariableKicks(NamedTuple):
    """A candidate spell's multikicker (CR 702.33c) paid ``count`` times, a variable of the
    model from 0 to ``most`` (0 when the candidate is not the spell paid)."""

    per_kick: object  # ManaCost: one kick
    count: object  # type: ignore[assignment]  # (a field named as tuple.count: the kicks' variable)
    most: int


@dataclass
class SpellDemand:
    """The spell's locked-in total as model expressions: generic mana, mana of each
    type, snow mana."""

    generic: object
    typed: dict
    snow: object


@dataclass
class CostShift:
    """How a turn's board moves one candidate spell's total away from the total it was
    costed at (CR 601.2f: the total is the board's when the spell is cast): mana added
    to the generic part or a type's (``increase``), taken off (``reduce``; never more
    than the reductions the spell has on that board, so its reductions stay at least 0),
    as expressions of the shared model already 0 where the candidate is not cast; and
    the floor (Trinisphere) as an expression, or None for the spell's own. ``bound``: the
    most generic mana ``increase`` may add."""

    increase: dict = field(default_factory=dict)  # "generic" or a mana type -> expressions
    reduce: dict = field(default_factory=dict)
    floor: object = None
    bound: int = 0

    def add(self, what: str, kind: str, expr) -> None:
        (self.increase if what == "increase" else self.reduce).setdefault(kind, []).append(expr)
