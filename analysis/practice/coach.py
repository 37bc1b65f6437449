"""The coach: what each decision cost in P(win the game), the game's summary, a record
reviewed (the deal replayed, action by action and double dummy, is :mod:`.replay`'s).

The anchors are lichess's analysis board (a move graded by how much it lowered the
mover's winning chances; "learn from your mistakes": try again before the answer is
shown) and bridge double-dummy viewers (every card's value, the cards that keep the best
result). Everything is read from a game record (:mod:`.records`: hands, turn-ups,
actions), so the practice table and ``ecarte-sim review`` grade alike.

What a decision is worth
    * **First decisions and answers** (Law 25: the elder proposes or plays, the dealer
      accepts or refuses) in the first round: both actions' P(win the game) from
      :func:`ecarte_sim.analysis.ecarte.advice.first_decision.advise` against the shipped strategy
      (:data:`ADVICE_DEALS` deals around the hand, both players then playing the
      strategy as it was solved, the cards double dummy, the later deals valued by its
      ``V``), with the table's action and the
      treatise's rule (Hoyle's list, the maxims) and its words. In the later rounds (a
      proposal after an exchange, its answer) the same from
      :func:`ecarte_sim.analysis.ecarte.advice.later_decision.later_advice`: both actions on worlds
      drawn from what the player knows then (his discards, the adversary's counts), as
      ``advise --said ... --discards ...`` values them.
    * **Discards** (Laws 27–31) at the first exchange:
      :func:`~ecarte_sim.analysis.ecarte.advice.first_decision.discard_advice` — the strategy's rule and
      every other rule's paired gain against it (:data:`DISCARD_DEALS` deals); a discard
      no rule throws is measured against the strategy's own on the same deals, its
      player's later exchanges (rare) by the treatise's rule in both arms
      (:func:`_discard_gain`). At a later exchange the same from
      :func:`~ecarte_sim.analysis.ecarte.advice.later_decision.later_discard_advice`, a discard no rule
      throws valued beside the rules on the same worlds. The treatise's discard ("a king or a trump should not be
      discarded in the first instance") is quoted.
    * **Cards** (Law 43 says which are legal; a forced card is not graded): the
      inferring player's values (:func:`ecarte_sim.analysis.ecarte.play.card_advice`, the worlds
      the computer's ``pimc-king`` would draw for that player, :data:`COACH_WORLDS` of them,
      or every hand the adversary may hold when they are fewer: then exact), each
      world's outcome turned into P(win the game) from the score after the deal (Laws
      46, 48–49; :func:`win_after`), the cost paired over the worlds; beside it the double-dummy
      cost (both hands known, the engine's exact values), and the treatise's card (the
      engine's heuristic player, Hoyle's advice on leads, in its words).
    * **The king of trumps** (Laws 23–24, 47): announcing marks one; concealing it (as A
      does in the treatise's worked game) gives the mark up. Its cost is the mark's worth
      in P(win the game) given the deal's double-dummy outcome; what a concealed king
      gains by deceiving is not valued (the computer reads the person's silence as the
      treatise's concealer: :func:`~ecarte_sim.apps.practice.computer.concealing_policy`).

The grades (thresholds in P(win the game) lost against the best choice)
    lichess grades a move by the winning chance it lost on a -1..+1 scale: inaccuracy
    0.1, mistake 0.2, blunder 0.3, i.e. 0.05, 0.10, 0.15 in probability. Écarté's unit
    is the mark: under the shipped strategy's ``V`` one mark is worth a median 0.120 of
    P(win the game) over the 25 scores (0.047 to 0.483), the point won rather than lost
    0.227. The coach's thresholds are a quarter, a half and a whole mark's median worth:
    **inaccuracy** >= :data:`INACCURACY` (0.03), **mistake** >= :data:`MISTAKE` (0.06),
    **blunder** >= :data:`BLUNDER` (0.12); below, **best** (the best choice or one worth
    the same) or **good**. A cost whose 95% interval reaches zero cannot be told from
    the best by the sample and is graded ``good`` (``within_noise``).

A verdict (a dict; the keys the practice table and its page show)
    ``kind`` ("first", "answer", "discard", "card", "king"), ``by`` (the player),
    ``role``, ``deal`` (number), ``round`` (exchanges before it), ``chosen``, ``best``,
    ``values`` (each option's P(win the game); cards: also P(point), the dd tricks and
    the dd P(win the game); discards: each rule's gain over the strategy's discard),
    ``cost`` and ``cost_ci95`` (P(win the game) lost, None when not valued), ``grade``,
    ``within_noise``, ``n`` and ``unit`` ("deals", "worlds" or "exact"), ``rule`` (the treatise's
    words, or None), ``strategy`` (the shipped strategy's choice), ``dd`` (cards: the
    best dd cards, the dd cost and its grade by the same thresholds: what the card cost
    against the actual hands), ``text`` (one line), and for the table's "try again"
    ``revealed`` (False while a mistake or blunder waits) with ``hidden`` (the keys
    that give the answer away) and ``prompt`` (the line shown meanwhile).

* :func:`grade` — the verdict on action ``j`` of a deal of a record.
* :func:`grade_action` — the practice table's hook: the person's decision just made.
* :func:`replay_deal` — the practice table's hook: the deal double dummy card by card
  (:func:`.replay.replay`, importable from here as :func:`replay`).
* :func:`summary` — a game's decisions, grades and what was lost.
* :func:`review` — a whole record annotated (``ecarte-sim review``).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ecarte_sim.analysis.practice.replay import (DealState, action_states, json_ready,
                                                 known_card, known_set, replay)
from ecarte_sim.analysis.practice.seeds import deal_stream
from ecarte_sim.analysis.stats.intervals import Z95_ROUNDED, normal_ci
from ecarte_sim.engine.deck import card_set, cards_of, format_card, format_hand

INACCURACY, MISTAKE, BLUNDER = 0.03, 0.06, 0.12
#: Below this cost (and not shown worse by its interval) a choice is "best".
EQUAL = 0.005
GRADES = ("best", "good", "inaccuracy", "mistake", "blunder", "unknown")
ADVICE_DEALS = 1 << 14
#: Worlds of a card verdict: the inferring player's own draws (world ``w`` is the same
#: world at any W, so the computer's 64 are the first 64 of these), enough that the
#: paired cost's 95% interval is about +-0.01 (at 64 a card's cost of 0.03 cannot be told
#: from zero: the treatise's worked game, Y's queen of diamonds).
COACH_WORLDS = 1024
#: The coach's card values: the table's card player's worlds (pimc-king: the person's
#: adversary's announcement of the king read, every hand he may hold when they number at
#: most :data:`COACH_WORLDS`).
COACH_PLAYER = "pimc-king"
DISCARD_DEALS = 1 << 12
#: The keys a waiting verdict hides until the person reveals it (or tries again).
HIDDEN = ("best", "values", "rule", "strategy", "dd", "text")


# ----------------------------------------------------------------------------- values

@lru_cache(maxsize=1)
def _v() -> np.ndarray:
    from ecarte_sim.analysis.ecarte.solving import solved
    return np.asarray(solved.load().v, dtype=float)


def win_after(elder: int, dealer: int, v: np.ndarray | None = None) -> float:
    """The elder's P(win the game) once the deal leaves the elder at ``elder`` marks and
    the dealer at ``dealer`` (five up, Law 46; he deals the next deal): 1 or 0 when a
    score reached five, else ``1 - V[dealer, elder]`` (``V`` the shipped strategy's)."""
    v = _v() if v is None else v
    if elder >= 5:
        return 1.0
    if dealer >= 5:
        return 0.0
    return 1.0 - float(v[dealer, elder])


def outcome_win(outcome: int, first: int, elder: int, dealer: int, role: str) -> float:
    """``role``'s P(win the game) when the deal ends with ``outcome`` (the elder's tricks,
    or the engine's coarse 0/1/3/5) from the live score (elder, dealer), Law 49 by
    ``first``."""
    from ecarte_sim.engine.ecarte.deals.whole import outcome_of, points_for
    pe, pd = points_for(outcome_of(int(outcome)), int(first))
    w = win_after(elder + pe, dealer + pd)
    return w if role == "elder" else 1.0 - w


def grade_of(cost, ci=None) -> tuple[str, bool]:
    """(grade, within_noise) of a cost in P(win the game) (module docstring)."""
    if cost is None or (isinstance(cost, float) and math.isnan(cost)):
        return "unknown", False
    noise = ci is not None and ci[0] <= 0.0
    # "best": the best choice, or one the sample cannot tell from it (its interval
    # reaches zero) that costs at most EQUAL; a small cost the interval shows is "good"
    if cost <= EQUAL and (ci is None or noise or cost <= 1e-12):
        return "best", False
    if noise or cost < INACCURACY:
        return "good", bool(noise and cost >= INACCURACY)
    if cost < MISTAKE:
        return "inaccuracy", False
    if cost < BLUNDER:
        return "mistake", False
    return "blunder", False


# ----------------------------------------------------------------------------- grading

def _verdict(kind, s: DealState, by, chosen, **kw) -> dict:
    out = {"kind": kind, "by": by, "role": s.role(by), "deal": s.deal.get("number"),
           "round": s.round, "chosen": chosen, "best": None, "values": None, "cost": None,
           "cost_ci95": None, "grade": "unknown", "within_noise": False, "n": None,
           "unit": None, "rule": None, "strategy": None, "dd": None, "text": ""}
    out.update(kw)
    if "grade" not in kw:
        out["grade"], out["within_noise"] = grade_of(out["cost"], out["cost_ci95"])
    return json_ready(out)


def _first(s: DealState, a: dict, seed: int) -> dict | None:
    from ecarte_sim.analysis.ecarte.advice import first_decision as advice
    by, kind = a["by"], a["type"]
    role = s.role(by)
    hand = s.hand[by]
    if hand is None or s.turn_up is None:
        return _verdict("first" if role == "elder" else "answer", s, by, kind,
                        text="not valued: a card of the hand is unknown")
    x, y = s.score_before()
    hand_text = format_hand(hand)
    up = format_card(s.turn_up)
    what = "first" if role == "elder" else "answer"
    if s.round > 0:
        from ecarte_sim.analysis.ecarte.advice.later_decision import later_advice
        groups = _own_groups(s, by)
        if groups is None:
            return _verdict(what, s, by, kind,
                            text="not valued: a card of an earlier discard is unknown")
        r = later_advice(hand_text, up, role, said=list(s.said), discards=groups,
                         score=(x, y), deals=ADVICE_DEALS, seed=seed)
    else:
        r = advice.advise(hand_text, "SHDC"[s.trump], f"{x}-{y}", role, turn_up=up,
                          deals=ADVICE_DEALS, seed=seed)
    values = {k: v["p_win"] for k, v in r["values"].items()}
    cis = {k: v["p_win_ci95"] for k, v in r["values"].items()}
    best = max(values, key=lambda k: (values[k], k == r["action"]))
    gain = r["gain"]                      # arm a over arm b, paired
    arm_a = gain["of"].split(" over ")[0]
    sign = 1.0 if best == arm_a else -1.0
    if best == kind:
        cost, ci = 0.0, [0.0, 0.0]
    else:
        lo, hi = gain["p_win_ci95"]
        cost = max(0.0, sign * gain["p_win"])   # never -0.0: best is the larger value
        ci = [lo, hi] if sign > 0 else [-hi, -lo]
    t = r.get("treatise") or {}
    rule = None
    if t.get("words"):
        rule = f"the treatise says {t['says']}: {t['words']}"
    grade, noise = grade_of(cost, ci)
    if r.get("decided_by_the_deal"):
        grade, noise = "best", False
    text = (f"{kind}: P(win the game) {values[kind]:.3f}"
            + ("" if best == kind else f"; {best} {values[best]:.3f} "
               f"(cost {cost:.3f}, 95% [{ci[0]:.3f}, {ci[1]:.3f}])")
            + f" — {grade}; the strategy {r['action']}s"
            + (f"; the treatise: {t['says']}" if t.get("says") else ""))
    return _verdict(what, s, by, kind, best=best, values={"p_win": values, "p_win_ci95": cis},
                    cost=float(cost), cost_ci95=[float(c) for c in ci], grade=grade,
                    within_noise=noise, n=int(r["n"]), unit="deals", rule=rule,
                    strategy=r["action"], text=text)


def _own_groups(s: DealState, by: str) -> list[tuple[int, int]] | None:
    """``by``'s discard groups of the exchanges made (his thrown cards, the adversary's
    count), as ``advise --discards`` takes them; None if a card he threw is unknown."""
    other = s.other(by)
    out = []
    for g in s.groups:
        if by not in g or other not in g:
            continue
        mine, theirs = g[by], g[other]
        if mine[0] is None:
            return None
        out.append((mine[0], theirs[1]))
    return out


def _discard(s: DealState, a: dict, seed: int) -> dict | None:
    from ecarte_sim.analysis.ecarte.advice import first_decision as advice
    from ecarte_sim.analysis.ecarte.text.reasons import DISCARD_KEEPS
    from ecarte_sim.engine.ecarte.settings import Discard
    by = a["by"]
    role = s.role(by)
    cards = a.get("cards")
    thrown = known_set(cards, "discard") if isinstance(cards, list) else None
    hand = s.hand[by]
    chosen = [format_card(c) for c in cards_of(thrown)] if thrown is not None else None
    rule = ("the treatise: \u201cA king or a trump should not be discarded in the first "
            "instance\u201d (" + DISCARD_KEEPS[Discard.TRUMPS_KINGS][0] + " kept)")
    if hand is None or thrown is None or s.turn_up is None:
        return _verdict("discard", s, by, chosen, rule=rule,
                        text="not valued: a card of the discard is unknown")
    x, y = s.score_before()
    later = None
    if s.round > 0:
        from ecarte_sim.analysis.ecarte.advice.later_decision import later_discard_advice
        groups = _own_groups(s, by)
        if groups is None:
            return _verdict("discard", s, by, chosen, rule=rule,
                            text="not valued: a card of an earlier discard is unknown")
        took = s.groups[-1].get(s.elder, (None, None))[1] if role == "dealer" else None
        later = dict(said=list(s.said), discards=groups, elder_took=took)
        r = later_discard_advice(format_hand(hand), format_card(s.turn_up), role,
                                 score=(x, y), deals=DISCARD_DEALS, seed=seed, also=thrown,
                                 **later)
    else:
        r = advice.discard_advice(format_hand(hand), "SHDC"[s.trump], f"{x}-{y}", role,
                                  turn_up=format_card(s.turn_up), deals=DISCARD_DEALS,
                                  seed=seed)
    options = {r["rule"]: {"throws": r["throws"], "gain": 0.0, "ci95": [0.0, 0.0]}}
    for o in r["others"]:
        options[o["rule"]] = {"throws": o["throws"], "gain": o["gain_win"],
                              "ci95": o["gain_win_ci95"]}
    best_rule = max(options, key=lambda k: (options[k]["gain"], k == r["rule"]))
    best = options[best_rule]
    mine = next((k for k, o in options.items()
                 if card_set(o["throws"], "discard") == thrown), None)
    values = {k: {"throws": o["throws"], "gain_over_strategy": o["gain"],
                  "ci95": o["ci95"]} for k, o in options.items()}
    if mine is None:
        # no rule throws these cards: measured against the strategy's own discard on the
        # same deals (at the first exchange his later exchanges, rare, by the treatise's
        # rule in both arms; at a later one, valued with the rules)
        g = r["also"] if later is not None else _discard_gain(
            role, hand, thrown, s.turn_up, x, y, seed, DISCARD_DEALS)
        values["chosen"] = {"throws": " ".join(chosen), "gain_over_strategy": g["mean"],
                            "ci95": g["ci95"]}
        mine_gain, (lo_m, hi_m) = g["mean"], g["ci95"]
        label = "no rule's"
    else:
        mine_gain, (lo_m, hi_m) = options[mine]["gain"], options[mine]["ci95"]
        label = mine
    cost = best["gain"] - mine_gain
    if mine == best_rule:
        ci = [0.0, 0.0]
    elif best_rule == r["rule"]:
        ci = [-hi_m, -lo_m]
    else:   # neither is the strategy's: both measured against it (not paired together)
        lo_b, hi_b = best["ci95"]
        ci = [lo_b - hi_m, hi_b - lo_m]
    if cost < 0:                            # better than every rule measured
        cost, ci = 0.0, [min(ci[0], 0.0), max(ci[1], 0.0)]
    grade, noise = grade_of(cost, ci)
    text = (f"discard {' '.join(chosen) or 'nothing'} ({label}): "
            + ("the best rule" if mine == best_rule else
               "as good as the best rule" if cost <= EQUAL else
               f"the best throws {best['throws'] or 'nothing'} ({best_rule}), cost "
               f"{cost:.3f} in P(win the game), 95% [{ci[0]:.3f}, {ci[1]:.3f}]")
            + f" — {grade}")
    return _verdict("discard", s, by, chosen, best=best["throws"].split(), values=values,
                    cost=float(cost), cost_ci95=[float(c) for c in ci], grade=grade,
                    within_noise=noise, n=DISCARD_DEALS, unit="deals", rule=rule,
                    strategy=r["throws"].split(), text=text)


def _discard_gain(role: str, hand: int, thrown: int, turn_up: int, x: int, y: int,
                  seed: int, deals: int) -> dict:
    """The paired gain in ``role``'s P(win the game) of throwing ``thrown`` from ``hand``
    at the first exchange over the shipped strategy's own discard, on ``deals`` deals
    around the hand (both propose and accept; the players otherwise by the strategy, as
    :func:`~ecarte_sim.analysis.ecarte.advice.first_decision.discard_advice` measures the rules). The
    role's discard is scripted: the cards given in the first exchange, in a later one the
    treatise's ("a king or a trump should not be discarded") in both arms."""
    from ecarte_sim.analysis.ecarte.advice.first_decision import strategy_settings
    from ecarte_sim.analysis.ecarte.measures.paired import paired_mean
    from ecarte_sim.analysis.ecarte.solving import solved as shipped
    from ecarte_sim.analysis.ecarte.solving import proposal_game as st
    from ecarte_sim.engine.ecarte.deals.action_values import CHECK_DEALS_START, N_MARKS, marks_block
    from ecarte_sim.engine.ecarte.decisions.policies import (MAX_ROUNDS, S_DEALER_DISCARD,
                                                             S_ELDER_DISCARD)
    from ecarte_sim.engine.ecarte.decisions.states import canonical_index
    from ecarte_sim.engine.ecarte.settings import CFG, DISCARD_BY_POLICY, Discard

    strategy = shipped.load()
    run, script = strategy_settings(strategy, x, y)
    script = np.array(script, dtype=np.int64)
    row = S_ELDER_DISCARD if role == "elder" else S_DEALER_DISCARD
    trump = turn_up >> 3
    script[row] = thrown
    script[row + 1:row + MAX_ROUNDS] = ~((0xFF << (8 * trump)) | 0x80808080) & 0xFFFFFFFF
    cfg_a, cfg_b = st.arm_cfgs(role, run, x, y, rule=Discard.TRUMPS_KINGS)
    at = CFG.at
    policy, first = (("ELDER_DISCARD", "ELDER_FIRST_DISCARD") if role == "elder" else
                     ("DEALER_DISCARD", "DEALER_FIRST_DISCARD"))
    for cfg, first_rule in ((cfg_a, DISCARD_BY_POLICY), (cfg_b, Discard.TABLE)):
        cfg[at[policy]] = int(Discard.SCRIPTED)
        cfg[at[first]] = int(first_rule)
    out = np.zeros((1, N_MARKS * N_MARKS), dtype=np.int64)
    att = np.zeros(1, dtype=np.int64)
    mis = np.zeros(1, dtype=np.int64)
    marks_block(np.uint64(seed), st.DISCARD_ROLES[role], np.full(1, hand, dtype=np.int64),
                np.array([turn_up], dtype=np.int64),
                np.array([canonical_index(hand, turn_up)], dtype=np.int64), False,
                np.full(1, CHECK_DEALS_START, dtype=np.int64),
                np.full(1, CHECK_DEALS_START + deals, dtype=np.int64), cfg_a, cfg_b,
                script, out, att, mis)
    f = st.marks_value(strategy.v, x, y)
    value = f if role == "elder" else 1.0 - f
    g = paired_mean(out.sum(axis=0).reshape(N_MARKS, N_MARKS), value)
    return {"mean": float(g["mean"]), "ci95": [float(c) for c in g["ci95"]],
            "n": int(g["n"])}


def _card(s: DealState, a: dict, seed: int, worlds: int, model: str) -> dict | None:
    from ecarte_sim.analysis.ecarte.play.card_advice import decide_position
    from ecarte_sim.engine.ecarte.search.solver import value_after
    by = a["by"]
    c = known_card(a["card"])
    chosen = a["card"] if c is None else format_card(c)
    p = s.position_of(by)
    if p is None:
        return _verdict("card", s, by, chosen, text="not valued: a card is unknown")
    deal_index = s.deal.get("index")
    deal_index = (s.deal.get("number", 1) - 1) if deal_index is None else deal_index
    (best_card, legal, _, leader, tricks, led, count, possible), cards, outcomes, _, _, \
        weights, every = decide_position(p, seed, deal_index, worlds, model, True, True,
                                         COACH_PLAYER, _concealing(s, by))
    n = bin(int(legal)).count("1")
    if n <= 1:
        return None                        # a forced card is not graded
    rule = _play_rule(p.hand, int(led), p.trump, int(possible))
    role = p.role
    xe, yd = s.live()
    table = {o: outcome_win(o, p.first, xe, yd, role) for o in (0, 1, 3, 5)}
    keep = weights > 0
    outcomes, w = outcomes[keep], weights[keep].astype(float)
    win = np.vectorize(table.get)(outcomes[:, :n]).astype(float)        # worlds x cards
    names = [format_card(int(c)) for c in cards[:n]]
    means = np.average(win, axis=0, weights=w)
    point = np.average(((outcomes[:, :n] >= 3) if role == "elder"
                        else (outcomes[:, :n] <= 1)).astype(float), axis=0, weights=w)
    k_best = int(np.argmax(means + 1e-12 * (np.array(names) == format_card(int(best_card)))))
    if chosen not in names:
        return _verdict("card", s, by, chosen, text=f"{chosen} is not a legal card here "
                        "(Law 43)")
    k = names.index(chosen)
    if means[k] >= means[k_best] - 1e-12:
        k_best = k                         # worth the same: the chosen card is a best
    diff = win[:, k_best] - win[:, k]
    cost = float(np.average(diff, weights=w))
    n_eff = w.sum() ** 2 / (w ** 2).sum()
    se = math.sqrt(float(np.average((diff - cost) ** 2, weights=w)) / max(n_eff - 1, 1)) \
        if n_eff > 1 else 0.0
    ci = [cost, cost] if every else normal_ci(cost, se, Z95_ROUNDED) if k != k_best \
        else [0.0, 0.0]
    values = {nm: {"p_win": float(means[i]), "p_point": float(point[i])}
              for i, nm in enumerate(names)}
    dd = None
    other = s.hand[s.other(by)]
    if other is not None:
        e, d = (p.hand, other) if role == "elder" else (other, p.hand)
        dd_win = {}
        for i, nm in enumerate(names):
            t = int(value_after(np.uint32(e), np.uint32(d), int(leader), int(tricks),
                                int(led), p.trump, True, int(cards[i])))
            dd_win[nm] = outcome_win(t, p.first, xe, yd, role)
            values[nm]["dd_tricks"] = t
            values[nm]["dd_p_win"] = dd_win[nm]
        top = max(dd_win.values())
        dd_cost = float(top - dd_win[chosen])
        dd = {"best": [nm for nm in names if dd_win[nm] >= top - 1e-12], "cost": dd_cost,
              "grade": grade_of(dd_cost)[0]}
    best = names[k_best]
    grade, noise = grade_of(cost, ci)
    over = f"every one of the {int(keep.sum())} hands" if every else f"{worlds} worlds"
    text = (f"{chosen}: P(win the game) {means[k]:.3f} over {over}"
            + ("" if k == k_best else f"; {best} {means[k_best]:.3f} (cost {cost:.3f}, "
               f"95% [{ci[0]:.3f}, {ci[1]:.3f}])")
            + f" — {grade}"
            + ("" if dd is None else "; double dummy "
               + ("best" if dd["cost"] <= 1e-12 else f"cost {dd['cost']:.3f}, {dd['grade']}")
               + f" (best {' '.join(dd['best'])})"
               + (" — with every card seen it loses nothing: the cost is over the hands "
                  "the player could not tell apart" if dd["cost"] <= 1e-12 and cost > EQUAL
                  else " — only with the other hand seen, which the player could not: "
                  "over what he knew it was the best" if dd["cost"] > 1e-12 and cost <= EQUAL
                  else "")))
    return _verdict("card", s, by, chosen, best=best, values=values, cost=cost,
                    cost_ci95=ci, grade=grade, within_noise=noise,
                    n=int(keep.sum()) if every else int(worlds),
                    unit="exact" if every else "worlds", strategy=format_card(int(best_card)),
                    dd=dd, rule=rule, text=text)


def _concealing(s: DealState, by: str) -> int:
    """How the coach reads the adversary's silence about the king of trumps
    (:func:`~ecarte_sim.analysis.ecarte.play.card_advice.concealing`), from what ``by``
    could know: as the treatise's concealer — where the mark cannot change the game he
    may conceal it, and his silence says nothing (A in the worked game, whom Y took "not
    to hold the king because he did not mark it"); elsewhere concealing would cost him the
    mark, and his silence says he has not the king."""
    from ecarte_sim.analysis.practice.laws import king_mark_changes_nothing
    other = s.other(by)
    xe, yd = s.live()
    holder, mine = (xe, yd) if other == s.elder else (yd, xe)
    return 1000 if king_mark_changes_nothing(holder, mine, other == s.elder, int(s.first)) \
        else 0


#: The treatise on leads (Hoyle's Games Modernized, the jeux de règle).
LEAD_WORDS = ("\u201ccards in sequence, or single cards, are better as leads than one high "
              "card, and then a small one of a two-card suit\u201d")


def _play_rule(hand: int, led: int, trump: int, possible: int) -> str:
    """The treatise's play here: the engine's heuristic player (the treatise's advice from
    the player's own knowledge: :func:`~ecarte_sim.engine.ecarte.play.players.heuristic_card`),
    with the treatise's words on leads."""
    from ecarte_sim.engine.ecarte.play.players import heuristic_card
    c = format_card(int(heuristic_card(np.uint32(hand), np.int64(led), np.int64(trump), True,
                                       np.uint32(possible))))
    if led < 0:
        return f"the treatise ({LEAD_WORDS}; the engine's heuristic from it) leads {c}"
    return (f"the treatise's play (win as cheaply as possible, else throw the weakest card; "
            f"Law 43: follow suit, win when able, trump when void) plays {c}")


def _dd_now(s: DealState) -> int | None:
    """The elder's tricks at the end with best play by both from the state now (None when
    a card is unknown)."""
    from ecarte_sim.engine.ecarte.laws.position import to_play
    from ecarte_sim.engine.ecarte.laws.tricks import ELDER
    from ecarte_sim.engine.ecarte.search.moves import legal_moves
    from ecarte_sim.engine.ecarte.search.solver import value_after
    e, d = s.hand[s.elder], s.hand[s.dealer]
    if e is None or d is None or s.state is None:
        return None
    leader, tricks, led, _ = s.state
    mover = to_play(s.state)
    legal = int(legal_moves(np.uint32(e if mover == ELDER else d), led, s.trump, True))
    vals = [int(value_after(np.uint32(e), np.uint32(d), leader, tricks, led,
                            s.trump, True, c)) for c in cards_of(legal)]
    return max(vals) if mover == ELDER else min(vals)


def _king_over_worlds(s: DealState, a: dict, chosen: str, rule: str, plus, seed: int,
                      worlds: int, model: str) -> dict:
    """The king's verdict from what the player knows (the adversary's cards unseen): the
    mark's worth over the worlds the coach's card player weighs for his next card (the
    outcome of the card it plays in each world, double dummy), paired world by world."""
    from ecarte_sim.analysis.ecarte.play.card_advice import decide_position
    by = a["by"]
    role = s.role(by)
    p = s.position_of(by)
    if p is None:
        return _verdict("king", s, by, chosen, best="announce", rule=rule,
                        text=f"{chosen}: not valued: a card is unknown")
    deal_index = s.deal.get("index")
    deal_index = (s.deal.get("number", 1) - 1) if deal_index is None else deal_index
    (best_card, legal, *_), cards, outcomes, _, _, weights, every = decide_position(
        p, seed, deal_index, worlds, model, True, True, COACH_PLAYER, _concealing(s, by))
    n = max(1, bin(int(legal)).count("1"))
    k = next((i for i in range(n) if int(cards[i]) == int(best_card)), 0)
    keep = weights > 0
    outcomes, w = outcomes[keep], weights[keep].astype(float)
    xe, yd = s.live()
    mark = np.array([outcome_win(int(o), p.first, xe + plus[0], yd + plus[1], role)
                     if xe + plus[0] < 5 and yd + plus[1] < 5 else 1.0
                     for o in outcomes[:, k]])
    none = np.array([outcome_win(int(o), p.first, xe, yd, role) for o in outcomes[:, k]])
    diff = mark - none
    worth = float(np.average(diff, weights=w))
    n_eff = w.sum() ** 2 / (w ** 2).sum()
    se = 0.0 if every or n_eff <= 1 else \
        math.sqrt(float(np.average((diff - worth) ** 2, weights=w)) / (n_eff - 1))
    cost = 0.0 if chosen == "announce" else worth
    ci = [0.0, 0.0] if chosen == "announce" else normal_ci(worth, se, Z95_ROUNDED)
    text = (f"{chosen} the king: "
            + ("the mark taken" if chosen == "announce" else
               f"the mark given up costs {cost:.3f} in P(win the game) over "
               + (f"every hand the adversary may hold ({int(keep.sum())}), weighed by "
                  "what you know" if every else f"{worlds} worlds drawn from what you know")
               + " (what concealing gains by deceiving is not valued)"))
    return _verdict("king", s, by, chosen, best="announce",
                    values={"announce": float(np.average(mark, weights=w)),
                            "conceal": float(np.average(none, weights=w))},
                    cost=cost, cost_ci95=[float(c) for c in ci], rule=rule,
                    n=int(keep.sum()) if every else int(worlds),
                    unit="exact" if every else "worlds", text=text)


def _king(s: DealState, a: dict, seed: int = 0, worlds: int = 64,
          model: str = "strategy") -> dict | None:
    by = a["by"]
    chosen = "announce" if a.get("announce") else "conceal"
    role = s.role(by)
    rule = ("Law 23: \u201cIf either player hold the king of trumps, he must announce it "
            "before playing his first card, or he loses the right to mark it.\u201d")
    xe, yd = s.live()                     # before this action: the mark not yet made
    t = _dd_now(s)
    plus = (1, 0) if role == "elder" else (0, 1)
    if t is None:
        return _king_over_worlds(s, a, chosen, rule, plus, seed, worlds, model)
    with_mark = outcome_win(t, s.first, xe + plus[0], yd + plus[1], role)
    if xe + plus[0] >= 5 or yd + plus[1] >= 5:
        with_mark = 1.0
    without = outcome_win(t, s.first, xe, yd, role)
    cost = 0.0 if chosen == "announce" else float(with_mark - without)
    text = (f"{chosen} the king: "
            + ("the mark taken" if chosen == "announce" else
               f"the mark given up costs {cost:.3f} in P(win the game) with the deal's "
               "double-dummy outcome (what concealing gains by deceiving is not valued)"))
    return _verdict("king", s, by, chosen, best="announce",
                    values={"announce": with_mark, "conceal": without}, cost=cost,
                    cost_ci95=[cost, cost], rule=rule, n=1, unit="exact", text=text)


def grade(deal: dict, j: int, *, seed: int = 0, worlds: int = COACH_WORLDS,
          model: str = "strategy") -> dict | None:
    """The verdict on action ``j`` of ``deal`` (a deal of a record), or None when the
    action is no decision (a forced card, a mark). ``seed``: the deal's stream's
    (:func:`.seeds.deal_stream`: the worlds' random words, and the deals around a hand); ``worlds``: a card verdict's;
    ``model``: how both players are assumed to decide (:mod:`.cards`)."""
    for i, a, s in action_states(deal):
        if i == j:
            kind = a["type"]
            if kind in ("propose", "play", "accept", "refuse"):
                return _first(s, a, seed)
            if kind == "discard":
                return _discard(s, a, seed)
            if kind == "card":
                return _card(s, a, seed, worlds, model)
            if kind == "king":
                return _king(s, a, seed, worlds, model)
            return None
    raise IndexError(f"the deal has no action {j}")


def _hide(v: dict) -> dict:
    """A mistake or a blunder waits for "try again" or "reveal" (lichess's "learn from
    your mistakes")."""
    if v["grade"] in ("mistake", "blunder"):
        v["revealed"] = False
        v["hidden"] = list(HIDDEN)
        v["prompt"] = (f"A {v['grade']}: it cost {v['cost']:.3f} in P(win the game). "
                       "Try again, or reveal the answer.")
    else:
        v["revealed"] = True
    return v


def grade_action(before, table, phase: str, action: dict) -> dict | None:
    """The practice table's hook (:class:`~ecarte_sim.apps.practice.session.Table`):
    the verdict on the person's decision just made, read from the table's record (its
    last deal's last action), with ``revealed``/``hidden``/``prompt`` for "try again"."""
    del before, phase, action
    # graded on what the person may see (the public record: the computer's unplayed
    # cards unknown), so that no verdict during the deal tells anything of them; the
    # deal's double-dummy replay comes when it is over
    public = getattr(table, "public_record", None)
    record = public() if public is not None else table.record()
    deal = record["deals"][-1]
    stream = getattr(table, "stream", None)         # the worlds' words: the deal's stream
    seed = stream()[0] if stream is not None else deal_stream(record, deal)[0]
    j = len(deal["actions"]) - 1
    if j < 0:
        return None
    try:
        v = grade(deal, j, seed=int(seed or 0),
                  worlds=max(COACH_WORLDS, int((record.get("table") or {}).get("worlds", 64))),
                  model=_model((record.get("table") or {}).get("opponent")))
    except Exception as exc:            # the coach never stops the game
        a = deal["actions"][j]
        return {"kind": a.get("type"), "by": a.get("by"), "deal": deal.get("number"),
                "chosen": a.get("card") or a.get("cards") or a.get("type"), "grade": "unknown",
                "cost": None, "cost_ci95": None, "revealed": True,
                "text": f"the coach could not value this decision "
                        f"({exc.__class__.__name__}: {str(exc)[:120]})"}
    return None if v is None else _hide(v)


# ----------------------------------------------------------------------------- the table's replay

def replay_deal(table, d) -> dict:
    """The practice table's hook: :func:`replay` of deal ``d`` of ``table``."""
    record = table.record()
    try:
        return replay(record["deals"][d.number - 1])
    except Exception as exc:            # the coach never stops the game
        return {"known": False, "reason": f"the replay failed ({exc.__class__.__name__})"}


# ----------------------------------------------------------------------------- the game

def _players(record: dict, players) -> list[str]:
    if players is not None:
        return list(players)
    names = list(record.get("players") or [])
    return [p for p in names if p != "computer"] or names


def _model(opponent) -> str:
    """The model of the cards' values for a table's opponent: the ``pimc-king`` and
    ``alphamu`` computers decide as the strategy (their cards are valued as the
    strategy's)."""
    return {"treatise": "treatise"}.get(opponent, "strategy")


def review(record: dict, *, players=None, worlds: int | None = None,
           model: str | None = None, with_replay: bool = True) -> dict:
    """Every decision of ``players`` (default: every player but "computer") in a record
    graded (:func:`grade`), each deal replayed double dummy, and the :func:`summary`.
    ``worlds``/``model``: the card verdicts' (default: :data:`COACH_WORLDS` and the
    table's opponent, else the strategy). Returns ``{"players", "worlds", "model",
    "deals": [{"number", "verdicts", "replay"}], "summary", "lines"}`` (``lines``: the
    same in words, one line each)."""
    table = record.get("table") or {}
    worlds = int(worlds or max(COACH_WORLDS, table.get("worlds", 64)))
    model = model or _model(table.get("opponent"))
    who = _players(record, players)
    deals = []
    for d in record.get("deals", []):
        seed = int(deal_stream(record, d)[0] or 0)
        verdicts = []
        for j, a in enumerate(d.get("actions", [])):
            if a.get("by") not in who:
                continue
            v = grade(d, j, seed=seed, worlds=worlds, model=model)
            if v is not None:
                v["action"] = j
                verdicts.append(v)
        deals.append({"number": d.get("number"), "verdicts": verdicts,
                      "replay": replay(d) if with_replay else None})
    summary_ = _summarize(deals, who)
    lines = []
    for d in deals:
        for v in d["verdicts"]:
            lines.append(f"deal {d['number']}, {v['by']} ({v['role']}), {v['kind']}: "
                         f"{v['text']}")
        if d["replay"] is not None:
            r = d["replay"]
            lines.append(f"deal {d['number']}, double dummy: "
                         + (r["text"] if r["known"] else f"not replayed ({r['reason']})"))
    lines.append(f"summary: {summary_['text']}")
    return {"players": who, "worlds": worlds, "model": model, "deals": deals,
            "summary": summary_, "lines": lines}


def _summarize(deals: list[dict], who: list[str], taken_back=()) -> dict:
    all_v = [v for d in deals for v in d["verdicts"]]
    taken_back = list(taken_back)
    by_grade = {g: 0 for g in GRADES}
    for v in all_v:             # a record kept before may hold a grade no longer given
        g = v.get("grade", "unknown")
        by_grade[g] = by_grade.get(g, 0) + 1
    valued = [v for v in all_v if v.get("cost") is not None]
    lost = float(sum(v["cost"] for v in valued))
    by_kind: dict = {}
    for v in valued:
        by_kind[v["kind"]] = by_kind.get(v["kind"], 0.0) + float(v["cost"])
    worst = sorted(valued, key=lambda v: -v["cost"])[:3]
    return {"players": who, "decisions": len(all_v), "valued": len(valued),
            "by_grade": by_grade, "lost": lost, "lost_by_kind": by_kind,
            "worst": [{"deal": v.get("deal"), "kind": v["kind"], "by": v["by"],
                       "chosen": v["chosen"], "best": v.get("best"), "cost": v["cost"],
                       "grade": v["grade"], "text": v.get("text")} for v in worst
                      if v["cost"] > EQUAL],
            "taken_back": [{"deal": v.get("deal"), "kind": v.get("kind"),
                            "chosen": v.get("chosen"), "grade": v.get("grade"),
                            "cost": v.get("cost")} for v in taken_back],
            "per_deal": [{"deal": d["number"], "decisions": len(d["verdicts"]),
                          "lost": float(sum(v["cost"] for v in d["verdicts"]
                                            if v.get("cost") is not None))}
                         for d in deals],
            "text": (f"{len(all_v)} decision{'s' if len(all_v) != 1 else ''}: "
                     + ", ".join(_counted(n, g) for g, n in by_grade.items() if n)
                     + f"; {lost:.3f} of P(win the game) given up, summed decision by "
                     "decision (each against the best choice at that moment)"
                     + (f"; {len(taken_back)} decision{'s' if len(taken_back) != 1 else ''} "
                        f"taken back and chosen again (not counted above)"
                        if taken_back else ""))}


_PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def _counted(n: int, grade: str) -> str:
    """``n`` decisions of ``grade`` in words: "2 inaccuracies", "1 not valued (...)"."""
    words = _PLURAL.get(grade, grade) if n != 1 else grade
    if grade == "unknown":
        words = "not valued (a card unknown, or the coach failed)"
    return f"{n} {words}"


def summary(record: dict, players=None) -> dict:
    """A game's decisions, grades and what was lost: from the verdicts the record keeps
    (the practice table's ``coach`` lists) when it has any, else graded now
    (:func:`review` without the replays). Keys: ``players``, ``decisions``, ``valued``,
    ``by_grade``, ``lost`` (summed cost in P(win the game)), ``lost_by_kind``, ``worst``
    (the three dearest), ``taken_back`` (the verdicts on the decisions taken back by
    "try again", kept by the record), ``per_deal``, ``text``."""
    who = _players(record, players)
    kept = [d.get("coach") for d in record.get("deals", [])]
    if any(kept):
        deals = [{"number": d.get("number"),
                  "verdicts": [v for v in (d.get("coach") or []) if v.get("by") in who]}
                 for d in record.get("deals", [])]
        taken_back = [v for d in record.get("deals", []) for v in (d.get("retried") or [])
                      if isinstance(v, dict) and v.get("by") in who]
        return _summarize(deals, who, taken_back)
    return review(record, players=who, with_replay=False)["summary"]


__all__ = ["grade", "grade_action", "grade_of", "replay", "replay_deal", "review",
           "summary", "win_after", "outcome_win", "INACCURACY", "MISTAKE", "BLUNDER",
           "GRADES"]
