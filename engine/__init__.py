"""The engine: bit-packed numba kernels for the 32-card games, on a game-agnostic layer.

Game-agnostic (no game imports these the other way round):

* :mod:`.cards` — the 32-card bit layout (a hand is a 32-bit mask), notation, ``CardError``.
* :mod:`.rng` — counter-based SplitMix64: every random word is a function of (seed, deal
  index, word number); unbiased bounded draws.
* :mod:`.layout` — named record layouts: an int64 array declared once as named fields
  with widths; kernels index it with ``IntEnum`` offsets, Python reads it by name.
* :mod:`.batch` — a run over deal indices cut into tasks and rows (``row_range``),
  int64 counts reduced after the parallel loops; the execution context (backend, run
  directory, task size).
* :mod:`.runs` — run directories: checkpoint each task's counts, resume a run.
* :mod:`.cluster` — the Dask backend (``--scheduler``, ``--workers``).

One sub-package per game, each on the layer above only (they never import each
other), with its fast kernels and a slow, readable pure-Python reference of its rules
side by side: :mod:`.ecarte` (the Club Code laws of Écarté) and :mod:`.piquet` (the
Laws of Piquet of the Portland and Turf Clubs).

What flows: settings objects (``EcarteSettings``, ``PiquetSettings``) become plain int64
``cfg`` arrays; a kernel plays deal ``i`` of a seed into a record; a driver sums records
into count columns over a range of deals; the analysis layer turns counts into figures.
"""
