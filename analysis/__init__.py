"""The questions and their reports (the second tier, between the engine and the front
door :mod:`ecarte_sim.api`): experiments, statistics, report files.

* :mod:`.stats` — intervals (Wilson, weighted means, paired differences) and the
  precision schedule of a precision-driven run.
* :mod:`.ecarte` — Écarté's questions: the claims of the treatise and their verdict rules,
  paired comparisons, the score table, the strategy solved, advised and audited, the card
  play, the narrative of a deal.
* :mod:`.piquet` — Piquet's, beside it: summaries and the report's measures.
* :mod:`.practice` — a game of five up as a record: the record format, the law checker,
  the coach, a deal replayed, the seeds.
* :mod:`.reports` — the files a report writes (Markdown, CSV/Parquet, PNG), each with
  its provenance.

What flows: the engine's count arrays come in; figures with their n and 95% intervals
(dicts and DataFrames) go to the front door (:mod:`ecarte_sim.api`), the reports and the
notebooks; the applications (:mod:`ecarte_sim.apps`: the command line, the web app, the
practice table, the bench) sit above.
"""
