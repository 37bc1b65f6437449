"""Paired experiments: each deal played twice, once per arm, on the same cards.

Two configurations ``cfg_a`` and ``cfg_b`` (usually the same policies with the first
decision forced two ways, the ``elder_first`` field of ``CFG``) play the same deal —
same hands, turn-up and stock order (common random numbers) — and each arm's result is
kept as an *arm code*, so any statistic of the deal (the point, the vole, the marks, the
game-win probability at any score) can be computed afterwards from the joint table::

    arm code = 16 * first + 4 * king + outcome
    first    = NONE, PLAYED_WITHOUT_PROPOSING, REFUSED_FIRST  (Law 49)
    king     = none, turned up (dealer), elder in hand, dealer in hand  (Laws 22-24)
    outcome  = DEALER_VOLE, DEALER_POINT, ELDER_POINT, ELDER_VOLE  (Law 48)

A *classifier* picks the deals of interest and gives each a class (``-1``: not played):

``CLASSIFY_ALL``      every deal, class 0.
``CLASSIFY_REGLE``    the elder's dealt hand is a *jeu de règle*: class = rule id (1-7)
                      + 8 if he holds the king of trumps (16 classes, 0 and 8 unused).
``CLASSIFY_DEALER``   the elder proposes in round 0 (by ``cfg_a``): class = the index of
                      the dealer's maxim that speaks for the dealer's hand
                      (:func:`ecarte_sim.engine.ecarte.decisions.policies.maxim_case`, 1-7).

The kernels write one int8 triple per deal (class, arm a, arm b) into arrays the caller
owns; the Python layer turns them into int64 counts with ``np.bincount`` — integer sums,
so the tables are bit-identical for any thread count or chunk size.

The fixed-hand kernels (:func:`hand_block`, :func:`exact_block`) deal the rest of the
pack around a given elder hand: sampled from deal ``index``'s sub-stream, or enumerated
in lexicographic order of the dealer's hand (the ``hand --exact`` command).
"""

from __future__ import annotations

from collections.abc import Callable

from functools import partial

import numpy as np
from numba import njit

from ecarte_sim.engine.batch import DEFAULT_BLOCK, DEFAULT_CHUNK, each_row, reduce_counts, row_range
from ecarte_sim.engine.cards import N_CARDS, popcount32, suit_mask
from ecarte_sim.engine.ecarte.deals.counts import king_code
from ecarte_sim.engine.ecarte.deals.whole import (deal_scratch, inference_scratch, play_dealt,
                                                  points_for, whole_deal)
from ecarte_sim.engine.ecarte.decisions.policies import (elder_proposes, empty_script, maxim_case,
                                                         score_slot)
from ecarte_sim.engine.ecarte.decisions.regle_kernel import regle_rule
from ecarte_sim.engine.ecarte.laws.deal import HAND_SIZE, TURN_UP_POSITION, deal_hands
from ecarte_sim.engine.ecarte.laws.notation import turn_ups as turn_ups_of
from ecarte_sim.engine.ecarte.records import REC
from ecarte_sim.engine.ecarte.settings import CFG, ElderFirst, PlayModel
from ecarte_sim.engine.rng import check_index_range, check_seed, draw_descending

#: Field offsets of ``cfg`` and ``rec``, as kernel constants.
C = CFG.at
R = REC.at
N_ARM = 48
CLASSIFY_ALL, CLASSIFY_REGLE, CLASSIFY_DEALER = 0, 1, 2
N_CLASSES = {CLASSIFY_ALL: 1, CLASSIFY_REGLE: 16, CLASSIFY_DEALER: 8}
#: Dealer hands of the remaining 26 (27 less the turn-up) cards: C(26, 5).
DEALER_HANDS = 65_780
_KING = 7

# Binomial coefficients C(n, k) for n <= 32, k <= 5 (lexicographic unranking).
_BINOM = np.zeros((N_CARDS + 1, HAND_SIZE + 1), dtype=np.int64)
for _n in range(N_CARDS + 1):
    _BINOM[_n, 0] = 1
    for _k in range(1, min(_n, HAND_SIZE) + 1):
        _BINOM[_n, _k] = _BINOM[_n - 1, _k - 1] + (_BINOM[_n - 1, _k] if _k <= _n - 1 else 0)


#: Arm codes decoded (index = code): Law 49 flag, king, outcome, and the marks each side
#: made in the deal (kings + point or vole, Laws 22-24, 48-49).
ARM_FIRST = np.arange(N_ARM) // 16
ARM_KING = (np.arange(N_ARM) // 4) % 4
ARM_OUTCOME = np.arange(N_ARM) % 4
# (The kernel's Python function: calling the compiled one here would load it from numba's
# cache on every import of this module, about 0.2 s of every command's start-up.)
_ARM_POINTS = np.array([points_for.py_func(int(o), int(f))
                        for f, o in zip(ARM_FIRST, ARM_OUTCOME)])
ARM_POINTS_ELDER, ARM_POINTS_DEALER = _ARM_POINTS[:, 0], _ARM_POINTS[:, 1]
ARM_MARKS_ELDER = ARM_POINTS_ELDER + (ARM_KING == 2)
ARM_MARKS_DEALER = ARM_POINTS_DEALER + (ARM_KING == 1) + (ARM_KING == 3)
ARM_NET = ARM_MARKS_ELDER - ARM_MARKS_DEALER


@njit(cache=True)
def arm_code(rec):
    """The arm code of a finished deal (module docstring). The deal must have been played
    (no target: a game cut short at a king has no outcome)."""
    return 16 * rec[R.FIRST] + 4 * king_code(rec) + rec[R.OUTCOME]


@njit(cache=True)
def deal_class(classifier, cfg_a, script, elder, dealer, turn_up):
    """Class of a dealt deal (``-1``: leave it out), see the module docstring."""
    trump = turn_up >> 3
    if classifier == CLASSIFY_ALL:
        return 0
    if classifier == CLASSIFY_REGLE:
        rule = regle_rule(elder, trump)
        if rule == 0:
            return -1
        king = np.uint32(1) << np.uint32(8 * trump + _KING)
        return rule + (8 if (np.uint32(elder) & king) != 0 else 0)
    # CLASSIFY_DEALER: only deals where the dealer has a proposal to answer
    if cfg_a[C.ELDER_FIRST] != ElderFirst.BY_POLICY:
        proposes = cfg_a[C.ELDER_FIRST] == ElderFirst.PROPOSE
    else:
        proposes = elder_proposes(cfg_a[C.ELDER_POLICY], cfg_a[C.THRESHOLD], elder, trump,
                                  0, script, turn_up,
                                  score_slot(cfg_a[C.ELDER_SCORE], cfg_a[C.DEALER_SCORE]))
    if not proposes:
        return -1
    return maxim_case(dealer, trump)


@njit(cache=True, nogil=True)
def paired_row(r, seed, start, count, rows, cfg_a, cfg_b, script, script_b, classifier,
               out_class, out_a, out_b, infer):
    """Row ``r`` of :func:`paired_block`."""
    lo, hi = row_range(start, count, rows, r)
    perm, draws, pool, payoff, rec = deal_scratch()
    for i in range(lo, hi):
        k = i - start
        elder, dealer, turn_up = deal_hands(seed, np.uint64(i), perm, draws)
        c = deal_class(classifier, cfg_a, script, elder, dealer, turn_up)
        out_class[k] = c
        if c < 0:
            continue
        whole_deal(seed, np.uint64(i), cfg_a, script, rec, perm, draws, pool, payoff, infer)
        out_a[k] = arm_code(rec)
        whole_deal(seed, np.uint64(i), cfg_b, script_b, rec, perm, draws, pool, payoff,
                   infer)
        out_b[k] = arm_code(rec)


def paired_block(seed, start, count, rows, cfg_a, cfg_b, script, script_b, classifier,
                 out_class, out_a, out_b):
    """Deals ``[start, start + count)``: ``out_class[k]`` and, for classified deals, the
    arm codes under (``cfg_a``, ``script``) and (``cfg_b``, ``script_b``) (``k`` = deal -
    start; the class is read with arm a's), in ``rows`` rows on the local threads."""
    each_row(paired_row, rows, seed, start, count, rows, cfg_a, cfg_b, script, script_b,
             classifier, out_class, out_a, out_b, inference_scratch(cfg_a, cfg_b))


def check_cfgs(*cfgs):
    """Raise ``ValueError`` unless every cfg comes from ``EcarteSettings.cfg()`` and plays
    one deal (not a game to a target)."""
    for cfg in cfgs:
        if cfg.shape != (CFG.size,) or cfg.dtype != np.int64:
            raise ValueError("cfg must come from EcarteSettings.cfg()")
        if cfg[C.TARGET] != 0:
            raise ValueError("paired experiments play untruncated deals (target 0); "
                             "scores are applied afterwards")


def tabulate(out_class, out_a, out_b, n_classes):
    """The (1, ``n_classes`` * N_ARM²) int64 counts of (class, arm A's code, arm B's code)
    over the deals with a class (``out_class`` >= 0)."""
    keep = out_class >= 0
    flat = (out_class[keep].astype(np.int64) * (N_ARM * N_ARM)
            + out_a[keep].astype(np.int64) * N_ARM + out_b[keep].astype(np.int64))
    return np.bincount(flat, minlength=n_classes * N_ARM * N_ARM).astype(np.int64)[None, :]


def paired_table(seed: int, start: int, stop: int, cfg_a: np.ndarray, cfg_b: np.ndarray,
                 classifier: int, chunk: int = DEFAULT_CHUNK, block: int = DEFAULT_BLOCK,
                 progress: Callable[[int], None] | None = None,
                 script: np.ndarray | None = None,
                 script_b: np.ndarray | None = None) -> np.ndarray:
    """int64 counts ``[class, arm code a, arm code b]`` over deals ``[start, stop)``
    (``script``: the scripted values and tables arm a reads, and arm b unless
    ``script_b`` is given; default none)."""
    seed = check_seed(seed)
    start, stop = check_index_range(start, stop)
    check_cfgs(cfg_a, cfg_b)
    if classifier not in N_CLASSES:
        raise ValueError(f"unknown classifier {classifier!r}")
    n_classes = N_CLASSES[classifier]
    width = n_classes * N_ARM * N_ARM
    if script is None and script_b is None:
        task = partial(_paired_task, seed, cfg_a, cfg_b, int(classifier))
    else:
        script = empty_script() if script is None else script
        script_b = script if script_b is None else script_b
        task = partial(_paired_script_task, seed, cfg_a, cfg_b, int(classifier),
                       np.ascontiguousarray(script, dtype=np.int64),
                       np.ascontiguousarray(script_b, dtype=np.int64))
    return reduce_counts(task, start, stop, width, chunk, block, progress).reshape(
        n_classes, N_ARM, N_ARM)


def _paired_task(seed, cfg_a, cfg_b, classifier, lo, n, rows):
    script = empty_script()
    return _paired_script_task(seed, cfg_a, cfg_b, classifier, script, script, lo, n, rows)


def _paired_script_task(seed, cfg_a, cfg_b, classifier, script, script_b, lo, n, rows):
    out_class = np.full(n, -1, dtype=np.int8)
    out_a = np.zeros(n, dtype=np.int8)
    out_b = np.zeros(n, dtype=np.int8)
    paired_block(np.uint64(seed), np.int64(lo), n, rows, cfg_a, cfg_b, script, script_b,
                 classifier, out_class, out_a, out_b)
    return tabulate(out_class, out_a, out_b, N_CLASSES[classifier])


#: Side of :func:`paired_counts`' table: a deal's mark difference lies in -3..3.
DIFF_SIDE = 7


def paired_counts(seed: int, start: int, stop: int, cfg_a: np.ndarray, cfg_b: np.ndarray,
                  chunk: int = DEFAULT_CHUNK, block: int = DEFAULT_BLOCK,
                  progress: Callable[[int], None] | None = None,
                  script: np.ndarray | None = None,
                  script_b: np.ndarray | None = None) -> np.ndarray:
    """7 x 7 int64 table of (diff under ``cfg_a``, diff under ``cfg_b``) over every deal of
    ``[start, stop)``, diff = the elder's marks minus the dealer's, index ``diff + 3``
    (for :func:`analysis.stats.paired_difference`): :func:`paired_table` of all deals,
    its arm codes folded into mark differences."""
    joint = paired_table(seed, start, stop, cfg_a, cfg_b, CLASSIFY_ALL, chunk, block,
                         progress, script, script_b)[0]
    net = ARM_NET + DIFF_SIDE // 2
    out = np.zeros((DIFF_SIDE, DIFF_SIDE), dtype=np.int64)
    np.add.at(out, (net[:, None], net[None, :]), joint)
    return out




# ---------------------------------------------------------------------------
# A fixed elder hand: the rest of the pack sampled or enumerated
# ---------------------------------------------------------------------------

@njit(cache=True)
def uniform_below(seed, index, k, top, draws):
    """A uniform draw from ``[0, top)`` from word ``k`` on; returns (draw, next k)."""
    threshold = (np.uint64(0) - np.uint64(top)) % np.uint64(top)  # 2**64 mod top
    k = draw_descending(seed, index, k, top, 1, threshold, draws, 0)
    return draws[0], k


@njit(cache=True)
def deal_around(seed, index, elder, turn_up, trump, perm, draws):
    """Deal ``index`` around the fixed ``elder`` hand: the turn-up (given, or if
    ``turn_up < 0`` drawn uniformly from the cards of ``trump`` not in the hand), then a
    uniform shuffle of the other 26 cards into the dealer's hand (positions 5-9) and the
    stock (11-31). Returns (dealer mask, turn-up)."""
    k = 0
    if turn_up < 0:
        candidates = suit_mask(trump) & ~np.uint32(elder)
        pick, k = uniform_below(seed, index, k, popcount32(candidates), draws)
        c = 8 * trump
        while True:
            if candidates & (np.uint32(1) << np.uint32(c)):
                if pick == 0:
                    break
                pick -= 1
            c += 1
        turn_up = c
    n = 0
    for c in range(N_CARDS):
        bit = np.uint32(1) << np.uint32(c)
        if (np.uint32(elder) & bit) != 0:
            perm[n] = c  # positions 0-4 in card order
            n += 1
    rest_start = HAND_SIZE
    m = rest_start
    for c in range(N_CARDS):
        bit = np.uint32(1) << np.uint32(c)
        if (np.uint32(elder) & bit) == 0 and c != turn_up:
            perm[m] = c
            m += 1
    # forward Fisher-Yates over the 26 cards at positions 5..30, then make room for the turn-up
    for i in range(rest_start, m - 1):
        j, k = uniform_below(seed, index, k, m - i, draws)
        tmp = perm[i]
        perm[i] = perm[i + j]
        perm[i + j] = tmp
    for i in range(m, TURN_UP_POSITION, -1):
        perm[i] = perm[i - 1]
    perm[TURN_UP_POSITION] = turn_up
    dealer = np.uint32(0)
    for i in range(HAND_SIZE, 2 * HAND_SIZE):
        dealer |= np.uint32(1) << np.uint32(perm[i])
    return dealer, turn_up


@njit(cache=True, nogil=True)
def hand_row(r, seed, start, count, rows, elder, turn_up, trump, cfg_a, cfg_b, script,
             out_a, out_b, infer):
    """Row ``r`` of :func:`hand_block`."""
    lo, hi = row_range(start, count, rows, r)
    perm, draws, pool, payoff, rec = deal_scratch()
    for i in range(lo, hi):
        k = i - start
        dealer, t = deal_around(seed, np.uint64(i), elder, turn_up, trump, perm, draws)
        # the hand as uint64, the type whole_deal gives play_dealt: one compiled play_dealt
        play_dealt(seed, np.uint64(i), cfg_a, script, rec, perm, draws, pool, payoff,
                   np.uint64(np.uint32(elder)), dealer, t, infer)
        out_a[k] = arm_code(rec)
        play_dealt(seed, np.uint64(i), cfg_b, script, rec, perm, draws, pool, payoff,
                   np.uint64(np.uint32(elder)), dealer, t, infer)
        out_b[k] = arm_code(rec)


def hand_block(seed, start, count, rows, elder, turn_up, trump, cfg_a, cfg_b, script,
               out_a, out_b):
    """Deals ``[start, start + count)`` around the fixed elder hand, each played under
    ``cfg_a`` and ``cfg_b``; arm codes in ``out_a``/``out_b`` (``rows`` rows on the local
    threads)."""
    each_row(hand_row, rows, seed, start, count, rows, elder, turn_up, trump, cfg_a, cfg_b,
             script, out_a, out_b, inference_scratch(cfg_a, cfg_b))


@njit(cache=True)
def unrank_dealer(rank, rest, perm):
    """The ``rank``-th 5-card hand (lexicographic order of card index) of the 26 cards
    ``rest`` (ascending); writes it to ``perm[5:10]`` and the other cards, ascending, to
    ``perm[11:32]``. Returns the mask."""
    n = rest.shape[0]
    hand = np.uint32(0)
    chosen = np.zeros(n, dtype=np.bool_)
    pos = 0
    need = HAND_SIZE
    for j in range(n):
        if need == 0:
            break
        with_j = _BINOM[n - j - 1, need - 1]  # hands that take rest[j] next
        if rank < with_j:
            chosen[j] = True
            hand |= np.uint32(1) << np.uint32(rest[j])
            perm[HAND_SIZE + pos] = rest[j]
            pos += 1
            need -= 1
        else:
            rank -= with_j
    m = TURN_UP_POSITION + 1
    for j in range(n):
        if not chosen[j]:
            perm[m] = rest[j]
            m += 1
    return hand


@njit(cache=True, nogil=True)
def exact_row(r, start, count, rows, elder, turn_ups, cfg, script, out, infer):
    """Row ``r`` of :func:`exact_block`."""
    lo, hi = row_range(start, count, rows, r)
    perm, draws, pool, payoff, rec = deal_scratch()
    rest = np.empty(N_CARDS - HAND_SIZE - 1, dtype=np.int64)
    for q in range(lo, hi):
        turn_up = turn_ups[q // DEALER_HANDS]
        m = 0
        for c in range(N_CARDS):
            if (np.uint32(elder) & (np.uint32(1) << np.uint32(c))) == 0 and c != turn_up:
                rest[m] = c
                m += 1
        n = 0
        for c in range(N_CARDS):
            if (np.uint32(elder) & (np.uint32(1) << np.uint32(c))) != 0:
                perm[n] = c
                n += 1
        perm[TURN_UP_POSITION] = turn_up
        dealer = unrank_dealer(q % DEALER_HANDS, rest, perm)
        play_dealt(np.uint64(0), np.uint64(q), cfg, script, rec, perm, draws, pool,
                   payoff, np.uint64(np.uint32(elder)), dealer, turn_up, infer)
        out[q - start] = arm_code(rec)


def exact_block(start, count, rows, elder, turn_ups, cfg, script, out):
    """Every deal of the fixed elder hand: rank ``q`` in ``[start, start + count)`` is
    turn-up ``turn_ups[q // 65780]`` and the dealer's hand of lexicographic rank
    ``q % 65780`` among the 26 cards left. Arm codes under ``cfg`` in ``out`` (``rows``
    rows on the local threads)."""
    each_row(exact_row, rows, start, count, rows, elder, turn_ups, cfg, script, out,
             inference_scratch(cfg))


def hand_table(seed: int, start: int, stop: int, elder: int, turn_up: int | None, trump: int,
               cfg_a: np.ndarray, cfg_b: np.ndarray, chunk: int = DEFAULT_CHUNK,
               block: int = DEFAULT_BLOCK,
               progress: Callable[[int], None] | None = None,
               script: np.ndarray | None = None) -> np.ndarray:
    """48 x 48 int64 counts of (arm a, arm b) over sampled deals ``[start, stop)`` around
    the fixed ``elder`` hand (``turn_up`` None: drawn from the trump suit); ``script``: the
    tables a table policy reads (None: no table)."""
    seed = check_seed(seed)
    start, stop = check_index_range(start, stop)
    check_cfgs(cfg_a, cfg_b)
    _check_hand(elder, turn_up, trump)
    t = -1 if turn_up is None else int(turn_up)
    task = partial(_hand_task, seed, int(elder), t, int(trump), cfg_a, cfg_b) \
        if script is None else \
        partial(_hand_script_task, seed, int(elder), t, int(trump), cfg_a, cfg_b, script)
    return reduce_counts(task, start, stop, N_ARM * N_ARM, chunk, block,
                         progress).reshape(N_ARM, N_ARM)


def _hand_task(seed, elder, turn_up, trump, cfg_a, cfg_b, lo, n, rows):
    return _hand_script_task(seed, elder, turn_up, trump, cfg_a, cfg_b, empty_script(), lo,
                             n, rows)


def _hand_script_task(seed, elder, turn_up, trump, cfg_a, cfg_b, script, lo, n, rows):
    out_a = np.zeros(n, dtype=np.int8)
    out_b = np.zeros(n, dtype=np.int8)
    hand_block(np.uint64(seed), np.int64(lo), n, rows, np.int64(elder), np.int64(turn_up),
               np.int64(trump), cfg_a, cfg_b, script, out_a, out_b)
    return tabulate(np.zeros(n, dtype=np.int8), out_a, out_b, 1)


def _check_hand(elder: int, turn_up: int | None, trump: int) -> None:
    # plain Python: a first answer (``advise``'s action) need not start numba's machinery
    if bin(int(elder)).count("1") != HAND_SIZE:
        raise ValueError("the elder's hand must have 5 cards")
    if turn_up is not None:
        if (int(elder) >> int(turn_up)) & 1:
            raise ValueError("the turn-up is in the elder's hand")
        if int(turn_up) >> 3 != int(trump):
            raise ValueError("the turn-up is not of the trump suit")
    elif (0xFF << (8 * int(trump))) & ~int(elder) == 0:
        raise ValueError("no card of the trump suit is left to turn up")


def exact_turn_ups(elder: int, turn_up: int | None, trump: int) -> np.ndarray:
    """The turn-ups an exact enumeration runs over: the given one, or every card of the
    trump suit not in the hand (each equally likely)."""
    _check_hand(elder, turn_up, trump)
    return np.array(turn_ups_of(elder, trump, turn_up), dtype=np.int64)


def exact_codes(elder: int, turn_up: int | None, trump: int, cfg: np.ndarray,
                start: int = 0, stop: int | None = None, chunk: int = DEFAULT_CHUNK,
                progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Counts of the 48 arm codes over the enumerated deals ``[start, stop)`` (all of them
    by default: ``len(turn_ups) * 65780``) of the fixed elder hand under ``cfg``."""
    check_cfgs(cfg)
    if cfg[C.ELDER_FIRST] != ElderFirst.PLAY:
        raise ValueError("the enumeration is for play without proposing (elder_first='play')")
    if PlayModel.PIMC in (cfg[C.ELDER_PLAY], cfg[C.DEALER_PLAY]):
        raise ValueError("exact enumeration needs a deterministic play model (dd or "
                         "heuristic): PIMC's sampled worlds make each deal random")
    turn_ups = exact_turn_ups(elder, turn_up, trump)
    total = len(turn_ups) * DEALER_HANDS
    stop = total if stop is None else int(stop)
    if not 0 <= int(start) <= stop <= total:
        raise ValueError(f"enumeration range must lie in [0, {total}]")
    if stop == start:
        return np.zeros(N_ARM, dtype=np.int64)
    return reduce_counts(partial(_exact_task, int(elder), turn_ups, cfg), int(start), stop,
                         N_ARM, chunk, DEFAULT_BLOCK, progress)


def _exact_task(elder, turn_ups, cfg, lo, n, rows):
    out = np.zeros(n, dtype=np.int8)
    exact_block(np.int64(lo), n, rows, np.int64(elder), turn_ups, cfg, empty_script(), out)
    return np.bincount(out.astype(np.int64), minlength=N_ARM).astype(np.int64)[None, :]


__all__ = ["paired_table", "paired_counts", "hand_table", "exact_codes", "exact_turn_ups", "arm_code",
           "deal_around", "uniform_below", "check_cfgs", "tabulate", "unrank_dealer", "N_ARM", "CLASSIFY_ALL", "CLASSIFY_REGLE",
           "CLASSIFY_DEALER", "N_CLASSES", "DEALER_HANDS"]
