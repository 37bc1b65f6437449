"""Peak memory does not grow with the number of deals (slow: run with ``-m slow``).

Each run is its own ``python -m ecarte_sim.apps.cli`` process; its peak resident set size is the
kernel's own figure, ``ru_maxrss`` from ``os.wait4`` (KiB on Linux), not a polled sample.
A small warm-up run first fills numba's cache, so that no measured run pays the JIT
compilation (compiling peaks near 390-430 MB, against about 165 MB warm).

Tolerance (``TOLERANCE_MB`` = 8). Measured on 2 cores with a warm cache (three runs of
the small size; the machine shared with other work):

- ``simulate --play heuristic``: 10^6 deals 164.7, 165.0, 165.1 MB (spread 0.4 MB);
  10^8 deals 165.3 MB twice (126 s and 136 s wall, load average 4-5 on 2 cores; about
  50 s idle, extrapolated from 10^7 deals in 5.7 s).
- ``simulate --play pimc``: 4,000 deals 164.8, 164.9, 164.9 MB; 64,000 deals 164.9,
  164.8, 164.9 MB (14-17 s).

The noise is under 1 MB, so 8 MB is twenty times the widest spread seen, while still
catching state kept per deal or per chunk: over 10^8 deals 8 MB is 0.08 byte a deal,
and keeping one ``WHOLE_WIDTH`` (52) int64 counts row, 416 bytes, for each of the
24,414 chunks of 4,096 deals would add about 10 MB.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time

import pytest
from helpers import BLOCKED, REPO

pytestmark = pytest.mark.slow

ROOT = REPO
TOLERANCE_MB = 8.0


def _peak_rss(args: list[str], timeout: float) -> tuple[float, float, dict]:
    """Run ``python -m ecarte_sim.apps.cli ARGS``; return (peak RSS in MB, wall s, JSON output).

    The child is reaped with ``os.wait4`` so its ``ru_maxrss`` is read directly. Output
    goes to temporary files (no pipe can fill); a timer kills a run that overstays.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "ecarte_sim.apps.cli", *args],
                                cwd=ROOT, stdout=out, stderr=err)
        watchdog = threading.Timer(timeout, proc.kill)
        watchdog.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            watchdog.cancel()
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped: Popen must not wait
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read().decode(errors="replace")
    assert proc.returncode == 0, f"{args} exited {proc.returncode} after {wall:.0f} s:\n{stderr}"
    return usage.ru_maxrss / 1024.0, wall, json.loads(stdout)


def _compare(capsys, label: str, base: list[str], small: int, large: int,
             warm: int, timeout: float) -> None:
    """Warm the cache, measure the two sizes, print the figures, compare the peaks."""
    _peak_rss([*base, "--deals", str(warm)], timeout=timeout)
    rows = []
    for n in (small, large):
        mb, wall, result = _peak_rss([*base, "--deals", str(n)], timeout=timeout)
        assert result["deals"] == n
        rows.append((n, mb, wall))
    with capsys.disabled():
        print(f"\n[memory] {label}: " + "; ".join(
            f"n={n:,}: peak {mb:.1f} MB, {wall:.1f} s ({n / wall:,.0f} deals/s incl. start-up)"
            for n, mb, wall in rows)
            + f"; difference {rows[1][1] - rows[0][1]:+.1f} MB (tolerance {TOLERANCE_MB:g})")
    (_, small_mb, _), (_, large_mb, _) = rows
    assert abs(large_mb - small_mb) <= TOLERANCE_MB, (
        f"{label}: peak RSS {small_mb:.1f} MB at {small:,} deals but {large_mb:.1f} MB "
        f"at {large:,}")


def test_ecarte_simulate_peak_memory_flat_from_1e6_to_1e8_deals(capsys):
    # heuristic is the fastest Écarté player here (~2 M deals/s on 2 cores, dd ~1.5 M/s).
    _compare(capsys, "simulate --play heuristic",
             ["simulate", "--seed", "0", "--json", "--quiet", "--play", "heuristic"],
             small=10**6, large=10**8, warm=1000, timeout=BLOCKED)


def test_ecarte_pimc_peak_memory_flat_with_deals(capsys):
    # PIMC at the default W = 64: ~5,000 deals/s on 2 cores; 64,000 deals is ~15 s.
    _compare(capsys, "simulate --play pimc",
             ["simulate", "--seed", "0", "--json", "--quiet", "--play", "pimc"],
             small=4000, large=64000, warm=100, timeout=BLOCKED)
