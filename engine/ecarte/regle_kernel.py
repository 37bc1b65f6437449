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

:func:`regle_rule` is the numba kernel (rule id, 0 = none) for the simulators;
:func:`classify` is the Python entry point. An independent plain-Python
reading lives in :func:`ecarte_sim.engine.ecarte.reference.jeu_de_regle`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import CardError, bit_index, lowest_bit, popcount32, suit_mask

RULES = ("three-trumps", "two-trumps-one-suit", "two-trumps-court-pair",
         "one-trump-four-king", "one-trump-three-court", "no-trump-three-queens",
         "no-trump-four-courts")
NONE = 0

# Rank bits inside a suit byte (Écarté order 7 8 9 10 A J Q K = bits 0..7).
_KING = np.uint32(0x80808080)
_QUEEN = np.uint32(0x40404040)
_KNAVE = np.uint32(0x20202020)


@njit(cache=True)
def _court_pair_in(plain):
    """Some suit holds at least two plain cards, one of them its king or queen."""
    for suit in range(4):
        cards = plain & suit_mask(suit)
        if popcount32(cards) >= 2 and cards & (_KING | _QUEEN):
            return True
    return False


@njit(cache=True)
def _one_suit(plain):
    """All the plain cards are of one suit (the suit of the lowest, say)."""
    plain = np.uint32(plain)
    if plain == 0:
        return False
    suit = bit_index(lowest_bit(plain)) >> 3
    return (plain & ~suit_mask(suit) & np.uint32(0xFFFFFFFF)) == 0


@njit(cache=True)
def _three_court_and_court(plain):
    """One plain card is a king or queen and the other three are of one suit,
    with a king or queen among them (rule 5)."""
    rest = plain
    while rest:
        card = rest & (~rest + np.uint32(1))
        rest ^= card
        if card & (_KING | _QUEEN):
            three = plain ^ card
            if _one_suit(three) and three & (_KING | _QUEEN):
                return True
    return False


@njit(cache=True)
def regle_rule(hand, trump):
    """Rule id (1–7, see ``RULES``) of a five-card hand, or 0 if it is no jeu de règle."""
    hand = np.uint32(hand)
    trumps = popcount32(hand & suit_mask(trump))
    plain = hand & ~suit_mask(trump) & np.uint32(0xFFFFFFFF)
    if trumps >= 3:
        return 1
    if trumps == 2:
        if _one_suit(plain):
            return 2
        if _court_pair_in(plain):
            return 3
        return NONE
    if trumps == 1:  # four plain cards
        if _one_suit(plain) and plain & _KING:
            return 4
        if _three_court_and_court(plain):
            return 5
        return NONE
    if popcount32(hand & _QUEEN) >= 3:
        return 6
    if popcount32(hand & (_KING | _QUEEN | _KNAVE)) >= 4:
        return 7
    return NONE


def classify(hand: int, trump: int) -> str | None:
    """Name of the rule of the list that makes ``hand`` a jeu de règle, or None."""
    if bin(int(hand)).count("1") != 5 or not 0 <= int(hand) < 1 << 32:
        raise CardError("a jeu de règle is judged on a hand of five cards", None)
    if not 0 <= int(trump) <= 3:
        raise CardError(f"trump suit must be 0-3, got {trump!r}", str(trump))
    rule = int(regle_rule(np.uint32(hand), int(trump)))
    return RULES[rule - 1] if rule else None


# --------------------------------------------------------------------------- explanations
# Python-level helpers for the text a player reads: a readable name and Hoyle's words for
# each rule, which rule a hand meets (each on its own, not only the first), and the
# nearest rule a hand misses and by what. None of them changes what ``regle_rule`` says.

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

_COURT = np.uint32(0xE0E0E0E0)


@njit(cache=True)
def rule_fits(hand, trump, rule):
    """True if ``hand`` meets rule ``rule`` (1-7) of the list, whether or not an earlier
    rule also fits (``regle_rule`` names the first that fits)."""
    hand = np.uint32(hand)
    trumps = popcount32(hand & suit_mask(trump))
    plain = hand & ~suit_mask(trump) & np.uint32(0xFFFFFFFF)
    if rule == 1:
        return trumps >= 3
    if rule == 2:
        return trumps == 2 and _one_suit(plain)
    if rule == 3:
        return trumps == 2 and _court_pair_in(plain)
    if rule == 4:
        return trumps == 1 and _one_suit(plain) and (plain & _KING) != 0
    if rule == 5:
        return trumps == 1 and _three_court_and_court(plain)
    if rule == 6:
        return trumps == 0 and popcount32(hand & _QUEEN) >= 3
    if rule == 7:
        return trumps == 0 and popcount32(hand & (_KING | _QUEEN | _KNAVE)) >= 4
    return False


@njit(cache=True)
def _rule_hands():
    """Every five-card hand (trumps = suit 0) and, per rule, whether it meets it."""
    n = 201376  # C(32, 5)
    hands = np.empty(n, dtype=np.uint32)
    fits = np.zeros((7, n), dtype=np.bool_)
    k = 0
    for a in range(32):
        for b in range(a + 1, 32):
            for c in range(b + 1, 32):
                for d in range(c + 1, 32):
                    for e in range(d + 1, 32):
                        h = ((np.uint32(1) << np.uint32(a)) | (np.uint32(1) << np.uint32(b))
                             | (np.uint32(1) << np.uint32(c)) | (np.uint32(1) << np.uint32(d))
                             | (np.uint32(1) << np.uint32(e)))
                        hands[k] = h
                        for r in range(7):
                            fits[r, k] = rule_fits(h, 0, r + 1)
                        k += 1
    return hands, fits


@njit(cache=True)
def _overlaps(hand, exclude, targets):
    """Cards in common between ``hand`` and each target (-1 for a target holding a card
    of ``exclude``)."""
    out = np.empty(targets.size, dtype=np.int64)
    for i in range(targets.size):
        t = targets[i]
        out[i] = -1 if t & exclude else popcount32(t & hand)
    return out


_TARGETS: list | None = None


def _targets() -> list:
    """Per rule, the hands (trumps = spades) that meet it (built once)."""
    global _TARGETS
    if _TARGETS is None:
        hands, fits = _rule_hands()
        _TARGETS = [hands[fits[r]] for r in range(7)]
    return _TARGETS


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
    from ecarte_sim.engine.cards import format_card
    return " ".join(format_card(c) for c in _cards(mask))


def _weakness(card: int, trump: int) -> int:
    """The discard order of :func:`ecarte_sim.engine.ecarte.policies.weakness`."""
    return 32 * ((card >> 3) == trump) + 4 * (card & 7) + (card >> 3)


def _best_swap(hand: int, trump: int, rule: int, exclude: int) -> tuple[int, int, int]:
    """(fewest cards to exchange, cards out, cards in) for ``hand`` to meet ``rule``: the
    weakest cards out and the lowest cards in among the closest hands (none of
    ``exclude``)."""
    h0 = _swap_suits(hand, trump)
    x0 = _swap_suits(exclude & ~hand & 0xFFFFFFFF, trump)
    targets = _targets()[rule - 1]
    over = _overlaps(np.uint32(h0), np.uint32(x0), targets)
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
    h0 = np.uint32(_swap_suits(hand, trump))
    x0 = np.uint32(_swap_suits(int(exclude) & ~hand & 0xFFFFFFFF, trump))
    return [{"rule": r, "fits": bool(rule_fits(np.uint32(hand), trump, r)),
             "short_by": 5 - int(_overlaps(h0, x0, targets).max())}
            for r, targets in enumerate(_targets(), 1)]


def _count(n: int, one: str, many: str | None = None) -> str:
    words = ("no", "one", "two", "three", "four", "five")
    return f"{words[n] if n < len(words) else n} {one if n == 1 else many or one + 's'}"


def _what_is_missing(hand: int, trump: int, rule: int, person: str = "you") -> str:
    """Why ``hand`` does not meet ``rule``, in a player's words (``person``: "you" or
    "he")."""
    hold, your = ("you hold", "your") if person == "you" else ("he holds", "his")
    from ecarte_sim.engine.cards import SUIT_NAMES
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
    courts = hand & int(_COURT)
    return f"{hold} {_count(bin(courts).count('1'), 'court card')}" + (
        f" ({_text(courts)})" if courts else "")


def explain(hand: int, trump: int, exclude: int = 0, person: str = "you") -> dict:
    """Why ``hand`` is or is not a jeu de règle (Python level; the verdict is
    :func:`regle_rule`'s): ``{"rule", "rule_id", "rule_name", "words", "reason",
    "nearest"}``. When no rule fits, ``reason`` says what the list asks for the hand's
    number of trumps and ``nearest`` gives the closest rule (fewest cards to exchange; on a
    tie, one for the hand's own number of trumps, then the list's order), what the hand
    lacks for it, an exchange that would make it (no card of ``exclude`` drawn), and
    (``also``) the other rules missed by as few cards."""
    hand, trump = int(hand), int(trump)
    rule = int(regle_rule(np.uint32(hand), trump))
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
    return _text(hand & int(_COURT))
