"""The *jeux de règle* as a numba kernel: :func:`regle_rule`, the rule of Hoyle's list
that names a five-card hand (0: none), for the simulators' and policies' inner loops.

The list, its readings and the Python entry points (:func:`~ecarte_sim.engine.ecarte.decisions.regle.classify`,
:func:`~ecarte_sim.engine.ecarte.decisions.regle.explain`) are in :mod:`ecarte_sim.engine.ecarte.decisions.regle`,
which computes the same verdict with numpy alone (no numba, for a quick start); a test
compares the two on every hand and trump suit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import bit_index, lowest_bit, popcount32, suit_mask
from ecarte_sim.engine.ecarte.decisions.regle import KING, KNAVE, NONE, QUEEN

_KING = np.uint32(KING)
_QUEEN = np.uint32(QUEEN)
_KNAVE = np.uint32(KNAVE)


@njit(cache=True)
def _court_pair_in(plain):
    """Some suit holds at least two plain cards, one of them its king or queen."""
    for suit in range(4):
        cards = plain & suit_mask(suit)
        if popcount32(cards) >= 2 and cards & (_KING | _QUEEN):
            return True
    return False


@njit(cache=True)
def _one_suit(plain):
    """All the plain cards are of one suit (the suit of the lowest, say)."""
    plain = np.uint32(plain)
    if plain == 0:
        return False
    suit = bit_index(lowest_bit(plain)) >> 3
    return (plain & ~suit_mask(suit) & np.uint32(0xFFFFFFFF)) == 0


@njit(cache=True)
def _three_court_and_court(plain):
    """One plain card is a king or queen and the other three are of one suit,
    with a king or queen among them (rule 5)."""
    rest = plain
    while rest:
        card = rest & (~rest + np.uint32(1))
        rest ^= card
        if card & (_KING | _QUEEN):
            three = plain ^ card
            if _one_suit(three) and three & (_KING | _QUEEN):
                return True
    return False


@njit(cache=True)
def regle_rule(hand, trump):
    """Rule id (1–7, :data:`ecarte_sim.engine.ecarte.decisions.regle.RULES`) of a five-card hand, or 0
    if it is no jeu de règle."""
    hand = np.uint32(hand)
    trumps = popcount32(hand & suit_mask(trump))
    plain = hand & ~suit_mask(trump) & np.uint32(0xFFFFFFFF)
    if trumps >= 3:
        return 1
    if trumps == 2:
        if _one_suit(plain):
            return 2
        if _court_pair_in(plain):
            return 3
        return NONE
    if trumps == 1:  # four plain cards
        if _one_suit(plain) and plain & _KING:
            return 4
        if _three_court_and_court(plain):
            return 5
        return NONE
    if popcount32(hand & _QUEEN) >= 3:
        return 6
    if popcount32(hand & (_KING | _QUEEN | _KNAVE)) >= 4:
        return 7
    return NONE
