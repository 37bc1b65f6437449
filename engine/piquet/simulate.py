"""Batch driver for Piquet: whole deals and parties over a range of deal indices.

Every count is int64; each ``prange`` row writes only its own row and the
rows are summed in Python (:func:`ecarte_sim.engine.batch.reduce_counts`), so results are
bit-identical for any thread count, chunk or block size.

* :func:`deal_counts` — deals summed into a ``DEAL_COUNTS`` row;
* :func:`partie_counts` — parties into a ``PARTIE_COUNTS`` row: partie ``p`` uses deal
  indices ``8p .. 8p+7`` (six deals, two more on a tie; four for the short variant,
  double first and last; Law 71). Player A is the first dealer (younger hand in deals
  1, 3, 5, ...);
* :func:`paired_counts` — the same deals under two configurations, into a
  ``PAIRED_COUNTS`` row;
* :func:`deal_records` — every deal's ``REC``, for cross-checks.

The layouts are in :mod:`~ecarte_sim.engine.piquet.records`; a run's default chunk
and task size in :class:`~ecarte_sim.engine.piquet.settings.PiquetSettings`.
"""

from __future__ import annotations

from collections.abc import Callable

from functools import partial

import numpy as np
from numba import njit, prange

from ecarte_sim.engine.batch import DEFAULT_BLOCK, DEFAULT_CHUNK, reduce_counts, row_range
from ecarte_sim.engine.cards import N_CARDS
from ecarte_sim.engine.piquet.deal import STOCK_SIZE
from ecarte_sim.engine.piquet.records import (DEAL_COUNTS, HIST, N_OUTCOMES, N_SEATS,
                                              PAIRED_COUNTS, PARTIE_COUNTS, REC, SCORE,
                                              SCRATCH, STATE, Outcome)
from ecarte_sim.engine.piquet.settings import CFG, PARTIE_CHUNK_DIVISOR, PARTIE_TASK_SHIFT
from ecarte_sim.engine.piquet.whole import new_solver_scratch, uses_solver, whole_deal
from ecarte_sim.engine.rng import check_index_range, check_seed

R = REC.at
S = SCORE.at
K = DEAL_COUNTS.at
P = PARTIE_COUNTS.at
Q = PAIRED_COUNTS.at
# The sizes the kernels allocate (numba reads module-level ints, not a Layout's attributes).
_REC_SIZE, _SCRATCH_SIZE, _STATE_SIZE = REC.size, SCRATCH.size, STATE.size
_DEAL_WIDTH, _PARTIE_WIDTH, _PAIRED_WIDTH = DEAL_COUNTS.size, PARTIE_COUNTS.size, PAIRED_COUNTS.size
_SCORE_SIZE = SCORE.size
#: Columns of a partie's per-deal totals: A (the first dealer), B.
_A, _B, _SIDES = 0, 1, 2
#: Deal indices per partie: six deals, two more on a tie (Law 71).
DEALS_PER_PARTIE = 8


@njit(cache=True)
def _scratch():
    """Per-row scratch of :func:`whole_deal`: perm, draws, values, stock, rec, totals, state."""
    return (np.empty(N_CARDS, dtype=np.int64), np.empty(N_CARDS, dtype=np.int64),
            np.empty(N_CARDS, dtype=np.int64), np.empty(STOCK_SIZE, dtype=np.int64),
            np.zeros(_REC_SIZE, dtype=np.int64), np.zeros(_SCRATCH_SIZE, dtype=np.int64),
            np.zeros((_STATE_SIZE, N_SEATS), dtype=np.uint32))


@njit(cache=True)
def count_deal(rec, out):
    """Add one deal's ``REC`` to a ``DEAL_COUNTS`` row."""
    e = rec[R.ELDER + S.TOTAL]
    y = rec[R.YOUNGER + S.TOTAL]
    out[K.DEALS] += 1
    if e > y:
        out[K.ELDER_WINS] += 1
    elif y > e:
        out[K.YOUNGER_WINS] += 1
    else:
        out[K.TIES] += 1
    out[K.ELDER_TOTAL] += e
    out[K.YOUNGER_TOTAL] += y
    out[K.ELDER_TOTAL_SQ] += e * e
    out[K.YOUNGER_TOTAL_SQ] += y * y
    out[K.DIFF_SQ] += (e - y) * (e - y)
    if rec[R.ELDER + S.CARTE_BLANCHE] > 0:
        out[K.CARTE_BLANCHE_ELDER] += 1
    if rec[R.YOUNGER + S.CARTE_BLANCHE] > 0:
        out[K.CARTE_BLANCHE_YOUNGER] += 1
    if rec[R.ELDER + S.PIQUE] > 0:
        out[K.PIQUE] += 1
    if rec[R.ELDER + S.REPIQUE] > 0:
        out[K.REPIQUE_ELDER] += 1
    if rec[R.YOUNGER + S.REPIQUE] > 0:
        out[K.REPIQUE_YOUNGER] += 1
    if rec[R.ELDER + S.CARDS] == 40:
        out[K.CAPOT_ELDER] += 1
    if rec[R.YOUNGER + S.CARDS] == 40:
        out[K.CAPOT_YOUNGER] += 1
    for c in range(_SCORE_SIZE):
        out[K.ELDER_SCORE + c] += rec[R.ELDER + c]
        out[K.YOUNGER_SCORE + c] += rec[R.YOUNGER + c]
    out[K.ELDER_HIST + min(e, HIST - 1)] += 1
    out[K.YOUNGER_HIST + min(y, HIST - 1)] += 1


@njit(cache=True, parallel=True)
def deal_rows(seed, start, count, rows, cfg):
    counts = np.zeros((rows, _DEAL_WIDTH), dtype=np.int64)
    for r in prange(rows):
        lo, hi = row_range(start, count, rows, r)
        perm, draws, values, stock, rec, totals, state = _scratch()
        script = np.zeros(N_SEATS, dtype=np.int64)
        table, ws = new_solver_scratch(uses_solver(cfg))
        for i in range(lo, hi):
            whole_deal(seed, np.uint64(i), cfg, script, rec, perm, draws, values, stock, totals,
                       state, table, ws)
            count_deal(rec, counts[r])
    return counts


def _check(seed: int, start: int, stop: int, cfg: np.ndarray) -> tuple[int, int, int]:
    seed = check_seed(seed)
    start, stop = check_index_range(start, stop)
    if cfg.shape != (CFG.size,) or cfg.dtype != np.int64:
        raise TypeError("cfg must be an int64 array from PiquetSettings.cfg()")
    return seed, start, stop


def deal_counts(seed: int, start: int, stop: int, cfg: np.ndarray, chunk: int = DEFAULT_CHUNK,
                block: int = DEFAULT_BLOCK,
                progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Counts (a ``DEAL_COUNTS`` row) over deals ``[start, stop)`` of ``seed``."""
    seed, start, stop = _check(seed, start, stop, cfg)
    return reduce_counts(partial(_deal_task, seed, cfg), start, stop, DEAL_COUNTS.size, chunk,
                         block, progress)


def _deal_task(seed, cfg, lo, n, rows):
    return deal_rows(np.uint64(seed), lo, n, rows, cfg)


# ---------------------------------------------------------------------------
# Parties (Laws 71-73).
# ---------------------------------------------------------------------------

@njit(cache=True)
def settle(a, b):
    """(winner: 1 A, -1 B, 0 drawn; rubicon; points won by A, negative if lost) (Laws 72-73)."""
    if a == b:
        return 0, False, 0
    high = max(a, b)
    low = min(a, b)
    rubicon = low < 100
    points = high + low + 100 if rubicon else high - low + 100
    if a > b:
        return 1, rubicon, points
    return -1, rubicon, -points


@njit(cache=True)
def play_partie(seed, p, cfg_a_dealer, cfg_b_dealer, four, rec, perm, draws, values, stock,
                script, totals, scratch, state, table, ws):
    """Partie ``p``: ``totals`` gets each deal's (A, B) totals; returns the number of deals.

    ``cfg_a_dealer`` configures a deal A deals (B elder), ``cfg_b_dealer`` one B deals.
    """
    regular = 4 if four else 6
    a = 0
    b = 0
    n = 0
    while True:
        a_deals = n % 2 == 0
        cfg = cfg_a_dealer if a_deals else cfg_b_dealer
        whole_deal(seed, np.uint64(DEALS_PER_PARTIE * p + n), cfg, script, rec, perm, draws,
                   values, stock, scratch, state, table, ws)
        if a_deals:
            da = rec[R.YOUNGER + S.TOTAL]
            db = rec[R.ELDER + S.TOTAL]
        else:
            da = rec[R.ELDER + S.TOTAL]
            db = rec[R.YOUNGER + S.TOTAL]
        weight = 2 if four and (n == 0 or n == regular - 1) else 1
        totals[n, _A] = da * weight
        totals[n, _B] = db * weight
        a += da * weight
        b += db * weight
        n += 1
        if n == regular and a != b:
            return n
        if n == regular + 2:
            return n


@njit(cache=True, parallel=True)
def partie_rows(seed, start, count, rows, cfg_a_dealer, cfg_b_dealer, four):
    counts = np.zeros((rows, _PARTIE_WIDTH), dtype=np.int64)
    for r in prange(rows):
        lo, hi = row_range(start, count, rows, r)
        perm, draws, values, stock, rec, scratch, state = _scratch()
        script = np.zeros(N_SEATS, dtype=np.int64)
        totals = np.zeros((DEALS_PER_PARTIE, _SIDES), dtype=np.int64)
        table, ws = new_solver_scratch(uses_solver(cfg_a_dealer) or uses_solver(cfg_b_dealer))
        out = counts[r]
        for p in range(lo, hi):
            n = play_partie(seed, p, cfg_a_dealer, cfg_b_dealer, four, rec, perm, draws,
                            values, stock, script, totals, scratch, state, table, ws)
            a = 0
            b = 0
            for k in range(n):
                a += totals[k, _A]
                b += totals[k, _B]
            winner, rubicon, points = settle(a, b)
            out[P.PARTIES] += 1
            if winner == 1:
                out[P.A_WINS] += 1
            elif winner == -1:
                out[P.B_WINS] += 1
            else:
                out[P.DRAWN] += 1
            if rubicon:
                out[P.RUBICONS] += 1
            if n > (4 if four else 6):
                out[P.TIE_BREAKS] += 1
            out[P.A_POINTS] += points
            out[P.A_POINTS_SQ] += points * points
            out[P.A_SCORE] += a
            out[P.B_SCORE] += b
    return counts


def partie_counts(seed: int, start: int, stop: int, cfg_a_dealer: np.ndarray,
                  cfg_b_dealer: np.ndarray, four: bool = False,
                  chunk: int = DEFAULT_CHUNK // PARTIE_CHUNK_DIVISOR,
                  block: int = DEFAULT_BLOCK >> PARTIE_TASK_SHIFT,
                  progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Counts (a ``PARTIE_COUNTS`` row) over parties ``[start, stop)``; partie ``p`` uses
    deal indices ``8p .. 8p+7``."""
    seed, start, stop = _check(seed, start, stop, cfg_a_dealer)
    _check(seed, start, stop, cfg_b_dealer)
    check_index_range(DEALS_PER_PARTIE * start, DEALS_PER_PARTIE * stop)
    task = partial(_partie_task, seed, cfg_a_dealer, cfg_b_dealer, bool(four))
    return reduce_counts(task, start, stop, PARTIE_COUNTS.size, chunk, block, progress)


def _partie_task(seed, cfg_a_dealer, cfg_b_dealer, four, lo, n, rows):
    return partie_rows(np.uint64(seed), lo, n, rows, cfg_a_dealer, cfg_b_dealer, four)


@njit(cache=True, parallel=True)
def record_rows(seed, start, count, cfg, out):
    """The full record of every deal ``[start, start + count)`` into ``out[count, REC.size]``."""
    for i in prange(count):
        perm, draws, values, stock, rec, totals, state = _scratch()
        script = np.zeros(N_SEATS, dtype=np.int64)
        table, ws = new_solver_scratch(uses_solver(cfg))
        whole_deal(seed, np.uint64(start + i), cfg, script, out[i], perm, draws, values, stock,
                   totals, state, table, ws)


def deal_records(seed: int, start: int, stop: int, cfg: np.ndarray) -> np.ndarray:
    """Records (``(stop - start, REC.size)`` int64) of deals ``[start, stop)``: for
    cross-checks and narratives (memory grows with the range; use
    :func:`deal_counts` for large runs)."""
    seed, start, stop = _check(seed, start, stop, cfg)
    out = np.zeros((stop - start, REC.size), dtype=np.int64)
    record_rows(np.uint64(seed), start, stop - start, cfg, out)
    return out


# ---------------------------------------------------------------------------
# Paired runs: the same deals under two configurations (common random numbers).
# ---------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _outcome(rec):
    """The deal's :class:`Outcome`."""
    e = rec[R.ELDER + S.TOTAL]
    y = rec[R.YOUNGER + S.TOTAL]
    return Outcome.ELDER_WINS if e > y else (Outcome.TIE if e == y else Outcome.YOUNGER_WINS)


@njit(cache=True, parallel=True)
def paired_rows(seed, start, count, rows, cfg_a, cfg_b):
    counts = np.zeros((rows, _PAIRED_WIDTH), dtype=np.int64)
    for r in prange(rows):
        lo, hi = row_range(start, count, rows, r)
        perm, draws, values, stock, rec, totals, state = _scratch()
        rec_b = np.zeros(_REC_SIZE, dtype=np.int64)
        script = np.zeros(N_SEATS, dtype=np.int64)
        table, ws = new_solver_scratch(uses_solver(cfg_a) or uses_solver(cfg_b))
        out = counts[r]
        for i in range(lo, hi):
            whole_deal(seed, np.uint64(i), cfg_a, script, rec, perm, draws, values, stock,
                       totals, state, table, ws)
            whole_deal(seed, np.uint64(i), cfg_b, script, rec_b, perm, draws, values, stock,
                       totals, state, table, ws)
            a = rec[R.ELDER + S.TOTAL] - rec[R.YOUNGER + S.TOTAL]
            b = rec_b[R.ELDER + S.TOTAL] - rec_b[R.YOUNGER + S.TOTAL]
            out[Q.DEALS] += 1
            out[Q.SUM_A] += a
            out[Q.SUM_B] += b
            out[Q.SUM_DIFF] += a - b
            out[Q.SUM_DIFF_SQ] += (a - b) * (a - b)
            out[Q.OUTCOMES + N_OUTCOMES * _outcome(rec) + _outcome(rec_b)] += 1
    return counts


def paired_counts(seed: int, start: int, stop: int, cfg_a: np.ndarray, cfg_b: np.ndarray,
                  chunk: int = DEFAULT_CHUNK, block: int = DEFAULT_BLOCK,
                  progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Deals ``[start, stop)`` played under ``cfg_a`` and ``cfg_b`` (same cards, same
    random words): sums of the elder's margin (elder − younger) under each and of
    their difference, and the 3 × 3 table of deal outcomes."""
    seed, start, stop = _check(seed, start, stop, cfg_a)
    _check(seed, start, stop, cfg_b)
    return reduce_counts(partial(_paired_task, seed, cfg_a, cfg_b), start, stop,
                         PAIRED_COUNTS.size, chunk, block, progress)


def _paired_task(seed, cfg_a, cfg_b, lo, n, rows):
    return paired_rows(np.uint64(seed), lo, n, rows, cfg_a, cfg_b)
