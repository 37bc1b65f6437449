"""A game of five up (Law 46) from whole deals: the deal alternates, and the game ends the
moment a mark reaches five — a king turned up at four wins before a card is played.

Game ``g`` of seed ``s`` uses deal indices ``g * DEALS_PER_GAME + k`` (``k`` = 0, 1, ...),
so a game is a pure function of ``(s, g)`` and games never share a deal. Player A deals
the first deal of even-numbered games and player B of odd ones (standing in for the cut
of Law 5). The order of marks inside a deal is the order of the laws: the dealer's
turned king (Law 22), then the king in hand, elder first (Laws 23–24), then the point
(Laws 48–49); every deal gives at least one mark, so a game lasts at most nine deals.

Law 46's agreement "the game may count a treble if the adversary has not scored; a
double if he has scored one or two; a single if he has scored three or four" is the
``treble`` variant: :attr:`Game.value`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ecarte_sim.engine.ecarte.deals.runner import DealRunner, WholeDeal
from ecarte_sim.engine.ecarte.settings import CFG
from ecarte_sim.engine.rng import MAX_DEAL_INDEX, check_seed

TARGET = 5
DEALS_PER_GAME = 64
PLAYERS = ("A", "B")


@dataclass
class GameDeal:
    index: int
    dealer: str           # "A" or "B"
    score_before: dict    # {"A": int, "B": int}
    deal: WholeDeal
    score_after: dict


@dataclass
class Game:
    seed: int
    game: int
    deals: list = field(default_factory=list)
    score: dict = field(default_factory=lambda: {"A": 0, "B": 0})
    winner: str | None = None

    @property
    def value(self) -> int:
        """Law 46 (by agreement): treble if the loser has not scored, double at one or two,
        single at three or four."""
        loser = self.score["B" if self.winner == "A" else "A"]
        return 3 if loser == 0 else 2 if loser <= 2 else 1


def check_game_index(game: int) -> int:
    if isinstance(game, bool) or not isinstance(game, (int, np.integer)):
        raise ValueError(f"game must be an integer, got {game!r}")
    if not 0 <= int(game) < MAX_DEAL_INDEX // DEALS_PER_GAME:
        raise ValueError(f"game {game} is outside [0, 2**{44 - 6})")
    return int(game)


def play_game(seed: int, game: int, cfg: np.ndarray, runner: DealRunner | None = None,
              score: dict | None = None, first_dealer: str | None = None,
              script: np.ndarray | None = None,
              by_elder: dict | None = None) -> Game:
    """Play game ``game`` of ``seed`` to five with the policies of ``cfg`` (both players
    use the same policies, by role; ``script``: the tables a table policy reads, by
    score), from ``score`` (default 0-0) with ``first_dealer`` (default: A in even
    games, B in odd ones). ``by_elder``: a ``cfg`` for each player as elder (``{"A":
    cfg, "B": cfg}``: A's elder policy and B's dealer policy when A is elder, and so on),
    for a match between two players who decide differently."""
    seed = check_seed(seed)
    game = check_game_index(game)
    runner = runner or DealRunner()
    cfgs = {p: (cfg if by_elder is None else by_elder[p]).copy() for p in PLAYERS}
    for c in cfgs.values():
        c[CFG.at.TARGET] = TARGET
    result = Game(seed, game)
    if score is not None:
        if set(score) != set(PLAYERS) or not all(0 <= int(v) < TARGET for v in score.values()):
            raise ValueError(f"score must give A and B each 0..{TARGET - 1}, got {score!r}")
        result.score = {k: int(v) for k, v in score.items()}
    if first_dealer is not None and first_dealer not in PLAYERS:
        raise ValueError(f"first dealer must be A or B, got {first_dealer!r}")
    dealer = first_dealer or PLAYERS[game % 2]
    for k in range(DEALS_PER_GAME):
        elder = "B" if dealer == "A" else "A"
        before = dict(result.score)
        cfg = cfgs[elder]
        cfg[CFG.at.ELDER_SCORE] = before[elder]
        cfg[CFG.at.DEALER_SCORE] = before[dealer]
        d = runner.play(seed, game * DEALS_PER_GAME + k, cfg, script)
        result.score[elder] += d.marks_elder
        result.score[dealer] += d.marks_dealer
        result.deals.append(GameDeal(game * DEALS_PER_GAME + k, dealer, before, d,
                                     dict(result.score)))
        for player in PLAYERS:
            if result.score[player] >= TARGET:
                result.winner = player
        if result.winner:
            return result
        dealer = elder
    raise AssertionError("a game to five cannot last 64 deals")  # pragma: no cover
