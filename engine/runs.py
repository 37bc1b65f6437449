"""Run directories: checkpoint a long run task by task, and resume it.

A run over deals ``[start, stop)`` is cut into tasks (the blocks of
:func:`ecarte_sim.engine.batch.reduce_counts`). Each finished task's summed int64 counts
are written to ``task-<key>-<lo>-<hi>.npy`` in the run directory (``key``: the
task's content key, :func:`ecarte_sim.engine.batch.task_key`, so that a command running
several experiments keeps them apart), under a temporary
name and then renamed, so a task file is either complete or absent: a run
killed at any moment (Ctrl-C, SIGKILL) leaves only whole tasks. Resuming loads
the finished tasks instead of recomputing them and computes the others; since
counts are integers and every task is a pure function of (seed, its range),
the resumed total equals an uninterrupted run's exactly.

``manifest.json`` (written first, atomically) records what the run is: the
command, its parameters, the seed, the package version and the task size (its
*identity*, which a resume must match exactly), plus the
git commit when available and the start time. A resume whose identity differs
(another seed, other parameters, another version) is refused with a message
naming the first field that differs.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import subprocess
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np

MANIFEST = "manifest.json"
IDENTITY = ("command", "parameters", "seed", "version", "block")


class RunDirError(ValueError):
    """A run directory that cannot be used as asked (message says why)."""


def package_version() -> str:
    try:
        return version("ecarte-sim")
    except PackageNotFoundError:      # pragma: no cover - running from a bare checkout
        return "unknown"


def git_commit() -> str | None:
    """The checkout's commit, when the package runs from a git work tree."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).resolve().parent,
                             capture_output=True, text=True, timeout=5, check=True)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def atomic_write(path: Path, write) -> None:
    """Write ``path`` through ``write(tmp)`` under a temporary name, then rename it: a
    reader sees the old file or the new one, never half of one."""
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


class RunDir:
    """A checkpoint store for one run (see the module docstring).

    ``identity``: command, parameters (JSON-serialisable), seed, block (the task size);
    the version is added here. ``resume``: continue an existing directory
    (its manifest must match); otherwise the directory must be new or empty.
    """

    def __init__(self, path: str | os.PathLike, identity: dict, resume: bool = False,
                 command_line: str | None = None):
        self.path = Path(path)
        ident = {**identity, "version": package_version()}
        missing = [k for k in IDENTITY if k not in ident]
        if missing:
            raise ValueError(f"run identity lacks {', '.join(missing)}")
        ident = json.loads(json.dumps({k: ident[k] for k in IDENTITY}))
        manifest_path = self.path / MANIFEST
        if resume:
            if not manifest_path.is_file():
                raise RunDirError(f"nothing to resume in {str(self.path)!r}: no {MANIFEST}")
            try:
                old = json.loads(manifest_path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise RunDirError(f"unreadable {MANIFEST} in {str(self.path)!r}: {exc}") from None
            if not isinstance(old, dict):
                raise RunDirError(f"{MANIFEST} in {str(self.path)!r} is not a run manifest "
                                  f"(a JSON {type(old).__name__}, not an object)")
            for key in IDENTITY:
                if old.get(key) != ident[key]:
                    raise RunDirError(
                        f"cannot resume {str(self.path)!r}: its {key} is {old.get(key)!r}, "
                        f"this command's is {ident[key]!r}")
            self.manifest = old
            for stale in self.path.glob("*.tmp*"):      # a write cut short by a kill
                stale.unlink(missing_ok=True)
        else:
            if self.path.exists() and any(self.path.iterdir()):
                raise RunDirError(f"run directory {str(self.path)!r} is not empty: use "
                                  "--resume to continue it, or another --run-dir")
            try:
                self.path.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise RunDirError(f"cannot create {str(self.path)!r}: {exc.strerror}") from None
            self.manifest = {**ident, "git_commit": git_commit(),
                             "started": _dt.datetime.now(_dt.timezone.utc).isoformat(
                                 timespec="seconds"),
                             "command_line": command_line}
            atomic_write(manifest_path, lambda p: p.write_text(
                json.dumps(self.manifest, indent=1), encoding="utf-8"))

    def _task(self, key: str, lo: int, hi: int, compressed: bool = False) -> Path:
        return self.path / f"task-{key}-{lo}-{hi}.{'npz' if compressed else 'npy'}"

    def load(self, key: str, lo: int, hi: int, width: int) -> np.ndarray | None:
        """The ``width`` counts of task ``key`` over ``[lo, hi)`` if it finished, else None
        (``key``: :func:`ecarte_sim.engine.batch.task_key`, which names the experiment and its
        parameters, so that the many experiments of one run never mix). A task saved
        compressed is read the same way."""
        path = self._task(key, lo, hi)
        packed = self._task(key, lo, hi, compressed=True)
        if not path.is_file():
            if not packed.is_file():
                return None
            path = packed
        try:
            if path is packed:
                with np.load(path, allow_pickle=False) as archive:
                    counts = archive["counts"]
            else:
                counts = np.load(path, allow_pickle=False)
        except OSError as exc:
            raise RunDirError(f"{path.name} in {str(self.path)!r} cannot be read: "
                              f"{exc.strerror or exc}") from None
        except Exception:       # numpy's reasons (truncated, not .npy, pickled) name no file
            raise RunDirError(f"{path.name} in {str(self.path)!r} is damaged (not a whole "
                              "task file as a run writes it): delete it, and --resume "
                              "computes that task again") from None
        if counts.dtype != np.int64 or counts.shape != (width,):
            raise RunDirError(f"{path.name} in {str(self.path)!r} is not a task of this run")
        return counts

    def save(self, key: str, lo: int, hi: int, counts: np.ndarray,
             compressed: bool = False) -> None:
        """Save a finished task (``compressed``: as a zip, for wide counts that are mostly
        zeros, e.g. the per-state marks tables of a strategy run)."""
        counts = np.ascontiguousarray(counts, dtype=np.int64)

        def write(tmp):
            with open(tmp, "wb") as f:
                if compressed:
                    np.savez_compressed(f, counts=counts)
                else:
                    np.save(f, counts, allow_pickle=False)
                f.flush()
                os.fsync(f.fileno())

        atomic_write(self._task(key, lo, hi, compressed), write)

    def finished(self) -> int:
        return sum(1 for p in self.path.glob("task-*.np[yz]"))
