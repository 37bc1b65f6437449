"""A slow, plain-Python twin of :mod:`~ecarte_sim.engine.piquet.discard_search`, for the
tests: the same candidates, the same sampled worlds (the same words of the same generator),
the same evaluation — with no numba and no code of the kernels.

Written from the kernels' docstrings: the keep value of the heuristic player
(:mod:`~ecarte_sim.engine.piquet.players`), its card in the play, the candidates and the
worlds of the search; the deal is scored by the plain reference of the rules
(:func:`ecarte_sim.engine.piquet.reference.play_deal`). ``SplitMix64`` and the batched
bounded draws are those of :mod:`ecarte_sim.engine.rng`'s docstring.
"""

from __future__ import annotations

from itertools import combinations

from ecarte_sim.engine.piquet.reference import Variant, play_deal

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
WORDS_PER_DEAL_BITS = 20
WINDOW = 3
WORDS_SEARCH, WORDS_SEAT, SAMPLE_STRIDE = 1 << 19, 1 << 18, 8
HIGH = [0, 1, 2, 3, 4, 6, 9, 12]
TEN, KING = 3, 6
ELDER, YOUNGER = 0, 1


# -- the generator (engine/rng.py) ------------------------------------------------

def word(seed: int, index: int, k: int) -> int:
    z = (seed + (((index << WORDS_PER_DEAL_BITS) + k + 1) * GAMMA)) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def draws(seed: int, index: int, k: int, top: int, count: int) -> tuple[list[int], int]:
    """Uniform draws from [0, top), [0, top-1), ... (count of them) and the next word."""
    product = 1
    for j in range(count):
        product *= top - j
    threshold = (1 << 64) % product
    while True:
        x = word(seed, index, k)
        k += 1
        out = []
        for j in range(count):
            p = x * (top - j)
            out.append(p >> 64)
            x = p & MASK
        if x >= threshold:
            return out, k


# -- the heuristic player (engine/piquet/players.py's docstring) -------------------

def _bits(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def keep_value(hand: int, c: int) -> int:
    s, r = divmod(c, 8)
    suit = [q for q in range(8) if hand >> (8 * s + q) & 1]
    v = HIGH[r] + 2 * len(suit)
    lo = r
    while lo - 1 in suit:
        lo -= 1
    hi = r
    while hi + 1 in suit:
        hi += 1
    v += 6 if hi - lo + 1 >= 3 else (2 if hi > lo else 0)
    if r >= TEN:
        v += 5 * (sum(hand >> (8 * t + r) & 1 for t in range(4)) - 1)
    if len(suit) == 2 and r != KING and KING in suit:
        v += 3
    return v


def order_by_keep(hand: int) -> list[int]:
    return sorted(_bits(hand), key=lambda c: (keep_value(hand, c), c))


def heuristic_discard(hand: int, count: int) -> int:
    return sum(1 << c for c in order_by_keep(hand)[:count])


def _above(c: int) -> int:
    """Cards of c's suit above c."""
    s, r = divmod(c, 8)
    return sum(1 << (8 * s + q) for q in range(r + 1, 8))


def _suit(mask: int, s: int) -> int:
    return mask & (0xFF << (8 * s))


def heuristic_card(own: int, unseen: int, led: int | None) -> int:
    cards = _bits(own)
    if led is None:
        masters = [c for c in cards if not unseen & _above(c)]
        if masters:
            return max(masters, key=lambda c: (bin(_suit(own, c // 8)).count("1"), c % 8))
        suits = [s for s in range(4) if _suit(own, s)]
        best = max(suits, key=lambda s: (bin(_suit(own, s)).count("1"),
                                          max(_bits(_suit(own, s))) % 8, -s))
        return min(_bits(_suit(own, best)))
    follow = _bits(_suit(own, led // 8))
    if follow:
        winners = [c for c in follow if c > led]
        return min(winners) if winners else min(follow)

    def key(c):
        suit = _suit(own, c // 8)
        protected = not unseen & _above(c) or (
            bin(suit).count("1") == 2 and suit >> (8 * (c // 8) + KING) & 1 and c % 8 != KING)
        return (bool(protected), c % 8, bin(suit).count("1"), c)
    return min(cards, key=key)


def heuristic_deal(elder0: int, younger0: int, stock: list[int], elder_discard: int,
                   younger_discard: int, variant: Variant = Variant()) -> tuple[int, int]:
    """(elder total, younger total) of a deal with the given discards (0: the heuristic's,
    the elder five, the younger all he can) and the heuristic's play."""
    e_disc = elder_discard or heuristic_discard(elder0, 5)
    e = bin(e_disc).count("1")
    y_disc = younger_discard or heuristic_discard(younger0, 8 - e)
    y = bin(y_disc).count("1")
    hands = [elder0 & ~e_disc | sum(1 << c for c in stock[:e]),
             younger0 & ~y_disc | sum(1 << c for c in stock[e:e + y])]
    unseen = [~(hands[0] | e_disc) & 0xFFFFFFFF, ~(hands[1] | y_disc) & 0xFFFFFFFF]
    plays, leader = [], ELDER
    for _ in range(12):
        lead = heuristic_card(hands[leader], unseen[leader], None)
        hands[leader] &= ~(1 << lead)
        unseen[1 - leader] &= ~(1 << lead)
        reply = heuristic_card(hands[1 - leader], unseen[1 - leader], lead)
        hands[1 - leader] &= ~(1 << reply)
        unseen[leader] &= ~(1 << reply)
        plays += [lead, reply]
        if reply // 8 == lead // 8 and reply > lead:
            leader = 1 - leader
    result = play_deal(elder0, younger0, list(stock), e_disc, y_disc, plays, variant)
    return result.elder.total, result.younger.total


# -- the search --------------------------------------------------------------------

def candidates(hand: int, low: int, high: int) -> list[int]:
    order = order_by_keep(hand)
    out: list[int] = []

    def add(mask):
        if mask not in out:
            out.append(mask)
    for e in range(high, low - 1, -1):
        for combo in combinations(order[:min(len(order), e + WINDOW)], e):
            add(sum(1 << c for c in combo))
        for s in range(4):
            suit = _suit(hand, s)
            if not suit:
                continue
            outside = [c for c in order if not suit >> c & 1]
            if len(outside) >= e:
                add(sum(1 << c for c in outside[:e]))
            n = bin(suit).count("1")
            if n <= e and len(outside) >= e - n:
                add(suit | sum(1 << c for c in outside[:e - n]))
    return out


def world(seed: int, index: int, seat: int, s: int, known: int) -> list[int]:
    cards = [c for c in range(32) if not known >> c & 1]
    k = WORDS_SEARCH + seat * WORDS_SEAT + SAMPLE_STRIDE * s
    first, k = draws(seed, index, k, 20, 12)
    second, _ = draws(seed, index, k, 8, 7)
    for i, d in enumerate(first + second):
        cards[i], cards[i + d] = cards[i + d], cards[i]
    return cards


def search_sums(seed: int, index: int, seat: int, hand: int, cands: list[int], samples: int,
                variant: Variant = Variant()) -> list[int]:
    sums = [0] * len(cands)
    for s in range(samples):
        cards = world(seed, index, seat, s, hand)
        other = sum(1 << c for c in cards[:12])
        stock = cards[12:]
        for i, cand in enumerate(cands):
            if seat == ELDER:
                e, y = heuristic_deal(hand, other, stock, cand, 0, variant)
                sums[i] += e - y
            else:
                e, y = heuristic_deal(other, hand, stock, 0, cand, variant)
                sums[i] += y - e
    return sums


def best_by_size(cands: list[int], sums: list[int]) -> tuple[dict, int]:
    """({size: the first best candidate of that size}, the first best overall)."""
    best: dict[int, int] = {}
    for c, v in zip(cands, sums):
        e = bin(c).count("1")
        if e not in best or v > sums[cands.index(best[e])]:
            best[e] = c
    top = max(range(len(cands)), key=lambda i: (sums[i], -i))
    return best, cands[top]
