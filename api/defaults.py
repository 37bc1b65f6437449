"""The defaults and bounds of the questions' arguments that the command line's options
show, light to import (no numpy, no numba): a command module reads them when it is
loaded, for its help, before any question is asked. Each is defined once where it is used
(re-exported here, not copied).

>>> from ecarte_sim.api.defaults import DEFAULT_PRECISION
>>> DEFAULT_PRECISION
0.005
"""

from __future__ import annotations

from ecarte_sim.analysis.stats.precision import DEFAULT_PRECISION
