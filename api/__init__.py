"""The front door: every question the command line and the web page ask, one function
each, with typed arguments and typed results (PLACEHOLDER: filled in by the next step).

* :mod:`.ecarte` — deal, solve, play, game, simulate, hand, scores, claims.
* :mod:`.classify` — classify: a jeu de règle by Hoyle's list (numpy alone) or by the
  definition.
* :mod:`.strategy` — advise, infer, strategy.
* :mod:`.piquet` — Piquet's questions.
"""
