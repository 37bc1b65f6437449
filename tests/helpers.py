"""Plain helpers several test files share: how long a test waits (a backstop, never a
measure of speed), the in-process ``ecarte-sim`` runner behind the ``cli`` fixture of
conftest.py and the checks of its output contract, commands at a small size, piquet hands
written as text, a practice game played out by random legal choices.

Test files import them as ``from helpers import ...`` (pytest puts tests/ on the path);
a test module never imports from another test module.
"""

from __future__ import annotations

import io
import json
import random
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ecarte_sim.apps.practice.session import Table

#: The repository's root, the folder of the package's sources (a checkout, or an
#: unpacked sdist), and the tests' data files.
REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"


# --------------------------------------------------------------------------- waiting

#: How long a test waits for a child process, a server or a page before it gives up: a
#: backstop so that a blocked test fails rather than hold the suite for ever, never a
#: measure of speed. An hour: no command a test runs comes near it, even compiling its
#: kernels on a cold cache with the machine's cores busy. A spinning hang is caught by CPU
#: time instead (:func:`cpu_limit`), which a busy machine does not inflate.
BLOCKED = 3600.0


def cpu_limit(seconds: int):
    """A ``preexec_fn`` for :mod:`subprocess`: the child is killed (SIGXCPU, then SIGKILL)
    once it has used ``seconds`` of CPU time — how much work it did, not how long the
    machine took to do it."""
    def limit():
        import resource
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))
    return limit


# --------------------------------------------------------------------------- the command line

class Run(NamedTuple):
    code: int
    out: str
    err: str


def invoke(capsys, *args: str, stdin: bytes | None = None) -> Run:
    """Run ``ecarte-sim ARGS`` in-process through the console entry point
    (``ecarte_sim.apps.cli.run``), catching ``SystemExit``; stdin (bytes) feeds
    ``--batch -``. Any exit code: :func:`run_cli` adds the output contract's checks."""
    from ecarte_sim.apps.cli import run

    capsys.readouterr()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        run(list(args))
        code = 0
    except SystemExit as exc:
        code = 0 if exc.code is None else exc.code
    finally:
        sys.stdin = saved
    out, err = capsys.readouterr()
    return Run(code, out, err)


def run_cli(capsys, *args: str, stdin: bytes | None = None) -> Run:
    """:func:`invoke`, then no traceback and exit code 0 or 2. Tests take the ``cli``
    fixture (conftest.py), which is this with ``capsys`` bound."""
    r = invoke(capsys, *args, stdin=stdin)
    assert "Traceback" not in r.out and "Traceback" not in r.err, (args, r.out, r.err)
    assert r.code in (0, 2), (args, r.code, r.err)
    return r


def one_line_error(r: Run) -> str:
    """The single ``Error:`` line of a failed call (checks the whole contract)."""
    assert r.code == 2, r
    assert r.out == "", r
    lines = r.err.splitlines()   # str.splitlines: also \x85, \u2028, \x0b, ...
    assert len(lines) == 1 and r.err.endswith("\n"), r.err[:500]
    assert lines[0].startswith("Error: "), lines[0][:500]
    return lines[0]


def names(message: str, token: str) -> bool:
    return repr(token) in message or repr(token)[1:-1] in message


def json_only(r: Run, keep_provenance: bool = False) -> dict:
    """Exit 0 and exactly one JSON object on one line of stdout, nothing on stderr; the
    object carries its provenance (command, version), which is removed from the answer
    unless ``keep_provenance``."""
    assert r.code == 0, r
    assert r.err == "", r.err
    assert r.out.endswith("\n") and len(r.out.splitlines()) == 1, r.out[:500]
    obj = json.loads(r.out)
    assert isinstance(obj, dict)
    prov = obj["provenance"] if keep_provenance else obj.pop("provenance")
    assert prov["command"].startswith("ecarte-sim ") and prov["version"], prov
    return obj


# --------------------------------------------------------------------------- commands at a small size
#
# The commands the docs show (tests/project/test_docs.py) and the examples of each command's
# --help (tests/apps/cli/test_defaults.py) run at a small size.

#: Size options per command: each is set to the value given (replacing the page's value, or
#: appended when the page gives none); a value of None is a flag, appended if absent.
SMALL: dict[str, dict[str, str | None]] = {
    "claims": {"--deals": "100"},
    "scores": {"--deals": "2000"},
    "simulate": {"--deals": "2000"},
    "hand": {"--deals": "500"},                 # not with --exact (see small_command)
    "advise": {"--deals": "500"},
    "strategy": {"--deals-per-state": "2", "--max-deals-per-state": "2",
                 "--fresh-deals": "1000"},
    "infer": {"--samples": "1000"},
    "inference-value": {"--deals": "1000", "--worlds": "8", "--v-deals": "1000"},
    "inference-claims": {"--worlds": "1"},
    "bench": {"--deals": "2000", "--reference-deals": "100", "--pimc-deals": "100",
              "--no-startup": None, "--web-games": "2", "--web-finished": "0",
              "--web-think": "0.02", "--exploit-worlds": "4"},
    "exploitability": {"--opponent-hands": "64", "--share-deals": "1000"},
    "every-decision": {"--later-deals": "8192", "--later-steps": "1", "--deals-per-state": "2",
                       "--max-deals-per-state": "4", "--budget": "0.5",
                       "--value-deals": "4096", "--score": "4-3"},
    "versus": {"--deals": "4096", "--games": "16"},
    "audit": {"--hands": "4", "--deals": "256"},
    "piquet simulate": {"--deals": "2000"},
    "piquet partie": {"--parties": "200"},
    "piquet report": {"--deals": "1000", "--dd-deals": "0", "--pimc-deals": "0",
                      "--paired-deals": "1000", "--parties": "100", "--search-deals": "0"},
}
#: Replaced where given, never added (they only make sense with other options).
SMALL_IF_GIVEN: dict[str, dict[str, str]] = {
    "strategy": {"--iterations": "1"},
    "claims": {"--max-deals": "1000"},
}
#: Options dropped where given (a precision rule would override the small --deals).
DROPPED = {"--precision"}
#: Options whose value is a file or directory the command writes: moved into tmp.
WRITTEN = {"--out", "--run-dir", "--ship"}


def small_command(args: list[str], tmp: Path,
                  more: dict[str, dict[str, str | None]] | None = None) -> list[str]:
    """``args`` (after ``ecarte-sim``) at a small size, writing into ``tmp``: the sizes of
    :data:`SMALL`, and of ``more`` (command -> options) where given."""
    name = " ".join(args[:2]) if args[0] == "piquet" else args[0]
    out, i = [], 0
    while i < len(args):
        a = args[i]
        key, eq, value = a.partition("=")
        if key in DROPPED:
            i += 1 if eq else 2
            continue
        if key in WRITTEN:
            raw = value if eq else args[i + 1]
            out += [key, str(tmp / re.sub(r"[^\w.-]+", "_", raw))]
            i += 1 if eq else 2
            continue
        out.append(a)
        i += 1
    sizes = {**SMALL.get(name, {}), **(more or {}).get(name, {})}
    if name == "hand" and "--exact" in out:
        sizes.pop("--deals", None)
    for option, value in SMALL_IF_GIVEN.get(name, {}).items():
        if option in out:
            sizes[option] = value
    for option, value in sizes.items():
        if value is None:
            if option not in out:
                out.append(option)
        elif option in out:
            out[out.index(option) + 1] = value
        else:
            out += [option, value]
    return out


# --------------------------------------------------------------------------- piquet hands

def H(text: str) -> int:
    """A piquet hand written as text, as a mask (0 for the empty text)."""
    from ecarte_sim.engine.cards import PIQUET, parse_hand

    return int(parse_hand(text, None, PIQUET)) if text else 0


def masks_of(sink: dict, hand: int) -> tuple[int, int, int]:
    """A case's sink (category -> "all" or the cards left out) as the three masks of what
    ``hand`` leaves uncalled (point, sequences, sets)."""
    return tuple(hand if sink.get(c) == "all" else H(sink.get(c, ""))
                 for c in ("point", "sequences", "sets"))


# --------------------------------------------------------------------------- the practice table

def random_action(view: dict, rng: random.Random) -> dict:
    """One of the person's legal actions, chosen at random."""
    legal = view["legal"]
    phase = view["phase"]
    if phase == "discard":
        n = rng.randint(legal["min"], legal["max"])
        return {"type": "discard", "cards": rng.sample(view["hand"], n)}
    if phase == "king":
        return {"type": "king", "announce": rng.random() < 0.5}
    if phase == "play":
        return {"type": "card", "card": rng.choice(legal["cards"])}
    return {"type": rng.choice(legal["actions"])}


def play_out(table: Table, rng: random.Random, stop=None) -> dict:
    view = table.view()
    while view["phase"] != "game_over" and not (stop and stop(view)):
        view = table.act(random_action(view, rng))
    return view
