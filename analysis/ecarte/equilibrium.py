"""The game of five up solved: an equilibrium of the first decisions and first discards at
every score, its value and its exploitability.

:mod:`~ecarte_sim.analysis.ecarte.strategy` computes a best response of one player at
one score, the later deals valued by the treatise's own play. Five up is one game: the
right play at 3-4 depends on what the scores after it are worth, and that depends on
the play at those scores. This module iterates both.

The strategy. A *pair* is four tables of 25 rows (the score before the deal, row
``5 * elder's score + dealer's score``) over the 255,304 canonical states
(:mod:`ecarte_sim.engine.ecarte.states`): the elder's first decision (propose / play,
Laws 25–26), the dealer's (accept / refuse, Law 25), and each player's first discard
(a rule of :data:`~ecarte_sim.analysis.ecarte.strategy.RULES`, Laws 27–31). The table
policies read them (:mod:`ecarte_sim.engine.ecarte.tables`).

The value. ``V[x, y]``, the probability that the player about to be elder at ``x``
against the dealer's ``y`` wins the game (Law 46: five up, the deal alternating), is
computed from the pair itself (:func:`pair_values`): at each score, whole deals played
by the pair's row of that score give the distribution of the deal's outcome; the
recursion of :mod:`~ecarte_sim.analysis.ecarte.scores`, with that distribution depending
on the score, gives ``V`` (95% intervals by a parametric bootstrap of the 25
distributions, each redrawn on its own although the scores share their deals: wider
than need be).

The scheme (:func:`solve`): from Hoyle's pair (the list, the maxims, the treatise's
discard) and its ``V``, each iteration computes *both* players' best responses to the
current pair at every score (simultaneous, not alternating: so the two best responses
are also what measures the current pair's exploitability), each valued with the current
``V``:

1. each role's best first decision against the current pair (the other's tables; his own
   discard and, in the later rounds, his own table as they are), sampled as
   ``strategy.marks_tables`` does: a state leaves its action only where the other is
   better by more than ``z`` standard errors;
2. each role's best first discard against the current pair, the same way
   (``strategy.discard_response``: both arms propose and accept, so his first-decision
   table matters only in the later rounds);
3. the new pair's ``V`` from whole deals.

Every table of the new pair is thus a best response to the current pair (a Jacobi step),
so the scores whose rows of the pair are equal share their marks tables (scores only
reweight the marks): at the first iteration, Hoyle's pair being the same at every score,
one set of marks tables serves all 25.

Iteration ``t`` samples its best responses on the deals of seed ``seed + t``, so the
best responses that measure a pair never saw the deals that chose it (with the same
deals a pair at a fixed point would measure zero by construction). An iteration's
*exploitability* of the current pair at a score is what the two best responses gain over
it on **fresh deals** — the elder's on one fresh range, the dealer's on the next, so the
two are independent — summed, in P(win the game) at that score with ``V`` of the current
pair: a lower bound at the sampling's resolution. The iteration stops when at every
score the exploitability's 95% upper bound is at most ``exploit_tolerance`` and ``V``
moved by less than ``tolerance`` (largest cell) in the last step, or after
``iterations``; it returns the least exploitable pair it measured.

The abstraction of the later rounds. Only the first decision and the first discard of
a deal are chosen by state; a second proposal in the same deal (after an exchange)
reads the same table on the new hand, and a later exchange throws by the same discard
table (the documented abstraction of :mod:`ecarte_sim.engine.ecarte.policies`); the
card play is the play model's. Its cost is what a best response restricted to round 0
cannot see (not measured here); the report gives the share of deals whose first proposal
is accepted, each of which reaches that abstraction.

Every figure is a pure function of the seed: the best responses sample the deals of
``strategy``'s index scheme (the same deals at every score of an iteration — common
random numbers), ``V`` the continuation range, the exploitability the fresh ranges; a
run directory checkpoints each block (:func:`~ecarte_sim.engine.batch.execution`), so a
stopped solve resumes, and a Dask cluster runs the blocks when given.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ecarte_sim.analysis.ecarte import strategy as st
from ecarte_sim.analysis.ecarte.paired import game_value, mean_of
from ecarte_sim.analysis.ecarte.scores import TARGET, recursion, replay
from ecarte_sim.engine.ecarte.counts import whole_counts
from ecarte_sim.engine.ecarte.policies import SCORE_SLOTS
from ecarte_sim.engine.ecarte.records import COUNTS, KINGS, POINTS
from ecarte_sim.engine.ecarte.settings import DealerPolicy, EcarteSettings, ElderPolicy
from ecarte_sim.engine.ecarte.states import N_STATES, state_weights
from ecarte_sim.engine.rng import check_seed

ROLES = ("elder", "dealer")
#: The four tables of a pair, in the order they are stored.
KEYS = ("elder", "dealer", "elder_discard", "dealer_discard")
SCORES = st.SCORES
N_CODES = len(KINGS) * len(POINTS)


@dataclass(frozen=True)
class SolveSettings:
    """What a solve runs: the play model and its variants (``settings``: the policies in
    it are only the starting pair's), the sampling of a best response's first
    decisions and of its discards, the fresh deals of the exploitability, the deals
    per score of ``V``, the iterations and the stopping tolerance on ``V``.
    ``states`` / ``scores``: a reduced instance (only these states are re-solved, the
    others keep the treatise's entries; only these scores), for tests and trials."""
    settings: EcarteSettings = field(default_factory=EcarteSettings)
    sampling: st.Sampling | None = None
    discard_sampling: st.Sampling | None = None
    fresh_deals: int | None = None
    value_deals: int | None = None
    iterations: int = 4
    tolerance: float = 0.002
    exploit_tolerance: float = 0.001
    discards: bool = True
    seed: int = 0
    states: tuple[int, ...] | None = None
    scores: tuple[tuple[int, int], ...] = SCORES

    def __post_init__(self):
        check_seed(self.seed)
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
                "discards": bool(self.discards),
                "states": None if self.states is None else len(self.states),
                "scores": [f"{x}-{y}" for x, y in self.scores]}


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
    single row at every score, so a deal at ``slot`` plays exactly as the 25-row pair)."""
    return {k: np.ascontiguousarray(pair[k][slot]) for k in KEYS}


def _base(settings: EcarteSettings) -> EcarteSettings:
    """The settings every solve plays: the treatise's policies (replaced by the tables
    wherever a pair is given) and the settings' play models and variants."""
    return replace(settings, elder_policy=ElderPolicy.REGLE,
                   dealer_policy=DealerPolicy.MAXIMS)


# --------------------------------------------------------------------------- the value

def values_by_score(p: np.ndarray, target: int = TARGET) -> np.ndarray:
    """``V[x, y]`` when the deal's outcome distribution depends on the score: ``p`` is
    (25, 20), row ``5 * x + y`` the outcome codes of a deal played from elder ``x``,
    dealer ``y`` (:func:`~ecarte_sim.analysis.ecarte.scores.recursion`, Law 46). Each row
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


def pair_values(settings: EcarteSettings, pair: dict, *, seed: int = 0,
                deals: int = 1 << 18, bootstrap: int = 200, progress=None) -> dict:
    """``V`` of a pair: at each score, ``deals`` whole deals of the continuation range
    played by the pair's row of that score give the outcome distribution; ``V`` by
    :func:`values_by_score`, its 95% interval per cell by a parametric bootstrap (each
    score's outcome counts redrawn from their multinomial). The same deals at every
    score (common random numbers)."""
    base = _base(settings)
    p = np.zeros((SCORE_SLOTS, N_CODES))
    counts = np.zeros((SCORE_SLOTS, N_CODES), dtype=np.int64)
    accepted = np.zeros(SCORE_SLOTS)
    for slot in range(SCORE_SLOTS):
        run, script = st._for_role(base, **at_score(pair, slot))
        c = whole_counts(check_seed(seed), st.CONTINUATION_START,
                         st.CONTINUATION_START + deals, run.cfg(), script)
        counts[slot] = np.asarray(c[COUNTS.slice("deal")], dtype=np.int64)
        accepted[slot] = _first_accepted(c) / deals
        p[slot] = counts[slot] / counts[slot].sum()
        if progress:
            progress("value of every score", slot + 1, SCORE_SLOTS)
    v = values_by_score(p)
    rng = np.random.default_rng(seed)
    reps = np.empty((bootstrap, TARGET, TARGET))
    for b in range(bootstrap):
        q = np.stack([rng.multinomial(deals, p[s]) / deals for s in range(SCORE_SLOTS)])
        reps[b] = values_by_score(q)
    lo, hi = (np.percentile(reps, [2.5, 97.5], axis=0) if bootstrap else (v, v))
    return {"v": v, "lo": lo, "hi": hi, "n": int(deals), "counts": counts,
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
    base = _base(settings)
    row = at_score(pair, slots[0])
    other = "dealer" if role == "elder" else "elder"
    discard_tables = {k: row[k] for k in ("elder_discard", "dealer_discard")}
    run, script = st._for_role(base, **discard_tables,
                               **{role: row[role], other: row[other]})
    sampling = solve.first_sampling()
    where = ", ".join(f"{s // TARGET}-{s % TARGET}" for s in slots[:3]) + \
        (f" and {len(slots) - 3} more" if len(slots) > 3 else "")
    say = (lambda what, done, total: progress(f"{role} at {where}: {what}", done, total)) \
        if progress else None
    marks = st.marks_tables(role, run, script, v=v, seed=seed, sampling=sampling,
                            slots=tuple(slots), states=solve.states, progress=say)
    br = st.best_response(marks, v, row[role], sampling.z, rows=tuple(slots))
    out = {"deals": int(marks.deals.sum()), "rows": {}}
    w = state_weights().astype(np.float64)
    for slot in slots:
        g, e = br["gain"][slot], br["se"][slot]
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
    base = _base(settings)
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


def solve(solve: SolveSettings, progress=None, start: dict | None = None) -> dict:
    """Iterated simultaneous best responses from Hoyle's pair (module docstring).

    Iteration ``t`` measures the pair ``P[t]``: both roles' best responses to it at every
    score, sampled on the deals of seed ``seed + t`` (never the deals that chose
    ``P[t]``, which were seed ``seed + t - 1``'s), what they gain on fresh deals (its
    exploitability, an honest lower bound at the sampling's resolution), the share of
    dealt hands whose entry they change and the share still unresolved. It stops when
    at every score the exploitability's 95% upper bound is at most
    ``exploit_tolerance`` and ``V`` moved by less than ``tolerance`` from ``P[t-1]`` to
    ``P[t]``, or when ``t`` reaches ``iterations``; else ``P[t+1]`` is the best responses
    and its ``V`` is computed. The pair returned is the measured pair of least mean
    exploitability over the scores (the last one, unless the iteration went back up)."""
    settings = solve.settings
    pair = treatise_pair(settings) if start is None else {k: np.array(start[k]) for k in KEYS}
    slots = [TARGET * x + y for x, y in solve.scores]
    value = pair_values(settings, pair, seed=solve.seed, deals=solve.v_deals(),
                        progress=progress)
    history, moved, best = [], None, None
    for t in range(int(solve.iterations) + 1):
        v = value["v"]
        new = {k: pair[k].copy() for k in KEYS}
        gains = {f"{r}_gain": np.full((SCORE_SLOTS, N_STATES), np.nan) for r in ROLES}
        per_score, deals = [], 0
        found = {role: {} for role in ROLES}
        for group in score_groups(pair, slots):
            for role in ROLES:
                r = best_rows(role, settings, pair, v, group, solve, progress,
                              seed=(solve.seed + t) % (1 << 64))
                deals += r["deals"]
                found[role].update(r["rows"])
        for i, slot in enumerate(slots):
            responses = {role: found[role][slot] for role in ROLES}
            entry = exploitability_at(settings, pair, responses, v, slot, solve)
            for role in ROLES:
                r = responses[role]
                entry[f"{role}_changed"] = changed_share(role, pair[role][slot], r[role])
                entry[f"{role}_discard_changed"] = changed_share(
                    role, pair[f"{role}_discard"][slot], r[f"{role}_discard"])
                entry[f"{role}_unresolved"] = r["unresolved"]
                new[role][slot] = r[role]
                new[f"{role}_discard"][slot] = r[f"{role}_discard"]
                gains[f"{role}_gain"][slot] = r["gain"]
            per_score.append(entry)
            if progress:
                progress(f"iteration {t}: scores", i + 1, len(slots))
        largest = max(e[k] for e in per_score for k in e if k.endswith("_changed"))
        worst = max(e["exploitability_ci95"][1] for e in per_score)
        mean = float(np.mean([e["exploitability"] for e in per_score]))
        record = {"iteration": t, "seed": (solve.seed + t) % (1 << 64),
                  "v": value["v"].tolist(),
                  "v_lo": value["lo"].tolist(), "v_hi": value["hi"].tolist(),
                  "v_moved": moved, "scores": per_score,
                  "entries_changed": sum(int((new[k] != pair[k]).sum()) for k in KEYS),
                  "largest_change": largest, "largest_upper_bound": worst,
                  "mean_exploitability": mean, "deals": deals,
                  "first_accepted": value["first_accepted"].tolist()}
        history.append(record)
        if best is None or mean < best["mean"]:
            best = {"mean": mean, "t": t, "pair": pair, "gains": gains, "value": value}
        settled = worst <= solve.exploit_tolerance and (moved is None or
                                                         moved < solve.tolerance)
        if settled or t == int(solve.iterations):
            break
        pair = new
        value_new = pair_values(settings, pair, seed=solve.seed, deals=solve.v_deals(),
                                progress=progress)
        moved = float(np.abs(value_new["v"] - value["v"]).max())
        value = value_new
    return {"pair": best["pair"], "gains": best["gains"], "v": best["value"]["v"],
            "v_lo": best["value"]["lo"], "v_hi": best["value"]["hi"],
            "value_deals": best["value"]["n"], "chosen": best["t"], "history": history,
            "first_accepted": best["value"]["first_accepted"].tolist(),
            "converged": bool(settled), "solve": solve.echo()}
