"""The public API's questions of strategy: :func:`advise`, :func:`infer` and
:func:`strategy`, what the ``ecarte-sim`` commands of those names compute, with typed
arguments.

A score is given as the commands write it, ``"3-4"``, or as a pair of integers,
``(3, 4)`` — the elder's score first, each 0–4 (five up, Law 46). These functions sit
beside :mod:`~ecarte_sim.api.ecarte` rather than in it because
:mod:`~ecarte_sim.analysis.ecarte.solving.proposal_game` itself reads ``api``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ecarte_sim.engine.ecarte.laws.score import Score
from ecarte_sim.engine.ecarte.settings import EcarteSettings

#: The choices of :func:`strategy`, spelt as the command's options.
AGAINST = ("treatise", "equilibrium")
ROLES = ("elder", "dealer", "both")
DECISIONS = ("first", "discard", "both")


def _choice(value, choices: tuple[str, ...], what: str) -> str:
    if value not in choices:
        raise ValueError(f"unknown {what} {value!r}: choose from {', '.join(choices)}")
    return value


def _count(value, lo: int, hi: int, what: str) -> int | None:
    """An optional integer option in ``[lo, hi]``, as the command's range."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or not lo <= int(value) <= hi:
        raise ValueError(f"{what} {value!r} is not an integer in [{lo}, {hi}]")
    return int(value)


def advise(hand: str, trump: str, score: str | tuple[int, int] = "0-0", role: str = "elder",
           *, against: str = "equilibrium", discard: bool = False, **options) -> dict:
    """What to do with ``hand`` (the ``role``'s five cards; ``trump`` a suit or the
    turned-up card) at ``score`` (``"E-D"`` or ``(E, D)``): the shipped equilibrium's
    action (``against="treatise"``: the best response to Hoyle's pair), each action's
    probability of winning the game and marks per deal with 95% intervals, and what the
    treatise says — :func:`ecarte_sim.analysis.ecarte.advice.first_decision.advise` (``options``:
    ``turn_up``, ``play``, ``settings`` (against the treatise), ``seed``, ``deals``,
    ``values``); ``discard=True``: :func:`~ecarte_sim.analysis.ecarte.advice.first_decision.discard_advice`.
    What ``ecarte-sim advise --json`` prints."""
    from ecarte_sim.analysis.ecarte.advice import first_decision as advice

    x, y = Score.of(score)
    if discard:
        return advice.discard_advice(hand, trump, (x, y), role, **options)
    return advice.advise(hand, trump, (x, y), role, against=against, **options)


def infer(hand: str, turn_up: str, history: str, role: str = "elder", *,
          score: str | tuple[int, int] = "0-0", **options) -> dict:
    """What the adversary's decisions (``history``, e.g. ``"propose,refuse"``) say about
    his hand — :func:`ecarte_sim.analysis.ecarte.advice.inference.infer`, with ``score`` as
    ``"E-D"`` or ``(E, D)``; what ``ecarte-sim infer --json`` prints."""
    from ecarte_sim.analysis.ecarte.advice.inference import infer as infer_hand

    x, y = Score.of(score)
    return infer_hand(hand, turn_up, history, role, score=f"{x}-{y}", **options)


def strategy(settings: EcarteSettings | None = None, *, against: str = "treatise",
             role: str = "both", decision: str = "first",
             score: str | tuple[int, int] | None = None, all_scores: bool = False,
             iterations: int = 3, seed: int = 0, deals_per_state: int | None = None,
             max_deals_per_state: int | None = None, fresh_deals: int | None = None,
             progress: Callable[[str, int, int], None] | None = None) -> dict:
    """What should one play: ``ecarte-sim strategy`` from Python, the same library calls
    (:func:`~ecarte_sim.analysis.ecarte.solving.proposal_game.against_treatise` or
    :func:`~ecarte_sim.analysis.ecarte.solving.proposal_game.equilibrium`) with the command's options
    as arguments.

    ``against="treatise"``: each ``role``'s (``"elder"``, ``"dealer"``, ``"both"``) best
    response to the other's treatise policy at ``score`` (default 0-0) or at every score
    (``all_scores``), and its gain over the policy it replaces on ``fresh_deals`` fresh
    deals; ``"equilibrium"``: ``iterations`` steps of iterated best responses at one score,
    each pair's exploitability and the value of the game. ``decision``: ``"first"``
    (propose or play, accept or refuse), ``"discard"`` (the first discard; treatise only)
    or ``"both"``. Deals per state: ``deals_per_state`` at first, up to
    ``max_deals_per_state`` (defaults as the command's, by play model). ``progress(stage,
    done, total)`` is told each stage's progress.

    Returns the parameters (as ``--json`` echoes them) and the library's result with its
    arrays (``v``; the best responses' ``table``, ``gain``, ``se``; ``tables``), which
    ``--json`` leaves out. :class:`ValueError` names a bad argument."""
    from ecarte_sim.analysis.ecarte.solving import proposal_game as study

    settings = settings or EcarteSettings()
    _choice(against, AGAINST, "against")
    _choice(role, ROLES, "role")
    _choice(decision, DECISIONS, "decision")
    if all_scores and score is not None:
        raise ValueError("give score or all_scores, not both")
    if against == "equilibrium" and all_scores:
        raise ValueError("against='equilibrium' runs at one score (score=(E, D))")
    if against == "equilibrium" and decision == "discard":
        raise ValueError("against='equilibrium' iterates the first decisions "
                         "(decision='first') or them and the first discards "
                         "(decision='both'); the discards alone are against='treatise', "
                         "decision='discard'")
    iterations = _count(iterations, 0, 50, "iterations")
    first = _count(deals_per_state, 2, 1 << 16, "deals_per_state")
    most = _count(max_deals_per_state, 2, 1 << 16, "max_deals_per_state")
    fresh_deals = _count(fresh_deals, 1000, 1 << 40, "fresh_deals")
    seed = _count(seed, 0, (1 << 64) - 1, "seed")
    default = study.Sampling.for_play(settings.elder_play)
    sampling = study.Sampling(first or default.first, most or default.most)
    scores = study.SCORES if all_scores else (Score.of("0-0" if score is None else score).pair,)
    decisions = ("first", "discard") if decision == "both" else (decision,)
    parameters = {"against": against, "role": role,
                  **({"decision": decision} if decision != "first" else {}),
                  "scores": [f"{x}-{y}" for x, y in scores], "iterations": iterations,
                  "deals_per_state": sampling.first, "max_deals_per_state": sampling.most,
                  "fresh_deals": fresh_deals, "settings": settings.echo()}
    if against == "treatise":
        roles = ("elder", "dealer") if role == "both" else (role,)
        result = study.against_treatise(settings, roles=roles, scores=scores, seed=seed,
                                        sampling=sampling, fresh_deals=fresh_deals,
                                        progress=progress, decisions=decisions)
    else:
        result = study.equilibrium(settings, score=scores[0], iterations=iterations,
                                   seed=seed, sampling=sampling, fresh_deals=fresh_deals,
                                   progress=progress, decisions=decisions)
    return {"seed": seed, **parameters, **result}
