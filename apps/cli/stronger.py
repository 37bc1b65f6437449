"""``ecarte-sim stronger``: the ``alphamu`` card player (αμ search on the last tricks over
``pimc-inference``'s worlds) against ``pimc-inference``, paired on the same deals
(:func:`ecarte_sim.api.play.stronger`)."""

from __future__ import annotations

import click

from ecarte_sim.apps.cli.common import CONTEXT, JSON, emit, progress, quiet_option, \
    seed_option


@click.command("stronger", context_settings=CONTEXT)
@click.option("--deals", type=click.IntRange(1, 1 << 30), default=2000, show_default=True,
              help="Whole deals; each gives two deal-sides (alphamu as the elder, then as "
                   "the dealer).")
@click.option("--worlds", type=click.IntRange(1, 4096), default=64, show_default=True,
              help="W, the worlds of both players (pimc-inference draws them; alphamu "
                   "searches the same ones).")
@click.option("--tricks", type=click.IntRange(0, 5), default=5, show_default=True,
              help="K: alphamu searches the last K tricks (5: every card), pimc-inference "
                   "before.")
@click.option("--start", type=click.IntRange(0, 2**44 - 1), default=0, show_default=True,
              help="The first deal index.")
@click.option("--decisions", type=click.Choice(["treatise", "strategy"]), default="treatise",
              show_default=True, help="The decision model (proposals, answers, discards).")
@click.option("--player", "players", multiple=True, metavar="NAME:W",
              help="Instead of alphamu's match: this card player against pimc-inference at "
                   "--worlds (pimc-king, pimc-inference or alphamu, each with its W, e.g. "
                   "pimc-king:1024); repeat it to measure several on the same deals, and "
                   "each pair's difference.")
@seed_option(help="Seed of the deals and of both players' words, in [0, 2^64).")
@quiet_option()
@JSON
def stronger(deals, worlds, tricks, start, decisions, players, seed, quiet, as_json):
    """alphamu against pimc-inference on the same deals: each deal played by pimc-inference
    on both sides, then again with one side alphamu (the elder, then the dealer), the same
    random words; that side's marks per deal (Laws 48-49) minus the deal's, with a 95%
    interval over deal-sides, how often alphamu's card differs and the time per decision.
    """
    from ecarte_sim.api.play import stronger as match
    from ecarte_sim.api.play import stronger_player, stronger_players
    if players:
        for label in players:
            try:
                stronger_player(label)
            except ValueError as exc:
                raise click.BadParameter(str(exc), param_hint="--player") from None
        return _compare(stronger_players, players, deals, worlds, start, decisions, seed, quiet,
                        as_json)
    with progress(not quiet, deals, "deals") as bar:
        done = [0]

        def on_deal(k):
            bar.update(k - done[0])
            done[0] = k

        result = match(deals=deals, seed=seed, worlds=worlds, last_tricks=tricks, start=start,
                       decisions=decisions, on_deal=on_deal)
    if as_json:
        emit(result.to_dict())
        return
    r = result.payload
    click.echo(f"alphamu (αμ, M unbounded, last {r['last_tricks']} tricks) against "
               f"pimc-inference, W={r['worlds']}, seed {r['seed']}, deals {r['start']}.."
               f"{r['start'] + r['deals'] - 1} ({r['decisions_model']} decisions)")
    for name, part in (("both sides", r), ("as elder", r["elder"]), ("as dealer", r["dealer"])):
        mk, pt = part["marks"], part["point"]
        if not mk["n"]:
            continue
        click.echo(f"{name:<11} n={mk['n']:>7}  marks/deal {mk['mean']:+.4f} "
                   f"[95% {mk['ci95'][0]:+.4f}, {mk['ci95'][1]:+.4f}]  P(point) "
                   f"{pt['mean']:+.4f} [{pt['ci95'][0]:+.4f}, {pt['ci95'][1]:+.4f}]")
    n = r["alphamu_decisions"]
    if n:
        sec = r["seconds_per_decision"]
        click.echo(f"alphamu decisions: {n}; a card other than pimc-inference's in "
                   f"{r['cards_differing']} ({100 * r['cards_differing_share']:.2f}%); "
                   f"deal-sides whose marks changed {100 * r['changed_share']:.2f}%")
        click.echo(f"seconds per decision: alphamu {1000 * sec['alphamu']:.2f} ms, "
                   f"pimc-inference {1000 * sec['pimc_inference']:.3f} ms")
    click.echo(f"time: {r['seconds']:.1f} s")


def _compare(compare, players, deals, worlds, start, decisions, seed, quiet, as_json):
    """``stronger --player``: several card players against pimc-inference, paired."""
    with progress(not quiet, deals, "deals") as bar:
        done = [0]

        def on_deal(k):
            bar.update(k - done[0])
            done[0] = k

        result = compare(players, deals=deals, seed=seed, worlds=worlds, start=start,
                         decisions=decisions, on_deal=on_deal)
    if as_json:
        emit(result.to_dict())
        return
    r = result.payload
    click.echo(f"against {r['against']}, seed {r['seed']}, deals {r['start']}.."
               f"{r['start'] + r['deals'] - 1} ({r['decisions_model']} decisions); marks a "
               "deal-side, the player's side minus the same side in the deal")
    for label, e in result.players.items():
        (mean, lo, hi), elder, dealer = e.marks, e.elder, e.dealer
        click.echo(f"{label:<20} n={e.n:>7}  {mean:+.4f} [95% {lo:+.4f}, "
                   f"{hi:+.4f}]  elder {elder[0]:+.4f}, dealer "
                   f"{dealer[0]:+.4f}; {100 * e.changed_share:.2f}% of deal-sides "
                   f"changed; {1000 * e.seconds_per_deal_side:.1f} ms a deal-side")
    for pair, (mean, lo, hi) in result.differences.items():
        click.echo(f"{pair}: {mean:+.4f} [95% {lo:+.4f}, {hi:+.4f}]")
    click.echo(f"time: {r['seconds']:.1f} s")


COMMANDS = (stronger,)
