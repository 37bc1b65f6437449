"""Paired experiments: the forced first decision against the reference, the tables against a
deal-by-deal loop, pairing (same deals in both arms), bit-identity, the fixed-hand deals and
the exact enumeration against the plain reference."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numba
import numpy as np
import pytest

from ecarte_sim.analysis.ecarte.measures import paired as AP
from ecarte_sim.engine.cards import parse_hand
from ecarte_sim.engine.ecarte import reference as R
from ecarte_sim.engine.ecarte.deals import experiments as X
from ecarte_sim.engine.ecarte.deals.runner import DealRunner
from ecarte_sim.engine.ecarte.decisions.policies import MAXIM_CASES, maxim_case, maxims_accept
from ecarte_sim.engine.ecarte.decisions.regle_kernel import regle_rule
from ecarte_sim.engine.ecarte.settings import make_cfg
from whole_helpers import kernel_script, random_script

FIELDS = ("elder0", "dealer0", "turn_up", "king_turned", "ended", "first", "exchanges",
          "elder_hand", "dealer_hand", "king_elder", "king_dealer", "play", "elder_tricks",
          "points_elder", "points_dealer", "marks_elder", "marks_dealer")


def _with_first(script: R.Script, elder=None, dealer=None) -> R.Script:
    ep, da = list(script.elder_propose), list(script.dealer_accept)
    if elder is not None:
        ep[0] = int(elder == "propose")
    if dealer is not None:
        da[0] = int(dealer == "accept")
    return R.Script(tuple(ep), script.elder_discard, tuple(da), script.dealer_discard,
                    script.priority)


def test_forced_first_decision_equals_the_reference_with_that_decision_scripted():
    """Forcing round 0 (kernel cfg) = the reference whose script says the same in round 0 and
    keeps its own decisions in every later round."""
    rng = np.random.default_rng(5)
    runner = DealRunner()
    forced = Counter()
    for i in range(3000):
        script = random_script(rng)
        elder = rng.choice([None, "play", "propose"])
        dealer = rng.choice([None, "accept", "refuse"])
        cfg = make_cfg(elder_policy="scripted", dealer_policy="scripted",
                       elder_discard="scripted", dealer_discard="scripted", play="scripted",
                       trick_by_trick=True, elder_first=elder, dealer_first=dealer)
        fast = runner.play(11, i, cfg, kernel_script(script))
        slow = R.whole_deal(11, i, _with_first(script, elder, dealer))
        assert all(getattr(fast, f) == getattr(slow, f) for f in FIELDS), (i, elder, dealer)
        forced[(elder, slow.first)] += 1
    # the override really decides round 0
    assert forced[("play", R.REFUSED_FIRST)] == 0
    assert forced[("propose", R.PLAYED_WITHOUT_PROPOSING)] == 0
    assert forced[("play", R.PLAYED_WITHOUT_PROPOSING)] > 500


@pytest.mark.quick
def test_bad_first_decision_names_the_token():
    with pytest.raises(ValueError, match="'maybe'"):
        make_cfg(elder_first="maybe")
    with pytest.raises(ValueError, match="'play'"):
        make_cfg(dealer_first="play")


def test_maxim_case_agrees_with_maxims_accept():
    rng = np.random.default_rng(3)
    seen = Counter()
    for _ in range(20_000):
        cards = rng.choice(32, 5, replace=False)
        hand = np.uint32(sum(1 << int(c) for c in cards))
        trump = int(rng.integers(0, 4))
        case = maxim_case(hand, trump)
        seen[case] += 1
        assert maxims_accept(hand, trump) == (case in (1, 4, 7))
    assert set(seen) == set(range(1, len(MAXIM_CASES) + 1)), seen


def _king_of_trumps_held(hand: int, turn_up: int) -> bool:
    return bool(hand >> (8 * (turn_up >> 3) + 7) & 1)


def _code(deal) -> int:
    """The arm code of a WholeDeal, computed from its fields independently of the kernel."""
    king = 1 if deal.king_turned else 2 if deal.king_elder else 3 if deal.king_dealer else 0
    t = deal.elder_tricks
    if t < 0:  # the fast double-dummy path keeps only the outcome
        return 16 * deal.first + 4 * king + deal.outcome
    outcome = 3 if t == 5 else 2 if t >= 3 else 0 if t == 0 else 1
    return 16 * deal.first + 4 * king + outcome


@pytest.mark.parametrize("classifier,a,b,play", [
    (X.CLASSIFY_REGLE, dict(elder_first="play"), dict(elder_first="propose"), "dd"),
    (X.CLASSIFY_DEALER, dict(dealer_first="refuse"), dict(dealer_first="accept"), "heuristic"),
    (X.CLASSIFY_ALL, {}, dict(elder_policy="always-propose"), "pimc"),
])
def test_paired_table_equals_a_deal_by_deal_loop(classifier, a, b, play):
    """Every classified deal is played under both configurations on the same cards: the
    table equals two DealRunner calls per deal, class computed from the dealt hands."""
    n = 600 if play == "pimc" else 3000
    cfg_a = make_cfg(play=play, worlds=8, trick_by_trick=True, **a)
    cfg_b = make_cfg(play=play, worlds=8, trick_by_trick=True, **b)
    table = X.paired_table(9, 0, n, cfg_a, cfg_b, classifier, chunk=97)
    runner = DealRunner()
    expect = np.zeros_like(table)
    for i in range(n):
        da = runner.play(9, i, cfg_a)
        trump = da.turn_up >> 3
        if classifier == X.CLASSIFY_REGLE:
            rule = int(regle_rule(np.uint32(da.elder0), trump))
            if rule == 0:
                continue
            c = rule + 8 * _king_of_trumps_held(da.elder0, da.turn_up)
        elif classifier == X.CLASSIFY_DEALER:
            if regle_rule(np.uint32(da.elder0), trump):
                continue  # the elder (regle) plays: the dealer has nothing to answer
            c = int(maxim_case(np.uint32(da.dealer0), trump))
        else:
            c = 0
        db = runner.play(9, i, cfg_b)
        assert (db.elder0, db.dealer0, db.turn_up) == (da.elder0, da.dealer0, da.turn_up)
        expect[c, _code(da), _code(db)] += 1
    assert table.sum() > 0.1 * n if classifier == X.CLASSIFY_REGLE else table.sum() > 0.5 * n
    np.testing.assert_array_equal(table, expect)


def test_same_configuration_in_both_arms_gives_a_diagonal_table():
    """Pairing: with a = b every deal lands on the diagonal (PIMC included: its worlds are
    keyed by the deal, not drawn afresh)."""
    cfg = make_cfg(play="pimc", worlds=8)
    table = X.paired_table(4, 0, 800, cfg, cfg, X.CLASSIFY_ALL, chunk=64)[0]
    assert table.sum() == 800
    assert table.sum() == np.trace(table)


def test_paired_standard_error_is_smaller_than_unpaired():
    cfg_a = make_cfg(elder_first="play")
    cfg_b = make_cfg(elder_first="propose")
    joint = X.paired_table(1, 0, 200_000, cfg_a, cfg_b, X.CLASSIFY_REGLE).sum(axis=0)
    f = AP.NET.astype(float)
    paired = AP.paired_mean(joint, f)
    assert paired["se"] < 0.8 * AP.unpaired_se(joint, f)


def test_tables_are_bit_identical_for_any_thread_count_and_chunk():
    cfg_a = make_cfg(play="heuristic", dealer_first="refuse")
    cfg_b = make_cfg(play="heuristic", dealer_first="accept")
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = X.paired_table(8, 100, 30_100, cfg_a, cfg_b, X.CLASSIFY_DEALER, chunk=4096)
    finally:
        numba.set_num_threads(threads)
    many = X.paired_table(8, 100, 30_100, cfg_a, cfg_b, X.CLASSIFY_DEALER, chunk=13,
                          block=7_777)
    np.testing.assert_array_equal(one, many)


@pytest.mark.quick
def test_arm_code_decoding_matches_the_kernel_marks():
    runner = DealRunner()
    rng = np.random.default_rng(2)
    for i in range(3000):
        cfg = make_cfg(elder_policy=str(rng.choice(["regle", "always-propose", "threshold"])),
                       dealer_policy=str(rng.choice(["maxims", "always-accept",
                                                     "always-refuse"])))
        d = runner.play(3, i, cfg)
        code = _code(d)
        assert (AP.MARKS_ELDER[code], AP.MARKS_DEALER[code]) == (d.marks_elder, d.marks_dealer)


# --------------------------------------------------------------------------- fixed hands

def test_deals_around_a_hand_are_uniform_and_leave_the_hand_alone():
    elder = int(parse_hand("QH AH 7H KS KD"))
    perm = np.empty(32, dtype=np.int64)
    draws = np.empty(32, dtype=np.int64)
    in_dealer = np.zeros(32, dtype=np.int64)
    turn_ups = Counter()
    n = 20_000
    for i in range(n):
        dealer, t = X.deal_around(np.uint64(6), np.uint64(i), np.int64(elder), np.int64(-1),
                                  np.int64(1), perm, draws)
        assert sorted(perm) == list(range(32))
        assert sum(1 << int(c) for c in perm[:5]) == elder and perm[10] == t
        assert int(dealer) & elder == 0 and not (int(dealer) >> int(t)) & 1
        turn_ups[int(t)] += 1
        for c in range(32):
            in_dealer[c] += (int(dealer) >> c) & 1
    assert set(turn_ups) == {9, 10, 11, 13, 15}  # 8H 9H TH JH KH
    chi = sum((v - n / 5) ** 2 / (n / 5) for v in turn_ups.values())
    assert chi < 18.5  # 4 degrees of freedom, p = 0.001
    # each of the other cards lands in the dealer's hand with probability 5/26
    others = [c for c in range(32) if not (elder >> c) & 1 and c not in turn_ups]
    expect = n * (4 / 5) * 5 / 26  # given it is not the turn-up (probability 4/5 for hearts)
    for c in others:
        assert abs(in_dealer[c] - n * 5 / 26) < 6 * math.sqrt(n * 5 / 26), c
    for c in turn_ups:
        assert abs(in_dealer[c] - expect) < 6 * math.sqrt(expect), c


@pytest.mark.quick
def test_unranking_is_the_lexicographic_order_of_dealer_hands():
    rest = np.array([c for c in range(32) if c not in (0, 5, 9, 17, 30, 12)], dtype=np.int64)
    perm = np.zeros(32, dtype=np.int64)
    combos = list(itertools.combinations(rest.tolist(), 5))
    assert len(combos) == X.DEALER_HANDS
    for rank in list(range(0, X.DEALER_HANDS, 97)) + [X.DEALER_HANDS - 1]:
        mask = X.unrank_dealer(np.int64(rank), rest, perm)
        assert tuple(int(c) for c in perm[5:10]) == combos[rank]
        assert int(mask) == sum(1 << c for c in combos[rank])
        assert sorted(perm[5:10].tolist() + perm[11:32].tolist()) == rest.tolist()


HANDS = [("QH AH 7H KS KD", None, 1), ("KS QS JS 8H 8D", 12, 1), ("QC QD QS 9H 7S", None, 0)]


def _reference_codes(elder, turn_up, trump, ranks):
    turn_ups = X.exact_turn_ups(elder, turn_up, trump)
    deals = list(R.enumerate_around(elder, turn_ups.tolist()))
    out = {}
    for q in ranks:
        t, dealer = deals[q]
        out[q] = R.played_without_proposing(elder, dealer, t)
    return out


@pytest.mark.parametrize("hand,turn_up,trump", HANDS)
def test_exact_enumeration_equals_the_reference_deal_by_deal(hand, turn_up, trump):
    elder = int(parse_hand(hand))
    cfg = make_cfg(elder_first="play")
    total = len(X.exact_turn_ups(elder, turn_up, trump)) * X.DEALER_HANDS
    ranks = sorted(set(np.random.default_rng(len(hand)).integers(0, total, 300).tolist())
                   | {0, total - 1})
    slow = _reference_codes(elder, turn_up, trump, ranks)
    for q in ranks:
        codes = X.exact_codes(elder, turn_up, trump, cfg, q, q + 1)
        code = int(np.flatnonzero(codes)[0])
        me, md, t = slow[q]
        assert (AP.MARKS_ELDER[code], AP.MARKS_DEALER[code]) == (me, md), (hand, q)
        assert AP.ELDER_WINS_POINT[code] == (t >= 3) and AP.ELDER_WINS_VOLE[code] == (t == 5)


@pytest.mark.slow
def test_full_exact_enumeration_equals_the_reference():
    elder = int(parse_hand("KS QS JS 8H 8D"))
    cfg = make_cfg(elder_first="play")
    counts = X.exact_codes(elder, 12, 1, cfg)
    slow = _reference_codes(elder, 12, 1, range(X.DEALER_HANDS))
    expect = Counter((me, md, t >= 3, t == 5) for me, md, t in slow.values())
    got = Counter()
    for code in np.flatnonzero(counts):
        got[(int(AP.MARKS_ELDER[code]), int(AP.MARKS_DEALER[code]),
             bool(AP.ELDER_WINS_POINT[code]), bool(AP.ELDER_WINS_VOLE[code]))] += int(counts[code])
    assert got == expect


def test_exact_answer_lies_in_the_sampled_interval():
    elder = int(parse_hand("KS QS JS 8H 8D"))
    play = make_cfg(elder_first="play")
    exact = AP.exact_summary(X.exact_codes(elder, None, 1, play))
    joint = X.hand_table(5, 0, 60_000, elder, None, 1, play, make_cfg(elder_first="propose"))
    sampled = AP.arm_summary(joint.sum(axis=1))
    assert sampled["n"] == 60_000
    se = math.sqrt(exact["point"] * (1 - exact["point"]) / 60_000)
    assert abs(sampled["point"] - exact["point"]) < 4 * se


def test_exact_rejects_pimc_and_proposing():
    elder = int(parse_hand("QH AH 7H KS KD"))
    with pytest.raises(ValueError, match="deterministic"):
        X.exact_codes(elder, None, 1, make_cfg(elder_first="play", play="pimc"))
    with pytest.raises(ValueError, match="without proposing"):
        X.exact_codes(elder, None, 1, make_cfg())
    with pytest.raises(ValueError, match="turn-up is in"):
        X.exact_turn_ups(elder, 14, 1)
