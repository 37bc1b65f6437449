"""Every command at its defaults, every example of every ``--help``, and the defaults the
help states in words.

* Every option of every command is left at its default by at least one run of
  :data:`RUNS` (the command in-process, exit 0, no traceback): a default that fails with
  the defaults around it fails here, as ``advise ... --turn-up 9H --against treatise`` did
  ("at most 32768 deals per turn-up"). The options whose default is a long study (an
  equilibrium, a report of a million deals, ...) are named, each with its reason, in
  :data:`NOT_AT_DEFAULT`; sizes that are cheap are left at their defaults, the main job's
  included (``claims`` with no option at all), and ``serve`` runs at its defaults with the
  server itself replaced.
* Every ``ecarte-sim ...`` line of every command's ``--help`` (its examples) runs and exits
  0, at a small size (``helpers.SMALL``, and :data:`EXAMPLE_SIZES`), writing into a
  temporary folder; the lines that start a server are skipped by design (:data:`SKIPPED`),
  those the docs show too run in tests/project/test_docs.py, and two that no size option
  makes small run with ``-m slow`` (:data:`SLOW`).
* A default written into a help text (``[default: 64]`` where click cannot show it) is the
  one the code uses: ``--worlds`` said 16 in ``advise`` and ``equilibrium`` while the
  settings' default was 64.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import click
import pytest

from helpers import REPO, invoke, small_command

HAND = "QH AH 7H KS KD"
EXAMPLE_RECORD = str(REPO / "analysis" / "practice" / "examples" / "treatise_a_y.json")


@dataclass
class DefaultRun:
    """``ecarte-sim COMMAND ARGS`` (``stdin``: what ``--batch -`` reads)."""
    command: str
    args: list[str]
    stdin: bytes | None = None


RUNS: list[DefaultRun] = [
    DefaultRun("solve", [HAND, "KH JH 9H 8H 9C", "--trump", "TH"]),
    DefaultRun("solve", ["--batch", "-"], b"QH AH 7H KS KD | KH JH 9H 8H 9C | TH\n"),
    DefaultRun("classify", [HAND, "--trump", "TH"]),
    DefaultRun("deal", ["--seed", "7", "--index", "1"]),
    DefaultRun("play", ["--seed", "1", "--index", "5"]),
    DefaultRun("game", ["--seed", "1"]),
    DefaultRun("simulate", ["--deals", "2000"]),
    DefaultRun("scores", []),
    DefaultRun("hand", [HAND, "--trump", "H"]),
    DefaultRun("claims", []),                       # the main job, as the README runs it
    DefaultRun("strategy", ["--deals-per-state", "2", "--max-deals-per-state", "2",
                            "--fresh-deals", "1000"]),
    DefaultRun("advise", [HAND, "--turn-up", "9H"]),
    DefaultRun("advise", [HAND, "--turn-up", "9H", "--against", "treatise"]),
    DefaultRun("advise", [HAND, "--trump", "H", "--discard"]),
    DefaultRun("infer", ["QS JS AH 7C JD", "--turn-up", "8D", "--history", "propose,refuse"]),
    DefaultRun("inference-value", ["--deals", "1000", "--v-deals", "1000", "--worlds", "8"]),
    DefaultRun("inference-claims", ["--worlds", "1"]),
    DefaultRun("equilibrium", ["--states", "100", "--score", "4-4", "--deals-per-state", "2",
                               "--max-deals-per-state", "2", "--fresh-deals", "1000",
                               "--value-deals", "1000", "--iterations", "1"]),
    DefaultRun("audit", ["--hands", "2", "--deals", "64"]),
    DefaultRun("chart", []),
    DefaultRun("review", [EXAMPLE_RECORD]),
    DefaultRun("cards", [HAND, "--turn-up", "9H"]),
    DefaultRun("exploit", ["KH 9H QS 8D 7C", "--turn-up", "TH", "--hands", "64"]),
    DefaultRun("exploitability", ["--models", "heuristic", "--per-stratum", "1",
                                  "--held-out", "1", "--opponent-hands", "64",
                                  "--share-deals", "1000"]),
    DefaultRun("piquet deal", []),
    DefaultRun("piquet simulate", ["--deals", "2000"]),
    DefaultRun("piquet partie", ["--parties", "200"]),
    DefaultRun("piquet report", ["--deals", "1000", "--dd-deals", "0", "--pimc-deals", "0",
                                 "--paired-deals", "1000", "--parties", "100",
                                 "--search-deals", "0"]),
    DefaultRun("piquet discard-search", ["--deals", "64"]),
    DefaultRun("bench", ["--deals", "2000", "--reference-deals", "100", "--pimc-deals", "100",
                         "--no-startup", "--web-games", "2", "--web-finished", "0",
                         "--exploit-worlds", "4"]),
    DefaultRun("serve", []),                        # the server itself replaced: below
    DefaultRun("stronger", ["--deals", "20"]),
    DefaultRun("card-regret", ["--per-cell", "1", "--worlds", "16"]),
    DefaultRun("every-decision", ["--score", "4-3", "--later-deals", "8192", "--later-steps",
                                  "1", "--deals-per-state", "2", "--max-deals-per-state", "4",
                                  "--budget", "0.5", "--value-deals", "4096"]),
    DefaultRun("versus", ["--deals", "4096", "--games", "16"]),
]

#: The options no run of :data:`RUNS` leaves at its default, and why: each default is a
#: long run (a study of minutes to hours on the project's 2-core machine), so the runs set
#: a small size. Every other option of every command is left at its default by a run.
LONG = "its default is a long study: a run sets it small"
NOT_AT_DEFAULT: dict[str, dict[str, str]] = {
    "strategy": dict.fromkeys(["--deals-per-state", "--max-deals-per-state", "--fresh-deals"],
                              LONG),
    "inference-value": dict.fromkeys(["--deals", "--v-deals", "--worlds"], LONG),
    "inference-claims": {"--worlds": LONG},
    "equilibrium": dict.fromkeys(["--states", "--score", "--deals-per-state",
                                  "--max-deals-per-state", "--fresh-deals", "--value-deals",
                                  "--iterations"], LONG),
    "audit": dict.fromkeys(["--hands", "--deals"], LONG),
    "exploit": {"--hands": "its default, every opponent hand (4,096 histories after an "
                           "exchange), takes most of a minute"},
    "exploitability": dict.fromkeys(["--models", "--per-stratum", "--held-out",
                                     "--opponent-hands", "--share-deals"], LONG),
    "piquet report": dict.fromkeys(["--deals", "--dd-deals", "--pimc-deals", "--paired-deals",
                                    "--parties", "--search-deals"], LONG),
    "piquet discard-search": {"--deals": "its default, 2,048 deals searched, takes over a "
                                         "minute"},
    "bench": {**dict.fromkeys(["--deals", "--reference-deals", "--pimc-deals", "--web-games",
                               "--web-finished", "--exploit-worlds"], LONG),
              "--no-startup": "the start-up section times fresh processes of a dozen "
                              "commands (test_cli's bench tests run it)"},
    "stronger": {"--deals": LONG},
    "card-regret": dict.fromkeys(["--per-cell", "--worlds"], LONG),
    "every-decision": dict.fromkeys(["--score", "--later-deals", "--later-steps",
                                     "--deals-per-state", "--max-deals-per-state", "--budget",
                                     "--value-deals"], LONG),
    "versus": dict.fromkeys(["--deals", "--games"], LONG),
}


def leaf_commands(group: click.Group = None, prefix: str = "") -> dict[str, click.Command]:
    """Every command of ``ecarte-sim`` by its name (``piquet deal`` for a group's)."""
    from ecarte_sim.apps.cli import main
    group = group or main
    ctx = click.Context(group)
    found = {}
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            found.update(leaf_commands(command, f"{prefix}{name} "))
        else:
            found[f"{prefix}{name}"] = command
    return found


def options_of(command: click.Command) -> dict[str, click.Option]:
    """The command's options by their first long name (``--help`` left out)."""
    return {next(n for n in o.opts if n.startswith("--")): o for o in command.params
            if isinstance(o, click.Option) and o.name != "help"}


def given_options(command: click.Command, args: list[str]) -> set[str]:
    """The options ``args`` gives (by their first long name)."""
    given = set()
    for name, option in options_of(command).items():
        names = option.opts + option.secondary_opts
        if any(a in names or a.split("=", 1)[0] in names for a in args if a.startswith("-")):
            given.add(name)
    return given


# --------------------------------------------------------------------------- every default

@pytest.mark.quick
def test_every_option_of_every_command_is_left_at_its_default_by_a_run():
    """Each option's default is run by some run of RUNS, or named in NOT_AT_DEFAULT with its
    reason (and only then): a new option, or a run changed, fails here until decided."""
    commands = leaf_commands()
    assert {run.command for run in RUNS} == set(commands), "a command without a default run"
    never = {}
    for name, command in commands.items():
        options = options_of(command)
        at_default = set()
        for run in (r for r in RUNS if r.command == name):
            at_default |= set(options) - given_options(command, run.args)
        left = {o for o in set(options) - at_default if not options[o].required}
        if left:
            never[name] = left
    assert never == {name: set(why) for name, why in NOT_AT_DEFAULT.items()}


@pytest.fixture
def no_server(monkeypatch):
    """``serve`` at its defaults returns at once: the server (uvicorn, until Ctrl-C), the
    check that the default port is free (a real server may hold it) and the warm-up thread
    (a game played in the background, which would outlive the test) are replaced; the
    options' defaults still reach them."""
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from ecarte_sim.apps.cli import serve
    from ecarte_sim.apps.practice import random_play
    from ecarte_sim.apps.web import server
    calls = []
    monkeypatch.setattr(server, "serve", lambda app, host, port, on_ready=None, url_host=None:
                        calls.append((host, port)))
    monkeypatch.setattr(serve, "_check_listen", lambda host, port: None)
    monkeypatch.setattr(random_play, "warm_up", lambda table=None: None)
    return calls


@pytest.mark.parametrize("run", RUNS, ids=lambda r: " ".join([r.command, *r.args])[:60])
def test_every_command_runs_at_its_defaults(run, capsys, request, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                     # nothing is written beside the tests
    calls = request.getfixturevalue("no_server") if run.command == "serve" else None
    code, out, err = invoke(capsys, *run.command.split(), *run.args, stdin=run.stdin)
    assert "Traceback" not in out + err, err[-3000:]
    assert code == 0, (run, err[-3000:])
    if calls is not None:
        assert calls == [("127.0.0.1", 8034)]
    else:
        assert out.strip(), f"{run.command} printed nothing"


# --------------------------------------------------------------------------- the help's examples

#: Sizes set for the help's examples besides ``helpers.SMALL`` (the docs' commands have
#: their own small sizes; these are the commands only a help shows at full size).
EXAMPLE_SIZES: dict[str, dict[str, str | None]] = {
    "audit": {"--hands": "2", "--deals": "64"},
    "equilibrium": {"--states": "100", "--score": "4-4", "--deals-per-state": "2",
                    "--max-deals-per-state": "2", "--fresh-deals": "1000",
                    "--value-deals": "1000", "--iterations": "1"},
    "serve": {"--load-test": "2", "--actions": "4"},
}
#: Example lines not run, by design: (a regular expression matched at the line's start,
#: the reason).
SKIPPED = [(r"ecarte-sim serve(?!.*--load-test)", "starts the web server, which runs until "
                                                  "Ctrl-C (tests/apps/web drive it)")]
#: Example lines that run under ``-m slow`` only (the long cross-checks): no size option
#: makes them small. (a regular expression, the reason)
SLOW = [(r"ecarte-sim strategy --against equilibrium --decision both",
         "the first discards' best responses play every discard rule on every state: minutes "
         "at the smallest sizes"),
        (r"ecarte-sim strategy --all-scores", "every canonical state at all 25 scores: minutes "
                                              "at the smallest sizes")]
#: The pages whose shell commands tests/project/test_docs.py runs: an example shown there
#: too is run there, not twice.
DOC_PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def help_examples() -> list[tuple[str, str]]:
    """(command, line) of every ``ecarte-sim ...`` line of every command's help (the
    group's too), continuation lines joined."""
    from ecarte_sim.apps.cli import main
    found = []

    def walk(command, name):
        lines, carry = [], ""
        for line in (command.help or "").splitlines():
            if line.rstrip().endswith("\\"):
                carry += line.strip()[:-1].rstrip() + " "
                continue
            lines.append(carry + line.strip())
            carry = ""
        found.extend((name or "ecarte-sim", line) for line in lines
                     if line.startswith("ecarte-sim "))
        if isinstance(command, click.Group):
            ctx = click.Context(command)
            for sub in command.list_commands(ctx):
                walk(command.get_command(ctx, sub), f"{name} {sub}".strip())

    walk(main, "")
    return found


EXAMPLES = help_examples()


def example_params():
    for command, line in EXAMPLES:
        slow = next((why for pattern, why in SLOW if re.match(pattern, line)), None)
        yield pytest.param(command, line, id=line[:70],
                           marks=[pytest.mark.slow] if slow else [])


def shown_in_the_docs(line: str) -> bool:
    return any(line in page.read_text(encoding="utf-8").splitlines() for page in DOC_PAGES)


@pytest.mark.quick
def test_the_help_examples_are_found():
    lines = [line for _, line in EXAMPLES]
    assert len(lines) >= 25
    assert 'ecarte-sim advise "QH AH 7H KS KD" --trump H --score 2-2 --against treatise ' \
           '--json' in lines
    assert any(line.startswith("ecarte-sim equilibrium --play dd --out results/equilibrium-dd"
                               " --ship") for line in lines)       # a continued line, joined
    for _, line in EXAMPLES:
        assert "\\" not in line, line


@pytest.mark.parametrize("command,line", list(example_params()))
def test_every_help_example_runs(command, line, capsys, tmp_path, monkeypatch):
    import shlex
    reason = next((why for pattern, why in SKIPPED if re.match(pattern, line)), None)
    if reason:
        pytest.skip(reason)
    if shown_in_the_docs(line):
        pytest.skip("shown in the docs as well: tests/project/test_docs.py runs it")
    monkeypatch.chdir(tmp_path)
    args = small_command(shlex.split(line)[1:], tmp_path, EXAMPLE_SIZES)
    code, out, err = invoke(capsys, *args)
    assert "Traceback" not in out + err, (args, err[-3000:])
    assert code == 0, (args, err[-3000:])
    assert out.strip(), f"{args} printed nothing"


# --------------------------------------------------------------------------- defaults in words

def stated_default(command: click.Command, option: str) -> str:
    """What the help of ``option`` says its default is (``[default: ...]`` in its text)."""
    text = " ".join(options_of(command)[option].help.split())
    return re.search(r"\[default: ([^\]]+)\]", text)[1]


@pytest.mark.quick
def test_the_worlds_default_the_help_states_is_the_settings_default():
    from ecarte_sim.engine.ecarte.settings import DEFAULT_WORLDS, EcarteSettings
    commands = leaf_commands()
    for name in ("advise", "equilibrium"):
        assert stated_default(commands[name], "--worlds") == str(DEFAULT_WORLDS), name
    assert EcarteSettings().worlds == DEFAULT_WORLDS == 64


def test_advise_against_the_treatise_plays_the_stated_worlds(capsys):
    """The worlds a PIMC run against the treatise uses are the ones its help states."""
    from ecarte_sim.engine.ecarte.settings import DEFAULT_WORLDS
    code, out, err = invoke(capsys, "advise", HAND, "--trump", "H", "--against", "treatise",
                            "--play", "pimc", "--deals", "100", "--json")
    assert code == 0, err
    assert json.loads(out)["settings"]["worlds"] == DEFAULT_WORLDS


@pytest.mark.quick
def test_the_sizes_the_help_states_are_the_code_s():
    """The defaults written in words into the help of the strategy commands (click shows
    None) are those the library applies."""
    from ecarte_sim.analysis.ecarte.advice.first_decision import TREATISE_DEALS
    from ecarte_sim.analysis.ecarte.solving.proposal_game import Sampling
    from ecarte_sim.engine.ecarte.deals.action_values import CHECK_DEALS
    from ecarte_sim.engine.ecarte.settings import PlayModel
    from ecarte_sim.engine.sizes import DEFAULT_CHUNK
    commands = leaf_commands()
    plain, pimc = Sampling.for_play(PlayModel.DD), Sampling.for_play(PlayModel.PIMC)
    for name in ("strategy", "equilibrium"):
        assert stated_default(commands[name], "--deals-per-state") == \
            f"{plain.first}; {pimc.first} under pimc"
        assert stated_default(commands[name], "--max-deals-per-state") == \
            f"{plain.most}; {pimc.most} under pimc"
    assert stated_default(commands["advise"], "--deals").startswith(
        f"2^14 against the equilibrium, 2^{TREATISE_DEALS.bit_length() - 1} against the "
        f"treatise (2^{CHECK_DEALS.bit_length() - 1} with the turn-up given")
    assert stated_default(commands["simulate"], "--chunk").startswith(f"{DEFAULT_CHUNK};")


# --------------------------------------------------------------------------- issue 52's regressions

def test_advise_against_the_treatise_with_the_turn_up_runs_at_its_defaults(capsys):
    """It failed "at most 32768 deals per turn-up": the default was 2^16 deals a turn-up,
    which the deals a turn-up has room for (2^15) cannot hold."""
    code, out, err = invoke(capsys, "advise", HAND, "--turn-up", "9H", "--score", "0-0",
                            "--against", "treatise", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["n"] == 1 << 15 and result["turn_up"] == "9H"
    code, out, err = invoke(capsys, "advise", HAND, "--trump", "H", "--against", "treatise",
                            "--json")
    assert code == 0, err
    assert json.loads(out)["n"] >= 1 << 16               # the suit alone: 2^16 over the turn-ups
