"""Whole deals: the kernel of one deal and its drivers over ranges of deals (imports
every sub-package before it).

* :mod:`.whole` — one whole deal: kings, proposals and exchanges, play, marks
  (Laws 22–27, 38, 43, 47–49), into a ``rec``.
* :mod:`.runner` — single deals from Python (``DealRunner``, ``WholeDeal``).
* :mod:`.counts` — whole deals over a range of indices, summed into ``COUNTS``.
* :mod:`.simulate` — the cards alone (deal, solve) over a range, for benchmarks.
* :mod:`.experiments` — paired runs (each deal under two configurations) and deals
  around a fixed elder hand, sampled or enumerated.
* :mod:`.class_sampling` — paired runs within one class of deals (a rule of the list,
  a dealer's maxim): rejection sampling from the plain deal, at deal indices of its own.
* :mod:`.action_values` — per-state action values: a state's two first-decision
  actions played on the same deals consistent with it, counted as marks codes.
* :mod:`.later` — any decision before the play (a proposal after an exchange, its
  answer, a later discard): worlds drawn from what the decider knows, both actions on
  each; the later decisions of played deals, and their on-policy gains by state.
* :mod:`.game` — a game of five up, deal by deal.
"""
