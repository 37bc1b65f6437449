"""The command line and the web app ask their questions through the front door
(:mod:`ecarte_sim.api`): read statically from the source (no import), every module of
``apps/cli`` and ``apps/web`` reaches nothing of the library but the front door, the
registries (:mod:`ecarte_sim.engine.ecarte.settings`, Piquet's settings), the value types
and the cards' notation, the formatting helpers (the report writers) and the long runs' plumbing
(:data:`ALLOWED`, each with its reason); the questions first dispatched there — ``advise``,
the chart and ``cards`` — are checked function by function too. A reach past the door
would be listed in :data:`PAST_THE_DOOR`, module by module, so that the list only shrinks;
it is empty (issue 52, item 1)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from helpers import REPO

pytestmark = pytest.mark.quick

#: What an application may import of the package besides the front door.
ALLOWED = ("ecarte_sim.api", "ecarte_sim.apps",
           "ecarte_sim.engine.ecarte.settings",            # the registry
           "ecarte_sim.engine.ecarte.laws.score",          # the value types
           "ecarte_sim.engine.ecarte.laws.history",
           "ecarte_sim.engine.deck", "ecarte_sim.engine.cards",
           "ecarte_sim.analysis.reports",                  # the formatting helpers
           # app plumbing, not a question: the execution context (threads, a Dask
           # cluster) and the run directories behind the long-run options (--run-dir,
           # --resume, --scheduler, --workers) and every report's provenance (the commit)
           "ecarte_sim.engine.batch", "ecarte_sim.engine.cluster", "ecarte_sim.engine.runs",
           "ecarte_sim.engine.piquet.settings")            # Piquet's registry

#: The functions whose question is dispatched in the front door: they import nothing else.
THROUGH_THE_DOOR = {"apps/cli/strategy.py": ("advise",), "apps/cli/chart.py": ("chart",),
                    "apps/cli/cards.py": ("cards",),
                    "apps/web/app.py": ("chart_json", "chart_svg", "advise_json",
                                        "_history", "cards_json")}

#: The modules of the library each application module still reaches past the door (the
#: questions not yet moved behind it). A reach added fails; one removed must be struck off.
#: None is left (issue 52, item 1): every command module and the web app ask through the
#: front door.
PAST_THE_DOOR: dict[str, set[str]] = {}


def _allowed(name: str) -> bool:
    return any(name == a or name.startswith(a + ".") for a in ALLOWED)


def _imported(node: ast.AST) -> set[str]:
    """The ``ecarte_sim`` modules (or module.name) imported anywhere under ``node``."""
    found = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Import):
            found |= {a.name for a in n.names}
        elif isinstance(n, ast.ImportFrom) and n.module and not n.level:
            found.add(n.module)
    return {f for f in found if f.startswith("ecarte_sim.")}


def _tree(path: str) -> ast.Module:
    return ast.parse((REPO / path).read_text(encoding="utf-8"))


@pytest.mark.parametrize("path, names", THROUGH_THE_DOOR.items())
def test_the_questions_at_the_front_door_import_only_it(path, names):
    defs = {n.name: n for n in ast.walk(_tree(path)) if isinstance(n, ast.FunctionDef)}
    for name in names:
        assert name in defs, f"{path} has no function {name}"
        past = sorted(m for m in _imported(defs[name]) if not _allowed(m))
        assert past == [], f"{path}: {name} reaches past the front door: {past}"


def _reach() -> dict[str, set[str]]:
    out = {}
    for path in sorted(Path(REPO, "apps").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if not rel.startswith(("apps/cli/", "apps/web/")):
            continue
        past = {m for m in _imported(_tree(rel)) if not _allowed(m)}
        if past:
            out[rel] = past
    return out


def test_what_still_reaches_past_the_door_is_listed():
    assert _reach() == PAST_THE_DOOR


def test_a_reach_past_the_door_is_found():
    tree = ast.parse("def f():\n    from ecarte_sim.analysis.ecarte.solving import chart\n"
                     "    from ecarte_sim.api.strategy import advice\n")
    assert {m for m in _imported(tree) if not _allowed(m)} == {
        "ecarte_sim.analysis.ecarte.solving"}
