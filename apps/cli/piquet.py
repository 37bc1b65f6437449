"""``ecarte-sim piquet deal|simulate|partie|report``: Piquet deals, simulations and
parties (the Laws of Piquet); the group is :mod:`.piquet_group`.

Each command parses its options into a
:class:`~ecarte_sim.engine.piquet.settings.PiquetSettings`, calls one function of
:mod:`ecarte_sim.api.piquet` and prints what it returns (text, or one JSON
object with ``--json``, the provenance added). The choices and defaults of the options
come from :mod:`ecarte_sim.engine.piquet.settings`.
"""

from __future__ import annotations

import sys

import click

from ecarte_sim.apps.cli.common import (CONTEXT, JSON, PRETTY, THREADS, command_line, emit, long_run, long_run_options,
                                            progress, quiet_option, seed_option, set_threads,
                                            writable_dir)
from ecarte_sim.api.piquet import DEFAULT_SAMPLES, MAX_SAMPLES, piquet_discarding
from ecarte_sim.engine.piquet.settings import (DEFAULT_WORLDS, MAX_ELDER_TAKE, MAX_WORLDS,
                                               MAX_YOUNGER_TAKE, REPORT_DEALS, Discarding,
                                               LeadScoring, Partie, PiqueTiming, Player,
                                               PiquetSettings, Reading, SinkPolicy, choices,
                                               name_of)

PLAYER_CHOICE = click.Choice(choices(Player))
DEFAULTS = PiquetSettings()


def variant_options(f):
    """The rule switches of ``engine/piquet/rules.md``."""
    f = click.option("--pique-timing", type=click.Choice(choices(PiqueTiming)),
                     default=name_of(DEFAULTS.pique_timing), show_default=True,
                     help="When the younger's declarations are reckoned for the pique: after "
                          "the elder's first lead (Laws 46, 69), or before all play (Law 67 "
                          "read strictly).")(f)
    f = click.option("--lead-scoring", type=click.Choice(choices(LeadScoring)),
                     default=name_of(DEFAULTS.lead_scoring), show_default=True,
                     help="Law 65 (every card led or winning second scores 1) or the older "
                          "count (only cards of ten and above).")(f)
    return f


def _per_seat(kind, what: str, seats: str):
    """A click callback: ``NAME`` for both seats or ``NAME,NAME`` (``seats``), as names."""
    def parse(ctx, param, value):
        parts = value.split(",")
        if len(parts) not in (1, 2):
            raise click.BadParameter(f"{value!r}: give one {what} for both seats, or two "
                                     f"separated by a comma ({seats})")
        if any(p not in choices(kind) for p in parts):
            bad = next((p for p in parts if p not in choices(kind)), value)
            raise click.BadParameter(
                f"unknown {what} {bad!r} in {value!r}: give one of {', '.join(choices(kind))} "
                f"for both seats, or two separated by a comma ({seats})")
        return (parts[0], parts[-1])
    return parse


def declaring_options(seats: str = "elder,younger"):
    """--sink and --read-declarations: what each seat leaves uncalled (Law 47) and what a
    pimc player reads from the calls."""
    def decorate(f):
        f = click.option("--read-declarations", "reading", default=name_of(Reading.FACE),
                         show_default=True, metavar="READING[,READING]",
                         callback=_per_seat(Reading, "reading", seats),
                         help="What a pimc player reads from the declarations: face (the "
                              "answers as if nothing were sunk), none (only the cards "
                              "shown), full (the answers as the opponent's sinking policy "
                              f"gives them); one for both or {seats.upper()}.")(f)
        f = click.option("--sink", default=name_of(SinkPolicy.NEVER), show_default=True,
                         metavar="POLICY[,POLICY]",
                         callback=_per_seat(SinkPolicy, "sink policy", seats),
                         help="What a player leaves uncalled (Law 47): never, or guard (a "
                              "point of four or less, or a lone tierce or quart, in the suit "
                              "of a king without its ace); one for both or "
                              f"{seats.upper()}.")(f)
        return f
    return decorate


def _declaring(opts: dict, elder: int = 0) -> dict:
    """The PiquetSettings fields of --sink and --read-declarations (popped from ``opts``);
    ``elder``: which of the two values is the elder's (1 for partie's A,B). At their
    defaults they leave the command's recorded parameters (its provenance) as they were
    before sinking existed."""
    sink, reading = opts.pop("sink"), opts.pop("reading")
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        for key, default in (("sink", name_of(SinkPolicy.NEVER)),
                             ("reading", name_of(Reading.FACE))):
            if ctx.params.get(key) == (default, default):
                ctx.params.pop(key)
    return {"elder_sink": sink[elder], "younger_sink": sink[1 - elder],
            "elder_reading": reading[elder], "younger_reading": reading[1 - elder]}


def exchange_options(f):
    f = click.option("--younger-take", type=click.IntRange(0, MAX_YOUNGER_TAKE),
                     default=DEFAULTS.younger_take, show_default=True,
                     help="Cards the younger takes in (0 = all he can, Law 34).")(f)
    f = click.option("--elder-take", type=click.IntRange(1, MAX_ELDER_TAKE),
                     default=DEFAULTS.elder_take, show_default=True,
                     help=f"Cards the elder takes in (Law 21: 1 to {MAX_ELDER_TAKE}).")(f)
    f = click.option("--worlds", type=click.IntRange(1, MAX_WORLDS), default=DEFAULT_WORLDS,
                     show_default=True, help="Worlds a PIMC player samples per decision.")(f)
    return f


def _task_sizes(unit: str, parties: bool = False) -> str:
    """The default task sizes, for the help of --task-size."""
    log2 = {p: PiquetSettings(p, p).task_size(parties).bit_length() - 1 for p in Player}
    return (f"2^{log2[Player.RANDOM]} {unit}; 2^{log2[Player.DD]} with a dd player, "
            f"2^{log2[Player.PIMC]} with a pimc player")


def run_options(unit: str):
    """--chunk, --threads, --quiet, --json: how a batch command runs (not what it computes)."""
    def decorate(f):
        f = JSON(f)
        f = quiet_option()(f)
        f = THREADS(f)
        f = click.option("--chunk", type=click.IntRange(1, 2**30), default=None,
                         help=f"{unit} per parallel task (does not change the result).")(f)
        return f
    return decorate


# --------------------------------------------------------------------------- deal

@click.command("deal", context_settings=CONTEXT)
@click.option("--elder", "elder_text", metavar="H12", help="The elder's 12 cards as dealt.")
@click.option("--younger", "younger_text", metavar="H12", help="The younger's 12 cards as dealt.")
@click.option("--talon", "talon_text", metavar="C8",
              help="The 8 stock cards in order, top first.")
@click.option("--elder-discard", metavar="CARDS", default=None,
              help="The elder's discard (1-5 of his cards); default: his player chooses.")
@click.option("--younger-discard", metavar="CARDS", default=None,
              help="The younger's discard; default: his player chooses.")
@click.option("--play", "player", type=PLAYER_CHOICE, default=name_of(Player.HEURISTIC),
              show_default=True,
              help="Who chooses discards (unless given) and cards, for both seats.")
@seed_option(help="Seed of the players' random choices (and of the deal without cards).")
@click.option("--index", type=click.IntRange(0, 2**44 - 1), default=0, show_default=True,
              help="Deal index of SEED to play when no cards are given.")
@variant_options
@exchange_options
@declaring_options()
@PRETTY
@JSON
def deal_command(elder_text, younger_text, talon_text, elder_discard, younger_discard, player,
                 seed, index, pretty, as_json, **opts):
    """Play one deal and tell it as a Piquet player would, each score with its law:
    carte blanche, the discards and the cards taken in, each call answered good, not
    good or equal, repique and pique, the play trick by trick, the last trick, the
    cards or the capot, and each player's total.

    Give all of --elder, --younger and --talon, or none (then deal INDEX of SEED).

    \b
    JSON: {"elder": total, "younger": total, "events": [...], "scores": {...}, ...}
    """
    from ecarte_sim.api.piquet import piquet_cards, piquet_played
    from ecarte_sim.engine.cards import PIQUET, parse_hand

    given = [t is not None for t in (elder_text, younger_text, talon_text)]
    if any(given) and not all(given):
        raise click.UsageError("give all of --elder, --younger and --talon, or none of them")
    the_deal = piquet_cards(elder_text, younger_text, talon_text) if all(given) else None
    e_disc = int(parse_hand(elder_discard, None, PIQUET, "elder discard")) \
        if elder_discard is not None else 0
    y_disc = int(parse_hand(younger_discard, None, PIQUET, "younger discard")) \
        if younger_discard is not None else 0
    if elder_discard is not None and not e_disc:
        raise click.BadParameter("the elder must discard at least one card (Law 21)",
                                 param_hint="--elder-discard")
    if younger_discard is not None and not y_disc:
        raise click.BadParameter("the younger must discard at least one card (Law 22)",
                                 param_hint="--younger-discard")
    # a discard given fixes how many cards its player takes: an explicit take must agree
    ctx = click.get_current_context()
    for disc, text, key, who in ((e_disc, elder_discard, "elder_take", "elder"),
                                 (y_disc, younger_discard, "younger_take", "younger")):
        if text is None:
            continue
        size = bin(disc).count("1")
        source = ctx.get_parameter_source(key)
        if source is click.core.ParameterSource.COMMANDLINE and opts[key] not in (0, size):
            raise click.BadParameter(
                f"--{who}-discard has {size} card{'s' if size != 1 else ''} but --{who}-take "
                f"is {opts[key]}", param_hint=f"--{who}-take")
    result = piquet_played(the_deal, seed=seed, index=index,
                           settings=PiquetSettings(player, player, **_declaring(opts), **opts),
                           elder_discard=e_disc, younger_discard=y_disc)
    if as_json:
        emit(result.to_dict())
        return
    from ecarte_sim.api.piquet import piquet_told

    for line in piquet_told(result, pretty):
        click.echo(line)


# --------------------------------------------------------------------------- simulate

@click.command("simulate", context_settings=CONTEXT)
@click.option("--deals", "n_deals", type=click.IntRange(1, 2**44), required=True,
              help="Number of deals.")
@seed_option(help="Seed in [0, 2^64).")
@click.option("--start", type=click.IntRange(0, 2**44 - 1), default=0, show_default=True,
              help="First deal index (deals start .. start+N-1).")
@click.option("--elder-player", type=PLAYER_CHOICE, default=name_of(DEFAULTS.elder_player),
              show_default=True,
              help="Who plays the elder hand: random (the peer's baseline), heuristic, dd "
                   "(double dummy: sees both hands) or pimc (sampled worlds).")
@click.option("--younger-player", type=PLAYER_CHOICE,
              default=name_of(DEFAULTS.younger_player), show_default=True,
              help="Who plays the younger hand (the same choices).")
@variant_options
@exchange_options
@declaring_options()
@click.option("--discard", default=name_of(Discarding.OWN), show_default=True,
              metavar="HOW[,HOW]", callback=_per_seat(Discarding, "discarding", "elder,younger"),
              help="How each seat discards: own (as its player does: at random, or by the "
                   "keep value) or search (each candidate discard of the full take played "
                   "out on --search-samples sampled deals, the best kept); one for both or "
                   "ELDER,YOUNGER.")
@click.option("--search-samples", type=click.IntRange(1, MAX_SAMPLES), default=DEFAULT_SAMPLES,
              show_default=True, help="Sampled deals each candidate of a search discard is "
                                      "evaluated on.")
@run_options("Deals")
@long_run_options(_task_sizes("deals"))
def simulate_command(n_deals, seed, start, elder_player, younger_player, chunk, threads, quiet,
                     as_json, run_dir, resume, task_size, scheduler, workers, discard,
                     search_samples, **opts):
    """Play N deals: who wins each deal (the higher total; equal totals tie), mean
    totals, carte blanche, pique, repique and capot by seat, with 95% intervals.

    \b
    JSON: {"deals", "elder_wins", "younger_wins", "ties", "mean_elder", "mean_younger",
           "carte_blanche_hands", "pique", "repique", "capot", "intervals", "by_seat", ...}
    Results are bit-identical for any --threads and --chunk.
    """
    from ecarte_sim.api.piquet import piquet_simulation
    from ecarte_sim.analysis.reports.provenance import provenance
    from ecarte_sim.api.piquet import MAX_DEAL_INDEX

    if start + n_deals > MAX_DEAL_INDEX:
        raise click.BadParameter("start + deals must not exceed 2^44", param_hint="--deals")
    set_threads(threads)
    settings = PiquetSettings(elder_player, younger_player, **_declaring(opts), **opts)
    parameters = {"deals": n_deals, "start": start, "players": [elder_player, younger_player],
                  **opts, **settings.declaring_echo()}
    if piquet_discarding(settings, discard) != (Discarding.OWN, Discarding.OWN):
        # checked before any work (a search refuses other takes); recorded only when asked
        parameters["discard"] = list(discard)
        parameters["search_samples"] = search_samples
    with long_run("piquet simulate", parameters, seed, run_dir, resume, task_size, scheduler,
                  workers), progress(not quiet and not as_json, n_deals, "playing") as bar:
        simulated = piquet_simulation(n_deals, seed=seed, start=start, settings=settings,
                                      chunk=chunk, progress=bar.update, discard=discard,
                                      samples=search_samples)
    result = simulated.to_dict()
    result["provenance"] = provenance("piquet simulate", parameters, seed, n_deals)
    if as_json:
        emit(result)
        return
    iv = result["intervals"]
    click.echo(f"{n_deals} deals, seed {seed}: elder {elder_player} v younger {younger_player}")
    for key, label in (("elder_win_rate", "elder wins"), ("younger_win_rate", "younger wins"),
                       ("tie_rate", "ties")):
        r = iv[key]
        click.echo(f"  {label:<13} {r['rate']:.4f}  95% CI [{r['ci95'][0]:.4f}, {r['ci95'][1]:.4f}]")
    for key, label in (("mean_elder", "mean elder"), ("mean_younger", "mean younger"),
                       ("mean_difference", "elder - younger")):
        m = iv[key]
        click.echo(f"  {label:<16} {m['mean']:.3f}  95% CI [{m['ci95'][0]:.3f}, {m['ci95'][1]:.3f}]")
    for seat in ("elder", "younger"):
        s = result["by_seat"][seat]
        click.echo(f"  {seat:<8} carte blanche {s['carte_blanche']['count']}, pique "
                   f"{s['pique']['count']}, repique {s['repique']['count']}, capot "
                   f"{s['capot']['count']}, highest deal {s['max_total']}")


# --------------------------------------------------------------------------- partie

@click.command("partie", context_settings=CONTEXT)
@click.option("--parties", "n_parties", type=click.IntRange(1, 2**41), required=True,
              help="Number of parties (partie p uses deal indices 8p .. 8p+7).")
@seed_option(help="Seed in [0, 2^64).")
@click.option("--start", type=click.IntRange(0, 2**41 - 1), default=0, show_default=True,
              help="First partie index.")
@click.option("--player-a", type=PLAYER_CHOICE, default=name_of(DEFAULTS.younger_player),
              show_default=True,
              help="The player who deals first (won the cut and chose to deal).")
@click.option("--player-b", type=PLAYER_CHOICE, default=name_of(DEFAULTS.elder_player),
              show_default=True,
              help="The other player (elder hand in the first deal).")
@click.option("--partie", "partie_kind", type=click.Choice(choices(Partie)),
              default=name_of(Partie.SIX), show_default=True,
              help="Six deals (Law 71) or four, the first and last counting double (its note).")
@variant_options
@exchange_options
@declaring_options("a,b")
@run_options("Parties")
@long_run_options(_task_sizes("parties", parties=True), unit="Parties")
def partie_command(n_parties, seed, start, player_a, player_b, partie_kind, chunk, threads,
                   quiet, as_json, run_dir, resume, task_size, scheduler, workers, **opts):
    """Play N parties between A (deals first) and B: who wins, how often the loser is
    rubiconed (under 100, Law 73), the mean settlement (Laws 72-73), tie-break deals.

    With the same player on both sides the first dealer's win rate answers the
    classic question: should the winner of the cut choose to deal first?
    """
    from ecarte_sim.api.piquet import piquet_parties
    from ecarte_sim.analysis.reports.provenance import provenance

    if start + n_parties > 2**41:
        raise click.BadParameter("start + parties must not exceed 2^41", param_hint="--parties")
    set_threads(threads)
    # the first deal: A deals, so B is the elder
    settings = PiquetSettings(player_b, player_a, **_declaring(opts, elder=1), **opts)
    parameters = {"parties": n_parties, "start": start, "players": [player_a, player_b],
                  "partie": partie_kind, **opts, **settings.declaring_echo()}
    with long_run("piquet partie", parameters, seed, run_dir, resume, task_size, scheduler,
                  workers), progress(not quiet and not as_json, n_parties, "parties") as bar:
        played = piquet_parties(n_parties, seed=seed, start=start, settings=settings,
                                partie=partie_kind, chunk=chunk, progress=bar.update)
    result = played.to_dict()
    result["provenance"] = provenance("piquet partie", parameters, seed, n_parties)
    if as_json:
        emit(result)
        return
    iv = result["intervals"]
    w = iv["first_dealer_win_rate"]
    click.echo(f"{n_parties} parties ({partie_kind} deals), seed {seed}: A {player_a} deals "
               f"first, B {player_b}")
    click.echo(f"  A wins {w['rate']:.4f}  95% CI [{w['ci95'][0]:.4f}, {w['ci95'][1]:.4f}]; "
               f"drawn {result['drawn']}; tie-break deals in {result['tie_breaks']}")
    r = iv["rubicon_rate"]
    click.echo(f"  rubicon {r['rate']:.4f}  95% CI [{r['ci95'][0]:.4f}, {r['ci95'][1]:.4f}]")
    m = iv["first_dealer_settlement"]
    click.echo(f"  A's mean settlement {m['mean']:.2f} points  95% CI [{m['ci95'][0]:.2f}, "
               f"{m['ci95'][1]:.2f}]")


# --------------------------------------------------------------------------- report

@click.command("report", context_settings=CONTEXT)
@seed_option(help="Seed in [0, 2^64).")
@click.option("--deals", "n_deals", type=click.IntRange(1000, 2**40),
              default=REPORT_DEALS["random"], show_default=True,
              help="Deals per pairing of the random and heuristic players.")
@click.option("--dd-deals", type=click.IntRange(0, 2**30), default=REPORT_DEALS["dd"],
              show_default=True,
              help="Deals per pairing involving the double-dummy player (0: leave it out).")
@click.option("--pimc-deals", type=click.IntRange(0, 2**30), default=REPORT_DEALS["pimc"],
              show_default=True,
              help=f"Deals per pairing involving the PIMC player, W = {DEFAULT_WORLDS} worlds "
                   "(0: leave it out).")
@click.option("--paired-deals", type=click.IntRange(1000, 2**40),
              default=REPORT_DEALS["paired"], show_default=True,
              help="Deals per paired comparison (exchange, variants).")
@click.option("--parties", "n_parties", type=click.IntRange(100, 2**36),
              default=REPORT_DEALS["partie"], show_default=True,
              help="Parties per partie study.")
@click.option("--search-deals", type=click.IntRange(0, 2**30), default=REPORT_DEALS["search"],
              show_default=True,
              help="Deals of the discard search against the keep value, its arms played "
                   "by the heuristic and by the PIMC player (0: leave it out).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write piquet.md, pairings.csv, exchange.csv, sinking.csv, search.csv, "
                   "partie.csv, totals.png, exchange.png and provenance.json here. Without --out no file is "
                   "written: the report is printed (Markdown), its provenance in --json.")
@THREADS
@long_run_options(_task_sizes("deals"))
@quiet_option("No progress messages.")
@JSON
def report_command(seed, n_deals, dd_deals, pimc_deals, paired_deals, n_parties,
                   search_deals, out_dir, threads, quiet, as_json, run_dir, resume, task_size,
                   scheduler, workers):
    """Every Piquet analysis, measured: the elder's advantage for each pairing of
    players, bonuses by seat, deal totals, the exchange and the rule variants (paired
    on the same deals), sinking and reading the calls (paired: the heuristic's at
    --paired-deals, the PIMC player's at --pimc-deals), discards chosen by search, the
    partie and the first deal, and the peer's figures beside ours. Each figure with its
    n and 95% interval.

    Printed as Markdown, or as one JSON object with --json (the provenance included);
    with --out the files are written there, provenance.json among them.
    """
    from ecarte_sim.api.piquet import piquet_measured
    from ecarte_sim.analysis.reports.piquet import headline_lines, markdown, write_report
    from ecarte_sim.analysis.reports.provenance import FILE, caption, provenance

    set_threads(threads)
    writable_dir(out_dir)
    deals = {"random": n_deals, "heuristic": n_deals, "dd": dd_deals, "pimc": pimc_deals,
             "paired": paired_deals, "partie": n_parties, "search": search_deals}

    def say(msg):
        if not quiet and not as_json:
            click.echo(msg, err=True)

    with long_run("piquet report", {"deals": deals}, seed, run_dir, resume, task_size,
                  scheduler, workers) as how:
        measured = piquet_measured(deals, seed=seed, say=say)
    prov = provenance("piquet report", {"deals": deals}, seed, deals)
    result = {**measured.payload, "provenance": prov}
    paths = []
    if out_dir is not None:
        paths = write_report(out_dir, result, prov, how, command_line("piquet"))
    if as_json:
        emit({**measured.to_dict(), "provenance": prov})
        return
    if out_dir is not None:
        # as claims does: the headline figures, then the files written
        click.echo("\n".join(headline_lines(result, seed)))
        for path in paths:
            click.echo(f"wrote {path}")
    if out_dir is None:
        # no provenance.json without --out: the caption must not send the reader to one
        made_by = caption(prov).replace(f"; full provenance in {FILE}",
                                        f"; provenance with --json, or in {FILE} with --out")
        sys.stdout.write(markdown(result, made_by))


COMMANDS = [deal_command, simulate_command, partie_command, report_command]
