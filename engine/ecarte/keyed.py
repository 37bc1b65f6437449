"""A play model as a *strategy*: its random words keyed by the chooser's own information.

The whole deal's ``pimc`` and ``pimc-inference`` players read the random words of deal
``index`` (:mod:`ecarte_sim.engine.rng`): the same position reached in two deals is played
with different worlds, and the words of a deal are fixed by the deal's number, which the
opponent's cards also come from. A best response to a player (issue 35: what an adversary
gains by exploiting his card play) needs the player to be a function of what he knows.
:func:`keyed_card` is that player: the same models, the same worlds drawn the same way,
but the deal ``index`` of their words is :func:`info_key`, a hash of the chooser's own
information — his role, his hand at the first card of the play, the cards he never saw
(so the turn-up, his discards and draws), how the proposals ended (Laws 25–26, 49), how
many cards each side threw in each exchange (Law 27), the cards played so far in order
(Law 43) — and a seed. Nothing the adversary alone holds enters the key, so two deals
that look the same to the chooser get the same card.

* :func:`card_for` — the card of a play model (``HEURISTIC``, ``PIMC``,
  ``PIMC_INFERENCE``) from the mover's knowledge, with the words of a given ``index``:
  with the deal's own index it is the whole deal's card
  (:func:`~ecarte_sim.engine.ecarte.single.decide` for ``pimc-inference``; plain PIMC
  reads world ``w`` of card ``j`` as :func:`~.players.pimc_card` does).
* :func:`info_key` — the index a keyed chooser reads: SplitMix64's output function folded
  over the words of his information (seed first), its top 44 bits (``rng.MAX_DEAL_INDEX``).
* :func:`keyed_card` — ``card_for`` at ``info_key``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import bit_index, popcount32
from ecarte_sim.engine.ecarte.moves import legal_moves
from ecarte_sim.engine.ecarte.players import heuristic_card, pimc_card, pimc_moves, reveal
from ecarte_sim.engine.ecarte.records import REC
from ecarte_sim.engine.ecarte.settings import PlayModel
from ecarte_sim.engine.ecarte.single import decide
from ecarte_sim.engine.ecarte.tricks import ELDER, leader_wins
from ecarte_sim.engine.rng import GAMMA, WORDS_PER_DEAL_BITS, mix64

R = REC.at
_FULL = np.uint32(0xFFFFFFFF)
#: A constant mixed into the first word so that a key never equals a plain deal's words.
_KEY_SALT = np.uint64(0x6578706C6F697421)  # "exploit!"


@njit(cache=True)
def _fold(h, word):
    return mix64(np.uint64(h) + (np.uint64(word) + np.uint64(1)) * GAMMA)


@njit(cache=True)
def info_key(seed, mover, own_start, unseen, rec, plays, n_played):
    """The deal index whose words a keyed chooser reads: a hash of (``seed``, his role
    ``mover``, ``own_start``, ``unseen``, the turn-up, how the proposals ended, each
    exchange's four card counts, ``plays[:n_played]``), in ``[0, 2**44)``."""
    h = mix64(np.uint64(seed) ^ _KEY_SALT)
    h = _fold(h, mover)
    h = _fold(h, np.uint32(own_start))
    h = _fold(h, np.uint32(unseen))
    h = _fold(h, rec[R.TURN_UP])
    h = _fold(h, rec[R.HOW_ENDED])
    h = _fold(h, rec[R.FIRST])
    n_ex = rec[R.EXCHANGES]
    h = _fold(h, n_ex)
    for r in range(n_ex):
        for q in range(4):
            h = _fold(h, popcount32(np.uint32(rec[R.EXCHANGE_CARDS + 4 * r + q])))
    h = _fold(h, n_played)
    for j in range(n_played):
        h = _fold(h, plays[j])
    return np.int64(h >> np.uint64(WORDS_PER_DEAL_BITS))


@njit(cache=True)
def position_of(mover, own_start, unseen, plays, n_played, trump, forced_trump):
    """The mover's view before card ``n_played``: (his hand now, leader, elder's tricks,
    card led or -1, the cards the adversary may hold, how many he holds)."""
    own = np.uint32(own_start)
    played = np.uint32(0)
    not_held = np.uint32(0)
    leader = np.int64(ELDER)
    tricks = np.int64(0)
    led = np.int64(-1)
    opp_played = 0
    for j in range(n_played):
        half = j % 2
        who = leader if half == 0 else 1 - leader
        card = plays[j]
        bit = np.uint32(1) << np.uint32(card)
        if who == mover:
            own = np.uint32(own ^ bit)
        else:
            opp_played += 1
        played = np.uint32(played | bit)
        if half == 0:
            led = np.int64(card)
        else:
            if who != mover:
                not_held = reveal(not_held, led, card, trump, forced_trump)
            if not leader_wins(led, card, trump):
                leader = np.int64(who)
            if leader == ELDER:
                tricks += 1
            led = np.int64(-1)
    possible = unseen & ~(played | own) & ~not_held & _FULL
    return own, leader, tricks, led, np.uint32(possible), np.int64(5 - opp_played)


@njit(cache=True)
def card_for(model, mover, own_start, unseen, plays, n_played, trump, forced_trump, worlds,
             seed, index, cfg, script, rec, payoff, hands, pool, draws):
    """The card ``model`` (a ``PlayModel``: HEURISTIC, PIMC or PIMC_INFERENCE) plays for
    ``mover`` at card ``n_played``, from his knowledge only, reading the words of deal
    ``index`` of ``seed`` (arguments as :func:`~.single.decide`; ``pool``/``draws``:
    int64 scratch of 32; ``hands``: uint32 of ``worlds``)."""
    if model == PlayModel.PIMC_INFERENCE:
        cards = np.zeros(5, dtype=np.int64)
        outcomes = np.zeros((1, 5), dtype=np.int64)
        res = decide(mover, own_start, unseen, plays, n_played, trump, forced_trump, worlds,
                     seed, index, cfg, script, rec, payoff, hands, False, cards, outcomes)
        return res[0]
    own, leader, tricks, led, possible, count = position_of(mover, own_start, unseen, plays,
                                                            n_played, trump, forced_trump)
    if model == PlayModel.HEURISTIC:
        return heuristic_card(own, led, trump, forced_trump, possible)
    legal = pimc_moves(own, led, trump, forced_trump, possible)
    if legal & (legal - np.uint32(1)) == 0:
        return np.int64(bit_index(legal))
    other = np.uint32((1 << count) - 1)  # pimc_card reads only its size
    e = own if mover == ELDER else other
    d = other if mover == ELDER else own
    return np.int64(pimc_card(mover, e, d, leader, tricks, led, trump, forced_trump, possible,
                              worlds, seed, index, n_played, payoff, pool, draws))


@njit(cache=True)
def keyed_card(model, mover, own_start, unseen, plays, n_played, trump, forced_trump, worlds,
               seed, cfg, script, rec, payoff, hands, pool, draws):
    """:func:`card_for` at the index :func:`info_key` gives the mover's information."""
    index = info_key(seed, mover, own_start, unseen, rec, plays, n_played)
    return card_for(model, mover, own_start, unseen, plays, n_played, trump, forced_trump,
                    worlds, seed, index, cfg, script, rec, payoff, hands, pool, draws)


@njit(cache=True)
def legal_now(mover, own_start, plays, n_played, trump, forced_trump):
    """The mover's legal cards before card ``n_played`` (Law 43), as a mask."""
    own, leader, tricks, led, possible, count = position_of(mover, own_start, _FULL, plays,
                                                            n_played, trump, forced_trump)
    return legal_moves(own, led, trump, forced_trump)


@njit(cache=True)
def keyed_cards(model, mover, starts, unseen_of_start, plays, n_played, trump, forced_trump,
                worlds, seed, cfg, script, rec, payoff, out):
    """:func:`keyed_card` for many hands of the same mover after the same public play:
    ``out[i]`` the card of the player whose hand at the first card was ``starts[i]``
    (his cards never seen: ``unseen_of_start & ~starts[i]``); a single legal card is
    played without asking the model. One call for a whole set of hands (the best
    response asks the opponent's model for every hand that reaches a position). Returns
    how many hands had a choice (the model asked)."""
    asked = 0
    hands = np.zeros(max(worlds, 1), dtype=np.uint32)
    pool = np.zeros(32, dtype=np.int64)
    draws = np.zeros(32, dtype=np.int64)
    for i in range(starts.shape[0]):
        own = np.uint32(starts[i])
        legal = legal_now(mover, own, plays, n_played, trump, forced_trump)
        if legal & (legal - np.uint32(1)) == 0:
            out[i] = bit_index(legal)
            continue
        unseen = np.uint32(unseen_of_start & ~own & _FULL)
        asked += 1
        out[i] = keyed_card(model, mover, own, unseen, plays, n_played, trump, forced_trump,
                            worlds, seed, cfg, script, rec, payoff, hands, pool, draws)
    return asked
