"""The five-up equilibrium's report and the shipped strategy's files.

* :func:`write_report` — ``equilibrium.md`` (the verdict first: converged or not, the
  value of the game, the exploitability of Hoyle's pair and of the computed pair at every
  score; then how it converged, iteration by iteration), ``equilibrium.csv`` (one row per
  iteration and score), ``exploitability.png`` (Hoyle's pair against the computed pair at
  every score, 95% intervals), ``convergence.png`` and ``provenance.json``.
* :func:`ship` — the computed pair as the package's data
  (:mod:`ecarte_sim.analysis.ecarte.solving.solved`): ``<play>.npz`` and ``<play>.json`` with the
  command, seed, commit and the exploitability found.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ecarte_sim.analysis.ecarte.solving import solved as shipped
from ecarte_sim.analysis.ecarte.solving.equilibrium import ROLES, TARGET

# matplotlib and pandas are imported where a figure or a table is written, not here:
# importing this module stays cheap for callers that write no report.


def _ci(lo_hi, fmt="+.4f") -> str:
    return f"[{lo_hi[0]:{fmt}}, {lo_hi[1]:{fmt}}]"


def summary(result: dict) -> dict:
    """The headline figures: the value of the game at 0-0 (the elder's and the first
    dealer's probability of winning five up), the exploitability of Hoyle's pair (step 0)
    and of the computed pair (the row kept at each score) at every score, and how the
    solve ended."""
    history = result["history"]
    final = result["final"]
    v, lo, hi = (np.asarray(result[k]) for k in ("v", "v_lo", "v_hi"))
    moved = [e["v_moved"] for e in final if e.get("v_moved") is not None]
    return {"converged": result["converged"], "steps": len(history) - 1,
            "elder_wins_0_0": float(v[0, 0]), "elder_wins_0_0_ci95": [float(lo[0, 0]),
                                                                      float(hi[0, 0])],
            "first_dealer_wins_0_0": float(1 - v[0, 0]),
            "first_dealer_wins_0_0_ci95": [float(1 - hi[0, 0]), float(1 - lo[0, 0])],
            "hoyle": history[0]["scores"], "computed": final,
            "largest_upper_bound": max(e["exploitability_ci95"][1] for e in final),
            "v_moved": max(moved) if moved else None,
            "unsettled": [e["score"] for e in final if not _settled(e, result["solve"])]}


def _settled(entry: dict, solve: dict) -> bool:
    return (entry["exploitability_ci95"][1] <= solve["exploit_tolerance"]
            and (entry.get("v_moved") is None or entry["v_moved"] < solve["tolerance"]))


def rows(result: dict) -> list[dict]:
    """One row per step and score measured (step 0: every score), for the CSV."""
    out = []
    for rec in result["history"]:
        for e in rec["scores"]:
            row = {"step": rec["iteration"], "stage": rec.get("stage", "start"),
                   "score": e["score"], "step_at_score": e.get("step", ""), "n": e["n"]}
            for key in ("exploitability", "elder_gain", "dealer_gain"):
                row[key] = e[key]
                row[f"{key}_low"], row[f"{key}_high"] = e[f"{key}_ci95"]
            row["elder_value"] = e["elder_value"]["p"]
            row["elder_value_low"], row["elder_value_high"] = e["elder_value"]["ci95"]
            for role in ROLES:
                row[f"{role}_changed"] = e[f"{role}_changed"]
                row[f"{role}_discard_changed"] = e[f"{role}_discard_changed"]
                row[f"{role}_unresolved"] = e.get(f"{role}_unresolved")
            row["v_moved"] = rec["v_moved"]
            row["sampled_seed"] = rec["seed"]
            out.append(row)
    return out


class _Words(NamedTuple):
    """How equilibrium.md names what was solved: the scores, the decisions, the starting
    pair, the pair whose value is given, and whether any step was taken."""
    where: str
    both: str
    begin: str
    valued: str
    solved: bool


def _words(result: dict, s: dict) -> _Words:
    sv = result["solve"]
    k = len(s["computed"])
    where = "the 25 scores" if k == 25 else f"the {k} scores solved"
    both = ("both decisions: the first decision and the first discard" if sv["discards"]
            else "the first decision only (the discards stay the treatise's)")
    begin = "Hoyle's pair" if not sv.get("start") else "the starting pair"
    solved = sv["iterations"] > 0
    # the pair whose value V is: the responses when --respond shipped them, else the start
    valued = ("the best responses (the pair shipped)" if result.get("responded") else
              "the computed pair" if solved else begin)
    return _Words(where, both, begin, valued, solved)


def markdown(result: dict, caption: str) -> str:
    """equilibrium.md: the verdict, the exploitability and the value at every score, how
    the sweep converged and how it was computed."""
    s = summary(result)
    w = _words(result, s)
    lines = (_verdict_lines(result, s, w, caption) + _exploitability_lines(s, w)
             + _value_lines(result, w) + _convergence_lines(result, s, w)
             + _method_lines(result))
    return "\n".join(lines)


def _verdict_lines(result: dict, s: dict, w: _Words, caption: str) -> list[str]:
    """The title, the --respond note and the verdict."""
    sv = result["solve"]
    where, both, begin, valued, solved = w
    title = ("five up in equilibrium" if sv["iterations"] > 0 else
             f"{begin} measured at every score")
    lines = [f"# Écarté: {title} ({sv['settings']['play']['elder']})", "",
             f"_{caption}_", ""]
    tol = sv["exploit_tolerance"]
    if result.get("responded"):
        lines += ["## One step", "",
                  f"- `--respond`: the pair reported below (its value) and shipped is both "
                  f"players' best responses to {begin} at every score (one simultaneous "
                  "step); the exploitability is the starting pair's, what these responses "
                  "gain against it. Their own per-hand regret is measured by `ecarte-sim "
                  "audit`.", ""]
    if not solved:
        rest = (" The pair shipped is these best responses (`--respond`)."
                if result.get("responded") else
                f" Nothing was solved further: the pair below is {begin}.")
        lines += ["## Verdict", "",
                  f"- **Step 0 only** (`--iterations 0`): {begin} measured at {where} — "
                  f"both players' best responses to it ({both}) and what they gain on fresh "
                  "deals." + rest,
                  f"- Value of the game from 0-0 under {valued}: the elder (who does not "
                  f"deal first) wins five up with probability {s['elder_wins_0_0']:.4f} "
                  f"{_ci(s['elder_wins_0_0_ci95'], '.4f')} ({result['value_deals']:,} whole "
                  "deals at every score).",
                  f"- Exploitability of {begin} (what both players' best responses gain "
                  "against it, summed, in P(win the game) at the score, on fresh deals: a "
                  "lower bound at the sampling's resolution): from "
                  f"{min(e['exploitability'] for e in s['hoyle']):+.4f} to "
                  f"{max(e['exploitability'] for e in s['hoyle']):+.4f} across {where}.", ""]
    verdict = (f"**converged**: at every score the kept row's exploitability has a 95% upper "
               f"bound of at most {tol} and the score's `V` moved by less than "
               f"{sv['tolerance']} in its last step" if s["converged"] else
               f"**not converged** at {len(s['unsettled'])} of {where} "
               f"({', '.join(s['unsettled'])}): there the exploitability's 95% upper bound "
               f"is above {tol} (or `V` still moved by {sv['tolerance']} or more) after "
               f"{sv['iterations']} steps, the cap; the row kept is the least exploitable "
               "measured")
    if sv["iterations"] > 0:
        lines += ["## Verdict", "",
                  f"- Five up solved score by score from 4-4 down to 0-0, each score's rows "
                  f"({both}) by simultaneous best responses valued with the settled values of "
                  f"the scores after it: {verdict}. The largest 95% upper bound over the scores "
                  f"is {s['largest_upper_bound']:+.4f}"
                  + (f"; `V` moved by {s['v_moved']:.4f} at most in a score's last step."
                     if s["v_moved"] is not None else "."),
                  f"- Value of the game from 0-0 under the computed pair: the elder (who does "
                  f"not deal first) wins five up with probability {s['elder_wins_0_0']:.4f} "
                  f"{_ci(s['elder_wins_0_0_ci95'], '.4f')}, the first dealer with "
                  f"{s['first_dealer_wins_0_0']:.4f} {_ci(s['first_dealer_wins_0_0_ci95'], '.4f')}"
                  f" ({result['value_deals']:,} whole deals at every score).",
                  "- Exploitability (what both players' best responses gain against a pair, "
                  "summed, in P(win the game) at the score, measured on fresh deals with best "
                  "responses sampled on deals that did not choose the pair: a lower bound at "
                  "the sampling's resolution; it can come out below zero by chance): "
                  f"{begin} from {min(e['exploitability'] for e in s['hoyle']):+.4f} to "
                  f"{max(e['exploitability'] for e in s['hoyle']):+.4f} across {where}, the "
                  f"computed pair from {min(e['exploitability'] for e in s['computed']):+.4f} to "
                  f"{max(e['exploitability'] for e in s['computed']):+.4f}.", ""]
    return lines


def _exploit_cells(e: dict) -> str:
    """A pair's exploitability and the two best responses' gains, 95% intervals."""
    return (f"{e['exploitability']:+.4f} {_ci(e['exploitability_ci95'])} | "
            f"{e['elder_gain']:+.4f} {_ci(e['elder_gain_ci95'])} | "
            f"{e['dealer_gain']:+.4f} {_ci(e['dealer_gain_ci95'])}")


def _exploitability_lines(s: dict, w: _Words) -> list[str]:
    """The table of the exploitability at every score: the start's, the computed pair's."""
    both, begin, solved = w.both, w.begin, w.solved
    lines = ["## Exploitability at every score", "",
             f"Each side's best response to the pair ({both}), its gain in its own P(win "
             "the game) on fresh deals with the 95% interval (the elder's and the "
             "dealer's on disjoint fresh deals, so the sum's interval adds their "
             "half-widths in quadrature); n fresh deals per side and score.", "",
             f"| score | {begin} | elder's BR | dealer's BR"
             + (" | computed pair | elder's BR | dealer's BR" if solved else "") + " | n |",
             "|---|---|---|---" + ("|---|---|---" if solved else "") + "|---|"]
    for h, c in zip(s["hoyle"], s["computed"]):
        lines.append(f"| {h['score']} | {_exploit_cells(h)} | "
                     + (f"{_exploit_cells(c)} | " if solved else "") + f"{c['n']:,} |")
    return lines


def _value_lines(result: dict, w: _Words) -> list[str]:
    """The table of V at every score, the start's beside it."""
    sv = result["solve"]
    begin, valued = w.begin, w.valued
    history = result["history"]
    v, lo, hi = (np.asarray(result[k]) for k in ("v", "v_lo", "v_hi"))
    v0 = np.asarray(history[0]["v"])
    lines = ["", "## The value of every score", "",
             "`V[x, y]`: the probability that the player about to be elder at `x` wins "
             "against the dealer's `y` (rows: his score; columns: the dealer's), under "
             f"{valued}, 95% interval (a bootstrap that redraws each score's deals "
             "independently, although the scores share their deals: wider than it need "
             f"be); {begin}'s beside it.", "",
             "| elder \\ dealer | " + " | ".join(str(y) for y in range(TARGET)) + " |",
             "|---" * (TARGET + 1) + "|"]
    for x in range(TARGET):
        cells = [f"{v[x, y]:.4f} [{lo[x, y]:.4f}, {hi[x, y]:.4f}] "
                 f"({'Hoyle' if not sv.get('start') else 'start'} {v0[x, y]:.4f})"
                 for y in range(TARGET)]
        lines.append(f"| {x} | " + " | ".join(cells) + " |")
    return lines


def _convergence_lines(result: dict, s: dict, w: _Words) -> list[str]:
    """The sweep score by score: the exploitability at each step, V moved, the share
    still changed and unresolved."""
    history = result["history"]
    begin = w.begin
    tol = result["solve"]["exploit_tolerance"]
    lines = ["", "## How it converged", "",
             f"Step 0 measured {begin} at every score and replaced every row by the best "
             "responses to it. Then, score by score from the last, each step measured the "
             "score's row (best responses sampled on deals that did not choose it, their "
             "gain on fresh deals) and, while the exploitability's 95% upper bound was "
             f"above {tol}, replaced it by them. Per score: the exploitability measured at "
             "each step (the row kept in bold), how far the score's `V` moved in the step "
             "to the row kept, the share of dealt hands whose entry the best responses "
             "would still change (largest over the four tables) and the share whose first "
             "decision they left unresolved (the two actions within the sampling's z "
             "standard errors after the most deals: the resolution).",
             "", "| score | exploitability at each step | V moved | still changed | "
             "unresolved (elder, dealer) | deals |", "|---|---|---|---|---|---|"]
    steps: dict = {}
    for rec in history[1:]:
        steps.setdefault(rec["score"], []).append(rec)
    for e in s["computed"]:
        recs = steps.get(e["score"], [])
        cells = []
        for i, rec in enumerate(recs):
            x = rec["scores"][0]
            text = f"{x['exploitability']:+.4f} {_ci(x['exploitability_ci95'])}"
            cells.append(f"**{text}**" if i == e.get("chosen_step") else text)
        moved = "—" if e.get("v_moved") is None else f"{e['v_moved']:.4f}"
        changed = max(e[k] for k in e if k.endswith("_changed"))
        lines.append(f"| {e['score']} | {' → '.join(cells) or '—'} | {moved} | "
                     f"{changed:.2%} | {e['elder_unresolved']:.1%}, "
                     f"{e['dealer_unresolved']:.1%} | "
                     f"{sum(r['deals'] for r in recs):,} |")
    lines += ["", f"Step 0 ({begin} at every score) played {history[0]['deals']:,} "
              "deals for its best responses."]
    return lines


def _method_lines(result: dict) -> list[str]:
    """How it was computed: the play model, the sampling, the start, the deals, the
    stopping rule and the abstraction of later rounds."""
    sv = result["solve"]
    f, r = sv["sampling"], sv["discard_sampling"]
    accepted = result.get("first_accepted") or []
    lines = ["", "## How it was computed", "",
             f"- Play model {sv['settings']['play']['elder']} for both players; seed "
             f"{sv['seed']}.",
             f"- A best response's first decision: {f[0]} deals a state, doubled while the "
             f"two actions are within {f[2]:g} standard errors at a score of the group, up "
             f"to {f[1]}"
             + (f"; its first discard: {r[0]} deals a state and rule, up to {r[1]}, over "
                "six rules (keep the trumps and the plain cards from a rank up, or keep all "
                "five)" if sv["discards"] else "")
             + ("; the sweep re-solves the discards at a score's first "
                + ("step" if sv.get("discard_steps", 1) == 1 else
                   f"{sv['discard_steps']} steps") + " only, the first decisions at every step (the discards are three quarters "
                "of a step's cost and changed little after one step in trials), so a later "
                "step's exploitability is the first decisions' alone"
                if sv["discards"] else "")
             + (f". A state leaves its action only where the other is better by more than "
                f"{f[2]:g} standard errors, so the deviations a best response finds are "
                "limited to these tables and rules and to what the sampling resolves."
                if sv.get("resolution", "keep") == "keep" else
                ". A state's first decision is the sign of its gain pooled with the states "
                "alike (`--resolution pooled`): a least-squares model of the sampled gains on "
                "the hands' features, one per number of trumps held with or without the king of trumps, and each state's own "
                "gain shrunk toward it by the ratio of the spread the model leaves to the "
                "state's own noise (empirical Bayes); the discards as sampled."),
             *([f"- Started from the shipped strategy whose data has sha256 "
                f"`{sv['start']}`, not from Hoyle's pair."] if sv.get("start") else []),
             f"- `V` from {sv['value_deals']:,} whole deals at every score; exploitability "
             f"and value on {sv['fresh_deals']:,} fresh deals per side and score.",
             f"- Stopping rule at a score: the exploitability's 95% upper bound at most "
             f"{sv['exploit_tolerance']} (and, if a step was taken there, its `V` moved by "
             f"less than {sv['tolerance']} in the last one), or {sv['iterations']} steps.",
             "- Later rounds of a deal (a second proposal after an exchange, a later "
             "exchange) read the same tables on the new hand, an abstraction: the best "
             "responses choose only the first decision and the first discard."
             + (f" Under the computed pair the first proposal is accepted on "
                f"{min(accepted):.1%} to {max(accepted):.1%} of deals (by score), and every "
                "such deal reaches a second proposal read that way; what the abstraction "
                "costs is not measured here." if accepted else "")
             + " The card play is the play model's.", ""]
    return lines


def write_report(out_dir: str, result: dict, execution: dict | None = None) -> list[str]:
    """The report files (module docstring), each written under a temporary name and
    renamed."""
    import pandas as pd

    from ecarte_sim.analysis.reports.provenance import (ReportFiles, caption, png_metadata,
                                                        pyplot)
    plt = pyplot()
    prov = result["provenance"]
    files = ReportFiles(out_dir, prov)
    files.provenance(execution, result.get("command"))
    files.csv("equilibrium.csv", pd.DataFrame(rows(result)), "%.6f")
    files.text("equilibrium.md", markdown(result, caption(prov)))

    s = summary(result)
    labels = [e["score"] for e in s["hoyle"]]
    xs = np.arange(len(labels))

    def exploit_png(p):
        fig, ax = plt.subplots(figsize=(10, 4.2))
        for k, (name, entries, colour) in enumerate(
                (("Hoyle's pair (the list, the maxims)", s["hoyle"], "#b2182b"),
                 ("computed pair", s["computed"], "#2166ac"))):
            y = np.array([e["exploitability"] for e in entries])
            lo = np.array([e["exploitability_ci95"][0] for e in entries])
            hi = np.array([e["exploitability_ci95"][1] for e in entries])
            ax.errorbar(xs + (k - 0.5) * 0.25, y, yerr=[y - lo, hi - y], fmt="o", ms=4,
                        capsize=2, color=colour, label=name)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xticks(xs, labels, rotation=90)
        ax.set_xlabel("score before the deal (elder-dealer)")
        ax.set_ylabel("exploitability, P(win the game)")
        ax.set_title("What best responses gain against each pair, by score (95% intervals; "
                     f"n = {s['computed'][0]['n']:,} fresh deals per side and score)")
        ax.legend(frameon=False)
        fig.tight_layout()
        fig.savefig(p, format="png", dpi=110, metadata=png_metadata(prov))
        plt.close(fig)

    def convergence_png(p):
        history = result["history"]
        steps: dict = {}
        for rec in history[1:]:
            steps.setdefault(rec["score"], []).append(rec["scores"][0])
        order = [e["score"] for e in s["computed"]]
        fig, ax = plt.subplots(figsize=(10, 4.2))
        first = True
        for i, score in enumerate(order):
            entries = [e for e in s["hoyle"] if e["score"] == score] + steps.get(score, [])
            y = [e["exploitability"] for e in entries]
            ax.plot([i] * len(y), y, "-", color="#bbbbbb", lw=1, zorder=1)
            ax.scatter([i], y[:1], color="#b2182b", s=14, zorder=2,
                       label="Hoyle's pair" if first else None)
            if len(y) > 1:
                ax.scatter([i] * (len(y) - 1), y[1:], c=np.arange(len(y) - 1), cmap="Blues_r",
                           vmin=-1, vmax=max(2, len(y)), s=14, zorder=2,
                           label="each step of the sweep (darker: earlier)" if first else None)
            kept = [e for e in s["computed"] if e["score"] == score][0]
            ax.scatter([i], [kept["exploitability"]], marker="D", facecolor="none",
                       edgecolor="#2166ac", s=40, zorder=3,
                       label="row kept" if first else None)
            first = False
        ax.axhline(result["solve"]["exploit_tolerance"], color="#2166ac", lw=0.8, ls="--",
                   label=f"tolerance {result['solve']['exploit_tolerance']}")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xticks(range(len(order)), order, rotation=90)
        ax.set_xlabel("score before the deal (elder-dealer)")
        ax.set_ylabel("exploitability, P(win the game)")
        ax.set_yscale("symlog", linthresh=0.002)
        ax.legend(frameon=False, fontsize=8)
        ax.set_title("The sweep, score by score: the exploitability measured at each step "
                     f"(fresh deals, n = {history[0]['scores'][0]['n']:,} per side and score)",
                     fontsize=10)
        fig.tight_layout()
        fig.savefig(p, format="png", dpi=110, metadata=png_metadata(prov))
        plt.close(fig)

    files.commit("exploitability.png", exploit_png)
    files.commit("convergence.png", convergence_png)
    return files.paths


def ship(ship_dir: str, result: dict) -> list[str]:
    """The computed pair as shipped data: ``<play>.npz`` (:func:`solved.pack`) and
    ``<play>.json`` (command, seed, commit, the solve's settings, the exploitability and
    value found at every score). A run of step 0 only solved nothing: refused."""
    if result["solve"]["iterations"] == 0 and not result.get("responded"):
        raise ValueError("--ship needs a solve (--iterations 1 or more, or --respond): step "
                         "0 alone measures the starting pair and solves nothing")
    play = result["solve"]["settings"]["play"]["elder"]
    pair, gains = result["pair"], result["gains"]
    data = shipped.pack(pair["elder"], pair["dealer"], pair["elder_discard"],
                        pair["dealer_discard"], gains["elder_gain"], gains["dealer_gain"],
                        result["v"])
    s = summary(result)
    prov = result["provenance"]
    meta = {"command": result.get("command"), "seed": prov["seed"],
            "version": prov["version"], "git_commit": prov["git_commit"],
            "solve": result["solve"], "converged": s["converged"],
            **({"responded": "one simultaneous step: these tables are both players' best "
                             "responses to the starting pair; the exploitability below is "
                             "the starting pair's, what they gain against it"}
               if result.get("responded") else {}),
            "steps": s["steps"], "unsettled": s["unsettled"],
            "elder_wins_0_0": s["elder_wins_0_0"],
            "elder_wins_0_0_ci95": s["elder_wins_0_0_ci95"],
            "exploitability": {e["score"]: {"total": e["exploitability"],
                                            "ci95": e["exploitability_ci95"],
                                            "elder": e["elder_gain"],
                                            "dealer": e["dealer_gain"], "n": e["n"],
                                            "steps": e.get("steps", 0)}
                               for e in s["computed"]}}
    if not result["solve"].get("start"):         # step 0 measured Hoyle's pair
        meta["hoyle_exploitability"] = {e["score"]: {"total": e["exploitability"],
                                                     "ci95": e["exploitability_ci95"]}
                                        for e in s["hoyle"]}
    return [str(p) for p in shipped.write(ship_dir, play, data, meta)]
