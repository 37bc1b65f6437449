"""Decisions at any point before the play: deals drawn from what the deciding player knows.

The first decisions of a deal are valued on deals around one hand
(:mod:`.action_values`). After an exchange a player knows more than his five cards: his
dealt hand, what he threw and drew at each exchange, the turn-up, what was said, and how
many cards his adversary took each time (Law 27: "the dealer, if required, must inform
his adversary how many cards he has taken"; the dealer sees the elder draw). This module
values any decision of that phase — the elder's propose or play at round ``r``, the
dealer's accept or refuse, either player's discard at exchange ``r`` — on deals drawn
from that knowledge.

A *history* (the ``HISTORY`` layout, one int64 row) is what the decider knows:

``role``     ELDER (0) or DEALER (1): who decides.
``kind``     ``DECIDE`` (propose/play, accept/refuse) or ``DISCARD``.
``round``    ``r``: the decision's round; ``r`` exchanges were made before it.
``turn_up``  the turn-up card (Law 10).
``hand0``    the decider's dealt hand (a mask).
``thrown``   his discards of exchanges ``0 .. r-1`` (masks).
``drawn``    the cards he drew in them (masks, top of the stock first, Laws 29-34).
``took``     the adversary's counts in exchanges ``0 .. r-1``, and for the dealer's
             discard at ``r`` the elder's count at ``r`` (he saw the elder draw).

What was said follows: in every round before ``r`` the elder proposed and the dealer
accepted; at round ``r`` the elder proposed when the dealer answers or anyone discards.

Worlds from the posterior (:func:`draw_world`). Given what the decider saw, the pack's
order is uniform over the orders that put his cards where he saw them: the adversary's
dealt hand is a uniform five of the cards he never saw, and the adversary's draws are
uniform among the rest, in order. The adversary decides by his policy (``cfg``/``script``:
the strategy's tables, or the treatise). So a world is drawn by sequential rejection: his
dealt hand, then his decision and his discard count round by round (Laws 25-27, 38) on
his hand then, his draws from the cards left; a world whose replay departs from the
history is thrown away and another drawn. Every world kept is a draw from the exact
posterior given the history and the policy (the argument of
:mod:`~ecarte_sim.engine.ecarte.play.inferred_worlds`); the stock's other places are filled
uniformly. A history the policy makes impossible finds no world within
``MAX_ATTEMPTS``: the deal is counted as missed, never filled in silence.

Both arms on each world (:func:`marks_block`): the decider's history is forced on the
deal (his decisions and exact discards, :class:`~ecarte_sim.engine.ecarte.settings.Forced`),
the adversary's replays by his policy (it made the world), and the two arms differ only
in the decision at round ``r``; everything after is the policies'. The pair of marks
codes of each world (:func:`~.action_values.marks_code`) is counted, as for the first
decisions: the value of each arm at any score follows from ``V``.

Decision points of played deals (:func:`decision_points`): the histories of every later
decision of a deal, for sampling the decisions a strategy meets (on-policy).

Deal indices: ``LATER_DEALS_START + (id << 16) + k`` for world ``k`` of history ``id``
(``id < 2^23``): the class sampler's unused tag 0 (``[2^43, 2^43 + 2^39)``), disjoint
from every other range. A solve reads ``k < SOLVE_WORLDS``; advice and audits read
``k >= CHECK_WORLDS_START``, so a check never replays a world that chose a table. A
world's random words: the stream keyed by word ``HISTORY_WORD`` of its index (after every
word the play's PIMC worlds and particles use), so the play keys its own words as usual.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.batch import each_row, row_range
from ecarte_sim.engine.cards import N_CARDS, bit_index, lowest_bit, popcount32
from ecarte_sim.engine.ecarte.deals.action_values import N_MARKS, marks_code
from ecarte_sim.engine.ecarte.deals.whole import deal_scratch, inference_scratch, play_dealt
from ecarte_sim.engine.ecarte.decisions.policies import (dealer_accepts, elder_proposes,
                                                         rule_discard, score_slot,
                                                         thrown_cards, weakest)
from ecarte_sim.engine.ecarte.decisions.states import state_index
from ecarte_sim.engine.ecarte.laws.deal import HAND_SIZE, TURN_UP_POSITION, deal_full
from ecarte_sim.engine.ecarte.laws.tricks import ELDER
from ecarte_sim.engine.ecarte.play.inferred_worlds import PARTICLE_BASE
from ecarte_sim.engine.ecarte.records import MAX_EXCHANGES, REC, ProposalsEnd
from ecarte_sim.engine.ecarte.settings import CFG
from ecarte_sim.engine.layout import Layout
from ecarte_sim.engine.rng import draw_descending_lazy, stream_word, swap_draws

C = CFG.at
R = REC.at
DEALER = 1 - ELDER
DECIDE, DISCARD = 0, 1

#: One history: what the decider knows (module docstring).
HISTORY = Layout("History", [
    ("role", 1), ("kind", 1), ("round", 1), ("turn_up", 1), ("hand0", 1),
    ("thrown", MAX_EXCHANGES), ("drawn", MAX_EXCHANGES), ("took", MAX_EXCHANGES + 1),
])
H = HISTORY.at
HISTORY_SIZE = HISTORY.size

#: Stock cards after the deal (Law 10).
STOCK = N_CARDS - TURN_UP_POSITION - 1
LATER_DEALS_START = 1 << 43
ID_BITS, WORLD_BITS = 23, 16
MAX_HISTORIES = 1 << ID_BITS
MAX_WORLDS_PER_HISTORY = 1 << WORLD_BITS
#: Worlds a solve may read (``k`` below), and the first of the checks'.
SOLVE_WORLDS = MAX_WORLDS_PER_HISTORY // 2
CHECK_WORLDS_START = SOLVE_WORLDS
CHECK_WORLDS = MAX_WORLDS_PER_HISTORY - CHECK_WORLDS_START
assert LATER_DEALS_START + (1 << (ID_BITS + WORLD_BITS)) <= (1 << 43) + (1 << 39)
#: The word of a world's index that keys its stream (after the inferring player's keys).
HISTORY_WORD = PARTICLE_BASE + 2
#: Histories a world may try before it is counted as missed.
MAX_ATTEMPTS = 1 << 16


@njit(cache=True)
def world_index(history_id, k):
    """The deal index of world ``k`` of history ``history_id`` (module docstring)."""
    return np.uint64(LATER_DEALS_START + (np.int64(history_id) << WORLD_BITS) + k)


@njit(cache=True, _nrt=False)
def _shuffle_steps(pool, at, m, n, key, k, draws):
    """Forward Fisher-Yates steps over ``pool[at:at + m]`` putting ``n`` uniform cards of
    it, in a uniform order, at ``pool[at:at + n]``; five draws a word from word ``k`` of
    the stream keyed by ``key``. Returns the next word."""
    done = 0
    while done < n:
        step = min(5, n - done)
        k = draw_descending_lazy(key, 0, k, m - done, step, draws, at + done)
        swap_draws(pool, draws, at + done, step)
        done += step
    return k


@njit(cache=True, _nrt=False)
def _mask(pool, lo, hi):
    out = np.uint32(0)
    for i in range(lo, hi):
        out |= np.uint32(1) << np.uint32(pool[i])
    return out


@njit(cache=True, _nrt=False)
def _adversary_says(cfg, script, adversary, hand, trump, rnd, turn_up, slot):
    """His policy's decision at round ``rnd``: the elder proposes, the dealer accepts."""
    if adversary == ELDER:
        return elder_proposes(cfg[C.ELDER_POLICY], cfg[C.THRESHOLD], hand, trump, rnd,
                              script, turn_up, slot)
    return dealer_accepts(cfg[C.DEALER_POLICY], hand, trump, rnd, script, turn_up, slot)


@njit(cache=True, _nrt=False)
def _attempt(hist, cfg, script, key, k, pool, n_pool, slots, draws):
    """One history drawn and replayed (module docstring). ``pool[:n_pool]`` are the cards
    the decider never saw; on success ``pool[:5]`` is the adversary's dealt hand and
    ``slots[p]`` the stock card at place ``p`` for every place the replay filled (the
    decider's draws and the adversary's), -1 for the places left. Returns (kept, next
    word)."""
    role = hist[H.ROLE]
    adversary = 1 - role
    rnd_end = hist[H.ROUND]
    kind = hist[H.KIND]
    turn_up = hist[H.TURN_UP]
    trump = turn_up >> 3
    slot = score_slot(cfg[C.ELDER_SCORE], cfg[C.DEALER_SCORE])
    for p in range(STOCK):
        slots[p] = -1
    k = _shuffle_steps(pool, 0, n_pool, HAND_SIZE, key, k, draws)
    hand = np.uint64(_mask(pool, 0, HAND_SIZE))
    nxt = HAND_SIZE
    p = 0
    for rnd in range(rnd_end + 1):
        # the adversary's decision at this round, where the history holds one
        if adversary == ELDER:
            if not _adversary_says(cfg, script, adversary, hand, trump, rnd, turn_up, slot):
                return False, k
        elif rnd < rnd_end or kind == DISCARD:
            if not _adversary_says(cfg, script, adversary, hand, trump, rnd, turn_up, slot):
                return False, k
        if rnd == rnd_end and not (kind == DISCARD and role == DEALER):
            break
        # exchange rnd: the elder discards and draws first, then the dealer (Laws 27-38)
        for who in range(2):
            left = STOCK - p
            if who == role:
                if rnd == rnd_end:
                    break       # the dealer's own discard at r is the decision
                drawn = np.uint32(hist[H.DRAWN + rnd])
                while drawn:
                    low = lowest_bit(drawn)
                    slots[p] = bit_index(low)
                    p += 1
                    drawn ^= low
            else:
                out = thrown_cards(cfg, script, adversary, hand, trump, rnd, left, turn_up,
                                   slot)
                n = popcount32(out)
                if n != hist[H.TOOK + rnd]:
                    return False, k
                if n > 0:
                    k = _shuffle_steps(pool, nxt, n_pool - nxt, n, key, k, draws)
                    hand = (hand ^ np.uint64(out)) | np.uint64(_mask(pool, nxt, nxt + n))
                    for j in range(n):
                        slots[p + j] = pool[nxt + j]
                    nxt += n
                    p += n
    # the stock's places not yet filled: the rest of the cards never seen, uniformly
    rest = n_pool - nxt
    k = _shuffle_steps(pool, nxt, rest, rest, key, k, draws)
    j = nxt
    for q in range(STOCK):
        if slots[q] < 0:
            slots[q] = pool[j]
            j += 1
    return True, k


@njit(cache=True, _nrt=False)
def draw_world(seed, index, hist, cfg, script, perm, pool, slots, draws):
    """World ``index`` of history ``hist``: the pack's order in ``perm`` (positions of
    :mod:`~ecarte_sim.engine.ecarte.laws.deal`) drawn from the posterior (module
    docstring), the adversary deciding by the policies of ``cfg``/``script``. Returns
    (elder's dealt hand, dealer's dealt hand, attempts made; 0 hands when every attempt
    of ``MAX_ATTEMPTS`` departed from the history). ``pool``, ``slots`` and ``draws`` are
    int64 scratch of 32."""
    role = hist[H.ROLE]
    turn_up = hist[H.TURN_UP]
    hand0 = np.uint32(hist[H.HAND0])
    seen = hand0 | (np.uint32(1) << np.uint32(turn_up))
    for r in range(hist[H.ROUND]):
        seen |= np.uint32(hist[H.DRAWN + r])
    n_pool = 0
    for c in range(N_CARDS):
        if not (seen >> np.uint32(c)) & np.uint32(1):
            pool[n_pool] = c
            n_pool += 1
    key = stream_word(seed, index, HISTORY_WORD)
    k = np.int64(0)
    for attempt in range(MAX_ATTEMPTS):
        kept, k = _attempt(hist, cfg, script, key, k, pool, n_pool, slots, draws)
        if kept:
            other = _mask(pool, 0, HAND_SIZE)
            own_at = 0 if role == ELDER else HAND_SIZE
            other_at = HAND_SIZE - own_at
            i = 0
            for c in range(N_CARDS):
                if (hand0 >> np.uint32(c)) & np.uint32(1):
                    perm[own_at + i] = c
                    i += 1
            for j in range(HAND_SIZE):
                perm[other_at + j] = pool[j]
            perm[TURN_UP_POSITION] = turn_up
            for q in range(STOCK):
                perm[TURN_UP_POSITION + 1 + q] = slots[q]
            if role == ELDER:
                return hand0, other, attempt + 1
            return other, hand0, attempt + 1
    return np.uint32(0), np.uint32(0), MAX_ATTEMPTS


@njit(cache=True, nogil=True)
def marks_row(j, seed, histories, ids, k_lo, k_hi, cfg_a, cfg_b, script, out, attempts,
              missed, infer):
    """Row ``j`` of :func:`marks_block`: history ``histories[j]``, its worlds
    ``k_lo[j] <= k < k_hi[j]`` (indices of history id ``ids[j]``), both arms each
    (``cfg_a[j]``, ``cfg_b[j]``: the decider's forced history and the arm)."""
    perm, draws, pool, payoff, rec = deal_scratch()
    cards = np.empty(N_CARDS, dtype=np.int64)
    slots = np.empty(N_CARDS, dtype=np.int64)
    hist = histories[j]
    turn_up = hist[H.TURN_UP]
    for k in range(k_lo[j], k_hi[j]):
        index = world_index(ids[j], k)
        elder, dealer, tries = draw_world(seed, index, hist, cfg_a[j], script, perm, cards,
                                          slots, draws)
        attempts[j] += tries
        if elder == 0:
            missed[j] += 1
            continue
        play_dealt(seed, index, cfg_a[j], script, rec, perm, draws, pool, payoff, elder,
                   dealer, turn_up, infer)
        code_a = marks_code(rec)
        play_dealt(seed, index, cfg_b[j], script, rec, perm, draws, pool, payoff, elder,
                   dealer, turn_up, infer)
        out[j, N_MARKS * code_a + marks_code(rec)] += 1


def marks_block(seed, histories, ids, k_lo, k_hi, cfg_a, cfg_b, script, out, attempts,
                missed):
    """For row ``j`` (history ``histories[j]``, id ``ids[j]``), worlds
    ``k_lo[j] <= k < k_hi[j]`` drawn from its posterior and played under ``cfg_a[j]`` and
    ``cfg_b[j]`` (rows of ``cfg`` arrays): adds 1 to ``out[j, 16 * code_a + code_b]`` per
    world, the attempts to ``attempts[j]`` and the worlds not found to ``missed[j]``."""
    each_row(marks_row, histories.shape[0], seed, histories, ids, k_lo, k_hi, cfg_a, cfg_b,
             script, out, attempts, missed, inference_scratch(*cfg_a, *cfg_b))


@njit(cache=True)
def decision_points(rec, out, at, first_round):
    """The histories of the decisions made in the deal recorded in ``rec`` from round
    ``first_round`` on, written as rows of ``out`` from row ``at`` (the caller leaves
    room: at most ``4 * (exchanges + 1)`` rows). Each row is a ``HISTORY`` whose last two
    columns beyond the layout say what the decider did (column ``HISTORY_SIZE``: 1 if he
    proposed or accepted; for a discard, the cards thrown). Decisions the laws force (no
    stock left: the elder must play) are not written. Returns the next free row."""
    exchanges = rec[R.EXCHANGES]
    how = rec[R.HOW_ENDED]
    turn_up = rec[R.TURN_UP]
    if how < 0:
        return at
    used = 0
    for rnd in range(exchanges + 1):
        if rnd < first_round:
            if rnd < exchanges:
                base = R.EXCHANGE_CARDS + 4 * rnd
                used += popcount32(np.uint32(rec[base + 1])) + popcount32(np.uint32(rec[base + 3]))
            continue
        elder_decided = rnd < exchanges or how == ProposalsEnd.ELDER_PLAYED \
            or how == ProposalsEnd.DEALER_REFUSED
        dealer_decided = rnd < exchanges or how == ProposalsEnd.DEALER_REFUSED
        for role in range(2):
            decided = elder_decided if role == ELDER else dealer_decided
            if decided:
                _history(rec, out[at], role, DECIDE, rnd, turn_up)
                out[at, HISTORY_SIZE] = 1 if (rnd < exchanges or (
                    role == ELDER and how == ProposalsEnd.DEALER_REFUSED)) else 0
                at += 1
        if rnd < exchanges:
            base = R.EXCHANGE_CARDS + 4 * rnd
            elder_drew = popcount32(np.uint32(rec[base + 1]))
            for role in range(2):
                if role == DEALER and used + elder_drew >= STOCK:
                    continue        # no card left for him to take (Law 38)
                _history(rec, out[at], role, DISCARD, rnd, turn_up)
                out[at, HISTORY_SIZE] = rec[base + 2 * role]
                at += 1
            used += elder_drew + popcount32(np.uint32(rec[base + 3]))
    return at


@njit(cache=True)
def _history(rec, row, role, kind, rnd, turn_up):
    """``row``: the history of ``role``'s decision ``kind`` at round ``rnd`` of ``rec``."""
    row[:] = 0
    row[H.ROLE] = role
    row[H.KIND] = kind
    row[H.ROUND] = rnd
    row[H.TURN_UP] = turn_up
    row[H.HAND0] = rec[R.ELDER0] if role == ELDER else rec[R.DEALER0]
    adversary = 1 - role
    for r in range(rnd):
        base = R.EXCHANGE_CARDS + 4 * r
        row[H.THROWN + r] = rec[base + 2 * role]
        row[H.DRAWN + r] = rec[base + 2 * role + 1]
        row[H.TOOK + r] = popcount32(np.uint32(rec[base + 2 * adversary]))
    if kind == DISCARD and role == DEALER:
        row[H.TOOK + rnd] = popcount32(np.uint32(rec[R.EXCHANGE_CARDS + 4 * rnd]))


@njit(cache=True)
def current_hand(hist):
    """The decider's hand at the decision: his dealt hand less what he threw, with what
    he drew, exchange by exchange."""
    hand = np.uint32(hist[H.HAND0])
    for r in range(hist[H.ROUND]):
        hand = (hand & ~np.uint32(hist[H.THROWN + r])) | np.uint32(hist[H.DRAWN + r])
    return hand


@njit(cache=True)
def stock_left(hist):
    """Stock cards left when the decision is made (both players' draws before it, and
    the elder's at ``round`` for the dealer's discard)."""
    used = 0
    for r in range(hist[H.ROUND]):
        used += popcount32(np.uint32(hist[H.DRAWN + r])) + hist[H.TOOK + r]
    if hist[H.KIND] == DISCARD and hist[H.ROLE] == DEALER:
        used += hist[H.TOOK + hist[H.ROUND]]
    return STOCK - used


__all__ = ["HISTORY", "HISTORY_SIZE", "DECIDE", "DISCARD", "LATER_DEALS_START",
           "SOLVE_WORLDS", "CHECK_WORLDS_START", "CHECK_WORLDS", "MAX_ATTEMPTS",
           "MAX_HISTORIES", "world_index", "draw_world", "marks_block", "decision_points",
           "current_hand", "stock_left"]


# --------------------------------------------------------------------------- on-policy gains

#: First index of the source deals of a solve of the later decisions: the class sampler's
#: unused tag 8 (``[2^43 + 8 * 2^39, 2^43 + 9 * 2^39)``).
SOURCE_DEALS_START = (1 << 43) + (8 << 39)
MAX_SOURCE_DEALS = 1 << 39
#: Values are summed as integers: each marks code's value in units of ``2^-VALUE_BITS``.
VALUE_BITS = 16
#: Per state (and rule) in a gains row: deals, the sum of the paired gains and of their
#: squares (in units of ``2^-VALUE_BITS`` and ``2^-2 VALUE_BITS``).
GAIN_STATS = 3


@njit(cache=True)
def _arm_value(seed, index, cfg, script, rec, perm, draws, pool, payoff, elder, dealer,
               turn_up, values, infer):
    play_dealt(seed, index, cfg, script, rec, perm, draws, pool, payoff, elder, dealer,
               turn_up, infer)
    return values[marks_code(rec)]


@njit(cache=True)
def _add(out, at, d):
    out[at] += 1
    out[at + 1] += d
    out[at + 2] += d * d


@njit(cache=True, nogil=True)
def gains_row(r, seed, start, count, rows, kind, cfg, script, arm_cfgs, values, keys, rules,
              out, infer):
    """Row ``r`` of :func:`gains_block`: the source deals of the row's share of
    ``[start, start + count)``, played under ``cfg`` (the pair, ``target`` set), and at
    each later decision of ``kind`` (round >= 1) both players' arms played on the same
    deal from there (the deal itself is a draw from the decider's posterior).
    ``arm_cfgs`` (2, 4, CFG) is scratch for the arms' cfgs."""
    lo, hi = row_range(start, count, rows, r)
    perm, draws, pool, payoff, rec = deal_scratch()
    points = np.zeros((4 * (MAX_EXCHANGES + 2), HISTORY_SIZE + 1), dtype=np.int64)
    source = np.empty(N_CARDS, dtype=np.int64)
    n_rules = rules.shape[0]
    stride = GAIN_STATS * (1 if kind == DECIDE else n_rules)
    per_role = keys.shape[0] * stride
    for i in range(lo, hi):
        index = np.uint64(i)
        elder0, dealer0, turn_up = deal_full(seed, index, perm, draws)
        for c in range(N_CARDS):
            source[c] = perm[c]
        play_dealt(seed, index, cfg, script, rec, perm, draws, pool, payoff, elder0,
                   dealer0, turn_up, infer)
        n = decision_points(rec, points, 0, 1)
        for q in range(n):
            hist = points[q]
            if hist[H.KIND] != kind:
                continue
            role = hist[H.ROLE]
            hand = current_hand(hist)
            state = state_index(hand, turn_up, keys)
            at = role * per_role + state * stride
            rnd = hist[H.ROUND]
            trump = turn_up >> 3
            if kind == DECIDE:
                _forced(arm_cfgs[0, role], cfg, hist, 1, 0)
                _forced(arm_cfgs[1, role], cfg, hist, 0, 0)
                va = _arm_value(seed, index, arm_cfgs[0, role], script, rec, perm, draws,
                                pool, payoff, elder0, dealer0, turn_up, values[role], infer)
                vb = _arm_value(seed, index, arm_cfgs[1, role], script, rec, perm, draws,
                                pool, payoff, elder0, dealer0, turn_up, values[role], infer)
                _add(out, at, va - vb)
            else:
                did = np.uint32(hist[HISTORY_SIZE])
                room = stock_left(hist)
                base_value = np.int64(0)
                base_done = False
                for j in range(n_rules):
                    cards = rule_cards(rules[j], hand, trump, role, room, cfg)
                    if cards == did:
                        out[at + GAIN_STATS * j] += 1
                        continue
                    if not base_done:
                        _forced(arm_cfgs[0, role], cfg, hist, 1, did)
                        base_value = _arm_value(seed, index, arm_cfgs[0, role], script, rec,
                                                perm, draws, pool, payoff, elder0, dealer0,
                                                turn_up, values[role], infer)
                        base_done = True
                    _forced(arm_cfgs[1, role], cfg, hist, 1, cards)
                    v = _arm_value(seed, index, arm_cfgs[1, role], script, rec, perm, draws,
                                   pool, payoff, elder0, dealer0, turn_up, values[role], infer)
                    _add(out, at + GAIN_STATS * j, v - base_value)
            # the next arm replays the source deal: its stock order again
            for c in range(N_CARDS):
                perm[c] = source[c]


@njit(cache=True)
def _forced(arm, cfg, hist, say, cards):
    """``arm``: ``cfg`` with the decider's history of ``hist`` forced and, at its round,
    the decision ``say`` (DECIDE) or the discard ``cards`` (DISCARD)."""
    for c in range(arm.shape[0]):
        arm[c] = cfg[c]
    arm[C.TARGET] = 0           # the arms play the deal out; V values its marks
    role = hist[H.ROLE]
    rnd = hist[H.ROUND]
    rounds = C.ELDER_FORCED_ROUNDS if role == ELDER else C.DEALER_FORCED_ROUNDS
    says = C.ELDER_FORCED_SAYS if role == ELDER else C.DEALER_FORCED_SAYS
    discards = C.ELDER_FORCED_DISCARDS if role == ELDER else C.DEALER_FORCED_DISCARDS
    thrown = C.ELDER_THROWN if role == ELDER else C.DEALER_THROWN
    arm[rounds] = rnd + 1
    arm[says] = (np.int64(1) << rnd) - 1
    for j in range(rnd):
        arm[thrown + j] = hist[H.THROWN + j]
    if hist[H.KIND] == DECIDE:
        arm[says] |= np.int64(say) << rnd
        arm[discards] = rnd
    else:
        arm[says] |= np.int64(1) << rnd
        arm[discards] = rnd + 1
        arm[thrown + rnd] = np.int64(cards)


@njit(cache=True)
def rule_cards(rule, hand, trump, role, room, cfg):
    """The cards discard ``rule`` throws from ``hand`` when ``room`` stock cards can
    replace them: the elder at least one, his weakest (Law 27; so a dealer under
    ``dealer_min_one`` while the stock has a card), no more than ``room`` (Law 38) — the
    kernel's own :func:`~ecarte_sim.engine.ecarte.decisions.policies.thrown_cards` for a
    rule."""
    out = rule_discard(rule, hand, trump)
    if out == 0 and (role == ELDER or (cfg[C.DEALER_MIN_ONE] != 0 and room > 0)):
        out = weakest(hand, 1, trump)
    if popcount32(out) > room:
        out = weakest(out, room, trump)
    return out


def gains_block(seed, start, count, rows, kind, cfg, script, values, rules, out):
    """Rows of :func:`gains_row` over the source deals ``[start, start + count)``: row
    ``r`` adds to ``out[r]`` (int64; per role, state and rule (one for ``DECIDE``): the
    later decisions met, the sum of the paired gains of arm a over arm b (``DECIDE``:
    propose or accept over play or refuse; ``DISCARD``: each rule over the cards the
    policy threw) in the decider's value ``values[role]`` (int64 per marks code, in units
    of ``2^-VALUE_BITS``), and the sum of their squares)."""
    from ecarte_sim.engine.ecarte.decisions.states import state_keys
    keys = state_keys()
    arm_cfgs = np.zeros((rows, 2, 2, cfg.shape[0]), dtype=np.int64)
    each_row(_gains_row_scratch, rows, seed, start, count, rows, kind, cfg, script, arm_cfgs,
             values, keys, rules, out, inference_scratch(cfg))


def _gains_row_scratch(r, seed, start, count, rows, kind, cfg, script, arm_cfgs, values, keys,
                       rules, out, infer):
    gains_row(r, seed, start, count, rows, kind, cfg, script, arm_cfgs[r], values, keys,
              rules, out[r], infer)


# --------------------------------------------------------------------------- Python side

def arm_cfgs(hist: np.ndarray, settings, x: int, y: int, arms) -> list[np.ndarray]:
    """One ``cfg`` per arm for the decision of history ``hist`` at score (x, y): the
    decider's history forced (:class:`~ecarte_sim.engine.ecarte.settings.Forced`) and the
    arm at its round — for ``DECIDE`` a bool (True: propose, accept), for ``DISCARD`` the
    cards thrown (a mask). Everything after is ``settings``' policies."""
    from ecarte_sim.engine.ecarte.settings import Forced
    role, kind, rnd = int(hist[H.ROLE]), int(hist[H.KIND]), int(hist[H.ROUND])
    thrown = tuple(int(t) for t in hist[H.THROWN:H.THROWN + rnd])
    out = []
    for arm in arms:
        if kind == DECIDE:
            forced = Forced(says=(True,) * rnd + (bool(arm),), thrown=thrown)
        else:
            forced = Forced(says=(True,) * (rnd + 1), thrown=thrown + (int(arm),))
        who = "elder_forced" if role == ELDER else "dealer_forced"
        out.append(settings.cfg(elder_score=x, dealer_score=y, **{who: forced}))
    return out
