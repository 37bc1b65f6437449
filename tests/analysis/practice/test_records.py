"""Game records (analysis/practice/records.py, docs/records.md) and the laws a record must
keep (laws.check): the treatise's worked game between A and Y as an example record, every
breach named on crafted bad records, malformed files refused in one line, atomic saves,
and ``ecarte-sim review``."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest
from click.testing import CliRunner

from ecarte_sim.analysis.practice import laws
from ecarte_sim.analysis.practice.records import RecordError, load, save, validate
from ecarte_sim.apps.practice.session import Table
from helpers import DATA, REPO

EXAMPLE = (REPO / "analysis" / "practice" / "examples"
           / "treatise_a_y.json")


@pytest.fixture
def example() -> dict:
    return load(EXAMPLE)


def laws_of(record) -> list[str]:
    return [law for law, _ in laws.check(record)]


def table_record(seed: int = 7) -> dict:
    from helpers import play_out
    table = Table.new(seed=seed, opponent="treatise", coach=False)
    play_out(table, random.Random(seed))
    return table.record()


# ----------------------------------------------------------------------------- the example

@pytest.mark.quick
def test_the_worked_game_is_the_treatise_s(example):
    """Five deals to five up, A dealing first; the scores the text gives after each deal;
    the king concealed in the last; nothing the text does not give is invented."""
    assert example["players"] == ["A", "Y"] and example["first_dealer"] == "A"
    assert [d["dealer"] for d in example["deals"]] == ["A", "Y", "A", "Y", "A"]
    assert [(d["score_after"]["A"], d["score_after"]["Y"]) for d in example["deals"]] == \
        [(3, 0), (3, 2), (3, 3), (3, 4), (5, 4)]
    assert example["winner"] == "A"
    last = example["deals"][-1]
    assert {"by": "A", "type": "king", "announce": False} in last["actions"]
    assert "KD" in last["hands"]["A"] and last["turn_up"] == "9D"
    assert [m["marks"] for m in last["marks"]] == [2]          # Law 49: Y played, lost
    first = example["deals"][0]
    assert first["actions"][2]["cards"] == ["?", "?", "?"]     # the text: "Y takes three"
    assert first["actions"][2]["drawn"] == ["KD", "7S", "7H"]
    assert all(d.get("unknown") for d in example["deals"][:4])
    assert example["deals"][3]["hands"]["A"] == ["?"] * 5


def test_the_worked_game_keeps_the_laws(example):
    assert laws.check(example) == []


def test_the_last_deal_s_play_is_legal_card_by_card_and_gives_a_the_point(example):
    """Y leads KS, A must follow with 8S; Y QD, A must win with KD (not AD); A leads KC, Y
    void must trump (JD); Y QS, A trumps (AD); A AH, Y AS: A three tricks."""
    bad = copy.deepcopy(example)
    cards = [a for a in bad["deals"][-1]["actions"] if a["type"] == "card"]
    assert [c["card"] for c in cards] == ["KS", "8S", "QD", "KD", "KC", "JD", "QS", "AD",
                                          "AH", "AS"]
    assert example["deals"][-1]["tricks"] == {"A": 3, "Y": 2}


# ----------------------------------------------------------------------------- every breach

def _card_actions(record, deal=-1):
    return [a for a in record["deals"][deal]["actions"] if a["type"] == "card"]


def _swap(record, i, j, deal=-1):
    cards = _card_actions(record, deal)
    cards[i]["card"], cards[j]["card"] = cards[j]["card"], cards[i]["card"]


def test_a_revoke_is_law_43(example):
    bad = copy.deepcopy(example)
    _swap(bad, 1, 8)            # A renounces AH to KS while holding 8S ...
    found = laws.check(bad)
    assert any(law == "Law 43" and "renounces" in why for law, why in found)


def test_not_winning_when_able_is_law_43(example):
    bad = copy.deepcopy(example)
    _swap(bad, 3, 7)            # A plays AD to QD though KD would win
    found = laws.check(bad)
    assert any(law == "Law 43" and "does not win" in why for law, why in found)


def test_not_trumping_when_void_is_law_43(example):
    bad = copy.deepcopy(example)
    _swap(bad, 5, 6)            # Y, void of clubs, throws QS on KC holding JD
    found = laws.check(bad)
    assert any(law == "Law 43" and "trump" in why for law, why in found)


def test_a_card_out_of_turn_is_law_40(example):
    bad = copy.deepcopy(example)
    acts = bad["deals"][-1]["actions"]
    i = next(k for k, a in enumerate(acts) if a.get("card") == "QD")
    acts[i], acts[i + 1] = acts[i + 1], acts[i]    # A leads KD though Y won the trick
    assert "Law 40" in laws_of(bad)


def test_more_cards_taken_than_discarded_is_laws_29_to_34(example):
    bad = copy.deepcopy(example)
    bad["deals"][0]["actions"][2]["drawn"].append("9H")     # the elder takes 4 for 3
    assert "Laws 29, 31" in laws_of(bad)
    bad = copy.deepcopy(example)
    bad["deals"][0]["actions"][3]["drawn"].append("9H")     # the dealer takes 3 for 2
    assert "Law 33" in laws_of(bad)
    bad = copy.deepcopy(example)
    bad["deals"][0]["actions"][3]["drawn"].pop()            # the dealer takes 1 for 2
    assert "Law 34" in laws_of(bad)


def test_an_elder_who_exchanges_without_discarding_is_law_27(example):
    bad = copy.deepcopy(example)
    bad["deals"][0]["actions"][2].update(cards=[], drawn=[])
    assert "Law 27" in laws_of(bad)


def test_wrong_marks_are_laws_47_to_49(example):
    bad = copy.deepcopy(example)                 # the point at one, not Law 49's two
    bad["deals"][-1]["marks"][0]["marks"] = 1
    bad["deals"][-1]["score_after"]["A"] = 4
    bad["score"]["A"], bad["winner"] = 4, None
    assert "Law 49" in laws_of(bad)
    bad = copy.deepcopy(example)                 # the turned king not marked
    bad["deals"][0]["marks"].pop(0)
    assert "Laws 22, 47" in laws_of(bad)
    bad = copy.deepcopy(example)                 # the concealed king marked all the same
    bad["deals"][-1]["marks"].append({"to": "A", "marks": 1, "for": "the king of trumps"})
    assert "Law 23" in laws_of(bad)
    bad = copy.deepcopy(example)                 # a point marked as a vole
    bad["deals"][2]["marks"][0].update(marks=2, **{"for": "the vole"})
    assert set(laws_of(bad)) & {"Law 48", "Laws 48–49"}


def test_announcing_a_king_not_held_is_law_25(example):
    bad = copy.deepcopy(example)
    acts = bad["deals"][-1]["actions"]
    acts.insert(1, {"by": "Y", "type": "king", "announce": True})
    assert "Law 25" in laws_of(bad)


def test_the_score_and_the_game_s_end_are_law_46(example):
    bad = copy.deepcopy(example)
    bad["deals"][2]["score_before"]["A"] = 2
    assert "Law 46" in laws_of(bad)
    bad = copy.deepcopy(example)
    extra = copy.deepcopy(bad["deals"][3])
    extra["number"] = 6
    bad["deals"].append(extra)
    assert any(law == "Law 46" and "game was over" in why for law, why in laws.check(bad))


def test_a_card_played_twice_or_not_held_is_law_45(example):
    bad = copy.deepcopy(example)
    _card_actions(bad)[9]["card"] = "KS"
    assert "Law 45" in laws_of(bad)


def test_table_records_keep_the_laws_and_breaches_are_found_in_them():
    record = table_record(3)
    assert laws.check(record) == []
    # a random card of the first deal's play changed to another card of the same hand
    bad = copy.deepcopy(record)
    deal = next(d for d in bad["deals"] if sum(a["type"] == "card" for a in d["actions"]) == 10)
    cards = [a for a in deal["actions"] if a["type"] == "card"]
    cards[0]["by"] = deal["dealer"]      # the dealer leads to the first trick
    assert "Law 40" in laws_of(bad)


# ----------------------------------------------------------------------------- the format

@pytest.mark.parametrize("change, where", [
    (lambda r: r.pop("format"), "format"),
    (lambda r: r.update(version=3), "version"),
    (lambda r: r.update(players=["A"]), "players"),
    (lambda r: r["deals"][0]["hands"]["A"].append("7C"), "deals[0].hands.A"),
    (lambda r: r["deals"][0]["hands"]["A"].__setitem__(0, "1Z"), "deals[0].hands.A[0]"),
    (lambda r: r["deals"][1]["actions"][0].update(type="fold"), "deals[1].actions[0].type"),
    (lambda r: r["deals"][1]["actions"][0].update(by="B"), "deals[1].actions[0].by"),
    (lambda r: r["deals"][4]["marks"][0].update(marks="two"), "deals[4].marks[0].marks"),
    (lambda r: r["deals"][4].update(tricks={"A": 6, "Y": 2}), "deals[4].tricks.A"),
])
def test_a_malformed_record_names_the_field(example, change, where):
    bad = copy.deepcopy(example)
    change(bad)
    with pytest.raises(RecordError) as err:
        validate(bad)
    assert err.value.where == where
    with pytest.raises(RecordError):
        laws.check(bad)


def test_save_is_atomic_and_load_reads_it_back(tmp_path, example):
    path = save(example, tmp_path / "game.json")
    assert load(path) == example
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(RecordError, match="not JSON"):
        load(tmp_path / "bad.json")
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "missing.json")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(RecordError, match="too deep"):
        load(tmp_path / "deep.json")
    (tmp_path / "binary.json").write_bytes(bytes(range(256)) * 4)
    with pytest.raises(RecordError, match="UTF-8"):
        load(tmp_path / "binary.json")


def test_a_table_record_round_trips_through_a_file(tmp_path):
    record = table_record(5)
    path = save(record, tmp_path / "g.json")
    again = Table.from_record(load(path))
    assert again.record() == record


def test_a_record_that_is_not_the_seed_s_deal_is_refused():
    record = table_record(6)
    record["deals"][0]["hands"]["person"], record["deals"][0]["hands"]["computer"] = \
        record["deals"][0]["hands"]["computer"], record["deals"][0]["hands"]["person"]
    seed = record["deals"][0]["seed"]
    with pytest.raises(RecordError, match=f"not deal 0 of seed {seed}"):
        Table.from_record(record)
    assert "Laws 8, 10" in laws_of(record)      # and review names it (issue 51)


# ----------------------------------------------------------------------------- the command

def _review(*args):
    from ecarte_sim.apps.cli import main
    return CliRunner().invoke(main, ["review", *args])


def test_review_of_the_example(example):
    result = _review(str(EXAMPLE), "--no-coach")
    assert result.exit_code == 0, result.output
    assert "keeps the laws" in result.output
    result = _review(str(EXAMPLE), "--json", "--no-coach")
    out = json.loads(result.output)
    assert out["legal"] is True and out["winner"] == "A" and out["breaches"] == []


def test_review_names_the_law_and_exits_1(tmp_path, example):
    bad = copy.deepcopy(example)
    _swap(bad, 1, 8)
    path = save(bad, tmp_path / "bad.json")
    result = _review(str(path), "--no-coach")
    assert result.exit_code == 1
    assert any(line.startswith("Law 43: deal 5") for line in result.output.splitlines())
    out = json.loads(_review(str(path), "--json", "--no-coach").output)
    assert out["legal"] is False and out["breaches"][0]["law"] == "Law 43"


def test_review_of_a_bad_file_is_one_line_exit_2(tmp_path):
    from ecarte_sim.apps.cli.common import run_group
    from ecarte_sim.apps.cli import main
    (tmp_path / "x.json").write_text('{"format": "something else"}')
    for args in (["review", str(tmp_path / "x.json")], ["review", str(tmp_path / "no.json")]):
        with pytest.raises(SystemExit) as exit_:
            run_group(main, args)
        assert exit_.value.code == 2


def test_review_with_the_coach_finds_the_treatise_s_lesson(example):
    """The coach's double-dummy replay of the last deal says what the treatise says: Y's
    second lead, the queen of diamonds, threw the game away ("If Y had followed his first
    lead with queen of spades, he must have won the game"); unknown cards are not valued."""
    result = _review(str(EXAMPLE), "--json")
    assert result.exit_code == 0, result.output
    coach = json.loads(result.output)["coach"]
    assert [d["number"] for d in coach["deals"]] == [1, 2, 3, 4, 5]
    last = coach["deals"][4]["replay"]
    assert last["known"] and last["dd_elder_tricks"] == 3 and last["elder_tricks"] == 2
    qd = next(c for c in last["cards"] if c["card"] == "QD")
    assert qd["by"] == "Y" and not qd["kept_best"] and "QS" in qd["best"]
    assert coach["deals"][3]["verdicts"] == []            # deal 4: nothing is known
    discards = [v for v in coach["deals"][0]["verdicts"] if v["kind"] == "discard"]
    assert discards and all(v["grade"] == "unknown" for v in discards)
    text = _review(str(EXAMPLE)).output
    assert "coach:" in text and "deal 5:" in text
    # every deal has a line under it: deal 4 says why nothing is graded (it was a bare
    # "deal 4:" before)
    lines = text.splitlines()
    four = lines.index("deal 4:")
    assert lines[four + 1] == ("  nothing to grade: the record does not give the hands, "
                               "the turn-up, the proposals, the play")
    heads = [i for i, line in enumerate(lines) if line.startswith("deal ")]
    assert all(lines[i + 1].startswith("  ") for i in heads)


# ----------------------------------------------------------------------------- robustness

_CARDS = [r + s for r in "KQJAT987" for s in "SHDC"] + ["?"]


def _mutate(record: dict, rng: random.Random) -> None:
    """One random change: a card, two actions swapped, an action dropped or added, a
    player, the turn-up, a hand's card, a mark, the tricks."""
    d = rng.choice(record["deals"])
    acts = d["actions"]
    k = rng.randrange(8)
    if k == 0 and acts:
        a = rng.choice(acts)
        if a["type"] == "card":
            a["card"] = rng.choice(_CARDS)
    elif k == 1 and len(acts) > 1:
        i, j = rng.randrange(len(acts)), rng.randrange(len(acts))
        acts[i], acts[j] = acts[j], acts[i]
    elif k == 2 and acts:
        acts.pop(rng.randrange(len(acts)))
    elif k == 3 and acts:
        rng.choice(acts)["by"] = rng.choice(record["players"])
    elif k == 4:
        d["turn_up"] = rng.choice(_CARDS)
    elif k == 5:
        d["hands"][rng.choice(record["players"])][rng.randrange(5)] = rng.choice(_CARDS)
    elif k == 6 and d["marks"]:
        d["marks"][0]["marks"] = rng.randint(1, 3)
    else:
        acts.insert(rng.randrange(len(acts) + 1), {
            "by": rng.choice(record["players"]),
            "type": rng.choice(["propose", "play", "accept", "refuse", "king", "card",
                                "discard"]),
            "announce": rng.random() < 0.5, "card": rng.choice(_CARDS),
            "cards": [rng.choice(_CARDS)], "drawn": [rng.choice(_CARDS)] * rng.randint(0, 3)})


def test_the_checker_and_the_restore_never_crash_on_damaged_records(example):
    """2,000 randomly damaged records: laws.check answers (a list) or refuses the shape
    (RecordError); Table.from_record restores or refuses with RecordError — never another
    exception; a record whose marks were changed is refused, not corrected."""
    rng = random.Random(4)
    records = [table_record(s) for s in range(8)]
    for n in range(2000):
        record = copy.deepcopy(rng.choice(records + [example]))
        for _ in range(rng.randint(1, 3)):
            _mutate(record, rng)
        try:
            assert isinstance(laws.check(record), list)
        except RecordError:
            pass
        if record["players"] == ["person", "computer"] and n % 5 == 0:
            try:
                Table.from_record(record)
            except RecordError:
                pass
    tampered = copy.deepcopy(records[0])
    tampered["deals"][0]["marks"].append({"to": "person", "marks": 1, "for": "the point"})
    with pytest.raises(RecordError, match="deals\\[0\\].marks"):
        Table.from_record(tampered)


def test_review_of_an_illegal_record_still_exits_1_with_the_coach_on(tmp_path, example):
    """The coach may not be able to grade a record that breaks the laws (a card in two
    places): the breaches are still printed, exit code 1, never a traceback."""
    bad = copy.deepcopy(example)
    bad["deals"][4]["hands"]["Y"][0] = "9D"           # the turn-up, dealt to Y too
    path = save(bad, tmp_path / "bad.json")
    result = _review(str(path))
    assert result.exit_code == 1, result.output
    assert "Law 45: deal 5" in result.output
    out = json.loads(_review(str(path), "--json").output)
    assert not out["legal"] and out["coach"] is not None


def test_review_grades_the_player_named(tmp_path):
    out = json.loads(_review(str(EXAMPLE), "--json", "--player", "Y").output)
    assert {v["by"] for d in out["coach"]["deals"] for v in d["verdicts"]} == {"Y"}
    from ecarte_sim.apps.cli import main
    from ecarte_sim.apps.cli.common import run_group
    with pytest.raises(SystemExit) as exit_:
        run_group(main, ["review", str(EXAMPLE), "--player", "B"])
    assert exit_.value.code == 2


def test_a_king_announced_too_late_is_laws_23_24_and_the_deal_order_law_14(example):
    bad = copy.deepcopy(example)
    acts = bad["deals"][-1]["actions"]
    acts.remove({"by": "A", "type": "king", "announce": False})
    acts.insert(6, {"by": "A", "type": "king", "announce": True})   # after A's 8S and KD
    bad["deals"][-1]["marks"].insert(0, {"to": "A", "marks": 1, "for": "the king of trumps"})
    assert "Laws 23–24" in laws_of(bad)
    ok = copy.deepcopy(example)                 # Law 24: his first card the king, before
    deal = ok["deals"][1]                       # it is played to: in time
    deal.update(actions=[{"by": "A", "type": "play"},
                         {"by": "A", "type": "card", "card": "KD"},
                         {"by": "A", "type": "king", "announce": True}],
                turn_up="9D", unknown=["the rest"], tricks=None)
    deal["hands"]["A"] = ["KD", "AD", "8H", "7H", "TS"]
    deal["hands"]["Y"] = ["KS", "QS", "JS", "8C", "7C"]
    assert "Laws 23–24" not in laws_of(ok)
    twice = copy.deepcopy(example)
    twice["deals"][1]["dealer"], twice["deals"][1]["elder"] = "A", "Y"
    assert "Law 14" in laws_of(twice)


# ---------------------------------------------------------------------------- issue 43.6, 43.9

HOSTILE = DATA / "hostile_records"


def _manifest() -> dict:
    return json.loads((HOSTILE / "MANIFEST.json").read_text())


@pytest.mark.parametrize("coach", [False, True], ids=["no-coach", "coach"])
@pytest.mark.parametrize("name", sorted(_manifest()))
def test_review_never_passes_a_record_of_the_hostile_corpus(name, coach):
    """tests/data/hostile_records: impossible records (a draw of KD KD KD, a stock of 21
    turn-ups, a card in two places, a forged name, a mark citing Law 99; issue 51: a card
    the person threw played by the computer whose hand is '?', the turn-up played or
    thrown, 30 cards drawn from the stock with '?' discards, 14 cards played, deals
    numbered 7 3 3 1, a seed whose deals are not the record's, a card twice in a hand, a
    name with a bidirectional override, a version 2 deal seed or key that is not the
    record's, ...) and files that are no record: never exit 0, with or without the coach
    (the laws are checked first and alone: the coach never decides the exit code); each
    breach one line naming its law; each says what MANIFEST.json says."""
    want = _manifest()[name]
    r = _review(str(HOSTILE / f"{name}.json"), *([] if coach else ["--no-coach"]))
    assert r.exit_code == want["exit"], r.output
    assert want["says"] in r.output
    assert want.get("line", "") in r.output
    lines = r.output.splitlines()
    assert "keeps the laws" not in lines
    assert not any(line.startswith("keeps the laws") for line in lines)   # none forged
    if want["exit"] == 1:
        breaches = lines[1:-1] if coach else lines[1:]
        assert breaches and all(re.match(r"Laws? \d+", line) for line in breaches), lines
        assert not coach or lines[-1].startswith("coach: not run: the record breaks")
        assert not any(ch in r.output for ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067")


def test_the_corpus_s_public_and_version_2_games_keep_the_laws():
    """No breach invented where the cards are unknown: the corpus's legal game with the
    computer's hand, discards, draws and the stock of every deal '?' (as the person sees
    a deal in progress) keeps the laws, and so does a version 2 record."""
    record = json.loads((HOSTILE / "legal.json").read_text())
    for d in record["deals"]:
        d["hands"]["computer"] = ["?"] * 5
        d["stock"] = None
        for a in d["actions"]:
            if a["type"] == "discard" and a["by"] == "computer":
                a["cards"], a["drawn"] = ["?"] * len(a["cards"]), ["?"] * len(a["drawn"])
    assert laws.check(record) == []
    assert laws.check(json.loads((HOSTILE / "legal_v2.json").read_text())) == []
    r = _review(str(HOSTILE / "legal_v2.json"), "--no-coach")
    assert r.exit_code == 0 and r.output.splitlines()[-1] == "keeps the laws"


@pytest.mark.quick
def test_a_fifo_given_as_file_is_refused_without_hanging(tmp_path):
    """A FIFO (or a device) named as the record is refused at once, exit 2: the reader
    opens without blocking and reads only a regular file."""
    import os
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    r = _review(str(fifo), "--no-coach")
    assert r.exit_code == 2 and "not a regular file" in r.output.splitlines()[-1]
    r = _review(str(tmp_path), "--no-coach")
    assert r.exit_code == 2


def test_the_corpus_is_made_from_a_legal_game():
    r = _review(str(HOSTILE / "legal.json"), "--no-coach")
    assert r.exit_code == 0 and r.output.splitlines()[-1] == "keeps the laws"


def test_a_forged_name_cannot_forge_a_line():
    r = _review(str(HOSTILE / "forged_name.json"), "--no-coach")
    assert r.exit_code == 1
    assert "A\\nkeeps the laws v computer" in r.output.splitlines()[0]


def test_one_wrong_vole_mark_is_one_line():
    r = _review(str(HOSTILE / "wrong_vole_mark.json"), "--no-coach")
    assert r.exit_code == 1 and len(r.output.splitlines()) == 2, r.output
    assert r.output.splitlines()[1].startswith("Law 48: deal 1:")


def test_a_file_larger_than_the_cap_is_not_read(tmp_path):
    from ecarte_sim.analysis.practice.records import MAX_RECORD_BYTES
    big = tmp_path / "big.json"
    with open(big, "w") as f:
        f.write('{"format": "ecarte-sim game record", "pad": "')
        f.write("x" * (MAX_RECORD_BYTES + 10))
        f.write('"}')
    r = _review(str(big), "--no-coach")
    assert r.exit_code == 2 and "larger than 8 MB" in r.output.splitlines()[-1]


def test_review_reads_a_game_saved_by_the_store(tmp_path):
    from ecarte_sim.apps.web.store import FORMAT
    record = json.loads((HOSTILE / "legal.json").read_text())
    path = tmp_path / "eXampleIdOfTwentyTwoCh.json"
    path.write_text(json.dumps({"format": FORMAT, "id": path.stem, "seq": 1, "created": 0,
                                "updated": 0, "over": True, "settings": {},
                                "record": record}))
    r = _review(str(path), "--no-coach")
    assert r.exit_code == 0 and "keeps the laws" in r.output


def test_known_record_holds_the_public_facts_and_the_counts():
    import numpy as np

    from ecarte_sim.engine.ecarte.records import REC, Law49, ProposalsEnd, known_record
    rec = known_record(13, ProposalsEnd.DEALER_REFUSED, Law49.NONE, [(3, 1), (1, 0)])
    r = REC.read(rec)
    assert rec.dtype == np.int64 and rec.size == REC.size
    assert (r["turn_up"], r["how_ended"], r["first"], r["exchanges"]) == (13, 1, 0, 2)
    assert [bin(int(v)).count("1") for v in r["exchange_cards"][:8]] == [3, 3, 1, 1,
                                                                         1, 1, 0, 0]
    assert not any(r["exchange_cards"][8:])
