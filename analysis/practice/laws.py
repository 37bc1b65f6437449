"""The laws a game record must keep, and the small rules the practice table plays by.

Written beside the Club Code *Laws of Écarté* (as quoted in *Hoyle's Games Modernized*)
in plain Python, on card indices (``suit * 8 + rank``, Écarté ranks 7 8 9 10 A J Q K):

* :func:`legal_cards`, :func:`follower_wins`, :func:`breach_of_play` — the trick (Law 43:
  follow suit, win the trick when able; void, trump when able; otherwise any card).
* :func:`points` — the point and the vole (Law 48) with Law 49's doubling.
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
                          (Law 25 when its announcer does not hold it) or marked
                          without being announced (Law 23), the point and the
                          vole (Law 48), Law 49's two for a refusal or for playing
                          without proposing
  Law 46                  a game that goes on after five, a score carried wrongly
                          from one deal to the next, the deal not alternating
  Law 45                  an incorrect pack: a card in two places, a card played
                          that its player does not hold
  ======================  =========================================================

  A card written ``"?"`` is unknown (a text that does not give it): every rule that
  needs it is skipped, never guessed.
"""

from __future__ import annotations

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


def breach_of_play(hand, led: int | None, card: int, trump: int) -> tuple[str, str] | None:
    """``(law, reason)`` when playing ``card`` from ``hand`` to ``led`` breaks Law 43 (the
    card is in the hand), else None."""
    if led is None or card in legal_cards(hand, led, trump):
        return None
    c, l = format_card(card), format_card(led)
    same = [x for x in hand if suit(x) == suit(led)]
    if same and suit(card) != suit(led):
        return ("Law 43", f"{c} renounces to {l} while holding "
                          f"{' '.join(format_card(x) for x in sorted(same))} of the suit led")
    if same:
        higher = sorted(x for x in same if rank(x) > rank(led))
        return ("Law 43", f"{c} does not win {l} though "
                          f"{' '.join(format_card(x) for x in higher)} would (win the trick "
                          f"when able)")
    trumps = sorted(x for x in hand if suit(x) == trump)
    return ("Law 43", f"{c} neither follows nor trumps {l} though "
                      f"{' '.join(format_card(x) for x in trumps)} would win it (void of "
                      f"the suit led, trump when able)")


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


