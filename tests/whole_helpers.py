"""Scripts shared by the whole-deal tests (kernel and reference driven alike)."""

from __future__ import annotations

import numpy as np

from ecarte_sim.engine.ecarte import reference as R
from ecarte_sim.engine.ecarte.decisions import policies as P


def random_script(rng: np.random.Generator) -> R.Script:
    """Decisions that reach every branch: refuse first, accept then refuse, long runs of
    proposals that exhaust the stock, empty and oversized discards."""
    style = rng.integers(0, 4)
    p_propose = (0.3, 0.8, 1.0, 0.6)[style]
    p_accept = (0.5, 0.9, 1.0, 0.7)[style]
    def mask():
        kind = rng.integers(0, 4)
        if kind == 0:
            return 0
        if kind == 1:
            return (1 << 32) - 1
        return int(rng.integers(0, 1 << 32))
    return R.Script(tuple(int(x) for x in rng.random(24) < p_propose),
                    tuple(mask() for _ in range(24)),
                    tuple(int(x) for x in rng.random(24) < p_accept),
                    tuple(mask() for _ in range(24)),
                    tuple(int(c) for c in rng.permutation(32)))


def kernel_script(s: R.Script) -> np.ndarray:
    out = np.zeros(P.SCRIPT_LEN, dtype=np.int64)
    out[P.S_ELDER_PROPOSE:P.S_ELDER_PROPOSE + 24] = s.elder_propose
    out[P.S_ELDER_DISCARD:P.S_ELDER_DISCARD + 24] = s.elder_discard
    out[P.S_DEALER_ACCEPT:P.S_DEALER_ACCEPT + 24] = s.dealer_accept
    out[P.S_DEALER_DISCARD:P.S_DEALER_DISCARD + 24] = s.dealer_discard
    out[P.S_PRIORITY:P.S_PRIORITY + 32] = s.priority
    return out
