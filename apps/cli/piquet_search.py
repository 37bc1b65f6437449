"""``ecarte-sim piquet discard-search``: discards chosen by search against the heuristic's
keep value, paired on the same deals, and the exchange's two questions under the search
(:func:`ecarte_sim.api.piquet.piquet_discard_search`)."""

from __future__ import annotations

import click

from ecarte_sim.apps.cli.common import (CONTEXT, THREADS, JSON, emit, long_run,
                                            long_run_options, progress, quiet_option,
                                            seed_option, set_threads)
from ecarte_sim.api.piquet import CHUNK, DEFAULT_SAMPLES, MAX_SAMPLES, TASK, WINDOW
from ecarte_sim.engine.piquet.settings import (DEFAULT_WORLDS, MAX_WORLDS, LeadScoring,
                                               PiqueTiming, Player, choices)


@click.command("discard-search", context_settings=CONTEXT)
@click.option("--deals", "n_deals", type=click.IntRange(1, 2**44), default=2048,
              show_default=True, help="Number of deals (each played under every arm).")
@seed_option(help="Seed of the deals and of the searches' worlds, in [0, 2^64).")
@click.option("--start", type=click.IntRange(0, 2**44 - 1), default=0, show_default=True,
              help="First deal index.")
@click.option("--samples", type=click.IntRange(1, MAX_SAMPLES), default=DEFAULT_SAMPLES,
              show_default=True,
              help="Sampled deals (the adversary's hand and the stock) each candidate "
                   "discard is evaluated on.")
@click.option("--play", type=click.Choice(choices(Player)), default="heuristic",
              show_default=True,
              help="Who plays the arms out, both seats (the searches always evaluate with "
                   "the heuristic's play): a check that their gain is not the evaluation's "
                   "artefact.")
@click.option("--worlds", type=click.IntRange(1, MAX_WORLDS), default=DEFAULT_WORLDS,
              show_default=True, help="Worlds per decision of a pimc player (--play pimc).")
@click.option("--lead-scoring", type=click.Choice(choices(LeadScoring)), default="all",
              show_default=True, help="Law 65, or only cards of ten and above.")
@click.option("--pique-timing", type=click.Choice(choices(PiqueTiming)), default="lead",
              show_default=True, help="When the younger's declarations are reckoned for the "
                                      "pique (Laws 46, 67, 69).")
@click.option("--chunk", type=click.IntRange(1, 2**30), default=None,
              help=f"Deals per parallel row [default: {CHUNK}] (does not change the result).")
@THREADS
@quiet_option()
@JSON
@long_run_options(f"{TASK} deals")
def discard_search_command(n_deals, seed, start, samples, play, worlds, lead_scoring,
                           pique_timing, chunk, threads, quiet, as_json, run_dir, resume,
                           task_size, scheduler, workers):
    """The elder's and the younger's discards chosen by search (every discard among each
    one's lowest keep values and the suit-keeping and suit-clearing ones, each evaluated on
    SAMPLES sampled deals played by the heuristic) against the heuristic's keep value, on
    the same deals; then, under the search, should the elder take all five and the younger
    all he can (Laws 21-22, 32-34)? Every difference is of the elder's margin (his total
    minus the younger's), paired, with its 95% interval.

    \b
    JSON: {"deals", "arms": {arm: {"margin", "elder_win"}}, "comparisons": [{"a", "b",
           "margin_difference", "elder_win_difference", ...}], "elder_free_take",
           "younger_free_take", "search_is_heuristic", ...}
    Results are bit-identical for any --threads, --chunk, --task-size or backend.
    """
    from ecarte_sim.analysis.reports.provenance import provenance
    from ecarte_sim.api.piquet import MAX_DEAL_INDEX
    from ecarte_sim.api.piquet import piquet_discard_searched as discard_search

    if start + n_deals > MAX_DEAL_INDEX:
        raise click.BadParameter("start + deals must not exceed 2^44", param_hint="--deals")
    set_threads(threads)
    parameters = {"deals": n_deals, "start": start, "samples": samples, "play": play,
                  "worlds": worlds, "lead_scoring": lead_scoring, "pique_timing": pique_timing}
    with long_run("piquet discard-search", parameters, seed, run_dir, resume, task_size,
                  scheduler, workers), \
            progress(not quiet and not as_json, n_deals, "searching") as bar:
        result = discard_search(n_deals, seed=seed, start=start, samples=samples, play=play,
                                worlds=worlds, lead_scoring=lead_scoring, pique_timing=pique_timing,
                                chunk=chunk, progress=bar.update)
    prov = provenance("piquet discard-search", parameters, seed, n_deals)
    if as_json:
        emit({**result.to_dict(), "provenance": prov})
        return
    click.echo(f"{n_deals} deals, seed {seed}: search over each player's lowest keep values "
               f"(window {WINDOW}) on {samples} sampled deals played by the heuristic; arms "
               f"played by {play}" + (f" (W={worlds})" if play == "pimc" else ""))
    click.echo("elder's margin (elder − younger), arm a − arm b, paired:")
    for c in result.comparisons:
        m, w = c.margin_difference, c.elder_win_difference
        click.echo(f"  {c.a:<20} − {c.b:<18} {m[0]:+8.3f} "
                   f"[{m[1]:+.3f}, {m[2]:+.3f}]   elder wins "
                   f"{w[0]:+.4f} [{w[1]:+.4f}, {w[2]:+.4f}]")
    for seat in ("elder", "younger"):
        takes = ", ".join(f"{k}: {v[0]:.3f}"
                          for k, v in getattr(result, f"{seat}_free_take").items())
        same = result.search_is_heuristic[seat][0]
        click.echo(f"  {seat}, free to take fewer, takes ({takes}); full-take search discard "
                   f"= heuristic's in {same:.3f} of deals")


COMMANDS = (discard_search_command,)
