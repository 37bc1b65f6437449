"""A deal in words.

* :mod:`.reasons` — the reason behind every decision of a deal, in the treatise's words,
  worked out with the same engine functions that made the decision.
* :mod:`.narrative` — a deal or a game told in words (with those reasons), and as
  structured data.
"""
