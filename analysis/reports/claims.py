"""Files of the ``claims`` report: Markdown, CSV (and Parquet when pyarrow is installed)
built with pandas, PNG plots with matplotlib. Every file names the command, seed, sample
sizes, play models and version that made it; each is written under a temporary name and
renamed, so an interrupted run leaves no half-written file."""

from __future__ import annotations

import os

import numpy as np

from ecarte_sim.analysis.ecarte.claims.decisions import TWO_THIRDS, VERDICTS
from ecarte_sim.analysis.reports.provenance import (FILE, commit_file, csv_columns, pyplot,
                                                    parquet_metadata, png_metadata,
                                                    write_provenance)
from ecarte_sim.engine.ecarte.decisions.regle import RULES

# matplotlib and pandas are imported where a figure or a table is written, pyarrow
# (optional) where the parquet file is: importing this module stays cheap, and works without
# pyarrow.


def _fmt(x: float) -> str:
    return "nan" if x != x else f"{x:.4f}"


#: What each verdict word means (claims.md explains them in this order: ``VERDICTS``).
VERDICT_WORDS = {
    "supported": "the 95% interval lies on the claim's side of its line",
    "contradicted": "the 95% interval lies wholly on the other side",
    "inconclusive": "the 95% interval straddles the line: these deals cannot decide "
                    "(more deals might)",
    "no difference": "for a comparison of two choices: the estimate is 0 and its interval "
                     "exactly [0, 0] — both choices give the same result on every deal (at "
                     "4–4 with the king held, the king wins the game whatever the elder does)",
}
#: One colour per play model, the same in every figure.
MODEL_COLOURS = {"dd": "tab:blue", "heuristic": "tab:orange", "pimc": "tab:green",
                 "pimc-inference": "tab:red"}


def _colour(model: str, k: int) -> str:
    return MODEL_COLOURS.get(model, f"C{3 + k}")


def text_colour(rgba) -> str:
    """Black or white, whichever reads better on a cell of colour ``rgba`` (WCAG relative
    luminance: black on cells lighter than 0.179, white on darker ones)."""
    def linear(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(float(c)) for c in rgba[:3])
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 else "white"


def scale_for(values, floor: float = 0.02):
    """(cmap, vmin, vmax) for a change: sequential from 0 when every value has the same
    sign, diverging and centred at 0 only when the values straddle 0; ``floor`` keeps a
    tiny range from painting noise as a strong colour."""
    values = [v for v in values if v == v]
    lo, hi = (min(values), max(values)) if values else (0.0, 0.0)
    if lo >= 0:
        return "Blues", 0.0, max(floor, hi)
    if hi <= 0:
        return "Reds_r", min(-floor, lo), 0.0
    lim = max(floor, -lo, hi)
    return "RdBu", -lim, lim


def provenance_line(p: dict) -> str:
    """Who made the report, in words: command, version, seed, precision (or fixed deals);
    the deals of each experiment are in the report's *Run* table."""
    return (f"`{p['command']}` — ecarte-sim {p['version']}, seed {p['seed']}, "
            f"{'precision ' + str(p['precision']) if p['deals_fixed'] is None else 'deals ' + str(p['deals_fixed'])}"
            f"; the deals behind each experiment are under *Run* below; full provenance in "
            f"{FILE}")


def short_measure(measure: str) -> str:
    """A claim's measure in a few words, for the summary table (the full wording is under
    *Verdict rules*): ``P(elder wins the point)``, or for a change in the probability of
    winning the game whose it is and which arm minus which."""
    if measure.startswith("P(elder wins the point)"):
        return "P(elder wins the point)"
    start = "change in the "
    if measure.startswith(start) and "'s probability of winning the game" in measure:
        who = measure[len(start):measure.index("'s probability")]
        arms = next((part for part in measure.split(", ") if " minus " in part), None)
        if arms:
            return f"{who}'s P(win the game): " + arms.replace(" minus ", " − ")
    return measure


def summary_rows(claims: list[dict]) -> list[dict]:
    """The summary's rows: every reading of a claim's headline subsets (the headline
    reading and its companions on the same hands), one row per (claim, reading, subset),
    in the report's order, with each model's row."""
    heads = {(r["id"], r["subset"]) for r in claims if r.get("headline")}
    out: dict = {}
    for r in claims:
        if (r["id"], r["subset"]) in heads:
            out.setdefault((r["id"], r["reading"], r["subset"]), {})[r["model"]] = r
    return [{"id": k[0], "reading": k[1], "subset": k[2], "models": v} for k, v in out.items()]


def _cell(r: dict | None) -> str:
    if r is None:
        return ""
    exact = " exact" if r["exact"] else f", n = {r['n']:,}"
    return (f"**{r['verdict']}** {_fmt(r['estimate'])} [{_fmt(r['ci95'][0])}, "
            f"{_fmt(r['ci95'][1])}]{exact}")


#: The plain-deal experiments as convergence.png names them.
PLAIN_EXPERIMENTS = {"regle": "jeux de règle, every score (regle)",
                     "habit": "proposing till exhausted (habit)",
                     "hand": "the four-out-of-five hand (hand)"}


def precision_rows(payload: dict, models) -> list[dict]:
    """Per model, each experiment's final worst 95% half-width among its headline rows and
    its target: one row per class for the class-sampled experiments (the rules, the
    dealer's maxims), one per plain-deal experiment (its last checkpoint)."""
    prov = payload["provenance"]
    target = None if prov.get("deals_fixed") is not None else prov.get("precision")
    out = []
    for m in models:
        classes = payload["models"][m].get("classes", [])
        sampled = {c["experiment"] for c in classes}
        last: dict = {}
        for h in payload["history"][m]:
            if h["experiment"] not in sampled:
                last[h["experiment"]] = h
        for exp, h in last.items():
            out.append({"model": m, "label": PLAIN_EXPERIMENTS.get(exp, exp),
                        "half_width": h["worst_half_width"], "n": h["deals"],
                        "target": target})
        for c in classes:
            number = c["class"].removeprefix("rule ")
            label = (f"rule {number}: {RULES[int(number) - 1]}"
                     if c["experiment"] == "rules" and number.isdigit()
                     else f"{c['experiment']}: {c['class']}")
            out.append({"model": m, "label": label, "half_width": c["half_width"],
                        "n": c["n"], "target": None if target is None else c["target"]})
    return out


def _n_range(ns) -> str:
    lo, hi = min(ns), max(ns)
    return f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"


def _intro(f, prov: dict, caption: str) -> None:
    """The title, who made the report, the play models and how the changes are measured."""
    f.write("# The claims of Hoyle's Games Modernized on Écarté, tested\n\n")
    f.write(f"Made by {caption}.\n\n")
    f.write("Play models: `dd` both players see all cards (measures the cards); "
            "`heuristic` Hoyle's advice; `pimc` sampled worlds "
            f"(W = {prov['worlds']})"
            + ("; `pimc-inference` sampled worlds that honour the opponent's "
               "proposals, answers and discards" if "pimc-inference" in prov["models"]
               else "") + ". Elder `regle` (plays Hoyle's list of jeux de règle), "
            "dealer `maxims` (the dealer's maxims) unless the experiment varies them; "
            "comparisons are paired (the same deals in both arms). Verdict rules were "
            "fixed before the run (analysis/ecarte/claims/decisions.py; each is listed under "
            "*Verdict rules* below). Changes in P(win the game) use the score table V "
            "of each model, from deals disjoint from the experiments' (indices from "
            "2^40); their intervals treat V as known (its error is shared by both "
            "arms). At dealer score 4, deals whose turned-up king ends the game before "
            "any decision are left out.\n\n")


def _summary(f, payload: dict, models) -> None:
    """*Summary of verdicts*: the verdict words and each claim's headline readings."""
    f.write("## Summary of verdicts\n\nVerdict words, by a rule fixed before the "
            "run (the rule of each reading, with its line, is under *Verdict rules* "
            "below):\n\n" + "".join(
                f"- **{w}**: {VERDICT_WORDS[w]}{';' if w != VERDICTS[-1] else '.'}\n"
                for w in VERDICTS)
            + "\nEach claim's headline reading, with the other readings of the same "
            "hands; each cell: verdict, estimate [95% interval], n (deals behind it; "
            "*exact*: every deal enumerated). Every reading and subset, with the "
            "treatise's words, is under *Verdicts*; how the deals were drawn and how "
            "many, under *Run* and *Sampling within each class* at the end.\n\n"
            "| claim | reading | hands | measured | " + " | ".join(models)
            + " |\n|---|---|---|---" + "|---" * len(models) + "|\n")
    for row in summary_rows(payload["claims"]):
        any_r = next(iter(row["models"].values()))
        f.write(f"| {row['id']} | {row['reading']} | {row['subset']} | "
                f"{short_measure(any_r['measure'])} | "
                + " | ".join(_cell(row["models"].get(m)) for m in models) + " |\n")


def _verdicts(f, payload: dict) -> None:
    """*Verdicts*: every reading and subset of every claim, per play model."""
    f.write("\n## Verdicts\n\nEvery reading and subset, per play model (the "
            "verdict words are explained in the *Summary of verdicts* above); a "
            "claim whose verdict changes with the model is listed under *Where the "
            "play models disagree*.\n")
    current = None
    for r in payload["claims"]:
        if r["id"] != current:
            current = r["id"]
            title, _, chapter = r["source"].partition(", ")
            cite = f"*{title}*" + (f", {chapter}" if chapter else "")
            f.write(f"\n### {current}\n\n> {r['quote']}\n>\n> — {cite}\n\n"
                    "| reading | subset | model | estimate | 95% interval | n | "
                    "verdict |\n|---|---|---|---|---|---|---|\n")
        exact = " (exact)" if r["exact"] else ""
        f.write(f"| {r['reading']} | {r['subset']} | {r['model']} | "
                f"{_fmt(r['estimate'])}{exact} | [{_fmt(r['ci95'][0])}, "
                f"{_fmt(r['ci95'][1])}] | {r['n']} | **{r['verdict']}** |\n")


def _rules_table(f, payload: dict) -> None:
    """Playing versus proposing, rule by rule of the jeux de règle."""
    f.write("\n## Jeux de règle: playing versus proposing, rule by rule\n\n"
            "Same deals both ways. Points = the elder's marks minus the dealer's in the "
            "deal (kings and Law 49 included). Difference = play minus propose, "
            "paired (SE). The row over all jeux de règle is from plain deals, each "
            "rule's from its plain deals and its samples within the rule.\n\n"
            "| model | rule | n | play P(point) | play P(vole) | "
            "play points | propose P(point) | propose P(vole) | propose points | "
            "difference (SE) |\n|---|---|---|---|---|---|---|---|---|---|\n")
    for r in payload["rules"]:
        f.write(f"| {r['model']} | {r['rule']} | {r['n']} | " + " | ".join(
            f"{r[f'{arm}_{k}']:.4f} [{r[f'{arm}_{k}_ci95'][0]:.4f}, "
            f"{r[f'{arm}_{k}_ci95'][1]:.4f}]" for arm in ("play", "propose")
            for k in ("point", "vole", "expected_points"))
                + f" | {r['difference']:+.4f} ({r['difference_se']:.4f}) |\n")


def _verdict_rules(f, payload: dict) -> None:
    """*Verdict rules*: each reading's measure and rule."""
    f.write("\n## Verdict rules\n\n")
    seen = set()
    for r in payload["claims"]:
        key = (r["id"], r["reading"])
        if key not in seen:
            seen.add(key)
            f.write(f"- `{r['id']}` — {r['reading']}: {r['measure']}; {r['rule']}.\n")


def _explanations(f, payload: dict) -> None:
    """What would explain each of the treatise's figures that fails."""
    f.write("\n## Where the treatise's figures fail: what would explain them\n\n")
    for cid, e in payload["explanations"].items():
        f.write(f"### {cid} (figure {e['figure']:.4f})\n\n| candidate | model | value "
                "| 95% interval | fits (±0.05) |\n|---|---|---|---|---|\n")
        for c in e["candidates"]:
            f.write(f"| {c['candidate']} | {c['model']} | {_fmt(c['value'])} | "
                    f"[{_fmt(c['ci95'][0])}, {_fmt(c['ci95'][1])}] | "
                    f"{'**yes**' if c['fits'] else 'no'} |\n")
        f.write("\n")


def _disagreements(f, payload: dict, models) -> None:
    """The claims whose verdict changes with the play model (if any)."""
    if payload["disagreements"]:
        f.write("## Where the play models disagree\n\n"
                f"{payload['disagreements'][0]['why']}\n\n| claim | reading | subset | "
                + " | ".join(models) + " |\n|---|---|---" + "|---" * len(models)
                + "|\n")
        for d in payload["disagreements"]:
            f.write(f"| {d['id']} | {d['reading']} | {d['subset']} | " + " | ".join(
                f"{d['verdicts'].get(m, '')} ({_fmt(d['estimates'].get(m, float('nan')))})"
                for m in models) + " |\n")


def _play_minus_propose(f, payload: dict, models) -> None:
    """Play minus propose by score, one table per play model."""
    f.write("\n## Play minus propose, by score (all jeux de règle)\n\n"
            "Change in the elder's probability of winning the game; rows = elder's "
            "score, columns = dealer's score. See play_minus_propose.png.\n\n")
    for m in models:
        t = payload["play_minus_propose"][m]
        f.write(f"**{m}** (n = {t['n']:,} paired deals)\n\n| elder \\\\ dealer | "
                + " | ".join(map(str, range(5))) + " |\n|---" + "|---" * 5 + "|\n")
        for x in range(5):
            f.write(f"| {x} | " + " | ".join(
                f"{t['delta'][x][y]:+.4f} [{t['ci95'][x][y][0]:+.4f}, "
                f"{t['ci95'][x][y][1]:+.4f}]" for y in range(5)) + " |\n")
        f.write("\n")


def _beside_best_response(f, payload: dict) -> None:
    """Each rule beside the strategy run's best response (when the payload has one)."""
    beside = payload.get("beside_best_response")
    if beside:
        from ecarte_sim.analysis.reports.strategy import rules_markdown
        f.write("## Each rule of the treatise beside the best response\n\n"
                f"From the strategy run in `{beside['source']}` (`ecarte-sim "
                "strategy`, play model "
                f"{beside['play']}, seed {beside['seed']}): each role's best "
                "response to the other's treatise policy, chosen state by state on "
                "sampled deals. Agreement: the share of the rule's dealt hands on "
                "which the best response does what the rule says. Gain: the best "
                "response over the treatise on fresh deals whose hand falls under "
                "the rule — the cost of following the rule there — paired, with "
                "its 95% interval.\n\n" + rules_markdown(beside["rows"]) + "\n")


def _run(f, payload: dict, prov: dict, models) -> None:
    """*Run*: how the deals were drawn; each model's deals, time and precision."""
    f.write("## Run\n\n"
            "How the deals were drawn: the rows over all jeux de règle, with and "
            "without the king, and at every score come from plain deals (0, 1, 2, "
            "...; the jeux de règle among them); the dealer's maxims and each rule of "
            "the list are also sampled *within their class*: every class sample is "
            "the first of a sequence of ordinary deals, at deal indices of the "
            "class's own (from 2^43), that falls in the class — a plain deal "
            "conditioned on the class, so no weights are needed "
            "(engine/ecarte/deals/class_sampling.py). A maxim's row is its class samples; "
            "a rule's rows (\"rule N\") pool its class samples with the plain deals "
            "of that rule, the same distribution on disjoint deals. "
            + (f"Each class ran {prov['deals_fixed']} samples. "
               if prov["deals_fixed"] is not None else
               "Each class ran until its rows reached their target (or its cap): "
               "the dealer's maxims, headline claims, within the precision "
               f"{prov['precision']:g}; the rows of one rule (its P(point); for rule 1 "
               "also the change at 0–3), not headline claims, within "
               f"{prov.get('rule_precision', 2 * prov['precision']):g}. ")
            + "n per row is the deals behind it; *Sampling within each class* below "
            "lists every class.\n\n")
    f.write("| model | seconds | " + " | ".join(
        f"deals: {k}" for k in ("scores", "regle", "rules", "dealer", "habit", "hand"))
            + " | worst headline half-width | worst per-rule half-width "
            "| precision reached |\n|---" + "|---" * 10 + "|\n")
    for m in models:
        s = payload["models"][m]
        f.write(f"| {m} | {s['seconds']:.1f} | " + " | ".join(
            f"{s['deals'][k]:,}" for k in ("scores", "regle", "rules", "dealer", "habit",
                                         "hand"))
                + f" | {s['worst_half_width']:.4f} | "
                f"{s['worst_rule_half_width']:.4f} | {s['precision_reached']} |\n")
    f.write("\nDeals: scores, regle, habit and hand count plain deals (regle: dealt, "
            "of which the jeux de règle were played); rules and dealer count class "
            "samples, summed over the classes. Precision reached: every headline "
            "half-width within the precision and every per-rule one within its "
            "target.\n")


def _classes(f, payload: dict, models) -> None:
    """*Sampling within each class*, then the plots named."""
    f.write("\n## Sampling within each class\n\nEach class: its samples n (each "
            "played both ways), the deals dealt to find them, their ratio (an "
            "estimate of the class's share of all deals), the worst 95% half-width "
            "of its rows and the target.\n\n| model | experiment | class | n | "
            "deals dealt | share of deals | half-width | target | reached |\n"
            "|---|---|---|---|---|---|---|---|---|\n")
    for m in models:
        for c in payload["models"][m].get("classes", []):
            f.write(f"| {m} | {c['experiment']} | {c['class']} | {c['n']} | "
                    f"{c['attempts']} | {c['n'] / c['attempts']:.5f} | "
                    f"{c['half_width']:.4f} | {c['target']:g} | {c['reached']} |\n")
    f.write("\n")
    f.write("Plots: rules.png (P(point) per rule of the list, with 95% intervals, n "
            "and the 2/3 line), play_minus_propose.png (the *Play minus propose* "
            "tables: each cell's change with its 95% half-width), game_win.png (probability that the next "
            "elder wins the game, by score), convergence.png (the two-to-one estimate "
            "as the deals grow, and whether each experiment, each class, reached "
            "its precision).\n")


def write_markdown(path: str, payload: dict, caption: str) -> None:
    """claims.md: the sections in order, ``caption`` naming who made it
    (:func:`provenance_line`)."""
    prov = payload["provenance"]
    models = prov["models"]
    with open(path, "w", encoding="utf-8") as f:
        _intro(f, prov, caption)
        _summary(f, payload, models)
        _verdicts(f, payload)
        _rules_table(f, payload)
        _verdict_rules(f, payload)
        _explanations(f, payload)
        _disagreements(f, payload, models)
        _play_minus_propose(f, payload, models)
        _beside_best_response(f, payload)
        _run(f, payload, prov, models)
        _classes(f, payload, models)


def _save(fig, p, prov: dict) -> None:
    fig.savefig(p, dpi=110, format="png", bbox_inches="tight", pad_inches=0.1,
                metadata=png_metadata(prov))
    pyplot().close(fig)


def rules_png(p, payload: dict, short: str) -> None:
    """rules.png: P(point) per rule of the list, with 95% intervals, n and the 2/3 line."""
    plt = pyplot()
    models = payload["provenance"]["models"]
    fig, ax = plt.subplots(figsize=(10, 5), layout="constrained")
    width = 0.8 / max(len(models), 1)
    ns = {}
    for k, m in enumerate(models):
        rows = [r for r in payload["claims"] if r["id"] == "two-to-one"
                and r["model"] == m and r["reading"].startswith("estimate")]
        xs = np.arange(len(rows)) + (k - (len(models) - 1) / 2) * width
        est = np.array([r["estimate"] for r in rows])
        lo = np.array([r["ci95"][0] for r in rows])
        hi = np.array([r["ci95"][1] for r in rows])
        ax.errorbar(xs, est, yerr=[est - lo, hi - est], fmt="o", capsize=3,
                    color=_colour(m, k), label=m)
        for i, r in enumerate(rows):
            ns.setdefault(i, []).append(r["n"])
    ax.axhline(TWO_THIRDS, color="k", ls="--", lw=1, label="2/3 (\"two to one\")")
    names = ["all jeux de règle"] + [f"{i + 1}: {n}" for i, n in enumerate(RULES)]

    def n_text(i):
        got = ns.get(i, [])
        if got and len(set(got)) == 1:
            return f"n = {got[0]:,}"
        return "n = " + " / ".join(f"{v:,}" for v in got)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels([f"{name}\n{n_text(i)}" for i, name in enumerate(names)],
                       rotation=30, ha="right", rotation_mode="anchor", fontsize=8)
    ax.set_xlabel("rule of Hoyle's list (n = deals with such a hand"
                  + (", per model where they differ" if len(models) > 1 else "") + ")")
    ax.set_ylabel("P(elder wins the point), played without proposing")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title="play model", fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.set_title("Do the jeux de règle win \"two to one\"? P(point) per rule, "
                 "estimate and 95% interval", fontsize=11)
    fig.suptitle(short, fontsize=8)
    _save(fig, p, payload["provenance"])


def heat_png(p, payload: dict, short: str, key: str, title: str, label: str, scale,
             fmt: str, note: str = "") -> None:
    """A 5 x 5 table by score per play model (``payload[key]``), coloured by ``scale``
    (:func:`scale_for`), each cell written with ``fmt`` (and its 95% half-width)."""
    from matplotlib.colors import Normalize
    plt = pyplot()
    models = payload["provenance"]["models"]
    cmap_name, vmin, vmax = scale
    cmap = plt.get_cmap(cmap_name)
    norm = Normalize(vmin=vmin, vmax=vmax)
    fig, axes = plt.subplots(1, len(models), figsize=(3.8 * len(models) + 1.2, 4.4),
                             layout="constrained", squeeze=False)
    for ax, m in zip(axes[0], models):
        t = payload[key][m]
        grid = np.array(t["delta"] if key == "play_minus_propose" else t["v"])
        ci = np.array(t["ci95"]) if "ci95" in t else None
        im = ax.imshow(grid, norm=norm, cmap=cmap, origin="lower")
        for x in range(5):
            for y in range(5):
                text = format(grid[x, y], fmt)
                if ci is not None:
                    text += f"\n±{(ci[x, y, 1] - ci[x, y, 0]) / 2:.3f}"
                ax.text(y, x, text, ha="center", va="center", fontsize=7.5,
                        color=text_colour(cmap(norm(grid[x, y]))))
        ax.set_title(f"{m} (n = {t['n']:,})", fontsize=10)
        ax.set_xticks(range(5))
        ax.set_yticks(range(5))
        ax.set_xlabel("dealer's score")
        ax.set_ylabel("elder's score")
    fig.colorbar(im, ax=axes[0].tolist(), shrink=0.85, label=label)
    fig.suptitle(f"{title}\n{note}{short}", fontsize=9)
    _save(fig, p, payload["provenance"])


def convergence_png(p, payload: dict, short: str) -> None:
    """convergence.png: the two-to-one estimate as the deals grow, and whether each
    experiment (each class) reached its precision."""
    plt = pyplot()
    models = payload["provenance"]["models"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.2), layout="constrained",
                                      gridspec_kw={"width_ratios": [1, 1.1]})
    key = "two-to-one | all jeux de règle"
    for k, m in enumerate(models):
        colour = _colour(m, k)
        pts = [(h["deals"], h[key]) for h in payload["history"][m] if key in h]
        final = [r for r in payload["claims"] if r["id"] == "two-to-one" and r["model"] == m
                 and r["subset"] == "all jeux de règle"
                 and r["reading"].startswith("estimate")]
        if pts:
            xs, ys = zip(*pts)
            label = m
            if final:
                f = final[0]
                lo, hi = f["ci95"]
                left.errorbar([xs[-1]], [f["estimate"]],
                              yerr=[[f["estimate"] - lo], [hi - f["estimate"]]],
                              color=colour, capsize=4, lw=1.5)
                label = (f"{m}: {f['estimate']:.3f} [{lo:.3f}, {hi:.3f}], "
                         f"n = {f['n']:,}")
            left.plot(xs, ys, marker="o", color=colour, label=label)
    left.axhline(TWO_THIRDS, color="k", ls="--", lw=1, label="2/3 (\"two to one\")")
    left.set_title("\"Two to one\": P(point) of the jeux de règle, played without "
                   "proposing\n(the bar at each line's end: the final 95% interval)",
                   fontsize=10)
    left.set_ylabel("P(elder wins the point)")
    left.set_xscale("log", base=2)
    left.set_xlabel("deals run (checkpoints of the precision rule)")
    left.grid(alpha=0.3)
    left.legend(fontsize=8, loc="upper left", bbox_to_anchor=(0, -0.15),
                title="model: final estimate [95% interval], n = jeux de règle",
                title_fontsize=8)

    # right: did each experiment (each class of a class-sampled one) reach its target?
    rows = precision_rows(payload, models)
    labels = list(dict.fromkeys(r["label"] for r in rows))
    y_of = {lab: i for i, lab in enumerate(labels)}
    step = 0.8 / max(len(models), 1)
    for k, m in enumerate(models):
        mine = [r for r in rows if r["model"] == m]
        ys = [y_of[r["label"]] + (k - (len(models) - 1) / 2) * step for r in mine]
        right.scatter([r["half_width"] for r in mine], ys, color=_colour(m, k), s=22,
                      zorder=3, label=m)
    targets = {}
    for r in rows:
        if r["target"] is not None:
            targets[r["label"]] = r["target"]
    if targets:
        right.scatter(list(targets.values()), [y_of[lab] for lab in targets], marker="|",
                      s=260, color="k", lw=1.5, zorder=2, label="the row's target")
    right.set_yticks(range(len(labels)),
                     [f"{lab}, n {_n_range([r['n'] for r in rows if r['label'] == lab])}"
                      for lab in labels], fontsize=8)
    right.invert_yaxis()
    right.set_xlabel("worst 95% half-width of the experiment's headline rows at the end "
                     "(rules: the rows of one rule)")
    right.grid(axis="x", alpha=0.3)
    right.set_title("Did every experiment reach its precision? (a dot left of its "
                    "target's bar: reached)\nn = deals dealt (plain-deal experiments) or "
                    "class samples (each rule, each dealer's maxim)", fontsize=10)
    right.legend(fontsize=8, loc="lower left", title="play model", title_fontsize=8)
    fig.suptitle(short, fontsize=8)
    _save(fig, p, payload["provenance"])


def claims_frame(payload: dict):
    """claims.csv's table: one row per claim reading, the interval in two columns."""
    import pandas as pd
    return csv_columns(pd.DataFrame([{k: v for k, v in r.items() if k not in ("quote", "rule")}
                                     | {"ci95_low": r["ci95"][0], "ci95_high": r["ci95"][1]}
                                     for r in payload["claims"]]).drop(columns=["ci95"]),
                       payload["provenance"])


def rules_frame(payload: dict):
    """rules.csv's table: one row per (model, rule), each interval in two columns."""
    import pandas as pd
    rules = pd.DataFrame([{k: v for k, v in r.items() if not k.endswith("ci95")}
                          | {f"{k}_low": v[0] for k, v in r.items() if k.endswith("ci95")}
                          | {f"{k}_high": v[1] for k, v in r.items() if k.endswith("ci95")}
                          for r in payload["rules"]])
    return csv_columns(rules, payload["provenance"])


def write_claims_report(out_dir: str, payload: dict, execution: dict | None = None
                        ) -> list[str]:
    """claims.md, claims.csv (+ claims.parquet), rules.csv, rules.png,
    play_minus_propose.png, game_win.png, convergence.png and provenance.json in
    ``out_dir`` (``execution``: how the run ran, from ``apps.cli.long_run``)."""
    pyplot()
    os.makedirs(out_dir, exist_ok=True)
    paths: list[str] = []
    prov = payload["provenance"]
    caption = provenance_line(prov)
    short = (f"ecarte-sim {prov['version']} claims, seed {prov['seed']}; n per point in "
             "claims.csv, full provenance in provenance.json")
    write_provenance(out_dir, prov, execution, prov["command"], paths)
    frame = claims_frame(payload)
    commit_file(out_dir, "claims.csv",
                lambda p: frame.to_csv(p, index=False, float_format="%.6f"), paths)
    try:
        import pyarrow  # noqa: F401
        commit_file(out_dir, "claims.parquet", lambda p: parquet_metadata(frame, prov, p), paths)
    except ImportError:
        pass
    models = prov["models"]
    rules = rules_frame(payload)
    commit_file(out_dir, "rules.csv",
                lambda p: rules.to_csv(p, index=False, float_format="%.6f"), paths)
    commit_file(out_dir, "claims.md", lambda p: write_markdown(p, payload, caption), paths)
    commit_file(out_dir, "rules.png", lambda p: rules_png(p, payload, short), paths)
    pmp = [v for m in models for row in payload["play_minus_propose"][m]["delta"]
           for v in row]
    commit_file(out_dir, "play_minus_propose.png",
                lambda p: heat_png(p, payload, short, "play_minus_propose",
                                   "Jeux de règle: change in the elder's P(win the game), "
                                   "playing without proposing minus proposing (same deals), "
                                   "by score",
                                   "change in P(elder wins the game), play − propose",
                                   scale_for(pmp), "+.3f",
                                   "each cell: estimate ± 95% half-width; n = paired deals "
                                   "with a jeu de règle (at dealer 4, those a turned-up king "
                                   "ends are left out)\n"),
                paths)
    commit_file(out_dir, "game_win.png",
                lambda p: heat_png(p, payload, short, "win_by_score",
                                   "P(the next elder wins the game) by score",
                                   "P(the elder wins the game); white = even (0.5)",
                                   ("RdBu", 0.0, 1.0), ".2f",
                                   "blue: the elder is the favourite, red: the dealer is; n = "
                                   "whole deals behind each model's score table\n"), paths)
    commit_file(out_dir, "convergence.png", lambda p: convergence_png(p, payload, short),
                paths)
    return paths
