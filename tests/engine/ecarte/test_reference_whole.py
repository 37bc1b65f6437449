"""The plain reference's whole deal (ecarte_sim.engine.ecarte.reference.whole_deal).

Checks the contract of ``engine/ecarte/rules_whole_deal.md`` law by law on
concrete deals of seed 7, worked out by hand (each deal is printed in its
test; ``test_pinned_deals`` checks those printouts against ``R.deal``), then
some invariants over many scripted deals.

Card indices: spades 0..7, hearts 8..15, diamonds 16..23, clubs 24..31, each
suit 7 8 9 10 A J Q K.  The default priority ``0..31`` therefore plays the
lowest legal card in the order ♠ ♥ ♦ ♣, 7 up to K.
"""

from __future__ import annotations

import random

import pytest

from ecarte_sim.engine.cards import cards_of, parse_card, parse_hand
from ecarte_sim.engine.ecarte import reference as R

SEED = 7


def _kernel_whole_deal(seed, index, script, play_model="scripted", **variant):
    """The numba kernel behind the reference's signature (same script, same variants)."""
    from ecarte_sim.engine.ecarte.deals.runner import DealRunner
    from ecarte_sim.engine.ecarte.settings import make_cfg
    from whole_helpers import kernel_script
    cfg = make_cfg(elder_policy="scripted", dealer_policy="scripted", elder_discard="scripted",
                   dealer_discard="scripted", play=play_model, trick_by_trick=True, **variant)
    return DealRunner().play(seed, index, cfg, kernel_script(script))


whole_deal = R.whole_deal


@pytest.fixture(autouse=True, params=["reference", "kernel"])
def implementation(request, monkeypatch):
    """Every law test runs on the plain reference and on the numba kernel."""
    monkeypatch.setitem(globals(), "whole_deal",
                        R.whole_deal if request.param == "reference" else _kernel_whole_deal)
    return request.param
FULL = (1 << 32) - 1
PLAYED, REFUSED = R.PLAYED_WITHOUT_PROPOSING, R.REFUSED_FIRST

#: The deals of seed 7 used below: elder | dealer | turn-up | stock (top first).
DEALS = {
    0: ("7S KH AH KD QD", "AS JH TD JC 9C", "8S",
        "TH QS 8H KC 9S 7D 8D AD JD 9D KS JS 9H TC QH 7C 8C AC QC 7H TS"),
    1: ("8S 7S AH 7H 9C", "QH JH 9H KC JC", "8C",
        "JS TD TS TH QD KH JD 9D 8D 9S AD 8H 7D KS AS QS AC QC KD TC 7C"),
    2: ("8H 7H QD JD 9D", "QH AH 8D QC AC", "AS",
        "TC KS AD JS KC JH TH 8S 8C 7C 9H TD 7D QS KD 9C 9S JC KH TS 7S"),
    3: ("9S AC TC 9C 7C", "QS JS AS TD 9D", "8S",
        "8C TH 8H QC KS JH KC 7H 9H QD AH KD KH AD 8D JC TS 7D 7S QH JD"),
    8: ("QH 9H AD QC TC", "9S TH 8H JD 7D", "KH",
        "TD 7S 7H 8D TS JS KD 8C AC JH AH QD 8S JC 9C KC 9D KS 7C QS AS"),
    9: ("QS KH QH AH 9C", "7S KC AC TC 7C", "JH",
        "7H KS 8D 7D 8S 9S JD JC QC AD 8C TD KD 9H 8H TH QD 9D TS AS JS"),
    12: ("QS 9S QH JC TC", "JS KD AD 9D 7D", "9H",
         "9C 8C JD AH AS TD TS QD KS 8D 7S 7H KC 8S 7C 8H QC KH TH AC JH"),
}


def mask(text: str) -> int:
    return int(parse_hand(text))


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def script(propose=(), accept=(), elder=(), dealer=(), priority=None, default_propose=0,
           default_accept=0) -> R.Script:
    """A script from per-round prefixes (the rounds after them: the defaults, empty masks)."""
    def pad(values, fill):
        values = tuple(values)
        return values + (fill,) * (24 - len(values))
    return R.Script(pad(propose, default_propose), pad(elder, 0), pad(accept, default_accept),
                    pad(dealer, 0), tuple(range(32)) if priority is None else priority)


PLAY = script()                                   # the elder plays at once
REFUSE = script(propose=(1,), accept=(0,))        # the dealer refuses the first proposal


@pytest.mark.quick
def test_pinned_deals():
    for index, (elder, dealer, turn_up, stock) in DEALS.items():
        d = R.deal(SEED, index)
        assert d.elder == frozenset(cards_of(mask(elder)))
        assert d.dealer == frozenset(cards_of(mask(dealer)))
        assert d.turn_up == parse_card(turn_up)
        assert d.stock == cards(stock)


def check_conservation(w: R.WholeDeal, seed: int, index: int) -> None:
    """Every card in exactly one place; draws are the stock's top cards, in order."""
    d = R.deal(seed, index)
    drawn = [c for e, de, dd_, dr in w.exchanges for c in (de, dr)]
    taken = sum(bin(m).count("1") for m in drawn)
    assert taken <= 21                                     # the stock is never over-drawn
    position = 0
    for m in drawn:                                        # consecutive slices of the stock
        n = bin(m).count("1")
        assert m == sum(1 << c for c in d.stock[position:position + n])
        position += n
    places = [w.elder_hand, w.dealer_hand, 1 << w.turn_up,
              sum(1 << c for c in d.stock[taken:])]
    places += [m for e, _, dd_, _ in w.exchanges for m in (e, dd_)]
    union = 0
    for m in places:
        assert union & m == 0
        union |= m
    assert union == FULL
    assert bin(w.elder_hand).count("1") == bin(w.dealer_hand).count("1") == 5
    # Each discard is part of the hand of the moment.
    elder, dealer = w.elder0, w.dealer0
    for e, e_drawn, dd_, d_drawn in w.exchanges:
        assert e and e & ~elder == 0 and dd_ & ~dealer == 0
        assert bin(e).count("1") == bin(e_drawn).count("1")
        assert bin(dd_).count("1") == bin(d_drawn).count("1")
        elder, dealer = (elder & ~e) | e_drawn, (dealer & ~dd_) | d_drawn
    assert (elder, dealer) == (w.elder_hand, w.dealer_hand)


# ---------------------------------------------------------------------------
# Section 0: the king turned up (Laws 22, 47)
# ---------------------------------------------------------------------------

def test_turned_king_reaching_target_ends_the_game():
    """Deal 8: E QH 9H AD QC TC | D 9S TH 8H JD 7D | turn-up K♥.  The dealer at 4 of 5
    marks the king: the game is over, nobody proposes or plays."""
    always = script(default_propose=1, default_accept=1)
    w = whole_deal(SEED, 8, always, target=5, dealer_score=4)
    assert (w.king_turned, w.ended, w.first, w.exchanges, w.play) == (1, 1, 0, (), ())
    assert (w.elder_hand, w.dealer_hand) == (w.elder0, w.dealer0) == (mask("QH 9H AD QC TC"),
                                                                      mask("9S TH 8H JD 7D"))
    assert (w.king_elder, w.king_dealer, w.elder_tricks) == (0, 0, 0)
    assert (w.points_elder, w.points_dealer, w.marks_elder, w.marks_dealer) == (0, 0, 0, 1)
    # The elder's score does not matter here.
    assert whole_deal(SEED, 8, PLAY, target=5, elder_score=4).ended == 0


def test_turned_king_then_play():
    """Deal 8 (trumps ♥), dealer at 3 of 5: the king is marked, the elder plays at once.
    Priority play: 9♥ 10♥ (dealer) | 9♠ Q♥ (elder trumps) | A♦ J♦ (dealer) |
    8♥ 10♣ (dealer) | 7♦ Q♣ (dealer).  One trick: Law 49, the dealer marks 2, + the king."""
    w = whole_deal(SEED, 8, PLAY, target=5, dealer_score=3)
    assert (w.king_turned, w.ended, w.first) == (1, 0, PLAYED)
    assert w.play == cards("9H TH 9S QH AD JD 8H TC 7D QC")
    assert w.elder_tricks == 1
    assert (w.points_elder, w.points_dealer, w.marks_elder, w.marks_dealer) == (0, 2, 0, 3)
    # The king of trumps is the turn-up: nobody holds it.
    assert (w.king_elder, w.king_dealer) == (0, 0)
    assert whole_deal(SEED, 8, PLAY) == w                 # no target: the same deal


# ---------------------------------------------------------------------------
# Section 4 and Law 49
# ---------------------------------------------------------------------------

def test_played_without_proposing_and_lost():
    """Deal 1: E 8S 7S AH 7H 9C | D QH JH 9H KC JC | turn-up 8♣ (the dealer holds K♣).
    7♠ J♣ | 9♥ A♥ (elder) | 8♠ K♣ | J♥ 7♥ | Q♥ 9♣ (elder trumps): 2 tricks.
    The elder played without proposing: the dealer marks 2, + 1 for the king."""
    w = whole_deal(SEED, 1, PLAY)
    assert w.first == PLAYED and w.exchanges == ()
    assert w.play == cards("7S JC 9H AH 8S KC JH 7H QH 9C")
    assert (w.elder_tricks, w.king_elder, w.king_dealer) == (2, 0, 1)
    assert (w.points_elder, w.points_dealer, w.marks_elder, w.marks_dealer) == (0, 2, 0, 3)


def test_refused_first_and_lost_gives_the_dealer_one():
    """Deal 1 again, but the elder proposes and the dealer refuses: same play, 2 tricks;
    the dealer wins the point and marks only 1 (+ the king)."""
    w = whole_deal(SEED, 1, REFUSE)
    assert (w.first, w.exchanges, w.elder_tricks) == (REFUSED, (), 2)
    assert (w.points_elder, w.points_dealer, w.marks_dealer) == (0, 1, 2)


def test_vole_stays_two_after_playing_without_proposing():
    """Deal 1 double dummy: the dealer takes all five tricks (vole), 2 points, not more."""
    w = whole_deal(SEED, 1, PLAY, play_model="dd")
    assert (w.first, w.elder_tricks) == (PLAYED, 0)
    assert (w.points_dealer, w.marks_dealer) == (2, 3)


def test_refused_first_and_won():
    """Deal 0: E 7S KH AH KD QD | D AS JH TD JC 9C | turn-up 8♠.
    7♠ A♠ (dealer) | J♥ K♥ | A♥ 10♦ | Q♦ 9♣ | K♦ J♣: the elder takes four tricks.
    The dealer refused the first proposal: the elder marks 2 (Law 49)."""
    w = whole_deal(SEED, 0, REFUSE)
    assert w.play == cards("7S AS JH KH AH TD QD 9C KD JC")
    assert (w.first, w.elder_tricks) == (REFUSED, 4)
    assert (w.points_elder, w.points_dealer, w.marks_elder, w.marks_dealer) == (2, 0, 2, 0)
    # Played without proposing, the same four tricks are worth one.
    w = whole_deal(SEED, 0, PLAY)
    assert (w.first, w.elder_tricks, w.points_elder, w.marks_elder) == (PLAYED, 4, 1, 1)


def test_second_refusal_has_no_penalty():
    """Deal 0: the dealer accepts the first proposal (the elder's empty mask discards his
    weakest card, A♥ — 7♠ is a trump — and draws 10♥; the dealer takes none), then
    refuses the second.  E 7S TH KH QD KD: 7♠ A♠ | J♥ K♥ | 10♥ 10♦ | Q♦ 9♣ | K♦ J♣:
    four tricks, but only 1 point (Law 49 applies to the first refusal only)."""
    s = script(propose=(1, 1), accept=(1, 0))
    w = whole_deal(SEED, 0, s)
    assert w.first == 0
    assert w.exchanges == ((mask("AH"), mask("TH"), 0, 0),)
    assert w.elder_hand == mask("7S TH KH QD KD") and w.dealer_hand == w.dealer0
    assert w.play == cards("7S AS JH KH TH TD QD 9C KD JC")
    assert (w.elder_tricks, w.points_elder, w.marks_elder) == (4, 1, 1)


def test_vole_stays_two_after_a_refusal():
    """Deal 12: E QS 9S QH JC TC | D JS KD AD 9D 7D | turn-up 9♥; double dummy the elder
    takes all five: the vole is 2 even though the dealer refused the first proposal."""
    w = whole_deal(SEED, 12, REFUSE, play_model="dd")
    assert (w.first, w.elder_tricks, w.points_elder, w.marks_elder) == (REFUSED, 5, 2, 2)


# ---------------------------------------------------------------------------
# Section 1: exchanges and Law 38
# ---------------------------------------------------------------------------

def test_law_38_whole_hands_until_the_stock_runs_out():
    """Deal 0, both always ask for five cards.  Round 0: stock 1-5 / 6-10; round 1:
    11-15 / 16-20; round 2: one card left: the elder discards only his weakest (9♥,
    of K♠ J♠ 9♥ 10♣ Q♥) and takes 10♠, the dealer takes nothing; then he must play.
    The king of trumps drawn by the elder (stock card 11) is his to mark."""
    s = script(default_propose=1, default_accept=1, elder=(FULL,) * 24, dealer=(FULL,) * 24)
    w = whole_deal(SEED, 0, s)
    assert w.first == 0
    assert w.exchanges == (
        (mask("7S KH AH KD QD"), mask("TH QS 8H KC 9S"), mask("AS JH TD JC 9C"),
         mask("7D 8D AD JD 9D")),
        (mask("TH QS 8H KC 9S"), mask("KS JS 9H TC QH"), mask("7D 8D AD JD 9D"),
         mask("7C 8C AC QC 7H")),
        (mask("9H"), mask("TS"), 0, 0),
    )
    assert w.elder_hand == mask("KS JS TS TC QH")
    assert w.dealer_hand == mask("7C 8C AC QC 7H")
    assert (w.king_elder, w.king_dealer) == (1, 0)
    assert len(w.play) == 10
    check_conservation(w, SEED, 0)


def test_law_38_the_dealer_gets_what_remains():
    """Deal 0: the elder discards one card a round (empty mask: his weakest), the dealer
    his whole hand.  Rounds 0-2 take 1 + 5 cards each; in round 3 the elder takes stock
    card 19 (Q♣), leaving 2: the dealer discards his two weakest, 7♣ 8♣ (of 10♣ Q♥ 7♣ 8♣
    A♣), and takes 7♥ 10♠.  Elder discards: A♥, 10♥ (7♠ is a trump), 8♦, 9♥."""
    s = script(default_propose=1, default_accept=1, dealer=(FULL,) * 24)
    w = whole_deal(SEED, 0, s)
    assert [e for e, _, _, _ in w.exchanges] == [mask(c) for c in ("AH", "TH", "8D", "9H")]
    assert [e for _, e, _, _ in w.exchanges] == [mask(c) for c in ("TH", "8D", "9H", "QC")]
    assert w.exchanges[3][2:] == (mask("7C 8C"), mask("7H TS"))
    assert w.exchanges[2][3] == mask("TC QH 7C 8C AC")
    assert w.elder_hand == mask("7S KH KD QD QC")
    assert w.dealer_hand == mask("TC QH AC 7H TS")
    check_conservation(w, SEED, 0)


def test_law_38_elder_gets_as_many_as_are_left():
    """Deal 0: elder four cards a round, the dealer five: 9 + 9 leaves 3; in round 2 the
    elder keeps his 3 weakest of the 4 asked for, the dealer gets nothing."""
    # Round by round the elder's hand is known in advance: his mask is his four weakest.
    elder_masks = []
    d = R.deal(SEED, 0)
    hand = set(d.elder)
    stock = list(d.stock)
    key = lambda c: 32 * (c // 8 == d.trump) + 4 * (c % 8) + c // 8
    for r in range(3):
        four = sorted(hand, key=key)[:4]
        elder_masks.append(sum(1 << c for c in four))
        if r < 2:
            hand = (hand - set(four)) | set(stock[9 * r:9 * r + 4])
    s = script(default_propose=1, default_accept=1, elder=elder_masks, dealer=(FULL,) * 24)
    w = whole_deal(SEED, 0, s)
    assert [bin(e).count("1") for e, _, _, _ in w.exchanges] == [4, 4, 3]
    assert [bin(x).count("1") for _, _, x, _ in w.exchanges] == [5, 5, 0]
    third = w.exchanges[2][0]
    assert third & ~elder_masks[2] == 0                      # a subset of what he asked for
    dropped = elder_masks[2] & ~third
    assert key(cards_of(dropped)[0]) > max(key(c) for c in cards_of(third))  # the strongest
    check_conservation(w, SEED, 0)


def test_max_proposals():
    """Deal 0, both always willing, empty masks: the single-exchange variant stops after
    one exchange (weakest A♥ for 10♥; the dealer takes none), two allowed: two."""
    always = script(default_propose=1, default_accept=1)
    one = whole_deal(SEED, 0, always, max_proposals=1)
    assert one.exchanges == ((mask("AH"), mask("TH"), 0, 0),) and one.first == 0
    two = whole_deal(SEED, 0, always, max_proposals=2)
    assert two.exchanges == ((mask("AH"), mask("TH"), 0, 0), (mask("TH"), mask("QS"), 0, 0))
    assert len(whole_deal(SEED, 0, always).exchanges) == 21   # one card a round, 21 rounds


def test_dealer_min_one():
    """Deal 0, one exchange: with an empty mask the dealer keeps his hand, unless he must
    take one: then he discards his weakest, 9♣ (of A♠ J♥ 10♦ J♣ 9♣), and draws Q♠."""
    s = script(propose=(1,), accept=(1,))
    w = whole_deal(SEED, 0, s, max_proposals=1)
    assert w.exchanges == ((mask("AH"), mask("TH"), 0, 0),)
    w = whole_deal(SEED, 0, s, max_proposals=1, dealer_min_one=True)
    assert w.exchanges == ((mask("AH"), mask("TH"), mask("9C"), mask("QS")),)
    assert w.dealer_hand == mask("AS JH TD JC QS")


def test_masks_count_only_cards_in_hand():
    """Deal 0: the elder names 7♠ A♥ and cards he does not hold; only 7♠ A♥ go."""
    s = script(propose=(1,), accept=(1,), elder=(mask("7S AH QS 8H AC"),),
               dealer=(mask("9C KH 7D"),))
    w = whole_deal(SEED, 0, s, max_proposals=1)
    assert w.exchanges == ((mask("7S AH"), mask("TH QS"), mask("9C"), mask("8H")),)


# ---------------------------------------------------------------------------
# Section 2: kings in hand
# ---------------------------------------------------------------------------

def test_king_drawn_by_the_dealer_is_marked():
    """Deal 2: E 8H 7H QD JD 9D | D QH AH 8D QC AC | turn-up A♠ | stock 10♣ K♠ ...
    The elder takes one card (10♣), the dealer five (K♠ A♦ J♠ K♣ J♥): K♠ is his."""
    s = script(propose=(1,), accept=(1,), dealer=(FULL,))
    w = whole_deal(SEED, 2, s, max_proposals=1)
    assert w.exchanges[0][1] == mask("TC")
    assert w.exchanges[0][3] == mask("KS AD JS KC JH")
    assert (w.king_elder, w.king_dealer) == (0, 1)
    assert w.marks_dealer == 1 + w.points_dealer
    # With the dealer at 4 of 5 the drawn king ends the game before any play.
    w = whole_deal(SEED, 2, s, max_proposals=1, target=5, dealer_score=4)
    assert (w.ended, w.king_dealer, w.play, w.marks_dealer) == (1, 1, (), 1)
    assert w.dealer_hand == mask("KS AD JS KC JH") and len(w.exchanges) == 1


def test_king_drawn_by_the_elder_is_marked():
    """Deal 3: E 9S AC TC 9C 7C | turn-up 8♠ | stock 8♣ 10♥ 8♥ Q♣ K♠ ...: the elder
    changes his whole hand and draws the king of trumps."""
    s = script(propose=(1,), accept=(1,), elder=(FULL,))
    w = whole_deal(SEED, 3, s, max_proposals=1)
    assert w.elder_hand == mask("8C TH 8H QC KS")
    assert (w.king_elder, w.king_dealer, w.marks_elder) == (1, 0, 1 + w.points_elder)


def test_king_discarded_is_not_marked():
    """Deal 9: E QS KH QH AH 9C, trumps ♥: held, K♥ is marked; discarded, it is not."""
    assert whole_deal(SEED, 9, PLAY).king_elder == 1
    s = script(propose=(1,), accept=(1,), elder=(mask("KH"),))
    w = whole_deal(SEED, 9, s, max_proposals=1)
    assert w.exchanges[0][:2] == (mask("KH"), mask("7H"))
    assert (w.king_elder, w.king_dealer) == (0, 0)


def test_king_in_hand_with_a_target():
    """Deal 9 (the elder holds K♥) and deal 1 (the dealer holds K♣): the holder's mark ends
    the game only when it brings the holder himself to the target."""
    w = whole_deal(SEED, 9, PLAY, target=5, elder_score=4)
    assert (w.ended, w.king_elder, w.king_dealer, w.play, w.marks_elder) == (1, 1, 0, (), 1)
    assert w.first == PLAYED                  # the decision was taken before the kings
    w = whole_deal(SEED, 9, PLAY, target=5, elder_score=4, dealer_score=4)
    assert (w.ended, w.king_elder, w.king_dealer, w.marks_dealer) == (1, 1, 0, 0)
    w = whole_deal(SEED, 9, PLAY, target=5, dealer_score=4)
    assert (w.ended, w.king_elder, len(w.play)) == (0, 1, 10)
    w = whole_deal(SEED, 1, PLAY, target=5, dealer_score=4)
    assert (w.ended, w.king_dealer, w.play, w.marks_dealer, w.points_dealer) == (1, 1, (), 1, 0)
    w = whole_deal(SEED, 1, PLAY, target=5, elder_score=4)
    assert (w.ended, w.king_dealer, w.marks_dealer) == (0, 1, 3)
    assert whole_deal(SEED, 1, PLAY, elder_score=9, dealer_score=9).ended == 0  # no target


# ---------------------------------------------------------------------------
# Section 3: the play
# ---------------------------------------------------------------------------

def test_forced_trump_variant():
    """Deal 1 with the variant: the dealer, void in spades, may keep his trumps:
    7♠ 9♥ | 8♠ J♥ | 7♥ Q♥ (dealer) | J♣ 9♣ | K♣ A♥: still two tricks, another play."""
    w = whole_deal(SEED, 1, PLAY, forced_trump=False)
    assert w.play == cards("7S 9H 8S JH 7H QH JC 9C KC AH")
    assert w.elder_tricks == 2


def test_priority_order_matters():
    """Deal 0 with the priority reversed (K♣ first ... 7♠ last): the elder leads K♦."""
    w = whole_deal(SEED, 0, script(priority=tuple(range(31, -1, -1))))
    assert w.play[0] == parse_card("KD")


def random_script(rng: random.Random) -> R.Script:
    def some_mask():
        return sum(1 << c for c in range(32) if rng.random() < 0.25)
    return R.Script(tuple(int(rng.random() < 0.7) for _ in range(24)),
                    tuple(some_mask() for _ in range(24)),
                    tuple(int(rng.random() < 0.8) for _ in range(24)),
                    tuple(some_mask() for _ in range(24)),
                    tuple(rng.sample(range(32), 32)))


def replay(w: R.WholeDeal, trump: int, forced_trump: bool, check_card) -> int:
    position = R.make_position(w.elder_hand, w.dealer_hand, trump, forced_trump=forced_trump)
    for card in w.play:
        check_card(position, card)
        position = R.play(position, card)
    assert position.finished
    return position.elder_tricks


def test_scripted_play_follows_the_priority_and_conserves_cards():
    rng = random.Random(2024)
    for index in range(150):
        s = random_script(rng)
        kwargs = dict(forced_trump=rng.random() < 0.7, max_proposals=rng.choice([0, 0, 1, 2]),
                      dealer_min_one=rng.random() < 0.3)
        w = whole_deal(SEED, index, s, **kwargs)
        check_conservation(w, SEED, index)
        trump = w.turn_up // 8

        def check_card(position, card):
            legal = R.legal_moves(position)
            assert card == next(c for c in s.priority if c in legal)
        assert replay(w, trump, kwargs["forced_trump"], check_card) == w.elder_tricks
        assert w.first in (0, PLAYED, REFUSED)
        if w.first:
            assert w.exchanges == ()
        if kwargs["max_proposals"]:
            assert len(w.exchanges) <= kwargs["max_proposals"]


def test_dd_play_gives_the_double_dummy_value():
    rng = random.Random(99)
    for index in range(60):
        s = random_script(rng)
        forced = rng.random() < 0.7
        w = whole_deal(SEED, index, s, play_model="dd", forced_trump=forced)
        check_conservation(w, SEED, index)
        trump = w.turn_up // 8
        assert w.elder_tricks == R.solve(w.elder_hand, w.dealer_hand, trump, forced_trump=forced)

        def check_card(position, card):
            values = R.move_values(position.elder, position.dealer, position.trump,
                                   position.leader, position.elder_tricks, position.led,
                                   position.forced_trump)
            pick = max if position.to_move == R.ELDER else min
            best = pick(values.values())
            assert card == min(c for c, v in values.items() if v == best)
        replay(w, trump, forced, check_card)


@pytest.mark.quick
def test_points_and_marks_add_up():
    rng = random.Random(5)
    for index in range(120):
        s = random_script(rng)
        target = rng.choice([0, 0, 5])
        scores = dict(elder_score=rng.randrange(5), dealer_score=rng.randrange(5))
        w = whole_deal(SEED, index, s, target=target, **scores)
        assert w.marks_elder == w.king_elder + w.points_elder
        assert w.marks_dealer == w.king_turned + w.king_dealer + w.points_dealer
        assert w.king_elder + w.king_dealer + w.king_turned <= 1
        if w.ended:
            assert target and w.play == () and w.points_elder == w.points_dealer == 0
        else:
            t = w.elder_tricks
            assert len(w.play) == 10
            assert (w.points_elder > 0) == (t >= 3) and (w.points_dealer > 0) == (t <= 2)
            expected = {5: (2, 0), 0: (0, 2)}.get(t)
            if expected is None:
                bonus_elder = 2 if w.first == REFUSED else 1
                bonus_dealer = 2 if w.first == PLAYED else 1
                expected = (bonus_elder, 0) if t >= 3 else (0, bonus_dealer)
            assert (w.points_elder, w.points_dealer) == expected


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------

@pytest.mark.quick
def test_bad_inputs(implementation):
    kernel = implementation == "kernel"
    with pytest.raises(ValueError, match="play model" if kernel else "play_model"):
        whole_deal(SEED, 0, PLAY, play_model="greedy")
    with pytest.raises(ValueError, match="elder score" if kernel else "elder_score"):
        whole_deal(SEED, 0, PLAY, elder_score=-1)
    if not kernel:  # the reference's own argument checks
        with pytest.raises(ValueError, match="Script"):
            whole_deal(SEED, 0, None)
        with pytest.raises(ValueError, match="max_proposals"):
            whole_deal(SEED, 0, PLAY, max_proposals=1.5)
    with pytest.raises(ValueError, match="24 rounds"):
        R.Script((0,) * 23, (0,) * 24, (0,) * 24, (0,) * 24, tuple(range(32)))
    with pytest.raises(ValueError, match="0 or 1"):
        R.Script((2,) * 24, (0,) * 24, (0,) * 24, (0,) * 24, tuple(range(32)))
    with pytest.raises(ValueError, match="32-bit"):
        R.Script((0,) * 24, (1 << 32,) * 24, (0,) * 24, (0,) * 24, tuple(range(32)))
    with pytest.raises(ValueError, match="permutation"):
        R.Script((0,) * 24, (0,) * 24, (0,) * 24, (0,) * 24, (0,) * 32)
    with pytest.raises(ValueError):
        whole_deal(SEED, -1, PLAY)
