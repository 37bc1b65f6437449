"""Game-agnostic batch driving: split a range of deal indices into tasks, reduce integer counts.

Every experiment is a pure function of (seed, range of deal indices). A run
over ``[start, stop)`` is cut into *tasks* of at most ``block`` deals (bounded
memory, one progress step and one checkpoint each); a task is cut into *rows*
of at most ``chunk`` deals, each row handled by one call of a ``nogil`` row kernel
on one of the local threads (:func:`each_row`) that writes only its own row of an
``int64`` count array. The Python side sums the rows, then the tasks. Integer sums
do not depend on how the range was cut or in which order the tasks finished, so the
result is bit-identical for any thread count, chunk size, task size, backend or number
of workers.

A task is a :class:`functools.partial` of a module-level function ``f(*params,
lo, n, rows)`` returning ``(rows, width)`` int64 counts: it pickles by
reference (a Dask worker imports the same function) and its parameters give it
a content key (:func:`task_key`) under which a run directory stores its counts.

*How* tasks run is the caller's :func:`execution` context, set once by the
command line: the local threads (default), a Dask cluster
(:mod:`ecarte_sim.engine.cluster`), a run directory to checkpoint into
(:class:`ecarte_sim.engine.runs.RunDir`) and a task size.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import hashlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numba
import numpy as np
from numba import njit

from ecarte_sim.engine.rng import check_index_range
from ecarte_sim.engine.sizes import DEFAULT_BLOCK, DEFAULT_CHUNK


@njit(cache=True)
def row_range(start, count, rows, r):
    """Deals ``[lo, hi)`` of row ``r`` when ``count`` deals from ``start`` are cut in ``rows``."""
    per = (count + rows - 1) // rows
    lo = start + r * per
    return lo, min(lo + per, start + count)


def each_row(kernel, rows: int, *args) -> None:
    """``kernel(r, *args)`` for every row ``r < rows``, on the local threads: as many
    Python threads as numba's thread count (``numba.get_num_threads()``, which
    ``--threads`` sets), each calling the ``nogil`` row kernel in turn for the rows it takes.

    This is what ``prange`` over the rows did, without ``parallel=True``: numba compiles a
    parallel driver's whole call tree three times over (the loop body, its gufunc wrapper,
    the driver), a plain row kernel once — most of a first run's compilation when every
    experiment has its own driver. Each row writes only its own outputs, so the result is
    the same for any thread count and any order."""
    threads = min(rows, numba.get_num_threads())
    if threads <= 1:
        for r in range(rows):
            kernel(r, *args)
        return
    pool = ThreadPoolExecutor(max_workers=threads)
    try:
        for _ in pool.map(lambda r: kernel(r, *args), range(rows)):
            pass
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def blocks(start: int, stop: int, block: int = DEFAULT_BLOCK) -> Iterator[tuple[int, int]]:
    """Consecutive ``(lo, hi)`` pieces of ``[start, stop)`` of at most ``block`` deals."""
    start, stop = check_index_range(start, stop)
    if block < 1:
        raise ValueError("block must be >= 1")
    for lo in range(start, stop, block):
        yield lo, min(lo + block, stop)


def rows_for(count: int, chunk: int) -> int:
    if chunk < 1:
        raise ValueError("chunk must be >= 1")
    return max(1, -(-count // chunk))


def run_task(task: Callable[[int, int, int], np.ndarray], lo: int, hi: int, chunk: int,
             width: int) -> np.ndarray:
    """The summed ``width`` int64 counts of one task ``[lo, hi)``."""
    counts = task(lo, hi - lo, rows_for(hi - lo, chunk))
    if counts.dtype != np.int64 or counts.ndim != 2 or counts.shape[1] != width:
        raise TypeError("a task must return (rows, width) int64 counts")
    return counts.sum(axis=0)


def _feed(h, obj) -> None:
    if isinstance(obj, np.ndarray):
        a = np.ascontiguousarray(obj)
        h.update(f"array {a.dtype.str} {a.shape} ".encode())
        h.update(a.tobytes())
    elif isinstance(obj, (bool, int, float, str, bytes, type(None), np.integer, np.floating,
                          np.bool_)):
        h.update(f"{type(obj).__name__} {obj!r} ".encode())
    elif isinstance(obj, (tuple, list)):
        h.update(f"{type(obj).__name__} {len(obj)} ".encode())
        for item in obj:
            _feed(h, item)
    elif isinstance(obj, dict):
        h.update(f"dict {len(obj)} ".encode())
        for k in sorted(obj):
            _feed(h, k)
            _feed(h, obj[k])
    else:
        raise TypeError(f"task parameter of type {type(obj).__name__} has no content key")


def task_key(task, width: int) -> str:
    """A content key for a task (16 hex digits): its function's qualified name, its
    parameters' values and the count width. Equal keys mean equal counts for any range."""
    if not (isinstance(task, functools.partial) and getattr(task.func, "__module__", None)):
        raise TypeError("a task must be functools.partial(module-level function, *params)")
    h = hashlib.sha256()
    h.update(f"{task.func.__module__}.{task.func.__qualname__} {width} ".encode())
    _feed(h, task.args)
    _feed(h, task.keywords)
    return h.hexdigest()[:16]


@dataclass(frozen=True)
class Execution:
    """How tasks run: ``backend`` (None: here, on the local threads; else an object with
    ``map(task, pieces, chunk, width)`` yielding ``(lo, hi, summed counts)`` in any order,
    e.g. :class:`ecarte_sim.engine.cluster.DaskBackend`), ``store`` (a run directory or None) and
    ``task_size`` (deals per task; None: each experiment's default)."""
    backend: object | None = None
    store: object | None = None
    task_size: int | None = None


_EXECUTION: contextvars.ContextVar[Execution] = contextvars.ContextVar(
    "ecarte_sim_execution", default=Execution())


def current_execution() -> Execution:
    return _EXECUTION.get()


@contextlib.contextmanager
def execution(backend=None, store=None, task_size: int | None = None):
    """Run the enclosed experiments on ``backend``, checkpointing into ``store``."""
    if task_size is not None and task_size < 1:
        raise ValueError("task size must be >= 1")
    token = _EXECUTION.set(Execution(backend, store, task_size))
    try:
        yield
    finally:
        _EXECUTION.reset(token)


def reduce_counts(task, start: int, stop: int, width: int, chunk: int = DEFAULT_CHUNK,
                  block: int = DEFAULT_BLOCK,
                  progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Sum the counts of ``task`` over ``[start, stop)``, cut into tasks of ``block`` deals
    (or the execution's task size) and run as the current :func:`execution` says.

    ``progress(n)`` is called after each task with the number of deals done in it. With a
    store, a task already finished is loaded instead of run, and each task run is saved.
    """
    ex = current_execution()
    total = np.zeros(width, dtype=np.int64)
    key = task_key(task, width) if ex.store is not None else None

    def done(n):
        if progress is not None:
            progress(n)

    def pending():          # lazily, so that memory does not grow with the number of tasks
        for lo, hi in blocks(start, stop, ex.task_size or block):
            finished = ex.store.load(key, lo, hi, width) if key is not None else None
            if finished is None:
                yield lo, hi
            else:
                total[:] += finished
                done(hi - lo)

    if ex.backend is None:
        results = ((lo, hi, run_task(task, lo, hi, chunk, width)) for lo, hi in pending())
    else:
        results = ex.backend.map(task, pending(), chunk, width)
    for lo, hi, counts in results:
        if key is not None:
            ex.store.save(key, lo, hi, counts)
        total[:] += counts
        done(hi - lo)
    return total
