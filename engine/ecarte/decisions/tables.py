"""Decision tables by canonical state: the data of the table policy, built from any policy.

A *table* says, for every canonical first-decision state
(:mod:`ecarte_sim.engine.ecarte.decisions.states`), whether the elder proposes
(``ElderPolicy.TABLE``) or whether the dealer accepts (``DealerPolicy.TABLE``): a bool
array of ``N_STATES`` (the same at every score) or of ``(25, N_STATES)`` (row
``5 * elder's score + dealer's score``, the score before the deal). The kernels read it
from the ``script`` (:func:`policy_script`; layout in
:mod:`ecarte_sim.engine.ecarte.decisions.policies`), one bit per state.

:func:`treatise_table` writes any policy of the treatise as a table. A treatise policy
reads the hand and the trump suit alone and treats the plain suits alike, so its table
plays exactly as it does, deal for deal (tested on every (turn-up, hand) pair and on
whole deals).

A *discard table* (``Discard.TABLE``) says, for every state, which discard rule
(:data:`~ecarte_sim.engine.ecarte.decisions.policies.DISCARD_RULES`) the player follows when he
exchanges: an int array of ``Discard`` values, ``N_STATES`` or ``(25, N_STATES)``,
carried in the same script in 4 bits per state. A discard rule reads ranks and the
trump suit only, so a table filled with one rule plays as that rule.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ecarte_sim.engine.ecarte.decisions.policies import (DEALER_TABLE, DISCARD_RULES, DISCARD_WORDS,
                                                         ELDER_TABLE, S_DEALER_DISCARD,
                                                         S_ELDER_DISCARD, S_STATE_KEYS,
                                                         S_TABLE_ROWS, S_TABLES, SCORE_SLOTS,
                                                         SCRIPT_LEN, TABLE_WORDS, dealer_accepts,
                                                         discard_choice, elder_proposes,
                                                         empty_script)
from ecarte_sim.engine.ecarte.decisions.states import N_STATES, representatives, state_keys
from ecarte_sim.engine.ecarte.settings import (DEFAULT_THRESHOLD, DealerPolicy, Discard,
                                               ElderPolicy, member)

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


@njit(cache=True)
def _pack(rows, words, width, out, at):
    """Entry ``i`` of row ``r`` (a value below ``2 ** width``) into bits ``width * (i %
    per)`` up of word ``at + r * words + i // per`` of ``out`` (``per = 64 // width``
    entries a word, the rest of a row's last word zero)."""
    per = 64 // width
    n = rows.shape[1]
    for r in range(rows.shape[0]):
        for w in range(words):
            acc = np.uint64(0)
            i = w * per
            for b in range(min(per, n - i)):
                acc |= np.uint64(rows[r, i + b]) << np.uint64(width * b)
            out[at + r * words + w] = np.int64(acc)


@njit(cache=True)
def _all_allowed(rows, allowed):
    """Every entry of ``rows`` is an index of ``allowed`` where it holds True."""
    for r in range(rows.shape[0]):
        for i in range(rows.shape[1]):
            v = rows[r, i]
            if v < 0 or v >= allowed.shape[0] or not allowed[v]:
                return False
    return True


def _discard_rows(table, what: str) -> np.ndarray:
    if table is None:
        return np.full((1, N_STATES), int(Discard.TRUMPS_KINGS), dtype=np.int64)
    table = np.asarray(table)
    if table.dtype.kind not in "iu":
        raise ValueError(f"the {what} discard table must hold Discard rules (integers)")
    values = np.ascontiguousarray(table, dtype=np.int64)
    if not _all_allowed(values.reshape(1, -1), _ALLOWED):
        raise ValueError(f"the {what} discard table holds a value that is not a discard "
                         f"rule ({', '.join(str(int(r)) for r in DISCARD_RULES)})")
    if table.shape == (N_STATES,):
        return values[None, :]
    if table.shape == (SCORE_SLOTS, N_STATES):
        return values
    raise ValueError(f"the {what} discard table must have shape ({N_STATES},) or "
                     f"({SCORE_SLOTS}, {N_STATES}), not {table.shape}")


#: The discard rules a discard table may hold (by value); 4 bits each in the script.
_ALLOWED = np.zeros(16, dtype=np.bool_)
_ALLOWED[[int(r) for r in DISCARD_RULES]] = True


#: The later rounds' tables a script may carry (:func:`policy_script`'s ``later``).
LATER_KEYS = ("elder", "dealer", "elder_discard", "dealer_discard")


def _blocks(elder, dealer, elder_discard, dealer_discard):
    """The four tables as rows to pack: (rows per table, [(rows, words, width), ...])."""
    tables = [np.zeros(N_STATES, dtype=np.bool_) if t is None else t for t in (elder, dealer)]
    rows = [_rows(t, what) for t, what in zip(tables, ("elder", "dealer"))]
    discards = [_discard_rows(t, what) for t, what in zip((elder_discard, dealer_discard),
                                                          ("elder", "dealer"))]
    n = max(r.shape[0] for r in rows + discards)
    return n, [(rows[0], TABLE_WORDS, 1), (rows[1], TABLE_WORDS, 1),
               (discards[0], DISCARD_WORDS, 4), (discards[1], DISCARD_WORDS, 4)]


def _put(script, at, n, blocks) -> int:
    for r, words, width in blocks:
        _pack(np.ascontiguousarray(np.broadcast_to(r, (n, N_STATES))), words, width, script,
              at)
        at += n * words
    return at


def policy_script(elder=None, dealer=None, scripted: np.ndarray | None = None,
                  elder_discard=None, dealer_discard=None,
                  later: dict | None = None) -> np.ndarray:
    """A ``script`` carrying the elder's table (True = propose) and the dealer's
    (True = accept) for ``ElderPolicy.TABLE`` / ``DealerPolicy.TABLE``, and each one's
    discard table (``Discard`` rules) for ``Discard.TABLE``, after the ``scripted``
    values (``SCRIPT_LEN``; default: none, the priority in card order). A decision table
    left out is all False and a discard table left out is the treatise's
    ``trumps-kings`` (read only by a table policy); a table of one row is used at every
    score, and beside a by-score table it is repeated.

    ``later``: the tables of the rounds after the first exchange, by the keys of
    :data:`LATER_KEYS` (a key left out reads the first round's table there); without it
    the later rounds read the first round's tables (the script has no later block)."""
    n, blocks = _blocks(elder, dealer, elder_discard, dealer_discard)
    m, later_blocks = 0, []
    if later is not None:
        unknown = set(later) - set(LATER_KEYS)
        if unknown:
            raise ValueError(f"unknown later table {sorted(unknown)[0]!r}; choose from "
                             f"{', '.join(LATER_KEYS)}")
        first = dict(zip(LATER_KEYS, (elder, dealer, elder_discard, dealer_discard)))
        m, later_blocks = _blocks(*(later.get(k, first[k]) if later.get(k) is not None
                                    else first[k] for k in LATER_KEYS))
    size = S_TABLES + 2 * n * (TABLE_WORDS + DISCARD_WORDS)
    if later is not None:
        size += 1 + 2 * m * (TABLE_WORDS + DISCARD_WORDS)
    script = np.zeros(size, dtype=np.int64)
    script[:SCRIPT_LEN] = empty_script() if scripted is None else scripted
    script[S_TABLE_ROWS] = n
    script[S_STATE_KEYS:S_TABLES] = state_keys()
    at = _put(script, S_TABLES, n, blocks)
    if later is not None:
        script[at] = m
        _put(script, at + 1, m, later_blocks)
    return script


def _start(script: np.ndarray, later: bool) -> tuple[int, int]:
    """(first word of the first or the later tables, their rows per table)."""
    if script.shape[0] <= SCRIPT_LEN:
        raise ValueError("this script carries no tables")
    n = int(script[S_TABLE_ROWS])
    if not later:
        return S_TABLES, n
    at = S_TABLES + 2 * n * (TABLE_WORDS + DISCARD_WORDS)
    if script.shape[0] <= at:
        raise ValueError("this script carries no later tables")
    return at + 1, int(script[at])


def table_rows(script: np.ndarray, role: str, later: bool = False) -> np.ndarray:
    """The ``role``'s table carried by ``script`` as bool rows (1 or 25, ``N_STATES``):
    the inverse of :func:`policy_script` (``later``: the later rounds' table)."""
    table = ROLES[role][0]
    start, n = _start(script, later)
    words = script[start:start + 2 * n * TABLE_WORDS].reshape(2, n, TABLE_WORDS)
    words = words[table].view(np.uint64)
    bits = (words[:, :, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    return bits.reshape(n, TABLE_WORDS * 64)[:, :N_STATES].astype(np.bool_)


def discard_rows(script: np.ndarray, role: str, later: bool = False) -> np.ndarray:
    """The ``role``'s discard table carried by ``script`` (int rows of ``Discard``
    values, 1 or 25 by ``N_STATES``): the inverse of :func:`policy_script` (``later``:
    the later rounds' table)."""
    table = ROLES[role][0]
    start, n = _start(script, later)
    start += 2 * n * TABLE_WORDS
    words = script[start:start + 2 * n * DISCARD_WORDS].reshape(2, n, DISCARD_WORDS)
    words = words[table].view(np.uint64)
    shifts = np.uint64(4) * np.arange(16, dtype=np.uint64)
    nibbles = (words[:, :, None] >> shifts) & np.uint64(15)
    return nibbles.reshape(n, DISCARD_WORDS * 16)[:, :N_STATES].astype(np.int64)


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


@njit(cache=True)
def discard_each(script_row, policy, hands, turn_ups, script, slot, out):
    """``out[i]``: the cards ``policy`` discards from ``hands[i]`` with ``turn_ups[i]``
    turned up, at score ``slot`` — the kernels' own :func:`discard_choice`, round 0."""
    for i in range(hands.shape[0]):
        out[i] = discard_choice(policy, hands[i], turn_ups[i] >> 3, 0, script, script_row,
                                turn_ups[i], slot)


def discards(role: str, policy, hands, turn_ups, script: np.ndarray | None = None,
             slot: int = 0) -> np.ndarray:
    """The cards (uint32 masks) a discard policy (a ``Discard`` member or its name)
    throws on many (hand, turn-up) pairs, before Law 38 or the elder's minimum of one;
    ``script`` carries the discard tables of ``Discard.TABLE``."""
    policy = member(Discard, policy, "discard policy")
    if script is None:
        script = policy_script() if policy == Discard.TABLE else empty_script()
    hands = np.asarray(hands, dtype=np.uint32)
    out = np.zeros(hands.shape[0], dtype=np.uint32)
    row = S_ELDER_DISCARD if ROLES[role][0] == ELDER_TABLE else S_DEALER_DISCARD
    discard_each(row, int(policy), hands, np.asarray(turn_ups, dtype=np.int64), script,
                 int(slot), out)
    return out


def treatise_table(role: str, policy, threshold: int = DEFAULT_THRESHOLD) -> np.ndarray:
    """The table (bool, ``N_STATES``) of a treatise policy: its decision on each state's
    representative (every member of a state gets the same, module docstring)."""
    hands, turn_ups = representatives()
    return decisions(role, policy, hands, turn_ups, threshold=threshold)


__all__ = ["ROLES", "LATER_KEYS", "policy_script", "table_rows", "discard_rows", "decisions", "discards",
           "treatise_table"]
