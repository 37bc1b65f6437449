"""The shipped strategy (analysis/ecarte/solving/strategy_data): its integrity (every state, every
score, its hash, its provenance), its regeneration on a reduced instance bit for bit, and
`advise` reading it."""

import json

import numpy as np
import pytest

from ecarte_sim.analysis.ecarte.advice import first_decision as advice
from ecarte_sim.analysis.ecarte.solving import solved
from ecarte_sim.analysis.ecarte.solving.proposal_game import RULES, SCORES
from ecarte_sim.engine.ecarte.decisions.states import N_STATES
from helpers import DATA, one_line_error

REDUCED = DATA / "equilibrium-reduced"
#: The command that made tests/data/equilibrium-reduced (its provenance names it too).
REDUCED_ARGS = ["equilibrium", "--states", "300", "--score", "0-0", "--score", "3-4",
                "--deals-per-state", "4", "--max-deals-per-state", "8", "--fresh-deals",
                "4096", "--value-deals", "4096", "--iterations", "2",
                "--exploit-tolerance", "0.00001", "--quiet"]


def shipped_models():
    return solved.solved_models()


@pytest.mark.quick
def test_a_strategy_is_shipped_and_the_default_is_among_them():
    models = shipped_models()
    assert models, "no solved strategy in analysis/ecarte/solving/strategy_data"
    assert solved.load().play == models[0]


@pytest.mark.parametrize("play", shipped_models())
def test_shipped_data_is_whole_and_matches_its_hash(play):
    data = (solved.DATA_DIR / f"{play}.npz").read_bytes()
    prov = json.loads((solved.DATA_DIR / f"{play}.json").read_text())
    assert prov["sha256"] == solved.digest(data) and prov["bytes"] == len(data)
    s = solved.load(play)
    for table in (s.elder, s.dealer):
        assert table.shape == (25, N_STATES) and table.dtype == bool
    for table in (s.elder_discard, s.dealer_discard):
        assert table.shape == (25, N_STATES)
        assert set(np.unique(table).tolist()) <= set(RULES)
    assert s.v.shape == (5, 5) and ((0 < s.v) & (s.v < 1)).all()
    classes = int(solved.gain_classes().max()) + 1
    for role in ("elder", "dealer"):
        assert s.gain(role).shape == (25, N_STATES)
        assert {"elder": s.elder_gain, "dealer": s.dealer_gain}[role].shape == (25, classes)
    # a whole solve estimates every class at every score
    assert np.isfinite(s.elder_gain).all() and np.isfinite(s.dealer_gain).all()
    # the provenance names its command and commit; an equilibrium's has every score's
    # exploitability, every-decision's (issue 50) the steps that led to it
    assert prov["git_commit"]
    if prov["command"].startswith("ecarte-sim every-decision"):
        assert s.solves_later and prov["history"][0]["sha256"] and prov["start"]["sha256"]
    else:
        assert prov["command"].startswith("ecarte-sim equilibrium")
        assert set(prov["exploitability"]) == {f"{x}-{y}" for x, y in SCORES}
    # the data is canonical: packing what was loaded gives the same bytes
    later = {name: s._array(name) for name in solved.LATER_TABLES} if s.solves_later else None
    again = solved.pack(s.elder, s.dealer, s.elder_discard, s.dealer_discard,
                        s.gain("elder"), s.gain("dealer"), s.v, later=later)
    assert again == data
    # small enough to ship
    assert len(data) < 2 << 20


@pytest.mark.parametrize("play", shipped_models())
def test_every_shipped_strategy_answers_advise_as_re_solved(play):
    """advise --play M reads model M's table; a solve of a sample of the states extended by
    the model (--states N --extend) re-solved every state, so no entry is called the
    treatise's."""
    r = advice.advise("KS JC 9H 7S KC", "C", "2-4", "elder", turn_up="TC", play=play,
                      values=False)
    assert r["table_action"]["re_solved"] and r["action"] in ("propose", "play")
    assert r["strategy"]["play"] == play


def test_a_table_is_decoded_when_first_read():
    """One hand's action reads one decision table: the discards stay packed until read,
    and each table, once read, is the one array every reader gets (read-only)."""
    from ecarte_sim.analysis.ecarte.advice import first_decision as advice
    data = (solved.DATA_DIR / f"{solved.DEFAULT_PLAY}.npz").read_bytes()
    s = solved.unpack(data, solved.DEFAULT_PLAY)
    mask, _, turned, turn_ups = advice.hand_situation("KS JC 9H 7S KC", "TC")
    advice.table_action(s, "elder", mask, turn_ups, 2, 4)
    assert set(s._arrays) == {"elder"}
    assert s.dealer_discard is s.dealer_discard and not s.dealer_discard.flags.writeable
    assert set(s._arrays) == {"elder", "dealer_discard"}


def test_class_means_are_the_dealt_weighted_means_of_the_states():
    """The stored gains are class means: checked by a plain loop on a few classes."""
    from ecarte_sim.engine.ecarte.decisions.states import state_weights
    rng = np.random.default_rng(5)
    g = rng.normal(0, 0.05, (25, N_STATES))
    g[:, rng.choice(N_STATES, 1000, replace=False)] = np.nan
    means = solved.class_means(g)
    ids = solved.gain_classes()
    w = state_weights().astype(float)
    for c in rng.choice(int(ids.max()) + 1, 5, replace=False):
        sel = (ids == c) & np.isfinite(g[3])
        want = (g[3][sel] * w[sel]).sum() / w[sel].sum()
        assert abs(means[3, c] - want) < 1e-6


def test_a_damaged_file_is_refused(tmp_path):
    data = (REDUCED / "dd.npz").read_bytes()
    (tmp_path / "dd.npz").write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    (tmp_path / "dd.json").write_text((REDUCED / "dd.json").read_text())
    with pytest.raises(ValueError, match="damaged"):
        solved.load("dd", data_dir=tmp_path)
    with pytest.raises(ValueError, match="no solved strategy for play model 'pimc'"):
        solved.load("pimc", data_dir=REDUCED)


#: How far a regenerated gain (float32, a class mean of a pooled least-squares fit, which
#: goes through BLAS) may lie from the committed one: BLAS may round the last bits
#: differently on another CPU (3.6e-21 was seen), so within 1e-6 relative (a few float32
#: steps) or 1e-12 absolute; the gains themselves are known to about 1e-3.
GAIN_RTOL, GAIN_ATOL = 1e-6, 1e-12


def npz_arrays(path) -> dict:
    with np.load(path) as data:
        return {name: data[name] for name in data.files}


def test_the_reduced_instance_regenerates_bit_for_bit(cli, tmp_path):
    """The committed reduced instance equals a fresh run of the command that made it: the
    decisions, the discards and V bit for bit, the fitted gains within GAIN_RTOL/GAIN_ATOL
    (floating point through BLAS), the provenance's measures exactly."""
    prov = json.loads((REDUCED / "dd.json").read_text())
    assert prov["command"].startswith("ecarte-sim " + " ".join(REDUCED_ARGS))
    result = cli(*REDUCED_ARGS, "--ship", str(tmp_path))
    assert result.code == 0 and result.err == "", result
    fresh_arrays, committed = npz_arrays(tmp_path / "dd.npz"), npz_arrays(REDUCED / "dd.npz")
    assert set(fresh_arrays) == set(committed) >= {"elder", "dealer", "elder_gain", "v"}
    for name, want in committed.items():
        got = fresh_arrays[name]
        assert got.dtype == want.dtype and got.shape == want.shape, name
        if name.endswith("_gain"):
            np.testing.assert_allclose(got, want, rtol=GAIN_RTOL, atol=GAIN_ATOL,
                                       equal_nan=True, err_msg=name)
        else:
            assert np.array_equal(got, want), name
    fresh = json.loads((tmp_path / "dd.json").read_text())
    for key in ("exploitability", "hoyle_exploitability", "solve", "converged"):
        assert fresh[key] == prov[key], key
    # the hash covers the file's bytes: equal where the gains came out bit for bit
    same = (tmp_path / "dd.npz").read_bytes() == (REDUCED / "dd.npz").read_bytes()
    assert (fresh["sha256"] == prov["sha256"]) == same


def test_the_regeneration_check_tells_a_gain_off_by_more_than_rounding():
    """The tolerance passes what BLAS's rounding gives and fails a real change."""
    want = npz_arrays(REDUCED / "dd.npz")["elder_gain"]
    finite = np.isfinite(want)
    rounded = want.copy()
    rounded[finite] = np.nextafter(rounded[finite], np.float32(1))     # one float32 step
    np.testing.assert_allclose(rounded, want, rtol=GAIN_RTOL, atol=GAIN_ATOL, equal_nan=True)
    changed = want.copy()
    changed[finite] += np.float32(1e-4)
    with pytest.raises(AssertionError):
        np.testing.assert_allclose(changed, want, rtol=GAIN_RTOL, atol=GAIN_ATOL,
                                   equal_nan=True)


def test_advise_answers_from_the_equilibrium_at_once(cli):
    s = solved.load()
    result = cli("advise", "KH QH JH 7S 8D", "--trump", "H", "--turn-up",
                 "9H", "--no-values", "--json")
    assert result.code == 0 and result.err == "", result
    out = json.loads(result.out)
    from ecarte_sim.engine.cards import parse_card, parse_hand
    from ecarte_sim.engine.ecarte.decisions.states import canonical_index
    state = canonical_index(int(parse_hand("KH QH JH 7S 8D", 5)), int(parse_card("9H")))
    assert out["action"] == ("propose" if s.elder[0, state] else "play")
    assert out["strategy"]["against"] == "equilibrium" and out["strategy"]["play"] == s.play


def test_advise_with_values_keeps_the_treatise_keys(cli):
    result = cli("advise", "KS QS 9S 8H 7D", "--trump", "TS", "--score",
                 "1-2", "--role", "dealer", "--deals", "2000", "--json")
    assert result.code == 0 and result.err == "", result
    out = json.loads(result.out)
    assert {"action", "values", "gain", "treatise", "agrees", "n", "strategy",
            "table_action"} <= set(out)
    assert set(out["values"]) == {"accept", "refuse"}
    for v in out["values"].values():
        lo, hi = v["p_win_ci95"]
        assert lo <= v["p_win"] <= hi


def test_advise_against_the_treatise_is_the_treatise_best_response(cli):
    from ecarte_sim.analysis.ecarte.advice.first_decision import sampled_advice as treatise_advice
    result = cli("advise", "QH AH 7H KS KD", "--trump", "H", "--score",
                 "2-2", "--against", "treatise", "--deals", "2000",
                 "--json")
    assert result.code == 0 and result.err == "", result
    out = json.loads(result.out)
    want = treatise_advice("QH AH 7H KS KD", "H", "2-2", "elder", deals=2000)
    for key in ("action", "values", "gain", "treatise", "n"):
        assert out[key] == json.loads(json.dumps(want[key])), key


def test_advise_discard_names_the_cards_and_the_other_choices(cli):
    result = cli("advise", "QH 8H KS 9D 7C", "--trump", "H", "--turn-up",
                 "JH", "--discard", "--deals", "2000", "--json")
    assert result.code == 0 and result.err == "", result
    out = json.loads(result.out)
    thrown = set(out["throws"].split()) if out["throws"] else set()
    kept = set(out["keeps"].split())
    assert thrown | kept == {"QH", "8H", "KS", "9D", "7C"} and not thrown & kept
    for o in out["others"]:
        lo, hi = o["gain_win_ci95"]
        assert lo <= o["gain_win"] <= hi and o["throws"] != out["throws"]


@pytest.mark.parametrize("args, token", [
    (["--role", "judge"], "judge"),
    (["--play", "oracle"], "oracle"),
    (["--against", "nobody"], "nobody"),
    (["--score", "5-0"], "5-0"),
    (["--score", "x-1"], "x-1"),
    (["--turn-up", "QH"], "QH"),
])
def test_advise_bad_input_is_one_line_and_exit_2(cli, args, token):
    result = cli("advise", "QH AH 7H KS KD", "--trump", "H", *args)
    assert result.code == 2
    assert token in one_line_error(result)


# ----------------------------------------------------------- advice that never contradicts itself

def _advise_json(cli, *args):
    result = cli("advise", *args, "--json")
    assert result.code == 0 and result.err == "", result
    return json.loads(result.out)


@pytest.mark.parametrize("args", [
    ("KS JC 9H 7S KC", "--trump", "TC", "--score", "2-4", "--deals", "4096"),
    ("8D 9C JH JS JC", "--turn-up", "9D", "--score", "4-4", "--role", "dealer", "--deals", "4096"),
    ("QS JS AH 7C JD", "--trump", "8D", "--score", "0-3", "--deals", "2000"),
    ("QS JS AH 7C JD", "--trump", "8D", "--score", "0-0", "--deals", "4096"),
])
def test_advise_leads_with_the_action_its_values_resolve(cli, args):
    """The action said is never one the printed values beat beyond their interval: where
    they resolve the other action it leads and the values answered; otherwise the table."""
    out = _advise_json(cli, *args)
    lo, hi = out["gain"]["p_win_ci95"]
    arm_a, arm_b = out["gain"]["of"].split(" over ")
    if lo > 0:
        assert out["action"] == arm_a
    elif hi < 0:
        assert out["action"] == arm_b
    else:
        assert out["too_close"] and out["action"] == out["table_action"]["action"]
    by_values = out["action"] != out["table_action"]["action"]
    assert out["answered_by"] == ("values" if by_values else "table")
    if by_values:
        d = out["table_differs_by"]
        assert d["p_win"] == pytest.approx(abs(out["gain"]["p_win"]))
        assert 0 < d["p_win_ci95"][0] <= d["p_win"] <= d["p_win_ci95"][1]
    else:
        assert out["table_differs_by"] is None


def test_the_issues_two_hands_are_answered_by_their_values(cli):
    """Holding the king at 2-4 the table plays, though a refused proposal doubles the point
    and ends the game; at 4-4 the dealer's table accepts with 8D 9C JH JS JC."""
    king = _advise_json(cli, "KS JC 9H 7S KC", "--trump", "TC", "--score", "2-4", "--deals", "4096")
    assert king["action"] == "propose"
    dealer = _advise_json(cli, "8D 9C JH JS JC", "--turn-up", "9D", "--score", "4-4", "--role",
                          "dealer", "--deals", "4096")
    assert dealer["action"] == "refuse"


def test_advise_text_says_who_answered_and_too_close(cli, capsys):
    """Each answer's first lines, from advise's own result (the table overruled by the
    values, too close to call, agreed), and the command's on two hands."""
    from ecarte_sim.apps.cli.strategy import _headline
    from ecarte_sim.analysis.ecarte.advice import first_decision as advice
    result = advice.advise("KS JC 9H 7S KC", "TC", (2, 4), "elder", deals=4096)
    table = result["table_action"]["action"]
    other = "play" if table == "propose" else "propose"
    g = result["gain"]["p_win"]
    for answered_by, action, close in (("values", other, False), ("table", table, True),
                                       ("table", table, False)):
        fake = {**result, "answered_by": answered_by, "action": action, "too_close": close,
                "table_differs_by": {"p_win": abs(g), "p_win_ci95": [abs(g) / 2, abs(g) * 2]}}
        _headline(fake, "elder", 0)
        head = capsys.readouterr().out.splitlines()[1]
        assert head.startswith(f"  → {action}: ")
        if answered_by == "values":
            assert "on 4,096 deals around this hand it wins the game more often" in head
        elif close:
            assert "too close to call" in head
        else:
            assert "the values on this hand's deals agree" in head
    close = cli("advise", "QS JS AH 7C JD", "--trump", "8D", "--score",
                "0-3", "--deals", "2000").out
    assert "too close to call" in close.splitlines()[1]


def test_the_turn_up_alone_gives_the_trumps(cli):
    a = _advise_json(cli, "QH 8H KS 9D 7C", "--turn-up", "JH", "--no-values")
    b = _advise_json(cli, "QH 8H KS 9D 7C", "--trump", "H", "--turn-up", "JH", "--no-values")
    a.pop("provenance"), b.pop("provenance")
    assert a == b and a["trump"] == "H" and a["turn_up"] == "JH"
    d = _advise_json(cli, "QH 8H KS 9D 7C", "--turn-up", "JH", "--discard", "--deals", "500")
    assert d["throws"] == _advise_json(cli, "QH 8H KS 9D 7C", "--trump", "H", "--turn-up", "JH",
                                       "--discard", "--deals", "500")["throws"]
    missing = cli("advise", "QH 8H KS 9D 7C")
    assert missing.code == 2 and "--turn-up" in one_line_error(missing)


def test_the_checks_never_replay_the_deals_a_solve_samples(cli):
    """A solve samples deals k < SOLVE_DEALS of a state (Sampling refuses more); advise reads
    k >= CHECK_DEALS_START: its joint table is exactly marks_block's over that range."""
    from ecarte_sim.analysis.ecarte.advice import first_decision as advice
    from ecarte_sim.analysis.ecarte.solving import proposal_game as st
    from ecarte_sim.engine.cards import parse_card, parse_hand
    from ecarte_sim.engine.ecarte.deals import action_values as K
    from ecarte_sim.engine.ecarte.decisions.states import canonical_index

    assert K.CHECK_DEALS_START >= K.SOLVE_DEALS
    with pytest.raises(ValueError):
        st.Sampling(2, K.SOLVE_DEALS + 1)
    st.Sampling(2, K.SOLVE_DEALS)
    for option in ("--max-deals-per-state", "--deals-per-state"):
        bad = cli("equilibrium", option, str(K.SOLVE_DEALS + 1))
        assert bad.code == 2, bad.err
    s = solved.load()
    run, script = advice.strategy_settings(s, 2, 4)
    out = advice.advise("KS JC 9H 7S KC", "TC", (2, 4), "elder", deals=600)
    mask, turn = int(parse_hand("KS JC 9H 7S KC", 5)), int(parse_card("TC"))
    for k_lo, same in ((K.CHECK_DEALS_START, True), (0, False)):
        joint = np.zeros((1, K.N_MARKS * K.N_MARKS), dtype=np.int64)
        cfg_a, cfg_b = st.arm_cfgs("elder", run, 2, 4)
        K.marks_block(np.uint64(0), K.ELDER_ROLE, np.array([mask], dtype=np.int64),
                      np.array([turn], dtype=np.int64),
                      np.array([canonical_index(mask, turn)], dtype=np.int64), False,
                      np.array([k_lo]), np.array([k_lo + 600]), cfg_a, cfg_b, script, joint,
                      np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64))
        f = st.marks_value(s.v, 2, 4)
        from ecarte_sim.analysis.ecarte.measures.paired import paired_mean
        g = paired_mean(joint[0].reshape(K.N_MARKS, K.N_MARKS), f)["mean"]
        assert (g == out["gain"]["p_win"]) == same
