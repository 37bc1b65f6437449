"""The score recursion: closed forms on toy distributions, and whole games played out."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ecarte_sim.analysis.ecarte.measures.scores import (N_CODES, outcome_distribution,
                                                        player_win_probability, replay,
                                                        win_probabilities)
from ecarte_sim.analysis.stats.intervals import Z95
from ecarte_sim.engine.ecarte.deals.counts import whole_counts
from ecarte_sim.engine.ecarte.deals.game import play_game
from ecarte_sim.engine.ecarte.deals.runner import DealRunner
from ecarte_sim.engine.ecarte.settings import make_cfg

# codes: 5 * king + points; king 0 none, 1 turned (dealer), 2 elder in hand, 3 dealer in hand;
# points 0 elder 1, 1 elder 2, 2 dealer 1, 3 dealer 2
ELDER_1, ELDER_2, DEALER_1, DEALER_2 = 0, 1, 2, 3
TURNED = 5


def dist(**codes) -> np.ndarray:
    p = np.zeros(N_CODES)
    for code, prob in codes.items():
        p[int(code[1:])] = prob
    return p


@pytest.mark.quick
def test_the_elder_always_scores_one():
    """Each deal's elder marks 1: the first elder reaches five on the ninth deal, before his
    opponent (at four); from 0-4 the opponent wins at once on his deal."""
    v = win_probabilities(dist(c0=1.0))
    assert v[0, 0] == 1.0 and v[0, 4] == 0.0 and v[4, 4] == 1.0 and v[3, 4] == 0.0


@pytest.mark.parametrize("q", [0.0, 0.3, 0.55, 1.0])
def test_point_won_with_probability_q(q):
    v = win_probabilities(dist(c0=q, c2=1 - q))
    assert math.isclose(v[4, 4], q)
    # at 4-3 the elder wins now (q) or the dealer reaches 4 and, elder next, wins with V[4,4]
    assert math.isclose(v[4, 3], q + (1 - q) * (1 - q))
    assert math.isclose(v[3, 4], q * (1 - q))  # must win this point and the next as dealer


def test_a_turned_king_is_marked_before_the_point():
    v = win_probabilities(dist(c5=1.0))   # turned king, and the elder wins the point
    assert v[4, 4] == 0.0                 # the dealer's king reaches five first
    assert v[4, 3] == 1.0                 # the dealer only reaches four; the point wins


@pytest.mark.quick
def test_replay_orders_the_marks():
    assert replay(4, 4, 5 * 2 + DEALER_2) == (5, 4, "elder")     # elder's king first
    assert replay(3, 4, 5 * 2 + DEALER_2) == (4, 6, "dealer")
    assert replay(0, 0, 5 * 3 + ELDER_2) == (2, 1, None)


@pytest.mark.quick
def test_rejects_truncated_or_bad_distributions():
    with pytest.raises(ValueError):
        win_probabilities(dist(c4=1.0))
    with pytest.raises(ValueError):
        win_probabilities(dist(c0=0.5))


@pytest.mark.parametrize("start, first_dealer", [({"A": 0, "B": 0}, "A"),
                                                 ({"A": 3, "B": 4}, "B"),
                                                 ({"A": 4, "B": 1}, "A")])
def test_recursion_agrees_with_whole_games(start, first_dealer):
    cfg = make_cfg(play="heuristic")
    p, n = outcome_distribution(whole_counts(11, 0, 400_000, cfg))
    v = win_probabilities(p)
    exact_a = player_win_probability(v, start["A"], start["B"], first_dealer == "A")
    runner = DealRunner()
    games = 6000
    wins = sum(play_game(12, g, cfg, runner, score=start, first_dealer=first_dealer).winner
               == "A" for g in range(games))
    rate = wins / games
    se = math.sqrt(rate * (1 - rate) / games)
    # the recursion's own sampling error (400,000 deals) is far smaller than the games'
    assert abs(rate - exact_a) < Z95 * se + 0.005, (rate, exact_a, se)
