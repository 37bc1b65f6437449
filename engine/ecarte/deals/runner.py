"""Single whole deals from Python: :class:`DealRunner` owns the kernel's scratch and
returns each deal as a :class:`WholeDeal`, read from the record by field name."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ecarte_sim.engine.cards import N_CARDS
from ecarte_sim.engine.ecarte.deals.whole import inference_scratch, whole_deal
from ecarte_sim.engine.ecarte.decisions.policies import SCRIPT_LEN, empty_script
from ecarte_sim.engine.ecarte.records import MAX_EXCHANGES, PAYOFF, REC
from ecarte_sim.engine.ecarte.settings import CFG, make_cfg
from ecarte_sim.engine.rng import check_index_range, check_seed


@dataclass(frozen=True)
class WholeDeal:
    """One whole deal (field names as in ``ecarte_sim.engine.ecarte.reference.WholeDeal``):
    the record's fields, with ``exchanges`` as (elder out, elder in, dealer out, dealer in)
    masks per exchange and ``play`` the cards played, in order."""

    elder0: int
    dealer0: int
    turn_up: int
    king_turned: int
    ended: int
    first: int
    exchanges: tuple
    elder_hand: int
    dealer_hand: int
    king_elder: int
    king_dealer: int
    play: tuple
    elder_tricks: int
    points_elder: int
    points_dealer: int
    marks_elder: int
    marks_dealer: int
    how_ended: int = 0
    outcome: int = -1

    @classmethod
    def from_record(cls, rec: np.ndarray) -> "WholeDeal":
        fields = REC.read(rec)
        cards = fields["exchange_cards"]
        n = min(fields["exchanges"], MAX_EXCHANGES)
        fields["exchanges"] = tuple(cards[4 * x:4 * x + 4] for x in range(n))
        fields["play"] = () if fields["ended"] else tuple(c for c in fields["play"] if c >= 0)
        return cls(**{name: fields[name] for name in cls.__dataclass_fields__})


class DealRunner:
    """Scratch space for playing single deals from Python (one per thread)."""

    def __init__(self):
        self.perm = np.empty(N_CARDS, dtype=np.int64)
        self.draws = np.empty(N_CARDS, dtype=np.int64)
        self.pool = np.empty(N_CARDS, dtype=np.int64)
        self.payoff = np.zeros(PAYOFF.size, dtype=np.int64)
        self.rec = np.zeros(REC.size, dtype=np.int64)

    def play(self, seed: int, index: int, cfg: np.ndarray, script: np.ndarray | None = None
             ) -> WholeDeal:
        seed = check_seed(seed)
        check_index_range(index, int(index) + 1)
        if cfg.shape != (CFG.size,) or cfg.dtype != np.int64:
            raise ValueError("cfg must come from EcarteSettings.cfg()")
        if script is None:
            script = empty_script()
        elif script.ndim != 1 or script.shape[0] < SCRIPT_LEN or script.dtype != np.int64:
            raise ValueError(f"script must be {SCRIPT_LEN} int64 values, or more with "
                             "decision tables (see policies)")
        whole_deal(np.uint64(seed), np.uint64(index), cfg, script, self.rec, self.perm,
                   self.draws, self.pool, self.payoff, inference_scratch(cfg))
        return WholeDeal.from_record(self.rec)


def play_deal(seed: int, index: int, cfg: np.ndarray | None = None,
              script: np.ndarray | None = None) -> WholeDeal:
    """One whole deal (convenience; allocates scratch each call)."""
    return DealRunner().play(seed, index, make_cfg() if cfg is None else cfg, script)
