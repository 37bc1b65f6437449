"""What reading the proposals is worth: the inferring player against plain PIMC and dd.

One player (the elder, then the dealer: the seats swapped) plays three ways on the *same*
deals (common random numbers) against the same opponent, plain PIMC: ``pimc-inference``
(his worlds honour the opponent's proposals, answers and discards,
:mod:`ecarte_sim.engine.ecarte.play.inferred_worlds`), plain ``pimc`` (uniform worlds), and
``dd`` (he sees every card: the most any reading could give). Both players decide their
proposals by the treatise (Hoyle's list and the dealer's maxims) and discard
``trumps-kings``; only the play differs between the arms.

For each seat, the paired differences over the same deals (the arms' deals differ only
in that seat's cards, so the pairing removes most of the deal-to-deal noise):

* marks per deal: his marks minus his opponent's (kings and the point, Laws 23, 48-49);
* P(win the game) from 0-0: each deal's outcome valued by the score table ``V`` of the
  plain-PIMC game (:mod:`ecarte_sim.analysis.ecarte.measures.scores`, from deals disjoint from the
  comparison's, indices from 2^40; the intervals treat ``V`` as known, its error being
  shared by both arms).

"Both seats" averages the two seats' differences (a player who deals every other hand);
its standard error is from the two independent sets of deals.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ecarte_sim.analysis.ecarte.measures import paired as P
from ecarte_sim.analysis.ecarte.measures.scores import outcome_distribution, win_probabilities
from ecarte_sim.analysis.stats.intervals import Z95_ROUNDED, normal_ci
from ecarte_sim.engine.ecarte.deals.counts import whole_counts
from ecarte_sim.engine.ecarte.deals.experiments import CLASSIFY_ALL, paired_table
from ecarte_sim.engine.ecarte.settings import DEFAULT_WORLDS, EcarteSettings, PlayModel

#: The score table's deals: disjoint from the comparison's (0, 1, ...).
V_DEALS_START = 1 << 40
#: The default deals per comparison and behind the score table.
DEFAULT_DEALS = 1 << 16
DEFAULT_V_DEALS = 1 << 16
SEATS = ("elder", "dealer")
#: The arms compared, each against plain PIMC in the same seat (a - b).
COMPARISONS = (("pimc-inference", "pimc"), ("dd", "pimc-inference"))


def _settings(seat: str, model: str, worlds: int) -> EcarteSettings:
    other = PlayModel.PIMC
    plays = {"elder_play": model, "dealer_play": other} if seat == "elder" else \
        {"elder_play": other, "dealer_play": model}
    return EcarteSettings.build(worlds=worlds, **plays)


def _difference(joint: np.ndarray, f: np.ndarray) -> dict:
    r = P.paired_mean(joint, f)
    return {"mean": r["mean"], "se": r["se"], "ci95": list(r["ci95"])}


def inference_value(deals: int = DEFAULT_DEALS, *, seed: int = 0, worlds: int = DEFAULT_WORLDS,
                    v_deals: int = DEFAULT_V_DEALS,
                    progress: Callable[[str, int], None] | None = None) -> dict:
    """The paired comparisons of the module docstring on deals ``[0, deals)`` of ``seed``:
    for each seat and comparison, the difference in marks per deal and in P(win the game)
    from 0-0, with standard errors and normal 95% intervals; and the inferring player's
    work (worlds, proposals, worlds that fell back to uniform)."""
    say = progress or (lambda label, n: None)
    base = EcarteSettings.build(worlds=worlds, play="pimc")
    say("score table (plain PIMC)", v_deals)
    counts = whole_counts(seed, V_DEALS_START, V_DEALS_START + v_deals, base.cfg(),
                          chunk=base.chunk())
    v = win_probabilities(outcome_distribution(counts)[0])
    elder_net = P.NET.astype(float)
    elder_game = P.game_value(v, 0, 0)
    out = {"deals": deals, "seed": seed, "worlds": worlds, "v_deals": v_deals,
           "elder_wins_game_0_0": float(v[0, 0]), "seats": {}, "both_seats": {}}
    for seat in SEATS:
        sign = 1.0 if seat == "elder" else -1.0
        net = sign * elder_net
        game = elder_game if seat == "elder" else 1.0 - elder_game
        rows = {}
        for a, b in COMPARISONS:
            say(f"{seat}: {a} against {b}", deals)
            sa, sb = _settings(seat, a, worlds), _settings(seat, b, worlds)
            joint = paired_table(seed, 0, deals, sa.cfg(), sb.cfg(), CLASSIFY_ALL,
                                 chunk=base.chunk())[0]
            rows[f"{a} - {b}"] = {"marks": _difference(joint, net),
                                  "win_game": _difference(joint, game),
                                  "deals_differing": int(deals - np.trace(joint))}
        out["seats"][seat] = rows
    for key in out["seats"]["elder"]:
        both = {}
        for what in ("marks", "win_game"):
            e, d = out["seats"]["elder"][key][what], out["seats"]["dealer"][key][what]
            mean = (e["mean"] + d["mean"]) / 2
            se = math.sqrt(e["se"] ** 2 + d["se"] ** 2) / 2
            both[what] = {"mean": mean, "se": se, "ci95": normal_ci(mean, se, Z95_ROUNDED)}
        out["both_seats"][key] = both
    work = whole_counts(seed, 0, min(deals, 1 << 12),
                        EcarteSettings.build(worlds=worlds, play="pimc-inference").cfg(),
                        chunk=base.chunk())
    from ecarte_sim.engine.ecarte.records import COUNTS
    out["inference_work"] = {"deals": min(deals, 1 << 12),
                             **inference_work(COUNTS.read(work))}
    return out


def inference_work(f: dict) -> dict:
    """What ``pimc-inference`` did, from counts read by name: the worlds it drew, the
    proposals (histories or hands) it tried, and the worlds that fell back to uniform
    because no proposal fitted (:mod:`ecarte_sim.engine.ecarte.play.inferred_worlds`)."""
    worlds = int(f["infer_worlds"])
    return {"worlds": worlds, "proposals": int(f["infer_tries"]),
            "fallback_worlds": int(f["infer_fallbacks"]),
            "fallback_share": int(f["infer_fallbacks"]) / worlds}


__all__ = ["inference_value", "inference_work",
           "COMPARISONS", "SEATS", "DEFAULT_DEALS", "DEFAULT_V_DEALS"]
