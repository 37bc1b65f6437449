"""What made a result: the provenance every JSON output and report file carries.

:func:`provenance` is the run's identity — command, parameters, seed, n, package
version, git commit — and is the same whatever the backend, worker count, task
size or resumption, so that outputs of equal runs stay byte-identical. Report
directories also get ``provenance.json`` (:func:`write_provenance`): the identity
plus how the run was executed (command line as typed, start time, backend, run
directory of its checkpoints and that directory's manifest).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path
from urllib.parse import urlparse

from ecarte_sim.engine.runs import atomic_write, git_commit, package_version

# pyarrow (optional) is imported where a parquet file's metadata is written: the rest works
# without it.

FILE = "provenance.json"


def provenance(command: str, parameters: dict, seed: int | None, n) -> dict:
    """The identity of a result (see the module docstring). Run from a git checkout it
    names the commit; installed (no commit to name), ``installed`` says how."""
    commit = git_commit()
    out = {"command": f"ecarte-sim {command}", "parameters": parameters, "seed": seed, "n": n,
           "version": package_version(), "git_commit": commit}
    if commit is None:
        out["installed"] = installed()
    return out


def installed() -> str:
    """How the package was installed, from what the installer recorded in its metadata:
    the installer and the source (PEP 610's ``direct_url.json``) — ``pip, from a package
    index``, ``pip, from the archive ecarte_sim-0.1.0-py3-none-any.whl``, ``pip, editable,
    from file:///...``, ``pip, from git https://... at <commit>``."""
    try:
        dist = distribution("ecarte-sim")
    except PackageNotFoundError:
        return "not installed: imported from its source folder"
    installer = (dist.read_text("INSTALLER") or "").strip()
    if not installer:       # metadata built in place (an egg-info), not an installation
        return "not installed: imported from its source folder"
    try:
        direct = json.loads(dist.read_text("direct_url.json") or "null")
    except ValueError:
        direct = None
    if not isinstance(direct, dict):
        return f"{installer}, from a package index"
    url = str(direct.get("url", ""))
    if isinstance(direct.get("vcs_info"), dict):
        vcs = direct["vcs_info"]
        return f"{installer}, from {vcs.get('vcs', 'vcs')} {url} at {vcs.get('commit_id')}"
    if isinstance(direct.get("archive_info"), dict):
        where = Path(urlparse(url).path).name if url.startswith("file:") else url
        return f"{installer}, from the archive {where}"
    editable = isinstance(direct.get("dir_info"), dict) and direct["dir_info"].get("editable")
    return f"{installer}, {'editable, ' if editable else ''}from {url}"


def readable_n(n) -> str:
    """A result's n as prose: a number as it is, several (a dict of what to counts, as the
    Piquet report's) as ``random 1,048,576, heuristic 1,048,576, ...``, never a Python
    repr."""
    if isinstance(n, dict):
        return ", ".join(f"{k} {v:,}" if isinstance(v, int) else f"{k} {readable_n(v)}"
                         for k, v in n.items())
    if isinstance(n, (list, tuple)):
        return ", ".join(readable_n(v) for v in n)
    return str(n)


def caption(p: dict) -> str:
    """One line for a Markdown header or a PNG caption."""
    commit = f", commit {p['git_commit'][:10]}" if p.get("git_commit") else ""
    n = p["n"]
    n_text = f"n ({readable_n(n)})" if isinstance(n, (dict, list, tuple)) else f"n {n}"
    return (f"{p['command']} — ecarte-sim {p['version']}{commit}, seed {p['seed']}, "
            f"{n_text}; full provenance in {FILE}")


def commit_file(out_dir: str, name: str, write, paths: list | None = None) -> str:
    """Write ``out_dir/name`` through ``write(tmp_path)`` under a temporary name, then
    rename it: an interrupted run leaves the old file or the new one, never half of one."""
    path = os.path.join(out_dir, name)
    atomic_write(Path(path), write)
    if paths is not None:
        paths.append(path)
    return path


class ReportFiles:
    """The scaffold every report writer shares: ``out_dir`` made, each file written under a
    temporary name and renamed (:func:`commit_file`), the paths written kept in the order
    written (``paths``), the run's provenance ``prov`` at hand; :meth:`provenance` writes
    ``provenance.json`` where the writer puts it in that order."""

    def __init__(self, out_dir: str, prov: dict):
        os.makedirs(out_dir, exist_ok=True)
        self.out_dir, self.prov, self.paths = out_dir, prov, []

    def commit(self, name: str, write) -> str:
        """``name`` written through ``write(tmp_path)`` (:func:`commit_file`)."""
        return commit_file(self.out_dir, name, write, self.paths)

    def text(self, name: str, text: str) -> str:
        """``name`` holding ``text`` (UTF-8)."""
        return self.commit(name, lambda p: Path(p).write_text(text, encoding="utf-8"))

    def csv(self, name: str, frame, float_format: str) -> str:
        """``name``: ``frame`` (a DataFrame) with the provenance columns
        (:func:`csv_columns`), no index."""
        frame = csv_columns(frame, self.prov)
        return self.commit(name, lambda p: frame.to_csv(p, index=False,
                                                         float_format=float_format))

    def provenance(self, execution: dict | None = None, command_line: str | None = None
                   ) -> str:
        """``provenance.json`` (:func:`write_provenance`)."""
        return write_provenance(self.out_dir, self.prov, execution, command_line, self.paths)


def pyplot():
    """matplotlib's pyplot on the Agg backend (files, no display), as every writer of a
    figure first needs it."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def write_provenance(out_dir: str, prov: dict, execution: dict | None = None,
                     command_line: str | None = None, paths: list | None = None) -> str:
    """``provenance.json`` in ``out_dir``: the identity, how it ran and, when the run was
    checkpointed, a pointer to (and a copy of) its run manifest."""
    full = {**prov, "command_line": command_line,
            "written": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}
    if execution:
        full["execution"] = execution
        run_dir = execution.get("run_dir")
        if run_dir:
            manifest = os.path.join(run_dir, "manifest.json")
            full["run_manifest"] = manifest
            try:
                with open(manifest, encoding="utf-8") as f:
                    full["run_manifest_content"] = json.load(f)
            except (OSError, ValueError):
                pass

    def write(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(full, f, indent=1, ensure_ascii=False, default=str)
            f.write("\n")
    return commit_file(out_dir, FILE, write, paths)


def csv_columns(frame, prov: dict):
    """``frame`` with the provenance columns every CSV row carries (seed, version, command),
    so that a CSV read alone still says what made it."""
    frame = frame.copy()
    frame["seed"] = prov["seed"]
    frame["version"] = prov["version"]
    frame["made_by"] = prov["command"]
    return frame


def parquet_metadata(frame, prov: dict, path: str) -> None:
    """Write ``frame`` to Parquet with the provenance in the schema's key-value metadata."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = pa.Table.from_pandas(frame, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[b"ecarte-sim.provenance"] = json.dumps(prov, default=str).encode()
    pq.write_table(table.replace_schema_metadata(meta), path)


def png_metadata(prov: dict) -> dict:
    """PNG text chunks for ``savefig(metadata=...)``."""
    return {"Software": f"ecarte-sim {prov['version']}", "Source": prov["command"],
            "Description": json.dumps(prov, default=str)}
