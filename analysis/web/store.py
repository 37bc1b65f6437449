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
  saved: :class:`~ecarte_sim.analysis.practice.session.IllegalAction` leaves the table
  unchanged by contract; any other error (a bug, a failed write) reloads the game from its
  last saved record, so one game's error never touches the table in memory, nor another
  game.
* Writes: a temporary file in the store, flushed and fsynced, then ``os.replace`` — a
  reader (or a restart after Ctrl-C) sees the old record or the new one, never half of
  one. Temporary files left by a killed process are removed when the store opens.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ecarte_sim.analysis.practice.records import write_text_atomic

#: The stored game's format tag.
FORMAT = "ecarte-sim web game 1"
#: What an id looks like (secrets.token_urlsafe(16)).
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{22}$")
_TMP_PREFIX = ".tmp-"


class StoreError(Exception):
    """A request the store refuses: ``status`` (HTTP) and a one-line ``reason``."""

    def __init__(self, status: int, reason: str, law: str | None = None):
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.law = law


def default_dir() -> Path:
    """``$XDG_DATA_HOME/ecarte-sim/games`` (``~/.local/share/ecarte-sim/games``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "share")
    return Path(base) / "ecarte-sim" / "games"


def write_atomic(path: Path, data: dict) -> None:
    """Write ``data`` as JSON to ``path``: temporary file in the same directory, fsync,
    ``os.replace``."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, indent=1)
    write_text_atomic(path, text, prefix=_TMP_PREFIX, suffix=".json")


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

    def stored(self) -> dict:
        view = self.table.view()
        return {"format": FORMAT, "id": self.id, "seq": self.seq, "created": self.created,
                "updated": self.updated, "over": view.get("phase") == "game_over",
                "settings": self.settings, "record": self.table.record()}


class GameStore:
    """The games of one directory (module docstring). ``table`` is the game class:
    ``table.new(**settings)``, ``table.from_record(record)`` and, on an instance,
    ``view()``, ``act(action)``, ``record()``; ``illegal`` the exception ``act`` raises on
    an illegal action (with ``law`` and ``reason``)."""

    def __init__(self, root: str | os.PathLike, table: Any, illegal: type[Exception]):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.table = table
        self.illegal = illegal
        self._games: dict[str, Game] = {}
        self._lock = threading.Lock()
        for stale in self.root.glob(_TMP_PREFIX + "*"):
            try:
                stale.unlink()
            except OSError:
                pass

    # ------------------------------------------------------------------ files
    def _path(self, game_id: str) -> Path:
        if not isinstance(game_id, str) or not ID_PATTERN.match(game_id):
            raise StoreError(404, "no such game: an id is 22 letters, digits, - or _")
        return self.root / f"{game_id}.json"

    def _read(self, game_id: str) -> dict:
        path = self._path(game_id)
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except FileNotFoundError:
            raise StoreError(404, f"no such game: {game_id}") from None
        except (OSError, ValueError) as exc:
            raise StoreError(500, f"game {game_id} cannot be read: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise StoreError(500, f"game {game_id} is not a stored game ({FORMAT})")
        return data

    def _save(self, game: Game) -> None:
        write_atomic(self._path(game.id), game.stored())

    def _load(self, game_id: str) -> Game:
        data = self._read(game_id)
        try:
            table = self.table.from_record(data["record"])
        except Exception as exc:  # a record this version cannot restore
            raise StoreError(500, f"game {game_id} cannot be restored: "
                                  f"{type(exc).__name__}: {exc}".splitlines()[0]) from None
        return Game(id=game_id, table=table, seq=int(data["seq"]), created=data["created"],
                    updated=data["updated"], settings=data.get("settings", {}))

    # ------------------------------------------------------------------ games
    def get(self, game_id: str) -> Game:
        """The game in memory, loaded from its file the first time (after a restart)."""
        self._path(game_id)
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                game = self._games[game_id] = self._load(game_id)
            return game

    def new(self, **settings) -> Game:
        """A new game (``Table.new(**settings)``), saved before it is returned."""
        table = self.table.new(**settings)
        now = time.time()
        game = Game(id=secrets.token_urlsafe(16), table=table, seq=0, created=now,
                    updated=now, settings=settings)
        self._save(game)
        with self._lock:
            self._games[game.id] = game
        return game

    def act(self, game_id: str, seq: int, action: dict) -> tuple[Game, dict]:
        """Apply ``action`` made at ``seq``; the new view. A stale ``seq`` is refused (409),
        an illegal action too (422, the law that forbids it); the game is unchanged then."""
        game = self.get(game_id)
        with game.lock:
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
                raise StoreError(500, f"the game could not be saved ({exc}); it is as it "
                                      f"was".splitlines()[0]) from None
            return game, view

    def _restore(self, game: Game) -> None:
        """Put the table back to its last saved record."""
        data = self._read(game.id)
        game.table = self.table.from_record(data["record"])
        game.seq = int(data["seq"])
        game.updated = data["updated"]

    def view(self, game_id: str) -> tuple[Game, dict]:
        game = self.get(game_id)
        with game.lock:
            return game, game.table.view()

    def record(self, game_id: str) -> dict:
        """The record as the person may see it (``Table.public_record``: mid-deal the
        computer's hand, discards, draws and the stock are unknown); the stored file keeps
        the whole record."""
        game = self.get(game_id)
        with game.lock:
            public = getattr(game.table, "public_record", None)
            return public() if public is not None else game.table.record()

    def list(self) -> list[dict]:
        """The stored games, newest first: id, seq, created, updated, over, settings and
        the record's score and winner."""
        out = []
        for path in self.root.glob("*.json"):
            if path.name.startswith(_TMP_PREFIX) or not ID_PATTERN.match(path.stem):
                continue
            try:
                data = self._read(path.stem)
            except StoreError:
                continue
            record = data.get("record") if isinstance(data.get("record"), dict) else {}
            out.append({**{k: data.get(k) for k in ("id", "seq", "created", "updated", "over",
                                                    "settings")},
                        "score": record.get("score"), "winner": record.get("winner")})
        return sorted(out, key=lambda g: g["updated"] or 0, reverse=True)
