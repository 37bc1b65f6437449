"""The per-position card values' report (``ecarte-sim card-regret --out DIR``):

* ``card-regret.md`` — per player: the regret of his card against his own play after it
  (mean, the share of positions where another card is better beyond its interval, the
  split-half regret), by trick, history and seat; how far the values ``cards`` and the
  coach print are from the measured ones; the worst positions.
* ``card-regret.csv`` — one row per player, position and legal card.
* ``provenance.json``.
"""

from __future__ import annotations



def _est(e: dict, fmt: str = "+.4f") -> str:
    if e is None or e.get("mean") is None or e["mean"] != e["mean"]:
        return "—"
    lo, hi = e["ci95"]
    if lo != lo:
        return f"{e['mean']:{fmt}}"
    return f"{e['mean']:{fmt}} [{lo:{fmt}}, {hi:{fmt}}]"


def _share(e: dict) -> str:
    return f"{e['mean']:.1%} [{e['ci95'][0]:.1%}, {e['ci95'][1]:.1%}] ({e['k']} of {e['n']})"


def markdown(result: dict, caption: str) -> str:
    """card-regret.md (module docstring)."""
    from ecarte_sim.engine.deck import format_card, format_hand
    s = result["settings"]
    lines = [
        "# Each card's value with the player's own play after it",
        "",
        f"*{caption}*",
        "",
        "At random positions of the play — held-out deals (seed "
        f"{s['seed']}, both players pimc-inference at W = 64, decisions by the "
        f"{s['decisions']}'s model, at 0-0), every trick with a choice, both seats, after "
        "each kind of history (the elder played without proposing; proposed and was "
        "refused; one exchange) — each legal card (Law 43) is valued with the player's own "
        "play after it on both sides (his model keyed by each side's information and seed "
        f"{s['key_seed']}), over the adversary's hands his inference weighs (what was said "
        "under the decision model, after an exchange his histories as dealt; the cards he "
        "played, none Law 43 has shown he has not; for pimc-king the king's announcement): "
        f"every such hand when they number at most {s['cap']:,} (*exact*), else a uniform "
        f"sample of {s['cap']:,}, paired 95% intervals over the worlds. Marks of the play "
        "(the point 1, the vole 2, Law 49); the kings, the same whatever the card, left "
        "out. The *regret* of the player's card: the best card's value minus his. *Beyond "
        "its interval*: another card's paired advantage has its 95% interval above zero "
        "(exact worlds: any advantage). With sampled worlds the best of several means is "
        "biased up; the *split-half* regret (the best card chosen on half the worlds, its "
        "advantage measured on the other half) is not. 95% intervals over positions "
        "(Wilson for shares).",
        "",
        "*Printed*: the values `ecarte-sim cards` prints (and the coach, in P(win the game)),"
        " the player's: in each of his worlds (drawn with the deal's words), double dummy "
        "from the card on — they credit him with seeing every card after this one (strategy"
        " fusion). *Double dummy over the same worlds*: the same over the measured worlds.",
        "",
        f"{result['positions']} positions; players: "
        + ", ".join(result["players"]) + ".",
        "",
        "## The player's card",
        "",
        "| player | positions (exact) | regret, marks | another card better beyond its interval "
        "| split-half regret | regret of the card `cards` ranks first |",
        "|---|---|---|---|---|---|",
    ]
    for label, m in result["players"].items():
        a = m["summary"]["all"]
        lines.append(f"| {label} | {a['positions']} ({a['exact']}) | {_est(a['regret'])} | "
                     f"{_share(a['beyond'])} | {_est(a['split_regret'])} | "
                     f"{_est(a['printed_regret'])} |")
    lines += ["", "## By trick, history and seat", "",
              "| player | positions | regret | beyond its interval | split-half regret |",
              "|---|---|---|---|---|"]
    for label, m in result["players"].items():
        for key, e in m["summary"].items():
            if key == "all":
                continue
            lines.append(f"| {label}, {key} | {e['positions']} | {_est(e['regret'])} | "
                         f"{_share(e['beyond'])} | {_est(e['split_regret'])} |")
    lines += ["", "## The printed values against the measured", "",
              "Per position, the mean over its legal cards; then the mean over positions.", "",
              "| player | printed − measured | \\|printed − measured\\| | double dummy over the "
              "same worlds − measured | the card printed first is not a best |",
              "|---|---|---|---|---|"]
    for label, m in result["players"].items():
        a = m["summary"]["all"]
        lines.append(f"| {label} | {_est(a['printed_minus_measured'], '+.3f')} | "
                     f"{_est(a['printed_abs_error'], '.3f')} | "
                     f"{_est(a['dd_minus_measured'], '+.3f')} | "
                     f"{_share(a['printed_best_wrong'])} |")
    lines += ["", "## The worst positions", ""]
    for label, m in result["players"].items():
        for r in m["worst"]:
            played = " ".join(format_card(c) for c in r["played"]) or "nothing"
            vals = "; ".join(f"{c['card']} {c['measured']:+.3f} (printed {c['printed']:+.2f})"
                             for c in r["cards"])
            lines.append(f"- **{label}**, deal {r['deal']}, {r['seat']} to play card "
                         f"{r['card_number'] + 1} after {r['said']} ({r['kind']}), "
                         f"holding {format_hand(r['hand'])}, turn-up "
                         f"{format_card(r['turn_up'])}, after {played}: plays {r['card']}, "
                         f"best {r['best']} ({r['regret']:+.3f} marks"
                         + (", beyond its interval" if r["beyond"] else "") + f"; "
                         f"{'every one of ' if r['every'] else ''}{r['n_worlds']} "
                         f"{'hands' if not r['exchanged'] else 'histories'}). Values: {vals}.")
    lines += ["", "## Time", ""]
    for label, m in result["players"].items():
        lines.append(f"- {label}: {m['seconds']:.0f} s for the {m['computed']} positions "
                     "computed by this run"
                     + (f" ({result['positions'] - m['computed']} loaded from the run "
                        "directory)" if m["computed"] < result["positions"] else "") + ".")
    lines.append("")
    return "\n".join(lines)


def write_report(out_dir: str, result: dict) -> list[str]:
    """The report files (module docstring), each written under a temporary name and
    renamed."""
    import pandas as pd

    from ecarte_sim.analysis.reports.provenance import ReportFiles, caption
    prov = result["provenance"]
    files = ReportFiles(out_dir, prov)
    files.provenance(None, result.get("command"))
    rows = []
    for label, m in result["players"].items():
        for r in m["rows"]:
            for c in r["cards"]:
                lo, hi = c["diff_ci95"] if c["diff_ci95"] else (None, None)
                rows.append({"player": label, "deal": r["deal"], "card_number": r["card_number"],
                             "kind": r["kind"], "trick": r["trick"], "seat": r["seat"],
                             "worlds": r["n_worlds"], "exact": r["every"],
                             "played_card": r["card"], "card": c["card"],
                             "measured": c["measured"], "printed": c["printed"],
                             "dd_same_worlds": c["dd"], "advantage": c["diff"],
                             "advantage_lo": lo, "advantage_hi": hi})
    files.csv("card-regret.csv", pd.DataFrame(rows), "%.6f")
    files.text("card-regret.md", markdown(result, caption(prov)))
    return files.paths
