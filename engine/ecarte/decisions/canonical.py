"""One first-decision state's dense index, counted: no table of every state, no numba.

:mod:`ecarte_sim.engine.ecarte.decisions.states` defines the canonical states (turn-up rank, trump
holding, the multiset of the three plain holdings), their int64 keys and their dense
index: the position of a state's key among every state's key in ascending order. The
kernels find it by binary search in that table, which takes about a second to build;
a first answer for one hand (``advise``'s action) counts it here instead.

The keys below ``rank << 32 | T << 24 | a << 16 | b << 8 | c`` (``a >= b >= c``, the
plain bytes) are those of a lower turn-up rank, or of the same rank and a lower trump
byte, or of the same both and lower plain bytes (by ``a``, then ``b``, then ``c``). A
key is a state when its trump byte does not hold the turn-up's rank and its bytes hold
five cards in all, so each of those sets is counted from how many bytes of each number
of cards lie below a byte. ``tests/engine/ecarte/test_states.py`` checks the count against the table
for every state.
"""

from __future__ import annotations

from functools import cache

from ecarte_sim.engine.deck import N_CARDS, N_RANKS, N_SUITS
from ecarte_sim.engine.ecarte.laws.notation import HAND_SIZE as _HAND

#: The number of canonical first-decision states (checked against brute force in the tests).
N_STATES = 255_304

_CARDS = tuple(bin(b).count("1") for b in range(256))   # cards in a suit's byte


@cache
def _counts() -> tuple[list, list, list, list]:
    """``one[b][s]``: bytes ``c < b`` of ``s`` cards; ``two[b][s]``: pairs ``(b', c)`` with
    ``c <= b' < b`` of ``s`` cards together; ``three[a][s]``: triples ``c <= b' <= a' < a``
    of ``s`` cards; ``before[rank][T]``: the keys of a lower rank, or of this rank and a
    trump byte below ``T``."""
    sizes = range(_HAND + 1)
    one = [[0] * (_HAND + 1)]
    for b in range(256):
        one.append([one[b][s] + (_CARDS[b] == s) for s in sizes])
    two = [[0] * (_HAND + 1)]
    for b in range(256):
        two.append([two[b][s] + (one[b + 1][s - _CARDS[b]] if s >= _CARDS[b] else 0)
                    for s in sizes])
    three = [[0] * (_HAND + 1)]
    for a in range(256):
        three.append([three[a][s] + (two[a + 1][s - _CARDS[a]] if s >= _CARDS[a] else 0)
                      for s in sizes])
    before, n = [], 0
    for rank in range(N_RANKS):
        row = []
        for trump in range(256):
            row.append(n)
            if not trump >> rank & 1 and _CARDS[trump] <= _HAND:
                n += three[256][_HAND - _CARDS[trump]]
        before.append(row)
    if n != N_STATES:       # pragma: no cover - the count is the states' own
        raise AssertionError(f"{n} keys counted, {N_STATES} states")
    return one, two, three, before


def state_key(hand: int, turn_up: int) -> int:
    """The key of (``hand``, ``turn_up``) in plain Python: the kernels'
    :func:`.states.state_key`, written again so that one hand's state is found without
    loading numba (``advise``'s action, :mod:`ecarte_sim.analysis.ecarte.advice.first_decision`);
    ``tests/engine/ecarte/test_states.py`` (``test_the_counted_index_is_the_kernels``) checks the two
    agree."""
    hand, turn_up = int(hand), int(turn_up)
    trump = turn_up // N_RANKS
    a, b, c = sorted(((hand >> (8 * s)) & 0xFF for s in range(N_SUITS) if s != trump),
                     reverse=True)
    return (turn_up % N_RANKS) << 32 | ((hand >> (8 * trump)) & 0xFF) << 24 | a << 16 | b << 8 | c


def key_index(key: int) -> int:
    """The dense index of the state of ``key`` (a state's key: see the module docstring)."""
    one, two, three, before = _counts()
    rank, trump = key >> 32, (key >> 24) & 0xFF
    a, b, c = (key >> 16) & 0xFF, (key >> 8) & 0xFF, key & 0xFF
    left = _HAND - _CARDS[trump]                # cards in the plain suits
    index = before[rank][trump] + three[a][left]
    left -= _CARDS[a]
    index += two[b][left]
    left -= _CARDS[b]
    return index + one[c][left]


def canonical_index(hand: int, turn_up: int) -> int:
    """The dense index of (``hand``, ``turn_up``); ``ValueError`` if they are not a state."""
    if bin(int(hand)).count("1") != _HAND or not 0 <= int(turn_up) < N_CARDS:
        raise ValueError("a state is five cards and a turn-up")
    if (int(hand) >> int(turn_up)) & 1:
        raise ValueError("the turn-up is in the hand")
    return key_index(state_key(hand, turn_up))
