"""The Écarté deal (Laws 8 and 10): 5 cards each, the 11th turned up, 21 in the stock.

Deal ``i`` of seed ``s`` is a forward Fisher–Yates shuffle of the 32 cards
(identity order = bit order of :mod:`ecarte_sim.engine.cards`) drawn from deal ``i``'s
sub-stream of :mod:`ecarte_sim.engine.rng`, in three batches of draws
(``ECARTE_PLAN``: 11, 14 and 6 draws per 64-bit word). Positions of the
shuffled pack:

====================  ==========================================
0 – 4                 elder hand (the non-dealer)
5 – 9                 dealer hand
10                    turn-up (the 11th card, Law 10): fixes the trump suit
11 – 31               the stock, top card first, drawn in this order
====================  ==========================================

Law 8 deals by twos and threes; with a uniformly shuffled pack any fixed
assignment of positions to hands gives the same distribution, so the simplest
is used. The first batch alone fixes both hands and the turn-up, so a kernel
that needs no stock (play without exchange) draws only that batch and still
sees exactly the same deal.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import ECARTE, N_CARDS, format_card, format_cards, format_hand
from ecarte_sim.engine.ecarte.laws.notation import (  # noqa: F401 - re-exported
    HAND_SIZE, parse_deal, parse_trump, parse_turn_up)
from ecarte_sim.engine.rng import (check_index_range, check_seed, draw_descending, shuffle_plan,
                                   shuffle_prefix, swap_draws)

STOCK_SIZE = N_CARDS - 2 * HAND_SIZE - 1
TURN_UP_POSITION = 2 * HAND_SIZE
#: Draws per word: 32..22 (hands and turn-up), 21..8, 7..2.
ECARTE_PLAN = shuffle_plan(N_CARDS, [11, 14, 6])
# The first batch as compile-time constants, for the hands-only kernel.
_HAND_DRAWS = int(ECARTE_PLAN[0, 1])
_HAND_THRESHOLD = np.uint64(ECARTE_PLAN[0, 2])
assert _HAND_DRAWS == TURN_UP_POSITION + 1


@njit(cache=True, inline="always")
def _reset(perm):
    for i in range(N_CARDS):
        perm[i] = i


@njit(cache=True, inline="always")
def _hands_from(perm):
    elder = np.uint32(0)
    dealer = np.uint32(0)
    for i in range(HAND_SIZE):
        elder |= np.uint32(1) << np.uint32(perm[i])
        dealer |= np.uint32(1) << np.uint32(perm[HAND_SIZE + i])
    return elder, dealer, np.int64(perm[TURN_UP_POSITION])


@njit(cache=True)
def deal_hands(seed, index, perm, draws):
    """(elder mask, dealer mask, turn-up card) of deal ``index``; no stock drawn.

    Draws only the first batch of ``ECARTE_PLAN`` (positions 0–10), so it is
    the same deal as :func:`deal_full`. ``perm`` (32) and ``draws`` (32) are
    caller-owned int64 scratch arrays.
    """
    _reset(perm)
    draw_descending(seed, index, 0, N_CARDS, _HAND_DRAWS, _HAND_THRESHOLD, draws, 0)
    swap_draws(perm, draws, 0, _HAND_DRAWS)
    return _hands_from(perm)


@njit(cache=True)
def deal_full(seed, index, perm, draws):
    """Like :func:`deal_hands`, and leaves the whole shuffled pack in ``perm``
    (``perm[11:]`` is the stock, top first)."""
    _reset(perm)
    shuffle_prefix(seed, index, ECARTE_PLAN, ECARTE_PLAN.shape[0], perm, draws)
    return _hands_from(perm)


@dataclass(frozen=True)
class Deal:
    """One Écarté deal. Masks are ``uint32`` hands; ``stock`` is top card first."""

    seed: int
    index: int
    elder: int
    dealer: int
    turn_up: int
    stock: tuple[int, ...]

    @property
    def trump(self) -> int:
        return self.turn_up >> 3

    def as_dict(self) -> dict:
        return {"seed": self.seed, "index": self.index,
                "elder": format_hand(self.elder, ECARTE),
                "dealer": format_hand(self.dealer, ECARTE),
                "turn_up": format_card(self.turn_up, ECARTE),
                "stock": format_cards(self.stock, ECARTE)}


def deal(seed: int, index: int) -> Deal:
    """Deal ``index`` of ``seed``, with the stock in the order it will be drawn."""
    seed = check_seed(seed)
    check_index_range(index, int(index) + 1)
    perm = np.empty(N_CARDS, dtype=np.int64)
    draws = np.empty(N_CARDS, dtype=np.int64)
    elder, dealer, turn_up = deal_full(np.uint64(seed), np.uint64(index), perm, draws)
    return Deal(seed, int(index), int(elder), int(dealer), int(turn_up),
                tuple(int(c) for c in perm[TURN_UP_POSITION + 1:]))
