"""The analysis layer: experiments, statistics, reports and the ``ecarte-sim`` CLI.

* :mod:`.ecarte` — Écarté's questions: the public API (:mod:`.ecarte.api`), the claims
  of the treatise and their verdict rules, paired comparisons, the score table, the
  narrative of a deal.
* :mod:`.piquet` — Piquet's, beside it: its API, summaries and the report's measures.
* :mod:`.stats` — intervals (Wilson, weighted means, paired differences) and the
  precision schedule of a precision-driven run.
* :mod:`.reports` — the files a report writes (Markdown, CSV/Parquet, PNG), each with
  its provenance.
* :mod:`.cli` — the command line: parses options into settings and calls the above.
* :mod:`.bench` — the throughput of every kernel.

What flows: the engine's count arrays come in; figures with their n and 95% intervals
(dicts and DataFrames) go to the CLI, the reports and the notebooks.
"""
