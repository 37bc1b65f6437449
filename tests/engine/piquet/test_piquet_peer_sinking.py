"""A public peer engine's sinking cases, transcribed and checked against this engine.

The peer is the public repository ``abartnof/piquet`` (a Python engine, ``piquet/``,
that is its oracle, and a Rust port, ``crates/piquet-core``). Its golden vectors live in
``vectors/*.json`` and are replayed by ``tests/test_vectors.py`` and
``crates/piquet-core/tests/golden.rs``; its own tests add more cases in
``tests/test_declarations.py`` and ``tests/test_announcements.py``. The cases about
sinking (calling less than one holds, or nothing) are transcribed here as data, with
their source: the hands, what is called, and what the peer expects. Sources read:

* ``vectors/combos.json`` @ 8d5992b8b885ee168ee7a50e162abcd9bf8eb1d9, section
  ``support`` ("Sinking depends on this: a smaller claim must still be true of the
  hand", ``tests/test_vectors.py``): 12 cases;
* ``vectors/declarations.json`` @ 0765838a527e4f2ecdb26901a17d7466774201a6 (the same
  cases at 71ffe87094f4fcbec233d9420efcf83a045d67f9), section ``dialogue`` (the one case
  with ``elder_sinks: true``) and section ``validate`` (5 cases);
* ``tests/test_declarations.py`` @ 6497a9216a2925b1fddba372f38d382f0bb0baf5: 14 tests;
* ``tests/test_announcements.py`` @ 66a4da65a023b85ad641fc4936aa09dfd4b9c86f: 3 tests.

How a case is put in our terms. Our engine has no "claim" object: a player calls each
category from his *called hand*, his hand less the cards he sinks there (rules.md,
"Sinking"), and what he calls is read off those cards. So

* a peer *claim* ("a point of four worth 41 in clubs", "a trio of aces") is callable
  here when some set of held cards, called, makes exactly that holding; every such set
  is tried (``CLAIMS``);
* a peer *deal* (two hands, one or both sinking) becomes the two hands after the
  exchange and the three sink masks of each (``DUELS``).

The peer's hands are often shorter than twelve cards; they are padded to twelve with
cards of suits (or ranks) the case does not touch, so the figure the peer pins is
unchanged, and only the figures the peer pins are asserted (``None``: not pinned).
Each case is checked against the plain reference (``declarations``) and the numba
kernel (``called_keys``/``declare_called``), which must agree on every call tried.

Where our reading of the laws differs from the peer's, the case carries *our* figure and
the reason (``OURS``); cases that test a concept our engine does not model are listed in
``NOT_EXPRESSIBLE``. Both lists are repeated in rules.md, "The peer's sinking cases".
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from ecarte_sim.engine.piquet.declare import called_keys, declare_called, repiques
from ecarte_sim.engine.piquet.records import DECLARATIONS
from ecarte_sim.engine.piquet.reference import declarations, repique_of
from helpers import H, REPO, masks_of

RANKS = "789TJQKA"
CATEGORIES = ("point", "sequences", "sets")

COMBOS = "abartnof/piquet vectors/combos.json@8d5992b8 support"
DECL = "abartnof/piquet vectors/declarations.json@0765838a"
TDECL = "abartnof/piquet tests/test_declarations.py@6497a921"
TANN = "abartnof/piquet tests/test_announcements.py@66a4da65"


def suit_of(letter: str) -> int:
    return (H("7" + letter).bit_length() - 1) >> 3


def cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


# --------------------------------------------------------------------------- claims

#: Padding (cards of suits or ranks the claims beside them do not touch).
CLUBS5 = "AC KC QC JC TC 7H 9H JH KH 7S 9S JS"        # the peer's A K Q J 10 of clubs
CLUBS4 = "AC KC QC JC 7H 9H JH KH 7S 9S JS KS"        # the peer's A K Q J of clubs
ACES4 = "AC AD AH AS 7C 8C 7D 8D 7H 8H 7S 8S"         # the peer's four aces
ACES3 = "AC AD AH 7C 8C 7D 8D 7H 8H 7S 8S 9S"         # the peer's three aces
NINES = "9C 9D 9H 9S 7C 8C 7D 8D 7H 8H 7S 8S"         # the peer's four nines
KNAVE4 = "8S 9S TS JS 7H 9H JH KH 7C 9C JC KC"        # the peer's quart to the knave
SPADES6 = "7S 8S 9S TS JS QS 7H 9H JH 7C 9C JC"       # the peer's six spades to the queen

#: id: (hand, category, the claim as a list of holdings, callable per the peer, its score
#: if it wins (None when not callable), source). A holding is, for the point,
#: (suit, length, pips); for a sequence, (suit, length, top rank); for a set,
#: (rank, count). A claim of two holdings asks for both at once.
CLAIMS = {
    "support 1: point of five (51) from A K Q J 10": (
        CLUBS5, "point", [("C", 5, 51)], True, 5, f"{COMBOS}[0]"),
    "support 2: point of four (41) from A K Q J 10": (
        CLUBS5, "point", [("C", 4, 41)], True, 4, f"{COMBOS}[1]"),
    "support 3: point of four (40) from A K Q J 10": (
        CLUBS5, "point", [("C", 4, 40)], False, None, f"{COMBOS}[2]"),
    "support 4: point of three diamonds, none held": (
        CLUBS5, "point", [("D", 3, 30)], False, None, f"{COMBOS}[3]"),
    "support 5: quart to the ace from A K Q J": (
        CLUBS4, "sequences", [("C", 4, "A")], True, 4, f"{COMBOS}[4]"),
    "support 6: tierce to the king from A K Q J": (
        CLUBS4, "sequences", [("C", 3, "K")], True, 3, f"{COMBOS}[5]"),
    "support 7: quint to the ace from A K Q J": (
        CLUBS4, "sequences", [("C", 5, "A")], False, None, f"{COMBOS}[6]"),
    "support 8: two cards to the ace are no sequence": (
        CLUBS4, "sequences", [("C", 2, "A")], False, None, f"{COMBOS}[7]"),
    "support 9: quatorze of aces": (
        ACES4, "sets", [("A", 4)], True, 14, f"{COMBOS}[8]"),
    "support 10: trio of aces from a quatorze": (
        ACES4, "sets", [("A", 3)], True, 3, f"{COMBOS}[9]"),
    "support 11: quatorze of aces from three": (
        ACES3, "sets", [("A", 4)], False, None, f"{COMBOS}[10]"),
    "support 12: nines make no quatorze": (
        NINES, "sets", [("9", 4)], False, None, f"{COMBOS}[11]"),
    "validate 'not held': point of three diamonds": (
        CLUBS5, "point", [("D", 3, 30)], False, None, f"{DECL} validate[1]"),
    "validate 'two points': five and four of one suit": (
        CLUBS5, "point", [("C", 5, 51), ("C", 4, 41)], False, None, f"{DECL} validate[2]"),
    "validate 'overlapping sequences': quint and quart to the king": (
        CLUBS5, "sequences", [("C", 5, "A"), ("C", 4, "K")], False, None,
        f"{DECL} validate[3]"),
    "validate 'two sets of one rank': quatorze and trio of aces": (
        ACES4, "sets", [("A", 4), ("A", 3)], False, None, f"{DECL} validate[4]"),
    "a declaration must be supported: no quint of hearts": (
        "TS JS QS KS AS 9H TH JH 7C 8C 9C 7D", "sequences", [("H", 5, "A")], False, None,
        f"{TDECL} test_a_declaration_must_be_supported_by_the_hand"),
    "understate a sequence: a tierce to the knave from a quart": (
        KNAVE4, "sequences", [("S", 3, "J")], True, 3,
        f"{TDECL} test_a_player_may_understate_a_sequence_as_cavendish_describes"),
    "understate a point: five spades (47) from six": (
        SPADES6, "point", [("S", 5, 47)], True, 5,
        f"{TDECL} test_a_player_may_understate_a_point"),
    "understate a quatorze as a trio": (
        ACES4, "sets", [("A", 3)], True, 3,
        f"{TDECL} test_a_player_may_understate_a_quatorze_as_a_trio"),
    "cannot overstate: no quatorze from three aces": (
        ACES3, "sets", [("A", 4)], False, None,
        f"{TDECL} test_a_player_cannot_overstate_what_he_holds"),
    "two sequences cannot be claimed from one suit": (
        SPADES6, "sequences", [("S", 3, "Q"), ("S", 3, "9")], False, None,
        f"{TDECL} test_two_sequences_cannot_be_claimed_from_the_same_suit"),
}

#: Where our reading differs: id -> (callable here, score here if it wins, the law).
OURS = {
    "support 3: point of four (40) from A K Q J 10": (
        True, 4,
        "Law 50 allows 'a smaller point, sequence, quatorze or trio than he holds' without "
        "saying which cards, and Law 55 obliges him only to 'show the cards called': "
        "K Q J 10 of clubs, the ace sunk, is a point of four worth 40 here. The peer "
        "accepts an understated point only when it is the top cards of its suit."),
}

#: Peer cases our engine cannot express: id -> why (also in rules.md).
NOT_EXPRESSIBLE = {
    "validate 'wrong category': a quint offered as a point": (
        f"{DECL} validate[0]",
        "a call here is a set of cards per category and what it makes is read off the "
        "cards, so no combination can be offered in the wrong category"),
    "a declaration must match the category (a quatorze offered as a sequence)": (
        f"{TDECL} test_a_declaration_must_match_the_category_being_contested",
        "as above"),
    "the categories are contested in order": (
        f"{TDECL} test_the_categories_are_contested_in_order",
        "the order of the dialogue (Law 47 makes no order compulsory) is not modelled: "
        "the calls of both players are compared together, and the case pins no score"),
}


def _key(category: str, best) -> int:
    """The kernel's key for a reference best (0: nothing called)."""
    if best is None:
        return 0
    if category == "point":
        return best[0] * 128 + best[1]
    if category == "sequences":
        return 8 * best[0] + best[1]
    return 8 * (best[0] - 2) + best[1]


def _holdings(category: str, decl: dict) -> list:
    """The elder's holdings in ``category`` as the reference reads his call, in the
    claims' notation (sorted). Every call tried holds only the claim's suits or ranks,
    so a point's suit is the claim's."""
    by_index = {suit_of(s): s for s in "CDHS"}
    if category == "point":
        best = decl["best"]["point"][0]
        return [] if best is None else [best]
    if category == "sequences":
        return sorted((by_index[suit], length, RANKS[top])
                      for length, top, suit in decl["runs"][0])
    return sorted((RANKS[rank], count) for count, rank in decl["held_sets"][0])


def _relevant(hand: int, category: str, claim: list) -> int:
    """The held cards a call making ``claim`` could use: its suits, or its ranks."""
    mask = 0
    for holding in claim:
        if category == "sets":
            rank = RANKS.index(holding[0])
            mask |= sum(1 << (8 * s + rank) for s in range(4))
        else:
            mask |= 0xFF << (8 * suit_of(holding[0]))
    return hand & mask


def _wanted(category: str, claim: list) -> list:
    if category == "point":
        return [(length, pips) for _, length, pips in claim]   # the suit is checked apart
    return sorted(tuple(h) for h in claim)


@pytest.mark.quick
@pytest.mark.parametrize("name", list(CLAIMS))
def test_peer_claim(name):
    text, category, claim, peer_callable, peer_score, _ = CLAIMS[name]
    want_callable, want_score = OURS.get(name, (peer_callable, peer_score))[:2]
    hand = H(text)
    assert bin(hand).count("1") == 12
    other = 0xFFFFFFFF & ~hand
    other = sum(1 << c for c in cards(other)[:12])         # any twelve other cards
    assert category in CATEGORIES
    relevant = cards(_relevant(hand, category, claim))
    witnesses = []
    for n in range(len(relevant) + 1):
        for chosen in itertools.combinations(relevant, n):
            call = sum(1 << c for c in chosen)
            # the reference: the elder calls ``call`` in every category, the younger nothing
            decl = declarations(hand, other, {"elder": (call, call, call),
                                              "younger": (0, 0, 0)})
            # the kernel, on the same calls
            keys = called_keys(np.uint32(call), np.uint32(call), np.uint32(call))
            ref_keys = (_key("point", decl["best"]["point"][0]),
                        _key("sequences", decl["best"]["sequences"][0]),
                        _key("sets", decl["best"]["sets"][0]))
            assert (int(keys[0]), int(keys[1]), int(keys[3])) == ref_keys, (name, chosen)
            out = np.zeros(DECLARATIONS.size, dtype=np.int64)
            zero = np.uint32(0)
            declare_called(np.uint32(hand), np.uint32(other), np.uint32(call),
                           np.uint32(call), np.uint32(call), zero, zero, zero, out)
            d = DECLARATIONS.read(out)
            assert tuple(d["elder"][1:]) == tuple(decl[c][0] for c in CATEGORIES), name
            assert tuple(d["younger"][1:]) == (0, 0, 0), name
            if _holdings(category, decl) == _wanted(category, claim):
                witnesses.append((chosen, decl[category][0]))
    assert bool(witnesses) == want_callable, (name, witnesses)
    if want_callable:
        assert {score for _, score in witnesses} == {want_score}, (name, witnesses)


def test_the_claims_cover_what_the_peer_decided():
    """The transcription keeps the peer's verdicts; only ``OURS`` overrides them."""
    assert set(OURS) <= set(CLAIMS)
    for name, (*_, peer_callable, peer_score, source) in CLAIMS.items():
        assert source.startswith("abartnof/piquet ")
        assert (peer_score is not None) == peer_callable, name
    assert sum(1 for name in CLAIMS if name.startswith("support ")) == 12


# --------------------------------------------------------------------------- two hands

LOPSIDED = ("AS KS QS JS TS 9S 8S 7S AH KH QH JH",         # eight spades: point of 8
            "AD KD QD JD TD 9D 8D AC KC QC JC TC")         # seven diamonds: point of 7
YOUNGER_WINS = ("7S 8S 9S 7H 8H 9H 7C 8C 9C 7D 8D JD",
                "AS KS QS JS TS AH KH QH JH AD KD QD")     # five spades (51)
LOSER = ("AS KS QS JS TS 9S 8S 7S AH KH QH JH",
         "AD KD QD JD AC KC QC JC 7H 8H 9H TH")
#: the peer's A K Q J of clubs (sunk) against A K Q of diamonds, padded with cards that
#: make no run for the younger
DIALOGUE = ("AC KC QC JC 8H TH QH 8S TS QS 8D TD",
            "AD KD QD 7C 9C 7H 9H JH 7S 9S JS KS")

#: id: (elder, younger, elder sinks, younger sinks, {category: (elder, younger) score,
#: None where the peer pins nothing}, {category: the elder's called best, as the
#: reference gives it}, source). A sink is category -> "all" or the cards left out.
#: What the peer's announcement tests say is heard is the elder's called best here (None:
#: nothing called, nothing heard or shown); of the test on the younger's timing only the
#: figure is taken (when the younger's points count is rules.md, "Order of reckoning").
DUELS = {
    "dialogue: the elder sinks his quart, the younger's tierce is good": (
        *DIALOGUE, {"sequences": "all"}, {}, {"sequences": (0, 3)}, {"sequences": None},
        f"{DECL} dialogue[8]"),
    "a sink announces nothing and scores nothing": (
        *LOPSIDED, {"point": "all", "sequences": "all", "sets": "all"}, {},
        {"point": (0, None), "sequences": (0, None), "sets": (0, None)},
        {"point": None, "sequences": None, "sets": None},
        f"{TDECL} test_a_sink_announces_nothing_and_scores_nothing"),
    "the loser of a category scores nothing (both sink the point)": (
        *LOSER, {"point": "all"}, {"point": "all"}, {"point": (0, 0), "sequences": (22, 0)},
        {"point": None}, f"{TDECL} test_the_loser_of_a_category_scores_nothing_at_all"),
    "sinking concedes the category": (
        *LOPSIDED, {"point": "all"}, {}, {"point": (0, 7)}, {"point": None},
        f"{TDECL} test_sinking_concedes_the_category"),
    "if both sink nobody scores": (
        *LOPSIDED, {"point": "all"}, {"point": "all"}, {"point": (0, 0)}, {"point": None},
        f"{TDECL} test_if_both_sink_nobody_scores"),
    "sinking costs the points: called, the point of 8 scores": (
        *LOPSIDED, {}, {}, {"point": (8, 0)}, {"point": (8, 75)},
        f"{TDECL} test_sinking_costs_the_points_but_buys_silence"),
    "sinking costs the points: sunk, the younger's 7 is good": (
        *LOPSIDED, {"point": "all"}, {}, {"point": (0, 7)}, {"point": None},
        f"{TDECL} test_sinking_costs_the_points_but_buys_silence"),
    "the elder sinks, the younger's point of five is good": (
        *YOUNGER_WINS, {"point": "all"}, {}, {"point": (0, 5)}, {"point": None},
        f"{TDECL} test_youngers_declarations_are_not_scored_until_elder_has_led"),
    "a sunk point announces nothing": (
        *LOPSIDED, {"point": "all"}, {}, {}, {"point": None},
        f"{TANN} test_a_sink_announces_nothing_at_all"),
    "sinking gives away nothing whatever": (
        *LOPSIDED, {"point": "all"}, {}, {"point": (0, None)}, {"point": None},
        f"{TANN} test_sinking_gives_away_nothing_whatever"),
    "understating a point reveals only the smaller shape, and loses": (
        *LOPSIDED, {"point": "9S 8S 7S"}, {}, {"point": (0, 7)}, {"point": (5, 51)},
        f"{TANN} test_understating_a_point_reveals_only_the_smaller_shape"),
}


@pytest.mark.parametrize("name", list(DUELS))
def test_peer_duel(name):
    e_text, y_text, e_sink, y_sink, want, e_best, source = DUELS[name]
    e, y = H(e_text), H(y_text)
    assert e & y == 0 and bin(e).count("1") == bin(y).count("1") == 12
    em, ym = masks_of(e_sink, e), masks_of(y_sink, y)
    assert all(m & ~e == 0 for m in em) and all(m & ~y == 0 for m in ym)
    called = {"elder": tuple(e & ~m for m in em), "younger": tuple(y & ~m for m in ym)}
    decl = declarations(e, y, called)
    for category, pair in want.items():
        for seat, figure in enumerate(pair):
            if figure is not None:
                assert decl[category][seat] == figure, (name, category, seat)
    for category, best in e_best.items():
        assert decl["best"][category][0] == best, (name, category)
    # the kernel equals the reference on the whole case, both seats, every category
    out = np.zeros(DECLARATIONS.size, dtype=np.int64)
    c = [np.uint32(h) for h in (*called["elder"], *called["younger"])]
    declare_called(np.uint32(e), np.uint32(y), *c, out)
    d = DECLARATIONS.read(out)
    assert tuple(d["elder"][1:]) == tuple(decl[k][0] for k in CATEGORIES), name
    assert tuple(d["younger"][1:]) == tuple(decl[k][1] for k in CATEGORIES), name
    for seat in (0, 1):
        keys = called_keys(*c[3 * seat:3 * seat + 3])
        assert (int(keys[0]), int(keys[1]), int(keys[3])) == tuple(
            _key(k, decl["best"][k][seat]) for k in CATEGORIES), (name, seat)
    pairs = [(0, 0), decl["point"], decl["sequences"], decl["sets"]]
    rep = repique_of(pairs)[0]
    assert repiques(out) == (rep == "elder", rep == "younger"), name


# --------------------------------------------------------------------------- the record

def test_rules_md_lists_the_disagreements_and_the_cases_not_expressible():
    rules = (REPO / "engine" / "piquet" / "rules.md")
    text = rules.read_text(encoding="utf-8")
    section = text.split("### The peer's sinking cases", 1)[1].split("\n## ", 1)[0]
    assert "abartnof/piquet" in section
    for name in OURS:
        assert name.split(":")[0] in section, name
    for name, (source, _) in NOT_EXPRESSIBLE.items():
        assert source.rsplit(" ", 1)[1] in section, name
    sources = {case[-1] for case in (*CLAIMS.values(), *DUELS.values())}
    sources |= {source for source, _ in NOT_EXPRESSIBLE.values()}
    assert f"{len(sources)} peer cases" in section
