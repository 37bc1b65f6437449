"""Advice on any decision before the play: a proposal after an exchange, its answer, a later
discard.

After an exchange a player knows more than his five cards: what he threw at each exchange,
and how many cards his adversary took (Law 27: "the dealer, if required, must inform his
adversary how many cards he has taken"; the dealer sees the elder draw). The questions
take that knowledge as ``ecarte-sim cards`` does: what was said (``said``, e.g.
``"propose,accept"``) and one discard group per exchange (``discards``, e.g.
``"7S 8D 9C:3"``: the cards YOU threw, and how many the adversary threw).

* :func:`history_of` — the decision the arguments describe (whose, which round, a
  propose/play, accept/refuse or a discard), checked against the laws (one ``ValueError``
  or ``CardError`` naming the bad token and the law), as the kernels' ``HISTORY`` row.
* :func:`later_advice` — both actions (propose and play, accept and refuse) valued on the
  same worlds drawn from what the player knows (the adversary's hand from his decisions
  and counts under the strategy, :mod:`~ecarte_sim.engine.ecarte.deals.later`), the
  adversary and everything after playing the strategy, the deal valued by its ``V``: each
  action's P(win the game) and marks a deal with 95% intervals, the paired gain; the
  strategy's table action (its later table, or the first table on the new hand where the
  strategy has none), the treatise's (Hoyle's list and the maxims decide every round on
  the hand held then), and :func:`~.first_decision.answer`'s lead.
* :func:`later_discard_advice` — at a later exchange: the cards the strategy's discard
  table throws, and every other discard rule's cards against them on the same worlds.

The deals: worlds ``CHECK_WORLDS_START ..`` of history id 0 of the seed, never a solve's.
A history the strategy's adversary would seldom produce (a count his discard table rarely
gives) may find no world within the attempts allowed: the worlds missed are counted and
said, never filled in.
"""

from __future__ import annotations

import numpy as np

from ecarte_sim.engine.deck import CardError, card_of, card_set, format_card, format_hand, ECARTE
from ecarte_sim.engine.ecarte.laws.history import check_exchanges, parse_discards, parse_said
from ecarte_sim.engine.ecarte.laws.score import Score, score_row

ROLES = ("elder", "dealer")
ACTIONS = {"elder": ("propose", "play"), "dealer": ("accept", "refuse")}


def history_of(hand, turn_up, role: str, said, discards=(), *, discard: bool = False,
               elder_took: int | None = None) -> dict:
    """The decision before the play that (``hand``: the player's cards NOW, ``turn_up``,
    ``role``, ``said``, ``discards``) describes, checked (module docstring). ``discard``:
    his discard at the exchange ``said`` has just agreed (``..., propose, accept``); the
    dealer's needs ``elder_took`` (the elder has drawn first, Law 30). Returns the
    ``HISTORY`` row and its parts: ``kind`` (``"decide"``, ``"discard"``), ``round``, the
    hand now, the stock left."""
    from ecarte_sim.engine.ecarte.deals import later as kern

    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; choose from elder, dealer")
    own = card_set(hand, "hand")
    if bin(own).count("1") != 5:
        raise CardError(f"hand {format_hand(own, ECARTE)!r}: five cards, not "
                        f"{bin(own).count('1')}", format_hand(own, ECARTE))
    up = card_of(turn_up, "turn-up")
    if own >> up & 1:
        raise CardError(f"the turn-up {format_card(up)!r} is in the hand", format_card(up))
    words = parse_said(said)
    agreed = words.count("accept")
    if words and words[-1] in ("play", "refuse"):
        raise ValueError(f"what was said ends with {words[-1]!r}: the proposals are over "
                         "(Laws 25-26); ask `ecarte-sim cards` about the play")
    if discard:
        if not words or words[-1] != "accept":
            raise ValueError("--discard: what was said must end with 'propose,accept' (the "
                             "exchange whose discard is asked, Law 27)")
        rnd = agreed - 1
    else:
        rnd = agreed
        ends_with_proposal = bool(words) and words[-1] == "propose"
        if role == "dealer" and not ends_with_proposal:
            raise ValueError("the dealer answers a proposal: what was said must end with "
                             "'propose' (Law 25)")
        if role == "elder" and ends_with_proposal:
            raise ValueError("what was said ends with 'propose': the dealer answers it, not "
                             "the elder (--role dealer)")
    groups = parse_discards(discards)
    if len(groups) != rnd:
        raise ValueError(f"{rnd} exchange(s) made before this decision but {len(groups)} "
                         "discard group(s) given: one group per exchange (Law 27)")
    mover = 0 if role == "elder" else 1
    _, left = check_exchanges(groups, mover, held=own, turn_up=up)
    took_now = 0
    if discard and role == "dealer":
        if elder_took is None:
            raise ValueError("the dealer's discard: say how many cards the elder took in this "
                             "exchange (--elder-took N; the dealer sees him draw, Law 30)")
        if not 1 <= int(elder_took) <= min(5, left):
            raise ValueError(f"--elder-took {elder_took}: the elder takes 1 to "
                             f"{min(5, left)} cards here (Laws 27, 38)")
        took_now = int(elder_took)
    elif elder_took is not None:
        raise ValueError("--elder-took is for the dealer's discard (--role dealer --discard)")
    if left - took_now <= 0:
        raise ValueError("the stock is exhausted: nothing is left to decide before the play "
                         "(Law 38; the elder must play)")
    if rnd == 0 and not discard:
        raise ValueError("no exchange yet: this is the first decision (drop --said and "
                         "--discards)")
    hist = np.zeros(kern.HISTORY_SIZE, dtype=np.int64)
    at = kern.HISTORY.at
    hist[at.ROLE] = mover
    hist[at.KIND] = kern.DISCARD if discard else kern.DECIDE
    hist[at.ROUND] = rnd
    hist[at.TURN_UP] = up
    # What he drew in each exchange is in his hand now or thrown later; which of his cards
    # came when changes nothing after this decision (the adversary never held any of
    # them), so any assignment consistent with the discards serves: from the last exchange
    # back, he drew that exchange's count of the cards he held after it.
    now = own
    for r in range(rnd - 1, -1, -1):
        mine, theirs = groups[r]
        k = bin(mine).count("1")
        drawn, rest = 0, now
        for _ in range(k):
            low = rest & -rest
            drawn |= low
            rest ^= low
        hist[at.THROWN + r] = mine
        hist[at.DRAWN + r] = drawn
        hist[at.TOOK + r] = theirs
        now = (now & ~drawn) | mine
    hist[at.HAND0] = now
    if discard and role == "dealer":
        hist[at.TOOK + rnd] = took_now
    return {"hist": hist, "kind": "discard" if discard else "decide", "round": rnd,
            "hand": own, "turn_up": up, "said": words, "discards": groups,
            "stock_left": int(left - took_now)}


def _values_of(strategy, x, y, hist, arms, *, deals: int, seed: int):
    """The joint marks tables of ``arms[0]`` against each other arm on ``deals`` worlds of
    the history (rows: arms 1..), the worlds missed and the attempts made."""
    from ecarte_sim.analysis.ecarte.advice.first_decision import strategy_settings
    from ecarte_sim.engine.ecarte.deals import later as kern
    from ecarte_sim.engine.ecarte.deals.action_values import N_MARKS
    from ecarte_sim.engine.rng import check_seed

    if not 2 <= int(deals) <= kern.CHECK_WORLDS:
        raise ValueError(f"--deals {deals}: 2 to {kern.CHECK_WORLDS} worlds")
    run, script = strategy_settings(strategy, x, y)
    cfgs = kern.arm_cfgs(hist, run, x, y, arms)
    n = len(arms) - 1
    out = np.zeros((n, N_MARKS * N_MARKS), dtype=np.int64)
    attempts = np.zeros(n, dtype=np.int64)
    missed = np.zeros(n, dtype=np.int64)
    lo = kern.CHECK_WORLDS_START
    kern.marks_block(np.uint64(check_seed(seed)), np.repeat(hist[None, :], n, axis=0),
                     np.zeros(n, dtype=np.int64), np.full(n, lo, dtype=np.int64),
                     np.full(n, lo + int(deals), dtype=np.int64),
                     np.repeat(cfgs[0][None, :], n, axis=0), np.array(cfgs[1:]), script, out,
                     attempts, missed)
    return out.reshape(n, N_MARKS, N_MARKS), int(missed[0]), int(attempts[0])


def _table_action(strategy, role: str, hand: int, turn_up: int, x: int, y: int) -> bool:
    from ecarte_sim.engine.ecarte.decisions.canonical import canonical_index
    return bool(strategy.later_table(role)[score_row(x, y)][canonical_index(hand, turn_up)])


def later_advice(hand, turn_up, role: str = "elder", *, said, discards=(), score="0-0",
                 play: str | None = None, seed: int = 0, deals: int | None = None,
                 values: bool = True) -> dict:
    """What to do at a proposal after an exchange (the elder) or its answer (the dealer):
    module docstring. The JSON of ``ecarte-sim advise HAND --said ... --discards ...``."""
    from ecarte_sim.analysis.ecarte.advice.first_decision import (answer, arm_values,
                                                                   decided_by_the_deal)
    from ecarte_sim.analysis.ecarte.solving import solved as shipped
    from ecarte_sim.engine.ecarte.decisions.tables import decisions

    x, y = Score.of(score)
    h = history_of(hand, turn_up, role, said, discards)
    strategy = shipped.load(play)
    arm_a, arm_b = ACTIONS[role]
    says_a = _table_action(strategy, role, h["hand"], h["turn_up"], x, y)
    table = arm_a if says_a else arm_b
    treatise_a = bool(decisions(role, "regle" if role == "elder" else "maxims",
                                [h["hand"]], [h["turn_up"]])[0])
    treatise = {"policy": "regle" if role == "elder" else "maxims",
                "says": arm_a if treatise_a else arm_b,
                "reason": ("Hoyle's list read on the hand held now" if role == "elder"
                           else "the dealer's maxims read on the hand held now")}
    info = {"against": "equilibrium", "play": strategy.play,
            "answers": f"the computed strategy of five up ({strategy.play})",
            "later_tables": strategy.solves_later,
            "command": strategy.provenance.get("command"),
            "git_commit": strategy.provenance.get("git_commit")}
    base = {"hand": format_hand(h["hand"], ECARTE), "trump": "SHDC"[h["turn_up"] >> 3],
            "turn_up": format_card(h["turn_up"]), "role": role, "score": f"{x}-{y}",
            "said": h["said"], "round": h["round"], "decision": "later",
            "discards": [{"thrown": format_hand(m, ECARTE), "adversary_threw": n}
                         for m, n in h["discards"]],
            "stock_left": h["stock_left"], "table_action": {"action": table},
            "treatise": treatise, "strategy": info}
    if not values:
        return {**base, "action": table}
    joint, missed, attempts = _values_of(strategy, x, y, h["hist"], [True, False],
                                         deals=int(deals or (1 << 14)), seed=seed)
    vals, gain, n, decided = arm_values(joint[0], strategy.v, x, y, role, arm_a, arm_b)
    sampled = arm_a if gain["p_win"] > 0 else arm_b if gain["p_win"] < 0 else table
    result = {**base, "values": vals, "gain": gain, "n": n, "seed": int(seed), "decided": decided, "sampled_better": sampled,
              "worlds_missed": missed, "attempts_per_world": attempts / max(n + missed, 1)}
    result["decided_by_the_deal"] = decided_by_the_deal(result)
    result.update(answer(table, sampled, decided, result["decided_by_the_deal"],
                         result["gain"]))
    result["agrees"] = result["action"] == treatise["says"]
    return result


def later_discard_advice(hand, turn_up, role: str = "elder", *, said, discards=(),
                         elder_took: int | None = None, score="0-0",
                         play: str | None = None, seed: int = 0,
                         deals: int | None = None, also: int | None = None) -> dict:
    """At a later exchange (``said`` ends ``propose,accept``): the cards the strategy's
    discard table throws from the hand held now and every other discard rule's cards
    against them on the same worlds (module docstring). The JSON of ``advise --discard``
    at a later exchange. ``also``: cards (a mask) no rule may throw, valued on the same
    worlds too (the coach's measure of a discard of one's own): key ``also``."""
    from ecarte_sim.analysis.ecarte.measures.paired import paired_mean
    from ecarte_sim.analysis.ecarte.solving import proposal_game as st
    from ecarte_sim.analysis.ecarte.solving import solved as shipped
    from ecarte_sim.engine.ecarte.decisions.canonical import canonical_index
    from ecarte_sim.engine.ecarte.deals import later as kern
    from ecarte_sim.engine.ecarte.settings import EcarteSettings, Discard, name_of

    x, y = Score.of(score)
    h = history_of(hand, turn_up, role, said, discards, discard=True, elder_took=elder_took)
    strategy = shipped.load(play)
    hand_now, up = h["hand"], h["turn_up"]
    rule = int(strategy.later_discard(role)[score_row(x, y)][canonical_index(hand_now, up)])
    settings = EcarteSettings()
    cfg = settings.cfg()
    room = int(kern.stock_left(h["hist"]))
    mover = 0 if role == "elder" else 1

    def cards(r: int) -> int:
        return int(kern.rule_cards(r, np.uint32(hand_now), up >> 3, mover, room, cfg))

    own = cards(rule)
    arms, names = [own], [name_of(Discard(rule))]
    for r in st.RULES:
        m = cards(r)
        if m not in arms:
            arms.append(m)
            names.append(name_of(Discard(r)))
    extra = None
    if also is not None:
        also = int(also)
        if also & ~hand_now or (role == "elder" and not also) or \
                bin(also).count("1") > room:
            raise ValueError(f"discard {format_hand(also, ECARTE)!r}: not a discard the "
                             "laws allow from this hand here (Laws 27, 38)")
        if also not in arms:
            arms.append(also)
            extra = len(arms) - 1
        else:
            extra = arms.index(also)
    f = st.marks_value(strategy.v, x, y)
    value = f if role == "elder" else 1.0 - f
    sign = 1.0 if role == "elder" else -1.0
    net = sign * st.MARKS_NET.astype(float)
    others, missed = [], 0
    if len(arms) > 1:
        joint, missed, _ = _values_of(strategy, x, y, h["hist"], arms,
                                      deals=int(deals or (1 << 14)), seed=seed)
        for j in range(1, len(arms)):
            t = joint[j - 1].T          # arm j against the table's
            win = paired_mean(t, value)
            if j < len(names):
                marks = paired_mean(t, net)
                others.append({"rule": names[j], "throws": format_hand(arms[j], ECARTE),
                               "gain_win": win["mean"], "gain_win_ci95": win["ci95"],
                               "gain_marks": marks["mean"], "gain_marks_ci95": marks["ci95"],
                               "n": win["n"]})
            if j == extra:
                also_gain = {"mean": float(win["mean"]),
                             "ci95": [float(c) for c in win["ci95"]], "n": int(win["n"])}
    if extra == 0:
        also_gain = {"mean": 0.0, "ci95": [0.0, 0.0], "n": 0}
    out = {} if also is None else {"also": also_gain}
    return {**out, "hand": format_hand(hand_now, ECARTE), "role": role, "score": f"{x}-{y}",
            "said": h["said"], "round": h["round"], "decision": "later discard",
            "rule": names[0], "throws": format_hand(own, ECARTE),
            "keeps": format_hand(hand_now & ~own, ECARTE), "others": others,
            "worlds_missed": missed, "stock_left": room,
            "strategy": {"against": "equilibrium", "play": strategy.play,
                         "later_tables": strategy.solves_later}}


__all__ = ["history_of", "later_advice", "later_discard_advice"]
