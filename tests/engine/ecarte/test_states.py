"""Canonical first-decision states: the count, the index and the symmetry, by brute force."""

from itertools import combinations, permutations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from ecarte_sim.engine.cards import parse_card, parse_hand
from ecarte_sim.engine.ecarte.deals import experiments as X
from ecarte_sim.engine.ecarte.decisions import states as S
from ecarte_sim.engine.ecarte.settings import make_cfg


def _every_hand():
    return np.array([sum(1 << c for c in cards) for cards in combinations(range(32), 5)],
                    dtype=np.int64)


def _relabel(hands, order):
    """Hands with suit ``order[k]`` moved to suit ``k``."""
    out = np.zeros_like(hands)
    for k, s in enumerate(order):
        out |= ((hands >> (8 * s)) & 0xFF) << (8 * k)
    return out


@pytest.fixture(scope="module")
def every_pair():
    """All 32 x C(31, 5) (turn-up, hand) pairs, with an orbit id computed the other way:
    the trump suit moved to spades, then the least hand over the six orders of the plain
    suits, beside the turn-up's rank."""
    hands = _every_hand()
    all_hands, all_turn_ups, orbit = [], [], []
    for turn_up in range(32):
        trump = turn_up // 8
        hand = hands[(hands >> turn_up) & 1 == 0]
        plain = [s for s in range(4) if s != trump]
        least = np.min([_relabel(hand, (trump, *p)) for p in permutations(plain)], axis=0)
        all_hands.append(hand)
        all_turn_ups.append(np.full(len(hand), turn_up))
        orbit.append((turn_up % 8) << 32 | least)
    return np.concatenate(all_hands), np.concatenate(all_turn_ups), np.concatenate(orbit)


def test_count_and_index_equal_brute_force(every_pair):
    hands, turn_ups, orbit = every_pair
    assert len(hands) == S.N_PAIRS == 5_437_152
    index = S.states_of(hands, turn_ups)
    assert index.min() == 0 and index.max() == S.N_STATES - 1
    # one index per orbit and one orbit per index: the same partition of the pairs
    assert len(np.unique(orbit)) == S.N_STATES
    assert len(np.unique(index)) == S.N_STATES
    assert len(np.unique(index * (1 << 40) + orbit)) == S.N_STATES
    assert np.array_equal(np.bincount(index, minlength=S.N_STATES), S.state_weights())


@pytest.mark.quick
def test_representative_maps_back_to_its_index():
    hands, turn_ups = S.representatives()
    assert np.array_equal(S.states_of(hands, turn_ups), np.arange(S.N_STATES))
    assert all(S.state_cards(i) == (hands[i], turn_ups[i]) for i in range(0, S.N_STATES, 997))
    hands, turn_ups = hands.tolist(), turn_ups.tolist()
    assert all(t < 8 for t in turn_ups)  # spades for trump
    assert all(bin(h).count("1") == 5 and not (h >> t) & 1 for h, t in zip(hands, turn_ups))


def test_the_counted_index_is_every_keys_place_in_the_table():
    """canonical_index counts a state's place (engine/ecarte/decisions/canonical.py) instead of
    searching the table: for every state's key, the count is its position."""
    from ecarte_sim.engine.ecarte.decisions import canonical
    keys = S.state_keys().tolist()
    assert [canonical.key_index(k) for k in keys] == list(range(S.N_STATES))


@settings(max_examples=300, deadline=None)
@given(cards=st.lists(st.integers(0, 31), min_size=6, max_size=6, unique=True))
def test_the_counted_index_is_the_kernels(cards):
    """One hand's key and index in plain Python are the kernel's (state_key, state_index)."""
    from ecarte_sim.engine.ecarte.decisions import canonical
    turn_up, hand = cards[0], sum(1 << c for c in cards[1:])
    assert canonical.state_key(hand, turn_up) == int(S.state_key(np.uint32(hand), turn_up))
    assert S.canonical_index(hand, turn_up) == int(
        S.state_index(np.uint32(hand), np.int64(turn_up), S.state_keys()))


def test_index_sees_the_turn_up_rank_and_the_trump_suit():
    hand = int(parse_hand("KS QS JS 8H 8D"))
    # turn-ups of hearts: the state changes with the rank
    assert len({S.canonical_index(hand, parse_card(t)) for t in ("7H", "9H", "KH")}) == 3
    # the same cards with spades or hearts for trump are different states
    assert S.canonical_index(hand, parse_card("7H")) != S.canonical_index(hand, parse_card("7S"))
    # clubs and diamonds plain either way: a relabelling
    assert (S.canonical_index(hand, parse_card("7H"))
            == S.canonical_index(int(parse_hand("KS QS JS 8H 8C")), parse_card("7H")))


@pytest.mark.quick
def test_bad_pairs_are_refused():
    hand = int(parse_hand("KS QS JS 8H 8D"))
    with pytest.raises(ValueError, match="turn-up is in the hand"):
        S.canonical_index(hand, parse_card("KS"))
    with pytest.raises(ValueError, match="five cards"):
        S.canonical_index(int(parse_hand("KS QS JS 8H")), parse_card("7H"))
    assert S.state_index(np.uint32(hand), np.int64(parse_card("KS")), S.state_keys()) == -1
    with pytest.raises(ValueError, match="out of range"):
        S.state_cards(S.N_STATES)


def _plain_swap(hand, trump, order):
    plain = [s for s in range(4) if s != trump]
    moved = {trump: trump, **{plain[k]: plain[order[k]] for k in range(3)}}
    out = 0
    for s, t in moved.items():
        out |= ((hand >> (8 * s)) & 0xFF) << (8 * t)
    return out


@settings(max_examples=8)
@given(cards=st.lists(st.integers(0, 31), min_size=6, max_size=6, unique=True),
       order=st.permutations([0, 1, 2]).filter(lambda o: o != [0, 1, 2]))
def test_dd_values_are_invariant_under_plain_suit_relabelling(cards, order):
    """Every dealer hand enumerated: the 48 arm codes (marks, kings, Law 49, point, vole)
    of playing without proposing under dd have the same counts for a hand and its
    relabelling (the heuristic breaks ties by suit order, so it is not: module docstring)."""
    turn_up, hand = cards[0], sum(1 << c for c in cards[1:])
    trump = turn_up // 8
    other = _plain_swap(hand, trump, order)
    assert S.canonical_index(hand, turn_up) == S.canonical_index(other, turn_up)
    cfg = make_cfg(elder_first="play", play="dd")
    assert np.array_equal(X.exact_codes(hand, turn_up, trump, cfg),
                          X.exact_codes(other, turn_up, trump, cfg))
