"""docs/development.md's layout names every module of the tree, in the row of its folder.

A row of the layout table names one or more folders (or files) in its first cell, e.g.
``engine/ecarte/`` or ``engine/deck.py``, ``cards.py``; every ``.py`` module of the package
(``__init__.py`` and ``__main__.py`` aside) must be named, in backticks, in a row whose
first cell names its folder or its own path. A module added without a line in the page
fails here, as does a row naming a module that no longer exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import REPO

PAGE = REPO / "docs" / "development.md"
SUBPACKAGES = ("engine", "analysis", "api", "apps")


def layout_rows(text: str) -> list[tuple[list[str], set[str]]]:
    """(the paths of the first cell, every backticked ``*.py`` name of the row) per row of
    the ``## Layout`` table."""
    section = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        first, rest = line[1:].split("|", 1)
        heads = re.findall(r"`([^`]+)`", first)
        paths, folder = [], None
        for h in heads:
            if h.endswith("/"):
                folder = h
                paths.append(h)
            elif "/" in h:
                folder = h.rsplit("/", 1)[0] + "/"
                paths.append(h)
            elif folder:                       # `engine/deck.py`, `cards.py`: same folder
                paths.append(folder + h)
        names = {n.rsplit("/", 1)[-1] for n in re.findall(r"`([^`\s]+\.py)`", line)}
        rows.append((paths, names))
    return rows


def unnamed_modules(root: Path, text: str) -> list[str]:
    """The modules of ``root`` no layout row names (as paths relative to ``root``)."""
    rows = layout_rows(text)
    missing = []
    for sub in SUBPACKAGES:
        for path in sorted((root / sub).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if "__pycache__" in rel or path.name in ("__init__.py", "__main__.py"):
                continue
            folder = rel.rsplit("/", 1)[0] + "/"
            if not any((rel in paths or folder in paths) and path.name in names
                       for paths, names in rows):
                missing.append(rel)
    return missing


def named_but_absent(root: Path, text: str) -> list[str]:
    """Files a row's first cell names that do not exist."""
    return sorted(p for paths, _ in layout_rows(text) for p in paths
                  if not p.endswith("/") and not (root / p).exists())


@pytest.mark.quick
def test_the_layout_names_every_module():
    text = PAGE.read_text(encoding="utf-8")
    assert unnamed_modules(REPO, text) == []
    assert named_but_absent(REPO, text) == []


def test_a_module_left_out_is_reported(tmp_path):
    (tmp_path / "engine" / "ecarte").mkdir(parents=True)
    (tmp_path / "analysis").mkdir()
    for f in ("engine/cards.py", "engine/ecarte/deal.py", "engine/ecarte/new.py",
              "engine/ecarte/__init__.py"):
        (tmp_path / f).write_text("")
    page = ("## Layout\n\n| path | contents |\n|---|---|\n"
            "| `engine/cards.py`, `gone.py` | cards |\n"
            "| `engine/ecarte/` | `deal.py` (the deal) |\n\n## Tests\n")
    assert unnamed_modules(tmp_path, page) == ["engine/ecarte/new.py"]
    assert named_but_absent(tmp_path, page) == ["engine/gone.py"]


def test_the_cli_package_map_names_every_command_module():
    """apps/cli/__init__.py's docstring (the map of the command modules) names each."""
    import ast
    init = REPO / "apps" / "cli" / "__init__.py"
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
    named = set(re.findall(r":mod:`\.(\w+)`", doc))
    modules = {p.stem for p in init.parent.glob("*.py")} - {"__init__", "__main__"}
    assert modules - named == set()


@pytest.mark.quick
def test_the_results_row_names_every_report():
    """The row of results/ names each of its entries (it once listed 5 of 17)."""
    import subprocess
    tracked = subprocess.run(["git", "ls-files", "results"], cwd=REPO, capture_output=True,
                             text=True)
    if tracked.returncode != 0 or not tracked.stdout:
        pytest.skip("not a git checkout: results/ cannot be listed as tracked")
    entries = {line.split("/")[1] + ("/" if line.count("/") > 1 else "")
               for line in tracked.stdout.splitlines()} - {"README.md"}
    row = next(line for line in PAGE.read_text(encoding="utf-8").splitlines()
               if line.startswith("| `results/` |"))
    assert entries - set(re.findall(r"`([^`]+)`", row)) == set()
