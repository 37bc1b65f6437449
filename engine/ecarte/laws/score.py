"""The score before a deal (Law 46: five up, the first to five marks wins the game),
written ``E-D``, the elder's score first, each 0-4: parsed, checked, written and turned
into the kernels' index of a score here, once.

* :class:`Score` — the value: ``Score.parse("3-4")``, ``Score.of((3, 4))`` (text, a pair,
  or a score), its ``text`` (``"3-4"``) and its ``row`` (``5 * elder + dealer``, the row of
  a by-score table and of ``V``; the kernels' :func:`~..decisions.policies.score_slot`).
  A score is a pair: ``x, y = score`` and ``score == (3, 4)`` hold.
* :data:`SCORES` — the 25 scores of five up, 0-0 to 4-4, in row order, as plain pairs.

>>> s = Score.parse(" 3-4 ")
>>> s.text, s.row, tuple(s)
('3-4', 19, (3, 4))
>>> Score.of((4, 4)) == Score.from_row(24)
True
>>> Score.parse("5-0")
Traceback (most recent call last):
...
ValueError: bad score '5-0': write E-D, the elder's score first, each 0-4 (five up, Law 46; e.g. 3-4)
"""

from __future__ import annotations

from collections import namedtuple

#: Marks that win the game (Law 46: five up).
TARGET = 5

_HINT = f"write E-D, the elder's score first, each 0-{TARGET - 1} (five up, Law 46; e.g. 3-4)"


def _part(value) -> int | None:
    """``value`` as a score of one side (0..4), or None when it is not one."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        return None
    value = int(value.__index__())
    return value if 0 <= value < TARGET else None


class Score(namedtuple("Score", ("elder", "dealer"))):
    """The score before a deal: ``elder``'s marks, the ``dealer``'s (each 0-4, checked
    when it is made)."""

    __slots__ = ()

    def __new__(cls, elder: int, dealer: int):
        x, y = _part(elder), _part(dealer)
        if x is None or y is None:
            raise ValueError(f"bad score {elder!r}-{dealer!r}: {_HINT}")
        return super().__new__(cls, x, y)

    @classmethod
    def parse(cls, text: str) -> Score:
        """``"E-D"`` (``"E:D"`` too, spaces around either side); ``ValueError`` naming the
        text otherwise."""
        parts = str(text).strip().replace(":", "-").split("-")
        if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
            x, y = (_part(int(p)) for p in parts)
            if x is not None and y is not None:
                return cls(x, y)
        raise ValueError(f"bad score {text!r}: {_HINT}")

    @classmethod
    def of(cls, value) -> Score:
        """``value`` — a :class:`Score`, its text ``"E-D"``, or a pair ``(E, D)`` of
        integers — as a :class:`Score`; ``ValueError`` naming it otherwise."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, (tuple, list)) and len(value) == 2:
            x, y = (_part(v) for v in value)
            if x is not None and y is not None:
                return cls(x, y)
        raise ValueError(f"bad score {value!r}: give (E, D) or 'E-D', the elder's score "
                         f"first, each 0-{TARGET - 1} (five up, Law 46; e.g. (3, 4))")

    @classmethod
    def from_row(cls, row: int) -> Score:
        """The score of a by-score table's ``row`` (:attr:`row`)."""
        if not 0 <= int(row) < TARGET * TARGET:
            raise ValueError(f"a score's row is 0..{TARGET * TARGET - 1}, not {row!r}")
        return cls(*divmod(int(row), TARGET))

    @property
    def text(self) -> str:
        """``"E-D"``, as the command line writes it."""
        return f"{self.elder}-{self.dealer}"

    @property
    def pair(self) -> tuple[int, int]:
        """``(E, D)`` as a plain tuple (what the library's tables and tasks take: a task's
        content key names its parameters' types)."""
        return (int(self.elder), int(self.dealer))

    @property
    def row(self) -> int:
        """The row of a by-score table (the strategy's tables, ``V``): ``5 * E + D``."""
        return score_row(self.elder, self.dealer)


def score_row(elder: int, dealer: int) -> int:
    """The row of the score (``elder``, ``dealer``) in a by-score table: ``5 * E + D``
    (the kernels read the same row with :func:`~..decisions.policies.score_slot`)."""
    return TARGET * int(elder) + int(dealer)


#: The 25 scores of five up as plain pairs (the library's tables and tasks take pairs), in
#: row order (0-0, 0-1, ..., 4-4).
SCORES = tuple((x, y) for x in range(TARGET) for y in range(TARGET))
