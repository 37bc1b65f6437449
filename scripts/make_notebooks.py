"""Writes the notebooks of notebooks/ (jeux_de_regle, score_strategy, piquet, strategy) from
the cells below, and with --execute runs them top to bottom at small sizes and writes them
with their outputs: the form they are committed in, so a reader sees the figures without
running anything.

Usage (needs nbformat, nbclient and ipykernel: the test extra):

    python scripts/make_notebooks.py --execute     # regenerate and execute (~30 s warm)
    python scripts/make_notebooks.py               # regenerate, no outputs

Execution is deterministic: small sizes (ECARTE_NOTEBOOK_SMALL=1), fixed seeds, the working
directory notebooks/, PNGs without a version stamp, no timings, the kernel's version dropped
from the metadata. tests/project/test_notebooks.py executes a fresh copy the same way and checks its
numbers against the committed outputs.
"""

import argparse
import copy
import difflib
import os
import re
import sys
import textwrap
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

# the repository root: the directory above scripts/
ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
#: The environment of an executing kernel: small sizes, no display.
SMALL_ENV = {"ECARTE_NOTEBOOK_SMALL": "1", "MPLBACKEND": "Agg"}


def build(prefix, cells):
    out = []
    for i, (kind, text) in enumerate(cells):
        text = textwrap.dedent(text).strip("\n")
        cid = f"{prefix}-{i:02d}"
        if kind == "md":
            out.append(new_markdown_cell(text, id=cid))
        else:
            cell = new_code_cell(text, id=cid)
            if i == 1 or kind == "params":
                cell.metadata["tags"] = ["parameters"]
            out.append(cell)
    nb = new_notebook(cells=out)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python",
                                 "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    nbformat.validate(nb)
    return nb


HELPERS = '''
    import base64
    import io

    import matplotlib
    matplotlib.use("Agg")  # no display needed; figures are shown as inline PNGs by show()
    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd
    from IPython.display import display


    def figure_numbers(fig):
        """The numbers a figure draws, per panel: its title, how many values (line and bar
        ends, image cells) and their least, greatest and sum (the figure's text form)."""
        lines = ["figure" + (f": {fig._suptitle.get_text()}" if fig._suptitle else "")]
        for ax in fig.axes:
            values = [np.asarray(line.get_ydata(), float).ravel() for line in ax.lines]
            values += [np.asarray(im.get_array(), float).ravel() for im in ax.images]
            values += [np.asarray(seg, float)[:, 1] for c in ax.collections
                       if isinstance(c, matplotlib.collections.LineCollection)
                       for seg in c.get_segments()]
            v = np.concatenate(values) if values else np.zeros(0)
            v = v[np.isfinite(v)]
            if v.size:
                lines.append(f"  panel '{ax.get_title()}': {v.size} values, least "
                             f"{v.min():.6g}, greatest {v.max():.6g}, sum {v.sum():.6g}")
        return "\\n".join(lines)


    def show(fig):
        """Show a figure inline as a PNG (works with the Agg backend, in Jupyter or not);
        its text form is figure_numbers(fig)."""
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=100, bbox_inches="tight",
                    metadata={"Software": None})  # no version stamp: the same bytes each run
        text = figure_numbers(fig)
        plt.close(fig)
        display({"image/png": base64.b64encode(buf.getvalue()).decode("ascii"),
                 "text/plain": text}, raw=True)


    def ci(interval, digits=3, signed=False):
        """A 95% interval as text."""
        lo, hi = interval
        f = f"{'+' if signed else ''}.{digits}f"
        return f"[{lo:{f}}, {hi:{f}}]"


    def reading(interval, above="playing better", below="proposing better"):
        """Where 0 lies relative to a 95% interval of a difference (play minus propose)."""
        lo, hi = interval
        if np.isnan(lo):
            return "no deals"
        if lo == hi == 0:
            return "no difference on any deal"
        return above if lo > 0 else below if hi < 0 else "interval contains 0"
'''

# --------------------------------------------------------------------------- notebook 1

REGLE = [
    ("md", r'''
    # Jeux de règle: a hand explorer and the rules' win rates

    *Hoyle's Games Modernized* ("Écarté") gives a list
    of **jeux de règle** — "hands which ought to be played without 'proposing' or 'accepting'":
    hands so good that the elder "cannot fail to win three tricks unless his adversary hold two
    trumps". Hoyle's list, in its own words (the rule names are those of
    `engine/ecarte/decisions/regle.py`, which also records how the text is read where it leaves a choice):

    | id | rule | Hoyle's Games Modernized |
    |---|---|---|
    | 1 | `three-trumps` | "With three trumps, play without proposing." |
    | 2 | `two-trumps-one-suit` | "Likewise with two trumps, if the other cards belong to one suit," |
    | 3 | `two-trumps-court-pair` | "or with two cards of one suit, one of which is the king or queen." |
    | 4 | `one-trump-four-king` | "Play if holding only one trump, provided the other cards are four of one suit, one being a king," |
    | 5 | `one-trump-three-court` | "or three cards of one suit, one being a king or queen, and the fifth card being a king or queen." |
    | 6 | `no-trump-three-queens` | "Play with no trump if three queens are held," |
    | 7 | `no-trump-four-courts` | "or four court cards." |

    Two figures come with the list:

    > "Although in many cases, where it is the rule to play, it is **two to one** in favour of the
    > player winning the point, it must not be imagined that he will always win. He may win
    > twice out of three times, ..."

    > "A holds queen, ace, and seven of hearts (trumps), king of spades, king of diamonds, and, of
    > course, plays without proposing. ... for A to propose would have been wrong, his hand being
    > strong enough to win **four times out of five**."

    This notebook has two parts: a **hand explorer** (how good is one elder hand, played without
    proposing and proposing first) and the **rules' win rates** (P(point) for each rule of the
    list over random deals, against the "two to one" line). Every figure comes from running the
    engine below, with its n and a 95% interval; nothing is quoted from a previous run.

    Play models: `dd` — both players see all the cards and play perfectly (double dummy: this
    measures the cards); `heuristic` — each player plays by Hoyle's advice from his own
    knowledge. The elder decides by the list (`regle`), the dealer answers a proposal by his
    maxims (`maxims`): the defaults of `es.EcarteSettings`, so one settings object per play
    model, `es.EcarteSettings.build(play=model)`, says everything.

    The code goes through the package's public API (`import ecarte_sim as es`) wherever it
    gives the figure: `es.EcarteSettings`, `es.classify` and `es.hand` for the hand explorer.
    The rules' win rates need a deeper layer the API does not wrap, imported from its module
    and named as such: the engine's paired experiment filed by rule of the list
    (`paired_table` with the `CLASSIFY_REGLE` classifier, `ecarte_sim.engine.ecarte.deals.experiments`,
    fed the kernel arrays `settings.cfg(elder_first=...)`), and the analysis statistics of its
    tables (`arm_summary`, `paired_mean`, `ecarte_sim.analysis.ecarte.measures.paired`).

    The first code cell sets the sizes. The defaults are a real exploration (a few seconds per
    model once numba has compiled the kernels); the test run sets `ECARTE_NOTEBOOK_SMALL=1`
    for small ones.
    '''),
    ("code", '''
    # Parameters (the test run sets ECARTE_NOTEBOOK_SMALL=1 for small sizes)
    import os

    SMALL = os.environ.get("ECARTE_NOTEBOOK_SMALL") == "1"
    SEED = 0
    MODELS = ("dd", "heuristic")                     # play models (pimc: far slower, use small sizes)
    HAND_DEALS = 20_000 if SMALL else 1_000_000      # sampled deals around each explored hand
    REGLE_DEALS = 50_000 if SMALL else 4_000_000     # random deals for the rules' win rates
    print(f"{'small' if SMALL else 'full'} run: HAND_DEALS={HAND_DEALS:,}, "
          f"REGLE_DEALS={REGLE_DEALS:,}, seed {SEED}, models {', '.join(MODELS)}")
    '''),
    ("code", HELPERS + '''

    import ecarte_sim as es  # the public API: settings, classify, hand

    # Deeper layers the API does not wrap (section 2): the engine's paired experiment filed
    # by rule of the list, and the analysis statistics of its tables.
    from ecarte_sim.analysis.ecarte.measures.paired import NET, arm_summary, paired_mean
    from ecarte_sim.analysis.stats.intervals import wilson_interval
    from ecarte_sim.engine.cards import SUIT_LETTERS, SUIT_NAMES
    from ecarte_sim.engine.ecarte.deals.experiments import CLASSIFY_REGLE, paired_table
    from ecarte_sim.engine.ecarte.decisions.regle import RULES

    # One settings object per play model; the other settings are the defaults (elder: the
    # list, dealer: his maxims, both discard trumps and kings).
    SETTINGS = {m: es.EcarteSettings.build(play=m) for m in MODELS}
    # The kernel arrays of the two arms of the paired experiment of section 2: the elder's
    # first decision forced (play without proposing / propose); later decisions by the
    # policies. (es.hand builds the same two arms itself.)
    CFG = {m: {"play": SETTINGS[m].cfg(elder_first="play"),
               "propose": SETTINGS[m].cfg(elder_first="propose")} for m in MODELS}
    TWO_THIRDS = 2 / 3
    '''),
    ("md", r'''
    ## 1. A hand explorer

    `explore(hand_text, trump)` takes the elder's five cards and the trump — a suit (`"H"`: the
    turn-up is drawn from the other cards of that suit) or the turned-up card (`"TH"`) — and
    prints, for each play model:

    * `es.classify(hand, trump)`: the rule of the list that makes the hand a jeu de règle, if
      any;
    * **exact**, `es.hand(hand, trump, settings, exact=True)`, playing without proposing:
      every turn-up and every one of the 65,780 dealer hands the other 26 cards allow, so
      P(point), P(vole) and the expected points (the elder's marks minus the dealer's in the
      deal, kings and Law 49 included — the dealer scores two if he wins the point against a
      hand played without proposing) are exact;
    * **sampled**, `es.hand(hand, trump, settings, deals=HAND_DEALS, seed=SEED)`: `HAND_DEALS`
      random deals around the hand, each played twice — without proposing, and proposing
      first (the dealer answers by his maxims; the deal goes on, the elder re-deciding by the
      list after each exchange) — with Wilson 95% intervals for the proportions and the
      **paired** difference in expected points (same deals) with its 95% interval. (Without
      `deals`, `es.hand` deals until both P(point) intervals are narrower than its
      `precision`.)

    The sampled "play" arm and the exact figure measure the same thing: the exact value should
    lie in the sampled interval about 95% of the time (the explorer says whether it does).
    '''),
    ("code", '''
    def explore(hand_text, trump, deals=None, seed=None, models=None):
        """Print what the engine says about one elder hand; return the figures as a DataFrame."""
        deals = HAND_DEALS if deals is None else deals
        seed = SEED if seed is None else seed
        models = MODELS if models is None else models
        rule = es.classify(hand_text, trump)["rule"]
        runs = {m: (es.hand(hand_text, trump, SETTINGS[m], exact=True),
                    es.hand(hand_text, trump, SETTINGS[m], deals=deals, seed=seed))
                for m in models}
        first = runs[models[0]][0]
        suit = SUIT_NAMES[SUIT_LETTERS.index(first["trump"])]
        up = (f"turn-up drawn from the other {suit}" if first["turn_up"] is None
              else f"turn-up {first['turn_up']}")
        print(f"{first['hand']} — {suit} trumps ({up})")
        print("  es.classify():", f"jeu de règle, rule '{rule}': play without proposing" if rule
              else "not a jeu de règle by Hoyle's list: propose")
        rows = []
        for model, (exact, sampled) in runs.items():
            ex = exact["play"]
            play, prop = sampled["play"], sampled["propose"]
            d_net = sampled["play_minus_propose"]
            inside = play["ci95"][0] <= ex["point"] <= play["ci95"][1]
            print(f"  [{model}] play without proposing, exact over n={ex['n']:,} deals: "
                  f"P(point) {ex['point']:.4f}, P(vole) {ex['vole']:.4f}, "
                  f"expected points {ex['expected_points']:+.4f}")
            print(f"  [{model}] sampled, n={play['n']:,} deals of seed {seed} (95% intervals):")
            for name, s in (("play   ", play), ("propose", prop)):
                print(f"      {name}  P(point) {s['point']:.4f} {ci(s['ci95'], 4)}   "
                      f"P(vole) {s['vole']:.4f} {ci(s['vole_ci95'], 4)}   expected points "
                      f"{s['expected_points']:+.4f} {ci(s['expected_points_ci95'], 4, True)}")
            print(f"      play minus propose (paired, n={d_net['n']:,}): expected points "
                  f"{d_net['expected_points']:+.4f} {ci(d_net['ci95'], 4, True)} -> "
                  f"{reading(d_net['ci95'])}")
            print(f"      the exact P(point) is {'inside' if inside else 'OUTSIDE'} the sampled "
                  "play interval")
            rows.append({"hand": first["hand"], "trump": trump, "rule": rule or "-",
                         "model": model, "n exact": ex["n"],
                         "P(point) exact": ex["point"], "P(vole) exact": ex["vole"],
                         "E[points] exact": ex["expected_points"], "n sampled": play["n"],
                         "P(point) propose": prop["point"],
                         "P(point) propose 95%": ci(prop["ci95"], 4),
                         "play-propose E[points]": d_net["expected_points"],
                         "play-propose 95%": ci(d_net["ci95"], 4, True)})
        return pd.DataFrame(rows)
    '''),
    ("md", r'''
    The seed's example hand — queen, ace and seven of hearts (trumps), king of spades, king of
    diamonds, "strong enough to win four times out of five". Compare the exact P(point) with
    4/5, and the sign of the paired difference with "for A to propose would have been wrong".
    '''),
    ("code", '''
    example = explore("QH AH 7H KS KD", "H")
    example
    '''),
    ("md", r'''
    A second hand: the treatise's first example of a jeu de règle, "King, queen, knave of
    spades, eight of hearts (trumps), eight of diamonds. Lead king of spades; if not trumped,
    follow with queen, etc." Read literally, the list does *not* cover it (rule 5 wants the
    fifth card to be a king or queen), so `es.classify()` says propose: is playing it without
    proposing better or worse than proposing? Change the hand and the trump to explore others.
    '''),
    ("code", '''
    other = explore("KS QS JS 8H 8D", "H")
    other
    '''),
    ("md", r'''
    ## 2. The rules' win rates

    `paired_table(..., CLASSIFY_REGLE)` (engine layer, `ecarte_sim.engine.ecarte.deals.experiments`:
    the public API does not wrap it) deals `REGLE_DEALS` random deals and plays, twice, only
    those where the elder's dealt hand is a jeu de règle — without proposing
    (`settings.cfg(elder_first="play")`) and proposing first
    (`settings.cfg(elder_first="propose")`). Each is filed under its rule (the first rule of
    the list that fits), and by whether the elder holds the king of trumps. For each rule
    (analysis layer, `ecarte_sim.analysis.ecarte.measures.paired`): n, P(point) playing without
    proposing with its Wilson 95% interval (`arm_summary`), the same when proposing first,
    and the paired change in expected points (`paired_mean`).

    What to look at: whether each rule's interval sits around the "two to one" line (2/3),
    above it (the list is better than the text says), or below it; and whether the rules the
    text lists together behave alike. `ecarte-sim claims` (from Python:
    `es.claims_frame(es.claims())`) judges "two to one" mechanically, read as an estimate
    (within ±0.05 of 2/3) and as a floor (at least 2/3), with rules fixed in
    `analysis/ecarte/claims/decisions.py`.
    '''),
    ("code", '''
    TABLES = {m: paired_table(SEED, 0, REGLE_DEALS, CFG[m]["play"], CFG[m]["propose"],
                              CLASSIFY_REGLE) for m in MODELS}
    # Which deals are jeux de règle depends on the dealt cards only, not on the play model.
    n_regle = int(TABLES[MODELS[0]].sum())
    share_ci = wilson_interval(n_regle, REGLE_DEALS)
    print(f"jeux de règle: {n_regle:,} of {REGLE_DEALS:,} random deals (seed {SEED}) = "
          f"{n_regle / REGLE_DEALS:.4f} {ci(share_ci, 4)} (Wilson 95%)")


    def parts(table):
        """(label, 48 x 48 joint table) per rule, then all jeux de règle, with/without king."""
        out = [(f"{r}. {name}", table[r] + table[r + 8]) for r, name in enumerate(RULES, 1)]
        out += [("all jeux de règle", table.sum(axis=0)),
                ("  with the king of trumps", table[8:].sum(axis=0)),
                ("  without the king of trumps", table[:8].sum(axis=0))]
        return out


    rows = []
    for m in MODELS:
        for label, joint in parts(TABLES[m]):
            a, b = arm_summary(joint.sum(axis=1)), arm_summary(joint.sum(axis=0))
            d = paired_mean(joint, NET.astype(float))
            rows.append({"model": m, "hands": label, "n": a["n"],
                         "P(point) play": a["point"], "lo": a["point_ci95"][0],
                         "hi": a["point_ci95"][1], "P(point) propose": b["point"],
                         "propose lo": b["point_ci95"][0], "propose hi": b["point_ci95"][1],
                         "P(vole) play": a["vole"], "P(vole) play 95%": ci(a["vole_ci95"]),
                         "E[points] play": a["expected_points"],
                         "E[points] play 95%": ci(a["expected_points_ci95"], 3, True),
                         "play-propose E[points]": d["mean"],
                         "play-propose 95%": ci(d["ci95"], 3, True)})
    rates = pd.DataFrame(rows)
    shown = rates.assign(**{
        "P(point) play 95%": [ci(x) for x in zip(rates["lo"], rates["hi"])],
        "P(point) propose 95%": [ci(x) for x in zip(rates["propose lo"], rates["propose hi"])],
    })[["model", "hands", "n", "P(point) play", "P(point) play 95%", "P(point) propose",
        "P(point) propose 95%", "P(vole) play", "P(vole) play 95%", "E[points] play",
        "E[points] play 95%", "play-propose E[points]", "play-propose 95%"]]
    with pd.option_context("display.max_columns", None, "display.width", 250,
                           "display.float_format", "{:.4f}".format):
        display(shown)
    '''),
    ("code", '''
    labels = [f"{r}. {name}" for r, name in enumerate(RULES, 1)] + ["all jeux de règle"]
    x = np.arange(len(labels))
    fig, ax = plt.subplots(figsize=(11, 4.8))
    width = 0.8 / (2 * len(MODELS))
    for i, m in enumerate(MODELS):
        sub = rates[(rates["model"] == m) & rates["hands"].isin(labels)].set_index("hands")
        sub = sub.loc[labels]
        for j, (col, lo, hi, marker, fill) in enumerate((
                ("P(point) play", "lo", "hi", "o", True),
                ("P(point) propose", "propose lo", "propose hi", "s", False))):
            pos = x + (2 * i + j - len(MODELS) + 0.5) * width
            y = sub[col].to_numpy()
            err = np.vstack([y - sub[lo].to_numpy(), sub[hi].to_numpy() - y])
            ax.errorbar(pos, y, yerr=err, fmt=marker, capsize=3, color=f"C{i}",
                        mfc=f"C{i}" if fill else "white",
                        label=f"{m}: {'play without proposing' if fill else 'propose first'}")
    ax.axhline(TWO_THIRDS, color="k", ls="--", lw=1, label="two to one (2/3)")
    n_by = rates[rates["model"] == MODELS[0]].set_index("hands")["n"]
    ax.set_xticks(x, [f"{lab}\\nn={n_by[lab]:,}" for lab in labels], rotation=30, ha="right",
                  fontsize=8)
    ax.set_ylabel("P(elder wins the point)")
    ax.set_ylim(0, 1.02)
    ax.set_title(f"Jeux de règle: P(point) by rule, {REGLE_DEALS:,} random deals (seed {SEED}); "
                 "bars: 95% Wilson intervals", fontsize=10)
    ax.legend(fontsize=8, loc="lower left", ncol=2)
    show(fig)
    '''),
    ("md", r'''
    ## Summary

    The cell below prints the headline figure per play model — P(point) over all jeux de règle
    played without proposing — and where 2/3 lies relative to its interval. For the verdicts
    (per rule, both readings, and the other claims of the treatise), run
    `ecarte-sim claims --deals 2000 --json` (quick) or `ecarte-sim claims` (to the default
    precision) — from Python, `es.claims_frame(es.claims(settings=es.ClaimsSettings(deals=2000)))`;
    for one hand, `ecarte-sim hand "QH AH 7H KS KD" --trump H --exact --json`, or
    `es.hand("QH AH 7H KS KD", "H", exact=True)`.
    '''),
    ("code", '''
    for m in MODELS:
        s = arm_summary(TABLES[m].sum(axis=0).sum(axis=1))
        lo, hi = s["point_ci95"]
        where = "inside" if lo <= TWO_THIRDS <= hi else "below" if TWO_THIRDS < lo else "above"
        print(f"[{m}] all jeux de règle, played without proposing: P(point) {s['point']:.4f} "
              f"{ci(s['point_ci95'], 4)}, n={s['n']:,}; 2/3 lies {where} the interval")
    '''),
]

# --------------------------------------------------------------------------- notebook 2

SCORE = [
    ("md", r'''
    # The score: game-win probability, and playing or proposing at every score

    A game of Écarté is five up (Law 46): the deal alternates, and the game ends the moment a
    mark reaches five — a king turned up at four wins before a card is played. Seed 002 (*Hoyle's
    Games Modernized*, "Écarté") advises:

    > "The condition of the score ought to be considered before proposing or playing without
    > proposing. **If the adversary be at the score of three**, it is dangerous to play without
    > proposing, unless the hand be very strong. **If the adversary be at four**, it is better
    > not to propose if the non-dealer's hand be fairly strong, unless the king be held, as
    > there is a chance of the dealer drawing the king, and at once scoring game."

    > "It is not unusual for a player who may hold the trick for certainty to propose in the
    > hopes of being refused, in order that he may, by winning the trick, score two. If this
    > occurred **at the score of three**, the results would be **fatal**."

    This notebook computes (1) the probability of winning the game from every score, and (2)
    for the jeux de règle (hands the list says to play without proposing), how much playing
    rather than proposing changes the elder's chance of winning the game, at every score. The
    numbers come from running the engine below, each with n and a 95% interval; the discussion
    at the end says what to look at, not what was found.

    Play models: `dd` (both players see all the cards: measures the cards) and `heuristic`
    (Hoyle's advice from each player's own knowledge). Elder policy `regle` (Hoyle's list),
    dealer policy `maxims` — the defaults of `es.EcarteSettings`, so one settings object per
    play model, `es.EcarteSettings.build(play=model)`, says everything. The first code cell
    sets the sizes: real ones by default, small ones when `ECARTE_NOTEBOOK_SMALL=1` (the test
    run).

    The settings come from the package's public API (`import ecarte_sim as es`). The rest is
    a layer below it, because this notebook needs what the API's summaries leave out, and
    each piece is imported from its module: the engine's whole-deal counts
    (`whole_counts`, `ecarte_sim.engine.ecarte.deals.counts`) and paired experiment filed by rule of
    the list (`paired_table` with `CLASSIFY_REGLE`, `ecarte_sim.engine.ecarte.deals.experiments`),
    fed the kernel arrays `settings.cfg(...)`; and the analysis of their counts — the
    elder's win table V as an array (`win_table`, `ecarte_sim.analysis.ecarte.measures.scores`; the
    API's `es.scores` gives the same table from a player's point of view, as lists) and the
    paired game values (`game_value`, `paired_mean`, `ecarte_sim.analysis.ecarte.measures.paired`).
    '''),
    ("code", '''
    # Parameters (the test run sets ECARTE_NOTEBOOK_SMALL=1 for small sizes)
    import os

    SMALL = os.environ.get("ECARTE_NOTEBOOK_SMALL") == "1"
    SEED = 0
    MODELS = ("dd", "heuristic")                     # play models (pimc: far slower, use small sizes)
    SCORE_DEALS = 50_000 if SMALL else 2_000_000     # whole deals for the outcome distribution
    REGLE_DEALS = 50_000 if SMALL else 4_000_000     # random deals for play vs propose
    BOOTSTRAP = 50 if SMALL else 400                 # bootstrap replicates for V's intervals
    print(f"{'small' if SMALL else 'full'} run: SCORE_DEALS={SCORE_DEALS:,}, "
          f"REGLE_DEALS={REGLE_DEALS:,}, BOOTSTRAP={BOOTSTRAP}, seed {SEED}, "
          f"models {', '.join(MODELS)}")
    '''),
    ("code", HELPERS + '''

    import ecarte_sim as es  # the public API: the settings

    # Deeper layers the API does not wrap: the engine's counts and paired experiment, and
    # the analysis of their counts (V as an array, game values of paired deals).
    from ecarte_sim.analysis.ecarte.measures.paired import game_value, paired_mean
    from ecarte_sim.analysis.ecarte.measures.scores import TARGET, win_table
    from ecarte_sim.engine.ecarte.deals.counts import whole_counts
    from ecarte_sim.engine.ecarte.deals.experiments import CLASSIFY_REGLE, paired_table

    # One settings object per play model; the other settings are the defaults (elder: the
    # list, dealer: his maxims, both discard trumps and kings).
    SETTINGS = {m: es.EcarteSettings.build(play=m) for m in MODELS}


    def grid_frame(mean, lo, hi, digits=3, signed=False, rows="elder", cols="dealer"):
        """A 5 x 5 grid as a DataFrame of 'estimate [lo, hi]' strings."""
        f = f"{'+' if signed else ''}.{digits}f"
        return pd.DataFrame(
            [[f"{mean[a, b]:{f}} [{lo[a, b]:{f}}, {hi[a, b]:{f}}]" for b in range(TARGET)]
             for a in range(TARGET)],
            index=pd.Index(range(TARGET), name=f"{rows} at"),
            columns=pd.Index(range(TARGET), name=f"{cols} at"))
    '''),
    ("md", r'''
    ## 1. Who wins the game from each score

    `whole_counts(..., settings.cfg())` plays `SCORE_DEALS` whole deals (proposals, exchanges,
    tricks, kings) and counts their outcomes; `win_probabilities` turns the outcome
    distribution into
    **V[x, y]**: the probability that the player about to be *elder*, at score x, beats the
    dealer at y (an exact recursion over the scores; the policies here do not look at the
    score). Intervals: parametric bootstrap, `BOOTSTRAP` replicates (`win_table`). The player
    who deals next at x against y wins with 1 − V[y, x]. (`es.scores(SCORE_DEALS, seed=SEED,
    settings=settings, bootstrap=BOOTSTRAP)` computes the same tables — V as
    `"opponent_deals_next"`, 1 − Vᵀ as `"i_deal_next"` — and `es.scores_frame` lays them out
    long; section 2 needs V itself as an array, hence `win_table`.)

    What to look at: V[0, 0] (the elder's advantage at the start), how fast V falls along a
    row as the dealer nears five, and the column y = 4 (a king turned up wins the dealer the
    game at once).
    '''),
    ("code", '''
    SCORES = {}
    for m in MODELS:
        counts = whole_counts(SEED, 0, SCORE_DEALS, SETTINGS[m].cfg())
        SCORES[m] = t = win_table(counts, BOOTSTRAP, SEED)
        print(f"[{m}] V[x, y] (rows: the elder's score x, columns: the dealer's y) from "
              f"n={t['n']:,} whole deals of seed {SEED}; 95% bootstrap intervals "
              f"({BOOTSTRAP} replicates). V[0, 0] = {t['v'][0, 0]:.4f} "
              f"{ci((t['lo'][0, 0], t['hi'][0, 0]), 4)}")
        display(grid_frame(t["v"], t["lo"], t["hi"]))
    '''),
    ("code", '''
    fig, axes = plt.subplots(1, len(MODELS), figsize=(5.2 * len(MODELS), 4.6),
                             constrained_layout=True, squeeze=False)
    for ax, m in zip(axes[0], MODELS):
        t = SCORES[m]
        im = ax.imshow(t["v"], vmin=0, vmax=1, cmap="RdBu", origin="lower")
        for a in range(TARGET):
            for b in range(TARGET):
                ax.text(b, a, f"{t['v'][a, b]:.3f}\\n[{t['lo'][a, b]:.3f},\\n{t['hi'][a, b]:.3f}]",
                        ha="center", va="center", fontsize=6.5,
                        color="white" if abs(t["v"][a, b] - 0.5) > 0.35 else "black")
        ax.set_xlabel("dealer's score y")
        ax.set_ylabel("elder's score x")
        ax.set_title(f"{m}: V[x, y], n={t['n']:,} deals", fontsize=10)
    fig.colorbar(im, ax=axes[0].tolist(), shrink=0.8, label="P(elder wins the game)")
    fig.suptitle(f"P(the elder wins five up) from each score; 95% bootstrap intervals "
                 f"({BOOTSTRAP} replicates)", fontsize=10)
    show(fig)
    '''),
    ("md", r'''
    ## 2. Jeux de règle: playing rather than proposing, at every score

    `paired_table(..., CLASSIFY_REGLE)` plays every deal of `REGLE_DEALS` random deals whose
    elder hand is a jeu de règle twice on the same cards: without proposing
    (`settings.cfg(elder_first="play")`) and proposing first
    (`settings.cfg(elder_first="propose")`: the dealer answers by his maxims, the elder
    re-decides by the list after each exchange). Each
    arm's result is an arm code (who marked a king, who won the point or the vole, Law 49's
    double marks); `game_value(V, x, y)` turns an arm code into the elder's probability of
    winning the game from x–y after that deal (1 or 0 if the deal ends the game, else
    1 − V[y', x']: he deals next). The change

    Δ(x, y) = mean over the same deals of [game value playing − game value proposing]

    is a paired mean (`paired_mean`) with a 95% normal interval. The interval covers the
    sampling of the deals; V itself is taken from section 1 as known (its own intervals are
    shown there). Positive: playing wins the game more often; negative: proposing does.

    The same is computed for parts of the jeux de règle that the advice singles out: rule 1
    (three trumps or more: "very strong"), and the hands with and without the king of trumps
    ("unless the king be held").
    '''),
    ("code", '''
    def delta_grid(joint, v):
        """Δ(x, y), its 95% interval and n from a 48 x 48 joint table (play, propose)."""
        mean, lo, hi = (np.full((TARGET, TARGET), np.nan) for _ in range(3))
        for x in range(TARGET):
            for y in range(TARGET):
                r = paired_mean(joint, game_value(v, x, y))
                mean[x, y], (lo[x, y], hi[x, y]) = r["mean"], r["ci95"]
        return {"mean": mean, "lo": lo, "hi": hi, "n": int(joint.sum()), "joint": joint}


    TABLES, DELTA = {}, {}
    for m in MODELS:
        T = TABLES[m] = paired_table(SEED, 0, REGLE_DEALS, SETTINGS[m].cfg(elder_first="play"),
                                     SETTINGS[m].cfg(elder_first="propose"), CLASSIFY_REGLE)
        v = SCORES[m]["v"]
        DELTA[m] = {"all jeux de règle": delta_grid(T.sum(axis=0), v),
                    "rule 1 (three trumps)": delta_grid(T[1] + T[9], v),
                    "with the king of trumps": delta_grid(T[8:].sum(axis=0), v),
                    "without the king of trumps": delta_grid(T[:8].sum(axis=0), v)}
        d = DELTA[m]["all jeux de règle"]
        print(f"[{m}] Δ(x, y), all jeux de règle: n={d['n']:,} deals (of {REGLE_DEALS:,} random "
              f"deals, seed {SEED}), paired 95% intervals")
        display(grid_frame(d["mean"], d["lo"], d["hi"], digits=4, signed=True))
    '''),
    ("code", '''
    fig, axes = plt.subplots(1, len(MODELS), figsize=(5.6 * len(MODELS), 4.8),
                             constrained_layout=True, squeeze=False)
    for ax, m in zip(axes[0], MODELS):
        d = DELTA[m]["all jeux de règle"]
        top = np.nanmax(np.abs(d["mean"])) or 1.0
        im = ax.imshow(d["mean"], vmin=-top, vmax=top, cmap="PuOr", origin="lower")
        for a in range(TARGET):
            for b in range(TARGET):
                sure = d["lo"][a, b] > 0 or d["hi"][a, b] < 0
                ax.text(b, a, f"{d['mean'][a, b]:+.3f}\\n[{d['lo'][a, b]:+.3f},\\n"
                        f"{d['hi'][a, b]:+.3f}]", ha="center", va="center", fontsize=6.5,
                        fontweight="bold" if sure else "normal",
                        color="white" if abs(d["mean"][a, b]) > 0.6 * top else "black")
        ax.set_xlabel("dealer's score y")
        ax.set_ylabel("elder's score x")
        ax.set_title(f"{m}: Δ(x, y), n={d['n']:,} jeux de règle", fontsize=10)
        fig.colorbar(im, ax=ax, shrink=0.8, label="Δ P(elder wins the game), play − propose")
    fig.suptitle("Jeux de règle: change in the elder's game-win probability from playing "
                 "rather than proposing; 95% paired intervals (bold: 0 outside)", fontsize=10)
    show(fig)
    '''),
    ("code", '''
    # Δ(x, y) along the dealer's score, elder at 0, for the parts the advice singles out
    fig, axes = plt.subplots(1, len(MODELS), figsize=(5.6 * len(MODELS), 4.2),
                             constrained_layout=True, squeeze=False, sharey=True)
    for ax, m in zip(axes[0], MODELS):
        for k, (label, d) in enumerate(DELTA[m].items()):
            ys = np.arange(TARGET) + (k - 1.5) * 0.08
            mean = d["mean"][0]
            err = np.vstack([mean - d["lo"][0], d["hi"][0] - mean])
            ax.errorbar(ys, mean, yerr=err, fmt="o-", capsize=3, ms=4,
                        label=f"{label} (n={d['n']:,})")
        ax.axhline(0, color="k", lw=0.8)
        ax.set_xticks(range(TARGET))
        ax.set_xlabel("dealer's score y (elder at 0)")
        ax.set_ylabel("Δ P(elder wins the game), play − propose")
        ax.set_title(m, fontsize=10)
    fig.legend(*axes[0][0].get_legend_handles_labels(), loc="outside lower center", ncol=2,
               fontsize=8)
    fig.suptitle("Playing rather than proposing a jeu de règle, by the dealer's score; "
                 "95% paired intervals", fontsize=10)
    show(fig)
    '''),
    ("md", r'''
    ## 3. The seed's score advice, cell by cell

    The cell below prints, for each piece of advice, the cells of Δ it speaks about, with n,
    the 95% interval and where 0 lies relative to it:

    * **"If the adversary be at the score of three, it is dangerous to play without proposing,
      unless the hand be very strong."** — the column y = 3 (Δ negative would mean proposing
      wins more games); the change of Δ from y = 0 to y = 3 on the same deals ("more dangerous
      than at the start"); and rule 1 (three trumps: "very strong") at 0–3.
    * **"If the adversary be at four, it is better not to propose if the non-dealer's hand be
      fairly strong, unless the king be held"** — the column y = 4, split into the jeux de
      règle without the king of trumps (Δ positive would support "better not to propose") and
      with it (Δ negative would support "unless the king be held").
    * **"If this occurred at the score of three, the results would be fatal."** — the row x = 3:
      the elder at three who proposes a hand he should play.

    Points to keep in mind when reading them: a jeu de règle is a *strong* hand by
    construction, so "very strong" and "fairly strong" are readings, not definitions; `dd`
    measures the cards with both players seeing everything, `heuristic` the seed's play; the
    policies do not look at the score, so Δ is a one-deal deviation followed by the usual
    policy; and intervals that contain 0 at these sizes may not at larger ones (raise
    `REGLE_DEALS`).

    `ecarte-sim claims` (from Python: `es.claims_frame(es.claims())`) applies verdict rules
    fixed in advance (`analysis/ecarte/claims/decisions.py`: claim ids
    `adversary-at-three`, `adversary-at-four`, `propose-at-three-fatal`, `jeux-de-regle-play`)
    to the same measurements, per play model (including `pimc`): try
    `ecarte-sim claims --deals 2000 --json` for a quick run, or `ecarte-sim claims` to the
    default precision. `ecarte-sim scores --deals 100000 --json` (from Python:
    `es.scores_frame(es.scores(100_000))`) prints the tables of section 1 from a player's
    point of view.
    '''),
    ("code", '''
    def line(label, r, **words):
        return (f"    {label:<44} {r['mean']:+.4f} {ci(r['ci95'], 4, True)}  n={r['n']:,}  "
                f"-> {reading(r['ci95'], **words)}")


    for m in MODELS:
        D, v = DELTA[m], SCORES[m]["v"]
        regle = D["all jeux de règle"]["joint"]
        print(f"[{m}] play minus propose, change in the elder's game-win probability")
        print("  adversary at three (dealer y = 3):")
        for x in range(TARGET):
            print(line(f"all jeux de règle, {x}-3",
                       paired_mean(regle, game_value(v, x, 3))))
        for x in range(TARGET):
            print(line(f"all jeux de règle, {x}-3 minus {x}-0",
                       paired_mean(regle, game_value(v, x, 3) - game_value(v, x, 0)),
                       above="playing gains more at 3", below="playing gains less at 3"))
        print(line("rule 1 (three trumps), 0-3",
                   paired_mean(D["rule 1 (three trumps)"]["joint"], game_value(v, 0, 3))))
        print("  adversary at four (dealer y = 4):")
        for part in ("without the king of trumps", "with the king of trumps"):
            for x in range(TARGET):
                print(line(f"{part}, {x}-4", paired_mean(D[part]["joint"], game_value(v, x, 4))))
        print("  'fatal' at three (elder x = 3):")
        for y in range(TARGET):
            print(line(f"all jeux de règle, 3-{y}", paired_mean(regle, game_value(v, 3, y))))
        print()
    '''),
    ("code", '''
    for m in MODELS:
        d = DELTA[m]["all jeux de règle"]
        print(f"[{m}] play minus propose at 0-0, all jeux de règle: {d['mean'][0, 0]:+.4f} "
              f"{ci((d['lo'][0, 0], d['hi'][0, 0]), 4, True)}, n={d['n']:,} "
              f"-> {reading((d['lo'][0, 0], d['hi'][0, 0]))}")
    '''),
]

# --------------------------------------------------------------------------- notebook 3

PIQUET = [
    ("md", r'''
    # Piquet: the elder's advantage, the exchange and the partie

    The Laws of Piquet (Portland and Turf Clubs) as
    implemented in `engine/piquet/` — every reading of an ambiguous law is written in
    `engine/piquet/rules.md`. Four players: `random` (full exchange of random cards, random
    legal play: the public peer engine's baseline), `heuristic` (keep-value discards,
    remembered-card play), `dd` (double-dummy play: sees both hands) and `pimc` (samples the
    opponent's hand consistent with what it has seen — his declarations, shown cards and
    voids — and plays the card best on average over the sampled worlds).

    Every figure below is measured here, with its n and a 95% interval. The first code cell
    sets the sizes; the test run sets `ECARTE_NOTEBOOK_SMALL=1` for small ones.
    '''),
    ("code", '''
    # Parameters (the test run sets ECARTE_NOTEBOOK_SMALL=1 for small sizes)
    import os

    SMALL = os.environ.get("ECARTE_NOTEBOOK_SMALL") == "1"
    SEED = 0
    DEALS = 20_000 if SMALL else 1_000_000        # deals per pairing (random, heuristic)
    DD_DEALS = 300 if SMALL else 16_384           # deals per pairing with the dd player
    PAIRED = 20_000 if SMALL else 500_000         # deals per paired exchange comparison
    PARTIES = 2_000 if SMALL else 200_000         # parties per partie study
    print(f"{'small' if SMALL else 'full'} run: DEALS={DEALS:,}, DD_DEALS={DD_DEALS:,}, "
          f"PAIRED={PAIRED:,}, PARTIES={PARTIES:,}, seed {SEED}")
    '''),
    ("code", HELPERS + '''

    import ecarte_sim as es
    from ecarte_sim.analysis.piquet.report import paired_summary
    from ecarte_sim.engine.piquet import simulate as S
    '''),
    ("md", r'''
    ## 1. One deal, told

    Deal 0 of the seed, both players heuristic: `es.piquet_deal` has the kernel play it and the
    plain reference (`engine/piquet/reference.py`) tell it event by event.
    '''),
    ("code", '''
    HEURISTIC = es.PiquetSettings(elder_player="heuristic", younger_player="heuristic")
    told = es.piquet_deal(seed=SEED, index=0, settings=HEURISTIC)
    print("elder  ", told["deal"]["elder"])
    print("younger", told["deal"]["younger"])
    for ev in told["events"]:
        if ev["event"] in ("discard", "declare", "trick", "cards", "capot", "pique", "repique",
                           "carte_blanche"):
            print(f"  {ev['event']:<9} {ev['player'] or '':<8} +{ev['score']:<3} "
                  f"[{ev['elder_total']}-{ev['younger_total']}]")
    print(f"deal total: elder {told['elder']}, younger {told['younger']}")
    '''),
    ("md", r'''
    ## 2. The elder's advantage, pairing by pairing

    A deal is won by the higher total (equal totals tie). Margin = elder's total − younger's.
    '''),
    ("code", '''
    rows = []
    for elder in ("random", "heuristic", "dd"):
        for younger in ("random", "heuristic", "dd"):
            n = DD_DEALS if "dd" in (elder, younger) else DEALS
            s = es.piquet_simulate(n, seed=SEED, settings=es.PiquetSettings(
                elder_player=elder, younger_player=younger))
            iv = s["intervals"]
            rows.append({"elder": elder, "younger": younger, "n": n,
                         "elder wins": iv["elder_win_rate"]["rate"],
                         "95% CI": ci(iv["elder_win_rate"]["ci95"], 4),
                         "mean elder": s["mean_elder"], "mean younger": s["mean_younger"],
                         "margin": iv["mean_difference"]["mean"],
                         "margin 95% CI": ci(iv["mean_difference"]["ci95"], 2),
                         "pique": s["by_seat"]["elder"]["pique"]["rate"],
                         "capot (elder)": s["by_seat"]["elder"]["capot"]["rate"]})
            if (elder, younger) == ("heuristic", "heuristic"):
                HEUR = s
    pairings = pd.DataFrame(rows)
    display(pairings.round(4))
    h = pairings[(pairings.elder == "heuristic") & (pairings.younger == "heuristic")].iloc[0]
    print(f"heuristic v heuristic: elder wins {h['elder wins']:.4f} {h['95% CI']}, "
          f"mean {h['mean elder']:.2f} v {h['mean younger']:.2f} (n={h['n']:,})")
    '''),
    ("code", '''
    fig, ax = plt.subplots(figsize=(8, 3.5))
    for seat in ("elder", "younger"):
        hist = np.array(HEUR["histogram"][seat], dtype=float)
        ax.step(np.arange(len(hist)), hist / hist.sum(), where="mid", label=seat)
    ax.set_xlim(0, 120)
    ax.set_xlabel("deal total")
    ax.set_ylabel("share of deals")
    ax.set_title(f"Deal totals by seat, heuristic v heuristic (n = {HEUR['deals']:,})")
    ax.legend()
    show(fig)
    '''),
    ("md", r'''
    ## 3. Should the elder take all five, and the younger all he can?

    Paired: every deal is played twice (same cards, same random words), once each way; the
    difference of the elder's margin is averaged over the same deals.
    '''),
    ("code", '''
    from dataclasses import replace
    rows = []
    for label, other in [("elder takes 4", replace(HEURISTIC, elder_take=4)),
                         ("elder takes 3", replace(HEURISTIC, elder_take=3)),
                         ("younger takes 2", replace(HEURISTIC, younger_take=2)),
                         ("younger takes 1", replace(HEURISTIC, younger_take=1))]:
        p = paired_summary(S.paired_counts(SEED, 0, PAIRED, HEURISTIC.cfg(), other.cfg()))
        d = p["margin_difference"]
        rows.append({"full exchange v": label, "n": p["n"], "margin (full)": p["margin_a"],
                     "margin (other)": p["margin_b"], "difference": d["mean"],
                     "95% CI": ci(d["ci95"], 3, True)})
    exchange = pd.DataFrame(rows)
    display(exchange.round(3))
    e4 = exchange.iloc[0]
    print(f"elder five v four: the elder's margin changes by {e4['difference']:+.3f} "
          f"{e4['95% CI']} points a deal (n={e4['n']:,})")
    '''),
    ("md", r'''
    ## 4. The partie: should the winner of the cut deal first?

    Same player on both sides; A deals first (and so is elder in deals 2, 4, 6). Settlement by
    Laws 72–73 (the loser under 100 is rubiconed).
    '''),
    ("code", '''
    for player in ("random", "heuristic"):
        s = es.piquet_partie(PARTIES, seed=SEED, settings=es.PiquetSettings(
            elder_player=player, younger_player=player))
        w, r = s["intervals"]["first_dealer_win_rate"], s["intervals"]["rubicon_rate"]
        m = s["intervals"]["first_dealer_settlement"]
        print(f"{player}: first dealer wins {w['rate']:.4f} {ci(w['ci95'], 4)}, rubicon "
              f"{r['rate']:.4f} {ci(r['ci95'], 4)}, mean settlement {m['mean']:+.2f} "
              f"{ci(m['ci95'], 2, True)} (n={s['parties']:,} parties)")
    '''),
]


STRATEGY = [
    ("md", r'''
    # What should one play? Best responses to the treatise

    *Hoyle's Games Modernized* gives the elder a list of hands "which ought to be played
    without proposing", the dealer his maxims for accepting, and both a rule for the
    discard: "a king or a trump should not be discarded in the first instance". This
    notebook asks what the right play is, hand by hand, and how far the treatise is from it.

    The unit is the **canonical state**: a player's five cards and the turn-up, with the
    three plain suits interchangeable (255,304 states). For a state, each action (propose /
    play; accept / refuse; or a discard rule) is played on the same sampled deals consistent
    with the state; a deal's marks are valued by the probability of winning the game from
    the score after it. A state leaves the treatise only where the other action is better by
    more than two standard errors. The command `ecarte-sim strategy` does this for every
    state (minutes); here, a sample of states keeps it short, and the last section reads
    the full run's report if one is in `results/strategy/`.

    The first code cell sets the sizes: real ones by default, small ones when
    `ECARTE_NOTEBOOK_SMALL=1` (the test run).
    '''),
    ("code", '''
    # Parameters (the test run sets ECARTE_NOTEBOOK_SMALL=1 for small sizes)
    import os

    SMALL = os.environ.get("ECARTE_NOTEBOOK_SMALL") == "1"
    SEED = 0
    EVERY = 997 if SMALL else 61          # one state in EVERY (255,304 in all)
    FIRST, MOST = (32, 128) if SMALL else (64, 4096)   # deals a state: first, at most
    ADVISE_DEALS = 4_096 if SMALL else 65_536          # deals around one hand
    print(f"{'small' if SMALL else 'full'} run: one state in {EVERY}, {FIRST}-{MOST} deals "
          f"a state, {ADVISE_DEALS:,} deals for advice, seed {SEED}")
    '''),
    ("code", HELPERS + '''

    import ecarte_sim as es  # the public API: the settings, advise

    # The layer below the API: the strategy solver's pieces, the canonical states, and the
    # treatise's own tables.
    from ecarte_sim.analysis.ecarte.solving import readable as rd
    from ecarte_sim.analysis.ecarte.solving import proposal_game as st
    from ecarte_sim.engine.ecarte.decisions.states import N_STATES, representatives

    SETTINGS = es.EcarteSettings()       # dd play; Hoyle's list, the maxims, trumps and kings
    V = st.continuation(SETTINGS, SEED, deals=1 << 16 if SMALL else None)["v"]
    STATES = np.arange(0, N_STATES, EVERY)
    TREATISE = st.treatise_tables(SETTINGS)
    '''),
    ("md", r'''
    ## 0. The shipped strategy: five up solved

    `ecarte-sim equilibrium` solves both players' first decisions and first discards at
    every score by iterated best responses, the value of every score recomputed from the
    strategies themselves, each state's few sampled deals pooled with the states alike,
    and ships the pair it finds with the package (`analysis/ecarte/solving/strategy_data/`):
    *the computed strategy*. `solved.load()` reads it: a table of 25 rows (the score
    before the deal) over the 255,304 states per decision. Its provenance names the
    command, the seed, the commit and the exploitability measured; its per-hand regret
    is `ecarte-sim audit`'s (`results/audit-dd/`).
    '''),
    ("code", '''
    from ecarte_sim.analysis.ecarte.advice import first_decision as advice
    from ecarte_sim.analysis.ecarte.solving import solved
    from ecarte_sim.analysis.ecarte.solving import chart as ch
    from ecarte_sim.analysis.reports import chart as card
    from ecarte_sim.engine.ecarte.decisions.states import state_weights

    S = solved.load()
    P = S.provenance
    if (P.get("solve") or {}).get("every_decision"):
        print(f"shipped strategy: play model {S.play}; one step of the solve of every "
              "decision (the later rounds given tables of their own, the first round "
              f"resolved) from the strategy with sha256 {P['start']['sha256'][:12]}")
    elif P.get("responded"):
        print(f"shipped strategy: play model {S.play}; one step of both players' best "
              "responses to the strategy shipped before, at every score")
    else:
        print(f"shipped strategy: play model {S.play}; "
              + ("converged" if P["converged"] else
                 f"not converged at {', '.join(P['unsettled'])}")
              + f" after {P['steps']} steps of the sweep from 4-4 down to 0-0")
    print(f"made by: {P['command']}")
    print(f"value from 0-0: the elder wins five up {S.v[0, 0]:.4f}"
          + (f" {ci(P['elder_wins_0_0_ci95'], 4)}" if "elder_wins_0_0_ci95" in P else "")
          + f", the first dealer {1 - S.v[0, 0]:.4f}")
    if "exploitability" in P:
        worst = max(P["exploitability"].items(), key=lambda kv: kv[1]["total"])
        whose = "the strategy shipped before" if P.get("responded") else "the pair"
        print(f"exploitability of {whose}, found by these best responses: at most "
              f"{worst[1]['total']:+.4f} {ci(worst[1]['ci95'], 4, True)} (at {worst[0]})"
              + (f"; Hoyle's pair at most "
                 f"{max(e['total'] for e in P['hoyle_exploitability'].values()):+.4f}"
                 if "hoyle_exploitability" in P else ""))
    print("the later rounds (a proposal after an exchange, its answer, a later discard): "
          + ("tables of their own" if S.solves_later else
             "the first round's tables read on the new hand"))
    '''),
    ("md", r'''
    ### One hand at every score

    The table's action is read at once (no sampling): here the issue's example, king,
    queen and knave of trumps with two small plain cards, the nine of hearts turned up,
    and a dealer's hand, at each score (rows: the elder's score; columns: the dealer's).
    '''),
    ("code", '''
    def at_every_score(hand, trump, turn_up, role):
        return pd.DataFrame([[advice.advise(hand, trump, (x, y), role, turn_up=turn_up,
                                            values=False)["action"] for y in range(5)]
                             for x in range(5)],
                            index=pd.Index(range(5), name="elder's score"),
                            columns=pd.Index(range(5), name="dealer's score"))

    print("elder, KH QH JH 7S 8D, 9H turned up:")
    display(at_every_score("KH QH JH 7S 8D", "H", "9H", "elder"))
    print("dealer, KS QS 9S 8H 7D, TS turned up:")
    display(at_every_score("KS QS 9S 8H 7D", "S", "TS", "dealer"))
    '''),
    ("md", r'''
    ### Where it parts from the treatise

    The share of dealt hands on which the shipped table and the treatise (Hoyle's list,
    the maxims) choose differently, at every score.
    '''),
    ("code", '''
    W = state_weights().astype(float)
    T0 = ch.treatise_tables()
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.8))
    for ax, role in zip(axes, ("elder", "dealer")):
        table = S.table(role)
        parts = np.array([[W[table[5 * x + y] != T0[role]].sum() / W.sum()
                           for y in range(5)] for x in range(5)])
        im = ax.imshow(100 * parts, cmap="Blues", vmin=0)
        for x in range(5):
            for y in range(5):
                ax.text(y, x, f"{100 * parts[x, y]:.0f}", ha="center", va="center", fontsize=8)
        ax.set(title=f"{role}: % of dealt hands unlike the treatise", xlabel="dealer's score",
               ylabel="elder's score", xticks=range(5), yticks=range(5))
        print(f"{role}: parts from the treatise on {100 * parts.min():.1f}% to "
              f"{100 * parts.max():.1f}% of dealt hands (by score)")
    fig.tight_layout()
    show(fig)
    '''),
    ("md", r'''
    ### The strategy card

    `ecarte-sim chart` draws one page per role and score; here the elder's at 0-0 (rows:
    trumps held and the king; columns: plain kings and plain suits held; a frame where
    Hoyle's list takes the other action on most of the cell's hands).
    '''),
    ("code", '''
    c = ch.compute("elder", S.elder[0], S.gain("elder")[0], T0["elder"])
    print(f"the card reproduces the table on {c.reproduced:.1%} of dealt hands")
    show(card.figure(c, score="0-0", play=S.play, source=ch.source_line(S)))
    '''),
    ("md", r'''
    ### After an exchange: the later rounds

    After the first exchange the elder may propose again and the dealer answer again (Law
    26's note), with no Law 49 doubling, each knowing his discards and how many cards the
    other took. The shipped strategy has tables of its own for those rounds (`every-decision`);
    here the share of dealt hands on which the later table differs from the first round's,
    and one later decision valued on worlds drawn from what the elder knows after throwing
    three cards when the dealer took three (`advise --said propose,accept --discards ...`).
    '''),
    ("code", '''
    from ecarte_sim.analysis.ecarte.advice.later_decision import later_advice

    for role in ("elder", "dealer"):
        parts = [W[S.later_table(role)[k] != S.table(role)[k]].sum() / W.sum()
                 for k in range(25)]
        print(f"{role}: the later table differs from the first round's on "
              f"{100 * min(parts):.0f}% to {100 * max(parts):.0f}% of dealt hands (by score)")
    a = later_advice("KH 9H 8S 7D QC", "JH", "elder", said="propose,accept",
                     discards="7S 8D 9C:3", deals=min(ADVISE_DEALS, 1 << 15), seed=SEED)
    g = a["gain"]
    print(f"elder after one exchange (threw 7S 8D 9C, the dealer took 3), holding KH 9H 8S "
          f"7D QC, JH turned up: the strategy says {a['table_action']['action']}; "
          f"{g['of']} {g['p_win']:+.4f} {ci(g['p_win_ci95'], 4, True)} in P(win), "
          f"n={a['n']:,}; the treatise says {a['treatise']['says']}")
    '''),
    ("md", r'''
    ## 1. One hand: `es.advise`

    The treatise's own first example of a jeu de règle: "king, queen, knave of spades, eight
    of hearts and eight of diamonds, hearts trumps" (a jeu de règle by the book's definition;
    Hoyle's list, read literally, says propose). `es.advise` answers from the shipped
    strategy: `action` is its table's entry; each action is then played on the same deals
    around the hand with both players playing the strategy; `values` holds each action's
    probability of winning the game and marks a deal, `gain` the paired difference,
    `sampled_better` the action these deals favour (the table chose on other deals, at its
    own coarser sampling), `treatise` the rule that speaks.
    '''),
    ("code", '''
    for role, score in (("elder", "0-0"), ("elder", "3-4"), ("dealer", "0-0")):
        a = es.advise("KS QS JS 8H 8D", "H", score, role, deals=ADVISE_DEALS, seed=SEED)
        g = a["gain"]
        print(f"advise: {role} at {score}: the strategy says {a['action']}; on these deals "
              f"{a['sampled_better']} does better (gain of {g['of']}: "
              f"{g['p_win']:+.4f} {ci(g['p_win_ci95'], 4, True)} in P(win), n={a['n']:,}); "
              f"the treatise says {a['treatise']['says']} ({a['treatise']['reason']})")
    '''),
    ("md", r'''
    ## 2. The elder's best response to the maxims, on a sample of states

    `st.marks_tables` plays each state's two actions on the same deals (deals doubled while
    the two are within two standard errors); `st.best_response` picks the action at every
    score. The figure shows each sampled state's gain of proposing over playing at 0-0 by
    the trumps held, with Hoyle's choice as the colour.
    '''),
    ("code", '''
    _, script = st.reading_tables(SETTINGS)
    marks = st.marks_tables("elder", SETTINGS, script, v=V, seed=SEED,
                            sampling=st.Sampling(FIRST, MOST), slots=(0,), states=STATES)
    br = st.best_response(marks, V, TREATISE["elder"])
    table, gain, se = br["table"][0], br["gain"][0], br["se"][0]
    parts = (table != TREATISE["elder"])[STATES]
    print(f"{STATES.size:,} states, {int(marks.deals.sum()):,} paired deals; the best response "
          f"leaves Hoyle's list on {parts.sum()} of them")
    trumps = rd.features()["trumps"].to_numpy()
    fig, ax = plt.subplots(figsize=(7, 4))
    hoyle_plays = ~TREATISE["elder"][STATES]
    jitter = np.random.default_rng(0).uniform(-0.25, 0.25, STATES.size)
    for plays, colour, label in ((True, "tab:blue", "Hoyle: play"),
                                 (False, "tab:orange", "Hoyle: propose")):
        sel = hoyle_plays == plays
        ax.errorbar(trumps[STATES][sel] + jitter[sel], gain[STATES][sel],
                    yerr=1.96 * se[STATES][sel], fmt=".", color=colour, alpha=0.6,
                    label=label)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set(xlabel="trumps held", ylabel="gain of proposing over playing, P(win)",
           title=f"elder at 0-0, {STATES.size} states (95% intervals)")
    ax.legend()
    show(fig)
    '''),
    ("md", r'''
    ## 3. The computed list in the treatise's terms

    `rd.short_list` groups the states by trumps held, the king of trumps, plain kings and
    plain court cards, and gives each class what the table does on most of its dealt hands.
    Here the table is Hoyle's list outside the sampled states, so this shows the method;
    `ecarte-sim strategy --out DIR` writes the short list of the full table.
    '''),
    ("code", '''
    classes, reproduced = rd.short_list(table)
    print(f"short list reproduces the table on {reproduced:.1%} of dealt hands "
          f"({len(classes)} classes)")
    for line in rd.short_list_lines(classes, "elder")[:6]:
        print(" ", line)
    display(rd.disagreements("elder", table, TREATISE["elder"], gain, se, top=5))
    '''),
    ("md", r'''
    ## 4. The elder's first discard

    Six rules keep the trumps and the plain cards from a rank up (from "trumps only" to
    "all five"); `st.discard_response` plays every rule that throws other cards than the
    treatise's on the same deals at an exchange and keeps the best one that beats the
    treatise by two standard errors.
    '''),
    ("code", '''
    d = st.discard_response("elder", SETTINGS, V, seed=SEED, sampling=st.Sampling(FIRST, MOST),
                            slots=(0,), states=STATES)
    chosen = pd.Series(d["table"][0][STATES]).map(lambda r: st.Discard(int(r)).name.lower())
    print(f"discard: {d['deals']:,} paired deals; the rule chosen on the sampled states:")
    display(chosen.value_counts().rename("states").to_frame())
    '''),
    ("md", r'''
    ## 5. The full run, if there is one

    `ecarte-sim strategy --decision both --out results/strategy` writes `strategy.md`
    (each best response's gain on fresh deals, its short list, where it parts from the
    treatise). This cell prints its summary tables if the report is there.
    '''),
    ("code", '''
    from pathlib import Path

    REPORT = Path("results", "strategy", "strategy.md")
    root = next((p for p in (Path.cwd(), *Path.cwd().parents) if (p / REPORT).exists()), None)
    if root is None:
        print("no full run found: run ecarte-sim strategy --decision both --out "
              "results/strategy")
    else:
        text = (root / REPORT).read_text(encoding="utf-8")
        print(f"full run: {REPORT.as_posix()}")
        print("\\n".join(line for line in text.splitlines() if line.startswith("| 0-0")))
    '''),
]


def notebooks():
    """Every notebook, built from its cells: {file name: notebook without outputs}."""
    return {f"{name}.ipynb": build(prefix, cells)
            for name, prefix, cells in (("jeux_de_regle", "regle", REGLE),
                                        ("score_strategy", "score", SCORE),
                                        ("piquet", "piquet", PIQUET),
                                        ("strategy", "strategy", STRATEGY))}


def execute(nb, timeout=600):
    """A copy of the notebook executed top to bottom at small sizes, in notebooks/ (where a
    reader opens it), with only what the run determines: no timings, no stderr (numba's
    compile notices come and go with the cache), no kernel version. Raises
    nbclient.exceptions.CellExecutionError on the first failing cell."""
    import nbclient

    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    saved = {k: os.environ.get(k) for k in SMALL_ENV}
    os.environ.update(SMALL_ENV)  # the kernel inherits the environment
    try:
        nbclient.NotebookClient(nb, timeout=timeout, kernel_name="python3",
                                record_timing=False,
                                resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.metadata.pop("execution", None)
            kept = []
            for out in cell.outputs:
                if out.output_type == "stream" and out.name == "stderr":
                    continue
                if (out.output_type == "stream" and kept and kept[-1].output_type == "stream"
                        and kept[-1].name == out.name):
                    kept[-1].text += out.text  # one stream, however the kernel chunked it
                else:
                    kept.append(out)
            cell.outputs = kept
    nb.metadata["language_info"] = {"name": "python"}
    nbformat.validate(nb)
    return nb


_NUMBER = re.compile(r"[-+]?(?:\d[\d,]*)?\.?\d+(?:[eE][-+]?\d+)?")


def outputs_text(cell):
    """What a code cell printed and displayed as text (stdout, text/plain, text/html), and
    the number of PNGs it showed; a figure's text is its numbers (show's figure_numbers)."""
    parts, images = [], 0
    for out in cell.get("outputs", []):
        if out.output_type == "stream":
            parts.append(out.text)
        elif out.output_type in ("display_data", "execute_result"):
            data = out.get("data", {})
            parts += [data.get("text/plain", ""), data.get("text/html", "")]
            images += "image/png" in data
        elif out.output_type == "error":
            parts.append("\n".join(out.traceback))
    return "\n".join(parts), images


def key_numbers(text):
    """The text split into its words and its numbers: (the text with each number replaced by
    '#', the numbers as (value, unit of the last printed digit))."""
    numbers = []
    for m in _NUMBER.finditer(text):
        token = m.group().replace(",", "")
        mantissa = re.split(r"[eE]", token)[0]
        digits = len(mantissa.split(".")[1]) if "." in mantissa else 0
        exponent = int(re.split(r"[eE]", token)[1]) if re.search(r"[eE]", token) else 0
        numbers.append((float(token), 10.0 ** (exponent - digits)))
    return _NUMBER.sub("#", text), numbers


def differences(committed, fresh):
    """Where a fresh run's outputs part from the committed ones, cell by cell: the same words,
    and every number within one unit of its last printed digit (a rounding may fall either
    way on another machine). An empty list when they agree."""
    found = []
    pairs = [(a, b) for a, b in zip(committed.cells, fresh.cells) if a.cell_type == "code"]
    if len(committed.cells) != len(fresh.cells):
        return [f"{len(committed.cells)} cells committed, {len(fresh.cells)} run"]
    for a, b in pairs:
        (ta, ia), (tb, ib) = outputs_text(a), outputs_text(b)
        (wa, na), (wb, nb_) = key_numbers(ta), key_numbers(tb)
        where = f"cell {a.get('id')}"
        if ia != ib:
            found.append(f"{where}: {ia} figures committed, {ib} run")
        if wa != wb or len(na) != len(nb_):
            diff = [d for d in difflib.unified_diff(ta.splitlines(), tb.splitlines(), lineterm="",
                                                    n=0) if d[:1] in "+-"][2:6]
            found.append(f"{where}: the text differs: " + " | ".join(diff))
            continue
        for (x, ux), (y, uy) in zip(na, nb_):
            if abs(x - y) > max(ux, uy) * 1.000001:
                found.append(f"{where}: {x:g} committed, {y:g} run")
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--execute", action="store_true",
                        help="run each notebook at small sizes and write it with its outputs")
    args = parser.parse_args(argv)
    for name, nb in notebooks().items():
        path = NOTEBOOKS / name
        if args.execute:
            nb = execute(nb)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            nbformat.write(nb, f)
        print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size:,} bytes"
              f"{', executed' if args.execute else ', no outputs'})")


if __name__ == "__main__":
    sys.exit(main())
