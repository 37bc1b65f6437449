"""The Dask backend: run an experiment's tasks on a Dask distributed cluster.

``DaskBackend.connect("tcp://HOST:PORT")`` uses a cluster you already run (its
workers must have the same ecarte-sim installed: tasks are module-level
functions pickled by reference, and each task checks the worker's version);
``DaskBackend.local(n)`` starts a cluster of ``n`` worker processes on this
machine, on the loopback interface. Either is handed to
:func:`ecarte_sim.engine.batch.execution`, after which every experiment's tasks go to the
cluster. Results are the same integers as on the local threads: a task is a
pure function of (seed, its range of deals) and the client sums the tasks'
int64 counts, in whatever order they finish.

On a worker, tasks run one at a time per process (numba's default threading
layer must not be entered by two threads at once) with that process's numba
threads; ``numba_threads`` caps them (a local cluster of ``n`` workers gives
each ``cores // n``). At most ``window`` tasks are in flight, so memory does not
grow with the number of tasks. Dask is optional: ``pip install
'ecarte-sim[cluster]'``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator

import numba
import numpy as np

from ecarte_sim.engine.batch import run_task, task_key
from ecarte_sim.engine.runs import package_version

# distributed (Dask, optional) is imported when a cluster is asked for: without it
# ClusterError says how to install it.

INSTALL_HINT = "Dask is not installed: pip install 'ecarte-sim[cluster]'"

#: One numba kernel at a time per worker process (see the module docstring).
_KERNEL_LOCK = threading.Lock()


class ClusterError(RuntimeError):
    """The cluster cannot be used (message says why)."""


def _distributed():
    try:
        import distributed
    except ImportError:
        raise ClusterError(INSTALL_HINT) from None
    return distributed


def worker_task(task, lo: int, hi: int, chunk: int, width: int, version: str,
                numba_threads: int | None) -> tuple[int, int, np.ndarray]:
    """Run one task on a worker (the function the cluster receives)."""
    mine = package_version()
    if mine != version:
        raise ClusterError(f"a worker runs ecarte-sim {mine}, the client {version}: install "
                           "the same version on every worker")
    with _KERNEL_LOCK:
        if numba_threads is not None:
            numba.set_num_threads(max(1, min(numba_threads, numba.config.NUMBA_NUM_THREADS)))
        return lo, hi, run_task(task, lo, hi, chunk, width)


class DaskBackend:
    """Sends tasks to a ``distributed.Client`` (see the module docstring)."""

    def __init__(self, client, cluster=None, numba_threads: int | None = None,
                 window: int | None = None):
        self.client = client
        self.cluster = cluster
        self.numba_threads = numba_threads
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        self.window = window or 4 * workers
        self.version = package_version()

    @classmethod
    def connect(cls, address: str, timeout: float = 10.0) -> DaskBackend:
        """A cluster already running at ``address`` (``tcp://HOST:PORT``)."""
        distributed = _distributed()
        try:
            client = distributed.Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ClusterError(f"cannot reach the Dask scheduler at {address!r}: "
                               f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
                               ) from None
        return cls(client)

    @classmethod
    def local(cls, workers: int) -> DaskBackend:
        """A cluster of ``workers`` processes on this machine (loopback only), one task at
        a time each, with ``cores // workers`` numba threads (at least one)."""
        distributed = _distributed()
        if workers < 1:
            raise ValueError("workers must be >= 1")
        cluster = distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None, silence_logs=40)
        client = distributed.Client(cluster, set_as_default=False)
        cores = os.cpu_count() or 1
        return cls(client, cluster, numba_threads=max(1, cores // workers))

    def describe(self) -> dict:
        """For provenance: where the tasks ran."""
        workers = self.client.scheduler_info().get("workers", {})
        return {"backend": "dask", "scheduler": self.client.scheduler.address,
                "workers": len(workers), "local": self.cluster is not None,
                "numba_threads_per_worker": self.numba_threads}

    def map(self, task, pieces: Iterable[tuple[int, int]], chunk: int, width: int
            ) -> Iterator[tuple[int, int, np.ndarray]]:
        """``(lo, hi, summed counts)`` of every piece, in the order they finish."""
        distributed = _distributed()
        key = task_key(task, width)
        todo = iter(pieces)
        running = distributed.as_completed(loop=self.client.loop)

        def submit_next() -> bool:
            piece = next(todo, None)
            if piece is None:
                return False
            lo, hi = piece
            running.add(self.client.submit(
                worker_task, task, lo, hi, chunk, width, self.version, self.numba_threads,
                key=f"ecarte-sim-{key}-{lo}-{hi}", pure=False, retries=1))
            return True

        try:
            for _ in range(self.window):
                if not submit_next():
                    break
            for future in running:
                lo, hi, counts = future.result()
                future.release()
                submit_next()
                yield lo, hi, np.asarray(counts, dtype=np.int64)
        finally:
            for future in list(running.futures):
                future.cancel()

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

