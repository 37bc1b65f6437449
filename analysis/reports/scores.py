"""Files of a ``scores`` run (:mod:`ecarte_sim.analysis.ecarte.measures.scores` computes the
table): scores.csv, scores.parquet (when pyarrow is installed), scores.md, scores.png and
provenance.json, each written under a temporary name and renamed."""

from __future__ import annotations

import textwrap

import numpy as np

from ecarte_sim.analysis.ecarte.measures.scores import TARGET

# matplotlib and pandas are imported where a figure or a table is written, pyarrow
# (optional) where the parquet file is: importing this module stays cheap, and works without
# pyarrow.


def write_report(out_dir: str, result: dict, execution: dict | None = None) -> list[str]:
    """scores.csv (pandas), scores.md, scores.png (matplotlib heatmaps) and provenance.json
    in ``out_dir``; each written to a temporary name first and renamed, so no partial file
    is left. ``result["provenance"]``: :func:`analysis.provenance.provenance`."""
    from ecarte_sim.analysis.reports.provenance import (ReportFiles, caption as made_by,
                                                        csv_columns, parquet_metadata, pyplot)
    import pandas as pd

    pyplot()
    prov = result["provenance"]
    files = ReportFiles(out_dir, prov)
    frame = csv_columns(pd.DataFrame(_score_rows(result)), prov)
    s = result["settings"]
    caption = (f"{made_by(prov)}; elder {s['elder_policy']}, dealer {s['dealer_policy']}, "
               f"play {s['play']['elder']}/{s['play']['dealer']}")
    files.provenance(execution, result.get("command"))
    files.commit("scores.csv", lambda p: frame.to_csv(p, index=False, float_format="%.6f"))
    try:
        import pyarrow  # noqa: F401
        files.commit("scores.parquet", lambda p: parquet_metadata(frame, prov, p))
    except ImportError:
        pass
    files.commit("scores.md", lambda p: _scores_md(p, result, caption))
    files.commit("scores.png", lambda p: _scores_png(p, result, caption))
    return files.paths


def _score_rows(result: dict) -> list[dict]:
    """The CSV's rows: who deals next, the two scores, P(win) and its 95% interval."""
    rows = []
    for key in ("i_deal_next", "opponent_deals_next"):
        for a in range(TARGET):
            for b in range(TARGET):
                lo, hi = result[key + "_ci95"][a][b]
                rows.append({"next_deal": "mine" if key == "i_deal_next" else "opponent's",
                             "my_score": a, "opponent_score": b, "p_win": result[key][a][b],
                             "ci95_low": lo, "ci95_high": hi})
    return rows


def _scores_md(p, result: dict, caption: str) -> None:
    """scores.md: the two tables of P(win), 95% intervals."""
    with open(p, "w", encoding="utf-8") as f:
        f.write(f"# Écarté: P(win five up) from each score\n\n{caption}; 95% bootstrap "
                f"intervals ({result['bootstrap']} replicates).\n\n"
                "Each cell: my probability of winning the game, rows = my score, columns "
                "= the opponent's; the dealer's opponent is elder (Law 46: five up, the "
                "deal alternating). The same tables as heatmaps: scores.png.\n\n")
        for key, title in (("i_deal_next", "I deal next"),
                           ("opponent_deals_next", "The opponent deals next")):
            f.write(f"## {title}\n\n| my score \\\\ opponent | "
                    + " | ".join(str(b) for b in range(TARGET)) + " |\n|---"
                    + "|---" * TARGET + "|\n")
            for a in range(TARGET):
                f.write(f"| {a} | " + " | ".join(
                    f"{result[key][a][b]:.3f} [{result[key + '_ci95'][a][b][0]:.3f}, "
                    f"{result[key + '_ci95'][a][b][1]:.3f}]" for b in range(TARGET)) + " |\n")
            f.write("\n")


def _ink(rgba) -> str:
    """Black or white text, whichever reads better on a cell (WCAG relative luminance)."""
    def linear(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(float(c)) for c in rgba[:3])
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 else "white"


def _scores_png(p, result: dict, caption: str) -> None:
    """scores.png: the two tables as heatmaps, each cell's estimate and interval."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import Normalize

    from ecarte_sim.analysis.reports.provenance import png_metadata

    prov = result["provenance"]
    # P(win) has a natural centre, the even game (0.5): a diverging scale centred there
    cmap, norm = plt.get_cmap("RdBu"), Normalize(vmin=0, vmax=1)
    fig, axes = plt.subplots(1, 2, figsize=(11, 5.2), layout="constrained")
    for ax, key, title in zip(axes, ("i_deal_next", "opponent_deals_next"),
                              ("I deal next (the opponent is elder)",
                               "the opponent deals next (I am elder)")):
        grid = np.array(result[key])
        ci = np.array(result[key + "_ci95"])
        im = ax.imshow(grid, norm=norm, cmap=cmap, origin="lower")
        for a in range(TARGET):
            for b in range(TARGET):
                colour = _ink(cmap(norm(grid[a, b])))
                ax.text(b, a + 0.12, f"{grid[a, b]:.3f}", ha="center", va="center",
                        fontsize=9, color=colour)
                ax.text(b, a - 0.2, f"[{ci[a, b, 0]:.3f}, {ci[a, b, 1]:.3f}]",
                        ha="center", va="center", fontsize=6.5, color=colour)
        ax.set_xticks(range(TARGET))
        ax.set_yticks(range(TARGET))
        ax.set_xlabel("opponent's score")
        ax.set_ylabel("my score")
        ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=axes, shrink=0.8, label="P(I win the game); white = even (0.5)")
    n = result.get("deals", prov.get("n"))
    n_text = f"{n:,}" if isinstance(n, int) else str(n)
    fig.suptitle(f"Écarté, five up: probability that I win the game from each score "
                 f"(estimate and 95% bootstrap interval; n = {n_text} whole deals)\n"
                 + textwrap.fill(caption.replace("`", ""), 150),
                 fontsize=9)
    fig.savefig(p, dpi=110, format="png", bbox_inches="tight", pad_inches=0.1,
                metadata=png_metadata(prov))
    plt.close(fig)
