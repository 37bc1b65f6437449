"""``ecarte-sim cards``: which card to lead or play, from one's own hand and what has
happened so far — each legal card's value as the inferring player sees it (``pimc-king``
by default), and the double-dummy value beside it when the adversary's hand is given;
with ``--continuation``, each card's value with the player's own play after it
(:func:`ecarte_sim.api.strategy.cards`); and ``ecarte-sim card-regret``, the regret of a
card player's cards position by position (:func:`ecarte_sim.api.play.card_regret`)."""

from __future__ import annotations

import click

from ecarte_sim.apps.cli.common import CONTEXT, JSON, emit, quiet_option, seed_option
from ecarte_sim.engine.ecarte.settings import card_players


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
@click.option("--king", type=click.Choice(["elder", "dealer", "none"]), default=None,
              help="Who announced the king of trumps (Laws 23-24): the adversary's "
                   "announcement puts it in his hand; 'none' once he has played a card "
                   "means he has not it (unless he conceals it: --concealing). Not given: "
                   "his silence is not read.")
@click.option("--concealing", type=click.IntRange(0, 1000), default=0, show_default=True,
              metavar="PERMILLE",
              help="With --king none: the thousandths of his hands holding the king in "
                   "which the adversary would not announce it (0: he always announces, as "
                   "the engine's players do).")
@click.option("--player", type=click.Choice(card_players("cards")),
              default=card_players("cards-default")[0], show_default=True,
              help="Whose worlds and card: pimc-king (also reads the king's announcement; "
                   "every hand the adversary may hold when they are few) or pimc-inference.")
@click.option("--model", type=click.Choice(["strategy", "treatise"]), default="strategy",
              show_default=True,
              help="How both players are assumed to decide and discard: the shipped "
                   "strategy, or the treatise (Hoyle's list, the maxims).")
@click.option("--worlds", type=click.IntRange(1, 4096), default=None,
              help="Worlds (adversary's hands drawn from the posterior) compared [default: "
                   "1024 for pimc-king, 64 for pimc-inference].")
@click.option("--continuation", type=click.IntRange(0, 1 << 16), default=0, metavar="N",
              help="Also each card's value with the player's own play after it (both sides, "
                   "keyed by --seed) over N of the adversary's hands weighed as the player's "
                   "inference weighs them, every one when they number at most N; with a 95% "
                   "interval against the player's card. Slower (seconds).")
@seed_option(help="Seed of the worlds, in [0, 2^64).")
@click.option("--deal", "deal", type=click.IntRange(0, 2**44 - 1), default=0,
              show_default=True, help="Deal index of the worlds' random words.")
@JSON
def cards(hand, turn_up, role, said, discards, played, score, opponent, king, concealing,
          player, model, worlds, continuation, seed, deal, as_json):
    """Which card to lead or play with HAND (the cards you hold now): each legal card
    (Law 43) valued by the inferring player (pimc-king: the adversary's hand drawn from
    what was said, discarded and announced, every hand he may hold when they are few;
    double dummy after the card, which lets the player see every card from then on;
    P(point) with its Wilson 95% interval over the worlds, marks with a normal 95%
    interval, none when the worlds are every hand; Laws 48-49 count the marks), with
    --opponent double dummy, with --continuation each card's value with the player's own
    play after it.
    """
    from ecarte_sim.api.strategy import cards as card_question
    result = card_question(hand, turn_up, role, said=said, discards=discards, played=played,
                           score=score, seed=seed, deal=deal, worlds=worlds, model=model,
                           opponent=opponent, chooser=player, king=king, policy=concealing,
                           continuation=continuation).to_dict()
    if as_json:
        emit(result)
        return
    what = "lead" if result["to_play"] == "lead" else f"play to {result['led']}"
    click.echo(f"{role} to {what}: {result['hand']}; trumps {result['trump']} (turn-up "
               f"{result['turn_up']}); said {','.join(result['said'])}; score "
               f"{result['score']}; tricks elder {result['tricks']['elder']}, dealer "
               f"{result['tricks']['dealer']}")
    dd = result["opponent"] is not None
    cont = result.get("continuation")
    head = f"{'card':<5} {'P(point) [95%]':<22} {'marks [95%]':<23} {'vole':>5}"
    click.echo(head + ("  dd tricks (elder)  dd marks" if dd else "")
               + ("  marks, then his own play [95% against his card]" if cont else ""))
    for r in result["cards"]:
        lo, hi = r["point_ci95"]
        mlo, mhi = r["marks_ci95"]
        line = (f"{r['card']:<5} {r['point']:.3f} [{lo:.3f}, {hi:.3f}]   "
                f"{r['marks']:+.2f} [{mlo:+.2f}, {mhi:+.2f}]    {r['vole']:.3f}")
        if dd:
            line += f"  {r['dd_tricks']:>17}  {r['dd_marks']:+8d}"
        if cont:
            c = r["continuation"]
            line += f"  {c['marks']:+.2f}"
            if c["diff_ci95"] is not None:
                dlo, dhi = c["diff_ci95"]
                line += f" ({c['diff']:+.3f} [{dlo:+.3f}, {dhi:+.3f}])"
        click.echo(line)
    worlds = (f"every one of the {result['weighted_worlds']} hands he may hold"
              if result["every_hand"] else f"{result['worlds']} worlds")
    click.echo(f"the inferring player ({result['chooser']}, {result['model']} model, {worlds}, "
               f"seed {result['seed']}) plays {result['best']}"
               + (f"; double dummy best: {' '.join(result['dd_best'])}" if dd else "")
               + (f"; {result['fallback_worlds']} world(s) drawn uniformly (no history fitted"
                  " the model)" if result["fallback_worlds"] else ""))
    if cont:
        click.echo(f"with his own play after the card (both sides {cont['player']}, keyed by "
                   f"seed {cont['seed']}), over {cont['worlds_text']}: best "
                   f"{' '.join(cont['best'])}; the double-dummy values above are "
                   f"{cont['dd_minus_measured']:+.2f} marks above these on average")


@click.command("card-regret", context_settings=CONTEXT)
@click.option("--players", default=",".join(card_players("regret-default")), show_default=True,
              metavar="LIST", help="The card players measured, comma-separated: pimc-king "
                                   "(W = 1024) and pimc-inference (W = 64), or either as "
                                   "PLAYER:W.")
@click.option("--per-cell", type=click.IntRange(1, 1000), default=6, show_default=True,
              help="Positions per cell: kind of history (played, refused, one exchange) x "
                   "trick 1-4 x the mover's seat.")
@click.option("--worlds", "cap", type=click.IntRange(2, 1 << 16), default=1024,
              show_default=True, help="The adversary's hands per position: every one when "
                                      "they are no more, else a uniform sample.")
@click.option("--key-seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Seed of the keyed play after the card (both sides).")
@click.option("--model", type=click.Choice(["strategy", "treatise"]), default="strategy",
              show_default=True, help="How both players decide and discard.")
@click.option("--run-dir", type=click.Path(file_okay=False), default=None,
              help="Keep each position's result here (positions.jsonl) as it is made; a "
                   "later run with the same settings and --run-dir continues it.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write card-regret.md, .csv and provenance.json here.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=1, show_default=True,
              help="Seed of the held-out deals the positions come from, in [0, 2^64) (the "
                   "exploitability sample's deals are seed 0's).")
@quiet_option(help="No progress lines.")
@JSON
def card_regret(players, per_cell, cap, key_seed, model, run_dir, out_dir, seed, quiet,
                as_json):
    """Each card's value with the player's own play after it, position by position: on
    random positions of held-out deals (every trick with a choice, both seats, each kind
    of history), each legal card valued with the player's play after it on both sides,
    over the adversary's hands his inference weighs (every one when few, else a sample);
    the regret of his card (mean, the share where another card is better beyond its 95%
    interval, the split-half regret), and how far the values `cards` and the coach print
    (double dummy after the card) are from these.
    """
    import json
    import os
    import time

    from ecarte_sim.apps.cli.common import command_line, writable_dir
    from ecarte_sim.analysis.reports.provenance import provenance
    from ecarte_sim.api.play import RegretSettings
    from ecarte_sim.api.play import card_regret as measure

    writable_dir(out_dir)
    labels = tuple(x.strip() for x in players.split(",") if x.strip())
    try:
        settings = RegretSettings(players=labels, per_cell=per_cell, seed=seed,
                                  key_seed=key_seed, cap=cap, decisions=model)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    store = None
    if run_dir:
        os.makedirs(run_dir, exist_ok=True)
        ident = os.path.join(run_dir, "settings.json")
        mine = json.dumps({**settings.__dict__, "players": None}, sort_keys=True)
        if os.path.exists(ident) and open(ident).read() != mine:
            raise click.UsageError(f"--run-dir {run_dir} holds another run's positions "
                                   "(other settings)")
        with open(ident, "w") as f:
            f.write(mine)
        store = os.path.join(run_dir, "positions.jsonl")
    start = time.monotonic()

    def say(label, done, total):
        if not quiet and not as_json and (done % 12 == 0 or done == total):
            click.echo(f"[{time.monotonic() - start:6.0f} s] {label}: {done}/{total} "
                       "positions", err=True)
    result = measure(settings, store=store, progress=say)
    report = result.payload
    report["command"] = command_line("card-regret")
    report["provenance"] = provenance("card-regret", result.settings, seed,
                                      {label: len(m.rows) for label, m in
                                       result.players.items()})
    written = []
    if out_dir:
        from ecarte_sim.analysis.reports.card_regret import write_report
        written = write_report(out_dir, report)
    if as_json:
        emit({"command": report["command"], **result.to_dict(),
              "provenance": report["provenance"], "files": written})
        return
    for label, m in result.players.items():
        a = m.summary["all"]
        r, b, sp = a["regret"], a["beyond"], a["split_regret"]
        click.echo(f"{label}: regret {r['mean']:+.4f} [{r['ci95'][0]:+.4f}, {r['ci95'][1]:+.4f}]"
                   f" marks a position (n={r['n']}); another card better beyond its interval "
                   f"in {b['mean']:.1%}; split-half {sp['mean']:+.4f}; printed minus measured "
                   f"{a['printed_minus_measured']['mean']:+.3f}")
    for path in written:
        click.echo(f"wrote {path}")


COMMANDS = [cards, card_regret]
