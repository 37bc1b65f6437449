"""Écarté's questions, answered from the engine's counts, grouped by concern in
sub-packages (each ``__init__`` maps its modules). Their front doors, which the command
line, the web page, the notebooks and ``ecarte_sim``'s public names call, are in
:mod:`ecarte_sim.api` (:mod:`~ecarte_sim.api.ecarte`, :mod:`~ecarte_sim.api.classify`,
:mod:`~ecarte_sim.api.strategy`).

Sub-packages, each importing only those listed before it:

* :mod:`.measures` — the numbers every question reads: the probability of winning five
  up from every score, the statistics of paired tables.
* :mod:`.text` — the reason behind every decision of a deal, and a deal or a game told.
* :mod:`.solving` — the proposal game solved: best responses, the equilibrium of five up,
  states resolved by pooling, the shipped strategy (``solving/strategy_data/``), and a
  table read in the treatise's terms (the short list, the strategy card).
* :mod:`.advice` — one hand's first decision advised from the shipped strategy, what the
  adversary's decisions say about his hand, the strategy audited hand by hand.
* :mod:`.play` — the card play: one card's verdict from a player's knowledge, the exact
  best response to a play model and the exploitability of the play models, αμ against
  pimc-inference, what reading the proposals is worth in play.
* :mod:`.claims` — the treatise's claims, with verdict rules fixed before any run.
"""
