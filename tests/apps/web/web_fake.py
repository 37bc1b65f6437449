"""A tiny stand-in for the practice table (``session.Table``'s contract: new, view, act,
record, from_record, IllegalAction) for the web tests that must make a game fail on purpose
or count its calls. Not Écarté: one deal is five tricks of follow-suit, the person always
leads, the computer plays its first legal card; the person scores a mark per deal won."""

from __future__ import annotations

import copy
import random

SUITS = "SHDC"
RANKS = "789TAJQK"


class FakeIllegal(Exception):
    def __init__(self, law, reason):
        super().__init__(reason)
        self.law, self.reason = law, reason


class FakeTable:
    #: Action types that raise RuntimeError (a bug in the game), to test isolation.
    crash_on = "crash"

    def __init__(self, state: dict):
        self.s = state

    @classmethod
    def new(cls, *, key=None, seed=None, opponent="strategy", coach=True, worlds=64,
            number=None):
        seed = int(key[:15], 16) if key is not None else seed
        t = cls({"seed": seed, "opponent": opponent, "coach": coach, "worlds": worlds,
                 "score": {"person": 0, "computer": 0}, "deal": 0, "actions": []})
        t._deal()
        return t

    def _deal(self):
        s = self.s
        pack = [r + su for su in SUITS for r in RANKS]
        random.Random(s["seed"] * 1000 + s["deal"]).shuffle(pack)
        s.update(deal=s["deal"] + 1, hand=pack[:5], other=pack[5:10], turn_up=pack[10],
                 trick=[], tricks={"person": 0, "computer": 0}, phase="play", played=[])

    def view(self):
        s = self.s
        legal = ([{"type": "next"}] if s["phase"] == "deal_over" else
                 [] if s["phase"] == "game_over" else sorted(self._legal()))
        return {"phase": s["phase"], "person_role": "elder", "hand": list(s["hand"]),
                "turn_up": s["turn_up"], "trump": s["turn_up"][-1], "score": dict(s["score"]),
                "stock": 21, "trick": list(s["trick"]), "tricks": dict(s["tricks"]),
                "legal": legal, "events": [], "coach": [], "deal": s["deal"]}

    def _legal(self):
        hand = self.s["hand"]
        return hand

    def act(self, action):
        s = self.s
        kind = action["type"]
        if kind == self.crash_on:
            s["phase"] = "broken"          # a half-done change, as a bug would leave it
            raise RuntimeError("a bug")
        if s["phase"] == "game_over":
            raise FakeIllegal("Law 46", "the game is over")
        if kind == "next":
            if s["phase"] != "deal_over":
                raise FakeIllegal("Law 40", "the deal is not over")
            s["actions"].append(action)
            self._deal()
            return self.view()
        if kind != "card" or s["phase"] != "play":
            raise FakeIllegal("Law 40", f"not your turn to {kind}")
        card = action["card"]
        if card not in s["hand"]:
            raise FakeIllegal("Law 43", f"{card} is not in your hand")
        s["actions"].append(action)
        s["hand"].remove(card)
        reply = next((c for c in s["other"] if c[-1] == card[-1]), s["other"][0])
        s["other"].remove(reply)
        won = reply[-1] != card[-1] or RANKS.index(card[0]) > RANKS.index(reply[0])
        s["tricks"]["person" if won else "computer"] += 1
        s["trick"] = [{"by": "person", "card": card}, {"by": "computer", "card": reply}]
        if not s["hand"]:
            winner = "person" if s["tricks"]["person"] >= 3 else "computer"
            s["score"][winner] += 1
            s["phase"] = "game_over" if s["score"][winner] >= 5 else "deal_over"
        return self.view()

    def record(self):
        return {"fake": True, "state": copy.deepcopy(self.s)}

    @classmethod
    def from_record(cls, record):
        return cls(copy.deepcopy(record["state"]))
