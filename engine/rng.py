"""Counter-based randomness: every random word is a pure function of (seed, deal index, k).

Generator
    SplitMix64 (Steele, Lea & Flood 2014; reference C by Vigna): output ``p`` of
    the generator seeded with ``s`` is ``mix64(s + (p + 1) * GAMMA)`` (mod 2**64).
    That formula is what makes it counter-based: any output can be computed
    directly, without running the generator from the start.

Sub-streams
    Deal ``i`` of seed ``s`` owns the outputs at positions
    ``i * WORDS_PER_DEAL + k`` for ``k`` in ``[0, WORDS_PER_DEAL)``. Positions of
    different deals never coincide (``GAMMA`` is odd and ``mix64`` a bijection),
    so the words of different deals are distinct outputs of one SplitMix64
    stream, and deal ``i`` is the same whatever thread, chunk or machine
    computes it. Deal 0, word ``k`` is exactly output ``k`` of the reference
    generator seeded with ``s`` — the test oracle.

Unbiased bounded draws
    Several draws in ``[0, b_1) x [0, b_2) x ...`` come from one 64-bit word
    by the batched form of Lemire's nearly-divisionless method (Brackett-Rozinsky
    & Lemire, "Batched ranged random integer generation", 2024): multiply the
    word by each bound in turn keeping the low 64 bits, each high part is a draw;
    the final low part ``L`` satisfies ``x * P = D * 2**64 + L`` with ``P`` the
    product of the bounds and ``D`` the draws read as a mixed-radix number, and
    the word is rejected (a fresh one taken) when ``L < 2**64 mod P``. Each
    tuple of draws then has exactly ``floor(2**64 / P)`` accepted words: no
    modulo bias.
"""

from __future__ import annotations

# The per-deal kernels here are tiny and on the hottest path (about 30 ns a deal),
# so they are inlined at numba's level (``inline="always"``); the solver is not:
# inlining it there made the cold compile 9x slower for a few percent of speed.

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

MASK64 = (1 << 64) - 1
GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)

#: Words reserved for each deal index (the deal uses the first few; later
#: stages of a deal — exchanges, sampled worlds — use further offsets).
WORDS_PER_DEAL_BITS = 20
WORDS_PER_DEAL = 1 << WORDS_PER_DEAL_BITS
#: Largest deal index + 1 (so that index * WORDS_PER_DEAL fits in 64 bits).
MAX_DEAL_INDEX = 1 << (64 - WORDS_PER_DEAL_BITS)
MAX_SEED = MASK64


@njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64's output function (a bijection of 64-bit words)."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def splitmix64_at(seed, position):
    """Output number ``position`` (0-based) of SplitMix64 seeded with ``seed``."""
    return mix64(np.uint64(seed) + (np.uint64(position) + np.uint64(1)) * GAMMA)


@njit(cache=True, inline="always")
def stream_word(seed, index, k):
    """Word ``k`` of deal ``index``'s sub-stream under ``seed``."""
    position = (np.uint64(index) << np.uint64(WORDS_PER_DEAL_BITS)) + np.uint64(k)
    return splitmix64_at(seed, position)


@intrinsic
def _wide_product(typingctx, x, b):
    """The 128-bit product of two uint64 as (high 64 bits, low 64 bits): one widening
    multiply in LLVM's 128-bit integers (the x86-64 ``mul`` gives both halves)."""
    if x != types.uint64 or b != types.uint64:
        return None
    signature = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64)

    def codegen(context, builder, sig, args):
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        low = builder.trunc(product, ir.IntType(64))
        high = builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))
        return context.make_tuple(builder, sig.return_type, [high, low])

    return signature, codegen


@njit(cache=True, inline="always")
def mul_small(x, b):
    """``x * b`` for a 64-bit ``x`` and ``b < 2**32`` (exact for any 64-bit ``b``), as
    (high 64 bits, low 64 bits)."""
    return _wide_product(np.uint64(x), np.uint64(b))


@njit(cache=True, inline="always")
def draw_descending(seed, index, k, top, count, threshold, out, offset):
    """Fill ``out[offset + j]`` with a uniform draw from ``[0, top - j)``, j < count.

    ``threshold`` is ``2**64 mod P`` for ``P = top * (top-1) * ... * (top-count+1)``
    (see :func:`batch_threshold`). Reads words ``k, k+1, ...`` of deal
    ``index``'s sub-stream and returns the next unread ``k``.
    """
    while True:
        x = _word_draws(seed, index, k, top, count, out, offset)
        k += 1
        if x >= np.uint64(threshold):
            return k


@njit(cache=True, inline="always")
def _word_draws(seed, index, k, top, count, out, offset):
    """The draws of word ``k`` (one batch of :func:`draw_descending`) into ``out``;
    returns the word's final low part, which decides whether the batch stands."""
    x = stream_word(seed, index, k)
    for j in range(count):
        high, x = mul_small(x, top - j)
        out[offset + j] = np.int64(high)
    return x


@njit(cache=True, inline="always")
def bounds_product(top, count):
    """``P = top * (top-1) * ... * (top-count+1)`` as a 64-bit word (the kernels' twin
    of :func:`batch_product`; ``P`` must fit)."""
    product = np.uint64(1)
    for j in range(count):
        product *= np.uint64(top - j)
    return product


@njit(cache=True, inline="always")
def word_remainder(product):
    """``2**64 mod product``, the rejection threshold of a batch whose bounds multiply to
    ``product`` (the kernels' twin of :func:`batch_threshold`)."""
    return (np.uint64(0) - np.uint64(product)) % np.uint64(product)


def batch_product(top: int, count: int) -> int:
    p = 1
    for j in range(count):
        p *= top - j
    return p


def batch_threshold(top: int, count: int) -> int:
    """``2**64 mod P`` with ``P`` the product of the bounds ``top, top-1, ...``."""
    p = batch_product(top, count)
    if p > MASK64:
        raise ValueError(f"bounds {top}..{top - count + 1} do not fit one 64-bit word")
    return (1 << 64) % p


@njit(cache=True, inline="always")
def draw_descending_lazy(seed, index, k, top, count, out, offset):
    """:func:`draw_descending` for bounds known only at the call: the same draws, with
    the threshold ``2**64 mod P`` computed only for the rare word that needs it. It is
    below ``P``, so a final low part ``L >= P`` is accepted without it; for ``P < 2**32``
    (every present caller) a word needs it with probability below ``2**-32``, so the
    64-bit division is skipped in almost every call."""
    product = bounds_product(top, count)
    while True:
        x = _word_draws(seed, index, k, top, count, out, offset)
        k += 1
        if x >= product or x >= word_remainder(product):
            return k


def shuffle_plan(n: int, groups: list[int]) -> np.ndarray:
    """Batch plan for a forward Fisher–Yates shuffle of ``n`` items.

    ``groups`` gives how many successive draws share one word (they must sum
    to ``n - 1``). Row ``g`` of the result is ``(top, count, threshold)``.
    The plan is part of the definition of a deal: changing it changes every deal.
    """
    if sum(groups) != n - 1:
        raise ValueError("groups must cover n - 1 draws")
    rows, top = [], n
    for count in groups:
        rows.append((top, count, batch_threshold(top, count)))
        top -= count
    return np.array(rows, dtype=np.uint64)


@njit(cache=True, inline="always")
def swap_draws(perm, draws, start, count):
    """Apply ``count`` forward Fisher–Yates steps from ``start``: position
    ``i`` swaps with ``i + draws[i]``."""
    for i in range(start, start + count):
        other = i + draws[i]
        tmp = perm[i]
        perm[i] = perm[other]
        perm[other] = tmp


@njit(cache=True)
def shuffle_prefix(seed, index, plan, n_groups, perm, draws):
    """Forward Fisher–Yates over ``perm`` (a permutation, usually the identity).

    Only the first ``n_groups`` groups of ``plan`` are drawn, so positions
    ``0 .. sum(counts of those groups) - 1`` are final and identical to those
    of a full shuffle: a caller that needs only the first cards draws only
    them. ``draws`` is scratch of length ``>= n - 1``. Returns the next unread
    word number of the deal's sub-stream.
    """
    k = 0
    position = 0
    for g in range(n_groups):
        top = np.int64(plan[g, 0])
        count = np.int64(plan[g, 1])
        k = draw_descending(seed, index, k, top, count, plan[g, 2], draws, position)
        swap_draws(perm, draws, position, count)
        position += count
    return k


def check_seed(seed: int) -> int:
    """A seed is an integer in ``[0, 2**64)``."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    if not 0 <= int(seed) <= MAX_SEED:
        raise ValueError(f"seed {seed} is outside [0, 2**64)")
    return int(seed)


def check_index_range(start: int, stop: int) -> tuple[int, int]:
    """Deal indices form a half-open range inside ``[0, MAX_DEAL_INDEX)``."""
    start, stop = int(start), int(stop)
    if not 0 <= start <= stop <= MAX_DEAL_INDEX:
        raise ValueError(f"deal indices [{start}, {stop}) must lie in [0, 2**44)")
    return start, stop
