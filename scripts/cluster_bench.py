"""Benchmark the backends: the threads backend against 1, 2 and 4 local Dask workers, on
`simulate` (whole Écarté deals, default players) and on a PIMC `claims` run, plus the
overhead per Dask task and the share of a task it costs at the default task sizes.

Usage: python scripts/cluster_bench.py [--deals N] [--pimc-deals N] [--workers 1 2 4]
                                       [--out results/cluster_bench.md]

Each backend is warmed up first (numba loads its cache in every worker process); the
cluster's start-up is timed apart. Every backend must return the same counts as the
threads (checked here: the script stops if one differs). Needs ecarte-sim[cluster].
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from ecarte_sim.analysis.ecarte.claims.decisions import ClaimsSettings, run_claims  # noqa: E402
from ecarte_sim.engine.batch import DEFAULT_BLOCK, execution  # noqa: E402
from ecarte_sim.engine.cluster import DaskBackend  # noqa: E402
from ecarte_sim.engine.ecarte.deals.counts import whole_counts  # noqa: E402
from ecarte_sim.engine.ecarte.settings import PIMC_TASK, make_cfg  # noqa: E402


def simulate_job(n: int, task_size: int | None = None):
    return whole_counts(0, 0, n, make_cfg(), block=task_size or DEFAULT_BLOCK)


def claims_job(n: int):
    payload = run_claims(["pimc"], ClaimsSettings(seed=0, deals=n), "bench")
    return np.array([r["n"] for r in payload["claims"]] + [
        round(r["estimate"] * 1e12) if r["estimate"] == r["estimate"] else -1
        for r in payload["claims"]], dtype=np.int64)


def timed(job, *args):
    t = time.perf_counter()
    out = job(*args)
    return time.perf_counter() - t, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1 << 23, help="simulate deals")
    ap.add_argument("--pimc-deals", type=int, default=1 << 15,
                    help="deals per experiment of the PIMC claims run")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--out", default=None, help="also write this Markdown file")
    a = ap.parse_args()

    lines: list[str] = []

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "unknown"
    say("# Backends: threads against local Dask workers")
    say()
    say(f"Measured {time.strftime('%Y-%m-%d', time.gmtime())} on {platform.machine()}, "
        f"{os.cpu_count()} cores, commit {commit}. Command: `python scripts/cluster_bench.py "
        f"{' '.join(sys.argv[1:])}`".rstrip() + ".")
    say()
    say(f"- simulate: {a.deals:,} whole Écarté deals (default players: elder by the list, "
        f"dealer by the maxims, double-dummy play), task size {DEFAULT_BLOCK:,} deals.")
    say(f"- PIMC claims: `claims --play pimc --deals {a.pimc_deals}` (its score table, three "
        f"paired experiments and the example hand; {5 * a.pimc_deals:,} deals, W = 64), task "
        f"size {PIMC_TASK:,} deals.")
    say("- Times exclude start-up and compilation (each backend runs a small warm-up first); "
        "the counts of every backend are checked equal to the threads'.")
    say()
    say("| backend | start-up s | simulate s | simulate deals/s | PIMC claims s | "
        "PIMC deals/s |")
    say("|---|---|---|---|---|---|")
    simulate_job(1 << 16)
    claims_job(256)
    t_sim, ref_sim = timed(simulate_job, a.deals)
    t_pimc, ref_pimc = timed(claims_job, a.pimc_deals)
    say(f"| threads ({os.cpu_count()}) | 0 | {t_sim:.2f} | {a.deals / t_sim:,.0f} | "
        f"{t_pimc:.2f} | {5 * a.pimc_deals / t_pimc:,.0f} |")
    per_task, later = None, []
    for w in a.workers:
        t0 = time.perf_counter()
        with DaskBackend.local(w) as backend:
            with execution(backend):
                simulate_job(1 << 16)
                claims_job(256)
                start = time.perf_counter() - t0
                ts, sim = timed(simulate_job, a.deals)
                tp, pimc = timed(claims_job, a.pimc_deals)
                if not (np.array_equal(sim, ref_sim) and np.array_equal(pimc, ref_pimc)):
                    sys.exit(f"{w} workers: counts differ from the threads backend")
                say(f"| dask, {w} worker{'s' if w > 1 else ''} ({backend.numba_threads} "
                    f"thread{'s' if backend.numba_threads > 1 else ''} each) | {start:.1f} | "
                    f"{ts:.2f} | {a.deals / ts:,.0f} | {tp:.2f} | "
                    f"{5 * a.pimc_deals / tp:,.0f} |")
                if w == 2:
                    per_task = overhead(backend, later.append)
    for line in later:
        say(line)
    if per_task is not None:
        say()
        say("Share of a task's time lost to the overhead at the default task sizes (2 "
            "workers; task times from the threads backend's rate on both cores, so the "
            "shares are upper bounds: a one-thread worker takes about twice as long): "
            "simulate "
            f"{per_task / (DEFAULT_BLOCK / (a.deals / t_sim)):.2%} of a "
            f"{DEFAULT_BLOCK / (a.deals / t_sim):.2f} s task; PIMC "
            f"{per_task / (PIMC_TASK / (5 * a.pimc_deals / t_pimc)):.2%} of a "
            f"{PIMC_TASK / (5 * a.pimc_deals / t_pimc):.2f} s task.")
    if a.out:
        with open(a.out + ".tmp", "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(a.out + ".tmp", a.out)
        print(f"wrote {a.out}")


def overhead(backend, say_line) -> float:
    """Seconds of overhead per task: the same deals cut into more tasks, and empty tasks."""
    n = 1 << 20

    def say(text=""):
        say_line(text)
    say()
    say(f"Overhead per task (2 workers, simulate, {n:,} deals cut into tasks of each size):")
    say()
    say("| task size | tasks | seconds |")
    say("|---|---|---|")
    times = {}
    for size in (1 << 12, 1 << 14, 1 << 16, 1 << 20):
        t, _ = timed(simulate_job, n, size)
        times[size] = t
        say(f"| {size:,} | {n // size} | {t:.2f} |")
    # 2^12 against 2^16: both keep the two workers busy (one task of 2^20 does not)
    slope = (times[1 << 12] - times[1 << 16]) / (n // (1 << 12) - n // (1 << 16))
    k = 400
    t_empty, _ = timed(lambda: [simulate_job(1, None) for _ in range(k)])
    per_task = max(slope, t_empty / k)
    say()
    say(f"From the sizes (4,096 against 65,536): {slope * 1e3:.2f} ms per extra task. "
        f"One-deal tasks run one after another ({k}, each a full round trip client → "
        f"scheduler → worker → client): {t_empty / k * 1e3:.2f} ms each. The larger, "
        f"{per_task * 1e3:.2f} ms, is taken as the overhead per task: under 5% needs tasks "
        f"of at least {per_task / 0.05:.2f} s.")
    return per_task


if __name__ == "__main__":
    main()
