"""The registry of play models (``PLAY_MODELS`` in :mod:`ecarte_sim.engine.ecarte.settings`):
one entry per model a user may choose, in id order, each question's choices and defaults
read from it, and the library's lists (the best response's ids, the claims' models) equal
to it."""

from __future__ import annotations

import pytest

from ecarte_sim.engine.ecarte.settings import (PIMC_MODELS, PLAY_MODELS, PLAY_USES, PlayModel,
                                               choices, member, name_of, play_help,
                                               play_model_id, play_models)

pytestmark = pytest.mark.quick


def test_every_play_model_a_user_types_has_one_entry_in_id_order():
    assert [e.model for e in PLAY_MODELS] == [m for m in PlayModel if m.name != "SCRIPTED"]
    assert list(play_models("play")) == choices(PlayModel)
    assert all(e.uses <= set(PLAY_USES) and e.text for e in PLAY_MODELS)


@pytest.mark.parametrize("default, offered", [("claims-default", "claims"),
                                              ("exploit-default", "exploited"),
                                              ("exploitability-default", "exploited")])
def test_a_default_is_among_the_choices_it_defaults(default, offered):
    assert play_models(default) and set(play_models(default)) <= set(play_models(offered))


def test_each_question_offers_what_it_did():
    """The choices as they were typed at each command before the registry (issue 52)."""
    assert play_models("solved") == ("dd", "heuristic", "pimc", "pimc-inference")
    assert play_models("claims") == ("dd", "heuristic", "pimc", "pimc-inference")
    assert play_models("claims-default") == ("dd", "heuristic", "pimc")
    assert play_models("exploited") == ("heuristic", "pimc", "pimc-inference", "pimc-king")
    assert play_models("exploit-default") == ("pimc",)
    assert play_models("exploitability-default") == ("heuristic", "pimc", "pimc-inference")


def test_the_ids_and_the_help_come_from_the_entries():
    for e in PLAY_MODELS:
        assert play_model_id(e.name) == int(e.model) and e.name == name_of(e.model)
        assert f"{e.name} ({e.text})" in play_help("play")
    assert "dd (" not in play_help("exploited")
    with pytest.raises(ValueError, match="unknown use 'nowhere'"):
        play_models("nowhere")
    with pytest.raises(ValueError, match="unknown play model 'queen'"):
        play_model_id("queen")


def test_the_library_s_lists_read_the_registry():
    from ecarte_sim.analysis.ecarte.claims import decisions
    from ecarte_sim.analysis.ecarte.play import exploit_setup, exploitability
    assert exploit_setup.MODELS == {n: int(member(PlayModel, n, "m"))
                                    for n in play_models("exploited")}
    assert exploitability.MODELS == play_models("exploited")
    assert decisions.MODELS == play_models("claims")
    assert decisions.DEFAULT_MODELS == play_models("claims-default")
    assert decisions.SAMPLED_MODELS == tuple(n for n in play_models("claims")
                                             if member(PlayModel, n, "m") in PIMC_MODELS)


def test_the_card_players_and_their_worlds():
    """The card players choosing one card from a position (``CARD_PLAYERS``): where each
    is offered, as the lists typed out before the registry (issue 52), and its worlds."""
    from ecarte_sim.analysis.ecarte.play import card_advice, card_regret, stronger
    from ecarte_sim.engine.ecarte.settings import (CARD_PLAYERS, DEFAULT_WORLDS, READING_WORLDS,
                                                   card_player_worlds, card_players)
    assert card_players("chooser") == card_advice.CHOOSERS == (
        "pimc-king", "pimc-inference", "alphamu")
    assert card_players("stronger") == stronger.PLAYERS == card_players("chooser")
    assert card_players("regret") == card_regret.PLAYERS == ("pimc-king", "pimc-inference")
    assert card_players("cards") == card_players("regret-default") == card_regret.PLAYERS
    assert card_players("cards-default") == (card_advice.DEFAULT_CHOOSER,) == ("pimc-king",)
    assert [card_player_worlds(e.name) for e in CARD_PLAYERS] == [
        READING_WORLDS, DEFAULT_WORLDS, DEFAULT_WORLDS]
    assert all(card_advice.default_worlds(e.name) == e.worlds for e in CARD_PLAYERS)
    with pytest.raises(ValueError, match="unknown card player 'queen'"):
        card_player_worlds("queen")
    with pytest.raises(ValueError, match="unknown use"):
        card_players("play")
