"""The deal: reproducible, identical to the reference, and uniform (exact combinatorics)."""

from math import comb

import numpy as np
import pytest
from numba import njit

from ecarte_sim.engine.cards import N_CARDS
from ecarte_sim.engine.ecarte import reference
from ecarte_sim.engine.ecarte.deals.simulate import position_counts, simulate_counts
from ecarte_sim.engine.ecarte.laws.deal import ECARTE_PLAN, deal, deal_full, deal_hands
from ecarte_sim.engine.rng import shuffle_prefix
from stats_helpers import chi2_stat, chi2_upper


def _ref_masks(seed, index):
    r = reference.deal(seed, index)
    return (sum(1 << c for c in r.elder), sum(1 << c for c in r.dealer), r.turn_up,
            tuple(r.stock))


@pytest.mark.quick
def test_deal_is_a_partition_of_the_pack():
    d = deal(11, 12345)
    cards = [c for c in range(32) if d.elder >> c & 1] + \
            [c for c in range(32) if d.dealer >> c & 1] + [d.turn_up, *d.stock]
    assert sorted(cards) == list(range(32))
    assert bin(d.elder).count("1") == 5 and bin(d.dealer).count("1") == 5
    assert len(d.stock) == 21
    assert d.trump == d.turn_up >> 3


@pytest.mark.quick
@pytest.mark.parametrize("seed", [0, 1, 2**63 + 5, 2**64 - 1])
def test_deals_match_the_reference(seed):
    rng = np.random.default_rng(seed % 1000)
    indices = list(range(300)) + [int(i) for i in rng.integers(0, 2**44, 300)]
    for i in indices:
        d = deal(seed, i)
        assert (d.elder, d.dealer, d.turn_up, d.stock) == _ref_masks(seed, i), i


@njit(cache=True)
def _words_used(seed, start, stop, plan):
    out = np.zeros(stop - start, dtype=np.int64)
    perm = np.empty(32, dtype=np.int64)
    draws = np.empty(32, dtype=np.int64)
    for i in range(start, stop):
        for j in range(32):
            perm[j] = j
        out[i - start] = shuffle_prefix(seed, np.uint64(i), plan, plan.shape[0], perm, draws)
    return out


def test_rejected_words_match_the_reference():
    """Deals whose batched draw rejected a word (rare) agree with the reference too."""
    used = _words_used(np.uint64(3), 0, 60_000, ECARTE_PLAN)
    rejected = np.flatnonzero(used > len(ECARTE_PLAN))
    assert len(rejected) > 0
    for i in rejected[:40]:
        d = deal(3, int(i))
        assert (d.elder, d.dealer, d.turn_up, d.stock) == _ref_masks(3, int(i))


@pytest.mark.quick
def test_hands_only_kernel_is_a_prefix_of_the_full_deal():
    perm_a = np.empty(32, dtype=np.int64)
    perm_b = np.empty(32, dtype=np.int64)
    draws = np.empty(32, dtype=np.int64)
    for i in range(2000):
        a = deal_hands(np.uint64(9), np.uint64(i), perm_a, draws)
        b = deal_full(np.uint64(9), np.uint64(i), perm_b, draws)
        assert a == b
        assert (perm_a[:11] == perm_b[:11]).all()


def test_trumps_in_elder_hand_are_hypergeometric():
    """NOTES: 0: 42,504; 1: 74,382; 2: 42,504; 3: 9,660; 4: 840; 5: 21 of C(31,5) = 169,911."""
    exact = [comb(7, k) * comb(24, 5 - k) for k in range(6)]
    assert exact == [42504, 74382, 42504, 9660, 840, 21] and sum(exact) == comb(31, 5)
    n = 2_000_000
    counts = simulate_counts(2024, 0, n, "deal")
    expected = [n * e / comb(31, 5) for e in exact]
    assert int(counts[:6].sum()) == n
    assert chi2_stat(counts[:6], expected) < chi2_upper(5)


def test_turn_up_is_a_king_one_time_in_eight():
    n = 2_000_000
    kings = int(simulate_counts(77, 10**9, 10**9 + n, "deal")[6])
    sd = (n * 1 / 8 * 7 / 8) ** 0.5
    assert abs(kings - n / 8) < 4 * sd


def test_every_card_equally_likely_in_every_position():
    n = 320_000
    counts = position_counts(5, 0, n)
    assert (counts.sum(axis=0) == n).all() and (counts.sum(axis=1) == n).all()
    expected = n / N_CARDS
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < chi2_upper(31 * 31)
    # and no single cell is off (a per-cell check catches a bias the total dilutes)
    z = np.abs(counts - expected) / np.sqrt(expected * (1 - 1 / N_CARDS))
    assert z.max() < 5.0


def test_the_turn_ups_a_hand_allows_are_the_enumerations():
    """notation.turn_ups (the advice's, plain Python; the exact enumeration's
    experiments.exact_turn_ups reads it) against the cards themselves: the card turned
    up when it is given, else every card of the trump suit, by rank and suit, that the
    hand does not hold; every trump suit of many hands."""
    from ecarte_sim.engine.cards import format_card, parse_card
    from ecarte_sim.engine.ecarte.deals.experiments import exact_turn_ups
    from ecarte_sim.engine.ecarte.laws.notation import turn_ups
    rng = np.random.default_rng(3)
    for _ in range(200):
        hand = int(sum(1 << int(c) for c in rng.choice(32, 5, replace=False)))
        held = {format_card(c) for c in range(32) if hand >> c & 1}
        for suit in range(4):
            letter = "SHDC"[suit]
            left = [parse_card(r + letter) for r in "789TAJQK" if r + letter not in held]
            assert turn_ups(hand, suit, None) == sorted(left)
            assert exact_turn_ups(hand, None, suit).tolist() == sorted(left)
            for turned in (left[0], left[-1]):
                assert turn_ups(hand, suit, turned) == [turned]
                assert exact_turn_ups(hand, turned, suit).tolist() == [turned]
