"""Carte blanche and the declarations, as kernels over ``uint32`` hands (Laws 18, 61–64).

Every figure comes from 256-entry tables indexed by one suit's byte (bit r =
rank r, 7 8 9 10 J Q K A), built once at import from the plain definitions
below and frozen into the kernels as constants:

* ``POINT_KEY[b]`` = ``length * 128 + pip sum`` (ace 11, K Q J 10 ten, others at
  face): a larger key is a better point (Law 62);
* ``SEQ_KEY[b]`` = ``8 * length + top rank`` of the suit's best run of three
  or more (0 if none): a larger key is a better sequence (Law 63);
* ``SEQ_SCORE[b]`` = the sum of the scores of all the suit's runs
  (tierce 3, quart 4, quint 15, sixième 16, septième 17, huitième 18).

The best point's suit is found once, by :func:`point_suit` (sinking guards it, showing
shows it: :func:`sink_masks`, ``whole.shown_calls``).

Quatorzes and trios (Law 64) are counted rank by rank with ``RANK_MASK``; a
set's key is ``8 * (count - 2) + rank``, so any quatorze beats any trio.

Sinking (Law 47, ``rules.md``): each player calls each category from his *called
hand* for it, his hand less the cards he sinks there (:func:`sink_masks` gives a
:class:`~ecarte_sim.engine.piquet.settings.SinkPolicy`'s masks); :func:`declare_called`
compares the calls, :func:`declare` the whole hands (nothing sunk).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import popcount32
from ecarte_sim.engine.piquet.records import DECLARATIONS, N_CATEGORIES, N_SEATS, SCORE
from ecarte_sim.engine.piquet.settings import Rank, Seat, SinkPolicy

PIP = (7, 8, 9, 10, 10, 10, 10, 11)
RUN_SCORE = (0, 0, 0, 3, 4, 15, 16, 17, 18)
#: Knaves, queens and kings of every suit (ranks 4, 5, 6): carte blanche has none (Law 18).
COURTS = np.uint32(0x70707070)
#: ``RANK_MASK[r]``: the four cards of rank ``r``.
RANK_MASK = np.array([np.uint32(0x01010101) << np.uint32(r) for r in range(8)], dtype=np.uint32)


def _runs(byte: int) -> list[tuple[int, int]]:
    """Maximal runs of adjacent ranks in one suit: (length, top rank)."""
    runs, r = [], 0
    while r < 8:
        if byte >> r & 1:
            start = r
            while r < 8 and byte >> r & 1:
                r += 1
            runs.append((r - start, r - 1))
        else:
            r += 1
    return runs


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    point = np.zeros(256, dtype=np.int64)
    seq_key = np.zeros(256, dtype=np.int64)
    seq_score = np.zeros(256, dtype=np.int64)
    for b in range(256):
        ranks = [r for r in range(8) if b >> r & 1]
        point[b] = len(ranks) * 128 + sum(PIP[r] for r in ranks)
        runs = [(n, top) for n, top in _runs(b) if n >= 3]
        seq_key[b] = max((8 * n + top for n, top in runs), default=0)
        seq_score[b] = sum(RUN_SCORE[n] for n, _ in runs)
    return point, seq_key, seq_score


POINT_KEY, SEQ_KEY, SEQ_SCORE = _tables()

D = DECLARATIONS.at
S = SCORE.at            # a seat's block of DECLARATIONS is the first fields of SCORE


@njit(cache=True, inline="always")
def is_blanche(hand):
    """Carte blanche: no king, queen or knave (Law 18)."""
    return (np.uint32(hand) & COURTS) == np.uint32(0)


@njit(cache=True)
def hand_keys(hand):
    """(point key, sequence key, sequence score, set key, set score) of a 12-card hand."""
    h = np.uint32(hand)
    point = 0
    seq = 0
    seq_score = 0
    for s in range(4):
        b = (h >> np.uint32(8 * s)) & np.uint32(0xFF)
        if POINT_KEY[b] > point:
            point = POINT_KEY[b]
        if SEQ_KEY[b] > seq:
            seq = SEQ_KEY[b]
        seq_score += SEQ_SCORE[b]
    sets = 0
    set_score = 0
    for r in range(Rank.TEN, Rank.ACE + 1):
        n = popcount32(h & RANK_MASK[r])
        if n >= 3:
            key = 8 * (n - 2) + r
            if key > sets:
                sets = key
            set_score += 14 if n == 4 else 3
    return point, seq, seq_score, sets, set_score


@njit(cache=True)
def point_suit(hand):
    """(point key, suit) of the best point of ``hand`` (Law 62: the most cards, then the
    most pips; the first suit of the best on a tie), the one place it is found."""
    h = np.uint32(hand)
    best = -1
    best_suit = 0
    for s in range(4):
        k = POINT_KEY[(h >> np.uint32(8 * s)) & np.uint32(0xFF)]
        if k > best:
            best = k
            best_suit = s
    return best, best_suit


@njit(cache=True)
def called_keys(point_hand, seq_hand, sets_hand):
    """(point key, sequence key, sequence score, set key, set score) of what a player
    calls: his point from ``point_hand``, his sequences from ``seq_hand``, his
    quatorzes and trios from ``sets_hand`` (each his hand less what he sinks there)."""
    p = hand_keys(point_hand)[0]
    q = hand_keys(seq_hand)
    t = hand_keys(sets_hand)
    return p, q[1], q[2], t[3], t[4]


@njit(cache=True, inline="always")
def _guarded_king_suit(h, s):
    """Does suit ``s`` of ``h`` hold the king without the ace (a king that must be guarded)?"""
    king = (h >> np.uint32(8 * s + Rank.KING)) & np.uint32(1)
    ace = (h >> np.uint32(8 * s + Rank.ACE)) & np.uint32(1)
    return king == np.uint32(1) and ace == np.uint32(0)


@njit(cache=True)
def sink_masks(policy, hand):
    """(point, sequences, sets) masks of the cards a ``policy`` player sinks from
    ``hand`` (:class:`SinkPolicy`, ``rules.md`` "Sinking"); a whole category is sunk by
    masking the whole hand. ``GUARD``: the point when it has four cards or fewer and its
    suit holds the king without the ace; the sequences when they are one tierce or one
    quart (4 points or fewer) in such a suit; never the quatorzes and trios."""
    h = np.uint32(hand)
    zero = np.uint32(0)
    if policy != SinkPolicy.GUARD:
        return zero, zero, zero
    point_mask = zero
    best, best_suit = point_suit(h)
    if (best >> 7) <= 4 and _guarded_king_suit(h, best_suit):
        point_mask = h
    seq_mask = zero
    total = 0
    run_suit = -1
    for s in range(4):
        score = SEQ_SCORE[(h >> np.uint32(8 * s)) & np.uint32(0xFF)]
        if score > 0:
            total += score
            run_suit = s
    if 0 < total <= 4 and _guarded_king_suit(h, run_suit):
        seq_mask = h
    return point_mask, seq_mask, zero


@njit(cache=True)
def declare(elder_dealt, younger_dealt, elder, younger, out):
    """Scores of categories I–IV (Law 67) after comparison (Laws 61–64) into ``out``, a
    ``DECLARATIONS`` record. Carte blanche (Law 18) is judged on the dealt hands, the
    rest on the hands held after the exchange (everything called)."""
    declare_called(elder_dealt, younger_dealt, elder, elder, elder, younger, younger, younger,
                   out)


@njit(cache=True)
def declare_called(elder_dealt, younger_dealt, elder_point, elder_seq, elder_sets,
                   younger_point, younger_seq, younger_sets, out):
    """:func:`declare` on what each player calls: his point, sequences and sets from
    his called hand for each (his hand less what he sinks there, Law 47). A sunk
    holding scores nothing and concedes its category to the other's lesser call."""
    out[:] = 0
    if is_blanche(elder_dealt):
        out[D.ELDER + S.CARTE_BLANCHE] = 10
    if is_blanche(younger_dealt):
        out[D.YOUNGER + S.CARTE_BLANCHE] = 10
    pe, qe, qe_score, se, se_score = called_keys(elder_point, elder_seq, elder_sets)
    py, qy, qy_score, sy, sy_score = called_keys(younger_point, younger_seq, younger_sets)
    if pe > py:
        out[D.ELDER + S.POINT] = pe >> 7
    elif py > pe:
        out[D.YOUNGER + S.POINT] = py >> 7
    if qe > qy:
        out[D.ELDER + S.SEQUENCES] = qe_score
    elif qy > qe:
        out[D.YOUNGER + S.SEQUENCES] = qy_score
    if se > sy:
        out[D.ELDER + S.SETS] = se_score
    elif sy > se:
        out[D.YOUNGER + S.SETS] = sy_score


@njit(cache=True)
def repiques(decl):
    """(elder repique, younger repique) from a :func:`declare` record (Law 68):
    the running total over categories I–IV reaches 30 with the adversary
    having scored in no earlier category."""
    e = False
    y = False
    for seat in range(N_SEATS):
        mine = D.ELDER if seat == Seat.ELDER else D.YOUNGER
        theirs = D.YOUNGER if seat == Seat.ELDER else D.ELDER
        total = 0
        blocked = False
        for c in range(N_CATEGORIES):
            if decl[theirs + c] > 0:
                blocked = True
            total += decl[mine + c]
            if total >= 30:
                if not blocked:
                    if seat == Seat.ELDER:
                        e = True
                    else:
                        y = True
                break
    return e, y
