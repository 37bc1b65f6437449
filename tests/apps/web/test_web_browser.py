"""End to end in a real browser: Playwright for Python driving the Chromium of Debian's
``chromium`` package (headless) against ``ecarte-sim serve``'s app on 127.0.0.1.

A person plays a whole deal and a whole game by clicks and keys, as he would; what the page
shows (the cards, the score, the tricks, the coach's verdicts) is checked against the
game's record downloaded from the server. Also: an illegal card refused naming Law 43, the
page at a phone's width, a game resumed after the server restarts, the strategy card and
the advice form. Screenshots go to $ECARTE_SCREENSHOTS (else the test's tmp dir): look at
them, do not commit them.

Skipped, saying why, when Playwright or /usr/bin/chromium is missing (.ci/run installs
chromium with apt-get; the test extra installs playwright)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[web]'")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="playwright is not installed (the test extra installs it)")
CHROMIUM = os.environ.get("ECARTE_CHROMIUM", "/usr/bin/chromium")
if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium; .ci/run does)",
                allow_module_level=True)

from ecarte_sim.apps.web.app import LOOPBACK_HOSTS, create_app  # noqa: E402
from ecarte_sim.apps.web.server import running  # noqa: E402
from helpers import BLOCKED  # noqa: E402

ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
        "--disable-sync"]
SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
STEP_TIMEOUT = BLOCKED * 1000  # ms: a first action may wait for numba to compile its kernels


def shown(card: str) -> str:
    """A card as the page writes it: 10♥, K♠."""
    rank = {"T": "10"}.get(card[:-1], card[:-1])
    return rank + SYMBOL[card[-1]]


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = os.environ.get("ECARTE_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


#: A fixed store secret, so that the game numbers below give the same games every run.
SECRET = b"the browser tests' fixed secret."


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    path = tmp_path_factory.mktemp("store")
    (path / ".secret").write_bytes(SECRET)
    return path


@pytest.fixture(scope="module")
def server(store):
    from ecarte_sim.apps.practice.random_play import warm_up
    warm_up()
    with running(create_app(store, hosts=LOOPBACK_HOSTS), timeout=BLOCKED) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield Patient(b)
        b.close()


class Patient:
    """The browser, whose every context waits for a page as long as :data:`BLOCKED`
    (Playwright's own default is 30 s: a first action on a cold numba cache, on a busy
    machine, can take longer, and no test here measures speed)."""

    def __init__(self, browser):
        self.browser = browser

    def new_context(self, **kwargs):
        context = self.browser.new_context(**kwargs)
        context.set_default_timeout(STEP_TIMEOUT)
        return context


@pytest.fixture
def page(browser, server):
    # bypass_csp: Playwright's wait_for_function evaluates its predicate as a string, which
    # the page's Content-Security-Policy forbids; the hostile-record test runs under it
    context = browser.new_context(viewport={"width": 1100, "height": 900}, bypass_csp=True)
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + "/")
    pg.wait_for_selector("body[data-ready='1']")
    yield pg
    context.close()
    assert errors == [], f"the page's script failed: {errors}"


def new_game(pg, seed: int, coach: bool = True) -> str:
    """A new game by the page's form: game number ``seed`` of the store."""
    pg.fill("#number", str(seed))
    if pg.is_checked("#coach") != coach:
        pg.click("#coach")
    t0 = time.perf_counter()
    pg.click("#new-game-button")
    pg.wait_for_function("document.body.dataset.game && !document.body.classList.contains('busy')"
                         " && document.querySelectorAll('#hand svg.card').length === 5")
    print(f"new game page ready in {1000 * (time.perf_counter() - t0):.0f} ms")
    return pg.evaluate("document.body.dataset.game")


def seq(pg) -> str:
    return pg.evaluate("document.body.dataset.seq")


def wait_after(pg, before: str) -> None:
    pg.wait_for_function(f"document.body.dataset.seq !== '{before}' || "
                         f"document.getElementById('message').textContent !== ''",
                         timeout=STEP_TIMEOUT)
    message = pg.text_content("#message")
    assert not message, f"the page refused a legal action: {message}"


def step(pg, n: int, retry: bool = False) -> str:
    """One decision of the person, by a key on even steps and a click on odd ones; the type
    of the action sent. When the coach offers to try again: ``retry`` takes it, else the
    answer is shown."""
    phase = pg.evaluate("document.body.dataset.phase")
    keys = n % 2 == 0
    before = seq(pg)
    pg.evaluate("document.getElementById('message').textContent = ''")
    if retry and pg.locator("#act-retry").count():
        pg.keyboard.press("t") if keys else pg.click("#act-retry")
        kind = "retry"
    elif pg.locator("#act-reveal").count():            # the coach hides an answer: show it
        pg.keyboard.press("s") if keys else pg.click("#act-reveal")
        kind = "reveal"
    elif phase == "propose":
        pg.keyboard.press("p") if keys else pg.click("#act-play")
        kind = "propose" if keys else "play"
    elif phase == "answer":
        pg.keyboard.press("a") if keys else pg.click("#act-refuse")
        kind = "accept" if keys else "refuse"
    elif phase == "discard":
        pg.keyboard.press("1") if keys else pg.click("#hand svg.card >> nth=0")
        pg.keyboard.press("Enter") if keys else pg.click("#act-discard")
        kind = "discard"
    elif phase == "king":
        pg.keyboard.press("k") if keys else pg.click("#act-king_conceal")
        kind = "king"
    elif phase == "play":
        legal = pg.eval_on_selector_all(
            "#hand svg.card", "els => els.map(e => e.classList.contains('legal'))")
        i = legal.index(True)
        pg.keyboard.press(str(i + 1)) if keys else pg.click(f"#hand svg.card >> nth={i}")
        kind = "card"
    elif phase == "deal_over":
        pg.keyboard.press("n") if keys else pg.click("#act-next")
        kind = "next"
    else:
        raise AssertionError(f"no decision in phase {phase}")
    wait_after(pg, before)
    return kind


def token(pg, game: str) -> str:
    """The game's token as the page keeps it."""
    return pg.evaluate(f"JSON.parse(localStorage.getItem('ecarte-tokens'))['{game}']")


def record(pg, server, game: str) -> dict:
    r = pg.request.get(f"{server}/api/games/{game}/record",
                       headers={"X-Game-Token": token(pg, game)})
    assert r.ok
    return r.json()


def cards_in(pg, selector: str) -> list[str]:
    return pg.eval_on_selector_all(f"{selector} svg.card", "els => els.map(e => e.dataset.card)")


def check_deal_shown(pg, rec: dict) -> None:
    """The page at the end of a deal against the record's last deal."""
    deal = rec["deals"][-1]
    for who in ("person", "computer"):
        assert sorted(cards_in(pg, f"#dealt-{who}")) == sorted(deal["hands"][who])
    played = [a["card"] for a in deal["actions"] if a["type"] == "card"]
    tricks = pg.eval_on_selector_all("#tricks-list li", "els => els.map(e => e.textContent)")
    assert len(tricks) == (len(played) + 1) // 2
    for i, card in enumerate(played):
        assert shown(card) in tricks[i // 2]
    score = {"person": int(pg.text_content("#score-person")),
             "computer": int(pg.text_content("#score-computer"))}
    assert score == rec["score"] == deal["score_after"]
    verdicts = pg.locator("#coach-list .verdict:not(.taken-back)")
    coached = deal["coach"]
    assert verdicts.count() == len(coached)
    for i, v in enumerate(coached):              # the coach's figures, as the record keeps them
        shown_v = verdicts.nth(i).text_content()
        assert v["grade"] in shown_v
        if v.get("cost") is not None:
            assert f"cost {v['cost']:.3f}" in shown_v
    from ecarte_sim.analysis.practice import coach
    replay = coach.replay(deal)
    if replay["known"]:
        text = pg.text_content("#replay-text")
        assert f"takes {replay['dd_elder_tricks']} trick" in text
        assert f"in play {replay['elder_tricks']}" in text
        assert pg.locator("#replay-table tr").count() == 1 + len(replay["cards"])
        line = pg.text_content("#best-line")
        assert all(shown(c["card"]) in line for c in replay["best_line"])


@pytest.mark.quick
def test_a_whole_deal_by_clicks_and_keys(page, server, shots):
    game = new_game(page, seed=12)
    page.screenshot(path=str(shots / "deal-start.png"), full_page=True)
    kinds = []
    for n in range(40):
        if page.evaluate("document.body.dataset.phase") in ("deal_over", "game_over"):
            break
        kinds.append(step(page, n))
        if n == 3:
            page.screenshot(path=str(shots / "deal-middle.png"), full_page=True)
    assert page.evaluate("document.body.dataset.phase") == "deal_over"
    assert "card" in kinds
    page.screenshot(path=str(shots / "deal-over.png"), full_page=True)
    rec = record(page, server, game)
    check_deal_shown(page, rec)
    from ecarte_sim.analysis.practice import coach     # the deal card by card
    replay = coach.replay(rec["deals"][-1])
    for k in range(3):
        step_k = replay["cards"][k]
        label = page.text_content("#replay-step")
        assert label.startswith(f"Card {k + 1} of {len(replay['cards'])}")
        assert shown(step_k["card"]) in label
        captions = page.eval_on_selector_all(
            "#replay-viewer figure", "els => els.map(e => [e.querySelector('svg').dataset.card,"
            " e.querySelector('figcaption').textContent])")
        assert {c: int(v) for c, v in captions if v} == step_k["values"]
        page.click("#replay-next")
    page.locator("#replay-viewer").screenshot(path=str(shots / "replay-viewer.png"))
    person = [a for a in rec["deals"][0]["actions"] if a["by"] == "person"]
    assert [a["type"] for a in person] == [k for k in kinds if k != "reveal"]
    assert 0 < len(rec["deals"][0]["coach"]) <= len(person)   # a forced card is not graded
    assert page.locator("#coach-list .verdict").count() > 0


#: A card as the page writes it in its text (10♥, K♠).
SHOWN = r"(?:10|[789JQKA])[♠♥♦♣]"


def cards_on_page(pg) -> set[str]:
    """Every card the game's part of the page shows: drawn (face up) or named in its
    text (the events, the coach, the notes), as the page writes them."""
    import re
    drawn = pg.eval_on_selector_all("#game svg.card[data-card]",
                                    "els => els.map(e => e.dataset.card)")
    return {shown(c) for c in drawn} | set(re.findall(SHOWN, pg.inner_text("#game")))


#: The games played until the coach offers a take-back (a mistake or a blunder that showed
#: no card): whether one does depends on the deals and on the shipped strategy.
TAKE_BACK_SEEDS = (11, 12, 13, 14, 15, 16)


def _whole_game(page, server, shots, seed: int):
    """A whole game by clicks and keys (the checks of the test below on every deal);
    (game, deals, take-backs taken, take-backs refused)."""
    game = new_game(page, seed=seed)
    deals, retried, refused = 0, 0, 0
    seen, deal_no = set(), None
    for n in range(400):
        phase = page.evaluate("document.body.dataset.phase")
        if phase == "game_over":
            break
        if page.text_content("#deal") != deal_no:
            deal_no, seen = page.text_content("#deal"), set()
        if phase == "deal_over":
            deals += 1
            check_deal_shown(page, record(page, server, game))
            if deals == 1:
                page.screenshot(path=str(shots / "game-deal-over.png"), full_page=True)
        if page.locator("#act-retry").count() and retried < 3:
            if not retried:
                page.screenshot(path=str(shots / "try-again.png"), full_page=True)
            before = record(page, server, game)
            waiting = page.locator("#coach-list .verdict .waiting")
            assert waiting.count() == 1 and "Try again" in waiting.text_content()
            assert not cards_on_page(page) - seen, "the decision showed a card"
            assert step(page, n, retry=True) == "retry"
            after = record(page, server, game)     # the decision is taken back
            assert len(after["deals"][-1]["actions"]) < len(before["deals"][-1]["actions"])
            assert page.locator("#act-retry").count() == 0
            assert not cards_on_page(page) - seen, "a card seen before the take-back"
            assert page.locator("#coach-list .verdict.taken-back").count() >= 1
            retried += 1
            continue
        if page.locator("#act-reveal").count() and not page.locator("#act-retry").count():
            refused += 1
            assert "No take-back here" in page.text_content("#coach-list .verdict .waiting")
        seen = cards_on_page(page)
        step(page, n)
        if not page.locator("#act-retry").count() and not page.locator("#act-reveal").count():
            seen |= cards_on_page(page)
    else:
        raise AssertionError("the game did not end in 400 decisions")
    return game, deals, retried, refused


def test_a_whole_game_by_clicks_and_keys(page, server, shots):
    """... and every take-back (issue 51.2): offered only when the decision showed no
    card the person had not seen before it (after it the page shows no card it did not
    show before the decision); when a card was shown, only "Show the answer", saying why;
    the taken-back verdicts stay in the coach's panel, the record and the summary."""
    for seed in TAKE_BACK_SEEDS:
        game, deals, retried, refused = _whole_game(page, server, shots, seed)
        if retried:
            break
    print(f"take-backs: {retried} taken, {refused} refused (a card was shown)")
    page.screenshot(path=str(shots / "game-over.png"), full_page=True)
    rec = record(page, server, game)
    from ecarte_sim.analysis.practice import coach
    summary = coach.summary(rec)
    assert page.text_content("#summary-text") == summary["text"]
    assert rec["winner"] in ("person", "computer") and rec["score"][rec["winner"]] >= 5
    assert int(page.text_content("#score-person")) == rec["score"]["person"]
    assert int(page.text_content("#score-computer")) == rec["score"]["computer"]
    assert len(rec["deals"]) >= deals + 1
    assert page.locator("#act-new").count() == 1
    assert retried, f"the coach never offered to try again in games {TAKE_BACK_SEEDS}"
    kept = [v for d in rec["deals"] for v in d.get("retried", [])]
    assert len(kept) == retried == len(summary["taken_back"])
    assert page.locator("#summary-taken-back li").count() == retried


#: A count followed by a grade in the singular where it should be plural ("2 inaccuracy").
BAD_PLURAL = r"\b(?:[02-9]|\d\d+) (?:inaccuracy|mistake|blunder)\b"


def _read_like_a_player(pg) -> list[str]:
    """What issue 51.6 found on the page, as a list of complaints (empty: none): a
    "−0.000", a "Best" verdict that names another best choice, a singular after a count,
    a card in letters in the coach's panel or the message."""
    text = pg.inner_text("#game")
    bad = []
    if re.search(r"[−-]0\.0+(?![0-9])", text):
        bad.append("a negative zero: " + re.search(r".{30}[−-]0\.0+.{10}", text).group(0))
    for head in pg.eval_on_selector_all("#coach-list .verdict:not(.taken-back) .head",
                                        "els => els.map(e => e.textContent)"):
        if head.lower().startswith("best") and "; best " in head:
            bad.append("a Best that names another best: " + head)
    if re.search(BAD_PLURAL, text):
        bad.append("a singular after a count: " + re.search(BAD_PLURAL, text).group(0))
    for box in ("#coach-list", "#message", "#summary-body"):
        words = pg.inner_text(box) if pg.locator(box).count() else ""
        if re.search(r"\b(?:10|[789TJQKA])[SHDC]\b", words):
            bad.append(f"letters for a card in {box}")
    return bad


@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)])
def test_what_a_player_reads_in_a_whole_game(browser, server, shots, width, height):
    """Issue 51.6, a whole game at a desktop's and a phone's size: no self-contradicting
    verdict, no −0.000, plurals right, cards written as drawn; the coach's panel at a
    deal's end shows its first verdict from its top; the step numbers of "What happened"
    fit their margin; the card-by-card table stays inside its panel (it scrolls sideways
    on a phone); the numbered game's shared deals said. Screenshots at both sizes."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  bypass_csp=True)
    pg = context.new_page()
    pg.goto(server + "/")
    pg.wait_for_selector("body[data-ready='1']")
    new_game(pg, seed=41)
    assert "Game 41: everyone who asks this server for game 41 gets these same deals" in \
        pg.text_content("#notes")
    complaints, deals = [], 0
    for n in range(400):
        phase = pg.evaluate("document.body.dataset.phase")
        complaints += _read_like_a_player(pg)
        if phase == "game_over":
            break
        if phase == "deal_over":
            deals += 1
            assert pg.evaluate("document.getElementById('coach-list').scrollTop") == 0
            panel = pg.locator("#deal-over").bounding_box()
            table = pg.locator("#replay .scroll")
            if table.count():
                box = table.bounding_box()
                assert box["x"] >= panel["x"] - 1
                assert box["x"] + box["width"] <= panel["x"] + panel["width"] + 1
                rows = pg.eval_on_selector_all(
                    "#replay-table tr", "els => els.map(e => e.getBoundingClientRect().height)")
                line = pg.evaluate("parseFloat(getComputedStyle(document.querySelector("
                                   "'#replay-table td')).lineHeight) || 20")
                assert max(rows) < 1.6 * line, "a row of the card-by-card table wraps"
            if deals == 1:
                pg.screenshot(path=str(shots / f"read-{width}-deal-over.png"), full_page=True)
        step(pg, n)
    else:
        raise AssertionError("the game did not end in 400 decisions")
    assert not complaints, complaints
    steps = pg.locator("#events li").count()
    assert steps >= 10                       # two-digit step numbers: they fit the margin
    pad = pg.evaluate("parseFloat(getComputedStyle(document.getElementById('events'))"
                      ".paddingLeft) / parseFloat(getComputedStyle(document.getElementById("
                      "'events')).fontSize)")
    assert pad >= 2.5, f"the margin of 'What happened' is {pad:.2f} em: '10.' is cut"
    pg.screenshot(path=str(shots / f"read-{width}-game-over.png"), full_page=True)
    context.close()


def test_keys_right_after_new_game_play_the_game(page, server):
    """Enter after clicking "New game" is the game's key (discard), not the button's."""
    game = new_game(page, seed=12)
    page.keyboard.press("Enter")
    page.keyboard.press("n")
    page.wait_for_timeout(300)
    assert page.evaluate("document.body.dataset.game") == game


def test_an_illegal_card_is_refused_with_its_law(page, server, shots):
    new_game(page, seed=3, coach=False)
    for n in range(200):
        phase = page.evaluate("document.body.dataset.phase")
        illegal = page.locator("#hand svg.card.illegal")
        if phase == "play" and illegal.count():
            before = seq(page)
            illegal.first.click()
            page.wait_for_function("document.getElementById('message').textContent !== ''")
            message = page.text_content("#message")
            assert "Law 43" in message
            # the cards as the page draws them (J♠), never the API's letters (JS)
            assert re.search(SHOWN, message) and not re.search(r"\b(?:10|[789TJQKA])[SHDC]\b",
                                                               message), message
            assert seq(page) == before
            page.screenshot(path=str(shots / "illegal-card.png"), full_page=True)
            return
        if phase == "game_over":
            break
        step(page, n)
    pytest.fail("no illegal card was ever offered in a whole game")


def test_the_page_at_a_phones_width(browser, server, shots):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  bypass_csp=True)
    pg = context.new_page()
    pg.goto(server + "/")
    pg.wait_for_selector("body[data-ready='1']")
    new_game(pg, seed=5)
    width = pg.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px screen"
    for box in pg.locator("#hand svg.card").all():
        b = box.bounding_box()
        assert b["x"] >= 0 and b["x"] + b["width"] <= 390 and b["width"] >= 40
    pg.screenshot(path=str(shots / "phone.png"), full_page=True)
    context.close()


def test_a_game_resumes_after_the_server_restarts(browser, store, shots):
    with running(create_app(store), timeout=BLOCKED) as first:
        context = browser.new_context(bypass_csp=True)
        pg = context.new_page()
        pg.goto(first + "/")
        pg.wait_for_selector("body[data-ready='1']")
        game = new_game(pg, seed=99)
        step(pg, 0)
        hand = cards_in(pg, "#hand")
        at = seq(pg)
        kept = pg.evaluate("localStorage.getItem('ecarte-tokens')")
        context.close()
    with running(create_app(store), timeout=BLOCKED) as second:       # a new process would read the same files
        context = browser.new_context(bypass_csp=True)
        pg = context.new_page()
        # the same page's storage (serve keeps its port; here the port is new)
        pg.goto(second + "/")
        pg.evaluate("(t) => localStorage.setItem('ecarte-tokens', t)", kept)
        pg.goto(f"{second}/?game={game}")
        pg.wait_for_function("document.body.dataset.ready === '1' && document.body.dataset.game")
        assert cards_in(pg, "#hand") == hand and seq(pg) == at
        pg.click("#saved summary")
        pg.wait_for_selector("#saved-list li.current")
        assert "in progress" in pg.text_content("#saved-list li.current")
        # the page's default opponent, named as the page's choices name it
        assert "the strategy, cards by PIMC reading the king" in \
            pg.text_content("#saved-list li.current")
        pg.locator("#saved").screenshot(path=str(shots / "saved-games.png"))
        step(pg, 1)
        assert int(seq(pg)) == int(at) + 1
        context.close()


def test_the_strategy_card_and_the_advice_form(page, server, shots):
    page.click("#nav-chart")
    page.wait_for_selector("#chart-table td")
    cells = page.locator("#chart-table td:not(.empty)")
    assert cells.count() > 10
    r = page.request.get(f"{server}/api/chart?role=elder&score=0-0")
    want = r.json()
    first = next(c for c in want["cells"] if c["action"])
    assert first["action"] in cells.first.text_content()
    page.select_option("#chart-form select[name=role]", "dealer")
    page.select_option("#chart-score", "3-4")
    page.click("#chart-form button")
    page.wait_for_function("document.querySelector('#chart-body').textContent.includes('3-4')")
    page.screenshot(path=str(shots / "chart.png"), full_page=True)
    page.click("#nav-advise")
    page.click("#advise-form button")
    page.wait_for_selector("#advice-action")
    assert page.text_content("#advice-action").split()[0] in ("propose", "play")
    said = page.text_content("#advice-action")          # "(dd)" is explained (issue 51.6)
    assert "(dd)" not in said and "double dummy" in said
    page.fill("#cards-form input[name=opponent]", "AH JS TS 7D 8C")
    page.click("#cards-form button")
    page.wait_for_selector("#cards-best")
    from ecarte_sim.analysis.ecarte.play import card_advice as cards
    want = cards.card_values("KH 7H QS 8D 9C", "9H", "elder", said="play",
                             opponent="AH JS TS 7D 8C")
    assert page.text_content("#cards-best").startswith(shown(want["best"]))
    assert page.locator("#cards-body tr").count() == 1 + len(want["cards"])
    page.screenshot(path=str(shots / "advise.png"), full_page=True)


# --------------------------------------------------------------------------- issue 43

def test_no_response_before_the_deal_is_over_tells_the_key_or_a_hidden_card(page, server,
                                                                              store):
    """Every API response the page receives during a deal, as Chromium got it: neither the
    key, nor the deal's seed, nor a card the person has not seen (checked against the
    stored record at the deal's end)."""
    import json
    import re
    bodies = []

    def keep(response):
        if "/api/" in response.url:
            try:
                bodies.append(response.text())
            except Exception:
                pass
    page.on("response", keep)
    game = new_game(page, seed=12)
    for n in range(40):
        if page.evaluate("document.body.dataset.phase") in ("deal_over", "game_over"):
            break
        step(page, n)
    before_end = bodies[:-1]          # the last response is the one that ended the deal
    saved = json.loads((store / f"{game}.json").read_text())
    key, deal = saved["settings"]["key"], saved["record"]["deals"][0]
    secrets = (key, str(deal["seed"]))
    seen = set(deal["hands"]["person"]) | {deal["turn_up"]}
    for a in deal["actions"]:
        if a["by"] == "person" and a["type"] == "discard":
            seen |= set(a["cards"]) | set(a["drawn"])
        if a["type"] == "card":
            seen.add(a["card"])
        if a["type"] == "king" and a["announce"]:
            seen.add("K" + deal["turn_up"][-1])
    hidden = (set(deal["hands"]["computer"]) | set(deal["stock"])) - seen
    assert hidden and len(before_end) >= 2
    for text in before_end:
        assert not any(x in text for x in secrets)
        named = set(re.findall(r"\b(?:10|[789TJQKA])[SHDC]\b", text))
        assert not named & hidden, named & hidden
    assert not any(x in page.content() for x in secrets)


def test_a_second_browser_without_the_token_cannot_open_or_play_the_game(page, browser,
                                                                         server):
    game = new_game(page, seed=5)
    other = browser.new_context(bypass_csp=True)
    pg = other.new_page()
    pg.goto(f"{server}/?game={game}")
    pg.wait_for_selector("body[data-ready='1']")
    assert pg.evaluate("document.body.dataset.game") in (None, "")
    assert "another page" in pg.text_content("#message")
    hand = page.evaluate("document.querySelector('#hand svg.card').dataset.card")
    status = pg.evaluate("""async ([game, card]) => {
        const r = await fetch(`/api/games/${game}/act`, {method: "POST",
            headers: {"Content-Type": "application/json"},
            body: JSON.stringify({seq: 0, action: {type: "card", card}})});
        const list = await (await fetch("/api/games")).json();
        return [r.status, list.games.length];
    }""", [game, hand])
    assert status[0] == 403 and status[1] == 0
    pg.click("#saved summary")
    pg.wait_for_function("document.querySelector('#saved-list').textContent.includes('None')")
    other.close()
    assert page.evaluate("document.body.dataset.seq") == "0"      # A's game untouched


HOSTILE = '<img src=x onerror="window.__pwned=1">'


def test_a_hostile_record_in_the_store_runs_no_script(browser, server, store, shots):
    """A stored game whose coach verdicts hold markup and script (in the values' keys, the
    chosen card, the texts): the page shows them as text and runs nothing."""
    import json
    import time as clock
    from ecarte_sim.apps.practice.session import Table
    from ecarte_sim.apps.web.store import FORMAT, GameStore, new_id
    from ecarte_sim.apps.practice.session import IllegalAction
    table = Table.new(seed=4, coach=True, worlds=16)
    while not table.deal.coach:
        view = table.view()
        kind = "card" if view["phase"] == "play" else view["legal"]["actions"][0]
        action = {"type": kind}
        if kind == "card":
            action["card"] = view["legal"]["cards"][0]
        elif kind == "discard":
            action["cards"] = view["hand"][:1]
        elif kind == "king":
            action["announce"] = True
        table.act(action)
    record = table.record()
    v = record["deals"][-1]["coach"][-1]
    v.update(values={HOSTILE: 0.5, "<script>window.__pwned=2</script>": 0.25},
             chosen=HOSTILE, text=HOSTILE, rule=HOSTILE, best=HOSTILE, revealed=True,
             grade="<b>mistake</b>")
    game = new_id()
    now = clock.time()
    (store / f"{game}.json").write_text(json.dumps({
        "format": FORMAT, "id": game, "seq": table.seq, "created": now, "updated": now,
        "over": False, "settings": {"key": table.key, "opponent": "strategy", "coach": True,
                                    "worlds": 16}, "record": record}))
    token = GameStore(store, Table, IllegalAction).token(game)
    context = browser.new_context()
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + "/")
    pg.evaluate("([g, t]) => localStorage.setItem('ecarte-tokens', JSON.stringify({[g]: t}))",
                [game, token])
    pg.goto(f"{server}/?game={game}")        # under the page's CSP: no wait_for_function
    deadline = clock.monotonic() + BLOCKED
    while not pg.evaluate("document.body.dataset.ready === '1' && !!document.body.dataset.game"):
        assert clock.monotonic() < deadline, pg.text_content("#message")
        clock.sleep(0.1)
    pg.evaluate("document.querySelectorAll('#coach-list details').forEach(d => d.open = true)")
    pg.wait_for_timeout(300)
    assert pg.evaluate("window.__pwned") is None
    assert pg.locator("#coach-list img, #coach-list script, #coach-list b").count() == 0
    assert HOSTILE in pg.text_content("#coach-list")
    pg.screenshot(path=str(shots / "hostile-record.png"), full_page=True)
    context.close()
    assert errors == []


def test_how_to_play_the_rules_and_a_hint_on_demand(page, server, shots):
    assert page.locator("#how-to-play summary").text_content() == "How to play"
    assert page.get_attribute("#rules-link", "href") == "/rules"
    new_game(page, seed=12)
    before = seq(page)
    page.keyboard.press("h")
    page.wait_for_function("document.getElementById('hint').textContent !== ''",
                           timeout=STEP_TIMEOUT)
    hint = page.text_content("#hint")
    assert hint.startswith("Hint: ") and seq(page) == before      # nothing played
    import re
    assert not re.search(r"\b(?:10|[789TJQKA])[SHDC]\b", hint)   # cards as the page draws them
    page.screenshot(path=str(shots / "hint.png"), full_page=True)
