"""pimc-inference: worlds drawn from the posterior given the proposals.

The sampled worlds against the plain reference's enumeration of every history (after a
refusal, after one exchange); the true hand always fits; worlds hold only cards the
opponent may hold; a model that ignores the hand is plain PIMC deal for deal; the same
counts for any chunk and block; bad input is one line and exit 2."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

from ecarte_sim.engine.cards import parse_card, parse_hand
from ecarte_sim.engine.ecarte import reference as R
from ecarte_sim.engine.ecarte.deals.counts import whole_counts
from ecarte_sim.engine.ecarte.deals.runner import DealRunner
from ecarte_sim.engine.ecarte.decisions.policies import empty_script
from ecarte_sim.engine.ecarte.laws.tricks import DEALER, ELDER
from ecarte_sim.engine.ecarte.play.inferred_worlds import (INFER_WORK_ROWS, MAX_PARTICLES,
                                                           PARTICLE_COLUMNS, PARTICLE_CUMULATIVE,
                                                           PARTICLE_HELD, PARTICLE_WEIGHT,
                                                           _draw_below, _guide, _particle_at,
                                                           draw_inferred_worlds, opponent_counts,
                                                           opponent_fits)
from ecarte_sim.engine.ecarte.records import COUNTS, PAYOFF, REC, ProposalsEnd
from ecarte_sim.engine.ecarte.settings import Discard, make_cfg
from stats_helpers import chi2_stat, chi2_upper

FULL = (1 << 32) - 1
ACE, KING = 4, 7   # ranks in a suit: 7 8 9 10 ace knave queen king


def mask(cards) -> int:
    return sum(1 << int(c) for c in cards)


def situation(elder0: str, turn_up: str, how: ProposalsEnd, exchanges=()):
    """A synthetic record: the elder's dealt hand, the turn-up, how the proposals ended,
    and per exchange (elder out, elder in, dealer out, dealer in) as card texts."""
    rec = np.zeros(REC.size, dtype=np.int64)
    at = REC.at
    rec[at.ELDER0] = int(parse_hand(elder0))
    rec[at.TURN_UP] = parse_card(turn_up)
    rec[at.HOW_ENDED] = int(how)
    rec[at.EXCHANGES] = len(exchanges)
    for r, cards in enumerate(exchanges):
        for j, text in enumerate(cards):
            rec[at.EXCHANGE_CARDS + 4 * r + j] = int(parse_hand(text)) if text else 0
    return rec


def sample_worlds(cfg, rec, mover, unseen, possible, shown, count, n, seed=11, decision=0):
    """World 0 of ``decision`` for deals 0..n-1 (each its own particles), as the player
    draws it; and the payoff counters summed."""
    script = empty_script()
    pool, draws = np.empty(32, dtype=np.int64), np.empty(32, dtype=np.int64)
    payoff = np.zeros(PAYOFF.size, dtype=np.int64)
    hands = np.empty(1, dtype=np.uint32)
    out = []
    for i in range(n):
        particles = np.empty((MAX_PARTICLES, PARTICLE_COLUMNS), dtype=np.int64)
        state = np.zeros(2, dtype=np.int64)
        work = np.empty((INFER_WORK_ROWS, 32), dtype=np.int64)
        draw_inferred_worlds(np.uint64(seed), np.uint64(i), decision, mover, cfg, script, rec,
                             np.uint32(unseen), np.uint32(possible), np.uint32(shown), count,
                             hands, 1, particles, state, work, pool, draws, payoff)
        out.append(int(hands[0]))
    return out, payoff


def cell(hand: int, trump: int) -> tuple:
    """The cards held in each suit, and the kings: the cells of the chi-square."""
    suits = tuple(bin(hand & (0xFF << (8 * s))).count("1") for s in range(4))
    kings = sum(hand >> (8 * s + KING) & 1 for s in range(4))
    return suits + (kings,)


def compare(worlds, exact: dict, trump: int, shown: int = 0):
    """Chi-square of the sampled worlds' cells against the exact posterior's (cells with
    fewer than 5 expected are pooled)."""
    total = sum(exact.values())
    expected = Counter()
    for hand, n in exact.items():
        expected[cell(mask(hand) & ~shown, trump)] += n / total * len(worlds)
    observed = Counter(cell(w, trump) for w in worlds)
    assert set(observed) <= set(expected)   # no world the enumeration calls impossible
    big = [c for c in expected if expected[c] >= 5]
    small = [c for c in expected if expected[c] < 5]
    obs = [observed[c] for c in big] + [sum(observed[c] for c in small)]
    exp = [expected[c] for c in big] + [sum(expected[c] for c in small)]
    if not small:
        obs, exp = obs[:-1], exp[:-1]
    assert len(obs) >= 6
    stat = chi2_stat(obs, exp)
    assert stat < chi2_upper(len(obs) - 1), (stat, obs, exp)


def regle_accepts(trump):
    """The dealer's ``regle`` policy read plainly: accept iff his hand is no jeu de règle."""
    return lambda hand: R.jeu_de_regle(sorted(hand), trump) is None


def trumps_kings(trump):
    """``trumps-kings`` read plainly: throw every card that is neither a trump nor a king."""
    return lambda hand: {c for c in hand if c // 8 != trump and c % 8 != KING}


def test_worlds_after_a_refusal_are_the_exact_posterior():
    """The elder proposed and the dealer (model: regle) refused: the dealer's hand is a
    jeu de règle; every one of the 65,780 hands enumerated by the reference."""
    rec = situation("QS JS AH 7C JD", "8D", ProposalsEnd.DEALER_REFUSED)
    trump = 2
    seen = int(rec[REC.at.ELDER0]) | 1 << int(rec[REC.at.TURN_UP])
    unseen = ~seen & FULL
    cfg = make_cfg(elder_play="pimc-inference", dealer_play="dd", dealer_policy="regle")
    exact = R.opponent_posterior([c for c in range(32) if unseen >> c & 1], [],
                                 final=lambda h: not regle_accepts(trump)(h))
    worlds, payoff = sample_worlds(cfg, rec, ELDER, unseen, unseen, 0, 5, 6000)
    assert payoff[PAYOFF.at.INFER_FALLBACKS] == 0
    assert all(w & ~unseen == 0 and bin(w).count("1") == 5 for w in worlds)
    assert all(frozenset(c for c in range(32) if w >> c & 1) in exact for w in worlds)
    compare(worlds, exact, trump)


@pytest.mark.parametrize("decision", [0, 2])
def test_worlds_after_one_exchange_are_the_exact_posterior(decision):
    """The elder proposed, the dealer (model: regle) accepted and threw two cards
    (trumps-kings), then the elder played: every history of the dealer's hand (dealt,
    thrown, drawn) enumerated by the reference. At the third card the dealer has played
    a card, which every world's history must hold, and shown he holds no higher heart."""
    rec = situation("QS JS AH 7C JD", "8D", ProposalsEnd.ELDER_PLAYED,
                    [("QS JS 7C", "JH TS KC", "7H 8S", "9S TH")])
    trump = 2
    at = REC.at
    seen = int(rec[at.ELDER0]) | int(rec[at.EXCHANGE_CARDS + 1]) | 1 << int(rec[at.TURN_UP])
    unseen = ~seen & FULL
    cfg = make_cfg(elder_play="pimc-inference", dealer_play="dd", dealer_policy="regle")
    exact = R.opponent_posterior([c for c in range(32) if unseen >> c & 1],
                                 [(regle_accepts(trump), trumps_kings(trump), 2)])
    shown, possible, count = 0, unseen, 5
    if decision == 2:
        # the elder led the knave of hearts, the dealer followed with the 8: he holds no
        # higher heart (Law 43: he would have had to win)
        shown = int(parse_hand("8H"))
        absent = int(parse_hand("QH KH"))
        possible = unseen & ~shown & ~absent
        count = 4
        exact = {h: n for h, n in exact.items()
                 if mask(h) & shown == shown and mask(h) & ~shown & ~possible == 0}
    worlds, payoff = sample_worlds(cfg, rec, ELDER, unseen, possible, shown, count, 6000,
                                   decision=decision)
    assert payoff[PAYOFF.at.INFER_FALLBACKS] == 0
    assert all(w & ~possible == 0 and w & shown == 0 and bin(w).count("1") == count
               for w in worlds)
    compare(worlds, exact, trump, shown)


def two_exchanges():
    """The dealer (model: regle) accepted twice, threw one card and then two, then the
    elder played. His first discard rule keeps the aces, knaves, queens and kings, his
    second only the kings (as a forced first discard does), so how many cards of his
    first draw make him throw two the second time depends on how many aces, knaves
    and queens he kept: that draw is stratified and the particles carry unequal
    importance weights. Returns (rec, unseen, cfg, trump, the two discard rules)."""
    rec = situation("QS JS AH 7C JD", "8D", ProposalsEnd.ELDER_PLAYED,
                    [("QS JS 7C", "JH TS KC", "7H", "9S"),
                     ("TS JH", "8C 9C", "8S 9H", "TH 7S")])
    trump = 2
    at = REC.at
    seen = int(rec[at.ELDER0]) | 1 << int(rec[at.TURN_UP])
    for r in range(2):
        seen |= int(rec[at.EXCHANGE_CARDS + 4 * r + 1])
    cfg = make_cfg(elder_play="pimc-inference", dealer_play="dd", dealer_policy="regle",
                   dealer_first_discard=Discard.TRUMPS_ACES)

    def trumps_aces(hand):
        """Throw every card that is neither a trump nor an ace, knave, queen or king."""
        return {c for c in hand if c // 8 != trump and c % 8 < ACE}

    return rec, ~seen & FULL, cfg, trump, (trumps_aces, trumps_kings(trump))


def test_worlds_after_two_exchanges_are_the_exact_posterior():
    """Every history of the two exchanges enumerated by the reference."""
    rec, unseen, cfg, trump, (first, second) = two_exchanges()
    rounds = [(regle_accepts(trump), first, 1), (regle_accepts(trump), second, 2)]
    exact = R.opponent_posterior([c for c in range(32) if unseen >> c & 1], rounds)
    worlds, payoff = sample_worlds(cfg, rec, ELDER, unseen, unseen, 0, 5, 6000)
    assert payoff[PAYOFF.at.INFER_FALLBACKS] == 0
    compare(worlds, exact, trump)


def test_weighted_particles_are_the_exact_posterior_of_the_history():
    """The particles (dealt hand and first draw), resampled by their importance weights,
    against every such history that makes both decisions and both discard counts; cells:
    the plain aces, knaves, queens and the plain 7s to 10s among the cards he held (two
    cells: a binomial test). A history that kept one ace, knave or queen drew among the
    7s to 10s, aces, knaves and queens left, one that kept two among the trumps and kings
    left: the weights differ, and unweighted particles fail this test (z = -10.8)."""
    rec, unseen, cfg, trump, (first, second) = two_exchanges()
    accepts = regle_accepts(trump)
    cards = [c for c in range(32) if unseen >> c & 1]

    def cell_of(held):
        plain = [c % 8 for c in held if c // 8 != trump]
        return sum(ACE <= r < KING for r in plain), sum(r < ACE for r in plain)

    exact = Counter()
    for dealt in map(set, combinations(cards, 5)):
        if not accepts(dealt) or len(first(dealt)) != 1:
            continue
        kept = dealt - first(dealt)
        for card in set(cards) - dealt:
            if accepts(kept | {card}) and len(second(kept | {card})) == 2:
                exact[cell_of(dealt | {card})] += 1
    script = empty_script()
    pool, draws = np.empty(32, dtype=np.int64), np.empty(32, dtype=np.int64)
    payoff = np.zeros(PAYOFF.size, dtype=np.int64)
    hands = np.empty(1, dtype=np.uint32)
    pick = np.random.default_rng(5)
    observed = Counter()
    n = 3000
    for i in range(n):
        particles = np.empty((MAX_PARTICLES, PARTICLE_COLUMNS), dtype=np.int64)
        state = np.zeros(2, dtype=np.int64)
        work = np.empty((INFER_WORK_ROWS, 32), dtype=np.int64)
        draw_inferred_worlds(np.uint64(3), np.uint64(i), 0, ELDER, cfg, script, rec,
                             np.uint32(unseen), np.uint32(unseen), np.uint32(0), 5, hands, 1,
                             particles, state, work, pool, draws, payoff)
        weights = particles[:state[0], PARTICLE_WEIGHT].astype(float)
        p = pick.choice(state[0], p=weights / weights.sum())
        held = int(particles[p, PARTICLE_HELD])
        observed[cell_of([c for c in range(32) if held >> c & 1])] += 1
    # the histories held two plain aces, knaves or queens and a plain 7-10, or one and two
    assert set(observed) <= set(exact) == {(2, 1), (1, 2)}
    p = exact[1, 2] / sum(exact.values())
    z = (observed[1, 2] - n * p) / np.sqrt(n * p * (1 - p))
    assert abs(z) < 4, (observed, exact)


def test_weighted_draws_above_32_bits_are_uniform():
    """A particle is drawn among weights summing past 2**32 (several exchanges): every
    draw below the total, the eighths of the range equally often."""
    top = 3 * (1 << 32) + 12345
    draws = np.empty(1, dtype=np.int64)
    got = []
    k = 0
    for _ in range(4000):
        k = _draw_below(np.uint64(7), k, top, draws)
        got.append(int(draws[0]))
    assert 0 <= min(got) and max(got) < top
    observed = np.bincount([g * 8 // top for g in got], minlength=8)
    stat = chi2_stat(observed, [len(got) / 8] * 8)
    assert stat < chi2_upper(7), observed


@njit(cache=True)
def _guided_picks(weights, draws):
    particles = np.zeros((MAX_PARTICLES, PARTICLE_COLUMNS), dtype=np.int64)
    n = len(weights)
    total = np.int64(0)
    for p in range(n):
        total += weights[p]
        particles[p, PARTICLE_CUMULATIVE] = total
    scale = _guide(particles, n, total)
    out = np.empty(len(draws), dtype=np.int64)
    for i in range(len(draws)):
        out[i] = _particle_at(particles, n, scale, draws[i] % total)
    return out


@given(st.lists(st.integers(0, 2**53), min_size=1, max_size=MAX_PARTICLES),
       st.integers(0, 10), st.lists(st.integers(0, 2**63 - 1), min_size=1, max_size=64))
def test_the_guided_particle_search_is_the_binary_search(weights, shift, draws):
    """A particle picked by weight through the guide table is the first whose cumulative
    weight exceeds the draw, for any weights (zero weights, one heavy particle, totals up
    to 2**62) and for the draws at the edges of the buckets."""
    weights = np.array([w >> shift for w in weights], dtype=np.int64)
    if weights.sum() == 0:
        weights[-1] = 1
    total = int(weights.sum())
    n = len(weights)
    edges = [(b * total) // n + d for b in range(n) for d in (-1, 0, 1)]
    draws = np.array([d % total for d in draws] + [e % total for e in edges], dtype=np.int64)
    cumulative = np.cumsum(weights)
    expected = np.searchsorted(cumulative, draws, side="right")
    assert _guided_picks(weights, draws).tolist() == expected.tolist()


@pytest.mark.quick
def test_the_true_history_always_fits():
    """Replayed with the model he plays by, every opponent's real history (dealt hand,
    then his draws) fits, and ends in his hand at the play: the true hand has weight."""
    runner = DealRunner()
    script = empty_script()
    checked = Counter()
    for play in ("dd",):
        cfg = make_cfg(elder_play="pimc-inference", dealer_play="pimc-inference", worlds=1,
                       elder_policy="threshold", threshold=9, discard="trumps-queens")
        for index in range(300):
            d = runner.play(5, index, cfg)
            rec = runner.rec.copy()
            if d.ended:
                continue
            for opponent, dealt, hand, col in ((DEALER, d.dealer0, d.dealer_hand, 3),
                                               (ELDER, d.elder0, d.elder_hand, 1)):
                order = [c for c in range(32) if dealt >> c & 1]
                for ex in d.exchanges:
                    order += [c for c in range(32) if ex[col] >> c & 1]
                counts = np.zeros(len(d.exchanges) + 1, dtype=np.int64)
                opponent_counts(rec, opponent, counts)
                order = np.array(order + [0] * (32 - len(order)), dtype=np.int64)
                got = opponent_fits(order, opponent, cfg, script, rec, counts, 32)
                assert got == hand, (index, opponent)
                checked[len(d.exchanges) > 0] += 1
    assert checked[True] > 100 and checked[False] > 100


@pytest.mark.parametrize("case", ["elder-infers", "dealer-infers"])
def test_a_model_that_ignores_the_hand_is_plain_pimc(case):
    """The elder reads an always-accepting dealer who never draws, or the dealer an
    always-proposing elder who is always refused: the proposals say nothing of the hand,
    and the inferring player plays plain PIMC's cards, deal for deal."""
    if case == "elder-infers":
        base = dict(dealer_policy="always-accept", dealer_discard="fewest", dealer_play="dd",
                    worlds=16)
        inferring = dict(elder_play="pimc-inference", model_of_dealer="always-accept")
        plain = dict(elder_play="pimc")
    else:
        base = dict(elder_policy="always-propose", dealer_policy="always-refuse",
                    elder_play="dd", worlds=16)
        inferring = dict(dealer_play="pimc-inference", model_of_elder="always-propose")
        plain = dict(dealer_play="pimc")
    runner = DealRunner()
    at = REC.at
    worlds = 0
    for index in range(150):
        runner.play(3, index, make_cfg(**base, **plain))
        a = runner.rec.copy()
        runner.play(3, index, make_cfg(**base, **inferring))
        b = runner.rec.copy()
        assert b[at.INFER_FALLBACKS] == 0
        worlds += b[at.INFER_WORLDS]
        assert b[at.INFER_TRIES] == b[at.INFER_WORLDS]   # every first proposal is kept
        b[at.INFER_WORLDS] = b[at.INFER_TRIES] = 0
        assert np.array_equal(a, b), index
    assert worlds > 1000


class _Reversed:
    """A backend (the interface of the Dask one) that runs the tasks here, last first."""

    def map(self, task, pieces, chunk, width):
        from ecarte_sim.engine.batch import run_task
        for lo, hi in reversed(list(pieces)):
            yield lo, hi, run_task(task, lo, hi, chunk, width)


def test_counts_are_the_same_for_any_chunk_block_thread_count_and_backend():
    """(The same on a local Dask cluster: tests/engine/test_cluster.py, marked slow.)"""
    import numba
    from ecarte_sim.engine.batch import execution
    cfg = make_cfg(play="pimc-inference", worlds=8)
    one = whole_counts(9, 100, 400, cfg, chunk=300, block=300)
    many = whole_counts(9, 100, 400, cfg, chunk=7, block=64)
    assert np.array_equal(one, many)
    with execution(backend=_Reversed(), task_size=50):
        assert np.array_equal(one, whole_counts(9, 100, 400, cfg))
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = whole_counts(9, 100, 400, cfg, chunk=7, block=64)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, single)
    at = COUNTS.at
    assert one[at.INFER_WORLDS] > 0 and one[at.INFER_TRIES] >= one[at.INFER_WORLDS]


@pytest.mark.quick
def test_bad_opponent_model_is_one_line_and_exit_2(cli):
    from helpers import one_line_error
    line = one_line_error(cli("play", "--seed", "1", "--index", "0", "--play",
                              "pimc-inference",
                              "--opponent-model",
                              "nope"))
    assert "nope" in line
    line = one_line_error(cli("play", "--seed", "1", "--index", "0", "--opponent-model",
                              "maxims"))
    assert "pimc-inference" in line
    with pytest.raises(ValueError, match="named policy"):
        make_cfg(play="pimc-inference", model_of_dealer="table")


def test_forced_cards_are_played_when_legal():
    """A card forced in the script (a player's k-th card) is played whatever his model,
    when it is legal; an illegal one is left to the model."""
    from ecarte_sim.engine.ecarte.decisions.policies import S_FORCED
    runner = DealRunner()
    cfg = make_cfg(play="heuristic", elder_policy="always-play")
    free = runner.play(2, 17, cfg)
    lead = sorted(c for c in range(32) if free.elder_hand >> c & 1)[-1]
    if free.play[0] == lead:
        lead = sorted(c for c in range(32) if free.elder_hand >> c & 1)[0]
    script = empty_script()
    script[S_FORCED] = lead + 1
    forced = runner.play(2, 17, cfg, script)
    assert forced.play[0] == lead != free.play[0]
    script[S_FORCED] = 0
    script[S_FORCED + 5] = [c for c in range(32) if not free.dealer_hand >> c & 1][0] + 1
    assert runner.play(2, 17, cfg, script).play == free.play   # not his card: the model's


def test_inference_claims_follow_their_rules():
    from ecarte_sim.analysis.ecarte.claims.inference_claims import RULES, inference_claims
    rows = inference_claims(worlds=4)
    assert {r["id"] for r in rows} == {"refused-two-trumps", "strong-suits", "queen-of-spades",
                                       "put-to-a-card"}
    for r in rows:
        assert r["rule"] in RULES and r["verdict"] in ("supported", "contradicted",
                                                       "inconclusive")
        if r["rule"] == "likely":
            assert (r["verdict"] == "supported") == (r["estimate"] >= 0.5)
        if r["rule"] == "certain":
            assert (r["verdict"] == "supported") == (r["estimate"] == 1.0)
        if r["rule"] == "best-lead":
            assert (r["verdict"] == "supported") == (r["best"] in ("QS", "JS"))
        if r["id"] == "put-to-a-card":
            # the example played out: the hands where both hearts win, each third lead's
            # mean marks, and the paired difference against the third heart
            assert 0 < r["n"] < 16_725 and set(r["marks"]) == {"TH", "QD", "JS"}
            lead = "QD" if "diamond" in r["reading"] else "JS"
            assert r["estimate"] == pytest.approx(r["marks"][lead] - r["marks"]["TH"])
            assert r["ci95"][0] <= r["estimate"] <= r["ci95"][1]
