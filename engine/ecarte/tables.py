"""Decision tables by canonical state: the data of the table policy, built from any policy.

A *table* says, for every canonical first-decision state
(:mod:`ecarte_sim.engine.ecarte.states`), whether the elder proposes
(``ElderPolicy.TABLE``) or whether the dealer accepts (``DealerPolicy.TABLE``): a bool
array of ``N_STATES`` (the same at every score) or of ``(25, N_STATES)`` (row
``5 * elder's score + dealer's score``, the score before the deal). The kernels read it
from the ``script`` (:func:`policy_script`; layout in
:mod:`ecarte_sim.engine.ecarte.policies`), one bit per state.

:func:`treatise_table` writes any policy of the treatise as a table. A treatise policy
reads the hand and the trump suit alone and treats the plain suits alike, so its table
plays exactly as it does, deal for deal (tested on every (turn-up, hand) pair and on
whole deals).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.ecarte.policies import (DEALER_TABLE, ELDER_TABLE, S_STATE_KEYS,
                                               S_TABLE_ROWS, S_TABLES, SCORE_SLOTS,
                                               SCRIPT_LEN, TABLE_WORDS, dealer_accepts,
                                               elder_proposes)
from ecarte_sim.engine.ecarte.runner import empty_script
from ecarte_sim.engine.ecarte.settings import (DEFAULT_THRESHOLD, DealerPolicy, ElderPolicy,
                                               member)
from ecarte_sim.engine.ecarte.states import N_STATES, representatives, state_keys

#: The two tables: who decides, and what a True entry means.
ROLES = {"elder": (ELDER_TABLE, "propose"), "dealer": (DEALER_TABLE, "accept")}


def _rows(table, what: str) -> np.ndarray:
    table = np.asarray(table)
    if table.dtype != np.bool_:
        raise ValueError(f"the {what} table must be bool (True = {ROLES[what][1]})")
    if table.shape == (N_STATES,):
        return table[None, :]
    if table.shape == (SCORE_SLOTS, N_STATES):
        return table
    raise ValueError(f"the {what} table must have shape ({N_STATES},) or "
                     f"({SCORE_SLOTS}, {N_STATES}), not {table.shape}")


def _packed(rows: np.ndarray) -> np.ndarray:
    """Bit ``i & 63`` of word ``i >> 6`` of each row = entry ``i`` (as int64 words)."""
    padded = np.zeros((rows.shape[0], TABLE_WORDS * 64), dtype=np.uint64)
    padded[:, :N_STATES] = rows
    bits = padded.reshape(rows.shape[0], TABLE_WORDS, 64) << np.arange(64, dtype=np.uint64)
    return np.bitwise_or.reduce(bits, axis=2).view(np.int64).ravel()


def policy_script(elder=None, dealer=None, scripted: np.ndarray | None = None) -> np.ndarray:
    """A ``script`` carrying the elder's table (True = propose) and the dealer's
    (True = accept) for ``ElderPolicy.TABLE`` / ``DealerPolicy.TABLE``, after the
    ``scripted`` values (``SCRIPT_LEN``; default: none, the priority in card order). A
    table left out is all False (read only by its table policy); a table of one row is
    used at every score, and beside a by-score table it is repeated."""
    tables = [np.zeros(N_STATES, dtype=np.bool_) if t is None else t for t in (elder, dealer)]
    rows = [_rows(t, what) for t, what in zip(tables, ("elder", "dealer"))]
    n = max(r.shape[0] for r in rows)
    rows = [np.broadcast_to(r, (n, N_STATES)) for r in rows]
    script = np.zeros(S_TABLES + 2 * n * TABLE_WORDS, dtype=np.int64)
    script[:SCRIPT_LEN] = empty_script() if scripted is None else scripted
    script[S_TABLE_ROWS] = n
    script[S_STATE_KEYS:S_TABLES] = state_keys()
    script[S_TABLES:] = np.concatenate([_packed(r) for r in rows])
    return script


def table_rows(script: np.ndarray, role: str) -> np.ndarray:
    """The ``role``'s table carried by ``script`` as bool rows (1 or 25, ``N_STATES``):
    the inverse of :func:`policy_script`."""
    table = ROLES[role][0]
    if script.shape[0] <= SCRIPT_LEN:
        raise ValueError("this script carries no tables")
    n = int(script[S_TABLE_ROWS])
    words = script[S_TABLES:].reshape(2, n, TABLE_WORDS)[table].view(np.uint64)
    bits = (words[:, :, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    return bits.reshape(n, TABLE_WORDS * 64)[:, :N_STATES].astype(np.bool_)


@njit(cache=True)
def decide(role_table, policy, threshold, hands, turn_ups, script, slot, out):
    """``out[i]``: the first decision (propose / accept) of ``policy`` for the player
    holding ``hands[i]`` with ``turn_ups[i]`` turned up, at score ``slot`` — the kernels'
    own :func:`elder_proposes` / :func:`dealer_accepts`, round 0."""
    for i in range(hands.shape[0]):
        trump = turn_ups[i] >> 3
        if role_table == ELDER_TABLE:
            out[i] = elder_proposes(policy, threshold, hands[i], trump, 0, script,
                                    turn_ups[i], slot)
        else:
            out[i] = dealer_accepts(policy, hands[i], trump, 0, script, turn_ups[i], slot)


def decisions(role: str, policy, hands, turn_ups, script: np.ndarray | None = None,
              threshold: int = DEFAULT_THRESHOLD, slot: int = 0) -> np.ndarray:
    """The first decisions (bool: propose for the elder, accept for the dealer) of a
    policy (an ``ElderPolicy``/``DealerPolicy`` member or its name) on many (hand,
    turn-up) pairs; ``script`` carries the tables of a table policy."""
    table, _ = ROLES[role]
    kind = ElderPolicy if role == "elder" else DealerPolicy
    policy = member(kind, policy, f"{role} policy")
    if script is None:
        script = policy_script() if policy == kind.TABLE else empty_script()
    hands = np.asarray(hands, dtype=np.uint32)
    out = np.zeros(hands.shape[0], dtype=np.bool_)
    decide(table, int(policy), int(threshold), hands, np.asarray(turn_ups, dtype=np.int64),
           script, int(slot), out)
    return out


def treatise_table(role: str, policy, threshold: int = DEFAULT_THRESHOLD) -> np.ndarray:
    """The table (bool, ``N_STATES``) of a treatise policy: its decision on each state's
    representative (every member of a state gets the same, module docstring)."""
    hands, turn_ups = representatives()
    return decisions(role, policy, hands, turn_ups, threshold=threshold)


__all__ = ["ROLES", "policy_script", "table_rows", "decisions", "treatise_table"]
