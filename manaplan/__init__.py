"""manaplan: can this cost be paid with what is untapped, and what should be tapped?

The Python API is :func:`manaplan.api.solve` (requests and responses in the JSON
protocol's shapes); the CLI is ``manaplan solve | serve | demo | deck | suite``.
"""

__version__ = "0.12.0"
#: the version of the JSON protocol this package speaks (docs/protocol.md, "Versions")
PROTOCOL_VERSION = "4.3"


def _map_the_checkout() -> None:
    """In a source checkout, ``model/`` and ``solver/`` stand beside this folder, and
    setuptools maps them under ``manaplan`` only when it installs them (pyproject.toml,
    package-dir). Where Python finds this folder first (``python -m manaplan`` run in the
    checkout after ``pip install .``), map them the same way, so the checkout imports as
    the installed package does; an installed package has them inside and needs nothing."""
    import importlib.util
    import os
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    for name in ("model", "solver"):
        inside, beside = os.path.join(here, name), os.path.join(root, name)
        if f"{__name__}.{name}" in sys.modules or os.path.isdir(inside) \
                or not os.path.isfile(os.path.join(beside, "__init__.py")):
            continue
        spec = importlib.util.spec_from_file_location(f"{__name__}.{name}", os.path.join(beside, "__init__.py"),
                                                      submodule_search_locations=[beside])
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        globals()[name] = module  # as the import system binds a loaded subpackage


_map_the_checkout()

from .api import best_turn, can_pay, castable, check, sequence, solve, solve_text, total_cost  # noqa: E402

__all__ = ["PROTOCOL_VERSION", "__version__", "can_pay", "check", "solve", "solve_text"]
