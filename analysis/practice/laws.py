"""The laws a game record must keep, and the small rules the practice table plays by.

Written beside the Club Code *Laws of Écarté* (as quoted in *Hoyle's Games Modernized*)
in plain Python, on card indices (``suit * 8 + rank``, Écarté ranks 7 8 9 10 A J Q K):

* :func:`legal_cards`, :func:`follower_wins`, :func:`breach_of_play` — the trick (Law 43:
  follow suit, win the trick when able; void, trump when able; otherwise any card).
* :func:`points` — the point and the vole (Law 48) with Law 49's doubling.
* :func:`king_mark_changes_nothing` — when the king of trumps' mark cannot change the
  game (the treatise's worked game: A conceals it).
* :func:`check` — a whole record (:mod:`.records`) against the laws: a list of
  ``(law, reason)``, empty when the record is legal. What it names:

  ======================  =========================================================
  Law 40                  a card played out of turn (the wrong player leads or
                          follows); Laws 25–27 for a proposal, answer or discard
                          by the wrong player or at the wrong time
  Law 43                  a revoke (not following suit when able), not winning the
                          trick when able, not trumping when void of the suit led
  Laws 29–34              more (or fewer) cards taken than discarded; Law 27 an
                          elder who exchanges without discarding; Law 38 a
                          discard larger than the stock can replace
  Laws 22–25, 47–49       a wrong mark: the turned king, a king of trumps announced
                          (Law 25 when its announcer does not hold it; Laws 23–24
                          when announced after its holder's first card) or marked
                          without being announced (Law 23), the point and the
                          vole (Law 48), Law 49's two for a refusal or for playing
                          without proposing
  Law 46                  a game that goes on after five, a score carried wrongly
                          from one deal to the next, a wrong final score or winner
  Law 14                  a player dealing out of his turn (twice running, or not
                          the one the cut named)
  Law 45                  an incorrect pack: a card in two places, a card played
                          that its player does not hold
  Law 42                  a play that stops with no result recorded (an abandoned
                          hand)
  Laws 8, 10              a deal that is not its seed's (:func:`.seeds.check_deals`:
                          the hands, turn-up and stock the seed deals; a deal seed
                          the key does not give; a key not the one committed to)
  ======================  =========================================================

  A card written ``"?"`` is unknown (a text that does not give it): every rule that
  needs it is skipped, never guessed.
"""

from __future__ import annotations

import re

from ecarte_sim.analysis.practice.seeds import check_deals
from ecarte_sim.engine.cards import format_card

KING = 7
HAND_SIZE = 5
STOCK_SIZE = 21
TARGET = 5
#: Law 49's codes: which first decision doubles the point (the engine's ``Law49``).
NONE, PLAYED_WITHOUT_PROPOSING, REFUSED_FIRST = 0, 1, 2
UNKNOWN = "?"


def suit(card: int) -> int:
    return card >> 3


def rank(card: int) -> int:
    return card & 7


def king_of(trump: int) -> int:
    return 8 * trump + KING


def follower_wins(led: int, reply: int, trump: int) -> bool:
    """The reply wins the trick with a higher card of the suit led, or with a trump on a
    plain card ("a seven of trumps can take the king of another suit")."""
    if suit(reply) == suit(led):
        return rank(reply) > rank(led)
    return suit(reply) == trump


def legal_cards(hand, led: int | None, trump: int) -> set[int]:
    """The cards of ``hand`` its holder may play (Law 43): any card to lead; following,
    a card of the suit led, a higher one when he holds one; void of it, a trump when he
    holds one; otherwise any card."""
    hand = set(hand)
    if led is None:
        return hand
    same = {c for c in hand if suit(c) == suit(led)}
    if same:
        return {c for c in same if rank(c) > rank(led)} or same
    trumps = {c for c in hand if suit(c) == trump}
    return trumps or hand


def breach_of_play(hand, led: int | None, card: int, trump: int,
                   you: bool = False) -> tuple[str, str] | None:
    """``(law, reason)`` when playing ``card`` from ``hand`` to ``led`` breaks Law 43 (the
    card is in the hand), else None; ``you``: the reason addressed to the player."""
    if led is None or card in legal_cards(hand, led, trump):
        return None
    c, l = format_card(card), format_card(led)
    same = [x for x in hand if suit(x) == suit(led)]

    def cards(xs):
        return " ".join(format_card(x) for x in sorted(xs, key=lambda x: -rank(x)))
    if same and suit(card) != suit(led):
        return ("Law 43", f"you must follow suit to {l}: you hold {cards(same)}" if you else
                f"{c} renounces to {l} while holding {cards(same)} of the suit led")
    if same:
        higher = [x for x in same if rank(x) > rank(led)]
        return ("Law 43", f"you must win the trick when able: {cards(higher)} would win "
                          f"{l}" if you else
                f"{c} does not win {l} though {cards(higher)} would (win the trick when "
                f"able)")
    trumps = [x for x in hand if suit(x) == trump]
    return ("Law 43", f"void of the suit led, you must trump {l} when able: you hold "
                      f"{cards(trumps)}" if you else
            f"{c} neither follows nor trumps {l} though {cards(trumps)} would win it (void "
            f"of the suit led, trump when able)")


def points(elder_tricks: int, first: int) -> tuple[int, int]:
    """(elder's points, dealer's points) of the play: the vole 2, the point 1 (Law 48);
    the point 2 against an elder who played without proposing or a dealer who refused the
    first proposal (Law 49, the vole unaffected)."""
    if elder_tricks == 5:
        return 2, 0
    if elder_tricks >= 3:
        return (2 if first == REFUSED_FIRST else 1), 0
    if elder_tricks == 0:
        return 0, 2
    return 0, (2 if first == PLAYED_WITHOUT_PROPOSING else 1)



def king_mark_changes_nothing(holder: int, other: int, holder_is_elder: bool,
                              first: int) -> bool:
    """True when the king of trumps' mark cannot change the game (the holder at
    ``holder`` marks, his adversary at ``other``, Law 49's ``first`` known): the mark
    would not make five by itself, and every outcome of the play ends the game without it,
    with the same winner — as in the treatise's worked game, where A at three, Y at four
    having played without proposing, conceals the king: "To mark the king will be useless,
    if Y win the point"."""
    if holder + 1 >= TARGET:
        return False
    for t in range(6):
        pe, pd = points(t, first)
        mine, theirs = (pe, pd) if holder_is_elder else (pd, pe)
        if holder + mine < TARGET and other + theirs < TARGET:
            return False
    return True


# ---------------------------------------------------------------------------- a record's laws

class _Hand:
    """What a record tells of one hand: the cards known to be in it and how many more
    (unknown) it holds; ``exact`` when every card is known."""

    def __init__(self, cards):
        self.known = {c for c in cards if c is not None}
        self.unknown = sum(c is None for c in cards)
        self.lost = False        # an unknown card left it: the known ones may be gone

    @property
    def exact(self) -> bool:
        return self.unknown == 0 and not self.lost

    def remove(self, card) -> None:
        if card is None:
            if self.unknown:
                self.unknown -= 1
            else:
                self.lost = True
        elif card in self.known:
            self.known.discard(card)
        elif self.unknown:
            self.unknown -= 1

    def add(self, card) -> None:
        if card is None:
            self.unknown += 1
        else:
            self.known.add(card)


def _cv(token):
    from ecarte_sim.analysis.practice.records import card_value
    return card_value(token, "")


def _fmt(card) -> str:
    return UNKNOWN if card is None else format_card(card)


def check(record) -> list[tuple[str, str]]:
    """Every breach of the laws in a game record (:mod:`.records`), as ``(law, reason)``
    in the order met (module docstring); ``[]`` for a legal record. A malformed record
    raises :class:`~ecarte_sim.analysis.practice.records.RecordError`."""
    from ecarte_sim.analysis.practice.records import validate
    validate(record)
    players = record["players"]
    out: list[tuple[str, str]] = []
    score = {p: 0 for p in players}
    chain = {p: 0 for p in players}   # the score as the record carries it, deal to deal
    marked = {p: 0 for p in players}  # the record's marks added up
    winner = None
    previous = None
    deals = record["deals"]
    for i, d in enumerate(deals):
        where = f"deal {d['number']}"
        if d["number"] != i + 1:
            out.append(("Law 14", f"{where} is the record's deal {i + 1}: the deals are "
                                  f"numbered 1, 2, 3, ... in the order they are dealt"))
        if winner is not None:
            out.append(("Law 46", f"{where} is dealt after {winner} reached five: the game "
                                  f"was over"))
        if previous is not None and d["dealer"] == previous:
            out.append(("Law 14", f"{where}: {d['dealer']} deals twice running (the deal "
                                  f"goes in turn)"))
        if i == 0 and record.get("first_dealer") not in (None, d["dealer"]):
            out.append(("Law 14", f"{where}: dealt by {d['dealer']}, but the cut gave the "
                                  f"deal to {record['first_dealer']}"))
        previous = d["dealer"]
        # each recorded score is checked against the one recorded before it (one wrong
        # score is one line, not a line for every deal after it)
        if d["score_before"] != chain:
            out.append(("Law 46", f"{where}: the score before it is recorded as "
                                  f"{_score(d['score_before'], players)}, the score after the "
                                  f"deal before is {_score(chain, players)}"))
            chain = dict(d["score_before"])
        last = i == len(deals) - 1 and record.get("winner") is None
        due, breaches = _deal_laws(d, dict(score), players, where, last)
        out.extend(breaches)
        out.extend(_marks_laws(d, due, players, where))
        by_marks, by_laws = dict(chain), dict(chain)
        for m in d["marks"]:
            marked[m["to"]] += m["marks"]
            by_marks[m["to"]] += m["marks"]
        # the game goes on by the marks the laws give (a wrong mark is its own breach,
        # not a game over that did not happen)
        for p, n, kind in due:
            n = n if n is not None else sum(
                m["marks"] for m in d["marks"] if m["to"] == p and _kind_of(m) == "point")
            by_laws[p] += n
            score[p] += n
            if winner is None and score[p] >= TARGET:
                winner = p
        if d.get("score_after") is not None:
            if d["score_after"] not in (by_marks, by_laws):
                out.append(("Law 46", f"{where}: the score after it is recorded as "
                                      f"{_score(d['score_after'], players)}, its marks give "
                                      f"{_score(by_marks, players)}"))
            chain = dict(d["score_after"])
        else:
            chain = by_marks
    if record["score"] not in (chain, score, marked):
        out.append(("Law 46", f"the final score is recorded as "
                              f"{_score(record['score'], players)}, the marks give "
                              f"{_score(marked, players)}"))
    if record.get("winner") != winner:
        out.append(("Law 46", f"the winner is recorded as {record.get('winner')}, the marks "
                              f"make it {winner} (the game is five up)"))
    out.extend(check_deals(record))
    return out


def _score(s: dict, players) -> str:
    return "-".join(str(s[p]) for p in players)


def _deal_laws(d, score, players, where, in_progress):
    """Walk one deal's actions; returns (the marks due, [(law, reason)]). ``due``: a list of
    (player, marks, kind) with kind "turned" / "king" / "point" / "vole" / "point?"
    (Law 49 unknown: 1 or 2)."""
    walk = _DealWalk(d, score, players, where)
    for j, a in enumerate(d["actions"]):
        walk.act(j, a)
    walk.settle(in_progress)
    return walk.due, walk.out


class _DealWalk:
    """One deal's actions walked in order: the stage of the proposals, the stock used, the
    hands, the trick and the marks due, with the breaches met on the way (``out``)."""

    def __init__(self, d, score, players, where):
        self.d, self.score, self.players, self.where = d, score, players, where
        self.out = []
        self.due = []
        self.elder, self.dealer = d["elder"], d["dealer"]
        self.hands = {p: _Hand([_cv(c) for c in d["hands"][p]]) for p in players}
        self.turn_up = _cv(d["turn_up"])
        self.trump = None if self.turn_up is None else suit(self.turn_up)
        self.stock = [_cv(c) for c in d["stock"]] if d.get("stock") is not None else None
        self._deal_dealt()
        self.drawn_before: set = set()
        # every card known to have been in each hand (dealt, drawn, or thrown or played
        # from it): a card never passes from one hand to the other, nor back from a
        # discard or a trick, and the turn-up stays on the table
        self.ever = {p: set(self.hands[p].known) for p in players}
        self.gone: dict = {}          # card -> how it left play (discarded, played)
        self.over = False
        if self.turn_up is not None and rank(self.turn_up) == KING:
            self.mark(self.dealer, 1, "turned")
        self.stage = "propose"
        self.rnd = 0
        self.used = 0
        self.first = None if not d["actions"] else NONE
        self.king = None if self.trump is None else king_of(self.trump)
        self.said_king = {p: None for p in players}
        self.first_card = {p: None for p in players}
        self.cards_of_player = {p: 0 for p in players}
        self.trick = []           # [(player, card)]
        self.leader = self.elder
        self.tricks = {p: 0 for p in players}
        self.order_known = True
        self.played_cards = set()
        self.played_by = {p: set() for p in players}
        self.ended_at = None

    def _deal_dealt(self):
        """The cards dealt: none in both hands or also turned up; the pack when the stock
        is recorded (``seen``: where each known card was dealt)."""
        self.seen = {}
        for p in self.players:
            cards = [_cv(c) for c in self.d["hands"][p]]
            twice = sorted({c for c in cards if c is not None and cards.count(c) > 1})
            if twice:
                self.out.append(("Law 45", f"{self.where}: {p} is dealt "
                                 f"{' '.join(map(_fmt, twice))} twice (a hand is five "
                                 f"distinct cards)"))
            for c in self.hands[p].known:
                if c in self.seen:
                    self.out.append(("Law 45", f"{self.where}: {_fmt(c)} is dealt to both "
                                               f"players"))
                self.seen[c] = p
        if self.turn_up is not None and self.turn_up in self.seen:
            self.out.append(("Law 45", f"{self.where}: the turn-up {_fmt(self.turn_up)} is "
                                       f"also in {self.seen[self.turn_up]}'s hand"))
        if self.stock is not None:
            self.out.extend(_pack_laws(self.d, self.hands, self.turn_up, self.stock,
                                       self.where))

    def mark(self, p, n, kind):
        if self.over:
            return
        self.due.append((p, n, kind))
        if n is None:           # Law 49 unknown: 1 or 2, the record's own mark carries
            return
        self.score[p] += n
        if self.score[p] >= TARGET:
            self.over = True

    def act(self, j, a):
        """Action ``j`` (0-based) of the deal."""
        by, kind = a["by"], a["type"]
        w = f"{self.where}, action {j + 1}"
        if self.over and self.ended_at is None:
            self.ended_at = j
            self.out.append(("Law 46", f"{w}: {by} goes on playing after the game was won "
                                       f"(five up)"))
        if kind in ("propose", "play"):
            self._propose_or_play(w, by, kind)
        elif kind in ("accept", "refuse"):
            self._answer(w, by, kind)
        elif kind == "discard":
            self._discard(w, by, a)
        elif kind == "king":
            self._king(w, by, a)
        elif kind == "card":
            self._card(w, by, a)

    def _propose_or_play(self, w, by, kind):
        if self.stage != "propose":
            self.out.append(("Laws 25–26", f"{w}: {by} says '{kind}' when no proposal can "
                                           f"be made ({_stage_words(self.stage)})"))
            return
        if by != self.elder:
            self.out.append(("Laws 25–26", f"{w}: {by} says '{kind}', but only the elder "
                                           f"({self.elder}) proposes or plays"))
        if kind == "play":
            if self.rnd == 0:
                self.first = PLAYED_WITHOUT_PROPOSING
            self.stage = "play"
        else:
            if self.used >= STOCK_SIZE:
                self.out.append(("Law 38", f"{w}: a proposal with the stock exhausted"))
            self.stage = "answer"
        if self.first is None:
            self.first = NONE

    def _answer(self, w, by, kind):
        if self.stage != "answer":
            self.out.append(("Laws 25–27", f"{w}: {by} says '{kind}' with no proposal to "
                                           f"answer"))
            return
        if by != self.dealer:
            self.out.append(("Laws 25–27", f"{w}: {by} says '{kind}', but only the dealer "
                                           f"({self.dealer}) answers a proposal"))
        if kind == "refuse":
            if self.rnd == 0:
                self.first = REFUSED_FIRST
            self.stage = "play"
        else:
            self.stage = "discard_elder"

    def _discard(self, w, by, a):
        out, elder = self.out, self.elder
        expect = {"discard_elder": elder, "discard_dealer": self.dealer}.get(self.stage)
        if expect is None:
            out.append(("Laws 27–28", f"{w}: {by} discards with no accepted proposal"))
            return
        if by != expect:
            out.append(("Laws 27–28", f"{w}: {by} discards, but it is {expect}'s turn "
                                      f"(the elder discards first)"))
        thrown = ([_cv(c) for c in a["cards"]] if isinstance(a.get("cards"), list)
                  else [None] * a["count"])
        drawn = [_cv(c) for c in a["drawn"]] if a.get("drawn") is not None else None
        h = self.hands[by]
        twice = sorted({c for c in thrown if c is not None and thrown.count(c) > 1})
        if twice:
            out.append(("Law 45", f"{w}: {by} discards {' '.join(map(_fmt, twice))} twice"))
        for c in thrown:
            where_else = None if c is None else self._elsewhere(c, by)
            if where_else:
                out.append(("Law 45", f"{w}: {by} discards {_fmt(c)}, {where_else}"))
            elif c is not None and h.exact and c not in h.known:
                out.append(("Law 28", f"{w}: {by} discards {_fmt(c)}, which he does not "
                                      f"hold"))
            h.remove(c)
            if c is not None:
                self.ever[by].add(c)
                self.gone.setdefault(c, f"discarded by {by}")
        n = len(thrown)
        if by == elder and n == 0:
            out.append(("Law 27", f"{w}: the elder exchanges without discarding"))
        if drawn is not None:
            self._draw(w, by, h, n, drawn)
        else:
            if self.used + n > STOCK_SIZE:
                out.append(("Law 38", f"{w}: {by} takes {n} cards with "
                                      f"{max(0, STOCK_SIZE - self.used)} left in the stock"))
            for _ in range(n):
                h.add(None)
            self.used += n
        if self.stage == "discard_elder":
            self.stage = "discard_dealer"
        else:
            self.stage = "propose"
            self.rnd += 1
            if self.used >= STOCK_SIZE:
                self.stage = "play"

    def _draw(self, w, by, h, n, drawn):
        """The cards ``by`` takes for the ``n`` he discarded (Laws 29–34, 38, 45)."""
        out, used = self.out, self.used
        law = (("Laws 29, 31" if by == self.elder else "Law 33") if len(drawn) > n else
               ("Laws 30, 32" if by == self.elder else "Law 34"))
        if len(drawn) != n:
            out.append((law, f"{w}: {by} takes {len(drawn)} card"
                             f"{'s' if len(drawn) != 1 else ''} for the {n} he "
                             f"discarded"))
        if used + len(drawn) > STOCK_SIZE:
            out.append(("Law 38", f"{w}: {by} takes {len(drawn)} cards with "
                                  f"{max(0, STOCK_SIZE - used)} left in the stock"))
        if self.stock is not None:
            expected = self.stock[used:used + len(drawn)]
            if any(x is not None and y is not None and x != y
                   for x, y in zip(drawn, expected)):
                out.append(("Laws 29–34", f"{w}: {by} takes "
                            f"{' '.join(map(_fmt, drawn))}, but the stock's next "
                            f"cards are {' '.join(map(_fmt, expected))}"))
        twice = sorted({c for c in drawn if c is not None and
                        (c in self.drawn_before or drawn.count(c) > 1)})
        if twice:
            out.append(("Law 45", f"{w}: {by} draws {' '.join(map(_fmt, twice))} "
                                  f"more than once (the pack holds each card once)"))
        from_stock = (self.stock[used:used + len(drawn)] if self.stock is not None
                      else [None] * len(drawn))
        for c, x in zip(drawn, from_stock + [None] * (len(drawn) - len(from_stock))):
            if c is not None and c not in twice and (
                    (c in self.seen and self.seen[c] != "stock") or c == self.turn_up
                    or c in self.gone or any(c in e for e in self.ever.values())):
                out.append(("Law 45", f"{w}: {by} draws {_fmt(c)}, a card already "
                                      f"in play"))
            c = x if c is None else c           # a '?' drawn from a recorded stock
            if c is not None:
                self.seen[c] = "stock"
                self.drawn_before.add(c)
                self.ever[by].add(c)
            h.add(c)
        self.used += len(drawn)

    def _elsewhere(self, c, by):
        """Where else the known card ``c`` is, that ``by`` cannot have it in his hand (each
        card in one place at a time, Law 45), or None."""
        if c == self.turn_up:
            return "the turn-up (it stays on the table: never drawn, thrown or played)"
        if c in self.gone and c not in self.played_cards:
            return f"which was already {self.gone[c]}"
        other = _other(self.players, by)
        if c in self.ever[other]:
            return f"a card of {other}'s hand"
        if self.stock is not None and c in self.stock[self.used:]:
            return "a card still in the stock"
        return None

    def _king(self, w, by, a):
        if self.stage != "play":
            self.out.append(("Law 23", f"{w}: {by} announces the king before the play"))
        h = self.hands[by]
        king = self.king
        if a["announce"]:
            held = king in h.known or king in self.played_by[by]
            if king is not None and h.exact and not held:
                self.out.append(("Law 25", f"{w}: {by} announces the king "
                                           f"{_fmt(king)} but does not hold it"))
            elif not _king_in_time(by, self.first_card, self.cards_of_player, self.trick,
                                   king):
                self.out.append(("Laws 23–24", f"{w}: {by} announces the king after "
                                               f"playing his first card"))
            else:
                self.said_king[by] = True
                self.mark(by, 1, "king")
        else:
            self.said_king[by] = False

    def _card(self, w, by, a):
        out, stage, trick = self.out, self.stage, self.trick
        if stage not in ("play",):
            if stage == "answer" or stage.startswith("discard") or stage == "propose":
                out.append(("Laws 25–27", f"{w}: {by} plays a card before the "
                                          f"proposals ended ({_stage_words(stage)})"))
            self.stage = "play"
        card = _cv(a["card"])
        mover = self.leader if not trick else _other(self.players, trick[0][0])
        if self.order_known and by != mover:
            out.append(("Law 40", f"{w}: {by} plays {_fmt(card)} out of turn "
                                  f"({'the lead is ' + mover + chr(39) + 's' if not trick else mover + ' plays to the trick'})"))
        h = self.hands[by]
        if self.cards_of_player[by] >= HAND_SIZE:
            out.append(("Law 45", f"{w}: {by} plays a card after his fifth (a hand is "
                                  f"five cards: five tricks a deal)"))
        if card is not None:
            where_else = self._elsewhere(card, by)
            if card in self.played_cards:
                out.append(("Law 45", f"{w}: {_fmt(card)} is played twice"))
            elif where_else:
                out.append(("Law 45", f"{w}: {by} plays {_fmt(card)}, {where_else}"))
            elif h.exact and card not in h.known:
                out.append(("Law 45", f"{w}: {by} plays {_fmt(card)}, which he does "
                                      f"not hold"))
            self.played_cards.add(card)
            self.played_by[by].add(card)
            self.ever[by].add(card)
            self.gone.setdefault(card, f"played by {by}")
        trump = self.trump
        if trick and trump is not None and card is not None and trick[0][1] is not None \
                and h.exact and card in h.known:
            breach = breach_of_play(h.known, trick[0][1], card, trump)
            if breach:
                out.append((breach[0], f"{w}: {by}: {breach[1]}"))
        if self.first_card[by] is None:
            self.first_card[by] = card
        self.cards_of_player[by] += 1
        h.remove(card)
        trick.append((by, card))
        if len(trick) == 2:
            (p0, c0), (p1, c1) = trick
            if c0 is None or c1 is None or trump is None:
                self.order_known = False
                win = None
            else:
                win = p1 if follower_wins(c0, c1, trump) else p0
            if win is not None:
                self.tricks[win] += 1
                self.leader = win
            self.trick = []

    def settle(self, in_progress):
        """The deal's end: the tricks and result recorded against the cards (Law 48), the
        point or the vole marked (Laws 48–49), or a hand abandoned (Law 42)."""
        d, players, where, elder, dealer = (self.d, self.players, self.where, self.elder,
                                            self.dealer)
        n_cards = sum(a["type"] == "card" for a in d["actions"])
        told = d.get("tricks")
        counted = self.tricks if (n_cards == 10 and self.order_known) else None
        if counted is not None and told is not None and told != counted:
            self.out.append(("Law 48", f"{where}: the tricks are recorded as "
                                       f"{_score(told, players)}, the cards give "
                                       f"{_score(counted, players)}"))
        result = counted or told
        said = d.get("result")
        if result is not None and said is not None:
            t = result[elder]
            won = elder if t >= 3 else dealer
            if said["winner"] != won or said["vole"] != (t in (0, 5)):
                self.out.append(("Law 48", f"{where}: the result is recorded as "
                                 f"{'the vole' if said['vole'] else 'the point'} to "
                                 f"{said['winner']}, the tricks give "
                                 f"{'the vole' if t in (0, 5) else 'the point'} to {won}"))
        if result is None and said is not None:
            won = said["winner"]
            result = {won: 5 if said["vole"] else 3,
                      _other(players, won): 0 if said["vole"] else 2}
        if self.over:
            pass
        elif result is not None:
            t = result[elder]
            if self.first is None:          # the proposals are not recorded: Law 49 unknown
                if t in (0, 5):
                    self.mark(elder if t == 5 else dealer, 2, "vole")
                else:
                    self.mark(elder if t >= 3 else dealer, None, "point?")
            else:
                pe, pd = points(t, self.first)
                if pe:
                    self.mark(elder, pe, "vole" if t == 5 else "point")
                if pd:
                    self.mark(dealer, pd, "vole" if t == 0 else "point")
        elif not in_progress and not d.get("unknown") and not self.over:
            self.out.append(("Law 42", f"{where}: the play stops after {n_cards} cards with "
                                       f"no result recorded (an abandoned hand)"))


def _pack_laws(d, hands, turn_up, stock, where) -> list[tuple[str, str]]:
    """The pack of a deal whose stock is recorded: 32 distinct cards, each in one place
    (the two hands, the turn-up, the stock); one line for the deal."""
    places = list(d["hands"][d["elder"]]) + list(d["hands"][d["dealer"]]) + \
        [d["turn_up"]] + list(d["stock"])
    known = [_cv(c) for c in places]
    counts: dict = {}
    for c in known:
        if c is not None:
            counts[c] = counts.get(c, 0) + 1
    twice = sorted(c for c, n in counts.items() if n > 1)
    if len(places) != 32 or twice:
        words = ", ".join(f"{_fmt(c)} {counts[c]} times" for c in twice[:6]) + \
            (", ..." if len(twice) > 6 else "")
        return [("Law 45", f"{where}: the pack is not 32 distinct cards, each in one place "
                           f"({len(places)} cards dealt, turned and in the stock"
                           f"{'; ' + words if words else ''})")]
    return []


def _other(players, p):
    return players[1] if p == players[0] else players[0]


def _stage_words(stage: str) -> str:
    return {"propose": "the elder has to propose or play",
            "answer": "the dealer has to answer a proposal",
            "discard_elder": "the elder has to discard",
            "discard_dealer": "the dealer has to discard",
            "play": "the play has begun"}[stage]


def _king_in_time(by, first_card, count, trick, king) -> bool:
    """Laws 23–24: before his first card; or, the king being his first card, before it is
    played to (he led it) or before he plays again (he played it to a lead)."""
    if count[by] == 0:
        return True
    if first_card[by] != king or count[by] > 1:
        return False
    return (len(trick) == 1 and trick[0][0] == by) or not trick or trick[0][0] != by


def _kind_of(m: dict) -> str:
    words = m.get("for", "").lower()
    if "king" in words:
        return "turned" if "turn" in words else "king"
    if "vole" in words:
        return "vole"
    return "point"


_LAWS = {"turned": "Laws 22, 47", "king": "Laws 23, 47", "point": "Laws 48–49",
         "vole": "Law 48"}
#: The laws a mark of each kind may cite (a record's "law" naming another is a breach).
_CITABLE = {"turned": {22, 47}, "king": {23, 24, 47}, "point": {48, 49}, "vole": {48, 49}}
_WORDS = {"turned": "the king turned up", "king": "the king of trumps announced",
          "point": "the point", "vole": "the vole"}


def _marks_laws(d, due, players, where) -> list[tuple[str, str]]:
    """The marks recorded against the marks due, kind by kind and player by player."""
    out = []
    claimed: dict = {}
    for m in d["marks"]:
        key = (m["to"], _kind_of(m))
        claimed[key] = claimed.get(key, 0) + m["marks"]
        cited = m.get("law")
        if cited is not None:
            numbers = {int(x) for x in re.findall(r"\d+", str(cited))}
            if not numbers or not numbers <= _CITABLE[key[1]]:
                out.append((_LAWS[key[1]], f"{where}: {m['to']}'s mark for "
                            f"{_WORDS[key[1]]} cites {str(cited)[:40]!r}; it is marked "
                            f"under {_LAWS[key[1]]}"))
    owed: dict = {}
    fuzzy = set()
    for p, n, kind in due:
        if kind == "point?":
            fuzzy.add(p)
            owed[(p, "point")] = owed.get((p, "point"), 0)
            continue
        owed[(p, kind)] = owed.get((p, kind), 0) + n
    keys = sorted(set(claimed) | set(owed))
    for p in {k[0] for k in keys}:          # a point marked as a vole, or the reverse:
        pt, vo = (p, "point"), (p, "vole")  # one wrong mark, one line
        if claimed.get(pt, 0) != owed.get(pt, 0) and claimed.get(vo, 0) != owed.get(vo, 0) \
                and p not in fuzzy:
            have = "vole" if claimed.get(vo, 0) else "point"
            want = "vole" if owed.get(vo, 0) else "point"
            out.append(("Law 48", f"{where}: {p} marks {claimed.get((p, have), 0)} for the "
                                  f"{have}, the laws give {owed.get((p, want), 0)} for the "
                                  f"{want}"))
            keys = [k for k in keys if k not in (pt, vo)]
    for key in keys:
        p, kind = key
        have, want = claimed.get(key, 0), owed.get(key, 0)
        if kind == "point" and p in fuzzy and have in (1, 2) and want == 0:
            continue
        if have != want:
            law = _LAWS[kind]
            if kind == "king" and have > want:
                law = "Law 23"
            if kind == "point" and {have, want} == {1, 2}:
                law = "Law 49"
            out.append((law, f"{where}: {p} marks {have} for {_WORDS[kind]}, the laws give "
                             f"{want}"))
    return out
