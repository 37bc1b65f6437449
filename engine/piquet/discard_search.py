"""A Piquet discard chosen by search: candidate discards, each evaluated on sampled deals
consistent with what the player knows, the best mean margin kept (Laws 21-24, 32-34).

The heuristic player (:mod:`~ecarte_sim.engine.piquet.players`) discards the cards of
lowest *keep value*, a fixed per-card formula. This player instead evaluates discards:

Candidates (:func:`candidates`), for each number of cards ``e`` the player may take in:

* every ``e``-card subset of his ``e + WINDOW`` cards of lowest keep value (``WINDOW``
  = 3: 56 discards of five, 20 of three) — the keep value is trusted for his best
  ``12 - e - 3`` cards (aces, the long suit, sequence and quatorze material rank high in
  it), the search decides among the marginal cards, where a fixed formula errs: which of
  two short suits to clear, whether to break a tierce or unguard a king;
* for each suit, the ``e`` lowest cards outside it (the suit kept whole: the point and
  its sequences), and the suit thrown whole with the lowest others (a void, when it has
  at most ``e`` cards) — discards a per-card value cannot express, since a card's worth
  depends on what else is kept.

Duplicates are dropped; the largest ``e`` comes first and within it the heuristic's own
discard (the first subset of the window), so that exact ties keep the heuristic's choice
and the full take.

Worlds (:func:`search_world`): the 20 cards the player has not seen, in a uniformly
random order: the adversary's dealt hand (the first 12) and the stock (the next 8, top
first). For the younger this is what he knows too (his 12 cards and, by Law 32, how many
the elder took, which the evaluation uses as the elder's take); an elder's carte blanche
announced (Law 20) is not used. Sample ``s`` of deal ``index`` reads words
``WORDS_SEARCH + seat * WORDS_SEAT + SAMPLE_STRIDE * s ...`` of the deal's own sub-stream
(:mod:`ecarte_sim.engine.rng`), so the whole search is a function of (seed, deal index).

Evaluation (:func:`search_sums`): each candidate on every world (the same worlds for all
candidates: common random numbers), the deal played out by
:func:`~ecarte_sim.engine.piquet.whole.play_dealt` — the adversary discarding and both
playing as the heuristic (about 3 us a deal), declarations, pique and repique included —
and summed as the searcher's margin (his total minus the adversary's). The plain-Python
twin is :mod:`~ecarte_sim.engine.piquet.discard_search_reference`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.batch import row_range
from ecarte_sim.engine.cards import popcount32, suit_mask
from ecarte_sim.engine.layout import Layout
from ecarte_sim.engine.piquet.deal import (HAND_SIZE, STOCK_SIZE, THRESHOLDS, WORDS_WORLDS,
                                           deal_pack)
from ecarte_sim.engine.piquet.players import heuristic_discard, keep_values
from ecarte_sim.engine.piquet.records import N_SEATS, REC, SCORE, SCRATCH, STATE
from ecarte_sim.engine.piquet.settings import MAX_WORLDS, Seat
from ecarte_sim.engine.piquet.simulate import count_deal
from ecarte_sim.engine.piquet.whole import new_solver_scratch, play_dealt, uses_solver
from ecarte_sim.engine.rng import WORDS_PER_DEAL, draw_descending, swap_draws

R = REC.at
S = SCORE.at
# numba reads module-level ints, not a Layout's attributes.
_REC_SIZE, _SCRATCH_SIZE, _STATE_SIZE = REC.size, SCRATCH.size, STATE.size

#: Cards beyond the take among which every subset is a candidate.
WINDOW = 3
#: Most candidates of one search (sizes 1-7, windows and suit families, deduplicated).
MAX_CANDIDATES = 512
#: Cards a player has not seen before the exchange.
UNSEEN = 32 - HAND_SIZE
#: The first word of the search's worlds, each seat's share, the words per world: past
#: every word a PIMC player may read (``WORDS_WORLDS`` + its tries), inside the deal's own.
WORDS_SEARCH = 1 << 19
WORDS_SEAT = 1 << 18
SAMPLE_STRIDE = 8      # a world reads 2 words (more only on a rejection, p < 1e-5 a word)
MAX_SAMPLES = WORDS_SEAT // SAMPLE_STRIDE
assert WORDS_SEARCH + 2 * WORDS_SEAT <= WORDS_PER_DEAL
# A PIMC player's words (engine/piquet/whole.py: 16 tries of 4 words per world) end below.
assert WORDS_WORLDS + 4 * 16 * (2 * HAND_SIZE * MAX_WORLDS) <= WORDS_SEARCH
#: The two batches of a 20-card shuffle (12 and 7 draws, each fitting one 64-bit word).
_FIRST, _SECOND = 12, UNSEEN - 1 - 12


@njit(cache=True)
def order_by_keep(hand, values, order):
    """``order[0:n]``: the cards of ``hand`` by keep value, lowest first, ties the lower
    card first (the order the heuristic discards them in); returns ``n``."""
    keep_values(hand, values)
    h = np.uint32(hand)
    n = 0
    for c in range(32):
        if (h >> np.uint32(c)) & np.uint32(1):
            order[n] = c
            n += 1
    for i in range(1, n):
        c = order[i]
        v = values[c]
        j = i - 1
        while j >= 0 and values[order[j]] > v:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = c
    return n


@njit(cache=True, inline="always")
def _add(out, n, mask):
    for i in range(n):
        if out[i] == mask:
            return n
    out[n] = mask
    return n + 1


@njit(cache=True)
def _lowest_outside(order, n, avoid, e):
    """The ``e`` first cards of ``order`` not in ``avoid`` (0 if there are fewer)."""
    mask = np.uint32(0)
    got = 0
    for i in range(n):
        bit = np.uint32(1) << np.uint32(order[i])
        if not (np.uint32(avoid) & bit):
            mask |= bit
            got += 1
            if got == e:
                return mask
    return np.uint32(0)


@njit(cache=True)
def candidates(hand, low, high, values, order, out):
    """The candidate discards of ``hand`` of ``high`` down to ``low`` cards (module
    docstring) into ``out`` (int64 masks); returns how many. ``values``: int64 scratch of
    32, ``order``: int64 scratch of 32."""
    h = np.uint32(hand)
    m = order_by_keep(h, values, order)
    idx = np.empty(HAND_SIZE, dtype=np.int64)
    n = 0
    for e in range(high, low - 1, -1):
        w = min(m, e + WINDOW)
        for j in range(e):
            idx[j] = j
        while True:
            mask = np.uint32(0)
            for j in range(e):
                mask |= np.uint32(1) << np.uint32(order[idx[j]])
            n = _add(out, n, np.int64(mask))
            j = e - 1
            while j >= 0 and idx[j] == w - e + j:
                j -= 1
            if j < 0:
                break
            idx[j] += 1
            for q in range(j + 1, e):
                idx[q] = idx[q - 1] + 1
        for s in range(4):
            suit = h & suit_mask(s)
            if suit == np.uint32(0):
                continue
            keep = _lowest_outside(order, m, suit, e)
            if keep:
                n = _add(out, n, np.int64(keep))
            length = popcount32(suit)
            if length <= e:
                clear = suit | _lowest_outside(order, m, suit, e - length) if length < e \
                    else suit
                if popcount32(clear) == e:
                    n = _add(out, n, np.int64(clear))
    return n


@njit(cache=True)
def search_world(seed, index, seat, s, known, cards, draws):
    """World ``s`` of ``seat``'s search: ``cards[0:20]`` = the cards not in ``known`` in
    a uniformly random order (a forward Fisher-Yates of them in bit order, from words
    ``WORDS_SEARCH + seat * WORDS_SEAT + SAMPLE_STRIDE * s`` on)."""
    n = 0
    kn = np.uint32(known)
    for c in range(32):
        if not (kn >> np.uint32(c)) & np.uint32(1):
            cards[n] = c
            n += 1
    k = WORDS_SEARCH + seat * WORDS_SEAT + SAMPLE_STRIDE * s
    k = draw_descending(seed, index, k, UNSEEN, _FIRST, THRESHOLDS[UNSEEN, _FIRST], draws, 0)
    draw_descending(seed, index, k, UNSEEN - _FIRST, _SECOND,
                    THRESHOLDS[UNSEEN - _FIRST, _SECOND], draws, _FIRST)
    swap_draws(cards, draws, 0, UNSEEN - 1)


@njit(cache=True)
def search_sums(seed, index, seat, hand, cands, n_cands, samples, cfg, sums, cards, stock,
                script, rec, values, draws, totals, state, table, ws):
    """``sums[c]``: candidate ``cands[c]``'s summed margin for ``seat`` (his total minus
    the adversary's) over worlds ``0 .. samples - 1``, each played by
    :func:`~ecarte_sim.engine.piquet.whole.play_dealt` under ``cfg`` (heuristic players;
    the adversary's take from ``cfg``) with ``seat``'s discard fixed to the candidate."""
    for c in range(n_cands):
        sums[c] = 0
    h = np.uint32(hand)
    for s in range(samples):
        search_world(seed, index, seat, s, h, cards, draws)
        other = np.uint32(0)
        for i in range(HAND_SIZE):
            other |= np.uint32(1) << np.uint32(cards[i])
        for i in range(STOCK_SIZE):
            stock[i] = cards[HAND_SIZE + i]
        for c in range(n_cands):
            script[seat] = cands[c]
            script[1 - seat] = 0
            if seat == Seat.ELDER:
                play_dealt(seed, index, cfg, script, rec, h, other, stock, values, draws,
                           totals, state, table, ws)
                sums[c] += rec[R.ELDER + S.TOTAL] - rec[R.YOUNGER + S.TOTAL]
            else:
                play_dealt(seed, index, cfg, script, rec, other, h, stock, values, draws,
                           totals, state, table, ws)
                sums[c] += rec[R.YOUNGER + S.TOTAL] - rec[R.ELDER + S.TOTAL]


@njit(cache=True)
def best_by_size(cands, n_cands, sums, best):
    """``best[e]``: the candidate of ``e`` cards with the largest sum (the first among
    equals; 0 when there is none); returns the best overall (the first among equals)."""
    for e in range(best.shape[0]):
        best[e] = 0
    best_sum = np.zeros(best.shape[0], dtype=np.int64)
    top = -1
    for c in range(n_cands):
        e = popcount32(np.uint32(cands[c]))
        if best[e] == 0 or sums[c] > best_sum[e]:
            best[e] = cands[c]
            best_sum[e] = sums[c]
        if top < 0 or sums[c] > sums[top]:
            top = c
    return cands[top]


# ---------------------------------------------------------------------------
# The paired experiment: the same deals under the heuristic's and the search's discards.
# ---------------------------------------------------------------------------

#: The arms of :func:`search_row`, each a way the two discards are chosen on the same deal
#: (everything else the players' of ``play_cfg``): both the player's own (the heuristic's
#: keep value, for every player of this project); the elder's best search discard of
#: exactly k cards (the younger his own, taking all he can); the elder's best of any size;
#: the younger's best of exactly k (the elder his own, taking five); the younger's best
#: of any size; both searching (five and three).
ARMS = ("heuristic", *(f"elder_search_{k}" for k in range(1, 6)), "elder_search_free",
        *(f"younger_search_{k}" for k in range(1, 4)), "younger_search_free", "both_search")
A = {name: i for i, name in enumerate(ARMS)}
N_ARMS = len(ARMS)
#: The paired comparisons (arm a, arm b) of the elder's margin.
COMPARISONS = (("elder_search_5", "heuristic"), ("younger_search_3", "heuristic"),
               ("both_search", "heuristic"),
               *(("elder_search_5", f"elder_search_{k}") for k in (4, 3, 2, 1)),
               ("elder_search_free", "elder_search_5"),
               *(("younger_search_3", f"younger_search_{k}") for k in (2, 1)),
               ("younger_search_free", "younger_search_3"))
N_COMPARISONS = len(COMPARISONS)
_CMP = np.array([[A[a], A[b]] for a, b in COMPARISONS], dtype=np.int64)
_E = np.array([A[f"elder_search_{k}"] for k in range(1, 6)], dtype=np.int64)
_Y = np.array([A[f"younger_search_{k}"] for k in range(1, 4)], dtype=np.int64)
_H, _EF, _YF, _B = A["heuristic"], A["elder_search_free"], A["younger_search_free"], \
    A["both_search"]

#: A row of the experiment's counts.
SEARCH_COUNTS = Layout("SearchCounts", [
    ("deals", 1), ("margin", N_ARMS), ("margin_sq", N_ARMS), ("elder_wins", N_ARMS),
    ("diff", N_COMPARISONS), ("diff_sq", N_COMPARISONS), ("only_a", N_COMPARISONS),
    ("only_b", N_COMPARISONS), ("elder_free_take", 6), ("younger_free_take", 4),
    ("elder_as_heuristic", 1), ("younger_as_heuristic", 1)])
_W = SEARCH_COUNTS.size
Q = SEARCH_COUNTS.at


@njit(cache=True)
def _row_scratch(play_cfg):
    """A row's scratch: perm, draws, values, order, cards, stock, the worlds' stock, rec,
    totals, state, the solver's table and workspace (for ``play_cfg``'s players), script,
    candidates and their sums."""
    table, ws = new_solver_scratch(uses_solver(play_cfg))
    return (np.empty(32, dtype=np.int64), np.empty(32, dtype=np.int64),
            np.empty(32, dtype=np.int64), np.empty(32, dtype=np.int64),
            np.empty(32, dtype=np.int64), np.empty(STOCK_SIZE, dtype=np.int64),
            np.empty(STOCK_SIZE, dtype=np.int64), np.zeros(_REC_SIZE, dtype=np.int64),
            np.zeros(_SCRATCH_SIZE, dtype=np.int64),
            np.zeros((_STATE_SIZE, N_SEATS), dtype=np.uint32), table, ws,
            np.zeros(N_SEATS, dtype=np.int64), np.zeros(MAX_CANDIDATES, dtype=np.int64),
            np.zeros(MAX_CANDIDATES, dtype=np.int64))


@njit(cache=True, nogil=True)
def search_row(r, seed, start, count, rows, cfg, play_cfg, samples, counts):
    """Row ``r`` of deals ``[start, start + count)`` into ``counts[r]`` (``SEARCH_COUNTS``):
    each deal's two searches (the elder's over 1-5 cards, the younger's over 1-3 with the
    elder taking five), evaluated under ``cfg`` (heuristic v heuristic, the elder taking
    five, the younger all he can), then every arm of ``ARMS`` played out under ``play_cfg``
    (the same takes; its players play the cards and make the discards an arm leaves them:
    ``cfg`` itself, or dd or pimc players)."""
    lo, hi = row_range(start, count, rows, r)
    out = counts[r]
    (perm, draws, values, order, cards, stock, wstock, rec, totals, state, table, ws, script,
     cands, sums) = _row_scratch(play_cfg)
    e_best = np.zeros(6, dtype=np.int64)
    y_best = np.zeros(4, dtype=np.int64)
    margin = np.zeros(N_ARMS, dtype=np.int64)
    wins = np.zeros(N_ARMS, dtype=np.int64)
    for i in range(lo, hi):
        idx = np.uint64(i)
        elder0, younger0 = deal_pack(seed, idx, perm, draws)
        for j in range(STOCK_SIZE):
            stock[j] = perm[2 * HAND_SIZE + j]
        n = candidates(elder0, 1, 5, values, order, cands)
        search_sums(seed, idx, Seat.ELDER, elder0, cands, n, samples, cfg, sums, cards, wstock,
                    script, rec, values, draws, totals, state, table, ws)
        e_free = best_by_size(cands, n, sums, e_best)
        if e_best[5] == heuristic_discard(elder0, 5, values):
            out[Q.ELDER_AS_HEURISTIC] += 1
        out[Q.ELDER_FREE_TAKE + popcount32(np.uint32(e_free))] += 1
        n = candidates(younger0, 1, 3, values, order, cands)
        search_sums(seed, idx, Seat.YOUNGER, younger0, cands, n, samples, cfg, sums, cards,
                    wstock, script, rec, values, draws, totals, state, table, ws)
        y_free = best_by_size(cands, n, sums, y_best)
        if y_best[3] == heuristic_discard(younger0, 3, values):
            out[Q.YOUNGER_AS_HEURISTIC] += 1
        out[Q.YOUNGER_FREE_TAKE + popcount32(np.uint32(y_free))] += 1
        for a in range(N_ARMS):
            script[Seat.ELDER] = 0
            script[Seat.YOUNGER] = 0
            if a == _EF:
                script[Seat.ELDER] = e_free
            elif a == _YF:
                script[Seat.YOUNGER] = y_free
            elif a == _B:
                script[Seat.ELDER] = e_best[5]
                script[Seat.YOUNGER] = y_best[3]
            else:
                for k in range(5):
                    if a == _E[k]:
                        script[Seat.ELDER] = e_best[k + 1]
                for k in range(3):
                    if a == _Y[k]:
                        script[Seat.YOUNGER] = y_best[k + 1]
            play_dealt(seed, idx, play_cfg, script, rec, elder0, younger0, stock, values, draws,
                       totals, state, table, ws)
            e = rec[R.ELDER + S.TOTAL]
            y = rec[R.YOUNGER + S.TOTAL]
            margin[a] = e - y
            wins[a] = 1 if e > y else 0
            out[Q.MARGIN + a] += e - y
            out[Q.MARGIN_SQ + a] += (e - y) * (e - y)
            out[Q.ELDER_WINS + a] += wins[a]
        out[Q.DEALS] += 1
        for c in range(N_COMPARISONS):
            a = _CMP[c, 0]
            b = _CMP[c, 1]
            d = margin[a] - margin[b]
            out[Q.DIFF + c] += d
            out[Q.DIFF_SQ + c] += d * d
            if wins[a] and not wins[b]:
                out[Q.ONLY_A + c] += 1
            if wins[b] and not wins[a]:
                out[Q.ONLY_B + c] += 1


# ---------------------------------------------------------------------------
# Whole deals with searched discards (``piquet simulate --discard search``).
# ---------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def searched_deal_row(r, seed, start, count, rows, cfg, play_cfg, samples, search_elder,
                      search_younger, counts):
    """Row ``r`` of deals ``[start, start + count)`` into ``counts[r]`` (a ``DEAL_COUNTS``
    row, as :func:`~ecarte_sim.engine.piquet.simulate.deal_counts`): each deal played under
    ``play_cfg``, the discard of each seat flagged (``search_elder``, ``search_younger``)
    chosen by search, the full take (the elder's best of five, the younger's best of
    three: the experiment's arms ``elder_search_5`` and ``younger_search_3``), evaluated
    under ``cfg`` on ``samples`` worlds; the other seat discards as its player does."""
    lo, hi = row_range(start, count, rows, r)
    out = counts[r]
    (perm, draws, values, order, cards, stock, wstock, rec, totals, state, table, ws, script,
     cands, sums) = _row_scratch(play_cfg)
    wscript = np.zeros(N_SEATS, dtype=np.int64)
    best = np.zeros(6, dtype=np.int64)
    for i in range(lo, hi):
        idx = np.uint64(i)
        elder0, younger0 = deal_pack(seed, idx, perm, draws)
        for j in range(STOCK_SIZE):
            stock[j] = perm[2 * HAND_SIZE + j]
        script[Seat.ELDER] = 0
        script[Seat.YOUNGER] = 0
        if search_elder:
            n = candidates(elder0, 5, 5, values, order, cands)
            search_sums(seed, idx, Seat.ELDER, elder0, cands, n, samples, cfg, sums, cards,
                        wstock, wscript, rec, values, draws, totals, state, table, ws)
            best_by_size(cands, n, sums, best)
            script[Seat.ELDER] = best[5]
        if search_younger:
            n = candidates(younger0, 3, 3, values, order, cands)
            search_sums(seed, idx, Seat.YOUNGER, younger0, cands, n, samples, cfg, sums,
                        cards, wstock, wscript, rec, values, draws, totals, state, table, ws)
            best_by_size(cands, n, sums, best)
            script[Seat.YOUNGER] = best[3]
        play_dealt(seed, idx, play_cfg, script, rec, elder0, younger0, stock, values, draws,
                   totals, state, table, ws)
        count_deal(rec, out)
