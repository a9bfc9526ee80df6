"""manaplan: can this cost be paid with what is untapped, and what should be tapped?

The Python API (manaplan/api.py): :func:`castable`, :func:`best_turn`, :func:`sequence`,
:func:`total_cost`, :func:`can_pay`, :func:`check` and :func:`solve` take and give the
JSON protocol's shapes (docs/protocol.md) as Python values; the CLI is
``manaplan solve | serve | demo | deck | suite``.
"""

__version__ = "0.12.0"
#: the version of the JSON protocol this package speaks (docs/protocol.md, "Versions")
PROTOCOL_VERSION = "4.3"

from .api import best_turn, can_pay, castable, check, sequence, solve, solve_text, total_cost

__all__ = ["PROTOCOL_VERSION", "__version__", "best_turn", "can_pay", "castable", "check", "sequence", "solve",
           "solve_text", "total_cost"]
