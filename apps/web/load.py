"""The bounded load test: N games at once against a real server on loopback.

:func:`load_test` starts the app under uvicorn on a free 127.0.0.1 port (a temporary
store unless one is given), plays ``games`` games at the same time from a process of its
own (as browsers are other programs), each game on its own thread and HTTP connection,
by random legal choices (:func:`~ecarte_sim.apps.practice.random_play.choose`, seeded by the game's number) to the end of the
game or ``max_actions`` actions, then stops the server. It times every request (new
game, each action) and counts every response that is not 2xx as an error; the report
gives the count, median, 95th percentile and maximum of the latencies and the wall time.
Before the games, :func:`page_times` times a new game's page alone (the page, its three
files and the new game, as a browser fetches them), 20 times. It stops by itself: each
game is bounded in actions and the whole run in time (``timeout``). ``ecarte-sim serve
--load-test 20`` prints it.
"""

from __future__ import annotations

import gc
import http.client
import json
import multiprocessing
import random
import tempfile
import threading
import time
from urllib.parse import urlsplit

from ecarte_sim.apps.practice.random_play import choose, warm_up

def _percentile(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))
    return xs[k]


class _Client:
    """A keep-alive JSON client on one connection (the standard library's http.client)."""

    def __init__(self, base: str, timeout: float = 60.0):
        u = urlsplit(base)
        self.conn = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)

    def get(self, path: str, token: str | None = None) -> tuple[int, bytes]:
        self.conn.request("GET", path, headers={} if token is None else
                          {"X-Game-Token": token})
        r = self.conn.getresponse()
        return r.status, r.read()

    def post(self, path: str, body: dict, token: str | None = None) -> tuple[int, str]:
        data = json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers["X-Game-Token"] = token
        self.conn.request("POST", path, body=data, headers=headers)
        r = self.conn.getresponse()
        return r.status, r.read().decode("utf-8", "replace")

    def close(self) -> None:
        self.conn.close()


def _play(base: str, number: int, max_actions: int | None, deadline: float,
          out: dict, lock: threading.Lock, think: float = 0.0, coach: bool = True,
          opponent: str | None = None) -> None:
    rng = random.Random(number)
    times, errors, kinds = [], [], {"new": [], "act": []}
    actions = 0
    finished = False
    client = None
    try:
        client = _Client(base)
        t0 = time.perf_counter()
        body = {"number": number, "coach": coach}
        if opponent is not None:
            body["opponent"] = opponent
        status, text = client.post("/api/games", body)
        dt = time.perf_counter() - t0
        times.append(dt)
        kinds["new"].append(dt)
        if status != 201:
            errors.append(f"game {number}: new game {status} {text[:200]}")
            return
        data = json.loads(text)
        token = data["token"]
        while time.monotonic() < deadline and (max_actions is None or actions < max_actions):
            action = choose(data["view"], rng)
            if action is None:
                break
            if think:
                time.sleep(think * (0.5 + rng.random()))    # a person's pace, not timed
            t0 = time.perf_counter()
            status, text = client.post(f"/api/games/{data['id']}/act",
                                       {"seq": data["seq"], "action": action}, token)
            dt = time.perf_counter() - t0
            times.append(dt)
            kinds["act"].append(dt)
            actions += 1
            if status != 200:
                errors.append(f"game {number}: {json.dumps(action)} -> {status} {text[:200]}")
                break
            data = json.loads(text)
        finished = data["view"].get("phase") == "game_over"
    except Exception as exc:  # a dropped connection, a timeout
        errors.append(f"game {number}: {type(exc).__name__}: {exc}")
    finally:
        if client is not None:
            client.close()
        with lock:
            out["times"] += times
            out["new"] += kinds["new"]
            out["act"] += kinds["act"]
            out["errors"] += errors
            out["actions"] += actions
            out["finished"] += int(finished)


def _play_threads(base: str, numbers, max_actions: int | None, timeout: float,
                  think: float, coach: bool = True, opponent: str | None = None):
    """The games ``numbers`` at once, each on its own thread and connection (in the
    calling process); returns the merged tallies and the wall time."""
    out = {"times": [], "new": [], "act": [], "errors": [], "actions": 0, "finished": 0}
    lock = threading.Lock()
    deadline = time.monotonic() + timeout
    threads = [threading.Thread(target=_play, args=(base, i, max_actions, deadline, out,
                                                    lock, think, coach, opponent),
                                daemon=True) for i in numbers]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=timeout + 60)
    return out, time.perf_counter() - t0


def players():
    """The process the players run in (:func:`play_games`): a pool of one, to close
    (``with``) after the last games."""
    return multiprocessing.get_context("spawn").Pool(1)


def play_games(base: str, numbers, max_actions: int | None = None, timeout: float = 600.0,
               think: float = 0.0, coach: bool = True, opponent: str | None = None,
               pool=None):
    """:func:`_play_threads` in a process of its own (``pool``, from :func:`players`; a
    new one when None): the players are other programs, as browsers are, and do not take
    the server's interpreter lock (with the players' threads in the server's process,
    their JSON and HTTP work would be counted in the server's latency)."""
    args = (base, list(numbers), max_actions, timeout, think, coach, opponent)
    if pool is not None:
        return pool.apply(_play_threads, args)
    with players() as own:
        return own.apply(_play_threads, args)


#: What a browser fetches to show a new game: the page, its files, then the new game.
PAGE_FILES = ("/", "/static/style.css", "/static/cards.js", "/static/app.js")


def page_times(base: str, n: int = 20) -> list[float]:
    """Seconds to fetch the page and its files and start a new game (what a browser does
    before it draws the hand; a fresh connection each time), ``n`` times one after the
    other."""
    out = []
    for i in range(n):
        client = _Client(base)
        try:
            t0 = time.perf_counter()
            for path in PAGE_FILES:
                status, _ = client.get(path)
                if status != 200:
                    raise RuntimeError(f"GET {path}: {status}")
            status, text = client.post("/api/games", {"number": 10_000 + i})
            if status != 201:
                raise RuntimeError(f"new game: {status} {text[:200]}")
            out.append(time.perf_counter() - t0)
        finally:
            client.close()
    return out


def load_test(games: int = 20, max_actions: int | None = None, store=None,
              timeout: float = 600.0, table=None, illegal=None, log=None,
              think: float = 0.0) -> dict:
    """Play ``games`` games at once against a server on loopback (module docstring);
    ``think`` > 0: each player waits a random 0.5 to 1.5 times ``think`` seconds before
    each action (a person's pace; not part of the latency), else none (as fast as the
    server answers)."""
    from ecarte_sim.apps.web.app import create_app
    from ecarte_sim.apps.web.server import running

    say = log or (lambda s: None)
    with tempfile.TemporaryDirectory(prefix="ecarte-load-") as tmp:
        app = create_app(store or tmp, table=table, illegal=illegal,
                         new_games_burst=None)     # the players make games by the dozen
        say("warming up (a first run compiles the kernels)")
        t0 = time.perf_counter()
        warm_up(table)
        warm = time.perf_counter() - t0
        with running(app) as base:
            say("a new game's page, 20 times one after the other")
            page = page_times(base)
            say(f"{games} games at once on {base}")
            cpu0 = time.process_time()
            out, wall = play_games(base, range(games), max_actions, timeout, think)
            cpu = time.process_time() - cpu0
    ms = lambda x: None if x is None else round(1000 * x, 1)  # noqa: E731
    return {"games": games, "think_s": think, "finished": out["finished"],
            "actions": out["actions"],
            "requests": len(out["times"]), "errors": out["errors"],
            "warm_up_s": round(warm, 2), "wall_s": round(wall, 2),
            "server_cpu_s": round(cpu, 2),
            "server_cpu_ms_per_request": (round(1000 * cpu / len(out["times"]), 1)
                                          if out["times"] else None),
            "latency_ms": {"p50": ms(_percentile(out["times"], 0.5)),
                           "p95": ms(_percentile(out["times"], 0.95)),
                           "max": ms(max(out["times"], default=None))},
            "page_ms": {"n": len(page), "p50": ms(_percentile(page, 0.5)),
                        "p95": ms(_percentile(page, 0.95)), "max": ms(max(page))},
            "new_game_ms": {"p50": ms(_percentile(out["new"], 0.5)),
                            "p95": ms(_percentile(out["new"], 0.95))},
            "action_ms": {"p50": ms(_percentile(out["act"], 0.5)),
                          "p95": ms(_percentile(out["act"], 0.95))}}


def _rss_mib() -> float | None:
    """This process's resident memory (MiB) now, from /proc (None elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def memory_test(finished: int = 500, at_once: int = 10, every: int = 50,
                timeout: float = 1800.0, log=None, coach: bool = True,
                opponent: str | None = None) -> dict:
    """The server's memory over ``finished`` whole games played to the end (``at_once``
    at a time, each by random legal choices, the coach on unless ``coach`` is False)
    against a server on
    loopback in this process: its resident memory after every ``every`` finished games
    (after a garbage collection). Flat memory: the first sample (the kernels and the
    strategy loaded) and the last differ by little. Stops by itself (``timeout``)."""
    from ecarte_sim.apps.web.app import create_app
    from ecarte_sim.apps.web.server import running

    say = log or (lambda s: None)
    warm_up()
    samples = []
    errors: list[str] = []
    with tempfile.TemporaryDirectory(prefix="ecarte-memory-") as tmp:
        app = create_app(tmp, new_games_burst=None)
        store = app.state.store
        with running(app) as base, players() as pool:
            deadline = time.monotonic() + timeout
            done = 0
            t0 = time.perf_counter()
            while done < finished and time.monotonic() < deadline:
                n = min(at_once, finished - done)
                out, _ = play_games(base, range(100_000 + done, 100_000 + done + n), None,
                                    max(1.0, deadline - time.monotonic()), 0.0, coach,
                                    opponent, pool)
                errors += out["errors"]
                done += n
                if done % every == 0 or done == finished:
                    gc.collect()
                    samples.append({"finished": done, "rss_mib": _rss_mib(),
                                    "in_memory": store.resident_games()})
                    say(f"{done} games finished: {samples[-1]['rss_mib']} MiB, "
                        f"{samples[-1]['in_memory']} games in memory")
            wall = time.perf_counter() - t0
    first, last = samples[0]["rss_mib"], samples[-1]["rss_mib"]
    change = None if first is None or last is None else round((last - first) / first, 4)
    return {"finished": done, "coach": coach, "opponent": opponent, "errors": errors,
            "samples": samples,
            "wall_s": round(wall, 1),
            "first_mib": first, "last_mib": last, "change": change,
            "peak_mib": max((s["rss_mib"] or 0) for s in samples)}


def format_memory(r: dict) -> str:
    pct = "–" if r["change"] is None else f"{100 * r['change']:+.1f}%"
    lines = [f"server memory over {r['finished']} finished games (coach "
             f"{'on' if r.get('coach', True) else 'off'}, "
             f"{len(r['errors'])} errors, {r['wall_s']} s): {r['first_mib']} MiB after the "
             f"first {r['samples'][0]['finished']}, {r['last_mib']} MiB at the end ({pct}), "
             f"peak {r['peak_mib']} MiB; games in memory at the end: "
             f"{r['samples'][-1]['in_memory']}"]
    lines += [f"  error: {e}" for e in r["errors"][:5]]
    return "\n".join(lines)


def format_report(r: dict) -> str:
    p = r["page_ms"]
    lines = [f"a new game's page (the page, its files and a new game; alone, warm): median "
             f"{p['p50']} ms, p95 {p['p95']} ms, max {p['max']} ms over {p['n']}",
             f"{r['games']} simultaneous games on loopback"
             f"{'' if not r.get('think_s') else ' (each player thinking ~' + str(r['think_s']) + ' s a decision)'}"
             f": {r['finished']} played to the "
             f"end, {r['actions']} actions, {r['requests']} requests in {r['wall_s']} s; "
             f"{len(r['errors'])} errors",
             f"the server's CPU time: {r['server_cpu_s']} s, "
             f"{r['server_cpu_ms_per_request']} ms a request (all its threads; "
             f"{r['server_cpu_s'] / r['wall_s']:.2f} of a core over the wall time)"
             if r.get("server_cpu_s") is not None and r.get("wall_s") else None,
             f"latency of every request: median {r['latency_ms']['p50']} ms, 95th percentile "
             f"{r['latency_ms']['p95']} ms, max {r['latency_ms']['max']} ms",
             f"new game: median {r['new_game_ms']['p50']} ms, p95 {r['new_game_ms']['p95']} ms;"
             f" action (with the computer's replies and the coach): median "
             f"{r['action_ms']['p50']} ms, p95 {r['action_ms']['p95']} ms"]
    lines += [f"  error: {e}" for e in r["errors"][:10]]
    return "\n".join(line for line in lines if line is not None)
