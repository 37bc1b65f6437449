"""The *jeu de règle* by its definition, computed: one first lead wins the point against
every dealer hand with at most one trump.

*Hoyle's Games Modernized* ("Écarté", Jeux de Règle) defines the hands to play without
proposing before it lists them:

    "When the cards held by a player are so good that he cannot fail to win three tricks
    unless his adversary hold two trumps, it is the rule to play without proposing. It is
    easy, by an examination of the five cards, to at once perceive how the trick must be
    won, unless the adversary hold two trumps."

The module is named after *Foster's Complete Hoyle*, which explains the "two to one" of
these hands by the same condition — the dealer holding fewer than two trumps, in 44,574 of
the 65,780 dealer hands when the elder holds one trump. The list that follows the
definition in the book is read by :mod:`ecarte_sim.engine.ecarte.decisions.regle`; this module reads
the definition itself.

The reading
    The elder plays without proposing, so there is no exchange, and he leads. A hand is a
    *jeu de règle* when **one first lead** wins the point (at least three of the five
    tricks, Law 48) against **every dealer hand holding at most one trump**, both sides
    playing perfectly after the lead with all cards known (double dummy; the second player
    to a trick follows suit, wins it if able, and trumps when void, Law 43).

    * The turn-up is a trump that neither player holds. Given, the dealer's hands are the
      five-card hands of the other 26 cards with at most one trump. Not given, every card
      of the trump suit not in the hand may be the turn-up (the turn-ups of
      :func:`ecarte_sim.engine.ecarte.deals.experiments.exact_turn_ups`, as ``hand --exact``
      enumerates them): the counts are of (turn-up, dealer hand) pairs, and the hand
      qualifies only if one lead wins against all of them.
    * ``won`` of a lead is how many of those dealer hands (pairs) it beats, every one
      counted (no early exit); ``of`` is how many there are.
    * The best lead is the one with the highest ``won``; a tie goes to the card written
      first in the canonical order of a hand (spades, hearts, diamonds, clubs; each from the
      king down).

    Why it is a reading: the text says neither how the hand is played after the first card
    nor what "cannot fail" is measured against. Fixing the first lead keeps the one
    decision the player makes before he sees any card of the dealer's; double dummy
    afterwards lets him adapt the rest of his play to the dealer's cards as if he saw them
    (the book's plans — "Lead king of spades; if not trumped, follow with queen, etc." —
    are fixed in advance and can only win against fewer hands), and makes the dealer defend
    perfectly, so "cannot fail" is against his best play. "Unless his adversary hold two
    trumps" is read as: against every hand with fewer than two.

The list and the definition
    The book's first example, "King, queen, knave of spades, eight of hearts (trumps),
    eight of diamonds. Lead king of spades; if not trumped, follow with queen, etc.", is a
    jeu de règle by this definition (leading the king — or the queen or the knave — of
    spades wins the point against all 312,018 (turn-up, dealer hand) pairs) but not by the
    wording of the list (one trump and three of a suit with a king or queen, but a fifth
    card that is neither king nor queen).

    Every five-card hand with a fixed trump suit, with each turn-up it can be dealt with
    (the 8 x C(31, 5) = 1,359,288 (hand, turn-up) pairs, equally likely in a deal; the
    turn-up known, as at the table), by :func:`survey` — an exact enumeration, so the
    figures have no sampling error:

    ==============  ==========  ========  ==========  ======
    trumps in hand  pairs       list      definition  both
    ==============  ==========  ========  ==========  ======
    0               340,032     16,968    456         456
    1               595,056     30,072    28,752      5,496
    2               340,032     133,056   52,368      37,296
    3               77,280      77,280    44,160      44,160
    4               6,720       6,720     6,720       6,720
    5               168         168       168         168
    all             1,359,288   264,264   132,624     94,296
    ==============  ==========  ========  ==========  ======

    The list takes 19.44% of dealt hands, the definition 9.76%, both 6.94%: a hand of
    the list qualifies by the definition 36% of the time, a hand of the definition is on
    the list 71% of the time. They part most with one trump (the list's rules 4 and 5
    against, e.g., one trump with three kings, ``AH KS 7S KD KC`` with hearts trumps, which
    wins against every such dealer hand whatever is led) and with no trump (the list's
    three queens or four court cards: 16,968 pairs, of which the definition keeps 456).
    Three trumps always play by the list; by the definition 57% of those pairs qualify
    (``9H 8H 7H 7S 7D``, hearts trumps, loses whatever it leads to, e.g.,
    ``TS 9S 8S TH 8D``: one trump, but above all three of the elder's). Without the turn-up (one
    lead against every turn-up) the definition takes 124,230 pairs (9.14%).

Kernels (pure: no I/O, no globals; numba cannot load a recursive kernel from its cache,
so none recurses): :func:`dealer_hands` lists the dealer's hands with at most one trump,
once, in lexicographic order; :func:`lead_counts` counts, for each of the elder's five leads, the
dealer hands it beats; :func:`qualifying_turn_ups` answers the yes/no question for every
turn-up at once, with early exits, for :func:`survey`. Each position after the lead is
solved by :func:`ecarte_sim.engine.ecarte.search.solver.search` with the null window (2, 3), the
point question. :func:`definition` is the Python entry point. Measured: a hand's counts
take 5-40 ms once compiled (six hands, every turn-up or one); the survey about a minute of one
core's time (it runs in parallel over the hands).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from math import factorial

import numpy as np
from numba import njit, prange

from ecarte_sim.engine.cards import N_CARDS, CardError, cards_of, format_card, popcount32, suit_mask
from ecarte_sim.engine.ecarte.decisions.regle_kernel import regle_rule
from ecarte_sim.engine.ecarte.laws.tricks import ELDER
from ecarte_sim.engine.ecarte.search.solver import search

HAND_SIZE = 5
#: The book's words (Hoyle's Games Modernized, "Écarté", Jeux de Règle).
WORDS = ("When the cards held by a player are so good that he cannot fail to win three "
         "tricks unless his adversary hold two trumps, it is the rule to play without "
         "proposing.")


# --------------------------------------------------------------------------- kernels

@njit(cache=True)
def wins_point_after_lead(elder, dealer, lead, trump, forced_trump):
    """Does the elder win the point (≥ 3 tricks, Law 48) once he has led ``lead`` from
    ``elder``, both playing double dummy under Law 43? A null-window search on (2, 3)."""
    rest = np.uint32(elder) ^ (np.uint32(1) << np.uint32(lead))
    return search(rest, np.uint32(dealer), ELDER, 0, lead, trump, forced_trump, 2, 3) >= 3


@njit(cache=True)
def _pack_without(elder, trump, trumps_last):
    """The cards the dealer may hold, ascending (with ``trumps_last``, the plain cards
    first, then the trumps), and for each whether it is a trump; and how many."""
    cards = np.empty(N_CARDS - HAND_SIZE, dtype=np.int64)
    is_trump = np.zeros(N_CARDS - HAND_SIZE, dtype=np.int64)
    n = 0
    for turn in range(2 if trumps_last else 1):
        for c in range(N_CARDS):
            if (np.uint32(elder) >> np.uint32(c)) & np.uint32(1) != 0:
                continue
            if trumps_last and (c >> 3 == trump) != (turn == 1):
                continue
            cards[n] = c
            is_trump[n] = 1 if c >> 3 == trump else 0
            n += 1
    return cards, is_trump, n


#: The most dealer hands :func:`dealer_hands` lists: five of the 27 cards outside the
#: elder's hand, C(27, 5), bounds those with at most one trump.
MAX_DEALER_HANDS = 80730


@njit(cache=True)
def dealer_hands(cards, is_trump, n, out):
    """Every hand of five of the ``n`` cards ``cards`` holding at most one trump
    (``is_trump``), as masks into ``out``, in lexicographic order of the cards' positions in
    ``cards``; returns how many. The one enumeration of the dealer's hands that
    :func:`lead_counts` and :func:`qualifying_turn_ups` read."""
    m = 0
    for a in range(n - 4):
        ta = is_trump[a]
        ha = np.uint32(1) << np.uint32(cards[a])
        for b in range(a + 1, n - 3):
            tb = ta + is_trump[b]
            if tb > 1:
                continue
            hb = ha | (np.uint32(1) << np.uint32(cards[b]))
            for c in range(b + 1, n - 2):
                tc = tb + is_trump[c]
                if tc > 1:
                    continue
                hc = hb | (np.uint32(1) << np.uint32(cards[c]))
                for d in range(c + 1, n - 1):
                    td = tc + is_trump[d]
                    if td > 1:
                        continue
                    hd = hc | (np.uint32(1) << np.uint32(cards[d]))
                    for e in range(d + 1, n):
                        if td + is_trump[e] > 1:
                            continue
                        out[m] = hd | (np.uint32(1) << np.uint32(cards[e]))
                        m += 1
    return m


@njit(cache=True)
def lead_counts(elder, trump, turn_ups, forced_trump, leads, won, first_loss):
    """For each lead ``leads[i]`` (the elder's five cards), ``won[i]`` = how many (turn-up,
    dealer hand) pairs it wins the point against, and ``first_loss[i]`` = the first dealer
    hand it loses to (mask; 0 if none). Returns how many pairs there are.

    The dealer hands are every five cards not in ``elder`` with at most one trump, in
    lexicographic order of card index; a hand counts once for each turn-up of the mask
    ``turn_ups`` it does not hold (the turn-up is in no hand). Every pair is counted: no
    early exit."""
    elder = np.uint32(elder)
    ups = np.uint32(turn_ups)
    cards, is_trump, n = _pack_without(elder, trump, False)
    hands = np.empty(MAX_DEALER_HANDS, dtype=np.uint32)
    m = dealer_hands(cards, is_trump, n, hands)
    for i in range(HAND_SIZE):
        won[i] = 0
        first_loss[i] = 0
    total = np.int64(0)
    for j in range(m):
        dealer = hands[j]
        weight = popcount32(ups & ~dealer)
        if weight == 0:
            continue
        total += weight
        for i in range(HAND_SIZE):
            if wins_point_after_lead(elder, dealer, leads[i], trump, forced_trump):
                won[i] += weight
            elif first_loss[i] == 0:
                first_loss[i] = dealer
    return total


@njit(cache=True)
def _lead_losses(elder, lead, trump, forced_trump, hands, m):
    """The trumps held by the dealer hands (the ``m`` masks ``hands``, at most one trump
    each: :func:`dealer_hands`) that ``lead`` loses the point to, as a mask, and whether it
    loses to a hand without a trump or to hands holding two different trumps (then it can
    qualify for no turn-up, and the enumeration stops there)."""
    losses = np.uint32(0)
    trump_bits = suit_mask(trump)
    for j in range(m):
        dealer = hands[j]
        if wins_point_after_lead(elder, dealer, lead, trump, forced_trump):
            continue
        held = dealer & trump_bits
        losses |= held
        if held == 0 or popcount32(losses) > 1:
            return losses, True
    return losses, False


@njit(cache=True)
def qualifying_turn_ups(elder, trump, forced_trump):
    """Which turn-ups make ``elder`` a jeu de règle by the definition: ``(mask of the trumps
    not in the hand whose turn-up leaves one lead winning against every dealer hand with at
    most one trump, does one lead win against them all whatever the turn-up)``.

    A lead qualifies for turn-up ``u`` when every dealer hand it loses to holds ``u`` (the
    dealer cannot hold the turn-up): a loss to a hand without a trump rules it out for every
    turn-up, and so do losses to hands with two different trumps. Each lead's enumeration
    stops once it is ruled out, and the search stops at the first lead that wins against
    every dealer hand; only the answer is exact, no count. Of a run of the elder's cards in
    sequence in one suit only the highest is tried (the others are equivalent leads: no
    card lies between them)."""
    elder = np.uint32(elder)
    cards, is_trump, n = _pack_without(elder, trump, True)
    hands = np.empty(MAX_DEALER_HANDS, dtype=np.uint32)
    m = dealer_hands(cards, is_trump, n, hands)
    free = suit_mask(trump) & ~elder
    turn_up_mask = np.uint32(0)
    for rank in range(7, -1, -1):  # high cards first: the likelier winners, found sooner
        for suit in range(4):
            lead = 8 * suit + rank
            if (elder >> np.uint32(lead)) & np.uint32(1) == 0:
                continue
            if rank < 7 and (elder >> np.uint32(lead + 1)) & np.uint32(1) != 0:
                continue  # the card above it, in the hand, is the same lead
            losses, ruled_out = _lead_losses(elder, lead, trump, forced_trump, hands, m)
            if ruled_out:
                continue
            if losses == 0:
                return free, True
            turn_up_mask |= losses
    return turn_up_mask, False


@njit(cache=True, parallel=True)
def _survey_block(hands, trump, forced_trump, rows, out_turn_ups, out_every):
    """:func:`qualifying_turn_ups` of every hand of ``hands``; row ``r`` takes the hands
    ``r, r + rows, ...`` (the slow hands, those that qualify, are spread over the rows)."""
    n = hands.shape[0]
    for r in prange(rows):
        for i in range(r, n, rows):
            mask, every = qualifying_turn_ups(hands[i], trump, forced_trump)
            out_turn_ups[i] = mask
            out_every[i] = every


# --------------------------------------------------------------------------- Python

@dataclass(frozen=True)
class Verdict:
    """The definition's verdict on one hand (card indices; masks as ints).

    ``leads`` are the elder's cards in canonical order and ``won[i]`` how many of the
    ``of`` (turn-up, dealer hand) pairs leading ``leads[i]`` wins the point against;
    ``turn_ups`` the turn-ups counted; ``loses_to`` is ``(dealer hand mask, turn-up)`` of
    the first pair the best lead loses to (lexicographic order of the dealer's card
    indices, then the lowest turn-up he does not hold), or None when it wins them all."""

    hand: int
    trump: int
    turn_ups: tuple[int, ...]
    leads: tuple[int, ...]
    won: tuple[int, ...]
    of: int
    best_lead: int
    loses_to: tuple[int, int] | None

    @property
    def best_won(self) -> int:
        """How many pairs the best lead wins against."""
        return self.won[self.leads.index(self.best_lead)]

    @property
    def qualifies(self) -> bool:
        """A jeu de règle by the definition: one lead wins against every pair."""
        return self.best_won == self.of


def turn_ups_for(hand: int, trump: int, turn_up: int | None) -> tuple[int, ...]:
    """The turn-ups the definition counts: the given one (which must be of the trump suit
    and not in the hand; :class:`CardError` names it otherwise), or every card of the trump
    suit not in the hand, as ``hand --exact`` enumerates them."""
    if turn_up is None:
        return tuple(c for c in range(8 * trump, 8 * trump + 8) if not hand >> c & 1)
    token = format_card(turn_up)
    if hand >> turn_up & 1:
        raise CardError(f"turn-up {token!r} is in the hand", token)
    if turn_up >> 3 != trump:
        raise CardError(f"turn-up {token!r} is not of the trump suit", token)
    return (int(turn_up),)


def definition(hand: int, trump: int, turn_up: int | None = None,
               forced_trump: bool = True) -> Verdict:
    """Is the five-card ``hand`` (a mask) a jeu de règle by the definition (module
    docstring), with ``trump`` (suit 0-3) and the ``turn_up`` card (None: every trump not
    in the hand)? ``forced_trump=False`` is the variant in which a void player need not
    trump (Law 43's reading is the default). Raises :class:`CardError` on a bad hand,
    suit or turn-up."""
    if isinstance(hand, bool) or not isinstance(hand, (int, np.integer)) \
            or not 0 <= int(hand) < 1 << N_CARDS or int(hand).bit_count() != HAND_SIZE:
        raise CardError("a jeu de règle is judged on a hand of five cards", str(hand))
    if isinstance(trump, bool) or not isinstance(trump, (int, np.integer)) \
            or not 0 <= int(trump) <= 3:
        raise CardError(f"trump suit must be 0-3, got {trump!r}", str(trump))
    if turn_up is not None and (isinstance(turn_up, bool)
                                or not isinstance(turn_up, (int, np.integer))
                                or not 0 <= int(turn_up) < N_CARDS):
        raise CardError(f"not a card index (0-31): {turn_up!r}", str(turn_up))
    hand, trump = int(hand), int(trump)
    ups = turn_ups_for(hand, trump, None if turn_up is None else int(turn_up))
    leads = np.array(sorted(cards_of(hand)), dtype=np.int64)
    won = np.zeros(HAND_SIZE, dtype=np.int64)
    first_loss = np.zeros(HAND_SIZE, dtype=np.uint32)
    of = int(lead_counts(np.uint32(hand), trump, np.uint32(sum(1 << u for u in ups)),
                         bool(forced_trump), leads, won, first_loss))
    by_card = {int(c): (int(w), int(f)) for c, w, f in zip(leads, won, first_loss)}
    order = tuple(cards_of(hand))  # canonical: S H D C, each from the king down
    best = max(order, key=lambda c: (by_card[c][0], -order.index(c)))
    loss = by_card[best][1]
    loses_to = None
    if loss:
        loses_to = (loss, min(u for u in ups if not loss >> u & 1))
    return Verdict(hand=hand, trump=trump, turn_ups=ups, leads=order,
                   won=tuple(by_card[c][0] for c in order), of=of, best_lead=best,
                   loses_to=loses_to)


def survey(rows: int = 256, forced_trump: bool = True) -> dict:
    """Every five-card hand, with each turn-up it can be dealt with (a fixed trump suit:
    the 8 x C(31, 5) = 1,359,288 (hand, turn-up) pairs, equally likely), judged by the list
    (:func:`ecarte_sim.engine.ecarte.decisions.regle_kernel.regle_rule`) and by the definition with the
    turn-up known: how many pairs are jeux de règle by each and by both, and (``every``)
    how many by the definition whatever the turn-up (one lead for all). Counts by the
    number of trumps in the hand too (``by_trumps``). Exact; the plain suits are
    interchangeable, so one hand of each arrangement is solved and counted for all."""
    trump = 0
    hands, weights = [], []
    for combo in combinations(range(N_CARDS), HAND_SIZE):
        mask = sum(1 << c for c in combo)
        plain = [mask >> (8 * s) & 0xFF for s in (1, 2, 3)]
        if plain[0] >= plain[1] >= plain[2]:
            repeats = 1
            for x in set(plain):
                repeats *= factorial(plain.count(x))
            hands.append(mask)
            weights.append(6 // repeats)
    masks = np.array(hands, dtype=np.uint32)
    out_turn_ups = np.zeros(masks.size, dtype=np.uint32)
    out_every = np.zeros(masks.size, dtype=np.bool_)
    _survey_block(masks, trump, bool(forced_trump), rows, out_turn_ups, out_every)
    keys = ("pairs", "list", "definition", "both", "every")
    by_trumps = {k: dict.fromkeys(keys, 0) for k in range(HAND_SIZE + 1)}
    for mask, weight, ups, every in zip(hands, weights, out_turn_ups, out_every):
        k = (mask & 0xFF).bit_count()
        dealt = weight * (8 - k)
        qualifying = weight * int(ups).bit_count()
        by_list = bool(regle_rule(np.uint32(mask), trump))
        row = by_trumps[k]
        row["pairs"] += dealt
        row["list"] += dealt if by_list else 0
        row["definition"] += qualifying
        row["both"] += qualifying if by_list else 0
        row["every"] += dealt if every else 0
    total = {key: sum(row[key] for row in by_trumps.values()) for key in keys}
    return {**total, "by_trumps": by_trumps}
