"""A slow, plain, independent Écarté reference: the deal, the trick rules, double dummy.

This module is written to be read beside the laws (the Club Code *Laws of Écarté*, as quoted in *Hoyle's Games Modernized*,
the Club Code as quoted in Hoyle's Games Modernized) and the rules summary of
the *Rules of Écarté* summary).  It exists to check the fast engine (``ecarte_sim.engine.ecarte.laws.deal``,
``ecarte_sim.engine.ecarte.laws.tricks``, ``ecarte_sim.engine.ecarte.search.solver``) against something that anyone
can verify by eye, so it deliberately shares **no code** with that engine: its
only project import is the card notation of :mod:`ecarte_sim.engine.cards` (the card
numbering, the parsers and :class:`~ecarte_sim.engine.cards.CardError`).

Inside, a card is a :class:`Card` ``(suit, rank)`` and a hand is a
``frozenset`` of cards; there are no bit masks.  At the public boundary cards are
the shared integer indices ``suit * 8 + rank`` (suits 0 = ♠, 1 = ♥, 2 = ♦,
3 = ♣; Écarté ranks 0..7 = 7 8 9 10 A J Q K, "the king is the highest card, the
ace ranking between the knave and the ten", Hoyle's Games Modernized), so the results can be
compared with the fast engine directly.

Contents

* :func:`deal` — SplitMix64 and the Fisher–Yates shuffle, bit-for-bit the same
  deal as the fast engine (Law 8: five cards each; Law 10 / Rules of Écarté 7:
  the eleventh card is turned up for trumps; the rest is the stock).
* :func:`legal_replies`, :func:`leader_wins`, :func:`trick_winner`,
  :func:`legal_moves`, :func:`play` — the trick rules of Law 43 and the Rules of Écarté.
* :func:`solve`, :func:`move_values` — plain double-dummy minimax (a memo, no
  pruning), the elder maximising his own trick count and the dealer minimising it.
* :func:`playout_lines`, :func:`playouts`, :func:`best_and_worst` — every legal
  continuation, for claims such as "he must lose the point, no matter how Y
  plays".
* :func:`jeu_de_regle` — Hoyle's list of hands to play without proposing.
* :func:`opponent_posterior` — what the proposals say of the opponent's hand: every
  history of his hand enumerated and weighed alike.
* :func:`whole_deal` — a whole deal from the turn-up to the marks, step by step
  as ``engine/ecarte/rules_whole_deal.md`` says: the king turned (Law 22),
  proposals and exchanges (Laws 26–27, 38), kings in hand (Laws 23, 47), the
  play (Law 43) and the point (Laws 48–49), with the decisions fixed by a
  :class:`Script` (or double-dummy play).
"""

from __future__ import annotations

import itertools
import numbers
from dataclasses import dataclass
from typing import Iterable, Iterator, NamedTuple

from ecarte_sim.engine.cards import CardError, cards_of, format_card, parse_suit

__all__ = [
    "ELDER", "DEALER", "HAND_SIZE", "Card", "ReferenceDeal", "Position",
    "GAMMA", "mix64", "splitmix64_output", "WordStream", "draw_batch",
    "SHUFFLE_BATCHES", "shuffle", "deal",
    "legal_replies", "leader_wins", "trick_winner", "legal_moves", "play",
    "make_position", "solve", "move_values", "playout_lines", "playouts",
    "best_and_worst", "jeu_de_regle",
    "PLAYED_WITHOUT_PROPOSING", "REFUSED_FIRST", "Script", "WholeDeal", "whole_deal",
    "opponent_posterior",
]

ELDER = 0    #: the non-dealer, who leads to the first trick
DEALER = 1
HAND_SIZE = 5
N_SUITS = 4
N_RANKS = 8
N_CARDS = 32


# ---------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------

class Card(NamedTuple):
    """One card: ``suit`` 0..3 (♠ ♥ ♦ ♣) and Écarté ``rank`` 0..7 (7 8 9 10 A J Q K)."""

    suit: int
    rank: int

    @classmethod
    def from_index(cls, index: int) -> "Card":
        """The card with the shared index ``suit * 8 + rank``."""
        return cls(index // N_RANKS, index % N_RANKS)

    @property
    def index(self) -> int:
        """The shared integer index ``suit * 8 + rank`` (see :mod:`ecarte_sim.engine.cards`)."""
        return self.suit * N_RANKS + self.rank

    def __str__(self) -> str:
        return format_card(self.index, pretty=True)


def _card_index(value, what: str) -> int:
    """Check one public card value (an int 0..31) and return it as a plain int."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise CardError(f"{what}: not a card index: {value!r}", repr(value))
    index = int(value)
    if not 0 <= index < N_CARDS:
        raise CardError(f"{what}: card index {index} is outside 0..31", str(index))
    return index


def _hand_indices(cards, what: str) -> frozenset[int]:
    """A public hand (an iterable of card indices, or a 32-bit mask) as a frozenset.

    A card written twice in the iterable is an error (it cannot be held twice).
    """
    if isinstance(cards, numbers.Integral) and not isinstance(cards, bool):
        mask = int(cards)
        if not 0 <= mask < 1 << N_CARDS:
            raise CardError(f"{what}: mask {mask:#x} is not a 32-bit hand", hex(mask))
        return frozenset(cards_of(mask))
    seen: set[int] = set()
    for value in cards:
        index = _card_index(value, what)
        if index in seen:
            token = format_card(index)
            raise CardError(f"{what}: card {token!r} is written twice", token)
        seen.add(index)
    return frozenset(seen)


def _to_cards(indices: Iterable[int]) -> frozenset[Card]:
    return frozenset(Card.from_index(i) for i in indices)


def _to_indices(cards: Iterable[Card]) -> frozenset[int]:
    return frozenset(c.index for c in cards)


def _trump_suit(trump) -> int:
    """A trump suit given as 0..3 or as text (``"D"``, ``"♦"``, ``"diamonds"``)."""
    if isinstance(trump, str):
        return parse_suit(trump)
    if isinstance(trump, bool) or not isinstance(trump, numbers.Integral) \
            or not 0 <= int(trump) < N_SUITS:
        raise CardError(f"trump suit must be 0..3, got {trump!r}", repr(trump))
    return int(trump)


# ---------------------------------------------------------------------------
# The deal: SplitMix64 and a forward Fisher–Yates shuffle
# ---------------------------------------------------------------------------

MASK64 = (1 << 64) - 1
TWO64 = 1 << 64
#: The SplitMix64 increment (the golden ratio in 64-bit fixed point).
GAMMA = 0x9E3779B97F4A7C15
#: Each deal owns its own run of 2**20 words of the seed's stream.
WORDS_PER_DEAL = 1 << 20


def mix64(z: int) -> int:
    """SplitMix64's finaliser (Stafford's "Mix13"), on Python integers mod 2**64."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def splitmix64_output(seed: int, position: int) -> int:
    """Output number ``position`` (0-based) of SplitMix64 started from ``seed``.

    The generator's state after ``p + 1`` steps is ``seed + (p + 1) * GAMMA``,
    so any output can be computed directly, without running the ones before it.
    """
    return mix64((seed + (position + 1) * GAMMA) & MASK64)


class WordStream:
    """The 64-bit words of deal ``index`` of ``seed``: word k is output ``index * 2**20 + k``."""

    def __init__(self, seed: int, index: int):
        self.seed = seed & MASK64
        self.first_position = index * WORDS_PER_DEAL
        self.words_used = 0

    def next_word(self) -> int:
        word = splitmix64_output(self.seed, self.first_position + self.words_used)
        self.words_used += 1
        return word

    __call__ = next_word


def draw_batch(next_word, bounds: Iterable[int]) -> list[int]:
    """Several unbiased draws ``d_j`` in ``[0, b_j)`` from one 64-bit word.

    Multiply the word by each bound in turn: the high 64 bits of the product
    are the draw, the low 64 bits are kept for the next bound.  The batch is
    exact (every outcome equally likely) once the words whose final remainder
    falls below ``2**64 mod (b_1 * ... * b_m)`` are rejected; a rejected word
    is thrown away and the whole batch is drawn again from the next word.
    ``next_word`` is any callable returning the next word of the stream.
    """
    bounds = list(bounds)
    product = 1
    for b in bounds:
        product *= b
    threshold = TWO64 % product
    while True:
        x = next_word()
        draws = []
        for b in bounds:
            t = x * b
            draws.append(t >> 64)
            x = t & MASK64
        if x >= threshold:
            return draws


#: The 31 Fisher–Yates draws for 32 cards (bounds 32, 31, ..., 2) in three
#: batches whose products fit in 64 bits: 32..22, 21..8 and 7..2.
SHUFFLE_BATCHES = (tuple(range(32, 21, -1)), tuple(range(21, 7, -1)), tuple(range(7, 1, -1)))


def shuffle(seed: int, index: int) -> list[int]:
    """The shuffled pack of deal ``index`` of ``seed``, as card indices, top first.

    Forward Fisher–Yates: for position ``i = 0 .. 30`` draw ``r`` uniform in
    ``[0, 32 - i)`` and swap ``pack[i]`` with ``pack[i + r]``.
    """
    words = WordStream(seed, index)
    draws = [d for bounds in SHUFFLE_BATCHES for d in draw_batch(words, bounds)]
    pack = list(range(N_CARDS))
    for i, r in enumerate(draws):
        pack[i], pack[i + r] = pack[i + r], pack[i]
    return pack


@dataclass(frozen=True)
class ReferenceDeal:
    """One deal: the two hands (card indices), the turn-up, the stock top first."""

    elder: frozenset[int]
    dealer: frozenset[int]
    turn_up: int
    stock: tuple[int, ...]

    @property
    def trump(self) -> int:
        """The trump suit is the suit of the turn-up (Law 10)."""
        return self.turn_up // N_RANKS


def deal(seed: int, index: int) -> ReferenceDeal:
    """Deal ``index`` (0, 1, 2, ...) of ``seed``.

    The pack after :func:`shuffle` is dealt from the top: the first five cards
    to the elder (the non-dealer), the next five to the dealer (Law 8 gives
    each five cards; with a uniformly shuffled pack, handing them out by twos
    and threes gives hands with the same distribution as one block of five each), the eleventh is
    turned up for trumps (Law 10: "the dealer must turn up for trumps the top
    card of those remaining"), and the 21 cards left are the stock, top first.
    The seed is taken modulo 2**64.
    """
    if isinstance(index, bool) or not isinstance(index, numbers.Integral) or index < 0:
        raise ValueError(f"deal index must be a non-negative integer, got {index!r}")
    pack = shuffle(int(seed), int(index))
    return ReferenceDeal(elder=frozenset(pack[0:5]), dealer=frozenset(pack[5:10]),
                         turn_up=pack[10], stock=tuple(pack[11:32]))


# ---------------------------------------------------------------------------
# The trick (Law 43; Rules of Écarté: "the second must follow suit, or win the trick
# if he can; otherwise he may throw any card he chooses")
# ---------------------------------------------------------------------------

def _legal_replies(hand: frozenset[Card], led: Card, trump: int,
                   forced_trump: bool) -> frozenset[Card]:
    """The cards the second player may play to ``led`` (see :func:`legal_replies`)."""
    same_suit = {c for c in hand if c.suit == led.suit}
    if same_suit:
        # Law 43: renouncing while holding the suit led is a revoke, and
        # "fail[ing] to win the trick when able" is an offence too.
        higher = {c for c in same_suit if c.rank > led.rank}
        return frozenset(higher or same_suit)
    trumps = {c for c in hand if c.suit == trump}
    if forced_trump and trumps:
        # Void in the suit led: any trump wins the trick, so a player able to
        # trump is "able to win the trick" and must do it.
        return frozenset(trumps)
    return frozenset(hand)


def _leader_wins(led: Card, reply: Card, trump: int) -> bool:
    """Does the leader win the trick ``led`` / ``reply``?

    The follower wins with a higher card of the suit led, or with a trump on a
    card that is not a trump ("a seven of trumps can take the king of another
    suit", Hoyle's Games Modernized); a higher trump beats a lower one because it is then a
    higher card of the suit led.  Anything else leaves the trick to the leader.
    """
    if reply.suit == led.suit:
        return reply.rank < led.rank
    return reply.suit != trump


def legal_replies(hand, led: int, trump, forced_trump: bool = True) -> frozenset[int]:
    """The cards of ``hand`` the second player may play to the card ``led``.

    Law 43 and the Rules of Écarté: he must follow suit; following, he must win the trick
    if he can (play a higher card of the suit led when he has one); void in the
    suit led he must trump if he has a trump (``forced_trump=True``, "fail to
    win the trick when able"; with ``False`` a void player may play anything);
    otherwise he may play any card.

    ``hand`` is an iterable of card indices (or a 32-bit mask), ``led`` a card
    index, ``trump`` the trump suit 0..3.
    """
    cards = _to_cards(_hand_indices(hand, "hand"))
    led_card = Card.from_index(_card_index(led, "led card"))
    return _to_indices(_legal_replies(cards, led_card, _trump_suit(trump), forced_trump))


def leader_wins(led: int, reply: int, trump) -> bool:
    """True when the card ``led`` wins the trick against ``reply`` (see :func:`trick_winner`)."""
    return _leader_wins(Card.from_index(_card_index(led, "led card")),
                        Card.from_index(_card_index(reply, "reply")), _trump_suit(trump))


def trick_winner(led: int, reply: int, trump) -> str:
    """``'leader'`` or ``'follower'``: who wins the trick ``led`` / ``reply``."""
    return "leader" if leader_wins(led, reply, trump) else "follower"


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Position:
    """A position in the play of one hand (all cards as indices).

    ``elder`` and ``dealer`` are the cards each still holds; ``leader`` (0 =
    elder, 1 = dealer) leads the current trick; ``elder_tricks`` is how many
    tricks the elder has already won; ``led`` is the card already led to the
    current trick (no longer in the leader's hand) or ``None``.  Build one with
    :func:`make_position`, which checks it.
    """

    elder: frozenset[int]
    dealer: frozenset[int]
    trump: int
    leader: int = ELDER
    elder_tricks: int = 0
    led: int | None = None
    forced_trump: bool = True

    @property
    def to_move(self) -> int:
        """The player to play a card: the leader, or the follower once a card is led."""
        return self.leader if self.led is None else 1 - self.leader

    @property
    def finished(self) -> bool:
        return self.led is None and not self.elder and not self.dealer

    def hand(self, player: int) -> frozenset[int]:
        return self.elder if player == ELDER else self.dealer


def make_position(elder, dealer, trump, leader=ELDER, elder_tricks=0, led=None,
                  forced_trump=True) -> Position:
    """Check a position and return it as a :class:`Position`.

    Raises :class:`CardError` for an inconsistent position: a card that is not
    a card, a card held twice or by both players, a led card still in a hand,
    hands of more than five cards, hands of unequal size with nothing led, a
    led card when the leader does not hold exactly one card fewer than the
    follower, a leader other than 0/1, or more tricks won than played.
    """
    e = _hand_indices(elder, "elder hand")
    d = _hand_indices(dealer, "dealer hand")
    for card in sorted(e & d):
        token = format_card(card)
        raise CardError(f"card {token!r} is in both the elder and the dealer hand", token)
    suit = _trump_suit(trump)
    if isinstance(leader, bool) or leader not in (ELDER, DEALER):
        raise CardError(f"leader must be 0 (elder) or 1 (dealer), got {leader!r}", repr(leader))
    if max(len(e), len(d)) > HAND_SIZE:
        raise CardError(f"hands of {len(e)} and {len(d)} cards: at most five each", None)
    led_card = None
    if led is None:
        if len(e) != len(d):
            raise CardError(f"nothing led, yet the hands hold {len(e)} and {len(d)} cards", None)
        tricks_left = len(e)
    else:
        led_card = _card_index(led, "led card")
        token = format_card(led_card)
        if led_card in e or led_card in d:
            raise CardError(f"led card {token!r} is still in a hand", token)
        n_leader, n_follower = (len(e), len(d)) if leader == ELDER else (len(d), len(e))
        if n_leader != n_follower - 1:
            raise CardError(f"with {token!r} led the leader must hold one card fewer than "
                            f"the follower ({n_leader} and {n_follower} held)", token)
        tricks_left = n_follower
    tricks_played = HAND_SIZE - tricks_left
    if isinstance(elder_tricks, bool) or not isinstance(elder_tricks, numbers.Integral) \
            or not 0 <= elder_tricks <= tricks_played:
        raise CardError(f"elder_tricks={elder_tricks!r} but only {tricks_played} tricks "
                        f"have been played", repr(elder_tricks))
    return Position(e, d, suit, int(leader), int(elder_tricks), led_card, bool(forced_trump))


def legal_moves(position: Position) -> frozenset[int]:
    """The cards the player to move may play: any card to lead, else :func:`legal_replies`."""
    hand = position.hand(position.to_move)
    if position.led is None:
        return hand
    return _to_indices(_legal_replies(_to_cards(hand), Card.from_index(position.led),
                                      position.trump, position.forced_trump))


def play(position: Position, card: int) -> Position:
    """The position after the player to move plays ``card`` (which must be legal)."""
    card = _card_index(card, "card played")
    if card not in legal_moves(position):
        token = format_card(card)
        raise CardError(f"{token!r} is not a legal move here", token)
    mover = position.to_move
    hands = {ELDER: set(position.elder), DEALER: set(position.dealer)}
    hands[mover].discard(card)
    if position.led is None:
        return Position(frozenset(hands[ELDER]), frozenset(hands[DEALER]), position.trump,
                        position.leader, position.elder_tricks, card, position.forced_trump)
    # The trick is complete: its winner leads to the next one.
    if _leader_wins(Card.from_index(position.led), Card.from_index(card), position.trump):
        winner = position.leader
    else:
        winner = mover
    return Position(frozenset(hands[ELDER]), frozenset(hands[DEALER]), position.trump,
                    winner, position.elder_tricks + (winner == ELDER), None,
                    position.forced_trump)


# ---------------------------------------------------------------------------
# Double dummy: plain minimax over the tricks still to play
# ---------------------------------------------------------------------------

def _without(hands: tuple, player: int, card: Card) -> tuple:
    """``hands`` (elder's, dealer's) with ``card`` taken out of ``player``'s hand."""
    rest = list(hands)
    rest[player] = hands[player] - {card}
    return tuple(rest)


def _best_for(player: int, outcomes: Iterable[int]) -> int:
    """The elder plays for the most tricks, the dealer for the fewest."""
    return max(outcomes) if player == ELDER else min(outcomes)


class _Search:
    """Minimax with both hands seen, one trick at a time.

    Every value is the number of tricks the elder will still win from that
    point on; the tricks already won do not change what happens next, so the
    memo on the state at the start of a trick, ``(hands, leader)``, is exact.
    (States in the middle of a trick need no memo: each is reached from
    exactly one start-of-trick state.)  One instance serves one call: one
    trump suit, one trumping rule.
    """

    def __init__(self, trump: int, forced_trump: bool):
        self.trump = trump
        self.forced_trump = forced_trump
        self.memo: dict = {}

    def replies(self, hands: tuple, leader: int, led: Card) -> frozenset[Card]:
        return _legal_replies(hands[1 - leader], led, self.trump, self.forced_trump)

    def value(self, hands: tuple, leader: int) -> int:
        """``leader`` is about to lead; ``hands`` are the cards both still hold."""
        if not hands[leader]:
            return 0                      # all five tricks have been played
        key = (hands, leader)
        if key not in self.memo:
            self.memo[key] = _best_for(leader, (
                self.after_lead(_without(hands, leader, card), leader, card)
                for card in hands[leader]))
        return self.memo[key]

    def after_lead(self, hands: tuple, leader: int, led: Card) -> int:
        """``led`` is on the table (out of the leader's hand); the follower replies."""
        return _best_for(1 - leader, (self.after_reply(hands, leader, led, reply)
                                      for reply in self.replies(hands, leader, led)))

    def after_reply(self, hands: tuple, leader: int, led: Card, reply: Card) -> int:
        """The follower plays ``reply`` to ``led``: the winner takes the trick and leads."""
        follower = 1 - leader
        winner = leader if _leader_wins(led, reply, self.trump) else follower
        rest = _without(hands, follower, reply)
        return (winner == ELDER) + self.value(rest, winner)


def _start(position: Position):
    hands = (_to_cards(position.elder), _to_cards(position.dealer))
    led = None if position.led is None else Card.from_index(position.led)
    return _Search(position.trump, position.forced_trump), hands, led


def solve(elder, dealer, trump, leader=ELDER, elder_tricks=0, led=None,
          forced_trump=True) -> int:
    """The elder's total tricks for the hand (0–5) with best play by both, both hands seen.

    ``elder`` and ``dealer`` are the cards each still holds (iterables of card
    indices, or 32-bit masks); ``trump`` is the trump suit 0..3; ``leader`` is
    0 (elder) or 1 (dealer), the player leading the current trick;
    ``elder_tricks`` the tricks the elder has already won; ``led`` the card
    already led to the current trick (removed from the leader's hand) or
    ``None``.  ``forced_trump`` selects the Law 43 reading (a void player able
    to trump must trump) or the variant where he may play anything.
    """
    position = make_position(elder, dealer, trump, leader, elder_tricks, led, forced_trump)
    search, hands, led_card = _start(position)
    if led_card is None:
        future = search.value(hands, position.leader)
    else:
        future = search.after_lead(hands, position.leader, led_card)
    return position.elder_tricks + future


def move_values(elder, dealer, trump, leader=ELDER, elder_tricks=0, led=None,
                forced_trump=True) -> dict[int, int]:
    """For each legal move of the player to move, the elder's total tricks after it.

    The player to move is the leader when ``led`` is None, otherwise the
    follower; each value assumes best play by both afterwards.  Arguments as
    for :func:`solve`.
    """
    position = make_position(elder, dealer, trump, leader, elder_tricks, led, forced_trump)
    search, hands, led_card = _start(position)
    leader = position.leader
    if led_card is None:
        future = {card: search.after_lead(_without(hands, leader, card), leader, card)
                  for card in hands[leader]}
    else:
        future = {reply: search.after_reply(hands, leader, led_card, reply)
                  for reply in search.replies(hands, leader, led_card)}
    return {card.index: position.elder_tricks + future[card] for card in sorted(future)}


# ---------------------------------------------------------------------------
# Every continuation
# ---------------------------------------------------------------------------

def _lines(position: Position, so_far: tuple) -> Iterator[tuple[tuple, int]]:
    if position.finished:
        yield so_far, position.elder_tricks
        return
    for card in sorted(legal_moves(position)):
        yield from _lines(play(position, card), so_far + ((position.to_move, card),))


def playout_lines(elder, dealer, trump, leader=ELDER, elder_tricks=0, led=None,
                  forced_trump=True) -> Iterator[tuple[tuple[tuple[int, int], ...], int]]:
    """Every legal way to finish the hand, with the elder's total tricks at the end.

    Yields ``(plays, total)`` where ``plays`` is the sequence of ``(player,
    card)`` played from the given position on.  A full five-card hand has at
    most (5!)**2 = 14,400 lines.  Arguments as for :func:`solve`.
    """
    position = make_position(elder, dealer, trump, leader, elder_tricks, led, forced_trump)
    yield from _lines(position, ())


def playouts(elder, dealer, trump, leader=ELDER, elder_tricks=0, led=None,
             forced_trump=True) -> Iterator[int]:
    """The elder's final trick total over every legal continuation (one per line).

    ``max(playouts(...)) <= 2`` says "the elder loses the point however either
    side plays".  Arguments as for :func:`solve`.
    """
    for _, total in playout_lines(elder, dealer, trump, leader, elder_tricks, led,
                                  forced_trump):
        yield total


def best_and_worst(elder, dealer, trump, leader=ELDER, elder_tricks=0, led=None,
                   forced_trump=True) -> tuple[int, int]:
    """``(fewest, most)`` elder tricks over all legal continuations (no best play assumed)."""
    totals = list(playouts(elder, dealer, trump, leader, elder_tricks, led, forced_trump))
    return min(totals), max(totals)


# ---------------------------------------------------------------------------
# Jeux de règle (Hoyle's Games Modernized): "hands which ought to be played without proposing"
# ---------------------------------------------------------------------------

KING, QUEEN, KNAVE = 7, 6, 5   # Écarté ranks (7 8 9 10 A J Q K = 0..7)


def jeu_de_regle(hand, trump) -> str | None:
    """The rule of Hoyle's list that makes a five-card hand a jeu de règle, or None.

    Read plainly from Hoyle's list (names as in :mod:`ecarte_sim.engine.ecarte.decisions.regle`, which
    documents the readings); the first rule of the list that fits names the hand.
    """
    cards = _to_cards(_hand_indices(hand, "hand"))
    if len(cards) != HAND_SIZE:
        raise CardError(f"a jeu de règle is judged on five cards, not {len(cards)}", None)
    trump = _trump_suit(trump)
    trumps = [c for c in cards if c.suit == trump]
    plain = [c for c in cards if c.suit != trump]
    plain_suits = {c.suit for c in plain}

    def king_or_queen(card):          # "the king or queen"
        return card.rank in (KING, QUEEN)

    # "With three trumps, play without proposing."
    if len(trumps) >= 3:
        return "three-trumps"
    if len(trumps) == 2:
        # "Likewise with two trumps, if the other cards belong to one suit,"
        if len(plain_suits) == 1:
            return "two-trumps-one-suit"
        # "or with two cards of one suit, one of which is the king or queen."
        for suit in plain_suits:
            of_suit = [c for c in plain if c.suit == suit]
            if len(of_suit) >= 2 and any(king_or_queen(c) for c in of_suit):
                return "two-trumps-court-pair"
        return None
    if len(trumps) == 1:
        # "Play if holding only one trump, provided the other cards are four of one
        # suit, one being a king,"
        if len(plain_suits) == 1 and any(c.rank == KING for c in plain):
            return "one-trump-four-king"
        # "or three cards of one suit, one being a king or queen, and the fifth card
        # being a king or queen."
        for fifth in plain:
            three = [c for c in plain if c != fifth]
            if (king_or_queen(fifth) and len({c.suit for c in three}) == 1
                    and any(king_or_queen(c) for c in three)):
                return "one-trump-three-court"
        return None
    # "Play with no trump if three queens are held, or four court cards."
    if sum(c.rank == QUEEN for c in cards) >= 3:
        return "no-trump-three-queens"
    if sum(c.rank in (KING, QUEEN, KNAVE) for c in cards) >= 4:
        return "no-trump-four-courts"
    return None


# ---------------------------------------------------------------------------
# The whole deal (engine/ecarte/rules_whole_deal.md): marks before anything,
# proposals and exchanges, kings in hand, the play, the point
# ---------------------------------------------------------------------------

PLAYED_WITHOUT_PROPOSING = 1   #: ``first``: the elder played at once (Law 49)
REFUSED_FIRST = 2              #: ``first``: the dealer refused the first proposal (Law 49)
STOCK_SIZE = 21
SCRIPT_ROUNDS = 24             #: rounds a :class:`Script` covers (21 exchanges at most happen)
PLAY_MODELS = ("scripted", "dd")


def _mask(cards: Iterable[Card]) -> int:
    """The 32-bit mask of some cards (bit ``c`` set for the card of index ``c``)."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def _cards_in(mask: int) -> frozenset[Card]:
    """The cards whose bits are set in ``mask``."""
    return _to_cards(cards_of(mask))


def _flag(value, what: str) -> int:
    """A scripted decision: 0 or 1 (``True``/``False`` are accepted too)."""
    if not isinstance(value, numbers.Integral) or int(value) not in (0, 1):
        raise ValueError(f"{what} must be 0 or 1, got {value!r}")
    return int(value)


def _mask_value(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) \
            or not 0 <= int(value) < 1 << N_CARDS:
        raise ValueError(f"{what} must be a 32-bit card mask, got {value!r}")
    return int(value)


def _count(value, what: str) -> int:
    """A non-negative integer parameter (a score, a target, a number of proposals)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise ValueError(f"{what} must be a non-negative integer, got {value!r}")
    return int(value)


@dataclass(frozen=True)
class Script:
    """Every decision of a whole deal, fixed in advance (for cross-checking).

    For each round ``r`` (0..23): ``elder_propose[r]`` (0 play, 1 propose),
    ``elder_discard[r]`` (a card mask; only the cards then in his hand count),
    ``dealer_accept[r]`` (0 refuse, 1 accept), ``dealer_discard[r]`` (a mask,
    likewise).  ``priority`` is a permutation of the 32 cards: a scripted
    player plays the first card of it that he holds and may legally play.
    The fields are checked and stored as tuples of plain ints.
    """

    elder_propose: tuple[int, ...]
    elder_discard: tuple[int, ...]
    dealer_accept: tuple[int, ...]
    dealer_discard: tuple[int, ...]
    priority: tuple[int, ...]

    def __post_init__(self):
        checks = (("elder_propose", _flag), ("elder_discard", _mask_value),
                  ("dealer_accept", _flag), ("dealer_discard", _mask_value))
        for name, check in checks:
            values = tuple(getattr(self, name))
            if len(values) != SCRIPT_ROUNDS:
                raise ValueError(f"Script.{name} must give {SCRIPT_ROUNDS} rounds, "
                                 f"got {len(values)}")
            object.__setattr__(self, name, tuple(check(v, f"Script.{name}[{r}]")
                                                 for r, v in enumerate(values)))
        priority = tuple(self.priority)
        if sorted(_card_index(c, "Script.priority") for c in priority) != list(range(N_CARDS)):
            raise ValueError(f"Script.priority must be a permutation of the 32 cards, "
                             f"got {priority!r}")
        object.__setattr__(self, "priority", tuple(int(c) for c in priority))

    @classmethod
    def constant(cls, propose=0, elder_discard=0, accept=0, dealer_discard=0,
                 priority=None) -> "Script":
        """The same decisions in every round (``priority`` defaults to 0..31)."""
        return cls((propose,) * SCRIPT_ROUNDS, (elder_discard,) * SCRIPT_ROUNDS,
                   (accept,) * SCRIPT_ROUNDS, (dealer_discard,) * SCRIPT_ROUNDS,
                   tuple(range(N_CARDS)) if priority is None else tuple(priority))


@dataclass(frozen=True)
class WholeDeal:
    """The record of one whole deal; every hand or discard is a 32-bit mask.

    ``elder0``/``dealer0``: the hands dealt; ``turn_up``: the turned card's index.
    ``king_turned``: the turn-up is a king (the dealer marks 1, Law 22).
    ``ended``: 1 when a target score was reached by a king mark and the deal
    stopped there.  ``first``: 0, :data:`PLAYED_WITHOUT_PROPOSING` or
    :data:`REFUSED_FIRST` (Law 49).  ``exchanges``: per accepted proposal,
    ``(elder discard, elder drawn, dealer discard, dealer drawn)``.
    ``elder_hand``/``dealer_hand``: the hands at the start of play (the hands
    held when the deal stopped, if there was no play).  ``king_elder`` /
    ``king_dealer``: a king of trumps held at the start of play (Laws 23, 47).
    ``play``: the cards in the order played (empty without play);
    ``elder_tricks``: tricks won by the elder.  ``points_*``: the point and
    the vole (Laws 48, 49); ``marks_*``: kings plus points.
    """

    elder0: int
    dealer0: int
    turn_up: int
    king_turned: int
    ended: int
    first: int
    exchanges: tuple[tuple[int, int, int, int], ...]
    elder_hand: int
    dealer_hand: int
    king_elder: int
    king_dealer: int
    play: tuple[int, ...]
    elder_tricks: int
    points_elder: int
    points_dealer: int
    marks_elder: int
    marks_dealer: int


def _weakness(card: Card, trump: int) -> int:
    """The "weakest" order of the contract: plain 7s first ... plain kings, then trumps 7..K."""
    return 32 * (card.suit == trump) + 4 * card.rank + card.suit


def _weakest(cards: Iterable[Card], how_many: int, trump: int) -> frozenset[Card]:
    """The ``how_many`` weakest of ``cards``."""
    return frozenset(sorted(cards, key=lambda c: _weakness(c, trump))[:how_many])


def _scripted_card(hand: frozenset[Card], allowed: frozenset[Card],
                   priority: tuple[int, ...]) -> Card:
    """The first card of the priority list that is in ``allowed`` (a subset of ``hand``)."""
    for index in priority:
        card = Card.from_index(index)
        if card in allowed:
            return card
    raise AssertionError(f"no legal card among {sorted(hand)}")   # cannot happen


def _dd_card(position: Position) -> Card:
    """The mover's double-dummy best card: the elder maximises, the dealer minimises
    the elder's tricks; equal values go to the lowest card index."""
    values = move_values(position.elder, position.dealer, position.trump, position.leader,
                         position.elder_tricks, position.led, position.forced_trump)
    best = _best_for(position.to_move, values.values())
    return Card.from_index(min(c for c, v in values.items() if v == best))


def whole_deal(seed, index, script: Script, play_model="scripted", forced_trump=True,
               max_proposals=0, dealer_min_one=False, elder_score=0, dealer_score=0,
               target=0) -> WholeDeal:
    """Deal ``index`` of ``seed`` played from the turn-up to the point, as ``script`` says.

    Follows ``engine/ecarte/rules_whole_deal.md`` step by step (Laws 22–27,
    38, 43, 47–49).  ``play_model`` is ``"scripted"`` (the script's priority
    list) or ``"dd"`` (both players play double dummy).  ``max_proposals``
    (0 = no limit; 1 = the single-exchange variant) caps the proposals;
    ``dealer_min_one`` makes the dealer take at least one card;
    ``forced_trump`` is the Law 43 trumping rule.  With ``target > 0`` the
    scores before the deal say whether a king mark ends the game.
    """
    if not isinstance(script, Script):
        raise ValueError(f"script must be a Script, got {type(script).__name__}")
    if play_model not in PLAY_MODELS:
        raise ValueError(f"play_model must be one of {PLAY_MODELS}, got {play_model!r}")
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    max_proposals = _count(max_proposals, "max_proposals")
    elder_score = _count(elder_score, "elder_score")
    dealer_score = _count(dealer_score, "dealer_score")
    target = _count(target, "target")
    forced_trump = bool(forced_trump)
    dealer_min_one = bool(dealer_min_one)

    dealt = deal(seed, index)
    trump = dealt.trump
    turn_up = Card.from_index(dealt.turn_up)
    hands = {ELDER: _to_cards(dealt.elder), DEALER: _to_cards(dealt.dealer)}
    stock = [Card.from_index(i) for i in dealt.stock]      # top first; the turn-up is not in it
    record = dict(elder0=_mask(hands[ELDER]), dealer0=_mask(hands[DEALER]),
                  turn_up=turn_up.index, first=0, exchanges=(), king_elder=0, king_dealer=0,
                  play=(), elder_tricks=0, points_elder=0, points_dealer=0)

    def stop(**fields) -> WholeDeal:
        """The record, with the hands as they are now and the marks added up."""
        record.update(fields)
        record.update(elder_hand=_mask(hands[ELDER]), dealer_hand=_mask(hands[DEALER]))
        record["marks_elder"] = record["king_elder"] + record["points_elder"]
        record["marks_dealer"] = (record["king_turned"] + record["king_dealer"]
                                  + record["points_dealer"])
        return WholeDeal(**record)

    # 0. A king turned up: the dealer marks it (Laws 22, 47), which may end the game.
    record["king_turned"] = int(turn_up.rank == KING)
    if record["king_turned"] and target > 0 and dealer_score + 1 >= target:
        return stop(ended=1)

    # 1. Proposals and exchanges (Laws 26, 27, 38).
    record["first"], record["exchanges"] = _proposals(hands, stock, script, trump,
                                                      max_proposals, dealer_min_one)

    # 2. The king of trumps in hand (Laws 23, 47), the elder first; it may end the game.
    king = Card(trump, KING)
    if king != turn_up:
        for player, score, field in ((ELDER, elder_score, "king_elder"),
                                     (DEALER, dealer_score, "king_dealer")):
            if king in hands[player]:
                record[field] = 1
                if target > 0 and score + 1 >= target:
                    return stop(ended=1)

    # 3. The play (Law 43): the elder leads first, the winner of a trick leads the next.
    position = make_position(_to_indices(hands[ELDER]), _to_indices(hands[DEALER]), trump,
                             forced_trump=forced_trump)
    position, played = _play_out(position, play_model, script)

    # 4. The point and the vole (Laws 48, 49).
    t = position.elder_tricks
    points_elder, points_dealer = _points(t, record["first"])
    return stop(ended=0, play=tuple(played), elder_tricks=t,
                points_elder=points_elder, points_dealer=points_dealer)


def _proposals(hands: dict, stock: list, script: Script, trump: int, max_proposals: int,
               dealer_min_one: bool) -> tuple[int, tuple]:
    """Step 1 of the whole deal: proposals answered and exchanges made as ``script``
    says, until the elder plays or the dealer refuses (or the stock or the cap on
    proposals runs out); ``hands`` and ``stock`` are updated. Returns Law 49's ``first``
    and the exchanges (the four masks of each)."""
    first = 0
    exchanges = []
    r = 0
    while True:
        must_play = not stock or (max_proposals > 0 and r >= max_proposals)
        if must_play or not script.elder_propose[r]:
            if r == 0:
                first = PLAYED_WITHOUT_PROPOSING
            break
        if not script.dealer_accept[r]:
            if r == 0:
                first = REFUSED_FIRST
            break
        # The elder discards (at least one card; no more than the stock holds) and draws.
        elder_discard, elder_drawn = _exchange(hands, stock, ELDER, script.elder_discard[r],
                                               True, trump)
        # Then the dealer (any number, maybe none; Law 38: what is left).
        dealer_discard, dealer_drawn = _exchange(hands, stock, DEALER,
                                                 script.dealer_discard[r], dealer_min_one,
                                                 trump)
        exchanges.append((_mask(elder_discard), _mask(elder_drawn),
                          _mask(dealer_discard), _mask(dealer_drawn)))
        r += 1
    return first, tuple(exchanges)


def _exchange(hands: dict, stock: list, player: int, wanted: int, at_least_one: bool,
              trump: int) -> tuple[frozenset[Card], frozenset[Card]]:
    """``player`` discards the cards of mask ``wanted`` that he holds (his weakest card if
    none and ``at_least_one``; no more than the stock holds, Law 38) and draws as many
    from the top of ``stock``; returns (discard, drawn)."""
    discard = _cards_in(wanted) & hands[player]
    if at_least_one and not discard:
        discard = _weakest(hands[player], 1, trump)
    discard = _weakest(discard, len(stock), trump)     # Law 38
    drawn = frozenset(stock[:len(discard)])
    del stock[:len(discard)]
    hands[player] = (hands[player] - discard) | drawn
    return discard, drawn


def _play_out(position: Position, play_model: str, script: Script) -> tuple[Position, list]:
    """Step 3: the cards played to the end, double dummy or by the script's priority list;
    returns the last position and the cards' indices in the order played."""
    played = []
    while not position.finished:
        if play_model == "dd":
            card = _dd_card(position)
        else:
            card = _scripted_card(_to_cards(position.hand(position.to_move)),
                                  _to_cards(legal_moves(position)), script.priority)
        played.append(card.index)
        position = play(position, card.index)
    return position, played


def _points(t: int, first: int) -> tuple[int, int]:
    """Step 4: the point and the vole (Laws 48, 49) for ``t`` tricks to the elder."""
    points_elder = points_dealer = 0
    if t == 5:
        points_elder = 2
    elif t >= 3:
        points_elder = 2 if first == REFUSED_FIRST else 1
    elif t == 0:
        points_dealer = 2
    else:
        points_dealer = 2 if first == PLAYED_WITHOUT_PROPOSING else 1
    return points_elder, points_dealer


# ---------------------------------------------------------------------------
# A fixed elder hand, every deal enumerated (the `hand --exact` cross-check)
# ---------------------------------------------------------------------------

def played_without_proposing(elder, dealer, turn_up: int, forced_trump=True) -> tuple[int, int, int]:
    """(elder's marks, dealer's marks, elder's tricks) of a deal the elder plays without
    proposing, both players double dummy: the turned king (Law 22), the king of trumps in
    hand (Laws 23–24) and the point with Law 49's penalty (Laws 48–49)."""
    elder = _hand_indices(elder, "elder hand")
    dealer = _hand_indices(dealer, "dealer hand")
    trump = turn_up >> 3
    king = 8 * trump + 7
    marks_e = int(king in elder)
    marks_d = int(turn_up == king) + int(king in dealer)
    t = solve(elder, dealer, trump, forced_trump=forced_trump)
    if t == 5 or t == 0:
        vole = 2
        return marks_e + (vole if t == 5 else 0), marks_d + (vole if t == 0 else 0), t
    if t >= 3:
        return marks_e + 1, marks_d, t
    return marks_e, marks_d + 2, t


def enumerate_around(elder, turn_ups: Iterable[int]) -> Iterator[tuple[int, frozenset[int]]]:
    """Every (turn-up, dealer hand) around a fixed elder hand: for each turn-up in the order
    given, the dealer's hands in lexicographic order of the 26 remaining card indices."""
    elder = _hand_indices(elder, "elder hand")
    for t in turn_ups:
        rest = sorted(c for c in range(N_CARDS) if c not in elder and c != t)
        for dealer in itertools.combinations(rest, 5):
            yield t, frozenset(dealer)


# ---------------------------------------------------------------------------
# What the proposals say: the posterior of the opponent's hand, every history enumerated
# (the cross-check of ``ecarte_sim.engine.ecarte.play.inferred_worlds``)
# ---------------------------------------------------------------------------

def opponent_posterior(unseen: Iterable[int], rounds, final=None) -> dict[frozenset, int]:
    """Every history of the opponent's hand, counted by the hand he ends with.

    ``unseen``: the card indices the inferring player never saw (neither his own, dealt or
    drawn, nor the turn-up). The opponent was dealt five of them; in each exchange he
    threw some and drew as many from the unseen cards he had not yet held. Every such
    history is equally likely (the deck is shuffled uniformly), so the posterior of his
    final hand is proportional to the number of histories that end in it and agree with
    what he was seen to do. ``rounds``: per exchange, ``(decides, discard, count)`` —
    ``decides(hand)`` is True if the model makes on ``hand`` the decision he made that
    round (propose, or accept), ``discard(hand)`` the cards the model throws from it,
    ``count`` how many he was seen to throw. ``final``: ``final(hand)`` for the decision he
    made on the hand he plays with (play, or refuse), or None if he made none. Returns
    {final hand (frozenset of indices): number of histories}.
    """
    unseen = frozenset(int(c) for c in unseen)
    out: dict[frozenset, int] = {}
    for dealt in itertools.combinations(sorted(unseen), HAND_SIZE):
        states = {(frozenset(dealt), frozenset(dealt)): 1}   # (hand, every card held): count
        for decides, discard, count in rounds:
            after: dict = {}
            for (hand, held), n in states.items():
                if not decides(hand):
                    continue
                thrown = frozenset(discard(hand))
                if len(thrown) != count:
                    continue
                for drawn in itertools.combinations(sorted(unseen - held), count):
                    key = ((hand - thrown) | frozenset(drawn), held | frozenset(drawn))
                    after[key] = after.get(key, 0) + n
            states = after
        for (hand, _), n in states.items():
            if final is None or final(hand):
                out[hand] = out.get(hand, 0) + n
    return out
