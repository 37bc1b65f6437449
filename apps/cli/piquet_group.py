"""``ecarte-sim piquet``: the group of the Piquet commands, defined apart from them so that
``ecarte-sim --help`` lists it without importing them: :mod:`.piquet` (deal, simulate,
partie, report) and :mod:`.piquet_search` (discard-search) are imported when one of their
commands runs or ``ecarte-sim piquet --help`` lists them."""

from __future__ import annotations

import click

from ecarte_sim.apps.cli.common import CONTEXT, EcarteGroup

#: The commands of ``ecarte-sim piquet`` and the module of this package that defines each.
PIQUET_COMMANDS = {"deal": "piquet", "simulate": "piquet", "partie": "piquet",
                   "report": "piquet", "discard-search": "piquet_search"}


@click.group(cls=EcarteGroup, lazy=PIQUET_COMMANDS, context_settings=CONTEXT)
def piquet():
    """Piquet (Laws of Piquet, Portland and Turf Clubs): deals, simulations, parties.

    Cards are rank then suit (AS, 10H or TH, q♥); rank order A K Q J 10 9 8 7.
    The rules and every reading of an ambiguous law: rules.md, installed beside the module
    ecarte_sim.engine.piquet (engine/piquet/rules.md in the repository).
    """


COMMANDS = [piquet]
