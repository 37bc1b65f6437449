"""Batch driver for Piquet: whole deals and parties over a range of deal indices.

Every count is int64; each ``prange`` row writes only its own row and the
rows are summed in Python (:func:`engine.batch.reduce_counts`), so results are
bit-identical for any thread count, chunk or block size.

Deal counts (``deal_counts``), one row per column name in ``DEAL_COLUMNS``,
then the record's 20 components summed (``COL_COMPONENTS``), then two
histograms of the deal totals (elder, younger; ``HIST`` cells each, the last
cell holding ``HIST - 1`` and more).

Parties (``partie_counts``): partie ``p`` uses deal indices ``8p .. 8p+7``
(six deals, two more on a tie; four for the short variant, double first and
last). Player A is the first dealer (younger hand in deals 1, 3, 5, ...).
"""

from __future__ import annotations

from collections.abc import Callable

from functools import partial

import numpy as np
from numba import njit, prange

from engine.batch import DEFAULT_BLOCK, DEFAULT_CHUNK, reduce_counts
from engine.cards import N_CARDS
from engine.ecarte.simulate import row_range
from engine.piquet.whole import (C_CARDS, C_BLANCHE, C_PIQUE, C_REPIQUE, C_TOTAL, N_CFG,
                                 REC_LEN, REC_YOUNGER, SCRATCH_INT, new_solver_scratch, uses_solver,
                                 whole_deal)
from engine.rng import check_index_range, check_seed

DEAL_COLUMNS = ("deals", "elder_wins", "younger_wins", "ties", "elder_total", "younger_total",
                "elder_total_sq", "younger_total_sq", "diff_sq", "carte_blanche_elder",
                "carte_blanche_younger", "pique", "repique_elder", "repique_younger",
                "capot_elder", "capot_younger")
(COL_DEALS, COL_ELDER_WINS, COL_YOUNGER_WINS, COL_TIES, COL_ELDER_TOTAL, COL_YOUNGER_TOTAL,
 COL_ELDER_SQ, COL_YOUNGER_SQ, COL_DIFF_SQ, COL_BLANCHE_E, COL_BLANCHE_Y, COL_PIQUE,
 COL_REPIQUE_E, COL_REPIQUE_Y, COL_CAPOT_E, COL_CAPOT_Y) = range(len(DEAL_COLUMNS))
COL_COMPONENTS = len(DEAL_COLUMNS)
HIST = 256
COL_HIST = COL_COMPONENTS + 2 * 10
DEAL_WIDTH = COL_HIST + 2 * HIST

PARTIE_COLUMNS = ("parties", "a_wins", "b_wins", "drawn", "rubicons", "tie_breaks",
                  "a_points", "a_points_sq", "a_score", "b_score")
(P_PARTIES, P_A_WINS, P_B_WINS, P_DRAWN, P_RUBICONS, P_TIE_BREAKS, P_A_POINTS, P_A_POINTS_SQ,
 P_A_SCORE, P_B_SCORE) = range(len(PARTIE_COLUMNS))
PARTIE_WIDTH = len(PARTIE_COLUMNS)
DEALS_PER_PARTIE = 8


@njit(cache=True)
def _scratch():
    return (np.empty(N_CARDS, dtype=np.int64), np.empty(N_CARDS, dtype=np.int64),
            np.empty(N_CARDS, dtype=np.int64), np.empty(8, dtype=np.int64),
            np.zeros(REC_LEN, dtype=np.int64), np.zeros(SCRATCH_INT, dtype=np.int64),
            np.zeros((6, 2), dtype=np.uint32))


@njit(cache=True)
def _count_deal(rec, out):
    e = rec[C_TOTAL]
    y = rec[REC_YOUNGER + C_TOTAL]
    out[COL_DEALS] += 1
    if e > y:
        out[COL_ELDER_WINS] += 1
    elif y > e:
        out[COL_YOUNGER_WINS] += 1
    else:
        out[COL_TIES] += 1
    out[COL_ELDER_TOTAL] += e
    out[COL_YOUNGER_TOTAL] += y
    out[COL_ELDER_SQ] += e * e
    out[COL_YOUNGER_SQ] += y * y
    out[COL_DIFF_SQ] += (e - y) * (e - y)
    if rec[C_BLANCHE] > 0:
        out[COL_BLANCHE_E] += 1
    if rec[REC_YOUNGER + C_BLANCHE] > 0:
        out[COL_BLANCHE_Y] += 1
    if rec[C_PIQUE] > 0:
        out[COL_PIQUE] += 1
    if rec[C_REPIQUE] > 0:
        out[COL_REPIQUE_E] += 1
    if rec[REC_YOUNGER + C_REPIQUE] > 0:
        out[COL_REPIQUE_Y] += 1
    if rec[C_CARDS] == 40:
        out[COL_CAPOT_E] += 1
    if rec[REC_YOUNGER + C_CARDS] == 40:
        out[COL_CAPOT_Y] += 1
    for c in range(20):
        out[COL_COMPONENTS + c] += rec[c]
    out[COL_HIST + min(e, HIST - 1)] += 1
    out[COL_HIST + HIST + min(y, HIST - 1)] += 1


@njit(cache=True, parallel=True)
def deal_rows(seed, start, count, rows, cfg):
    counts = np.zeros((rows, DEAL_WIDTH), dtype=np.int64)
    for r in prange(rows):
        lo, hi = row_range(start, count, rows, r)
        perm, draws, values, stock, rec, totals, state = _scratch()
        script = np.zeros(2, dtype=np.int64)
        table, ws = new_solver_scratch(uses_solver(cfg))
        for i in range(lo, hi):
            whole_deal(seed, np.uint64(i), cfg, script, rec, perm, draws, values, stock, totals,
                       state, table, ws)
            _count_deal(rec, counts[r])
    return counts


def _check(seed: int, start: int, stop: int, cfg: np.ndarray) -> tuple[int, int, int]:
    seed = check_seed(seed)
    start, stop = check_index_range(start, stop)
    if cfg.shape != (N_CFG,) or cfg.dtype != np.int64:
        raise TypeError("cfg must be an int64 array from engine.piquet.whole.make_cfg")
    return seed, start, stop


def task_block(*players: str) -> int:
    """Default deals per task for these players: about 1-20 s of work on two cores, so
    that a cluster gets many tasks and a task's overhead stays small (the task size
    never changes a count)."""
    if "pimc" in players:
        return 1 << 12
    if "dd" in players:
        return 1 << 15
    return DEFAULT_BLOCK


def deal_counts(seed: int, start: int, stop: int, cfg: np.ndarray, chunk: int = DEFAULT_CHUNK,
                block: int = DEFAULT_BLOCK,
                progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Counts (``DEAL_WIDTH``) over deals ``[start, stop)`` of ``seed``."""
    seed, start, stop = _check(seed, start, stop, cfg)
    return reduce_counts(partial(_deal_task, seed, cfg), start, stop, DEAL_WIDTH, chunk, block,
                         progress)


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
            da = rec[REC_YOUNGER + C_TOTAL]
            db = rec[C_TOTAL]
        else:
            da = rec[C_TOTAL]
            db = rec[REC_YOUNGER + C_TOTAL]
        weight = 2 if four and (n == 0 or n == regular - 1) else 1
        totals[n, 0] = da * weight
        totals[n, 1] = db * weight
        a += da * weight
        b += db * weight
        n += 1
        if n == regular and a != b:
            return n
        if n == regular + 2:
            return n


@njit(cache=True, parallel=True)
def partie_rows(seed, start, count, rows, cfg_a_dealer, cfg_b_dealer, four):
    counts = np.zeros((rows, PARTIE_WIDTH), dtype=np.int64)
    for r in prange(rows):
        lo, hi = row_range(start, count, rows, r)
        perm, draws, values, stock, rec, scratch, state = _scratch()
        script = np.zeros(2, dtype=np.int64)
        totals = np.zeros((DEALS_PER_PARTIE, 2), dtype=np.int64)
        table, ws = new_solver_scratch(uses_solver(cfg_a_dealer) or uses_solver(cfg_b_dealer))
        out = counts[r]
        for p in range(lo, hi):
            n = play_partie(seed, p, cfg_a_dealer, cfg_b_dealer, four, rec, perm, draws,
                            values, stock, script, totals, scratch, state, table, ws)
            a = 0
            b = 0
            for k in range(n):
                a += totals[k, 0]
                b += totals[k, 1]
            winner, rubicon, points = settle(a, b)
            out[P_PARTIES] += 1
            if winner == 1:
                out[P_A_WINS] += 1
            elif winner == -1:
                out[P_B_WINS] += 1
            else:
                out[P_DRAWN] += 1
            if rubicon:
                out[P_RUBICONS] += 1
            if n > (4 if four else 6):
                out[P_TIE_BREAKS] += 1
            out[P_A_POINTS] += points
            out[P_A_POINTS_SQ] += points * points
            out[P_A_SCORE] += a
            out[P_B_SCORE] += b
    return counts


def partie_counts(seed: int, start: int, stop: int, cfg_a_dealer: np.ndarray,
                  cfg_b_dealer: np.ndarray, four: bool = False, chunk: int = 256,
                  block: int = 1 << 16,
                  progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Counts (``PARTIE_WIDTH``) over parties ``[start, stop)``; partie ``p`` uses
    deal indices ``8p .. 8p+7``."""
    seed, start, stop = _check(seed, start, stop, cfg_a_dealer)
    _check(seed, start, stop, cfg_b_dealer)
    check_index_range(DEALS_PER_PARTIE * start, DEALS_PER_PARTIE * stop)
    task = partial(_partie_task, seed, cfg_a_dealer, cfg_b_dealer, bool(four))
    return reduce_counts(task, start, stop, PARTIE_WIDTH, chunk, block, progress)


def _partie_task(seed, cfg_a_dealer, cfg_b_dealer, four, lo, n, rows):
    return partie_rows(np.uint64(seed), lo, n, rows, cfg_a_dealer, cfg_b_dealer, four)


@njit(cache=True, parallel=True)
def record_rows(seed, start, count, cfg, out):
    """The full record of every deal ``[start, start + count)`` into ``out[count, REC_LEN]``."""
    for i in prange(count):
        perm, draws, values, stock, rec, totals, state = _scratch()
        script = np.zeros(2, dtype=np.int64)
        table, ws = new_solver_scratch(uses_solver(cfg))
        whole_deal(seed, np.uint64(start + i), cfg, script, out[i], perm, draws, values, stock,
                   totals, state, table, ws)


def deal_records(seed: int, start: int, stop: int, cfg: np.ndarray) -> np.ndarray:
    """Records (``(stop - start, REC_LEN)`` int64) of deals ``[start, stop)``: for
    cross-checks and narratives (memory grows with the range; use
    :func:`deal_counts` for large runs)."""
    seed, start, stop = _check(seed, start, stop, cfg)
    out = np.zeros((stop - start, REC_LEN), dtype=np.int64)
    record_rows(np.uint64(seed), start, stop - start, cfg, out)
    return out


# ---------------------------------------------------------------------------
# Paired runs: the same deals under two configurations (common random numbers).
# ---------------------------------------------------------------------------

PAIRED_COLUMNS = ("deals", "sum_a", "sum_b", "sum_diff", "sum_diff_sq")
PAIR_DEALS, PAIR_SUM_A, PAIR_SUM_B, PAIR_SUM_DIFF, PAIR_SUM_DIFF_SQ = range(5)
PAIR_OUTCOMES = 5          # 9 cells: 3 * outcome under a + outcome under b (0 elder wins, 1 tie, 2 younger)
PAIRED_WIDTH = PAIR_OUTCOMES + 9


@njit(cache=True, inline="always")
def _outcome(rec):
    e = rec[C_TOTAL]
    y = rec[REC_YOUNGER + C_TOTAL]
    return 0 if e > y else (1 if e == y else 2)


@njit(cache=True, parallel=True)
def paired_rows(seed, start, count, rows, cfg_a, cfg_b):
    counts = np.zeros((rows, PAIRED_WIDTH), dtype=np.int64)
    for r in prange(rows):
        lo, hi = row_range(start, count, rows, r)
        perm, draws, values, stock, rec, totals, state = _scratch()
        rec_b = np.zeros(REC_LEN, dtype=np.int64)
        script = np.zeros(2, dtype=np.int64)
        table, ws = new_solver_scratch(uses_solver(cfg_a) or uses_solver(cfg_b))
        out = counts[r]
        for i in range(lo, hi):
            whole_deal(seed, np.uint64(i), cfg_a, script, rec, perm, draws, values, stock,
                       totals, state, table, ws)
            whole_deal(seed, np.uint64(i), cfg_b, script, rec_b, perm, draws, values, stock,
                       totals, state, table, ws)
            a = rec[C_TOTAL] - rec[REC_YOUNGER + C_TOTAL]
            b = rec_b[C_TOTAL] - rec_b[REC_YOUNGER + C_TOTAL]
            out[PAIR_DEALS] += 1
            out[PAIR_SUM_A] += a
            out[PAIR_SUM_B] += b
            out[PAIR_SUM_DIFF] += a - b
            out[PAIR_SUM_DIFF_SQ] += (a - b) * (a - b)
            out[PAIR_OUTCOMES + 3 * _outcome(rec) + _outcome(rec_b)] += 1
    return counts


def paired_counts(seed: int, start: int, stop: int, cfg_a: np.ndarray, cfg_b: np.ndarray,
                  chunk: int = DEFAULT_CHUNK, block: int = DEFAULT_BLOCK,
                  progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Deals ``[start, stop)`` played under ``cfg_a`` and ``cfg_b`` (same cards, same
    random words): sums of the elder's margin (elder − younger) under each and of
    their difference, and the 3 × 3 table of deal outcomes."""
    seed, start, stop = _check(seed, start, stop, cfg_a)
    _check(seed, start, stop, cfg_b)
    return reduce_counts(partial(_paired_task, seed, cfg_a, cfg_b), start, stop, PAIRED_WIDTH,
                         chunk, block, progress)


def _paired_task(seed, cfg_a, cfg_b, lo, n, rows):
    return paired_rows(np.uint64(seed), lo, n, rows, cfg_a, cfg_b)
