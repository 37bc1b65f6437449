"""Per-state action values: a first decision's two actions played on the same deals.

For one canonical first-decision state (:mod:`ecarte_sim.engine.ecarte.decisions.states`) and
its two actions — the elder's *propose* / *play* (Laws 25–26), the dealer's *accept* /
*refuse* (Law 25) — :func:`marks_block` deals ``k = 0, 1, ...`` consistent with the
state and plays each deal twice, once per action (common random numbers: the same
hands, turn-up and stock in both arms, the later rounds left to the policies in
``cfg``). It counts the pair of *marks codes* (:func:`marks_code`: who marked a king,
Laws 22–24, and who scored the point or vole and how many marks it gave, Laws 48–49,
Law 49's doubling included) — a 16 × 16 joint table per state, from which the value
of each action at every score follows (scores only reweight these codes,
:mod:`ecarte_sim.analysis.ecarte.solving.proposal_game`).

Deals consistent with a state. The state's member (turn-up, hand) is drawn
uniformly: one of the 24 relabellings of the four suits applied to the state's
representative (every member is reached by the same number of relabellings, the
coset of the representative's stabiliser, so the draw is uniform on the members —
the weights of :func:`~ecarte_sim.engine.ecarte.decisions.states.state_weights`). The rest of
the pack is dealt around that hand uniformly
(:func:`~ecarte_sim.engine.ecarte.deals.experiments.deal_around`).

* Role ``ELDER_ROLE``: the state is the elder's hand; arm a forces *propose*, arm b
  *play* in round 0 (``cfg_a``/``cfg_b``: ``ElderFirst``).
* Role ``DEALER_ROLE``: the state is the dealer's hand; the dealer answers only a
  proposal, so the elder's hand is redrawn (up to ``ATTEMPTS - 1`` attempts) until
  the elder's policy in ``cfg_a`` proposes with it — rejection sampling from the deal
  given the state, conditioned on a proposal. Arm a forces *accept*, arm b *refuse*.
  ``attempts[j]`` counts the hands drawn and ``missed[j]`` the deals where no attempt
  proposed, so ``(n) / attempts`` estimates P(proposal | state).
* Role ``ELDER_DISCARD_ROLE``: the state is the elder's hand at his first exchange.
  Both arms force *propose* and *accept*; the dealer's hand is redrawn until the
  dealer's policy in ``cfg_a`` accepts (the deal given the state and an exchange), and
  the arms differ in the elder's first discard (``elder_first_discard`` of ``cfg``).
* Role ``DEALER_DISCARD_ROLE``: the dealer's hand at his first exchange: the elder's
  hand redrawn until his policy proposes, both arms accept, and differ in the dealer's
  first discard.
  Every state has a discard value, also one whose holder would not exchange in round
  0: the same table is read on the hand of a later round (the documented abstraction
  of :mod:`ecarte_sim.engine.ecarte.decisions.policies`).

Deal indices (each a pure function of role, state, deal and attempt, so the counts
are bit-identical for any thread count or order of work)::

    index = STRATEGY_DEALS_START + role << 40 + id << 22 + k << 6 + attempt

with ``attempt < 63``; the relabelling is drawn from ``attempt = 63``. They lie in
``[2^41, 2^42)``, above the plain deals (< 2^40) and the score table (2^40…) and
below the class samples (2^43…). The discard roles use the same scheme from
``DISCARD_DEALS_START = 3 * 2^41`` (``(role - 2) << 40``), so every discard rule of a
state is tried on the same deals. Fresh deals for evaluating a chosen table are drawn
from ``[FRESH_DEALS_START, DISCARD_DEALS_START)``, never from these ranges.

Solving and checking. A solve samples deals ``k < SOLVE_DEALS`` of a state (half the
room); the advice on one hand and the per-hand audit of a strategy read deals
``CHECK_DEALS_START <= k < MAX_DEALS`` of the same state, so for any two seeds a
check never replays a deal that chose the table it checks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.batch import each_row
from ecarte_sim.engine.cards import N_SUITS
from ecarte_sim.engine.ecarte.deals.counts import deal_code
from ecarte_sim.engine.ecarte.deals.experiments import uniform_below, deal_around
from ecarte_sim.engine.ecarte.deals.whole import deal_scratch, inference_scratch, play_dealt
from ecarte_sim.engine.ecarte.decisions.policies import dealer_accepts, elder_proposes, score_slot
from ecarte_sim.engine.ecarte.settings import CFG

C = CFG.at
ELDER_ROLE, DEALER_ROLE, ELDER_DISCARD_ROLE, DEALER_DISCARD_ROLE = 0, 1, 2, 3
#: Marks codes: 4 * king (``KINGS``) + points (``POINTS`` of :mod:`..records`, 0–3).
N_MARKS = 16
STRATEGY_DEALS_START = 1 << 41
FRESH_DEALS_START = 1 << 42
DISCARD_DEALS_START = 3 << 41
STATE_BITS, DEAL_BITS, ATTEMPT_BITS = 18, 16, 6
#: Deals per state the index scheme has room for, and hands drawn per deal (dealer role).
MAX_DEALS = 1 << DEAL_BITS
#: Deals ``k`` a solve may sample per state, and the first ``k`` of the checks (module
#: docstring: the advice's and the audit's deals are never a solve's).
SOLVE_DEALS = MAX_DEALS // 2
CHECK_DEALS_START = SOLVE_DEALS
#: Deals per state (per turn-up) a check has room for.
CHECK_DEALS = MAX_DEALS - CHECK_DEALS_START
ATTEMPTS = (1 << ATTEMPT_BITS) - 1
_RELABEL = (1 << ATTEMPT_BITS) - 1
_ROLE_SHIFT = STATE_BITS + DEAL_BITS + ATTEMPT_BITS
assert STRATEGY_DEALS_START + (2 << _ROLE_SHIFT) <= FRESH_DEALS_START
assert DISCARD_DEALS_START + (2 << _ROLE_SHIFT) <= 1 << 43   # below the class samples
# the six orders of the three plain suits
_ORDERS = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]],
                   dtype=np.int64)


@njit(cache=True)
def marks_code(rec):
    """``4 * king + points`` of a played deal (module docstring): its
    :func:`~ecarte_sim.engine.ecarte.deals.counts.deal_code` without the "no point" column, which
    an untruncated deal never has."""
    code = deal_code(rec)
    return 4 * (code // 5) + code % 5


@njit(cache=True)
def deal_index(role, state, k, attempt):
    """The deal index of attempt ``attempt`` of deal ``k`` of ``state`` (module docstring)."""
    if role < ELDER_DISCARD_ROLE:
        base = STRATEGY_DEALS_START + (role << _ROLE_SHIFT)
    else:
        base = DISCARD_DEALS_START + ((role - ELDER_DISCARD_ROLE) << _ROLE_SHIFT)
    return np.uint64(base + (state << (DEAL_BITS + ATTEMPT_BITS)) + (k << ATTEMPT_BITS)
                     + attempt)


@njit(cache=True)
def relabelled(hand, turn_up, r):
    """(hand, turn-up) with the suits relabelled by ``r`` in 0..23: the turn-up's suit
    goes to suit ``r // 6`` and the other three, in ascending order, to the remaining
    suits in the order ``r % 6`` of ``_ORDERS``."""
    old_trump = turn_up >> 3
    new_trump = r // 6
    targets = np.empty(3, dtype=np.int64)
    n = 0
    for s in range(N_SUITS):
        if s != new_trump:
            targets[n] = s
            n += 1
    out = np.uint32(0)
    i = 0
    for s in range(N_SUITS):
        byte = (np.uint32(hand) >> np.uint32(8 * s)) & np.uint32(0xFF)
        if s == old_trump:
            to = new_trump
        else:
            to = targets[_ORDERS[r % 6, i]]
            i += 1
        out |= byte << np.uint32(8 * to)
    return out, new_trump * 8 + (turn_up & 7)


@njit(cache=True, nogil=True)
def marks_row(j, seed, role, hands, turn_ups, ids, relabel, k_lo, k_hi, cfg_a, cfg_b, script,
              out, attempts, missed, infer):
    """Row ``j`` (hand ``hands[j]``) of :func:`marks_block`."""
    perm, draws, pool, payoff, rec = deal_scratch()
    slot = score_slot(cfg_a[C.ELDER_SCORE], cfg_a[C.DEALER_SCORE])
    for k in range(k_lo[j], k_hi[j]):
        hand = np.uint32(hands[j])
        turn_up = turn_ups[j]
        if relabel:
            r, _ = uniform_below(seed, deal_index(role, ids[j], k, _RELABEL), 0, 24,
                                  draws)
            hand, turn_up = relabelled(hand, turn_up, r)
        trump = turn_up >> 3
        index = deal_index(role, ids[j], k, 0)
        if role == ELDER_ROLE:
            other, _ = deal_around(seed, index, hand, turn_up, trump, perm, draws)
            elder, dealer = hand, other
        else:
            found = False
            for a in range(ATTEMPTS):
                index = deal_index(role, ids[j], k, a)
                other, _ = deal_around(seed, index, hand, turn_up, trump, perm, draws)
                attempts[j] += 1
                if role == ELDER_DISCARD_ROLE:
                    found = dealer_accepts(cfg_a[C.DEALER_POLICY], other, trump, 0,
                                           script, turn_up, slot)
                else:
                    found = elder_proposes(cfg_a[C.ELDER_POLICY], cfg_a[C.THRESHOLD],
                                           other, trump, 0, script, turn_up, slot)
                if found:
                    break
            if not found:
                missed[j] += 1
                continue
            if role == ELDER_DISCARD_ROLE:
                elder, dealer = hand, other
            else:
                elder, dealer = other, hand
        play_dealt(seed, index, cfg_a, script, rec, perm, draws, pool, payoff, elder,
                   dealer, turn_up, infer)
        code_a = marks_code(rec)
        play_dealt(seed, index, cfg_b, script, rec, perm, draws, pool, payoff, elder,
                   dealer, turn_up, infer)
        out[j, N_MARKS * code_a + marks_code(rec)] += 1


def marks_block(seed, role, hands, turn_ups, ids, relabel, k_lo, k_hi, cfg_a, cfg_b, script,
                out, attempts, missed):
    """For row ``j`` (hand ``hands[j]`` with ``turn_ups[j]``, deal indices of state
    ``ids[j]``; a uniform member of its state when ``relabel``), deals
    ``k_lo[j] <= k < k_hi[j]`` played under ``cfg_a`` and ``cfg_b``: adds 1 to
    ``out[j, 16 * code_a + code_b]`` per deal (module docstring for the roles)."""
    each_row(marks_row, hands.shape[0], seed, role, hands, turn_ups, ids, relabel, k_lo, k_hi,
             cfg_a, cfg_b, script, out, attempts, missed, inference_scratch(cfg_a, cfg_b))


__all__ = ["marks_block", "marks_code", "relabelled", "deal_index", "ELDER_ROLE",
           "DEALER_ROLE", "ELDER_DISCARD_ROLE", "DEALER_DISCARD_ROLE", "N_MARKS",
           "STRATEGY_DEALS_START", "FRESH_DEALS_START", "DISCARD_DEALS_START", "MAX_DEALS",
           "SOLVE_DEALS", "CHECK_DEALS_START", "CHECK_DEALS", "ATTEMPTS"]
