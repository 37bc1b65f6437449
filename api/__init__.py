"""The front door: the questions the command line and the web page ask, one function each,
with typed arguments (the library's frozen settings dataclasses and enums, re-exported
where a question takes them). Each question is dispatched here, once: the command line
parses, calls and formats; the web app validates, calls and serialises
(``tests/apps/test_front_door.py`` checks that they import nothing else of the library
but the registries, the value types, the report writers and the long runs' plumbing).

* :mod:`.ecarte` — deal, solve, play, game, simulate, hand, scores, claims (and the claims
  run's settings and plan); typed results with ``to_dict()``: :class:`~.ecarte.DealtCards`
  (:func:`~.ecarte.dealt`), :class:`~.ecarte.HandValue` (:func:`~.ecarte.hand_value`),
  :class:`~.ecarte.Simulation` (:func:`~.ecarte.simulation`),
  :class:`~.ecarte.CheckedClaims` (:func:`~.ecarte.claims_checked`),
  :class:`~.ecarte.Solution` (:func:`~.ecarte.solution`), :class:`~.ecarte.ScoreValues`
  (:func:`~.ecarte.score_values`), beside :class:`~.ecarte.PlayedDeal` and
  :class:`~.ecarte.PlayedGame`.
* :mod:`.classify` — classify: a jeu de règle by Hoyle's list (numpy alone) or by the
  definition, typed as a :class:`~.classify.Classification`
  (:func:`~.classify.classification`); a hand and its trump read
  (:func:`~.classify.hand_and_trump`).
* :mod:`.strategy` — advise, the chart and cards, infer, strategy (its checked
  :class:`~.strategy.StrategyPlan`), versus; typed results with ``to_dict()``:
  :class:`~.strategy.Advice`, :class:`~.strategy.Chart`, :class:`~.strategy.CardChoice`,
  :class:`~.strategy.Inferred` (:func:`~.strategy.inferred`),
  :class:`~.strategy.StrategyRun`, :class:`~.strategy.Versus`.
* :mod:`.inference` — what reading the proposals is worth, and the treatise's claims about
  inference.
* :mod:`.solving` — five up solved: equilibrium, every decision, the audit of the shipped
  strategy; typed results with ``to_dict()``: :class:`~.solving.Equilibrium`,
  :class:`~.solving.EveryDecision`, :class:`~.solving.Audit`.
* :mod:`.play` — the card play; typed results with ``to_dict()``: exploit
  (:class:`~.play.ExploitedHand`), exploitability (:class:`~.play.Exploitability`),
  stronger (:class:`~.play.StrongerMatch`, :class:`~.play.StrongerPlayers`), card regret
  (:class:`~.play.CardRegret`).
* :mod:`.practice` — a game record reviewed (:class:`~.practice.Review` with ``to_dict()``).
* :mod:`.piquet` — Piquet's questions; typed results with ``to_dict()``:
  :class:`~.piquet.PiquetPlayedDeal` (:func:`~.piquet.piquet_played`),
  :class:`~.piquet.PiquetSimulation` (:func:`~.piquet.piquet_simulation`),
  :class:`~.piquet.PiquetParties` (:func:`~.piquet.piquet_parties`),
  :class:`~.piquet.PiquetReport` (:func:`~.piquet.piquet_measured`),
  :class:`~.piquet.PiquetDiscardSearch` (:func:`~.piquet.piquet_discard_searched`).
* :mod:`.defaults` — the defaults the options show, light to import (no numpy).
"""
