"""The game of five up solved: an equilibrium of the first decisions and first discards at
every score, its value and its exploitability.

:mod:`~ecarte_sim.analysis.ecarte.solving.proposal_game` computes a best response of one player at
one score, the later deals valued by the treatise's own play. Five up is one game: the
right play at 3-4 depends on what the scores after it are worth, and that depends on
the play at those scores. This module iterates both.

The strategy. A *pair* is four tables of 25 rows (the score before the deal, row
``5 * elder's score + dealer's score``) over the 255,304 canonical states
(:mod:`ecarte_sim.engine.ecarte.decisions.states`): the elder's first decision (propose / play,
Laws 25–26), the dealer's (accept / refuse, Law 25), and each player's first discard
(a rule of :data:`~ecarte_sim.analysis.ecarte.solving.proposal_game.RULES`, Laws 27–31). The table
policies read them (:mod:`ecarte_sim.engine.ecarte.decisions.tables`).

The value. ``V[x, y]``, the probability that the player about to be elder at ``x``
against the dealer's ``y`` wins the game (Law 46: five up, the deal alternating), is
computed from the pair itself (:func:`pair_values`): at each score, whole deals played
by the pair's row of that score give the distribution of the deal's outcome; the
recursion of :mod:`~ecarte_sim.analysis.ecarte.measures.scores`, with that distribution depending
on the score, gives ``V`` (95% intervals by a parametric bootstrap of the 25
distributions, each redrawn on its own although the scores share their deals: wider
than need be).

The scheme (:func:`solve`). Five up is solved score by score, from the last. A deal
always adds a mark (Law 46), so a deal at ``x-y`` leads only to scores of a higher
total: ``V[x, y]`` depends on the pair's row at ``x-y`` and on the values of the scores
after it, and the best responses at ``x-y`` value their marks with those values alone.
So once the scores after it are settled, each score is a one-deal game of its own, and
one sweep from 4-4 down to 0-0 (:func:`sweep_order`) settles them all; ``V`` is the
pair's own at every step.

0. *Step 0* measures Hoyle's pair (the list, the maxims, the treatise's discard) at every
   score: both roles' best responses to it (simultaneous; his first decision, then his
   first discard, each against the pair's other tables, sampled as
   ``strategy.marks_tables`` and ``strategy.discard_response`` do: a state leaves its
   action only where the other is better by more than ``z`` standard errors), what they
   gain on fresh deals. Hoyle's pair being the same at every score, one set of marks
   tables serves all 25 (scores only reweight the marks). Every row of the pair becomes
   those best responses, and ``V`` is computed from them.
1. *The sweep*: at each score from the last, step ``k`` measures the pair's row there the
   same way, valued with the settled ``V`` of the scores after it. The row stays when the
   exploitability's 95% upper bound is at most ``exploit_tolerance``; else both best
   responses replace it (a simultaneous step of the one-deal game), the score's ``V`` is
   recomputed, and it is measured again, at most ``iterations`` times. The row kept is the
   least exploitable measured.

Step ``k`` at a score samples its best responses on the deals of seed ``seed + 1 + k``,
never on the deals that chose the row it measures (with the same deals a fixed point
would measure zero by construction); what they gain is measured on **fresh deals** — the
elder's on one fresh range, the dealer's on the next, so the two are independent — in
P(win the game) at that score: the row's *exploitability*, a lower bound at the
sampling's resolution. The solve has converged when at every score the row kept has an
exploitability whose 95% upper bound is at most ``exploit_tolerance`` and, if a step was
taken there, the score's ``V`` moved by less than ``tolerance`` in the last one.

The abstraction of the later rounds. Only the first decision and the first discard of
a deal are chosen by state; a second proposal in the same deal (after an exchange)
reads the same table on the new hand, and a later exchange throws by the same discard
table (the documented abstraction of :mod:`ecarte_sim.engine.ecarte.decisions.policies`); the
card play is the play model's. Its cost is what a best response restricted to round 0
cannot see (not measured here); the report gives the share of deals whose first proposal
is accepted, each of which reaches that abstraction.

Every figure is a pure function of the seed: the best responses sample the deals of
``strategy``'s index scheme (step 0: the same deals at every score — common random
numbers), ``V`` the continuation range, the exploitability the fresh ranges; a
run directory checkpoints each block (:func:`~ecarte_sim.engine.batch.execution`), so a
stopped solve resumes, and a Dask cluster runs the blocks when given.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ecarte_sim.analysis.ecarte.measures.paired import game_value, mean_of
from ecarte_sim.analysis.ecarte.measures.scores import TARGET, recursion, replay
from ecarte_sim.analysis.ecarte.solving import proposal_game as st
from ecarte_sim.engine.ecarte.deals.counts import whole_counts
from ecarte_sim.engine.ecarte.decisions.policies import SCORE_SLOTS
from ecarte_sim.engine.ecarte.decisions.states import N_STATES, state_weights
from ecarte_sim.engine.ecarte.records import COUNTS, KINGS, POINTS
from ecarte_sim.engine.ecarte.settings import DealerPolicy, EcarteSettings, ElderPolicy
from ecarte_sim.engine.rng import check_seed

ROLES = ("elder", "dealer")
#: The four tables of a pair, in the order they are stored.
KEYS = ("elder", "dealer", "elder_discard", "dealer_discard")
#: The later rounds' tables a pair may hold (the rounds after the first exchange), and
#: the key of each in the table policy's ``later`` block
#: (:data:`~ecarte_sim.engine.ecarte.decisions.tables.LATER_KEYS`). A pair without them
#: reads its first tables in the later rounds too.
LATER = {"elder_later": "elder", "dealer_later": "dealer",
         "elder_later_discard": "elder_discard", "dealer_later_discard": "dealer_discard"}
SCORES = st.SCORES
N_CODES = len(KINGS) * len(POINTS)
#: How a best response reads a state's sampled gain: ``keep`` leaves the replaced action
#: unless the state's own deals resolve the other (z standard errors); ``pooled`` reads
#: the sign of its gain pooled with the states alike (:mod:`.resolve`).
RESOLUTIONS = ("keep", "pooled")


@dataclass(frozen=True)
class SolveSettings:
    """What a solve runs: the play model and its variants (``settings``: the policies in
    it are only the starting pair's), the sampling of a best response's first
    decisions and of its discards, the fresh deals of the exploitability, the deals
    per score of ``V``, the iterations and the stopping tolerance on ``V``.
    ``discard_steps``: the sweep's first steps at a score whose best responses include
    the discards (later steps re-solve the first decisions only; the discards changed
    little after one step in trials, and they are three quarters of a step's cost).
    ``states`` / ``scores``: a reduced instance (only these states are re-solved, the
    others keep the treatise's entries; only these scores), for tests and trials.
    ``resolution``: how a best response reads the states' sampled gains
    (:data:`RESOLUTIONS`). ``start``: the sha256 of the starting pair's data when the
    solve starts from a shipped strategy rather than Hoyle's pair (for provenance; the
    pair itself is :func:`solve`'s ``start``). ``extend``: with ``states`` and the pooled
    resolution, every state takes the model's answer (the states not sampled their fitted
    value), not only the sampled ones: a solve from a sample of the states, for play models
    too slow to sample them all."""
    settings: EcarteSettings = field(default_factory=EcarteSettings)
    sampling: st.Sampling | None = None
    discard_sampling: st.Sampling | None = None
    fresh_deals: int | None = None
    value_deals: int | None = None
    iterations: int = 4
    tolerance: float = 0.002
    exploit_tolerance: float = 0.001
    discards: bool = True
    discard_steps: int = 1
    seed: int = 0
    states: tuple[int, ...] | None = None
    scores: tuple[tuple[int, int], ...] = SCORES
    resolution: str = "pooled"
    start: str | None = None
    extend: bool = False

    def __post_init__(self):
        check_seed(self.seed)
        if self.resolution not in RESOLUTIONS:
            raise ValueError(f"unknown resolution {self.resolution!r}; choose from "
                             f"{', '.join(RESOLUTIONS)}")
        if self.extend and (self.resolution != "pooled" or self.states is None):
            raise ValueError("extend needs the pooled resolution and a sample of states")
        if not 1 <= int(self.discard_steps) <= 50:
            raise ValueError(f"discard steps must be in [1, 50], got {self.discard_steps}")
        if not 0 <= int(self.iterations) <= 50:
            raise ValueError(f"iterations must be in [0, 50], got {self.iterations}")
        if not float(self.tolerance) > 0:
            raise ValueError(f"tolerance must be > 0, got {self.tolerance}")
        if not float(self.exploit_tolerance) > 0:
            raise ValueError(f"exploitability tolerance must be > 0, got "
                             f"{self.exploit_tolerance}")
        for x, y in self.scores:
            if not (0 <= x < TARGET and 0 <= y < TARGET):
                raise ValueError(f"bad score {x}-{y}")
        if self.states is not None:
            s = np.asarray(self.states)
            if s.size == 0 or s.min() < 0 or s.max() >= N_STATES:
                raise ValueError(f"states must lie in [0, {N_STATES})")

    @property
    def pimc(self) -> bool:
        return self.settings.uses_pimc

    def first_sampling(self) -> st.Sampling:
        return self.sampling or st.Sampling.for_play(self.settings.elder_play)

    def rule_sampling(self) -> st.Sampling:
        return self.discard_sampling or self.first_sampling()

    def fresh(self) -> int:
        return self.fresh_deals or (1 << 14 if self.pimc else 1 << 18)

    def v_deals(self) -> int:
        return self.value_deals or (1 << 13 if self.pimc else 1 << 18)

    def echo(self) -> dict:
        """Plain values, for provenance."""
        f, r = self.first_sampling(), self.rule_sampling()
        return {"settings": self.settings.echo(), "seed": int(self.seed),
                "sampling": [f.first, f.most, f.z], "discard_sampling": [r.first, r.most, r.z],
                "fresh_deals": self.fresh(), "value_deals": self.v_deals(),
                "iterations": int(self.iterations), "tolerance": float(self.tolerance),
                "exploit_tolerance": float(self.exploit_tolerance),
                "discards": bool(self.discards), "discard_steps": int(self.discard_steps),
                "states": None if self.states is None else len(self.states),
                "scores": [f"{x}-{y}" for x, y in self.scores]} | (
                    {} if self.resolution == "keep" else {"resolution": self.resolution}) | (
                    {} if self.start is None else {"start": self.start}) | (
                    {"extend": True} if self.extend else {})


def treatise_pair(settings: EcarteSettings) -> dict:
    """Hoyle's pair as 25-row tables: the list, the maxims and the settings' discard
    rules, the same at every score."""
    t = st.treatise_tables(settings)
    return {"elder": np.broadcast_to(t["elder"], (SCORE_SLOTS, N_STATES)).copy(),
            "dealer": np.broadcast_to(t["dealer"], (SCORE_SLOTS, N_STATES)).copy(),
            "elder_discard": np.full((SCORE_SLOTS, N_STATES), int(settings.elder_discard),
                                     dtype=np.int64),
            "dealer_discard": np.full((SCORE_SLOTS, N_STATES), int(settings.dealer_discard),
                                      dtype=np.int64)}


def at_score(pair: dict, slot: int) -> dict:
    """The pair's row of one score, as single-row tables (the table policies read a
    single row at every score, so a deal at ``slot`` plays exactly as the 25-row pair),
    and its later rounds' rows as ``later`` (:data:`LATER`) where it has them: the
    keywords of :func:`~ecarte_sim.analysis.ecarte.solving.proposal_game.reading_tables`."""
    row = {k: np.ascontiguousarray(pair[k][slot]) for k in KEYS}
    later = {LATER[k]: np.ascontiguousarray(pair[k][slot]) for k in LATER if k in pair}
    return {**row, "later": later} if later else row


def base_settings(settings: EcarteSettings) -> EcarteSettings:
    """The settings every solve plays: the treatise's policies (replaced by the tables
    wherever a pair is given) and the settings' play models and variants."""
    return replace(settings, elder_policy=ElderPolicy.REGLE,
                   dealer_policy=DealerPolicy.MAXIMS)


# --------------------------------------------------------------------------- the value

def values_by_score(p: np.ndarray, target: int = TARGET) -> np.ndarray:
    """``V[x, y]`` when the deal's outcome distribution depends on the score: ``p`` is
    (25, 20), row ``5 * x + y`` the outcome codes of a deal played from elder ``x``,
    dealer ``y`` (:func:`~ecarte_sim.analysis.ecarte.measures.scores.recursion`, Law 46). Each row
    must be a distribution; a 'no point' code is allowed only where a king's mark ends
    the game at that score (a deal cut short there)."""
    p = np.asarray(p, dtype=float)
    if p.shape != (target * target, N_CODES):
        raise ValueError(f"p must have shape ({target * target}, {N_CODES})")
    if (p < 0).any() or (np.abs(p.sum(axis=1) - 1) > 1e-9).any():
        raise ValueError("each row of p must be 20 probabilities summing to 1")
    for x in range(target):
        for y in range(target):
            for code in np.flatnonzero(p[target * x + y]):
                if code % len(POINTS) == len(POINTS) - 1 and \
                        replay(x, y, code, target)[2] is None:
                    raise ValueError(f"outcome {code} at {x}-{y} has no point but does not "
                                     "end the game")
    return recursion(lambda x, y: p[target * x + y], target)


def _first_accepted(counts: np.ndarray) -> float:
    """Deals whose first proposal was accepted (Law 49's 'none' less the deals a king's
    mark ended before any decision): every such deal reaches the later rounds' reading of
    the tables."""
    first = np.asarray(counts[COUNTS.slice("first")], dtype=np.int64)
    ended = int(np.asarray(counts[COUNTS.slice("ended")]).sum())
    return float(first[0] - ended)


def outcomes_at(settings: EcarteSettings, pair: dict, slot: int, *, seed: int = 0,
                deals: int = 1 << 18) -> dict:
    """The outcome counts of ``deals`` whole deals of the continuation range played by the
    pair's row of one score, and the share whose first proposal was accepted."""
    run, script = st.reading_tables(base_settings(settings), **at_score(pair, slot))
    c = whole_counts(check_seed(seed), st.CONTINUATION_START, st.CONTINUATION_START + deals,
                     run.cfg(), script)
    counts = np.asarray(c[COUNTS.slice("deal")], dtype=np.int64)
    return {"counts": counts, "accepted": _first_accepted(c) / deals}


def value_table(counts: np.ndarray, *, seed: int = 0, bootstrap: int = 200) -> dict:
    """``V`` from the 25 scores' outcome counts (rows ``5 * x + y``), its 95% interval per
    cell by a parametric bootstrap (each score's counts redrawn from their multinomial)."""
    counts = np.asarray(counts, dtype=np.int64)
    deals = counts.sum(axis=1)
    p = counts / deals[:, None]
    v = values_by_score(p)
    rng = np.random.default_rng(seed)
    reps = np.empty((bootstrap, TARGET, TARGET))
    for b in range(bootstrap):
        q = np.stack([rng.multinomial(deals[s], p[s]) / deals[s]
                      for s in range(SCORE_SLOTS)])
        reps[b] = values_by_score(q)
    lo, hi = (np.percentile(reps, [2.5, 97.5], axis=0) if bootstrap else (v, v))
    return {"v": v, "lo": lo, "hi": hi, "n": int(deals.min())}


def pair_values(settings: EcarteSettings, pair: dict, *, seed: int = 0,
                deals: int = 1 << 18, bootstrap: int = 200, progress=None) -> dict:
    """``V`` of a pair: at each score, ``deals`` whole deals of the continuation range
    played by the pair's row of that score give the outcome distribution; ``V`` by
    :func:`values_by_score`, its 95% interval per cell by :func:`value_table`'s bootstrap.
    The same deals at every score (common random numbers)."""
    counts = np.zeros((SCORE_SLOTS, N_CODES), dtype=np.int64)
    accepted = np.zeros(SCORE_SLOTS)
    for slot in range(SCORE_SLOTS):
        o = outcomes_at(settings, pair, slot, seed=seed, deals=deals)
        counts[slot], accepted[slot] = o["counts"], o["accepted"]
        if progress:
            progress("value of every score", slot + 1, SCORE_SLOTS)
    return {**value_table(counts, seed=seed, bootstrap=bootstrap), "counts": counts,
            "first_accepted": accepted}


# ------------------------------------------------------------------- best responses

def best_rows(role: str, settings: EcarteSettings, pair: dict, v: np.ndarray,
              slots: list[int], solve: SolveSettings, progress=None,
              seed: int | None = None) -> dict:
    """The ``role``'s best response to the pair at the scores ``slots``, whose rows of the
    pair must be equal (so that one set of marks tables serves them all: scores only
    reweight the marks): his best first decision and, with ``solve.discards``, his best
    first discard, each against the pair (the other's tables, his own other table for
    the later rounds). Returns, per slot, his two new rows and the per-state gain of his
    first decision's arm a (propose, accept) over arm b (NaN where not estimated), and
    the deals played, and per slot the share of dealt hands whose first decision stayed
    unresolved (the two actions within ``z`` standard errors after the most deals).
    ``seed``: the seed of the sampled deals (default the solve's)."""
    seed = solve.seed if seed is None else seed
    base = base_settings(settings)
    row = at_score(pair, slots[0])
    other = "dealer" if role == "elder" else "elder"
    discard_tables = {k: row[k] for k in ("elder_discard", "dealer_discard")}
    run, script = st.reading_tables(base, **discard_tables, later=row.get("later"),
                                    **{role: row[role], other: row[other]})
    sampling = solve.first_sampling()
    where = ", ".join(f"{s // TARGET}-{s % TARGET}" for s in slots[:3]) + \
        (f" and {len(slots) - 3} more" if len(slots) > 3 else "")
    say = (lambda what, done, total: progress(f"{role} at {where}: {what}", done, total)) \
        if progress else None
    marks = st.marks_tables(role, run, script, v=v, seed=seed, sampling=sampling,
                            slots=tuple(slots), states=solve.states, progress=say)
    if solve.resolution == "pooled":
        br = pooled_response(marks, v, row[role], slots, solve.states, extend=solve.extend)
    else:
        br = st.best_response(marks, v, row[role], sampling.z, rows=tuple(slots))
    out = {"deals": int(marks.deals.sum()), "rows": {}}
    w = state_weights().astype(np.float64)
    for slot in slots:
        g, e = br["gain"][slot], br["se"][slot]
        if solve.resolution == "pooled":            # unresolved: by the posterior
            g, e = br["post_mean"][slot], br["post_sd"][slot]
        with np.errstate(invalid="ignore"):
            open_ = (e > 0) & (np.abs(g) <= sampling.z * e)
        out["rows"][slot] = {role: br["table"][slot], "gain": g,
                             f"{role}_discard": row[f"{role}_discard"],
                             "unresolved": float(w[open_].sum() / w.sum())}
    if solve.discards:
        rest = {k: t for k, t in row.items() if k != f"{role}_discard"}
        d = st.discard_response(role, base, v, own=row[f"{role}_discard"], tables=rest,
                                seed=seed, sampling=solve.rule_sampling(),
                                slots=tuple(slots), states=solve.states, progress=say,
                                rows=tuple(slots))
        for slot in slots:
            out["rows"][slot][f"{role}_discard"] = d["table"][slot]
        out["deals"] += d["deals"]
    return out


def pooled_response(marks: st.MarksTables, v: np.ndarray, replaced: np.ndarray,
                    slots: list[int], states=None, extend: bool = False) -> dict:
    """The best response of ``marks``' role at ``slots`` with every state's gain pooled with
    the states alike (:func:`~ecarte_sim.analysis.ecarte.solving.resolve.resolve`): the action is
    the posterior mean's sign. ``states``: the fit uses their gains alone, and only they
    change (a reduced instance; the others keep ``replaced``) unless ``extend``: then
    every state takes the model's answer, the others their fitted value. Returns
    :func:`~ecarte_sim.analysis.ecarte.solving.proposal_game.best_response`'s keys (``gain`` and
    ``se`` the states' own sampled figures) and the posterior's ``post_mean``,
    ``post_sd``."""
    from ecarte_sim.analysis.ecarte.solving.resolve import resolve
    from ecarte_sim.engine.ecarte.decisions.states import representatives

    replaced = np.broadcast_to(np.asarray(replaced, dtype=bool), (SCORE_SLOTS, N_STATES))
    table = replaced.copy()
    keys = ("gain", "se", "post_mean", "post_sd")
    out = {k: np.full((SCORE_SLOTS, N_STATES), np.nan) for k in keys}
    idx = np.arange(N_STATES) if states is None or extend else \
        np.asarray(states, dtype=np.int64)
    hands, turn_ups = representatives()
    gain, se, _ = st.state_gains(marks.joint[idx], st.score_values(v)[list(slots)],
                                 marks.role)     # NaN where a state was not sampled
    for i, slot in enumerate(slots):
        r = resolve(gain[i], se[i], marks.deals[idx], hands[idx], turn_ups[idx])
        table[slot, idx] = r["table"]
        out["gain"][slot, idx], out["se"][slot, idx] = gain[i], se[i]
        out["post_mean"][slot, idx], out["post_sd"][slot, idx] = r["mean"], r["sd"]
    return {"table": table, **out}


def score_groups(pair: dict, slots: list[int]) -> list[list[int]]:
    """The slots grouped by equal rows of the pair (all four tables), in slot order:
    a group's best responses share their marks tables."""
    groups: dict[bytes, list[int]] = {}
    for slot in slots:
        key = b"".join(np.ascontiguousarray(pair[k][slot]).tobytes() for k in KEYS)
        groups.setdefault(key, []).append(slot)
    return list(groups.values())


def changed_share(role: str, old: np.ndarray, new: np.ndarray) -> float:
    """The share of dealt hands (states weighted as dealt) whose entry changed."""
    w = state_weights().astype(np.float64)
    return float(w[np.asarray(old) != np.asarray(new)].sum() / w.sum())


def exploitability_at(settings: EcarteSettings, pair: dict, responses: dict,
                      v: np.ndarray, slot: int, solve: SolveSettings) -> dict:
    """What each role's best response (``responses[role]``: his new rows, sampled on deals
    that did not choose the pair) gains over the pair at one score, on fresh deals,
    valued with ``v``: the role's paired gain in his P(win the game) with its 95%
    interval, and their sum, the exploitability. The elder's gain is measured on the
    fresh deals ``[F, F + n)``, the dealer's on ``[F + n, F + 2n)``: the two are
    independent, so the sum's interval is the estimate ± the root of the summed squared
    half-widths.

    ``elder_value``: the elder's probability of winning the game from the score under the
    pair (the deal played by the pair, the later deals valued by ``v``), read from the
    pair's own arm of the elder's fresh deals (each arm of a paired deal is played alone,
    so that arm is the pair's play of those deals)."""
    base = base_settings(settings)
    row = at_score(pair, slot)
    x, y = divmod(slot, TARGET)
    out = {"score": f"{x}-{y}"}
    total, squares = 0.0, 0.0
    for k, role in enumerate(ROLES):
        mine = {key: responses[role][key] for key in (role, f"{role}_discard")}
        joints: dict = {}
        g = st.gains_between(role, base, {**row, **mine}, row, v, seed=solve.seed,
                             deals=solve.fresh(),
                             first=st.FRESH_DEALS_START + k * solve.fresh(),
                             scores=((x, y),), keep=joints)[0]
        if role == "elder":
            pair_play = joints[(x, y)].sum(axis=0)
            m = mean_of(pair_play, game_value(v, x, y))
            out["elder_value"] = {"p": m["mean"], "ci95": m["ci95"],
                                  "n": int(pair_play.sum())}
        out[f"{role}_gain"] = g["gain_win"]
        out[f"{role}_gain_ci95"] = g["gain_win_ci95"]
        out[f"{role}_gain_marks"] = g["gain_marks"]
        out["n"] = g["n"]
        total += g["gain_win"]
        squares += ((g["gain_win_ci95"][1] - g["gain_win_ci95"][0]) / 2) ** 2
    half = float(np.sqrt(squares))
    out["exploitability"] = total
    out["exploitability_ci95"] = [total - half, total + half]
    return out


def sweep_order(slots) -> list[int]:
    """The scores from the last to the first: by total points down (Law 46: every deal adds
    a mark, so a deal leads only to scores of a higher total), ties by slot. A score's
    value depends only on its own row of the pair and the values of the scores after it."""
    return sorted(slots, key=lambda s: (-(s // TARGET + s % TARGET), s))


def _measure(settings, pair, v, slot, solve, seed, progress, found=None):
    """Both roles' best responses to the pair at one score (``found``: already computed)
    and what they gain on fresh deals: the score's entry, the responses and the deals the
    best responses played."""
    deals = 0
    if found is None:
        found = {}
        for role in ROLES:
            r = best_rows(role, settings, pair, v, [slot], solve, progress, seed=seed)
            found[role], deals = r["rows"][slot], deals + r["deals"]
    entry = _gains_at(settings, pair, found, v, slot, solve)
    return entry, found, deals


def _gains_at(settings, pair, found, v, slot, solve) -> dict:
    """:func:`exploitability_at` and what the responses change."""
    entry = exploitability_at(settings, pair, found, v, slot, solve)
    for role in ROLES:
        r = found[role]
        entry[f"{role}_changed"] = changed_share(role, pair[role][slot], r[role])
        entry[f"{role}_discard_changed"] = changed_share(
            role, pair[f"{role}_discard"][slot], r[f"{role}_discard"])
        entry[f"{role}_unresolved"] = r["unresolved"]
    return entry


def _step_record(t, seed, v, lo, hi, moved, entries, pair, new, deals, accepted, **extra):
    changed = [e[k] for e in entries for k in e if k.endswith("_changed")]
    bounds = {} if lo is None else {"v_lo": lo.tolist(), "v_hi": hi.tolist()}
    return {"iteration": t, "seed": seed % (1 << 64), "v": v.tolist(), **bounds,
            "v_moved": moved, "scores": entries,
            "entries_changed": sum(int((new[k] != pair[k]).sum()) for k in KEYS),
            "largest_change": max(changed),
            "largest_upper_bound": max(e["exploitability_ci95"][1] for e in entries),
            "mean_exploitability": float(np.mean([e["exploitability"] for e in entries])),
            "deals": deals, "first_accepted": list(accepted), **extra}


def solve(solve: SolveSettings, progress=None, start: dict | None = None) -> dict:
    """Hoyle's pair measured, then five up solved score by score from the last (module
    docstring).

    Step 0 measures the starting pair ``P`` (Hoyle's, or ``start``) at every score: both
    roles' best responses to it (sampled on the deals of ``seed``; the scores whose rows
    are equal share their marks tables) and what they gain on fresh deals. Unless
    ``iterations`` is 0, every row of the pair becomes those best responses, ``V`` is
    computed from them, and the scores are swept in :func:`sweep_order`. At a score, its
    ``k``-th step (``k`` = 0, 1, ...) measures the pair's row there with best responses
    sampled on the deals of ``seed + 1 + k`` (never the deals that chose the row: step 0's
    were ``seed``'s, step ``k - 1``'s ``seed + k``), valued with ``V`` of the scores after it, which
    the sweep has already settled; the row stays if the exploitability's 95% upper bound
    is at most ``exploit_tolerance``, else the best responses replace it, its ``V`` cell
    is recomputed and the score is measured again, at most ``iterations`` times. The row
    kept is the least exploitable one measured (the last unless it went back up), and
    ``V`` follows it. ``V`` moved: how far the score's own cell moved in its last step.
    With ``iterations`` 0 the result also holds ``responses``: the best responses to the
    starting pair at every score (step 0's), as a pair."""
    settings = solve.settings
    pair = treatise_pair(settings) if start is None else {k: np.array(start[k]) for k in KEYS}
    slots = [TARGET * x + y for x, y in solve.scores]
    value = pair_values(settings, pair, seed=solve.seed, deals=solve.v_deals(),
                        progress=progress)
    counts, accepted = value["counts"].copy(), value["first_accepted"].copy()
    v = value["v"]
    new, gains, entries, deals = _step_zero(settings, solve, pair, slots, v, progress)
    history = [_step_record(0, solve.seed, v, value["lo"], value["hi"], None, entries, pair,
                            new, deals, accepted, stage="start")]
    final = {slot: e for slot, e in zip(slots, entries)}
    if int(solve.iterations) == 0:
        out = _result(solve, pair, gains, value, counts, accepted, history, final, slots,
                      converged=all(e["exploitability_ci95"][1] <= solve.exploit_tolerance
                                    for e in entries))
        return {**out, "responses": new}
    pair = new
    for slot in slots:
        o = outcomes_at(settings, pair, slot, seed=solve.seed, deals=solve.v_deals())
        counts[slot], accepted[slot] = o["counts"], o["accepted"]
    v = _values(counts)
    t = 0
    settled = {}
    for slot in sweep_order(slots):
        tried, pair, v, t = _steps_at(settings, solve, pair, slot, counts, accepted, v, t,
                                      history, progress)
        final[slot], settled[slot] = _keep_least_exploitable(solve, tried, pair, slot, counts,
                                                             accepted, gains)
        v = _values(counts)
    value = {**value_table(counts, seed=solve.seed), "counts": counts}
    return _result(solve, pair, gains, value, counts, accepted, history, final, slots,
                   converged=all(settled.values()))


def _values(counts: np.ndarray) -> np.ndarray:
    """``V`` from the outcome counts by score (:func:`values_by_score` of their shares)."""
    return values_by_score(counts / counts.sum(axis=1)[:, None])


def _put_responses(pair: dict, slot: int, found: dict) -> None:
    """Both roles' best responses ``found`` (by role) into ``pair``'s rows at ``slot``."""
    for role in ROLES:
        pair[role][slot] = found[role][role]
        pair[f"{role}_discard"][slot] = found[role][f"{role}_discard"]


def _step_zero(settings, solve, pair, slots, v, progress):
    """Step 0 of :func:`solve`: the starting pair at every score, its best responses
    shared by equal rows (:func:`score_groups`). Returns the pair of the best responses,
    their gains, the scores' entries and the deals the best responses played."""
    found = {role: {} for role in ROLES}
    deals = 0
    for group in score_groups(pair, slots):
        for role in ROLES:
            r = best_rows(role, settings, pair, v, group, solve, progress, seed=solve.seed)
            deals += r["deals"]
            found[role].update(r["rows"])
    new = {k: pair[k].copy() for k in KEYS}
    gains = {f"{r}_gain": np.full((SCORE_SLOTS, N_STATES), np.nan) for r in ROLES}
    entries = []
    for i, slot in enumerate(slots):
        here = {role: found[role][slot] for role in ROLES}
        entry, _, _ = _measure(settings, pair, v, slot, solve, solve.seed, progress,
                               found=here)
        entries.append(entry)
        _put_responses(new, slot, here)
        for role in ROLES:
            gains[f"{role}_gain"][slot] = here[role]["gain"]
        if progress:
            progress("step 0: every score", i + 1, len(slots))
    return new, gains, entries, deals


def _steps_at(settings, solve, pair, slot, counts, accepted, v, t, history, progress):
    """The steps of :func:`solve`'s sweep at one score: measure the pair's row there, stop
    when its exploitability's 95% upper bound is within ``exploit_tolerance`` (or after
    ``iterations`` steps), else take the best responses as the row and recompute the
    score's outcomes (``counts``, ``accepted``, in place) and ``V``. Each step is recorded
    in ``history``. Returns the steps tried (entry, row, counts, accepted, gains, V moved),
    the pair, ``V`` and the step count ``t``."""
    tried = []
    moved = None
    for k in range(int(solve.iterations)):
        t += 1
        step_seed = (solve.seed + 1 + k) % (1 << 64)
        here = solve if k < int(solve.discard_steps) else replace(solve, discards=False)
        entry, found_here, n_deals = _measure(settings, pair, v, slot, here, step_seed,
                                              progress)
        entry["discards_solved"] = bool(here.discards)
        entry["step"] = k
        row = {key: pair[key][slot].copy() for key in KEYS}
        tried.append((entry, row, counts[slot].copy(), accepted[slot],
                      {r: found_here[r]["gain"] for r in ROLES}, moved))
        step_new = {key: pair[key].copy() for key in KEYS}
        _put_responses(step_new, slot, found_here)
        history.append(_step_record(t, step_seed, v, None, None, moved, [entry], pair,
                                    step_new, n_deals, accepted, stage="sweep",
                                    score=entry["score"]))
        if entry["exploitability_ci95"][1] <= solve.exploit_tolerance:
            break
        if k == int(solve.iterations) - 1:
            break
        pair = step_new
        o = outcomes_at(settings, pair, slot, seed=solve.seed, deals=solve.v_deals())
        counts[slot], accepted[slot] = o["counts"], o["accepted"]
        v_new = _values(counts)
        x, y = divmod(slot, TARGET)
        moved = float(abs(v_new[x, y] - v[x, y]))
        v = v_new
        if progress:
            progress(f"sweep at {entry['score']}", k + 1, int(solve.iterations))
    return tried, pair, v, t


def _keep_least_exploitable(solve, tried, pair, slot, counts, accepted, gains):
    """The row kept at ``slot``: the least exploitable of the steps ``tried`` (its row,
    outcomes and gains put back in place). Returns its final entry and whether the score
    settled (within ``exploit_tolerance``, and ``V`` moved less than ``tolerance``)."""
    best = min(range(len(tried)), key=lambda i: tried[i][0]["exploitability"])
    entry, row, c, a, g, moved = tried[best]
    for key in KEYS:
        pair[key][slot] = row[key]
    counts[slot], accepted[slot] = c, a
    for role in ROLES:
        gains[f"{role}_gain"][slot] = g[role]
    final = {**entry, "steps": len(tried), "chosen_step": best, "v_moved": moved}
    settled = (entry["exploitability_ci95"][1] <= solve.exploit_tolerance
               and (moved is None or moved < solve.tolerance))
    return final, settled


def responded(solve: SolveSettings, result: dict, progress=None) -> dict:
    """One simultaneous step from the starting pair: the best responses of a step-0 solve
    (``iterations`` 0: ``result["responses"]``, both roles' at every score against the
    starting pair) as the pair, its ``V`` computed from it (:func:`pair_values`). The
    exploitability in ``final`` stays the starting pair's (what these responses gain
    against it); this pair's own is measured by a step 0 started from it."""
    if "responses" not in result:
        raise ValueError("one step needs a step-0 solve (iterations 0)")
    pair = result["responses"]
    value = pair_values(solve.settings, pair, seed=solve.seed, deals=solve.v_deals(),
                        progress=progress)
    return {**result, "pair": pair, "v": value["v"], "v_lo": value["lo"], "v_hi": value["hi"],
            "value_deals": value["n"], "first_accepted": list(map(float,
                                                                   value["first_accepted"])),
            "converged": False, "responded": True}


def _result(solve, pair, gains, value, counts, accepted, history, final, slots, *, converged):
    return {"pair": pair, "gains": gains, "v": value["v"], "v_lo": value["lo"],
            "v_hi": value["hi"], "value_deals": value["n"], "history": history,
            "final": [final[s] for s in slots], "first_accepted": list(map(float, accepted)),
            "converged": bool(converged), "solve": solve.echo()}
