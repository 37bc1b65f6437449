"""Provenance (analysis/provenance.py): every JSON output and every report file says what
command, parameters, seed, n and version made it."""

from __future__ import annotations

import json
import struct

import pandas as pd
import pytest

from helpers import json_only

pytestmark = pytest.mark.quick


def png_text(path) -> dict:
    """The tEXt chunks of a PNG file."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, pos = {}, 8
    while pos < len(data):
        (length,), kind = struct.unpack(">I", data[pos:pos + 4]), data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"tEXt":
            key, _, value = body.partition(b"\x00")
            out[key.decode("latin-1")] = value.decode("latin-1")
        pos += 12 + length
    return out


def check_report_dir(out, command: str, seed: int) -> None:
    prov = json.loads((out / "provenance.json").read_text(encoding="utf-8"))
    assert prov["command"] == f"ecarte-sim {command}" or prov["command"].startswith(
        f"ecarte-sim {command}")
    assert prov["seed"] == seed and prov["version"] and "n" in prov
    assert prov["execution"]["backend"]["backend"] == "threads"
    for csv in out.glob("*.csv"):
        frame = pd.read_csv(csv)
        assert {"seed", "version", "made_by"} <= set(frame.columns), csv.name
        assert (frame["seed"] == seed).all() and (frame["version"] == prov["version"]).all()
    for png in out.glob("*.png"):
        text = png_text(png)
        assert json.loads(text["Description"])["seed"] == seed, png.name
        assert text["Software"].startswith("ecarte-sim ")
    for md in out.glob("*.md"):
        assert "provenance.json" in md.read_text(encoding="utf-8"), md.name
    assert not list(out.glob("*.tmp*"))


def test_scores_report_and_json(cli, tmp_path):
    obj = json_only(cli("scores", "--json", "--deals", "5000", "--bootstrap", "5",
                        "--seed", "4", "--play", "heuristic", "--out", str(tmp_path)), True)
    assert obj["provenance"]["n"] == 5000 and obj["provenance"]["seed"] == 4
    assert obj["provenance"]["parameters"]["settings"]["play"]["elder"] == "heuristic"
    check_report_dir(tmp_path, "scores", 4)


def test_claims_report(cli, tmp_path):
    obj = json_only(cli("claims", "--play", "heuristic", "--deals", "1500", "--json",
                        "--quiet", "--seed", "2", "--out", str(tmp_path)), True)
    assert obj["provenance"]["parameters"]["models"] == ["heuristic"]
    assert obj["provenance"]["n"]["heuristic"]["regle"] == 1500
    check_report_dir(tmp_path, "claims", 2)


def test_piquet_report(cli, tmp_path):
    obj = json_only(cli("piquet", "report", "--json", "--quiet", "--seed", "3",
                        "--deals", "2000", "--dd-deals", "0", "--pimc-deals", "0",
                        "--paired-deals", "2000", "--parties", "200",
                        "--search-deals", "0", "--out", str(tmp_path)), True)
    assert obj["provenance"]["command"] == "ecarte-sim piquet report"
    check_report_dir(tmp_path, "piquet report", 3)


@pytest.mark.parametrize("command, args, n", [
    ("simulate", ["simulate", "--deals", "2000"], 2000),
    ("simulate", ["simulate", "--deals", "300", "--no-exchange"], 300),
    ("hand", ["hand", "QH AH 7H KS KD", "--trump", "H", "--deals", "2000"], 2000),
    ("piquet simulate", ["piquet", "simulate", "--deals", "2000"], 2000),
    ("piquet partie", ["piquet", "partie", "--parties", "100"], 100),
])
def test_json_of_long_commands_carries_provenance(cli, command, args, n):
    obj = json_only(cli(*args, "--json", "--seed", "6"), True)
    p = obj["provenance"]
    assert p["seed"] == 6 and p["n"] == n and p["version"]
    assert p["command"] == f"ecarte-sim {command}"
    assert "git_commit" in p and isinstance(p["parameters"], dict)


def test_run_dir_manifest_is_copied_into_provenance(cli, tmp_path):
    run = tmp_path / "run"
    json_only(cli("scores", "--json", "--deals", "3000", "--bootstrap", "0",
                  "--play", "heuristic", "--out", str(tmp_path / "out"), "--run-dir", str(run)))
    prov = json.loads((tmp_path / "out" / "provenance.json").read_text())
    assert prov["run_manifest"] == str(run / "manifest.json")
    assert prov["run_manifest_content"]["command"] == "scores"
