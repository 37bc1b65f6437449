"""Piquet analyses: what the kernels' counts say, with an n and a 95% interval for each figure.

* :mod:`.api` — the entry points, one call per question (``piquet_deal``,
  ``piquet_simulate``, ``piquet_partie``, ``piquet_report``, ``piquet_discard_search``,
  ``piquet_deal_order``): a
  :class:`~ecarte_sim.engine.piquet.settings.PiquetSettings` in, the plain dict that
  ``ecarte-sim piquet ...`` prints out.
* :mod:`.summaries` — a row of deal or partie counts
  (:mod:`ecarte_sim.engine.piquet.records`) into rates with Wilson intervals and means
  with normal intervals.
* :mod:`.narrative` — a deal told in prose, what ``ecarte-sim piquet deal`` prints
  (the sinks and what each call showed included).
* :mod:`.search` — discards chosen by search against the heuristic's keep value, and
  the exchange's two questions under the search, paired on the same deals.
* :mod:`.report` — every analysis of the report measured (``measure``: pairings,
  the exchange and the rule variants paired on the same deals, sinking and reading the
  calls, discards by search, parties, the peer engine's figures); its Markdown, CSV
  and PNG files are written by :mod:`ecarte_sim.analysis.reports.piquet`.

The kernels and the rules are in :mod:`ecarte_sim.engine.piquet`; the command line
(:mod:`ecarte_sim.apps.cli.piquet`) only parses options and prints.
"""
