"""Game-agnostic batch driving: split a range of deal indices, reduce integer counts.

Every experiment is a pure function of (seed, range of deal indices). A run
over ``[start, stop)`` is cut into *blocks* (bounded memory, one progress
step each); a block is cut into *rows* of at most ``chunk`` deals, each row
handled by one ``prange`` iteration that writes only its own row of an
``int64`` count array. The Python side sums the rows. Integer sums do not
depend on how the range was cut, so the result is bit-identical for any
thread count, chunk size or (later) worker count.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from engine.rng import check_index_range

DEFAULT_CHUNK = 4096
DEFAULT_BLOCK = 1 << 21


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


def reduce_counts(run_block: Callable[[int, int, int], np.ndarray], start: int, stop: int,
                  width: int, chunk: int = DEFAULT_CHUNK, block: int = DEFAULT_BLOCK,
                  progress: Callable[[int], None] | None = None, store=None) -> np.ndarray:
    """Sum ``run_block(lo, count, rows)`` (an ``(rows, width)`` int64 array) over blocks.

    ``progress(n)`` is called after each block with the number of deals done in it.
    ``store`` (an :class:`engine.runs.RunDir`): each block is a task whose summed counts
    are loaded when already finished and saved when computed (checkpoint and resume).
    """
    total = np.zeros(width, dtype=np.int64)
    for lo, hi in blocks(start, stop, block):
        done = store.load(lo, hi) if store is not None else None
        if done is None:
            counts = run_block(lo, hi - lo, rows_for(hi - lo, chunk))
            if counts.dtype != np.int64 or counts.shape[1] != width:
                raise TypeError("a block must return (rows, width) int64 counts")
            done = counts.sum(axis=0)
            if store is not None:
                store.save(lo, hi, done)
        total += done
        if progress is not None:
            progress(hi - lo)
    return total
