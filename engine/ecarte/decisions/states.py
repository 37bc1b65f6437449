"""Canonical first-decision states: a player's five cards and the turn-up, up to symmetry.

The elder's first decision (play or propose, Laws 25–26) rests on his five cards and the
turn-up (Law 10); the dealer's first answer (accept or refuse, Law 25) on his five cards,
the turn-up and the proposal, which is the same information plus a fact every such answer
shares. Both are therefore read from one state: *(turn-up, hand)*.

Symmetry. Nothing in the laws tells one suit from another except the trump, which the
turn-up fixes; so relabelling the suits maps a deal to a deal with the same play and the
same marks. With the trump suit fixed, the three plain suits are interchangeable; the
turn-up's *rank* matters (that card is out of both hands: it shapes which trumps are left,
and a turned-up king is the dealer's mark, Law 22). A state is therefore

    (turn-up rank, the trump holding, the multiset of the three plain holdings)

written as one int64 *key*::

    key = rank << 32 | trump byte << 24 | plain bytes, highest first, << 16, 8, 0

where a *byte* is a suit's eight rank bits (:mod:`ecarte_sim.engine.cards`): sorting the
three plain bytes is the canonical choice among the 3! relabellings. The dense *index* of a
state is the position of its key in :func:`state_keys` (ascending), found by binary search
in the kernels (:func:`state_index`); for one hand it is counted without that table
(:func:`canonical_index`, :mod:`ecarte_sim.engine.ecarte.decisions.canonical`: no numba).

Counts (exact; ``tests/engine/ecarte/test_states.py`` checks them against a brute-force enumeration of
all 32 × C(31, 5) = 5,437,152 (turn-up, hand) pairs, with a canonical form computed the
other way — the least of the six relabelled hands):

* **N_STATES = 255,304** canonical first-decision states;
* each stands for ``weight`` (turn-up, hand) pairs: 4 trump suits × the distinct
  orderings of its plain holdings (6, 3 or 1), so the weights sum to 5,437,152 and a
  state is dealt with probability ``weight / 5,437,152``.

Which values are invariant. Double-dummy play is exact and sees no suit but the
trump, so playing without proposing under ``dd`` every member of a state has the same
distribution of marks (tested with every dealer hand enumerated). A rule that breaks a
tie between equally good cards by card order, that is by suit (the heuristic's and
PIMC's choice of card, a discard between equal cards of two suits), can make members
differ slightly: the hand KS TS 9S 8S 7D with the 7S turned up, played without
proposing under the heuristic against every dealer hand, wins the point 0.998 of the
time and the vole 0.296; with diamonds and clubs swapped (7C for 7D), the same point
and a vole of 0.272. A state's value is therefore the average over its members, each
equally likely: exactly what a table indexed by state earns, and what sampling deals
consistent with the state estimates.

The representative of a state (:func:`state_cards`) has spades for trump and the plain
holdings in hearts, diamonds, clubs in ascending order of their bytes.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import N_CARDS, N_RANKS, N_SUITS
from ecarte_sim.engine.ecarte.decisions.canonical import N_STATES, canonical_index
from ecarte_sim.engine.ecarte.laws.deal import HAND_SIZE
#: (turn-up, hand) pairs: 32 turn-ups × C(31, 5) hands.
N_PAIRS = N_CARDS * 169_911


@njit(cache=True, inline="always")
def _byte(hand, suit):
    return np.int64((np.uint32(hand) >> np.uint32(8 * suit)) & np.uint32(0xFF))


@njit(cache=True)
def state_key(hand, turn_up):
    """The canonical key of (``hand`` mask, ``turn_up`` card): module docstring."""
    trump = turn_up // N_RANKS
    a = np.int64(-1)
    b = np.int64(-1)
    c = np.int64(-1)
    for s in range(N_SUITS):
        if s == trump:
            continue
        x = _byte(hand, s)
        if a < 0:
            a = x
        elif b < 0:
            b = x
        else:
            c = x
    if a < b:
        a, b = b, a
    if b < c:
        b, c = c, b
    if a < b:
        a, b = b, a
    return ((np.int64(turn_up % N_RANKS) << 32) | (_byte(hand, trump) << 24)
            | (a << 16) | (b << 8) | c)


@njit(cache=True)
def state_index(hand, turn_up, keys):
    """The dense index of (``hand``, ``turn_up``) in ``keys`` (:func:`state_keys`);
    -1 if the pair is not a state (the turn-up in the hand, or not five cards)."""
    key = state_key(hand, turn_up)
    i = np.searchsorted(keys, key)
    if i < keys.shape[0] and keys[i] == key:
        return np.int64(i)
    return np.int64(-1)


def _all_hands() -> np.ndarray:
    """Every 5-card hand of the pack as a uint32 mask (C(32, 5) = 201,376)."""
    masks = np.zeros(201_376, dtype=np.uint32)
    for i, cards in enumerate(combinations(range(N_CARDS), HAND_SIZE)):
        m = 0
        for c in cards:
            m |= 1 << c
        masks[i] = m
    return masks


def _keys_of(hands: np.ndarray, turn_up: int) -> np.ndarray:
    """:func:`state_key` of many hands with one turn-up, in numpy: the table is built
    without calling a kernel, so that reading the weights (``chart``) loads no compiled
    code. ``tests/engine/ecarte/test_states.py`` finds every (turn-up, hand) pair's key in it through
    the kernel's :func:`state_index`."""
    trump = turn_up // N_RANKS
    h = hands.astype(np.int64)
    plain = np.stack([(h >> (8 * s)) & 0xFF for s in range(N_SUITS) if s != trump], axis=1)
    plain = -np.sort(-plain, axis=1)
    return ((turn_up % N_RANKS) << 32 | ((h >> (8 * trump)) & 0xFF) << 24
            | plain[:, 0] << 16 | plain[:, 1] << 8 | plain[:, 2])


@cache
def _table() -> tuple[np.ndarray, np.ndarray]:
    hands = _all_hands()
    keys = []
    for turn_up in range(N_RANKS):  # spades for trump: every state has such a pair
        keep = hands[(hands >> np.uint32(turn_up)) & np.uint32(1) == 0]
        keys.append(_keys_of(keep, turn_up))
    unique, counts = np.unique(np.concatenate(keys), return_counts=True)
    assert unique.shape[0] == N_STATES
    unique.setflags(write=False)
    weights = (counts * N_SUITS).astype(np.int64)
    weights.setflags(write=False)
    return unique, weights


def state_keys() -> np.ndarray:
    """The sorted int64 keys of every canonical state; position = dense index (read-only;
    built once, about a second)."""
    return _table()[0]


def state_weights() -> np.ndarray:
    """``weights[i]``: how many (turn-up, hand) pairs state ``i`` stands for (they sum to
    :data:`N_PAIRS`)."""
    return _table()[1]


def state_cards(index: int) -> tuple[int, int]:
    """The representative (hand mask, turn-up card) of state ``index``: spades for trump,
    the plain holdings in hearts, diamonds, clubs in ascending order of their bytes."""
    if not 0 <= int(index) < N_STATES:
        raise ValueError(f"state index {index} out of range [0, {N_STATES})")
    key = int(state_keys()[int(index)])
    turn_up = key >> 32
    hand = (key >> 24) & 0xFF | (key & 0xFFFFFF) << 8
    return hand, turn_up


def representatives() -> tuple[np.ndarray, np.ndarray]:
    """The representatives of every state in index order: (uint32 hands, int64 turn-ups),
    as :func:`state_cards` gives them one by one."""
    keys = state_keys()
    turn_ups = keys >> 32
    hands = ((keys >> 24) & 0xFF | (keys & 0xFFFFFF) << 8).astype(np.uint32)
    return hands, turn_ups


def states_of(hands: np.ndarray, turn_ups: np.ndarray) -> np.ndarray:
    """Dense indices of many (hand, turn-up) pairs (numpy arrays of equal length)."""
    keys = state_keys()
    out = np.empty(len(hands), dtype=np.int64)
    _states_of(np.asarray(hands, dtype=np.uint32), np.asarray(turn_ups, dtype=np.int64),
               keys, out)
    return out


@njit(cache=True)
def _states_of(hands, turn_ups, keys, out):
    for i in range(hands.shape[0]):
        out[i] = state_index(hands[i], turn_ups[i], keys)


__all__ = ["N_STATES", "N_PAIRS", "state_key", "state_index", "state_keys", "state_weights",
           "canonical_index", "state_cards", "representatives", "states_of"]
