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
  (:func:`~ecarte_sim.engine.ecarte.play.single.decide` for ``pimc-inference``; plain PIMC
  reads world ``w`` of card ``j`` as :func:`~.players.pimc_card` does).
* :func:`info_key` — the index a keyed chooser reads: SplitMix64's output function folded
  over the words of his information (seed first), its top 44 bits (``rng.MAX_DEAL_INDEX``).
* :func:`keyed_card` — ``card_for`` at ``info_key``; :func:`keyed_cards` and
  :func:`keyed_cards_thrown` — for many hands after the same public play (with each
  hand's own discards: the cards he threw are cards he saw); :func:`hand_to_play` — one
  hand of such a set (its only legal card, or the cards its player never saw), which
  ``alphamu.keyed_alphamu_cards`` reads too.
* :func:`exchange_histories` — the opponent's histories after the exchanges (Laws
  27–38) as the best response weighs them: his hand as dealt uniform among the cards
  the responder never saw, his draws uniform among the rest, kept when his decision
  model proposes or accepts in each round, throws as many cards as he did, and at the
  end plays, proposes or refuses as he did (rejection: every kept history equally
  weighted).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import bit_index, popcount32
from ecarte_sim.engine.ecarte.decisions.policies import (dealer_accepts, elder_proposes, score_slot,
                                                         thrown_cards)
from ecarte_sim.engine.ecarte.laws.deal import TURN_UP_POSITION
from ecarte_sim.engine.ecarte.laws.position import step
from ecarte_sim.engine.ecarte.laws.tricks import ELDER
from ecarte_sim.engine.ecarte.play.players import heuristic_card, pimc_card, pimc_moves, reveal
from ecarte_sim.engine.ecarte.play.reading import read_decide
from ecarte_sim.engine.ecarte.play.single import decide
from ecarte_sim.engine.ecarte.records import REC
from ecarte_sim.engine.ecarte.search.moves import legal_moves
from ecarte_sim.engine.ecarte.settings import CFG, PlayModel
from ecarte_sim.engine.rng import GAMMA, WORDS_PER_DEAL_BITS, mix64, splitmix64_at

R = REC.at
C = CFG.at
_FULL = np.uint32(0xFFFFFFFF)
#: A constant mixed into the first word so that a key never equals a plain deal's words.
_KEY_SALT = np.uint64(0x6578706C6F697421)  # "exploit!"
#: The same for the stream of :func:`exchange_histories` ("historie").
_HISTORY_SALT = np.uint64(0x686973746F726965)
#: Stock cards after the deal (Law 22: five each and the turn-up).
STOCK = 32 - TURN_UP_POSITION - 1


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
        card = plays[j]
        if led >= 0 and leader == mover:        # the adversary's reply (Law 43)
            not_held = reveal(not_held, led, card, trump, forced_trump)
        who, leader, tricks, led = step(leader, tricks, led, card, trump)
        bit = np.uint32(1) << np.uint32(card)
        if who == mover:
            own = np.uint32(own ^ bit)
        else:
            opp_played += 1
        played = np.uint32(played | bit)
    possible = unseen & ~(played | own) & ~not_held & _FULL
    return own, leader, tricks, led, np.uint32(possible), np.int64(5 - opp_played)


@njit(cache=True)
def card_for(model, mover, own_start, unseen, plays, n_played, trump, forced_trump, worlds,
             seed, index, cfg, script, rec, payoff, hands, pool, draws):
    """The card ``model`` (a ``PlayModel``: HEURISTIC, PIMC, PIMC_INFERENCE or PIMC_KING,
    whose worlds read the king's announcements in ``rec``) plays for
    ``mover`` at card ``n_played``, from his knowledge only, reading the words of deal
    ``index`` of ``seed`` (arguments as :func:`~.single.decide`; ``pool``/``draws``:
    int64 scratch of 32; ``hands``: uint32 of ``worlds``)."""
    if model == PlayModel.PIMC_INFERENCE:
        cards = np.zeros(5, dtype=np.int64)
        outcomes = np.zeros((1, 5), dtype=np.int64)
        res = decide(mover, own_start, unseen, plays, n_played, trump, forced_trump, worlds,
                     seed, index, cfg, script, rec, payoff, hands, False, cards, outcomes)
        return res[0]
    if model == PlayModel.PIMC_KING:
        # the king's announcements are ``rec``'s marks; the opponent always announces
        cards = np.zeros(5, dtype=np.int64)
        outcomes = np.zeros((1, 5), dtype=np.int64)
        weights = np.empty(hands.shape[0], dtype=np.int64)
        res = read_decide(mover, own_start, unseen, plays, n_played, trump, forced_trump,
                          worlds, seed, index, cfg, script, rec, payoff, hands, weights, False,
                          cards, outcomes, 0)
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
def hand_to_play(mover, own, thrown, unseen_of_start, plays, n_played, trump, forced_trump):
    """One hand of a set the keyed players answer for at once (:func:`keyed_cards_thrown`,
    ``alphamu.keyed_alphamu_cards``): (its only legal card, or -1 when it has a choice;
    the cards its player never saw: ``unseen_of_start`` less his hand at the first card
    ``own`` and the cards he ``thrown`` in the exchange, Law 27)."""
    legal = legal_now(mover, own, plays, n_played, trump, forced_trump)
    if legal & (legal - np.uint32(1)) == 0:
        return np.int64(bit_index(legal)), np.uint32(0)
    return np.int64(-1), np.uint32(unseen_of_start & ~(own | np.uint32(thrown)) & _FULL)


@njit(cache=True)
def keyed_cards(model, mover, starts, unseen_of_start, plays, n_played, trump, forced_trump,
                worlds, seed, cfg, script, rec, payoff, out):
    """:func:`keyed_card` for many hands of the same mover after the same public play:
    ``out[i]`` the card of the player whose hand at the first card was ``starts[i]``
    (his cards never seen: ``unseen_of_start & ~starts[i]``); a single legal card is
    played without asking the model. One call for a whole set of hands (the best
    response asks the opponent's model for every hand that reaches a position). Returns
    how many hands had a choice (the model asked)."""
    thrown = np.zeros(starts.shape[0], dtype=np.uint32)
    return keyed_cards_thrown(model, mover, starts, thrown, unseen_of_start, plays, n_played,
                              trump, forced_trump, worlds, seed, cfg, script, rec, payoff, out)


@njit(cache=True)
def keyed_cards_thrown(model, mover, starts, thrown, unseen_of_start, plays, n_played, trump,
                       forced_trump, worlds, seed, cfg, script, rec, payoff, out):
    """:func:`keyed_cards` when each hand comes with the cards its player threw in the
    exchange (``thrown[i]``, a mask; Law 27): he saw them, so his cards never seen are
    ``unseen_of_start & ~(starts[i] | thrown[i])`` — with ``rec``'s exchange counts, the
    information :func:`info_key` reads in the whole deal."""
    asked = 0
    hands = np.zeros(max(worlds, 1), dtype=np.uint32)
    pool = np.zeros(32, dtype=np.int64)
    draws = np.zeros(32, dtype=np.int64)
    for i in range(starts.shape[0]):
        own = np.uint32(starts[i])
        only, unseen = hand_to_play(mover, own, thrown[i], unseen_of_start, plays, n_played,
                                    trump, forced_trump)
        if only >= 0:
            out[i] = only
            continue
        asked += 1
        out[i] = keyed_card(model, mover, own, unseen, plays, n_played, trump, forced_trump,
                            worlds, seed, cfg, script, rec, payoff, hands, pool, draws)
    return asked


@njit(cache=True)
def _uniform_below(key, pos, bound):
    """(a uniform integer in ``[0, bound)``, the next word position): SplitMix64 words of
    ``key`` from ``pos``, a word in the biased top remainder rejected."""
    b = np.uint64(bound)
    rem = (np.uint64(0) - b) % b             # 2**64 mod bound
    limit = np.uint64(0) - rem               # the words below it are unbiased
    while True:
        w = splitmix64_at(key, pos)
        pos += np.uint64(1)
        if rem == np.uint64(0) or w < limit:
            return np.int64(w % b), pos


@njit(cache=True)
def exchange_histories(seed, opponent, cfg, script, turn_up, pool, elder_counts,
                       dealer_counts, final_refused, out, max_trials, must=0, never=0):
    """The opponent's histories after the exchanges, as dealt, by rejection: ``out[i]``
    (uint64) his hand at the play in the low 32 bits, every card he threw in the high 32.

    ``elder_counts[r]``/``dealer_counts[r]`` (int64): the cards each side threw (and
    drew) in exchange ``r`` (Law 27: the counts are public). Each trial draws, from the
    stream of ``seed`` (salted), a uniform ordered prefix of ``pool`` (int64 cards: those
    the responder never saw; Fisher-Yates, unbiased): the first five are the opponent's
    hand as dealt, the next ones his draws, round by round (given the responder's view
    the deck's order is uniform, so his draws are uniform among the unseen cards he has
    not held). The history is kept if his decision model (``cfg``'s ``elder_policy``/
    ``dealer_policy``, the ones the search's ``says`` reads) proposes (elder) or accepts
    (dealer) in every exchange's round on his hand then (Laws 25–26), his discard there
    (:func:`~..decisions.policies.thrown_cards`: Laws 27, 38; the elder throws first, the dealer
    with the stock left after the elder's draw) is as many cards as he threw, and in the
    last round, as an elder, he plays (``final_refused`` 0) or proposes (1) on his hand,
    as a dealer refuses that proposal (1) or has nothing to decide (0). Every kept
    history has the same probability under the laws and his model, so the kept ones are
    an equally weighted sample of the histories that agree with what was said. Returns
    (histories kept, trials); stops after ``max_trials`` trials. ``must``, ``never``
    (masks): keep only the histories whose hand at the play holds every card of ``must``
    and none of ``never`` (what the play has shown: the cards he played, the cards Law 43
    proves he has not), the same trials otherwise."""
    trump = turn_up >> 3
    slot = score_slot(cfg[C.ELDER_SCORE], cfg[C.DEALER_SCORE])
    cards = pool.copy()
    m = cards.shape[0]
    key = mix64(np.uint64(seed) ^ _HISTORY_SALT)
    pos = np.uint64(0)
    rounds = elder_counts.shape[0]
    mine = elder_counts if opponent == ELDER else dealer_counts
    need = 5
    for r in range(rounds):
        need += mine[r]
    n = out.shape[0]
    got = 0
    trials = 0
    while got < n and trials < max_trials:
        trials += 1
        for i in range(need):
            j, pos = _uniform_below(key, pos, m - i)
            j += i
            t = cards[i]
            cards[i] = cards[j]
            cards[j] = t
        hand = np.uint32(0)
        for i in range(5):
            hand |= np.uint32(1) << np.uint32(cards[i])
        thrown_all = np.uint32(0)
        nxt = 5
        left = STOCK
        ok = True
        for r in range(rounds + 1):
            if opponent == ELDER:
                says = elder_proposes(cfg[C.ELDER_POLICY], cfg[C.THRESHOLD], hand, trump, r,
                                      script, turn_up, slot)
                want = r < rounds or final_refused == 1
            else:
                says = dealer_accepts(cfg[C.DEALER_POLICY], hand, trump, r, script, turn_up,
                                      slot)
                want = r < rounds
                if r == rounds and final_refused == 0:
                    says = want      # the elder played: the dealer decided nothing
            if says != want:
                ok = False
                break
            if r == rounds:
                break
            room = left if opponent == ELDER else left - elder_counts[r]
            thrown = np.uint32(thrown_cards(cfg, script, opponent, hand, trump, r, room,
                                            turn_up, slot))
            if popcount32(thrown) != mine[r]:
                ok = False
                break
            hand = np.uint32(hand & ~thrown)
            thrown_all |= thrown
            for i in range(nxt, nxt + mine[r]):
                hand |= np.uint32(1) << np.uint32(cards[i])
            nxt += mine[r]
            left -= elder_counts[r] + dealer_counts[r]
        if not ok or (hand & np.uint32(must)) != np.uint32(must) \
                or (hand & np.uint32(never)) != 0:
            continue
        out[got] = np.uint64(hand) | (np.uint64(thrown_all) << np.uint64(32))
        got += 1
    return got, trials
