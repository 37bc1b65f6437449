"""Five up solved: :func:`equilibrium` (both players' first decisions and discards at
every score), :func:`every_decision` (the rest of a deal: later proposals, answers and
discards) and :func:`audit` (the shipped strategy checked hand by hand) — the front door
of ``ecarte-sim equilibrium``, ``every-decision`` and ``audit``. Their settings are the
library's frozen dataclasses, re-exported here: :class:`SolveSettings`,
:class:`EverySettings`, :class:`AuditSettings` and the deals a state is sampled on,
:class:`Sampling`. A solve takes hours; the examples that run one are marked to skip,
the others run.

>>> Sampling(4, 8).most, default_sampling(EcarteSettings.build(play="pimc")).first
(8, 16)
>>> len(draw_states(3, seed=0))
3
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field

from ecarte_sim.analysis.ecarte.advice.audit import DEFAULT_SCORES, AuditSettings
from ecarte_sim.analysis.ecarte.solving.equilibrium import SolveSettings
from ecarte_sim.analysis.ecarte.solving.every_decision import EverySettings
from ecarte_sim.analysis.ecarte.solving.proposal_game import Sampling
from ecarte_sim.analysis.ecarte.solving.solved import Solved
from ecarte_sim.engine.ecarte.decisions.states import N_STATES
from ecarte_sim.engine.ecarte.settings import EcarteSettings

__all__ = ["DEFAULT_SCORES", "N_STATES", "Audit", "AuditCell", "AuditSettings", "EverySettings",
           "Sampling", "Solved", "SolveSettings", "audit", "default_sampling", "draw_states",
           "equilibrium", "every_decision", "starting_strategy", "Equilibrium",
           "EveryDecision"]

Stages = Callable[[str], None] | None


def default_sampling(settings: EcarteSettings) -> Sampling:
    """The deals a state is sampled on by default for the elder's play model of
    ``settings``: PIMC 16 at first and 256 at most, the others 64 and 4,096."""
    return Sampling.for_play(settings.elder_play)


def draw_states(n_states: int | None, seed: int = 0) -> tuple[int, ...] | None:
    """``n_states`` canonical states (of :data:`N_STATES`) drawn by ``seed``, sorted; None
    for all of them (``n_states`` None or at least :data:`N_STATES`)."""
    import numpy as np

    if n_states is None or n_states >= N_STATES:
        return None
    rng = np.random.default_rng(seed)
    return tuple(sorted(rng.choice(N_STATES, n_states, replace=False).tolist()))


def starting_strategy(data_dir=None, play: str | None = None) -> Solved:
    """The shipped strategy in ``data_dir`` (None: the package's own) to start a solve
    from: the one of ``play`` when that directory holds it, else the one it holds.
    :class:`OSError` or :class:`ValueError` when there is none or it is damaged.

    >>> starting_strategy().play
    'dd'
    """
    from ecarte_sim.analysis.ecarte.solving import solved

    held = solved.solved_models(data_dir)
    return solved.load(play if play in held else None, data_dir=data_dir)


@dataclass(frozen=True)
class Equilibrium:
    """Five up solved (:func:`equilibrium`): the ``seed``, whether every score
    ``converged`` and in how many ``steps`` of the sweep, the scores left ``unsettled``,
    the value of the game from 0-0 for the elder and the first dealer, each (p, low, high)
    with its 95% interval, ``v`` (5 x 5: the elder's P(win the game) at every score), the
    headline ``summary`` and the sweep's ``history`` (as ``--json`` prints them).
    :meth:`to_dict` is what ``ecarte-sim equilibrium --json`` prints between its command
    and its provenance and files; :attr:`payload` the library's dict (the tables in it),
    what the report and the shipped data are written from."""
    seed: int
    converged: bool
    steps: int
    unsettled: tuple[str, ...]
    elder_wins_0_0: tuple[float, float, float]
    first_dealer_wins_0_0: tuple[float, float, float]
    v: list[list[float]]
    summary: dict = field(repr=False)
    history: list = field(repr=False)
    payload: dict = field(repr=False)

    @classmethod
    def of(cls, r: dict) -> Equilibrium:
        import numpy as np

        from ecarte_sim.analysis.reports.equilibrium import summary

        s = summary(r)
        return cls(r["solve"]["seed"], s["converged"], s["steps"], tuple(s["unsettled"]),
                   (s["elder_wins_0_0"], *s["elder_wins_0_0_ci95"]),
                   (s["first_dealer_wins_0_0"], *s["first_dealer_wins_0_0_ci95"]),
                   np.asarray(r["v"]).tolist(), s, r["history"], r)

    def to_dict(self) -> dict:
        return copy.deepcopy({"seed": self.seed, "converged": self.converged,
                              "steps": self.steps, "summary": self.summary,
                              "history": self.history, "v": self.v})


def equilibrium(solve: SolveSettings, *, start: Solved | None = None, respond: bool = False,
                progress: Stages = None) -> Equilibrium:
    """Five up solved from the starting pair (``start``'s tables; None: Hoyle's pair):
    the sweep of iterated best responses over the scores of ``solve`` —
    :func:`~ecarte_sim.analysis.ecarte.solving.equilibrium.solve`; with ``respond``, one
    step from the starting pair, both players' best responses to it at every score
    (:func:`~ecarte_sim.analysis.ecarte.solving.equilibrium.responded`). ``progress`` is
    told each stage in a line. An :class:`Equilibrium`. The example solves 20 states at
    one score on a few deals (a minute once compiled), so it is marked to skip.

    >>> r = equilibrium(SolveSettings(states=draw_states(20), scores=((4, 4),),
    ...                               sampling=Sampling(2, 2), fresh_deals=1000,
    ...                               value_deals=1000, iterations=1))  # doctest: +SKIP
    >>> r.steps, len(r.v), r.elder_wins_0_0[1] <= r.elder_wins_0_0[0]  # doctest: +SKIP
    (1, 5, True)
    """
    from ecarte_sim.analysis.ecarte.solving import equilibrium as eq

    result = eq.solve(solve, progress=progress, start=None if start is None else start.tables())
    if respond:
        result = eq.responded(solve, result, progress=progress)
    return Equilibrium.of(result)


@dataclass(frozen=True)
class EveryDecision:
    """One step of the solve of every decision of a deal (:func:`every_decision`): the
    run's settings (``solve``, as ``--json`` echoes them), the strategy it started from
    (``start``: its sha256, the directory it was read from, its play model), the
    ``seconds`` it took, ``v`` (5 x 5: the elder's P(win the game) at every score, from
    the new pair), one row a score of what its stages changed (``scores``), the stages'
    ``records`` and ``first_accepted``. :meth:`to_dict` is what ``ecarte-sim
    every-decision --json`` prints between its command and its provenance and files;
    :attr:`payload` the library's dict (the new pair's tables in it), what the report and
    the shipped data are written from."""
    solve: dict
    start: dict
    seconds: float
    v: list[list[float]]
    scores: tuple[dict, ...]
    records: list = field(repr=False)
    first_accepted: list[float] = field(repr=False)
    payload: dict = field(repr=False)

    @property
    def elder_wins_0_0(self) -> float:
        """The elder's probability of winning five up from 0-0."""
        return self.v[0][0]

    @classmethod
    def of(cls, r: dict) -> EveryDecision:
        from ecarte_sim.analysis.reports.every_decision import payload

        p = payload(r)
        return cls(p["solve"], p["start"], p["seconds"], p["v"], tuple(p["scores"]),
                   p["records"], p["first_accepted"], r)

    def to_dict(self) -> dict:
        return copy.deepcopy({"solve": self.solve, "start": self.start,
                              "seconds": self.seconds, "v": self.v,
                              "scores": list(self.scores), "records": self.records,
                              "first_accepted": self.first_accepted})


def every_decision(settings: EverySettings, start: Solved, *, start_dir: str | None = None,
                   progress: Stages = None) -> EveryDecision:
    """Every decision of a deal solved from the strategy ``start``
    (:func:`starting_strategy`, read from ``start_dir``: None for the package's own): the
    later rounds, then the first round resolved —
    :func:`~ecarte_sim.analysis.ecarte.solving.every_decision.solve`. ``progress`` is
    told each stage in a line. An :class:`EveryDecision`. The example solves one score on
    a few deals (minutes on a busy machine), so it is marked to skip.

    >>> r = every_decision(EverySettings(scores=((4, 4),), later_deals=4096, later_steps=1,
    ...                                  first=Sampling(2, 2), value_deals=1024),
    ...                    starting_strategy())  # doctest: +SKIP
    >>> [row["score"] for row in r.scores], r.start["play"]  # doctest: +SKIP
    (['4-4'], 'dd')
    """
    import time

    from ecarte_sim.analysis.ecarte.solving import every_decision as ed

    began = time.monotonic()
    tables = {**start.tables(), **{f"{r}_gain": start.gain(r) for r in ("elder", "dealer")}}
    result = ed.solve(settings, tables, progress=progress)
    result["seconds"] = time.monotonic() - began
    result["start"] = {"sha256": start.provenance.get("sha256"), "dir": start_dir,
                       "play": start.play}
    result["start_provenance"] = start.provenance
    return EveryDecision.of(result)


@dataclass(frozen=True, slots=True)
class AuditCell:
    """One (role, score[, later]) cell of an :class:`Audit`: the ``key`` (``"elder 0-0"``,
    ``"dealer 2-2 later"``), the ``hands`` valued (0 when none was met; then the figures
    are None), the mean regret in P(win the game) of the table's action
    (``table_regret``, plug-in, an upper estimate; ``table_regret_cross``, cross-fitted,
    a lower one) and of the treatise's, each ``(mean, low, high)`` with its 95% interval,
    the share of hands whose action the values beat beyond their 95% interval
    (``table_wrong``, ``treatise_wrong``: ``(share, low, high)``) and, for a later cell,
    the ``deals_read`` to meet them; with ``resolve``, the resolved strategy's
    (``resolved_regret``, ``resolved_regret_cross``, ``resolved_wrong``; else None)."""
    key: str
    hands: int
    table_regret: tuple[float, float, float] | None
    table_regret_cross: tuple[float, float, float] | None
    table_wrong: tuple[float, float, float] | None
    treatise_regret: tuple[float, float, float] | None
    treatise_regret_cross: tuple[float, float, float] | None
    treatise_wrong: tuple[float, float, float] | None
    deals_read: int | None
    resolved_regret: tuple[float, float, float] | None = None
    resolved_regret_cross: tuple[float, float, float] | None = None
    resolved_wrong: tuple[float, float, float] | None = None

    @classmethod
    def of(cls, key: str, s: dict) -> AuditCell:
        def mean(d):
            return (d["mean"], *d["ci95"])

        def share(d):
            return (d["share"], *d["ci95"])

        if not s["hands"]:
            return cls(key, 0, None, None, None, None, None, None, s.get("deals_read"))
        t, h, r = s["table"], s["treatise"], s.get("resolved")
        return cls(key, s["hands"], mean(t["regret"]), mean(t["regret_cross"]),
                   share(t["wrong"]), mean(h["regret"]), mean(h["regret_cross"]),
                   share(h["wrong"]), s.get("deals_read"),
                   *((mean(r["regret"]), mean(r["regret_cross"]), share(r["wrong"]))
                     if r else ()))


@dataclass(frozen=True)
class Audit:
    """The shipped strategy checked hand by hand (:func:`audit`): the strategy audited
    (``play``, its ``sha256``), the run's ``settings`` (as ``--json`` echoes them), one
    :class:`AuditCell` a (role, score[, later]) in ``cells`` (by key) and the hands'
    ``rows`` (one dict a hand). :meth:`to_dict` is what ``ecarte-sim audit --json`` prints
    before its files (the rows left out); :attr:`payload` the library's whole dict (rows
    included), what the report is written from."""
    play: str
    sha256: str | None
    settings: dict
    cells: dict[str, AuditCell]
    rows: tuple[dict, ...] = field(repr=False)
    payload: dict = field(repr=False)

    @classmethod
    def of(cls, r: dict) -> Audit:
        return cls(r["strategy"]["play"], r["strategy"].get("sha256"), r["settings"],
                   {k: AuditCell.of(k, s) for k, s in r["summaries"].items()},
                   tuple(r["rows"]), r)

    def to_dict(self) -> dict:
        return copy.deepcopy({k: v for k, v in self.payload.items() if k != "rows"})


def audit(settings: AuditSettings, *, progress: Stages = None) -> Audit:
    """The shipped strategy checked hand by hand (:mod:`ecarte_sim.analysis.ecarte.advice.audit`):
    held-out hands valued as ``advise`` values them, the regret of the table's action and
    of the treatise's, the worst hands — an :class:`Audit` (its ``rows``: one per hand).
    :class:`ValueError` when there is no strategy of that play model, or it is damaged.
    The example values a few hands on a few deals (seconds once compiled), so it is
    marked to skip.

    >>> r = audit(AuditSettings(hands=2, deals=64, scores=((0, 0),), roles=("elder",),
    ...                         rounds=("first",)))  # doctest: +SKIP
    >>> r.cells["elder 0-0"].hands, r.play  # doctest: +SKIP
    (2, 'dd')
    """
    from ecarte_sim.analysis.ecarte.advice.audit import audit as run_audit

    return Audit.of(run_audit(settings, progress=progress))
