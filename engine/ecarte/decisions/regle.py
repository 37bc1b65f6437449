"""The *jeux de règle*: hands "which ought to be played without proposing" (Hoyle's Games Modernized).

Hoyle's list, in its own words, and the name each rule gets here:

======  ==========================  ======================================================
id      name                        Hoyle's Games Modernized
======  ==========================  ======================================================
1       ``three-trumps``            "With three trumps, play without proposing."
2       ``two-trumps-one-suit``     "Likewise with two trumps, if the other cards belong
                                    to one suit,"
3       ``two-trumps-court-pair``   "or with two cards of one suit, one of which is the
                                    king or queen."
4       ``one-trump-four-king``     "Play if holding only one trump, provided the other
                                    cards are four of one suit, one being a king,"
5       ``one-trump-three-court``   "or three cards of one suit, one being a king or queen,
                                    and the fifth card being a king or queen."
6       ``no-trump-three-queens``   "Play with no trump if three queens are held,"
7       ``no-trump-four-courts``    "or four court cards."
======  ==========================  ======================================================

Readings (where the text leaves a choice):

* "three trumps" is *at least* three (four or five trumps are stronger still);
  every other rule counts trumps exactly (two, one, none).
* Rule 3: among the three plain cards, two of one suit including its king or
  queen; the third card is free.
* Rule 5: one of the four plain cards is a king or queen and the other three
  are of one suit and include a king or queen.
* Court cards are the king, queen and knave (the ace is not a court card).
* When several rules fit, the first in the list names the hand.

The list does not cover every example the treatise gives: its first example,
"King, queen, knave of spades, eight of hearts (trumps), eight of diamonds",
has one trump and three of a suit but a fifth card that is neither king nor
queen, so by the list (rule 5) it is *not* a jeu de règle. The classifier
follows the list; the example is kept as a test of that reading.

This module is numpy alone, no numba, so that a hand is classified and explained
in a process that starts quickly: :func:`rules_met` (which rules each of many hands meets,
vectorised), :func:`rule_of` and :func:`classify` (the rule that names one hand),
:func:`misses` and :func:`explain` (why a hand is or is not one, and the nearest rule it
misses). The simulators' kernel is :func:`ecarte_sim.engine.ecarte.decisions.regle_kernel.regle_rule`;
an independent plain-Python reading lives in
:func:`ecarte_sim.engine.ecarte.reference.jeu_de_regle`. Tests compare all three.

>>> from ecarte_sim.engine.deck import parse_hand, parse_suit
>>> classify(parse_hand("QH AH 7H KS KD"), parse_suit("H"))
'three-trumps'
>>> classify(parse_hand("KS QS JS 8H 8D"), parse_suit("H")) is None   # the first example
True
>>> why = explain(parse_hand("KS QS JS 8H 8D"), parse_suit("H"))["nearest"]
>>> why["rule"], why["exchange"]
('one-trump-four-king', {'out': '8D', 'in': '7S', 'gives': 'KS QS JS 7S 8H'})
"""

from __future__ import annotations

import numpy as np

from ecarte_sim.engine.deck import SUIT_NAMES, CardError, format_card

RULES = ("three-trumps", "two-trumps-one-suit", "two-trumps-court-pair",
         "one-trump-four-king", "one-trump-three-court", "no-trump-three-queens",
         "no-trump-four-courts")
NONE = 0

# Rank bits inside a suit byte (Écarté order 7 8 9 10 A J Q K = bits 0..7), in all suits.
KING = 0x80808080
QUEEN = 0x40404040
KNAVE = 0x20202020
#: The court cards: king, queen and knave (the ace is not a court card).
COURT = KING | QUEEN | KNAVE

#: Cards in each byte value: a suit's cards counted by table look-up.
_BYTE_COUNT = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)


def _cards_in(cards: np.ndarray) -> np.ndarray:
    """Cards in each mask of ``cards`` (uint32 array)."""
    cards = cards.astype(np.uint32)
    return sum(_BYTE_COUNT[(cards >> np.uint32(8 * s)) & np.uint32(0xFF)] for s in range(4))


def rules_met(hands, trump: int) -> np.ndarray:
    """Which rules of the list each five-card hand meets, each on its own (whether or not
    an earlier rule also fits): a (7, n) boolean array, row ``r - 1`` for rule ``r``.
    Read suit by suit: each hand's four suit bytes, and per suit its cards and its kings
    and queens counted by table look-up."""
    hands = np.atleast_1d(np.asarray(hands, dtype=np.uint32))
    suits = np.stack([(hands >> np.uint32(8 * s)) & np.uint32(0xFF) for s in range(4)])
    trump = int(trump)
    trumps = _BYTE_COUNT[suits[trump]]
    plain = np.delete(suits, trump, axis=0)              # the three plain suits' bytes
    held = _BYTE_COUNT[plain]                            # cards per plain suit
    kings_queens = _BYTE_COUNT[plain & np.uint32(0xC0)]  # kings and queens per plain suit
    plain_cards = held.sum(axis=0)
    one_suit = (held == plain_cards).any(axis=0) & (plain_cards > 0)
    court_pair = ((held >= 2) & (kings_queens >= 1)).any(axis=0)
    # rule 5 (four plain cards): a king or queen, and three of one suit with a king or
    # queen — three of a suit with one and the fourth card a king or queen elsewhere, or
    # all four of one suit with two of them kings or queens
    others = kings_queens.sum(axis=0) - kings_queens
    three_and_court = (((held == 3) & (kings_queens >= 1) & (others >= 1))
                       | ((held == 4) & (kings_queens >= 2))).any(axis=0)
    kings = _BYTE_COUNT[plain & np.uint32(0x80)].sum(axis=0)
    queens = _BYTE_COUNT[suits & np.uint32(0x40)].sum(axis=0)
    courts = _BYTE_COUNT[suits & np.uint32(0xE0)].sum(axis=0)
    no_trump = trumps == 0
    return np.stack([trumps >= 3,
                     (trumps == 2) & one_suit,
                     (trumps == 2) & court_pair,
                     (trumps == 1) & one_suit & (kings >= 1),
                     (trumps == 1) & three_and_court,
                     no_trump & (queens >= 3),
                     no_trump & (courts >= 4)])


def rule_of(hand: int, trump: int) -> int:
    """The id (1-7) of the first rule of the list ``hand`` meets, or 0 (:data:`NONE`)."""
    met = rules_met([int(hand)], trump)[:, 0]
    return int(met.argmax()) + 1 if met.any() else NONE


def classify(hand: int, trump: int) -> str | None:
    """Name of the rule of the list that makes ``hand`` a jeu de règle, or None."""
    if bin(int(hand)).count("1") != 5 or not 0 <= int(hand) < 1 << 32:
        raise CardError("a jeu de règle is judged on a hand of five cards", None)
    if not 0 <= int(trump) <= 3:
        raise CardError(f"trump suit must be 0-3, got {trump!r}", str(trump))
    rule = rule_of(hand, int(trump))
    return RULES[rule - 1] if rule else None


# --------------------------------------------------------------------------- explanations
# Python-level helpers for the text a player reads: a readable name and Hoyle's words for
# each rule, which rule a hand meets (each on its own, not only the first), and the
# nearest rule a hand misses and by what. None of them changes what :func:`rule_of` says.

#: A readable name of each rule (id 1-7), as a player says it.
RULE_NAMES = (
    "three trumps",
    "two trumps, the other three cards of one suit",
    "two trumps, and a king or queen with another card of its suit",
    "one trump, the other four of one suit with the king",
    "one trump, three of a suit with a king or queen, and a fifth king or queen",
    "no trump, three queens",
    "no trump, four court cards",
)

#: Hoyle's own words for each rule (Hoyle's Games Modernized, "Écarté", Jeux de Règle).
RULE_WORDS = (
    "With three trumps, play without proposing.",
    "Likewise with two trumps, if the other cards belong to one suit",
    "[with two trumps] or with two cards of one suit, one of which is the king or queen.",
    "Play if holding only one trump, provided the other cards are four of one suit, one "
    "being a king",
    "[Play if holding only one trump, provided the other cards are] three cards of one suit, "
    "one being a king or queen, and the fifth card being a king or queen.",
    "Play with no trump if three queens are held",
    "[Play with no trump if] four court cards [are held].",
)

#: The number of trumps each rule is for (rule 1: three or more).
RULE_TRUMPS = (3, 2, 2, 1, 1, 0, 0)

#: What the list asks of a hand with 0, 1 or 2 trumps (three or more always play).
LIST_ASKS = {
    2: "with two trumps the list plays if the other three cards are of one suit (rule 2), "
       "or two of them are of one suit, one being its king or queen (rule 3)",
    1: "with one trump the list plays if the other four are of one suit with the king "
       "(rule 4), or three of one suit with a king or queen and the fifth a king or queen "
       "(rule 5)",
    0: "with no trump the list plays with three queens (rule 6) or four court cards (rule 7)",
}


def all_hands() -> np.ndarray:
    """Every five-card hand of the 32 cards, as bit masks (C(32, 5) = 201,376; in no
    particular order)."""
    hands, top = np.zeros(1, dtype=np.uint32), np.full(1, -1)
    for _ in range(5):
        grow = [(hands[top < c] | np.uint32(1 << c), np.full(int((top < c).sum()), c))
                for c in range(32)]
        hands = np.concatenate([h for h, _ in grow])
        top = np.concatenate([t for _, t in grow])
    return hands


_TARGETS: list | None = None


def _targets() -> list:
    """Per rule, the hands (trumps = spades) that meet it (built once)."""
    global _TARGETS
    if _TARGETS is None:
        hands = all_hands()
        met = rules_met(hands, 0)
        _TARGETS = [hands[met[r]] for r in range(7)]
    return _TARGETS


def _overlaps(hand: int, exclude: int, targets: np.ndarray) -> np.ndarray:
    """Cards in common between ``hand`` and each target (-1 for a target holding a card
    of ``exclude``)."""
    over = _cards_in(targets & np.uint32(hand))
    over[(targets & np.uint32(exclude)) != 0] = -1
    return over


def _swap_suits(mask: int, trump: int) -> int:
    """``mask`` with the suits ``trump`` and spades exchanged (an involution)."""
    mask = int(mask)
    if trump == 0:
        return mask
    lo, hi = mask & 0xFF, (mask >> (8 * trump)) & 0xFF
    mask &= ~(0xFF | (0xFF << (8 * trump)))
    return mask | hi | (lo << (8 * trump))


def _cards(mask: int) -> list[int]:
    """Card indices of ``mask``, the highest of each suit first (suits S H D C)."""
    return sorted((c for c in range(32) if mask >> c & 1), key=lambda c: (c >> 3, -(c & 7)))


def _text(mask: int) -> str:
    return " ".join(format_card(c) for c in _cards(mask))


def _weakness(card: int, trump: int) -> int:
    """The discard order of :func:`ecarte_sim.engine.ecarte.decisions.policies.weakness`."""
    return 32 * ((card >> 3) == trump) + 4 * (card & 7) + (card >> 3)


def _best_swap(hand: int, trump: int, rule: int, exclude: int) -> tuple[int, int, int]:
    """(fewest cards to exchange, cards out, cards in) for ``hand`` to meet ``rule``: the
    weakest cards out and the lowest cards in among the closest hands (none of
    ``exclude``)."""
    h0 = _swap_suits(hand, trump)
    x0 = _swap_suits(exclude & ~hand & 0xFFFFFFFF, trump)
    targets = _targets()[rule - 1]
    over = _overlaps(h0, x0, targets)
    best = int(over.max())
    swap, best_key = (0, 0), None
    for t in targets[over == best]:
        t = _swap_suits(int(t), trump)
        gone, come = hand & ~t, t & ~hand
        key = (sorted((_weakness(c, trump) for c in _cards(gone)), reverse=True),
               sorted((_weakness(c, trump) for c in _cards(come)), reverse=True))
        if best_key is None or key < best_key:
            best_key, swap = key, (gone, come)
    return 5 - best, swap[0], swap[1]


def misses(hand: int, trump: int, exclude: int = 0) -> list[dict]:
    """For each rule of the list (in order): ``{"rule", "fits", "short_by"}``: whether
    ``hand`` meets it, and the fewest of its cards that must be exchanged for others (none
    of ``exclude``, e.g. the turn-up) for it to meet it (0 when it does)."""
    hand, trump = int(hand), int(trump)
    h0 = _swap_suits(hand, trump)
    x0 = _swap_suits(int(exclude) & ~hand & 0xFFFFFFFF, trump)
    met = rules_met([hand], trump)[:, 0]
    return [{"rule": r, "fits": bool(met[r - 1]),
             "short_by": 5 - int(_overlaps(h0, x0, targets).max())}
            for r, targets in enumerate(_targets(), 1)]


def _count(n: int, one: str, many: str | None = None) -> str:
    words = ("no", "one", "two", "three", "four", "five")
    return f"{words[n] if n < len(words) else n} {one if n == 1 else many or one + 's'}"


def _what_is_missing(hand: int, trump: int, rule: int, person: str = "you") -> str:
    """Why ``hand`` does not meet ``rule``, in a player's words (``person``: "you" or
    "he")."""
    hold, your = ("you hold", "your") if person == "you" else ("he holds", "his")
    trumps = hand & (0xFF << (8 * trump))
    plain = hand & ~trumps
    n = bin(trumps).count("1")
    held = f" ({_text(trumps)})" if trumps else ""
    need = RULE_TRUMPS[rule - 1]
    if rule == 1 or n != need:
        needs = ("none", "one", "two", "three")[need]
        return f"{hold} {_count(n, 'trump')}{held}; the rule needs {needs}"
    suits = {}
    for c in _cards(plain):
        suits.setdefault(c >> 3, []).append(c)
    groups = sorted(suits.values(), key=len, reverse=True)
    kq = 0xC0C0C0C0
    listing = "; ".join(_text(sum(1 << c for c in g)) for g in groups)
    if rule == 2:
        return f"{your} three plain cards are of {_count(len(groups), 'suit')} ({listing})"
    if rule == 3:
        courts = [c for c in _cards(plain) if (1 << c) & kq]
        if not courts:
            return f"{hold} no king or queen outside trumps"
        return (f"no king or queen of {'yours' if person == 'you' else 'his'} has another "
                "card of its suit ("
                + ", ".join(f"{_text(1 << c)} stands alone" for c in courts) + ")")
    if rule == 4:
        if len(groups) > 1:
            return f"{your} four plain cards are of {_count(len(groups), 'suit')} ({listing})"
        return f"{your} four {SUIT_NAMES[groups[0][0] >> 3]} have no king"
    if rule == 5:
        longest = groups[0]
        name = SUIT_NAMES[longest[0] >> 3]
        if len(longest) < 3:
            return (f"{hold} no three cards of one suit (at most {_count(len(longest), 'card')}"
                    f" of a suit: {_text(sum(1 << c for c in longest))})")
        three = sum(1 << c for c in longest)
        if not three & kq:
            return f"{your} {name} ({_text(three)}) have no king or queen"
        if len(longest) == 4:
            return (f"{your} four {name} ({_text(three)}) hold one king or queen only: the "
                    "rule needs one among the three and another as the fifth card")
        fifth = plain & ~three
        return f"{your} fifth card, {_text(fifth)}, is neither a king nor a queen"
    if rule == 6:
        queens = hand & 0x40404040
        return f"{hold} {_count(bin(queens).count('1'), 'queen')}" + (
            f" ({_text(queens)})" if queens else "")
    courts = hand & COURT
    return f"{hold} {_count(bin(courts).count('1'), 'court card')}" + (
        f" ({_text(courts)})" if courts else "")


def explain(hand: int, trump: int, exclude: int = 0, person: str = "you") -> dict:
    """Why ``hand`` is or is not a jeu de règle (Python level; the verdict is
    :func:`rule_of`'s): ``{"rule", "rule_id", "rule_name", "words", "reason",
    "nearest"}``. When no rule fits, ``reason`` says what the list asks for the hand's
    number of trumps and ``nearest`` gives the closest rule (fewest cards to exchange; on a
    tie, one for the hand's own number of trumps, then the list's order), what the hand
    lacks for it, an exchange that would make it (no card of ``exclude`` drawn), and
    (``also``) the other rules missed by as few cards."""
    hand, trump = int(hand), int(trump)
    rule = rule_of(hand, trump)
    if rule:
        return {"rule": RULES[rule - 1], "rule_id": rule, "rule_name": RULE_NAMES[rule - 1],
                "words": RULE_WORDS[rule - 1],
                "reason": f"{RULE_NAMES[rule - 1]}: {_holds(hand, trump, rule)}",
                "nearest": None}
    n_trumps = bin(hand & (0xFF << (8 * trump))).count("1")
    rows = misses(hand, trump, exclude)
    best = min(rows, key=lambda m: (m["short_by"], RULE_TRUMPS[m["rule"] - 1] != n_trumps,
                                    m["rule"]))
    r = best["rule"]
    short, gone, come = _best_swap(hand, trump, r, int(exclude))
    nearest = {"rule": RULES[r - 1], "rule_id": r, "rule_name": RULE_NAMES[r - 1],
               "words": RULE_WORDS[r - 1], "short_by": short,
               "missing": _what_is_missing(hand, trump, r, person),
               "exchange": {"out": _text(gone), "in": _text(come),
                            "gives": _text((hand & ~gone) | come)},
               "also": [{"rule": RULES[m["rule"] - 1], "rule_id": m["rule"],
                         "rule_name": RULE_NAMES[m["rule"] - 1],
                         "missing": _what_is_missing(hand, trump, m["rule"], person)}
                        for m in rows if m["short_by"] == short and m["rule"] != r]}
    return {"rule": None, "rule_id": 0, "rule_name": None, "words": None,
            "reason": LIST_ASKS[min(n_trumps, 2)], "nearest": nearest}


def _holds(hand: int, trump: int, rule: int) -> str:
    """The cards of ``hand`` that meet ``rule`` (which it does): trumps first."""
    trumps = hand & (0xFF << (8 * trump))
    plain = hand & ~trumps
    kq = 0xC0C0C0C0
    if rule == 1:
        return _text(trumps)
    if rule in (2, 4):
        return f"{_text(trumps)} and {_text(plain)}"
    if rule == 3:
        for s in range(4):
            cards = plain & (0xFF << (8 * s))
            if bin(cards).count("1") >= 2 and cards & kq:
                return f"{_text(trumps)} and {_text(cards)}"
    if rule == 5:
        for c in _cards(plain & kq):
            three = plain & ~(1 << c)
            if len({x >> 3 for x in _cards(three)}) == 1 and three & kq:
                return f"{_text(trumps)}, {_text(three)} and {_text(1 << c)}"
    if rule == 6:
        return _text(hand & 0x40404040)
    return _text(hand & COURT)
