"""``ecarte-sim``: the command line — a thin layer over the library.

Each command parses its options into settings (``EcarteSettings``,
``PiquetSettings``), calls a library function that returns plain objects or data
frames, and prints them (text, or one JSON object with ``--json``). No
statistics or science is computed here.

* :mod:`.common` — what every command shares: one-line errors with exit code 2,
  the JSON emitter and provenance, progress, ``--threads``, and the long-run
  options (``--run-dir``, ``--resume``, ``--task-size``, ``--scheduler``,
  ``--workers``).
* :mod:`.ecarte` — the Écarté commands: solve, classify, deal, play, game,
  simulate, scores, hand, claims.
* :mod:`.strategy` — ``strategy`` (best responses, an equilibrium), ``advise`` and
  ``infer``.
* :mod:`.equilibrium` — ``equilibrium``: five up solved at every score, its report and
  the shipped strategy; ``audit``: a strategy checked hand by hand.
* :mod:`.piquet` — the ``piquet`` group: deal, simulate, partie, report;
  :mod:`.piquet_search` adds ``piquet discard-search`` (discards chosen by search).
* :mod:`.exploit` — ``exploit``: one hand's best response in the play against a play
  model, its gain and the line that exploits it.
* :mod:`.stronger` — ``stronger``: the ``alphamu`` card player against
  ``pimc-inference``, paired on the same deals.
* :mod:`.bench` — ``bench``, the throughput of every kernel.

The command modules import :mod:`.common` and the library, never each other;
this module assembles them into the ``ecarte-sim`` group.
"""

from __future__ import annotations

import click

from ecarte_sim.analysis.cli import (bench, cards, chart, ecarte, equilibrium, exploit,
                                     exploitability, piquet, piquet_search, practice, serve,
                                     strategy, stronger)
from ecarte_sim.analysis.cli.common import CONTEXT, EcarteGroup, run_group


@click.group(cls=EcarteGroup, context_settings=CONTEXT, no_args_is_help=False)
@click.version_option(package_name="ecarte-sim")
def main():
    """Simulate, solve and test Écarté and Piquet: the Club Code laws of Écarté and Hoyle's
    advice (Hoyle's Games Modernized), the Laws of Piquet (Portland and Turf Clubs).

    Cards are written rank then suit: KS, 10H or TH, qh, Q♥, 7♣. A hand is five
    cards separated by spaces or commas (quote it). Rank order in Écarté:
    K Q J A 10 9 8 7.
    """


for _command in (*ecarte.COMMANDS, *strategy.COMMANDS, *equilibrium.COMMANDS, *chart.COMMANDS,
                 *practice.COMMANDS, *cards.COMMANDS, *exploit.COMMANDS, *exploitability.COMMANDS,
                 piquet.piquet, bench.bench, *serve.COMMANDS):
    main.add_command(_command)
for _command in stronger.COMMANDS:
    main.add_command(_command)
for _command in piquet_search.COMMANDS:          # ecarte-sim piquet discard-search
    piquet.piquet.add_command(_command)


def run(argv: list[str] | None = None) -> None:
    """Console entry point (``ecarte-sim``): every error is one line on stderr."""
    run_group(main, argv)
