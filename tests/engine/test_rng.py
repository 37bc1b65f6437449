"""Counter-based SplitMix64 and unbiased batched bounded draws (engine/rng.py)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

from ecarte_sim.engine.rng import (MAX_DEAL_INDEX, WORDS_PER_DEAL, batch_product, batch_threshold,
                                   check_index_range, check_seed, draw_descending,
                                   draw_descending_lazy, mul_small, splitmix64_at, stream_word)

pytestmark = pytest.mark.quick

# Published outputs of the reference splitmix64.c (Vigna), e.g. Rosetta Code
# "Pseudo-random numbers/Splitmix64" for seed 1234567.
REFERENCE = {
    1234567: [6457827717110365317, 3203168211198807973, 9817491932198370423,
              4593380528125082431, 16408922859458223821],
    0: [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F,
        0xF88BB8A8724C81EC, 0x1B39896A51A8749B],
}


@pytest.mark.parametrize("seed", sorted(REFERENCE))
def test_splitmix64_reference_outputs(seed):
    assert [int(splitmix64_at(np.uint64(seed), k)) for k in range(5)] == REFERENCE[seed]
    # deal 0's sub-stream is the generator's own stream
    assert [int(stream_word(np.uint64(seed), 0, k)) for k in range(5)] == REFERENCE[seed]


def test_sub_streams_are_disjoint_positions_of_one_stream():
    seed = np.uint64(99)
    assert int(stream_word(seed, 3, 7)) == int(splitmix64_at(seed, 3 * WORDS_PER_DEAL + 7))
    words = {int(stream_word(seed, i, k)) for i in range(50) for k in range(20)}
    assert len(words) == 1000


@njit(cache=True)
def _mul(x, b):
    return mul_small(np.uint64(x), b)


@given(st.integers(0, 2**64 - 1), st.one_of(st.integers(1, 2**32 - 1),
                                           st.integers(1, 2**64 - 1)))
def test_mul_small_is_the_exact_128_bit_product(x, b):
    high, low = _mul(np.uint64(x), np.uint64(b))
    assert (int(high) << 64) | int(low) == x * b


@njit(cache=True)
def _draw(seed, index, top, count, threshold):
    out = np.zeros(count, dtype=np.int64)
    k = draw_descending(seed, index, 0, top, count, threshold, out, 0)
    return out, k


def _python_batched(seed, index, top, count):
    """The batched method written with Python big ints (no 64-bit tricks)."""
    p = batch_product(top, count)
    k = 0
    while True:
        x = int(stream_word(np.uint64(seed), index, k))
        k += 1
        digits = []
        for j in range(count):
            t = x * (top - j)
            digits.append(t >> 64)
            x = t & (2**64 - 1)
        if x >= (1 << 64) % p:
            return digits, k


@given(st.integers(0, 2**64 - 1), st.integers(0, 10**6), st.integers(2, 32),
       st.integers(1, 11))
def test_kernel_draws_equal_the_big_integer_method(seed, index, top, count):
    count = min(count, top - 1)
    threshold = batch_threshold(top, count)
    out, k = _draw(np.uint64(seed), index, top, count, np.uint64(threshold))
    digits, k_expected = _python_batched(seed, index, top, count)
    assert out.tolist() == digits and k == k_expected
    assert all(0 <= d < top - j for j, d in enumerate(digits))


@njit
def _draw_lazy(seed, index, top, count):
    out = np.zeros(count, dtype=np.int64)
    k = draw_descending_lazy(seed, index, 0, top, count, out, 0)
    return out, k


@given(st.integers(0, 2**64 - 1), st.integers(0, 10**6), st.integers(2, 32),
       st.integers(1, 11))
def test_lazy_threshold_draws_the_same(seed, index, top, count):
    """Computing the threshold only for a word whose low part is below the product
    changes no draw and no word count."""
    count = min(count, top - 1)
    out, k = _draw_lazy(np.uint64(seed), index, top, count)
    digits, k_expected = _python_batched(seed, index, top, count)
    assert out.tolist() == digits and k == k_expected


@pytest.mark.parametrize("bits, bounds", [(8, (7, 6)), (8, (5, 4, 3)), (10, (9, 8, 7)),
                                          (12, (32,)), (16, (32, 31, 30))])
def test_batched_method_is_exactly_unbiased_small_words(bits, bounds):
    """Exhaustive proof on small words: every tuple of draws has the same number
    of accepted words (this is the argument behind the 64-bit kernel)."""
    modulus = 1 << bits
    p = int(np.prod(bounds))
    threshold = modulus % p
    tally = {}
    for x in range(modulus):
        digits = []
        for b in bounds:
            t = x * b
            digits.append(t >> bits)
            x = t % modulus
        if x >= threshold:
            tally[tuple(digits)] = tally.get(tuple(digits), 0) + 1
    assert len(tally) == p
    assert set(tally.values()) == {modulus // p}


def test_threshold_and_plan_limits():
    assert batch_threshold(32, 11) == (1 << 64) % (batch_product(32, 11))
    with pytest.raises(ValueError):
        batch_threshold(32, 20)


def test_draws_are_uniform_chi_square():
    """30,000 draws in [0, 32): chi-square with 31 degrees of freedom."""
    threshold = np.uint64(batch_threshold(32, 1))
    counts = np.zeros(32, dtype=np.int64)
    for i in range(30_000):
        out, _ = _draw(np.uint64(5), i, 32, 1, threshold)
        counts[out[0]] += 1
    expected = 30_000 / 32
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 61.1   # 99.9th percentile of chi-square(31)


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, "7", True])
def test_check_seed_rejects(bad):
    with pytest.raises(ValueError):
        check_seed(bad)


def test_check_index_range():
    assert check_index_range(0, MAX_DEAL_INDEX) == (0, MAX_DEAL_INDEX)
    for lo, hi in [(-1, 3), (5, 4), (0, MAX_DEAL_INDEX + 1)]:
        with pytest.raises(ValueError):
            check_index_range(lo, hi)
