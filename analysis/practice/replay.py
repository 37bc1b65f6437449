"""A deal of a game record replayed: action by action as the coach grades it, and double
dummy card by card.

* :class:`DealState` — the deal as it stands before each action (:func:`action_states`):
  the hands as masks, what was said (Laws 25–26), each exchange's discards (Laws 27–31),
  the kings marked (Laws 23, 47) and the play walked through by the engine's one walk
  (:mod:`ecarte_sim.engine.ecarte.laws.position`); a card the record writes ``"?"`` is
  unknown (None), and so is whatever depends on it.
* :func:`replay` — the deal double dummy (both hands as played from): every legal card's
  value at every card played, the best line, the cards that lost a trick.
* :func:`known_card` / :func:`known_set` — a record's cards through
  :func:`~ecarte_sim.engine.deck.card_of` / :func:`~ecarte_sim.engine.deck.card_set`,
  None where the record does not know one.
* :func:`json_ready` — numpy scalars and arrays as Python numbers and lists.

The grading of each decision, the table's hooks and a record's review are
:mod:`.coach`'s.
"""

from __future__ import annotations

import numpy as np

from ecarte_sim.engine.deck import card_of, card_set, cards_of, format_card, format_hand

#: A card the record does not know (:mod:`.records`).
UNKNOWN = "?"


def known_card(token) -> int | None:
    """A card of a record as an index, or None when the record does not know it
    (``"?"``, or no card given)."""
    return None if token is None or token == UNKNOWN else card_of(token, "card")


def known_set(tokens, what: str = "cards") -> int | None:
    """Cards of a record as a mask, or None if any is unknown (``"?"``); ``what`` names
    them in the :class:`~ecarte_sim.engine.deck.CardError` of a bad or repeated card."""
    tokens = list(tokens)
    if any(t is None or t == UNKNOWN for t in tokens):
        return None
    return card_set(tokens, what)


def json_ready(obj):
    """JSON-ready: numpy scalars and arrays as Python numbers and lists."""
    if isinstance(obj, dict):
        return {k: json_ready(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_ready(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return json_ready(obj.tolist())
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    return obj


# ----------------------------------------------------------------------------- a deal

class DealState:
    """A deal of a record replayed action by action (cards as indices, hands as masks;
    None where the record does not know a card).

    ``state`` is the play's position (:data:`~ecarte_sim.engine.ecarte.laws.position.START`
    stepped by :func:`~ecarte_sim.engine.ecarte.laws.position.after` per card: leader as the
    engine's ELDER or dealer, the elder's tricks, the card led or -1, the cards played),
    or None once the trump or a card played is unknown or a card is played out of turn
    (Law 40)."""

    def __init__(self, deal: dict):
        from ecarte_sim.engine.ecarte.laws.position import START
        from ecarte_sim.engine.ecarte.laws.tricks import ELDER
        from ecarte_sim.engine.ecarte.records import Law49
        self.deal = deal
        self.elder, self.dealer = deal["elder"], deal["dealer"]
        self.turn_up = known_card(deal["turn_up"])
        self.trump = None if self.turn_up is None else self.turn_up >> 3
        self.dealt = {p: known_set(deal["hands"][p], "hand") for p in (self.elder, self.dealer)}
        self.hand = dict(self.dealt)
        self.said: list[str] = []
        self.groups: list[dict] = []        # per exchange: {player: (thrown mask, count)}
        self.played: list[tuple[str, object]] = []
        self.first = Law49.NONE
        self.score = dict(deal["score_before"])
        self.announced: list[str] = []       # who announced the king of trumps (Law 23)
        self.at_play: dict | None = None
        self.names = {ELDER: self.elder, 1 - ELDER: self.dealer}
        self.state = None if self.trump is None else START
        if self.turn_up is not None and self.turn_up & 7 == 7:
            self.score[self.dealer] += 1      # the king turned up (Laws 22, 47)

    def role(self, player: str) -> str:
        return "elder" if player == self.elder else "dealer"

    def other(self, player: str) -> str:
        return self.dealer if player == self.elder else self.elder

    @property
    def round(self) -> int:
        return len([g for g in self.groups if self.dealer in g])

    def apply(self, a: dict) -> None:
        from ecarte_sim.engine.ecarte.records import Law49
        kind, by = a["type"], a["by"]
        if kind in ("propose", "play", "accept", "refuse"):
            if not self.said and kind == "play":
                self.first = Law49.PLAYED_WITHOUT_PROPOSING
            if self.said == ["propose"] and kind == "refuse":
                self.first = Law49.REFUSED_FIRST
            self.said.append(kind)
            if kind in ("play", "refuse"):
                self.at_play = dict(self.hand)
        elif kind == "discard":
            cards = a.get("cards")
            thrown = known_set(cards, "discard") if isinstance(cards, list) else None
            count = len(cards) if isinstance(cards, list) else int(a.get("count", 0))
            if by == self.elder:
                self.groups.append({})
            self.groups[-1][by] = (thrown, count)
            drawn = known_set(a["drawn"], "cards drawn") if a.get("drawn") is not None \
                else None
            h = self.hand[by]
            self.hand[by] = None if (h is None or thrown is None or drawn is None) \
                else (h & ~thrown) | drawn
            if by == self.dealer and self.stock_left() == 0:
                self.at_play = dict(self.hand)
        elif kind == "king":
            if a.get("announce"):
                self.score[by] += 1           # Laws 23, 47
                self.announced.append(by)
        elif kind == "card":
            self._play(by, known_card(a["card"]))

    def _play(self, by: str, c: int | None) -> None:
        from ecarte_sim.engine.ecarte.laws.position import after, to_play
        if self.at_play is None:
            self.at_play = dict(self.hand)
        if self.hand[by] is not None and c is not None:
            self.hand[by] &= ~(1 << c)
        elif c is None:
            self.hand[by] = None
        self.played.append((by, c))
        if self.state is not None:
            in_turn = c is not None and self.names[to_play(self.state)] == by
            self.state = after(self.state, c, self.trump) if in_turn else None

    def stock_left(self) -> int:
        return 21 - sum(c for g in self.groups for _, c in g.values())

    def live(self) -> tuple[int, int]:
        """(elder's, dealer's) marks now (the score before the deal and this deal's kings)."""
        return self.score[self.elder], self.score[self.dealer]

    def score_before(self) -> tuple[int, int]:
        s = self.deal["score_before"]
        return s[self.elder], s[self.dealer]

    def position_of(self, player: str):
        """The card verdict's position for ``player`` to play now, or None when a card
        he must know is unknown."""
        from ecarte_sim.analysis.ecarte.play.card_advice import parse_position
        if self.hand[player] is None or self.turn_up is None \
                or any(c is None for _, c in self.played):
            return None
        groups = []
        for g in self.groups:
            mine = g.get(player, (0, 0))[0]
            if mine is None:
                return None
            groups.append((mine, g.get(self.other(player), (None, 0))[1]))
        return parse_position(self.hand[player], self.turn_up, self.role(player),
                              said=self.said, discards=groups,
                              played=[c for _, c in self.played],
                              score=self.score_before(),
                              king=self.role(self.announced[0]) if self.announced else "none")


def action_states(deal: dict):
    """(j, action, the :class:`DealState` before it) for each action of a record's deal
    (one state, advanced in place)."""
    s = DealState(deal)
    for j, a in enumerate(deal["actions"]):
        yield j, a, s
        s.apply(a)


# ----------------------------------------------------------------------------- replay

def replay(deal: dict) -> dict:
    """The deal replayed double dummy (both hands as played from): for every card played,
    each legal card's value (the elder's tricks at the end, best play by both after it:
    the engine's exact ``value_after``), whether the card kept the best value for its
    player and the tricks it lost; the value of the deal at the first card; the best
    line (both players double dummy from the first card, ties to the lowest card, as
    the engine's ``dd`` player: "how the hand can be best played"); ``lost_cards`` the
    numbers of the cards that lost a trick against the best; ``elder_tricks`` in play
    (None unless the record gives all ten cards).
    ``{"known": False, "reason": ...}`` when a card of either hand is unknown."""
    from ecarte_sim.engine.ecarte.laws.position import START, after, to_play
    from ecarte_sim.engine.ecarte.laws.tricks import ELDER
    from ecarte_sim.engine.ecarte.play.players import dd_card
    from ecarte_sim.engine.ecarte.search.moves import legal_moves
    from ecarte_sim.engine.ecarte.search.solver import solve_kernel, value_after

    s = DealState(deal)
    for a in deal["actions"]:
        s.apply(a)
    if not any(a.get("type") == "card" for a in deal["actions"]):
        turned_king = isinstance(deal.get("turn_up"), str) and deal["turn_up"][:1] == "K"
        return {"known": False, "reason": "no card was played in this deal" + (
            ": the king turned up marked the dealer's fifth point and ended the game"
            if turned_king and not deal["actions"] else "")}
    if s.at_play is None or any(s.at_play.get(p) is None for p in (s.elder, s.dealer)) \
            or s.trump is None or any(c is None for _, c in s.played):
        return {"known": False, "reason": "a card of the hands or of the play is unknown "
                                          "(the record says '?')"}
    names = s.names
    e0, d0 = s.at_play[s.elder], s.at_play[s.dealer]
    trump = s.trump
    start = int(solve_kernel(np.uint32(e0), np.uint32(d0), trump, True))
    # the best line
    e, d, state = e0, d0, START
    line = []
    for j in range(10):
        leader, tricks, led, _ = state
        mover = to_play(state)
        c = int(dd_card(mover, np.uint32(e), np.uint32(d), leader, tricks, led, trump, True))
        line.append({"by": names[mover], "card": format_card(c)})
        e, d = _without(e, d, mover, c)
        state = after(state, c, trump)
    # the play as it went
    e, d, state = e0, d0, START
    cards_out = []
    for j, (by, c) in enumerate(s.played):
        leader, tricks, led, _ = state
        mover = ELDER if by == s.elder else 1 - ELDER
        if mover != to_play(state):
            return {"known": False, "reason": f"card {j + 1} ({format_card(c)}) is played "
                                              f"out of turn (Law 40)"}
        own = e if mover == ELDER else d
        legal = int(legal_moves(np.uint32(own), led, trump, True))
        vals = {}
        for x in cards_of(legal):
            vals[format_card(x)] = int(value_after(np.uint32(e), np.uint32(d), leader, tricks,
                                                   led, trump, True, x))
        best = max(vals.values()) if mover == ELDER else min(vals.values())
        got = vals.get(format_card(c))
        lost = None if got is None else (best - got if mover == ELDER else got - best)
        cards_out.append({"n": j + 1, "by": by, "card": format_card(c), "values": vals,
                          "value": got, "best_value": best,
                          "best": [k for k, v in vals.items() if v == best],
                          "kept_best": lost == 0, "tricks_lost": lost})
        e, d = _without(e, d, mover, c)
        state = after(state, c, trump)
    in_play = state[1] if len(s.played) == 10 else None      # the elder's tricks
    return json_ready({
        "known": True, "hands": {s.elder: format_hand(e0), s.dealer: format_hand(d0)},
        "elder": s.elder, "dealer": s.dealer, "trump": "SHDC"[trump],
        "dd_elder_tricks": start, "elder_tricks": in_play,
        "best_line": line, "cards": cards_out,
        "lost_cards": [c["n"] for c in cards_out if not c["kept_best"]],
        "text": f"double dummy the elder takes {start} trick{'s' if start != 1 else ''}"
                + (f"; in play {in_play}" if in_play is not None else
                   f"; the record gives {len(s.played)} of the ten cards")
                + "".join(f"; {c['by']}'s {c['card']} (card {c['n']}) lost "
                          f"{c['tricks_lost']} trick{'s' if c['tricks_lost'] != 1 else ''}"
                          for c in cards_out if not c["kept_best"])})


def _without(e: int, d: int, mover: int, c: int) -> tuple[int, int]:
    """The two hands after ``mover`` played ``c``."""
    from ecarte_sim.engine.ecarte.laws.tricks import ELDER
    bit = 1 << c
    return (e & ~bit, d) if mover == ELDER else (e, d & ~bit)


__all__ = ["UNKNOWN", "DealState", "action_states", "replay", "known_card", "known_set",
           "json_ready"]
