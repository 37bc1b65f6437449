"""Later decisions (engine/ecarte/deals/later.py): histories of played deals replay bit for
bit under a forced history, the worlds drawn from a history against the exact posterior
(every adversary hand enumerated), the on-policy gains against the arms played one by one,
and bit-identity for any number of rows."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from ecarte_sim.engine.ecarte.deals import later as L
from ecarte_sim.engine.ecarte.deals.action_values import marks_code
from ecarte_sim.engine.ecarte.deals.whole import deal_scratch, play_dealt, whole_deal
from ecarte_sim.engine.ecarte.decisions.policies import (DISCARD_RULES, dealer_accepts,
                                                         empty_script, thrown_cards)
from ecarte_sim.engine.ecarte.decisions.states import N_STATES
from ecarte_sim.engine.ecarte.records import REC
from ecarte_sim.engine.ecarte.settings import CFG, EcarteSettings, Forced

H = L.HISTORY.at
SETTINGS = EcarteSettings()           # Hoyle's list, the maxims, trumps-kings: no tables


def _points(seed: int, deals: int, settings=SETTINGS, script=None):
    """Every later decision point of ``deals`` deals of ``seed`` (histories, what was done,
    the deal index)."""
    script = empty_script() if script is None else script
    cfg = settings.cfg(target=5)
    perm, draws, pool, payoff, rec = deal_scratch()
    rows = np.zeros((96, L.HISTORY_SIZE + 1), dtype=np.int64)
    out = []
    for i in range(deals):
        whole_deal(np.uint64(seed), np.uint64(i), cfg, script, rec, perm, draws, pool, payoff,
                   None)
        for q in range(L.decision_points(rec, rows, 0, 1)):
            out.append((rows[q, :L.HISTORY_SIZE].copy(), int(rows[q, L.HISTORY_SIZE]), i))
    return out


@pytest.mark.quick
def test_a_forced_history_that_the_policy_would_follow_changes_nothing():
    cfg = SETTINGS.cfg()
    script = empty_script()
    perm, draws, pool, payoff, rec = deal_scratch()
    rec2 = rec.copy()
    checked = 0
    for i in range(400):
        whole_deal(np.uint64(3), np.uint64(i), cfg, script, rec, perm, draws, pool, payoff,
                   None)
        n = int(rec[REC.at.EXCHANGES])
        if n == 0:
            continue
        thrown = tuple(int(rec[REC.at.EXCHANGE_CARDS + 4 * r]) for r in range(n))
        forced = SETTINGS.cfg(elder_forced=Forced(says=(True,) * n, thrown=thrown))
        whole_deal(np.uint64(3), np.uint64(i), forced, script, rec2, perm, draws, pool,
                   payoff, None)
        assert np.array_equal(rec, rec2), i
        checked += 1
    assert checked > 50


@pytest.mark.quick
def test_forced_history_validation():
    with pytest.raises(ValueError, match="no more discards than decisions"):
        Forced(says=(True,), thrown=(1, 2))
    with pytest.raises(ValueError, match="forced twice"):
        SETTINGS.cfg(elder_first="propose", elder_forced=Forced(says=(True,)))


@pytest.mark.quick
def test_every_world_of_a_history_replays_that_history():
    points = _points(11, 300)
    perm, draws, pool, payoff, rec = deal_scratch()
    cards = np.empty(32, dtype=np.int64)
    slots = np.empty(32, dtype=np.int64)
    script = empty_script()
    kinds = set()
    for j, (hist, did, _) in enumerate(points[:60]):
        role, kind, rnd = int(hist[H.ROLE]), int(hist[H.KIND]), int(hist[H.ROUND])
        kinds.add((role, kind))
        arm = [True] if kind == L.DECIDE else [did]
        cfg = L.arm_cfgs(hist, SETTINGS, 0, 0, arm)[0]
        for k in range(8):
            index = L.world_index(j, k)
            e, d, tries = L.draw_world(np.uint64(5), index, hist, cfg, script, perm, cards,
                                       slots, draws)
            assert e != 0 and tries >= 1
            mine = e if role == 0 else d
            assert mine == hist[H.HAND0]
            assert sorted(perm) == list(range(32))
            play_dealt(np.uint64(5), index, cfg, script, rec, perm, draws, pool, payoff, e, d,
                       int(hist[H.TURN_UP]), None)
            assert rec[REC.at.EXCHANGES] >= rnd
            for r in range(rnd):
                base = REC.at.EXCHANGE_CARDS + 4 * r
                assert rec[base + 2 * role] == hist[H.THROWN + r]
                assert rec[base + 2 * role + 1] == hist[H.DRAWN + r]
                assert bin(int(rec[base + 2 * (1 - role)])).count("1") == hist[H.TOOK + r]
    assert {(0, L.DECIDE), (1, L.DECIDE)} <= kinds


def _exact_card_shares(hist) -> np.ndarray:
    """P(the dealer's dealt hand holds each card | the elder's history at round 1), every
    dealer hand enumerated: he accepted the first proposal and threw ``took[0]`` cards
    (the maxims and trumps-kings; nothing after his first count is seen at round 1)."""
    cfg = SETTINGS.cfg()
    script = empty_script()
    turn_up = int(hist[H.TURN_UP])
    seen = int(hist[H.HAND0]) | (1 << turn_up) | int(hist[H.DRAWN])
    pool = [c for c in range(32) if not (seen >> c) & 1]
    room = 21 - bin(int(hist[H.DRAWN])).count("1")
    counts = np.zeros(32)
    total = 0
    for hand in combinations(pool, 5):
        m = 0
        for c in hand:
            m |= 1 << c
        if not dealer_accepts(int(cfg[CFG.at.DEALER_POLICY]), np.uint64(m), turn_up >> 3, 0, script, turn_up, 0):
            continue
        out = thrown_cards(cfg, script, 1, np.uint64(m), turn_up >> 3, 0, room, turn_up, 0)
        if bin(int(out)).count("1") != hist[H.TOOK]:
            continue
        total += 1
        for c in hand:
            counts[c] += 1
    return counts / total, total


def test_worlds_follow_the_exact_posterior_of_the_adversarys_hand():
    """The dealer's dealt hand in the worlds of an elder's round-1 history against every
    hand enumerated: each card's share within 5 standard errors (4,096 worlds)."""
    hist = next(h for h, _, _ in _points(2, 200) if h[H.ROLE] == 0 and h[H.KIND] == L.DECIDE
                and h[H.ROUND] == 1)
    exact, consistent = _exact_card_shares(hist)
    assert consistent > 100
    perm, draws, pool, payoff, rec = deal_scratch()
    cards = np.empty(32, dtype=np.int64)
    slots = np.empty(32, dtype=np.int64)
    cfg = L.arm_cfgs(hist, SETTINGS, 0, 0, [True])[0]
    n = 4096
    seen = np.zeros(32)
    for k in range(n):
        e, d, _ = L.draw_world(np.uint64(9), L.world_index(0, k), hist, cfg, empty_script(),
                               perm, cards, slots, draws)
        for c in range(32):
            seen[c] += (int(d) >> c) & 1
    share = seen / n
    se = np.sqrt(np.maximum(exact * (1 - exact), 1e-9) / n)
    assert np.all(np.abs(share - exact) <= 5 * se + 1e-12), (share - exact) / se


def _one_by_one(seed, lo, hi, kind, cfg, script, values):
    """The gains of :func:`later.gains_block` computed deal by deal in Python."""
    from ecarte_sim.engine.ecarte.decisions.states import state_index, state_keys
    keys = state_keys()
    rules = [int(r) for r in DISCARD_RULES]
    n_rules = 1 if kind == L.DECIDE else len(rules)
    out = np.zeros((2, N_STATES, n_rules, 3), dtype=np.int64)
    perm, draws, pool, payoff, rec = deal_scratch()
    rows = np.zeros((96, L.HISTORY_SIZE + 1), dtype=np.int64)
    for i in range(lo, hi):
        index = np.uint64(i)
        whole_deal(np.uint64(seed), index, cfg, script, rec, perm, draws, pool, payoff, None)
        e0, d0, tu = int(rec[REC.at.ELDER0]), int(rec[REC.at.DEALER0]), int(rec[REC.at.TURN_UP])
        for q in range(L.decision_points(rec, rows, 0, 1)):
            hist, did = rows[q, :L.HISTORY_SIZE], int(rows[q, L.HISTORY_SIZE])
            if hist[H.KIND] != kind:
                continue
            role = int(hist[H.ROLE])
            state = state_index(L.current_hand(hist), tu, keys)
            arms = [True, False] if kind == L.DECIDE else [did] + [
                int(L.rule_cards(r, L.current_hand(hist), tu >> 3, role, L.stock_left(hist),
                                 cfg)) for r in rules]
            vals = []
            for c in L.arm_cfgs(hist, SETTINGS, 0, 0, arms):
                play_dealt(np.uint64(seed), index, c, script, rec, perm, draws, pool, payoff,
                           np.uint32(e0), np.uint32(d0), tu, None)
                vals.append(int(values[role, marks_code(rec)]))
            if kind == L.DECIDE:
                d = vals[0] - vals[1]
                out[role, state, 0] += (1, d, d * d)
            else:
                for j in range(len(rules)):
                    d = vals[1 + j] - vals[0]
                    out[role, state, j] += (1, d, d * d)
    return out


@pytest.mark.parametrize("kind", [L.DECIDE, L.DISCARD])
def test_on_policy_gains_equal_the_arms_played_one_by_one_and_any_rows(kind):
    cfg = SETTINGS.cfg(target=5)
    script = empty_script()
    rng = np.random.default_rng(0)
    values = rng.integers(0, 1 << 16, size=(2, 16)).astype(np.int64)
    rules = np.array([int(r) for r in DISCARD_RULES], dtype=np.int64)
    n_rules = 1 if kind == L.DECIDE else len(rules)
    width = 2 * N_STATES * 3 * n_rules
    results = []
    for rows in (1, 3):
        out = np.zeros((rows, width), dtype=np.int64)
        L.gains_block(np.uint64(4), 0, 1500, rows, kind, cfg, script, values, rules, out)
        results.append(out.sum(axis=0))
    assert np.array_equal(results[0], results[1])
    slow = _one_by_one(4, 0, 1500, kind, cfg, script, values)
    assert slow[..., 0].sum() > 100
    assert np.array_equal(results[0].reshape(slow.shape), slow)
