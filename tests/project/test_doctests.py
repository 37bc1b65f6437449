"""The examples in the docstrings run: every library module whose docstrings hold a
``>>>`` example is run by :mod:`doctest`, and the modules known to carry examples are
among them (so a broken discovery cannot pass by finding none)."""

from __future__ import annotations

import doctest
import importlib

import pytest
from helpers import REPO

ROOT = REPO

#: Modules that carry examples; discovery must find at least these.
KNOWN = {"ecarte_sim.engine.deck", "ecarte_sim.engine.ecarte.decisions.regle",
         "ecarte_sim.engine.piquet.partie", "ecarte_sim.analysis.stats.intervals",
         "ecarte_sim.api.ecarte", "ecarte_sim.api.classify"}


def _modules_with_examples() -> list[str]:
    names = []
    for path in sorted(p for sub in ("engine", "analysis", "api", "apps")
                       for p in ROOT.joinpath(sub).rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            names.append(".".join(("ecarte_sim", *parts)))
    return names


MODULES = _modules_with_examples()


@pytest.mark.quick
def test_discovery_finds_the_known_examples():
    assert KNOWN <= set(MODULES)


@pytest.mark.quick
def test_every_front_door_module_has_examples():
    """Each module of the front door (:mod:`ecarte_sim.api`) shows a question asked."""
    front = {f"ecarte_sim.api.{p.stem}" for p in ROOT.joinpath("api").glob("*.py")
             if p.stem != "__init__"}
    assert front and front <= set(MODULES), sorted(front - set(MODULES))


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_run(name):
    result = doctest.testmod(importlib.import_module(name),
                             optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0, result
