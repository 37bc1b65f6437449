"""A player who makes random legal choices at the practice table: the load test's players,
the tests' and the warm-up's.

* :func:`legal_actions` — the legal actions of a view (:meth:`.session.Table.view`) as
  action dicts; :func:`choose` — one of them at random.
* :func:`warm_up` — a game dealt and played by random legal choices to the end of its first
  deal, outside any store: numba compiles (or loads) every kernel a game uses.
"""

from __future__ import annotations

import random

from ecarte_sim.apps.practice.session import ACTIONS, Table

#: Actions a random player takes only when nothing else is legal (the coach's loop).
_LAST = ("retry", "reveal")


def legal_actions(view: dict) -> list[dict]:
    """The legal actions of a view as action dicts (the view lists cards as ``"KH"``,
    action types as strings, or action dicts)."""
    out = []
    legal = view.get("legal") or []
    if isinstance(legal, dict):  # {"actions": [...], "cards": [...], "coach": [...]}
        legal = [a for a in legal.get("actions", []) if a != "card"] + \
            list(legal.get("cards", [])) + list(legal.get("coach", []))
    for item in legal:
        if isinstance(item, dict) and item.get("type") in ACTIONS:
            if item["type"] == "king" and "announce" not in item:
                out += [{"type": "king", "announce": True}, {"type": "king", "announce": False}]
            else:
                out.append(dict(item))
        elif isinstance(item, str) and item in ACTIONS:
            if item == "king":
                out += [{"type": "king", "announce": True}, {"type": "king", "announce": False}]
            else:
                out.append({"type": item})
        elif isinstance(item, str):
            out.append({"type": "card", "card": item})
    return out


def choose(view: dict, rng: random.Random) -> dict | None:
    """A random legal action (a discard without named cards: a random non-empty subset of
    the hand); None at the end of the game."""
    actions = legal_actions(view)
    main = [a for a in actions if a["type"] not in _LAST] or actions
    if not main:
        return None
    action = dict(rng.choice(main))
    if action["type"] == "discard" and "cards" not in action:
        hand = list(view.get("hand") or [])
        legal = view.get("legal") if isinstance(view.get("legal"), dict) else {}
        low, high = legal.get("min", 1), min(legal.get("max", len(hand)), len(hand))
        action["cards"] = rng.sample(hand, rng.randint(low, high))
    return action


def warm_up(table=None) -> None:
    """Deal a game of ``table`` (None: a :class:`.session.Table`) and play random legal
    actions to the end of its first deal, outside any store: numba compiles (or loads
    from its cache) every kernel a game uses."""
    game = (table or Table).new(seed=0)
    view = game.view()
    rng = random.Random(0)
    for _ in range(40):
        if view.get("phase") in ("deal_over", "game_over"):
            break
        action = choose(view, rng)
        if action is None:
            break
        try:
            view = game.act(action)
        except Exception:
            break
