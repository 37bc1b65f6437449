"""Piquet: the Laws of Piquet (seed 003) as numba kernels, plus a pure-Python reference (rules.md)."""
