"""manaplan: can this cost be paid with what is untapped, and what should be tapped?

The Python API is :func:`manaplan.api.solve` (requests and responses in the JSON
protocol's shapes); the CLI is ``manaplan solve | serve | demo``.
"""

from .api import can_pay, solve, solve_text

__all__ = ["can_pay", "solve", "solve_text"]
