"""What a Piquet deal leaves behind, and the scratch it is played in: every record, declared once.

Each is a :class:`~ecarte_sim.engine.layout.Layout`: the kernels index it with its
offsets (``R = REC.at``; ``rec[R.YOUNGER + S.TOTAL]``), Python reads it by name
(``REC.read(rec)``, :meth:`ecarte_sim.engine.piquet.game.DealRecord.from_record`).

* ``SCORE`` — one player's score in a deal; ``REC`` holds one for each seat.
* ``DECLARATIONS`` — what :func:`~ecarte_sim.engine.piquet.declare.declare` writes.
* ``REC`` — one deal as :func:`~ecarte_sim.engine.piquet.whole.play_dealt` writes it.
* ``SCRATCH``, ``STATE`` — the int64 and uint32 scratch of ``play_dealt``.
* ``DEAL_COUNTS``, ``PARTIE_COUNTS``, ``PAIRED_COUNTS`` — the summed counts of
  :mod:`~ecarte_sim.engine.piquet.simulate`.
"""

from __future__ import annotations

from enum import IntEnum

from ecarte_sim.engine.cards import N_CARDS
from ecarte_sim.engine.layout import Layout
from ecarte_sim.engine.piquet.deal import HAND_SIZE, STOCK_SIZE
from ecarte_sim.engine.piquet.settings import Seat

N_SEATS = len(Seat)

#: Categories I-IV of Law 67: what a player scores from his hand (Laws 18, 61-64).
CATEGORIES = ("carte_blanche", "point", "sequences", "sets")
N_CATEGORIES = len(CATEGORIES)

#: One player's score in a deal: the categories I-IV, the play (Law 65), the cards
#: (Law 66), pique (Law 69), repique (Law 68) — the points, every field before
#: ``tricks`` —, then the tricks he won and his total of points.
SCORE = Layout("Score", [*((c, 1) for c in CATEGORIES), ("play", 1), ("cards", 1),
                         ("pique", 1), ("repique", 1), ("tricks", 1), ("total", 1)])

#: Categories I-IV of each player after comparison (:func:`declare`): a seat's block is
#: the first ``N_CATEGORIES`` fields of ``SCORE``.
DECLARATIONS = Layout("Declarations", [("elder", N_CATEGORIES), ("younger", N_CATEGORIES)])

#: One deal (:func:`play_dealt`): each player's score, the hands as dealt (masks), the
#: discards, the hands after the exchange, the stock (top first) and the 24 cards in
#: the order played.
REC = Layout("Rec", [
    ("elder", SCORE.size), ("younger", SCORE.size),
    ("elder_dealt", 1), ("younger_dealt", 1),
    ("elder_discard", 1), ("younger_discard", 1),
    ("elder_hand", 1), ("younger_hand", 1),
    ("stock", STOCK_SIZE),
    ("plays", 2 * HAND_SIZE),
])

#: What one player's calls are, as :func:`~ecarte_sim.engine.piquet.declare.called_keys`
#: gives them: point key, sequence key and score, set key and score.
N_CALL_KEYS = 5

#: The int64 scratch ``totals`` of :func:`play_dealt`: a PIMC player's summed values per
#: card, the declarations, per seat the play points, tricks and player, and per seat the
#: keys of his calls (``N_CALL_KEYS`` each, elder first).
SCRATCH = Layout("Scratch", [("pimc_sums", N_CARDS), ("declarations", DECLARATIONS.size),
                             ("play", N_SEATS), ("tricks", N_SEATS), ("kinds", N_SEATS),
                             ("calls", N_SEATS * N_CALL_KEYS)])

#: The rows of the uint32 scratch ``state`` (shape ``(STATE.size, N_SEATS)``) of
#: :func:`play_dealt`, one cell per seat: the cards each still holds, his 12 cards
#: after the exchange, those he has played, the suits (masks) he has shown void of,
#: the cards he showed in declaring, the cards he has not seen; then ``called``, three
#: rows: what he calls his point, sequences and sets from (his hand less what he sinks).
STATE = Layout("State", [("hands", 1), ("full", 1), ("played", 1), ("voids", 1),
                         ("shown", 1), ("unseen", 1), ("called", 3)])

#: Cells of a histogram of deal totals (the last holds ``HIST - 1`` and more).
HIST = 256

#: Summed counts of deals (:func:`~ecarte_sim.engine.piquet.simulate.deal_counts`): who
#: won each deal (the higher total), the totals and their squares, the bonuses by seat,
#: each seat's ``SCORE`` summed, and the histograms of each seat's deal totals.
DEAL_COUNTS = Layout("DealCounts", [
    ("deals", 1), ("elder_wins", 1), ("younger_wins", 1), ("ties", 1),
    ("elder_total", 1), ("younger_total", 1), ("elder_total_sq", 1), ("younger_total_sq", 1),
    ("diff_sq", 1),
    ("carte_blanche_elder", 1), ("carte_blanche_younger", 1), ("pique", 1),
    ("repique_elder", 1), ("repique_younger", 1), ("capot_elder", 1), ("capot_younger", 1),
    ("elder_score", SCORE.size), ("younger_score", SCORE.size),
    ("elder_hist", HIST), ("younger_hist", HIST),
])

#: Summed counts of parties (:func:`~ecarte_sim.engine.piquet.simulate.partie_counts`);
#: A is the first dealer, B the first elder.
PARTIE_COUNTS = Layout("PartieCounts", [
    ("parties", 1), ("a_wins", 1), ("b_wins", 1), ("drawn", 1), ("rubicons", 1),
    ("tie_breaks", 1), ("a_points", 1), ("a_points_sq", 1), ("a_score", 1), ("b_score", 1),
])


class Outcome(IntEnum):
    """A deal's outcome (the higher total wins; equal totals tie)."""
    ELDER_WINS = 0
    TIE = 1
    YOUNGER_WINS = 2


N_OUTCOMES = len(Outcome)

#: Summed counts of the same deals under configurations a and b
#: (:func:`~ecarte_sim.engine.piquet.simulate.paired_counts`): the elder's margin
#: (elder − younger) under each and their difference, and the table of outcomes
#: (cell ``N_OUTCOMES * outcome under a + outcome under b``).
PAIRED_COUNTS = Layout("PairedCounts", [
    ("deals", 1), ("sum_a", 1), ("sum_b", 1), ("sum_diff", 1), ("sum_diff_sq", 1),
    ("outcomes", N_OUTCOMES * N_OUTCOMES),
])
