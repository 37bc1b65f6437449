"""Discards chosen by search against the heuristic's keep value, paired on the same deals
(``ecarte-sim piquet discard-search``).

On each deal the elder's and the younger's search discards are computed once
(:mod:`ecarte_sim.engine.piquet.discard_search`: candidates evaluated on ``samples``
sampled deals consistent with what the player knows), then the deal is played out under
every arm of :data:`~ecarte_sim.engine.piquet.discard_search.ARMS` — the same cards, the
same play (the heuristic's, or a dd or pimc player's: ``play``) and the player's own
other discard — and the elder's margin (his total minus the younger's) is compared
between arms deal by deal:

* the search against the heuristic, for the elder (five cards), the younger (three) and
  both;
* should the elder take all five? The search's best discard of five against its best of
  four, three, two, one, and against its best of any number (the search free to leave
  cards, Law 32);
* should the younger take all he can (three, the elder having taken five)? The same, of
  three against two and one, and against any number.

Every difference is paired (common cards, common worlds) with its normal 95% interval, and
the elder's win rate difference with its interval. The counts are int64 sums of per-deal
figures, so the result is the same for any thread count, row or task size, or backend.

:func:`searched_deal_counts` plays whole deals with a seat's discard chosen by the same
search (``piquet simulate --discard search``): the counts of ``piquet simulate``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

import numpy as np

from ecarte_sim.analysis.piquet.summaries import mean_from_sums, rate
from ecarte_sim.analysis.stats.intervals import normal_ci
from ecarte_sim.engine.batch import each_row, reduce_counts
from ecarte_sim.engine.piquet import discard_search as D
from ecarte_sim.engine.piquet.records import DEAL_COUNTS
from ecarte_sim.engine.piquet.settings import (DEFAULT_WORLDS, MAX_ELDER_TAKE, MAX_YOUNGER_TAKE,
                                               Discarding, LeadScoring, PiqueTiming, Player,
                                               PiquetSettings, member, name_of)
from ecarte_sim.engine.rng import check_index_range, check_seed

#: Worlds per search by default, and the run's default task and row sizes (deals).
DEFAULT_SAMPLES = 32
TASK, CHUNK = 1 << 10, 8


def search_counts(seed: int, start: int, stop: int, samples: int = DEFAULT_SAMPLES,
                  settings: PiquetSettings | None = None, chunk: int = CHUNK,
                  block: int = TASK, progress: Callable[[int], None] | None = None) -> np.ndarray:
    """The ``SEARCH_COUNTS`` row over deals ``[start, stop)`` of ``seed``.

    ``settings``: the rule variants (lead scoring, pique timing) and who plays the arms out
    (its players, both ``heuristic`` by default, and ``worlds``); the searches always
    evaluate with the heuristic's play, and the takes are five and all he can, whatever
    ``settings`` say."""
    seed, start, stop, samples = _checked(seed, start, stop, samples)
    base = settings or PiquetSettings(Player.HEURISTIC, Player.HEURISTIC)
    play_cfg = PiquetSettings(base.elder_player, base.younger_player, worlds=base.worlds,
                              lead_scoring=base.lead_scoring,
                              pique_timing=base.pique_timing).cfg()
    return reduce_counts(partial(_task, seed, _evaluation_cfg(base), play_cfg, samples), start,
                         stop, D.SEARCH_COUNTS.size, chunk, block, progress)


def _checked(seed: int, start: int, stop: int, samples: int) -> tuple[int, int, int, int]:
    """The seed, the deal range and the samples of a search run, checked."""
    seed = check_seed(seed)
    start, stop = check_index_range(start, stop)
    if not 1 <= int(samples) <= D.MAX_SAMPLES:
        raise ValueError(f"samples must lie in [1, {D.MAX_SAMPLES}], got {samples}")
    return seed, start, stop, int(samples)


def _evaluation_cfg(settings: PiquetSettings) -> np.ndarray:
    """The ``cfg`` the searches evaluate their candidates under: heuristic players, the full
    takes, the rule variants of ``settings``."""
    return PiquetSettings(Player.HEURISTIC, Player.HEURISTIC, lead_scoring=settings.lead_scoring,
                          pique_timing=settings.pique_timing).cfg()


def check_discarding(settings: PiquetSettings, discard) -> tuple[Discarding, Discarding]:
    """``discard`` (the elder's, the younger's) as members; ``ValueError`` naming the take
    when a search is asked with another than the full exchange (the search takes all the
    cards, and the younger's evaluates the elder taking five)."""
    elder, younger = (member(Discarding, d, "discarding", "choose from ") for d in discard)
    if Discarding.SEARCH in (elder, younger) and settings.elder_take != MAX_ELDER_TAKE:
        raise ValueError(f"--elder-take {settings.elder_take}: a search discard takes the "
                         f"full exchange (the elder {MAX_ELDER_TAKE}, the younger all he can)")
    if younger == Discarding.SEARCH and settings.younger_take not in (0, MAX_YOUNGER_TAKE):
        raise ValueError(f"--younger-take {settings.younger_take}: the younger's search "
                         f"discard takes all he can ({MAX_YOUNGER_TAKE})")
    return elder, younger


def searched_deal_counts(seed: int, start: int, stop: int, settings: PiquetSettings,
                         discard: tuple = (Discarding.OWN, Discarding.OWN),
                         samples: int = DEFAULT_SAMPLES, chunk: int = CHUNK,
                         block: int = TASK,
                         progress: Callable[[int], None] | None = None) -> np.ndarray:
    """The ``DEAL_COUNTS`` row of deals ``[start, stop)`` of ``seed`` played under
    ``settings``, each seat's discard as ``discard`` says (elder's, younger's): its
    player's own, or the search's full take (five for the elder, three for the younger),
    evaluated on ``samples`` worlds played by the heuristic under the settings' rules.

    The search takes all the cards, and the younger's evaluates the elder taking five, so
    a search is refused with other takes (``ValueError`` naming the take)."""
    seed, start, stop, samples = _checked(seed, start, stop, samples)
    elder, younger = check_discarding(settings, discard)
    return reduce_counts(partial(_searched_task, seed, _evaluation_cfg(settings), settings.cfg(),
                                 samples, elder == Discarding.SEARCH,
                                 younger == Discarding.SEARCH),
                         start, stop, DEAL_COUNTS.size, chunk, block, progress)


def _searched_task(seed, cfg, play_cfg, samples, search_elder, search_younger, lo, n, rows):
    counts = np.zeros((rows, DEAL_COUNTS.size), dtype=np.int64)
    each_row(D.searched_deal_row, rows, np.uint64(seed), lo, n, rows, cfg, play_cfg, samples,
             search_elder, search_younger, counts)
    return counts


def _task(seed, cfg, play_cfg, samples, lo, n, rows):
    counts = np.zeros((rows, D.SEARCH_COUNTS.size), dtype=np.int64)
    each_row(D.search_row, rows, np.uint64(seed), lo, n, rows, cfg, play_cfg, samples, counts)
    return counts


def _paired_win(only_a: int, only_b: int, n: int) -> dict:
    """The paired difference of the elder's win indicator (a wins, b not) − (b wins, a not)."""
    d = (only_a - only_b) / n
    var = ((only_a + only_b) / n - d * d) / (n - 1) if n > 1 else math.nan
    se = math.sqrt(var) if var == var else math.nan
    return {"mean": d, "se": se, "ci95": normal_ci(d, se)}


def search_summary(counts: np.ndarray) -> dict:
    """The figures of a ``SEARCH_COUNTS`` row: each arm's mean elder margin and win rate,
    each comparison's paired differences, how many cards the free searches took, how often
    the search's discard was the heuristic's."""
    c = D.SEARCH_COUNTS.read(counts)
    n = c["deals"]
    arms = {name: {"margin": mean_from_sums(c["margin"][i], c["margin_sq"][i], n),
                   "elder_win": rate(c["elder_wins"][i], n)}
            for i, name in enumerate(D.ARMS)}
    comparisons = [{"a": a, "b": b,
                    "margin_a": c["margin"][D.A[a]] / n, "margin_b": c["margin"][D.A[b]] / n,
                    "margin_difference": mean_from_sums(c["diff"][k], c["diff_sq"][k], n),
                    "elder_win_difference": _paired_win(c["only_a"][k], c["only_b"][k], n)}
                   for k, (a, b) in enumerate(D.COMPARISONS)]
    return {"deals": n, "arms": arms, "comparisons": comparisons,
            "elder_free_take": {str(k): rate(c["elder_free_take"][k], n) for k in range(1, 6)},
            "younger_free_take": {str(k): rate(c["younger_free_take"][k], n)
                                  for k in range(1, 4)},
            "search_is_heuristic": {"elder": rate(c["elder_as_heuristic"], n),
                                    "younger": rate(c["younger_as_heuristic"], n)}}


def discard_search(deals: int, *, seed: int = 0, start: int = 0,
                   samples: int = DEFAULT_SAMPLES, play: Player | str = Player.HEURISTIC,
                   worlds: int = DEFAULT_WORLDS,
                   lead_scoring: LeadScoring | str = LeadScoring.ALL,
                   pique_timing: PiqueTiming | str = PiqueTiming.LEAD,
                   chunk: int | None = None,
                   progress: Callable[[int], None] | None = None) -> dict:
    """Deals ``start .. start + deals - 1`` of ``seed``: the search's discards against the
    heuristic's, and the exchange's two questions under the search (module docstring).

    ``play``: who plays the arms out, both seats (the cards, and the discard an arm leaves
    to its player): ``heuristic`` (the searches' own model), ``dd`` or ``pimc`` (``worlds``
    per decision) — a check that what the search finds is not an artefact of the play it
    evaluates with."""
    settings = PiquetSettings(play, play, worlds=worlds, lead_scoring=lead_scoring,
                              pique_timing=pique_timing)
    counts = search_counts(seed, start, start + deals, samples, settings,
                           chunk=CHUNK if chunk is None else chunk, progress=progress)
    return {**search_summary(counts), "seed": seed, "start": start, "samples": samples,
            "window": D.WINDOW, "evaluation_play": name_of(Player.HEURISTIC),
            "play": name_of(settings.elder_player),
            **({"worlds": worlds} if settings.elder_player == Player.PIMC else {}),
            "settings": settings.echo()}
