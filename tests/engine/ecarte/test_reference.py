"""Unit tests of the plain reference (ecarte_sim.engine.ecarte.reference): RNG, deal, Law 43, search."""

from __future__ import annotations

import pytest

from ecarte_sim.engine.cards import CardError, cards_of, format_card, format_hand, parse_card, parse_hand
from ecarte_sim.engine.ecarte import reference as R

pytestmark = pytest.mark.quick

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3


def hand(text: str) -> frozenset[int]:
    return frozenset(cards_of(parse_hand(text)))


def card(text: str) -> int:
    return parse_card(text)


# ---------------------------------------------------------------------------
# SplitMix64 and the deal
# ---------------------------------------------------------------------------

def test_splitmix64_seed_1234567():
    assert [R.splitmix64_output(1234567, p) for p in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423,
        4593380528125082431, 16408922859458223821]


def test_splitmix64_seed_0():
    assert [R.splitmix64_output(0, p) for p in range(5)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F,
        0xF88BB8A8724C81EC, 0x1B39896A51A8749B]


def test_word_stream_positions():
    """Deal 0's word k is output k; deal i starts at output i * 2**20."""
    words = R.WordStream(0, 0)
    assert [words.next_word() for _ in range(5)] == [R.splitmix64_output(0, p) for p in range(5)]
    later = R.WordStream(1234567, 3)
    assert later() == R.splitmix64_output(1234567, 3 << 20)
    assert later() == R.splitmix64_output(1234567, (3 << 20) + 1)


def test_draw_batch_rejects_and_redraws():
    """2**64 mod 3 = 1: the word 0 leaves remainder 0 < 1 and is rejected."""
    words = iter([0, 1 << 63, 5])
    assert R.draw_batch(lambda: next(words), [3]) == [1]      # from the second word
    assert next(words) == 5                                   # exactly two words used


def test_draw_batch_digits():
    """Each draw is the high word of x * b; the low word carries on."""
    x = 0x9000000000000000
    assert R.draw_batch(lambda: x, [4, 4]) == [2, 1]          # 2**64 mod 16 = 0: no rejection
    assert R.draw_batch(lambda: (1 << 64) - 1, [32, 31, 30]) == [31, 30, 29]


def test_shuffle_batches_cover_every_bound():
    bounds = [b for batch in R.SHUFFLE_BATCHES for b in batch]
    assert bounds == list(range(32, 1, -1))
    for batch in R.SHUFFLE_BATCHES:
        product = 1
        for b in batch:
            product *= b
        assert product < 1 << 64
    assert [len(batch) for batch in R.SHUFFLE_BATCHES] == [11, 14, 6]


@pytest.mark.parametrize("seed,index", [(0, 0), (0, 267), (1234567, 5), (2**64 - 1, 10**9)])
def test_deal_is_a_partition(seed, index):
    d = R.deal(seed, index)
    assert len(d.elder) == len(d.dealer) == 5 and len(d.stock) == 21
    everything = set(d.elder) | set(d.dealer) | {d.turn_up} | set(d.stock)
    assert everything == set(range(32))
    assert d.trump == d.turn_up >> 3
    assert R.deal(seed, index) == d


def _as_text(d):
    mask = lambda cards: sum(1 << c for c in cards)     # noqa: E731
    return (format_hand(mask(d.elder)), format_hand(mask(d.dealer)), format_card(d.turn_up),
            " ".join(format_card(c) for c in d.stock))


def test_deal_golden_values():
    """Fixed deals (matched against ecarte_sim.engine.ecarte.laws.deal when written)."""
    assert _as_text(R.deal(0, 0)) == (
        "8S AH 8H TD AC", "KS JH 7H KD TC", "KH",
        "AD QS 8D 7C 9C 8C QD 7D AS 7S 9H JS QH TS 9D 9S JD QC JC KC TH")
    # Deal 267 of seed 0 rejects one word: it uses four words, not three.
    words = R.WordStream(0, 267)
    for batch in R.SHUFFLE_BATCHES:
        R.draw_batch(words, batch)
    assert words.words_used == 4
    assert _as_text(R.deal(0, 267)) == (
        "KS TH 7H QD JD", "9S 7S AH KC TC", "QC",
        "QS 7D 9D 8C 8D TS JC 9C KD 7C QH 9H AD JS JH AS 8H TD KH 8S AC")


def test_deal_matches_fast_engine():
    fast = pytest.importorskip("ecarte_sim.engine.ecarte.laws.deal")
    for seed in (0, 1234567):
        for index in list(range(40)) + [267, 990]:
            ref, got = R.deal(seed, index), fast.deal(seed, index)
            assert ref.elder == frozenset(cards_of(int(got.elder)))
            assert ref.dealer == frozenset(cards_of(int(got.dealer)))
            assert ref.turn_up == int(got.turn_up)
            assert ref.stock == tuple(int(c) for c in got.stock)


# ---------------------------------------------------------------------------
# Law 43: following, winning, trumping
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("held,led,trump,forced,legal", [
    # must follow suit (a trump is not allowed while holding the suit led)
    ("KH 7H QS 8S 9C", "TH", SPADES, True, "KH"),
    # following, must win the trick if able: any higher card of the suit
    ("KH QH 7H 8S 9C", "TH", SPADES, True, "KH QH"),
    # following, unable to win: any card of the suit
    ("9H 7H 8S 9C TD", "KH", SPADES, True, "9H 7H"),
    # the ace ranks between the knave and the ten
    ("JH TH 9C", "AH", SPADES, True, "JH"),
    ("AH 9H 9C", "TH", SPADES, True, "AH"),
    # void in the suit led: must trump if able (any trump wins the trick)
    ("7S KS AD 9C", "KH", SPADES, True, "7S KS"),
    # ... unless trumping is optional (the variant)
    ("7S KS AD 9C", "KH", SPADES, False, "7S KS AD 9C"),
    # void and no trump: any card
    ("AD 9C 8C", "KH", SPADES, True, "AD 9C 8C"),
    # a trump led: follow with a higher trump if able
    ("KS 8S QH", "9S", SPADES, True, "KS"),
    ("8S 7S QH", "9S", SPADES, True, "8S 7S"),
])
def test_legal_replies(held, led, trump, forced, legal):
    assert R.legal_replies(hand(held), card(led), trump, forced) == hand(legal)


def test_legal_replies_accepts_a_mask():
    assert R.legal_replies(parse_hand("KH 7H QS"), card("TH"), SPADES) == hand("KH")


@pytest.mark.parametrize("led,reply,trump,winner", [
    ("KH", "7S", SPADES, "follower"),   # "A seven of trumps can take the king of another suit"
    ("AH", "JH", SPADES, "follower"),   # "the knave can take the ace"
    ("TH", "AH", SPADES, "follower"),   # "but the ace can take the ten"
    ("AH", "TH", SPADES, "leader"),
    ("9S", "KS", SPADES, "follower"),   # a higher trump beats a lower one
    ("KS", "9S", SPADES, "leader"),
    ("7H", "KD", SPADES, "leader"),     # a card of another suit, not a trump, loses
    ("7S", "KH", SPADES, "leader"),     # a trump led wins against any plain card
])
def test_trick_winner(led, reply, trump, winner):
    assert R.trick_winner(card(led), card(reply), trump) == winner
    assert R.leader_wins(card(led), card(reply), trump) == (winner == "leader")


def test_legal_moves_and_play():
    pos = R.make_position(hand("KH 7H QS"), hand("9H 8S 7D"), SPADES)
    assert R.legal_moves(pos) == hand("KH 7H QS")           # the leader may lead anything
    pos = R.play(pos, card("7H"))
    assert pos.led == card("7H") and pos.to_move == R.DEALER
    assert R.legal_moves(pos) == hand("9H")
    with pytest.raises(CardError):
        R.play(pos, card("8S"))                               # a revoke
    pos = R.play(pos, card("9H"))
    assert (pos.leader, pos.elder_tricks, pos.led) == (R.DEALER, 0, None)
    pos = R.play(R.play(pos, card("8S")), card("QS"))
    assert (pos.leader, pos.elder_tricks) == (R.ELDER, 1)
    pos = R.play(R.play(pos, card("KH")), card("7D"))
    assert pos.finished and pos.elder_tricks == 2


# ---------------------------------------------------------------------------
# Input validation
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [
    dict(elder=hand("KH QH"), dealer=hand("KH 9S"), trump=0),             # a card in both hands
    dict(elder=hand("KH QH"), dealer=hand("9S"), trump=0),                # unequal, nothing led
    dict(elder=hand("KH"), dealer=hand("9S 8S"), trump=0, led=card("KH")),  # led card still held
    dict(elder=hand("KH"), dealer=hand("9S"), trump=0, led=card("QH")),   # leader not one short
    dict(elder=hand("KH"), dealer=hand("9S 8S"), trump=0, leader=1, led=card("QH")),
    dict(elder=hand("KH QH JH AH TH 9H"), dealer=hand("KS QS JS AS TS 9S"), trump=0),
    dict(elder=hand("KH QH"), dealer=hand("9S 8S"), trump=0, elder_tricks=4),
    dict(elder=hand("KH QH"), dealer=hand("9S 8S"), trump=0, elder_tricks=-1),
    dict(elder=hand("KH"), dealer=hand("9S"), trump=4),
    dict(elder=hand("KH"), dealer=hand("9S"), trump=0, leader=2),
    dict(elder=[card("KH"), card("KH")], dealer=hand("9S 8S"), trump=0),  # a card twice
    dict(elder=[32], dealer=[0], trump=0),
])
def test_inconsistent_positions_raise(kwargs):
    for fn in (R.solve, R.move_values, R.make_position):
        with pytest.raises(CardError):
            fn(**kwargs)


# ---------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------

def test_finished_hand():
    assert R.solve([], [], HEARTS, R.DEALER, 3) == 3


def test_last_trick():
    # elder leads K♥ to the dealer's 7♠ (spades trumps): the dealer must trump
    assert R.solve(hand("KH"), hand("7S"), SPADES, R.ELDER, 2) == 2
    assert R.solve(hand("KH"), hand("7S"), HEARTS, R.ELDER, 2) == 3
    # the card already led: the follower's reply settles it
    assert R.solve([], hand("7S"), SPADES, R.ELDER, 2, card("KH")) == 2
    assert R.move_values([], hand("7S"), SPADES, R.ELDER, 2, card("KH")) == {card("7S"): 2}


def test_forced_trump_changes_the_value():
    """Spades trumps: the elder leads J♦. Obliged to trump (Law 43), the dealer must
    spend his 9♠ and the elder's 8♠ becomes the master trump; free to discard, he
    throws the 7♥, keeps the 9♠ over the 8♠ and holds the elder to one trick."""
    elder, dealer = hand("8S TH 8H JD"), hand("9S QH 7H KC")
    assert R.solve(elder, dealer, SPADES, R.ELDER, 0) == 2
    assert R.solve(elder, dealer, SPADES, R.ELDER, 0, forced_trump=False) == 1
    assert R.move_values(elder - {card("JD")}, dealer, SPADES, R.ELDER, 0, card("JD"),
                         forced_trump=False) == {card("9S"): 2, card("QH"): 3, card("7H"): 1,
                                                 card("KC"): 2}


def test_solve_is_the_best_move_value():
    for index in range(30):
        d = R.deal(99, index)
        vals = R.move_values(d.elder, d.dealer, d.trump)
        assert set(vals) == set(d.elder)
        assert R.solve(d.elder, d.dealer, d.trump) == max(vals.values())
        lo, hi = R.best_and_worst(d.elder, d.dealer, d.trump)
        assert lo <= R.solve(d.elder, d.dealer, d.trump) <= hi


def test_playouts_enumerate_every_line():
    # two cards each, no constraint bites: 2 leads x 2 replies x 1 x 1 lines
    lines = list(R.playout_lines(hand("KH 7C"), hand("9D 8S"), HEARTS))
    assert len(lines) == 4
    assert all(len(plays) == 4 for plays, _ in lines)
    assert sorted(total for _, total in lines) == sorted(R.playouts(hand("KH 7C"), hand("9D 8S"),
                                                                    HEARTS))
