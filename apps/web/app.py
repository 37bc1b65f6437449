"""The HTTP API and the page: a Starlette application around the game store.

Why Starlette + uvicorn: the server must be real (concurrent games, a test client, a
clean Ctrl-C) yet small; Starlette is a thin ASGI toolkit (routing, static files, a test
client on httpx) with no ORM, templates or build step, and uvicorn serves it. The page is
static HTML, CSS and plain JavaScript (``static/``) that draws the cards as SVG: nothing to
build at install time, nothing vendored.

Endpoints (every body JSON; every error ``{"error": "<one line>"}`` with a 4xx code, and
``"law"`` when a law forbids the action; the game is unchanged by a refused request):

* ``GET /`` — the page; ``GET /static/...`` its files.
* ``GET /api/games`` — the caller's games, newest first: those named in the header
  ``X-Game-Tokens: <id>:<token>,...`` (at most 100) whose token is right; nothing else.
* ``POST /api/games`` ``{"number"?, "opponent"?, "coach"?, "worlds"?}`` — a new game:
  ``{"id", "token", "seq", "view"}`` (201). ``token`` is the game's capability: every
  request on the game carries it in the header ``X-Game-Token`` (without it 403, with a
  wrong one 404); the page keeps it, nothing lists it. ``number``: game ``number`` of
  this server (the same number, the same deals for every player of it; its key is an HMAC
  under the server's secret, so the deals cannot be computed from the number); none: a
  random game. ``opponent`` "pimc-king" (the default: the shipped strategy's decisions,
  cards by pimc-king with 1,024 worlds, whatever ``worlds``), "alphamu" (the same decisions,
  cards by alpha-mu search), "strategy" (the same decisions, cards by pimc-inference) or
  "treatise"; ``coach`` true/false; ``worlds`` 8–256.
* ``GET /api/games/{id}`` — ``{"id", "seq", "view"}``: what the person may see now. No
  response tells anything that fixes a card the person has not seen: a deal's seed is
  given when that deal is over (``deal_seed``), the game's key when the game is
  (``key``).
* ``POST /api/games/{id}/act`` ``{"seq": n, "action": {...}}`` — the person's action made at
  step ``n`` (the ``seq`` of the view he saw): the new ``{"id", "seq", "view"}``. A stale or
  replayed ``seq`` gets 409, an illegal action 422 naming the law, a malformed one 400.
* ``GET /api/games/{id}/hint`` — a hint for the person's pending decision (what the
  computer's own player would do in his seat, from his knowledge only): ``{"action",
  "text"}``; not recorded. 422 when no decision is pending.
* ``GET /rules`` — the primer (the rules in full), as text.
* ``GET /api/ready`` — ``{"ready", "waited_s", "took_s", "error"}``: whether the first
  start's warm-up (numba compiling or loading the kernels, :class:`Readiness`) is done.
  Until it is, every request that plays or values a game waits for it (it never fails
  for it); the page polls this and says it is getting ready, and for how long.
* ``GET /api/games/{id}/record`` — the game record (records.py's format), as a download:
  as the person may see it (``Table.public_record``: while a deal is in progress the
  computer's hand, discards and draws and the stock are ``"?"``, and so is that deal's
  seed; the key is null until the game is over).
* ``GET /api/chart?role=elder&score=0-0&against=equilibrium&format=json|svg`` — the strategy
  card at that score (:mod:`ecarte_sim.analysis.ecarte.solving.chart`): its cells as JSON, or
  the printed card as SVG.
* ``POST /api/advise`` ``{"hand", "trump", "score"?, "role"?, "turn_up"?, "against"?,
  "deals"?}`` — :func:`ecarte_sim.analysis.ecarte.advice.first_decision.advise` on one hand (and its
  discard from the strategy when ``"discard": true``).
* ``POST /api/cards`` ``{"hand", "turn_up", "role", "said"?, "discards"?, "played"?,
  "score"?, "opponent"?, "worlds"?, "seed"?}`` — which card to lead or play:
  :func:`ecarte_sim.analysis.ecarte.play.card_advice.card_values` (the text forms of ``ecarte-sim
  cards``), each legal card as the inferring player sees it, double dummy beside it when
  ``opponent`` (the adversary's cards now) is given.

Every response carries a Content-Security-Policy (scripts and styles from this server
only, no inline script, no framing), ``X-Frame-Options: DENY``, ``X-Content-Type-Options:
nosniff`` and ``Referrer-Policy: no-referrer``. A request body nested deeper than
:data:`MAX_DEPTH` is refused (400) before it is parsed.

Actions (the contract of :class:`~ecarte_sim.apps.practice.session.Table`): ``propose``,
``play``, ``accept``, ``refuse``, ``discard`` with ``cards``, ``king`` with ``announce``,
``card`` with ``card``, ``next``, ``retry``, ``reveal``. The API checks an action's shape
and its cards' spelling (cards are passed on as ``KH``, ``TH``); the table checks the laws.
"""

from __future__ import annotations

import asyncio
import io
import json
import threading
import time
from functools import lru_cache
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ecarte_sim.apps.practice.computer import DEFAULT_OPPONENT, OPPONENTS
from ecarte_sim.apps.web.store import (MAX_LISTED, TOKEN_HEADER, TOKENS_HEADER, GameStore,
                                           StoreError)

# matplotlib is imported where the chart is drawn (chart_svg), not when the app starts.

STATIC = Path(__file__).resolve().parent / "static"
#: The rules in full, served as text at /rules: docs/primer.md of the source, which an
#: installed package carries as package data (pyproject.toml) at the same place.
PRIMER = Path(__file__).resolve().parents[2] / "docs" / "primer.md"
#: The largest request body accepted (bytes).
MAX_BODY = 16 * 1024
#: A request's body must arrive within this many seconds of its headers (a slow client's
#: connection is dropped earlier by the server's own watchdog: :mod:`.server`).
BODY_SECONDS = 10.0
#: New games per client address: at most this many at once, then one every
#: ``60 / NEW_GAMES_PER_MINUTE`` seconds (429 beyond; each game is a file).
NEW_GAMES_BURST = 30
NEW_GAMES_PER_MINUTE = 30
WORLDS = (8, 256)
#: Actions and the fields each takes besides ``type``.
ACTIONS = {"propose": (), "play": (), "accept": (), "refuse": (), "next": (), "retry": (),
           "reveal": (), "discard": ("cards",), "king": ("announce",), "card": ("card",)}
NEW_FIELDS = ("number", "opponent", "coach", "worlds")
#: The deepest nesting of arrays and objects a request body may have.
MAX_DEPTH = 32
#: The headers of every response (module docstring).
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "img-src 'self' data:; connect-src 'self'; "
                               "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
ADVISE_FIELDS = ("hand", "trump", "score", "role", "turn_up", "against", "deals", "seed",
                 "discard", "said", "discards", "elder_took")
MAX_ADVISE_DEALS = 1 << 16


class BadRequest(Exception):
    """A 400 with a one-line reason."""


class Gone(Exception):
    """The client disconnected before its request's body arrived: answered (to nobody)
    with 400, never logged."""


def _error(status: int, reason: str, law: str | None = None) -> JSONResponse:
    body = {"error": reason.splitlines()[0] if reason else "error"}
    if law is not None:
        body["law"] = law
    return JSONResponse(body, status_code=status)


async def _body(request: Request) -> dict:
    """The request's JSON object; :class:`BadRequest` (or 413, 415) otherwise. The body
    must be declared ``application/json``: a page of another site cannot send that without
    the browser asking first (CORS preflight), which this server never grants, so no other
    site can act in a game through the person's browser."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise StoreError(415, f"the body must be JSON with Content-Type: application/json, "
                              f"not {kind or 'none'!r}")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise StoreError(413, f"the body is larger than {MAX_BODY} bytes")
    raw = b""
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                raw += chunk
                if len(raw) > MAX_BODY:
                    raise StoreError(413, f"the body is larger than {MAX_BODY} bytes")
    except ClientDisconnect:
        # the client went away mid-body: nothing to answer, nothing to log (a traceback
        # per such connection would let any client fill the log)
        raise Gone() from None
    except TimeoutError:
        raise StoreError(408, f"the body did not arrive within {BODY_SECONDS:g} s") from None
    if not raw.strip():
        return {}
    if nesting(raw) > MAX_DEPTH:
        raise BadRequest(f"the body is nested deeper than {MAX_DEPTH} levels")
    try:
        data = json.loads(raw)
    except RecursionError:
        raise BadRequest(f"the body is nested deeper than {MAX_DEPTH} levels") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadRequest(f"the body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    return data


def nesting(raw: bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` in a JSON text (brackets inside strings not
    counted); a cheap scan made before the parser, which recurses."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:       # backslash
                escaped = True
            elif byte == 0x22:       # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    return deepest
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _only(data: dict, allowed, what: str) -> None:
    extra = sorted(set(data) - set(allowed))
    if extra:
        raise BadRequest(f"unknown field {extra[0]!r} in {what}; allowed: "
                         f"{', '.join(allowed)}")


def _int(value, name: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise BadRequest(f"{name} must be an integer in [{lo}, {hi}], not {value!r}")
    return value


def card_text(token) -> str:
    """A card as the table writes it (``KH``, ``TH``); :class:`BadRequest` naming it."""
    from ecarte_sim.engine.cards import CardError, format_card, parse_card
    if not isinstance(token, str) or not 1 < len(token) <= 4:
        raise BadRequest(f"bad card {token!r}: write rank then suit, e.g. KH or 10S")
    try:
        return format_card(parse_card(token))
    except (CardError, ValueError) as exc:
        raise BadRequest(f"bad card {token!r}: {exc}".splitlines()[0]) from None


def new_settings(data: dict, key_for) -> dict:
    """The settings of ``Table.new`` from a request body (module docstring);
    ``key_for(number or None)`` the store's key of the game."""
    _only(data, NEW_FIELDS, "a new game")
    number = data.get("number")
    if number is not None:
        number = _int(number, "number", 0, 2**63 - 1)
    opponent = data.get("opponent", DEFAULT_OPPONENT)
    if not isinstance(opponent, str) or opponent not in OPPONENTS:
        raise BadRequest(f"unknown opponent {opponent!r}; choose from {', '.join(OPPONENTS)}")
    coach = data.get("coach", True)
    if not isinstance(coach, bool):
        raise BadRequest(f"coach must be true or false, not {coach!r}")
    worlds = _int(data.get("worlds", 64), "worlds", *WORLDS)
    return {"key": key_for(number), "opponent": opponent, "coach": coach,
            "worlds": worlds, "number": number}


def parse_action(data: dict) -> tuple[int, dict]:
    """(seq, action) from an act request; :class:`BadRequest` naming what is wrong."""
    _only(data, ("seq", "action"), "an action request")
    if "seq" not in data:
        raise BadRequest("missing 'seq': the step of the view the action was chosen on")
    seq = _int(data["seq"], "seq", 0, 10**9)
    action = data.get("action")
    if not isinstance(action, dict):
        raise BadRequest("missing 'action': an object with a 'type'")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTIONS:
        raise BadRequest(f"unknown action type {str(kind)[:40]!r}; choose from "
                         f"{', '.join(ACTIONS)}")
    _only(action, ("type", *ACTIONS[kind]), f"a {kind!r} action")
    out = {"type": kind}
    for name in ACTIONS[kind]:
        if name not in action:
            raise BadRequest(f"a {kind!r} action needs {name!r}")
    if kind == "card":
        out["card"] = card_text(action["card"])
    elif kind == "discard":
        cards = action["cards"]
        if not isinstance(cards, list) or len(cards) > 5:
            raise BadRequest("'cards' must be a list of at most five cards")
        out["cards"] = [card_text(c) for c in cards]
        if len(set(out["cards"])) != len(out["cards"]):
            raise BadRequest("a card is named twice in 'cards'")
    elif kind == "king":
        if not isinstance(action["announce"], bool):
            raise BadRequest("'announce' must be true or false")
        out["announce"] = action["announce"]
    return seq, out


def _game_json(game, view: dict) -> dict:
    return {"id": game.id, "seq": game.seq, "view": view}


def _finite(obj):
    if isinstance(obj, float):
        return obj if obj == obj and abs(obj) != float("inf") else None
    if isinstance(obj, dict):
        return {str(k): _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    if hasattr(obj, "item") and callable(obj.item):  # numpy scalars
        return _finite(obj.item())
    return obj


def _json(obj, status: int = 200, headers: dict | None = None) -> Response:
    text = json.dumps(_finite(obj), ensure_ascii=False, allow_nan=False, default=str)
    return Response(text, status_code=status, media_type="application/json",
                    headers=headers)


# --------------------------------------------------------------------------- chart, advice

_MPL = threading.Lock()


@lru_cache(maxsize=64)
def chart_json(role: str, score: str, against: str) -> dict:
    """The strategy card of ``role`` at ``score`` (:func:`ecarte_sim.api.strategy.chart`, as
    ``ecarte-sim chart --json``)."""
    from ecarte_sim.api.strategy import chart
    card = chart(role, score, against=against)
    return {**card.to_dict(), "_chart": card.card, "_solved": card.solved}


@lru_cache(maxsize=64)
def chart_svg(role: str, score: str, against: str) -> bytes:
    """The printed strategy card as SVG: drawn once for each (role, score, table) and
    kept (each drawing takes a second or more of matplotlib, one at a time)."""
    import matplotlib
    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    from ecarte_sim.analysis.reports.chart import figure
    data = chart_json(role, score, against)
    solved = data["_solved"]
    with _MPL, matplotlib.rc_context({"svg.hashsalt": "ecarte-sim-chart",
                                      "font.family": "DejaVu Sans"}):
        fig = figure(data["_chart"], score=data["score"],
                     play=solved.play if solved is not None else None,
                     source=data["source"], made_by=data["made_by"])
        try:
            buf = io.BytesIO()
            fig.savefig(buf, format="svg", metadata={"Date": None})
        finally:
            plt.close(fig)
    return buf.getvalue()


def advise_json(data: dict) -> dict:
    """The advice on one decision (:func:`ecarte_sim.api.strategy.advice`, as ``ecarte-sim
    advise --json``), with ``discard``: also the discard at that exchange."""
    from ecarte_sim.api.strategy import advice, is_later
    _only(data, ADVISE_FIELDS, "advice")
    hand, trump = data.get("hand"), data.get("trump")
    if not isinstance(hand, str) or not hand.strip():
        raise BadRequest("missing 'hand': five cards, e.g. 'KH QH 7S 8D 9C'")
    turn_up = data.get("turn_up") or None
    if not isinstance(trump, str) or not trump.strip():
        if not isinstance(turn_up, str):
            raise BadRequest("missing 'trump': a suit (H) or the turn-up card (9H)")
        trump = turn_up
    if turn_up is not None and not isinstance(turn_up, str):
        raise BadRequest("'turn_up' must be a card, e.g. 9H")
    role = data.get("role", "elder")
    if not isinstance(role, str) or role not in ("elder", "dealer"):
        raise BadRequest(f"unknown role {role!r}; choose from elder, dealer")
    against = data.get("against", "equilibrium")
    if not isinstance(against, str) or against not in ("equilibrium", "treatise"):
        raise BadRequest(f"unknown opponent {against!r}; choose from equilibrium, treatise")
    score = data.get("score", "0-0")
    if not isinstance(score, str):
        raise BadRequest("'score' must be E-D, e.g. 3-4")
    deals = _int(data.get("deals", 1 << 14), "deals", 64, MAX_ADVISE_DEALS)
    seed = _int(data.get("seed", 0), "seed", 0, 2**64 - 1)
    discard = data.get("discard", False)
    if not isinstance(discard, bool):
        raise BadRequest(f"'discard' must be true or false, not {data['discard']!r}")
    history = _history(data)
    ask = dict(hand=hand, trump=trump, score=score, role=role, turn_up=turn_up, seed=seed,
               **history)
    if history["said"] is not None and is_later(history["said"], discard):
        if discard:
            return {"discard": advice(against=against, discard=True,
                                      deals=min(deals, 1 << 12), **ask).to_dict(),
                    "decision": "later discard"}
        return advice(against=against, deals=deals, **ask).to_dict()
    out = advice(against=against, deals=deals, **ask).to_dict()
    if discard:             # the first exchange's discard, from the computed strategy
        out["discard"] = advice(against="equilibrium", discard=True,
                                deals=min(deals, 1 << 12), **ask).to_dict()
    return out


def _history(data: dict) -> dict:
    """``said``, ``discards`` and ``elder_took`` as ``advise --said ...`` takes them,
    checked for their types and lengths (the front door checks what they say)."""
    said, discards, took = data.get("said"), data.get("discards"), data.get("elder_took")
    for name, value in (("said", said), ("discards", discards)):
        if value is not None and not isinstance(value, str):
            raise BadRequest(f"{name!r} must be text, as the command line takes it")
        if value is not None and len(value) > 200:
            raise BadRequest(f"{name!r} is longer than 200 characters")
    if took is not None:
        took = _int(took, "elder_took", 1, 5)
    return {"said": said, "discards": discards or "", "elder_took": took}


CARDS_FIELDS = ("hand", "turn_up", "role", "said", "discards", "played", "score", "opponent",
                "worlds", "seed", "model")
MAX_CARD_WORLDS = 1024


def cards_json(data: dict) -> dict:
    """:func:`ecarte_sim.api.strategy.cards` on one position: which card
    to lead or play (as ``ecarte-sim cards``)."""
    from ecarte_sim.api.strategy import cards
    _only(data, CARDS_FIELDS, "a card question")
    for name in ("hand", "turn_up", "role"):
        if not isinstance(data.get(name), str) or not data[name].strip():
            raise BadRequest(f"missing {name!r}")
    if data["role"] not in ("elder", "dealer"):
        raise BadRequest(f"unknown role {data['role']!r}; choose from elder, dealer")
    for name in ("hand", "turn_up"):
        if len(data[name]) > 64:
            raise BadRequest(f"{name!r} is longer than 64 characters")
    text = {}
    for name in ("said", "discards", "played", "score", "opponent", "model"):
        value = data.get(name)
        if value is not None and not isinstance(value, str):
            raise BadRequest(f"{name!r} must be text, as the command line takes it")
        if value is not None and value.strip():
            text[name] = value.strip()
    worlds = _int(data.get("worlds", 64), "worlds", 8, MAX_CARD_WORLDS)
    seed = _int(data.get("seed", 0), "seed", 0, 2**64 - 1)
    return cards(data["hand"], data["turn_up"], data["role"], worlds=worlds, seed=seed,
                 **text).to_dict()


# --------------------------------------------------------------------------- the app

def default_table():
    """The real game: (Table, IllegalAction) of :mod:`ecarte_sim.apps.practice.session`."""
    from ecarte_sim.apps.practice.session import IllegalAction, Table
    return Table, IllegalAction


class HostCheck:
    """ASGI middleware: refuse (400) a request whose Host header is not one of ``hosts``
    (a server on loopback answers only to loopback names, so that a page of another site
    cannot reach it by rebinding its own name to 127.0.0.1)."""

    def __init__(self, app, hosts):
        self.app = app
        self.hosts = {h.lower() for h in hosts}

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1").lower()
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name not in self.hosts:
                response = _error(400, f"unknown host {host!r}: this server answers to "
                                       f"{', '.join(sorted(self.hosts))}")
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every response."""

    def __init__(self, app):
        self.app = app
        self.headers = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": list(message.get("headers", []))
                           + self.headers}
            await send(message)

        await self.app(scope, receive, with_headers)


#: The names a server bound to loopback answers to.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def create_app(store_dir, table=None, illegal=None, hosts=None,
               new_games_burst: int | None = NEW_GAMES_BURST,
               new_games_per_minute: float = NEW_GAMES_PER_MINUTE,
               warm_up=None) -> Starlette:
    """The application serving the games of ``store_dir``. ``table`` / ``illegal``: the game
    class and its illegal-action exception (default: the practice table's); ``hosts``: the
    Host names answered (None: any; ``ecarte-sim serve`` on loopback passes
    :data:`LOOPBACK_HOSTS`); ``new_games_burst`` / ``new_games_per_minute``: the new games
    one client address may make (:class:`RateLimit`; a burst of None: no limit, as the
    load test's players need); ``warm_up``: None (ready at once), True (the game's own
    warm-up, :func:`ecarte_sim.apps.practice.random_play.warm_up`, on a background thread) or a
    function to run there (:class:`Readiness`)."""
    if table is None:
        table, default_illegal = default_table()
        illegal = illegal or default_illegal
    store = GameStore(store_dir, table, illegal or Exception)
    if warm_up is True:
        from ecarte_sim.apps.practice.random_play import warm_up as game_warm_up
        warm_up = game_warm_up
    readiness = Readiness(warm_up)
    games = _GameRoutes(store, RateLimit(new_games_burst, new_games_per_minute), readiness)
    routes = [
        Route("/", _index),
        Route("/api/games", games.games, methods=["GET", "POST"]),
        Route("/api/games/{id}", games.game),
        Route("/api/games/{id}/act", games.act, methods=["POST"]),
        Route("/api/games/{id}/record", games.record),
        Route("/api/games/{id}/hint", games.hint),
        Route("/rules", _rules),
        Route("/api/ready", lambda request: _json(readiness.state(),
                                                  headers={"Cache-Control": "no-store"})),
        Route("/api/chart", _chart),
        Route("/api/advise", _advise, methods=["POST"]),
        Route("/api/cards", _card_question, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders)]
    if hosts is not None:
        middleware.append(Middleware(HostCheck, hosts=hosts))
    app = Starlette(routes=routes, middleware=middleware, exception_handlers={
        BadRequest: _on_bad, StoreError: _on_store, HTTPException: _on_http,
        Gone: _on_gone, Exception: _on_crash})
    app.state.store = store
    app.state.readiness = readiness
    return app


async def _call(fn, *args, **kwargs):
    """``fn`` run in the thread pool; a ValueError (a CardError among them) is a bad
    request, a store's or a request's own error passes as it is."""
    try:
        return await run_in_threadpool(fn, *args, **kwargs)
    except StoreError:
        raise
    except BadRequest:
        raise
    except ValueError as exc:  # CardError is a ValueError
        raise BadRequest(str(exc)) from None


class Readiness:
    """The first start's warm-up: numba compiles (or loads from its cache) every kernel a
    game uses on a background thread (:func:`ecarte_sim.apps.practice.random_play.warm_up`);
    ``ready`` is set when it is done (or failed: the games then say what is wrong). A
    request that needs the kernels awaits :meth:`wait` first, so that no request runs
    into the compilation's minutes halfway and none is refused for it."""

    def __init__(self, warm=None):
        self.event = threading.Event()
        self.started = time.monotonic()
        self.took: float | None = None
        self.error: str | None = None
        if warm is None:
            self.took = 0.0
            self.event.set()
        else:
            threading.Thread(target=self._run, args=(warm,), daemon=True,
                             name="ecarte-warm-up").start()

    def _run(self, warm) -> None:
        try:
            warm()
        except Exception as exc:  # the games will say what is wrong
            self.error = f"{type(exc).__name__}: {str(exc)[:200]}"
        finally:
            self.took = time.monotonic() - self.started
            self.event.set()

    def state(self) -> dict:
        ready = self.event.is_set()
        return {"ready": ready, "waited_s": round(time.monotonic() - self.started, 1),
                "took_s": None if self.took is None else round(self.took, 1),
                "error": self.error}

    async def wait(self) -> None:
        while not self.event.is_set():
            await asyncio.sleep(0.2)


class RateLimit:
    """New games per client address, a token bucket each: ``burst`` at once, then
    ``per_minute`` a minute (429 with ``Retry-After`` beyond). At most
    :data:`MAX_CLIENTS` addresses are remembered (the fullest buckets are forgotten first:
    a forgotten address starts full, as a new one does)."""

    MAX_CLIENTS = 4096

    def __init__(self, burst: int | None, per_minute: float):
        self.burst = burst
        self.rate = per_minute / 60.0
        self.buckets: dict[str, tuple[float, float]] = {}
        self.lock = threading.Lock()

    def take(self, client: str) -> None:
        if self.burst is None:
            return
        now = time.monotonic()
        with self.lock:
            tokens, then = self.buckets.get(client, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.rate)
            if tokens < 1.0:
                wait = (1.0 - tokens) / self.rate
                self.buckets[client] = (tokens, now)
                raise StoreError(429, f"too many new games from {client}: at most "
                                      f"{self.burst} at once, then "
                                      f"{self.rate * 60:g} a minute (try again in "
                                      f"{wait:.0f} s)", retry_after=int(wait) + 1)
            self.buckets[client] = (tokens - 1.0, now)
            if len(self.buckets) > self.MAX_CLIENTS:
                for old in sorted(self.buckets, key=lambda k: -self.buckets[k][0])[
                        :len(self.buckets) - self.MAX_CLIENTS]:
                    del self.buckets[old]


class _GameRoutes:
    """The routes of the games of one store: list and start games, a game's view, an
    action, the coach's hint, the record; each game reached only with its token."""

    def __init__(self, store: GameStore, limit: "RateLimit", readiness: Readiness):
        self.store = store
        self.limit = limit
        self.ready = readiness.wait

    def mine(self, request: Request) -> set[str]:
        """The ids of the games whose tokens the request shows (``X-Game-Tokens``)."""
        pairs = [p.strip() for p in request.headers.get(TOKENS_HEADER, "").split(",")
                 if p.strip()]
        if len(pairs) > MAX_LISTED:
            raise BadRequest(f"X-Game-Tokens names more than {MAX_LISTED} games")
        ids = set()
        for pair in pairs:
            game_id, _, token = pair.partition(":")
            try:
                self.store.authorise(game_id, token)
            except StoreError:
                continue
            ids.add(game_id)
        return ids

    def owned(self, request: Request) -> str:
        game_id = request.path_params["id"]
        self.store.authorise(game_id, request.headers.get(TOKEN_HEADER))
        return game_id

    async def games(self, request: Request):
        store = self.store
        if request.method in ("GET", "HEAD"):     # HEAD answers as GET, never makes a game
            ids = self.mine(request)
            return _json({"games": await run_in_threadpool(store.list, ids)})
        if request.method != "POST":
            raise HTTPException(405)
        self.limit.take(request.client.host if request.client else "?")
        settings = new_settings(await _body(request), store.key_for)
        await self.ready()
        game = await _call(store.new, **settings)
        view = await _call(lambda: store.view(game.id)[1])
        return _json({**_game_json(game, view), "token": store.token(game.id)}, status=201)

    async def game(self, request: Request):
        game_id = self.owned(request)
        await self.ready()
        game, view = await _call(self.store.view, game_id)
        return _json(_game_json(game, view))

    async def act(self, request: Request):
        game_id = self.owned(request)
        seq, action = parse_action(await _body(request))
        await self.ready()
        game, view = await _call(self.store.act, game_id, seq, action)
        return _json(_game_json(game, view))

    async def hint(self, request: Request):
        game_id = self.owned(request)
        await self.ready()
        return _json(await _call(self.store.hint, game_id))

    async def record(self, request: Request):
        game_id = self.owned(request)
        await self.ready()
        rec = await _call(self.store.record, game_id)
        return _json(rec, headers={"Content-Disposition":
                                   f'attachment; filename="ecarte-{game_id}.json"'})


async def _index(request: Request):
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def _rules(request: Request):
    if not PRIMER.is_file():
        raise StoreError(404, "the primer is not installed here: see docs/primer.md in "
                              "the source")
    return FileResponse(PRIMER, media_type="text/plain; charset=utf-8")


async def _chart(request: Request):
    """``GET /api/chart?role=&score=&against=&format=``: the strategy card, JSON or SVG."""
    q = request.query_params
    _only(q, ("role", "score", "against", "format"), "a chart request")
    role = q.get("role", "elder")
    if role not in ("elder", "dealer"):
        raise BadRequest(f"unknown role {role!r}; choose from elder, dealer")
    against = q.get("against", "equilibrium")
    if against not in ("equilibrium", "treatise"):
        raise BadRequest(f"unknown table {against!r}; choose from equilibrium, treatise")
    fmt = q.get("format", "json")
    if fmt not in ("json", "svg"):
        raise BadRequest(f"unknown format {fmt!r}; choose from json, svg")
    from ecarte_sim.engine.ecarte.laws.score import Score
    try:
        e, d = Score.parse(q.get("score", "0-0"))
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    score = f"{e}-{d}"
    if fmt == "svg":
        svg = await _call(chart_svg, role, score, against)
        return Response(svg, media_type="image/svg+xml")
    data = await _call(chart_json, role, score, against)
    return _json({k: v for k, v in data.items() if not k.startswith("_")})


async def _advise(request: Request):
    data = await _body(request)
    await request.app.state.readiness.wait()
    return _json(await _call(advise_json, data))


async def _card_question(request: Request):
    data = await _body(request)
    await request.app.state.readiness.wait()
    return _json(await _call(cards_json, data))


async def _on_bad(request: Request, exc: Exception):
    return _error(400, str(exc))


async def _on_gone(request: Request, exc: Exception):
    return _error(400, "the client disconnected before its request's body arrived")


async def _on_store(request: Request, exc: StoreError):
    response = _error(exc.status, exc.reason, exc.law)
    if getattr(exc, "retry_after", None):
        response.headers["retry-after"] = str(exc.retry_after)
    return response


async def _on_http(request: Request, exc: HTTPException):
    reason = {404: "no such page", 405: "method not allowed"}.get(exc.status_code,
                                                                 str(exc.detail))
    return _error(exc.status_code, f"{reason}: {request.method} {request.url.path}")


async def _on_crash(request: Request, exc: Exception):
    return _error(500, f"internal error ({type(exc).__name__})")
