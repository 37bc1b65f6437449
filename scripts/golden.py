"""Record, or check, the outputs of a fixed set of ecarte-sim commands, byte for byte.

Outputs must not change by accident: before a restructuring or an optimisation, record
them; afterwards, check them. Each command runs as a user would run it (the
``ecarte-sim`` console script installed beside the Python running this script, in a
subprocess); its stdout, stderr and exit code are
kept, and so are the files it writes with ``--out``. What legitimately differs from run
to run is masked before the comparison: the git commit, wall-clock times, the time a
report was written and numba's compile notice (it depends on the cache). PNG files are
compared by their decoded pixels (their text chunks carry the provenance, commit
included).

    python scripts/golden.py record DIR        # before the change
    python scripts/golden.py check DIR         # after it: exit 1 and a diff if any differs
    python scripts/golden.py check DIR -k claims   # only the commands whose name has 'claims'
    python scripts/golden.py compare DIR1 DIR2     # two recordings, without running anything
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HAND = "QH AH 7H KS KD"
BATCH = ("QH AH 7H KS KD | KH JH 9H 8H 9C | TH\n"
         "# a comment line\n"
         "7S 8S 9S 10S JS | QS KS AS 7H 8H | 9C\n"
         "KS KS 7H 8H 9H | QS QH 7C 8C 9C | TD\n")
P_ELDER = "AS KS QS JS 10S AH KH QH 7D 8D 9D 7C"
P_YOUNGER = "9S 8S 7S JH 10H 9H AD KD QD JD 8C 9C"
P_TALON = "10D 10C JC QC KC AC 8H 7H"

#: (name, arguments after ``ecarte-sim``, standard input, output directory or None)
COMMANDS: list[tuple[str, list[str], str | None, bool]] = [
    ("solve", ["solve", HAND, "KH JH 9H 8H 9C", "--trump", "TH", "--json"], None, False),
    ("solve-text", ["solve", HAND, "KH JH 9H 8H 9C", "--trump", "TH"], None, False),
    ("solve-no-forced", ["solve", HAND, "KH JH 9H 8H 9C", "--trump", "H", "--no-forced-trump",
                         "--json"], None, False),
    ("solve-batch", ["solve", "--batch", "-"], BATCH, False),
    ("classify-regle", ["classify", HAND, "--trump", "TH", "--json"], None, False),
    ("classify-propose", ["classify", "AH KS 7S KD KC", "--trump", "TH", "--json"], None, False),
    ("classify-text", ["classify", "KS QS JS 8H 8D", "--trump", "8H"], None, False),
    ("deal", ["deal", "--seed", "7", "--index", "12345", "--json"], None, False),
    ("deal-text", ["deal", "--seed", "7", "--index", "12345", "--pretty"], None, False),
    ("play-dd", ["play", "--seed", "1", "--index", "5", "--json"], None, False),
    ("play-dd-text", ["play", "--seed", "1", "--index", "5"], None, False),
    ("play-heuristic", ["play", "--seed", "1", "--index", "6", "--play", "heuristic",
                        "--json"], None, False),
    ("play-pimc", ["play", "--seed", "1", "--index", "7", "--play", "pimc", "--worlds", "16",
                   "--json"], None, False),
    ("play-pimc-text", ["play", "--seed", "1", "--index", "7", "--play", "pimc", "--worlds",
                        "16", "--pretty"], None, False),
    ("play-policies", ["play", "--seed", "4", "--index", "99", "--elder-policy", "threshold",
                       "--threshold", "7", "--dealer-policy", "always-accept", "--discard",
                       "trumps-queens", "--elder-score", "3", "--dealer-score", "4",
                       "--elder-play", "heuristic", "--json"], None, False),
    ("play-variants", ["play", "--seed", "4", "--index", "100", "--elder-policy",
                       "always-propose", "--dealer-policy", "regle", "--discard", "trumps-only",
                       "--single-exchange", "--dealer-min-one", "--no-forced-trump", "--json"],
     None, False),
    ("game", ["game", "--seed", "2", "--json"], None, False),
    ("game-text", ["game", "--seed", "2", "--game", "3", "--play", "heuristic", "-v"],
     None, False),
    ("game-pimc", ["game", "--seed", "2", "--game", "1", "--dealer-play", "pimc", "--worlds",
                   "8", "--json"], None, False),
    ("simulate-dd", ["simulate", "--deals", "20000", "--seed", "3", "--json"], None, False),
    ("simulate-dd-text", ["simulate", "--deals", "20000", "--seed", "3", "--quiet"], None, False),
    ("simulate-heuristic", ["simulate", "--deals", "20000", "--seed", "3", "--play",
                            "heuristic", "--elder-policy", "threshold", "--dealer-policy",
                            "always-refuse", "--json"], None, False),
    ("simulate-pimc", ["simulate", "--deals", "300", "--seed", "3", "--play", "pimc",
                       "--worlds", "8", "--json"], None, False),
    ("simulate-mixed", ["simulate", "--deals", "5000", "--start", "777", "--seed", "11",
                        "--elder-play", "heuristic", "--dealer-play", "dd", "--max-proposals",
                        "2", "--dealer-min-one", "--no-forced-trump", "--discard",
                        "trumps-queens", "--json"], None, False),
    ("simulate-no-exchange", ["simulate", "--deals", "50000", "--seed", "5", "--no-exchange",
                              "--json"], None, False),
    ("simulate-no-exchange-text", ["simulate", "--deals", "50000", "--seed", "5",
                                   "--no-exchange", "--no-forced-trump", "--quiet"],
     None, False),
    ("scores", ["scores", "--deals", "20000", "--bootstrap", "20", "--seed", "1", "--quiet",
                "--json"], None, False),
    ("scores-out", ["scores", "--deals", "10000", "--bootstrap", "10", "--seed", "2",
                    "--play", "heuristic", "--quiet", "--out", "{out}"], None, True),
    ("hand-exact", ["hand", HAND, "--trump", "H", "--exact", "--json"], None, False),
    ("hand-exact-heuristic", ["hand", "KS QS JS 8H 8D", "--trump", "7H", "--exact", "--play",
                              "heuristic", "--json"], None, False),
    ("hand-sampled", ["hand", HAND, "--trump", "KH", "--deals", "4096", "--seed", "3",
                      "--quiet", "--json"], None, False),
    ("hand-precision", ["hand", "AH KS 7S KD KC", "--trump", "H", "--precision", "0.05",
                        "--quiet"], None, False),
    ("hand-pimc", ["hand", HAND, "--trump", "H", "--play", "pimc", "--worlds", "8", "--deals",
                   "256", "--quiet", "--json"], None, False),
    ("claims", ["claims", "--play", "dd", "--play", "heuristic", "--deals", "2048", "--quiet",
                "--json"], None, False),
    ("claims-pimc-out", ["claims", "--play", "pimc", "--deals", "128", "--worlds", "8",
                         "--quiet", "--out", "{out}"], None, True),
    ("piquet-deal", ["piquet", "deal", "--json"], None, False),
    ("piquet-deal-text", ["piquet", "deal", "--seed", "3", "--index", "8"], None, False),
    ("piquet-deal-given", ["piquet", "deal", "--elder", P_ELDER, "--younger", P_YOUNGER,
                           "--talon", P_TALON, "--elder-discard", "7D 8D 9D 7C",
                           "--play", "dd", "--json"], None, False),
    ("piquet-deal-pimc", ["piquet", "deal", "--seed", "2", "--index", "1", "--play", "pimc",
                          "--worlds", "4", "--lead-scoring", "ten_up", "--pique-timing",
                          "law67", "--json"], None, False),
    ("piquet-simulate", ["piquet", "simulate", "--deals", "20000", "--seed", "1", "--quiet",
                         "--json"], None, False),
    ("piquet-simulate-heuristic", ["piquet", "simulate", "--deals", "20000", "--seed", "1",
                                   "--elder-player", "heuristic", "--younger-player",
                                   "heuristic", "--elder-take", "4", "--younger-take", "2",
                                   "--quiet"], None, False),
    ("piquet-simulate-dd", ["piquet", "simulate", "--deals", "200", "--seed", "2",
                            "--elder-player", "dd", "--younger-player", "heuristic",
                            "--quiet", "--json"], None, False),
    ("piquet-simulate-pimc", ["piquet", "simulate", "--deals", "40", "--seed", "2",
                              "--elder-player", "pimc", "--worlds", "4", "--quiet",
                              "--json"], None, False),
    ("piquet-partie", ["piquet", "partie", "--parties", "2000", "--seed", "1", "--quiet",
                       "--json"], None, False),
    ("piquet-partie-four", ["piquet", "partie", "--parties", "1000", "--seed", "1",
                            "--partie", "four", "--player-a", "heuristic", "--quiet"],
     None, False),
    ("piquet-report", ["piquet", "report", "--deals", "4096", "--dd-deals", "32",
                       "--pimc-deals", "0", "--paired-deals", "4096", "--parties", "256",
                       "--search-deals", "0", "--quiet", "--out", "{out}"], None, True),
    ("simulate-inference", ["simulate", "--deals", "400", "--seed", "3", "--play",
                            "pimc-inference", "--worlds", "16", "--json"], None, False),
    ("simulate-inference-model", ["simulate", "--deals", "300", "--seed", "4", "--play",
                                  "pimc-inference", "--worlds", "8", "--opponent-model",
                                  "threshold", "--opponent-model", "regle",
                                  "--max-proposals", "3", "--json"], None, False),
    ("play-inference", ["play", "--seed", "1", "--index", "9", "--play", "pimc-inference",
                        "--worlds", "16", "--json"], None, False),
    ("infer-exact", ["infer", "QS JS AH 7C JD", "--turn-up", "8D", "--history",
                     "propose,refuse", "--json"], None, False),
    ("infer-sampled", ["infer", "QS KH AH 9C JD", "--turn-up", "8D", "--history",
                       "propose,accept:2,play", "--thrown", "7C 8H", "--samples", "2000",
                       "--seed", "5", "--json"], None, False),
    ("inference-value", ["inference-value", "--deals", "200", "--worlds", "8", "--v-deals",
                         "1000", "--quiet", "--json"], None, False),
    # the shipped strategy read and valued (advise, chart, audit, strategy)
    ("advise-table", ["advise", "KS JC 9H 7S KC", "--trump", "TC", "--score", "2-4",
                      "--no-values", "--json"], None, False),
    ("advise-table-text", ["advise", "8D 9C JH JS JC", "--turn-up", "9D", "--score", "4-4",
                           "--role", "dealer", "--no-values"], None, False),
    ("advise-values", ["advise", "QS JS AH 7C JD", "--trump", "8D", "--score", "0-3",
                       "--deals", "2000", "--json"], None, False),
    ("advise-values-text", ["advise", "KS JC 9H 7S KC", "--trump", "TC", "--score", "2-4",
                            "--deals", "1000"], None, False),
    ("advise-discard", ["advise", "QH 8H KS 9D 7C", "--turn-up", "JH", "--discard",
                        "--deals", "1000"], None, False),
    ("advise-treatise", ["advise", "QH AH 7H KS KD", "--trump", "H", "--score", "2-2",
                         "--against", "treatise", "--deals", "1000", "--json"], None, False),
    ("chart-text", ["chart"], None, False),
    ("chart-dealer", ["chart", "--role", "dealer", "--score", "3-4", "--json"], None, False),
    ("audit", ["audit", "--hands", "3", "--deals", "256", "--score", "0-0", "--quiet",
               "--json"], None, False),
    ("strategy", ["strategy", "--role", "elder", "--score", "4-4", "--deals-per-state", "2",
                  "--max-deals-per-state", "2", "--fresh-deals", "2000", "--quiet", "--json"],
     None, False),
    # the card play: a card chosen, a best response, the practice table's records
    ("cards", ["cards", "KS QS 9H 8D 7C", "--turn-up", "JS", "--json"], None, False),
    ("cards-played", ["cards", "QS 9H 8D 7C", "--turn-up", "JS", "--said", "propose,refuse",
                      "--played", "KS AS", "--score", "2-1"], None, False),
    ("exploit", ["exploit", "KS QS 9H 8D 7C", "--turn-up", "JS", "--seed", "3", "--json"],
     None, False),
    ("exploitability", ["exploitability", "--models", "heuristic", "--per-stratum", "1",
                        "--held-out", "1", "--quiet", "--json"], None, False),
    ("review-example", ["review", "analysis/practice/examples/treatise_a_y.json", "--json"],
     None, False),
    # every decision: the later rounds advised and charted, audited, solved, played
    ("advise-later", ["advise", "KH 9H 8S 7D QC", "--turn-up", "JH", "--said",
                      "propose,accept", "--discards", "7S 8D 9C:3", "--deals", "500",
                      "--json"], None, False),
    ("advise-later-text", ["advise", "KH QS 9S 8D 7C", "--turn-up", "JH", "--role", "dealer",
                           "--said", "propose,accept,propose", "--discards", "TC:2",
                           "--deals", "500"], None, False),
    ("advise-later-discard", ["advise", "KH 9H 8S 7D QC", "--turn-up", "JH", "--said",
                              "propose,accept,propose,accept", "--discards", "7S 8D 9C:3",
                              "--discard", "--deals", "300"], None, False),
    ("advise-later-no-values", ["advise", "KH 9H 8S 7D QC", "--turn-up", "JH", "--said",
                                "propose,accept", "--discards", "7S 8D 9C:3", "--no-values"],
     None, False),
    ("chart-later", ["chart", "--round", "later", "--score", "2-3"], None, False),
    ("chart-compare", ["chart", "--play", "dd", "--compare", "pimc-inference", "--score",
                       "4-4", "--json"], None, False),
    ("audit-later", ["audit", "--round", "later", "--hands", "2", "--deals", "256", "--score",
                     "2-2", "--quiet", "--json"], None, False),
    ("every-decision", ["every-decision", "--score", "4-3", "--later-deals", "8192",
                        "--later-steps", "1", "--deals-per-state", "2", "--max-deals-per-state",
                        "4", "--budget", "0.5", "--value-deals", "4096", "--quiet", "--json"],
     None, False),
    ("versus", ["versus", "--deals", "4096", "--games", "16", "--quiet"], None, False),
    ("simulate-strategy", ["simulate", "--deals", "2000", "--seed", "3", "--elder-policy",
                           "strategy", "--dealer-policy", "strategy", "--discard", "strategy",
                           "--json"], None, False),
    ("bad-card", ["solve", "QX AH 7H KS KD", "KH JH 9H 8H 9C", "--trump", "TH"], None, False),
    ("bad-seed", ["simulate", "--deals", "10", "--seed", "-1"], None, False),
]

_MASKS = [
    (re.compile(r'("git_commit": )"[0-9a-f]{40}"'), r'\1"<commit>"'),
    (re.compile(r'("seconds": )[0-9.e+-]+'), r'\1<seconds>'),
    (re.compile(r'("seconds": )\{[^{}]*\}'), r'\1<seconds>'),
    (re.compile(r'("written": )"[^"]*"'), r'\1"<time>"'),
    (re.compile(r"commit [0-9a-f]{10}"), "commit <commit>"),
    (re.compile(r"\b[0-9a-f]{40}\b"), "<commit>"),
    (re.compile(r"(?m)^(  \w+: )[0-9.]+ s,"), r"\1<seconds> s,"),
    (re.compile(r"(\| *)[0-9]+\.[0-9] s( *\|)"), r"\1<seconds> s\2"),
    (re.compile(r"(?m)^(\| (?:dd|heuristic|pimc) \| )[0-9]+\.[0-9]+( \|)"), r"\1<seconds>\2"),
    # numba's compilation, said on stderr when a kernel is not in the cache yet: whether it
    # happens depends on the cache, not on the command
    (re.compile(r"(?m)^compil(?:ing|ed) .*\n"), ""),
]


def normalise(text: str) -> str:
    """``text`` with the commit, wall-clock times, writing time and numba's compile notice
    masked."""
    for pattern, replacement in _MASKS:
        text = pattern.sub(replacement, text)
    return text


#: The console script of the interpreter running this script (its venv's), not whichever
#: ``ecarte-sim`` comes first on PATH: another installation there (a global one, another
#: checkout's) would be recorded and checked instead of this one.
CONSOLE = shutil.which("ecarte-sim", path=str(Path(sys.executable).parent)) or "ecarte-sim"


def run_one(name: str, argv: list[str], stdin: str | None, has_out: bool, where: Path
            ) -> None:
    """Run one command; write ``where/name.txt`` (exit code, stdout, stderr) and, for a
    command with ``--out``, its files under ``where/name/``."""
    out_dir = where / name
    if has_out:
        shutil.rmtree(out_dir, ignore_errors=True)
    argv = [a.replace("{out}", str(out_dir)) for a in argv]
    env = {**os.environ, "COLUMNS": "100"}
    proc = subprocess.run([CONSOLE, *argv], input=stdin, capture_output=True, text=True,
                          env=env, stdin=None if stdin is not None else subprocess.DEVNULL)
    text = (f"$ ecarte-sim {' '.join(argv)}\nexit {proc.returncode}\n--- stdout\n"
            f"{proc.stdout}--- stderr\n{proc.stderr}")
    (where / f"{name}.txt").write_text(text.replace(str(out_dir), "{out}"), encoding="utf-8")


def _png_difference(a: Path, b: Path) -> str | None:
    """None if the two images are equal but for at most one line of text (a caption
    naming the git commit, drawn into some figures); else what differs."""
    import matplotlib.image as mpimg
    import numpy as np
    pa, pb = mpimg.imread(a), mpimg.imread(b)
    if pa.shape != pb.shape:
        return f"image sizes differ: {pa.shape} v {pb.shape}"
    rows = np.flatnonzero((pa != pb).any(axis=tuple(range(1, pa.ndim))))
    if rows.size == 0:
        return None
    band = rows[-1] - rows[0] + 1
    if band <= 0.04 * pa.shape[0]:
        print(f"note: {a.name}: pixels differ in rows {rows[0]}-{rows[-1]} only (one text "
              "line: the caption's commit)", file=sys.stderr)
        return None
    return f"pixels differ in rows {rows[0]}-{rows[-1]} of {pa.shape[0]}"


def compare(recorded: Path, fresh: Path, only: str | None = None) -> list[str]:
    """Differences between two recordings (empty when equal after masking); with
    ``only``, of the commands whose name contains it."""
    problems = []

    def files(root: Path) -> list[Path]:
        return sorted(p for p in root.rglob("*") if p.is_file()
                      and (only is None or only in p.relative_to(root).parts[0]))

    for a in files(recorded):
        rel = a.relative_to(recorded)
        b = fresh / rel
        if not b.exists():
            problems.append(f"{rel}: missing from the new run")
            continue
        if a.suffix == ".png":
            problem = _png_difference(a, b)
            if problem:
                problems.append(f"{rel}: {problem}")
            continue
        if a.suffix == ".parquet":
            import pandas as pd
            fa = pd.read_parquet(a).replace(str(recorded), "{dir}", regex=True)
            fb = pd.read_parquet(b).replace(str(fresh), "{dir}", regex=True)
            if not fa.equals(fb):
                problems.append(f"{rel}: table differs")
            continue
        ta = normalise(a.read_text(encoding="utf-8").replace(str(recorded), "{dir}"))
        tb = normalise(b.read_text(encoding="utf-8").replace(str(fresh), "{dir}"))
        if ta != tb:
            diff = difflib.unified_diff(ta.splitlines(), tb.splitlines(), str(rel), str(rel),
                                        lineterm="", n=1)
            problems.append("\n".join(list(diff)[:40]))
    for b in files(fresh):
        if not (recorded / b.relative_to(fresh)).exists():
            problems.append(f"{b.relative_to(fresh)}: new in this run")
    return problems


def record(where: Path, only: str | None) -> None:
    where.mkdir(parents=True, exist_ok=True)
    for name, argv, stdin, has_out in COMMANDS:
        if only and only not in name:
            continue
        print(f"  {name}", file=sys.stderr, flush=True)
        run_one(name, argv, stdin, has_out, where)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["record", "check", "compare"])
    parser.add_argument("directory", type=Path)
    parser.add_argument("other", type=Path, nargs="?", help="compare: the second recording")
    parser.add_argument("-k", dest="only", default=None,
                        help="only the commands whose name contains this")
    args = parser.parse_args(argv)
    if args.action == "record":
        record(args.directory, args.only)
        return 0
    if args.action == "compare":
        problems = compare(args.directory, args.other)
        for p in problems:
            print(p)
        return 1 if problems else 0
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp)
        record(fresh, args.only)
        problems = compare(args.directory, fresh, args.only)
    for p in problems:
        print(p)
    print(f"{'identical' if not problems else f'{len(problems)} differences'}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
