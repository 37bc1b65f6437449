"""``python -m ecarte_sim``: the same as the ``ecarte-sim`` command."""

from ecarte_sim.apps.cli import run

run()
