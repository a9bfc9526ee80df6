"""Where the games are played: chunks of games, each game seeded by its own number, so
the totals are the same whatever the engine and the number of workers.

- ``local`` (the default): a pool of processes on this machine, one per core (or
  ``workers``), started from nothing; each keeps its deck and its answers (the
  :class:`BoardAnswers`) from chunk to chunk, and reads what the others solved
  (manaplan.deck.exchange) before solving a board itself.
- ``dask``: the same chunks on a Dask cluster (``pip install 'manaplan[dask]'``): the
  scheduler at ``address``, or a local cluster of ``workers`` processes started for the
  run. Each worker keeps its deck and answers between chunks as a local worker does;
  on a local cluster they share answers as local workers do.

A chunk's result is a :class:`Tally` of counts; adding tallies is exact, so the order
chunks finish in changes nothing.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import uuid

from ..model.errors import RequestError
from .exchange import Exchange
from .games import play_games
from .simulate import DeckModel, BoardAnswers, Policy, Tally

LOCAL, DASK = "local", "dask"
ENGINES = (LOCAL, DASK)
#: how long a scheduler given by --address may take to connect, and to answer as a
#: scheduler (what answers at a dashboard's or another server's port never does), before
#: the run stops, saying so
CONNECT_SECONDS = "10s"
CONNECT_SECONDS_WHOLE = 15.0


def _client_within(client_class, address: str, seconds: float):
    """A Dask client of the scheduler at ``address``, made in a thread of its own and
    given ``seconds`` in all: TimeoutError past them (the thread, a daemon, is left)."""
    import threading

    made: list = []

    def connect() -> None:
        try:
            made.append(client_class(address, timeout=CONNECT_SECONDS))
        except BaseException as e:  # noqa: BLE001  (handed to the caller)
            made.append(e)

    thread = threading.Thread(target=connect, daemon=True)
    thread.start()
    thread.join(seconds)
    if not made:
        raise TimeoutError(f"no scheduler answered within {seconds:.0f} s")
    if isinstance(made[0], BaseException):
        raise made[0]
    return made[0]
#: games per chunk: big enough that a chunk's overhead is small, small enough that the
#: progress bar moves and the workers share the work evenly
CHUNK = 2000

#: in each worker process, the run's key -> (DeckModel, BoardAnswers): kept from chunk to chunk
#: of one run; a new run (a new key) starts from nothing, also in a forked worker
_WORKER: dict = {}


def chunks(games: int, size: int = CHUNK) -> list:
    """(first game, games) for each chunk."""
    return [(first, min(size, games - first)) for first in range(0, games, size)]


def play_chunk(job: tuple) -> Tally:
    """One chunk, in whatever process runs it: (deck key, decklist, cards, policy, seed,
    first game, games, the directory of the run's shared answers or None)."""
    key, decklist, cards, policy, seed, first, games, shared = job
    if key not in _WORKER:
        deck = DeckModel.build(decklist, cards)
        _WORKER.clear()
        _WORKER[key] = (deck, BoardAnswers(deck, Exchange(shared) if shared else None))
    deck, answers = _WORKER[key]
    return play_games(deck, policy, answers, seed, first, games)


def run(decklist, cards: dict, policy: Policy, games: int, seed, engine: str = LOCAL, workers: int | None = None,
        address: str | None = None, progress=None, chunk: int = CHUNK) -> Tally:
    """The tally of ``games`` games in chunks of ``chunk``. ``progress(games done)`` is
    called as chunks end."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    key = (str(decklist), repr(policy), uuid.uuid4().hex)  # each run starts its answers anew (its own key)
    parts = chunks(games, chunk)
    # processes on this machine share what they solve (a scheduler elsewhere: each its own)
    processes = min(len(parts), workers or os.cpu_count() or 1)
    shared = tempfile.mkdtemp(prefix="manaplan-answers-") if processes > 1 and address is None else None
    try:
        jobs = [(key, decklist, cards, policy, seed, first, n, shared) for first, n in parts]
        results = _run_dask(jobs, workers, address) if engine == DASK else _run_local(jobs, workers)
        total = Tally(policy.turns)
        for tally in results:
            total.add(tally)
            if progress is not None:
                progress(tally.games)
        return total
    finally:
        if shared is not None:
            shutil.rmtree(shared, ignore_errors=True)


#: how many times a run starts its pool again after a worker died (killed, out of memory)
RETRIES = 3


class WorkerLost(RuntimeError):
    """Workers died more often than a run retries: the run stops, with no total (never a
    total with games missing)."""


def _run_local(jobs: list, workers: int | None):
    """Each chunk's tally, in a pool of processes. A worker that dies (killed, out of
    memory) breaks the pool: the chunks not yet done are played again in a new pool
    (a chunk's games are seeded by their numbers: its tally is the same), up to
    ``RETRIES`` times, then the run stops with :class:`WorkerLost`."""
    workers = workers or os.cpu_count() or 1
    if workers == 1 or len(jobs) == 1:
        for job in jobs:
            yield play_chunk(job)
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool
    import multiprocessing

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    left = dict(enumerate(jobs))
    for attempt in range(RETRIES + 1):
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_ignore_interrupts)
        try:
            futures = {pool.submit(play_chunk, job): k for k, job in left.items()}
            for future in as_completed(futures):
                tally = future.result()
                del left[futures[future]]
                yield tally
            pool.shutdown()
            return
        except BrokenProcessPool:
            pool.shutdown(wait=False, cancel_futures=True)
            if attempt == RETRIES:
                raise WorkerLost(f"a worker process died {RETRIES + 1} times (killed, or out of memory); the run "
                                 f"stopped with {len(left)} of {len(jobs)} chunks not played: no total is given")
        except BaseException:  # Ctrl-C, or the run abandoned: stop now, not after the queued chunks
            _stop_now(pool)
            raise


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C at the terminal reaches every process of the group; the main
    process alone stops the run (the workers quietly, with no traceback each)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_now(pool) -> None:
    """Cancel the queued chunks and end the workers at once (a chunk being played is
    dropped: a stopped run gives no total)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # (the executor's own workers)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=1)


def _run_dask(jobs: list, workers: int | None, address: str | None):
    try:
        from dask.distributed import Client, KilledWorker, as_completed
    except ImportError:
        raise RuntimeError("the dask engine needs Dask: pip install 'manaplan[dask]'") from None
    from .cluster import LocalDaskCluster

    cluster = LocalDaskCluster(workers or os.cpu_count() or 1) if address is None else None
    futures: list = []
    try:
        client = (Client(cluster.address, timeout="30s") if cluster is not None
                  else _client_within(Client, str(address), CONNECT_SECONDS_WHOLE))
    except BaseException as e:
        if cluster is not None:
            cluster.kill()
        if cluster is None and isinstance(e, Exception):  # (whatever answered there, or nothing: said, no traceback)
            raise RequestError(f"can't reach a Dask scheduler at {address!r} ({type(e).__name__}: "
                               f"{str(e).splitlines()[0] if str(e) else 'no answer'}); give the address "
                               "`dask scheduler` prints, such as tcp://10.0.0.5:8786", "address") from None
        raise
    try:
        futures = client.map(play_chunk, jobs, pure=False, retries=RETRIES)
        for future in as_completed(futures):
            try:
                yield future.result()
            except KilledWorker as e:  # (the scheduler moves a lost worker's chunks; past its limit it gives up)
                raise WorkerLost(f"Dask workers died while playing a chunk, more often than the scheduler "
                                 f"retries ({e}); the run stopped: no total is given") from None
    except BaseException as stop:  # Ctrl-C: the chunks not yet played cancelled, a local cluster ended now
        if isinstance(stop, KeyboardInterrupt):
            _quiet_dask()  # (the stop's warnings expected; any other failure keeps Dask's logs)
        if cluster is not None:
            cluster.kill()
        else:
            client.cancel(futures, force=True)
        client.close(timeout=1)
        raise
    client.close(timeout=2)
    if cluster is not None:
        cluster.close()


def _quiet_dask() -> None:
    """Dask's loggers silenced for a stop: the workers' and the nanny's warnings about
    cancelled work and closed connections are expected then."""
    import logging

    for name in ("distributed", "distributed.nanny", "distributed.worker", "distributed.scheduler",
                 "distributed.client", "distributed.core", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
