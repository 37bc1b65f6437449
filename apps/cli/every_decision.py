"""``ecarte-sim every-decision``: one step of the solve of every decision of a deal (the
later proposals, answers and discards, and the first round resolved where it was not),
its report and, with ``--ship``, the package's shipped strategy. Parses its options and
calls the front door (:func:`ecarte_sim.api.solving.every_decision`) and
:mod:`ecarte_sim.analysis.reports.every_decision`."""

from __future__ import annotations

import click

from ecarte_sim.apps.cli.common import (CONTEXT, JSON, THREADS, command_line, emit,
                                            long_run, long_run_options, quiet_option,
                                            scores_or_all, seed_option, set_threads,
                                            stage_lines, writable_dir)
from ecarte_sim.engine.ecarte.settings import play_models

# numpy and the library are imported inside the command: --help imports this module.


@click.command("every-decision", context_settings=CONTEXT)
@click.option("--start", "start_dir", type=click.Path(file_okay=False, exists=True),
              default=None,
              help="Start from the strategy data in this directory (<play>.npz, <play>.json, "
                   "as --ship writes them) [default: the package's shipped strategy].")
@click.option("--play", "play", type=click.Choice(play_models("solved")),
              default="dd", show_default=True, help="Play model of both players' cards.")
@click.option("--worlds", type=click.IntRange(1, 4096), default=None,
              help="PIMC: worlds per decision [default: the settings' 64].")
@click.option("--later-deals", type=click.IntRange(1, 1 << 39), default=1 << 24,
              show_default=True,
              help="Source deals per score and step of the later rounds: every later "
                   "decision met in them is valued both ways on its own deal.")
@click.option("--later-steps", type=click.IntRange(0, 20), default=3, show_default=True,
              help="Most steps of the later decisions at a score (both players respond at "
                   "once; 0: keep the starting pair's later rounds).")
@click.option("--later-tolerance", type=click.FloatRange(0, 1), default=0.01,
              show_default=True,
              help="Stop a score's later steps when less than this share of the decisions "
                   "met changed.")
@click.option("--no-later-discards", is_flag=True,
              help="Keep the starting pair's later discards.")
@click.option("--deals-per-state", type=click.IntRange(2, 1 << 15), default=32,
              show_default=True, help="First round: deals every state gets.")
@click.option("--max-deals-per-state", type=click.IntRange(2, 1 << 15), default=2048,
              show_default=True,
              help="First round: most deals of a state whose sign stays unresolved.")
@click.option("--budget", type=click.FloatRange(0, 64), default=2.0, show_default=True,
              help="First round: the refinement's deals at most, in units of the first "
                   "pass's (the states of largest expected regret first).")
@click.option("--epsilon", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.005, show_default=True,
              help="First round: two actions closer than this in P(win the game) need not "
                   "be told apart (a state stops when its posterior sd is below half).")
@click.option("--no-first-round", is_flag=True,
              help="Keep the starting pair's first decisions (solve the later rounds only).")
@click.option("--elder-then-dealer", is_flag=True,
              help="First round: solve the elder's decision first and the dealer's then "
                   "against the elder's new table (else both at once against the starting "
                   "pair).")
@click.option("--value-deals", type=click.IntRange(1000, 1 << 40), default=1 << 18,
              show_default=True, help="Whole deals per score for V.")
@click.option("--score", "scores", metavar="E-D", multiple=True, callback=scores_or_all,
              help="Solve only at these scores (repeat) [default: all 25, from 4-4 down].")
@seed_option()
@THREADS
@click.option("--out", "out_dir", type=click.Path(file_okay=False, writable=True),
              default=None, help="Write every_decision.md, every_decision.csv and "
                                 "provenance.json here.")
@click.option("--ship", "ship_dir", type=click.Path(file_okay=False, writable=True),
              default=None,
              help="Also write the new pair (with its later tables) as shipped strategy "
                   "data (<play>.npz, <play>.json) here.")
@long_run_options("2^22 source deals of the later rounds; the first round's tasks are "
                  "2^14 states")
@quiet_option()
@JSON
def every_decision(start_dir, play, worlds, later_deals, later_steps, later_tolerance,
                   no_later_discards, deals_per_state, max_deals_per_state, budget, epsilon,
                   no_first_round, elder_then_dealer, value_deals, scores, seed, threads,
                   out_dir, ship_dir, run_dir, resume, task_size, scheduler, workers, quiet,
                   as_json):
    """One step of the solve of every decision of a deal, score by score from 4-4 down.

    At each score: the later decisions (the elder's propose or play after an exchange,
    the dealer's answer, each later discard) from source deals played by the pair —
    every later decision met is played both ways on its own deal (a draw from what the
    decider knows), each state's gain pooled with the states alike (the hand's
    features), the table taking its sign; both players at once, up to --later-steps
    times. Then the first decisions against the new later rounds: every state sampled
    at --deals-per-state deals, pooled, and the states whose sign stays unresolved
    sampled further (doubling, at most --max-deals-per-state, within --budget). Then V
    of the score from the new row.

    A long run can be checkpointed with --run-dir, continued with --resume and sent to a
    Dask cluster with --scheduler or --workers: the result is the same.

    \b
    Examples:
      ecarte-sim every-decision --score 4-4 --later-deals 65536 --later-steps 1 \\
          --deals-per-state 4 --max-deals-per-state 8 --value-deals 4096
      ecarte-sim every-decision --out results/every-decision-dd \\
          --ship analysis/ecarte/solving/strategy_data --run-dir results/runs/every-dd
    """
    from ecarte_sim.analysis.reports import every_decision as files
    from ecarte_sim.analysis.reports.provenance import provenance
    from ecarte_sim.api.solving import EverySettings, Sampling, starting_strategy
    from ecarte_sim.api.solving import every_decision as solve_every
    from ecarte_sim.engine.ecarte.settings import EcarteSettings

    set_threads(threads)
    writable_dir(out_dir)
    writable_dir(ship_dir)
    if deals_per_state > max_deals_per_state:
        raise click.BadParameter(f"{deals_per_state} is above --max-deals-per-state "
                                 f"{max_deals_per_state}", param_hint="--deals-per-state")
    try:
        begun = starting_strategy(start_dir, play)
    except (OSError, ValueError) as exc:
        raise click.BadParameter(str(exc), param_hint="--start") from None
    settings = EcarteSettings.build(play=play, **({"worlds": worlds} if worlds else {}))
    es = EverySettings(settings=settings, later_deals=later_deals, later_steps=later_steps,
                       later_tolerance=later_tolerance,
                       later_discards=not no_later_discards,
                       first=Sampling(deals_per_state, max_deals_per_state),
                       budget=budget, epsilon=epsilon, first_round=not no_first_round,
                       elder_then_dealer=elder_then_dealer,
                       value_deals=value_deals, seed=seed, scores=tuple(scores))
    parameters = {**es.echo(), "start": begun.provenance.get("sha256")}
    with long_run("every-decision", parameters, seed, run_dir, resume, task_size, scheduler,
                  workers) as how:
        result = solve_every(es, begun, start_dir=start_dir,
                             progress=stage_lines(not quiet and not as_json))
    report = result.payload
    report["command"] = command_line("every-decision")
    report["provenance"] = provenance("every-decision", parameters, seed,
                                      files.deals_played(report))
    written = []
    if out_dir:
        written += files.write_report(out_dir, report, how)
    if ship_dir:
        written += files.ship(ship_dir, report, play)
    if as_json:
        emit({"command": report["command"], **result.to_dict(),
              "provenance": report["provenance"], "files": written})
        return
    for line in files.summary_lines(report) + [f"wrote {p}" for p in written]:
        click.echo(line)


COMMANDS = [every_decision]
