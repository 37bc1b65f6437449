"""The Piquet library: one call per question, plain dicts back; the deal, the simulation,
the parties, the report and the discard search also typed (:func:`piquet_played`,
:func:`piquet_simulation`, :func:`piquet_parties`, :func:`piquet_measured`,
:func:`piquet_discard_searched`: frozen dataclasses whose ``to_dict()`` is the dict).

Each function takes its rules and players as a
:class:`~ecarte_sim.engine.piquet.settings.PiquetSettings` and returns exactly the
object ``ecarte-sim piquet ...`` prints with ``--json`` (the command adds the
provenance). ``chunk`` and ``progress`` never change a result; where a long run's
tasks go (local threads, a Dask cluster, a checkpointed run directory) is the
caller's :func:`ecarte_sim.engine.batch.execution` context::

    from ecarte_sim.api.piquet import piquet_simulate
    from ecarte_sim.engine.piquet.settings import PiquetSettings

    piquet_simulate(20_000, seed=1, settings=PiquetSettings("heuristic", "random"))

The bounds and defaults the ``piquet`` commands' options show are re-exported here
(:data:`MAX_DEAL_INDEX`, the search's :data:`DEFAULT_SAMPLES`, :data:`MAX_SAMPLES`,
:data:`WINDOW`, :data:`CHUNK`, :data:`TASK`), each defined once where it is used.

>>> [turn["dealer"] for turn in piquet_deal_order(0)]
[0, 1, 0, 1, 0, 1]
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace

from ecarte_sim.analysis.piquet.report import measure
from ecarte_sim.analysis.piquet.search import (CHUNK, DEFAULT_SAMPLES, TASK,  # noqa: F401
                                               check_discarding, searched_deal_counts)
from ecarte_sim.analysis.piquet.search import discard_search as piquet_discard_search
from ecarte_sim.analysis.piquet.summaries import deal_summary, partie_summary
from ecarte_sim.engine.piquet.deal import PiquetDeal, parse_deal
from ecarte_sim.engine.piquet.deal import deal as deal_of
from ecarte_sim.engine.piquet.discard_search import MAX_SAMPLES, WINDOW  # noqa: F401
from ecarte_sim.engine.piquet.game import play_one
from ecarte_sim.engine.piquet.partie import deal_order
from ecarte_sim.engine.piquet.reference import Variant, play_deal
from ecarte_sim.engine.piquet.settings import (REPORT_DEALS, Discarding, Partie, Player,
                                               PiquetSettings, member, name_of)
from ecarte_sim.engine.piquet.simulate import deal_counts, partie_counts
from ecarte_sim.engine.rng import MAX_DEAL_INDEX  # noqa: F401  (the bound of start + deals)

Progress = Callable[[int], None] | None


def _players(settings: PiquetSettings):
    """One name when both seats have the same player, else one per seat."""
    elder, younger = settings.players
    if elder == younger:
        return name_of(elder)
    return {"elder": name_of(elder), "younger": name_of(younger)}


@dataclass(frozen=True)
class PiquetPlayedDeal:
    """One Piquet deal played and told (:func:`piquet_played`): the ``seed`` and the deal
    ``index`` (None for cards given), the ``players`` (elder, younger), each seat's
    ``elder_total`` and ``younger_total``, the ``events`` as the reference tells them, each
    seat's ``scores`` (carte blanche, point, sequence, set, the play, the cards, pique,
    repique, capot: Laws 18-24, 46-69), the ``deal``'s cards and the ``settings`` as
    ``--json`` echoes them. :meth:`to_dict` is what ``ecarte-sim piquet deal --json``
    prints before its provenance (a copy); :func:`piquet_told` tells it."""
    seed: int
    index: int | None
    players: tuple[str, str]
    elder_total: int
    younger_total: int
    events: list = field(repr=False)
    scores: dict = field(repr=False)
    deal: dict = field(repr=False)
    settings: dict = field(repr=False)
    payload: dict = field(repr=False)

    @classmethod
    def of(cls, r: dict) -> PiquetPlayedDeal:
        play = r["play"]
        players = (play, play) if isinstance(play, str) else (play["elder"], play["younger"])
        return cls(r["seed"], r.get("index"), players, r["elder"], r["younger"], r["events"],
                   r["scores"], r["deal"], r["settings"], r)

    def to_dict(self) -> dict:
        return copy.deepcopy(self.payload)


def piquet_played(deal: PiquetDeal | None = None, *, seed: int = 0, index: int = 0,
                  settings: PiquetSettings | None = None, elder_discard: int = 0,
                  younger_discard: int = 0) -> PiquetPlayedDeal:
    """One deal played by the kernel and told event by event by the reference (carte
    blanche, the exchange, each declaration, every card, the cards, pique and repique:
    Laws 18-24, 46-69): a :class:`PiquetPlayedDeal`.

    ``deal``: the cards (:func:`~ecarte_sim.engine.piquet.deal.parse_deal`), or None for
    deal ``index`` of ``seed``; ``seed`` and ``index`` also draw the players' random
    choices. ``settings``: both seats ``heuristic`` by default. A discard given (a mask
    of the dealt hand) replaces its player's choice and fixes how many cards he takes
    (Laws 21-22).

    >>> d = piquet_played(seed=3, index=8)
    >>> d.players, (d.elder_total, d.younger_total) == (d.scores["elder"]["total"],
    ...                                                 d.scores["younger"]["total"])
    (('heuristic', 'heuristic'), True)
    """
    if settings is None:
        settings = PiquetSettings(Player.HEURISTIC, Player.HEURISTIC)
    takes = {key: bin(disc).count("1") for key, disc in
             (("elder_take", elder_discard), ("younger_take", younger_discard)) if disc}
    settings = replace(settings, **takes)
    the_deal = deal_of(seed, index) if deal is None else deal
    record = play_one(the_deal, settings.cfg(), seed, index, elder_discard, younger_discard)
    told = play_deal(record.elder_dealt, record.younger_dealt, list(record.stock),
                     record.elder_discard, record.younger_discard, list(record.plays),
                     Variant(lead_scoring=name_of(settings.lead_scoring),
                             pique_timing=name_of(settings.pique_timing)),
                     sinks=(name_of(settings.elder_sink), name_of(settings.younger_sink)))
    return PiquetPlayedDeal.of({
        "elder": record.elder["total"], "younger": record.younger["total"],
        "events": told.events, "scores": {"elder": record.elder, "younger": record.younger},
        "deal": the_deal.as_dict(), "play": _players(settings), "settings": settings.echo(),
        **({"seed": seed, "index": index} if deal is None else {"seed": seed})})




def piquet_deal(deal: PiquetDeal | None = None, *, seed: int = 0, index: int = 0,
                settings: PiquetSettings | None = None, elder_discard: int = 0,
                younger_discard: int = 0) -> dict:
    """:func:`piquet_played` as a dict: what ``ecarte-sim piquet deal --json`` prints
    (before its provenance)."""
    return piquet_played(deal, seed=seed, index=index, settings=settings,
                         elder_discard=elder_discard, younger_discard=younger_discard).to_dict()


@dataclass(frozen=True)
class PiquetSimulation:
    """Piquet deals played out (:func:`piquet_simulation`): the run (``deals``, ``seed``,
    ``start``, the ``players`` (elder, younger), the ``settings`` as ``--json`` echoes
    them); the deals the ``elder_wins``, the ``younger_wins`` and the ``ties``, each
    share as (rate, low, high) with its Wilson 95% interval (``elder_win_rate``,
    ``younger_win_rate``, ``tie_rate``); the mean totals (``mean_elder``,
    ``mean_younger``, ``mean_difference``: (mean, low, high), normal 95% intervals); the
    deals with a ``pique``, a ``repique``, a ``capot`` and the ``carte_blanche_hands``.
    :meth:`to_dict` is what ``ecarte-sim piquet simulate --json`` prints before its
    provenance (the seats' figures, the mean components and the histograms too; a
    copy)."""
    deals: int
    seed: int
    start: int
    players: tuple[str, str]
    elder_wins: int
    younger_wins: int
    ties: int
    elder_win_rate: tuple[float, float, float]
    younger_win_rate: tuple[float, float, float]
    tie_rate: tuple[float, float, float]
    mean_elder: tuple[float, float, float]
    mean_younger: tuple[float, float, float]
    mean_difference: tuple[float, float, float]
    pique: int
    repique: int
    capot: int
    carte_blanche_hands: int
    settings: dict = field(repr=False)
    payload: dict = field(repr=False)

    @classmethod
    def of(cls, r: dict) -> PiquetSimulation:
        iv = r["intervals"]

        def rate(k):
            return (iv[k]["rate"], *iv[k]["ci95"])

        def mean(k):
            return (iv[k]["mean"], *iv[k]["ci95"])

        return cls(r["deals"], r["seed"], r["start"],
                   (r["players"]["elder"], r["players"]["younger"]), r["elder_wins"],
                   r["younger_wins"], r["ties"], rate("elder_win_rate"),
                   rate("younger_win_rate"), rate("tie_rate"), mean("mean_elder"),
                   mean("mean_younger"), mean("mean_difference"), r["pique"], r["repique"],
                   r["capot"], r["carte_blanche_hands"], r["settings"], r)

    def to_dict(self) -> dict:
        return copy.deepcopy(self.payload)


def piquet_simulation(deals: int, *, seed: int = 0, start: int = 0,
                      settings: PiquetSettings = PiquetSettings(), chunk: int | None = None,
                      progress: Progress = None,
                      discard: tuple = (Discarding.OWN, Discarding.OWN),
                      samples: int = DEFAULT_SAMPLES) -> PiquetSimulation:
    """Deals ``start .. start + deals - 1`` of ``seed`` played out: who wins each deal (the
    higher total; equal totals tie), the mean totals, carte blanche, pique, repique and
    capot by seat (Laws 18, 66, 68, 69), each with its 95% interval.

    ``discard`` (the elder's, the younger's): each seat discards as its player does
    (``own``), or by search (``search``: the full take, each candidate evaluated on
    ``samples`` sampled deals, :mod:`ecarte_sim.engine.piquet.discard_search`). A
    :class:`PiquetSimulation`.

    >>> s = piquet_simulation(2000, seed=1)
    >>> s.elder_wins + s.younger_wins + s.ties == s.deals, s.elder_win_rate[1] < s.elder_win_rate[0]
    (True, True)
    """
    discard = check_discarding(settings, discard)
    if discard == (Discarding.OWN, Discarding.OWN):
        counts = deal_counts(seed, start, start + deals, settings.cfg(),
                             chunk=settings.chunk() if chunk is None else chunk,
                             block=settings.task_size(), progress=progress)
        searched = {}
    else:
        counts = searched_deal_counts(seed, start, start + deals, settings, discard, samples,
                                      **({} if chunk is None else {"chunk": chunk}),
                                      progress=progress)
        searched = {"discard": {"elder": name_of(discard[0]), "younger": name_of(discard[1])},
                    "search_samples": samples}
    elder, younger = settings.players
    return PiquetSimulation.of({**deal_summary(counts), "seed": seed, "start": start,
                                "players": {"elder": name_of(elder),
                                            "younger": name_of(younger)},
                                "settings": {**settings.echo(), **searched}})


def piquet_simulate(deals: int, *, seed: int = 0, start: int = 0,
                    settings: PiquetSettings = PiquetSettings(), chunk: int | None = None,
                    progress: Progress = None,
                    discard: tuple = (Discarding.OWN, Discarding.OWN),
                    samples: int = DEFAULT_SAMPLES) -> dict:
    """:func:`piquet_simulation` as a dict: what ``ecarte-sim piquet simulate --json``
    prints (before its provenance)."""
    return piquet_simulation(deals, seed=seed, start=start, settings=settings, chunk=chunk,
                             progress=progress, discard=discard, samples=samples).to_dict()


@dataclass(frozen=True)
class PiquetParties:
    """Piquet parties played (:func:`piquet_parties`): the run (``parties``, ``seed``,
    ``start``, the ``players`` (A, who deals first, and B), the ``partie``: six or four
    deals, the first deal's ``settings``); the parties won by the first dealer
    (``first_dealer_wins``) and by the first elder, the ``drawn``, the ``rubicons`` and
    the parties decided by ``tie_breaks``; A's win rate and the rubicon rate as (rate,
    low, high) with their Wilson 95% intervals, A's mean settlement as (mean, low, high).
    :meth:`to_dict` is what ``ecarte-sim piquet partie --json`` prints before its
    provenance (the tie-break rate and the mean scores too; a copy)."""
    parties: int
    seed: int
    start: int
    players: tuple[str, str]
    partie: str
    first_dealer_wins: int
    first_elder_wins: int
    drawn: int
    rubicons: int
    tie_breaks: int
    first_dealer_win_rate: tuple[float, float, float]
    rubicon_rate: tuple[float, float, float]
    first_dealer_settlement: tuple[float, float, float]
    settings: dict = field(repr=False)
    payload: dict = field(repr=False)

    @classmethod
    def of(cls, r: dict) -> PiquetParties:
        iv = r["intervals"]
        m = iv["first_dealer_settlement"]
        return cls(r["parties"], r["seed"], r["start"], (r["players"]["a"], r["players"]["b"]),
                   r["partie"], r["first_dealer_wins"], r["first_elder_wins"], r["drawn"],
                   r["rubicons"], r["tie_breaks"],
                   (iv["first_dealer_win_rate"]["rate"], *iv["first_dealer_win_rate"]["ci95"]),
                   (iv["rubicon_rate"]["rate"], *iv["rubicon_rate"]["ci95"]),
                   (m["mean"], *m["ci95"]), r["settings"], r)

    def to_dict(self) -> dict:
        return copy.deepcopy(self.payload)


def piquet_parties(parties: int, *, seed: int = 0, start: int = 0,
                   settings: PiquetSettings = PiquetSettings(),
                   partie: Partie | str = Partie.SIX, chunk: int | None = None,
                   progress: Progress = None) -> PiquetParties:
    """Parties ``start .. start + parties - 1`` of ``seed`` (partie ``p`` deals indices
    ``8p .. 8p+7``): who wins, how often the loser is rubiconed, the mean settlement
    (Laws 71-73), tie-break deals.

    ``settings`` are the first deal's: its younger hand is A, the first dealer, its elder
    B; the seats alternate deal by deal. ``partie``: six deals (Law 71) or four, the
    first and last counting double (its note). A :class:`PiquetParties`.

    >>> p = piquet_parties(500, seed=1)
    >>> p.first_dealer_wins + p.first_elder_wins + p.drawn == p.parties, p.partie
    (True, 'six')
    """
    partie = member(Partie, partie, "partie")
    counts = partie_counts(seed, start, start + parties, settings.cfg(),
                           settings.swapped().cfg(), four=partie == Partie.FOUR,
                           chunk=settings.chunk(parties=True) if chunk is None else chunk,
                           block=settings.task_size(parties=True), progress=progress)
    return PiquetParties.of({**partie_summary(counts), "seed": seed, "start": start,
                             "players": {"a": name_of(settings.younger_player),
                                         "b": name_of(settings.elder_player)},
                             "partie": name_of(partie), "settings": settings.echo()})


def piquet_partie(parties: int, *, seed: int = 0, start: int = 0,
                  settings: PiquetSettings = PiquetSettings(), partie: Partie | str = Partie.SIX,
                  chunk: int | None = None, progress: Progress = None) -> dict:
    """:func:`piquet_parties` as a dict: what ``ecarte-sim piquet partie --json`` prints
    (before its provenance)."""
    return piquet_parties(parties, seed=seed, start=start, settings=settings, partie=partie,
                          chunk=chunk, progress=progress).to_dict()


@dataclass(frozen=True)
class PiquetReport:
    """Every Piquet analysis, measured (:func:`piquet_measured`): the ``seed``, the
    ``deals`` of each study; by player (the same in both seats), the elder's win rate as
    (rate, low, high) with its Wilson 95% interval (``elder_win_rate``) and his mean margin
    as (mean, low, high) with its normal one (``elder_margin``), each with its n
    (``pairing_deals``); and each study as ``--json`` prints it: the ``pairings``, the
    ``exchange`` and the rule ``variants`` (paired), ``sinking``, the discard ``search``,
    the ``parties`` and the ``peer``'s figures. :meth:`to_dict` is what ``ecarte-sim
    piquet report --json`` prints before its provenance (a copy)."""
    seed: int
    deals: dict
    elder_win_rate: dict[str, tuple[float, float, float]]
    elder_margin: dict[str, tuple[float, float, float]]
    pairing_deals: dict[str, int]
    pairings: list = field(repr=False)
    exchange: list = field(repr=False)
    variants: list = field(repr=False)
    sinking: list = field(repr=False)
    search: list = field(repr=False)
    parties: list = field(repr=False)
    peer: dict = field(repr=False)
    payload: dict = field(repr=False)

    @classmethod
    def of(cls, r: dict, seed: int, deals: dict) -> PiquetReport:
        same = [p for p in r["pairings"] if p["elder"] == p["younger"]]
        win = {p["elder"]: p["intervals"]["elder_win_rate"] for p in same}
        margin = {p["elder"]: p["intervals"]["mean_difference"] for p in same}
        return cls(seed, dict(deals), {k: (w["rate"], *w["ci95"]) for k, w in win.items()},
                   {k: (m["mean"], *m["ci95"]) for k, m in margin.items()},
                   {p["elder"]: p["deals"] for p in same}, r["pairings"], r["exchange"],
                   r["variants"], r["sinking"], r["search"], r["parties"], r["peer"], r)

    def to_dict(self) -> dict:
        return copy.deepcopy(self.payload)


def piquet_measured(deals: dict | None = None, *, seed: int = 0,
                    say: Callable[[str], None] | None = None) -> PiquetReport:
    """Every Piquet analysis, measured: the elder's advantage for each pairing of players,
    bonuses by seat, deal totals, the exchange and the rule variants (paired on the same
    deals), the partie, and the peer engine's figures beside ours: a
    :class:`PiquetReport`.

    ``deals``: the sizes, as :data:`~ecarte_sim.engine.piquet.settings.REPORT_DEALS` (the
    default); ``say`` is told what is being measured. The example runs the report at its
    smallest sizes without the double-dummy and PIMC players (a minute on a busy machine),
    so it is marked to skip.

    >>> r = piquet_measured({"random": 1000, "heuristic": 1000, "dd": 0, "pimc": 0,
    ...                      "paired": 1000, "partie": 100, "search": 0})  # doctest: +SKIP
    >>> sorted(r.elder_win_rate), r.pairing_deals["heuristic"]  # doctest: +SKIP
    (['heuristic', 'random'], 1000)
    """
    deals = REPORT_DEALS if deals is None else deals
    return PiquetReport.of(measure(seed, deals, say or (lambda msg: None)), seed, deals)


def piquet_report(deals: dict | None = None, *, seed: int = 0,
                  say: Callable[[str], None] | None = None) -> dict:
    """:func:`piquet_measured` as a dict: what ``ecarte-sim piquet report --json`` prints
    (before its provenance)."""
    return piquet_measured(deals, seed=seed, say=say).to_dict()


@dataclass(frozen=True)
class DiscardComparison:
    """Two arms of the discard search compared on the same deals
    (:class:`PiquetDiscardSearch`): arm ``a`` minus arm ``b``, the elder's margin
    (``margin_difference``) and P(elder wins) (``elder_win_difference``), each (mean,
    low, high) with its 95% interval, paired."""
    a: str
    b: str
    margin_difference: tuple[float, float, float]
    elder_win_difference: tuple[float, float, float]


@dataclass(frozen=True)
class PiquetDiscardSearch:
    """Discards chosen by search against the keep value (:func:`piquet_discard_searched`):
    the run (``deals``, ``seed``, ``start``, ``samples`` a candidate, the ``window`` of
    lowest keep values, the arms' ``play`` and its ``worlds`` (None but for pimc)); the
    ``comparisons`` (:class:`DiscardComparison`); by number of cards, the share of deals
    each seat, free to take fewer, takes them (``elder_free_take``,
    ``younger_free_take``) and by seat the share where the full take's search discard is
    the heuristic's (``search_is_heuristic``), each (rate, low, high) with its Wilson 95%
    interval; the ``arms`` as ``--json`` prints them. :meth:`to_dict` is what
    ``ecarte-sim piquet discard-search --json`` prints before its provenance (a copy)."""
    deals: int
    seed: int
    start: int
    samples: int
    window: int
    play: str
    worlds: int | None
    comparisons: tuple[DiscardComparison, ...]
    elder_free_take: dict[str, tuple[float, float, float]]
    younger_free_take: dict[str, tuple[float, float, float]]
    search_is_heuristic: dict[str, tuple[float, float, float]]
    arms: dict = field(repr=False)
    payload: dict = field(repr=False)

    @classmethod
    def of(cls, r: dict) -> PiquetDiscardSearch:
        def rate(e):
            return (e["rate"], *e["ci95"])

        def mean(e):
            return (e["mean"], *e["ci95"])

        return cls(r["deals"], r["seed"], r["start"], r["samples"], r["window"], r["play"],
                   r.get("worlds"),
                   tuple(DiscardComparison(c["a"], c["b"], mean(c["margin_difference"]),
                                           mean(c["elder_win_difference"]))
                         for c in r["comparisons"]),
                   {k: rate(e) for k, e in r["elder_free_take"].items()},
                   {k: rate(e) for k, e in r["younger_free_take"].items()},
                   {k: rate(e) for k, e in r["search_is_heuristic"].items()}, r["arms"], r)

    def to_dict(self) -> dict:
        return copy.deepcopy(self.payload)


def piquet_discard_searched(deals: int, **options) -> PiquetDiscardSearch:
    """Deals ``start .. start + deals - 1`` of ``seed``: the elder's and the younger's
    discards chosen by search (each candidate evaluated on ``samples`` sampled deals)
    against the heuristic's keep value, the arms played by ``play``, paired; then, under
    the search, the takes (Laws 21-22, 32-34) —
    :func:`~ecarte_sim.analysis.piquet.search.discard_search`, whose keyword ``options``
    (``seed``, ``start``, ``samples``, ``play``, ``worlds``, ``lead_scoring``,
    ``pique_timing``, ``chunk``, ``progress``) and defaults these are: a
    :class:`PiquetDiscardSearch`.

    >>> r = piquet_discard_searched(40, seed=3, samples=8)
    >>> r.deals, r.comparisons[0].margin_difference[1] <= r.comparisons[0].margin_difference[0]
    (40, True)
    """
    return PiquetDiscardSearch.of(piquet_discard_search(deals, **options))


def piquet_deal_order(first: int = 0, *, partie: Partie | str = Partie.SIX,
                      tied: bool = False) -> list[dict]:
    """Who deals each deal of a partie whose first dealer is player ``first`` (0 or 1):
    the players deal alternately (Law 16), six deals (Law 71) or four, the first and last
    counting double (its note); ``tied``: each deals once more, counting single (Law 71).
    One dict per deal: ``number``, ``dealer``, ``elder`` (the non-dealer, Law 9),
    ``weight``, ``extra`` (:func:`ecarte_sim.engine.piquet.partie.deal_order`)."""
    return [asdict(turn) for turn in deal_order(first, partie, tied)]


def piquet_cards(elder: str, younger: str, talon: str) -> PiquetDeal:
    """A deal's cards from their text — the elder's twelve, the younger's twelve and the
    talon's eight in draw order — checked (a :class:`~ecarte_sim.engine.deck.CardError`
    names a bad token): the ``deal`` of :func:`piquet_deal`."""
    return parse_deal(elder, younger, talon)


def piquet_discarding(settings: PiquetSettings, discard) -> tuple[Discarding, Discarding]:
    """How each seat discards (``discard``: the elder's, the younger's, each ``"own"`` or
    ``"search"``) as members, checked against ``settings`` before any work:
    :class:`ValueError` naming the take when a search is asked with another than the full
    exchange (:func:`~ecarte_sim.analysis.piquet.search.check_discarding`)."""
    return check_discarding(settings, discard)


def piquet_told(result: PiquetPlayedDeal | dict, pretty: bool = False) -> list[str]:
    """A deal played (:func:`piquet_played`, or :func:`piquet_deal`'s dict) told as a
    Piquet player would, line by line, each score with its law
    (:func:`~ecarte_sim.analysis.piquet.narrative.tell_deal`); ``pretty`` writes the suits
    as symbols."""
    from ecarte_sim.analysis.piquet.narrative import tell_deal

    return tell_deal(result.payload if isinstance(result, PiquetPlayedDeal) else result,
                     pretty)


__all__ = ["DiscardComparison", "PiquetDiscardSearch", "PiquetParties", "PiquetPlayedDeal",
           "PiquetReport", "PiquetSimulation", "piquet_deal", "piquet_discard_searched",
           "piquet_measured", "piquet_played", "piquet_simulate",
           "piquet_simulation", "piquet_partie", "piquet_parties", "piquet_report",
           "piquet_discard_search", "piquet_deal_order", "piquet_cards", "piquet_discarding",
           "piquet_told"]
