"""A game of five up as a record, reviewed: :func:`review` — the front door of
``ecarte-sim review FILE``. The record (``docs/records.md``) is read
(:mod:`ecarte_sim.analysis.practice.records`), checked against the laws
(:func:`ecarte_sim.analysis.practice.laws.check`) and, when it keeps them, annotated by
the coach (:func:`ecarte_sim.analysis.practice.coach.review`). The practice table's store
keeps its games as records through the same module: the format tag of a stored game,
:data:`STORED_GAME_FORMAT`, and :func:`write_text_atomic` (a file replaced whole or not at
all), re-exported here.

>>> r = review(EXAMPLE, coach=False)
>>> r.legal, r.to_dict()["players"], r.to_dict()["deals"]
(True, ['A', 'Y'], 5)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ecarte_sim.analysis.practice.records import (STORED_GAME_FORMAT, RecordError, load,
                                                  write_text_atomic)

#: The treatise's worked game between A and Y as a record, shipped with the package.
EXAMPLE = Path(__file__).resolve().parent.parent / "analysis" / "practice" / "examples" \
    / "treatise_a_y.json"

__all__ = ["EXAMPLE", "STORED_GAME_FORMAT", "PlayerError", "RecordError", "Review", "review",
           "write_text_atomic"]


class PlayerError(ValueError):
    """A player to grade whom the record does not name: ``str()`` names him and the
    record's players."""


@dataclass(frozen=True)
class Review:
    """A record reviewed (:func:`review`): ``file`` (as given), the ``record`` read,
    ``breaches`` (each ``(law, reason)``; none when the record keeps the laws) and the
    coach's annotation ``coach`` (None when not asked for or not available; ``{"error":
    ...}`` when it was not run or failed). :meth:`to_dict` is what ``ecarte-sim review
    --json`` prints."""
    file: str
    record: dict
    breaches: list
    coach: dict | None

    @property
    def legal(self) -> bool:
        return not self.breaches

    def to_dict(self) -> dict:
        record = self.record
        return {"file": self.file, "players": record["players"],
                "deals": len(record["deals"]), "score": record["score"],
                "winner": record.get("winner"), "legal": self.legal,
                "breaches": [{"law": law, "reason": reason} for law, reason in self.breaches],
                "coach": self.coach}


def _coach_review(record: dict, breaches: list, players=None) -> dict | None:
    """The coach's annotation (``coach.review``) of a record that keeps the laws; for one
    that breaks them, ``{"error": ...}`` saying the coach was not run (an impossible
    game has nothing to grade against). A coach's failure on a legal record is its own
    line, never the exit code."""
    if breaches:
        return {"error": "not run: the record breaks the laws (above), and an impossible "
                         "game cannot be graded"}
    try:
        from ecarte_sim.analysis.practice import coach
    except ImportError:
        return None
    fn = getattr(coach, "review", None)
    if fn is None:
        return None
    try:
        return fn(record, players=players) if players else fn(record)
    except Exception as exc:     # a bug of the coach's: said, not a law's breach
        return {"error": f"could not annotate this record ({exc.__class__.__name__}: "
                         f"{str(exc)[:160]})"}


def review(path: str | Path, *, coach: bool = True, players: list[str] | tuple = ()) -> Review:
    """The game record at ``path`` checked against the laws and, with ``coach``, annotated
    as the coach does for ``players`` (default: every player but the computer). The laws
    are checked first and alone: the coach is not run on a record that breaks one.
    :class:`RecordError` when ``path`` is not a record (its reason), :class:`PlayerError`
    when ``players`` names one the record does not."""
    from ecarte_sim.analysis.practice import laws

    record = load(path)
    breaches = laws.check(record)
    for p in players:
        if p not in record["players"]:
            raise PlayerError(f"{p!r}: the record's players are "
                              f"{' and '.join(record['players'])}")
    annotation = _coach_review(record, breaches, list(players) or None) if coach else None
    return Review(str(path), record, breaches, annotation)
