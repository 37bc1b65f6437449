"""Écarté: the Club Code laws as numba kernels, beside a plain pure-Python reference.

Rules and their contract
    ``rules_whole_deal.md`` — the whole deal step by step, with every reading of the
    laws; the kernel and the reference both implement it.

Settings and records (plain Python; the kernels read their enums as constants)
    :mod:`.settings` — every policy, play-model and variant id, ``EcarteSettings`` and
    the kernel's ``cfg`` layout. :mod:`.records` — the deal record ``rec``, the count
    columns and the codes they hold (Law 49, how the proposals ended, kings, points).

Kernels, from the cards up
    :mod:`.deal` — the deal (Laws 8, 10): hands, turn-up, stock in order.
    :mod:`.tricks` — legal replies and the trick's winner (Law 43).
    :mod:`.moves` — move generation for the search (legal and distinct cards, bit-parallel)
    and the sure-trick bounds.
    :mod:`.solver` — exact double-dummy search (tricks, point/vole, move values).
    :mod:`.regle` — the jeux de règle of Hoyle's list.
    :mod:`.policies` — propose, accept, discard (the treatise's advice).
    :mod:`.players` — the play models: dd, heuristic, PIMC (and scripted).
    :mod:`.whole` — one whole deal: kings, proposals and exchanges, play, marks
    (Laws 22–27, 38, 43, 47–49), into a ``rec``.

Drivers and Python faces
    :mod:`.runner` — single deals from Python (``DealRunner``, ``WholeDeal``).
    :mod:`.counts` — whole deals over a range of indices, summed into ``COUNTS``.
    :mod:`.simulate` — the cards alone (deal, solve) over a range, for benchmarks.
    :mod:`.experiments` — paired runs (each deal under two configurations) and deals
    around a fixed elder hand, sampled or enumerated.
    :mod:`.class_sampling` — paired runs within one class of deals (a rule of the list,
    a dealer's maxim): rejection sampling from the plain deal, at deal indices of its own.
    :mod:`.game` — a game of five up, deal by deal.

Reference
    :mod:`.reference` — slow, readable and independent: shares only the card parser.

What flows: ``EcarteSettings.cfg()`` → ``whole_deal(seed, index, cfg, ...)`` → ``rec`` →
``WholeDeal`` (one deal) or ``COUNTS`` (summed over a range) → :mod:`ecarte_sim.analysis`.
"""
