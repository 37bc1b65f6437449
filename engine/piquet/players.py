"""Piquet players' decisions as kernels: the discard and the card to play (their ids:
:class:`~ecarte_sim.engine.piquet.settings.Player`).

``random``
    The baseline the public peer engine publishes: a full exchange (elder five,
    younger all he can) of uniformly random cards, every declaration made (unless
    the seat's sinking policy says otherwise, as for any player), a uniformly random
    legal card at every turn.
``heuristic``
    Discards the cards of lowest *keep value* (:func:`keep_values`); declares
    what its seat's :class:`~ecarte_sim.engine.piquet.settings.SinkPolicy` lets it
    (everything under ``never``, the default; Law 47); plays from what it remembers (its own hand and discard and
    every card played), see :func:`heuristic_card`.
``dd`` and ``pimc``
    Discard like ``heuristic``; their play is in :mod:`ecarte_sim.engine.piquet.whole`
    (double-dummy search, and sampled worlds solved double-dummy; a ``pimc`` seat's
    :class:`~ecarte_sim.engine.piquet.settings.Reading` says what its worlds read from
    the declarations).

Keep value of a card ``c`` of rank ``r`` in suit ``s`` (my definition, not the
treatises'; the weights were chosen so that each element below outranks the
lower ones in typical hands):

* high-card worth ``HIGH[r]`` (ace 12, king 9, queen 6, knave 4, ten 3, 9 2,
  8 1, 7 0) — tricks in play and the point's pip value;
* ``2 ×`` the number of cards held in suit ``s`` — the point suit and the cards;
* ``+6`` if ``c`` is in a run of three or more, ``+2`` if it touches another
  card of its suit — sequences;
* ``+5 × (copies of rank r held − 1)`` for ranks ten to ace — quatorze and trio
  material;
* ``+3`` for the small guard of a king (a suit of exactly king + one card) —
  guards.

Ties are broken by the lower bit index being discarded first.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import above_in_suit, bit_index, lowest_bit, popcount32, suit_mask
from ecarte_sim.engine.piquet.declare import RANK_MASK
from ecarte_sim.engine.piquet.settings import Rank

HIGH = np.array([0, 1, 2, 3, 4, 6, 9, 12], dtype=np.int64)


@njit(cache=True)
def keep_values(hand, out):
    """Keep value (see module docstring) of every card of ``hand``: ``out[c]``."""
    h = np.uint32(hand)
    for c in range(32):
        out[c] = 0
    for c in range(32):
        if not (h >> np.uint32(c)) & np.uint32(1):
            continue
        s = c >> 3
        r = c & 7
        byte = (h >> np.uint32(8 * s)) & np.uint32(0xFF)
        length = popcount32(byte)
        v = HIGH[r] + 2 * length
        # The run through c: walk down and up while the suit's cards are held.
        lo = r
        while lo > 0 and (byte >> np.uint32(lo - 1)) & np.uint32(1):
            lo -= 1
        hi = r
        while hi < 7 and (byte >> np.uint32(hi + 1)) & np.uint32(1):
            hi += 1
        if hi - lo + 1 >= 3:
            v += 6
        elif hi > lo:
            v += 2
        if r >= Rank.TEN:
            v += 5 * (popcount32(h & RANK_MASK[r]) - 1)
        if length == 2 and r != Rank.KING and (byte >> np.uint32(Rank.KING)) & np.uint32(1):
            v += 3
        out[c] = v


@njit(cache=True)
def heuristic_discard(hand, count, values):
    """The ``count`` cards of ``hand`` with the lowest keep value (``values``: scratch, 32)."""
    keep_values(hand, values)
    h = np.uint32(hand)
    chosen = np.uint32(0)
    for _ in range(count):
        best = -1
        best_value = 1 << 30
        for c in range(32):
            bit = np.uint32(1) << np.uint32(c)
            if (h & bit) and not (chosen & bit) and values[c] < best_value:
                best = c
                best_value = values[c]
        chosen |= np.uint32(1) << np.uint32(best)
    return chosen


@njit(cache=True, inline="always")
def legal_moves(hand, led):
    """Cards ``hand`` may play: anything when leading (``led < 0``), else the
    suit led if held, else anything (Laws 57–59: no obligation to win)."""
    h = np.uint32(hand)
    if led < 0:
        return h
    follow = h & suit_mask(led >> 3)
    if follow:
        return follow
    return h


@njit(cache=True)
def nth_card(mask, n):
    """The ``n``-th (0-based, in bit order) card of ``mask``."""
    m = np.uint32(mask)
    for _ in range(n):
        m &= m - np.uint32(1)
    return bit_index(lowest_bit(m))


@njit(cache=True, inline="always")
def _leading_zeros(x):
    x = np.uint32(x)
    n = 0
    while n < 32 and not (x >> np.uint32(31 - n)) & np.uint32(1):
        n += 1
    return n


@njit(cache=True)
def heuristic_card(own, unseen, led):
    """The heuristic's card from what it can know: its hand ``own``, the cards
    ``unseen`` (neither in its hand or discard nor played) and the card ``led``.

    Leading: cash a *master* (a card above every unseen card of its suit) from
    the longest suit holding one, highest first; with no master, lead the
    lowest card of the longest suit (ties: the suit with the higher top card),
    to establish it.
    Following suit: win with the lowest card that wins; unable to win, play the
    suit's lowest card. Void: throw the lowest card that is neither a master
    nor the guard of a king (a suit of exactly king + one), lowest rank first,
    then the shortest suit; if every card is one of those, the lowest card.
    """
    own = np.uint32(own)
    unseen = np.uint32(unseen)
    if led < 0:
        best = -1
        best_key = -1
        for c in range(32):
            if not (own >> np.uint32(c)) & np.uint32(1):
                continue
            if unseen & above_in_suit(c):
                continue
            length = popcount32(own & suit_mask(c >> 3))
            key = length * 8 + (c & 7)
            if key > best_key:
                best_key = key
                best = c
        if best >= 0:
            return best
        best_key = -1
        for s in range(4):
            cards = own & suit_mask(s)
            if cards == np.uint32(0):
                continue
            top = 31 - _leading_zeros(cards)
            key = popcount32(cards) * 8 + (top & 7)
            if key > best_key:
                best_key = key
                best = bit_index(lowest_bit(cards))
        return best
    follow = own & suit_mask(led >> 3)
    if follow:
        winners = follow & above_in_suit(led)
        if winners:
            return bit_index(lowest_bit(winners))
        return bit_index(lowest_bit(follow))
    best = -1
    best_key = 1 << 30
    for c in range(32):
        if not (own >> np.uint32(c)) & np.uint32(1):
            continue
        suit_cards = own & suit_mask(c >> 3)
        protected = 0
        if not (unseen & above_in_suit(c)):
            protected = 1
        king = np.uint32(1) << np.uint32((c & ~7) + Rank.KING)
        if popcount32(suit_cards) == 2 and (suit_cards & king) and (c & 7) != Rank.KING:
            protected = 1
        key = protected * 1000 + (c & 7) * 16 + popcount32(suit_cards)
        if key < best_key:
            best_key = key
            best = c
    return best
