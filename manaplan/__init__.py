"""manaplan: can this cost be paid with what is untapped, and what should be tapped?

The Python API is :func:`manaplan.api.solve` (requests and responses in the JSON
protocol's shapes); the CLI is ``manaplan solve | serve | demo``.
"""

__version__ = "0.2.0"
#: the version of the JSON protocol this package speaks (docs/protocol.md, "Versions")
PROTOCOL_VERSION = "1.1"

from .api import can_pay, solve, solve_text  # noqa: E402

__all__ = ["PROTOCOL_VERSION", "__version__", "can_pay", "solve", "solve_text"]
