"""ecarte_sim — the computational analysis of Écarté and Piquet.

The public API, for scripting an experiment without the command line (the
``ecarte-sim`` commands call the same functions)::

    import ecarte_sim as es

    es.solve("QH AH 7H KS KD", "KH JH 9H 8H 9C", trump="TH")      # double dummy
    es.hand("QH AH 7H KS KD", "H", exact=True)["play"]["point"]    # one hand, every deal
    settings = es.EcarteSettings.build(play="heuristic", dealer_policy="always-accept")
    es.simulate(100_000, seed=1, settings=settings)["mean_marks"]  # whole deals
    es.piquet_simulate(100_000, settings=es.PiquetSettings(elder_player="heuristic"))

Écarté: :func:`deal`, :func:`solve`, :func:`classify`, :func:`play`, :func:`game`,
:func:`simulate`, :func:`simulate_cards`, :func:`hand`, :func:`scores` (and
:func:`scores_frame`), :func:`claims` (and :func:`claims_frame`), :func:`advise` (what
to do with one hand at a score, each action's value), :func:`strategy` (the best
first decisions against the treatise, or iterated to an equilibrium), :func:`infer` (what the
adversary's first decisions say about his hand), :func:`inference_value` (what reading
them is worth in play) and :func:`inference_claims` (the treatise's claims about
inference, judged), with
:class:`EcarteSettings` and :class:`ClaimsSettings`. Piquet: :func:`piquet_deal`,
:func:`piquet_simulate`, :func:`piquet_partie`, :func:`piquet_report`,
:func:`piquet_discard_search` (discards chosen by search, paired against the keep value)
and :func:`piquet_deal_order` (who deals each deal of a partie), with
:class:`PiquetSettings`. Results are dicts of plain values, typed results with
``to_dict()`` (:func:`strategy`'s, for one), record objects or pandas DataFrames; every
figure is a pure function of the seed and the deal indices. A record
reads as the command prints it: ``print(es.play(1, 5))`` tells the deal, and
``es.play(1, 5).to_dict()`` is what ``ecarte-sim play --seed 1 --index 5 --json``
prints, without the provenance.

The package is the repository: ``engine/`` is :mod:`ecarte_sim.engine` (numba
kernels on a game-agnostic layer, one sub-package per game, each with a plain
Python reference of its rules) and ``analysis/`` is :mod:`ecarte_sim.analysis`
(experiments, statistics, reports, the CLI). Names are imported on first use, so
``import ecarte_sim`` stays cheap.

numba compiles the kernels on a first run and caches them. Installed from a wheel or an
sdist, the package puts that cache in a per-user folder, never in site-packages:
``$XDG_CACHE_HOME/ecarte-sim/numba`` (``~/.cache/ecarte-sim/numba``) on Linux,
``~/Library/Caches/ecarte-sim/numba`` on macOS, ``%LOCALAPPDATA%\\ecarte-sim\\cache\\numba``
on Windows — unless ``NUMBA_CACHE_DIR`` is set, which wins. Deleting the folder clears it
(the next run compiles again). Run from a checkout (an editable install), numba keeps its
cache in ``__pycache__`` beside the sources, as it does by default.
"""

import os as _os
import sys as _sys
from importlib import import_module as _import_module

__version__ = "0.1.0"


def _numba_cache_dir() -> str | None:
    """Where numba's cache goes when ``NUMBA_CACHE_DIR`` is unset (the module docstring):
    None in a checkout (``pyproject.toml`` beside this file), else the per-user folder."""
    here = _os.path.dirname(_os.path.abspath(__file__))
    if _os.path.exists(_os.path.join(here, "pyproject.toml")):
        return None
    home = _os.path.expanduser("~")
    if _sys.platform == "win32":
        base = _os.environ.get("LOCALAPPDATA") or _os.path.join(home, "AppData", "Local")
        return _os.path.join(base, "ecarte-sim", "cache", "numba")
    if _sys.platform == "darwin":
        return _os.path.join(home, "Library", "Caches", "ecarte-sim", "numba")
    base = _os.environ.get("XDG_CACHE_HOME") or _os.path.join(home, ".cache")
    return _os.path.join(base, "ecarte-sim", "numba")


# Set before any kernel module imports numba (every one is imported after this package);
# when the caller imported numba first, its config is set as well.
if not _os.environ.get("NUMBA_CACHE_DIR") and (_cache := _numba_cache_dir()) is not None:
    _os.environ["NUMBA_CACHE_DIR"] = _cache
    if "numba.core.config" in _sys.modules:
        _sys.modules["numba.core.config"].CACHE_DIR = _cache

#: Public name -> the module that defines it.
_API = {
    **dict.fromkeys(["deal", "solve", "play", "game", "simulate", "simulate_cards",
                     "hand", "scores", "scores_frame", "claims", "claims_frame"],
                    "ecarte_sim.api.ecarte"),
    "classify": "ecarte_sim.api.classify",
    **dict.fromkeys(["advise", "infer", "strategy"], "ecarte_sim.api.strategy"),
    **dict.fromkeys(["inference_value", "inference_claims"], "ecarte_sim.api.inference"),
    "EcarteSettings": "ecarte_sim.engine.ecarte.settings",
    "ClaimsSettings": "ecarte_sim.analysis.ecarte.claims.decisions",
    **dict.fromkeys(["piquet_deal", "piquet_simulate", "piquet_partie", "piquet_report",
                     "piquet_discard_search", "piquet_deal_order"],
                    "ecarte_sim.api.piquet"),
    "PiquetSettings": "ecarte_sim.engine.piquet.settings",
}

__all__ = sorted(_API)


def __getattr__(name: str):
    if name in _API:
        value = getattr(_import_module(_API[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ecarte_sim' has no attribute {name!r}")


def __dir__():
    """The public API and the four sub-packages (the tiers): no helper or imported name."""
    return sorted({*__all__, "engine", "analysis", "api", "apps"})
