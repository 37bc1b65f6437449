"""Sampling within a class (engine/ecarte/deals/class_sampling.py) and its use by the claims.

* The index scheme: inside the generator's range, disjoint from the plain deals and the
  score table, one index per (class, sample, attempt).
* Every class sample is the *first* attempt whose deal is in the class (re-dealt here by
  the Python ``deal`` and classified by the plain-Python reference), and it is played
  exactly as the plain paired experiment plays that deal.
* The rate of acceptance equals the exact class probability (enumerated), and the
  class-sampled outcomes agree with plain deals restricted to the class (a chi-square
  test, with a control that it can fail).
* Pure function of (seed, class, sample); bit-identical for any thread count, chunk and
  task size; an empty class is an error, not a silent gap.
* The claims use the class samples for the rows of one rule and of the dealer's maxims,
  and the progress plan names every class they run.
"""

from __future__ import annotations

import math
from itertools import combinations

import numba
import numpy as np
import pytest
from numba import njit

from ecarte_sim.analysis.ecarte.claims import decisions as C
from ecarte_sim.analysis.ecarte.measures import paired as AP
from ecarte_sim.engine.batch import execution
from ecarte_sim.engine.ecarte import reference as R
from ecarte_sim.engine.ecarte.deals import class_sampling as S
from ecarte_sim.engine.ecarte.deals.experiments import (CLASSIFY_ALL, CLASSIFY_DEALER,
                                                        CLASSIFY_REGLE, paired_table)
from ecarte_sim.engine.ecarte.decisions.policies import MAXIM_CASES, maxim_case
from ecarte_sim.engine.ecarte.decisions.regle import RULES
from ecarte_sim.engine.ecarte.decisions.regle_kernel import regle_rule
from ecarte_sim.engine.ecarte.laws.deal import deal
from ecarte_sim.engine.ecarte.settings import make_cfg
from ecarte_sim.engine.rng import MAX_DEAL_INDEX

PLAY, PROPOSE = dict(elder_first="play"), dict(elder_first="propose")
REFUSE, ACCEPT = dict(dealer_first="refuse"), dict(dealer_first="accept")
ARMS = {CLASSIFY_REGLE: (PLAY, PROPOSE), CLASSIFY_DEALER: (REFUSE, ACCEPT)}


def _cfgs(classifier, **settings):
    a, b = ARMS[classifier]
    return make_cfg(**a, **settings), make_cfg(**b, **settings)


def _reference_class(classifier, d) -> int:
    """The class of a dealt deal read by the plain-Python reference (regle) or the maxims
    (dealer: the elder, by the list, proposes iff his hand is no jeu de règle)."""
    name = R.jeu_de_regle(d.elder, d.trump)
    if classifier == CLASSIFY_REGLE:
        return 0 if name is None else RULES.index(name) + 1
    return 0 if name is not None else int(maxim_case(np.uint32(d.dealer), d.trump))


# --------------------------------------------------------------------------- index scheme

@pytest.mark.quick
def test_index_scheme_is_in_range_and_disjoint_from_the_plain_deals_and_the_scores():
    from ecarte_sim.apps.cli.ecarte import claims as command
    # the most deals a claims run can ask for: --deals and --max-deals are at most 2^40
    limits = {p.name: p.type.max for p in command.params if p.name in ("n_deals", "max_deals")}
    most = max(limits.values())
    assert most <= 1 << 40
    assert C.SCORE_DEALS_START >= most                       # plain deals 0 .. 2^40
    assert C.SCORE_DEALS_START + most <= S.CLASS_DEALS_START  # scores 2^40 .. 2^41
    spans = []
    for classifier, classes in S.SAMPLED_CLASSES.items():
        for c in classes:
            lo = S.class_deal_index(classifier, c, 0, 0)
            hi = S.class_deal_index(classifier, c, S.MAX_CLASS_SAMPLES - 1,
                                    S.MAX_ATTEMPTS - 1) + 1
            assert S.CLASS_DEALS_START <= lo < hi <= MAX_DEAL_INDEX
            spans.append((lo, hi))
    spans.sort()
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))  # classes never share
    # one index per (sample, attempt) inside a class
    seen = {S.class_deal_index(CLASSIFY_REGLE, 6, i, k) for i in range(40) for k in
            (0, 1, 2, S.MAX_ATTEMPTS - 2, S.MAX_ATTEMPTS - 1)}
    assert len(seen) == 40 * 5
    for bad in ((CLASSIFY_REGLE, 0, 0, 0), (CLASSIFY_DEALER, 8, 0, 0), (CLASSIFY_ALL, 1, 0, 0),
                (CLASSIFY_REGLE, 1, S.MAX_CLASS_SAMPLES, 0), (CLASSIFY_REGLE, 1, 0,
                                                               S.MAX_ATTEMPTS)):
        with pytest.raises(ValueError):
            S.class_deal_index(*bad)
    with pytest.raises(ValueError):
        S.class_table(0, 0, S.MAX_CLASS_SAMPLES + 1, *_cfgs(CLASSIFY_REGLE), CLASSIFY_REGLE, 1)


# --------------------------------------------------------------------------- in the class

@pytest.mark.parametrize("classifier", [CLASSIFY_REGLE, CLASSIFY_DEALER])
def test_every_class_sample_is_the_first_deal_of_its_class(classifier):
    cfg_a, _ = _cfgs(classifier)
    for c in S.SAMPLED_CLASSES[classifier]:
        index, attempts = S.class_deals(5, classifier, c, 100, 160, cfg_a)
        for j, (idx, k) in enumerate(zip(index.tolist(), attempts.tolist())):
            i = 100 + j
            assert 1 <= k <= S.MAX_ATTEMPTS
            assert idx == S.class_deal_index(classifier, c, i, k - 1)
            assert _reference_class(classifier, deal(5, idx)) == c, (c, i)
            for earlier in range(max(0, k - 1 - 30), k - 1):   # the misses before it
                miss = deal(5, S.class_deal_index(classifier, c, i, earlier))
                assert _reference_class(classifier, miss) != c, (c, i, earlier)


@pytest.mark.parametrize("classifier,play,c", [
    (CLASSIFY_REGLE, "dd", 6), (CLASSIFY_REGLE, "pimc", 4), (CLASSIFY_DEALER, "heuristic", 3),
    (CLASSIFY_DEALER, "pimc", 1)])
def test_a_class_sample_is_played_as_the_plain_experiment_plays_its_deal(classifier, play, c):
    """Sample i of the class = the plain paired experiment at its deal index: the same
    cards, stock and (PIMC) worlds, both arms."""
    cfg_a, cfg_b = _cfgs(classifier, play=play, worlds=8)
    index, _ = S.class_deals(2, classifier, c, 0, 12, cfg_a)
    table, attempts = S.class_table(2, 0, 12, cfg_a, cfg_b, classifier, c, chunk=5)
    expect = sum(paired_table(2, i, i + 1, cfg_a, cfg_b, classifier) for i in index.tolist())
    np.testing.assert_array_equal(table, expect)
    assert attempts == S.class_deals(2, classifier, c, 0, 12, cfg_a)[1].sum()
    rows = np.flatnonzero(table.sum(axis=(1, 2)))
    assert set(rows.tolist()) <= ({c, c + 8} if classifier == CLASSIFY_REGLE else {c})


# --------------------------------------------------------------------------- distribution

@njit(cache=True)
def _regle_hands(out):
    """out[rule] += the (turn-up, elder hand) pairs of each rule over every turn-up: the
    elder's hand is uniform over the C(31, 5) hands without the turn-up."""
    for turn_up in range(32):
        trump = turn_up >> 3
        for a in range(32):
            for b in range(a + 1, 32):
                for c in range(b + 1, 32):
                    for d in range(c + 1, 32):
                        for e in range(d + 1, 32):
                            if turn_up in (a, b, c, d, e):
                                continue
                            hand = (np.uint32(1) << np.uint32(a)) | (np.uint32(1) << np.uint32(b)) \
                                | (np.uint32(1) << np.uint32(c)) | (np.uint32(1) << np.uint32(d)) \
                                | (np.uint32(1) << np.uint32(e))
                            out[regle_rule(hand, trump)] += 1


def exact_rule_probabilities() -> np.ndarray:
    """P(the elder's dealt hand is of rule r), r = 0 (none) .. 7, by enumeration."""
    out = np.zeros(8, dtype=np.int64)
    _regle_hands(out)
    assert out.sum() == 32 * math.comb(31, 5)
    return out / out.sum()


def test_acceptance_rate_is_the_exact_class_probability():
    """Attempts per sample are geometric with mean 1/p (p the class's probability): the
    total over n samples is within 4.5 standard deviations of n/p for every rule."""
    p = exact_rule_probabilities()
    assert p[6] == pytest.approx(1.236e-3, rel=1e-3)  # the rarest rule: ~810 attempts
    cfg = make_cfg(elder_first="play")
    for r in range(1, 8):
        n = 4000
        _, attempts = S.class_deals(11, CLASSIFY_REGLE, r, 0, n, cfg)
        total = int(attempts.sum())
        sd = math.sqrt(n * (1 - p[r])) / p[r]
        assert abs(total - n / p[r]) < 4.5 * sd, (r, total, n / p[r], sd)


def _chi2_critical(df: int, z: float = 3.090232306167813) -> float:
    """Upper 0.1% point of chi-square (Wilson-Hilferty; within 1% for df >= 3)."""
    h = 2 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


def _homogeneity(x: np.ndarray, y: np.ndarray) -> tuple[float, int]:
    """Chi-square statistic and degrees of freedom that two count vectors come from one
    distribution; cells with an expected count below 5 in either sample are pooled."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    p = (x + y) / (x.sum() + y.sum())
    small = (p * min(x.sum(), y.sum())) < 5
    if small.any():
        x = np.append(x[~small], x[small].sum())
        y = np.append(y[~small], y[small].sum())
        p = (x + y) / (x.sum() + y.sum())
    keep = p > 0
    x, y, p = x[keep], y[keep], p[keep]
    stat = sum(((v - p * v.sum()) ** 2 / (p * v.sum())).sum() for v in (x, y))
    return float(stat), len(p) - 1


def _cells(table: np.ndarray, classifier: int) -> np.ndarray:
    """Counts of (king of trumps held: regle rows r / r + 8, or none for dealer) x (arm a:
    outcome) x (arm b: first decision, the elder wins the point)."""
    per_row = []
    for row in table:
        a = np.zeros((4, 3, 2), dtype=np.int64)
        for code_a in range(48):
            for code_b in range(48):
                a[AP.OUTCOME[code_a], AP.FIRST[code_b], int(AP.ELDER_WINS_POINT[code_b])] += \
                    row[code_a, code_b]
        per_row.append(a.ravel())
    per_row = np.array(per_row)
    if classifier == CLASSIFY_REGLE:
        return per_row.reshape(2, 8, -1).sum(axis=1).ravel()  # king held or not
    return per_row.sum(axis=0)


@pytest.fixture(scope="module")
def plain_heuristic():
    """Plain deals [0, 300,000) under heuristic play, both experiments."""
    return {k: paired_table(21, 0, 300_000, *_cfgs(k, play="heuristic"), k)
            for k in (CLASSIFY_REGLE, CLASSIFY_DEALER)}


def _plain_class(table, classifier, c):
    if classifier == CLASSIFY_REGLE:
        out = np.zeros_like(table)
        out[c], out[c + 8] = table[c], table[c + 8]
        return out
    out = np.zeros_like(table)
    out[c] = table[c]
    return out


@pytest.mark.parametrize("classifier,c", [(CLASSIFY_REGLE, 1), (CLASSIFY_REGLE, 3),
                                          (CLASSIFY_REGLE, 5), (CLASSIFY_DEALER, 3),
                                          (CLASSIFY_DEALER, 5)])
def test_class_samples_agree_with_plain_deals_of_the_class(plain_heuristic, classifier, c):
    """The joint distribution of (king held, arm a's outcome, arm b's first decision and
    point) over class samples equals that over the plain deals of the class: chi-square
    homogeneity at the 0.1% level (five classes: a false alarm about 1 run in 200)."""
    plain = _plain_class(plain_heuristic[classifier], classifier, c)
    sampled, _ = S.class_table(22, 0, 4000, *_cfgs(classifier, play="heuristic"),
                               classifier, c)
    assert plain.sum() > 1000 and sampled.sum() == 4000
    stat, df = _homogeneity(_cells(plain, classifier), _cells(sampled, classifier))
    assert df >= 5
    assert stat < _chi2_critical(df), (stat, df)


def test_the_homogeneity_test_sees_a_different_class(plain_heuristic):
    """The control: the same test, class samples of rule 2 against plain deals of rule 3
    (both two trumps in hand) or of the maxim 'two-to-discard' against 'guarded courts',
    fails by far."""
    for classifier, plain_c, other in ((CLASSIFY_REGLE, 3, 2), (CLASSIFY_DEALER, 3, 5)):
        plain = _plain_class(plain_heuristic[classifier], classifier, plain_c)
        sampled, _ = S.class_table(22, 0, 4000, *_cfgs(classifier, play="heuristic"),
                                   classifier, other)
        stat, df = _homogeneity(_cells(plain, classifier), _cells(sampled, classifier))
        assert stat > 3 * _chi2_critical(df), (classifier, stat, df)


# --------------------------------------------------------------------------- determinism

def test_a_class_sample_is_a_pure_function_of_seed_class_and_index():
    cfg_a, cfg_b = _cfgs(CLASSIFY_DEALER, play="heuristic")
    whole, tried = S.class_table(4, 0, 900, cfg_a, cfg_b, CLASSIFY_DEALER, 4)
    head, t1 = S.class_table(4, 0, 333, cfg_a, cfg_b, CLASSIFY_DEALER, 4)
    tail, t2 = S.class_table(4, 333, 900, cfg_a, cfg_b, CLASSIFY_DEALER, 4)
    np.testing.assert_array_equal(whole, head + tail)
    assert tried == t1 + t2
    index, attempts = S.class_deals(4, CLASSIFY_DEALER, 4, 0, 900, cfg_a)
    again = S.class_deals(4, CLASSIFY_DEALER, 4, 500, 510, cfg_a)
    np.testing.assert_array_equal(again[0], index[500:510])
    np.testing.assert_array_equal(again[1], attempts[500:510])
    other_seed = S.class_deals(5, CLASSIFY_DEALER, 4, 0, 900, cfg_a)[0]
    assert not np.array_equal(other_seed, index)
    regle = S.class_deals(4, CLASSIFY_REGLE, 4, 0, 900, make_cfg(elder_first="play"))[0]
    assert not set(regle.tolist()) & set(index.tolist())
    assert len(set(index.tolist())) == 900


@pytest.mark.parametrize("classifier,c,play,n", [(CLASSIFY_DEALER, 3, "heuristic", 5_000),
                                                 (CLASSIFY_REGLE, 6, "dd", 3_000),
                                                 (CLASSIFY_REGLE, 1, "pimc", 300)])
def test_class_tables_are_bit_identical_for_any_thread_count_chunk_and_task_size(
        classifier, c, play, n):
    cfg_a, cfg_b = _cfgs(classifier, play=play, worlds=8)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = S.class_table(8, 17, 17 + n, cfg_a, cfg_b, classifier, c, chunk=4096)
    finally:
        numba.set_num_threads(threads)
    many = S.class_table(8, 17, 17 + n, cfg_a, cfg_b, classifier, c, chunk=13, block=777)
    with execution(task_size=n // 3 + 1):
        tasks = S.class_table(8, 17, 17 + n, cfg_a, cfg_b, classifier, c, chunk=64)
    for got in (many, tasks):
        np.testing.assert_array_equal(one[0], got[0])
        assert one[1] == got[1]


@pytest.mark.quick
def test_a_class_without_deals_is_an_error_not_a_gap():
    """The elder forced to play never proposes: the dealer has no proposal to answer, so
    the class is empty and every attempt misses."""
    cfg = make_cfg(elder_first="play", dealer_first="refuse")
    with pytest.raises(RuntimeError, match="found no deal of the class"):
        S.class_table(0, 0, 2, cfg, cfg, CLASSIFY_DEALER, 5)
    index, attempts = S.class_deals(0, CLASSIFY_DEALER, 5, 0, 2, cfg)
    assert index.tolist() == [-1, -1] and attempts.tolist() == [S.MAX_ATTEMPTS] * 2


# --------------------------------------------------------------------------- the claims

@pytest.fixture(scope="module")
def small_claims():
    labels = {}

    def progress(label, n):
        labels[label] = labels.get(label, 0) + n

    settings = C.ClaimsSettings(seed=1, deals=1500)
    data = C.run_model("heuristic", settings, progress)
    return data, labels, settings


def test_the_rule_rows_pool_plain_and_class_deals_and_the_maxims_are_class_samples(
        small_claims):
    data, _, _ = small_claims
    assert data["deals"]["rules"] == 7 * 1500 and data["deals"]["dealer"] == 5 * 1500
    assert [(c["experiment"], c["class"]) for c in data["classes"]] == \
        [("rules", f"rule {r}") for r in range(1, 8)] + \
        [("dealer", case) for case in MAXIM_CASES[:5]]
    for c in data["classes"]:
        assert c["n"] == 1500 and c["attempts"] > c["n"]
    plain = {r: int(data["regle"][r].sum() + data["regle"][r + 8].sum()) for r in range(1, 8)}
    rows = C.results({"heuristic": data})
    for r in rows:
        if r["id"].startswith("dealer-"):
            assert r["n"] == 1500, r
        elif r["subset"].startswith("rule ") and r["id"] == "two-to-one":
            assert r["n"] == 1500 + plain[int(r["subset"].split()[1].rstrip(":"))], r
        elif r["id"] == "two-to-one":
            assert r["n"] == int(data["regle"].sum()) < 1500, r  # plain: the list's share
    table = C.rule_table(data)
    assert [r["sampling"] for r in table] == ["plain deals"] + \
        ["plain deals of the rule and samples within the rule"] * 7
    assert [r["n"] for r in table[1:]] == [1500 + plain[r] for r in range(1, 8)]
    # a rule's P(point) pools its plain deals with its class samples (king split kept)
    for r in range(1, 8):
        joint = data["rules"][r] + data["rules"][r + 8] + data["regle"][r] + data["regle"][r + 8]
        two = [c for c in C.class_claims("rules", r) if c.id == "two-to-one"]
        assert len(two) == 2 and len(C.class_claims("rules", r)) == 2 + (r == 1)
        m = C.measure(two[0], data)
        assert m["estimate"] == AP.proportion(joint.sum(axis=1), AP.ELDER_WINS_POINT)["p"]
    assert data["rules"][6 + 8].sum() == 0 and data["rules"][1 + 8].sum() > 0
    assert data["dealer"][6:].sum() == 0 and data["dealer"][0].sum() == 0


def test_the_plan_names_every_experiment_and_class_that_runs(small_claims):
    _, labels, settings = small_claims
    planned = [label for label, _ in C.plan(["heuristic"], settings)]
    assert planned == list(labels)
    assert all(labels[f"heuristic {key}: {name}"] == 1500 for key in C.CLASS_EXPERIMENTS
               for _, name in C.sampled_classes(key))


def test_each_class_runs_its_own_schedule_to_its_target():
    """Under the precision rule the classes stop at different sample counts, each at the
    first checkpoint where its rows are narrow enough (here a loose precision, fast)."""
    settings = C.ClaimsSettings(seed=2, precision=0.02, first=4096, class_first=256)
    data = C.run_model("heuristic", settings)
    for c in data["classes"]:
        target = 0.04 if c["experiment"] == "rules" else 0.02
        assert c["target"] == target and c["reached"] and c["half_width"] <= target, c
        steps = [h for h in data["history"] if h.get("class") == c["class"]]
        assert steps[-1]["deals"] == c["n"]
        assert all(h["worst_half_width"] > target for h in steps[:-1])
    assert len({c["n"] for c in data["classes"]}) > 2
    assert data["worst_rule_half_width"] <= 0.04 and data["worst_half_width"]["dealer"] <= 0.02


@pytest.mark.quick
def test_too_many_class_samples_is_a_usage_error(cli):
    from helpers import one_line_error
    result = cli("claims", "--deals", str(S.MAX_CLASS_SAMPLES + 1))
    assert result.code == 2 and "--deals" in one_line_error(result)


@pytest.mark.slow
def test_per_rule_and_per_maxim_estimates_agree_with_plain_sampling():
    """Old (plain deals of the class) and new (class samples) estimates of every rule's
    P(point) and every maxim's refuse-minus-accept difference in points agree: the
    difference is within 3.29 standard errors (p = 0.001 each; 12 comparisons)."""
    for classifier in (CLASSIFY_REGLE, CLASSIFY_DEALER):
        cfg_a, cfg_b = _cfgs(classifier, play="heuristic")
        plain = paired_table(31, 0, 1 << 21, cfg_a, cfg_b, classifier)
        classes = range(1, 8) if classifier == CLASSIFY_REGLE else range(1, 6)
        for c in classes:
            old = _plain_class(plain, classifier, c).sum(axis=0)
            new = S.class_table(32, 0, 8192, cfg_a, cfg_b, classifier, c)[0].sum(axis=0)
            if classifier == CLASSIFY_REGLE:
                a = AP.proportion(old.sum(axis=1), AP.ELDER_WINS_POINT)
                b = AP.proportion(new.sum(axis=1), AP.ELDER_WINS_POINT)
                se = [math.sqrt(m["p"] * (1 - m["p"]) / m["n"]) for m in (a, b)]
                diff = a["p"] - b["p"]
            else:
                f = -AP.NET.astype(float)  # the dealer's marks minus the elder's
                a, b = AP.paired_mean(old, f), AP.paired_mean(new, f)
                se = [a["se"], b["se"]]
                diff = a["mean"] - b["mean"]
            assert abs(diff) < 3.29 * math.hypot(*se), (classifier, c, diff, se)


def test_class_tables_are_bit_identical_on_a_local_dask_cluster():
    """The same class table on the local threads and on two Dask worker processes (on
    127.0.0.1), for two task sizes."""
    distributed = pytest.importorskip("distributed")
    from ecarte_sim.engine.cluster import DaskBackend
    cfg_a, cfg_b = _cfgs(CLASSIFY_REGLE, play="heuristic")
    expected = S.class_table(9, 3, 6_003, cfg_a, cfg_b, CLASSIFY_REGLE, 5)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  silence_logs=40) as cluster:
        client = distributed.Client(cluster, set_as_default=False)
        try:
            for size, window in ((701, None), (4_096, 1)):
                with execution(DaskBackend(client, window=window), task_size=size):
                    got = S.class_table(9, 3, 6_003, cfg_a, cfg_b, CLASSIFY_REGLE, 5)
                np.testing.assert_array_equal(got[0], expected[0])
                assert got[1] == expected[1]
        finally:
            client.close()
