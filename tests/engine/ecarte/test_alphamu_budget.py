"""αμ's work is bounded (issue 43.8): the fronts kept by sorting and in lots give the same
rows as comparing every pair, the work counter is a function of the position, and past
the budget the search stops and the chooser plays ``pimc-inference``'s card."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ecarte_sim.engine.ecarte.play import alphamu as am
from ecarte_sim.engine.ecarte.play import alphamu_reference as ref

ELDER = 0


def _pareto_every_pair(f):
    """The rows no other row is at least as good as everywhere (duplicates once, the first
    kept), in order: every pair compared."""
    rows = [tuple(r) for r in f.tolist()]
    keep = []
    for i, u in enumerate(rows):
        if not any(j != i and all(a >= b for a, b in zip(v, u)) and (v != u or j < i)
                   for j, v in enumerate(rows)):
            keep.append(u)
    return keep


def _rows(f):
    return [tuple(r) for r in f.tolist()]


@pytest.mark.quick
def test_pareto_keeps_the_rows_every_pair_keeps_in_order():
    rng = np.random.default_rng(43)
    small = large = 0
    for _ in range(300):
        n = int(rng.integers(0, 120))
        w = int(rng.integers(1, 7))
        f = rng.integers(-2, 3, size=(n, w)).astype(np.int64)
        if n and rng.random() < 0.5:
            f[rng.integers(0, n, size=n // 3)] = f[0]          # duplicates
        work = np.zeros(1, dtype=np.int64)
        assert _rows(am.pareto(f, work)) == _pareto_every_pair(f)
        small += n <= am._SMALL
        large += n > am._SMALL
    assert small > 30 and large > 30          # both ways of keeping the front are tested


def test_product_in_lots_is_the_product_of_all_pairs():
    rng = np.random.default_rng(8)
    for na, nb in ((70, 70), (1, 5000), (3, 2)):
        w = 4
        a = rng.integers(-2, 3, size=(na, w)).astype(np.int64)
        b = rng.integers(-2, 3, size=(nb, w)).astype(np.int64)
        pairs = np.minimum(a[:, None, :], b[None, :, :]).reshape(na * nb, w)
        work = np.zeros(1, dtype=np.int64)
        got = am._product(a, b, work, am.UNBOUNDED)
        assert _rows(got) == _pareto_every_pair(pairs)
        assert work[0] >= na * nb
    assert 70 * 70 > am._CHUNK and 5000 > am._CHUNK     # more than one lot


def _position(rng):
    cards = list(range(32))
    rng.shuffle(cards)
    k = rng.randrange(3, 6)
    own = sum(1 << c for c in cards[:k])
    pool = cards[k:k + rng.randrange(k + 2, 14)]
    hands = np.array([sum(1 << c for c in rng.sample(pool, k))
                      for _ in range(rng.randrange(2, 16))], dtype=np.uint32)
    pay = np.array(rng.choice(([-2, -1, -1, 1, 1, 2], [-2, -2, -2, 1, 1, 2])), dtype=np.int64)
    return np.uint32(own), hands, rng.randrange(4), pay


def test_the_work_is_counted_the_same_each_time_and_the_budget_stops_the_search():
    rng = random.Random(435)
    stopped = 0
    for _ in range(40):
        own, hands, trump, pay = _position(rng)
        valid = np.ones(len(hands), dtype=np.bool_)
        args = (own, hands, valid, np.uint32(0), ELDER, 0, -1, trump, True, ELDER, pay, am.M_INF)
        want = am.front(*args)
        counts = []
        for _ in range(2):
            work = np.zeros(1, dtype=np.int64)
            got = am.bounded_front(*args, work, am.UNBOUNDED)
            assert _rows(got) == _rows(want)
            counts.append(int(work[0]))
        assert counts[0] == counts[1] > 0
        # one unit short of the work it needs: nothing (an empty front), the count past it
        work = np.zeros(1, dtype=np.int64)
        short = counts[0] - 1
        assert am.bounded_front(*args, work, short).shape[0] == 0 and work[0] > short
        # the chooser then plays the card it was given for ties (pimc-inference's)
        moves = np.uint32(ref.legal(int(own), -1, trump, True))
        cards = np.zeros(10, dtype=np.int64)
        totals = np.zeros(10, dtype=np.int64)
        whole = np.zeros(1, dtype=np.int64)
        am.bounded_root_totals(ELDER, own, hands, ELDER, 0, -1, trump, True, pay, am.M_INF,
                               moves, cards, totals, whole, am.UNBOUNDED)
        tie = int(cards[rng.randrange(bin(int(moves)).count("1"))])
        work = np.zeros(1, dtype=np.int64)
        card = am.bounded_alphamu_card(ELDER, own, hands, ELDER, 0, -1, trump, True, pay,
                                       am.M_INF, moves, tie, work, whole[0] - 1)
        assert card == tie and work[0] > whole[0] - 1
        best = am.alphamu_card(ELDER, own, hands, ELDER, 0, -1, trump, True, pay, am.M_INF,
                               moves, tie)
        work = np.zeros(1, dtype=np.int64)
        assert am.bounded_alphamu_card(ELDER, own, hands, ELDER, 0, -1, trump, True, pay,
                                       am.M_INF, moves, tie, work, whole[0]) == best
        assert work[0] == whole[0]
        stopped += best != tie
    assert stopped > 0           # the budget changed some cards: the fallback is tested


# The first card of a deal at the practice table whose αμ search took 33 s (issue 43.8:
# elder, seed 2255917248062089671, deal 4, score 3-3, the strategy shipped before
# 41aa790): his hand KH JH KD KC AC, spades trumps (the turn-up QS), after he proposed,
# threw 9H 9D 7C and the dealer took one; the 64 worlds pimc-inference drew there (the
# dealer's hands) and its card, KH.
SLOW_WORLDS = [
    1073741996, 16442, 1073741878, 1073741882, 4276, 4194476, 33554478, 188, 2094, 16568,
    1073741878, 1611661442, 182, 131129, 185, 566, 4194484, 33554612, 2097336, 131250,
    33554612, 2101, 2232, 1073742008, 684, 440, 59, 62, 65713, 134217785, 313, 1615855618,
    524472, 131099, 1048753, 65589, 4194484, 4147, 2097332, 16442, 1073741881, 4153, 4194358,
    434, 4194361, 185, 1073742002, 524346, 65716, 428, 2097336, 65593, 67109041, 33554486,
    4154, 524346, 67108910, 566, 540016770, 566, 188, 524468, 131252, 536870963]
SLOW_OWN = 2424348672
SLOW_PIMC = 15


def test_the_slow_first_card_stops_at_its_budget():
    hands = np.array(SLOW_WORLDS, dtype=np.uint32)
    pay = np.array([-2, -1, -1, 1, 1, 2], dtype=np.int64)    # Law 49: he proposed
    args = (ELDER, np.uint32(SLOW_OWN), hands, ELDER, 0, -1, 0, True, pay, am.M_INF,
            np.uint32(SLOW_OWN), SLOW_PIMC)
    work = np.zeros(1, dtype=np.int64)
    assert am.bounded_alphamu_card(*args, work, am.DEFAULT_BUDGET) == SLOW_PIMC
    # it stopped: past the budget, by less than one more budget's worth
    assert am.DEFAULT_BUDGET < work[0] < 2 * am.DEFAULT_BUDGET
    whole = np.zeros(1, dtype=np.int64)
    am.bounded_alphamu_card(*args, whole, am.UNBOUNDED)
    assert whole[0] > 4 * am.DEFAULT_BUDGET       # the whole search is several budgets
