"""The Écarté commands of ``ecarte-sim``: solve, classify, deal, play, game, simulate,
scores, hand and claims. Each parses its options into :class:`EcarteSettings`, calls the
front door (:mod:`ecarte_sim.api.ecarte`, :mod:`ecarte_sim.api.classify`) and formats the
answer."""

from __future__ import annotations

import contextlib
import sys

import click

from ecarte_sim.apps.cli.common import (CONTEXT, INDEX, JSON, PRETTY, THREADS, Counter,
                                            command_line, emit, long_run, long_run_options,
                                            not_nan, policy_options, progress, quiet_option,
                                            seed_option, set_threads, writable_dir)
from ecarte_sim.engine.ecarte.settings import play_models

# --------------------------------------------------------------------------- solve

def _solve_batch(path: str, forced_trump: bool) -> tuple[int, int]:
    """One JSON object per input line; returns the number of bad lines and of lines
    answered."""
    from ecarte_sim.api.ecarte import solution
    from ecarte_sim.engine.cards import CardError

    bad = answered = 0
    stream = click.open_file(path, "rb")
    with stream:
        for number, raw in enumerate(stream, start=1):
            try:
                line = raw.decode("utf-8").strip()
                if number == 1:
                    line = line.lstrip("\ufeff")  # a byte-order mark is not part of the deal
                if not line or line.startswith("#"):
                    continue
                if "\x00" in line:
                    raise CardError("line holds a NUL byte", "\\x00")
                fields = line.split("|")
                if len(fields) != 3:
                    raise CardError(f"expected 'ELDER | DEALER | TRUMP', got {line[:60]!r}",
                                    line[:60])
                result = {"line": number,
                          **solution(*fields, forced_trump=forced_trump).to_dict()}
            except UnicodeDecodeError:
                bad += 1
                result = {"line": number, "error": "line is not valid UTF-8"}
            except CardError as exc:
                bad += 1
                result = {"line": number, "error": str(exc)}
            emit(result, provenance=False)   # a stream of answers, one a line
            answered += 1
    return bad, answered


@click.command(context_settings=CONTEXT)
@click.argument("elder", required=False)
@click.argument("dealer", required=False)
@click.option("--trump", "-t", "trump", metavar="T",
              help="Trump suit (S, ♠, spades) or the turned-up card (e.g. TH).")
@click.option("--batch", "batch", metavar="FILE", type=click.Path(allow_dash=True, exists=True, dir_okay=False),
              help="Solve one deal per line, 'ELDER | DEALER | TRUMP' ('-' = stdin).")
@click.option("--no-forced-trump", "forced_trump", flag_value=False, default=True,
              help="Variant: a player void in the suit led need not trump.")
@JSON
def solve(elder, dealer, trump, batch, forced_trump, as_json):
    """Exact double-dummy value of a deal with the elder to lead (no exchange).

    Both players see all cards and play perfectly under Law 43 (follow suit,
    win the trick if able, trump when void). Prints the elder's tricks and the
    value of each possible first lead.

    \b
    Example:
      ecarte-sim solve "QH AH 7H KS KD" "KH JH 9H 8H 9C" --trump TH --json
      {"elder_tricks": 2, "moves": {"KS": 2, ...}}

    With --batch, every line of FILE gets one JSON object (with its line
    number) in order; a bad line gets {"line": N, "error": "..."} and the
    others are still solved. The exit code is 2 if any line was bad, and when FILE
    holds no deal at all (empty, or only blank and '#' comment lines: one Error line).
    """
    if batch is not None:
        if elder is not None or dealer is not None or trump is not None:
            raise click.UsageError("--batch takes no ELDER, DEALER or --trump")
        bad, answered = _solve_batch(batch, forced_trump)
        source = "stdin" if batch == "-" else repr(batch)
        if not answered:
            raise click.UsageError(f"no deal in {source}: it is empty or holds only blank "
                                   "and '#' comment lines (write one deal a line, "
                                   "'ELDER | DEALER | TRUMP')")
        if bad:
            click.echo(f"Error: {bad} bad line{'s' if bad != 1 else ''} in {source} "
                       "(see their \"error\" objects)", err=True)
            sys.exit(2)
        return
    if not elder or not dealer or trump is None:
        raise click.UsageError("solve needs ELDER, DEALER and --trump (or --batch FILE)")
    from ecarte_sim.api.ecarte import solution

    result = solution(elder, dealer, trump, forced_trump=forced_trump)
    if as_json:
        emit(result.to_dict())
        return
    tricks = result.elder_tricks
    verdict = ("elder vole" if tricks == 5 else "elder point" if tricks >= 3
               else "dealer vole" if tricks == 0 else "dealer point")
    click.echo(f"elder takes {tricks} trick{'s' if tricks != 1 else ''} with best play "
               f"({verdict})")
    for card, value in sorted(result.moves.items(), key=lambda kv: -kv[1]):
        click.echo(f"  lead {card:<3} -> {value}")


# --------------------------------------------------------------------------- classify

@click.command(context_settings=CONTEXT)
@click.argument("hand")
@click.option("--trump", "-t", "trump", metavar="T", required=True,
              help="Trump suit (S, ♠, spades) or the turned-up card (e.g. TH).")
@click.option("--turn-up", "turn_up", metavar="CARD", default=None,
              help="The turned-up card: of the trump suit, not in the hand (the same as "
                   "giving it as --trump; if --trump names a card, the same card). The list "
                   "reading only keeps it out of the exchange it suggests; without it the "
                   "definition counts every trump not in the hand as the turn-up.")
@click.option("--reading", type=click.Choice(["list", "definition"]), default="list",
              show_default=True,
              help="Hoyle's list of jeux de règle, or the definition it gives before the "
                   "list, computed (see above).")
@JSON
def classify(hand, trump, turn_up, reading, as_json):
    """Is HAND a jeu de règle — a hand to play without proposing? And why.

    --reading list (the default) names the rule of Hoyle's list that fits (the first in
    the list's order) with Hoyle's words and what in the hand meets it; for a hand no rule
    fits, what the list asks for its number of trumps, and the nearest rule it misses: by
    how many cards, what it lacks, and one exchange that would make it. The rules:

    \b
      1 three-trumps            three trumps
      2 two-trumps-one-suit     two trumps, the other three cards of one suit
      3 two-trumps-court-pair   two trumps, and a king or queen with another card
                                of its suit
      4 one-trump-four-king     one trump, the other four of one suit with the king
      5 one-trump-three-court   one trump, three of a suit with a king or queen,
                                and a fifth king or queen
      6 no-trump-three-queens   no trump, three queens
      7 no-trump-four-courts    no trump, four court cards

    --reading definition computes the book's definition: a hand "so good that he cannot
    fail to win three tricks unless his adversary hold two trumps". The elder plays
    without proposing and leads; the hand qualifies when one first lead wins the point (3
    tricks or more, both sides then playing perfectly with all cards seen) against every
    dealer hand with at most one trump. With the turn-up given (--turn-up, or a card as
    --trump) those are the hands of the other 26 cards; without it, every trump not in
    the hand may be the turn-up and (turn-up, dealer hand) pairs are counted. JSON:
    best_lead (most wins; a tie goes to the card written first: spades, hearts,
    diamonds, clubs, each from the king down), won (the dealer hands, or pairs, it
    wins against), of (how many there are), leads (each lead's wins), loses_to (a
    dealer hand the best lead loses to), by_list (the list's verdict).

    \b
    Examples:
      ecarte-sim classify "QH AH 7H KS KD" --trump TH --json
      {"reading": "list", "jeu_de_regle": true, "rule": "three-trumps", ...}
      ecarte-sim classify "KS QS JS 8H 8D" --trump H --reading definition
    """
    from ecarte_sim.api.classify import RULE_TRUMPS, classification, hand_and_trump

    result = classification(hand, trump, turn_up=turn_up, reading=reading)
    if as_json:
        emit(result.to_dict())
        return
    read = hand_and_trump(hand, trump)
    head = f"{read.hand}, {read.suit_name} trumps: "
    if reading == "definition":
        _tell_definition(head, result)
        return
    if result.rule is not None:
        click.echo(head + "a jeu de règle: play without proposing (Hoyle's list).")
        click.echo(f"  Rule {result.rule_number} ({result.rule}), {result.reason}.")
        click.echo(f"  Hoyle: \u201c{result.words}\u201d")
        return
    n = result.nearest
    click.echo(head + "not a jeu de règle: propose (by Hoyle's list).")
    click.echo(f"  Why: {result.reason}.")
    click.echo(f"  Nearest: rule {n['rule_number']} ({n['rule']}), {n['rule_name']}.")
    click.echo(f"  Hoyle: \u201c{n['words']}\u201d")
    by = "one card" if n["short_by"] == 1 else f"{n['short_by']} cards"
    x = n["exchange"]
    click.echo(f"  Missed by {by}: {n['missing']}; {x['out']} out and {x['in']} in would "
               f"make it ({x['gives']}).")
    own = [m for m in n["also"] if RULE_TRUMPS[m["rule_number"] - 1] == read.trumps]
    for m in own:
        click.echo(f"  Also missed by {by}: rule {m['rule_number']} ({m['rule']}), "
                   f"{m['rule_name']}: {m['missing']}.")
    other = [m for m in n["also"] if m not in own]
    if other:
        click.echo(f"  Also missed by {by}, with another number of trumps: "
                   + ", ".join(f"rule {m['rule_number']} ({m['rule']})" for m in other) + ".")


def _tell_definition(head: str, result) -> None:
    """The definition's answer (a :class:`~ecarte_sim.api.classify.Classification`) in a
    player's words."""
    if result.jeu_de_regle:
        click.echo(head + "a jeu de règle by the definition: play without proposing.")
        reason = result.reason
        click.echo(f"  {reason[0].upper()}{reason[1:]}.")
    else:
        click.echo(head + "not a jeu de règle by the definition.")
        click.echo(f"  No lead wins against them all: {result.reason}.")
    leads = ", ".join(f"{card} {won:,}" for card, won in result.leads.items())
    click.echo(f"  Wins of each lead (of {result.of:,}): {leads}.")
    click.echo(f"  Hoyle: \u201c{result.words}\u201d")
    listed = result.by_list
    verdict = (f"a jeu de règle too ({listed['rule']})" if listed["jeu_de_regle"]
               else "not a jeu de règle")
    click.echo(f"  By Hoyle's list: {verdict}.")


# --------------------------------------------------------------------------- deal

@click.command(context_settings=CONTEXT)
@seed_option(required=True)
@INDEX
@PRETTY
@JSON
def deal(seed, index, pretty, as_json):
    """Show deal INDEX of SEED: both hands, the turn-up and the stock in draw order.

    Deal i of seed s is a pure function of (s, i): the same on any machine,
    thread count or batch split.
    """
    from ecarte_sim.api.ecarte import dealt

    cards = dealt(seed, index)
    if as_json:
        emit(cards.to_dict())
        return
    d = cards.to_dict(pretty=pretty)
    click.echo(f"deal {index} of seed {seed}")
    click.echo(f"  elder   : {d['elder']}")
    click.echo(f"  dealer  : {d['dealer']}")
    click.echo(f"  turn-up : {d['turn_up']}")
    click.echo(f"  stock   : {d['stock']}")


# --------------------------------------------------------------------------- play / game

@click.command("play", context_settings=CONTEXT)
@seed_option(required=True)
@INDEX
@click.option("--elder-score", type=click.IntRange(0, 4), default=0, show_default=True,
              help="Elder's score before the deal (a mark reaching five ends the game).")
@click.option("--dealer-score", type=click.IntRange(0, 4), default=0, show_default=True,
              help="Dealer's score before the deal.")
@policy_options
@PRETTY
@JSON
def play_command(seed, index, elder_score, dealer_score, pretty, as_json, settings):
    """Play one whole deal and tell it: hands, turn-up, each proposal and answer,
    discards and draws, each trick, the marks — every decision with its reason (the rule
    of Hoyle's list, the dealer's maxim, the threshold, the discard rule or the law,
    in the treatise's words; in --json, the "reasons" of each exchange and the
    "final_decision", "law_49_reason" and "point_reason").

    The deal is a pure function of (seed, index): any policy sees the same hands,
    turn-up and stock. Card by card even with --play dd.
    """
    from ecarte_sim.api.ecarte import play

    d = play(seed, index, settings, elder_score=elder_score, dealer_score=dealer_score)
    if as_json:
        emit(d.to_dict())
        return
    for line in d.narrative(pretty):
        click.echo(line)


@click.command(context_settings=CONTEXT)
@seed_option(required=True)
@click.option("--game", "game_index", type=click.IntRange(0, 2**38 - 1), default=0,
              show_default=True,
              help="Game index G, from 0: game G uses deal indices 64G, 64G+1, ... and is "
                   "told as game G+1 (deals too are told from 1, each with its index).")
@policy_options
@click.option("--verbose", "-v", is_flag=True, help="Tell every deal in full.")
@PRETTY
@JSON
def game(seed, game_index, verbose, pretty, as_json, settings):
    """Play a game of five up between A and B, deal by deal, with the score.

    The deal alternates; the game ends the moment a mark reaches five (a king
    turned up at four wins before a card is played). Both players use the same
    policies, by role. Each deal shows how the proposals ended and why, the point and
    the marks (every decision with its reason with -v); scores are given A first. The
    Law 46 value (treble / double / single) is shown with the score that makes it.
    """
    from ecarte_sim.api.ecarte import game as play_game

    g = play_game(seed, game_index, settings)
    if as_json:
        emit(g.to_dict())
        return
    for line in g.narrative(pretty, verbose):
        click.echo(line)


# --------------------------------------------------------------------------- simulate

@click.command(context_settings=CONTEXT)
@click.option("--deals", "n_deals", type=click.IntRange(1, 2**44), required=True,
              help="Number of deals.")
@seed_option()
@click.option("--start", type=click.IntRange(0, 2**44 - 1), default=0, show_default=True,
              help="First deal index (deals start .. start+N-1).")
@click.option("--chunk", type=click.IntRange(1, 2**30), default=None,
              help="Deals per parallel task (does not change the result) [default: 4096; "
                   "256 when a player uses PIMC, to keep both threads busy].")
@THREADS
@click.option("--no-exchange", is_flag=True,
              help="Cards only: no proposal, each deal solved double dummy as dealt "
                   "(the policy options are then ignored).")
@policy_options
@long_run_options("2^21 deals; 2^13 when a player uses PIMC")
@quiet_option()
@JSON
def simulate(n_deals, seed, start, chunk, threads, no_exchange, quiet, as_json, run_dir, resume,
             task_size, scheduler, workers, settings):
    """Play N whole deals: marks, proposals and exchanges, play, the point.

    Reports the distribution of marks won by each side per deal (kings, point,
    vole and Law 49 penalties), the mean marks with 95% intervals, the elder's
    point rate with its 95% Wilson interval, and how often each law applied.
    With --no-exchange: the distribution of the elder's double-dummy tricks as
    dealt. Results are bit-identical for any --threads and --chunk.
    """
    from ecarte_sim.api.ecarte import simulation
    from ecarte_sim.api.ecarte import simulate_cards
    from ecarte_sim.analysis.reports.provenance import provenance
    from ecarte_sim.api.ecarte import MAX_DEAL_INDEX

    if start + n_deals > MAX_DEAL_INDEX:
        raise click.BadParameter("start + deals must not exceed 2^44", param_hint="--deals")
    set_threads(threads)
    run = (run_dir, resume, task_size, scheduler, workers)
    if no_exchange:
        parameters = {"deals": n_deals, "start": start, "no_exchange": True,
                      "forced_trump": settings.forced_trump}
        with long_run("simulate", parameters, seed, *run), \
                progress(not quiet and not as_json, n_deals, "solving") as bar:
            result = simulate_cards(n_deals, seed=seed, start=start,
                                    forced_trump=settings.forced_trump, chunk=chunk,
                                    progress=bar.update)
        result["provenance"] = provenance("simulate", parameters, seed, n_deals)
        return _print_cards(result, as_json)
    parameters = {"deals": n_deals, "start": start, "settings": settings.echo()}
    with long_run("simulate", parameters, seed, *run), \
            progress(not quiet and not as_json, n_deals, "playing") as bar:
        sim = simulation(n_deals, seed=seed, start=start, settings=settings, chunk=chunk,
                         progress=bar.update)
    if as_json:
        emit({**sim.to_dict(),
              "provenance": provenance("simulate", parameters, seed, n_deals)})
        return
    s = sim.settings
    click.echo(f"{n_deals} whole deals, seed {seed} (indices {start}..{start + n_deals - 1}); "
               f"elder {s['elder_policy']}, dealer {s['dealer_policy']}, play "
               f"{s['play']['elder']}/{s['play']['dealer']}")
    click.echo("  marks per deal   elder        dealer")
    for k in range(4):
        e, d = sim.elder_marks[k], sim.dealer_marks[k]
        click.echo(f"    {k}          {e / n_deals:10.4%}   {d / n_deals:10.4%}")
    click.echo(f"  mean marks: elder {sim.elder_mean:.4f} [{sim.elder_mean_ci95[0]:.4f}, "
               f"{sim.elder_mean_ci95[1]:.4f}], dealer {sim.dealer_mean:.4f} "
               f"[{sim.dealer_mean_ci95[0]:.4f}, "
               f"{sim.dealer_mean_ci95[1]:.4f}]  (95% CI, n={n_deals})")
    if sim.played:
        lo, hi = sim.point_rate_ci95
        click.echo(f"  elder wins the point in {sim.point_rate:.4f} of "
                   f"{sim.played} deals played  95% CI [{lo:.4f}, {hi:.4f}]")
    law = sim.law_49
    click.echo(f"  played without proposing {law['played_without_proposing']}, first proposal "
               f"refused {law['refused_first']}, exchanges per deal "
               f"{sim.exchanges_per_deal:.3f}, stock exhausted {sim.stock_exhausted}")
    if sim.inference is not None:
        w = sim.inference
        click.echo(f"  pimc-inference: {w['worlds']} worlds from {w['proposals']} proposals; "
                   f"{w['fallback_worlds']} ({w['fallback_share']:.2%}) fell back to uniform "
                   "(no history fitted)")


def _print_cards(result: dict, as_json: bool) -> None:
    if as_json:
        emit(result)
        return
    n_deals, seed, start = result["deals"], result["seed"], result["start"]
    lo, hi = result["ci95"]
    click.echo(f"{n_deals} deals, seed {seed} (indices {start}..{start + n_deals - 1}), "
               "double-dummy, no exchange")
    for k, c in enumerate(result["tricks"]):
        click.echo(f"  elder takes {k}: {c:>12}  ({c / n_deals:.4%})")
    click.echo(f"  elder point rate {result['point_rate']:.4f}  95% CI [{lo:.4f}, {hi:.4f}]  "
               f"n={n_deals}")


# --------------------------------------------------------------------------- scores

@click.command(context_settings=CONTEXT)
@click.option("--deals", "n_deals", type=click.IntRange(1000, 2**40), default=1_000_000,
              show_default=True, help="Deals behind the per-deal outcome distribution.")
@seed_option(help="Seed in [0, 2^64) (deals and bootstrap).")
@click.option("--bootstrap", type=click.IntRange(0, 100_000), default=200, show_default=True,
              help="Bootstrap replicates for the 95% intervals (0 = none).")
@THREADS
@policy_options
@click.option("--out", "out_dir", type=click.Path(file_okay=False, writable=True),
              default=None, help="Also write scores.csv, scores.md, scores.png and "
                                 "provenance.json here.")
@long_run_options("2^21 deals; 2^13 when a player uses PIMC")
@quiet_option()
@JSON
def scores(n_deals, seed, bootstrap, threads, out_dir, quiet, as_json, run_dir, resume,
           task_size, scheduler, workers, settings):
    """Probability of winning five up from every score, by an exact recursion over the
    per-deal outcome distribution of N whole deals (the marks replayed in the order of
    the laws, so a king turned up at four wins before the point).

    Rows: the player's own score; columns: his opponent's; one table for when the next
    deal is his, one for when it is the opponent's (then he is the elder). Each cell
    has a 95% bootstrap interval. Policies do not look at the score here.
    """
    from ecarte_sim.api.ecarte import score_values
    from ecarte_sim.analysis.reports.provenance import provenance

    set_threads(threads)
    writable_dir(out_dir)
    parameters = {"deals": n_deals, "bootstrap": bootstrap, "settings": settings.echo()}
    with long_run("scores", parameters, seed, run_dir, resume, task_size, scheduler,
                  workers) as how, \
            progress(not quiet and not as_json, n_deals, "playing") as bar:
        values = score_values(n_deals, seed=seed, settings=settings, bootstrap=bootstrap,
                              progress=bar.update)
    result = {"command": command_line("scores"), **values.to_dict(),
              "provenance": provenance("scores", parameters, seed, n_deals)}
    if out_dir:
        from ecarte_sim.analysis.reports.scores import write_report
        result["files"] = write_report(out_dir, result, how)
    if as_json:
        emit(result)
        return
    s = values.settings
    click.echo(f"P(win five up) from each score; {n_deals} deals of seed {seed}; elder "
               f"{s['elder_policy']}, dealer {s['dealer_policy']}, play {s['play']['elder']}/"
               f"{s['play']['dealer']}; 95% bootstrap intervals ({bootstrap} replicates)")
    for key, title in (("i_deal_next", "I deal next"),
                       ("opponent_deals_next", "the opponent deals next (I am elder)")):
        click.echo(f"  {title}: rows = my score, columns = opponent's")
        click.echo("        " + "".join(f"{b:>22}" for b in range(5)))
        for a in range(5):
            table, ci95 = getattr(values, key), getattr(values, key + "_ci95")
            cells = "".join(f"{table[a][b]:>8.3f} [{ci95[a][b][0]:.3f},"
                            f"{ci95[a][b][1]:.3f}]" for b in range(5))
            click.echo(f"    {a}   {cells}")
    for path in result.get("files", []):
        click.echo(f"wrote {path}")


# --------------------------------------------------------------------------- hand / claims

def precision_options(max_deals_help: str):
    """--precision, --deals, --max-deals: how long a precision-driven run goes on."""
    from ecarte_sim.api.defaults import DEFAULT_PRECISION

    def decorate(f):
        options = [
            click.option("--precision", type=click.FloatRange(1e-5, 0.5),
                         default=DEFAULT_PRECISION, show_default=True, callback=not_nan,
                         help="Simulate until every headline 95% interval has half-width <= H "
                              "(checked at 16,384 deals, then at each doubling)."),
            click.option("--deals", "n_deals", type=click.IntRange(100, 2**40), default=None,
                         help="Simulate exactly N deals instead (no precision rule; not "
                              "with --precision)."),
            click.option("--max-deals", type=click.IntRange(1000, 2**40), default=None,
                         help=max_deals_help),
        ]
        for option in reversed(options):
            f = option(f)
        return f
    return decorate


def _deals_or_precision(n_deals) -> None:
    """--deals and --precision exclude each other: --deals runs exactly N deals, so a
    --precision given with it would be ignored in silence."""
    from click.core import ParameterSource
    given = click.get_current_context().get_parameter_source("precision")
    if n_deals is not None and given is not ParameterSource.DEFAULT:
        raise click.UsageError("--deals and --precision exclude each other: --deals N runs "
                               "exactly N deals, --precision H runs until the intervals are "
                               "that narrow (give one)")


@click.command(context_settings=CONTEXT)
@click.argument("hand")
@click.option("--trump", "-t", "trump", metavar="T", required=True,
              help="Trump suit (H, ♥, hearts: the turn-up is drawn from the other cards of "
                   "the suit) or the turned-up card (e.g. KH).")
@click.option("--exact", is_flag=True,
              help="Enumerate every dealer hand (and turn-up, when only the suit is given) "
                   "for play without proposing; dd or heuristic play only.")
@seed_option(help="Seed in [0, 2^64) of the sampled deals.")
@precision_options("Most deals under the precision rule [default: 2^24 deals for dd and "
                   "heuristic play, 2^18 for pimc].")
@policy_options
@THREADS
@long_run_options("2^21 deals; 2^13 for PIMC")
@quiet_option("No progress display.")
@JSON
def hand(hand, trump, exact, seed, precision, n_deals, max_deals, threads, quiet, as_json,
         run_dir, resume, task_size, scheduler, workers, settings):
    """How good is HAND for the elder: P(point), P(vole) and marks per deal (the elder's
    marks minus the dealer's in the deal, kings and Law 49 included), playing without
    proposing and proposing first (the dealer answering by --dealer-policy, the deal going
    on, the elder re-deciding by --elder-policy after each exchange).

    The rest of the pack is dealt at random around the hand; both ways are played on the
    same deals, and the paired difference is reported. --precision (default) simulates
    until both P(point) intervals have half-width <= H (at most --max-deals: 2^24 deals
    for dd/heuristic, 2^18 for pimc); --exact enumerates every deal for play without proposing
    (the propose-first row stays sampled: proposing draws from the stock).
    The hand is echoed in the canonical order: spades, hearts, diamonds, clubs, each from
    the king down.

    \b
    Example:
      ecarte-sim hand "QH AH 7H KS KD" --trump H --exact --json
    """
    from ecarte_sim.analysis.reports.provenance import provenance
    from ecarte_sim.api.classify import hand_and_trump
    from ecarte_sim.api.ecarte import hand_value

    _deals_or_precision(n_deals)
    if exact and (n_deals is not None or max_deals is not None):
        raise click.UsageError("--exact enumerates every deal: --deals and --max-deals do "
                               "not apply")
    read = hand_and_trump(hand, trump)
    set_threads(threads)
    if exact and settings.uses_pimc:
        raise click.UsageError("--exact needs a deterministic play model (dd or heuristic): "
                               "PIMC's sampled worlds make each deal random")
    counter = Counter(not quiet and not as_json)
    parameters = {"hand": read.hand, "trump": trump, "exact": exact,
                  "precision": None if n_deals else precision, "deals": n_deals,
                  "max_deals": max_deals, "settings": settings.echo()}
    with contextlib.ExitStack() as stack:
        stack.callback(counter.close)
        stack.enter_context(long_run("hand", parameters, seed, run_dir, resume, task_size,
                                     scheduler, workers))
        value = hand_value(hand, trump, settings, exact=exact, seed=seed, precision=precision,
                           deals=n_deals, max_deals=max_deals, progress=counter)
    if as_json:
        emit({**value.to_dict(),
              "provenance": provenance("hand", parameters, seed, value.play.n)})
        return
    where = value.turn_up or f"{read.suit_letter} (turn-up drawn from the suit)"
    click.echo(f"{value.hand}, trump {where}; play {value.model}; seed {seed}")
    for r, title in ((value.play, "play without proposing"), (value.propose, "propose first")):
        how = "exact, every deal" if r.exact else "95% CI"
        click.echo(f"  {title:22s} P(point) {r.point:.4f} [{r.ci95[0]:.4f}, "
                   f"{r.ci95[1]:.4f}]  P(vole) {r.vole:.4f}  marks/deal "
                   f"{r.expected_points:+.4f}  (n={r.n:,}, {how})")
    lo, hi = value.play_minus_propose_ci95
    click.echo(f"  play minus propose: {value.play_minus_propose:+.4f} marks/deal "
               f"[{lo:+.4f}, {hi:+.4f}] (paired, the same "
               f"{value.paired_n:,} sampled deals)")


@click.command(context_settings=CONTEXT)
@click.option("--play", "models",
              type=click.Choice(play_models("claims")), multiple=True,
              help="Play model(s) to test (repeatable) "
                   f"[default: {', '.join(play_models('claims-default'))}]; "
                   "pimc-inference: PIMC whose worlds honour the opponent's proposals.")
@seed_option()
@precision_options("Most deals per experiment (class samples per class, at most 2^23) "
                   "under the precision rule, and the deals behind the claims' score table "
                   "[default: see above].")
@click.option("--worlds", type=click.IntRange(1, 4096), default=64, show_default=True,
              help="PIMC: worlds sampled per decision.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, writable=True),
              default=None, help="Write claims.md, claims.csv (+ .parquet with pyarrow) and "
                                 "the PNG plots here.")
@click.option("--strategy", "strategy_dir", type=click.Path(file_okay=False, exists=True),
              default=None,
              help="A directory written by 'ecarte-sim strategy --out': add its section, "
                   "each rule of the treatise beside the best response (agreement, the "
                   "cost of following the rule on fresh deals).")
@THREADS
@long_run_options("2^21 deals; 2^13 for PIMC")
@quiet_option("No progress display.")
@JSON
def claims(models, seed, precision, n_deals, max_deals, worlds, out_dir, strategy_dir,
           threads, quiet, as_json, run_dir, resume, task_size, scheduler, workers):
    """Test the claims of Hoyle's Games Modernized on Écarté: "two to one" for the jeux de règle (as an estimate and
    as a floor, overall and per rule), "four times out of five" for Q A 7 of trumps with
    two kings, the dealer's maxims, the three pieces of score advice, and "continue
    proposing till the pack is exhausted" — each with estimate, 95% interval, n and a
    verdict (supported / contradicted / inconclusive / no difference) by a rule fixed in
    the module ecarte_sim.analysis.ecarte.claims.decisions (python -m pydoc
    ecarte_sim.analysis.ecarte.claims.decisions) before any run, for each play model.

    Each experiment runs until its headline intervals have half-width <= --precision, at
    most --max-deals deals (default 2^25 for dd and heuristic; PIMC, ~0.2 ms a deal on 2 cores, stops
    at 2^18 regle / 2^15 habit and hand deals, and the report says the precision reached).
    The rows of one rule of the list and of each dealer's maxim are sampled within their
    class: each class sample is the first ordinary deal, among deals reserved for the
    class, that falls in it (a plain deal conditioned on the class, no weights), and each
    class runs on its own until its rows reach their target — --precision for the maxims
    (headline claims), twice --precision for the rows of one rule — checked from 1,024
    class samples, a tenth more each time, at most 2^20 per class (2^14 under PIMC;
    --max-deals caps them too, at most 2^23). --deals N runs N deals per experiment and N
    class samples per class. Where a figure fails, the report lists what would explain it.
    """
    from ecarte_sim.api.ecarte import claims_checked
    from ecarte_sim.api.ecarte import claims_models, claims_plan, claims_settings

    _deals_or_precision(n_deals)
    try:
        settings = claims_settings(seed=seed, precision=precision, deals=n_deals,
                                   worlds=worlds, max_deals=max_deals)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--deals'") from None
    set_threads(threads)
    writable_dir(out_dir)
    beside = None
    if strategy_dir is not None:
        from ecarte_sim.analysis.reports.strategy import read_rules
        try:
            beside = read_rules(strategy_dir)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="'--strategy'") from None
    models = claims_models(models)
    command = command_line("claims")
    from ecarte_sim.engine.runs import git_commit
    counter = Counter(not quiet and not as_json, claims_plan(models, settings))
    parameters = {"models": models, "precision": None if n_deals else precision,
                  "deals": n_deals, "max_deals": max_deals, "worlds": worlds}
    try:
        with long_run("claims", parameters, seed, run_dir, resume, task_size, scheduler,
                      workers) as how:
            payload = claims_checked(models, settings, command, progress=counter).to_dict()
    finally:
        counter.close()
    payload["provenance"].update(parameters=parameters, n=payload["provenance"]["deals"],
                                 git_commit=git_commit())
    if beside is not None:
        payload["beside_best_response"] = beside
    if out_dir:
        from ecarte_sim.analysis.reports.claims import write_claims_report
        payload["files"] = write_claims_report(out_dir, payload, how)
    if as_json:
        emit(payload)
        return
    click.echo(f"claims of Hoyle's Games Modernized — seed {seed}, "
               + (f"precision {precision}" if n_deals is None else f"{n_deals} deals"))
    for m in models:
        s = payload["models"][m]
        deals = s["deals"]
        said = (", ".join(f"{k} {v:,}" for k, v in deals.items()) if isinstance(deals, dict)
                else f"{deals:,}")
        click.echo(f"  {m}: {s['seconds']:.1f} s, deals ({said}), worst headline "
                   f"half-width {s['worst_half_width']:.4f}, worst per-rule "
                   f"{s['worst_rule_half_width']:.4f}"
                   + ("" if s["precision_reached"] or n_deals else " (precision NOT reached)"))
    current = None
    headline = [r for r in payload["claims"] if r["headline"]]
    for r in headline:
        if (r["id"], r["reading"], r["subset"]) != current:
            current = (r["id"], r["reading"], r["subset"])
            click.echo(f"\n{r['id']}: {r['reading']} — {r['subset']}")
        how = "exact" if r["exact"] else f"n={r['n']:,}"
        click.echo(f"  {r['model']:9s} {r['verdict']:13s} {r['estimate']:+.4f} "
                   f"[{r['ci95'][0]:+.4f}, {r['ci95'][1]:+.4f}] {how}")
    rest = len(payload["claims"]) - len(headline)
    click.echo(f"\n{len(headline)} headline figures above; {rest} more readings and subsets "
               "(each rule, each score) in the report (--out DIR) or with --json")
    for path in payload.get("files", []):
        click.echo(f"wrote {path}")


COMMANDS = (solve, classify, deal, play_command, game, simulate, scores, hand, claims)
