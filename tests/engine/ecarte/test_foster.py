"""The jeu de règle by the book's definition (engine/ecarte/decisions/foster.py): one first lead wins
the point double dummy against every dealer hand with at most one trump.

The kernel's counts are recomputed in plain Python — the dealer hands enumerated with
``itertools.combinations`` for each turn-up, each position solved by the solver's
from-a-position API (:func:`ecarte_sim.engine.ecarte.search.solver.move_values`, full window) —
and the point after each lead is checked against the pure-Python reference solver on a
random sample of dealer hands (every dealer hand of one hand under ``-m slow``).
"""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest

from ecarte_sim.engine.cards import CardError, cards_of, parse_card, parse_hand, parse_suit
from ecarte_sim.engine.ecarte import reference
from ecarte_sim.engine.ecarte.deals.experiments import exact_turn_ups
from ecarte_sim.engine.ecarte.decisions import foster
from ecarte_sim.engine.ecarte.decisions.regle import classify as by_list
from ecarte_sim.engine.ecarte.search import solver

#: The book's first example: "King, queen, knave of spades, eight of hearts (trumps), eight
#: of diamonds. Lead king of spades; if not trumped, follow with queen, etc."
SEED_EXAMPLE = "KS QS JS 8H 8D"

#: (hand, trump, turn-up or None): qualifying and failing, with and without a turn-up.
SAMPLES = [
    (SEED_EXAMPLE, "H", None),       # qualifies, every turn-up
    ("9H 8H 7S 9D 8C", "H", "KH"),   # fails, the turn-up given
    ("KC 9C QS JS 7D", "C", None),   # two trumps, clubs: fails, every turn-up
    ("AH KS 7S KD KC", "H", "8H"),   # one trump and three kings: qualifies (not by the list)
]


def _trumps(mask: int, trump: int) -> int:
    return (mask >> (8 * trump) & 0xFF).bit_count()


def _parse(hand: str, trump: str, turn_up: str | None) -> tuple[int, int, int | None]:
    return (int(parse_hand(hand, 5)), parse_suit(trump),
            None if turn_up is None else parse_card(turn_up))


def plain_counts(hand: int, trump: int, turn_up: int | None) -> dict:
    """``won`` per lead, ``of``, and the first (lexicographic) dealer hand each lead loses
    to, by plain enumeration of every (turn-up, dealer hand) pair."""
    ups = exact_turn_ups(hand, turn_up, trump)
    leads = cards_of(hand)
    won = dict.fromkeys(leads, 0)
    losses: dict[int, list[tuple[int, ...]]] = {c: [] for c in leads}
    of = 0
    solved: dict[int, dict[int, int]] = {}  # the play does not depend on the turn-up
    for up in ups:
        rest = [c for c in range(32) if not hand >> c & 1 and c != up]
        for dealer in combinations(rest, 5):
            mask = sum(1 << c for c in dealer)
            if _trumps(mask, trump) > 1:
                continue
            of += 1
            if mask not in solved:
                solved[mask] = solver.move_values(hand, mask, trump)
            for lead, tricks in solved[mask].items():
                if tricks >= 3:
                    won[lead] += 1
                else:
                    losses[lead].append(dealer)
    return {"won": won, "of": of, "first_loss": {c: min(v) if v else None
                                                 for c, v in losses.items()},
            "turn_ups": tuple(int(u) for u in ups)}


@pytest.fixture(scope="module", params=SAMPLES, ids=lambda s: f"{s[0]}|{s[1]}|{s[2]}")
def sample(request):
    hand, trump, turn_up = _parse(*request.param)
    return hand, trump, turn_up, foster.definition(hand, trump, turn_up)


def test_counts_match_plain_enumeration(sample):
    hand, trump, turn_up, reading = sample
    plain = plain_counts(hand, trump, turn_up)
    assert reading.of == plain["of"]
    assert dict(zip(reading.leads, reading.won)) == plain["won"]
    assert reading.turn_ups == plain["turn_ups"]
    best = max(plain["won"].values())
    assert reading.best_won == best
    assert reading.best_lead == next(c for c in cards_of(hand) if plain["won"][c] == best)
    assert reading.qualifies == (best == plain["of"])
    first = plain["first_loss"][reading.best_lead]
    if first is None:
        assert reading.loses_to is None
    else:
        dealer, up = reading.loses_to
        assert dealer == sum(1 << c for c in first)
        assert up == min(u for u in plain["turn_ups"] if not dealer >> u & 1)


def test_point_after_each_lead_matches_the_reference(sample):
    """The kernel's point question against the independent pure-Python solver, on a random
    sample of the dealer hands (all of them for one hand under ``-m slow``)."""
    hand, trump, _, _ = sample
    rest = [c for c in range(32) if not hand >> c & 1]
    dealers = [d for d in combinations(rest, 5)
               if _trumps(sum(1 << c for c in d), trump) <= 1]
    for dealer in random.Random(hand).sample(dealers, 40):
        _check_against_reference(hand, frozenset(dealer), trump)


def _check_against_reference(hand: int, dealer: frozenset[int], trump: int) -> None:
    mask = sum(1 << c for c in dealer)
    values = reference.move_values(hand, dealer, trump)
    for lead, tricks in values.items():
        assert bool(foster.wins_point_after_lead(np.uint32(hand), np.uint32(mask), lead,
                                                 trump, True)) == (tricks >= 3), \
            (hand, sorted(dealer), lead, tricks)


@pytest.mark.slow
def test_every_dealer_hand_against_the_reference():
    """The seed's example with the nine of hearts turned up: every one of the 44,574 dealer
    hands, each lead, against the pure-Python solver (a few minutes)."""
    hand, trump, turn_up = _parse(SEED_EXAMPLE, "H", "9H")
    rest = [c for c in range(32) if not hand >> c & 1 and c != turn_up]
    won = dict.fromkeys(cards_of(hand), 0)
    for dealer in combinations(rest, 5):
        if _trumps(sum(1 << c for c in dealer), trump) > 1:
            continue
        for lead, tricks in reference.move_values(hand, frozenset(dealer), trump).items():
            won[lead] += tricks >= 3
    reading = foster.definition(hand, trump, turn_up)
    assert dict(zip(reading.leads, reading.won)) == won


# --------------------------------------------------------------------------- golden

def test_the_seed_example_is_a_jeu_de_regle_by_the_definition_not_by_the_list():
    hand, trump, _ = _parse(SEED_EXAMPLE, "H", None)
    reading = foster.definition(hand, trump)
    assert reading.qualifies and reading.best_lead == parse_card("KS")
    assert reading.best_won == reading.of == 7 * 44_574  # seven hearts may be turned up
    # "Lead king of spades; if not trumped, follow with queen": the three spades are one lead
    wins = dict(zip(reading.leads, reading.won))
    assert wins[parse_card("KS")] == wins[parse_card("QS")] == wins[parse_card("JS")]
    assert wins[parse_card("8H")] < reading.of and wins[parse_card("8D")] < reading.of
    for up in range(8, 16):
        if up != parse_card("8H"):
            fixed = foster.definition(hand, trump, up)
            assert fixed.qualifies and fixed.of == 44_574
    assert by_list(hand, trump) is None


@pytest.mark.parametrize("hand, trump, of", [
    # Foster's Complete Hoyle: with one trump in hand the dealer holds fewer than two trumps
    # in 44,574 of the 65,780 dealer hands; with two trumps, in 50,274.
    ("KS QS JS 8H 8D", "H", 44_574),
    ("KC 9C QS JS 7D", "C", 50_274),
    ("9S 8S 7S 9D 8C", "H", 38_760),
])
def test_dealer_hands_with_at_most_one_trump(hand, trump, of):
    mask, suit, _ = _parse(hand, trump, None)
    up = min(foster.turn_ups_for(mask, suit, None))
    assert foster.definition(mask, suit, up).of == of


@pytest.mark.quick
def test_five_top_trumps_win_whatever_is_led():
    hand, trump, _ = _parse("KH QH JH AH TH", "H", None)
    reading = foster.definition(hand, trump)
    assert reading.qualifies and set(reading.won) == {reading.of}
    assert reading.best_lead == parse_card("KH")  # the tie: the first card as written
    assert reading.loses_to is None


@pytest.mark.quick
def test_five_small_plain_cards_fail():
    hand, trump, _ = _parse("9S 8S 7S 9D 8C", "H", None)
    reading = foster.definition(hand, trump)
    assert not reading.qualifies and reading.loses_to is not None
    dealer, up = reading.loses_to
    assert _trumps(dealer, trump) <= 1 and not dealer >> up & 1 and up >> 3 == trump
    lead = reading.best_lead
    assert solver.move_values(hand, dealer, trump)[lead] < 3


# --------------------------------------------------------------------------- the yes/no kernel

def _random_hands(n: int, seed: int) -> list[tuple[int, int]]:
    """Random hands (spread over 0-3 trumps, where the answers differ) and trump suits."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        trump = rng.randrange(4)
        k = len(out) % 4
        trumps = rng.sample(range(8 * trump, 8 * trump + 8), k)
        plain = rng.sample([c for c in range(32) if c >> 3 != trump], 5 - k)
        out.append((sum(1 << c for c in trumps + plain), trump))
    return out


@pytest.mark.parametrize("hand, trump", _random_hands(16, 15) + [
    (int(parse_hand(h, 5)), parse_suit(t)) for h, t, _ in SAMPLES])
def test_qualifying_turn_ups_agrees_with_the_counts(hand, trump):
    """The survey's early-exit kernel against the full counts, turn-up by turn-up."""
    mask, every = foster.qualifying_turn_ups(np.uint32(hand), trump, True)
    for up in foster.turn_ups_for(hand, trump, None):
        assert bool(int(mask) >> up & 1) == foster.definition(hand, trump, up).qualifies
    assert bool(every) == foster.definition(hand, trump).qualifies


# --------------------------------------------------------------------------- the boundary

def test_turn_ups_are_those_of_hand_exact():
    hand, trump, _ = _parse(SEED_EXAMPLE, "H", None)
    assert foster.turn_ups_for(hand, trump, None) == tuple(exact_turn_ups(hand, None, trump))
    assert foster.turn_ups_for(hand, trump, 14) == tuple(exact_turn_ups(hand, 14, trump))


@pytest.mark.quick
@pytest.mark.parametrize("hand, trump, turn_up, token", [
    (SEED_EXAMPLE, 1, "8H", "8H"),        # the turn-up is in the hand
    (SEED_EXAMPLE, 1, "9S", "9S"),        # not of the trump suit
    ("KS QS JS 8H", 1, None, None),       # four cards
    (SEED_EXAMPLE, 4, None, "4"),         # no such suit
])
def test_bad_input_is_refused_naming_the_token(hand, trump, turn_up, token):
    mask = sum(1 << parse_card(t) for t in hand.split())
    with pytest.raises(CardError) as caught:
        foster.definition(mask, trump, None if turn_up is None else parse_card(turn_up))
    if token is not None:
        assert caught.value.token == token and token in str(caught.value)


@pytest.mark.slow
def test_survey_reproduces_the_docstring():
    """The comparison table of the module docstring (an exact enumeration, about a minute
    on two cores)."""
    result = foster.survey()
    assert result["pairs"] == 8 * 169_911
    for key in ("list", "definition", "both", "every"):
        assert f"{result[key]:,}" in foster.__doc__, key
    rows = [line.split() for line in foster.__doc__.splitlines()]
    for k, row in result["by_trumps"].items():
        figures = [f"{row[key]:,}" for key in ("pairs", "list", "definition", "both")]
        assert [str(k), *figures] in rows, (k, figures)


@pytest.mark.quick
@pytest.mark.parametrize("hand, trump", [("KS QS JS 8H 8D", "H"), ("9S 8S 7S 9D 8C", "S")])
@pytest.mark.parametrize("trumps_last", [False, True])
def test_the_dealer_hands_are_listed_once_in_order(hand, trump, trumps_last):
    """``dealer_hands`` (the one enumeration :func:`lead_counts` and
    :func:`qualifying_turn_ups` read): every five of the other cards with at most one
    trump, in lexicographic order of their positions in the pack ``_pack_without`` gives."""
    from itertools import combinations
    mask, suit, _ = _parse(hand, trump, None)
    cards, is_trump, n = foster._pack_without(np.uint32(mask), suit, trumps_last)
    out = np.zeros(foster.MAX_DEALER_HANDS, dtype=np.uint32)
    m = foster.dealer_hands(cards, is_trump, n, out)
    want = [sum(1 << int(cards[i]) for i in five) for five in combinations(range(n), 5)
            if sum(int(is_trump[i]) for i in five) <= 1]
    assert m == len(want) and [int(h) for h in out[:m]] == want
