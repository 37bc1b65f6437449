"""Every decision of a deal solved: the later proposals, answers and discards, and the first
round resolved to its last hands.

:mod:`.equilibrium` solves the first decision and the first discard of each player by
state; the rounds after the first exchange read those tables on the new hand, which is
another question (Law 49 doubles only for the *first* proposal's refusal and the elder
who played *without proposing*; after an exchange a player knows his discards and how
many cards his adversary took). Here the pair gets tables of its own for those rounds
(:data:`~.equilibrium.LATER`: the elder's later propose or play, the dealer's later
accept or refuse, each player's later discard rule), by canonical state of the hand held
then, and the first round is solved again against them, its unresolved states sampled
until they resolve.

One *step* (:func:`solve`) sweeps the scores from 4-4 down to 0-0 (a deal only leads to
higher scores, so each score is a one-deal game once the scores after it are settled).
At each score:

1. *The later rounds* (:func:`later_at`). Source deals of the score are played by the pair
   (:func:`~ecarte_sim.engine.ecarte.deals.later.gains_block`); at every decision of a round
   after the first that a player meets, both actions (or every discard rule) are played
   on the same deal from there, the decider's history forced: the deal itself is a draw
   from his posterior given what he knows, so the paired gain, summed over the decisions
   met in a state, estimates the state's gain as the strategy meets it (on-policy). Each
   state's gain is pooled with the states alike (:func:`~.resolve.shrink`, the model of
   the first solves: the hand's features, per trumps held and the king of trumps), and
   the table takes the posterior mean's sign; states never met take the model's answer.
   Both players respond at once, then again on fresh source deals against the new tables,
   at most ``later_steps`` times or until fewer than ``later_tolerance`` of the decisions
   met changed; then the later discards, once (each rule against the cards the table
   throws, the best rule whose pooled gain is positive).
2. *The first round* (:func:`first_at`): both players' best first decisions against the
   pair (its later tables included), every state sampled at ``first.first`` deals
   (:func:`~.proposal_game.marks_tables`), pooled; then the states whose sign is still
   unresolved (the posterior mean within ``z`` posterior sd of zero) and whose two
   actions may still differ by more than ``epsilon`` (posterior sd above ``epsilon / 2``)
   get their deals doubled, at most to ``first.most`` and within ``budget`` times the
   first pass's deals, the states of largest expected regret (weighted as dealt, and for
   the dealer by the chance to be asked) first. With ``elder_then_dealer`` the elder's
   first decision is solved first and the dealer's against the elder's new table: the
   dealer's answer is then a best response to the elder as shipped, which is what an
   audit measures (solved at once, the dealer answers the elder of the step before).
3. ``V`` of the score from whole deals played by the new row.

Seeds: step ``k`` of a solve samples the later rounds' source deals of ``seed + k``
(``LATER`` range of :mod:`~ecarte_sim.engine.ecarte.deals.later`, never an audit's or an
advice's), the first round's deals of ``seed + k`` (the solve range of
:mod:`~ecarte_sim.engine.ecarte.deals.action_values`). Every count is an integer (the paired
gains in units of ``2^-16``), every task a pure function of its parameters: a run
directory checkpoints them, a Dask cluster runs them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from ecarte_sim.analysis.ecarte.measures.scores import TARGET
from ecarte_sim.analysis.ecarte.solving import proposal_game as st
from ecarte_sim.analysis.ecarte.solving.equilibrium import (KEYS, LATER, ROLES, at_score,
                                                            base_settings, outcomes_at,
                                                            sweep_order, values_by_score)
from ecarte_sim.analysis.ecarte.solving.resolve import resolve
from ecarte_sim.engine.batch import current_execution, run_task, task_key
from ecarte_sim.engine.ecarte.deals import later as kern
from ecarte_sim.engine.ecarte.decisions.policies import DISCARD_RULES, SCORE_SLOTS
from ecarte_sim.engine.ecarte.decisions.states import (N_STATES, representatives,
                                                       state_weights)
from ecarte_sim.engine.ecarte.settings import EcarteSettings
from ecarte_sim.engine.rng import check_seed

SCORES = st.SCORES
#: The discard rules a later exchange may take, in the solver's order.
RULES = np.array([int(r) for r in DISCARD_RULES], dtype=np.int64)
_SCALE = float(1 << kern.VALUE_BITS)
#: Source deals per task (the unit a run directory checkpoints).
LATER_TASK = 1 << 22
#: The first round's refinement: each round multiplies an open state's deals by this, at
#: most this many rounds (each round refits the model).
GROWTH, MAX_ROUNDS = 4, 6


@dataclass(frozen=True)
class EverySettings:
    """What one step of :func:`solve` runs (module docstring). ``settings``: the play
    model and variants; ``later_deals``: source deals per score and later step;
    ``later_steps``, ``later_tolerance``: the later rounds' steps at a score;
    ``later_discards``: solve the later discards too; ``first``: the first round's
    sampling (deals every state gets, the most a state gets); ``budget``: the
    refinement's deals at most, in units of the first pass's; ``epsilon``: two actions
    closer than this need not be told apart; ``first_round``: solve the first round
    (else only the later rounds); ``elder_then_dealer``: solve the first round's elder
    first and the dealer then against the elder's new table (his best response to the
    pair as shipped), else both at once against the starting pair; ``value_deals``: whole
    deals per score for ``V``."""
    settings: EcarteSettings = field(default_factory=EcarteSettings)
    later_deals: int = 1 << 25
    later_steps: int = 3
    later_tolerance: float = 0.01
    later_discards: bool = True
    first: st.Sampling = field(default_factory=lambda: st.Sampling(32, 2048))
    budget: float = 2.0
    epsilon: float = 0.005
    first_round: bool = True
    elder_then_dealer: bool = False
    value_deals: int = 1 << 18
    seed: int = 0
    scores: tuple = SCORES

    def __post_init__(self):
        check_seed(self.seed)
        if not 1 <= int(self.later_deals) <= kern.MAX_SOURCE_DEALS:
            raise ValueError(f"later deals must lie in [1, 2^39], got {self.later_deals}")
        if not 0 <= int(self.later_steps) <= 20:
            raise ValueError(f"later steps must lie in [0, 20], got {self.later_steps}")
        if not 0 <= float(self.budget) <= 64:
            raise ValueError(f"budget must lie in [0, 64], got {self.budget}")
        if not 0 < float(self.epsilon) < 1:
            raise ValueError(f"epsilon must lie in (0, 1), got {self.epsilon}")
        for x, y in self.scores:
            if not (0 <= x < TARGET and 0 <= y < TARGET):
                raise ValueError(f"bad score {x}-{y}")

    def echo(self) -> dict:
        return {"settings": self.settings.echo(), "seed": int(self.seed),
                "later_deals": int(self.later_deals), "later_steps": int(self.later_steps),
                "later_tolerance": float(self.later_tolerance),
                "later_discards": bool(self.later_discards),
                "first": [int(self.first.first), int(self.first.most), float(self.first.z)],
                "budget": float(self.budget), "epsilon": float(self.epsilon),
                "first_round": bool(self.first_round), "value_deals": int(self.value_deals),
                "scores": [f"{x}-{y}" for x, y in self.scores],
                # recorded only when set: the runs before it keep their identity
                **({"elder_then_dealer": True} if self.elder_then_dealer else {})}


# ------------------------------------------------------------------ the later rounds

def _later_task(seed, kind, cfg, script, values, lo, count, rows):
    """One task of :func:`later_stats`: source deals ``[lo, lo + count)`` (offsets in the
    source range), summed over its rows: (1, width) int64."""
    width = 2 * N_STATES * kern.GAIN_STATS * (1 if kind == kern.DECIDE else len(RULES))
    rows = max(2, rows)
    out = np.zeros((rows, width), dtype=np.int64)
    kern.gains_block(np.uint64(seed), kern.SOURCE_DEALS_START + lo, count, rows, kind, cfg,
                     script, values, RULES, out)
    return out.sum(axis=0, keepdims=True)


def later_stats(settings: EcarteSettings, row: dict, x: int, y: int, v: np.ndarray, *,
                kind: int, seed: int, deals: int, progress=None) -> np.ndarray:
    """Per role and state (and rule, for the discards): the later decisions the pair's
    ``row`` meets on ``deals`` source deals at (x, y), the summed paired gains and their
    squares, (2, N_STATES, rules, 3) int64 (module docstring; the gains in units of
    ``2^-16`` of the decider's P(win the game), valued by ``v``)."""
    run, script = st.reading_tables(base_settings(settings), **row)
    cfg = run.cfg(elder_score=x, dealer_score=y, target=TARGET)
    f = st.marks_value(v, x, y)
    values = np.round(np.stack([f, 1.0 - f]) * _SCALE).astype(np.int64)
    n_rules = 1 if kind == kern.DECIDE else len(RULES)
    width = 2 * N_STATES * kern.GAIN_STATS * n_rules
    task = partial(_later_task, check_seed(seed), int(kind), cfg, script, values)
    total = np.zeros(width, dtype=np.int64)
    ex = current_execution()
    key = task_key(task, width) if ex.store is not None else None
    size = ex.task_size or LATER_TASK
    pending = []
    for lo in range(0, deals, size):
        hi = min(lo + size, deals)
        done = ex.store.load(key, lo, hi, width) if key is not None else None
        if done is None:
            pending.append((lo, hi))
        else:
            total += done
    chunk = max(1, -(-size // 2))
    if ex.backend is None:
        results = ((lo, hi, run_task(task, lo, hi, chunk, width)) for lo, hi in pending)
    else:
        results = ex.backend.map(task, iter(pending), chunk, width)
    n_done = deals - sum(hi - lo for lo, hi in pending)
    for lo, hi, counts in results:
        if key is not None:
            ex.store.save(key, lo, hi, counts, compressed=True)
        total += counts
        n_done += hi - lo
        if progress:
            progress(f"later rounds at {x}-{y}: source deals", n_done, deals)
    return total.reshape(2, N_STATES, n_rules, kern.GAIN_STATS)


def stat_gains(stats: np.ndarray):
    """(mean, standard error, n) of the paired gains from :func:`later_stats`' sums (NaN
    where fewer than two)."""
    n = stats[..., 0].astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = stats[..., 1] / _SCALE / n
        second = stats[..., 2] / (_SCALE * _SCALE) / n
        var = np.maximum(second - mean * mean, 0.0) * n / (n - 1)
        se = np.sqrt(var / n)
    mean = np.where(n >= 2, mean, np.nan)
    se = np.where(n >= 2, se, np.nan)
    return mean, se, stats[..., 0]


def resolve_decide(stats_role: np.ndarray) -> dict:
    """A role's later decision table from its stats (one rule): the pooled posterior's
    sign (:func:`~.resolve.resolve`; a state never met takes the model's answer)."""
    mean, se, n = stat_gains(stats_role[:, 0])
    hands, turn_ups = representatives()
    return resolve(mean, se, n, hands, turn_ups)


def resolve_discard(stats_role: np.ndarray, current: np.ndarray) -> dict:
    """A role's later discard table: per state the rule whose pooled gain over the cards
    the ``current`` table throws is largest and positive, else the current rule."""
    hands, turn_ups = representatives()
    best = np.zeros(N_STATES)
    table = np.asarray(current, dtype=np.int64).copy()
    for j, rule in enumerate(RULES):
        mean, se, n = stat_gains(stats_role[:, j])
        # where the rule throws the current cards on every deal its gain is 0 exactly: not
        # a choice there, and not evidence for the model
        same = (n > 0) & (stats_role[:, j, 1] == 0) & (stats_role[:, j, 2] == 0)
        mean = np.where(same, np.nan, mean)
        if not np.isfinite(mean).any():
            continue
        r = resolve(mean, se, n, hands, turn_ups)
        better = (r["mean"] > best) & (n > 0) & ~same
        table[better] = rule
        best = np.where(better, r["mean"], best)
    return {"table": table, "gain": best}


#: Decisions met above which a role's paired gains cannot all be exactly zero.
MET_CHECK = 1000


def check_gains(stats: np.ndarray, where: str) -> None:
    """Refuse stats whose paired gains are all exactly zero though many decisions were met:
    the forced action then changed no deal, which is what a whole-deal kernel compiled
    against another layout of the cfg reads (a stale numba cache: numba keys a kernel's
    cache on its own file, not on the constants it imports; clear it with
    ``find . -name '*.nb[ic]' -delete``). A first run of every-decision met this."""
    for r, role in enumerate(ROLES):
        met = int(stats[r, ..., 0].sum())
        if met >= MET_CHECK and not stats[r, ..., 1:].any():
            raise RuntimeError(f"{where}: the {role}'s {met:,} decisions met all gain exactly "
                               "0: the forced actions changed nothing (a stale numba cache? "
                               "clear it and run again)")


def _weighted_change(old: np.ndarray, new: np.ndarray, met: np.ndarray) -> float:
    """The share of the decisions met whose state's entry changed."""
    total = met.sum()
    return float(met[old != new].sum() / total) if total else 0.0


def later_at(settings: EcarteSettings, pair: dict, slot: int, v: np.ndarray,
             es: EverySettings, *, step: int = 0, progress=None) -> list[dict]:
    """The later rounds' tables of the pair at one score, solved in place (module
    docstring, 1.); returns one record per step."""
    x, y = divmod(slot, TARGET)
    records = []
    for k in range(int(es.later_steps)):
        seed = (es.seed + step) * 64 + k
        row = at_score(pair, slot)
        stats = later_stats(settings, row, x, y, v, kind=kern.DECIDE, seed=seed,
                            deals=int(es.later_deals), progress=progress)
        check_gains(stats, f"later decisions at {x}-{y}")
        rec = {"score": f"{x}-{y}", "stage": "later decisions", "k": k, "seed": seed}
        changed = 0.0
        for r, role in enumerate(ROLES):
            key = f"{role}_later"
            old = pair[key][slot].copy()
            new = resolve_decide(stats[r])["table"]
            met = stats[r, :, 0, 0]
            rec[f"{role}_met"] = int(met.sum())
            rec[f"{role}_changed"] = _weighted_change(old, new, met)
            rec[f"{role}_says_a"] = float(met[new].sum() / max(met.sum(), 1))
            changed = max(changed, rec[f"{role}_changed"])
            pair[key][slot] = new
        records.append(rec)
        if changed < es.later_tolerance:
            break
    if es.later_discards:
        seed = (es.seed + step) * 64 + 63
        row = at_score(pair, slot)
        stats = later_stats(settings, row, x, y, v, kind=kern.DISCARD, seed=seed,
                            deals=int(es.later_deals), progress=progress)
        check_gains(stats, f"later discards at {x}-{y}")
        rec = {"score": f"{x}-{y}", "stage": "later discards", "seed": seed}
        for r, role in enumerate(ROLES):
            key = f"{role}_later_discard"
            old = pair[key][slot].copy()
            new = resolve_discard(stats[r], old)["table"]
            met = stats[r, :, 0, 0]
            rec[f"{role}_met"] = int(met.sum())
            rec[f"{role}_changed"] = _weighted_change(old, new, met)
            pair[key][slot] = new
        records.append(rec)
    return records


# ------------------------------------------------------------------ the first round

def _expected_regret(mean: np.ndarray, sd: np.ndarray) -> np.ndarray:
    """The expected loss of the posterior mean's sign when the gain is N(mean, sd²)."""
    from math import erf, sqrt
    sd = np.maximum(sd, 1e-12)
    z = np.abs(mean) / sd
    pdf = np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
    cdf = 0.5 * (1 + np.vectorize(lambda t: erf(t / sqrt(2)))(-z))
    return sd * pdf - np.abs(mean) * cdf


def first_role(role: str, settings: EcarteSettings, pair: dict, slot: int, v: np.ndarray,
               es: EverySettings, *, seed: int, progress=None) -> dict:
    """The ``role``'s best first decision at one score against the pair (its later tables
    included), pooled and refined (module docstring, 2.). Returns the new row, the
    posterior (mean, sd) and what the sampling spent."""
    from ecarte_sim.engine.ecarte.deals.action_values import N_MARKS
    x, y = divmod(slot, TARGET)
    row = at_score(pair, slot)
    base = base_settings(settings)
    run, script = st.reading_tables(base, **row)
    cfg_a, cfg_b = st.arm_cfgs(role, run)
    kernel_role = st.ROLES[role]
    first, most, z = int(es.first.first), int(es.first.most), float(es.first.z)
    joint = np.zeros((N_STATES, N_MARKS, N_MARKS), dtype=np.int64)
    deals = np.zeros(N_STATES, dtype=np.int64)
    attempts = np.zeros(N_STATES, dtype=np.int64)
    hands, turn_ups = representatives()
    f = st.score_values(v)[slot]
    w = state_weights().astype(np.float64)

    def sample(ids, hi, label):
        """States ``ids`` (all with the same deals so far) played on to ``hi`` deals."""
        task = partial(st.marks_task, check_seed(seed), kernel_role, ids, deals[ids], hi,
                       cfg_a, cfg_b, script, st.BATCH)
        done = 0
        for lo, hi_b, counts in st.run_blocks(task, ids.size, st.BATCH * st.MARKS_ROW):
            n = hi_b - lo
            block = counts[:n * st.MARKS_ROW].reshape(n, st.MARKS_ROW)
            part = ids[lo:hi_b]
            joint[part] += block[:, :N_MARKS * N_MARKS].reshape(-1, N_MARKS, N_MARKS)
            attempts[part] += block[:, -2]
            done += n
            if progress:
                progress(f"{role} first decision at {x}-{y}: {label}", done, ids.size)
        deals[ids] = hi

    def posterior():
        mean, se, n = st.state_gains(joint, f, role)
        return resolve(mean, se, deals, hands, turn_ups)

    sample(np.arange(N_STATES, dtype=np.int64), first, "every state")
    spent_first = int(first * N_STATES)
    budget = float(es.budget) * spent_first
    spent = 0
    rounds = []
    while len(rounds) < MAX_ROUNDS:
        post = posterior()
        reach = w if role == "elder" else w * np.where(attempts > 0, deals / np.maximum(
            attempts, 1), 0.0)
        open_ = (np.abs(post["mean"]) < z * post["sd"]) & (post["sd"] > es.epsilon / 2) \
            & (deals < most)
        ids = np.flatnonzero(open_)
        if ids.size == 0 or spent >= budget:
            break
        # each open state's deals quadrupled (at most to ``most``: few rounds, each a fit
        # of the model); over the budget, the states of largest expected regret (weighted
        # by how often they are met) first
        target = np.minimum(GROWTH * deals[ids], most)
        cost = target - deals[ids]
        if spent + cost.sum() > budget:
            er = _expected_regret(post["mean"][ids], post["sd"][ids]) * reach[ids]
            order = np.argsort(-er, kind="stable")
            take = max(1, int(np.searchsorted(np.cumsum(cost[order]), budget - spent,
                                              side="right")))
            keep = np.sort(order[:take])
            ids, target, cost = ids[keep], target[keep], cost[keep]
        for level in np.unique(deals[ids]):
            at = ids[deals[ids] == level]
            sample(at, int(target[deals[ids] == level][0]),
                   f"{at.size} unresolved states from {level} deals")
        spent += int(cost.sum())
        rounds.append((int(ids.size), int(target.max())))
    else:                       # the last round sampled: its posterior
        post = posterior()
        reach = w if role == "elder" else w * np.where(attempts > 0, deals / np.maximum(
            attempts, 1), 0.0)
    table = post["mean"] > 0
    weight = reach / reach.sum()
    open_now = (np.abs(post["mean"]) < z * post["sd"])
    return {"table": table, "mean": post["mean"], "sd": post["sd"], "deals": deals,
            "spent_first": spent_first, "spent_refine": spent, "rounds": rounds,
            "unresolved": float(weight[open_now & (post["sd"] > es.epsilon / 2)].sum()),
            "expected_regret": float((_expected_regret(post["mean"], post["sd"])
                                      * weight).sum())}


def first_at(settings: EcarteSettings, pair: dict, slot: int, v: np.ndarray,
             es: EverySettings, *, step: int = 0, progress=None) -> dict:
    """Both players' first decisions at one score, solved at once against the pair (or
    the elder's first and the dealer's against it, ``es.elder_then_dealer``) and put in
    place (module docstring, 2.); returns the record."""
    x, y = divmod(slot, TARGET)
    seed = (es.seed + step) % (1 << 64)
    old = {role: pair[role][slot].copy() for role in ROLES}
    found = {}
    for role in ROLES:
        found[role] = first_role(role, settings, pair, slot, v, es, seed=seed,
                                 progress=progress)
        if es.elder_then_dealer:
            pair[role][slot] = found[role]["table"]
    w = state_weights().astype(np.float64)
    rec = {"score": f"{x}-{y}", "stage": "first decisions", "seed": seed}
    for role in ROLES:
        r = found[role]
        old_table = old[role]
        rec[f"{role}_changed"] = float(w[old_table != r["table"]].sum() / w.sum())
        rec[f"{role}_unresolved"] = r["unresolved"]
        rec[f"{role}_expected_regret"] = r["expected_regret"]
        rec[f"{role}_deals"] = int(r["spent_first"] + r["spent_refine"])
        rec[f"{role}_rounds"] = r["rounds"]
        pair[role][slot] = r["table"]
    rec["gain"] = {role: found[role]["mean"] for role in ROLES}
    return rec


# ------------------------------------------------------------------ the sweep

def with_later(pair: dict) -> dict:
    """A copy of the pair with later tables: its own, or its first tables where it has
    none (what the later rounds read until they are solved)."""
    out = {k: np.array(pair[k], copy=True) for k in KEYS}
    for k, first in LATER.items():
        out[k] = np.array(pair[k] if k in pair else pair[first], copy=True)
    return out


def solve(es: EverySettings, start: dict, *, step: int = 0, progress=None) -> dict:
    """One step from the pair ``start`` (module docstring): the scores of ``es.scores``
    swept from the last, each score's later rounds, then its first round, then its ``V``.
    ``start`` may hold the first round's gains (``elder_gain``, ``dealer_gain``: (25,
    N_STATES)), kept where the step does not solve the first round again.
    Returns the new pair, ``V`` and the records."""
    settings = es.settings
    pair = with_later(start)
    slots = [TARGET * x + y for x, y in es.scores]
    counts = np.zeros((SCORE_SLOTS, 20), dtype=np.int64)
    accepted = np.zeros(SCORE_SLOTS)
    for s in range(SCORE_SLOTS):
        o = outcomes_at(settings, pair, s, seed=es.seed, deals=int(es.value_deals))
        counts[s], accepted[s] = o["counts"], o["accepted"]
    v = values_by_score(counts / counts.sum(axis=1)[:, None])
    records = []
    # the first round's gains: the start's where this step does not solve it again
    gains = {f"{r}_gain": np.array(start[f"{r}_gain"], dtype=np.float64, copy=True)
             if f"{r}_gain" in start else np.full((SCORE_SLOTS, N_STATES), np.nan)
             for r in ROLES}
    for slot in sweep_order(slots):
        records += later_at(settings, pair, slot, v, es, step=step, progress=progress)
        if es.first_round:
            rec = first_at(settings, pair, slot, v, es, step=step, progress=progress)
            for role in ROLES:
                gains[f"{role}_gain"][slot] = rec["gain"][role]
            records.append({k: val for k, val in rec.items() if k != "gain"})
        o = outcomes_at(settings, pair, slot, seed=es.seed, deals=int(es.value_deals))
        counts[slot], accepted[slot] = o["counts"], o["accepted"]
        v = values_by_score(counts / counts.sum(axis=1)[:, None])
        if progress:
            progress("scores", slots.index(slot) + 1, len(slots))
    return {"pair": pair, "v": v, "counts": counts, "first_accepted": accepted.tolist(),
            "records": records, "gains": gains, "solve": es.echo(), "step": step}


__all__ = ["EverySettings", "later_stats", "check_gains", "stat_gains", "resolve_decide",
           "resolve_discard", "later_at", "first_role", "first_at", "with_later", "solve"]
