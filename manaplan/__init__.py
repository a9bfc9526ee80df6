"""manaplan: can this cost be paid with what is untapped, and what should be tapped?

The Python API (manaplan/api.py): :func:`castable`, :func:`best_turn`, :func:`sequence`,
:func:`total_cost`, :func:`can_pay`, :func:`check` and :func:`solve` take and give the
JSON protocol's shapes (docs/protocol.md) as Python values; the CLI is
``manaplan solve | serve | demo | deck | suite``.
"""

from .api import best_turn, can_pay, castable, check, sequence, solve, solve_text, total_cost
from .version import PROTOCOL_VERSION, __version__

__all__ = ["PROTOCOL_VERSION", "__version__", "best_turn", "can_pay", "castable", "check", "sequence", "solve",
           "solve_text", "total_cost"]
