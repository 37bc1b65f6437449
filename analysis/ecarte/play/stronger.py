"""Is ``alphamu`` (or ``pimc-king``, or ``pimc-inference`` with more worlds) a stronger card
player than ``pimc-inference``? A paired match on the same deals (issue 35 item 3; issue
53: :func:`compare`, several players on the same deals and against each other).

The chooser (:mod:`ecarte_sim.engine.ecarte.play.alphamu`) is ``pimc-inference`` until the last
``K`` tricks (by default 5: every card), then αμ with M unbounded over the same worlds.
:func:`match` plays whole deals ``start .. start + deals`` of ``seed`` with both players
``pimc-inference`` (the proposals, answers and discards by ``decisions``, at the score 0-0;
the engine's whole deal), then, for each side in turn, plays the deal again with that
side's cards chosen by ``alphamu``, the other side's by ``pimc-inference``, both with the
deal's own random words (common random numbers: the same deal, the same worlds at every
card; the only change is that side's search). The paired difference is that side's marks in
the replay minus his marks in the deal (the point 1, the vole 2, Law 49's doubling; the
kings do not change), mean and 95% interval over deal-sides (each deal gives one elder and
one dealer side). Until the last ``K`` tricks both sides play the deal's own cards, so the
replay starts there from the deal's play (a replay with ``K = 0`` is checked by the tests
to give the deal's own cards).

Also counted: the αμ decisions (a choice on the last ``K`` tricks), how many chose another
card than ``pimc-inference`` would there, and the seconds per decision of each (the same
positions; ``pimc-inference`` alone, then ``alphamu``, which includes it).

:func:`exploitability` measures the other way issue 35 asks: the exact best response's gain
(:mod:`~ecarte_sim.analysis.ecarte.play.exploit`) against the keyed ``alphamu``
(:func:`~ecarte_sim.engine.ecarte.play.alphamu.keyed_alphamu_cards`) and against the keyed
``pimc-inference``, paired on the same responder hands, opponent hands and seed.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import numpy as np

from ecarte_sim.analysis.ecarte.play.exploit import Engine
from ecarte_sim.analysis.stats.intervals import Z95_ROUNDED, mean_ci
from ecarte_sim.engine.ecarte.settings import card_players

ELDER, DEALER = 0, 1
#: The mean with its 95% interval, z = 1.96 (as this module's figures were recorded).
_mean_ci = functools.partial(mean_ci, z=Z95_ROUNDED)


def play_out(d, cfg, script, *, seed: int, index: int, worlds: int, side: int,
             last_tricks: int, m: int, from_card: int = 0, stats: dict | None = None,
             forced_trump: bool = True) -> tuple[int, list[int]]:
    """Deal ``d`` (a :class:`~ecarte_sim.engine.ecarte.deals.runner.WholeDeal` of ``seed``,
    ``index``) played again from card ``from_card`` (the cards before it as in the deal):
    ``side`` (ELDER, DEALER, or -1 for neither) by ``alphamu`` with ``last_tricks`` and
    ``m``, the other by ``pimc-inference``, both with the deal's words and from their own
    knowledge. Returns (the elder's tricks, the cards played)."""
    from ecarte_sim.analysis.ecarte.play.card_advice import deal_record, replay
    from ecarte_sim.engine.ecarte.deals.whole import payoff_table
    from ecarte_sim.engine.ecarte.play.alphamu import alphamu_decide
    scratch = np.zeros(max(worlds, 1), dtype=np.uint32)

    def choose(who, p, plays, n):
        args = (who, np.uint32(p.start), np.uint32(p.unseen), plays, n, p.trump,
                forced_trump, worlds, np.uint64(seed), np.uint64(index), cfg, script,
                deal_record(p), payoff_table(p.first), scratch)
        if who != side:
            return int(alphamu_decide(*args, 0, m)[0])
        t0 = time.perf_counter()
        c, pimc, searched = alphamu_decide(*args, last_tricks, m)
        t1 = time.perf_counter()
        c, pimc = int(c), int(pimc)
        if searched and stats is not None:
            t2 = time.perf_counter()
            again = int(alphamu_decide(*args, 0, m)[0])
            t3 = time.perf_counter()
            assert again == pimc
            stats["decisions"] += 1
            stats["differ"] += c != pimc
            stats["alphamu_seconds"] += t1 - t0
            stats["pimc_seconds"] += t3 - t2
        return c

    return replay(d, choose, from_card=from_card, forced_trump=forced_trump)


def match(*, deals: int = 1000, seed: int = 0, worlds: int = 64, last_tricks: int = 5,
          m: int | None = None, decisions: str = "treatise", start: int = 0,
          on_deal=None) -> dict:
    """``alphamu`` against ``pimc-inference`` on whole deals ``start .. start + deals`` of
    ``seed`` (module docstring): per deal-side, the ``alphamu`` side's marks minus his marks
    in the ``pimc-inference`` deal, and the same for winning the point; mean and 95%
    interval over deal-sides, and by side. ``on_deal(k)``: progress, called after each
    deal."""
    from ecarte_sim.analysis.ecarte.play.card_advice import settings_for
    from ecarte_sim.engine.ecarte.deals.runner import DealRunner
    from ecarte_sim.engine.ecarte.deals.whole import outcome_of, points_for
    from ecarte_sim.engine.ecarte.play.alphamu import M_INF
    from ecarte_sim.engine.ecarte.settings import CFG, MAX_WORLDS, PlayModel
    from ecarte_sim.engine.rng import check_index_range, check_seed

    seed = check_seed(seed)
    for name, value, lo, hi in (("deals", deals, 1, 1 << 30), ("worlds", worlds, 1, MAX_WORLDS),
                                ("tricks", last_tricks, 0, 5)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                or not lo <= int(value) <= hi:
            raise ValueError(f"{name} must be an integer in {lo}..{hi}, got {value!r}")
    m = M_INF if m is None else m
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or not 1 <= m <= M_INF:
        raise ValueError(f"M must be an integer in 1..{M_INF}, got {m!r}")
    if decisions not in ("treatise", "strategy"):
        raise ValueError(f"unknown decision model {decisions!r}; choose from treatise, "
                         "strategy")
    check_index_range(int(start), int(start) + int(deals))
    cfg, script = settings_for(decisions, (0, 0), int(worlds))
    cfg = np.array(cfg)
    cfg[CFG.at.ELDER_PLAY] = cfg[CFG.at.DEALER_PLAY] = int(PlayModel.PIMC_INFERENCE)
    script = np.array(script)
    runner = DealRunner()
    from_card = 10 - 2 * int(last_tricks)
    marks = {ELDER: [], DEALER: []}
    point = {ELDER: [], DEALER: []}
    stats = {"decisions": 0, "differ": 0, "alphamu_seconds": 0.0, "pimc_seconds": 0.0}
    skipped = 0
    t0 = time.perf_counter()
    for k, i in enumerate(range(int(start), int(start) + int(deals))):
        d = runner.play(seed, i, cfg, script)
        if d.ended or len(d.play) < 10:
            skipped += 1
        else:
            base = outcome_of(d.elder_tricks)
            pe0, pd0 = points_for(base, d.first)
            for side in (ELDER, DEALER):
                t, _ = play_out(d, cfg, script, seed=seed, index=i, worlds=int(worlds),
                                side=side, last_tricks=int(last_tricks), m=int(m),
                                from_card=from_card, stats=stats)
                pe, pd = points_for(outcome_of(t), d.first)
                sign = 1 if side == ELDER else -1
                marks[side].append(sign * ((pe - pd) - (pe0 - pd0)))
                won = (t >= 3) if side == ELDER else (t <= 2)
                won0 = (d.elder_tricks >= 3) if side == ELDER else (d.elder_tricks <= 2)
                point[side].append(int(won) - int(won0))
        if on_deal is not None:
            on_deal(k + 1)
    both = marks[ELDER] + marks[DEALER]
    n_dec = stats["decisions"]
    return {
        "chooser": "alphamu", "against": "pimc-inference",
        "last_tricks": int(last_tricks), "m": "unbounded" if m >= M_INF else int(m),
        "worlds": int(worlds), "seed": seed, "start": int(start), "deals": int(deals),
        "decisions_model": decisions, "deals_skipped": skipped,
        "pairing": "each deal played by pimc-inference on both sides, then once per side "
                   "with that side alphamu, the same deal and random words",
        "n": len(both),
        "marks": _mean_ci(both),
        "point": _mean_ci(point[ELDER] + point[DEALER]),
        "elder": {"marks": _mean_ci(marks[ELDER]), "point": _mean_ci(point[ELDER])},
        "dealer": {"marks": _mean_ci(marks[DEALER]), "point": _mean_ci(point[DEALER])},
        "changed_share": float(np.mean(np.array(both) != 0)) if both else None,
        "alphamu_decisions": n_dec,
        "cards_differing": stats["differ"],
        "cards_differing_share": stats["differ"] / n_dec if n_dec else None,
        "seconds_per_decision": {
            "alphamu": stats["alphamu_seconds"] / n_dec if n_dec else None,
            "pimc_inference": stats["pimc_seconds"] / n_dec if n_dec else None},
        "seconds": time.perf_counter() - t0,
    }


# ----------------------------------------------------------------------------- several players

#: The card players :func:`compare` plays against ``pimc-inference`` (each ``NAME:W``).
PLAYERS = card_players("stronger")


def player_of(label: str) -> tuple[str, int]:
    """(a card player of :data:`PLAYERS`, its worlds) from ``NAME:W`` (W in 1..4096)."""
    name, sep, w = label.partition(":")
    if name not in PLAYERS or not sep or not w.isdigit() or not 1 <= int(w) <= 4096:
        raise ValueError(f"bad player {label!r}: NAME:W with NAME one of "
                         f"{', '.join(PLAYERS)} and W in 1..4096")
    return name, int(w)


def _chooser(name: str, worlds: int, cfg, script, seed: int, index: int):
    """``choose(who, position, plays, n)`` for :func:`~ecarte_sim.analysis.ecarte.play.
    card_advice.replay`: the card of ``name`` with ``worlds`` worlds and the deal's words
    (pimc-king reads the kings the deal marked, every holder announcing)."""
    from ecarte_sim.analysis.ecarte.play.card_advice import deal_record
    from ecarte_sim.engine.ecarte.deals.whole import payoff_table
    from ecarte_sim.engine.ecarte.play.alphamu import DEFAULT_TRICKS, M_INF, alphamu_decide
    from ecarte_sim.engine.ecarte.play.reading import read_decide
    from ecarte_sim.engine.ecarte.play.single import decide
    hands = np.zeros(max(worlds, 1), dtype=np.uint32)
    weights = np.zeros(max(worlds, 1), dtype=np.int64)
    cards = np.zeros(5, dtype=np.int64)
    outcomes = np.zeros((1, 5), dtype=np.int64)

    def choose(who, p, plays, n):
        args = (who, np.uint32(p.start), np.uint32(p.unseen), plays, n, p.trump, True,
                worlds, np.uint64(seed), np.uint64(index), cfg, script, deal_record(p),
                payoff_table(p.first), hands)
        if name == "pimc-king":
            return int(read_decide(*args, weights, False, cards, outcomes, 0)[0])
        if name == "alphamu":
            return int(alphamu_decide(*args, DEFAULT_TRICKS, M_INF)[0])
        return int(decide(*args, False, cards, outcomes)[0])
    return choose


def compare(players, *, deals: int = 2000, seed: int = 0, worlds: int = 64,
            decisions: str = "treatise", start: int = 0, on_deal=None) -> dict:
    """Each of ``players`` (``NAME:W`` labels, :func:`player_of`) against ``pimc-inference``
    with ``worlds`` worlds on whole deals ``start .. start + deals`` of ``seed``: each deal
    played by ``pimc-inference`` on both sides, then again once per side and player with
    that side's cards chosen by the player, the other's by ``pimc-inference``, both with the
    deal's own words (the same worlds where the players draw them alike); the side's marks
    minus his marks in the deal (the point 1, the vole 2, Law 49; the kings do not change),
    mean and 95% interval over deal-sides, by seat, and every two players' difference
    paired on the same deal-sides. The proposals, answers and discards by ``decisions``,
    at 0-0."""
    from ecarte_sim.analysis.ecarte.play.card_advice import replay, settings_for
    from ecarte_sim.engine.ecarte.deals.runner import DealRunner
    from ecarte_sim.engine.ecarte.deals.whole import outcome_of, points_for
    from ecarte_sim.engine.ecarte.settings import CFG, MAX_WORLDS, PlayModel
    from ecarte_sim.engine.rng import check_index_range, check_seed
    seed = check_seed(seed)
    labels = list(dict.fromkeys(players))
    chosen = [player_of(x) for x in labels]
    if not chosen:
        raise ValueError("name at least one player")
    if isinstance(worlds, bool) or not 1 <= int(worlds) <= MAX_WORLDS:
        raise ValueError(f"worlds must be in 1..{MAX_WORLDS}, got {worlds!r}")
    if decisions not in ("treatise", "strategy"):
        raise ValueError(f"unknown decision model {decisions!r}; choose from treatise, "
                         "strategy")
    check_index_range(int(start), int(start) + int(deals))
    cfg, script = settings_for(decisions, (0, 0), int(worlds))
    cfg = np.array(cfg)
    cfg[CFG.at.ELDER_PLAY] = cfg[CFG.at.DEALER_PLAY] = int(PlayModel.PIMC_INFERENCE)
    script = np.array(script)
    runner = DealRunner()
    diffs = {x: {ELDER: [], DEALER: []} for x in labels}
    seconds = {x: 0.0 for x in labels}
    skipped = 0
    t0 = time.perf_counter()
    for k, i in enumerate(range(int(start), int(start) + int(deals))):
        d = runner.play(seed, i, cfg, script)
        if d.ended or len(d.play) < 10:
            skipped += 1
        else:
            pe0, pd0 = points_for(outcome_of(d.elder_tricks), d.first)
            base = _chooser("pimc-inference", int(worlds), cfg, script, seed, i)
            for label, (name, w) in zip(labels, chosen):
                mine = _chooser(name, w, cfg, script, seed, i)
                for side in (ELDER, DEALER):
                    t1 = time.perf_counter()
                    t, _ = replay(d, lambda who, p, plays, n, side=side, mine=mine:
                                  (mine if who == side else base)(who, p, plays, n))
                    seconds[label] += time.perf_counter() - t1
                    pe, pd = points_for(outcome_of(t), d.first)
                    net = (pe - pd) - (pe0 - pd0)
                    diffs[label][side].append(net if side == ELDER else -net)
        if on_deal is not None:
            on_deal(k + 1)
    out = {"against": f"pimc-inference:{int(worlds)}", "seed": seed, "start": int(start),
           "deals": int(deals), "decisions_model": decisions, "deals_skipped": skipped,
           "pairing": "each deal played by pimc-inference on both sides, then once per side "
                      "and player with that side's cards by the player, the same deal and "
                      "random words",
           "players": {}, "differences": {}, "seconds": time.perf_counter() - t0}
    for label in labels:
        both = diffs[label][ELDER] + diffs[label][DEALER]
        out["players"][label] = {
            "n": len(both), "marks": _mean_ci(both),
            "elder": _mean_ci(diffs[label][ELDER]), "dealer": _mean_ci(diffs[label][DEALER]),
            "changed_share": float(np.mean(np.array(both) != 0)) if both else None,
            "seconds_per_deal_side": seconds[label] / max(len(both), 1)}
    for a in range(len(labels)):
        for b in range(a + 1, len(labels)):
            x, y = labels[a], labels[b]
            da = np.array(diffs[x][ELDER] + diffs[x][DEALER], dtype=float)
            db = np.array(diffs[y][ELDER] + diffs[y][DEALER], dtype=float)
            out["differences"][f"{x} - {y}"] = _mean_ci(da - db)
    return out


# ----------------------------------------------------------------------------- exploitability

@dataclass
class AlphamuEngine(Engine):
    """The best response's engine (:class:`~ecarte_sim.analysis.ecarte.play.exploit.Engine`)
    with the model's cards asked of the keyed ``alphamu``
    (:func:`~ecarte_sim.engine.ecarte.play.alphamu.keyed_alphamu_cards`, searching the last
    ``last_tricks`` tricks) for both the opponent and the responder's own model play: the
    same worlds, keys and memo."""
    last_tricks: int = 5

    def __post_init__(self):
        if self.s.model != "pimc-inference":
            raise ValueError(f"alphamu searches pimc-inference's worlds, not {self.s.model}'s")
        super().__post_init__()

    def ask(self, mover, starts, thrown, n, seed, out) -> int:
        from ecarte_sim.engine.ecarte.play.alphamu import M_INF, keyed_alphamu_cards
        s = self.s
        return keyed_alphamu_cards(mover, starts, thrown, np.uint32(self.unseen(0)),
                                   self.plays, n, s.trump, s.forced_trump, s.worlds, seed,
                                   self.cfg, self.script, self.rec, self.payoff,
                                   self.last_tricks, M_INF, out)


def exploitability(*, per_stratum: int = 2, worlds: int = 16, seed: int = 0,
                   hands: int | None = 300, last_tricks: int = 5,
                   held_out_seeds: int = 1, decisions: str = "treatise", say=None) -> dict:
    """The exact best response's gain against ``alphamu`` and against ``pimc-inference`` on the
    same responder hands (:func:`~ecarte_sim.analysis.ecarte.play.exploit.sample_hands`,
    ``per_stratum`` per stratum), the same opponent hands (a uniform sample of ``hands``
    drawn with ``seed``, or every one; after an exchange ``hands`` histories as dealt:
    :func:`~ecarte_sim.analysis.ecarte.play.exploit.opponent_hands`) and the same seed: per
    hand, each model's in-sample gain (marks a deal, kings and Law 49 included) and the
    held-out gain (the policy found with ``seed`` played against the next
    ``held_out_seeds`` seeds), and the paired difference (alphamu minus pimc-inference),
    means and 95% intervals over hands."""
    from ecarte_sim.analysis.ecarte.play.exploit import (best_response, held_out, opponent_hands,
                                                    sample_hands, setup)
    rows = []
    strata = sample_hands(per_stratum, seed, decisions)
    for (role, said), chosen in strata.items():
        for hand, up, index, extra in chosen:
            kw = {k: v for k, v in extra.items() if k != "regle"}
            row = {"stratum": f"{role} / {said}", "deal": index}
            for name in ("pimc-inference", "alphamu"):
                s = setup(hand, up, role, said=said, model="pimc-inference", worlds=worlds,
                          decisions=decisions, **kw)
                eng = (Engine(s) if name == "pimc-inference" else
                       AlphamuEngine(s, last_tricks=last_tricks))
                t0 = time.perf_counter()
                use = opponent_hands(s, eng, sample=hands, sample_seed=seed)
                r = best_response(s, seed=seed, hands=use, engine=eng)
                seeds = [seed + k for k in range(1, held_out_seeds + 1)]
                ho = held_out(r, seeds, hands=use, engine=eng) if seeds else None
                row[name] = {"gain_marks": r.gain_marks, "model_marks": r.model_marks,
                             "held_out_marks": ho["gain_marks"]["mean"] if ho else None,
                             "opponent_hands": len(use), "calls": r.opponent_calls,
                             "seconds": time.perf_counter() - t0}
            rows.append(row)
            if say:
                say(row)

    def col(name, key):
        return [r[name][key] for r in rows if r[name][key] is not None]

    out = {"worlds": worlds, "seed": seed, "per_stratum": per_stratum,
           "opponent_hands": hands, "last_tricks": last_tricks, "hands": len(rows),
           "rows": rows}
    for name in ("pimc-inference", "alphamu"):
        out[name] = {k: _mean_ci(col(name, k)) for k in ("gain_marks", "held_out_marks",
                                                          "model_marks", "seconds")}
    out["alphamu_minus_pimc_inference"] = {
        k: _mean_ci([a - b for a, b in zip(col("alphamu", k), col("pimc-inference", k))])
        for k in ("gain_marks", "held_out_marks", "model_marks")}
    return out
