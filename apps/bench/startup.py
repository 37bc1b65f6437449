"""``ecarte-sim bench``'s start-up section: how long a whole warm process of the commands
a person types most takes, against the goal of 0.3 s.

Each command runs as the installed console script (``ecarte-sim`` beside the interpreter;
``python -m ecarte_sim.apps.cli`` without one), once to warm the caches and then
``runs`` times; the median wall time is reported with the fastest and the slowest run.
Measured on this machine in this run, its load included; nothing is asserted on them
(the tests check the report's shape).
"""

from __future__ import annotations

import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

#: The start-up goal of a command that computes nothing heavy (seconds, whole process).
GOAL_S = 0.3
#: Runs timed per command (after one warm-up run).
RUNS = 5
#: The commands timed: the help, a hand classified (one the list names, and one it does
#: not, whose nearest rule is searched among every hand), a hand advised from the shipped
#: table.
COMMANDS = (["--help"],
            ["classify", "QH AH 7H KS KD", "--trump", "TH"],
            ["classify", "AH KS 7S KD KC", "--trump", "TH"],
            ["advise", "KS JC 9H 7S KC", "--trump", "TC", "--score", "2-4", "--no-values"])


def console() -> list[str]:
    """The command that runs ``ecarte-sim`` as installed."""
    script = Path(sys.executable).with_name("ecarte-sim")
    return [str(script)] if script.exists() else [sys.executable, "-m",
                                                  "ecarte_sim.apps.cli"]


def startup_times(runs: int | None = None) -> dict:
    """The median, fastest and slowest of ``runs`` (default :data:`RUNS`) warm whole
    processes of each of :data:`COMMANDS`."""
    runs = RUNS if runs is None else int(runs)
    exe = console()
    rows = []
    for args in COMMANDS:
        subprocess.run([*exe, *args], check=True, capture_output=True)     # warm
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            subprocess.run([*exe, *args], check=True, capture_output=True)
            times.append(time.perf_counter() - t)
        rows.append({"command": "ecarte-sim " + shlex.join(args),
                     "median_s": statistics.median(times), "min_s": min(times),
                     "max_s": max(times)})
    return {"console": shlex.join(exe), "runs": runs, "goal_s": GOAL_S, "commands": rows}


def format_startup(r: dict) -> list[str]:
    """The section's lines: each command's median beside the goal."""
    lines = [f"start-up, a warm whole process (median of {r['runs']}, fastest-slowest), "
             f"goal {r['goal_s']:.1f} s:"]
    width = max(len(c["command"]) for c in r["commands"])
    for c in r["commands"]:
        verdict = "within" if c["median_s"] <= r["goal_s"] else "over"
        lines.append(f"  {c['command']:<{width}}  {c['median_s']:.3f} s "
                     f"({c['min_s']:.3f}-{c['max_s']:.3f})  {verdict} the goal")
    return lines
