"""Card layout, notation and the one exception type (engine/cards.py)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ecarte_sim.engine.cards import (ECARTE, PIQUET, SUIT_MASK, CardError, above_in_suit, bit_index,
                                     cards_of, check_disjoint, format_card, format_hand, lowest_bit,
                                     parse_card, parse_hand, parse_suit, popcount32)
from ecarte_sim.engine.ecarte.laws.deal import parse_deal

pytestmark = pytest.mark.quick


def test_bit_layout_is_suit_times_eight_plus_rank():
    assert parse_card("7S") == 0
    assert parse_card("KS") == 7
    assert parse_card("AS") == 4          # Écarté: ace between the knave and the ten
    assert parse_card("JS") == 5
    assert parse_card("7H") == 8
    assert parse_card("KC") == 31
    assert parse_card("AS", PIQUET) == 7  # Piquet: ace high
    assert parse_card("JS", PIQUET) == 4
    assert [int(m) for m in SUIT_MASK] == [0xFF, 0xFF00, 0xFF0000, 0xFF000000]


@pytest.mark.parametrize("deck, order", [(ECARTE, "K Q J A T 9 8 7"), (PIQUET, "A K Q J T 9 8 7")])
def test_higher_card_is_higher_bit(deck, order):
    ranks = order.split()
    for suit in "SHDC":
        bits = [parse_card(r + suit, deck) for r in ranks]
        assert bits == sorted(bits, reverse=True)


@pytest.mark.parametrize("token, expected", [
    ("KS", "KS"), ("10H", "TH"), ("TH", "TH"), ("th", "TH"), ("qh", "QH"), ("Q♥", "QH"),
    ("7♣", "7C"), ("a♦", "AD"), ("J♤", "JS"), (" 9d ", "9D"),
])
def test_parse_card_accepts_the_notations(token, expected):
    assert format_card(parse_card(token)) == expected


def test_hand_separators_and_both_formats():
    mask = parse_hand("KS, QS 10H", 3)
    assert format_hand(mask) == "KS QS TH"
    assert format_hand(mask, pretty=True) == "K♠ Q♠ 10♥"
    assert parse_hand("K♠,Q♠,10♥") == mask
    assert format_hand(parse_hand("7C KD AH 9S TC")) == "9S AH KD TC 7C"


@pytest.mark.parametrize("text, token", [
    ("KS QS XH", "XH"), ("KS QS 1H", "1H"), ("KS КS", "КS"), ("KS QS 11H", "11H"),
    ("KS KS", "KS"), ("ks KS", "KS"), ("KS QS Q", "Q"),
])
def test_bad_hands_name_the_token(text, token):
    with pytest.raises(CardError) as info:
        parse_hand(text)
    assert info.value.token == token
    assert repr(token) in str(info.value)


def test_wrong_card_count():
    with pytest.raises(CardError, match="has 4 cards, expected 5"):
        parse_hand("KS QS JS AS", 5)


@pytest.mark.parametrize("elder, dealer, trump, token", [
    ("KS QS JS AS TS", "KS 9H 8H 7H AD", "H", "KS"),           # a card in both hands
    ("KS QS JS AS TS", "KH 9H 8H 7H AD", "9H", "9H"),          # turn-up also held
    ("KS QS JS AS TS", "KH 9H 8H 7H AD", "X", "X"),            # unknown trump
    ("KS QS JS AS", "KH 9H 8H 7H AD", "H", "KS QS JS AS"),     # four cards
    ("KS QS JS AS TS", "KH 9H 8H 7H AD QD", "H", "KH 9H 8H 7H AD QD"),
])
def test_parse_deal_errors(elder, dealer, trump, token):
    with pytest.raises(CardError) as info:
        parse_deal(elder, dealer, trump)
    assert info.value.token == token


def test_parse_deal_trump_forms():
    e, d, trump, turn_up = parse_deal("QH AH 7H KS KD", "KH JH 9H 8H 9C", "TH")
    assert (trump, turn_up) == (1, parse_card("TH"))
    assert parse_deal("QH AH 7H KS KD", "KH JH 9H 8H 9C", "♥")[2:] == (1, None)
    assert parse_deal("QH AH 7H KS KD", "KH JH 9H 8H 9C", "hearts")[2:] == (1, None)
    assert parse_suit("c") == 3


@pytest.mark.parametrize("name, suit", [("spade", 0), ("Heart", 1), ("DIAMOND", 2),
                                         ("club", 3), (" hearts ", 1), ("clubs", 3)])
def test_a_suit_is_named_singular_or_plural(name, suit):
    assert parse_suit(name) == suit
    assert parse_deal("QH AH 7H KS KD", "KH JH 9H 8H 9C", name)[2:] == (suit, None)


@pytest.mark.parametrize("token", ["heartss", "hear", "harts", "spadess", "ss"])
def test_a_misspelt_suit_name_is_refused(token):
    with pytest.raises(CardError) as info:
        parse_suit(token)
    assert info.value.token == token


def test_check_disjoint_names_the_card():
    with pytest.raises(CardError, match="'QD'"):
        check_disjoint([("a", int(parse_hand("QD KS"))), ("b", int(parse_hand("QD")))])


@given(st.integers(0, 2**32 - 1))
def test_format_parse_round_trip(mask):
    for deck in (ECARTE, PIQUET):
        for pretty in (False, True):
            assert int(parse_hand(format_hand(mask, deck, pretty), deck=deck)) == mask


@given(st.text(max_size=40))
def test_parsers_raise_only_card_error(text):
    for parse in (parse_card, parse_hand, parse_suit):
        try:
            parse(text)
        except CardError:
            pass


@given(st.lists(st.sampled_from(["KS", "10H", "th", "Q♥", "7♣", "К", "\x00", ",", " ", "1",
                                 "0", "Ｑ", "♠", "AS", "ad", "XX", "\u200b"]), max_size=12),
       st.sampled_from(["S", "H", "7D", "♦", "x", "", "QS"]))
def test_deal_parser_raises_only_card_error(pieces, trump):
    text = " ".join(pieces)
    try:
        parse_deal(text, "KD 9H 8H 7H JC", trump)
    except CardError:
        pass


@given(st.integers(0, 2**32 - 1))
def test_bit_helpers_match_python(mask):
    m = np.uint32(mask)
    assert popcount32(m) == bin(mask).count("1")
    if mask:
        low = mask & -mask
        assert int(lowest_bit(m)) == low
        assert bit_index(np.uint32(low)) == low.bit_length() - 1


def test_above_in_suit():
    for card in range(32):
        expected = sum(1 << c for c in range(card + 1, (card // 8 + 1) * 8))
        assert int(above_in_suit(card)) == expected
    assert cards_of(parse_hand("7C KS")) == [parse_card("KS"), parse_card("7C")]


@pytest.mark.parametrize("value, mask", [
    ("KS 8D", (1 << 7) | (1 << 17)), ("ks, 8d", (1 << 7) | (1 << 17)), ("-", 0), ("", 0),
    (None, 0), ("KS - 8D", (1 << 7) | (1 << 17)), (["KS", 17], (1 << 7) | (1 << 17)),
    (np.uint32(5), 5), ((1 << 32) - 1, (1 << 32) - 1)])
def test_card_set_reads_text_masks_and_sequences(value, mask):
    from ecarte_sim.engine.deck import card_set
    assert card_set(value, "hand") == mask


@pytest.mark.parametrize("value, token, words", [
    ("KS KS", "KS", "duplicate card 'KS' in the discard"), ([1, 1], "8S", "duplicate"),
    ("KS QX", "QX", "unknown card"), ([40], "40", "card of the discard 40"),
    ([True], "True", "unknown card"), (1 << 32, str(1 << 32), "not a set of cards"),
    (-1, "-1", "not a set of cards")])
def test_card_set_names_the_bad_token(value, token, words):
    from ecarte_sim.engine.deck import card_set
    with pytest.raises(CardError, match=words) as e:
        card_set(value, "discard")
    assert e.value.token == token


def test_card_list_keeps_the_order_and_checks_indices():
    from ecarte_sim.engine.deck import card_list, card_of
    assert card_list("KS 8D 7S", "played") == [7, 17, 0]
    assert card_list([17, "KS"], "played") == [17, 7] and card_list(None, "played") == []
    assert card_of("QH", "turn-up") == 14 and card_of(np.int64(3), "turn-up") == 3
    with pytest.raises(CardError, match="card played 32 is not a card index"):
        card_list([32], "played")
