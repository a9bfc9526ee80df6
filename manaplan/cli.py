"""The ``manaplan`` command: ``solve [FILE] [--explain]``, ``serve``, ``demo`` and
``--version`` (also as ``python -m manaplan``)."""

from __future__ import annotations

import argparse
import json
import os
import sys

from . import __version__
from .api import explain, explain_text, solve, solve_text
from .protocol.common import error_answer, is_error

DEMO_REQUEST = {
    "id": "demo",
    "spell": {"name": "Tidehollow Strix", "mana_cost": "{U}{B}", "type_line": "Artifact Creature — Sphinx"},
    "permanents": [
        {"id": "island", "name": "Island", "type_line": "Basic Land — Island"},
        {"id": "mountain", "name": "Mountain", "type_line": "Basic Land — Mountain"},
        {"id": "signet", "name": "Dimir Signet", "type_line": "Artifact",
         "oracle_text": "{1}, {T}: Add {U}{B}."},
        {"id": "heath", "name": "Fetid Heath", "type_line": "Land",
         "oracle_text": "{T}: Add {C}.\n{W/B}, {T}: Add {W}{W}, {W}{B}, or {B}{B}."},
    ],
}


def main(argv=None) -> int:
    """The command line; a reader that stops early (``manaplan demo | head``) ends it
    quietly rather than with a traceback."""
    try:
        return _main(argv)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush
        return 0


def _main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="manaplan", description="Exact mana-payment planner.")
    parser.add_argument("--version", action="version", version=f"manaplan {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p_solve = sub.add_parser("solve", help="answer one JSON request (a file, or standard input)")
    p_solve.add_argument("file", nargs="?", help="request file (default: standard input)")
    p_solve.add_argument("--explain", action="store_true",
                         help="print the answer as the plan a player follows, instead of JSON")
    sub.add_parser("serve", help="answer one JSON request per line until end of input")
    p_demo = sub.add_parser("demo", help="solve a built-in example and print the plan")
    p_demo.add_argument("--json", action="store_true", help="print the JSON response too")
    args = parser.parse_args(argv)
    if args.command == "solve":
        try:
            text = open(args.file, encoding="utf-8").read() if args.file else sys.stdin.read()
        except OSError as e:
            print(json.dumps(error_answer(None, f"cannot read {args.file}: {e.strerror}", None)))
            return 2
        if args.explain:
            words, ok = explain_text(text)
            print(words)
            return 0 if ok else 2
        response = solve_text(text)
        print(json.dumps(response))
        return 2 if is_error(response) else 0
    if args.command == "serve":
        for line in sys.stdin:
            if not line.strip():
                continue
            print(json.dumps(solve_text(line)), flush=True)
        return 0
    words, ok = explain(DEMO_REQUEST)
    print(words)
    if args.json:
        print(json.dumps(solve(DEMO_REQUEST), indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
