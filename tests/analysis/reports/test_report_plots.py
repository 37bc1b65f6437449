"""Presentation of the report files: colour scales and cell text of the heatmaps, the rows
of convergence.png's precision panel and of claims.md's summary, and report text that a
reader with only the repository can follow (no paths outside it)."""

from __future__ import annotations

import re

import pytest

from ecarte_sim.analysis.reports import claims as R
from helpers import REPO



def test_one_signed_changes_get_a_sequential_scale_from_zero():
    assert R.scale_for([0.011, 0.128, 0.003]) == ("Blues", 0.0, 0.128)
    assert R.scale_for([0.001, 0.004]) == ("Blues", 0.0, 0.02)       # the floor: no noise
    assert R.scale_for([-0.05, -0.01]) == ("Reds_r", -0.05, 0.0)


def test_changes_of_both_signs_get_a_diverging_scale_centred_at_zero():
    cmap, lo, hi = R.scale_for([-0.003, 0.136])
    assert cmap == "RdBu" and lo == -hi == -0.136


@pytest.mark.quick
def test_cell_text_contrasts_with_its_cell():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    blues, rdbu = plt.get_cmap("Blues"), plt.get_cmap("RdBu")
    assert R.text_colour(blues(1.0)) == "white" and R.text_colour(blues(0.0)) == "black"
    assert R.text_colour(rdbu(0.0)) == "white" and R.text_colour(rdbu(1.0)) == "white"
    assert R.text_colour(rdbu(0.5)) == "black"


def test_precision_rows_give_one_row_per_class_and_per_plain_experiment():
    payload = {"provenance": {"precision": 0.005, "deals_fixed": None},
               "history": {"dd": [{"experiment": "regle", "deals": 16384, "worst_half_width": 0.02},
                                  {"experiment": "regle", "deals": 32768, "worst_half_width": 0.004},
                                  {"experiment": "rules", "class": "rule 2", "deals": 10,
                                   "worst_half_width": 0.5}]},
               "models": {"dd": {"classes": [
                   {"experiment": "rules", "class": "rule 2", "n": 1024, "half_width": 0.009,
                    "target": 0.01},
                   {"experiment": "dealer", "class": "two-to-discard", "n": 500,
                    "half_width": 0.006, "target": 0.005}]}}}
    rows = R.precision_rows(payload, ["dd"])
    by = {r["label"]: r for r in rows}
    assert len(rows) == 3
    # a plain-deal experiment: its last checkpoint, against the precision
    assert by[R.PLAIN_EXPERIMENTS["regle"]]["half_width"] == 0.004
    assert by[R.PLAIN_EXPERIMENTS["regle"]]["n"] == 32768
    # a class: its final figures, the rule named, its own target
    assert by["rule 2: two-trumps-one-suit"]["target"] == 0.01
    assert by["dealer: two-to-discard"]["half_width"] == 0.006
    # a run of fixed deals has no target
    payload["provenance"].update(deals_fixed=1000, precision=None)
    assert all(r["target"] is None for r in R.precision_rows(payload, ["dd"]))


def test_summary_measures_say_which_arm_minus_which():
    assert R.short_measure("P(elder wins the point), playing without proposing") == \
        "P(elder wins the point)"
    assert R.short_measure("change in the dealer's probability of winning the game from 0-0, "
                           "refusing minus accepting the first proposal, same deals") == \
        "dealer's P(win the game): refusing − accepting the first proposal"
    assert R.short_measure("the same change at dealer 3 minus at dealer 0") == \
        "the same change at dealer 3 minus at dealer 0"


def test_summary_rows_keep_every_reading_of_a_headline_subset():
    row = {"exact": False, "ci95": [0, 1], "estimate": 0.5, "n": 1, "verdict": "supported"}
    claims = [{**row, "id": "a", "reading": "estimate", "subset": "all", "model": m,
               "headline": True} for m in ("dd", "pimc")]
    claims += [{**row, "id": "a", "reading": "floor", "subset": "all", "model": "dd",
                "headline": False},
               {**row, "id": "a", "reading": "estimate", "subset": "rule 1", "model": "dd",
                "headline": False}]
    rows = R.summary_rows(claims)
    assert [(r["reading"], r["subset"]) for r in rows] == [("estimate", "all"), ("floor", "all")]
    assert set(rows[0]["models"]) == {"dd", "pimc"}


@pytest.mark.quick
def test_every_verdict_word_is_explained():
    from ecarte_sim.analysis.ecarte.claims.decisions import VERDICTS
    assert list(R.VERDICT_WORDS) == list(VERDICTS)
    assert "[0, 0]" in R.VERDICT_WORDS["no difference"]


@pytest.mark.parametrize("path", ["analysis/reports/claims.py", "analysis/ecarte/claims/decisions.py",
                                  "analysis/reports/scores.py", "analysis/reports/strategy.py",
                                  "analysis/reports/piquet.py", "analysis/piquet/report.py"])
def test_report_writers_point_nowhere_outside_the_repository(path):
    text = (REPO / path).read_text(encoding="utf-8")
    assert "seeds/" not in text and not re.search(r"seed 00\d", text), path


def test_one_score_strategy_figure_reads_hands_by_trumps_held():
    """strategy.png of a single-score run: hands by trumps held, weighed as dealt (the
    hypergeometric law of 7 trumps among the 31 cards left by the turn-up), and the table the
    best response replaces rebuilt from the settings the result echoes."""
    from math import comb

    import numpy as np

    from ecarte_sim.analysis.reports import strategy as RS
    from ecarte_sim.engine.ecarte.decisions.tables import treatise_table
    from ecarte_sim.engine.ecarte.settings import DealerPolicy, Discard, ElderPolicy

    exact = np.array([comb(7, k) * comb(24, 5 - k) for k in range(6)]) / comb(31, 5)
    assert RS.trumps_shares() == pytest.approx(exact, abs=1e-12)
    settings = {"elder_policy": "threshold", "dealer_policy": "maxims", "threshold": 5}
    elder = RS.treatise_row("elder", {"replaces": "threshold"}, settings)
    assert (elder == treatise_table("elder", ElderPolicy.THRESHOLD, 5)).all()
    assert not (elder == treatise_table("elder", ElderPolicy.THRESHOLD, 8)).all()
    dealer = RS.treatise_row("dealer", {"replaces": "maxims"}, settings)
    assert (dealer == treatise_table("dealer", DealerPolicy.MAXIMS)).all()
    thrown = RS.treatise_row("elder-discard", {"replaces": "fewest"}, settings)
    assert (thrown == int(Discard.FEWEST)).all()
    # one row of the map is the same column of the map of many rows
    rows = np.stack([elder, dealer.astype(elder.dtype)])
    assert RS.policy_map("elder", elder[None])[:, 0] == pytest.approx(
        RS.policy_map("elder", rows)[:, 0], nan_ok=True)


def test_a_result_n_is_written_in_words():
    from ecarte_sim.analysis.reports.provenance import caption, readable_n

    assert readable_n({"random": 1048576, "dd": 0}) == "random 1,048,576, dd 0"
    prov = {"command": "ecarte-sim piquet report", "version": "0", "seed": 0,
            "n": {"random": 1000, "partie": 100}}
    assert "n (random 1,000, partie 100);" in caption(prov) and "{" not in caption(prov)
    assert "n 5000;" in caption({**prov, "n": 5000})  # a plain count as before
