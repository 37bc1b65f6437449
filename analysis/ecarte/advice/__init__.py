"""Advice on one hand's first decision, and what the adversary's say.

* :mod:`.first_decision` — one hand's advice from the shipped strategy (the action at
  once, the values on demand, the discard) or against the treatise: its two actions
  valued on deals around it.
* :mod:`.inference` — what the adversary's first decisions say about his hand: the exact
  posterior over every hand he may hold, under an opponent model.
* :mod:`.audit` — the shipped strategy checked hand by hand: regret of its action (and of
  the treatise's) on held-out dealt hands, valued as ``advise`` values them; its files are
  :mod:`ecarte_sim.analysis.reports.audit`.
"""
