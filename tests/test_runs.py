"""Checkpoint and resume (engine/runs.py): task files, manifests, and runs killed mid-way
(SIGINT, SIGKILL) whose resumed result equals an uninterrupted run exactly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from engine.batch import reduce_counts
from engine.runs import RunDir, RunDirError

IDENT = {"command": "test", "parameters": {"n": 10}, "seed": 1, "width": 3, "block": 4}


def _fake_block(calls):
    def run_block(lo, n, rows):
        calls.append(lo)
        out = np.zeros((rows, 3), dtype=np.int64)
        out[0] = [n, lo, lo * lo]
        return out
    return run_block


def test_store_saves_each_task_and_resume_recomputes_nothing(tmp_path):
    calls: list[int] = []
    plain = reduce_counts(_fake_block(calls), 0, 10, 3, block=4)
    store = RunDir(tmp_path / "run", IDENT)
    first = reduce_counts(_fake_block(calls), 0, 10, 3, block=4, store=store)
    assert np.array_equal(first, plain) and calls == [0, 4, 8, 0, 4, 8]
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == [
        "manifest.json", "task-0-4.npy", "task-4-8.npy", "task-8-10.npy"]
    (tmp_path / "run" / "task-4-8.npy").unlink()            # as if killed before it finished
    calls.clear()
    again = reduce_counts(_fake_block(calls), 0, 10, 3, block=4,
                          store=RunDir(tmp_path / "run", IDENT, resume=True))
    assert np.array_equal(again, plain) and calls == [4]


@pytest.mark.parametrize("key, value", [("seed", 2), ("parameters", {"n": 11}), ("block", 5),
                                        ("command", "other"), ("width", 4)])
def test_resume_refuses_another_run(tmp_path, key, value):
    RunDir(tmp_path / "run", IDENT)
    with pytest.raises(RunDirError, match=f"its {key} is"):
        RunDir(tmp_path / "run", {**IDENT, key: value}, resume=True)


def test_resume_refuses_another_version(tmp_path):
    RunDir(tmp_path / "run", IDENT)
    manifest = tmp_path / "run" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["version"] = "0.0.0"
    manifest.write_text(json.dumps(data))
    with pytest.raises(RunDirError, match="its version is '0.0.0'"):
        RunDir(tmp_path / "run", IDENT, resume=True)


def test_new_run_refuses_a_used_directory_and_resume_needs_a_manifest(tmp_path):
    RunDir(tmp_path / "run", IDENT)
    with pytest.raises(RunDirError, match="not empty"):
        RunDir(tmp_path / "run", IDENT)
    with pytest.raises(RunDirError, match="nothing to resume"):
        RunDir(tmp_path / "empty", IDENT, resume=True)
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "manifest.json").write_bytes(b"\x00\xff not json")
    with pytest.raises(RunDirError, match="unreadable"):
        RunDir(tmp_path / "bad", IDENT, resume=True)


def test_a_foreign_task_file_is_refused(tmp_path):
    store = RunDir(tmp_path / "run", IDENT)
    np.save(tmp_path / "run" / "task-0-4.npy", np.zeros(5, dtype=np.int64))
    with pytest.raises(RunDirError, match="not a task of this run"):
        store.load(0, 4)


def test_manifest_records_provenance(tmp_path):
    RunDir(tmp_path / "run", IDENT, command_line="ecarte-sim test")
    m = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert m["command"] == "test" and m["seed"] == 1 and m["version"]
    assert m["started"] and m["command_line"] == "ecarte-sim test" and "git_commit" in m


# --------------------------------------------------------------------------- killed runs

COMMANDS = {
    "piquet": ["piquet", "simulate", "--deals", str(1 << 22), "--task-size", str(1 << 17),
               "--seed", "5", "--json", "--threads", "1"],
    "ecarte": ["simulate", "--deals", str(3 << 20), "--task-size", str(1 << 16), "--seed", "5",
               "--play", "heuristic", "--json", "--threads", "1"],
}


def _cli(args, **kw):
    return subprocess.Popen([sys.executable, "-m", "analysis.cli", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


@pytest.mark.parametrize("game", sorted(COMMANDS))
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_killed_run_resumes_to_the_uninterrupted_result(tmp_path, game, sig):
    args = COMMANDS[game]
    whole = _cli(args)
    expected, err = whole.communicate(timeout=600)
    assert whole.returncode == 0, err
    run_dir = tmp_path / "run"
    proc = _cli([*args, "--run-dir", str(run_dir)])
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        if len(list(run_dir.glob("task-*.npy"))) >= 3:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode != 0
    done = len(list(run_dir.glob("task-*.npy")))
    value = lambda opt: int(args[args.index(opt) + 1])   # noqa: E731
    total = -(-value("--deals") // value("--task-size"))
    assert 3 <= done < total
    if sig == signal.SIGINT:
        assert b"--resume" in err and b"Traceback" not in err
    resumed = _cli([*args, "--run-dir", str(run_dir), "--resume"])
    out, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    assert out == expected
    assert len(list(run_dir.glob("task-*.npy"))) == total
    assert not list(run_dir.glob("*.tmp*"))


@pytest.mark.parametrize("args", [
    ["piquet", "simulate", "--deals", "100", "--resume"],
    ["simulate", "--deals", "100", "--no-exchange", "--run-dir", "x"],
])
def test_checkpoint_flags_misused(capsys, args):
    from tests.test_cli import cli, one_line_error
    one_line_error(cli(capsys, *args))


def test_cli_refuses_a_foreign_run_dir(capsys, tmp_path):
    from tests.test_cli import cli, json_only, one_line_error
    base = ["piquet", "partie", "--parties", "300", "--task-size", "100", "--json",
            "--run-dir", str(tmp_path / "run")]
    first = json_only(cli(capsys, *base))
    assert json_only(cli(capsys, *base, "--resume")) == first
    line = one_line_error(cli(capsys, *base, "--resume", "--seed", "9"))
    assert "its seed is 0" in line
    line = one_line_error(cli(capsys, *base))
    assert "not empty" in line
