"""``pimc-king``: PIMC over the posterior given what the opponent said, threw and announced.

``pimc-inference`` (:mod:`.inferred_worlds`) draws the opponent's hand from the posterior
given his proposals, answers and discards and what his play proved (Law 43). The king of
trumps tells more: "If either player hold the king of trumps, he must announce it before
playing his first card" (Law 23; Law 24: he may not mark it afterwards). Once the
opponent has played a card, his announcement or his silence is evidence:

* he announced: the king is in his hand (the worlds hold it, every one);
* he did not: a world holding the king is a world in which he chose to conceal it, kept
  at the weight his **concealing policy** gives (``concealing``: the thousandths of his
  hands holding the king in which he does not announce it). The engine's players always
  announce (0): his silence then proves he has not the king, and the worlds that hold it
  go. The treatise's worked game shows why a player may conceal ("To mark the king will
  be useless, if Y win the point", and Y, "imagining that A could not hold the king
  because he did not mark it", plays feebly): a reader of a person's play should not
  take silence as proof, and the practice table's computer does not
  (:mod:`ecarte_sim.apps.practice.computer`).

Before the opponent's first card his silence says nothing (he may still announce).

The worlds, and how many (``worlds``, W):

* his hand never changed (he drew no card) and the hands he may hold number at most W:
  every one of them, each weighted by whether his decision model makes his decisions on
  it (the rejection of :mod:`.inferred_worlds`, made exact) and by the king's weight —
  the whole posterior, so the card is PIMC's with infinitely many worlds;
* otherwise W worlds drawn as ``pimc-inference`` draws them, from the posterior
  restricted by the king's evidence (a king announced joins the cards he has shown, one
  he cannot hold leaves the cards he may hold: the same rejection and particles, exact
  conditioning), a world holding a concealed king weighted as above.

The card: the legal move with the best weighted total of the deal's points over the worlds
(double dummy from the card on, Laws 48-49; :func:`pimc_weighted_over`), ties to the lowest
card index. With no evidence and W worlds drawn, the worlds and the card are
``pimc-inference``'s own (the same words). More worlds are a better player (measured in
``results/card-play/``); the practice table and ``cards`` use
:data:`~ecarte_sim.engine.ecarte.settings.READING_WORLDS`.

* :func:`king_evidence` — the king's evidence at a card: the cards he may hold, the card
  he must hold, the weight of a world holding the king.
* :func:`reading_worlds` — the worlds and their weights at a card.
* :func:`pimc_weighted_over` — weighted PIMC over given worlds.
* :func:`pimc_king_card` — the whole deal's chooser.
* :func:`read_decide` — one card of the play from a position, as the whole deal's
  ``pimc-king`` player chooses it (:func:`~.single.decide`'s twin), with every legal
  card's outcome in every world for the table's values.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import N_CARDS, bit_index, lowest_bit, popcount32
from ecarte_sim.engine.ecarte.laws.position import step
from ecarte_sim.engine.ecarte.laws.tricks import ELDER
from ecarte_sim.engine.ecarte.play.inferred_worlds import (INFER_WORK_ROWS, MAX_PARTICLES,
                                                           PARTICLE_COLUMNS, WORK_COUNTS,
                                                           WORK_ORDER, binomial, fits_from,
                                                           one_decision, draw_inferred_worlds,
                                                           opponent_counts)
from ecarte_sim.engine.ecarte.play.players import (outcome_after, pimc_moves, pool_of, reveal,
                                                   run_top, world_shape)
from ecarte_sim.engine.ecarte.play.single import evaluate_cards
from ecarte_sim.engine.ecarte.decisions.policies import score_slot
from ecarte_sim.engine.ecarte.records import PAYOFF, REC
from ecarte_sim.engine.ecarte.search.moves import legal_moves
from ecarte_sim.engine.ecarte.settings import CFG

R = REC.at
C = CFG.at
Y = PAYOFF.at
#: The weight of a world in which nothing is concealed: the concealing policy's unit
#: (thousandths).
KING_SCALE = 1000
_FULL = np.uint32(0xFFFFFFFF)


@njit(cache=True)
def king_card(trump):
    """The king of trumps (Laws 22-24)."""
    return np.int64(8 * trump + 7)


@njit(cache=True)
def king_evidence(rec, mover, trump, possible, shown, concealing):
    """What the opponent's announcement of the king of trumps (Laws 23-24) tells
    ``mover`` now: (the cards he may hold, the card he must hold (a mask, 0 or the
    king), the weight of a world holding the king out of :data:`KING_SCALE`).

    No evidence while the king is not among the cards he may hold (turned up, the
    mover's, played, or ruled out by his play) or before his first card (``shown`` is
    empty: he may still announce it). Then, from ``rec``'s marks (``KING_ELDER``,
    ``KING_DEALER``): announced, he holds it; not announced, a world holding it is one in
    which he concealed it, kept at ``concealing`` thousandths (0: the king leaves the
    cards he may hold)."""
    king = np.uint32(1) << np.uint32(king_card(trump))
    possible = np.uint32(possible)
    if (possible & king) == 0 or np.uint32(shown) == 0:
        return possible, np.uint32(0), np.int64(KING_SCALE)
    said = rec[R.KING_ELDER] if mover != ELDER else rec[R.KING_DEALER]
    if said != 0:
        return np.uint32(possible & ~king), king, np.int64(KING_SCALE)
    if concealing <= 0:
        return np.uint32(possible & ~king), np.uint32(0), np.int64(KING_SCALE)
    return possible, np.uint32(0), np.int64(min(concealing, KING_SCALE))


@njit(cache=True)
def _enumerate(mover, cfg, script, rec, possible, shown, must, count, kweight, king, hands,
               weights, work, pool):
    """Every hand of ``count`` cards of ``possible`` (each with ``must``) into ``hands``,
    weighted by whether the opponent's decision model makes his decisions on it (his hand
    at the play: it, ``must`` and ``shown``) and by ``kweight`` when it holds ``king``.
    Returns (the number of hands, whether none fitted: then each weighs the same)."""
    opponent = 1 - mover
    counts = work[WORK_COUNTS]
    counts[:] = 0
    opponent_counts(rec, opponent, counts)
    order = work[WORK_ORDER]
    turn_up = rec[R.TURN_UP]
    slot = score_slot(cfg[C.ELDER_SCORE], cfg[C.DEALER_SCORE])
    wanted = one_decision(opponent, cfg, rec, 0)
    m = pool_of(possible, pool)
    idx = np.empty(6, dtype=np.int64)
    for j in range(count):
        idx[j] = j
    n = 0
    total = np.int64(0)
    while True:
        hand = np.uint32(must)
        for j in range(count):
            hand |= np.uint32(1) << np.uint32(pool[idx[j]])
        hands[n] = hand
        w = np.int64(0)
        if fits_from(hand | np.uint32(shown), order, opponent, cfg, script, rec, counts, 0,
                      wanted, turn_up, slot):
            w = kweight if (hand & king) != 0 else np.int64(KING_SCALE)
        weights[n] = w
        total += w
        n += 1
        # the next combination of ``count`` of ``m`` (lexicographic)
        j = count - 1
        while j >= 0 and idx[j] == m - count + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for q in range(j + 1, count):
            idx[q] = idx[q - 1] + 1
    if total == 0:
        for k in range(n):
            weights[k] = kweight if (np.uint32(hands[k]) & king) != 0 else KING_SCALE
        return n, True
    return n, False


@njit(cache=True)
def reading_worlds(seed, index, decision, mover, cfg, script, rec, unseen, possible, shown,
                   count, hands, weights, worlds, particles, state, work, pool, draws,
                   payoff, concealing):
    """The ``pimc-king`` worlds of ``mover`` at the ``decision``-th card of deal ``index``
    (module docstring): fills ``hands[:n]`` (the opponent's ``count`` cards) and
    ``weights[:n]`` (int64) and returns (``n``, whether they are every hand he may hold). The arguments are
    :func:`~.inferred_worlds.draw_inferred_worlds`' (``particles``, ``state``, ``work``
    carried from card to card of the deal as there), and ``concealing``, the opponent's
    concealing policy (:func:`king_evidence`). ``worlds`` = 0 grows the particles as a
    choice with W worlds would, draws nothing and returns (0, False)."""
    trump = rec[R.TURN_UP] >> 3
    king = np.uint32(1) << np.uint32(king_card(trump))
    possible2, must, kweight = king_evidence(rec, mover, trump, possible, shown, concealing)
    count2 = count - popcount32(must)
    if popcount32(possible2) < count2:
        # the evidence contradicts the play (he concealed a king his model announces):
        # the worlds do without it
        possible2, must, kweight = np.uint32(possible), np.uint32(0), np.int64(KING_SCALE)
        count2 = count
    possible = possible2
    shown2 = np.uint32(np.uint32(shown) | must)
    counts = work[WORK_COUNTS]
    counts[:] = 0
    n_drawn = opponent_counts(rec, 1 - mover, counts)
    if n_drawn == 0:
        m = popcount32(possible)
        if worlds == 0:
            return 0, False
        if binomial(m, count2) <= worlds:
            n, fell_back = _enumerate(mover, cfg, script, rec, possible, shown2, must, count2,
                                      kweight, king, hands, weights, work, pool)
            payoff[Y.INFER_WORLDS] += n
            if fell_back:
                payoff[Y.INFER_FALLBACKS] += n
            return n, True
    draw_inferred_worlds(seed, index, decision, mover, cfg, script, rec, unseen, possible,
                         shown2, count2, hands, worlds, particles, state, work, pool, draws,
                         payoff)
    for w in range(worlds):
        h = np.uint32(hands[w]) | must
        hands[w] = h
        weights[w] = kweight if (must == 0 and (h & king) != 0) else KING_SCALE
    return worlds, False


@njit(cache=True)
def pimc_weighted_over(mover, own, legal, leader, tricks, led, trump, forced_trump, hands,
                       weights, worlds, payoff):
    """:func:`~.players.pimc_over` with each world weighted: the move of ``legal`` with the
    best total of ``weights[w]`` times the deal's points in world ``w`` over
    ``hands[:worlds]`` (ties to the lowest card index). A world of a shape already solved
    is not solved again, as there."""
    n_moves = popcount32(legal)
    cards = np.empty(5, dtype=np.int64)
    totals = np.zeros(5, dtype=np.int64)
    rest = np.uint32(legal)
    for j in range(n_moves):
        bit = lowest_bit(rest)
        rest ^= bit
        cards[j] = bit_index(bit)
    payoff[Y.PIMC_DECISIONS] += 1
    outcome_of_run = np.empty(N_CARDS, dtype=np.int64)
    fixed = own | (np.uint32(1) << np.uint32(led)) if led >= 0 else own
    drawn = np.empty(worlds, dtype=np.uint32)
    outcomes = np.empty((worlds, 5), dtype=np.int64)
    n_drawn = 0
    for w in range(worlds):
        if weights[w] == 0:
            continue
        other = np.uint32(hands[w])
        shape = world_shape(other, fixed)
        k = 0
        while k < n_drawn and drawn[k] != shape:
            k += 1
        if k == n_drawn:
            drawn[k] = shape
            n_drawn += 1
            e = own if mover == ELDER else other
            d = other if mover == ELDER else own
            solved = np.uint32(0)
            for j in range(n_moves):
                run = run_top(cards[j], own, other, led)
                if solved >> np.uint32(run) & np.uint32(1):
                    v = outcome_of_run[run]
                else:
                    v = outcome_after(e, d, leader, tricks, led, trump, forced_trump, cards[j])
                    payoff[Y.PIMC_SOLVES] += 1
                    outcome_of_run[run] = v
                    solved |= np.uint32(1) << np.uint32(run)
                outcomes[k, j] = v
        for j in range(n_moves):
            totals[j] += weights[w] * payoff[Y.POINTS + outcomes[k, j]]
    best = 0
    for j in range(1, n_moves):
        if (totals[j] > totals[best]) if mover == ELDER else (totals[j] < totals[best]):
            best = j
    return cards[best]


@njit(cache=True)
def pimc_king_card(mover, elder, dealer, leader, tricks, led, trump, forced_trump, possible,
                   worlds, seed, index, decision, payoff, pool, draws, cfg, script, rec,
                   unseen, shown, particles, state, work, concealing):
    """The whole deal's ``pimc-king`` choice (the arguments of
    :func:`~.inferred_worlds.pimc_inferred_card`, and the opponent's ``concealing``
    policy: :func:`king_evidence`)."""
    own = np.uint32(elder if mover == ELDER else dealer)
    legal = pimc_moves(own, led, trump, forced_trump, possible)
    if legal & (legal - np.uint32(1)) == 0:
        return bit_index(legal)
    count = popcount32(np.uint32(dealer if mover == ELDER else elder))
    hands = np.empty(max(worlds, 1), dtype=np.uint32)
    weights = np.empty(max(worlds, 1), dtype=np.int64)
    n, _ = reading_worlds(seed, index, decision, mover, cfg, script, rec, unseen, possible,
                          shown, count, hands, weights, worlds, particles, state, work, pool,
                          draws, payoff, concealing)
    return pimc_weighted_over(mover, own, legal, leader, tricks, led, trump, forced_trump,
                              hands, weights, n, payoff)


@njit(cache=True)
def read_decide(mover, own_start, unseen, plays, n_played, trump, forced_trump, worlds, seed,
                index, cfg, script, rec, payoff, hands, weights, evaluate, cards, outcomes,
                concealing):
    """The ``pimc-king`` card of ``mover`` at card ``n_played`` of deal ``index``, from his
    knowledge only: :func:`~.single.decide`'s arguments and results, and ``weights``
    (int64, length >= ``worlds``: each world's weight, :func:`reading_worlds`) and the
    opponent's ``concealing`` policy; returns (card, legal mask, distinct-move mask,
    leader, elder tricks, led card, the opponent's hand size, the cards he may hold, the
    number of worlds, whether they are every hand he may hold). The particles grow at each of his earlier choices as in the whole
    deal, so the card is the whole deal's; with ``evaluate``, ``outcomes[w, k]`` is the
    ``k``-th legal card's outcome in world ``w`` (of the number returned)."""
    own = np.uint32(own_start)
    played = np.uint32(0)
    shown = np.uint32(0)
    not_held = np.uint32(0)
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
                reading_worlds(seed, index, j, mover, cfg, script, rec, unseen, possible,
                               shown, 5 - opp_played, hands, weights, 0, particles, state,
                               work, pool, draws, payoff, concealing)
            own = np.uint32(own ^ bit)
        else:
            shown = np.uint32(shown | bit)
            opp_played += 1
        played = np.uint32(played | bit)
        if led >= 0 and who != mover:
            not_held = reveal(not_held, led, card, trump, forced_trump)
        _, leader, tricks, led = step(leader, tricks, led, card, trump)
    count = 5 - opp_played
    possible = unseen & ~(played | own) & ~not_held & _FULL
    legal_all = legal_moves(own, led, trump, forced_trump)
    legal = pimc_moves(own, led, trump, forced_trump, possible)
    choice = legal & (legal - np.uint32(1)) != 0
    n = 0
    every = False
    if choice or evaluate:
        n, every = reading_worlds(seed, index, n_played, mover, cfg, script, rec, unseen,
                                  possible, shown, count, hands, weights, worlds, particles,
                                  state, work, pool, draws, payoff, concealing)
    if choice:
        card = pimc_weighted_over(mover, own, legal, leader, tricks, led, trump, forced_trump,
                                  hands, weights, n, payoff)
    else:
        card = bit_index(legal)
    if evaluate:
        evaluate_cards(mover, own, legal_all, leader, tricks, led, trump, forced_trump, hands,
                       n, cards, outcomes)
    return (np.int64(card), np.int64(legal_all), np.int64(legal), leader, tricks, led,
            np.int64(count), np.int64(possible), np.int64(n), every)
