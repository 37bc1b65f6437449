"""Paired experiments within one class of deals: rejection sampling from the plain deal.

The paired experiments of :mod:`.experiments` deal ``0, 1, 2, ...`` and keep the deals a
classifier puts in a class of interest; a rare class (the elder holding a jeu de règle of
rule 6: about one deal in 810) then rests on few deals. Here each class is sampled on its
own, so that every class gets as many deals as its precision needs.

Method: rejection sampling
    Class sample ``i`` of class ``c`` is found by attempts ``k = 0, 1, 2, ...``: attempt
    ``k`` is the ordinary deal (:func:`ecarte_sim.engine.ecarte.laws.deal.deal_full`, the same
    counter-based shuffle as every other deal) at the deal index
    :func:`class_deal_index` ``(classifier, c, i, k)``; the sample is the first attempt
    whose deal falls in class ``c`` (:func:`ecarte_sim.engine.ecarte.deals.experiments.deal_class`),
    and the *whole* deal of that index — hands, turn-up and stock order — is played under
    both configurations, exactly as :func:`~.experiments.paired_block` plays a deal.

    Why this is exactly "the elder's hand drawn from the class's own hands, uniformly as
    dealing would, then the rest of the deal": the attempts are independent deals with the
    plain deal distribution ``D``, and the first of a sequence of independent draws from
    ``D`` that lands in a set ``A`` is distributed as ``D`` conditioned on ``A`` (for any
    deal ``d`` in ``A``, ``P(sample = d) = sum_k (1 - D(A))^k D(d) = D(d) / D(A)``). So a
    class sample is a plain deal restricted to the class, with every hand of the class in
    its natural proportion (the king of trumps held or not, the turn-up, the stock). The
    class-sampled mean of any statistic estimates the same conditional expectation as the
    plain deals of that class do — no weights are needed, and none are applied. Samples of
    different ``i`` use disjoint deal indices, so they are independent.

    The class of a deal is a function of the dealt hands and the turn-up (and, for
    ``CLASSIFY_DEALER``, of ``cfg_a``'s first decision, which is a function of the same):
    ``CLASSIFY_REGLE`` class ``c`` = rule ``c`` of the list (1-7), the king of trumps held
    or not (the tables keep the 16 classes ``rule + 8 * king`` of :mod:`.experiments`, so
    the king's sub-classes come out in their natural proportions); ``CLASSIFY_DEALER``
    class ``c`` = the elder proposes (by ``cfg_a``) and the dealer's maxim case is ``c``
    (1-7, :data:`ecarte_sim.engine.ecarte.decisions.policies.MAXIM_CASES`).

Deal indices
    ``index = CLASS_DEALS_START + (tag << 39) + (i << 16) + k`` with
    ``CLASS_DEALS_START = 2^43``, ``tag = 8 * (classifier - 1) + c`` (4 bits: 1-7 the
    rules, 9-15 the dealer's cases), ``i < 2^23`` (:data:`MAX_CLASS_SAMPLES`) and
    ``k < 2^16`` (:data:`MAX_ATTEMPTS`). Every index lies in ``[2^43, 2^44)``, inside the
    generator's range (:data:`ecarte_sim.engine.rng.MAX_DEAL_INDEX` = 2^44) and disjoint
    from the plain experiments' indices (``0 .. n``, n at most 2^40) and from the claims'
    score table (from 2^40, at most 2^40 deals), and different (class, i, k) never share
    an index. PIMC's worlds are keyed by the deal index too, so a class sample and both
    its arms are a pure function of (seed, classifier, class, i, the configurations).

    The rarest class the claims sample is rule 6 (probability 1.236e-3 a deal, by
    enumeration: about 810 attempts on average); the chance that 2^16 attempts all miss
    is ``(1 - 1.236e-3)^65536``, about ``e^-81``. If it ever happens the sample is not
    dropped in silence: :func:`class_table` raises.

Tables and bit-identity
    :func:`class_table` runs class samples ``[start, stop)`` through
    :func:`ecarte_sim.engine.batch.reduce_counts` exactly like :func:`~.experiments.paired_table`
    runs deals: int64 counts ``[class, arm code a, arm code b]`` (the 16 or 8 classes of the
    classifier; only the sampled class's rows are non-zero) plus the attempts made, integer
    sums that are bit-identical for any thread count, chunk, task size or backend.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np
from numba import njit

from ecarte_sim.engine.batch import DEFAULT_BLOCK, DEFAULT_CHUNK, each_row, reduce_counts, row_range
from ecarte_sim.engine.cards import N_CARDS
from ecarte_sim.engine.ecarte.deals.experiments import (CLASSIFY_DEALER, CLASSIFY_REGLE, N_ARM,
                                                        N_CLASSES, check_cfgs, tabulate, arm_code,
                                                        deal_class)
from ecarte_sim.engine.ecarte.deals.whole import deal_scratch, inference_scratch, whole_deal
from ecarte_sim.engine.ecarte.decisions.policies import empty_script
from ecarte_sim.engine.ecarte.laws.deal import deal_hands
from ecarte_sim.engine.rng import MAX_DEAL_INDEX, check_seed

#: First deal index of the class samples (above the plain deals and the score table).
CLASS_DEALS_START = 1 << 43
CLASS_TAG_BITS = 4
CLASS_SAMPLE_BITS = 23
CLASS_ATTEMPT_BITS = 16
#: Class samples per class, and attempts per class sample, the index scheme has room for.
MAX_CLASS_SAMPLES = 1 << CLASS_SAMPLE_BITS
MAX_ATTEMPTS = 1 << CLASS_ATTEMPT_BITS
#: The classes each classifier can sample (class 0 is unused by both).
SAMPLED_CLASSES = {CLASSIFY_REGLE: tuple(range(1, 8)), CLASSIFY_DEALER: tuple(range(1, 8))}
assert CLASS_DEALS_START + (1 << (CLASS_TAG_BITS + CLASS_SAMPLE_BITS + CLASS_ATTEMPT_BITS)) \
    <= MAX_DEAL_INDEX

_SAMPLE_SHIFT = CLASS_ATTEMPT_BITS
_TAG_SHIFT = CLASS_SAMPLE_BITS + CLASS_ATTEMPT_BITS


def _check_class(classifier: int, cls: int) -> None:
    if classifier not in SAMPLED_CLASSES:
        raise ValueError(f"class sampling needs CLASSIFY_REGLE or CLASSIFY_DEALER, "
                         f"not classifier {classifier!r}")
    if cls not in SAMPLED_CLASSES[classifier]:
        raise ValueError(f"class {cls!r} is not one of {SAMPLED_CLASSES[classifier]}")


def class_deal_index(classifier: int, cls: int, i: int, k: int) -> int:
    """Deal index of attempt ``k`` of class sample ``i`` of class ``cls`` (module docstring)."""
    _check_class(classifier, cls)
    if not 0 <= i < MAX_CLASS_SAMPLES:
        raise ValueError(f"class sample {i} is outside [0, 2^{CLASS_SAMPLE_BITS})")
    if not 0 <= k < MAX_ATTEMPTS:
        raise ValueError(f"attempt {k} is outside [0, 2^{CLASS_ATTEMPT_BITS})")
    tag = 8 * (classifier - 1) + cls
    return CLASS_DEALS_START + (tag << _TAG_SHIFT) + (i << _SAMPLE_SHIFT) + k


@njit(cache=True)
def find_in_class(seed, classifier, cls, cfg_a, script, i, perm, draws):
    """Class sample ``i`` of class ``cls``: ``(deal index, class, attempts)`` of the first
    attempt whose deal is in the class; ``(-1, -1, MAX_ATTEMPTS)`` if none is."""
    tag = 8 * (classifier - 1) + cls
    base = CLASS_DEALS_START + (tag << _TAG_SHIFT) + (i << _SAMPLE_SHIFT)
    for k in range(MAX_ATTEMPTS):
        index = base + k
        elder, dealer, turn_up = deal_hands(seed, np.uint64(index), perm, draws)
        c = deal_class(classifier, cfg_a, script, elder, dealer, turn_up)
        if c >= 0 and (c & 7) == cls:
            return index, c, k + 1
    return -1, -1, MAX_ATTEMPTS


@njit(cache=True, nogil=True)
def class_row(r, seed, classifier, cls, start, count, rows, cfg_a, cfg_b, script,
              out_class, out_a, out_b, out_attempts, infer):
    """Row ``r`` of :func:`class_block`."""
    lo, hi = row_range(start, count, rows, r)
    perm, draws, pool, payoff, rec = deal_scratch()
    for i in range(lo, hi):
        k = i - start
        index, c, attempts = find_in_class(seed, classifier, cls, cfg_a, script, i, perm,
                                           draws)
        out_class[k] = c
        out_attempts[k] = attempts
        if c < 0:
            continue
        whole_deal(seed, np.uint64(index), cfg_a, script, rec, perm, draws, pool,
                   payoff, infer)
        out_a[k] = arm_code(rec)
        whole_deal(seed, np.uint64(index), cfg_b, script, rec, perm, draws, pool,
                   payoff, infer)
        out_b[k] = arm_code(rec)


def class_block(seed, classifier, cls, start, count, rows, cfg_a, cfg_b, script,
                out_class, out_a, out_b, out_attempts):
    """Class samples ``[start, start + count)``: ``out_class[k]`` (-1: not found), the arm
    codes under ``cfg_a`` and ``cfg_b`` and the attempts made (``k`` = sample - start), in
    ``rows`` rows on the local threads."""
    each_row(class_row, rows, seed, classifier, cls, start, count, rows, cfg_a, cfg_b,
             script, out_class, out_a, out_b, out_attempts, inference_scratch(cfg_a, cfg_b))


@njit(cache=True)
def _deals_block(seed, classifier, cls, start, count, cfg_a, script, out_index, out_attempts):
    perm = np.empty(N_CARDS, dtype=np.int64)
    draws = np.empty(N_CARDS, dtype=np.int64)
    for i in range(start, start + count):
        index, c, attempts = find_in_class(seed, classifier, cls, cfg_a, script, i, perm,
                                           draws)
        out_index[i - start] = index
        out_attempts[i - start] = attempts


def _check_samples(start: int, stop: int) -> tuple[int, int]:
    start, stop = int(start), int(stop)
    if not 0 <= start <= stop <= MAX_CLASS_SAMPLES:
        raise ValueError(f"class samples [{start}, {stop}) must lie in "
                         f"[0, 2^{CLASS_SAMPLE_BITS}) (the room the deal indices leave a class)")
    return start, stop


def class_deals(seed: int, classifier: int, cls: int, start: int, stop: int,
                cfg_a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The deal index of each class sample ``[start, stop)`` of class ``cls`` (-1: not
    found in :data:`MAX_ATTEMPTS` attempts) and the attempts each took — to inspect or
    re-deal the samples (:func:`ecarte_sim.engine.ecarte.laws.deal.deal`)."""
    seed = check_seed(seed)
    _check_class(classifier, cls)
    start, stop = _check_samples(start, stop)
    check_cfgs(cfg_a)
    out_index = np.zeros(stop - start, dtype=np.int64)
    out_attempts = np.zeros(stop - start, dtype=np.int64)
    _deals_block(np.uint64(seed), np.int64(classifier), np.int64(cls), np.int64(start),
                 stop - start, cfg_a, empty_script(), out_index, out_attempts)
    return out_index, out_attempts


def class_table(seed: int, start: int, stop: int, cfg_a: np.ndarray, cfg_b: np.ndarray,
                classifier: int, cls: int, chunk: int = DEFAULT_CHUNK,
                block: int = DEFAULT_BLOCK, progress: Callable[[int], None] | None = None
                ) -> tuple[np.ndarray, int]:
    """int64 counts ``[class, arm code a, arm code b]`` over class samples ``[start, stop)``
    of class ``cls`` (the classifier's ``N_CLASSES`` rows, those of other classes zero),
    and the number of deals dealt to find them (attempts). Raises if a sample found no deal
    of its class in :data:`MAX_ATTEMPTS` attempts (an empty or near-empty class)."""
    seed = check_seed(seed)
    _check_class(classifier, cls)
    start, stop = _check_samples(start, stop)
    check_cfgs(cfg_a, cfg_b)
    n_classes = N_CLASSES[classifier]
    width = n_classes * N_ARM * N_ARM
    task = partial(_class_task, seed, cfg_a, cfg_b, int(classifier), int(cls))
    counts = reduce_counts(task, start, stop, width + 2, chunk, block, progress)
    missed = int(counts[width + 1])
    if missed:
        raise RuntimeError(f"{missed} class sample(s) of class {cls} (classifier "
                           f"{classifier}) found no deal of the class in {MAX_ATTEMPTS} "
                           "attempts: is the class (nearly) empty under this configuration?")
    return counts[:width].reshape(n_classes, N_ARM, N_ARM), int(counts[width])


def _class_task(seed, cfg_a, cfg_b, classifier, cls, lo, n, rows):
    out_class = np.full(n, -1, dtype=np.int8)
    out_a = np.zeros(n, dtype=np.int8)
    out_b = np.zeros(n, dtype=np.int8)
    out_attempts = np.zeros(n, dtype=np.int64)
    class_block(np.uint64(seed), np.int64(classifier), np.int64(cls), np.int64(lo), n, rows,
                cfg_a, cfg_b, empty_script(), out_class, out_a, out_b,
                out_attempts)
    table = tabulate(out_class, out_a, out_b, N_CLASSES[classifier])
    extra = np.array([[out_attempts.sum(), np.count_nonzero(out_class < 0)]], dtype=np.int64)
    return np.concatenate([table, extra], axis=1)


__all__ = ["class_table", "class_deals", "class_deal_index", "find_in_class",
           "CLASS_DEALS_START", "MAX_CLASS_SAMPLES", "MAX_ATTEMPTS", "SAMPLED_CLASSES"]
