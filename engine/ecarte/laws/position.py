"""The walk through a position: the cards played, replayed one at a time (Law 40: the
elder leads the first trick, the winner of a trick leads the next; Law 43: the trick's
winner by :func:`~ecarte_sim.engine.ecarte.laws.tricks.leader_wins`).

The state of the play after ``n`` cards is (leader, the elder's tricks, the card led or
-1, ``n``): the player to move is the leader when no card is led, else the other.

* :func:`step` — the state after one card, for the kernels (``@njit``); the mover's own
  bookkeeping (his hand, what a reply reveals) stays with each kernel.
* :func:`after` — the same step for the Python layer (the practice table's position
  parser, the coach's replay, the best response's search, the benchmark), reading
  ``leader_wins`` once per trump into a table (:func:`beats`) so that a search's inner loop
  pays no kernel dispatch per card; a test checks it equals :func:`step` on every input.
* :func:`walk` — every card of a sequence with who played it and the state before it.
* :func:`said_of` — the words said in a whole deal (parsed from text by
  :func:`~.history.parse_said`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from ecarte_sim.engine.ecarte.laws.tricks import ELDER, leader_wins
from ecarte_sim.engine.ecarte.records import ProposalsEnd

#: The state before the first card: the elder leads (Law 40), no trick, nothing led.
START = (ELDER, 0, -1, 0)


@njit(cache=True)
def step(leader, tricks, led, card, trump):
    """(who played ``card``, leader, elder's tricks, card led or -1) after ``card``,
    from (``leader``, ``tricks``, ``led``): a lead when ``led`` < 0, else the reply that
    ends the trick (the winner leads next, Law 43)."""
    if led < 0:
        return np.int64(leader), np.int64(leader), np.int64(tricks), np.int64(card)
    who = np.int64(1 - leader)
    if not leader_wins(led, card, trump):
        leader = who
    if leader == ELDER:
        tricks += 1
    return who, np.int64(leader), np.int64(tricks), np.int64(-1)


@lru_cache(maxsize=4)
def beats(trump: int) -> tuple:
    """``beats(trump)[led][reply]``: the card led takes the trick against ``reply``
    (the kernel's :func:`~ecarte_sim.engine.ecarte.laws.tricks.leader_wins`, read once)."""
    return tuple(tuple(bool(leader_wins(a, b, trump)) for b in range(32)) for a in range(32))


def after(state: tuple, card: int, trump: int) -> tuple:
    """The state (leader, elder's tricks, led, cards played) after ``card``: :func:`step`
    for the Python layer."""
    leader, tricks, led, n = state
    if led < 0:
        return leader, tricks, card, n + 1
    if not beats(trump)[led][card]:
        leader = 1 - leader
    if leader == ELDER:
        tricks += 1
    return leader, tricks, -1, n + 1


def to_play(state: tuple) -> int:
    """Who plays the next card in ``state``: the leader, or the other after a lead."""
    leader, _, led, _ = state
    return leader if led < 0 else 1 - leader


def walk(cards, trump: int, state: tuple = START):
    """Yield (who plays it, the state before it, the card) for each card of ``cards``
    in order, and return nothing: the state after the last is ``after`` of the last."""
    for card in cards:
        yield to_play(state), state, card
        state = after(state, card, trump)


def said_of(d) -> list[str]:
    """What was said in a whole deal (a :class:`~ecarte_sim.engine.ecarte.deals.runner.WholeDeal`:
    its exchanges and how the proposals ended), as :func:`~.history.parse_said` reads it:
    ``propose, accept`` per exchange, then ``play`` or ``propose, refuse`` (Laws 25–26)."""
    words = ["propose", "accept"] * len(d.exchanges)
    if d.how_ended == ProposalsEnd.ELDER_PLAYED:
        words.append("play")
    elif d.how_ended == ProposalsEnd.DEALER_REFUSED:
        words += ["propose", "refuse"]
    return words


__all__ = ["START", "step", "beats", "after", "to_play", "walk", "said_of"]
