"""The parallel driver of whole deals: deals ``[start, stop)`` of a seed played under one
``cfg`` and summed into the int64 count columns ``COUNTS`` (:mod:`..records`).

Each row (:func:`~ecarte_sim.engine.batch.each_row`) plays its own deals with its own
scratch and writes its own row;
:func:`ecarte_sim.engine.batch.reduce_counts` sums rows and tasks, so the counts are
bit-identical for any thread count, chunk, task size or backend.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np
from numba import njit

from ecarte_sim.engine.batch import DEFAULT_BLOCK, DEFAULT_CHUNK, each_row, reduce_counts, row_range
from ecarte_sim.engine.ecarte.deals.whole import deal_scratch, inference_scratch, whole_deal
from ecarte_sim.engine.ecarte.decisions.policies import empty_script
from ecarte_sim.engine.ecarte.records import COUNTS, REC, ProposalsEnd
from ecarte_sim.engine.rng import check_index_range, check_seed

R = REC.at
K = COUNTS.at
WIDTH = COUNTS.size   # a plain int: numba reads module-level ints as constants


@njit(cache=True)
def king_code(rec):
    """Who marked a king in the deal (index of ``KINGS``)."""
    if rec[R.KING_TURNED]:
        return 1
    if rec[R.KING_ELDER]:
        return 2
    if rec[R.KING_DEALER]:
        return 3
    return 0


@njit(cache=True)
def deal_code(rec):
    """``5 * king + points`` (see ``KINGS``, ``POINTS`` in :mod:`..records`): what a deal gave, in the order
    the marks are made — enough to replay it at any score."""
    king = king_code(rec)
    if rec[R.POINTS_ELDER]:
        points = rec[R.POINTS_ELDER] - 1
    elif rec[R.POINTS_DEALER]:
        points = 1 + rec[R.POINTS_DEALER]
    else:
        points = 4
    return 5 * king + points


@njit(cache=True, nogil=True)
def whole_row(r, seed, start, count, rows, cfg, script, counts, infer):
    """Row ``r`` of :func:`whole_rows`: its deals' counts into ``counts[r]``."""
    lo, hi = row_range(start, count, rows, r)
    perm, draws, pool, payoff, rec = deal_scratch()
    for i in range(lo, hi):
        whole_deal(seed, np.uint64(i), cfg, script, rec, perm, draws, pool, payoff, infer)
        counts[r, K.MARKS + 4 * rec[R.MARKS_ELDER] + rec[R.MARKS_DEALER]] += 1
        if rec[R.OUTCOME] >= 0:
            counts[r, K.OUTCOME + rec[R.OUTCOME]] += 1
        counts[r, K.FIRST + rec[R.FIRST]] += 1
        counts[r, K.EXCHANGES] += rec[R.EXCHANGES]
        counts[r, K.ENDED] += rec[R.ENDED]
        counts[r, K.KING_TURNED] += rec[R.KING_TURNED]
        counts[r, K.KING_ELDER] += rec[R.KING_ELDER]
        counts[r, K.KING_DEALER] += rec[R.KING_DEALER]
        if rec[R.HOW_ENDED] == ProposalsEnd.STOCK_EXHAUSTED:
            counts[r, K.STOCK_OUT] += 1
        counts[r, K.PIMC_DECISIONS] += rec[R.PIMC_DECISIONS]
        counts[r, K.PIMC_SOLVES] += rec[R.PIMC_SOLVES]
        counts[r, K.INFER_WORLDS] += rec[R.INFER_WORLDS]
        counts[r, K.INFER_TRIES] += rec[R.INFER_TRIES]
        counts[r, K.INFER_FALLBACKS] += rec[R.INFER_FALLBACKS]
        counts[r, K.DEAL + deal_code(rec)] += 1


def whole_rows(seed, start, count, rows, cfg, script):
    """Counts (``COUNTS``) for deals ``[start, start + count)`` in ``rows`` rows."""
    counts = np.zeros((rows, WIDTH), dtype=np.int64)
    each_row(whole_row, rows, seed, start, count, rows, cfg, script, counts,
             inference_scratch(cfg))
    return counts


def whole_counts(seed: int, start: int, stop: int, cfg: np.ndarray,
                 script: np.ndarray | None = None, chunk: int = DEFAULT_CHUNK,
                 block: int = DEFAULT_BLOCK,
                 progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Summed int64 counts (``COUNTS.size``) of whole deals ``[start, stop)`` of ``seed``."""
    seed = check_seed(seed)
    start, stop = check_index_range(start, stop)
    script = empty_script() if script is None else script
    return reduce_counts(partial(_whole_task, seed, cfg, script), start, stop, COUNTS.size,
                         chunk, block, progress)


def _whole_task(seed, cfg, script, lo, n, rows):
    return whole_rows(np.uint64(seed), np.int64(lo), n, rows, cfg, script)
