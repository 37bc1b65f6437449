"""Python layer over the Piquet kernels: one deal from given cards, its record by name."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ecarte_sim.engine.cards import N_CARDS, PIQUET, CardError, cards_of, format_cards, format_hand
from ecarte_sim.engine.piquet.deal import STOCK_SIZE, PiquetDeal, deal
from ecarte_sim.engine.piquet.records import N_SEATS, REC, SCORE, SCRATCH, STATE
from ecarte_sim.engine.piquet.settings import CFG, MAX_ELDER_TAKE, PiquetSettings
from ecarte_sim.engine.piquet.whole import new_solver_scratch, play_dealt, uses_solver


@dataclass(frozen=True)
class DealRecord:
    """What a kernel did with one deal: the fields of ``REC``, each seat's ``SCORE`` as
    a dict."""

    elder_dealt: int
    younger_dealt: int
    stock: tuple[int, ...]
    elder_discard: int
    younger_discard: int
    elder_hand: int
    younger_hand: int
    plays: tuple[int, ...]
    elder: dict
    younger: dict

    @classmethod
    def from_record(cls, rec: np.ndarray) -> "DealRecord":
        fields = REC.read(rec)
        for seat in ("elder", "younger"):
            fields[seat] = dict(zip(SCORE.fields, fields[seat]))
        return cls(**fields)

    def as_dict(self) -> dict:
        return {"elder_dealt": format_hand(self.elder_dealt, PIQUET),
                "younger_dealt": format_hand(self.younger_dealt, PIQUET),
                "stock": format_cards(self.stock, PIQUET),
                "elder_discard": format_hand(self.elder_discard, PIQUET),
                "younger_discard": format_hand(self.younger_discard, PIQUET),
                "plays": format_cards(self.plays, PIQUET),
                "elder": self.elder, "younger": self.younger}


def check_discard(name: str, discard: int, hand: int, low: int, high: int) -> None:
    """A discard is ``low``..``high`` cards of the dealt hand (Laws 21-22, 34)."""
    stray = discard & ~hand
    if stray:
        token = format_hand(stray, PIQUET).split()[0]
        raise CardError(f"{name} discard: {token!r} is not in the {name} hand", token)
    n = len(cards_of(discard))
    if not low <= n <= high:
        raise CardError(f"{name} discard has {n} cards; {name} discards {low} to {high}",
                        format_hand(discard, PIQUET))


def play_one(the_deal: PiquetDeal, cfg: np.ndarray | None = None, seed: int = 0,
             index: int = 0, elder_discard: int = 0, younger_discard: int = 0) -> DealRecord:
    """Play one deal through the kernel under ``cfg`` (default: ``PiquetSettings().cfg()``);
    given discards (masks) override the players'."""
    cfg = PiquetSettings().cfg() if cfg is None else cfg
    if elder_discard:
        check_discard("elder", elder_discard, the_deal.elder, 1, MAX_ELDER_TAKE)
    if younger_discard:
        # The elder's discard is given, or his player discards exactly his take.
        taken = len(cards_of(elder_discard)) if elder_discard else int(cfg[CFG.at.ELDER_TAKE])
        check_discard("younger", younger_discard, the_deal.younger, 1, STOCK_SIZE - taken)
    rec = np.zeros(REC.size, dtype=np.int64)
    script = np.array([elder_discard, younger_discard], dtype=np.int64)
    stock = np.array(the_deal.stock, dtype=np.int64)
    values = np.zeros(N_CARDS, dtype=np.int64)
    draws = np.zeros(N_CARDS, dtype=np.int64)
    totals = np.zeros(SCRATCH.size, dtype=np.int64)
    state = np.zeros((STATE.size, N_SEATS), dtype=np.uint32)
    table, ws = new_solver_scratch(uses_solver(cfg))
    play_dealt(np.uint64(seed), np.uint64(index), cfg, script, rec, np.uint32(the_deal.elder),
               np.uint32(the_deal.younger), stock, values, draws, totals, state, table, ws)
    return DealRecord.from_record(rec)


def simulate_one(seed: int, index: int, cfg: np.ndarray | None = None) -> DealRecord:
    """Deal ``index`` of ``seed`` as the batch kernels play it."""
    return play_one(deal(seed, index), cfg, seed, index)


__all__ = ["DealRecord", "play_one", "simulate_one", "check_discard"]
