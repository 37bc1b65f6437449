"""The strategy commands of ``ecarte-sim``: ``strategy`` (best responses and an
equilibrium of the first decisions and discards), ``advise`` (one hand at one score) and
``infer`` (what the adversary's first decisions say about his hand) and
``inference-value`` (what reading them is worth in play) and ``inference-claims`` (the
treatise's claims about inference, with verdicts). Each parses its options, calls the
front door (:mod:`ecarte_sim.api.strategy`, :mod:`ecarte_sim.api.inference`) and formats
the answer."""

from __future__ import annotations

import sys
import time

import click

from ecarte_sim.apps.cli.common import (CONTEXT, JSON, PLAIN_EVERY, THREADS, command_line,
                                            emit, long_run, long_run_options, policy_options,
                                            quiet_option, score_value, seed_option,
                                            set_threads, writable_dir)
from ecarte_sim.engine.ecarte.settings import DEFAULT_WORLDS, play_models


def _progress(enabled: bool):
    """Progress on stderr: on a terminal one line per stage, rewritten in place; in a log
    (stderr redirected) plain lines, never ``\\r``: a stage's first step, each tenth of it,
    at least every 30 s (``PLAIN_EVERY``), and its end."""
    if not enabled:
        return None
    if sys.stderr.isatty():
        def report(what: str, done: int, total: int) -> None:
            click.echo(f"\r\x1b[2K{what}: {done:,}/{total:,}", err=True, nl=done >= total)
        return report
    state = {"what": None, "tenth": 0, "last": time.monotonic()}

    def plain(what: str, done: int, total: int) -> None:
        now = time.monotonic()
        tenth = 10 * done // total if total > 0 else 10
        if (what != state["what"] or tenth > state["tenth"] or done >= total
                or now - state["last"] >= PLAIN_EVERY):
            state.update(what=what, tenth=tenth, last=now)
            click.echo(f"{what}: {done:,}/{total:,}", err=True)
    return plain


@click.command(context_settings=CONTEXT)
@click.option("--against", type=click.Choice(["treatise", "equilibrium"]), default="treatise",
              show_default=True,
              help="treatise: each role's best response to the other's treatise policy, "
                   "measured against the policy it replaces. equilibrium: iterated best "
                   "responses from the treatise, with the exploitability of each pair.")
@click.option("--role", type=click.Choice(["elder", "dealer", "both"]), default="both",
              show_default=True, help="Whose best response (--against treatise).")
@click.option("--decision", type=click.Choice(["first", "discard", "both"]), default="first",
              show_default=True,
              help="Which decisions: first = propose or play, accept or refuse; discard = "
                   "what to throw at the first exchange (six rules: keep the trumps and the "
                   "plain cards from a rank up, or keep all five); both. --against "
                   "equilibrium iterates first or both.")
@click.option("--score", "score", metavar="E-D", callback=score_value, default=None,
              help="The score before the deal, the elder's first (default 0-0).")
@click.option("--all-scores", is_flag=True,
              help="Every score 0-0 .. 4-4 (--against treatise).")
@click.option("--iterations", type=click.IntRange(0, 50), default=3, show_default=True,
              help="Best-response steps (--against equilibrium).")
@click.option("--deals-per-state", type=click.IntRange(2, 1 << 15), default=None,
              help="Deals every state gets first [default: 64; 16 under pimc].")
@click.option("--max-deals-per-state", type=click.IntRange(2, 1 << 15), default=None,
              help="Most deals of a state whose two actions stay close [default: 4096; "
                   "256 under pimc].")
@click.option("--fresh-deals", type=click.IntRange(1000, 1 << 40), default=None,
              help="Fresh deals per score for the evaluation [default: 2^20; 2^14 under "
                   "pimc].")
@seed_option()
@policy_options
@THREADS
@click.option("--out", "out_dir", type=click.Path(file_okay=False, writable=True),
              default=None, help="Also write strategy.csv, strategy.md, strategy.png, "
                                 "treatise_rules.csv, tables.npz and provenance.json here "
                                 "(--against equilibrium: equilibrium.csv, equilibrium.md, "
                                 "equilibrium.png, tables.npz, provenance.json).")
@long_run_options("2^21 deals for the fresh-deal and continuation stages; the marks "
                  "tables go in tasks of 2^14 states")
@quiet_option()
@JSON
def strategy(against, role, decision, score, all_scores, iterations, deals_per_state,
             max_deals_per_state, fresh_deals, seed, threads, out_dir, quiet, as_json,
             run_dir, resume, task_size, scheduler, workers, settings):
    """What should one play? The best first decision (elder: propose or play; dealer:
    accept or refuse) for every canonical hand, at the score, and what it gains over the
    treatise on fresh deals.

    Each state's two actions are played on the same sampled deals (more deals where they
    are close); a deal's marks are valued by the probability of winning the game from
    the score after it (continuation values of the treatise's play). The chosen table
    is then played against the treatise policy it replaces on fresh deals (indices never
    used to choose it), and the paired gain is reported in P(win the game) and in marks
    per deal, with 95% intervals. --decision discard (or both) does the same for the
    first discard. --against equilibrium iterates best responses from the treatise and
    reports each pair's exploitability and the value of the game at the score.

    A long run can be checkpointed with --run-dir (each block of states' marks tables
    and each task of fresh deals, saved as it finishes), continued with --resume, and
    sent to a Dask cluster with --scheduler or --workers: the result is the same.

    \b
    Examples:
      ecarte-sim strategy --role elder --score 0-0
      ecarte-sim strategy --all-scores --out results/strategy --run-dir results/runs/s
      ecarte-sim strategy --against equilibrium --decision both --iterations 3 --json
    """
    from ecarte_sim.analysis.reports import strategy as files
    from ecarte_sim.analysis.reports.provenance import provenance
    from ecarte_sim.api.strategy import run_strategy, strategy_plan

    if all_scores and score is not None:
        raise click.UsageError("give --score E-D or --all-scores, not both")
    if against == "equilibrium" and all_scores:
        raise click.UsageError("--against equilibrium runs at one score (--score E-D)")
    if against == "equilibrium" and decision == "discard":
        raise click.UsageError("--against equilibrium iterates the first decisions "
                               "(--decision first) or them and the first discards "
                               "(--decision both); the discards alone are --against "
                               "treatise --decision discard")
    set_threads(threads)
    writable_dir(out_dir)
    try:
        plan = strategy_plan(settings, against=against, role=role, decision=decision,
                             score=score, all_scores=all_scores, iterations=iterations,
                             seed=seed, deals_per_state=deals_per_state,
                             max_deals_per_state=max_deals_per_state, fresh_deals=fresh_deals)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    report = _progress(not quiet and not as_json)
    parameters = plan.parameters
    with long_run("strategy", parameters, seed, run_dir, resume, task_size, scheduler,
                  workers) as how:
        run = run_strategy(plan, progress=report)
    n = (sum(r.deals for r in run.roles.values()) if against == "treatise"
         else run.fresh_deals)
    command, prov = command_line("strategy"), provenance("strategy", parameters, seed, n)
    payload = {"command": command, **run.to_dict(), "provenance": prov}
    if out_dir:
        write = files.write_report if against == "treatise" else files.write_equilibrium_report
        payload["files"] = write(out_dir, {"command": command, **run.payload,
                                           "provenance": prov}, how)
    if as_json:
        emit(payload)
        return
    _print(payload, against)


def _print(result: dict, against: str) -> None:
    s = result["settings"]
    click.echo(f"{against}: play {s['play']['elder']}/{s['play']['dealer']}, seed "
               f"{result['seed']}; gains on {result['fresh_deals']:,} fresh deals per score, "
               "paired, 95% intervals")
    if against == "treatise":
        for role, data in result["roles"].items():
            click.echo(f"{role} best response (replaces {data['replaces']}; "
                       f"{data['deals']:,} deals chose it):")
            for r in data["rows"]:
                lo, hi = r["gain_win_ci95"]
                mlo, mhi = r["gain_marks_ci95"]
                thrown = (f"  throws {r['cards_thrown']:.2f} cards (treatise "
                          f"{r['treatise_cards_thrown']:.2f})" if "cards_thrown" in r else "")
                click.echo(f"  {r['score']}: P(win) {r['gain_win']:+.4f} [{lo:+.4f}, {hi:+.4f}]"
                           f"  marks/deal {r['gain_marks']:+.4f} [{mlo:+.4f}, {mhi:+.4f}]"
                           f"  agrees with the treatise on {r['agreement']:.1%} of hands"
                           f"{thrown}  n={r['n']:,}")
    else:
        click.echo(f"iterated best responses at {result['score']}:")
        for st in result["steps"]:
            lo, hi = st["exploitability_ci95"]
            vlo, vhi = st["elder_value_ci95"]
            click.echo(f"  step {st['step']}: exploitability {st['exploitability']:+.4f} "
                       f"[{lo:+.4f}, {hi:+.4f}] (elder {st['elder_gain']:+.4f}, dealer "
                       f"{st['dealer_gain']:+.4f}); elder P(win) {st['elder_value']:.4f} "
                       f"[{vlo:.4f}, {vhi:.4f}]; proposes on {st['elder_propose_share']:.1%}"
                       f", dealer accepts on {st['dealer_accept_share']:.1%}; n={st['n']:,}")
    for path in result.get("files", []):
        click.echo(f"wrote {path}")


def _print_later(kind: str, r: dict, role: str, seed: int) -> None:
    """A decision after an exchange (a proposal, its answer, a discard), as text."""
    if kind == "later discard":
        click.echo(f"{r['hand']} ({role}) at exchange {r['round'] + 1}, said "
                   f"{','.join(r['said'])}, score {r['score']}: the computed strategy "
                   f"({r['strategy']['play']}) throws {r['throws'] or 'nothing'}, keeping "
                   f"{r['keeps']} (rule {r['rule']})")
        _other_discards(r["others"])
        _missed_line(r)
        return
    play_name = r["strategy"]["play"]
    table = r["table_action"]["action"]
    click.echo(f"{r['hand']} ({role}), trump {r['trump']}, {r['turn_up']} turned up, score "
               f"{r['score']}; said {','.join(r['said'])}; exchange(s) made: "
               + "; ".join(f"you threw {d['thrown'] or 'nothing'}, the adversary "
                           f"{d['adversary_threw']}" for d in r["discards"])
               + f"; {r['stock_left']} card(s) left in the stock")
    whose = ("its table for the later rounds" if r["strategy"]["later_tables"] else
             "its first-round table read on this hand (no later tables shipped)")
    if "values" not in r:
        click.echo(f"  → {r['action']}: the computed strategy ({play_name}), {whose} (not "
                   "checked on worlds: --no-values)")
    elif r["answered_by"] == "values":
        d = r["table_differs_by"]
        click.echo(f"  → {r['action']}: on {r['n']:,} worlds drawn from what you know it wins "
                   f"the game more often, by {d['p_win']:+.4f} [{d['p_win_ci95'][0]:+.4f}, "
                   f"{d['p_win_ci95'][1]:+.4f}]")
        click.echo(f"    the computed strategy ({play_name}), {whose}, says {table}; these "
                   "worlds overrule it")
    elif r["too_close"]:
        g = r["gain"]
        click.echo(f"  → {r['action']}: the computed strategy ({play_name}), {whose}, says "
                   f"so; too close to call on these worlds ({g['of']} {g['p_win']:+.4f} "
                   f"[{g['p_win_ci95'][0]:+.4f}, {g['p_win_ci95'][1]:+.4f}] holds zero)")
    else:
        click.echo(f"  → {r['action']}: the computed strategy ({play_name}), {whose}, says "
                   "so, and the values on these worlds agree")
    if "values" in r:
        click.echo(f"  values on {r['n']:,} worlds drawn from what you know (the adversary's "
                   f"hand from what he said and took, under the strategy), the later "
                   f"rounds playing it, seed {seed}:")
        for name, val in r["values"].items():
            lo, hi = val["p_win_ci95"]
            click.echo(f"  {name:<8} P(win the game) {val['p_win']:.4f} [{lo:.4f}, {hi:.4f}]"
                       f"  marks/deal {val['marks']:+.3f}")
        g = r["gain"]
        click.echo(f"  {g['of']}: {g['p_win']:+.4f} [{g['p_win_ci95'][0]:+.4f}, "
                   f"{g['p_win_ci95'][1]:+.4f}]")
        _missed_line(r)
    t = r["treatise"]
    click.echo(f"  the treatise ({t['policy']}) says {t['says']}: {t['reason']}")


def _other_discards(others: list[dict]) -> None:
    """Each other discard rule's paired gain over the table's, or that they all agree."""
    for o in others:
        lo, hi = o["gain_win_ci95"]
        click.echo(f"  throwing {o['throws'] or 'nothing'} instead ({o['rule']}): "
                   f"P(win the game) {o['gain_win']:+.4f} [{lo:+.4f}, {hi:+.4f}], "
                   f"marks/deal {o['gain_marks']:+.3f}  n={o['n']:,}")
    if not others:
        click.echo("  every discard rule throws the same cards from this hand")


def _missed_line(r: dict) -> None:
    if r.get("worlds_missed"):
        click.echo(f"  {r['worlds_missed']:,} world(s) not found: the strategy's adversary "
                   "seldom says and takes what yours did (the values are from the worlds "
                   "found)")


def _headline(result: dict, role: str, seed: int) -> None:
    """The advice's first lines against the computed strategy: the hand, then the action
    it leads with and who answered (the table, or the hand's own values where they
    resolve the other action; too close to call said), then where the values come from."""
    t = result["table_action"]
    play = result["strategy"]["play"]
    split = "" if t["unanimous"] else (
        " (it depends on the turn-up: " + ", ".join(
            f"{k} {v}" for k, v in t["by_turn_up"].items()) + ")")
    click.echo(f"{result['hand']} ({role}), trump {result['trump']}"
               + (f", {result['turn_up']} turned up" if result["turn_up"] else "")
               + f", score {result['score']}")
    if "values" not in result:
        click.echo(f"  → {result['action']}: the computed strategy's table ({play}) says so"
                   f"{split} (not checked on this hand's deals: --no-values)")
    elif result["answered_by"] == "values":
        d = result["table_differs_by"]
        click.echo(f"  → {result['action']}: on {result['n']:,} deals around this hand it wins "
                   f"the game more often, by {d['p_win']:+.4f} [{d['p_win_ci95'][0]:+.4f}, "
                   f"{d['p_win_ci95'][1]:+.4f}]")
        click.echo(f"    the computed strategy's table ({play}) says {t['action']}{split}: it "
                   "was chosen from a few deals of this hand's state and the hands alike; "
                   "these deals overrule it")
    elif result["too_close"]:
        g = result["gain"]
        click.echo(f"  → {result['action']}: the computed strategy's table ({play}) says so"
                   f"{split}; too close to call on these deals ({g['of']} "
                   f"{g['p_win']:+.4f} [{g['p_win_ci95'][0]:+.4f}, "
                   f"{g['p_win_ci95'][1]:+.4f}] holds zero): either action is as good, "
                   "to this precision")
    elif result.get("decided_by_the_deal"):
        click.echo(f"  → {result['action']}: the computed strategy's table ({play}) says so"
                   f"{split}")
    else:
        click.echo(f"  → {result['action']}: the computed strategy's table ({play}) says so"
                   f"{split}, and the values on this hand's deals agree")
    if not t["re_solved"]:
        click.echo("    (this hand's entry was not re-solved by the shipped run: it is the "
                   "treatise's)")
    if "values" in result:
        click.echo(f"  values on {result['n']:,} deals around the hand, the opponent and the "
                   f"later rounds playing that strategy, seed {seed}:")


@click.command(context_settings=CONTEXT)
@click.argument("hand")
@click.option("--trump", "-t", "trump", metavar="T", default=None,
              help="Trump suit (H, ♥, hearts: the turn-up drawn from the other cards of the "
                   "suit) or the turned-up card (e.g. KH). Not needed with --turn-up.")
@click.option("--turn-up", "turn_up", metavar="CARD", default=None,
              help="The turned-up card (not in the hand): its suit is trumps.")
@click.option("--score", "score", metavar="E-D", callback=score_value, default="0-0",
              show_default=True, help="The score before the deal, the elder's first.")
@click.option("--role", type=click.Choice(["elder", "dealer"]), default="elder",
              show_default=True, help="Whose hand: the elder's (propose or play) or the "
                                      "dealer's (accept or refuse a proposal).")
@click.option("--against", type=click.Choice(["equilibrium", "treatise"]),
              default="equilibrium", show_default=True,
              help="equilibrium: the computed strategy of five up answers (both players play "
                   "it; its table's action, unless the hand's own values resolve the other). "
                   "treatise: the best response to Hoyle's list and the maxims, sampled.")
@click.option("--play", "play", type=click.Choice(play_models("solved")), default=None,
              help="Play model of the cards, and whose solved strategy answers: dd (the "
                   "default: solved on every state, audited hand by hand) or pimc-inference "
                   "(one step under realistic card play; see methods) [default: dd; dd "
                   "against the treatise].")
@click.option("--worlds", type=click.IntRange(1, 4096), default=None,
              help=f"PIMC: worlds per decision (--against treatise) [default: {DEFAULT_WORLDS}].")
@click.option("--discard", "discard", is_flag=True,
              help="At an exchange (the first, or the one --said ends with): which cards "
                   "the strategy throws from HAND, and what each other discard is worth "
                   "against it.")
@click.option("--said", default=None, metavar="WORDS",
              help="What was said so far in this deal, in order, as `cards` takes it: asks "
                   "about a later decision — ending 'accept', the elder's proposal after "
                   "that exchange; ending 'propose' with --role dealer, the dealer's answer; "
                   "ending 'propose,accept' with --discard, that exchange's discard.")
@click.option("--discards", default="", metavar="GROUPS",
              help="With --said: one group per exchange made, separated by ';': the cards "
                   "YOU threw, then ':' and how many the adversary threw (e.g. "
                   "'7S 8D 9C:3'; '-:2' when you threw none). HAND is your hand now.")
@click.option("--elder-took", "elder_took", type=click.IntRange(1, 5), default=None,
              help="The dealer's discard at a later exchange (--role dealer --discard): how "
                   "many cards the elder took in it (the dealer sees him draw, Law 30).")
@click.option("--deals", "n_deals", type=click.IntRange(100, 1 << 20), default=None,
              help="Deals around the hand (both actions on each) [default: 2^14 against the "
                   "equilibrium, 2^16 against the treatise (2^15 with the turn-up given: "
                   "the deals a turn-up has room for)].")
@click.option("--no-values", "no_values", is_flag=True,
              help="The strategy's action only, without sampling the values.")
@seed_option()
@THREADS
@JSON
def advise(hand, trump, turn_up, score, role, against, play, worlds, discard, said, discards,
           elder_took, n_deals, no_values, seed, threads, as_json):
    """What to do with HAND at the score. Against the computed strategy of five up
    (default): each action's chance of winning the game and marks per deal with 95%
    intervals, both actions played on the same deals around the hand (never the deals
    the strategy was solved on), the opponent and the later rounds playing the strategy
    and the later deals valued by it. The advice leads with the strategy table's action,
    unless these values resolve the other action: then it leads with that one and says
    by how much the table differs (--json: answered_by is "values"). When the two are
    within the deals' precision it says so (too close to call). --no-values reads the
    table alone, at once. Against the treatise, the best response to Hoyle's list and
    the maxims (sampled). The rule of the treatise that speaks is named.

    The turned-up card alone (--turn-up) gives the trumps; --trump alone draws the
    turn-up from the other cards of the suit.

    When a king marked before the play ends the game (at four, Laws 22-24 and 46), the
    deal cannot change it: both actions win (or lose) on every deal, and the advice says
    so.

    \b
    Examples:
      ecarte-sim advise "KH QH JH 7S 8D" --trump H --turn-up 9H --score 0-0
      ecarte-sim advise "KS QS 9S 8H 7D" --trump TS --score 3-4 --role dealer
      ecarte-sim advise "QH AH 7H KS KD" --trump H --score 2-2 --against treatise --json
      ecarte-sim advise "QH 8H KS 9D 7C" --trump H --turn-up JH --discard
      ecarte-sim advise "KH 9H 8S 7D QC" --turn-up JH --said propose,accept \
          --discards "7S 8D 9C:3"
      ecarte-sim advise "KH QS 9S 8D 7C" --turn-up JH --role dealer \
          --said propose,accept,propose --discards "TC:2"

    A later decision (--said with an exchange made) is valued on worlds drawn from what
    the player knows: the adversary's hand from what he said and how many cards he took,
    under the strategy; everything after plays the strategy. The treatise's lists decide
    each round on the hand held then, as it reads them.
    """
    from ecarte_sim.api.strategy import advice, decided_by_the_deal

    set_threads(threads)
    asked = advice(hand, trump, score, role, turn_up=turn_up, against=against, play=play,
                   worlds=worlds, discard=discard, said=said, discards=discards,
                   elder_took=elder_took, deals=n_deals, values=not no_values, seed=seed)
    result = asked.to_dict()
    if as_json:
        emit(result)
        return
    if asked.kind.startswith("later"):
        _print_later(asked.kind, result, role, seed)
        return
    if asked.kind == "first discard":
        click.echo(f"{result['hand']} ({role}) at the first exchange, score {result['score']}:"
                   f" the computed strategy ({result['strategy']['play']}) throws "
                   f"{result['throws'] or 'nothing'}, keeping {result['keeps']} "
                   f"(rule {result['rule']})")
        _other_discards(result["others"])
        return
    if against != "treatise":
        _headline(result, role, seed)
        if no_values:
            return
    if against == "treatise":
        click.echo(f"{result['hand']} ({role}), trump {result['trump']}"
                   + (f", {result['turn_up']} turned up" if result["turn_up"] else "")
                   + f", score {result['score']}; against the treatise, {result['n']:,} "
                   f"deals, seed {seed}")
    for name, val in result["values"].items():
        lo, hi = val["p_win_ci95"]
        click.echo(f"  {name:<8} P(win the game) {val['p_win']:.4f} [{lo:.4f}, {hi:.4f}]  "
                   f"marks/deal {val['marks']:+.3f}")
    g = result["gain"]
    click.echo(f"  {g['of']}: {g['p_win']:+.4f} [{g['p_win_ci95'][0]:+.4f}, "
               f"{g['p_win_ci95'][1]:+.4f}]")
    if result.get("decided_by_the_deal") or (against == "treatise" and
                                             decided_by_the_deal(result)):
        click.echo("  this deal cannot change the game: it is decided before the play "
                   "(a king marked at four, Laws 22-24 and 46)")
    elif against == "treatise":
        sure = "" if result["decided"] else (" (too close to call: the interval of the "
                                             "difference holds zero)")
        click.echo(f"  → {result['action']}{sure}")
    t = result["treatise"]
    click.echo(f"  the treatise ({t['policy']}) says {t['says']}: {t['reason']}")


@click.command(context_settings=CONTEXT)
@click.argument("hand")
@click.option("--turn-up", "turn_up", metavar="CARD", required=True,
              help="The turned-up card (its suit is trumps; not in the hand).")
@click.option("--history", metavar="WORDS", required=True,
              help="The decisions so far: the elder's propose or play, then the dealer's "
                   "accept or refuse (e.g. propose,refuse), round after round; after an "
                   "acceptance the adversary's word says how many cards he threw "
                   "(accept:2 for a dealer, propose:3 for an elder). Past the first answer "
                   "the posterior is sampled.")
@click.option("--thrown", metavar="CARDS", default=None,
              help="Your own discards, one group per exchange separated by ';' (e.g. "
                   "'7C 8D; 9S'); HAND is your hand now.")
@click.option("--samples", type=click.IntRange(100, 1 << 22), default=1 << 14,
              show_default=True, help="Draws of a sampled posterior.")
@seed_option(help="Seed of a sampled posterior, in [0, 2^64).")
@click.option("--discard", type=click.Choice(["trumps-kings", "trumps-queens", "trumps-knaves",
                                              "trumps-aces", "trumps-only", "fewest"]),
              default=None, help="The adversary's discard rule in a sampled posterior "
                                 "[default: trumps-kings].")
@click.option("--role", type=click.Choice(["elder", "dealer"]), default="elder",
              show_default=True, help="Whose hand HAND is; the adversary is the other.")
@click.option("--opponent-model", "model", metavar="M", default=None,
              help="How the adversary decides, from his hand: an elder policy (regle, "
                   "always-play, always-propose, threshold) or a dealer policy (maxims, "
                   "regle, always-accept, always-refuse), or a computed table: the "
                   "tables.npz of 'strategy --out' (its row at --score) [default: the "
                   "treatise's, regle or maxims].")
@click.option("--threshold", type=click.IntRange(0, 100), default=None,
              help="The strength an elder of the threshold model needs to play.")
@click.option("--score", "score", metavar="E-D", callback=score_value, default="0-0",
              show_default=True,
              help="The score, the elder's first (which row of a computed table).")
@JSON
def infer(hand, turn_up, history, thrown, samples, seed, discard, role, model, threshold,
          score, as_json):
    """What the adversary's first decisions say about his hand: the exact posterior of his
    trumps, the king of trumps and his holding in each suit, over every hand he may hold
    (the 65,780 hands of the 26 cards HAND and the turn-up leave) on which the opponent
    model says what he said.

    \b
    Examples:
      ecarte-sim infer "QS JS AH 7C JD" --turn-up 8D --history propose,refuse
      ecarte-sim infer "KS QS 9S 8H 7D" --turn-up TS --history propose --role dealer --json
      ecarte-sim infer "QS KH AH 9C JD" --turn-up 8D --history propose,accept:2,play \\
          --thrown "7C 8H"
    """
    from ecarte_sim.api.strategy import inferred

    read = inferred(hand, turn_up, history, role, opponent_model=model,
                    threshold=threshold, score=score, thrown=thrown,
                    samples=samples, seed=seed, discard=discard)
    result = read.to_dict()
    if as_json:
        emit(result)
        return
    other = "dealer" if role == "elder" else "elder"
    if result["exact"]:
        click.echo(f"{result['hand']} ({role}), {result['turn_up']} turned up, history "
                   f"{','.join(result['history'])}; the {other} decides by "
                   f"{result['model']}: {result['consistent']:,} of his {result['of']:,} "
                   "possible hands are consistent (exact)")
    else:
        click.echo(f"{result['hand']} ({role}), {result['turn_up']} turned up, history "
                   f"{','.join(result['history'])}{_threw(result['counts'])}; the "
                   f"{other} decides by {result['model']}: {result['consistent']:,} draws "
                   f"from the posterior of {result['of']:,} (sampled, seed {result['seed']}; "
                   f"{result['fallback_draws']:,} found no fitting history)")
    click.echo("  trumps he holds: " + ", ".join(
        f"{k}: {p:.3f}" for k, p in enumerate(result["trumps"])))
    click.echo(f"  two trumps or more {result['two_trumps_or_more']:.3f}; the king of trumps "
               f"{result['king_of_trumps']:.3f}")
    for letter, suit in result["suits"].items():
        click.echo(f"  {suit['name']:<9}{' (trumps)' if suit['trump'] else '         '} "
                   f"cards {suit['mean_cards']:.2f}, high cards (K Q J A) "
                   f"{suit['mean_high_cards']:.2f}, king {suit['king']:.3f}")


def _threw(counts: list[int]) -> str:
    """How many cards the adversary threw at each exchange, in words: " (he threw 2
    cards, then 3)"; nothing when there was no exchange."""
    if not counts:
        return ""
    first = f"{counts[0]} card{'' if counts[0] == 1 else 's'}"
    return f" (he threw {', then '.join([first, *map(str, counts[1:])])})"


@click.command("inference-value", context_settings=CONTEXT)
@click.option("--deals", "n_deals", type=click.IntRange(100, 1 << 30), default=1 << 16,
              show_default=True, help="Deals per comparison (each seat, each pair of arms).")
@click.option("--worlds", type=click.IntRange(1, 4096), default=64, show_default=True,
              help="PIMC worlds per decision, for every PIMC player.")
@click.option("--v-deals", type=click.IntRange(1000, 1 << 30), default=1 << 16,
              show_default=True, help="Deals behind the score table V (plain PIMC).")
@seed_option()
@THREADS
@quiet_option()
@JSON
def inference_value(n_deals, worlds, v_deals, seed, threads, quiet, as_json):
    """What reading the proposals is worth: one player, in each seat, plays pimc-inference,
    plain pimc and dd on the same deals against a plain-PIMC opponent (proposals by the
    treatise, discards trumps-kings); the paired differences in marks per deal and in
    P(win the game) from 0-0, with 95% intervals and n, and the inferring player's worlds
    that fell back to uniform.

    \b
    Example:
      ecarte-sim inference-value --deals 65536 --json
    """
    from ecarte_sim.api.inference import inference_value as measure
    from ecarte_sim.analysis.reports.provenance import provenance

    set_threads(threads)

    def say(label: str, n: int) -> None:
        if not quiet and not as_json:
            click.echo(f"{label} ({n:,} deals) ...", err=True)

    result = measure(n_deals, seed=seed, worlds=worlds, v_deals=v_deals, progress=say)
    result["provenance"] = provenance(
        "inference-value", {"deals": n_deals, "worlds": worlds, "v_deals": v_deals}, seed,
        n_deals)
    if as_json:
        emit(result)
        return
    click.echo(f"{n_deals:,} deals a comparison, seed {seed}, W = {worlds}; opponent plain "
               f"PIMC; P(win the game) from 0-0 by V of {v_deals:,} plain-PIMC deals")
    for seat, rows in (*result["seats"].items(), ("both seats", result["both_seats"])):
        for key, r in rows.items():
            m, g = r["marks"], r["win_game"]
            click.echo(f"  {seat:<10} {key:<24} marks {m['mean']:+.4f} [{m['ci95'][0]:+.4f}, "
                       f"{m['ci95'][1]:+.4f}]  P(win) {g['mean']:+.4f} [{g['ci95'][0]:+.4f}, "
                       f"{g['ci95'][1]:+.4f}]")
    w = result["inference_work"]
    click.echo(f"  pimc-inference for both on {w['deals']:,} deals: {w['fallback_worlds']:,} of "
               f"{w['worlds']:,} worlds ({w['fallback_share']:.2%}) fell back to uniform")


@click.command("inference-claims", context_settings=CONTEXT)
@click.option("--worlds", type=click.IntRange(1, 4096), default=64, show_default=True,
              help="PIMC worlds per decision in the put-to-a-card play.")
@seed_option()
@THREADS
@quiet_option()
@JSON
def inference_claims(worlds, seed, threads, quiet, as_json):
    """Test the treatise's claims about inference, each reading with its verdict by a rule
    fixed before the run: "A proposes, and is refused. He may now conclude that Y has two
    trumps at least" (exact, over every deal and for the example's hand); "Y is strong in
    hearts and clubs, or holds two trumps" and "the queen of spades ... should be led"
    (exact, every hand the dealer may hold); and the "put to a card" example played out by
    the inferring player (pimc-inference), paired.

    \b
    Example:
      ecarte-sim inference-claims --json
    """
    from ecarte_sim.api.inference import inference_claims as measure
    from ecarte_sim.analysis.reports.provenance import provenance

    set_threads(threads)

    def say(what: str) -> None:
        if not quiet and not as_json:
            click.echo(f"{what} ...", err=True)

    rows = measure(worlds=worlds, seed=seed, progress=say)
    result = {"claims": rows, "provenance": provenance(
        "inference-claims", {"worlds": worlds}, seed, None)}
    if as_json:
        emit(result)
        return
    for r in rows:
        lo, hi = r["ci95"]
        figure = (f"{r['estimate']:.4f} (exact)" if r["exact"] else
                  f"{r['estimate']:+.4f} [{lo:+.4f}, {hi:+.4f}]")
        click.echo(f"{r['id']:<20} {r['verdict']:<13} {figure}  n={r['n']:,}  {r['reading']}")


COMMANDS = (strategy, advise, infer, inference_value, inference_claims)
