"""The computer at the practice table: its decisions and its cards.

Three opponents:

``alphamu`` (default)
    The ``strategy`` opponent's decisions and discards, its cards chosen by the engine's
    ``alphamu`` (:func:`~ecarte_sim.engine.ecarte.play.alphamu.alphamu_decide`: αμ search over
    the same ``W`` worlds ``pimc-inference`` draws, on every card with a choice; among
    equals ``pimc-inference``'s card; a decision whose search would pass its work budget
    plays ``pimc-inference``'s card), the stronger player of ``ecarte-sim stronger``
    (+0.0059 marks a deal over ``pimc-inference`` as measured there).
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

OPPONENTS = ("alphamu", "strategy", "treatise")
#: The table's opponent when none is asked: ``alphamu``, the stronger card player (issue
#: 43.8). Its decisions are bounded by a work budget counted in the kernel
#: (:data:`~ecarte_sim.engine.ecarte.play.alphamu.DEFAULT_BUDGET`; before it, a first card
#: took half a minute now and then) and release the GIL, so one game's search does not
#: stop the server.
DEFAULT_OPPONENT = "alphamu"
#: The decisions' and the coach's model of each opponent (alphamu decides as the strategy).
MODEL = {"alphamu": "strategy", "strategy": "strategy", "treatise": "treatise"}


@cache
def _strategy_script() -> np.ndarray:
    from ecarte_sim.analysis.ecarte.solving.solved import load
    from ecarte_sim.engine.ecarte.decisions.tables import policy_script
    script = policy_script(**load().tables())
    script.flags.writeable = False
    return script


@cache
def _cfg(opponent: str) -> np.ndarray:
    from ecarte_sim.engine.ecarte.settings import make_cfg
    if opponent in ("strategy", "alphamu"):
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


class Computer:
    """The computer's decisions for one opponent kind (:data:`OPPONENTS`) with ``worlds``
    worlds for the inferring player's cards."""

    def __init__(self, opponent: str = DEFAULT_OPPONENT, worlds: int = 64):
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
            chosen = _inferring_card(position, self.worlds, "alphamu" if
                                     self.opponent == "alphamu" else "pimc-inference")
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


def _inferring_card(position: Position, worlds: int, chooser: str = "pimc-inference"
                    ) -> int | None:
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
                chooser=chooser)
    return parse_card(chosen) if isinstance(chosen, str) else int(chosen)
