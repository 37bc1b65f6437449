"""The strategy card (``ecarte-sim chart``; analysis/ecarte/solving/chart.py, analysis/reports/chart.py).

* Every cell's action is the weighted majority action of its class of hands, and the
  stated shares (reproduced, dealt, the margin, the treatise's agreement, the overall
  share) are right: recomputed here with a plain loop over the canonical states, the
  classes read from each state's representative cards, not from the module's features.
* PNG, SVG and PDF are written, one A4 page, with the provenance in the metadata, and
  the same chart gives the same bytes.
* Bad input (role, score, play model, extension; no shipped strategy) is one line,
  exit 2; a strategy shipped in a directory is what the command charts.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections import defaultdict
from itertools import combinations

import numpy as np
import pytest

from ecarte_sim.analysis.ecarte.solving import chart as card
from ecarte_sim.analysis.ecarte.solving import solved
from ecarte_sim.engine.ecarte.decisions.policies import SCORE_SLOTS
from ecarte_sim.engine.ecarte.decisions.states import N_STATES, representatives, state_weights


# --------------------------------------------------------------------------- the reference

def _labels(hand: int) -> tuple[str, str]:
    """(row, column) of a representative hand (spades = trumps = byte 0), written out
    here from the cards: trumps held, the king of trumps, plain kings, plain suits."""
    suits = [(hand >> (8 * s)) & 0xFF for s in range(4)]
    trumps = bin(suits[0]).count("1")
    king = suits[0] >> 7 & 1
    kings = sum(s >> 7 & 1 for s in suits[1:])
    held = sum(s != 0 for s in suits[1:])
    if trumps == 0:
        row = "no trump"
    else:
        row = f"{trumps} trump{'s' if trumps > 1 else ''}, {'king' if king else 'no king'}"
    group = "no plain king" if kings == 0 else f"{kings} plain king{'s' if kings > 1 else ''}"
    sub = "no plain card" if held == 0 else f"{held} suit{'s' if held > 1 else ''}"
    return row, f"{group}, {sub}"


def reference(role, table, gain, treatise, weights=None):
    """Per (row, column): the cell a plain loop over the states finds."""
    yes, no = card.ACTIONS[role]
    hands, _ = representatives()
    w = state_weights() if weights is None else weights
    acc = defaultdict(lambda: {"w": 0, "yes": 0, "t_yes": 0, "g": 0.0, "gw": 0})
    grand = 0
    for i in range(N_STATES):
        wi = int(w[i]) if weights is None else float(w[i])
        if wi == 0:
            continue
        a = acc[_labels(int(hands[i]))]
        grand += wi
        a["w"] += wi
        a["yes"] += wi * bool(table[i])
        a["t_yes"] += wi * bool(treatise[i])
        if gain is not None and not math.isnan(gain[i]):
            a["g"] += wi * float(gain[i])
            a["gw"] += wi
    cells, kept = {}, 0
    for key, a in acc.items():
        says = a["yes"] * 2 > a["w"]           # a tie goes to play / refuse
        share = a["yes"] if says else a["w"] - a["yes"]
        t_says = a["t_yes"] * 2 > a["w"]
        kept += share
        mean = a["g"] / a["gw"] if a["gw"] else float("nan")
        cells[key] = {"action": yes if says else no, "reproduced": share / a["w"],
                      "dealt": a["w"] / grand,
                      "margin": mean if says else -mean,
                      "treatise_differs": t_says != says,
                      "treatise_agrees": (a["t_yes"] if says else a["w"] - a["t_yes"])
                      / a["w"]}
    return cells, kept / grand


@pytest.mark.quick
@pytest.mark.parametrize("role, seed, proposed", [("elder", 1, False), ("dealer", 2, False),
                                                  ("dealer", 3, True)])
def test_every_cell_is_the_weighted_majority_of_its_hands(role, seed, proposed):
    rng = np.random.default_rng(seed)
    # a table that leans by class (so cells are not all 50/50) plus noise, gains with
    # unestimated states, a treatise table that differs in places
    f = card.terms()
    lean = 0.15 * f["trumps"].to_numpy() - 0.3 + 0.1 * f["plain_suits"].to_numpy()
    table = rng.random(N_STATES) < 1 / (1 + np.exp(-4 * lean))
    gain = rng.normal(0.01, 0.03, N_STATES)
    gain[rng.random(N_STATES) < 0.2] = np.nan
    treatise = np.where((f["trumps"].to_numpy() == 2) ^ (rng.random(N_STATES) < 0.2),
                        ~table, table)
    w = state_weights().astype(float)
    if proposed:        # the dealer's hands weighted by the chance he is proposed to
        w = w * card.proposal_chance(rng.random(N_STATES) < 0.5, samples=4)
        w[rng.random(N_STATES) < 0.01] = 0.0
    chart = card.compute(role, table, gain, treatise, weights=w if proposed else None)
    ref, overall = reference(role, table, gain, treatise, w if proposed else None)
    seen = set()
    for row in chart.cells:
        for c in row:
            key = (c.row_label, c.col_label)
            if key not in ref:
                assert c.action is None and c.dealt == 0, key
                continue
            seen.add(key)
            r = ref[key]
            assert c.action == r["action"], key
            assert c.reproduced == pytest.approx(r["reproduced"], abs=1e-12), key
            assert c.dealt == pytest.approx(r["dealt"], abs=1e-15), key
            assert c.margin == pytest.approx(r["margin"], abs=1e-12, nan_ok=True), key
            assert c.treatise_differs == r["treatise_differs"], key
            assert c.treatise_agrees == pytest.approx(r["treatise_agrees"], abs=1e-12), key
    assert seen == set(ref)                    # every dealt class is a cell
    assert chart.reproduced == pytest.approx(overall, abs=1e-12)
    assert sum(c.dealt for row in chart.cells for c in row) == pytest.approx(1.0)
    assert chart.treatise_agreement == pytest.approx(w[table == treatise].sum() / w.sum())
    assert chart.chosen == pytest.approx(w[table].sum() / w.sum())
    # the chart's own table does what the table does on the stated share
    assert w[card.chart_table(chart) == table].sum() / w.sum() == \
        pytest.approx(chart.reproduced)
    assert any(c.treatise_differs for row in chart.cells for c in row)


def test_proposal_chance_is_the_share_of_elder_hands_that_propose():
    """Against every one of the 65,780 elder hands the dealer's cards and the turn-up
    leave, for a few states; the same on one thread as on all."""
    import numba
    from ecarte_sim.engine.ecarte.decisions.states import states_of
    elder = card.treatise_tables()["elder"]
    chance = card.proposal_chance(elder, samples=96, seed=5)
    hands, turn_ups = representatives()
    for i in (0, 77_777, 200_001, N_STATES - 1):
        rest = [c for c in range(32) if not int(hands[i]) >> c & 1 and c != turn_ups[i]]
        assert len(rest) == 26
        elders = np.array([sum(1 << c for c in five) for five in combinations(rest, 5)],
                          dtype=np.uint32)
        exact = elder[states_of(elders, np.full(len(elders), turn_ups[i]))].mean()
        se = math.sqrt(exact * (1 - exact) / 96)
        assert abs(chance[i] - exact) < 4.5 * se + 1e-9, (i, chance[i], exact)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = card.proposal_chance(elder, samples=8, seed=9)
    finally:
        numba.set_num_threads(threads)
    card._memo_chance.cache_clear()
    assert np.array_equal(one, card.proposal_chance(elder, samples=8, seed=9))
    assert not np.array_equal(one, card.proposal_chance(elder, samples=8, seed=10))
    # the mean chance over dealt hands is the share of dealt hands the elder proposes on
    w = state_weights().astype(float)
    assert (w * chance).sum() / w.sum() == pytest.approx((w * elder).sum() / w.sum(),
                                                         abs=0.003)


def test_the_treatise_charted_is_its_own_reference():
    tables = card.treatise_tables()
    for role in ("elder", "dealer"):
        chart = card.compute(role, tables[role])
        assert chart.treatise_agreement == 1.0 and not chart.has_margin
        assert not any(c.treatise_differs for row in chart.cells for c in row)
        ref, overall = reference(role, tables[role], None, tables[role])
        assert chart.reproduced == pytest.approx(overall)
    # Hoyle's list: three trumps or more is always a jeu de règle (play)
    elder = card.compute("elder", tables["elder"])
    for row in elder.cells:
        for c in row:
            if c.action and c.row_label[0] in "345":
                assert c.action == "play" and c.reproduced == 1.0, c


def test_bad_tables_and_roles():
    with pytest.raises(ValueError, match="shape"):
        card.compute("elder", np.zeros(10, dtype=bool))
    with pytest.raises(ValueError, match="'banker'"):
        card.compute("banker", np.zeros(N_STATES, dtype=bool))
    with pytest.raises(ValueError, match="'rows-cols'"):
        card.classes("rows-cols")


# --------------------------------------------------------------------------- files

@pytest.mark.parametrize("ext", ["png", "svg", "pdf"])
def test_files_are_written_one_a4_page_same_bytes(cli, tmp_path, ext):
    path = tmp_path / f"card.{ext}"
    written = []
    for _ in range(2):
        code, out, err = cli("chart", "--against", "treatise", "--role", "dealer",
                             "--score", "3-4", "--out", str(path))
        assert code == 0, err
        assert str(path) in out
        written.append(path.read_bytes())
    data = written[0]
    assert data == written[1]
    if ext == "png":
        from PIL import Image
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        with Image.open(path) as im:
            w, h = im.size
            prov = json.loads(im.text["Description"])
        assert abs(w / h - 11.69 / 8.27) < 0.01 and w >= 1600
        assert prov["command"] == "ecarte-sim chart"
        assert prov["parameters"]["score"] == "3-4"
    elif ext == "svg":
        text = data.decode()
        assert text.lstrip().startswith("<?xml") and "<svg" in text
        assert 'width="841.68pt"' in text and 'height="595.44pt"' in text
        assert "ecarte-sim chart" in text
    else:
        assert data[:5] == b"%PDF-"
        assert len(re.findall(rb"/Type /Page\b", data)) == 1
        box = re.search(rb"/MediaBox \[ ?0 0 ([\d.]+) ([\d.]+) ?\]", data)
        assert box and (float(box[1]), float(box[2])) == pytest.approx((841.68, 595.44))
        assert b"ecarte-sim chart" in data


# --------------------------------------------------------------------------- the command

ONE_LINE_ERRORS = [
    (["--role", "banker"], "banker"),
    (["--score", "5-0"], "5-0"),
    (["--score", "x-1"], "x-1"),
    (["--play", "foo"], "foo"),
    (["--against", "hoyle"], "hoyle"),
    (["--columns", "all"], "all"),
    (["--against", "treatise", "--out", "card.jpg"], "card.jpg"),
    (["--against", "treatise", "--play", "dd"], "--play"),
    (["--against", "treatise", "--out", "/nonexistent-dir/card.png"], "/nonexistent-dir"),
    (["--role", "dealer", "--weigh", "asked"], "asked"),
    (["--compare", "dd", "--against", "treatise"], "--compare"),
    (["--compare", "guess"], "guess"),
]


@pytest.mark.parametrize("args, token", ONE_LINE_ERRORS)
def test_bad_input_is_one_line_exit_2(cli, args, token):
    code, out, err = cli("chart", *args)
    assert code == 2 and out == ""
    assert err.startswith("Error:") and err.count("\n") == 1, err
    assert token in err


@pytest.fixture
def ship(tmp_path, monkeypatch):
    """Point the loader at a directory of our own (empty until a test writes to it)."""
    monkeypatch.setattr(solved, "DATA_DIR", tmp_path)
    solved.clear_cache()
    yield tmp_path
    solved.clear_cache()


def test_no_shipped_strategy_is_one_line(cli, ship):
    code, out, err = cli("chart", "--role", "dealer")
    assert code == 2 and out == ""
    assert err.startswith("Error: no solved strategy is shipped") and err.count("\n") == 1


def test_the_shipped_strategy_is_charted(cli, ship, tmp_path):
    rng = np.random.default_rng(7)
    tables = card.treatise_tables()
    elder = np.tile(tables["elder"], (SCORE_SLOTS, 1))
    dealer = np.tile(tables["dealer"], (SCORE_SLOTS, 1))
    row = 5 * 3 + 4
    dealer[row] = rng.random(N_STATES) < 0.5              # 3-4 differs from the maxims
    gains = rng.normal(0, 0.02, (SCORE_SLOTS, N_STATES))
    discards = np.zeros((SCORE_SLOTS, N_STATES), dtype=np.int64)
    data = solved.pack(elder, dealer, discards, discards, gains, gains, np.full((5, 5), 0.5))
    solved.write(ship, "dd", data, {"command": "ecarte-sim equilibrium (test)", "seed": 3})
    shipped = solved.load("dd")
    for weigh in ("dealt", "proposed"):
        code, out, err = cli("chart", "--role", "dealer", "--score", "3-4",
                             "--weigh", weigh, "--json")
        assert code == 0, err
        got = json.loads(out)
        weights = None if weigh == "dealt" else \
            state_weights() * card.proposal_chance(shipped.elder[row])
        want = card.compute("dealer", shipped.dealer[row], shipped.gain("dealer")[row],
                            tables["dealer"], weights=weights).to_dict()
        assert got["play"] == "dd" and got["score"] == "3-4" and got["role"] == "dealer"
        assert solved.digest(data)[:12] in got["source"]
        assert got["made_by"] == "ecarte-sim equilibrium (test)"
        assert got["provenance"]["source"]["seed"] == 3
        assert got["cells"] == json.loads(json.dumps(want["cells"]).replace("NaN", "null"))
        assert got["reproduced"] == pytest.approx(want["reproduced"])
        assert any(c["treatise_differs"] for c in got["cells"])
        assert ("proposes by the elder's table at 3-4" in got["weighting"]) == \
            (weigh == "proposed")
    # and the picture of it
    code, out, err = cli("chart", "--role", "dealer", "--score", "3-4", "--play",
                         "dd", "--out", str(tmp_path / "dealer.png"))
    assert code == 0 and (tmp_path / "dealer.png").stat().st_size > 10_000
    # a model not shipped
    code, out, err = cli("chart", "--play", "pimc")
    assert code == 2 and "pimc" in err and err.count("\n") == 1


def test_compare_says_where_two_shipped_strategies_part(cli, ship):
    """--compare: the share of hands whose first decision differs, recomputed here from
    the two tables (the dealer's weighted by the first's elder proposing), zero where the
    tables agree, and the cells whose majority action differs named at --score."""
    rng = np.random.default_rng(11)
    tables = card.treatise_tables()
    elder = np.tile(tables["elder"], (SCORE_SLOTS, 1))
    dealer = np.tile(tables["dealer"], (SCORE_SLOTS, 1))
    discards = np.zeros((SCORE_SLOTS, N_STATES), dtype=np.int64)
    gains = np.zeros((SCORE_SLOTS, N_STATES))
    v = np.full((5, 5), 0.5)
    solved.write(ship, "dd", solved.pack(elder, dealer, discards, discards, gains, gains, v),
                 {"seed": 1})
    flip_e, flip_d = rng.random(N_STATES) < 0.3, rng.random(N_STATES) < 0.1
    elder2, dealer2 = elder.copy(), dealer.copy()
    elder2[24] ^= flip_e                                   # 4-4
    dealer2[13] = True                                     # 2-3: accept everything
    dealer2[13] ^= flip_d
    solved.write(ship, "pimc-inference",
                 solved.pack(elder2, dealer2, discards, discards, gains, gains, v), {"seed": 2})
    code, out, err = cli("chart", "--play", "dd", "--compare", "pimc-inference",
                         "--score", "4-4", "--json")
    assert code == 0, err
    rows = {(r["score"], r["role"]): r for r in json.loads(out)["rows"]}
    assert len(rows) == 50
    w = state_weights().astype(float)
    assert rows["4-4", "elder"]["parts"] == pytest.approx(w[flip_e].sum() / w.sum())
    wd = w * card.proposal_chance(tables["elder"])
    differ = dealer[13] != dealer2[13]
    assert rows["2-3", "dealer"]["parts"] == pytest.approx(wd[differ].sum() / wd.sum())
    assert rows["2-3", "dealer"]["second"] == pytest.approx(wd[dealer2[13]].sum() / wd.sum())
    changed = {("4-4", "elder"), ("2-3", "dealer")}
    for key, r in rows.items():
        if key not in changed:
            assert r["parts"] == 0 and r["cells"] == "" and r["first"] == r["second"]
    assert "refuse → accept" in rows["2-3", "dealer"]["cells"]
    code, out, err = cli("chart", "--compare", "pimc-inference", "--score", "2-3")
    assert code == 0, err
    assert "dealer at 2-3:" in out and "cells differ" in out and "refuse → accept" in out
    assert "elder at 2-3: the cells' majority actions are the same" in out


def test_text_chart(cli):
    code, out, err = cli("chart", "--against", "treatise")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("elder at 0-0")
    assert any(line.startswith("3 trumps, king") and "play 100%" in line for line in lines)
    assert re.search(r"reproduce \d+\.\d% of dealt hands", lines[-1])
    # words, not codes: every cell's action is a whole word; the headings are not cut
    cells = [w for line in lines[3:-2] for w in line[20:].split()]
    assert {w for w in cells if w.isalpha()} <= {"propose", "play"}
    assert "no plain card" in lines[2]


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
