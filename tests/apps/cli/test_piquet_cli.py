"""``ecarte-sim piquet deal|simulate|partie|report``: JSON contracts and bad input."""

from __future__ import annotations

import pytest

from ecarte_sim.engine.cards import PIQUET, format_hand
from ecarte_sim.engine.piquet.deal import deal
from ecarte_sim.engine.piquet.simulate import deal_counts
from ecarte_sim.engine.piquet.records import DEAL_COUNTS
from ecarte_sim.engine.piquet.settings import PiquetSettings
from helpers import json_only, names, one_line_error

D = deal(0, 3)
ELDER, YOUNGER = format_hand(D.elder, PIQUET), format_hand(D.younger, PIQUET)
TALON = " ".join(format_hand(1 << c, PIQUET) for c in D.stock)
CARDS = ["--elder", ELDER, "--younger", YOUNGER, "--talon", TALON]


@pytest.mark.quick
@pytest.mark.parametrize("args", [["piquet", "--help"], ["piquet", "deal", "--help"],
                                  ["piquet", "simulate", "--help"],
                                  ["piquet", "partie", "--help"], ["piquet", "report", "--help"]])
def test_help(cli, args):
    r = cli(*args)
    assert r.code == 0 and r.out.startswith("Usage: ecarte-sim piquet")


@pytest.mark.quick
@pytest.mark.parametrize("player", ["random", "heuristic", "dd", "pimc"])
def test_deal_json_contract(cli, player):
    obj = json_only(cli("piquet", "deal", *CARDS, "--play", player, "--worlds", "4",
                        "--json"))
    assert set(obj) >= {"elder", "younger", "events"}
    assert obj["elder"] == obj["scores"]["elder"]["total"]
    assert obj["younger"] == obj["scores"]["younger"]["total"]
    last = obj["events"][-1]
    assert (last["elder_total"], last["younger_total"]) == (obj["elder"], obj["younger"])
    plays = [e for e in obj["events"] if e["event"] in ("lead", "reply")]
    assert len(plays) == 24


def test_deal_with_given_discards_and_from_the_seed(cli):
    e_disc = format_hand(sum(1 << c for c in list(_cards(D.elder))[:3]), PIQUET)
    y_disc = format_hand(sum(1 << c for c in list(_cards(D.younger))[:5]), PIQUET)
    obj = json_only(cli("piquet", "deal", *CARDS, "--elder-discard", e_disc,
                        "--younger-discard", y_disc, "--json"))
    discards = [e for e in obj["events"] if e["event"] == "discard"]
    assert [len(e["cards"].split()) for e in discards] == [3, 5]
    same = json_only(cli("piquet", "deal", "--seed", "0", "--index", "3", "--json"))
    again = json_only(cli("piquet", "deal", *CARDS, "--json"))
    assert (same["elder"], same["younger"]) == (again["elder"], again["younger"])
    text = cli("piquet", "deal", *CARDS)
    assert text.code == 0 and f"\nElder scores {again['elder']}" in text.out
    assert f"\nYounger scores {again['younger']}" in text.out


#: The keys of ``piquet deal --json`` and of each kind of event (scripts read them: a new
#: key may be added, none may go).
DEAL_KEYS = {"deal", "elder", "events", "index", "play", "scores", "seed", "settings",
             "younger"}
EVENT_KEYS = {
    "carte_blanche": {"cards"}, "discard": {"cards", "count"},
    "take_in": {"cards", "count", "left"},
    "declare": {"kind", "cards", "good", "equal"}, "repique": {"category"},
    "pique": {"at", "trick"}, "lead": {"cards", "trick"}, "reply": {"cards", "trick"},
    "trick": {"number", "winner", "cards"}, "last_trick": {"number"},
    "cards": {"tricks", "divided"}, "capot": {"tricks"},
}
COMMON_KEYS = {"event", "player", "score", "law", "elder_total", "younger_total"}


@pytest.mark.parametrize("args", [["--seed", "3", "--index", "8"],
                                  ["--seed", "1", "--index", "659"],   # carte blanche, repique
                                  ["--seed", "1", "--index", "8447"],  # pique, capot
                                  CARDS])
def test_deal_json_keys_are_kept(cli, args):
    obj = json_only(cli("piquet", "deal", *args, "--json"))
    assert set(obj) >= DEAL_KEYS - ({"index"} if args is CARDS else set())
    for key in ("elder", "younger", "stock"):
        assert isinstance(obj["deal"][key], str)
    for ev in obj["events"]:
        assert set(ev) >= COMMON_KEYS | EVENT_KEYS[ev["event"]], ev
        if ev["event"] == "declare":
            extra = {"point": {"length", "pips"}, "sequence": {"name", "length", "top"},
                     "quatorze": {"rank"}, "trio": {"rank"}}[ev["kind"]]
            assert set(ev) >= extra, ev


def test_deal_text_is_prose_with_the_laws(cli):
    r = cli("piquet", "deal", "--seed", "3", "--index", "8")
    assert r.code == 0 and r.err == ""
    lines = r.out.splitlines()
    assert lines[0] == "Deal 8 of seed 3, both hands played by the heuristic player."
    assert "=" not in r.out.replace(" = ", "")           # no key=value log any more
    for law in (21, 22, 23, 62, 63, 64, 65, 66):
        assert f"(Law {law})" in r.out, law
    assert lines[-1].endswith(".") and " wins the deal, " in lines[-1]
    pretty = cli("piquet", "deal", "--seed", "3", "--index", "8", "--pretty")
    assert "10♠" in pretty.out and "TS" not in pretty.out


def test_help_names_what_a_task_counts_and_when_provenance_is_written(cli):
    def flat(*args):
        r = cli(*args, "--help")
        assert r.code == 0
        return " ".join(r.out.split())
    partie = flat("piquet", "partie")
    assert "--task-size INTEGER RANGE Parties per task" in partie
    assert "parties; 2^" in partie and "Deals per task" not in partie
    assert "Deals per task" in flat("piquet", "simulate")
    report = flat("piquet", "report")
    assert "and provenance.json here. Without --out no file is written" in report
    assert report.count("provenance.json") == 2      # the --out option, the docstring's --out


def _cards(mask):
    return [c for c in range(32) if mask >> c & 1]


@pytest.mark.quick
@pytest.mark.parametrize("args, token", [
    (["--elder", "AS KS", "--younger", YOUNGER, "--talon", TALON], "AS KS"),
    (["--elder", ELDER.replace(ELDER.split()[0], "XS"), "--younger", YOUNGER,
      "--talon", TALON], "XS"),
    (["--elder", ELDER, "--younger", YOUNGER.replace(YOUNGER.split()[0], ELDER.split()[0]),
      "--talon", TALON], ELDER.split()[0]),
    (["--elder", ELDER.replace(ELDER.split()[0], "К" + ELDER.split()[0][1]),
      "--younger", YOUNGER, "--talon", TALON], "К" + ELDER.split()[0][1]),
    (["--elder", ELDER, "--younger", YOUNGER], None),
    ([*CARDS, "--elder-discard", YOUNGER.split()[0]], YOUNGER.split()[0]),
    ([*CARDS, "--elder-discard", " ".join(ELDER.split()[:6])], None),
    ([*CARDS, "--elder-discard", ""], None),
    ([*CARDS, "--younger-discard", " ".join(YOUNGER.split()[:6])], None),   # elder takes 5
    ([*CARDS, "--play", "oracle"], "oracle"),
    ([*CARDS, "--worlds", "0"], None),
    ([*CARDS, "--worlds", "257"], None),          # the world words must stay in the deal's stream
])
def test_deal_bad_input(cli, args, token):
    line = one_line_error(cli("piquet", "deal", *args))
    if token is not None:
        assert names(line, token), line


def test_simulate_json_contract_matches_the_kernel(cli):
    obj = json_only(cli("piquet", "simulate", "--deals", "3000", "--seed", "7",
                        "--elder-player", "heuristic", "--younger-player", "random", "--json"))
    for key in ("deals", "elder_wins", "younger_wins", "ties", "mean_elder", "mean_younger",
                "carte_blanche_hands", "pique", "repique", "capot"):
        assert key in obj
    assert obj["deals"] == 3000 == obj["elder_wins"] + obj["younger_wins"] + obj["ties"]
    counts = DEAL_COUNTS.read(deal_counts(7, 0, 3000, PiquetSettings("heuristic", "random").cfg()))
    assert obj["elder_wins"] == counts["elder_wins"]
    assert obj["mean_elder"] == counts["elder_total"] / 3000
    lo, hi = obj["intervals"]["elder_win_rate"]["ci95"]
    assert 0.8 < lo < hi < 0.95            # heuristic elder v random younger (~0.876)


def test_partie_json_contract(cli):
    obj = json_only(cli("piquet", "partie", "--parties", "500", "--seed", "2",
                        "--player-a", "heuristic", "--player-b", "random", "--json"))
    assert obj["parties"] == 500
    assert obj["first_dealer_wins"] + obj["first_elder_wins"] + obj["drawn"] == 500
    assert obj["first_dealer_wins"] > obj["first_elder_wins"]   # heuristic beats random
    four = json_only(cli("piquet", "partie", "--parties", "200", "--partie", "four",
                         "--json"))
    assert four["partie"] == "four" and four["parties"] == 200


@pytest.mark.parametrize("args", [
    ["piquet", "simulate", "--deals", "0"],
    ["piquet", "simulate", "--deals", "10", "--seed", "-1"],
    ["piquet", "simulate", "--deals", "10", "--elder-take", "6"],
    ["piquet", "simulate", "--deals", "10", "--pique-timing", "never"],
    ["piquet", "partie", "--parties", "99999999999999999999"],
    ["piquet", "report", "--deals", "10"],
])
def test_counts_and_choices_out_of_range(cli, args):
    one_line_error(cli(*args))


def test_report_writes_its_files(cli, tmp_path):
    out = tmp_path / "piquet"
    r = cli("piquet", "report", "--deals", "2000", "--dd-deals", "64",
            "--pimc-deals", "0", "--paired-deals", "2000", "--parties", "200",
            "--search-deals", "0", "--out", str(out), "--quiet")
    assert r.code == 0, r.err
    names_ = sorted(p.name for p in out.iterdir())
    # the heuristic's sinking runs at --paired-deals; the search (--search-deals 0) did not
    assert names_ == ["exchange.csv", "exchange.png", "pairings.csv", "partie.csv",
                      "piquet.md", "provenance.json", "sinking.csv", "totals.png"]
    md = (out / "piquet.md").read_text()
    assert "seed 0" in md and "| dd | dd | 64 |" in md and "peer" in md
    assert "{'" not in md  # n in words, not a Python repr
    # stdout says what was found, as claims does: headline figures with n, then the files
    assert "the elder's advantage per deal" in r.out and "n=2,000" in r.out
    assert "  dd        elder wins " in r.out and "n=64" in r.out
    assert r.out.rstrip().endswith(f"wrote {out / 'exchange.png'}")


def test_report_without_out_writes_no_file_and_says_so(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("piquet", "report", "--deals", "1000", "--dd-deals", "0", "--pimc-deals",
            "0", "--paired-deals", "1000", "--parties", "100", "--search-deals", "0",
            "--quiet")
    assert r.code == 0, r.err
    made_by = next(line for line in r.out.splitlines() if line.startswith("Made by "))
    assert made_by.endswith("; provenance with --json, or in provenance.json with --out.")
    assert list(tmp_path.iterdir()) == []
