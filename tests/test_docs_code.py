"""Every Python block of README.md and docs/*.md runs as shown. Each block is
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


def _blocks(pattern=_BLOCK, tag: str = "#") -> list:
    """(name, text) of each block ``pattern`` finds in README.md and docs/*.md."""
    out = []
    for path in [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for k, m in enumerate(pattern.finditer(text)):
            out.append((f"{os.path.basename(path)}{tag}{k + 1}", m.group(1)))
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


_SHELL = re.compile(r"```sh\n(\$ .*?)\n```", re.S)


SHELL_BLOCKS = _blocks(_SHELL, "$ ")


def _matches(shown, got) -> bool:
    """Whether ``got`` (JSON) is what ``shown`` shows, ``"__ANY__"`` (written ``{...}`` in
    the docs) standing for any value."""
    if shown == "__ANY__":
        return True
    if isinstance(shown, dict):
        more = shown.get("__MORE__") is True  # (``..., ...}``: other fields may follow)
        keys = [k for k in shown if k != "__MORE__"]
        return (isinstance(got, dict) and (set(keys) <= got.keys() if more else set(keys) == got.keys())
                and all(_matches(shown[k], got[k]) for k in keys))
    if isinstance(shown, list):
        return isinstance(got, list) and len(shown) == len(got) and all(map(_matches, shown, got))
    return shown == got


@pytest.mark.parametrize("name, block", SHELL_BLOCKS, ids=[b[0] for b in SHELL_BLOCKS])
def test_each_shell_block_with_its_output_prints_it(name, block):
    """A ``sh`` block that starts with ``$ `` shows a command and what it prints: the
    command (``manaplan`` run as this checkout's) prints those lines, JSON compared as
    values (``{...}``: any value)."""
    import json
    import subprocess
    import sys

    command, *shown = block.split("\n")
    command = command[2:]
    given = None
    if command == "manaplan serve":  # (a session: the requests typed, each answer after it)
        given, shown = "\n".join(shown[0::2]) + "\n", shown[1::2]
    command = re.sub(r"(^|\| )manaplan ", lambda m: f"{m.group(1)}{sys.executable} -m manaplan ", command)
    out = subprocess.run(["bash", "-c", command], input=given, capture_output=True, text=True, timeout=120)
    got = out.stdout.splitlines()
    assert len(got) == len(shown), (got, shown)
    for line, want in zip(got, shown):
        want = want.replace("{...}", '"__ANY__"').replace(", ...}", ', "__MORE__": true}')
        assert _matches(json.loads(want), json.loads(line)), (line, want)
