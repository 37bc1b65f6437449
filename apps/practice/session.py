"""One game of five up between the person and the computer: the practice table's rules.

A :class:`Table` deals, asks the person for his decisions, makes the computer's, marks the
score, and keeps the game's record (:mod:`.records`). The laws (the Club Code *Laws of
Écarté*, as quoted in *Hoyle's Games Modernized*):

* the game is five up (Law 46); the players deal in turn (Law 14's "his turn"); who deals
  first is drawn from the game's key, standing for the cut (Law 5). Deal ``n`` (1, 2, ...)
  is the engine's deal 0 (:func:`ecarte_sim.engine.ecarte.laws.deal.deal`: the elder's five
  cards, the dealer's, the turn-up (Law 10) and the stock, top first) of its own seed, an
  HMAC of the game's secret key and ``n`` (:mod:`.seeds`: no deal's cards tell another
  deal's); a game restored from a version 1 record deals as it did (deal ``n`` the
  engine's deal ``n - 1`` of the game's seed);
* a king turned up marks one to the dealer at once (Laws 22, 47);
* the elder proposes or plays; the dealer accepts or refuses (Laws 25–27); after an
  exchange the elder may propose again and the dealer is again free (note to Law 26),
  until the stock is exhausted, when the elder must play. On an exchange the elder
  discards first (one to five cards), then the dealer (none to five); each draws as many
  as he threw from the top of the stock (Laws 28–34), and nobody may throw more than the
  stock can replace (Law 38: when the elder's draw empties it, the dealer takes nothing,
  and the person as dealer is not asked);
* the king of trumps held marks one when announced before its holder plays his first
  card (Laws 23–24, 47); the person may conceal it, as A does in the treatise's worked
  game; announcing a king one does not hold is refused (Law 25). The computer announces
  (the treatise's conceals where the mark cannot change the game, as A does; unseen);
* the play (Law 43): follow suit, win the trick when able, trump when void; the winner
  of a trick leads to the next; the point (three or four tricks) marks one, the vole two
  (Law 48); an elder who played without proposing, or a dealer who refused the first
  proposal, gives two when he loses the point (Law 49);
* the game ends the moment a score reaches five (a king mark included).

Contract (H2's coach and H3's web app build on it)::

    Table.new(*, key=None | seed=None, opponent="pimc-king" | "alphamu" | "strategy" |
              "treatise", coach=True, worlds=64, number=None) -> Table
    table.view() -> dict          # JSON-serialisable; only what the person may see now
    table.act(action) -> dict     # the new view; the computer's replies applied inside
    table.record() -> dict        # the game record (records.py)
    table.public_record() -> dict # the same, the computer's unseen cards "?" mid-deal
    Table.from_record(record) -> Table   # a game in progress restored exactly
    table.decision(phase, side, computer) -> dict   # a computer's choice for either side

Actions: ``{"type": "propose"}``, ``{"type": "play"}`` (play without proposing),
``{"type": "accept"}``, ``{"type": "refuse"}``, ``{"type": "discard", "cards": ["7S",
...]}``, ``{"type": "king", "announce": true|false}`` (asked before the person's first
card when he holds the king of trumps), ``{"type": "card", "card": "KH"}``, ``{"type":
"next"}`` (the next deal), ``{"type": "retry"}`` / ``{"type": "reveal"}`` (the coach:
take the last decision back and try again before the answer is shown / show it; no
take-back once the decision showed a card the person could not see before it, such as
the cards his discard drew or the computer's reply: the verdict says so). An
action that is not allowed raises :class:`IllegalAction` ``(law, reason)`` (``law`` None
when no law speaks: a malformed action, a decision at the wrong time) and changes
nothing.

The view's keys: ``phase`` ("propose", "answer", "discard", "king", "play", "deal_over",
"game_over"), ``person_role`` ("elder" | "dealer"), ``hand``, ``turn_up``, ``trump``,
``score`` {"person", "computer"}, ``stock`` (cards left), ``trick`` (the cards on the
table: [{"by", "card"}]), ``tricks`` (won this deal, by player), ``played`` (this deal's
tricks so far: [{"leader", "cards": [{"by", "card"}], "winner"}]), ``legal`` ({"actions":
[...], "cards": [...] when a card is to be played, "min"/"max" when discarding}),
``events`` (what happened since the last view, each {"by", "type", ..., "text"}),
``coach`` (this deal's verdicts, the coach's dicts), ``retried`` (the verdicts on the
decisions taken back by "try again" this deal), ``deal`` (1, 2, ...), ``dealer``,
``round`` (exchanges made this deal), ``law49`` (None, "played without proposing" or
"refused the first proposal"), ``exchanges`` (per exchange: the person's discard and draw,
the computer's count), ``king`` (who announced the king of trumps this deal), ``marks``
(this deal's marks so far), ``seq`` (how many actions the person has made: a client's
staleness check), ``opponent``, ``coach_on``, ``winner``; at ``deal_over`` also ``hands`` (both
hands as dealt and as played from) and ``replay`` (the coach's double-dummy replay, when
on) and ``deal_seed`` (the deal's seed: it replays the deal, and fixes no other); at
``game_over`` ``key`` (never before: it fixes every deal; ``seed`` for a version 1 game),
``winner``, ``game_value`` (Law 46's treble/double/single by agreement) and ``summary``
(the coach's). ``number`` is the game's number when it was asked for by one (every
player of that number on the server gets the same deals), else None. Every card is text, ``"KH"``, ``"TS"`` for the
ten.
"""

from __future__ import annotations

import pickle

from ecarte_sim.analysis.practice import laws, seeds
from ecarte_sim.analysis.practice.records import (FORMAT, RecordError, card_value,
                                                  validate)
from ecarte_sim.apps.practice.computer import (DEFAULT_OPPONENT, OPPONENTS, Computer,
                                                   Position)
from ecarte_sim.engine.cards import CardError, cards_of, format_card, parse_card

PERSON, COMPUTER = "person", "computer"
SIDES = (PERSON, COMPUTER)
TARGET = laws.TARGET
UNKNOWN = laws.UNKNOWN
SUIT_LETTERS = "SHDC"
LAW49_WORDS = {laws.NONE: None, laws.PLAYED_WITHOUT_PROPOSING: "played without proposing",
               laws.REFUSED_FIRST: "refused the first proposal"}
ACTIONS = ("propose", "play", "accept", "refuse", "discard", "king", "card", "next",
           "retry", "reveal")


class IllegalAction(ValueError):
    """An action the table refuses: ``law`` (e.g. "Law 43", or None when no law speaks)
    and ``reason`` (one line)."""

    def __init__(self, law: str | None, reason: str):
        super().__init__(f"{law}: {reason}" if law else reason)
        self.law = law
        self.reason = reason


def other(side: str) -> str:
    return COMPUTER if side == PERSON else PERSON


def text(card: int) -> str:
    return format_card(card)


def texts(mask_or_cards) -> list[str]:
    if isinstance(mask_or_cards, int):
        return [text(c) for c in cards_of(mask_or_cards)]
    return [text(c) for c in mask_or_cards]


def first_dealer(key: str | None = None, seed: int | None = None) -> str:
    """Who deals the first deal, standing for the cut of Law 5: a bit of an HMAC of the
    game's key (:func:`.seeds.first_dealer`), or of a version 1 game's seed."""
    if key is not None:
        return SIDES[seeds.first_dealer(key)]
    return SIDES[seeds.first_dealer_v1(seed)]


class Deal:
    """One deal's state (internal; cards as indices, hands as masks)."""

    def __init__(self, number: int, index: int | None, dealer: str, score_before: dict,
                 elder0: int, dealer0: int, turn_up: int, stock: list[int] | None,
                 seed: int | None = None):
        self.number = number
        self.index = index
        self.seed = seed          # the engine's stream of the deal: (seed, index)
        self.dealer = dealer
        self.elder = other(dealer)
        self.score_before = dict(score_before)
        self.dealt = {self.elder: elder0, dealer: dealer0}
        self.hand = dict(self.dealt)
        self.turn_up = turn_up
        self.trump = turn_up >> 3
        self.stock = list(stock) if stock is not None else None
        self.used = 0
        self.round = 0
        self.first = laws.NONE
        self.stage = "propose"     # propose, answer, discard_elder, discard_dealer, play, over
        self.actions: list[dict] = []
        self.exchanges: list[dict] = []
        self.discarded = {s: 0 for s in SIDES}
        self.held = dict(self.dealt)           # every card each has held
        self.at_play: dict | None = None
        self.king_holder: str | None = None
        self.king_said = {s: None for s in SIDES}
        self.cards_played = {s: 0 for s in SIDES}
        self.played: list[tuple[str, int]] = []
        self.leader = self.elder
        self.tricks = {s: 0 for s in SIDES}
        self.marks: list[dict] = []
        self.not_held = {s: 0 for s in SIDES}  # cards the play proved each does not hold
        self.coach: list[dict] = []
        self.retried: list[dict] = []     # verdicts on decisions taken back ("try again")

    @property
    def left(self) -> int:
        return laws.STOCK_SIZE - self.used

    def role(self, side: str) -> str:
        return "elder" if side == self.elder else "dealer"

    @property
    def trick(self) -> list[tuple[str, int]]:
        n = len(self.played) % 2
        return self.played[len(self.played) - n:] if n else []

    def mover(self) -> str:
        return self.leader if not self.trick else other(self.leader)


def _deep_copy(state):
    """A deep copy of a game's state (plain data: dicts, lists, strings, numbers and
    :class:`Deal`), as ``copy.deepcopy`` makes it (shared parts stay shared) in a quarter
    of the time: every action snapshots the whole game."""
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


class Table:
    """One game of five up (module docstring). Build with :meth:`new` or
    :meth:`from_record`."""

    def __init__(self, opponent: str, coach: bool, worlds: int, *, key=None,
                 seed: int | None = None, dealer: str | None = None,
                 number: int | None = None):
        from ecarte_sim.engine.rng import check_seed
        if (key is None) == (seed is None):
            raise ValueError("a table deals from a key (version 2) or, restored from a "
                             "version 1 record, from a seed")
        self.key = None if key is None else parse_key_hex(key)
        self.seed = None if seed is None else check_seed(seed)
        self.version = 2 if key is not None else 1
        if number is not None and (isinstance(number, bool) or not isinstance(number, int)
                                   or number < 0):
            raise ValueError(f"a game's number is a whole number, got {number!r}")
        self.number = number
        if opponent not in OPPONENTS:
            raise ValueError(f"unknown opponent {opponent!r}; choose from "
                             f"{', '.join(OPPONENTS)}")
        if isinstance(worlds, bool) or not isinstance(worlds, int) or not 1 <= worlds <= 4096:
            raise ValueError(f"worlds must be an integer in 1..4096, got {worlds!r}")
        self.opponent = opponent
        self.coach_on = bool(coach)
        self.worlds = int(worlds)
        self.computer = Computer(opponent, worlds)
        self.first_dealer = dealer or first_dealer(self.key, self.seed)
        self.score = {s: 0 for s in SIDES}
        self.deals: list[Deal] = []
        self.winner: str | None = None
        self.events: list[dict] = []
        self.seq = 0
        self._undo: dict | None = None     # the state before the person's last decision
        self._start_deal()

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, *, key=None, seed: int | None = None, opponent: str = DEFAULT_OPPONENT,
            coach: bool = True, worlds: int = 64, number: int | None = None) -> "Table":
        """A new game dealt from ``key`` (hex; the server's: random, or a numbered game's
        HMAC), or from a key made from the integer ``seed`` (tests, scripts), or a fresh
        random key; the computer's first decisions are made at once, up to the person's
        first decision."""
        if key is None:
            key = seeds.new_key() if seed is None else seeds.key_from_seed(seed)
        table = cls(opponent, coach, worlds, key=key, number=number)
        table._run_computer()
        return table

    @classmethod
    def from_record(cls, record: dict) -> "Table":
        """The game of ``record`` (:mod:`.records`) restored: every recorded action is
        replayed through the rules (the computer's as recorded, not recomputed), the
        coach's verdicts restored as recorded. Raises ``records.RecordError`` when the
        record is not a table's game or an action in it is not legal."""
        return _restore_table(cls, record)

    # ------------------------------------------------------------------ the state
    @property
    def deal(self) -> Deal:
        return self.deals[-1]

    def to_act(self) -> tuple[str | None, str]:
        """(who must act, the phase)."""
        if self.winner:
            return None, "game_over"
        d = self.deal
        if d.stage == "over":
            return PERSON, "deal_over"
        if d.stage == "propose":
            return d.elder, "propose"
        if d.stage == "answer":
            return d.dealer, "answer"
        if d.stage == "discard_elder":
            return d.elder, "discard"
        if d.stage == "discard_dealer":
            return d.dealer, "discard"
        mover = d.mover()
        if (d.king_holder == mover and d.king_said[mover] is None
                and d.cards_played[mover] == 0):
            return mover, "king"
        return mover, "play"

    def stream(self, number: int | None = None) -> tuple[int, int]:
        """(seed, index): the engine's stream of deal ``number`` (default: the deal in
        progress): its cards, and the worlds the computer and the coach draw in it."""
        number = len(self.deals) if number is None else number
        if self.version == 2:
            return seeds.deal_seed(self.key, number), 0
        return self.seed, number - 1

    def _start_deal(self) -> None:
        from ecarte_sim.engine.ecarte.laws.deal import deal
        number = len(self.deals) + 1
        dealer = self.first_dealer if number % 2 else other(self.first_dealer)
        seed, index = self.stream(number)
        dealt = deal(seed, index)
        d = Deal(number, index, dealer, self.score, dealt.elder, dealt.dealer,
                 dealt.turn_up, list(dealt.stock), seed=seed)
        self.deals.append(d)
        self._event(dealer, "deal", text=f"{self._name(dealer)} deal{'' if dealer == PERSON else 's'}; the turn-up is "
                    f"{text(d.turn_up)}.", turn_up=text(d.turn_up), deal=number)
        if laws.rank(d.turn_up) == laws.KING:
            self._mark(dealer, 1, "the king turned up", "Laws 22, 47")

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _name(side: str) -> str:
        return "You" if side == PERSON else "The computer"

    def _event(self, by: str | None, kind: str, text: str, **data) -> None:
        self.events.append({"by": by, "type": kind, **data, "text": text})

    def _mark(self, side: str, n: int, why: str, law: str) -> None:
        d = self.deal
        self.score[side] += n
        d.marks.append({"to": side, "marks": n, "for": why, "law": law})
        self._event(side, "mark", f"{self._name(side)} mark{'' if side == PERSON else 's'} "
                    f"{n} for {why} ({law}).", marks=n, law=law, why=why,
                    score=dict(self.score))
        if self.score[side] >= TARGET and not self.winner:
            self.winner = side
            d.stage = "over"
            self._event(side, "game_over", f"{self._name(side)} win{'' if side == PERSON else 's'}"
                        f" the game, {self.score[side]} to {self.score[other(side)]}.",
                        winner=side, score=dict(self.score))

    def _start_play(self) -> None:
        d = self.deal
        d.stage = "play"
        d.at_play = dict(d.hand)
        king = laws.king_of(d.trump)
        for side in (d.elder, d.dealer):
            if d.hand[side] >> king & 1:
                d.king_holder = side

    # ------------------------------------------------------------------ applying actions
    def apply(self, side: str, action: dict) -> None:
        """Apply ``side``'s ``action`` (validated first: :class:`IllegalAction` leaves the
        state unchanged) and record it."""
        who, phase = self.to_act()
        kind = action.get("type") if isinstance(action, dict) else None
        if kind not in ACTIONS:
            raise IllegalAction(None, f"unknown action {kind!r}; one of {', '.join(ACTIONS)}")
        if phase == "game_over":
            raise IllegalAction("Law 46", "the game is over (five up)")
        if who != side:
            if kind == "card":
                raise IllegalAction("Law 40", f"it is not {side}'s turn to play a card")
            raise IllegalAction(None, f"it is {who}'s turn ({phase}), not {side}'s")
        d = self.deal
        handler = getattr(self, f"_do_{phase}")
        handler(side, kind, action, d)

    def _wrong(self, phase: str, kind: str, allowed: str):
        return IllegalAction(None, f"{kind!r} is not allowed now: the table waits for "
                                   f"{allowed} ({phase})")

    def _do_deal_over(self, side, kind, action, d):
        if kind != "next":
            raise self._wrong("deal_over", kind, "'next'")
        self._start_deal()

    def _do_propose(self, side, kind, action, d):
        if kind not in ("propose", "play"):
            raise self._wrong("propose", kind, "'propose' or 'play'")
        d.actions.append({"by": side, "type": kind})
        if kind == "play":
            if d.round == 0:
                d.first = laws.PLAYED_WITHOUT_PROPOSING
            self._event(side, "play", f"{self._name(side)} "
                        f"{'play' if side == PERSON else 'plays'}"
                        f"{' without proposing' if d.round == 0 else ''}.",
                        round=d.round)
            self._start_play()
        else:
            self._event(side, "propose", f"{self._name(side)} propose"
                        f"{'' if side == PERSON else 's'}.", round=d.round)
            d.stage = "answer"

    def _do_answer(self, side, kind, action, d):
        if kind not in ("accept", "refuse"):
            raise self._wrong("answer", kind, "'accept' or 'refuse'")
        d.actions.append({"by": side, "type": kind})
        self._event(side, kind, f"{self._name(side)} {kind}{'' if side == PERSON else 's'}.",
                    round=d.round)
        if kind == "refuse":
            if d.round == 0:
                d.first = laws.REFUSED_FIRST
            self._start_play()
        else:
            d.stage = "discard_elder"

    def _discard_mask(self, side, action, d, low: int, high: int) -> int:
        cards = action.get("cards")
        if not isinstance(cards, list) or len(cards) > 5 \
                or not all(isinstance(c, str) for c in cards):
            raise IllegalAction(None, "a discard gives 'cards': a list of at most five "
                                      "cards such as [\"7S\", \"8H\"]")
        mask = 0
        for token in cards:
            try:
                c = parse_card(token)
            except CardError:
                raise IllegalAction(None, f"unknown card {token!r}") from None
            if not d.hand[side] >> c & 1:
                raise IllegalAction("Law 28", f"{text(c)} is not in {side}'s hand")
            if mask >> c & 1:
                raise IllegalAction(None, f"{text(c)} is written twice")
            mask |= 1 << c
        n = len(cards)
        if n < low:
            raise IllegalAction("Law 27", "the elder who exchanges discards at least one "
                                          "card")
        if n > high:
            raise IllegalAction("Law 38", f"only {high} card{'s' if high != 1 else ''} can "
                                          f"be taken from the stock ({d.left} left)")
        return mask

    def _do_discard(self, side, kind, action, d):
        if kind != "discard":
            raise self._wrong("discard", kind, "a discard")
        elder = side == d.elder
        mask = self._discard_mask(side, action, d, 1 if elder else 0, min(5, d.left))
        n = bin(mask).count("1")
        drawn = d.stock[d.used:d.used + n]
        d.used += n
        drawn_mask = sum(1 << c for c in drawn)
        d.hand[side] = (d.hand[side] & ~mask) | drawn_mask
        d.held[side] |= drawn_mask
        d.discarded[side] |= mask
        d.actions.append({"by": side, "type": "discard", "cards": texts(mask),
                          "drawn": texts(drawn)})
        if elder:
            d.exchanges.append({"elder_out": mask, "elder_in": drawn_mask})
            d.stage = "discard_dealer"
        else:
            d.exchanges[-1].update(dealer_out=mask, dealer_in=drawn_mask)
            d.round += 1
            d.stage = "propose"
        if side == PERSON:
            self._event(side, "discard", f"You discard {' '.join(texts(mask))} and take "
                        f"{' '.join(texts(drawn)) or 'nothing'}.", cards=texts(mask),
                        drawn=texts(drawn), count=n)
        else:
            self._event(side, "discard", f"The computer discards {n} card"
                        f"{'s' if n != 1 else ''} and takes {n}.", count=n)
        if not elder and d.left == 0:
            self._event(None, "stock_exhausted", "The stock is exhausted: the elder must "
                        "play (Law 38).")
            self._start_play()

    def _do_king(self, side, kind, action, d):
        if kind == "card":
            raise IllegalAction("Law 23", "you hold the king of trumps: say whether you "
                                          "announce it before playing your first card")
        if kind != "king":
            raise self._wrong("king", kind, "'king' (announce or conceal)")
        announce = action.get("announce")
        if not isinstance(announce, bool):
            raise IllegalAction(None, "a king action gives 'announce': true or false")
        d.king_said[side] = announce
        d.actions.append({"by": side, "type": "king", "announce": announce})
        king = text(laws.king_of(d.trump))
        if announce:
            self._event(side, "king", f"{self._name(side)} announce"
                        f"{'' if side == PERSON else 's'} the king ({king}).", announce=True)
            self._mark(side, 1, "the king of trumps held", "Laws 23, 47")
        elif side == PERSON:        # the computer's concealment is not shown (Law 23)
            self._event(side, "king", "You conceal the king.", announce=False)

    def _do_play(self, side, kind, action, d):
        if kind == "king":
            holder = d.king_holder == side
            raise IllegalAction("Law 25" if not holder else "Law 23",
                                "you do not hold the king of trumps" if not holder else
                                "the king is announced before its holder's first card")
        if kind != "card":
            raise self._wrong("play", kind, "a card")
        token = action.get("card")
        try:
            card = parse_card(token)
        except CardError:
            raise IllegalAction(None, f"unknown card {token!r}") from None
        if not d.hand[side] >> card & 1:
            raise IllegalAction("Law 43", f"{text(card)} is not in {side}'s hand")
        trick = d.trick
        led = trick[0][1] if trick else None
        breach = laws.breach_of_play(cards_of(d.hand[side]), led, card, d.trump,
                                     you=side == PERSON)
        if breach:
            raise IllegalAction(*breach)
        if d.king_holder == side and d.king_said[side] is None:
            d.king_said[side] = False     # he played without announcing (Law 23)
        d.hand[side] &= ~(1 << card)
        d.played.append((side, card))
        d.cards_played[side] += 1
        d.actions.append({"by": side, "type": "card", "card": text(card)})
        self._event(side, "card", f"{self._name(side)} "
                    f"{'lead' if led is None else 'play'}{'' if side == PERSON else 's'} "
                    f"{text(card)}.", card=text(card), lead=led is None)
        if led is None:
            return
        from ecarte_sim.engine.ecarte.play.players import reveal
        d.not_held[side] = int(reveal(d.not_held[side], led, card, d.trump, True))
        winner = side if laws.follower_wins(led, card, d.trump) else other(side)
        d.tricks[winner] += 1
        d.leader = winner
        self._event(winner, "trick", f"{self._name(winner)} win{'' if winner == PERSON else 's'}"
                    f" the trick.", winner=winner, tricks=dict(d.tricks))
        if len(d.played) == 10:
            self._end_play(d)

    def _end_play(self, d: Deal) -> None:
        pe, pd = laws.points(d.tricks[d.elder], d.first)
        t = d.tricks[d.elder]
        for side, n in ((d.elder, pe), (d.dealer, pd)):
            if n:
                won = max(t, 5 - t)
                why = "the vole" if won == 5 else "the point"
                law = "Law 48" if (won == 5 or n == 1) else "Law 49"
                self._mark(side, n, why, law)
                break
        d.stage = "over"

    # ------------------------------------------------------------------ the computer
    def _position(self, d: Deal, side: str = COMPUTER) -> Position:
        """What ``side`` knows of the deal now (the computer's view, or the person's for a
        stand-in player)."""
        said = tuple(a["type"] for a in d.actions
                     if a["type"] in ("propose", "play", "accept", "refuse"))
        mine, theirs = ("elder", "dealer") if d.elder == side else ("dealer", "elder")
        counts = [(x.get(f"{mine}_out", 0), bin(x.get(f"{theirs}_out", 0)).count("1"))
                  for x in d.exchanges]
        role = lambda s: "elder" if s == d.elder else "dealer"  # noqa: E731
        return Position(role(side), d.hand[side], d.turn_up, said, tuple(counts),
                        d.discarded[side], d.held[side],
                        tuple((role(s), c) for s, c in d.played), d.seed, d.index,
                        (d.score_before[d.elder], d.score_before[d.dealer]),
                        tuple(role(s) for s in SIDES if d.king_said[s]))

    def decision(self, phase: str, side: str = COMPUTER, computer: Computer | None = None
                 ) -> dict:
        """The action ``computer`` (default: the table's) would take for ``side`` in
        ``phase``, from ``side``'s knowledge only. The table's own computer plays
        :data:`COMPUTER`; a test may seat another for the person (self-play)."""
        d = self.deal
        c = computer or self.computer
        score = (d.score_before[d.elder], d.score_before[d.dealer])
        hand = d.hand[side]
        if phase == "propose":
            return {"type": "propose" if c.proposes(hand, d.turn_up, d.round, score)
                    else "play"}
        if phase == "answer":
            return {"type": "accept" if c.accepts(hand, d.turn_up, d.round, score)
                    else "refuse"}
        if phase == "discard":
            mask = c.discard(d.role(side), hand, d.turn_up, d.round, d.left, score)
            return {"type": "discard", "cards": texts(mask)}
        if phase == "king":
            return {"type": "king", "announce": c.announces(
                self.score[side], self.score[other(side)], side == d.elder, d.first)}
        card = c.card(self._position(d, side), d.not_held[other(side)])
        return {"type": "card", "card": text(card)}

    def hint(self) -> dict:
        """A hint on demand: what the table's own computer would do in the person's seat
        now, decided from the person's knowledge only (:meth:`decision` for the person);
        changes nothing, is not recorded. ``{"action", "text"}``; :class:`IllegalAction`
        when no decision of the person's is pending."""
        who, phase = self.to_act()
        if who != PERSON or phase not in ("propose", "answer", "discard", "king", "play"):
            raise IllegalAction(None, "no decision of yours is pending: nothing to hint")
        action = self.decision(phase, PERSON, Computer(self.opponent, self.worlds))
        kind = action["type"]
        said = {"propose": "propose", "play": "play without proposing", "accept": "accept",
                "refuse": "refuse",
                "discard": "discard " + (" ".join(action.get("cards", [])) or "nothing"),
                "king": "announce the king" if action.get("announce") else
                        "conceal the king",
                "card": f"play {action.get('card')}"}[kind]
        who_plays = {"pimc-king": "the strategy's player (cards by pimc-king)",
                     "alphamu": "the strategy's player (cards by alphamu)",
                     "strategy": "the strategy's player", "treatise": "the treatise"}
        return {"action": action,
                "text": f"Hint: {who_plays[self.opponent]} would {said} here, from what "
                        f"you can see (a hint is not graded)."}

    def _run_computer(self) -> None:
        """The computer's decisions until the person must choose: and when the elder's
        draw has emptied the stock, the person as dealer takes no card (Law 38) without
        being asked."""
        while True:
            who, phase = self.to_act()
            if who == COMPUTER:
                self.apply(COMPUTER, self.decision(phase))
            elif phase == "discard" and who == PERSON and self.deal.left == 0:
                self.apply(PERSON, {"type": "discard", "cards": []})
            else:
                return

    # ------------------------------------------------------------------ the contract
    def act(self, action: dict) -> dict:
        """The person's ``action`` (module docstring), then the computer's replies until
        the person must act again; returns the new view. :class:`IllegalAction` leaves
        the game unchanged."""
        if not isinstance(action, dict):
            raise IllegalAction(None, "an action is an object with a 'type'")
        kind = action.get("type")
        if kind in ("retry", "reveal"):
            return self._coach_action(kind)
        who, phase = self.to_act()
        saved = self._snapshot()
        deal_number, known = self.deal.number, len(self.deal.actions)
        try:
            self.events = []
            waiting = self.deal.coach[-1] if self.deal.coach else None
            if waiting is not None and waiting.get("revealed", True) is False:
                waiting["revealed"] = True      # he plays on: the answer is shown
                before = self._snapshot()
            else:
                before = saved
            self.apply(PERSON, action)
            self.seq += 1
            if phase in ("propose", "answer", "discard", "king", "play"):
                self._undo = before
                self._coach_after(phase, action)
            self._run_computer()
            self._no_take_back_after_a_card_shown(deal_number, known)
        except BaseException:
            # an illegal action, or anything else: the game is as it was (never half done)
            self._restore(saved)
            raise
        return self.view()

    def _no_take_back_after_a_card_shown(self, deal_number: int, known: int) -> None:
        """A waiting verdict (a mistake or a blunder) offers no "try again" when the
        decision showed the person a card he could not see before it: the cards his
        discard drew, a card the computer played or the king it announced after it, the
        hands at the deal's end. Taking the decision back would leave him knowing it; he
        may still look at the answer, or play on."""
        d = self.deal
        v = d.coach[-1] if d.coach else None
        if v is None or v.get("revealed", True) is not False:
            return
        why = None
        new = d.actions[known:] if d.number == deal_number else []
        if d.number != deal_number or d.stage == "over":
            why = "the deal is over and both hands are shown"
        elif new and new[0]["type"] == "discard" and new[0].get("drawn"):
            why = f"your discard showed you the cards you drew ({' '.join(new[0]['drawn'])})"
        else:
            shown = [a for a in new[1:] if a["by"] == COMPUTER and (
                a["type"] == "card" or (a["type"] == "king" and a.get("announce")))]
            if shown:
                a = shown[0]
                why = ("the computer then announced the king" if a["type"] == "king" else
                       f"the computer then played {a['card']}")
        if why is None:
            return
        v["take_back"] = False
        cost = v.get("cost")
        v["prompt"] = (f"A {v.get('grade', 'mistake')}"
                       + (f": it cost {cost:.3f} in P(win the game)" if isinstance(
                           cost, (int, float)) else "")
                       + f". No take-back here: {why}, and a card once seen stays seen. "
                         f"Show the answer, or play on.")

    def _snapshot(self) -> dict:
        state = {k: v for k, v in self.__dict__.items() if k not in ("computer", "_undo")}
        return _deep_copy(state)

    def _restore(self, saved: dict) -> None:
        for k, v in _deep_copy(saved).items():
            setattr(self, k, v)

    # ------------------------------------------------------------------ the coach
    def _coach_after(self, phase: str, action: dict) -> None:
        """The coach's verdict on the person's decision just made (H2's ``coach.grade``),
        added to the deal's verdicts; nothing while the coach is off or absent."""
        if not self.coach_on:
            return
        try:
            from ecarte_sim.analysis.practice import coach
        except ImportError:
            return
        grade = getattr(coach, "grade_action", None)
        if grade is None:
            return
        try:
            verdict = grade(self._undo, self, phase, action)
        except Exception as exc:     # the coach's failure never stops the game
            verdict = {"kind": phase, "by": PERSON, "deal": self.deal.number,
                       "chosen": action.get("card") or action.get("type"), "cost": None,
                       "grade": "unknown", "revealed": True,
                       "text": f"the coach could not grade this decision "
                               f"({exc.__class__.__name__})"}
        if verdict:
            self.deal.coach.append(verdict)

    def _coach_action(self, kind: str) -> dict:
        d = self.deal
        if not self.coach_on:
            raise IllegalAction(None, "the coach is off")
        if not d.coach or d.coach[-1].get("revealed", True) is True:
            raise IllegalAction(None, f"nothing to {kind}: no verdict is waiting")
        if kind == "reveal":
            d.coach[-1]["revealed"] = True
            self.seq += 1
            self.events = []
            return self.view()
        if d.coach[-1].get("take_back") is False:
            raise IllegalAction(None, "no take-back: the decision showed you a card you "
                                      "could not see before it")
        if self._undo is None:
            raise IllegalAction(None, "nothing to take back")
        taken_back = dict(d.coach[-1])
        last = self._verdict_view(taken_back)
        self._restore(self._undo)
        self._undo = None
        self.deal.retried.append(taken_back)
        self.seq += 1
        self.events = [{"by": PERSON, "type": "retry", "text": "You take your decision back: "
                        "try again.", "verdict": last}]
        return self.view()

    # ------------------------------------------------------------------ views
    def view(self) -> dict:
        """What the person may see now (module docstring); JSON-serialisable."""
        d = self.deal
        who, phase = self.to_act()
        v = {
            "phase": phase, "deal": d.number, "dealer": d.dealer,
            "person_role": d.role(PERSON), "hand": texts(d.hand[PERSON]),
            "turn_up": text(d.turn_up), "trump": SUIT_LETTERS[d.trump],
            "score": dict(self.score), "stock": d.left, "round": d.round,
            "law49": LAW49_WORDS[d.first],
            "trick": [{"by": s, "card": text(c)} for s, c in d.trick],
            "tricks": dict(d.tricks), "played": self._tricks_view(d),
            "exchanges": self._exchanges_view(d),
            "king": {s: d.king_said[s] for s in SIDES if d.king_said[s]},
            "marks": [dict(m) for m in d.marks],
            "legal": self._legal(phase, d), "events": list(self.events),
            "coach": [self._verdict_view(x) for x in d.coach] if self.coach_on else [],
            "retried": [self._verdict_view(x) for x in d.retried],
            "coach_on": self.coach_on, "opponent": self.opponent, "seq": self.seq,
            "winner": self.winner,
        }
        v["number"] = self.number
        if phase == "game_over":          # it fixes every deal: told once the game is over
            v["key" if self.version == 2 else "seed"] = self.key or self.seed
        if phase in ("deal_over", "game_over"):
            if self.version == 2:
                v["deal_seed"] = d.seed   # this deal's alone: told once it is over
            v["hands"] = {
                "dealt": {s: texts(d.dealt[s]) for s in SIDES},
                "at_play": {s: texts(d.at_play[s]) for s in SIDES} if d.at_play else None,
                "discarded": {s: texts(d.discarded[s]) for s in SIDES}}
            v["replay"] = self._coach_extra("replay", d)
        if phase == "game_over":
            loser = self.score[other(self.winner)]
            v["game_value"] = 3 if loser == 0 else 2 if loser <= 2 else 1
            v["summary"] = self._coach_extra("summary", None)
        return v

    def _coach_extra(self, what: str, d: Deal | None):
        if not self.coach_on:
            return None
        try:
            from ecarte_sim.analysis.practice import coach
        except ImportError:
            return None
        if what == "replay":
            fn = getattr(coach, "replay_deal", None)
            return fn(self, d) if fn else None
        fn = getattr(coach, "summary", None)
        return fn(self.record()) if fn else None

    @staticmethod
    def _verdict_view(verdict: dict) -> dict:
        if verdict.get("revealed", True):
            return dict(verdict)
        hidden = set(verdict.get("hidden", ()))
        return {k: v for k, v in verdict.items() if k not in hidden}

    @staticmethod
    def _tricks_view(d: Deal) -> list[dict]:
        out = []
        leader = d.elder
        for i in range(0, len(d.played), 2):
            pair = d.played[i:i + 2]
            entry = {"leader": leader, "cards": [{"by": s, "card": text(c)} for s, c in pair],
                     "winner": None}
            if len(pair) == 2:
                led, reply = pair[0][1], pair[1][1]
                entry["winner"] = pair[1][0] if laws.follower_wins(led, reply, d.trump) \
                    else pair[0][0]
                leader = entry["winner"]
            out.append(entry)
        return out

    @staticmethod
    def _exchanges_view(d: Deal) -> list[dict]:
        out = []
        for x in d.exchanges:
            mine = "elder" if d.elder == PERSON else "dealer"
            theirs = "dealer" if mine == "elder" else "elder"
            entry = {"person_discarded": texts(x.get(f"{mine}_out", 0)),
                     "person_drew": texts(x.get(f"{mine}_in", 0)),
                     "computer_count": (bin(x[f"{theirs}_out"]).count("1")
                                        if f"{theirs}_out" in x else None)}
            out.append(entry)
        return out

    def _legal(self, phase: str, d: Deal) -> dict:
        if phase == "game_over":
            return {"actions": []}
        if phase == "deal_over":
            return {"actions": ["next"]}
        extra = {}
        if self.coach_on and d.coach and d.coach[-1].get("revealed", True) is False:
            extra = {"coach": ["reveal"] if d.coach[-1].get("take_back") is False
                     else ["retry", "reveal"]}
        if phase == "propose":
            return {"actions": ["propose", "play"], **extra}
        if phase == "answer":
            return {"actions": ["accept", "refuse"], **extra}
        if phase == "discard":
            low = 1 if d.elder == PERSON else 0
            return {"actions": ["discard"], "min": low, "max": min(5, d.left), **extra}
        if phase == "king":
            return {"actions": ["king"], "king": text(laws.king_of(d.trump)), **extra}
        trick = d.trick
        led = trick[0][1] if trick else None
        cards = sorted(laws.legal_cards(cards_of(d.hand[PERSON]), led, d.trump),
                       key=cards_of(d.hand[PERSON]).index)
        return {"actions": ["card"], "cards": texts(cards), **extra}

    def record(self) -> dict:
        """The game's record (:mod:`.records`): everything, the computer's cards and the
        stock included (what :meth:`from_record` needs)."""
        return _record_of(self)

    def public_record(self) -> dict:
        """The record as the person may see it now: while a deal is in progress, the
        computer's hand, its discards and draws and the stock are ``"?"`` (its cards
        played are shown) and a king it concealed is not said, with the deal's
        ``unknown`` saying so. A finished deal is
        shown whole, its seed with it. The key (a version 1 game's seed) is null until the
        game is over (it fixes the deals to come). Checkable (``laws.check``), restorable
        once the game is over."""
        record = _record_of(self)
        if self.winner is None:
            record["key" if self.version == 2 else "seed"] = None   # it fixes the deals
        d = self.deal
        if d.stage == "over":
            return record
        last = record["deals"][-1]
        if self.version == 2:
            last["seed"] = None            # it fixes this deal's unseen cards
        last["hands"][COMPUTER] = [UNKNOWN] * 5
        last["stock"] = None
        for a in last["actions"]:
            if a["type"] == "discard" and a["by"] == COMPUTER:
                a["cards"] = [UNKNOWN] * len(a["cards"])
                a["drawn"] = [UNKNOWN] * len(a["drawn"])
        last["actions"] = [a for a in last["actions"] if not (
            a["type"] == "king" and a["by"] == COMPUTER and not a["announce"])]
        last["unknown"] = ["the computer's cards not yet played (the deal is in progress)"]
        return record


# ---------------------------------------------------------------------------- records

def parse_key_hex(key) -> str:
    """A game's key as hex text (:func:`.seeds.parse_key`)."""
    return seeds.parse_key(key).hex()


def _record_of(table: Table) -> dict:
    """The record of ``table`` (format: :mod:`.records`, ``docs/records.md``)."""
    deals = []
    for d in table.deals:
        over = d.stage == "over"
        score = dict(d.score_before)
        for m in d.marks:
            score[m["to"]] += m["marks"]
        deals.append({
            "number": d.number, "index": d.index,
            **({"seed": d.seed} if table.version == 2 else {}),
            "dealer": d.dealer, "elder": d.elder,
            "score_before": dict(d.score_before),
            "hands": {s: texts(d.dealt[s]) for s in SIDES},
            "turn_up": text(d.turn_up),
            "stock": texts(d.stock) if d.stock is not None else None,
            "actions": [dict(a) for a in d.actions],
            "tricks": dict(d.tricks) if len(d.played) == 10 else None,
            "result": ({"winner": max(SIDES, key=d.tricks.get),
                        "vole": 5 in d.tricks.values()} if len(d.played) == 10 else None),
            "marks": [dict(m) for m in d.marks],
            "score_after": score if over else None,
            "coach": [dict(v) for v in d.coach],
            "retried": [dict(v) for v in d.retried],
        })
    if table.version == 2:
        source = {"key": table.key, "key_sha256": seeds.key_sha256(table.key)}
    else:
        source = {"seed": table.seed}
    return {
        "format": FORMAT, "version": table.version, "players": list(SIDES), **source,
        "table": {"opponent": table.opponent, "worlds": table.worlds,
                  "coach": table.coach_on,
                  **({"number": table.number} if table.version == 2 else {})},
        "first_dealer": table.first_dealer, "target": TARGET, "deals": deals,
        "score": dict(table.score), "winner": table.winner,
    }


def _restore_table(cls, record: dict) -> Table:
    """The table of ``record``: its deals replayed action by action through the rules;
    the deals must be the seed's. A pending "try again" of the coach survives."""
    validate(record)
    table = _replay(cls, record)
    _same_results(_record_of(table), record)
    d = table.deal
    if d.coach and d.coach[-1].get("revealed", True) is False:
        before = _replay(cls, record, drop_last_person_decision=True)
        table._undo = before._snapshot()
    table._run_computer()
    return table


def _same_results(replayed: dict, record: dict) -> None:
    """What a record says the actions gave (the marks, tricks, scores, the winner) must be
    what they give: a record is restored, never corrected."""
    for i, (mine, theirs) in enumerate(zip(replayed["deals"], record["deals"])):
        for key in ("score_before", "tricks", "result", "marks", "score_after"):
            if key in theirs and mine.get(key) != theirs.get(key):
                raise RecordError(f"deals[{i}].{key}", f"the record says {theirs.get(key)!r}, "
                                                       f"its actions give {mine.get(key)!r}")
    for key in ("score", "winner"):
        if replayed[key] != record.get(key):
            raise RecordError(key, f"the record says {record.get(key)!r}, its actions give "
                                   f"{replayed[key]!r}")


def _replay(cls, record: dict, drop_last_person_decision: bool = False) -> Table:
    version = seeds.version_of(record)
    source = "key" if version == 2 else "seed"
    if record.get("players") != list(SIDES) or record.get(source) is None \
            or record.get("table") is None:
        raise RecordError("players" if record.get("players") != list(SIDES) else
                          "table" if record.get("table") is None else source,
                          f"not a practice table's game that can be restored (players "
                          f"person and computer, the table's settings and its {source}: "
                          f"a record downloaded before the game's end gives no {source})")
    if version == 2 and record.get("key_sha256") not in (None,
                                                         seeds.key_sha256(record["key"])):
        raise RecordError("key", "not the key the record committed to (key_sha256)")
    t = record["table"]
    try:
        table = cls(t["opponent"], t["coach"], t["worlds"], dealer=record.get("first_dealer"),
                    number=t.get("number"), **{source: record[source]})
    except ValueError as e:
        raise RecordError("table", str(e)) from None
    deals = record["deals"]
    if not deals:
        raise RecordError("deals", "a table's record holds at least its first deal")
    last_person = None
    if drop_last_person_decision:
        acts = deals[-1]["actions"]
        last_person = max((j for j, a in enumerate(acts) if a["by"] == PERSON), default=None)
    seq = 0
    for i, rd in enumerate(deals):
        where = f"deals[{i}]"
        if i > 0:
            try:
                table.apply(PERSON, {"type": "next"})
            except IllegalAction as e:
                raise RecordError(where, f"a deal after the game's end ({e})") from None
            seq += 1
        d = table.deal
        dealt = {s: sorted(-1 if c is None else c for c in
                           (card_value(x, f"{where}.hands") for x in rd["hands"][s]))
                 for s in SIDES}
        if (rd["dealer"] != d.dealer
                or dealt != {s: sorted(cards_of(d.dealt[s])) for s in SIDES}
                or card_value(rd["turn_up"], f"{where}.turn_up") != d.turn_up
                or rd.get("seed") not in (None, d.seed)):
            raise RecordError(where, f"the deal is not deal {d.index} of seed {d.seed} "
                                     f"as the table deals it")
        for j, a in enumerate(rd["actions"]):
            if i == len(deals) - 1 and last_person is not None and j >= last_person:
                break
            action = {k: v for k, v in a.items() if k not in ("by", "drawn")}
            try:
                table.apply(a["by"], action)
            except IllegalAction as e:
                raise RecordError(f"{where}.actions[{j}]", str(e)) from None
            seq += a["by"] == PERSON
            if a.get("drawn") is not None and a["type"] == "discard":
                drawn = [card_value(c, f"{where}.actions[{j}].drawn") for c in a["drawn"]]
                if drawn != [parse_card(c) for c in table.deal.actions[-1]["drawn"]]:
                    raise RecordError(f"{where}.actions[{j}].drawn",
                                      "not the cards the stock gives")
        table.deal.coach = [dict(v) for v in rd.get("coach", [])]
        table.deal.retried = [dict(v) for v in rd.get("retried", [])]
    table.seq = seq
    table.events = []
    return table
