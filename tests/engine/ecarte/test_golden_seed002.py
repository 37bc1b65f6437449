"""Golden tests: the worked example deals of Hoyle's Écarté (seeds/002_25d08f83baa0f9d5.txt).

Every deal in the text is checked, double dummy, against both the plain
reference (``ecarte_sim.engine.ecarte.reference``) and the fast solver
(``ecarte_sim.engine.ecarte.search.solver``); the claims about *every* continuation ("to a
certainty", "no matter how Y plays") use the reference's ``playouts``, which
the fast solver does not offer.

Conventions: the elder (non-dealer) is player 0 and leads to the first trick;
the values are the elder's total tricks for the hand, so "the elder wins the
point" is ``>= 3`` and "the dealer wins the vole" is ``== 0``.  Positions in
mid-hand give the cards each player *still holds*, who leads, how many tricks
the elder has already won, and the card already led (out of the leader's hand).
Hoyle says "the trick" for the point (three tricks): "A has the trick now to a
certainty".
"""

from __future__ import annotations

import pytest

from ecarte_sim.engine.cards import cards_of, parse_card, parse_hand, parse_suit
from ecarte_sim.engine.ecarte import reference

pytestmark = pytest.mark.quick

ELDER, DEALER = 0, 1


@pytest.fixture(params=["reference", "solver"])
def impl(request):
    """The implementation under test: the plain reference or the fast solver."""
    if request.param == "reference":
        return reference
    return pytest.importorskip("ecarte_sim.engine.ecarte.search.solver")


def hand(text: str) -> list[int]:
    """Card indices of a hand written like ``"TS KH TD 7D 9C"``."""
    return cards_of(parse_hand(text))


def card(text: str) -> int:
    return parse_card(text)


def values(impl, *args, **kwargs) -> dict[int, int]:
    """``move_values`` with plain-int keys and values (either implementation)."""
    return {int(c): int(v) for c, v in impl.move_values(*args, **kwargs).items()}


def replay(position, cards: str):
    """Play ``cards`` in order through the reference's rules (each must be legal)."""
    for token in cards.split():
        position = reference.play(position, card(token))
    return position


# ---------------------------------------------------------------------------
# 1. A deals and turns the king of spades; Y proposes, A accepts.
# ---------------------------------------------------------------------------

SPADES = parse_suit("S")
Y_1 = "TS KH TD 7D 9C"          # elder
A_1 = "QS JS AS AD 8H"          # dealer
Y_1_AFTER = "TS KH KD 7S 7H"    # Y keeps 10♠ K♥, takes K♦ 7♠ 7♥
A_1_AFTER = "QS JS AS 9S 8S"    # A keeps Q♠ J♠ A♠, takes 9♠ 8♠


def test_1_dealer_has_the_point(impl):
    """"A has the trick now to a certainty, and cannot lose it by accepting" (before the
    exchange, with best play)."""
    assert impl.solve(hand(Y_1), hand(A_1), SPADES) <= 2


def test_1_dealer_has_the_point_to_a_certainty():
    """"A has the trick now to a certainty": every one of A's three trumps wins the
    trick it is played to (Y's only trump, the ten, is lower), so however either side
    plays, Y makes at most two tricks."""
    assert max(reference.playouts(hand(Y_1), hand(A_1), SPADES)) <= 2


def test_1_dealer_wins_the_vole_after_the_exchange(impl):
    """"Y takes in the king of diamonds, the seven of spades, and the seven of hearts;
    A takes in the nine and eight of spades, and must win the vole."""
    assert impl.solve(hand(Y_1_AFTER), hand(A_1_AFTER), SPADES) == 0


def test_1_exchange_cards_are_consistent():
    """The turn-up K♠ and the ten cards held after the exchange are all different."""
    held = set(hand(Y_1_AFTER)) | set(hand(A_1_AFTER)) | {card("KS")}
    assert len(held) == 11
    assert set(hand(Y_1)) & set(hand(Y_1_AFTER)) == {card("TS"), card("KH")}
    assert set(hand(A_1)) & set(hand(A_1_AFTER)) == set(hand("QS JS AS"))


# ---------------------------------------------------------------------------
# 2. Y deals and turns the nine of clubs; A proposes, Y refuses ("Play").
# ---------------------------------------------------------------------------

CLUBS = parse_suit("C")
A_2 = "KD AD 8H 7H TS"          # elder
Y_2 = "KS QS JS 8C 7C"          # dealer


def test_2_dealer_wins_the_vole(impl):
    """""Play," says Y, and he wins the vole."""
    assert impl.solve(hand(A_2), hand(Y_2), CLUBS) == 0


def test_2_vole_whatever_is_played():
    """"He wins the vole": in fact A, with no trump and only the ten of Y's long
    suit, cannot make a trick in any legal continuation."""
    assert set(reference.playouts(hand(A_2), hand(Y_2), CLUBS)) == {0}


# ---------------------------------------------------------------------------
# 3. A deals and turns the knave of diamonds; Y plays without proposing.
# ---------------------------------------------------------------------------

DIAMONDS = parse_suit("D")
Y_3 = "QD TD TC 8C 8H"          # elder
A_3 = "JC AH JH TH 8D"          # dealer


def test_3_ten_of_clubs_wins_the_point(impl):
    """"If he led ten of clubs, he would win the point.\""""
    assert values(impl, hand(Y_3), hand(A_3), DIAMONDS)[card("TC")] >= 3


def test_3_queen_then_ten_of_diamonds_loses_the_point(impl):
    """"If he led queen, then ten of diamonds, he would lose the point."

    A's only diamond is the eight, so his reply to the queen is forced and Y wins
    the first trick; leading the ten of diamonds next (A throws a heart, keeping
    the knave of clubs over Y's ten) leaves Y two tricks."""
    y, a = hand(Y_3), hand(A_3)
    y.remove(card("QD"))
    assert values(impl, y, a, DIAMONDS, ELDER, 0, card("QD")) == {card("8D"): 3}
    y_left, a_left = hand("TC 8C 8H"), hand("JC AH JH TH")
    assert impl.solve(y_left, a_left, DIAMONDS, ELDER, 1, card("TD")) < 3
    # It is the second lead that loses: after Q♦ / 8♦ the ten of clubs still wins.
    after_queen = values(impl, hand("TD TC 8C 8H"), a_left, DIAMONDS, ELDER, 1)
    assert after_queen[card("TD")] < 3 <= after_queen[card("TC")]


# ---------------------------------------------------------------------------
# 4. A deals and turns the nine of diamonds; Y (at 4) plays without proposing.
# ---------------------------------------------------------------------------

Y_4 = "QD JD KS QS AS"          # elder
A_4 = "KD AD AH KC 8S"          # dealer
Y_4_AFTER_KS = "QD JD QS AS"    # after K♠ / 8♠, won by Y, who leads again
A_4_AFTER_KS = "KD AD AH KC"


def test_4_elder_wins_with_correct_play(impl):
    """"Y must win the game if he play correctly" (he is at four: the point is game)."""
    assert impl.solve(hand(Y_4), hand(A_4), DIAMONDS) >= 3


def test_4_second_lead(impl):
    """"Y plays incautiously, and leads as his second lead queen of diamonds ...
    If Y had followed his first lead with queen of spades, he must have won the game."""
    y, a = hand(Y_4), hand(A_4)
    y.remove(card("KS"))
    assert values(impl, y, a, DIAMONDS, ELDER, 0, card("KS")) == {card("8S"): 3}
    second = values(impl, hand(Y_4_AFTER_KS), hand(A_4_AFTER_KS), DIAMONDS, ELDER, 1)
    assert second[card("QD")] < 3
    assert second[card("QS")] >= 3


def test_4_the_hand_as_played():
    """"A wins with king of diamonds, and leads king of clubs, which Y trumps, and leads
    queen of spades, which A trumps, and leads ace of hearts, which wins the game."

    Every card of the narrated play is legal and Y ends with two tricks."""
    start = reference.make_position(hand(Y_4), hand(A_4), DIAMONDS)
    end = replay(start, "KS 8S  QD KD  KC JD  QS AD  AH AS")
    assert end.finished and end.elder_tricks == 2


# ---------------------------------------------------------------------------
# 5. Jeux de règle: ten of spades turned; A (elder) holds two hearts, high and low.
# ---------------------------------------------------------------------------

A_5 = "QC QD QH 8H 8S"          # elder
Y_5 = "KH 9H 9D 7D 9S"          # dealer
SPADES_5 = parse_suit("S")


def _after_queen_of_hearts():
    a = hand(A_5)
    a.remove(card("QH"))
    return a, hand(Y_5)


def test_5_queen_of_hearts_loses_the_point(impl):
    """"If A lead the queen of hearts, he must lose the point" (with best play by Y)."""
    assert values(impl, hand(A_5), hand(Y_5), SPADES_5)[card("QH")] <= 2


def test_5_queen_of_hearts_only_gift():
    """"... no matter how Y plays": the only continuations after the queen of hearts in
    which A makes the point are those where Y throws his nine of hearts on the queen of
    clubs (keeping a diamond), letting A's eight of hearts win the last trick."""
    a, y = _after_queen_of_hearts()
    lines = list(reference.playout_lines(a, y, SPADES_5, ELDER, 0, card("QH")))
    assert lines
    gifts = [plays for plays, total in lines if total >= 3]
    assert gifts
    for plays in gifts:
        i = plays.index((ELDER, card("QC")))
        assert plays[i + 1] == (DEALER, card("9H"))
        assert plays[-2:] in {((ELDER, card("8H")), (DEALER, card("9D"))),
                              ((ELDER, card("8H")), (DEALER, card("7D")))}


def test_5_single_queen_wins_if_dealer_leads_king_of_hearts(impl):
    """"If, however, he lead either of his single queens, he may win the point, if Y,
    after winning the queen of clubs, lead the king of hearts."

    Y, void in clubs, must trump the queen of clubs with his only trump, the nine;
    leading the king of hearts then lets A (keeping his queen, playing the eight)
    make the last three tricks. "May": it is Y's mistake, as Y's best lead holds A
    to two tricks."""
    a, y = hand(A_5), hand(Y_5)
    a.remove(card("QC"))
    assert values(impl, a, y, SPADES_5, ELDER, 0, card("QC")) == {card("9S"): 2}
    a_left, y_left = hand("QD QH 8H 8S"), hand("KH 9H 9D 7D")
    assert impl.solve(a_left, y_left, SPADES_5, DEALER, 0) <= 2
    y_left.remove(card("KH"))
    assert impl.solve(a_left, y_left, SPADES_5, DEALER, 0, card("KH")) >= 3


# ---------------------------------------------------------------------------
# 6. Jeux de règle: diamonds trumps; A (elder) leads from queen-ten of spades.
# ---------------------------------------------------------------------------

A_6 = "QS TS JH TH TD"          # elder
Y_6 = "JS 7S 7H JD 8D"          # dealer


def test_6_queen_of_spades_loses_the_point(impl):
    """"If A lead the queen of spades, he loses the trick."

    (He wins that first trick, as Y's spades are lower; "the trick" is the point:
    Y keeps the knave of spades over A's ten.)"""
    assert values(impl, hand(A_6), hand(Y_6), DIAMONDS)[card("QS")] <= 2


def test_6_knave_then_ten_of_hearts_wins_the_point(impl):
    """"If he lead knave and then ten of hearts, he wins the trick.\""""
    a, y = hand(A_6), hand(Y_6)
    a.remove(card("JH"))
    assert values(impl, a, y, DIAMONDS, ELDER, 0, card("JH")) == {card("7H"): 3}
    a_left, y_left = hand("QS TS TD"), hand("JS 7S JD 8D")
    assert impl.solve(a_left, y_left, DIAMONDS, ELDER, 1, card("TH")) >= 3


# ---------------------------------------------------------------------------
# 7. A jeu de règle beaten: hearts trumps; A holds Q A 7 of trumps, two kings.
# ---------------------------------------------------------------------------

HEARTS = parse_suit("H")
A_7 = "QH AH 7H KS KD"          # elder
Y_7 = "KH JH 9H 8H 9C"          # dealer


def test_7_turn_up_is_the_ten_of_hearts():
    """The two hands hold seven hearts: the turn-up can only be the ten of hearts."""
    hearts = {c for c in hand(A_7) + hand(Y_7) if c >> 3 == HEARTS}
    assert set(hand("KH QH JH AH TH 9H 8H 7H")) - hearts == {card("TH")}


def test_7_dealer_must_win_the_point(impl):
    """"Y holds king, knave, nine, and eight of hearts, and nine of clubs, and must win
    the point.\""""
    assert impl.solve(hand(A_7), hand(Y_7), HEARTS) <= 2
