"""PIMC worlds drawn from the posterior: a player who reads the proposals.

Plain PIMC (:func:`ecarte_sim.engine.ecarte.play.players.pimc_card`) draws the opponent's hand
uniformly among the cards the mover has not seen and the play has not proved absent.
The ``pimc-inference`` play model draws it instead from the posterior given everything
the mover observed before the play as well: the opponent's play-or-propose and
accept-or-refuse decision in every round, how many cards he discarded each time, and
the cards he has played — under an **opponent model**, the opponent's decision policy
as a function of his hand (``model_of_elder`` / ``model_of_dealer`` in ``cfg``: a
treatise policy, or the policy he actually plays, tables included). His discards are
modelled by the discard policy he actually plays.

Why rejection from uniform histories is exact
    Given what the mover saw, the deck's order is uniform over the orders that put his
    own cards where he saw them, so the opponent's dealt hand is a uniform 5 of the
    ``unseen`` cards (neither the mover's, dealt or drawn, nor the turn-up) and his draws
    of each round are uniform among the unseen cards he has not yet held. Every such
    history has the same probability, so the posterior is uniform over the histories
    the model would have produced: draw a history, replay the opponent's decisions and
    discards on it with the model (:func:`opponent_fits`, the rounds of
    ``rules_whole_deal.md`` section 1 from his side), keep it if every decision, every
    discard count and the play so far agree.

Two proposals
    *Unchanged hand* (the opponent drew no card: he played, refused, or was a dealer who
    took none): his hand at the play is his dealt hand, so the proposal is plain PIMC's
    world (uniform among the hands the play allows) plus the cards he has played, and it
    is kept if the model makes his decisions on it — exact rejection. Attempt 0 reads
    exactly the random words of plain PIMC's world: with a model that ignores the hand
    (``always-accept``, ``always-propose``) and an opponent who never draws, the
    inferring player is plain PIMC, deal for deal.
    *Exchanged hand*: the history up to his last draw (his dealt hand, his earlier draws)
    is drawn — the dealt hand uniformly among those that throw as many cards in the
    first exchange as he did (:func:`first_throw`), which keeps the same histories
    several times as often, each later draw among those that make the next exchange
    throw as many as he did, the particle weighted by the numbers of such draws
    (:func:`_later_draws`: importance sampling) — and kept if the replay agrees up to there
    (:func:`history_particles`, once per deal: ``PARTICLES`` of them, more while fewer
    than ``MIN_PARTICLES`` can end in a hand the play allows). At each card, a particle
    is drawn in proportion to the number of last draws that make its final hand hold the
    cards he has played and only cards he may hold (:func:`particle_weights`), the last
    draw is drawn uniformly among those, and the rounds after it are replayed on the
    final hand (kept if they agree). Given the particles this is exact; the particles
    being a finite sample of that part of the posterior, reusing them from card to card
    with weights is sampling-importance-resampling, exact only as their number grows
    (the chi-square tests compare it with the reference's enumeration). Drawing the last
    draw afresh for every world keeps the worlds many and different: reusing whole
    histories, an earlier version, left a few particles for many worlds late in the play
    and lost to plain PIMC (measured: -0.05 marks a deal when the dealer had drawn).

Fallback (counted, never silent)
    A world gets at most ``INFER_TRIES`` proposals. If none is kept (or no particle can
    end in a hand the play allows), the world is plain PIMC's (uniform) world, and
    ``payoff``'s ``infer_fallbacks`` counts it. This happens when the evidence is
    impossible or very unlikely under the model (the opponent did what the model never
    or seldom does). ``infer_worlds`` and ``infer_tries`` count the worlds drawn and the
    proposals made; runs report all three.

Randomness
    World ``w`` of the ``j``-th card played owns one word of the deal's sub-stream,
    ``INFER_BASE + j * MAX_WORLDS + w`` (after plain PIMC's words); it keys a SplitMix64
    stream whose words ``a << 16 ...`` feed attempt ``a`` (attempt 0 of an unchanged hand
    reads plain PIMC's own words). Worlds are a pure function of (seed, deal index).

Speed: no reference counting, no allocation, almost no division in the hot loops
    The functions called once per proposal (and the decision policies they call) are
    compiled with ``_nrt=False``: they allocate nothing, and numba would otherwise count
    a reference to every array argument on entry and exit of every call, an atomic
    operation each (measured: a fifth of the inferring player's time). Their callers
    allocate the scratch (``draw_inferred_worlds``' ``work``, once a deal); a function
    marked so that allocates fails to compile, loudly. Bounded draws compute their
    rejection threshold only for the rare word that needs it
    (:func:`~ecarte_sim.engine.rng.draw_descending_lazy`: the same draws). The same
    worlds come cheaper still: where the replay is one decision (an unchanged hand with
    no exchange; the round after an exchanged hand's last draw) the model is asked it
    directly (:func:`fits_from`), and where he decides nothing the first proposal
    stands without a replay; a particle is found by weight from a guide table
    (:func:`_guide`) instead of a binary search.

What is not used (a documented limit): the opponent's announcement of the king of trumps
(neither PIMC player uses it), and his play: a card he played is evidence of what he
holds, but not of what he would have played instead.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import N_CARDS, bit_index, popcount32, suit_mask
from ecarte_sim.engine.ecarte.decisions.policies import (dealer_accepts, discard_policy,
                                                         elder_proposes, kept_plain, score_slot,
                                                         thrown_cards)
from ecarte_sim.engine.ecarte.laws.deal import TURN_UP_POSITION
from ecarte_sim.engine.ecarte.laws.tricks import ELDER
from ecarte_sim.engine.ecarte.play.players import (PIMC_BASE, WORDS_PER_WORLD, draw_world, pool_of,
                                                   world_threshold, pimc_over, pimc_moves)
from ecarte_sim.engine.ecarte.records import PAYOFF, REC, ProposalsEnd
from ecarte_sim.engine.ecarte.settings import CFG, MAX_WORLDS, DealerFirst, Discard, ElderFirst
from ecarte_sim.engine.rng import draw_descending_lazy, stream_word, swap_draws

C = CFG.at
R = REC.at
Y = PAYOFF.at
#: The first word of the inferring player's keys: after plain PIMC's words (10 cards
#: played, ``MAX_WORLDS`` worlds each, ``WORDS_PER_WORLD`` words a world).
INFER_BASE = PIMC_BASE + 10 * MAX_WORLDS * WORDS_PER_WORLD
#: Proposals one world of an unchanged hand may try before it falls back to a uniform
#: world (counted).
INFER_TRIES = 256
#: History particles per inferring player and deal when the opponent exchanged: the
#: first batch, the most (the batch doubles while no particle fits the play), the
#: histories drawn to find them at most, and the two words that key them (one per
#: opponent role), after the worlds' keys.
PARTICLES = 64
MAX_PARTICLES = 512
MIN_PARTICLES = 16
PARTICLE_TRIES = 16 * MAX_PARTICLES
PARTICLE_BASE = INFER_BASE + 10 * MAX_WORLDS
#: Rows of 32 int64 that :func:`history_particles` works in (its caller allocates them).
PARTICLE_WORK_ROWS = 7
#: Rows of 32 int64 that :func:`draw_inferred_worlds` works in, allocated once a deal by
#: its caller: :func:`history_particles`' rows, then ``first_throw``'s ``allowed``, the
#: opponent's discard counts, the cards he may hold, and two rows of scratch.
(WORK_ALLOWED, WORK_COUNTS, WORK_POSSIBLE, WORK_SCRATCH,
 WORK_ORDER) = range(PARTICLE_WORK_ROWS, PARTICLE_WORK_ROWS + 5)
INFER_WORK_ROWS = PARTICLE_WORK_ROWS + 5
#: The columns of a history particle (int64): what he keeps of his hand before his last
#: draw and every card he has held (masks), the particle's importance weight, and the
#: cumulative weight of the particles up to it at the current card
#: (:func:`particle_weights`); and a guide to the search by weight: row ``b`` holds a
#: particle at or before the first whose cumulative weight passes the ``b``-th of as
#: many equal parts of the total (:func:`_guide`).
PARTICLE_KEPT, PARTICLE_HELD, PARTICLE_WEIGHT, PARTICLE_CUMULATIVE, PARTICLE_GUIDE = range(5)
PARTICLE_COLUMNS = 5
#: A relative margin below float64's rounding of the guide's bucket arithmetic.
_GUIDE_MARGIN = 1.0 - 1e-9
#: The largest sum of particle weights times last draws (:func:`particle_weights`) that
#: int64 holds with room to spare; the weights' product is kept under it.
WEIGHT_BOUND = np.int64(1) << 62
#: Stock cards after the deal (Law 22: five each and the turn-up).
STOCK = N_CARDS - TURN_UP_POSITION - 1
_FULL = np.uint32(0xFFFFFFFF)


@njit(cache=True, _nrt=False)
def opponent_counts(rec, opponent, counts):
    """The number of cards ``opponent`` (ELDER or DEALER) drew in each exchange of the
    deal recorded in ``rec``, into ``counts``; returns their sum."""
    total = 0
    for r in range(rec[R.EXCHANGES]):
        base = R.EXCHANGE_CARDS + 4 * r
        counts[r] = popcount32(np.uint32(rec[base + (0 if opponent == ELDER else 2)]))
        total += counts[r]
    return total


@njit(cache=True, _nrt=False)
def opponent_fits(order, opponent, cfg, script, rec, counts, available, first_round=0,
                  kept=None):
    """Replay the opponent's rounds on a history: ``order`` lists his dealt hand (five
    cards) and then the cards he draws, in order. Returns his hand at the play if the
    model (``cfg``'s ``model_of_elder``/``model_of_dealer``, with the forced first
    decisions and discards of ``cfg``) makes every decision he made and discards as many
    cards as he did in every exchange (``counts``, :func:`opponent_counts`), else -1.

    The rounds are those of ``rules_whole_deal.md`` section 1 (Laws 25-27, 38): in every
    exchange before the last round he proposed (elder) or accepted (dealer); in the last
    round the elder played (``ELDER_PLAYED``) or proposed and the dealer refused
    (``DEALER_REFUSED``); a round that ended the proposals for the stock or the limit
    holds no decision. His discard is the one the kernel makes for him
    (:func:`~ecarte_sim.engine.ecarte.decisions.policies.thrown_cards`: Laws 27 and 38). Only
    ``order[:available]`` is read: if the replay needs a later card, it stops there and
    returns -2 (so far, so good), and
    ``kept[0]`` (if given) is what he keeps of that round's hand. ``first_round``: start
    the replay there, ``order[:5]`` being his hand then."""
    hand = np.uint32(0)
    for j in range(5):
        hand |= np.uint32(1) << np.uint32(order[j])
    return _fits_hand(hand, order, opponent, cfg, script, rec, counts, available, first_round,
                      kept)


@njit(cache=True, _nrt=False)
def _fits_hand(hand, order, opponent, cfg, script, rec, counts, available, first_round, kept):
    """:func:`opponent_fits` from his hand (a mask) at round ``first_round``;
    ``order[5:available]`` are the cards he draws after it."""
    # uint64 from the start, the type the loop gives it (numba widens uint32 arithmetic):
    # a uint32 hand would make numba compile _says and thrown_cards once more for it
    hand = np.uint64(hand)
    turn_up = rec[R.TURN_UP]
    trump = turn_up >> 3
    slot = score_slot(cfg[C.ELDER_SCORE], cfg[C.DEALER_SCORE])
    last = rec[R.EXCHANGES]
    nxt = 5
    left = STOCK
    for rnd in range(first_round):
        left -= _drawn_in(rec, rnd)
    for rnd in range(first_round, last + 1):
        wanted = decided(opponent, cfg, rec, rnd)
        if wanted >= 0 and _says(opponent, cfg, script, hand, trump, rnd, turn_up,
                                 slot) != (wanted == 1):
            return -1
        if rnd == last:
            break
        if opponent == ELDER:
            out = thrown_cards(cfg, script, ELDER, hand, trump, rnd, left, turn_up, slot)
        else:
            out = thrown_cards(cfg, script, 1 - ELDER, hand, trump, rnd,
                               _room(opponent, rec, left, rnd), turn_up, slot)
        k = popcount32(out)
        if k != counts[rnd]:
            return -1
        if nxt + k > available:
            if kept is not None:
                kept[0] = np.int64(hand ^ out)
            return -2
        hand ^= out
        for j in range(k):
            hand |= np.uint32(1) << np.uint32(order[nxt + j])
        nxt += k
        left -= _drawn_in(rec, rnd)
    return np.int64(hand)


@njit(cache=True, _nrt=False)
def one_decision(opponent, cfg, rec, first_round):
    """How :func:`fits_from` replays the opponent's rounds from ``first_round`` when he
    draws no more: if it is the last round, by his one decision there (:func:`decided`),
    else -2 (the whole replay, :func:`_fits_hand`)."""
    if first_round == rec[R.EXCHANGES]:
        return decided(opponent, cfg, rec, first_round)
    return -2


@njit(cache=True, _nrt=False, inline="always")
def fits_from(hand, order, opponent, cfg, script, rec, counts, first_round, wanted, turn_up,
               slot):
    """Whether his rounds from ``first_round`` fit, his hand then being ``hand`` and no
    card drawn after it (``order`` is not read): ``wanted`` (:func:`one_decision`) is
    the decision the model must make on it (``turn_up``, score ``slot``), or -1 (none:
    it fits), or -2 (replay every round, :func:`_fits_hand`)."""
    if wanted == -2:
        return _fits_hand(hand, order, opponent, cfg, script, rec, counts, 5, first_round,
                          None) >= 0
    if wanted < 0:
        return True
    return _says(opponent, cfg, script, hand, turn_up >> 3, first_round, turn_up,
                 slot) == (wanted == 1)


@njit(cache=True, _nrt=False)
def _says(opponent, cfg, script, hand, trump, rnd, turn_up, slot):
    """The opponent model's answer in round ``rnd`` on ``hand``: the elder proposes, the
    dealer accepts (``cfg``'s ``model_of_elder``, ``model_of_dealer``)."""
    if opponent == ELDER:
        return elder_proposes(cfg[C.MODEL_OF_ELDER], cfg[C.THRESHOLD], hand, trump, rnd,
                              script, turn_up, slot)
    return dealer_accepts(cfg[C.MODEL_OF_DEALER], hand, trump, rnd, script, turn_up, slot)


@njit(cache=True, _nrt=False)
def decided(opponent, cfg, rec, rnd):
    """What ``opponent`` decided in round ``rnd`` of the proposals in ``rec``, as his
    model must answer it: 1 (the elder proposed, the dealer accepted), 0 (the elder
    played, the dealer refused), or -1 if the model made no decision of his there (the
    proposals had ended: the stock or the limit; or ``cfg`` forced his first decision).
    In every exchange before the last round he proposed (elder) or accepted (dealer);
    in the last round the elder played (``ELDER_PLAYED``) or proposed and the dealer
    refused (``DEALER_REFUSED``)."""
    final = rnd == rec[R.EXCHANGES]
    how = rec[R.HOW_ENDED]
    if opponent == ELDER:
        if final and how != ProposalsEnd.ELDER_PLAYED and how != ProposalsEnd.DEALER_REFUSED:
            return -1
        if rnd == 0 and cfg[C.ELDER_FIRST] != ElderFirst.BY_POLICY:
            return -1
        return 1 if (not final) or how == ProposalsEnd.DEALER_REFUSED else 0
    if final and how != ProposalsEnd.DEALER_REFUSED:
        return -1
    if rnd == 0 and cfg[C.DEALER_FIRST] != DealerFirst.BY_POLICY:
        return -1
    return 0 if final else 1


@njit(cache=True, _nrt=False)
def _local_draw(key, attempt, pool, m, count, order, scratch, draws):
    """``count`` cards of ``pool[:m]`` in a uniform order, into ``order[:count]``, from
    attempt ``attempt``'s words of the stream keyed by ``key``."""
    for j in range(m):
        scratch[j] = pool[j]
    _draw_more(key, np.int64(attempt) << 16, scratch, m, 0, count, draws)
    for j in range(count):
        order[j] = scratch[j]


@njit(cache=True, _nrt=False)
def _draw_more(key, k, scratch, m, done, count, draws):
    """Forward Fisher-Yates steps ``done .. count - 1`` over ``scratch[:m]``, five draws a
    word from word ``k`` on of the stream keyed by ``key``; returns the next word. Steps
    drawn in two calls are the steps drawn in one."""
    while done < count:
        step = min(5, count - done)
        k = draw_descending_lazy(key, 0, k, m - done, step, draws, done)
        swap_draws(scratch, draws, done, step)
        done += step
    return k


@njit(cache=True, _nrt=False)
def first_throw(opponent, cfg, rec, counts, allowed):
    """The cards the opponent's discard rule throws in the first exchange (a mask), and in
    ``allowed[j]`` (j = 0..5, int64) whether a dealt hand holding ``j`` of them throws as many
    cards as he did (``counts[0]``): the elder throws his weakest if the rule throws none
    (Law 27), so does a dealer under ``dealer_min_one``, and no one throws more than the
    stock can replace (Law 38). Returns -1 when the rule is read from a table or a script
    (no such mask)."""
    policy = discard_policy(cfg, opponent, 0)
    if policy == Discard.SCRIPTED or policy == Discard.TABLE:
        return np.int64(-1)
    room = _room(opponent, rec, STOCK, 0)
    for j in range(6):
        allowed[j] = throw_count(opponent, cfg, j, room) == counts[0]
    return _low_cards(rec, policy)


@njit(cache=True, _nrt=False)
def throw_count(opponent, cfg, n_low, room):
    """How many cards the opponent throws from a hand holding ``n_low`` of the cards his
    discard rule throws (:func:`_low_cards`) when ``room`` stock cards can replace them:
    the elder his weakest if the rule throws none (Law 27), so a dealer under
    ``dealer_min_one`` while the stock has a card, and no more than ``room`` (Law 38)."""
    out = n_low
    if n_low == 0 and (opponent == ELDER or (cfg[C.DEALER_MIN_ONE] != 0 and room > 0)):
        out = 1
    return min(out, room)


@njit(cache=True, _nrt=False)
def _low_cards(rec, policy):
    """The cards a discard rule that keeps the trumps and some plain ranks throws (a
    mask, int64): every card neither a trump nor of a rank it keeps."""
    trump = rec[R.TURN_UP] >> 3
    return np.int64(_FULL & ~(suit_mask(trump) | kept_plain(policy)))


@njit(cache=True, _nrt=False)
def _room(opponent, rec, left, rnd):
    """The stock cards that can replace the opponent's discard in round ``rnd`` when
    ``left`` were in the stock before it: the dealer draws after the elder (Law 38)."""
    if opponent == ELDER:
        return left
    return left - popcount32(np.uint32(rec[R.EXCHANGE_CARDS + 4 * rnd + 1]))


@njit(cache=True, _nrt=False)
def _dealt_hand(key, k, low_cards, n_low, high_cards, n_high, weights, total, lows, highs,
                scratch, draws):
    """A dealt hand drawn uniformly among the hands of ``unseen`` whose number ``j`` of
    ``low`` cards has a positive weight (``weights[j]`` cumulative, ``total`` the last):
    ``j`` with probability ``C(low, j) C(high, 5 - j) / total``, then ``j`` low and
    ``5 - j`` high cards uniformly (``low_cards[:n_low]``, ``high_cards[:n_high]`` list
    the unseen cards of each kind; ``lows``, ``highs`` are scratch). ``scratch[:5]``
    receives the five cards; returns the next word of the stream."""
    for i in range(n_low):
        lows[i] = low_cards[i]
    for i in range(n_high):
        highs[i] = high_cards[i]
    return _split_draw(key, k, lows, n_low, highs, n_high, weights, total, 5, scratch, 0,
                       draws)


@njit(cache=True, _nrt=False, inline="always")
def _split_draw(key, k, lows, n_low, highs, n_high, cumulative, total, drawn, scratch, at,
                draws):
    """``drawn`` cards, ``j`` of ``lows[:n_low]`` and the rest of ``highs[:n_high]``,
    into ``scratch[at:at + drawn]`` (lows first): ``j`` drawn by its cumulative weights
    (``cumulative[j]``, the last ``total``), then the cards of each kind uniformly
    (Fisher-Yates steps over ``lows`` and ``highs``), from word ``k`` of the stream keyed
    by ``key``; returns the next word."""
    k = draw_descending_lazy(key, 0, k, total, 1, draws, 0)
    j = 0
    while cumulative[j] <= draws[0]:
        j += 1
    k = _draw_more(key, k, lows, n_low, 0, j, draws)
    k = _draw_more(key, k, highs, n_high, 0, drawn - j, draws)
    for i in range(j):
        scratch[at + i] = lows[i]
    for i in range(drawn - j):
        scratch[at + j + i] = highs[i]
    return k


@njit(cache=True, _nrt=False)
def history_particles(seed, index, opponent, cfg, script, rec, counts, n_before, unseen,
                      particles, state, want, pool, draws, payoff, work, allowed):
    """Add to ``particles`` (rows of (kept, held) masks) the opponent's histories up to
    his last draw: a dealt hand and the draws before the last exchange's (``n_before``
    cards in all), drawn uniformly from the ``unseen`` cards and kept if
    :func:`opponent_fits` agrees with every decision and discard up to there; a row is
    what he keeps of his hand before the last draw and every card he has held. Stops when
    ``want`` rows are kept or ``PARTICLE_TRIES`` histories were drawn in the deal;
    ``state`` (two int64: rows kept, histories drawn) carries on from an earlier call;
    ``work`` (``PARTICLE_WORK_ROWS`` x 32 int64) and ``allowed`` (6 int64) are scratch.
    Weighted by its ``PARTICLE_WEIGHT``, each row is a draw from the posterior of that part
    of his history given the proposals before his last draw.

    The dealt hand is drawn among the hands that throw as many cards in the first
    exchange as he did (:func:`first_throw`), each as likely as under a uniform deal:
    rejection from that smaller set keeps exactly the same histories, more often. The
    later draws are stratified the same way, each among the draws that make the next
    exchange throw as many cards as he did (:func:`_later_draws`); how many such draws
    there are depends on the history before, so a history's weight is their product
    (importance sampling: drawn so, a history is as likely as under the uniform deal
    divided by that product, up to a constant). History ``a`` reads the stream keyed by
    word ``PARTICLE_BASE + opponent`` of deal ``index`` from word ``a << 16``."""
    if state[0] >= want or state[1] >= PARTICLE_TRIES:
        return
    key = stream_word(seed, index, PARTICLE_BASE + opponent)
    scratch = work[0]
    kept = work[1, :1]
    n_pool = pool_of(unseen, pool)
    low = first_throw(opponent, cfg, rec, counts, allowed)
    weights = work[2, :6]
    total = np.int64(0)
    low_cards = work[3]
    high_cards = work[4]
    lows = work[5]
    highs = work[6]
    n_low = 0
    n_high = 0
    if low >= 0:
        n_low = pool_of(unseen & np.uint32(low), low_cards)
        n_high = pool_of(unseen & ~np.uint32(low) & _FULL, high_cards)
        for j in range(6):
            if allowed[j]:
                total += binomial(n_low, j) * binomial(n_pool - n_low, 5 - j)
            weights[j] = total
        if total == 0:
            return
    # the weights' bound: room for MAX_PARTICLES particles times their most last draws
    n_free = n_pool - n_before
    k_last = 5 - n_before
    for r in range(rec[R.EXCHANGES]):
        k_last += counts[r]
    bound = WEIGHT_BOUND // (MAX_PARTICLES * binomial(n_free, min(k_last, n_free // 2)))
    while state[0] < want and state[1] < PARTICLE_TRIES:
        attempt = state[1]
        state[1] += 1
        payoff[Y.INFER_TRIES] += 1
        # the dealt hand first, and the earlier draws only if his first decisions fit it
        if low >= 0:
            k = _dealt_hand(key, np.int64(attempt) << 16, low_cards, n_low, high_cards,
                            n_high, weights, total, lows, highs, scratch, draws)
        else:
            for j in range(n_pool):
                scratch[j] = pool[j]
            k = _draw_more(key, np.int64(attempt) << 16, scratch, n_pool, 0, 5, draws)
        fits = opponent_fits(scratch, opponent, cfg, script, rec, counts, 5, 0, kept)
        weight = np.int64(1)
        if fits == -2 and n_before > 5:
            fits, weight = _later_draws(key, k, scratch, n_before, opponent, cfg, script, rec,
                                        counts, unseen, kept, bound, draws, work)
        if fits == -2:
            held = np.uint32(0)
            for j in range(n_before):
                held |= np.uint32(1) << np.uint32(scratch[j])
            particles[state[0], PARTICLE_KEPT] = kept[0]
            particles[state[0], PARTICLE_HELD] = np.int64(held)
            particles[state[0], PARTICLE_WEIGHT] = weight
            state[0] += 1


@njit(cache=True, _nrt=False)
def _later_draws(key, k, scratch, n_before, opponent, cfg, script, rec, counts, unseen, kept,
                 bound, draws, work):
    """The opponent's draws after his dealt hand (``scratch[:5]``), round by round, into
    ``scratch[5:n_before]``, each round replayed by :func:`opponent_fits` (``kept[0]``
    is what he keeps of the hand it ends) as soon as it is drawn, from word ``k`` of the
    stream keyed by ``key``. A round's draw is uniform among the draws that make him
    throw as many cards in the next exchange as he did (:func:`throw_count`), like the
    dealt hand's (:func:`first_throw`), when his rule throws a fixed set of cards and
    the product of the rounds' numbers of draws stays under ``bound``; otherwise
    uniform among the cards he has not held (the same rounds for every history, so
    their numbers of draws are a constant factor). Returns (fits, weight):
    :func:`opponent_fits`' last answer, and the product of the numbers of draws the
    stratified rounds chose among (the history's importance weight, up to a constant).
    ``work`` is :func:`history_particles`' scratch: rows 5 and 6, and ``work[1, 1:7]``."""
    last = rec[R.EXCHANGES]
    lows = work[5]
    highs = work[6]
    cumulative = work[1, 1:7]
    nxt = 5
    rnd = 0
    left = STOCK
    weight = np.int64(1)
    product = np.int64(1)
    fits = np.int64(-2)
    while nxt < n_before:
        while counts[rnd] == 0:
            left -= _drawn_in(rec, rnd)
            rnd += 1
        left -= _drawn_in(rec, rnd)
        drawn = counts[rnd]
        held = np.uint32(0)
        for j in range(nxt):
            held |= np.uint32(1) << np.uint32(scratch[j])
        avail = unseen & ~held & _FULL
        after = rnd + 1
        policy = discard_policy(cfg, opponent, after)
        size = binomial(popcount32(avail), drawn)
        if policy != Discard.SCRIPTED and policy != Discard.TABLE and after < last \
                and product <= bound // size:
            product *= size
            low = np.uint32(_low_cards(rec, policy))
            a = popcount32(np.uint32(kept[0]) & low)
            room = _room(opponent, rec, left, after)
            n_low = pool_of(avail & low, lows)
            n_high = pool_of(avail & ~low & _FULL, highs)
            total = np.int64(0)
            for j in range(drawn + 1):
                if throw_count(opponent, cfg, a + j, room) == counts[after]:
                    total += binomial(n_low, j) * binomial(n_high, drawn - j)
                cumulative[j] = total
            if total == 0:
                return np.int64(-1), weight
            weight *= total
            k = _split_draw(key, k, lows, n_low, highs, n_high, cumulative, total, drawn,
                            scratch, nxt, draws)
        else:
            m = pool_of(avail, lows)
            k = _draw_more(key, k, lows, m, 0, drawn, draws)
            for i in range(drawn):
                scratch[nxt + i] = lows[i]
        nxt += drawn
        rnd += 1
        fits = opponent_fits(scratch, opponent, cfg, script, rec, counts, nxt, 0, kept)
        if fits != -2:
            break
    return fits, weight


@njit(cache=True, _nrt=False)
def _drawn_in(rec, rnd):
    """The stock cards both players drew in exchange ``rnd``."""
    base = R.EXCHANGE_CARDS + 4 * rnd
    return popcount32(np.uint32(rec[base + 1])) + popcount32(np.uint32(rec[base + 3]))


def _binomials(n_max, r_max):
    """C(n, r) for n <= n_max, r <= r_max (int64)."""
    table = np.zeros((n_max + 1, r_max + 1), dtype=np.int64)
    for n in range(n_max + 1):
        for r in range(min(n, r_max) + 1):
            table[n, r] = math.comb(n, r)
    return table


#: C(n, r) for every n of cards and every r <= 5 (hands, draws): a constant of the kernels.
_BINOMIALS = _binomials(N_CARDS, 5)


@njit(cache=True)
def binomial(n, r):
    """The binomial coefficient C(n, r) (0 if r < 0 or r > n), n <= 32, r <= 5."""
    if r < 0 or r > n:
        return np.int64(0)
    return _BINOMIALS[n, r]


@njit(cache=True, _nrt=False)
def particle_weights(particles, n, unseen, possible, shown, k_last):
    """``particles[p, PARTICLE_CUMULATIVE]``: the sum over the particles up to ``p`` of
    the particle's weight times how many last
    draws of ``k_last`` cards make its final hand fit the play — hold every card he has
    played (``shown``) and otherwise only cards he may hold (``possible``). Returns
    (total, particles with a positive weight). A card played that he neither kept nor
    could draw (he held it before) leaves none."""
    total = np.int64(0)
    positive = 0
    for p in range(n):
        kept = np.uint32(particles[p, PARTICLE_KEPT])
        held = np.uint32(particles[p, PARTICLE_HELD])
        need = shown & ~kept & _FULL
        w = np.int64(0)
        if (need & held) == 0 and ((kept & ~shown) & ~possible & _FULL) == 0:
            drawable = unseen & ~held & possible & _FULL
            w = particles[p, PARTICLE_WEIGHT] * binomial(popcount32(drawable),
                                                         k_last - popcount32(need))
        if w > 0:
            positive += 1
        total += w
        particles[p, PARTICLE_CUMULATIVE] = total
    return total, positive


@njit(cache=True, _nrt=False)
def _guide(particles, n, total):
    """Fill ``particles[:n, PARTICLE_GUIDE]`` for the cumulative weights (total ``total``
    > 0) and return the buckets' scale ``n / total``. A draw ``u`` falls in bucket
    ``int(u * scale * _GUIDE_MARGIN)``; the bucket's guide is the first particle whose
    cumulative weight exceeds a number at or below every draw of the bucket (the
    margins keep both float roundings on the safe side), so the particle a draw picks
    (:func:`_particle_at`) is the guide or after it: the particle a binary search finds,
    in a step or two on average."""
    scale = n / total
    step = total / n * _GUIDE_MARGIN
    p = 0
    for b in range(n):
        lowest = np.int64(b * step) - 1
        while particles[p, PARTICLE_CUMULATIVE] <= lowest:
            p += 1
        particles[b, PARTICLE_GUIDE] = p
    return scale


@njit(cache=True, _nrt=False)
def _particle_at(particles, n, scale, u):
    """The first of the ``n`` particles whose cumulative weight exceeds ``u`` (below the
    total), walked to from its bucket's guide (:func:`_guide`, whose ``scale`` this is)."""
    p = particles[min(np.int64(u * scale * _GUIDE_MARGIN), n - 1), PARTICLE_GUIDE]
    while particles[p, PARTICLE_CUMULATIVE] <= u:
        p += 1
    return p


@njit(cache=True, _nrt=False)
def _draw_below(key, k, top, draws):
    """``draws[0]``: a uniform draw from ``[0, top)``, ``top < 2**63``, from word ``k`` on
    of the stream keyed by ``key``; returns the next word. Below ``2**32`` it is
    :func:`~ecarte_sim.engine.rng.draw_descending`'s draw; above (importance weights
    of several exchanges can sum that high), the word's lowest bits, as many as ``top -
    1`` has, taken if below ``top`` (at least half the words are)."""
    if top < (np.int64(1) << 32):
        return draw_descending_lazy(key, 0, k, top, 1, draws, 0)
    bits = np.uint64(1)
    while (np.uint64(1) << bits) < np.uint64(top):
        bits += np.uint64(1)
    mask = (np.uint64(1) << bits) - np.uint64(1)
    while True:
        x = stream_word(key, 0, k) & mask
        k += 1
        if x < np.uint64(top):
            draws[0] = np.int64(x)
            return k


@njit(cache=True, _nrt=False)
def _weighted_world(key, attempt, particles, n, total, scale, unseen, possible, shown, k_last,
                    last_round, wanted, turn_up, slot, opponent, cfg, script, rec, counts,
                    draws, scratch):
    """One proposal of an exchanged hand: a particle drawn in proportion to its weight
    at this card (:func:`particle_weights`), its last draw uniform among those that fit
    the play, and the rounds after it replayed on the final hand (:func:`fits_from`:
    ``wanted``, ``turn_up``, ``slot``). Returns the final hand, or -1.
    ``scratch``: int64, length >= 32."""
    k = _draw_below(key, np.int64(attempt) << 16, total, draws)
    p = _particle_at(particles, n, scale, draws[0])
    kept = np.uint32(particles[p, PARTICLE_KEPT])
    held = np.uint32(particles[p, PARTICLE_HELD])
    need = shown & ~kept & _FULL
    free = k_last - popcount32(need)
    m = pool_of(unseen & ~held & possible & _FULL, scratch)
    _draw_more(key, k, scratch, m, 0, free, draws)
    hand = kept | need
    for j in range(free):
        hand |= np.uint32(1) << np.uint32(scratch[j])
    # he draws no card after his last draw
    if not fits_from(hand, scratch, opponent, cfg, script, rec, counts, last_round + 1,
                      wanted, turn_up, slot):
        return np.int64(-1)
    return np.int64(hand)


@njit(cache=True, _nrt=False)
def inferred_world(seed, index, decision, world, opponent, cfg, script, rec, counts, n_drawn,
                   unseen, possible, shown, count, particles, n_particles, total, scale,
                   k_last, last_round, possible_pool, m, threshold, draws, scratch, order,
                   payoff):
    """The opponent's hand (``count`` cards of ``possible``) in world ``world`` of the
    ``decision``-th card played in deal ``index``, drawn from the posterior given the
    proposals (module docstring). ``shown``: the cards the opponent has played;
    ``counts``/``n_drawn``: his discards (:func:`opponent_counts`); if he drew cards, the
    ``particles`` with their cumulative weights (total ``total``) and guide (``scale``:
    :func:`_guide`), his last draw of ``k_last`` cards in round ``last_round``.
    ``possible_pool[:m]`` lists ``possible``
    (``threshold``: :func:`~ecarte_sim.engine.ecarte.play.players.world_threshold` of ``m`` and
    ``count``); ``draws``, ``scratch`` and ``order`` are int64 scratch of length >= 32."""
    payoff[Y.INFER_WORLDS] += 1
    key = np.uint64(0)
    turn_up = rec[R.TURN_UP]
    slot = score_slot(cfg[C.ELDER_SCORE], cfg[C.DEALER_SCORE])
    if n_drawn == 0:
        # His hand never changed: propose a uniform world that the play allows.
        wanted = one_decision(opponent, cfg, rec, 0)
        for attempt in range(INFER_TRIES):
            payoff[Y.INFER_TRIES] += 1
            if attempt == 0:
                hand = draw_world(seed, index, decision, world, possible_pool, m, count,
                                   threshold, scratch, draws)
            else:
                if attempt == 1:
                    key = _world_key(seed, index, decision, world)
                _local_draw(key, attempt, possible_pool, m, count, order, scratch, draws)
                hand = np.uint32(0)
                for j in range(count):
                    hand |= np.uint32(1) << np.uint32(order[j])
            if fits_from(hand | shown, order, opponent, cfg, script, rec, counts, 0, wanted,
                          turn_up, slot):
                return np.uint32(hand)
    elif total > 0:
        # He exchanged: a history particle by its weight, then his last draw.
        wanted = one_decision(opponent, cfg, rec, last_round + 1)
        key = _world_key(seed, index, decision, world)
        for attempt in range(INFER_TRIES):
            payoff[Y.INFER_TRIES] += 1
            hand = _weighted_world(key, attempt, particles, n_particles, total, scale, unseen,
                                   possible, shown, k_last, last_round, wanted, turn_up, slot,
                                   opponent, cfg, script, rec, counts, draws, scratch)
            if hand >= 0:
                return np.uint32(hand) & ~shown & _FULL
    # no proposal fitted: plain PIMC's (uniform) world, counted
    payoff[Y.INFER_FALLBACKS] += 1
    return draw_world(seed, index, decision, world, possible_pool, m, count, threshold,
                       scratch, draws)


@njit(cache=True)
def _world_key(seed, index, decision, world):
    """The word that keys world ``world``'s proposals at the ``decision``-th card."""
    return stream_word(seed, index, INFER_BASE + decision * MAX_WORLDS + world)


@njit(cache=True, _nrt=False)
def draw_inferred_worlds(seed, index, decision, mover, cfg, script, rec, unseen, possible,
                         shown, count, hands, worlds, particles, state, work, pool, draws,
                         payoff):
    """Fill ``hands[:worlds]`` with the opponent hands (``count`` cards each) that
    ``mover``'s ``pimc-inference`` compares at the ``decision``-th card played of deal
    ``index``: ``unseen``, the cards he never saw before the play; ``possible``, the
    cards the opponent may hold now; ``shown``, the cards the opponent has played.
    ``particles`` (``MAX_PARTICLES`` x ``PARTICLE_COLUMNS`` int64) and ``state`` (two
    int64, zero at the deal's start) keep the mover's :func:`history_particles` from one
    card to the next of the deal: a first batch of ``PARTICLES``, doubled while fewer
    than ``MIN_PARTICLES`` can end in a hand the play allows. ``work``
    (``INFER_WORK_ROWS`` x 32 int64) is scratch."""
    opponent = 1 - mover
    counts = work[WORK_COUNTS]
    counts[:] = 0
    n_drawn = opponent_counts(rec, opponent, counts)
    total = np.int64(0)
    k_last = 0
    last_round = 0
    if n_drawn > 0:
        last_round = rec[R.EXCHANGES] - 1
        while counts[last_round] == 0:
            last_round -= 1
        k_last = counts[last_round]
        n_before = 5 + n_drawn - k_last
        want = max(PARTICLES, state[0])
        while True:
            history_particles(seed, index, opponent, cfg, script, rec, counts, n_before,
                              unseen, particles, state, want, pool, draws, payoff, work,
                              work[WORK_ALLOWED])
            total, positive = particle_weights(particles, state[0], unseen, possible, shown,
                                               k_last)
            if positive >= MIN_PARTICLES or want >= MAX_PARTICLES \
                    or state[1] >= PARTICLE_TRIES:
                break
            want = min(2 * want, MAX_PARTICLES)
    scale = _guide(particles, state[0], total) if total > 0 else 0.0
    possible_pool = work[WORK_POSSIBLE]
    m = pool_of(possible, possible_pool)
    threshold = world_threshold(m, count)
    for w in range(worlds):
        hands[w] = inferred_world(seed, index, decision, w, opponent, cfg, script, rec, counts,
                                  n_drawn, unseen, possible, shown, count, particles, state[0],
                                  total, scale, k_last, last_round, possible_pool, m,
                                  threshold, draws, work[WORK_SCRATCH], work[WORK_ORDER],
                                  payoff)


@njit(cache=True)
def pimc_inferred_card(mover, elder, dealer, leader, tricks, led, trump, forced_trump,
                       possible, worlds, seed, index, decision, payoff, pool, draws, cfg,
                       script, rec, unseen, shown, particles, state, work):
    """The ``pimc-inference`` choice: :func:`~ecarte_sim.engine.ecarte.play.players.pimc_card`
    with its worlds drawn by :func:`draw_inferred_worlds` (which see for the
    arguments)."""
    own = np.uint32(elder if mover == ELDER else dealer)
    legal = pimc_moves(own, led, trump, forced_trump, possible)
    if legal & (legal - np.uint32(1)) == 0:
        return bit_index(legal)
    count = popcount32(np.uint32(dealer if mover == ELDER else elder))
    hands = np.empty(worlds, dtype=np.uint32)
    draw_inferred_worlds(seed, index, decision, mover, cfg, script, rec, unseen, possible,
                         shown, count, hands, worlds, particles, state, work, pool, draws,
                         payoff)
    return pimc_over(mover, own, legal, leader, tricks, led, trump, forced_trump, hands,
                     worlds, payoff)


@njit(cache=True)
def posterior_sample(seed, start, n, mover, cfg, script, rec, unseen, out, fell_back,
                     payoff):
    """``out[i]`` = the opponent's hand at the first card of play, as ``mover``'s
    ``pimc-inference`` draws world 0 of it in deal ``start + i`` (each deal its own
    particles): ``n`` draws from the posterior of his hand given the history in ``rec``
    (the ``infer`` command's sampled posterior); ``fell_back[i]`` if no history fitted and
    the draw is uniform instead."""
    pool = np.empty(N_CARDS, dtype=np.int64)
    draws = np.empty(N_CARDS, dtype=np.int64)
    particles = np.empty((MAX_PARTICLES, PARTICLE_COLUMNS), dtype=np.int64)
    state = np.zeros(2, dtype=np.int64)
    work = np.empty((INFER_WORK_ROWS, N_CARDS), dtype=np.int64)
    hands = np.empty(1, dtype=np.uint32)
    for i in range(n):
        state[:] = 0
        before = payoff[Y.INFER_FALLBACKS]
        draw_inferred_worlds(seed, np.uint64(start + i), 0, mover, cfg, script, rec, unseen,
                             unseen, np.uint32(0), 5, hands, 1, particles, state, work, pool,
                             draws, payoff)
        out[i] = hands[0]
        fell_back[i] = payoff[Y.INFER_FALLBACKS] > before
