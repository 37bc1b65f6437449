"""The computed jeux de règle: a computed table said in the treatise's own terms.

A best response (:mod:`ecarte_sim.analysis.ecarte.solving.proposal_game`) is a table of 255,304
canonical states; a player cannot carry it. Hoyle's list speaks of trumps held, the king,
court cards and suit lengths. This module writes a computed table in those terms:

* :func:`features` — per canonical state, the terms the treatise uses: the trumps held,
  the king of trumps, the plain kings, the plain court cards (king, queen, knave), the
  longest plain suit, the turn-up's rank.
* :func:`short_list` — the *short list*: the states grouped into classes by a few of
  those terms (by default trumps held, the king of trumps, plain kings, plain court
  cards); each class takes the action (or discard rule) the table takes on most of its
  dealt hands. The share of dealt hands on which the short list does what the table
  does is the share it *reproduces*; its own table (:func:`short_table`) can be played
  on fresh deals against the full table, which measures what the short list loses.
* :func:`short_list_lines` — the list as sentences: for each trumps held and king of
  trumps, the hands on which the table says play (refuse, or which discard), merged
  where the classes agree.
* :func:`disagreements` — the states where the treatise and the computed table part
  and the table gains most over all deals (gain times how often the hand is dealt),
  with the gain and its standard error, as hands a person can read.

Every share here weighs a state by how often it is dealt (its weight over all
5,437,152 (turn-up, hand) pairs).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ecarte_sim.engine.cards import ECARTE, format_card, format_hand
from ecarte_sim.engine.ecarte.decisions.states import representatives, state_keys, state_weights
from ecarte_sim.engine.ecarte.settings import Discard, name_of

#: The terms of the default short list, coarse to fine.
SHORT_TERMS = ("trumps", "trump_king", "plain_kings", "plain_courts")
_RANKS = "789TAJQK"   # Écarté order inside a suit byte (bit 0 = the seven)


def _count(bytes_: np.ndarray, mask: int) -> np.ndarray:
    """The set bits of each suit byte within ``mask``."""
    masked = (np.asarray(bytes_) & mask).astype(np.uint8)
    return np.unpackbits(masked[:, None], axis=1).sum(axis=1).astype(np.int64)


def features() -> pd.DataFrame:
    """One row per canonical state: ``trumps`` (0-5), ``trump_king`` (0/1),
    ``plain_kings``, ``plain_courts`` (plain kings, queens and knaves), ``longest``
    (the longest plain suit), ``turn_up`` (its rank: 7 8 9 T A J Q K) and ``weight``."""
    keys = state_keys()
    trump = (keys >> 24) & 0xFF
    plain = [(keys >> s) & 0xFF for s in (16, 8, 0)]
    lengths = np.stack([_count(p, 0xFF) for p in plain])
    return pd.DataFrame({
        "trumps": _count(trump, 0xFF),
        "trump_king": (trump >> 7) & 1,
        "plain_kings": sum(_count(p, 0x80) for p in plain),
        "plain_courts": sum(_count(p, 0xE0) for p in plain),
        "longest": lengths.max(axis=0),
        "turn_up": [_RANKS[int(r)] for r in (keys >> 32)],
        "weight": state_weights().astype(np.int64),
    })


def short_list(table: np.ndarray, terms=SHORT_TERMS,
               feats: pd.DataFrame | None = None) -> tuple[pd.DataFrame, float]:
    """The classes of ``terms`` with, for each, its dealt share, the action the table
    takes on most of its dealt hands (``choice``: a bool for a decision table, a rule
    value for a discard table) and the share of the class's hands on which the table
    does that; and the share of all dealt hands the short list reproduces."""
    feats = features() if feats is None else feats
    frame = feats[list(terms) + ["weight"]].copy()
    frame["choice"] = np.asarray(table)
    by = (frame.groupby(list(terms) + ["choice"], sort=True)["weight"].sum()
          .rename("w").reset_index())
    total = by.groupby(list(terms))["w"].transform("sum")
    by["share"] = by["w"] / total
    top = by.sort_values(["w", "choice"], ascending=[False, True]) \
        .drop_duplicates(list(terms)).sort_values(list(terms))
    top["dealt"] = total.loc[top.index].to_numpy() / frame["weight"].sum()
    reproduced = float(top["w"].sum() / frame["weight"].sum())
    return (top[list(terms) + ["choice", "share", "dealt"]].reset_index(drop=True),
            reproduced)


def short_table(classes: pd.DataFrame, terms=SHORT_TERMS,
                feats: pd.DataFrame | None = None) -> np.ndarray:
    """The table (one row, ``N_STATES``) the short list plays: each state the choice of
    its class."""
    feats = features() if feats is None else feats
    merged = feats[list(terms)].merge(classes[list(terms) + ["choice"]], on=list(terms),
                                      how="left")
    return merged["choice"].to_numpy()


def _says(choice, role: str) -> str:
    if isinstance(choice, (bool, np.bool_)):
        return {"elder": ("propose", "play"), "dealer": ("accept", "refuse")}[role][
            0 if choice else 1]
    return name_of(Discard(int(choice)))


def short_list_lines(classes: pd.DataFrame, role: str, notable=None) -> list[str]:
    """The short list as sentences, one per trumps held and king of trumps: the choice
    where the whole group agrees, else the choice by plain kings, and within those by
    plain court cards. ``notable``: the choice worth naming (default: play for the
    elder, refuse for the dealer; for a discard table, every choice)."""
    lines = []
    for (trumps, king), group in classes.groupby(["trumps", "trump_king"]):
        head = (f"{trumps} trump{'s' if trumps != 1 else ''}"
                + (" with the king" if king else "" if trumps == 0 else " without the king"))
        choices = group["choice"].unique()
        if len(choices) == 1:
            lines.append(f"{head}: {_says(choices[0], role)}")
            continue
        parts = []
        for kings, sub in group.groupby("plain_kings"):
            sub_choices = sub["choice"].unique()
            if len(sub_choices) == 1:
                parts.append(f"{kings} plain king{'s' if kings != 1 else ''}: "
                             f"{_says(sub_choices[0], role)}")
                continue
            runs = []
            for c, row in sub.groupby("choice"):
                courts = sorted(int(x) for x in row["plain_courts"])
                runs.append(f"{_says(c, role)} with {_span(courts)} plain court cards")
            parts.append(f"{kings} plain king{'s' if kings != 1 else ''}: "
                         + "; ".join(runs))
        lines.append(f"{head}: " + " | ".join(parts))
    return lines


def _span(values: list[int]) -> str:
    """Sorted integers as runs: [1, 2, 3, 5] -> '1-3, 5'."""
    out, start = [], None
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            out.append(str(start) if start == v else f"{start}-{v}")
            start = None
    return ", ".join(out)


def disagreements(role: str, table: np.ndarray, treatise: np.ndarray, gain: np.ndarray,
                  se: np.ndarray, top: int = 10) -> pd.DataFrame:
    """The ``top`` states where ``table`` and ``treatise`` part and the table's own
    action gains most over all deals (the gain on a deal of the state times its dealt
    share, ``contribution``), as hands: the representative's cards (spades trumps), the
    turn-up, what each says, the gain in P(win the game) on a deal of that hand and its
    standard error, and the state's dealt share."""
    table, treatise = np.asarray(table), np.asarray(treatise)
    gain, se = np.asarray(gain, dtype=float), np.asarray(se, dtype=float)
    if table.dtype == np.bool_:
        # the gain is arm a's (propose / accept) over arm b: the table's action gains
        # +gain where it says arm a, -gain where it says arm b
        own = np.where(table, gain, -gain)
    else:
        own = gain
    w = state_weights().astype(np.float64)
    part = np.flatnonzero((table != treatise) & np.isfinite(own))
    order = part[np.argsort(-(own[part] * w[part]), kind="stable")][:top]
    hands, turn_ups = representatives()
    return pd.DataFrame({
        "state": order,
        "hand": [format_hand(int(hands[i]), ECARTE) for i in order],
        "turn_up": [format_card(int(turn_ups[i])) for i in order],
        "treatise": [_says(treatise[i], role) for i in order],
        "computed": [_says(table[i], role) for i in order],
        "gain_win": own[order],
        "se": se[order],
        "dealt": w[order] / w.sum(),
        "contribution": own[order] * w[order] / w.sum(),
    })


__all__ = ["features", "short_list", "short_table", "short_list_lines", "disagreements",
           "SHORT_TERMS"]
