"""The strategy card: a first-decision table as a one-page grid in the treatise's terms.

A table (:mod:`ecarte_sim.engine.ecarte.decisions.tables`) says, for each of the 255,304 canonical
states, whether the elder proposes (the dealer accepts). A player learns a grid, as he
learns a blackjack basic-strategy card: here the *rows* are the trumps held and whether
the king of trumps is among them (Hoyle's list and the dealer's maxims are written in
those terms first), the *columns* a pair of terms about the plain cards
(:data:`COLUMN_SETS`; by default the plain kings held and the number of plain suits held:
ten columns that reproduce Hoyle's list on 92.7% of dealt hands and the maxims on 90.0%,
where the 18 columns of plain kings and the longest plain suit reach 93.3% and 90.0%,
and the 18 of plain kings and plain court cards 90.2% and 90.5%).

Each *cell* is the class of states with those terms; its action is the action the table
takes on most of the class's dealt hands (each state weighted by how often it is dealt,
:func:`~ecarte_sim.engine.ecarte.decisions.states.state_weights`, or by the weights given; a tie
goes to play / refuse). Per cell the chart states (shares of weighted hands):

* ``reproduced`` — the share of the cell's dealt hands on which the table does the cell's
  action; the share of all dealt hands the whole chart reproduces is ``Chart.reproduced``;
* ``dealt`` — the cell's share of all dealt hands;
* ``margin`` — the cell's action's gain over the other action in P(win the game),
  averaged over the cell's dealt hands where the table's gain is estimated (NaN without
  gains, e.g. for the treatise's own table); a small margin means the choice matters
  little there;
* ``treatise_differs`` — whether the treatise's table (Hoyle's list for the elder, the
  dealer's maxims for the dealer) takes the other action on most of the cell's hands;
  ``treatise_agrees`` the share of the cell's hands on which it does the cell's action.

The dealer answers only the hands on which he is proposed to: his chart weighs each
state by how often it is dealt times the chance that the elder proposes to him
(:func:`proposal_chance`: the elder's table read on elder hands sampled from the 26
cards the dealer does not hold and the turn-up is not), or by dealt hands alone when
asked; the chart says which.

:func:`compare` says where two solved strategies part (per score and role, and which
cells). :func:`compute` is a pure function of (role, table, gain, treatise table); the command
``ecarte-sim chart`` reads the table from the shipped strategy
(:mod:`ecarte_sim.analysis.ecarte.solving.solved`) or charts the treatise itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
import pandas as pd
from numba import njit, prange

from ecarte_sim.engine.cards import N_CARDS
from ecarte_sim.engine.ecarte.decisions.states import (N_STATES, representatives, state_index,
                                                       state_keys, state_weights)
from ecarte_sim.engine.ecarte.laws.deal import HAND_SIZE
from ecarte_sim.engine.rng import batch_threshold, check_seed, draw_descending

#: The two actions of each role: (the table's True, its False).
ACTIONS = {"elder": ("propose", "play"), "dealer": ("accept", "refuse")}
#: What the treatise's table is called, by role.
TREATISE = {"elder": "Hoyle's list", "dealer": "the dealer's maxims"}
#: The column schemes: (group term, term within the group).
COLUMN_SETS = {
    "kings-suits": ("plain_kings", "plain_suits"),
    "kings-courts": ("plain_kings", "plain_courts"),
    "kings-longest": ("plain_kings", "longest"),
}
DEFAULT_COLUMNS = "kings-suits"
#: Elder hands sampled per dealer state for :func:`proposal_chance` (against 256, no
#: cell of the maxims' chart changes its action and none its share by 0.002).
PROPOSAL_SAMPLES = 32
#: The cards neither in the dealer's hand nor turned up: the elder's five come from these.
_UNSEEN = N_CARDS - HAND_SIZE - 1
#: Margins (P(win the game)) below which a cell is drawn lighter: a toss-up, a small edge.
MARGIN_STEPS = (0.005, 0.02)


@dataclass(frozen=True)
class Cell:
    """One cell of the chart (module docstring); ``action`` None where no hand is dealt."""
    row: int
    col: int
    row_label: str
    col_label: str
    action: str | None
    reproduced: float
    dealt: float
    margin: float
    treatise_action: str | None
    treatise_differs: bool
    treatise_agrees: float

    def to_dict(self) -> dict:
        return {"row": self.row_label, "column": self.col_label, "action": self.action,
                "reproduced": self.reproduced, "dealt": self.dealt, "margin": self.margin,
                "treatise_action": self.treatise_action,
                "treatise_differs": self.treatise_differs,
                "treatise_agrees": self.treatise_agrees}


@dataclass(frozen=True)
class Chart:
    """A role's chart: ``cells[r][c]``; ``rows`` and ``columns`` the labels, ``groups``
    the column groups as (label, first column, number of columns); ``reproduced`` the share
    of all (weighted) hands on which the chart's action is the table's;
    ``treatise_agreement`` the share on which the table and the treatise's table agree;
    ``chosen`` the share on which the table proposes (accepts); ``weighting`` what the
    hands are weighted by, in words."""
    role: str
    columns_scheme: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    groups: tuple[tuple[str, int, int], ...]
    cells: tuple[tuple[Cell, ...], ...]
    reproduced: float
    treatise_agreement: float
    chosen: float
    has_margin: bool
    weighting: str

    @property
    def actions(self) -> tuple[str, str]:
        return ACTIONS[self.role]

    def to_dict(self) -> dict:
        return {"role": self.role, "columns_scheme": self.columns_scheme,
                "rows": list(self.rows), "columns": list(self.columns),
                "reproduced": self.reproduced, "treatise": TREATISE[self.role],
                "treatise_agreement": self.treatise_agreement,
                f"{self.actions[0]}_share": self.chosen, "weighting": self.weighting,
                "cells": [c.to_dict() for row in self.cells for c in row]}


# --------------------------------------------------------------------------- the classes

@cache
def terms() -> pd.DataFrame:
    """Per canonical state: :func:`~ecarte_sim.analysis.ecarte.solving.readable.features` and
    ``plain_suits``, the number of plain suits held (0 with five trumps)."""
    from ecarte_sim.analysis.ecarte.solving.readable import features
    feats = features()
    keys = state_keys()
    feats["plain_suits"] = sum((((keys >> s) & 0xFF) != 0).astype(np.int64)
                               for s in (16, 8, 0))
    return feats


def _row_label(trumps: int, king: int) -> str:
    if trumps == 0:
        return "no trump"
    return f"{trumps} trump{'s' if trumps > 1 else ''}, {'king' if king else 'no king'}"


def _group_label(term: str, v: int) -> str:
    assert term == "plain_kings"
    return "no plain king" if v == 0 else f"{v} plain king{'s' if v > 1 else ''}"


def _sub_label(term: str, v: int) -> str:
    if term == "plain_suits":
        return "no plain card" if v == 0 else f"{v} suit{'s' if v > 1 else ''}"
    if term == "plain_courts":
        return f"{v} court{'s' if v != 1 else ''}"
    if term == "longest":
        return "no plain card" if v == 0 else f"longest {v}"
    raise ValueError(f"no label for {term!r}")


@cache
def classes(scheme: str = DEFAULT_COLUMNS):
    """The class of every state: (row index, column index) arrays of ``N_STATES``, the
    row labels, column labels and column groups. Rows and columns are those some state
    has: no trump, then 1 to 5 trumps without and with the king; columns by group term,
    then by the term within the group."""
    if scheme not in COLUMN_SETS:
        raise ValueError(f"unknown columns {scheme!r}; choose from "
                         f"{', '.join(COLUMN_SETS)}")
    group, sub = COLUMN_SETS[scheme]
    f = terms()
    row_keys = sorted(set(zip(f["trumps"].tolist(), f["trump_king"].tolist())))
    col_keys = sorted(set(zip(f[group].tolist(), f[sub].tolist())))
    row_of = {k: i for i, k in enumerate(row_keys)}
    col_of = {k: i for i, k in enumerate(col_keys)}
    rows = np.array([row_of[k] for k in zip(f["trumps"], f["trump_king"])], dtype=np.int64)
    cols = np.array([col_of[k] for k in zip(f[group], f[sub])], dtype=np.int64)
    groups = []
    for i, (g, _) in enumerate(col_keys):
        if groups and groups[-1][0] == _group_label(group, g):
            label, first, n = groups[-1]
            groups[-1] = (label, first, n + 1)
        else:
            groups.append((_group_label(group, g), i, 1))
    row_labels = tuple(_row_label(t, k) for t, k in row_keys)
    col_labels = tuple(f"{_group_label(group, g)}, {_sub_label(sub, s)}" for g, s in col_keys)
    rows.setflags(write=False)
    cols.setflags(write=False)
    return rows, cols, row_labels, col_labels, tuple(groups)


def sub_label(column: str) -> str:
    """The part of a column label under its group (what a chart's header shows)."""
    return column.split(", ", 1)[1]


# --------------------------------------------------------------------------- the chart

def _row(table, what: str, dtype) -> np.ndarray:
    t = np.asarray(table)
    if t.shape != (N_STATES,):
        raise ValueError(f"the {what} must have shape ({N_STATES},), not {t.shape}")
    return t.astype(dtype)


def compute(role: str, table, gain=None, treatise=None, *, scheme: str = DEFAULT_COLUMNS,
            weights=None, weighting: str = "dealt hands") -> Chart:
    """The chart of ``role``'s ``table`` (bool, ``N_STATES``: True = propose / accept) at
    one score: every cell's weighted majority action, its reproduced and dealt shares, the
    margin from ``gain`` (``N_STATES``, the gain of propose over play / accept over refuse
    in P(win the game), NaN = not estimated; None: no margins), and where ``treatise``
    (``N_STATES`` bool, the treatise's table; None: the table itself) differs.
    ``weights``: each state's weight (default: how often it is dealt)."""
    if role not in ACTIONS:
        raise ValueError(f"unknown role {role!r}; choose elder or dealer")
    table = _row(table, f"{role} table", bool)
    treatise = table if treatise is None else _row(treatise, "treatise table", bool)
    w = (state_weights() if weights is None else _row(weights, "weights", float))
    w = w.astype(np.float64)
    rows, cols, row_labels, col_labels, groups = classes(scheme)
    n_rows, n_cols = len(row_labels), len(col_labels)
    cell = rows * n_cols + cols
    size = n_rows * n_cols

    def total(x):
        return np.bincount(cell, weights=x, minlength=size)

    w_all = total(w)
    w_yes = total(np.where(table, w, 0.0))
    t_yes = total(np.where(treatise, w, 0.0))
    says = w_yes > w_all - w_yes                     # a tie: play / refuse
    kept = np.where(says, w_yes, w_all - w_yes)
    t_says = t_yes > w_all - t_yes
    t_kept = np.where(says, t_yes, w_all - t_yes)
    if gain is not None:
        g = _row(gain, f"{role} gain", np.float64)
        known = np.isfinite(g)
        g_w = total(np.where(known, w, 0.0))
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = total(np.where(known, g * w, 0.0)) / g_w
        margin = np.where(says, mean, -mean)
    else:
        margin = np.full(size, np.nan)
    grand = w.sum()
    yes, no = ACTIONS[role]
    out = []
    for r in range(n_rows):
        line = []
        for c in range(n_cols):
            i = r * n_cols + c
            dealt = w_all[i] > 0
            line.append(Cell(
                r, c, row_labels[r], col_labels[c],
                (yes if says[i] else no) if dealt else None,
                float(kept[i] / w_all[i]) if dealt else float("nan"),
                float(w_all[i] / grand),
                float(margin[i]) if dealt else float("nan"),
                (yes if t_says[i] else no) if dealt else None,
                bool(dealt and t_says[i] != says[i]),
                float(t_kept[i] / w_all[i]) if dealt else float("nan")))
        out.append(tuple(line))
    return Chart(role, scheme, row_labels, col_labels, groups, tuple(out),
                 float(kept.sum() / grand), float(w[table == treatise].sum() / grand),
                 float(w[table].sum() / grand), gain is not None, weighting)


def chart_table(chart: Chart, scheme: str | None = None) -> np.ndarray:
    """The table (bool, ``N_STATES``) the chart plays: every state its cell's action."""
    rows, cols, *_ = classes(scheme or chart.columns_scheme)
    yes = ACTIONS[chart.role][0]
    says = np.array([[c.action == yes for c in row] for row in chart.cells])
    return says[rows, cols]


@njit(cache=True, parallel=True)
def _proposal_chance(hands, turn_ups, keys, elder, samples, seed, threshold, out):
    for i in prange(hands.shape[0]):
        unseen = np.empty(_UNSEEN, dtype=np.int64)
        draws = np.empty(HAND_SIZE, dtype=np.int64)
        n = 0
        for card in range(N_CARDS):
            if not (hands[i] >> np.uint32(card)) & np.uint32(1) and card != turn_ups[i]:
                unseen[n] = card
                n += 1
        hits = 0
        k = 0
        for _ in range(samples):
            k = draw_descending(seed, i, k, _UNSEEN, HAND_SIZE, threshold, draws, 0)
            hand = np.uint32(0)
            for j in range(HAND_SIZE):          # a partial Fisher-Yates on the unseen
                pick = j + draws[j]
                unseen[j], unseen[pick] = unseen[pick], unseen[j]
                hand |= np.uint32(1) << np.uint32(unseen[j])
            hits += elder[state_index(hand, turn_ups[i], keys)]
        out[i] = hits / samples


def proposal_chance(elder_table, samples: int = PROPOSAL_SAMPLES, seed: int = 0) -> np.ndarray:
    """Per dealer state, the chance that the elder proposes to him (Law 25: the dealer
    answers only a proposal) when the elder decides by ``elder_table`` (bool,
    ``N_STATES``, True = propose): the share of ``samples`` elder hands, each five of the
    26 cards the dealer's representative hand and the turn-up leave, on which the table
    proposes. The hands of state ``i`` are drawn from the sub-stream (``seed``, ``i``),
    so the estimate is the same on any thread count."""
    elder = _row(elder_table, "elder table", bool)
    if int(samples) < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    return _memo_chance(np.packbits(elder).tobytes(), int(samples), check_seed(seed)).copy()


@lru_cache(maxsize=4)
def _memo_chance(packed: bytes, samples: int, seed: int) -> np.ndarray:
    elder = np.unpackbits(np.frombuffer(packed, dtype=np.uint8), count=N_STATES) \
        .astype(np.int64)
    hands, turn_ups = representatives()
    out = np.empty(N_STATES, dtype=np.float64)
    _proposal_chance(hands, turn_ups.astype(np.int64), state_keys(), elder, samples,
                     np.uint64(seed), np.uint64(batch_threshold(_UNSEEN, HAND_SIZE)), out)
    return out


@cache
def treatise_tables() -> dict:
    """The treatise's tables under the default settings (Hoyle's list for the elder, the
    dealer's maxims), True = propose / accept (:func:`ecarte_sim.analysis.ecarte.solving.proposal_game.
    treatise_tables`)."""
    from ecarte_sim.analysis.ecarte.solving.proposal_game import treatise_tables as of_settings
    from ecarte_sim.engine.ecarte.settings import EcarteSettings
    return of_settings(EcarteSettings())


def compare(first, second, *, scheme: str = DEFAULT_COLUMNS) -> pd.DataFrame:
    """Where two solved strategies (:class:`~ecarte_sim.analysis.ecarte.solving.solved.Solved`,
    e.g. the dd one and the pimc-inference one) part: one row per score and role with
    ``parts``, the share of hands on which their first decisions differ (the elder's
    weighted as dealt, the dealer's as dealt times the chance that ``first``'s elder
    proposes, :func:`proposal_chance`), ``first`` and ``second`` the share on which each
    proposes (accepts), and ``cells`` the chart's cells (``scheme``) whose majority action
    differs, as "row / column: first's action → second's"."""
    rows = []
    dealt = state_weights().astype(np.float64)
    for slot in range(25):
        score = f"{slot // 5}-{slot % 5}"
        for role in ("elder", "dealer"):
            a, b = first.table(role)[slot], second.table(role)[slot]
            w = dealt * proposal_chance(first.elder[slot]) if role == "dealer" else dealt
            total = w.sum()
            ca = compute(role, a, scheme=scheme, weights=w)
            cb = compute(role, b, scheme=scheme, weights=w)
            cells = [f"{x.row_label} / {x.col_label}: {x.action} → {y.action}"
                     for ra, rb in zip(ca.cells, cb.cells) for x, y in zip(ra, rb)
                     if x.action is not None and x.action != y.action]
            rows.append({"score": score, "role": role,
                         "parts": float(w[a != b].sum() / total),
                         "first": float(w[a].sum() / total),
                         "second": float(w[b].sum() / total),
                         "cells": "; ".join(cells)})
    return pd.DataFrame(rows)


def source_line(solved) -> str:
    """Where a table comes from, in one line: the shipped file, its hash, seed and commit
    (the command that made it is :func:`made_by`)."""
    if solved is None:
        return "the treatise's own table (Hoyle's Games Modernized)"
    p = solved.provenance or {}
    bits = []
    if p.get("sha256"):
        bits.append(f"sha256 {p['sha256'][:12]}")
    if p.get("seed") is not None:
        bits.append(f"seed {p['seed']}")
    if p.get("git_commit"):
        bits.append(f"commit {str(p['git_commit'])[:10]}")
    return f"solved strategy {solved.play}.npz" + (f" ({', '.join(bits)})" if bits else "")


def made_by(solved) -> str | None:
    """The command that made a shipped table, as its provenance records it."""
    if solved is None:
        return None
    command = (solved.provenance or {}).get("command")
    return str(command) if command else None


__all__ = ["ACTIONS", "TREATISE", "COLUMN_SETS", "DEFAULT_COLUMNS", "MARGIN_STEPS", "Cell",
           "Chart", "terms", "classes", "sub_label", "compute", "chart_table", "proposal_chance",
           "treatise_tables", "source_line", "made_by", "compare", "PROPOSAL_SAMPLES"]
