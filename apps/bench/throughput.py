"""``ecarte-sim bench``: throughput of each kernel on the same deals, and start-up costs.

Every figure is measured in the run that prints it; nothing here is asserted
on wall time (tests only check the report's shape).
"""

from __future__ import annotations

import importlib.util
import os
import platform
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np

_COLD_SNIPPET = """
import time
t = time.perf_counter()
from ecarte_sim.engine.ecarte.deals.simulate import simulate_counts
for mode in ("deal", "exact", "point-vole"):
    simulate_counts(0, 0, 64, mode)
print(time.perf_counter() - t)
"""

_SOLVE_ARGS = ["solve", "QH AH 7H KS KD", "KH JH 9H 8H 9C", "--trump", "TH", "--json"]
#: Deals of the whole-process run (``ecarte-sim simulate --no-exchange``, warm cache).
PROCESS_DEALS = 20_000_000


def _rate(fn, n: int, repeat: int = 1, min_total_s: float = 0.0) -> tuple[float, float, int]:
    """Best timing of ``fn`` (which handles ``n`` deals): (deals/s, seconds, runs).

    Runs ``repeat`` times, or more (up to 50) until ``min_total_s`` has been
    spent, so that a very fast kernel is not judged on one short run."""
    best, spent, runs = float("inf"), 0.0, 0
    while runs < repeat or (spent < min_total_s and runs < 50):
        t = time.perf_counter()
        fn()
        dt = time.perf_counter() - t
        best, spent, runs = min(best, dt), spent + dt, runs + 1
    return n / best, best, runs


def _startup_times(process_deals: int = PROCESS_DEALS) -> dict:
    """Cold compile (fresh numba cache), warm `ecarte-sim solve` end to end, and a
    whole `ecarte-sim simulate --no-exchange` process on ``process_deals`` deals (warm cache,
    start-up included; 0 skips it)."""
    with tempfile.TemporaryDirectory(prefix="ecarte-bench-cache-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", _COLD_SNIPPET], env=env, check=True,
                             capture_output=True, text=True)
        cold_total = time.perf_counter() - t
        compile_s = float(out.stdout.strip().splitlines()[-1])
        cli = [sys.executable, "-m", "ecarte_sim.apps.cli", *_SOLVE_ARGS]
        subprocess.run(cli, env=env, check=True, capture_output=True)  # fills the cache
        warm = []
        for _ in range(3):
            t = time.perf_counter()
            subprocess.run(cli, env=env, check=True, capture_output=True)
            warm.append(time.perf_counter() - t)
        out = {"cold_compile_s": compile_s, "cold_process_s": cold_total,
               "warm_solve_cli_s": min(warm)}
        if process_deals:
            cli = [sys.executable, "-m", "ecarte_sim.apps.cli", "simulate", "--no-exchange",
                   "--deals", str(process_deals), "--quiet", "--json"]
            t = time.perf_counter()
            subprocess.run(cli, env=env, check=True, capture_output=True)
            seconds = time.perf_counter() - t
            out["process"] = {"command": "ecarte-sim " + " ".join(cli[3:]),
                              "deals": process_deals, "seconds": seconds,
                              "deals_per_s": process_deals / seconds}
    return out


PIMC_WORLDS = (16, 32, 64)
#: Runs of plain PIMC and of pimc-inference, in turn, behind their speed ratio.
PAIRED_RUNS = 3


def _whole_bench(n_deals: int, pimc_deals: int, seed: int, repeat: int, say) -> tuple[dict, dict]:
    """Whole deals (regle / maxims, exchanges, then dd or heuristic play), and PIMC play for
    both players at several W: deals/s, PIMC decisions and solves per deal, cost per decision;
    and pimc-inference for both at the largest W on the same deals (``pimc["inference"]``):
    its speed against plain PIMC's, proposals a world and the worlds that fell back. At
    the largest W, plain PIMC's row and the ratio are taken from ``PAIRED_RUNS`` runs of
    each, plain and inferring in turn, the best of each: single runs of a few seconds vary
    by a third on a shared machine."""
    from ecarte_sim.engine.ecarte.deals.counts import whole_counts
    from ecarte_sim.engine.ecarte.records import COUNTS
    from ecarte_sim.engine.ecarte.settings import make_cfg

    whole = {}
    for play in ("dd", "heuristic"):
        cfg = make_cfg(play=play)
        whole_counts(seed, 0, 1000, cfg)
        say(f"timing whole deals, play {play}, on {n_deals} deals ...")
        rate, seconds, runs = _rate(lambda cfg=cfg: whole_counts(seed, 0, n_deals, cfg),
                                    n_deals, repeat, min_total_s=1.0)
        whole[play] = {"deals": n_deals, "seconds": seconds, "deals_per_s": rate, "runs": runs}
    pimc = {}
    threads = numba.get_num_threads()
    largest = PIMC_WORLDS[-1]
    at = COUNTS.at

    def pimc_row(n, seconds, runs, counts):
        decisions = int(counts[at.PIMC_DECISIONS])
        solves = int(counts[at.PIMC_SOLVES])
        return {"deals": n, "seconds": seconds, "deals_per_s": n / seconds, "runs": runs,
                "decisions_per_deal": decisions / n, "solves_per_deal": solves / n,
                "us_per_decision_per_thread": seconds * threads / decisions * 1e6,
                "solves_per_s": solves / seconds}

    for worlds in PIMC_WORLDS[:-1]:          # the largest is timed below, with inference
        cfg = make_cfg(play="pimc", worlds=worlds)
        whole_counts(seed, 0, 64, cfg)
        n = max(100, pimc_deals * largest // worlds)
        say(f"timing whole deals, PIMC play for both at W = {worlds}, on {n} deals ...")
        counts = None

        def run(cfg=cfg, n=n):
            nonlocal counts
            counts = whole_counts(seed, 0, n, cfg, chunk=256)  # small tasks: both threads busy

        pimc[str(worlds)] = pimc_row(n, _rate(run, n, 1)[1], 1, counts)
    # plain PIMC and PIMC that reads the proposals, at the largest W, on the same deals
    n = max(100, pimc_deals)
    cfg = make_cfg(play="pimc", worlds=largest)
    infer_cfg = make_cfg(play="pimc-inference", worlds=largest)
    whole_counts(seed, 0, 64, cfg)
    whole_counts(seed, 0, 64, infer_cfg)
    say(f"timing whole deals, plain PIMC and pimc-inference in turn for both at W = {largest},"
        f" on {n} deals, {PAIRED_RUNS} runs each ...")
    best = {"pimc": float("inf"), "pimc-inference": float("inf")}
    counts = {}
    for _ in range(PAIRED_RUNS):
        for play, play_cfg in (("pimc", cfg), ("pimc-inference", infer_cfg)):
            t = time.perf_counter()
            counts[play] = whole_counts(seed, 0, n, play_cfg, chunk=256)
            best[play] = min(best[play], time.perf_counter() - t)
    pimc[str(largest)] = pimc_row(n, best["pimc"], PAIRED_RUNS, counts["pimc"])
    inferring = counts["pimc-inference"]
    pimc["inference"] = {
        "worlds": largest, "deals": n, "seconds": best["pimc-inference"],
        "deals_per_s": n / best["pimc-inference"], "runs": PAIRED_RUNS,
        "plain_seconds": best["pimc"], "speed_vs_plain": best["pimc"] / best["pimc-inference"],
        "fallback_share": int(inferring[at.INFER_FALLBACKS]) / int(inferring[at.INFER_WORLDS]),
        "proposals_per_world": int(inferring[at.INFER_TRIES]) / int(inferring[at.INFER_WORLDS])}
    return whole, pimc


def solver_timings(cards: int, positions: int, seed: int = 0) -> dict:
    """Time the Piquet solver on ``positions`` endings of ``cards`` cards each (both hands
    drawn at random from a shuffled pack, elder to lead, a fresh table for each ending,
    one thread): mean / median / max milliseconds and nodes."""
    from ecarte_sim.engine.piquet.solver import clear_table, new_table, new_workspace, solve
    from ecarte_sim.engine.piquet.solver import STATS

    rng = np.random.default_rng(seed)
    table, ws = new_table(16), new_workspace()
    hands = []
    for _ in range(positions):
        pack = rng.permutation(32)
        hands.append((sum(1 << int(c) for c in pack[:cards]),
                      sum(1 << int(c) for c in pack[cards:2 * cards])))
    solve(np.uint32(hands[0][0]), np.uint32(hands[0][1]), True, 0, -1, 0, table, ws)  # compile
    times, nodes = [], []
    for e, y in hands:
        clear_table(table)
        before = int(ws[STATS, 0])
        t = time.perf_counter()
        solve(np.uint32(e), np.uint32(y), True, (12 - cards) // 2, -1, 0, table, ws)
        times.append(time.perf_counter() - t)
        nodes.append(int(ws[STATS, 0]) - before)
    ms = np.array(times) * 1e3
    return {"cards": cards, "positions": positions, "mean_ms": float(ms.mean()),
            "median_ms": float(np.median(ms)), "max_ms": float(ms.max()),
            "mean_nodes": float(np.mean(nodes))}


def piquet_bench(n_deals: int, seed: int, repeat: int, say, solver_positions: int = 200,
                 pimc_deals: int = 256) -> dict:
    """Piquet whole deals per second for each player (both seats the same player) and the
    solver's time per ending."""
    from ecarte_sim.engine.piquet.settings import PiquetSettings
    from ecarte_sim.engine.piquet.simulate import deal_counts

    out = {"deals": {}}
    for player, n in (("random", n_deals), ("heuristic", n_deals),
                      ("dd", max(256, n_deals // 512)), ("pimc", pimc_deals)):
        settings = PiquetSettings(player, player, worlds=16)
        cfg, chunk = settings.cfg(), settings.chunk()
        deal_counts(seed, 0, 64, cfg, chunk=chunk)
        say(f"timing Piquet deals, {player} v {player}, on {n} deals ...")
        rate, seconds, runs = _rate(lambda cfg=cfg, n=n, chunk=chunk:
                                    deal_counts(seed, 0, n, cfg, chunk=chunk),
                                    n, repeat if player in ("random", "heuristic") else 1,
                                    min_total_s=1.0 if player in ("random", "heuristic") else 0)
        out["deals"][player] = {"deals": n, "seconds": seconds, "deals_per_s": rate,
                                "runs": runs, **({"worlds": 16} if player == "pimc" else {})}
    out["solver"] = {}
    for cards, positions in ((12, solver_positions), (8, 5 * solver_positions)):
        say(f"timing the Piquet solver on {positions} endings of {cards} cards ...")
        out["solver"][str(cards)] = solver_timings(cards, positions, seed)
    return out


def strategy_bench(seed: int, say, sampling=None) -> dict:
    """The elder's best response at 0-0 under dd against the maxims over every canonical
    state (issue 15's budget: 10 minutes on two cores): the marks tables (adaptive on
    0-0), then the whole 5 x 5 table of best responses from the same marks tables."""
    from ecarte_sim.analysis.ecarte.solving import proposal_game as st
    from ecarte_sim.engine.ecarte.settings import EcarteSettings

    settings = EcarteSettings()
    say("strategy: continuation values, then the elder's marks tables over every state ...")
    t0 = time.perf_counter()
    v = st.continuation(settings, seed)["v"]
    t1 = time.perf_counter()
    treatise = st.treatise_tables(settings)
    _, script = st.reading_tables(settings)
    marks = st.marks_tables("elder", settings, script, v=v, seed=seed, sampling=sampling,
                            slots=(0,))
    t2 = time.perf_counter()
    at_zero = st.best_response(marks, v, treatise["elder"])
    t3 = time.perf_counter()
    deals = int(marks.deals.sum())
    return {"states": int(marks.deals.size), "deals": deals,
            "rounds": [{"states": n, "deals_per_state": k} for n, k in marks.rounds],
            "continuation_s": t1 - t0, "marks_s": t2 - t1, "all_scores_s": t3 - t2,
            "paired_deals_per_s": deals / (t2 - t1),
            "propose_share_0_0": st.agreement("elder", at_zero["table"][0],
                                              np.ones_like(treatise["elder"]))}


def resolve_bench(seed: int, say, states: int = 5000, deals: int = 32) -> dict:
    """What the resolved solve costs (``equilibrium --respond --resolution pooled``): the
    marks tables of ``states`` states drawn by ``seed``, ``deals`` deals a state, the
    elder at 0-0 against the shipped strategy, under dd and pimc-inference, with one thread
    and with all; projected to a step of both roles at 25 scores over every state (dd) or
    over a sample of 5,000 extended to all (``--extend``, pimc-inference), and to 16
    threads by the scaling measured from one thread to all."""
    from ecarte_sim.analysis.ecarte.advice.first_decision import strategy_settings
    from ecarte_sim.analysis.ecarte.solving import solved
    from ecarte_sim.analysis.ecarte.solving import proposal_game as st
    from ecarte_sim.engine.ecarte.decisions.states import N_STATES

    strategy = solved.load()
    drawn = np.sort(np.random.default_rng(seed).choice(N_STATES, states, replace=False))
    out = {"states": states, "deals_per_state": deals}
    limit = numba.get_num_threads()
    for play, share in (("dd", 1.0), ("pimc-inference", 0.1)):
        run, script = strategy_settings(strategy, 0, 0, play=play)
        sample = drawn[:max(1, int(states * share))]
        rates = {}
        for threads in sorted({1, limit}):
            numba.set_num_threads(threads)
            try:
                say(f"resolve: {play}, {len(sample)} states x {deals} deals, {threads} thread"
                    f"{'s' if threads > 1 else ''} ...")
                st.marks_tables("elder", run, script, v=strategy.v, seed=seed,
                                sampling=st.Sampling(2, 2), slots=(0,), states=sample[:50])
                t = time.perf_counter()
                m = st.marks_tables("elder", run, script, v=strategy.v, seed=seed,
                                    sampling=st.Sampling(deals, deals), slots=(0,),
                                    states=sample)
                rates[threads] = float(m.deals.sum()) / (time.perf_counter() - t)
            finally:
                numba.set_num_threads(limit)
        solved_states = N_STATES if play == "dd" else 5000
        step = 2 * 25 * solved_states * deals        # both roles, 25 scores
        scaling = rates[limit] / rates[1] if limit > 1 else 1.0
        per_thread = scaling / limit if limit > 1 else 1.0
        out[play] = {"paired_deals_per_s": rates, "threads_scaling": scaling,
                     "step_states": solved_states, "step_deals": step,
                     "step_hours": step / rates[limit] / 3600,
                     "step_hours_16_threads": step / (rates[1] * 16 * per_thread) / 3600}
    return out


def every_bench(seed: int, say, source: int = 1 << 20, states: int = 20_000,
                deals: int = 32) -> dict:
    """What one step of ``every-decision`` costs at its defaults (issue 50: one step in at
    most 3 hours here): the later rounds' source deals at 2-2 (``source`` of them, the
    decisions and the discards passes, against the shipped strategy), the first round's
    marks tables (``states`` states drawn by ``seed`` at ``deals`` deals a state, both
    roles), and the projection to the defaults: at each of the 25 scores, the later
    steps (at most 3) and the discards over 2^24 source deals each, the first round over
    every state at 32 deals and a refinement within twice that."""
    from ecarte_sim.analysis.ecarte.solving import every_decision as ed
    from ecarte_sim.analysis.ecarte.solving import proposal_game as st
    from ecarte_sim.analysis.ecarte.solving import solved
    from ecarte_sim.analysis.ecarte.solving.equilibrium import at_score, base_settings
    from ecarte_sim.engine.ecarte.deals import later as kern
    from ecarte_sim.engine.ecarte.settings import EcarteSettings
    from ecarte_sim.engine.ecarte.decisions.states import N_STATES

    strategy = solved.load()
    row = at_score(ed.with_later(strategy.tables()), 12)
    out = {"source_deals": source, "states": states, "deals_per_state": deals}
    for name, kind in (("decisions", kern.DECIDE), ("discards", kern.DISCARD)):
        ed.later_stats(ed.EverySettings().settings, row, 2, 2, strategy.v, kind=kind,
                       seed=seed, deals=4096)                          # compile
        say(f"every-decision: the later {name} on {source:,} source deals ...")
        t = time.perf_counter()
        ed.later_stats(ed.EverySettings().settings, row, 2, 2, strategy.v, kind=kind,
                       seed=seed, deals=source)
        out[f"later_{name}_source_deals_per_s"] = source / (time.perf_counter() - t)
    drawn = np.sort(np.random.default_rng(seed).choice(N_STATES, states, replace=False))
    run, script = st.reading_tables(base_settings(EcarteSettings()), **row)
    rates = []
    for role in ("elder", "dealer"):
        st.marks_tables(role, run, script, v=strategy.v, seed=seed, sampling=st.Sampling(2, 2),
                        slots=(12,), states=drawn[:50])
        say(f"every-decision: the first round's marks tables, {role}, {states:,} states ...")
        t = time.perf_counter()
        m = st.marks_tables(role, run, script, v=strategy.v, seed=seed,
                            sampling=st.Sampling(deals, deals), slots=(12,), states=drawn)
        rates.append(float(m.deals.sum()) / (time.perf_counter() - t))
    out["first_paired_deals_per_s"] = rates
    later = 3 * (1 << 24) / out["later_decisions_source_deals_per_s"] + \
        (1 << 24) / out["later_discards_source_deals_per_s"]
    first = sum(3 * N_STATES * 32 / r for r in rates)            # the pass and a budget of 2
    out["step_hours"] = 25 * (later + first) / 3600
    out["step_hours_parts"] = {"later": 25 * later / 3600, "first": 25 * first / 3600}
    return out


def inference_bench(repeat: int = 3) -> dict:
    """The exact posterior of the adversary's hand after a proposal and a refusal (issue
    16's budget: under a second), warm, best of ``repeat``: every one of the 65,780
    hands he may hold, the maxims read on each."""
    from ecarte_sim.analysis.ecarte.advice.inference import infer

    args = ("QS JS AH 7C JD", "8D", "propose,refuse")
    infer(*args)                                          # compile
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = infer(*args)
        best = min(best, time.perf_counter() - t0)
    return {"situation": " ".join(args), "hands": out["of"], "consistent": out["consistent"],
            "seconds": best}


def advice_bench(repeat: int = 3) -> dict:
    """``advise`` from the shipped strategy (issue 32's budget: the action under 0.2 s
    after start-up, values at ±0.01 under 2 s), warm, best of ``repeat``: the table's
    action (the data loaded once, as a process does), then both actions' values on 2^14
    deals around the hand (the half-width of the paired gain's 95% interval reported);
    and the whole warm process of ``ecarte-sim advise --no-values``."""
    from ecarte_sim.analysis.ecarte.advice import first_decision as advice
    from ecarte_sim.analysis.ecarte.solving import solved

    args = ("KH QH JH 7S 8D", "H", "0-0", "elder")
    solved.clear_cache()
    t0 = time.perf_counter()
    advice.advise(*args, turn_up="9H", values=False)
    first = time.perf_counter() - t0
    best_action = best_values = float("inf")
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        advice.advise(*args, turn_up="9H", values=False)
        best_action = min(best_action, time.perf_counter() - t0)
        t0 = time.perf_counter()
        out = advice.advise(*args, turn_up="9H", deals=1 << 14)
        best_values = min(best_values, time.perf_counter() - t0)
    lo, hi = out["gain"]["p_win_ci95"]
    cmd = [sys.executable, "-m", "ecarte_sim.apps.cli", "advise", args[0], "--trump",
           "H", "--turn-up", "9H", "--no-values"]
    subprocess.run(cmd, check=True, capture_output=True)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    process = time.perf_counter() - t0
    return {"hand": f"{args[0]}, 9H turned up, {args[2]}, {args[3]}",
            "play": out["strategy"]["play"], "first_action_s": first,
            "action_s": best_action, "values_s": best_values, "deals": out["n"],
            "gain_half_width": (hi - lo) / 2, "warm_process_s": process}


def practice_bench(deals: int = 60, seed: int = 0, worlds: int = 64) -> dict:
    """The practice table's card decisions (issue 34's budgets: the computer's card under
    100 ms at the 95th percentile at W = 64, the coach's verdict on a card under 300 ms),
    warm, on every card of ``deals`` whole deals played by two inferring players under the
    shipped strategy (its first decisions and discards at 2-2): ``computer_card`` (the
    whole Python entry: the position checked, the particles grown, the worlds drawn and
    compared; ``pimc-inference`` at ``worlds``), the same with ``chooser="pimc-king"``
    (``pimc_king_card``: the table's default computer since issue 53, W = 1024, the king's
    announcement read) and with ``chooser="alphamu"`` (``alphamu_card``: αμ over
    pimc-inference's worlds within its work budget, the default before),
    ``card_values`` with the adversary's hand (pimc-king's worlds, as ``cards`` prints
    them: every legal card in every world and double dummy), and the coach's ``grade`` of
    the card (pimc-king's worlds at the coach's
    ``COACH_WORLDS``, turned into P(win the game), on the deal's record). Per-call wall
    times: median, 95th percentile, max, and the 95th percentile over the positions
    where the mover had more than one legal card."""
    from ecarte_sim.analysis.ecarte.play import card_advice as cards
    from ecarte_sim.analysis.practice import coach
    from ecarte_sim.engine.cards import format_card, format_hand
    from ecarte_sim.engine.ecarte.deals.runner import DealRunner
    from ecarte_sim.engine.ecarte.laws.position import walk
    from ecarte_sim.engine.ecarte.laws.tricks import ELDER
    from ecarte_sim.engine.ecarte.records import ProposalsEnd

    score = (2, 2)
    cfg, script = cards.settings_for("strategy", score, worlds)
    runner = DealRunner()
    cards.computer_card("KH JH TH QD JS", "9C", "elder", worlds=worlds,
                        chooser="pimc-inference")                       # compile
    cards.computer_card("KH JH TH QD JS", "9C", "elder")
    cards.computer_card("KH JH TH QD JS", "9C", "elder", worlds=worlds, chooser="alphamu")
    times = {"computer_card": [], "pimc_king_card": [], "alphamu_card": [], "card_values": [],
             "coach_grade": []}
    choice = []                         # the mover had more than one legal card
    positions = 0
    for i in range(deals):
        d = runner.play(seed, i, np.array(cfg), np.array(script))
        if d.ended:
            continue
        names = {ELDER: "A", 1 - ELDER: "B"}
        actions = []
        for x in d.exchanges:
            actions += [{"by": "A", "type": "propose"}, {"by": "B", "type": "accept"},
                        {"by": "A", "type": "discard", "cards": format_hand(int(x[0])).split(),
                         "drawn": format_hand(int(x[1])).split()},
                        {"by": "B", "type": "discard", "cards": format_hand(int(x[2])).split(),
                         "drawn": format_hand(int(x[3])).split()}]
        if d.how_ended == ProposalsEnd.ELDER_PLAYED:
            actions.append({"by": "A", "type": "play"})
        elif d.how_ended == ProposalsEnd.DEALER_REFUSED:
            actions += [{"by": "A", "type": "propose"}, {"by": "B", "type": "refuse"}]
        said = [a["type"] for a in actions if a["type"] in ("propose", "play", "accept",
                                                             "refuse")]
        record = {"number": 1, "index": i, "elder": "A", "dealer": "B",
                  "score_before": {"A": score[0], "B": score[1]},
                  "hands": {"A": format_hand(int(d.elder0)).split(),
                            "B": format_hand(int(d.dealer0)).split()},
                  "turn_up": format_card(int(d.turn_up)), "actions": actions, "marks": []}
        hands = [int(d.elder_hand), int(d.dealer_hand)]
        trump = int(d.turn_up) >> 3
        for j, (who, _, c) in enumerate(walk([int(x) for x in d.play], trump)):
            groups = [(int(x[0] if who == ELDER else x[2]),
                       bin(int(x[2] if who == ELDER else x[0])).count("1")) for x in d.exchanges]
            king = "elder" if d.king_elder else "dealer" if d.king_dealer else "none"
            kw = dict(said=said, discards=groups, played=[int(x) for x in d.play[:j]],
                      score=score, seed=seed, deal=i)
            role = "elder" if who == ELDER else "dealer"
            t0 = time.perf_counter()
            cards.computer_card(hands[who], int(d.turn_up), role, worlds=worlds,
                                chooser="pimc-inference", **kw)
            t0k = time.perf_counter()
            cards.computer_card(hands[who], int(d.turn_up), role, king=king, **kw)
            t1 = time.perf_counter()
            cards.computer_card(hands[who], int(d.turn_up), role, chooser="alphamu",
                                worlds=worlds, **kw)
            t1a = time.perf_counter()
            verdict = cards.card_values(hands[who], int(d.turn_up), role,
                                        opponent=hands[1 - who], king=king, **kw)
            t2 = time.perf_counter()
            choice.append(len(verdict["cards"]) > 1)
            record["actions"] = actions + [{"by": names[who], "type": "card",
                                            "card": format_card(int(c))}]
            coach.grade(record, len(record["actions"]) - 1, seed=seed)
            t3 = time.perf_counter()
            times["computer_card"].append(t0k - t0)
            times["pimc_king_card"].append(t1 - t0k)
            times["alphamu_card"].append(t1a - t1)
            times["card_values"].append(t2 - t1a)
            times["coach_grade"].append(t3 - t2)
            positions += 1
            actions = actions + [{"by": names[who], "type": "card", "card": format_card(int(c))}]
            hands[who] &= ~(1 << int(c))
    out = {"worlds": worlds, "coach_worlds": coach.COACH_WORLDS,
           "score": f"{score[0]}-{score[1]}", "deals": deals, "positions": positions}
    chose = np.array(choice)
    out["with_a_choice"] = int(chose.sum())
    for k, v in times.items():
        ms = np.array(v) * 1000
        out[k] = {"median_ms": float(np.median(ms)), "p95_ms": float(np.percentile(ms, 95)),
                  "max_ms": float(ms.max()),
                  "p95_ms_with_a_choice": float(np.percentile(ms[chose], 95))}
    return out


def exploit_bench(worlds=(4, 16, 64)) -> dict:
    """The exact best response in the play for one hand (issue 35's budget: against
    ``pimc`` at W = 16, every opponent hand enumerated, under 2 minutes), warm: the
    dealer with KH 9H QS 8D 7C, 10H turned up, after the elder played without proposing
    (9,492 elder hands agree under Hoyle's list), against pimc and pimc-inference at each
    W; the seconds of the best response, the local one and two held-out seeds, and the
    opponent's decisions computed (the time goes there: one keyed PIMC choice each)."""
    from ecarte_sim.analysis.ecarte.play.exploit import exploit_hand

    args = ("KH 9H QS 8D 7C", "TH", "dealer")
    exploit_hand(*args, model="pimc", worlds=4, hands=20, held_out_seeds=1)   # compile
    out = {}
    for model in ("pimc", "pimc-inference"):
        for w in worlds:
            r = exploit_hand(*args, model=model, worlds=w)
            out[f"{model} W={w}"] = {"hands": r["hands"], "decisions": r["opponent_decisions"],
                                     "gain_marks": r["gain"]["marks"], **r["seconds"]}
    return {"hand": "dealer KH 9H QS 8D 7C, TH turned up, the elder played", "runs": out}


def web_bench(games: int = 50, finished: int = 500, say=None, think: float = 0.0,
              memory_coach: bool = True) -> dict:
    """The web app on loopback (when the web extra is installed): a new game's page alone,
    then ``games`` games at once to the end (latency of every request, p95 of an act,
    errors), then the server's memory over ``finished`` finished games; {} without the
    extra, or with ``games`` and ``finished`` 0."""
    say = say or (lambda *_: None)
    out = {}
    if not (importlib.util.find_spec("starlette") and importlib.util.find_spec("uvicorn")):
        return out
    from ecarte_sim.apps.web.load import load_test, memory_test
    if games:
        say(f"the web app: a new game's page, then {games} games at once on loopback ...")
        out["web"] = load_test(games=games, log=say, think=think)
    if finished:
        say(f"the web app's memory over {finished} finished games ...")
        out["web_memory"] = memory_test(finished=finished, log=say, coach=memory_coach)
    return out


def run_bench(n_deals: int, reference_deals: int, seed: int = 0, startup: bool = True,
              log=None, repeat: int = 3, pimc_deals: int = 20_000,
              piquet: bool = True, process_deals: int = PROCESS_DEALS,
              strategy: bool = False, web_games: int = 50, web_finished: int = 500,
              exploit_worlds: tuple[int, ...] = (4, 16, 64)) -> dict:
    """Time each kernel at least ``repeat`` times (and for at least a second) on deals
    ``[0, n_deals)`` of ``seed``, keeping the best time, and the reference once on
    the first ``reference_deals`` of the same deals."""
    from ecarte_sim.engine.ecarte import reference
    from ecarte_sim.engine.ecarte.deals.simulate import simulate_counts

    say = log or (lambda *_: None)
    say("warming up the kernels (compiles on a cold cache) ...")
    for mode in ("deal", "exact", "point-vole"):
        simulate_counts(seed, 0, 1000, mode)

    kernels = {}
    for mode in ("deal", "exact", "point-vole"):
        say(f"timing {mode} on {n_deals} deals ...")
        counts = None

        def run(mode=mode):
            nonlocal counts
            counts = simulate_counts(seed, 0, n_deals, mode)

        rate, seconds, runs = _rate(run, n_deals, repeat, min_total_s=1.0)
        kernels[mode] = {"deals": n_deals, "seconds": seconds, "deals_per_s": rate,
                         "runs": runs}

    whole, pimc = _whole_bench(n_deals, pimc_deals, seed, repeat, say)
    inferring = pimc.pop("inference")
    say(f"timing the pure-Python reference on {reference_deals} deals ...")

    def run_reference():
        for i in range(reference_deals):
            d = reference.deal(seed, i)
            reference.solve(d.elder, d.dealer, d.turn_up >> 3)

    ref_rate, ref_seconds, _ = _rate(run_reference, reference_deals)
    report = {
        "machine": {"python": platform.python_version(), "numba": numba.__version__,
                    "numpy": np.__version__, "cpus": os.cpu_count(),
                    "threads": numba.get_num_threads()},
        "seed": seed,
        "kernels": kernels,
        "whole": whole,
        "pimc": pimc,
        "pimc_inference": inferring,
        "reference": {"deals": reference_deals, "seconds": ref_seconds, "deals_per_s": ref_rate},
        "speedup_exact_vs_reference": kernels["exact"]["deals_per_s"] / ref_rate,
    }
    say("timing the exact posterior of a first-round situation ...")
    report["inference"] = inference_bench(repeat)
    say("timing the exact best response in the play for one hand ...")
    report["exploit"] = exploit_bench(exploit_worlds)
    say("timing advise from the shipped strategy ...")
    report["advice"] = advice_bench(repeat)
    say("timing the practice table's cards (the computer's, the coach's verdict) ...")
    report["practice"] = practice_bench(seed=seed)
    report.update(web_bench(web_games, web_finished, say))
    if piquet:
        report["piquet"] = piquet_bench(n_deals, seed, repeat, say)
    if strategy:
        report["strategy"] = strategy_bench(seed, say)
        report["resolve"] = resolve_bench(seed, say)
        report["every"] = every_bench(seed, say)
    if startup:
        say("measuring cold compile and warm start-up (subprocesses) ...")
        report["startup"] = _startup_times(process_deals)
    return report


def format_web(r: dict) -> list[str]:
    """The lines of the web app's measurements (:func:`web_bench`)."""
    lines = []
    if "web" in r:
        from ecarte_sim.apps.web.load import format_report as web_report
        lines += [f"web app ({r['web']['games']} games at once on loopback):"] + [
            "  " + line for line in web_report(r["web"]).splitlines()]
    if "web_memory" in r:
        from ecarte_sim.apps.web.load import format_memory
        lines += ["  " + line for line in format_memory(r["web_memory"]).splitlines()]
    return lines


def format_report(r: dict) -> str:
    """The report of :func:`run_bench` as text: the kernels, Piquet, the analyses, the
    practice table, the web app, the strategy solves and the start-up, each present."""
    lines = _kernel_lines(r)
    if "piquet" in r:
        lines += _piquet_lines(r["piquet"])
    lines += _analysis_lines(r)
    if "practice" in r:
        lines += _practice_lines(r["practice"])
    lines += format_web(r)
    lines += _strategy_lines(r)
    if "startup" in r:
        lines += _startup_lines(r["startup"])
    return "\n".join(lines)


def _timing_row(name: str, k: dict) -> str:
    """One row of the speed table: name, deals, seconds, deals/s and runs."""
    return (f"{name:<28}{k['deals']:>12}{k['seconds']:>10.3f}"
            f"{k['deals_per_s']:>16,.0f}{k['runs']:>6}")


def _kernel_lines(r: dict) -> list[str]:
    """The machine, the kernels, the whole deal (scripted, PIMC, inferring), PIMC's
    solves and the pure-Python reference."""
    m = r["machine"]
    lines = [f"ecarte-sim bench: Python {m['python']}, numba {m['numba']}, "
             f"{m['threads']} threads of {m['cpus']} CPUs, seed {r['seed']}",
             f"{'kernel (best run)':<28}{'deals':>12}{'seconds':>10}{'deals/s':>16}"
             f"{'runs':>6}"]
    names = {"deal": "deal only", "exact": "deal + exact double-dummy",
             "point-vole": "deal + point/vole answer"}
    for mode, k in r["kernels"].items():
        lines.append(_timing_row(names[mode], k))
    for play, k in r["whole"].items():
        lines.append(_timing_row(f"whole deal, {play} play", k))
    for worlds, k in r["pimc"].items():
        lines.append(_timing_row(f"whole deal, PIMC W={worlds}", k))
    if "pimc_inference" in r:
        k = r["pimc_inference"]
        lines.append(_timing_row(f"whole deal, inferring W={k['worlds']}", k))
    lines.append("  (whole deal: elder regle, dealer maxims, discards trumps-kings; PIMC for both)")
    if "pimc_inference" in r:
        k = r["pimc_inference"]
        lines.append(f"  pimc-inference at W={k['worlds']}: {k['speed_vs_plain']:.2f} x plain "
                     f"PIMC's speed (best of {k['runs']} runs each, in turn: "
                     f"{k['plain_seconds']:.3f} s against {k['seconds']:.3f} s); "
                     f"{k['proposals_per_world']:.1f} proposals a world, "
                     f"{k['fallback_share']:.2%} of worlds fell back to uniform")
    lines.append(f"{'PIMC W':>8}{'decisions/deal':>16}{'solves/deal':>13}"
                 f"{'us/decision/thread':>20}{'solves/s':>14}")
    for worlds, k in r["pimc"].items():
        lines.append(f"{worlds:>8}{k['decisions_per_deal']:>16.2f}{k['solves_per_deal']:>13.1f}"
                     f"{k['us_per_decision_per_thread']:>20.1f}{k['solves_per_s']:>14,.0f}")
    ref = r["reference"]
    lines.append(f"{'pure-Python reference':<28}{ref['deals']:>12}{ref['seconds']:>10.3f}"
                 f"{ref['deals_per_s']:>16,.1f}")
    lines.append(f"speed-up of the exact kernel over the reference: "
                 f"{r['speedup_exact_vs_reference']:,.0f}x")
    return lines


def _piquet_lines(pq: dict) -> list[str]:
    """Piquet: the whole deal by player, the solver's endings."""
    lines = ["Piquet (both seats the same player; full exchange):"]
    for player, k in pq["deals"].items():
        lines.append(_timing_row(f"piquet deal, {player}"
                                 + (f" W={k['worlds']}" if "worlds" in k else ""), k))
    lines.append(f"{'piquet solver ending':<28}{'endings':>12}{'mean ms':>10}"
                 f"{'median ms':>11}{'max ms':>10}{'mean nodes':>12}")
    for cards, k in pq["solver"].items():
        lines.append(f"{cards + ' cards each':<28}{k['positions']:>12}{k['mean_ms']:>10.3f}"
                     f"{k['median_ms']:>11.3f}{k['max_ms']:>10.2f}{k['mean_nodes']:>12,.0f}")
    lines.append("  (solver: one thread, a fresh table per ending, elder to lead)")
    return lines


def _analysis_lines(r: dict) -> list[str]:
    """The exact posterior, the best response in the play and advise, each measured."""
    lines = []
    if "inference" in r:
        g = r["inference"]
        lines.append(f"exact posterior ({g['situation']}): {g['hands']:,} hands, "
                     f"{g['consistent']:,} consistent, {g['seconds']:.3f} s warm")
    if "exploit" in r:
        g = r["exploit"]
        lines.append(f"best response in the play ({g['hand']}), s: " + "; ".join(
            f"{k}: {v['best_response']:.1f} ({v['decisions']:,} opponent decisions, "
            f"{v['hands']:,} hands), local {v['local']:.1f}, 2 held-out seeds "
            f"{v['held_out']:.1f}" for k, v in g["runs"].items()))
    if "advice" in r:
        g = r["advice"]
        lines.append(f"advise from the shipped strategy ({g['play']}; {g['hand']}): the action "
                     f"{g['action_s'] * 1000:.1f} ms warm ({g['first_action_s'] * 1000:.0f} ms "
                     f"with loading the data), values on {g['deals']:,} deals "
                     f"{g['values_s']:.2f} s (gain ±{g['gain_half_width']:.4f}); whole warm "
                     f"process `advise --no-values` {g['warm_process_s']:.2f} s")
    return lines


def _practice_lines(g: dict) -> list[str]:
    """The practice table's times per card: median, p95 and max; p95 where there is a
    choice."""
    return [f"practice table, {g['positions']} cards of {g['deals']} deals (W="
            f"{g['worlds']}, the coach's W={g['coach_worlds']}, {g['score']}), ms "
            "median / p95 / max: " + "; ".join(
                f"{k} {g[k]['median_ms']:.1f} / {g[k]['p95_ms']:.1f} / "
                f"{g[k]['max_ms']:.1f}" for k in _PRACTICE_KEYS if k in g),
            f"  p95 over the {g['with_a_choice']} cards with a choice: " + "; ".join(
                f"{k} {g[k]['p95_ms_with_a_choice']:.1f} ms" for k in _PRACTICE_KEYS
                if k in g)]


#: The practice table's timings, in the order printed (:func:`practice_bench`).
_PRACTICE_KEYS = ("computer_card", "pimc_king_card", "alphamu_card", "card_values",
                  "coach_grade")


def _strategy_lines(r: dict) -> list[str]:
    """The elder's best response at 0-0 (--strategy) and the resolved solve's rates."""
    lines = []
    if "strategy" in r:
        g = r["strategy"]
        lines.append(f"elder's best response at 0-0 (dd, against the maxims), {g['states']:,} "
                     f"states: marks tables {g['marks_s']:.1f} s ({g['deals']:,} paired deals, "
                     f"{g['paired_deals_per_s']:,.0f}/s), the 25 scores from them "
                     f"{g['all_scores_s']:.1f} s, continuation values {g['continuation_s']:.1f} s")
        lines.append("  deals per state by round: " + ", ".join(
            f"{x['states']:,} x {x['deals_per_state']}" for x in g["rounds"]))
    if "resolve" in r:
        g = r["resolve"]
        for play in ("dd", "pimc-inference"):
            k = g[play]
            rates = ", ".join(f"{n} thread{'s' if int(n) > 1 else ''} {v:,.0f}/s"
                              for n, v in k["paired_deals_per_s"].items())
            lines.append(f"resolved solve, {play}: marks tables ({g['deals_per_state']} deals "
                         f"a state) {rates} (scaling x{k['threads_scaling']:.2f}); one step "
                         f"of both roles at 25 scores over {k['step_states']:,} states: "
                         f"{k['step_hours']:.1f} h here, {k['step_hours_16_threads']:.1f} h on "
                         "16 threads at the measured scaling")
    if "every" in r:
        g = r["every"]
        parts = g["step_hours_parts"]
        lines.append(f"every-decision, one step at its defaults: the later decisions "
                     f"{g['later_decisions_source_deals_per_s']:,.0f} source deals/s, the "
                     f"later discards {g['later_discards_source_deals_per_s']:,.0f}/s, the "
                     f"first round's marks tables "
                     + " and ".join(f"{r:,.0f}" for r in g["first_paired_deals_per_s"])
                     + f" paired deals/s (elder, dealer): {g['step_hours']:.1f} h projected "
                       f"here (later rounds {parts['later']:.1f} h, first round "
                       f"{parts['first']:.1f} h)")
    return lines


def _startup_lines(s: dict) -> list[str]:
    """The cold compile, the warm `solve` and the whole process."""
    lines = [f"JIT compile, cold cache: {s['cold_compile_s']:.1f} s "
             f"(whole process {s['cold_process_s']:.1f} s)",
             f"warm `ecarte-sim solve` end to end: {s['warm_solve_cli_s']:.2f} s"]
    if "process" in s:
        p = s["process"]
        lines.append(f"whole process `{p['command']}`: {p['seconds']:.1f} s "
                     f"({p['deals_per_s']:,.0f} deals/s, start-up included)")
    return lines
