"""The card verdicts: which card to lead or play, from one player's knowledge.

A player at the table knows his own cards, the turn-up, what was said (Law 25: the elder
proposes or plays, the dealer accepts or refuses), how many cards his adversary threw at
each exchange (Law 27: "the dealer, if required, must inform his adversary how many cards
he has taken"), his own discards, and the cards played so far. From that alone:

* :func:`computer_card` — the card the computer plays: exactly the card the engine's
  ``pimc-inference`` whole-deal player chooses in the same position (the same worlds,
  drawn from the posterior given the proposals under the opponent model; the best mean
  of the deal's points, Laws 48–49; equivalent cards one move; ties to the lowest card
  index), W = 64 worlds by default. Deterministic: a pure function of (seed, deal,
  position). Implemented by :func:`ecarte_sim.engine.ecarte.play.single.decide`.
* :func:`card_values` — every legal card's value (Law 43 says which are legal): as the
  inferring player sees it (over the same W worlds, double dummy from the card on: the
  share of worlds in which the mover wins the point, the vole, his mean marks, each with
  a 95% interval over the worlds, and the outcome counts), and, when the adversary's hand
  is given (the coach knows it), the double-dummy value (the elder's tricks with best
  play by both from the card on, the engine's ``value_after``, equal to the reference's
  ``move_values``) and the marks it gives.
* :func:`parse_position` — the arguments as text or masks, checked (one ``ValueError``
  or ``CardError`` naming the bad token and the law: Law 40 not his turn, Law 43 a card
  he could not have played or an adversary's revoke, Laws 25–27 and 38 what was said
  and discarded); :class:`Position` the checked position;
  :func:`from_table_position` the practice table's view of the computer.
* :func:`settings_for` — the ``(cfg, script)`` of a whole deal whose two inferring
  players choose exactly as :func:`computer_card` does (the cross-check's settings).
* :func:`deal_record` — a position's record of the proposals as the kernels read it;
  :func:`deal_position` and :func:`replay` — a whole deal's positions, and its play again
  with each card chosen by a caller (the best response's keyed replay, ``stronger``).

The arguments, shared by the three (keywords after ``hand, turn_up, role``)
    ``hand``      the mover's cards NOW (text ``"KH 7H QS"`` or a mask): the cards he
                  still holds, his cards already played being in ``played``.
    ``turn_up``   the turn-up card (``"9C"`` or an index); its suit is trumps (Law 10).
    ``role``      ``"elder"`` (the non-dealer, who leads the first trick) or ``"dealer"``:
                  the mover's role, the player to play now (Law 40).
    ``said``      what was said, in order, comma-separated text or a sequence: the
                  elder's ``propose``/``play``, after a proposal the dealer's
                  ``accept``/``refuse``, repeated after each exchange (Law 26 note), e.g.
                  ``"propose,accept,play"``. A history ending in ``accept`` is complete
                  only when the stock is exhausted (Law 38).
    ``discards``  one group per accepted proposal: (the cards the MOVER threw, the
                  number of cards the ADVERSARY threw), as a sequence of pairs or as text
                  ``"7S 8D:2; 9C:1"`` (``-`` or nothing for none). Each draws as many as
                  he threw (Laws 29–34); the elder throws at least one (Law 27).
    ``played``    the cards played so far in this deal, in the order played, by both
                  players (``"KS 8S QD"``): the elder leads the first trick, the winner
                  of a trick leads the next.
    ``score``     the score before the deal, elder's then dealer's (``"3-4"`` or a pair);
                  the strategy's tables read it (the opponent model), and the coach.
    ``seed``, ``deal``  the random words: world ``w`` of card ``j`` of deal ``deal`` of
                  ``seed``, as the whole deal keys it.
    ``worlds``    W, the worlds compared (default 64).
    ``model``     ``"strategy"`` (default): both players are modelled as playing the
                  shipped strategy (:mod:`ecarte_sim.analysis.ecarte.solving.solved`: its first
                  decisions and discards at the score, later rounds reading the same
                  tables), as the computer plays; ``"treatise"``: Hoyle's list, the
                  maxims and the treatise's discard ("a king or a trump should not be
                  discarded").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from ecarte_sim.analysis.stats.intervals import Z95_ROUNDED, normal_ci
from ecarte_sim.engine.cards import suit_mask
from ecarte_sim.engine.deck import CardError, card_list, card_of, card_set, format_card, format_hand
from ecarte_sim.engine.ecarte.deals.whole import payoff_table
from ecarte_sim.engine.ecarte.laws.history import check_exchanges, parse_discards, parse_said
from ecarte_sim.engine.ecarte.laws.position import START, after, said_of, to_play, walk
from ecarte_sim.engine.ecarte.laws.score import Score
from ecarte_sim.engine.ecarte.laws.tricks import ELDER
from ecarte_sim.engine.ecarte.records import Law49, ProposalsEnd
from ecarte_sim.engine.ecarte.search.moves import legal_moves
from ecarte_sim.engine.ecarte.settings import card_player_worlds, card_players

MODELS = ("strategy", "treatise")
ROLES = ("elder", "dealer")
DEFAULT_WORLDS = 64
#: Outcome codes of the engine's ``outcome_after``: the elder's tricks as coarse as the
#: score needs.
OUTCOMES = {0: "dealer_vole", 1: "dealer_point", 3: "elder_point", 5: "elder_vole"}
_FULL = 0xFFFFFFFF


@dataclass(frozen=True)
class Position:
    """A checked position, from the mover's side (masks and card indices)."""
    role: str
    mover: int                 # ELDER (0) or DEALER (1)
    hand: int                  # the mover's cards now
    start: int                 # his hand at the first card of the play
    turn_up: int
    said: tuple                # the words
    discards: tuple            # ((mover's thrown mask, adversary's count), ...)
    played: tuple              # card indices in order
    score: tuple               # (elder's, dealer's) before the deal
    how_ended: int             # ProposalsEnd
    first: int                 # Law49
    unseen: int                # cards the mover never saw
    leader: int
    tricks: int                # the elder's tricks so far
    led: int                   # the card led to the current trick, or -1
    #: the adversary's announcement of the king of trumps (Laws 23-24): True he announced
    #: it, False he played a card without announcing it, None not told (no evidence)
    adversary_king: bool | None = None

    @property
    def trump(self) -> int:
        return self.turn_up >> 3


# ----------------------------------------------------------------------------- parsing

def parse_position(hand, turn_up, role, *, said="play", discards=(), played=(),
                   score=(0, 0), forced_trump: bool = True, king=None) -> Position:
    """The position checked against the laws (module docstring for the arguments).
    ``king``: who announced the king of trumps (Laws 23-24): ``"elder"``, ``"dealer"``,
    ``"none"`` (neither; read as the adversary's silence once he has played a card), or
    None (not told). Raises ``ValueError``/``CardError`` naming the bad token and the
    law."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; choose from elder, dealer")
    mover = ELDER if role == "elder" else 1 - ELDER
    own = card_set(hand, "hand")
    up = card_of(turn_up, "turn-up")
    trump = up >> 3
    if own >> up & 1:
        raise CardError(f"the turn-up {format_card(up)!r} is in the hand", format_card(up))
    words = parse_said(said)
    if not words:
        raise ValueError("say what was said: the elder's play or propose first (Law 25)")
    groups = parse_discards(discards)
    accepts = words.count("accept")
    if len(groups) != accepts:
        raise ValueError(f"{accepts} proposal(s) accepted but {len(groups)} discard group(s) "
                         "given: one group per exchange (Law 27)")
    thrown, left = check_exchanges(groups, mover)
    how, first = _how_proposals_ended(words, left)
    seq = card_list(played, "played")
    if len(seq) >= 10:
        raise ValueError("all ten cards have been played: no card to choose")
    leader, tricks, led, own_played = _walk_play(seq, mover, role, own, up, thrown,
                                                 forced_trump)
    start = own | own_played
    _check_cards_held(role, own, own_played, thrown, up)
    _check_own_cards_legal(seq, start, mover, role, trump, forced_trump)
    x, y = Score.of(score)
    unseen = ~(start | thrown | (1 << up)) & _FULL
    adversary_king = _adversary_king(king, role, start, up, seq, mover)
    return Position(role, mover, own, start, up, tuple(words), tuple(groups), tuple(seq),
                    (x, y), int(how), int(first), unseen, leader, tricks, led, adversary_king)


KING_SAID = ("elder", "dealer", "none")


def _adversary_king(king, role: str, start: int, up: int, seq, mover: int) -> bool | None:
    """The adversary's announcement of the king of trumps from who announced it
    (:func:`parse_position`), checked against the laws: only its holder announces it (Law
    25), so not the mover unless he holds it, nor the adversary if the mover holds it or
    it is turned up, and he announces before his first card (Law 23)."""
    if king is None:
        return None
    if king not in KING_SAID:
        raise ValueError(f"unknown king {king!r}; who announced the king of trumps: "
                         f"{', '.join(KING_SAID)}")
    k = (up >> 3) * 8 + 7
    mine = bool(start >> k & 1)
    if king == role and not mine:
        raise ValueError(f"the {role} announced the king of trumps but does not hold it "
                         "(Law 25)")
    adversary = "dealer" if role == "elder" else "elder"
    if king == adversary and (mine or up == k):
        raise ValueError(f"the {adversary} announced the king of trumps but the {role} "
                         + ("holds it" if mine else "sees it turned up") + " (Law 25)")
    return king == adversary


def _how_proposals_ended(words: list[str], left: int) -> tuple[ProposalsEnd, Law49]:
    """How the proposals ended (the last word; ``accept`` only with the stock exhausted,
    Law 26 note) and the first decision Law 49 reads (played without proposing, or the
    first proposal refused)."""
    if words[-1] == "play":
        how = ProposalsEnd.ELDER_PLAYED
    elif words[-1] == "refuse":
        how = ProposalsEnd.DEALER_REFUSED
    elif words[-1] == "accept":
        if left > 0:
            raise ValueError(f"what was said ends with 'accept' but {left} cards remain in "
                             "the stock: the elder plays or proposes again (Law 26 note)")
        how = ProposalsEnd.STOCK_EXHAUSTED
    else:  # a proposal not answered
        raise ValueError("what was said ends with 'propose': the dealer's answer is missing "
                         "(Law 25)")
    first = Law49.NONE
    if words[0] == "play":
        first = Law49.PLAYED_WITHOUT_PROPOSING
    elif words[:2] == ["propose", "refuse"]:
        first = Law49.REFUSED_FIRST
    return how, first


def _walk_play(seq, mover: int, role: str, own: int, up: int, thrown: int,
               forced_trump: bool) -> tuple[int, int, int, int]:
    """The play walked card by card: whose card each was (Law 40), no card seen twice, the
    adversary's cards none the mover saw elsewhere and no revoke of a suit he showed void
    in (Law 43). Returns (leader, the elder's tricks, the card led or -1, the mover's
    cards played as a mask); raises unless it is the mover's turn."""
    trump = up >> 3
    state = START
    own_played = 0
    seen_played = 0
    opp_void = 0            # suits the adversary has shown void in (a later card revokes)
    for c in seq:
        name = format_card(c)
        if seen_played >> c & 1:
            raise CardError(f"card {name!r} played twice", name)
        who = to_play(state)
        if who == mover:
            if own >> c & 1:
                raise CardError(f"card {name!r} is both played and in the hand", name)
            own_played |= 1 << c
        else:
            if c == up or (thrown >> c & 1) or (own >> c & 1):
                raise CardError(f"card {name!r} was played by the adversary but the "
                                f"{role} saw it elsewhere (hand, discard or turn-up)", name)
            if opp_void >> c & 1:
                raise ValueError(f"card {name!r}: the adversary showed void in its suit "
                                 "earlier (a revoke, Law 43)")
        seen_played |= 1 << c
        led = state[2]
        if led >= 0 and who != mover and (c >> 3) != (led >> 3):
            opp_void |= int(suit_mask(led >> 3))
            if forced_trump and (c >> 3) != trump:
                opp_void |= int(suit_mask(trump))
        state = after(state, c, trump)
    leader, tricks, led, _ = state
    to_move = to_play(state)
    if to_move != mover:
        raise ValueError(f"it is the {'elder' if to_move == ELDER else 'dealer'}'s turn "
                         f"after {len(seq)} card(s), not the {role}'s (Law 40)")
    return leader, tricks, led, own_played


def _check_cards_held(role: str, own: int, own_played: int, thrown: int, up: int) -> None:
    """Five cards in all in the mover's hand and played, none of them thrown, the turn-up
    not thrown."""
    start = own | own_played
    if bin(start).count("1") != 5:
        raise CardError(f"hand {format_hand(own)!r}: the {role} holds "
                        f"{bin(own).count('1')} cards with {bin(own_played).count('1')} "
                        f"played, expected five in all", format_hand(own))
    if start & thrown:
        c = (start & thrown).bit_length() - 1
        raise CardError(f"card {format_card(c)!r} is both thrown and held", format_card(c))
    if thrown >> up & 1:
        raise CardError(f"the turn-up {format_card(up)!r} was thrown", format_card(up))


def _check_own_cards_legal(seq, start: int, mover: int, role: str, trump: int,
                           forced_trump: bool) -> None:
    """The mover's own cards were legal when he played them (Law 43), from his hand
    ``start`` at the first card."""
    hand_then = start
    for who, before, c in walk(seq, trump):
        if who == mover:
            legal = int(legal_moves(np.uint32(hand_then), before[2], trump, forced_trump))
            if not legal >> c & 1:
                raise ValueError(f"card {format_card(c)!r}: the {role} had to follow suit, "
                                 "win the trick when able or trump (Law 43)")
            hand_then &= ~(1 << c)


# ----------------------------------------------------------------------------- settings

@lru_cache(maxsize=64)
def _settings(model: str, x: int, y: int, worlds: int, forced_trump: bool,
              play: str = "pimc-inference"):
    """(cfg, script) of a deal at (x, y) in which both players play ``model`` and the
    cards as ``play`` (pimc-inference or pimc-king) with ``worlds`` worlds (read-only
    arrays)."""
    from ecarte_sim.engine.ecarte.decisions.policies import empty_script
    from ecarte_sim.engine.ecarte.settings import EcarteSettings, PlayModel

    if model == "strategy":
        from ecarte_sim.analysis.ecarte.solving import solved as shipped
        from ecarte_sim.analysis.ecarte.advice.first_decision import strategy_settings
        settings, script = strategy_settings(shipped.load(), x, y)
    elif model == "treatise":
        settings, script = EcarteSettings(), empty_script()
    else:
        raise ValueError(f"unknown model {model!r}; choose from {', '.join(MODELS)}")
    cards = PlayModel.PIMC_KING if play == "pimc-king" else PlayModel.PIMC_INFERENCE
    settings = replace(settings, elder_play=cards, dealer_play=cards, worlds=int(worlds),
                       forced_trump=bool(forced_trump))
    cfg = settings.cfg(elder_score=x, dealer_score=y)
    cfg.setflags(write=False)
    script = np.ascontiguousarray(script, dtype=np.int64)
    script.setflags(write=False)
    return cfg, script


def settings_for(model: str, score=(0, 0), worlds: int = DEFAULT_WORLDS,
                 forced_trump: bool = True, play: str = "pimc-inference"):
    """The ``(cfg, script)`` the computer's inferring player runs under (a whole deal
    with these plays exactly as :func:`computer_card` chooses): ``model`` and its tables
    at ``score``, both players' cards ``play`` (``pimc-inference`` or ``pimc-king``) with
    ``worlds`` worlds."""
    from ecarte_sim.engine.ecarte.settings import MAX_WORLDS
    if isinstance(worlds, bool) or not 1 <= int(worlds) <= MAX_WORLDS:
        raise ValueError(f"worlds must be in 1..{MAX_WORLDS}, got {worlds!r}")
    x, y = Score.of(score)
    if play == "pimc-inference":     # the cache's key as before issue 53
        return _settings(model, x, y, int(worlds), bool(forced_trump))
    return _settings(model, x, y, int(worlds), bool(forced_trump), play)


def deal_record(p: Position) -> np.ndarray:
    """The record of the proposals (``REC``) as the mover knows it
    (:func:`~ecarte_sim.engine.ecarte.records.known_record`): what the keyed player and the
    best response pass the kernels (:mod:`ecarte_sim.analysis.ecarte.play.exploit`)."""
    from ecarte_sim.engine.ecarte.records import known_record
    from ecarte_sim.engine.ecarte.records import REC
    thrown = [(bin(out).count("1"), k) if p.role == "elder" else (k, bin(out).count("1"))
              for out, k in p.discards]
    rec = known_record(p.turn_up, p.how_ended, p.first, thrown)
    # the kings announced (Laws 23-24): the mover's own when he holds it, the adversary's
    # as told (unknown: left unmarked; pimc-king then reads no evidence, :func:`concealing`)
    k = p.trump * 8 + 7
    mine = {ELDER: REC.at.KING_ELDER, 1 - ELDER: REC.at.KING_DEALER}
    rec[mine[p.mover]] = int(p.start >> k & 1)
    rec[mine[1 - p.mover]] = int(bool(p.adversary_king))
    return rec


def concealing(p: Position, policy: int = 0) -> int:
    """The concealing policy pimc-king reads the adversary's silence with at ``p``
    (thousandths of his hands holding the king of trumps in which he does not announce
    it): ``policy`` when he is known not to have announced it, 1000 (silence says nothing)
    when it was not told."""
    from ecarte_sim.engine.ecarte.play.reading import KING_SCALE
    return KING_SCALE if p.adversary_king is None else int(policy)


def deal_position(d, who: int, hand: int, played, forced_trump: bool = True) -> Position:
    """The position of ``who`` (ELDER or DEALER) in whole deal ``d`` (a
    :class:`~ecarte_sim.engine.ecarte.deals.runner.WholeDeal`: its turn-up, what was said, the
    exchanges and the kings marked, every holder announcing as the engine's players do)
    holding ``hand`` after the cards ``played``: what a replay of the deal's play asks at
    each card (:func:`~ecarte_sim.analysis.ecarte.play.exploit.keyed_vs_deal`,
    :func:`~ecarte_sim.analysis.ecarte.play.stronger.play_out`)."""
    mine, theirs = (0, 2) if who == ELDER else (2, 0)
    groups = [(int(x[mine]), bin(int(x[theirs])).count("1")) for x in d.exchanges]
    king = "elder" if d.king_elder else "dealer" if d.king_dealer else "none"
    return parse_position(hand, int(d.turn_up), "elder" if who == ELDER else "dealer",
                          said=said_of(d), discards=groups, played=played,
                          forced_trump=forced_trump, king=king)


def replay(d, choose, *, from_card: int = 0, forced_trump: bool = True):
    """Whole deal ``d``'s play again, card by card: the cards before ``from_card`` as the
    deal played them, then each card ``choose(who, p, plays, n)`` (the mover, his
    :func:`deal_position`, the ``n`` cards played so far padded with -1 to ten as the
    kernels read them). Returns (the elder's tricks, the cards played)."""
    hands = [int(d.elder_hand), int(d.dealer_hand)]
    trump = int(d.turn_up) >> 3
    state = START
    played: list[int] = []
    plays = np.full(10, -1, dtype=np.int64)
    for n in range(10):
        who = to_play(state)
        if n < from_card:
            c = int(d.play[n])
        else:
            plays[:] = -1
            plays[:n] = played
            c = int(choose(who, deal_position(d, who, hands[who], played, forced_trump),
                           plays, n))
        hands[who] &= ~(1 << c)
        played.append(c)
        state = after(state, c, trump)
    return state[1], played


def _check_seed_deal(seed, deal):
    from ecarte_sim.engine.rng import check_index_range, check_seed
    seed = check_seed(seed)
    if isinstance(deal, bool) or not isinstance(deal, (int, np.integer)):
        raise ValueError(f"deal must be an integer, got {deal!r}")
    check_index_range(int(deal), int(deal) + 1)
    return seed, int(deal)


def decide_position(p: Position, seed, deal, worlds, model, forced_trump, evaluate,
                    chooser: str = "pimc-inference", policy: int = 0):
    """The engine's one-card decision at ``p`` by ``chooser``'s worlds (``pimc-inference``:
    :func:`~ecarte_sim.engine.ecarte.play.single.decide`; ``pimc-king``:
    :func:`~ecarte_sim.engine.ecarte.play.reading.read_decide`, reading the adversary's
    king with the concealing ``policy``, :func:`concealing`), keyed by ``seed`` and
    ``deal``; ``evaluate``: every legal card valued in every world. Returns (its result
    tuple: card, legal, moves, leader, tricks, led, the adversary's count, the cards he may
    hold; the cards; their outcomes by world; the worlds' hands; the payoff table; the
    worlds' weights; whether the worlds are every hand he may hold), the worlds' arrays
    cut to the worlds drawn."""
    from ecarte_sim.engine.ecarte.play.reading import read_decide
    from ecarte_sim.engine.ecarte.play.single import decide
    seed, deal = _check_seed_deal(seed, deal)
    if chooser not in ("pimc-inference", "pimc-king"):
        raise ValueError(f"unknown worlds {chooser!r}: pimc-inference or pimc-king")
    cfg, script = settings_for(model, p.score, worlds, forced_trump, chooser)
    payoff = payoff_table(p.first)
    hands = np.zeros(max(int(worlds), 1), dtype=np.uint32)
    plays = np.array(list(p.played) + [-1] * (10 - len(p.played)), dtype=np.int64)
    cards = np.zeros(5, dtype=np.int64)
    outcomes = np.zeros((int(worlds), 5), dtype=np.int64)
    args = (p.mover, np.uint32(p.start), np.uint32(p.unseen), plays, len(p.played), p.trump,
            bool(forced_trump), int(worlds), np.uint64(seed), np.uint64(deal), cfg, script,
            deal_record(p), payoff, hands)
    if chooser == "pimc-king":
        weights = np.zeros(max(int(worlds), 1), dtype=np.int64)
        r = read_decide(*args, weights, bool(evaluate), cards, outcomes,
                        concealing(p, policy))
        n, every = int(r[8]), bool(r[9])
        result = r[:8]
    else:
        result = decide(*args, bool(evaluate), cards, outcomes)
        n, every = int(worlds), False
        weights = np.ones(max(n, 1), dtype=np.int64)
    return result, cards, outcomes[:n], hands[:n], payoff, weights[:n], every


class Card(str):
    """A card as text (``"KH"``, JSON-ready, equal to the string) whose ``int()`` is its
    index (suit * 8 + rank, ranks 7 8 9 T A J Q K)."""

    def __new__(cls, index: int):
        obj = super().__new__(cls, format_card(int(index)))
        obj.index = int(index)
        return obj

    def __int__(self) -> int:
        return self.index

    def __index__(self) -> int:
        return self.index


#: The computer's card choosers: ``pimc-king`` (the default: pimc-inference's worlds also
#: weighed by the adversary's announcement of the king, every hand he may hold when they
#: are few, W = :data:`~ecarte_sim.engine.ecarte.settings.READING_WORLDS`), the engine's
#: ``pimc-inference`` (W = 64), and ``alphamu``
#: (:func:`~ecarte_sim.engine.ecarte.play.alphamu.alphamu_decide`: αμ over pimc-inference's
#: worlds on every card with a choice, the last
#: :data:`~ecarte_sim.engine.ecarte.play.alphamu.DEFAULT_TRICKS` tricks, M unbounded, as
#: ``ecarte-sim stronger`` measured it; W = 64). Measured against each other in
#: ``results/card-play/``.
CHOOSERS = card_players("chooser")
DEFAULT_CHOOSER = card_players("cards-default")[0]


def default_worlds(chooser: str) -> int:
    """The worlds a chooser plays with when none are asked: pimc-king's
    :data:`~ecarte_sim.engine.ecarte.settings.READING_WORLDS`, the others' 64."""
    return card_player_worlds(chooser)


def _alphamu(p: Position, seed, deal, worlds, model, forced_trump) -> int:
    from ecarte_sim.engine.ecarte.play.alphamu import DEFAULT_TRICKS, M_INF, alphamu_decide
    seed, deal = _check_seed_deal(seed, deal)
    cfg, script = settings_for(model, p.score, worlds, forced_trump)
    hands = np.zeros(max(int(worlds), 1), dtype=np.uint32)
    plays = np.array(list(p.played) + [-1] * (10 - len(p.played)), dtype=np.int64)
    card, _, _ = alphamu_decide(p.mover, np.uint32(p.start), np.uint32(p.unseen), plays,
                                len(p.played), p.trump, bool(forced_trump), int(worlds),
                                np.uint64(seed), np.uint64(deal), cfg, script,
                                deal_record(p), payoff_table(p.first), hands, DEFAULT_TRICKS,
                                M_INF)
    return int(card)


def computer_card(hand, turn_up=None, role=None, *, said="play", discards=(), played=(),
                  score=(0, 0), seed: int = 0, deal: int = 0, worlds: int | None = None,
                  model: str = "strategy", forced_trump: bool = True,
                  chooser: str = DEFAULT_CHOOSER, king=None, policy: int = 0) -> Card:
    """The card the computer plays now: ``chooser``'s choice in this position
    (:data:`CHOOSERS`; ``pimc-king`` by default), W = ``worlds`` (default
    :func:`default_worlds`; module docstring for every argument; ``king`` and ``policy``:
    who announced the king of trumps, :func:`parse_position`, and the concealing policy
    the adversary's silence is read with, :func:`concealing`), as a :class:`Card` (the
    text ``"KH"``; ``int()`` gives its index). ``hand`` may also be a :class:`Position`, or
    the practice table's view of the computer (:func:`from_table_position`, which also
    gives ``seed`` and ``deal``); then the other position keywords are ignored."""
    if chooser not in CHOOSERS:
        raise ValueError(f"unknown chooser {chooser!r}; choose from {', '.join(CHOOSERS)}")
    worlds = default_worlds(chooser) if worlds is None else worlds
    if _is_table_position(hand):
        p, seed, deal = from_table_position(hand, forced_trump)
    else:
        p = hand if isinstance(hand, Position) else parse_position(
            hand, turn_up, role, said=said, discards=discards, played=played, score=score,
            forced_trump=forced_trump, king=king)
    if chooser == "alphamu":
        return Card(_alphamu(p, seed, deal, worlds, model, forced_trump))
    (card, *_), *_ = decide_position(p, seed, deal, worlds, model, forced_trump, False,
                                     chooser, policy)
    return Card(int(card))


def _is_table_position(obj) -> bool:
    return all(hasattr(obj, k) for k in ("role", "hand", "turn_up", "said", "discards",
                                         "own_discards", "played", "seed", "index",
                                         "score"))


def from_table_position(pos, forced_trump: bool = True) -> tuple[Position, int, int]:
    """(position, seed, deal) from the practice table's view of a player
    (:class:`ecarte_sim.apps.practice.computer.Position`: ``discards`` per exchange
    (his thrown mask, the adversary's count), ``played`` as (role, card) pairs, ``seed``
    and ``index`` the random words)."""
    groups = []
    for mine, theirs in pos.discards:
        groups.append((int(mine), int(theirs)))
    kings = tuple(getattr(pos, "kings", ()))
    p = parse_position(int(pos.hand), int(pos.turn_up), pos.role, said=list(pos.said),
                       discards=groups, played=[int(c) for _, c in pos.played],
                       score=tuple(pos.score), forced_trump=forced_trump,
                       king=kings[0] if kings else "none")
    return p, int(pos.seed), int(pos.index)


def _mean_ci(values: np.ndarray, weights: np.ndarray | None = None,
             exact: bool = False) -> tuple[float, list[float]]:
    """The (weighted) mean and its normal 95% interval over the worlds (the weights' sample
    size ``(sum w)^2 / sum w^2``); ``exact``: the worlds are every hand, no interval
    beyond the mean."""
    w = np.ones(values.size) if weights is None else np.asarray(weights, dtype=float)
    mean = float(np.average(values, weights=w))
    if exact:
        return mean, [mean, mean]
    n = w.sum() ** 2 / (w ** 2).sum()
    var = float(np.average((values - mean) ** 2, weights=w)) * n / (n - 1) if n > 1 \
        else math.nan
    return mean, normal_ci(mean, math.sqrt(var / n) if n > 1 else math.nan, Z95_ROUNDED)


def _wilson(k: float, n: float, exact: bool = False) -> list[float]:
    from ecarte_sim.analysis.stats.intervals import wilson_interval
    if exact:
        return [k / n, k / n]
    return [float(v) for v in wilson_interval(int(round(k)), max(int(round(n)), 1))]


def card_values(hand, turn_up, role, *, said="play", discards=(), played=(), score=(0, 0),
                seed: int = 0, deal: int = 0, worlds: int | None = None,
                model: str = "strategy", opponent=None, forced_trump: bool = True,
                chooser: str = DEFAULT_CHOOSER, king=None, policy: int = 0) -> dict:
    """Each legal card's value for the mover (module docstring for the arguments);
    ``opponent``: the adversary's cards now (text or mask), for the double-dummy values;
    ``chooser``: whose worlds (``pimc-king``, the default, W =
    :data:`~ecarte_sim.engine.ecarte.settings.READING_WORLDS`: weighed also by who
    announced the king, ``king``, under the concealing ``policy``; or ``pimc-inference``,
    W = 64). The values are the inferring player's: in each world, double dummy from the
    card on (both players then see every card: the strategy fusion that
    ``results/card-play/`` measures against each card's value with the player's own play
    after it).

    Returns a dict: ``role``, ``hand``, ``turn_up``, ``trump`` (suit letter),
    ``to_play`` (``"lead"`` or ``"reply"``), ``led`` (card or None), ``tricks``
    ({"elder", "dealer"} so far), ``said``, ``score``, ``worlds``, ``seed``, ``deal``,
    ``model``, ``best`` (the inferring player's card = :func:`computer_card`),
    ``fallback_worlds`` (worlds drawn uniformly because no history fitted the model),
    ``dd_best`` (the cards of the best double-dummy value, or None) and ``cards``: a list,
    one dict per legal card in card order — ``card``; ``point`` (share of worlds in which
    the mover wins the point, 3 tricks or more) with ``point_ci95`` (Wilson); ``vole``;
    ``marks`` (his mean marks from the play minus the adversary's, Laws 48–49) with
    ``marks_ci95`` (normal, over the worlds); ``outcomes`` (world counts of
    ``dealer_vole``, ``dealer_point``, ``elder_point``, ``elder_vole``); and with
    ``opponent``: ``dd_tricks`` (the elder's tricks at the end, best play by both),
    ``dd_marks`` (the mover's marks from it minus the adversary's) and ``dd_point``.
    Also ``chooser``, ``weighted_worlds`` (the worlds of a weight) and ``every_hand``
    (the worlds are every hand he may hold, each weighed as the posterior says: the
    values are exact, no interval)."""
    from ecarte_sim.engine.ecarte.deals.whole import outcome_of, points_for
    from ecarte_sim.engine.ecarte.records import PAYOFF

    if chooser not in card_players("cards"):
        raise ValueError(f"unknown chooser {chooser!r}; the values are "
                         + " or ".join(f"{n}'s" for n in card_players("cards")))
    worlds = default_worlds(chooser) if worlds is None else worlds
    p = hand if isinstance(hand, Position) else parse_position(
        hand, turn_up, role, said=said, discards=discards, played=played, score=score,
        forced_trump=forced_trump, king=king)
    (card, legal_all, _, leader, tricks, led, count, possible), cards, outcomes, _, payoff, \
        weights, every = decide_position(p, seed, deal, worlds, model, forced_trump, True,
                                         chooser, policy)
    keep = weights > 0
    outcomes, weights = outcomes[keep], weights[keep].astype(float)
    total = weights.sum()
    sign = 1 if p.mover == ELDER else -1
    points = payoff[PAYOFF.at.POINTS:PAYOFF.at.POINTS + 6] * sign
    other = None
    if opponent is not None:
        other = card_set(opponent, "adversary's hand")
        if bin(other).count("1") != int(count):
            raise CardError(f"adversary's hand {format_hand(other)!r} has "
                            f"{bin(other).count('1')} cards, expected {int(count)}",
                            format_hand(other))
        if other & ~int(p.unseen) & _FULL or other & card_set(p.played, "played"):
            c = ((other & ~int(p.unseen)) | (other & card_set(p.played, "played"))).bit_length() - 1
            raise CardError(f"card {format_card(c)!r} of the adversary's hand was seen by "
                            f"the {p.role}", format_card(c))
    n = bin(int(legal_all)).count("1")
    out = []
    for k in range(n):
        c = int(cards[k])
        o = outcomes[:, k]
        mover_point = (o >= 3) if p.mover == ELDER else (o <= 1)
        mover_vole = (o == 5) if p.mover == ELDER else (o == 0)
        marks = points[o]
        m, m_ci = _mean_ci(marks.astype(float), weights, every)
        n_eff = total ** 2 / (weights ** 2).sum()
        share = float(weights[mover_point].sum() / total)
        row = {"card": format_card(c), "point": share,
               "point_ci95": _wilson(share * n_eff, n_eff, every),
               "vole": float(weights[mover_vole].sum() / total), "marks": m,
               "marks_ci95": m_ci,
               "outcomes": {name: int((o == code).sum()) for code, name in OUTCOMES.items()}}
        if other is not None:
            from ecarte_sim.engine.ecarte.search.solver import value_after
            e, d = (p.hand, other) if p.mover == ELDER else (other, p.hand)
            t = int(value_after(np.uint32(e), np.uint32(d), int(leader), int(tricks),
                                int(led), p.trump, bool(forced_trump), c))
            pe, pd = points_for(outcome_of(t), p.first)
            row.update({"dd_tricks": t, "dd_marks": int(sign * (pe - pd)),
                        "dd_point": bool(t >= 3) if p.mover == ELDER else bool(t <= 2)})
        out.append(row)
    dd_best = None
    if other is not None:
        top = max(r["dd_marks"] * 10 + (r["dd_tricks"] * sign) for r in out)
        dd_best = [r["card"] for r in out if r["dd_marks"] * 10 + r["dd_tricks"] * sign == top]
    return {"role": p.role, "hand": format_hand(p.hand), "turn_up": format_card(p.turn_up),
            "trump": "SHDC"[p.trump], "to_play": "lead" if int(led) < 0 else "reply",
            "led": None if int(led) < 0 else format_card(int(led)),
            "tricks": {"elder": int(tricks), "dealer": (len(p.played) // 2) - int(tricks)},
            "said": list(p.said), "score": f"{p.score[0]}-{p.score[1]}",
            "worlds": int(worlds), "seed": int(seed), "deal": int(deal), "model": model,
            "chooser": chooser, "weighted_worlds": int(keep.sum()), "every_hand": bool(every),
            "adversary_king": p.adversary_king,
            "best": format_card(int(card)),
            "fallback_worlds": int(payoff[PAYOFF.at.INFER_FALLBACKS]),
            "opponent": None if other is None else format_hand(other),
            "dd_best": dd_best, "cards": out}


__all__ = ["Position", "parse_position", "computer_card", "card_values", "settings_for",
           "MODELS", "DEFAULT_WORLDS", "CHOOSERS", "DEFAULT_CHOOSER", "KING_SAID"]
