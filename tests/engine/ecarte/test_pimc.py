"""PIMC and the heuristic: legal play, worlds that never contradict what the player saw,
uniform worlds, and PIMC against the heuristic on paired deals."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ecarte_sim.analysis.stats.intervals import paired_difference
from ecarte_sim.engine.ecarte import reference as R
from ecarte_sim.engine.ecarte.deals.experiments import paired_counts
from ecarte_sim.engine.ecarte.deals.runner import DealRunner
from ecarte_sim.engine.ecarte.play.players import reveal, sample_world
from ecarte_sim.engine.ecarte.records import REC
from ecarte_sim.engine.ecarte.settings import make_cfg
from stats_helpers import chi2_stat, chi2_upper

FULL = (1 << 32) - 1


def suit_cards(suit: int) -> int:
    return 0xFF << (8 * suit)


def proved_absent(led: int, reply: int, trump: int, forced: bool) -> int:
    """Law 43 read plainly: what a reply proves the replier does not hold."""
    if reply // 8 != led // 8:
        absent = suit_cards(led // 8)
        if forced and reply // 8 != trump:
            absent |= suit_cards(trump)
        return absent
    if reply % 8 < led % 8:   # followed below: held nothing above the card led
        return sum(1 << c for c in range(led + 1, (led // 8) * 8 + 8))
    return 0


@pytest.mark.quick
@given(st.integers(0, 31), st.integers(0, 31), st.integers(0, 3), st.booleans(),
       st.integers(0, FULL))
def test_reveal_is_law_43(led, reply, trump, forced, before):
    if led == reply:
        return
    got = int(reveal(np.uint32(before), led, reply, trump, forced))
    assert got == before | proved_absent(led, reply, trump, forced)


def replay(runner: DealRunner, seed: int, index: int, cfg: np.ndarray):
    """Yield, for every card played, (mover, his hand, opponent's hand, cards he has seen,
    what the opponent's earlier replies proved, the kernel's `possible` mask, card, led)."""
    d = runner.play(seed, index, cfg)
    rec = runner.rec.copy()
    trump = d.turn_up // 8
    forced = bool(cfg[9])
    hands = [d.elder_hand, d.dealer_hand]
    seen = [d.elder0 | (1 << d.turn_up), d.dealer0 | (1 << d.turn_up)]
    for _, elder_drawn, _, dealer_drawn in d.exchanges:
        seen[0] |= elder_drawn
        seen[1] |= dealer_drawn
    absent = [0, 0]
    played = 0
    leader = 0
    for t in range(5):
        led = None
        for half in range(2):
            j = 2 * t + half
            mover = leader if half == 0 else 1 - leader
            card = d.play[j]
            yield (mover, hands[mover], hands[1 - mover], seen[mover] | played | hands[mover],
                   absent[1 - mover], int(rec[REC.at.POSSIBLE + j]), card, led, trump, forced, j)
            hands[mover] &= ~(1 << card)
            played |= 1 << card
            if half == 0:
                led = card
            else:
                absent[mover] |= proved_absent(led, card, trump, forced)
                if not R.leader_wins(led, card, trump):
                    leader = mover


@pytest.mark.parametrize("forced", [True, False])
def test_pimc_and_heuristic_play_only_legal_cards_and_worlds_never_contradict(forced):
    runner = DealRunner()
    scratch = np.empty(32, dtype=np.int64), np.empty(32, dtype=np.int64)
    checked = Counter()
    for index in range(250):
        elder_play, dealer_play = (("pimc", "heuristic"), ("heuristic", "pimc"))[index % 2]
        cfg = make_cfg(elder_policy="regle", dealer_policy="maxims", elder_play=elder_play,
                       dealer_play=dealer_play, worlds=8, forced_trump=forced,
                       trick_by_trick=True)
        for (mover, own, other, seen, absent, possible, card, led, trump, forced_, j) in replay(
                runner, 31, index, cfg):
            # legal (Law 43), by the reference's own rules
            if led is None:
                assert own >> card & 1
            else:
                assert card in R.legal_replies([c for c in range(32) if own >> c & 1], led,
                                               trump, forced_)
            # the kernel's picture of the opponent: no card the mover saw, nothing the play
            # proved absent, and it contains the opponent's true hand
            assert possible == FULL & ~seen & ~absent
            assert other & ~possible == 0
            checked["decisions"] += 1
            if other:
                for w in range(4):
                    world = int(sample_world(np.uint64(31), np.uint64(index), j, w,
                                             np.uint32(possible), bin(other).count("1"),
                                             *scratch))
                    assert bin(world).count("1") == bin(other).count("1")
                    assert world & seen == 0 and world & absent == 0
                    checked["worlds"] += 1
    assert checked["decisions"] == 2500 and checked["worlds"] > 3000


@pytest.mark.quick
def test_worlds_are_uniform():
    """2 cards out of a 6-card `possible` mask: 15 hands, equally likely."""
    possible = np.uint32((1 << 3) | (1 << 9) | (1 << 12) | (1 << 20) | (1 << 27) | (1 << 31))
    pool, draws = np.empty(32, dtype=np.int64), np.empty(32, dtype=np.int64)
    counts = Counter(int(sample_world(np.uint64(5), np.uint64(i), 3, w, possible, 2, pool, draws))
                     for i in range(3000) for w in range(10))
    cells = [1 << a | 1 << b for a, b in itertools.combinations([3, 9, 12, 20, 27, 31], 2)]
    assert set(counts) == set(cells)
    observed = [counts[c] for c in cells]
    assert chi2_stat(observed, [30000 / 15] * 15) < chi2_upper(14)


def test_pimc_beats_the_heuristic_on_paired_deals():
    """Each deal played twice with the seats swapped (same hands, turn-up, stock):
    a = PIMC elder vs heuristic dealer, b = heuristic elder vs PIMC dealer; a - b is PIMC's
    marks minus the heuristic's over the two seats."""
    a = make_cfg(elder_play="pimc", dealer_play="heuristic", worlds=64)
    b = make_cfg(elder_play="heuristic", dealer_play="pimc", worlds=64)
    result = paired_difference(paired_counts(2027, 0, 4000, a, b, chunk=256))
    assert result["ci95"][0] > 0, result


def _pimc_every_card(mover, elder, dealer, leader, tricks, led, trump, possible, worlds, seed,
                     index, decision, points):
    """PIMC's choice with every distinct card solved in every world (no sharing of
    equivalent cards within a world): the definition pimc_card must reproduce."""
    from ecarte_sim.engine.ecarte.play.players import outcome_after
    from ecarte_sim.engine.ecarte.search.moves import distinct_moves, legal_moves
    own = elder if mover == 0 else dealer
    legal = int(distinct_moves(legal_moves(np.uint32(own), led, trump, True), np.uint32(own),
                               np.uint32(possible), led))
    cards = [c for c in range(32) if legal >> c & 1]
    if len(cards) == 1:
        return cards[0]
    count = bin(dealer if mover == 0 else elder).count("1")
    pool, draws = np.zeros(32, np.int64), np.zeros(32, np.int64)
    totals = [0] * len(cards)
    for w in range(worlds):
        other = int(sample_world(seed, index, decision, w, np.uint32(possible), count, pool,
                                 draws))
        e, d = (own, other) if mover == 0 else (other, own)
        for j, c in enumerate(cards):
            totals[j] += points[outcome_after(np.uint32(e), np.uint32(d), leader, tricks, led,
                                              trump, True, c)]
    best = 0
    for j in range(1, len(cards)):
        if (totals[j] > totals[best]) if mover == 0 else (totals[j] < totals[best]):
            best = j
    return cards[best]


@given(st.integers(0, 10**6), st.integers(0, 9), st.integers(1, 24))
def test_pimc_sharing_equivalent_cards_in_a_world_changes_no_choice(index, plies, worlds):
    """pimc_card solves cards that are equivalent in a world once; its choice equals
    solving every card in every world, and it never solves more than that."""
    from ecarte_sim.engine.ecarte.laws.deal import deal
    from ecarte_sim.engine.ecarte.play.players import pimc_card
    from ecarte_sim.engine.ecarte.records import PAYOFF
    d = deal(5, index)
    pos = R.make_position([c for c in range(32) if d.elder >> c & 1],
                          [c for c in range(32) if d.dealer >> c & 1], d.trump)
    rng = np.random.default_rng(index)
    played = 0
    for _ in range(plies):
        card = int(rng.choice(sorted(R.legal_moves(pos))))
        played |= 1 << card
        pos = R.play(pos, card)
        if not pos.elder and pos.led is None:
            return
    elder, dealer = sum(1 << c for c in pos.elder), sum(1 << c for c in pos.dealer)
    mover = pos.to_move
    own = elder if mover == 0 else dealer
    possible = 0xFFFFFFFF & ~(own | played | (1 << d.turn_up))
    led = -1 if pos.led is None else pos.led
    points = np.array([-2, -1, 0, 1, 0, 2], dtype=np.int64)  # by elder tricks, coarse
    payoff = np.zeros(PAYOFF.size, dtype=np.int64)
    payoff[PAYOFF.at.POINTS:PAYOFF.at.POINTS + 6] = points
    pool, draws = np.zeros(32, np.int64), np.zeros(32, np.int64)
    chosen = pimc_card(mover, np.uint32(elder), np.uint32(dealer), pos.leader,
                       pos.elder_tricks, led, d.trump, True, np.uint32(possible), worlds,
                       np.uint64(5), index, plies, payoff, pool, draws)
    assert chosen == _pimc_every_card(mover, elder, dealer, pos.leader,
                                      pos.elder_tricks, led, d.trump, possible, worlds, 5,
                                      index, plies, points)
    decisions = payoff[PAYOFF.at.PIMC_DECISIONS]
    assert payoff[PAYOFF.at.PIMC_SOLVES] <= decisions * worlds * 5


def _gaps(hand, fixed):
    """Per suit, how many cards of ``hand`` lie in each gap between consecutive ``fixed``
    cards (brute force, from the bottom of the suit)."""
    counts = []
    for suit in range(4):
        gap, n = 0, 0
        for c in range(8 * suit, 8 * suit + 8):
            if fixed >> c & 1:
                counts.append((suit, gap, n))
                gap, n = gap + 1, 0
            elif hand >> c & 1:
                n += 1
        counts.append((suit, gap, n))
    return counts


@given(st.integers(0, 10**6), st.integers(0, 9))
def test_worlds_of_one_shape_have_the_same_values(index, plies):
    """world_shape (PIMC solves one world per shape): two opponent hands share a shape
    exactly when they hold as many cards in each gap between the mover's cards (and the
    card led), and then every card of the mover has the same exact value in both (the
    reference's solver)."""
    from ecarte_sim.engine.ecarte.laws.deal import deal
    from ecarte_sim.engine.ecarte.play.players import world_shape
    d = deal(31, index)
    pos = R.make_position([c for c in range(32) if d.elder >> c & 1],
                          [c for c in range(32) if d.dealer >> c & 1], d.trump)
    rng = np.random.default_rng(index)
    for _ in range(plies):
        pos = R.play(pos, int(rng.choice(sorted(R.legal_moves(pos)))))
    mover = pos.to_move
    own = sum(1 << c for c in (pos.elder if mover == 0 else pos.dealer))
    other = sum(1 << c for c in (pos.dealer if mover == 0 else pos.elder))
    fixed = own | (0 if pos.led is None else 1 << pos.led)
    # Another hand of the same shape: the cards of each gap moved to random places in it.
    other2 = 0
    for suit in range(4):
        gap_cards, gap_n = [], 0
        for c in list(range(8 * suit, 8 * suit + 8)) + [None]:
            if c is None or fixed >> c & 1:
                for pick in rng.choice(len(gap_cards), gap_n, replace=False) if gap_n else []:
                    other2 |= 1 << gap_cards[pick]
                gap_cards, gap_n = [], 0
            else:
                gap_cards.append(c)
                gap_n += other >> c & 1
    assert _gaps(other2, fixed) == _gaps(other, fixed)
    assert world_shape(np.uint32(other), np.uint32(fixed)) == \
        world_shape(np.uint32(other2), np.uint32(fixed))
    # A hand of another shape has another key.
    third = int(sum(1 << c for c in rng.choice(
        [c for c in range(32) if not fixed >> c & 1], bin(other).count("1"), replace=False)))
    assert (world_shape(np.uint32(third), np.uint32(fixed))
            == world_shape(np.uint32(other), np.uint32(fixed))) == \
        (_gaps(third, fixed) == _gaps(other, fixed))
    hands = [list(pos.elder), list(pos.dealer)]
    values = []
    for hand in (other, other2):
        cards = [c for c in range(32) if hand >> c & 1]
        elder, dealer = (hands[0], cards) if mover == 0 else (cards, hands[1])
        values.append(R.move_values(elder, dealer, pos.trump, pos.leader, pos.elder_tricks,
                                    pos.led))
    assert values[0] == values[1]
