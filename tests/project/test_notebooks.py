"""The notebooks in notebooks/ are committed executed (small sizes, so a reader sees every
figure without running anything) and are exactly what scripts/make_notebooks.py writes; a
fresh run of each, top to bottom (nbclient), gives the committed numbers: every printed or
displayed number, and each figure's numbers (its text form), within one unit of the last
printed digit."""

from __future__ import annotations

import copy
import importlib.util
import json
import time

import pytest
from helpers import REPO

pytest.importorskip("nbformat")
pytest.importorskip("nbclient")

ROOT = REPO
NOTEBOOKS = ROOT / "notebooks"
_spec = importlib.util.spec_from_file_location("make_notebooks",
                                               ROOT / "scripts" / "make_notebooks.py")
mk = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mk)

#: Notebook -> text that must appear in its outputs (committed and fresh).
EXPECTED = {
    "jeux_de_regle.ipynb": ["small run", "rule 'three-trumps'", "not a jeu de règle",
                            "all jeux de règle, played without proposing: P(point)"],
    "score_strategy.ipynb": ["small run", "V[0, 0] =", "adversary at four",
                             "play minus propose at 0-0, all jeux de règle:"],
    "piquet.ipynb": ["small run", "deal total: elder", "heuristic v heuristic: elder wins",
                     "elder five v four", "first dealer wins"],
    "strategy.ipynb": ["small run", "shipped strategy: play model", "value from 0-0",
                       "parts from the treatise", "the card reproduces",
                       "advise: elder at 0-0", "paired deals; the best response",
                       "short list reproduces", "discard:", "full run"],
}
#: Each committed notebook, outputs and PNGs included, stays under this size.
MAX_BYTES = 1_000_000
REGENERATE = "regenerate with: python scripts/make_notebooks.py --execute"


def _read(name):
    import nbformat

    return nbformat.read(NOTEBOOKS / name, as_version=4)


def _text(nb) -> tuple[str, int]:
    """All text a notebook's code cells show, and the number of PNGs."""
    parts = [mk.outputs_text(c) for c in nb.cells if c.cell_type == "code"]
    return "\n".join(t for t, _ in parts), sum(i for _, i in parts)


@pytest.mark.quick
def test_every_notebook_is_tested():
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == sorted(EXPECTED)
    assert sorted(mk.notebooks()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_committed_executed(name):
    """Committed as the script writes it with --execute: the script's cells, each code cell
    run in order, a figure at least, no error, no stderr, no timings or kernel version."""
    path = NOTEBOOKS / name
    assert path.stat().st_size < MAX_BYTES
    nb = _read(name)
    built = mk.notebooks()[name]
    assert [(c.cell_type, c.id, c.source) for c in nb.cells] == \
        [(c.cell_type, c.id, c.source) for c in built.cells], \
        f"{name}: its cells are not the script's; {REGENERATE}"
    assert nb.metadata == built.metadata, f"{name}: metadata beyond the script's"
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), \
        f"{name}: not executed top to bottom; {REGENERATE}"
    for cell in code:
        assert "execution" not in cell.metadata, f"{name}: timings kept"
        for out in cell.outputs:
            assert out.output_type != "error", f"{name}: cell {cell.id} failed"
            assert not (out.output_type == "stream" and out.name == "stderr")
    text, images = _text(nb)
    assert images >= 1, f"{name}: no figure"
    for expected in EXPECTED[name]:
        assert expected in text, f"{name}: {expected!r} missing from the committed outputs"
    # the sizes are the small ones, read from the environment by the first code cell
    assert "ECARTE_NOTEBOOK_SMALL" in code[0].source
    assert str(ROOT) not in json.dumps(nb), f"{name}: a path of this machine in the outputs"


def test_comparison_can_fail():
    """The comparison of a fresh run with the committed one sees a changed number or word and
    forgives a last digit rounded the other way."""
    nb = _read("piquet.ipynb")
    cell = next(c for c in nb.cells if c.cell_type == "code" and "deal total: elder" in
                mk.outputs_text(c)[0])
    out = next(o for o in cell.outputs if o.output_type == "stream")
    assert mk.differences(nb, copy.deepcopy(nb)) == []
    total = out.text.split("deal total: elder ")[1].split(",")[0]

    def changed(new_text):
        other = copy.deepcopy(nb)
        other_cell = next(c for c in other.cells if c.get("id") == cell.get("id"))
        next(o for o in other_cell.outputs if o.output_type == "stream").text = new_text
        return mk.differences(nb, other)

    assert changed(out.text.replace(f"elder {total},", f"elder {int(total) + 1},")) == []
    assert changed(out.text.replace(f"elder {total},", f"elder {int(total) + 2},"))
    assert changed(out.text.replace("deal total", "deal sum"))
    assert changed(out.text + "one more line\n")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fresh_run_matches_committed(name):
    """Executed afresh from the script's cells (small sizes, in notebooks/), the notebook
    shows the committed numbers and figures, and writes nothing beside the notebooks."""
    before = sorted(p.name for p in NOTEBOOKS.iterdir())
    t0 = time.perf_counter()
    fresh = mk.execute(mk.notebooks()[name])  # raises on the first failing cell
    print(f"{name}: executed in {time.perf_counter() - t0:.1f} s (small mode)")
    assert sorted(p.name for p in NOTEBOOKS.iterdir()) == before

    text, images = _text(fresh)
    assert "Traceback" not in text
    for expected in EXPECTED[name]:
        assert expected in text, f"{name}: {expected!r} missing from a fresh run's outputs"
    assert images >= 1, f"{name}: no figure was shown"
    found = mk.differences(_read(name), fresh)
    assert not found, f"{name}: a fresh run differs from the committed outputs " \
                      f"({REGENERATE}):\n" + "\n".join(found[:10])


@pytest.mark.quick
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
