"""The three play models (and a scripted one for cross-checks), as numba kernels.

``dd``
    Double dummy: the mover sees both hands and plays the legal card with the best
    exact value for him (elder: most elder tricks; dealer: fewest), ties to the lowest
    card index. Both players doing so reach the solver's value, so it measures the
    cards, not the play.
``heuristic``
    The play advice of Hoyle's Games Modernized, from the mover's own knowledge only (his hand, the
    cards he has seen and what the opponent's play has proved). See
    :func:`heuristic_card`.
``pimc``
    Perfect-Information Monte Carlo: sample ``W`` opponent hands consistent with
    everything the mover has seen, solve each double dummy from the current position
    for every legal card, play the card with the best mean score (ties to the lowest
    card index). Worlds are uniform over the consistent hands: the opponent's
    propose/refuse decision is *not* used to weight them. See :func:`pimc_card`.
``scripted``
    The first card of a fixed priority order that is in hand and legal.

What the play reveals (Law 43, kept per player as ``not_held`` masks by the caller):
a player who does not follow holds none of the suit led; if he also does not trump
(and trumping is compulsory) he holds no trump; a player who follows below the card
led holds no higher card of that suit (he would have had to win).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import (N_CARDS, above_in_suit, bit_index, lowest_bit, popcount32,
                                     suit_mask)
from ecarte_sim.engine.ecarte.decisions.policies import weakest
from ecarte_sim.engine.ecarte.laws.tricks import ELDER, leader_wins
from ecarte_sim.engine.ecarte.records import PAYOFF
from ecarte_sim.engine.ecarte.search.moves import distinct_moves, legal_moves
from ecarte_sim.engine.ecarte.search.solver import (after_card, search, takes_every_trick_from,
                                                    value_after)
from ecarte_sim.engine.ecarte.settings import MAX_WORLDS
from ecarte_sim.engine.rng import bounds_product, draw_descending, swap_draws, word_remainder

#: Sub-stream words of a deal used by PIMC: world ``w`` of the ``j``-th card played
#: reads words from ``PIMC_BASE + (j * MAX_WORLDS + w) * WORDS_PER_WORLD``.
PIMC_BASE = 1024
WORDS_PER_WORLD = 8
#: Offsets of the ``payoff`` scratch, as kernel constants.
Y = PAYOFF.at
_FULL = np.uint32(0xFFFFFFFF)


@njit(cache=True)
def reveal(not_held, led, reply, trump, forced_trump):
    """``not_held`` of the player who replied ``reply`` to ``led``, updated (Law 43)."""
    led_suit = np.int64(led) >> 3
    if (np.int64(reply) >> 3) != led_suit:
        not_held |= suit_mask(led_suit)
        if forced_trump and (np.int64(reply) >> 3) != trump:
            not_held |= suit_mask(trump)
    elif reply < led:
        not_held |= above_in_suit(led)
    return np.uint32(not_held)


@njit(cache=True)
def scripted_card(legal, priority):
    for j in range(priority.shape[0]):
        c = priority[j]
        if legal >> np.uint32(c) & np.uint32(1):
            return np.int64(c)
    return np.int64(bit_index(lowest_bit(legal)))


@njit(cache=True)
def dd_card(mover, elder, dealer, leader, tricks, led, trump, forced_trump):
    """Best card for ``mover`` by exact double-dummy values, ties to the lowest index."""
    own = elder if mover == ELDER else dealer
    legal = legal_moves(own, led, trump, forced_trump)
    best_card = -1
    best = -1
    rest = np.uint32(legal)
    while rest:
        bit = lowest_bit(rest)
        rest ^= bit
        c = bit_index(bit)
        if rest == 0 and best_card < 0:
            return c
        v = value_after(elder, dealer, leader, tricks, led, trump, forced_trump, c)
        score = v if mover == ELDER else 5 - v
        if score > best:
            best = score
            best_card = c
    return best_card


@njit(cache=True)
def _lead_score(c, hand, possible, trump):
    """How much the heuristic likes leading card ``c`` (higher = better)."""
    suit = np.int64(c) >> 3
    rank = np.int64(c) & 7
    mine = hand & suit_mask(suit)
    higher_out = possible & above_in_suit(c)
    if suit == trump:
        trumps = popcount32(hand & suit_mask(trump))
        # "Lead king of trumps" style: draw trumps with the master when holding two or more.
        if higher_out == 0 and trumps >= 2:
            return 60 + rank
        if trumps == popcount32(hand):
            return 20 + rank
        return rank
    score = 10
    if higher_out == 0:
        score = 40  # a master card: wins unless trumped
    n = popcount32(mine)
    below = mine & ~above_in_suit(c) & ~(np.uint32(1) << np.uint32(c)) & _FULL
    if below:
        # the next card of mine below c: in sequence if no card the opponent may hold lies between
        nxt = np.uint32(1) << np.uint32(31)
        while not (nxt & below):
            nxt >>= np.uint32(1)
        between = possible & above_in_suit(bit_index(nxt)) & ~above_in_suit(c) \
            & ~(np.uint32(1) << np.uint32(c)) & _FULL
        if between == 0:
            score += 8  # "cards in sequence ... are better as leads"
        elif n == 2:
            score -= 15  # "the disadvantage ... of leading from a suit of two when one is a
            #             high, the other a much lower card"
    elif n == 1:
        score += 5  # "single cards ... are better as leads"
    elif n == 2:
        score -= 15  # the low card of a high-low two-card suit: the same disadvantage
    return score + rank


@njit(cache=True)
def heuristic_card(hand, led, trump, forced_trump, possible):
    """Seed 002's play advice, from the mover's knowledge only.

    ``possible``: the cards the opponent may hold (not seen by the mover, not proved
    absent by the play).

    Leading: the card with the best :func:`_lead_score` — a master trump to draw trumps
    when holding two or more; plain masters; "cards in sequence, or single cards, are
    better as leads than one high card, and then a small one of a two-card suit"; trumps
    kept otherwise. Replying: win as cheaply as possible; unable to win, throw the weakest
    card (plain low cards first, kings and trumps last).
    """
    hand = np.uint32(hand)
    legal = legal_moves(hand, led, trump, forced_trump)
    if led < 0:
        best_card = -1
        best = -(1 << 30)
        rest = legal
        while rest:
            bit = lowest_bit(rest)
            rest ^= bit
            c = bit_index(bit)
            s = _lead_score(c, hand, possible, trump)
            if s > best:
                best = s
                best_card = c
        return best_card
    winning = np.uint32(0)
    rest = legal
    while rest:
        bit = lowest_bit(rest)
        rest ^= bit
        if not leader_wins(led, bit_index(bit), trump):
            winning |= bit
    return bit_index(weakest(winning if winning else legal, 1, trump))


@njit(cache=True)
def pool_of(possible, pool):
    """List the cards of ``possible`` into ``pool``, lowest index first; return how many."""
    m = 0
    rest = np.uint32(possible)
    while rest:
        bit = lowest_bit(rest)
        rest ^= bit
        pool[m] = bit_index(bit)
        m += 1
    return m


@njit(cache=True)
def world_threshold(m, count):
    """The batch rejection threshold of drawing ``count`` of ``m`` cards (:mod:`~ecarte_sim.
    engine.rng`)."""
    return word_remainder(bounds_product(m, count))


@njit(cache=True)
def draw_world(seed, index, decision, world, pool, m, count, threshold, scratch, draws):
    """Partial Fisher–Yates of ``count`` cards out of ``pool[:m]`` (``pool`` untouched)."""
    for j in range(m):
        scratch[j] = pool[j]
    k = PIMC_BASE + (decision * MAX_WORLDS + world) * WORDS_PER_WORLD
    draw_descending(seed, index, k, m, count, threshold, draws, 0)
    swap_draws(scratch, draws, 0, count)
    out = np.uint32(0)
    for j in range(count):
        out |= np.uint32(1) << np.uint32(scratch[j])
    return out


@njit(cache=True)
def sample_world(seed, index, decision, world, possible, count, pool, draws):
    """Uniformly chosen ``count`` cards of ``possible`` (a mask): world ``world`` of the
    ``decision``-th card played in deal ``index``, exactly as :func:`pimc_card` draws it.
    ``pool`` and ``draws`` are int64 scratch (length >= 32)."""
    m = pool_of(possible, pool)
    scratch = np.empty(N_CARDS, dtype=np.int64)
    return draw_world(seed, index, decision, world, pool, m, count, world_threshold(m, count),
                       scratch, draws)


@njit(cache=True)
def outcome_after(elder, dealer, leader, tricks, led, trump, forced_trump, card):
    """Like :func:`ecarte_sim.engine.ecarte.search.solver.value_after`, but only as fine as the score needs:
    returns 0 (dealer vole), 1 (dealer point), 3 (elder point) or 5 (elder vole), found by
    a null-window search for the point, then the winner's vole by
    :func:`~ecarte_sim.engine.ecarte.search.solver.takes_every_trick_from` (cheaper than the
    exact trick count)."""
    e, d, next_leader, tricks, next_led = after_card(elder, dealer, leader, tricks, led, trump,
                                                     card)
    if e == 0 and next_led < 0:  # the last trick is complete
        return _coarse(tricks)
    point = search(e, d, next_leader, tricks, next_led, trump, forced_trump, 2, 3)
    if point >= 3:
        if point >= 5 or takes_every_trick_from(e, d, next_leader, tricks, next_led, trump,
                                                forced_trump, True):
            return 5
        return 3
    if point <= 0 or takes_every_trick_from(e, d, next_leader, tricks, next_led, trump,
                                            forced_trump, False):
        return 0
    return 1


@njit(cache=True)
def run_top(card, own, other, led):
    """The highest card of ``card``'s run of equivalent cards in ``own``: walk up the
    suit, passing over cards in neither hand, while the next card in play is the mover's
    (the card ``led``, if any, is in play)."""
    in_play = np.uint32(own) | np.uint32(other)
    if led >= 0:
        in_play |= np.uint32(1) << np.uint32(led)
    top = card
    while True:
        above = in_play & above_in_suit(top)
        if above == 0:
            return top
        nxt = lowest_bit(above)
        if (nxt & np.uint32(own)) == 0:
            return top
        top = bit_index(nxt)


@njit(cache=True)
def world_shape(hand, fixed):
    """A key for the opponent's ``hand`` that two hands share exactly when they differ only
    within gaps: in each suit, the opponent's cards between two consecutive ``fixed``
    cards (the mover's and the card led) are interchangeable for the play, since each
    keeps its rank against every card it can meet in a trick. The key puts the
    opponent's cards of each gap at the bottom of the gap."""
    out = np.uint32(0)
    for suit in range(4):
        start = 8 * suit
        filled = 0
        for c in range(8 * suit, 8 * suit + 8):
            if fixed >> np.uint32(c) & np.uint32(1):
                start = c + 1
                filled = 0
            elif hand >> np.uint32(c) & np.uint32(1):
                out |= np.uint32(1) << np.uint32(start + filled)
                filled += 1
    return out


@njit(cache=True)
def _coarse(tricks):
    if tricks == 5:
        return 5
    if tricks >= 3:
        return 3
    return 0 if tricks == 0 else 1


@njit(cache=True)
def pimc_moves(own, led, trump, forced_trump, possible):
    """The mover's moves worth comparing: his legal cards, of which two that no card the
    opponent may hold separates are one move (``distinct_moves``: the highest stands
    for them, equivalent in every world)."""
    return distinct_moves(legal_moves(own, led, trump, forced_trump), own, possible, led)


@njit(cache=True)
def pimc_card(mover, elder, dealer, leader, tricks, led, trump, forced_trump, possible,
              worlds, seed, index, decision, payoff, pool, draws):
    """PIMC choice for ``mover``: best mean ``payoff`` points (elder's view: by elder
    tricks, elder points minus dealer points) over ``worlds`` opponent hands drawn
    uniformly from ``possible`` (:func:`pimc_over` compares the moves); the
    ``payoff`` counters (``PAYOFF``) count the decisions that sampled worlds and the
    solves."""
    own = np.uint32(elder if mover == ELDER else dealer)
    legal = pimc_moves(own, led, trump, forced_trump, possible)
    if legal & (legal - np.uint32(1)) == 0:
        return bit_index(legal)
    count = popcount32(dealer if mover == ELDER else elder)
    m = pool_of(possible, pool)
    threshold = world_threshold(m, count)
    scratch = np.empty(N_CARDS, dtype=np.int64)
    hands = np.empty(worlds, dtype=np.uint32)
    for w in range(worlds):
        hands[w] = draw_world(seed, index, decision, w, pool, m, count, threshold, scratch,
                               draws)
    return pimc_over(mover, own, legal, leader, tricks, led, trump, forced_trump, hands,
                     worlds, payoff)


@njit(cache=True)
def pimc_over(mover, own, legal, leader, tricks, led, trump, forced_trump, hands, worlds,
              payoff):
    """The move of ``legal`` (:func:`pimc_moves`) with the best total ``payoff`` points
    over the opponent hands ``hands[:worlds]`` (ties to the lowest card index).

    Within one world the opponent's hand is known, so more cards
    become equivalent (adjacent once the cards outside both hands are passed over):
    such cards have the same value in that world, which is solved once for them
    (:func:`run_top`); and a world of a shape already solved (:func:`world_shape`: the
    same number of the opponent's cards in each gap between the mover's cards) has the
    same outcomes and is not solved again. The totals, and so the choice, are those of
    solving every card in every world."""
    n_moves = popcount32(legal)
    cards = np.empty(5, dtype=np.int64)
    totals = np.zeros(5, dtype=np.int64)
    rest = legal
    for j in range(n_moves):
        bit = lowest_bit(rest)
        rest ^= bit
        cards[j] = bit_index(bit)
    payoff[Y.PIMC_DECISIONS] += 1
    outcome_of_run = np.empty(N_CARDS, dtype=np.int64)
    # The shapes of the worlds drawn before (world_shape), each with its outcome for every
    # card: a world of a shape already solved has the same outcomes and is not solved again.
    fixed = own | (np.uint32(1) << np.uint32(led)) if led >= 0 else own
    drawn = np.empty(worlds, dtype=np.uint32)
    outcomes = np.empty((worlds, 5), dtype=np.int64)
    n_drawn = 0
    for w in range(worlds):
        other = hands[w]
        shape = world_shape(other, fixed)
        k = 0
        while k < n_drawn and drawn[k] != shape:
            k += 1
        if k == n_drawn:
            drawn[k] = shape
            n_drawn += 1
            e = own if mover == ELDER else other
            d = other if mover == ELDER else own
            solved = np.uint32(0)  # runs of equivalent cards already solved in this world
            for j in range(n_moves):
                run = run_top(cards[j], own, other, led)
                if solved >> np.uint32(run) & np.uint32(1):
                    v = outcome_of_run[run]
                else:
                    v = outcome_after(e, d, leader, tricks, led, trump, forced_trump, cards[j])
                    payoff[Y.PIMC_SOLVES] += 1
                    outcome_of_run[run] = v
                    solved |= np.uint32(1) << np.uint32(run)
                outcomes[k, j] = v
        for j in range(n_moves):
            totals[j] += payoff[Y.POINTS + outcomes[k, j]]
    best = 0
    for j in range(1, n_moves):
        if (totals[j] > totals[best]) if mover == ELDER else (totals[j] < totals[best]):
            best = j
    return cards[best]
