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

from ecarte_sim.engine.cards import (ECARTE, N_CARDS, SUIT_NAMES, CardError, check_disjoint,
                                     format_card, format_cards, format_hand, parse_card,
                                     parse_hand, parse_suit)
from ecarte_sim.engine.rng import (check_index_range, check_seed, draw_descending, shuffle_plan,
                                   shuffle_prefix, swap_draws)

HAND_SIZE = 5
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


def parse_trump(trump_text: str, held: list[tuple[str, int]]) -> tuple[int, int | None]:
    """A trump written as a suit (``S``, ``♠``, ``spades``, ``spade``) or as the turned-up card
    (``TH``), which must then be in none of the ``held`` (name, mask) hands.

    Returns ``(trump suit, turn-up card or None)``; raises
    :class:`ecarte_sim.engine.cards.CardError` naming the bad token.
    """
    if not isinstance(trump_text, str) or not trump_text.strip():
        raise CardError("missing trump (a suit such as S or the turned-up card such as TH)",
                        "")
    try:
        return parse_suit(trump_text), None
    except CardError:
        pass
    try:
        turn_up = parse_card(trump_text, ECARTE)
    except CardError:
        token = trump_text.strip()
        raise CardError(f"unknown trump {token!r}: give a suit (S H D C, ♠ ♥ ♦ ♣, hearts "
                        "or heart) or the turned-up card", token) from None
    check_disjoint([*held, ("turn-up", 1 << turn_up)])
    return turn_up >> 3, turn_up


def parse_turn_up(text: str, hand: int, suit: int, turned: int | None) -> int:
    """The turned-up card written as ``text`` (Law 10: its suit is trumps): in neither
    the ``hand`` (mask), of the trump ``suit``, and the card ``turned`` if the trump named
    one; :class:`~ecarte_sim.engine.cards.CardError` names the token otherwise."""
    card = parse_card(text, ECARTE)
    token = text.strip()
    check_disjoint([("hand", hand), ("turn-up", 1 << card)])
    if card >> 3 != suit:
        raise CardError(f"turn-up {token!r} is not of the trump suit "
                        f"({SUIT_NAMES[suit]})", token)
    if turned is not None and card != turned:
        raise CardError(f"turn-up {token!r} is not the card the trump names "
                        f"({format_card(turned, ECARTE)})", token)
    return card


def parse_deal(elder_text: str, dealer_text: str, trump_text: str) -> tuple[int, int, int, int | None]:
    """Parse a deal written as text: two 5-card hands and a trump (see :func:`parse_trump`).

    Returns ``(elder mask, dealer mask, trump suit, turn-up card or None)``; raises
    :class:`ecarte_sim.engine.cards.CardError` naming the bad token.
    """
    elder = int(parse_hand(elder_text, HAND_SIZE, ECARTE, "elder hand"))
    dealer = int(parse_hand(dealer_text, HAND_SIZE, ECARTE, "dealer hand"))
    held = [("elder hand", elder), ("dealer hand", dealer)]
    check_disjoint(held)
    trump, turn_up = parse_trump(trump_text, held)
    return elder, dealer, trump, turn_up
