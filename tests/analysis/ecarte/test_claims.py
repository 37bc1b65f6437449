"""The claims: verdict rules, the list of claims and readings, the precision rule, the
trump-split explanation against Foster's counts, a small run of every model, and the
``claims``/``hand`` commands."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from ecarte_sim.analysis.ecarte.claims import decisions as C
from ecarte_sim.analysis.ecarte.measures import paired as AP
from ecarte_sim.analysis.stats.precision import checkpoints, run_until
from ecarte_sim.engine.cards import parse_hand
from ecarte_sim.engine.ecarte.deals.experiments import exact_codes
from ecarte_sim.engine.ecarte.settings import make_cfg
from helpers import BLOCKED, REPO, one_line_error


@pytest.mark.quick
def test_verdict_rules():
    rule = C.near(2 / 3, 0.05)
    assert rule(0.65, 0.70) == "supported"
    assert rule(0.80, 0.85) == "contradicted" and rule(0.50, 0.60) == "contradicted"
    assert rule(0.60, 0.70) == "inconclusive"          # straddles the band's edge
    floor = C.at_least(2 / 3)
    assert floor(0.67, 0.9) == "supported" and floor(0.5, 0.6) == "contradicted"
    assert floor(0.6, 0.7) == "inconclusive"
    assert C.positive()(0.01, 0.02) == "supported" and C.positive()(-0.02, -0.01) == "contradicted"
    assert C.positive()(-0.01, 0.01) == "inconclusive"
    assert C.negative()(-0.02, -0.01) == "supported" and C.negative()(0.01, 0.02) == "contradicted"
    # a difference that is exactly zero on every deal: nothing to decide, not undecided
    assert C.positive()(0.0, 0.0) == "no difference" == C.negative()(0.0, 0.0)
    assert C.positive()(0.0, 0.01) == "inconclusive" and C.negative()(-0.01, 0.0) == "inconclusive"
    assert "no difference" in C.positive().text and "no difference" in C.negative().text


def _claim(rule):
    return C.Claim("synthetic", "q", "reading", "subset", "regle", "measure", rule)


@pytest.mark.parametrize("rule", [C.positive(), C.negative()])
def test_judge_says_no_difference_when_both_choices_give_the_same_result(rule):
    same = {"estimate": 0.0, "ci95": [0.0, 0.0], "n": 6_717}
    assert C.judge(_claim(rule), same) == "no difference"
    # a zero estimate whose interval has width is only undecided
    assert C.judge(_claim(rule), {"estimate": 0.0, "ci95": [-0.003, 0.003], "n": 6_717}) \
        == "inconclusive"
    # no deals, or no interval (n = 1), decide nothing
    assert C.judge(_claim(rule), {"estimate": 0.0, "ci95": [0.0, 0.0], "n": 0}) == "inconclusive"
    assert C.judge(_claim(rule), {"estimate": 0.0, "ci95": [math.nan, math.nan], "n": 1}) \
        == "inconclusive"


def test_no_difference_is_only_for_comparisons():
    """A probability measured as exactly 0 is far from 2/3: contradicted, not 'no difference'."""
    exact_zero = {"estimate": 0.0, "ci95": [0.0, 0.0], "n": 100, "exact": True}
    assert C.judge(_claim(C.near(2 / 3, 0.05)), exact_zero) == "contradicted"
    assert C.judge(_claim(C.at_least(2 / 3)), exact_zero) == "contradicted"
    assert set(C.VERDICTS) == {"supported", "contradicted", "inconclusive", "no difference"}


@pytest.mark.quick
def test_every_claim_of_the_issue_is_there_with_its_readings():
    claims = C.claim_list()
    ids = {c.id for c in claims}
    assert {"two-to-one", "four-out-of-five", "adversary-at-three", "adversary-at-four",
            "propose-at-three-fatal", "proposing-till-exhausted", "jeux-de-regle-play"} <= ids
    assert len([i for i in ids if i.startswith("dealer-")]) == 5
    two = [c for c in claims if c.id == "two-to-one"]
    assert {c.reading.split(":")[0] for c in two} == {"estimate", "floor"}
    assert len({c.subset for c in two}) == 8           # overall + the 7 rules
    for c in claims:
        assert c.quote and c.rule.text and c.source == C.SOURCE


SEEDS = REPO.parent / "shared"
#: The Écarté chapter of Hoyle's Games Modernized as plain text, which the repository
#: does not ship: the quotes are checked against it where a developer has it.
SEED_TEXT = "seeds/002_25d08f83baa0f9d5.txt"


@pytest.mark.quick
@pytest.mark.skipif(not (SEEDS / SEED_TEXT).exists(),
                    reason="no copy of the text of Hoyle's Games Modernized (Écarté) at hand "
                           "to check the quotes against (the repository does not ship it)")
def test_every_quote_is_in_the_seed_text():
    text = " ".join((SEEDS / SEED_TEXT).read_text(encoding="utf-8").split())
    for c in C.claim_list():
        for piece in c.quote.split("..."):
            piece = piece.strip().rstrip(",")
            if piece:
                assert piece in text, (c.id, piece)


@pytest.mark.quick
def test_trump_split_odds_reproduce_fosters_counts():
    odds = C.trump_split_odds()
    assert odds["one trump in hand (Foster: 44,574 / 65,780)"] == 44_574 / 65_780
    assert odds["two trumps in hand (Foster: 50,274 / 65,780)"] == 50_274 / 65_780
    # rules with exactly one trump have the one-trump odds; the whole list lies in between
    assert odds["rule 4: one-trump-four-king"] == pytest.approx(44_574 / 65_780)
    assert 44_574 / 65_780 < odds["all jeux de règle"] < odds["rule 1: three-trumps"]


@pytest.mark.quick
def test_checkpoints_double_up_to_the_cap():
    assert checkpoints(100_000, first=16_384) == [16_384, 32_768, 65_536, 100_000]
    assert checkpoints(10, first=16_384) == [10]
    assert checkpoints(10**6, deals=5_000) == [5_000]


def test_precision_rule_stops_at_the_first_checkpoint_that_is_precise_enough():
    calls = []

    def step(lo, hi):
        calls.append((lo, hi))
        return np.array([hi - lo])

    def check(total):
        n = int(total[0])
        half = 1 / math.sqrt(n)
        return half <= 0.01, half, {"n": n}

    history = []
    total, n, worst = run_until(step, checkpoints(10**6, first=1_000), check, history)
    assert calls == [(0, 1_000), (1_000, 2_000), (2_000, 4_000), (4_000, 8_000),
                     (8_000, 16_000)]
    assert n == 16_000 and int(total[0]) == 16_000 and worst <= 0.01
    assert [h["deals"] for h in history] == [1_000, 2_000, 4_000, 8_000, 16_000]


@pytest.fixture(scope="module")
def small_run():
    settings = C.ClaimsSettings(seed=3, deals=3_000)
    return {m: C.run_model(m, settings) for m in ("dd", "heuristic")}


def test_small_run_measures_every_claim(small_run):
    rows = C.results(small_run)
    assert len(rows) == 2 * len(C.claim_list())
    for r in rows:
        assert r["verdict"] in C.VERDICTS
        assert r["n"] > 0, r
        lo, hi = r["ci95"]
        assert lo <= r["estimate"] <= hi or math.isclose(lo, hi), r
    # the example hand's P(point) is exact for dd and heuristic
    four = [r for r in rows if r["id"] == "four-out-of-five" and r["reading"].startswith("est")]
    assert all(r["exact"] and r["n"] == 5 * 65_780 for r in four)


def test_at_four_all_with_the_king_held_there_is_no_difference(small_run):
    """4-4, the elder holding the king: he marks it and wins the game whether he plays or
    proposes, so the paired difference is 0 on every deal — 'no difference'."""
    rows = [r for r in C.results(small_run) if r["id"] == "adversary-at-four"
            and r["subset"] == "jeux de règle with the king, elder at 4, dealer at 4"]
    assert {r["model"] for r in rows} == {"dd", "heuristic"}
    for r in rows:
        assert r["n"] > 1 and r["estimate"] == 0 and r["ci95"] == [0, 0], r
        assert r["verdict"] == "no difference"
    # and nowhere else in this run is a non-zero estimate called that
    for r in C.results(small_run):
        if r["verdict"] == "no difference":
            assert r["estimate"] == 0 and r["ci95"] == [0, 0], r


def test_the_score_claims_use_the_same_deals_in_both_arms(small_run):
    data = small_run["dd"]
    joint = data["regle"].sum(axis=0)
    f = AP.game_value(data["v"], 0, 3)
    paired = AP.paired_mean(joint, f)
    assert paired["n"] == joint.sum()
    assert paired["se"] < AP.unpaired_se(joint, f)


@pytest.mark.quick
def test_game_value_is_one_when_a_mark_wins():
    v = np.full((5, 5), 0.5)
    f = AP.game_value(v, 4, 0)
    # the elder at 4 wins with any point of his; a dealer's point at 0-4 leaves him at 4
    assert all(f[c] == 1.0 for c in range(48) if AP.ELDER_WINS_POINT[c] and AP.KING[c] != 1)
    g = AP.game_value(v, 0, 4)
    assert all(g[c] == 0.0 for c in range(48) if AP.KING[c] in (1, 3))  # dealer's king at 4


def test_claims_json_has_every_claim_for_every_model(cli):
    result = cli("claims", "--deals", "1500", "--play", "dd",
                 "--play", "pimc", "--worlds", "8", "--json")
    assert result.code == 0 and result.err == "", result
    d = json.loads(result.out)
    ids = {c.id for c in C.claim_list()}
    for model in ("dd", "pimc"):
        got = {r["id"] for r in d["claims"] if r["model"] == model}
        assert got == ids
    for r in d["claims"]:
        assert set(r) >= {"id", "model", "estimate", "ci95", "n", "verdict"}
        assert r["verdict"] in C.VERDICTS
    assert d["provenance"]["seed"] == 0 and d["provenance"]["deals_fixed"] == 1500


def test_claims_report_files(cli, tmp_path):
    result = cli("claims", "--deals", "1000", "--play", "heuristic",
                 "--out", str(tmp_path), "--quiet")
    assert result.code == 0 and result.err == "", result
    names = {p.name for p in tmp_path.iterdir()}
    assert {"claims.md", "claims.csv", "rules.csv", "rules.png", "play_minus_propose.png", "game_win.png",
            "convergence.png"} <= names
    assert not any(n.endswith(".tmp") for n in names)
    text = (tmp_path / "claims.md").read_text(encoding="utf-8")
    assert "seed 0" in text and "heuristic" in text and "ecarte-sim" in text
    # the summary of verdicts comes first, the run and sampling tables last; the verdict
    # words are explained before the first verdict, "no difference" among them
    assert (text.index("## Summary of verdicts") < text.index("## Verdicts")
            < text.index("## Run") < text.index("## Sampling within each class"))
    summary = text.split("## Summary of verdicts", 1)[1].split("## Verdicts", 1)[0]
    for word in C.VERDICTS:
        assert f"- **{word}**:" in summary.split("| claim |", 1)[0], word
    assert "| two-to-one | estimate: P(point) ≈ 2/3 | all jeux de règle |" in summary
    assert "{'" not in text  # no Python reprs in the prose
    # 4-4 with the king held: both choices give the same result
    assert "elder at 4, dealer at 4 | heuristic | 0.0000 | [0.0000, 0.0000]" in text
    assert "**no difference**" in text
    # a reader with only the repository: the source by name, no paths outside it
    assert "*Hoyle's Games Modernized*, Écarté" in text
    assert "seeds/" not in text and "seed 00" not in text
    assert "analysis/ecarte/claims/decisions.py" in text


def test_hand_json_contract(cli):
    result = cli("hand", "QH AH 7H KS KD", "--trump", "H", "--deals",
                 "2000", "--json")
    assert result.code == 0 and result.err == "", result
    d = json.loads(result.out)
    assert d["trump"] == "H" and d["model"] == "dd"
    assert set(d["hand"].split()) == {"QH", "AH", "7H", "KS", "KD"}
    for arm in ("play", "propose"):
        assert set(d[arm]) >= {"point", "vole", "expected_points", "n", "exact", "ci95"}
        assert d[arm]["n"] == 2000 and d[arm]["exact"] is False
    assert d["play_minus_propose"]["n"] == 2000


def test_hand_exact_equals_the_enumeration(cli):
    result = cli("hand", "KS QS JS 8H 8D", "--trump", "QH", "--exact",
                 "--play", "heuristic", "--json")
    assert result.code == 0 and result.err == "", result
    d = json.loads(result.out)
    counts = exact_codes(int(parse_hand("KS QS JS 8H 8D")), 14, 1,
                         make_cfg(play="heuristic", elder_first="play"))
    s = AP.exact_summary(counts)
    assert d["play"]["exact"] is True and d["play"]["n"] == 65_780 == counts.sum()
    assert d["play"]["point"] == s["point"] and d["play"]["ci95"] == [s["point"], s["point"]]
    # proposing draws from the stock: its row is sampled, on the deals of the seed
    assert d["propose"]["exact"] is False and d["propose"]["n"] >= 16_384
    assert d["play_minus_propose"]["n"] == d["propose"]["n"]
    assert d["provenance"]["seed"] == 0


@pytest.mark.quick
@pytest.mark.parametrize("args,token", [
    (["hand", "QH AH 7H KS KX", "--trump", "H"], "KX"),
    (["hand", "QH AH 7H KS KD", "--trump", "Z"], "Z"),
    (["hand", "QH AH 7H KS KD", "--trump", "AH"], "AH"),
    (["hand", "QH AH 7H KS", "--trump", "H"], "4"),
    (["hand", "QH AH 7H KS KD", "--trump", "H", "--exact", "--play", "pimc"], "pimc"),
    (["claims", "--play", "bridge"], "bridge"),
    (["claims", "--precision", "0"], "0"),
])
def test_bad_input_is_one_line_and_exit_code_2(args, token):
    import subprocess
    import sys
    run = subprocess.run([sys.executable, "-m", "ecarte_sim.apps.cli", *args], capture_output=True,
                         text=True, timeout=BLOCKED)
    assert run.returncode == 2, run
    assert "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1 and token.lower() in run.stderr.lower(), run.stderr


def test_paired_mean_equals_numpy_on_the_expanded_deals():
    """The table formulas against numpy on the deal-by-deal values they summarise."""
    rng = np.random.default_rng(0)
    joint = np.zeros((48, 48), dtype=np.int64)
    a = rng.integers(0, 48, 5_000)
    b = np.where(rng.random(5_000) < 0.7, a, rng.integers(0, 48, 5_000))
    np.add.at(joint, (a, b), 1)
    f = rng.normal(size=48)
    d = f[a] - f[b]
    r = AP.paired_mean(joint, f)
    assert r["n"] == 5_000
    assert r["mean"] == pytest.approx(d.mean(), rel=1e-12)
    assert r["se"] == pytest.approx(d.std(ddof=1) / math.sqrt(5_000), rel=1e-10)
    unpaired = math.sqrt(f[a].var(ddof=1) / 5_000 + f[b].var(ddof=1) / 5_000)
    assert AP.unpaired_se(joint, f) == pytest.approx(unpaired, rel=1e-10)
    s = AP.arm_summary(np.bincount(a, minlength=48))
    assert s["point"] == pytest.approx(AP.ELDER_WINS_POINT[a].mean())
    assert s["expected_points"] == pytest.approx(AP.NET[a].mean())


def test_game_value_averages_back_to_v_at_every_score():
    """The role swap after a deal: averaging game_value over the outcome distribution that
    made V must give V itself (a wrong swap, e.g. V[x', y'], fails this for a random V)."""
    from ecarte_sim.analysis.ecarte.measures.scores import N_CODES, win_probabilities
    rng = np.random.default_rng(1)
    q = rng.dirichlet(np.ones(48))
    p = np.zeros(N_CODES)
    for code in range(48):
        p[AP.deal_code(code)] += q[code]
    v = win_probabilities(p)
    for x in range(5):
        for y in range(5):
            assert q @ AP.game_value(v, x, y) == pytest.approx(v[x, y], abs=1e-12)


def test_json_has_no_nan():
    from ecarte_sim.apps.cli.common import finite as _finite
    assert _finite({"a": [float("nan"), 1.0, float("inf")], "b": (2, "x")}) == \
        {"a": [None, 1.0, None], "b": [2, "x"]}


def test_unwritable_out_fails_before_the_run(cli, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = cli("claims", "--deals", "100", "--out",
                 str(blocker / "sub"))
    assert result.code == 2 and "--out" in one_line_error(result)
