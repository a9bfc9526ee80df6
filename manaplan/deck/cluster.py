"""The local Dask cluster of ``--engine dask`` without ``--address``: started in a
process of its own session, so that Ctrl-C at the terminal (SIGINT to the foreground
process group) reaches only the command, which then ends the cluster at once (before,
each worker printed a traceback and the nanny warnings, and a closing worker first
finished its chunk).

``python -m manaplan.deck.cluster WORKERS`` starts the cluster, prints the scheduler's
address on one line and keeps it until its standard input closes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys


class LocalDaskCluster:
    """The cluster's process: ``address`` once started; ``close()`` ends it gracefully,
    ``kill()`` at once (its whole process group: the scheduler and the workers)."""

    def __init__(self, workers: int):
        self.process = subprocess.Popen([sys.executable, "-m", "manaplan.deck.cluster", str(workers)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                        start_new_session=True)
        assert self.process.stdout is not None  # (a PIPE)
        try:
            self.address = self.process.stdout.readline().strip()
        except BaseException:
            self.kill()
            raise
        if not self.address:
            self.kill()
            raise RuntimeError("the local Dask cluster did not start (is Dask installed? pip install "
                               "'manaplan[dask]')")

    def close(self, timeout: float = 10) -> None:
        assert self.process.stdin is not None  # (a PIPE)
        try:
            self.process.stdin.close()
            self.process.wait(timeout=timeout)
        except (OSError, subprocess.TimeoutExpired):
            self.kill()

    def kill(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except OSError:
            pass
        self.process.wait()


def main(argv: list) -> int:
    import logging

    from dask.distributed import LocalCluster

    cluster = LocalCluster(n_workers=int(argv[0]), threads_per_worker=1, processes=True, dashboard_address=None,
                           silence_logs=logging.ERROR)
    print(cluster.scheduler_address, flush=True)
    sys.stdin.read()  # (until the run closes it, or ends)
    cluster.close(timeout=5)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
