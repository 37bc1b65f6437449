"""Checkpoint and resume (engine/runs.py): task files, manifests, and runs killed mid-way
(SIGINT, SIGKILL) whose resumed result equals an uninterrupted run exactly."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

from functools import partial

import numpy as np
import pytest

from ecarte_sim.engine.batch import execution, reduce_counts, task_key
from ecarte_sim.engine.runs import RunDir, RunDirError
from helpers import BLOCKED

IDENT = {"command": "test", "parameters": {"n": 10}, "seed": 1, "block": 4}
CALLS: list[int] = []          # the task ranges computed (a module-level record, see below)


def _fake_task(scale, lo, n, rows):
    CALLS.append(lo)
    out = np.zeros((rows, 3), dtype=np.int64)
    out[0] = [n, lo * scale, lo * lo]
    return out


def _run(scale=1, **kw):
    return reduce_counts(partial(_fake_task, scale), 0, 10, 3, block=4, **kw)


def _task_files(path):
    return sorted(p.name for p in path.iterdir() if p.name.startswith("task-"))


@pytest.mark.quick
def test_store_saves_each_task_and_resume_recomputes_nothing(tmp_path):
    CALLS.clear()
    plain = _run()
    store = RunDir(tmp_path / "run", IDENT)
    with execution(store=store):
        first = _run()
    assert np.array_equal(first, plain) and CALLS == [0, 4, 8, 0, 4, 8]
    key = task_key(partial(_fake_task, 1), 3)
    assert _task_files(tmp_path / "run") == [f"task-{key}-0-4.npy", f"task-{key}-4-8.npy",
                                             f"task-{key}-8-10.npy"]
    (tmp_path / "run" / f"task-{key}-4-8.npy").unlink()     # as if killed before it finished
    CALLS.clear()
    with execution(store=RunDir(tmp_path / "run", IDENT, resume=True)):
        again = _run()
    assert np.array_equal(again, plain) and CALLS == [4]


def test_experiments_of_one_run_keep_their_tasks_apart(tmp_path):
    """Two experiments (other parameters) over the same range in one run directory: each
    loads only its own tasks, so a resumed run never mixes them."""
    expected = {scale: _run(scale) for scale in (1, 2)}
    with execution(store=RunDir(tmp_path / "run", IDENT)):
        assert all(np.array_equal(_run(scale), expected[scale]) for scale in (1, 2))
    assert len(_task_files(tmp_path / "run")) == 6
    CALLS.clear()
    with execution(store=RunDir(tmp_path / "run", IDENT, resume=True)):
        assert all(np.array_equal(_run(scale), expected[scale]) for scale in (1, 2))
    assert CALLS == []


def test_task_size_of_the_execution_sets_the_tasks(tmp_path):
    CALLS.clear()
    with execution(task_size=3):
        total = _run()
    assert CALLS == [0, 3, 6, 9] and np.array_equal(total, [10, 18, 0 + 9 + 36 + 81])


def test_task_key_names_function_and_parameters():
    a = task_key(partial(_fake_task, 1), 3)
    assert a == task_key(partial(_fake_task, 1), 3)
    assert a != task_key(partial(_fake_task, 2), 3) and a != task_key(partial(_fake_task, 1), 4)
    assert task_key(partial(_fake_task, np.arange(3)), 3) != task_key(
        partial(_fake_task, np.arange(3, dtype=np.int32)), 3)
    with pytest.raises(TypeError, match="functools.partial"):
        task_key(lambda lo, n, rows: None, 3)


@pytest.mark.quick
@pytest.mark.parametrize("key, value", [("seed", 2), ("parameters", {"n": 11}), ("block", 5),
                                        ("command", "other")])
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


def test_a_foreign_or_broken_task_file_is_refused(tmp_path):
    store = RunDir(tmp_path / "run", IDENT)
    np.save(tmp_path / "run" / "task-k-0-4.npy", np.zeros(5, dtype=np.int64))
    with pytest.raises(RunDirError, match="not a task of this run"):
        store.load("k", 0, 4, 3)
    (tmp_path / "run" / "task-k-4-8.npy").write_bytes(b"\x93NUMPY garbage")
    with pytest.raises(RunDirError, match="task-k-4-8.npy .* is damaged"):
        store.load("k", 4, 8, 3)


def _damage(path, how: str) -> None:
    """Make the task file ``path`` damaged ``how``: cut short, garbage, or an object
    array (which numpy would offer to load unsafely)."""
    if how == "truncated":
        path.write_bytes(path.read_bytes()[:-5])
    elif how == "garbage":
        path.write_bytes(b"not a numpy file at all")
    else:
        np.save(path, np.array([1, "x", None], dtype=object), allow_pickle=True)


@pytest.mark.quick
@pytest.mark.parametrize("how", ["truncated", "garbage", "object"])
@pytest.mark.parametrize("compressed", [False, True])
def test_a_damaged_task_file_is_named_in_one_line(tmp_path, how, compressed):
    store = RunDir(tmp_path / "run", IDENT)
    store.save("k", 0, 4, np.arange(3), compressed=compressed)
    assert store.load("k", 0, 4, 3).tolist() == [0, 1, 2]
    path = store._task("k", 0, 4, compressed)
    if compressed and how == "object":
        with open(path, "wb") as f:
            np.savez(f, counts=np.array([1, "x"], dtype=object))
    else:
        _damage(path, how)
    with pytest.raises(RunDirError) as info:
        store.load("k", 0, 4, 3)
    message = str(info.value)
    assert path.name in message and "damaged" in message and "\n" not in message
    assert "unsafe" not in message and "pickle" not in message


@pytest.mark.parametrize("how", ["truncated", "object"])
def test_cli_names_a_damaged_task_file(cli, tmp_path, how):
    from helpers import json_only, one_line_error
    base = ["piquet", "partie", "--parties", "300", "--task-size", "100", "--json",
            "--run-dir", str(tmp_path / "run")]
    json_only(cli(*base))
    task = sorted((tmp_path / "run").glob("task-*.npy"))[0]
    _damage(task, how)
    line = one_line_error(cli(*base, "--resume"))
    assert task.name in line and "damaged" in line and "unsafe" not in line


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


def _default_sigint():
    """In the child: Ctrl-C as a terminal gives it. A job started in the background by a
    non-interactive shell inherits SIGINT ignored, and Python then keeps it ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _cli(args, **kw):
    return subprocess.Popen([sys.executable, "-m", "ecarte_sim.apps.cli", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_default_sigint, **kw)


@pytest.mark.parametrize("game", sorted(COMMANDS))
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_killed_run_resumes_to_the_uninterrupted_result(tmp_path, game, sig):
    args = COMMANDS[game]
    whole = _cli(args)
    expected, err = whole.communicate(timeout=BLOCKED)
    assert whole.returncode == 0, err
    run_dir = tmp_path / "run"
    proc = _cli([*args, "--run-dir", str(run_dir)])
    deadline = time.monotonic() + BLOCKED
    while time.monotonic() < deadline and proc.poll() is None:
        if len(list(run_dir.glob("task-*.npy"))) >= 3:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=BLOCKED)
    assert proc.returncode != 0
    done = len(list(run_dir.glob("task-*.npy")))
    value = lambda opt: int(args[args.index(opt) + 1])   # noqa: E731
    total = -(-value("--deals") // value("--task-size"))
    assert 3 <= done < total
    if sig == signal.SIGINT:
        assert b"--resume" in err and b"Traceback" not in err
    resumed = _cli([*args, "--run-dir", str(run_dir), "--resume"])
    out, err = resumed.communicate(timeout=BLOCKED)
    assert resumed.returncode == 0, err
    assert out == expected
    assert len(list(run_dir.glob("task-*.npy"))) == total
    assert not list(run_dir.glob("*.tmp*"))


@pytest.mark.parametrize("args", [
    ["piquet", "simulate", "--deals", "100", "--resume"],
    ["simulate", "--deals", "100", "--scheduler", "http://example.org"],
    ["simulate", "--deals", "100", "--scheduler", "tcp://a b"],
    ["simulate", "--deals", "100", "--scheduler", "tcp://127.0.0.1:1", "--workers", "2"],
    ["hand", "QH AH 7H KS KD", "--trump", "H", "--resume"],
])
def test_checkpoint_flags_misused(cli, args):
    from helpers import one_line_error
    one_line_error(cli(*args))


@pytest.mark.quick
def test_cli_refuses_a_foreign_run_dir(cli, tmp_path):
    from helpers import json_only, one_line_error
    base = ["piquet", "partie", "--parties", "300", "--task-size", "100", "--json",
            "--run-dir", str(tmp_path / "run")]
    first = json_only(cli(*base))
    assert json_only(cli(*base, "--resume")) == first
    line = one_line_error(cli(*base, "--resume", "--seed", "9"))
    assert "its seed is 0" in line
    line = one_line_error(cli(*base))
    assert "not empty" in line
