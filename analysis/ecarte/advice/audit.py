"""The shipped strategy checked hand by hand: its regret on held-out random hands.

The exploitability a solve reports is a best response *sampled at the table's own
resolution* (8–16 deals a state): it cannot see an error the table cannot see. This
module measures the table where a player meets it, one hand at a time:

* :func:`draw_hands` — random dealt hands for a role at a score, drawn from the deals of
  the audit's seed (``deal(seed, i)``, ``i`` from 0): the elder's hand of each deal; the
  dealer's hand of the deals whose elder proposes by the strategy at that score (the
  dealer decides only then). Each hand with its turn-up, as dealt: a hand's chance to be
  drawn is its chance to be dealt.
* :func:`hand_values` — per hand, both actions played on ``deals`` deals around it (the
  deals ``k >= CHECK_DEALS_START`` of its state, never a solve's; common random
  numbers), the opponent and the later rounds playing the strategy, the later deals
  valued by its ``V``: exactly what ``ecarte-sim advise HAND --turn-up T`` computes. The
  deals come in two halves for the cross-fitted regret.
* :func:`audit` — for each role and score, the regret of the table's action and of the
  treatise's on the same hands and values:

  - *plug-in regret*: the hand's estimated loss of the action against the better one,
    ``max(0, ±gain)``; noise makes it too large on near-ties (Jensen), so it is an upper
    estimate;
  - *cross-fitted regret*: the better action chosen on one half of the deals, its gain
    over the action measured on the other (and the halves swapped): unbiased for the loss
    against a choice that can itself err, so a lower estimate. The true mean regret lies
    between, in expectation;
  - *resolved wrong*: the hands where the 95% interval of the gain excludes zero on the
    other action's side; the worst hands named.

* the *resolved strategy* (``resolve``, :func:`resolved_action`): the table is the
  blueprint; at the decision itself the player values both actions on ``resolve`` deals
  (worlds) of his own, drawn as ``advise`` draws them, and does what ``advise`` leads
  with — the table's action unless those values resolve the other beyond their 95%
  interval: decision-time resolution, the later rounds and the adversary still playing
  the tables. Its deals are the top ``resolve`` of the check
  range, the audit's its bottom ``deals``: the resolver never sees the deals that grade
  it. Its regret and share resolved wrong are measured on the audit's values as the
  table's are.

Every figure is a pure function of (seed, hands, deals, the strategy): the hands of seed
``s`` are held out from any solve (a solve reads deals ``k < SOLVE_DEALS`` of a state,
these values ``k >= CHECK_DEALS_START``), and another seed draws other hands.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ecarte_sim.analysis.ecarte.solving import proposal_game as st
from ecarte_sim.analysis.ecarte.measures.paired import paired_mean
from ecarte_sim.analysis.stats.intervals import Z95, mean_ci
from ecarte_sim.engine.ecarte.laws.score import score_row

#: The scores measured by default (the issue's: the start, and three late scores).
DEFAULT_SCORES = ((0, 0), (2, 4), (3, 3), (4, 4))
ROLES = ("elder", "dealer")
#: The rounds audited: the first decision of a deal, and the later ones (a proposal after
#: an exchange, and its answer).
ROUNDS = ("first", "later")


@dataclass(frozen=True)
class AuditSettings:
    """What an audit measures: ``hands`` random dealt hands for each role at each of
    ``scores``, ``deals`` deals around each (even: two halves), the hands and deals of
    ``seed``; the strategy of play model ``play`` (None: the default shipped), read from
    ``data_dir`` (None: the package's own data); ``resolve``: deals (worlds) the resolved
    strategy reads at each decision (0: the resolved strategy is not audited)."""
    hands: int = 200
    deals: int = 1 << 14
    scores: tuple[tuple[int, int], ...] = DEFAULT_SCORES
    roles: tuple[str, ...] = ROLES
    seed: int = 0
    play: str | None = None
    data_dir: str | None = None
    rounds: tuple[str, ...] = ROUNDS
    resolve: int = 0

    def __post_init__(self):
        from ecarte_sim.engine.ecarte.deals.action_values import CHECK_DEALS
        from ecarte_sim.engine.ecarte.deals.later import CHECK_WORLDS
        from ecarte_sim.engine.rng import check_seed
        check_seed(self.seed)
        if not 1 <= int(self.hands) <= 1 << 16:
            raise ValueError(f"hands must lie in [1, 65536], got {self.hands}")
        if not (4 <= int(self.deals) <= CHECK_DEALS and int(self.deals) % 2 == 0):
            raise ValueError(f"deals must be even and in [4, {CHECK_DEALS}], got {self.deals}")
        room = min(CHECK_DEALS, CHECK_WORLDS) - int(self.deals)
        if self.resolve and not (2 <= int(self.resolve) <= room and int(self.resolve) % 2 == 0):
            raise ValueError(f"resolve must be even and in [2, {room}] (the check range's "
                             f"{min(CHECK_DEALS, CHECK_WORLDS)} deals less the audit's "
                             f"{self.deals}), got {self.resolve}")
        for role in self.roles:
            if role not in ROLES:
                raise ValueError(f"unknown role {role!r}; choose from elder, dealer")
        for x, y in self.scores:
            if not (0 <= x < 5 and 0 <= y < 5):
                raise ValueError(f"bad score {x}-{y}")
        for r in self.rounds:
            if r not in ROUNDS:
                raise ValueError(f"unknown round {r!r}; choose from {', '.join(ROUNDS)}")

    def echo(self) -> dict:
        return {"hands": int(self.hands), "deals": int(self.deals), "seed": int(self.seed),
                "scores": [f"{x}-{y}" for x, y in self.scores], "roles": list(self.roles),
                "play": self.play, "rounds": list(self.rounds)} | (
                    {} if self.data_dir is None else {"data_dir": str(self.data_dir)}) | (
                    {"resolve": int(self.resolve)} if self.resolve else {})


def draw_hands(strategy, role: str, x: int, y: int, hands: int, seed: int):
    """``hands`` dealt hands of ``role`` at (x, y) with their turn-ups and states (module
    docstring): arrays (masks, turn_ups, states)."""
    from ecarte_sim.engine.ecarte.decisions.states import canonical_index
    from ecarte_sim.engine.ecarte.laws.deal import deal

    elder_table = strategy.table("elder")[score_row(x, y)]
    masks, turn_ups, states = [], [], []
    i = 0
    while len(masks) < hands:
        d = deal(seed, i)
        i += 1
        if role == "elder":
            hand = int(d.elder)
        else:
            if not elder_table[canonical_index(int(d.elder), int(d.turn_up))]:
                continue
            hand = int(d.dealer)
        masks.append(hand)
        turn_ups.append(int(d.turn_up))
        states.append(canonical_index(hand, int(d.turn_up)))
    return (np.array(masks, dtype=np.int64), np.array(turn_ups, dtype=np.int64),
            np.array(states, dtype=np.int64))


def hand_values(strategy, role: str, x: int, y: int, masks, turn_ups, states, *,
                deals: int, seed: int, start: int | None = None) -> np.ndarray:
    """(hands, 2, 16, 16): per hand, the joint marks table of its two actions on each half
    of ``deals`` deals (module docstring); their sum is ``advise``'s table. ``start``: the
    first deal ``k`` read [default: ``CHECK_DEALS_START``, advise's]."""
    from ecarte_sim.analysis.ecarte.advice.first_decision import strategy_settings
    from ecarte_sim.engine.ecarte.deals.action_values import CHECK_DEALS_START, N_MARKS, marks_block
    from ecarte_sim.engine.rng import check_seed

    run, script = strategy_settings(strategy, x, y)
    cfg_a, cfg_b = st.arm_cfgs(role, run, x, y)
    n = len(masks)
    half = deals // 2
    out = np.zeros((n, 2, N_MARKS * N_MARKS), dtype=np.int64)
    for h in range(2):
        joint = np.zeros((n, N_MARKS * N_MARKS), dtype=np.int64)
        lo = (CHECK_DEALS_START if start is None else start) + h * half
        marks_block(np.uint64(check_seed(seed)), st.ROLES[role], masks, turn_ups, states,
                    False, np.full(n, lo, dtype=np.int64),
                    np.full(n, lo + half, dtype=np.int64), cfg_a, cfg_b, script, joint,
                    np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64))
        out[:, h] = joint
    return out.reshape(n, 2, N_MARKS, N_MARKS)


def _gain(joint: np.ndarray, own: np.ndarray) -> tuple[float, float]:
    g = paired_mean(joint, own)
    return float(g["mean"]), float(g["ci95"][1] - g["mean"]) / Z95


def hand_rows(strategy, role: str, x: int, y: int, masks, turn_ups, states,
              tables: np.ndarray, resolver: np.ndarray | None = None) -> list[dict]:
    """One row per hand: its cards, the table's and the treatise's actions, the gain of
    arm a (propose, accept) over arm b with its standard error, the two halves' gains,
    and each action's plug-in and cross-fitted regret. ``resolver``: the same hands'
    tables on the resolver's own deals (:func:`resolved_action`), adding the resolved
    strategy's action and regrets."""
    from ecarte_sim.engine.cards import ECARTE, format_card, format_hand
    from ecarte_sim.engine.ecarte.settings import EcarteSettings

    f = st.marks_value(strategy.v, x, y)
    own = f if role == "elder" else 1.0 - f
    table = strategy.table(role)[score_row(x, y)]
    treatise = st.treatise_tables(EcarteSettings())[role]
    arm_a, arm_b = st.ACTIONS[role]
    rows = []
    for j in range(len(masks)):
        g, se = _gain(tables[j].sum(axis=0), own)
        g1, _ = _gain(tables[j, 0], own)
        g2, _ = _gain(tables[j, 1], own)
        row = {"role": role, "score": f"{x}-{y}",
               "hand": format_hand(int(masks[j]), ECARTE),
               "turn_up": format_card(int(turn_ups[j])), "state": int(states[j]),
               "gain": g, "se": se, "gain_half_1": g1, "gain_half_2": g2,
               "n": int(tables[j].sum()),
               "table": arm_a if table[states[j]] else arm_b,
               "treatise": arm_a if treatise[states[j]] else arm_b}
        if resolver is not None:
            row["resolved"], row["resolver_gain"], row["resolver_se"] = resolved_action(
                resolver[j], own, row["table"], arm_a, arm_b)
        _regrets(row, g, se, g1, g2, arm_a)
        rows.append(row)
    return rows


#: The actions each row values: the table's and the treatise's (and, with ``resolve``, the
#: resolved strategy's).
_WHO = ("table", "treatise")


def resolved_action(joint: np.ndarray, own: np.ndarray, table: str, arm_a: str,
                    arm_b: str) -> tuple[str, float, float]:
    """The resolved strategy's action at one decision, as ``advise`` leads with it
    (:func:`~ecarte_sim.analysis.ecarte.advice.first_decision.answer`): the table's, unless
    the two actions' values on the resolver's own deals (``joint``: their joint marks
    tables, any shape summing to 16 x 16) resolve the other action — the 95% interval of
    the paired gain excludes zero on its side. Returns (the action, the resolver's gain of
    arm a over arm b, its standard error)."""
    g = paired_mean(joint.reshape(-1, joint.shape[-2], joint.shape[-1]).sum(axis=0), own)
    lo, hi = g["ci95"]
    better = arm_a if g["mean"] > 0 else arm_b
    resolved = not (lo <= 0 <= hi)
    se = float(hi - g["mean"]) / Z95
    return (better if resolved else table), float(g["mean"]), se


def resolve_start(check_start: int, check: int, resolve: int) -> int:
    """The first deal (world) ``k`` the resolver reads: the top ``resolve`` of the check
    range, never the audit's (its ``deals`` from the bottom; settings check the room)."""
    return check_start + check - resolve


def _share_ci(k: int, n: int) -> dict:
    """The share k/n with its Wilson 95% interval."""
    from ecarte_sim.analysis.stats.intervals import wilson_interval
    lo, hi = wilson_interval(k, n)
    return {"share": k / n, "ci95": [float(lo), float(hi)], "k": int(k), "n": int(n)}


def summary(rows: list[dict], top: int = 5) -> dict:
    """The figures of one (role, score) from its hands' rows (module docstring)."""
    out = {"hands": len(rows)}
    for who in _WHO + (("resolved",) if "resolved" in rows[0] else ()):
        plug = np.array([r[f"{who}_regret"] for r in rows])
        cross = np.array([r[f"{who}_regret_cross"] for r in rows])
        wrong = [r for r in rows if r[f"{who}_wrong"]]
        out[who] = {"regret": mean_ci(plug), "regret_cross": mean_ci(cross),
                    "wrong": _share_ci(len(wrong), len(rows)),
                    "worst_wrong": max((r[f"{who}_regret"] for r in wrong), default=0.0)}
    worst = sorted(rows, key=lambda r: -r["table_regret"])[:top]
    out["worst"] = [{k: r[k] for k in ("hand", "turn_up", "table", "treatise", "gain", "se",
                                       "table_regret", "round", "thrown", "took") if k in r}
                    for r in worst if r["table_regret"] > 0]
    if "resolved" in rows[0]:
        worst = sorted(rows, key=lambda r: -r["resolved_regret"])[:top]
        out["worst_resolved"] = [
            {k: r[k] for k in ("hand", "turn_up", "table", "resolved", "treatise", "gain", "se",
                               "resolved_regret", "round", "thrown", "took") if k in r}
            for r in worst if r["resolved_regret"] > 0]
    return out


# --------------------------------------------------------------------------- later rounds

def draw_decisions(strategy, role: str, x: int, y: int, n: int, seed: int,
                   most: int = 1 << 22):
    """``n`` later decisions of ``role`` (a proposal after an exchange, or its answer) as
    the strategy meets them at (x, y): the first such decision of each deal of the audit's
    seed (``deal(seed, i)``, ``i`` from 0, played by the strategy, the game ending at five),
    one a deal. Returns (histories, what the table did (1: propose or accept), deals read);
    fewer than ``n`` when ``most`` deals hold fewer (the strategy seldom reaches them)."""
    from ecarte_sim.analysis.ecarte.advice.first_decision import strategy_settings
    from ecarte_sim.engine.ecarte.deals import later as kern
    from ecarte_sim.engine.ecarte.deals.whole import deal_scratch, inference_scratch, whole_deal
    from ecarte_sim.engine.rng import check_seed

    run, script = strategy_settings(strategy, x, y)
    cfg = run.cfg(elder_score=x, dealer_score=y, target=5)
    perm, draws, pool, payoff, rec = deal_scratch()
    points = np.zeros((4 * 24, kern.HISTORY_SIZE + 1), dtype=np.int64)
    want = 0 if role == "elder" else 1
    out, did = [], []
    i = 0
    seed = np.uint64(check_seed(seed))
    infer = inference_scratch(cfg)
    while len(out) < n and i < most:
        whole_deal(seed, np.uint64(i), cfg, script, rec, perm, draws, pool, payoff, infer)
        i += 1
        for q in range(kern.decision_points(rec, points, 0, 1)):
            p = points[q]
            if p[kern.HISTORY.offset("role")] == want and \
                    p[kern.HISTORY.offset("kind")] == kern.DECIDE:
                out.append(p[:kern.HISTORY_SIZE].copy())
                did.append(int(p[kern.HISTORY_SIZE]))
                break
    hist = np.array(out, dtype=np.int64).reshape(-1, kern.HISTORY_SIZE)
    return hist, np.array(did, dtype=np.int64), i


def decision_values(strategy, x: int, y: int, hist: np.ndarray, *, deals: int,
                    seed: int, start: int | None = None) -> np.ndarray:
    """(decisions, 2, 16, 16): per later decision, the joint marks table of its two actions
    (propose or accept, play or refuse) on each half of ``deals`` worlds drawn from what
    the decider knows (:mod:`~ecarte_sim.engine.ecarte.deals.later`, the check range: never
    a solve's), the adversary and everything after playing the strategy: what ``advise
    --said ... --discards ...`` computes."""
    from ecarte_sim.analysis.ecarte.advice.first_decision import strategy_settings
    from ecarte_sim.engine.ecarte.deals import later as kern
    from ecarte_sim.engine.ecarte.deals.action_values import N_MARKS
    from ecarte_sim.engine.rng import check_seed

    run, script = strategy_settings(strategy, x, y)
    n = hist.shape[0]
    cfg_a = np.array([kern.arm_cfgs(h, run, x, y, [True])[0] for h in hist]).reshape(n, -1)
    cfg_b = np.array([kern.arm_cfgs(h, run, x, y, [False])[0] for h in hist]).reshape(n, -1)
    out = np.zeros((n, 2, N_MARKS * N_MARKS), dtype=np.int64)
    half = deals // 2
    ids = np.arange(n, dtype=np.int64)
    for h in range(2):
        joint = np.zeros((n, N_MARKS * N_MARKS), dtype=np.int64)
        lo = (kern.CHECK_WORLDS_START if start is None else start) + h * half
        missed = np.zeros(n, dtype=np.int64)
        kern.marks_block(np.uint64(check_seed(seed)), hist, ids,
                         np.full(n, lo, dtype=np.int64), np.full(n, lo + half, dtype=np.int64),
                         cfg_a, cfg_b, script, joint, np.zeros(n, dtype=np.int64), missed)
        out[:, h] = joint
    return out.reshape(n, 2, N_MARKS, N_MARKS)


def decision_rows(strategy, role: str, x: int, y: int, hist: np.ndarray, did: np.ndarray,
                  tables: np.ndarray, resolver: np.ndarray | None = None) -> list[dict]:
    """One row per later decision, as :func:`hand_rows` (the table's action is what the
    strategy did there; the treatise's, Hoyle's list or the maxims on the hand held then,
    as every treatise policy decides each round)."""
    from ecarte_sim.engine.cards import ECARTE, format_card, format_hand
    from ecarte_sim.engine.ecarte.deals import later as kern
    from ecarte_sim.engine.ecarte.decisions.tables import decisions

    f = st.marks_value(strategy.v, x, y)
    own = f if role == "elder" else 1.0 - f
    arm_a, arm_b = st.ACTIONS[role]
    at = kern.HISTORY.at
    hands = np.array([kern.current_hand(h) for h in hist], dtype=np.uint32)
    turn_ups = hist[:, at.TURN_UP]
    treatise = decisions(role, "regle" if role == "elder" else "maxims", hands, turn_ups)
    rows = []
    for j in range(hist.shape[0]):
        g, se = _gain(tables[j].sum(axis=0), own)
        g1, _ = _gain(tables[j, 0], own)
        g2, _ = _gain(tables[j, 1], own)
        rnd = int(hist[j, at.ROUND])
        took = [int(t) for t in hist[j, at.TOOK:at.TOOK + rnd]]
        row = {"role": role, "score": f"{x}-{y}", "round": rnd,
               "hand": format_hand(int(hands[j]), ECARTE),
               "turn_up": format_card(int(turn_ups[j])), "took": took,
               "thrown": [format_hand(int(t), ECARTE) for t in
                          hist[j, at.THROWN:at.THROWN + rnd]],
               "gain": g, "se": se, "gain_half_1": g1, "gain_half_2": g2,
               "n": int(tables[j].sum()),
               "table": arm_a if did[j] else arm_b,
               "treatise": arm_a if treatise[j] else arm_b}
        if resolver is not None:
            row["resolved"], row["resolver_gain"], row["resolver_se"] = resolved_action(
                resolver[j], own, row["table"], arm_a, arm_b)
        _regrets(row, g, se, g1, g2, arm_a)
        rows.append(row)
    return rows


def _regrets(row: dict, g: float, se: float, g1: float, g2: float, arm_a: str) -> None:
    """The plug-in and cross-fitted regret and the resolved-wrong flag of the table's and
    the treatise's actions (module docstring)."""
    for who in _WHO + (("resolved",) if "resolved" in row else ()):
        sign = 1.0 if row[who] == arm_a else -1.0     # the action's own gain over the other
        row[f"{who}_regret"] = max(0.0, -sign * g)
        # cross-fitted: choose on one half, measure the choice's gain on the other
        cross = 0.0
        for choose, measure in ((g1, g2), (g2, g1)):
            better_is_a = choose > 0
            if better_is_a != (row[who] == arm_a):
                cross += (measure if better_is_a else -measure) / 2
        row[f"{who}_regret_cross"] = cross
        row[f"{who}_wrong"] = bool(-sign * g - Z95 * se > 0)


def audit(settings: AuditSettings, progress=None) -> dict:
    """Every (role, score) of ``settings``, at each round of ``settings.rounds``: the
    hands' (decisions') rows and their summary; a later cell holds fewer decisions than
    asked when the strategy seldom reaches them (said in its summary)."""
    from ecarte_sim.analysis.ecarte.solving import solved as shipped
    from ecarte_sim.engine.ecarte.deals import later as kern
    from ecarte_sim.engine.ecarte.deals.action_values import CHECK_DEALS, CHECK_DEALS_START

    strategy = shipped.load(settings.play, data_dir=settings.data_dir)
    rows, summaries = [], {}
    tasks = [(rnd, role, x, y) for rnd in settings.rounds for x, y in settings.scores
             for role in settings.roles]
    for done, (rnd, role, x, y) in enumerate(tasks):
        if rnd == "first":
            masks, turn_ups, states = draw_hands(strategy, role, x, y, settings.hands,
                                                 settings.seed)
            tables = hand_values(strategy, role, x, y, masks, turn_ups, states,
                                 deals=settings.deals, seed=settings.seed)
            resolver = None
            if settings.resolve:
                resolver = hand_values(strategy, role, x, y, masks, turn_ups, states,
                                       deals=settings.resolve, seed=settings.seed,
                                       start=resolve_start(CHECK_DEALS_START, CHECK_DEALS,
                                                           settings.resolve))
            these = hand_rows(strategy, role, x, y, masks, turn_ups, states, tables,
                              resolver)
            key = f"{role} {x}-{y}"
        else:
            hist, did, read = draw_decisions(strategy, role, x, y, settings.hands,
                                             settings.seed)
            these = []
            if hist.shape[0]:
                tables = decision_values(strategy, x, y, hist, deals=settings.deals,
                                         seed=settings.seed)
                resolver = None
                if settings.resolve:
                    resolver = decision_values(
                        strategy, x, y, hist, deals=settings.resolve, seed=settings.seed,
                        start=resolve_start(kern.CHECK_WORLDS_START, kern.CHECK_WORLDS,
                                            settings.resolve))
                these = decision_rows(strategy, role, x, y, hist, did, tables, resolver)
            key = f"{role} {x}-{y} later"
        for r in these:
            r["rounds"] = rnd
        rows += these
        summaries[key] = summary(these) if these else {"hands": 0}
        if rnd == "later":
            summaries[key]["deals_read"] = read
        if progress:
            progress(f"{role} at {x}-{y}, {rnd} round", done + 1, len(tasks))
    return {"settings": settings.echo(), "strategy": {
        "play": strategy.play, "command": strategy.provenance.get("command"),
        "sha256": strategy.provenance.get("sha256"), "data_dir": settings.data_dir},
        "summaries": summaries, "rows": rows}


__all__ = ["AuditSettings", "audit", "draw_hands", "hand_values", "hand_rows", "summary",
           "DEFAULT_SCORES"]
