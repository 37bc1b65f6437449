"""Running the app under uvicorn: in the foreground (``ecarte-sim serve``) or on a
background thread for the tests and the load test (:func:`running`).

The server binds 127.0.0.1 unless told otherwise (:func:`is_loopback` says whether a host
is reached only from this machine; the command warns otherwise). Ctrl-C stops uvicorn
gracefully; every game is already on disk (the store writes after each action).

Slow clients: uvicorn (h11) waits for a request's headers and body as long as a client
likes, so a few hundred connections sending a byte now and then would hold the server's
sockets. :class:`Server` looks at its connections every tenth of a second and closes one
whose request has not arrived whole (headers and body) :data:`REQUEST_SECONDS` after it
began to wait for it (the connection's opening, or the end of its last answer); the time
the app takes to answer is not counted. An idle kept-alive connection is closed by
uvicorn after ``timeout_keep_alive`` (5 s).
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import threading
import time

# uvicorn is imported when a server is made, not with this module (is_loopback, the
# command's checks).


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


#: How long a request may take to arrive whole (seconds; :class:`Server`).
REQUEST_SECONDS = 10.0


def _server(app, host: str, port: int, log_level: str = "warning",
            request_seconds: float = REQUEST_SECONDS):
    import uvicorn
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, http="h11",
                            access_log=False, lifespan="off", timeout_graceful_shutdown=3)
    server = _server_class()(config)
    server.request_seconds = float(request_seconds)
    return server


def _server_class():
    """:class:`Server`, made when uvicorn is imported."""
    global Server
    if Server is None:
        import h11
        import uvicorn

        class _Server(uvicorn.Server):
            """uvicorn's server, dropping slow clients (module docstring)."""

            request_seconds = REQUEST_SECONDS

            async def on_tick(self, counter: int) -> bool:
                drop_slow(self.server_state.connections, time.monotonic(),
                          self.request_seconds, h11)
                return await super().on_tick(counter)

        Server = _Server
    return Server


Server = None


def drop_slow(connections, now: float, limit: float, h11) -> int:
    """Close each connection whose request has been arriving for more than ``limit``
    seconds (waiting for its headers or its body, not for the app's answer); returns how
    many were closed."""
    closed = 0
    for proto in list(connections):
        conn, cycle = getattr(proto, "conn", None), getattr(proto, "cycle", None)
        if conn is None:
            continue
        their = conn.their_state
        waiting = their is h11.SEND_BODY or (
            their is h11.IDLE and (cycle is None or cycle.response_complete))
        mark = (their, id(cycle)) if waiting else None
        if getattr(proto, "_ecarte_wait", (None, 0.0))[0] != mark:
            proto._ecarte_wait = (mark, now)
        elif waiting and now - proto._ecarte_wait[1] > limit:
            transport = getattr(proto, "transport", None)
            if transport is not None and not transport.is_closing():
                transport.close()
                closed += 1
    return closed


def bound_port(server) -> int:
    """The port uvicorn's listening socket is bound to (for port 0)."""
    for s in server.servers:
        for sock in s.sockets:
            return sock.getsockname()[1]
    raise RuntimeError("the server is not listening")


def serve(app, host: str = "127.0.0.1", port: int = 8034, on_ready=None,
          log_level: str = "warning", url_host: str | None = None) -> None:
    """Serve ``app`` until Ctrl-C; ``on_ready(url)`` once the socket listens (the URL's
    host is ``url_host`` when given: a wildcard address is no name to browse to)."""
    server = _server(app, host, port, log_level)
    if on_ready is not None:
        def wait():
            while not server.started and not server.should_exit:
                time.sleep(0.05)
            if server.started:
                name = url_host or host
                shown = f"[{name}]" if ":" in name else name
                on_ready(f"http://{shown}:{bound_port(server)}/")
        threading.Thread(target=wait, daemon=True).start()
    server.run()


@contextlib.contextmanager
def running(app, host: str = "127.0.0.1", port: int = 0, timeout: float = 30.0,
            request_seconds: float = REQUEST_SECONDS):
    """Serve ``app`` on a background thread; yields its URL; stops it on exit."""
    server = _server(app, host, port, request_seconds=request_seconds)
    server.install_signal_handlers = lambda: None  # uvicorn < 0.29
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the server did not start on {host}:{port}")
        time.sleep(0.02)
    try:
        yield f"http://{host}:{bound_port(server)}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]
