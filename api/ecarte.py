"""Écarté from Python: one function per question, settings in, plain objects out.

Each function takes an :class:`~ecarte_sim.engine.ecarte.settings.EcarteSettings`
(default: Hoyle's list for the elder, the dealer's maxims, the trumps-and-kings
discard, double-dummy play) and returns a dict of plain values, a record object or
a pandas DataFrame — the same figures the ``ecarte-sim`` commands print, which call
these functions. :func:`dealt`, :func:`hand_value`, :func:`simulation` and
:func:`claims_checked` return typed results (:class:`DealtCards`, :class:`HandValue`,
:class:`Simulation`, :class:`CheckedClaims`), whose ``to_dict()`` is what :func:`deal`,
:func:`hand`, :func:`simulate` and :func:`claims` return; :func:`solution` and
:func:`score_values` (:class:`Solution`, :class:`ScoreValues`) are :func:`solve`'s and
:func:`scores`' answers typed. Long runs split their deals into tasks
as the current :func:`ecarte_sim.engine.batch.execution` says (local threads by default); every
result is a pure function of the seed and the deal indices.

>>> import ecarte_sim as es
>>> es.solve("QH AH 7H KS KD", "KH JH 9H 8H 9C", trump="TH")["elder_tricks"]
2
"""

from __future__ import annotations

# The modules of the long studies (claims, paired experiments, score tables) are imported
# by the functions that use them, so that a quick question (``solve``, ``classify``,
# ``deal``) does not pay for loading them.

import copy
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING

import numpy as np

from ecarte_sim.analysis.ecarte.solving.solved import script_for
from ecarte_sim.analysis.stats.intervals import weighted_mean, wilson_interval
from ecarte_sim.analysis.stats.precision import DEFAULT_PRECISION, checkpoints, run_until
from ecarte_sim.engine.batch import DEFAULT_CHUNK
from ecarte_sim.engine.cards import (ECARTE, SUIT_LETTERS, cards_of, format_card, format_cards,
                                     format_hand, parse_hand)
from ecarte_sim.engine.ecarte.deals.counts import whole_counts
from ecarte_sim.engine.ecarte.deals.game import Game, play_game
from ecarte_sim.engine.ecarte.deals.runner import WholeDeal, play_deal
from ecarte_sim.engine.ecarte.deals.simulate import simulate_counts
from ecarte_sim.engine.ecarte.laws.deal import HAND_SIZE, Deal, parse_deal, parse_trump
from ecarte_sim.engine.ecarte.laws.deal import deal as make_deal
from ecarte_sim.engine.ecarte.records import COUNTS
from ecarte_sim.engine.ecarte.search.solver import move_values
from ecarte_sim.engine.ecarte.settings import EcarteSettings, name_of
from ecarte_sim.engine.rng import MAX_DEAL_INDEX  # noqa: F401  (the bound of start + deals)

# pandas is imported by the two functions that return data frames: the rest of the API
# starts without it.

if TYPE_CHECKING:
    from ecarte_sim.analysis.ecarte.claims.decisions import ClaimsSettings

Progress = Callable[[int], None] | None

#: Most deals of a precision-driven ``hand`` run, by whether a player uses PIMC.
HAND_CAP = {False: 1 << 24, True: 1 << 18}


@dataclass(frozen=True)
class DealtCards(Deal):
    """A deal as :func:`dealt` returns it: the engine's
    :class:`~ecarte_sim.engine.ecarte.laws.deal.Deal` (``seed``, ``index``, the
    ``elder``'s and ``dealer``'s hands as bit masks, the ``turn_up`` card and the
    ``stock`` top card first, as card indices) and :meth:`to_dict`, what ``ecarte-sim
    deal --json`` prints (without the provenance)."""

    def to_dict(self, pretty: bool = False) -> dict:
        """Both hands, the turn-up and the stock in draw order in canonical notation
        (``pretty``: the suits as symbols, as ``ecarte-sim deal --pretty`` prints them)."""
        return {"elder": format_hand(self.elder, ECARTE, pretty),
                "dealer": format_hand(self.dealer, ECARTE, pretty),
                "turn_up": format_card(self.turn_up, ECARTE, pretty),
                "stock": format_cards(self.stock, ECARTE, pretty)}


def dealt(seed: int, index: int) -> DealtCards:
    """Deal ``index`` of ``seed``: both hands, the turn-up and the stock in draw order
    (Laws 8, 10), typed (:class:`DealtCards`).

    >>> d = dealt(7, 12345)
    >>> len(d.stock), d.to_dict()["turn_up"] == d.to_dict(pretty=True)["turn_up"]
    (21, False)
    """
    d = make_deal(seed, index)
    return DealtCards(**{f.name: getattr(d, f.name) for f in fields(Deal)})


def deal(seed: int, index: int, *, pretty: bool = False) -> dict:
    """Deal ``index`` of ``seed`` as a dict — :func:`dealt`'s ``to_dict(pretty)``: both
    hands, the turn-up and the stock in draw order (Laws 8, 10), in canonical notation
    (``pretty``: the suits as symbols, as ``ecarte-sim deal --pretty`` prints them).

    >>> deal(7, 12345)["turn_up"] == deal(7, 12345, pretty=True)["turn_up"]
    False
    """
    return dealt(seed, index).to_dict(pretty)


@dataclass(frozen=True)
class Solution:
    """A deal's exact double-dummy value (:func:`solution`): the tricks the elder takes
    with best play (``elder_tricks``) and, for each first lead he may make, the tricks he
    takes after it (``moves``, by card, in the hand's order). :meth:`to_dict` is what
    ``ecarte-sim solve --json`` prints before its provenance (and, with ``--batch``, after
    each line's number)."""
    elder_tricks: int
    moves: dict[str, int]

    def to_dict(self) -> dict:
        return {"elder_tricks": self.elder_tricks, "moves": dict(self.moves)}


def solution(elder: str, dealer: str, trump: str, *, forced_trump: bool = True) -> Solution:
    """Exact double-dummy value of a deal, the elder to lead, no exchange (Law 43): a
    :class:`Solution`. ``trump`` is a suit or the turned-up card; ``forced_trump``: a
    player void in the suit led must trump (Law 43), or need not (the variant).

    >>> s = solution("QH AH 7H KS KD", "KH JH 9H 8H 9C", "TH")
    >>> s.elder_tricks, s.moves["KS"]
    (2, 2)
    """
    e, d, suit, _ = parse_deal(elder, dealer, trump)
    values = move_values(e, d, suit, forced_trump=forced_trump)
    return Solution(max(values.values()),
                    {format_card(c): values[c] for c in cards_of(sum(1 << c for c in values))})


def solve(elder: str, dealer: str, trump: str, *, forced_trump: bool = True) -> dict:
    """Exact double-dummy value of a deal, the elder to lead, no exchange (Law 43):
    ``{"elder_tricks": best, "moves": {first lead: elder tricks}}`` (:func:`solution`
    as a dict). ``trump`` is a suit or the turned-up card."""
    return solution(elder, dealer, trump, forced_trump=forced_trump).to_dict()


@dataclass(frozen=True)
class PlayedDeal(WholeDeal):
    """A whole deal as :func:`play` returns it: the record's fields (cards as bit masks,
    as the kernel wrote them; see :class:`~ecarte_sim.engine.ecarte.deals.runner.WholeDeal`),
    where it came from, and its readable forms — :meth:`to_dict` (cards, exchanges,
    tricks, points, marks and the reason of every decision: what ``ecarte-sim play
    --json`` prints, without the provenance), :meth:`narrative` (the lines ``ecarte-sim play`` prints) and
    ``str()`` (those lines joined)."""

    seed: int = 0
    index: int = 0
    elder_score: int = 0
    dealer_score: int = 0
    settings: EcarteSettings = field(default_factory=EcarteSettings)

    def to_dict(self) -> dict:
        """The deal as plain values, card names in canonical ASCII (``"QH"``)."""
        from ecarte_sim.analysis.ecarte.text.narrative import deal_data
        return {"seed": self.seed, "index": self.index,
                "score_before": {"elder": self.elder_score, "dealer": self.dealer_score},
                "settings": self.settings.echo(), **deal_data(self, self.settings)}

    def narrative(self, pretty: bool = False) -> list[str]:
        """The deal told line by line, every decision with its reason; ``pretty`` writes
        the cards with suit symbols."""
        from ecarte_sim.analysis.ecarte.text.narrative import tell_deal
        return [f"Deal {self.index} of seed {self.seed}; score elder {self.elder_score}, "
                f"dealer {self.dealer_score}.",
                *tell_deal(self, pretty, settings=self.settings)]

    def __str__(self) -> str:
        return "\n".join(self.narrative())


@dataclass
class PlayedGame(Game):
    """A game as :func:`game` returns it: the :class:`~ecarte_sim.engine.ecarte.deals.game.Game`
    record (each deal a :class:`~ecarte_sim.engine.ecarte.deals.runner.WholeDeal`) with the
    settings it was played under, and its readable forms — :meth:`to_dict` (what
    ``ecarte-sim game --json`` prints, without the provenance), :meth:`narrative` (the lines ``ecarte-sim game``
    prints) and ``str()``."""

    settings: EcarteSettings = field(default_factory=EcarteSettings)

    def to_dict(self) -> dict:
        """The game as plain values: every deal's cards, tricks, marks and reasons."""
        from ecarte_sim.analysis.ecarte.text.narrative import game_data
        return {"settings": self.settings.echo(), **game_data(self, self.settings)}

    def narrative(self, pretty: bool = False, verbose: bool = False) -> list[str]:
        """The game told deal by deal (each deal in full with ``verbose``)."""
        from ecarte_sim.analysis.ecarte.text.narrative import tell_game
        return tell_game(self, pretty, verbose, settings=self.settings)

    def __str__(self) -> str:
        return "\n".join(self.narrative())


def play(seed: int, index: int, settings: EcarteSettings | None = None, *,
         elder_score: int = 0, dealer_score: int = 0) -> PlayedDeal:
    """Deal ``index`` of ``seed`` played whole under ``settings`` from the given score
    (a mark reaching five ends it), card by card: a :class:`PlayedDeal` — the record,
    ``.to_dict()`` (``ecarte-sim play --json``), ``.narrative()`` and ``str()`` (the
    deal told, every decision with its reason). See also
    :func:`ecarte_sim.analysis.ecarte.text.reasons.deal_reasons`."""
    settings = settings or EcarteSettings()
    d = play_deal(seed, index, settings.cfg(elder_score=elder_score,
                                            dealer_score=dealer_score, target=5,
                                            trick_by_trick=True), script_for(settings))
    return PlayedDeal(**{f.name: getattr(d, f.name) for f in fields(WholeDeal)},
                      seed=int(seed), index=int(index), elder_score=int(elder_score),
                      dealer_score=int(dealer_score), settings=settings)


def game(seed: int, game: int = 0, settings: EcarteSettings | None = None) -> PlayedGame:
    """Game ``game`` of ``seed`` (``game`` counts from 0, as ``--game`` does; it is told
    as game ``game + 1``): A and B play five up with the same policies, by role. A
    :class:`PlayedGame` — the record, ``.to_dict()`` (``ecarte-sim game --json``),
    ``.narrative()`` and ``str()`` (the game told)."""
    settings = settings or EcarteSettings()
    g = play_game(seed, game, settings.cfg(trick_by_trick=True), script=script_for(settings))
    return PlayedGame(**{f.name: getattr(g, f.name) for f in fields(Game)}, settings=settings)


def _mean_ci(values_counts: list[tuple[int, int]]) -> tuple[float, float, float]:
    """Mean and normal 95% interval of an integer variable from (value, count) pairs."""
    values, counts = zip(*values_counts)
    r = weighted_mean(counts, values)
    return r["mean"], r["ci95"][0], r["ci95"][1]


def whole_summary(counts: np.ndarray, n_deals: int) -> dict:
    """The figures of :func:`simulate` from the summed counts of ``n_deals`` whole deals:
    marks per deal (joint table), mean marks with 95% intervals, the elder's point rate
    with its Wilson interval, Law 49, exchanges, the stock and the kings."""
    f = COUNTS.read(counts)
    marks = f["marks"]
    joint = [[marks[4 * e + d] for d in range(4)] for e in range(4)]
    elder = [sum(row) for row in joint]
    dealer = [sum(joint[e][d] for e in range(4)) for d in range(4)]
    outcomes = list(f["outcome"])
    played = sum(outcomes)
    result = {"marks": {"elder": elder, "dealer": dealer, "joint": joint}}
    diff = [(e - d, joint[e][d]) for e in range(4) for d in range(4) if joint[e][d]]
    me, lo_e, hi_e = _mean_ci([(e, c) for e, c in enumerate(elder) if c])
    md, lo_d, hi_d = _mean_ci([(d, c) for d, c in enumerate(dealer) if c])
    mdiff, lo, hi = _mean_ci(diff)
    result["mean_marks"] = {"elder": me, "elder_ci95": [lo_e, hi_e], "dealer": md,
                            "dealer_ci95": [lo_d, hi_d], "difference": mdiff,
                            "difference_ci95": [lo, hi]}
    result["outcomes"] = dict(zip(("dealer_vole", "dealer_point", "elder_point", "elder_vole"),
                                  outcomes))
    result["played"] = played
    if played:
        wins = outcomes[2] + outcomes[3]
        result["elder_point_rate"] = wins / played
        result["elder_point_ci95"] = list(wilson_interval(wins, played))
    result["law_49"] = dict(zip(("none", "played_without_proposing", "refused_first"),
                                f["first"]))
    result["exchanges_per_deal"] = f["exchanges"] / n_deals
    result["stock_exhausted"] = f["stock_out"]
    result["kings"] = {"turned": f["king_turned"], "elder_in_hand": f["king_elder"],
                       "dealer_in_hand": f["king_dealer"]}
    if f["infer_worlds"]:
        from ecarte_sim.analysis.ecarte.play.inference_value import inference_work
        result["inference"] = inference_work(f)
    return result



@dataclass(frozen=True, slots=True)
class Simulation:
    """Whole deals played (:func:`simulation`): the run's identity (``deals``, ``seed``,
    ``start``, the ``settings`` as ``--json`` echoes them); the deals on which the elder
    (``elder_marks``) and the dealer (``dealer_marks``) scored 0, 1, 2 and 3 marks and the
    ``joint`` table (elder by dealer); the mean marks per deal of each (``elder_mean``,
    ``dealer_mean``) and their ``difference``, each with its normal 95% interval; the
    ``outcomes`` (dealer vole, dealer point, elder point, elder vole: deal counts), the
    deals ``played`` and the elder's ``point_rate`` among them with its Wilson 95%
    interval (None when none was played); ``law_49`` (no penalty, played without
    proposing, first proposal refused), ``exchanges_per_deal``, ``stock_exhausted``,
    ``kings`` (turned, in the elder's hand, in the dealer's) and, for the inferring
    players, the ``inference`` work (else None). :meth:`to_dict` is what ``ecarte-sim
    simulate --json`` prints before its provenance."""
    deals: int
    seed: int
    start: int
    settings: dict
    elder_marks: tuple[int, ...]
    dealer_marks: tuple[int, ...]
    joint: tuple[tuple[int, ...], ...]
    elder_mean: float
    elder_mean_ci95: tuple[float, float]
    dealer_mean: float
    dealer_mean_ci95: tuple[float, float]
    difference: float
    difference_ci95: tuple[float, float]
    outcomes: dict[str, int]
    played: int
    point_rate: float | None
    point_rate_ci95: tuple[float, float] | None
    law_49: dict[str, int]
    exchanges_per_deal: float
    stock_exhausted: int
    kings: dict[str, int]
    inference: dict | None

    @classmethod
    def of(cls, deals: int, seed: int, start: int, settings: dict,
           summary: dict) -> Simulation:
        """The figures of :func:`whole_summary` read into their fields."""
        m, mean = summary["marks"], summary["mean_marks"]
        ci = summary.get("elder_point_ci95")
        return cls(deals, seed, start, settings, tuple(m["elder"]), tuple(m["dealer"]),
                   tuple(tuple(row) for row in m["joint"]), mean["elder"],
                   tuple(mean["elder_ci95"]), mean["dealer"], tuple(mean["dealer_ci95"]),
                   mean["difference"], tuple(mean["difference_ci95"]),
                   dict(summary["outcomes"]), summary["played"],
                   summary.get("elder_point_rate"), None if ci is None else tuple(ci),
                   dict(summary["law_49"]), summary["exchanges_per_deal"],
                   summary["stock_exhausted"], dict(summary["kings"]),
                   summary.get("inference"))

    def to_dict(self) -> dict:
        out = {"deals": self.deals, "seed": self.seed, "start": self.start,
               "settings": copy.deepcopy(self.settings),
               "marks": {"elder": list(self.elder_marks), "dealer": list(self.dealer_marks),
                         "joint": [list(row) for row in self.joint]},
               "mean_marks": {"elder": self.elder_mean, "elder_ci95": list(self.elder_mean_ci95),
                              "dealer": self.dealer_mean,
                              "dealer_ci95": list(self.dealer_mean_ci95),
                              "difference": self.difference,
                              "difference_ci95": list(self.difference_ci95)},
               "outcomes": dict(self.outcomes), "played": self.played}
        if self.point_rate_ci95 is not None:
            out["elder_point_rate"] = self.point_rate
            out["elder_point_ci95"] = list(self.point_rate_ci95)
        out.update({"law_49": dict(self.law_49), "exchanges_per_deal": self.exchanges_per_deal,
                    "stock_exhausted": self.stock_exhausted, "kings": dict(self.kings)})
        if self.inference is not None:
            out["inference"] = copy.deepcopy(self.inference)
        return out


def simulation(deals: int, *, seed: int = 0, start: int = 0,
               settings: EcarteSettings | None = None, chunk: int | None = None,
               progress: Progress = None) -> Simulation:
    """Deals ``[start, start + deals)`` of ``seed`` played whole under ``settings``:
    the figures of :func:`whole_summary`, typed (:class:`Simulation`).

    >>> s = simulation(2000, seed=1)
    >>> s.deals, sum(s.elder_marks) == s.deals, s.point_rate_ci95[0] < s.point_rate
    (2000, True, True)
    """
    settings = settings or EcarteSettings()
    counts = whole_counts(seed, start, start + deals, settings.cfg(), script_for(settings),
                          chunk=chunk or settings.chunk(), block=settings.task_size(),
                          progress=progress)
    return Simulation.of(deals, seed, start, settings.echo(), whole_summary(counts, deals))


def simulate(deals: int, *, seed: int = 0, start: int = 0,
             settings: EcarteSettings | None = None, chunk: int | None = None,
             progress: Progress = None) -> dict:
    """Deals ``[start, start + deals)`` of ``seed`` played whole under ``settings``:
    the figures of :func:`whole_summary`, with the run's identity first — :func:`simulation`
    as a dict, what ``ecarte-sim simulate --json`` prints."""
    return simulation(deals, seed=seed, start=start, settings=settings, chunk=chunk,
                      progress=progress).to_dict()


def simulate_cards(deals: int, *, seed: int = 0, start: int = 0, forced_trump: bool = True,
                   chunk: int | None = None, progress: Progress = None) -> dict:
    """The cards alone: deals ``[start, start + deals)`` solved double dummy as dealt (no
    proposal): the elder's tricks, his point rate with its Wilson interval, the voles."""
    counts = simulate_counts(seed, start, start + deals, "exact", forced_trump,
                             chunk=chunk or DEFAULT_CHUNK, progress=progress)
    tricks = [int(c) for c in counts[:6]]
    points = sum(tricks[3:])
    lo, hi = wilson_interval(points, deals)
    return {"deals": deals, "seed": seed, "start": start, "forced_trump": forced_trump,
            "tricks": tricks, "point_rate": points / deals, "ci95": [lo, hi],
            "elder_vole_rate": tricks[5] / deals, "dealer_vole_rate": tricks[0] / deals}


#: The tables of :class:`ScoreValues`, in the order ``scores --json`` prints them.
SCORE_TABLES = ("i_deal_next", "i_deal_next_ci95", "opponent_deals_next",
                "opponent_deals_next_ci95")


@dataclass(frozen=True)
class ScoreValues:
    """P(win five up) from every score (:func:`score_values`): the run (``deals``,
    ``seed``, ``bootstrap`` replicates, the ``settings`` as ``--json`` echoes them) and
    two 5 x 5 tables seen by one player, rows his score, columns his opponent's: when the
    next deal is his (``i_deal_next``) and when it is the opponent's, he being the elder
    (``opponent_deals_next``), each cell with its 95% bootstrap interval (the ``_ci95``
    tables, [low, high] a cell). :meth:`to_dict` is what ``ecarte-sim scores --json``
    prints between its command and its provenance; :meth:`tables` the four tables, what
    :func:`scores` returns."""
    deals: int
    seed: int
    bootstrap: int
    settings: dict
    i_deal_next: list[list[float]] = field(repr=False)
    i_deal_next_ci95: list = field(repr=False)
    opponent_deals_next: list[list[float]] = field(repr=False)
    opponent_deals_next_ci95: list = field(repr=False)

    def tables(self) -> dict:
        return copy.deepcopy({k: getattr(self, k) for k in SCORE_TABLES})

    def to_dict(self) -> dict:
        return {"deals": self.deals, "seed": self.seed, "bootstrap": self.bootstrap,
                "settings": copy.deepcopy(self.settings), "rows": "my score 0-4",
                "columns": "opponent 0-4", **self.tables()}


def score_values(deals: int = 1_000_000, *, seed: int = 0,
                 settings: EcarteSettings | None = None, bootstrap: int = 200,
                 progress: Progress = None) -> ScoreValues:
    """P(win five up) from every score by the exact recursion over the outcomes of
    ``deals`` whole deals, with 95% bootstrap intervals: a :class:`ScoreValues`.

    >>> v = score_values(2000, bootstrap=0)
    >>> len(v.i_deal_next), round(v.i_deal_next[4][4] + v.opponent_deals_next[4][4], 12)
    (5, 1.0)
    """
    from ecarte_sim.analysis.ecarte.measures.scores import player_tables, win_table

    settings = settings or EcarteSettings()
    counts = whole_counts(seed, 0, deals, settings.cfg(), script_for(settings),
                          block=settings.task_size(), progress=progress)
    t = win_table(counts, bootstrap, seed)
    return ScoreValues(deals, seed, bootstrap, settings.echo(),
                       **player_tables(t["v"], t["lo"], t["hi"]))


def scores(deals: int = 1_000_000, *, seed: int = 0, settings: EcarteSettings | None = None,
           bootstrap: int = 200, progress: Progress = None) -> dict:
    """P(win five up) from every score by the exact recursion over the outcomes of
    ``deals`` whole deals, with 95% bootstrap intervals: ``{"i_deal_next": 5 x 5, ...}``
    (rows the player's score, columns the opponent's; :meth:`ScoreValues.tables` of
    :func:`score_values`)."""
    return score_values(deals, seed=seed, settings=settings, bootstrap=bootstrap,
                        progress=progress).tables()


@dataclass(frozen=True, slots=True)
class HandArm:
    """One way of playing a hand (:class:`HandValue`'s ``play`` or ``propose``): P(point)
    ``point`` with its 95% interval ``ci95``, P(vole) ``vole`` (``vole_ci95``) and the
    elder's marks per deal ``expected_points`` (``expected_points_ci95``; elder minus
    dealer, kings and Law 49 included), on ``n`` deals; ``exact``: every deal enumerated
    (the intervals are then the figures themselves)."""
    point: float
    vole: float
    expected_points: float
    n: int
    exact: bool
    ci95: tuple[float, float]
    vole_ci95: tuple[float, float]
    expected_points_ci95: tuple[float, float]

    @classmethod
    def of(cls, summary: dict, exact: bool) -> HandArm:
        return cls(summary["point"], summary["vole"], summary["expected_points"],
                   int(summary["n"]), exact, tuple(summary["point_ci95"]),
                   tuple(summary["vole_ci95"]), tuple(summary["expected_points_ci95"]))

    def to_dict(self) -> dict:
        return {"point": self.point, "vole": self.vole,
                "expected_points": self.expected_points, "n": self.n, "exact": self.exact,
                "ci95": list(self.ci95), "vole_ci95": list(self.vole_ci95),
                "expected_points_ci95": list(self.expected_points_ci95)}


@dataclass(frozen=True, slots=True)
class HandValue:
    """How good a hand is for the elder (:func:`hand_value`): the ``hand`` (canonical
    notation), the ``trump`` letter, the ``turn_up`` (None: drawn from the suit), the
    elder's play ``model``, the ``seed`` and the ``settings`` (as ``--json`` echoes them);
    ``play`` (without proposing) and ``propose`` (proposing first), each a
    :class:`HandArm`; ``play_minus_propose`` (marks per deal, paired on the same sampled
    deals) with its 95% interval ``play_minus_propose_ci95`` on ``paired_n`` deals; and
    when run to a precision, its ``precision`` target, the ``worst_half_width`` reached
    and whether it was ``reached`` (all three None on a fixed number of deals).
    :meth:`to_dict` is what ``ecarte-sim hand --json`` prints before its provenance."""
    hand: str
    trump: str
    turn_up: str | None
    model: str
    seed: int
    settings: dict
    play: HandArm
    propose: HandArm
    play_minus_propose: float
    play_minus_propose_ci95: tuple[float, float]
    paired_n: int
    precision: float | None
    worst_half_width: float | None
    reached: bool | None

    def to_dict(self) -> dict:
        return {"hand": self.hand, "trump": self.trump, "turn_up": self.turn_up,
                "model": self.model, "seed": self.seed, "settings": copy.deepcopy(self.settings),
                "play": self.play.to_dict(), "propose": self.propose.to_dict(),
                "play_minus_propose": {"expected_points": self.play_minus_propose,
                                       "ci95": list(self.play_minus_propose_ci95),
                                       "n": self.paired_n, "paired": True},
                "precision": None if self.precision is None else {
                    "target": self.precision, "worst_half_width": self.worst_half_width,
                    "reached": self.reached}}


def hand(hand: str, trump: str, settings: EcarteSettings | None = None, *, exact: bool = False,
         seed: int = 0, precision: float = DEFAULT_PRECISION, deals: int | None = None,
         max_deals: int | None = None, progress: Callable[[str, int], None] | None = None
         ) -> dict:
    """How good is ``hand`` for the elder — :func:`hand_value` (the same arguments), as a
    dict: what ``ecarte-sim hand --json`` prints."""
    return hand_value(hand, trump, settings, exact=exact, seed=seed, precision=precision,
                      deals=deals, max_deals=max_deals, progress=progress).to_dict()


def hand_value(hand: str, trump: str, settings: EcarteSettings | None = None, *,
               exact: bool = False, seed: int = 0, precision: float = DEFAULT_PRECISION,
               deals: int | None = None, max_deals: int | None = None,
               progress: Callable[[str, int], None] | None = None) -> HandValue:
    """How good is ``hand`` for the elder: P(point), P(vole) and marks per deal played
    without proposing and proposing first, on the same deals dealt around it (the paired
    difference), until both P(point) intervals have half-width <= ``precision`` (at most
    ``max_deals``), or on exactly ``deals`` deals; ``exact=True`` enumerates every dealer
    hand and turn-up for play without proposing (dd or heuristic); proposing first draws
    from the stock, so its row and the paired difference stay sampled.
    ``progress(label, n)`` is told the deals done.

    >>> v = hand_value("QH AH 7H KS KD", "KH", deals=1000)
    >>> lo, hi = v.play_minus_propose_ci95
    >>> v.hand, v.play.n, v.play.exact, lo < v.play_minus_propose < hi, v.precision
    ('KS QH AH 7H KD', 1000, False, True, None)
    """
    from ecarte_sim.analysis.ecarte.measures import paired as AP
    from ecarte_sim.engine.ecarte.deals.experiments import exact_codes, hand_table

    settings = settings or EcarteSettings()
    if exact and (deals is not None or max_deals is not None):
        raise ValueError("--exact enumerates every deal: --deals and --max-deals do not apply")
    elder = int(parse_hand(hand, HAND_SIZE, name="hand"))
    suit, turn_up = parse_trump(trump, [("hand", elder)])
    play_cfg = settings.cfg(elder_first="play")
    head = {"hand": format_hand(elder, ECARTE), "trump": SUIT_LETTERS[suit],
            "turn_up": None if turn_up is None else format_card(turn_up, ECARTE),
            "model": name_of(settings.elder_play), "seed": seed, "settings": settings.echo()}
    tell = progress or (lambda label, n: None)
    if exact:
        if settings.uses_pimc:
            raise ValueError("--exact needs a deterministic play model (dd or heuristic): "
                             "PIMC's sampled worlds make each deal random")
        codes = exact_codes(elder, turn_up, suit, play_cfg,
                            progress=lambda n: tell("enumerating", n))
        exact_play = HandArm.of(AP.exact_summary(codes), True)
    propose_cfg = settings.cfg(elder_first="propose")

    script = script_for(settings)

    def step(lo, hi):
        return hand_table(seed, lo, hi, elder, turn_up, suit, play_cfg, propose_cfg,
                          chunk=settings.chunk(), block=settings.task_size(),
                          progress=lambda n: tell("dealing", n), script=script)

    def check(joint):
        a = AP.arm_summary(joint.sum(axis=1))
        b = AP.arm_summary(joint.sum(axis=0))
        worst = max(AP.half_width(a["point_ci95"]), AP.half_width(b["point_ci95"]))
        return worst <= precision, worst, {}

    cap = max_deals or HAND_CAP[settings.uses_pimc]
    joint, n, worst = run_until(step, checkpoints(cap, deals), check)
    # with exact, the play arm is the enumeration's; proposing draws from the stock, so
    # its row (and the paired difference) is sampled as without exact
    play = exact_play if exact else HandArm.of(AP.arm_summary(joint.sum(axis=1)), False)
    diff = AP.paired_mean(joint, AP.NET.astype(float))
    return HandValue(**head, play=play,
                     propose=HandArm.of(AP.arm_summary(joint.sum(axis=0)), False),
                     play_minus_propose=diff["mean"],
                     play_minus_propose_ci95=tuple(diff["ci95"]), paired_n=diff["n"],
                     precision=None if deals else precision,
                     worst_half_width=None if deals else worst,
                     reached=None if deals else worst <= precision)


@dataclass(frozen=True, slots=True)
class Claim:
    """One claim of the treatise measured under one play model (:class:`CheckedClaims`'s
    ``claims``): its ``id``, the ``reading`` and ``subset`` measured, the ``measure``, the
    ``estimate`` with its 95% interval ``ci95`` on ``n`` (``exact``: counted over every
    case), the ``verdict`` by the ``rule`` fixed before the run, the treatise's ``quote``
    and its ``source``, whether it is a ``headline`` figure, and for paired differences
    the paired and unpaired standard errors (None otherwise)."""
    id: str
    model: str
    reading: str
    subset: str
    measure: str
    estimate: float
    ci95: tuple[float, float]
    n: int
    verdict: str
    rule: str
    quote: str
    source: str
    headline: bool
    exact: bool
    paired_se: float | None = None
    unpaired_se: float | None = None

    @classmethod
    def of(cls, row: dict) -> Claim:
        return cls(row["id"], row["model"], row["reading"], row["subset"], row["measure"],
                   row["estimate"], tuple(row["ci95"]), row["n"], row["verdict"], row["rule"],
                   row["quote"], row["source"], row["headline"], row["exact"],
                   row.get("paired_se"), row.get("unpaired_se"))


@dataclass(frozen=True, slots=True)
class ClaimsModelRun:
    """How one play model's claims run went (:class:`CheckedClaims`'s ``models``): its
    ``seconds``, the ``deals`` of each experiment, the worst half-width of the headline
    figures and of the rules' rows (``worst_half_width``, ``worst_rule_half_width``), the
    rules' target ``rule_precision``, whether the precision was reached, and the
    ``classes`` sampled."""
    seconds: float
    deals: dict
    worst_half_width: float
    worst_rule_half_width: float
    rule_precision: float
    precision_reached: bool
    classes: dict

    @classmethod
    def of(cls, run: dict) -> ClaimsModelRun:
        return cls(run["seconds"], run["deals"], run["worst_half_width"],
                   run["worst_rule_half_width"], run["rule_precision"],
                   run["precision_reached"], run["classes"])


@dataclass(frozen=True)
class CheckedClaims:
    """Every claim of the treatise checked (:func:`claims_checked`): ``claims``, one
    :class:`Claim` a claim and play model (``headline``: the headline figures alone), and
    ``models``, each model's :class:`ClaimsModelRun`. :meth:`to_dict` is the whole payload
    ``ecarte-sim claims --json`` prints and its report is written from (the
    explanations, the disagreements, the rules' table, play minus propose, the win by
    score, the precision history and the provenance too; a copy)."""
    claims: tuple[Claim, ...]
    models: dict[str, ClaimsModelRun]
    payload: dict = field(repr=False)

    @property
    def headline(self) -> tuple[Claim, ...]:
        return tuple(c for c in self.claims if c.headline)

    def to_dict(self) -> dict:
        return copy.deepcopy(self.payload)


def claims(models: tuple[str, ...] | None = None, settings: ClaimsSettings | None = None,
           command: str = "ecarte_sim.claims", progress: Callable[[str, int], None] | None = None
           ) -> dict:
    """Every claim of the treatise for each play model (``models``; None: every model of
    :data:`ecarte_sim.analysis.ecarte.claims.decisions.DEFAULT_MODELS`; ``pimc-inference`` by
    name), with estimate, 95% interval, n and
    verdict (:mod:`ecarte_sim.analysis.ecarte.claims.decisions`); see :func:`claims_frame`.
    :func:`claims_checked` as a dict."""
    return claims_checked(models, settings, command, progress).to_dict()


def claims_checked(models: tuple[str, ...] | None = None,
                   settings: ClaimsSettings | None = None, command: str = "ecarte_sim.claims",
                   progress: Callable[[str, int], None] | None = None) -> CheckedClaims:
    """Every claim of the treatise for each play model, typed (:class:`CheckedClaims`):
    the arguments of :func:`claims`.

    >>> c = claims_checked(("dd",), claims_settings(deals=256))
    >>> sorted(c.models), c.headline[0].model, c.headline[0].n > 0
    (['dd'], 'dd', True)
    """
    from ecarte_sim.analysis.ecarte.claims.decisions import (DEFAULT_MODELS, ClaimsSettings,
                                                             run_claims)

    models = DEFAULT_MODELS if models is None else models
    payload = run_claims(list(models), settings or ClaimsSettings(), command, progress=progress)
    return CheckedClaims(tuple(Claim.of(r) for r in payload["claims"]),
                         {m: ClaimsModelRun.of(r) for m, r in payload["models"].items()},
                         payload)


def claims_models(models: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The play models a claims run tests: ``models`` in the order given, each once, or
    (none given) every model of
    :data:`~ecarte_sim.analysis.ecarte.claims.decisions.DEFAULT_MODELS`.

    >>> claims_models(("pimc", "dd", "pimc"))
    ['pimc', 'dd']
    """
    from ecarte_sim.analysis.ecarte.claims.decisions import DEFAULT_MODELS

    return list(dict.fromkeys(models)) or list(DEFAULT_MODELS)


def claims_settings(*, seed: int = 0, precision: float = DEFAULT_PRECISION,
                    deals: int | None = None, worlds: int = 64,
                    max_deals: int | None = None) -> ClaimsSettings:
    """The :class:`~ecarte_sim.analysis.ecarte.claims.decisions.ClaimsSettings` of a claims
    run as ``ecarte-sim claims`` takes them: ``deals`` deals per experiment and class
    samples per class (None: run to ``precision``); ``max_deals`` caps every experiment and
    the score table's deals (at least 1,000). :class:`ValueError` when ``deals`` is more
    than the class samples a class has room for (2^23).

    >>> claims_settings(seed=1, max_deals=4096).score_deals["dd"]
    4096
    """
    from ecarte_sim.analysis.ecarte.claims.decisions import EXPERIMENTS, MODELS, ClaimsSettings
    from ecarte_sim.engine.ecarte.deals.class_sampling import MAX_CLASS_SAMPLES

    if deals is not None and deals > MAX_CLASS_SAMPLES:
        raise ValueError(f"{deals} is more than {MAX_CLASS_SAMPLES:,} (2^23, the class "
                         "samples a class has room for)")
    settings = ClaimsSettings(seed=seed, precision=precision, deals=deals, worlds=worlds)
    if max_deals is not None:
        settings.max_deals = {m: dict.fromkeys(EXPERIMENTS, max_deals) for m in MODELS}
        settings.score_deals = {m: max(max_deals, 1000) for m in MODELS}
    return settings


def claims_plan(models: list[str], settings: ClaimsSettings) -> list[tuple[str, int | None]]:
    """The stages of a :func:`claims` run and the deals each will count, for a progress
    display (:func:`~ecarte_sim.analysis.ecarte.claims.decisions.plan`)."""
    from ecarte_sim.analysis.ecarte.claims.decisions import plan

    return plan(list(models), settings)


def claims_frame(payload: dict):
    """The claims of a :func:`claims` payload as a pandas DataFrame, one row per claim,
    subset and play model."""
    import pandas as pd
    return pd.DataFrame(payload["claims"])


def scores_frame(tables: dict):
    """A :func:`scores` result as a long pandas DataFrame: one row per (who deals next, my
    score, the opponent's score) with P(win) and its 95% interval."""
    import pandas as pd
    rows = []
    for key in ("i_deal_next", "opponent_deals_next"):
        for mine in range(5):
            for theirs in range(5):
                lo, hi = tables[key + "_ci95"][mine][theirs]
                rows.append({"next_deal": key, "my_score": mine, "opponent_score": theirs,
                             "p_win": tables[key][mine][theirs], "ci95_lo": lo, "ci95_hi": hi})
    return pd.DataFrame(rows)
