"""Advice on one hand from the shipped strategy: the action at once, its value on demand.

* :func:`advise` — what to do with five cards at a score. Against the computed strategy
  of five up (the default; :mod:`ecarte_sim.analysis.ecarte.solving.solved`): the action is the
  shipped table's entry for the hand's canonical state at that score, read at once; each
  action's P(win the game) and marks per deal with 95% intervals are then sampled on
  deals around the hand with the opponent and the later rounds playing the shipped
  tables and the later deals valued by the strategy's own ``V``. Against the treatise
  (``against="treatise"``): the best response to Hoyle's pair, sampled, as
  :func:`sampled_advice` computes it.
* :func:`sampled_advice` — one hand's two actions valued on deals around it (both on the
  same deals), the opponent and the later rounds as the settings and tables say, and what
  the treatise says: what :func:`advise` reads, and the treatise's best response.
* :func:`discard_advice` — at the first exchange: which cards the strategy throws, and
  what each discard rule that throws other cards is worth against it (paired, 95%
  intervals).
* :func:`table_action` — the table's entry alone (no sampling).
* :func:`answer` — which action the advice leads with: the table's, unless the hand's
  own values resolve the other (then the values answer, and the advice says by how much
  the table differs); too close to call is said.

Where the turn-up is not given, the hand's state depends on the turn-up's rank: the
table is read for each turn-up the hand allows, and the action is the one the table
takes for most of them (all are listed).
"""

from __future__ import annotations


import numpy as np

from ecarte_sim.analysis.ecarte.solving import solved as shipped
from ecarte_sim.analysis.ecarte.solving.situation import ACTIONS, hand_situation
from ecarte_sim.engine.deck import ECARTE, format_card, format_hand
from ecarte_sim.engine.ecarte.decisions.canonical import canonical_index
from ecarte_sim.engine.ecarte.laws.score import Score, score_row

# The table's action reads one hand in plain Python (the situation, its state counted, one
# table of the shipped data): :mod:`~ecarte_sim.analysis.ecarte.solving.proposal_game`, which
# samples the values, and the kernels are
# imported where the values are sampled, so that ``advise --no-values`` does not load them.

AGAINST = ("equilibrium", "treatise")


def _role(role: str) -> str:
    if role not in ACTIONS:
        raise ValueError(f"unknown role {role!r}; choose from elder, dealer")
    return role


def table_action(strategy: shipped.Solved, role: str, mask: int, turn_ups, x: int,
                 y: int) -> dict:
    """The table's first decision for the hand at (x, y), per possible turn-up, and the
    one it takes for most of them."""
    slot = score_row(x, y)
    arm_a, arm_b = ACTIONS[role]
    row = strategy.table(role)[slot]
    by = {}
    states = [canonical_index(mask, int(t)) for t in turn_ups]
    for t, state in zip(turn_ups, states):
        by[format_card(int(t))] = arm_a if row[state] else arm_b
    counts = {a: sum(1 for v in by.values() if v == a) for a in (arm_a, arm_b)}
    action = arm_a if counts[arm_a] > counts[arm_b] else arm_b
    if counts[arm_a] == counts[arm_b]:     # a tie over the turn-ups: the stored gain decides
        gain = strategy.gain(role)[slot]
        mean = np.nanmean([gain[s] for s in states]) if any(
            np.isfinite(gain[s]) for s in states) else 0.0
        action = arm_a if mean > 0 else arm_b
    solve = strategy.provenance.get("solve") or {}
    # a solve of a sample of the states re-solved them all when the model answered the rest
    re_solved = solve.get("states") is None or bool(solve.get("extend"))
    return {"action": action, "by_turn_up": by, "unanimous": len(set(by.values())) == 1,
            "re_solved": re_solved}


def strategy_settings(strategy: shipped.Solved, x: int, y: int, play: str | None = None):
    """Settings and script in which both players play the strategy's row of (x, y), the
    cards by the play model it was solved with (or ``play``). Built once per strategy,
    score and play (packing the tables is most of a coach's small request); each call
    gets its own copy of the script."""
    key = (id(strategy), int(x), int(y), play)
    hit = _SETTINGS.get(key)
    if hit is None or hit[0] is not strategy:
        if len(_SETTINGS) >= 64:
            _SETTINGS.clear()
        hit = _SETTINGS[key] = (strategy, *_strategy_settings(strategy, int(x), int(y), play))
    return hit[1], hit[2].copy()


#: (id of the strategy, x, y, play) -> (the strategy, settings, script): see above.
_SETTINGS: dict = {}


def _strategy_settings(strategy: shipped.Solved, x: int, y: int, play: str | None):
    from ecarte_sim.analysis.ecarte.solving import proposal_game as st
    from ecarte_sim.analysis.ecarte.solving.equilibrium import base_settings, at_score
    from ecarte_sim.engine.ecarte.settings import EcarteSettings

    solved_with = strategy.provenance.get("solve", {}).get("settings", {})
    settings = EcarteSettings.build(play=play or strategy.play,
                                    **({"worlds": solved_with["worlds"]}
                                       if "worlds" in solved_with and play is None else {}))
    return st.reading_tables(base_settings(settings),
                             **at_score(strategy.tables(), score_row(x, y)))


def advise(hand: str, trump: str, score="0-0", role: str = "elder", *,
           turn_up: str | None = None, against: str = "equilibrium",
           play: str | None = None, settings=None, seed: int = 0,
           deals: int | None = None, values: bool = True) -> dict:
    """What to do with ``hand`` at ``score`` (module docstring). The JSON of ``ecarte-sim
    advise``: the keys of the treatise's advice (``action``, ``values``, ``gain``,
    ``treatise``, ``agrees``, ``n``, ...) and ``strategy``: which strategy answered (its
    play model and provenance) and, against the equilibrium, ``table_action`` (the
    table's entry, per turn-up) and :func:`answer`'s keys (``answered_by``: ``table`` or
    ``values``; ``too_close``; ``table_differs_by``)."""
    role = _role(role)
    if against not in AGAINST:
        raise ValueError(f"unknown opponent {against!r}; choose from {', '.join(AGAINST)}")
    x, y = Score.of(score)
    if against == "treatise":
        turn_ups = hand_situation(hand, trump, turn_up)[3]
        _check_deals(deals, len(turn_ups))
        result = sampled_advice(hand, trump, f"{x}-{y}", role, turn_up=turn_up,
                                settings=settings, seed=seed,
                                deals=deals or treatise_deals(len(turn_ups)))
        result["strategy"] = {"against": "treatise",
                              "answers": "the best response to Hoyle's list and the maxims"}
        return result
    strategy = shipped.load(play)
    mask, suit, turned, turn_ups = hand_situation(hand, trump, turn_up)
    _check_deals(deals, len(turn_ups))
    table = table_action(strategy, role, mask, turn_ups, x, y)
    info = {"against": "equilibrium", "play": strategy.play,
            "answers": f"the computed strategy of five up ({strategy.play})",
            "converged": strategy.provenance.get("converged"),
            "command": strategy.provenance.get("command"),
            "git_commit": strategy.provenance.get("git_commit")}
    if not values:
        return {"hand": format_hand(mask, ECARTE), "trump": "SHDC"[suit],
                "turn_up": format_card(turned) if turned is not None else None,
                "role": role, "score": f"{x}-{y}", "action": table["action"],
                "table_action": table, "strategy": info}
    run, script = strategy_settings(strategy, x, y)
    result = sampled_advice(hand, trump, f"{x}-{y}", role, turn_up=turn_up, settings=run,
                            seed=seed, deals=deals or (1 << 14), v=strategy.v, script=script)
    sampled = result["action"]
    result["table_action"] = table
    result["sampled_better"] = sampled
    result["strategy"] = info
    result["decided_by_the_deal"] = decided_by_the_deal(result)
    result.update(answer(table["action"], sampled, result["decided"],
                         result["decided_by_the_deal"], result["gain"]))
    result["agrees"] = result["action"] == result["treatise"]["says"]
    return result


def answer(table: str, sampled: str, resolved: bool, decided_by_the_deal: bool,
           gain: dict) -> dict:
    """Which action the advice leads with, and who answered. The table's entry, unless
    the values on the hand's own deals resolve the other action (the 95% interval of
    the paired gain excludes zero on its side): then that action, the values having
    answered, and ``table_differs_by`` the table's loss on these deals (its interval).
    ``too_close``: the interval holds zero, so the deals cannot tell the two apart.
    Where the deal cannot change the game (:func:`decided_by_the_deal`) the table answers."""
    lo, hi = gain["p_win_ci95"]
    against_table = sampled != table and resolved and not decided_by_the_deal
    out = {"action": sampled if against_table else table,
           "answered_by": "values" if against_table else "table",
           "too_close": (not resolved) and not decided_by_the_deal,
           "table_differs_by": None}
    if against_table:
        flip = gain["p_win"] < 0
        out["table_differs_by"] = {"p_win": abs(gain["p_win"]),
                                   "p_win_ci95": [-hi, -lo] if flip else [lo, hi]}
    return out


#: Deals around the hand against the treatise: 2^16, at most what the deals a turn-up has
#: room for allow (``CHECK_DEALS`` each: 2^15 when the turn-up is given).
TREATISE_DEALS = 1 << 16


def treatise_deals(turn_ups: int) -> int:
    """The default deals against the treatise for a hand with ``turn_ups`` possible
    turn-ups: :data:`TREATISE_DEALS`, or fewer where the turn-ups have no room for them."""
    from ecarte_sim.engine.ecarte.deals.action_values import CHECK_DEALS
    return min(TREATISE_DEALS, CHECK_DEALS * turn_ups)


def _check_deals(deals: int | None, turn_ups: int) -> None:
    if deals is None:
        return
    from ecarte_sim.engine.ecarte.deals.action_values import CHECK_DEALS
    if -(-int(deals) // turn_ups) > CHECK_DEALS:
        raise ValueError(f"--deals {deals}: at most {CHECK_DEALS * turn_ups} with "
                         f"{turn_ups} possible turn-up{'s' if turn_ups > 1 else ''} "
                         f"({CHECK_DEALS} deals a turn-up)")


def decided_by_the_deal(result: dict) -> bool | None:
    """True when both actions give the same P(win the game) on every deal, 0 or 1: the
    game is decided before the play (a king marked at four, Laws 22–24 and 46)."""
    vals = [v["p_win"] for v in result["values"].values()]
    lo = [v["p_win_ci95"][0] for v in result["values"].values()]
    hi = [v["p_win_ci95"][1] for v in result["values"].values()]
    return all(v in (0.0, 1.0) and a == b == v for v, a, b in zip(vals, lo, hi))


def arm_values(joint, v, x: int, y: int, role: str, arm_a: str, arm_b: str):
    """Both actions valued from the paired marks codes ``joint`` (arm a's code by arm b's,
    counts) at (x, y) under ``V`` = ``v``, for ``role``: (values per action — P(win the game)
    and his marks a deal, with 95% intervals —, the paired gain of arm a over arm b, n,
    whether the gain's interval excludes zero)."""
    from ecarte_sim.analysis.ecarte.measures.paired import mean_of, paired_mean
    from ecarte_sim.analysis.ecarte.solving.proposal_game import MARKS_NET, marks_value
    f = marks_value(v, x, y)
    own = f if role == "elder" else 1.0 - f
    net = (1.0 if role == "elder" else -1.0) * MARKS_NET.astype(float)
    values = {}
    for name, counts in ((arm_a, joint.sum(axis=1)), (arm_b, joint.sum(axis=0))):
        win = mean_of(counts, own)
        marks = mean_of(counts, net)
        values[name] = {"p_win": win["mean"], "p_win_ci95": win["ci95"],
                        "marks": marks["mean"], "marks_ci95": marks["ci95"]}
    gain = paired_mean(joint, own)
    gain_marks = paired_mean(joint, net)
    decided = not (gain["ci95"][0] <= 0 <= gain["ci95"][1])
    return (values, {"of": f"{arm_a} over {arm_b}", "p_win": gain["mean"],
                     "p_win_ci95": gain["ci95"], "marks": gain_marks["mean"],
                     "marks_ci95": gain_marks["ci95"]}, int(joint.sum()), decided)


def sampled_advice(hand: str, trump: str, score: str = "0-0", role: str = "elder", *,
                   turn_up: str | None = None, settings=None, seed: int = 0,
                   deals: int = 1 << 16, v: np.ndarray | None = None,
                   script: np.ndarray | None = None) -> dict:
    """What to do with ``hand`` (the ``role``'s five cards) at ``score``: each action's
    probability of winning the game and marks per deal, with 95% intervals, on ``deals``
    deals around the hand (both actions on the same deals), the opponent and the later
    rounds as ``settings`` (and the tables of ``script``, for table policies) say; and
    what the treatise says."""
    from ecarte_sim.analysis.ecarte.solving.proposal_game import ROLES, arm_cfgs, continuation
    from ecarte_sim.analysis.ecarte.text.reasons import MAXIM_WORDS
    from ecarte_sim.engine.ecarte.deals.action_values import (CHECK_DEALS, CHECK_DEALS_START,
                                                              N_MARKS, marks_block)
    from ecarte_sim.engine.ecarte.decisions.policies import MAXIM_ACCEPTS, MAXIM_CASES, maxim_case
    from ecarte_sim.engine.ecarte.decisions.policies import empty_script
    from ecarte_sim.engine.ecarte.decisions.regle import explain
    from ecarte_sim.engine.ecarte.settings import EcarteSettings
    from ecarte_sim.engine.rng import check_seed

    settings = settings or EcarteSettings()
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; choose from elder, dealer")
    x, y = Score.of(score)
    mask, suit, turned, turn_ups = hand_situation(hand, trump, turn_up)
    if v is None:
        v = continuation(settings, seed)["v"]
    per = max(2, -(-int(deals) // len(turn_ups)))
    if per > CHECK_DEALS:
        raise ValueError(f"at most {CHECK_DEALS} deals per turn-up")
    cfg_a, cfg_b = arm_cfgs(role, settings, x, y)
    n_rows = len(turn_ups)
    out = np.zeros((n_rows, N_MARKS * N_MARKS), dtype=np.int64)
    att = np.zeros(n_rows, dtype=np.int64)
    mis = np.zeros(n_rows, dtype=np.int64)
    ids = np.array([canonical_index(mask, t) for t in turn_ups], dtype=np.int64)
    marks_block(np.uint64(check_seed(seed)), ROLES[role],
                np.full(n_rows, mask, dtype=np.int64), turn_ups,
                ids, False, np.full(n_rows, CHECK_DEALS_START, dtype=np.int64),
                np.full(n_rows, CHECK_DEALS_START + per, dtype=np.int64), cfg_a, cfg_b,
                empty_script() if script is None else script, out, att, mis)
    joint = out.sum(axis=0).reshape(N_MARKS, N_MARKS)
    arm_a, arm_b = ACTIONS[role]
    values, gain, n, decided = arm_values(joint, v, x, y, role, arm_a, arm_b)
    if role == "elder":
        why = explain(mask, suit)
        says = "play" if why["rule"] else "propose"
        treatise = {"policy": "regle", "says": says, "rule": why["rule"],
                    "words": why.get("words"), "reason": why["reason"]}
    else:
        case = MAXIM_CASES[int(maxim_case(np.uint32(mask), suit)) - 1]
        says = "accept" if MAXIM_ACCEPTS[MAXIM_CASES.index(case)] else "refuse"
        treatise = {"policy": "maxims", "says": says, "maxim": case,
                    "words": MAXIM_WORDS[case][0] if case in MAXIM_WORDS else None,
                    "reason": (f"{MAXIM_WORDS[case][1]}: {says}" if case in MAXIM_WORDS else
                               f"no maxim speaks for this hand ({case}); the maxims' "
                               f"default is to {says}")}
    # the better action; on an exact tie (the same chance on every deal) the treatise's
    action = arm_a if gain["p_win"] > 0 else arm_b if gain["p_win"] < 0 else says
    result = {"hand": format_hand(mask, ECARTE), "trump": "SHDC"[suit],
              "turn_up": format_card(turned) if turned is not None else None,
              "role": role, "score": f"{x}-{y}", "action": action, "decided": decided,
              "values": values, "gain": gain,
              "treatise": treatise, "agrees": action == says,
              "n": n, "seed": int(seed), "settings": settings.echo()}
    if role == "dealer":
        result["proposal_rate"] = n / int(att.sum()) if att.sum() else None
    return result


def discard_advice(hand: str, trump: str, score="0-0", role: str = "elder", *,
                   turn_up: str | None = None, play: str | None = None, seed: int = 0,
                   deals: int | None = None) -> dict:
    """At the role's first exchange (he proposed and was accepted, or accepted): the
    cards the strategy's discard table throws from ``hand``, and each other discard rule
    of :data:`~ecarte_sim.analysis.ecarte.solving.proposal_game.RULES` that throws other cards,
    played against it on the same deals around the hand: the paired gain in the role's
    P(win the game) and marks per deal, 95% intervals."""
    from ecarte_sim.analysis.ecarte.measures.paired import paired_mean
    from ecarte_sim.analysis.ecarte.solving import proposal_game as st
    from ecarte_sim.engine.ecarte.deals.action_values import (CHECK_DEALS, CHECK_DEALS_START,
                                                              N_MARKS, marks_block)
    from ecarte_sim.engine.ecarte.settings import Discard, name_of
    from ecarte_sim.engine.rng import check_seed

    role = _role(role)
    x, y = Score.of(score)
    strategy = shipped.load(play)
    mask, suit, turned, turn_ups = hand_situation(hand, trump, turn_up)
    slot = score_row(x, y)
    ids = np.array([canonical_index(mask, int(t)) for t in turn_ups], dtype=np.int64)
    own_rules = strategy.discard(role)[slot][ids]
    own = int(np.bincount(own_rules).argmax())
    run, script = strategy_settings(strategy, x, y)

    def cards(rule: int) -> int:
        """What the rule throws from the hand (the rules read the trump suit only)."""
        return int(st.thrown(role, Discard(rule), None, np.array([mask], dtype=np.uint32),
                             np.array([int(turn_ups[0])], dtype=np.int64))[0])

    thrown = cards(own)
    per = max(2, -(-int(deals or (1 << 14)) // len(turn_ups)))
    if per > CHECK_DEALS:
        raise ValueError(f"at most {CHECK_DEALS} deals per turn-up")
    v = strategy.v
    sign = 1.0 if role == "elder" else -1.0
    f = st.marks_value(v, x, y)
    value = f if role == "elder" else 1.0 - f
    net = sign * st.MARKS_NET.astype(float)
    options = []
    seen = {thrown}
    for rule in st.RULES:
        m = cards(rule)
        if m in seen:
            continue
        seen.add(m)
        cfg_a, cfg_b = st.arm_cfgs(role, run, x, y, rule=rule)
        n_rows = len(turn_ups)
        out = np.zeros((n_rows, N_MARKS * N_MARKS), dtype=np.int64)
        att = np.zeros(n_rows, dtype=np.int64)
        mis = np.zeros(n_rows, dtype=np.int64)
        marks_block(np.uint64(check_seed(seed)), st.DISCARD_ROLES[role],
                    np.full(n_rows, mask, dtype=np.int64), turn_ups, ids, False,
                    np.full(n_rows, CHECK_DEALS_START, dtype=np.int64),
                    np.full(n_rows, CHECK_DEALS_START + per, dtype=np.int64),
                    cfg_a, cfg_b, script, out, att, mis)
        joint = out.sum(axis=0).reshape(N_MARKS, N_MARKS)
        win = paired_mean(joint, value)
        marks = paired_mean(joint, net)
        options.append({"rule": name_of(Discard(rule)), "throws": format_hand(m, ECARTE),
                        "gain_win": win["mean"], "gain_win_ci95": win["ci95"],
                        "gain_marks": marks["mean"], "gain_marks_ci95": marks["ci95"],
                        "n": win["n"]})
    return {"hand": format_hand(mask, ECARTE), "role": role, "score": f"{x}-{y}",
            "rule": name_of(Discard(own)), "throws": format_hand(thrown, ECARTE),
            "keeps": format_hand(mask & ~thrown, ECARTE), "others": options,
            "strategy": {"against": "equilibrium", "play": strategy.play}}
