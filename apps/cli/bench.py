"""``ecarte-sim bench``: the throughput of every kernel, measured on this machine."""

from __future__ import annotations

import click

from ecarte_sim.apps.bench.startup import format_startup, startup_times
from ecarte_sim.apps.cli.common import CONTEXT, JSON, emit, seed_option, set_threads
from ecarte_sim.engine.ecarte.settings import MAX_WORLDS

# --------------------------------------------------------------------------- bench

@click.command(context_settings=CONTEXT)
@click.option("--deals", "n_deals", type=click.IntRange(1000, 2**40), default=2_000_000,
              show_default=True, help="Deals for each kernel.")
@click.option("--reference-deals", type=click.IntRange(10, 10**6), default=300,
              show_default=True, help="Deals for the pure-Python reference.")
@click.option("--pimc-deals", type=click.IntRange(100, 10**8), default=20_000,
              show_default=True, help="Deals for PIMC at W = 64 (more at smaller W).")
@seed_option(help="Seed in [0, 2^64) of the deals measured.")
@click.option("--threads", type=int, default=None, help="Worker threads (default: all).")
@click.option("--no-startup", is_flag=True,
              help="Skip the cold-compile, warm start-up and whole-process measurements "
                   "(subprocesses).")
@click.option("--process-deals", type=click.IntRange(0, 2**40), default=20_000_000,
              show_default=True,
              help="Deals of the whole-process run `ecarte-sim simulate --no-exchange` "
                   "(0: skip it).")
@click.option("--exploit-worlds", "exploit_worlds", default="4,16,64", show_default=True,
              callback=lambda ctx, param, value: _worlds_list(value),
              help="The W of the PIMC models whose exact best response in the play is "
                   f"timed, comma-separated (each 1..{MAX_WORLDS}).")
@click.option("--strategy", is_flag=True,
              help="Also time the elder's best response at 0-0 under dd against the maxims "
                   "over every canonical state, and the 5 x 5 table from its marks tables "
                   "(a few minutes).")
@click.option("--web-games", type=click.IntRange(0, 200), default=50, show_default=True,
              help="Games played at once to the end against the web app on loopback (0: "
                   "skip).")
@click.option("--web-finished", type=click.IntRange(0, 10_000), default=500,
              show_default=True,
              help="Games finished while the web app's memory is sampled (0: skip).")
@click.option("--web-think", type=click.FloatRange(0, 60), default=0.0, show_default=True,
              help="Seconds each web player waits before a decision (x0.5-1.5 at random; "
                   "0: as fast as the server answers).")
@click.option("--web-memory-coach/--no-web-memory-coach", default=True, show_default=True,
              help="The coach on in the games of the memory measurement (off: faster).")
@click.option("--web-only", is_flag=True,
              help="Measure the web app only (--web-games, --web-finished).")
@click.option("--startup-only", is_flag=True,
              help="Measure the start-up only: warm whole processes of `ecarte-sim --help`, "
                   "`classify` and `advise --no-values` (a few seconds).")
@JSON
def bench(n_deals, reference_deals, pimc_deals, seed, threads, no_startup, process_deals,
          exploit_worlds, strategy, web_games, web_finished, web_think, web_memory_coach, web_only,
          startup_only, as_json):
    """Measure throughput: deal only, deal + exact double-dummy, deal + point/vole,
    whole deals (regle / maxims, exchanges, dd or heuristic play), whole deals with
    PIMC play at W = 16, 32, 64 (with the cost per decision), and the pure-Python
    reference, on the same deals; plus JIT compile time (cold cache), warm
    start-up of `ecarte-sim solve`, and a whole `ecarte-sim simulate --no-exchange`
    process on --process-deals deals; and the start-up of `ecarte-sim --help`,
    `classify` and `advise --no-values` (the median of warm whole processes) beside
    its goal.

    Figures are wall-clock measurements of this run on this machine.
    """
    set_threads(threads)
    say = None if as_json else lambda line: click.echo(line, err=True)
    if startup_only:
        report = {"cli_startup": startup_times()}
        emit(report) if as_json else click.echo("\n".join(format_startup(report["cli_startup"])))
        return
    from ecarte_sim.apps.bench.throughput import format_report, format_web, run_bench, web_bench
    if web_only:
        report = web_bench(web_games, web_finished, say, think=web_think,
                           memory_coach=web_memory_coach)
        emit(report) if as_json else click.echo("\n".join(format_web(report)))
        return
    report = run_bench(n_deals, reference_deals, seed, startup=not no_startup,
                       pimc_deals=pimc_deals, process_deals=process_deals, strategy=strategy,
                       web_games=web_games, web_finished=web_finished,
                       exploit_worlds=exploit_worlds,
                       log=None if as_json else lambda line: click.echo(line, err=True))
    if not no_startup:
        if say:
            say("measuring the start-up of --help, classify, advise --no-values ...")
        report["cli_startup"] = startup_times()
    if as_json:
        emit(report)
    else:
        click.echo(format_report(report))
        if "cli_startup" in report:
            click.echo("\n".join(format_startup(report["cli_startup"])))


COMMANDS = [bench]


def _worlds_list(value: str) -> tuple[int, ...]:
    """``--exploit-worlds``: comma-separated W, each 1..MAX_WORLDS."""
    out = []
    for token in value.split(","):
        t = token.strip()
        if not t.isdigit() or not 1 <= int(t) <= MAX_WORLDS:
            raise click.BadParameter(f"{t!r} is not a number of worlds in 1..{MAX_WORLDS}")
        out.append(int(t))
    return tuple(out)
