"""Jeux de règle (seed 002): the kernel and the reference against a hand-written table."""

from itertools import combinations

import numpy as np
import pytest

from ecarte_sim.engine.cards import CardError, parse_hand, parse_suit
from ecarte_sim.engine.ecarte import reference
from ecarte_sim.engine.ecarte.decisions.regle import RULES, classify, rule_of
from ecarte_sim.engine.ecarte.decisions.regle_kernel import regle_rule

# (hand, trump, expected rule or None, why) — every rule of the list and the near
# misses around each, worked out by hand from the text.
TABLE = [
    # "With three trumps, play without proposing."
    ("KH 9H 7H AS 8D", "H", "three-trumps", "three trumps"),
    ("9H 8H 7H 7S 7D", "H", "three-trumps", "three low trumps"),
    ("KH QH JH AH TH", "H", "three-trumps", "five trumps: at least three"),
    ("KH QH 9H 7H 7S", "H", "three-trumps", "four trumps"),
    ("QH AH 7H KS KD", "H", "three-trumps", "the 'four times out of five' hand: 'of course, "
                                            "plays without proposing'"),
    ("KS 9S 7S AH 8D", "S", "three-trumps", "spades trumps"),
    # "Likewise with two trumps, if the other cards belong to one suit,"
    ("9H 7H 7S 8S 9S", "H", "two-trumps-one-suit", "three low spades"),
    ("KH 7H AC TC 7C", "H", "two-trumps-one-suit", "three clubs"),
    ("QD JD KS QS AS", "D", "two-trumps-one-suit", "seed 002: 'Y elects to play' (9♦ turned)"),
    ("9H 7H 7S 8S 9D", "H", None, "two suits, no king or queen"),
    ("9H 8H 7S 9D 8C", "H", None, "three suits, no court pair"),
    # "or with two cards of one suit, one of which is the king or queen."
    ("9H 7H KS 8S 9D", "H", "two-trumps-court-pair", "king with a small card"),
    ("AH 8H QD 7D 7C", "H", "two-trumps-court-pair", "queen with a small card"),
    ("9H 7H KS QS 9D", "H", "two-trumps-court-pair", "king-queen"),
    ("9H 8H QS JS 8C", "H", "two-trumps-court-pair", "queen-knave"),
    ("9D 7D KS 8S 9C", "D", "two-trumps-court-pair", "diamonds trumps"),
    ("9H 7H JS 8S 9D", "H", None, "the pair's high card is a knave"),
    ("9H 7H KS QD 9C", "H", None, "king and queen in different suits: no pair"),
    ("9H 7H AS 8S KD", "H", None, "the pair has no king or queen; the king is single"),
    ("9H 8H QS 7D 8C", "H", None, "a single queen is no pair"),
    ("QD TD TC 8C 8H", "D", None, "seed 002: Y plays this hand (J♦ turned) though the list "
                                  "does not make it a jeu de règle"),
    # "Play if holding only one trump, provided the other cards are four of one suit,
    # one being a king,"
    ("7H KS 9S 8S 7S", "H", "one-trump-four-king", "four spades with the king"),
    ("AH KC AC TC 9C", "H", "one-trump-four-king", "four clubs with the king"),
    ("7C KS 9S 8S 7S", "C", "one-trump-four-king", "clubs trumps"),
    ("7H KS QS JS AS", "H", "one-trump-four-king", "four with king and queen: rule 4 first"),
    ("7H QS 9S 8S 7S", "H", None, "four of a suit with the queen but no king"),
    ("7H KS 9S 8S 7D", "H", None, "three of a suit with the king, the fifth a seven"),
    # "or three cards of one suit, one being a king or queen, and the fifth card being
    # a king or queen."
    ("7H KS 9S 8S QD", "H", "one-trump-three-court", "K x x and a queen"),
    ("7H QS 9S 8S KD", "H", "one-trump-three-court", "Q x x and a king"),
    ("TH QC JC 7C QS", "H", "one-trump-three-court", "Q J x and a queen"),
    ("7H KS QS JS KD", "H", "one-trump-three-court", "K Q J and a king"),
    ("JD KS QS 7S KC", "D", "one-trump-three-court", "diamonds trumps"),
    ("7H JS 9S 8S KD", "H", None, "three of a suit without king or queen"),
    ("7H KS 9S 8D QC", "H", None, "only two of a suit"),
    ("KS QS JS 8H 8D", "H", None, "seed 002's first example (K Q J of spades, 8♥ trump, "
                                  "8♦): its fifth card is no king or queen, so the list "
                                  "itself does not cover it"),
    ("QS JS AH 7C JD", "D", None, "seed 002: A proposes with this hand"),
    ("QC QD QH 8H 8S", "S", None, "seed 002's lead example: three queens, but one trump"),
    ("QS TS JH TH TD", "D", None, "seed 002's second lead example"),
    # "Play with no trump if three queens are held,"
    ("QS QD QC 7S 8D", "H", "no-trump-three-queens", "three queens"),
    ("QS QD QC KS JD", "H", "no-trump-three-queens", "three queens and five courts: rule 6"),
    ("QH QD QC 9H 8D", "S", "no-trump-three-queens", "spades trumps"),
    ("QS QD 7C 7S 8D", "H", None, "two queens"),
    ("QS QD QH 7S 8D", "H", None, "three queens, one of them a trump"),
    # "or four court cards."
    ("KS QD JC JS 7D", "H", "no-trump-four-courts", "K Q J J"),
    ("KS KD KC JS 7D", "H", "no-trump-four-courts", "three kings and a knave"),
    ("KH JH TH QD JS", "C", "no-trump-four-courts", "seed 002's 'put to a card' hand "
                                                    "(9♣ turned), which A proposes"),
    ("KS QD JC AS 7D", "H", None, "the ace is not a court card"),
    ("KS QD JH 9S 7D", "C", None, "three court cards"),
    ("KS QD JC JH 7D", "H", None, "four courts, but the knave of hearts is a trump"),
]


@pytest.mark.quick
@pytest.mark.parametrize("hand, trump, expected, why", TABLE)
def test_table(hand, trump, expected, why):
    mask, suit = int(parse_hand(hand, 5)), parse_suit(trump)
    assert classify(mask, suit) == expected, why
    assert reference.jeu_de_regle(mask, suit) == expected, why


def test_table_covers_every_rule_and_near_misses():
    found = {rule for _, _, rule, _ in TABLE}
    assert found == set(RULES) | {None}
    assert len(TABLE) >= 40
    assert sum(rule is None for _, _, rule, _ in TABLE) >= 15


def test_kernel_equals_reference_on_every_hand():
    """All C(32,5) = 201,376 hands with hearts trumps, and a sample for the other suits."""
    rng = np.random.default_rng(0)
    for hand in combinations(range(32), 5):
        mask = sum(1 << c for c in hand)
        rule = int(regle_rule(np.uint32(mask), 1))
        assert (RULES[rule - 1] if rule else None) == reference.jeu_de_regle(mask, 1), hand
    for trump in (0, 2, 3):
        for _ in range(5000):
            mask = sum(1 << int(c) for c in rng.choice(32, 5, replace=False))
            assert classify(mask, trump) == reference.jeu_de_regle(mask, trump)


def test_numpy_reading_equals_the_kernel_on_every_hand_and_trump():
    """:func:`rules_met` (numpy, what ``classify`` and the explanations read) names the
    same first rule as the kernel on all 201,376 hands for each trump suit, and
    ``all_hands`` is every hand once."""
    from ecarte_sim.engine.ecarte.decisions.regle import all_hands, rules_met
    hands = all_hands()
    assert hands.size == 201_376 and np.unique(hands).size == hands.size
    assert all(bin(int(h)).count("1") == 5 for h in hands[::997])
    for trump in range(4):
        met = rules_met(hands, trump)
        first = np.where(met.any(axis=0), met.argmax(axis=0) + 1, 0)
        kernel = np.array([regle_rule(h, trump) for h in hands])
        assert np.array_equal(first, kernel), trump
        for i in range(0, hands.size, 4099):
            assert rule_of(int(hands[i]), trump) == kernel[i]


def test_rule_counts_match_exact_combinatorics():
    """Over all C(31,5) = 169,911 elder hands given a turn-up (7♠: seven trumps left),
    rules 1, 2 and 4 have closed-form counts (NOTES: 9,660 + 840 + 21 hands hold three
    or more trumps)."""
    from math import comb
    turn_up = 0
    rest = [c for c in range(32) if c != turn_up]
    counts = np.zeros(len(RULES) + 1, dtype=np.int64)
    for hand in combinations(rest, 5):
        counts[regle_rule(np.uint32(sum(1 << c for c in hand)), 0)] += 1
    assert counts.sum() == comb(31, 5) == 169_911
    assert counts[1] == 9_660 + 840 + 21
    assert counts[2] == comb(7, 2) * 3 * comb(8, 3)          # two trumps, three of a suit
    assert counts[4] == 7 * 3 * comb(7, 3)                   # one trump, K + three of a suit


@pytest.mark.quick
@pytest.mark.parametrize("bad", [0, 0b1111, 0b111111, -1, 1 << 33])
def test_classify_needs_five_cards(bad):
    with pytest.raises(CardError):
        classify(bad, 0)
