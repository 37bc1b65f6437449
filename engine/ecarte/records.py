"""What a whole deal leaves behind: the deal record ``rec`` and the count columns.

Both are :class:`~ecarte_sim.engine.layout.Layout` s, declared once here; the
kernels index them with ``REC.at.FIELD`` / ``COUNTS.at.FIELD`` and Python reads
them by name (``REC.read(rec)``, :meth:`WholeDeal.from_record`). The codes a
record holds — which Law 49 penalty applies, how the proposals ended, who marked
a king and what the point gave — are enums or name tuples defined here too, and so is
the record as a player knows it before the play (:func:`known_record`).
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

from ecarte_sim.engine.layout import Layout

if TYPE_CHECKING:       # numpy is imported where a record is made: settings reads this
    import numpy as np  # module at the command line's start-up

#: Exchanges a record keeps (a deal has at most 21: one card drawn each).
MAX_EXCHANGES = 21


class Law49(IntEnum):
    """Which first decision doubles the point (Law 49): none, the elder played without
    proposing, or the dealer refused the first proposal."""
    NONE = 0
    PLAYED_WITHOUT_PROPOSING = 1
    REFUSED_FIRST = 2


class ProposalsEnd(IntEnum):
    """How the proposals ended (a record holds -1 when the game ended at the turn-up)."""
    ELDER_PLAYED = 0
    DEALER_REFUSED = 1
    STOCK_EXHAUSTED = 2
    PROPOSAL_LIMIT = 3


#: One deal, as :func:`ecarte_sim.engine.ecarte.deals.whole.play_dealt` writes it.
REC = Layout("Rec", [
    ("elder0", 1), ("dealer0", 1), ("turn_up", 1),   # the hands as dealt, the turn-up
    ("king_turned", 1),     # the dealer turned up the king (Laws 22, 47)
    ("ended", 1),           # a king's mark ended the game before the play
    ("first", 1),           # Law49
    ("exchanges", 1),       # exchanges made
    ("how_ended", 1),       # ProposalsEnd, or -1
    ("stock_used", 1),      # stock cards drawn
    ("elder_hand", 1), ("dealer_hand", 1),           # the hands at the play
    ("king_elder", 1), ("king_dealer", 1),           # king of trumps marked in hand (Law 23)
    ("elder_tricks", 1),    # -1 when the fast double-dummy path gave only the outcome
    ("outcome", 1),         # DEALER_VOLE .. ELDER_VOLE (solver), -1 if no play
    ("points_elder", 1), ("points_dealer", 1),       # of the point or vole (Laws 48-49)
    ("marks_elder", 1), ("marks_dealer", 1),         # kings and points together
    ("play", 10),           # the ten cards in the order played (-1: not played one by one)
    ("pimc_decisions", 1), ("pimc_solves", 1),       # PIMC's work in this deal
    ("exchange_cards", 4 * MAX_EXCHANGES),           # per exchange: elder out, in, dealer out, in
    ("possible", 10),       # per card played: what the mover thought the opponent might hold
                            # (-1: dd or scripted)
    ("infer_worlds", 1), ("infer_tries", 1), ("infer_fallbacks", 1),  # pimc-inference's work
])

def known_record(turn_up: int, how_ended: int, first: int, thrown=()) -> np.ndarray:
    """A deal's ``REC`` as either player knows it before the play, for the kernels of one
    player's card (the inferring and keyed players, :mod:`~ecarte_sim.engine.ecarte.play.single`,
    :mod:`~ecarte_sim.engine.ecarte.play.keyed`): the turn-up, how the proposals ended
    (:class:`ProposalsEnd`), Law 49's case (:class:`Law49`) and, per exchange, how many
    cards each threw (``thrown``: (the elder's, the dealer's) per exchange; each drew as
    many, Laws 29–34). Those kernels read only the number of an exchange's cards
    (:func:`~ecarte_sim.engine.ecarte.play.keyed.info_key`,
    :mod:`~ecarte_sim.engine.ecarte.play.inferred_worlds`), so each of the four is written as
    that many low bits: one record serves both players and every hand either may hold."""
    import numpy as np
    rec = np.zeros(REC.size, dtype=np.int64)
    at = REC.at
    rec[at.TURN_UP] = turn_up
    rec[at.HOW_ENDED] = how_ended
    rec[at.FIRST] = first
    rec[at.EXCHANGES] = len(thrown)
    for r, (elder, dealer) in enumerate(thrown):
        base = at.EXCHANGE_CARDS + 4 * r
        rec[base] = rec[base + 1] = (1 << elder) - 1
        rec[base + 2] = rec[base + 3] = (1 << dealer) - 1
    return rec


#: The play's int64 scratch ``payoff``: the elder's points minus the dealer's by the elder's
#: tricks (Laws 48-49, with this deal's Law 49 penalty), then PIMC's work counters.
PAYOFF = Layout("Payoff", [("points", 6), ("pimc_decisions", 1), ("pimc_solves", 1),
                           ("infer_worlds", 1), ("infer_tries", 1), ("infer_fallbacks", 1)])

#: Who marked a king in a deal, and what the point gave: the parts of a deal's code
#: (``5 * king + points``, :func:`ecarte_sim.engine.ecarte.deals.counts.deal_code`).
KINGS = ("none", "turned-up (dealer)", "elder in hand", "dealer in hand")
POINTS = ("elder 1", "elder 2", "dealer 1", "dealer 2", "none (game over first)")

#: Summed counts of whole deals (:func:`ecarte_sim.engine.ecarte.deals.counts.whole_counts`).
COUNTS = Layout("Counts", [
    ("marks", 16),          # 4 * elder marks + dealer marks (each 0..3)
    ("outcome", 4),         # DEALER_VOLE, DEALER_POINT, ELDER_POINT, ELDER_VOLE
    ("first", 3),           # Law49
    ("exchanges", 1),       # accepted exchanges
    ("ended", 1),           # deals that ended the game before play
    ("king_turned", 1), ("king_elder", 1), ("king_dealer", 1),
    ("stock_out", 1),       # deals whose proposals ended with the stock exhausted
    ("pimc_decisions", 1), ("pimc_solves", 1),
    ("deal", len(KINGS) * len(POINTS)),              # deal codes: the marks in law order
    # pimc-inference: worlds drawn from the posterior, proposals made, worlds that fell
    # back to uniform (:mod:`ecarte_sim.engine.ecarte.play.inferred_worlds`)
    ("infer_worlds", 1), ("infer_tries", 1), ("infer_fallbacks", 1),
])
