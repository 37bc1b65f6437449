"""αμ search (issue 35 item 3): the numba kernel equals the plain-Python reference; with one
world it is double dummy; with M = 1 it is PIMC; the chooser and the paired match."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ecarte_sim.engine.ecarte.play import alphamu as am
from ecarte_sim.engine.ecarte.play import alphamu_reference as ref
from ecarte_sim.engine.ecarte.play.players import pimc_moves, pimc_over
from ecarte_sim.engine.ecarte.records import PAYOFF
from ecarte_sim.engine.ecarte.search.solver import value_after

ELDER, DEALER = 0, 1
# The deal's points for the elder by his tricks (Law 48; Law 49 doubles the elder's loss
# when he played without proposing) — both shapes appear in play.
PAYS = ([-2, -1, -1, 1, 1, 2], [-2, -2, -2, 1, 1, 2], [-2, -1, -1, 2, 2, 2])


def _position(rng, k, worlds, mid):
    """A random position with the mover to play: his ``k`` cards, ``worlds`` opponent
    hands drawn from a pool (``mid``: the opponent has led a card)."""
    cards = list(range(32))
    rng.shuffle(cards)
    trump = rng.randrange(4)
    own = sum(1 << c for c in cards[:k])
    mover = rng.randrange(2)
    rest = cards[k:]
    if mid:
        led, rest, n_opp, leader = rest[0], rest[1:], k - 1, 1 - mover
    else:
        led, n_opp, leader = -1, k, mover
    pool = rest[:rng.randrange(n_opp + 2, 15)]
    hands = [sum(1 << c for c in rng.sample(pool, n_opp)) for _ in range(worlds)]
    tricks = rng.randrange(0, 5 - k + 1)
    elder_pay = rng.choice(PAYS)
    pay = elder_pay if mover == ELDER else [-x for x in elder_pay]
    return mover, own, hands, leader, tricks, led, trump, pay, elder_pay


def _kernel_totals(mover, own, hands, leader, tricks, led, trump, ft, pay, m, moves):
    cards = np.zeros(10, dtype=np.int64)
    totals = np.zeros(10, dtype=np.int64)
    n = am.root_totals(mover, np.uint32(own), np.array(hands, dtype=np.uint32), leader, tricks,
                       led, trump, ft, np.array(pay, dtype=np.int64), m, np.uint32(moves),
                       cards, totals)
    return dict(zip(cards[:n].tolist(), totals[:n].tolist()))


@pytest.mark.quick
def test_kernel_equals_reference_on_random_positions():
    rng = random.Random(20260)
    searched = 0
    for _ in range(250):
        k = rng.randrange(1, 5)
        worlds = rng.randrange(1, 13 if k < 4 else 7)
        mover, own, hands, leader, tricks, led, trump, pay, _ = _position(
            rng, k, worlds, rng.random() < 0.5)
        ft = rng.random() < 0.85
        m = rng.choice([1, 2, am.M_INF])
        want = ref.root_values(mover, own, hands, leader, tricks, led, trump, ft, pay, m)
        moves = ref.legal(own, led, trump, ft)
        got = _kernel_totals(mover, own, hands, leader, tricks, led, trump, ft, pay, m, moves)
        assert got == want
        searched += len(want) > 1
    assert searched > 100


def test_kernel_front_equals_reference_front():
    rng = random.Random(7)
    sizes = []
    for _ in range(300):
        mover, own, hands, leader, tricks, led, trump, pay, _ = _position(
            rng, rng.randrange(2, 5), rng.randrange(2, 10), rng.random() < 0.5)
        valid = [True] * len(hands)
        state = (own, 0, leader, tricks, led, mover)
        want = ref.front(state, hands, valid, trump, True, pay, am.M_INF)
        got = am.front(np.uint32(own), np.array(hands, dtype=np.uint32),
                       np.ones(len(hands), dtype=np.bool_), np.uint32(0), leader, tricks, led,
                       trump, True, mover, np.array(pay, dtype=np.int64), am.M_INF)
        assert sorted(map(tuple, got.tolist())) == want
        sizes.append(len(want))
    assert max(sizes) > 1        # some fronts hold more than one vector


def test_one_world_is_double_dummy():
    """With one world, a front is one vector: each card's total is its exact value."""
    rng = random.Random(11)
    for _ in range(150):
        mover, own, hands, leader, tricks, led, trump, pay, _ = _position(
            rng, rng.randrange(1, 6), 1, rng.random() < 0.5)
        moves = ref.legal(own, led, trump, True)
        got = _kernel_totals(mover, own, hands, leader, tricks, led, trump, True, pay,
                             am.M_INF, moves)
        e, d = (own, hands[0]) if mover == ELDER else (hands[0], own)
        for c, total in got.items():
            assert total == pay[value_after(np.uint32(e), np.uint32(d), leader, tricks, led,
                                            trump, True, c)]
        card = am.alphamu_card(mover, np.uint32(own), np.array(hands, dtype=np.uint32),
                               leader, tricks, led, trump, True,
                               np.array(pay, dtype=np.int64), am.M_INF, np.uint32(moves), -1)
        assert got[int(card)] == max(got.values())


def test_m1_is_pimc():
    """M = 1 values each card double dummy in each world: PIMC's choice (ties low)."""
    rng = random.Random(3)
    differ = 0
    for _ in range(200):
        mover, own, hands, leader, tricks, led, trump, pay, elder_pay = _position(
            rng, rng.randrange(2, 6), rng.randrange(1, 24), rng.random() < 0.5)
        possible = 0
        for h in hands:
            possible |= h
        moves = pimc_moves(np.uint32(own), led, trump, True, np.uint32(possible))
        payoff = np.zeros(PAYOFF.size, dtype=np.int64)
        payoff[PAYOFF.at.POINTS:PAYOFF.at.POINTS + 6] = elder_pay
        h = np.array(hands, dtype=np.uint32)
        want = pimc_over(mover, np.uint32(own), moves, leader, tricks, led, trump, True, h,
                         len(hands), payoff)
        args = (mover, np.uint32(own), h, leader, tricks, led, trump, True,
                am.mover_pay(mover, payoff))
        assert am.alphamu_card(*args, 1, moves, -1) == want
        differ += am.alphamu_card(*args, am.M_INF, moves, -1) != want
    assert differ > 0      # unbounded M changes some choices


def test_unbounded_m_is_never_above_pimc():
    """PIMC lets the mover fit his later cards to each world (strategy fusion), so every
    vector of an αμ front is at most the double-dummy vector: each card's best total with
    M unbounded is at most its total with M = 1."""
    rng = random.Random(5)
    for _ in range(100):
        mover, own, hands, leader, tricks, led, trump, pay, _ = _position(
            rng, rng.randrange(2, 5), rng.randrange(2, 12), rng.random() < 0.5)
        moves = ref.legal(own, led, trump, True)
        m1 = _kernel_totals(mover, own, hands, leader, tricks, led, trump, True, pay, 1, moves)
        mi = _kernel_totals(mover, own, hands, leader, tricks, led, trump, True, pay,
                            am.M_INF, moves)
        for c in moves_list(moves):
            assert mi[c] <= m1[c]


def moves_list(mask):
    return [c for c in range(32) if mask >> c & 1]


# ----------------------------------------------------------------------------- the match

def _pimc_inference_deals(seed, n, worlds):
    from ecarte_sim.analysis.ecarte.play.card_advice import settings_for
    from ecarte_sim.engine.ecarte.deals.runner import DealRunner
    from ecarte_sim.engine.ecarte.settings import CFG, PlayModel
    cfg, script = settings_for("treatise", (0, 0), worlds)
    cfg = np.array(cfg)
    cfg[CFG.at.ELDER_PLAY] = cfg[CFG.at.DEALER_PLAY] = int(PlayModel.PIMC_INFERENCE)
    script = np.array(script)
    runner = DealRunner()
    out = []
    for i in range(n):
        d = runner.play(seed, i, cfg, script)
        if not d.ended and len(d.play) == 10:
            out.append((i, d))
    return cfg, script, out


def test_replay_without_search_is_the_deal_and_late_start_is_exact():
    """alphamu with K = 0 plays the whole deal's own cards (the same worlds: decide is the
    whole deal's chooser), and starting the replay at the last K tricks from the deal's
    cards gives what a replay from the first card gives."""
    from ecarte_sim.analysis.ecarte.play.stronger import play_out
    cfg, script, deals = _pimc_inference_deals(9, 40, 16)
    exchanged = 0
    for i, d in deals:
        exchanged += bool(d.exchanges)
        t, cards = play_out(d, cfg, script, seed=9, index=i, worlds=16, side=ELDER,
                            last_tricks=0, m=am.M_INF)
        assert (t, tuple(cards)) == (d.elder_tricks, tuple(d.play))
        for side in (ELDER, DEALER):
            full = play_out(d, cfg, script, seed=9, index=i, worlds=16, side=side,
                            last_tricks=3, m=am.M_INF)
            late = play_out(d, cfg, script, seed=9, index=i, worlds=16, side=side,
                            last_tricks=3, m=am.M_INF, from_card=4)
            assert full == late
    assert exchanged > 0 and len(deals) > 30


def test_match_counts():
    from ecarte_sim.analysis.ecarte.play.stronger import match
    r = match(deals=60, seed=2, worlds=16, last_tricks=5)
    assert r["n"] == 2 * (60 - r["deals_skipped"])
    assert r["elder"]["marks"]["n"] == r["dealer"]["marks"]["n"] == r["n"] // 2
    assert 0 <= r["cards_differing"] <= r["alphamu_decisions"]
    assert r["alphamu_decisions"] > 100
    lo, hi = r["marks"]["ci95"]
    assert lo <= r["marks"]["mean"] <= hi
    none = match(deals=20, seed=2, worlds=16, last_tricks=0)
    assert none["alphamu_decisions"] == 0 and none["marks"]["mean"] == 0
    assert none["changed_share"] == 0


def test_cli(cli):
    import json
    code, out, _ = cli("stronger", "--deals", "12", "--worlds", "8", "--seed", "4",
                       "--tricks", "4", "--json", "-q")
    assert code == 0
    r = json.loads(out)
    assert r["deals"] == 12 and r["worlds"] == 8 and r["seed"] == 4 and r["last_tricks"] == 4
    code, out, _ = cli("stronger", "--deals", "12", "--worlds", "8", "-q")
    assert code == 0 and "marks/deal" in out


@pytest.mark.parametrize("args,token", [
    (["--deals", "0"], "--deals"), (["--worlds", "x"], "--worlds"),
    (["--tricks", "6"], "--tricks"), (["--seed", "-1"], "--seed"),
    (["--decisions", "hoyle"], "--decisions"),
    (["--start", str(2**44 - 2), "--deals", "5"], "2**44")])
def test_cli_bad_input(cli, args, token):
    code, out, err = cli("stronger", *args)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and token in lines[0]


def test_keyed_alphamu_is_keyed_pimc_inference_without_search():
    """With K = 0 the keyed chooser is keyed.keyed_card's pimc-inference at every card of
    whole deals; the batch form gives the single card; with K = 5 its card is legal."""
    from ecarte_sim.analysis.ecarte.play.card_advice import deal_position, deal_record
    from ecarte_sim.engine.ecarte.deals.whole import payoff_table
    from ecarte_sim.engine.ecarte.laws.position import walk
    from ecarte_sim.engine.ecarte.play.keyed import keyed_card, legal_now
    from ecarte_sim.engine.ecarte.settings import PlayModel
    cfg, script, deals = _pimc_inference_deals(13, 12, 8)
    asked = 0
    for i, d in deals:
        hands = [int(d.elder_hand), int(d.dealer_hand)]
        start = list(hands)
        trump = int(d.turn_up) >> 3
        for n, (who, _, c) in enumerate(walk([int(x) for x in d.play], trump)):
            p = deal_position(d, who, hands[who], list(d.play[:n]))
            plays = np.full(10, -1, dtype=np.int64)
            plays[:n] = d.play[:n]
            args = (who, np.uint32(start[who]), np.uint32(p.unseen), plays, n, trump, True, 8,
                    np.uint64(21), cfg, script, deal_record(p), payoff_table(p.first))
            h = np.zeros(8, dtype=np.uint32)
            want = keyed_card(int(PlayModel.PIMC_INFERENCE), *args, h,
                              np.zeros(32, dtype=np.int64), np.zeros(32, dtype=np.int64))
            assert am.keyed_alphamu_card(*args, h, 0, am.M_INF) == want
            searched = am.keyed_alphamu_card(*args, h, 5, am.M_INF)
            assert legal_now(who, np.uint32(start[who]), plays, n, trump, True) >> searched & 1
            out = np.zeros(1, dtype=np.int64)
            thrown = np.uint32(sum(int(x[0] if who == ELDER else x[2]) for x in d.exchanges))
            asked += am.keyed_alphamu_cards(
                who, np.array([start[who]], dtype=np.uint32), np.array([thrown], np.uint32),
                np.uint32(p.unseen | start[who] | thrown), plays, n, trump, True, 8,
                np.uint64(21), cfg, script, deal_record(p), payoff_table(p.first), 5,
                am.M_INF, out)
            assert out[0] == searched
            hands[who] &= ~(1 << c)
    assert asked > 20


def test_best_response_engine():
    """The best response's engine asking keyed alphamu: with K = 0 it is the
    pimc-inference engine (same values); with K = 5 the best response is never below
    alphamu's own play."""
    from ecarte_sim.analysis.ecarte.play.exploit import Engine, best_response, opponent_hands, setup
    from ecarte_sim.analysis.ecarte.play.stronger import AlphamuEngine
    s = setup("KH 9H QS 8D 7C", "TH", "dealer", model="pimc-inference", worlds=4)
    hands = opponent_hands(s, Engine(s), sample=10, sample_seed=1)
    a = best_response(s, seed=3, hands=hands, engine=Engine(s))
    b = best_response(s, seed=3, hands=hands, engine=AlphamuEngine(s, last_tricks=0))
    assert (a.best_marks, a.model_marks) == (b.best_marks, b.model_marks)
    c = best_response(s, seed=3, hands=hands, engine=AlphamuEngine(s, last_tricks=5))
    assert c.best_marks >= c.model_marks - 1e-12 and c.opponent_calls > 0
