"""Écarté: the Club Code laws (seed 002) as numba kernels, plus a pure-Python reference.

* :mod:`engine.ecarte.deal` — the deal (Laws 8, 10): hands, turn-up, stock in order.
* :mod:`engine.ecarte.tricks` — legal replies and trick winner (Law 43).
* :mod:`engine.ecarte.solver` — exact double-dummy search.
* :mod:`engine.ecarte.simulate` — parallel batch driver with integer counts.
* :mod:`engine.ecarte.reference` — slow, readable, independent re-implementation.
"""
