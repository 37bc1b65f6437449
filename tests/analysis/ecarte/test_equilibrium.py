"""The five-up equilibrium (analysis/ecarte/solving/equilibrium.py) on reduced instances: the value
recursion by score against the plain one, determinism across thread counts, the stopping
record, and the shipped data format."""

import numpy as np
import pytest

from ecarte_sim.analysis.ecarte.measures.scores import win_probabilities
from ecarte_sim.analysis.ecarte.solving import equilibrium as eq
from ecarte_sim.analysis.ecarte.solving import proposal_game as st
from ecarte_sim.engine.ecarte.decisions.states import N_STATES

#: The sweep's mechanics are tested with the keep rule (a state leaves its action only where
#: its own deals resolve the other), whose steps change little and so are measured again;
#: the pooled rule is tested in test_resolve.py and by the shipped reduced instance.
TINY = dict(sampling=st.Sampling(4, 8), discard_sampling=st.Sampling(4, 8), fresh_deals=2048,
            value_deals=2048, iterations=1, scores=((0, 0), (3, 4)), resolution="keep")


def tiny_states(k=400, seed=3):
    rng = np.random.default_rng(seed)
    return tuple(sorted(rng.choice(N_STATES, k, replace=False).tolist()))


@pytest.mark.quick
def test_values_by_score_is_the_plain_recursion_when_the_deal_does_not_depend_on_it():
    rng = np.random.default_rng(0)
    p = rng.random(20)
    p[[4, 9, 14, 19]] = 0          # no untruncated deal ends without a point
    p /= p.sum()
    assert np.allclose(eq.values_by_score(np.tile(p, (25, 1))), win_probabilities(p),
                       atol=1e-14)


def test_values_by_score_reads_each_score_own_row():
    """A deal that at 4-4 always gives the elder the point: he wins from 4-4 for sure,
    and the scores that lead to 4-4 feel it."""
    base = np.zeros(20)
    base[0] = 0.5      # elder's point, no king
    base[2] = 0.5      # dealer's point
    p = np.tile(base, (25, 1))
    v0 = eq.values_by_score(p)
    p[24] = 0
    p[24, 0] = 1.0
    v1 = eq.values_by_score(p)
    assert v1[4, 4] == 1.0 and v0[4, 4] == 0.5
    # the elder at 3 against 4 who wins the point reaches 4-4 dealing next, where his
    # opponent, then elder, wins for sure
    assert v1[3, 4] < v0[3, 4]
    # every score can reach 4-4 (one player may stay at four while the other climbs)
    assert v1[0, 0] != v0[0, 0]


def test_score_groups_share_equal_rows():
    pair = eq.treatise_pair(st.EcarteSettings())
    assert eq.score_groups(pair, list(range(25))) == [list(range(25))]
    pair["elder"][7, 5] = ~pair["elder"][7, 5]
    groups = eq.score_groups(pair, list(range(25)))
    assert [7] in groups and len(groups) == 2


def test_a_reduced_solve_is_the_same_for_any_thread_count():
    import numba
    solve = eq.SolveSettings(states=tiny_states(), **TINY)
    limit = numba.config.NUMBA_NUM_THREADS
    results = []
    for threads in sorted({1, min(2, limit)}):
        numba.set_num_threads(threads)
        try:
            results.append(eq.solve(solve))
        finally:
            numba.set_num_threads(limit)
    a = results[0]
    for b in results[1:]:
        for k in eq.KEYS:
            assert np.array_equal(a["pair"][k], b["pair"][k])
        assert a["history"] == b["history"]
    # only the chosen states can leave the treatise, and the record says what changed
    treatise = eq.treatise_pair(st.EcarteSettings())
    others = np.setdiff1d(np.arange(N_STATES), tiny_states())
    for k in eq.KEYS:
        assert np.array_equal(a["pair"][k][:, others], treatise[k][:, others])
    first = a["history"][0]
    assert first["iteration"] == 0 and first["v_moved"] is None
    assert len(first["scores"]) == 2
    for entry in first["scores"]:
        lo, hi = entry["exploitability_ci95"]
        assert lo <= entry["exploitability"] <= hi


@pytest.mark.quick
def test_bad_solve_settings_are_refused():
    with pytest.raises(ValueError, match="iterations"):
        eq.SolveSettings(iterations=-1)
    with pytest.raises(ValueError, match="score"):
        eq.SolveSettings(scores=((5, 0),))
    with pytest.raises(ValueError, match="states"):
        eq.SolveSettings(states=(N_STATES,))


def test_the_sweep_goes_from_the_last_score_to_the_first():
    order = eq.sweep_order(range(25))
    assert order[0] == 24 and order[-1] == 0
    totals = [s // 5 + s % 5 for s in order]
    assert totals == sorted(totals, reverse=True)


def test_each_sweep_step_samples_deals_that_did_not_choose_its_row():
    """A score's step k measures a row chosen on the deals of seed + k (step 0's: seed), so
    its best responses sample seed + 1 + k; a score is measured again while its upper
    bound is above the tolerance, up to the cap; the row kept is the least exploitable."""
    solve = eq.SolveSettings(states=tiny_states(), exploit_tolerance=1e-9,
                             **{**TINY, "iterations": 3})
    result = eq.solve(solve)
    steps = [h for h in result["history"] if h.get("stage") == "sweep"]
    assert [h["iteration"] for h in steps] == list(range(1, len(steps) + 1))
    scores = [h["score"] for h in steps]
    assert scores == sorted(scores, key=lambda s: -(int(s[0]) + int(s[2])))
    for entry in result["final"]:
        mine = [h for h in steps if h["score"] == entry["score"]]
        assert [h["seed"] for h in mine] == list(range(1, len(mine) + 1))
        assert [h["scores"][0]["step"] for h in mine] == list(range(len(mine)))
        bounds = [h["scores"][0]["exploitability_ci95"][1] for h in mine]
        assert all(b > 1e-9 for b in bounds[:-1])
        assert bounds[-1] <= 1e-9 or len(mine) == 3
        kept = [h["scores"][0]["exploitability"] for h in mine]
        assert entry["exploitability"] == min(kept) == kept[entry["chosen_step"]]
    assert any(len([h for h in steps if h["score"] == e["score"]]) > 1
               for e in result["final"])
