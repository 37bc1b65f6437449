"""What the proposals are worth to a player who reads them: :func:`inference_value` (one
player reading them, in each seat, against plain PIMC on the same deals) and
:func:`inference_claims` (the treatise's claims about inference, judged) — the front
door of ``ecarte-sim inference-value`` and ``inference-claims``. What one history says of
the adversary's hand is :func:`ecarte_sim.api.strategy.infer`. Both run PIMC over
thousands of deals (minutes); their examples are marked to skip. The defaults (the
deals a comparison, the deals behind the score table) are the library's:

>>> DEFAULT_DEALS, DEFAULT_V_DEALS
(65536, 65536)
>>> r = inference_value(100, worlds=2, v_deals=1000)  # doctest: +SKIP
>>> sorted(r["seats"])  # doctest: +SKIP
['dealer', 'elder']
"""

from __future__ import annotations

from collections.abc import Callable

from ecarte_sim.analysis.ecarte.play.inference_value import DEFAULT_DEALS, DEFAULT_V_DEALS
from ecarte_sim.engine.ecarte.settings import DEFAULT_WORLDS


def inference_value(deals: int = DEFAULT_DEALS, *, seed: int = 0,
                    worlds: int = DEFAULT_WORLDS, v_deals: int = DEFAULT_V_DEALS,
                    progress: Callable[[str, int], None] | None = None) -> dict:
    """One player, in each seat, playing ``pimc-inference``, plain ``pimc`` and ``dd`` on
    deals ``[0, deals)`` of ``seed`` against a plain-PIMC opponent (``worlds`` worlds each;
    P(win the game) from 0-0 by the score table of ``v_deals`` plain-PIMC deals): the
    paired differences in marks per deal and in P(win the game) with 95% intervals, and
    the inferring player's worlds that fell back to uniform —
    :func:`~ecarte_sim.analysis.ecarte.play.inference_value.inference_value`; what
    ``ecarte-sim inference-value --json`` prints. ``progress(label, deals)`` is told each
    comparison."""
    from ecarte_sim.analysis.ecarte.play.inference_value import inference_value as measure

    return measure(deals, seed=seed, worlds=worlds, v_deals=v_deals, progress=progress)


def inference_claims(worlds: int = 64, seed: int = 0,
                     progress: Callable[[str], None] | None = None) -> list[dict]:
    """The treatise's claims about inference, each reading with its estimate, 95% interval,
    n and verdict by a rule fixed before the run —
    :func:`~ecarte_sim.analysis.ecarte.claims.inference_claims.inference_claims`; the rows
    of ``ecarte-sim inference-claims --json``. ``progress(what)`` is told each claim."""
    from ecarte_sim.analysis.ecarte.claims.inference_claims import inference_claims as measure

    return measure(worlds=worlds, seed=seed, progress=progress)
