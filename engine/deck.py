"""The 32-card piquet pack as bits, and as text: one layout for every game in ecarte-sim.

A card is a bit index ``suit * 8 + rank``; a hand (or any set of cards) is a
``uint32`` mask with one bit per card::

    bit   31 ........ 24   23 ........ 16   15 ......... 8   7 .......... 0
          +--------------+----------------+----------------+--------------+
    suit  |  3  clubs  ♣ |  2 diamonds  ♦ |  1  hearts   ♥ |  0 spades  ♠ |
          +--------------+----------------+----------------+--------------+
    rank   7 6 5 4 3 2 1 0   (inside every suit: bit 0 = lowest card)

    Écarté order (default)  rank: 0  1  2  3   4  5  6  7
                                  7  8  9  10  A  J  Q  K
    Piquet order            rank: 0  1  2  3   4  5  6  7
                                  7  8  9  10  J  Q  K  A

The rank order is the game's parameter (a :class:`Deck`), so in either game
"a higher card of the same suit" is simply a higher bit of the same byte, and
"every card of this suit above c" is ``SUIT_MASK[s] & ~((2 << c) - 1)``
(:data:`ecarte_sim.engine.cards.SUIT_MASK`).
The same bit therefore names a different card in each game (bit 4 is the ace
of spades in Écarté, the knave of spades in Piquet): parse and format with
the game's deck.

Text notation (parsing is lenient, formatting canonical):

* a card is a rank then a suit: ``KS``, ``10H``, ``TH``, ``qh``, ``Q♥``,
  ``7♣`` (``T``/``10`` for ten; suits ``S H D C`` or ``♠ ♥ ♦ ♣`` / ``♤ ♡ ♢ ♧``);
* a hand is cards separated by spaces and/or commas;
* :func:`format_hand` writes canonical ASCII (``KS QS TH``: suits in the
  order S H D C, high card first, ``T`` for ten) or the pretty form
  (``K♠ Q♠ 10♥``).

Every malformed input raises :class:`CardError`, whose message names the
offending token; nothing else escapes the parsers.

>>> format_hand(parse_hand("kd, Q♥ AH 7H KS"))
'KS QH AH 7H KD'
>>> parse_card("10H") == parse_card("TH") == card_index(1, 3)
True
>>> parse_hand("KS KS")
Traceback (most recent call last):
...
ecarte_sim.engine.deck.CardError: duplicate card 'KS' in hand

Plain Python (numpy for the ``uint32`` masks, no numba), so that a command reads a hand
without loading the kernels; :mod:`ecarte_sim.engine.cards` re-exports all of it beside
the bit helpers the kernels inline.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

N_SUITS = 4
N_RANKS = 8
N_CARDS = 32

SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
_SUIT_ALIASES = {
    "S": 0, "♠": 0, "♤": 0,
    "H": 1, "♥": 1, "♡": 1,
    "D": 2, "♦": 2, "♢": 2,
    "C": 3, "♣": 3, "♧": 3,
}

class CardError(ValueError):
    """Bad card notation or an impossible deal; ``token`` is the offending text."""

    def __init__(self, message: str, token: str | None = None):
        super().__init__(message)
        self.token = token


@dataclass(frozen=True)
class Deck:
    """A game's rank order: ``ranks[r]`` is the card of rank ``r`` (low to high)."""

    name: str
    ranks: tuple[str, ...]

    def rank_index(self, symbol: str) -> int:
        return self.ranks.index(symbol)


#: Écarté: K Q J A 10 9 8 7 (the ace between the knave and the ten).
ECARTE = Deck("ecarte", ("7", "8", "9", "T", "A", "J", "Q", "K"))
#: Piquet: A K Q J 10 9 8 7.
PIQUET = Deck("piquet", ("7", "8", "9", "T", "J", "Q", "K", "A"))

_RANK_ALIASES = {"10": "T", "T": "T", "A": "A", "K": "K", "Q": "Q", "J": "J",
                 "9": "9", "8": "8", "7": "7"}


def card_index(suit: int, rank: int) -> int:
    """Bit index of the card of ``rank`` (0 = lowest) in ``suit``."""
    return suit * N_RANKS + rank


def card_bit(card: int) -> np.uint32:
    return np.uint32(1) << np.uint32(card)


def suit_of(card: int) -> int:
    return card >> 3


def rank_of(card: int) -> int:
    return card & 7


def parse_suit(token: str) -> int:
    """Suit index from ``S``/``♠``/``spades``/``spade`` (any case)."""
    if not isinstance(token, str):
        raise CardError(f"not a suit: {token!r}", repr(token))
    t = token.strip()
    if t in _SUIT_ALIASES:                      # a symbol, or an upper-case letter
        return _SUIT_ALIASES[t]
    if t.isascii():                             # no case-folding look-alikes (ſ -> S)
        if t.upper() in _SUIT_ALIASES:
            return _SUIT_ALIASES[t.upper()]
        if t.lower() in SUIT_NAMES:
            return SUIT_NAMES.index(t.lower())
        if t.lower() + "s" in SUIT_NAMES:       # the singular: heart, spade
            return SUIT_NAMES.index(t.lower() + "s")
    raise CardError(f"unknown suit {t!r} (use S H D C, ♠ ♥ ♦ ♣ or a name: hearts, heart)", t)


def parse_card(token: str, deck: Deck = ECARTE) -> int:
    """Bit index of one card written like ``KS``, ``10h``, ``Q♥``."""
    if not isinstance(token, str):
        raise CardError(f"not a card: {token!r}", repr(token))
    t = token.strip()
    if len(t) < 2 or len(t) > 3:
        raise CardError(f"unknown card {t!r}", t)
    rank_text, suit_text = t[:-1], t[-1]
    if suit_text.isascii():                     # upper-case ASCII only: 'ſ'.upper() == 'S'
        suit_text = suit_text.upper()
    rank_symbol = _RANK_ALIASES.get(rank_text.upper()) if rank_text.isascii() else None
    if rank_symbol is None or suit_text not in _SUIT_ALIASES:
        raise CardError(f"unknown card {t!r}", t)
    return card_index(_SUIT_ALIASES[suit_text], deck.rank_index(rank_symbol))


def split_tokens(text: str) -> list[str]:
    """Split a hand written with spaces and/or commas into card tokens."""
    if not isinstance(text, str):
        raise CardError(f"not a hand: {text!r}", repr(text))
    return [t for t in text.replace(",", " ").split() if t]


def parse_hand(text: str, size: int | None = None, deck: Deck = ECARTE,
               name: str = "hand") -> np.uint32:
    """Mask of a hand such as ``"KS QS 10H"``; ``size`` checks the card count.

    Raises :class:`CardError` naming the token for an unknown card, a card
    written twice, or the wrong number of cards.
    """
    mask = 0
    tokens = split_tokens(text)
    for token in tokens:
        bit = 1 << parse_card(token, deck)
        if mask & bit:
            raise CardError(f"duplicate card {token!r} in {name}", token)
        mask |= bit
    if size is not None and len(tokens) != size:
        raise CardError(f"{name} {text.strip()!r} has {len(tokens)} cards, expected {size}",
                        text.strip())
    return np.uint32(mask)


def card_of(value, what: str, deck: Deck = ECARTE) -> int:
    """One card given as text (``"KS"``) or as its index 0..31; ``what`` names it in the
    :class:`CardError` of an index out of range."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if not 0 <= int(value) < N_CARDS:
            raise CardError(f"{what} {value!r} is not a card index 0..31", str(value))
        return int(value)
    return parse_card(str(value), deck)


def card_set(value, what: str, deck: Deck = ECARTE) -> int:
    """A set of cards as a mask, given as text (``"9S 8D"``; ``-`` or nothing for none), as
    a mask (an int, 0 to 2**32 - 1) or as a sequence of cards (texts or indices 0..31).

    ``what`` names the set in the messages (``"hand"``, ``"discard"``): a
    :class:`CardError` names an unknown card, a card written twice (``duplicate card 'KS'
    in the hand``) or a number that is not a card or a mask.
    """
    if value is None:
        return 0
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if not 0 <= int(value) < 1 << N_CARDS:
            raise CardError(f"the {what} {value!r} is not a set of cards (a 32-bit mask)",
                            str(value))
        return int(value)
    tokens = split_tokens(value) if isinstance(value, str) else list(value)
    mask = 0
    for t in tokens:
        if isinstance(t, str) and t.strip() == "-":
            continue
        c = card_of(t, f"card of the {what}", deck)
        if mask >> c & 1:
            token = format_card(c, deck)
            raise CardError(f"duplicate card {token!r} in the {what}", token)
        mask |= 1 << c
    return mask


def card_list(value, what: str, deck: Deck = ECARTE) -> list[int]:
    """Cards in the order given (e.g. the cards played), as text (``"KS 8S QD"``) or a
    sequence of texts or indices 0..31; ``None`` for none. ``what`` names them in the
    messages (``"played"``: ``card played 40 is not a card index 0..31``)."""
    if value is None:
        return []
    tokens = split_tokens(value) if isinstance(value, str) else list(value)
    return [card_of(t, f"card {what}", deck) for t in tokens]


def cards_of(mask: int) -> list[int]:
    """Bit indices of a mask, in canonical order (suit S H D C, high card first)."""
    mask = int(mask)
    return [card_index(s, r) for s in range(N_SUITS) for r in range(N_RANKS - 1, -1, -1)
            if mask >> card_index(s, r) & 1]


def format_card(card: int, deck: Deck = ECARTE, pretty: bool = False) -> str:
    rank = deck.ranks[rank_of(card)]
    if pretty:
        return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit_of(card)]
    return rank + SUIT_LETTERS[suit_of(card)]


def format_hand(mask: int, deck: Deck = ECARTE, pretty: bool = False) -> str:
    """``KS QS TH`` (canonical ASCII) or ``K♠ Q♠ 10♥`` (pretty)."""
    return " ".join(format_card(c, deck, pretty) for c in cards_of(mask))


def format_cards(cards, deck: Deck = ECARTE, pretty: bool = False) -> str:
    """A sequence of cards in the order given (e.g. a stock, top first)."""
    return " ".join(format_card(int(c), deck, pretty) for c in cards)


def check_disjoint(named_masks: list[tuple[str, int]], deck: Deck = ECARTE) -> None:
    """Raise :class:`CardError` naming the first card held in two places."""
    seen: dict[int, str] = {}
    for name, mask in named_masks:
        for card in cards_of(mask):
            if card in seen:
                token = format_card(card, deck)
                raise CardError(f"card {token!r} is in both the {seen[card]} and the {name}",
                                token)
            seen[card] = name
