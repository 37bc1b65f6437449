"""Issue 51.4: the server under hostile traffic. HEAD is not POST; a client that drops its
connection mid-body leaves no traceback in the log; slow clients (partial headers, partial
bodies, nothing at all) are dropped REQUEST_SECONDS after they began (1 s here, raw
sockets on 127.0.0.1); new games are rate-limited per client; the chart's SVG is drawn
once; the store's start skips FIFOs and oversized files without reading them and without
hanging; a short .secret is one line; with --host 0.0.0.0 the printed URL answers and the
warning names each host once."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[web]'")

from starlette.testclient import TestClient  # noqa: E402

from ecarte_sim.apps.web import app as web  # noqa: E402
from ecarte_sim.apps.web.server import running  # noqa: E402
from ecarte_sim.apps.web.store import new_id  # noqa: E402
from web_fake import FakeIllegal, FakeTable  # noqa: E402


def fake_app(store: Path, **kw):
    return web.create_app(store, table=FakeTable, illegal=FakeIllegal, **kw)


def games_in(store: Path) -> int:
    return len(list(store.glob("*.json")))


@pytest.mark.quick
def test_head_is_not_post(tmp_path):
    """HEAD /api/games with a JSON body and content type answers as GET (no body) and
    makes no game; only POST makes one."""
    with TestClient(fake_app(tmp_path)) as c:
        r = c.request("HEAD", "/api/games", content=b'{"number": 1}',
                      headers={"Content-Type": "application/json"})
        assert r.status_code == 200 and r.content == b""
        assert games_in(tmp_path) == 0
        assert c.post("/api/games", json={"number": 1}).status_code == 201
        assert games_in(tmp_path) == 1
        r = c.request("PUT", "/api/games", json={})
        assert r.status_code == 405 and games_in(tmp_path) == 1


class _Lines(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append(record)


def _raw(url: str) -> socket.socket:
    host, port = url.split("//")[1].split(":")
    s = socket.create_connection((host, int(port)), timeout=30)
    return s


def test_a_client_gone_mid_body_leaves_no_traceback(tmp_path):
    """50 clients send a POST's headers and half its body, then hang up: at most one log
    line each (none here) and no traceback; the server still answers."""
    lines = _Lines()
    names = ("", "uvicorn", "uvicorn.error", "ecarte_sim.web", "asyncio")
    try:
        with running(fake_app(tmp_path)) as url:
            for name in names:         # after uvicorn configured its loggers (it resets them)
                logging.getLogger(name).addHandler(lines)
            for _ in range(50):
                s = _raw(url)
                s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Content-Type: application/json\r\nContent-Length: 400\r\n\r\n"
                          b'{"number": ')
                time.sleep(0.02)
                s.close()
            time.sleep(1.0)
            s = _raw(url)                          # the server is still there
            s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert s.recv(100).startswith(b"HTTP/1.1 200")
            s.close()
    finally:
        for name in names:
            logging.getLogger(name).removeHandler(lines)
    text = "\n".join(r.getMessage() for r in lines.records)
    assert len(lines.records) <= 50, text
    assert not any(r.exc_info for r in lines.records) and "Traceback" not in text, text
    assert games_in(tmp_path) == 0


def _closed(s: socket.socket) -> bool:
    """Whether the server closed ``s`` (an answer, if any, then the end of the stream)."""
    try:
        while True:
            data = s.recv(4096)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False


def test_slow_clients_are_dropped_within_the_stated_time(tmp_path):
    """Clients that send part of their headers, part of a body, or nothing, are
    disconnected REQUEST_SECONDS after they began (1 s here; 10 s by default): the server's
    watchdog looks every tenth of a second. A whole request on another connection is
    answered meanwhile."""
    with running(fake_app(tmp_path), request_seconds=1.0) as url:
        socks = []
        t0 = time.monotonic()
        for k in range(30):
            s = _raw(url)
            if k % 3 == 0:
                s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            elif k % 3 == 1:
                s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                          b"application/json\r\nContent-Length: 100\r\n\r\n{")
            socks.append(s)
        ok = _raw(url)
        ok.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert ok.recv(100).startswith(b"HTTP/1.1 200")
        ok.close()
        assert all(_closed(s) for s in socks)
        waited = time.monotonic() - t0
        for s in socks:
            s.close()
    print(f"30 slow clients dropped after {waited:.2f} s (the limit: 1 s)")
    assert waited >= 1.0                  # not before the stated time
    assert games_in(tmp_path) == 0


def test_new_games_are_rate_limited_per_client(tmp_path):
    """At most NEW_GAMES_BURST games at once from one address, then 429 with Retry-After
    (the store keeps only the games made); GETs are not limited."""
    with TestClient(fake_app(tmp_path)) as c:
        made = [c.post("/api/games", json={}).status_code for _ in range(web.NEW_GAMES_BURST)]
        assert made == [201] * web.NEW_GAMES_BURST
        r = c.post("/api/games", json={})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert "too many new games" in r.json()["error"]
        assert games_in(tmp_path) == web.NEW_GAMES_BURST
        assert c.get("/api/games").status_code == 200
    limit = web.RateLimit(2, 60.0)                  # one a second after the burst
    limit.take("a"), limit.take("a"), limit.take("b")
    with pytest.raises(web.StoreError):
        limit.take("a")


def test_the_chart_svg_is_drawn_once(tmp_path):
    web.chart_svg.cache_clear()
    with TestClient(fake_app(tmp_path)) as c:
        a = c.get("/api/chart?role=dealer&score=1-2&format=svg")
        b = c.get("/api/chart?role=dealer&score=1-2&format=svg")
    assert a.status_code == b.status_code == 200 and a.content == b.content
    info = web.chart_svg.cache_info()
    assert info.misses == 1 and info.hits == 1


def test_the_store_skips_fifos_and_oversized_files_without_reading_them(tmp_path, caplog):
    """A FIFO named <id>.json (which would block a plain open forever) and a 60 MB file
    are skipped at start with a log line each, unread; the other games are listed."""
    fifo, big = new_id(), new_id()
    os.mkfifo(tmp_path / f"{fifo}.json")
    with open(tmp_path / f"{big}.json", "wb") as f:
        f.truncate(60 << 20)                        # sparse: nothing written
    started = {}

    def start():
        started["app"] = fake_app(tmp_path)
    with caplog.at_level(logging.WARNING, logger="ecarte_sim.web"):
        t = threading.Thread(target=start, daemon=True)
        t.start()
        t.join(timeout=60)
        assert not t.is_alive(), "the store's start hangs"
    text = caplog.text
    assert fifo in text and "not a regular file" in text
    assert big in text and "larger than" in text
    with TestClient(started["app"]) as c:
        assert c.get("/api/games").json()["games"] == []
        one_token = c.post("/api/games", json={}).json()["token"]
        assert one_token


def test_a_short_secret_is_one_line(tmp_path):
    from click.testing import CliRunner

    from ecarte_sim.apps.cli import main
    (tmp_path / ".secret").write_bytes(b"short")
    r = CliRunner().invoke(main, ["serve", "--store", str(tmp_path), "--port", "0",
                                  "--no-warm-up"])
    assert r.exit_code == 2, r.output
    last = r.output.strip().splitlines()[-1]
    assert last.startswith("Error: --store") and "fewer than 16" in last
    assert "Traceback" not in r.output
    os.unlink(tmp_path / ".secret")
    os.mkfifo(tmp_path / ".secret")                 # not a file: refused, not waited on
    r = CliRunner().invoke(main, ["serve", "--store", str(tmp_path), "--port", "0",
                                  "--no-warm-up"])
    assert r.exit_code == 2 and "not a regular file" in r.output


def test_the_printed_url_of_host_0_0_0_0_answers(tmp_path):
    """``serve --host 0.0.0.0``: the URL it prints names one of the machine's addresses,
    which the Host check admits (200, not 400 "unknown host"); the warning names each
    host once."""
    proc = subprocess.Popen([sys.executable, "-m", "ecarte_sim.apps.cli", "serve",
                             "--host", "0.0.0.0", "--port", "0", "--store", str(tmp_path),
                             "--no-warm-up"], stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        for _ in range(200):
            line = proc.stderr.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("The practice table: "):
                break
        url = lines[-1].split()[3]
        assert "0.0.0.0" not in url, lines
        import urllib.request
        with urllib.request.urlopen(url + "api/games", timeout=60) as r:
            assert r.status == 200 and json.loads(r.read())["games"] == []
        warning = next(x for x in lines if x.startswith("Warning: listening on 0.0.0.0"))
        named = warning.split("the Host names ")[1].split(" (--allow-host")[0].split(", ")
        assert len(named) == len(set(named)) and url.split("//")[1].split(":")[0] in named
    finally:
        proc.terminate()
        proc.wait(timeout=30)
