"""The public API's questions of strategy: :func:`advise` (every decision before the play),
:func:`chart` (the strategy card), :func:`cards` (which card to play), :func:`infer`,
:func:`strategy` (its arguments checked once in a :class:`StrategyPlan`) and
:func:`versus`, what the ``ecarte-sim`` commands of those names and the web page's
``/api/advise``, ``/api/chart`` and ``/api/cards`` compute, with typed arguments and
typed results (:class:`Advice`, :class:`Chart`, :class:`CardChoice`, :class:`Versus`; each
``to_dict()`` is the command's ``--json``). Each question is dispatched here, once: the
command line parses, calls and formats; the web app validates, calls and serialises.

A score is given as the commands write it, ``"3-4"``, or as a pair of integers,
``(3, 4)`` — the elder's score first, each 0–4 (five up, Law 46). These functions sit
beside :mod:`~ecarte_sim.api.ecarte` rather than in it because
:mod:`~ecarte_sim.analysis.ecarte.solving.proposal_game` itself reads ``api``.

>>> a = advise("KH QH JH 7S 8D", "H", "0-0", turn_up="9H", values=False)
>>> a["action"], a["strategy"]["against"]
('propose', 'equilibrium')
>>> question = advice("KH QH JH 7S 8D", turn_up="9H", values=False)
>>> question.kind, question.to_dict() == a
('first', True)
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ecarte_sim.engine.ecarte.laws.score import Score
from ecarte_sim.engine.ecarte.settings import EcarteSettings

#: The choices of :func:`strategy`, spelt as the command's options.
AGAINST = ("treatise", "equilibrium")
ROLES = ("elder", "dealer", "both")
DECISIONS = ("first", "discard", "both")


def _choice(value, choices: tuple[str, ...], what: str) -> str:
    if value not in choices:
        raise ValueError(f"unknown {what} {value!r}: choose from {', '.join(choices)}")
    return value


def _count(value, lo: int, hi: int, what: str) -> int | None:
    """An optional integer option in ``[lo, hi]``, as the command's range."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or not lo <= int(value) <= hi:
        raise ValueError(f"{what} {value!r} is not an integer in [{lo}, {hi}]")
    return int(value)


def _pair(ci) -> tuple[float, float]:
    lo, hi = ci
    return float(lo), float(hi)


@dataclass(frozen=True, slots=True)
class ActionValue:
    """An action's value (or the difference of two): ``p_win``, the chance of winning the
    game, and ``marks`` per deal, each with its 95% interval (``p_win_ci95``,
    ``marks_ci95``)."""
    p_win: float
    p_win_ci95: tuple[float, float]
    marks: float
    marks_ci95: tuple[float, float]

    @classmethod
    def of(cls, value: dict) -> ActionValue:
        return cls(float(value["p_win"]), _pair(value["p_win_ci95"]), float(value["marks"]),
                   _pair(value["marks_ci95"]))


@dataclass(frozen=True, slots=True)
class OtherDiscard:
    """A discard the strategy does not make, valued against its own (:class:`Advice`'s
    ``others``): the discard ``rule`` that makes it, the cards it ``throws``, its gain in
    P(win the game) and in marks per deal over the strategy's discard with their 95%
    intervals, on ``n`` deals."""
    rule: str
    throws: str
    gain_win: float
    gain_win_ci95: tuple[float, float]
    gain_marks: float
    gain_marks_ci95: tuple[float, float]
    n: int

    @classmethod
    def of(cls, other: dict) -> OtherDiscard:
        return cls(other["rule"], other["throws"], float(other["gain_win"]),
                   _pair(other["gain_win_ci95"]), float(other["gain_marks"]),
                   _pair(other["gain_marks_ci95"]), int(other["n"]))


@dataclass(frozen=True, slots=True)
class TreatiseSays:
    """What the treatise says of the decision: the ``policy`` read (``regle``: Hoyle's
    list; ``maxims``: the dealer's), the action it ``says``, its ``reason``, and where a
    rule of the list speaks, the ``rule`` and Hoyle's ``words``."""
    policy: str
    says: str
    reason: str
    rule: str | None = None
    words: str | None = None

    @classmethod
    def of(cls, said: dict) -> TreatiseSays:
        return cls(said["policy"], said["says"], said["reason"], said.get("rule"),
                   said.get("words"))


@dataclass(frozen=True, slots=True)
class Advice:
    """One decision advised (:func:`advice`).

    ``kind``: ``"first"`` (propose or play, accept or refuse, before any exchange),
    ``"first discard"``, ``"later"`` (a proposal or its answer after an exchange) or
    ``"later discard"``; ``against`` (``"equilibrium"`` or ``"treatise"``); the ``hand``
    (canonical notation), ``role`` and ``score`` (``"E-D"``), the ``trump`` suit's letter
    and the ``turn_up`` (None where not given).

    A proposal or its answer: ``action`` (the advice), ``table_action`` (the computed
    strategy's table's action; None against the treatise), ``values`` (each action's
    :class:`ActionValue`; empty with ``values=False``), ``gain`` (the first action's over
    the second, named by ``gain_of``, e.g. ``"propose over play"``), ``n`` (the deals or
    worlds valued; None without values), ``too_close`` (the interval of the difference
    holds zero) and ``decided_by_the_deal`` (a king marked at four ends the game first,
    Laws 22-24 and 46; None where not asked). A discard: ``throws``, ``keeps``, the discard
    ``rule`` and ``others`` (each other discard's :class:`OtherDiscard`). ``treatise``:
    what the treatise says (:class:`TreatiseSays`; None where the answer does not say).

    :meth:`to_dict` is what ``ecarte-sim advise --json`` prints (before its provenance)
    and ``/api/advise`` answers: the whole answer, every field above and the rest (the
    settings, the strategy's source, ...)."""
    kind: str
    against: str
    hand: str
    role: str
    score: str
    trump: str | None
    turn_up: str | None
    action: str | None
    table_action: str | None
    values: dict[str, ActionValue]
    gain: ActionValue | None
    gain_of: str | None
    n: int | None
    too_close: bool | None
    decided_by_the_deal: bool | None
    throws: str | None
    keeps: str | None
    rule: str | None
    others: tuple[OtherDiscard, ...]
    treatise: TreatiseSays | None
    result: dict = field(repr=False)

    @classmethod
    def of(cls, kind: str, against: str, result: dict) -> Advice:
        """The library's answer (a dict, as ``--json`` prints it) read into its fields."""
        table = result.get("table_action")
        gain = result.get("gain")
        too_close = result.get("too_close")
        if too_close is None and "decided" in result and "values" in result:
            too_close = not result["decided"]
        said = result.get("treatise")
        return cls(kind, against, result["hand"], result["role"], result["score"],
                   result.get("trump"), result.get("turn_up"), result.get("action"),
                   table["action"] if table is not None else None,
                   {k: ActionValue.of(v) for k, v in result.get("values", {}).items()},
                   None if gain is None else ActionValue.of(gain),
                   None if gain is None else gain["of"],
                   None if result.get("n") is None or "values" not in result
                   else int(result["n"]),
                   too_close, result.get("decided_by_the_deal"), result.get("throws"),
                   result.get("keeps"), result.get("rule") if "throws" in result else None,
                   tuple(OtherDiscard.of(o) for o in result.get("others", ())),
                   None if said is None else TreatiseSays.of(said), result)

    def to_dict(self) -> dict:
        """What ``ecarte-sim advise --json`` prints, before its provenance (a copy)."""
        return copy.deepcopy(self.result)


def is_later(said, discard: bool = False) -> bool:
    """Whether ``said`` asks about a decision after an exchange (an exchange made before
    it: one ``accept``, or two for the discard of the second exchange)."""
    from ecarte_sim.engine.ecarte.laws.history import parse_said
    return parse_said(said).count("accept") - (1 if discard else 0) >= 1


def advice(hand: str, trump: str | None = None, score: str | tuple[int, int] = "0-0",
           role: str = "elder", *, turn_up: str | None = None, against: str = "equilibrium",
           play: str | None = None, worlds: int | None = None, settings=None,
           discard: bool = False, said=None, discards="", elder_took: int | None = None,
           deals: int | None = None, values: bool = True, seed: int = 0) -> Advice:
    """Every decision before the play advised, dispatched here once (the command line's
    ``advise`` and the web page's ``/api/advise`` call it).

    ``hand`` (the ``role``'s five cards now), ``trump`` (a suit or the turned-up card;
    ``turn_up`` alone gives it too), ``score`` (``"E-D"`` or ``(E, D)``). Without ``said``
    (or with nothing accepted before the decision): the first decision, against the
    computed strategy (``against="equilibrium"``, its ``play`` model's; ``values=False``
    reads its table alone) or the best response to the treatise (``"treatise"``, played
    by ``play`` or ``settings``, ``worlds``); ``discard=True``: the first exchange's
    discard. With ``said`` (``"propose,accept"``...), ``discards`` (``"7S 8D:2"``, one
    group per exchange) and for the dealer's later discard ``elder_took``: a later
    decision (:mod:`~ecarte_sim.analysis.ecarte.advice.later_decision`). ``deals`` and
    ``seed`` size and key the values. :class:`ValueError` names a bad argument or a
    question the strategy does not answer.

    >>> a = advice("KS JC 9H 7S KC", "TC", "2-4", deals=1000)
    >>> a.action, a.table_action, a.n, a.gain_of
    ('propose', 'propose', 1000, 'propose over play')
    >>> a.values["propose"].p_win > a.values["play"].p_win, a.treatise.says
    (True, 'play')
    """
    from ecarte_sim.analysis.ecarte.advice import first_decision as first

    if trump is None:
        if turn_up is None:
            raise ValueError("give the trumps: the turned-up card (--turn-up CARD) or the "
                             "trump suit (--trump SUIT)")
        trump = turn_up
    x, y = Score.of(score)
    if said is not None and is_later(said, discard):
        from ecarte_sim.analysis.ecarte.advice import later_decision as later
        if against != "equilibrium":
            raise ValueError("a later decision is advised from the computed strategy "
                             "(against equilibrium, not the treatise)")
        if turn_up is None:
            raise ValueError("a later decision needs the turned-up card (--turn-up CARD)")
        if elder_took is not None and not (discard and role == "dealer"):
            raise ValueError("elder_took (--elder-took) is for the dealer's discard at a "
                             "later exchange (role dealer, discard)")
        if discard:
            if not values:
                raise ValueError("a discard is advised with each discard's values: drop "
                                 "--no-values")
            return Advice.of("later discard", against, later.later_discard_advice(
                hand, turn_up, role, said=said, discards=discards, elder_took=elder_took,
                score=(x, y), play=play, seed=seed, deals=deals))
        return Advice.of("later", against, later.later_advice(
            hand, turn_up, role, said=said, discards=discards, score=(x, y), play=play,
            seed=seed, deals=deals, values=values))
    if (discards or "").strip() or elder_took is not None:
        raise ValueError("discards and elder_took (--discards, --elder-took) describe the "
                         "exchanges made: give what was said with them (said, --said: "
                         "e.g. propose,accept)")
    if discard:
        if not values:
            raise ValueError("a discard is advised with each discard's values: drop "
                             "--no-values")
        if against != "equilibrium":
            raise ValueError("a discard is advised from the computed strategy's discard "
                             "table (against equilibrium, not the treatise)")
        return Advice.of("first discard", against, first.discard_advice(
            hand, trump, (x, y), role, turn_up=turn_up, play=play, seed=seed, deals=deals))
    if against == "treatise":
        if settings is None and (play is not None or worlds is not None):
            settings = EcarteSettings.build(play=play or "dd",
                                            **({"worlds": worlds} if worlds else {}))
        return Advice.of("first", against, first.advise(
            hand, trump, (x, y), role, turn_up=turn_up, against="treatise",
            settings=settings, seed=seed, deals=deals))
    return Advice.of("first", against, first.advise(
        hand, trump, (x, y), role, turn_up=turn_up, against=against, play=play, seed=seed,
        deals=deals, values=values))


def decided_by_the_deal(result: dict) -> bool | None:
    """Whether an advice's two actions win (or lose) on every deal: the game decided before
    the play (a king marked at four, Laws 22-24 and 46)."""
    from ecarte_sim.analysis.ecarte.advice.first_decision import decided_by_the_deal as decided
    return decided(result)


def advise(hand: str, trump: str | None = None, score: str | tuple[int, int] = "0-0",
           role: str = "elder", **options) -> dict:
    """What to do with ``hand`` (the ``role``'s five cards; ``trump`` a suit or the
    turned-up card) at ``score`` (``"E-D"`` or ``(E, D)``): the shipped equilibrium's
    action (``against="treatise"``: the best response to Hoyle's pair), each action's
    probability of winning the game and marks per deal with 95% intervals, and what the
    treatise says; ``discard=True`` the discard; ``said`` a later decision — :func:`advice`
    (``options``: its keywords), as a dict. What ``ecarte-sim advise --json`` prints."""
    return advice(hand, trump, score, role, **options).to_dict()


@dataclass(frozen=True)
class Chart:
    """The strategy card of one role at one score (:func:`chart`): ``card`` (the cells:
    :class:`ecarte_sim.analysis.ecarte.solving.chart.Chart`), where it comes from
    (``source``, ``made_by``, the ``solved`` strategy or None for the treatise's own
    table) and how the dealer's cells are weighed; :meth:`to_dict` is what ``ecarte-sim
    chart --json`` prints before its file and provenance."""
    role: str
    score: str
    against: str
    play: str | None
    source: str
    made_by: str | None
    weigh: str
    round: str
    card: object
    solved: object

    def to_dict(self) -> dict:
        return {"score": self.score, "play": self.play, "against": self.against,
                "source": self.source, "made_by": self.made_by, **self.card.to_dict()}

    @property
    def column_labels(self) -> list[str]:
        """Each column's label under its group, as the chart's header shows it."""
        from ecarte_sim.analysis.ecarte.solving.chart import sub_label
        return [sub_label(c) for c in self.card.columns]


def chart(role: str = "elder", score: str | tuple[int, int] = "0-0", *,
          against: str = "equilibrium", play: str | None = None, columns: str | None = None,
          weigh: str = "proposed", round: str = "first") -> Chart:
    """The strategy card of ``role`` at ``score``, computed here once (``ecarte-sim
    chart`` and the web page's ``/api/chart``): the shipped strategy's table (its
    ``play`` model's; ``round="later"`` the later rounds' table) or the treatise's own
    (``against="treatise"``), in cells of ``columns``, each cell the action on most of its
    hands and the share it is; the dealer's cells weighed by the hands he is proposed to
    (``weigh="proposed"``) or as dealt. :class:`ValueError` names a bad argument."""
    from ecarte_sim.analysis.ecarte.solving import chart as card
    from ecarte_sim.analysis.ecarte.solving import solved as shipped

    _choice(role, ("elder", "dealer"), "role")
    _choice(against, ("equilibrium", "treatise"), "against")
    _choice(weigh, ("proposed", "dealt"), "weigh")
    _choice(round, ("first", "later"), "round")
    s = Score.of(score)
    e, d = s
    treatise = card.treatise_tables()[role]
    if against == "treatise":
        if play is not None:
            raise ValueError("play (--play) names a solved strategy; against the treatise "
                             "the chart is the treatise's own table")
        solved, table, gain = None, treatise, None
        elder = card.treatise_tables()["elder"]
    else:
        try:
            solved = shipped.load(play)
        except ValueError as exc:
            raise ValueError(f"{exc} (against the treatise the chart is the treatise's own "
                             "table)") from None
        row = s.row
        table, gain, elder = solved.table(role)[row], solved.gain(role)[row], solved.elder[row]
        if round == "later":
            table, gain = solved.later_table(role)[row], None
            elder = solved.later_table("elder")[row]
    source = card.source_line(solved) + (
        "; the later rounds (a proposal after an exchange, its answer)" if round == "later"
        else "")
    weights, weighting = None, "dealt hands"
    if role == "dealer" and weigh == "proposed" and round == "first":
        from ecarte_sim.engine.ecarte.decisions.states import state_weights
        weights = state_weights() * card.proposal_chance(elder)
        whose = "Hoyle's list" if solved is None else f"the elder's table at {e}-{d}"
        weighting = (f"how often it is dealt times the chance that the elder "
                     f"proposes by {whose} ({card.PROPOSAL_SAMPLES} sampled elder hands "
                     f"a state, seed 0)")
    result = card.compute(role, table, gain, treatise, scheme=columns or card.DEFAULT_COLUMNS,
                          weights=weights, weighting=weighting)
    return Chart(role, s.text, against, solved.play if solved is not None else None, source,
                 card.made_by(solved), weigh if role == "dealer" and round == "first"
                 else "dealt", round, result, solved)


def chart_compare(play: str | None, other: str, *, columns: str | None = None) -> dict:
    """Where two solved strategies part (``ecarte-sim chart --play P --compare Q``): at
    every score and for both roles the share of hands whose first decision differs, and
    the cells that differ: ``{"first", "second"}`` (the strategies),
    ``{"first_source", "second_source"}`` and ``rows`` (a DataFrame)."""
    from ecarte_sim.analysis.ecarte.solving import chart as card
    from ecarte_sim.analysis.ecarte.solving import solved as shipped

    first, second = shipped.load(play), shipped.load(other)
    return {"first": first, "second": second, "first_source": card.source_line(first),
            "second_source": card.source_line(second),
            "rows": card.compare(first, second, scheme=columns or card.DEFAULT_COLUMNS)}


def _pair_or_none(ci) -> tuple[float, float] | None:
    return None if ci is None else _pair(ci)


@dataclass(frozen=True, slots=True)
class CardValue:
    """One legal card's value for the player to move (:class:`CardChoice`'s ``cards``):
    ``point`` (the share of the worlds on which he wins the point) with its Wilson 95%
    interval, ``vole``, ``marks`` per deal with its normal 95% interval (None when the
    worlds are every hand he may hold), and with a given adversary's hand its double-dummy
    ``dd_tricks`` (the elder's) and ``dd_marks`` (None otherwise)."""
    card: str
    point: float
    point_ci95: tuple[float, float] | None
    vole: float
    marks: float
    marks_ci95: tuple[float, float] | None
    dd_tricks: int | None = None
    dd_marks: int | None = None

    @classmethod
    def of(cls, row: dict) -> CardValue:
        return cls(row["card"], float(row["point"]), _pair_or_none(row["point_ci95"]),
                   float(row["vole"]), float(row["marks"]), _pair_or_none(row["marks_ci95"]),
                   row.get("dd_tricks"), row.get("dd_marks"))


@dataclass(frozen=True, slots=True)
class CardChoice:
    """Which card to lead or play (:func:`cards`): the ``role`` to move, his ``hand`` now,
    the ``turn_up`` and ``trump`` letter, ``to_play`` (``"lead"`` or ``"reply"``, to the
    card ``led``), what was ``said`` and the ``score``; the inferring player's card
    ``best``, found by the ``chooser`` with the adversary's ``model`` over ``worlds``
    worlds keyed by ``seed`` (``every_hand``: the worlds are every hand he may hold);
    ``cards``, each legal card's :class:`CardValue`; with the adversary's hand given
    (``opponent``), ``dd_best``, the double-dummy best cards. :meth:`to_dict` is what
    ``ecarte-sim cards --json`` prints (before its provenance) and ``/api/cards`` answers,
    the continuation's values (``continuation``) included."""
    role: str
    hand: str
    turn_up: str
    trump: str
    to_play: str
    led: str | None
    said: tuple[str, ...]
    score: str
    best: str
    chooser: str
    model: str
    worlds: int
    seed: int
    every_hand: bool
    opponent: str | None
    dd_best: tuple[str, ...] | None
    cards: tuple[CardValue, ...]
    result: dict = field(repr=False)

    @classmethod
    def of(cls, result: dict) -> CardChoice:
        """The library's answer (a dict, as ``--json`` prints it) read into its fields."""
        dd = result["dd_best"]
        return cls(result["role"], result["hand"], result["turn_up"], result["trump"],
                   result["to_play"], result["led"], tuple(result["said"]), result["score"],
                   result["best"], result["chooser"], result["model"], int(result["worlds"]),
                   int(result["seed"]), bool(result["every_hand"]), result["opponent"],
                   None if dd is None else tuple(dd),
                   tuple(CardValue.of(r) for r in result["cards"]), result)

    @property
    def continuation(self) -> dict | None:
        """With ``continuation`` N: each card's value with the player's own play after it
        (as ``--json`` prints it), else None."""
        return self.result.get("continuation")

    def to_dict(self) -> dict:
        """What ``ecarte-sim cards --json`` prints, before its provenance (a copy)."""
        return copy.deepcopy(self.result)


def cards(hand: str, turn_up: str, role: str = "elder", *, continuation: int = 0,
          **options) -> CardChoice:
    """Which card to lead or play with ``hand`` (the ``role``'s cards now), each legal
    card valued by the inferring player — :func:`ecarte_sim.analysis.ecarte.play.card_advice.card_values`
    (``options``: ``said``, ``discards``, ``played``, ``score``, ``seed``, ``deal``,
    ``worlds``, ``model``, ``opponent``, ``chooser``, ``king``, ``policy``); with
    ``continuation`` N, each card's value also with the player's own play after it over N
    of the adversary's hands (``continuation`` on the result and on each card). Its
    ``to_dict()`` is what ``ecarte-sim cards --json`` prints and the web page's
    ``/api/cards`` answers.

    >>> c = cards("KS QS 9H 8D 7C", "JS", worlds=64)
    >>> c.to_play, c.worlds, c.best in {v.card for v in c.cards}, len(c.cards)
    ('lead', 64, True, 5)
    """
    from ecarte_sim.analysis.ecarte.play.card_advice import DEFAULT_CHOOSER, card_values

    result = card_values(hand, turn_up, role, **options)
    if continuation:
        from ecarte_sim.analysis.ecarte.play.card_regret import position_values
        keep = ("said", "discards", "played", "score", "model", "seed", "king")
        cont = position_values(hand, turn_up, role,
                               player=options.get("chooser", DEFAULT_CHOOSER),
                               worlds=result["worlds"], cap=continuation,
                               **{k: options[k] for k in keep if k in options})
        result["continuation"] = cont
        by = {c["card"]: c for c in cont["cards"]}
        for r in result["cards"]:
            r["continuation"] = by[r["card"]]
    return CardChoice.of(result)


@dataclass(frozen=True, slots=True)
class SuitInference:
    """What the adversary holds in one suit (:class:`Inferred`): its ``name``, whether it
    is ``trump``, the ``counts`` of his hands (or draws) holding 0 to 5 of its cards, his
    ``mean_cards`` and ``mean_high_cards`` (K Q J A) in it, and the hands (draws) holding
    its king (``king_holders``) and their share (``king``)."""
    name: str
    trump: bool
    counts: tuple[int, ...]
    mean_cards: float
    king_holders: int
    king: float
    mean_high_cards: float


@dataclass(frozen=True)
class Inferred:
    """What the adversary's decisions say about his hand (:func:`inferred`): the ``hand``,
    ``turn_up``, ``role`` and ``history`` read; whether the posterior is ``exact`` (every
    hand enumerated) or sampled (``seed``; None when exact); the ``consistent`` hands (or
    draws) ``out_of`` all, the adversary's decision ``model``; his trumps (``trump_counts``,
    their shares ``trumps``: 0 to 5), ``two_trumps_or_more``, ``king_of_trumps`` and one
    :class:`SuitInference` a suit letter (``suits``). :meth:`to_dict` is what ``ecarte-sim
    infer --json`` prints (its provenance included; a copy)."""
    hand: str
    turn_up: str
    role: str
    history: tuple[str, ...]
    exact: bool
    seed: int | None
    consistent: int
    out_of: int
    model: str
    trump_counts: tuple[int, ...]
    trumps: tuple[float, ...]
    two_trumps_or_more: float
    king_of_trumps: float
    suits: dict[str, SuitInference]
    payload: dict = field(repr=False)

    @classmethod
    def of(cls, r: dict) -> Inferred:
        suits = {letter: SuitInference(s["name"], s["trump"], tuple(s["counts"]),
                                       s["mean_cards"], s["king_holders"], s["king"],
                                       s["mean_high_cards"])
                 for letter, s in r["suits"].items()}
        return cls(r["hand"], r["turn_up"], r["role"], tuple(r["history"]), r["exact"],
                   r.get("seed"), r["consistent"], r["of"], r["model"],
                   tuple(r["trump_counts"]), tuple(r["trumps"]), r["two_trumps_or_more"],
                   r["king_of_trumps"], suits, r)

    def to_dict(self) -> dict:
        return copy.deepcopy(self.payload)


def inferred(hand: str, turn_up: str, history: str, role: str = "elder", *,
             score: str | tuple[int, int] = "0-0", **options) -> Inferred:
    """What the adversary's decisions (``history``, e.g. ``"propose,refuse"``) say about
    his hand — :func:`ecarte_sim.analysis.ecarte.advice.inference.infer`, with ``score`` as
    ``"E-D"`` or ``(E, D)``, typed (:class:`Inferred`).

    >>> r = inferred("QS JS AH 7C JD", "8D", "propose,refuse")
    >>> r.exact, r.history, r.suits["D"].trump, r.consistent < r.out_of
    (True, ('propose', 'refuse'), True, True)
    """
    from ecarte_sim.analysis.ecarte.advice.inference import infer as infer_hand

    x, y = Score.of(score)
    return Inferred.of(infer_hand(hand, turn_up, history, role, score=f"{x}-{y}", **options))


def infer(hand: str, turn_up: str, history: str, role: str = "elder", *,
          score: str | tuple[int, int] = "0-0", **options) -> dict:
    """What the adversary's decisions (``history``, e.g. ``"propose,refuse"``) say about
    his hand — :func:`inferred` as a dict, what ``ecarte-sim infer --json`` prints."""
    return inferred(hand, turn_up, history, role, score=score, **options).to_dict()


@dataclass(frozen=True)
class StrategyPlan:
    """A ``strategy`` run, its arguments checked once (:func:`strategy_plan`): what it
    runs (``settings``, ``against``, the ``roles``, the ``scores`` as pairs, the
    ``decisions``, ``iterations``, ``seed``, the ``sampling`` of a state and the
    ``fresh_deals``) and :attr:`parameters`, what ``--json`` echoes of it (and the run
    directory's identity)."""
    settings: EcarteSettings
    against: str
    role: str
    decision: str
    scores: tuple
    decisions: tuple
    iterations: int
    seed: int
    sampling: object
    fresh_deals: int | None

    @property
    def parameters(self) -> dict:
        return {"against": self.against, "role": self.role,
                **({"decision": self.decision} if self.decision != "first" else {}),
                "scores": [f"{x}-{y}" for x, y in self.scores], "iterations": self.iterations,
                "deals_per_state": self.sampling.first,
                "max_deals_per_state": self.sampling.most,
                "fresh_deals": self.fresh_deals, "settings": self.settings.echo()}

    def to_dict(self) -> dict:
        return {"seed": self.seed, **self.parameters}


def strategy_plan(settings: EcarteSettings | None = None, *, against: str = "treatise",
                  role: str = "both", decision: str = "first",
                  score: str | tuple[int, int] | None = None, all_scores: bool = False,
                  iterations: int = 3, seed: int = 0, deals_per_state: int | None = None,
                  max_deals_per_state: int | None = None,
                  fresh_deals: int | None = None) -> StrategyPlan:
    """The arguments of :func:`strategy` checked and completed (each default by the play
    model), without running anything: a :class:`StrategyPlan`. :class:`ValueError` names
    a bad argument.

    >>> plan = strategy_plan(score="3-4", deals_per_state=8)
    >>> plan.parameters["scores"], plan.sampling.first, plan.sampling.most
    (['3-4'], 8, 4096)
    """
    from ecarte_sim.analysis.ecarte.solving import proposal_game as study

    settings = settings or EcarteSettings()
    _choice(against, AGAINST, "against")
    _choice(role, ROLES, "role")
    _choice(decision, DECISIONS, "decision")
    if all_scores and score is not None:
        raise ValueError("give score or all_scores, not both")
    if against == "equilibrium" and all_scores:
        raise ValueError("against='equilibrium' runs at one score (score=(E, D))")
    if against == "equilibrium" and decision == "discard":
        raise ValueError("against='equilibrium' iterates the first decisions "
                         "(decision='first') or them and the first discards "
                         "(decision='both'); the discards alone are against='treatise', "
                         "decision='discard'")
    iterations = _count(iterations, 0, 50, "iterations")
    first = _count(deals_per_state, 2, 1 << 16, "deals_per_state")
    most = _count(max_deals_per_state, 2, 1 << 16, "max_deals_per_state")
    fresh_deals = _count(fresh_deals, 1000, 1 << 40, "fresh_deals")
    seed = _count(seed, 0, (1 << 64) - 1, "seed")
    default = study.Sampling.for_play(settings.elder_play)
    sampling = study.Sampling(first or default.first, most or default.most)
    scores = study.SCORES if all_scores else (Score.of("0-0" if score is None else score).pair,)
    decisions = ("first", "discard") if decision == "both" else (decision,)
    return StrategyPlan(settings, against, role, decision, tuple(scores), decisions,
                        iterations, seed, sampling, fresh_deals)


@dataclass(frozen=True, slots=True)
class ScoreGain:
    """One score's row of a best response against the treatise (:class:`RoleResponse`):
    the ``score`` (``"E-D"``), the paired gain over the policy it replaces in P(win the
    game) (``gain_win``) and in marks a deal (``gain_marks``), each with its 95% interval,
    the share of hands on which it ``agrees`` with the treatise and the ``n`` fresh
    deals."""
    score: str
    gain_win: float
    gain_win_ci95: tuple[float, float]
    gain_marks: float
    gain_marks_ci95: tuple[float, float]
    agreement: float
    n: int

    @classmethod
    def of(cls, r: dict) -> ScoreGain:
        return cls(r["score"], r["gain_win"], tuple(r["gain_win_ci95"]), r["gain_marks"],
                   tuple(r["gain_marks_ci95"]), r["agreement"], r["n"])


@dataclass(frozen=True, slots=True)
class RoleResponse:
    """One best response of a ``strategy --against treatise`` run (:class:`StrategyRun`):
    the policy it ``replaces``, the ``deals`` that chose it and one :class:`ScoreGain` a
    score (``gains``)."""
    replaces: str
    deals: int
    gains: tuple[ScoreGain, ...]


def _plain(result: dict) -> dict:
    """A strategy run's dict without its big arrays (tables, per-state gains, ``v`` as a
    list): what ``--json`` prints of it."""
    out = {k: v for k, v in result.items() if k not in ("tables",)}
    if "v" in out:
        out["v"] = np.asarray(out["v"]).tolist()
    if "roles" in out:
        out["roles"] = {role: {k: v for k, v in d.items() if k not in ("table", "gain", "se")}
                        for role, d in out["roles"].items()}
    return out


@dataclass(frozen=True)
class StrategyRun:
    """A ``strategy`` run (:func:`strategy`, :func:`run_strategy`): what was asked
    (``against``, ``seed``, ``scores``, ``fresh_deals``, the ``settings`` as ``--json``
    echoes them); against the treatise, one :class:`RoleResponse` a best response
    (``roles``: ``"elder"``, ``"dealer"``, ``"elder-discard"``, ...; empty against
    equilibrium); against equilibrium, the ``score`` and the ``steps`` (one dict a step:
    the exploitability, both gains, the elder's value; empty against the treatise).
    :meth:`to_dict` is what ``ecarte-sim strategy --json`` prints between its command and
    its provenance (the arrays left out); :attr:`payload` the library's whole dict (the
    tables, ``v``, the per-state gains), what the report is written from."""
    against: str
    seed: int
    scores: tuple[str, ...]
    fresh_deals: int | None
    settings: dict
    roles: dict[str, RoleResponse]
    score: str | None
    steps: tuple[dict, ...] = field(repr=False)
    payload: dict = field(repr=False)

    @classmethod
    def of(cls, r: dict) -> StrategyRun:
        roles = {key: RoleResponse(d["replaces"], d["deals"],
                                   tuple(ScoreGain.of(row) for row in d["rows"]))
                 for key, d in r.get("roles", {}).items()}
        return cls(r["against"], r["seed"], tuple(r["scores"]), r["fresh_deals"],
                   r["settings"], roles, r.get("score"), tuple(r.get("steps", ())), r)

    def to_dict(self) -> dict:
        return copy.deepcopy(_plain(self.payload))


def run_strategy(plan: StrategyPlan,
                 progress: Callable[[str, int, int], None] | None = None) -> StrategyRun:
    """A :class:`StrategyPlan` run: a :class:`StrategyRun` of its
    :meth:`~StrategyPlan.to_dict` and the library's result (see :func:`strategy`)."""
    from ecarte_sim.analysis.ecarte.solving import proposal_game as study

    if plan.against == "treatise":
        roles = ("elder", "dealer") if plan.role == "both" else (plan.role,)
        result = study.against_treatise(plan.settings, roles=roles, scores=plan.scores,
                                        seed=plan.seed, sampling=plan.sampling,
                                        fresh_deals=plan.fresh_deals, progress=progress,
                                        decisions=plan.decisions)
    else:
        result = study.equilibrium(plan.settings, score=plan.scores[0],
                                   iterations=plan.iterations, seed=plan.seed,
                                   sampling=plan.sampling, fresh_deals=plan.fresh_deals,
                                   progress=progress, decisions=plan.decisions)
    return StrategyRun.of({**plan.to_dict(), **result})


def strategy(settings: EcarteSettings | None = None, *, against: str = "treatise",
             role: str = "both", decision: str = "first",
             score: str | tuple[int, int] | None = None, all_scores: bool = False,
             iterations: int = 3, seed: int = 0, deals_per_state: int | None = None,
             max_deals_per_state: int | None = None, fresh_deals: int | None = None,
             progress: Callable[[str, int, int], None] | None = None) -> StrategyRun:
    """What should one play: ``ecarte-sim strategy`` from Python, the same library calls
    (:func:`~ecarte_sim.analysis.ecarte.solving.proposal_game.against_treatise` or
    :func:`~ecarte_sim.analysis.ecarte.solving.proposal_game.equilibrium`) with the
    command's options as arguments.

    ``against="treatise"``: each ``role``'s (``"elder"``, ``"dealer"``, ``"both"``) best
    response to the other's treatise policy at ``score`` (default 0-0) or at every score
    (``all_scores``), and its gain over the policy it replaces on ``fresh_deals`` fresh
    deals; ``"equilibrium"``: ``iterations`` steps of iterated best responses at one score,
    each pair's exploitability and the value of the game. ``decision``: ``"first"``
    (propose or play, accept or refuse), ``"discard"`` (the first discard; treatise only)
    or ``"both"``. Deals per state: ``deals_per_state`` at first, up to
    ``max_deals_per_state`` (defaults as the command's, by play model). ``progress(stage,
    done, total)`` is told each stage's progress.

    Returns a :class:`StrategyRun`: the parameters (as ``--json`` echoes them) and the
    figures; its ``payload`` keeps the library's result with its arrays (``v``; the best
    responses' ``table``, ``gain``, ``se``; ``tables``), which ``to_dict()`` and
    ``--json`` leave out. :class:`ValueError` names a bad argument
    (:func:`strategy_plan`; :func:`run_strategy` runs a plan). A run searches best
    responses over many deals (minutes), so the example is marked to skip.

    >>> r = strategy(role="elder", score=(4, 4), deals_per_state=2,
    ...              max_deals_per_state=2, fresh_deals=2000)  # doctest: +SKIP
    >>> r.roles["elder"].gains[0].score, r.to_dict()["scores"]  # doctest: +SKIP
    ('4-4', ['4-4'])
    """
    return run_strategy(strategy_plan(settings, against=against, role=role,
                                      decision=decision, score=score, all_scores=all_scores,
                                      iterations=iterations, seed=seed,
                                      deals_per_state=deals_per_state,
                                      max_deals_per_state=max_deals_per_state,
                                      fresh_deals=fresh_deals), progress)


@dataclass(frozen=True, slots=True)
class SideGain:
    """One side's paired gain from deciding by the computed strategy instead of the
    treatise (:class:`VersusDeals`): in P(win the game) (``gain_win``) and in marks a deal
    (``gain_marks``), each with its 95% interval, on ``n`` deals."""
    gain_win: float
    gain_win_ci95: tuple[float, float]
    gain_marks: float
    gain_marks_ci95: tuple[float, float]
    n: int

    def to_dict(self) -> dict:
        return {"gain_win": self.gain_win, "gain_win_ci95": list(self.gain_win_ci95),
                "gain_marks": self.gain_marks, "gain_marks_ci95": list(self.gain_marks_ci95),
                "n": self.n}


@dataclass(frozen=True, slots=True)
class VersusDeals:
    """The same ``deals`` deals at ``score`` (seed ``seed``) with ``side`` (``"elder"``,
    ``"dealer"`` or ``"both"``) deciding by the computed strategy, everyone else by the
    treatise: the ``elder``'s and the ``dealer``'s :class:`SideGain` (None for the side
    that does not change) and the ``settings`` (as ``--json`` echoes them)."""
    side: str
    score: str
    deals: int
    seed: int
    settings: dict
    elder: SideGain | None
    dealer: SideGain | None

    @classmethod
    def of(cls, r: dict) -> VersusDeals:
        def gain(who):
            g = r.get(who)
            return None if g is None else SideGain(
                g["gain_win"], tuple(g["gain_win_ci95"]), g["gain_marks"],
                tuple(g["gain_marks_ci95"]), g["n"])
        return cls(r["side"], r["score"], r["deals"], r["seed"], r["settings"], gain("elder"),
                   gain("dealer"))

    def to_dict(self) -> dict:
        out = {"side": self.side, "score": self.score, "deals": self.deals, "seed": self.seed,
               "settings": copy.deepcopy(self.settings)}
        for who, g in (("elder", self.elder), ("dealer", self.dealer)):
            if g is not None:
                out[who] = g.to_dict()
        return out


@dataclass(frozen=True, slots=True)
class VersusGames:
    """Whole games of five up, the strategy against the treatise, each game index played
    twice with the sides swapped: ``games`` played (of the indices ``game_indices``, seed
    ``seed``), the ``strategy_wins`` and their ``share`` with its Wilson 95% interval
    ``ci95``; the games won dealing first and being elder first (``(won, of)`` each); the
    ``paired_excess`` (a game index's wins less one, halved) with its 95% interval; the
    ``deals`` played and the ``settings``."""
    games: int
    game_indices: tuple[int, int]
    seed: int
    strategy_wins: int
    share: float
    ci95: tuple[float, float]
    as_first_dealer: tuple[int, int]
    as_first_elder: tuple[int, int]
    paired_excess: float
    paired_excess_ci95: tuple[float, float]
    deals: int
    settings: dict

    @classmethod
    def of(cls, g: dict) -> VersusGames:
        return cls(g["games"], tuple(g["game_indices"]), g["seed"], g["strategy_wins"],
                   g["share"], tuple(g["ci95"]),
                   (g["as_first_dealer"]["won"], g["as_first_dealer"]["of"]),
                   (g["as_first_elder"]["won"], g["as_first_elder"]["of"]),
                   g["paired_excess"]["mean"], tuple(g["paired_excess"]["ci95"]), g["deals"],
                   g["settings"])

    def to_dict(self) -> dict:
        return {"games": self.games, "game_indices": list(self.game_indices),
                "seed": self.seed, "strategy_wins": self.strategy_wins, "share": self.share,
                "ci95": list(self.ci95),
                "as_first_dealer": {"won": self.as_first_dealer[0],
                                    "of": self.as_first_dealer[1]},
                "as_first_elder": {"won": self.as_first_elder[0], "of": self.as_first_elder[1]},
                "paired_excess": {"mean": self.paired_excess,
                                  "ci95": list(self.paired_excess_ci95)},
                "deals": self.deals, "settings": copy.deepcopy(self.settings)}


@dataclass(frozen=True, slots=True)
class Versus:
    """The computed strategy against the treatise (:func:`versus`): on the same deals,
    ``deals`` by the side deciding by the strategy (``"elder"``, ``"dealer"``, ``"both"``:
    each a :class:`VersusDeals`), and over whole ``games`` (:class:`VersusGames`).
    :meth:`to_dict` is what ``ecarte-sim versus --json`` prints (before its files and
    provenance) and ``--out`` writes as versus.json."""
    deals: dict[str, VersusDeals]
    games: VersusGames

    def to_dict(self) -> dict:
        return {"deals": {side: r.to_dict() for side, r in self.deals.items()},
                "games": self.games.to_dict()}


def versus(deals: int = 1 << 20, games: int = 1 << 14, *,
           score: str | tuple[int, int] = "0-0", play: str = "dd", seed: int = 0) -> Versus:
    """The computed strategy against the treatise (``ecarte-sim versus``;
    :mod:`ecarte_sim.analysis.ecarte.claims.versus`): on the same ``deals`` deals at
    ``score``, the elder, then the dealer, then both deciding by the strategy, the rest by
    the treatise — the paired gain in marks a deal and in P(win the game) (``deals``,
    by side); and ``games`` game indices of five up, each played twice with the sides
    swapped — the share the strategy wins with its Wilson 95% interval (``games``).
    Both players' cards by the ``play`` model. A :class:`Versus`; its ``to_dict()`` is
    what ``--json`` prints.

    >>> r = versus(1000, 1, seed=3)
    >>> sorted(r.deals), r.games.games, r.deals["elder"].dealer is None
    (['both', 'dealer', 'elder'], 2, True)
    """
    from ecarte_sim.analysis.ecarte.claims import versus as vs

    x, y = Score.of(score)
    settings = EcarteSettings.build(play=play)
    return Versus({side: VersusDeals.of(vs.paired_deals(deals, side=side, score=(x, y),
                                                        seed=seed, settings=settings))
                   for side in vs.SIDES},
                  VersusGames.of(vs.games(games, seed=seed, settings=settings)))
