"""The command line's choices of play model read the registry
(:data:`ecarte_sim.engine.ecarte.settings.PLAY_MODELS`): each option that names a play
model offers exactly the models of its question, with the registry's default, and the
shared ``--play`` help names each with what the registry says of it."""

from __future__ import annotations

import click
import pytest

from ecarte_sim.engine.ecarte.settings import PLAY_MODELS, play_models

pytestmark = pytest.mark.quick

#: (command, option, the registry's use it offers)
CHOSEN = [("play", "--play", "play"), ("play", "--elder-play", "play"),
          ("game", "--dealer-play", "play"), ("simulate", "--play", "play"),
          ("chart", "--play", "play"), ("chart", "--compare", "play"),
          ("advise", "--play", "solved"), ("equilibrium", "--play", "solved"),
          ("audit", "--play", "solved"), ("every-decision", "--play", "solved"),
          ("versus", "--play", "solved"), ("claims", "--play", "claims"),
          ("exploit", "--model", "exploited")]


def _option(command: str, name: str) -> click.Option:
    from ecarte_sim.apps.cli import main
    cmd = main.get_command(click.Context(main), command)
    return next(p for p in cmd.params if isinstance(p, click.Option) and name in p.opts)


@pytest.mark.parametrize("command, name, use", CHOSEN)
def test_a_play_model_option_offers_its_question_s_models(command, name, use):
    assert tuple(_option(command, name).type.choices) == play_models(use)


def test_the_defaults_are_the_registry_s():
    assert _option("exploit", "--model").default == play_models("exploit-default")[0]
    assert _option("exploitability", "--models").default == \
        ",".join(play_models("exploitability-default"))
    claims_help = _option("claims", "--play").help
    assert f"[default: {', '.join(play_models('claims-default'))}]" in claims_help


def test_the_play_help_names_every_model_with_its_text():
    text = _option("simulate", "--play").help
    assert all(f"{e.name} ({e.text})" in text for e in PLAY_MODELS)


def test_the_card_player_options_read_the_registry():
    from ecarte_sim.engine.ecarte.settings import card_players
    option = _option("cards", "--player")
    assert tuple(option.type.choices) == card_players("cards")
    assert option.default == card_players("cards-default")[0]
    assert _option("card-regret", "--players").default == ",".join(
        card_players("regret-default"))
