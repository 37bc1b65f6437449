"""ecarte-sim engine: bit-packed numba kernels for the 32-card games.

``engine.cards`` and ``engine.rng`` are game-agnostic; each game lives in its
own sub-package (``engine.ecarte``; ``engine.piquet`` to come) with the fast
kernels and a slow pure-Python reference of its rules side by side.
"""
