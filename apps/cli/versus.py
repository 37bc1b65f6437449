"""``ecarte-sim versus``: the computed strategy against the treatise, on the same deals and
over whole games (:func:`ecarte_sim.api.strategy.versus`)."""

from __future__ import annotations

import click

from ecarte_sim.apps.cli.common import (CONTEXT, JSON, THREADS, emit, quiet_option,
                                            seed_option, set_threads, writable_dir)
from ecarte_sim.engine.ecarte.settings import play_models


@click.command("versus", context_settings=CONTEXT)
@click.option("--deals", "n_deals", type=click.IntRange(1000, 1 << 40), default=1 << 20,
              show_default=True, help="Paired deals for each side (0-0 unless --score).")
@click.option("--games", "n_games", type=click.IntRange(1, 1 << 30), default=1 << 14,
              show_default=True,
              help="Game indices of whole games (each played twice, the sides swapped).")
@click.option("--score", "score", metavar="E-D", default="0-0", show_default=True,
              help="The score of the paired deals, the elder's first.")
@click.option("--play", "play", type=click.Choice(play_models("solved")),
              default="dd", show_default=True, help="Play model of both players' cards.")
@seed_option()
@THREADS
@click.option("--out", "out_dir", type=click.Path(file_okay=False, writable=True),
              default=None, help="Also write versus.md and versus.json here.")
@quiet_option()
@JSON
def versus(n_deals, n_games, score, play, seed, threads, out_dir, quiet, as_json):
    """The computed strategy of five up against the treatise (Hoyle's list, the dealer's
    maxims, "a king or a trump should not be discarded"). On the same deals: the elder,
    then the dealer, then both deciding by the strategy while the rest decide by the
    treatise; the paired gain in marks a deal and in P(win the game), 95% intervals.
    Over whole games of five up: a player deciding by the strategy against one deciding
    by the treatise, each game index played twice with the sides swapped; the share of
    games the strategy wins with its Wilson 95% interval.

    \b
    Examples:
      ecarte-sim versus --deals 65536 --games 256
      ecarte-sim versus --out results/versus
    """
    import json
    from pathlib import Path

    from ecarte_sim.api.strategy import versus as measure
    from ecarte_sim.engine.ecarte.laws.score import Score

    set_threads(threads)
    writable_dir(out_dir)
    try:
        x, y = Score.parse(score).pair
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--score") from None
    if not quiet and not as_json:
        click.echo(f"paired deals ({n_deals:,} a side) and whole games ({2 * n_games:,}) ...",
                   err=True)
    result = measure(n_deals, n_games, score=(x, y), play=play, seed=seed).to_dict()
    lines = _lines(result, n_deals, x, y, seed, play)
    files = []
    if out_dir:
        out = Path(out_dir)
        (out / "versus.md").write_text("# The computed strategy against the treatise\n\n"
                                       + "\n\n".join(lines) + "\n", encoding="utf-8")
        (out / "versus.json").write_text(json.dumps(result, indent=1) + "\n",
                                         encoding="utf-8")
        files = [str(out / "versus.md"), str(out / "versus.json")]
    if as_json:
        emit({**result, "files": files})
        return
    for line in lines + [f"wrote {p}" for p in files]:
        click.echo(line)


def _lines(result: dict, n_deals: int, x: int, y: int, seed: int, play: str) -> list[str]:
    out = [f"On the same {n_deals:,} deals at {x}-{y} (seed {seed}, play {play}), the side "
           "deciding by the computed strategy against the treatise's decisions "
           "(paired, 95% intervals):"]
    for side, r in result["deals"].items():
        for who in ("elder", "dealer"):
            if who not in r:
                continue
            g = r[who]
            out.append(f"- {side} by the strategy, the {who}'s gain: P(win the game) "
                       f"{g['gain_win']:+.4f} [{g['gain_win_ci95'][0]:+.4f}, "
                       f"{g['gain_win_ci95'][1]:+.4f}], marks a deal {g['gain_marks']:+.4f} "
                       f"[{g['gain_marks_ci95'][0]:+.4f}, {g['gain_marks_ci95'][1]:+.4f}]")
    g = result["games"]
    out.append(f"Whole games of five up (seed {seed}, play {play}): the strategy won "
               f"{g['strategy_wins']:,} of {g['games']:,}, {g['share']:.4f} "
               f"[{g['ci95'][0]:.4f}, {g['ci95'][1]:.4f}] (Wilson 95%); dealing first "
               f"{g['as_first_dealer']['won']:,} of {g['as_first_dealer']['of']:,}, being "
               f"elder first {g['as_first_elder']['won']:,} of {g['as_first_elder']['of']:,};"
               f" {g['deals']:,} deals played.")
    return out


COMMANDS = [versus]
