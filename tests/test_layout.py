"""The installed layout: every import name lives under ``manaplan``, every module's
doctests pass, and the package says which version it is."""

import os
import pkgutil
import re
import subprocess
import sys

import pytest

import manaplan

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def all_modules() -> list:
    """Every module of the package, as installed (``manaplan/model`` and
    ``manaplan/solver`` are links to the checkout's ``model/`` and ``solver/``)."""
    names = {"manaplan"} | {m.name for m in pkgutil.walk_packages(manaplan.__path__, "manaplan.")}
    return sorted(n for n in names if not n.endswith("__main__"))


MODULES = all_modules()
#: the folders whose code is checked for top-level imports of ``model`` or ``solver``
SOURCES = ["manaplan", "model", "solver", "tests", "benchmarks"]


def test_every_file_of_the_checkout_is_a_module_of_the_package():
    """model/, solver/ and manaplan/ are one package tree: what pytest's doctest run
    (``--doctest-modules``, pyproject.toml) and mypy walk is every file there is."""
    files = set()
    for folder, package in (("manaplan", "manaplan"), ("model", "manaplan.model"), ("solver", "manaplan.solver")):
        for dirpath, dirnames, names in os.walk(os.path.join(ROOT, folder)):
            dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d)) and d != "__pycache__"]
            rel = os.path.relpath(dirpath, os.path.join(ROOT, folder))
            prefix = package if rel == "." else package + "." + rel.replace(os.sep, ".")
            files |= {prefix if n == "__init__.py" else f"{prefix}.{n[:-3]}" for n in names
                      if n.endswith(".py") and n != "__main__.py"}
    assert files == set(MODULES)
    assert {"manaplan.model", "manaplan.solver", "manaplan.solver.checks", "manaplan.protocol"} <= set(MODULES)


def test_pytest_runs_every_modules_doctests():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    assert "--doctest-modules" in text and re.search(r'testpaths = \[[^]]*"manaplan"', text)


def test_no_code_imports_a_top_level_model_or_solver():
    """A user's own ``model.py`` must not shadow ours: nothing imports ``model`` or
    ``solver`` as a top-level name, in the sources or at run time."""
    pattern = re.compile(r"^\s*(?:from|import)\s+(?:model|solver)\b", re.M)
    offenders = []
    for folder in SOURCES:
        for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                if name.endswith(".py"):
                    path = os.path.join(dirpath, name)
                    with open(path, encoding="utf-8") as f:
                        if pattern.search(f.read()):
                            offenders.append(os.path.relpath(path, ROOT))
    assert offenders == []
    code = ("import sys, importlib\n"
            f"for name in {MODULES!r}: importlib.import_module(name)\n"
            "print(sorted(k for k in sys.modules if k.split('.')[0] in ('model', 'solver')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=HERE)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_a_users_model_py_does_not_shadow_ours(tmp_path):
    (tmp_path / "model.py").write_text("raise SystemExit('the user model.py was imported')\n")
    (tmp_path / "solver.py").write_text("raise SystemExit('the user solver.py was imported')\n")
    code = ("from manaplan import solve\n"
            "print(solve({'spell': {'mana_cost': '{G}'}, 'permanents': "
            "[{'id': 'f', 'type_line': 'Basic Land — Forest'}]})['payable'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"


def test_version_on_the_command_line_and_in_python():
    assert re.fullmatch(r"\d+\.\d+\.\d+", manaplan.__version__)
    out = subprocess.run([sys.executable, "-m", "manaplan", "--version"], capture_output=True, text=True,
                         timeout=120, cwd=HERE)
    assert out.returncode == 0
    assert out.stdout.strip() == f"manaplan {manaplan.__version__}"


def test_the_package_is_typed():
    assert os.path.exists(os.path.join(os.path.dirname(manaplan.__file__), "py.typed"))


def test_a_plain_board_is_answered_without_importing_or_tools():
    """The plain boards' transport is pure Python: `manaplan solve` on basic lands starts
    without OR-Tools' import (most of a cold start)."""
    code = ("import sys\nfrom manaplan import solve\n"
            "out = solve({'spell': {'mana_cost': '{1}{G}'}, 'permanents': [{'id': 'f', 'type_line': "
            "'Basic Land — Forest'}, {'id': 'g', 'type_line': 'Basic Land — Forest'}]})\n"
            "print(out['payable'], any(name.startswith('ortools') for name in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=HERE)
    assert out.stdout.strip() == "True False", out.stderr


def test_the_checkout_imports_as_the_installed_package():
    """Run inside the checkout (``python -m manaplan`` after ``pip install .``), Python
    finds the source folder first: its model/ and solver/ import as manaplan.model and
    manaplan.solver through the links, from the checkout."""
    code = ("import manaplan.model.plan, manaplan.solver.planner, os\n"
            "print(os.path.dirname(os.path.dirname(os.path.dirname(manaplan.model.plan.__file__))) == os.getcwd())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.stdout.strip() == "True", out.stderr
    out = subprocess.run([sys.executable, "-m", "manaplan", "--version"], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0 and out.stdout.strip() == f"manaplan {manaplan.__version__}"


def test_a_module_of_model_or_solver_runs_from_its_own_folder():
    """The tools see model/ and solver/ where they are: ``pytest --doctest-modules
    solver/plain.py`` imports it as ``solver.plain``, whose imports are absolute."""
    out = subprocess.run([sys.executable, "-m", "pytest", "-n0", "-p", "no:cacheprovider", "--doctest-modules",
                          "solver/plain.py", "model/cost.py"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(r"\b[1-9]\d* passed", out.stdout)


def test_the_architecture_document_names_every_module_and_only_modules_that_exist():
    """docs/architecture.md's map (it must stay true): every module of the
    package is named in it, and every ``name.py`` it names exists."""
    with open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8") as f:
        text = f.read()
    files = {name for folder in ("manaplan", "model", "solver") for _, _, names in os.walk(os.path.join(ROOT, folder))
             for name in names if name.endswith(".py") and name not in ("__init__.py", "__main__.py")}
    assert {name for name in files if name not in text} == set()
    named = set(re.findall(r"(?<![\w<>/-])([a-z][a-z_]*\.py)\b", text))
    tests = set(os.listdir(HERE))
    assert {name for name in named if name not in files | tests | {"__init__.py"}} == set()
