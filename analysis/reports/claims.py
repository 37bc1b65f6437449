"""Files of the ``claims`` report: Markdown, CSV (and Parquet when pyarrow is installed)
built with pandas, PNG plots with matplotlib. Every file names the command, seed, sample
sizes, play models and version that made it; each is written under a temporary name and
renamed, so an interrupted run leaves no half-written file."""

from __future__ import annotations

import os

import numpy as np

from ecarte_sim.analysis.ecarte.claims import TWO_THIRDS, VERDICTS
from ecarte_sim.analysis.reports.provenance import (FILE, commit_file, csv_columns, parquet_metadata, png_metadata,
                                                    write_provenance)
from ecarte_sim.engine.ecarte.regle import RULES


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
#: One line style and marker per experiment (convergence.png): colour = model, style =
#: experiment, so twelve series stay apart without a twelve-colour cycle.
EXPERIMENT_STYLES = {"regle": ("-", "o"), "rules": ((0, (1, 1)), "v"), "dealer": ("--", "s"),
                     "habit": (":", "^"), "hand": ("-.", "D")}


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
    models = ", ".join(f"{m}: {p['deals'][m]}" for m in p["models"])
    return (f"`{p['command']}` — ecarte-sim {p['version']}, seed {p['seed']}, "
            f"{'precision ' + str(p['precision']) if p['deals_fixed'] is None else 'deals ' + str(p['deals_fixed'])}"
            f"; deals per experiment ({models}); full provenance in {FILE}")


def write_claims_report(out_dir: str, payload: dict, execution: dict | None = None
                        ) -> list[str]:
    """claims.md, claims.csv (+ claims.parquet), rules.csv, rules.png,
    play_minus_propose.png, game_win.png, convergence.png and provenance.json in
    ``out_dir`` (``execution``: how the run ran, from ``analysis.cli.long_run``)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd
    from matplotlib.colors import Normalize

    os.makedirs(out_dir, exist_ok=True)
    paths: list[str] = []
    prov = payload["provenance"]
    caption = provenance_line(prov)
    short = (f"ecarte-sim {prov['version']} claims, seed {prov['seed']}; n per point in "
             "claims.csv, full provenance in provenance.json")
    write_provenance(out_dir, prov, execution, prov["command"], paths)
    frame = csv_columns(pd.DataFrame([{k: v for k, v in r.items() if k not in ("quote", "rule")}
                                      | {"ci95_low": r["ci95"][0], "ci95_high": r["ci95"][1]}
                                      for r in payload["claims"]]).drop(columns=["ci95"]), prov)
    commit_file(out_dir, "claims.csv",
            lambda p: frame.to_csv(p, index=False, float_format="%.6f"), paths)
    try:
        import pyarrow  # noqa: F401
        commit_file(out_dir, "claims.parquet", lambda p: parquet_metadata(frame, prov, p), paths)
    except ImportError:
        pass

    models = prov["models"]
    rules = pd.DataFrame([{k: v for k, v in r.items() if not k.endswith("ci95")}
                          | {f"{k}_low": v[0] for k, v in r.items() if k.endswith("ci95")}
                          | {f"{k}_high": v[1] for k, v in r.items() if k.endswith("ci95")}
                          for r in payload["rules"]])
    rules = csv_columns(rules, prov)
    commit_file(out_dir, "rules.csv", lambda p: rules.to_csv(p, index=False, float_format="%.6f"),
            paths)

    def markdown(p):
        with open(p, "w", encoding="utf-8") as f:
            f.write("# The claims of Hoyle's Games Modernized on Écarté, tested\n\n")
            f.write(f"Made by {caption}.\n\n")
            f.write("Play models: `dd` both players see all cards (measures the cards); "
                    "`heuristic` Hoyle's advice; `pimc` sampled worlds "
                    f"(W = {prov['worlds']})"
                    + ("; `pimc-inference` sampled worlds that honour the opponent's "
                       "proposals, answers and discards" if "pimc-inference" in prov["models"]
                       else "") + ". Elder `regle`, dealer `maxims` unless the "
                    "experiment varies them; comparisons are paired (the same deals in both "
                    "arms). Verdict rules were fixed before the run "
                    "(analysis/ecarte/claims.py; each is listed under *Verdict rules* below). "
                    "Changes in P(win the game) use the score table V of each model, from "
                    "deals disjoint from the experiments' (indices from 2^40); their intervals "
                    "treat V as known (its error is shared by both arms). At dealer score 4, "
                    "deals whose turned-up king ends the game before any decision are left "
                    "out.\n\n"
                    "How the deals were drawn: the rows over all jeux de règle, with and "
                    "without the king, and at every score come from plain deals (0, 1, 2, "
                    "...; the jeux de règle among them); the dealer's maxims and each rule of "
                    "the list are also sampled *within their class*: every class sample is "
                    "the first of a sequence of ordinary deals, at deal indices of the "
                    "class's own (from 2^43), that falls in the class — a plain deal "
                    "conditioned on the class, so no weights are needed "
                    "(engine/ecarte/class_sampling.py). A maxim's row is its class samples; "
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
            f.write("## Run\n\n| model | seconds | " + " | ".join(
                f"deals: {k}" for k in ("scores", "regle", "rules", "dealer", "habit", "hand"))
                    + " | worst headline half-width | worst per-rule half-width "
                    "| precision reached |\n|---" + "|---" * 10 + "|\n")
            for m in models:
                s = payload["models"][m]
                f.write(f"| {m} | {s['seconds']:.1f} | " + " | ".join(
                    str(s["deals"][k]) for k in ("scores", "regle", "rules", "dealer", "habit",
                                                 "hand"))
                        + f" | {s['worst_half_width']:.4f} | "
                        f"{s['worst_rule_half_width']:.4f} | {s['precision_reached']} |\n")
            f.write("\nDeals: scores, regle, habit and hand count plain deals (regle: dealt, "
                    "of which the jeux de règle were played); rules and dealer count class "
                    "samples, summed over the classes. Precision reached: every headline "
                    "half-width within the precision and every per-rule one within its "
                    "target.\n")
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
            f.write("\n## Verdicts\n\nVerdict words (the rule of each reading, with its "
                    "line, is under *Verdict rules* below):\n\n" + "".join(
                        f"- **{w}**: {VERDICT_WORDS[w]}{';' if w != VERDICTS[-1] else '.'}\n"
                        for w in VERDICTS)
                    + "\nEach verdict is per play model; a claim whose verdict changes with "
                    "the model is listed under *Where the play models disagree*.\n")
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
            f.write("\n## Verdict rules\n\n")
            seen = set()
            for r in payload["claims"]:
                key = (r["id"], r["reading"])
                if key not in seen:
                    seen.add(key)
                    f.write(f"- `{r['id']}` — {r['reading']}: {r['measure']}; {r['rule']}.\n")
            f.write("\n## Where the treatise's figures fail: what would explain them\n\n")
            for cid, e in payload["explanations"].items():
                f.write(f"### {cid} (figure {e['figure']:.4f})\n\n| candidate | model | value "
                        "| 95% interval | fits (±0.05) |\n|---|---|---|---|---|\n")
                for c in e["candidates"]:
                    f.write(f"| {c['candidate']} | {c['model']} | {_fmt(c['value'])} | "
                            f"[{_fmt(c['ci95'][0])}, {_fmt(c['ci95'][1])}] | "
                            f"{'**yes**' if c['fits'] else 'no'} |\n")
                f.write("\n")
            if payload["disagreements"]:
                f.write("## Where the play models disagree\n\n"
                        f"{payload['disagreements'][0]['why']}\n\n| claim | reading | subset | "
                        + " | ".join(models) + " |\n|---|---|---" + "|---" * len(models)
                        + "|\n")
                for d in payload["disagreements"]:
                    f.write(f"| {d['id']} | {d['reading']} | {d['subset']} | " + " | ".join(
                        f"{d['verdicts'].get(m, '')} ({_fmt(d['estimates'].get(m, float('nan')))})"
                        for m in models) + " |\n")
            f.write("\n## Play minus propose, by score (all jeux de règle)\n\n"
                    "Change in the elder's probability of winning the game; rows = elder's "
                    "score, columns = dealer's score. See play_minus_propose.png.\n\n")
            for m in models:
                t = payload["play_minus_propose"][m]
                f.write(f"**{m}** (n = {t['n']} paired deals)\n\n| elder \\\\ dealer | "
                        + " | ".join(map(str, range(5))) + " |\n|---" + "|---" * 5 + "|\n")
                for x in range(5):
                    f.write(f"| {x} | " + " | ".join(
                        f"{t['delta'][x][y]:+.4f} [{t['ci95'][x][y][0]:+.4f}, "
                        f"{t['ci95'][x][y][1]:+.4f}]" for y in range(5)) + " |\n")
                f.write("\n")
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
            f.write("Plots: rules.png (P(point) per rule of the list, with 95% intervals, n "
                    "and the 2/3 line), play_minus_propose.png (the table above: each cell's "
                    "change with its 95% half-width), game_win.png (probability that the next "
                    "elder wins the game, by score), convergence.png (the two-to-one estimate "
                    "and each experiment's worst headline 95% half-width as the deals "
                    "grow).\n")

    commit_file(out_dir, "claims.md", markdown, paths)

    def save(fig, p):
        fig.savefig(p, dpi=110, format="png", bbox_inches="tight", pad_inches=0.1,
                    metadata=png_metadata(prov))
        plt.close(fig)

    def rules_png(p):
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
        save(fig, p)

    commit_file(out_dir, "rules.png", rules_png, paths)

    def heat(p, key, title, label, scale, fmt, note=""):
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
        save(fig, p)

    pmp = [v for m in models for row in payload["play_minus_propose"][m]["delta"]
           for v in row]
    commit_file(out_dir, "play_minus_propose.png",
            lambda p: heat(p, "play_minus_propose",
                           "Jeux de règle: change in the elder's P(win the game), playing "
                           "without proposing minus proposing (same deals), by score",
                           "change in P(elder wins the game), play − propose",
                           scale_for(pmp), "+.3f",
                           "each cell: estimate ± 95% half-width; n = paired deals with a jeu "
                           "de règle (at dealer 4, those a turned-up king ends are left out)\n"),
            paths)
    commit_file(out_dir, "game_win.png",
            lambda p: heat(p, "win_by_score", "P(the next elder wins the game) by score",
                           "P(the elder wins the game); white = even (0.5)",
                           ("RdBu", 0.0, 1.0), ".2f",
                           "blue: the elder is the favourite, red: the dealer is; n = whole "
                           "deals behind each model's score table\n"), paths)

    def convergence_png(p):
        from matplotlib.lines import Line2D

        fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.8), layout="constrained")
        key = "two-to-one | all jeux de règle"
        used = []
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
            for exp, (ls, marker) in EXPERIMENT_STYLES.items():
                rows = [h for h in payload["history"][m] if h["experiment"] == exp]
                # one line per class of a class-sampled experiment, one per experiment else
                for cls in dict.fromkeys(h.get("class") for h in rows):
                    pts = [(h["deals"], h["worst_half_width"]) for h in rows
                           if h.get("class") == cls]
                    xs, ys = zip(*pts)
                    right.plot(xs, ys, ls=ls, marker=marker, ms=4 if cls else 5,
                               color=colour, lw=1 if cls else 1.5)
                    used.append((m, exp))
        left.axhline(TWO_THIRDS, color="k", ls="--", lw=1, label="2/3 (\"two to one\")")
        left.set_title("\"Two to one\": P(point) of the jeux de règle, played without "
                       "proposing\n(the bar at each line's end: the final 95% interval)",
                       fontsize=10)
        left.set_ylabel("P(elder wins the point)")
        left.legend(fontsize=8, loc="upper left", bbox_to_anchor=(0, -0.2),
                    title="model: final estimate [95% interval], n = jeux de règle",
                    title_fontsize=8)
        rule_target = prov.get("rule_precision")
        if prov["deals_fixed"] is None:
            right.axhline(prov["precision"], color="k", ls="--", lw=1)
            if rule_target and any(u[1] == "rules" for u in used):
                right.axhline(rule_target, color="k", ls=":", lw=1)
        right.set_title("Worst 95% half-width among each experiment's headline claims\n"
                        "(rules, dealer: one line per class, x = its class samples; rules: "
                        "the rows of one rule)", fontsize=10)
        right.set_ylabel("95% half-width (log scale)")
        for ax in (left, right):
            ax.set_xscale("log", base=2)
            ax.set_xlabel("deals run (checkpoints of the precision rule)" if ax is left
                          else "deals run; class samples of each class for rules and "
                          "dealer")
            ax.grid(alpha=0.3)
        right.set_yscale("log")
        shown_models = [m for m in models if any(u[0] == m for u in used)]
        shown_exps = [e for e in EXPERIMENT_STYLES if any(u[1] == e for u in used)]
        handles = ([Line2D([], [], color=_colour(m, models.index(m)), lw=3, label=m)
                    for m in shown_models]
                   + [Line2D([], [], color="0.3", ls=EXPERIMENT_STYLES[e][0],
                             marker=EXPERIMENT_STYLES[e][1], label=e) for e in shown_exps])
        if prov["deals_fixed"] is None:
            handles.append(Line2D([], [], color="k", ls="--", lw=1,
                                  label=f"target {prov['precision']:g}"))
            if rule_target and "rules" in shown_exps:
                handles.append(Line2D([], [], color="k", ls=":", lw=1,
                                      label=f"per-rule target {rule_target:g}"))
        right.legend(handles=handles, fontsize=9, loc="upper left", bbox_to_anchor=(1.02, 1),
                     title="colour: model\nline: experiment", title_fontsize=9)
        fig.suptitle(short, fontsize=8)
        save(fig, p)

    commit_file(out_dir, "convergence.png", convergence_png, paths)
    return paths
