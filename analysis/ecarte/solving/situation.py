"""One hand as the advice reads it, in plain Python: the hand's mask, its trumps and the
turn-ups it may be dealt with, and each role's two actions (the score is
:class:`~ecarte_sim.engine.ecarte.laws.score.Score`).
:mod:`ecarte_sim.analysis.ecarte.solving.proposal_game` re-exports all of it; kept apart so
that a first answer (``advise --no-values``) reads a hand without loading the kernels.
"""

from __future__ import annotations

import numpy as np

from ecarte_sim.engine.deck import parse_hand
from ecarte_sim.engine.ecarte.laws.notation import HAND_SIZE, parse_trump, parse_turn_up, turn_ups

#: The two actions of each role, arm a first: a True table entry means arm a.
ACTIONS = {"elder": ("propose", "play"), "dealer": ("accept", "refuse")}


def hand_situation(hand: str, trump: str, turn_up: str | None = None):
    """One hand as the advice reads it: its mask, the trump suit, the turned-up card (None
    when only the suit is given) and every turn-up it may be (one card, or each card of the
    trump suit not in the hand); :class:`ValueError` / ``CardError`` naming a bad token."""
    mask = int(parse_hand(hand, HAND_SIZE, name="hand"))
    suit, turned = parse_trump(trump, [("hand", mask)])
    if turn_up is not None:
        turned = parse_turn_up(turn_up, mask, suit, turned)
    return mask, suit, turned, np.array(turn_ups(mask, suit, turned), dtype=np.int64)
