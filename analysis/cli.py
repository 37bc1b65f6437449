"""``ecarte-sim``: the command line of ecarte-sim.

Bad input (a card, a hand, a seed, a count) ends with a one-line error and
exit code 2, never a traceback. ``--json`` prints exactly one JSON object.
"""

from __future__ import annotations

import contextlib
import json
import sys

import click

from engine.cards import CardError
from engine.cluster import ClusterError
from engine.runs import git_commit

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
#: Characters that end a line (str.splitlines), shown escaped in an error message.
_LINE_BREAKS = {ord(c): repr(c)[1:-1] for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}


class FileError(click.ClickException):
    """A file or directory that cannot be read or written (one line, exit code 2)."""
    exit_code = 2


class EcarteGroup(click.Group):
    """Turns the engine's input errors into click usage errors, and failed reads or
    writes of files into one-line errors (exit code 2)."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (CardError, ValueError, ClusterError) as exc:
            if isinstance(exc, click.ClickException):
                raise
            raise click.UsageError(str(exc)) from None
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            where = f" {exc.filename!r}" if exc.filename else ""
            raise FileError(f"cannot use{where}: {exc.strerror or exc}") from None


def run(argv: list[str] | None = None) -> None:
    """Console entry point: every error is one line on stderr (``Error: ...``).

    Usage errors and bad input exit with code 2, as click does, but without the
    usage banner, so that a script sees exactly one line.
    """
    try:
        code = main.main(args=argv, prog_name="ecarte-sim", standalone_mode=False)
        if isinstance(code, int) and code != 0:
            sys.exit(code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        hint = ""
        if isinstance(exc, click.UsageError) and exc.ctx is not None:
            hint = f" (see '{exc.ctx.command_path} --help')"
        message = f"{exc.format_message()}{hint}".translate(_LINE_BREAKS)
        click.echo(f"Error: {message}", err=True)
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(130)


def _finite(obj):
    """JSON has no NaN or infinity: undefined figures (an empty class, n < 2) become null."""
    if isinstance(obj, float):
        return obj if obj == obj and abs(obj) != float("inf") else None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


def _emit(obj: dict, provenance: bool = True) -> None:
    """Print one JSON object; unless it has its own (the long commands'), add the
    provenance of a one-shot command: its name, its parsed parameters, the version."""
    if provenance and "provenance" not in obj:
        ctx = click.get_current_context(silent=True)
        if ctx is not None:
            from analysis.provenance import provenance as made_by
            params = json.loads(json.dumps(ctx.params, default=str))
            name = ctx.command_path.split(" ", 1)[1] if " " in ctx.command_path else ""
            obj = {**obj, "provenance": made_by(name, params, params.get("seed"),
                                                params.get("n_deals"))}
    click.echo(json.dumps(_finite(obj), ensure_ascii=False, allow_nan=False))


def _command_line(name: str) -> str:
    """The command as typed, for a report's provenance (just ``ecarte-sim NAME`` when the
    command was not run from the shell, e.g. from a test)."""
    if sys.argv[1:2] == [name]:
        return "ecarte-sim " + " ".join(sys.argv[1:])
    return f"ecarte-sim {name}"


def _writable_dir(out_dir: str | None) -> None:
    """Create ``--out`` before a long run and fail early (exit 2) if it cannot be written."""
    import os
    import tempfile
    if out_dir is None:
        return
    try:
        os.makedirs(out_dir, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out_dir):
            pass
    except OSError as exc:
        raise click.BadParameter(f"cannot write to {out_dir!r}: {exc.strerror}",
                                 param_hint="--out") from None


def _progress(enabled: bool, total: int, label: str):
    """A click progress bar on stderr, or a silent stand-in."""
    if enabled and sys.stderr.isatty():
        return click.progressbar(length=total, label=label, file=sys.stderr)

    class _Silent:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def update(self, n):
            pass

    return _Silent()


def long_run_options(task_default: str):
    """--run-dir, --resume, --task-size (checkpoint a long run, continue it after a crash)
    and --scheduler, --workers (run its tasks on a Dask cluster)."""
    def decorate(f):
        options = [
            click.option("--run-dir", type=click.Path(file_okay=False), default=None,
                         help="Write each finished task's counts here (atomically) with a "
                              "manifest, so that an interrupted run can be resumed "
                              "(e.g. results/runs/NAME, which git ignores)."),
            click.option("--resume", is_flag=True,
                         help="Continue the run in --run-dir: finished tasks are loaded, not "
                              "recomputed; refused if its manifest (command, parameters, "
                              "seed, version, task size) differs."),
            click.option("--task-size", type=click.IntRange(1, 2**40), default=None,
                         help=f"Deals per task (checkpoint, cluster job) [default: "
                              f"{task_default}]; part of a run's identity, it does not "
                              "change the result."),
            click.option("--scheduler", metavar="tcp://HOST:PORT", default=None,
                         help="Send the tasks to this running Dask scheduler (needs "
                              "ecarte-sim[cluster], the same version on every worker); the "
                              "result is the same as on the local threads."),
            click.option("--workers", type=click.IntRange(1, 256), default=None,
                         help="Start a local Dask cluster of N worker processes for this "
                              "run (needs ecarte-sim[cluster]); default: the local threads."),
        ]
        for option in reversed(options):
            f = option(f)
        return f
    return decorate


def _run_store(run_dir, resume: bool, command: str, parameters: dict, seed: int,
               task_size: int | None):
    """The run directory of a checkpointed run (None without --run-dir)."""
    if run_dir is None:
        return None
    from engine.runs import RunDir
    return RunDir(run_dir, {"command": command, "parameters": parameters, "seed": seed,
                            "block": task_size},
                  resume=resume, command_line=_command_line(command.split()[0]))


_SCHEMES = ("tcp://", "tls://", "inproc://", "ucx://", "ws://", "wss://")


def _backend(scheduler: str | None, workers: int | None):
    """None (local threads) or a Dask backend for --scheduler / --workers."""
    if scheduler is None and workers is None:
        return None
    from engine.cluster import ClusterError, DaskBackend
    if scheduler is not None and workers is not None:
        raise click.UsageError("--scheduler and --workers exclude each other: use a running "
                               "cluster or start a local one")
    try:
        if scheduler is not None:
            if not scheduler.startswith(_SCHEMES) or len(scheduler) > 2048 or any(
                    not c.isprintable() or c.isspace() for c in scheduler):
                raise click.BadParameter(f"{scheduler!r} is not a scheduler address "
                                         "(tcp://HOST:PORT)", param_hint="--scheduler")
            return DaskBackend.connect(scheduler)
        return DaskBackend.local(workers)
    except ClusterError as exc:
        raise click.UsageError(str(exc)) from None


@contextlib.contextmanager
def long_run(command: str, parameters: dict, seed: int, run_dir, resume: bool,
             task_size: int | None, scheduler: str | None, workers: int | None):
    """Run the enclosed experiments as the long-run options say: checkpointed into
    --run-dir (resumed with --resume), on the local threads or a Dask cluster. Yields the
    execution's description for provenance."""
    from engine.batch import execution
    if resume and run_dir is None:
        raise click.BadParameter("--resume needs --run-dir DIR", param_hint="--resume")
    backend = _backend(scheduler, workers)      # first: an unreachable cluster leaves no run dir
    try:
        store = _run_store(run_dir, resume, command, parameters, seed, task_size)
        with execution(backend, store, task_size), _Interrupted(store):
            yield {"backend": backend.describe() if backend else {
                       "backend": "threads", "threads": _numba_threads()},
                   "run_dir": None if store is None else str(store.path)}
    finally:
        if backend is not None:
            backend.close()


class _Interrupted:
    """On Ctrl-C in a checkpointed run, say where the finished tasks are before aborting."""

    def __init__(self, store):
        self.store = store

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if kind is KeyboardInterrupt and self.store is not None:
            click.echo(f"interrupted: {self.store.finished()} finished tasks are in "
                       f"{str(self.store.path)!r}; run the same command with --resume to "
                       "continue", err=True)
        return False


def _numba_threads() -> int:
    import numba
    return numba.get_num_threads()


def _set_threads(threads: int | None) -> None:
    if threads is None:
        return
    import numba
    limit = numba.config.NUMBA_NUM_THREADS
    if not 1 <= threads <= limit:
        raise click.BadParameter(f"must lie in [1, {limit}] (NUMBA_NUM_THREADS)",
                                 param_hint="--threads")
    numba.set_num_threads(threads)


@click.group(cls=EcarteGroup, context_settings=CONTEXT, no_args_is_help=False)
@click.version_option(package_name="ecarte-sim")
def main():
    """Simulate and solve Écarté deals (Club Code laws, seed texts in shared/seeds).

    Cards are written rank then suit: KS, 10H or TH, qh, Q♥, 7♣. A hand is five
    cards separated by spaces or commas (quote it). Rank order in Écarté:
    K Q J A 10 9 8 7.
    """


# --------------------------------------------------------------------------- solve

def _solve_one(elder_text: str, dealer_text: str, trump_text: str, forced_trump: bool,
               ws) -> dict:
    from engine.cards import cards_of, format_card
    from engine.ecarte.deal import parse_deal
    from engine.ecarte.solver import move_values

    elder, dealer, trump, _ = parse_deal(elder_text, dealer_text, trump_text)
    values = move_values(elder, dealer, trump, forced_trump=forced_trump, ws=ws)
    return {"elder_tricks": max(values.values()),
            "moves": {format_card(c): values[c] for c in cards_of(sum(1 << c for c in values))}}


def _solve_batch(path: str, forced_trump: bool) -> int:
    """One JSON object per input line; returns the number of bad lines."""
    from engine.ecarte.solver import new_workspace

    ws = new_workspace()
    bad = 0
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
                result = _solve_one(*fields, forced_trump=forced_trump, ws=ws)
                result = {"line": number, **result}
            except UnicodeDecodeError:
                bad += 1
                result = {"line": number, "error": "line is not valid UTF-8"}
            except CardError as exc:
                bad += 1
                result = {"line": number, "error": str(exc)}
            _emit(result, provenance=False)   # a stream of answers, one a line
    return bad


@main.command(context_settings=CONTEXT)
@click.argument("elder", required=False)
@click.argument("dealer", required=False)
@click.option("--trump", "-t", "trump", metavar="T",
              help="Trump suit (S, ♠, spades) or the turned-up card (e.g. TH).")
@click.option("--batch", "batch", metavar="FILE", type=click.Path(allow_dash=True, exists=True, dir_okay=False),
              help="Solve one deal per line, 'ELDER | DEALER | TRUMP' ('-' = stdin).")
@click.option("--no-forced-trump", "forced_trump", flag_value=False, default=True,
              help="Variant: a player void in the suit led need not trump.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
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
    others are still solved. The exit code is 2 if any line was bad.
    """
    if batch is not None:
        if elder is not None or dealer is not None or trump is not None:
            raise click.UsageError("--batch takes no ELDER, DEALER or --trump")
        bad = _solve_batch(batch, forced_trump)
        if bad:
            source = "stdin" if batch == "-" else repr(batch)
            click.echo(f"Error: {bad} bad line{'s' if bad != 1 else ''} in {source} "
                       "(see their \"error\" objects)", err=True)
            sys.exit(2)
        return
    if not elder or not dealer or trump is None:
        raise click.UsageError("solve needs ELDER, DEALER and --trump (or --batch FILE)")
    from engine.ecarte.solver import new_workspace

    result = _solve_one(elder, dealer, trump, forced_trump, new_workspace())
    if as_json:
        _emit(result)
        return
    tricks = result["elder_tricks"]
    verdict = ("elder vole" if tricks == 5 else "elder point" if tricks >= 3
               else "dealer vole" if tricks == 0 else "dealer point")
    click.echo(f"elder takes {tricks} trick{'s' if tricks != 1 else ''} with best play "
               f"({verdict})")
    for card, value in sorted(result["moves"].items(), key=lambda kv: -kv[1]):
        click.echo(f"  lead {card:<3} -> {value}")


# --------------------------------------------------------------------------- classify

@main.command(context_settings=CONTEXT)
@click.argument("hand")
@click.option("--trump", "-t", "trump", metavar="T", required=True,
              help="Trump suit (S, ♠, spades) or the turned-up card (e.g. TH).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def classify(hand, trump, as_json):
    """Is HAND a jeu de règle — a hand to play without proposing (seed 002)?

    Names the rule of Hoyle's list that fits, first in the list's order:
    three-trumps, two-trumps-one-suit, two-trumps-court-pair, one-trump-four-king,
    one-trump-three-court, no-trump-three-queens, no-trump-four-courts.

    \b
    Example:
      ecarte-sim classify "QH AH 7H KS KD" --trump TH --json
      {"jeu_de_regle": true, "rule": "three-trumps"}
    """
    from engine.cards import parse_hand
    from engine.ecarte.deal import HAND_SIZE, parse_trump
    from engine.ecarte.regle import classify as classify_hand

    mask = int(parse_hand(hand, HAND_SIZE, name="hand"))
    suit, _ = parse_trump(trump, [("hand", mask)])
    rule = classify_hand(mask, suit)
    if as_json:
        _emit({"jeu_de_regle": rule is not None, "rule": rule})
    elif rule is None:
        click.echo("not a jeu de règle: propose (by Hoyle's list)")
    else:
        click.echo(f"jeu de règle ({rule}): play without proposing")


# --------------------------------------------------------------------------- deal

@main.command(context_settings=CONTEXT)
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), required=True,
              help="Seed in [0, 2^64).")
@click.option("--index", type=click.IntRange(0, 2**44 - 1), required=True,
              help="Deal index in [0, 2^44).")
@click.option("--pretty", is_flag=True, help="Suit symbols (K♠ 10♥) instead of ASCII.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def deal(seed, index, pretty, as_json):
    """Show deal INDEX of SEED: both hands, the turn-up and the stock in draw order.

    Deal i of seed s is a pure function of (s, i): the same on any machine,
    thread count or batch split.
    """
    from engine.cards import ECARTE, format_card, format_cards, format_hand
    from engine.ecarte.deal import deal as make_deal

    d = make_deal(seed, index)
    if as_json:
        _emit({"elder": format_hand(d.elder, ECARTE), "dealer": format_hand(d.dealer, ECARTE),
               "turn_up": format_card(d.turn_up, ECARTE),
               "stock": format_cards(d.stock, ECARTE)})
        return
    click.echo(f"deal {index} of seed {seed}")
    click.echo(f"  elder   : {format_hand(d.elder, ECARTE, pretty)}")
    click.echo(f"  dealer  : {format_hand(d.dealer, ECARTE, pretty)}")
    click.echo(f"  turn-up : {format_card(d.turn_up, ECARTE, pretty)}")
    click.echo(f"  stock   : {format_cards(d.stock, ECARTE, pretty)}")


# --------------------------------------------------------------------------- policies

def _names(table: dict) -> list[str]:
    return [k for k in table if k != "scripted"]


def policy_options(f):
    """The options every whole-deal command shares (one policy interface)."""
    from engine.ecarte.players import DEFAULT_WORLDS, MAX_WORLDS, PLAY_MODELS
    from engine.ecarte.policies import (DEALER_POLICIES, DEFAULT_THRESHOLD, DISCARD_POLICIES,
                                        ELDER_POLICIES)
    plays = _names(PLAY_MODELS)
    options = [
        click.option("--elder-policy", type=click.Choice(_names(ELDER_POLICIES)),
                     default="regle", show_default=True,
                     help="Elder: play or propose. regle = play iff a jeu de règle (Hoyle's "
                          "list); threshold = play iff strength >= --threshold."),
        click.option("--dealer-policy", type=click.Choice(_names(DEALER_POLICIES)),
                     default="maxims", show_default=True,
                     help="Dealer: accept or refuse. maxims = the dealer's maxims of seed 002; "
                          "regle = refuse iff his hand is a jeu de règle."),
        click.option("--play", "play_model", type=click.Choice(plays), default="dd",
                     show_default=True,
                     help="Play model for both: dd (both see all cards: measures the cards), "
                          "heuristic (seed 002's advice), pimc (sampled worlds)."),
        click.option("--elder-play", type=click.Choice(plays), default=None,
                     help="Play model of the elder only (overrides --play)."),
        click.option("--dealer-play", type=click.Choice(plays), default=None,
                     help="Play model of the dealer only (overrides --play)."),
        click.option("--worlds", type=click.IntRange(1, MAX_WORLDS), default=DEFAULT_WORLDS,
                     show_default=True, help="PIMC: worlds sampled per decision (W)."),
        click.option("--threshold", type=click.IntRange(0, 100), default=DEFAULT_THRESHOLD,
                     show_default=True, help="Strength needed to play (elder policy threshold)."),
        click.option("--discard", "discard", type=click.Choice(_names(DISCARD_POLICIES)),
                     default="trumps-kings", show_default=True,
                     help="Discard rule of both players (trumps-kings: 'a king or a trump "
                          "should not be discarded in the first instance')."),
        click.option("--max-proposals", type=click.IntRange(0, 21), default=0,
                     show_default=True,
                     help="Most proposals in a deal (0 = until the stock runs out)."),
        click.option("--single-exchange", is_flag=True,
                     help="Variant: one exchange only (same as --max-proposals 1)."),
        click.option("--dealer-min-one", is_flag=True,
                     help="Variant: the dealer who accepts must take at least one card."),
        click.option("--no-forced-trump", "forced_trump", flag_value=False, default=True,
                     help="Variant: a player void in the suit led need not trump."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _cfg(opts: dict, **extra):
    from engine.ecarte.whole import make_cfg
    return make_cfg(elder_policy=opts["elder_policy"], dealer_policy=opts["dealer_policy"],
                    elder_discard=opts["discard"], dealer_discard=opts["discard"],
                    play=opts["play_model"], elder_play=opts["elder_play"],
                    dealer_play=opts["dealer_play"], worlds=opts["worlds"],
                    threshold=opts["threshold"],
                    max_proposals=1 if opts["single_exchange"] else opts["max_proposals"],
                    forced_trump=opts["forced_trump"], dealer_min_one=opts["dealer_min_one"],
                    **extra)


def _settings(opts: dict) -> dict:
    return {"elder_policy": opts["elder_policy"], "dealer_policy": opts["dealer_policy"],
            "play": {"elder": opts["elder_play"] or opts["play_model"],
                     "dealer": opts["dealer_play"] or opts["play_model"]},
            "worlds": opts["worlds"], "threshold": opts["threshold"], "discard": opts["discard"],
            "max_proposals": 1 if opts["single_exchange"] else opts["max_proposals"],
            "dealer_min_one": opts["dealer_min_one"], "forced_trump": opts["forced_trump"]}


# --------------------------------------------------------------------------- play / game

@main.command("play", context_settings=CONTEXT)
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), required=True,
              help="Seed in [0, 2^64).")
@click.option("--index", type=click.IntRange(0, 2**44 - 1), required=True,
              help="Deal index in [0, 2^44).")
@click.option("--elder-score", type=click.IntRange(0, 4), default=0, show_default=True,
              help="Elder's score before the deal (a mark reaching five ends the game).")
@click.option("--dealer-score", type=click.IntRange(0, 4), default=0, show_default=True,
              help="Dealer's score before the deal.")
@policy_options
@click.option("--pretty", is_flag=True, help="Suit symbols (K♠ 10♥) instead of ASCII.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def play_command(seed, index, elder_score, dealer_score, pretty, as_json, **opts):
    """Play one whole deal and tell it: hands, turn-up, each proposal and answer,
    discards and draws, each trick, the marks.

    The deal is a pure function of (seed, index): any policy sees the same hands,
    turn-up and stock. Card by card even with --play dd.
    """
    from analysis.narrative import deal_data, tell_deal
    from engine.ecarte.whole import play_deal

    cfg = _cfg(opts, elder_score=elder_score, dealer_score=dealer_score, target=5,
               trick_by_trick=True)
    d = play_deal(seed, index, cfg)
    if as_json:
        _emit({"seed": seed, "index": index, "score_before": {"elder": elder_score,
                                                              "dealer": dealer_score},
               "settings": _settings(opts), **deal_data(d)})
        return
    click.echo(f"Deal {index} of seed {seed}; score elder {elder_score}, dealer {dealer_score}.")
    for line in tell_deal(d, pretty):
        click.echo(line)


@main.command(context_settings=CONTEXT)
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), required=True,
              help="Seed in [0, 2^64).")
@click.option("--game", "game_index", type=click.IntRange(0, 2**38 - 1), default=0,
              show_default=True, help="Game number (game g uses deal indices 64g, 64g+1, ...).")
@policy_options
@click.option("--verbose", "-v", is_flag=True, help="Tell every deal in full.")
@click.option("--pretty", is_flag=True, help="Suit symbols (K♠ 10♥) instead of ASCII.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def game(seed, game_index, verbose, pretty, as_json, **opts):
    """Play a game of five up between A and B, deal by deal, with the score.

    The deal alternates; the game ends the moment a mark reaches five (a king
    turned up at four wins before a card is played). Both players use the same
    policies, by role. The Law 46 value (treble / double / single) is shown.
    """
    from analysis.narrative import game_data, tell_game
    from engine.ecarte.game import play_game

    g = play_game(seed, game_index, _cfg(opts, trick_by_trick=True))
    if as_json:
        _emit({"settings": _settings(opts), **game_data(g)})
        return
    for line in tell_game(g, pretty, verbose):
        click.echo(line)


# --------------------------------------------------------------------------- simulate

def _mean_ci(values_counts: list[tuple[int, int]]) -> tuple[float, float, float]:
    """Mean and normal 95% interval of an integer variable from (value, count) pairs."""
    from analysis.stats import weighted_mean
    values, counts = zip(*values_counts)
    r = weighted_mean(counts, values)
    return r["mean"], r["ci95"][0], r["ci95"][1]


def _whole_summary(counts, n_deals: int) -> dict:
    from analysis.stats import wilson_interval
    from engine.ecarte import whole as W
    joint = [[int(counts[W.COL_MARKS + 4 * e + d]) for d in range(4)] for e in range(4)]
    elder = [sum(row) for row in joint]
    dealer = [sum(joint[e][d] for e in range(4)) for d in range(4)]
    outcomes = [int(x) for x in counts[W.COL_OUTCOME:W.COL_OUTCOME + 4]]
    played = sum(outcomes)
    result = {"marks": {"elder": elder, "dealer": dealer, "joint": joint}}
    diff = [(e - d, joint[e][d]) for e in range(4) for d in range(4) if joint[e][d]]
    me, lo_e, hi_e = _mean_ci([(e, c) for e, c in enumerate(elder) if c])
    md, lo_d, hi_d = _mean_ci([(d, c) for d, c in enumerate(dealer) if c])
    mdiff, lo, hi = _mean_ci(diff)
    result["mean_marks"] = {"elder": me, "elder_ci95": [lo_e, hi_e], "dealer": md,
                            "dealer_ci95": [lo_d, hi_d], "difference": mdiff,
                            "difference_ci95": [lo, hi]}
    result["outcomes"] = dict(zip(("dealer_vole", "dealer_point", "elder_point", "elder_vole"),
                                  outcomes))
    result["played"] = played
    if played:
        wins = outcomes[2] + outcomes[3]
        result["elder_point_rate"] = wins / played
        result["elder_point_ci95"] = list(wilson_interval(wins, played))
    result["law_49"] = dict(zip(("none", "played_without_proposing", "refused_first"),
                                (int(x) for x in counts[W.COL_FIRST:W.COL_FIRST + 3])))
    result["exchanges_per_deal"] = int(counts[W.COL_EXCHANGES]) / n_deals
    result["stock_exhausted"] = int(counts[W.COL_STOCK_OUT])
    result["kings"] = {"turned": int(counts[W.COL_KING_TURNED]),
                       "elder_in_hand": int(counts[W.COL_KING_ELDER]),
                       "dealer_in_hand": int(counts[W.COL_KING_DEALER])}
    return result


@main.command(context_settings=CONTEXT)
@click.option("--deals", "n_deals", type=click.IntRange(1, 2**44), required=True,
              help="Number of deals.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Seed in [0, 2^64).")
@click.option("--start", type=click.IntRange(0, 2**44 - 1), default=0, show_default=True,
              help="First deal index (deals start .. start+N-1).")
@click.option("--chunk", type=click.IntRange(1, 2**30), default=None,
              help="Deals per parallel task (does not change the result) [default: 4096; "
                   "256 when a player uses PIMC, to keep both threads busy].")
@click.option("--threads", type=int, default=None,
              help="Worker threads (default: all; does not change the result).")
@click.option("--no-exchange", is_flag=True,
              help="Cards only: no proposal, each deal solved double dummy as dealt "
                   "(the policy options are then ignored).")
@policy_options
@long_run_options("2^21 deals; 2^13 when a player uses PIMC")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def simulate(n_deals, seed, start, chunk, threads, no_exchange, quiet, as_json, run_dir, resume,
             task_size, scheduler, workers, **opts):
    """Play N whole deals: marks, proposals and exchanges, play, the point.

    Reports the distribution of marks won by each side per deal (kings, point,
    vole and Law 49 penalties), the mean marks with 95% intervals, the elder's
    point rate with its 95% Wilson interval, and how often each law applied.
    With --no-exchange: the distribution of the elder's double-dummy tricks as
    dealt. Results are bit-identical for any --threads and --chunk.
    """
    from engine.rng import MAX_DEAL_INDEX

    if start + n_deals > MAX_DEAL_INDEX:
        raise click.BadParameter("start + deals must not exceed 2^44", param_hint="--deals")
    _set_threads(threads)
    pimc = "pimc" in _settings(opts)["play"].values() and not no_exchange
    if chunk is None:
        chunk = 256 if pimc else 4096
    from analysis.provenance import provenance
    from engine.ecarte.whole import task_block, whole_counts

    run = (run_dir, resume, task_size, scheduler, workers)
    if no_exchange:
        parameters = {"deals": n_deals, "start": start, "no_exchange": True,
                      "forced_trump": opts["forced_trump"]}
        with long_run("simulate", parameters, seed, *run):
            return _simulate_no_exchange(n_deals, seed, start, chunk, opts["forced_trump"],
                                         quiet, as_json, provenance("simulate", parameters,
                                                                    seed, n_deals))
    cfg = _cfg(opts)
    parameters = {"deals": n_deals, "start": start, "settings": _settings(opts)}
    with long_run("simulate", parameters, seed, *run), \
            _progress(not quiet and not as_json, n_deals, "playing") as bar:
        counts = whole_counts(seed, start, start + n_deals, cfg, chunk=chunk,
                              block=task_block(*_settings(opts)["play"].values()),
                              progress=bar.update)
    result = {"deals": n_deals, "seed": seed, "start": start, "settings": _settings(opts),
              **_whole_summary(counts, n_deals),
              "provenance": provenance("simulate", parameters, seed, n_deals)}
    if as_json:
        _emit(result)
        return
    s = result["settings"]
    click.echo(f"{n_deals} whole deals, seed {seed} (indices {start}..{start + n_deals - 1}); "
               f"elder {s['elder_policy']}, dealer {s['dealer_policy']}, play "
               f"{s['play']['elder']}/{s['play']['dealer']}")
    click.echo("  marks per deal   elder        dealer")
    for k in range(4):
        e, d = result["marks"]["elder"][k], result["marks"]["dealer"][k]
        click.echo(f"    {k}          {e / n_deals:10.4%}   {d / n_deals:10.4%}")
    m = result["mean_marks"]
    click.echo(f"  mean marks: elder {m['elder']:.4f} [{m['elder_ci95'][0]:.4f}, "
               f"{m['elder_ci95'][1]:.4f}], dealer {m['dealer']:.4f} [{m['dealer_ci95'][0]:.4f}, "
               f"{m['dealer_ci95'][1]:.4f}]  (95% CI, n={n_deals})")
    if result["played"]:
        lo, hi = result["elder_point_ci95"]
        click.echo(f"  elder wins the point in {result['elder_point_rate']:.4f} of "
                   f"{result['played']} deals played  95% CI [{lo:.4f}, {hi:.4f}]")
    law = result["law_49"]
    click.echo(f"  played without proposing {law['played_without_proposing']}, first proposal "
               f"refused {law['refused_first']}, exchanges per deal "
               f"{result['exchanges_per_deal']:.3f}, stock exhausted {result['stock_exhausted']}")


def _simulate_no_exchange(n_deals, seed, start, chunk, forced_trump, quiet, as_json, prov):
    from analysis.stats import wilson_interval
    from engine.ecarte.simulate import simulate_counts

    with _progress(not quiet and not as_json, n_deals, "solving") as bar:
        counts = simulate_counts(seed, start, start + n_deals, "exact", forced_trump,
                                 chunk=chunk, progress=bar.update)
    tricks = [int(c) for c in counts[:6]]
    points = sum(tricks[3:])
    rate = points / n_deals
    lo, hi = wilson_interval(points, n_deals)
    result = {"deals": n_deals, "seed": seed, "start": start, "forced_trump": forced_trump,
              "tricks": tricks, "point_rate": rate, "ci95": [lo, hi],
              "elder_vole_rate": tricks[5] / n_deals, "dealer_vole_rate": tricks[0] / n_deals,
              "provenance": prov}
    if as_json:
        _emit(result)
        return
    click.echo(f"{n_deals} deals, seed {seed} (indices {start}..{start + n_deals - 1}), "
               "double-dummy, no exchange")
    for k, c in enumerate(tricks):
        click.echo(f"  elder takes {k}: {c:>12}  ({c / n_deals:.4%})")
    click.echo(f"  elder point rate {points / n_deals:.4f}  95% CI [{lo:.4f}, {hi:.4f}]  "
               f"n={n_deals}")


# --------------------------------------------------------------------------- scores

@main.command(context_settings=CONTEXT)
@click.option("--deals", "n_deals", type=click.IntRange(1000, 2**40), default=1_000_000,
              show_default=True, help="Deals behind the per-deal outcome distribution.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Seed in [0, 2^64) (deals and bootstrap).")
@click.option("--bootstrap", type=click.IntRange(0, 100_000), default=200, show_default=True,
              help="Bootstrap replicates for the 95% intervals (0 = none).")
@click.option("--threads", type=int, default=None,
              help="Worker threads (default: all; does not change the result).")
@policy_options
@click.option("--out", "out_dir", type=click.Path(file_okay=False, writable=True),
              default=None, help="Also write scores.csv, scores.md, scores.png and "
                                 "provenance.json here.")
@long_run_options("2^21 deals; 2^13 when a player uses PIMC")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def scores(n_deals, seed, bootstrap, threads, out_dir, quiet, as_json, run_dir, resume,
           task_size, scheduler, workers, **opts):
    """Probability of winning five up from every score, by an exact recursion over the
    per-deal outcome distribution of N whole deals (the marks replayed in the order of
    the laws, so a king turned up at four wins before the point).

    Rows: the player's own score; columns: his opponent's; one table for when the next
    deal is his, one for when it is the opponent's (then he is the elder). Each cell
    has a 95% bootstrap interval. Policies do not look at the score here.
    """
    from analysis.provenance import provenance
    from analysis.scores import player_tables, win_table
    from engine.ecarte.whole import task_block, whole_counts

    _set_threads(threads)
    _writable_dir(out_dir)
    cfg = _cfg(opts)
    parameters = {"deals": n_deals, "bootstrap": bootstrap, "settings": _settings(opts)}
    with long_run("scores", parameters, seed, run_dir, resume, task_size, scheduler,
                  workers) as how, \
            _progress(not quiet and not as_json, n_deals, "playing") as bar:
        counts = whole_counts(seed, 0, n_deals, cfg,
                              block=task_block(*_settings(opts)["play"].values()),
                              progress=bar.update)
    t = win_table(counts, bootstrap, seed)
    # "I deal next": I am the dealer (score mine), the opponent is elder.
    command = _command_line("scores")
    result = {"command": command, "deals": n_deals, "seed": seed, "bootstrap": bootstrap,
              "settings": _settings(opts), "rows": "my score 0-4", "columns": "opponent 0-4",
              **player_tables(t["v"], t["lo"], t["hi"]),
              "provenance": provenance("scores", parameters, seed, n_deals)}
    if out_dir:
        from analysis.scores import write_report
        result["files"] = write_report(out_dir, result, how)
    if as_json:
        _emit(result)
        return
    s = result["settings"]
    click.echo(f"P(win five up) from each score; {n_deals} deals of seed {seed}; elder "
               f"{s['elder_policy']}, dealer {s['dealer_policy']}, play {s['play']['elder']}/"
               f"{s['play']['dealer']}; 95% bootstrap intervals ({bootstrap} replicates)")
    for key, title in (("i_deal_next", "I deal next"),
                       ("opponent_deals_next", "the opponent deals next (I am elder)")):
        click.echo(f"  {title}: rows = my score, columns = opponent's")
        click.echo("        " + "".join(f"{b:>22}" for b in range(5)))
        for a in range(5):
            cells = "".join(f"{result[key][a][b]:>8.3f} [{result[key + '_ci95'][a][b][0]:.3f},"
                            f"{result[key + '_ci95'][a][b][1]:.3f}]" for b in range(5))
            click.echo(f"    {a}   {cells}")
    for path in result.get("files", []):
        click.echo(f"wrote {path}")


# --------------------------------------------------------------------------- hand / claims

class _Counter:
    """Deals done per experiment, on one stderr line (a TTY only): precision-driven runs do
    not know their length in advance."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()
        self.done: dict[str, int] = {}

    def __call__(self, label: str, n: int) -> None:
        if not self.enabled:
            return
        self.done[label] = self.done.get(label, 0) + n
        click.echo(f"\r\x1b[2K{label}: {self.done[label]:,} deals", err=True, nl=False)

    def close(self) -> None:
        if self.enabled and self.done:
            click.echo("\r\x1b[2K", err=True, nl=False)


def _not_nan(ctx, param, value):
    """click's FloatRange lets NaN through (it compares false with both bounds)."""
    if value is not None and value != value:
        raise click.BadParameter(f"{value!r} is not a number", ctx=ctx, param=param)
    return value


def _precision_options(f):
    from analysis.claims import DEFAULT_PRECISION
    options = [
        click.option("--precision", type=click.FloatRange(1e-5, 0.5), default=DEFAULT_PRECISION,
                     show_default=True, callback=_not_nan,
                     help="Simulate until every headline 95% interval has half-width <= H "
                          "(checked at 16,384 deals, then at each doubling)."),
        click.option("--deals", "n_deals", type=click.IntRange(100, 2**40), default=None,
                     help="Simulate exactly N deals instead (no precision rule)."),
        click.option("--max-deals", type=click.IntRange(1000, 2**40), default=None,
                     help="Most deals per experiment under the precision rule (claims: also "
                          "the deals behind its score table) [default: see above]."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _arm_json(summary: dict, exact: bool) -> dict:
    return {"point": summary["point"], "vole": summary["vole"],
            "expected_points": summary["expected_points"], "n": summary["n"], "exact": exact,
            "ci95": summary["point_ci95"], "vole_ci95": summary["vole_ci95"],
            "expected_points_ci95": summary["expected_points_ci95"]}


@main.command(context_settings=CONTEXT)
@click.argument("hand")
@click.option("--trump", "-t", "trump", metavar="T", required=True,
              help="Trump suit (H, ♥, hearts: the turn-up is drawn from the other cards of "
                   "the suit) or the turned-up card (e.g. KH).")
@click.option("--exact", is_flag=True,
              help="Enumerate every dealer hand (and turn-up, when only the suit is given) "
                   "for play without proposing; dd or heuristic play only.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Seed in [0, 2^64) of the sampled deals.")
@_precision_options
@policy_options
@click.option("--threads", type=int, default=None,
              help="Worker threads (default: all; does not change the result).")
@long_run_options("2^21 deals; 2^13 for PIMC")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def hand(hand, trump, exact, seed, precision, n_deals, max_deals, threads, quiet, as_json,
         run_dir, resume, task_size, scheduler, workers, **opts):
    """How good is HAND for the elder: P(point), P(vole) and expected points (the elder's
    marks minus the dealer's in the deal, kings and Law 49 included), playing without
    proposing and proposing first (the dealer answering by --dealer-policy, the deal going
    on, the elder re-deciding by --elder-policy after each exchange).

    The rest of the pack is dealt at random around the hand; both ways are played on the
    same deals, and the paired difference is reported. --precision (default) simulates
    until both P(point) intervals have half-width <= H (at most --max-deals: 2^24 deals
    for dd/heuristic, 2^18 for pimc); --exact enumerates instead (play without proposing).

    \b
    Example:
      ecarte-sim hand "QH AH 7H KS KD" --trump H --exact --json
    """
    from analysis import paired as AP
    from analysis.precision import checkpoints, run_until
    from analysis.provenance import provenance
    from engine.cards import ECARTE, SUIT_LETTERS, format_card, format_hand, parse_hand
    from engine.ecarte.deal import HAND_SIZE, parse_trump
    from engine.ecarte.experiments import exact_codes, hand_table
    from engine.ecarte.whole import task_block

    if exact and (n_deals is not None or max_deals is not None):
        raise click.UsageError("--exact enumerates every deal: --deals and --max-deals do "
                               "not apply")
    elder = int(parse_hand(hand, HAND_SIZE, name="hand"))
    suit, turn_up = parse_trump(trump, [("hand", elder)])
    _set_threads(threads)
    settings = _settings(opts)
    model = settings["play"]["elder"]
    pimc = "pimc" in settings["play"].values()
    play_cfg = _cfg(opts, elder_first="play")
    result = {"hand": format_hand(elder, ECARTE), "trump": SUIT_LETTERS[suit],
              "turn_up": None if turn_up is None else format_card(turn_up, ECARTE),
              "model": model, "seed": seed, "settings": settings}
    if exact and pimc:
        raise click.UsageError("--exact needs a deterministic play model (dd or heuristic): "
                               "PIMC's sampled worlds make each deal random")
    counter = _Counter(not quiet and not as_json)
    parameters = {"hand": result["hand"], "trump": trump, "exact": exact,
                  "precision": None if exact or n_deals else precision, "deals": n_deals,
                  "max_deals": max_deals, "settings": settings}
    with contextlib.ExitStack() as stack:
        stack.callback(counter.close)
        stack.enter_context(long_run("hand", parameters, seed, run_dir, resume, task_size,
                                     scheduler, workers))
        if exact:
            codes = exact_codes(elder, turn_up, suit, play_cfg,
                                progress=lambda n: counter("enumerating", n))
            result["play"] = _arm_json(AP.exact_summary(codes), True)
        else:
            propose_cfg = _cfg(opts, elder_first="propose")
            cap = max_deals or (1 << 18 if pimc else 1 << 24)
            chunk = 256 if pimc else 4096

            def step(lo, hi):
                return hand_table(seed, lo, hi, elder, turn_up, suit, play_cfg, propose_cfg,
                                  chunk=chunk, block=task_block(*settings["play"].values()),
                                  progress=lambda n: counter("dealing", n))

            def check(joint):
                a = AP.arm_summary(joint.sum(axis=1))
                b = AP.arm_summary(joint.sum(axis=0))
                worst = max(AP.half_width(a["point_ci95"]), AP.half_width(b["point_ci95"]))
                return worst <= precision, worst, {}

            joint, n, worst = run_until(step, checkpoints(cap, n_deals), check)
            result["play"] = _arm_json(AP.arm_summary(joint.sum(axis=1)), False)
            result["propose"] = _arm_json(AP.arm_summary(joint.sum(axis=0)), False)
            diff = AP.paired_mean(joint, AP.NET.astype(float))
            result["play_minus_propose"] = {"expected_points": diff["mean"],
                                            "ci95": diff["ci95"], "n": diff["n"],
                                            "paired": True}
            result["precision"] = None if n_deals else {
                "target": precision, "worst_half_width": worst, "reached": worst <= precision}
    result["provenance"] = provenance("hand", parameters, None if exact else seed,
                                      result["play"]["n"])
    if as_json:
        _emit(result)
        return
    where = result["turn_up"] or f"{SUIT_LETTERS[suit]} (turn-up drawn from the suit)"
    click.echo(f"{result['hand']}, trump {where}; play {model}"
               + ("" if exact else f"; seed {seed}"))
    for key, title in (("play", "play without proposing"), ("propose", "propose first")):
        if key not in result:
            continue
        r = result[key]
        how = "exact, every deal" if r["exact"] else "95% CI"
        click.echo(f"  {title:22s} P(point) {r['point']:.4f} [{r['ci95'][0]:.4f}, "
                   f"{r['ci95'][1]:.4f}]  P(vole) {r['vole']:.4f}  expected points "
                   f"{r['expected_points']:+.4f}  (n={r['n']}, {how})")
    if "play_minus_propose" in result:
        d = result["play_minus_propose"]
        click.echo(f"  play minus propose: {d['expected_points']:+.4f} points per deal "
                   f"[{d['ci95'][0]:+.4f}, {d['ci95'][1]:+.4f}] (paired, same {d['n']} deals)")


@main.command(context_settings=CONTEXT)
@click.option("--play", "models", type=click.Choice(["dd", "heuristic", "pimc"]),
              multiple=True, help="Play model(s) to test (repeatable) [default: all three].")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Seed in [0, 2^64).")
@_precision_options
@click.option("--worlds", type=click.IntRange(1, 4096), default=64, show_default=True,
              help="PIMC: worlds sampled per decision.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, writable=True),
              default=None, help="Write claims.md, claims.csv (+ .parquet with pyarrow) and "
                                 "the PNG plots here.")
@click.option("--threads", type=int, default=None,
              help="Worker threads (default: all; does not change the result).")
@long_run_options("2^21 deals; 2^13 for PIMC")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def claims(models, seed, precision, n_deals, max_deals, worlds, out_dir, threads, quiet,
           as_json, run_dir, resume, task_size, scheduler, workers):
    """Test the claims of seed 002: "two to one" for the jeux de règle (as an estimate and
    as a floor, overall and per rule), "four times out of five" for Q A 7 of trumps with
    two kings, the dealer's maxims, the three pieces of score advice, and "continue
    proposing till the pack is exhausted" — each with estimate, 95% interval, n and a
    verdict (supported / contradicted / inconclusive) by a rule fixed in
    analysis/claims.py before any run, for each play model.

    Each experiment runs until its headline intervals have half-width <= --precision, at
    most --max-deals deals (default 2^25 for dd and heuristic; PIMC, ~100 us a deal, stops
    at 2^18 regle / 2^16 dealer / 2^15 habit and hand deals, and the report says the
    precision reached). Where a figure fails, the report lists what would explain it.
    """
    from analysis.claims import EXPERIMENTS, MODELS, Settings, run_claims

    _set_threads(threads)
    _writable_dir(out_dir)
    models = list(dict.fromkeys(models)) or list(MODELS)
    settings = Settings(seed=seed, precision=precision, deals=n_deals, worlds=worlds)
    if max_deals is not None:
        settings.max_deals = {m: dict.fromkeys(EXPERIMENTS, max_deals) for m in MODELS}
        settings.score_deals = {m: max(max_deals, 1000) for m in MODELS}
    command = _command_line("claims")
    counter = _Counter(not quiet and not as_json)
    parameters = {"models": models, "precision": None if n_deals else precision,
                  "deals": n_deals, "max_deals": max_deals, "worlds": worlds}
    try:
        with long_run("claims", parameters, seed, run_dir, resume, task_size, scheduler,
                      workers) as how:
            payload = run_claims(models, settings, command, progress=counter)
    finally:
        counter.close()
    payload["provenance"].update(parameters=parameters, n=payload["provenance"]["deals"],
                                 git_commit=git_commit())
    if out_dir:
        from analysis.report import write_claims_report
        payload["files"] = write_claims_report(out_dir, payload, how)
    if as_json:
        _emit(payload)
        return
    click.echo(f"claims of seed 002 — seed {seed}, "
               + (f"precision {precision}" if n_deals is None else f"{n_deals} deals"))
    for m in models:
        s = payload["models"][m]
        click.echo(f"  {m}: {s['seconds']:.1f} s, deals {s['deals']}, worst headline "
                   f"half-width {s['worst_half_width']:.4f}"
                   + ("" if s["precision_reached"] or n_deals else " (precision NOT reached)"))
    current = None
    for r in payload["claims"]:
        if r["id"] != current:
            current = r["id"]
            click.echo(f"\n{current}")
        click.echo(f"  {r['model']:9s} {r['verdict']:12s} {r['estimate']:+.4f} "
                   f"[{r['ci95'][0]:+.4f}, {r['ci95'][1]:+.4f}] n={r['n']:<8d} "
                   f"{r['reading']} — {r['subset']}")
    for path in payload.get("files", []):
        click.echo(f"wrote {path}")


# --------------------------------------------------------------------------- bench

@main.command(context_settings=CONTEXT)
@click.option("--deals", "n_deals", type=click.IntRange(1000, 2**40), default=2_000_000,
              show_default=True, help="Deals for each kernel.")
@click.option("--reference-deals", type=click.IntRange(10, 10**6), default=300,
              show_default=True, help="Deals for the pure-Python reference.")
@click.option("--pimc-deals", type=click.IntRange(100, 10**8), default=20_000,
              show_default=True, help="Deals for PIMC at W = 64 (more at smaller W).")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True)
@click.option("--threads", type=int, default=None, help="Worker threads (default: all).")
@click.option("--no-startup", is_flag=True,
              help="Skip the cold-compile and warm start-up measurements (subprocesses).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench(n_deals, reference_deals, pimc_deals, seed, threads, no_startup, as_json):
    """Measure throughput: deal only, deal + exact double-dummy, deal + point/vole,
    whole deals (regle / maxims, exchanges, dd or heuristic play), whole deals with
    PIMC play at W = 16, 32, 64 (with the cost per decision), and the pure-Python
    reference, on the same deals; plus JIT compile time (cold cache) and warm
    start-up of `ecarte-sim solve`.

    Figures are wall-clock measurements of this run on this machine.
    """
    from analysis.bench import format_report, run_bench

    _set_threads(threads)
    report = run_bench(n_deals, reference_deals, seed, startup=not no_startup,
                       pimc_deals=pimc_deals,
                       log=None if as_json else lambda line: click.echo(line, err=True))
    if as_json:
        _emit(report)
    else:
        click.echo(format_report(report))


# The piquet group lives in its own module; importing it registers ``ecarte-sim piquet``.
from analysis import piquet_cli  # noqa: E402,F401

if __name__ == "__main__":  # pragma: no cover
    # ``python -m analysis.cli``: this file runs as __main__, but piquet_cli registered its
    # group on the imported module analysis.cli; run that one.
    from analysis.cli import run as _run
    _run()
