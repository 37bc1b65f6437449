"""Presentation of the report files: colour scales and cell text of the heatmaps, the
fifteen convergence series (model x experiment) kept apart, and report text that a reader
with only the repository can follow (no paths outside it)."""

from __future__ import annotations

import pathlib
import re

import pytest

from ecarte_sim.analysis.reports import claims as R

REPO = pathlib.Path(__file__).resolve().parents[1]


def test_one_signed_changes_get_a_sequential_scale_from_zero():
    assert R.scale_for([0.011, 0.128, 0.003]) == ("Blues", 0.0, 0.128)
    assert R.scale_for([0.001, 0.004]) == ("Blues", 0.0, 0.02)       # the floor: no noise
    assert R.scale_for([-0.05, -0.01]) == ("Reds_r", -0.05, 0.0)


def test_changes_of_both_signs_get_a_diverging_scale_centred_at_zero():
    cmap, lo, hi = R.scale_for([-0.003, 0.136])
    assert cmap == "RdBu" and lo == -hi == -0.136


def test_cell_text_contrasts_with_its_cell():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    blues, rdbu = plt.get_cmap("Blues"), plt.get_cmap("RdBu")
    assert R.text_colour(blues(1.0)) == "white" and R.text_colour(blues(0.0)) == "black"
    assert R.text_colour(rdbu(0.0)) == "white" and R.text_colour(rdbu(1.0)) == "white"
    assert R.text_colour(rdbu(0.5)) == "black"


def test_twenty_convergence_series_are_told_apart_by_colour_and_line():
    styles = set(R.EXPERIMENT_STYLES.values())
    # regle, rules (class-sampled, one line per rule), dealer (one per maxim), habit, hand
    assert len(styles) == len(R.EXPERIMENT_STYLES) == 5
    assert len({ls for ls, _ in styles}) == len({m for _, m in styles}) == 5
    assert len(set(R.MODEL_COLOURS.values())) == len(R.MODEL_COLOURS) == 4
    # every (model, experiment) pair is a distinct (colour, line, marker)
    pairs = {(c, *s) for c in R.MODEL_COLOURS.values() for s in styles}
    assert len(pairs) == 20


def test_every_verdict_word_is_explained():
    from ecarte_sim.analysis.ecarte.claims import VERDICTS
    assert list(R.VERDICT_WORDS) == list(VERDICTS)
    assert "[0, 0]" in R.VERDICT_WORDS["no difference"]


@pytest.mark.parametrize("path", ["analysis/reports/claims.py", "analysis/ecarte/claims.py",
                                  "analysis/reports/scores.py", "analysis/reports/strategy.py",
                                  "analysis/reports/piquet.py", "analysis/piquet/report.py"])
def test_report_writers_point_nowhere_outside_the_repository(path):
    text = (REPO / path).read_text(encoding="utf-8")
    assert "seeds/" not in text and not re.search(r"seed 00\d", text), path
