"""Law 43 kernels against the reference, exhaustively where cheap."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ecarte_sim.engine.cards import parse_card, parse_hand
from ecarte_sim.engine.ecarte import reference
from ecarte_sim.engine.ecarte.laws.tricks import leader_wins, legal_replies

pytestmark = pytest.mark.quick


def test_leader_wins_every_pair_every_trump():
    for trump in range(4):
        for led in range(32):
            for reply in range(32):
                if reply != led:
                    assert leader_wins(led, reply, trump) == reference.leader_wins(
                        led, reply, trump)


@given(st.sets(st.integers(0, 31), min_size=1, max_size=5), st.integers(0, 31),
       st.integers(0, 3), st.booleans())
def test_legal_replies_match_reference(hand, led, trump, forced):
    hand.discard(led)
    if not hand:
        return
    mask = sum(1 << c for c in hand)
    fast = int(legal_replies(np.uint32(mask), led, trump, forced))
    slow = reference.legal_replies(frozenset(hand), led, trump, forced)
    assert fast == sum(1 << c for c in slow)


def test_law_43_cases():
    def legal(hand, led, trump, forced=True):
        return int(legal_replies(parse_hand(hand), parse_card(led), trump, forced))
    # follow and win if able
    assert legal("KH 8H 9S", "TH", 0) == int(parse_hand("KH"))
    # follow, cannot win: any card of the suit
    assert legal("9H 8H 9S", "TH", 0) == int(parse_hand("9H 8H"))
    # void: must trump (spades)
    assert legal("9S 7S KD", "TH", 0) == int(parse_hand("9S 7S"))
    # void, trumping optional in the variant
    assert legal("9S 7S KD", "TH", 0, False) == int(parse_hand("9S 7S KD"))
    # void, no trump: anything
    assert legal("KD QC", "TH", 0) == int(parse_hand("KD QC"))
    # the ace ranks between the knave and the ten
    assert legal("AH JH", "TH", 3) == int(parse_hand("AH JH"))
    assert legal("AH 9H", "JH", 3) == int(parse_hand("AH 9H"))
