"""Report files: :mod:`.provenance` (what made a result, on every output and file),
:mod:`.claims` (the claims report: Markdown, CSV/Parquet, PNG plots), :mod:`.scores` (the
score report of ``scores``), :mod:`.piquet` (the files of ``piquet report``) and :mod:`.strategy` (the files of ``strategy``: best responses,
iterated best responses, tables.npz, and the rule-by-rule rows read back for the claims
report). The computation lives in :mod:`ecarte_sim.analysis.ecarte`; these modules only
write what it returns."""
