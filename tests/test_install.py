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
  that needs the ``wheel`` package), the test is skipped and says why.
"""
from __future__ import annotations

import configparser
import json
import os
import shutil
import subprocess
import sys
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = "ecarte_sim"
NOT_SHIPPED = ("tests", "scripts", "notebooks", "results")
MUST_SHIP = ("ecarte_sim/__init__.py", "ecarte_sim/engine/cards.py", "ecarte_sim/analysis/cli/__init__.py")
ENTRY_POINT = ("ecarte-sim", "ecarte_sim.analysis.cli:run")


def _run(args, cwd, **kwargs):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, **kwargs)


def _inside(path: str | None) -> bool:
    return path is not None and Path(path).resolve().is_relative_to(REPO)


# --------------------------------------------------------------------------- the environment

def checkout_names() -> list[str]:
    """Every top-level name the checkout would provide if its root were on sys.path."""
    names = {"engine", "analysis"}
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


def test_only_ecarte_sim_is_importable_from_outside_the_checkout(tmp_path):
    names = checkout_names()
    done = _run([sys.executable, "-c", PROBE, *names], cwd=tmp_path, timeout=120)
    assert done.returncode == 0, f"`import ecarte_sim` failed outside the checkout:\n{done.stderr}"
    seen = json.loads(done.stdout.strip().splitlines()[-1])

    for module, file in seen["files"].items():
        assert _inside(file), f"{module} comes from {file}, not from the checkout {REPO}"
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
                      cwd=REPO, timeout=60)
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
    done = _run([sys.executable, "-c", BACKEND_REQUIRES], cwd=source, timeout=120)
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
                 "--disable-pip-version-check", "-w", str(out), str(source)], cwd=out, timeout=600)
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
