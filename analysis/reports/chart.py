"""The strategy card drawn: one A4 page (landscape) per role and score, PNG, SVG or PDF.

Draws a :class:`~ecarte_sim.analysis.ecarte.solving.chart.Chart` (the computation lives there):
each cell coloured by its action, lighter where the margin is small, the share of its
dealt hands the action reproduces written large and its share of all dealt hands small;
a bold frame with ≠ where the treatise (Hoyle's list, the dealer's maxims) takes the
other action on most of the cell's hands; cells without a hand grey. The title names the role,
the score, the play model and the table's source; the footnote the share of all dealt
hands the chart reproduces. The file's metadata carries the provenance, and the bytes
are the same for the same chart (no dates; fixed SVG ids).
"""

from __future__ import annotations

import json
import os
import textwrap

import numpy as np

from ecarte_sim.analysis.ecarte.solving.chart import (ACTIONS, MARGIN_STEPS, TREATISE, Chart,
                                              sub_label)
from ecarte_sim.analysis.reports.provenance import commit_file, png_metadata

# matplotlib is imported where a figure is drawn, not here: importing this module stays
# cheap for callers that never draw.

#: A4 landscape, inches.
A4 = (11.69, 8.27)
FORMATS = ("png", "svg", "pdf")
#: The full colour of the table's True action (propose / accept) and of its False.
COLOURS = ("#5b9bd5", "#f4a259")
EMPTY = "#dddddd"
#: More columns than this and a cell does not name its action (its colour does).
WIDE = 12
#: How much of the full colour a cell keeps: margin at least the last step, at least the
#: first, below it (or no margin known: full).
STRENGTH = (1.0, 0.55, 0.28)
_OTHERWISE = {"elder": "Hoyle's list does otherwise", "dealer": "the maxims do otherwise"}
_TERMS = {"kings-suits": "plain kings held, then plain suits held",
          "kings-courts": "plain kings held, then plain court cards (king, queen, knave) held",
          "kings-longest": "plain kings held, then the longest plain suit"}


def file_format(path: str) -> str:
    """``png``, ``svg`` or ``pdf`` from the file name; ``ValueError`` naming it otherwise."""
    ext = os.path.splitext(str(path))[1].lower().lstrip(".")
    if ext not in FORMATS:
        raise ValueError(f"cannot write a chart to {path!r}: the name must end in "
                         f".png, .svg or .pdf")
    return ext


def _blend(colour: str, keep: float) -> tuple[float, float, float]:
    from matplotlib.colors import to_rgb
    rgb = np.array(to_rgb(colour))
    return tuple(1.0 - keep * (1.0 - rgb))


def _strength(margin: float) -> float:
    if margin != margin:
        return STRENGTH[0]
    if margin < MARGIN_STEPS[0]:
        return STRENGTH[2]
    if margin < MARGIN_STEPS[1]:
        return STRENGTH[1]
    return STRENGTH[0]


def _pct(x: float) -> str:
    """A share as a percentage a reader takes in at once: whole percents, one decimal
    under 10%, two under 0.1% (and "<0.01%" below that)."""
    p = 100 * x
    if p >= 10 or p == 0:
        return f"{p:.0f}%"
    if p >= 0.1:
        return f"{p:.1f}%"
    return f"{p:.2f}%" if p >= 0.01 else "<0.01%"


def _signed(m: float) -> str:
    return "0.000" if abs(m) < 5e-4 else f"{m:+.3f}"


def figure(chart: Chart, *, score: str, play: str | None, source: str,
           made_by: str | None = None):
    """The matplotlib figure of ``chart`` (module docstring)."""
    import matplotlib
    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    n_rows, n_cols = len(chart.rows), len(chart.columns)
    fig = plt.figure(figsize=A4)
    ax = fig.add_axes((0.125, 0.215, 0.855, 0.6))
    ax.set_xlim(0, n_cols)
    ax.set_ylim(n_rows, 0)
    ax.set_axis_off()
    wide = n_cols > WIDE
    differs = _draw_cells(ax, chart, wide)
    _draw_headers(ax, chart, wide)
    _draw_titles(fig, chart, score, play, source, made_by)
    _draw_legend(fig, chart, differs)
    lines = _footnotes(chart)
    for k, line in enumerate(lines):
        fig.text(0.5, 0.125 - (0.027 if len(lines) < 5 else 0.024) * k, line, ha="center",
                 va="center", fontsize=8.5)
    return fig


def _draw_cells(ax, chart: Chart, wide: bool) -> bool:
    """Each cell: its action's colour (lighter where the margin is small), the share it
    reproduces, its share of the hands, its margin, the treatise's ≠; grey when empty.
    Whether any cell differs from the treatise."""
    from matplotlib.patches import Rectangle

    yes = ACTIONS[chart.role][0]
    differs = False
    for row in chart.cells:
        for c in row:
            x, y = c.col, c.row
            if c.action is None:
                ax.add_patch(Rectangle((x, y), 1, 1, facecolor=EMPTY, edgecolor="white",
                                       lw=1.5))
                continue
            colour = COLOURS[0] if c.action == yes else COLOURS[1]
            ax.add_patch(Rectangle((x, y), 1, 1, facecolor=_blend(colour,
                                                                  _strength(c.margin)),
                                   edgecolor="white", lw=1.5))
            if not wide:        # with many columns the colour alone says the action
                ax.text(x + 0.5, y + 0.2, c.action, ha="center", va="center", fontsize=8.5)
            ax.text(x + 0.5, y + 0.5, f"{100 * c.reproduced:.0f}%", ha="center", va="center",
                    fontsize=10 if wide else 12, fontweight="bold")
            ax.text(x + 0.07, y + 0.8, _pct(c.dealt), ha="left", va="center",
                    fontsize=6.5, color="#333333")
            if c.margin == c.margin:
                ax.text(x + 0.93, y + 0.8, _signed(c.margin), ha="right", va="center",
                        fontsize=6.5, color="#333333")
            if c.treatise_differs:
                differs = True
                ax.add_patch(Rectangle((x + 0.015, y + 0.025), 0.97, 0.95, fill=False,
                                       edgecolor="black", lw=2.4))
                ax.text(x + 0.88, y + 0.22, "≠", ha="center", va="center", fontsize=10,
                        fontweight="bold")
    return differs


def _draw_headers(ax, chart: Chart, wide: bool) -> None:
    """The headers: the column groups over the columns' own labels, rows on the left."""
    for label, first, n in chart.groups:
        ax.text(first + n / 2, -0.6, label.replace(" plain ", " plain\n") if n == 1
                else label, ha="center", va="bottom", fontsize=10 if n > 1 else 9,
                fontweight="bold", linespacing=1.0)
        ax.plot([first + 0.06, first + n - 0.06], [-0.52, -0.52], color="black", lw=1,
                clip_on=False)
    for i, col in enumerate(chart.columns):
        sub = sub_label(col)
        if wide:
            sub = "none" if sub == "no plain card" else sub
        ax.text(i + 0.5, -0.25, sub, ha="center", va="center", fontsize=7 if wide else 8.5)
    for j, row in enumerate(chart.rows):
        ax.text(-0.08, j + 0.5, row, ha="right", va="center", fontsize=10)


def _draw_titles(fig, chart: Chart, score: str, play: str | None, source: str,
                 made_by: str | None) -> None:
    """The title (role and score), the table's source and play model, the command that
    made it and what the rows and columns are."""
    who = {"elder": "the elder: propose or play?",
           "dealer": "the dealer: accept or refuse a proposal?"}[chart.role]
    model = f"play model {play}" if play else "no play model (the treatise's rules)"
    fig.text(0.5, 0.965, f"Écarté strategy card — {who}   Score {score} (elder's first)",
             ha="center", va="center", fontsize=15, fontweight="bold")
    fig.text(0.5, 0.935, f"Table: {source}; {model}", ha="center", va="center",
             fontsize=8.5)
    made = textwrap.wrap(f"made by: {made_by}", 230) if made_by else []
    for k, line in enumerate(made):          # the whole command, on as many lines as it needs
        fig.text(0.5, 0.919 - 0.011 * k, line, ha="center", va="center",
                 fontsize=6 if len(made) > 1 else 6.5, color="#555555")
    fig.text(0.5, 0.893 - 0.011 * max(0, len(made) - 2),
             "Rows: trumps held (the turn-up not counted) and whether the king "
             "of trumps is among them.  Columns: " + _TERMS.get(chart.columns_scheme,
                                                                chart.columns_scheme) + ".",
             ha="center", va="center", fontsize=8.5)


def _draw_legend(fig, chart: Chart, differs: bool) -> None:
    """The legend: the two actions, the lighter shades (with margins), empty cells, ≠."""
    from matplotlib.patches import Patch

    yes, no = ACTIONS[chart.role]
    handles = [Patch(facecolor=COLOURS[0], label=yes), Patch(facecolor=COLOURS[1], label=no)]
    if chart.has_margin:
        handles += [Patch(facecolor=_blend(COLOURS[0], STRENGTH[1]),
                          label=f"lighter: margin < {MARGIN_STEPS[1]}"),
                    Patch(facecolor=_blend(COLOURS[0], STRENGTH[2]),
                          label=f"palest: margin < {MARGIN_STEPS[0]}")]
    handles += [Patch(facecolor=EMPTY, label="no hand dealt" if
                      chart.weighting == "dealt hands" else "no hand to answer")]
    if differs:
        handles += [Patch(facecolor="white", edgecolor="black", lw=2.4,
                          label=f"≠ {_OTHERWISE[chart.role]}")]
    fig.legend(handles=handles, loc="center", bbox_to_anchor=(0.5, 0.165),
               ncol=len(handles), fontsize=9, frameon=False, handlelength=1.6)


def _footnotes(chart: Chart) -> list[str]:
    """The lines under the chart: what it reproduces, the weighting, how to read a cell."""
    yes = ACTIONS[chart.role][0]
    margin_note = ("small, right: the margin, the action's average gain over the other "
                   "in P(win the game) (none: not estimated)" if chart.has_margin else
                   "no margins: the table carries no gains")
    dealt = chart.weighting == "dealt hands"
    if dealt:
        weighting = "Each hand is weighted by how often it is dealt"
        if chart.role == "dealer":
            weighting += " (not by how often the dealer is proposed to)"
    else:
        weighting = f"Each hand is weighted by {chart.weighting}"
    hands = "dealt hands" if dealt else "the hands he is proposed to"
    agree = 100 * chart.treatise_agreement
    treatise = (f"The table and {TREATISE[chart.role]} agree on "
                + (f"{agree:.1f}%" if agree < 99.95 else "over 99.9%") + " of them."
                if chart.treatise_agreement < 1 else
                f"The table is the treatise's own ({TREATISE[chart.role]}).")
    lines = [
        f"This chart does what the table does on {100 * chart.reproduced:.1f}% of {hands}; "
        f"the table says {yes} on {100 * chart.chosen:.1f}%. " + treatise,
        weighting + ".",
        "A cell: the action the table takes on most of its hands (≠: the treatise "
        "takes the other on most of them); large figure: the share of the cell's hands "
        "on which the table does that;",
        f"small, left: the cell's share of all {hands}; {margin_note}.",
    ]
    if any(c.margin < 0 for row in chart.cells for c in row if c.margin == c.margin):
        lines.append("A negative margin: averaged over the cell the other action gains more, "
                     "in a few of its hands; the table chooses hand by hand.")
    return lines


def write(chart: Chart, path: str, prov: dict, *, score: str, play: str | None,
          source: str, made_by: str | None = None) -> str:
    """Write the chart to ``path`` (format by its extension) with the provenance in the
    file's metadata; the same chart gives the same bytes."""
    import matplotlib
    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    fmt = file_format(path)
    described = json.dumps(prov, default=str, sort_keys=True)
    meta = {"png": png_metadata(prov),
            "svg": {"Date": None, "Creator": f"ecarte-sim {prov.get('version')}",
                    "Description": described},
            "pdf": {"CreationDate": None, "ModDate": None,
                    "Creator": f"ecarte-sim {prov.get('version')}",
                    "Subject": described}}[fmt]
    with matplotlib.rc_context({"svg.hashsalt": "ecarte-sim-chart", "pdf.fonttype": 42,
                                "font.family": "DejaVu Sans"}):
        fig = figure(chart, score=score, play=play, source=source, made_by=made_by)

        def save(tmp):
            fig.savefig(tmp, format=fmt, dpi=150, metadata=meta)
        try:
            directory, name = os.path.split(os.path.abspath(path))
            return commit_file(directory, name, save)
        finally:
            plt.close(fig)


__all__ = ["A4", "FORMATS", "file_format", "figure", "write"]
