"""The practice table's HTTP API through Starlette's test client: every endpoint, every bad
request (a 4xx with a one-line reason, the game unchanged), the store (atomic records, a
restart, one game's error kept to itself), the bounded load test on a real socket.

Most tests drive a tiny stand-in game (tests/apps/web/web_fake.py) so that a failure can be made on
purpose; the last ones play the real practice table through the API and check the
responses against the same game played directly."""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[web]'")
pytest.importorskip("httpx", reason="the test client needs httpx (the test extra)")

import warnings  # noqa: E402

with warnings.catch_warnings():  # starlette >= 1.x prefers httpx2 to httpx; either works
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient  # noqa: E402

from ecarte_sim.apps.practice.computer import DEFAULT_OPPONENT  # noqa: E402
from ecarte_sim.apps.web import app as web  # noqa: E402
from ecarte_sim.apps.web.store import FORMAT, ID_PATTERN  # noqa: E402
from helpers import BLOCKED  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from web_fake import FakeIllegal, FakeTable  # noqa: E402


#: A fixed store secret, so that game numbers give the same games in every run.
SECRET = b"the tests' fixed secret, 32 byte"


def fixed_secret(store: Path) -> Path:
    store.mkdir(parents=True, exist_ok=True)
    (store / ".secret").write_bytes(SECRET)
    return store


class Owner(TestClient):
    """A test client that keeps the token of every game it makes and shows it (as the page
    does) on that game's requests and in the listing."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tokens: dict[str, str] = {}

    def request(self, method, url, *args, **kwargs):
        import re
        headers = dict(kwargs.pop("headers", None) or {})
        m = re.search(r"/api/games/([A-Za-z0-9_-]{22})", str(url))
        if m and m.group(1) in self.tokens:
            headers.setdefault("X-Game-Token", self.tokens[m.group(1)])
        if str(url).endswith("/api/games") and method.upper() == "GET":
            headers.setdefault("X-Game-Tokens", ",".join(f"{k}:{v}" for k, v in
                                                         self.tokens.items()))
        r = super().request(method, url, *args, headers=headers, **kwargs)
        if str(url).endswith("/api/games") and method.upper() == "POST" \
                and r.status_code == 201:
            self.tokens[r.json()["id"]] = r.json()["token"]
        return r


@pytest.fixture
def store(tmp_path):
    return fixed_secret(tmp_path / "games")


@pytest.fixture
def client(store):
    with Owner(web.create_app(store, table=FakeTable, illegal=FakeIllegal)) as c:
        yield c


def new(client, **body):
    """A new game (number 7 unless told): its id, seq and view (the token kept by the
    client)."""
    r = client.post("/api/games", json={"number": 7, **body})
    assert r.status_code == 201, r.text
    g = r.json()
    assert len(g.pop("token")) == 64
    return g


def key_of(store: Path, game_id: str) -> str:
    """The game's key (hex), from its stored settings (it gives every deal's seed)."""
    return json.loads((store / f"{game_id}.json").read_text())["settings"]["key"]


def one_line_error(r, status):
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) <= {"error", "law"} and body["error"]
    assert "\n" not in body["error"]
    return body


# --------------------------------------------------------------------------- the page

@pytest.mark.quick
def test_the_page_and_its_files_are_served(client):
    r = client.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert "practice table" in r.text
    for name in ("app.js", "cards.js", "style.css"):
        f = client.get(f"/static/{name}")
        assert f.status_code == 200 and len(f.text) > 500
    one_line_error(client.get("/static/../store.py"), 404)


# --------------------------------------------------------------------------- games

def test_new_game_view_and_list(client, store):
    g = new(client, opponent="treatise", coach=False, worlds=32)
    assert ID_PATTERN.match(g["id"]) and g["seq"] == 0
    assert g["view"]["phase"] == "play" and len(g["view"]["hand"]) == 5
    assert client.get(f"/api/games/{g['id']}").json() == g
    saved = json.loads((store / f"{g['id']}.json").read_text())
    assert saved["format"] == FORMAT and saved["seq"] == 0
    assert saved["settings"] == {"key": client.app.state.store.key_for(7),
                                 "opponent": "treatise", "coach": False, "worlds": 32,
                                 "number": 7}
    other = client.post("/api/games", json={}).json()
    assert other["id"] != g["id"]
    saved = json.loads((store / f"{other['id']}.json").read_text())
    assert saved["settings"]["opponent"] == DEFAULT_OPPONENT       # pimc-king (issue 53)
    listed = client.get("/api/games").json()["games"]
    assert {x["id"] for x in listed} == {g["id"], other["id"]}
    assert all(x["over"] is False and x["seq"] == 0 and "score" in x for x in listed)
    assert all("key" not in x["settings"] for x in listed)


def test_ids_are_unguessable(client):
    ids = [new(client)["id"] for _ in range(30)]
    assert len(set(ids)) == 30 and all(ID_PATTERN.match(i) for i in ids)
    assert len({i[:4] for i in ids}) > 20          # random, not a counter


def test_an_action_advances_the_game_and_is_saved(client, store):
    g = new(client)
    card = g["view"]["hand"][0]
    r = client.post(f"/api/games/{g['id']}/act",
                    json={"seq": 0, "action": {"type": "card", "card": card}})
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["seq"] == 1 and card not in after["view"]["hand"]
    saved = json.loads((store / f"{g['id']}.json").read_text())
    assert saved["seq"] == 1 and saved["record"]["state"]["actions"] == [
        {"type": "card", "card": card}]
    assert not [p for p in store.iterdir() if p.name.startswith(".tmp")]


def test_cards_are_passed_on_as_the_table_writes_them(client):
    g = new(client)
    hand = g["view"]["hand"]
    ten = next((c for c in hand if c[0] == "T"), None)
    card = ("10" + ten[1]).lower() if ten else hand[0].lower()
    r = client.post(f"/api/games/{g['id']}/act",
                    json={"seq": 0, "action": {"type": "card", "card": card}})
    assert r.status_code == 200, r.text
    assert (ten or hand[0]) not in r.json()["view"]["hand"]


@pytest.mark.parametrize("body, status, says", [
    ({"seq": 1, "action": {"type": "card", "card": "KH"}}, 409, "stale"),
    ({"action": {"type": "card", "card": "KH"}}, 400, "seq"),
    ({"seq": "0", "action": {"type": "card", "card": "KH"}}, 400, "seq"),
    ({"seq": True, "action": {"type": "card", "card": "KH"}}, 400, "seq"),
    ({"seq": 0}, 400, "action"),
    ({"seq": 0, "action": "KH"}, 400, "action"),
    ({"seq": 0, "action": {"type": "cheat"}}, 400, "cheat"),
    ({"seq": 0, "action": {"type": "card"}}, 400, "card"),
    ({"seq": 0, "action": {"type": "card", "card": "ZZ"}}, 400, "ZZ"),
    ({"seq": 0, "action": {"type": "card", "card": "2H"}}, 400, "2H"),
    ({"seq": 0, "action": {"type": "card", "card": 13}}, 400, "13"),
    ({"seq": 0, "action": {"type": "card", "card": "KH", "x": 1}}, 400, "'x'"),
    ({"seq": 0, "action": {"type": "discard", "cards": "KH"}}, 400, "cards"),
    ({"seq": 0, "action": {"type": "discard", "cards": ["KH"] * 6}}, 400, "cards"),
    ({"seq": 0, "action": {"type": "discard", "cards": ["KH", "kh"]}}, 400, "twice"),
    ({"seq": 0, "action": {"type": "king", "announce": "yes"}}, 400, "announce"),
    ({"seq": 0, "action": {"type": "next"}}, 422, "deal is not over"),
    ({"seq": 0, "action": {"type": "propose"}}, 422, "propose"),
    ({"seq": 0, "action": {"type": "card", "card": "NOT_IN_HAND"}}, 422, "not in your hand"),
    ({"seq": 0, "action": {"type": "card", "card": "KH"}, "more": 1}, 400, "'more'"),
])
def test_every_bad_action_is_refused_and_changes_nothing(client, store, body, status, says):
    g = new(client)
    if body.get("action", {}) and isinstance(body["action"], dict) and \
            body["action"].get("card") == "NOT_IN_HAND":
        pack = [r + s for s in "SHDC" for r in "789TAJQK"]
        body["action"]["card"] = next(c for c in pack if c not in g["view"]["hand"])
    before = (store / f"{g['id']}.json").read_bytes()
    r = client.post(f"/api/games/{g['id']}/act", json=body)
    err = one_line_error(r, status)
    assert says in err["error"]
    if status == 422:
        assert err["law"].startswith("Law ")
    assert client.get(f"/api/games/{g['id']}").json() == g
    assert (store / f"{g['id']}.json").read_bytes() == before


def test_a_replayed_request_is_refused(client):
    g = new(client)
    body = {"seq": 0, "action": {"type": "card", "card": g["view"]["hand"][0]}}
    first = client.post(f"/api/games/{g['id']}/act", json=body)
    assert first.status_code == 200
    again = client.post(f"/api/games/{g['id']}/act", json=body)
    assert "stale" in one_line_error(again, 409)["error"]
    assert client.get(f"/api/games/{g['id']}").json() == first.json()


@pytest.mark.parametrize("raw, status", [
    (b"{not json", 400), (b"[1, 2]", 400), (b"\xff\xfe", 400), (b"x" * 20000, 413),
])
def test_malformed_bodies(client, raw, status):
    g = new(client)
    r = client.post(f"/api/games/{g['id']}/act", content=raw,
                    headers={"content-type": "application/json"})
    one_line_error(r, status)
    one_line_error(client.post("/api/games", content=raw,
                               headers={"content-type": "application/json"}), status)
    assert client.get(f"/api/games/{g['id']}").json() == g


@pytest.mark.parametrize("kind", [None, "text/plain", "application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x"])
def test_a_body_that_is_not_declared_json_is_refused(client, store, kind):
    """What a form of another site could send without a CORS preflight."""
    g = new(client)
    headers = {} if kind is None else {"content-type": kind}
    body = json.dumps({"seq": 0, "action": {"type": "card", "card": g["view"]["hand"][0]}})
    r = client.post(f"/api/games/{g['id']}/act", content=body, headers=headers)
    assert "application/json" in one_line_error(r, 415)["error"]
    one_line_error(client.post("/api/games", content="{}", headers=headers), 415)
    assert client.get(f"/api/games/{g['id']}").json() == g
    assert len(list(store.glob("*.json"))) == 1


def test_a_loopback_server_answers_only_to_loopback_names(store):
    app = web.create_app(store, table=FakeTable, illegal=FakeIllegal, hosts=web.LOOPBACK_HOSTS)
    with TestClient(app, base_url="http://127.0.0.1:8034") as c:
        assert c.get("/").status_code == 200
        assert c.get("/", headers={"host": "localhost:8034"}).status_code == 200
        assert c.get("/", headers={"host": "[::1]:8034"}).status_code == 200
        for evil in ("evil.example:8034", "127.0.0.1.evil.example", ""):
            r = c.get("/api/games", headers={"host": evil})
            assert "unknown host" in one_line_error(r, 400)["error"]


@pytest.mark.parametrize("body, says", [
    ({"opponent": "god"}, "god"), ({"number": -1}, "number"), ({"number": 2**63}, "number"),
    ({"number": "1"}, "number"), ({"seed": 1}, "seed"), ({"coach": "yes"}, "coach"),
    ({"opponent": ["strategy"]}, "opponent"), ({"worlds": 3}, "worlds"),
    ({"worlds": 64.0}, "worlds"), ({"colour": "red"}, "colour"),
])
def test_bad_new_game_settings(client, store, body, says):
    r = client.post("/api/games", json=body)
    assert says in one_line_error(r, 400)["error"]
    assert not list(store.glob("*.json"))


@pytest.mark.parametrize("path", [
    "/api/games/AAAAAAAAAAAAAAAAAAAAAA", "/api/games/..%2F..%2Fetc%2Fpasswd",
    "/api/games/short", "/api/games/AAAAAAAAAAAAAAAAAAAAAA/record", "/api/nosuch", "/nosuch",
])
def test_unknown_games_and_pages(client, path):
    one_line_error(client.get(path, headers={"X-Game-Token": "0" * 64}), 404)


def test_wrong_methods(client):
    g = new(client)
    one_line_error(client.get(f"/api/games/{g['id']}/act"), 405)
    one_line_error(client.delete(f"/api/games/{g['id']}"), 405)
    one_line_error(client.put("/api/games", json={}), 405)
    one_line_error(client.get("/api/advise"), 405)
    one_line_error(client.get("/api/cards"), 405)


def test_the_record_is_a_download(client):
    g = new(client)
    r = client.get(f"/api/games/{g['id']}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    assert g["id"] in r.headers["content-disposition"]
    assert r.json()["state"]["seed"] == int(key_of(client.app.state.store.root,
                                                    g["id"])[:15], 16)


# --------------------------------------------------------------------------- the store

def test_games_survive_a_restart(store):
    with Owner(web.create_app(store, table=FakeTable, illegal=FakeIllegal)) as c:
        g = new(c)
        played = c.post(f"/api/games/{g['id']}/act", json={
            "seq": 0, "action": {"type": "card", "card": g["view"]["hand"][0]}}).json()
        tokens = c.tokens
    (store / ".tmp-left-by-a-kill.json").write_text("{")
    with Owner(web.create_app(store, table=FakeTable, illegal=FakeIllegal)) as c:
        c.tokens = tokens
        assert not (store / ".tmp-left-by-a-kill.json").exists()
        assert c.get(f"/api/games/{g['id']}").json() == played
        r = c.post(f"/api/games/{g['id']}/act", json={
            "seq": 1, "action": {"type": "card", "card": played["view"]["hand"][0]}})
        assert r.status_code == 200 and r.json()["seq"] == 2


def test_one_games_error_touches_no_other(client, store, monkeypatch):
    a, b = new(client), new(client, number=8)
    monkeypatch.setattr(FakeTable, "crash_on", "card")
    before = (store / f"{a['id']}.json").read_bytes()
    r = client.post(f"/api/games/{a['id']}/act", json={
        "seq": 0, "action": {"type": "card", "card": a["view"]["hand"][0]}})
    assert "as it was" in one_line_error(r, 500)["error"]
    assert client.get(f"/api/games/{a['id']}").json() == a      # restored, not "broken"
    assert (store / f"{a['id']}.json").read_bytes() == before
    monkeypatch.setattr(FakeTable, "crash_on", "crash")
    r = client.post(f"/api/games/{b['id']}/act", json={
        "seq": 0, "action": {"type": "card", "card": b["view"]["hand"][0]}})
    assert r.status_code == 200
    r = client.post(f"/api/games/{a['id']}/act", json={
        "seq": 0, "action": {"type": "card", "card": a["view"]["hand"][0]}})
    assert r.status_code == 200


def test_a_failed_write_leaves_the_game_as_it_was(client, store, monkeypatch):
    g = new(client)
    before = (store / f"{g['id']}.json").read_bytes()

    def broken(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", broken)
    r = client.post(f"/api/games/{g['id']}/act", json={
        "seq": 0, "action": {"type": "card", "card": g["view"]["hand"][0]}})
    one_line_error(r, 500)
    monkeypatch.undo()
    assert (store / f"{g['id']}.json").read_bytes() == before
    assert not [p for p in store.iterdir() if p.name.startswith(".tmp")]
    assert client.get(f"/api/games/{g['id']}").json() == g


def test_a_fake_game_plays_to_the_end(client):
    g = new(client)
    rng = random.Random(1)
    for _ in range(500):
        view = g["view"]
        if view["phase"] == "game_over":
            break
        if view["phase"] == "deal_over":
            action = {"type": "next"}
        else:
            action = {"type": "card", "card": rng.choice(view["hand"])}
        r = client.post(f"/api/games/{g['id']}/act", json={"seq": g["seq"], "action": action})
        assert r.status_code == 200, r.text
        g = r.json()
    assert g["view"]["phase"] == "game_over" and max(g["view"]["score"].values()) == 5
    r = client.post(f"/api/games/{g['id']}/act",
                    json={"seq": g["seq"], "action": {"type": "next"}})
    assert one_line_error(r, 422)["law"] == "Law 46"


# --------------------------------------------------------------------------- chart, advice

def test_the_strategy_card_as_json_and_svg(client):
    r = client.get("/api/chart", params={"role": "dealer", "score": "3-4"})
    assert r.status_code == 200, r.text
    c = r.json()
    assert c["role"] == "dealer" and c["score"] == "3-4"
    assert len(c["cells"]) == len(c["rows"]) * len(c["columns"])
    assert {x["action"] for x in c["cells"]} <= {"accept", "refuse", None}
    from ecarte_sim.analysis.ecarte.solving import chart as card
    from ecarte_sim.analysis.ecarte.solving import solved
    s = solved.load(None)
    want = card.compute("elder", s.table("elder")[0], s.gain("elder")[0],
                        card.treatise_tables()["elder"])
    got = client.get("/api/chart").json()
    assert got["reproduced"] == pytest.approx(want.reproduced)
    svg = client.get("/api/chart", params={"format": "svg", "against": "treatise"})
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in svg.content[:2000]


@pytest.mark.parametrize("params, says", [
    ({"role": "banker"}, "banker"), ({"score": "5-0"}, "5-0"), ({"score": "x"}, "x"),
    ({"format": "gif"}, "gif"), ({"against": "hoyle"}, "hoyle"), ({"colour": "1"}, "colour"),
])
def test_bad_chart_requests(client, params, says):
    assert says in one_line_error(client.get("/api/chart", params=params), 400)["error"]


def test_advice_on_a_hand(client):
    from ecarte_sim.analysis.ecarte.advice import first_decision as advice
    body = {"hand": "KH QH 7S 8D 9C", "turn_up": "9H", "trump": "9H", "score": "0-0",
            "role": "elder", "deals": 2048}
    r = client.post("/api/advise", json=body)
    assert r.status_code == 200, r.text
    a = r.json()
    want = advice.advise("KH QH 7S 8D 9C", "9H", "0-0", "elder", turn_up="9H", deals=2048)
    assert a["action"] == want["action"] and a["n"] == want["n"]
    assert a["values"]["propose"]["p_win"] == pytest.approx(want["values"]["propose"]["p_win"])
    r = client.post("/api/advise", json={**body, "discard": True, "deals": 256})
    assert r.status_code == 200 and "discard" in r.json()


@pytest.mark.parametrize("body, says", [
    ({}, "hand"), ({"hand": "KH QH 7S 8D", "trump": "H"}, "hand"),
    ({"hand": "KH QH 7S 8D ZZ", "trump": "H"}, "ZZ"),
    ({"hand": "KH QH 7S 8D 9C", "trump": "KH"}, "KH"),
    ({"hand": "KH QH 7S 8D 9C"}, "trump"),
    ({"hand": "KH QH 7S 8D 9C", "trump": "H", "role": "banker"}, "banker"),
    ({"hand": "KH QH 7S 8D 9C", "trump": "H", "score": "9-9"}, "9-9"),
    ({"hand": "KH QH 7S 8D 9C", "trump": "H", "deals": 10**9}, "deals"),
    ({"hand": "KH QH 7S 8D 9C", "trump": "H", "why": 1}, "why"),
])
def test_bad_advice_requests(client, body, says):
    assert says in one_line_error(client.post("/api/advise", json=body), 400)["error"]


def test_which_card(client):
    from ecarte_sim.analysis.ecarte.play import card_advice as cards
    body = {"hand": "KH 7H QS 8D 9C", "turn_up": "9H", "role": "elder", "said": "play",
            "worlds": 32}
    r = client.post("/api/cards", json=body)
    assert r.status_code == 200, r.text
    want = cards.card_values("KH 7H QS 8D 9C", "9H", "elder", said="play", worlds=32)
    assert r.json()["best"] == want["best"]
    assert [c["point"] for c in r.json()["cards"]] == [c["point"] for c in want["cards"]]
    dd = client.post("/api/cards", json={**body, "opponent": "AH JS TS 7D 8C"}).json()
    assert dd["dd_best"] and all("dd_tricks" in c for c in dd["cards"])


@pytest.mark.parametrize("body, says", [
    ({"turn_up": "9H", "role": "elder"}, "hand"),
    ({"hand": "KH 7H QS 8D ZZ", "turn_up": "9H", "role": "elder"}, "ZZ"),
    ({"hand": "KH 7H QS 8D 9C", "turn_up": "9H", "role": "banker"}, "banker"),
    ({"hand": "KH 7H QS 8D 9C", "turn_up": "9H", "role": "elder", "worlds": 10**6}, "worlds"),
    ({"hand": "KH 7H QS 8D 9C", "turn_up": "9H", "role": "elder", "said": ["play"]}, "said"),
    ({"hand": "KH 7H QS 8D 9C", "turn_up": "9H", "role": "elder", "said": "shout"}, "shout"),
    ({"hand": "KH 7H QS 8D 9C", "turn_up": "KH", "role": "elder"}, "KH"),
    ({"hand": "KH 7H QS 8D 9C", "turn_up": "9H", "role": "elder", "x": 1}, "'x'"),
])
def test_bad_card_questions(client, body, says):
    assert says in one_line_error(client.post("/api/cards", json=body), 400)["error"]


# --------------------------------------------------------------------------- the real table

def _session():
    from ecarte_sim.apps.practice import session
    return session


def test_the_record_downloaded_mid_deal_hides_the_computers_cards(tmp_path):
    session = _session()
    with Owner(web.create_app(fixed_secret(tmp_path))) as c:
        g = c.post("/api/games", json={"number": 12, "coach": False, "worlds": 16}).json()
        key = key_of(tmp_path, g["id"])
        full = session.Table.new(key=key, coach=False, worlds=16).record()["deals"][0]
        whole = c.get(f"/api/games/{g['id']}/record").json()
        assert whole["key"] is None and whole["deals"][0]["seed"] is None
        rec = whole["deals"][0]
        assert rec["hands"]["computer"] == ["?"] * 5 and rec["stock"] is None
        assert rec["hands"]["person"] == full["hands"]["person"]
        text = json.dumps(rec)
        unseen = set(full["hands"]["computer"]) - {a.get("card") for a in rec["actions"]}
        assert unseen and not any(f'"{card}"' in text for card in unseen)
        saved = json.loads((tmp_path / f"{g['id']}.json").read_text())["record"]
        assert saved["deals"][0]["hands"]["computer"] == full["hands"]["computer"]


@pytest.mark.parametrize("opponent, coach", [("alphamu", True), ("strategy", False),
                                             ("treatise", True)])
def test_a_real_game_through_the_api_is_the_game_played_directly(tmp_path, opponent, coach):
    """Random legal actions through HTTP; the same actions on a Table made directly give
    the same views and the same record; every illegal card is refused naming Law 43."""
    from ecarte_sim.apps.practice.random_play import choose
    session = _session()
    rng = random.Random(3)
    with Owner(web.create_app(fixed_secret(tmp_path))) as c:
        g = c.post("/api/games", json={"number": 11, "coach": coach, "worlds": 16,
                                       "opponent": opponent}).json()
        direct = session.Table.new(key=key_of(tmp_path, g["id"]), coach=coach, worlds=16,
                                   opponent=opponent, number=11)
        assert g["view"] == json.loads(json.dumps(direct.view()))
        refused = 0
        for _ in range(400):
            view = g["view"]
            legal = view["legal"]
            if view["phase"] == "play" and len(legal.get("cards", [])) < len(view["hand"]):
                bad = next(x for x in view["hand"] if x not in legal["cards"])
                r = c.post(f"/api/games/{g['id']}/act",
                           json={"seq": g["seq"], "action": {"type": "card", "card": bad}})
                assert one_line_error(r, 422)["law"] == "Law 43"
                refused += 1
            action = choose(view, rng)
            if action is None:
                break
            r = c.post(f"/api/games/{g['id']}/act", json={"seq": g["seq"], "action": action})
            if r.status_code == 422:       # a random discard the laws forbid: nothing changed
                with pytest.raises(session.IllegalAction):
                    direct.act(action)
                continue
            assert r.status_code == 200, r.text
            g = r.json()
            assert g["view"] == json.loads(json.dumps(direct.act(action)))
        assert g["view"]["phase"] == "game_over"
        assert c.get(f"/api/games/{g['id']}/record").json() == json.loads(
            json.dumps(direct.record()))
        assert refused > 0


def test_the_load_test_plays_games_at_once_on_a_socket():
    from ecarte_sim.apps.web.load import load_test
    r = load_test(games=4, table=FakeTable, illegal=FakeIllegal, timeout=BLOCKED)
    assert r["errors"] == [] and r["finished"] == 4
    assert r["requests"] == r["actions"] + 4 and r["latency_ms"]["p95"] > 0
    paced = load_test(games=2, max_actions=3, table=FakeTable, illegal=FakeIllegal,
                      timeout=BLOCKED, think=0.05)
    assert paced["errors"] == [] and paced["think_s"] == 0.05 and paced["actions"] == 6
    assert paced["wall_s"] >= 3 * 0.05 * 0.5


# --------------------------------------------------------------------------- the command

@pytest.mark.parametrize("host, warned", [("127.0.0.1", False), ("localhost", False),
                                          ("::1", False), ("0.0.0.0", True),
                                          ("192.168.1.5", True)])
def test_serve_binds_loopback_unless_told_and_warns(cli, tmp_path, monkeypatch, host,
                                                    warned):
    from ecarte_sim.apps.web import server
    calls = []

    apps = []

    def fake_serve(app, host, port, on_ready=None, url_host=None):
        calls.append((host, port))
        apps.append(app)
        on_ready(f"http://{host}:{port}/")
    monkeypatch.setattr(server, "serve", fake_serve)
    from ecarte_sim.apps.cli import serve as command
    monkeypatch.setattr(command, "_check_listen", lambda host, port: None)  # any address
    code, out, err = cli("serve", "--host", host, "--port", "9999", "--store",
                         str(tmp_path), "--no-warm-up")
    assert code == 0 and calls == [(host, 9999)]
    assert ("Warning: listening on" in err) == warned
    assert "The practice table: http://" in err
    with TestClient(apps[-1]) as c:          # DNS rebinding refused on every address
        named = f"[{host}]" if ":" in host else host
        for name, status in ((f"{named}:9999", 200 if host != "0.0.0.0" else 400),
                             ("localhost:9999", 200), ("evil.example:9999", 400)):
            assert c.get("/", headers={"host": name}).status_code == status, name
    if warned:
        assert "token" in err and "plain HTTP" in err and "Host" in err
    code, out, err = cli("serve", "--store", str(tmp_path), "--no-warm-up")
    assert calls[-1] == ("127.0.0.1", 8034)


@pytest.mark.parametrize("args, token", [
    (["--port", "70000"], "70000"), (["--port", "x"], "x"), (["--load-test", "0"], "0"),
    (["--nosuch"], "--nosuch"),
])
def test_serve_bad_options_are_one_line(cli, args, token):
    code, out, err = cli("serve", *args)
    assert code == 2 and out == ""
    assert err.startswith("Error: ") and err.count("\n") == 1 and token in err


def test_serve_on_a_port_in_use_is_one_line(cli, tmp_path):
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        code, out, err = cli("serve", "--port", str(port), "--store", str(tmp_path),
                             "--no-warm-up")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"Error: cannot listen on 127.0.0.1:{port}")
    code, out, err = cli("serve", "--host", "no.such.host.invalid", "--store",
                         str(tmp_path), "--no-warm-up")
    assert code == 2 and "no.such.host.invalid" in err and err.count("\n") == 1


def test_the_load_test_command_on_the_real_table(cli):
    _session()
    code, out, err = cli("serve", "--load-test", "3", "--actions", "4", "--json")
    assert code == 0, err
    r = json.loads(out)
    assert r["games"] == 3 and r["errors"] == [] and r["actions"] == 12
    assert r["requests"] == 15 and r["latency_ms"]["p95"] >= r["latency_ms"]["p50"] > 0


def test_ctrl_c_loses_nothing_and_a_new_process_resumes(tmp_path):
    """The real command in its own process: play, Ctrl-C (SIGINT), start again on the same
    store: the game is where it was and plays on."""
    import signal
    import subprocess
    import time
    import urllib.request
    from ecarte_sim.apps.practice.random_play import choose
    from ecarte_sim.apps.web.server import free_port
    _session()

    def start():
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "ecarte_sim.apps.cli", "serve",
                                 "--port", str(port), "--store", str(tmp_path),
                                 "--no-warm-up"], stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                 signal.SIG_DFL))
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + BLOCKED
        while True:
            try:
                urllib.request.urlopen(base + "/api/games", timeout=2).read()
                return proc, base
            except OSError:
                assert proc.poll() is None, proc.stderr.read()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)

    tokens = {}

    def call(base, path, body=None):
        headers = {"Content-Type": "application/json"}
        if "/api/games/" in path:
            headers["X-Game-Token"] = tokens[path.split("/")[3]]
        req = urllib.request.Request(base + path, method="GET" if body is None else "POST",
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers=headers)
        with urllib.request.urlopen(req, timeout=BLOCKED) as r:
            return json.loads(r.read())

    proc, base = start()
    try:
        g = call(base, "/api/games", {"number": 5, "worlds": 16})
        tokens[g["id"]] = g.pop("token")
        rng = random.Random(0)
        for _ in range(3):
            g = call(base, f"/api/games/{g['id']}/act",
                     {"seq": g["seq"], "action": choose(g["view"], rng)})
    finally:
        proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=BLOCKED)[1]
    assert proc.returncode in (0, 130), err
    assert "Traceback" not in err
    proc, base = start()
    try:
        again = call(base, f"/api/games/{g['id']}")
        diff = {k for k in g["view"] if again["view"].get(k) != g["view"][k]}
        assert again["seq"] == g["seq"] and diff <= {"events"}, diff  # events: since the last view
        nxt = call(base, f"/api/games/{g['id']}/act",
                   {"seq": g["seq"], "action": choose(g["view"], random.Random(1))})
        assert nxt["seq"] == g["seq"] + 1
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=BLOCKED)


# --------------------------------------------------------------------------- issue 43

def test_a_game_number_gives_the_same_game_on_one_store_and_hides_its_key(client, store):
    a, b = new(client, number=21), new(client, number=21)
    assert a["view"] == b["view"] and a["id"] != b["id"]
    key = key_of(store, a["id"])
    assert key == client.app.state.store.key_for(21)
    for r in (client.get(f"/api/games/{a['id']}"), client.get("/api/games")):
        assert key not in r.text
    with Owner(web.create_app(store.parent / "other", table=FakeTable,
                              illegal=FakeIllegal)) as other:
        assert (store.parent / "other" / ".secret").stat().st_mode & 0o777 == 0o600
        assert other.app.state.store.key_for(21) != key       # another server's secret


def test_a_second_client_without_the_token_can_neither_see_nor_act(client, store):
    a = new(client)
    b_token = client.post("/api/games", json={}).json()["token"]
    path = f"/api/games/{a['id']}"
    before = (store / f"{a['id']}.json").read_bytes()
    act = {"seq": 0, "action": {"type": "card", "card": a["view"]["hand"][0]}}
    stranger = TestClient(client.app)
    for headers, status in (({}, 403), ({"X-Game-Token": b_token}, 404),
                            ({"X-Game-Token": "x" * 64}, 404), ({"X-Game-Token": ""}, 403)):
        one_line_error(stranger.get(path, headers=headers), status)
        one_line_error(stranger.get(path + "/record", headers=headers), status)
        one_line_error(stranger.post(path + "/act", json=act, headers=headers),
                       status)
    assert (store / f"{a['id']}.json").read_bytes() == before
    # the listing: only the games whose tokens are shown
    assert stranger.get("/api/games").json()["games"] == []
    mine = stranger.get("/api/games", headers={
        "X-Game-Tokens": f"{a['id']}:{client.tokens[a['id']]},{a['id']}:{b_token},junk"})
    assert [g["id"] for g in mine.json()["games"]] == [a["id"]]
    assert len(client.get("/api/games").json()["games"]) == 2
    many = ",".join(f"{a['id']}:x" for _ in range(101))
    one_line_error(stranger.get("/api/games", headers={"X-Game-Tokens": many}), 400)
    # the token is the game's own and the page's only: not in the store's file
    assert client.tokens[a["id"]].encode() not in before


DEEP = b'{"seq": 0, "action": ' + b"[" * 1000 + b"]" * 1000 + b"}"


@pytest.mark.parametrize("path", ["/api/games", "ACT", "/api/advise", "/api/cards"])
def test_a_body_nested_1000_deep_is_a_400(client, path):
    g = new(client)
    path = f"/api/games/{g['id']}/act" if path == "ACT" else path
    assert len(DEEP) < 2100
    r = client.post(path, content=DEEP, headers={"content-type": "application/json"})
    assert "nested" in one_line_error(r, 400)["error"]
    inside_a_string = json.dumps({"seq": 0, "action": {"type": "card", "card": "[" * 900}})
    r = client.post(f"/api/games/{g['id']}/act", content=inside_a_string,
                    headers={"content-type": "application/json"})
    assert "card" in one_line_error(r, 400)["error"]       # brackets in a string: no depth


@pytest.mark.parametrize("body, says", [
    ({"seq": 0, "action": {"type": []}}, "type"), ({"seq": 0, "action": {"type": {}}}, "type"),
    ({"seq": 0, "action": {"type": None}}, "type"), ({"seq": 0, "action": {"type": 1.5}}, "type"),
    ({"seq": 0, "action": {"type": "discard", "cards": [[]]}}, "card"),
    ({"seq": 0, "action": {"type": "discard", "cards": [{"a": 1}]}}, "card"),
    ({"seq": [], "action": {"type": "next"}}, "seq"),
])
def test_list_typed_fields_are_a_400(client, body, says):
    g = new(client)
    r = client.post(f"/api/games/{g['id']}/act", json=body)
    assert says in one_line_error(r, 400)["error"]


@pytest.mark.parametrize("body, says", [
    ({"hand": "KH QH 7S 8D 9C", "trump": "H", "discard": "yes"}, "discard"),
    ({"hand": "KH QH 7S 8D 9C", "trump": "H", "role": ["elder"]}, "role"),
    ({"hand": "KH QH 7S 8D 9C", "trump": "H", "against": {}}, "opponent"),
    ({"hand": ["KH"], "trump": "H"}, "hand"),
])
def test_badly_typed_advice_is_a_400(client, body, says):
    assert says in one_line_error(client.post("/api/advise", json=body), 400)["error"]


def test_every_malformed_request_is_a_4xx_with_one_line(client):
    """Hypothesis: any JSON (of any type, nesting and keys) sent to each endpoint gets 2xx
    or a 4xx with a one-line reason, never a 500."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    g = new(client)
    leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                     st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8),
                     st.sampled_from(["KH", "10S", "card", "discard", "king", "next", "play",
                                      "elder", "H", "9H", "0-0", "propose"]))
    keys = st.sampled_from(["seq", "action", "type", "card", "cards", "announce", "number",
                            "opponent", "coach", "worlds", "hand", "trump", "role", "score",
                            "turn_up", "discard", "deals", "said", "played", "x"])
    values = st.recursive(leaf, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                       st.dictionaries(keys, kids, max_size=4)),
                          max_leaves=12)
    bodies = st.one_of(values, st.dictionaries(keys, values, max_size=5),
                       st.fixed_dictionaries({"seq": values, "action": st.dictionaries(
                           keys, values, max_size=3)}))

    @settings(max_examples=150, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(body=bodies, path=st.sampled_from(["/api/games", "ACT", "/api/advise",
                                              "/api/cards"]))
    def check(body, path):
        if path == "/api/advise" and isinstance(body, dict):
            body = {**body, "deals": 64}
        if path == "/api/cards" and isinstance(body, dict):
            body = {**body, "worlds": 8}
        url = f"/api/games/{g['id']}/act" if path == "ACT" else path
        r = client.post(url, json=body)
        assert r.status_code < 500, (body, r.text)
        if r.status_code >= 400:
            one_line_error(r, r.status_code)
    check()


def test_every_response_has_the_security_headers(client):
    for r in (client.get("/"), client.get("/static/app.js"), client.get("/api/nosuch"),
              client.post("/api/games", json={"x": 1})):
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "frame-ancestors 'none'" in csp
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"


def test_no_inline_script_or_handler_in_the_page(client):
    import re
    page = client.get("/").text
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)
    assert not re.search(r"\son[a-z]+\s*=", page)


def _seen_by_person(deal: dict) -> set[str]:
    """The cards the person has seen in a stored deal so far: his hands, his draws and
    discards, the turn-up, every card played, the king of trumps announced."""
    seen = set(deal["hands"]["person"]) | {deal["turn_up"]}
    for a in deal["actions"]:
        if a["by"] == "person" and a["type"] == "discard":
            seen |= set(a["cards"]) | set(a.get("drawn") or [])
        if a["type"] == "card":
            seen.add(a["card"])
        if a["type"] == "king" and a["announce"]:
            seen.add("K" + deal["turn_up"][-1])        # announced: shown (Law 23)
    return seen


@pytest.mark.parametrize("opponent", ["strategy"])
def test_no_response_before_the_deal_is_over_tells_a_hidden_card(tmp_path, opponent):
    """A whole real game with the coach through the API: until each deal is over, no
    response (the view, the record, the listing) holds the game's key or the deal's seed
    or names a card the person has not seen; once a deal is over its seed is told, once
    the game is over the key, and the record replays bit for bit."""
    import re
    from ecarte_sim.apps.practice.random_play import choose
    session = _session()
    ALL = [r + s for s in "SHDC" for r in "789TJQKA"]
    rng = random.Random(5)
    with Owner(web.create_app(fixed_secret(tmp_path))) as c:
        g = c.post("/api/games", json={"coach": True, "worlds": 16,
                                       "opponent": opponent}).json()
        key = key_of(tmp_path, g["id"])
        checked = 0
        for _ in range(400):
            stored = json.loads((tmp_path / f"{g['id']}.json").read_text())["record"]
            hidden = set(ALL) - _seen_by_person(stored["deals"][-1])
            if g["view"]["phase"] not in ("deal_over", "game_over"):
                record = c.get(f"/api/games/{g['id']}/record")
                texts = [json.dumps(g), c.get(f"/api/games/{g['id']}").text, record.text,
                         c.get("/api/games").text]
                for text in texts:
                    assert key not in text and str(stored["deals"][-1]["seed"]) not in text
                # the cards named in this deal's part (earlier deals are over: shown whole)
                for text in texts[:2] + [json.dumps(record.json()["deals"][-1])]:
                    named = {x for x in re.findall(r"\b(?:10|[789TJQKA])[SHDC]\b", text)}
                    assert not named & hidden, named & hidden
                checked += 1
            action = choose(g["view"], rng)
            if action is None:
                break
            r = c.post(f"/api/games/{g['id']}/act", json={"seq": g["seq"], "action": action})
            if r.status_code == 422:
                continue
            assert r.status_code == 200, r.text
            g = r.json()
        assert g["view"]["phase"] == "game_over" and g["view"]["key"] == key
        assert checked > 10
        record = c.get(f"/api/games/{g['id']}/record").json()
        assert record["key"] == key and all(d["seed"] for d in record["deals"])
        again = session.Table.from_record(record)
        assert json.dumps(again.record(), sort_keys=True) == json.dumps(record, sort_keys=True)


def _stored(store: Path, game_id: str) -> dict:
    return json.loads((store / f"{game_id}.json").read_text())


@pytest.mark.parametrize("damage", ["deep", "updated_text", "no_created", "directory",
                                    "seq_text", "not_json", "record_list", "score_text"])
def test_one_damaged_store_file_is_skipped_with_a_log_line(store, damage, caplog):
    """A damaged file (deep nesting, "updated" a string, no "created", a directory named
    <id>.json, "seq" "abc", ...) is skipped by the listing with a log line, the other games
    listed; asking for it is a one-line 500 naming no path, never a client's 400."""
    import logging
    with Owner(web.create_app(store, table=FakeTable, illegal=FakeIllegal)) as c:
        good, bad = new(c), new(c, number=8)
        tokens = dict(c.tokens)
    path = store / f"{bad['id']}.json"
    data = _stored(store, bad["id"])
    if damage == "deep":
        path.write_text('{"format": "ecarte-sim web game 1", "x": ' + "[" * 100000
                        + "]" * 100000 + "}")
    elif damage == "directory":
        path.unlink()
        path.mkdir()
    elif damage == "not_json":
        path.write_text("{")
    else:
        key, value = {"updated_text": ("updated", "yesterday"), "no_created": ("created", None),
                      "seq_text": ("seq", "abc"), "record_list": ("record", []),
                      "score_text": ("record", {**data["record"], "score": "5-0"})}[damage]
        if value is None:
            del data[key]
        else:
            data[key] = value
        path.write_text(json.dumps(data))
    caplog.set_level(logging.WARNING, logger="ecarte_sim.web")
    with Owner(web.create_app(store, table=FakeTable, illegal=FakeIllegal)) as c:
        c.tokens = tokens
        listed = c.get("/api/games")
        assert listed.status_code == 200
        assert [g["id"] for g in listed.json()["games"]] == [good["id"]]
        assert any(bad["id"] in r.getMessage() for r in caplog.records)
        r = c.get(f"/api/games/{bad['id']}")
        err = one_line_error(r, 500)["error"]
        assert "damaged" in err and str(store) not in err
        assert c.get(f"/api/games/{good['id']}").status_code == 200


def test_the_listing_uses_the_file_names_id(store):
    with Owner(web.create_app(store, table=FakeTable, illegal=FakeIllegal)) as c:
        a = new(c)
        tokens = dict(c.tokens)
    data = _stored(store, a["id"])
    data["id"] = "AAAAAAAAAAAAAAAAAAAAAA"       # a file that says it is another game
    (store / f"{a['id']}.json").write_text(json.dumps(data))
    with Owner(web.create_app(store, table=FakeTable, illegal=FakeIllegal)) as c:
        c.tokens = tokens
        assert [g["id"] for g in c.get("/api/games").json()["games"]] == [a["id"]]


def test_new_ids_never_start_with_a_dash_or_underscore():
    from ecarte_sim.apps.web.store import new_id
    ids = [new_id() for _ in range(3000)]
    assert all(ID_PATTERN.match(i) and i[0] not in "-_" for i in ids)
    assert len(set(ids)) == len(ids)


def test_finished_games_leave_memory_and_the_listing_reads_no_file(store, monkeypatch):
    """A finished game is dropped from memory once saved (a later request reads its file);
    at most ``resident`` games stay in memory; the listing reads the index, no file; the
    directory is fsynced after each rename."""
    import builtins
    app = web.create_app(store, table=FakeTable, illegal=FakeIllegal)
    games = app.state.store
    games.resident = 3
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.path.isdir(
        f"/proc/self/fd/{fd}")), real_fsync(fd))[1])
    with Owner(app) as c:
        ids = [new(c, number=i)["id"] for i in range(5)]
        assert games.resident_games() == 3
        assert any(synced), "the store's directory was never fsynced"
        g = c.get(f"/api/games/{ids[0]}").json()
        rng = random.Random(0)
        for _ in range(500):
            if g["view"]["phase"] == "game_over":
                break
            action = {"type": "next"} if g["view"]["phase"] == "deal_over" else \
                {"type": "card", "card": rng.choice(g["view"]["hand"])}
            g = c.post(f"/api/games/{ids[0]}/act", json={"seq": g["seq"], "action": action}
                       ).json()
        assert g["view"]["phase"] == "game_over"
        assert ids[0] not in games._games
        assert c.get(f"/api/games/{ids[0]}").json()["seq"] == g["seq"]     # from its file
        assert ids[0] not in games._games
        opened = []
        real_open = builtins.open
        monkeypatch.setattr(builtins, "open", lambda *a, **k: (opened.append(a[0]),
                                                               real_open(*a, **k))[1])
        listed = c.get("/api/games").json()["games"]
        monkeypatch.setattr(builtins, "open", real_open)
        assert len(listed) == 5 and not [p for p in opened if str(p).endswith(".json")]
        assert next(x for x in listed if x["id"] == ids[0])["over"] is True


def test_a_hint_on_demand_changes_nothing(tmp_path):
    """GET /api/games/{id}/hint: a legal action for the pending decision, from the
    person's knowledge; the game and its file unchanged; 422 when nothing is pending; the
    token needed as for any request on the game."""
    _session()
    with Owner(web.create_app(fixed_secret(tmp_path))) as c:
        g = c.post("/api/games", json={"number": 3, "coach": False, "worlds": 16}).json()
        before = (tmp_path / f"{g['id']}.json").read_bytes()
        r = c.get(f"/api/games/{g['id']}/hint")
        assert r.status_code == 200, r.text
        hint = r.json()
        legal = g["view"]["legal"]
        kind = hint["action"]["type"]
        assert kind in legal["actions"] and hint["text"].startswith("Hint: ")
        if kind == "card":
            assert hint["action"]["card"] in legal["cards"]
        assert (tmp_path / f"{g['id']}.json").read_bytes() == before
        assert c.get(f"/api/games/{g['id']}").json()["seq"] == g["seq"]
        after = c.post(f"/api/games/{g['id']}/act", json={"seq": g["seq"],
                                                          "action": hint["action"]})
        assert after.status_code == 200, after.text
        one_line_error(TestClient(c.app).get(f"/api/games/{g['id']}/hint"), 403)


def test_the_rules_are_served(client):
    r = client.get("/rules")
    assert r.status_code == 200 and "Écarté" in r.text
    page = client.get("/").text
    assert 'href="/rules"' in page and "How to play" in page
