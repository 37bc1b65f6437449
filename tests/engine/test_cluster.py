"""The Dask backend (engine/cluster.py): the same experiment on the local threads and on a
Dask LocalCluster started here on loopback gives byte-identical output, for any number of
workers and any task size; missing Dask and unreachable schedulers give one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from ecarte_sim.engine.batch import execution
from helpers import BLOCKED

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes, one thread each, on 127.0.0.1 (nothing leaves the machine)."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  silence_logs=40) as c:
        yield c


def _cli(*args):
    proc = subprocess.run([sys.executable, "-m", "ecarte_sim.apps.cli", *args], capture_output=True,
                          timeout=BLOCKED)
    return proc.returncode, proc.stdout, proc.stderr.decode()


RUNS = [
    ["simulate", "--deals", "300000", "--seed", "7", "--play", "heuristic", "--json"],
    ["piquet", "simulate", "--deals", "400000", "--seed", "7", "--elder-player", "heuristic",
     "--json"],
    ["piquet", "partie", "--parties", "3000", "--seed", "7", "--json"],
    ["hand", "QH AH 7H KS KD", "--trump", "H", "--deals", "40000", "--seed", "7", "--json"],
    pytest.param(["simulate", "--deals", "3000", "--seed", "7", "--play", "pimc-inference",
                  "--worlds", "8", "--json"], marks=pytest.mark.slow),
]


@pytest.mark.parametrize("args", RUNS, ids=lambda a: " ".join(a[:2] + a[7:8]))
def test_cli_output_on_a_local_cluster_is_byte_identical(cluster, args):
    code, threads_out, err = _cli(*args)
    assert code == 0, err
    code, dask_out, err = _cli(*args, "--scheduler", cluster.scheduler_address,
                               "--task-size", "30000")
    assert code == 0, err
    assert dask_out == threads_out
    assert json.loads(dask_out)["provenance"]["version"]


def test_counts_equal_for_any_worker_count_and_task_size(cluster):
    from ecarte_sim.engine.cluster import DaskBackend
    from ecarte_sim.engine.ecarte.deals.counts import whole_counts
    from ecarte_sim.engine.ecarte.settings import make_cfg
    from ecarte_sim.engine.piquet.settings import PiquetSettings
    from ecarte_sim.engine.piquet.simulate import deal_counts

    ecfg, pcfg = make_cfg(play="heuristic"), PiquetSettings("heuristic", "random").cfg()
    expected = (whole_counts(3, 5, 200_005, ecfg), deal_counts(3, 5, 300_005, pcfg))
    client = distributed.Client(cluster, set_as_default=False)
    try:
        for size, window in ((7_001, None), (65_536, 1)):
            with execution(DaskBackend(client, window=window), task_size=size):
                got = (whole_counts(3, 5, 200_005, ecfg), deal_counts(3, 5, 300_005, pcfg))
            assert all(np.array_equal(a, b) for a, b in zip(expected, got))
    finally:
        client.close()


def test_a_local_cluster_from_workers_flag_matches_threads():
    args = ["piquet", "simulate", "--deals", "200000", "--seed", "11", "--json"]
    code, threads_out, err = _cli(*args)
    assert code == 0, err
    code, dask_out, err = _cli(*args, "--workers", "2", "--task-size", "50000")
    assert code == 0, err
    assert dask_out == threads_out


def test_checkpoints_written_on_a_cluster_resume_on_threads(cluster, tmp_path):
    args = ["piquet", "simulate", "--deals", "200000", "--seed", "3", "--json",
            "--task-size", "40000", "--run-dir", str(tmp_path / "run")]
    code, first, err = _cli(*args, "--scheduler", cluster.scheduler_address)
    assert code == 0, err
    assert len(list((tmp_path / "run").glob("task-*.npy"))) == 5
    code, again, err = _cli(*args, "--resume")
    assert code == 0, err
    assert again == first


def test_unreachable_scheduler_is_one_line_exit_2():
    code, out, err = _cli("simulate", "--deals", "100", "--scheduler", "tcp://127.0.0.1:9",
                          "--json")
    assert code == 2 and out == b""
    assert err.count("\n") == 1 and err.startswith("Error: ") and "Dask scheduler" in err


def test_strategy_marks_tables_on_a_cluster_equal_the_threads(cluster):
    """The per-state marks tables of a strategy run (their own task format) on two worker
    processes, blocks of 16 states finishing in any order."""
    from ecarte_sim.analysis.ecarte.solving import proposal_game as ST
    from ecarte_sim.engine.cluster import DaskBackend
    from ecarte_sim.engine.ecarte.settings import EcarteSettings

    settings = EcarteSettings()
    v = ST.continuation(settings, 0, deals=1 << 14)["v"]
    _, script = ST.reading_tables(settings)
    states = np.arange(0, ST.N_STATES, 3001)

    def tables():
        return ST.marks_tables("dealer", settings, script, v=v, seed=5,
                               sampling=ST.Sampling(4, 16), states=states)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ST, "BATCH", 16)
        expected = tables()
        client = distributed.Client(cluster, set_as_default=False)
        try:
            with execution(DaskBackend(client)):
                got = tables()
        finally:
            client.close()
    assert expected.joint.sum() > 0 and np.array_equal(expected.joint, got.joint)
    assert np.array_equal(expected.attempts, got.attempts)


@pytest.mark.quick
def test_without_dask_the_flags_say_how_to_install(monkeypatch, cli):
    from helpers import one_line_error
    monkeypatch.setitem(sys.modules, "distributed", None)      # import fails
    line = one_line_error(cli("simulate", "--deals", "100", "--workers", "2"))
    assert "pip install 'ecarte-sim[cluster]'" in line


@pytest.mark.quick
def test_help_of_every_long_command_shows_the_run_options(cli):
    for command in (["simulate"], ["scores"], ["hand"], ["claims"], ["strategy"],
                    ["piquet", "simulate"],
                    ["piquet", "partie"], ["piquet", "report"]):
        r = cli(*command, "--help")
        assert r.code == 0, r
        text = r.out
        for option in ("--run-dir", "--resume", "--scheduler", "--workers", "--task-size"):
            assert option in text, (command, option)
