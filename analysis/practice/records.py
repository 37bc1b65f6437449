"""Game records: a game of Écarté as plain JSON (the format is described field by field in
``docs/records.md``), written atomically, read back with every field checked.

* ``Table.record()`` / ``Table.from_record`` (:mod:`.session`) — a practice table's game
  to its record and back.
* :func:`validate` — the shape of a record (types, names, cards); a malformed record
  raises :class:`RecordError` naming the field. Whether the game it tells is legal is
  :func:`ecarte_sim.analysis.practice.laws.check`'s question.
* :func:`save` / :func:`load` — a file, written under a temporary name then renamed
  (``os.replace``), so that a reader never sees half a record.

A card is text ("KH", "TS" or "10S" for the ten); ``"?"`` is a card the record does not
know (a text that does not give it), a first-class value wherever a card may stand.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
from pathlib import Path

from ecarte_sim.engine.cards import CardError, parse_card

FORMAT = "ecarte-sim game record"
#: A game saved by the web app's store (:mod:`ecarte_sim.apps.web.store`): the record
#: is its ``"record"``; :func:`load` reads either.
STORED_GAME_FORMAT = "ecarte-sim web game 1"
#: The version written (2: each deal's own seed, the game's key; see :mod:`.seeds`);
#: :data:`VERSIONS` are read.
VERSION = 2
VERSIONS = (1, 2)
UNKNOWN = "?"
#: The largest record file read (bytes): a game of five up with every coach's verdict is
#: well under a megabyte.
MAX_RECORD_BYTES = 8 << 20
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
ACTION_TYPES = ("propose", "play", "accept", "refuse", "discard", "king", "card")


class RecordError(ValueError):
    """A record that cannot be read: ``where`` names the field (e.g. ``deals[2].actions[4]``)."""

    def __init__(self, where: str, reason: str):
        super().__init__(f"{where}: {reason}" if where else reason)
        self.where = where
        self.reason = reason


# ---------------------------------------------------------------------------- validation

def _need(cond: bool, where: str, reason: str) -> None:
    if not cond:
        raise RecordError(where, reason)


def _int(value, where: str, low: int = 0, high: int | None = None, null: bool = False):
    if value is None and null:
        return
    _need(isinstance(value, int) and not isinstance(value, bool), where,
          f"must be an integer{' or null' if null else ''}, got {value!r}")
    _need(value >= low and (high is None or value <= high), where,
          f"{value} is outside {low}..{high if high is not None else ''}")


def card_value(token, where: str) -> int | None:
    """A card of a record as an index, or None for ``"?"`` (unknown)."""
    if token == UNKNOWN:
        return None
    try:
        return parse_card(token)
    except CardError:
        raise RecordError(where, f"not a card: {token!r}") from None


def _card_list(value, where: str, size: int | None = None) -> list[int | None]:
    _need(isinstance(value, list), where, f"must be a list of cards, got {value!r}")
    if size is not None:
        _need(len(value) == size, where, f"must hold {size} cards, holds {len(value)}")
    return [card_value(t, f"{where}[{i}]") for i, t in enumerate(value)]


def _player(value, players, where: str) -> None:
    _need(value in players, where, f"must be one of {players}, got {value!r}")


def _score(value, players, where: str, null: bool = False) -> None:
    if value is None and null:
        return
    _need(isinstance(value, dict) and set(value) == set(players), where,
          f"must give each of {players} a score, got {value!r}")
    for p in players:
        _int(value[p], f"{where}.{p}")


def validate(record) -> dict:
    """Check the shape of ``record`` (every field's type, the players named, the cards
    written); return it. :class:`RecordError` names the first bad field."""
    _need(isinstance(record, dict), "", "a record is a JSON object")
    _need(record.get("format") == FORMAT, "format", f"must be {FORMAT!r}, got "
          f"{record.get('format')!r}")
    version = record.get("version")
    _need(version in VERSIONS and not isinstance(version, bool), "version",
          f"must be one of {', '.join(map(str, VERSIONS))}, got {version!r}")
    players = record.get("players")
    _need(isinstance(players, list) and len(players) == 2
          and all(isinstance(p, str) and p for p in players) and players[0] != players[1],
          "players", f"must name two players, got {players!r}")
    _int(record.get("seed"), "seed", 0, (1 << 64) - 1, null=True)
    if version == 2:
        _need(record.get("seed") is None, "seed", "a version 2 record gives each deal's "
              "seed (deals[i].seed), not the game's")
        for name in ("key", "key_sha256"):
            value = record.get(name)
            _need(value is None or (isinstance(value, str) and _HEX64.match(value)), name,
                  "must be 64 lower-case hex digits or null")
    table = record.get("table")
    if table is not None:
        _need(isinstance(table, dict), "table", "must be an object or null")
        _need(table.get("opponent") in ("pimc-king", "alphamu", "strategy", "treatise"),
              "table.opponent", "must be 'pimc-king', 'alphamu', 'strategy' or 'treatise', "
              f"got {table.get('opponent')!r}")
        _int(table.get("worlds"), "table.worlds", 1, 4096)
        _need(isinstance(table.get("coach"), bool), "table.coach", "must be true or false")
        _int(table.get("number"), "table.number", 0, null=True)
    if record.get("first_dealer") is not None:
        _player(record.get("first_dealer"), players, "first_dealer")
    _need(record.get("target", 5) == 5, "target", "the game is five up (Law 46)")
    deals = record.get("deals")
    _need(isinstance(deals, list), "deals", "must be a list")
    for i, d in enumerate(deals):
        _deal(d, players, f"deals[{i}]")
        if version == 1:
            _need(d.get("seed") is None, f"deals[{i}].seed", "a version 1 record gives the "
                  "game's seed, not a deal's")
    _score(record.get("score"), players, "score")
    if record.get("winner") is not None:
        _player(record.get("winner"), players, "winner")
    return record


def _deal(d, players, where: str) -> None:
    _need(isinstance(d, dict), where, "a deal is an object")
    _int(d.get("number"), f"{where}.number", 1)
    _int(d.get("index"), f"{where}.index", 0, null=True)
    _int(d.get("seed"), f"{where}.seed", 0, (1 << 64) - 1, null=True)
    _player(d.get("dealer"), players, f"{where}.dealer")
    _player(d.get("elder"), players, f"{where}.elder")
    _need(d["dealer"] != d["elder"], f"{where}.elder", "the elder is not the dealer")
    _score(d.get("score_before"), players, f"{where}.score_before")
    hands = d.get("hands")
    _need(isinstance(hands, dict) and set(hands) == set(players), f"{where}.hands",
          f"must give each of {players} a hand")
    for p in players:
        _card_list(hands[p], f"{where}.hands.{p}", 5)
    card_value(d.get("turn_up"), f"{where}.turn_up") if isinstance(d.get("turn_up"), str) \
        else _need(False, f"{where}.turn_up", "must be a card or '?'")
    if d.get("stock") is not None:
        _card_list(d["stock"], f"{where}.stock", 21)
    actions = d.get("actions")
    _need(isinstance(actions, list), f"{where}.actions", "must be a list")
    for j, a in enumerate(actions):
        _action(a, players, f"{where}.actions[{j}]")
    tricks = d.get("tricks")
    if tricks is not None:
        _need(isinstance(tricks, dict) and set(tricks) == set(players), f"{where}.tricks",
              f"must give each of {players} a count of tricks, or be null")
        for p in players:
            _int(tricks[p], f"{where}.tricks.{p}", 0, 5)
    result = d.get("result")
    if result is not None:
        _need(isinstance(result, dict), f"{where}.result", "must be an object or null")
        _player(result.get("winner"), players, f"{where}.result.winner")
        _need(isinstance(result.get("vole"), bool), f"{where}.result.vole",
              "must be true or false")
    marks = d.get("marks")
    _need(isinstance(marks, list), f"{where}.marks", "must be a list")
    for j, m in enumerate(marks):
        w = f"{where}.marks[{j}]"
        _need(isinstance(m, dict), w, "a mark is an object")
        _player(m.get("to"), players, f"{w}.to")
        _int(m.get("marks"), f"{w}.marks", 1, 3)
        _need(isinstance(m.get("for"), str), f"{w}.for", "must say what is marked")
    _score(d.get("score_after"), players, f"{where}.score_after", null=True)
    unknown = d.get("unknown", [])
    _need(isinstance(unknown, list) and all(isinstance(u, str) for u in unknown),
          f"{where}.unknown", "must be a list of words")
    _need(isinstance(d.get("coach", []), list), f"{where}.coach", "must be a list")
    _need(isinstance(d.get("retried", []), list), f"{where}.retried", "must be a list")


def _action(a, players, where: str) -> None:
    _need(isinstance(a, dict), where, "an action is an object")
    _player(a.get("by"), players, f"{where}.by")
    kind = a.get("type")
    _need(kind in ACTION_TYPES, f"{where}.type", f"must be one of {ACTION_TYPES}, got "
          f"{kind!r}")
    if kind == "discard":
        if isinstance(a.get("cards"), list):
            _card_list(a["cards"], f"{where}.cards")
        else:
            _int(a.get("count"), f"{where}.count", 0, 5)
        if a.get("drawn") is not None:
            _card_list(a["drawn"], f"{where}.drawn")
    elif kind == "king":
        _need(isinstance(a.get("announce"), bool), f"{where}.announce", "must be true or false")
    elif kind == "card":
        _need(isinstance(a.get("card"), str), f"{where}.card", "must be a card or '?'")
        card_value(a["card"], f"{where}.card")


# ---------------------------------------------------------------------------- files

def save(record: dict, path) -> Path:
    """Write ``record`` to ``path`` atomically (:func:`write_text_atomic`)."""
    path = Path(path)
    write_text_atomic(path, json.dumps(record, indent=1, ensure_ascii=False) + "\n",
                      prefix=f".{path.name}.", suffix=".tmp")
    return path


def write_text_atomic(path: Path, text: str, *, prefix: str, suffix: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same directory (named
    ``prefix...suffix``), flushed and synced, then ``os.replace``: a reader sees the old
    file or the new one, never half of one; the temporary file goes on any failure."""
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def load(path) -> dict:
    """A record from ``path`` (or the record of a game saved by the practice table's
    store), its shape checked (:func:`validate`); a file that is not
    JSON or not a record, larger than :data:`MAX_RECORD_BYTES`, or not a regular file (a
    FIFO is refused, not waited on), raises :class:`RecordError`."""
    try:
        # opened without blocking, then checked to be a file: a FIFO or a device given
        # as a record is refused at once, never waited on
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise RecordError("", "not a regular file (a pipe, a device or a "
                                      "directory): not a game record")
            raw = f.read(MAX_RECORD_BYTES + 1)
        if len(raw) > MAX_RECORD_BYTES:
            raise RecordError("", f"larger than {MAX_RECORD_BYTES >> 20} MB: not a game "
                                  f"record (not read further)")
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        reason = getattr(e, "strerror", None) or "not UTF-8 text"
        raise RecordError("", f"cannot read it: {reason}") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError("", f"not JSON (line {e.lineno}: {e.msg})") from None
    except RecursionError:
        raise RecordError("", "not a record: JSON nested too deep") from None
    if isinstance(record, dict) and record.get("format") == STORED_GAME_FORMAT:
        record = record.get("record")          # a saved game of the practice table
    return validate(record)
