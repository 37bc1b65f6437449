"""Each card's value with the player's own play after it (analysis/ecarte/play/card_regret.py):
where nothing is left to choose after the card, the measured value is the double-dummy
value, world by world; the worlds are the hands the inference weighs (the cards shown, Law
43, the king's announcement for pimc-king) and every one of them when they are few; the
player's card and the regret are consistent; the command runs and refuses bad input in
one line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ecarte_sim.analysis.ecarte.play import card_regret as CR
from ecarte_sim.analysis.ecarte.play.card_advice import parse_position
from ecarte_sim.engine.cards import parse_card


@pytest.mark.quick
def test_with_nothing_left_to_choose_the_value_is_double_dummy():
    """The dealer answers the elder's lead to the fourth trick: after his card the last
    trick is forced, so each card's value with the play after it is its double-dummy value
    in every world, and the regret is the double-dummy regret (exact: every hand)."""
    p = parse_position("8D QC", "9S", "dealer", said="play", played="KH 7H QH 9H AS 8S JH",
                       king="none")
    for player, w in (("pimc-inference", 64), ("pimc-king", 1024)):
        r = CR.evaluate(p, player, w, cap=4096, seed=3, decisions="treatise")
        assert r["every"] and r["worlds"] == r["of"] > 1
        for c in r["cards"]:
            assert np.array_equal(r["values"][c], r["dd_values"][c])
        best = max(r["rows"][c]["marks"] for c in r["cards"])
        assert r["regret"] == pytest.approx(best - r["rows"][r["mine"]]["marks"])
        assert r["rows"][r["mine"]]["diff"] == 0.0


@pytest.mark.quick
def test_the_worlds_are_those_the_inference_weighs():
    """The king of trumps announced by the dealer, who followed the elder's diamond: every
    pimc-king world holds it (and the card he played), a subset of the worlds read without
    the announcement. A dealer who answered the diamond with a spade (Law 43: no diamond,
    and no trump since he did not trump) holds neither in any world."""
    s_king = parse_position("JH AH 9D 8D", "QH", "elder", played="QD 7D", king="dealer")
    at = CR._at(s_king, "pimc-king", 64, "treatise")
    items, w, every, total = CR.worlds_of(at.setup, s_king, 4096, 1, True)
    king = 1 << parse_card("KH")
    assert items and all(h & king for h in items) and (w == 1000).all()
    assert all(h >> parse_card("7D") & 1 for h in items)          # his card is his
    plain, _, _, _ = CR.worlds_of(at.setup, s_king, 1 << 20, 1, False)
    assert any(not h & king for h in plain) and set(items) < set(plain)
    void = parse_position("JH AH 9D 8D", "QH", "elder", played="QD 7S", king="none")
    at = CR._at(void, "pimc-king", 64, "treatise")
    items, _, _, _ = CR.worlds_of(at.setup, void, 1 << 20, 1, True)
    diamonds_hearts = int(sum(1 << parse_card(c) for c in
                              "7D 9D TD AD JD QD KD 7H 8H 9H TH JH AH KH".split()
                              if c not in ("9D", "8D", "JH", "AH")))
    assert items and all(not h & diamonds_hearts for h in items)


def test_the_command_runs_and_refuses_bad_input(cli, tmp_path):
    """A small run writes its report; a bad player is one line and exit code 2."""
    out = tmp_path / "out"
    code, text, err = cli("card-regret", "--per-cell", "1", "--worlds", "16", "--players",
                          "pimc-inference:8", "--out", str(out), "--run-dir",
                          str(tmp_path / "run"), "--json", "-q")
    assert code == 0, err
    r = json.loads(text)
    rows = r["players"]["pimc-inference:8"]["rows"]
    assert r["positions"] == len(rows) == 24
    assert {(x["kind"], x["trick"], x["seat"]) for x in rows} == {
        (k, t, s) for k in CR.KINDS for t in (1, 2, 3, 4) for s in ("elder", "dealer")}
    assert all(x["regret"] >= 0 and x["card"] in [c["card"] for c in x["cards"]]
               for x in rows)
    assert (out / "card-regret.md").exists() and (out / "card-regret.csv").exists()
    again = json.loads(cli("card-regret", "--per-cell", "1", "--worlds", "16", "--players",
                           "pimc-inference:8", "--run-dir", str(tmp_path / "run"), "--json",
                           "-q")[1])
    assert again["players"]["pimc-inference:8"]["rows"] == rows      # resumed, the same
    code, text, err = cli("card-regret", "--players", "pimc-queen")
    assert code == 2 and text == "" and len(err.splitlines()) == 1 and "pimc-queen" in err
