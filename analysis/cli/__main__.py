"""``python -m ecarte_sim.analysis.cli``: the same as the ``ecarte-sim`` command."""

from ecarte_sim.analysis.cli import run

run()
