"""The first decisions: propose, accept, discard, as the treatise gives them and by
canonical state (imports :mod:`..laws` and :mod:`..search`).

* :mod:`.regle` — the jeux de règle of Hoyle's list, with numpy alone: which rules a
  hand meets and the nearest it misses; :mod:`.regle_kernel` — its verdict as a numba
  kernel for the simulators.
* :mod:`.foster` — the jeux de règle by the book's definition, computed: one first lead
  wins the point double dummy against every dealer hand with at most one trump.
* :mod:`.canonical` — one state's index counted without numba; :mod:`.states` —
  canonical first-decision states (five cards and the turn-up, the plain suits
  interchangeable) with a dense index.
* :mod:`.policies` — propose, accept, discard (the treatise's advice), and the
  ``script`` layout (decisions given to the kernels, ``empty_script``).
* :mod:`.tables` — decision tables by state (and score) for the table policy, built
  from any policy.
"""
