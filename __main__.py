"""``python -m ecarte_sim``: the same as the ``ecarte-sim`` command."""

from ecarte_sim.analysis.cli import run

run()
