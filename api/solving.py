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

from collections.abc import Callable

from ecarte_sim.analysis.ecarte.advice.audit import DEFAULT_SCORES, AuditSettings
from ecarte_sim.analysis.ecarte.solving.equilibrium import SolveSettings
from ecarte_sim.analysis.ecarte.solving.every_decision import EverySettings
from ecarte_sim.analysis.ecarte.solving.proposal_game import Sampling
from ecarte_sim.analysis.ecarte.solving.solved import Solved
from ecarte_sim.engine.ecarte.decisions.states import N_STATES
from ecarte_sim.engine.ecarte.settings import EcarteSettings

__all__ = ["DEFAULT_SCORES", "N_STATES", "AuditSettings", "EverySettings", "Sampling",
           "Solved", "SolveSettings", "audit", "default_sampling", "draw_states",
           "equilibrium", "every_decision", "starting_strategy"]

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


def equilibrium(solve: SolveSettings, *, start: Solved | None = None, respond: bool = False,
                progress: Stages = None) -> dict:
    """Five up solved from the starting pair (``start``'s tables; None: Hoyle's pair):
    the sweep of iterated best responses over the scores of ``solve`` —
    :func:`~ecarte_sim.analysis.ecarte.solving.equilibrium.solve`; with ``respond``, one
    step from the starting pair, both players' best responses to it at every score
    (:func:`~ecarte_sim.analysis.ecarte.solving.equilibrium.responded`). ``progress`` is
    told each stage in a line.

    >>> r = equilibrium(SolveSettings(states=draw_states(50), scores=((0, 0),),
    ...                               sampling=Sampling(2, 2), fresh_deals=1024,
    ...                               value_deals=1024, iterations=1))  # doctest: +SKIP
    >>> sorted(r)[:2]  # doctest: +SKIP
    ['accepted', 'converged']
    """
    from ecarte_sim.analysis.ecarte.solving import equilibrium as eq

    result = eq.solve(solve, progress=progress, start=None if start is None else start.tables())
    if respond:
        result = eq.responded(solve, result, progress=progress)
    return result


def every_decision(settings: EverySettings, start: Solved, *, progress: Stages = None) -> dict:
    """Every decision of a deal solved from the strategy ``start``
    (:func:`starting_strategy`): the later rounds, then the first round resolved —
    :func:`~ecarte_sim.analysis.ecarte.solving.every_decision.solve`. ``progress`` is
    told each stage in a line.

    >>> r = every_decision(EverySettings(scores=((4, 4),), later_deals=4096,
    ...                                  first=Sampling(2, 2), value_deals=1024),
    ...                    starting_strategy())  # doctest: +SKIP
    """
    from ecarte_sim.analysis.ecarte.solving import every_decision as ed

    tables = {**start.tables(), **{f"{r}_gain": start.gain(r) for r in ("elder", "dealer")}}
    return ed.solve(settings, tables, progress=progress)


def audit(settings: AuditSettings, *, progress: Stages = None) -> dict:
    """The shipped strategy checked hand by hand (:mod:`ecarte_sim.analysis.ecarte.advice.audit`):
    held-out hands valued as ``advise`` values them, the regret of the table's action and
    of the treatise's, the worst hands (``"rows"``: one per hand).
    :class:`ValueError` when there is no strategy of that play model, or it is damaged.

    >>> r = audit(AuditSettings(hands=2, deals=64, scores=((0, 0),), roles=("elder",),
    ...                         rounds=("first",)))  # doctest: +SKIP
    """
    from ecarte_sim.analysis.ecarte.advice.audit import audit as run_audit

    return run_audit(settings, progress=progress)
