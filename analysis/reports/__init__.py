"""Report files: :mod:`.provenance` (what made a result, on every output and file; and the
scaffold every writer shares: ``ReportFiles``, the folder, each file written atomically in
order, ``provenance.json``; ``pyplot``, matplotlib on Agg),
:mod:`.claims` (the claims report: Markdown, CSV/Parquet, PNG plots), :mod:`.scores` (the
score report of ``scores``), :mod:`.piquet` (the files of ``piquet report``),
:mod:`.strategy` (the files of ``strategy``: best responses, iterated best responses,
tables.npz, and the rule-by-rule rows read back for the claims report),
:mod:`.equilibrium` (the report of ``equilibrium`` and the shipped strategy's files),
:mod:`.audit` (the per-hand audit of ``audit``) and :mod:`.chart` (the strategy card as
PNG, SVG or PDF). The computation lives in :mod:`ecarte_sim.analysis.ecarte`; these modules only
write what it returns."""
