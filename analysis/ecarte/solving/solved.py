"""The shipped strategy: the solved five-up equilibrium, read from the package's data.

:mod:`ecarte_sim.analysis.ecarte.solving.equilibrium` solves the proposal game of five up (both
players' first decisions and first discards at all 25 scores, the continuation values
``V`` recomputed from the strategies themselves) and writes what it found into
``analysis/ecarte/solving/strategy_data/``: one ``<play>.npz`` per play model solved and one
``<play>.json`` with its provenance (the command, seed, commit, the exploitability found
at every score, the hash of the npz). Installed, the data travels with the package.

* :func:`load` — the :class:`Solved` strategy of one play model, checked against its
  recorded hash.
* :func:`solved_models` — the play models shipped, the default first.
* :func:`pack` / :func:`write` — the data format, used by the solver's driver.

A table's row is ``5 * elder's score + dealer's score`` (the score before the deal), its
column a canonical state (:mod:`ecarte_sim.engine.ecarte.decisions.states`): the same layout the
table policy reads (:mod:`ecarte_sim.engine.ecarte.decisions.tables`), so a loaded strategy plays
exactly as solved.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from functools import cache
from pathlib import Path

import numpy as np

from ecarte_sim.engine.ecarte.decisions.canonical import N_STATES

#: Where the shipped data lives (package data).
DATA_DIR = Path(__file__).resolve().parent / "strategy_data"
#: The play model whose strategy answers when none is named (see the README's reason).
DEFAULT_PLAY = "dd"
#: The version of the data format; a loader refuses another.
FORMAT = 2
#: The gains are stored as class means: a state's own sampled gain is mostly noise at the
#: samplings a solve can afford (|gain| has a median of 0.05 at 8–16 deals a state), and
#: 25 x 255,304 noisy numbers do not compress (11 MB as int8). The classes combine every
#: term of the strategy card (:mod:`ecarte_sim.analysis.ecarte.solving.chart`): trumps held, the
#: king of trumps, plain kings, plain suits held, plain court cards, the longest plain
#: suit; each card's cell is a union of them, so its margin over dealt hands is exact.
#: The later rounds' tables a strategy may hold (optional members of its data).
LATER_TABLES = ("elder_later", "dealer_later", "elder_later_discard", "dealer_later_discard")
GAIN_TERMS = ("trumps", "trump_king", "plain_kings", "plain_suits", "plain_courts",
              "longest")


def _decisions(packed: np.ndarray) -> np.ndarray:
    return np.unpackbits(packed, axis=-1, count=N_STATES).astype(bool)


#: How each table is read from its npz member (:func:`pack` writes them).
_DECODE = {"elder": _decisions, "dealer": _decisions,
           "elder_later": _decisions, "dealer_later": _decisions,
           "elder_discard": lambda a: a.astype(np.int64),
           "dealer_discard": lambda a: a.astype(np.int64),
           "elder_later_discard": lambda a: a.astype(np.int64),
           "dealer_later_discard": lambda a: a.astype(np.int64),
           "elder_gain": lambda a: a.astype(np.float64),
           "dealer_gain": lambda a: a.astype(np.float64),
           "v": lambda a: a.copy()}


class Solved:
    """One play model's solved strategy.

    ``elder``: (25, N_STATES) bool, True = propose; ``dealer``: True = accept;
    ``elder_discard`` / ``dealer_discard``: (25, N_STATES) ``Discard`` values (the rule
    each throws by at his first exchange); ``elder_gain`` / ``dealer_gain``: (25,
    N_CLASSES) float, the role's estimated gain in P(win the game) of propose over play
    (accept over refuse) in the last best-response step, averaged over each class of
    :data:`GAIN_TERMS` (dealt hands weighted as dealt; NaN where none was estimated) —
    :meth:`gain` gives it per state (each state its class's mean);
    ``v``: (5, 5) the value of every score under the strategy (the elder's probability
    of winning the game, he being elder at the next deal, as
    :mod:`ecarte_sim.analysis.ecarte.measures.scores`' ``V``); ``provenance``: the json.

    Made from :func:`pack`'s bytes, each table decoded when first read and kept
    (read-only: a loaded strategy is shared): one hand's action reads one decision table,
    not the 2 x 25 x 255,304 discard rules."""

    def __init__(self, play: str, data: bytes, provenance: dict | None = None):
        self.play = play
        self.provenance = provenance or {}
        self._data = data
        self._arrays: dict[str, np.ndarray] = {}
        self._files: frozenset | None = None
        fmt = self._member("format")
        if int(fmt[0]) != FORMAT or int(fmt[1]) != N_STATES:
            raise ValueError(f"strategy data of format {fmt.tolist()}, expected "
                             f"[{FORMAT}, {N_STATES}]")

    def _member(self, name: str) -> np.ndarray:
        with np.load(io.BytesIO(self._data), allow_pickle=False) as z:
            return z[name]

    def _array(self, name: str) -> np.ndarray:
        if name not in self._arrays:
            a = _DECODE[name](self._member(name))
            a.flags.writeable = False
            self._arrays.setdefault(name, a)    # one array for every reader
        return self._arrays[name]

    elder = property(lambda self: self._array("elder"))
    dealer = property(lambda self: self._array("dealer"))
    elder_discard = property(lambda self: self._array("elder_discard"))
    dealer_discard = property(lambda self: self._array("dealer_discard"))
    elder_gain = property(lambda self: self._array("elder_gain"))
    dealer_gain = property(lambda self: self._array("dealer_gain"))
    v = property(lambda self: self._array("v"))

    def _of(self, role: str, suffix: str = "") -> np.ndarray:
        if role not in ("elder", "dealer"):
            raise KeyError(role)
        return self._array(role + suffix)

    def table(self, role: str) -> np.ndarray:
        """The first-decision table of ``role`` (``elder`` or ``dealer``)."""
        return self._of(role)

    def gain(self, role: str) -> np.ndarray:
        """(25, N_STATES): each state's class mean gain (class docstring)."""
        return self._of(role, "_gain")[:, gain_classes()]

    def discard(self, role: str) -> np.ndarray:
        return self._of(role, "_discard")

    def tables(self) -> dict:
        """The pair's tables by name (:data:`~.equilibrium.KEYS`, and the later rounds'
        :data:`~.equilibrium.LATER` where the data holds them)."""
        out = {"elder": self.elder, "dealer": self.dealer,
               "elder_discard": self.elder_discard, "dealer_discard": self.dealer_discard}
        for name in LATER_TABLES:
            if self.has(name):
                out[name] = self._array(name)
        return out

    def has(self, name: str) -> bool:
        """Whether the data holds the table ``name``."""
        if self._files is None:
            with np.load(io.BytesIO(self._data), allow_pickle=False) as z:
                self._files = frozenset(n.removesuffix(".npy") for n in z.files)
        return name in self._files

    @property
    def solves_later(self) -> bool:
        """The later rounds (a proposal after an exchange, its answer, a later discard)
        have tables of their own; else they read the first round's on the new hand."""
        return self.has("elder_later")

    def later_table(self, role: str) -> np.ndarray:
        """The later rounds' decision table of ``role`` (the first round's if the data
        has none: the later rounds then read it on the new hand)."""
        name = f"{role}_later"
        return self._array(name) if self.has(name) else self.table(role)

    def later_discard(self, role: str) -> np.ndarray:
        """The later exchanges' discard table of ``role`` (the first's if none)."""
        name = f"{role}_later_discard"
        return self._array(name) if self.has(name) else self.discard(role)


@cache
def gain_classes() -> np.ndarray:
    """Each state's class of :data:`GAIN_TERMS` (dense ids, in the order of the terms)."""
    from ecarte_sim.analysis.ecarte.solving.chart import terms
    f = terms()
    keys = np.stack([f[t].to_numpy(dtype=np.int64) for t in GAIN_TERMS], axis=1)
    _, ids = np.unique(keys, axis=0, return_inverse=True)
    ids = ids.reshape(-1).astype(np.int64)
    ids.flags.writeable = False
    return ids


def class_means(gain: np.ndarray) -> np.ndarray:
    """(25, N_CLASSES) float32: per score, each class's mean of the per-state ``gain``
    over its dealt hands where estimated (NaN where no state of the class was)."""
    from ecarte_sim.engine.ecarte.decisions.states import state_weights
    g = np.asarray(gain, dtype=np.float64)
    ids = gain_classes()
    n = int(ids.max()) + 1
    w = state_weights().astype(np.float64)
    out = np.full((g.shape[0], n), np.nan)
    for r in range(g.shape[0]):
        known = np.isfinite(g[r])
        wk = np.bincount(ids, weights=np.where(known, w, 0.0), minlength=n)
        total = np.bincount(ids, weights=np.where(known, g[r] * w, 0.0), minlength=n)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[r] = np.where(wk > 0, total / wk, np.nan)
    return out.astype(np.float32)


def pack(elder, dealer, elder_discard, dealer_discard, elder_gain, dealer_gain,
         v, later: dict | None = None) -> bytes:
    """The npz bytes of a strategy (deterministic: the same tables give the same bytes).
    Decision tables bit-packed along the states, discards uint8, gains (per state) as
    their class means (:func:`class_means`), float32. ``later``: the later rounds' tables
    by the names of :data:`LATER_TABLES` (all four, or none)."""
    arrays = {}
    later = later or {}
    if later and set(later) != set(LATER_TABLES):
        raise ValueError(f"the later tables must be all of {', '.join(LATER_TABLES)}")
    for name, t in (("elder", elder), ("dealer", dealer),
                    *((n, later[n]) for n in ("elder_later", "dealer_later") if later)):
        t = np.asarray(t, dtype=bool)
        _check_shape(name, t)
        arrays[name] = np.packbits(t, axis=-1)
    for name, t in (("elder_discard", elder_discard), ("dealer_discard", dealer_discard),
                    *((n, later[n]) for n in ("elder_later_discard", "dealer_later_discard")
                      if later)):
        t = np.asarray(t)
        _check_shape(name, t)
        arrays[name] = t.astype(np.uint8)
    for name, g in (("elder_gain", elder_gain), ("dealer_gain", dealer_gain)):
        g = np.asarray(g)
        _check_shape(name, g)
        arrays[name] = class_means(g)
    arrays["v"] = np.asarray(v, dtype=np.float64).reshape(5, 5)
    arrays["format"] = np.array([FORMAT, N_STATES], dtype=np.int64)
    buf = io.BytesIO()
    # np.savez_compressed writes zip entries with the current time: write them by hand
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
    from ecarte_sim.engine.ecarte.decisions.policies import SCORE_SLOTS     # writing: the kernels' rows
    if t.shape != (SCORE_SLOTS, N_STATES):
        raise ValueError(f"{name}: shape {t.shape}, expected ({SCORE_SLOTS}, {N_STATES})")


def later_name(key: str) -> str:
    """The later rounds' table of a first-round table: ``elder`` → ``elder_later``,
    ``elder_discard`` → ``elder_later_discard`` (:data:`LATER_TABLES`)."""
    return key.replace("_", "_later_") if "_" in key else f"{key}_later"


def script_for(settings, play: str | None = None) -> np.ndarray | None:
    """The ``script`` a whole deal under ``settings`` reads: the computed strategy's tables
    (all 25 rows, the later rounds' too where shipped) for every decision or discard the
    settings give to ``STRATEGY`` (the shipped strategy of ``play``, default the default
    one); None when none is (the kernels' empty script serves)."""
    if not settings.uses_strategy:
        return None
    def is_strategy(value) -> bool:
        return value is not None and value.name == "STRATEGY"

    reads = {"elder": is_strategy(settings.elder_policy) or is_strategy(settings.model_of_elder),
             "dealer": is_strategy(settings.dealer_policy)
             or is_strategy(settings.model_of_dealer),
             "elder_discard": is_strategy(settings.elder_discard),
             "dealer_discard": is_strategy(settings.dealer_discard)}
    return _script(load(play), [k for k in reads if reads[k]])


def strategy_script(play: str | None = None) -> np.ndarray:
    """The ``script`` of the whole shipped strategy of ``play`` (default: the default one):
    its first-round tables and, where it has them, its later rounds' (what the practice
    table's computer reads for every decision and discard)."""
    return _script(load(play), FIRST_TABLES)


#: The first round's tables, in the order :func:`policy_script` takes them.
FIRST_TABLES = ("elder", "dealer", "elder_discard", "dealer_discard")


def _script(strategy: Solved, keys) -> np.ndarray:
    """The ``script`` carrying ``strategy``'s tables named in ``keys`` (of
    :data:`FIRST_TABLES`), and their later rounds' where it has them; the others left out."""
    from ecarte_sim.engine.ecarte.decisions.tables import policy_script
    tables = strategy.tables()
    first = {k: tables[k] if k in keys else None for k in FIRST_TABLES}
    later = {k: tables[later_name(k)] for k in keys} if strategy.solves_later else None
    return policy_script(**first, later=later)


def unpack(data: bytes, play: str = "", provenance: dict | None = None) -> Solved:
    """A :class:`Solved` from :func:`pack`'s bytes."""
    return Solved(play, data, provenance)


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


def clear_cache() -> None:
    """Forget the strategies :func:`load` has read (after the files changed, or to time a
    first load)."""
    _load.cache_clear()


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
