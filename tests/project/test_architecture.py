"""Guards the package's import structure, read statically from the source (no import, no numba).

* No import cycles between the modules of ``ecarte_sim`` (function-level imports count;
  ``if TYPE_CHECKING:`` blocks do not).
* The two games are independent: ``ecarte_sim.engine.ecarte`` never imports
  ``ecarte_sim.engine.piquet`` and vice versa, nor do their analyses.
* The tiers are folders: ``engine``, ``analysis`` (the questions and their reports),
  ``api`` (the front door), ``apps`` (the command line, the web app, the practice table,
  the bench); each imports only those before it.
* Every package's sub-packages have an order (:data:`ORDER`), tested as the engine's:
  Écarté's engine goes from the cards up (``laws``, ``search``, ``decisions``, ``play``,
  ``deals``), and so on; each imports only those before it. Every package that has
  sub-packages has its order here (:func:`test_every_package_has_an_order`). ``settings``
  and ``records`` import none of the engine's layers, and ``reference`` imports no module
  of the engine's (it shares only the card parser of ``ecarte_sim.engine.cards``).
* No module reaches into another's private names: no ``from m import _name`` and no
  ``m._name`` through an imported module ``m`` of the package (the seams between modules
  are public and documented).

An edge goes to the module an import names, not to the parent packages Python also runs:
``from ecarte_sim.engine import cards`` is an edge to ``ecarte_sim.engine.cards``, and an
``__init__`` importing its own submodules, which import their siblings, is no cycle.
A submodule importing *names* from its package's ``__init__`` while that ``__init__``
imports the submodule is one.

The last tests run the same checks on small synthetic trees, so that they can be seen to fail.
"""
from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from typing import NamedTuple

import pytest
from helpers import REPO

pytestmark = pytest.mark.quick

PACKAGE = "ecarte_sim"
SUBPACKAGES = ("engine", "analysis", "api", "apps")  # folders of the checkout that are sub-packages (the tiers)

#: Each package's sub-packages in order: a sub-package imports only those before it (and
#: modules outside its package). The top level's are the tiers: the engine, the questions
#: and their reports, the front door, the applications.
ORDER = {
    "ecarte_sim": ("engine", "analysis", "api", "apps"),
    # the two games side by side (they never import each other: FORBIDDEN below)
    "ecarte_sim.engine": ("ecarte", "piquet"),
    # Écarté's engine from the cards up
    "ecarte_sim.engine.ecarte": ("laws", "search", "decisions", "play", "deals"),
    "ecarte_sim.analysis": ("stats", "ecarte", "piquet", "practice", "reports"),
    # Écarté's questions (their map: analysis/ecarte/__init__.py)
    "ecarte_sim.analysis.ecarte": ("measures", "text", "solving", "advice", "play", "claims"),
    "ecarte_sim.apps": ("practice", "web", "bench", "cli"),
}

FORBIDDEN = [  # (importer, imported): no module under the first imports one under the second
    ("ecarte_sim.engine.ecarte", "ecarte_sim.engine.piquet"),
    ("ecarte_sim.engine.piquet", "ecarte_sim.engine.ecarte"),
    ("ecarte_sim.analysis.ecarte", "ecarte_sim.analysis.piquet"),
    ("ecarte_sim.analysis.piquet", "ecarte_sim.analysis.ecarte"),
    # the reference is independent of the kernels it checks (it shares the card parser)
    ("ecarte_sim.engine.ecarte.reference", "ecarte_sim.engine.ecarte"),
]
# a sub-package imports only those before it
FORBIDDEN += [(f"{package}.{low}", f"{package}.{high}")
              for package, subs in ORDER.items()
              for i, low in enumerate(subs) for high in subs[i + 1:]]
# the settings and the records (the typed boundary) import none of the engine's layers
ENGINE = "ecarte_sim.engine.ecarte"
FORBIDDEN += [(f"{ENGINE}.{top}", f"{ENGINE}.{layer}")
              for top in ("settings", "records") for layer in ORDER[ENGINE]]


class Import(NamedTuple):
    source: str  # importing module
    target: str  # imported module of the tree
    path: Path
    line: int
    named: str  # the module the statement names (== target unless it does not exist)

    def where(self, root: Path = REPO) -> str:
        path = self.path.relative_to(root) if self.path.is_relative_to(root) else self.path
        return f"{self.source} -> {self.target} ({path.as_posix()}:{self.line})"


# --------------------------------------------------------------------------- the graph

def module_files(root: Path) -> dict[str, Path]:
    """Dotted module name -> source file, for the root ``__init__.py`` and every ``.py``
    under ``engine/`` and ``analysis/``."""
    modules = {PACKAGE: root / "__init__.py"} if (root / "__init__.py").is_file() else {}
    for sub in SUBPACKAGES:
        for path in sorted((root / sub).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if "__pycache__" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join((PACKAGE, *parts))] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(node: ast.AST):
    """Every Import / ImportFrom at any depth, skipping the bodies of ``if TYPE_CHECKING:``."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
        return
    skip = isinstance(node, ast.If) and _is_type_checking(node.test)
    for child in node.orelse if skip else ast.iter_child_nodes(node):
        yield from _import_nodes(child)


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _known(name: str, modules: dict[str, Path]) -> str:
    """The longest prefix of ``name`` that is a module of the tree (a missing one falls
    back to its nearest existing package)."""
    while name not in modules and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    """The ``ecarte_sim`` modules that ``module`` imports, with the line of each import."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = []
    for node in _import_nodes(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:  # relative: strip level - 1 trailing parts of the package
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = []
            for alias in node.names:  # `from x import y`: y is a submodule or a name of x
                sub = f"{base}.{alias.name}"
                targets.append(sub if sub in modules else base)
        for target in dict.fromkeys(targets):
            if _within(target, PACKAGE):
                found.append(Import(module, _known(target, modules), path, node.lineno, target))
    return found


def build_imports(root: Path) -> list[Import]:
    modules = module_files(root)
    return [imp for name, path in modules.items() for imp in imports_of(name, path, modules)]


# --------------------------------------------------------------------------- the checks

def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module, or a module importing
    itself (iterative Tarjan), each sorted; sorted by their first module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []
    nodes = sorted(set(graph) | {t for targets in graph.values() for t in targets})
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in graph.get(node, ()):
                        cycles.append(sorted(component))
    return sorted(cycles)


def graph_of(imports: list[Import]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for imp in imports:
        graph.setdefault(imp.source, set()).add(imp.target)
    return graph


def cycle_report(imports: list[Import], root: Path = REPO) -> list[str]:
    """One entry per cycle: its modules and every import line between them."""
    report = []
    for cycle in find_cycles(graph_of(imports)):
        members = set(cycle)
        lines = [imp.where(root) for imp in imports if imp.source in members and imp.target in members]
        report.append("cycle of " + ", ".join(cycle) + ":\n    " + "\n    ".join(lines))
    return report


def missing_modules(imports: list[Import], root: Path = REPO) -> list[str]:
    return [f"{imp.named}: {imp.where(root)}" for imp in imports if imp.named != imp.target]


def forbidden_imports(imports: list[Import], importer: str, imported: str) -> list[Import]:
    return [imp for imp in imports if _within(imp.source, importer) and _within(imp.target, imported)]


# --------------------------------------------------------------------------- the real tree

@pytest.fixture(scope="module")
def imports() -> list[Import]:
    return build_imports(REPO)


def test_the_graph_covers_the_package(imports):
    """Guards the guard: a walker that found nothing would pass every check below."""
    modules = module_files(REPO)
    for name in ("ecarte_sim", "ecarte_sim.engine.cards", "ecarte_sim.engine.ecarte",
                 "ecarte_sim.engine.piquet", "ecarte_sim.apps.cli"):
        assert name in modules, f"{name} not found under {REPO}"
    assert any(imp.target == "ecarte_sim.engine.cards" for imp in imports)


def test_every_import_names_a_module_of_the_tree(imports):
    """An import of a module that does not exist (a leftover of a move) would otherwise be
    counted as an import of its parent package."""
    missing = missing_modules(imports)
    assert not missing, "imports of modules that do not exist:\n  " + "\n  ".join(missing)


def test_no_import_cycles(imports):
    report = cycle_report(imports)
    assert not report, f"{len(report)} import cycle(s):\n" + "\n".join(report)


@pytest.mark.parametrize(("importer", "imported"), FORBIDDEN, ids=[f"{a}-x-{b}" for a, b in FORBIDDEN])
def test_layers_stay_apart(imports, importer, imported):
    bad = forbidden_imports(imports, importer, imported)
    assert not bad, f"{importer} must not import {imported}:\n  " + "\n  ".join(imp.where() for imp in bad)


def sub_packages(root: Path) -> dict[str, list[str]]:
    """Every package of the tree that has sub-packages, with their names."""
    found = {}
    for init in sorted(root.rglob("__init__.py")):
        folder = init.parent
        if "__pycache__" in folder.parts or "tests" in folder.relative_to(root).parts[:1]:
            continue
        rel = folder.relative_to(root).parts
        if rel and rel[0] not in SUBPACKAGES:
            continue
        subs = sorted(p.name for p in folder.iterdir() if (p / "__init__.py").is_file())
        if subs:
            found[".".join((PACKAGE, *rel))] = subs
    return found


def test_every_package_has_an_order():
    """A package that has sub-packages names them all in :data:`ORDER` (one added without
    its place in the order fails here)."""
    found = sub_packages(REPO)
    assert set(found) == set(ORDER), set(found) ^ set(ORDER)
    for package, subs in found.items():
        assert sorted(ORDER[package]) == subs, (package, subs, ORDER[package])


# --------------------------------------------------------------------------- the checks can fail

@pytest.mark.parametrize(("graph", "expected"), [
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ({"a": {"b", "c"}, "b": {"c"}, "c": set()}, []),  # a diamond is no cycle
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"a"}}, [["a"]]),
    ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c", "e"}, "e": set()}, [["a", "b"], ["c", "d"]]),
], ids=["chain", "diamond", "triangle", "self", "two-cycles"])
def test_find_cycles(graph, expected):
    assert find_cycles(graph) == expected


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    for sub in SUBPACKAGES:
        (root / sub).mkdir(exist_ok=True)
    return root


BASE = {"__init__.py": "", "engine/__init__.py": "", "engine/cards.py": "",
        "engine/ecarte/__init__.py": "", "engine/piquet/__init__.py": "",
        "analysis/__init__.py": "", "analysis/stats.py": ""}


@pytest.mark.parametrize(("files", "expected"), [
    ({"engine/ecarte/a.py": "from ecarte_sim.engine.ecarte import b\n",
      "engine/ecarte/b.py": "def f():\n    import ecarte_sim.engine.ecarte.a\n"},  # function-level
     [["ecarte_sim.engine.ecarte.a", "ecarte_sim.engine.ecarte.b"]]),
    ({"engine/ecarte/__init__.py": "from ecarte_sim.engine.ecarte.a import X\n",
      "engine/ecarte/a.py": "from ecarte_sim.engine.ecarte import Y\nX = 1\n"},  # names of the parent __init__
     [["ecarte_sim.engine.ecarte", "ecarte_sim.engine.ecarte.a"]]),
    ({"engine/ecarte/__init__.py": "from . import a\n",
      "engine/ecarte/a.py": "from .b import Z\n",
      "engine/ecarte/b.py": "from .. import cards\nfrom ..ecarte import a\n"},  # relative imports
     [["ecarte_sim.engine.ecarte.a", "ecarte_sim.engine.ecarte.b"]]),
], ids=["siblings", "parent-init", "relative"])
def test_a_cycle_is_reported(tmp_path, files, expected):
    imports = build_imports(write_tree(tmp_path, {**BASE, **files}))
    assert find_cycles(graph_of(imports)) == expected
    report = "\n".join(cycle_report(imports, tmp_path))
    assert all(name in report for name in expected[0]) and "engine/ecarte/a.py:1" in report


def private_uses(root: Path = REPO) -> list[str]:
    """Every use of another module's private name (``_x``, not a dunder): ``from m import
    _x`` with ``m`` a module of the tree, and ``alias._x`` where ``alias`` was bound to
    another module of the tree by an import; as "file:line name"."""
    modules = module_files(root)
    found = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        aliases = {}
        for node in _import_nodes(tree):
            if isinstance(node, ast.ImportFrom) and node.module and \
                    _within(node.module, PACKAGE):
                for a in node.names:
                    full = f"{node.module}.{a.name}"
                    if full in modules:
                        aliases[a.asname or a.name] = full
                    elif a.name.startswith("_") and not a.name.startswith("__"):
                        found.append((path, node.lineno, f"{node.module}.{a.name}"))
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname and a.name in modules:
                        aliases[a.asname] = a.name
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__") and isinstance(node.value, ast.Name)
                    and aliases.get(node.value.id, module) != module):
                found.append((path, node.lineno,
                              f"{aliases[node.value.id]}.{node.attr}"))
    return sorted(f"{p.relative_to(root).as_posix()}:{line} {name}"
                  for p, line, name in set(found))


def test_no_module_uses_another_modules_private_names():
    assert private_uses() == []


def test_a_private_name_used_across_modules_is_reported(tmp_path):
    root = write_tree(tmp_path, {**BASE,
        "engine/ecarte/a.py": "def _hidden():\n    pass\n_N = 3\n",
        "engine/ecarte/b.py": ("from ecarte_sim.engine.ecarte.a import _hidden\n"
                               "from ecarte_sim.engine.ecarte import a as A\n"
                               "x = A._N + A.__name__.count('a')\n"),
        "engine/ecarte/c.py": "def _own():\n    pass\n_own()\n"})
    assert private_uses(root) == ["engine/ecarte/b.py:1 ecarte_sim.engine.ecarte.a._hidden",
                                  "engine/ecarte/b.py:3 ecarte_sim.engine.ecarte.a._N"]


def test_a_clean_tree_passes(tmp_path):
    imports = build_imports(write_tree(tmp_path, {**BASE,
        # an __init__ importing its submodules, which import their siblings: no cycle
        "engine/ecarte/__init__.py": "from ecarte_sim.engine.ecarte import a, b\n",
        "engine/ecarte/a.py": "import ecarte_sim.engine.ecarte.b\nfrom ecarte_sim.engine import cards\n",
        "engine/ecarte/b.py": ("from typing import TYPE_CHECKING\n"
                               "if TYPE_CHECKING:\n    from ecarte_sim.engine.ecarte import a\n"
                               "    from ecarte_sim.analysis import stats\n"
                               "import numpy, os.path\n"),
        "analysis/stats.py": "from ecarte_sim.engine.ecarte import a\n"}))
    assert find_cycles(graph_of(imports)) == []
    assert all(not forbidden_imports(imports, *rule) for rule in FORBIDDEN)
    assert ("ecarte_sim.engine.ecarte.a", "ecarte_sim.engine.cards") in {(i.source, i.target) for i in imports}


@pytest.mark.parametrize(("files", "rule", "expected"), [
    ({"engine/ecarte/a.py": "import os\n\ndef f():\n    from ecarte_sim.engine.piquet import deal\n",
      "engine/piquet/deal.py": ""}, FORBIDDEN[0],
     "ecarte_sim.engine.ecarte.a -> ecarte_sim.engine.piquet.deal (engine/ecarte/a.py:4)"),
    ({"engine/piquet/__init__.py": "import ecarte_sim.engine.ecarte.solver as S\n",
      "engine/ecarte/solver.py": ""}, FORBIDDEN[1],
     "ecarte_sim.engine.piquet -> ecarte_sim.engine.ecarte.solver (engine/piquet/__init__.py:1)"),
    ({"engine/cards.py": "\nfrom ecarte_sim.analysis.stats import wilson\n"},
     ("ecarte_sim.engine", "ecarte_sim.analysis"),
     "ecarte_sim.engine.cards -> ecarte_sim.analysis.stats (engine/cards.py:2)"),
    ({"api/front.py": "from ecarte_sim.apps.cli import run\n", "apps/cli.py": ""},
     ("ecarte_sim.api", "ecarte_sim.apps"),
     "ecarte_sim.api.front -> ecarte_sim.apps.cli (api/front.py:1)"),
    ({"engine/ecarte/laws/a.py": "from ecarte_sim.engine.ecarte.deals.b import c\n",
      "engine/ecarte/deals/b.py": ""},
     ("ecarte_sim.engine.ecarte.laws", "ecarte_sim.engine.ecarte.deals"),
     "ecarte_sim.engine.ecarte.laws.a -> ecarte_sim.engine.ecarte.deals.b (engine/ecarte/laws/a.py:1)"),
], ids=["ecarte-x-piquet", "piquet-x-ecarte", "engine-x-analysis", "api-x-apps",
        "laws-x-deals"])
def test_a_forbidden_import_is_reported(tmp_path, files, rule, expected):
    assert rule in FORBIDDEN
    imports = build_imports(write_tree(tmp_path, {**BASE, **files}))
    assert [imp.where(tmp_path) for imp in forbidden_imports(imports, *rule)] == [expected]


def test_an_import_of_a_missing_module_is_reported(tmp_path):
    imports = build_imports(write_tree(tmp_path, {**BASE,
        "analysis/report.py": "from ecarte_sim.analysis.stats import wilson\nimport ecarte_sim.analysis.gone\n"}))
    assert missing_modules(imports, tmp_path) == [
        "ecarte_sim.analysis.gone: ecarte_sim.analysis.report -> ecarte_sim.analysis (analysis/report.py:2)"]
