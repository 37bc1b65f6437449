"""What should one play? Best responses of the proposal game, at every score.

The first decisions of a deal — the elder's *propose* or *play* (Laws 25–26), the
dealer's *accept* or *refuse* a proposal (Law 25) — are read by canonical state
(:mod:`ecarte_sim.engine.ecarte.decisions.states`). This module measures, for every state, what
each action gives, chooses the better one at every score, and checks the choice on
deals it has never seen.

Map:

* :func:`marks_tables` — per state, the 16 × 16 joint table of the deal's marks codes
  under the two actions (:mod:`ecarte_sim.engine.ecarte.deals.action_values`: kings and Law 49's
  doubling included), against a given opponent and play model, sampled on deals
  consistent with the state with common random numbers. Deals are spent where the two
  actions are close (:class:`Sampling`): every state gets ``first`` deals, and a state
  whose gain is within ``z`` standard errors of zero at a score of interest gets twice
  as many, round after round, up to ``most``.
* :func:`marks_value`, :func:`state_gains` — the value of a marks code at a score (the
  probability of winning the game, from the continuation values ``V`` of
  :mod:`ecarte_sim.analysis.ecarte.measures.scores`) and each state's paired gain of one action
  over the other, with its standard error: scores only reweight the marks codes, so the
  whole 5 × 5 table comes from one set of marks tables.
* :func:`best_response` — the table (:mod:`ecarte_sim.engine.ecarte.decisions.tables`) of the
  better action at each of the 25 scores; a state leaves the policy it replaces only
  where the other action is better by more than ``z`` standard errors (a best response
  up to the sampling's resolution, never made worse by its noise).
* :func:`evaluate`, :func:`gains_between` — the table against the policy it replaces (or
  any two sets of tables) on **fresh deals** (``FRESH_DEALS_START`` on, never those used
  to choose it): the paired gain in the probability of winning the game and in marks per
  deal, with 95% intervals.
* :func:`discard_response` — the same for the first discard, over the discard rules of
  :data:`RULES`.
* :func:`equilibrium` — iterated best responses from the treatise at one score (the first
  decisions, and optionally the first discards), each pair's exploitability and the
  value of the game.
* :func:`marks_task` — one block of states of a marks round, the unit a run directory
  checkpoints and a cluster runs (:func:`~ecarte_sim.engine.batch.execution`).

The files of a run (Markdown, CSV, PNG, tables.npz, provenance) are written by
:mod:`ecarte_sim.analysis.reports.strategy`.

The continuation values. A deal's marks are worth what they do to the chance of
winning the game, ``V`` of the score after the deal with the roles swapped (Law 46).
``V`` is computed from whole deals played by the treatise (Hoyle's list, the maxims)
under the same play model (:func:`continuation`), so a best response here is a best
response *in this deal*, the later deals being played by the treatise. That is the
documented approximation: a consistent equilibrium would recompute ``V`` from the new
policies and iterate.

The later rounds. A best response chooses the round-0 decision; the later rounds of
the same deal (a second proposal after an exchange) are left to the policy in
``settings`` — the treatise's, or for a table policy the same table read on the new
hand (:mod:`ecarte_sim.engine.ecarte.decisions.policies`). The fresh-deal evaluation plays the
table in every round, so what it reports is what the table earns as a whole.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache, partial

import numpy as np

from ecarte_sim.analysis.ecarte.measures.paired import (NET, deal_code, game_value, mean_of,
                                                        paired_mean)
from ecarte_sim.analysis.ecarte.measures.scores import (outcome_distribution,
                                                        win_probabilities)
from ecarte_sim.analysis.ecarte.solving.situation import ACTIONS
from ecarte_sim.engine.batch import current_execution, run_task, task_key
from ecarte_sim.engine.ecarte.deals.action_values import (DEALER_DISCARD_ROLE, DEALER_ROLE,
                                                          DISCARD_DEALS_START, ELDER_DISCARD_ROLE,
                                                          ELDER_ROLE, FRESH_DEALS_START,
                                                          SOLVE_DEALS, N_MARKS, marks_block)
from ecarte_sim.engine.ecarte.deals.counts import whole_counts
from ecarte_sim.engine.ecarte.deals.experiments import (CLASSIFY_ALL, CLASSIFY_DEALER,
                                                        CLASSIFY_REGLE, N_ARM, paired_table)
from ecarte_sim.engine.ecarte.decisions.policies import DISCARD_RULES, SCORE_SLOTS, weakest
from ecarte_sim.engine.ecarte.decisions.states import (N_PAIRS, N_STATES, representatives,
                                                       state_weights)
from ecarte_sim.engine.ecarte.decisions.tables import discards, policy_script, treatise_table
from ecarte_sim.engine.ecarte.laws.score import SCORES, score_row
from ecarte_sim.engine.ecarte.settings import (DealerFirst, DealerPolicy, Discard, EcarteSettings,
                                               ElderFirst, ElderPolicy, PlayModel, name_of)
from ecarte_sim.engine.rng import check_seed

ROLES = {"elder": ELDER_ROLE, "dealer": DEALER_ROLE}
#: The kernel role of each player's first discard (``marks_block``).
DISCARD_ROLES = {"elder": ELDER_DISCARD_ROLE, "dealer": DEALER_DISCARD_ROLE}
#: First deal index of the score table behind ``V`` (the claims' own range).
CONTINUATION_START = 1 << 40
#: States per kernel call (bounds the int64 scratch; any value gives the same counts).
BATCH = 1 << 14

Progress = Callable[[str, int, int], None] | None


@dataclass(frozen=True)
class Sampling:
    """Deals per state: ``first`` for every state, then doubled while a state's gain at
    a score of interest is within ``z`` standard errors of zero, up to ``most``."""
    first: int = 64
    most: int = 4096
    z: float = 2.0

    def __post_init__(self):
        if not 2 <= int(self.first) <= int(self.most) <= SOLVE_DEALS:
            raise ValueError(f"deals per state must satisfy 2 <= first <= most <= "
                             f"{SOLVE_DEALS}, got first={self.first}, most={self.most}")
        if not float(self.z) >= 0:
            raise ValueError(f"z must be >= 0, got {self.z}")

    @classmethod
    def for_play(cls, play) -> "Sampling":
        """The default for a play model: PIMC (about 10^4 deals a second) is sampled
        16 deals a state at first and 256 at most."""
        pimc = PlayModel(play) in (PlayModel.PIMC, PlayModel.PIMC_INFERENCE)
        return cls(16, 256) if pimc else cls()


#: The marks code (``4 * king + points``) of each arm code: what a deal gave, the Law 49
#: flag folded into the points as :func:`~ecarte_sim.analysis.ecarte.measures.paired.deal_code` does.
_MARKS_OF_ARM = np.array([4 * (deal_code(c) // 5) + deal_code(c) % 5 for c in range(N_ARM)])


def _per_marks_code(per_arm: np.ndarray) -> np.ndarray:
    """A function of the arm code that depends on the marks alone, per marks code."""
    out = np.empty(N_MARKS)
    out[_MARKS_OF_ARM] = per_arm
    return out


#: The elder's marks minus the dealer's in the deal, per marks code.
MARKS_NET = _per_marks_code(NET)


def marks_value(v: np.ndarray, x: int, y: int) -> np.ndarray:
    """Per marks code: the probability that the elder, at ``x`` against the dealer's ``y``,
    wins the game after the deal (:func:`~ecarte_sim.analysis.ecarte.measures.paired.game_value`)."""
    return _per_marks_code(game_value(v, x, y))


def score_values(v: np.ndarray) -> np.ndarray:
    """(25, 16): :func:`marks_value` at every score, in table-row order."""
    return np.stack([marks_value(v, x, y) for x, y in SCORES])


def continuation(settings: EcarteSettings, seed: int = 0, deals: int | None = None) -> dict:
    """``V`` (5 × 5) from whole deals played by the treatise (Hoyle's list, the maxims)
    with the play models and variants of ``settings``; 2^20 deals (2^14 under PIMC)."""
    base = replace(settings, elder_policy=ElderPolicy.REGLE, dealer_policy=DealerPolicy.MAXIMS)
    n = deals or (1 << 14 if base.uses_pimc else 1 << 20)
    counts = whole_counts(check_seed(seed), CONTINUATION_START, CONTINUATION_START + n,
                          base.cfg())
    p, n = outcome_distribution(counts)
    return {"v": win_probabilities(p), "n": n}


def arm_cfgs(role: str, settings: EcarteSettings, x: int = 0, y: int = 0, rule=None):
    """The two arms' ``cfg`` of a role at score (x, y): arm a proposes (accepts). With a
    discard ``rule``, both arms propose and accept, and arm a throws by the rule at the
    role's first exchange where arm b follows the role's discard policy."""
    if rule is not None and role in ROLES:
        forced = dict(elder_score=x, dealer_score=y, elder_first=ElderFirst.PROPOSE,
                      dealer_first=DealerFirst.ACCEPT)
        return (settings.cfg(**forced, **{f"{role}_first_discard": Discard(int(rule))}),
                settings.cfg(**forced))
    if role == "elder":
        return (settings.cfg(elder_score=x, dealer_score=y, elder_first=ElderFirst.PROPOSE),
                settings.cfg(elder_score=x, dealer_score=y, elder_first=ElderFirst.PLAY))
    if role == "dealer":
        return tuple(settings.cfg(elder_score=x, dealer_score=y,
                                  elder_first=ElderFirst.PROPOSE, dealer_first=first)
                     for first in (DealerFirst.ACCEPT, DealerFirst.REFUSE))
    raise ValueError(f"unknown role {role!r}; choose from elder, dealer")


#: Two rules' gains closer than this are a tie (equal in exact arithmetic, apart only by
#: the summation's rounding): the rule met first in :data:`RULES` keeps the state.
TIE = 1e-12
#: Rows of marks tables converted to float at a time (bounds the scratch memory).
GAIN_CHUNK = 1 << 15


def state_gains(joint: np.ndarray, f: np.ndarray, role: str):
    """Each row's paired gain of arm a over arm b for the ``role`` (the dealer's value is
    ``1 - f``): (mean, standard error, n), NaN where n < 2. ``joint``: (rows, 16, 16);
    ``f``: one score's marks values (16,), giving (rows,) arrays, or several scores'
    (S, 16), giving (S, rows) arrays — every score from one pass over the tables."""
    f = np.asarray(f, dtype=np.float64)
    one = f.ndim == 1
    sign = 1.0 if role == "elder" else -1.0
    d = sign * (np.atleast_2d(f)[:, :, None] - np.atleast_2d(f)[:, None, :]).reshape(
        -1, N_MARKS * N_MARKS).T                                    # (256, S)
    d2 = d * d
    rows = joint.shape[0]
    flat = joint.reshape(rows, -1)
    n = flat.sum(axis=1, dtype=np.int64)
    total = np.empty((rows, d.shape[1]))
    squares = np.empty((rows, d.shape[1]))
    for lo in range(0, rows, GAIN_CHUNK):
        counts = flat[lo:lo + GAIN_CHUNK].astype(np.float64)
        total[lo:lo + GAIN_CHUNK] = counts @ d
        squares[lo:lo + GAIN_CHUNK] = counts @ d2
    nf = n.astype(np.float64)[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / nf
        second = squares / nf
        var = np.maximum(second - mean * mean, 0.0) * nf / (nf - 1)
        se = np.sqrt(var / nf)
    mean[n == 0] = np.nan
    se[n < 2] = np.nan
    mean, se = mean.T, se.T
    return (mean[0], se[0], n) if one else (mean, se, n)


@dataclass
class MarksTables:
    """Per state, the joint counts of the marks codes under arm a and arm b."""
    role: str
    joint: np.ndarray        # (N_STATES, 16, 16) int32
    deals: np.ndarray        # (N_STATES,) deals played per state
    attempts: np.ndarray     # elder hands drawn (dealer role), per state
    missed: np.ndarray       # deals where no drawn elder hand proposed
    rounds: list             # (states run, deals) per round of the schedule
    sampling: Sampling       # the schedule that ran
    rule: int | None = None  # arm a's discard rule (None: the first decision's tables)


#: A state's row in a marks task's counts: the 16 × 16 joint marks codes, the elder
#: hands drawn, the deals where none proposed.
MARKS_ROW = N_MARKS * N_MARKS + 2


def marks_task(seed: int, kernel_role: int, run: np.ndarray, done: np.ndarray, hi: int,
               cfg_a: np.ndarray, cfg_b: np.ndarray, script: np.ndarray, batch: int,
               lo: int, count: int, rows: int) -> np.ndarray:
    """One task of a round of :func:`marks_tables` (a pure function of its arguments, so
    that it can be checkpointed and sent to a cluster like the deal tasks of
    :func:`~ecarte_sim.engine.batch.reduce_counts`): the states ``run[lo:lo + count]``,
    each from its ``done`` deals to ``hi``. Returns (1, batch * MARKS_ROW) int64: the
    states' rows (:data:`MARKS_ROW`) one after another, zeros after them (``batch``: the
    states of a full block)."""
    part = run[lo:lo + count]
    hands, turn_ups = representatives()
    out = np.zeros((count, N_MARKS * N_MARKS), dtype=np.int64)
    att = np.zeros(count, dtype=np.int64)
    mis = np.zeros(count, dtype=np.int64)
    marks_block(np.uint64(seed), kernel_role, hands[part].astype(np.int64), turn_ups[part],
                part, True, done[lo:lo + count], np.full(count, hi, dtype=np.int64),
                cfg_a, cfg_b, script, out, att, mis)
    counts = np.zeros((1, batch * MARKS_ROW), dtype=np.int64)
    counts[0, :count * MARKS_ROW] = np.concatenate([out, att[:, None], mis[:, None]],
                                                   axis=1).ravel()
    return counts


def run_blocks(task, states: int, width: int):
    """``(lo, hi, counts)`` of each block of ``BATCH`` states of a marks round, as the
    current :func:`~ecarte_sim.engine.batch.execution` says: a block already in its run
    directory is loaded, the others run here or on its cluster (in any order) and are
    saved compressed (mostly zeros)."""
    ex = current_execution()
    key = task_key(task, width) if ex.store is not None else None
    pending = []
    for lo in range(0, states, BATCH):
        hi = min(lo + BATCH, states)
        finished = ex.store.load(key, lo, hi, width) if key is not None else None
        if finished is None:
            pending.append((lo, hi))
        else:
            yield lo, hi, finished
    if ex.backend is None:
        results = ((lo, hi, run_task(task, lo, hi, BATCH, width)) for lo, hi in pending)
    else:
        results = ex.backend.map(task, iter(pending), BATCH, width)
    for lo, hi, counts in results:
        if key is not None:
            ex.store.save(key, lo, hi, counts, compressed=True)
        yield lo, hi, counts


def marks_tables(role: str, settings: EcarteSettings, script: np.ndarray, *, v: np.ndarray,
                 seed: int = 0, sampling: Sampling | None = None,
                 slots: tuple[int, ...] | None = None, states: np.ndarray | None = None,
                 progress: Progress = None, rule=None) -> MarksTables:
    """The marks tables of every state (or of ``states``) for ``role``, the opponent and
    the later rounds as ``settings`` and ``script`` say. The schedule doubles the deals of
    a state while its gain at one of ``slots`` (default: all 25 scores) is undecided.
    With a discard ``rule``, the role's first discard: arm a throws by ``rule``, arm b by
    the role's discard policy, both at an exchange (:func:`arm_cfgs`)."""
    seed = check_seed(seed)
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; choose from elder, dealer")
    sampling = sampling or Sampling.for_play(settings.elder_play)
    slots = tuple(range(SCORE_SLOTS)) if slots is None else tuple(slots)
    cfg_a, cfg_b = arm_cfgs(role, settings, rule=rule)
    kernel_role = ROLES[role] if rule is None else DISCARD_ROLES[role]
    label = role if rule is None else f"{role} {name_of(Discard(rule))}"
    ids = np.arange(N_STATES, dtype=np.int64) if states is None else \
        np.asarray(states, dtype=np.int64)
    joint = np.zeros((N_STATES, N_MARKS, N_MARKS), dtype=np.int32)
    deals = np.zeros(N_STATES, dtype=np.int64)
    attempts = np.zeros(N_STATES, dtype=np.int64)
    missed = np.zeros(N_STATES, dtype=np.int64)
    fs = score_values(v)[list(slots)]
    run, hi, rounds = ids, int(sampling.first), []
    while run.size:
        width = BATCH * MARKS_ROW
        task = partial(marks_task, seed, kernel_role, run, deals[run], hi, cfg_a, cfg_b,
                       script, BATCH)
        done = 0
        for lo, hi_b, counts in run_blocks(task, run.size, width):
            n = hi_b - lo
            done += n
            block = counts[:n * MARKS_ROW].reshape(n, MARKS_ROW)
            part = run[lo:hi_b]
            joint[part] += block[:, :N_MARKS * N_MARKS].reshape(-1, N_MARKS, N_MARKS
                                                                ).astype(np.int32)
            attempts[part] += block[:, -2]
            missed[part] += block[:, -1]
            if progress:
                progress(f"{label} round {len(rounds) + 1}", done, run.size)
        deals[run] = hi
        rounds.append((int(run.size), hi))
        if hi >= sampling.most:
            break
        mean, se, _ = state_gains(joint[run], fs, role)
        undecided = ((se > 0) & (np.abs(mean) < sampling.z * se)).any(axis=0)
        run = run[undecided]
        hi = min(2 * hi, int(sampling.most))
    return MarksTables(role, joint, deals, attempts, missed, rounds, sampling,
                       None if rule is None else int(rule))


def best_response(tables: MarksTables, v: np.ndarray, replaced: np.ndarray,
                  z: float = 2.0, rows: tuple[int, ...] | None = None) -> dict:
    """The better action of every state at every score: a (25, N_STATES) bool table (True =
    arm a, propose or accept), with the estimated gain of arm a and its standard error
    per state and score. A state leaves the ``replaced`` table's action only where the
    other action is better by more than ``z`` standard errors: where the deals cannot
    tell the two apart (equal marks on every deal, a state never reached, a gain still
    within the noise after the most deals) the replaced policy's choice stands, so the
    sampling noise cannot make the table worse than what it replaces. ``rows``: choose
    only at these scores (table-row indices), the others keeping ``replaced`` (gain and
    error NaN there)."""
    replaced = np.broadcast_to(np.asarray(replaced, dtype=bool), (SCORE_SLOTS, N_STATES))
    rows = list(range(SCORE_SLOTS)) if rows is None else list(rows)
    table = replaced.copy()
    gain = np.full((SCORE_SLOTS, N_STATES), np.nan)
    se = np.full((SCORE_SLOTS, N_STATES), np.nan)
    gain[rows], se[rows], _ = state_gains(tables.joint, score_values(v)[rows], tables.role)
    with np.errstate(invalid="ignore"):
        clear = np.abs(gain[rows]) > z * se[rows]
    table[rows] = np.where(clear, gain[rows] > 0, replaced[rows])
    return {"table": table, "gain": gain, "se": se}


def treatise_tables(settings: EcarteSettings) -> dict:
    """The tables of the settings' treatise policies (True = propose / accept)."""
    return {"elder": treatise_table("elder", settings.elder_policy, settings.threshold),
            "dealer": treatise_table("dealer", settings.dealer_policy)}


def agreement(role: str, table: np.ndarray, other: np.ndarray,
              tables: MarksTables | None = None) -> float:
    """The share of dealt hands (weighted by how often each state is dealt; for the
    dealer, also by the estimated chance of a proposal) on which two tables agree."""
    w = dealt_weights(role, tables)
    return float(w[table == other].sum() / w.sum())


def dealt_weights(role: str, tables: MarksTables | None = None) -> np.ndarray:
    """Each state's share of dealt hands; for the dealer with his marks tables, times the
    estimated chance that the elder proposes (the hands he has to answer)."""
    w = state_weights().astype(np.float64) / N_PAIRS
    if role == "dealer" and tables is not None:
        with np.errstate(invalid="ignore", divide="ignore"):
            w = w * np.where(tables.attempts > 0, tables.deals / tables.attempts, 0.0)
    return w


def evaluate(role: str, settings: EcarteSettings, table: np.ndarray, replaced,
             opponent: np.ndarray | None, v: np.ndarray, *, seed: int = 0,
             deals: int = 1 << 20, scores: tuple[tuple[int, int], ...] = SCORES,
             first: int = FRESH_DEALS_START, progress: Progress = None,
             discard: bool = False, tables: dict | None = None,
             keep: dict | None = None) -> list[dict]:
    """The ``role``'s ``table`` (25 rows or one) against what it ``replaced`` (None: the
    policy in ``settings``; or a table) on fresh deals ``[first, first + deals)`` — the
    opponent plays ``settings``' policy, or its ``opponent`` table. Per score, the paired
    gain of the table in the role's probability of winning the game and in the role's
    marks per deal (his marks less the other's), with 95% intervals. ``discard``: the
    tables are the role's discard tables; ``tables`` (``reading_tables``'s keywords) gives
    the other tables both arms read; ``keep``: a dict that receives each score's paired
    joint table (for :func:`by_rule`, which splits the same deals)."""
    other = "dealer" if role == "elder" else "elder"
    own = f"{role}_discard" if discard else role
    common = {other: opponent, **(tables or {})}
    # None: the role plays the policy in ``settings`` (its table, left out, is not read)
    return gains_between(role, settings, {**common, own: table}, {**common, own: replaced},
                         v, seed=seed, deals=deals, scores=scores, first=first,
                         progress=progress, keep=keep)


def gains_between(role: str, settings: EcarteSettings, a: dict, b: dict, v: np.ndarray, *,
                  seed: int = 0, deals: int = 1 << 20,
                  scores: tuple[tuple[int, int], ...] = SCORES, first: int = FRESH_DEALS_START,
                  progress: Progress = None, keep: dict | None = None) -> list[dict]:
    """Two sets of tables (``reading_tables``'s keywords; a table left out or None: the policy
    in ``settings``) played on the same fresh deals ``[first, first + deals)``: per
    score, the ``role``'s paired gain of ``a`` over ``b`` in his probability of winning
    the game and in his marks per deal (his less the other's), with 95% intervals."""
    if first < FRESH_DEALS_START or first + deals > DISCARD_DEALS_START:
        raise ValueError("fresh deals lie in [2^42, 3 * 2^41), apart from the deals that "
                         "chose the table")
    sign = 1.0 if role == "elder" else -1.0
    arm_a, script_a = reading_tables(settings, **a)
    arm_b, script_b = reading_tables(settings, **b)
    out = []
    for i, (x, y) in enumerate(scores):
        joint = paired_table(seed, first, first + deals,
                             arm_a.cfg(elder_score=x, dealer_score=y),
                             arm_b.cfg(elder_score=x, dealer_score=y), CLASSIFY_ALL,
                             script=script_a, script_b=script_b)[0]
        if keep is not None:
            keep[(x, y)] = joint
        f = sign * game_value(v, x, y)
        net = sign * NET.astype(float)
        win = paired_mean(joint, f)
        marks = paired_mean(joint, net)
        out.append({"score": f"{x}-{y}", "elder_score": x, "dealer_score": y,
                    "n": win["n"], "gain_win": win["mean"], "gain_win_ci95": win["ci95"],
                    "gain_marks": marks["mean"], "gain_marks_ci95": marks["ci95"]})
        if progress:
            progress(f"{role}: fresh deals", i + 1, len(scores))
    return out


def reading_tables(settings: EcarteSettings, elder=None, dealer=None, elder_discard=None,
                   dealer_discard=None, later: dict | None = None):
    """Settings and script in which a player given a table (a decision table, a discard
    table) reads it (later rounds too: the same table on the new hand, or the ``later``
    tables, by the keys of :data:`~ecarte_sim.engine.ecarte.decisions.tables.LATER_KEYS`,
    where given); a player without one plays his policy in ``settings``."""
    if elder is not None:
        settings = replace(settings, elder_policy=ElderPolicy.TABLE)
    if dealer is not None:
        settings = replace(settings, dealer_policy=DealerPolicy.TABLE)
    if elder_discard is not None:
        settings = replace(settings, elder_discard=Discard.TABLE)
    if dealer_discard is not None:
        settings = replace(settings, dealer_discard=Discard.TABLE)
    return settings, policy_script(elder=elder, dealer=dealer, elder_discard=elder_discard,
                                   dealer_discard=dealer_discard, later=later)


def respond(role: str, settings: EcarteSettings, v: np.ndarray, *, own=None, opponent=None,
            tables: dict | None = None, seed: int = 0, sampling: Sampling | None = None,
            slots: tuple[int, ...] | None = None, progress: Progress = None,
            rows: tuple[int, ...] | None = None) -> dict:
    """The ``role``'s best response (all 25 scores) to the opponent's table (None: the
    policy in ``settings``), his own later rounds read from ``own`` (None: his policy in
    ``settings``); ``tables``: the discard tables both players read (``reading_tables``'s
    keywords; None: the discard policies in ``settings``). Returns the marks tables, the
    table and the per-state gains (``rows``: at these scores only, as
    :func:`best_response`)."""
    run, script = reading_tables(settings, **(tables or {}), **{
        role: own, ("dealer" if role == "elder" else "elder"): opponent})
    marks = marks_tables(role, run, script, v=v, seed=seed, sampling=sampling, slots=slots,
                         progress=progress)
    if own is None:
        own = treatise_tables(settings)[role]
    return {"marks": marks, **best_response(marks, v, own, marks.sampling.z, rows)}


#: The discard rules a player may choose at his first exchange (``Discard`` values).
RULES = tuple(int(r) for r in DISCARD_RULES)


def thrown(role: str, policy, script: np.ndarray | None = None, hands=None,
           turn_ups=None) -> np.ndarray:
    """The cards (uint32 masks) the ``role`` throws at his first exchange on each state's
    representative (or on ``hands`` with ``turn_ups``) under a discard policy: the elder
    who would keep all five throws his weakest (Law 27). Two rules with the same cards on
    a state are the same action."""
    if hands is None:
        hands, turn_ups = representatives()
    out = discards(role, policy, hands, turn_ups, script)
    if role == "elder":
        for i in np.flatnonzero(out == 0):
            out[i] = weakest(np.uint32(hands[i]), 1, int(turn_ups[i]) >> 3)
    return out


def discard_response(role: str, settings: EcarteSettings, v: np.ndarray, *, own=None,
                     tables: dict | None = None, seed: int = 0,
                     sampling: Sampling | None = None,
                     slots: tuple[int, ...] | None = None, states: np.ndarray | None = None,
                     progress: Progress = None, rows: tuple[int, ...] | None = None) -> dict:
    """The ``role``'s best first discard at every state (or at ``states``) and score,
    against the tables
    (``reading_tables``'s keywords, decision tables of either player; None: the policies in
    ``settings``), his own discard read from ``own`` (one row of ``Discard`` values;
    None: his discard policy in ``settings``) in the arm it is measured against and in
    later exchanges.

    Every rule of :data:`RULES` that throws other cards than ``own`` on a state is
    played against it on the same deals (:func:`marks_tables` with the rule, deals
    doubled where the two are close); a state takes the rule with the largest gain
    among those better than its own discard by more than ``z`` standard errors (on a tie,
    :data:`TIE`, the rule first in :data:`RULES`), and keeps its own discard where none
    is. ``rows``: choose only at these scores (table-row indices), the others keeping
    ``own``. Returns the (25, N_STATES) table of ``Discard`` values, each state's gain
    over ``own`` (0 where kept) and the marks tables by rule.
    """
    tables = dict(tables or {})
    run, script = reading_tables(settings, **tables, **{f"{role}_discard": own})
    policy = getattr(run, f"{role}_discard")
    base = thrown(role, policy, script)
    own_rule = (np.full(N_STATES, int(policy), dtype=np.int64) if own is None
                else np.asarray(own, dtype=np.int64))
    if own_rule.shape != (N_STATES,):
        raise ValueError(f"the own discard table must have shape ({N_STATES},)")
    sampling = sampling or Sampling.for_play(settings.elder_play)
    table = np.broadcast_to(own_rule, (SCORE_SLOTS, N_STATES)).copy()
    gain = np.zeros((SCORE_SLOTS, N_STATES))
    se = np.zeros((SCORE_SLOTS, N_STATES))
    marks = {}
    rows = list(range(SCORE_SLOTS)) if rows is None else list(rows)
    fs = score_values(v)[rows]
    among = np.ones(N_STATES, dtype=bool)
    if states is not None:
        among[:] = False
        among[np.asarray(states, dtype=np.int64)] = True
    for rule in RULES:
        ids = np.flatnonzero((_thrown_by_rule(role, rule) != base) & among)
        if ids.size == 0:
            continue
        m = marks_tables(role, run, script, v=v, seed=seed, sampling=sampling, slots=slots,
                         states=ids, progress=progress, rule=rule)
        marks[rule] = m
        means, errs, _ = state_gains(m.joint[ids], fs, role)
        for s, mean, err in zip(rows, means, errs):
            with np.errstate(invalid="ignore"):
                better = (mean > sampling.z * err) & (mean > gain[s, ids] + TIE)
            pick = ids[better]
            table[s, pick] = rule
            gain[s, pick] = mean[better]
            se[s, pick] = err[better]
    return {"table": table, "gain": gain, "se": se, "marks": marks, "own": own_rule,
            "deals": int(sum(m.deals.sum() for m in marks.values()))}


def discard_agreement(role: str, table: np.ndarray, other) -> float:
    """The share of dealt hands (weighted by how often each state is dealt) on which two
    discard tables (or rules) throw the same cards at the first exchange."""
    w = state_weights().astype(np.float64)
    return float(w[_thrown_by(role, table) == _thrown_by(role, other)].sum() / w.sum())


@cache
def _thrown_by_rule(role: str, rule: int) -> np.ndarray:
    out = thrown(role, Discard(rule))
    out.flags.writeable = False
    return out


def _thrown_by(role: str, table) -> np.ndarray:
    table = np.asarray(table)
    if table.ndim == 0:
        return _thrown_by_rule(role, int(table))
    out = np.zeros(N_STATES, dtype=np.uint32)
    for rule in np.unique(table):
        sel = table == rule
        out[sel] = _thrown_by_rule(role, int(rule))[sel]
    return out


def cards_thrown(role: str, table: np.ndarray) -> np.ndarray:
    """Per state, how many cards a discard table (or rule) throws at the first exchange."""
    masks = np.ascontiguousarray(_thrown_by(role, table), dtype=np.uint32)
    return np.unpackbits(masks.view(np.uint8)).reshape(-1, 32).sum(axis=1)


def _share(role: str, table: np.ndarray, marks: MarksTables | None) -> float:
    """The share of dealt hands (as :func:`agreement` weighs them) where ``table`` says
    propose (elder) or accept (dealer)."""
    return agreement(role, table, np.ones(N_STATES, dtype=bool), marks)


def against_treatise(settings: EcarteSettings, *, roles=("elder", "dealer"),
                     scores=((0, 0),), seed: int = 0, sampling: Sampling | None = None,
                     fresh_deals: int | None = None, progress: Progress = None,
                     decisions=("first",)) -> dict:
    """Item by item, each role's best response to the other's treatise policy (Hoyle's
    list, the maxims) at ``scores``, and what it gains over the treatise policy it
    replaces on fresh deals. ``decisions``: ``first`` (propose/play, accept/refuse)
    and/or ``discard`` (the first discard, both players' first decisions the
    treatise's), reported under the keys ``elder``, ``dealer``, ``elder-discard`` and
    ``dealer-discard``."""
    cont = continuation(settings, seed)
    v = cont["v"]
    treatise = treatise_tables(settings)
    fresh = fresh_deals or (1 << 14 if settings.uses_pimc else 1 << 20)
    slots = tuple(score_row(x, y) for x, y in scores)
    out = {}
    for role in roles if "first" in decisions else ():
        br = respond(role, settings, v, seed=seed, sampling=sampling, slots=slots,
                     progress=progress)
        joints = {}
        rows = evaluate(role, settings, br["table"], None, None, v, seed=seed, deals=fresh,
                        scores=tuple(scores), progress=progress, keep=joints)
        for row, slot in zip(rows, slots):
            row["agreement"] = agreement(role, br["table"][slot], treatise[role], br["marks"])
            row[f"{ACTIONS[role][0]}_share"] = _share(role, br["table"][slot], br["marks"])
            row[f"treatise_{ACTIONS[role][0]}_share"] = _share(role, treatise[role],
                                                               br["marks"])
        # the rules are the treatise's own only when the policy replaced is the treatise's
        hoyle = (settings.elder_policy == ElderPolicy.REGLE if role == "elder"
                 else settings.dealer_policy == DealerPolicy.MAXIMS)
        rules = [r for x, y in scores if hoyle
                 for r in by_rule(role, settings, br["table"], v, (x, y), seed=seed,
                                  deals=fresh, marks=br["marks"], total=joints[(x, y)])]
        out[role] = {"replaces": (settings.elder_policy if role == "elder"
                                  else settings.dealer_policy).name.lower(),
                     "rows": rows, "table": br["table"], "gain": br["gain"], "se": br["se"],
                     "deals": int(br["marks"].deals.sum()), "rounds": br["marks"].rounds,
                     "by_rule": rules}
    for role in roles if "discard" in decisions else ():
        br = discard_response(role, settings, v, seed=seed, sampling=sampling, slots=slots,
                              progress=progress)
        rows = evaluate(role, settings, br["table"], None, None, v, seed=seed, deals=fresh,
                        scores=tuple(scores), progress=progress, discard=True)
        replaced = getattr(settings, f"{role}_discard")
        for row, slot in zip(rows, slots):
            row["agreement"] = discard_agreement(role, br["table"][slot], int(replaced))
            row["cards_thrown"] = _mean_dealt(cards_thrown(role, br["table"][slot]))
            row["treatise_cards_thrown"] = _mean_dealt(cards_thrown(role, int(replaced)))
        out[f"{role}-discard"] = {"replaces": name_of(replaced), "rows": rows,
                                  "table": br["table"], "gain": br["gain"], "se": br["se"],
                                  "deals": br["deals"],
                                  "rounds": {name_of(Discard(r)): m.rounds
                                             for r, m in br["marks"].items()}}
    for key, data in out.items():
        role = key.split("-")[0]
        own = (treatise[role] if key == role
               else np.full(N_STATES, int(getattr(settings, f"{role}_discard"))))
        data["readable"] = _readable(key, data, own, settings, v, scores, fresh, seed,
                                     progress)
    return {"v": v, "continuation_deals": cont["n"], "fresh_deals": fresh, "roles": out,
            "scores": [f"{x}-{y}" for x, y in scores]}


def _readable(key: str, data: dict, treatise: np.ndarray, settings: EcarteSettings,
              v: np.ndarray, scores, fresh: int, seed: int, progress: Progress) -> dict:
    """Item 6a for one computed table: at each score its short list in the treatise's
    terms (:mod:`ecarte_sim.analysis.ecarte.solving.readable`), the share it reproduces, what it
    loses against the full table on fresh deals, and the hands where the treatise and
    the table part with the largest gain; the list's sentences at the first score and,
    at the others, the classes that change."""
    from ecarte_sim.analysis.ecarte.solving import readable as rd

    role = key.split("-")[0]
    discard = key.endswith("-discard")
    feats = rd.features()
    table = np.asarray(data["table"])
    short = table.copy()
    per_score, first = [], None
    for (x, y) in scores:
        slot = score_row(x, y)
        classes, reproduced = rd.short_list(table[slot], feats=feats)
        short[slot] = rd.short_table(classes, feats=feats).astype(table.dtype)
        worst = rd.disagreements(role, table[slot], treatise, data["gain"][slot],
                                 data["se"][slot])
        entry = {"score": f"{x}-{y}", "reproduced": reproduced, "classes": len(classes),
                 "disagreements": [{k: (v.item() if hasattr(v, "item") else v)
                                    for k, v in r.items()}
                                   for r in worst.to_dict(orient="records")]}
        if first is None:
            first = classes
            entry["lines"] = rd.short_list_lines(classes, role)
        else:
            changed = classes[classes["choice"].to_numpy() != first["choice"].to_numpy()]
            entry["changes"] = rd.short_list_lines(changed, role)
        per_score.append(entry)
    loss = evaluate(role, settings, short, table, None, v, seed=seed, deals=fresh,
                    scores=tuple(scores), progress=progress, discard=discard)
    for entry, row in zip(per_score, loss):
        entry["short_minus_full"] = row["gain_win"]
        entry["short_minus_full_ci95"] = row["gain_win_ci95"]
        entry["short_minus_full_marks"] = row["gain_marks"]
        entry["n"] = row["n"]
    return {"terms": list(rd.SHORT_TERMS), "scores": per_score}


def by_rule(role: str, settings: EcarteSettings, table: np.ndarray, v: np.ndarray,
            score=(0, 0), *, seed: int = 0, deals: int = 1 << 20,
            marks: MarksTables | None = None, total: np.ndarray | None = None
            ) -> list[dict]:
    """Each rule of the treatise beside the best response ``table`` (25 rows or one) at
    ``score``: for the elder each rule of Hoyle's list (and the hands it does not name,
    where it says propose), for the dealer each maxim case. Per rule: what the treatise
    says, the share of the rule's dealt hands on which the table agrees (states weighed
    as :func:`agreement` weighs them), and the paired gain of the table over the treatise
    on the fresh deals of :func:`evaluate` whose hand falls under the rule (the elder's
    dealt hand; the dealer's, on deals with a proposal), with its 95% interval and the
    rule's share of those deals. The gains are the role's own. ``total``: the paired
    joint table :func:`evaluate` found on the same deals (``keep``), which the elder's
    hands off the list are read from instead of playing the deals again."""
    from ecarte_sim.analysis.ecarte.text.reasons import MAXIM_WORDS
    from ecarte_sim.engine.ecarte.decisions.policies import MAXIM_ACCEPTS, MAXIM_CASES, maxim_case
    from ecarte_sim.engine.ecarte.decisions.regle import RULE_WORDS, RULES
    from ecarte_sim.engine.ecarte.decisions.regle_kernel import regle_rule

    x, y = score
    table = np.broadcast_to(np.asarray(table, dtype=bool),
                            (SCORE_SLOTS, N_STATES))[score_row(x, y)]
    sign = 1.0 if role == "elder" else -1.0
    arm_a, script_a = reading_tables(settings, **{role: table})
    arm_b, script_b = reading_tables(settings)
    cfg_a = arm_a.cfg(elder_score=x, dealer_score=y)
    cfg_b = arm_b.cfg(elder_score=x, dealer_score=y)
    first = FRESH_DEALS_START

    def joint(classifier):
        return paired_table(seed, first, first + deals, cfg_a, cfg_b, classifier,
                            script=script_a, script_b=script_b)

    hands, turn_ups = representatives()
    treatise = treatise_tables(settings)[role]
    w = dealt_weights(role, marks)
    if role == "elder":
        rules = np.array([regle_rule(np.uint32(h), int(t) >> 3) for h, t in
                          zip(hands, turn_ups)])
        per = joint(CLASSIFY_REGLE)
        classes = {r: per[r] + per[r + 8] for r in range(1, 8)}
        everything = joint(CLASSIFY_ALL)[0] if total is None else total
        classes[0] = everything - sum(classes.values())
        names = {0: ("not on the list", "(hands the list does not name: propose)",
                     "propose")}
        names.update({r: (RULES[r - 1], RULE_WORDS[r - 1], "play") for r in range(1, 8)})
        order = list(range(1, 8)) + [0]
    else:
        rules = np.array([maxim_case(np.uint32(h), int(t) >> 3) for h, t in
                          zip(hands, turn_ups)])
        per = joint(CLASSIFY_DEALER)
        classes = {c: per[c] for c in range(1, 8)}
        names = {c: (MAXIM_CASES[c - 1],
                     MAXIM_WORDS[MAXIM_CASES[c - 1]][0] if MAXIM_CASES[c - 1] in MAXIM_WORDS
                     else "(no maxim speaks: refuse iff a jeu de règle, else accept)",
                     "accept" if MAXIM_ACCEPTS[c - 1] else "refuse") for c in range(1, 8)}
        order = list(range(1, 8))
    total = sum(int(classes[c].sum()) for c in order)
    f = sign * game_value(v, x, y)
    net = sign * NET.astype(float)
    out = []
    for c in order:
        sel = rules == c
        agree = float(w[sel & (table == treatise)].sum() / w[sel].sum()) if w[sel].sum() \
            else float("nan")
        win = paired_mean(classes[c], f)
        gained = paired_mean(classes[c], net)
        rule, words, says = names[c]
        out.append({"role": role, "score": f"{x}-{y}", "rule": rule, "words": words,
                    "treatise_says": says,
                    "agreement": agree, "gain_win": win["mean"],
                    "gain_win_ci95": win["ci95"], "gain_marks": gained["mean"],
                    "gain_marks_ci95": gained["ci95"], "n": win["n"],
                    "share_of_deals": win["n"] / total if total else float("nan")})
    return out


def _mean_dealt(per_state: np.ndarray) -> float:
    """The mean of a per-state quantity over dealt hands (each state by its weight)."""
    w = state_weights().astype(np.float64)
    return float((np.asarray(per_state) * w).sum() / w.sum())


def equilibrium(settings: EcarteSettings, *, score=(0, 0), iterations: int = 3,
                seed: int = 0, sampling: Sampling | None = None,
                fresh_deals: int | None = None, progress: Progress = None,
                decisions=("first",)) -> dict:
    """Iterated best responses at one score, starting from the treatise (Hoyle's list, the
    maxims, the settings' discard rule) written as tables: at step t the elder answers
    the dealer's tables (``E[t+1] = BR(D[t])``), then the dealer answers that
    (``D[t+1] = BR(E[t+1])``). ``decisions``: ``("first",)`` iterates the first decisions
    (propose or play, accept or refuse), the discards staying the settings' rule;
    ``("first", "discard")`` iterates each player's first discard too: a player's best
    response is then his best first decision against the other's tables, followed by his
    best first discard given that decision (one pass of coordinate ascent over his two
    decisions, not a joint search).

    The *exploitability* of each pair ``(E[t], D[t])`` — what a best-responding opponent
    gains, summed over both sides, in the probability of winning the game — is measured
    on fresh deals: the elder's term with the next step's ``BR(D[t])``, the dealer's with
    a best response to ``E[t]`` computed again on deals of another seed (so that the
    dealer's term is measured, not assumed zero). Each best response leaves a state's
    action only where the other is better by more than ``z`` standard errors, so the
    exploitability found is a lower bound at the sampling's resolution. Returns the
    steps, the final tables and the value of the game at ``score``: the elder's
    probability of winning under the last pair."""
    x, y = score
    slot = score_row(x, y)
    cont = continuation(settings, seed)
    v = cont["v"]
    fresh = fresh_deals or (1 << 14 if settings.uses_pimc else 1 << 20)
    t0 = treatise_tables(settings)
    with_discards = "discard" in decisions
    pair = {"elder": t0["elder"], "dealer": t0["dealer"]}
    if with_discards:       # None: the settings' rule, until a best response replaces it
        pair.update(elder_discard=None, dealer_discard=None)
    steps = []

    def best(role, s):
        """The role's best response to ``pair`` on deals of seed ``s``: his tables."""
        other = "dealer" if role == "elder" else "elder"
        discard_tables = {k: t for k, t in pair.items() if k.endswith("_discard")}
        first = respond(role, settings, v, own=pair[role], opponent=pair[other],
                        tables=discard_tables, seed=s, sampling=sampling, slots=(slot,),
                        progress=progress, rows=(slot,))
        mine = {role: first["table"][slot]}
        if with_discards:
            key = f"{role}_discard"
            rest = {k: t for k, t in pair.items() if k != key}
            d = discard_response(role, settings, v, own=pair[key],
                                 tables={**rest, **mine}, seed=s, sampling=sampling,
                                 slots=(slot,), progress=progress, rows=(slot,))
            mine[key] = d["table"][slot]
        return mine, first["marks"]

    def gain_of(role, mine):
        return gains_between(role, settings, {**pair, **mine}, pair, v, seed=seed,
                             deals=fresh, scores=(score,))[0]

    for t in range(iterations + 1):
        e_best, _ = best("elder", seed)
        d_best, d_marks = best("dealer", seed + 1 + t)
        g_e = gain_of("elder", e_best)
        g_d = gain_of("dealer", d_best)
        run, script = reading_tables(settings, **pair)
        cfg = run.cfg(elder_score=x, dealer_score=y)
        joint = paired_table(seed, FRESH_DEALS_START, FRESH_DEALS_START + fresh, cfg, cfg,
                             CLASSIFY_ALL, script=script)[0]
        value = mean_of(joint.sum(axis=1), game_value(v, x, y))
        step = {
            "step": t,
            "elder_propose_share": _share("elder", pair["elder"], None),
            "dealer_accept_share": _share("dealer", pair["dealer"], d_marks),
            "elder_gain": g_e["gain_win"], "elder_gain_ci95": g_e["gain_win_ci95"],
            "dealer_gain": g_d["gain_win"], "dealer_gain_ci95": g_d["gain_win_ci95"],
            "exploitability": g_e["gain_win"] + g_d["gain_win"],
            "exploitability_ci95": [g_e["gain_win_ci95"][0] + g_d["gain_win_ci95"][0],
                                    g_e["gain_win_ci95"][1] + g_d["gain_win_ci95"][1]],
            "elder_value": value["mean"], "elder_value_ci95": value["ci95"],
            "n": g_e["n"]}
        if with_discards:
            for role in ROLES:
                rule = getattr(settings, f"{role}_discard")
                mine = pair[f"{role}_discard"]
                step[f"{role}_discard_agreement"] = discard_agreement(
                    role, int(rule) if mine is None else mine, int(rule))
                step[f"{role}_cards_thrown"] = _mean_dealt(
                    cards_thrown(role, int(rule) if mine is None else mine))
        steps.append(step)
        if progress:
            progress("equilibrium steps", t + 1, iterations + 1)
        if t == iterations:
            break
        pair.update(e_best)
        pair.update(best("dealer", seed)[0])
    tables = {k: (np.full(N_STATES, int(getattr(settings, k)), dtype=np.int64) if t is None
                  else t) for k, t in pair.items()}
    return {"v": v, "continuation_deals": cont["n"], "fresh_deals": fresh,
            "score": f"{x}-{y}", "decisions": list(decisions), "steps": steps,
            "tables": tables}


__all__ = ["gains_between", "reading_tables", "against_treatise", "equilibrium", "respond", "Sampling", "MarksTables", "marks_tables", "marks_value", "score_values",
           "state_gains", "best_response", "evaluate", "continuation", "treatise_tables",
           "agreement", "dealt_weights", "arm_cfgs", "ROLES", "ACTIONS", "SCORES", "MARKS_NET", "RULES",
           "DISCARD_ROLES", "thrown", "discard_response", "discard_agreement",
           "cards_thrown"]
