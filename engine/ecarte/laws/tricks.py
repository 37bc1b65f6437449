"""Trick play (Law 43 and the Rules of Écarté summary).

The second player to a trick must follow suit and, following, must win the
trick if able ("if a player fail to win the trick when able", Law 43); void
in the suit led, he must trump if able; otherwise he may play any card. The
variant ``forced_trump=False`` (some 19th-century American texts) lets a
player void in the suit led keep his trumps. The winner of a trick leads to
the next.

Kernels take masks (``uint32``) and card indices (see :mod:`ecarte_sim.engine.cards`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import above_in_suit, suit_mask

ELDER = 0
DEALER = 1


@njit(cache=True)
def legal_replies(hand, led, trump, forced_trump):
    """Mask of the cards of ``hand`` that may be played to the card ``led`` (Law 43)."""
    hand = np.uint32(hand)
    same_suit = hand & suit_mask(np.int64(led) >> 3)
    if same_suit:
        winning = same_suit & above_in_suit(led)
        if winning:
            return winning
        return same_suit
    if forced_trump:
        trumps = hand & suit_mask(trump)
        if trumps:
            return trumps
    return hand


@njit(cache=True)
def leader_wins(led, reply, trump):
    """True when the card led beats the reply: a higher card of the suit led,
    or a trump, takes the trick; any other reply loses."""
    led_suit = np.int64(led) >> 3
    reply_suit = np.int64(reply) >> 3
    if reply_suit == led_suit:
        return reply < led
    return reply_suit != trump
