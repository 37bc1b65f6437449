"""Report files: :mod:`.provenance` (what made a result, on every output and file) and
:mod:`.claims` (the claims report: Markdown, CSV/Parquet, PNG plots)."""
