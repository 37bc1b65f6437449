"""The card play models (imports :mod:`..laws`, :mod:`..search`, :mod:`..decisions`).

* :mod:`.players` — the play models: dd, heuristic, PIMC (and scripted).
* :mod:`.inferred_worlds` — pimc-inference: PIMC whose worlds are drawn from the
  posterior given the opponent's proposals, answers and discards.
* :mod:`.reading` — pimc-king: pimc-inference's worlds also weighed by the opponent's
  announcement of the king of trumps (Laws 23-24) under his concealing policy, every
  hand he may hold when they are few; one card from a position (:func:`.reading.read_decide`).
* :mod:`.single` — one card of the play from a position, as the whole deal's
  pimc-inference player chooses it, and each legal card's worth in its worlds (the
  practice table's computer and coach).
* :mod:`.keyed` — a play model as a strategy: its random words keyed by the chooser's
  own information and a seed (the opponent of a best response).
* :mod:`.alphamu` — αμ search over pimc-inference's worlds; :mod:`.alphamu_reference`
  — its slow, plain-Python twin (the tests' oracle).
"""
