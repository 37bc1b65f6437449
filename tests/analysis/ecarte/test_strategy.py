"""Per-state action values and best responses (issue 15, items 3-4, 7): the sampler
draws the state's members uniformly and estimates the exact distribution; the best
response equals a brute-force one computed through independent code; results are
bit-identical for any thread count or batch; the CLI's bad input is one line, exit 2."""

from __future__ import annotations

import json
from collections import Counter

import numba
import numpy as np
import pytest

from ecarte_sim.analysis.ecarte.measures.paired import deal_code, game_value
from ecarte_sim.analysis.ecarte.solving import proposal_game as ST
from ecarte_sim.engine.ecarte.deals import action_values as K
from ecarte_sim.engine.ecarte.deals.experiments import N_ARM, exact_codes, hand_table
from ecarte_sim.engine.ecarte.decisions import states as S
from ecarte_sim.engine.ecarte.decisions.policies import empty_script
from ecarte_sim.engine.ecarte.settings import ElderFirst, EcarteSettings
from helpers import one_line_error

SETTINGS = EcarteSettings()
V = ST.continuation(SETTINGS, deals=1 << 16)["v"]


def test_relabelling_keeps_the_state_and_reaches_each_member_equally_often():
    rng = np.random.default_rng(3)
    weights = S.state_weights()
    keys = S.state_keys()
    for index in rng.integers(0, S.N_STATES, 40):
        hand, turn_up = S.state_cards(int(index))
        members = Counter()
        for r in range(24):
            h, t = K.relabelled(np.uint32(hand), np.int64(turn_up), np.int64(r))
            assert S.state_index(np.uint32(h), np.int64(t), keys) == index
            members[(int(h), int(t))] += 1
        assert len(members) == weights[index]
        assert set(members.values()) == {24 // int(weights[index])}


def _marks_of_arm_codes(counts48: np.ndarray) -> np.ndarray:
    """Arm-code counts folded into marks codes through the paired module's own mapping."""
    out = np.zeros(K.N_MARKS, dtype=np.int64)
    for code in range(N_ARM):
        king, points = divmod(deal_code(code), 5)
        out[4 * king + points] += counts48[code]
    return out


@pytest.mark.parametrize("relabel", [False, True])
def test_sampled_play_arm_matches_the_exact_enumeration(relabel):
    """Play without proposing under dd: the sampler's marks distribution (around the hand,
    or around uniform members of its state) agrees with every dealer hand enumerated."""
    hand, trump, turn_up = 0, 1, 8 + 2                      # hearts trumps, the 9H turned up
    for card in (8 + 4, 8 + 6, 8 + 0, 7, 16 + 7):           # QH AH 7H KS KD
        hand |= 1 << card
    cfg_play = SETTINGS.cfg(elder_first=ElderFirst.PLAY)
    exact = _marks_of_arm_codes(exact_codes(hand, turn_up, trump, cfg_play))
    n = 30_000
    state = S.canonical_index(hand, turn_up)
    rep, rep_turn = S.state_cards(state) if relabel else (hand, turn_up)
    out = np.zeros((1, K.N_MARKS * K.N_MARKS), dtype=np.int64)
    K.marks_block(np.uint64(4), K.ELDER_ROLE, np.array([rep], dtype=np.int64),
                  np.array([rep_turn], dtype=np.int64), np.array([state], dtype=np.int64),
                  relabel, np.zeros(1, dtype=np.int64), np.full(1, n, dtype=np.int64),
                  SETTINGS.cfg(elder_first=ElderFirst.PROPOSE), cfg_play, empty_script(),
                  out, np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64))
    sampled = out.reshape(K.N_MARKS, K.N_MARKS).sum(axis=0)  # arm b = play
    p = exact / exact.sum()
    keep = p * n >= 5
    expected = p[keep] * n
    observed = sampled[keep]
    chi2 = float(((observed - expected) ** 2 / expected).sum()) + \
        float((sampled[~keep].sum() - p[~keep].sum() * n) ** 2 / max(p[~keep].sum() * n, 1))
    # chi-square with <= 16 degrees of freedom: P(> 40) < 0.001
    assert chi2 < 40, (chi2, observed, expected)
    assert sampled.sum() == n


def test_best_response_equals_brute_force_on_a_small_instance():
    """One turn-up (the 9 of trumps), 60 elder states, 24 fixed deals each: the pipeline's
    table at every score equals one computed deal by deal through the tested paired
    experiment (``hand_table``: its own arm codes, its own game-value mapping)."""
    keys = S.state_keys()
    states = np.flatnonzero((keys >> 32) == 2)[::997][:60]
    n = 24
    sampling = ST.Sampling(n, n)
    _, script = ST.reading_tables(SETTINGS)
    marks = ST.marks_tables("elder", SETTINGS, script, v=V, seed=9, sampling=sampling,
                            states=states)
    replaced = ST.treatise_tables(SETTINGS)["elder"]
    table = ST.best_response(marks, V, replaced)["table"]
    cfg_a, cfg_b = ST.arm_cfgs("elder", SETTINGS)
    draws = np.zeros(64, dtype=np.int64)
    for state in states:
        hand, turn_up = S.state_cards(int(state))
        joint = np.zeros((N_ARM, N_ARM), dtype=np.int64)
        for k in range(n):
            r, _ = K.uniform_below(np.uint64(9), K.deal_index(0, state, k, 63), 0, 24, draws)
            h, t = K.relabelled(np.uint32(hand), np.int64(turn_up), np.int64(r))
            start = int(K.deal_index(0, state, k, 0))
            joint += hand_table(9, start, start + 1, int(h), int(t), int(t) >> 3,
                                cfg_a, cfg_b)
        for slot, (x, y) in enumerate(ST.SCORES):
            f = game_value(V, x, y)
            d = (f[:, None] - f[None, :]).ravel()
            c = joint.ravel().astype(float)
            mean = c @ d / n
            se = np.sqrt(max(c @ (d * d) / n - mean ** 2, 0) * n / (n - 1) / n)
            want = (mean > 0) if abs(mean) > 2 * se else replaced[state]
            assert table[slot, state] == want, (state, slot, mean, se)
    others = np.setdiff1d(np.arange(S.N_STATES), states)
    assert np.array_equal(table[:, others], np.broadcast_to(replaced[others],
                                                            (25, others.size)))


@pytest.mark.parametrize("rule", [None, int(ST.Discard.TRUMPS_ONLY)])
def test_marks_tables_identical_for_any_threads_and_batch(monkeypatch, rule):
    """The dealer's first decision, and his first discard (a discard role)."""
    states = np.arange(0, S.N_STATES, 2551)
    _, script = ST.reading_tables(SETTINGS)
    runs = []
    for threads, batch in ((1, 1 << 14), (numba.config.NUMBA_NUM_THREADS, 7)):
        monkeypatch.setattr(ST, "BATCH", batch)
        numba.set_num_threads(threads)
        try:
            m = ST.marks_tables("dealer", SETTINGS, script, v=V, seed=2,
                                sampling=ST.Sampling(8, 32), states=states, rule=rule)
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        runs.append(m)
    a, b = runs
    assert a.joint.sum() > 0
    assert np.array_equal(a.joint, b.joint) and np.array_equal(a.attempts, b.attempts)
    assert a.rounds == b.rounds


class _Reversed:
    """A backend (the interface of the Dask one) that runs the tasks here, last first."""

    def map(self, task, pieces, chunk, width):
        from ecarte_sim.engine.batch import run_task
        for lo, hi in reversed(list(pieces)):
            yield lo, hi, run_task(task, lo, hi, chunk, width)


def test_marks_tables_checkpoint_resume_and_backend(monkeypatch, tmp_path):
    """A strategy run's marks tables through a run directory, resumed from it (a block
    loaded is not run again), and on a backend that returns blocks out of order: the
    same counts as a plain run."""
    from ecarte_sim.engine.batch import execution
    from ecarte_sim.engine.runs import RunDir
    monkeypatch.setattr(ST, "BATCH", 16)
    states = np.arange(0, S.N_STATES, 4099)
    _, script = ST.reading_tables(SETTINGS)

    def tables():
        return ST.marks_tables("elder", SETTINGS, script, v=V, seed=3,
                               sampling=ST.Sampling(4, 16), states=states)

    plain = tables()
    ident = {"command": "strategy", "parameters": {}, "seed": 3, "block": None}
    with execution(store=RunDir(tmp_path / "run", ident)):
        stored = tables()
    files = sorted((tmp_path / "run").glob("task-*.npz"))
    assert len(files) == sum(-(-n // 16) for n, _ in plain.rounds)
    files[0].unlink()                           # a run killed before its first block
    ran = []
    real = ST.run_task
    monkeypatch.setattr(ST, "run_task", lambda *a: ran.append(a[1]) or real(*a))
    with execution(store=RunDir(tmp_path / "run", ident, resume=True)):
        resumed = tables()
    assert len(ran) == 1                         # only the missing block ran again
    with execution(backend=_Reversed()):
        shuffled = tables()
    for other in (stored, resumed, shuffled):
        assert np.array_equal(plain.joint, other.joint)
        assert np.array_equal(plain.attempts, other.attempts)
        assert plain.rounds == other.rounds


@pytest.mark.slow   # about 20 s; the results runs measure the same on every score
def test_best_response_is_not_worse_than_the_treatise_on_fresh_deals():
    """Coarse sampling over every state; the table is then played on fresh deals: its
    gain over Hoyle's list is not significantly negative, and it does differ from it."""
    br = ST.respond("elder", SETTINGS, V, seed=5, sampling=ST.Sampling(8, 32), slots=(0,))
    treatise = ST.treatise_tables(SETTINGS)["elder"]
    assert (br["table"][0] != treatise).any()
    row = ST.evaluate("elder", SETTINGS, br["table"], None, None, V, deals=1 << 17,
                      scores=((0, 0),))[0]
    assert row["gain_win_ci95"][1] > 0, row


def test_fresh_deals_are_apart_from_the_choosing_deals():
    highest = int(K.deal_index(1, S.N_STATES - 1, K.MAX_DEALS - 1, 63))
    assert K.STRATEGY_DEALS_START <= highest < K.FRESH_DEALS_START
    lowest = int(K.deal_index(K.ELDER_DISCARD_ROLE, 0, 0, 0))
    highest = int(K.deal_index(K.DEALER_DISCARD_ROLE, S.N_STATES - 1, K.MAX_DEALS - 1, 63))
    assert K.DISCARD_DEALS_START == lowest and highest < 1 << 43    # the class samples
    assert int(K.deal_index(K.DEALER_DISCARD_ROLE, 0, 0, 0)) > \
        int(K.deal_index(K.ELDER_DISCARD_ROLE, S.N_STATES - 1, K.MAX_DEALS - 1, 63))
    with pytest.raises(ValueError):
        ST.evaluate("elder", SETTINGS, np.zeros(S.N_STATES, bool), None, None, V,
                    first=K.DISCARD_DEALS_START - 5, deals=10)
    with pytest.raises(ValueError):
        ST.evaluate("elder", SETTINGS, np.zeros(S.N_STATES, bool), None, None, V,
                    first=K.STRATEGY_DEALS_START, deals=10)


@pytest.mark.quick
@pytest.mark.parametrize("args, token", [
    (["--role", "judge"], "judge"),
    (["--score", "5-0"], "5-0"),
    (["--score", "x-1"], "x-1"),
    (["--turn-up", "QH"], "QH"),
])
def test_advise_bad_input_is_one_line_and_exit_2(cli, args, token):
    assert token in one_line_error(cli("advise", "QH AH 7H KS KD", "--trump", "H", *args))


@pytest.mark.quick
def test_advise_a_hand_of_four_cards_is_refused(cli):
    assert "4 cards" in one_line_error(cli("advise", "QH AH 7H KS", "--trump", "H"))


def test_advise_json_says_the_action_values_and_the_treatise(cli):
    result = cli("advise", "QH AH 7H KS KD", "--trump", "H", "--score",
                 "0-0", "--deals", "4000", "--json")
    assert result.code == 0 and result.err == "", result
    out = json.loads(result.out)
    assert out["action"] in ("play", "propose")
    assert set(out["values"]) == {"play", "propose"}
    assert out["treatise"]["says"] == "play" and out["treatise"]["rule"] == "three-trumps"
    lo, hi = out["values"]["play"]["p_win_ci95"]
    assert lo <= out["values"]["play"]["p_win"] <= hi
    dealer = cli("advise", "KS QS 9S 8H 7D", "--trump", "TS", "--score",
                 "1-2", "--role", "dealer", "--deals", "4000", "--json")
    assert dealer.err == "", dealer
    out = json.loads(dealer.out)
    assert out["action"] in ("accept", "refuse") and out["treatise"]["policy"] == "maxims"
    assert 0 < out["proposal_rate"] <= 1


def _small_strategy(cli, tmp_path, *args: str) -> dict:
    """``strategy ARGS`` at 2 deals a state and 2,000 fresh deals, its report in
    ``tmp_path``; the JSON it prints."""
    result = cli(
        "strategy", *args, "--deals-per-state", "2", "--max-deals-per-state", "2",
        "--fresh-deals", "2000", "--json", "--out", str(tmp_path))
    assert result.code == 0 and result.err == "", result
    return json.loads(result.out)


def test_strategy_json_small_run(cli, tmp_path):
    out = _small_strategy(cli, tmp_path, "--role", "elder", "--score", "2-3")
    row = out["roles"]["elder"]["rows"][0]
    assert row["score"] == "2-3" and row["n"] == 2000
    assert row["gain_win_ci95"][0] <= row["gain_win"] <= row["gain_win_ci95"][1]
    assert {"strategy.md", "strategy.csv", "strategy.png", "tables.npz", "provenance.json"} \
        <= {p.name for p in tmp_path.iterdir()}
    tables = np.load(tmp_path / "tables.npz")
    assert np.unpackbits(tables["elder"], axis=-1)[:, :S.N_STATES].shape == (25, S.N_STATES)
    read = out["roles"]["elder"]["readable"]["scores"][0]
    assert read["score"] == "2-3" and 0 < read["reproduced"] <= 1 and read["lines"]
    assert read["n"] == 2000 and len(read["disagreements"]) == 10
    assert "The short list" in (tmp_path / "strategy.md").read_text()
    rules = out["roles"]["elder"]["by_rule"]
    assert [r["rule"] for r in rules][-1] == "not on the list" and len(rules) == 8
    assert sum(r["n"] for r in rules) == 2000      # every fresh deal under one rule
    # the claims report gains the section from this run
    report = tmp_path / "claims"
    claims = cli("claims", "--play", "dd", "--deals", "1000",
                 "--strategy", str(tmp_path), "--out", str(report),
                 "--json")
    assert claims.code == 0 and claims.err == "", claims
    beside = json.loads(claims.out)["beside_best_response"]
    assert [r["rule"] for r in beside["rows"]] == [r["rule"] for r in rules]
    assert beside["rows"][0]["gain_win_ci95"] == pytest.approx(rules[0]["gain_win_ci95"],
                                                               abs=1e-6)
    text = (report / "claims.md").read_text()
    assert "Each rule of the treatise beside the best response" in text
    assert "| elder | 2-3 | three-trumps | play |" in text
    assert "treatise_rules.csv" in one_line_error(cli("claims", "--strategy", str(report),
                                                      "--deals", "1000"))


@pytest.mark.slow   # about 30 s
def test_equilibrium_with_discards_reports_the_pair_it_played(cli, tmp_path, monkeypatch):
    """--against equilibrium --decision both: the discards start at the treatise's rule
    and are then replaced; the pair written to tables.npz, played again on the same
    fresh deals, gives the elder's value the last step reports."""
    monkeypatch.setattr(ST, "RULES", (int(ST.Discard.TRUMPS_ONLY),))     # one rule: fast
    out = _small_strategy(cli, tmp_path, "--against", "equilibrium", "--decision", "both",
                          "--iterations", "1", "--score", "1-2")
    steps = out["steps"]
    assert [s["step"] for s in steps] == [0, 1] and out["decisions"] == ["first", "discard"]
    assert steps[0]["elder_discard_agreement"] == 1.0     # the treatise's rule at first
    assert steps[1]["elder_discard_agreement"] < 1.0      # some states throw trumps-only
    for st in steps:
        assert st["exploitability"] == pytest.approx(st["elder_gain"] + st["dealer_gain"])
    assert {"equilibrium.md", "equilibrium.csv", "equilibrium.png", "tables.npz",
            "provenance.json"} <= {p.name for p in tmp_path.iterdir()}
    saved = np.load(tmp_path / "tables.npz")
    pair = {k: np.unpackbits(saved[k])[:S.N_STATES].astype(bool) for k in ("elder", "dealer")}
    pair.update({k: saved[k].astype(np.int64) for k in ("elder_discard", "dealer_discard")})
    assert set(np.unique(pair["elder_discard"])) <= {int(ST.Discard.TRUMPS_KINGS),
                                                     int(ST.Discard.TRUMPS_ONLY)}
    settings = EcarteSettings()
    run, script = ST.reading_tables(settings, **pair)
    cfg = run.cfg(elder_score=1, dealer_score=2)
    joint = ST.paired_table(0, K.FRESH_DEALS_START, K.FRESH_DEALS_START + 2000, cfg, cfg,
                            ST.CLASSIFY_ALL, script=script)[0]
    v = ST.continuation(settings, 0)["v"]
    value = ST.mean_of(joint.sum(axis=1), game_value(v, 1, 2))["mean"]
    assert value == pytest.approx(steps[-1]["elder_value"], abs=1e-12)


@pytest.mark.quick
def test_strategy_rejects_bad_scores_and_clashing_options(cli):
    assert "--all-scores" in one_line_error(cli("strategy", "--score", "0-0", "--all-scores"))
    assert "4-5" in one_line_error(cli("strategy", "--score", "4-5"))
    assert "equilibrium" in one_line_error(cli("strategy", "--against", "equilibrium",
                                               "--all-scores"))
    assert "--decision both" in one_line_error(cli("strategy", "--against", "equilibrium",
                                                   "--decision", "discard"))
    assert "sometimes" in one_line_error(cli("strategy", "--decision", "sometimes"))


def test_strategy_discard_json_small_run(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(ST, "RULES", (int(ST.Discard.TRUMPS_QUEENS),))   # one rule: fast
    run_dir = tmp_path / "run"
    out = _small_strategy(cli, tmp_path, "--role", "dealer", "--decision", "discard",
                          "--run-dir", str(run_dir))
    assert (run_dir / "manifest.json").is_file() and list(run_dir.glob("task-*.npz"))
    prov = json.loads((tmp_path / "provenance.json").read_text())
    assert str(run_dir) in json.dumps(prov)
    assert "--run-dir" in one_line_error(cli("strategy", "--resume"))
    assert "seed" in one_line_error(cli("strategy", "--role", "dealer", "--decision", "discard",
                                        "--deals-per-state", "2", "--max-deals-per-state", "2",
                                        "--fresh-deals", "2000", "--seed", "9", "--run-dir",
                                        str(run_dir), "--resume"))
    assert list(out["roles"]) == ["dealer-discard"]
    row = out["roles"]["dealer-discard"]["rows"][0]
    assert row["n"] == 2000 and 0 < row["agreement"] <= 1
    assert row["gain_win_ci95"][0] <= row["gain_win"] <= row["gain_win_ci95"][1]
    assert 0 < row["cards_thrown"] < 5 and 0 < row["treatise_cards_thrown"] < 5
    table = np.load(tmp_path / "tables.npz")["dealer-discard"]
    assert table.shape == (25, S.N_STATES)
    assert set(np.unique(table)) == {int(ST.Discard.TRUMPS_KINGS), int(ST.Discard.TRUMPS_QUEENS)}
    assert "first discard" in (tmp_path / "strategy.md").read_text()


def test_discard_response_equals_brute_force_on_a_small_instance():
    """The elder's first discard on 40 states, 16 fixed deals each: for every rule that
    throws other cards than the treatise's, each deal is found and played again through
    the tested paired experiment (``hand_table``, its own arm codes and game values;
    the dealer's hand redrawn until the maxims accept, as the sampler says); the best
    rule at every score, chosen here from those means and standard errors, equals the
    pipeline's."""
    from ecarte_sim.engine.ecarte.deals.experiments import deal_around
    from ecarte_sim.engine.ecarte.decisions.policies import maxims_accept
    keys = S.state_keys()
    states = np.flatnonzero((keys >> 32) == 5)[::1999][:40]      # the ace turned up
    n = 16
    result = ST.discard_response("elder", SETTINGS, V, seed=9, sampling=ST.Sampling(n, n),
                                 states=states)
    base = ST.thrown("elder", "trumps-kings")
    perm = np.zeros(32, dtype=np.int64)
    draws = np.zeros(64, dtype=np.int64)
    checked = 0
    for state in states:
        hand, turn_up = S.state_cards(int(state))
        deals = []
        for k in range(n):
            r, _ = K.uniform_below(np.uint64(9), K.deal_index(2, state, k, 63), 0, 24, draws)
            h, t = K.relabelled(np.uint32(hand), np.int64(turn_up), np.int64(r))
            for a in range(K.ATTEMPTS):
                index = K.deal_index(2, state, k, a)
                dealer, _ = deal_around(np.uint64(9), index, h, t, int(t) >> 3, perm, draws)
                if maxims_accept(dealer, int(t) >> 3):
                    deals.append((int(h), int(t), int(index)))
                    break
        best = np.full(25, int(ST.Discard.TRUMPS_KINGS))
        best_gain = np.zeros(25)
        for rule in ST.RULES:
            if ST.thrown("elder", ST.Discard(rule))[state] == base[state]:
                continue
            cfg_a, cfg_b = ST.arm_cfgs("elder", SETTINGS, rule=rule)
            joint = np.zeros((N_ARM, N_ARM), dtype=np.int64)
            for h, t, index in deals:
                joint += hand_table(9, index, index + 1, h, t, t >> 3, cfg_a, cfg_b)
            for slot, (x, y) in enumerate(ST.SCORES):
                f = game_value(V, x, y)
                d = (f[:, None] - f[None, :]).ravel()
                c = joint.ravel().astype(float)
                m = c @ d / len(deals)
                se = np.sqrt(max(c @ (d * d) / len(deals) - m ** 2, 0) * len(deals)
                             / (len(deals) - 1) / len(deals))
                if m > 2 * se and m > best_gain[slot]:
                    best[slot], best_gain[slot] = rule, m
            checked += 1
        assert np.array_equal(result["table"][:, state], best), state
    assert checked > 40
    assert (result["table"][:, states] != int(ST.Discard.TRUMPS_KINGS)).any()
    others = np.setdiff1d(np.arange(S.N_STATES), states)
    assert (result["table"][:, others] == int(ST.Discard.TRUMPS_KINGS)).all()
