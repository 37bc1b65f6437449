"""The value types a command or a page reads, parsed once: the score before a deal
(:mod:`ecarte_sim.engine.ecarte.laws.score`) and what happened before a decision
(:mod:`ecarte_sim.engine.ecarte.laws.history`)."""

from __future__ import annotations

import numpy as np
import pytest

from ecarte_sim.engine.deck import CardError, card_set, parse_card
from ecarte_sim.engine.ecarte.laws.history import (STOCK, History, check_exchanges,
                                                   discards_text, parse_discards, parse_said)
from ecarte_sim.engine.ecarte.laws.score import SCORES, TARGET, Score, score_row

pytestmark = pytest.mark.quick


# --------------------------------------------------------------------------- the score

@pytest.mark.parametrize("text, pair", [("0-0", (0, 0)), (" 3-4 ", (3, 4)), ("4:2", (4, 2)),
                                        ("2 - 1", (2, 1))])
def test_a_score_is_read_from_its_text(text, pair):
    s = Score.parse(text)
    assert s == pair and s.pair == pair and type(s.pair) is tuple
    assert Score.of(text) == Score.of(pair) == Score.of(list(pair)) == Score.of(s) == s
    assert s.text == f"{pair[0]}-{pair[1]}" and Score.parse(s.text) == s


@pytest.mark.parametrize("bad", ["5-0", "0-5", "3", "3-4-1", "a-b", "-1-2", "", "3.0-4"])
def test_a_bad_score_is_named(bad):
    with pytest.raises(ValueError, match=f"bad score {bad!r}: write E-D"):
        Score.parse(bad)


@pytest.mark.parametrize("bad", [(5, 0), (True, 1), (1.0, 2), (1,), "9-9", None, (0, -1)])
def test_a_bad_pair_is_named(bad):
    with pytest.raises(ValueError, match="bad score"):
        Score.of(bad)


def test_numpy_integers_are_scores():
    assert Score.of((np.int64(2), np.int32(3))).pair == (2, 3)


def test_the_row_is_the_kernels_row_of_every_score():
    from ecarte_sim.engine.ecarte.decisions.policies import score_slot
    assert [Score(*s).row for s in SCORES] == list(range(TARGET * TARGET))
    for s in SCORES:
        assert Score(*s).row == score_row(*s) == int(score_slot(*s))
        assert Score.from_row(Score(*s).row) == s
    with pytest.raises(ValueError):
        Score.from_row(25)


# --------------------------------------------------------------------------- the history

@pytest.mark.parametrize("said, words", [
    ("propose,refuse", ["propose", "refuse"]),
    ("PROPOSE accept, play", ["propose", "accept", "play"]),
    (["propose", "accept", "propose", "refuse"], ["propose", "accept", "propose", "refuse"]),
    ("", []), (None, []),
])
def test_what_was_said_is_read_in_order(said, words):
    assert parse_said(said) == words


@pytest.mark.parametrize("said, token, law", [
    ("refuse", "'refuse'", "the elder speaks here"),
    ("play,accept", "'accept'", "after play"),
    ("propose,propose", "'propose'", "the dealer answers"),
    ("propose,refuse,play", "'play'", "after a refusal"),
    ("propose,accept,accept", "'accept'", "the elder speaks here"),
])
def test_a_word_out_of_order_is_named(said, token, law):
    with pytest.raises(ValueError, match=law) as err:
        parse_said(said)
    assert token in str(err.value)


def test_the_discards_are_read_and_written_back():
    groups = parse_discards("7S 8D:2; -:3;")
    assert groups == [(card_set("7S 8D", "x"), 2), (0, 3)]
    assert discards_text(groups) == "7S 8D:2; -:3"
    assert parse_discards([("9C", 1)]) == [(card_set("9C", "x"), 1)]
    assert parse_discards(None) == [] and parse_discards("") == []


@pytest.mark.parametrize("bad, message", [
    ("7S 8D", "bad discard group '7S 8D': write MY CARDS:N"),
    ("7S:x", "bad discard group '7S:x'"),
    ("7S:6", "bad discard count 6"),
    ("ZZ:1", "ZZ"),
])
def test_a_bad_discard_group_is_named(bad, message):
    with pytest.raises(ValueError, match=message):
        parse_discards(bad)


@pytest.mark.parametrize("groups, mover, kwargs, message", [
    ("-:2", 0, {}, "exchange 1: the elder throws at least one card"),
    ("7S:1; -:0", 1, {}, "exchange 2: the elder throws at least one card"),
    ("7S 8S 9S TS JS:5; 7H 8H 9H TH JH:5; 7D 8D 9D:3", 0, {},
     "exchange 3: 6 cards drawn with 1 left in the stock"),
    ("7S:1; 7S:1", 0, {}, "card '7S' thrown twice"),
    ("7S:1", 0, {"held": card_set("7S KH", "x")}, "card '7S' is both thrown and held"),
    ("7S:1", 0, {"turn_up": parse_card("7S")}, "the turn-up '7S' was thrown"),
])
def test_exchanges_against_the_laws(groups, mover, kwargs, message):
    with pytest.raises(ValueError, match=message):
        check_exchanges(parse_discards(groups), mover, **kwargs)


def test_the_stock_left_after_the_exchanges():
    thrown, left = check_exchanges(parse_discards("7S 8D:2; 9C:1"), 0)
    assert thrown == card_set("7S 8D 9C", "x") and left == STOCK - 6 == 15


def test_a_history_holds_the_three_parts():
    h = History.parse("propose, accept, play", "7S 8D:2", "KS 8S QD")
    assert h.said == ("propose", "accept", "play") and h.accepted == 1
    assert h.said_text == "propose,accept,play" and h.discards_text == "7S 8D:2"
    assert h.played_text == "KS 8S QD"
    assert History.parse() == History()
    with pytest.raises(CardError):
        History.parse("play", "", "KS XX")
