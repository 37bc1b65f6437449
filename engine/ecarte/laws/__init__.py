"""The laws the kernels share, from the cards up: the deal, the trick, the walk through
a position.

* :mod:`.notation` — a deal's text (hands, trump, turn-up) parsed without numba.
* :mod:`.score` — the score before a deal (five up, Law 46): parsed, written, its row.
* :mod:`.history` — what happened before a decision (what was said, the exchanges, the
  cards played): parsed, checked and written, without numba.
* :mod:`.deal` — the deal (Laws 8, 10): hands, turn-up, stock in order.
* :mod:`.tricks` — legal replies and the trick's winner (Law 43).
* :mod:`.position` — the walk through a position: the cards played, replayed one at a
  time (Laws 40, 43), for the kernels and the Python layer; the words of a whole deal.
"""
