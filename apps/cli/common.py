"""Plumbing every command of the ``ecarte-sim`` CLI shares: one-line errors (exit 2), the
JSON emitter with provenance, progress, thread count, and the long-run options
(checkpoint, resume, task size, Dask backend). No science here.

Bad input (a card, a hand, a seed, a count) ends with a one-line error and
exit code 2, never a traceback. ``--json`` prints exactly one JSON object.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import importlib
import importlib.util
import json
import os
import sys
import tempfile
import threading
import time

import click

# numba is imported inside the functions that use it (the compile notice, --threads): the
# commands that read only the shipped table, and --help, start without it.

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

# Options many commands share, each a reusable decorator.
JSON = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
PRETTY = click.option("--pretty", is_flag=True, help="Suit symbols (K♠ 10♥) instead of ASCII.")
INDEX = click.option("--index", type=click.IntRange(0, 2**44 - 1), required=True,
                     help="Deal index in [0, 2^44).")
THREADS = click.option("--threads", type=int, default=None,
                       help="Worker threads (default: all; does not change the result).")


def seed_option(required: bool = False, help: str = "Seed in [0, 2^64)."):
    """``--seed``: required, or 0 by default."""
    if required:
        return click.option("--seed", type=click.IntRange(0, 2**64 - 1), required=True,
                            help=help)
    return click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0,
                        show_default=True, help=help)


def quiet_option(help: str = "No progress bar."):
    return click.option("--quiet", "-q", is_flag=True, help=help)
#: Characters that end a line (str.splitlines), shown escaped in an error message.
_LINE_BREAKS = {ord(c): repr(c)[1:-1] for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}


class FileError(click.ClickException):
    """A file or directory that cannot be read or written (one line, exit code 2)."""
    exit_code = 2


class CompileNotice:
    """A compilation said on stderr: numba compiles each kernel into its cache the first
    time a command needs it (or after the code changed), so a command that uses kernels no
    command has run before compiles those, once. How long that takes depends on the
    machine and its load (a cold ``advise`` took 88-216 s on a busy 2-core machine), so no
    figure is announced: the time is measured as it goes. One line as the first kernel
    starts compiling, then the progress (on a terminal one status line, rewritten, and
    cleared when a kernel is done; in a log a plain line every 15 s), and when the command
    has succeeded one line: how many functions of which parts of the engine took how long
    to compile. Nothing on a warm run (numba fires its compile event only on a cache miss)
    and nothing under ``--quiet`` or ``--json``."""

    _active = None
    EVERY = 15.0
    #: Set by :func:`run_group` for the console script (``argv`` from the shell): a program
    #: or a test calling ``run(argv)`` in-process, or the Python API, gets no notice.
    enabled = False

    def __init__(self, group_ctx: click.Context):
        self.ctx = group_ctx
        self.tty = sys.stderr.isatty()
        self.start = None
        self.functions = 0
        self.parts: dict[str, None] = {}    # the engine's parts compiled, in order
        self.depth = 0
        self.began = 0.0            # when the current outermost compilation began
        self.spent = 0.0            # seconds spent compiling, outermost compilations summed
        self.last = time.monotonic()
        self.lock = threading.Lock()
        self.listener = None
        self.finder = None
        if "numba" in sys.modules:
            self.listen()
        else:   # no compilation before numba is imported: listen from its import on, if any
            self.finder = _AfterImport("numba", self.listen)
            sys.meta_path.insert(0, self.finder)

    def listen(self) -> None:
        """Listen to numba's compile events."""
        from numba.core import event

        notice = self

        class _Listener(event.Listener):
            def on_start(self, ev):
                notice.started(ev.data["dispatcher"])

            def on_end(self, ev):
                notice.ended(ev.data["dispatcher"])

        self.listener = _Listener()
        event.register("numba:compile", self.listener)

    @classmethod
    def install(cls, ctx: click.Context):
        """The notice for the command ``ctx`` is about to run (None if one is already
        installed, or the command runs with ``--quiet``/``--json``)."""
        if not cls.enabled or cls._active is not None or any(
                a in ("--json", "--quiet", "-q") for a in ctx.args):
            return None
        cls._active = cls(ctx)
        return cls._active

    def remove(self) -> None:
        if self.finder in sys.meta_path:
            sys.meta_path.remove(self.finder)
        if self.listener is not None:
            from numba.core import event
            event.unregister("numba:compile", self.listener)
        self._clear()
        CompileNotice._active = None

    def summary(self) -> None:
        """The compilation's measured time, once the command has succeeded (nothing when
        nothing compiled)."""
        if self.start is not None:
            s = "" if self.functions == 1 else "s"
            click.echo(f"compiled {self.functions} function{s} of {', '.join(self.parts)} in "
                       f"{self.spent:.0f} s (each kernel once: later runs of any command load "
                       "it from numba's cache)", err=True)

    def started(self, dispatcher) -> None:
        if not getattr(dispatcher.py_func, "__module__", "").startswith("ecarte_sim."):
            return
        with self.lock:
            now = time.monotonic()
            self.functions += 1
            self.parts.setdefault(part_of(dispatcher.py_func.__module__))
            if self.depth == 0:
                self.began = now
            self.depth += 1
            if self.start is None:
                self.start = now
                clear = "\r\x1b[2K" if self.tty else ""      # on a terminal: off a bar's line
                click.echo(f"{clear}compiling the kernels this command needs that numba "
                           "has not cached yet (each kernel once, for every command) ...",
                           err=True)
                self.last = now
            name = dispatcher.py_func.__name__
            if self.tty and now - self.last >= 0.2:
                self.last = now
                click.echo(f"\r\x1b[2Kcompiling: {self.functions} functions, "
                           f"{now - self.start:.0f} s ({name})", err=True, nl=False)
            elif not self.tty and now - self.last >= self.EVERY:
                self.last = now
                click.echo(f"compiling: {self.functions} functions, {now - self.start:.0f} s",
                           err=True)

    def ended(self, dispatcher) -> None:
        if not getattr(dispatcher.py_func, "__module__", "").startswith("ecarte_sim."):
            return
        with self.lock:
            self.depth = max(0, self.depth - 1)
            if self.depth == 0:
                self.spent += time.monotonic() - self.began
                self._clear()

    def _clear(self) -> None:
        if self.tty and self.start is not None:
            click.echo("\r\x1b[2K", err=True, nl=False)


def part_of(module: str) -> str:
    """The part of the package a kernel's module is in, as the notice names it:
    ``ecarte_sim.engine.ecarte.search.solver`` → ``ecarte.search``, ``ecarte_sim.engine.rng``
    → ``rng``."""
    parts = module.split(".")[1:]
    if parts[:1] in (["engine"], ["analysis"], ["api"], ["apps"]):
        parts = parts[1:]
    return ".".join(parts[:2] if len(parts) > 2 else parts[:1]) or module


class _AfterImport:
    """A meta path finder that runs ``then()`` as soon as the module ``name`` has been
    imported, then steps aside (it finds nothing itself: the module is loaded as always)."""

    def __init__(self, name: str, then):
        self.name, self.then = name, then

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            load = spec.loader.exec_module

            def exec_module(module):
                load(module)
                self.then()

            spec.loader.exec_module = exec_module
        return spec


def _cluster_errors() -> tuple:
    """``ClusterError`` if the cluster module is loaded (it cannot be raised otherwise):
    looked up, not imported, so that a command that never starts a cluster need not
    import numpy and numba to catch one."""
    cluster = sys.modules.get("ecarte_sim.engine.cluster")
    return () if cluster is None else (cluster.ClusterError,)


class EcarteGroup(click.Group):
    """Turns the engine's input errors into click usage errors, and failed reads or
    writes of files into one-line errors (exit code 2).

    ``lazy``: commands by name, each with the module of this package that defines it (in
    its ``COMMANDS``), imported only when the command is run or listed (click's lazy
    group): a command's start-up pays for its own imports, not for every command's."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx):
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx, cmd_name):
        if cmd_name not in self.commands and cmd_name in self.lazy:
            self.add_command(load_command(self.lazy[cmd_name], cmd_name))
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx, args):
        # An unknown command: one usage error that suggests from every command, loaded or
        # not (click's own suggestion, where it makes one, sees only those loaded so far;
        # click 8.1, the floor, makes none).
        name = click.utils.make_str(args[0]) if args else ""
        if (name and not ctx.resilient_parsing and not name.startswith("-")
                and self.get_command(ctx, name) is None and ctx.token_normalize_func is None):
            close = difflib.get_close_matches(name, self.list_commands(ctx))
            hint = ("" if not close else
                    " Did you mean {}?".format(" or ".join(repr(c) for c in close)))
            raise click.UsageError(f"No such command {name!r}.{hint}", ctx)
        return super().resolve_command(ctx, args)

    def invoke(self, ctx):
        notice = CompileNotice.install(ctx)
        try:
            result = super().invoke(ctx)
            if notice is not None:
                notice.summary()
            return result
        except KeyboardInterrupt:
            # Ctrl-C: one message (a long run's own, or this one) and exit code 130;
            # not click's blank line and "Aborted."
            if not _Interrupted.said:
                if sys.stderr.isatty():
                    click.echo("\r\x1b[2K", err=True, nl=False)
                click.echo("interrupted", err=True)
            raise click.exceptions.Exit(130) from None
        except (ValueError, *_cluster_errors()) as exc:     # CardError is a ValueError
            if isinstance(exc, click.ClickException):
                raise
            raise click.UsageError(str(exc)) from None
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            where = f" {exc.filename!r}" if exc.filename else ""
            raise FileError(f"cannot use{where}: {exc.strerror or exc}") from None
        finally:
            if notice is not None:
                notice.remove()


def load_command(module: str, name: str) -> click.Command:
    """The command ``name`` of the module ``module`` of this package (in its
    ``COMMANDS``)."""
    commands = importlib.import_module(f"{__package__}.{module}").COMMANDS
    found = [c for c in commands if c.name == name]
    if len(found) != 1:
        raise LookupError(f"{__package__}.{module} defines no command {name!r}")
    return found[0]


def run_group(main: click.Group, argv: list[str] | None = None) -> None:
    """Console entry point: every error is one line on stderr (``Error: ...``).

    Usage errors and bad input exit with code 2, as click does, but without the
    usage banner, so that a script sees exactly one line.
    """
    CompileNotice.enabled = argv is None
    _Interrupted.said = False
    try:
        code = main.main(args=argv, prog_name="ecarte-sim", standalone_mode=False)
        if isinstance(code, int) and code != 0:
            sys.exit(code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        if isinstance(exc, click.BadParameter):
            exc.message = what_to_write(exc.message, exc.param)
        hint = ""
        if isinstance(exc, click.UsageError) and exc.ctx is not None:
            hint = f" (see '{exc.ctx.command_path} --help')"
        message = f"{exc.format_message()}{hint}".translate(_LINE_BREAKS)
        click.echo(f"Error: {message}", err=True)
        sys.exit(exc.exit_code)
    except click.Abort:
        # Ctrl-C (click turns it into Abort): one message, exit 130, no extra "Aborted."
        if not _Interrupted.said:
            click.echo("interrupted", err=True)
        sys.exit(130)
    finally:
        CompileNotice.enabled = False


def what_to_write(message: str, param: click.Parameter | None) -> str:
    """click's message for a number it cannot read (``'1e6' is not a valid integer
    range.``) names a type; this one names the mistake and what to write instead
    (``'1e6' is not written as a whole number: write 1000000``), with the range the option
    takes. Any other message is returned as it is."""
    import ast
    import math
    import re

    kind = getattr(param, "type", None)
    m = re.fullmatch(r"('.*'|\".*\") is not a valid (integer|float)( range)?\.", message, re.S)
    if m is None or not isinstance(kind, (click.types.IntParamType, click.types.FloatParamType)):
        return message
    raw = ast.literal_eval(m[1])
    lo, hi = getattr(kind, "min", None), getattr(kind, "max", None)
    where = f" ({kind._describe_range()})" if lo is not None or hi is not None else ""
    try:
        number = float(raw)
    except ValueError:
        number = math.nan
    default = getattr(param, "default", None)
    example = (default if isinstance(default, (int, float)) and not isinstance(default, bool)
               else lo)
    example = "" if example is None else f", e.g. {example}"
    if isinstance(kind, click.types.IntParamType):
        whole = math.isfinite(number) and number == int(number)
        if whole and (lo is None or int(number) >= lo) and (hi is None or int(number) <= hi):
            return f"{raw!r} is not written as a whole number: write {int(number)}"
        if whole:
            return (f"{raw!r} is not written as a whole number, and it is out of range: "
                    f"write one in digits{example}{where}")
        return f"{raw!r} is not a whole number: write one in digits{example}{where}"
    return f"{raw!r} is not a number: write one in digits{example}{where}"


def finite(obj):
    """JSON has no NaN or infinity: undefined figures (an empty class, n < 2) become null."""
    if isinstance(obj, float):
        return obj if obj == obj and abs(obj) != float("inf") else None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite(v) for v in obj]
    return obj


def emit(obj: dict, provenance: bool = True) -> None:
    """Print one JSON object; unless it has its own (the long commands'), add the
    provenance of a one-shot command: its name, its parsed parameters, the version."""
    if provenance and "provenance" not in obj:
        ctx = click.get_current_context(silent=True)
        if ctx is not None:
            from ecarte_sim.analysis.reports.provenance import provenance as made_by
            params = json.loads(json.dumps(ctx.params, default=str))
            name = ctx.command_path.split(" ", 1)[1] if " " in ctx.command_path else ""
            obj = {**obj, "provenance": made_by(name, params, params.get("seed"),
                                                params.get("n_deals"))}
    click.echo(json.dumps(finite(obj), ensure_ascii=False, allow_nan=False))


def command_line(name: str) -> str:
    """The command as typed, for a report's provenance (just ``ecarte-sim NAME`` when the
    command was not run from the shell, e.g. from a test)."""
    if sys.argv[1:2] == [name]:
        return "ecarte-sim " + " ".join(sys.argv[1:])
    return f"ecarte-sim {name}"


def writable_dir(out_dir: str | None) -> None:
    """Create ``--out`` before a long run and fail early (exit 2) if it cannot be written."""
    if out_dir is None:
        return
    try:
        os.makedirs(out_dir, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out_dir):
            pass
    except OSError as exc:
        raise click.BadParameter(f"cannot write to {out_dir!r}: {exc.strerror}",
                                 param_hint="--out") from None


#: Redirected progress: a plain line at least this often (seconds) and at each tenth.
PLAIN_EVERY = 30.0


class PlainProgress:
    """Progress for a log file (stderr not a terminal): plain lines, no ``\\r`` — one at
    each tenth of ``total`` done, or after :data:`PLAIN_EVERY` seconds without one,
    and one at the end. ``update(n)``: n more done."""

    def __init__(self, total: int, label: str):
        self.total, self.label, self.done = max(int(total), 0), label, 0
        self.start = self.last = time.monotonic()
        self.tenth = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n: int) -> None:
        self.done += int(n)
        now = time.monotonic()
        tenth = 10 * self.done // self.total if self.total else 10
        if tenth > self.tenth or now - self.last >= PLAIN_EVERY:
            self.tenth, self.last = tenth, now
            share = f" ({100 * self.done // self.total}%)" if self.total else ""
            click.echo(f"{self.label}: {self.done:,} of {self.total:,}{share}, "
                       f"{now - self.start:.0f} s", err=True)


def progress(enabled: bool, total: int, label: str):
    """A click progress bar on a terminal, plain lines (:class:`PlainProgress`) in a log,
    or a silent stand-in."""
    if enabled and sys.stderr.isatty():
        return click.progressbar(length=total, label=label, file=sys.stderr)
    if enabled:
        return PlainProgress(total, label)

    class _Silent:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def update(self, n):
            pass

    return _Silent()


def long_run_options(task_default: str, unit: str = "Deals"):
    """--run-dir, --resume, --task-size (checkpoint a long run, continue it after a crash)
    and --scheduler, --workers (run its tasks on a Dask cluster). ``unit``: what a task
    counts (deals, or parties)."""
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
                         help=f"{unit} per task (checkpoint, cluster job) [default: "
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
    from ecarte_sim.engine.runs import RunDir
    return RunDir(run_dir, {"command": command, "parameters": parameters, "seed": seed,
                            "block": task_size},
                  resume=resume, command_line=command_line(command.split()[0]))


_SCHEMES = ("tcp://", "tls://", "inproc://", "ucx://", "ws://", "wss://")


def _backend(scheduler: str | None, workers: int | None):
    """None (local threads) or a Dask backend for --scheduler / --workers."""
    if scheduler is None and workers is None:
        return None
    from ecarte_sim.engine.cluster import ClusterError, DaskBackend
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
    from ecarte_sim.engine.batch import execution
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
    """On Ctrl-C, say where the finished tasks are (a checkpointed run) or how to keep them
    next time (``--run-dir``, ``--resume``), before aborting with exit code 130 (the one
    message: ``said`` tells :func:`run_group` not to add another)."""

    said = False

    def __init__(self, store):
        self.store = store

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if kind is not KeyboardInterrupt:
            return False
        _Interrupted.said = True
        if sys.stderr.isatty():
            click.echo("\r\x1b[2K", err=True, nl=False)     # off a progress line
        if self.store is not None:
            click.echo(f"interrupted: {self.store.finished()} finished tasks are in "
                       f"{str(self.store.path)!r}; run the same command with --resume to "
                       "continue", err=True)
        else:
            click.echo("interrupted: the finished work is lost; with --run-dir DIR each "
                       "finished task is kept, and the same command with --resume continues "
                       "from there", err=True)
        return False


def _numba_threads() -> int:
    import numba
    return numba.get_num_threads()


def set_threads(threads: int | None) -> None:
    if threads is None:
        return
    import numba
    limit = numba.config.NUMBA_NUM_THREADS
    if not 1 <= threads <= limit:
        raise click.BadParameter(f"must lie in [1, {limit}] (NUMBA_NUM_THREADS)",
                                 param_hint="--threads")
    numba.set_num_threads(threads)


class Counter:
    """Progress of a precision-driven run, which does not know its length in advance: which
    experiment of how many, the deals done against its cap, the time elapsed. On a terminal
    one status line on stderr, rewritten; otherwise one plain line when an experiment
    starts, and one at least every 30 s (``PLAIN_EVERY``) while it runs. ``plan``: the
    experiments in order, each with its cap (None: exact)."""

    def __init__(self, enabled: bool, plan: list[tuple[str, int | None]] | None = None):
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.plan = dict(plan or [])
        self.order = [label for label, _ in plan or []]
        self.done: dict[str, int] = {}
        self.start = time.monotonic()
        self.last = 0.0         # elapsed time of the last plain line (not on a terminal)

    def _where(self, label: str) -> str:
        if label not in self.plan:
            return label
        return f"[{self.order.index(label) + 1}/{len(self.order)}] {label}"

    def __call__(self, label: str, n: int) -> None:
        if not self.enabled:
            return
        new = label not in self.done
        self.done[label] = self.done.get(label, 0) + n
        elapsed = time.monotonic() - self.start
        cap = self.plan.get(label)
        of = f" of at most {cap:,}" if cap else (" (every deal)" if label in self.plan else "")
        if self.tty:
            click.echo(f"\r\x1b[2K{self._where(label)}: {self.done[label]:,} deals{of}, "
                       f"{elapsed:.0f} s", err=True, nl=False)
        elif new:
            self.last = elapsed
            click.echo(f"{self._where(label)}: started at {elapsed:.0f} s", err=True)
        elif elapsed - self.last >= PLAIN_EVERY:
            self.last = elapsed
            click.echo(f"{self._where(label)}: {self.done[label]:,} deals{of}, "
                       f"{elapsed:.0f} s", err=True)

    def close(self) -> None:
        if self.enabled and self.done and self.tty:
            click.echo("\r\x1b[2K", err=True, nl=False)


def score_value(ctx, param, value):
    """``E-D`` (:class:`~ecarte_sim.engine.ecarte.laws.score.Score`) as the pair (E, D), or
    each of several (an option given ``multiple=True``); None stays None. One line naming
    the token and exit 2 otherwise."""
    from ecarte_sim.engine.ecarte.laws.score import Score
    if value is None:
        return None
    try:
        if isinstance(value, tuple):
            return tuple(Score.parse(v).pair for v in value)
        return Score.parse(value).pair
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


def scores_or_all(ctx, param, values):
    """A ``--score`` (multiple) callback: the scores given (E-D each), or every score of
    five up when none is."""
    from ecarte_sim.engine.ecarte.laws.score import SCORES
    return score_value(ctx, param, values) if values else SCORES


def stage_lines(enabled: bool):
    """A solve's ``progress`` callback that prints one line per finished stage (with the
    seconds since the start) to stderr; None when ``enabled`` is false."""
    if not enabled:
        return None
    start = time.monotonic()

    def report(what: str, done: int, total: int) -> None:
        if done >= total:
            click.echo(f"[{time.monotonic() - start:7.0f} s] {what}: done", err=True)
    return report


def not_nan(ctx, param, value):
    """click's FloatRange lets NaN through (it compares false with both bounds)."""
    if value is not None and value != value:
        raise click.BadParameter(f"{value!r} is not a number", ctx=ctx, param=param)
    return value


# --------------------------------------------------------------------------- policies

#: The click parameters of ``policy_options``, as the keyword arguments of
#: ``EcarteSettings.build`` they become.
_POLICY_KEYS = {"elder_policy": "elder_policy", "dealer_policy": "dealer_policy",
                "play_model": "play", "elder_play": "elder_play", "dealer_play": "dealer_play",
                "worlds": "worlds", "threshold": "threshold", "discard": "discard",
                "max_proposals": "max_proposals", "single_exchange": "single_exchange",
                "dealer_min_one": "dealer_min_one", "forced_trump": "forced_trump"}


def _opponent_models(names) -> dict:
    """``--opponent-model`` names as ``model_of_elder``/``model_of_dealer``: a name of an
    elder policy models the elder, of a dealer policy the dealer (``regle`` is both)."""
    from ecarte_sim.engine.ecarte.settings import DealerPolicy, ElderPolicy, choices
    out = {}
    for name in names:
        if name in choices(ElderPolicy):
            out["model_of_elder"] = name
        if name in choices(DealerPolicy):
            out["model_of_dealer"] = name
    return out


def policy_options(f):
    """The options every whole-deal command shares (one policy interface), parsed into
    one ``settings`` argument: an :class:`EcarteSettings`. The choices and defaults are
    the settings' own."""
    from ecarte_sim.engine.ecarte.settings import (MAX_WORLDS, DealerPolicy, Discard,
                                                   EcarteSettings, ElderPolicy, choices,
                                                   name_of, play_help, play_models)
    default = EcarteSettings()
    plays = play_models("play")

    @functools.wraps(f)
    def with_settings(*args, **kwargs):
        kwargs["settings"] = EcarteSettings.build(
            **{key: kwargs.pop(option) for option, key in _POLICY_KEYS.items()},
            **_opponent_models(kwargs.pop("opponent_model")))
        return f(*args, **kwargs)

    options = [
        click.option("--elder-policy", type=click.Choice(choices(ElderPolicy)),
                     default=name_of(default.elder_policy), show_default=True,
                     help="Elder: play or propose. regle = play iff a jeu de règle (Hoyle's "
                          "list); threshold = play iff strength >= --threshold."),
        click.option("--dealer-policy", type=click.Choice(choices(DealerPolicy)),
                     default=name_of(default.dealer_policy), show_default=True,
                     help="Dealer: accept or refuse. maxims = the dealer's maxims of Hoyle; "
                          "regle = refuse iff his hand is a jeu de règle."),
        click.option("--play", "play_model", type=click.Choice(plays),
                     default=name_of(default.elder_play), show_default=True,
                     help=f"Play model for both: {play_help('play')}."),
        click.option("--elder-play", type=click.Choice(plays), default=None,
                     help="Play model of the elder only (overrides --play)."),
        click.option("--dealer-play", type=click.Choice(plays), default=None,
                     help="Play model of the dealer only (overrides --play)."),
        click.option("--opponent-model", type=click.Choice(
                         sorted(set(choices(ElderPolicy)) | set(choices(DealerPolicy)))),
                     multiple=True,
                     help="pimc-inference, pimc-king: the policy the inferring player "
                          "assumes his "
                          "opponent decides by (an elder policy models the elder, a dealer "
                          "policy the dealer; repeat for both) [default: the policy he "
                          "plays]."),
        click.option("--worlds", type=click.IntRange(1, MAX_WORLDS), default=default.worlds,
                     show_default=True, help="PIMC: worlds sampled per decision (W)."),
        click.option("--threshold", type=click.IntRange(0, 100), default=default.threshold,
                     show_default=True, help="Strength needed to play (elder policy threshold)."),
        click.option("--discard", "discard", type=click.Choice(choices(Discard)),
                     default=name_of(default.elder_discard), show_default=True,
                     help="Discard rule of both players (trumps-kings: 'a king or a trump "
                          "should not be discarded in the first instance')."),
        click.option("--max-proposals", type=click.IntRange(0, 21),
                     default=default.max_proposals, show_default=True,
                     help="Most proposals in a deal (0 = until the stock runs out)."),
        click.option("--single-exchange", is_flag=True,
                     help="Variant: one exchange only (same as --max-proposals 1)."),
        click.option("--dealer-min-one", is_flag=True,
                     help="Variant: the dealer who accepts must take at least one card."),
        click.option("--no-forced-trump", "forced_trump", flag_value=False, default=True,
                     help="Variant: a player void in the suit led need not trump."),
    ]
    for option in reversed(options):
        with_settings = option(with_settings)
    return with_settings
