"""Decision policies of the whole deal: the elder's play-or-propose, the dealer's
accept-or-refuse, and both players' discards (Hoyle's advice, Hoyle's Games Modernized).

One policy interface for every kernel: a policy is an id (its enum in
:mod:`ecarte_sim.engine.ecarte.settings`) plus integer parameters in the kernel's ``cfg``
array; scripted decisions
(id 0) read a ``script`` array, so that the kernels and the reference can be
driven through the same choices. The names below are the ones the CLI takes. The
functions that take ``cfg`` or ``script`` and decide a round are compiled with
``_nrt=False`` (no reference counting of those arrays on every call): the inferring
player calls them once per proposal (:mod:`ecarte_sim.engine.ecarte.play.inferred_worlds`).

Elder (non-dealer): play without proposing, or propose
    ``regle``           "hands which ought to be played without proposing" — play iff the
                        hand is a *jeu de règle* of Hoyle's list
                        (:mod:`ecarte_sim.engine.ecarte.decisions.regle`), else propose.
    ``always-play``     never propose.
    ``always-propose``  propose whenever the stock allows.
    ``threshold``       play iff :func:`strength` >= the threshold parameter (default 8).
    Proposing again (Law 26 note: after an exchange the elder may propose again): every
    policy decides afresh on the new hand, until the stock runs out or ``max_proposals``
    proposals have been made (0 = no limit; "inexperienced players ... continue proposing
    till the pack is exhausted").

Dealer: accept or refuse a proposal
    ``maxims``          the dealer's maxims (Hoyle's Games Modernized), in this order (the specific
                        before the general):

                        1. "With three trumps, refuse, unless the king of trumps is one of
                           the three" — three or more trumps: accept iff the king of trumps
                           is among them, else refuse.
                        2. "With one trump, two queens guarded, or a king and queen
                           guarded, refuse" — one trump and, among the plain cards, two
                           queens each with another card of her suit, or a king and a
                           queen with another card of her suit: refuse.
                        3. "With only one trump and one king, no matter what the other
                           suits may be, if not having a card higher than a ten, accept" —
                           one trump, exactly one plain king, and no plain ace, knave or
                           queen: accept.
                        4. "As a general rule, refuse if only two cards can be discarded. A
                           king or a trump should not be discarded in the first
                           instance" — at most two cards that are neither trumps nor kings:
                           refuse.
                        5. Where the maxims are silent (documented default): refuse iff the
                           dealer's own hand is a *jeu de règle* ("hands which ought to be
                           played without proposing or accepting"), else accept.
    ``regle``           refuse iff the dealer's hand is a jeu de règle.
    ``always-accept``, ``always-refuse``.

Table (elder and dealer; not offered on the command line)
    The decision read from a table indexed by canonical state
    (:mod:`ecarte_sim.engine.ecarte.decisions.states`: the player's five cards and the turn-up)
    and, if the table has one row per score, by the score before the deal
    (``5 * elder's score + dealer's score``). The tables ride in the ``script`` after
    its scripted values, one bit per state (layout below; built by
    :func:`ecarte_sim.engine.ecarte.decisions.tables.policy_script`). The later rounds (a
    proposal after an exchange, its answer, a later discard) read the *later* tables
    when the script carries them (solved for those rounds: Law 49 doubles nothing there,
    and a player knows his discards), else the same table on the new hand (the turn-up
    stays): the abstraction of the first solves.

Discard (both players): the rules keep every trump and the plain cards from a rank up
    ``trumps-kings``    (default) "A king or a trump should not be discarded in the first
                        instance": discard every card that is neither a trump nor a king.
    ``trumps-queens``   keep trumps, kings and queens.
    ``trumps-knaves``   keep trumps, kings, queens and knaves.
    ``trumps-aces``     keep trumps and every plain king, queen, knave and ace.
    ``trumps-only``     keep only trumps.
    ``fewest``          keep all five: the dealer takes no card, the elder discards his
                        weakest (the least the laws allow).
    The elder must discard at least one card (Law 27): if the rule keeps all five, he
    discards his weakest card (see ``WEAKNESS`` below). The dealer may keep all five.
    Why these six are the discards worth considering (the actions of the strategy
    solver, :mod:`ecarte_sim.analysis.ecarte.solving.proposal_game`): of two plain cards of one
    suit the higher wins every trick the lower wins, so a sane player keeps of each
    plain suit a top segment, never a card below one he throws; a trump beats every
    plain card and the card drawn for it is a trump only about one time in four, so he
    keeps his trumps; and the treatise speaks of what to keep by rank alone ("a king
    or a trump should not be discarded"). A rank threshold, the same in every plain
    suit, is that family: a rule per threshold from "trumps only" to "all five". Left
    out, and so a limit of what the solver can find: keeping a long plain suit's low
    cards while throwing a lone higher card of another suit, and throwing a low trump.
    ``table``           (not offered on the command line) the rule read from a table by
                        canonical state of the player's five cards and the turn-up (and
                        the score), like the decision tables below; later exchanges read
                        the same table on the new hand.

Weakness order (also used to cut a discard down when the stock runs short, Law 38):
``key = 32 * is_trump + 4 * rank + suit`` — plain sevens first, plain kings last among
plain cards, then trumps from the seven up.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.cards import N_CARDS, bit_index, lowest_bit, popcount32, suit_mask
from ecarte_sim.engine.ecarte.decisions.regle_kernel import regle_rule
from ecarte_sim.engine.ecarte.decisions.states import N_STATES, state_index
from ecarte_sim.engine.ecarte.settings import (CFG, DISCARD_BY_POLICY, DealerPolicy, Discard,
                                               ElderPolicy)

# Script layout (int64, one row of SCRIPT_LEN): 24 rounds of each decision, then the
# play priority (a permutation of the 32 cards), then cards forced in the play: the
# elder's first to fifth card, then the dealer's, each a card index + 1 (0: his play
# model decides; a forced card that is not legal then is left to the model too).
MAX_ROUNDS = 24
S_ELDER_PROPOSE = 0
S_ELDER_DISCARD = MAX_ROUNDS
S_DEALER_ACCEPT = 2 * MAX_ROUNDS
S_DEALER_DISCARD = 3 * MAX_ROUNDS
S_PRIORITY = 4 * MAX_ROUNDS
S_FORCED = S_PRIORITY + 32
SCRIPT_LEN = S_FORCED + 10
# Decision tables after the scripted values: the rows per table (1, or SCORE_SLOTS by
# score), the N_STATES state keys, then the elder's rows (bit = propose) and the
# dealer's rows (bit = accept), TABLE_WORDS words each, bit ``i & 63`` of word
# ``i >> 6`` for state ``i``; then the elder's and the dealer's discard rows, a Discard
# rule in 4 bits per state, DISCARD_WORDS words each, bits ``4 * (i & 15)`` up of word
# ``i >> 4``. Optionally the *later* tables follow, for the rounds after the first
# exchange: one word, their rows per table, then the same four blocks (:func:`later_at`).
SCORE_SLOTS = 25
TABLE_WORDS = (N_STATES + 63) // 64
DISCARD_WORDS = (N_STATES + 15) // 16
S_TABLE_ROWS = SCRIPT_LEN
S_STATE_KEYS = S_TABLE_ROWS + 1
S_TABLES = S_STATE_KEYS + N_STATES
ELDER_TABLE, DEALER_TABLE = 0, 1
#: The discard rules, in the order the strategy solver tries them (the module docstring).
DISCARD_RULES = (Discard.TRUMPS_ONLY, Discard.TRUMPS_KINGS, Discard.TRUMPS_QUEENS,
                 Discard.TRUMPS_KNAVES, Discard.TRUMPS_ACES, Discard.FEWEST)


def empty_script() -> np.ndarray:
    """A ``script`` that decides nothing (every policy its own), play priority by card."""
    script = np.zeros(SCRIPT_LEN, dtype=np.int64)
    script[S_PRIORITY:S_PRIORITY + N_CARDS] = np.arange(N_CARDS)
    return script


# Rank bits inside each suit byte (Écarté order 7 8 9 10 A J Q K = bits 0..7).
_KINGS = np.uint32(0x80808080)
_QUEENS = np.uint32(0x40404040)
_KNAVES = np.uint32(0x20202020)
_ACES = np.uint32(0x10101010)
_FULL = np.uint32(0xFFFFFFFF)


@njit(cache=True)
def weakness(card, trump):
    """Weakness key: lower = discarded (or thrown) first."""
    return 32 * np.int64((card >> 3) == trump) + 4 * np.int64(card & 7) + np.int64(card >> 3)


@njit(cache=True)
def weakest(mask, count, trump):
    """Mask of the ``count`` weakest cards of ``mask`` (all of them if fewer)."""
    mask = np.uint32(mask)
    out = np.uint32(0)
    for _ in range(count):
        if mask == 0:
            break
        best = -1
        best_key = 1 << 30
        rest = mask
        while rest:
            bit = lowest_bit(rest)
            rest ^= bit
            c = bit_index(bit)
            key = weakness(c, trump)
            if key < best_key:
                best_key = key
                best = c
        b = np.uint32(1) << np.uint32(best)
        out |= b
        mask ^= b
    return out


@njit(cache=True)
def strength(hand, trump):
    """A points count for ``threshold`` (half-tricks, roughly): each trump 3, plus 1 for the
    king or queen of trumps; each plain king 2; each plain queen 1; each plain knave with
    the king or queen of its suit 1. Three trumps make 9; two trumps and a king 8; one
    trump with K Q x of a suit and another king 8 (the default threshold).
    """
    hand = np.uint32(hand)
    trumps = hand & suit_mask(trump)
    plain = hand & ~suit_mask(trump) & _FULL
    score = 3 * popcount32(trumps) + popcount32(trumps & (_KINGS | _QUEENS))
    score += 2 * popcount32(plain & _KINGS) + popcount32(plain & _QUEENS)
    for suit in range(4):
        cards = plain & suit_mask(suit)
        if cards & _KNAVES and cards & (_KINGS | _QUEENS):
            score += 1
    return score


@njit(cache=True)
def score_slot(elder_score, dealer_score):
    """The row of a by-score table: ``5 * elder's score + dealer's score`` (0..4 each;
    a higher score, possible only outside a game of five, reads row 4)."""
    return 5 * min(elder_score, 4) + min(dealer_score, 4)


@njit(cache=True, _nrt=False)
def later_at(script):
    """Where the later rounds' tables start in ``script`` (the word holding their rows per
    table), or -1 when it carries none (the later rounds then read the first tables)."""
    if script.shape[0] <= S_TABLE_ROWS:
        return -1
    at = S_TABLES + 2 * script[S_TABLE_ROWS] * (TABLE_WORDS + DISCARD_WORDS)
    return at if script.shape[0] > at else -1


@njit(cache=True, _nrt=False)
def _block(script, rnd):
    """(first word of the tables, rows per table) that round ``rnd`` reads."""
    if rnd > 0:
        at = later_at(script)
        if at >= 0:
            return at + 1, script[at]
    return np.int64(S_TABLES), script[S_TABLE_ROWS]


@njit(cache=True, _nrt=False)
def table_says(script, table, hand, turn_up, slot, rnd):
    """The bit of ``table`` (``ELDER_TABLE``: propose; ``DEALER_TABLE``: accept) for the
    state of (``hand``, ``turn_up``), in row ``slot`` if the tables are by score; a later
    round ``rnd`` reads the later tables if the script carries them."""
    start, rows = _block(script, rnd)
    state = state_index(np.uint32(hand), turn_up, script[S_STATE_KEYS:S_TABLES])
    row = table * rows + (slot if rows > 1 else 0)
    word = script[start + row * TABLE_WORDS + (state >> 6)]
    return ((word >> (state & 63)) & 1) != 0


@njit(cache=True, _nrt=False)
def table_discard_rule(script, table, hand, turn_up, slot, rnd):
    """The discard rule (a ``Discard`` value) of ``table`` (``ELDER_TABLE`` or
    ``DEALER_TABLE``) for the state of (``hand``, ``turn_up``), row ``slot`` if by score;
    a later round ``rnd`` reads the later tables if the script carries them."""
    start, rows = _block(script, rnd)
    state = state_index(np.uint32(hand), turn_up, script[S_STATE_KEYS:S_TABLES])
    row = table * rows + (slot if rows > 1 else 0)
    start += 2 * rows * TABLE_WORDS
    word = script[start + row * DISCARD_WORDS + (state >> 4)]
    return (word >> (4 * (state & 15))) & 15


@njit(cache=True, _nrt=False)
def elder_proposes(policy, threshold, hand, trump, rnd, script, turn_up, slot):
    """True if the elder proposes in round ``rnd`` (the caller has checked he may);
    ``turn_up`` and the score ``slot`` are read by the table policy only."""
    if policy == ElderPolicy.SCRIPTED:
        return script[S_ELDER_PROPOSE + min(rnd, MAX_ROUNDS - 1)] != 0
    if policy == ElderPolicy.TABLE:
        return table_says(script, ELDER_TABLE, hand, turn_up, slot, rnd)
    if policy == ElderPolicy.REGLE:
        return regle_rule(hand, trump) == 0
    if policy == ElderPolicy.ALWAYS_PLAY:
        return False
    if policy == ElderPolicy.ALWAYS_PROPOSE:
        return True
    return strength(hand, trump) < threshold


@njit(cache=True)
def _guarded(plain, rank_bits):
    """Number of cards of ``rank_bits`` in ``plain`` with another card of their suit."""
    n = 0
    for suit in range(4):
        cards = plain & suit_mask(suit)
        if cards & rank_bits and popcount32(cards) >= 2:
            n += 1
    return n


#: Which of the dealer's maxims speaks for a hand (:func:`maxim_case`), in the order
#: they are applied, and whether it says accept.
MAXIM_CASES = ("three-trumps-with-king", "three-trumps-no-king", "one-trump-guarded-courts",
               "one-trump-one-king-low", "two-to-discard", "silent-jeu-de-regle",
               "silent-other")
MAXIM_ACCEPTS = (True, False, False, True, False, False, True)


@njit(cache=True)
def maxim_case(hand, trump):
    """Index (1-based, see ``MAXIM_CASES``) of the dealer's maxim that decides for the
    dealer's ``hand``: the specific before the general (module docstring)."""
    hand = np.uint32(hand)
    trumps = hand & suit_mask(trump)
    plain = hand & ~suit_mask(trump) & _FULL
    n_trumps = popcount32(trumps)
    if n_trumps >= 3:
        return 1 if (trumps & _KINGS) != 0 else 2
    if n_trumps == 1:
        guarded_queens = _guarded(plain, _QUEENS)
        if guarded_queens >= 2 or (plain & _KINGS and guarded_queens >= 1):
            return 3
        if popcount32(plain & _KINGS) == 1 and (plain & (_ACES | _KNAVES | _QUEENS)) == 0:
            return 4
    if popcount32(plain & ~_KINGS & _FULL) <= 2:
        return 5
    return 6 if regle_rule(hand, trump) != 0 else 7


@njit(cache=True)
def maxims_accept(hand, trump):
    """The dealer's maxims (Hoyle's Games Modernized) (see the module docstring), True = accept."""
    case = maxim_case(hand, trump)
    return case == 1 or case == 4 or case == 7


@njit(cache=True, _nrt=False)
def dealer_accepts(policy, hand, trump, rnd, script, turn_up, slot):
    """True if the dealer accepts the elder's proposal of round ``rnd``; ``turn_up`` and
    the score ``slot`` are read by the table policy only."""
    if policy == DealerPolicy.SCRIPTED:
        return script[S_DEALER_ACCEPT + min(rnd, MAX_ROUNDS - 1)] != 0
    if policy == DealerPolicy.TABLE:
        return table_says(script, DEALER_TABLE, hand, turn_up, slot, rnd)
    if policy == DealerPolicy.MAXIMS:
        return maxims_accept(hand, trump)
    if policy == DealerPolicy.REGLE:
        return regle_rule(hand, trump) == 0
    return policy == DealerPolicy.ALWAYS_ACCEPT


@njit(cache=True)
def kept_plain(rule):
    """The plain ranks (bits of every suit byte) a discard ``rule`` keeps besides the
    trumps (the module docstring)."""
    if rule == Discard.TRUMPS_KINGS:
        return _KINGS
    if rule == Discard.TRUMPS_QUEENS:
        return _KINGS | _QUEENS
    if rule == Discard.TRUMPS_KNAVES:
        return _KINGS | _QUEENS | _KNAVES
    if rule == Discard.TRUMPS_ACES:
        return _KINGS | _QUEENS | _KNAVES | _ACES
    if rule == Discard.FEWEST:
        return _FULL
    return np.uint32(0)


@njit(cache=True)
def rule_discard(rule, hand, trump):
    """The cards discard ``rule`` throws from ``hand`` (before Law 38 or the minimum of
    one): every card that is neither a trump nor of a rank the rule keeps."""
    hand = np.uint32(hand)
    keep = (hand & suit_mask(trump)) | (hand & kept_plain(rule))
    return hand & ~keep & _FULL


@njit(cache=True, _nrt=False)
def discard_choice(policy, hand, trump, rnd, script, script_row, turn_up, slot):
    """The cards a player chooses to discard (before Law 38 or the minimum of one);
    ``script_row`` (``S_ELDER_DISCARD`` or ``S_DEALER_DISCARD``) says whose, and
    ``turn_up`` and the score ``slot`` are read by the table policy only."""
    hand = np.uint32(hand)
    if policy == Discard.SCRIPTED:
        return np.uint32(script[script_row + min(rnd, MAX_ROUNDS - 1)]) & hand
    if policy == Discard.TABLE:
        table = ELDER_TABLE if script_row == S_ELDER_DISCARD else DEALER_TABLE
        policy = table_discard_rule(script, table, hand, turn_up, slot, rnd)
    return rule_discard(policy, hand, trump)


_C = CFG.at


@njit(cache=True, _nrt=False)
def discard_policy(cfg, player, rnd):
    """The discard rule ``player`` (0 elder, 1 dealer) follows in round ``rnd``: his
    discard policy, or in round 0 the first discard ``cfg`` forces (a paired run's arm)."""
    policy = cfg[_C.ELDER_DISCARD] if player == 0 else cfg[_C.DEALER_DISCARD]
    first = cfg[_C.ELDER_FIRST_DISCARD] if player == 0 else cfg[_C.DEALER_FIRST_DISCARD]
    if rnd == 0 and first != DISCARD_BY_POLICY:
        return first
    return policy


@njit(cache=True, _nrt=False)
def thrown_cards(cfg, script, player, hand, trump, rnd, room, turn_up, slot):
    """The cards ``player`` (0 elder, 1 dealer) throws from ``hand`` in round ``rnd`` when
    ``room`` stock cards can replace them: his rule's choice (:func:`discard_policy`); the
    elder throws at least one, his weakest (Law 27), and so does a dealer under
    ``dealer_min_one`` while the stock has a card; no one throws more than the stock can
    replace: the weakest ``room`` (Law 38)."""
    out = discard_choice(discard_policy(cfg, player, rnd), hand, trump, rnd, script,
                         S_ELDER_DISCARD if player == 0 else S_DEALER_DISCARD, turn_up, slot)
    if out == 0 and (player == 0 or (cfg[_C.DEALER_MIN_ONE] != 0 and room > 0)):
        out = weakest(hand, 1, trump)
    if popcount32(out) > room:
        out = weakest(out, room, trump)
    return out
