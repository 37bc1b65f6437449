"""``ecarte-sim chart``: the strategy card — a first-decision table as a one-page grid
(:mod:`ecarte_sim.analysis.ecarte.solving.chart` computes it, :mod:`ecarte_sim.analysis.reports.chart`
draws it)."""

from __future__ import annotations

import os

import click

from ecarte_sim.apps.cli.common import CONTEXT, JSON, emit, score_value


def _out(ctx, param, value):
    """A file name ending in .png, .svg or .pdf, in a directory that can be written."""
    if value is None:
        return None
    from ecarte_sim.analysis.reports.chart import file_format
    try:
        file_format(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    folder = os.path.dirname(os.path.abspath(value))
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise click.BadParameter(f"cannot write {value!r}: {folder!r} is not a writable "
                                 f"directory", ctx=ctx, param=param)
    return value


def _play_choices() -> list[str]:
    from ecarte_sim.engine.ecarte.settings import play_models
    return list(play_models("play"))


@click.command(context_settings=CONTEXT)
@click.option("--role", type=click.Choice(["elder", "dealer"]), default="elder",
              show_default=True, help="Whose first decision: the elder's (propose or play) "
                                      "or the dealer's (accept or refuse).")
@click.option("--score", default="0-0", show_default=True, callback=score_value,
              help="The score before the deal, E-D (the elder's first, each 0-4).")
@click.option("--play", type=click.Choice(_play_choices()), default=None,
              help="The play model whose solved strategy is charted [default: the shipped "
                   "default].")
@click.option("--against", type=click.Choice(["equilibrium", "treatise"]),
              default="equilibrium", show_default=True,
              help="equilibrium: the shipped solved strategy; treatise: Hoyle's list "
                   "(elder) or the dealer's maxims themselves.")
@click.option("--columns", type=click.Choice(["kings-suits", "kings-courts",
                                              "kings-longest"]),
              default="kings-suits", show_default=True,
              help="The columns: plain kings held, then plain suits held (or plain court "
                   "cards, or the longest plain suit).")
@click.option("--weigh", type=click.Choice(["proposed", "dealt"]), default="proposed",
              show_default=True,
              help="The dealer's hands: weighted by how often they are dealt times the "
                   "chance that the elder's table (at that score) proposes, or by how often "
                   "they are dealt alone. The elder's are weighted by how often dealt.")
@click.option("--round", "rnd", type=click.Choice(["first", "later"]), default="first",
              show_default=True,
              help="first: the first decision of a deal; later: a proposal after an "
                   "exchange and its answer (the strategy's later table; the cells weighted "
                   "as dealt hands, a hand held after an exchange being a hand like any "
                   "other).")
@click.option("--out", type=click.Path(dir_okay=False), default=None, callback=_out,
              help="Write the chart to FILE.png, .svg or .pdf (one A4 page).")
@click.option("--compare", "compare_play", type=click.Choice(_play_choices()), default=None,
              help="Instead of the chart: where the --play strategy and this play model's "
                   "part, at every score and for both roles (the share of hands whose first "
                   "decision differs; the dealer's weighted by the chance the first "
                   "strategy's elder proposes), and the cells that differ at --score.")
@JSON
def chart(role, score, play, against, columns, weigh, rnd, out, compare_play, as_json):
    """The strategy card: one page per role and score that a player can print and learn.

    Rows: trumps held and the king of trumps; columns: the plain kings and the plain suits
    held. Each cell shows the action the table takes on most of its dealt hands, the share
    of those hands it reproduces, the cell's share of all dealt hands, lighter where the
    margin in P(win the game) is small, and a frame where the treatise (Hoyle's list, the
    dealer's maxims) says otherwise. Without --out the chart is printed as text.

    \b
    Examples:
      ecarte-sim chart --against treatise --out elder.png
      ecarte-sim chart --role dealer --score 3-4 --out dealer-3-4.pdf
      ecarte-sim chart --role dealer --json
      ecarte-sim chart --play dd --compare pimc-inference --score 4-4
      ecarte-sim chart --round later --score 0-0
    """
    from ecarte_sim.analysis.reports.provenance import provenance
    from ecarte_sim.api.strategy import chart as strategy_card, chart_compare

    e, d = score
    score_text = f"{e}-{d}"
    if compare_play is not None:
        if against == "treatise" or out:
            raise click.UsageError("--compare compares two solved strategies: not with "
                                   "--against treatise or --out")
        parts = chart_compare(play, compare_play, columns=columns)
        frame = parts["rows"]
        prov = provenance("chart", {"play": parts["first"].play,
                                    "compare": parts["second"].play,
                                    "columns": columns, "score": score_text}, None, None)
        if as_json:
            emit({"first": parts["first_source"], "second": parts["second_source"],
                  "rows": frame.to_dict(orient="records"), "provenance": prov})
            return
        _print_compare(frame, parts["first_source"], parts["second_source"], score_text)
        return
    card = strategy_card(role, (e, d), against=against, play=play, columns=columns,
                         weigh=weigh, round=rnd)
    parameters = {"role": role, "score": score_text, "play": card.play, "against": against,
                  "columns": columns, "weigh": card.weigh, "out": out} | (
                      {"round": "later"} if rnd == "later" else {})
    prov = provenance("chart", parameters, None, None)
    if card.solved is not None:
        prov["source"] = card.solved.provenance
    if out:
        from ecarte_sim.analysis.reports.chart import write
        write(card.card, out, prov, score=score_text, play=card.play, source=card.source,
              made_by=card.made_by)
    if as_json:
        emit({**card.to_dict(), "file": out, "provenance": prov})
        return
    _print(card, score_text, out)


def _print(card, score: str, out) -> None:
    """The chart (:class:`ecarte_sim.api.strategy.Chart`) as text: each cell the action the
    table takes on most of its hands, in words, and the share of the cell's hands it is; *
    where the treatise says otherwise."""
    result, labels = card.card, card.column_labels
    yes, no = result.actions
    click.echo(f"{result.role} at {score}: {card.source}")
    width = max(max(len(yes), len(no)) + 7, max(len(label) for label in labels) + 2)
    head = " " * 20 + "".join(f"{label:>{width}}" for label in labels)
    groups = " " * 20 + "".join(f"{label.replace(' plain', '')[:n * width - 1]:>{n * width}}"
                                for label, _, n in result.groups)
    click.echo(groups)
    click.echo(head)
    differs = False
    for row in result.cells:
        text = []
        for c in row:
            if c.action is None:
                text.append(f"{'.':>{width}}")
                continue
            mark = "*" if c.treatise_differs else " "
            differs |= c.treatise_differs
            text.append(f"{c.action:>{width - 6}}{100 * c.reproduced:4.0f}%{mark}")
        click.echo(f"{row[0].row_label:<20}" + "".join(text))
    hands = ("dealt hands" if result.weighting == "dealt hands" else
             "the hands he is proposed to")
    click.echo(f"Each cell: what the table does with most of its hands, and on what share of "
               f"them{'; * the treatise says otherwise' if differs else ''}.")
    click.echo(f"The cells' actions reproduce {100 * result.reproduced:.1f}% of {hands}; the "
               f"table says {yes} on {100 * result.chosen:.1f}% of them; it agrees with the "
               f"treatise on {100 * result.treatise_agreement:.1f}%"
               + (f"; written to {out}" if out else ""))


def _print_compare(frame, first: str, second: str, score: str) -> None:
    """Where two strategies part, as text: a row per score and role, then the cells that
    differ at ``score``."""
    click.echo(f"first:  {first}\nsecond: {second}")
    click.echo("Share of hands whose first decision differs (the elder's as dealt, the "
               "dealer's as proposed to by the first's elder), and each strategy's share "
               "of propose / accept:")
    click.echo(f"{'score':>5} {'role':>6} {'differ':>7} {'first':>7} {'second':>7}")
    for r in frame.itertuples():
        click.echo(f"{r.score:>5} {r.role:>6} {100 * r.parts:6.1f}% {100 * r.first:6.1f}% "
                   f"{100 * r.second:6.1f}%")
    for r in frame[frame["score"] == score].itertuples():
        cells = r.cells.split("; ") if r.cells else []
        click.echo(f"{r.role} at {score}: " + ("the cells' majority actions are the same"
                                               if not cells else
                                               f"{len(cells)} cells differ"))
        for c in cells:
            click.echo(f"  {c}")


COMMANDS = [chart]
