"""The numbers every question reads from the engine's counts.

* :mod:`.scores` — the probability of winning five up from every score (an exact
  recursion over a deal's outcomes); its report is :mod:`ecarte_sim.analysis.reports.scores`.
* :mod:`.paired` — statistics of paired tables (the same deals under two choices).
"""
