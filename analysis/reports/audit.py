"""The files and lines of ``ecarte-sim audit`` (:mod:`ecarte_sim.analysis.ecarte.advice.audit`):
``audit.md`` (the per-hand regret of the shipped strategy's table and of the treatise,
each role and score, the worst hands), ``audit.csv`` (one row per hand) and
``provenance.json``."""

from __future__ import annotations

import pandas as pd

from ecarte_sim.analysis.reports.provenance import ReportFiles, caption, provenance
from ecarte_sim.analysis.stats.intervals import Z95_ROUNDED


def _which(result: dict) -> str:
    """The strategy audited, in words."""
    st = result["strategy"]
    where = "shipped" if st.get("data_dir") is None else f"in {st['data_dir']}"
    return f"the strategy {where} ({st['play']}, sha256 {st['sha256'][:12]})"


def _ci(d: dict, fmt: str = "+.4f") -> str:
    lo, hi = d["ci95"]
    return f"{d['mean']:{fmt}} [{lo:{fmt}}, {hi:{fmt}}]"


def _share(d: dict) -> str:
    lo, hi = d["ci95"]
    return f"{d['share']:.1%} [{lo:.1%}, {hi:.1%}] ({d['k']} of {d['n']})"


#: How each figure of a summary's group (``table``, ``treatise``, ``resolved``) is written.
_FORMAT = {"regret": _ci, "regret_cross": _ci, "wrong": _share,
           "worst_wrong": lambda v: f"{v:.4f}"}
#: A group's four columns.
_ALL = ("regret", "regret_cross", "wrong", "worst_wrong")


def _cells(d: dict, fields: tuple[str, ...]) -> list[str]:
    """The Markdown cells of one group's ``fields``."""
    return [_FORMAT[f](d[f]) for f in fields]


def _row(key: str, hands: int, cells: list[str]) -> str:
    return f"| {key} | {hands} | " + " | ".join(cells) + " |"


def resolved_rows(result: dict) -> list[str]:
    """The Markdown table of the resolved strategy (``--resolve``) beside the table's: one
    row a (role, score[, later]); empty when the audit did not resolve."""
    if not result["settings"].get("resolve"):
        return []
    head = ["| role, score | hands | resolved: mean regret (plug-in) | resolved: cross-fitted "
            "| resolved: resolved wrong | resolved: worst resolved | table: mean regret "
            "(plug-in) | table: resolved wrong | table: worst resolved |",
            "|---|---|---|---|---|---|---|---|---|"]
    for key, s in result["summaries"].items():
        if not s["hands"]:
            head.append(f"| {key} | 0 | – | – | – | – | – | – | – |")
            continue
        head.append(_row(key, s["hands"], _cells(s["resolved"], _ALL) + _cells(
            s["table"], ("regret", "wrong", "worst_wrong"))))
    return head


def table_rows(result: dict) -> list[str]:
    """The Markdown table of every (role, score)."""
    head = ["| role, score | hands | table: mean regret (plug-in) | table: cross-fitted | "
            "table: resolved wrong | table: worst resolved | treatise: mean regret (plug-in) "
            "| treatise: cross-fitted | treatise: resolved wrong |",
            "|---|---|---|---|---|---|---|---|---|"]
    for key, s in result["summaries"].items():
        if not s["hands"]:
            head.append(f"| {key} | 0 (none met in {s.get('deals_read', 0):,} deals) | – | – "
                        "| – | – | – | – | – |")
            continue
        head.append(_row(key, s["hands"], _cells(s["table"], _ALL)
                         + _cells(s["treatise"], _ALL[:3])))
    return head


def _where(key: str, w: dict) -> str:
    """A worst hand's cell, cards and (in a later round) what was thrown and taken."""
    return (f"- {key}: {w['hand']}, {w['turn_up']} turned up"
            + (f" (exchange {w['round'] + 1}; thrown {'; '.join(w['thrown'])}, "
               f"the adversary took {', '.join(map(str, w['took']))})"
               if w.get("round") else ""))


def worst_lines(result: dict, top: int) -> list[str]:
    out = []
    for key, s in result["summaries"].items():
        for w in s.get("worst", [])[:top]:
            out.append(_where(key, w) + ": the table says "
                       f"{w['table']}, the values beat it by {w['table_regret']:.4f} "
                       f"(gain {w['gain']:+.4f} ± {Z95_ROUNDED * w['se']:.4f}); the treatise says "
                       f"{w['treatise']}")
    return out


def resolved_worst_lines(result: dict, top: int) -> list[str]:
    """The resolved strategy's worst hands (``--resolve``)."""
    out = []
    for key, s in result["summaries"].items():
        for w in s.get("worst_resolved", [])[:top]:
            out.append(_where(key, w) + f": resolved to {w['resolved']} (the table says "
                       f"{w['table']}), the values beat it by {w['resolved_regret']:.4f} "
                       f"(gain {w['gain']:+.4f} ± {Z95_ROUNDED * w['se']:.4f})")
    return out


def audit_lines(result: dict, top: int = 5) -> list[str]:
    """The audit as text: one paragraph per (role, score)."""
    s = result["settings"]
    lines = [f"{_which(result)[0].upper()}{_which(result)[1:]} hand by hand: {s['hands']} "
             f"random dealt hands per role and score, {s['deals']:,} deals around each, "
             f"seed {s['seed']}; regret in P(win the game), 95% intervals over the hands"]
    for key, v in result["summaries"].items():
        if not v["hands"]:
            lines.append(f"{key}: none met in {v.get('deals_read', 0):,} deals of the "
                         "strategy's play")
            continue
        t, h = v["table"], v["treatise"]
        lines.append(f"{key}: table regret {_ci(t['regret'])} (cross-fitted "
                     f"{_ci(t['regret_cross'])}), resolved wrong on {_share(t['wrong'])}, "
                     f"worst {t['worst_wrong']:.4f}; treatise regret {_ci(h['regret'])}, "
                     f"wrong on {_share(h['wrong'])}")
        if "resolved" in v:
            r = v["resolved"]
            lines.append(f"  resolved: regret {_ci(r['regret'])} (cross-fitted "
                         f"{_ci(r['regret_cross'])}), resolved wrong on {_share(r['wrong'])}, "
                         f"worst {r['worst_wrong']:.4f}")
    if top:
        lines.append("worst hands:")
        lines += ["  " + w[2:] for w in worst_lines(result, top)]
    return lines


def _resolved_section(result: dict, top: int) -> list[str]:
    s = result["settings"]
    if not s.get("resolve"):
        return []
    return ["## The resolved strategy", "",
            "The table is a blueprint. The *resolved* strategy takes each decision as "
            "`ecarte-sim advise` answers it: both actions valued on "
            f"{s['resolve']:,} deals (worlds) of its own, drawn as the audit draws them but "
            "from the other end of the check range (the audit's values never share a deal "
            "with the resolver's), the table's action kept unless those values resolve the "
            "other beyond their 95% interval, as `advise` leads; the adversary and the "
            "later rounds still play the tables. Graded on the audit's values as the table "
            "is.", "", *resolved_rows(result), "",
            "### Its worst hands", "", *resolved_worst_lines(result, top), ""]


def write_audit(out_dir: str, result: dict, command_line: str, top: int = 5) -> list[str]:
    """audit.md, audit.csv and provenance.json in ``out_dir``; the paths written."""
    s = result["settings"]
    n = sum(v["hands"] for v in result["summaries"].values())
    prov = provenance("audit", s, s["seed"], n)
    prov["strategy"] = result["strategy"]
    files = ReportFiles(out_dir, prov)
    files.csv("audit.csv", pd.DataFrame(result["rows"]), "%.6g")
    md = [f"# {_which(result)[0].upper()}{_which(result)[1:]} hand by hand",
          "", f"_{caption(prov)}_", "",
          f"{s['hands']} random dealt hands per role and score (the dealer's from deals whose "
          "elder proposes by the strategy at that score), drawn from the deals of the seed; "
          f"each valued as `ecarte-sim advise` values it: both actions on {s['deals']:,} "
          "deals around the hand (deals no solve samples), the opponent and the later rounds "
          "playing the strategy, the later deals valued by its own `V`. Regret: what an "
          "action loses in P(win the game) against the better one on those values. The "
          "*plug-in* regret counts noise on near-ties as loss (an upper estimate); the "
          "*cross-fitted* regret chooses the better action on one half of the deals and "
          "measures it on the other (a lower estimate). *Resolved wrong*: the hands whose "
          "action the values beat beyond their 95% interval (Wilson interval of the share). "
          "The treatise's action (Hoyle's list for the elder, the maxims for the dealer) on "
          "the same hands and values beside it.", "",
          "The *later* rows: decisions after an exchange (a proposal, its answer), the "
          "first of each deal the strategy plays at that score from the seed's deals, each "
          "valued as `ecarte-sim advise --said ... --discards ...` values it: both actions "
          f"on {s['deals']:,} worlds drawn from what the player knows then (his discards, "
          "what was said, how many cards the adversary took, under the strategy); the "
          "treatise's lists read on the hand held then.", "",
          *table_rows(result), "", "## The worst hands", "", *worst_lines(result, top), "",
          *_resolved_section(result, top)]
    files.text("audit.md", "\n".join(md))
    files.provenance(command_line=command_line)
    return files.paths


__all__ = ["audit_lines", "write_audit", "table_rows", "resolved_rows"]
