"""The walk through a position (engine/ecarte/laws/position.py), the one step every replay uses.

* The kernels' :func:`step` and the Python layer's :func:`after` agree on every input.
* Walking a whole deal's play as the engine recorded it gives the engine's trick count,
  and the leader of each trick is the winner of the one before (Law 40).
"""

from __future__ import annotations

import numpy as np
import pytest

from ecarte_sim.engine.ecarte.deals.runner import play_deal
from ecarte_sim.engine.ecarte.laws import position as P
from ecarte_sim.engine.ecarte.reference import trick_winner


@pytest.mark.quick
def test_step_and_after_agree_everywhere():
    for trump in range(4):
        for leader in (0, 1):
            for tricks in range(5):
                for led in range(-1, 32):
                    for card in range(32):
                        if card == led:
                            continue
                        who, lead2, tricks2, led2 = P.step(leader, tricks, led, card, trump)
                        state = P.after((leader, tricks, led, 3), card, trump)
                        assert (int(lead2), int(tricks2), int(led2), 4) == state
                        assert int(who) == P.to_play((leader, tricks, led, 3))


@pytest.mark.parametrize("index", range(12))
def test_walking_a_recorded_play_gives_the_engines_tricks(index):
    d = play_deal(5, index)
    play = [int(c) for c in d.play]
    trump = int(d.turn_up) >> 3
    steps = list(P.walk(play, trump))
    assert len(steps) == len(play)
    state = P.START
    for k, (who, before, card) in enumerate(steps):
        assert before == state and who == P.to_play(state)
        if k % 2 == 1:      # the next leader is the trick's winner (reference rules)
            winner = trick_winner(play[k - 1], card, trump)
            nxt = P.after(state, card, trump)
            assert (nxt[0] == who) == (winner == "follower")
        state = P.after(state, card, trump)
    if len(play) == 10:
        assert state[1] == d.elder_tricks and state[2] == -1 and state[3] == 10


def test_walk_is_lazy_and_starts_where_told():
    state = (1, 2, -1, 6)                   # the dealer leads the fourth trick
    who, before, card = next(P.walk([np.int64(5), 7], 0, state))
    assert (who, before, card) == (1, state, 5)
