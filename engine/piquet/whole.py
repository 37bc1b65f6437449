"""A whole Piquet deal as one kernel: carte blanche, exchange, declarations, play,
the cards, repique and pique — the rules of ``rules.md`` (Laws 18–24, 46–69).

``play_dealt`` plays one deal from given dealt hands and stock and writes a
record (``REC_*`` below): every score component of each player, the
discards, the hands after the exchange and the 24 cards in the order played.
The pure-Python reference (:mod:`engine.piquet.reference`) recomputes every
component from the same record (``tests/test_piquet_kernels.py``).

Configuration ``cfg`` (int64, ``N_CFG``): who plays each seat, how many cards
each takes in, the variant switches. A ``script`` (int64, 2) may fix the
discards (masks; 0 = the player decides).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.cards import popcount32, suit_mask
from engine.piquet.deal import (STOCK_POSITION, THRESHOLDS, WORDS_DISCARD, WORDS_PLAY,
                                deal_pack, random_below, random_subset)
from engine.piquet.declare import POINT_KEY, RANK_MASK, declare, hand_keys, repiques
from engine.piquet.deal import WORDS_WORLDS
from engine.rng import WORDS_PER_DEAL
from engine.piquet.players import (DD, HEURISTIC, PIMC, PLAYERS, RANDOM, heuristic_card,
                                   heuristic_discard, legal_moves, nth_card)
from engine.piquet.solver import WORKSPACE_SHAPE, move_values

CFG_ELDER_PLAYER = 0
CFG_YOUNGER_PLAYER = 1
CFG_ELDER_TAKE = 2        # 1..5 (Law 21)
CFG_YOUNGER_TAKE = 3      # 0: all he can (Law 34); else at most this many
CFG_LEAD_RULE = 4         # 0 "all", 1 "ten_up"
CFG_PIQUE_TIMING = 5      # 0 "lead", 1 "law67"
CFG_WORLDS = 6            # PIMC worlds per decision
N_CFG = 8

LEAD_RULES = {"all": 0, "ten_up": 1}
PIQUE_TIMINGS = {"lead": 0, "law67": 1}

# Record: 10 components per player (elder at 0, younger at 10), then the deal.
COMPONENTS = ("carte_blanche", "point", "sequences", "sets", "play", "cards", "pique",
              "repique", "tricks", "total")
C_BLANCHE, C_POINT, C_SEQUENCES, C_SETS, C_PLAY, C_CARDS, C_PIQUE, C_REPIQUE, C_TRICKS, \
    C_TOTAL = range(10)
REC_YOUNGER = 10
REC_ELDER_DEALT = 20
REC_YOUNGER_DEALT = 21
REC_ELDER_DISCARD = 22
REC_YOUNGER_DISCARD = 23
REC_ELDER_HAND = 24           # after the exchange
REC_YOUNGER_HAND = 25
REC_STOCK = 26                # 8 cards, top first
REC_PLAYS = 34                # 24 cards in the order played
REC_LEN = REC_PLAYS + 24

_TEN = 3
_ELDER, _YOUNGER = 0, 1
#: PIMC: tries per world to draw a hand consistent with the declarations (after which the
#: last draw is kept), and the most worlds (the layout of the words each world reads).
_TRIES = 16
MAX_WORLDS = _MAX_WORLDS = 256
# Every world's words lie inside the deal's own sub-stream (2**20 words, engine.rng).
assert WORDS_WORLDS + 4 * _TRIES * (24 * _MAX_WORLDS) <= WORDS_PER_DEAL
#: Length of the int64 scratch ``totals`` of :func:`play_dealt`.
SCRATCH_INT = 48
#: Transposition-table size of a solver-driven player (2**bits entries of 16 bytes).
TABLE_BITS = 16


def make_cfg(elder: str = "random", younger: str = "random", elder_take: int = 5,
             younger_take: int = 0, lead_scoring: str = "all", pique_timing: str = "lead",
             worlds: int = 16) -> np.ndarray:
    """A configuration array; raises ``ValueError`` naming a bad value."""
    for name in (elder, younger):
        if name not in PLAYERS:
            raise ValueError(f"unknown player {name!r} (choose from {', '.join(PLAYERS)})")
    if not 1 <= int(elder_take) <= 5:
        raise ValueError(f"elder takes 1 to 5 cards (Law 21), got {elder_take}")
    if not 0 <= int(younger_take) <= 7:
        raise ValueError(f"younger takes 1 to 7 cards, or 0 for all he can, got {younger_take}")
    if lead_scoring not in LEAD_RULES:
        raise ValueError(f"unknown lead scoring {lead_scoring!r} (all, ten_up)")
    if pique_timing not in PIQUE_TIMINGS:
        raise ValueError(f"unknown pique timing {pique_timing!r} (lead, law67)")
    if not 1 <= int(worlds) <= MAX_WORLDS:
        raise ValueError(f"worlds must lie in [1, {MAX_WORLDS}], got {worlds}")
    cfg = np.zeros(N_CFG, dtype=np.int64)
    cfg[CFG_ELDER_PLAYER] = PLAYERS[elder]
    cfg[CFG_YOUNGER_PLAYER] = PLAYERS[younger]
    cfg[CFG_ELDER_TAKE] = int(elder_take)
    cfg[CFG_YOUNGER_TAKE] = int(younger_take)
    cfg[CFG_LEAD_RULE] = LEAD_RULES[lead_scoring]
    cfg[CFG_PIQUE_TIMING] = PIQUE_TIMINGS[pique_timing]
    cfg[CFG_WORLDS] = int(worlds)
    return cfg


@njit(cache=True)
def _discard(kind, seed, index, k, hand, count, values, draws):
    if kind == RANDOM:
        return random_subset(seed, index, k, hand, count, THRESHOLDS, draws)
    return heuristic_discard(hand, count, values)


@njit(cache=True)
def shown_cards(hand, won_point, won_sequences, won_sets):
    """Cards a player shows by scoring (Law 55: what is allowed good must be shown):
    his point suit, every run of his good sequences, every card of his good sets."""
    h = np.uint32(hand)
    shown = np.uint32(0)
    if won_point:
        best = -1
        best_suit = 0
        for s in range(4):
            k = POINT_KEY[(h >> np.uint32(8 * s)) & np.uint32(0xFF)]
            if k > best:
                best = k
                best_suit = s
        shown |= h & suit_mask(best_suit)
    if won_sequences:
        for s in range(4):
            byte = (h >> np.uint32(8 * s)) & np.uint32(0xFF)
            r = 0
            while r < 8:
                if (byte >> np.uint32(r)) & np.uint32(1):
                    lo = r
                    while r < 8 and (byte >> np.uint32(r)) & np.uint32(1):
                        r += 1
                    if r - lo >= 3:
                        for q in range(lo, r):
                            shown |= np.uint32(1) << np.uint32(8 * s + q)
                else:
                    r += 1
    if won_sets:
        for r in range(_TEN, 8):
            if popcount32(h & RANK_MASK[r]) >= 3:
                shown |= h & RANK_MASK[r]
    return shown


@njit(cache=True)
def _consistent(sample, theirs, mine):
    """Would the hand ``sample`` have answered the declarations as ``theirs`` did
    against ``mine``? (The winner of a category showed it: equal key and score; the
    loser's key was lower; equal calls were equal.)"""
    ps, qs, qss, ss, sss = hand_keys(sample)
    pt, qt, qts, st, sts = hand_keys(theirs)
    pm, qm, qms, sm, sms = hand_keys(mine)
    if pt > pm:
        if ps != pt:
            return False
    elif pt < pm:
        if ps >= pm:
            return False
    elif ps != pm:
        return False
    if qt > qm:
        if qs != qt or qss != qts:
            return False
    elif qt < qm:
        if qs >= qm:
            return False
    elif qs != qm:
        return False
    if st > sm:
        if ss != st or sss != sts:
            return False
    elif st < sm:
        if ss >= sm:
            return False
    elif ss != sm:
        return False
    return True


@njit(cache=True)
def world_pool(me, hands, unseen, shown, voids):
    """What player ``me`` knows of his opponent's hand: (cards known to be in it — shown in
    declaring and not yet played —, the cards the rest may be drawn from — unseen by
    ``me``, not shown, not of a suit the opponent has shown void —, how many to draw)."""
    them = 1 - me
    fixed = shown[them] & hands[them]
    pool = unseen[me] & ~shown[them] & ~voids[them]
    return fixed, pool, popcount32(hands[them]) - popcount32(fixed)


@njit(cache=True)
def sample_world(seed, index, ply, w, fixed, pool, free, played_them, full_them, full_me,
                 draws):
    """World ``w`` of decision ``ply``: ``fixed`` plus ``free`` cards drawn uniformly from
    ``pool``, redrawn (up to ``_TRIES`` times, then the last draw is kept) until the
    opponent's whole hand (these and the cards he has played) answers the declarations as
    his real hand did (:func:`_consistent`). The true hand is always among the candidates,
    so ``pool`` holds at least ``free`` cards."""
    sample = np.uint32(fixed)
    if free <= 0:
        return sample
    for attempt in range(_TRIES):
        k = WORDS_WORLDS + ((ply * _MAX_WORLDS + w) * _TRIES + attempt) * 4
        sample = np.uint32(fixed) | random_subset(seed, index, k, pool, free, THRESHOLDS, draws)
        if _consistent(sample | np.uint32(played_them), full_them, full_me):
            break
    return sample


@njit(cache=True)
def _best_of(legal, totals, sign):
    best = -1
    best_value = -(1 << 40)
    for c in range(32):
        if (np.uint32(legal) >> np.uint32(c)) & np.uint32(1):
            v = sign * totals[c]
            if v > best_value:
                best_value = v
                best = c
    return best


@njit(cache=True, inline="always")
def _random_card(seed, index, ply, own, led, draws):
    """A uniformly random legal card (words ``WORDS_PLAY + 16 ply ...``)."""
    moves = legal_moves(own, led)
    n = popcount32(moves)
    if n == 1:
        return nth_card(moves, 0)
    j = random_below(seed, index, WORDS_PLAY + 16 * ply, n, THRESHOLDS, draws)
    return nth_card(moves, j)


@njit(cache=True)
def _choose(kind, me, seed, index, ply, hands, full, played, unseen, shown, voids,
            elder_leads, elder_tricks, led, cfg, table, ws, values, totals, draws):
    """The card of player ``me`` (0 elder, 1 younger) to move.

    ``hands``: cards each still holds; ``full``: each one's 12 cards after the
    exchange; ``played``: cards each has played; ``unseen[me]``: cards ``me`` has not
    seen; ``shown``: cards each showed in declaring; ``voids``: suits (mask of suit
    bytes) each has shown void of. Random and heuristic use only what they may know;
    ``dd`` sees both hands; ``pimc`` samples the opponent's hand (module
    :mod:`engine.piquet.whole` docstring)."""
    own = hands[me]
    if kind == RANDOM:
        return _random_card(seed, index, ply, own, led, draws)
    if kind == HEURISTIC:
        return heuristic_card(own, unseen[me], led)
    moves = legal_moves(own, led)
    if popcount32(moves) == 1:
        return nth_card(moves, 0)
    sign = 1 if me == _ELDER else -1
    lead_rule = cfg[CFG_LEAD_RULE]
    if kind == DD:
        legal = move_values(hands[_ELDER], hands[_YOUNGER], elder_leads, elder_tricks, led,
                            lead_rule, table, ws, values)
        return _best_of(legal, values, sign)
    # PIMC: W worlds, each a uniform deal of the opponent's unknown cards consistent with
    # his shown cards, his voids and his answers to the declarations.
    them = 1 - me
    fixed, pool, free = world_pool(me, hands, unseen, shown, voids)
    for c in range(32):
        totals[c] = 0
    legal = moves
    for w in range(cfg[CFG_WORLDS]):
        sample = sample_world(seed, index, ply, w, fixed, pool, free, played[them], full[them],
                              full[me], draws)
        if me == _ELDER:
            legal = move_values(own, sample, elder_leads, elder_tricks, led, lead_rule, table,
                                ws, values)
        else:
            legal = move_values(sample, own, elder_leads, elder_tricks, led, lead_rule, table,
                                ws, values)
        for c in range(32):
            if (np.uint32(legal) >> np.uint32(c)) & np.uint32(1):
                totals[c] += values[c]
    return _best_of(legal, totals, sign)


@njit(cache=True)
def play_dealt(seed, index, cfg, script, rec, elder0, younger0, stock, values, draws, totals,
               state, table, ws):
    """Play one deal from the dealt hands ``elder0``/``younger0`` and ``stock``
    (8 cards, top first); write the record ``rec`` (``REC_LEN``). ``values``,
    ``draws``: int64 scratch of 32; ``totals``: int64 scratch of ``SCRATCH_INT``;
    ``state``: uint32 scratch of shape (6, 2); ``table``/``ws``: the solver's
    (:func:`new_solver_scratch`; tiny ones do when no player uses the solver)."""
    for i in range(REC_LEN):
        rec[i] = 0
    rec[REC_ELDER_DEALT] = elder0
    rec[REC_YOUNGER_DEALT] = younger0
    for i in range(8):
        rec[REC_STOCK + i] = stock[i]
    lead_rule = cfg[CFG_LEAD_RULE]

    # The exchange (Laws 21-24, 34): elder first, from the top of the stock.
    if script[0] != 0:
        e_discard = np.uint32(script[0])
    else:
        e_discard = _discard(cfg[CFG_ELDER_PLAYER], seed, index, WORDS_DISCARD, elder0,
                             cfg[CFG_ELDER_TAKE], values, draws)
    e_take = popcount32(e_discard)
    elder = np.uint32(elder0) & ~e_discard
    for i in range(e_take):
        elder |= np.uint32(1) << np.uint32(stock[i])
    available = 8 - e_take
    if script[1] != 0:
        y_discard = np.uint32(script[1])
    else:
        y_take = cfg[CFG_YOUNGER_TAKE]
        if y_take == 0 or y_take > available:
            y_take = available
        y_discard = _discard(cfg[CFG_YOUNGER_PLAYER], seed, index, WORDS_DISCARD + 32, younger0,
                             y_take, values, draws)
    y_take = popcount32(y_discard)
    younger = np.uint32(younger0) & ~y_discard
    for i in range(e_take, e_take + y_take):
        younger |= np.uint32(1) << np.uint32(stock[i])
    rec[REC_ELDER_DISCARD] = e_discard
    rec[REC_YOUNGER_DISCARD] = y_discard
    rec[REC_ELDER_HAND] = elder
    rec[REC_YOUNGER_HAND] = younger

    # Categories I-IV (Laws 61-64, 67) and repiques (Law 68).
    # Per-deal state lives in caller-owned scratch (no allocation per deal): ``totals``
    # (int64, >= SCRATCH_INT) holds the PIMC sums in [0, 32) and the counts below;
    # ``state`` (uint32, (6, 2)) the players' cards.
    decl = totals[32:40]
    for i in range(8):
        decl[i] = 0
    declare(elder0, younger0, elder, younger, decl)
    for c in range(4):
        rec[c] = decl[c]
        rec[REC_YOUNGER + c] = decl[4 + c]
    rep_e, rep_y = repiques(decl)
    e_total = decl[0] + decl[1] + decl[2] + decl[3]
    y_decl = decl[5] + decl[6] + decl[7]

    # Pique (Law 69): the elder's running total against what the younger has reckoned.
    pique_open = not rep_e and not rep_y
    y_reckoned = decl[4] > 0 or (cfg[CFG_PIQUE_TIMING] == 1 and y_decl > 0)
    pique = pique_open and not y_reckoned and e_total >= 30

    # The play (Laws 57-59, 65).
    play = totals[40:42]
    tricks = totals[42:44]
    kinds = totals[44:46]
    hands = state[0]
    full = state[1]
    played = state[2]
    voids = state[3]
    shown = state[4]
    unseen = state[5]
    for p in range(2):
        play[p] = 0
        tricks[p] = 0
        played[p] = 0
        voids[p] = 0
        shown[p] = 0
    hands[_ELDER] = elder
    hands[_YOUNGER] = younger
    full[_ELDER] = elder
    full[_YOUNGER] = younger
    kinds[_ELDER] = cfg[CFG_ELDER_PLAYER]
    kinds[_YOUNGER] = cfg[CFG_YOUNGER_PLAYER]
    if kinds[_ELDER] == PIMC or kinds[_YOUNGER] == PIMC:
        for p in range(2):
            shown[p] = shown_cards(full[p], decl[4 * p + 1] > 0, decl[4 * p + 2] > 0,
                                   decl[4 * p + 3] > 0)
    # What each player has not seen: the other's hand and discard, and the stock left.
    unseen[_ELDER] = ~(elder | e_discard) & np.uint32(0xFFFFFFFF)
    unseen[_YOUNGER] = ~(younger | y_discard) & np.uint32(0xFFFFFFFF)
    leader = _ELDER
    for t in range(12):
        follower = 1 - leader
        elder_leads = leader == _ELDER
        kind = kinds[leader]
        if kind == RANDOM:          # the two cheap players first, without the call
            lead = _random_card(seed, index, 2 * t, hands[leader], -1, draws)
        elif kind == HEURISTIC:
            lead = heuristic_card(hands[leader], unseen[leader], -1)
        else:
            lead = _choose(kind, leader, seed, index, 2 * t, hands, full, played, unseen,
                           shown, voids, elder_leads, tricks[_ELDER], -1, cfg, table, ws,
                           values, totals, draws)
        bit = np.uint32(1) << np.uint32(lead)
        hands[leader] &= ~bit
        played[leader] |= bit
        unseen[follower] &= ~bit
        rec[REC_PLAYS + 2 * t] = lead
        points = 1 if (lead_rule == 0 or (lead & 7) >= _TEN) else 0
        play[leader] += points
        if leader == _ELDER:
            e_total += points
            if pique_open and not y_reckoned and e_total >= 30:
                pique = True
        elif points > 0:
            y_reckoned = True
        if t == 0 and y_decl > 0:
            y_reckoned = True      # the younger declares after the elder's first lead
        kind = kinds[follower]
        if kind == RANDOM:
            reply = _random_card(seed, index, 2 * t + 1, hands[follower], lead, draws)
        elif kind == HEURISTIC:
            reply = heuristic_card(hands[follower], unseen[follower], lead)
        else:
            reply = _choose(kind, follower, seed, index, 2 * t + 1, hands, full, played,
                            unseen, shown, voids, elder_leads, tricks[_ELDER], lead, cfg, table,
                            ws, values, totals, draws)
        bit = np.uint32(1) << np.uint32(reply)
        hands[follower] &= ~bit
        played[follower] |= bit
        unseen[leader] &= ~bit
        if (reply >> 3) != (lead >> 3):
            voids[follower] |= suit_mask(lead >> 3)
        rec[REC_PLAYS + 2 * t + 1] = reply
        winner = leader
        points = 0
        if (reply >> 3) == (lead >> 3) and reply > lead:
            winner = follower
            points = 1 if (lead_rule == 0 or (reply & 7) >= _TEN) else 0
        if t == 11:
            points += 1
        tricks[winner] += 1
        play[winner] += points
        if winner == _ELDER:
            e_total += points
            if pique_open and not y_reckoned and e_total >= 30:
                pique = True
        elif points > 0:
            y_reckoned = True
        leader = winner

    # The cards (Law 66) and the totals.
    for p in range(2):
        base = REC_YOUNGER * p
        rec[base + C_PLAY] = play[p]
        rec[base + C_TRICKS] = tricks[p]
        if tricks[p] == 12:
            rec[base + C_CARDS] = 40
        elif tricks[p] > 6:
            rec[base + C_CARDS] = 10
    if pique:
        rec[C_PIQUE] = 30
    if rep_e:
        rec[C_REPIQUE] = 60
    if rep_y:
        rec[REC_YOUNGER + C_REPIQUE] = 60
    for p in range(2):
        base = REC_YOUNGER * p
        total = 0
        for c in range(C_TRICKS):
            total += rec[base + c]
        rec[base + C_TOTAL] = total


@njit(cache=True)
def whole_deal(seed, index, cfg, script, rec, perm, draws, values, stock, totals, state, table,
               ws):
    """Deal ``index`` of ``seed`` played out under ``cfg``; record in ``rec``."""
    elder0, younger0 = deal_pack(seed, index, perm, draws)
    for i in range(8):
        stock[i] = perm[STOCK_POSITION + i]
    play_dealt(seed, index, cfg, script, rec, elder0, younger0, stock, values, draws, totals,
               state, table, ws)


@njit(cache=True)
def uses_solver(cfg):
    return (cfg[CFG_ELDER_PLAYER] >= DD) or (cfg[CFG_YOUNGER_PLAYER] >= DD)


@njit(cache=True)
def new_solver_scratch(needed):
    """(table, workspace) for the solver-driven players: a full table when ``needed``,
    else a minimal one (random and heuristic players never touch it)."""
    bits = TABLE_BITS if needed else 2
    table = np.zeros((1 << bits, 2), dtype=np.uint64)
    ws = np.zeros(WORKSPACE_SHAPE, dtype=np.int64)
    return table, ws
