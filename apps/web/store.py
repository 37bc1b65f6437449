"""The game store: one JSON file per game in a directory, written atomically after every
accepted action, read back after a restart.

A stored game (``<id>.json``, format :data:`FORMAT`) is ``{"format", "id", "seq",
"created", "updated", "over", "settings", "record"}``: ``record`` is the game record of
:mod:`ecarte_sim.analysis.practice.records` (``Table.record()``; ``Table.from_record``
restores a game in progress exactly), ``seq`` the number of actions the game has accepted
(a request names the ``seq`` it was made at: a stale or replayed one is refused).

* Ids are ``secrets.token_urlsafe(16)`` (128 random bits, 22 characters); an id that is not
  of that form is refused before any path is made of it, so no request names a file
  outside the store.
* Each game has its own lock: two requests on one game are served one after the other,
  requests on different games at once. An action that fails leaves the game as it was
  saved: :class:`~ecarte_sim.apps.practice.session.IllegalAction` leaves the table
  unchanged by contract; any other error (a bug, a failed write) reloads the game from its
  last saved record, so one game's error never touches the table in memory, nor another
  game.
* Writes: a temporary file in the store, flushed and fsynced, then ``os.replace``, then
  the directory fsynced — a reader (or a restart after Ctrl-C, or a power cut) sees the
  old record or the new one, never half of one. Temporary files left by a killed process
  are removed when the store opens.
* The store's secret (:data:`SECRET_NAME`, 32 random bytes, mode 0600, made the first
  time the store opens) keys two things: a game's *token* (:meth:`GameStore.token`, an
  HMAC of its id: the capability a page must show to view or act in that game; nothing
  lists it) and the key of a game asked for by number (:meth:`GameStore.key_for`: the
  same number gives the same game on this store, and nobody without the secret can
  compute its deals; every player of that number gets them, which the page says). A
  game's key gives each deal's seed (:mod:`ecarte_sim.analysis.practice.seeds`); no
  response tells a key before the game is over, nor a deal's seed before the deal is.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import stat
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ecarte_sim.api.practice import STORED_GAME_FORMAT, write_text_atomic

#: The stored game's format tag (``review`` reads a stored game's record too).
FORMAT = STORED_GAME_FORMAT
#: What an id looks like (:func:`new_id`; ids made before may start with - or _).
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{22}$")
_TMP_PREFIX = ".tmp-"
#: The file of the store's secret (module docstring).
SECRET_NAME = ".secret"
#: The header that carries a game's token; the listing's header of the caller's games.
TOKEN_HEADER = "x-game-token"
TOKENS_HEADER = "x-game-tokens"
#: The most games one listing request may name.
MAX_LISTED = 100
#: The largest stored game read (bytes): a game of five up with every coach's verdict is
#: well under a megabyte; a larger file is skipped at start without being read.
MAX_STORED_BYTES = 8 << 20

log = logging.getLogger("ecarte_sim.web")


class StoreError(Exception):
    """A request the store refuses: ``status`` (HTTP) and a one-line ``reason``."""

    def __init__(self, status: int, reason: str, law: str | None = None,
                 retry_after: int | None = None):
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.law = law
        self.retry_after = retry_after


def default_dir() -> Path:
    """``$XDG_DATA_HOME/ecarte-sim/games`` (``~/.local/share/ecarte-sim/games``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "share")
    return Path(base) / "ecarte-sim" / "games"


def write_atomic(path: Path, data: dict) -> None:
    """Write ``data`` as JSON to ``path``: temporary file in the same directory, fsync,
    ``os.replace``."""
    # compact: the C encoder (an indented dump is the pure-Python one, 10 times slower)
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    write_text_atomic(path, text, prefix=_TMP_PREFIX, suffix=".json")
    _fsync_dir(path.parent)


def _fsync_dir(path: Path) -> None:
    """Make a rename in ``path`` durable (best effort where directories cannot be
    opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes: opened
    without blocking and checked before reading, so a FIFO or a device is refused at once
    (never waited on) and an oversized file is not read. :class:`Damaged` otherwise
    (``FileNotFoundError`` passes)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise Damaged("a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise Damaged("not a regular file (a pipe or a device): not read")
        if info.st_size > limit:
            raise Damaged(f"larger than {limit} bytes ({info.st_size}): not read")
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise Damaged(f"larger than {limit} bytes: not read further")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def load_secret(root: Path) -> bytes:
    """The store's secret (:data:`SECRET_NAME`), made the first time (32 random bytes,
    mode 0600, created exclusively so that two servers on one store share one). A secret
    that is not a regular file of 16 bytes or more is refused in one line
    (:class:`StoreError`): it is never replaced silently, since the tokens of the games
    made before depend on it."""
    path = root / SECRET_NAME
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        try:
            os.write(fd, secrets.token_bytes(32))
            os.fsync(fd)
        finally:
            os.close(fd)
        _fsync_dir(root)
    try:
        data = read_regular(path, 4096)
    except (Damaged, OSError) as exc:
        raise StoreError(500, f"the store's secret {path} cannot be read ({exc}): remove "
                              f"it to make a new one (the games' old tokens then fail)") \
            from None
    if len(data) < 16:
        raise StoreError(500, f"the store's secret {path} is damaged ({len(data)} bytes, "
                              f"fewer than 16): remove it to make a new one (the games' old "
                              f"tokens then fail)")
    return data


class Damaged(ValueError):
    """A stored game whose file is not what the store writes."""


def _number(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise Damaged(f"{what} is not a number")
    return float(value)


def check_stored(data, game_id: str) -> dict:
    """The fields of a stored game that the store reads, their types checked (raises
    :class:`Damaged`): a file damaged by hand or by a bug is skipped, never trusted."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Damaged(f"not a stored game ({FORMAT})")
    seq = data.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise Damaged("'seq' is not a count")
    created = _number(data.get("created"), "'created'")
    updated = _number(data.get("updated"), "'updated'")
    settings = data.get("settings", {})
    if not isinstance(settings, dict):
        raise Damaged("'settings' is not an object")
    if not isinstance(data.get("over", False), bool):
        raise Damaged("'over' is not true or false")
    record = data.get("record")
    if not isinstance(record, dict):
        raise Damaged("'record' is not an object")
    score = record.get("score")
    if score is not None and not (isinstance(score, dict) and all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in score.items())):
        raise Damaged("the record's 'score' is not a score")
    winner = record.get("winner")
    if winner is not None and not isinstance(winner, str):
        raise Damaged("the record's 'winner' is not a player")
    return {"id": game_id, "seq": seq, "created": created, "updated": updated,
            "over": bool(data.get("over", False)), "settings": settings,
            "score": score, "winner": winner}


#: The settings a listing shows only once the game is over (they fix its deals; ``seed``:
#: a game stored before issue 51).
SECRET_SETTINGS = ("key", "seed")


def public_settings(settings: dict, over: bool) -> dict:
    """A game's settings as a listing shows them: the key only once the game is over."""
    return {k: v for k, v in settings.items() if over or k not in SECRET_SETTINGS}


@dataclass
class Game:
    """A game in memory: its table, the number of actions accepted, its lock."""
    id: str
    table: Any
    seq: int
    created: float
    updated: float
    settings: dict
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    #: Set (under ``lock``) when the store drops the game from memory: a request holding
    #: this object then fetches the game again.
    evicted: bool = False
    #: When a request last asked for the game (the least recently used goes first).
    used: float = field(default_factory=time.monotonic)

    @property
    def over(self) -> bool:
        winner = getattr(self.table, "winner", self)
        if winner is not self:
            return winner is not None
        return self.table.view().get("phase") == "game_over"

    def stored(self) -> dict:
        return {"format": FORMAT, "id": self.id, "seq": self.seq, "created": self.created,
                "updated": self.updated, "over": self.over,
                "settings": self.settings, "record": self.table.record()}


class GameStore:
    """The games of one directory (module docstring). ``table`` is the game class:
    ``table.new(**settings)``, ``table.from_record(record)`` and, on an instance,
    ``view()``, ``act(action)``, ``record()``; ``illegal`` the exception ``act`` raises on
    an illegal action (with ``law`` and ``reason``).

    Memory: a finished game is dropped from memory once saved (its file answers any
    later request), and at most ``resident`` games in progress stay in memory (the least
    recently used idle one goes first). The listing reads an index kept in memory (one
    line a game: built from the files when the store opens, updated on every save), never
    the files again; a damaged file is skipped with a log line."""

    def __init__(self, root: str | os.PathLike, table: Any, illegal: type[Exception],
                 resident: int = 256):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.table = table
        self.illegal = illegal
        self.resident = int(resident)
        self._secret = load_secret(self.root)
        self._games: dict[str, Game] = {}
        self._index: dict[str, dict] = {}
        self._lock = threading.Lock()
        for stale in self.root.glob(_TMP_PREFIX + "*"):
            try:
                stale.unlink()
            except OSError:
                pass
        self._build_index()

    # ------------------------------------------------------------------ secrets
    def token(self, game_id: str) -> str:
        """The game's capability: what a page must send (header ``X-Game-Token``) to view
        or act in it. An HMAC of the id under the store's secret: 256 bits, never
        listed, never stored."""
        mac = hmac.new(self._secret, b"game-token\0" + game_id.encode(), hashlib.sha256)
        return mac.hexdigest()

    def authorise(self, game_id, token) -> None:
        """Refuse a request on ``game_id`` without its token (403) or with a wrong one
        (404, as for a game that does not exist: a wrong token tells nothing)."""
        if not isinstance(game_id, str) or not ID_PATTERN.match(game_id):
            raise StoreError(404, "no such game: an id is 22 letters, digits, - or _")
        if not token:
            raise StoreError(403, "this game's requests carry its token (header "
                                  "X-Game-Token), which only the page that made it has")
        if not hmac.compare_digest(str(token).encode(), self.token(game_id).encode()):
            raise StoreError(404, f"no such game: {game_id} (or not yours: the token does "
                                  f"not match)")

    def key_for(self, number: int | None) -> str:
        """The key of a new game (hex; :mod:`ecarte_sim.analysis.practice.seeds` derives
        each deal's seed from it): game ``number`` of this store (an HMAC of the number
        under the store's secret: the same number, the same games; its deals cannot be
        computed without the secret), or a fresh random key when no number is asked."""
        if number is None:
            return secrets.token_hex(32)
        mac = hmac.new(self._secret, b"game-number\0" + str(int(number)).encode(),
                       hashlib.sha256)
        return mac.hexdigest()

    # ------------------------------------------------------------------ files
    def _path(self, game_id: str) -> Path:
        if not isinstance(game_id, str) or not ID_PATTERN.match(game_id):
            raise StoreError(404, "no such game: an id is 22 letters, digits, - or _")
        return self.root / f"{game_id}.json"

    def _read_file(self, game_id: str) -> dict:
        """The stored game's JSON, its fields checked; :class:`Damaged` or
        ``FileNotFoundError`` otherwise."""
        path = self._path(game_id)
        try:
            data = json.loads(read_regular(path, MAX_STORED_BYTES).decode("utf-8"))
        except (FileNotFoundError, Damaged):
            raise
        except RecursionError:
            raise Damaged("JSON nested too deep") from None
        except IsADirectoryError:
            raise Damaged("a directory, not a file") from None
        except (OSError, ValueError) as exc:
            raise Damaged(f"cannot be read ({type(exc).__name__})") from None
        check_stored(data, game_id)
        return data

    def _read(self, game_id: str) -> dict:
        try:
            return self._read_file(game_id)
        except FileNotFoundError:
            raise StoreError(404, f"no such game: {game_id}") from None
        except Damaged as exc:
            log.warning("stored game %s is damaged: %s", game_id, exc)
            raise StoreError(500, f"the stored game {game_id} is damaged ({exc}); the "
                                  f"server's log says more") from None

    def _build_index(self) -> None:
        for path in self.root.glob("*.json"):
            game_id = path.name[:-5]
            if path.name.startswith(_TMP_PREFIX) or not ID_PATTERN.match(game_id):
                continue
            try:
                data = self._read_file(game_id)
            except (Damaged, FileNotFoundError) as exc:
                log.warning("skipped the stored game %s: %s", path.name, exc)
                continue
            self._index[game_id] = self._summary(game_id, data)

    @staticmethod
    def _summary(game_id: str, data: dict) -> dict:
        s = check_stored(data, game_id)
        s["settings"] = public_settings(s["settings"], s["over"])
        return s

    def _save(self, game: Game) -> None:
        data = game.stored()
        write_atomic(self._path(game.id), data)
        summary = self._summary(game.id, data)
        with self._lock:
            self._index[game.id] = summary

    def _load(self, game_id: str) -> Game:
        data = self._read(game_id)
        try:
            table = self.table.from_record(data["record"])
        except Exception as exc:  # a record this version cannot restore
            log.warning("stored game %s cannot be restored: %s: %s", game_id,
                        type(exc).__name__, exc)
            raise StoreError(500, f"the stored game {game_id} cannot be restored "
                                  f"({type(exc).__name__}); the server's log says more") \
                from None
        return Game(id=game_id, table=table, seq=data["seq"], created=data["created"],
                    updated=data["updated"], settings=data.get("settings", {}))

    # ------------------------------------------------------------------ memory
    def _evict(self, game: Game) -> None:
        """Drop ``game`` from memory (its lock held by the caller)."""
        with self._lock:
            if self._games.get(game.id) is game:
                del self._games[game.id]
        game.evicted = True

    def _trim(self, keep: str) -> None:
        """At most ``resident`` games in memory: the least recently used idle ones go (never
        ``keep``, the game being asked for)."""
        with self._lock:
            excess = len(self._games) - self.resident
            if excess <= 0:
                return
            others = [g for g in self._games.values() if g.id != keep]
            oldest = sorted(others, key=lambda g: g.used)[:excess]
        for g in oldest:
            if g.lock.acquire(blocking=False):
                try:
                    self._evict(g)
                finally:
                    g.lock.release()

    def resident_games(self) -> int:
        """How many games are in memory now."""
        with self._lock:
            return len(self._games)

    # ------------------------------------------------------------------ games
    def get(self, game_id: str) -> Game:
        """The game in memory, loaded from its file the first time (after a restart, or
        after it was dropped from memory)."""
        self._path(game_id)
        with self._lock:
            game = self._games.get(game_id)
        if game is None:
            loaded = self._load(game_id)
            with self._lock:
                game = self._games.setdefault(game_id, loaded)
            self._trim(keep=game_id)
        game.used = time.monotonic()
        return game

    def _locked(self, game_id: str) -> Game:
        """The game, its lock acquired (the caller releases it)."""
        while True:
            game = self.get(game_id)
            game.lock.acquire()
            if not game.evicted:
                return game
            game.lock.release()

    def new(self, **settings) -> Game:
        """A new game (``Table.new(**settings)``), saved before it is returned."""
        table = self.table.new(**settings)
        now = time.time()
        game = Game(id=new_id(), table=table, seq=0, created=now, updated=now,
                    settings=settings)
        self._save(game)
        with self._lock:
            self._games[game.id] = game
        self._trim(keep=game.id)
        return game

    def act(self, game_id: str, seq: int, action: dict) -> tuple[Game, dict]:
        """Apply ``action`` made at ``seq``; the new view. A stale ``seq`` is refused (409),
        an illegal action too (422, the law that forbids it); the game is unchanged then.
        A game that ends here is saved and dropped from memory."""
        game = self._locked(game_id)
        try:
            if seq != game.seq:
                raise StoreError(409, f"stale request: it was made at step {seq}, the game "
                                      f"is at step {game.seq} (reload the game)")
            try:
                view = game.table.act(action)
            except self.illegal as exc:
                law = getattr(exc, "law", None)
                reason = getattr(exc, "reason", None) or str(exc)
                raise StoreError(422, str(reason).splitlines()[0] if reason else
                                 "illegal action", law=None if law is None else str(law)) \
                    from None
            except Exception as exc:
                self._restore(game)
                if isinstance(exc, (ValueError, TypeError, KeyError)):
                    raise StoreError(400, f"bad action: {exc}".splitlines()[0]) from None
                raise StoreError(500, f"the game could not apply the action "
                                      f"({type(exc).__name__}); it is as it was") from None
            game.seq += 1
            game.updated = time.time()
            try:
                self._save(game)
            except Exception as exc:
                game.seq -= 1
                self._restore(game)
                raise StoreError(500, f"the game could not be saved ({type(exc).__name__}); "
                                      f"it is as it was") from None
            if game.over:
                self._evict(game)
            return game, view
        finally:
            game.lock.release()

    def _restore(self, game: Game) -> None:
        """Put the table back to its last saved record."""
        data = self._read(game.id)
        game.table = self.table.from_record(data["record"])
        game.seq = data["seq"]
        game.updated = data["updated"]

    def view(self, game_id: str) -> tuple[Game, dict]:
        game = self._locked(game_id)
        try:
            view = game.table.view()
            if game.over:
                self._evict(game)
            return game, view
        finally:
            game.lock.release()

    def hint(self, game_id: str) -> dict:
        """The table's hint for the person's pending decision (``Table.hint``); 422 when
        none is pending or the game has no hints."""
        game = self._locked(game_id)
        try:
            hint = getattr(game.table, "hint", None)
            if hint is None:
                raise StoreError(422, "this game gives no hints")
            try:
                return hint()
            except self.illegal as exc:
                raise StoreError(422, str(getattr(exc, "reason", exc)).splitlines()[0]) \
                    from None
        finally:
            game.lock.release()

    def record(self, game_id: str) -> dict:
        """The record as the person may see it (``Table.public_record``: mid-deal the
        computer's hand, discards, draws and the stock are unknown, and the seed until the
        game is over); the stored file keeps the whole record."""
        game = self._locked(game_id)
        try:
            public = getattr(game.table, "public_record", None)
            out = public() if public is not None else game.table.record()
            if game.over:
                self._evict(game)
            return out
        finally:
            game.lock.release()

    def list(self, ids=None) -> list[dict]:
        """The games of ``ids`` (None: every game) that the store holds, newest first: id,
        seq, created, updated, over, settings (no seed before the game is over) and the
        record's score and winner; from the index, the files not read."""
        with self._lock:
            rows = [dict(r) for k, r in self._index.items() if ids is None or k in ids]
        return sorted(rows, key=lambda g: g["updated"], reverse=True)


def new_id() -> str:
    """A new game's id: 128 random bits in 22 characters of base64url, the first a letter
    or a digit (an id is also a file name, and ``review -x.json`` would read as an
    option)."""
    while True:
        game_id = secrets.token_urlsafe(16)
        if game_id[0] not in "-_":
            return game_id
