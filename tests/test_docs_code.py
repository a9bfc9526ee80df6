"""Issue 45: every Python block of README.md and docs/*.md runs as shown. Each block is
run statement by statement in a namespace of its own; an expression whose line ends with
a comment holding a value (``answer["plan"]["tapped"]  # ['f1', 'f2']``) must print that
value (its ``repr``)."""

import ast
import glob
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_BLOCK = re.compile(r"```python\n(.*?)\n```", re.S)


def _blocks() -> list:
    out = []
    for path in [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for k, m in enumerate(_BLOCK.finditer(text)):
            out.append((f"{os.path.basename(path)}#{k + 1}", m.group(1)))
    return out


BLOCKS = _blocks()


def _shown_value(line: str) -> str | None:
    """The value a line's trailing comment shows, where it looks like one (a Python
    literal), else None (a comment in words)."""
    if "#" not in line:
        return None
    comment = line.rsplit("#", 1)[1].strip()
    try:
        ast.literal_eval(comment)
    except (ValueError, SyntaxError):
        return None
    return comment


@pytest.mark.parametrize("name, code", BLOCKS, ids=[b[0] for b in BLOCKS])
def test_each_python_block_of_the_docs_runs_as_shown(name, code):
    tree = ast.parse(code)
    lines = code.splitlines()
    namespace: dict = {}
    for node in tree.body:
        source = ast.get_source_segment(code, node)
        if isinstance(node, ast.Expr):
            value = eval(compile(ast.Expression(node.value), name, "eval"), namespace)
            shown = _shown_value(lines[node.end_lineno - 1])
            if shown is not None:
                assert repr(value) == shown or value == ast.literal_eval(shown), (source, value, shown)
        else:
            exec(compile(ast.Module([node], type_ignores=[]), name, "exec"), namespace)


def test_the_readme_has_python_to_run():
    assert any(name.startswith("README") for name, _ in BLOCKS)
