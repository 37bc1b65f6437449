"""Piquet kernels: exact combinatorics, randomness, reproducibility, and the kernel
against the pure-Python reference (engine/piquet/reference.py) deal by deal."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest

from ecarte_sim.engine.cards import PIQUET, parse_hand
from ecarte_sim.engine.piquet import simulate as S
from ecarte_sim.engine.piquet.deal import deal, deal_pack
from ecarte_sim.engine.piquet.declare import hand_keys, is_blanche
from ecarte_sim.engine.piquet.game import DealRecord, play_one
from ecarte_sim.engine.piquet.players import heuristic_discard, heuristic_card
from ecarte_sim.engine.piquet.records import DEAL_COUNTS, PARTIE_COUNTS, REC, SCORE
from ecarte_sim.engine.piquet.settings import PiquetSettings
from stats_helpers import chi2_stat, chi2_upper


def H(text: str) -> int:
    return int(parse_hand(text, None, PIQUET))


# --------------------------------------------------------------------------- exact figures

def test_carte_blanche_count_is_exact():
    """C(20,12) = 125,970 of the C(32,12) = 225,792,840 hands are blank (Law 18):
    counted through the kernel's own court mask, suit byte by suit byte."""
    poly = [1]                                 # hands by size, suit by suit
    for s in range(4):
        per_suit = [0] * 9
        for b in range(256):
            if is_blanche(np.uint32(b << (8 * s))):
                per_suit[bin(b).count("1")] += 1
        poly = [sum(poly[i] * per_suit[k - i] for i in range(len(poly)) if 0 <= k - i <= 8)
                for k in range(len(poly) + 8)]
    assert poly[12] == 125_970 == math.comb(20, 12)
    assert math.comb(32, 12) == 225_792_840


def test_carte_blanche_frequency_in_simulated_deals():
    n = 1 << 19
    counts = S.deal_counts(11, 0, n, PiquetSettings().cfg())
    k = DEAL_COUNTS.read(counts)
    blank = k["carte_blanche_elder"] + k["carte_blanche_younger"]
    p = 125_970 / 225_792_840
    sd = math.sqrt(2 * n * p * (1 - p))
    assert abs(blank - 2 * n * p) < 4 * sd, (blank, 2 * n * p)


@pytest.mark.quick
def test_deal_is_a_partition_and_uniform():
    perm = np.empty(32, dtype=np.int64)
    draws = np.empty(32, dtype=np.int64)
    seen = np.zeros((3, 32), dtype=np.int64)
    for i in range(8000):
        e, y = deal_pack(np.uint64(5), np.uint64(i), perm, draws)
        assert sorted(perm) == list(range(32))
        stock = sum(1 << int(c) for c in perm[24:])
        assert int(e) | int(y) | stock == 0xFFFFFFFF and int(e) & int(y) == 0
        for c in range(32):
            seen[0, c] += int(e) >> c & 1
            seen[1, c] += int(y) >> c & 1
        seen[2, int(perm[24])] += 1                      # the top of the stock
    for row, share in ((0, 12 / 32), (1, 12 / 32)):
        assert chi2_stat(seen[row], np.full(32, 8000 * share)) < chi2_upper(31)
    assert chi2_stat(seen[2], np.full(32, 8000 / 32)) < chi2_upper(31)


# --------------------------------------------------------------------------- declarations

@pytest.mark.quick
def test_hand_keys_by_hand():
    # Spades A K Q J (point 4 cards, 41 pips; quart major), hearts 10 9 8 7 (34 pips,
    # quart to the ten), aces: spades only; tens: hearts only.
    hand = H("AS KS QS JS TH 9H 8H 7H AD KD AC KC")
    point, seq, seq_score, sets, set_score = hand_keys(np.uint32(hand))
    assert point == 4 * 128 + 41
    assert seq == 8 * 4 + 7                   # quart, top card the ace (rank 7)
    assert seq_score == 4 + 4
    assert sets == 8 * 1 + 7 and set_score == 3 + 3   # trios of aces and kings
    point, seq, seq_score, sets, set_score = hand_keys(np.uint32(
        H("AS KS QS JS TS 9S 8S 7S AH AD AC KH")))
    assert point == 8 * 128 + 11 + 40 + 24 and seq == 8 * 8 + 7 and seq_score == 18
    assert sets == 8 * 2 + 7 and set_score == 14


def test_heuristic_discard_keeps_the_point_suit_and_sets():
    hand = H("AS KS QS JS 9S 7H 8D 9D AH AC TC 8C")
    values = np.zeros(32, dtype=np.int64)
    discard = int(heuristic_discard(np.uint32(hand), 5, values))
    kept = hand & ~discard
    assert kept & H("AS KS QS JS AH AC") == H("AS KS QS JS AH AC")
    assert bin(discard).count("1") == 5 and discard & hand == discard


@pytest.mark.quick
def test_heuristic_card_rules():
    full = 0xFFFFFFFF
    own = H("AS 7S KH 8H")
    unseen = full & ~own
    assert heuristic_card(np.uint32(own), np.uint32(unseen), -1) == H("AS").bit_length() - 1
    led = H("QH").bit_length() - 1
    assert heuristic_card(np.uint32(own), np.uint32(unseen), led) == H("KH").bit_length() - 1
    led = H("AH").bit_length() - 1           # cannot win: the lowest heart
    own2 = H("KH 8H 9S")
    assert heuristic_card(np.uint32(own2), np.uint32(full & ~own2 & ~H("AH")), led) == \
        H("8H").bit_length() - 1


# --------------------------------------------------------------------------- reproducibility

@pytest.mark.parametrize("players", [("random", "random"), ("heuristic", "random")])
def test_counts_bit_identical_for_threads_and_chunks(players):
    cfg = PiquetSettings(*players).cfg()
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = S.deal_counts(3, 100, 20_100, cfg, chunk=4096)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = S.deal_counts(3, 100, 20_100, cfg, chunk=97, block=5000)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, two)
    a = S.partie_counts(3, 0, 2000, cfg, cfg, chunk=7)
    b = S.partie_counts(3, 0, 2000, cfg, cfg, chunk=256, block=333)
    assert np.array_equal(a, b)


def test_records_match_single_deal_runner():
    cfg = PiquetSettings("heuristic", "random").cfg()
    recs = S.deal_records(9, 40, 60, cfg)
    for i, rec in enumerate(recs):
        one = play_one(deal(9, 40 + i), cfg, 9, 40 + i)
        assert DealRecord.from_record(rec) == one


def test_random_play_is_uniform_over_legal_cards():
    """The random elder's first lead is uniform over his 12 cards (in bit order)."""
    recs = S.deal_records(2, 0, 12_000, PiquetSettings("random", "random").cfg())
    position = np.zeros(12, dtype=np.int64)
    for rec in recs:
        hand = [c for c in range(32) if int(rec[REC.at.ELDER_HAND]) >> c & 1]
        position[hand.index(int(rec[REC.at.PLAYS]))] += 1
    assert chi2_stat(position, np.full(12, len(recs) / 12)) < chi2_upper(11)


def test_partie_ends_after_six_or_eight_deals_and_settles():
    assert S.settle(150, 120) == (1, False, 130)          # Law 72: 150 - 120 + 100
    assert S.settle(150, 90) == (1, True, 340)            # Law 73: 150 + 90 + 100
    assert S.settle(80, 95) == (-1, True, -275)           # winner under 100 too
    assert S.settle(100, 100) == (0, False, 0)
    cfg = PiquetSettings("heuristic", "heuristic").cfg()
    counts = PARTIE_COUNTS.read(S.partie_counts(1, 0, 4000, cfg, cfg))
    n = counts["parties"]
    assert n == 4000
    assert counts["a_wins"] + counts["b_wins"] + counts["drawn"] == n
    assert 0 < counts["tie_breaks"] < n * 0.05
    assert counts["drawn"] <= counts["tie_breaks"]


@pytest.mark.parametrize("four", [False, True])
def test_partie_deals_and_weights(four):
    """Each partie: 6 (or 4) deals, 2 more exactly when tied, the first and last of the
    four-deal partie counted double (note to Law 71), tie-break deals single; totals =
    the deals' records, A dealing the odd deals (A is younger hand in deals 1, 3, 5)."""
    from ecarte_sim.engine.piquet.simulate import _scratch, play_partie
    from ecarte_sim.engine.piquet.whole import new_solver_scratch
    cfg_a = PiquetSettings("heuristic", "random").cfg()    # A deals: B (heuristic) is elder
    cfg_b = PiquetSettings("random", "heuristic").cfg()    # B deals: A (random) is elder
    perm, draws, values, stock, rec, scratch, state = _scratch()
    table, ws = new_solver_scratch(False)
    totals = np.zeros((8, 2), dtype=np.int64)
    regular = 4 if four else 6
    lengths = set()
    for p in range(300):
        n = play_partie(np.uint64(6), p, cfg_a, cfg_b, four, rec, perm, draws, values, stock,
                        np.zeros(2, dtype=np.int64), totals, scratch, state, table, ws)
        lengths.add(n)
        for d in range(n):
            one = play_one(deal(6, 8 * p + d), cfg_a if d % 2 == 0 else cfg_b, 6, 8 * p + d)
            a, b = ((one.younger, one.elder) if d % 2 == 0 else (one.elder, one.younger))
            weight = 2 if four and d in (0, regular - 1) else 1
            assert (totals[d, 0], totals[d, 1]) == (a["total"] * weight, b["total"] * weight)
        tied = totals[:regular, 0].sum() == totals[:regular, 1].sum()
        assert n == (regular + 2 if tied else regular)
    assert lengths == {regular, regular + 2} or lengths == {regular}


def test_elder_take_fewer_leaves_cards_to_the_younger():
    cfg = PiquetSettings("heuristic", "heuristic", elder_take=3).cfg()
    for i in range(50):
        r = play_one(deal(4, i), cfg, 4, i)
        assert bin(r.elder_discard).count("1") == 3
        assert bin(r.younger_discard).count("1") == 5     # his three and the two left
        assert r.elder["total"] == sum(v for k, v in r.elder.items()
                                       if k not in ("tricks", "total"))


# --------------------------------------------------------------------------- kernel = reference

#: (elder, younger, elder_take, younger_take, lead_scoring, pique_timing, deals)
CROSS_CHECKS = [
    ("random", "random", 5, 0, "all", "lead", 6000),
    ("heuristic", "heuristic", 5, 0, "all", "lead", 6000),
    ("heuristic", "random", 5, 0, "all", "law67", 3000),
    ("random", "heuristic", 3, 0, "ten_up", "lead", 2000),
    ("heuristic", "heuristic", 4, 2, "ten_up", "law67", 2000),
    ("heuristic", "random", 1, 0, "all", "lead", 1000),
]


def _cross_check(seed, start, players, elder_take, younger_take, lead, timing, n):
    from ecarte_sim.engine.piquet.reference import Variant, play_deal

    cfg = PiquetSettings(*players, elder_take=elder_take, younger_take=younger_take,
                   lead_scoring=lead, pique_timing=timing).cfg()
    variant = Variant(lead_scoring=lead, pique_timing=timing)
    seen = {"pique": 0, "repique": 0, "capot": 0, "carte_blanche": 0}
    for rec in S.deal_records(seed, start, start + n, cfg):
        k = DealRecord.from_record(rec)
        ref = play_deal(k.elder_dealt, k.younger_dealt, list(k.stock), k.elder_discard,
                        k.younger_discard, list(k.plays), variant)
        for seat, kernel in (("elder", k.elder), ("younger", k.younger)):
            score = getattr(ref, seat)
            expected = {name: getattr(score, name) for name in SCORE.fields if name != "total"}
            expected["total"] = score.total
            assert kernel == expected, (seat, k.as_dict())
        seen["pique"] += k.elder["pique"] > 0
        seen["repique"] += k.elder["repique"] + k.younger["repique"] > 0
        seen["capot"] += max(k.elder["cards"], k.younger["cards"]) == 40
        seen["carte_blanche"] += k.elder["carte_blanche"] + k.younger["carte_blanche"] > 0
    return seen


@pytest.mark.parametrize("case", CROSS_CHECKS, ids=lambda c: "-".join(map(str, c[:6])))
def test_kernel_equals_reference(case):
    *setting, n = case
    seen = _cross_check(21, 0, setting[:2], *setting[2:], n)
    # The comparison covered the bonuses, not only ordinary deals.
    if n >= 3000:
        assert seen["pique"] > 0 and seen["repique"] > 0 and seen["capot"] > 0


#: The acceptance asks for >= 20,000 deals compared in the default run.
assert sum(c[-1] for c in CROSS_CHECKS) >= 20_000


def test_kernel_equals_reference_on_carte_blanche_deals():
    """Blank hands are rare (1 in 1,792): find some and check them all."""
    cfg = PiquetSettings("heuristic", "heuristic").cfg()
    recs = S.deal_records(8, 0, 60_000, cfg)
    blanche = [REC.at.ELDER + SCORE.at.CARTE_BLANCHE, REC.at.YOUNGER + SCORE.at.CARTE_BLANCHE]
    blank = [i for i, r in enumerate(recs) if r[blanche].any()]
    assert len(blank) >= 30
    from ecarte_sim.engine.piquet.reference import Variant, play_deal
    for i in blank:
        k = DealRecord.from_record(recs[i])
        ref = play_deal(k.elder_dealt, k.younger_dealt, list(k.stock), k.elder_discard,
                        k.younger_discard, list(k.plays), Variant())
        assert (ref.elder.total, ref.younger.total) == (k.elder["total"], k.younger["total"])
        assert ref.elder.pique == k.elder["pique"] and ref.younger.repique == k.younger["repique"]


@pytest.mark.slow
@pytest.mark.parametrize("timing", ["lead", "law67"])
@pytest.mark.parametrize("lead", ["all", "ten_up"])
def test_kernel_equals_reference_slow(lead, timing):
    for players in (("random", "random"), ("heuristic", "heuristic"), ("heuristic", "random")):
        _cross_check(77, 10_000, players, 5, 0, lead, timing, 25_000)


@pytest.mark.quick
def test_the_point_suit_is_the_first_suit_of_the_best_point():
    """``declare.point_suit`` (the one search of the point's suit that sinking and showing
    read): its key is the hand's point key (Law 62) and no earlier suit ties it."""
    from ecarte_sim.engine.piquet.declare import POINT_KEY, hand_keys, point_suit
    rng = np.random.default_rng(62)
    for _ in range(2000):
        cards = rng.choice(32, size=12, replace=False)
        h = int(sum(1 << int(c) for c in cards))
        key, suit = point_suit(h)
        keys = [int(POINT_KEY[(h >> (8 * s)) & 0xFF]) for s in range(4)]
        assert key == int(hand_keys(h)[0]) == max(keys) and suit == keys.index(max(keys))
