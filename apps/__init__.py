"""The applications, over the front door (:mod:`ecarte_sim.api`), each in its folder; a
package imports only those listed before it.

* :mod:`.practice` — the practice table: a game of five up against the computer, by the
  laws, with the coach.
* :mod:`.web` — the practice table in the browser (``ecarte-sim serve``), the strategy
  card, advice and card values on the page.
* :mod:`.bench` — ``ecarte-sim bench``: the kernels' throughput, the start-up, the web app
  under load.
* :mod:`.cli` — the command line ``ecarte-sim``: parses, calls the front door, formats.
"""
