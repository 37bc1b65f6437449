"""``python -m ecarte_sim.apps.cli``: the same as the ``ecarte-sim`` command."""

from ecarte_sim.apps.cli import run

run()
