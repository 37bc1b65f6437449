"""The quick subset (``python -m pytest -m quick``) and the test folders keep up with the
suite: every test file marks some of its tests quick (``@pytest.mark.quick`` or a
``pytestmark``) unless all of it is slow, no test is both, and the folders under tests/
mirror the package's."""

from __future__ import annotations

import ast

import pytest
from conftest import FOLDERS, TESTS, folder_markers
from helpers import REPO

pytestmark = pytest.mark.quick


def _marks(decorators: list[ast.expr]) -> set[str]:
    """The ``pytest.mark.X`` names among ``decorators`` (or a ``pytestmark`` value)."""
    found = set()
    for node in decorators:
        for sub in ast.walk(node):
            if (isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Attribute)
                    and sub.value.attr == "mark"):
                found.add(sub.attr)
    return found


def _file_marks(tree: ast.Module) -> set[str]:
    return {m for node in tree.body if isinstance(node, ast.Assign)
            and any(getattr(t, "id", "") == "pytestmark" for t in node.targets)
            for m in _marks([node.value])}


def _tests(tree: ast.Module) -> dict[str, set[str]]:
    return {node.name: _marks(node.decorator_list) for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


FILES = sorted(TESTS.rglob("test_*.py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(TESTS)))
def test_every_file_has_quick_tests_and_none_is_slow(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    whole, tests = _file_marks(tree), _tests(tree)
    assert tests, path
    if "slow" in whole:
        assert not any("quick" in marks for marks in tests.values()) and "quick" not in whole
        return
    quick = [name for name, marks in tests.items() if "quick" in marks | whole]
    assert quick, f"{path.name}: no test is marked quick"
    slow_quick = [name for name, marks in tests.items() if {"quick", "slow"} <= marks | whole]
    assert not slow_quick, slow_quick


def test_the_folders_mirror_the_package():
    """tests/X/Y holds the tests of the package's X/Y (tests/project: the package as a
    whole), every folder is a registered marker, and no test file sits at the top."""
    folders = {p.parent for p in FILES}
    assert TESTS not in folders, "a test file at the top of tests/: put it in its folder"
    for folder in folders:
        parts = folder_markers(folder / "x.py")
        assert set(parts) <= set(FOLDERS), parts
        if parts[0] != "project":
            assert REPO.joinpath(*parts).is_dir(), f"tests/{'/'.join(parts)} mirrors no package"


def test_this_file_is_in_the_quick_subset(request):
    """This very test is in the subset (the module's pytestmark), and it carries its
    folder's marker."""
    assert request.node.get_closest_marker("quick") is not None
    assert request.node.get_closest_marker("project") is not None
