"""Statistics helpers against closed forms, and the paired comparison against unpaired."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ecarte_sim.analysis.stats.intervals import Z95, paired_difference, wilson_interval
from ecarte_sim.engine.ecarte.deals.experiments import paired_counts
from ecarte_sim.engine.ecarte.settings import make_cfg

pytestmark = pytest.mark.quick


@pytest.mark.parametrize("k, n", [(0, 10), (3, 10), (10, 10), (50, 100), (1, 1000)])
def test_wilson_closed_form(k, n):
    """Wilson (1927): (p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)."""
    p, z = k / n, Z95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(max(0.0, centre - half), abs=1e-12) or k == 0
    assert hi == pytest.approx(min(1.0, centre + half), abs=1e-12) or k == n
    assert lo <= p <= hi


def test_wilson_known_value():
    # 3 successes in 10: Wilson 95% interval (0.1078, 0.6032) (e.g. statsmodels proportion_confint)
    lo, hi = wilson_interval(3, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.1078, 0.6032)


def test_paired_difference_by_hand():
    table = np.zeros((7, 7), dtype=np.int64)
    table[3 + 1, 3 + 0] = 3      # a - b = 1, three deals
    table[3 + 0, 3 + 2] = 1      # a - b = -2, one deal
    r = paired_difference(table)
    diffs = [1, 1, 1, -2]
    assert r["n"] == 4 and r["mean"] == pytest.approx(np.mean(diffs))
    assert r["se"] == pytest.approx(np.std(diffs, ddof=1) / 2)


def test_paired_comparison_uses_the_same_deals_and_beats_unpaired():
    """Two close strategies on the same deals: the paired SE is much smaller than the SE of
    the difference of two independent means; and a strategy against itself differs on no
    deal (the same deals really are used for both arms)."""
    a = make_cfg(elder_policy="regle", play="heuristic")
    b = make_cfg(elder_policy="threshold", play="heuristic")
    table = paired_counts(21, 0, 50_000, a, b)
    paired = paired_difference(table)
    values = np.arange(-3, 4)
    na, nb = table.sum(axis=1), table.sum(axis=0)
    n = table.sum()
    var_a = (na * values ** 2).sum() / n - ((na * values).sum() / n) ** 2
    var_b = (nb * values ** 2).sum() / n - ((nb * values).sum() / n) ** 2
    unpaired_se = math.sqrt(var_a / n + var_b / n)
    assert paired["se"] < 0.7 * unpaired_se, (paired, unpaired_se)
    same = paired_counts(21, 0, 5_000, a, a.copy())
    assert np.count_nonzero(same - np.diag(np.diag(same))) == 0


def test_mean_ci_by_hand_and_its_edges():
    from ecarte_sim.analysis.stats.intervals import Z95_ROUNDED, mean_ci, normal_ci
    x = [1.0, 2.0, 4.0, 7.0]
    s = math.sqrt(sum((v - 3.5) ** 2 for v in x) / 3)
    r = mean_ci(x, Z95_ROUNDED)
    assert list(r) == ["mean", "ci95", "n"] and r["n"] == 4 and r["mean"] == 3.5
    assert r["ci95"] == pytest.approx([3.5 - 1.96 * s / 2, 3.5 + 1.96 * s / 2], rel=1e-15)
    assert mean_ci(np.array(x))["ci95"][1] - 3.5 == pytest.approx(Z95 * s / 2, rel=1e-15)
    assert mean_ci([]) == {"mean": None, "ci95": None, "n": 0}
    one = mean_ci([2.0])
    assert one["mean"] == 2.0 and all(math.isnan(v) for v in one["ci95"])
    assert normal_ci(1.0, 0.5, 2.0) == [0.0, 2.0]
