"""Named record layouts: an int64 array declared once as ordered fields with widths.

A kernel writes what it found into a flat int64 array (a deal's record, a row of
counts, a block of scratch). Its layout is declared once, as an ordered list of
``(name, width)`` fields; everything else follows from that list:

* ``layout.at`` — an :class:`enum.IntEnum` of the fields' offsets, upper-case
  (``REC.at.TURN_UP``). numba reads ``IntEnum`` members as compile-time
  constants, so kernels index with them directly: ``rec[R.TURN_UP] = turn_up``,
  ``rec[R.PLAY + j]``.
* ``layout.size`` — the array's length; ``layout.slice(name)`` a field's place.
* ``layout.read(array)`` — the named view: ``{name: int}`` for a field of width
  one, ``{name: tuple of ints}`` otherwise, in declaration order; the record
  classes of the games build themselves from it.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:       # the arrays are numpy's; a layout itself needs no numpy
    import numpy as np


class Layout:
    """An ordered list of named int64 fields (see the module docstring)."""

    def __init__(self, name: str, fields: list[tuple[str, int]]):
        offsets, self._widths, offset = {}, {}, 0
        for field, width in fields:
            if field in self._widths or width < 1:
                raise ValueError(f"{name}: field {field!r} repeated or of width {width}")
            offsets[field.upper()] = offset
            self._widths[field] = width
            offset += width
        self.name = name
        self.size = offset
        self.at = IntEnum(name, offsets)

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(self._widths)

    def offset(self, field: str) -> int:
        return int(self.at[field.upper()])

    def slice(self, field: str) -> slice:
        lo = self.offset(field)
        return slice(lo, lo + self._widths[field])

    def read(self, array: np.ndarray) -> dict:
        """The named view of ``array``: plain ints, and tuples of ints for wide fields."""
        if array.shape[-1] != self.size:
            raise ValueError(f"{self.name}: expected {self.size} values, got {array.shape[-1]}")
        out = {}
        for field, width in self._widths.items():
            lo = self.offset(field)
            out[field] = int(array[lo]) if width == 1 else tuple(
                int(x) for x in array[lo:lo + width])
        return out

    def __repr__(self) -> str:
        return f"Layout({self.name!r}, size {self.size})"
