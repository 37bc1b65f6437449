"""The computer at the practice table: its decisions and its cards.

Four opponents:

``pimc-king`` (default)
    The ``strategy`` opponent's decisions and discards, its cards chosen by the engine's
    ``pimc-king`` (:mod:`ecarte_sim.engine.ecarte.play.reading`: ``pimc-inference``'s
    worlds also weighed by the person's announcement of the king of trumps, Laws 23-24,
    every hand he may hold when they are few) with
    :data:`~ecarte_sim.engine.ecarte.settings.READING_WORLDS` worlds whatever the table's
    ``worlds``: the strongest card player measured (``results/card-play/``: +0.015 marks a
    deal against ``pimc-inference`` at W = 64, against +0.005 for ``alphamu``), hard to
    exploit (``results/exploitability/``), about a millisecond a card. The person's
    silence about the king is read with the treatise's concealing policy: he conceals it
    where its mark cannot change the game (A in the worked game), announces it elsewhere
    (:func:`concealing_policy`).
``alphamu``
    The ``strategy`` opponent's decisions and discards, its cards chosen by the engine's
    ``alphamu`` (:func:`~ecarte_sim.engine.ecarte.play.alphamu.alphamu_decide`: αμ search over
    the same ``W`` worlds ``pimc-inference`` draws, on every card with a choice; among
    equals ``pimc-inference``'s card; a decision whose search would pass its work budget
    plays ``pimc-inference``'s card), the default before issue 53 (+0.0059 marks a deal
    over ``pimc-inference`` as ``ecarte-sim stronger`` measured it).
``strategy``
    The first decisions (propose or play; accept or refuse) and the discards of the
    shipped strategy (:mod:`ecarte_sim.analysis.ecarte.solving.solved`), read by the engine's own
    table policy (:func:`~ecarte_sim.engine.ecarte.decisions.policies.elder_proposes`,
    :func:`~ecarte_sim.engine.ecarte.decisions.policies.dealer_accepts`,
    :func:`~ecarte_sim.engine.ecarte.decisions.policies.thrown_cards`) at the score before the
    deal — the row ``5 * elder's score + dealer's score`` — exactly as the strategy was
    solved and evaluated; later proposals of a deal read the same table on the new hand.
    Its cards are those of the inferring player, ``pimc-inference`` with ``W`` worlds:
    :func:`ecarte_sim.analysis.ecarte.play.card_advice.computer_card`.
``treatise``
    Hoyle's list (play without proposing a *jeu de règle*, else propose), the dealer's
    maxims, the treatise's discard ("a king or a trump should not be discarded"), and the
    treatise's play (:func:`~ecarte_sim.engine.ecarte.play.players.heuristic_card`) from what
    the computer has seen.

The elder who exchanges throws at least one card (Law 27), and nobody throws more than
the stock can replace (Law 38): the engine's ``thrown_cards`` does both.

The king of trumps (Laws 23–24, 47): the strategy's computer always announces it (as the
engine's players mark it). The treatise's conceals it where the mark cannot change the game
(:func:`~ecarte_sim.analysis.practice.laws.king_mark_changes_nothing`), as A does in the
treatise's worked game "because Y, having played without proposing, will lose two if he
lose the point"; otherwise it announces.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

OPPONENTS = ("pimc-king", "alphamu", "strategy", "treatise")
#: The table's opponent when none is asked: ``pimc-king``, the strongest card player
#: measured (issue 53; ``alphamu`` before it, issue 43.8).
DEFAULT_OPPONENT = "pimc-king"
#: The decisions' and the coach's model of each opponent (pimc-king and alphamu decide as
#: the strategy).
MODEL = {"pimc-king": "strategy", "alphamu": "strategy", "strategy": "strategy",
         "treatise": "treatise"}
#: The card player of each opponent that plays by the inferring player's worlds.
CHOOSER = {"pimc-king": "pimc-king", "alphamu": "alphamu", "strategy": "pimc-inference"}


@cache
def _strategy_script() -> np.ndarray:
    from ecarte_sim.analysis.ecarte.solving.solved import strategy_script
    script = strategy_script()          # the later rounds' tables too (issue 50)
    script.flags.writeable = False
    return script


@cache
def _cfg(opponent: str) -> np.ndarray:
    from ecarte_sim.engine.ecarte.settings import make_cfg
    if opponent in ("strategy", "alphamu", "pimc-king"):
        cfg = make_cfg(elder_policy="table", dealer_policy="table", elder_discard="table",
                       dealer_discard="table")
    else:
        cfg = make_cfg(elder_policy="regle", dealer_policy="maxims",
                       elder_discard="trumps-kings", dealer_discard="trumps-kings")
    cfg.flags.writeable = False
    return cfg


@cache
def _empty_script() -> np.ndarray:
    from ecarte_sim.engine.ecarte.decisions.policies import empty_script
    return empty_script()


@dataclass(frozen=True)
class Position:
    """What the computer knows when it plays a card (its own view of the deal).

    ``role`` "elder" or "dealer"; ``hand`` its cards now (a mask); ``turn_up``; ``said``
    the first decisions and answers of the deal in order ("propose", "play", "accept",
    "refuse"); ``discards`` per exchange, (the cards it threw, a mask; the number its
    adversary threw); ``own_discards`` every card it threw (a mask); ``seen`` every card it has held
    (dealt or drawn, a mask); ``played`` the cards played so far in order, as
    (player role, card); ``seed`` / ``index`` the game's seed and the deal's index (its
    random words); ``score`` (elder's, dealer's) before the deal."""
    role: str
    hand: int
    turn_up: int
    said: tuple
    discards: tuple
    own_discards: int
    seen: int
    played: tuple
    seed: int
    index: int
    score: tuple
    kings: tuple = ()


def concealing_policy(position: Position) -> int:
    """How the computer reads the person's silence about the king of trumps (thousandths of
    his hands holding it in which he does not announce it): the treatise's concealer —
    where the mark cannot change the game (:func:`~ecarte_sim.analysis.practice.laws.
    king_mark_changes_nothing`: "To mark the king will be useless, if Y win the point") he
    may conceal it and his silence says nothing (1000); elsewhere he announces it (0)."""
    from ecarte_sim.analysis.practice.laws import king_mark_changes_nothing
    from ecarte_sim.engine.ecarte.records import Law49
    mine = 0 if position.role == "elder" else 1
    holder, other = position.score[1 - mine], position.score[mine]
    said = tuple(position.said)
    first = (Law49.PLAYED_WITHOUT_PROPOSING if said[:1] == ("play",) else
             Law49.REFUSED_FIRST if said[:2] == ("propose", "refuse") else Law49.NONE)
    return 1000 if king_mark_changes_nothing(holder, other, position.role != "elder",
                                             int(first)) else 0


class Computer:
    """The computer's decisions for one opponent kind (:data:`OPPONENTS`) with ``worlds``
    worlds for the inferring player's cards."""

    def __init__(self, opponent: str = DEFAULT_OPPONENT, worlds: int = 64):
        """``worlds``: the inferring player's worlds for ``alphamu`` and ``strategy``;
        ``pimc-king`` plays with :data:`~ecarte_sim.engine.ecarte.settings.READING_WORLDS`."""
        if opponent not in OPPONENTS:
            raise ValueError(f"unknown opponent {opponent!r}; choose from "
                             f"{', '.join(OPPONENTS)}")
        self.opponent = opponent
        self.worlds = int(worlds)
        self.cfg = _cfg(opponent)
        self.script = _strategy_script() if opponent != "treatise" else _empty_script()

    @staticmethod
    def _slot(score) -> int:
        from ecarte_sim.engine.ecarte.decisions.policies import score_slot
        return int(score_slot(int(score[0]), int(score[1])))

    def proposes(self, hand: int, turn_up: int, rnd: int, score) -> bool:
        """The elder's decision in round ``rnd``: True = propose."""
        from ecarte_sim.engine.ecarte.decisions.policies import elder_proposes
        from ecarte_sim.engine.ecarte.settings import CFG
        return bool(elder_proposes(self.cfg[CFG.at.ELDER_POLICY], self.cfg[CFG.at.THRESHOLD],
                                   np.uint32(hand), turn_up >> 3, rnd, self.script,
                                   turn_up, self._slot(score)))

    def accepts(self, hand: int, turn_up: int, rnd: int, score) -> bool:
        """The dealer's answer to the proposal of round ``rnd``: True = accept."""
        from ecarte_sim.engine.ecarte.decisions.policies import dealer_accepts
        from ecarte_sim.engine.ecarte.settings import CFG
        return bool(dealer_accepts(self.cfg[CFG.at.DEALER_POLICY], np.uint32(hand),
                                   turn_up >> 3, rnd, self.script, turn_up,
                                   self._slot(score)))

    def discard(self, role: str, hand: int, turn_up: int, rnd: int, room: int,
                score) -> int:
        """The cards (a mask) thrown in round ``rnd`` with ``room`` cards in the stock."""
        from ecarte_sim.engine.ecarte.decisions.policies import thrown_cards
        return int(thrown_cards(self.cfg, self.script, 0 if role == "elder" else 1,
                                np.uint32(hand), turn_up >> 3, rnd, room, turn_up,
                                self._slot(score)))

    def announces(self, holder: int, other: int, holder_is_elder: bool, first: int) -> bool:
        """Whether the computer holding the king of trumps announces it (module
        docstring): ``holder``/``other`` the live score, ``first`` Law 49's code."""
        if self.opponent != "treatise":
            return True
        from ecarte_sim.analysis.practice.laws import king_mark_changes_nothing
        return not king_mark_changes_nothing(holder, other, holder_is_elder, first)

    def card(self, position: Position, not_held: int) -> int:
        """The card the computer plays. ``not_held``: the cards the opponent's play has
        proved he does not hold (Law 43)."""
        if self.opponent != "treatise":
            chooser = CHOOSER[self.opponent]
            worlds = None if chooser == "pimc-king" else self.worlds
            chosen = _inferring_card(position, worlds, chooser)
            if chosen is not None:
                return chosen
        return heuristic(position, not_held)


def heuristic(position: Position, not_held: int) -> int:
    """The treatise's play from what the computer has seen (the engine's heuristic)."""
    from ecarte_sim.engine.ecarte.play.players import heuristic_card
    seen = position.seen | position.own_discards | (1 << position.turn_up)
    led = -1
    if len(position.played) % 2 == 1:
        led = position.played[-1][1]
    for _, c in position.played:
        seen |= 1 << c
    possible = ~(seen | not_held) & 0xFFFFFFFF
    return int(heuristic_card(np.uint32(position.hand), np.int64(led),
                              np.int64(position.turn_up >> 3), True, np.uint32(possible)))


def _inferring_card(position: Position, worlds: int | None,
                    chooser: str = "pimc-inference") -> int | None:
    """The inferring player's card (H2's ``cards.computer_card``), or None while that
    module is not there."""
    try:
        from ecarte_sim.analysis.ecarte.play import card_advice as cards
    except ImportError:
        return None
    fn = getattr(cards, "computer_card", None)
    if fn is None:
        return None
    from ecarte_sim.engine.cards import parse_card
    chosen = fn(position.hand, position.turn_up, position.role, said=list(position.said),
                discards=[tuple(x) for x in position.discards],
                played=[c for _, c in position.played], score=position.score,
                seed=position.seed, deal=position.index, worlds=worlds, model="strategy",
                chooser=chooser, king=_who_announced(position),
                policy=concealing_policy(position))
    return parse_card(chosen) if isinstance(chosen, str) else int(chosen)


def _who_announced(position: Position) -> str:
    """Who announced the king of trumps this deal, as the card verdicts take it."""
    kings = tuple(getattr(position, "kings", ()))
    return kings[0] if kings else "none"
