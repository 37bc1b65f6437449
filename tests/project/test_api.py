"""The public Python API (``import ecarte_sim``) and the Écarté settings object.

The CLI prints what the API returns (plus provenance), so each API function is checked
against its command's JSON on the same input; the settings object is checked as the one
source of the kernel's ``cfg``, the JSON echo and the task size.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import ecarte_sim as es
from ecarte_sim.api.practice import EXAMPLE, review
from ecarte_sim.engine.batch import DEFAULT_BLOCK
from ecarte_sim.engine.ecarte.settings import (CFG, PIMC_TASK, DealerPolicy, Discard, ElderPolicy,
                                               PlayModel, choices, member)


def _cli_json(cli, *args) -> dict:
    r = cli(*args, "--json")
    assert r.code == 0, r
    out = json.loads(r.out)
    out.pop("provenance", None)
    return out


@pytest.mark.quick
def test_public_names_resolve():
    for name in es.__all__:
        assert getattr(es, name) is not None
    with pytest.raises(AttributeError):
        es.no_such_thing  # noqa: B018


@pytest.mark.parametrize("args, call", [
    (["solve", "QH AH 7H KS KD", "KH JH 9H 8H 9C", "--trump", "TH"],
     lambda: es.solve("QH AH 7H KS KD", "KH JH 9H 8H 9C", "TH")),
    (["classify", "AH KS 7S KD KC", "--trump", "TH"],
     lambda: es.classify("AH KS 7S KD KC", "TH")),
    (["deal", "--seed", "7", "--index", "12345"], lambda: es.deal(7, 12345)),
    (["simulate", "--deals", "3000", "--seed", "2", "--play", "heuristic", "--quiet"],
     lambda: es.simulate(3000, seed=2, settings=es.EcarteSettings.build(play="heuristic"))),
    (["simulate", "--deals", "3000", "--seed", "2", "--no-exchange", "--quiet"],
     lambda: es.simulate_cards(3000, seed=2)),
    (["hand", "QH AH 7H KS KD", "--trump", "KH", "--deals", "2048", "--quiet"],
     lambda: es.hand("QH AH 7H KS KD", "KH", deals=2048)),
    (["advise", "KS QS JS 8H 8D", "--trump", "H", "--score", "3-4", "--deals", "1000"],
     lambda: es.advise("KS QS JS 8H 8D", "H", "3-4", deals=1000)),
    (["infer", "QS JS AH 7C JD", "--turn-up", "8D", "--history", "propose,refuse"],
     lambda: es.infer("QS JS AH 7C JD", "8D", "propose,refuse")),
    (["inference-value", "--deals", "200", "--worlds", "4", "--v-deals", "1000", "--quiet"],
     lambda: es.inference_value(200, worlds=4, v_deals=1000)),
    (["piquet", "discard-search", "--deals", "40", "--seed", "3", "--samples", "8", "--quiet"],
     lambda: es.piquet_discard_search(40, seed=3, samples=8)),
    (["review", str(EXAMPLE), "--no-coach"], lambda: review(EXAMPLE, coach=False).to_dict()),
])
def test_api_returns_what_the_command_prints(cli, args, call):
    assert json.loads(json.dumps(call())) == _cli_json(cli, *args)


@pytest.mark.quick
def test_settings_build_like_the_command_line():
    s = es.EcarteSettings.build(play="heuristic", dealer_play="pimc", discard="trumps-only",
                                single_exchange=True, worlds=8)
    assert (s.elder_play, s.dealer_play) == (PlayModel.HEURISTIC, PlayModel.PIMC)
    assert s.elder_discard == s.dealer_discard == Discard.TRUMPS_ONLY
    assert s.max_proposals == 1
    assert s.echo()["play"] == {"elder": "heuristic", "dealer": "pimc"}
    assert s.echo()["discard"] == "trumps-only"
    assert s.task_size() == PIMC_TASK and es.EcarteSettings().task_size() == DEFAULT_BLOCK
    cfg = s.cfg(elder_score=3, dealer_score=4, target=5, elder_first="propose")
    assert cfg.dtype == np.int64 and cfg.shape == (CFG.size,)
    at = CFG.at
    assert cfg[at.DEALER_PLAY] == PlayModel.PIMC and cfg[at.MAX_PROPOSALS] == 1
    assert (cfg[at.ELDER_SCORE], cfg[at.DEALER_SCORE], cfg[at.TARGET]) == (3, 4, 5)
    assert cfg[at.ELDER_FIRST] == 2 and cfg[at.WORLDS] == 8


@pytest.mark.quick
@pytest.mark.parametrize("kwargs, token", [
    ({"elder_policy": "regel"}, "regel"), ({"dealer_policy": "maxim"}, "maxim"),
    ({"play": "ddd"}, "ddd"), ({"discard": "kings"}, "kings"), ({"worlds": 0}, "worlds"),
    ({"max_proposals": -1}, "max_proposals"),
])
def test_bad_settings_name_the_token(kwargs, token):
    with pytest.raises(ValueError, match=token):
        es.EcarteSettings.build(**kwargs)


def test_bad_score_or_first_decision_is_refused():
    s = es.EcarteSettings()
    with pytest.raises(ValueError, match="elder score"):
        s.cfg(elder_score=5, target=5)
    with pytest.raises(ValueError, match="maybe"):
        s.cfg(elder_first="maybe")


def test_each_id_once_and_typed_names_round_trip():
    for kind in (ElderPolicy, DealerPolicy, Discard, PlayModel):
        values = [m.value for m in kind]
        assert len(values) == len(set(values)) == max(values) + 1
        for name in choices(kind):
            assert member(kind, name, "x").name.lower().replace("_", "-") == name
    assert "scripted" not in choices(PlayModel)


def test_settings_are_frozen():
    with pytest.raises(AttributeError):
        es.EcarteSettings().worlds = 3


# --------------------------------------------------------------------------- readable records

def _cli_text(cli, *args) -> str:
    r = cli(*args)
    assert r.code == 0, r
    return r.out


@pytest.mark.quick
def test_the_namespace_is_the_public_api():
    names = dir(es)
    assert set(es.__all__) <= set(names)
    assert not {"annotations", "importlib", "import_module", "_API"} & set(names)
    assert set(names) - set(es.__all__) == {"engine", "analysis", "api", "apps"}
    assert {"strategy", "advise", "play"} <= set(es.__all__)


@pytest.mark.quick
def test_play_reads_as_the_command_prints_it(cli):
    from ecarte_sim.engine.ecarte.deals.runner import WholeDeal

    settings = es.EcarteSettings.build(play="heuristic")
    d = es.play(1, 5, settings, dealer_score=2)
    assert isinstance(d, WholeDeal) and isinstance(d.elder0, int)     # the record, as before
    assert (d.seed, d.index, d.elder_score, d.dealer_score) == (1, 5, 0, 2)
    args = ["play", "--seed", "1", "--index", "5", "--dealer-score", "2", "--play", "heuristic"]
    assert json.loads(json.dumps(d.to_dict())) == _cli_json(cli, *args)
    text = _cli_text(cli, *args)
    assert str(d) + "\n" == text == "\n".join(d.narrative()) + "\n"
    readable = d.to_dict()
    assert readable["elder"] == "8S 7S QD QC JC" and readable["turn_up"] == "7H"
    assert len(readable["tricks"]) == 5 and {"led", "reply", "winner"} <= set(readable["tricks"][0])
    assert readable["marks"] == {"elder": d.marks_elder, "dealer": d.marks_dealer}
    assert "Trick 1:" in text and "Marks this deal:" in text


def _advice(*args, **kw):
    from ecarte_sim.api.strategy import advice
    return advice(*args, **kw)


@pytest.mark.parametrize("args, call, kind", [
    (["KS JC 9H 7S KC", "--trump", "TC", "--score", "2-4", "--deals", "1000"],
     lambda: _advice("KS JC 9H 7S KC", "TC", "2-4", deals=1000), "first"),
    (["QH AH 7H KS KD", "--trump", "H", "--score", "2-2", "--against", "treatise",
      "--deals", "1000"],
     lambda: _advice("QH AH 7H KS KD", "H", "2-2", against="treatise", deals=1000), "first"),
    (["QH 8H KS 9D 7C", "--turn-up", "JH", "--discard", "--deals", "500"],
     lambda: _advice("QH 8H KS 9D 7C", turn_up="JH", discard=True, deals=500),
     "first discard"),
    (["KH 9H 8S 7D QC", "--turn-up", "JH", "--said", "propose,accept", "--discards",
      "7S 8D 9C:3", "--no-values"],
     lambda: _advice("KH 9H 8S 7D QC", turn_up="JH", said="propose,accept",
                     discards="7S 8D 9C:3", values=False), "later"),
])
def test_advice_reads_as_the_command_prints_it(cli, args, call, kind):
    """The typed advice: ``to_dict()`` is ``advise --json``, and its fields are the
    figures that dict holds."""
    from ecarte_sim.api.strategy import ActionValue

    a = call()
    out = _cli_json(cli, "advise", *args)
    assert a.kind == kind and json.loads(json.dumps(a.to_dict())) == out
    assert (a.hand, a.role, a.score) == (out["hand"], out["role"], out["score"])
    if kind.endswith("discard"):
        assert (a.throws, a.keeps, a.rule, a.action) == (out["throws"], out["keeps"],
                                                         out["rule"], None)
        assert [o.throws for o in a.others] == [o["throws"] for o in out["others"]]
        assert [o.gain_win_ci95 for o in a.others] == \
            [tuple(o["gain_win_ci95"]) for o in out["others"]]
        return
    assert a.action == out["action"] and a.treatise.says == out["treatise"]["says"]
    if "values" not in out:
        assert a.values == {} and a.gain is None and a.n is None
        assert a.table_action == out["table_action"]["action"]
        return
    assert a.n == out["n"] and a.gain_of == out["gain"]["of"]
    for name, v in out["values"].items():
        assert a.values[name] == ActionValue(v["p_win"], tuple(v["p_win_ci95"]), v["marks"],
                                             tuple(v["marks_ci95"]))
    assert a.gain.p_win_ci95 == tuple(out["gain"]["p_win_ci95"])
    assert a.too_close is (not out["decided"])
    assert a.table_action == (out["table_action"]["action"] if "table_action" in out
                              else None)


def test_card_choice_reads_as_the_command_prints_it(cli):
    """The typed card question: ``to_dict()`` is ``cards --json``; its fields, the figures."""
    from ecarte_sim.api.strategy import cards

    c = cards("QS 9H 8D 7C", "JS", said="propose,refuse", played="KS AS", score="2-1",
              worlds=64)
    out = _cli_json(cli, "cards", "QS 9H 8D 7C", "--turn-up", "JS", "--said",
                    "propose,refuse", "--played", "KS AS", "--score", "2-1", "--worlds", "64")
    assert json.loads(json.dumps(c.to_dict())) == out
    assert (c.best, c.to_play, c.led, c.worlds, c.said) == (out["best"], out["to_play"],
                                                            out["led"], 64, tuple(out["said"]))
    assert [v.card for v in c.cards] == [r["card"] for r in out["cards"]]
    assert [v.point_ci95 for v in c.cards] == [tuple(r["point_ci95"]) for r in out["cards"]]
    assert c.continuation is None and c.dd_best is None


def test_hand_value_reads_as_the_command_prints_it(cli):
    """The typed hand study: ``to_dict()`` is ``hand --json``; its fields, the figures."""
    from ecarte_sim.api.ecarte import hand_value

    v = hand_value("QH AH 7H KS KD", "KH", deals=2048, seed=3)
    out = _cli_json(cli, "hand", "QH AH 7H KS KD", "--trump", "KH", "--deals", "2048",
                    "--seed", "3", "--quiet")
    assert json.loads(json.dumps(v.to_dict())) == out
    for arm, key in ((v.play, "play"), (v.propose, "propose")):
        assert (arm.point, arm.ci95, arm.n, arm.exact) == (
            out[key]["point"], tuple(out[key]["ci95"]), out[key]["n"], False)
    d = out["play_minus_propose"]
    assert (v.play_minus_propose, v.play_minus_propose_ci95, v.paired_n) == (
        d["expected_points"], tuple(d["ci95"]), d["n"])
    assert v.precision is None and out["precision"] is None


@pytest.mark.quick
def test_dealt_reads_as_the_command_prints_it(cli):
    """The typed deal: ``to_dict()`` is ``deal --json``; its fields, the cards as indices."""
    from ecarte_sim.api.ecarte import dealt
    from ecarte_sim.engine.cards import format_card, format_hand

    d = dealt(7, 12345)
    out = _cli_json(cli, "deal", "--seed", "7", "--index", "12345")
    assert d.to_dict() == out and (d.seed, d.index) == (7, 12345)
    assert (format_hand(d.elder), format_hand(d.dealer), format_card(d.turn_up)) == (
        out["elder"], out["dealer"], out["turn_up"])
    assert " ".join(format_card(c) for c in d.stock) == out["stock"]


def test_simulation_reads_as_the_command_prints_it(cli):
    """The typed simulation: ``to_dict()`` is ``simulate --json``; its fields, the figures."""
    from ecarte_sim.api.ecarte import simulation

    settings = es.EcarteSettings.build(play="heuristic")
    s = simulation(3000, seed=2, settings=settings)
    out = _cli_json(cli, "simulate", "--deals", "3000", "--seed", "2", "--play", "heuristic",
                    "--quiet")
    assert json.loads(json.dumps(s.to_dict())) == out
    assert (s.deals, s.seed, s.start, s.played) == (3000, 2, 0, out["played"])
    assert list(s.elder_marks) == out["marks"]["elder"] and sum(s.elder_marks) == 3000
    assert (s.elder_mean, s.elder_mean_ci95) == (out["mean_marks"]["elder"],
                                                 tuple(out["mean_marks"]["elder_ci95"]))
    assert (s.point_rate, s.point_rate_ci95) == (out["elder_point_rate"],
                                                 tuple(out["elder_point_ci95"]))
    assert s.inference is None and "inference" not in out


def test_versus_reads_as_the_command_prints_it(cli):
    """The typed versus: ``to_dict()`` is ``versus --json`` (without its files); its
    fields, the figures."""
    from ecarte_sim.api.strategy import versus

    v = versus(1000, 2, score=(2, 3), seed=3)
    out = _cli_json(cli, "versus", "--deals", "1000", "--games", "2", "--score", "2-3",
                    "--seed", "3", "--quiet")
    assert out.pop("files") == []
    assert json.loads(json.dumps(v.to_dict())) == out
    for side, r in out["deals"].items():
        d = v.deals[side]
        assert (d.side, d.score, d.deals) == (side, "2-3", 1000)
        for who in ("elder", "dealer"):
            g = getattr(d, who)
            assert (g is None) == (who not in r)
            if g is not None:
                assert (g.gain_win, g.gain_win_ci95, g.n) == (
                    r[who]["gain_win"], tuple(r[who]["gain_win_ci95"]), r[who]["n"])
    g = out["games"]
    assert (v.games.games, v.games.strategy_wins, v.games.ci95) == (4, g["strategy_wins"],
                                                                   tuple(g["ci95"]))
    assert v.games.as_first_dealer == (g["as_first_dealer"]["won"], 2)


def test_checked_claims_read_as_the_command_prints_them(cli):
    """The typed claims: ``to_dict()`` is ``claims --json`` (its provenance apart); the
    claims and the model's run, the rows."""
    from ecarte_sim.api.ecarte import claims_checked, claims_settings

    c = claims_checked(("dd",), claims_settings(deals=1024, seed=1))
    out = _cli_json(cli, "claims", "--play", "dd", "--deals", "1024", "--seed", "1",
                    "--quiet")
    mine = json.loads(json.dumps(c.to_dict()))
    mine.pop("provenance")
    for payload in (mine, out):              # wall-clock time, the one figure that varies
        for run in payload["models"].values():
            assert run.pop("seconds") >= 0
    assert mine == out
    assert [(k.id, k.model, k.verdict, k.estimate, k.ci95, k.n) for k in c.claims] == [
        (r["id"], r["model"], r["verdict"], r["estimate"], tuple(r["ci95"]), r["n"])
        for r in out["claims"]]
    assert [k.id for k in c.headline] == [r["id"] for r in out["claims"] if r["headline"]]
    run = out["models"]["dd"]
    assert (c.models["dd"].worst_half_width, c.models["dd"].precision_reached) == (
        run["worst_half_width"], run["precision_reached"])


def test_game_reads_as_the_command_prints_it(cli):
    g = es.game(2, 3)
    assert json.loads(json.dumps(g.to_dict())) == _cli_json(cli, "game", "--seed", "2",
                                                             "--game", "3")
    assert str(g) + "\n" == _cli_text(cli, "game", "--seed", "2", "--game", "3")
    assert g.narrative(verbose=True)[0].startswith("Game 4 (game index 3) of seed 2:")
    assert g.narrative()[1].startswith("Deal 1 (index 192),")


# --------------------------------------------------------------------------- scores as pairs

@pytest.mark.parametrize("score", [(3, 4), [3, 4], (np.int64(3), 4)])
def test_advise_takes_the_score_as_a_pair(score):
    text = es.advise("KS QS JS 8H 8D", "H", "3-4", deals=1000)
    assert es.advise("KS QS JS 8H 8D", "H", score, deals=1000) == text
    assert es.advise("KS QS JS 8H 8D", "H", score=score, deals=1000)["score"] == "3-4"


@pytest.mark.quick
@pytest.mark.parametrize("score, token", [
    ((3, 5), "5"), ((1,), r"\(1,\)"), ((True, 1), "True"), ((1.0, 2), "1.0"),
    ([1, "2"], "'2'"), ("3-9", "3-9"), (34, "34"), ((-1, 0), "-1"),
])
def test_a_bad_score_names_the_token(score, token):
    with pytest.raises(ValueError, match=token):
        es.advise("KS QS JS 8H 8D", "H", score)
    with pytest.raises(ValueError, match=token):
        es.infer("QS JS AH 7C JD", "8D", "propose,refuse", score=score)


def test_infer_takes_the_score_as_a_pair():
    args = ("QS JS AH 7C JD", "8D", "propose,refuse")
    assert es.infer(*args, score=(2, 1)) == es.infer(*args, score="2-1")


# --------------------------------------------------------------------------- es.strategy

@pytest.mark.quick
def test_strategy_calls_what_the_command_calls(monkeypatch):
    """es.strategy passes its typed arguments to the library functions the command calls
    (spied on here; a real run is compared with the command below)."""
    from ecarte_sim.analysis.ecarte.solving import proposal_game as study

    calls = []
    monkeypatch.setattr(study, "against_treatise",
                        lambda settings, **kw: calls.append(("treatise", settings, kw)) or {})
    monkeypatch.setattr(study, "equilibrium",
                        lambda settings, **kw: calls.append(("equilibrium", settings, kw)) or {})
    settings = es.EcarteSettings.build(play="heuristic")
    out = es.strategy(settings, role="elder", decision="both", score=(2, 3),
                      deals_per_state=4, max_deals_per_state=8, fresh_deals=5000, seed=7)
    kind, got, kw = calls[-1]
    assert kind == "treatise" and got is settings
    assert kw["roles"] == ("elder",) and kw["scores"] == ((2, 3),) and kw["seed"] == 7
    assert kw["decisions"] == ("first", "discard") and kw["fresh_deals"] == 5000
    assert kw["sampling"] == study.Sampling(4, 8)
    assert out.scores == ("2-3",) and out.seed == 7 and out.roles == {}
    assert out.to_dict()["decision"] == "both"
    es.strategy(all_scores=True)
    assert calls[-1][2]["scores"] == study.SCORES
    assert calls[-1][2]["roles"] == ("elder", "dealer")
    assert calls[-1][2]["sampling"] == study.Sampling()      # the command's defaults
    es.strategy(against="equilibrium", score="1-2", iterations=2)
    kind, _, kw = calls[-1]
    assert kind == "equilibrium" and kw["score"] == (1, 2) and kw["iterations"] == 2
    assert kw["decisions"] == ("first",)


@pytest.mark.quick
@pytest.mark.parametrize("kwargs, token", [
    ({"against": "nash"}, "nash"), ({"role": "both-ways"}, "both-ways"),
    ({"decision": "second"}, "second"), ({"score": (4, 5)}, "5"),
    ({"score": "0-0", "all_scores": True}, "all_scores"),
    ({"against": "equilibrium", "all_scores": True}, "one score"),
    ({"against": "equilibrium", "decision": "discard"}, "discard"),
    ({"iterations": 51}, "iterations"), ({"deals_per_state": 1}, "deals_per_state"),
    ({"fresh_deals": 10}, "fresh_deals"), ({"seed": -1}, "seed"),
    ({"deals_per_state": 64, "max_deals_per_state": 8}, "first"),
])
def test_strategy_refuses_bad_arguments(kwargs, token):
    with pytest.raises(ValueError, match=token):
        es.strategy(**kwargs)


def test_strategy_returns_what_the_command_prints(cli):
    """The typed strategy run: ``to_dict()`` is ``strategy --json`` (its command and
    provenance apart); its fields, the figures; its payload keeps the arrays."""
    from ecarte_sim.apps.cli.common import finite

    small = ["--deals-per-state", "2", "--max-deals-per-state", "2", "--fresh-deals", "2000"]
    printed = _cli_json(cli, "strategy", "--role", "elder", "--score", "2-3", *small)
    printed.pop("command")
    out = es.strategy(role="elder", score=(2, 3), deals_per_state=2, max_deals_per_state=2,
                      fresh_deals=2000)
    assert out.payload["roles"]["elder"]["table"].shape[0] == 25        # the arrays are kept
    assert json.loads(json.dumps(finite(out.to_dict()))) == printed     # NaN printed as null
    row, elder = printed["roles"]["elder"]["rows"][0], out.roles["elder"]
    assert (out.against, out.scores, out.fresh_deals) == ("treatise", ("2-3",), 2000)
    assert (elder.replaces, elder.deals) == (printed["roles"]["elder"]["replaces"],
                                             printed["roles"]["elder"]["deals"])
    assert (elder.gains[0].score, elder.gains[0].gain_win, elder.gains[0].n) == (
        "2-3", row["gain_win"], row["n"])
    assert elder.gains[0].gain_marks_ci95 == tuple(row["gain_marks_ci95"])


def test_piquet_deal_order_follows_laws_16_and_71():
    six = es.piquet_deal_order(1)
    assert [d["dealer"] for d in six] == [1, 0, 1, 0, 1, 0]
    assert all(d["elder"] == 1 - d["dealer"] and d["weight"] == 1 for d in six)
    four = es.piquet_deal_order(0, partie="four", tied=True)
    assert [(d["dealer"], d["weight"], d["extra"]) for d in four] == [
        (0, 2, False), (1, 1, False), (0, 1, False), (1, 2, False), (0, 1, True),
        (1, 1, True)]
    with pytest.raises(ValueError, match="first"):
        es.piquet_deal_order(2)


def test_audit_reads_as_the_command_prints_it(cli):
    """The typed audit: ``to_dict()`` is ``audit --json`` (without its files); its cells,
    the summaries' figures."""
    from ecarte_sim.api.solving import AuditSettings, audit

    a = audit(AuditSettings(hands=2, deals=64, scores=((0, 0),), roles=("elder",),
                            rounds=("first",)))
    out = _cli_json(cli, "audit", "--hands", "2", "--deals", "64", "--score", "0-0",
                    "--role", "elder", "--round", "first", "--quiet")
    assert out.pop("files") == []
    assert json.loads(json.dumps(a.to_dict())) == out
    assert "rows" not in out and len(a.rows) == 2
    assert (a.play, a.sha256) == (out["strategy"]["play"], out["strategy"]["sha256"])
    cell, s = a.cells["elder 0-0"], out["summaries"]["elder 0-0"]
    assert cell.hands == s["hands"] == 2
    assert cell.table_regret == (s["table"]["regret"]["mean"], *s["table"]["regret"]["ci95"])
    assert cell.treatise_wrong[0] == s["treatise"]["wrong"]["share"]


def test_exploitability_reads_as_the_command_prints_it(cli):
    """The typed exploitability: ``to_dict()`` is ``exploitability --json`` (its command,
    provenance and files apart); a model's fields, its summary's figures."""
    from ecarte_sim.api.play import ExploitSettings, exploitability
    from ecarte_sim.apps.cli.common import finite

    x = exploitability(ExploitSettings(models=("heuristic",), per_stratum=1, held_out_seeds=1),
                       top=3)                                 # the command's default
    out = _cli_json(cli, "exploitability", "--models", "heuristic", "--per-stratum", "1",
                    "--held-out", "1", "--quiet")
    out.pop("command")
    assert out.pop("files") == []
    assert json.loads(json.dumps(finite(x.to_dict()))) == out       # NaN printed as null
    assert (x.seed, list(x.strata)) == (out["seed"], out["strata"])
    m, printed = x.models["heuristic"], out["models"]["heuristic"]["summary"]
    assert (m.model, len(m.frame)) == ("heuristic", len(out["models"]["heuristic"]["hands"]))
    for seat, e in printed["roles"].items():
        assert finite(list(m.gain_marks[seat])) == [e["gain_marks"]["mean"],
                                                    *e["gain_marks"]["ci95"]]
        assert m.held_out_marks[seat][0] == e["held_out_marks"]["mean"]
    assert m.local_share == printed["local_share"]


def test_inferred_reads_as_the_command_prints_it(cli):
    """The typed inference: ``to_dict()`` is ``infer --json`` (its provenance apart, which
    the library writes); its fields, the figures."""
    from ecarte_sim.api.strategy import inferred

    r = inferred("QS KH AH 9C JD", "8D", "propose,accept:2,play", thrown="7C 8H",
                 samples=500, seed=5)
    out = _cli_json(cli, "infer", "QS KH AH 9C JD", "--turn-up", "8D", "--history",
                    "propose,accept:2,play", "--thrown", "7C 8H", "--samples", "500",
                    "--seed", "5")
    mine = json.loads(json.dumps(r.to_dict()))
    mine.pop("provenance", None)
    assert mine == out
    assert (r.exact, r.seed, r.consistent, r.out_of) == (False, 5, out["consistent"],
                                                         out["of"])
    assert r.history == tuple(out["history"]) and r.trumps == tuple(out["trumps"])
    d = r.suits["D"]
    assert (d.trump, d.counts, d.king) == (True, tuple(out["suits"]["D"]["counts"]),
                                           out["suits"]["D"]["king"])


def test_piquet_simulation_reads_as_the_command_prints_it(cli):
    """The typed Piquet simulation: ``to_dict()`` is ``piquet simulate --json`` (its
    provenance apart); its fields, the figures."""
    from ecarte_sim.api.piquet import piquet_simulation

    s = piquet_simulation(2000, seed=1)
    out = _cli_json(cli, "piquet", "simulate", "--deals", "2000", "--seed", "1", "--quiet")
    assert json.loads(json.dumps(s.to_dict())) == out
    iv = out["intervals"]
    assert (s.deals, s.seed, s.players) == (2000, 1, (out["players"]["elder"],
                                                      out["players"]["younger"]))
    assert (s.elder_wins, s.ties, s.capot) == (out["elder_wins"], out["ties"], out["capot"])
    assert s.elder_win_rate == (iv["elder_win_rate"]["rate"], *iv["elder_win_rate"]["ci95"])
    assert s.mean_difference[0] == iv["mean_difference"]["mean"]


def test_piquet_parties_read_as_the_command_prints_them(cli):
    """The typed Piquet parties: ``to_dict()`` is ``piquet partie --json`` (its provenance
    apart); its fields, the figures."""
    from ecarte_sim.api.piquet import piquet_parties

    p = piquet_parties(500, seed=1, partie="four")
    out = _cli_json(cli, "piquet", "partie", "--parties", "500", "--seed", "1", "--partie",
                    "four", "--quiet")
    assert json.loads(json.dumps(p.to_dict())) == out
    iv = out["intervals"]
    assert (p.parties, p.partie, p.players) == (500, "four", (out["players"]["a"],
                                                               out["players"]["b"]))
    assert (p.first_dealer_wins, p.drawn, p.tie_breaks) == (
        out["first_dealer_wins"], out["drawn"], out["tie_breaks"])
    assert p.rubicon_rate == (iv["rubicon_rate"]["rate"], *iv["rubicon_rate"]["ci95"])
    assert p.first_dealer_settlement[0] == iv["first_dealer_settlement"]["mean"]


# --------------------------------------------------------------------------- issue 52: the rest

def _timeless(x):
    """``x`` without its wall-clock figures (every key naming seconds), the one thing two
    runs of the same question print differently."""
    if isinstance(x, dict):
        return {k: _timeless(v) for k, v in x.items() if "seconds" not in k}
    if isinstance(x, list):
        return [_timeless(v) for v in x]
    return x


def _same(typed: dict, printed: dict) -> bool:
    from ecarte_sim.apps.cli.common import finite

    return _timeless(json.loads(json.dumps(finite(typed)))) == _timeless(printed)


def test_classification_reads_as_the_command_prints_it(cli):
    """The typed classify: ``to_dict()`` is ``classify --json`` by either reading (its
    provenance apart); its fields, the figures; es.classify keeps its dict."""
    from ecarte_sim.api.classify import classification

    c = classification("AH KS 7S KD KC", "TH")
    out = _cli_json(cli, "classify", "AH KS 7S KD KC", "--trump", "TH")
    assert c.to_dict() == out == es.classify("AH KS 7S KD KC", "TH")
    assert (c.reading, c.jeu_de_regle, c.rule, c.nearest) == ("list", False, None,
                                                              out["nearest"])
    assert c.best_lead is None and c.leads is None
    d = classification("QH AH 7H KS KD", "TH", reading="definition")
    out = _cli_json(cli, "classify", "QH AH 7H KS KD", "--trump", "TH", "--reading",
                    "definition")
    assert d.to_dict() == out
    assert (d.jeu_de_regle, d.best_lead, d.won, d.of, d.turn_up) == (
        out["jeu_de_regle"], out["best_lead"], out["won"], out["of"], "TH")
    assert d.leads == out["leads"] and d.by_list == out["by_list"] and d.rule is None


@pytest.mark.quick
def test_piquet_played_deal_reads_as_the_command_prints_it(cli):
    """The typed Piquet deal: ``to_dict()`` is ``piquet deal --json`` (its provenance
    apart) and is what piquet_deal returns; told, it is the command's text."""
    from ecarte_sim.api.piquet import piquet_deal, piquet_played, piquet_told

    d = piquet_played(seed=3, index=8)
    out = _cli_json(cli, "piquet", "deal", "--seed", "3", "--index", "8")
    assert json.loads(json.dumps(d.to_dict())) == out
    assert d.to_dict() == piquet_deal(seed=3, index=8)
    assert (d.seed, d.index, d.players) == (3, 8, (out["play"], out["play"]))
    assert (d.elder_total, d.younger_total) == (out["elder"], out["younger"])
    assert d.scores == out["scores"] and d.deal == out["deal"]
    text = _cli_text(cli, "piquet", "deal", "--seed", "3", "--index", "8")
    assert "\n".join(piquet_told(d)) + "\n" == text


def test_piquet_report_reads_as_the_command_prints_it(cli):
    """The typed Piquet report: ``to_dict()`` is ``piquet report --json`` (its provenance
    apart); its fields, the same-player pairings' figures."""
    from ecarte_sim.api.piquet import piquet_measured

    deals = {"random": 1000, "heuristic": 1000, "dd": 0, "pimc": 0, "paired": 1000,
             "partie": 100, "search": 0}
    r = piquet_measured(deals, seed=2)
    out = _cli_json(cli, "piquet", "report", "--seed", "2", "--deals", "1000", "--dd-deals",
                    "0", "--pimc-deals", "0", "--paired-deals", "1000", "--parties", "100",
                    "--search-deals", "0", "--quiet")
    assert _same(r.to_dict(), out)
    assert (r.seed, sorted(r.elder_win_rate)) == (2, ["heuristic", "random"])
    for p in out["pairings"]:
        if p["elder"] == p["younger"]:
            w, m = p["intervals"]["elder_win_rate"], p["intervals"]["mean_difference"]
            assert r.elder_win_rate[p["elder"]] == (w["rate"], *w["ci95"])
            assert r.elder_margin[p["elder"]] == (m["mean"], *m["ci95"])
            assert r.pairing_deals[p["elder"]] == p["deals"] == 1000


def test_piquet_discard_search_reads_as_the_command_prints_it(cli):
    """The typed discard search: ``to_dict()`` is ``piquet discard-search --json`` (its
    provenance apart) and what piquet_discard_search returns; its fields, the figures."""
    from ecarte_sim.api.piquet import piquet_discard_searched

    r = piquet_discard_searched(40, seed=3, samples=8)
    out = _cli_json(cli, "piquet", "discard-search", "--deals", "40", "--seed", "3",
                    "--samples", "8", "--quiet")
    assert _same(r.to_dict(), out) and r.to_dict() == es.piquet_discard_search(
        40, seed=3, samples=8)
    assert (r.deals, r.seed, r.samples, r.play, r.worlds) == (40, 3, 8, "heuristic", None)
    assert [(c.a, c.b) for c in r.comparisons] == [(c["a"], c["b"])
                                                   for c in out["comparisons"]]
    first = out["comparisons"][0]["margin_difference"]
    assert list(r.comparisons[0].margin_difference) == [first["mean"], *first["ci95"]]
    assert r.elder_free_take["5"][0] == out["elder_free_take"]["5"]["rate"]
    assert r.search_is_heuristic["younger"][0] == out["search_is_heuristic"]["younger"]["rate"]


def test_exploit_reads_as_the_command_prints_it(cli):
    """The typed exploit: ``to_dict()`` is ``exploit --json`` (its provenance and timings
    apart); its fields, the figures."""
    from ecarte_sim.api.play import exploit

    r = exploit("KS QS 9S 8H 7D", "TS", "dealer", model="heuristic", held_out_seeds=1,
                hands=8)
    out = _cli_json(cli, "exploit", "KS QS 9S 8H 7D", "--turn-up", "TS", "--model",
                    "heuristic", "--held-out", "1", "--hands", "8")
    assert _same(r.to_dict(), out)
    assert (r.hand, r.model, r.hands, r.played) == (out["hand"], "heuristic", 8, ())
    assert r.best_response == (out["best_response"]["marks"], out["best_response"]["point"])
    assert r.gain == (out["gain"]["marks"], out["gain"]["point"])
    ho = out["held_out"]["gain_marks"]
    assert r.held_out == (ho["mean"], *ho["ci95"]) and r.lines == out["lines"]


def test_stronger_reads_as_the_command_prints_it(cli):
    """The typed stronger, both ways: ``to_dict()`` is ``stronger --json`` and ``stronger
    --player ... --json`` (their provenance and timings apart); the fields, the figures."""
    from ecarte_sim.api.play import stronger, stronger_players

    m = stronger(deals=2, worlds=4, last_tricks=1)
    out = _cli_json(cli, "stronger", "--deals", "2", "--worlds", "4", "--tricks", "1",
                    "--quiet")
    assert _same(m.to_dict(), out)
    assert (m.deals, m.n, m.last_tricks) == (2, out["n"], 1)
    assert m.marks == (out["marks"]["mean"], *out["marks"]["ci95"])
    assert m.elder[0] == out["elder"]["marks"]["mean"]
    assert m.alphamu_decisions == out["alphamu_decisions"]
    p = stronger_players(["pimc-king:4", "pimc-inference:4"], deals=2, worlds=4)
    out = _cli_json(cli, "stronger", "--player", "pimc-king:4", "--player",
                    "pimc-inference:4", "--deals", "2", "--worlds", "4", "--quiet")
    assert _same(p.to_dict(), out)
    king = out["players"]["pimc-king:4"]
    assert (p.players["pimc-king:4"].n, p.players["pimc-king:4"].marks) == (
        king["n"], (king["marks"]["mean"], *king["marks"]["ci95"]))
    d = out["differences"]["pimc-king:4 - pimc-inference:4"]
    assert p.differences["pimc-king:4 - pimc-inference:4"] == (d["mean"], *d["ci95"])


def test_card_regret_reads_as_the_command_prints_it(cli):
    """The typed card regret: ``to_dict()`` is ``card-regret --json`` (its command,
    provenance, files and timings apart); a player's fields, his summary's figures."""
    from ecarte_sim.api.play import RegretSettings, card_regret

    r = card_regret(RegretSettings(players=("pimc-king:4",), per_cell=1, cap=4))
    out = _cli_json(cli, "card-regret", "--players", "pimc-king:4", "--per-cell", "1",
                    "--worlds", "4", "--quiet")
    out.pop("command")
    assert out.pop("files") == []
    assert _same(r.to_dict(), out)
    p, a = r.players["pimc-king:4"], out["players"]["pimc-king:4"]["summary"]["all"]
    assert (r.positions, p.positions) == (out["positions"], a["positions"])
    assert p.regret == (a["regret"]["mean"], *a["regret"]["ci95"])
    assert p.beyond[0] == a["beyond"]["mean"] and len(p.worst) <= 5


def test_equilibrium_reads_as_the_command_prints_it(cli):
    """The typed equilibrium: ``to_dict()`` is ``equilibrium --json`` (its command,
    provenance, files and timings apart); its fields, the summary's figures."""
    from ecarte_sim.api.solving import Sampling, SolveSettings, draw_states, equilibrium

    r = equilibrium(SolveSettings(states=draw_states(20), scores=((4, 4),),
                                  sampling=Sampling(2, 2), fresh_deals=1000,
                                  value_deals=1000, iterations=1))
    out = _cli_json(cli, "equilibrium", "--states", "20", "--score", "4-4",
                    "--deals-per-state", "2", "--max-deals-per-state", "2", "--fresh-deals",
                    "1000", "--value-deals", "1000", "--iterations", "1", "--quiet")
    out.pop("command")
    assert out.pop("files") == []
    assert _same(r.to_dict(), out)
    s = out["summary"]
    assert (r.seed, r.converged, r.steps, list(r.unsettled)) == (
        0, out["converged"], out["steps"], s["unsettled"])
    assert r.elder_wins_0_0 == (s["elder_wins_0_0"], *s["elder_wins_0_0_ci95"])
    assert r.v == out["v"] and r.payload["v"].shape == (5, 5)


def test_every_decision_reads_as_the_command_prints_it(cli):
    """The typed every-decision step: ``to_dict()`` is ``every-decision --json`` (its
    command, provenance, files and timings apart); its fields, the figures."""
    from ecarte_sim.api.solving import (EverySettings, Sampling, every_decision,
                                        starting_strategy)

    r = every_decision(EverySettings(scores=((4, 4),), later_deals=4096, later_steps=1,
                                     first=Sampling(2, 2), value_deals=1024),
                       starting_strategy())
    out = _cli_json(cli, "every-decision", "--score", "4-4", "--later-deals", "4096",
                    "--later-steps", "1", "--deals-per-state", "2", "--max-deals-per-state",
                    "2", "--value-deals", "1024", "--quiet")
    out.pop("command")
    assert out.pop("files") == []
    assert _same(r.to_dict(), out)
    assert (r.start, [row["score"] for row in r.scores]) == (out["start"], ["4-4"])
    assert r.elder_wins_0_0 == out["v"][0][0] and r.seconds >= 0


@pytest.mark.quick
def test_solution_reads_as_the_command_prints_it(cli):
    """The typed solve: ``to_dict()`` is ``solve --json`` (its provenance apart) and what
    es.solve returns; its fields, the figures."""
    from ecarte_sim.api.ecarte import solution

    s = solution("QH AH 7H KS KD", "KH JH 9H 8H 9C", "H", forced_trump=False)
    out = _cli_json(cli, "solve", "QH AH 7H KS KD", "KH JH 9H 8H 9C", "--trump", "H",
                    "--no-forced-trump")
    assert s.to_dict() == out == es.solve("QH AH 7H KS KD", "KH JH 9H 8H 9C", "H",
                                          forced_trump=False)
    assert (s.elder_tricks, s.moves) == (out["elder_tricks"], out["moves"])
    assert list(s.moves) == list(out["moves"])                  # the hand's order


def test_score_values_read_as_the_command_prints_them(cli):
    """The typed score tables: ``to_dict()`` is ``scores --json`` (its command and
    provenance apart), ``tables()`` what es.scores returns; the fields, the tables."""
    from ecarte_sim.api.ecarte import score_values

    settings = es.EcarteSettings.build(play="heuristic")
    v = score_values(3000, seed=2, settings=settings, bootstrap=5)
    out = _cli_json(cli, "scores", "--deals", "3000", "--seed", "2", "--bootstrap", "5",
                    "--play", "heuristic", "--quiet")
    assert out.pop("command").startswith("ecarte-sim scores")
    assert json.loads(json.dumps(v.to_dict())) == out
    assert v.tables() == es.scores(3000, seed=2, settings=settings, bootstrap=5)
    assert (v.deals, v.seed, v.bootstrap, v.settings) == (3000, 2, 5, out["settings"])
    assert v.i_deal_next == out["i_deal_next"]
    assert v.opponent_deals_next_ci95 == out["opponent_deals_next_ci95"]
