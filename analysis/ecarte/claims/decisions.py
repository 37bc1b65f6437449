"""The claims of Hoyle's Games Modernized ("Écarté"), each with the experiment that
tests it and the rule that turns a measurement into a verdict — the rules are written here,
before any run, and the code applies them mechanically.

Every claim is measured for each play model (``dd``: both players see all cards, so it
measures the cards; ``heuristic``: Hoyle's advice from each player's own knowledge;
``pimc``: sampled worlds; ``pimc-inference``: sampled worlds drawn from what the
opponent's proposals, answers and discards say of his hand, both players reading each
other by the policies they play). The elder's policy is ``regle`` and the dealer's ``maxims``
unless the experiment varies them; decisions compared on the *same* deals (common random
numbers), as paired differences.

Experiments (:func:`run_model`):

``regle``     every deal whose elder hand is a jeu de règle, played twice: without proposing,
              and proposing first (the dealer answers by his maxims, the deal goes on, the
              elder re-deciding by the list after each exchange). Plain deals ``0, 1, ...``:
              the rows over all jeux de règle, and with and without the king, at every score.
``rules``     the same two arms, each rule of the list sampled on its own (class
              sampling, below): the rows of one rule ("rule N"), which pool these class
              samples with the plain deals of the rule (:func:`rule_joint`).
``dealer``    deals where the elder (``regle``) proposes, played twice: the dealer refusing
              and accepting the first proposal; sampled within each maxim that speaks for
              the dealer's hand (class sampling, below), for the five maxims the claims
              test (the two silent cases are not sampled).
``habit``     every deal, played twice: the elder by the list (``regle``) and the elder who
              proposes whenever the stock allows ("continue proposing till the pack is
              exhausted"); the dealer by his maxims in both.
``hand``      the example hand Q A 7 of hearts (trumps), K♠, K♦, the turn-up drawn from the
              other hearts: played without proposing and proposing, sampled; for ``dd`` and
              ``heuristic`` also enumerated exactly (5 turn-ups x 65,780 dealer hands).
``scores``    whole deals under regle/maxims, for the probability of winning the game from
              every score (:mod:`ecarte_sim.analysis.ecarte.measures.scores`); turns a deal's outcome into a game-win
              probability at any score.

Class sampling (``rules`` and ``dealer``; :mod:`ecarte_sim.engine.ecarte.deals.class_sampling`):
sample ``i`` of a class is the first of the ordinary deals at that class's own deal indices
(from 2^43, disjoint from the plain deals and from the score table) that falls in the class
— rejection sampling, so each class sample is a plain deal conditioned on the class (the
elder's hand drawn from the class's own hands as dealing would, then the rest of the deal),
and a class's rows estimate exactly what the plain deals of that class estimate, on as many
deals as the class needs, without weights. Each class runs its own precision schedule
(checkpoints from :data:`CLASS_FIRST` class samples, each a tenth more than the last,
:data:`CLASS_GROWTH`, so that a class stops within about a tenth of the samples its rows
need) until its rows reach their target (:func:`class_claims`): the rule's
rows — its P(point) (two-to-one), and for rule 1 the change at 0-3 — within
``RULE_PRECISION_FACTOR`` times the precision (0.01 at the default 0.005: the rows of one
rule are not headline claims), the dealer's maxim (a headline claim) within the precision
itself; at most ``max_deals[model]["rules"]``/``["dealer"]`` samples per class.

Verdict rules (95% intervals; "the interval" is the estimate's):

``near(t, tol)``   supported if the interval lies inside ``[t - tol, t + tol]``;
                   contradicted if it lies wholly outside; inconclusive otherwise.
``at_least(t)``    supported if the lower end is >= t; contradicted if the upper end < t.
``positive``       supported if the lower end > 0; contradicted if the upper end < 0.
``negative``       supported if the upper end < 0; contradicted if the lower end > 0.

Verdict words: **supported** (the interval is on the claim's side), **contradicted** (it is
wholly on the other side), **inconclusive** (it straddles the line: more deals, or none at
all, could not decide), and, for a difference between two choices (``positive`` and
``negative``), **no difference**: the estimate is 0 and its interval exactly [0, 0], i.e.
both choices give the same result on every deal (at 4-4 with the king held, the king wins
the game whatever the elder does), so there is nothing to prefer.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from importlib.metadata import version
from itertools import combinations

import numpy as np

from ecarte_sim.analysis.ecarte.measures import paired as P
from ecarte_sim.analysis.ecarte.measures.scores import (TARGET, outcome_distribution,
                                                        win_probabilities)
from ecarte_sim.analysis.stats.precision import (DEFAULT_PRECISION, FIRST_BATCH, checkpoints,
                                                 run_until)
from ecarte_sim.engine.cards import parse_hand
from ecarte_sim.engine.ecarte.deals.class_sampling import MAX_CLASS_SAMPLES, class_table
from ecarte_sim.engine.ecarte.deals.counts import whole_counts
from ecarte_sim.engine.ecarte.deals.experiments import (CLASSIFY_ALL, CLASSIFY_DEALER,
                                                        CLASSIFY_REGLE, N_ARM, N_CLASSES,
                                                        exact_codes, hand_table, paired_table)
from ecarte_sim.engine.ecarte.decisions.policies import MAXIM_CASES
from ecarte_sim.engine.ecarte.decisions.regle import RULES
from ecarte_sim.engine.ecarte.settings import (PIMC_MODELS, ElderPolicy, EcarteSettings,
                                               PlayModel, member, play_models)

#: Where every claim is quoted from (the Écarté chapter, with the Club Code laws it quotes
#: from *Cavendish on Écarté*).
SOURCE = "Hoyle's Games Modernized, Écarté"
#: The play models the claims test (the registry's ``claims``), and those a run tests unless
#: told (``claims-default``: pimc-inference is asked for by name).
MODELS = play_models("claims")
DEFAULT_MODELS = play_models("claims-default")
#: Models whose sampled worlds make a deal random: no exact enumeration, no variant run.
SAMPLED_MODELS = tuple(name for name in MODELS
                       if member(PlayModel, name, "play model") in PIMC_MODELS)
EXPERIMENTS = ("regle", "rules", "dealer", "habit", "hand")
#: The class-sampled experiments (module docstring): their caps and ``--deals`` count class
#: samples per class.
CLASS_EXPERIMENTS = ("rules", "dealer")
#: First deal index of the score table (disjoint from the experiments' deals 0, 1, ...).
SCORE_DEALS_START = 1 << 40
#: The per-rule rows (not headline claims) aim at this many times the precision.
RULE_PRECISION_FACTOR = 2
#: Class samples at a class's first checkpoint, and the growth from one to the next.
CLASS_FIRST = 1 << 10
CLASS_GROWTH = 1.1
#: Class samples per parallel row: small, so that the threads share even a small step
#: (a step of 256 samples is 8 rows) and uneven PIMC deals balance out.
CLASS_CHUNK = 32
#: The example hand of the "four times out of five" claim, hearts trumps.
EXAMPLE_HAND = "QH AH 7H KS KD"
EXAMPLE_TRUMP = 1
TWO_THIRDS = 2 / 3


# --------------------------------------------------------------------------- verdict rules

def near(target: float, tol: float):
    def rule(lo, hi):
        if target - tol <= lo and hi <= target + tol:
            return "supported"
        if hi < target - tol or lo > target + tol:
            return "contradicted"
        return "inconclusive"
    rule.text = f"supported if the 95% interval lies within ±{tol:g} of {target:.4g}; " \
                "contradicted if it lies wholly outside that band"
    return rule


def at_least(target: float):
    def rule(lo, hi):
        return "supported" if lo >= target else "contradicted" if hi < target \
            else "inconclusive"
    rule.text = f"supported if the 95% interval's lower end is >= {target:.4g}; " \
                "contradicted if its upper end is below"
    return rule


#: The verdict words, in the order the report explains them.
VERDICTS = ("supported", "contradicted", "inconclusive", "no difference")
_NO_DIFFERENCE_TEXT = ("; no difference if the interval is exactly [0, 0] (the same result "
                       "both ways on every deal)")


def no_difference(lo: float, hi: float) -> bool:
    """A paired difference whose interval is exactly [0, 0]: zero mean and zero spread, so
    both choices gave the same result on every deal — not an undecided measurement."""
    return lo == 0 and hi == 0


def positive():
    def rule(lo, hi):
        if no_difference(lo, hi):
            return "no difference"
        return "supported" if lo > 0 else "contradicted" if hi < 0 else "inconclusive"
    rule.text = ("supported if the 95% interval lies above 0; contradicted if below 0"
                 + _NO_DIFFERENCE_TEXT)
    return rule


def negative():
    def rule(lo, hi):
        if no_difference(lo, hi):
            return "no difference"
        return "supported" if hi < 0 else "contradicted" if lo > 0 else "inconclusive"
    rule.text = ("supported if the 95% interval lies below 0; contradicted if above 0"
                 + _NO_DIFFERENCE_TEXT)
    return rule


# --------------------------------------------------------------------------- the claims

@dataclass(frozen=True)
class Claim:
    """One claim (one reading of it, on one subset): what is measured and how it is judged."""

    id: str
    quote: str
    reading: str
    subset: str
    experiment: str
    measure: str
    rule: Callable = field(repr=False)
    headline: bool = False
    source: str = SOURCE
    part: str = "all"            # regle experiment: "all", "rule N", "no-king", "king"
    x: int = 0                   # the elder's score before the deal
    y: int = 0                   # the dealer's score before the deal
    minus_y: int | None = None   # also subtract the same change at dealer score minus_y


Q_TWO = ("Although in many cases, where it is the rule to play, it is two to one in favour of "
         "the player winning the point, it must not be imagined that he will always win.")
Q_FOUR = ("A holds queen, ace, and seven of hearts (trumps), king of spades, king of diamonds, "
          "and, of course, plays without proposing. ... for A to propose would have been "
          "wrong, his hand being strong enough to win four times out of five.")
Q_REGLE = ("Jeux de règle, that is, hands which ought to be played without \"proposing\" or "
           "\"accepting.\"")
Q_MAXIM = {
    "two-to-discard": "As a general rule, refuse if only two cards can be discarded. A king or "
                      "a trump should not be discarded in the first instance.",
    "three-trumps-no-king": "With three trumps, refuse, unless the king of trumps is one of "
                            "the three,",
    "three-trumps-with-king": "... unless the king of trumps is one of the three, when there is "
                              "a great chance that the cards taken in may enable the vole to "
                              "be won.",
    "one-trump-one-king-low": "With only one trump and one king, no matter what the other "
                              "suits may be, if not having a card higher than a ten, accept.",
    "one-trump-guarded-courts": "But with one trump, two queens guarded, or a king and queen "
                                "guarded, refuse.",
}
Q_THREE = ("If the adversary be at the score of three, it is dangerous to play without "
           "proposing, unless the hand be very strong.")
Q_FOUR_SCORE = ("If the adversary be at four, it is better not to propose if the non-dealer's "
                "hand be fairly strong, unless the king be held, as there is a chance of the "
                "dealer drawing the king, and at once scoring game.")
Q_FATAL = ("It is not unusual for a player who may hold the trick for certainty to propose in "
           "the hopes of being refused, in order that he may, by winning the trick, score two. "
           "If this occurred at the score of three, the results would be fatal.")
Q_HABIT = ("Inexperienced players, as a rule, are too apt to propose, and to continue proposing "
           "till the pack is exhausted.")

_DELTA_WIN = ("change in the elder's probability of winning the game, playing without "
              "proposing minus proposing, same deals")


def claim_list() -> list[Claim]:
    """Every claim, every reading, every subset (the order of the report)."""
    out = []
    for subset in ["all jeux de règle"] + [f"rule {i + 1}: {name}" for i, name in
                                           enumerate(RULES)]:
        top = subset == "all jeux de règle"
        part = "all" if top else " ".join(subset.split()[:2]).rstrip(":")
        out.append(Claim("two-to-one", Q_TWO, "estimate: P(point) ≈ 2/3", subset, "regle",
                         "P(elder wins the point), playing without proposing",
                         near(TWO_THIRDS, 0.05), headline=top, part=part))
        out.append(Claim("two-to-one", Q_TWO, "floor: P(point) at least 2/3", subset, "regle",
                         "P(elder wins the point), playing without proposing",
                         at_least(TWO_THIRDS), part=part))
    out.append(Claim("jeux-de-regle-play", Q_REGLE,
                     "playing a jeu de règle without proposing beats proposing (score 0-0)",
                     "all jeux de règle", "regle", _DELTA_WIN + ", at 0-0", positive(),
                     headline=True))
    out.append(Claim("four-out-of-five", Q_FOUR, "estimate: P(point) ≈ 4/5", EXAMPLE_HAND,
                     "hand", "P(elder wins the point), playing without proposing, "
                     "averaged over the turn-ups", near(0.8, 0.05), headline=True))
    out.append(Claim("four-out-of-five", Q_FOUR, "floor: P(point) at least 4/5", EXAMPLE_HAND,
                     "hand", "P(elder wins the point), playing without proposing, "
                     "averaged over the turn-ups", at_least(0.8)))
    out.append(Claim("four-out-of-five", Q_FOUR, "to propose would be wrong", EXAMPLE_HAND,
                     "hand", _DELTA_WIN + ", at 0-0", positive(), headline=True))
    for case, says in (("two-to-discard", "refuse"), ("three-trumps-no-king", "refuse"),
                       ("three-trumps-with-king", "accept"),
                       ("one-trump-one-king-low", "accept"),
                       ("one-trump-guarded-courts", "refuse")):
        out.append(Claim(f"dealer-{case}", Q_MAXIM[case], f"the dealer should {says}",
                         f"dealer hands: {case}", "dealer",
                         "change in the dealer's probability of winning the game from 0-0, "
                         "refusing minus accepting the first proposal, same deals",
                         positive() if says == "refuse" else negative(), headline=True))
    for x in range(TARGET):
        out.append(Claim("adversary-at-three", Q_THREE,
                         "dangerous: proposing wins the game more often than playing",
                         f"all jeux de règle, elder at {x}, dealer at 3", "regle",
                         _DELTA_WIN, negative(), headline=x == 0, x=x, y=3))
        out.append(Claim("adversary-at-three", Q_THREE,
                         "more dangerous than at 0: playing's advantage shrinks when the "
                         "dealer reaches 3", f"all jeux de règle, elder at {x}, dealer 3 vs 0",
                         "regle", "the same change at dealer 3 minus at dealer 0",
                         negative(), x=x, y=3, minus_y=0))
    out.append(Claim("adversary-at-three", Q_THREE,
                     "unless very strong: with three trumps or more, playing still wins",
                     "rule 1 (three trumps), elder at 0, dealer at 3", "regle", _DELTA_WIN,
                     positive(), part="rule 1", y=3))
    for x in range(TARGET):
        out.append(Claim("adversary-at-four", Q_FOUR_SCORE,
                         "fairly strong without the king: better not to propose",
                         f"jeux de règle without the king, elder at {x}, dealer at 4",
                         "regle", _DELTA_WIN, positive(), headline=x == 0, part="no-king",
                         x=x, y=4))
        out.append(Claim("adversary-at-four", Q_FOUR_SCORE,
                         "unless the king be held: then proposing is better",
                         f"jeux de règle with the king, elder at {x}, dealer at 4", "regle",
                         _DELTA_WIN, negative(), headline=x == 0, part="king", x=x, y=4))
    for y in range(TARGET):
        out.append(Claim("propose-at-three-fatal", Q_FATAL,
                         "at three, proposing a sure hand costs the game: playing is better",
                         f"all jeux de règle, elder at 3, dealer at {y}", "regle",
                         _DELTA_WIN, positive(), headline=y == 0, x=3, y=y))
    out.append(Claim("proposing-till-exhausted", Q_HABIT,
                     "proposing whenever the stock allows loses against playing the list",
                     "every deal, elder at 0, dealer at 0", "habit",
                     "change in the elder's probability of winning the game, elder by the "
                     "list minus elder always proposing, same deals", positive(),
                     headline=True))
    return out


# --------------------------------------------------------------------------- measuring

def _part_joint(table: np.ndarray, part: str) -> np.ndarray:
    """Joint 48 x 48 table of the regle experiment (classes rule + 8 * king) for a part."""
    if part.startswith("rule "):
        r = int(part.split()[1])
        return table[r] + table[r + 8]
    if part == "no-king":
        return table[:8].sum(axis=0)
    if part == "king":
        return table[8:].sum(axis=0)
    return table.sum(axis=0)


def rule_joint(data: dict, part: str) -> np.ndarray:
    """The joint table behind a part of the regle experiment. One rule's ("rule N") pools
    the plain deals of that rule with its class samples (``rules``): both are deals
    conditioned on the rule, on disjoint deal indices, so together they are one larger
    sample of the same distribution. Every other part is the plain deals'."""
    joint = _part_joint(data["regle"], part)
    if part.startswith("rule ") and data.get("rules") is not None:
        joint = joint + _part_joint(data["rules"], part)
    return joint


def reaching_decision(joint: np.ndarray, dealer_score: int) -> np.ndarray:
    """The deals in which the elder has a decision to make: at dealer score 4 a turned-up
    king ends the game first (Law 22), so those deals (the same in both arms) are left out."""
    if dealer_score < TARGET - 1:
        return joint
    return joint * (P.KING != 1)[:, None]


def measure(claim: Claim, data: dict) -> dict:
    """Estimate and 95% interval of ``claim`` from one model's experiment tables."""
    v = data["v"]
    if claim.experiment == "regle":
        joint = rule_joint(data, claim.part)
        if claim.id == "two-to-one":
            r = P.proportion(joint.sum(axis=1), P.ELDER_WINS_POINT)
            return {"estimate": r["p"], "ci95": r["ci95"], "n": r["n"]}
        f = P.game_value(v, claim.x, claim.y)
        if claim.minus_y is not None:
            f = f - P.game_value(v, claim.x, claim.minus_y)
        else:
            joint = reaching_decision(joint, claim.y)
        r = P.paired_mean(joint, f)
        return {"estimate": r["mean"], "ci95": r["ci95"], "n": r["n"],
                "unpaired_se": P.unpaired_se(joint, f), "paired_se": r["se"]}
    if claim.experiment == "dealer":
        case = claim.id.removeprefix("dealer-")
        k = MAXIM_CASES.index(case) + 1
        joint = data["dealer"][k]
        f = 1.0 - P.game_value(v, 0, 0)  # the dealer's chance, refuse (a) minus accept (b)
        r = P.paired_mean(joint, f)
        return {"estimate": r["mean"], "ci95": r["ci95"], "n": r["n"],
                "unpaired_se": P.unpaired_se(joint, f), "paired_se": r["se"]}
    if claim.experiment == "habit":
        joint = data["habit"][0]
        r = P.paired_mean(joint, P.game_value(v, 0, 0))
        return {"estimate": r["mean"], "ci95": r["ci95"], "n": r["n"],
                "unpaired_se": P.unpaired_se(joint, P.game_value(v, 0, 0)),
                "paired_se": r["se"]}
    # the example hand
    if claim.reading.startswith("to propose"):
        joint = data["hand"]
        f = P.game_value(v, 0, 0)
        r = P.paired_mean(joint, f)
        return {"estimate": r["mean"], "ci95": r["ci95"], "n": r["n"]}
    if data.get("hand_exact") is not None:
        s = P.exact_summary(data["hand_exact"])
        return {"estimate": s["point"], "ci95": s["point_ci95"], "n": s["n"], "exact": True}
    r = P.proportion(data["hand"].sum(axis=1), P.ELDER_WINS_POINT)
    return {"estimate": r["p"], "ci95": r["ci95"], "n": r["n"]}


def judge(claim: Claim, m: dict) -> str:
    """The verdict (one of :data:`VERDICTS`) of ``claim`` on measurement ``m``: no deals or
    no interval is inconclusive; "no difference" needs the estimate itself to be 0 too."""
    lo, hi = m["ci95"]
    if m["n"] == 0 or math.isnan(lo) or math.isnan(hi):
        return "inconclusive"
    verdict = claim.rule(lo, hi)
    if verdict == "no difference" and m["estimate"] != 0:
        return "inconclusive"
    return verdict


# --------------------------------------------------------------------------- running

@dataclass
class ClaimsSettings:
    """What a claims run does; every figure it reports is a function of these."""

    seed: int = 0
    precision: float = DEFAULT_PRECISION
    #: fixed number of deals per experiment, and of class samples per class (no precision)
    deals: int | None = None
    first: int = FIRST_BATCH          # first checkpoint of the precision schedule (doubles)
    class_first: int = CLASS_FIRST    # first checkpoint of each class (grows by CLASS_GROWTH)
    #: Most deals per experiment, class samples per class for ``rules`` and ``dealer`` (the
    #: precision schedule stops there). PIMC costs 0.13-0.3 ms a whole deal on 2 cores
    #: (measured: more for deals with exchanges); a class's rows need at most about 10,000
    #: samples (P(point) near 1/2 within 0.01), so 2^14 per class lets every class reach
    #: its target.
    max_deals: dict = field(default_factory=lambda: {
        "dd": {**dict.fromkeys(EXPERIMENTS, 1 << 25), "rules": 1 << 20, "dealer": 1 << 20},
        "heuristic": {**dict.fromkeys(EXPERIMENTS, 1 << 25), "rules": 1 << 20,
                      "dealer": 1 << 20},
        **dict.fromkeys(SAMPLED_MODELS, {"regle": 1 << 18, "rules": 1 << 14,
                                         "dealer": 1 << 14, "habit": 1 << 15,
                                         "hand": 1 << 15})})
    score_deals: dict = field(default_factory=lambda: {"dd": 1 << 21, "heuristic": 1 << 21,
                                                       **dict.fromkeys(SAMPLED_MODELS, 1 << 16)})
    worlds: int = 64

    def rule_precision(self) -> float:
        """Target half-width of the per-rule rows (P(point) of one rule)."""
        return RULE_PRECISION_FACTOR * self.precision


def _cfgs(base: EcarteSettings) -> dict:
    """The configurations of the experiments: the treatise's policies, each first decision
    forced both ways, and the habit of always proposing."""
    return {
        "base": base.cfg(),
        "play": base.cfg(elder_first="play"),
        "propose": base.cfg(elder_first="propose"),
        "refuse": base.cfg(dealer_first="refuse"),
        "accept": base.cfg(dealer_first="accept"),
        "always-propose": replace(base, elder_policy=ElderPolicy.ALWAYS_PROPOSE).cfg(),
    }


def run_model(model: str, settings: ClaimsSettings, progress: Callable[[str, int], None] | None = None
              ) -> dict:
    """Every experiment of one play model, to the requested precision. Returns the tables,
    the deals run per experiment, the convergence history and the seconds taken."""
    t0 = time.perf_counter()
    if settings.deals is not None and settings.deals > MAX_CLASS_SAMPLES:
        raise ValueError(f"at most {MAX_CLASS_SAMPLES:,} deals (2^23, class samples per "
                         f"class), not {settings.deals:,}")
    base = EcarteSettings.build(play=model, worlds=settings.worlds)
    run = _ModelRun(model, settings, _cfgs(base), base.task_size(), base.chunk(), claim_list(),
                    {"model": model}, [], progress)
    data = run.data
    # the score table first: it turns outcomes into game-win probabilities
    _score_table(run)
    data["worst_half_width"] = {}
    data["classes"] = []
    _paired_experiment(run, "regle", "play", "propose", CLASSIFY_REGLE)
    data["worst_rule_half_width"] = _class_experiment(run, "rules", "play", "propose",
                                                      CLASSIFY_REGLE)
    data["worst_half_width"]["dealer"] = _class_experiment(run, "dealer", "refuse", "accept",
                                                           CLASSIFY_DEALER)
    _paired_experiment(run, "habit", "base", "always-propose", CLASSIFY_ALL)
    _hand_experiment(run)
    if model not in SAMPLED_MODELS:
        # a variant that might explain "two to one": no obligation to trump (Law 43 read
        # the other way), the list played without proposing on the same deals
        no_forced = replace(base, forced_trump=False).cfg(elder_first="play")
        data["regle_no_forced_trump"] = paired_table(
            settings.seed, 0, data["deals"]["regle"], no_forced, no_forced, CLASSIFY_REGLE,
            chunk=run.chunk, progress=_progress(run, f"{model} variant"))
    data["history"] = run.history
    data["seconds"] = time.perf_counter() - t0
    return data


@dataclass(frozen=True)
class _ModelRun:
    """One play model's run (:func:`run_model`): what its experiments read (the settings,
    the configurations of :func:`_cfgs`, the kernels' block and chunk, the claims) and
    what they fill in (``data``, the payload, and the convergence ``history``)."""
    model: str
    settings: ClaimsSettings
    cfg: dict
    block: int
    chunk: int
    claims: list
    data: dict
    history: list
    progress: Callable[[str, int], None] | None


def _progress(run: _ModelRun, label: str):
    """The kernels' progress callback for one label, or None."""
    if not run.progress:
        return None
    return lambda n: run.progress(label, n)


def _score_table(run: _ModelRun) -> None:
    """The win probabilities by score (``v``) and their outcome counts, from deals the
    experiments never use (indices from 2^40), so that its sampling error is independent
    of theirs; the paired intervals treat V as known."""
    settings, data = run.settings, run.data
    n_scores = settings.score_deals[run.model] if settings.deals is None else settings.deals
    counts = whole_counts(settings.seed, SCORE_DEALS_START, SCORE_DEALS_START + n_scores,
                          run.cfg["base"], block=run.block,
                          progress=_progress(run, f"{run.model} scores"))
    p, _ = outcome_distribution(counts)
    data["v"] = win_probabilities(p)
    data["score_counts"] = counts
    data["deals"] = {"scores": n_scores}


def _checker(run: _ModelRun, experiment, key: str, mine=None, target=None):
    """The check :func:`~ecarte_sim.analysis.stats.precision.run_until` calls on the table
    summed so far for ``key``: every claim of ``mine`` (by default the headline claims of
    ``experiment``) within ``target`` (by default the precision; none with fixed deals)."""
    mine = mine or [c for c in run.claims if c.headline and c.experiment == experiment]
    if target is None:
        target = run.settings.precision if run.settings.deals is None else math.inf

    def check(total):
        trial = dict(run.data, **{key: total})
        worst, estimates = 0.0, {}
        for c in mine:
            m = measure(c, trial)
            hw = P.half_width(m["ci95"]) if m["n"] > 1 else math.inf
            worst = max(worst, hw if not math.isnan(hw) else math.inf)
            estimates[f"{c.id} | {c.subset}"] = m["estimate"]
        return worst <= target, worst, estimates
    return check


def _points(run: _ModelRun, experiment: str) -> list[int]:
    """The checkpoints of a paired experiment (doubling from ``first`` to its cap)."""
    settings = run.settings
    return checkpoints(settings.max_deals[run.model][experiment], settings.deals,
                       settings.first)


def _paired_experiment(run: _ModelRun, key: str, a: str, b: str, classifier: int) -> None:
    """Experiment ``key``: arms ``a`` and ``b`` on the same deals until its claims reach
    the precision; its table, deals and worst half-width go into ``run.data``."""
    data = run.data

    def step(lo, hi):
        return paired_table(run.settings.seed, lo, hi, run.cfg[a], run.cfg[b], classifier,
                            chunk=run.chunk, block=run.block,
                            progress=_progress(run, f"{run.model} {key}"))

    data[key], data["deals"][key], data["worst_half_width"][key] = run_until(
        step, _points(run, key), _checker(run, key, key), run.history, key)


def _class_experiment(run: _ModelRun, key: str, a: str, b: str, classifier: int) -> float:
    """Each class of ``key`` sampled on its own until its rows reach their target. Returns
    the worst half-width over the classes."""
    settings, data, history = run.settings, run.data, run.history
    target = settings.rule_precision() if key == "rules" else settings.precision
    cap = min(settings.max_deals[run.model][key], MAX_CLASS_SAMPLES)
    schedule = checkpoints(cap, settings.deals, settings.class_first, CLASS_GROWTH)
    data[key] = np.zeros((N_CLASSES[classifier], N_ARM, N_ARM), dtype=np.int64)
    worst_of_all = 0.0
    for cls, name in sampled_classes(key):
        attempts = []

        def step(lo, hi, cls=cls, name=name, attempts=attempts):
            table, tried = class_table(settings.seed, lo, hi, run.cfg[a], run.cfg[b],
                                       classifier, cls, chunk=min(run.chunk, CLASS_CHUNK),
                                       block=run.block,
                                       progress=_progress(run, f"{run.model} {key}: {name}"))
            attempts.append(tried)
            return table

        first = len(history)
        check = _checker(run, None, key, class_claims(key, cls, run.claims),
                         target if settings.deals is None else math.inf)
        table, n, worst = run_until(step, schedule, check, history, key)
        for row in history[first:]:
            row["class"] = name
        data[key] += table
        worst_of_all = max(worst_of_all, worst)
        data["classes"].append({"experiment": key, "class": name, "n": n,
                                "attempts": sum(attempts), "half_width": worst,
                                "target": target, "reached": bool(worst <= target)})
    data["deals"][key] = sum(c["n"] for c in data["classes"] if c["experiment"] == key)
    return worst_of_all


def _hand_experiment(run: _ModelRun) -> None:
    """The treatise's example hand (:data:`EXAMPLE_HAND`, trumps :data:`EXAMPLE_TRUMP`):
    exact over every deal of the rest for the models that do not sample, and played
    until its claims reach the precision."""
    data = run.data
    elder = int(parse_hand(EXAMPLE_HAND, 5))
    data["hand_exact"] = None
    if run.model not in SAMPLED_MODELS:
        data["hand_exact"] = exact_codes(elder, None, EXAMPLE_TRUMP, run.cfg["play"],
                                         progress=_progress(run, f"{run.model} hand (exact)"))

    def step(lo, hi):
        return hand_table(run.settings.seed, lo, hi, elder, None, EXAMPLE_TRUMP,
                          run.cfg["play"], run.cfg["propose"], chunk=run.chunk,
                          block=run.block, progress=_progress(run, f"{run.model} hand"))

    data["hand"], data["deals"]["hand"], data["worst_half_width"]["hand"] = run_until(
        step, _points(run, "hand"), _checker(run, "hand", "hand"), run.history, "hand")


def sampled_classes(key: str) -> list[tuple[int, str]]:
    """The classes a class-sampled experiment runs, as (class, name): for ``rules`` the
    seven rules of the list, for ``dealer`` the maxims the claims test (``MAXIM_CASES``)."""
    if key == "rules":
        return [(r, f"rule {r}") for r in range(1, len(RULES) + 1)]
    if key == "dealer":
        cases = sorted({MAXIM_CASES.index(c.id.removeprefix("dealer-")) + 1
                        for c in claim_list() if c.experiment == "dealer"})
        return [(k, MAXIM_CASES[k - 1]) for k in cases]
    raise ValueError(f"{key!r} is not a class-sampled experiment")


def class_claims(key: str, cls: int, claims: list[Claim] | None = None) -> list[Claim]:
    """The claims whose precision a class's schedule aims at: every claim on the rule
    (its P(point), two-to-one as estimate and floor; for rule 1 also the change at 0-3),
    or the maxim's claim."""
    claims = claim_list() if claims is None else claims
    if key == "rules":
        return [c for c in claims if c.experiment == "regle" and c.part == f"rule {cls}"]
    return [c for c in claims if c.id == f"dealer-{MAXIM_CASES[cls - 1]}"]


def rule_table(data: dict) -> list[dict]:
    """Per rule of the list (and overall): P(point), P(vole) and expected points (elder's
    marks minus the dealer's) playing without proposing and proposing first, and the paired
    difference in expected points with its standard error — one model's regle experiment
    (plain deals) for the whole list, :func:`rule_joint` for each rule."""
    rows = []
    for part in ["all"] + [f"rule {r}" for r in range(1, 8)]:
        joint = rule_joint(data, part)
        play = P.arm_summary(joint.sum(axis=1))
        propose = P.arm_summary(joint.sum(axis=0))
        diff = P.paired_mean(joint, P.NET.astype(float))
        name = "all jeux de règle" if part == "all" else \
            f"{part}: {RULES[int(part.split()[1]) - 1]}"
        row = {"model": data["model"], "rule": name, "n": play["n"],
               "sampling": "plain deals" if part == "all" else
               "plain deals of the rule and samples within the rule"}
        for arm, s in (("play", play), ("propose", propose)):
            row.update({f"{arm}_point": s["point"], f"{arm}_point_ci95": s["point_ci95"],
                        f"{arm}_vole": s["vole"], f"{arm}_vole_ci95": s["vole_ci95"],
                        f"{arm}_expected_points": s["expected_points"],
                        f"{arm}_expected_points_ci95": s["expected_points_ci95"]})
        row.update({"difference": diff["mean"], "difference_se": diff["se"],
                    "difference_ci95": diff["ci95"]})
        rows.append(row)
    return rows


def play_minus_propose(data: dict) -> dict:
    """Per score (elder x, dealer y): the change in the elder's game-win probability from
    playing a jeu de règle rather than proposing, paired, over all jeux de règle."""
    joint = data["regle"].sum(axis=0)
    delta = np.zeros((TARGET, TARGET))
    ci = np.zeros((TARGET, TARGET, 2))
    for x in range(TARGET):
        for y in range(TARGET):
            r = P.paired_mean(reaching_decision(joint, y), P.game_value(data["v"], x, y))
            delta[x, y] = r["mean"]
            ci[x, y] = r["ci95"]
    return {"delta": delta.tolist(), "ci95": ci.tolist(), "n": int(joint.sum()),
            "rows": "elder's score 0-4", "columns": "dealer's score 0-4"}


def results(models_data: dict) -> list[dict]:
    """One row per (claim, model): estimate, interval, n, verdict, and the rule applied."""
    rows = []
    for c in claim_list():
        for model, data in models_data.items():
            m = measure(c, data)
            rows.append({"id": c.id, "model": model, "reading": c.reading,
                         "subset": c.subset, "measure": c.measure, "estimate": m["estimate"],
                         "ci95": list(m["ci95"]), "n": m["n"], "verdict": judge(c, m),
                         "rule": c.rule.text, "quote": c.quote, "source": c.source,
                         "headline": c.headline, "exact": bool(m.get("exact", False)),
                         **({"paired_se": m["paired_se"], "unpaired_se": m["unpaired_se"]}
                            if "paired_se" in m else {})})
    return rows


# --------------------------------------------------------------------------- explanations

def trump_split_odds() -> dict:
    """Exact P(the dealer holds fewer than two trumps) for a jeu de règle, per rule and over
    the whole list — Foster's explanation of "two to one" (a jeu de règle "is certain to win
    three tricks if the dealer has not two trumps"). Counted over all C(31, 5) = 169,911
    elder hands given a turn-up (hypergeometric: 7 - t trumps among the 26 unseen cards)."""
    from ecarte_sim.engine.ecarte.decisions.regle_kernel import regle_rule

    def below_two(t):
        r = 7 - t  # trumps among the 26 cards the dealer's hand comes from
        return math.comb(26 - r, 5) + r * math.comb(26 - r, 4)

    turn_up = 8 * EXAMPLE_TRUMP  # the 7 of the trump suit; the rank of the turn-up is immaterial
    cards = [c for c in range(32) if c != turn_up]
    hands = np.zeros((8, 2), dtype=np.int64)  # per rule: hands, favourable dealer hands
    for combo in combinations(cards, 5):
        mask = 0
        for c in combo:
            mask |= 1 << c
        rule = int(regle_rule(np.uint32(mask), EXAMPLE_TRUMP))
        if rule:
            t = sum(1 for c in combo if c >> 3 == EXAMPLE_TRUMP)
            hands[rule, 0] += 1
            hands[rule, 1] += below_two(t)
    out = {}
    for r in range(1, 8):
        out[f"rule {r}: {RULES[r - 1]}"] = hands[r, 1] / (hands[r, 0] * 65_780)
    out["all jeux de règle"] = hands[1:, 1].sum() / (hands[1:, 0].sum() * 65_780)
    out["one trump in hand (Foster: 44,574 / 65,780)"] = below_two(1) / 65_780
    out["two trumps in hand (Foster: 50,274 / 65,780)"] = below_two(2) / 65_780
    return out


def explanations(models_data: dict) -> dict:
    """Where a figure of the treatise is not met, what would produce it: each candidate with
    its value and whether it fits (within ±0.05 of the treatise's figure)."""
    odds = trump_split_odds()
    out = {}
    cands = [{"candidate": f"P(dealer holds fewer than two trumps), {name}", "model": "exact",
              "value": p, "ci95": [p, p], "fits": bool(abs(p - TWO_THIRDS) <= 0.05)}
             for name, p in ((k, float(v)) for k, v in odds.items())]
    for model, data in models_data.items():
        for r in range(1, 8):
            joint = _part_joint(data["rules"], f"rule {r}")
            m = P.proportion(joint.sum(axis=1), P.ELDER_WINS_POINT)
            cands.append({"candidate": f"P(point) of rule {r} ({RULES[r - 1]}) alone",
                          "model": model, "value": m["p"], "ci95": m["ci95"], "n": m["n"],
                          "fits": near(TWO_THIRDS, 0.05)(*m["ci95"]) == "supported"})
        if data.get("regle_no_forced_trump") is not None:
            joint = data["regle_no_forced_trump"].sum(axis=0)
            m = P.proportion(joint.sum(axis=1), P.ELDER_WINS_POINT)
            cands.append({"candidate": "P(point) of the list when a void player need not "
                          "trump (variant of Law 43)", "model": model, "value": m["p"],
                          "ci95": m["ci95"], "n": m["n"],
                          "fits": near(TWO_THIRDS, 0.05)(*m["ci95"]) == "supported"})
    out["two-to-one"] = {"figure": TWO_THIRDS, "candidates": cands}
    cands = []
    three = (math.comb(22, 5) + 4 * math.comb(22, 4)) / 65_780
    cands.append({"candidate": "P(dealer holds fewer than two trumps) with three trumps in "
                  "hand", "model": "exact", "value": three, "ci95": [three, three],
                  "fits": bool(abs(three - 0.8) <= 0.05)})
    for model, data in models_data.items():
        if data.get("hand_exact") is not None:
            ex = P.exact_summary(data["hand_exact"])
            vole, ci, n = ex["vole"], ex["vole_ci95"], ex["n"]
        else:
            m = P.proportion(data["hand"].sum(axis=1), P.ELDER_WINS_VOLE)
            vole, ci, n = m["p"], m["ci95"], m["n"]
        cands.append({"candidate": "P(vole) of the hand played without proposing",
                      "model": model, "value": vole, "ci95": ci, "n": n,
                      "fits": near(0.8, 0.05)(*ci) == "supported"})
    out["four-out-of-five"] = {"figure": 0.8, "candidates": cands}
    return out


WHY_MODELS = ("dd lets both players see every card, so it measures what the cards can do; "
              "heuristic plays Hoyle's advice from what each player knows; pimc samples "
              "the unseen cards and solves each sample. A verdict that changes with the model "
              "depends on how well the hand is played, not only on the cards.")


WHY_INFERENCE = (" pimc-inference samples the unseen cards as the opponent's proposals, "
                 "answers and discards make likely.")


def disagreements(rows: list[dict]) -> list[dict]:
    """Claims (one reading, one subset) whose verdict differs between play models."""
    by = {}
    for r in rows:
        by.setdefault((r["id"], r["reading"], r["subset"]), []).append(r)
    out = []
    for (cid, reading, subset), rs in by.items():
        if len({r["verdict"] for r in rs}) > 1:
            out.append({"id": cid, "reading": reading, "subset": subset,
                        "verdicts": {r["model"]: r["verdict"] for r in rs},
                        "estimates": {r["model"]: r["estimate"] for r in rs},
                        "why": WHY_MODELS + (WHY_INFERENCE if "pimc-inference" in
                                             {r["model"] for r in rs} else "")})
    return out


def plan(models: list[str], settings: ClaimsSettings) -> list[tuple[str, int | None]]:
    """The experiments of a claims run in the order they run, each with the most deals it
    may take (None: an exact enumeration): the labels its ``progress`` reports."""
    steps: list[tuple[str, int | None]] = []
    for m in models:
        fixed = settings.deals
        steps.append((f"{m} scores", fixed or settings.score_deals[m]))
        steps.append((f"{m} regle", fixed or settings.max_deals[m]["regle"]))
        for key in CLASS_EXPERIMENTS:     # class samples, per class
            cap = min(settings.max_deals[m][key], MAX_CLASS_SAMPLES)
            steps.extend((f"{m} {key}: {name}", fixed or cap)
                         for _, name in sampled_classes(key))
        steps.append((f"{m} habit", fixed or settings.max_deals[m]["habit"]))
        if m not in SAMPLED_MODELS:
            steps.append((f"{m} hand (exact)", None))
        steps.append((f"{m} hand", fixed or settings.max_deals[m]["hand"]))
        if m not in SAMPLED_MODELS:
            steps.append((f"{m} variant", None))
    return steps


def run_claims(models: list[str], settings: ClaimsSettings, command: str,
               progress: Callable[[str, int], None] | None = None) -> dict:
    """Every claim for every model: the payload of ``ecarte-sim claims`` (JSON and report)."""
    unknown = [m for m in models if m not in MODELS]
    if unknown:
        raise ValueError(f"unknown play model {unknown[0]!r}; choose from {', '.join(MODELS)}")
    data = {m: run_model(m, settings, progress) for m in models}
    rows = results(data)
    headline = {}
    for m in models:
        worst = max(data[m]["worst_half_width"].values())
        rules = data[m]["worst_rule_half_width"]
        headline[m] = {"seconds": data[m]["seconds"], "deals": data[m]["deals"],
                       "worst_half_width": worst, "worst_rule_half_width": rules,
                       "rule_precision": settings.rule_precision(),
                       "precision_reached": bool(settings.deals is None
                                                 and worst <= settings.precision
                                                 and rules <= settings.rule_precision()),
                       "classes": data[m]["classes"]}
    return {
        "claims": rows,
        "models": headline,
        "explanations": explanations(data),
        "disagreements": disagreements(rows),
        "rules": [row for m in models for row in rule_table(data[m])],
        "play_minus_propose": {m: play_minus_propose(data[m]) for m in models},
        "win_by_score": {m: {"v": data[m]["v"].tolist(), "n": data[m]["deals"]["scores"],
                             "meaning": "V[x][y]: P(the elder at x beats the dealer at y)"}
                         for m in models},
        "history": {m: data[m]["history"] for m in models},
        "provenance": {"command": command, "version": version("ecarte-sim"),
                       "seed": settings.seed, "precision": settings.precision,
                       "deals_fixed": settings.deals, "worlds": settings.worlds,
                       "rule_precision": settings.rule_precision(),
                       "models": list(models),
                       "deals": {m: data[m]["deals"] for m in models}},
    }
