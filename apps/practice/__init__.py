"""The practice table: a game of five up between a person and the computer, by the laws,
with the coach (served in the browser by :mod:`ecarte_sim.apps.web`).

* :mod:`.session` — :class:`~.session.Table`, one game by the laws: ``new``, ``view``,
  ``act``, ``record``, ``from_record`` (the contract the web app uses).
* :mod:`.computer` — the computer's decisions: the shipped strategy's tables or the
  treatise's rules, its cards by the inferring player or αμ
  (:mod:`ecarte_sim.analysis.ecarte.play.card_advice`) or the treatise's play.

The record it writes, the laws it keeps and the coach's grades are
:mod:`ecarte_sim.analysis.practice`'s.
"""
