"""The solver-driven Piquet players: dd plays the solver's value, PIMC samples worlds
consistent with what it has seen; both keep the rules (reference) and reproducibility."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from ecarte_sim.engine.cards import PIQUET, parse_hand
from ecarte_sim.engine.piquet import simulate as S
from ecarte_sim.engine.piquet.game import DealRecord
from ecarte_sim.engine.piquet.reference import Variant, play_deal
from ecarte_sim.engine.piquet.solver import new_table, new_workspace, solve
from ecarte_sim.engine.piquet.records import PAIRED_COUNTS, SCORE
from ecarte_sim.engine.piquet.settings import LeadScoring, PiquetSettings
from ecarte_sim.engine.piquet.whole import _consistent, sample_world, shown_cards, world_pool


def H(text: str) -> int:
    return int(parse_hand(text, None, PIQUET))


@pytest.mark.parametrize("lead", ["all", "ten_up"])
def test_dd_against_dd_scores_the_solver_value(lead):
    """Both players double dummy: the play and the cards come out at the exact value of
    the position after the exchange (the solver's minimax)."""
    cfg = PiquetSettings("dd", "dd", lead_scoring=lead).cfg()
    table, ws = new_table(18), new_workspace()
    for rec in S.deal_records(31, 0, 150, cfg):
        k = DealRecord.from_record(rec)
        made = (k.elder["play"] + k.elder["cards"]) - (k.younger["play"] + k.younger["cards"])
        value = solve(np.uint32(k.elder_hand), np.uint32(k.younger_hand), True, 0, -1,
                      int(LeadScoring[lead.upper()]), table, ws)
        assert made == value, k.as_dict()


@pytest.mark.parametrize("players", [("dd", "heuristic"), ("random", "dd"),
                                     ("pimc", "heuristic"), ("heuristic", "pimc")])
def test_solver_players_keep_the_rules(players):
    cfg = PiquetSettings(*players, worlds=8).cfg()
    for rec in S.deal_records(32, 0, 60 if "pimc" in players else 300, cfg):
        k = DealRecord.from_record(rec)
        ref = play_deal(k.elder_dealt, k.younger_dealt, list(k.stock), k.elder_discard,
                        k.younger_discard, list(k.plays), Variant())
        for seat, kernel in (("elder", k.elder), ("younger", k.younger)):
            score = getattr(ref, seat)
            assert kernel["total"] == score.total
            assert all(kernel[c] == getattr(score, c) for c in SCORE.fields if c != "total")


def test_dd_elder_beats_heuristic_elder_against_the_same_younger():
    """Paired on the same deals: the double-dummy elder (who sees the younger's cards)
    makes a larger margin than the heuristic elder."""
    counts = PAIRED_COUNTS.read(S.paired_counts(
        33, 0, 600, PiquetSettings("dd", "heuristic").cfg(),
        PiquetSettings("heuristic", "heuristic").cfg(), chunk=64))
    n = counts["deals"]
    mean = counts["sum_diff"] / n
    se = np.sqrt((counts["sum_diff_sq"] / n - mean ** 2) / (n - 1))
    assert mean - 4 * se > 0, (mean, se)


@pytest.mark.parametrize("players", [("dd", "random"), ("pimc", "dd")])
def test_solver_players_bit_identical_for_threads(players):
    cfg = PiquetSettings(*players, worlds=4).cfg()
    n = 40 if "pimc" in players else 400
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = S.deal_counts(5, 0, n, cfg, chunk=n)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = S.deal_counts(5, 0, n, cfg, chunk=3)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, two)


@pytest.mark.quick
def test_shown_cards_are_what_the_winner_declares():
    hand = H("AS KS QS 9S 8S 7S KH QH JH KD KC 7D")
    # Point: spades (6 cards); sequences: A K Q and 9 8 7 of spades, K Q J of hearts;
    # sets: the kings (KS KH KD KC: a quatorze).
    assert shown_cards(np.uint32(hand), True, False, False) == H("AS KS QS 9S 8S 7S")
    assert shown_cards(np.uint32(hand), False, True, False) == H("AS KS QS 9S 8S 7S KH QH JH")
    assert shown_cards(np.uint32(hand), False, False, True) == H("KS KH KD KC")
    assert shown_cards(np.uint32(hand), False, False, False) == 0


def test_a_world_must_answer_the_declarations_as_the_opponent_did():
    mine = H("AS KS QS JS 9H 8H 7H AD KD 9C 8C 7C")       # point 4 (41), quart major
    theirs = H("TS 9S 8S 7S AH KH QH JH TH QD JD TC")     # point 5 in hearts: good
    assert _consistent(np.uint32(theirs), np.uint32(theirs), np.uint32(mine))
    # Another hand with the same hearts shown but a longer suit elsewhere would have
    # called a better point: not consistent.
    other = H("AH KH QH JH TH QD JD TD 9D 8D 7D TC")
    assert not _consistent(np.uint32(other), np.uint32(theirs), np.uint32(mine))
    # The loser's point must stay below the winner's: my point of four (41) is beaten by
    # any five; a world giving the opponent only fours is inconsistent with his "good".
    fours = H("AH KH QH JH TS 9S 8S 7S QD JD TC 9D")
    assert not _consistent(np.uint32(fours), np.uint32(theirs), np.uint32(mine))


def _replay_states(k: DealRecord):
    """Each decision of a recorded deal: (player to move, ply, hands, played, unseen, shown,
    voids) as the kernel's play loop holds them."""
    e, y = k.elder_hand, k.younger_hand
    full = np.array([e, y], dtype=np.uint32)
    hands = full.copy()
    played = np.zeros(2, dtype=np.uint32)
    voids = np.zeros(2, dtype=np.uint32)
    unseen = np.array([~(e | k.elder_discard) & 0xFFFFFFFF,
                       ~(y | k.younger_discard) & 0xFFFFFFFF], dtype=np.uint32)
    won = lambda seat, comp: getattr(k, seat)[comp] > 0   # noqa: E731
    shown = np.array([shown_cards(np.uint32(full[p]), won(seat, "point"),
                                  won(seat, "sequences"), won(seat, "sets"))
                      for p, seat in enumerate(("elder", "younger"))], dtype=np.uint32)
    leader = 0
    for t in range(12):
        lead, reply = k.plays[2 * t], k.plays[2 * t + 1]
        for ply, who, card in ((2 * t, leader, lead), (2 * t + 1, 1 - leader, reply)):
            yield who, ply, hands.copy(), played.copy(), unseen.copy(), shown, voids.copy()
            hands[who] &= ~np.uint32(1 << card)
            played[who] |= np.uint32(1 << card)
            unseen[1 - who] &= ~np.uint32(1 << card)
        if reply >> 3 != lead >> 3:
            voids[1 - leader] |= np.uint32(0xFF << (8 * (lead >> 3)))
        leader = 1 - leader if (reply >> 3 == lead >> 3 and reply > lead) else leader


def test_every_world_is_a_legal_opponent_hand():
    """Replaying recorded deals decision by decision: each sampled world gives the opponent
    exactly the cards he still holds in number, only cards the player has not seen, his shown
    cards, nothing of a suit he has shown void, and the true hand is always a candidate."""
    draws = np.zeros(32, dtype=np.int64)
    decisions = known = 0
    for rec in S.deal_records(34, 0, 150, PiquetSettings("heuristic", "heuristic").cfg()):
        k = DealRecord.from_record(rec)
        full = np.array([k.elder_hand, k.younger_hand], dtype=np.uint32)
        for me, ply, hands, played, unseen, shown, voids in _replay_states(k):
            them = 1 - me
            fixed, pool, free = world_pool(me, hands, unseen, shown, voids)
            true = int(hands[them])
            assert int(fixed) & ~true == 0 and (true & ~int(fixed)) & ~int(pool) == 0
            assert free == bin(true & ~int(fixed)).count("1") <= bin(int(pool)).count("1")
            known += free == 0
            for w in range(3):
                world = int(sample_world(np.uint64(34), np.uint64(0), ply, w, fixed, pool, free,
                                         played[them], full[them], full[me], draws))
                assert bin(world).count("1") == bin(true).count("1")
                assert world & int(fixed) == int(fixed)
                assert world & ~(int(fixed) | int(pool)) == 0
                assert world & int(voids[them]) == 0
                assert world & (int(hands[me]) | int(played[me]) | int(played[them])) == 0
            decisions += 1
    assert decisions == 150 * 24 and known > 0     # fully known hands occur (none drawn)
