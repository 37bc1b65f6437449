"""Is a hand a jeu de règle, and why: :func:`classify`, by Hoyle's list or by the book's
definition — the front door of ``ecarte-sim classify`` — and its answer typed,
:func:`classification` (a :class:`Classification`).

The list's reading is numpy alone (:mod:`ecarte_sim.engine.ecarte.decisions.regle`), so a process
that only classifies a hand starts without loading numba; the definition's reading
searches double dummy and loads its kernels when asked.

>>> import ecarte_sim as es
>>> es.classify("QH AH 7H KS KD", "TH")["rule"]
'three-trumps'
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ecarte_sim.engine.deck import (ECARTE, SUIT_LETTERS, SUIT_NAMES, format_card, format_hand,
                                    parse_hand)
from ecarte_sim.engine.ecarte.decisions.regle import RULE_TRUMPS, explain
from ecarte_sim.engine.ecarte.decisions.regle import classify as classify_hand
from ecarte_sim.engine.ecarte.laws.notation import HAND_SIZE, parse_trump, parse_turn_up

#: The readings of "jeu de règle" that :func:`classify` offers.
READINGS = ("list", "definition")


@dataclass(frozen=True)
class HandAndTrump:
    """A hand and its trump as :func:`hand_and_trump` reads them: ``mask`` (the cards' bit
    mask), ``hand`` (canonical notation: spades, hearts, diamonds, clubs, each from the
    king down), ``suit`` (0-3), ``suit_letter`` and ``suit_name``, ``turn_up`` (the
    turned-up card when ``trump`` names one, else None) and ``trumps`` (how many the hand
    holds)."""
    mask: int
    hand: str
    suit: int
    suit_letter: str
    suit_name: str
    turn_up: str | None
    trumps: int

    def to_dict(self) -> dict:
        return {"hand": self.hand, "trump": self.suit_letter, "turn_up": self.turn_up,
                "trumps": self.trumps}


def hand_and_trump(hand: str, trump: str) -> HandAndTrump:
    """Five cards and a trump (a suit or the turned-up card, not in the hand) read and
    checked, as every question about one hand reads them;
    :class:`~ecarte_sim.engine.deck.CardError` names a bad token.

    >>> h = hand_and_trump("QH AH 7H KS KD", "TH")
    >>> h.hand, h.suit_name, h.turn_up, h.trumps
    ('KS QH AH 7H KD', 'hearts', 'TH', 3)
    """
    mask = int(parse_hand(hand, HAND_SIZE, name="hand"))
    suit, turned = parse_trump(trump, [("hand", mask)])
    return HandAndTrump(mask, format_hand(mask, ECARTE), suit, SUIT_LETTERS[suit],
                        SUIT_NAMES[suit], None if turned is None else format_card(turned, ECARTE),
                        bin(mask & (0xFF << (8 * suit))).count("1"))


@dataclass(frozen=True)
class Classification:
    """Is a hand a jeu de règle, and why (:func:`classification`): the ``reading``
    (``"list"`` or ``"definition"``), the verdict (``jeu_de_regle``), the ``words`` read
    (Hoyle's; None when no rule of the list fits) and the ``reason``. By the list: the
    ``rule`` (its id, None when no rule fits), ``rule_number`` and ``rule_name``, and the
    ``nearest`` rule missed (a dict, None when a rule fits). By the definition: the
    ``best_lead``, the dealer hands it beats (``won``) of how many (``of``), each lead's
    wins (``leads``), the ``turn_up`` given (None: every trump not in the hand counted)
    and the list's verdict (``by_list``: its ``jeu_de_regle`` and ``rule``); the
    turn-ups counted and the hand the best lead loses to are in :meth:`to_dict`. The
    fields of the other reading are None. :meth:`to_dict` is what ``ecarte-sim classify
    --json`` prints before its provenance (a copy): the keys of its reading only, as
    :func:`classify` documents them."""
    reading: str
    jeu_de_regle: bool
    words: str | None
    reason: str
    rule: str | None = None
    rule_number: int | None = None
    rule_name: str | None = None
    nearest: dict | None = field(default=None, repr=False)
    best_lead: str | None = None
    won: int | None = None
    of: int | None = None
    leads: dict[str, int] | None = field(default=None, repr=False)
    turn_up: str | None = None
    by_list: dict | None = field(default=None, repr=False)
    payload: dict = field(default_factory=dict, repr=False)

    @classmethod
    def of_answer(cls, r: dict) -> Classification:
        keys = ("rule", "rule_number", "rule_name", "nearest", "best_lead", "won", "of",
                "leads", "turn_up", "by_list")
        return cls(r["reading"], r["jeu_de_regle"], r["words"], r["reason"],
                   **{k: r[k] for k in keys if k in r}, payload=r)

    def to_dict(self) -> dict:
        return copy.deepcopy(self.payload)


def classification(hand: str, trump: str, *, turn_up: str | None = None,
                   reading: str = "list") -> Classification:
    """:func:`classify`'s answer typed: a :class:`Classification`.

    >>> c = classification("AH KS 7S KD KC", "TH")
    >>> c.jeu_de_regle, c.nearest["rule"], c.best_lead
    (False, 'one-trump-three-court', None)
    """
    return Classification.of_answer(classify(hand, trump, turn_up=turn_up, reading=reading))


def classify(hand: str, trump: str, *, turn_up: str | None = None,
             reading: str = "list") -> dict:
    """Is ``hand`` a jeu de règle, and why. ``trump`` is a suit or the turned-up card;
    ``turn_up`` names the turned-up card separately (of the trump suit, not in the hand; if
    ``trump`` is a card too, the same card). ``reading`` is ``"list"`` or ``"definition"``;
    every answer starts with ``reading``.

    ``"list"`` (Hoyle's list, :mod:`ecarte_sim.engine.ecarte.decisions.regle`): ``rule`` (its id)
    and ``rule_name`` (in words), ``words`` (Hoyle's), ``reason`` (what in the hand meets
    the rule, or what the list asks for its number of trumps) and, for a hand no rule fits,
    ``nearest``: the rule it comes closest to (fewest cards to exchange; a tie goes to a
    rule for the hand's own number of trumps, then to the list's order), what it lacks, one
    exchange that would make it (the turn-up, when given, is never drawn), and ``also`` the
    other rules it misses by as few cards.

    ``"definition"`` (the book's definition, :mod:`ecarte_sim.engine.ecarte.decisions.foster`): one
    first lead wins the point double dummy against every dealer hand with at most one
    trump. ``jeu_de_regle``, ``words`` (the definition) and ``reason`` (a sentence) as in
    the list reading; ``best_lead`` (most wins; a tie goes to the card written first in the
    canonical order), ``won`` and ``of`` (the dealer hands it beats and how many there
    are: (turn-up, dealer hand) pairs when no turn-up is given), ``leads`` (each lead's
    ``won``), ``turn_up`` and ``turn_ups`` (the turn-ups counted), ``loses_to`` (the first
    dealer hand and turn-up the best lead loses to, or None) and ``by_list`` (the list's
    verdict and rule). The list's ``rule``, ``rule_number``, ``rule_name`` and ``nearest``
    have no meaning here and are left out."""
    if reading not in READINGS:
        raise ValueError(f"unknown reading {reading!r}: use one of {', '.join(READINGS)}")
    mask = int(parse_hand(hand, HAND_SIZE, name="hand"))
    suit, turned = parse_trump(trump, [("hand", mask)])
    if turn_up is not None:
        turned = parse_turn_up(turn_up, mask, suit, turned)
    rule = classify_hand(mask, suit)
    if reading == "definition":
        return _by_definition(mask, suit, turned, rule)
    why = explain(mask, suit, 0 if turned is None else 1 << int(turned))
    nearest = why["nearest"]
    if nearest is not None:
        nearest = {"rule": nearest["rule"], "rule_number": nearest["rule_id"],
                   "rule_name": nearest["rule_name"], "words": nearest["words"],
                   "short_by": nearest["short_by"], "missing": nearest["missing"],
                   "exchange": nearest["exchange"],
                   "also": [{"rule": m["rule"], "rule_number": m["rule_id"],
                             "rule_name": m["rule_name"], "missing": m["missing"]}
                            for m in nearest["also"]]}
    return {"reading": "list", "jeu_de_regle": rule is not None, "rule": rule,
            "rule_number": why["rule_id"] or None, "rule_name": why["rule_name"],
            "words": why["words"], "reason": why["reason"], "nearest": nearest}


def _by_definition(mask: int, suit: int, turned: int | None, rule: str | None) -> dict:
    """The ``"definition"`` answer of :func:`classify`: double-dummy searches, so its
    kernels are loaded here, not when the list is read."""
    from ecarte_sim.engine.ecarte.decisions.foster import WORDS as DEFINITION_WORDS
    from ecarte_sim.engine.ecarte.decisions.foster import definition

    r = definition(mask, suit, turned)
    best = format_card(r.best_lead, ECARTE)
    if turned is None:
        what = (f"deals of a dealer hand with at most one trump, each of the "
                f"{len(r.turn_ups)} {SUIT_NAMES[suit]} not in the hand turned up in turn")
    else:
        what = (f"dealer hands with at most one trump ({format_card(turned, ECARTE)} "
                "turned up)")
    loses_to = None
    if r.qualifies:
        reason = f"leading {best} wins the point against all {r.of:,} {what}"
    else:
        dealer, up = r.loses_to
        loses_to = {"dealer": format_hand(dealer, ECARTE), "turn_up": format_card(up, ECARTE)}
        example = loses_to["dealer"] + ("" if turned is not None else
                                        f" ({loses_to['turn_up']} turned up)")
        reason = (f"the best lead, {best}, wins the point against {r.best_won:,} of the "
                  f"{r.of:,} {what}; it loses e.g. to {example}")
    return {"reading": "definition", "jeu_de_regle": r.qualifies, "words": DEFINITION_WORDS,
            "reason": reason, "best_lead": best, "won": r.best_won, "of": r.of,
            "leads": {format_card(c, ECARTE): w for c, w in zip(r.leads, r.won)},
            "turn_up": None if turned is None else format_card(turned, ECARTE),
            "turn_ups": [format_card(u, ECARTE) for u in r.turn_ups],
            "loses_to": loses_to, "by_list": {"jeu_de_regle": rule is not None, "rule": rule}}
