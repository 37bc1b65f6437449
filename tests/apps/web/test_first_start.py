"""Issue 51.5: the first start, from an empty numba cache. ``ecarte-sim serve`` compiles the
kernels on a background thread; the page says it is getting ready and for how long, offers
no game meanwhile, and a request sent during the compilation waits for it and succeeds
(none times out because of it); then a game is played in Chromium. The time the warm-up
took (``/api/ready``'s ``took_s``) is printed: docs/practice.md gives the measured one.

Slow (minutes: every kernel compiled): marked ``slow``. The quick test checks the same
behaviour with a warm-up that waits on an event (no compilation)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[web]'")


def _post(url: str, body: dict, out: dict) -> None:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    t0 = time.monotonic()
    with urllib.request.urlopen(req, timeout=3600) as r:
        out["status"], out["body"] = r.status, json.loads(r.read())
    out["waited"] = time.monotonic() - t0


@pytest.mark.quick
def test_requests_wait_for_the_warm_up_and_succeed(tmp_path):
    """While the warm-up runs, /api/ready says so (and how long it has waited), and a new
    game sent meanwhile waits for it, then succeeds."""
    from starlette.testclient import TestClient

    from ecarte_sim.apps.web.app import create_app
    from web_fake import FakeIllegal, FakeTable
    go = threading.Event()
    app = create_app(tmp_path, table=FakeTable, illegal=FakeIllegal,
                     warm_up=lambda: go.wait(60))
    with TestClient(app) as c:
        state = c.get("/api/ready").json()
        assert state["ready"] is False and state["waited_s"] >= 0 and state["took_s"] is None
        out = {}

        def new():
            r = c.post("/api/games", json={})
            out["status"] = r.status_code
        t = threading.Thread(target=new)
        t.start()
        time.sleep(0.5)
        assert "status" not in out                    # it waits, it is not refused
        go.set()
        t.join(timeout=60)
        assert out["status"] == 201
        state = c.get("/api/ready").json()
        assert state["ready"] is True and state["took_s"] >= 0.5


@pytest.mark.slow
def test_a_first_start_from_an_empty_numba_cache_in_chromium(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = os.environ.get("ECARTE_CHROMIUM", "/usr/bin/chromium")
    if not os.access(chromium, os.X_OK):
        pytest.skip(f"no Chromium at {chromium}")
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    shots = os.environ.get("ECARTE_SCREENSHOTS")
    proc = subprocess.Popen([sys.executable, "-m", "ecarte_sim.apps.cli", "serve",
                             "--port", "0", "--store", str(tmp_path / "store")],
                            stderr=subprocess.PIPE, text=True, env=env)
    t0 = time.monotonic()
    try:
        line = ""
        while not line.startswith("The practice table: "):
            line = proc.stderr.readline()
            assert line, "serve stopped"
        url = line.split()[3]
        early = {}
        sender = threading.Thread(target=_post, args=(url + "api/games", {"number": 1}, early))
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True,
                                        args=["--no-sandbox"])
            # bypass_csp: wait_for_function evaluates a string, which the page's CSP forbids
            page = browser.new_context(viewport={"width": 1280, "height": 900},
                                       bypass_csp=True).new_page()
            page.goto(url)
            page.wait_for_function("document.body.dataset.kernels === 'warming'")
            text = page.text_content("#getting-ready")
            assert text.startswith("Getting ready") and "so far" in text
            assert page.is_disabled("#new-game-button")
            if shots:
                page.screenshot(path=os.path.join(shots, "getting-ready.png"))
            sender.start()                   # an action sent during the compilation
            page.wait_for_function("document.body.dataset.kernels === 'ready'",
                                   timeout=3_600_000)
            ready = json.loads(urllib.request.urlopen(url + "api/ready").read())
            page.click("#new-game-button")
            page.wait_for_function("document.querySelectorAll('#hand svg.card').length === 5",
                                   timeout=600_000)
            seq = page.evaluate("document.body.dataset.seq")
            page.click("#actions button >> nth=0")
            page.wait_for_function(f"document.body.dataset.seq !== '{seq}'", timeout=600_000)
            assert page.text_content("#message") == ""
            browser.close()
        sender.join(timeout=3600)
        assert early["status"] == 201
        print(f"first start from an empty numba cache: ready after {ready['took_s']} s "
              f"(wall {time.monotonic() - t0:.0f} s); the request sent meanwhile waited "
              f"{early['waited']:.0f} s and got {early['status']}")
    finally:
        proc.terminate()
        proc.wait(timeout=60)
