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
from ecarte_sim.analysis.cli import run
from ecarte_sim.engine.batch import DEFAULT_BLOCK
from ecarte_sim.engine.ecarte.settings import (CFG, PIMC_TASK, DealerPolicy, Discard,
                                               ElderPolicy, PlayModel, choices, member)


def _cli_json(capsys, *args) -> dict:
    try:
        run([*args, "--json"])
    except SystemExit as stop:
        assert stop.code in (0, None)
    out = json.loads(capsys.readouterr().out)
    out.pop("provenance", None)
    return out


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
])
def test_api_returns_what_the_command_prints(capsys, args, call):
    assert json.loads(json.dumps(call())) == _cli_json(capsys, *args)


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
