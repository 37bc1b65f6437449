"""The tests keep to temporary folders: none writes into the user's data folder.

The practice table's store defaults to ``$XDG_DATA_HOME/ecarte-sim/games``; conftest.py
points XDG_DATA_HOME at a temporary folder for the whole run (and every process a test
starts) and keeps the real folder's path in ``ECARTE_TESTS_REAL_DATA_HOME``. A run of the
suite once left ``~/.local/share/ecarte-sim/games/.secret`` behind; these tests fail if
the default store could reach the real folder again.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import BLOCKED

REAL = Path(os.environ["ECARTE_TESTS_REAL_DATA_HOME"])


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder`` (ecarte-sim's part of the data folder), with its size and
    modification time: what a write would change."""
    if not folder.exists():
        return {}
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*")}


@pytest.mark.quick
def test_the_default_store_is_a_temporary_folder():
    from ecarte_sim.apps.web.store import default_dir

    here = Path(os.environ["XDG_DATA_HOME"])
    assert here != REAL and not here.is_relative_to(REAL)
    assert default_dir() == here / "ecarte-sim" / "games"
    assert not default_dir().is_relative_to(REAL)


def test_serve_at_its_default_store_writes_into_the_temporary_folder(cli, monkeypatch):
    """``serve`` without --store (the server itself replaced, so that the command returns)
    makes the store, and its secret, in the temporary data folder; the real one is
    untouched. In-process and in a child process (which inherits the environment)."""
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from ecarte_sim.apps.cli import serve as serve_command
    from ecarte_sim.apps.web import server
    from ecarte_sim.apps.web.store import SECRET_NAME, default_dir

    before = snapshot(REAL / "ecarte-sim")
    monkeypatch.setattr(server, "serve", lambda app, host, port, on_ready=None, url_host=None:
                        None)
    monkeypatch.setattr(serve_command, "_check_listen", lambda host, port: None)
    r = cli("serve", "--no-warm-up")
    assert r.code == 0, r.err
    assert (default_dir() / SECRET_NAME).is_file()
    child = subprocess.run([sys.executable, "-c",
                            "import os; from ecarte_sim.apps.web.store import default_dir; "
                            "print(default_dir())"], capture_output=True, text=True,
                           timeout=BLOCKED)
    assert Path(child.stdout.strip()) == default_dir(), child.stderr
    assert snapshot(REAL / "ecarte-sim") == before
