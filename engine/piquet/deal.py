"""The Piquet deal (Law 9): twelve cards each, a stock of eight.

Deal ``i`` of seed ``s`` is a forward Fisher–Yates shuffle of the 32 cards
(identity order = bit order of :mod:`ecarte_sim.engine.cards`) drawn from deal ``i``'s
sub-stream of :mod:`ecarte_sim.engine.rng` (``PIQUET_PLAN``: 11, 14 and 6 draws per
64-bit word). Positions of the shuffled pack:

====================  ==========================================
0 – 11                elder hand (the non-dealer)
12 – 23               younger hand (the dealer)
24 – 31               the stock, top card first (Law 23: taken in from the top)
====================  ==========================================

Law 9 deals by twos or threes; under a uniform shuffle any fixed assignment of
positions gives the same distribution. Players' random decisions (a random
discard, a random card) read further words of the same sub-stream at fixed
offsets (:data:`WORDS_ELDER_DISCARD`, :data:`WORDS_YOUNGER_DISCARD`,
:data:`WORDS_PLAY`, :data:`WORDS_WORLDS`), so every deal — decisions included — is a
pure function of (seed, index).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import (N_CARDS, PIQUET, CardError, check_disjoint, format_cards,
                                     format_hand, parse_card, parse_hand, split_tokens)
from ecarte_sim.engine.rng import (batch_product, batch_threshold, check_index_range, check_seed,
                                   draw_descending, shuffle_plan, shuffle_prefix, swap_draws)

HAND_SIZE = 12
STOCK_SIZE = 8
STOCK_POSITION = 2 * HAND_SIZE
PIQUET_PLAN = shuffle_plan(N_CARDS, [11, 14, 6])

#: Word offsets inside a deal's sub-stream (the shuffle reads words 0, 1, 2, ...).
WORDS_ELDER_DISCARD = 64    # the elder's random discard
WORDS_YOUNGER_DISCARD = 96  # the younger's
WORDS_PLAY = 128            # card j of the play (0..23) draws from 128 + 16 j ..
WORDS_WORLDS = 1 << 12      # sampled worlds of a PIMC player


def _threshold_table() -> np.ndarray:
    """``T[top, count]`` = ``2**64 mod (top (top-1) ... (top-count+1))`` (0 if unused)."""
    table = np.zeros((N_CARDS + 1, 13), dtype=np.uint64)
    for top in range(1, N_CARDS + 1):
        for count in range(1, min(top, 12) + 1):
            if batch_product(top, count) < (1 << 64):
                table[top, count] = batch_threshold(top, count)
    return table


#: Rejection thresholds for batched bounded draws (see :func:`ecarte_sim.engine.rng.draw_descending`).
THRESHOLDS = _threshold_table()


@njit(cache=True)
def deal_pack(seed, index, perm, draws):
    """(elder mask, younger mask) of deal ``index``; ``perm[24:32]`` is the stock, top first.

    ``perm`` and ``draws`` are caller-owned int64 arrays of length 32.
    """
    for i in range(N_CARDS):
        perm[i] = i
    shuffle_prefix(seed, index, PIQUET_PLAN, PIQUET_PLAN.shape[0], perm, draws)
    elder = np.uint32(0)
    younger = np.uint32(0)
    for i in range(HAND_SIZE):
        elder |= np.uint32(1) << np.uint32(perm[i])
        younger |= np.uint32(1) << np.uint32(perm[HAND_SIZE + i])
    return elder, younger


@njit(cache=True)
def random_subset(seed, index, k, hand, count, thresholds, draws):
    """A uniformly random ``count``-card subset of ``hand`` (a partial Fisher–Yates
    over the hand's cards in bit order), from words ``k, k+1, ...``."""
    cards = np.empty(32, dtype=np.int64)
    n = 0
    h = np.uint32(hand)
    for c in range(32):
        if (h >> np.uint32(c)) & np.uint32(1):
            cards[n] = c
            n += 1
    draw_descending(seed, index, k, n, count, thresholds[n, count], draws, 0)
    swap_draws(cards, draws, 0, count)
    chosen = np.uint32(0)
    for j in range(count):
        chosen |= np.uint32(1) << np.uint32(cards[j])
    return chosen


@njit(cache=True)
def random_below(seed, index, k, bound, thresholds, draws):
    """A uniform draw from ``[0, bound)`` from words ``k, k+1, ...``."""
    draw_descending(seed, index, k, bound, 1, thresholds[bound, 1], draws, 0)
    return draws[0]


@dataclass(frozen=True)
class PiquetDeal:
    """One deal: dealt hands (masks) and the stock, top card first."""

    seed: int | None
    index: int | None
    elder: int
    younger: int
    stock: tuple[int, ...]

    def as_dict(self) -> dict:
        return {"seed": self.seed, "index": self.index,
                "elder": format_hand(self.elder, PIQUET),
                "younger": format_hand(self.younger, PIQUET),
                "stock": format_cards(self.stock, PIQUET)}


def deal(seed: int, index: int) -> PiquetDeal:
    """Deal ``index`` of ``seed``."""
    seed = check_seed(seed)
    check_index_range(index, int(index) + 1)
    perm = np.empty(N_CARDS, dtype=np.int64)
    draws = np.empty(N_CARDS, dtype=np.int64)
    elder, younger = deal_pack(np.uint64(seed), np.uint64(index), perm, draws)
    return PiquetDeal(seed, int(index), int(elder), int(younger),
                      tuple(int(c) for c in perm[STOCK_POSITION:]))


def parse_stock(text: str) -> tuple[int, ...]:
    """Eight stock cards in order, top first (``CardError`` names a bad token)."""
    tokens = split_tokens(text)
    cards = []
    for token in tokens:
        card = parse_card(token, PIQUET)
        if card in cards:
            raise CardError(f"duplicate card {token!r} in the stock", token)
        cards.append(card)
    if len(cards) != STOCK_SIZE:
        raise CardError(f"stock {text.strip()!r} has {len(cards)} cards, expected {STOCK_SIZE}",
                        text.strip())
    return tuple(cards)


def parse_deal(elder_text: str, younger_text: str, stock_text: str) -> PiquetDeal:
    """Two 12-card hands and the 8-card stock (top first), all 32 cards once."""
    elder = int(parse_hand(elder_text, HAND_SIZE, PIQUET, "elder hand"))
    younger = int(parse_hand(younger_text, HAND_SIZE, PIQUET, "younger hand"))
    stock = parse_stock(stock_text)
    stock_mask = 0
    for c in stock:
        stock_mask |= 1 << c
    check_disjoint([("elder hand", elder), ("younger hand", younger), ("stock", stock_mask)],
                   PIQUET)
    return PiquetDeal(None, None, elder, younger, stock)
