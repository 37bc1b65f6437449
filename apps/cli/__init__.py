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
* :mod:`.piquet_group` — the ``piquet`` group; :mod:`.piquet` its commands deal,
  simulate, partie, report; :mod:`.piquet_search` ``piquet discard-search`` (discards
  chosen by search).
* :mod:`.every_decision` — ``every-decision``: one step of the solve of every decision of
  a deal (the later rounds, the first round resolved), its report and shipped data.
* :mod:`.chart` — ``chart``: the strategy card (and ``--compare``: where two solved
  strategies part).
* :mod:`.cards` — ``cards``: which card to lead or play from one's own knowledge;
  ``card-regret``: each card's value with the player's own play after it, position by
  position (the regret of his card, the printed values against it).
* :mod:`.exploit` — ``exploit``: one hand's best response in the play against a play
  model, its gain and the line that exploits it.
* :mod:`.exploitability` — ``exploitability``: the card play's exploitability of each
  play model over a sample of hands.
* :mod:`.practice` — ``review``: a game record checked against the laws and annotated.
* :mod:`.serve` — ``serve``: the practice table in the browser.
* :mod:`.versus` — ``versus``: the computed strategy against the treatise, on the same
  deals and over whole games.
* :mod:`.stronger` — ``stronger``: the ``alphamu`` card player (or others, ``--player``)
  against ``pimc-inference``, paired on the same deals.
* :mod:`.bench` — ``bench``, the throughput of every kernel.

The command modules import :mod:`.common` and the library, never each other;
this module assembles them into the ``ecarte-sim`` group by name (:data:`COMMANDS`): a
command's module is imported only when the command runs or a ``--help`` lists it. The
modules ``ecarte-sim --help`` lists import no numpy, numba or pandas at their top (those
come with the library a command calls), so that it starts at once; :mod:`.piquet` and
:mod:`.piquet_search`, whose options need the engine's limits, are imported by ``piquet``.
"""

from __future__ import annotations

import click

from ecarte_sim.apps.cli.common import CONTEXT, EcarteGroup, run_group

#: Every command of ``ecarte-sim`` and the module of this package that defines it (in its
#: ``COMMANDS``); the ``piquet`` group names its own (:mod:`.piquet_group`).
COMMANDS = {
    "solve": "ecarte", "classify": "ecarte", "deal": "ecarte", "play": "ecarte",
    "game": "ecarte", "simulate": "ecarte", "scores": "ecarte", "hand": "ecarte",
    "claims": "ecarte",
    "strategy": "strategy", "advise": "strategy", "infer": "strategy",
    "inference-value": "strategy", "inference-claims": "strategy",
    "equilibrium": "equilibrium", "audit": "equilibrium", "every-decision": "every_decision",
    "chart": "chart", "review": "practice", "cards": "cards", "card-regret": "cards",
    "exploit": "exploit",
    "exploitability": "exploitability", "piquet": "piquet_group", "bench": "bench",
    "serve": "serve", "stronger": "stronger", "versus": "versus",
}


@click.group(cls=EcarteGroup, lazy=COMMANDS, context_settings=CONTEXT, no_args_is_help=False)
@click.version_option(package_name="ecarte-sim")
def main():
    """Simulate, solve and test Écarté and Piquet: the Club Code laws of Écarté and Hoyle's
    advice (Hoyle's Games Modernized), the Laws of Piquet (Portland and Turf Clubs).

    Cards are written rank then suit: KS, 10H or TH, qh, Q♥, 7♣. A hand is five
    cards separated by spaces or commas (quote it). Rank order in Écarté:
    K Q J A 10 9 8 7.
    """


def run(argv: list[str] | None = None) -> None:
    """Console entry point (``ecarte-sim``): every error is one line on stderr."""
    run_group(main, argv)
