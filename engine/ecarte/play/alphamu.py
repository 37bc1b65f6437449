"""A stronger card player than ``pimc-inference``: αμ search over its worlds (issue 35).

PIMC (:func:`~ecarte_sim.engine.ecarte.play.players.pimc_over`) values each card by solving
every sampled world double dummy, as if after this card the mover would see the
opponent's hand: in each world it lets him play the card that suits that world
(*strategy fusion*, Long, Sturtevant, Buro and Furtak, AAAI-10). αμ (Cazenave and Ventos,
"The αμ Search Algorithm for the Game of Bridge", 2020) removes that: the mover (Max) must
play the same card in every world he cannot tell apart, the opponent (Min) plays per world;
a node's value is a Pareto front of vectors over the worlds (the plain-Python definition
and the oracle of the tests: :mod:`~ecarte_sim.engine.ecarte.play.alphamu_reference`). ``M``
bounds the mover's moves searched before the worlds are valued double dummy; ``M = 1`` is
PIMC.

The chooser here, ``alphamu`` (:func:`alphamu_decide`), is ``pimc-inference`` before the
last ``K`` tricks and αμ with ``M`` unbounded (:data:`M_INF`: to the end of the deal) from
there, over the *same* ``W`` worlds ``pimc-inference`` draws at that card
(:func:`~ecarte_sim.engine.ecarte.play.single.decide`), so the only difference is the search.
The card: the best total over the worlds of the best vector of its front (the deal's marks
for the mover, Laws 48–49: the point 1, the vole 2, doubled under Law 49 when the elder
played without proposing or the dealer refused and that side loses the point); among
equals, ``pimc-inference``'s own card. ``K`` = :data:`DEFAULT_TRICKS` = 5, every card:
measured with ``ecarte-sim stronger`` (W = 64, paired on the same deals), αμ on the last
three tricks changed under one card in a hundred and gained about a tenth of what αμ on
every card gains, which costs some tens of milliseconds a decision (a front over 64 worlds
stays small: Écarté's hands are five cards). ``K`` is an argument.

The work is bounded (issue 43.8). At the first cards a front can hold hundreds of vectors
over 64 worlds, and a product at the opponent's node every pair of two fronts: a table's
first card once took 33 s. Fronts are kept by sorting (:func:`pareto`) and products
made in lots (:func:`_product`), which keeps the same vectors; and a decision counts its
work (the rows of its fronts compared and made, the worlds valued double dummy, the
positions entered): past :data:`DEFAULT_BUDGET` it stops and plays ``pimc-inference``'s
card, as before the last ``K`` tricks. The count is a function of the position (any
thread count, any machine). On the 5,181 αμ decisions of a load test of the practice
table (the strategy shipped then) 4 reached the budget, and at each the whole search
chooses ``pimc-inference``'s card too; on 5,464 decisions of whole deals at the 25
scores under the strategy shipped now, none (the most work, 5.3 million units, a third of
the budget). The chooser's kernels release the GIL.

Kernels (``@njit(cache=True)``; no recursion, numba #6061: :func:`front` keeps an explicit
stack of positions, one frame per card played in the search):

* :func:`front` — the Pareto front of a position over the worlds (rows: vectors, columns:
  worlds; a world ruled out in a branch holds :data:`OUT`);
* :func:`root_totals` — each of the mover's cards' best total;
* :func:`alphamu_card` — the card from the worlds, ties to a given card;
* :func:`bounded_front`, :func:`bounded_root_totals`, :func:`bounded_alphamu_card` — the
  same counting their work, stopping past a budget;
* :func:`alphamu_decide` — the whole chooser from the mover's knowledge
  (:func:`alphamu_decide_counted`: with its budget, its work and whether it stopped);
* :func:`keyed_alphamu_card`, :func:`keyed_alphamu_cards` — the chooser as a *strategy*
  for the best response of :mod:`ecarte_sim.analysis.ecarte.play.exploit`: its words keyed by
  the mover's own information (:func:`~ecarte_sim.engine.ecarte.play.keyed.info_key`), as
  :func:`~ecarte_sim.engine.ecarte.play.keyed.keyed_card` keys the other models.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import bit_index, lowest_bit
from ecarte_sim.engine.ecarte.laws.tricks import ELDER, leader_wins
from ecarte_sim.engine.ecarte.play.keyed import hand_to_play, info_key
from ecarte_sim.engine.ecarte.play.single import decide
from ecarte_sim.engine.ecarte.records import PAYOFF
from ecarte_sim.engine.ecarte.search.moves import distinct_moves, legal_moves
from ecarte_sim.engine.ecarte.search.solver import search

#: The value of a world out of play in a branch: above any mark (the minimum ignores it).
OUT = 1 << 20
#: ``M`` unbounded: more than the mover's cards in a deal.
M_INF = 99
#: The tricks searched by αμ at the end of the deal: 5, every card (module docstring).
DEFAULT_TRICKS = 5
#: No budget (:func:`bounded_front`).
UNBOUNDED = np.int64(1) << np.int64(62)
#: The work one αμ decision may count before it stops and plays ``pimc-inference``'s card
#: (module docstring): the rows of its fronts compared and made, the worlds valued double
#: dummy, :data:`_NODE` a position searched. 2^24: above all but a few in ten thousand
#: decisions at the practice table.
DEFAULT_BUDGET = np.int64(1) << np.int64(24)
_DEPTH = 12
_MAX, _MIN, _LEAF = 0, 1, 2
_P = PAYOFF.at
#: The pairs of vectors :func:`_product` makes before it keeps their front.
_CHUNK = 4096
#: Fronts up to this many rows are kept by comparing every pair (:func:`pareto`).
_SMALL = 24
#: The work counted for a position entered in the search (its arrays, its moves): about
#: the time of 16 rows compared (fitted on 3,666 searches of the table's load test).
_NODE = 16
_FULL = np.uint32(0xFFFFFFFF)


@njit(cache=True)
def pareto(f, work):
    """The rows of ``f`` that no other row is at least as good as in every column
    (duplicates once, the first kept), in their order in ``f``; ``work[0]`` counts the
    rows compared. Up to :data:`_SMALL` rows every pair is compared; more are visited by
    decreasing total (among equals, in order): a row can be dominated or equalled only by
    a row of at least its total, so each is compared with the rows kept before it only,
    which keeps the same rows."""
    n, w = f.shape
    keep = np.zeros(n, dtype=np.bool_)
    nk = 0
    if n <= _SMALL:
        for i in range(n):
            keep[i] = True
            for j in range(n):
                if i == j or (j < i and not keep[j]):
                    continue
                work[0] += 1
                ge = True
                eq = True
                for k in range(w):
                    if f[j, k] < f[i, k]:
                        ge = False
                        break
                    if f[j, k] != f[i, k]:
                        eq = False
                if ge and (not eq or j < i):
                    keep[i] = False
                    break
            nk += keep[i]
    else:
        total = np.zeros(n, dtype=np.int64)
        for i in range(n):
            for k in range(w):
                total[i] -= f[i, k]
        order = np.argsort(total, kind="mergesort")
        kept = np.empty(n, dtype=np.int64)
        for q in range(n):
            i = order[q]
            dominated = False
            for r in range(nk):
                j = kept[r]
                ge = True
                for k in range(w):
                    if f[j, k] < f[i, k]:
                        ge = False
                        break
                if ge:
                    dominated = True
                    work[0] += r + 1
                    break
            if not dominated:
                work[0] += nk
                keep[i] = True
                kept[nk] = i
                nk += 1
    out = np.empty((nk, w), dtype=np.int64)
    r = 0
    for i in range(n):
        if keep[i]:
            out[r] = f[i]
            r += 1
    return out


@njit(cache=True)
def _union(a, b, work):
    work[0] += a.shape[0] + b.shape[0]
    return pareto(np.concatenate((a, b)), work)


@njit(cache=True)
def _product(a, b, work, budget):
    """Min's choice per world: every pair of vectors, the minimum in each world, made
    :data:`_CHUNK` pairs at a time, each lot kept with the front so far (the front of a
    union is the front of one part's front and the other part, in the same order); an
    empty front once ``work`` passes ``budget``."""
    na, w = a.shape
    nb = b.shape[0]
    n = na * nb
    lot = np.empty((min(n, _CHUNK), w), dtype=np.int64)
    acc = lot[:0]
    r = 0
    done = 0
    for i in range(na):
        for j in range(nb):
            for k in range(w):
                lot[r, k] = min(a[i, k], b[j, k])
            r += 1
            done += 1
            if r == lot.shape[0] or done == n:
                work[0] += r
                if done == r:
                    acc = pareto(lot[:r], work)
                else:
                    acc = pareto(np.concatenate((acc, lot[:r])), work)
                r = 0
                if work[0] > budget:
                    return np.empty((0, w), dtype=np.int64)
    return acc


@njit(cache=True)
def _leaf(own, hands, valid, gone, leader, tricks, led, trump, forced_trump, mover, pay,
          exact, work):
    """One vector: the deal's value in each world in play (``exact``: the deal is over;
    else double dummy from here)."""
    w = hands.shape[0]
    out = np.empty((1, w), dtype=np.int64)
    for k in range(w):
        if not valid[k]:
            out[0, k] = OUT
        elif exact:
            out[0, k] = pay[tricks]
        else:
            work[0] += 1
            opp = np.uint32(hands[k] & ~gone)
            e = own if mover == ELDER else opp
            d = opp if mover == ELDER else own
            out[0, k] = pay[search(e, d, leader, tricks, led, trump, forced_trump, -1, 6)]
    return out


@njit(cache=True)
def front(own, hands, valid, gone, leader, tricks, led, trump, forced_trump, mover, pay, m):
    """The αμ front of a position: the mover's hand ``own``, the opponent's hands ``hands``
    (uint32, one per world) of which ``valid`` are in play and ``gone`` the opponent's
    cards already played in the search, ``leader``/``tricks``/``led`` the trick, ``pay``
    the mover's marks by the elder's tricks, ``m`` the mover's moves still searched
    (0: double dummy). Rows of the result are vectors over the worlds. Without a budget:
    :func:`bounded_front`."""
    return bounded_front(own, hands, valid, gone, leader, tricks, led, trump, forced_trump,
                         mover, pay, m, np.zeros(1, dtype=np.int64), UNBOUNDED)


@njit(cache=True)
def bounded_front(own, hands, valid, gone, leader, tricks, led, trump, forced_trump, mover,
                  pay, m, work, budget):
    """:func:`front` counting its work into ``work[0]`` (:data:`DEFAULT_BUDGET`: the
    rows of the fronts compared and made, the worlds valued double dummy, the positions
    entered); once the count passes ``budget`` the search stops and returns an empty front
    (no rows)."""
    w = hands.shape[0]
    s_own = np.zeros(_DEPTH, dtype=np.uint32)
    s_gone = np.zeros(_DEPTH, dtype=np.uint32)
    s_leader = np.zeros(_DEPTH, dtype=np.int64)
    s_tricks = np.zeros(_DEPTH, dtype=np.int64)
    s_led = np.zeros(_DEPTH, dtype=np.int64)
    s_m = np.zeros(_DEPTH, dtype=np.int64)
    s_kind = np.zeros(_DEPTH, dtype=np.int64)
    s_moves = np.zeros(_DEPTH, dtype=np.uint32)
    s_started = np.zeros(_DEPTH, dtype=np.bool_)
    s_valid = np.zeros((_DEPTH, w), dtype=np.bool_)
    acc = [np.empty((0, w), dtype=np.int64) for _ in range(_DEPTH)]
    s_own[0] = own
    s_gone[0] = gone
    s_leader[0] = leader
    s_tricks[0] = tricks
    s_led[0] = led
    s_m[0] = m
    s_valid[0, :] = valid
    d = 0
    entering = True
    res = np.empty((0, w), dtype=np.int64)
    while True:
        if entering:
            entering = False
            work[0] += _NODE
            o = s_own[d]
            g = s_gone[d]
            ld = s_led[d]
            lead = s_leader[d]
            who = lead if ld < 0 else 1 - lead
            if o == 0 and ld < 0:
                res = _leaf(o, hands, s_valid[d], g, lead, s_tricks[d], ld, trump,
                            forced_trump, mover, pay, True, work)
                s_kind[d] = _LEAF
            elif who == mover and s_m[d] == 0:
                res = _leaf(o, hands, s_valid[d], g, lead, s_tricks[d], ld, trump,
                            forced_trump, mover, pay, False, work)
                s_kind[d] = _LEAF
            elif who == mover:
                opp_any = np.uint32(0)
                for k in range(w):
                    if s_valid[d, k]:
                        opp_any |= hands[k]
                opp_any = np.uint32(opp_any & ~g)
                s_moves[d] = distinct_moves(legal_moves(o, ld, trump, forced_trump), o,
                                            opp_any, ld)
                s_kind[d] = _MAX
            else:
                moves = np.uint32(0)
                for k in range(w):
                    if s_valid[d, k]:
                        moves |= legal_moves(np.uint32(hands[k] & ~g), ld, trump,
                                             forced_trump)
                s_moves[d] = moves
                s_kind[d] = _MIN
            if s_kind[d] != _LEAF:
                s_started[d] = False
                acc[d] = np.empty((0, w), dtype=np.int64)
                res = np.empty((0, w), dtype=np.int64)
        else:
            # the child's front ``res`` comes back to frame d
            if s_kind[d] == _MAX:
                acc[d] = _union(acc[d], res, work)
            elif s_started[d]:
                acc[d] = _product(acc[d], res, work, budget)
            else:
                acc[d] = res
                s_started[d] = True
        if work[0] > budget:
            return np.empty((0, w), dtype=np.int64)
        if s_kind[d] == _LEAF or s_moves[d] == 0:
            if s_kind[d] != _LEAF:
                res = acc[d]
            if d == 0:
                return res
            d -= 1
            continue
        bit = lowest_bit(s_moves[d])
        s_moves[d] ^= bit
        c = bit_index(bit)
        o = s_own[d]
        g = s_gone[d]
        ld = s_led[d]
        lead = s_leader[d]
        who = lead if ld < 0 else 1 - lead
        if who == mover:
            s_own[d + 1] = np.uint32(o & ~bit)
            s_gone[d + 1] = g
            s_m[d + 1] = s_m[d] - 1
            s_valid[d + 1, :] = s_valid[d, :]
        else:
            s_own[d + 1] = o
            s_gone[d + 1] = np.uint32(g | bit)
            s_m[d + 1] = s_m[d]
            for k in range(w):
                s_valid[d + 1, k] = s_valid[d, k] and (
                    legal_moves(np.uint32(hands[k] & ~g), ld, trump, forced_trump) & bit) != 0
        if ld < 0:
            s_leader[d + 1] = lead
            s_tricks[d + 1] = s_tricks[d]
            s_led[d + 1] = c
        else:
            winner = lead if leader_wins(ld, c, trump) else 1 - lead
            s_leader[d + 1] = winner
            s_tricks[d + 1] = s_tricks[d] + (1 if winner == ELDER else 0)
            s_led[d + 1] = -1
        d += 1
        entering = True


@njit(cache=True)
def _after_own(own, leader, tricks, led, trump, c):
    """The position after the mover's card ``c``: (own, leader, tricks, led)."""
    bit = np.uint32(1) << np.uint32(c)
    if led < 0:
        return np.uint32(own & ~bit), leader, tricks, np.int64(c)
    winner = leader if leader_wins(led, c, trump) else 1 - leader
    return (np.uint32(own & ~bit), np.int64(winner),
            np.int64(tricks + (1 if winner == ELDER else 0)), np.int64(-1))


@njit(cache=True)
def root_totals(mover, own, hands, leader, tricks, led, trump, forced_trump, pay, m, moves,
                cards, totals):
    """For each card of ``moves`` (by index, into ``cards``): the best total over the
    worlds of a vector of its front (``m`` >= 1 the mover's moves searched, this one
    included) into ``totals``. Returns the number of cards. Without a budget:
    :func:`bounded_root_totals`."""
    return bounded_root_totals(mover, own, hands, leader, tricks, led, trump, forced_trump,
                               pay, m, moves, cards, totals, np.zeros(1, dtype=np.int64),
                               UNBOUNDED)


@njit(cache=True)
def bounded_root_totals(mover, own, hands, leader, tricks, led, trump, forced_trump, pay, m,
                        moves, cards, totals, work, budget):
    """:func:`root_totals` counting its work into ``work[0]``; -1 once the count passes
    ``budget`` (the totals then incomplete)."""
    w = hands.shape[0]
    valid = np.ones(w, dtype=np.bool_)
    n = 0
    rest = np.uint32(moves)
    while rest:
        bit = lowest_bit(rest)
        rest ^= bit
        c = bit_index(bit)
        o, lead, t, ld = _after_own(own, leader, tricks, led, trump, c)
        f = bounded_front(o, hands, valid, np.uint32(0), lead, t, ld, trump, forced_trump,
                          mover, pay, m - 1, work, budget)
        if work[0] > budget:
            return -1
        best = np.int64(-(1 << 40))
        for i in range(f.shape[0]):
            s = np.int64(0)
            for k in range(w):
                s += f[i, k]
            if s > best:
                best = s
        cards[n] = c
        totals[n] = best
        n += 1
    return n


@njit(cache=True)
def alphamu_card(mover, own, hands, leader, tricks, led, trump, forced_trump, pay, m, moves,
                 tie):
    """The card of ``moves`` with the best :func:`root_totals` total; among equals ``tie``
    if it is one, else the lowest index. Without a budget: :func:`bounded_alphamu_card`."""
    return bounded_alphamu_card(mover, own, hands, leader, tricks, led, trump, forced_trump,
                                pay, m, moves, tie, np.zeros(1, dtype=np.int64), UNBOUNDED)


@njit(cache=True)
def bounded_alphamu_card(mover, own, hands, leader, tricks, led, trump, forced_trump, pay, m,
                         moves, tie, work, budget):
    """:func:`alphamu_card` counting its work into ``work[0]``; ``tie`` once the count
    passes ``budget``."""
    cards = np.zeros(10, dtype=np.int64)
    totals = np.zeros(10, dtype=np.int64)
    n = bounded_root_totals(mover, own, hands, leader, tricks, led, trump, forced_trump, pay,
                            m, moves, cards, totals, work, budget)
    if n < 0:
        return np.int64(tie)
    best = totals[:n].max()
    for i in range(n):
        if cards[i] == tie and totals[i] == best:
            return np.int64(tie)
    for i in range(n):
        if totals[i] == best:
            return np.int64(cards[i])
    return np.int64(-1)


@njit(cache=True)
def mover_pay(mover, payoff):
    """The deal's marks for ``mover`` by the elder's tricks 0..5 (``payoff``: ``PAYOFF``,
    the elder's points minus the dealer's, Laws 48–49)."""
    pay = np.empty(6, dtype=np.int64)
    for t in range(6):
        v = payoff[_P.POINTS + t]
        pay[t] = v if mover == ELDER else -v
    return pay


@njit(cache=True, nogil=True)
def alphamu_decide(mover, own_start, unseen, plays, n_played, trump, forced_trump, worlds,
                   seed, index, cfg, script, rec, payoff, hands, last_tricks, m):
    """The ``alphamu`` card of ``mover`` at card ``n_played`` of deal ``index`` (arguments
    as :func:`~ecarte_sim.engine.ecarte.play.single.decide`): ``pimc-inference``'s card, but on
    the last ``last_tricks`` tricks (``n_played >= 10 - 2 * last_tricks``) with a choice,
    αμ with ``m`` over the same worlds (ties to ``pimc-inference``'s card) within
    :data:`DEFAULT_BUDGET` (past it, ``pimc-inference``'s card). Returns (the card,
    ``pimc-inference``'s card, whether αμ searched). The GIL is released while it runs.
    Its work and whether it stopped: :func:`alphamu_decide_counted`."""
    r = alphamu_decide_counted(mover, own_start, unseen, plays, n_played, trump,
                               forced_trump, worlds, seed, index, cfg, script, rec, payoff,
                               hands, last_tricks, m, DEFAULT_BUDGET)
    return r[0], r[1], r[2]


@njit(cache=True, nogil=True)
def alphamu_decide_counted(mover, own_start, unseen, plays, n_played, trump, forced_trump,
                           worlds, seed, index, cfg, script, rec, payoff, hands, last_tricks,
                           m, budget):
    """:func:`alphamu_decide` with the work budget ``budget`` (:data:`DEFAULT_BUDGET`'s
    units). Returns (the card, ``pimc-inference``'s card, whether αμ searched, whether it
    stopped at the budget and played ``pimc-inference``'s card, the work counted)."""
    cards = np.zeros(5, dtype=np.int64)
    outcomes = np.zeros((1, 5), dtype=np.int64)
    r = decide(mover, own_start, unseen, plays, n_played, trump, forced_trump, worlds, seed,
               index, cfg, script, rec, payoff, hands, False, cards, outcomes)
    pimc = r[0]
    moves = np.uint32(r[2])
    work = np.zeros(1, dtype=np.int64)
    if moves & (moves - np.uint32(1)) == 0 or n_played < 10 - 2 * last_tricks:
        return pimc, pimc, False, False, np.int64(0)
    own = np.uint32(own_start)
    for j in range(n_played):
        own = np.uint32(own & ~(np.uint32(1) << np.uint32(plays[j])) & _FULL)
    card = bounded_alphamu_card(mover, own, hands[:worlds], r[3], r[4], r[5], trump,
                                forced_trump, mover_pay(mover, payoff), m, moves, pimc, work,
                                budget)
    return card, pimc, True, work[0] > budget, work[0]


@njit(cache=True)
def keyed_alphamu_card(mover, own_start, unseen, plays, n_played, trump, forced_trump, worlds,
                       seed, cfg, script, rec, payoff, hands, last_tricks, m):
    """:func:`alphamu_decide`'s card with the words of the index
    :func:`~ecarte_sim.engine.ecarte.play.keyed.info_key` gives the mover's information (his
    role, hand at the first card, cards never seen, what was said, the cards played):
    a function of what he knows, with ``last_tricks = 0`` the keyed ``pimc-inference``."""
    index = info_key(seed, mover, own_start, unseen, rec, plays, n_played)
    return alphamu_decide(mover, own_start, unseen, plays, n_played, trump, forced_trump,
                          worlds, seed, index, cfg, script, rec, payoff, hands, last_tricks,
                          m)[0]


@njit(cache=True, nogil=True)
def keyed_alphamu_cards(mover, starts, thrown, unseen_of_start, plays, n_played, trump,
                        forced_trump, worlds, seed, cfg, script, rec, payoff, last_tricks, m,
                        out):
    """:func:`keyed_alphamu_card` for many hands of the same mover after the same public
    play (as :func:`~ecarte_sim.engine.ecarte.play.keyed.keyed_cards_thrown`): ``out[i]`` the
    card of the player whose hand at the first card was ``starts[i]`` and who threw
    ``thrown[i]`` (his cards never seen: ``unseen_of_start & ~(starts[i] | thrown[i])``);
    a single legal card is played without asking. Returns how many hands had a choice."""
    asked = 0
    hands = np.zeros(max(worlds, 1), dtype=np.uint32)
    for i in range(starts.shape[0]):
        own = np.uint32(starts[i])
        only, unseen = hand_to_play(mover, own, thrown[i], unseen_of_start, plays, n_played,
                                    trump, forced_trump)
        if only >= 0:
            out[i] = only
            continue
        asked += 1
        out[i] = keyed_alphamu_card(mover, own, unseen, plays, n_played, trump, forced_trump,
                                    worlds, seed, cfg, script, rec, payoff, hands, last_tricks,
                                    m)
    return asked
