"""A first run speaks, a log stays plain, Ctrl-C says one thing.

* On an empty numba cache the console script says on stderr, as the first kernel starts
  compiling, that it compiles what numba has not cached yet (each kernel once, for every
  command), and at the end what it compiled and how long it took; on a
  warm cache, and under ``--json``, it says nothing. The command is ``deal``, whose kernels compile in a few seconds.
* Progress written to a log (stderr not a terminal) is plain lines: no ``\\r``, a line at
  each tenth of the work, not one per step.
* Ctrl-C prints one message and exits with 130: no click "Aborted." after it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import click
import pytest

from ecarte_sim.apps.cli import common
from ecarte_sim.apps.cli.strategy import _progress
from helpers import BLOCKED

NOTICE = "compiling the kernels this command needs that numba has not cached yet"


def _console(args: list[str], cache, **kw) -> subprocess.CompletedProcess:
    """``ecarte-sim ARGS`` as the console script runs it, with numba's cache in ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "ecarte_sim.apps.cli", *args],
                          capture_output=True, text=True, env=env, timeout=BLOCKED, **kw)


@pytest.mark.quick
def test_the_first_run_says_it_compiles_and_a_warm_one_says_nothing(tmp_path):
    args = ["deal", "--seed", "7", "--index", "1"]
    cold = _console(args, tmp_path / "cache")
    assert cold.returncode == 0, cold.stderr
    assert cold.stderr.startswith(NOTICE), cold.stderr
    assert "\r" not in cold.stderr                 # a log: plain lines
    # the time measured as it went, not announced: the last line says what it took
    # and which parts of the engine it compiled, each kernel once for every command
    assert re.fullmatch(r"compiled \d+ functions? of [a-z.]+(, [a-z.]+)* in \d+ s \(each kernel "
                        r"once: later runs of any command load it from numba's cache\)",
                        cold.stderr.splitlines()[-1]), cold.stderr
    assert "ecarte.laws" in cold.stderr.splitlines()[-1]     # deal: the deal's kernels
    warm = _console(args, tmp_path / "cache")
    assert warm.returncode == 0 and warm.stderr == "", warm.stderr
    assert warm.stdout == cold.stdout and warm.stdout.startswith("deal 1 of seed 7")


def test_no_notice_under_json_even_on_a_cold_cache(tmp_path):
    r = _console(["deal", "--seed", "7", "--index", "1", "--json"], tmp_path / "cache")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert json.loads(r.stdout)["elder"] == "8S 7S AH 7H 9C"


def test_in_process_calls_get_no_notice(capsys):
    """``run(argv)`` from a program or a test is not the console script: the notice's
    listener is not even installed, so its stderr stays the command's own."""
    from ecarte_sim.apps.cli import run
    run(["deal", "--seed", "7", "--index", "1"])
    assert capsys.readouterr().err == ""
    assert common.CompileNotice._active is None and not common.CompileNotice.enabled


def test_strategy_progress_in_a_log_is_plain_lines(capsys):
    report = _progress(True)
    for done in range(1, 201):
        report("elder round 1", done, 200)
    for done in range(1, 4):
        report("dealer round 1", done, 3)
    err = capsys.readouterr().err
    assert "\r" not in err and "\x1b" not in err
    lines = err.splitlines()
    first = [x for x in lines if x.startswith("elder")]
    assert first[0] == "elder round 1: 1/200" and first[-1] == "elder round 1: 200/200"
    assert len(first) == 11                        # the first step, then each tenth
    assert [x for x in lines if x.startswith("dealer")] == [
        "dealer round 1: 1/3", "dealer round 1: 2/3", "dealer round 1: 3/3"]


def test_no_progress_means_none(capsys):
    assert _progress(False) is None
    with common.progress(False, 100, "playing") as bar:
        bar.update(100)
    assert capsys.readouterr().err == ""


def test_a_long_run_in_a_log_prints_plain_progress(capsys, monkeypatch):
    with common.progress(True, 1_000_000, "playing") as bar:
        for _ in range(100):
            bar.update(10_000)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 10 and "\r" not in "".join(lines)
    assert lines[0].startswith("playing: 100,000 of 1,000,000 (10%), ")
    assert lines[-1].startswith("playing: 1,000,000 of 1,000,000 (100%), ")
    # and at least every PLAIN_EVERY seconds when a tenth takes longer
    monkeypatch.setattr(common, "PLAIN_EVERY", 0.0)
    with common.progress(True, 1 << 40, "playing") as bar:
        bar.update(1)
        bar.update(1)
    assert len(capsys.readouterr().err.splitlines()) == 2


def test_claims_counter_in_a_log_repeats_at_most_every_interval(capsys, monkeypatch):
    counter = common.Counter(True, [("dd scores", 1000)])
    counter("dd scores", 10)
    counter("dd scores", 10)                       # within PLAIN_EVERY: nothing
    monkeypatch.setattr(common, "PLAIN_EVERY", 0.0)
    counter("dd scores", 10)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("[1/1] dd scores: started at ")
    assert len(lines) == 2 and lines[1].startswith("[1/1] dd scores: 30 deals of at most 1,000")


def test_ctrl_c_in_process_prints_one_message_and_exits_130(capsys):
    @click.group(cls=common.EcarteGroup)
    def group():
        pass

    @group.command()
    def stop():
        raise KeyboardInterrupt

    with pytest.raises(SystemExit) as exc:
        common.run_group(group, ["stop"])
    assert exc.value.code == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_ctrl_c_on_a_long_run_prints_its_message_only(tmp_path):
    """SIGINT to a running simulation (a subprocess; interrupted once a task is finished):
    its own message on where the finished work is, exit code 130, no "Aborted.", no
    traceback."""
    run_dir = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "ecarte_sim.apps.cli", "simulate",
                             "--deals", str(1 << 30), "--play", "heuristic", "--threads", "1",
                             "--task-size", str(1 << 12), "--quiet", "--run-dir", str(run_dir)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            # SIGINT as a terminal gives it, even when the tests run in a
                            # background job (which inherits SIGINT ignored)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + BLOCKED         # a cold cache compiles first
    while time.monotonic() < deadline and proc.poll() is None:
        if list(run_dir.glob("task-*.npy")):
            break
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=BLOCKED)
    assert proc.returncode == 130, err
    assert "Aborted" not in err and "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("interrupted: ") and "--resume" in err, err
    assert out == ""
