"""The search discard's kernels (engine/piquet/discard_search.py) against their plain-Python
twin, the paired experiment's invariants, and its command."""

import numba
import numpy as np
import pytest

from ecarte_sim.analysis.piquet.search import search_counts, search_summary
from ecarte_sim.engine.piquet import discard_search as D
from ecarte_sim.engine.piquet import discard_search_reference as ref
from ecarte_sim.engine.piquet.deal import deal
from ecarte_sim.engine.piquet.players import heuristic_discard
from ecarte_sim.engine.piquet.records import N_SEATS, REC, SCRATCH, STATE
from ecarte_sim.engine.piquet.settings import PiquetSettings
from ecarte_sim.engine.piquet.whole import new_solver_scratch
from helpers import json_only, one_line_error

CFG = PiquetSettings("heuristic", "heuristic").cfg()


def kernel_candidates(hand, low, high):
    out = np.zeros(D.MAX_CANDIDATES, dtype=np.int64)
    n = D.candidates(hand, low, high, np.zeros(32, np.int64), np.zeros(32, np.int64), out)
    return [int(x) for x in out[:n]]


def kernel_sums(seed, index, seat, hand, cands, samples):
    arr = np.array(cands, dtype=np.int64)
    sums = np.zeros(len(cands), dtype=np.int64)
    table, ws = new_solver_scratch(False)
    D.search_sums(np.uint64(seed), np.uint64(index), seat, hand, arr, len(cands), samples, CFG,
                  sums, np.zeros(32, np.int64), np.zeros(8, np.int64),
                  np.zeros(N_SEATS, np.int64), np.zeros(REC.size, np.int64),
                  np.zeros(32, np.int64), np.zeros(32, np.int64),
                  np.zeros(SCRATCH.size, np.int64), np.zeros((STATE.size, N_SEATS), np.uint32),
                  table, ws)
    return [int(x) for x in sums]


@pytest.mark.quick
@pytest.mark.parametrize("low,high", [(1, 5), (5, 5), (1, 3), (3, 3), (1, 7), (2, 2)])
def test_candidates_agree_with_the_reference(low, high):
    for i in range(12):
        d = deal(1, i)
        for hand in (d.elder, d.younger):
            got = kernel_candidates(hand, low, high)
            assert got == ref.candidates(hand, low, high)
            assert len(set(got)) == len(got)
            assert all(c & ~hand == 0 and low <= bin(c).count("1") <= high for c in got)
            # the largest take first, the heuristic's own discard first of all
            assert got[0] == int(heuristic_discard(hand, high, np.zeros(32, np.int64)))
            assert bin(got[-1]).count("1") == low


def test_candidate_counts_follow_the_window():
    d = deal(2, 0)
    for e, window_subsets in ((5, 56), (3, 20), (1, 4)):
        n = len(kernel_candidates(d.elder, e, e))
        assert window_subsets <= n <= window_subsets + 8      # + two per suit at most


def test_worlds_agree_with_the_reference_and_hide_nothing():
    d = deal(4, 3)
    cards = np.zeros(32, np.int64)
    draws = np.zeros(32, np.int64)
    for seat, hand in ((0, d.elder), (1, d.younger)):
        for s in (0, 1, 7, 100):
            D.search_world(np.uint64(4), np.uint64(3), seat, s, hand, cards, draws)
            got = [int(c) for c in cards[:20]]
            assert got == ref.world(4, 3, seat, s, hand)
            assert sorted(got) == [c for c in range(32) if not hand >> c & 1]
    # another world, another seat or another deal: other cards
    D.search_world(np.uint64(4), np.uint64(3), 0, 0, d.elder, cards, draws)
    a = list(cards[:20])
    D.search_world(np.uint64(4), np.uint64(3), 0, 1, d.elder, cards, draws)
    assert list(cards[:20]) != a


def test_worlds_deal_the_adversary_uniformly():
    """Each unseen card lies in the adversary's 12 with probability 12/20."""
    d = deal(0, 0)
    cards = np.zeros(32, np.int64)
    draws = np.zeros(32, np.int64)
    n = 4000
    counts = np.zeros(32)
    for s in range(n):
        D.search_world(np.uint64(0), np.uint64(0), 0, s, d.elder, cards, draws)
        counts[cards[:12]] += 1
    p = 12 / 20
    se = (p * (1 - p) / n) ** 0.5
    unseen = [c for c in range(32) if not d.elder >> c & 1]
    assert np.all(np.abs(counts[unseen] / n - p) < 5 * se)


@pytest.mark.parametrize("seat,low,high", [(0, 1, 5), (1, 1, 3)])
def test_search_sums_agree_with_the_reference(seat, low, high):
    for i in (0, 1):
        d = deal(5, i)
        hand = d.elder if seat == 0 else d.younger
        cands = ref.candidates(hand, low, high)
        got = kernel_sums(5, i, seat, hand, cands, 2)
        assert got == ref.search_sums(5, i, seat, hand, cands, 2)
        best = np.zeros(high + 1, np.int64)
        top = D.best_by_size(np.array(cands, np.int64), len(cands), np.array(got, np.int64),
                             best)
        ref_best, ref_top = ref.best_by_size(cands, got)
        assert int(top) == ref_top
        assert {e: int(best[e]) for e in ref_best} == ref_best


def test_the_experiment_row_agrees_with_the_reference():
    """Every arm of one deal replayed in plain Python from the reference's searches."""
    seed, index, samples = 6, 2, 2
    counts = np.zeros((1, D._W), np.int64)
    D.search_row(0, np.uint64(seed), index, 1, 1, CFG, CFG, samples, counts)
    c = D.SEARCH_COUNTS.read(counts[0])
    d = deal(seed, index)
    picks = {}
    for seat, hand, high in ((0, d.elder, 5), (1, d.younger, 3)):
        cands = ref.candidates(hand, 1, high)
        picks[seat] = ref.best_by_size(cands, ref.search_sums(seed, index, seat, hand, cands,
                                                               samples))
    (e_best, e_free), (y_best, y_free) = picks[0], picks[1]
    scripts = {"heuristic": (0, 0), "elder_search_free": (e_free, 0),
               "younger_search_free": (0, y_free), "both_search": (e_best[5], y_best[3]),
               **{f"elder_search_{k}": (e_best[k], 0) for k in range(1, 6)},
               **{f"younger_search_{k}": (0, y_best[k]) for k in range(1, 4)}}
    for name, (ed, yd) in scripts.items():
        e, y = ref.heuristic_deal(d.elder, d.younger, list(d.stock), ed, yd)
        assert c["margin"][D.A[name]] == e - y, name
    assert c["elder_free_take"][bin(e_free).count("1")] == 1
    assert c["younger_free_take"][bin(y_free).count("1")] == 1
    assert c["elder_as_heuristic"] == int(e_best[5] == ref.heuristic_discard(d.elder, 5))


def test_bit_identical_for_any_thread_count_row_or_task_size():
    a = search_counts(3, 10, 30, samples=3, chunk=1, block=7)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        b = search_counts(3, 10, 30, samples=3, chunk=20, block=1024)
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(a, b)
    assert a[D.Q.DEALS] == 20


def test_the_summary_is_paired_and_consistent():
    counts = search_counts(0, 0, 24, samples=4)
    s = search_summary(counts)
    assert s["deals"] == 24
    for cmp in s["comparisons"]:
        m = cmp["margin_difference"]
        assert m["mean"] == pytest.approx(cmp["margin_a"] - cmp["margin_b"])
        assert m["ci95"][0] <= m["mean"] <= m["ci95"][1]
    assert sum(v["count"] for v in s["elder_free_take"].values()) == 24
    assert sum(v["count"] for v in s["younger_free_take"].values()) == 24


def test_the_search_is_no_worse_on_its_own_worlds():
    """On the worlds it searched, the chosen discard's sum is at least the heuristic's (its
    first candidate): the search can only trade it for something better there."""
    d = deal(8, 1)
    cands = kernel_candidates(d.elder, 5, 5)
    sums = kernel_sums(8, 1, 0, d.elder, cands, 16)
    best = np.zeros(6, np.int64)
    top = D.best_by_size(np.array(cands, np.int64), len(cands), np.array(sums, np.int64), best)
    assert sums[cands.index(int(top))] >= sums[0]
    assert sums[cands.index(int(top))] == max(sums)


def test_cli_json(cli):
    r = json_only(cli("piquet", "discard-search", "--deals", "6", "--samples", "2",
                      "--seed", "1", "--json", "--quiet"))
    assert r["deals"] == 6 and r["samples"] == 2 and r["seed"] == 1
    assert [(c["a"], c["b"]) for c in r["comparisons"]] == [list(x) for x in D.COMPARISONS] \
        or [(c["a"], c["b"]) for c in r["comparisons"]] == list(D.COMPARISONS)
    assert np.array_equal(search_counts(1, 0, 6, samples=2)[D.Q.MARGIN:D.Q.MARGIN + D.N_ARMS],
                          [round(r["arms"][a]["margin"]["mean"] * 6) for a in D.ARMS])


@pytest.mark.parametrize("argv,token", [
    (["--deals", "0"], "--deals"), (["--samples", "x"], "x"), (["--seed", "-1"], "-1"),
    (["--samples", "0"], "--samples"), (["--lead-scoring", "some"], "some")])
def test_cli_bad_input_one_line_exit_2(cli, argv, token):
    message = one_line_error(cli("piquet", "discard-search", *argv))
    assert token in message


def test_bit_identical_on_a_dask_backend():
    distributed = pytest.importorskip("distributed")
    from ecarte_sim.engine.batch import execution
    from ecarte_sim.engine.cluster import DaskBackend
    expected = search_counts(2, 0, 12, samples=2)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster, set_as_default=False) as client:
        with execution(DaskBackend(client), task_size=5):
            got = search_counts(2, 0, 12, samples=2)
    assert np.array_equal(expected, got)


def test_the_arms_played_out_by_another_player_use_the_searches_discards():
    """With dd playing the arms out, each arm is the deal play_one plays with dd under the
    discards the (heuristic-evaluated) searches chose."""
    from ecarte_sim.engine.piquet.game import play_one
    seed, index, samples = 6, 2, 2
    dd = PiquetSettings("dd", "dd").cfg()
    counts = np.zeros((1, D._W), np.int64)
    D.search_row(0, np.uint64(seed), index, 1, 1, CFG, dd, samples, counts)
    c = D.SEARCH_COUNTS.read(counts[0])
    d = deal(seed, index)
    cands = ref.candidates(d.elder, 1, 5)
    e_best, _ = ref.best_by_size(cands, ref.search_sums(seed, index, 0, d.elder, cands,
                                                         samples))
    cands = ref.candidates(d.younger, 1, 3)
    y_best, _ = ref.best_by_size(cands, ref.search_sums(seed, index, 1, d.younger, cands,
                                                         samples))
    h5 = int(heuristic_discard(d.elder, 5, np.zeros(32, np.int64)))
    for name, ed, yd in (("heuristic", h5, 0), ("elder_search_5", e_best[5], 0),
                         ("elder_search_2", e_best[2], 0), ("younger_search_1", h5, y_best[1]),
                         ("both_search", e_best[5], y_best[3])):
        r = play_one(d, dd, seed, index, elder_discard=ed, younger_discard=yd)
        assert c["margin"][D.A[name]] == r.elder["total"] - r.younger["total"], name


def test_cli_help_shows_the_run_options(cli):
    r = cli("piquet", "discard-search", "--help")
    assert r.code == 0 and r.out.startswith("Usage: ecarte-sim piquet discard-search")
    for option in ("--samples", "--play", "--run-dir", "--resume", "--task-size", "--scheduler"):
        assert option in r.out


# --------------------------------------------------------------------------- simulate --discard

def _searched(seed, start, stop, discard, samples, play="heuristic", **kw):
    from ecarte_sim.analysis.piquet.search import searched_deal_counts
    return searched_deal_counts(seed, start, stop, PiquetSettings(play, play), discard,
                                samples, **kw)


@pytest.mark.parametrize("discard, arm", [(("search", "own"), "elder_search_5"),
                                          (("own", "search"), "younger_search_3"),
                                          (("search", "search"), "both_search"),
                                          (("own", "own"), "heuristic")])
@pytest.mark.parametrize("play", ["heuristic", "pimc"])
def test_simulate_with_search_discards_plays_the_experiments_arm(discard, arm, play):
    """Whole deals with a searched discard are the paired experiment's arm, deal for deal:
    the summed margin and its square equal the arm's, under the heuristic's play and the
    PIMC player's (whose discards the arms leave to him, as simulate does)."""
    from ecarte_sim.engine.piquet.records import DEAL_COUNTS
    from ecarte_sim.analysis.piquet.search import searched_deal_counts
    seed, n, samples = 5, 14, 3
    settings = PiquetSettings(play, play, worlds=4)
    got = DEAL_COUNTS.read(searched_deal_counts(seed, 0, n, settings, discard, samples))
    exp = D.SEARCH_COUNTS.read(search_counts(seed, 0, n, samples=samples, settings=settings))
    a = D.A[arm]
    assert got["deals"] == n
    assert got["elder_total"] - got["younger_total"] == exp["margin"][a]
    assert got["elder_wins"] == exp["elder_wins"][a]


def test_simulate_own_discards_are_simulate():
    from ecarte_sim.engine.piquet import simulate as S
    cfg = PiquetSettings("heuristic", "random").cfg()
    from ecarte_sim.analysis.piquet.search import searched_deal_counts
    got = searched_deal_counts(2, 0, 40, PiquetSettings("heuristic", "random"), ("own", "own"))
    assert np.array_equal(got, S.deal_counts(2, 0, 40, cfg))


def test_simulate_with_search_is_bit_identical_for_any_thread_count_or_task_size():
    a = _searched(4, 3, 23, ("search", "search"), 2, chunk=1, block=6)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        b = _searched(4, 3, 23, ("search", "search"), 2, chunk=20, block=1024)
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("argv, token", [
    (["--discard", "serch"], "serch"), (["--discard", "own,search,own"], "own,search,own"),
    (["--discard", "search", "--elder-take", "4"], "--elder-take"),
    (["--discard", "own,search", "--younger-take", "2"], "--younger-take"),
    (["--discard", "search", "--search-samples", "0"], "--search-samples")])
def test_simulate_bad_discard_one_line_exit_2(cli, argv, token):
    message = one_line_error(cli("piquet", "simulate", "--deals", "5", *argv))
    assert token in message


def test_simulate_json_names_the_discards_only_when_searched(cli):
    r = json_only(cli("piquet", "simulate", "--deals", "6", "--discard", "own,search",
                      "--search-samples", "2", "--json", "--quiet"), True)
    assert r["settings"]["discard"] == {"elder": "own", "younger": "search"}
    assert r["settings"]["search_samples"] == 2
    assert r["provenance"]["parameters"]["discard"] == ["own", "search"]
    plain = json_only(cli("piquet", "simulate", "--deals", "6", "--json", "--quiet"),
                      True)
    assert "discard" not in plain["settings"]
    assert "discard" not in plain["provenance"]["parameters"]
