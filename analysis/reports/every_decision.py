"""The files and lines of ``ecarte-sim every-decision``
(:mod:`ecarte_sim.analysis.ecarte.solving.every_decision`): ``every_decision.md`` (what each
score's later steps, later discards and first round changed and left unresolved, the
value of the game), ``every_decision.csv`` (one row per record) and ``provenance.json``;
with ``--ship``, the new pair as shipped strategy data."""

from __future__ import annotations

import json

import numpy as np

from ecarte_sim.analysis.reports.provenance import ReportFiles


def deals_played(result: dict) -> int:
    """The deals the step played: the later rounds' source deals, the first round's."""
    later = int(result["solve"]["later_deals"])
    n = 0
    for r in result["records"]:
        if r["stage"] in ("later decisions", "later discards"):
            n += later
        else:
            n += int(r.get("elder_deals", 0)) + int(r.get("dealer_deals", 0))
    return n


def _by_score(result: dict) -> dict:
    out: dict = {}
    for r in result["records"]:
        out.setdefault(r["score"], []).append(r)
    return out


def score_rows(result: dict) -> list[dict]:
    """One row per score: what its stages changed (module docstring)."""
    v = np.asarray(result["v"])
    rows = []
    for score, recs in _by_score(result).items():
        x, y = (int(t) for t in score.split("-"))
        later = [r for r in recs if r["stage"] == "later decisions"]
        disc = [r for r in recs if r["stage"] == "later discards"]
        first = [r for r in recs if r["stage"] == "first decisions"]
        row = {"score": score, "v": float(v[x, y]), "later_steps": len(later)}
        if later:
            last = later[-1]
            for role in ("elder", "dealer"):
                row[f"{role}_later_met"] = last[f"{role}_met"]
                row[f"{role}_later_changed_first"] = later[0][f"{role}_changed"]
                row[f"{role}_later_changed_last"] = last[f"{role}_changed"]
                row[f"{role}_later_says_a"] = last[f"{role}_says_a"]
        if disc:
            for role in ("elder", "dealer"):
                row[f"{role}_discard_changed"] = disc[0][f"{role}_changed"]
        if first:
            f = first[0]
            for role in ("elder", "dealer"):
                for k in ("changed", "unresolved", "expected_regret", "deals"):
                    row[f"{role}_first_{k}"] = f[f"{role}_{k}"]
        rows.append(row)
    return rows


def _pct(x) -> str:
    return "–" if x is None else f"{x:.1%}"


def markdown(result: dict) -> str:
    s = result["solve"]
    v = np.asarray(result["v"])
    lines = [
        "# Every decision of a deal solved: one step",
        "",
        f"Command: `{result['command']}`",
        "",
        f"Started from the strategy with sha256 {str(result['start']['sha256'])[:12]} "
        f"({result['start']['play']}). Seed {s['seed']}; play {s['settings']['play']['elder']}; "
        f"{s['later_deals']:,} source deals per score and later step, at most "
        f"{s['later_steps']} steps (stopping when less than {s['later_tolerance']:.0%} of "
        f"the later decisions met changed); the first round at {s['first'][0]} deals a state, "
        f"refined to at most {s['first'][1]} within {s['budget']:g} times the first pass, "
        f"epsilon {s['epsilon']}; V from {s['value_deals']:,} whole deals a score. "
        f"{result['seconds'] / 60:.0f} minutes of computing.",
        "",
        "The later decisions (a proposal after an exchange, its answer): per score the "
        "later decisions met in the last step's source deals, the share whose state's "
        "entry changed in the first and the last step, and the share where the new table "
        "proposes (the elder) or accepts (the dealer). The first round: the share of dealt "
        "hands whose entry changed, the share left unresolved (the posterior mean within "
        "two posterior sd of zero, the sd above epsilon / 2), the model's expected regret "
        "per dealt hand (the dealer's weighted by the chance to be asked), the deals spent.",
        "",
        "| score | V (elder) | later steps | elder later: met, changed first → last, proposes "
        "| dealer later: met, changed first → last, accepts | later discards changed "
        "(elder, dealer) | first round changed (elder, dealer) | unresolved | expected "
        "regret | deals |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in score_rows(result):
        def later(role):
            if f"{role}_later_met" not in r:
                return "–"
            return (f"{r[f'{role}_later_met']:,}, {_pct(r[f'{role}_later_changed_first'])}"
                    f" → {_pct(r[f'{role}_later_changed_last'])}, "
                    f"{_pct(r[f'{role}_later_says_a'])}")
        disc = (f"{_pct(r.get('elder_discard_changed'))}, "
                f"{_pct(r.get('dealer_discard_changed'))}")
        if "elder_first_changed" in r:
            first = (f"{_pct(r['elder_first_changed'])}, {_pct(r['dealer_first_changed'])}",
                     f"{_pct(r['elder_first_unresolved'])}, "
                     f"{_pct(r['dealer_first_unresolved'])}",
                     f"{r['elder_first_expected_regret']:.4f}, "
                     f"{r['dealer_first_expected_regret']:.4f}",
                     f"{r['elder_first_deals'] + r['dealer_first_deals']:,}")
        else:
            first = ("–", "–", "–", "–")
        lines.append(f"| {r['score']} | {r['v']:.4f} | {r['later_steps']} | {later('elder')} "
                     f"| {later('dealer')} | {disc} | " + " | ".join(first) + " |")
    lines += ["", f"Under the new pair the elder wins five up from 0-0 with probability "
                  f"{v[0, 0]:.4f} (V, from {s['value_deals']:,} whole deals a score).", "",
              "What this step is worth is measured hand by hand, on held-out decisions, "
              "by `ecarte-sim audit` (the first and the later rounds)."]
    return "\n".join(lines) + "\n"


def write_report(out_dir: str, result: dict, how: dict) -> list[str]:
    """every_decision.md, every_decision.csv and provenance.json; the paths written."""
    import pandas as pd     # here: writing a table
    files = ReportFiles(out_dir, result["provenance"])
    files.text("every_decision.md", markdown(result))
    files.csv("every_decision.csv", pd.DataFrame(score_rows(result)), "%.6g")
    files.provenance(how, result.get("command"))
    return [str(p) for p in files.paths]


def ship(ship_dir: str, result: dict, play: str) -> list[str]:
    """The new pair as shipped data (:func:`~ecarte_sim.analysis.ecarte.solving.solved.pack`,
    its later tables included) with its provenance, the chain of steps that led to it
    (``history``: the start's history, then the start) included."""
    from ecarte_sim.analysis.ecarte.solving import solved as shipped
    from ecarte_sim.analysis.ecarte.solving.equilibrium import LATER
    pair, gains = result["pair"], result["gains"]
    data = shipped.pack(pair["elder"], pair["dealer"], pair["elder_discard"],
                        pair["dealer_discard"], gains["elder_gain"], gains["dealer_gain"],
                        result["v"], later={k: pair[k] for k in LATER})
    prov = result["provenance"]
    meta = {"command": result.get("command"), "seed": prov["seed"],
            "version": prov["version"], "git_commit": prov["git_commit"],
            "solve": {**result["solve"], "every_decision": True},
            "start": result["start"], "seconds": round(result["seconds"]),
            "scores": score_rows(result)}
    # the steps that led here: the start's own history, then the start
    began = result.get("start_provenance") or {}
    if began.get("sha256"):
        meta["history"] = [*began.get("history", []),
                           {"sha256": began["sha256"], "command": began.get("command")}]
    json.dumps(meta)
    return [str(p) for p in shipped.write(ship_dir, play, data, meta)]


def payload(result: dict) -> dict:
    """The --json answer between its command and its provenance and files: plain values
    (the tables themselves are in --ship's data)."""
    return {"solve": result["solve"], "start": result["start"], "seconds": result["seconds"],
            "v": np.asarray(result["v"]).tolist(), "scores": score_rows(result),
            "records": json.loads(json.dumps(result["records"], default=_plain)),
            "first_accepted": [float(a) for a in result["first_accepted"]]}


def _plain(x):
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    raise TypeError(f"{type(x).__name__} is not plain")


def summary_lines(result: dict) -> list[str]:
    """The text answer: per score what changed, the value from 0-0."""
    v = np.asarray(result["v"])
    out = [f"every decision, one step from {str(result['start']['sha256'])[:12]}: "
           f"{result['seconds'] / 60:.0f} minutes; the elder wins five up from 0-0 with "
           f"probability {v[0, 0]:.4f}"]
    for r in score_rows(result):
        parts = [f"{r['score']}: V {r['v']:.4f}"]
        if "elder_later_met" in r:
            parts.append(f"later steps {r['later_steps']} (elder proposes on "
                         f"{_pct(r['elder_later_says_a'])}, dealer accepts on "
                         f"{_pct(r['dealer_later_says_a'])} of the later decisions met)")
        if "elder_first_changed" in r:
            parts.append(f"first round changed {_pct(r['elder_first_changed'])} / "
                         f"{_pct(r['dealer_first_changed'])}, unresolved "
                         f"{_pct(r['elder_first_unresolved'])} / "
                         f"{_pct(r['dealer_first_unresolved'])}")
        out.append("  " + "; ".join(parts))
    return out


__all__ = ["deals_played", "score_rows", "markdown", "write_report", "ship", "payload",
           "summary_lines"]
