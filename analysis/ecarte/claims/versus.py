"""The computed strategy against the treatise: paired deals, and whole games of five up.

The treatise's decisions are Hoyle's list for the elder, the dealer's maxims and "a king or
a trump should not be discarded" (:class:`~ecarte_sim.engine.ecarte.settings.EcarteSettings`'
defaults); the computed strategy is the shipped tables (``STRATEGY``: its first round, its
later rounds and its discards).

* :func:`paired_deals` — the same deals played twice: once with one side (the elder, the
  dealer, or both) deciding by the strategy, once with everyone by the treatise (common
  random numbers, :func:`~ecarte_sim.engine.ecarte.deals.experiments.paired_table`). The
  paired gain of that side in marks a deal (his less the other's) and in P(win the game)
  at the score (each deal's marks valued by the strategy's ``V``), with 95% intervals.
* :func:`games` — whole games of five up (Law 46) between a player who decides by the
  strategy and one who decides by the treatise, the cards played as ``settings`` says:
  each game index played twice, the strategy's player first to deal in one and first to
  be elder in the other (the same deals, as far as the games run alike). The strategy's
  share of the games won with its Wilson 95% interval, and the paired difference per
  game index.

Deal indices: the paired deals read ``[start, start + deals)`` of the seed (plain deals);
game ``g`` reads deals ``64 g ...`` (:mod:`~ecarte_sim.engine.ecarte.deals.game`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ecarte_sim.analysis.ecarte.measures.paired import NET, game_value, paired_mean
from ecarte_sim.analysis.ecarte.solving.solved import load, script_for
from ecarte_sim.analysis.stats.intervals import mean_ci, wilson_interval
from ecarte_sim.engine.ecarte.deals.experiments import CLASSIFY_ALL, paired_table
from ecarte_sim.engine.ecarte.deals.game import play_game
from ecarte_sim.engine.ecarte.deals.runner import DealRunner
from ecarte_sim.engine.ecarte.settings import DealerPolicy, Discard, EcarteSettings, ElderPolicy

SIDES = ("elder", "dealer", "both")


def _strategy_for(settings: EcarteSettings, side: str) -> EcarteSettings:
    """``settings`` with ``side``'s decisions and discards by the strategy."""
    out = settings
    if side in ("elder", "both"):
        out = replace(out, elder_policy=ElderPolicy.STRATEGY, elder_discard=Discard.STRATEGY)
    if side in ("dealer", "both"):
        out = replace(out, dealer_policy=DealerPolicy.STRATEGY,
                      dealer_discard=Discard.STRATEGY)
    return out


def paired_deals(deals: int = 1 << 20, *, side: str = "elder", score=(0, 0), seed: int = 0,
                 start: int = 0, settings: EcarteSettings | None = None,
                 progress=None) -> dict:
    """``side`` deciding by the strategy against everyone by the treatise on the same
    ``deals`` deals at ``score`` (module docstring)."""
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}; choose from {', '.join(SIDES)}")
    base = settings or EcarteSettings()
    x, y = (int(v) for v in score)
    arm = _strategy_for(base, side)
    joint = paired_table(seed, start, start + int(deals),
                         arm.cfg(elder_score=x, dealer_score=y),
                         base.cfg(elder_score=x, dealer_score=y), CLASSIFY_ALL,
                         chunk=base.chunk(), block=base.task_size(), progress=progress,
                         script=script_for(arm), script_b=None)[0]
    v = load().v
    out = {"side": side, "score": f"{x}-{y}", "deals": int(deals), "seed": int(seed),
           "settings": base.echo()}
    for who, sign in (("elder", 1.0), ("dealer", -1.0)):
        if side != "both" and who != side:
            continue
        win = paired_mean(joint, sign * game_value(v, x, y))
        marks = paired_mean(joint, sign * NET.astype(float))
        out[who] = {"gain_win": win["mean"], "gain_win_ci95": win["ci95"],
                    "gain_marks": marks["mean"], "gain_marks_ci95": marks["ci95"],
                    "n": int(win["n"])}
    return out


def games(n_games: int = 1 << 14, *, seed: int = 0, first: int = 0,
          settings: EcarteSettings | None = None, progress=None) -> dict:
    """Whole games between the strategy and the treatise, each game index twice with the
    sides swapped (module docstring)."""
    base = settings or EcarteSettings()
    strat = _strategy_for(base, "both")
    script = script_for(strat)
    # A decides by the strategy, B by the treatise: A's elder policy when A is elder, A's
    # dealer policy when B is elder
    a_elder = replace(base, elder_policy=strat.elder_policy, elder_discard=strat.elder_discard)
    b_elder = replace(base, dealer_policy=strat.dealer_policy,
                      dealer_discard=strat.dealer_discard)
    by_elder = {"A": a_elder.cfg(trick_by_trick=False), "B": b_elder.cfg(trick_by_trick=False)}
    runner = DealRunner()
    wins = np.zeros(2, dtype=np.int64)          # games the strategy won, by who dealt first
    per_game = np.zeros(int(n_games), dtype=np.int64)   # the strategy's wins of the pair
    deals = 0
    for g in range(int(n_games)):
        for k, first_dealer in enumerate(("A", "B")):
            r = play_game(seed, first + g, by_elder["A"], runner, first_dealer=first_dealer,
                          script=script, by_elder=by_elder)
            deals += len(r.deals)
            won = r.winner == "A"
            wins[k] += won
            per_game[g] += won
        if progress:
            progress(1)
    total = int(wins.sum())
    n = 2 * int(n_games)
    lo, hi = wilson_interval(total, n)
    diff = mean_ci(per_game.astype(float) - 1.0)     # per index: the pair's wins less one
    return {"games": n, "game_indices": [int(first), int(first + n_games)], "seed": int(seed),
            "strategy_wins": total, "share": total / n, "ci95": [float(lo), float(hi)],
            "as_first_dealer": {"won": int(wins[0]), "of": int(n_games)},
            "as_first_elder": {"won": int(wins[1]), "of": int(n_games)},
            "paired_excess": {"mean": diff["mean"] / 2, "ci95": [c / 2 for c in diff["ci95"]]},
            "deals": deals, "settings": base.echo()}


__all__ = ["SIDES", "paired_deals", "games"]
