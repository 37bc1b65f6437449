"""``ecarte-sim serve``: the practice table in the browser (:mod:`ecarte_sim.apps.web`).

Needs the ``web`` extra (``pip install 'ecarte-sim[web]'``; in a checkout ``pip install -e
'.[web]'``); without it, one line says so."""

from __future__ import annotations

import socket
import webbrowser

import click

from ecarte_sim.apps.cli.common import CONTEXT, JSON, emit

# starlette and uvicorn (the optional web extra) are imported only when serve runs: --help
# imports this module without them.


def _need_web() -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise click.UsageError(f"the web app needs the 'web' extra ({exc.name} is missing): "
                               f"pip install 'ecarte-sim[web]'") from None


@click.command(context_settings=CONTEXT)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but loopback lets other machines play "
                   "and read the games (a warning is printed).")
@click.option("--port", type=click.IntRange(0, 65535), default=8034, show_default=True,
              help="Port (0: any free port).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="With --host other than loopback: a further name the server answers to "
                   "in the Host header (repeat; by default the address given, this "
                   "machine's name and its addresses). Any other Host is refused, against "
                   "DNS rebinding.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
@click.option("--store", type=click.Path(file_okay=False), default=None,
              help="Directory of the saved games [default: ~/.local/share/ecarte-sim/games].")
@click.option("--no-warm-up", is_flag=True,
              help="Do not compile the kernels at start (on a background thread, the page "
                   "saying it is getting ready meanwhile); the first game then compiles "
                   "them.")
@click.option("--load-test", "load_games", type=click.IntRange(1, 200), default=None,
              metavar="GAMES",
              help="Instead of serving: start the server on a free loopback port, play GAMES "
                   "games at once through HTTP to the end (or --actions each), print the "
                   "latencies and stop.")
@click.option("--actions", type=click.IntRange(1, 10**6), default=None,
              help="With --load-test: at most this many actions per game.")
@JSON
def serve(host, port, allow_hosts, open_browser, store, no_warm_up, load_games, actions,
          as_json):
    """Play Écarté against the computer in the browser, with the coach.

    Games of five up against the shipped strategy (or the treatise); the coach grades each
    decision; every game is saved after each action in the store and survives a restart.
    Ctrl-C stops the server.

    \b
    Examples:
      ecarte-sim serve --open
      ecarte-sim serve --port 9000 --store ~/ecarte-games
      ecarte-sim serve --load-test 20
    """
    _need_web()
    from ecarte_sim.apps.web import server
    from ecarte_sim.apps.web.app import create_app
    from ecarte_sim.apps.web.store import default_dir

    if load_games is not None:
        from ecarte_sim.apps.web.load import format_report, load_test
        report = load_test(games=load_games, max_actions=actions, store=store,
                           log=None if as_json else lambda s: click.echo(s, err=True))
        if as_json:
            emit(report)
        else:
            click.echo(format_report(report))
        if report["errors"]:
            raise click.exceptions.Exit(1)
        return
    _check_listen(host, port)
    directory = store or str(default_dir())
    from ecarte_sim.apps.web.app import LOOPBACK_HOSTS
    from ecarte_sim.apps.web.store import StoreError
    loopback = server.is_loopback(host)
    own = (host,) if loopback else machine_names(host)
    hosts = tuple(dict.fromkeys(h.lower() for h in LOOPBACK_HOSTS + own + allow_hosts))
    # the printed URL names a host the server answers to: a wildcard address (0.0.0.0,
    # ::) is no address to browse to, so the machine's own first address stands for it
    url_host = None
    if host in WILDCARDS:
        url_host = next((h.strip("[]") for h in own if _is_address(h.strip("[]"))
                         and not server.is_loopback(h.strip("[]"))), "127.0.0.1")
    try:
        app = create_app(directory, hosts=hosts, warm_up=not no_warm_up or None)
    except StoreError as exc:
        raise click.UsageError(f"--store {directory}: {exc.reason}") from None
    except OSError as exc:
        raise click.UsageError(f"--store {directory}: {exc.strerror or exc}") from None
    if not loopback:
        click.echo(f"Warning: listening on {host}: anyone who can reach this machine can "
                   f"start games and play them, and ask for the strategy card, advice and "
                   f"card values; each game is seen and played only with its token (kept "
                   f"by the page that made it), but the traffic is plain HTTP, so anyone "
                   f"on the network path can read the tokens and the games; the server "
                   f"answers only to the Host names {', '.join(hosts)} "
                   f"(--allow-host adds one)", err=True)

    def ready(url: str) -> None:
        click.echo(f"The practice table: {url}  (games saved in {directory}; Ctrl-C stops)",
                   err=True)
        if open_browser:
            webbrowser.open(url)

    server.serve(app, host, port, on_ready=ready, url_host=url_host)
    click.echo("stopped; every game is saved", err=True)


#: Addresses that listen on every interface (no name to browse to).
WILDCARDS = ("0.0.0.0", "::", "")


def _is_address(text: str) -> bool:
    import ipaddress
    try:
        ipaddress.ip_address(text)
        return True
    except ValueError:
        return False


def own_addresses() -> list[str]:
    """This machine's addresses as far as the standard library can tell: those its names
    resolve to, and the source address of its routes out (a UDP socket connected, which
    sends nothing), for IPv4 and IPv6."""
    found = []
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                found.append(s.getsockname()[0])
        except OSError:
            pass
    for name in (socket.gethostname(), socket.getfqdn()):
        try:
            found += [info[4][0] for info in socket.getaddrinfo(name, None)]
        except OSError:
            pass
    return list(dict.fromkeys(a.split("%")[0] for a in found))


def machine_names(host: str) -> tuple[str, ...]:
    """The Host names a server listening on ``host`` (not loopback) answers to: the
    address given (unless a wildcard), this machine's addresses (:func:`own_addresses`),
    its name and its fully qualified name; each once."""
    names = [] if host in WILDCARDS else [host if ":" not in host else f"[{host}]"]
    names += [f"[{a}]" if ":" in a else a for a in own_addresses()]
    names += [socket.gethostname(), socket.getfqdn()]
    return tuple(dict.fromkeys(n.lower() for n in names if n))


def _check_listen(host: str, port: int) -> None:
    """One line and exit 2 when the address cannot be listened on (a port in use, an
    address not of this machine), rather than uvicorn's log line."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise click.BadParameter(f"unknown host {host!r}: {exc.strerror}",
                                 param_hint="'--host'") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(address)
        except OSError as exc:
            raise click.UsageError(f"cannot listen on {host}:{port}: "
                                   f"{exc.strerror or exc} (choose another --port, or 0 for "
                                   f"any free port)") from None


COMMANDS = [serve]
