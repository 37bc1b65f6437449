"""Each card's value with the player's own play after it, and the regret of his card,
position by position (issue 53).

``ecarte-sim cards`` and the coach value a card as the inferring player sees it: in each
of his worlds (the adversary's hands he draws), double dummy from the card on. That credits
him with seeing every card after this one (*strategy fusion*: Long, Sturtevant, Buro and
Furtak, AAAI-10). What the card is worth is its value when the play after it is the
player's own, on both sides:

* **the worlds**: the adversary's hands the player's inference weighs, from his seat — every
  hand that agrees with what was said under the decision model (his hand never changed:
  each as likely, :func:`~ecarte_sim.analysis.ecarte.play.exploit_setup.opponent_hands`),
  or after an exchange a sample of his histories as dealt (each as likely,
  :func:`~ecarte_sim.engine.ecarte.play.keyed.exchange_histories`), that hold the cards he
  has played and none Law 43 has shown he has not (a suit not followed, a trump not played
  when void, a card not played that would have won); for ``pimc-king`` also as the king's
  announcement says (Laws 23-24: after his first card, announced he holds it; not, he has
  not it, the engine's players always announcing). Every such hand when they number at
  most ``cap`` (*exact*), else a uniform sample of ``cap`` (a stated resolution, with paired
  95% intervals over the worlds);
* **the play after the card**: the player's own on both sides, keyed by each side's
  information and a seed (:class:`~ecarte_sim.analysis.ecarte.play.exploit_setup.Engine`:
  a strategy, as the best response's opponent), the deal's marks from the play (the point
  1, the vole 2, Law 49's doubling; the kings, the same whichever card, left out).

The **regret** of the player's card is the best card's value minus his card's;
*another card better beyond its interval* when the paired 95% interval of the best other
card's advantage lies above zero (exact worlds: any advantage). With sampled worlds the best
of several means is biased up, so the *split-half* regret is given beside it (the best card
chosen on half the worlds, its advantage measured on the other half: no such bias).

* :func:`position_values` — one position (``cards --continuation``).
* :func:`sample_positions` — positions of held-out deals, by history (the elder played,
  proposed and was refused, or one exchange), trick and seat.
* :func:`measure` — the players' regrets over the positions, and how far the printed
  values (``cards``, the coach: double dummy over the player's worlds) are from the
  measured ones (``ecarte-sim card-regret``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ecarte_sim.analysis.stats.intervals import Z95_ROUNDED, mean_ci, wilson_interval
from ecarte_sim.engine.ecarte.settings import card_players

#: The players measured and their worlds: ``pimc-king`` at the table's W, the engine's
#: ``pimc-inference`` at 64.
PLAYERS = card_players("regret")
#: The situations a position's play starts from (as :mod:`.exploitability`'s strata).
KINDS = ("play", "propose,refuse", "exchange")
FULL = 0xFFFFFFFF


# ----------------------------------------------------------------------------- one position

def _setup(p, player: str, worlds: int, decisions: str):
    """The exploit setup of the mover's information at position ``p`` (a
    :class:`~ecarte_sim.analysis.ecarte.play.card_advice.Position`): his hand at the first
    card, what was said, his discards and the adversary's counts."""
    from ecarte_sim.analysis.ecarte.play.exploit_setup import Setup
    from ecarte_sim.engine.ecarte.records import ProposalsEnd
    said = ",".join(p.said)
    rounds = tuple((out, 0, k) for out, k in p.discards)
    if p.how_ended == ProposalsEnd.STOCK_EXHAUSTED:
        raise ValueError("the stock is exhausted: not supported (as the best response)")
    thrown = 0
    for out, _, _ in rounds:
        thrown |= out
    return Setup(p.role, p.mover, p.start, p.turn_up, said, p.first, player, int(worlds),
                 tuple(p.score), decisions, True, len(rounds), thrown, 0,
                 sum(k for _, _, k in rounds), rounds)


def _evidence(s, p) -> tuple[int, int]:
    """(the cards the adversary has played, the cards Law 43 proves he has not)."""
    from ecarte_sim.engine.ecarte.laws.position import START, after, to_play
    from ecarte_sim.engine.ecarte.play.players import reveal
    shown = never = 0
    state = START
    for c in p.played:
        who = to_play(state)
        led = state[2]
        if who != p.mover:
            shown |= 1 << c
            if led >= 0:
                never = int(reveal(np.uint32(never), led, c, s.trump, True))
        state = after(state, c, s.trump)
    return shown, never & ~shown


def worlds_of(s, p, cap: int, seed: int, king: bool, concealing: int = 0):
    """The adversary's hands the mover's inference weighs at ``p`` (module docstring):
    (items: his hand at the first card, after an exchange with his discards in the high
    32 bits; their weights; whether they are every such hand; how many there are, or the
    histories drawn). ``king``: the worlds read the adversary's announcement (told in
    ``p.adversary_king``; None: not read)."""
    from ecarte_sim.analysis.ecarte.play.exploit_setup import (Engine, MAX_HISTORY_TRIALS,
                                                               opponent_hands, uniform_sample)
    from ecarte_sim.engine.ecarte.play.keyed import exchange_histories
    from ecarte_sim.engine.rng import MASK64
    shown, never = _evidence(s, p)
    k = 1 << s.king
    must = shown
    weight_k = 1000
    read = king and shown and s.king_open and p.adversary_king is not None
    if read and p.adversary_king:
        must |= k
    elif read and concealing <= 0:
        never |= k
    elif read:
        weight_k = int(concealing)
    if s.exchanges:
        eng = Engine(s)
        pool = np.array([c for c in range(32) if not s.seen >> c & 1], dtype=np.int64)
        out = np.zeros(cap, dtype=np.uint64)
        got, trials = exchange_histories(np.uint64(seed & MASK64), s.opponent, eng.cfg,
                                         eng.script, s.turn_up, pool,
                                         np.array(s.counts(0), dtype=np.int64),
                                         np.array(s.counts(1), dtype=np.int64),
                                         s.final_refused, out, MAX_HISTORY_TRIALS,
                                         np.uint32(must), np.uint32(never))
        items = sorted(int(x) for x in out[:got])
        every, total = False, int(got)
    else:
        items = [h for h in opponent_hands(s)
                 if h & must == must and not h & never]
        total = len(items)
        every = total <= cap
        if not every:
            items = sorted(uniform_sample(items, cap, seed))
    weights = np.array([weight_k if h & k and not must & k else 1000 for h in items],
                       dtype=np.float64)
    return items, weights, every, total


def _continuation(s, items: list[int], seed: int):
    """For each legal card of the mover at the end of ``s``'s history (the cards already
    played, the mover to play): the deal's marks for him in each world of ``items`` when
    he plays it and both sides then play the model keyed by their information and
    ``seed``; and the model's own card there. The worlds are searched by the adversary's
    announcement of the king (his hands holding it apart), as the best response does."""
    from ecarte_sim.analysis.ecarte.play.exploit_setup import king_groups
    from ecarte_sim.engine.ecarte.deals.whole import outcome_of, points_for
    from ecarte_sim.engine.ecarte.laws.position import after
    from ecarte_sim.engine.ecarte.search.moves import legal_moves
    history, state, own_played = s.history, s.state, s.own_played
    sign = 1 if s.responder == 0 else -1
    points = [sign * (a - b) for a, b in (points_for(outcome_of(t), s.first) for t in range(6))]
    legal = int(legal_moves(np.uint32(s.hand & ~own_played), state[2], s.trump, True))
    cards = [c for c in range(32) if legal >> c & 1]
    values = {c: np.zeros(len(items)) for c in cards}
    index = {h: i for i, h in enumerate(items)}
    mine = None
    for flag, group in king_groups(s.setup, items):
        eng = s.engine(replace(s.setup, opponent_king=flag))
        if mine is None:
            mine = eng.card(s.responder, s.setup.item, history, seed)

        def run(hands, hist, st, op, eng=eng):
            leader, tricks, led, n = st
            if n == 10:
                return [points[tricks]] * len(hands)
            mover = leader if led < 0 else 1 - leader
            if mover == s.responder:
                lg = int(legal_moves(np.uint32(s.hand & ~op), led, s.trump, True))
                c = lg.bit_length() - 1 if lg & (lg - 1) == 0 else \
                    eng.card(s.responder, s.setup.item, hist, seed)
                return run(hands, hist + (c,), after(st, c, s.trump), op | 1 << c)
            groups: dict[int, list] = {}
            for k, c in enumerate(eng.cards(s.opponent, hands, hist, seed)):
                groups.setdefault(c, []).append(k)
            out = [0] * len(hands)
            for c, ks in groups.items():
                vs = run([hands[k] for k in ks], hist + (c,), after(st, c, s.trump), op)
                for k, v in zip(ks, vs):
                    out[k] = v
            return out

        for c in cards:
            vs = run(group, history + (c,), after(state, c, s.trump), own_played | 1 << c)
            for h, v in zip(group, vs):
                values[c][index[h]] = v
    return values, mine


def _dd_values(s, items: list[int]) -> dict:
    """Each legal card's marks for the mover in each world, double dummy from the card on
    (the values ``cards`` prints, over these worlds)."""
    from ecarte_sim.engine.ecarte.deals.whole import outcome_of, points_for
    from ecarte_sim.engine.ecarte.play.players import outcome_after
    from ecarte_sim.engine.ecarte.search.moves import legal_moves
    sign = 1 if s.responder == 0 else -1
    points = [sign * (a - b) for a, b in (points_for(outcome_of(t), s.first) for t in range(6))]
    leader, tricks, led, _ = s.state
    own = s.hand & ~s.own_played
    played = sum(1 << c for c in s.history)
    legal = int(legal_moves(np.uint32(own), led, s.trump, True))
    out = {}
    for c in (c for c in range(32) if legal >> c & 1):
        v = np.empty(len(items))
        for i, h in enumerate(items):
            opp = (h & FULL) & ~played
            e, d = (own, opp) if s.responder == 0 else (opp, own)
            v[i] = points[int(outcome_after(np.uint32(e), np.uint32(d), leader, tricks, led,
                                            s.trump, True, c))]
        out[c] = v
    return out


@dataclass
class _At:
    """A position as the search reads it: the setup, the history, the state, the mover's
    cards played, the engine class."""
    setup: object
    history: tuple
    state: tuple
    own_played: int
    engine: type

    def __getattr__(self, name):
        return getattr(self.setup, name)


def _at(p, player: str, worlds: int, decisions: str):
    from ecarte_sim.analysis.ecarte.play.exploit_setup import Engine
    from ecarte_sim.engine.ecarte.laws.position import START, after, to_play
    s = _setup(p, player, worlds, decisions)
    state = START
    own_played = 0
    for c in p.played:
        if to_play(state) == p.mover:
            own_played |= 1 << c
        state = after(state, c, s.trump)
    return _At(s, tuple(p.played), state, own_played, Engine)


def _weighted(x: np.ndarray, w: np.ndarray, exact: bool) -> tuple[float, list | None]:
    """The weighted mean of ``x`` and its normal 95% interval (none when exact)."""
    mean = float(np.average(x, weights=w))
    if exact or len(x) < 2:
        return mean, None
    n = w.sum() ** 2 / (w ** 2).sum()
    var = float(np.average((x - mean) ** 2, weights=w)) * n / max(n - 1, 1)
    h = Z95_ROUNDED * math.sqrt(var / n)
    return mean, [mean - h, mean + h]


def evaluate(p, player: str = "pimc-king", worlds: int = 1024, cap: int = 1024,
             seed: int = 0, decisions: str = "strategy", concealing: int = 0,
             world_seed: int | None = None) -> dict:
    """The values at position ``p`` (module docstring): per legal card (by index) the
    measured marks, the double-dummy marks over the same worlds, the advantage over the
    player's card with its paired 95% interval; the player's card, the regret, whether
    another card is better beyond its interval, the split-half regret; the worlds used.
    ``world_seed``: the sample of worlds (default ``seed``)."""
    at = _at(p, player, worlds, decisions)
    items, w, every, total = worlds_of(at.setup, p, cap, seed if world_seed is None
                                       else world_seed, player == "pimc-king", concealing)
    if not items:
        raise ValueError("no hand of the adversary agrees with what was said and played")
    values, mine = _continuation(at, items, seed)
    dd = _dd_values(at, items)
    cards = sorted(values)
    rows = {}
    for c in cards:
        m, _ = _weighted(values[c], w, every)
        d, ci = _weighted(values[c] - values[mine], w, every)
        rows[c] = {"marks": m, "dd": float(np.average(dd[c], weights=w)), "diff": d,
                   "diff_ci95": ci}
    best = max(cards, key=lambda c: (rows[c]["marks"], -c))
    regret = rows[best]["marks"] - rows[mine]["marks"]
    beyond = any(rows[c]["diff"] > 1e-12 and (rows[c]["diff_ci95"] is None
                                               or rows[c]["diff_ci95"][0] > 0)
                 for c in cards if c != mine)
    split = _split_half(values, w, cards, mine, seed) if not every else regret
    return {"cards": cards, "rows": rows, "mine": mine, "best": best, "regret": regret,
            "beyond": bool(beyond), "split_regret": split, "every": bool(every),
            "worlds": len(items), "of": total, "exchanged": bool(at.setup.exchanges),
            "weights": w, "values": values, "dd_values": dd}


def _split_half(values: dict, w: np.ndarray, cards: list, mine: int, seed: int,
                repeats: int = 16) -> float:
    """The best card chosen on a random half of the worlds, its advantage over the
    player's card measured on the other half, averaged over ``repeats`` splits."""
    rng = np.random.default_rng(seed)
    n = len(w)
    if n < 2:
        return 0.0
    out = []
    for _ in range(repeats):
        perm = rng.permutation(n)
        a, b = perm[: n // 2], perm[n // 2:]
        best = max(cards, key=lambda c: (np.average(values[c][a], weights=w[a]), -c))
        out.append(float(np.average(values[best][b] - values[mine][b], weights=w[b])))
    return float(np.mean(out))


def position_values(hand, turn_up, role, *, said="play", discards=(), played=(),
                    score=(0, 0), model: str = "strategy", player: str = "pimc-king",
                    worlds: int = 1024, cap: int = 1024, seed: int = 0, king=None,
                    concealing: int = 0) -> dict:
    """Each legal card's value at one position (the arguments of
    :func:`~ecarte_sim.analysis.ecarte.play.card_advice.card_values`; ``model`` the
    decision model, ``player`` the card player whose worlds and play after the card are
    measured, ``cap`` the worlds, ``seed`` the keyed play's): a dict with ``cards`` (per
    legal card: ``card``, ``marks`` with the play after it, ``dd`` the double-dummy marks
    over the same worlds, ``diff`` and ``diff_ci95`` against the player's card), the
    player's card, the best, the regret, the worlds (``worlds_text``) and the mean of the
    double-dummy values minus the measured ones (``dd_minus_measured``)."""
    from ecarte_sim.analysis.ecarte.play.card_advice import parse_position
    from ecarte_sim.engine.deck import format_card
    p = parse_position(hand, turn_up, role, said=said, discards=discards, played=played,
                       score=score, king=king)
    at = _at(p, player, worlds, model)
    if player == "pimc-king" and king is None and _evidence(at.setup, p)[0] \
            and at.setup.king_open:
        raise ValueError("say who announced the king of trumps (--king elder, dealer or "
                         "none): pimc-king's play after the card reads it (Laws 23-24)")
    r = evaluate(p, player, worlds, cap, seed, model, concealing)
    rows = [{"card": format_card(c), **r["rows"][c]} for c in r["cards"]]
    top = max(x["marks"] for x in rows)
    return {"player": player, "seed": seed, "cards": rows,
            "played_card": format_card(r["mine"]),
            "best": [x["card"] for x in rows if x["marks"] >= top - 1e-12],
            "regret": r["regret"], "beyond_interval": r["beyond"],
            "split_half_regret": r["split_regret"], "every_hand": r["every"],
            "worlds": r["worlds"], "of": r["of"],
            "worlds_text": (f"every one of the {r['worlds']} hands he may hold" if r["every"]
                            else f"{r['worlds']} of {r['of']:,} hands (a uniform sample)"
                            if not r["exchanged"] else
                            f"{r['worlds']} of his histories drawn as dealt"),
            "dd_minus_measured": float(np.mean([x["dd"] - x["marks"] for x in rows]))}


# ----------------------------------------------------------------------------- positions

def _situation(d) -> str | None:
    """The kind of history a deal's play starts from (:data:`KINDS`), or None."""
    from ecarte_sim.engine.ecarte.records import ProposalsEnd
    if d.how_ended == ProposalsEnd.ELDER_PLAYED:
        return "play" if not d.exchanges else "exchange" if len(d.exchanges) == 1 else None
    if d.how_ended == ProposalsEnd.DEALER_REFUSED and not d.exchanges:
        return "propose,refuse"
    return None


def sample_positions(per_cell: int, seed: int = 1, decisions: str = "strategy",
                     max_deals: int = 200_000) -> list[dict]:
    """Positions of the play with a choice (two legal cards or more, Law 43) from the
    whole deals of ``seed`` in order, both players ``pimc-inference`` (W = 64, the
    decisions by ``decisions``, at 0-0): in each deal whose play starts from one of
    :data:`KINDS` the card number is drawn from 0-7 by a hash of (seed, deal); kept while
    its cell — (kind, trick 1-4, the mover's seat) — holds fewer than ``per_cell``. Each:
    ``deal``, ``card`` (its number), ``kind``, ``trick``, ``seat`` and the deal itself."""
    from ecarte_sim.analysis.ecarte.play.card_advice import settings_for
    from ecarte_sim.engine.ecarte.deals.runner import DealRunner
    from ecarte_sim.engine.ecarte.laws.position import START, after, to_play
    from ecarte_sim.engine.ecarte.search.moves import legal_moves
    from ecarte_sim.engine.rng import splitmix64_at
    cfg, script = settings_for(decisions, (0, 0), 64)
    cfg, script = np.array(cfg), np.array(script)
    runner = DealRunner()
    want = {(k, t, s): per_cell for k in KINDS for t in range(1, 5) for s in ("elder", "dealer")}
    out = []
    for i in range(max_deals):
        if not any(want.values()):
            break
        d = runner.play(seed, i, cfg, script)
        kind = _situation(d)
        if d.ended or len(d.play) < 10 or kind is None:
            continue
        j = int(splitmix64_at(np.uint64(seed), np.uint64(i)) % np.uint64(8))
        state = START
        hands = [int(d.elder_hand), int(d.dealer_hand)]
        for c in d.play[:j]:
            hands[to_play(state)] &= ~(1 << int(c))
            state = after(state, int(c), int(d.turn_up) >> 3)
        who = to_play(state)
        seat = "elder" if who == 0 else "dealer"
        cell = (kind, j // 2 + 1, seat)
        legal = int(legal_moves(np.uint32(hands[who]), state[2], int(d.turn_up) >> 3, True))
        if want[cell] and legal & (legal - 1):
            want[cell] -= 1
            out.append({"deal": i, "card": j, "kind": kind, "trick": j // 2 + 1, "seat": seat,
                        "mover": who, "hand": hands[who], "played": [int(c) for c in d.play[:j]],
                        "whole": d})
    return out


def _position(entry: dict):
    from ecarte_sim.analysis.ecarte.play.card_advice import deal_position
    return deal_position(entry["whole"], entry["mover"], entry["hand"], entry["played"])


def position_row(entry: dict, player: str, worlds: int, cap: int, key_seed: int,
                 seed: int, decisions: str) -> dict:
    """One position's measure for one player: its card, the best, the regret (and whether
    another card is better beyond its interval, and the split-half regret) and per legal
    card the measured value, the double-dummy value over the same worlds and the value
    ``cards`` prints (its own worlds, the deal's words), in marks."""
    from ecarte_sim.analysis.ecarte.play.card_advice import card_values
    from ecarte_sim.engine.deck import format_card
    p = _position(entry)
    r = evaluate(p, player, worlds, cap, key_seed, decisions)
    printed = card_values(p, None, None, seed=seed, deal=entry["deal"], worlds=worlds,
                          model=decisions, chooser=player, policy=0)
    shown = {x["card"]: x["marks"] for x in printed["cards"]}
    cards = []
    for c in r["cards"]:
        row = r["rows"][c]
        cards.append({"card": format_card(c), "measured": row["marks"], "dd": row["dd"],
                      "printed": shown[format_card(c)], "diff": row["diff"],
                      "diff_ci95": row["diff_ci95"]})
    top = max(x["printed"] for x in cards)
    printed_best = next(x["card"] for x in cards if x["printed"] >= top - 1e-12)
    measured = {x["card"]: x["measured"] for x in cards}
    return {"deal": entry["deal"], "card_number": entry["card"], "kind": entry["kind"],
            "trick": entry["trick"], "seat": entry["seat"], "player": player,
            "worlds": int(worlds), "hand": p.hand, "played": list(p.played),
            "turn_up": p.turn_up, "said": ",".join(p.said), "n_worlds": r["worlds"],
            "of": r["of"], "every": r["every"], "exchanged": r["exchanged"],
            "card": format_card(r["mine"]), "best": format_card(r["best"]),
            "regret": r["regret"], "beyond": r["beyond"], "split_regret": r["split_regret"],
            "printed_best": printed_best,
            "printed_regret": max(measured.values()) - measured[printed_best],
            "cards": cards}


# ----------------------------------------------------------------------------- the run

@dataclass(frozen=True)
class RegretSettings:
    """A run of ``ecarte-sim card-regret``, validated once: the players (``MODEL:W``
    labels), positions per cell, the positions' deals' seed, the keyed play's seed, the
    worlds at most per position, the decision model."""
    players: tuple = ("pimc-king:1024", "pimc-inference:64")
    per_cell: int = 6
    seed: int = 1
    key_seed: int = 0
    cap: int = 1024
    decisions: str = "strategy"

    def __post_init__(self):
        from ecarte_sim.engine.rng import check_seed
        if not self.players:
            raise ValueError("name at least one player")
        for label in self.players:
            player_and_worlds(label)
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player is named twice")
        if not 1 <= self.per_cell <= 1000:
            raise ValueError(f"positions per cell must be in 1..1000, got {self.per_cell}")
        if not 2 <= self.cap <= 1 << 16:
            raise ValueError(f"worlds must be in 2..65536, got {self.cap}")
        if self.decisions not in ("treatise", "strategy"):
            raise ValueError(f"unknown decision model {self.decisions!r}")
        check_seed(self.seed)
        check_seed(self.key_seed)


def player_and_worlds(label: str) -> tuple[str, int]:
    """A player as a run names it: ``pimc-king`` (W = 1024), ``pimc-inference`` (W = 64)
    or either written ``PLAYER:W``."""
    from ecarte_sim.analysis.ecarte.play.card_advice import default_worlds
    name, sep, w = label.partition(":")
    if name not in PLAYERS:
        raise ValueError(f"unknown player {name!r}; choose from {', '.join(PLAYERS)}")
    if not sep:
        return name, default_worlds(name)
    if not w.isdigit() or not 1 <= int(w) <= 4096:
        raise ValueError(f"bad worlds {w!r} in {label!r}: W in 1..4096")
    return name, int(w)


def measure(settings: RegretSettings, store=None, progress=None) -> dict:
    """Every player's rows over the positions (:func:`sample_positions`), and
    :func:`summarize`'s table. ``store``: a path of JSON lines where each row is
    appended as it is made and from which a run resumes (the rows are a pure function of
    the settings). ``progress(player, done, total)`` after each row."""
    import json
    import os
    import time
    s = settings
    entries = sample_positions(s.per_cell, s.seed, s.decisions)
    done: dict = {}
    if store and os.path.exists(store):
        with open(store) as f:
            for line in f:
                row = json.loads(line)
                done[(row["player_label"], row["deal"], row["card_number"])] = row
    out = {"settings": {**s.__dict__, "players": list(s.players)}, "positions": len(entries),
           "players": {}}
    for label in s.players:
        player, worlds = player_and_worlds(label)
        rows = []
        t0 = time.perf_counter()
        computed = 0
        for k, e in enumerate(entries):
            key = (label, e["deal"], e["card"])
            if key in done:
                rows.append(done[key])
            else:
                row = position_row(e, player, worlds, s.cap, s.key_seed, s.seed, s.decisions)
                row["player_label"] = label
                rows.append(row)
                computed += 1
                if store:
                    with open(store, "a") as f:
                        f.write(json.dumps(row) + "\n")
            if progress:
                progress(label, k + 1, len(entries))
        out["players"][label] = {"rows": rows, "summary": summarize(rows),
                                 "seconds": time.perf_counter() - t0, "computed": computed}
    return out


def _mean(x) -> dict:
    r = mean_ci(np.asarray(x, dtype=float), Z95_ROUNDED)
    return {"n": r["n"], "mean": r["mean"], "ci95": r["ci95"]}


def _share(flags) -> dict:
    k, n = int(sum(bool(f) for f in flags)), len(flags)
    lo, hi = wilson_interval(k, n) if n else (math.nan, math.nan)
    return {"n": n, "k": k, "mean": k / n if n else math.nan, "ci95": [float(lo), float(hi)]}


def summarize(rows: list[dict]) -> dict:
    """Over the positions (and by trick, kind and seat): the mean regret, the share with
    another card better beyond its interval, the mean split-half regret, the regret of the
    card ``cards`` ranks first; over (position, card): the printed values minus the
    measured (mean and mean absolute), the double dummy over the same worlds minus the
    measured; 95% intervals over positions (Wilson for shares)."""
    def block(sel):
        cards = [c for r in sel for c in r["cards"]]
        return {"positions": len(sel),
                "regret": _mean([r["regret"] for r in sel]),
                "beyond": _share([r["beyond"] for r in sel]),
                "split_regret": _mean([r["split_regret"] for r in sel]),
                "printed_regret": _mean([r["printed_regret"] for r in sel]),
                "printed_best_wrong": _share([r["printed_regret"] > 1e-12 for r in sel]),
                "printed_minus_measured": _mean([np.mean([c["printed"] - c["measured"]
                                                          for c in r["cards"]]) for r in sel]),
                "printed_abs_error": _mean([np.mean([abs(c["printed"] - c["measured"])
                                                     for c in r["cards"]]) for r in sel]),
                "dd_minus_measured": _mean([np.mean([c["dd"] - c["measured"]
                                                     for c in r["cards"]]) for r in sel]),
                "cards": len(cards), "exact": sum(r["every"] for r in sel)}
    out = {"all": block(rows)}
    for key, values in (("trick", (1, 2, 3, 4)), ("kind", KINDS), ("seat", ("elder", "dealer"))):
        for v in values:
            sel = [r for r in rows if r[key] == v]
            if sel:
                out[f"{key} {v}"] = block(sel)
    return out


def worst(rows: list[dict], top: int = 5) -> list[dict]:
    """The positions with the largest regret, another card better beyond its interval
    first."""
    return sorted(rows, key=lambda r: (not r["beyond"], -r["regret"]))[:top]
