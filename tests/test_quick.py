"""The quick subset (``python -m pytest -m quick``, listed in tests/conftest.py) keeps up
with the suite: every test it names exists, so that a renamed test does not drop silently
out of the subset (a file it does not list contributes its first test)."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import QUICK

TESTS = Path(__file__).resolve().parent


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def test_every_name_listed_exists():
    files = {p.name: p for p in TESTS.glob("test_*.py")}
    for name, tests in QUICK.items():
        if name in files and "*" not in tests:
            missing = set(tests) - _test_names(files[name])
            assert not missing, (name, missing)


def test_this_file_is_in_the_quick_subset(request):
    """This very test is in the subset (its file is listed with "*")."""
    assert request.node.get_closest_marker("quick") is not None
