"""The 32-card piquet pack as bits: one layout for every game in ecarte-sim.

The layout (a card is the bit ``suit * 8 + rank`` of a ``uint32`` mask), each game's rank
order (:class:`Deck`: :data:`ECARTE`, :data:`PIQUET`) and the cards as text (the parsers
and formatters, :class:`CardError`) are defined in :mod:`ecarte_sim.engine.deck`, plain
Python that a command reads a hand with before any kernel loads, and re-exported here.
This module adds the numpy masks and the bit helpers the kernels inline: in either game
"a higher card of the same suit" is simply a higher bit of the same byte, and "every
card of this suit above c" is ``SUIT_MASK[s] & ~((2 << c) - 1)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.deck import (  # noqa: F401 - the notation, re-exported
    ECARTE, N_CARDS, N_RANKS, N_SUITS, PIQUET, SUIT_LETTERS, SUIT_NAMES, SUIT_SYMBOLS,
    CardError, Deck, card_bit, card_index, card_list, card_of, card_set, cards_of, check_disjoint,
    format_card, format_cards, format_hand, parse_card, parse_hand, parse_suit, rank_of,
    split_tokens, suit_of)

FULL_PACK = np.uint32(0xFFFFFFFF)
#: ``SUIT_MASK[s]``: the eight bits of suit ``s``.
SUIT_MASK = np.array([np.uint32(0xFF) << np.uint32(8 * s) for s in range(N_SUITS)],
                     dtype=np.uint32)


# ---------------------------------------------------------------------------
# Bit helpers for kernels (pure; small enough for LLVM to inline them).
# ---------------------------------------------------------------------------

@njit(cache=True)
def popcount32(x):
    """Number of cards in a uint32 mask (SWAR bit count)."""
    x = np.uint32(x)
    x = x - ((x >> np.uint32(1)) & np.uint32(0x55555555))
    x = (x & np.uint32(0x33333333)) + ((x >> np.uint32(2)) & np.uint32(0x33333333))
    x = (x + (x >> np.uint32(4))) & np.uint32(0x0F0F0F0F)
    # numba widens uint32 products to 64 bits: keep only the low word.
    return np.int64(((x * np.uint32(0x01010101)) & np.uint32(0xFFFFFFFF)) >> np.uint32(24))


@njit(cache=True)
def lowest_bit(x):
    """The lowest set bit of a non-zero uint32 mask, as a mask."""
    x = np.uint32(x)
    return x & (~x + np.uint32(1))


#: De Bruijn table: ``_DEBRUIJN[((b * 0x077CB531) mod 2**32) >> 27]`` is the index of bit ``b``.
_DEBRUIJN = np.array([0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
                      31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9],
                     dtype=np.int64)


@njit(cache=True)
def bit_index(bit):
    """Index (0–31) of a single-bit uint32 mask (de Bruijn multiply)."""
    product = (np.uint32(bit) * np.uint32(0x077CB531)) & np.uint32(0xFFFFFFFF)
    return _DEBRUIJN[product >> np.uint32(27)]


@njit(cache=True)
def suit_mask(suit):
    return np.uint32(0xFF) << np.uint32(8 * suit)


@njit(cache=True)
def above_in_suit(card):
    """Mask of the cards of ``card``'s suit that rank above it."""
    c = np.uint32(card)
    return suit_mask(c >> np.uint32(3)) & ~((np.uint32(2) << c) - np.uint32(1))
