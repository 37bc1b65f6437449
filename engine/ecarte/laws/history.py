"""What has happened in a deal before a decision, as the command line and the web page
write it: what was said (Laws 25-26), the exchanges made (Laws 27-38) and the cards played
(Laws 40-43) — parsed, checked and written here, once, without numba.

* :func:`parse_said` — the words said, checked for order: the elder proposes or plays, the
  dealer accepts or refuses a proposal, nothing after a play or a refusal.
* :func:`parse_discards` — one group per exchange: the cards the player threw, and how many
  the adversary threw (``"7S 8D:2; 9C:1"``, ``"-:3"`` when he threw none).
* :func:`check_exchanges` — the exchanges against the laws: the elder throws at least one
  card (Law 27), no more drawn than the stock holds (Law 38), no card thrown twice, nor
  held, nor the turn-up.
* :class:`History` — the three together (``History.parse(said, discards, played)``), and
  written back (:attr:`History.said_text`, :attr:`History.discards_text`).

Each question adds its own limits (which decision a history leads to, whose turn it is in
the play): :mod:`ecarte_sim.analysis.ecarte.play.card_advice` (a card),
:mod:`ecarte_sim.analysis.ecarte.advice.later_decision` (a decision after an exchange).

>>> h = History.parse("propose accept play", "7S 8D:2", "KS 8S")
>>> h.said, h.said_text, h.discards_text, h.accepted
(('propose', 'accept', 'play'), 'propose,accept,play', '7S 8D:2', 1)
>>> parse_said("propose,play")
Traceback (most recent call last):
...
ValueError: bad word 'play' in what was said: the dealer answers a proposal (accept or refuse; Law 25)
"""

from __future__ import annotations

from dataclasses import dataclass

from ecarte_sim.engine.deck import (CardError, card_list, card_set, format_card, format_cards,
                                    format_hand)
from ecarte_sim.engine.ecarte.laws.notation import HAND_SIZE

#: Cards in the stock after the deal (Law 10: five each and the turn-up).
STOCK = 32 - 2 * HAND_SIZE - 1
#: The elder's words and the dealer's (Laws 25-26).
ELDER_WORDS = ("propose", "play")
DEALER_WORDS = ("accept", "refuse")
#: The most cards a player throws at an exchange (his whole hand, Law 27).
MAX_THROWN = HAND_SIZE

#: Per speaker (True: the elder): his words, the one that ends the proposals, and what a
#: bad word or a word after the end is told (Laws 25–26).
_WORDS = {True: (ELDER_WORDS, "play", "the elder speaks here (propose or play; Law 25)",
                 "after play the proposals are over"),
          False: (DEALER_WORDS, "refuse",
                  "the dealer answers a proposal (accept or refuse; Law 25)",
                  "after a refusal the proposals are over")}


def parse_said(said) -> list[str]:
    """The words said (text such as ``"propose,accept,play"``, commas or spaces, or a
    sequence of words), checked for order (Laws 25–26): the elder proposes or plays, the
    dealer accepts or refuses a proposal, nothing after a play or a refusal;
    ``ValueError`` naming the bad word otherwise. Lower case; ``[]`` for nothing said."""
    if said is None:
        return []
    words = [w.strip().lower() for w in (said.replace(" ", ",").split(",")
                                         if isinstance(said, str) else said) if w.strip()]
    elder = True                        # whose word comes next: the elder's, then the answer
    for i, w in enumerate(words):
        allowed, last, speaks, over = _WORDS[elder]
        if w not in allowed:
            raise ValueError(f"bad word {w!r} in what was said: {speaks}")
        if w == last and i + 1 < len(words):
            raise ValueError(f"bad word {words[i + 1]!r} in what was said: {over}")
        elder = not elder
    return words


def parse_discards(discards) -> list[tuple[int, int]]:
    """Groups (the player's thrown mask, the adversary's count) from text ``"7S 8D:2;
    9C:1"`` (``-`` or nothing before ``:`` for none) or from pairs; ``ValueError`` /
    ``CardError`` naming the bad group otherwise."""
    if discards is None:
        return []
    if isinstance(discards, str):
        groups = []
        for part in [p for p in discards.split(";") if p.strip()]:
            cards, sep, count = part.rpartition(":")
            if not sep or not count.strip().isdigit():
                raise ValueError(f"bad discard group {part.strip()!r}: write MY CARDS:N, N "
                                 "the cards the adversary threw (e.g. '7S 8D:2')")
            groups.append((cards, int(count)))
        discards = groups
    out = []
    for group in discards:
        try:
            cards, count = group
        except (TypeError, ValueError):
            raise ValueError(f"bad discard group {group!r}: (my cards, adversary's count)") \
                from None
        if isinstance(count, bool) or not hasattr(count, "__index__") \
                or not 0 <= int(count) <= MAX_THROWN:
            raise ValueError(f"bad discard count {count!r}: the adversary threw 0 to 5 cards "
                             "(Law 27)")
        out.append((card_set(cards, "discard"), int(count)))
    return out


def check_exchanges(groups, mover: int, *, held: int = 0, turn_up: int | None = None
                    ) -> tuple[int, int]:
    """The exchanges ``groups`` (:func:`parse_discards`) of the ``mover`` (0: the elder,
    1: the dealer) against the laws: the elder throws at least one card (Law 27), no more
    cards drawn than the stock holds (Law 38), no card thrown twice; with ``held`` (his
    cards now) none of them thrown, with ``turn_up`` not the turn-up. Returns (every card
    he threw, as a mask; the cards left in the stock); ``ValueError`` / ``CardError``
    naming the exchange or the card otherwise."""
    left = STOCK
    thrown = 0
    for r, (mine, theirs) in enumerate(groups):
        n_mine = bin(mine).count("1")
        elder_n, dealer_n = (n_mine, theirs) if mover == 0 else (theirs, n_mine)
        if elder_n == 0:
            raise ValueError(f"exchange {r + 1}: the elder throws at least one card (Law 27)")
        if elder_n + dealer_n > left:
            raise ValueError(f"exchange {r + 1}: {elder_n + dealer_n} cards drawn with "
                             f"{left} left in the stock (Law 38)")
        if mine & thrown:
            c = (mine & thrown).bit_length() - 1
            raise CardError(f"card {format_card(c)!r} thrown twice", format_card(c))
        if mine & held:
            c = (mine & held).bit_length() - 1
            raise CardError(f"card {format_card(c)!r} is both thrown and held",
                            format_card(c))
        if turn_up is not None and mine >> turn_up & 1:
            raise CardError(f"the turn-up {format_card(turn_up)!r} was thrown",
                            format_card(turn_up))
        thrown |= mine
        left -= elder_n + dealer_n
    return thrown, left


def said_text(words) -> str:
    """The words as the command line takes them: ``"propose,accept,play"``."""
    return ",".join(words)


def discards_text(groups) -> str:
    """The exchanges as the command line takes them: ``"7S 8D:2; -:1"``."""
    return "; ".join(f"{format_hand(mine) or '-'}:{theirs}" for mine, theirs in groups)


@dataclass(frozen=True)
class History:
    """What has happened in a deal: ``said`` (the words, in order), ``discards`` (one
    ``(thrown mask, adversary's count)`` per exchange made) and ``played`` (the cards
    played, in order, as indices). Made by :meth:`parse`; each question checks its own
    limits on it."""

    said: tuple[str, ...] = ()
    discards: tuple[tuple[int, int], ...] = ()
    played: tuple[int, ...] = ()

    @classmethod
    def parse(cls, said=None, discards=None, played=None) -> History:
        """Each part as text (or words, pairs, cards), parsed and checked for its own
        grammar (:func:`parse_said`, :func:`parse_discards`, the cards of ``played``)."""
        return cls(tuple(parse_said(said)), tuple(parse_discards(discards)),
                   tuple(card_list(played or (), "played")))

    @property
    def accepted(self) -> int:
        """The proposals accepted: the exchanges made (Law 27)."""
        return self.said.count("accept")

    @property
    def said_text(self) -> str:
        return said_text(self.said)

    @property
    def discards_text(self) -> str:
        return discards_text(self.discards)

    @property
    def played_text(self) -> str:
        return format_cards(self.played)
