"""One hand at one score as the advice reads it, in plain Python: the score parsed, the
hand's mask, its trumps and the turn-ups it may be dealt with, and each role's two
actions. :mod:`ecarte_sim.analysis.ecarte.solving.proposal_game` re-exports all of it; kept apart so
that a first answer (``advise --no-values``) reads a hand without loading the kernels.
"""

from __future__ import annotations

import numpy as np

from ecarte_sim.analysis.ecarte.measures.scores import TARGET
from ecarte_sim.engine.deck import parse_hand
from ecarte_sim.engine.ecarte.laws.notation import HAND_SIZE, parse_trump, parse_turn_up, turn_ups

#: The two actions of each role, arm a first: a True table entry means arm a.
ACTIONS = {"elder": ("propose", "play"), "dealer": ("accept", "refuse")}


def parse_score(text: str) -> tuple[int, int]:
    """``"E-D"`` (the elder's score first, each 0–4) as (E, D); ``ValueError`` naming the
    token otherwise."""
    parts = str(text).strip().split("-")
    if len(parts) != 2 or not all(p.isdigit() for p in parts) or \
            not all(int(p) < TARGET for p in parts):
        raise ValueError(f"bad score {text!r}: write E-D, the elder's score first, each "
                         f"0-{TARGET - 1} (e.g. 3-4)")
    return int(parts[0]), int(parts[1])


def score_pair(score) -> tuple[int, int]:
    """``score`` — ``"E-D"`` or a pair ``(E, D)`` of integers, the elder's first, each
    0–4 — as ``(E, D)``; :class:`ValueError` naming the token otherwise."""
    if isinstance(score, str):
        return parse_score(score)
    hint = f"give (E, D) or 'E-D', the elder's score first, each 0-{TARGET - 1} (e.g. (3, 4))"
    if not isinstance(score, (tuple, list)) or len(score) != 2:
        raise ValueError(f"bad score {score!r}: {hint}")
    for part in score:
        if isinstance(part, (bool, np.bool_)) or not isinstance(part, (int, np.integer)) \
                or not 0 <= int(part) < TARGET:
            raise ValueError(f"bad score {score!r}: {part!r} is not a score 0-{TARGET - 1}; "
                             f"{hint}")
    return int(score[0]), int(score[1])


def hand_situation(hand: str, trump: str, turn_up: str | None = None):
    """One hand as the advice reads it: its mask, the trump suit, the turned-up card (None
    when only the suit is given) and every turn-up it may be (one card, or each card of the
    trump suit not in the hand); :class:`ValueError` / ``CardError`` naming a bad token."""
    mask = int(parse_hand(hand, HAND_SIZE, name="hand"))
    suit, turned = parse_trump(trump, [("hand", mask)])
    if turn_up is not None:
        turned = parse_turn_up(turn_up, mask, suit, turned)
    return mask, suit, turned, np.array(turn_ups(mask, suit, turned), dtype=np.int64)
