"""mypy over every module of the package (configured in pyproject.toml: model/ and solver/
through manaplan/'s links, unannotated bodies checked too): no error."""

import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_mypy_finds_no_error_in_any_module(tmp_path):
    pytest.importorskip("mypy")
    out = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")], capture_output=True,
                         text=True, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    checked = int(re.search(r"no issues found in (\d+) source files", out.stdout).group(1))
    modules = sum(name.endswith(".py") for folder in ("manaplan", "model", "solver")
                  for _, dirs, names in os.walk(os.path.join(ROOT, folder)) for name in names)
    assert checked == modules, out.stdout
