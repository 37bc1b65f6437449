"""Running the app under uvicorn: in the foreground (``ecarte-sim serve``) or on a
background thread for the tests and the load test (:func:`running`).

The server binds 127.0.0.1 unless told otherwise (:func:`is_loopback` says whether a host
is reached only from this machine; the command warns otherwise). Ctrl-C stops uvicorn
gracefully; every game is already on disk (the store writes after each action).
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


def _server(app, host: str, port: int, log_level: str = "warning"):
    import uvicorn
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level,
                            access_log=False, lifespan="off", timeout_graceful_shutdown=3)
    return uvicorn.Server(config)


def bound_port(server) -> int:
    """The port uvicorn's listening socket is bound to (for port 0)."""
    for s in server.servers:
        for sock in s.sockets:
            return sock.getsockname()[1]
    raise RuntimeError("the server is not listening")


def serve(app, host: str = "127.0.0.1", port: int = 8034, on_ready=None,
          log_level: str = "warning") -> None:
    """Serve ``app`` until Ctrl-C; ``on_ready(url)`` once the socket listens."""
    server = _server(app, host, port, log_level)
    if on_ready is not None:
        def wait():
            while not server.started and not server.should_exit:
                time.sleep(0.05)
            if server.started:
                shown = f"[{host}]" if ":" in host else host
                on_ready(f"http://{shown}:{bound_port(server)}/")
        threading.Thread(target=wait, daemon=True).start()
    server.run()


@contextlib.contextmanager
def running(app, host: str = "127.0.0.1", port: int = 0, timeout: float = 30.0):
    """Serve ``app`` on a background thread; yields its URL; stops it on exit."""
    server = _server(app, host, port)
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
