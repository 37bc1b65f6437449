"""The *jeux de règle*: hands "which ought to be played without proposing" (seed 002).

Hoyle's list, in its own words, and the name each rule gets here:

======  ==========================  ======================================================
id      name                        seed 002
======  ==========================  ======================================================
1       ``three-trumps``            "With three trumps, play without proposing."
2       ``two-trumps-one-suit``     "Likewise with two trumps, if the other cards belong
                                    to one suit,"
3       ``two-trumps-court-pair``   "or with two cards of one suit, one of which is the
                                    king or queen."
4       ``one-trump-four-king``     "Play if holding only one trump, provided the other
                                    cards are four of one suit, one being a king,"
5       ``one-trump-three-court``   "or three cards of one suit, one being a king or queen,
                                    and the fifth card being a king or queen."
6       ``no-trump-three-queens``   "Play with no trump if three queens are held,"
7       ``no-trump-four-courts``    "or four court cards."
======  ==========================  ======================================================

Readings (where the text leaves a choice):

* "three trumps" is *at least* three (four or five trumps are stronger still);
  every other rule counts trumps exactly (two, one, none).
* Rule 3: among the three plain cards, two of one suit including its king or
  queen; the third card is free.
* Rule 5: one of the four plain cards is a king or queen and the other three
  are of one suit and include a king or queen.
* Court cards are the king, queen and knave (the ace is not a court card).
* When several rules fit, the first in the list names the hand.

The list does not cover every example the treatise gives: its first example,
"King, queen, knave of spades, eight of hearts (trumps), eight of diamonds",
has one trump and three of a suit but a fifth card that is neither king nor
queen, so by the list (rule 5) it is *not* a jeu de règle. The classifier
follows the list; the example is kept as a test of that reading.

:func:`regle_rule` is the numba kernel (rule id, 0 = none) for the simulators;
:func:`classify` is the Python entry point. An independent plain-Python
reading lives in :func:`ecarte_sim.engine.ecarte.reference.jeu_de_regle`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import CardError, popcount32, suit_mask

RULES = ("three-trumps", "two-trumps-one-suit", "two-trumps-court-pair",
         "one-trump-four-king", "one-trump-three-court", "no-trump-three-queens",
         "no-trump-four-courts")
NONE = 0

# Rank bits inside a suit byte (Écarté order 7 8 9 10 A J Q K = bits 0..7).
_KING = np.uint32(0x80808080)
_QUEEN = np.uint32(0x40404040)
_KNAVE = np.uint32(0x20202020)


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
    """All the plain cards are of one suit."""
    for suit in range(4):
        if plain and (plain & suit_mask(suit)) == plain:
            return True
    return False


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
    """Rule id (1–7, see ``RULES``) of a five-card hand, or 0 if it is no jeu de règle."""
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


def classify(hand: int, trump: int) -> str | None:
    """Name of the rule of the list that makes ``hand`` a jeu de règle, or None."""
    if bin(int(hand)).count("1") != 5 or not 0 <= int(hand) < 1 << 32:
        raise CardError("a jeu de règle is judged on a hand of five cards", None)
    if not 0 <= int(trump) <= 3:
        raise CardError(f"trump suit must be 0-3, got {trump!r}", str(trump))
    rule = int(regle_rule(np.uint32(hand), int(trump)))
    return RULES[rule - 1] if rule else None
