"""Move generation and sure-trick bounds for the double-dummy search (bit tricks over masks).

Cards are bits of a ``uint32`` (:mod:`ecarte_sim.engine.cards`: suit ``s`` is bits
``8s .. 8s+7``, rank 7 lowest, king highest). Every function here is exact: it changes
how much the search does, never a value.

* :func:`legal_moves` — any card when leading, else Law 43's replies
  (:func:`ecarte_sim.engine.ecarte.laws.tricks.legal_replies`).
* :func:`distinct_moves` / :func:`distinct_low` — drop equivalent cards: two cards of one
  hand that are adjacent in rank within a suit once the cards out of play are passed over
  (no card of the other hand, nor the card led, between them) give the same value, so
  one stands for all. ``distinct_moves`` keeps the highest of each run (the players rely
  on which card stands, it is the card they play); ``distinct_low`` keeps the lowest and
  finds the runs with one addition (the search only needs *a* representative).
* :func:`future_bounds` — how many of the remaining tricks the elder surely wins and
  surely loses, from master trumps and, against a player with no trump, every card above
  all the opponent's cards of its suit.
* :func:`next_lead` — the order leads are tried in (speed only).
* :func:`beating_cards` — the cards that would beat a card led (Law 43's order of cards).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import above_in_suit, bit_index, lowest_bit, popcount32, suit_mask
from ecarte_sim.engine.ecarte.laws.tricks import ELDER, legal_replies

#: Every bit but the top card of each suit: ``(x >> 1) & _NOT_TOP`` moves each
#: card to the next lower card of the same suit without crossing suits.
_NOT_TOP = np.uint32(0x7F7F7F7F)
#: Every bit but the lowest card of each suit: ``(x << 1) & _NOT_BOTTOM`` moves each card
#: to the next higher card of its suit, a king leaving the pack instead of the next suit.
_NOT_BOTTOM = np.uint32(0xFEFEFEFE)
_FULL = np.uint32(0xFFFFFFFF)


@njit(cache=True)
def legal_moves(hand, led, trump, forced_trump):
    """Cards the mover may play: any card when leading, else Law 43's replies."""
    if led < 0:
        return np.uint32(hand)
    return legal_replies(hand, led, trump, forced_trump)


@njit(cache=True)
def distinct_moves(moves, own, other, led):
    """Drop from ``moves`` every card whose next higher remaining card of its
    suit is also the mover's: they are equivalent, the highest stands for all.

    Bit-parallel: ``reach`` marks the cards from which walking up the suit
    through cards no longer in play (played, in the stock, turned up) arrives
    at one of the mover's cards before any card of the opponent or the card led.
    """
    own = np.uint32(own)
    in_play = own | np.uint32(other)
    if led >= 0:
        in_play |= np.uint32(1) << np.uint32(led)
    gaps = ~in_play & _FULL
    reach = own
    for _ in range(6):
        reach |= (reach >> np.uint32(1)) & _NOT_TOP & gaps
    return np.uint32(moves) & ~((reach >> np.uint32(1)) & _NOT_TOP)


@njit(cache=True)
def distinct_low(moves, own, other, led):
    """Like :func:`distinct_moves`, but the *lowest* card of each run of equivalent cards
    stands for it, found with one addition: each own card sends a carry up its suit
    through the cards out of play; where the carry lands on another own card, that card
    has an own card just below it and is dropped. The top card of each suit is never a
    gap, so no carry crosses into the next suit."""
    own = np.uint32(own)
    in_play = own | np.uint32(other)
    if led >= 0:
        in_play |= np.uint32(1) << np.uint32(led)
    gaps = ~in_play & _NOT_TOP
    landed = (((own << np.uint32(1)) & _NOT_BOTTOM) + gaps) & ~gaps & _FULL
    return np.uint32(moves) & ~(landed & own)


@njit(cache=True)
def highest(moves):
    """The highest set bit of a non-zero mask, as a mask."""
    x = np.uint32(moves)
    x |= x >> np.uint32(1)
    x |= x >> np.uint32(2)
    x |= x >> np.uint32(4)
    x |= x >> np.uint32(8)
    x |= x >> np.uint32(16)
    return x ^ (x >> np.uint32(1))


@njit(cache=True)
def beaten(cards):
    """Every card ranking at or below one of ``cards`` in its own suit (each card smeared
    down its suit, all four suits at once): a card outside this mask is above every card
    of ``cards`` of its suit."""
    x = np.uint32(cards)
    x |= (x >> np.uint32(1)) & np.uint32(0x7F7F7F7F)
    x |= (x >> np.uint32(2)) & np.uint32(0x3F3F3F3F)
    x |= (x >> np.uint32(4)) & np.uint32(0x0F0F0F0F)
    return x


@njit(cache=True)
def masters(own, other, trump):
    """How many of ``own``'s trumps outrank every trump of ``other``: each of
    them wins a trick whenever it is played (led, or played second)."""
    return popcount32(np.uint32(own) & suit_mask(trump) & ~beaten(other))


@njit(cache=True)
def sure_for_leader(own, other, trump):
    """Tricks the player about to lead can take in a row whatever happens.

    His master trumps always win. If the opponent has no trump at all, so does
    every trump of his and every plain card ranking above all the opponent's
    cards of its suit: led one after another, none can be beaten."""
    above = np.uint32(own) & ~beaten(other)
    if np.uint32(other) & suit_mask(trump):
        return popcount32(above & suit_mask(trump))
    return popcount32(above)


@njit(cache=True)
def future_bounds(elder, dealer, leader, trump):
    """(lowest, highest) number of the remaining tricks the elder can end with,
    at the start of a trick, from sure tricks alone."""
    left = popcount32(elder)
    if leader == ELDER:
        return sure_for_leader(elder, dealer, trump), left - masters(dealer, elder, trump)
    return masters(elder, dealer, trump), left - sure_for_leader(dealer, elder, trump)


@njit(cache=True)
def next_lead(moves, trump):
    """The lead to try next (the order changes the speed, never the value): the highest
    plain-suit card first (kings before queens, whatever the suit), trumps last, highest
    first. Measured on 5,000 deals this visits about a quarter fewer nodes than trumps
    first."""
    m = np.uint32(moves)
    plain = m & ~suit_mask(trump)
    if plain:
        ranks = (plain | (plain >> np.uint32(8)) | (plain >> np.uint32(16))
                 | (plain >> np.uint32(24))) & np.uint32(0xFF)
        top_rank = bit_index(highest(ranks))
        return lowest_bit(plain & (np.uint32(0x01010101) << np.uint32(top_rank)))
    return highest(m)


@njit(cache=True)
def beating_cards(led, trump):
    """The cards that beat ``led`` when played to it: the higher cards of its suit and, if
    it is not a trump, every trump."""
    above = above_in_suit(led)
    if np.int64(led) >> 3 == trump:
        return above
    return above | suit_mask(trump)
