"""A run compiles the card players it uses: the pimc-inference player (the largest part of
the whole-deal kernel's compilation, about 40% of it) only when a player of the run infers.

The whole-deal kernels take ``infer`` (:func:`~ecarte_sim.engine.ecarte.deals.whole.inference_scratch`):
None when no player infers, and numba then leaves the inference player out of the compiled
kernel; the main job (``claims``: dd, heuristic, pimc) compiled 149 functions instead of
192 on an empty cache.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from ecarte_sim.engine.ecarte.decisions.policies import empty_script
from ecarte_sim.engine.ecarte.deals.whole import deal_scratch, inference_scratch, whole_deal
from ecarte_sim.engine.ecarte.settings import EcarteSettings
from helpers import BLOCKED

#: Counts a few deals of a play model in a fresh process and prints the functions numba
#: compiled (its compile events: a cache miss each).
PROBE = """
import json, sys
from numba.core import event
seen = []
class Seen(event.Listener):
    def on_start(self, ev):
        f = ev.data["dispatcher"].py_func
        seen.append(f"{f.__module__}.{f.__name__}")
    def on_end(self, ev):
        pass
event.register("numba:compile", Seen())
from ecarte_sim.engine.ecarte.deals.counts import whole_counts
from ecarte_sim.engine.ecarte.settings import EcarteSettings
whole_counts(0, 0, 8, EcarteSettings.build(play=sys.argv[1], worlds=2).cfg())
print(json.dumps(seen))
"""


def compiled(play: str, cache) -> list[str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", PROBE, play], capture_output=True, text=True,
                          env=env, timeout=BLOCKED)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.quick
def test_the_inference_scratch_is_there_only_for_a_player_who_infers():
    dd = EcarteSettings.build(play="dd").cfg()
    assert inference_scratch(dd) is None
    assert inference_scratch(dd, EcarteSettings.build(play="pimc").cfg()) is None
    assert inference_scratch(dd, EcarteSettings.build(dealer_play="pimc-inference").cfg()) \
        is not None
    assert inference_scratch(EcarteSettings.build(elder_play="pimc-inference").cfg()) is not None


def test_a_kernel_compiled_without_inference_refuses_a_player_who_infers():
    """A cfg asking for pimc-inference in a kernel compiled without it is an error, never
    another player in silence."""
    cfg = EcarteSettings.build(play="pimc-inference", worlds=2).cfg()
    perm, draws, pool, payoff, rec = deal_scratch()
    with pytest.raises(ValueError, match="pimc-inference"):
        whole_deal(np.uint64(0), np.uint64(0), cfg, empty_script(), rec, perm, draws, pool,
                   payoff, None)
    whole_deal(np.uint64(0), np.uint64(0), cfg, empty_script(), rec, perm, draws, pool,
               payoff, inference_scratch(cfg))


def test_a_run_without_a_player_who_infers_does_not_compile_the_inference_player(tmp_path):
    """On an empty cache, a PIMC run compiles the whole-deal kernel (every other player,
    PIMC's included) but nothing of :mod:`~ecarte_sim.engine.ecarte.play.inferred_worlds`."""
    seen = compiled("pimc", tmp_path / "numba-cache")
    assert any(f.endswith(".pimc_card") for f in seen)
    assert any(f.endswith(".heuristic_card") for f in seen)
    assert [f for f in seen if ".inferred_worlds." in f] == []
