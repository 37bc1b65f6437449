"""Guards the packaging: installing ecarte-sim puts exactly one top-level import name,
``ecarte_sim``, into the environment.

pyproject.toml maps the checkout's root to the package ``ecarte_sim`` (its folders
``engine/`` and ``analysis/`` are ``ecarte_sim.engine`` and ``ecarte_sim.analysis``). A wrong
mapping, or an install that puts the checkout itself on ``sys.path``, would also make
``engine`` and ``analysis`` importable as top-level names, or ship tests and scripts in
the wheel.

* The installed environment (the editable install of the tests' interpreter), seen from a
  directory outside the checkout.
* A wheel built from a temporary copy of the checkout's files (``git ls-files``), so the
  build leaves no ``build/`` or ``*.egg-info`` in the checkout. It is built without build
  isolation and without an index, so with the current environment's build backend; if that
  cannot build the project (an older setuptools than ``[build-system] requires``, or one
  that needs the ``wheel`` package), the test is skipped and says why. It carries the
  licence, the declared floors and a description without relative links.
* The sdist, built the same way: it ships the whole test suite (helpers and data included).
* ``__version__``, ``python -m ecarte_sim``, ``py.typed``; numba's cache in a per-user folder
  when the package is installed (not a checkout) and ``NUMBA_CACHE_DIR`` is unset; an
  installed run's provenance says how it was installed.

.ci/installed does the rest as a user meets it: the wheel built from the sdist, installed
into a fresh venv at the declared floors, its commands run from an empty directory, the
quick tests run from the unpacked sdist.
"""
from __future__ import annotations

import configparser
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest
from helpers import BLOCKED, REPO

PACKAGE = "ecarte_sim"
NOT_SHIPPED = ("tests", "scripts", "notebooks", "results")
MUST_SHIP = ("ecarte_sim/__init__.py", "ecarte_sim/__main__.py", "ecarte_sim/py.typed",
             "ecarte_sim/engine/cards.py", "ecarte_sim/apps/cli/__init__.py",
             "ecarte_sim/engine/piquet/rules.md", "ecarte_sim/docs/primer.md",
             "ecarte_sim/analysis/practice/examples/treatise_a_y.json")
ENTRY_POINT = ("ecarte-sim", "ecarte_sim.apps.cli:run")


def _run(args, cwd, **kwargs):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, **kwargs)


def _inside(path: str | None) -> bool:
    return path is not None and Path(path).resolve().is_relative_to(REPO)


# --------------------------------------------------------------------------- the environment

def checkout_names() -> list[str]:
    """Every top-level name the checkout would provide if its root were on sys.path."""
    names = {"engine", "analysis", "api", "apps"}
    for entry in REPO.iterdir():
        name = entry.stem if entry.suffix == ".py" else entry.name
        if (entry.is_dir() or entry.suffix == ".py") and name.isidentifier() and not name.startswith("_"):
            names.add(name)
    return sorted(names)


PROBE = textwrap.dedent("""
    import importlib.util, json, sys
    import ecarte_sim, ecarte_sim.engine, ecarte_sim.analysis

    def locations(name):
        spec = importlib.util.find_spec(name)
        if spec is None:
            return None
        return [spec.origin, *(spec.submodule_search_locations or [])]

    print(json.dumps({
        "files": {m.__name__: m.__file__ for m in (ecarte_sim, ecarte_sim.engine, ecarte_sim.analysis)},
        "top_level": {name: locations(name) for name in sys.argv[1:]},
        "sys_path": sys.path,
    }))
""")


@pytest.mark.quick
def test_only_ecarte_sim_is_importable_from_outside_the_checkout(tmp_path):
    names = checkout_names()
    done = _run([sys.executable, "-c", PROBE, *names], cwd=tmp_path, timeout=BLOCKED)
    assert done.returncode == 0, f"`import ecarte_sim` failed outside the checkout:\n{done.stderr}"
    seen = json.loads(done.stdout.strip().splitlines()[-1])

    # Editable (the checkout's own environment) or not (.ci/installed runs the suite from an
    # unpacked sdist against the installed wheel): all three modules from the same place.
    files = seen["files"]
    if _inside(files[PACKAGE]):
        for module, file in files.items():
            assert _inside(file), f"{module} comes from {file}, not from the checkout {REPO}"
    else:
        installed = Path(files[PACKAGE]).resolve().parent
        assert installed.name == PACKAGE and installed.parent.name in ("site-packages", "dist-packages"), \
            f"ecarte_sim comes from {files[PACKAGE]}: neither the checkout {REPO} nor an installation"
        for module, file in files.items():
            assert Path(file).resolve().is_relative_to(installed), f"{module} comes from {file}"
    # a top-level name may exist (an unrelated third-party package), but not from the checkout
    leaked = {name: where for name, where in seen["top_level"].items()
              if where and any(_inside(path) for path in where)}
    assert not leaked, (f"top-level names importable from the checkout: {leaked}\n"
                        f"sys.path: {seen['sys_path']}")


# --------------------------------------------------------------------------- the wheel

def copy_checkout(dest: Path) -> Path:
    """The checkout's tracked and untracked-but-not-ignored files, copied to ``dest``."""
    try:
        listed = _run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                      cwd=REPO, timeout=BLOCKED)
    except FileNotFoundError:
        pytest.skip("git is not installed: cannot list the checkout's files")
    if listed.returncode != 0:
        pytest.skip(f"not a git checkout ({listed.stderr.strip()})")
    for rel in filter(None, listed.stdout.split("\0")):
        source = REPO / rel
        if source.is_file():  # a file deleted in the work tree is still listed by --cached
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / rel)
    return dest


BACKEND_REQUIRES = textwrap.dedent("""
    import importlib, json, tomllib
    build = tomllib.load(open("pyproject.toml", "rb"))["build-system"]
    backend = importlib.import_module(build["build-backend"])
    print(json.dumps(list(build.get("requires", [])) + list(backend.get_requires_for_build_wheel())))
""")


def offline_build_problem(source: Path) -> str | None:
    """Why this environment cannot build the wheel without fetching anything, or None:
    what pyproject's [build-system] and its backend ask for must already be installed."""
    from importlib.metadata import PackageNotFoundError, version

    from packaging.requirements import Requirement

    build = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]
    asked = list(build.get("requires", []))
    done = _run([sys.executable, "-c", BACKEND_REQUIRES], cwd=source, timeout=BLOCKED)
    if done.returncode != 0:
        return f"the build backend {build.get('build-backend')} cannot run here:\n{done.stderr[-2000:]}"
    asked += json.loads(done.stdout.strip().splitlines()[-1])
    problems = []
    for text in dict.fromkeys(asked):
        requirement = Requirement(text)
        try:
            installed = version(requirement.name)
        except PackageNotFoundError:
            problems.append(f"{text} (not installed)")
            continue
        if not requirement.specifier.contains(installed, prereleases=True):
            problems.append(f"{text} (installed: {installed})")
    return "the build needs " + ", ".join(problems) if problems else None


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    source = copy_checkout(tmp_path_factory.mktemp("checkout"))
    problem = offline_build_problem(source)
    if problem:
        pytest.skip(f"cannot build the wheel offline without build isolation: {problem}")
    out = tmp_path_factory.mktemp("wheelhouse")
    done = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                 "--disable-pip-version-check", "-w", str(out), str(source)], cwd=out, timeout=BLOCKED)
    assert done.returncode == 0, f"pip wheel failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    wheels = sorted(out.glob("*.whl"))
    assert len(wheels) == 1, f"expected one wheel in {out}, found {[w.name for w in wheels]}"
    with zipfile.ZipFile(wheels[0]) as archive:
        yield archive


def _payload(archive: zipfile.ZipFile) -> list[str]:
    return [n for n in archive.namelist() if not n.split("/", 1)[0].endswith(".dist-info")]


def test_the_wheel_holds_only_the_package(wheel):
    files = _payload(wheel)
    outside = [n for n in files if not n.startswith(f"{PACKAGE}/")]
    assert not outside, f"files outside {PACKAGE}/ in the wheel: {outside}"
    missing = [n for n in MUST_SHIP if n not in files]
    assert not missing, f"missing from the wheel: {missing}"
    shipped = [n for n in files if set(n.split("/")[:-1]) & set(NOT_SHIPPED)]
    assert not shipped, f"files of {', '.join(NOT_SHIPPED)} in the wheel: {shipped}"


def test_the_wheel_declares_one_top_level_name_and_the_command(wheel):
    info = {n.split("/", 1)[1]: n for n in wheel.namelist() if n.split("/", 1)[0].endswith(".dist-info")}
    if "top_level.txt" in info:  # setuptools writes it; other backends need not
        assert wheel.read(info["top_level.txt"]).decode().split() == [PACKAGE]
    assert "entry_points.txt" in info, f"no entry_points.txt in the wheel's dist-info: {sorted(info)}"
    entry_points = configparser.ConfigParser(delimiters=("=",), interpolation=None)
    entry_points.read_string(wheel.read(info["entry_points.txt"]).decode())
    scripts = dict(entry_points["console_scripts"]) if "console_scripts" in entry_points else {}
    name, target = ENTRY_POINT
    assert scripts.get(name) == target, f"console_scripts: {scripts}, expected {name} = {target}"


RULES_PROBE = textwrap.dedent("""
    import json, sys
    from starlette.testclient import TestClient
    import ecarte_sim
    from ecarte_sim.apps.web.app import create_app
    with TestClient(create_app(sys.argv[1])) as client:
        r = client.get("/rules")
    print(json.dumps({"package": ecarte_sim.__file__, "status": r.status_code, "text": r.text}))
""")


def test_the_installed_wheel_serves_the_rules_page(wheel, tmp_path):
    """Installed from the wheel (not the checkout), the web page's rules link works: the
    primer ships as package data (it answered 404, "the primer is not installed here",
    when the page read docs/primer.md of a checkout)."""
    pytest.importorskip("starlette", reason="the web extra is not installed")
    pytest.importorskip("httpx", reason="the test client needs httpx (the test extra)")
    site = tmp_path / "site"
    done = _run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index",
                 "--disable-pip-version-check", "--target", str(site), wheel.filename],
                cwd=tmp_path, timeout=BLOCKED)
    assert done.returncode == 0, done.stderr[-3000:]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    probe = subprocess.run([sys.executable, "-c", RULES_PROBE, str(tmp_path / "store")],
                           cwd=tmp_path, env={**env, "PYTHONPATH": str(site)},
                           capture_output=True, text=True, timeout=BLOCKED)
    assert probe.returncode == 0, probe.stderr[-3000:]
    seen = json.loads(probe.stdout.strip().splitlines()[-1])
    assert Path(seen["package"]).resolve().is_relative_to(site.resolve()), seen["package"]
    assert seen["status"] == 200, seen["text"][:300]
    assert seen["text"] == (REPO / "docs" / "primer.md").read_text(encoding="utf-8")


def _metadata(archive: zipfile.ZipFile):
    from email.parser import Parser
    name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
    return Parser().parsestr(archive.read(name).decode())


def test_the_wheel_carries_the_licence_and_the_declared_floors(wheel):
    meta = _metadata(wheel)
    assert meta["License-Expression"] == "MIT" and meta.get_all("License-File") == ["LICENSE"]
    licence = [n for n in wheel.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
    assert licence and wheel.read(licence[0]) == (REPO / "LICENSE").read_bytes()
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert sorted(meta.get_all("Requires-Dist")[:len(project["dependencies"])]) == \
        sorted(project["dependencies"])
    import ecarte_sim
    assert meta["Version"] == ecarte_sim.__version__
    # the description shown by a package index: no relative link to break there
    description = meta.get_payload()
    assert description.startswith("# ecarte-sim") and not re.search(r"\]\((?!https?:)[^)]*\)", description)


def test_the_sdist_ships_the_whole_suite(tmp_path):
    """The sdist holds every tracked test file, helper and data file (so its quick tests
    run: .ci/installed runs them from the unpacked sdist), the licence, and no cache."""
    source = copy_checkout(tmp_path / "checkout")
    problem = offline_build_problem(source)
    if problem:
        pytest.skip(f"cannot build the sdist offline without build isolation: {problem}")
    out = tmp_path / "dist"
    out.mkdir()
    done = _run([sys.executable, "-c", "import sys; from setuptools import build_meta as b; "
                 "print(b.build_sdist(sys.argv[1]))", str(out)], cwd=source, timeout=BLOCKED)
    assert done.returncode == 0, done.stderr[-3000:]
    (sdist,) = out.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    tracked = _run(["git", "ls-files", "tests", "LICENSE", "pyproject.toml"], cwd=REPO, timeout=BLOCKED)
    wanted = {n for n in tracked.stdout.split("\n") if n and (REPO / n).is_file()}
    assert {"tests/conftest.py", "tests/data", "LICENSE"} <= wanted | {"tests/data"}
    assert not wanted - names, f"missing from the sdist: {sorted(wanted - names)}"
    assert not [n for n in names if "__pycache__" in n or n.endswith((".pyc", ".nbi", ".nbc"))]


def test_version_and_python_m(tmp_path):
    import ecarte_sim
    from importlib.metadata import version
    assert ecarte_sim.__version__ == version("ecarte-sim")
    done = _run([sys.executable, "-m", "ecarte_sim", "--version"], cwd=tmp_path, timeout=BLOCKED)
    assert done.returncode == 0 and done.stdout == f"ecarte-sim, version {ecarte_sim.__version__}\n"
    assert (REPO / "py.typed").is_file()


def test_numba_cache_dir_is_per_user_when_installed(tmp_path, monkeypatch):
    """Installed (no pyproject.toml beside the package), numba's cache goes to the platform's
    per-user cache folder; in a checkout it stays numba's default (None: not set)."""
    import ecarte_sim
    assert ecarte_sim._numba_cache_dir() is None               # this checkout
    site = tmp_path / "site-packages" / "ecarte_sim"
    site.mkdir(parents=True)
    monkeypatch.setattr(ecarte_sim, "__file__", str(site / "__init__.py"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "local"))
    expected = {"win32": tmp_path / "local" / "ecarte-sim" / "cache" / "numba",
                "darwin": Path.home() / "Library" / "Caches" / "ecarte-sim" / "numba"}
    assert Path(ecarte_sim._numba_cache_dir()) == expected.get(
        sys.platform, tmp_path / "xdg" / "ecarte-sim" / "numba")


def test_an_installed_package_is_set_before_numba_loads(tmp_path):
    """A copy of the package outside any checkout, imported with NUMBA_CACHE_DIR unset:
    numba's cache dir is the per-user folder, also when numba was imported first."""
    source = copy_checkout(tmp_path / "src")
    (source / "pyproject.toml").unlink()                       # as in a wheel
    site = tmp_path / "site"
    site.mkdir()
    (site / PACKAGE).symlink_to(source, target_is_directory=True)
    probe = ("import sys; first = sys.argv[1] == 'numba-first'\n"
             "if first: import numba\n"
             "import ecarte_sim.engine.cards, numba.core.config as c; print(c.CACHE_DIR)")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONSAFEPATH")}
    env.update(PYTHONPATH=str(site), XDG_CACHE_HOME=str(tmp_path / "xdg"))
    for order in ("package-first", "numba-first"):
        done = subprocess.run([sys.executable, "-c", probe, order], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=BLOCKED)
        assert done.returncode == 0, done.stderr[-2000:]
        if sys.platform not in ("win32", "darwin"):
            assert done.stdout.strip() == str(tmp_path / "xdg" / "ecarte-sim" / "numba"), order


def test_provenance_says_how_it_was_installed(monkeypatch):
    from ecarte_sim.analysis.reports import provenance as prov

    class Dist:
        def __init__(self, **files):
            self.files = files

        def read_text(self, name):
            return self.files.get(name)

    def installed(**files):
        monkeypatch.setattr(prov, "distribution", lambda name: Dist(**files))
        return prov.installed()

    assert installed(INSTALLER="pip\n") == "pip, from a package index"
    assert installed(INSTALLER="uv", **{"direct_url.json": json.dumps(
        {"url": "file:///tmp/w/ecarte_sim-0.1.0-py3-none-any.whl", "archive_info": {}})}) \
        == "uv, from the archive ecarte_sim-0.1.0-py3-none-any.whl"
    assert installed(INSTALLER="pip", **{"direct_url.json": json.dumps(
        {"url": "file:///home/a/ecarte-sim", "dir_info": {"editable": True}})}) \
        == "pip, editable, from file:///home/a/ecarte-sim"
    assert installed(INSTALLER="pip", **{"direct_url.json": json.dumps(
        {"url": "https://example.org/x.git", "vcs_info": {"vcs": "git", "commit_id": "abc"}})}) \
        == "pip, from git https://example.org/x.git at abc"
    assert installed() == "not installed: imported from its source folder"
    # without a git commit, the provenance says it; with one, nothing changes
    monkeypatch.setattr(prov, "package_version", lambda: "0.1.0")
    monkeypatch.setattr(prov, "git_commit", lambda: None)
    assert prov.provenance("x", {}, 1, 2)["installed"] == "not installed: imported from its source folder"
    monkeypatch.setattr(prov, "git_commit", lambda: "f" * 40)
    assert "installed" not in prov.provenance("x", {}, 1, 2)
