"""A running `manaplan serve` process for the benchmarks: one request per line, the round
trip timed from outside, as an engine would see it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


class Serve:
    """``manaplan serve`` from the installed package, or from ``site`` (a folder a
    revision was installed into, put first on PYTHONPATH)."""

    def __init__(self, site: str | None = None, cwd: str | None = None):
        env = dict(os.environ)
        if site is not None:
            env["PYTHONPATH"] = site
        self.proc = subprocess.Popen([sys.executable, "-m", "manaplan.cli", "serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd=cwd, env=env)

    def ask(self, request: dict):
        """(milliseconds, answer) for one request."""
        line = json.dumps(request) + "\n"
        t0 = time.perf_counter()
        self.proc.stdin.write(line)
        self.proc.stdin.flush()
        out = self.proc.stdout.readline()
        return (time.perf_counter() - t0) * 1000, json.loads(out)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
