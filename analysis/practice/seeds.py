"""Where the practice table's cards come from: each deal's seed, and a record's deals
checked against their seeds.

**Version 2** (records of ``version`` 2, the table's since issue 51). A game has a secret
*key* of :data:`KEY_BYTES` random bytes (a numbered game's is an HMAC of its number under
the store's secret, :meth:`ecarte_sim.apps.web.store.GameStore.key_for`). Deal ``n``
(1, 2, ...) is the engine's deal 0 of the seed :func:`deal_seed` ``(key, n)``: the first
eight bytes (big-endian) of HMAC-SHA256 of ``b"ecarte-sim deal\\0" + n`` under the key.
Who deals first (standing for the cut, Law 5) is a bit of another HMAC of the key
(:func:`first_dealer`). The record gives ``key_sha256`` (SHA-256 of the key) from the
start, each deal's ``seed`` once that deal is over (the deal replays bit for bit from
it) and the ``key`` once the game is over (every seed is then checked against it).

Why: the engine's generator (SplitMix64, :mod:`ecarte_sim.engine.rng`) is built for
simulation, not secrecy: its mixing is a bijection and a deal's 32 cards are read from
three of its words, so one finished deal's cards give its seed back (a few thousand
candidates for the first word, each checked against the second: see the tests). In
version 1 every deal of a game came from one seed, so the first finished deal told every
card of the deals to come. Now what deal ``n``'s cards give back is deal ``n``'s seed
alone; the next deal's seed is an HMAC under a key the player never sees before the game
is over, and HMAC-SHA256 is a pseudo-random function: its outputs for other inputs
cannot be computed or guessed from some of them without the key.

**Version 1** (older records, still read, reviewed and restored): deal ``n`` is the
engine's deal ``n - 1`` of the game's ``seed``; the first dealer is the top bit of a word
of the seed's stream that no deal uses.

* :func:`new_key`, :func:`parse_key`, :func:`key_from_seed`, :func:`key_sha256`,
  :func:`deal_seed`, :func:`first_dealer`, :func:`first_dealer_v1` — the schemes.
* :func:`deal_stream` — the engine's (seed, deal index) of a record's deal, either
  version (the computer's and the coach's worlds are drawn from it too).
* :func:`check_deals` — a record's deals against their seeds and key (``laws.check``
  names each mismatch, Laws 8, 10 or Law 14); pure Python (the engine's reference
  deal), nothing compiled.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

#: The length of a game's key (bytes); written as hex in a record.
KEY_BYTES = 32
_HEX_KEY = re.compile(r"^[0-9a-f]{64}$")


def new_key() -> str:
    """A fresh random key (hex)."""
    return secrets.token_hex(KEY_BYTES)


def parse_key(key) -> bytes:
    """A key as bytes, from bytes or its hex text; ValueError otherwise."""
    if isinstance(key, (bytes, bytearray)) and len(key) == KEY_BYTES:
        return bytes(key)
    if isinstance(key, str) and _HEX_KEY.match(key):
        return bytes.fromhex(key)
    raise ValueError(f"a game's key is {KEY_BYTES} bytes written as {2 * KEY_BYTES} "
                     f"lower-case hex digits")


def key_from_seed(seed: int) -> str:
    """A key made from an integer seed (tests, scripts, the warm-up): as secret as the
    seed is; the server never makes one this way."""
    from ecarte_sim.engine.rng import check_seed
    raw = check_seed(seed).to_bytes(8, "big")
    return hashlib.sha256(b"ecarte-sim table key\0" + raw).hexdigest()


def key_sha256(key) -> str:
    """The key's SHA-256 (hex): the record's commitment to the key, given from the
    start."""
    return hashlib.sha256(parse_key(key)).hexdigest()


def _mac(key, message: bytes) -> bytes:
    return hmac.new(parse_key(key), message, hashlib.sha256).digest()


def deal_seed(key, number: int) -> int:
    """Deal ``number``'s seed (1, 2, ...): the first eight bytes of HMAC-SHA256 of
    ``b"ecarte-sim deal\\0<number>"`` under the key, big-endian."""
    return int.from_bytes(_mac(key, b"ecarte-sim deal\0" + str(int(number)).encode())[:8],
                          "big")


def first_dealer(key) -> int:
    """Who deals first under ``key``: 0 the first player, 1 the second (the top bit of
    an HMAC of the key; Law 5's cut)."""
    return 0 if _mac(key, b"ecarte-sim first dealer")[0] >> 7 else 1


def first_dealer_v1(seed: int) -> int:
    """Version 1's first dealer: 0 when the top bit of the first word of the seed's last
    deal index's sub-stream (a word no deal uses) is set, else 1."""
    from ecarte_sim.engine.ecarte.reference import WORDS_PER_DEAL, splitmix64_output
    from ecarte_sim.engine.rng import MAX_DEAL_INDEX
    word = splitmix64_output(seed, (MAX_DEAL_INDEX - 1) * WORDS_PER_DEAL)
    return 0 if word >> 63 else 1


def version_of(record: dict) -> int:
    return 2 if record.get("version") == 2 else 1


def deal_stream(record: dict, deal: dict) -> tuple[int | None, int]:
    """(seed, index) of the engine's stream a record's deal comes from: version 2 the
    deal's own ``seed`` (None while not given) and its index (0); version 1 the game's
    ``seed`` and the deal's ``index`` (its number - 1 when not given)."""
    index = deal.get("index")
    if version_of(record) == 2:
        return deal.get("seed"), 0 if index is None else index
    return record.get("seed"), (deal.get("number", 1) - 1) if index is None else index


def _cards(xs) -> str:
    from ecarte_sim.engine.cards import format_card
    return " ".join(format_card(c) for c in sorted(xs))


def _against(record: dict, d: dict, seed: int, index: int, how: str) -> list:
    """The deal ``d`` of the record against the engine's deal ``index`` of ``seed``: the
    known cards of each hand, the turn-up and the stock must be that deal's."""
    from ecarte_sim.analysis.practice.records import UNKNOWN, card_value
    from ecarte_sim.engine.ecarte.reference import deal
    dealt = deal(seed, index)
    where = f"deal {d['number']}"
    wrong = []
    for player, cards in ((d["elder"], dealt.elder), (d["dealer"], dealt.dealer)):
        known = {card_value(c, "") for c in d["hands"][player] if c != UNKNOWN}
        if not known <= set(cards):
            wrong.append(f"{player}'s hand holds {_cards(known - set(cards))}")
    up = d["turn_up"]
    if up != UNKNOWN and card_value(up, "") != dealt.turn_up:
        wrong.append(f"the turn-up is {up}")
    stock = d.get("stock")
    if stock is not None and any(c != UNKNOWN and card_value(c, "") != s
                                 for c, s in zip(stock, dealt.stock)):
        wrong.append("the stock is in another order")
    if not wrong:
        return []
    return [("Laws 8, 10", f"{where}: its cards are not {how} ({'; '.join(wrong)}): "
                           f"they were not dealt from that pack")]


def check_deals(record: dict) -> list[tuple[str, str]]:
    """Every deal of a (shape-checked) record against the seed it names: ``(law,
    reason)`` for a deal whose known cards are not its seed's (Laws 8, 10), a deal seed
    that is not the key's HMAC, a key that is not the one committed to, a first dealer
    the key's cut did not name (Law 14). Deals whose seed is not given are skipped."""
    out = []
    players = record["players"]
    if version_of(record) == 2:
        key, committed = record.get("key"), record.get("key_sha256")
        if key is not None:
            if committed is not None and key_sha256(key) != committed:
                out.append(("Laws 8, 10", "the key is not the one the record committed to "
                                          "(its SHA-256 is not key_sha256): the deals could "
                                          "have been chosen after the game began"))
            cut = players[first_dealer(key)]
            if record.get("first_dealer") not in (None, cut):
                out.append(("Law 14", f"the first dealer is recorded as "
                                      f"{record['first_dealer']}, the key's cut names {cut}"))
        for d in record["deals"]:
            seed = d.get("seed")
            if key is not None:
                due = deal_seed(key, d["number"])
                if seed is not None and seed != due:
                    out.append(("Laws 8, 10", f"deal {d['number']}: its seed {seed} is not "
                                              f"the one the key gives ({due})"))
                    continue
                seed = due
            if record.get("table") is not None and d.get("index") not in (None, 0):
                out.append(("Laws 8, 10", f"deal {d['number']}: the record says it is deal "
                                          f"{d['index']} of its seed; the table deals each "
                                          f"deal as deal 0 of its own seed"))
                continue
            if seed is not None:
                out += _against(record, d, seed, d.get("index") or 0,
                                f"deal {d.get('index') or 0} of seed {seed}")
        return out
    seed = record.get("seed")
    if seed is None:
        return out
    cut = players[first_dealer_v1(seed)]
    if record.get("table") is not None and record.get("first_dealer") not in (None, cut):
        out.append(("Law 14", f"the first dealer is recorded as {record['first_dealer']}, "
                              f"the seed's cut names {cut}"))
    for d in record["deals"]:
        index = d.get("index")
        if record.get("table") is not None:       # the table dealt deal n as index n - 1
            if index not in (None, d["number"] - 1):
                out.append(("Laws 8, 10", f"deal {d['number']}: the record says it is deal "
                                          f"{index} of the seed; the table deals deal "
                                          f"{d['number']} as deal {d['number'] - 1}"))
                continue
            index = d["number"] - 1
        if index is not None:
            out += _against(record, d, seed, index, f"deal {index} of seed {seed}")
    return out


__all__ = ["KEY_BYTES", "new_key", "parse_key", "key_from_seed", "key_sha256", "deal_seed",
           "first_dealer", "first_dealer_v1", "deal_stream", "check_deals", "version_of"]
