"""One step of the solve of every decision (analysis/ecarte/solving/every_decision.py,
`ecarte-sim every-decision`): the later tables take the sign of the pooled gains, the
step is bit-identical for any thread count and resumes from its run directory, and the
shipped data carries the later tables the kernels then read."""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest

from ecarte_sim.analysis.ecarte.solving import every_decision as ed
from ecarte_sim.analysis.ecarte.solving import proposal_game as st
from ecarte_sim.analysis.ecarte.solving import solved
from ecarte_sim.analysis.ecarte.solving.equilibrium import LATER
from ecarte_sim.engine.ecarte.decisions.states import N_STATES

TINY = dict(later_deals=1 << 13, later_steps=1, first=st.Sampling(2, 4), budget=0.5,
            value_deals=4096, scores=((4, 3),), seed=7)


@pytest.mark.quick
def test_the_pooled_later_table_takes_the_sign_of_a_clear_gain():
    stats = np.zeros((N_STATES, 1, 3), dtype=np.int64)
    n = 400
    stats[:, 0, 0] = n
    stats[:1000, 0, 1] = int(0.2 * 65536) * n          # a gain of +0.2 on every deal
    stats[:1000, 0, 2] = int(0.2 * 65536) ** 2 * n
    stats[1000:, 0, 1] = -int(0.2 * 65536) * n
    stats[1000:, 0, 2] = int(0.2 * 65536) ** 2 * n
    stats[1000:, 0, 2] += int(0.05 * 65536) ** 2 * n   # some spread
    table = ed.resolve_decide(stats)["table"]
    assert table[:1000].all() and not table[1000:].any()


@pytest.mark.quick
def test_a_later_discard_keeps_the_current_rule_where_no_rule_is_better():
    stats = np.zeros((N_STATES, len(ed.RULES), 3), dtype=np.int64)
    stats[:, :, 0] = 50
    stats[:, :, 1] = -int(0.05 * 65536) * 50
    stats[:, :, 2] = int(0.05 * 65536) ** 2 * 50
    current = np.full(N_STATES, int(ed.RULES[1]), dtype=np.int64)
    assert np.array_equal(ed.resolve_discard(stats, current)["table"], current)


def _step(**kw):
    es = ed.EverySettings(**{**TINY, **kw})
    return ed.solve(es, solved.load().tables())


def test_a_step_is_the_same_for_any_thread_count_and_changes_only_its_score():
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = _step()
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = _step()
    finally:
        numba.set_num_threads(before)
    for k in one["pair"]:
        assert np.array_equal(one["pair"][k], two["pair"][k]), k
    assert np.array_equal(one["v"], two["v"])
    start = solved.load().tables()
    slot = 5 * 4 + 3
    for k, first in LATER.items():
        others = np.delete(np.arange(25), slot)
        # untouched: the start's later tables, or its first round's where it has none
        assert np.array_equal(one["pair"][k][others], start.get(k, start[first])[others])
    stages = [r["stage"] for r in one["records"]]
    assert stages == ["later decisions", "later discards", "first decisions"]


def test_the_command_resumes_and_ships_tables_the_kernels_read(cli, tmp_path):
    args = ["every-decision", "--score", "4-3", "--later-deals", "8192", "--later-steps", "1",
            "--deals-per-state", "2", "--max-deals-per-state", "4", "--budget", "0.5",
            "--value-deals", "4096", "--seed", "7", "--quiet",
            "--run-dir", str(tmp_path / "run"), "--ship", str(tmp_path / "ship"),
            "--out", str(tmp_path / "out"), "--json"]
    first = cli(*args)
    assert first.code == 0, first.err
    data = (tmp_path / "ship" / "dd.npz").read_bytes()
    again = cli(*args, "--resume")
    assert again.code == 0, again.err
    assert (tmp_path / "ship" / "dd.npz").read_bytes() == data     # the same, from the tasks
    s = solved.load(data_dir=str(tmp_path / "ship"))
    assert s.solves_later
    t = s.tables()
    assert set(LATER) <= set(t)
    from ecarte_sim.engine.ecarte.decisions.tables import policy_script, table_rows
    script = policy_script(elder=t["elder"], dealer=t["dealer"],
                           later={"elder": t["elder_later"], "dealer": t["dealer_later"]})
    assert np.array_equal(table_rows(script, "elder", later=True), t["elder_later"])
    assert np.array_equal(table_rows(script, "dealer"), t["dealer"])
    assert any(f.endswith("every_decision.md") for f in json.loads(first.out)["files"])
    # the chain of steps: the start's history, then the start itself
    shipped = json.loads((tmp_path / "ship" / "dd.json").read_text())
    start = solved.load().provenance
    assert shipped["history"][-1]["sha256"] == start["sha256"] == shipped["start"]["sha256"]
    assert shipped["history"][:-1] == start.get("history", [])


def test_stats_whose_gains_are_all_zero_are_refused():
    """A first full run met it: every paired gain exactly 0 over millions of decisions
    met (the forced actions changed nothing: a kernel compiled against another cfg
    layout). Such stats stop the solve; a single non-zero gain, or few decisions, pass."""
    import numpy as np
    from ecarte_sim.analysis.ecarte.solving.every_decision import MET_CHECK, check_gains
    stats = np.zeros((2, 10, 1, 3), dtype=np.int64)
    stats[0, 3, 0, 0] = MET_CHECK
    with pytest.raises(RuntimeError, match="elder's 1,000 decisions met all gain exactly 0"):
        check_gains(stats, "later decisions at 3-3")
    stats[0, 5, 0, 1:] = (-7, 49)
    check_gains(stats, "later decisions at 3-3")
    few = np.zeros_like(stats)
    few[1, 2, 0, 0] = MET_CHECK - 1
    check_gains(few, "later decisions at 3-3")


def test_elder_then_dealer_answers_the_elders_new_table():
    """With ``elder_then_dealer`` the dealer's first decision is his best response to the
    elder's table of this step (the same as solving him alone against the pair with that
    table), and the elder's is the one solved at once; at once, the dealer answers the
    elder of the start."""
    es = ed.EverySettings(**{**TINY, "later_steps": 0, "later_discards": False})
    seq = ed.EverySettings(**{**TINY, "later_steps": 0, "later_discards": False,
                              "elder_then_dealer": True})
    assert "elder_then_dealer" not in es.echo() and seq.echo()["elder_then_dealer"]
    start = ed.with_later(solved.load().tables())
    slot = 5 * 4 + 3
    v = solved.load().v
    at_once = {k: a.copy() for k, a in start.items()}
    rec = ed.first_at(es.settings, at_once, slot, v, es)
    in_turn = {k: a.copy() for k, a in start.items()}
    ed.first_at(seq.settings, in_turn, slot, v, seq)
    assert np.array_equal(in_turn["elder"][slot], at_once["elder"][slot])
    alone = {k: a.copy() for k, a in start.items()}
    alone["elder"][slot] = at_once["elder"][slot]
    dealer = ed.first_role("dealer", seq.settings, alone, slot, v, seq, seed=seq.seed)
    assert np.array_equal(in_turn["dealer"][slot], dealer["table"])
    # the test can fail: the elder's table moved, and the dealer's answers differ
    assert rec["elder_changed"] > 0
    assert not np.array_equal(in_turn["dealer"][slot], at_once["dealer"][slot])
