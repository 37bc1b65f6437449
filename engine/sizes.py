"""The default sizes of a batch run (:mod:`ecarte_sim.engine.batch`): deals per parallel
row (``DEFAULT_CHUNK``) and per task (``DEFAULT_BLOCK``).

Plain ints in a module that imports nothing, so that the settings, and through them the
command line's help, can state a run's default sizes without loading numpy or numba.
"""

from __future__ import annotations

DEFAULT_CHUNK = 4096
DEFAULT_BLOCK = 1 << 21
