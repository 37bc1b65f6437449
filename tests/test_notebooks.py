"""The notebooks in notebooks/: each executes top to bottom with small parameters (nbclient,
in a temporary directory, outputs kept in memory only), and the committed files carry no
outputs."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: Notebook -> text that must appear in its outputs after a small run.
EXPECTED = {
    "jeux_de_regle.ipynb": ["small run", "rule 'three-trumps'", "not a jeu de règle",
                            "all jeux de règle, played without proposing: P(point)"],
    "score_strategy.ipynb": ["small run", "V[0, 0] =", "adversary at four",
                             "play minus propose at 0-0, all jeux de règle:"],
    "piquet.ipynb": ["small run", "deal total: elder", "heuristic v heuristic: elder wins",
                     "elder five v four", "first dealer wins"],
    "strategy.ipynb": ["small run", "advise: elder at 0-0", "paired deals; the best response",
                       "short list reproduces", "discard:", "full run"],
}
#: The committed files stay small (no embedded outputs or images).
MAX_BYTES = 100_000


def _texts(nb) -> tuple[str, int]:
    """All text the notebook printed or displayed, and the number of PNG images."""
    parts, images = [], 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            if out.output_type == "stream":
                parts.append(out.text)
            elif out.output_type in ("display_data", "execute_result"):
                parts.append(out.get("data", {}).get("text/plain", ""))
                parts.append(out.get("data", {}).get("text/html", ""))
                images += "image/png" in out.get("data", {})
            elif out.output_type == "error":
                parts.append("\n".join(out.traceback))
    return "\n".join(parts), images


def test_every_notebook_is_tested():
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_committed_without_outputs(name):
    path = NOTEBOOKS / name
    assert path.stat().st_size < MAX_BYTES
    nb = json.loads(path.read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code
    for cell in code:
        assert cell["outputs"] == [], f"{name}: a code cell has outputs"
        assert cell["execution_count"] is None, f"{name}: a code cell has an execution count"
    # the first code cell holds the size parameters, read from the environment
    assert "ECARTE_NOTEBOOK_SMALL" in "".join(code[0]["source"])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_notebook_runs_small(name, tmp_path, monkeypatch):
    nbclient = pytest.importorskip("nbclient")
    import nbformat

    # The kernel inherits the environment: small sizes, no display.
    monkeypatch.setenv("ECARTE_NOTEBOOK_SMALL", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    before = sorted(p.name for p in NOTEBOOKS.iterdir())
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    t0 = time.perf_counter()
    client.execute()  # raises CellExecutionError on the first failing cell
    seconds = time.perf_counter() - t0
    print(f"{name}: executed in {seconds:.1f} s (small mode)")

    text, images = _texts(nb)
    assert "Traceback" not in text
    for expected in EXPECTED[name]:
        assert expected in text, f"{name}: {expected!r} missing from the outputs"
    assert images >= 1, f"{name}: no figure was shown"
    assert all(c.execution_count is not None for c in nb.cells if c.cell_type == "code")
    # nothing was written next to the committed notebooks
    assert sorted(p.name for p in NOTEBOOKS.iterdir()) == before


@pytest.mark.parametrize("readme", ["notebooks/README.md", "README.md"])
def test_every_notebook_is_listed(readme):
    """A newcomer finds every notebook from the READMEs (and no README names a notebook
    that is not there)."""
    text = (NOTEBOOKS.parent / readme).read_text(encoding="utf-8")
    present = {p.name for p in NOTEBOOKS.glob("*.ipynb")}
    assert present == set(EXPECTED), "a notebook without its expected outputs in EXPECTED"
    for name in present:
        assert name in text, f"{readme} does not list {name}"
    import re
    named = set(re.findall(r"[\w-]+\.ipynb", text))
    assert named <= present, f"{readme} names notebooks that do not exist: {named - present}"
    assert "pip install -e '.[notebooks]'" in text
