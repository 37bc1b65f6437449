"""The whole deal as one numba kernel: marks, proposals, exchanges, play, the point.

The sequence is the contract written out in ``rules_whole_deal.md`` beside this file
(Laws 22–27, 38, 43, 47–49); the pure-Python reference implements the same contract,
and the tests drive both through the same scripted decisions.

Interface (one for every policy, so experiments can run any combination):

``cfg`` (int64, ``N_CFG``)
    policy ids and parameters, variants and the score — see the ``CFG_*`` constants
    and :func:`make_cfg`.
``script`` (int64, ``SCRIPT_LEN``)
    scripted decisions (policy id 0), see :mod:`engine.ecarte.policies`.
``rec`` (int64, ``REC_LEN``)
    what happened, see the ``REC_*`` constants; :func:`play_deal` turns it into a
    :class:`WholeDeal`.

Every random word comes from deal ``index``'s sub-stream (the deal, then PIMC's
worlds), so a deal is a pure function of ``(seed, index, cfg, script)``: two policies
run on the same index see the same hands, turn-up and stock order (common random
numbers).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from functools import partial

import numpy as np
from numba import njit, prange

from engine.cards import N_CARDS, popcount32
from engine.ecarte.deal import TURN_UP_POSITION, deal_full
from engine.ecarte.players import (DEFAULT_WORLDS, MAX_WORLDS, PLAY_DD, PLAY_HEURISTIC,
                                   PLAY_MODELS, PLAY_PIMC, dd_card, heuristic_card,
                                   pimc_card, reveal, scripted_card)
from engine.ecarte.policies import (DEALER_POLICIES, DEFAULT_THRESHOLD, DISCARD_POLICIES,
                                    ELDER_POLICIES, S_DEALER_DISCARD, S_ELDER_DISCARD,
                                    S_PRIORITY, SCRIPT_LEN, dealer_accepts, discard_choice,
                                    elder_proposes, weakest)
from engine.ecarte.simulate import row_range
from engine.ecarte.solver import (DEALER_POINT, DEALER_VOLE, ELDER_POINT, ELDER_VOLE,
                                  legal_moves, new_workspace, point_vole)
from engine.ecarte.tricks import ELDER, leader_wins
from engine.batch import DEFAULT_BLOCK, DEFAULT_CHUNK, reduce_counts
from engine.rng import check_index_range, check_seed

# cfg fields
CFG_ELDER_POLICY = 0
CFG_THRESHOLD = 1
CFG_MAX_PROPOSALS = 2
CFG_DEALER_POLICY = 3
CFG_ELDER_DISCARD = 4
CFG_DEALER_DISCARD = 5
CFG_ELDER_PLAY = 6
CFG_DEALER_PLAY = 7
CFG_WORLDS = 8
CFG_FORCED_TRUMP = 9
CFG_DEALER_MIN_ONE = 10
CFG_ELDER_SCORE = 11
CFG_DEALER_SCORE = 12
CFG_TARGET = 13
CFG_TRICK_BY_TRICK = 14  # 1: play dd card by card (narratives); 0: solve once (fast)
CFG_ELDER_FIRST = 15     # round 0 only: 0 the policy decides, 1 play, 2 propose
CFG_DEALER_FIRST = 16    # round 0 only: 0 the policy decides, 1 refuse, 2 accept
N_CFG = 18
#: Values of CFG_ELDER_FIRST / CFG_DEALER_FIRST: the two arms of a paired experiment.
FIRST_BY_POLICY, FIRST_NO, FIRST_YES = 0, 1, 2
ELDER_FIRST = {None: FIRST_BY_POLICY, "play": FIRST_NO, "propose": FIRST_YES}
DEALER_FIRST = {None: FIRST_BY_POLICY, "refuse": FIRST_NO, "accept": FIRST_YES}

NONE, PLAYED_WITHOUT_PROPOSING, REFUSED_FIRST = 0, 1, 2
FIRST_NAMES = ("none", "played-without-proposing", "refused-first")
# how the proposals ended
END_ELDER_PLAYED, END_DEALER_REFUSED, END_STOCK_OUT, END_LIMIT = 0, 1, 2, 3
END_NAMES = ("elder-played", "dealer-refused", "stock-exhausted", "proposal-limit")

# rec fields
REC_ELDER0, REC_DEALER0, REC_TURN_UP = 0, 1, 2
REC_KING_TURNED, REC_ENDED, REC_FIRST = 3, 4, 5
REC_EXCHANGES, REC_HOW_ENDED, REC_STOCK_USED = 6, 7, 8   # HOW_ENDED: END_* or -1
REC_ELDER_HAND, REC_DEALER_HAND = 9, 10
REC_KING_ELDER, REC_KING_DEALER = 11, 12
REC_ELDER_TRICKS = 13       # -1 when the fast double-dummy path gave only the outcome; 0 if ended
REC_OUTCOME = 14            # DEALER_VOLE .. ELDER_VOLE (engine.ecarte.solver), -1 if no play
REC_POINTS_ELDER, REC_POINTS_DEALER = 15, 16
REC_MARKS_ELDER, REC_MARKS_DEALER = 17, 18
REC_PLAY = 20               # 10 cards in the order played
REC_PIMC_DECISIONS, REC_PIMC_SOLVES = 30, 31   # PIMC's work in this deal
REC_EXCHANGE = 32           # 4 masks per exchange: E, elder drawn, D, dealer drawn
MAX_EXCHANGES = 21
REC_POSSIBLE = REC_EXCHANGE + 4 * MAX_EXCHANGES  # 10: cards the mover thought the opponent
#                                                   might hold, per card played (-1: dd/scripted)
REC_LEN = REC_POSSIBLE + 10

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
        return (2 if first == REFUSED_FIRST else 1), 0
    if outcome == DEALER_VOLE:
        return 0, 2
    return 0, (2 if first == PLAYED_WITHOUT_PROPOSING else 1)


@njit(cache=True)
def _draw(perm, used, count):
    """Mask of the next ``count`` stock cards (top first)."""
    out = np.uint32(0)
    for j in range(count):
        out |= np.uint32(1) << np.uint32(perm[TURN_UP_POSITION + 1 + used + j])
    return out


@njit(cache=True)
def _exchange(hand, out, left, perm, used, trump):
    """Discard ``out`` (cut to the ``left`` weakest, Law 38) and draw as many from the top
    of the stock. Returns (new hand, cards discarded, cards drawn)."""
    if popcount32(out) > left:
        out = weakest(out, left, trump)
    drawn = _draw(perm, used, popcount32(out))
    return (hand ^ out) | drawn, out, drawn


@njit(cache=True)
def _exchanges(cfg, script, rec, perm, elder, dealer, trump):
    """Section 1 of the contract. Returns the hands at the start of play."""
    used = 0
    rnd = 0
    max_proposals = cfg[CFG_MAX_PROPOSALS]
    while True:
        left = N_CARDS - TURN_UP_POSITION - 1 - used
        if left == 0:
            rec[REC_HOW_ENDED] = END_STOCK_OUT
            break
        if max_proposals > 0 and rnd >= max_proposals:
            rec[REC_HOW_ENDED] = END_LIMIT
            break
        if rnd == 0 and cfg[CFG_ELDER_FIRST] != FIRST_BY_POLICY:
            proposes = cfg[CFG_ELDER_FIRST] == FIRST_YES
        else:
            proposes = elder_proposes(cfg[CFG_ELDER_POLICY], cfg[CFG_THRESHOLD], elder, trump,
                                      rnd, script)
        if not proposes:
            rec[REC_HOW_ENDED] = END_ELDER_PLAYED
            if rnd == 0:
                rec[REC_FIRST] = PLAYED_WITHOUT_PROPOSING
            break
        if rnd == 0 and cfg[CFG_DEALER_FIRST] != FIRST_BY_POLICY:
            accepts = cfg[CFG_DEALER_FIRST] == FIRST_YES
        else:
            accepts = dealer_accepts(cfg[CFG_DEALER_POLICY], dealer, trump, rnd, script)
        if not accepts:
            rec[REC_HOW_ENDED] = END_DEALER_REFUSED
            if rnd == 0:
                rec[REC_FIRST] = REFUSED_FIRST
            break
        out = discard_choice(cfg[CFG_ELDER_DISCARD], elder, trump, rnd, script, S_ELDER_DISCARD)
        if out == 0:
            out = weakest(elder, 1, trump)  # the elder discards at least one
        elder, out, drawn = _exchange(elder, out, left, perm, used, trump)
        used += popcount32(drawn)
        left -= popcount32(drawn)
        d_out = discard_choice(cfg[CFG_DEALER_DISCARD], dealer, trump, rnd, script,
                               S_DEALER_DISCARD)
        if d_out == 0 and cfg[CFG_DEALER_MIN_ONE] != 0 and left > 0:
            d_out = weakest(dealer, 1, trump)
        dealer, d_out, d_drawn = _exchange(dealer, d_out, left, perm, used, trump)
        used += popcount32(d_drawn)
        if rnd < MAX_EXCHANGES:
            base = REC_EXCHANGE + 4 * rnd
            rec[base] = out
            rec[base + 1] = drawn
            rec[base + 2] = d_out
            rec[base + 3] = d_drawn
        rnd += 1
    rec[REC_EXCHANGES] = rnd
    rec[REC_STOCK_USED] = used
    return elder, dealer


@njit(cache=True)
def _play(seed, index, cfg, script, rec, elder, dealer, turn_up, seen_e, seen_d, ws, pool,
          draws, payoff):
    """Section 3, card by card. Returns the elder's tricks."""
    trump = turn_up >> 3
    forced = cfg[CFG_FORCED_TRUMP] != 0
    worlds = cfg[CFG_WORLDS]
    e = np.uint32(elder)
    d = np.uint32(dealer)
    not_held_e = np.uint32(0)  # proved absent from the elder's hand by his play
    not_held_d = np.uint32(0)
    played = np.uint32(0)
    leader = ELDER
    tricks = 0
    j = 0
    for _ in range(5):
        led = -1
        for half in range(2):
            mover = leader if half == 0 else 1 - leader
            own = e if mover == ELDER else d
            model = cfg[CFG_ELDER_PLAY] if mover == ELDER else cfg[CFG_DEALER_PLAY]
            rec[REC_POSSIBLE + j] = -1
            if model == PLAY_DD:
                card = dd_card(mover, e, d, leader, tricks, led, trump, forced, ws)
            elif model == PLAY_HEURISTIC or model == PLAY_PIMC:
                seen = (seen_e if mover == ELDER else seen_d) | played | own
                possible = ~seen & ~(not_held_d if mover == ELDER else not_held_e) & _FULL
                rec[REC_POSSIBLE + j] = possible
                if model == PLAY_HEURISTIC:
                    card = heuristic_card(own, led, trump, forced, possible)
                else:
                    card = pimc_card(mover, e, d, leader, tricks, led, trump, forced,
                                     possible, worlds, seed, index, j, payoff, ws, pool, draws)
            else:
                legal = legal_moves(own, led, trump, forced)
                card = scripted_card(legal, script[S_PRIORITY:S_PRIORITY + N_CARDS])
            bit = np.uint32(1) << np.uint32(card)
            if mover == ELDER:
                e ^= bit
            else:
                d ^= bit
            played |= bit
            rec[REC_PLAY + j] = card
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


@njit(cache=True)
def whole_deal(seed, index, cfg, script, rec, ws, perm, draws, pool, payoff):
    """Play deal ``index`` of ``seed`` under ``cfg``/``script``; fill ``rec``.

    ``ws`` is a solver workspace; ``perm``, ``draws``, ``pool`` int64 scratch of length
    32; ``payoff`` int64 scratch of length 8 (PIMC's score table and work counters).
    """
    elder0, dealer0, turn_up = deal_full(seed, index, perm, draws)
    play_dealt(seed, index, cfg, script, rec, ws, perm, draws, pool, payoff, elder0, dealer0,
               turn_up)


@njit(cache=True)
def play_dealt(seed, index, cfg, script, rec, ws, perm, draws, pool, payoff, elder0, dealer0,
               turn_up):
    """:func:`whole_deal` from a deal already made: hands ``elder0``/``dealer0``, the
    ``turn_up`` card and the stock in ``perm[11:]`` (top first). ``seed``/``index`` key
    PIMC's worlds only."""
    rec[:] = 0
    rec[REC_ELDER_TRICKS] = -1
    rec[REC_OUTCOME] = -1
    rec[REC_HOW_ENDED] = -1  # no proposal phase (the game ended at the turn-up)
    trump = turn_up >> 3
    rec[REC_ELDER0] = elder0
    rec[REC_DEALER0] = dealer0
    rec[REC_TURN_UP] = turn_up
    rec[REC_ELDER_HAND] = elder0
    rec[REC_DEALER_HAND] = dealer0
    target = cfg[CFG_TARGET]
    marks_e = 0
    marks_d = 0
    if (turn_up & 7) == _KING:
        rec[REC_KING_TURNED] = 1
        marks_d += 1
        if target > 0 and cfg[CFG_DEALER_SCORE] + marks_d >= target:
            rec[REC_ENDED] = 1
            rec[REC_ELDER_TRICKS] = 0
            rec[REC_MARKS_DEALER] = marks_d
            return
    elder, dealer = _exchanges(cfg, script, rec, perm, elder0, dealer0, trump)
    rec[REC_ELDER_HAND] = elder
    rec[REC_DEALER_HAND] = dealer
    king = np.uint32(1) << np.uint32(8 * trump + _KING)
    if elder & king:
        rec[REC_KING_ELDER] = 1
        marks_e += 1
        if target > 0 and cfg[CFG_ELDER_SCORE] + marks_e >= target:
            rec[REC_ENDED] = 1
    elif dealer & king:
        rec[REC_KING_DEALER] = 1
        marks_d += 1
        if target > 0 and cfg[CFG_DEALER_SCORE] + marks_d >= target:
            rec[REC_ENDED] = 1
    if rec[REC_ENDED]:
        rec[REC_ELDER_TRICKS] = 0
        rec[REC_MARKS_ELDER] = marks_e
        rec[REC_MARKS_DEALER] = marks_d
        return
    forced = cfg[CFG_FORCED_TRUMP] != 0
    first = rec[REC_FIRST]
    fast = (cfg[CFG_ELDER_PLAY] == PLAY_DD and cfg[CFG_DEALER_PLAY] == PLAY_DD
            and cfg[CFG_TRICK_BY_TRICK] == 0)
    if fast:
        outcome = point_vole(elder, dealer, trump, forced, ws)
        for j in range(10):
            rec[REC_PLAY + j] = -1
    else:
        for t in range(6):
            pe, pd = points_for(outcome_of(t), first)
            payoff[t] = pe - pd
        # What each player has seen besides his hand and the cards played: the turn-up,
        # his own hands and discards (and draws) — every card that passed through his hand.
        seen_e = np.uint32(1) << np.uint32(turn_up)
        seen_d = seen_e
        seen_e |= np.uint32(elder0)
        seen_d |= np.uint32(dealer0)
        for x in range(min(rec[REC_EXCHANGES], MAX_EXCHANGES)):
            base = REC_EXCHANGE + 4 * x
            seen_e |= np.uint32(rec[base + 1])
            seen_d |= np.uint32(rec[base + 3])
        payoff[6] = 0
        payoff[7] = 0
        tricks = _play(seed, index, cfg, script, rec, elder, dealer, turn_up, seen_e, seen_d,
                       ws, pool, draws, payoff)
        rec[REC_PIMC_DECISIONS] = payoff[6]
        rec[REC_PIMC_SOLVES] = payoff[7]
        rec[REC_ELDER_TRICKS] = tricks
        outcome = outcome_of(tricks)
    rec[REC_OUTCOME] = outcome
    pe, pd = points_for(outcome, first)
    rec[REC_POINTS_ELDER] = pe
    rec[REC_POINTS_DEALER] = pd
    rec[REC_MARKS_ELDER] = marks_e + pe
    rec[REC_MARKS_DEALER] = marks_d + pd


# ---------------------------------------------------------------------------
# Python layer
# ---------------------------------------------------------------------------

def _lookup(table: dict, name, what: str) -> int:
    if name not in table:
        raise ValueError(f"unknown {what} {name!r}; choose from "
                         f"{', '.join(k for k in table if k not in ('scripted', None))}")
    return table[name]


def make_cfg(elder_policy: str = "regle", dealer_policy: str = "maxims",
             elder_discard: str = "trumps-kings", dealer_discard: str = "trumps-kings",
             play: str = "dd", elder_play: str | None = None, dealer_play: str | None = None,
             worlds: int = DEFAULT_WORLDS, threshold: int = DEFAULT_THRESHOLD,
             max_proposals: int = 0, forced_trump: bool = True, dealer_min_one: bool = False,
             elder_score: int = 0, dealer_score: int = 0, target: int = 0,
             trick_by_trick: bool = False, elder_first: str | None = None,
             dealer_first: str | None = None) -> np.ndarray:
    """The ``cfg`` array from policy names (see :mod:`engine.ecarte.policies` and
    :mod:`engine.ecarte.players`). ``play`` sets both players' model unless
    ``elder_play``/``dealer_play`` is given. ``max_proposals=1`` is the single-exchange
    variant; ``target=5`` stops the deal when a mark reaches five (from the given score).
    ``elder_first`` (``"play"``/``"propose"``) and ``dealer_first`` (``"accept"``/
    ``"refuse"``) force the first decision only (round 0), the policy deciding the later
    rounds: the two arms of a paired experiment on the same deal."""
    cfg = np.zeros(N_CFG, dtype=np.int64)
    cfg[CFG_ELDER_POLICY] = _lookup(ELDER_POLICIES, elder_policy, "elder policy")
    cfg[CFG_DEALER_POLICY] = _lookup(DEALER_POLICIES, dealer_policy, "dealer policy")
    cfg[CFG_ELDER_DISCARD] = _lookup(DISCARD_POLICIES, elder_discard, "discard policy")
    cfg[CFG_DEALER_DISCARD] = _lookup(DISCARD_POLICIES, dealer_discard, "discard policy")
    cfg[CFG_ELDER_PLAY] = _lookup(PLAY_MODELS, elder_play or play, "play model")
    cfg[CFG_DEALER_PLAY] = _lookup(PLAY_MODELS, dealer_play or play, "play model")
    if not 1 <= int(worlds) <= MAX_WORLDS:
        raise ValueError(f"worlds must be in 1..{MAX_WORLDS}, got {worlds}")
    if int(max_proposals) < 0:
        raise ValueError(f"max_proposals must be >= 0 (0 = no limit), got {max_proposals}")
    if int(target) < 0:
        raise ValueError(f"target must be >= 0 (0 = no game), got {target}")
    for name, score in (("elder score", elder_score), ("dealer score", dealer_score)):
        if int(score) < 0 or (int(target) > 0 and int(score) >= int(target)):
            raise ValueError(f"{name} must be in 0..{max(int(target) - 1, 0)}, got {score}")
    cfg[CFG_WORLDS] = int(worlds)
    cfg[CFG_THRESHOLD] = int(threshold)
    cfg[CFG_MAX_PROPOSALS] = int(max_proposals)
    cfg[CFG_FORCED_TRUMP] = int(bool(forced_trump))
    cfg[CFG_DEALER_MIN_ONE] = int(bool(dealer_min_one))
    cfg[CFG_ELDER_SCORE] = int(elder_score)
    cfg[CFG_DEALER_SCORE] = int(dealer_score)
    cfg[CFG_TARGET] = int(target)
    cfg[CFG_TRICK_BY_TRICK] = int(bool(trick_by_trick))
    cfg[CFG_ELDER_FIRST] = _lookup(ELDER_FIRST, elder_first, "elder first decision")
    cfg[CFG_DEALER_FIRST] = _lookup(DEALER_FIRST, dealer_first, "dealer first decision")
    return cfg


def empty_script() -> np.ndarray:
    script = np.zeros(SCRIPT_LEN, dtype=np.int64)
    script[S_PRIORITY:] = np.arange(N_CARDS)
    return script


@dataclass(frozen=True)
class WholeDeal:
    """One whole deal (field names as in ``engine.ecarte.reference.WholeDeal``)."""

    elder0: int
    dealer0: int
    turn_up: int
    king_turned: int
    ended: int
    first: int
    exchanges: tuple
    elder_hand: int
    dealer_hand: int
    king_elder: int
    king_dealer: int
    play: tuple
    elder_tricks: int
    points_elder: int
    points_dealer: int
    marks_elder: int
    marks_dealer: int
    how_ended: int = 0
    outcome: int = -1

    @classmethod
    def from_record(cls, rec: np.ndarray) -> "WholeDeal":
        n = int(min(rec[REC_EXCHANGES], MAX_EXCHANGES))
        ex = tuple(tuple(int(rec[REC_EXCHANGE + 4 * x + k]) for k in range(4)) for x in range(n))
        play = tuple(int(c) for c in rec[REC_PLAY:REC_PLAY + 10] if c >= 0) \
            if not rec[REC_ENDED] else ()
        return cls(int(rec[REC_ELDER0]), int(rec[REC_DEALER0]), int(rec[REC_TURN_UP]),
                   int(rec[REC_KING_TURNED]), int(rec[REC_ENDED]), int(rec[REC_FIRST]), ex,
                   int(rec[REC_ELDER_HAND]), int(rec[REC_DEALER_HAND]),
                   int(rec[REC_KING_ELDER]), int(rec[REC_KING_DEALER]), play,
                   int(rec[REC_ELDER_TRICKS]), int(rec[REC_POINTS_ELDER]),
                   int(rec[REC_POINTS_DEALER]), int(rec[REC_MARKS_ELDER]),
                   int(rec[REC_MARKS_DEALER]), int(rec[REC_HOW_ENDED]), int(rec[REC_OUTCOME]))


class DealRunner:
    """Scratch space for playing single deals from Python (one per thread)."""

    def __init__(self):
        self.ws = new_workspace()
        self.perm = np.empty(N_CARDS, dtype=np.int64)
        self.draws = np.empty(N_CARDS, dtype=np.int64)
        self.pool = np.empty(N_CARDS, dtype=np.int64)
        self.payoff = np.zeros(8, dtype=np.int64)
        self.rec = np.zeros(REC_LEN, dtype=np.int64)

    def play(self, seed: int, index: int, cfg: np.ndarray, script: np.ndarray | None = None
             ) -> WholeDeal:
        seed = check_seed(seed)
        check_index_range(index, int(index) + 1)
        if cfg.shape != (N_CFG,) or cfg.dtype != np.int64:
            raise ValueError("cfg must come from make_cfg()")
        if script is None:
            script = empty_script()
        elif script.shape != (SCRIPT_LEN,) or script.dtype != np.int64:
            raise ValueError(f"script must be {SCRIPT_LEN} int64 values (see policies)")
        whole_deal(np.uint64(seed), np.uint64(index), cfg, script, self.rec, self.ws, self.perm,
                   self.draws, self.pool, self.payoff)
        return WholeDeal.from_record(self.rec)


def play_deal(seed: int, index: int, cfg: np.ndarray | None = None,
              script: np.ndarray | None = None) -> WholeDeal:
    """One whole deal (convenience; allocates scratch each call)."""
    return DealRunner().play(seed, index, make_cfg() if cfg is None else cfg, script)



# ---------------------------------------------------------------------------
# Parallel driver
# ---------------------------------------------------------------------------

#: Count columns of :func:`whole_counts`.
COL_MARKS = 0          # 16 cells: 4 * elder marks + dealer marks (each 0..3)
COL_OUTCOME = 16       # 4: DEALER_VOLE, DEALER_POINT, ELDER_POINT, ELDER_VOLE
COL_FIRST = 20         # 3: none, played without proposing, refused first
COL_EXCHANGES = 23     # total accepted exchanges
COL_ENDED = 24         # deals that ended the game before play
COL_KING_TURNED, COL_KING_ELDER, COL_KING_DEALER = 25, 26, 27
COL_STOCK_OUT = 28     # deals whose proposals ended with the stock exhausted
COL_PIMC_DECISIONS, COL_PIMC_SOLVES = 29, 30   # PIMC's work (decisions sampled, solves)
COL_DEAL = 32          # 20 cells: 5 * king + points, see deal_code (the marks in law order)
WHOLE_WIDTH = COL_DEAL + 20
#: deal_code parts: who marked a king, and the point (Laws 22-24, 47-49).
KINGS = ("none", "turned-up (dealer)", "elder in hand", "dealer in hand")
POINTS = ("elder 1", "elder 2", "dealer 1", "dealer 2", "none (game over first)")


@njit(cache=True)
def king_code(rec):
    """Who marked a king in the deal (index of ``KINGS``)."""
    if rec[REC_KING_TURNED]:
        return 1
    if rec[REC_KING_ELDER]:
        return 2
    if rec[REC_KING_DEALER]:
        return 3
    return 0


@njit(cache=True)
def deal_code(rec):
    """``5 * king + points`` (see ``KINGS``, ``POINTS``): what a deal gave, in the order
    the marks are made — enough to replay it at any score."""
    king = king_code(rec)
    if rec[REC_POINTS_ELDER]:
        points = rec[REC_POINTS_ELDER] - 1
    elif rec[REC_POINTS_DEALER]:
        points = 1 + rec[REC_POINTS_DEALER]
    else:
        points = 4
    return 5 * king + points


@njit(cache=True)
def _scratch():
    """Per-row scratch of :func:`whole_deal`: perm, draws, pool, payoff, rec."""
    return (np.empty(N_CARDS, dtype=np.int64), np.empty(N_CARDS, dtype=np.int64),
            np.empty(N_CARDS, dtype=np.int64), np.zeros(8, dtype=np.int64),
            np.zeros(REC_LEN, dtype=np.int64))


@njit(cache=True, parallel=True)
def whole_rows(seed, start, count, rows, cfg, script, ws_template):
    """Counts (see ``COL_*``) for deals ``[start, start + count)`` in ``rows`` rows."""
    counts = np.zeros((rows, WHOLE_WIDTH), dtype=np.int64)
    for r in prange(rows):
        lo, hi = row_range(start, count, rows, r)
        perm, draws, pool, payoff, rec = _scratch()
        ws = ws_template.copy()
        for i in range(lo, hi):
            whole_deal(seed, np.uint64(i), cfg, script, rec, ws, perm, draws, pool, payoff)
            counts[r, COL_MARKS + 4 * rec[REC_MARKS_ELDER] + rec[REC_MARKS_DEALER]] += 1
            if rec[REC_OUTCOME] >= 0:
                counts[r, COL_OUTCOME + rec[REC_OUTCOME]] += 1
            counts[r, COL_FIRST + rec[REC_FIRST]] += 1
            counts[r, COL_EXCHANGES] += rec[REC_EXCHANGES]
            counts[r, COL_ENDED] += rec[REC_ENDED]
            counts[r, COL_KING_TURNED] += rec[REC_KING_TURNED]
            counts[r, COL_KING_ELDER] += rec[REC_KING_ELDER]
            counts[r, COL_KING_DEALER] += rec[REC_KING_DEALER]
            if rec[REC_HOW_ENDED] == END_STOCK_OUT:
                counts[r, COL_STOCK_OUT] += 1
            counts[r, COL_PIMC_DECISIONS] += rec[REC_PIMC_DECISIONS]
            counts[r, COL_PIMC_SOLVES] += rec[REC_PIMC_SOLVES]
            counts[r, COL_DEAL + deal_code(rec)] += 1
    return counts


#: Deals per task when a player uses PIMC (~10^4 deals a second on two cores): small
#: enough that a cluster gets many tasks, big enough that a task's overhead stays small
#: (the task size never changes a count).
PIMC_TASK = 1 << 13


def task_block(*play_models: str) -> int:
    """Default deals per task when the players use these play models."""
    return PIMC_TASK if "pimc" in play_models else DEFAULT_BLOCK


def whole_counts(seed: int, start: int, stop: int, cfg: np.ndarray,
                 script: np.ndarray | None = None, chunk: int = DEFAULT_CHUNK,
                 block: int = DEFAULT_BLOCK,
                 progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Summed int64 counts (``WHOLE_WIDTH``) of whole deals ``[start, stop)`` of ``seed``."""
    seed = check_seed(seed)
    start, stop = check_index_range(start, stop)
    script = empty_script() if script is None else script
    return reduce_counts(partial(_whole_task, seed, cfg, script), start, stop, WHOLE_WIDTH,
                         chunk, block, progress)


def _whole_task(seed, cfg, script, lo, n, rows):
    return whole_rows(np.uint64(seed), np.int64(lo), n, rows, cfg, script, new_workspace())


__all__ = ["whole_counts", "make_cfg", "empty_script", "whole_deal",
           "play_deal", "DealRunner", "WholeDeal", "REC_LEN", "N_CFG", "FIRST_NAMES",
           "END_NAMES"]
