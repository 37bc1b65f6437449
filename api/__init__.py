"""The front door: the questions the command line and the web page ask, one function each,
with typed arguments. ``advise`` (every decision before the play), the chart and ``cards``
are dispatched here alone (:mod:`.strategy`: :class:`~.strategy.Advice` and
:class:`~.strategy.Chart` are typed results with ``to_dict()``); the other commands still
reach past the door into the library in places, listed module by module in
``tests/apps/test_front_door.py``.

* :mod:`.ecarte` — deal, solve, play, game, simulate, hand, scores, claims.
* :mod:`.classify` — classify: a jeu de règle by Hoyle's list (numpy alone) or by the
  definition.
* :mod:`.strategy` — advise, infer, strategy.
* :mod:`.piquet` — Piquet's questions.
"""
