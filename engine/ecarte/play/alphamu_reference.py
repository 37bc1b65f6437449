"""A slow, readable αμ search in plain Python: the oracle the tests hold the numba kernel
of :mod:`ecarte_sim.engine.ecarte.play.alphamu` to.

αμ (Cazenave and Ventos, "The αμ Search Algorithm for the Game of Bridge", 2020) searches
the same sampled worlds as PIMC, but the searching player (the *mover*, Max) must play the
same card in every world of his information set — he cannot see which world is the true
one — while his opponent (Min) plays per world, seeing everything. A node's value is a
*front*: the set of vectors (one value per world) that Max can still reach by his choice
of cards below it, none dominated by another (Pareto). At Max's node the fronts of his
cards are united; at Min's node the opponent chooses per world, so the fronts of his
cards are combined by the product (every choice of one vector per card, the per-world
minimum over the cards he holds and may play in that world). ``M`` bounds how many of
Max's moves are searched: at a Max node with ``M = 0`` each world is valued double dummy
(so ``M = 1`` is PIMC); with ``M`` at least the number of Max's cards left the search is
exact for Max's plans against an opponent who sees the cards.

Values: per world, the deal's marks for the mover by the elder's tricks (``pay[t]``,
Laws 48–49: the point 1, the vole 2, doubled when the elder played without proposing or
the dealer refused and that side loses the point). A world ruled out by the opponent's
play in a branch holds :data:`OUT` (larger than any value), the neutral element of the
minimum. Card play by Law 43 (written out again here, independently of the kernels): the
second card follows suit and must win when able; void, it must trump when
``forced_trump``; the winner of a trick leads the next.
"""

from __future__ import annotations

from ecarte_sim.engine.ecarte.search.solver import search

ELDER, DEALER = 0, 1
#: The value of a world that is not in play in a branch (the opponent does not hold the
#: card he played there): larger than any mark, so the minimum at Min's node ignores it.
OUT = 1 << 20


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def leader_wins(led: int, reply: int, trump: int) -> bool:
    """The card led beats the reply: a higher card of its suit or a plain card of another
    suit that is not a trump (card index = 8 x suit + rank, higher rank higher)."""
    if reply >> 3 == led >> 3:
        return reply < led
    return reply >> 3 != trump


def legal(hand: int, led: int, trump: int, forced_trump: bool) -> int:
    """Law 43: any card when leading; else follow suit, winning when able; void, trump
    when able (when ``forced_trump``); else any card."""
    if led < 0:
        return hand
    suit = hand & (0xFF << (8 * (led >> 3)))
    if suit:
        above = suit & ~((1 << (led + 1)) - 1)
        return above if above else suit
    if forced_trump:
        trumps = hand & (0xFF << (8 * trump))
        if trumps:
            return trumps
    return hand


def pareto(vectors) -> list[tuple]:
    """The vectors none of which another one is at least as good as in every world
    (duplicates once), sorted."""
    unique = sorted(set(vectors))
    return [v for v in unique
            if not any(u != v and all(a >= b for a, b in zip(u, v)) for u in unique)]


def _after(state, card, trump):
    """(own, gone, leader, tricks, led) after ``card`` is played; the mover's card leaves
    ``own``, the opponent's joins ``gone``."""
    own, gone, leader, tricks, led, mover = state
    who = leader if led < 0 else 1 - leader
    if who == mover:
        own &= ~(1 << card)
    else:
        gone |= 1 << card
    if led < 0:
        return own, gone, leader, tricks, card, mover
    winner = leader if leader_wins(led, card, trump) else 1 - leader
    return own, gone, winner, tricks + (winner == ELDER), -1, mover


def front(state, hands, valid, trump, forced_trump, pay, m) -> list[tuple]:
    """The Pareto front of the position ``state`` = (mover's hand, the opponent's cards
    played in the search, leader, elder tricks, card led or -1, mover) over the worlds
    ``hands`` (the opponent's hands), ``valid`` the worlds still in play, ``m`` Max's
    moves still searched."""
    own, gone, leader, tricks, led, mover = state
    n = len(hands)
    if own == 0 and led < 0:                       # the deal is over
        return [tuple(pay[tricks] if valid[w] else OUT for w in range(n))]
    who = leader if led < 0 else 1 - leader
    if who == mover:
        if m == 0:                                 # double dummy in each world
            out = []
            for w in range(n):
                if not valid[w]:
                    out.append(OUT)
                    continue
                opp = hands[w] & ~gone
                e, d = (own, opp) if mover == ELDER else (opp, own)
                t = int(search(e, d, leader, tricks, led, trump, forced_trump, -1, 6)) \
                    if (e | d) else tricks
                out.append(pay[t])
            return [tuple(out)]
        vectors = []
        for c in _bits(legal(own, led, trump, forced_trump)):
            vectors += front(_after(state, c, trump), hands, valid, trump, forced_trump, pay,
                             m - 1)
        return pareto(vectors)
    cards = {}
    for w in range(n):
        if valid[w]:
            for c in _bits(legal(hands[w] & ~gone, led, trump, forced_trump)):
                cards.setdefault(c, []).append(w)
    result = None
    for c in sorted(cards):
        sub = [w in cards[c] for w in range(n)]
        f = front(_after(state, c, trump), hands, sub, trump, forced_trump, pay, m)
        if result is None:
            result = f
        else:
            result = pareto(tuple(min(a, b) for a, b in zip(u, v)) for u in result for v in f)
    return result


def root_values(mover, own, hands, leader, tricks, led, trump, forced_trump, pay, m,
                moves=None) -> dict:
    """For each of the mover's cards (``moves``, a mask; default every legal card): the
    best total over the worlds of a vector of the front after it (``m`` >= 1: Max's moves
    searched, this one included)."""
    moves = legal(own, led, trump, forced_trump) if moves is None else moves
    state = (own, 0, leader, tricks, led, mover)
    valid = [True] * len(hands)
    return {c: max(sum(v) for v in front(_after(state, c, trump), hands, valid, trump,
                                         forced_trump, pay, m - 1))
            for c in _bits(moves)}


def choose(values: dict, tie: int = -1) -> int:
    """The card of the best total; among equals ``tie`` if it is one, else the lowest."""
    best = max(values.values())
    if values.get(tie) == best:
        return tie
    return min(c for c, v in values.items() if v == best)
