"""``ecarte-sim bench``: what this machine does, measured.

* :mod:`.throughput` — every kernel's throughput on the same deals, the reference's, the
  compile and start-up of whole processes, the strategy's solve steps, the practice
  table's questions and the web app under load.
* :mod:`.startup` — the start-up of warm whole processes of ``ecarte-sim --help``,
  ``classify`` and ``advise --no-values`` beside its goal.
"""
