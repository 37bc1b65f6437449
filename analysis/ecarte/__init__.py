"""Écarté's questions, answered from the engine's counts.

* :mod:`.api` — the public Python face: deal, solve, classify, play, game, simulate,
  hand, scores, claims (the CLI calls these).
* :mod:`.claims` — the treatise's claims, their readings and verdict rules (fixed
  before any run), and the precision-driven run of every experiment.
* :mod:`.paired` — statistics of paired tables (the same deals under two choices).
* :mod:`.scores` — the probability of winning five up from every score (an exact
  recursion over a deal's outcomes); its report is :mod:`ecarte_sim.analysis.reports.scores`.
* :mod:`.strategy` — best responses of the first decisions and the first discard at
  every score, their gain over the treatise on fresh deals, iterated best responses (the
  first decisions and discards); its files are written by
  :mod:`ecarte_sim.analysis.reports.strategy`.
* :mod:`.equilibrium` — five up solved: both players' first decisions and first discards
  at every score by iterated best responses, ``V`` from the strategies themselves, the
  exploitability of each pair; its files are :mod:`ecarte_sim.analysis.reports.equilibrium`.
* :mod:`.resolve` — a first decision resolved hand by hand: each state's sampled gain
  pooled with the states alike (a model on the hand's features, empirical Bayes), the
  equilibrium's default reading of its samples.
* :mod:`.audit` — a strategy checked hand by hand: regret of its action (and of the
  treatise's) on held-out dealt hands, valued as ``advise`` values them; its files are
  :mod:`ecarte_sim.analysis.reports.audit`.
* :mod:`.solved` — the shipped strategy (``strategy_data/``): its data format and loader.
* :mod:`.advice` — one hand's advice from the shipped strategy (the action at once, the
  values on demand, the discard) or against the treatise: its two actions valued on deals
  around it.
* :mod:`.chart` — the strategy card: a table as a grid in the treatise's terms; drawn by
  :mod:`ecarte_sim.analysis.reports.chart`.
* :mod:`.api_strategy` — the public API's advise, infer and strategy.
* :mod:`.inference` — what the adversary's first decisions say about his hand: the exact
  posterior over every hand he may hold, under an opponent model.
* :mod:`.inference_value` — what reading the proposals is worth: the inferring player
  against plain PIMC and dd in each seat, paired.
* :mod:`.inference_claims` — the treatise's claims about inference, with verdict rules.
* :mod:`.readable` — a computed table said in the treatise's terms (the computed jeux
  de règle): its short list, the share it reproduces, the hands where it parts from
  the treatise.
* :mod:`.card_advice` — one card of the play: a position as a player describes it, checked
  against the laws; each legal card's value from his knowledge; the computer's card (the
  practice table, ``cards``, the best response's and ``stronger``'s engines read it).
* :mod:`.exploit` — the exact best response in the play to a play model keyed by its
  own information, for one hand of the responder: its gain over the model, held out
  over seeds, and the lines that exploit it (issue 35).
* :mod:`.reasons` — the reason behind every decision of a deal, in the treatise's words,
  worked out with the same engine functions that made the decision.
* :mod:`.narrative` — a deal or a game told in words (with those reasons), and as
  structured data.
"""
