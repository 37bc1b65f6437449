"""Files of a ``strategy`` run (:mod:`ecarte_sim.analysis.ecarte.solving.proposal_game` computes
them): strategy.csv, strategy.md, strategy.png, treatise_rules.csv, tables.npz and
provenance.json for best responses to the treatise (:func:`write_report`);
equilibrium.csv, equilibrium.md, equilibrium.png and tables.npz for iterated best
responses (:func:`write_equilibrium_report`); and the rule-by-rule rows a run wrote, read
back for the claims report (:func:`read_rules`, :func:`rules_markdown`). Each file is
written under a temporary name and renamed."""

from __future__ import annotations

import json
import os

import numpy as np

from ecarte_sim.analysis.ecarte.measures.scores import TARGET
from ecarte_sim.analysis.ecarte.solving.proposal_game import ACTIONS, SCORES, cards_thrown
from ecarte_sim.engine.ecarte.decisions.policies import SCORE_SLOTS
from ecarte_sim.engine.ecarte.decisions.states import N_STATES, state_weights

# matplotlib and pandas are imported where a figure or a table is written, not here:
# importing this module stays cheap for callers that write no report.


def policy_map(role: str, table: np.ndarray, per_state=None) -> np.ndarray:
    """(6, k): by trumps held (rows) and row of the table (columns: the 25 scores of a
    (25, N_STATES) table), the share of dealt hands on which a (k, N_STATES) table says
    propose (elder) or accept (dealer); with
    ``per_state`` (a function of the role and one row), the dealt mean of what it gives
    (e.g. :func:`cards_thrown` for a discard table)."""
    from ecarte_sim.analysis.ecarte.solving.readable import features

    w = state_weights().astype(np.float64)
    trumps = features()["trumps"].to_numpy()
    table = np.asarray(table)
    values = table if per_state is None else \
        np.stack([per_state(role, row) for row in table])
    out = np.full((6, len(values)), np.nan)
    for k in range(6):
        sel = trumps == k
        if w[sel].sum():
            out[k] = (values[:, sel] * w[sel]).sum(axis=1) / w[sel].sum()
    return out


def treatise_row(key: str, data: dict, settings: dict) -> np.ndarray:
    """The table the best response ``key`` replaces, one row of ``N_STATES``: the treatise
    policy of the settings (``settings``: as a result echoes them) for a first decision,
    the discard rule it replaces for a discard."""
    from ecarte_sim.engine.ecarte.decisions.tables import treatise_table
    from ecarte_sim.engine.ecarte.settings import DealerPolicy, Discard, ElderPolicy, member

    role = key.split("-")[0]
    if key.endswith("-discard"):
        return np.full(N_STATES, int(member(Discard, data["replaces"], "discard rule")))
    kind = ElderPolicy if role == "elder" else DealerPolicy
    policy = member(kind, settings[f"{role}_policy"], f"{role} policy")
    return treatise_table(role, policy, settings["threshold"])


def trumps_shares() -> np.ndarray:
    """The share of dealt hands holding 0..5 trumps (states weighed as dealt)."""
    from ecarte_sim.analysis.ecarte.solving.readable import features

    w = state_weights().astype(np.float64)
    trumps = features()["trumps"].to_numpy()
    return np.array([w[trumps == k].sum() for k in range(6)]) / w.sum()


def rules_markdown(rows: list[dict]) -> str:
    """Each treatise rule beside the best response, as a Markdown table (strategy.md and
    the claims report's section)."""
    out = ("| role | score | rule | the treatise says | agreement | gain of the best "
           "response, P(win) [95% CI] | marks/deal | share of deals | n |\n"
           "|---|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        out += (f"| {r['role']} | {r['score']} | {r['rule']} | {r['treatise_says']} | "
                f"{r['agreement']:.3f} | {r['gain_win']:+.4f} [{r['gain_win_ci95'][0]:+.4f}, "
                f"{r['gain_win_ci95'][1]:+.4f}] | {r['gain_marks']:+.4f} | "
                f"{r['share_of_deals']:.3f} | {r['n']:,} |\n")
    return out


def read_rules(out_dir: str) -> dict:
    """The rule-by-rule rows a strategy run wrote (``treatise_rules.csv`` and its
    provenance), for the claims report's section; ``ValueError`` naming what is missing."""
    import pandas as pd

    path = os.path.join(out_dir, "treatise_rules.csv")
    prov_path = os.path.join(out_dir, "provenance.json")
    if not (os.path.isfile(path) and os.path.isfile(prov_path)):
        raise ValueError(f"{out_dir!r} holds no treatise_rules.csv and provenance.json from "
                         "'ecarte-sim strategy --out' (against the treatise, first decisions)")
    frame = pd.read_csv(path)
    with open(prov_path, encoding="utf-8") as f:
        prov = json.load(f)
    rows = []
    for r in frame.to_dict(orient="records"):
        rows.append({k: r[k] for k in ("role", "score", "rule", "words", "treatise_says",
                                       "agreement", "gain_win", "gain_marks", "n",
                                       "share_of_deals")}
                    | {"gain_win_ci95": [r["gain_win_ci95_low"], r["gain_win_ci95_high"]],
                       "gain_marks_ci95": [r["gain_marks_ci95_low"],
                                           r["gain_marks_ci95_high"]]})
    play = prov.get("parameters", {}).get("settings", {}).get("play", {})
    return {"source": os.path.normpath(out_dir), "seed": prov.get("seed"),
            "play": "/".join(dict.fromkeys(play.values())) if play else "?", "rows": rows}


def _rules_section(f, rows: list[dict]) -> None:
    if not rows:
        return
    f.write("### Each rule of the treatise beside the best response\n\n"
            "Agreement: the share of the rule's dealt hands on which the best response "
            "does what the rule says. Gain: the best response over the treatise on the "
            "fresh deals whose hand falls under the rule (the cost of following the "
            "rule there), paired, 95% interval.\n\n" + rules_markdown(rows) + "\n")


def _readable_section(f, role: str, data: dict) -> None:
    """strategy.md's computed jeux de règle for one table (item 6a)."""
    read = data.get("readable")
    if not read:
        return
    terms = ", ".join(t.replace("_", " ") for t in read["terms"])
    first = read["scores"][0]
    f.write(f"### The short list ({terms}), at {first['score']}\n\n"
            f"Each class of hands takes what the computed table does on most of its dealt "
            f"hands. It reproduces the table on **{first['reproduced']:.1%}** of dealt "
            f"hands ({first['classes']} classes); played instead of the full table on "
            f"{first['n']:,} fresh deals it changes P(win the game) by "
            f"{first['short_minus_full']:+.4f} [{first['short_minus_full_ci95'][0]:+.4f}, "
            f"{first['short_minus_full_ci95'][1]:+.4f}].\n\n")
    for line in first["lines"]:
        f.write(f"- {line}\n")
    f.write("\nWhere the treatise and the computed table part most (ranked by the gain "
            "over all deals: the gain of the computed choice in P(win the game) on a deal "
            "of the hand, ± one standard error, times how often the hand is dealt; the "
            "representative hand, spades trumps):\n\n"
            "| hand | turn-up | treatise | computed | gain on the hand | dealt share | "
            "gain over all deals |\n|---|---|---|---|---|---|---|\n")
    for d in first["disagreements"]:
        f.write(f"| {d['hand']} | {d['turn_up']} | {d['treatise']} | {d['computed']} | "
                f"{d['gain_win']:+.4f} ± {d['se']:.4f} | {d['dealt']:.2e} | "
                f"{d['contribution']:+.2e} |\n")
    f.write("\n")
    for other in read["scores"][1:]:
        f.write(f"At {other['score']}: reproduces {other['reproduced']:.1%}; short list "
                f"minus full table {other['short_minus_full']:+.4f} "
                f"[{other['short_minus_full_ci95'][0]:+.4f}, "
                f"{other['short_minus_full_ci95'][1]:+.4f}]; classes changed from "
                f"{first['score']}: {'; '.join(other['changes']) or 'none'}.\n\n")


def _discard_section(f, role: str, data: dict) -> None:
    """strategy.md's table for a discard best response."""
    who = role.split("-")[0]
    f.write(f"## The {who}'s first discard (replaces `{data['replaces']}`; "
            f"{data['deals']:,} sampled deals chose the table)\n\n"
            "| score | gain P(win) [95% CI] | gain marks/deal [95% CI] | agreement | "
            "cards thrown (best) | cards thrown (treatise) | n |\n"
            "|---|---|---|---|---|---|---|\n")
    for r in data["rows"]:
        f.write(f"| {r['score']} | {r['gain_win']:+.4f} [{r['gain_win_ci95'][0]:+.4f}, "
                f"{r['gain_win_ci95'][1]:+.4f}] | {r['gain_marks']:+.4f} "
                f"[{r['gain_marks_ci95'][0]:+.4f}, {r['gain_marks_ci95'][1]:+.4f}] | "
                f"{r['agreement']:.3f} | {r['cards_thrown']:.2f} | "
                f"{r['treatise_cards_thrown']:.2f} | {r['n']:,} |\n")
    f.write("\n")


def _tables_npz(tables: dict):
    """A writer of tables.npz for ``commit_file``: each decision table (bool, one row or
    one per score) bit-packed along the states, each discard table (a key naming a
    discard) as ``Discard`` values in uint8, and ``n_states`` to unpack them."""
    def write(p):
        with open(p, "wb") as f:
            np.savez_compressed(f, **{k: (np.asarray(t, dtype=np.uint8) if "discard" in k
                                          else np.packbits(np.asarray(t, dtype=bool),
                                                           axis=-1))
                                      for k, t in tables.items()},
                                n_states=N_STATES)
    return write


def write_report(out_dir: str, result: dict, execution: dict | None = None) -> list[str]:
    """strategy.csv (one row per role and score), strategy.md, strategy.png (the gain on
    fresh deals as 5 × 5 heatmaps, and the policy maps) and provenance.json in
    ``out_dir``, each written under a temporary name and renamed; tables.npz holds the
    computed tables (one row per score: a decision table bit-packed, a discard table as
    ``Discard`` values in uint8)."""
    import pandas as pd

    from ecarte_sim.analysis.reports.provenance import ReportFiles, pyplot

    pyplot()
    files = ReportFiles(out_dir, result["provenance"])
    rows = [{"role": role, **_ci_columns(r)}
            for role, data in result["roles"].items() for r in data["rows"]]
    files.provenance(execution, result.get("command"))
    files.csv("strategy.csv", pd.DataFrame(rows), "%.6f")
    rule_rows = [_ci_columns(r)
                 for data in result["roles"].values() for r in data.get("by_rule", [])]
    if rule_rows:
        files.csv("treatise_rules.csv", pd.DataFrame(rule_rows), "%.6f")
    files.commit("tables.npz",
                 _tables_npz({role: d["table"] for role, d in result["roles"].items()}))
    files.commit("strategy.md", lambda p: _strategy_md(p, result))
    files.commit("strategy.png", lambda p: _strategy_png(p, result))
    return files.paths


def _ci_columns(r: dict) -> dict:
    """A row of the CSV: its figures, each 95% interval as a ``_low`` and a ``_high``
    column."""
    return {**{k: v for k, v in r.items() if not k.endswith("ci95")},
            "gain_win_ci95_low": r["gain_win_ci95"][0],
            "gain_win_ci95_high": r["gain_win_ci95"][1],
            "gain_marks_ci95_low": r["gain_marks_ci95"][0],
            "gain_marks_ci95_high": r["gain_marks_ci95"][1]}


def _strategy_md(p, result: dict) -> None:
    """strategy.md: what was measured, then each role's table (a first decision's or a
    discard's), the treatise's rules beside it and the short list."""
    from ecarte_sim.analysis.reports.provenance import caption as made_by

    prov = result["provenance"]
    with open(p, "w", encoding="utf-8") as f:
        f.write(f"# Écarté: best responses to the treatise\n\n{made_by(prov)}\n\n"
                "Each role's best response to the other's treatise policy, chosen per "
                "canonical state on sampled deals, and measured against the treatise "
                f"policy it replaces on {result['fresh_deals']:,} fresh deals per score "
                "(paired: the same deals both ways). Gains are the role's own: in the "
                "probability of winning the game (continuation values from "
                f"{result['continuation_deals']:,} treatise deals) and in marks per "
                "deal, with 95% intervals. *Agreement*: the share of dealt hands on "
                "which the best response does what the treatise says.\n\n")
        for role, data in result["roles"].items():
            if role.endswith("-discard"):
                _discard_section(f, role, data)
                _readable_section(f, role, data)
                continue
            _first_decision_section(f, role, data)
            _rules_section(f, data.get("by_rule", []))
            _readable_section(f, role, data)


def _first_decision_section(f, role: str, data: dict) -> None:
    """strategy.md's table for a first decision's best response."""
    a = ACTIONS[role][0]
    f.write(f"## The {role} (replaces `{data['replaces']}`; "
            f"{data['deals']:,} sampled deals chose the table)\n\n"
            f"| score | gain P(win) [95% CI] | gain marks/deal [95% CI] | "
            f"agreement | {a} share (best) | {a} share (treatise) | n |\n"
            "|---|---|---|---|---|---|---|\n")
    for r in data["rows"]:
        f.write(f"| {r['score']} | {r['gain_win']:+.4f} [{r['gain_win_ci95'][0]:+.4f}, "
                f"{r['gain_win_ci95'][1]:+.4f}] | {r['gain_marks']:+.4f} "
                f"[{r['gain_marks_ci95'][0]:+.4f}, {r['gain_marks_ci95'][1]:+.4f}]"
                f" | {r['agreement']:.3f} | {r[a + '_share']:.3f} | "
                f"{r['treatise_' + a + '_share']:.3f} | {r['n']:,} |\n")
    f.write("\n")


def _strategy_png(p, result: dict) -> None:
    """strategy.png: one score, the two policies by trumps held; several, the gain by
    score as heatmaps over the policy maps."""
    roles = list(result["roles"])
    if all(len(result["roles"][k]["rows"]) == 1 for k in roles):
        return _one_score_png(p, result)
    return _by_score_png(p, result)


def _one_score_png(p, result: dict) -> None:
    """One score: per role, what the best response and the treatise do by trumps held
    (the share proposing / accepting, or the cards thrown), the gain in the title."""
    import matplotlib.pyplot as plt

    from ecarte_sim.analysis.reports.provenance import caption as made_by, png_metadata

    prov = result["provenance"]
    roles = list(result["roles"])
    settings = result.get("settings") or prov["parameters"]["settings"]
    dealt = trumps_shares()
    cols = min(2, len(roles))
    rows = -(-len(roles) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(6.2 * cols, 5.6 * rows),
                             layout="constrained", squeeze=False)
    for ax, key in zip(axes.flat, roles):
        data = result["roles"][key]
        r = data["rows"][0]
        who = key.split("-")[0]
        slot = 5 * r["elder_score"] + r["dealer_score"]
        best = np.asarray(data["table"])[slot:slot + 1]
        old = treatise_row(key, data, settings)[None]
        discard = key.endswith("-discard")
        per_state = cards_thrown if discard else None
        mine = policy_map(who, best, per_state)[:, 0]
        theirs = policy_map(who, old, per_state)[:, 0]
        x = np.arange(6)
        if discard:
            what = "cards thrown at the first exchange (mean)"
            lab_t = (f"the treatise ({data['replaces']}): {r['treatise_cards_thrown']:.2f} "
                     "cards")
            lab_b = f"best response: {r['cards_thrown']:.2f} cards"
        else:
            verb = ACTIONS[who][0]
            what = f"share of hands where he says {verb}"
            lab_t = (f"the treatise ({data['replaces']}): {verb} on "
                     f"{r['treatise_' + verb + '_share']:.1%} of hands")
            lab_b = f"best response: {verb} on {r[verb + '_share']:.1%} of hands"
        ax.bar(x - 0.2, theirs, 0.4, color="0.65", label=lab_t)
        ax.bar(x + 0.2, mine, 0.4, color="tab:blue", label=lab_b)
        ax.set_xticks(x, [f"{k}\n{dealt[k]:.1%}" if dealt[k] >= 0.001 else
                          f"{k}\n{dealt[k]:.3%}" for k in x])
        ax.set_xlabel("trumps held (below: share of dealt hands)")
        ax.set_ylabel(what)
        ax.set_ylim(0, 5 if discard else 1)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2),
                  title=f"the two agree on {r['agreement']:.1%} of hands",
                  title_fontsize=8)
        lo, hi = r["gain_win_ci95"]
        ax.set_title(f"{who}{' (first discard)' if discard else ''} at {r['score']}: "
                     f"{what}\nbest response over the treatise: {r['gain_win']:+.4f} "
                     f"[{lo:+.4f}, {hi:+.4f}] in P(win the game),\nn = {r['n']:,} fresh "
                     "deals, paired, 95% CI", fontsize=9)
    fig.suptitle(made_by(prov), fontsize=7)
    fig.savefig(p, format="png", dpi=110, metadata=png_metadata(prov))
    plt.close(fig)


def _by_score_png(p, result: dict) -> None:
    """Several scores: per role, the gain in P(win) as a 5 × 5 heatmap (95% half-widths)
    over the policy map by score and trumps held."""
    import matplotlib.pyplot as plt

    from ecarte_sim.analysis.reports.provenance import caption as made_by, png_metadata

    prov = result["provenance"]
    roles = list(result["roles"])
    fig, axes = plt.subplots(2, len(roles), figsize=(6 * len(roles), 9),
                             layout="constrained", squeeze=False)
    for i, role in enumerate(roles):
        data = result["roles"][role]
        grid = np.full((TARGET, TARGET), np.nan)
        for r in data["rows"]:
            grid[r["elder_score"], r["dealer_score"]] = r["gain_win"]
        ax = axes[0, i]
        im = ax.imshow(grid, cmap="viridis", origin="lower")
        for r in data["rows"]:
            ax.text(r["dealer_score"], r["elder_score"],
                    f"{r['gain_win']:+.4f}\n±{(r['gain_win_ci95'][1] - r['gain_win']):.4f}",
                    ha="center", va="center", fontsize=7, color="white")
        ax.set(title=f"{role}: gain in P(win) over the treatise\n(fresh deals, n = "
                     f"{data['rows'][0]['n']:,} per score, 95% CI)",
               xlabel="dealer's score", ylabel="elder's score")
        fig.colorbar(im, ax=ax)
        ax = axes[1, i]
        if role.endswith("-discard"):
            who = role.split("-")[0]
            pm = policy_map(who, data["table"], cards_thrown)
            im = ax.imshow(pm, cmap="viridis", vmin=0, vmax=5, aspect="auto",
                           origin="lower")
            ax.set(title=f"{who}: cards thrown at the first exchange (best response)",
                   xlabel="score E-D", ylabel="trumps held")
        else:
            pm = policy_map(role, data["table"])
            im = ax.imshow(pm, cmap="RdBu", vmin=0, vmax=1, aspect="auto",
                           origin="lower")
            ax.set(title=f"{role}: share of hands where the best response says "
                         f"{ACTIONS[role][0]}", xlabel="score E-D",
                   ylabel="trumps held")
        ax.set_xticks(range(SCORE_SLOTS), [f"{x}-{y}" for x, y in SCORES], rotation=90,
                      fontsize=6)
        fig.colorbar(im, ax=ax)
    fig.suptitle(made_by(prov), fontsize=7)
    fig.savefig(p, format="png", dpi=110, metadata=png_metadata(prov))
    plt.close(fig)


def write_equilibrium_report(out_dir: str, result: dict,
                             execution: dict | None = None) -> list[str]:
    """equilibrium.csv (one row per step), equilibrium.md, equilibrium.png (exploitability
    and the elder's value by step, 95% intervals), tables.npz (the last pair: decision
    tables bit-packed, discard tables as ``Discard`` values) and provenance.json."""
    import pandas as pd

    from ecarte_sim.analysis.reports.provenance import (ReportFiles, caption as made_by,
                                                        png_metadata, pyplot)

    plt = pyplot()
    prov = result["provenance"]
    files = ReportFiles(out_dir, prov)
    steps = result["steps"]
    rows = []
    for st in steps:
        row = {"score": result["score"]}
        for k, val in st.items():
            if k.endswith("_ci95"):
                row[f"{k}_low"], row[f"{k}_high"] = val
            else:
                row[k] = val
        rows.append(row)
    files.provenance(execution, result.get("command"))
    files.csv("equilibrium.csv", pd.DataFrame(rows), "%.6f")
    files.commit("tables.npz", _tables_npz(result["tables"]))
    discards = "discard" in result.get("decisions", ())

    def markdown(p):
        with open(p, "w", encoding="utf-8") as f:
            f.write(f"# Écarté: iterated best responses at {result['score']}\n\n"
                    f"{made_by(prov)}\n\n"
                    "From the treatise's pair (Hoyle's list, the maxims"
                    f"{', the discard rule' if discards else ''}), each step replaces the "
                    "elder's tables by his best response to the dealer's, then the dealer's "
                    "by his best response to that "
                    f"({'first decision and first discard' if discards else 'first decisions; the discards stay the treatise rule'}). "
                    "*Exploitability* of a pair: what a best-responding elder gains plus what "
                    "a best-responding dealer gains, in the probability of winning the game, "
                    f"each measured on {result['fresh_deals']:,} fresh deals (paired, 95% "
                    "intervals). A best response leaves an action only where the other is "
                    "better by more than two standard errors, so these are lower bounds at "
                    "the sampling's resolution. *Elder's value*: his probability of winning "
                    "the game from this score when both play the pair (the dealer has the "
                    "rest). Continuation values: from "
                    f"{result['continuation_deals']:,} treatise deals.\n\n")
            extra = (" elder discard agrees | dealer discard agrees | cards thrown (E/D) |"
                     if discards else "")
            f.write("| step | exploitability [95% CI] | elder's gain | dealer's gain | "
                    f"elder's value [95% CI] | elder proposes | dealer accepts |{extra}\n"
                    "|---|---|---|---|---|---|---|" + ("---|---|---|" if discards else "")
                    + "\n")
            for st in steps:
                lo, hi = st["exploitability_ci95"]
                vlo, vhi = st["elder_value_ci95"]
                more = (f" {st['elder_discard_agreement']:.3f} | "
                        f"{st['dealer_discard_agreement']:.3f} | "
                        f"{st['elder_cards_thrown']:.2f} / {st['dealer_cards_thrown']:.2f} |"
                        if discards else "")
                f.write(f"| {st['step']} | {st['exploitability']:+.5f} [{lo:+.5f}, {hi:+.5f}]"
                        f" | {st['elder_gain']:+.5f} | {st['dealer_gain']:+.5f} | "
                        f"{st['elder_value']:.4f} [{vlo:.4f}, {vhi:.4f}] | "
                        f"{st['elder_propose_share']:.3f} | {st['dealer_accept_share']:.3f} |"
                        f"{more}\n")
            f.write(f"\nn = {steps[0]['n']:,} fresh deals per measurement. The shares are "
                    "of dealt hands (the dealer's: of hands that meet a proposal); "
                    "*agrees*: the share of dealt hands on which the discard throws the "
                    "treatise rule's cards.\n")
    files.commit("equilibrium.md", markdown)

    def png(p):
        fig, axes = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
        t = [st["step"] for st in steps]
        for ax, key, label in ((axes[0], "exploitability", "exploitability, P(win the game)"),
                               (axes[1], "elder_value", "elder's P(win the game)")):
            mid = np.array([st[key] for st in steps])
            ci = np.array([st[f"{key}_ci95"] for st in steps])
            ax.errorbar(t, mid, yerr=[mid - ci[:, 0], ci[:, 1] - mid], marker="o", capsize=4)
            ax.set(xlabel="step", ylabel=label, xticks=t,
                   title=f"{label} at {result['score']}\n(n = {steps[0]['n']:,} fresh deals "
                         "per point, 95% CI)")
            if key == "exploitability":
                ax.axhline(0, color="grey", lw=0.8)
        fig.suptitle(made_by(prov), fontsize=7)
        fig.savefig(p, format="png", dpi=110, metadata=png_metadata(prov))
        plt.close(fig)
    files.commit("equilibrium.png", png)
    return files.paths


__all__ = ["write_report", "write_equilibrium_report", "read_rules", "rules_markdown",
           "policy_map"]
