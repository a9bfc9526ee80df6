"""A plan as another engine writes it, for the referee (the ``check`` query).

manaplan's own answers carry everything a judge needs (:class:`~manaplan.model.plan.Plan`);
another engine writes the least that says what it did: the steps in order (a permanent,
the mana it added, what paid its ability's own cost) and what pays each symbol of the
spell. What follows from the board (whether a step taps or sacrifices, the life its cost
takes, the announcements of hybrid and Phyrexian symbols when the payment shows them) is
filled in by the referee (``solver.referee``); what the engine says besides (``tapped``,
``life_paid``, ``floating``, ...) is compared with what its steps do.

``None`` in a field means "not written". A claim that the spell can't be paid is
:data:`CANT_PAY`.

>>> step = WrittenStep("f1", None, ("G",))
>>> WrittenPlan((step,), (PaymentLine(Symbol.parse("{G}"), "G", "f1"),)).steps[0].adds
('G',)
"""

from __future__ import annotations

from dataclasses import dataclass

from manaplan.model.plan import PaymentLine  # noqa: F401  (the lines a written plan holds)
from manaplan.model.symbols import Symbol  # noqa: F401


@dataclass(frozen=True, slots=True)
class WrittenStep:
    """One activation as written: ``permanent`` (for an altar's or a drum's ability, the
    altar or drum), ``ability`` (an index of its abilities, ``"convoke"``,
    ``"improvise"``, ``"delve"``, or None: the one that can add ``adds``), ``adds``
    (mana types), ``payment`` (lines paying the ability's own mana cost), ``triggered``
    (:class:`~manaplan.model.plan.TriggeredMana`; None: not written, the triggers that
    fire add what the rest of the plan spends), ``other`` (the permanent its cost
    sacrifices or taps, ``other_is`` "sacrifices" or "taps"), ``before_casting``
    (None: as the ability requires); ``life``, ``damage``, ``energy`` and ``given_by``
    as the engine says them (None: not said), compared with the ability's."""

    permanent: str
    ability: int | str | None
    adds: tuple
    payment: tuple = ()
    triggered: tuple | None = None
    other: str = ""
    other_is: str = ""
    before_casting: bool | None = None
    life: int | None = None
    damage: int | None = None
    energy: int | None = None
    given_by: str | None = None


@dataclass(frozen=True, slots=True)
class WrittenPlan:
    """A payment as another engine writes it (see the module). ``payment`` pays the
    spell: each line one mana (or a Phyrexian symbol's 2 life), its symbol either one of
    the locked-in total (``{1}``, ``{G}``) or the printed one it pays (``{G/W}``,
    ``{2/G}``, ``{G/P}``). ``announced`` and ``reduction_halves`` are
    ``((symbol, half), ...)`` or None (read from the payment)."""

    steps: tuple
    payment: tuple
    announced: tuple | None = None
    reduction_halves: tuple | None = None
    total_cost: str | None = None
    tapped: tuple | None = None
    sacrificed: tuple | None = None
    life_paid: int | None = None
    floating: tuple | None = None  # mana types
    x: int | None = None
    kicked: bool | None = None
    kicks: int | None = None
    sacrificed_for_cost: tuple = ()
    discarded_for_cost: tuple = ()


#: the claim that the spell can't be paid (``"plan": null``)
CANT_PAY = None
