"""Slow, readable oracle for the card play of Piquet (both players see all cards).

This is the pure-Python reference for :mod:`ecarte_sim.engine.piquet.solver`: plain minimax
over every legal card, memoised (``functools.cache``) on the position at the start
of each trick — both hands, who leads, the elder's tricks so far, the lead rule — with
no pruning and no shortcuts. It exists to be obviously right, not fast: an 8-card
ending takes about 0.15 s, a 10-card one about 5 s. ``trick_value.cache_clear()``
frees the memo between unrelated positions.

The objective, from the elder's side (``engine/piquet/rules.md``, "Play" and
"The cards"):

* Laws 57–59: the elder leads to the first trick; the winner of a trick leads to
  the next; the second player must follow suit if able, otherwise he plays any
  card; there is no obligation to win. No trumps: the higher card of the suit
  led wins.
* Law 65: the leader scores 1 for every card he leads; the second player scores
  1 when he wins the trick; the winner of the last (12th) trick scores 1 more.
  With ``lead_rule = LeadScoring.TEN_UP`` (the older counting of Foster and
  Hoyle) a lead scores only if the card led is a ten or higher, and a trick won
  second scores only if the winning card is a ten or higher; the last trick's
  extra 1 always counts.
* Law 66, the cards: more than six of the twelve tricks scores 10; all twelve
  (capot) scores 40 instead; six each scores nothing.

The value of a position is the elder's future play points minus the younger's,
plus the elder's cards bonus minus the younger's, with the elder maximising and
the younger minimising. Cards are bit indices ``suit * 8 + rank`` (rank 0..7 =
7 8 9 10 J Q K A), hands are Python ``int`` masks, as in :mod:`ecarte_sim.engine.cards`.
"""

from __future__ import annotations

from functools import cache, lru_cache

from ecarte_sim.engine.piquet.settings import LeadScoring, Rank, Seat

TRICKS = 12


def cards_bonus(elder_tricks: int) -> int:
    """Law 66 from the elder's side, given the elder's tricks out of twelve."""
    if elder_tricks == TRICKS:
        return 40           # the elder is capot's winner
    if elder_tricks > TRICKS // 2:
        return 10
    if elder_tricks == TRICKS // 2:
        return 0            # six each: nothing
    if elder_tricks == 0:
        return -40          # the younger wins every trick
    return -10


@lru_cache(maxsize=1 << 16)
def cards_in(hand: int) -> tuple[int, ...]:
    """The cards of a mask, lowest bit first."""
    out = []
    while hand:
        low = hand & -hand
        out.append(low.bit_length() - 1)
        hand ^= low
    return tuple(out)


def legal_cards(hand: int, led: int | None) -> tuple[int, ...]:
    """Laws 57–59: any card when leading; else a card of the suit led if one is held."""
    if led is None:
        return cards_in(hand)
    same = hand & (0xFF << (led // 8 * 8))
    return cards_in(same or hand)


def trick_points(led: int, reply: int, leader: int, last: bool, lead_rule: int):
    """Law 65 for one trick: (elder's points minus the younger's, winner).

    The higher card of the suit led wins; a card of another suit never wins.
    """
    follower_wins = reply // 8 == led // 8 and reply % 8 > led % 8
    winner = 1 - leader if follower_wins else leader
    points = [0, 0]
    if lead_rule == LeadScoring.ALL or led % 8 >= Rank.TEN:
        points[leader] += 1                      # one for the card led
    if follower_wins and (lead_rule == LeadScoring.ALL or reply % 8 >= Rank.TEN):
        points[1 - leader] += 1                  # one for winning second
    if last:
        points[winner] += 1                      # one more for the last trick
    return points[Seat.ELDER] - points[Seat.YOUNGER], winner


def _after_reply(elder: int, younger: int, leader: int, elder_tricks: int, led: int,
                 reply: int, lead_rule: int) -> int:
    """Value once the follower has answered ``led`` with ``reply`` (both already out of
    the hands): the trick's points, then the rest from the next trick on."""
    last = elder == 0 and younger == 0
    points, winner = trick_points(led, reply, leader, last, lead_rule)
    won = elder_tricks + (1 if winner == Seat.ELDER else 0)
    return points + trick_value(elder, younger, winner, won, lead_rule)


def _reply_values(elder: int, younger: int, leader: int, elder_tricks: int, led: int,
                  lead_rule: int) -> dict[int, int]:
    """Value after each legal reply to ``led`` (already out of the leader's hand)."""
    follower = 1 - leader
    hand = elder if follower == Seat.ELDER else younger
    out = {}
    for card in legal_cards(hand, led):
        bit = 1 << card
        e = elder ^ bit if follower == Seat.ELDER else elder
        y = younger if follower == Seat.ELDER else younger ^ bit
        out[card] = _after_reply(e, y, leader, elder_tricks, led, card, lead_rule)
    return out


def _lead_values(elder: int, younger: int, leader: int, elder_tricks: int,
                 lead_rule: int) -> dict[int, int]:
    """Value after each lead: the follower then answers to his own advantage."""
    hand = elder if leader == Seat.ELDER else younger
    out = {}
    for card in legal_cards(hand, None):
        bit = 1 << card
        e = elder ^ bit if leader == Seat.ELDER else elder
        y = younger if leader == Seat.ELDER else younger ^ bit
        replies = _reply_values(e, y, leader, elder_tricks, card, lead_rule).values()
        out[card] = max(replies) if leader == Seat.YOUNGER else min(replies)
    return out


@cache
def trick_value(elder: int, younger: int, leader: int, elder_tricks: int,
                lead_rule: int) -> int:
    """Exact value at the start of a trick (both hands equal), memoised (Laws 57–59,
    65–66): the elder's future play points minus the younger's, plus the cards.

    The same minimax as ``_lead_values``/``_reply_values``, written as two plain loops
    (this is the oracle's inner loop)."""
    if elder == 0 and younger == 0:
        return cards_bonus(elder_tricks)
    lead_hand, follow_hand = (elder, younger) if leader == Seat.ELDER else (younger, elder)
    last = lead_hand & (lead_hand - 1) == 0
    best = None
    for led in cards_in(lead_hand):
        rest_lead = lead_hand ^ (1 << led)
        worst = None
        for reply in legal_cards(follow_hand, led):
            rest_follow = follow_hand ^ (1 << reply)
            points, winner = trick_points(led, reply, leader, last, lead_rule)
            won = elder_tricks + (1 if winner == Seat.ELDER else 0)
            if leader == Seat.ELDER:
                v = points + trick_value(rest_lead, rest_follow, winner, won, lead_rule)
                worst = v if worst is None else min(worst, v)   # the younger replies
            else:
                v = points + trick_value(rest_follow, rest_lead, winner, won, lead_rule)
                worst = v if worst is None else max(worst, v)   # the elder replies
        if leader == Seat.ELDER:
            best = worst if best is None else max(best, worst)
        else:
            best = worst if best is None else min(best, worst)
    return best


def move_values(elder: int, younger: int, leader: int, elder_tricks: int,
                led: int | None, lead_rule: int) -> dict[int, int]:
    """For each legal card of the player to move, the exact value once it is played.

    ``leader`` (``Seat.ELDER`` or ``Seat.YOUNGER``) leads the current trick;
    ``elder_tricks`` is the number of tricks the elder has already won; ``led`` is None
    at the start of a trick, else the card already led by ``leader`` (no longer in his
    hand) and the other player is to move. Tricks already played = 12 minus the cards
    the follower of the current trick holds.
    """
    if led is None:
        return _lead_values(elder, younger, leader, elder_tricks, lead_rule)
    return _reply_values(elder, younger, leader, elder_tricks, led, lead_rule)


def value(elder: int, younger: int, leader: int, elder_tricks: int, led: int | None,
          lead_rule: int) -> int:
    """Exact value of the rest of the play from the elder's side (Laws 57–59, 65–66),
    the position given as in :func:`move_values`."""
    if led is None and elder == 0 and younger == 0:
        return cards_bonus(elder_tricks)
    values = move_values(elder, younger, leader, elder_tricks, led, lead_rule).values()
    mover = leader if led is None else 1 - leader
    return max(values) if mover == Seat.ELDER else min(values)
