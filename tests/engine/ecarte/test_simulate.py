"""The batch driver: streaming counts, bit-identical for any split or thread count."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from ecarte_sim.engine.batch import blocks, rows_for
from ecarte_sim.engine.ecarte.deals.simulate import simulate_counts
from ecarte_sim.engine.ecarte.laws.deal import deal
from ecarte_sim.engine.ecarte.search import solver


@pytest.mark.quick
def test_counts_equal_one_solve_per_deal():
    n = 3000
    counts = simulate_counts(12, 500, 500 + n, "exact")
    expected = np.zeros(8, dtype=np.int64)
    for i in range(500, 500 + n):
        d = deal(12, i)
        expected[solver.solve(d.elder, d.dealer, d.trump)] += 1
    assert (counts == expected).all()


@pytest.mark.parametrize("mode", ["deal", "exact", "point-vole"])
def test_identical_for_any_chunk_and_block(mode):
    runs = [simulate_counts(3, 17, 60_017, mode, chunk=c, block=b)
            for c, b in [(1, 10_000), (7, 1 << 21), (4096, 33_333), (10**6, 1 << 21)]]
    for r in runs[1:]:
        assert (r == runs[0]).all()
    assert runs[0].dtype == np.int64


def _simulate_json(threads: int, chunk: int) -> str:
    env = dict(os.environ, NUMBA_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, "-m", "ecarte_sim.apps.cli", "simulate", "--deals",
                          "200000", "--seed", "42", "--chunk", str(chunk), "--json",
                          "--no-exchange"],
                         env=env, check=True, capture_output=True, text=True)
    return out.stdout


def test_json_bit_identical_for_one_and_two_threads_and_chunks():
    one = _simulate_json(1, 4096)
    two = _simulate_json(2, 4096)
    two_small_chunks = _simulate_json(2, 97)
    assert one == two == two_small_chunks
    result = json.loads(one)
    assert result["deals"] == 200000 and sum(result["tricks"]) == 200000


@pytest.mark.quick
def test_blocks_cover_the_range():
    assert list(blocks(5, 17, 5)) == [(5, 10), (10, 15), (15, 17)]
    assert rows_for(10, 4) == 3 and rows_for(0, 4) == 1
    with pytest.raises(ValueError):
        list(blocks(5, 4))
