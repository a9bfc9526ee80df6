"""Writing a benchmark's tables to ``benchmarks/results/NAME.md``, with when and where
they were measured (cores, CPU, Python)."""

from __future__ import annotations

import os
import platform
import sys
import time

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


def machine() -> str:
    """The day, the cores, the CPU model and Python of this run."""
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    return (f"Measured {time.strftime('%Y-%m-%d')} on {os.cpu_count()} cores ({cpu or 'CPU unknown'}), "
            f"Python {sys.version.split()[0]}.")


def record(name: str, title: str, intro: str, *sections: str) -> str:
    """Write the results file ``NAME.md``: the title, what was measured, where, then each
    section; its path."""
    path = os.path.join(RESULTS, f"{name}.md")
    with open(path, "w") as f:
        f.write("\n\n".join([f"# {title}", intro.strip(), machine(), *sections]) + "\n")
    return path
