"""Batch driver: deal, then solve, over a range of deal indices (rows on the local threads).

Modes (one kernel, so that a benchmark measures every mode on the same deals):

``MODE_DEAL``
    deal only; column ``k`` counts deals where the elder holds ``k`` trumps,
    column 6 counts turn-up kings (Laws 22, 47).
``MODE_EXACT``
    exact double-dummy elder tricks from the first lead, no exchange;
    column ``k`` counts deals where the elder takes ``k`` tricks.
``MODE_POINT_VOLE``
    the fast answer only: columns 0–3 count DEALER_VOLE, DEALER_POINT,
    ELDER_POINT, ELDER_VOLE (see :mod:`ecarte_sim.engine.ecarte.search.solver`).

Counts are int64; each row (:func:`~ecarte_sim.engine.batch.each_row`) writes only its own
row.
"""

from __future__ import annotations

from collections.abc import Callable

from functools import partial

import numpy as np
from numba import njit

from ecarte_sim.engine.batch import DEFAULT_BLOCK, DEFAULT_CHUNK, each_row, reduce_counts, row_range
from ecarte_sim.engine.cards import N_CARDS, popcount32, suit_mask
from ecarte_sim.engine.ecarte.laws.deal import deal_full, deal_hands
from ecarte_sim.engine.ecarte.search.solver import point_vole, solve_kernel
from ecarte_sim.engine.rng import check_seed

MODE_DEAL, MODE_EXACT, MODE_POINT_VOLE = 0, 1, 2
MODES = {"deal": MODE_DEAL, "exact": MODE_EXACT, "point-vole": MODE_POINT_VOLE}
WIDTH = 8
_KING = 7


@njit(cache=True, nogil=True)
def simulate_row(r, seed, start, count, rows, forced_trump, mode, counts):
    """Row ``r`` of :func:`simulate_rows`."""
    lo, hi = row_range(start, count, rows, r)
    perm = np.empty(N_CARDS, dtype=np.int64)
    draws = np.empty(N_CARDS, dtype=np.int64)
    for i in range(lo, hi):
        elder, dealer, turn_up = deal_hands(seed, np.uint64(i), perm, draws)
        trump = turn_up >> 3
        if mode == MODE_DEAL:
            counts[r, popcount32(elder & suit_mask(trump))] += 1
            if (turn_up & 7) == _KING:
                counts[r, 6] += 1
        elif mode == MODE_EXACT:
            counts[r, solve_kernel(elder, dealer, trump, forced_trump)] += 1
        else:
            counts[r, point_vole(elder, dealer, trump, forced_trump)] += 1


def simulate_rows(seed, start, count, rows, forced_trump, mode):
    """Counts for deals ``[start, start + count)`` split into ``rows`` rows."""
    counts = np.zeros((rows, WIDTH), dtype=np.int64)
    each_row(simulate_row, rows, seed, start, count, rows, forced_trump, mode, counts)
    return counts


@njit(cache=True, nogil=True)
def position_counts_row(r, seed, start, count, rows, counts):
    """Row ``r`` of :func:`position_counts_rows`."""
    lo, hi = row_range(start, count, rows, r)
    perm = np.empty(N_CARDS, dtype=np.int64)
    draws = np.empty(N_CARDS, dtype=np.int64)
    for i in range(lo, hi):
        deal_full(seed, np.uint64(i), perm, draws)
        for position in range(N_CARDS):
            counts[r, position, perm[position]] += 1


def position_counts_rows(seed, start, count, rows):
    """``counts[r, position, card]``: how often each card lies at each position
    of the fully shuffled pack (for uniformity tests)."""
    counts = np.zeros((rows, N_CARDS, N_CARDS), dtype=np.int64)
    each_row(position_counts_row, rows, seed, start, count, rows, counts)
    return counts


def simulate_counts(seed: int, start: int, stop: int, mode: str = "exact",
                    forced_trump: bool = True, chunk: int = DEFAULT_CHUNK,
                    block: int = DEFAULT_BLOCK,
                    progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Summed counts (length ``WIDTH``) over deals ``[start, stop)`` of ``seed``."""
    seed = check_seed(seed)
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; choose from {', '.join(MODES)}")
    task = partial(_simulate_task, seed, bool(forced_trump), MODES[mode])
    return reduce_counts(task, start, stop, WIDTH, chunk, block, progress)


def _simulate_task(seed, forced_trump, mode_id, lo, n, rows):
    return simulate_rows(np.uint64(seed), np.int64(lo), n, rows, forced_trump, mode_id)


def position_counts(seed: int, start: int, stop: int, chunk: int = DEFAULT_CHUNK) -> np.ndarray:
    """(32 positions x 32 cards) int64 counts over deals ``[start, stop)``."""
    seed = check_seed(seed)
    return reduce_counts(partial(_position_task, seed), start, stop, N_CARDS * N_CARDS,
                         chunk).reshape(N_CARDS, N_CARDS)


def _position_task(seed, lo, n, rows):
    return position_counts_rows(np.uint64(seed), np.int64(lo), n, rows).reshape(
        rows, N_CARDS * N_CARDS)


__all__ = ["simulate_counts", "position_counts", "MODES", "WIDTH"]
