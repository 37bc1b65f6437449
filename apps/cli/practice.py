"""``ecarte-sim review FILE``: a game record (``docs/records.md``) checked against the laws
and annotated by the coach, through the front door (:func:`ecarte_sim.api.practice.review`).

Exit codes: 0 the record keeps the laws, 1 it breaks at least one (each breach one line,
naming the law), 2 the file cannot be read or is not a record (one line, ``Error: ...``).
The laws are checked first and alone: a record that breaks one is not given to the coach
(it cannot grade an impossible game), so the coach never decides the exit code.
"""

from __future__ import annotations

import re

import click

from ecarte_sim.apps.cli.common import CONTEXT, JSON, emit


@click.command(context_settings=CONTEXT)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--no-coach", is_flag=True, help="Check the laws only (no coach's annotation).")
@click.option("--player", "players", multiple=True,
              help="The player whose decisions the coach grades (repeat for both; default: "
                   "every player but the computer).")
@JSON
def review(file, no_coach, players, as_json):
    """Check a game record FILE against the laws and annotate it as the coach does.

    A game saved by the practice table (a file of its store) is read as its record. Each
    breach is one line naming the law (Law 43: a revoke or not winning when able;
    Laws 29-34: more cards taken than discarded; Laws 47-49: a wrong mark; Law 40: a card
    out of turn; ...). Exit code 0 when the record keeps the laws, 1 when it breaks one,
    2 when FILE is not a record (or larger than 8 MB, or not a regular file). The laws are
    checked first and alone: the coach is not run on a record that breaks one. The
    format: docs/records.md (in the repository and the source distribution). An example
    ships with the package:
    ecarte_sim/analysis/practice/examples/treatise_a_y.json.
    """
    from ecarte_sim.api.practice import PlayerError, RecordError
    from ecarte_sim.api.practice import review as review_record
    try:
        reviewed = review_record(file, coach=not no_coach, players=players)
    except RecordError as exc:
        raise click.UsageError(one_line(f"{file}: {exc}")) from None
    except PlayerError as exc:
        raise click.UsageError(f"--player {exc}") from None
    record, breaches, annotation = reviewed.record, reviewed.breaches, reviewed.coach
    players = record["players"]
    summary = reviewed.to_dict()
    if as_json:
        emit(summary)
    else:
        score = "-".join(f"{p} {record['score'][p]}" for p in players)
        won = f", {record['winner']} wins" if record.get("winner") else ", in progress"
        say = lambda text: click.echo(one_line(text))  # noqa: E731
        say(f"{file}: {players[0]} v {players[1]}, {len(record['deals'])} deal"
            f"{'s' if len(record['deals']) != 1 else ''}, {score}{won}")
        if breaches:
            for law, reason in breaches:
                say(f"{law}: {reason}")
        else:
            say("keeps the laws")
        if annotation:
            for line in _annotation_lines(annotation, record):
                say(line)
    if breaches:
        raise click.exceptions.Exit(1)


#: What :func:`one_line` escapes: C0 and C1 controls, the line and paragraph separators,
#: and the bidirectional controls (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069),
#: which reorder what a terminal shows (a name with U+202E could make a line read backwards).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def one_line(text: str) -> str:
    """``text`` as one line: every control character (a newline in a player's name, an
    escape sequence, a bidirectional override) written as its escape, so that a record
    cannot forge lines or reorder them."""
    return _UNSAFE.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"),
                       str(text))


def _annotation_lines(annotation, record: dict | None = None) -> list[str]:
    """The coach's annotation as text: per deal each graded decision's line and the
    double-dummy replay's, then the summary. A deal with neither says why (what the
    record does not give, e.g. a deal the treatise only summarises)."""
    lines = []
    if not isinstance(annotation, dict):
        return lines
    told = {d.get("number"): d for d in (record or {}).get("deals", [])
            if isinstance(d, dict)}
    for d in annotation.get("deals", []):
        lines.append(f"deal {d.get('number')}:")
        before = len(lines)
        for v in d.get("verdicts", []):
            lines.append(f"  {v.get('by')} ({v.get('kind')}): "
                         f"{v.get('text') or v.get('grade')}")
        replay = d.get("replay") or {}
        if replay.get("known"):
            lines.append(f"  replay: {replay.get('text')}; best line "
                         + " ".join(x["card"] for x in replay.get("best_line", [])))
        if len(lines) == before:
            unknown = (told.get(d.get("number")) or {}).get("unknown") or []
            lines.append("  nothing to grade: the record does not give "
                         + ", ".join(map(str, unknown)) if unknown else
                         "  nothing to grade: no decision of the graded players, no play "
                         "to replay")
    if annotation.get("error"):
        return [f"coach: {annotation['error']}"]
    summary = annotation.get("summary") or {}
    if summary.get("text"):
        lines.append(f"coach: {summary['text']}")
    return lines


COMMANDS = [review]
