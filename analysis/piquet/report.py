"""``ecarte-sim piquet report``: the Piquet analyses, measured, with their n and 95% intervals.

* every pairing of players: the elder's advantage per deal (win rate, mean points, margin);
* carte blanche, pique, repique and capot by seat; the distribution of deal totals by seat;
* the exchange: should the elder take all five, the younger all he can? (paired: the
  same deals under both choices, common random numbers, the paired difference reported);
* the rule variants (pique timing, older lead scoring), paired the same way;
* sinking (Law 47) and reading the declarations: what the ``guard`` sinking policy gains or
  costs its player, against an adversary who reads the calls at face value, who reads
  nothing, and who reads them knowing the policy; what reading is worth (paired, PIMC and
  heuristic players);
* discards chosen by search against the heuristic's keep value, and the exchange's two
  questions under the search (:mod:`ecarte_sim.analysis.piquet.search`), the arms played
  out by the heuristic and by the PIMC player;
* the partie: win probability of the first dealer, rubicon frequency, mean settlement,
  tie-breaks — should the winner of the cut choose to deal first?
* a side-by-side with the public peer engine's published figures.

Its files (piquet.md, pairings.csv, exchange.csv, sinking.csv, search.csv, partie.csv,
totals.png, exchange.png) are
written by :mod:`ecarte_sim.analysis.reports.piquet`.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from ecarte_sim.analysis.piquet.search import search_counts, search_summary
from ecarte_sim.analysis.piquet.summaries import deal_summary, mean_from_sums, partie_summary, rate
from ecarte_sim.analysis.stats.intervals import normal_ci
from ecarte_sim.engine.piquet import simulate as S
from ecarte_sim.engine.piquet.discard_search import WINDOW
from ecarte_sim.engine.piquet.records import N_OUTCOMES, PAIRED_COUNTS, Outcome
from ecarte_sim.engine.piquet.settings import Partie, Player, PiquetSettings, name_of

#: Figures the public peer engine publishes (a Rust port of a Python oracle; from its
#: README): 20,000 simulated deals.
PEER = {"deals": 20_000, "elder_win_full_exchange": 0.525, "elder_win_no_full_exchange": 0.496,
        "mean_elder_heuristic": 29.0, "mean_younger_heuristic": 20.0, "max_deal": 170}


#: Sampled deals each candidate discard of the search is evaluated on, in the report (twice
#: ``piquet discard-search``'s default: the report is run once and kept).
SEARCH_SAMPLES = 64

#: The sinking and reading comparisons, each (question, the seat whose gain it is, arm a's
#: settings, arm b's): the same deals under both arms, so the difference is the choice's
#: alone. ``guard``: rules.md "Sinking"; readings: ``face`` (the calls at face value, the
#: default), ``none`` (only the cards shown and the voids), ``full`` (the calls as the
#: adversary's known policy gives them; against a player who never sinks, ``face``).
SINKING = (
    ("reading the calls (face v none)", "elder", {}, {"elder_reading": "none"}),
    ("reading the calls (face v none)", "younger", {}, {"younger_reading": "none"}),
    ("sinking (guard v never), adversary reads face", "younger",
     {"younger_sink": "guard"}, {}),
    ("sinking (guard v never), adversary reads none", "younger",
     {"younger_sink": "guard", "elder_reading": "none"}, {"elder_reading": "none"}),
    ("sinking (guard v never), adversary reads full", "younger",
     {"younger_sink": "guard", "elder_reading": "full"}, {"elder_reading": "full"}),
    ("sinking (guard v never), adversary reads face", "elder", {"elder_sink": "guard"}, {}),
    ("sinking (guard v never), adversary reads none", "elder",
     {"elder_sink": "guard", "younger_reading": "none"}, {"younger_reading": "none"}),
    ("sinking (guard v never), adversary reads full", "elder",
     {"elder_sink": "guard", "younger_reading": "full"}, {"younger_reading": "full"}),
    ("reading a guard sinker (full v face)", "elder",
     {"younger_sink": "guard", "elder_reading": "full"}, {"younger_sink": "guard"}),
    ("reading a guard sinker (full v face)", "younger",
     {"elder_sink": "guard", "younger_reading": "full"}, {"elder_sink": "guard"}),
)
#: Of those, the ones that mean something for the heuristic player, who reads nothing from
#: the calls (only what he sinks changes).
SINKING_HEURISTIC = tuple(s for s in SINKING if s[0].endswith("reads face"))


def paired_summary(counts: np.ndarray) -> dict:
    """Paired difference of the elder's margin (elder − younger) between arms a and b,
    from a ``PAIRED_COUNTS`` row."""
    c = PAIRED_COUNTS.read(counts)
    n = c["deals"]
    diff = mean_from_sums(c["sum_diff"], c["sum_diff_sq"], n)
    table = np.array(c["outcomes"]).reshape(N_OUTCOMES, N_OUTCOMES)     # [under a, under b]
    won = Outcome.ELDER_WINS
    wins_a = int(table[won].sum())
    wins_b = int(table[:, won].sum())
    # Paired difference of the elder's win indicator: (a wins, b not) − (b wins, a not).
    only_a = wins_a - int(table[won, won])
    only_b = wins_b - int(table[won, won])
    d = (only_a - only_b) / n
    var = ((only_a + only_b) / n - d * d) / (n - 1) if n > 1 else math.nan
    se = math.sqrt(var) if var == var else math.nan
    return {"n": n, "margin_a": c["sum_a"] / n, "margin_b": c["sum_b"] / n,
            "margin_difference": diff,
            "elder_win_a": rate(wins_a, n), "elder_win_b": rate(wins_b, n),
            "elder_win_difference": {"mean": d, "se": se,
                                     "ci95": normal_ci(d, se)}}


def measure(seed: int, deals: dict, say=lambda msg: None, progress=None) -> dict:
    """Every figure of the report. ``deals`` maps a player name to the deals to run for a
    pairing involving it (the slowest player of the pairing decides), plus ``"partie"``
    and ``"paired"`` (as :data:`~ecarte_sim.engine.piquet.settings.REPORT_DEALS`)."""
    players = [p for p in Player if deals.get(name_of(p))]
    pairings = []
    for elder in players:
        for younger in players:
            n = deals[name_of(max(elder, younger))]       # Player is ordered by cost
            say(f"pairing elder {name_of(elder)} v younger {name_of(younger)}: {n} deals")
            settings = PiquetSettings(elder, younger)
            counts = S.deal_counts(seed, 0, n, settings.cfg(), chunk=settings.chunk(),
                                   block=settings.task_size(), progress=progress)
            pairings.append({"elder": name_of(elder), "younger": name_of(younger),
                             **deal_summary(counts)})

    n_pair = deals["paired"]
    exchange = []
    heuristic = PiquetSettings(Player.HEURISTIC, Player.HEURISTIC)
    base = heuristic.cfg()
    for take in (4, 3, 2, 1):
        say(f"exchange: elder takes 5 v {take} ({n_pair} deals)")
        counts = S.paired_counts(seed, 0, n_pair, base,
                                 replace(heuristic, elder_take=take).cfg())
        exchange.append({"question": "elder takes five", "a": "elder takes 5",
                         "b": f"elder takes {take}", **paired_summary(counts)})
    for take in (2, 1):
        say(f"exchange: younger takes all v {take} ({n_pair} deals)")
        counts = S.paired_counts(seed, 0, n_pair, base,
                                 replace(heuristic, younger_take=take).cfg())
        exchange.append({"question": "younger takes all", "a": "younger takes all (3)",
                         "b": f"younger takes {take}", **paired_summary(counts)})
    minimal = replace(heuristic, elder_take=1, younger_take=1).cfg()
    counts = S.paired_counts(seed, 0, n_pair, base, minimal)
    exchange.append({"question": "full v minimal exchange", "a": "full exchange (5 and 3)",
                     "b": "one card each", **paired_summary(counts)})
    say(f"exchange: full v minimal, random players ({n_pair} deals)")
    counts = S.paired_counts(seed, 0, n_pair, PiquetSettings().cfg(),
                             PiquetSettings(elder_take=1, younger_take=1).cfg())
    exchange.append({"question": "full v minimal exchange, random players",
                     "a": "full exchange (5 and 3)", "b": "one card each",
                     **paired_summary(counts)})

    variants = []
    for label, kw in (("pique timing law67 v lead", {"pique_timing": "law67"}),
                      ("lead scoring ten_up v all", {"lead_scoring": "ten_up"})):
        say(f"variant: {label} ({n_pair} deals)")
        variant = replace(heuristic, **kw).cfg()
        a = S.deal_counts(seed, 0, n_pair, variant)
        paired = S.paired_counts(seed, 0, n_pair, variant, base)
        variants.append({"variant": label, "summary": deal_summary(a),
                         **paired_summary(paired)})

    sinking = []
    for player, n in ((Player.HEURISTIC, n_pair), (Player.PIMC, deals.get("pimc", 0))):
        if not n:
            continue
        for question, seat, a, b in (SINKING_HEURISTIC if player == Player.HEURISTIC
                                     else SINKING):
            say(f"sinking: {question}, {seat} ({name_of(player)}, {n} deals)")
            arm_a = PiquetSettings(player, player, **a)
            arm_b = PiquetSettings(player, player, **b)
            counts = S.paired_counts(seed, 0, n, arm_a.cfg(), arm_b.cfg(),
                                     chunk=arm_a.chunk(), block=arm_a.task_size(),
                                     progress=progress)
            sinking.append({"question": question, "seat": seat, "players": name_of(player),
                            "a": arm_a.declaring_echo(), "b": arm_b.declaring_echo(),
                            **paired_summary(counts)})

    search = []
    n_search = deals.get("search", 0)
    for play in ((Player.HEURISTIC, Player.PIMC) if n_search else ()):
        say(f"discards by search, arms played by {name_of(play)} ({n_search} deals)")
        counts = search_counts(seed, 0, n_search, SEARCH_SAMPLES,
                               PiquetSettings(play, play), progress=progress)
        search.append({"play": name_of(play), "samples": SEARCH_SAMPLES, "window": WINDOW,
                       **search_summary(counts)})

    parties = []
    n_partie = deals["partie"]
    for player in (Player.RANDOM, Player.HEURISTIC):
        for partie in Partie:
            say(f"partie: {name_of(player)} v {name_of(player)}, {name_of(partie)} deals "
                f"({n_partie} parties)")
            cfg = PiquetSettings(player, player).cfg()
            counts = S.partie_counts(seed, 0, n_partie, cfg, cfg, four=partie == Partie.FOUR)
            parties.append({"players": name_of(player), "partie": name_of(partie),
                            **partie_summary(counts)})
    return {"pairings": pairings, "exchange": exchange, "variants": variants,
            "sinking": sinking, "search": search, "parties": parties, "peer": PEER}
