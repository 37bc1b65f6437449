"""The whole deal as one numba kernel: marks, proposals, exchanges, play, the point.

The sequence is the contract written out in ``rules_whole_deal.md`` beside this file
(Laws 22–27, 38, 43, 47–49); the pure-Python reference implements the same contract,
and the tests drive both through the same scripted decisions.

Interface (one for every policy, so experiments can run any combination):

``cfg`` (int64, ``CFG.size``)
    policy ids and parameters, variants and the score: ``CFG`` and
    :class:`EcarteSettings` in :mod:`ecarte_sim.engine.ecarte.settings`.
``script`` (int64, ``SCRIPT_LEN``, longer if it carries decision tables)
    scripted decisions (policy id 0), cards forced in the play (a player's k-th card,
    whatever his model; the play card by card only), and the table policy's tables, see
    :mod:`ecarte_sim.engine.ecarte.decisions.policies`.
``rec`` (int64, ``REC.size``)
    what happened: ``REC`` in :mod:`ecarte_sim.engine.ecarte.records`;
    :class:`ecarte_sim.engine.ecarte.deals.runner.WholeDeal` reads it by name.

Every random word comes from deal ``index``'s sub-stream (the deal, then PIMC's
worlds), so a deal is a pure function of ``(seed, index, cfg, script)``: two policies
run on the same index see the same hands, turn-up and stock order (common random
numbers).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import N_CARDS, popcount32
from ecarte_sim.engine.ecarte.decisions.policies import (S_FORCED, S_PRIORITY, dealer_accepts,
                                                         elder_proposes, score_slot, thrown_cards)
from ecarte_sim.engine.ecarte.laws.deal import TURN_UP_POSITION, deal_full
from ecarte_sim.engine.ecarte.laws.tricks import ELDER, leader_wins
from ecarte_sim.engine.ecarte.play.inferred_worlds import (INFER_WORK_ROWS, MAX_PARTICLES,
                                                           PARTICLE_COLUMNS, pimc_inferred_card)
from ecarte_sim.engine.ecarte.play.players import (dd_card, heuristic_card, pimc_card, reveal,
                                                   scripted_card)
from ecarte_sim.engine.ecarte.play.reading import pimc_king_card
from ecarte_sim.engine.ecarte.records import MAX_EXCHANGES, PAYOFF, REC, Law49, ProposalsEnd
from ecarte_sim.engine.ecarte.search.moves import legal_moves
from ecarte_sim.engine.ecarte.search.solver import (DEALER_POINT, DEALER_VOLE, ELDER_POINT,
                                                    ELDER_VOLE, point_vole)
from ecarte_sim.engine.ecarte.settings import CFG, DealerFirst, ElderFirst, PlayModel

#: Field offsets of the ``cfg`` and ``rec`` arrays, as kernel constants.
C = CFG.at
R = REC.at
Y = PAYOFF.at
# plain ints: numba reads module-level ints as constants, not a Layout's attributes
REC_SIZE, PAYOFF_SIZE = REC.size, PAYOFF.size
_KING = 7
_FULL = np.uint32(0xFFFFFFFF)


@njit(cache=True)
def outcome_of(tricks):
    if tricks == 5:
        return ELDER_VOLE
    if tricks >= 3:
        return ELDER_POINT
    if tricks == 0:
        return DEALER_VOLE
    return DEALER_POINT


@njit(cache=True)
def points_for(outcome, first):
    """(elder points, dealer points) of the trick play (Laws 48–49)."""
    if outcome == ELDER_VOLE:
        return 2, 0
    if outcome == ELDER_POINT:
        return (2 if first == Law49.REFUSED_FIRST else 1), 0
    if outcome == DEALER_VOLE:
        return 0, 2
    return 0, (2 if first == Law49.PLAYED_WITHOUT_PROPOSING else 1)


def payoff_table(first) -> np.ndarray:
    """``PAYOFF`` scratch with the deal's points by the elder's tricks (Laws 48–49), as the
    single-decision kernels read it (elder's points minus the dealer's, 0..5 tricks)."""
    payoff = np.zeros(PAYOFF.size, dtype=np.int64)
    for t in range(6):
        pe, pd = points_for(outcome_of(t), first)
        payoff[PAYOFF.at.POINTS + t] = pe - pd
    return payoff


@njit(cache=True)
def _draw(perm, used, count):
    """Mask of the next ``count`` stock cards (top first)."""
    out = np.uint32(0)
    for j in range(count):
        out |= np.uint32(1) << np.uint32(perm[TURN_UP_POSITION + 1 + used + j])
    return out


@njit(cache=True)
def _exchange(hand, out, perm, used):
    """Discard ``out`` (:func:`~ecarte_sim.engine.ecarte.decisions.policies.thrown_cards`) and draw
    as many from the top of the stock. Returns (new hand, cards discarded, cards drawn)."""
    drawn = _draw(perm, used, popcount32(out))
    return (hand ^ out) | drawn, out, drawn


@njit(cache=True)
def _exchanges(cfg, script, rec, perm, elder, dealer, turn_up):
    """Section 1 of the contract. Returns the hands at the start of play."""
    trump = turn_up >> 3
    slot = score_slot(cfg[C.ELDER_SCORE], cfg[C.DEALER_SCORE])
    used = np.int64(0)      # not literals: see _play
    rnd = np.int64(0)
    max_proposals = cfg[C.MAX_PROPOSALS]
    while True:
        left = N_CARDS - TURN_UP_POSITION - 1 - used
        if left == 0:
            rec[R.HOW_ENDED] = ProposalsEnd.STOCK_EXHAUSTED
            break
        if max_proposals > 0 and rnd >= max_proposals:
            rec[R.HOW_ENDED] = ProposalsEnd.PROPOSAL_LIMIT
            break
        if rnd < cfg[C.ELDER_FORCED_ROUNDS]:
            proposes = ((cfg[C.ELDER_FORCED_SAYS] >> rnd) & 1) != 0
        elif rnd == 0 and cfg[C.ELDER_FIRST] != ElderFirst.BY_POLICY:
            proposes = cfg[C.ELDER_FIRST] == ElderFirst.PROPOSE
        else:
            proposes = elder_proposes(cfg[C.ELDER_POLICY], cfg[C.THRESHOLD], elder, trump,
                                      rnd, script, turn_up, slot)
        if not proposes:
            rec[R.HOW_ENDED] = ProposalsEnd.ELDER_PLAYED
            if rnd == 0:
                rec[R.FIRST] = Law49.PLAYED_WITHOUT_PROPOSING
            break
        if rnd < cfg[C.DEALER_FORCED_ROUNDS]:
            accepts = ((cfg[C.DEALER_FORCED_SAYS] >> rnd) & 1) != 0
        elif rnd == 0 and cfg[C.DEALER_FIRST] != DealerFirst.BY_POLICY:
            accepts = cfg[C.DEALER_FIRST] == DealerFirst.ACCEPT
        else:
            accepts = dealer_accepts(cfg[C.DEALER_POLICY], dealer, trump, rnd, script,
                                     turn_up, slot)
        if not accepts:
            rec[R.HOW_ENDED] = ProposalsEnd.DEALER_REFUSED
            if rnd == 0:
                rec[R.FIRST] = Law49.REFUSED_FIRST
            break
        if rnd < cfg[C.ELDER_FORCED_DISCARDS]:
            out = np.uint32(cfg[C.ELDER_THROWN + rnd]) & np.uint32(elder)
        else:
            out = thrown_cards(cfg, script, ELDER, elder, trump, rnd, left, turn_up, slot)
        elder, out, drawn = _exchange(elder, out, perm, used)
        used += popcount32(drawn)
        left -= popcount32(drawn)
        if rnd < cfg[C.DEALER_FORCED_DISCARDS]:
            d_out = np.uint32(cfg[C.DEALER_THROWN + rnd]) & np.uint32(dealer)
        else:
            d_out = thrown_cards(cfg, script, 1 - ELDER, dealer, trump, rnd, left, turn_up,
                                 slot)
        dealer, d_out, d_drawn = _exchange(dealer, d_out, perm, used)
        used += popcount32(d_drawn)
        if rnd < MAX_EXCHANGES:
            base = R.EXCHANGE_CARDS + 4 * rnd
            rec[base] = out
            rec[base + 1] = drawn
            rec[base + 2] = d_out
            rec[base + 3] = d_drawn
        rnd += 1
    rec[R.EXCHANGES] = rnd
    rec[R.STOCK_USED] = used
    return elder, dealer


@njit(cache=True)
def _play(seed, index, cfg, script, rec, elder, dealer, turn_up, seen_e, seen_d, pool,
          draws, payoff, infer):
    """Section 3, card by card. Returns the elder's tricks. ``infer``: see
    :func:`inference_scratch` (None: compiled without the pimc-inference player)."""
    trump = turn_up >> 3
    forced = cfg[C.FORCED_TRUMP] != 0
    worlds = cfg[C.WORLDS]
    # Every loop variable starts with the type the loop gives it (numba widens uint32
    # arithmetic to uint64): a narrower or literal first value would make numba compile
    # each card function a second time, for a type no call has (the cold start).
    e = np.uint64(np.uint32(elder))
    d = np.uint64(np.uint32(dealer))
    not_held_e = np.uint32(0)  # proved absent from the elder's hand by his play
    not_held_d = np.uint32(0)
    played = np.uint64(0)
    played_e = np.uint64(0)  # the cards each player has played
    played_d = np.uint64(0)
    # pimc-inference, pimc-king: each player's history particles, drawn at his first choice
    particles = np.empty((2, MAX_PARTICLES, PARTICLE_COLUMNS), dtype=np.int64)
    particle_state = np.zeros((2, 2), dtype=np.int64)
    infer_work = np.empty((2, INFER_WORK_ROWS, N_CARDS), dtype=np.int64)
    leader = np.int64(ELDER)
    tricks = np.int64(0)
    j = np.int64(0)
    for _ in range(5):
        led = np.int64(-1)
        for half in range(2):
            mover = leader if half == 0 else 1 - leader
            own = e if mover == ELDER else d
            model = cfg[C.ELDER_PLAY] if mover == ELDER else cfg[C.DEALER_PLAY]
            rec[R.POSSIBLE + j] = -1
            forced_card = script[S_FORCED + 5 * mover + 5 - popcount32(own)] - 1
            if forced_card >= 0 and (legal_moves(own, led, trump, forced)
                                     >> np.uint32(forced_card)) & np.uint32(1):
                card = forced_card
            elif model == PlayModel.DD:
                card = dd_card(mover, e, d, leader, tricks, led, trump, forced)
            elif model == PlayModel.SCRIPTED:
                legal = legal_moves(own, led, trump, forced)
                card = scripted_card(legal, script[S_PRIORITY:S_PRIORITY + N_CARDS])
            else:
                before = seen_e if mover == ELDER else seen_d
                possible = ~(before | played | own) \
                    & ~(not_held_d if mover == ELDER else not_held_e) & _FULL
                rec[R.POSSIBLE + j] = possible
                if model == PlayModel.HEURISTIC:
                    card = heuristic_card(own, led, trump, forced, possible)
                elif model == PlayModel.PIMC:
                    card = pimc_card(mover, e, d, leader, tricks, led, trump, forced,
                                     possible, worlds, seed, index, j, payoff, pool, draws)
                elif infer is None:     # numba drops the branch below: never compiled
                    raise ValueError("pimc-inference and pimc-king need the kernel compiled "
                                     "with it (inference_scratch)")
                elif model == PlayModel.PIMC_KING:
                    # the engine's players always announce the king (Law 23): silence
                    # proves he has not it (a concealing policy of 0)
                    shown = played_d if mover == ELDER else played_e
                    card = pimc_king_card(mover, e, d, leader, tricks, led, trump, forced,
                                          possible, worlds, seed, index, j, payoff, pool,
                                          draws, cfg, script, rec, ~before & _FULL, shown,
                                          particles[mover], particle_state[mover],
                                          infer_work[mover], 0)
                else:
                    shown = played_d if mover == ELDER else played_e
                    card = pimc_inferred_card(mover, e, d, leader, tricks, led, trump, forced,
                                              possible, worlds, seed, index, j, payoff, pool,
                                              draws, cfg, script, rec, ~before & _FULL, shown,
                                              particles[mover], particle_state[mover],
                                              infer_work[mover])
            bit = np.uint32(1) << np.uint32(card)
            if mover == ELDER:
                e ^= bit
                played_e |= bit
            else:
                d ^= bit
                played_d |= bit
            played |= bit
            rec[R.PLAY + j] = card
            j += 1
            if half == 0:
                led = card
            else:
                if mover == ELDER:
                    not_held_e = reveal(not_held_e, led, card, trump, forced)
                else:
                    not_held_d = reveal(not_held_d, led, card, trump, forced)
                if not leader_wins(led, card, trump):
                    leader = mover
                if leader == ELDER:
                    tricks += 1
    return tricks


#: The play models that read the history (particles): compiled only with ``infer``.
_INFERRING = (int(PlayModel.PIMC_INFERENCE), int(PlayModel.PIMC_KING))


def inference_scratch(*cfgs: np.ndarray) -> np.ndarray | None:
    """The ``infer`` argument of :func:`whole_deal` and :func:`play_dealt` for a run of
    ``cfgs``: an array when a player of one of them plays pimc-inference or pimc-king, None when none
    does. numba compiles a kernel once per type of ``infer``, and with None it leaves the
    pimc-inference player out (:mod:`..play.inferred_worlds`, about 40% of the whole-deal
    kernel's compilation): a run that never infers never compiles it. (A cfg that asks for
    pimc-inference in a kernel compiled without it raises ``ValueError``.)"""
    inferring = any(int(cfg[C.ELDER_PLAY]) in _INFERRING
                    or int(cfg[C.DEALER_PLAY]) in _INFERRING for cfg in cfgs)
    return np.zeros(1, dtype=np.int64) if inferring else None


@njit(cache=True)
def whole_deal(seed, index, cfg, script, rec, perm, draws, pool, payoff, infer):
    """Play deal ``index`` of ``seed`` under ``cfg``/``script``; fill ``rec``.

    ``perm``, ``draws``, ``pool`` are int64 scratch of length 32; ``payoff`` int64 scratch laid out by ``PAYOFF`` (:mod:`..records`).
    ``infer``: :func:`inference_scratch` of the run's cfgs.
    """
    elder0, dealer0, turn_up = deal_full(seed, index, perm, draws)
    play_dealt(seed, index, cfg, script, rec, perm, draws, pool, payoff, elder0, dealer0,
               turn_up, infer)


@njit(cache=True)
def play_dealt(seed, index, cfg, script, rec, perm, draws, pool, payoff, elder0, dealer0,
               turn_up, infer):
    """:func:`whole_deal` from a deal already made: hands ``elder0``/``dealer0``, the
    ``turn_up`` card and the stock in ``perm[11:]`` (top first). ``seed``/``index`` key
    PIMC's worlds only; ``infer``: :func:`inference_scratch`."""
    rec[:] = 0
    rec[R.ELDER_TRICKS] = -1
    rec[R.OUTCOME] = -1
    rec[R.HOW_ENDED] = -1  # no proposal phase (the game ended at the turn-up)
    trump = turn_up >> 3
    rec[R.ELDER0] = elder0
    rec[R.DEALER0] = dealer0
    rec[R.TURN_UP] = turn_up
    rec[R.ELDER_HAND] = elder0
    rec[R.DEALER_HAND] = dealer0
    target = cfg[C.TARGET]
    marks_e = 0
    marks_d = 0
    if (turn_up & 7) == _KING:
        rec[R.KING_TURNED] = 1
        marks_d += 1
        if target > 0 and cfg[C.DEALER_SCORE] + marks_d >= target:
            rec[R.ENDED] = 1
            rec[R.ELDER_TRICKS] = 0
            rec[R.MARKS_DEALER] = marks_d
            return
    elder, dealer = _exchanges(cfg, script, rec, perm, elder0, dealer0, turn_up)
    rec[R.ELDER_HAND] = elder
    rec[R.DEALER_HAND] = dealer
    king = np.uint32(1) << np.uint32(8 * trump + _KING)
    if elder & king:
        rec[R.KING_ELDER] = 1
        marks_e += 1
        if target > 0 and cfg[C.ELDER_SCORE] + marks_e >= target:
            rec[R.ENDED] = 1
    elif dealer & king:
        rec[R.KING_DEALER] = 1
        marks_d += 1
        if target > 0 and cfg[C.DEALER_SCORE] + marks_d >= target:
            rec[R.ENDED] = 1
    if rec[R.ENDED]:
        rec[R.ELDER_TRICKS] = 0
        rec[R.MARKS_ELDER] = marks_e
        rec[R.MARKS_DEALER] = marks_d
        return
    forced = cfg[C.FORCED_TRUMP] != 0
    first = rec[R.FIRST]
    fast = (cfg[C.ELDER_PLAY] == PlayModel.DD and cfg[C.DEALER_PLAY] == PlayModel.DD
            and cfg[C.TRICK_BY_TRICK] == 0)
    if fast:
        outcome = point_vole(elder, dealer, trump, forced)
        for j in range(10):
            rec[R.PLAY + j] = -1
    else:
        for t in range(6):
            pe, pd = points_for(outcome_of(t), first)
            payoff[Y.POINTS + t] = pe - pd
        # What each player has seen besides his hand and the cards played: the turn-up,
        # his own hands and discards (and draws) — every card that passed through his hand.
        seen_e = np.uint32(1) << np.uint32(turn_up)
        seen_d = seen_e
        seen_e |= np.uint32(elder0)
        seen_d |= np.uint32(dealer0)
        for x in range(min(rec[R.EXCHANGES], MAX_EXCHANGES)):
            base = R.EXCHANGE_CARDS + 4 * x
            seen_e |= np.uint32(rec[base + 1])
            seen_d |= np.uint32(rec[base + 3])
        payoff[Y.PIMC_DECISIONS:] = 0
        tricks = _play(seed, index, cfg, script, rec, elder, dealer, turn_up, seen_e, seen_d,
                       pool, draws, payoff, infer)
        rec[R.PIMC_DECISIONS] = payoff[Y.PIMC_DECISIONS]
        rec[R.PIMC_SOLVES] = payoff[Y.PIMC_SOLVES]
        rec[R.INFER_WORLDS] = payoff[Y.INFER_WORLDS]
        rec[R.INFER_TRIES] = payoff[Y.INFER_TRIES]
        rec[R.INFER_FALLBACKS] = payoff[Y.INFER_FALLBACKS]
        rec[R.ELDER_TRICKS] = tricks
        outcome = outcome_of(tricks)
    rec[R.OUTCOME] = outcome
    pe, pd = points_for(outcome, first)
    rec[R.POINTS_ELDER] = pe
    rec[R.POINTS_DEALER] = pd
    rec[R.MARKS_ELDER] = marks_e + pe
    rec[R.MARKS_DEALER] = marks_d + pd


@njit(cache=True)
def deal_scratch():
    """Per-row scratch of :func:`whole_deal`: perm, draws, pool, payoff, rec."""
    return (np.empty(N_CARDS, dtype=np.int64), np.empty(N_CARDS, dtype=np.int64),
            np.empty(N_CARDS, dtype=np.int64), np.zeros(PAYOFF_SIZE, dtype=np.int64),
            np.zeros(REC_SIZE, dtype=np.int64))
