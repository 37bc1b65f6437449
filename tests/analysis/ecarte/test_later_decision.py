"""Advice on the later decisions (analysis/ecarte/advice/later_decision.py, `advise --said
--discards`): the history checked against the laws, one line naming what is wrong; the
values on worlds drawn from what the player knows, the same as the coach's; the command
at its defaults."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ecarte_sim.analysis.ecarte.advice import later_decision as LD
from ecarte_sim.engine.ecarte.deals import later as kern
from ecarte_sim.engine.deck import card_set
from helpers import one_line_error

H = kern.HISTORY.at


@pytest.mark.quick
def test_a_history_is_read_as_the_kernels_history():
    h = LD.history_of("KH 9H 8S 7D QC", "JH", "elder", "propose,accept", "7S 8D 9C:3")
    hist = h["hist"]
    assert h["kind"] == "decide" and h["round"] == 1 and h["stock_left"] == 15
    assert hist[H.ROLE] == 0 and hist[H.ROUND] == 1 and hist[H.TOOK] == 3
    assert int(kern.current_hand(hist)) == h["hand"]
    # his dealt hand held what he threw; what he drew is in his hand now
    assert hist[H.HAND0] & hist[H.THROWN] == hist[H.THROWN]
    assert hist[H.DRAWN] & h["hand"] == hist[H.DRAWN]
    d = LD.history_of("KH QS 9S 8D 7C", "JH", "dealer", "propose,accept,propose,accept",
                      "TC:2", discard=True, elder_took=3)
    assert d["kind"] == "discard" and d["round"] == 1 and d["hist"][H.TOOK + 1] == 3
    assert d["stock_left"] == 21 - 3 - 3


@pytest.mark.quick
@pytest.mark.parametrize("args, kwargs, token", [
    (("KH 9H 8S 7D QC", "JH", "elder", "accept,propose", "7S:1"), {}, "accept"),
    (("KH 9H 8S 7D QC", "JH", "elder", "propose,accept", "KH 8D:2"), {}, "KH"),
    (("KH 9H 8S 7D QC", "JH", "elder", "propose,accept", "7S 7S:2"), {}, "7S"),
    (("KH 9H 8S 7D QC", "JH", "elder", "propose,accept", "-:2"), {}, "Law 27"),
    (("KH 9H 8S 7D QC", "JH", "elder", "propose,accept", "JH:2"), {}, "JH"),
    (("KH 9H 8S 7D QC", "JH", "elder", "propose,accept", ""), {}, "discard group"),
    (("KH 9H 8S 7D QC", "JH", "elder", "propose,accept", "7S:9"), {}, "9"),
    (("KH 9H 8S 7D QC", "JH", "elder", "propose,accept,propose,accept,propose,accept,"
      "propose,accept,propose,accept", "7S:5; 8D:5; 9D:5; TD:5; AD:5"), {}, "Law 38"),
    (("KH 9H 8S 7D QC", "JH", "dealer", "propose,accept", "7S:3"), {}, "Law 25"),
    (("KH 9H 8S 7D QC", "JH", "elder", "propose,accept,propose", "7S:3"), {}, "--role dealer"),
    (("KH 9H 8S 7D QC", "JH", "elder", "propose,refuse", ""), {}, "refuse"),
    (("KH 9H 8S 7D QC", "JH", "dealer", "propose,accept,propose,accept", "7S:3"),
     {"discard": True}, "--elder-took"),
    (("KH 9H 8S 7D", "JH", "elder", "propose,accept", "7S:3"), {}, "five cards"),
])
def test_a_history_the_laws_forbid_is_refused_naming_what_is_wrong(args, kwargs, token):
    with pytest.raises(ValueError) as exc:
        LD.history_of(*args, **kwargs)
    assert token in str(exc.value), exc.value


def test_later_advice_values_both_actions_on_the_worlds_and_says_the_treatise():
    r = LD.later_advice("KH 9H 8S 7D QC", "JH", "elder", said="propose,accept",
                        discards="7S 8D 9C:3", deals=2048, seed=1)
    assert r["n"] + r["worlds_missed"] == 2048 and r["worlds_missed"] == 0
    assert set(r["values"]) == {"propose", "play"}
    lo, hi = r["gain"]["p_win_ci95"]
    assert lo <= r["gain"]["p_win"] <= hi
    assert r["treatise"]["says"] in ("propose", "play")
    assert r["action"] in ("propose", "play") and r["answered_by"] in ("table", "values")
    json.dumps(r, default=float)
    again = LD.later_advice("KH 9H 8S 7D QC", "JH", "elder", said="propose,accept",
                            discards="7S 8D 9C:3", deals=2048, seed=1)
    assert again["values"] == r["values"]                    # a pure function of the seed


def test_a_later_discard_is_valued_against_the_tables_cards():
    r = LD.later_discard_advice("KH 9H 8S 7D QC", "JH", "elder",
                                said="propose,accept,propose,accept", discards="7S 8D 9C:3",
                                deals=1024, seed=2, also=card_set("QC", "x"))
    thrown = {r["throws"]} | {o["throws"] for o in r["others"]}
    assert len(thrown) == 1 + len(r["others"])               # distinct cards each
    assert "also" in r and r["also"]["n"] in (0, 1024)


def test_advise_answers_a_later_decision_at_its_defaults(cli):
    r = cli("advise", "KH 9H 8S 7D QC", "--turn-up", "JH", "--said", "propose,accept",
            "--discards", "7S 8D 9C:3", "--json")
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert out["n"] == 16384 and out["round"] == 1 and out["decision"] == "later"
    r = cli("advise", "KH QS 9S 8D 7C", "--turn-up", "JH", "--role", "dealer", "--said",
            "propose,accept,propose", "--discards", "TC:2")
    assert r.code == 0 and "accept over refuse" in r.out, r


@pytest.mark.quick
@pytest.mark.parametrize("args, token", [
    (["--said", "propose,accept", "--discards", "KH:2"], "KH"),
    (["--said", "accept", "--discards", "7S:2"], "accept"),
    (["--said", "propose,accept", "--discards", "7S:2", "--against", "treatise"], "treatise"),
    (["--discards", "7S:2"], "--said"),
    (["--said", "propose,accept", "--discards", "7S:2", "--elder-took", "2"], "--elder-took"),
])
def test_advise_refuses_a_bad_history_in_one_line(cli, args, token):
    r = cli("advise", "KH 9H 8S 7D QC", "--turn-up", "JH", *args)
    assert r.code == 2
    assert token in one_line_error(r)


def test_the_audit_of_the_later_rounds_values_decisions_the_strategy_meets():
    from ecarte_sim.analysis.ecarte.advice.audit import AuditSettings, audit
    r = audit(AuditSettings(hands=6, deals=256, scores=((1, 2),), seed=5, rounds=("later",)))
    for role in ("elder", "dealer"):
        s = r["summaries"][f"{role} 1-2 later"]
        assert s["hands"] == 6 and s["deals_read"] > 6
    rows = [x for x in r["rows"] if x["rounds"] == "later"]
    assert all(x["round"] >= 1 and x["n"] == 256 for x in rows)
    assert all(np.isfinite(x["gain"]) for x in rows)


@pytest.mark.parametrize("policies", [("strategy", "maxims"), ("regle", "strategy"),
                                      ("strategy", "strategy")])
def test_simulate_plays_the_strategy_bit_identically_for_any_thread_count(cli, policies):
    """Issue 50.6: the computed strategy as a policy of either role (its discards too)."""
    elder, dealer = policies
    runs = []
    for threads in ("1", "2"):
        r = cli("simulate", "--deals", "30000", "--seed", "5", "--elder-policy", elder,
                "--dealer-policy", dealer, "--discard", "strategy", "--threads", threads,
                "--chunk", "1000" if threads == "1" else "777", "--json", "--quiet")
        assert r.code == 0, r.err
        out = json.loads(r.out)
        out.pop("provenance", None)
        runs.append(out)
    assert runs[0] == runs[1]
    assert runs[0]["settings"]["elder_policy"] == elder


def test_versus_compares_the_strategy_with_the_treatise(cli, tmp_path):
    r = cli("versus", "--deals", "4096", "--games", "16", "--out", str(tmp_path), "--json",
            "--quiet")
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert out["games"]["games"] == 32 and 0 <= out["games"]["share"] <= 1
    for side in ("elder", "dealer", "both"):
        assert out["deals"][side]["deals"] == 4096
    assert (tmp_path / "versus.md").is_file()
