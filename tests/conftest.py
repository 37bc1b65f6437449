import functools
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from helpers import run_cli
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
# ECARTE_HYPOTHESIS=long: a deeper fuzzing run (not part of CI).
settings.register_profile("long", deadline=None, max_examples=3000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("ECARTE_HYPOTHESIS")
                      or ("ci" if os.environ.get("CI") else "default"))


# --------------------------------------------------------------------------- the user's folders
#
# The tests keep to temporary folders. The practice table's store defaults to the user's
# data folder, $XDG_DATA_HOME/ecarte-sim/games (~/.local/share/ecarte-sim/games): for the
# whole run, in this process and every process a test starts, XDG_DATA_HOME names a
# temporary folder instead (removed at the end), so a test that forgets --store writes
# there. The real folder is kept in ECARTE_TESTS_REAL_DATA_HOME (set once, by the first
# process: pytest-xdist's workers inherit it) for tests/project/test_user_folders.py, which
# checks that nothing reaches it.

REAL_DATA_HOME = Path(os.environ.setdefault(
    "ECARTE_TESTS_REAL_DATA_HOME",
    os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")))
TEST_DATA_HOME = Path(tempfile.mkdtemp(prefix="ecarte-tests-data-"))
os.environ["XDG_DATA_HOME"] = str(TEST_DATA_HOME)


def pytest_unconfigure(config):
    shutil.rmtree(TEST_DATA_HOME, ignore_errors=True)


# --------------------------------------------------------------------------- fixtures

@pytest.fixture
def cli(capsys):
    """``cli(*args, stdin=None) -> Run(code, out, err)``: ``ecarte-sim ARGS`` in-process
    through the console entry point (helpers.run_cli); stdin (bytes) feeds ``--batch -``.
    Every call checks there is no traceback and the exit code is 0 or 2."""
    return functools.partial(run_cli, capsys)


# --------------------------------------------------------------------------- markers
#
# The tests sit in folders that mirror the package (tests/engine/ecarte/ tests
# engine/ecarte/, tests/apps/web/ tests apps/web/, ...; tests/project/ tests the
# package as a whole: its API, docs, install, layout). Each folder on a test's path is also
# a marker, so ``-m piquet`` runs the Piquet tests of the engine and of the analysis,
# ``-m web`` the practice table's web tests, and a folder's tests also run by its path
# (``python -m pytest tests/engine``).
#
# ``quick`` is written on the tests themselves (``@pytest.mark.quick``, or a module's
# ``pytestmark``): a few cheap tests of every test file, for a contributor's loop
# (``python -m pytest -m quick``; tests/project/test_quick.py checks that every file has
# some and that none is slow). pyproject's addopts says ``-m 'not slow'``; a ``-m`` given
# on the command line comes after it and replaces it.

TESTS = Path(__file__).resolve().parent

#: Every folder under tests/ that holds tests, by marker name: what its tests cover.
FOLDERS = {
    "engine": "the engine: cards, RNG, batches, runs, cluster (tests/engine)",
    "analysis": "the questions and the reports (tests/analysis)",
    "apps": "the applications: the command line, the web app, the practice table (tests/apps)",
    "project": "the package as a whole: API, docs, doctests, install, layout (tests/project)",
    "ecarte": "Écarté (tests/engine/ecarte, tests/analysis/ecarte)",
    "piquet": "Piquet (tests/engine/piquet, tests/analysis/piquet)",
    "practice": "the practice table's game (tests/apps/practice), its records and coach "
                "(tests/analysis/practice)",
    "web": "the practice table's web app (tests/apps/web)",
    "cli": "the command line (tests/apps/cli)",
    "stats": "intervals and precision (tests/analysis/stats)",
    "reports": "report files and provenance (tests/analysis/reports)",
}


def folder_markers(path: Path) -> tuple[str, ...]:
    """The markers of a test file: the folders between tests/ and it."""
    return path.resolve().relative_to(TESTS).parts[:-1]


def pytest_configure(config):
    for name, what in FOLDERS.items():
        config.addinivalue_line("markers", f"{name}: {what}")


@pytest.hookimpl(tryfirst=True)     # before pytest's own hook deselects by -m
def pytest_collection_modifyitems(config, items):
    """Mark each test with the folders it sits in (:func:`folder_markers`)."""
    for item in items:
        for name in folder_markers(item.path):
            item.add_marker(getattr(pytest.mark, name))
