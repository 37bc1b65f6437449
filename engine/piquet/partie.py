"""Who deals each deal of a partie: the cut (Laws 3-8), the alternation (Law 16), six
deals or four and the tie-break (Law 71 and its note).

Pure functions of plain values (no numba, no randomness), for a caller that plays a
partie deal by deal (a table, a narrative, a check of the batch kernels):

* :func:`cut_winner` — Law 4: "In cutting, the ace is highest. The player who cuts the
  higher card has the choice of deal." Suits do not rank; the laws say nothing of two
  cuts of the same rank, and the custom of the table — cut again — is what
  :func:`cut_winner` reports (``None``).
* :func:`first_dealer` — the winner of the cut deals first, or makes his adversary deal,
  as he chooses (Law 4: *the choice* of deal, not the obligation).
* :func:`deal_order` — Law 16: "The players deal alternately"; Law 71: "A partie consists
  of six deals ... If both players score the same number in six deals, each deals once
  more"; the note to Law 71: four deals, "the score in the first and last deals counting
  double", the extra deals "counting single".

Players are ``0`` and ``1`` (who cut first and second); a deal's elder hand is the
non-dealer (Law 9). The batch kernels (:func:`ecarte_sim.engine.piquet.simulate.play_partie`)
play the same order with their A = the first dealer::

    >>> from ecarte_sim.engine.piquet.partie import deal_order, first_dealer
    >>> from ecarte_sim.engine.cards import PIQUET, parse_card
    >>> first = first_dealer(parse_card("KH", PIQUET), parse_card("9S", PIQUET),
    ...                      winner_deals=True)
    >>> first
    0
    >>> [t.dealer for t in deal_order(first)]
    [0, 1, 0, 1, 0, 1]
    >>> [(t.dealer, t.weight) for t in deal_order(1, partie="four", tied=True)]
    [(1, 2), (0, 1), (1, 1), (0, 2), (1, 1), (0, 1)]
"""

from __future__ import annotations

from dataclasses import dataclass

from ecarte_sim.engine.cards import N_CARDS
from ecarte_sim.engine.piquet.settings import Partie, member

#: Deals of a partie before any tie-break (Law 71; its note: four).
REGULAR_DEALS = {Partie.SIX: 6, Partie.FOUR: 4}
#: Tie-break deals: "each deals once more" (Law 71).
EXTRA_DEALS = 2


@dataclass(frozen=True)
class DealTurn:
    """One deal of a partie: its number (1-based), who deals (0 or 1), who is elder hand
    (the other, Law 9), what its score counts for (2 for the first and last of a four-deal
    partie, else 1) and whether it is a tie-break deal (Law 71)."""

    number: int
    dealer: int
    elder: int
    weight: int
    extra: bool


def _check_player(player: int, what: str) -> int:
    if player not in (0, 1):
        raise ValueError(f"{what} must be player 0 or 1, got {player!r}")
    return int(player)


def _check_card(card: int, what: str) -> int:
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < N_CARDS:
        raise ValueError(f"{what} must be a card index 0-{N_CARDS - 1}, got {card!r}")
    return card


def cut_winner(cut_0: int, cut_1: int) -> int | None:
    """The player who cut the higher card (Law 4: the ace highest; the suit does not
    count), or ``None`` when both cut the same rank (the laws are silent: they cut again).

    Cards are :data:`~ecarte_sim.engine.cards.PIQUET` indices (rank = ``card & 7``, 7 to
    ace); player 0 cut ``cut_0``."""
    r0 = _check_card(cut_0, "cut_0") & 7
    r1 = _check_card(cut_1, "cut_1") & 7
    if r0 == r1:
        return None
    return 0 if r0 > r1 else 1


def first_dealer(cut_0: int, cut_1: int, *, winner_deals: bool) -> int:
    """Who deals the first deal: the winner of the cut if he chooses to deal
    (``winner_deals``), else his adversary (Law 4). ``ValueError`` when the cuts are of
    one rank (cut again)."""
    winner = cut_winner(cut_0, cut_1)
    if winner is None:
        raise ValueError("both cut the same rank: cut again (Law 4 ranks only the cards)")
    return winner if winner_deals else 1 - winner


def deal_order(first: int, partie: Partie | str = Partie.SIX,
               tied: bool = False) -> tuple[DealTurn, ...]:
    """Every deal of a partie whose first dealer is ``first``: the players deal alternately
    (Law 16), six deals (Law 71) or four, the first and last counting double (its note);
    ``tied`` (the regular deals' scores were equal): two more deals, each player dealing
    once, counting single, and the partie ends (Law 71)."""
    first = _check_player(first, "first")
    partie = member(Partie, partie, "partie", "choose from ")
    regular = REGULAR_DEALS[partie]
    turns = []
    for n in range(regular + (EXTRA_DEALS if tied else 0)):
        dealer = first if n % 2 == 0 else 1 - first
        double = partie == Partie.FOUR and n in (0, regular - 1)
        turns.append(DealTurn(number=n + 1, dealer=dealer, elder=1 - dealer,
                              weight=2 if double else 1, extra=n >= regular))
    return tuple(turns)


__all__ = ["DealTurn", "cut_winner", "first_dealer", "deal_order", "REGULAR_DEALS",
           "EXTRA_DEALS"]
