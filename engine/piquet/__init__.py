"""Piquet: the Laws of Piquet (Portland and Turf Clubs) as numba kernels, plus a pure-Python reference.

``rules.md`` says how every law is implemented and how each ambiguous one is read.
The modules, from the ids up to the batch runs:

* :mod:`.settings` — every id, default and limit, once: the enums (``Player``,
  ``LeadScoring``, ``PiqueTiming``, ``Partie``, ``SinkPolicy``, ``Reading``, ``Seat``,
  ``Rank``) and
  ``PiquetSettings``, which validates a run's settings and lays them out as the
  kernels' int64 ``cfg`` array (``CFG``).
* :mod:`.records` — every array a kernel writes, as named layouts: a deal's record
  ``REC`` (each seat's ``SCORE``), the declarations, the per-deal scratch, and the
  count rows ``DEAL_COUNTS``, ``PARTIE_COUNTS``, ``PAIRED_COUNTS``.
* :mod:`.deal` — the deal (Law 9): deal ``index`` of ``seed`` from its own random
  sub-stream, whose later words also draw the players' random choices.
* :mod:`.declare` — carte blanche and the declarations compared (Laws 18, 61-64),
  on what each player calls (sinking, Law 47), repique (Law 68).
* :mod:`.players` — the random and heuristic players' discard and card.
* :mod:`.solver` — exact double-dummy search of the play (Laws 57-59, 65-66), used by
  the ``dd`` and ``pimc`` players.
* :mod:`.whole` — one whole deal as one kernel: ``cfg`` and the dealt cards in, a
  ``REC`` out (exchange, declarations, play, the cards, pique and repique).
* :mod:`.simulate` — ranges of deals and parties (Laws 71-73) in parallel, each
  summed into an int64 count row (bit-identical for any threads, chunks or tasks).
* :mod:`.game` — one deal from given cards and discards; ``DealRecord`` reads a
  ``REC`` by name.
* :mod:`.partie` — who deals each deal of a partie, from the cut (Laws 4, 16, 71).
* :mod:`.discard_search` — a discard chosen by playing candidate discards out on sampled
  talons and opponent hands (and :mod:`.discard_search_reference`, its plain version).
* :mod:`.reference`, :mod:`.reference_play` — slow, plain re-implementations of a
  deal and the partie, and of the play's minimax, that the kernels are tested against.

What is measured from the counts (rates, intervals, the report) is in
:mod:`ecarte_sim.analysis.piquet`.
"""
