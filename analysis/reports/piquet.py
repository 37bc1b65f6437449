"""Files of ``ecarte-sim piquet report`` (:mod:`ecarte_sim.analysis.piquet.report` measures
the figures): piquet.md, pairings.csv, exchange.csv, sinking.csv and search.csv (when those
studies were run), partie.csv, totals.png, exchange.png and
provenance.json, each written under a temporary name and renamed, each naming command,
seed, n and version."""

from __future__ import annotations

import math
import textwrap

import numpy as np

from ecarte_sim.analysis.reports.provenance import (ReportFiles, caption as made_by,
                                                    csv_columns, png_metadata, pyplot)
from ecarte_sim.analysis.stats.intervals import Z95

# matplotlib and pandas are imported where a figure or a table is written, not here:
# importing this module stays cheap for callers that write no report.


def _ci(x: dict, digits: int = 3) -> str:
    lo, hi = x["ci95"]
    return f"[{lo:.{digits}f}, {hi:.{digits}f}]"


def markdown(result: dict, caption: str) -> str:
    lines = ["# Piquet: measured figures", "", f"Made by {caption}.", "",
             "Rules: `engine/piquet/rules.md` (Laws of Piquet, Portland and Turf Clubs). Every rate has its "
             "Wilson 95% interval and every margin or difference its normal 95% interval "
             "(pairings.csv has the same); n is given for each row.",
             "", "## The elder's advantage per deal, by pairing", "",
             "| elder | younger | n | elder wins | 95% CI | ties | mean elder | mean younger "
             "| margin | 95% CI | highest deal |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for p in result["pairings"]:
        iv = p["intervals"]
        lines.append(
            f"| {p['elder']} | {p['younger']} | {p['deals']:,} | "
            f"{iv['elder_win_rate']['rate']:.4f} | {_ci(iv['elder_win_rate'], 4)} | "
            f"{iv['tie_rate']['rate']:.4f} | {p['mean_elder']:.2f} | {p['mean_younger']:.2f} | "
            f"{iv['mean_difference']['mean']:.2f} | {_ci(iv['mean_difference'], 2)} | "
            f"{max(p['by_seat']['elder']['max_total'], p['by_seat']['younger']['max_total'])} |")
    lines += ["", "## Carte blanche, pique, repique and capot by seat (per deal)", "",
              "| elder | younger | n | seat | carte blanche | pique | repique | capot |",
              "|---|---|---|---|---|---|---|---|"]
    for p in result["pairings"]:
        for seat in ("elder", "younger"):
            s = p["by_seat"][seat]
            cells = " | ".join(f"{s[k]['rate']:.5f} {_ci(s[k], 5)}"
                               for k in ("carte_blanche", "pique", "repique", "capot"))
            lines.append(f"| {p['elder']} | {p['younger']} | {p['deals']:,} | {seat} | {cells} |")
    lines += ["", "Exact: carte blanche in a given hand = 125,970 / 225,792,840 = "
              f"{125970 / 225792840:.6f}.", "",
              "## The exchange (heuristic v heuristic, paired on the same deals)", "",
              "Margin = the elder's total minus the younger's. Positive differences favour "
              "arm a.", "",
              "| question | a | b | n | margin a | margin b | a − b | 95% CI | elder win a − b "
              "| 95% CI |", "|---|---|---|---|---|---|---|---|---|---|"]
    for e in result["exchange"]:
        d, w = e["margin_difference"], e["elder_win_difference"]
        lines.append(f"| {e['question']} | {e['a']} | {e['b']} | {e['n']:,} | "
                     f"{e['margin_a']:.3f} | {e['margin_b']:.3f} | {d['mean']:.3f} | "
                     f"{_ci(d)} | {w['mean']:.4f} | {_ci(w, 4)} |")
    lines += ["", "## Rule variants (heuristic v heuristic, paired)", "",
              "| variant | n | pique rate | margin (variant) | margin (default) | difference "
              "| 95% CI |", "|---|---|---|---|---|---|---|"]
    for v in result["variants"]:
        d = v["margin_difference"]
        pq = v["summary"]["by_seat"]["elder"]["pique"]
        lines.append(f"| {v['variant']} | {v['n']:,} | {pq['rate']:.4f} {_ci(pq, 4)} | "
                     f"{v['margin_a']:.3f} | {v['margin_b']:.3f} | {d['mean']:.3f} | {_ci(d)} |")
    lines += sinking_lines(result) + search_lines(result)
    lines += ["", "## The partie (Laws 71–73)", "",
              "A deals first; the same player on both sides, so A's win rate answers whether "
              "the winner of the cut should choose to deal first.", "",
              "| players | partie | n | A (first dealer) wins | 95% CI | rubicon | 95% CI | "
              "A's mean settlement | 95% CI | tie-break deals | drawn |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    for p in result["parties"]:
        iv = p["intervals"]
        w, r, m = iv["first_dealer_win_rate"], iv["rubicon_rate"], iv["first_dealer_settlement"]
        lines.append(f"| {p['players']} | {p['partie']} | {p['parties']:,} | {w['rate']:.4f} | "
                     f"{_ci(w, 4)} | {r['rate']:.4f} | {_ci(r, 4)} | {m['mean']:.2f} | "
                     f"{_ci(m, 2)} | {p['tie_breaks']} | {p['drawn']} |")
    lines += ["", "## Beside the public peer engine", ""] + peer_lines(result)
    return "\n".join(lines) + "\n"


def declaring_text(echo: dict) -> str:
    """An arm's sinking policies and readings in words (``PiquetSettings.declaring_echo``)."""
    parts = [f"{seat} sinks {policy}" for seat, policy in echo.get("sink", {}).items()
             if policy != "never"]
    parts += [f"{seat} reads {reading}" for seat, reading in echo.get("reading", {}).items()
              if reading != "face"]
    return "; ".join(parts) or "all called, read at face value"


def gain_for_seat(row: dict) -> dict:
    """A paired row's difference of the elder's margin as the named seat's gain (the
    younger's is its negative, its interval turned round)."""
    d = row["margin_difference"]
    if row["seat"] == "elder":
        return d
    return {"mean": -d["mean"], "se": d["se"], "ci95": [-d["ci95"][1], -d["ci95"][0]]}


def sinking_lines(result: dict) -> list[str]:
    rows = result.get("sinking") or []
    if not rows:
        return []
    lines = ["", "## Sinking and reading the declarations (Law 47; paired on the same deals)",
             "", "A call is never compulsory (Law 47): a player may *sink* a holding, leave it "
             "uncalled, scoring nothing for it and conceding the category, to hide his hand "
             "for the play (`engine/piquet/rules.md`, \"Sinking\"). `guard` sinks a point of "
             "four cards or fewer, or a lone tierce or quart, whose suit holds the king "
             "without the ace; `never` calls everything. A PIMC player reads the calls when "
             "he samples the cards he cannot see: `face` (at face value, the default), "
             "`none` (only the cards shown and the voids of the play), `full` (as the "
             "adversary's sinking policy, known to him, gives them; against a player who "
             "never sinks, the same as `face`). The heuristic reads nothing from the calls. "
             "Each row plays the same deals under a and b; the gain is the named seat's, in "
             "points a deal (his total less the other's, a − b); the win-rate difference "
             "is the elder's.", "",
             "| players | question | for | a | b | n | gain (points a deal) | 95% CI "
             "| P(elder wins) a − b | 95% CI |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        g, w = gain_for_seat(r), r["elder_win_difference"]
        lines.append(f"| {r['players']} | {r['question']} | {r['seat']} | "
                     f"{declaring_text(r['a'])} | {declaring_text(r['b'])} | {r['n']:,} | "
                     f"{g['mean']:+.3f} | {_ci(g)} | {w['mean']:+.4f} | {_ci(w, 4)} |")
    return lines


#: The search's arms in words.
SEARCH_ARMS = {"heuristic": "keep value (both)", "both_search": "both by search",
               "elder_search_free": "elder's search, any number",
               "younger_search_free": "younger's search, any number",
               **{f"elder_search_{k}": f"elder's search, takes {k}" for k in range(1, 6)},
               **{f"younger_search_{k}": f"younger's search, takes {k}" for k in range(1, 4)}}


def search_lines(result: dict) -> list[str]:
    runs = result.get("search") or []
    if not runs:
        return []
    first = runs[0]
    lines = ["", "## Discards chosen by search (paired on the same deals)", "",
             "Each player's discard chosen by search: every discard of his cards among "
             f"those of lowest keep value (the cards he throws and {first['window']} more), "
             "and each suit kept whole or thrown, evaluated on "
             f"{first['samples']} sampled deals consistent with what he knows (the "
             "adversary's hand and the stock) played out by the heuristic; against the "
             "heuristic's keep value. The arms are played out by the heuristic (the "
             "search's own model) and by the PIMC player (a check that the gain is not the "
             "evaluation's artefact). Differences are of the elder's margin (his total less "
             "the younger's), a − b: for the younger's choices a negative difference "
             "favours the younger.", "",
             "| arms played by | a | b | n | margin a | margin b | a − b | 95% CI "
             "| P(elder wins) a − b | 95% CI |", "|---|---|---|---|---|---|---|---|---|---|"]
    for run in runs:
        for c in run["comparisons"]:
            d, w = c["margin_difference"], c["elder_win_difference"]
            lines.append(f"| {run['play']} | {SEARCH_ARMS[c['a']]} | {SEARCH_ARMS[c['b']]} | "
                         f"{run['deals']:,} | {c['margin_a']:.3f} | {c['margin_b']:.3f} | "
                         f"{d['mean']:+.3f} | {_ci(d)} | {w['mean']:+.4f} | {_ci(w, 4)} |")
    lines += ["", "Free to take fewer (Law 32), how many cards the search takes, and how "
              "often its full-take discard is the keep value's (share of the "
              f"{first['deals']:,} deals, 95% interval; the searches evaluate with the "
              "heuristic's play, so these do not depend on who plays the arms out):", "",
              "| seat | takes 1 | 2 | 3 | 4 | 5 | search = keep value |",
              "|---|---|---|---|---|---|---|"]
    for seat, most in (("elder", 5), ("younger", 3)):
        takes = first[f"{seat}_free_take"]
        cells = [f"{takes[str(k)]['rate']:.4f}" if k <= most else "–" for k in range(1, 6)]
        same = first["search_is_heuristic"][seat]
        lines.append(f"| {seat} | {' | '.join(cells)} | {same['rate']:.4f} {_ci(same, 4)} |")
    return lines


def _pairing(result, elder, younger):
    for p in result["pairings"]:
        if p["elder"] == elder and p["younger"] == younger:
            return p
    return None


def peer_lines(result: dict) -> list[str]:
    peer = result["peer"]
    lines = ["| figure | peer (n = 20,000 deals) | here | n here | why they may differ |",
             "|---|---|---|---|---|"]
    h = _pairing(result, "heuristic", "heuristic")
    r = _pairing(result, "random", "random")
    minimal = next(e for e in result["exchange"] if e["question"] == "full v minimal exchange")
    minimal_r = next(e for e in result["exchange"]
                     if e["question"] == "full v minimal exchange, random players")
    sd_peer = math.sqrt(0.5 * 0.5 / peer["deals"])
    if r:
        w = r["intervals"]["elder_win_rate"]
        ties = r["intervals"]["tie_rate"]["rate"]
        lines.append(f"| elder wins, full exchange, random players | {peer['elder_win_full_exchange']:.3f} "
                     f"(± {Z95 * sd_peer:.3f}) | {w['rate']:.4f} {_ci(w, 4)}; with ties as half "
                     f"a win {w['rate'] + ties / 2:.4f} | {r['deals']:,} | the gap is larger "
                     "than both intervals: not sample size. The peer does not say which players "
                     "or rule variants it used, nor how ties count (the rule variants' effect "
                     "on our heuristic players is in the variants table) |")
    if h:
        w = h["intervals"]["elder_win_rate"]
        lines.append(f"| elder wins, full exchange, heuristic players | "
                     f"{peer['elder_win_full_exchange']:.3f} | {w['rate']:.4f} {_ci(w, 4)} | "
                     f"{h['deals']:,} | our heuristic is our own (keep values, remembered "
                     "cards) |")
    for label, m in (("random", minimal_r), ("heuristic", minimal)):
        w = m["elder_win_b"]
        d = m["elder_win_difference"]
        lines.append(f"| elder wins without the full exchange, {label} players | "
                     f"{peer['elder_win_no_full_exchange']:.3f} (full − without: "
                     f"{peer['elder_win_full_exchange'] - peer['elder_win_no_full_exchange']:+.3f}) "
                     f"| {w['rate']:.4f} {_ci(w, 4)} (full − without, paired: "
                     f"{d['mean']:+.4f} {_ci(d, 4)}) | {m['n']:,} | here \"without\" = one card "
                     "each (Laws 21–22 oblige one); the peer does not define it further |")
    if h:
        lines.append(f"| mean points a deal, elder / younger (best heuristics) | "
                     f"{peer['mean_elder_heuristic']:.0f} / {peer['mean_younger_heuristic']:.0f} | "
                     f"{h['mean_elder']:.2f} / {h['mean_younger']:.2f} | {h['deals']:,} | "
                     "different heuristics; the peer gives no interval |")
    highest = max(max(p["by_seat"]["elder"]["max_total"], p["by_seat"]["younger"]["max_total"])
                  for p in result["pairings"])
    lines.append(f"| highest deal | {peer['max_deal']} (the theoretical maximum) | "
                 f"{highest} (highest seen) | all pairings | 170 needs a repique with capot "
                 "on the elder's four tierces major (he must also win the point: the younger "
                 "holding no four-card suit); a sample shows the highest it met |")
    return lines


def headline_lines(result: dict, seed: int) -> list[str]:
    """What ``piquet report --out`` prints (as ``claims`` does): the answers of the report
    in a few lines, each with its 95% interval and n; the rest is in piquet.md."""
    lines = [f"Piquet report — seed {seed}; each figure: estimate [95% interval], n"]
    lines.append("\nthe elder's advantage per deal (the same kind of player in both seats):")
    for p in result["pairings"]:
        if p["elder"] != p["younger"]:
            continue
        iv = p["intervals"]
        w, d = iv["elder_win_rate"], iv["mean_difference"]
        lines.append(f"  {p['elder']:9s} elder wins {w['rate']:.4f} {_ci(w, 4)}, margin "
                     f"{d['mean']:+.2f} {_ci(d, 2)} points  n={p['deals']:,}")
    lines.append("\nthe exchange (paired, the same deals both ways): the elder's margin and "
                 "P(elder wins), a minus b")
    for e in result["exchange"]:
        d, w = e["margin_difference"], e["elder_win_difference"]
        players = ", random players" if e["question"].endswith("random players") else ""
        lines.append(f"  {e['a']} v {e['b']}{players}: margin {d['mean']:+.2f} {_ci(d, 2)}, "
                     f"P(elder wins) {w['mean']:+.4f} {_ci(w, 4)}  n={e['n']:,}")
    lines.append("\nthe partie: should the winner of the cut deal first? (A deals first; "
                 "the same player on both sides)")
    for p in result["parties"]:
        w = p["intervals"]["first_dealer_win_rate"]
        lines.append(f"  {p['players']:9s} {p['partie']} deals: A wins {w['rate']:.4f} "
                     f"{_ci(w, 4)}  n={p['parties']:,} parties")
    if result.get("sinking"):
        lines.append("\nsinking (guard v never) and reading the calls, the named seat's gain "
                     "in points a deal (paired):")
        for r in result["sinking"]:
            g = gain_for_seat(r)
            lines.append(f"  {r['players']:9s} {r['question']}, {r['seat']}: {g['mean']:+.3f} "
                         f"{_ci(g)}  n={r['n']:,}")
    for run in result.get("search") or []:
        lines.append(f"\ndiscards by search, arms played by {run['play']} (the elder's "
                     "margin, a − b, paired):")
        for c in run["comparisons"]:
            d = c["margin_difference"]
            lines.append(f"  {SEARCH_ARMS[c['a']]} v {SEARCH_ARMS[c['b']]}: {d['mean']:+.3f} "
                         f"{_ci(d)}  n={run['deals']:,}")
    mixed = sum(p["elder"] != p["younger"] for p in result["pairings"])
    lines.append(f"\n{mixed} mixed pairings, the bonuses by seat, the rule variants and the "
                 "peer engine's figures are in piquet.md")
    return lines


def pairing_rows(result: dict, provenance: dict) -> list[dict]:
    """pairings.csv: one row per pairing of players (the elder's win rate and margin,
    each seat's bonuses)."""
    rows = []
    for p in result["pairings"]:
        iv = p["intervals"]
        rows.append({"elder": p["elder"], "younger": p["younger"], "n": p["deals"],
                     "elder_win_rate": iv["elder_win_rate"]["rate"],
                     "elder_win_ci95_low": iv["elder_win_rate"]["ci95"][0],
                     "elder_win_ci95_high": iv["elder_win_rate"]["ci95"][1],
                     "mean_elder": p["mean_elder"], "mean_younger": p["mean_younger"],
                     "margin": iv["mean_difference"]["mean"],
                     "margin_ci95_low": iv["mean_difference"]["ci95"][0],
                     "margin_ci95_high": iv["mean_difference"]["ci95"][1],
                     **{f"{seat}_{k}": p["by_seat"][seat][k]["rate"]
                        for seat in ("elder", "younger")
                        for k in ("carte_blanche", "pique", "repique", "capot")},
                     "seed": provenance["seed"], "version": provenance["version"]})
    return rows


def exchange_rows(result: dict, provenance: dict) -> list[dict]:
    """exchange.csv: one row per question of the exchange (a against b, paired)."""
    return [{"question": e["question"], "a": e["a"], "b": e["b"], "n": e["n"],
             "margin_a": e["margin_a"], "margin_b": e["margin_b"],
             "difference": e["margin_difference"]["mean"],
             "ci95_low": e["margin_difference"]["ci95"][0],
             "ci95_high": e["margin_difference"]["ci95"][1],
             "seed": provenance["seed"], "version": provenance["version"]}
            for e in result["exchange"]]


def sinking_rows(result: dict, provenance: dict) -> list[dict]:
    """sinking.csv: one row per question of sinking and reading the calls (none when not
    run)."""
    return [{"players": r["players"], "question": r["question"], "for": r["seat"],
             "a": declaring_text(r["a"]), "b": declaring_text(r["b"]), "n": r["n"],
             "gain": gain_for_seat(r)["mean"], "ci95_low": gain_for_seat(r)["ci95"][0],
             "ci95_high": gain_for_seat(r)["ci95"][1],
             "elder_win_difference": r["elder_win_difference"]["mean"],
             "seed": provenance["seed"], "version": provenance["version"]}
            for r in result.get("sinking") or []]


def search_rows(result: dict, provenance: dict) -> list[dict]:
    """search.csv: one row per comparison of the discards by search (none when not run)."""
    return [{"play": run["play"], "samples": run["samples"], "a": c["a"], "b": c["b"],
             "n": run["deals"], "margin_a": c["margin_a"], "margin_b": c["margin_b"],
             "difference": c["margin_difference"]["mean"],
             "ci95_low": c["margin_difference"]["ci95"][0],
             "ci95_high": c["margin_difference"]["ci95"][1],
             "elder_win_difference": c["elder_win_difference"]["mean"],
             "seed": provenance["seed"], "version": provenance["version"]}
            for run in result.get("search") or [] for c in run["comparisons"]]


def partie_rows(result: dict, provenance: dict) -> list[dict]:
    """partie.csv: one row per kind of partie (the first dealer's win rate, rubicons,
    settlement)."""
    return [{"players": p["players"], "partie": p["partie"], "n": p["parties"],
             "first_dealer_win_rate": p["intervals"]["first_dealer_win_rate"]["rate"],
             "ci95_low": p["intervals"]["first_dealer_win_rate"]["ci95"][0],
             "ci95_high": p["intervals"]["first_dealer_win_rate"]["ci95"][1],
             "rubicon_rate": p["intervals"]["rubicon_rate"]["rate"],
             "mean_settlement": p["intervals"]["first_dealer_settlement"]["mean"],
             "tie_breaks": p["tie_breaks"], "drawn": p["drawn"],
             "seed": provenance["seed"], "version": provenance["version"]}
            for p in result["parties"]]


def _save(fig, f, provenance: dict) -> None:
    fig.savefig(f, format="png", dpi=110, bbox_inches="tight", pad_inches=0.1,
                metadata=png_metadata(provenance))
    pyplot().close(fig)


def totals_png(f, result: dict, provenance: dict, footer: str) -> None:
    """Each seat's deal total as the share of deals reaching at least x points (log
    scale, so that the rare big deals — pique, repique, capot — stay visible instead
    of a jagged histogram flattened by its tail)."""
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True, layout="constrained")
    shown = [(ax, key, _pairing(result, *key))
             for ax, key in zip(axes, (("random", "random"), ("heuristic", "heuristic")))]
    top = max([int(np.flatnonzero(np.asarray(p["histogram"][seat]))[-1])
               for _, _, p in shown if p is not None for seat in ("elder", "younger")
               if np.asarray(p["histogram"][seat]).any()] or [120])
    for ax, key, p in shown:
        if p is None:
            ax.set_axis_off()
            continue
        for seat, colour in (("elder", "tab:blue"), ("younger", "tab:orange")):
            h = np.array(p["histogram"][seat], dtype=float)
            at_least = h[::-1].cumsum()[::-1] / h.sum()        # P(total >= x)
            x = np.arange(len(h))
            keep = at_least > 0
            median = int(np.searchsorted(np.cumsum(h) / h.sum(), 0.5))
            ax.step(x[keep], at_least[keep], where="post", color=colour,
                    label=f"{seat}: mean {p['mean_' + seat]:.2f}, median {median}")
        ax.set_yscale("log")
        ax.set_title(f"{key[0]} v {key[1]} players (n = {p['deals']:,} deals)", fontsize=10)
        ax.set_xlabel("points the seat scores in the deal (x)")
        ax.set_xlim(0, top + 2)
        ax.grid(alpha=0.3)
        ax.legend(title="seat", fontsize=9)
    axes[0].set_ylabel("share of deals in which the seat scores at least x")
    fig.suptitle("Piquet: how many points each seat scores in a deal, elder against "
                 f"younger (highest total seen: {top})\n{footer}", fontsize=9)
    _save(fig, f, provenance)


def exchange_png(f, result: dict, provenance: dict, footer: str) -> None:
    """The exchange's questions: each paired difference in the elder's margin with its 95%
    interval, one bar a question."""
    plt = pyplot()
    rows = result["exchange"]
    fig, ax = plt.subplots(figsize=(10, 0.55 * len(rows) + 2.2), layout="constrained")
    colours = {"elder takes five": "tab:blue", "younger takes all": "tab:orange"}
    labels, means, lows, highs, cols = [], [], [], [], []
    for e in rows:
        d = e["margin_difference"]
        players = " (random players)" if e["question"].endswith("random players") else ""
        labels.append(f"{e['a']}\nv {e['b']}{players}")
        means.append(d["mean"])
        lows.append(d["mean"] - d["ci95"][0])
        highs.append(d["ci95"][1] - d["mean"])
        cols.append(colours.get(e["question"], "tab:grey"))
    y = np.arange(len(rows))
    ax.barh(y, means, xerr=[lows, highs], color=cols, alpha=0.85, capsize=3)
    ax.set_yticks(y, labels, fontsize=8)
    ax.invert_yaxis()                       # the first question on top
    ax.axvline(0, color="black", lw=0.8)
    span = max(abs(m) + max(lo, hi) for m, lo, hi in zip(means, lows, highs)) or 1.0
    for k, e in enumerate(rows):
        d = e["margin_difference"]
        end = d["ci95"][1] if means[k] >= 0 else d["ci95"][0]    # past the error bar
        ax.text(end + (0.02 * span if means[k] >= 0 else -0.02 * span), k,
                f"{d['mean']:+.2f} [{d['ci95'][0]:.2f}, {d['ci95'][1]:.2f}]",
                va="center", ha="left" if means[k] >= 0 else "right", fontsize=8)
    ax.set_xlim(-1.35 * span if min(means) < 0 else -0.05 * span,
                1.35 * span if max(means) > 0 else 0.05 * span)
    ax.set_xlabel("paired difference in the elder's margin, a − b (points per deal; "
                  "bars: 95% interval)\nelder's choices (blue): > 0 means taking all "
                  "helps him; younger's choices (orange): < 0 means taking all helps the "
                  "younger", fontsize=9)
    n = sorted({e["n"] for e in rows})
    n_text = f"{n[0]:,}" if len(n) == 1 else " / ".join(f"{v:,}" for v in n)
    ax.set_title("Piquet, the exchange: taking all the cards you may against taking "
                 f"fewer\n(same deals both ways; heuristic players unless marked; "
                 f"n = {n_text} deals each)", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.suptitle(footer, fontsize=7)
    _save(fig, f, provenance)


def write_report(out_dir: str, result: dict, provenance: dict, execution: dict | None = None,
                 command_line: str | None = None) -> list[str]:
    """piquet.md, pairings.csv, exchange.csv, sinking.csv, search.csv (when run),
    partie.csv, totals.png, exchange.png and provenance.json in ``out_dir``, each written
    atomically."""
    import pandas as pd

    pyplot()
    files = ReportFiles(out_dir, provenance)
    commit = files.commit               # write under a temporary name, then rename
    caption = made_by(provenance)
    files.provenance(execution, command_line)
    for name, rows, always in (("pairings.csv", pairing_rows(result, provenance), True),
                               ("exchange.csv", exchange_rows(result, provenance), True),
                               ("sinking.csv", sinking_rows(result, provenance), False),
                               ("search.csv", search_rows(result, provenance), False),
                               ("partie.csv", partie_rows(result, provenance), True)):
        if rows or always:
            commit(name, lambda f, rows=rows: csv_columns(pd.DataFrame(rows), provenance)
                   .to_csv(f, index=False, float_format="%.6f"))
    commit("piquet.md", lambda f: open(f, "w", encoding="utf-8").write(
        markdown(result, caption)))
    footer = textwrap.fill(caption.replace("`", ""), 170)
    commit("totals.png", lambda f: totals_png(f, result, provenance, footer))
    commit("exchange.png", lambda f: exchange_png(f, result, provenance, footer))
    return files.paths
