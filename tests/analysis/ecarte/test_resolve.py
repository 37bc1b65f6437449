"""The pooled resolution of a first decision (analysis/ecarte/solving/resolve.py), the solve that
uses it (equilibrium --resolution pooled) and the per-hand audit (ecarte-sim audit)."""

import json

import numpy as np
import pytest

from ecarte_sim.analysis.ecarte.advice import audit as au
from ecarte_sim.analysis.ecarte.solving import resolve as rs
from ecarte_sim.analysis.ecarte.solving import solved
from ecarte_sim.engine.ecarte.decisions.states import N_STATES, representatives
from helpers import one_line_error


@pytest.mark.quick
def test_features_read_the_trumps_and_the_turn_up():
    from ecarte_sim.engine.cards import parse_card, parse_hand
    hand = int(parse_hand("KH QH 7H KS 9D", 5))
    x, held = rs.hand_features(np.array([hand]), np.array([int(parse_card("JH"))]))
    assert held[0] == 3
    # the constant, then each trump held (ranks 7 8 9 10 A J Q K as bits 0..7): 7H QH KH
    assert x[0, 1:9].tolist() == [1, 0, 0, 0, 0, 0, 1, 1]
    assert x[0, 9:17].tolist() == [0, 0, 0, 0, 0, 1, 0, 0]          # the knave turned up
    assert x[0, 17] == 1                                             # one plain king (KS)


def test_shrinkage_beats_the_raw_gains_where_the_features_explain_them():
    """Gains that are a linear function of the features plus a small spread, observed with
    much larger noise: the posterior recovers them far better than the raw estimates,
    its tau is near the true spread, and a state measured precisely keeps its own gain."""
    rng = np.random.default_rng(3)
    hands, turn_ups = representatives()
    pick = rng.choice(N_STATES, 20000, replace=False)
    x, held = rs.hand_features(hands[pick], turn_ups[pick])
    beta = rng.normal(0, 0.03, x.shape[1])
    true = x @ beta + rng.normal(0, 0.03, len(pick))
    se = np.full(len(pick), 0.1)
    se[:50] = 1e-3
    gain = true + rng.normal(0, 1, len(pick)) * se
    post = rs.shrink(gain, se, np.full(len(pick), 16), x, held)
    raw_err = np.mean((gain - true) ** 2)
    post_err = np.mean((post["mean"] - true) ** 2)
    assert post_err < raw_err / 5
    assert 0.02 < np.median(post["tau"]) < 0.04
    assert (post["weight"][:50] > 0.9).all()           # the precise states keep their own
    between = (post["mean"][:50] - gain[:50]) * (post["mean"][:50] - post["fitted"][:50])
    assert (between <= 1e-15).all()
    wrong_raw = np.mean((gain > 0) != (true > 0))
    wrong_post = np.mean((post["mean"] > 0) != (true > 0))
    assert wrong_post < wrong_raw * 0.75


def test_a_state_never_sampled_takes_its_fitted_value():
    rng = np.random.default_rng(4)
    hands, turn_ups = representatives()
    pick = rng.choice(N_STATES, 5000, replace=False)
    x, held = rs.hand_features(hands[pick], turn_ups[pick])
    gain = rng.normal(0.02, 0.1, len(pick))
    se = np.full(len(pick), 0.1)
    gain[:10] = np.nan
    post = rs.shrink(gain, se, np.full(len(pick), 16), x, held)
    assert np.all(np.isfinite(post["mean"]))
    assert np.allclose(post["mean"][:10], post["fitted"][:10])


def test_the_pooled_response_changes_only_the_states_it_solves():
    from ecarte_sim.analysis.ecarte.solving import equilibrium as eq
    from ecarte_sim.analysis.ecarte.solving import proposal_game as st
    rng = np.random.default_rng(0)
    states = np.sort(rng.choice(N_STATES, 200, replace=False))
    joint = np.zeros((N_STATES, 16, 16), dtype=np.int32)
    joint[states, 5, 1] = 3                 # a few deals on the solved states only
    joint[states, 1, 5] = rng.integers(0, 3, len(states))
    deals = np.zeros(N_STATES, dtype=np.int64)
    deals[states] = joint[states].sum(axis=(1, 2))
    marks = st.MarksTables("elder", joint, deals, deals * 0, deals * 0, [], st.Sampling(2, 4))
    replaced = rng.random(N_STATES) < 0.5
    v = solved.load().v
    br = eq.pooled_response(marks, v, replaced, [0, 7], states)
    others = np.setdiff1d(np.arange(N_STATES), states)
    for slot in range(25):
        assert (br["table"][slot, others] == replaced[others]).all()
    for slot in (0, 7):
        assert np.isfinite(br["post_mean"][slot, states]).all()
        assert (br["table"][slot, states] == (br["post_mean"][slot, states] > 0)).all()


# ------------------------------------------------------------------------------ the audit

def test_an_audit_row_is_what_advise_computes_for_the_hand():
    s = solved.load()
    masks, turn_ups, states = au.draw_hands(s, "dealer", 2, 4, 3, seed=5)
    tables = au.hand_values(s, "dealer", 2, 4, masks, turn_ups, states, deals=400, seed=5)
    rows = au.hand_rows(s, "dealer", 2, 4, masks, turn_ups, states, tables)
    from ecarte_sim.analysis.ecarte.advice import first_decision as advice
    for r in rows:
        a = advice.advise(r["hand"], r["turn_up"], (2, 4), "dealer", turn_up=r["turn_up"],
                          seed=5, deals=400)
        assert a["gain"]["p_win"] == pytest.approx(r["gain"], abs=1e-12)
        assert a["table_action"]["action"] == r["table"]
        assert a["n"] == r["n"] == 400


def test_the_dealers_hands_face_a_proposal():
    s = solved.load()
    from ecarte_sim.engine.ecarte.decisions.states import canonical_index
    from ecarte_sim.engine.ecarte.laws.deal import deal
    masks, turn_ups, _ = au.draw_hands(s, "dealer", 4, 4, 20, seed=9)
    dealt = [deal(9, i) for i in range(400)]
    proposing = [d for d in dealt
                 if s.table("elder")[24][canonical_index(int(d.elder), int(d.turn_up))]]
    assert [int(d.dealer) for d in proposing[:20]] == masks.tolist()


def test_regrets_from_the_gain_and_its_halves():
    """Plug-in: the loss on the full deals; cross-fitted: the choice of one half measured
    on the other."""
    s = solved.load()
    masks, turn_ups, states = au.draw_hands(s, "elder", 0, 0, 40, seed=2)
    tables = au.hand_values(s, "elder", 0, 0, masks, turn_ups, states, deals=200, seed=2)
    for r in au.hand_rows(s, "elder", 0, 0, masks, turn_ups, states, tables):
        sign = 1 if r["table"] == "propose" else -1
        assert r["table_regret"] == pytest.approx(max(0.0, -sign * r["gain"]))
        cross = 0.0
        for choose, measure in ((r["gain_half_1"], r["gain_half_2"]),
                                (r["gain_half_2"], r["gain_half_1"])):
            if (choose > 0) != (sign > 0):
                cross += abs(measure) * (1 if (measure > 0) == (choose > 0) else -1) / 2
        assert r["table_regret_cross"] == pytest.approx(cross)
        assert r["gain"] == pytest.approx((r["gain_half_1"] + r["gain_half_2"]) / 2)


def test_the_audit_is_the_same_for_any_thread_count(cli):
    import numba
    args = ["audit", "--hands", "6", "--deals", "256", "--score", "3-3", "--seed", "4",
            "--json", "--quiet"]
    outs = []
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        r = cli(*args, "--threads", str(threads))
        assert r.code == 0 and r.err == "", r
        out = json.loads(r.out)
        out.pop("provenance")
        outs.append(out)
    assert outs[0] == outs[1]


@pytest.mark.parametrize("role, x, y", [("elder", 0, 0), ("dealer", 3, 3)])
def test_the_resolver_graded_on_its_own_deals_is_never_resolved_wrong(role, x, y):
    """The resolved action follows the resolver's values where they resolve (either role's
    sign) and keeps the table's elsewhere, as advise leads: graded on those same deals it
    is never resolved wrong, and it loses only where the values cannot tell (within the
    interval); graded on the audit's own, other deals it can err."""
    s = solved.load()
    masks, turn_ups, states = au.draw_hands(s, role, x, y, 12, seed=7)
    tables = au.hand_values(s, role, x, y, masks, turn_ups, states, deals=256, seed=7)
    hist, did, _ = au.draw_decisions(s, role, x, y, 6, seed=7)
    later = au.decision_values(s, x, y, hist, deals=256, seed=7)
    rows = (au.hand_rows(s, role, x, y, masks, turn_ups, states, tables, tables)
            + au.decision_rows(s, role, x, y, hist, did, later, later))
    assert len(rows) == 12 + len(hist) and len(hist)
    for r in rows:
        assert not r["resolved_wrong"]
        assert r["resolver_gain"] == pytest.approx(r["gain"], abs=1e-12)
        assert r["resolved_regret"] <= 1.96 * r["se"] + 1e-12
        if r["resolved_regret"] > 0:
            assert r["resolved"] == r["table"]
    assert any(r["resolved"] != r["table"] for r in rows) or \
        all(not r["table_wrong"] for r in rows)


def test_the_resolvers_deals_are_never_the_audits():
    """The resolver reads the top of the check range, the audit its bottom: disjoint for
    every size the settings allow; resolving leaves the table's figures unchanged."""
    from ecarte_sim.engine.ecarte.deals.action_values import CHECK_DEALS, CHECK_DEALS_START
    for deals, resolve in ((4, 2), (1 << 14, 1 << 14), ((1 << 15) - 2, 2), (64, 1000)):
        lo = au.resolve_start(CHECK_DEALS_START, CHECK_DEALS, resolve)
        assert lo >= CHECK_DEALS_START + deals and lo + resolve == CHECK_DEALS_START + CHECK_DEALS
    with pytest.raises(ValueError, match="resolve"):
        au.AuditSettings(deals=1 << 14, resolve=(1 << 14) + 2)
    kw = dict(hands=3, deals=128, scores=((2, 4),), seed=11)
    plain = au.audit(au.AuditSettings(**kw))
    both = au.audit(au.AuditSettings(**kw, resolve=128))
    for key, cell in plain["summaries"].items():
        assert both["summaries"][key]["table"] == cell["table"]
        assert "resolved" not in cell and "resolved" in both["summaries"][key]
    assert "resolve" not in plain["settings"] and both["settings"]["resolve"] == 128


@pytest.mark.parametrize("args, token", [
    (["--resolve", "3"], "3"),
    (["--resolve", "30000"], "30000"),
    (["--deals", "255"], "255"),
    (["--score", "5-1"], "5-1"),
    (["--role", "judge"], "judge"),
    (["--hands", "0"], "0"),
    (["--seed", "-3"], "-3"),
])
def test_audit_bad_input_is_one_line_and_exit_2(cli, args, token):
    r = cli("audit", *args)
    assert r.code == 2 and token in one_line_error(r)
    assert "Traceback" not in r.out + r.err


# ------------------------------------------------------------- one step from the shipped pair

def test_one_step_from_the_shipped_pair_ships_the_best_responses(cli, tmp_path):
    """--start DIR --iterations 0 --respond: the shipped pair is step 0's best responses
    to the starting pair; with --no-discards the discards are the start's; the start's
    sha256 is in the provenance; a rerun ships the same bytes."""
    args = ["equilibrium", "--start", str(solved.DATA_DIR), "--iterations", "0", "--respond",
            "--no-discards", "--states", "400", "--score", "4-4", "--deals-per-state", "8",
            "--max-deals-per-state", "8", "--fresh-deals", "2048", "--value-deals", "2048",
            "--seed", "3", "--quiet"]
    for out in ("a", "b"):
        r = cli(*args, "--ship", str(tmp_path / out))
        assert r.code == 0 and r.err == "", r
    assert (tmp_path / "a" / "dd.npz").read_bytes() == (tmp_path / "b" / "dd.npz").read_bytes()
    start, new = solved.load(), solved.load("dd", data_dir=tmp_path / "a")
    meta = json.loads((tmp_path / "a" / "dd.json").read_text())
    assert meta["solve"]["start"] == start.provenance["sha256"]
    assert meta["solve"]["resolution"] == "pooled" and "responded" in meta
    assert (new.elder_discard == start.elder_discard).all()
    assert (new.dealer_discard == start.dealer_discard).all()
    # only 4-4's first decisions were re-solved, only on the drawn states
    for role in ("elder", "dealer"):
        assert (new.table(role)[:24] == start.table(role)[:24]).all()
        changed = np.flatnonzero(new.table(role)[24] != start.table(role)[24])
        assert len(changed) <= 400


def test_a_solve_under_another_play_model_starts_from_the_dd_strategy(cli, tmp_path):
    """--start DIR holding only dd data, with --play heuristic: the start is the dd pair
    (its sha256 in the provenance), the shipped file is heuristic.npz."""
    args = ["equilibrium", "--play", "heuristic", "--start", str(solved.DATA_DIR),
            "--iterations", "0", "--respond", "--no-discards", "--states", "100",
            "--score", "4-4", "--deals-per-state", "4", "--max-deals-per-state", "4",
            "--fresh-deals", "1000", "--value-deals", "1000", "--seed", "5", "--quiet",
            "--ship", str(tmp_path), "--out", str(tmp_path / "report")]
    r = cli(*args)
    assert r.code == 0 and r.err == "", r
    assert solved.solved_models(tmp_path) == ("heuristic",)
    # the report names the pairs for what they are: the start measured, the responses valued
    md = (tmp_path / "report" / "equilibrium.md").read_text()
    assert "the starting pair measured at" in md and "Hoyle's pair measured" not in md
    assert "under the best responses (the pair shipped)" in md
    meta = json.loads((tmp_path / "heuristic.json").read_text())
    assert meta["solve"]["start"] == solved.load("dd").provenance["sha256"]
    new, start = solved.load("heuristic", data_dir=tmp_path), solved.load("dd")
    assert (new.table("elder")[:24] == start.table("elder")[:24]).all()


@pytest.mark.parametrize("args, token", [
    (["--respond"], "--respond"),
    (["--iterations", "0", "--ship", "/tmp/nowhere-ecarte"], "--ship"),
    (["--resolution", "guess"], "guess"),
    (["--start", "/nonexistent-dir"], "/nonexistent-dir"),
])
def test_equilibrium_bad_step_options_are_one_line_and_exit_2(cli, args, token):
    r = cli("equilibrium", *args)
    assert r.code == 2 and token in one_line_error(r) and "Traceback" not in r.out + r.err


def test_the_keep_resolution_echoes_as_before():
    from ecarte_sim.analysis.ecarte.solving import equilibrium as eq
    assert "resolution" not in eq.SolveSettings(resolution="keep").echo()
    assert eq.SolveSettings().echo()["resolution"] == "pooled"
    with pytest.raises(ValueError, match="resolution"):
        eq.SolveSettings(resolution="guess")


def test_extended_every_state_takes_the_models_answer():
    """--extend: the model fitted on a sample of the states answers for all of them (those
    not sampled by their fitted value), so a slow play model can be solved from a sample."""
    from ecarte_sim.analysis.ecarte.solving import equilibrium as eq
    from ecarte_sim.analysis.ecarte.solving import proposal_game as st
    rng = np.random.default_rng(1)
    states = np.sort(rng.choice(N_STATES, 3000, replace=False))
    joint = np.zeros((N_STATES, 16, 16), dtype=np.int32)
    joint[states, 5, 1] = rng.integers(0, 4, len(states))
    joint[states, 1, 5] = rng.integers(0, 4, len(states))
    joint[states, 5, 5] = 1
    deals = joint.sum(axis=(1, 2)).astype(np.int64)
    marks = st.MarksTables("elder", joint, deals, deals * 0, deals * 0, [], st.Sampling(2, 8))
    replaced = np.zeros(N_STATES, dtype=bool)
    v = solved.load().v
    br = eq.pooled_response(marks, v, replaced, [0], states, extend=True)
    assert np.isfinite(br["post_mean"][0]).all()
    assert (br["table"][0] == (br["post_mean"][0] > 0)).all()
    others = np.setdiff1d(np.arange(N_STATES), states)
    assert np.isnan(br["gain"][0, others]).all()
    fit = rs.resolve(br["gain"][0], br["se"][0], deals, *representatives())["fitted"]
    assert np.allclose(br["post_mean"][0, others], fit[others])
    with pytest.raises(ValueError, match="extend"):
        eq.SolveSettings(extend=True)


def test_the_resolve_bench_measures_and_projects():
    from ecarte_sim.apps.bench.throughput import resolve_bench
    r = resolve_bench(0, lambda *_: None, states=200, deals=2)
    for play, states in (("dd", N_STATES), ("pimc-inference", 5000)):
        k = r[play]
        assert k["step_states"] == states and k["step_deals"] == 2 * 25 * states * 2
        assert all(v > 0 for v in k["paired_deals_per_s"].values())
        assert k["step_hours"] > 0 and k["step_hours_16_threads"] > 0
