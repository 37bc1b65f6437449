"""Piquet settings: every id, default and limit of a run, defined once.

The Python boundary takes one frozen :class:`PiquetSettings` (who plays each
seat, how many cards each takes in, the rule variants, the PIMC worlds, what each
seat sinks and what a PIMC seat reads from the declarations),
validated when it is made; the kernels take the plain int64 ``cfg`` array that
:meth:`PiquetSettings.cfg` lays out by ``CFG``. The same object gives the JSON
echo of the settings (:meth:`~PiquetSettings.echo`) and a run's default task
and row sizes (:meth:`~PiquetSettings.task_size`, :meth:`~PiquetSettings.chunk`).

Ids are :class:`enum.IntEnum` members; numba reads them as compile-time
constants, so the kernels compare with the members themselves (``kind ==
Player.PIMC``, ``(card & 7) >= Rank.TEN``). The name a user types is the
member's name in lower case (``TEN_UP`` → ``ten_up``).

To add a player: add a member to :class:`Player`, give it a discard and a card
in :mod:`~ecarte_sim.engine.piquet.players` (or in
:mod:`~ecarte_sim.engine.piquet.whole`, for one that uses the solver) and test
it; the command line's choices, the validation and the echo follow.

numba caches each kernel by its own file and does not see a change here: after
changing an id, delete the stale caches (``find engine/piquet -name '*.nb[ic]'
-delete``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import IntEnum

import numpy as np

from ecarte_sim.engine.cards import PIQUET
from ecarte_sim.engine.layout import Layout
from ecarte_sim.engine.sizes import DEFAULT_BLOCK, DEFAULT_CHUNK


class Player(IntEnum):
    """Who chooses a seat's discard and cards (:mod:`~ecarte_sim.engine.piquet.players`),
    cheapest first."""
    RANDOM = 0      # the peer engine's baseline: random discard, random legal cards
    HEURISTIC = 1   # keep values for the discard, remembered cards for the play
    DD = 2          # discards as the heuristic, plays double dummy (sees both hands)
    PIMC = 3        # discards as the heuristic, plays on sampled worlds solved double dummy


class LeadScoring(IntEnum):
    """What a card led, or a trick won second, scores (Law 65)."""
    ALL = 0         # every one scores 1 (Law 65)
    TEN_UP = 1      # only a ten or higher (the older count of Foster and Hoyle)


class PiqueTiming(IntEnum):
    """When the younger's declarations count as reckoned against the pique (Law 69)."""
    LEAD = 0        # after the elder's first lead (Laws 46, 69)
    LAW67 = 1       # before all play (Law 67 read strictly)


class Partie(IntEnum):
    """The deals of a partie (Law 71 and its note)."""
    SIX = 0         # six deals
    FOUR = 1        # four deals, the first and the last counting double


class SinkPolicy(IntEnum):
    """What a player leaves uncalled of what he holds (Law 47; ``rules.md``, "Sinking")."""
    NEVER = 0       # calls everything he holds
    GUARD = 1       # sinks a point of four or fewer cards, or a lone tierce or quart, whose
                    # showing would name the suit of his king without its ace


class Reading(IntEnum):
    """What a ``pimc`` player reads from the declarations when he samples worlds."""
    FACE = 0        # the answers at face value, as if nothing were ever sunk
    NONE = 1        # nothing but the cards shown (and the voids of the play)
    FULL = 2        # the answers as the opponent's (known) sinking policy gives them


class Discarding(IntEnum):
    """How a seat's discard is chosen in ``piquet simulate`` (not a field of
    :class:`PiquetSettings`: the kernels' ``cfg`` does not carry it)."""
    OWN = 0         # as the seat's player discards (random, or by the keep value)
    SEARCH = 1      # by search (engine/piquet/discard_search.py), the full take


class Seat(IntEnum):
    """The two hands of a deal (Law 9)."""
    ELDER = 0       # the non-dealer: takes in, declares and leads first
    YOUNGER = 1     # the dealer


class Rank(IntEnum):
    """Rank indices of the :data:`~ecarte_sim.engine.cards.PIQUET` deck, low to high."""
    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    KNAVE = 4
    QUEEN = 5
    KING = 6
    ACE = 7


assert [PIQUET.rank_index(r) for r in "789TJQKA"] == list(Rank)


def name_of(member: IntEnum) -> str:
    """The name a user types for ``member`` (``TEN_UP`` → ``ten_up``)."""
    return member.name.lower()


def choices(kind: type[IntEnum]) -> list[str]:
    """The names a user may type for ``kind``, in the members' order."""
    return [name_of(m) for m in kind]


def member(kind: type[IntEnum], value, what: str, choose: str = ""):
    """``value`` (a member, or its typed name) as a member of ``kind``; ``ValueError``
    ``unknown WHAT 'value' (CHOOSE names)`` otherwise."""
    if isinstance(value, kind):
        return value
    if isinstance(value, str) and value in choices(kind):
        return kind[value.upper()]
    raise ValueError(f"unknown {what} {value!r} ({choose}{', '.join(choices(kind))})")


#: Cards the elder takes in: 1 to 5 (Law 21).
MAX_ELDER_TAKE = 5
#: Cards the younger takes in: at most what the elder leaves, so 7; 0 = all he can (Law 34).
MAX_YOUNGER_TAKE = 7
#: PIMC worlds per decision: the default and the most (the layout of a deal's random
#: words, :mod:`~ecarte_sim.engine.piquet.whole`).
DEFAULT_WORLDS = 16
MAX_WORLDS = 256
#: Deals per task and per parallel row with a dd or pimc player (the task size never
#: changes a count): a task is about 1-20 s of work on two cores, so that a cluster gets
#: many tasks and a task's overhead stays small; small rows keep both threads busy.
DD_TASK, PIMC_TASK = 1 << 15, 1 << 12
DD_CHUNK, PIMC_CHUNK = 64, 4
#: A partie is six to eight deals: parties per task = deals per task >> 5, parties per
#: row = deals per row // 16 (at least one).
PARTIE_TASK_SHIFT, PARTIE_CHUNK_DIVISOR = 5, 16
#: The sizes of the Piquet report (:mod:`ecarte_sim.analysis.piquet.report`): deals per
#: pairing of players, by the slowest player of the pairing (the PIMC sinking comparisons
#: too); deals per paired comparison (the heuristic's sinking too); parties per partie
#: study; deals of the discard search.
REPORT_DEALS = {"random": 1 << 20, "heuristic": 1 << 20, "dd": 1 << 16, "pimc": 1 << 16,
                "paired": 1 << 19, "partie": 1 << 17, "search": 1 << 16}


@dataclass(frozen=True)
class PiquetSettings:
    """Who plays each seat, the exchange and the rule variants of a run (validated once).

    ``elder_player`` and ``younger_player``, ``lead_scoring`` and ``pique_timing`` take
    enum members or their typed names (``"heuristic"``, ``"ten_up"``, ``"law67"``);
    ``elder_take`` the cards the elder takes in (1-5, Law 21); ``younger_take`` the most
    the younger takes in (0: all he can, Law 34); ``worlds`` PIMC worlds per decision.
    """

    elder_player: Player = Player.RANDOM
    younger_player: Player = Player.RANDOM
    elder_take: int = MAX_ELDER_TAKE
    younger_take: int = 0
    lead_scoring: LeadScoring = LeadScoring.ALL
    pique_timing: PiqueTiming = PiqueTiming.LEAD
    worlds: int = DEFAULT_WORLDS
    elder_sink: SinkPolicy = SinkPolicy.NEVER
    younger_sink: SinkPolicy = SinkPolicy.NEVER
    elder_reading: Reading = Reading.FACE
    younger_reading: Reading = Reading.FACE

    def __post_init__(self):
        for name in ("elder_player", "younger_player"):
            object.__setattr__(self, name,
                               member(Player, getattr(self, name), "player", "choose from "))
        if not 1 <= int(self.elder_take) <= MAX_ELDER_TAKE:
            raise ValueError(f"elder takes 1 to {MAX_ELDER_TAKE} cards (Law 21), "
                             f"got {self.elder_take}")
        if not 0 <= int(self.younger_take) <= MAX_YOUNGER_TAKE:
            raise ValueError(f"younger takes 1 to {MAX_YOUNGER_TAKE} cards, or 0 for all he "
                             f"can, got {self.younger_take}")
        object.__setattr__(self, "lead_scoring",
                           member(LeadScoring, self.lead_scoring, "lead scoring"))
        object.__setattr__(self, "pique_timing",
                           member(PiqueTiming, self.pique_timing, "pique timing"))
        for name in ("elder_sink", "younger_sink"):
            object.__setattr__(self, name, member(SinkPolicy, getattr(self, name),
                                                  "sink policy", "choose from "))
        for name in ("elder_reading", "younger_reading"):
            object.__setattr__(self, name, member(Reading, getattr(self, name),
                                                  "reading", "choose from "))
        if not 1 <= int(self.worlds) <= MAX_WORLDS:
            raise ValueError(f"worlds must lie in [1, {MAX_WORLDS}], got {self.worlds}")
        for name in ("elder_take", "younger_take", "worlds"):
            object.__setattr__(self, name, int(getattr(self, name)))

    @property
    def players(self) -> tuple[Player, Player]:
        """(elder's player, younger's player)."""
        return self.elder_player, self.younger_player

    def swapped(self) -> "PiquetSettings":
        """The same settings with the players' seats exchanged (the next deal of a partie:
        the takes and variants stay with the seats)."""
        return replace(self, elder_player=self.younger_player, younger_player=self.elder_player,
                       elder_sink=self.younger_sink, younger_sink=self.elder_sink,
                       elder_reading=self.younger_reading, younger_reading=self.elder_reading)

    def task_size(self, parties: bool = False) -> int:
        """Default deals (``parties``: parties) per task of a run under these settings."""
        if Player.PIMC in self.players:
            deals = PIMC_TASK
        elif Player.DD in self.players:
            deals = DD_TASK
        else:
            deals = DEFAULT_BLOCK
        return deals >> PARTIE_TASK_SHIFT if parties else deals

    def chunk(self, parties: bool = False) -> int:
        """Default deals (``parties``: parties) per parallel row."""
        if Player.PIMC in self.players:
            deals = PIMC_CHUNK
        elif Player.DD in self.players:
            deals = DD_CHUNK
        else:
            deals = DEFAULT_CHUNK
        return max(1, deals // PARTIE_CHUNK_DIVISOR) if parties else deals

    def cfg(self) -> np.ndarray:
        """The kernels' ``cfg`` array (int64, laid out by ``CFG``)."""
        cfg = np.zeros(CFG.size, dtype=np.int64)
        for f in fields(self):
            cfg[CFG.at[f.name.upper()]] = int(getattr(self, f.name))
        return cfg

    def echo(self) -> dict:
        """The rule settings as JSON shows them (the players are shown by each command)."""
        return {"lead_scoring": name_of(self.lead_scoring),
                "pique_timing": name_of(self.pique_timing),
                "elder_take": self.elder_take, "younger_take": self.younger_take or "all",
                **self.declaring_echo()}

    def declaring_echo(self) -> dict:
        """The sinking policies and readings, when any differs from the default (so that
        the default's output is what it was before sinking existed)."""
        out = {}
        if (self.elder_sink, self.younger_sink) != (SinkPolicy.NEVER, SinkPolicy.NEVER):
            out["sink"] = {"elder": name_of(self.elder_sink),
                           "younger": name_of(self.younger_sink)}
        if (self.elder_reading, self.younger_reading) != (Reading.FACE, Reading.FACE):
            out["reading"] = {"elder": name_of(self.elder_reading),
                              "younger": name_of(self.younger_reading)}
        return out


#: The kernels' ``cfg`` array: one int64 per field of :class:`PiquetSettings`, in order.
CFG = Layout("Cfg", [(f.name, 1) for f in fields(PiquetSettings)])
