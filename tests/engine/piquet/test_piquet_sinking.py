"""Sinking (Law 47) and the declarations read as evidence: the kernels against the plain
reference, golden cases worked by hand from the Laws of Piquet, the PIMC player's reading
of the calls, bit-identity, and the command line's refusals.

The golden cases (``GOLDEN``) are this project's own, worked out from the laws (Laws 47,
50, 54-56, 62-64, 68 and rules.md "Sinking"); a public peer's sinking cases are
transcribed in ``tests/engine/piquet/test_piquet_peer_sinking.py``. Each gives the two hands held after
the exchange, what each player sinks (``"all"`` a whole category, or the cards left out
of it), and the scores of the point, the sequences, the quatorzes and trios, and the
repique, as the laws give them.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from ecarte_sim.engine.piquet import simulate as S
from ecarte_sim.engine.piquet.declare import declare_called, repiques, sink_masks
from ecarte_sim.engine.piquet.deal import deal
from ecarte_sim.engine.piquet.game import DealRecord
from ecarte_sim.engine.piquet.records import (DECLARATIONS, N_SEATS, REC, SCORE, SCRATCH,
                                              STATE)
from ecarte_sim.engine.piquet.reference import (RulesError, Variant, declarations, play_deal,
                                                repique_of, sunk_by)
from ecarte_sim.engine.piquet.settings import (PiquetSettings, Reading, SinkPolicy)
from ecarte_sim.engine.piquet.whole import (SCRIPT_SIZE, SCRIPT_SINKS, consistent_calls,
                                            new_solver_scratch, play_dealt, sample_calls)
from helpers import BLOCKED, H, masks_of

ALL = 0xFFFFFFFF


# --------------------------------------------------------------------------- golden cases

E1 = "AS KS QS JS 9S AH KH 8H 7H AD 9D 8C"     # point 5 (50), quart major, trio of aces
Y1 = "TS 8S 7S QH JH TH 9H KD QD JD TD KC"     # point 4 (40), two quarts (to K, to Q), tens
E2 = "AS KS QS JS TS 9S 8S AH KH QH AD AC"     # point 7, septième + tierce, quatorze of aces
Y2 = "7S JH TH 9H 8H 7H KD QD JD TD KC QC"     # point 5 (44), quint to the knave + quart
E3 = "KS QS JS TS 9S KH QH JH TH KD KC 7C"     # point 5 (49), quint + quart, quatorze kings
Y3 = "AD QD JD TD 8D 7D AS AH 8S 7S 9C 8C"     # point 6 (56), tierce to the queen, aces

#: id: (elder, younger, elder sinks, younger sinks, (point, sequences, sets) elder,
#: the same younger, repique (player, category) or None). A sink is a dict category ->
#: "all" or the cards left out.
GOLDEN = {
    "nothing sunk": (E1, Y1, {}, {}, (5, 4, 3), (0, 0, 0), None),
    "a sunk point concedes it to the lesser point": (
        E1, Y1, {"point": "all"}, {}, (0, 4, 3), (4, 0, 0), None),
    "a smaller point still good (A K Q J called of five)": (
        E1, Y1, {"point": "9S"}, {}, (4, 4, 3), (0, 0, 0), None),
    "a smaller call from another suit loses": (
        E1, Y1, {"point": "9S JS"}, {}, (0, 4, 3), (4, 0, 0), None),
    "a smaller point equal: nobody scores": (
        E1, Y1, {"point": "QS"}, {}, (0, 4, 3), (0, 0, 0), None),
    "sunk sequences concede every run (Law 49)": (
        E1, Y1, {"sequences": "all"}, {}, (5, 0, 3), (0, 8, 0), None),
    "a tierce called of a quart loses to a quart": (
        E1, Y1, {"sequences": "JS"}, {}, (5, 0, 3), (0, 8, 0), None),
    "a card sunk from the middle breaks the run": (
        E1, Y1, {"sequences": "QS"}, {}, (5, 0, 3), (0, 8, 0), None),
    "sinking a losing holding changes nothing": (
        E1, Y1, {}, {"sequences": "all", "point": "all"}, (5, 4, 3), (0, 0, 0), None),
    "only the runs called are reckoned": (
        E1, Y1, {"sequences": "all"}, {"sequences": "KD QD JD TD"}, (5, 0, 3), (0, 4, 0),
        None),
    "sunk sets concede the trio": (
        E1, Y1, {"sets": "all"}, {}, (5, 4, 0), (0, 0, 3), None),
    "a pair called of a trio is no call": (
        E1, Y1, {"sets": "AD"}, {}, (5, 4, 0), (0, 0, 3), None),
    "both sink the sets: nobody scores": (
        E1, Y1, {"sets": "all"}, {"sets": "all"}, (5, 4, 0), (0, 0, 0), None),
    "both sink the point: nobody scores": (
        E1, Y1, {"point": "all"}, {"point": "all"}, (0, 4, 3), (0, 0, 0), None),
    "everything sunk by both": (
        E1, Y1, {"point": "all", "sequences": "all", "sets": "all"},
        {"point": "all", "sequences": "all", "sets": "all"}, (0, 0, 0), (0, 0, 0), None),
    "repique of the elder": (E2, Y2, {}, {}, (7, 20, 14), (0, 0, 0), ("elder", "sets")),
    "the elder sinks his point and loses his repique (Law 68)": (
        E2, Y2, {"point": "all"}, {}, (0, 20, 14), (5, 0, 0), None),
    "the elder sinks his tierce: still a repique": (
        E2, Y2, {"sequences": "AH KH QH"}, {}, (7, 17, 14), (0, 0, 0), ("elder", "sets")),
    "the elder calls a trio of aces: 7 + 20 + 3 = 30, still a repique": (
        E2, Y2, {"sets": "AC"}, {}, (7, 20, 3), (0, 0, 0), ("elder", "sets")),
    "a trio of aces and no tierce: 7 + 17 + 3 = 27, no repique": (
        E2, Y2, {"sets": "AC", "sequences": "AH"}, {}, (7, 17, 3), (0, 0, 0), None),
    "the younger's good point bars the repique": (
        E3, Y3, {}, {}, (0, 19, 14), (6, 0, 0), None),
    "the younger sinks that point: the elder repiques": (
        E3, Y3, {}, {"point": "all"}, (5, 19, 14), (0, 0, 0), ("elder", "sets")),
    "the younger calls a smaller point, not good: the elder repiques": (
        E3, Y3, {}, {"point": "AD"}, (5, 19, 14), (0, 0, 0), ("elder", "sets")),
    "a smaller point made equal blocks nothing (rules.md)": (
        E3, Y3, {}, {"point": "7D"}, (0, 19, 14), (0, 0, 0), ("elder", "sets")),
    "repique of the younger": (Y2, E2, {}, {}, (0, 0, 0), (7, 20, 14), ("younger", "sets")),
    "the younger sinks his point: the elder's 5 bars his repique": (
        Y2, E2, {}, {"point": "all"}, (5, 0, 0), (0, 20, 14), None),
}


@pytest.mark.quick
@pytest.mark.parametrize("name", list(GOLDEN))
def test_golden_sinking_case(name):
    e_text, y_text, e_sink, y_sink, e_want, y_want, rep_want = GOLDEN[name]
    e, y = H(e_text), H(y_text)
    assert e & y == 0 and bin(e).count("1") == bin(y).count("1") == 12
    em, ym = masks_of(e_sink, e), masks_of(y_sink, y)
    called = {"elder": tuple(e & ~m for m in em), "younger": tuple(y & ~m for m in ym)}
    # the reference
    decl = declarations(e, y, called)
    got = tuple(zip(decl["point"], decl["sequences"], decl["sets"]))
    assert got == (e_want, y_want), name
    pairs = [(0, 0), decl["point"], decl["sequences"], decl["sets"]]
    assert repique_of(pairs) == (rep_want or (None, None)), name
    # the kernel
    out = np.zeros(DECLARATIONS.size, dtype=np.int64)
    c = [np.uint32(h) for h in (*called["elder"], *called["younger"])]
    declare_called(np.uint32(e), np.uint32(y), *c, out)
    d = DECLARATIONS.read(out)
    assert tuple(d["elder"][1:]) == e_want and tuple(d["younger"][1:]) == y_want, name
    rep_e, rep_y = repiques(out)
    assert (rep_e, rep_y) == (rep_want is not None and rep_want[0] == "elder",
                              rep_want is not None and rep_want[0] == "younger"), name


#: hand -> (point, sequences, sets) sunk whole by ``guard`` (rules.md "Sinking").
GUARD_CASES = [
    ("KS QS 9S 7S AH 8H 7H AD 9D 8D AC 7C", (True, False, False)),    # point of 4, K no A
    ("KH QH JH 9S 8S 7S AC KC QC 7D 8D TD", (False, False, False)),   # point in clubs (A)
    ("KH QH JH 7H AS 9S 8S AC 9C 8C AD 7D", (True, True, False)),     # 4 hearts, tierce to K
    ("KS QS JS 9S 8S AH 7H AD 9D AC 8C 7C", (False, True, False)),    # point of 5 kept
    ("AS KS QS 9S AH KH QH JH TH AD AC 7C", (False, False, False)),   # aces guard the kings
    ("KS QS JS TS 9H 8H 7H KD KC 7C 8C 9C", (True, False, False)),    # three runs: 10 points
]


@pytest.mark.parametrize("text,want", GUARD_CASES)
def test_guard_policy_kernel_and_reference(text, want):
    hand = H(text)
    ref = sunk_by(hand, "guard")
    assert tuple(m == hand for m in ref) == want and all(m in (0, hand) for m in ref)
    kern = tuple(int(m) for m in sink_masks(SinkPolicy.GUARD, np.uint32(hand)))
    assert kern == ref
    assert sunk_by(hand, "never") == (0, 0, 0)
    assert tuple(int(m) for m in sink_masks(SinkPolicy.NEVER, np.uint32(hand))) == (0, 0, 0)


def test_guard_equals_reference_on_random_hands():
    rng = np.random.default_rng(47)
    sunk = 0
    for _ in range(3000):
        hand = sum(1 << int(c) for c in rng.choice(32, 12, replace=False))
        ref = sunk_by(hand, "guard")
        assert tuple(int(m) for m in sink_masks(SinkPolicy.GUARD, np.uint32(hand))) == ref
        sunk += any(ref)
    assert 0 < sunk < 3000


# --------------------------------------------------------------------------- bad input

def test_reference_refuses_what_the_laws_forbid():
    """Only what is held can be left uncalled (Laws 47, 54); policies are named ones."""
    d = deal(3, 0)
    e_disc = 1 << (d.elder.bit_length() - 1)                  # one card of each hand
    y_disc = 1 << (d.younger.bit_length() - 1)
    outside = d.younger & ~y_disc                             # the younger's cards
    args = (d.elder, d.younger, list(d.stock), e_disc, y_disc, [0] * 24, Variant())
    with pytest.raises(RulesError, match="the elder sinks .* a card he does not hold"):
        play_deal(*args, sunk={"elder": (outside, 0, 0)})
    with pytest.raises(RulesError, match="unknown sink policy 'always'"):
        play_deal(*args, sinks=("always", "never"))
    with pytest.raises(RulesError, match="three masks"):
        play_deal(*args, sunk={"younger": (0, 0)})
    with pytest.raises(RulesError, match="unknown sink policy"):
        sunk_by(d.elder, "sometimes")


def test_settings_refuse_unknown_policy_and_reading():
    with pytest.raises(ValueError, match="unknown sink policy 'always'"):
        PiquetSettings(elder_sink="always")
    with pytest.raises(ValueError, match="unknown reading 'half'"):
        PiquetSettings(younger_reading="half")
    s = PiquetSettings("pimc", "heuristic", elder_sink="guard", younger_reading="full")
    assert s.elder_sink == SinkPolicy.GUARD and s.younger_reading == Reading.FULL
    t = s.swapped()                            # the policies follow the players
    assert t.younger_sink == SinkPolicy.GUARD and t.elder_reading == Reading.FULL
    assert "sink" not in PiquetSettings().echo() and "reading" not in PiquetSettings().echo()
    assert s.echo()["sink"] == {"elder": "guard", "younger": "never"}


@pytest.mark.parametrize("args,token", [
    (["--sink", "always"], "'always'"),
    (["--sink", "guard,never,never"], "'guard,never,never'"),
    (["--read-declarations", "half"], "'half'"),
    (["--sink", "guard,sometimes"], "'sometimes'"),
])
def test_cli_bad_sink_or_reading_is_one_line_exit_2(cli, args, token):
    for command in (["piquet", "deal"], ["piquet", "simulate", "--deals", "10"],
                    ["piquet", "partie", "--parties", "2"]):
        code, out, err = cli(*command, *args)
        lines = err.splitlines()
        assert code == 2 and out == "" and len(lines) == 1, (command, args, err)
        assert lines[0].startswith("Error: ") and token in lines[0]


def test_cli_deal_tells_the_sink(cli):
    code, out, _ = cli("piquet", "deal", "--index", "2", "--sink", "guard")
    assert code == 0 and "Younger sinks his point (KC QC JC TC)" in out
    code, plain, _ = cli("piquet", "deal", "--index", "2")
    assert "sinks" not in plain and "quart to the king in clubs" in plain
    code, only_elder, _ = cli("piquet", "deal", "--index", "2", "--sink", "guard,never")
    assert "sinks" not in only_elder
    code, out, _ = cli("piquet", "simulate", "--deals", "50", "--json", "--sink",
                       "never,guard", "--read-declarations", "full")
    import json
    result = json.loads(out)
    assert result["settings"]["sink"] == {"elder": "never", "younger": "guard"}
    assert result["provenance"]["parameters"]["sink"] == {"elder": "never", "younger": "guard"}
    # at the defaults, nothing new in the output or its provenance
    for command in (["deal"], ["simulate", "--deals", "20"], ["partie", "--parties", "2"]):
        code, out, _ = cli("piquet", *command, "--json")
        result = json.loads(out)
        assert code == 0 and "sink" not in json.dumps(result) and "reading" not in out


# --------------------------------------------------------------------------- kernel = reference

POLICIES = [("guard", "never"), ("never", "guard"), ("guard", "guard")]


def _check(records, sinks, variant, sunk_of=lambda k: None):
    seen = {"sink": 0, "pique": 0, "repique": 0}
    for rec in records:
        k = DealRecord.from_record(rec)
        ref = play_deal(k.elder_dealt, k.younger_dealt, list(k.stock), k.elder_discard,
                        k.younger_discard, list(k.plays), variant, sinks=sinks,
                        sunk=sunk_of(k))
        for seat, kernel in (("elder", k.elder), ("younger", k.younger)):
            score = getattr(ref, seat)
            expected = {name: getattr(score, name) for name in SCORE.fields if name != "total"}
            expected["total"] = score.total
            assert kernel == expected, (seat, sinks, k.as_dict())
        seen["sink"] += any(ev["event"] == "sink" for ev in ref.events)
        seen["pique"] += k.elder["pique"] > 0
        seen["repique"] += k.elder["repique"] + k.younger["repique"] > 0
    return seen


@pytest.mark.parametrize("sinks", POLICIES, ids="-".join)
@pytest.mark.parametrize("players,timing", [(("heuristic", "heuristic"), "lead"),
                                            (("random", "heuristic"), "law67")])
def test_kernel_equals_reference_under_policies(sinks, players, timing):
    cfg = PiquetSettings(*players, pique_timing=timing, elder_sink=sinks[0],
                         younger_sink=sinks[1]).cfg()
    seen = _check(S.deal_records(36, 0, 2500, cfg), sinks, Variant(pique_timing=timing))
    assert seen["sink"] > 100 and seen["pique"] > 0 and seen["repique"] > 0


def _play_with_sinks(the_deal, cfg, masks):
    """One deal through the kernel with a long script: the players' discards and, per
    seat and category, the cards sunk."""
    from ecarte_sim.engine.cards import N_CARDS

    script = np.zeros(SCRIPT_SIZE, dtype=np.int64)
    script[SCRIPT_SINKS:] = masks
    rec = np.zeros(REC.size, dtype=np.int64)
    table, ws = new_solver_scratch(False)
    play_dealt(np.uint64(9), np.uint64(0), cfg, script, rec, np.uint32(the_deal.elder),
               np.uint32(the_deal.younger), np.array(the_deal.stock, dtype=np.int64),
               np.zeros(N_CARDS, dtype=np.int64), np.zeros(N_CARDS, dtype=np.int64),
               np.zeros(SCRATCH.size, dtype=np.int64),
               np.zeros((STATE.size, N_SEATS), dtype=np.uint32), table, ws)
    return rec


def test_kernel_equals_reference_with_given_sinks():
    """Random cards sunk in random categories (a smaller call, or a whole category),
    given through the script on top of each seat's policy."""
    rng = np.random.default_rng(56)
    cfg = PiquetSettings("heuristic", "heuristic", younger_sink="guard").cfg()
    records, given = [], []
    for i in range(1500):
        d = deal(12, i)
        first = DealRecord.from_record(_play_with_sinks(d, cfg, np.zeros(6, dtype=np.int64)))
        masks = np.zeros(6, dtype=np.int64)
        for p, hand in enumerate((first.elder_hand, first.younger_hand)):
            cards = [c for c in range(32) if hand >> c & 1]
            for cat in range(3):
                kind = rng.integers(4)
                if kind == 1:
                    masks[3 * p + cat] = hand                       # the whole category
                elif kind >= 2:
                    chosen = rng.choice(cards, int(rng.integers(1, 4)), replace=False)
                    masks[3 * p + cat] = sum(1 << int(c) for c in chosen)
        records.append(_play_with_sinks(d, cfg, masks))
        given.append({"elder": tuple(int(m) for m in masks[:3]),
                      "younger": tuple(int(m) for m in masks[3:])})
    it = iter(given)
    seen = _check(records, ("never", "guard"), Variant(), lambda k: next(it))
    assert seen["sink"] > 1000


# --------------------------------------------------------------------------- reading

def test_the_true_hand_answers_its_calls_under_full_reading():
    """Replaying the calls of recorded deals: under ``full`` the opponent's true hand always
    calls what he called (so worlds can hold it); under ``face`` a sinker's true hand is
    sometimes refused (the face reader is misled); under ``never`` they agree."""
    from ecarte_sim.engine.piquet.declare import called_keys

    face_refused = 0
    for sinks in (("guard", "guard"), ("never", "never")):
        cfg = PiquetSettings("heuristic", "heuristic", elder_sink=sinks[0],
                             younger_sink=sinks[1]).cfg()
        for rec in S.deal_records(37, 0, 1500, cfg):
            k = DealRecord.from_record(rec)
            hands = (k.elder_hand, k.younger_hand)
            calls = np.zeros(10, dtype=np.int64)
            for p, hand in enumerate(hands):
                m = sink_masks(SinkPolicy[sinks[p].upper()], np.uint32(hand))
                keys = called_keys(*(np.uint32(hand & ~int(x)) for x in m))
                calls[5 * p:5 * p + 5] = keys
            for them in (0, 1):
                policy = SinkPolicy[sinks[them].upper()]
                full = sample_calls(np.uint32(hands[them]), Reading.FULL, policy)
                assert consistent_calls(*full, calls, them, 1 - them)
                face = sample_calls(np.uint32(hands[them]), Reading.FACE, policy)
                ok = consistent_calls(*face, calls, them, 1 - them)
                if sinks[them] == "never":
                    assert ok
                face_refused += not ok
    assert face_refused > 0


@pytest.mark.parametrize("reading", ["none", "full"])
def test_reading_changes_play_and_is_bit_identical(reading):
    """The reading is used (some pimc card changes against a sinker) and the counts do not
    depend on threads or chunks."""
    base = PiquetSettings("pimc", "heuristic", worlds=4, younger_sink="guard")
    read = PiquetSettings("pimc", "heuristic", worlds=4, younger_sink="guard",
                          elder_reading=reading)
    n = 40
    plays = [S.deal_records(5, 0, n, s.cfg())[:, REC.at.PLAYS:REC.at.PLAYS + 24]
             for s in (base, read)]
    assert (plays[0] != plays[1]).any()
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = S.deal_counts(5, 0, n, read.cfg(), chunk=n)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = S.deal_counts(5, 0, n, read.cfg(), chunk=3)
        three = S.deal_counts(5, 0, n, read.cfg(), chunk=1, block=8)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, two) and np.array_equal(one, three)


def test_never_and_face_are_the_defaults_bit_for_bit():
    """Naming the defaults changes nothing, and a sinking policy changes the counts."""
    n = 3000
    plain = S.deal_counts(8, 0, n, PiquetSettings("heuristic", "heuristic").cfg())
    named = S.deal_counts(8, 0, n, PiquetSettings("heuristic", "heuristic", elder_sink="never",
                                                  younger_reading="face").cfg())
    sinking = S.deal_counts(8, 0, n, PiquetSettings("heuristic", "heuristic",
                                                    younger_sink="guard").cfg())
    assert np.array_equal(plain, named) and not np.array_equal(plain, sinking)


@pytest.mark.parametrize("args,task_size", [
    (["--deals", "100000", "--elder-player", "heuristic", "--younger-player", "heuristic",
     "--sink", "guard"], "30000"),
    (["--deals", "48", "--elder-player", "pimc", "--younger-player", "heuristic", "--worlds",
      "4", "--sink", "never,guard", "--read-declarations", "full"], "16"),
])
def test_cli_sinking_on_a_local_cluster_is_byte_identical(args, task_size):
    """The same counts, byte for byte, from local threads and from two Dask worker
    processes (another backend, other task sizes)."""
    import subprocess
    import sys

    pytest.importorskip("distributed")
    base = [sys.executable, "-m", "ecarte_sim.apps.cli", "piquet", "simulate", "--seed",
            "13", "--json", *args]
    threads = subprocess.run(base, capture_output=True, timeout=BLOCKED)
    assert threads.returncode == 0, threads.stderr.decode()
    dask = subprocess.run(base + ["--workers", "2", "--task-size", task_size],
                          capture_output=True, timeout=BLOCKED)
    assert dask.returncode == 0, dask.stderr.decode()
    assert dask.stdout == threads.stdout


def test_the_prose_tells_every_sink_once_with_its_law():
    """``piquet deal`` under sinking: every event told exactly once, each sink on a line
    of its own citing Law 47, whole sinks and smaller calls both told, and the younger's
    calls still introduced once after the first lead."""
    from ecarte_sim.api.piquet import piquet_deal
    from ecarte_sim.analysis.piquet.narrative import told

    kinds = set()
    for index in range(40):
        settings = PiquetSettings("heuristic", "heuristic", elder_sink="guard",
                                  younger_sink="guard")
        result = piquet_deal(seed=0, index=index, settings=settings)
        pairs = told(result)
        ids = [id(ev) for _, evs in pairs for ev in evs]
        assert sorted(ids) == sorted(id(ev) for ev in result["events"])
        for line, evs in pairs:
            if any(ev["event"] == "sink" for ev in evs):
                assert len(evs) == 1 and line.endswith("(Law 47).")
                ev = evs[0]
                kinds.add((ev["kind"], ev["whole"]))
                assert ("sinks his" in line) == ev["whole"]
        assert sum("Before he plays to it, younger declares." == line
                   for line, _ in pairs) <= 1
    assert {("point", True), ("sequences", True)} <= kinds
    # a smaller call, given through the reference
    d = deal(4, 1)
    e_disc = 1 << (d.elder.bit_length() - 1)
    y_disc = 1 << (d.younger.bit_length() - 1)
    held = (d.elder & ~e_disc) | (1 << d.stock[0])
    point_suit = max(range(4), key=lambda s: (bin(held >> 8 * s & 0xFF).count("1"), s))
    low = (held >> 8 * point_suit & 0xFF) & -(held >> 8 * point_suit & 0xFF)
    ref = play_deal(d.elder, d.younger, list(d.stock), e_disc, y_disc,
                    _legal_plays(d, e_disc, y_disc),
                    Variant(), sunk={"elder": (low << 8 * point_suit, 0, 0)})
    sinks = [ev for ev in ref.events if ev["event"] == "sink"]
    assert len(sinks) == 1 and not sinks[0]["whole"]
    result = {"deal": d.as_dict(), "events": ref.events, "seed": 4,
              "elder": ref.elder.total, "younger": ref.younger.total}
    lines = [line for line, evs in told(result) if evs and evs[0]["event"] == "sink"]
    assert lines == [f"Elder calls less than he holds in his point, leaving "
                     f"{sinks[0]['cards']} uncalled (Law 47)."]


def _legal_plays(d, e_disc, y_disc):
    """Some legal play of the deal after the given exchange (each plays his lowest card,
    following suit when he can)."""
    hands = [(d.elder & ~e_disc) | sum(1 << c for c in d.stock[:1]),
             (d.younger & ~y_disc) | sum(1 << c for c in d.stock[1:2])]
    plays, leader = [], 0
    for _ in range(12):
        lead = (hands[leader] & -hands[leader]).bit_length() - 1
        suit = hands[1 - leader] & (0xFF << 8 * (lead >> 3))
        pool = suit or hands[1 - leader]
        reply = (pool & -pool).bit_length() - 1
        plays += [lead, reply]
        hands[leader] &= ~(1 << lead)
        hands[1 - leader] &= ~(1 << reply)
        if reply >> 3 == lead >> 3 and reply > lead:
            leader = 1 - leader
    return plays
