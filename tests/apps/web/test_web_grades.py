"""Issue 50.5: the coach grades every decision that is not forced — the later proposals,
answers and exchanges included — over a hundred whole games played through the app by a
scripted player (random legal actions). The coach's sample sizes are made small here (its
values are tested in tests/analysis/practice/test_coach.py): what is checked is that every
decision has a grade and none is "not graded"."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[web]'")
pytest.importorskip("httpx", reason="the test client needs httpx (the test extra)")

import warnings  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient  # noqa: E402

from ecarte_sim.analysis.practice import coach  # noqa: E402
from ecarte_sim.apps.web import app as web  # noqa: E402
from ecarte_sim.apps.practice.random_play import choose  # noqa: E402

GAMES = 100


def _decisions(record: dict) -> tuple[int, set]:
    """The person's decisions that are not forced, read from the record: the number of
    his proposals, answers, discards (but the dealer's with the stock out, Law 38) and
    announcements of the king, and the (deal, card)
    of every card he chose among cards not equivalent for all he could know (Law 43's
    legal cards; two are equivalent when the next higher card of the suit is his own or
    out of play: the engine's ``distinct_moves`` over the cards he has not seen)."""
    import numpy as np

    from ecarte_sim.analysis.practice.replay import action_states
    from ecarte_sim.engine.ecarte.search.moves import distinct_moves, legal_moves
    others, cards = 0, set()
    for deal in record["deals"]:
        for _, a, s in action_states(deal):
            if a["by"] != "person" or a["type"] in ("retry", "reveal"):
                continue
            if a["type"] == "discard" and s.stock_left() == 0:
                continue        # the stock is out: the dealer takes nothing (Law 38)
            if a["type"] != "card":
                others += 1
                continue
            p = s.position_of("person")
            played = 0
            for c in p.played:
                played |= 1 << c
            legal = legal_moves(np.uint32(p.hand), p.led, p.trump, True)
            other = np.uint32(p.unseen & ~played & 0xFFFFFFFF)
            if bin(int(distinct_moves(legal, np.uint32(p.hand), other, p.led))).count("1") > 1:
                cards.add((deal["number"], a["card"]))
    return others, cards


@pytest.mark.quick
def test_not_graded_is_no_longer_a_grade():
    assert "not graded" not in coach.GRADES


def test_every_decision_of_a_hundred_games_through_the_app_is_graded(tmp_path, monkeypatch):
    monkeypatch.setattr(coach, "ADVICE_DEALS", 256)
    monkeypatch.setattr(coach, "DISCARD_DEALS", 256)
    monkeypatch.setattr(coach, "COACH_WORLDS", 16)
    rng = random.Random(50)
    decisions = later = 0
    kinds: dict[str, int] = {}
    store = tmp_path / "games"
    store.mkdir()
    (store / ".secret").write_bytes(b"the grades test's fixed secret..")
    with TestClient(web.create_app(store, new_games_burst=None)) as c:
        for g in range(GAMES):
            made = c.post("/api/games", json={"number": 1000 + g, "coach": True,
                                              "worlds": 8, "opponent": "strategy"})
            assert made.status_code == 201, made.text
            game = made.json()
            headers = {"X-Game-Token": game["token"]}
            for _ in range(600):
                action = choose(game["view"], rng)
                if action is None:
                    break
                r = c.post(f"/api/games/{game['id']}/act", headers=headers,
                           json={"seq": game["seq"], "action": action})
                if r.status_code == 422:        # a random discard the laws forbid
                    continue
                assert r.status_code == 200, r.text
                game = r.json()
            assert game["view"]["phase"] == "game_over"
            record = c.get(f"/api/games/{game['id']}/record", headers=headers).json()
            others, cards = _decisions(record)
            verdicts = [v for d in record["deals"] for v in (d.get("coach") or [])
                        if v.get("by") == "person"]
            graded_cards = {(v["deal"], v["chosen"]) for v in verdicts if v["kind"] == "card"}
            assert sum(v["kind"] != "card" for v in verdicts) == others, g
            assert cards <= graded_cards, (g, cards - graded_cards)
            for v in verdicts:
                assert v["grade"] in coach.GRADES and v["grade"] != "unknown", (v["text"], v)
                assert "not graded" not in json.dumps(v)
                kinds[v["kind"]] = kinds.get(v["kind"], 0) + 1
                later += bool(v.get("round")) and v["kind"] in ("first", "answer", "discard")
            decisions += len(verdicts)
    assert decisions > 1000 and later > 50, (decisions, later, kinds)
