"""The treatise's claims, each with its readings and a verdict rule fixed before any run.

* :mod:`.decisions` — the claims about the first decisions (the jeux de règle, the
  dealer's maxims, the habit of proposing, the example hand) and the scores, and the
  precision-driven run of every experiment; its report is
  :mod:`ecarte_sim.analysis.reports.claims` (the ``claims`` command).
* :mod:`.inference_claims` — the treatise's claims about inference, with verdict rules.
* :mod:`.versus` — the computed strategy against the treatise: paired deals, whole games.
"""
