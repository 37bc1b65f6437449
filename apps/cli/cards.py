"""``ecarte-sim cards``: which card to lead or play, from one's own hand and what has
happened so far — each legal card's value as the inferring player sees it, and the
double-dummy value beside it when the adversary's hand is given
(:func:`ecarte_sim.analysis.ecarte.play.card_advice.card_values`)."""

from __future__ import annotations

import click

from ecarte_sim.apps.cli.common import CONTEXT, JSON, emit, seed_option


@click.command(context_settings=CONTEXT)
@click.argument("hand")
@click.option("--turn-up", required=True, metavar="CARD", help="The turn-up (trumps are its "
              "suit, Law 10).")
@click.option("--role", type=click.Choice(["elder", "dealer"]), default="elder",
              show_default=True, help="Whose hand HAND is: the player to play now.")
@click.option("--said", default="play", show_default=True, metavar="WORDS",
              help="What was said, in order: the elder's propose or play, the dealer's "
                   "accept or refuse, again after each exchange (e.g. propose,accept,play).")
@click.option("--discards", default="", metavar="GROUPS",
              help="One group per exchange, separated by ';': the cards YOU threw, then ':' "
                   "and how many the adversary threw (e.g. '7S 8D:2; 9C:1'; '-:3' when you "
                   "threw none).")
@click.option("--played", default="", metavar="CARDS",
              help="The cards played so far in this deal, both players', in order "
                   "(e.g. 'KS 8S QD'). HAND is what you hold now.")
@click.option("--score", default="0-0", show_default=True, metavar="E-D",
              help="The score before the deal, the elder's first.")
@click.option("--opponent", default=None, metavar="CARDS",
              help="The adversary's cards now: adds each card's double-dummy value.")
@click.option("--model", type=click.Choice(["strategy", "treatise"]), default="strategy",
              show_default=True,
              help="How both players are assumed to decide and discard: the shipped "
                   "strategy, or the treatise (Hoyle's list, the maxims).")
@click.option("--worlds", type=click.IntRange(1, 4096), default=64, show_default=True,
              help="Worlds (adversary's hands drawn from the posterior) compared.")
@seed_option(help="Seed of the worlds, in [0, 2^64).")
@click.option("--deal", "deal", type=click.IntRange(0, 2**44 - 1), default=0,
              show_default=True, help="Deal index of the worlds' random words.")
@JSON
def cards(hand, turn_up, role, said, discards, played, score, opponent, model, worlds, seed,
          deal, as_json):
    """Which card to lead or play with HAND (the cards you hold now): each legal card
    (Law 43) valued by the inferring player (pimc-inference: the adversary's hand drawn
    from what was said and discarded, double dummy after the card; P(point) with its
    Wilson 95% interval over the worlds, marks with a normal 95% interval; Laws 48-49
    count the marks) and, with --opponent, double dummy.
    """
    from ecarte_sim.analysis.ecarte.play.card_advice import card_values
    result = card_values(hand, turn_up, role, said=said, discards=discards, played=played,
                         score=score, seed=seed, deal=deal, worlds=worlds, model=model,
                         opponent=opponent)
    if as_json:
        emit(result)
        return
    what = "lead" if result["to_play"] == "lead" else f"play to {result['led']}"
    click.echo(f"{role} to {what}: {result['hand']}; trumps {result['trump']} (turn-up "
               f"{result['turn_up']}); said {','.join(result['said'])}; score "
               f"{result['score']}; tricks elder {result['tricks']['elder']}, dealer "
               f"{result['tricks']['dealer']}")
    dd = result["opponent"] is not None
    head = f"{'card':<5} {'P(point) [95%]':<22} {'marks [95%]':<23} {'vole':>5}"
    click.echo(head + ("  dd tricks (elder)  dd marks" if dd else ""))
    for r in result["cards"]:
        lo, hi = r["point_ci95"]
        mlo, mhi = r["marks_ci95"]
        line = (f"{r['card']:<5} {r['point']:.3f} [{lo:.3f}, {hi:.3f}]   "
                f"{r['marks']:+.2f} [{mlo:+.2f}, {mhi:+.2f}]    {r['vole']:.3f}")
        if dd:
            line += f"  {r['dd_tricks']:>17}  {r['dd_marks']:+8d}"
        click.echo(line)
    click.echo(f"the inferring player ({result['model']} model, {result['worlds']} worlds, "
               f"seed {result['seed']}) plays {result['best']}"
               + (f"; double dummy best: {' '.join(result['dd_best'])}" if dd else "")
               + (f"; {result['fallback_worlds']} world(s) drawn uniformly (no history fitted"
                  " the model)" if result["fallback_worlds"] else ""))


COMMANDS = [cards]
