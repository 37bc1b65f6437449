"""The README and the pages of docs/ keep working.

* Every relative link (``[text](path)``, ``![alt](path)``) of README.md and docs/*.md points
  at a file or folder that exists, and every ``#anchor`` at a heading of the target page
  (GitHub's slug of it) or an explicit ``<a id="...">``.
* Every ``ecarte-sim ...`` command shown in a fenced shell block of those pages runs and
  exits 0 (or the code written after it as ``# exit N``). Each runs in-process, through the
  console entry point, at a small size: ``helpers.SMALL`` says which size options are set (or
  replaced) for each command, and ``--out`` / ``--run-dir`` directories are moved into
  ``tmp_path``. Shell lines that cannot be made small are in :data:`SKIPPED`, each with its
  reason; any other shell line in a page fails the test until it is given one or the other.
"""

from __future__ import annotations

import re
import shlex
import time
from pathlib import Path
from urllib.parse import unquote

import pytest

from helpers import REPO, invoke, small_command

ROOT = REPO
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: Shell lines shown in the pages that the test does not run, by design: (a regular
#: expression matched at the start of the line or of an ``&&`` part, the reason).
SKIPPED: list[tuple[str, str]] = [
    (r"python -m pip install", "installs the package: the environment is already installed"),
    (r"python -m pytest", "the test suite itself (CI runs it: .ci/run)"),
    (r"dask (scheduler|worker)", "starts a long-running cluster process"),
    (r"jupyter lab", "starts an interactive server"),
    (r"ecarte-sim serve(?!.*--load-test)", "starts the web server, which runs until Ctrl-C "
                                           "(tests/test_web_*.py drive it)"),
    (r"ecarte-sim .*--scheduler", "needs a running Dask scheduler (tests/engine/test_cluster.py "
                                  "covers the backend on a LocalCluster)"),
    (r"ecarte-sim .*--workers", "starts a local Dask cluster of worker processes "
                                "(tests/engine/test_cluster.py covers it)"),
]

SHELL_FENCES = {"bash", "sh", "shell", "console", ""}


# --------------------------------------------------------------------------- reading pages

def fenced_blocks(text: str, *, adjacent: bool = False):
    """(language, lines) of each fenced code block; with ``adjacent``, also whether only
    blank lines separate it from the block before."""
    blocks, lang, lines, gap = [], None, [], None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            if lang is None:
                lang, lines = stripped[3:].strip().lower(), []
            else:
                blocks.append((lang, lines, gap is not None and not gap.strip()))
                lang, gap = None, ""
        elif lang is not None:
            lines.append(line)
        elif gap is not None:
            gap += line
    return blocks if adjacent else [(lang, lines) for lang, lines, _ in blocks]


def shown_outputs(page: Path) -> list[tuple[str, list[str]]]:
    """(command, the output lines shown for it) wherever a shell block of one ecarte-sim
    command is followed directly by a ``text`` block."""
    blocks = fenced_blocks(page.read_text(encoding="utf-8"), adjacent=True)
    pairs = []
    for (lang, lines, _), (next_lang, shown, follows) in zip(blocks, blocks[1:]):
        body = [line.strip() for line in lines if line.strip()]
        if (lang in SHELL_FENCES and next_lang == "text" and follows and len(body) == 1
                and body[0].startswith("ecarte-sim ")):
            pairs.append((body[0], shown))
    return pairs


def missing_lines(shown: list[str], printed: str) -> list[str]:
    """The shown lines the command did not print: ``...`` stands for lines left out, and a
    line ending in ``...`` for the rest of that line."""
    lines = [line.rstrip() for line in printed.splitlines()]
    missing = []
    for line in shown:
        line = line.rstrip()
        if line.strip() == "...":
            continue
        if line.endswith("..."):
            prefix = line[:-3].rstrip()
            if not any(have.startswith(prefix) for have in lines):
                missing.append(line)
        elif line not in lines:
            missing.append(line)
    return missing


def prose(text: str) -> str:
    """The page without its fenced blocks and inline code spans."""
    out, fenced = [], False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            out.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(out)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: link text kept, markup and punctuation dropped,
    lower case, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    found, seen = set(), {}
    for line in _heading_lines(text):
        base = slug(line)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    found |= set(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", text))
    return found


def _heading_lines(text: str):
    fenced = False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            yield line.lstrip("#").strip()


def links(page: Path) -> list[str]:
    return re.findall(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)",
                      prose(page.read_text(encoding="utf-8")))


def broken_links(page: Path) -> list[str]:
    """Each relative link of ``page`` that does not resolve, with why."""
    bad = []
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):        # http:, https:, mailto:
            continue
        path, _, anchor = unquote(target).partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            bad.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            bad.append(f"{target}: no heading or <a id> '{anchor}' in {dest.name}")
        elif anchor and dest.suffix != ".md":
            bad.append(f"{target}: an anchor into a file that is not Markdown")
    return bad


def shell_lines(page: Path) -> list[str]:
    """The commands of the shell blocks: continuation lines joined, comments and prompts
    dropped."""
    out = []
    for lang, lines in fenced_blocks(page.read_text(encoding="utf-8")):
        if lang not in SHELL_FENCES:
            continue
        joined, carry = [], ""
        for line in lines:
            if line.rstrip().endswith("\\"):
                carry += line.rstrip()[:-1] + " "
                continue
            joined.append(carry + line)
            carry = ""
        for line in joined:
            line = line.strip()
            if line.startswith("$ "):
                line = line[2:]
            if line and not line.startswith("#"):
                out.append(line)
    return out


def commands() -> tuple[list[tuple[str, list[str], int]], list[tuple[str, str]]]:
    """(the line as shown, its ecarte-sim arguments, the expected exit) of every command to
    run, and (line, reason) of every line skipped by design. A shell line that is neither
    fails here, naming it."""
    runs, skipped, unknown = [], [], []
    for page in PAGES:
        for line in shell_lines(page):
            expected = 0
            m = re.search(r"#\s*exit\s+(\d+)\s*$", line)
            if m:
                expected = int(m.group(1))
            for part in re.split(r"\s+&&\s+", re.sub(r"\s+#.*$", "", line)):
                reason = next((why for pattern, why in SKIPPED if re.match(pattern, part)), None)
                if reason:
                    skipped.append((part, reason))
                elif part.startswith("ecarte-sim "):
                    if "|" in shlex.split(part) or re.search(r"[<>]", part):
                        unknown.append(f"{page.name}: {part} (pipes and redirections "
                                       "are not run: show the command alone)")
                    else:
                        runs.append((part, shlex.split(part)[1:], expected))
                else:
                    unknown.append(f"{page.name}: {part}")
    assert not unknown, ("shell lines neither run nor skipped by design (add a reason to "
                         f"SKIPPED or show an ecarte-sim command): {unknown}")
    unique = {line: (line, args, code) for line, args, code in runs}
    return list(unique.values()), skipped


RUNS, SKIPS = commands()
OUTPUTS = [(page, line, shown) for page in PAGES for line, shown in shown_outputs(page)]


# --------------------------------------------------------------------------- tests

@pytest.mark.quick
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_resolves(page):
    assert links(page), f"{page.name} has no link at all: is the link pattern right?"
    assert broken_links(page) == []


def test_the_link_check_can_fail(tmp_path):
    """A page with a missing file, a missing anchor and a good anchor: the two bad ones are
    found, the good one is not."""
    page = tmp_path / "page.md"
    page.write_text("# A title\n\n## Écarté: the point\n\n[ok](#écarté-the-point) "
                    "[bad](#nowhere) [missing](nothing.md) `[code](ignored.md)`\n"
                    "```bash\n[fenced](ignored.md)\n```\n", encoding="utf-8")
    assert broken_links(page) == ["#nowhere: no heading or <a id> 'nowhere' in page.md",
                                  "nothing.md: no such file"]


def test_the_pages_show_the_main_commands():
    """The README's two commands are where a newcomer looks first, and the collection of
    commands is not empty by accident."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert readme[3] == "python -m pip install -e . && ecarte-sim claims --out results/local/claims"
    assert readme[4] == "python -m pip install -e '.[test]' && python -m pytest"
    shown = {line for line, _, _ in RUNS}
    assert "ecarte-sim claims --out results/local/claims" in shown
    assert len(RUNS) >= 20
    assert {why for _, why in SKIPS} >= {SKIPPED[0][1], SKIPPED[1][1]}


def test_small_sizes_are_substituted(tmp_path):
    args = small_command(["claims", "--precision", "0.001", "--out", "results/local/claims"],
                         tmp_path)
    assert args == ["claims", "--out", str(tmp_path / "results_local_claims"), "--deals", "100"]
    args = small_command(["hand", "QH AH 7H KS KD", "--trump", "H", "--exact"], tmp_path)
    assert "--deals" not in args
    args = small_command(["piquet", "simulate", "--deals", "20000"], tmp_path)
    assert args == ["piquet", "simulate", "--deals", "2000"]


@pytest.mark.parametrize("line,args,expected", RUNS, ids=[line[:70] for line, _, _ in RUNS])
def test_every_command_shown_runs(line, args, expected, tmp_path, capsys):
    small = small_command(args, tmp_path)
    start = time.perf_counter()
    code, out, err = invoke(capsys, *small)
    seconds = time.perf_counter() - start
    assert "Traceback" not in out + err, (small, err[-2000:])
    assert code == expected, (small, code, err[-2000:])
    if expected == 0:
        assert out.strip(), f"{small}: printed nothing"
    print(f"{seconds:6.1f} s  {' '.join(small)}")


@pytest.mark.parametrize("page,line,shown", OUTPUTS,
                         ids=[f"{p.name}: {line[:60]}" for p, line, _ in OUTPUTS])
def test_shown_output_is_what_the_command_prints(page, line, shown, capsys):
    """Output pasted into a page is real and current: the command, run as shown (these are
    the quick ones), prints every line shown."""
    code, out, err = invoke(capsys, *shlex.split(line)[1:])
    assert code == 0, err[-2000:]
    assert missing_lines(shown, out) == [], f"{page.name}: the output shown for {line} is stale"


def test_the_output_check_can_fail():
    printed = "first line\n  second line, long\nthird\n"
    assert missing_lines(["first line", "...", "  second line..."], printed) == []
    assert missing_lines(["first line", "fourth"], printed) == ["fourth"]
    assert missing_lines(["  second-hand..."], printed) == ["  second-hand..."]
    assert len(OUTPUTS) >= 5, "the pages show the output of their quick-start commands"


def test_the_readme_figures_are_the_reports():
    """Every 95% interval in the README's findings is copied from a committed report (signs
    and the minus sign normalised), so none is typed by hand or left behind by a re-run."""
    def norm(text: str) -> str:
        return text.replace("−", "-").replace("+", "")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    findings = readme[readme.index("## What the simulations say"):readme.index("## Where to go next")]
    reports = norm("\n".join(p.read_text(encoding="utf-8") for p in
                             [ROOT / "results/claims/claims.md", ROOT / "results/piquet/piquet.md",
                              *sorted(ROOT.glob("results/strategy*/strategy.md")),
                              *sorted(ROOT.glob("results/equilibrium*/equilibrium.md")),
                              *sorted(ROOT.glob("results/exploitability*/exploitability.md")),
                              *sorted(ROOT.glob("results/audit*/**/audit.md")),
                              *sorted(ROOT.glob("results/every-decision*/**/*.md")),
                              ROOT / "results/versus/versus.md",
                              ROOT / "results/card-play/README.md"]))
    intervals = re.findall(r"\[[-−+]?\d[\d.]*, [-−+]?\d[\d.]*\]", findings)
    assert len(intervals) >= 20
    missing = [i for i in intervals if norm(i) not in reports]
    assert missing == [], f"README intervals in no committed report: {missing}"


# --------------------------------------------------------------------------- cited files

#: The pages whose text cites files of the repository: the README, docs/, the reports'
#: pages under results/ and the notebooks' README.
CITING = [*PAGES, *sorted((ROOT / "results").rglob("*.md")), ROOT / "notebooks" / "README.md"]


def cited_py_paths(text: str) -> list[str]:
    """Every path of a Python file with at least one folder (``api/ecarte.py``)."""
    return re.findall(r"(?<![\w./-])((?:[\w.-]+/)+[\w.-]+\.py)\b", text)


def missing_files(page: Path, text: str | None = None) -> list[str]:
    """The Python files ``page`` cites that do not exist (from the repository's root, the
    page's folder, or tests/)."""
    text = page.read_text(encoding="utf-8") if text is None else text
    return sorted({p for p in cited_py_paths(text)
                   if not any((base / p).exists() for base in (ROOT, page.parent, ROOT / "tests"))})


@pytest.mark.quick
@pytest.mark.parametrize("page", CITING, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_cited_module_exists(page):
    """A page (a committed report too) names only files that exist: the claims reports
    once cited analysis/ecarte/claims.py and engine/ecarte/class_sampling.py after the
    modules had moved into sub-packages."""
    assert missing_files(page) == []


def test_the_claims_report_cites_the_modules_where_they_are(tmp_path, capsys):
    """The generator writes the current paths (so a regenerated report keeps them)."""
    code, out, err = invoke(capsys, "claims", "--deals", "100", "--play", "heuristic", "-q",
                            "--out", str(tmp_path))
    assert code == 0, err
    text = (tmp_path / "claims.md").read_text(encoding="utf-8")
    assert len(cited_py_paths(text)) >= 2
    assert missing_files(tmp_path / "claims.md", text) == []


def test_the_cited_file_check_can_fail(tmp_path):
    page = tmp_path / "page.md"
    assert missing_files(page, "see analysis/ecarte/claims.py and engine/cards.py, "
                               "`tests/project/test_docs.py`") == ["analysis/ecarte/claims.py"]


@pytest.mark.quick
def test_no_page_installs_from_a_package_index():
    """ecarte-sim is not on a package index: no page tells a reader to
    ``pip install ecarte-sim`` (it fails: "No matching distribution found") but from the
    source or a wheel built from it. (When it is published, this test goes.)"""
    told = [f"{page.name}: {m.group(0)}" for page in PAGES
            for m in re.finditer(r"pip install\s+['\"]?ecarte-sim\b",
                                 page.read_text(encoding="utf-8"))]
    assert told == []
