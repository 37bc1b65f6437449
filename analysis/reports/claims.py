"""Files of the ``claims`` report: Markdown, CSV (and Parquet when pyarrow is installed)
built with pandas, PNG plots with matplotlib. Every file names the command, seed, sample
sizes, play models and version that made it; each is written under a temporary name and
renamed, so an interrupted run leaves no half-written file."""

from __future__ import annotations

import os

import numpy as np

from ecarte_sim.analysis.ecarte.claims import TWO_THIRDS
from ecarte_sim.analysis.reports.provenance import (FILE, commit_file, csv_columns, parquet_metadata, png_metadata,
                                                    write_provenance)
from ecarte_sim.engine.ecarte.regle import RULES


def _fmt(x: float) -> str:
    return "nan" if x != x else f"{x:.4f}"


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
            f.write("# The claims of seed 002, tested\n\n")
            f.write(f"Made by {caption}.\n\n")
            f.write("Play models: `dd` both players see all cards (measures the cards); "
                    "`heuristic` seed 002's advice; `pimc` sampled worlds "
                    f"(W = {prov['worlds']}). Elder `regle`, dealer `maxims` unless the "
                    "experiment varies them; comparisons are paired (the same deals in both "
                    "arms). Verdict rules were fixed before the run (analysis/claims.py). "
                    "Changes in P(win the game) use the score table V of each model, from "
                    "deals disjoint from the experiments' (indices from 2^40); their intervals "
                    "treat V as known (its error is shared by both arms). At dealer score 4, "
                    "deals whose turned-up king ends the game before any decision are left "
                    "out.\n\n")
            f.write("## Run\n\n| model | seconds | " + " | ".join(
                f"deals: {k}" for k in ("scores", "regle", "dealer", "habit", "hand"))
                    + " | worst headline half-width | precision reached |\n|---" * 1
                    + "|---" * 8 + "|\n")
            for m in models:
                s = payload["models"][m]
                f.write(f"| {m} | {s['seconds']:.1f} | " + " | ".join(
                    str(s["deals"][k]) for k in ("scores", "regle", "dealer", "habit", "hand"))
                        + f" | {s['worst_half_width']:.4f} | {s['precision_reached']} |\n")
            f.write("\n## Verdicts\n\n")
            current = None
            for r in payload["claims"]:
                if r["id"] != current:
                    current = r["id"]
                    f.write(f"\n### {current}\n\n> {r['quote']}\n\n({r['source']})\n\n"
                            "| reading | subset | model | estimate | 95% interval | n | "
                            "verdict |\n|---|---|---|---|---|---|---|\n")
                exact = " (exact)" if r["exact"] else ""
                f.write(f"| {r['reading']} | {r['subset']} | {r['model']} | "
                        f"{_fmt(r['estimate'])}{exact} | [{_fmt(r['ci95'][0])}, "
                        f"{_fmt(r['ci95'][1])}] | {r['n']} | **{r['verdict']}** |\n")
            f.write("\n## Jeux de règle: playing versus proposing, rule by rule\n\n"
                    "Same deals both ways. Points = the elder's marks minus the dealer's in the "
                    "deal (kings and Law 49 included). Difference = play minus propose, "
                    "paired (SE).\n\n| model | rule | n | play P(point) | play P(vole) | "
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
            f.write("Plots: rules.png (win rate per rule with 95% intervals and the 2/3 line), "
                    "play_minus_propose.png, game_win.png (probability that the next elder "
                    "wins the game, by score), convergence.png (headline estimates as the "
                    "deals grow).\n")

    commit_file(out_dir, "claims.md", markdown, paths)

    def rules_png(p):
        fig, ax = plt.subplots(figsize=(9, 4.5), constrained_layout=True)
        width = 0.8 / max(len(models), 1)
        for k, m in enumerate(models):
            rows = [r for r in payload["claims"] if r["id"] == "two-to-one"
                    and r["model"] == m and r["reading"].startswith("estimate")]
            xs = np.arange(len(rows)) + (k - (len(models) - 1) / 2) * width
            est = np.array([r["estimate"] for r in rows])
            lo = np.array([r["ci95"][0] for r in rows])
            hi = np.array([r["ci95"][1] for r in rows])
            ax.errorbar(xs, est, yerr=[est - lo, hi - est], fmt="o", capsize=3, label=m)
        ax.axhline(TWO_THIRDS, color="k", ls="--", lw=1, label="2/3 (\"two to one\")")
        ax.set_xticks(range(len(RULES) + 1))
        ax.set_xticklabels(["all"] + [f"{i + 1}: {n}" for i, n in enumerate(RULES)],
                           rotation=25, ha="right", fontsize=8)
        ax.set_ylabel("P(elder wins the point), played without proposing")
        ax.legend(fontsize=8)
        ax.set_title(short, fontsize=8)
        fig.savefig(p, dpi=110, format="png", metadata=png_metadata(prov))
        plt.close(fig)

    commit_file(out_dir, "rules.png", rules_png, paths)

    def heat(p, key, title, label, vmin, vmax, cmap, fmt):
        fig, axes = plt.subplots(1, len(models), figsize=(3.6 * len(models) + 1, 3.8),
                                 constrained_layout=True, squeeze=False)
        for ax, m in zip(axes[0], models):
            grid = np.array(payload[key][m]["delta"] if key == "play_minus_propose"
                            else payload[key][m]["v"])
            im = ax.imshow(grid, vmin=vmin, vmax=vmax, cmap=cmap, origin="lower")
            for x in range(5):
                for y in range(5):
                    ax.text(y, x, format(grid[x, y], fmt), ha="center", va="center",
                            fontsize=7)
            n = payload[key][m]["n"]
            ax.set_title(f"{m} (n = {n})", fontsize=9)
            ax.set_xlabel("dealer's score")
            ax.set_ylabel("elder's score")
        fig.colorbar(im, ax=axes[0].tolist(), shrink=0.8, label=label)
        fig.suptitle(f"{title}\n{short}", fontsize=8)
        fig.savefig(p, dpi=110, format="png", metadata=png_metadata(prov))
        plt.close(fig)

    lim = max(0.02, max(abs(v) for m in models for row in
                        payload["play_minus_propose"][m]["delta"] for v in row))
    commit_file(out_dir, "play_minus_propose.png",
            lambda p: heat(p, "play_minus_propose", "jeux de règle: P(win game) playing minus "
                           "proposing", "change in P(elder wins the game)", -lim, lim,
                           "RdBu", "+.3f"), paths)
    commit_file(out_dir, "game_win.png",
            lambda p: heat(p, "win_by_score", "P(the next elder wins the game) by score",
                           "P(win)", 0, 1, "RdBu", ".2f"), paths)

    def convergence_png(p):
        fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), constrained_layout=True)
        key = "two-to-one | all jeux de règle"
        for m in models:
            pts = [(h["deals"], h[key]) for h in payload["history"][m] if key in h]
            if pts:
                xs, ys = zip(*pts)
                left.plot(xs, ys, marker="o", label=m)
            for exp in ("regle", "dealer", "habit", "hand"):
                pts = [(h["deals"], h["worst_half_width"]) for h in payload["history"][m]
                       if h["experiment"] == exp]
                if pts:
                    xs, ys = zip(*pts)
                    right.plot(xs, ys, marker=".", label=f"{m} {exp}")
        left.axhline(TWO_THIRDS, color="k", ls="--", lw=1, label="2/3")
        left.set_title("two to one: P(point) of the list, played without proposing",
                       fontsize=9)
        left.set_ylabel("estimate")
        if prov["deals_fixed"] is None:
            right.axhline(prov["precision"], color="k", ls="--", lw=1, label="target")
        right.set_title("worst headline 95% half-width per experiment", fontsize=9)
        for ax in (left, right):
            ax.set_xscale("log", base=2)
            ax.set_xlabel("deals (checkpoints of the precision rule)")
            ax.legend(fontsize=6, ncol=2)
        right.set_yscale("log")
        fig.suptitle(short, fontsize=8)
        fig.savefig(p, dpi=110, format="png", metadata=png_metadata(prov))
        plt.close(fig)

    commit_file(out_dir, "convergence.png", convergence_png, paths)
    return paths
