"""A whole Piquet deal as one kernel: carte blanche, exchange, declarations, play,
the cards, repique and pique — the rules of ``rules.md`` (Laws 18–24, 46–69).

:func:`play_dealt` plays one deal from given dealt hands and stock and writes a
record ``rec`` (``REC``, :mod:`~ecarte_sim.engine.piquet.records`): every score
component of each player, the discards, the hands after the exchange and the 24
cards in the order played. The pure-Python reference
(:mod:`ecarte_sim.engine.piquet.reference`) recomputes every component from the same
record (``tests/engine/piquet/test_piquet_kernels.py``).

Configuration ``cfg`` (int64, ``CFG``, from
:meth:`~ecarte_sim.engine.piquet.settings.PiquetSettings.cfg`): who plays each seat,
how many cards each takes in, the variant switches, the PIMC worlds. A ``script``
(int64, one per seat) may fix the discards (masks; 0 = the player decides); a longer
one (``SCRIPT_SIZE``) also gives, from ``SCRIPT_SINKS`` on, the cards each seat sinks in
each category (point, sequences, sets; elder first), added to his policy's (Law 47).

Sinking (``rules.md``): each seat's :class:`SinkPolicy` (``cfg``) and the script's masks
make his *called hands*, one per category; the declarations, the repique, the pique
and the cards shown are those of what is called.

A ``pimc`` player samples the opponent's hand: ``W`` worlds per decision, each a
uniform draw of the cards it cannot place, consistent with what the opponent showed
in declaring, the suits he has shown void of and (as his :class:`Reading` says) his
answers to the declarations: at face value (``face``, the default: as if nothing were
sunk), not at all (``none``), or as the opponent's sinking policy would have given them
(``full``: a world's hand must call exactly what the opponent called, so what he did
not call is evidence too; the reader knows the opponent's policy, as a player learns his
adversary's habits). What a call tells: the winner of a category shows his call (Law
55), the loser's is only known to be lower, equal calls are equal. Each world is solved double dummy and the card with the best
summed value is played.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import popcount32, suit_mask
from ecarte_sim.engine.piquet.deal import (HAND_SIZE, STOCK_POSITION, STOCK_SIZE, THRESHOLDS,
                                           WORDS_ELDER_DISCARD, WORDS_PLAY, WORDS_WORLDS,
                                           WORDS_YOUNGER_DISCARD, deal_pack, random_below,
                                           random_subset)
from ecarte_sim.engine.piquet.declare import (RANK_MASK, called_keys, declare_called, hand_keys,
                                              point_suit, repiques, sink_masks)
from ecarte_sim.engine.piquet.players import (heuristic_card, heuristic_discard, legal_moves,
                                              nth_card)
from ecarte_sim.engine.piquet.records import (DECLARATIONS, N_CALL_KEYS, N_CATEGORIES, N_SEATS,
                                              REC, SCORE, SCRATCH, STATE)
from ecarte_sim.engine.piquet.settings import (CFG, MAX_WORLDS, LeadScoring, PiqueTiming,
                                               Player, Rank, Reading, Seat, SinkPolicy)
from ecarte_sim.engine.piquet.solver import WORKSPACE_SHAPE, move_values
from ecarte_sim.engine.rng import WORDS_PER_DEAL

C = CFG.at
R = REC.at
S = SCORE.at
D = DECLARATIONS.at
T = STATE.at
#: The parts of the int64 scratch ``totals`` (numba reads module-level slices as constants).
_PIMC_SUMS = SCRATCH.slice("pimc_sums")
_DECLARATIONS = SCRATCH.slice("declarations")
_PLAY = SCRATCH.slice("play")
_TRICKS = SCRATCH.slice("tricks")
_KINDS = SCRATCH.slice("kinds")
_CALLS = SCRATCH.slice("calls")
#: A script's length when it also gives sinks, and where they start (3 masks per seat).
SCRIPT_SINKS = N_SEATS
SCRIPT_SIZE = N_SEATS + 3 * N_SEATS

#: PIMC: tries per world to draw a hand consistent with the declarations (after which the
#: last draw is kept).
_TRIES = 16
# Every world's words lie inside the deal's own sub-stream (2**20 words, ecarte_sim.engine.rng).
assert WORDS_WORLDS + 4 * _TRIES * (2 * HAND_SIZE * MAX_WORLDS) <= WORDS_PER_DEAL
#: Transposition-table size of a solver-driven player (2**bits entries of 16 bytes).
TABLE_BITS = 16


@njit(cache=True)
def _discard(kind, seed, index, k, hand, count, values, draws):
    """The discard of a ``kind`` player (:class:`Player`): random or by keep values."""
    if kind == Player.RANDOM:
        return random_subset(seed, index, k, hand, count, THRESHOLDS, draws)
    return heuristic_discard(hand, count, values)


@njit(cache=True)
def shown_cards(hand, won_point, won_sequences, won_sets):
    """Cards a player shows by scoring (Law 55: what is allowed good must be shown):
    his point suit, every run of his good sequences, every card of his good sets."""
    return shown_calls(hand, hand, hand, won_point, won_sequences, won_sets)


@njit(cache=True)
def shown_calls(point_hand, seq_hand, sets_hand, won_point, won_sequences, won_sets):
    """:func:`shown_cards` of what a player calls: each category from its called hand."""
    h = np.uint32(point_hand)
    shown = np.uint32(0)
    if won_point:
        shown |= h & suit_mask(point_suit(h)[1])
    h = np.uint32(seq_hand)
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
    h = np.uint32(sets_hand)
    if won_sets:
        for r in range(Rank.TEN, Rank.ACE + 1):
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
def consistent_calls(ps, qs, qss, ss, sss, calls, them, me):
    """Would a world whose opponent calls ``(ps, qs, qss, ss, sss)`` have had the
    declarations answered as they were? ``calls``: each seat's called keys (``N_CALL_KEYS``
    each); the winner of a category showed his call (equal key and score), the loser's
    call was lower, equal calls were equal."""
    t = them * N_CALL_KEYS
    m = me * N_CALL_KEYS
    for key_s, score_s, k in ((ps, 0, 0), (qs, qss, 1), (ss, sss, 3)):
        kt = calls[t + k]
        km = calls[m + k]
        if kt > km:
            if key_s != kt:
                return False
            if k > 0 and score_s != calls[t + k + 1]:
                return False
        elif kt < km:
            if key_s >= km:
                return False
        elif key_s != km:
            return False
    return True


@njit(cache=True)
def sample_calls(sample, reading, policy):
    """The keys of what a world's opponent hand ``sample`` would call, as a player of
    ``reading`` supposes: everything (``face``), or what the opponent's ``policy`` sinks
    left out (``full``)."""
    h = np.uint32(sample)
    if reading == Reading.FULL:
        mp, mq, ms = sink_masks(policy, h)
        return called_keys(h & ~mp, h & ~mq, h & ~ms)
    return called_keys(h, h, h)


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
    calls = np.zeros(N_SEATS * N_CALL_KEYS, dtype=np.int64)
    ke = hand_keys(full_them)
    km = hand_keys(full_me)
    for i in range(N_CALL_KEYS):
        calls[N_CALL_KEYS + i] = ke[i]
        calls[i] = km[i]
    return sample_world_read(seed, index, ply, w, fixed, pool, free, played_them, calls, 1,
                             Reading.FACE, SinkPolicy.NEVER, draws)


@njit(cache=True)
def sample_world_read(seed, index, ply, w, fixed, pool, free, played_them, calls, them,
                      reading, policy, draws):
    """:func:`sample_world` on the calls made (``calls``, :func:`consistent_calls`) as a
    player of ``reading`` reads them against an opponent (seat ``them``) of sinking
    ``policy``; under ``none`` every draw is kept."""
    sample = np.uint32(fixed)
    if free <= 0:
        return sample
    for attempt in range(_TRIES):
        k = WORDS_WORLDS + ((ply * MAX_WORLDS + w) * _TRIES + attempt) * 4
        sample = np.uint32(fixed) | random_subset(seed, index, k, pool, free, THRESHOLDS, draws)
        if reading == Reading.NONE:
            break
        ps, qs, qss, ss, sss = sample_calls(sample | np.uint32(played_them), reading, policy)
        if consistent_calls(ps, qs, qss, ss, sss, calls, them, 1 - them):
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
    """The card of the ``kind`` player (:class:`Player`) in seat ``me`` to move.

    ``hands``: cards each seat still holds; ``full``: each one's 12 cards after the
    exchange; ``played``: cards each has played; ``unseen[me]``: cards ``me`` has not
    seen; ``shown``: cards each showed in declaring; ``voids``: suits (mask of suit
    bytes) each has shown void of (the rows of ``STATE``). Random and heuristic use
    only what they may know; ``dd`` sees both hands; ``pimc`` samples the opponent's
    hand (module docstring), summing its worlds' values in ``totals``' ``pimc_sums``."""
    own = hands[me]
    if kind == Player.RANDOM:
        return _random_card(seed, index, ply, own, led, draws)
    if kind == Player.HEURISTIC:
        return heuristic_card(own, unseen[me], led)
    moves = legal_moves(own, led)
    if popcount32(moves) == 1:
        return nth_card(moves, 0)
    sign = 1 if me == Seat.ELDER else -1
    lead_rule = cfg[C.LEAD_SCORING]
    if kind == Player.DD:
        legal = move_values(hands[Seat.ELDER], hands[Seat.YOUNGER], elder_leads, elder_tricks,
                            led, lead_rule, table, ws, values)
        return _best_of(legal, values, sign)
    # PIMC: W worlds, each a uniform deal of the opponent's unknown cards consistent with
    # his shown cards, his voids and his answers to the declarations.
    them = 1 - me
    fixed, pool, free = world_pool(me, hands, unseen, shown, voids)
    sums = totals[_PIMC_SUMS]
    sums[:] = 0
    legal = moves
    reading = cfg[C.ELDER_READING] if me == Seat.ELDER else cfg[C.YOUNGER_READING]
    policy = cfg[C.YOUNGER_SINK] if me == Seat.ELDER else cfg[C.ELDER_SINK]
    calls = totals[_CALLS]
    for w in range(cfg[C.WORLDS]):
        sample = sample_world_read(seed, index, ply, w, fixed, pool, free, played[them], calls,
                                   them, reading, policy, draws)
        if me == Seat.ELDER:
            legal = move_values(own, sample, elder_leads, elder_tricks, led, lead_rule, table,
                                ws, values)
        else:
            legal = move_values(sample, own, elder_leads, elder_tricks, led, lead_rule, table,
                                ws, values)
        for c in range(32):
            if (np.uint32(legal) >> np.uint32(c)) & np.uint32(1):
                sums[c] += values[c]
    return _best_of(legal, sums, sign)


@njit(cache=True)
def play_dealt(seed, index, cfg, script, rec, elder0, younger0, stock, values, draws, totals,
               state, table, ws):
    """Play one deal from the dealt hands ``elder0``/``younger0`` and ``stock``
    (8 cards, top first); write the record ``rec`` (``REC``). ``values``, ``draws``:
    int64 scratch of 32; ``totals``: int64 scratch (``SCRATCH``); ``state``: uint32
    scratch of shape ``(STATE.size, N_SEATS)``; ``table``/``ws``: the solver's
    (:func:`new_solver_scratch`; tiny ones do when no player uses the solver). The
    scratch is the caller's, so that nothing is allocated per deal."""
    rec[:] = 0
    rec[R.ELDER_DEALT] = elder0
    rec[R.YOUNGER_DEALT] = younger0
    for i in range(STOCK_SIZE):
        rec[R.STOCK + i] = stock[i]
    lead_rule = cfg[C.LEAD_SCORING]

    # The exchange (Laws 21-24, 34): elder first, from the top of the stock.
    if script[Seat.ELDER] != 0:
        e_discard = np.uint32(script[Seat.ELDER])
    else:
        e_discard = _discard(cfg[C.ELDER_PLAYER], seed, index, WORDS_ELDER_DISCARD, elder0,
                             cfg[C.ELDER_TAKE], values, draws)
    e_take = popcount32(e_discard)
    elder = np.uint32(elder0) & ~e_discard
    for i in range(e_take):
        elder |= np.uint32(1) << np.uint32(stock[i])
    available = STOCK_SIZE - e_take
    if script[Seat.YOUNGER] != 0:
        y_discard = np.uint32(script[Seat.YOUNGER])
    else:
        y_take = cfg[C.YOUNGER_TAKE]
        if y_take == 0 or y_take > available:
            y_take = available
        y_discard = _discard(cfg[C.YOUNGER_PLAYER], seed, index, WORDS_YOUNGER_DISCARD,
                             younger0, y_take, values, draws)
    y_take = popcount32(y_discard)
    younger = np.uint32(younger0) & ~y_discard
    for i in range(e_take, e_take + y_take):
        younger |= np.uint32(1) << np.uint32(stock[i])
    rec[R.ELDER_DISCARD] = e_discard
    rec[R.YOUNGER_DISCARD] = y_discard
    rec[R.ELDER_HAND] = elder
    rec[R.YOUNGER_HAND] = younger

    # What each calls (Law 47: his policy's and the script's sinks left out), categories
    # I-IV on the calls (Laws 61-64, 67) and repiques (Law 68).
    called = state[T.CALLED:T.CALLED + 3]        # called[category, seat]
    for p in range(N_SEATS):
        hand = elder if p == Seat.ELDER else younger
        mp, mq, ms = sink_masks(cfg[C.ELDER_SINK] if p == Seat.ELDER else cfg[C.YOUNGER_SINK],
                                hand)
        if script.shape[0] >= SCRIPT_SIZE:
            mp |= np.uint32(script[SCRIPT_SINKS + 3 * p])
            mq |= np.uint32(script[SCRIPT_SINKS + 3 * p + 1])
            ms |= np.uint32(script[SCRIPT_SINKS + 3 * p + 2])
        called[0, p] = hand & ~mp
        called[1, p] = hand & ~mq
        called[2, p] = hand & ~ms
    decl = totals[_DECLARATIONS]
    declare_called(elder0, younger0, called[0, 0], called[1, 0], called[2, 0], called[0, 1],
                   called[1, 1], called[2, 1], decl)
    e_total = 0
    for c in range(N_CATEGORIES):
        rec[R.ELDER + c] = decl[D.ELDER + c]
        rec[R.YOUNGER + c] = decl[D.YOUNGER + c]
        e_total += decl[D.ELDER + c]
    rep_e, rep_y = repiques(decl)
    y_decl = decl[D.YOUNGER + S.POINT] + decl[D.YOUNGER + S.SEQUENCES] + decl[D.YOUNGER + S.SETS]

    # Pique (Law 69): the elder's running total against what the younger has reckoned.
    pique_open = not rep_e and not rep_y
    y_reckoned = decl[D.YOUNGER + S.CARTE_BLANCHE] > 0 or (
        cfg[C.PIQUE_TIMING] == PiqueTiming.LAW67 and y_decl > 0)
    pique = pique_open and not y_reckoned and e_total >= 30

    # The play (Laws 57-59, 65).
    play = totals[_PLAY]
    tricks = totals[_TRICKS]
    kinds = totals[_KINDS]
    hands = state[T.HANDS]
    full = state[T.FULL]
    played = state[T.PLAYED]
    voids = state[T.VOIDS]
    shown = state[T.SHOWN]
    unseen = state[T.UNSEEN]
    for p in range(N_SEATS):
        play[p] = 0
        tricks[p] = 0
        played[p] = 0
        voids[p] = 0
        shown[p] = 0
    hands[Seat.ELDER] = elder
    hands[Seat.YOUNGER] = younger
    full[Seat.ELDER] = elder
    full[Seat.YOUNGER] = younger
    kinds[Seat.ELDER] = cfg[C.ELDER_PLAYER]
    kinds[Seat.YOUNGER] = cfg[C.YOUNGER_PLAYER]
    if kinds[Seat.ELDER] == Player.PIMC or kinds[Seat.YOUNGER] == Player.PIMC:
        calls = totals[_CALLS]
        for p in range(N_SEATS):
            base = D.ELDER if p == Seat.ELDER else D.YOUNGER
            shown[p] = shown_calls(called[0, p], called[1, p], called[2, p],
                                   decl[base + S.POINT] > 0, decl[base + S.SEQUENCES] > 0,
                                   decl[base + S.SETS] > 0)
            keys = called_keys(called[0, p], called[1, p], called[2, p])
            for i in range(N_CALL_KEYS):
                calls[p * N_CALL_KEYS + i] = keys[i]
    # What each player has not seen: the other's hand and discard, and the stock left.
    unseen[Seat.ELDER] = ~(elder | e_discard) & np.uint32(0xFFFFFFFF)
    unseen[Seat.YOUNGER] = ~(younger | y_discard) & np.uint32(0xFFFFFFFF)
    leader = Seat.ELDER
    for t in range(HAND_SIZE):
        follower = 1 - leader
        elder_leads = leader == Seat.ELDER
        kind = kinds[leader]
        if kind == Player.RANDOM:          # the two cheap players first, without the call
            lead = _random_card(seed, index, 2 * t, hands[leader], -1, draws)
        elif kind == Player.HEURISTIC:
            lead = heuristic_card(hands[leader], unseen[leader], -1)
        else:
            lead = _choose(kind, leader, seed, index, 2 * t, hands, full, played, unseen,
                           shown, voids, elder_leads, tricks[Seat.ELDER], -1, cfg, table, ws,
                           values, totals, draws)
        bit = np.uint32(1) << np.uint32(lead)
        hands[leader] &= ~bit
        played[leader] |= bit
        unseen[follower] &= ~bit
        rec[R.PLAYS + 2 * t] = lead
        points = 1 if (lead_rule == LeadScoring.ALL or (lead & 7) >= Rank.TEN) else 0
        play[leader] += points
        if leader == Seat.ELDER:
            e_total += points
            if pique_open and not y_reckoned and e_total >= 30:
                pique = True
        elif points > 0:
            y_reckoned = True
        if t == 0 and y_decl > 0:
            y_reckoned = True      # the younger declares after the elder's first lead
        kind = kinds[follower]
        if kind == Player.RANDOM:
            reply = _random_card(seed, index, 2 * t + 1, hands[follower], lead, draws)
        elif kind == Player.HEURISTIC:
            reply = heuristic_card(hands[follower], unseen[follower], lead)
        else:
            reply = _choose(kind, follower, seed, index, 2 * t + 1, hands, full, played,
                            unseen, shown, voids, elder_leads, tricks[Seat.ELDER], lead, cfg,
                            table, ws, values, totals, draws)
        bit = np.uint32(1) << np.uint32(reply)
        hands[follower] &= ~bit
        played[follower] |= bit
        unseen[leader] &= ~bit
        if (reply >> 3) != (lead >> 3):
            voids[follower] |= suit_mask(lead >> 3)
        rec[R.PLAYS + 2 * t + 1] = reply
        winner = leader
        points = 0
        if (reply >> 3) == (lead >> 3) and reply > lead:
            winner = follower
            points = 1 if (lead_rule == LeadScoring.ALL or (reply & 7) >= Rank.TEN) else 0
        if t == HAND_SIZE - 1:
            points += 1
        tricks[winner] += 1
        play[winner] += points
        if winner == Seat.ELDER:
            e_total += points
            if pique_open and not y_reckoned and e_total >= 30:
                pique = True
        elif points > 0:
            y_reckoned = True
        leader = winner

    # The cards (Law 66) and the totals.
    for p in range(N_SEATS):
        base = R.ELDER if p == Seat.ELDER else R.YOUNGER
        rec[base + S.PLAY] = play[p]
        rec[base + S.TRICKS] = tricks[p]
        if tricks[p] == 12:
            rec[base + S.CARDS] = 40
        elif tricks[p] > 6:
            rec[base + S.CARDS] = 10
    if pique:
        rec[R.ELDER + S.PIQUE] = 30
    if rep_e:
        rec[R.ELDER + S.REPIQUE] = 60
    if rep_y:
        rec[R.YOUNGER + S.REPIQUE] = 60
    for p in range(N_SEATS):
        base = R.ELDER if p == Seat.ELDER else R.YOUNGER
        total = 0
        for c in range(S.TRICKS):           # the points: every field before the tricks
            total += rec[base + c]
        rec[base + S.TOTAL] = total


@njit(cache=True)
def whole_deal(seed, index, cfg, script, rec, perm, draws, values, stock, totals, state, table,
               ws):
    """Deal ``index`` of ``seed`` played out under ``cfg``; record in ``rec``."""
    elder0, younger0 = deal_pack(seed, index, perm, draws)
    for i in range(STOCK_SIZE):
        stock[i] = perm[STOCK_POSITION + i]
    play_dealt(seed, index, cfg, script, rec, elder0, younger0, stock, values, draws, totals,
               state, table, ws)


@njit(cache=True)
def uses_solver(cfg):
    """Does a player of ``cfg`` search with the solver (dd, pimc)?"""
    return (cfg[C.ELDER_PLAYER] >= Player.DD) or (cfg[C.YOUNGER_PLAYER] >= Player.DD)


@njit(cache=True)
def new_solver_scratch(needed):
    """(table, workspace) for the solver-driven players: a full table when ``needed``,
    else a minimal one (random and heuristic players never touch it)."""
    bits = TABLE_BITS if needed else 2
    table = np.zeros((1 << bits, 2), dtype=np.uint64)
    ws = np.zeros(WORKSPACE_SHAPE, dtype=np.int64)
    return table, ws
