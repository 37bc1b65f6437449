"""An Écarté deal written as text: the hands, the trump and the turn-up parsed, each bad
token named (:class:`~ecarte_sim.engine.deck.CardError`), and the turn-ups a hand allows.

Plain Python over :mod:`ecarte_sim.engine.deck`, so that a command reads a hand before
any kernel loads; :mod:`ecarte_sim.engine.ecarte.laws.deal` (the deal itself) re-exports it.
"""

from __future__ import annotations

from ecarte_sim.engine.deck import (ECARTE, SUIT_NAMES, CardError, check_disjoint, format_card,
                                    parse_card, parse_hand, parse_suit)

#: Cards in a hand (Law 8).
HAND_SIZE = 5


def parse_trump(trump_text: str, held: list[tuple[str, int]]) -> tuple[int, int | None]:
    """A trump written as a suit (``S``, ``♠``, ``spades``, ``spade``) or as the turned-up card
    (``TH``), which must then be in none of the ``held`` (name, mask) hands.

    Returns ``(trump suit, turn-up card or None)``; raises
    :class:`ecarte_sim.engine.cards.CardError` naming the bad token.
    """
    if not isinstance(trump_text, str) or not trump_text.strip():
        raise CardError("missing trump (a suit such as S or the turned-up card such as TH)",
                        "")
    try:
        return parse_suit(trump_text), None
    except CardError:
        pass
    try:
        turn_up = parse_card(trump_text, ECARTE)
    except CardError:
        token = trump_text.strip()
        raise CardError(f"unknown trump {token!r}: give a suit (S H D C, ♠ ♥ ♦ ♣, hearts "
                        "or heart) or the turned-up card", token) from None
    check_disjoint([*held, ("turn-up", 1 << turn_up)])
    return turn_up >> 3, turn_up


def parse_turn_up(text: str, hand: int, suit: int, turned: int | None) -> int:
    """The turned-up card written as ``text`` (Law 10: its suit is trumps): in neither
    the ``hand`` (mask), of the trump ``suit``, and the card ``turned`` if the trump named
    one; :class:`~ecarte_sim.engine.cards.CardError` names the token otherwise."""
    card = parse_card(text, ECARTE)
    token = text.strip()
    check_disjoint([("hand", hand), ("turn-up", 1 << card)])
    if card >> 3 != suit:
        raise CardError(f"turn-up {token!r} is not of the trump suit "
                        f"({SUIT_NAMES[suit]})", token)
    if turned is not None and card != turned:
        raise CardError(f"turn-up {token!r} is not the card the trump names "
                        f"({format_card(turned, ECARTE)})", token)
    return card


def parse_deal(elder_text: str, dealer_text: str, trump_text: str) -> tuple[int, int, int, int | None]:
    """Parse a deal written as text: two 5-card hands and a trump (see :func:`parse_trump`).

    Returns ``(elder mask, dealer mask, trump suit, turn-up card or None)``; raises
    :class:`ecarte_sim.engine.cards.CardError` naming the bad token.
    """
    elder = int(parse_hand(elder_text, HAND_SIZE, ECARTE, "elder hand"))
    dealer = int(parse_hand(dealer_text, HAND_SIZE, ECARTE, "dealer hand"))
    held = [("elder hand", elder), ("dealer hand", dealer)]
    check_disjoint(held)
    trump, turn_up = parse_trump(trump_text, held)
    return elder, dealer, trump, turn_up


def turn_ups(hand: int, suit: int, turned: int | None) -> list[int]:
    """The turn-ups ``hand`` may be dealt with when the trump ``suit`` is known: the card
    ``turned`` when it is, else every card of the suit not in the hand (each equally
    likely), in card order."""
    if turned is not None:
        return [int(turned)]
    return [c for c in range(8 * suit, 8 * suit + 8) if not (int(hand) >> c) & 1]
