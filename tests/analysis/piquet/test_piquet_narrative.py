"""The prose of ``ecarte-sim piquet deal`` (analysis/piquet/narrative.py): every event told
once, every score with its law and its points, the totals as the JSON has them, over deals
that between them hold every kind of score (carte blanche of either hand, point, sequences,
quatorzes and trios good, not good and equal, repique, pique at each moment, the play, the
last trick, the cards won, divided and capot) and both variants of the rules."""

from __future__ import annotations

import re

import pytest

from ecarte_sim.api.piquet import piquet_deal
from ecarte_sim.analysis.piquet.narrative import KINDS, scores_by_kind, tell_deal, told
from ecarte_sim.engine.piquet.deal import parse_deal
from ecarte_sim.engine.piquet.settings import PiquetSettings

#: Deals of seed 1 found by scanning indices: name -> (index, player, settings, what it
#: must hold). The features are checked, so that an engine change that loses one fails
#: here instead of leaving a kind of score untested.
LAW67 = {"pique_timing": "law67", "elder_take": 3, "younger_take": 2}
CASES = {
    "pique in hand": (285, "heuristic", {}, {"pique hand", "good multi sequence"}),
    "pique with the lead": (16, "heuristic", {}, {"pique lead", "good quatorze and more"}),
    "pique with the last trick, capot": (8447, "heuristic", {},
                                         {"pique last_trick", "capot elder", "equal point"}),
    "pique with a trick won second, ten_up": (8799, "random", {"lead_scoring": "ten_up"},
                                              {"pique trick", "lead scoring nothing"}),
    "carte blanche and repique by sequences, elder": (
        659, "heuristic", {}, {"carte blanche elder", "repique elder sequences"}),
    "repique by quatorzes, elder": (30, "heuristic", {}, {"repique elder sets"}),
    "repique by sequences, younger": (1570, "heuristic", {}, {"repique younger sequences"}),
    "repique by quatorzes, younger": (13, "heuristic", {}, {"repique younger sets"}),
    "carte blanche, younger": (5468, "heuristic", {}, {"carte blanche younger"}),
    "capot, elder": (24, "heuristic", {}, {"capot elder"}),
    "capot, younger": (40, "heuristic", {}, {"capot younger"}),
    "equal sequences": (8, "heuristic", {}, {"equal sequence", "bad multi set"}),
    "equal point, the cards divided": (6, "heuristic", {}, {"equal point", "divided"}),
    "law67, short exchange, repique": (83, "heuristic", LAW67,
                                       {"repique elder sets", "cards left"}),
    "law67, pique with the lead": (26, "heuristic", LAW67, {"pique lead", "cards left"}),
}

#: A given deal: the elder is dealt carte blanche (no king, queen or knave, Law 18) and the
#: younger every court card (quatorzes of kings, queens and knaves).
BLANK = {"elder": "AS TS 9S 8S 7S AH TH 9H 8H 7H AD TD",
         "younger": "KS QS JS KH QH JH KD QD JD KC QC JC",
         "talon": "9D 8D 7D AC TC 9C 8C 7C"}

PLAY_EVENTS = ("lead", "reply", "trick")


def _deal(name: str) -> dict:
    index, player, opts, _ = CASES[name]
    return piquet_deal(seed=1, index=index, settings=PiquetSettings(player, player, **opts))


def _features(events: list[dict]) -> set[str]:
    """What a deal holds, named as in CASES."""
    out = set()
    for ev in events:
        kind, who = ev["event"], ev["player"]
        if kind == "carte_blanche":
            out.add(f"carte blanche {who}")
        elif kind == "pique":
            out.add(f"pique {ev['at']}")
        elif kind == "repique":
            out.add(f"repique {who} {ev['category']}")
        elif kind == "capot":
            out.add(f"capot {who}")
        elif kind == "cards" and ev["divided"]:
            out.add("divided")
        elif kind == "declare" and ev["equal"]:
            out.add(f"equal {ev['kind']}")
        elif kind == "take_in" and who == "younger" and ev["left"]:
            out.add("cards left")
        elif kind == "lead" and not ev["score"]:
            out.add("lead scoring nothing")
    for who in ("elder", "younger"):
        calls = [ev for ev in events if ev["event"] == "declare" and ev["player"] == who]
        runs = [ev for ev in calls if ev["kind"] == "sequence"]
        sets = [ev for ev in calls if ev["kind"] in ("quatorze", "trio")]
        if len(runs) > 1 and runs[0]["good"]:
            out.add("good multi sequence")
        if len(sets) > 1 and sets[0]["good"] and sets[0]["kind"] == "quatorze":
            out.add("good quatorze and more")
        if len(sets) > 1 and not sets[0]["good"]:
            out.add("bad multi set")
    return out


def _blank(**opts) -> dict:
    return piquet_deal(parse_deal(BLANK["elder"], BLANK["younger"], BLANK["talon"]),
                       settings=PiquetSettings("heuristic", "heuristic", **opts))


def _laws_cited(line: str) -> set[int]:
    laws = set()
    for group in re.findall(r"Laws? (\d+(?:, \d+)*)", line):
        laws |= {int(n) for n in group.split(", ")}
    return laws


def _check(result: dict) -> list[tuple[str, list[dict]]]:
    """Every event told exactly once; each score on a line that names its law and its
    points (the play's points under the line that gives Law 65); no key=value left."""
    pairs = told(result)
    told_ids = [id(ev) for _, evs in pairs for ev in evs if ev is not None]
    assert sorted(told_ids) == sorted(id(ev) for ev in result["events"])
    header = next((k for k, (text, _) in enumerate(pairs) if text.startswith("The play")),
                  None)
    assert header is not None and 65 in _laws_cited(pairs[header][0])
    for k, (text, evs) in enumerate(pairs):
        assert not re.search(r"\w=\S|None|True|False|_", text), text   # no key=value log
        for ev in evs:
            if not ev["score"]:
                continue
            if ev["event"] in PLAY_EVENTS:
                assert k > header, text
                assert f"({ev['score']})" in text, (ev, text)
                continue
            assert ev["law"] in _laws_cited(text), (ev, text)
            assert re.search(rf"\b{ev['score']}\b", text), (ev, text)
    return pairs


def _totals(result: dict, lines: list[str]) -> None:
    parts = scores_by_kind(result["events"])
    for who in ("elder", "younger"):
        assert sum(parts[who].values()) == result[who]
        line = next(t for t in lines if t.startswith(f"{who.capitalize()} scores "))
        assert line.startswith(f"{who.capitalize()} scores {result[who]}")
        for kind in KINDS:
            if parts[who][kind]:
                assert f"{kind} {parts[who][kind]}" in line, line
    e, y = result["elder"], result["younger"]
    last = lines[-1]
    assert (f"{max(e, y)} to {min(e, y)}" in last) if e != y else (f"{e} all" in last)


# --------------------------------------------------------------------------- every kind of score

def test_the_cases_cover_every_kind_of_score():
    seen = set()
    for name, (_, _, _, wanted) in CASES.items():
        have = _features(_deal(name)["events"])
        assert wanted <= have, (name, wanted - have)
        seen |= have
    seen |= _features(_blank()["events"])
    for who in ("elder", "younger"):
        assert {f"carte blanche {who}", f"capot {who}"} <= seen
        assert {f"repique {who} sets", f"repique {who} sequences"} <= seen
    assert {"pique hand", "pique lead", "pique trick", "pique last_trick", "equal point",
            "equal sequence", "divided", "cards left"} <= seen


@pytest.mark.parametrize("name", list(CASES))
def test_every_score_is_told_with_its_law(name):
    result = _deal(name)
    pairs = _check(result)
    _totals(result, [text for text, _ in pairs])


def test_a_given_deal_with_carte_blanche():
    result = _blank()
    pairs = _check(result)
    lines = [text for text, _ in pairs]
    _totals(result, lines)
    assert lines[0].startswith("A deal given card by card")
    blank = next(t for t in lines if "carte blanche" in t)
    assert blank.startswith("Elder holds carte blanche") and {18, 61} <= _laws_cited(blank)
    assert any(t.startswith("Younger's quatorze of") for t in lines)


# --------------------------------------------------------------------------- the words

def _text(name: str) -> str:
    return "\n".join(tell_deal(_deal(name)))


@pytest.mark.quick
def test_the_words_of_each_kind_of_score():
    assert "neither scores any sequence (Law 63)" in _text("equal sequences")
    text = _text("equal point, the cards divided")
    assert "neither scores the point (Law 62)" in text
    assert "The cards are divided, six tricks each: neither scores them (Law 66)" in text
    text = _text("pique with the last trick, capot")
    assert "Elder reaches 30 with the last trick, before younger has reckoned anything: " \
           "pique, he scores 30 more (Law 69)" in text
    assert "Elder takes all twelve tricks: capot, he scores 40 (Law 66)" in text
    assert "Elder has 30 in hand, before younger has reckoned anything: pique" \
        in _text("pique in hand")
    assert "reaches 30 with that lead" in _text("pique with the lead")
    text = _text("pique with a trick won second, ten_up")
    assert "the older count" in text and "reaches 30 with that trick" in text
    text = _text("repique by quatorzes, younger")
    assert ("younger reaches 30 in hand with his quatorzes and trios before elder scores "
            "anything: repique, he scores 60 more (Law 68)") in text
    assert "with his sequences" in _text("repique by sequences, younger")
    text = _text("pique in hand")
    assert re.search(r"is good; he also counts his [a-zé]+ .*: 15 \+ 15 = 30 \(Law 63\)", text)
    assert "Younger wins the last trick: 1 more (Law 65)" in _text("capot, younger")
    assert "he scores 10 (Law 66)" in _text("repique by quatorzes, elder")


def test_the_order_of_the_deal():
    lines = tell_deal(_deal("pique with the lead"))
    first = next(k for k, t in enumerate(lines) if t.startswith("Trick 1: "))
    # the younger declares after the elder's first lead (rules.md, pique_timing "lead")
    assert lines[first + 1] == "Before he plays to it, younger declares."
    assert lines[first + 2].startswith("Younger's point: ")
    assert any(t.startswith("Trick 1, continued: ") for t in lines)
    lines = tell_deal(_deal("law67, pique with the lead"))
    play = next(k for k, t in enumerate(lines) if t.startswith("The play"))
    assert any(t.startswith("Younger's point: ") for t in lines[:play])
    text = "\n".join(lines)
    assert "he leaves two of his five" in text and "three cards stay in the stock, unseen" in text
    tricks = [re.match(r"Trick (\d+)", t).group(1) for t in lines if t.startswith("Trick ")]
    assert list(dict.fromkeys(tricks)) == [str(k) for k in range(1, 13)]
    # a pique made by a lead is told between the lead and the rest of its trick
    pique = next(k for k, t in enumerate(lines) if "pique, he scores 30" in t)
    number = re.match(r"Trick (\d+): elder leads \S+ \(1\)\.$", lines[pique - 1]).group(1)
    assert "with that lead" in lines[pique]
    assert lines[pique + 1].startswith(f"Trick {number}, continued: ")


@pytest.mark.quick
def test_pretty_cards():
    text = "\n".join(tell_deal(_deal("equal sequences"), pretty=True))
    assert "10♠" in text and "A♠" in text and "TS" not in text
