"""The card play's questions: :func:`exploit` (one hand's exact best response against a
play model), :func:`exploitability` (over a stratified sample of hands),
:func:`stronger` / :func:`stronger_players` (a card player against ``pimc-inference``,
paired on the same deals) and :func:`card_regret` (each card's value with the player's
own play after it, position by position) — the front door of ``ecarte-sim exploit``,
``exploitability``, ``stronger`` and ``card-regret`` (which card to play in one position
is :func:`ecarte_sim.api.strategy.cards`). Each returns a typed result whose ``to_dict()``
is the command's ``--json``. Each is a search over many deals; the examples
that run one are marked to skip (a best response compiles the search's kernels and takes
minutes on a busy machine), the others run.

>>> stronger_player("pimc-king:1024")
('pimc-king', 1024)
>>> ExploitSettings(models=("heuristic",), per_stratum=1).echo()["models"]
['heuristic']
>>> RegretSettings(players=("pimc-king:16",), per_cell=1).players
('pimc-king:16',)
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field

from ecarte_sim.analysis.ecarte.play.card_regret import RegretSettings
from ecarte_sim.analysis.ecarte.play.exploit import STRATA
from ecarte_sim.analysis.ecarte.play.exploitability import MODELS as EXPLOITED
from ecarte_sim.analysis.ecarte.play.exploitability import ExploitSettings

__all__ = ["EXPLOITED", "STRATA", "CardRegret", "ExploitSettings", "ExploitedHand",
           "Exploitability", "ModelExploitability", "PlayerRegret", "PlayerStrength",
           "RegretSettings", "StrongerMatch", "StrongerPlayers", "card_regret", "exploit",
           "exploitability", "stronger", "stronger_player", "stronger_players"]


@dataclass(frozen=True)
class ExploitedHand:
    """One hand's exact best response against a play model (:func:`exploit`): the hand
    (``hand``, ``turn_up``, ``role``, ``said``, the cards ``played`` before), the
    opponent's ``model`` at ``worlds``, its ``decisions`` and the ``seed``; the opponent
    ``hands`` searched of the ``opponent_hands`` that agree; per deal, as (marks,
    P(point)), the ``best_response``'s value, the ``model_value`` (the responder playing
    the model himself) and their ``gain``; the ``local_best_response`` (a dict, None when
    not asked), the gain in marks ``held_out`` over other seeds as (mean, low, high) with
    its 95% interval (None without held-out seeds) and the ``lines`` that exploit the
    model. :meth:`to_dict` is what ``ecarte-sim exploit --json`` prints before its
    provenance (the exchange, the kings' groups and the timings too; a copy)."""
    hand: str
    turn_up: str
    role: str
    said: str
    played: tuple[str, ...]
    model: str
    worlds: int
    decisions: str
    seed: int
    hands: int
    opponent_hands: int
    best_response: tuple[float, float]
    model_value: tuple[float, float]
    gain: tuple[float, float]
    local_best_response: dict | None
    held_out: tuple[float, float, float] | None
    lines: list = field(repr=False)
    payload: dict = field(repr=False)

    @classmethod
    def of(cls, r: dict) -> ExploitedHand:
        def pair(d):
            return (d["marks"], d["point"])

        return cls(r["hand"], r["turn_up"], r["role"], r["said"], tuple(r["played"]),
                   r["model"], r["worlds"], r["decisions"], r["seed"], r["hands"],
                   r["opponent_hands"], pair(r["best_response"]), pair(r["model_value"]),
                   pair(r["gain"]), r["local_best_response"],
                   _estimate(r["held_out"]["gain_marks"]) if r["held_out"] else None,
                   r["lines"], r)

    def to_dict(self) -> dict:
        return copy.deepcopy(self.payload)


def exploit(hand: str, turn_up: str, role: str = "dealer", *, said: str = "play",
            model: str = "pimc", worlds: int = 16, seed: int = 0, held_out_seeds: int = 2,
            hands: int | None = None, played: str = "", score: str = "0-0",
            decisions: str = "treatise", local: bool = True, discarded: str | None = None,
            drew: str | None = None, opponent_threw: str | None = None,
            kings: bool = True) -> ExploitedHand:
    """The exact best response in the play with ``hand`` (the ``role``'s) against the
    opponent's play ``model`` after ``said`` (and, after an exchange, ``discarded``,
    ``drew``, ``opponent_threw``): its value per deal in marks and P(point), the model's
    own, the gain, the local best response's, the gain held out over the next
    ``held_out_seeds`` seeds and the lines that exploit the model —
    :func:`~ecarte_sim.analysis.ecarte.play.exploit.exploit_hand`: an
    :class:`ExploitedHand`. The example searches 8 opponent hands (seconds once
    compiled, minutes to compile), so it is marked to skip.

    >>> r = exploit("KS QS 9S 8H 7D", "TS", "dealer", model="heuristic",
    ...             held_out_seeds=0, hands=8)  # doctest: +SKIP
    >>> r.hands, r.held_out, r.gain[0] >= 0  # doctest: +SKIP
    (8, None, True)
    """
    from ecarte_sim.analysis.ecarte.play.exploit import exploit_hand

    return ExploitedHand.of(exploit_hand(
        hand, turn_up, role, said=said, model=model, worlds=worlds, seed=seed,
        held_out_seeds=held_out_seeds, hands=hands, played=played, score=score,
        decisions=decisions, local=local, discarded=discarded, drew=drew,
        opponent_threw=opponent_threw, kings=kings))


def _estimate(e: dict | None) -> tuple[float, float, float] | None:
    """A summary's ``{"mean", "ci95"}`` as (mean, low, high)."""
    return None if e is None else (e["mean"], *e["ci95"])


@dataclass(frozen=True)
class ModelExploitability:
    """One play model's exploitability (:class:`Exploitability`): its ``label``
    (``NAME`` or ``NAME:W``), ``model`` and ``worlds``; by seat (``"elder"``,
    ``"dealer"`` and, when both were sampled, ``"both"``), the best response's gain in
    marks a deal in sample (``gain_marks``), held out (``held_out_marks``) and the local
    best response's (``local_gain_marks``), each (mean, low, high) with its 95% interval;
    the ``local_share`` of the gain (None when there is none); the ``summary`` (per
    stratum and seat, as ``--json`` prints it), the ``top`` hands and the per-hand
    ``frame`` (a pandas DataFrame)."""
    label: str
    model: str
    worlds: int
    gain_marks: dict[str, tuple[float, float, float]]
    held_out_marks: dict[str, tuple[float, float, float]]
    local_gain_marks: dict[str, tuple[float, float, float]]
    local_share: float | None
    summary: dict = field(repr=False)
    top: list = field(repr=False)
    frame: object = field(repr=False)

    @classmethod
    def of(cls, label: str, m: dict) -> ModelExploitability:
        roles = m["summary"]["roles"]
        return cls(label, m["model"], m["worlds"],
                   {seat: _estimate(e["gain_marks"]) for seat, e in roles.items()},
                   {seat: _estimate(e["held_out_marks"]) for seat, e in roles.items()},
                   {seat: _estimate(e["local_gain_marks"]) for seat, e in roles.items()},
                   m["summary"]["local_share"], m["summary"], m["top"], m["frame"])

    def to_dict(self) -> dict:
        return {"summary": copy.deepcopy(self.summary), "top": copy.deepcopy(self.top),
                "hands": self.frame.to_dict(orient="records")}


@dataclass(frozen=True)
class Exploitability:
    """The exploitability of play models (:func:`exploitability`): the ``seed``, the
    ``strata`` sampled, the responder ``hands`` of each, the situations' ``shares`` and
    one :class:`ModelExploitability` a model (``models``, by label); ``settings`` as the
    run echoes them. :meth:`to_dict` is what ``ecarte-sim exploitability --json`` prints
    between its command and its provenance and files; :attr:`payload` is the library's
    dict (the per-hand frames in it), what the report is written from."""
    seed: int
    strata: tuple[str, ...]
    hands: dict[str, int]
    shares: dict
    models: dict[str, ModelExploitability]
    settings: dict = field(repr=False)
    payload: dict = field(repr=False)

    @classmethod
    def of(cls, r: dict) -> Exploitability:
        return cls(r["settings"]["seed"], tuple(r["strata"]), r["hands"], r["shares"],
                   {label: ModelExploitability.of(label, m) for label, m in r["models"].items()},
                   r["settings"], r)

    def to_dict(self) -> dict:
        return {"seed": self.seed, "strata": list(self.strata),
                "hands": copy.deepcopy(self.hands), "shares": copy.deepcopy(self.shares),
                "models": {label: m.to_dict() for label, m in self.models.items()}}


def exploitability(settings: ExploitSettings, strata: tuple | None = None, *, top: int = 0,
                   progress: Callable[[str, str, int, int], None] | None = None
                   ) -> Exploitability:
    """The exploitability of each model of ``settings`` over its stratified sample of
    responder hands (``strata``: some of :data:`STRATA` only; None: all) —
    :func:`~ecarte_sim.analysis.ecarte.play.exploitability.measure` — with, for each model,
    its ``top`` hands and the lines that exploit them: an :class:`Exploitability`.
    ``progress(model, stratum, done, total)`` is told each stratum's hands. The example
    runs exact best responses (minutes on a busy machine), so it is marked to skip.

    >>> r = exploitability(ExploitSettings(models=("heuristic",), per_stratum=1,
    ...                                    held_out_seeds=0))  # doctest: +SKIP
    >>> sorted(r.models), r.models["heuristic"].gain_marks["both"][0] > 0  # doctest: +SKIP
    (['heuristic'], True)
    """
    from ecarte_sim.analysis.ecarte.play import exploitability as X

    result = X.measure(settings, strata, progress=progress)
    for model, m in result["models"].items():
        m["top"] = X.top_hands(settings, model, m["frame"], top) if top else []
    return Exploitability.of(result)


def stronger_player(label: str) -> tuple[str, int]:
    """A card player for :func:`stronger_players` from its ``NAME:W`` label: (its name,
    its worlds); :class:`ValueError` says what a bad label lacks."""
    from ecarte_sim.analysis.ecarte.play.stronger import player_of

    return player_of(label)


def _estimate_n(e: dict | None) -> tuple[float, float, float] | None:
    """A ``{"n", "mean", "ci95"}`` as (mean, low, high); None when it has no deal-side."""
    return None if e is None or not e["n"] else _estimate(e)


@dataclass(frozen=True)
class StrongerMatch:
    """``alphamu`` against ``pimc-inference`` on the same deals (:func:`stronger`): the
    run (``deals``, ``seed``, ``start``, ``worlds``, ``last_tricks``, ``decisions``); the
    deal-sides ``n`` and alphamu's side's marks a deal minus the deal's, over both sides
    (``marks``, ``point``: P(point)) and as the ``elder`` and the ``dealer`` (marks), each
    (mean, low, high) with its 95% interval (None for a side with no deal-side); its
    ``alphamu_decisions``, the share where its card differs (``cards_differing_share``)
    and the share of deal-sides whose marks changed (``changed_share``). :meth:`to_dict`
    is what ``ecarte-sim stronger --json`` prints before its provenance (the timings too;
    a copy)."""
    deals: int
    seed: int
    start: int
    worlds: int
    last_tricks: int
    decisions: str
    n: int
    marks: tuple[float, float, float] | None
    point: tuple[float, float, float] | None
    elder: tuple[float, float, float] | None
    dealer: tuple[float, float, float] | None
    alphamu_decisions: int
    cards_differing_share: float | None
    changed_share: float | None
    payload: dict = field(repr=False)

    @classmethod
    def of(cls, r: dict) -> StrongerMatch:
        return cls(r["deals"], r["seed"], r["start"], r["worlds"], r["last_tricks"],
                   r["decisions_model"], r["n"], _estimate_n(r["marks"]),
                   _estimate_n(r["point"]), _estimate_n(r["elder"]["marks"]),
                   _estimate_n(r["dealer"]["marks"]), r["alphamu_decisions"],
                   r["cards_differing_share"], r["changed_share"], r)

    def to_dict(self) -> dict:
        return copy.deepcopy(self.payload)


def stronger(*, deals: int = 2000, seed: int = 0, worlds: int = 64, last_tricks: int = 5,
             start: int = 0, decisions: str = "treatise",
             on_deal: Callable[[int], None] | None = None) -> StrongerMatch:
    """``alphamu`` (αμ on the last ``last_tricks`` tricks) against ``pimc-inference`` on the
    same deals, one side then the other:
    :func:`~ecarte_sim.analysis.ecarte.play.stronger.match`: a :class:`StrongerMatch`.
    ``on_deal(k)`` is told the deals done. The example plays two deals (seconds once
    compiled, minutes to compile), so it is marked to skip.

    >>> r = stronger(deals=2, worlds=4, last_tricks=1)  # doctest: +SKIP
    >>> r.deals, r.n  # doctest: +SKIP
    (2, 4)
    """
    from ecarte_sim.analysis.ecarte.play.stronger import match

    return StrongerMatch.of(match(deals=deals, seed=seed, worlds=worlds,
                                  last_tricks=last_tricks, start=start, decisions=decisions,
                                  on_deal=on_deal))


@dataclass(frozen=True)
class PlayerStrength:
    """One card player against ``pimc-inference`` (:class:`StrongerPlayers`): its
    ``label`` (``NAME:W``), the deal-sides ``n``, its side's marks a deal minus the
    deal's over both sides (``marks``) and as the ``elder`` and the ``dealer``, each (mean,
    low, high) with its 95% interval (None with no deal-side), the ``changed_share`` of
    deal-sides and the ``seconds_per_deal_side``."""
    label: str
    n: int
    marks: tuple[float, float, float] | None
    elder: tuple[float, float, float] | None
    dealer: tuple[float, float, float] | None
    changed_share: float | None
    seconds_per_deal_side: float


@dataclass(frozen=True)
class StrongerPlayers:
    """Card players against ``pimc-inference``, paired on the same deals
    (:func:`stronger_players`): the run (``against``, ``deals``, ``seed``, ``start``,
    ``decisions``), one :class:`PlayerStrength` a player (``players``, by label) and every
    two players' difference in marks a deal-side (``differences``, by ``"A - B"``: (mean,
    low, high) with its 95% interval, None with no deal-side). :meth:`to_dict` is what
    ``ecarte-sim stronger --player ... --json`` prints before its provenance (the timings
    too; a copy)."""
    against: str
    deals: int
    seed: int
    start: int
    decisions: str
    players: dict[str, PlayerStrength]
    differences: dict[str, tuple[float, float, float] | None]
    payload: dict = field(repr=False)

    @classmethod
    def of(cls, r: dict) -> StrongerPlayers:
        players = {label: PlayerStrength(label, e["n"], _estimate_n(e["marks"]),
                                         _estimate_n(e["elder"]), _estimate_n(e["dealer"]),
                                         e["changed_share"], e["seconds_per_deal_side"])
                   for label, e in r["players"].items()}
        return cls(r["against"], r["deals"], r["seed"], r["start"], r["decisions_model"],
                   players, {k: _estimate_n(e) for k, e in r["differences"].items()}, r)

    def to_dict(self) -> dict:
        return copy.deepcopy(self.payload)


def stronger_players(players: tuple[str, ...] | list[str], *, deals: int = 2000,
                     seed: int = 0, worlds: int = 64, start: int = 0,
                     decisions: str = "treatise",
                     on_deal: Callable[[int], None] | None = None) -> StrongerPlayers:
    """Each card player of ``players`` (``NAME:W`` labels, :func:`stronger_player`) against
    ``pimc-inference`` at ``worlds``, paired on the same deals, and every two players'
    difference: :func:`~ecarte_sim.analysis.ecarte.play.stronger.compare`; a
    :class:`StrongerPlayers`. The example plays two deals (seconds once compiled, minutes
    to compile), so it is marked to skip.

    >>> r = stronger_players(["pimc-king:4"], deals=2, worlds=4)  # doctest: +SKIP
    >>> list(r.players), r.players["pimc-king:4"].n  # doctest: +SKIP
    (['pimc-king:4'], 4)
    """
    from ecarte_sim.analysis.ecarte.play.stronger import compare

    return StrongerPlayers.of(compare(players, deals=deals, seed=seed, worlds=worlds,
                                      start=start, decisions=decisions, on_deal=on_deal))


@dataclass(frozen=True)
class PlayerRegret:
    """One card player's regret (:class:`CardRegret`): its ``label``, the ``positions``
    valued, over them the regret of its card in marks (``regret``: (mean, low, high) with
    its 95% interval), the share where another card is better beyond its 95% interval
    (``beyond``: (share, low, high), Wilson), the split-half regret's mean
    (``split_regret``) and how far the printed values are from the measured
    (``printed_minus_measured``, a mean); the whole ``summary`` (by trick, kind and seat,
    as ``--json`` prints it), the per-position ``rows`` and the ``worst`` positions."""
    label: str
    positions: int
    regret: tuple[float, float, float]
    beyond: tuple[float, float, float]
    split_regret: float
    printed_minus_measured: float
    summary: dict = field(repr=False)
    rows: list = field(repr=False)
    worst: list = field(repr=False)

    @classmethod
    def of(cls, label: str, m: dict) -> PlayerRegret:
        a = m["summary"]["all"]
        return cls(label, a["positions"], _estimate(a["regret"]), _estimate(a["beyond"]),
                   a["split_regret"]["mean"], a["printed_minus_measured"]["mean"],
                   m["summary"], m["rows"], m["worst"])


@dataclass(frozen=True)
class CardRegret:
    """Each card's value with the player's own play after it (:func:`card_regret`): the
    run's ``settings`` (as ``--json`` echoes them), the ``positions`` drawn and one
    :class:`PlayerRegret` a card player (``players``, by label). :meth:`to_dict` is what
    ``ecarte-sim card-regret --json`` prints between its command and its provenance and
    files; :attr:`payload` the library's dict (the timings and the worst positions in it),
    what the report is written from."""
    settings: dict
    positions: int
    players: dict[str, PlayerRegret]
    payload: dict = field(repr=False)

    @classmethod
    def of(cls, r: dict) -> CardRegret:
        return cls(r["settings"], r["positions"],
                   {label: PlayerRegret.of(label, m) for label, m in r["players"].items()}, r)

    def to_dict(self) -> dict:
        return copy.deepcopy({"settings": self.settings, "positions": self.positions,
                              "players": {k: {"summary": m.summary, "rows": m.rows}
                                          for k, m in self.players.items()}})


def card_regret(settings: RegretSettings, *, store: str | None = None,
                progress: Callable[[str, int, int], None] | None = None) -> CardRegret:
    """Each card's value with the player's own play after it, on random positions of
    held-out deals, for each card player of ``settings``: the regret of his card, the
    share where another is better beyond its 95% interval, the split-half regret and how
    far the printed values are — :func:`~ecarte_sim.analysis.ecarte.play.card_regret.measure`
    — with each player's worst positions: a :class:`CardRegret`. ``store``: a file (JSON
    lines) keeping each position as it is valued, read back on a rerun;
    ``progress(label, done, total)``. The example values a few positions (a minute once
    compiled), so it is marked to skip.

    >>> r = card_regret(RegretSettings(players=("pimc-king:4",), per_cell=1,
    ...                                cap=4))  # doctest: +SKIP
    >>> list(r.players), r.players["pimc-king:4"].positions == r.positions  # doctest: +SKIP
    (['pimc-king:4'], True)
    """
    from ecarte_sim.analysis.ecarte.play import card_regret as CR

    result = CR.measure(settings, store=store, progress=progress)
    for m in result["players"].values():
        m["worst"] = CR.worst(m["rows"])
    return CardRegret.of(result)
