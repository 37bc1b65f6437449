"""The proposal game solved (the first decisions and the first discards), and its tables
read in the treatise's terms.

* :mod:`.situation` — one hand at one score, in plain Python: the score parsed, the hand,
  each role's two actions (a first answer reads a hand without loading the kernels).
* :mod:`.proposal_game` — best responses of the first decisions and the first discard at
  every score, their gain over the treatise on fresh deals, iterated best responses; its
  files are written by :mod:`ecarte_sim.analysis.reports.strategy` (the ``strategy``
  command).
* :mod:`.resolve` — a first decision resolved hand by hand: each state's sampled gain
  pooled with the states alike (a model on the hand's features, empirical Bayes).
* :mod:`.equilibrium` — five up solved: both players' first decisions and first discards
  at every score by iterated best responses, ``V`` from the strategies themselves, the
  exploitability of each pair; its files are :mod:`ecarte_sim.analysis.reports.equilibrium`.
* :mod:`.solved` — the shipped strategy (``strategy_data/``): its data format and loader.
* :mod:`.readable` — a computed table said in the treatise's terms (the computed jeux
  de règle): its short list, the share it reproduces, the hands where it parts from
  the treatise.
* :mod:`.chart` — the strategy card: a table as a grid in the treatise's terms; drawn by
  :mod:`ecarte_sim.analysis.reports.chart`.
"""
