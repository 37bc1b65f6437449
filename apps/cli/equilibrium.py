"""``ecarte-sim equilibrium``: five up solved (both players' first decisions and first
discards at every score, ``V`` from the strategies themselves), its report and, with
``--ship``, the package's shipped strategy. Parses its options and calls
:func:`ecarte_sim.api.solving.equilibrium` (the front door) and
:mod:`ecarte_sim.analysis.reports.equilibrium`."""

from __future__ import annotations

import click

from ecarte_sim.apps.cli.common import (CONTEXT, JSON, THREADS, command_line, emit,
                                            long_run, long_run_options, quiet_option,
                                            scores_or_all, seed_option, set_threads,
                                            stage_lines, writable_dir)
from ecarte_sim.engine.ecarte.settings import DEFAULT_WORLDS, play_models

# numpy is imported inside the functions that use it: --help imports this module, and
# starts without numpy.


@click.command("equilibrium", context_settings=CONTEXT)
@click.option("--play", "play", type=click.Choice(play_models("solved")),
              default="dd", show_default=True, help="Play model of both players' cards.")
@click.option("--worlds", type=click.IntRange(1, 4096), default=None,
              help=f"PIMC: worlds sampled per decision [default: {DEFAULT_WORLDS}].")
@click.option("--deals-per-state", type=click.IntRange(2, 1 << 15), default=None,
              help="First decisions: deals every state gets first [default: 64; 16 under "
                   "pimc].")
@click.option("--max-deals-per-state", type=click.IntRange(2, 1 << 15), default=None,
              help="First decisions: most deals of a state whose actions stay close "
                   "[default: 4096; 256 under pimc].")
@click.option("--discard-deals-per-state", type=click.IntRange(2, 1 << 15), default=None,
              help="First discards: deals every state and rule gets first [default: as "
                   "the first decisions].")
@click.option("--max-discard-deals-per-state", type=click.IntRange(2, 1 << 15), default=None,
              help="First discards: most deals of a state and rule [default: as the first "
                   "decisions].")
@click.option("--fresh-deals", type=click.IntRange(1000, 1 << 40), default=None,
              help="Fresh deals per score for the exploitability and the value [default: "
                   "2^18; 2^14 under pimc].")
@click.option("--value-deals", type=click.IntRange(1000, 1 << 40), default=None,
              help="Whole deals per score for V [default: 2^18; 2^13 under pimc].")
@click.option("--iterations", type=click.IntRange(0, 50), default=4, show_default=True,
              help="Most steps of the sweep at each score (0: measure Hoyle's pair only).")
@click.option("--tolerance", type=click.FloatRange(0, 1, min_open=True), default=0.002,
              show_default=True, help="A score is settled when its V moved by less than "
                                      "this in its last step ...")
@click.option("--exploit-tolerance", type=click.FloatRange(0, 1, min_open=True),
              default=0.001, show_default=True,
              help="... and its exploitability's 95% upper bound is at most this.")
@click.option("--discard-steps", type=click.IntRange(1, 50), default=1, show_default=True,
              help="The first steps at a score whose best responses re-solve the discards "
                   "too (later steps re-solve the first decisions only).")
@click.option("--resolution", type=click.Choice(["keep", "pooled"]), default=None,
              help="How a best response reads each state's few sampled deals [default: "
                   "pooled]. keep: the "
                   "replaced action stays unless the state's own deals resolve the other. "
                   "pooled: the sign of its gain pooled with the states alike (a model of "
                   "the gain on the hand's features, each state shrunk toward it by its "
                   "noise: empirical Bayes).")
@click.option("--start", "start_dir", type=click.Path(file_okay=False, exists=True),
              default=None,
              help="Start from the strategy data in this directory (<play>.npz and "
                   "<play>.json, as --ship writes them; the directory's default model's "
                   "when it holds none for --play, e.g. a pimc-inference solve started from "
                   "the dd strategy) instead of Hoyle's pair; its sha256 goes into the "
                   "provenance.")
@click.option("--extend", is_flag=True,
              help="With --states and the pooled resolution: every state takes the model's "
                   "answer (those not drawn their fitted value), not only the drawn ones: a "
                   "solve from a sample of the states, for slow play models.")
@click.option("--respond", is_flag=True,
              help="With --iterations 0: the pair reported and shipped is both players' best "
                   "responses to the starting pair at every score (one simultaneous step).")
@click.option("--no-discards", is_flag=True,
              help="Keep the starting pair's first discards, the treatise's unless --start "
                   "(solve the first decisions only).")
@click.option("--score", "scores", metavar="E-D", multiple=True, callback=scores_or_all,
              help="Solve only at these scores (repeat; a reduced instance) [default: all 25].")
@click.option("--states", "n_states", type=click.IntRange(1, 255_304), default=None,
              help="Re-solve only this many states drawn by --seed (a reduced instance; the "
                   "others keep the treatise's entries).")
@seed_option()
@THREADS
@click.option("--out", "out_dir", type=click.Path(file_okay=False, writable=True),
              default=None, help="Write equilibrium.md, equilibrium.csv, exploitability.png, "
                                 "convergence.png and provenance.json here.")
@click.option("--ship", "ship_dir", type=click.Path(file_okay=False, writable=True),
              default=None,
              help="Also write the computed pair as shipped strategy data (<play>.npz, "
                   "<play>.json) here: analysis/ecarte/solving/strategy_data regenerates the "
                   "package's own.")
@long_run_options("2^21 deals for the value and fresh-deal stages; the marks tables go "
                  "in tasks of 2^14 states")
@quiet_option()
@JSON
def equilibrium(play, worlds, deals_per_state, max_deals_per_state, discard_deals_per_state,
                max_discard_deals_per_state, fresh_deals, value_deals, iterations,
                tolerance, exploit_tolerance, discard_steps, resolution, start_dir, extend,
                respond,
                no_discards,
                scores,
                n_states, seed, threads,
                out_dir, ship_dir, run_dir, resume, task_size, scheduler, workers, quiet,
                as_json):
    """Five up solved: both players' first decisions (propose or play, accept or refuse)
    and first discards at every score, score by score from 4-4 down to 0-0 (a deal only
    leads to higher scores, so each score is a one-deal game once the scores after it are
    settled), the value of every score computed from the strategies themselves.

    Step 0 measures Hoyle's pair at every score: each player's best response to it (each
    state's actions played on the same sampled deals) and what the two best responses gain
    on fresh deals (the pair's exploitability, 95% intervals); every row becomes the best
    responses. Then at each score, from the last, a step measures the row the same way and,
    while its exploitability's upper bound is above --exploit-tolerance, replaces it by the
    best responses (at most --iterations steps; the least exploitable row measured is kept).
    The report gives the exploitability of Hoyle's pair and of the computed pair at every
    score, and the value of the game. --ship writes the pair as the data `advise` and
    `chart` read.

    A long run can be checkpointed with --run-dir, continued with --resume and sent to a
    Dask cluster with --scheduler or --workers: the result is the same.

    \b
    Examples:
      ecarte-sim equilibrium --play dd --out results/equilibrium-dd \\
          --ship analysis/ecarte/solving/strategy_data --run-dir results/runs/eq-dd
      ecarte-sim equilibrium --states 500 --score 0-0 --score 3-4 --deals-per-state 4 \\
          --max-deals-per-state 8 --fresh-deals 4096 --value-deals 4096 --iterations 1
    """
    from ecarte_sim.analysis.reports import equilibrium as files
    from ecarte_sim.analysis.reports.provenance import provenance
    from ecarte_sim.api.solving import SolveSettings
    from ecarte_sim.api.solving import equilibrium as solve_game

    set_threads(threads)
    writable_dir(out_dir)
    writable_dir(ship_dir)
    _check_step_options(respond, iterations, ship_dir)
    settings, sampling, rules = _samplings(play, worlds, deals_per_state, max_deals_per_state,
                                           discard_deals_per_state,
                                           max_discard_deals_per_state)
    start, start_sha = _starting_pair(start_dir, play)
    states = _drawn_states(n_states, seed, extend)
    solve = SolveSettings(settings=settings, sampling=sampling, discard_sampling=rules,
                          fresh_deals=fresh_deals, value_deals=value_deals,
                          iterations=iterations, tolerance=tolerance,
                          exploit_tolerance=exploit_tolerance, discards=not no_discards,
                          discard_steps=discard_steps,
                          **({"resolution": resolution} if resolution else {}),
                          start=start_sha, extend=extend,
                          seed=seed, states=states, scores=tuple(scores))
    parameters = {**solve.echo(), "states_drawn": n_states} | (
        {"respond": True} if respond else {})
    with long_run("equilibrium", parameters, seed, run_dir, resume, task_size, scheduler,
                  workers) as how:
        result = solve_game(solve, start=start, respond=respond,
                            progress=stage_lines(not quiet and not as_json))
    report = result.payload
    report["command"] = command_line("equilibrium")
    report["provenance"] = provenance("equilibrium", parameters, seed,
                                      sum(h["deals"] for h in result.history))
    files_written = []
    if out_dir:
        files_written += files.write_report(out_dir, report, how)
    if ship_dir:
        files_written += files.ship(ship_dir, report)
    if as_json:
        emit({"command": report["command"], **result.to_dict(),
              "provenance": report["provenance"], "files": files_written})
        return
    begin = "Hoyle's pair" if start is None else "the starting pair"
    for line in _summary_lines(result.summary, play, seed, iterations, respond, begin) + [
            f"wrote {path}" for path in files_written]:
        click.echo(line)


def _check_step_options(respond: bool, iterations: int, ship_dir) -> None:
    """--respond goes with --iterations 0; --ship needs a step solved (or --respond)."""
    if respond and iterations != 0:
        raise click.BadParameter("goes with --iterations 0 (one step from the starting pair)",
                                 param_hint="--respond")
    if ship_dir and iterations == 0 and not respond:
        raise click.BadParameter("needs --iterations 1 or more, or --respond: step 0 alone "
                                 "measures the starting pair and solves nothing to ship",
                                 param_hint="--ship")


def _samplings(play, worlds, deals_per_state, max_deals_per_state, discard_deals_per_state,
               max_discard_deals_per_state):
    """The play settings and the two samplings (first decisions, discards), each option
    left out taking the play model's default; a bad pair is a usage error."""
    from ecarte_sim.api.solving import Sampling, default_sampling
    from ecarte_sim.engine.ecarte.settings import EcarteSettings

    settings = EcarteSettings.build(play=play, **({"worlds": worlds} if worlds else {}))
    default = default_sampling(settings)
    try:
        sampling = Sampling(deals_per_state or default.first,
                            max_deals_per_state or default.most)
        rules = Sampling(discard_deals_per_state or sampling.first,
                         max_discard_deals_per_state or sampling.most)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    return settings, sampling, rules


def _starting_pair(start_dir, play):
    """--start DIR: the shipped strategy there (the play model's, else the one it holds)
    and its sha256; (None, None) without it."""
    if start_dir is None:
        return None, None
    from ecarte_sim.api.solving import starting_strategy
    try:
        begun = starting_strategy(start_dir, play)
    except (OSError, ValueError) as exc:
        raise click.BadParameter(f"{start_dir}: {exc}", param_hint="--start") from None
    return begun, begun.provenance["sha256"]


def _drawn_states(n_states, seed, extend):
    """--states N: N canonical states drawn by the seed (None: all of them); --extend
    needs them."""
    from ecarte_sim.api.solving import draw_states

    states = draw_states(n_states, seed)
    if extend and n_states is None:
        raise click.BadParameter("needs --states N (the sample the model is fitted on)",
                                 param_hint="--extend")
    return states


def _summary_lines(s: dict, play, seed, iterations, respond, begin: str) -> list[str]:
    """The text answer: the verdict, the value from 0-0, the exploitability by score."""
    lines = [f"five up, play {play}, seed {seed}: "
             + (("converged" if s["converged"] else
                 f"not converged at {', '.join(s['unsettled'])}")
                + f" after {s['steps']} steps of the sweep" if iterations else
                f"one step: both players' best responses to {begin} at every score"
                if respond else f"step 0 only: {begin} measured, nothing solved")]
    lo, hi = s["elder_wins_0_0_ci95"]
    lines.append(f"  value from 0-0: the elder wins {s['elder_wins_0_0']:.4f} [{lo:.4f}, "
                 f"{hi:.4f}], the first dealer {s['first_dealer_wins_0_0']:.4f}")
    for h, c in zip(s["hoyle"], s["computed"]):
        lines.append(f"  {h['score']}: exploitability of {begin} {h['exploitability']:+.4f}"
                     f" [{h['exploitability_ci95'][0]:+.4f}, {h['exploitability_ci95'][1]:+.4f}]"
                     + (f", of the computed pair {c['exploitability']:+.4f} "
                        f"[{c['exploitability_ci95'][0]:+.4f}, {c['exploitability_ci95'][1]:+.4f}]"
                        if iterations else "") + f"  n={c['n']:,}")
    return lines


def _audit_scores(ctx, param, values):
    from ecarte_sim.api.solving import DEFAULT_SCORES
    return scores_or_all(ctx, param, values) if values else DEFAULT_SCORES


@click.command("audit", context_settings=CONTEXT)
@click.option("--play", "play", type=click.Choice(play_models("solved")), default=None,
              help="The shipped strategy of this play model [default: the default one].")
@click.option("--score", "scores", metavar="E-D", multiple=True, callback=_audit_scores,
              help="A score to audit (repeatable) [default: 0-0 2-4 3-3 4-4].")
@click.option("--role", "roles", type=click.Choice(["elder", "dealer"]), multiple=True,
              help="A role to audit (repeatable) [default: both].")
@click.option("--round", "rounds", type=click.Choice(["first", "later"]), multiple=True,
              help="The first decision of a deal, or the later ones (a proposal after an "
                   "exchange, its answer; valued on worlds drawn from what the player "
                   "knows) (repeatable) [default: both].")
@click.option("--hands", type=click.IntRange(1, 1 << 16), default=200, show_default=True,
              help="Random dealt hands per role and score.")
@click.option("--deals", "n_deals", type=click.IntRange(4, 1 << 15), default=1 << 14,
              show_default=True, help="Deals around each hand (even: two halves).")
@click.option("--resolve", type=click.IntRange(0, 1 << 15), default=0, show_default=True,
              help="Also audit the resolved strategy, as advise leads: at each decision "
                   "the table's action unless the two actions' values on RESOLVE deals of "
                   "its own resolve the other (deals the audit never reads: --deals + "
                   "--resolve <= 32768, even); 0: not audited.")
@click.option("--data", "data_dir", type=click.Path(file_okay=False, exists=True),
              default=None, help="Audit the strategy data in this directory (<play>.npz, "
                                 "<play>.json, as equilibrium --ship writes them) [default: "
                                 "the package's own].")
@click.option("--top", type=click.IntRange(0, 100), default=5, show_default=True,
              help="The worst hands named per role and score.")
@click.option("--out", "out", type=click.Path(file_okay=False), default=None,
              help="Write audit.md, audit.csv (one row per hand) and provenance.json here.")
@seed_option(help="Seed of the held-out hands and their deals, in [0, 2^64).")
@THREADS
@quiet_option()
@JSON
def audit(play, scores, roles, rounds, hands, n_deals, resolve, data_dir, top, out, seed,
          threads, quiet, as_json):
    """The shipped strategy checked hand by hand. For each role and score, HANDS random
    dealt hands (the dealer's from deals whose elder proposes by the strategy), each
    valued as `advise` values it: both actions on --deals deals around the hand (never
    the deals a solve sampled), the opponent and the later rounds playing the strategy.
    And HANDS later decisions (the first of each deal the strategy plays at that score:
    a proposal after an exchange, its answer), each valued as `advise --said ...
    --discards ...` values it, on worlds drawn from what the player knows then.
    Reported: the mean regret of the table's action and of the treatise's on the same
    hands (plug-in, an upper estimate; cross-fitted, a lower one; 95% intervals over the
    hands), the share of hands whose action the values beat beyond their 95% interval,
    and the worst hands. With --resolve, the same of the resolved strategy: the table
    as a blueprint, each decision taken by values on deals of its own (as advise
    answers), graded on the audit's deals.

    \b
    Examples:
      ecarte-sim audit --hands 20 --deals 2048 --score 0-0
      ecarte-sim audit --round later --hands 20 --deals 2048 --score 2-2
      ecarte-sim audit --seed 1 --out results/audit
      ecarte-sim audit --hands 10 --deals 1024 --resolve 1024 --score 3-3
    """
    from ecarte_sim.api.solving import AuditSettings
    from ecarte_sim.api.solving import audit as run_audit

    set_threads(threads)
    if n_deals % 2:
        raise click.BadParameter(f"{n_deals} is odd (two halves of the deals)",
                                 param_hint="--deals")
    if resolve and (resolve % 2 or n_deals + resolve > 1 << 15):
        raise click.BadParameter(f"{resolve}: even, and --deals + --resolve at most 32768 "
                                 "(the deals a check has room for)", param_hint="--resolve")
    settings = AuditSettings(hands=hands, deals=n_deals, scores=scores,
                             roles=roles or ("elder", "dealer"), seed=seed, play=play,
                             data_dir=data_dir, rounds=rounds or ("first", "later"),
                             resolve=resolve)
    if out:
        writable_dir(out)
    try:
        result = run_audit(settings, progress=stage_lines(not quiet and not as_json))
    except ValueError as exc:           # no strategy of that play model there, or damaged
        raise click.UsageError(str(exc)) from None
    files = []
    if out:
        from ecarte_sim.analysis.reports.audit import write_audit
        files = write_audit(out, result.payload, command_line("audit"), top=top)
    if as_json:
        emit(result.to_dict() | {"files": files})
        return
    from ecarte_sim.analysis.reports.audit import audit_lines
    for line in audit_lines(result.payload, top=top):
        click.echo(line)
    for path in files:
        click.echo(f"wrote {path}")


COMMANDS = [equilibrium, audit]
