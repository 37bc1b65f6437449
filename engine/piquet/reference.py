"""A slow, plain, independent reference of the rules of Piquet: one deal, and the partie.

This module is written to be read beside the Laws of Piquet (Portland and Turf Clubs, the
Portland and Turf Clubs' code) and ``engine/piquet/rules.md``, the contract that
says how this project implements every law and every choice the laws leave open.
It exists to check the fast kernels against something anyone can verify by eye,
so it shares no code with them: its only project imports are the card notation of
:mod:`ecarte_sim.engine.cards` (a card is the bit index ``suit * 8 + rank``, a hand is
an int mask; with the ``PIQUET`` deck rank 0..7 is 7 8 9 10 J Q K A, the ace high) and
the ids of :mod:`ecarte_sim.engine.piquet.settings` (``Rank``, the variants' names).

Contents

* :class:`Variant` — the three switches of rules.md (``lead_scoring``,
  ``pique_timing``, ``partie``); :class:`RulesError` for every invalid input.
* :func:`is_carte_blanche`, :func:`point_of`, :func:`runs_of`,
  :func:`sequence_score`, :func:`sets_of` — what one hand holds (Laws 18, 62–64).
* :func:`declarations` — the two hands' point, sequences and quatorzes/trios
  compared, and what each player scores (Laws 46–49, 62–64).
* :func:`sunk_by` — what a sinking policy leaves uncalled (Law 47, rules.md "Sinking").
* :func:`repique_of` — which player, if either, makes a repique (Law 68).
* :func:`play_deal` — a whole deal walked in the order it is played, with every
  score, the pique and the repique (Laws 18–24, 46–49, 61–69).
* :func:`settle_partie` — six (or four) deals added up and settled (Laws 71–73).

The walk of :func:`play_deal`
-----------------------------

1. Carte blanche (Laws 18, 61): a hand *as dealt* with no king, queen or knave
   scores 10, before anything else.
2. The exchange (Laws 21–23): the elder discards ``e`` (1–5) cards and takes in
   ``stock[0:e]``; the younger discards ``y`` (1..8−e) and takes in ``stock[e:e+y]``.
3. The elder declares (Laws 46–49): point, sequences, quatorzes and trios, each
   answered "good", "not good" or "equal" by the younger's calls.  Then his repique,
   if he has one (Law 68).  Each player calls each category from his hand less what
   he sinks there (Law 47: his policy's sinks and any given); a sunk holding scores
   nothing and concedes its category to the other's lesser call.
4. Under ``pique_timing="law67"`` the younger declares here (and his repique).
5. The play (Law 65), trick by trick: the lead, then (trick 1 only, under the
   default ``pique_timing="lead"``) the younger's declarations and repique, the
   reply, the trick's winner, and after the twelfth trick its extra point.
6. The cards (Law 66): 10 for more than six tricks, 40 for a capot, nothing
   when they are divided six and six.

Each player's running total is kept as the walk goes; the younger's running total
*is* the record of what he "has reckoned" (Law 69), so after every scoring step the
elder's pique is tested as: not yet piqued, nobody repiques, the younger's total is
still 0 and the elder's has reached 30.  Under ``"law67"`` the test is not made
after the elder's declarations (the younger's declarations reckon before any play
point, so they come first); the cards (step 6) never count toward it.  A play
event that scores nothing (under ``ten_up``: a low card led, or a trick won second
with a card below the ten) is nothing reckoned, so it does not stop the pique.

Events
------

``DealResult.events`` tells the deal in order as JSON-serialisable dicts.  Every
event has the keys ``event``, ``player`` (``"elder"``, ``"younger"`` or ``None``),
``score`` (the points this event adds to ``player``), ``law`` (the law it applies),
``elder_total`` and ``younger_total`` (the running totals after it).  Cards are
written in the ``PIQUET`` notation (``"AS KS QS"``, high card first).

=================  =============================================================
``event``          further keys
=================  =============================================================
``carte_blanche``  ``cards`` (the dealt hand); score 10, law 61
``discard``        ``cards``, ``count``; law 21 (elder) or 22 (younger), score 0
``take_in``        ``cards`` (in stock order, top first), ``count``, ``left``
                   (cards still in the stock after this take-in); law 23, score 0
``declare``        ``kind``: ``"point"`` (``length``, ``pips``), ``"sequence"``
                   (``name`` tierce…huitième, ``length``, ``top``), ``"quatorze"``
                   or ``"trio"`` (``rank``); ``cards``, ``good`` (this call scores),
                   ``equal`` (the category is equal, nobody scores it); law 62/63/64.
                   Every holding called appears, so the calls that are not good
                   appear with ``score`` 0, ``good`` False; what is sunk is not called.
``sink``           ``kind`` (``"point"``, ``"sequences"`` or ``"sets"``), ``cards``
                   (the cards of his holdings there that he does not call), ``whole``
                   (he calls nothing there); score 0, law 47; just before that
                   category's calls
``repique``        ``category`` (``"point"``, ``"sequences"`` or ``"sets"``: where
                   his hand reached 30); score 60, law 68
``pique``          ``at`` (``"hand"``, ``"lead"``, ``"trick"`` or ``"last_trick"``),
                   ``trick`` (None for ``"hand"``); score 30, law 69
``lead``           ``cards`` (the card led), ``trick``; score 0 or 1; law 65
``reply``          ``cards``, ``trick``; score 0 (the point for winning second
                   belongs to the ``trick`` event); law 65
``trick``          ``number``, ``winner``, ``cards`` ("lead reply"), ``score``: 1 if
                   the trick was won by the second player (0 or 1 under
                   ``ten_up``), 0 if the leader won it; law 65
``last_trick``     ``number`` (12); the winner's extra point, score 1; law 65
``cards``          ``tricks`` ({"elder": n, "younger": m}), ``divided``; the
                   player with more than six tricks scores 10 (``player`` None and
                   score 0 when divided); law 66
``capot``          ``tricks``; score 40 instead of ``cards``; law 66
=================  =============================================================
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

from ecarte_sim.engine.cards import PIQUET, cards_of, format_card, format_cards, format_hand
from ecarte_sim.engine.piquet.settings import (LeadScoring, Partie, PiqueTiming, Rank, SinkPolicy,
                                               choices)

__all__ = [
    "RulesError", "Variant", "PIP", "ELDER", "YOUNGER", "CATEGORIES",
    "is_carte_blanche", "point_of", "runs_of", "sequence_score", "sequence_name",
    "sets_of", "declarations", "sunk_by", "repique_of", "Score", "DealResult", "play_deal",
    "settle_partie",
]

ELDER = "elder"        #: the non-dealer: discards first, declares first, leads to trick 1
YOUNGER = "younger"    #: the dealer
PLAYERS = (ELDER, YOUNGER)
N_CARDS = 32
N_RANKS = 8
HAND_SIZE = 12
STOCK_SIZE = 8
N_TRICKS = 12

COURT_CARDS = (Rank.KNAVE, Rank.QUEEN, Rank.KING)   #: what a carte blanche lacks (Law 18)

#: Pip value of each rank for the point: 7 8 9 at face value, 10 J Q K ten, ace eleven.
PIP = (7, 8, 9, 10, 10, 10, 10, 11)

#: The categories of Law 67 that are reckoned from the hand, in order.
CATEGORIES = ("carte_blanche", "point", "sequences", "sets")

SEQUENCE_NAMES = {3: "tierce", 4: "quart", 5: "quint", 6: "sixième", 7: "septième",
                  8: "huitième"}


class RulesError(ValueError):
    """An impossible deal, exchange or play, or a bad variant; the message names it."""


@dataclass(frozen=True)
class Variant:
    """The rules.md switches: where the laws leave a choice, which one is played."""

    #: ``"all"``: every card led scores 1, every trick won second scores 1.
    #: ``"ten_up"``: only a ten or higher led / winning second scores (Foster, Hoyle).
    lead_scoring: str = "all"
    #: ``"lead"``: the younger declares after the elder's first lead (Laws 46–56).
    #: ``"law67"``: the younger's declarations reckon before any play point.
    pique_timing: str = "lead"
    #: ``"six"``: six deals (Law 71).  ``"four"``: four, the first and last double.
    partie: str = "six"

    def __post_init__(self):
        for name, kind in (("lead_scoring", LeadScoring), ("pique_timing", PiqueTiming),
                           ("partie", Partie)):
            value, allowed = getattr(self, name), tuple(choices(kind))
            if not isinstance(value, str) or value not in allowed:
                raise RulesError(f"Variant.{name} must be one of {allowed}, got {value!r}")


# ---------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------

def _suit(card: int) -> int:
    return card // N_RANKS


def _rank(card: int) -> int:
    return card % N_RANKS


def _card(suit: int, rank: int) -> int:
    return suit * N_RANKS + rank


def _name(card: int) -> str:
    return format_card(card, PIQUET)


def _names(mask: int) -> str:
    return format_hand(mask, PIQUET)


def _size(mask: int) -> int:
    return int(mask).bit_count()


def _mask_of(value, what: str) -> int:
    """A public hand (an int bit mask, numpy ints included) as a plain int."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise RulesError(f"{what}: not a card mask: {value!r}")
    mask = int(value)
    if not 0 <= mask < 1 << N_CARDS:
        raise RulesError(f"{what}: {mask:#x} is not a 32-bit card mask")
    return mask


def _card_of(value, what: str) -> int:
    """A public card (an int 0..31) as a plain int."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise RulesError(f"{what}: not a card index: {value!r}")
    card = int(value)
    if not 0 <= card < N_CARDS:
        raise RulesError(f"{what}: card index {card} is outside 0..31")
    return card


def _ranks_in_suit(hand: int, suit: int) -> list[int]:
    """The ranks ``hand`` holds in ``suit``, low to high."""
    return [r for r in range(N_RANKS) if hand >> _card(suit, r) & 1]


# ---------------------------------------------------------------------------
# What one hand holds (Laws 18, 62–64)
# ---------------------------------------------------------------------------

def is_carte_blanche(hand: int) -> bool:
    """Law 18: no king, queen or knave.

    Apply it to the twelve cards *as dealt* (before the exchange); it looks only at
    the court cards, so any other mask is answered the same way.
    """
    hand = _mask_of(hand, "hand")
    return not any(_rank(c) in COURT_CARDS for c in cards_of(hand))


def _point_of_suit(hand: int, suit: int) -> tuple[int, int]:
    ranks = _ranks_in_suit(hand, suit)
    return len(ranks), sum(PIP[r] for r in ranks)


def point_of(hand: int) -> tuple[int, int]:
    """Law 62: ``(length, pip sum)`` of the best suit (longest, then most pips).

    Pips: ace 11, K Q J 10 ten each, 9 8 7 at face value (rules.md, "Cards").
    """
    hand = _mask_of(hand, "hand")
    return max(_point_of_suit(hand, s) for s in range(4))


def _point_suit(hand: int) -> int:
    """The suit of the point (the first of S H D C if two suits are equal)."""
    best = point_of(hand)
    return next(s for s in range(4) if _point_of_suit(hand, s) == best)


def runs_of(hand: int) -> list[tuple[int, int, int]]:
    """Law 63: every maximal run of three or more cards adjacent in rank in one suit.

    Each run is ``(length, rank index of its top card, suit)``; the list is best
    first (longer, then higher top card), then by suit S H D C.
    """
    hand = _mask_of(hand, "hand")
    runs = []
    for suit in range(4):
        length = 0
        for rank in range(N_RANKS + 1):           # one step past the ace closes a run
            if rank < N_RANKS and hand >> _card(suit, rank) & 1:
                length += 1
                continue
            if length >= 3:
                runs.append((length, rank - 1, suit))
            length = 0
    runs.sort(key=lambda run: (-run[0], -run[1], run[2]))
    return runs


def sequence_score(length: int) -> int:
    """Law 63: tierce 3, quart 4, quint 15, sixième 16, septième 17, huitième 18."""
    if isinstance(length, bool) or not isinstance(length, numbers.Integral) \
            or not 3 <= int(length) <= 8:
        raise RulesError(f"a sequence has 3 to 8 cards, got {length!r}")
    length = int(length)
    return length if length <= 4 else 10 + length


def sequence_name(length: int) -> str:
    """tierce, quart, quint, sixième, septième or huitième."""
    sequence_score(length)                     # validates
    return SEQUENCE_NAMES[int(length)]


def sets_of(hand: int) -> list[tuple[int, int]]:
    """Law 64: ``(count, rank index)`` for every rank from ten to ace held 3 or 4 times.

    Best first: quatorzes before trios, then the higher rank.
    """
    hand = _mask_of(hand, "hand")
    sets = []
    for rank in range(Rank.TEN, Rank.ACE + 1):
        count = sum(hand >> _card(s, rank) & 1 for s in range(4))
        if count >= 3:
            sets.append((count, rank))
    sets.sort(reverse=True)
    return sets


def _run_cards(run: tuple[int, int, int]) -> int:
    length, top, suit = run
    return sum(1 << _card(suit, r) for r in range(top - length + 1, top + 1))


def _set_cards(hand: int, rank: int) -> int:
    return sum(1 << _card(s, rank) for s in range(4) if hand >> _card(s, rank) & 1)


# ---------------------------------------------------------------------------
# The two hands compared (Laws 46–49, 62–64)
# ---------------------------------------------------------------------------

def _compare(elder_best, younger_best) -> str | None:
    """``"elder"``, ``"younger"``, ``"equal"`` or None (neither holds one)."""
    if elder_best is None and younger_best is None:
        return None
    if younger_best is None or (elder_best is not None and elder_best > younger_best):
        return ELDER
    if elder_best is None or younger_best > elder_best:
        return YOUNGER
    return "equal"


def declarations(elder_hand: int, younger_hand: int, called: dict | None = None) -> dict:
    """The point, sequences and quatorzes/trios of the two hands held after the exchange.

    ``called``: optionally, per player, the three hands (point, sequences, sets) he calls
    from, each his hand less what he sinks there (Law 47); by default he calls his hand.

    Returns ``{"point": (e, y), "sequences": (e, y), "sets": (e, y)}``, each the
    score of the elder and of the younger in that category after comparison, plus:

    * ``"result"``: per category ``"elder"``, ``"younger"``, ``"equal"`` (both hold
      the same best: nobody scores) or None (neither holds one);
    * ``"best"``: per category the pair of bests compared — point ``(length, pips)``,
      sequence ``(length, top rank)``, set ``(count, rank)``; None if not held;
    * ``"runs"``: the pair of :func:`runs_of` lists; ``"held_sets"``: the pair of
      :func:`sets_of` lists.

    Law 62: the point scores its length.  Law 63 and rules.md: the better best
    sequence wins and its holder scores every run he holds (Law 49); equal best
    sequences cancel, so neither player scores any sequence.  Law 64: a quatorze
    beats any trio, then the higher rank; the winner scores every set he holds.
    """
    elder_hand = _mask_of(elder_hand, "elder hand")
    younger_hand = _mask_of(younger_hand, "younger hand")
    hands = (elder_hand, younger_hand)
    calls = tuple((called or {}).get(p, (h, h, h)) for p, h in zip(PLAYERS, hands))
    points = tuple(point_of(c[0]) for c in calls)
    runs = tuple(runs_of(c[1]) for c in calls)
    held_sets = tuple(sets_of(c[2]) for c in calls)
    best = {
        "point": tuple(p if p[0] else None for p in points),     # nothing called: None
        "sequences": tuple((r[0][0], r[0][1]) if r else None for r in runs),
        "sets": tuple(s[0] if s else None for s in held_sets),
    }
    full = {
        "point": tuple(p[0] for p in points),
        "sequences": tuple(sum(sequence_score(length) for length, _, _ in r) for r in runs),
        "sets": tuple(sum(14 if count == 4 else 3 for count, _ in s) for s in held_sets),
    }
    result = {}
    scores = {}
    for category in ("point", "sequences", "sets"):
        winner = _compare(*best[category])
        result[category] = winner
        scores[category] = (full[category][0] if winner == ELDER else 0,
                            full[category][1] if winner == YOUNGER else 0)
    return {**scores, "result": result, "best": best, "runs": runs, "held_sets": held_sets}


SINK_CATEGORIES = ("point", "sequences", "sets")


def sunk_by(hand: int, policy: str = "never") -> tuple[int, int, int]:
    """Law 47 (rules.md, "Sinking"): the cards a player of sinking ``policy`` leaves
    out of his calls, as masks ``(point, sequences, sets)``; a whole category sunk is
    the whole hand.

    ``"never"`` sinks nothing.  ``"guard"`` sinks his point when it has four cards or
    fewer and its suit (the first of S H D C if two are equal) holds the king without
    the ace; and his sequences when all he holds is one tierce or one quart and its
    suit holds the king without the ace (showing either would tell the adversary where
    that king lies and what guards it); he never sinks quatorzes or trios.
    """
    hand = _mask_of(hand, "hand")
    if policy not in choices(SinkPolicy):
        raise RulesError(f"unknown sink policy {policy!r} (choose from "
                         f"{', '.join(choices(SinkPolicy))})")
    if policy == "never":
        return 0, 0, 0

    def king_without_ace(suit):
        ranks = _ranks_in_suit(hand, suit)
        return Rank.KING in ranks and Rank.ACE not in ranks

    point = hand if point_of(hand)[0] <= 4 and king_without_ace(_point_suit(hand)) else 0
    runs = runs_of(hand)
    small = sum(sequence_score(length) for length, _, _ in runs) <= 4
    sequences = hand if runs and small and king_without_ace(runs[0][2]) else 0
    return point, sequences, 0


def repique_of(categories) -> tuple[str | None, str | None]:
    """Law 68: who makes a repique, and in which category his hand reached 30.

    ``categories`` is the four ``(elder, younger)`` score pairs of Law 67 I–IV
    (carte blanche, point, sequences, quatorzes and trios).  A player repiques if
    his running total over I–IV reaches 30 at some category while his adversary
    scored nothing in any *earlier* category (rules.md).  Returns ``(player,
    category name)`` or ``(None, None)``; at most one player can repique.
    """
    pairs = [tuple(int(x) for x in pair) for pair in categories]
    if len(pairs) != len(CATEGORIES):
        raise RulesError(f"repique_of needs {len(CATEGORIES)} categories, got {len(pairs)}")
    for index, player in enumerate(PLAYERS):
        running = 0
        adversary_before = 0
        for k, pair in enumerate(pairs):
            running += pair[index]
            if running >= 30:
                if adversary_before == 0:
                    return player, CATEGORIES[k]
                break
            adversary_before += pair[1 - index]
    return None, None


# ---------------------------------------------------------------------------
# One deal
# ---------------------------------------------------------------------------

@dataclass
class Score:
    """One player's scores in one deal (``tricks`` is a count, not points)."""

    carte_blanche: int = 0
    point: int = 0
    sequences: int = 0
    sets: int = 0
    play: int = 0
    cards: int = 0
    pique: int = 0
    repique: int = 0
    tricks: int = 0

    @property
    def total(self) -> int:
        """Everything this player scored in the deal (the trick count excluded)."""
        return (self.carte_blanche + self.point + self.sequences + self.sets + self.play
                + self.cards + self.pique + self.repique)


@dataclass
class DealResult:
    elder: Score
    younger: Score
    events: list[dict] = field(default_factory=list)


class _Ledger:
    """The score sheet of one deal: running totals, the events, and the pique test."""

    def __init__(self, variant: Variant):
        self.variant = variant
        self.scores = {ELDER: Score(), YOUNGER: Score()}
        self.events: list[dict] = []
        self.repiquer: str | None = None     # decided by the hands (I–IV), see repique_of
        self.piqued = False

    def total(self, player: str) -> int:
        return self.scores[player].total

    def record(self, event: str, player: str | None, law: int, score: int = 0,
               component: str | None = None, **detail) -> dict:
        """Add ``score`` to ``player``'s ``component`` and write the event down."""
        if score:
            s = self.scores[player]
            setattr(s, component, getattr(s, component) + score)
        entry = {"event": event, "player": player, "score": score, "law": law, **detail,
                 "elder_total": self.total(ELDER), "younger_total": self.total(YOUNGER)}
        self.events.append(entry)
        return entry

    def check_pique(self, at: str, trick: int | None = None) -> None:
        """Law 69: the elder makes 30 "before his adversary has reckoned anything".

        Never with a repique (either player's).  The younger's running total is
        what he has reckoned so far: his carte blanche, and his declarations and
        play points once the walk has reached them.
        """
        if self.piqued or self.repiquer is not None:
            return
        if self.total(YOUNGER) == 0 and self.total(ELDER) >= 30:
            self.piqued = True
            self.record("pique", ELDER, 69, 30, "pique", at=at, trick=trick)


def _point_cards(hand: int) -> int:
    if not point_of(hand)[0]:
        return 0
    return sum(1 << _card(_point_suit(hand), r) for r in range(N_RANKS)) & hand


def _holdings(hand: int) -> dict:
    """Per category, (what is compared, the cards of the holdings): Laws 62-64."""
    runs, sets = runs_of(hand), sets_of(hand)
    return {"point": (point_of(hand), _point_cards(hand)),
            "sequences": ((runs[0][:2], sum(sequence_score(r[0]) for r in runs)) if runs else None,
                          sum(_run_cards(r) for r in runs)),
            "sets": ((sets[0], sum(14 if c == 4 else 3 for c, _ in sets)) if sets else None,
                     sum(_set_cards(hand, rank) for _, rank in sets))}


def _sink(ledger: _Ledger, player: str, hand: int, called: int, kind: str) -> None:
    """A ``sink`` event when ``player`` calls less in ``kind`` than he holds (Law 47)."""
    held_key, held_cards = _holdings(hand)[kind]
    called_key, called_cards = _holdings(called)[kind]
    if held_key == called_key or not held_cards & ~called_cards:
        return
    whole = not called_cards if kind != "point" else not point_of(called)[0]
    ledger.record("sink", player, 47, kind=kind, cards=_names(held_cards & ~called_cards),
                  whole=whole)


def _declare(ledger: _Ledger, player: str, hand: int, decl: dict,
             called: tuple[int, int, int] | None = None) -> None:
    """One player's calls (Laws 46–49), each scored as the comparison decided; what
    he sinks (``called``: the hands he calls each category from) is told, not called."""
    index = PLAYERS.index(player)
    called = called or (hand, hand, hand)

    def verdict(category):
        result = decl["result"][category]
        return result == player, result == "equal"

    _sink(ledger, player, hand, called[0], "point")
    good, equal = verdict("point")
    length, pips = point_of(called[0])
    if length:
        ledger.record("declare", player, 62, decl["point"][index] if good else 0, "point",
                      kind="point", cards=_names(_point_cards(called[0])), length=length,
                      pips=pips, good=good, equal=equal)

    _sink(ledger, player, hand, called[1], "sequences")
    good, equal = verdict("sequences")
    for run in decl["runs"][index]:
        length = run[0]
        ledger.record("declare", player, 63, sequence_score(length) if good else 0,
                      "sequences", kind="sequence", name=SEQUENCE_NAMES[length],
                      cards=_names(_run_cards(run)), length=length,
                      top=_name(_card(run[2], run[1])), good=good, equal=equal)

    _sink(ledger, player, hand, called[2], "sets")
    good, equal = verdict("sets")
    for count, rank in decl["held_sets"][index]:
        ledger.record("declare", player, 64, (14 if count == 4 else 3) if good else 0,
                      "sets", kind="quatorze" if count == 4 else "trio",
                      cards=_names(_set_cards(called[2], rank)), rank=PIQUET.ranks[rank],
                      good=good, equal=equal)


def _validate_deal(elder_hand, younger_hand, stock, elder_discard, younger_discard, plays):
    """Every check of :func:`play_deal`'s input except the play itself."""
    dealt = {ELDER: _mask_of(elder_hand, "elder hand"),
             YOUNGER: _mask_of(younger_hand, "younger hand")}
    for player in PLAYERS:
        if _size(dealt[player]) != HAND_SIZE:
            raise RulesError(f"the {player} hand has {_size(dealt[player])} cards, "
                             f"expected {HAND_SIZE} (Law 9)")
    both = dealt[ELDER] & dealt[YOUNGER]
    if both:
        raise RulesError(f"card {_name(cards_of(both)[0])} is in both the elder "
                         f"and the younger hand")
    if isinstance(stock, (str, bytes)) or not hasattr(stock, "__len__"):
        raise RulesError(f"stock must be a list of {STOCK_SIZE} card indices, got {stock!r}")
    stock = [_card_of(c, "stock") for c in stock]
    if len(stock) != STOCK_SIZE:
        raise RulesError(f"the stock has {len(stock)} cards, expected {STOCK_SIZE} (Law 9)")
    seen = 0
    for card in stock:
        bit = 1 << card
        if seen & bit:
            raise RulesError(f"card {_name(card)} is twice in the stock")
        for player in PLAYERS:
            if dealt[player] & bit:
                raise RulesError(f"card {_name(card)} is in both the {player} hand "
                                 f"and the stock")
        seen |= bit

    discards = {ELDER: _mask_of(elder_discard, "elder discard"),
                YOUNGER: _mask_of(younger_discard, "younger discard")}
    limits = {ELDER: (5, 21), YOUNGER: (STOCK_SIZE - _size(discards[ELDER]), 22)}
    for player in PLAYERS:
        stray = discards[player] & ~dealt[player]
        if stray:
            raise RulesError(f"the {player} discards {_name(cards_of(stray)[0])}, "
                             f"which is not in his dealt hand")
        count = _size(discards[player])
        most, law = limits[player]
        if not 1 <= count <= most:
            raise RulesError(f"the {player} discards {count} cards; he must discard "
                             f"1 to {most} (Law {law})")

    if isinstance(plays, (str, bytes)) or not hasattr(plays, "__len__"):
        raise RulesError(f"plays must be a list of {2 * N_TRICKS} card indices, got {plays!r}")
    plays = [_card_of(c, "plays") for c in plays]
    if len(plays) != 2 * N_TRICKS:
        raise RulesError(f"plays has {len(plays)} cards, expected {2 * N_TRICKS}")
    return dealt, stock, discards, plays


def _called_hands(held: dict, sinks, sunk) -> dict:
    """Per player the hands he calls his point, sequences and sets from (Law 47)."""
    if isinstance(sinks, (str, bytes)) or not hasattr(sinks, "__len__") or len(sinks) != 2:
        raise RulesError(f"sinks must be an (elder, younger) pair of policies, got {sinks!r}")
    sunk = {} if sunk is None else sunk
    if not isinstance(sunk, dict) or set(sunk) - set(PLAYERS):
        raise RulesError(f"sunk must map 'elder'/'younger' to three masks, got {sunk!r}")
    called = {}
    for player, policy in zip(PLAYERS, sinks):
        masks = list(sunk_by(held[player], policy))
        given = sunk.get(player, (0, 0, 0))
        if isinstance(given, (str, bytes)) or not hasattr(given, "__len__") or len(given) != 3:
            raise RulesError(f"the {player}'s sunk cards must be three masks (point, "
                             f"sequences, sets), got {given!r}")
        for k, (kind, mask) in enumerate(zip(SINK_CATEGORIES, given)):
            mask = _mask_of(mask, f"{player} sinks ({kind})")
            stray = mask & ~held[player]
            if stray:
                raise RulesError(f"the {player} sinks {_name(cards_of(stray)[0])} in his "
                                 f"{kind}, a card he does not hold: only what is held can "
                                 f"be left uncalled (Laws 47, 54)")
            masks[k] |= mask
        called[player] = tuple(held[player] & ~m for m in masks)
    return called


def _play_point(card: int, variant: Variant) -> int:
    """Law 65: 1 for a card led or winning second; under ``ten_up`` only a ten or higher."""
    if variant.lead_scoring == "ten_up":
        return int(_rank(card) >= Rank.TEN)
    return 1


def _check_play(card: int, player: str, hand: int, trick: int, led: int | None) -> None:
    """The card comes from the player's hand, and follows suit if he can (Law 59 IV)."""
    if not hand >> card & 1:
        role = "leads" if led is None else "plays"
        raise RulesError(f"trick {trick}: the {player} {role} {_name(card)}, "
                         f"which is not in his hand")
    if led is not None and _suit(card) != _suit(led):
        same_suit = [c for c in cards_of(hand) if _suit(c) == _suit(led)]
        if same_suit:
            raise RulesError(f"revoke at trick {trick}: the {player} plays {_name(card)} "
                             f"to {_name(led)} holding {format_cards(same_suit, PIQUET)}")


def play_deal(elder_hand: int, younger_hand: int, stock: list[int], elder_discard: int,
              younger_discard: int, plays: list[int], variant: Variant = Variant(),
              sinks: tuple[str, str] = ("never", "never"), sunk: dict | None = None
              ) -> DealResult:
    """One deal from the dealt hands to the cards, scored as rules.md says.

    ``elder_hand``, ``younger_hand``: the twelve-card hands as dealt (bit masks).
    ``stock``: the eight other cards, top first.  ``elder_discard``: a mask of 1–5
    cards of the elder's dealt hand; he takes in ``stock[0:e]``.  ``younger_discard``:
    1..(8−e) cards of the younger's dealt hand; he takes in ``stock[e:e+y]``.
    ``plays``: the 24 cards in the order played (``plays[2k]`` leads trick k+1, the
    elder leads trick 1, the winner of a trick leads the next).
    ``sinks``: the (elder, younger) sinking policies (:func:`sunk_by`); ``sunk``:
    optionally, per player, three masks (point, sequences, sets) of cards of his hand
    after the exchange that he also leaves uncalled there (Law 47).

    Raises :class:`RulesError` naming the card, count or trick at fault.  The walk
    is described in the module docstring.
    """
    if not isinstance(variant, Variant):
        raise RulesError(f"variant must be a Variant, got {variant!r}")
    dealt, stock, discards, plays = _validate_deal(elder_hand, younger_hand, stock,
                                                   elder_discard, younger_discard, plays)
    ledger = _Ledger(variant)

    # 1. Carte blanche reckons first (Laws 18, 61), on the hand as dealt.
    blank = _carte_blanche(ledger, dealt)

    # 2. The exchange (Laws 21–23): each takes in from the top what he discarded.
    held = _exchange(ledger, dealt, stock, discards)

    # The hands are compared as the calls are answered; the repique (Law 68) is
    # decided by categories I–IV alone, whatever the moment they are declared.
    called = _called_hands(held, sinks, sunk)
    decl = declarations(held[ELDER], held[YOUNGER], called)
    categories = [(blank[ELDER], blank[YOUNGER]), decl["point"], decl["sequences"],
                  decl["sets"]]
    ledger.repiquer, repique_category = repique_of(categories)

    def younger_declares():
        _declare(ledger, YOUNGER, held[YOUNGER], decl, called[YOUNGER])
        if ledger.repiquer == YOUNGER:
            ledger.record("repique", YOUNGER, 68, 60, "repique", category=repique_category)
        ledger.check_pique("hand")          # never fires: he has scored, or the elder repiques

    # 3. The elder calls first (Law 46).
    _declare(ledger, ELDER, held[ELDER], decl, called[ELDER])
    if ledger.repiquer == ELDER:
        ledger.record("repique", ELDER, 68, 60, "repique", category=repique_category)
    if variant.pique_timing == "lead":
        ledger.check_pique("hand")          # the younger has reckoned only a carte blanche

    # 4. Law 67 read strictly: the younger's declarations reckon before any play.
    if variant.pique_timing == "law67":
        younger_declares()

    # 5. The play (Law 65): no trumps, follow suit if able, the higher card of the suit led wins.
    _play_tricks(ledger, held, plays, variant, younger_declares)

    # 6. The cards (Law 66), reckoned last: never toward a pique.
    _reckon_cards(ledger)

    return DealResult(ledger.scores[ELDER], ledger.scores[YOUNGER], ledger.events)


def _carte_blanche(ledger: _Ledger, dealt: dict) -> dict:
    """Step 1 of :func:`play_deal`: 10 to a player dealt carte blanche (Laws 18, 61)."""
    blank = {}
    for player in PLAYERS:
        blank[player] = 10 if is_carte_blanche(dealt[player]) else 0
        if blank[player]:
            ledger.record("carte_blanche", player, 61, 10, "carte_blanche",
                          cards=_names(dealt[player]))
    return blank


def _exchange(ledger: _Ledger, dealt: dict, stock: list[int], discards: dict) -> dict:
    """Step 2: each player, the elder first, takes in from the top of the stock as many
    cards as he discarded (Laws 21–23); the hands held after it."""
    held = dict(dealt)
    position = 0
    for player in PLAYERS:
        count = _size(discards[player])
        taken = stock[position:position + count]
        position += count
        held[player] = (held[player] & ~discards[player]) | sum(1 << c for c in taken)
        ledger.record("discard", player, 21 if player == ELDER else 22,
                      cards=_names(discards[player]), count=count)
        ledger.record("take_in", player, 23, cards=format_cards(taken, PIQUET),
                      count=count, left=STOCK_SIZE - position)
    return held


def _play_tricks(ledger: _Ledger, held: dict, plays: list[int], variant: Variant,
                 younger_declares) -> None:
    """Step 5, the play (Law 65): the twelve tricks, each card checked, the leads, the
    tricks won second and the last trick scored, a pique looked for after each;
    ``younger_declares`` is called after the first lead under ``pique_timing="lead"``."""
    hands = dict(held)
    leader = ELDER
    for k in range(N_TRICKS):
        number = k + 1
        second = YOUNGER if leader == ELDER else ELDER
        lead, reply = plays[2 * k], plays[2 * k + 1]

        _check_play(lead, leader, hands[leader], number, None)
        hands[leader] &= ~(1 << lead)
        ledger.record("lead", leader, 65, _play_point(lead, variant), "play",
                      cards=_name(lead), trick=number)
        ledger.check_pique("lead", number)

        if k == 0 and variant.pique_timing == "lead":
            younger_declares()              # after the first lead, before his first card

        _check_play(reply, second, hands[second], number, lead)
        hands[second] &= ~(1 << reply)
        ledger.record("reply", second, 65, cards=_name(reply), trick=number)

        second_wins = _suit(reply) == _suit(lead) and _rank(reply) > _rank(lead)
        winner = second if second_wins else leader
        ledger.scores[winner].tricks += 1
        ledger.record("trick", winner, 65, _play_point(reply, variant) if second_wins else 0,
                      "play", number=number, winner=winner,
                      cards=format_cards([lead, reply], PIQUET))
        ledger.check_pique("trick", number)
        if number == N_TRICKS:
            ledger.record("last_trick", winner, 65, 1, "play", number=number)
            ledger.check_pique("last_trick", number)
        leader = winner


def _reckon_cards(ledger: _Ledger) -> None:
    """Step 6, the cards (Law 66): 40 for capot, 10 for the most tricks, nothing when
    they are divided."""
    tricks = {p: ledger.scores[p].tricks for p in PLAYERS}
    if max(tricks.values()) == N_TRICKS:
        winner = max(PLAYERS, key=tricks.get)
        ledger.record("capot", winner, 66, 40, "cards", tricks=tricks)
    elif tricks[ELDER] == tricks[YOUNGER]:
        ledger.record("cards", None, 66, tricks=tricks, divided=True)
    else:
        winner = max(PLAYERS, key=tricks.get)
        ledger.record("cards", winner, 66, 10, "cards", tricks=tricks, divided=False)


# ---------------------------------------------------------------------------
# The partie (Laws 71–73)
# ---------------------------------------------------------------------------

def settle_partie(deal_totals: list[tuple[int, int]], variant: Variant = Variant()) -> dict:
    """Add up a partie and settle it.

    ``deal_totals[k]`` is ``(first_dealer_total, first_elder_total)`` for deal k in
    the order played (the first dealer is younger hand in deals 1, 3, 5, …).
    Law 71: six deals; under ``partie="four"`` (its note) four deals, the first and
    the last counting double.  If the regular deals leave the sums equal, exactly
    two more deals (counting single) must follow, and the partie ends, drawn if
    still equal.  Laws 72–73: the winner scores the difference + 100, or, if the
    loser failed to reach 100 (rubicon), the sum + 100, whether or not the winner
    reached 100.

    Under ``partie="four"`` the rubicon and the settlement use the counted sums
    (first and last deals doubled).

    Returns ``{"first_dealer", "first_elder"}`` (the counted sums), ``"winner"``
    (``"first_dealer"``, ``"first_elder"`` or None when drawn), ``"rubicon"`` (the
    loser under 100; False when drawn), ``"points"`` (0 when drawn), ``"deals"``.
    """
    if not isinstance(variant, Variant):
        raise RulesError(f"variant must be a Variant, got {variant!r}")
    if isinstance(deal_totals, (str, bytes)) or not hasattr(deal_totals, "__len__"):
        raise RulesError(f"deal_totals must be a list of pairs, got {deal_totals!r}")
    totals = []
    for k, pair in enumerate(deal_totals, start=1):
        try:
            first_dealer, first_elder = pair
        except (TypeError, ValueError):
            raise RulesError(f"deal {k}: expected (first_dealer, first_elder), got {pair!r}")
        for value in (first_dealer, first_elder):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) \
                    or value < 0:
                raise RulesError(f"deal {k}: a deal's total is a whole number >= 0, "
                                 f"got {value!r}")
        totals.append((int(first_dealer), int(first_elder)))

    regular = 6 if variant.partie == "six" else 4
    weights = [1] * regular
    if variant.partie == "four":
        weights[0] = weights[-1] = 2        # the first and last deals count double
    if len(totals) < regular:
        raise RulesError(f"a partie of {variant.partie} deals: expected {regular} deals, "
                         f"got {len(totals)}")
    sums = [sum(w * t[i] for w, t in zip(weights, totals)) for i in (0, 1)]
    tied = sums[0] == sums[1]
    expected = regular + 2 if tied else regular
    if len(totals) != expected:
        state = (f"tied {sums[0]}-{sums[1]}" if tied
                 else f"decided {sums[0]}-{sums[1]}")
        raise RulesError(f"the partie is {state} after {regular} deals: expected "
                         f"{expected} deals, got {len(totals)} (Law 71)")
    for first_dealer, first_elder in totals[regular:]:       # the extra deals count single
        sums[0] += first_dealer
        sums[1] += first_elder

    result = {"first_dealer": sums[0], "first_elder": sums[1], "winner": None,
              "rubicon": False, "points": 0, "deals": len(totals)}
    if sums[0] == sums[1]:
        return result
    names = ("first_dealer", "first_elder")
    win = 0 if sums[0] > sums[1] else 1
    winner, loser = sums[win], sums[1 - win]
    rubicon = loser < 100
    result.update(winner=names[win], rubicon=rubicon,
                  points=(winner + loser if rubicon else winner - loser) + 100)
    return result
