"""The practice table's game (analysis/practice/session.py): whole games by random legal
choices, the contract's view and actions, illegal actions refused with their law and the
state unchanged, records restored exactly."""

from __future__ import annotations

import json
import random

import pytest

from ecarte_sim.analysis.practice.session import IllegalAction, Table


def random_action(view: dict, rng: random.Random) -> dict:
    """One of the person's legal actions, chosen at random."""
    legal = view["legal"]
    phase = view["phase"]
    if phase == "discard":
        n = rng.randint(legal["min"], legal["max"])
        return {"type": "discard", "cards": rng.sample(view["hand"], n)}
    if phase == "king":
        return {"type": "king", "announce": rng.random() < 0.5}
    if phase == "play":
        return {"type": "card", "card": rng.choice(legal["cards"])}
    return {"type": rng.choice(legal["actions"])}


def play_out(table: Table, rng: random.Random, stop=None) -> dict:
    view = table.view()
    while view["phase"] != "game_over" and not (stop and stop(view)):
        view = table.act(random_action(view, rng))
    return view


@pytest.mark.parametrize("opponent", ["treatise", "strategy"])
def test_a_whole_game_by_random_legal_choices(opponent):
    rng = random.Random(5)
    table = Table.new(seed=11, opponent=opponent, coach=False, worlds=16)
    view = play_out(table, rng)
    assert view["winner"] in ("person", "computer")
    assert view["score"][view["winner"]] >= 5
    assert max(view["score"].values()) == view["score"][view["winner"]]
    json.dumps(view)
    record = table.record()
    assert record["winner"] == view["winner"]
    assert [d["dealer"] for d in record["deals"]] == \
        [record["first_dealer"] if i % 2 == 0 else
         ("person" if record["first_dealer"] == "computer" else "computer")
         for i in range(len(record["deals"]))]


def test_a_game_in_progress_is_restored_exactly():
    rng = random.Random(2)
    table = Table.new(seed=3, opponent="treatise", coach=False)
    play_out(table, rng, stop=lambda v: v["deal"] == 2 and v["phase"] == "play")
    record = json.loads(json.dumps(table.record()))
    again = Table.from_record(record)
    assert again.record() == record
    view = table.view()
    restored = again.view()
    for key in ("phase", "hand", "score", "trick", "tricks", "legal", "stock", "deal"):
        assert restored[key] == view[key], key
    # both go on identically
    a, b = random.Random(9), random.Random(9)
    assert play_out(table, a)["score"] == play_out(again, b)["score"]


def test_an_illegal_card_is_refused_with_its_law_and_nothing_changes():
    rng = random.Random(1)
    for seed in range(40):
        table = Table.new(seed=seed, opponent="treatise", coach=False)
        view = play_out(table, rng, stop=lambda v: v["phase"] == "play" and
                        len(v["legal"]["cards"]) < len(v["hand"]))
        if view["phase"] != "play":
            continue
        before = table.record()
        bad = next(c for c in view["hand"] if c not in view["legal"]["cards"])
        with pytest.raises(IllegalAction) as err:
            table.act({"type": "card", "card": bad})
        assert err.value.law == "Law 43"
        assert table.record() == before and table.view()["hand"] == view["hand"]
        return
    pytest.fail("no position with an illegal card found")


def test_malformed_and_untimely_actions_are_refused():
    table = Table.new(seed=4, opponent="treatise", coach=False)
    before = table.record()
    for action in ({}, {"type": "fly"}, "propose", {"type": "next"},
                   {"type": "card", "card": "ZZ"}, {"type": "discard", "cards": "7S"}):
        with pytest.raises(IllegalAction):
            table.act(action)
    assert table.record() == before
