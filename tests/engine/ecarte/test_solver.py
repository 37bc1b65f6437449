"""The double-dummy kernels against the independent reference, and against themselves."""

import multiprocessing as mp
import os

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ecarte_sim.engine.cards import CardError
from ecarte_sim.engine.ecarte import reference
from ecarte_sim.engine.ecarte.deals.simulate import simulate_counts
from ecarte_sim.engine.ecarte.laws.deal import deal
from ecarte_sim.engine.ecarte.laws.tricks import ELDER
from ecarte_sim.engine.ecarte.search import solver
from helpers import REPO


def _compare_deals(seed, start, stop, forced_trump=True):
    """Solve deals [start, stop) both ways; return the list of disagreements."""
    bad = []
    for i in range(start, stop):
        d = deal(seed, i)
        fast = solver.solve(d.elder, d.dealer, d.trump, forced_trump=forced_trump)
        slow = reference.solve(d.elder, d.dealer, d.trump, forced_trump=forced_trump)
        if fast != slow:
            bad.append((i, fast, slow))
    return bad


def test_solver_equals_reference_on_20000_deals():
    assert _compare_deals(20261122, 0, 20_000) == []


def test_solver_equals_reference_without_forced_trumping():
    assert _compare_deals(4, 0, 2_000, forced_trump=False) == []


def _random_midhand(rng, seed, index, forced_trump):
    """Play a random legal prefix (0-9 cards) of deal ``index``."""
    d = deal(seed, index)
    pos = reference.make_position([c for c in range(32) if d.elder >> c & 1],
                                  [c for c in range(32) if d.dealer >> c & 1], d.trump,
                                  forced_trump=forced_trump)
    for _ in range(int(rng.integers(0, 10))):
        pos = reference.play(pos, int(rng.choice(sorted(reference.legal_moves(pos)))))
    return pos


@pytest.mark.parametrize("forced_trump", [True, False])
def test_midhand_values_and_moves_equal_reference(forced_trump):
    """Any leader, any trick, with or without a card already led."""
    rng = np.random.default_rng(7)
    for i in range(1500):
        p = _random_midhand(rng, 99, i, forced_trump)
        args = (p.elder, p.dealer, p.trump, p.leader, p.elder_tricks, p.led, forced_trump)
        assert solver.solve(*args) == reference.solve(*args), p
        assert solver.move_values(*args) == reference.move_values(*args), p


@given(st.integers(0, 10**6), st.integers(-1, 5), st.integers(1, 6))
def test_windowed_search_is_a_correct_bound(index, alpha, width):
    """Fail-soft alpha-beta: exact inside the window, the right bound outside."""
    beta = alpha + width
    d = deal(31, index)
    exact = solver.solve(d.elder, d.dealer, d.trump)
    v = int(solver.search(np.uint32(d.elder), np.uint32(d.dealer), ELDER, 0, -1, d.trump,
                          True, alpha, beta))
    assert_fail_soft(v, exact, alpha, beta)


def assert_fail_soft(v, exact, alpha, beta):
    """A fail-soft alpha-beta result: exact inside the window, the right bound outside."""
    if v <= alpha:
        assert exact <= v
    elif v >= beta:
        assert exact >= v
    else:
        assert exact == v


def test_point_vole_answer_equals_exact_histogram():
    n = 300_000
    exact = simulate_counts(8, 0, n, "exact")
    fast = simulate_counts(8, 0, n, "point-vole")
    assert fast[solver.DEALER_VOLE] == exact[0]
    assert fast[solver.DEALER_POINT] == exact[1:3].sum()
    assert fast[solver.ELDER_POINT] == exact[3:5].sum()
    assert fast[solver.ELDER_VOLE] == exact[5]


@pytest.mark.quick
def test_is_point_and_checks():
    # seed 002: "A holds queen, ace, and seven of hearts (trumps), king of spades, king of
    # diamonds ... Y holds king, knave, nine, and eight of hearts, and nine of clubs, and
    # must win the point"
    from ecarte_sim.engine.cards import parse_hand
    assert not solver.is_point(parse_hand("QH AH 7H KS KD"), parse_hand("KH JH 9H 8H 9C"), 1)
    with pytest.raises(CardError):
        solver.solve([0, 1], [0, 2], 0)              # a card in both hands
    with pytest.raises(CardError):
        solver.solve([0, 1], [2], 0)                 # unequal hands, nothing led
    with pytest.raises(CardError):
        solver.solve([0, 32, 1], [2, 3, 4], 0)       # not a card
    with pytest.raises(CardError):
        solver.solve([0, 0, 1], [2, 3, 4], 0)        # listed twice
    with pytest.raises(CardError):
        solver.solve([0, 1], [2, 3], 0, led=5)       # led card but equal hands
    assert solver.solve([], [], 2, elder_tricks=3) == 3


def _compare_chunk(args):
    seed, start, stop = args
    return _compare_deals(seed, start, stop)


@pytest.mark.slow
def test_solver_equals_reference_on_a_million_deals():
    n, step = 1_000_000, 20_000
    jobs = [(555, lo, lo + step) for lo in range(0, n, step)]
    with mp.get_context("spawn").Pool(os.cpu_count()) as pool:
        bad = [b for chunk in pool.imap_unordered(_compare_chunk, jobs) for b in chunk]
    assert bad == []


@pytest.mark.slow
def test_midhand_many_positions():
    rng = np.random.default_rng(2)
    for i in range(50_000):
        p = _random_midhand(rng, 3, i, True)
        args = (p.elder, p.dealer, p.trump, p.leader, p.elder_tricks, p.led)
        assert solver.move_values(*args) == reference.move_values(*args), p


# --------------------------------------------------------------------------- move primitives

_hands = st.lists(st.integers(0, 31), min_size=2, max_size=10, unique=True).filter(
    lambda cards: len(cards) % 2 == 0)


@given(_hands, st.integers(0, 3), st.sampled_from([ELDER, 1]), st.booleans())
def test_sure_trick_bounds_hold_against_the_reference(cards, trump, leader, forced_trump):
    """future_bounds(): the elder's remaining tricks with best play (the independent
    reference) lie within the sure-trick bounds, at any trick, for either leader."""
    from ecarte_sim.engine.ecarte.search.moves import future_bounds
    half = len(cards) // 2
    elder, dealer = cards[:half], cards[half:]
    lowest, highest = future_bounds(np.uint32(sum(1 << c for c in elder)),
                                    np.uint32(sum(1 << c for c in dealer)), leader, trump)
    exact = reference.solve(elder, dealer, trump, leader=leader, elder_tricks=5 - half,
                            forced_trump=forced_trump) - (5 - half)
    assert lowest <= exact <= highest


def _runs(moves, own, other, led):
    """Runs of equivalent cards, by brute force: walk each suit from the top, skipping the
    cards out of play; consecutive cards of ``own`` form a run."""
    in_play = own | other | ((1 << led) if led >= 0 else 0)
    runs = []
    for suit in range(4):
        current = []
        for card in range(8 * suit + 7, 8 * suit - 1, -1):
            if not in_play >> card & 1:
                continue
            if own >> card & 1:
                current.append(card)
            elif current:
                runs.append(current)
                current = []
        if current:
            runs.append(current)
    return [[c for c in run if moves >> c & 1] for run in runs if any(moves >> c & 1 for c in run)]


@pytest.mark.quick
@given(st.lists(st.integers(0, 31), min_size=1, max_size=11, unique=True), st.integers(1, 10),
       st.booleans())
def test_distinct_cards_keep_one_card_of_each_run(cards, split, with_led):
    """distinct_moves keeps the highest card of each run of equivalent cards and
    distinct_low the lowest (one addition instead of a loop); both keep exactly one."""
    from ecarte_sim.engine.ecarte.search.moves import distinct_low, distinct_moves
    split = min(split, len(cards))
    own = sum(1 << c for c in cards[:split])
    rest = cards[split:]
    led = rest[0] if with_led and rest else -1
    other = sum(1 << c for c in rest if c != led)
    runs = _runs(own, own, other, led)
    high = int(distinct_moves(np.uint32(own), np.uint32(own), np.uint32(other), led))
    low = int(distinct_low(np.uint32(own), np.uint32(own), np.uint32(other), led))
    assert high == sum(1 << max(run) for run in runs)
    assert low == sum(1 << min(run) for run in runs)


def _random_position(seed, index, plies, forced_trump):
    """Deal ``index`` of ``seed`` after ``plies`` random legal cards (the reference's play):
    its exact value by the reference, and the kernel's arguments (elder, dealer, leader,
    elder tricks, card led or -1, trump, forced_trump)."""
    rng = np.random.default_rng(index)
    d = deal(seed, index)
    p = reference.make_position([c for c in range(32) if d.elder >> c & 1],
                                [c for c in range(32) if d.dealer >> c & 1], d.trump,
                                forced_trump=forced_trump)
    for _ in range(plies):
        p = reference.play(p, int(rng.choice(sorted(reference.legal_moves(p)))))
    exact = reference.solve(p.elder, p.dealer, p.trump, p.leader, p.elder_tricks, p.led,
                            forced_trump)
    return exact, (np.uint32(sum(1 << c for c in p.elder)),
                   np.uint32(sum(1 << c for c in p.dealer)), p.leader, p.elder_tricks,
                   -1 if p.led is None else p.led, p.trump, forced_trump)


@given(st.integers(0, 10**6), st.integers(0, 9), st.integers(-1, 5), st.integers(1, 6),
       st.booleans())
def test_windowed_search_from_any_position_is_a_correct_bound(index, plies, alpha, width,
                                                              forced_trump):
    """Fail-soft alpha-beta from mid-hand positions (the three- and two-trick endings are
    searched inside the window): exact inside it, the right bound outside."""
    exact, position = _random_position(17, index, plies, forced_trump)
    beta = alpha + width
    v = int(solver.search(*position, alpha, beta))
    assert_fail_soft(v, exact, alpha, beta)


@given(st.integers(0, 10**6), st.integers(0, 9), st.booleans())
def test_vole_question_from_any_position(index, plies, forced_trump):
    """takes_every_trick_from (the narrow vole search the point/vole answers use) says a
    side takes every trick exactly when the reference's best play gives the elder 5 (or 0)."""
    exact, position = _random_position(23, index, plies, forced_trump)
    assert solver.takes_every_trick_from(*position, True) == (exact == 5)
    assert solver.takes_every_trick_from(*position, False) == (exact == 0)


@pytest.mark.quick
def test_generated_search_is_current():
    """engine/ecarte/search/tricks_left.py is exactly what scripts/gen_tricks_left.py writes (the
    depths are expanded from one template; an edit by hand would let them drift)."""
    import subprocess
    import sys

    script = REPO / "scripts" / "gen_tricks_left.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr


def test_generator_check_notices_a_stale_file(tmp_path, monkeypatch):
    """The check above can fail: against a file that differs by one character it exits 1."""
    import importlib.util

    script = REPO / "scripts" / "gen_tricks_left.py"
    spec = importlib.util.spec_from_file_location("gen_tricks_left", script)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    stale = tmp_path / "tricks_left.py"
    stale.write_text(gen.source().replace("alpha >= beta", "alpha > beta", 1), encoding="utf-8")
    monkeypatch.setattr(gen, "TARGET", stale)
    assert gen.main(["--check"]) == 1
    stale.write_text(gen.source(), encoding="utf-8")
    assert gen.main(["--check"]) == 0
