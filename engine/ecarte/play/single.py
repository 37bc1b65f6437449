"""One decision of the play from a position, as the whole-deal ``pimc-inference`` player
makes it, and what each legal card is worth in its worlds.

:func:`~ecarte_sim.engine.ecarte.deals.whole.whole_deal` plays a deal from its first card to its
last; a practice table and a coach need a single card: the one the computer plays now, or
the value of every card a person might play now. :func:`decide` gives both, from the
mover's knowledge only (his hand at the start of the play, the cards he never saw, the
record of the proposals in ``rec`` and the cards played so far in order; never the
opponent's hand):

* the card is the one :func:`~ecarte_sim.engine.ecarte.play.inferred_worlds.pimc_inferred_card`
  chooses at that card of the same deal (same ``seed``, deal ``index`` and card number):
  the same worlds, the same comparison (Law 43's legal cards, equivalent cards one move,
  the best mean of the deal's points, Laws 48–49, ties to the lowest card index);
* the inferring player's history particles (drawn once a deal and grown at each of his
  choices while too few fit the play) are grown here exactly as at each of his earlier
  choices in the deal, so the worlds of card ``j`` are those the whole deal draws there;
* with ``evaluate``, the outcome of every legal card in every world (0 dealer vole, 1
  dealer point, 3 elder point, 5 elder vole; double dummy from the card on,
  :func:`~ecarte_sim.engine.ecarte.play.players.outcome_after`), for the card's value.

The whole deal's rule for the card order (Laws 40, 43): the elder leads the first trick,
the winner of a trick leads the next; the card played second follows suit, wins when able
and trumps when void (``forced_trump``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import N_CARDS, bit_index
from ecarte_sim.engine.ecarte.laws.position import step
from ecarte_sim.engine.ecarte.laws.tricks import ELDER
from ecarte_sim.engine.ecarte.play.inferred_worlds import (INFER_WORK_ROWS, MAX_PARTICLES,
                                                           PARTICLE_COLUMNS, draw_inferred_worlds)
from ecarte_sim.engine.ecarte.play.players import (outcome_after, pimc_moves, pimc_over, pool_of,
                                                   reveal, world_shape)
from ecarte_sim.engine.ecarte.search.moves import legal_moves

_FULL = np.uint32(0xFFFFFFFF)


@njit(cache=True)
def decide(mover, own_start, unseen, plays, n_played, trump, forced_trump, worlds, seed,
           index, cfg, script, rec, payoff, hands, evaluate, cards, outcomes):
    """The ``pimc-inference`` card of ``mover`` (ELDER or DEALER) at card ``n_played`` of
    deal ``index``: returns (card, legal mask, distinct-move mask, leader, elder tricks,
    led card, the opponent's hand size, the cards he may hold).

    ``own_start``: the mover's hand at the first card of the play; ``unseen``: the cards
    he never saw (not dealt or drawn to him, not the turn-up); ``plays[:n_played]``: the
    cards played so far, in order (the mover to play the next one, the caller checks);
    ``cfg``/``script``/``rec``: the settings (his opponent model and discard policy, the
    score), the tables and the record of the proposals (``TURN_UP``, ``EXCHANGES``,
    ``HOW_ENDED``, per exchange the masks whose sizes are the cards each player threw
    and drew); ``payoff`` (``PAYOFF``) with the deal's points by the elder's tricks
    already filled (Laws 48–49). ``hands`` (uint32, length >= ``worlds``) receives the
    worlds drawn at this card when there is a choice to make or ``evaluate`` is set;
    then, with ``evaluate``, ``cards[k]`` the ``k``-th legal card (by index) and
    ``outcomes[w, k]`` its outcome in world ``w`` (module docstring)."""
    own = np.uint32(own_start)
    played = np.uint32(0)
    shown = np.uint32(0)         # the opponent's cards played
    not_held = np.uint32(0)      # proved absent from the opponent's hand (Law 43)
    particles = np.empty((MAX_PARTICLES, PARTICLE_COLUMNS), dtype=np.int64)
    state = np.zeros(2, dtype=np.int64)
    work = np.empty((INFER_WORK_ROWS, N_CARDS), dtype=np.int64)
    pool = np.empty(N_CARDS, dtype=np.int64)
    draws = np.empty(N_CARDS, dtype=np.int64)
    leader = np.int64(ELDER)
    tricks = np.int64(0)
    led = np.int64(-1)
    opp_played = 0
    for j in range(n_played):
        who = leader if led < 0 else 1 - leader
        card = plays[j]
        bit = np.uint32(1) << np.uint32(card)
        if who == mover:
            possible = unseen & ~(played | own) & ~not_held & _FULL
            legal = pimc_moves(own, led, trump, forced_trump, possible)
            if legal & (legal - np.uint32(1)) != 0:
                # his choice there grew the particles as the whole deal grows them
                draw_inferred_worlds(seed, index, j, mover, cfg, script, rec, unseen,
                                     possible, shown, 5 - opp_played, hands, 0, particles,
                                     state, work, pool, draws, payoff)
            own = np.uint32(own ^ bit)
        else:
            shown = np.uint32(shown | bit)
            opp_played += 1
        played = np.uint32(played | bit)
        if led >= 0 and who != mover:           # the adversary's reply (Law 43)
            not_held = reveal(not_held, led, card, trump, forced_trump)
        _, leader, tricks, led = step(leader, tricks, led, card, trump)
    count = 5 - opp_played
    possible = unseen & ~(played | own) & ~not_held & _FULL
    legal_all = legal_moves(own, led, trump, forced_trump)
    legal = pimc_moves(own, led, trump, forced_trump, possible)
    choice = legal & (legal - np.uint32(1)) != 0
    if choice or evaluate:
        draw_inferred_worlds(seed, index, n_played, mover, cfg, script, rec, unseen, possible,
                             shown, count, hands, worlds, particles, state, work, pool, draws,
                             payoff)
    if choice:
        card = pimc_over(mover, own, legal, leader, tricks, led, trump, forced_trump, hands,
                         worlds, payoff)
    else:
        card = bit_index(legal)
    if evaluate:
        evaluate_cards(mover, own, legal_all, leader, tricks, led, trump, forced_trump, hands,
                       worlds, cards, outcomes)
    return (np.int64(card), np.int64(legal_all), np.int64(legal), leader, tricks, led,
            np.int64(count), np.int64(possible))


@njit(cache=True)
def evaluate_cards(mover, own, legal, leader, tricks, led, trump, forced_trump, hands, worlds,
                   cards, outcomes):
    """``outcomes[w, k]``: the outcome (0, 1, 3, 5: :func:`~.players.outcome_after`) of
    the ``k``-th card of ``legal`` (``cards[k]``, by index) in world ``w`` (the
    opponent's hand ``hands[w]``); a world of a shape already solved
    (:func:`~.players.world_shape`) is not solved again. Returns the number of cards."""
    n = pool_of(legal, cards)
    fixed = own | (np.uint32(1) << np.uint32(led)) if led >= 0 else own
    shapes = np.empty(worlds, dtype=np.uint32)
    first = np.empty(worlds, dtype=np.int64)
    n_shapes = 0
    for w in range(worlds):
        other = hands[w]
        shape = world_shape(other, fixed)
        k = 0
        while k < n_shapes and shapes[k] != shape:
            k += 1
        if k < n_shapes:
            for i in range(n):
                outcomes[w, i] = outcomes[first[k], i]
            continue
        shapes[n_shapes] = shape
        first[n_shapes] = w
        n_shapes += 1
        e = own if mover == ELDER else other
        d = other if mover == ELDER else own
        for i in range(n):
            outcomes[w, i] = outcome_after(e, d, leader, tricks, led, trump, forced_trump,
                                           cards[i])
    return n

