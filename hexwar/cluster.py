"""Chunks of independent work on one core, a local Dask cluster or many machines (issue 20).

:func:`run_chunks` runs ``fn(chunk)`` for every chunk of a list of work items and hands back
each chunk's results as it finishes; where the chunks ran never changes what they return,
because every item carries its own seed (R1.2: each game's generator is seeded from its
scenario, variant and index, never from the process or the order of completion).

``cluster`` chooses where:

* ``"none"``: in this process, one chunk after another (no Dask at all);
* ``"local"``: a :class:`distributed.LocalCluster` of ``workers`` worker processes (one thread
  each, no dashboard), closed at the end;
* ``"tcp://HOST:PORT"``: an existing Dask scheduler (``dask scheduler``) whose workers
  (``dask worker tcp://HOST:PORT``) have hexwar installed.

A chunk whose worker dies is re-run elsewhere by the scheduler (Dask's own rescheduling, up
to ``distributed.scheduler.allowed-failures`` deaths); a chunk that raises is retried
``retries`` times (Dask's ``retries``). A chunk that still fails is handed to the caller's
``on_failure`` so it can record every item as an error instead of losing it. Ctrl+C cancels
what is left, closes the cluster and returns what finished, with ``interrupted`` set.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .errors import HexwarError

__all__ = ["ChunkRun", "parse_cluster", "run_chunks", "connect", "chunked", "guided", "CONNECT_TIMEOUT"]

#: Dask settings of a local cluster: no statistical profiler sampling the game thread every 10 ms
#: and slower monitors, which took about 3.5% of a core per worker and as much in the scheduler
#: (benchmarks/bench_balance.py). docs/sim.md gives the same settings for remote workers.
QUIET_DASK = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "2s",
    "distributed.admin.tick.interval": "200ms",
}
CONNECT_TIMEOUT = 20.0  # seconds to reach a scheduler or start a local cluster
PROGRESS_DELAY = 0.5  # seconds before the progress bar appears (short runs show none)


def parse_cluster(cluster: str | None, workers: int) -> str:
    """Normalise ``--cluster`` against ``--workers``: ``"none"``, ``"local"`` or a ``tcp://`` address.

    Args:
        cluster: ``none``, ``local``, ``tcp://HOST:PORT`` or ``None`` (default: ``local`` when
            ``workers`` > 1, else ``none``).
        workers: worker processes asked for (>= 1).

    Raises:
        HexwarError: for anything else, naming the value and what is expected.

    >>> parse_cluster(None, 1), parse_cluster(None, 4), parse_cluster("tcp://10.0.0.5:8786", 1)
    ('none', 'local', 'tcp://10.0.0.5:8786')
    """
    if workers < 1:
        raise HexwarError(f"--workers {workers}: expected at least 1")
    if cluster is None:
        return "local" if workers > 1 else "none"
    c = cluster.strip()
    if c.lower() in ("none", "local"):
        return c.lower()
    if c.startswith(("tcp://", "tls://")) and ":" in c.split("://", 1)[1]:
        return c
    raise HexwarError(
        f"--cluster {cluster!r}: expected none, local or a scheduler address like tcp://HOST:8786"
    )


def chunked(items: Sequence[Any], size: int) -> list[list[Any]]:
    """``items`` cut into consecutive lists of ``size`` (the last may be shorter).

    >>> chunked([1, 2, 3, 4, 5], 2)
    [[1, 2], [3, 4], [5]]
    """
    size = max(1, int(size))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def guided(items: Sequence[Any], workers: int, most: int) -> list[list[Any]]:
    """``items`` cut into consecutive chunks of falling size, so the workers finish together.

    Guided self-scheduling (Polychronopoulos and Kuck, 1987): each chunk takes about
    ``1 / (2 * workers)`` of the items still left, at most ``most`` and at least 1. The first
    chunks are long (little scheduling per item) and the last ones single items, so when one
    worker is done the others are at most about one item from done; fixed-size chunks leave a
    worker idle for up to a whole chunk at the end (issue 35: 2 workers at least 1.7x one).
    :func:`run_chunks` hands the chunks out in this order.

    Args:
        items: the work, in the order it should start.
        workers: workers that share it (>= 1).
        most: the longest chunk, in items (>= 1).

    >>> [len(c) for c in guided(range(12), 1, 6)], [len(c) for c in guided(range(12), 2, 6)]
    ([6, 3, 2, 1], [3, 3, 2, 1, 1, 1, 1])
    >>> sum(guided(range(100), 4, 6), []) == list(range(100))
    True
    """
    share, most = 2 * max(1, int(workers)), max(1, int(most))
    out: list[list[Any]] = []
    i, n = 0, len(items)
    while i < n:
        size = max(1, min(most, -(-(n - i) // share)))
        out.append(list(items[i : i + size]))
        i += size
    return out


@dataclass
class ChunkRun:
    """What :func:`run_chunks` did.

    Attributes:
        results: chunk index -> the list ``fn`` returned for it (or ``on_failure`` made).
        interrupted: Ctrl+C stopped the run before every chunk finished.
        seconds: wall time of the run, cluster start-up included.
        where: ``"none"``, ``"local"`` or the scheduler address.
        workers: workers that took part (1 for ``none``).
        failed: chunk index -> the error text of chunks that failed after their retries.
    """

    results: dict[int, list[Any]] = field(default_factory=dict)
    interrupted: bool = False
    seconds: float = 0.0
    where: str = "none"
    workers: int = 1
    failed: dict[int, str] = field(default_factory=dict)

    def ordered(self) -> list[Any]:
        """Every finished item's result, in chunk order (not completion order)."""
        return [r for i in sorted(self.results) for r in self.results[i]]


@contextmanager
def _workers_ignore_ctrl_c() -> Iterator[None]:
    """Ignore SIGINT while the local worker processes start, so they inherit that.

    Ctrl+C in a terminal reaches the whole process group; this process then cancels the run
    and closes the cluster in order, instead of every worker dying with a traceback.
    """
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@contextmanager
def connect(where: str, workers: int) -> Iterator[Any]:
    """A :class:`distributed.Client` for ``"local"`` (its own LocalCluster) or a scheduler address.

    Raises:
        HexwarError: when the scheduler cannot be reached or the cluster cannot start.
    """
    import dask
    from distributed import Client, LocalCluster

    cluster = None
    try:
        if where == "local":
            with _workers_ignore_ctrl_c(), dask.config.set(QUIET_DASK):
                cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",
                    silence_logs=logging.ERROR,
                )
            client = Client(cluster, timeout=CONNECT_TIMEOUT)
        else:
            client = Client(where, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise HexwarError(f"--cluster {where}: cannot reach a Dask scheduler there ({exc})") from None
    try:
        yield client
    finally:
        try:
            client.close(timeout=10)
        finally:
            if cluster is not None:
                cluster.close(timeout=10)


def _bar(total: int, quiet: bool, desc: str, unit: str) -> Any:
    from tqdm import tqdm

    return tqdm(
        total=total,
        unit=f" {unit}",
        desc=desc,
        disable=quiet or not sys.stderr.isatty(),
        delay=PROGRESS_DELAY,
        leave=False,
        file=sys.stderr,
        smoothing=0.1,
    )


def run_chunks(
    fn: Callable[[list[Any]], list[Any]],
    chunks: Sequence[list[Any]],
    *,
    cluster: str = "none",
    workers: int = 1,
    quiet: bool = False,
    desc: str = "",
    unit: str = "games",
    size: Callable[[list[Any]], int] = len,
    on_failure: Callable[[list[Any], str], list[Any]] | None = None,
    on_chunk: Callable[[int, list[Any], Any], None] | None = None,
    retries: int = 2,
) -> ChunkRun:
    """Run ``fn`` on every chunk where ``cluster`` says, gathering results as they finish.

    Args:
        fn: a module-level function (workers import it by name) from a chunk to a list of
            results, one per item; it should record an item's own failure in its result.
        chunks: the work, cut into chunks of a few seconds each.
        cluster: from :func:`parse_cluster`.
        workers: worker processes of a ``local`` cluster.
        quiet: no progress bar (it is also off when stderr is not a terminal).
        desc: progress bar label.
        unit: what ``size`` counts (``games``, ``runs``).
        size: items in a chunk, for the bar.
        on_failure: ``(chunk, error text) -> results`` for a chunk that raised after its
            retries (default: the run raises HexwarError).
        on_chunk: called in this process after each chunk with ``(index, results, client)``
            (``client`` is ``None`` for ``none``); tests use it to kill a worker mid-run.
        retries: Dask retries of a chunk that raised.

    Returns:
        a :class:`ChunkRun`; Ctrl+C returns the finished chunks with ``interrupted`` set.

    Raises:
        HexwarError: for an unreachable scheduler, or a failed chunk without ``on_failure``.
    """
    run = ChunkRun(where=cluster, workers=1 if cluster == "none" else workers)
    t0 = time.perf_counter()
    bar = _bar(sum(size(c) for c in chunks), quiet, desc, unit)

    def done(i: int, res: list[Any], client: Any) -> None:
        run.results[i] = res
        bar.update(size(chunks[i]))
        if on_chunk is not None:
            on_chunk(i, res, client)

    def failed(i: int, text: str) -> None:
        run.failed[i] = text
        if on_failure is None:
            raise HexwarError(f"chunk {i} failed after {retries} retries: {text}")
        done(i, on_failure(chunks[i], text), None)

    try:
        if cluster == "none":
            for i, c in enumerate(chunks):
                try:
                    res = fn(c)
                except KeyboardInterrupt:
                    raise
                except Exception as exc:  # noqa: BLE001 - recorded through on_failure, like a remote failure
                    failed(i, f"{type(exc).__name__}: {exc}")
                    continue
                done(i, res, None)
        else:
            _run_dask(fn, chunks, cluster, workers, retries, run, done, failed, bar)
    except KeyboardInterrupt:
        run.interrupted = True
    finally:
        bar.close()
        run.seconds = time.perf_counter() - t0
    return run


def _run_dask(
    fn: Callable[[list[Any]], list[Any]],
    chunks: Sequence[list[Any]],
    where: str,
    workers: int,
    retries: int,
    run: ChunkRun,
    done: Callable[[int, list[Any], Any], None],
    failed: Callable[[int, str], None],
    bar: Any,
) -> None:
    from distributed import as_completed

    with connect(where, workers) as client:
        run.workers = len(client.scheduler_info().get("workers", {})) or workers
        bar.set_postfix_str(f"{run.workers} workers", refresh=False)
        # one task per chunk; Dask starts the tasks of one map call in the order given, which
        # guided chunks need (a long chunk started last would leave the other workers idle;
        # tests/test_balance.py checks the order on a real cluster)
        futures = client.map(fn, list(chunks), retries=retries, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        try:
            for fut in as_completed(futures):
                i = index[fut.key]
                if fut.status == "finished":
                    done(i, fut.result(), client)
                else:
                    exc = fut.exception()
                    failed(i, f"{type(exc).__name__}: {exc}")
                fut.release()
        except KeyboardInterrupt:
            client.cancel([f for f in futures if not f.done()])
            raise
