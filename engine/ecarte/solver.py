"""Exact double-dummy search for an Écarté hand (both players see all cards).

Value of a position = the total number of tricks the elder ends the hand with
(0–5) when the elder maximises it and the dealer minimises it, both following
Law 43 (:mod:`ecarte_sim.engine.ecarte.tricks`). A position is any moment of the play:
who leads the current trick, how many tricks the elder has already won, and
optionally the card already led to it (removed from the leader's hand).

The search is fail-soft alpha-beta over plies (a lead, then a reply), written
as a loop over an explicit stack — recursive ``cache=True`` kernels crash when
loaded from numba's cache (numba #6061). The node
being searched lives in local variables; ``ws[p]`` holds its ancestors. Every
cut below is exact (it never changes a value, only the work):

* equivalent cards — two cards of one hand that are adjacent in rank within a
  suit once the played cards are gone (no card of the other hand, nor the card
  led, between them) give the same value, so only one (the lowest) is tried
  (:func:`ecarte_sim.engine.ecarte.moves.distinct_low`, one addition);
* a lead whose reply is forced (one distinct legal card) is played out at
  once, without a reply node;
* sure tricks at the start of each trick with at least three cards each — a master trump (above all the opponent's trumps) wins whenever it is
  played; against a player with no trump, the leader also cashes every trump
  and every card above all the opponent's cards of its suit — bound the elder's
  final count from both sides, and the search stops when the bounds meet or
  leave the window (:func:`ecarte_sim.engine.ecarte.moves.future_bounds`, all
  four suits at once);
* the last three tricks are searched without the stack
  (:func:`_three_tricks_to_elder`, within the window), the last two directly (two
  leads times two replies, the last trick forced, written out and inlined).

Measured (``ecarte-sim bench``; a per-deal profile of 100,000 deals): an exact
solve visits about 18 leads and 4 reply choices and completes about 21 tricks
(7 two-trick endings); the trees are so small that the fixed cost of each node
decides the speed — the bounds were the largest (25 ns a call with a loop over
the suits, 9 ns bit-parallel), then the stack's save and restore around the small
three-trick endings, now searched by a function of their own. A fully
depth-unrolled rewrite (one function per depth, no stack at all) measured no faster
than the stack with the old bounds and compiled 2-7 times slower (30-90 s), so
only the last three tricks are written out.

Move order changes only the speed: replies cheapest first; leads highest
plain card first, trumps last.

``alpha``/``beta`` windows give fast answers to the questions asked most:
"does the elder make the point (≥ 3)?" is a null-window search on (2, 3).

The scratch array ``ws`` (``new_workspace()``) is owned by the caller so that a
batch kernel allocates it once per chunk.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import (CardError, bit_index, check_disjoint, format_card, lowest_bit,
                                     popcount32)
from ecarte_sim.engine.ecarte.moves import distinct_low, future_bounds, legal_moves, next_lead
from ecarte_sim.engine.ecarte.tricks import DEALER, ELDER, leader_wins, legal_replies

#: Depth of the explicit stack (at most six plies are ever open: three tricks of
#: lead and reply before the two-trick endgame); a little spare.
MAX_PLIES = 8
# Fields of one ply of the explicit stack.
_ELDER, _DEALER, _LEADER, _TRICKS, _LED, _ALPHA, _BETA, _BEST, _MOVES, _MAXIMISE = range(10)
_N_FIELDS = 10

# Outcomes of point_vole().
DEALER_VOLE, DEALER_POINT, ELDER_POINT, ELDER_VOLE = 0, 1, 2, 3


def new_workspace() -> np.ndarray:
    return np.zeros((MAX_PLIES, _N_FIELDS), dtype=np.int64)


@njit(cache=True)
def _enter(elder, dealer, leader, led, trump, forced_trump):
    """Moves to try, whether the elder moves (maximises), and the initial best."""
    mover = leader if led < 0 else 1 - leader
    own = elder if mover == ELDER else dealer
    other = dealer if mover == ELDER else elder
    moves = distinct_low(legal_moves(own, led, trump, forced_trump), own, other, led)
    if mover == ELDER:
        return moves, True, -1
    return moves, False, 6


@njit(cache=True)
def _absorb(value, maximise, best, alpha, beta, moves):
    """Fold a child's value into a node (fail-soft alpha-beta); a cut empties ``moves``."""
    if maximise:
        if value > best:
            best = value
            if value > alpha:
                alpha = value
    elif value < best:
        best = value
        if value < beta:
            beta = value
    if alpha >= beta:
        moves = np.uint32(0)
    return best, alpha, beta, moves


@njit(cache=True)
def _trick_to_elder(led, reply, leader, trump):
    """1 if the elder wins the trick in which ``leader`` led ``led`` and the other replied."""
    if leader_wins(led, reply, trump):
        return 1 if leader == ELDER else 0
    return 0 if leader == ELDER else 1


@njit(cache=True)
def _last_trick_to_elder(elder, dealer, leader, trump):
    """1 if the elder wins the last trick (one card each, all play forced)."""
    e = bit_index(np.uint32(elder))
    d = bit_index(np.uint32(dealer))
    if leader == ELDER:
        return _trick_to_elder(e, d, ELDER, trump)
    return _trick_to_elder(d, e, DEALER, trump)


@njit(cache=True, inline="always")
def _leader_tricks(x, r, y, s, trump):
    """Tricks the leader takes of the last two: he leads ``x`` (keeping ``y``), the other
    replies ``r`` (keeping ``s``); the winner of the first leads the last, forced."""
    if leader_wins(x, r, trump):
        return 2 if leader_wins(y, s, trump) else 1
    return 0 if leader_wins(s, y, trump) else 1


@njit(cache=True, inline="always")
def _two_tricks_to_elder(elder, dealer, leader, trump, forced_trump):
    """Exact elder tricks in the last two tricks (two cards each), written out: the
    leader's best of his two leads, against the follower's best legal reply to each."""
    lead_hand = np.uint32(elder) if leader == ELDER else np.uint32(dealer)
    reply_hand = np.uint32(dealer) if leader == ELDER else np.uint32(elder)
    lb = lowest_bit(lead_hand)
    a1 = bit_index(lb)
    a2 = bit_index(lead_hand ^ lb)
    rb = lowest_bit(reply_hand)
    b1 = bit_index(rb)
    b2 = bit_index(reply_hand ^ rb)
    best = 0
    for k in range(2):
        x = a1 if k == 0 else a2
        y = a2 if k == 0 else a1
        legal = legal_replies(reply_hand, x, trump, forced_trump)
        worst = 2
        if legal & rb:
            worst = _leader_tricks(x, b1, y, b2, trump)
        if legal & (reply_hand ^ rb):
            worst = min(worst, _leader_tricks(x, b2, y, b1, trump))
        best = max(best, worst)
    return best if leader == ELDER else 2 - best


@njit(cache=True)
def _three_tricks_to_elder(elder, dealer, leader, trump, forced_trump, alpha, beta):
    """Elder tricks in the last three tricks (three cards each), fail-soft within
    ``(alpha, beta)`` (a window on these three tricks): the sure-trick bounds, then each
    lead against each reply, the rest by :func:`_two_tricks_to_elder` — no stack."""
    lowest, highest = future_bounds(elder, dealer, leader, trump)
    if lowest >= beta or lowest == highest:
        return lowest
    if highest <= alpha:
        return highest
    elder_leads = leader == ELDER
    lead_hand = np.uint32(elder) if elder_leads else np.uint32(dealer)
    reply_hand = np.uint32(dealer) if elder_leads else np.uint32(elder)
    best = -1 if elder_leads else 4
    leads = distinct_low(lead_hand, lead_hand, reply_hand, -1)
    while leads:
        lead_bit = next_lead(leads, trump)
        leads ^= lead_bit
        led = bit_index(lead_bit)
        kept = lead_hand ^ lead_bit
        replies = distinct_low(legal_replies(reply_hand, led, trump, forced_trump), reply_hand,
                               kept, led)
        low, high = alpha, beta  # the follower's window
        answer = 4 if elder_leads else -1
        while replies:
            reply_bit = lowest_bit(replies)
            replies ^= reply_bit
            leader_takes = leader_wins(led, bit_index(reply_bit), trump)
            first = 1 if leader_takes == elder_leads else 0
            winner = ELDER if first == 1 else DEALER
            if elder_leads:
                v = first + _two_tricks_to_elder(kept, reply_hand ^ reply_bit, winner, trump,
                                                 forced_trump)
                if v < answer:
                    answer = v
                    high = min(high, v)
                    if v <= low:
                        break
            else:
                v = first + _two_tricks_to_elder(reply_hand ^ reply_bit, kept, winner, trump,
                                                 forced_trump)
                if v > answer:
                    answer = v
                    low = max(low, v)
                    if v >= high:
                        break
        if elder_leads:
            if answer > best:
                best = answer
                alpha = max(alpha, answer)
                if alpha >= beta:
                    return best
        elif answer < best:
            best = answer
            beta = min(beta, answer)
            if alpha >= beta:
                return best
    return best


@njit(cache=True, inline="always")
def _next_move(moves, led, trump):
    """Move order (it changes the speed, never the value): a reply tries its
    cheapest card first; a lead by :func:`.moves.next_lead`."""
    if led >= 0:
        return lowest_bit(moves)
    return next_lead(moves, trump)


@njit(cache=True, inline="always")
def _save(ws, p, e, d, lead_by, won, led_card, alpha, beta, best, moves, maximise):
    """Keep a node on the stack while one of its children is searched (inlined at
    numba's level: called as a function it cost about 5% of the search)."""
    ws[p, _ELDER] = e
    ws[p, _DEALER] = d
    ws[p, _LEADER] = lead_by
    ws[p, _TRICKS] = won
    ws[p, _LED] = led_card
    ws[p, _ALPHA] = alpha
    ws[p, _BETA] = beta
    ws[p, _BEST] = best
    ws[p, _MOVES] = moves
    ws[p, _MAXIMISE] = maximise


@njit(cache=True, inline="always")
def _restore(ws, p):
    return (np.uint32(ws[p, _ELDER]), np.uint32(ws[p, _DEALER]), ws[p, _LEADER],
            ws[p, _TRICKS], ws[p, _LED], ws[p, _ALPHA], ws[p, _BETA], ws[p, _BEST],
            np.uint32(ws[p, _MOVES]), ws[p, _MAXIMISE] != 0)


@njit(cache=True)
def search(elder, dealer, leader, tricks, led, trump, forced_trump, alpha, beta, ws):
    """Fail-soft alpha-beta value of a position (total elder tricks).

    Exact when the result lies strictly inside ``(alpha, beta)``; otherwise a
    bound on the same side. The mover must hold at least one card. The node
    being searched lives in local variables; ``ws[p]`` keeps its ancestors.
    A lead whose reply is forced (one distinct legal card) is played out at
    once, and the last three tricks are searched without the stack.
    """
    e = np.uint32(elder)
    d = np.uint32(dealer)
    lead_by = np.int64(leader)
    won = np.int64(tricks)
    led_card = np.int64(led)
    alpha = np.int64(alpha)
    beta = np.int64(beta)
    if led_card < 0:
        lowest, highest = future_bounds(e, d, lead_by, trump)
        if won + lowest >= beta or lowest == highest:
            return won + lowest
        if won + highest <= alpha:
            return won + highest
    moves, maximise, best = _enter(e, d, lead_by, led_card, trump, forced_trump)
    p = 0
    while True:
        if moves == 0:
            if p == 0:
                return best
            value = best
            p -= 1
            e, d, lead_by, won, led_card, alpha, beta, best, moves, maximise = _restore(ws, p)
            best, alpha, beta, moves = _absorb(value, maximise, best, alpha, beta, moves)
            continue
        bit = _next_move(moves, led_card, trump)
        moves ^= bit
        card = bit_index(bit)
        mover = lead_by if led_card < 0 else 1 - lead_by
        e2 = e ^ bit if mover == ELDER else e
        d2 = d if mover == ELDER else d ^ bit
        if led_card < 0:
            # A lead: look at the replies; push a reply node only if there is a choice.
            follower_hand = d2 if mover == ELDER else e2
            replies = distinct_low(legal_replies(follower_hand, card, trump, forced_trump),
                                   follower_hand, e2 if mover == ELDER else d2, card)
            if replies & (replies - np.uint32(1)):
                _save(ws, p, e, d, lead_by, won, led_card, alpha, beta, best, moves, maximise)
                p += 1
                e = e2
                d = d2
                led_card = card
                moves = replies
                maximise = not maximise
                best = -1 if maximise else 6
                continue
            trick_led = card
            trick_reply = bit_index(replies)
            if mover == ELDER:
                d2 ^= replies
            else:
                e2 ^= replies
        else:
            trick_led = led_card
            trick_reply = card
        # The trick is complete.
        winner = lead_by if leader_wins(trick_led, trick_reply, trump) else 1 - lead_by
        child_won = won + 1 if winner == ELDER else won
        left = popcount32(e2)
        if left == 0 or child_won >= beta:
            value = child_won
        elif child_won + left <= alpha:
            value = child_won + left
        elif left == 1:
            value = child_won + _last_trick_to_elder(e2, d2, winner, trump)
        elif left == 2:
            value = child_won + _two_tricks_to_elder(e2, d2, winner, trump, forced_trump)
        elif left == 3:
            value = child_won + _three_tricks_to_elder(e2, d2, winner, trump, forced_trump,
                                                       alpha - child_won, beta - child_won)
        else:
            lowest, highest = future_bounds(e2, d2, winner, trump)
            if child_won + lowest >= beta or lowest == highest:
                value = child_won + lowest
            elif child_won + highest <= alpha:
                value = child_won + highest
            else:
                value = -1
        if value < 0:
            _save(ws, p, e, d, lead_by, won, led_card, alpha, beta, best, moves, maximise)
            p += 1
            e = e2
            d = d2
            lead_by = winner
            won = child_won
            led_card = -1
            moves, maximise, best = _enter(e, d, lead_by, led_card, trump, forced_trump)
            continue
        best, alpha, beta, moves = _absorb(value, maximise, best, alpha, beta, moves)


@njit(cache=True)
def after_card(elder, dealer, leader, tricks, led, trump, card):
    """The position once the player to move has played ``card``: (elder, dealer, leader,
    elder tricks, card led or -1). After a reply the trick is complete and its winner leads."""
    e = np.uint32(elder)
    d = np.uint32(dealer)
    bit = np.uint32(1) << np.uint32(card)
    mover = leader if led < 0 else 1 - leader
    if mover == ELDER:
        e ^= bit
    else:
        d ^= bit
    if led < 0:
        return e, d, np.int64(leader), np.int64(tricks), np.int64(card)
    winner = leader if leader_wins(led, card, trump) else 1 - leader
    if winner == ELDER:
        tricks += 1
    return e, d, np.int64(winner), np.int64(tricks), np.int64(-1)


@njit(cache=True)
def value_after(elder, dealer, leader, tricks, led, trump, forced_trump, card, ws):
    """Exact value once the player to move has played ``card`` (assumed legal)."""
    e, d, leader, tricks, led = after_card(elder, dealer, leader, tricks, led, trump, card)
    if e == 0 and led < 0:  # the last trick is complete
        return tricks
    return search(e, d, leader, tricks, led, trump, forced_trump, -1, 6, ws)


@njit(cache=True)
def solve_kernel(elder, dealer, trump, forced_trump, ws):
    """Exact elder tricks from the first lead (elder leads, Law 42's 'elder hand')."""
    return search(elder, dealer, ELDER, 0, -1, trump, forced_trump, -1, 6, ws)


@njit(cache=True)
def point_vole(elder, dealer, trump, forced_trump, ws):
    """Who wins the point and is it a vole, by two null-window searches.

    Returns DEALER_VOLE (0), DEALER_POINT (1), ELDER_POINT (2) or ELDER_VOLE (3).
    """
    point = search(elder, dealer, ELDER, 0, -1, trump, forced_trump, 2, 3, ws)
    if point >= 3:  # a fail-soft lower bound: 5 already proves the vole
        if point >= 5 or search(elder, dealer, ELDER, 0, -1, trump, forced_trump, 4, 5, ws) >= 5:
            return ELDER_VOLE
        return ELDER_POINT
    if point <= 0 or search(elder, dealer, ELDER, 0, -1, trump, forced_trump, 0, 1, ws) <= 0:
        return DEALER_VOLE
    return DEALER_POINT


# ---------------------------------------------------------------------------
# Python API (validation, conversion). Same signatures as ecarte_sim.engine.ecarte.reference.
# ---------------------------------------------------------------------------

def _mask(cards) -> int:
    """A hand given as a mask or as card indices; raises CardError when malformed."""
    if isinstance(cards, (int, np.integer)):
        if not 0 <= int(cards) < 1 << 32:
            raise CardError(f"not a 32-bit hand mask: {cards!r}", str(cards))
        return int(cards)
    mask = 0
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or not 0 <= c < 32:
            raise CardError(f"not a card index (0-31): {c!r}", str(c))
        if mask >> int(c) & 1:
            raise CardError(f"card {c} listed twice", str(c))
        mask |= 1 << int(c)
    return mask


def _check_position(elder, dealer, trump, leader, elder_tricks, led):
    """Validate a position; return (elder mask, dealer mask, led or -1)."""
    e, d = _mask(elder), _mask(dealer)
    check_disjoint([("elder hand", e), ("dealer hand", d)])
    if not 0 <= int(trump) <= 3:
        raise CardError(f"trump suit must be 0-3, got {trump!r}", str(trump))
    if leader not in (ELDER, DEALER):
        raise CardError(f"leader must be 0 (elder) or 1 (dealer), got {leader!r}", str(leader))
    n_e, n_d = bin(e).count("1"), bin(d).count("1")
    led_card = -1
    if led is not None:
        led_card = int(led)
        if not 0 <= led_card < 32:
            raise CardError(f"not a card index (0-31): {led!r}", str(led))
        token = format_card(led_card)
        if (e | d) >> led_card & 1:
            raise CardError(f"led card {token!r} is still in a hand", token)
        n_leader, n_follower = (n_e, n_d) if leader == ELDER else (n_d, n_e)
        if n_follower != n_leader + 1:
            raise CardError(f"with {token!r} led the leader must hold one card fewer", token)
    elif n_e != n_d:
        raise CardError(f"hands hold {n_e} and {n_d} cards; they must be equal", None)
    if max(n_e, n_d) > 5 or elder_tricks < 0 or elder_tricks + max(n_e, n_d) > 5:
        raise CardError(f"impossible position: {n_e}+{n_d} cards with {elder_tricks} tricks won",
                        str(elder_tricks))
    return e, d, led_card


def solve(elder, dealer, trump, leader=ELDER, elder_tricks=0, led=None, forced_trump=True,
          ws=None) -> int:
    """Total elder tricks with best play by both, from the given position."""
    e, d, led_card = _check_position(elder, dealer, trump, leader, elder_tricks, led)
    if e == 0 and d == 0:
        return int(elder_tricks)
    ws = new_workspace() if ws is None else ws
    return int(search(np.uint32(e), np.uint32(d), leader, elder_tricks, led_card, trump,
                      bool(forced_trump), -1, 6, ws))


def move_values(elder, dealer, trump, leader=ELDER, elder_tricks=0, led=None,
                forced_trump=True, ws=None) -> dict[int, int]:
    """For each legal move of the player to move, total elder tricks after it."""
    e, d, led_card = _check_position(elder, dealer, trump, leader, elder_tricks, led)
    mover = leader if led_card < 0 else 1 - leader
    hand = e if mover == ELDER else d
    legal = hand if led_card < 0 else int(legal_replies(np.uint32(hand), led_card, trump,
                                                        bool(forced_trump)))
    ws = new_workspace() if ws is None else ws
    return {c: int(value_after(np.uint32(e), np.uint32(d), leader, elder_tricks, led_card,
                               trump, bool(forced_trump), c, ws))
            for c in range(32) if legal >> c & 1}


def is_point(elder, dealer, trump, forced_trump=True) -> bool:
    """Does the elder make the point (≥ 3 tricks) from the first lead?"""
    e, d, _ = _check_position(elder, dealer, trump, ELDER, 0, None)
    return point_vole(np.uint32(e), np.uint32(d), trump, bool(forced_trump),
                      new_workspace()) >= ELDER_POINT
