"""The shipped strategy: the solved five-up equilibrium, read from the package's data.

:mod:`ecarte_sim.analysis.ecarte.equilibrium` solves the proposal game of five up (both
players' first decisions and first discards at all 25 scores, the continuation values
``V`` recomputed from the strategies themselves) and writes what it found into
``analysis/ecarte/strategy_data/``: one ``<play>.npz`` per play model solved and one
``<play>.json`` with its provenance (the command, seed, commit, the exploitability found
at every score, the hash of the npz). Installed, the data travels with the package.

* :func:`load` — the :class:`Solved` strategy of one play model, checked against its
  recorded hash.
* :func:`solved_models` — the play models shipped, the default first.
* :func:`pack` / :func:`write` — the data format, used by the solver's driver.

A table's row is ``5 * elder's score + dealer's score`` (the score before the deal), its
column a canonical state (:mod:`ecarte_sim.engine.ecarte.states`): the same layout the
table policy reads (:mod:`ecarte_sim.engine.ecarte.tables`), so a loaded strategy plays
exactly as solved.
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from ecarte_sim.engine.ecarte.policies import SCORE_SLOTS
from ecarte_sim.engine.ecarte.states import N_STATES

#: Where the shipped data lives (package data).
DATA_DIR = Path(__file__).resolve().parent / "strategy_data"
#: The play model whose strategy answers when none is named (see the README's reason).
DEFAULT_PLAY = "dd"
#: The version of the data format; a loader refuses another.
FORMAT = 1
#: The gains are stored as int8 in units of this many P(win the game) (a state's gain is
#: a noisy estimate — a few hundredths at 64 deals a state — so a finer unit would only
#: store noise; a chart's cell averages thousands of states).
GAIN_UNIT = 2e-3
#: The stored gain meaning "not estimated" (the state was never sampled).
NO_GAIN = np.iinfo(np.int8).min


@dataclass(frozen=True)
class Solved:
    """One play model's solved strategy.

    ``elder``: (25, N_STATES) bool, True = propose; ``dealer``: True = accept;
    ``elder_discard`` / ``dealer_discard``: (25, N_STATES) ``Discard`` values (the rule
    each throws by at his first exchange); ``elder_gain`` / ``dealer_gain``: (25,
    N_STATES) float, the role's estimated gain in P(win the game) of propose over play
    (accept over refuse) in the last best-response step, NaN where not estimated;
    ``v``: (5, 5) the value of every score under the strategy (the elder's probability
    of winning the game, he being elder at the next deal, as
    :mod:`ecarte_sim.analysis.ecarte.scores`' ``V``); ``provenance``: the json."""
    play: str
    elder: np.ndarray
    dealer: np.ndarray
    elder_discard: np.ndarray
    dealer_discard: np.ndarray
    elder_gain: np.ndarray
    dealer_gain: np.ndarray
    v: np.ndarray
    provenance: dict = field(default_factory=dict)

    def table(self, role: str) -> np.ndarray:
        """The first-decision table of ``role`` (``elder`` or ``dealer``)."""
        return {"elder": self.elder, "dealer": self.dealer}[role]

    def gain(self, role: str) -> np.ndarray:
        return {"elder": self.elder_gain, "dealer": self.dealer_gain}[role]

    def discard(self, role: str) -> np.ndarray:
        return {"elder": self.elder_discard, "dealer": self.dealer_discard}[role]

    def tables(self) -> dict:
        """The four tables as the table policy's keywords (``_for_role``)."""
        return {"elder": self.elder, "dealer": self.dealer,
                "elder_discard": self.elder_discard, "dealer_discard": self.dealer_discard}


def _quantised(gain: np.ndarray) -> np.ndarray:
    g = np.asarray(gain, dtype=np.float64)
    q = np.clip(np.round(g / GAIN_UNIT), NO_GAIN + 1, np.iinfo(np.int8).max)
    q = np.where(np.isnan(g), NO_GAIN, q)
    return q.astype(np.int8)


def pack(elder, dealer, elder_discard, dealer_discard, elder_gain, dealer_gain,
         v) -> bytes:
    """The npz bytes of a strategy (deterministic: the same tables give the same bytes).
    Decision tables bit-packed along the states, discards uint8, gains int8 in units of
    :data:`GAIN_UNIT`."""
    arrays = {}
    for name, t in (("elder", elder), ("dealer", dealer)):
        t = np.asarray(t, dtype=bool)
        _check_shape(name, t)
        arrays[name] = np.packbits(t, axis=-1)
    for name, t in (("elder_discard", elder_discard), ("dealer_discard", dealer_discard)):
        t = np.asarray(t)
        _check_shape(name, t)
        arrays[name] = t.astype(np.uint8)
    for name, g in (("elder_gain", elder_gain), ("dealer_gain", dealer_gain)):
        g = np.asarray(g)
        _check_shape(name, g)
        arrays[name] = _quantised(g)
    arrays["v"] = np.asarray(v, dtype=np.float64).reshape(5, 5)
    arrays["format"] = np.array([FORMAT, N_STATES], dtype=np.int64)
    buf = io.BytesIO()
    # np.savez_compressed writes zip entries with the current time: write them by hand
    import zipfile
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name in sorted(arrays):
            one = io.BytesIO()
            np.lib.format.write_array(one, np.ascontiguousarray(arrays[name]),
                                      allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3      # as on Unix, whatever the platform
            z.writestr(info, one.getvalue(), compresslevel=9)
    return buf.getvalue()


def _check_shape(name: str, t: np.ndarray) -> None:
    if t.shape != (SCORE_SLOTS, N_STATES):
        raise ValueError(f"{name}: shape {t.shape}, expected ({SCORE_SLOTS}, {N_STATES})")


def unpack(data: bytes, play: str = "", provenance: dict | None = None) -> Solved:
    """A :class:`Solved` from :func:`pack`'s bytes."""
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        fmt = z["format"]
        if int(fmt[0]) != FORMAT or int(fmt[1]) != N_STATES:
            raise ValueError(f"strategy data of format {fmt.tolist()}, expected "
                             f"[{FORMAT}, {N_STATES}]")
        dec = {k: np.unpackbits(z[k], axis=-1, count=N_STATES).astype(bool)
               for k in ("elder", "dealer")}
        dis = {k: z[k].astype(np.int64) for k in ("elder_discard", "dealer_discard")}
        gains = {}
        for k in ("elder_gain", "dealer_gain"):
            q = z[k]
            g = q.astype(np.float64) * GAIN_UNIT
            g[q == NO_GAIN] = np.nan
            gains[k] = g
        v = z["v"].copy()
    arrays = (dec["elder"], dec["dealer"], dis["elder_discard"], dis["dealer_discard"],
              gains["elder_gain"], gains["dealer_gain"], v)
    for a in arrays:        # a loaded strategy is shared (cached): nobody may change it
        a.flags.writeable = False
    return Solved(play, *arrays, provenance or {})


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write(out_dir, play: str, data: bytes, provenance: dict) -> list[Path]:
    """``<play>.npz`` and ``<play>.json`` (the provenance with the npz's sha256) in
    ``out_dir``, each written under a temporary name and renamed."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    prov = {**provenance, "format": FORMAT, "play": play, "sha256": digest(data),
            "bytes": len(data)}
    paths = []
    for name, payload in ((f"{play}.npz", data),
                          (f"{play}.json", (json.dumps(prov, indent=1, sort_keys=True)
                                            + "\n").encode())):
        tmp = out / f".{name}.tmp"
        tmp.write_bytes(payload)
        tmp.replace(out / name)
        paths.append(out / name)
    return paths


def solved_models(data_dir=None) -> tuple[str, ...]:
    """The play models with shipped data, :data:`DEFAULT_PLAY` first."""
    d = Path(data_dir) if data_dir else DATA_DIR
    found = sorted(p.stem for p in d.glob("*.npz")) if d.is_dir() else []
    return tuple(sorted(found, key=lambda m: (m != DEFAULT_PLAY, m)))


def load(play: str | None = None, data_dir=None) -> Solved:
    """The shipped strategy of ``play`` (default: :data:`DEFAULT_PLAY`, or the only one
    shipped), its bytes checked against the hash its provenance records."""
    return _load(play, str(data_dir) if data_dir else None)


@cache
def _load(play, data_dir) -> Solved:
    d = Path(data_dir) if data_dir else DATA_DIR
    models = solved_models(d)
    if not models:
        raise ValueError(f"no solved strategy is shipped in {d}")
    play = play or models[0]
    if play not in models:
        raise ValueError(f"no solved strategy for play model {play!r}; solved: "
                         f"{', '.join(models)}")
    data = (d / f"{play}.npz").read_bytes()
    prov = json.loads((d / f"{play}.json").read_text(encoding="utf-8"))
    if prov.get("sha256") != digest(data):
        raise ValueError(f"the shipped strategy {play}.npz is damaged (its hash is not "
                         f"the one its provenance records)")
    return unpack(data, play, prov)
