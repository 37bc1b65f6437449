"""The practice table's HTTP API through Starlette's test client: every endpoint, every bad
request (a 4xx with a one-line reason, the game unchanged), the store (atomic records, a
restart, one game's error kept to itself), the bounded load test on a real socket.

Most tests drive a tiny stand-in game (tests/web_fake.py) so that a failure can be made on
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

from ecarte_sim.analysis.web import app as web  # noqa: E402
from ecarte_sim.analysis.web.store import FORMAT, ID_PATTERN  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from web_fake import FakeIllegal, FakeTable  # noqa: E402


@pytest.fixture
def store(tmp_path):
    return tmp_path / "games"


@pytest.fixture
def client(store):
    with TestClient(web.create_app(store, table=FakeTable, illegal=FakeIllegal)) as c:
        yield c


def new(client, **body):
    r = client.post("/api/games", json={"seed": 7, **body})
    assert r.status_code == 201, r.text
    return r.json()


def one_line_error(r, status):
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) <= {"error", "law"} and body["error"]
    assert "\n" not in body["error"]
    return body


# --------------------------------------------------------------------------- the page

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
    assert saved["settings"] == {"seed": 7, "opponent": "treatise", "coach": False,
                                 "worlds": 32}
    other = client.post("/api/games", json={}).json()
    assert other["id"] != g["id"]
    listed = client.get("/api/games").json()["games"]
    assert {x["id"] for x in listed} == {g["id"], other["id"]}
    assert all(x["over"] is False and x["seq"] == 0 and "score" in x for x in listed)


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
    ({"opponent": "god"}, "god"), ({"seed": -1}, "seed"), ({"seed": 2**64}, "seed"),
    ({"seed": "1"}, "seed"), ({"coach": "yes"}, "coach"), ({"worlds": 3}, "worlds"),
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
    one_line_error(client.get(path), 404)


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
    assert r.json()["state"]["seed"] == 7


# --------------------------------------------------------------------------- the store

def test_games_survive_a_restart(store):
    with TestClient(web.create_app(store, table=FakeTable, illegal=FakeIllegal)) as c:
        g = new(c)
        played = c.post(f"/api/games/{g['id']}/act", json={
            "seq": 0, "action": {"type": "card", "card": g["view"]["hand"][0]}}).json()
    (store / ".tmp-left-by-a-kill.json").write_text("{")
    with TestClient(web.create_app(store, table=FakeTable, illegal=FakeIllegal)) as c:
        assert not (store / ".tmp-left-by-a-kill.json").exists()
        assert c.get(f"/api/games/{g['id']}").json() == played
        r = c.post(f"/api/games/{g['id']}/act", json={
            "seq": 1, "action": {"type": "card", "card": played["view"]["hand"][0]}})
        assert r.status_code == 200 and r.json()["seq"] == 2


def test_one_games_error_touches_no_other(client, store, monkeypatch):
    a, b = new(client), new(client, seed=8)
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
    from ecarte_sim.analysis.ecarte import chart as card
    from ecarte_sim.analysis.ecarte import solved
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
    from ecarte_sim.analysis.ecarte import advice
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
    from ecarte_sim.analysis.practice import cards
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
    try:
        from ecarte_sim.analysis.practice import session
    except ImportError as exc:
        pytest.skip(f"the practice table is not there yet ({exc})")
    return session


def test_the_record_downloaded_mid_deal_hides_the_computers_cards(tmp_path):
    session = _session()
    with TestClient(web.create_app(tmp_path)) as c:
        g = c.post("/api/games", json={"seed": 12, "coach": False, "worlds": 16}).json()
        full = session.Table.new(seed=12, coach=False, worlds=16).record()["deals"][0]
        rec = c.get(f"/api/games/{g['id']}/record").json()["deals"][0]
        assert rec["hands"]["computer"] == ["?"] * 5 and rec["stock"] is None
        assert rec["hands"]["person"] == full["hands"]["person"]
        text = json.dumps(rec)
        unseen = set(full["hands"]["computer"]) - {a.get("card") for a in rec["actions"]}
        assert unseen and not any(f'"{card}"' in text for card in unseen)
        saved = json.loads((tmp_path / f"{g['id']}.json").read_text())["record"]
        assert saved["deals"][0]["hands"]["computer"] == full["hands"]["computer"]


@pytest.mark.parametrize("opponent, coach", [("strategy", False), ("treatise", True)])
def test_a_real_game_through_the_api_is_the_game_played_directly(tmp_path, opponent, coach):
    """Random legal actions through HTTP; the same actions on a Table made directly give
    the same views and the same record; every illegal card is refused naming Law 43."""
    from ecarte_sim.analysis.web.load import choose
    session = _session()
    rng = random.Random(3)
    with TestClient(web.create_app(tmp_path)) as c:
        g = c.post("/api/games", json={"seed": 11, "coach": coach, "worlds": 16,
                                       "opponent": opponent}).json()
        direct = session.Table.new(seed=11, coach=coach, worlds=16, opponent=opponent)
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
    from ecarte_sim.analysis.web.load import load_test
    r = load_test(games=4, table=FakeTable, illegal=FakeIllegal, timeout=60)
    assert r["errors"] == [] and r["finished"] == 4
    assert r["requests"] == r["actions"] + 4 and r["latency_ms"]["p95"] > 0


# --------------------------------------------------------------------------- the command

def _cli(capsys, *args):
    from ecarte_sim.analysis.cli import run
    with pytest.raises(SystemExit) as exc:
        run(list(args))
        raise SystemExit(0)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


@pytest.mark.parametrize("host, warned", [("127.0.0.1", False), ("localhost", False),
                                          ("::1", False), ("0.0.0.0", True),
                                          ("192.168.1.5", True)])
def test_serve_binds_loopback_unless_told_and_warns(capsys, tmp_path, monkeypatch, host,
                                                    warned):
    from ecarte_sim.analysis.web import server
    calls = []

    def fake_serve(app, host, port, on_ready=None):
        calls.append((host, port))
        on_ready(f"http://{host}:{port}/")
    monkeypatch.setattr(server, "serve", fake_serve)
    from ecarte_sim.analysis.cli import serve as command
    monkeypatch.setattr(command, "_check_listen", lambda host, port: None)  # any address
    code, out, err = _cli(capsys, "serve", "--host", host, "--port", "9999", "--store",
                          str(tmp_path), "--no-warm-up")
    assert code == 0 and calls == [(host, 9999)]
    assert ("Warning: listening on" in err) == warned
    assert "The practice table: http://" in err
    code, out, err = _cli(capsys, "serve", "--store", str(tmp_path), "--no-warm-up")
    assert calls[-1] == ("127.0.0.1", 8034)


@pytest.mark.parametrize("args, token", [
    (["--port", "70000"], "70000"), (["--port", "x"], "x"), (["--load-test", "0"], "0"),
    (["--nosuch"], "--nosuch"),
])
def test_serve_bad_options_are_one_line(capsys, args, token):
    code, out, err = _cli(capsys, "serve", *args)
    assert code == 2 and out == ""
    assert err.startswith("Error: ") and err.count("\n") == 1 and token in err


def test_serve_on_a_port_in_use_is_one_line(capsys, tmp_path):
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        code, out, err = _cli(capsys, "serve", "--port", str(port), "--store", str(tmp_path),
                              "--no-warm-up")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"Error: cannot listen on 127.0.0.1:{port}")
    code, out, err = _cli(capsys, "serve", "--host", "no.such.host.invalid", "--store",
                          str(tmp_path), "--no-warm-up")
    assert code == 2 and "no.such.host.invalid" in err and err.count("\n") == 1


def test_the_load_test_command_on_the_real_table(capsys):
    _session()
    code, out, err = _cli(capsys, "serve", "--load-test", "3", "--actions", "4", "--json")
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
    from ecarte_sim.analysis.web.load import choose
    from ecarte_sim.analysis.web.server import free_port
    _session()

    def start():
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "ecarte_sim.analysis.cli", "serve",
                                 "--port", str(port), "--store", str(tmp_path),
                                 "--no-warm-up"], stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                 signal.SIG_DFL))
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(base + "/api/games", timeout=2).read()
                return proc, base
            except OSError:
                assert proc.poll() is None, proc.stderr.read()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)

    def call(base, path, body=None):
        req = urllib.request.Request(base + path, method="GET" if body is None else "POST",
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as r:
            return json.loads(r.read())

    proc, base = start()
    try:
        g = call(base, "/api/games", {"seed": 5, "worlds": 16})
        rng = random.Random(0)
        for _ in range(3):
            g = call(base, f"/api/games/{g['id']}/act",
                     {"seq": g["seq"], "action": choose(g["view"], rng)})
    finally:
        proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=30)[1]
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
        proc.communicate(timeout=30)
