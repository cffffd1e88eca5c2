"""Rolling Market in a real browser (Playwright driving Debian's Chromium), played through the
controls a person uses:

- a whole game created in the lobby (one seat, no irrelevant options) and played by clicking to
  the final score: every trade previewed before it is made, the hint followed each time, so the
  final cash is the strongest bot's on the same dice; then the final score against the bots' and
  the history page with its charts;
- a reload keeps the game and the seat; a spectator's page follows the trades live;
- the server killed with SIGKILL mid-game and started again: the page reconnects and the game
  goes on to its end.

Screenshots at 1280x800 and 390x844 go to a temporary folder, or to the folder named by
``ROLLING_SCREENSHOTS`` (``ROLLING_SCREENSHOTS=docs/img`` refreshes the README's ``market.png``).
"""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from rolling.bots import make_bot
from rolling.games.market import new_game
from rolling.sim import play_game

from .browser_support import assert_clean, needs_chromium, new_page, post, version, wait_drawn

pytestmark = needs_chromium


def bots_final_cash(seed: int) -> int:
    """The final cash of the strongest bot playing the game of ``seed`` (the hint's bot)."""
    state = new_game(None, seed)
    play_game(state, {0: make_bot("market", "bot", seed=0)})
    return state.cash


def follow_hint(page) -> dict:
    """Ask for the hint and do what it says through the trade controls, after checking that the
    control shows the hinted count and its preview; return the hinted action."""
    before = version(page)
    page.click("#hint")
    page.wait_for_selector("#hint-box .hint")
    action = json.loads(page.locator("#hint-box .hint").get_attribute("data-action"))
    assert page.locator("#hint-box .reason").inner_text().strip()
    if action["type"] == "done" and page.evaluate("rollingDoc.view.turn") % 2:
        page.click("#hint-use")  # "do it"
    elif action["type"] == "done":
        page.click("#decisions button.act[data-type=done]")
    else:
        row = page.locator(f"#decisions .dec.trade.hinted[data-type={action['type']}][data-company='{action['company']}']")
        assert row.locator("input.count").input_value() == str(action["shares"])
        d = next(x for x in page.evaluate("rollingDoc.decisions['0']") if x["action"] == action)
        p = d["preview"]
        pv = row.locator(".pv").inner_text()
        assert f"cash ${p['cash_before']} → ${p['cash_after']}" in pv and f"shares {p['held_before']} → {p['held_after']}" in pv
        row.locator("button.act").click()
    page.wait_for_function(f"document.body.dataset.version !== '{before}' || !document.querySelector('#error').hidden")
    assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
    return action


def create_in_lobby(page, server: str, seed: int) -> str:
    """Create a one-seat Market game in the lobby; open its seat link; return the game id."""
    page.goto(server + "/")
    page.wait_for_selector("#game option[value=market]", state="attached")
    page.select_option("#game", "market")
    for row in ("players", "edition", "variants", "limits"):
        assert page.locator(f"[data-row={row}]").first.is_hidden(), row
    assert page.locator(".seat-kind").count() == 1
    kinds = page.locator(".seat-kind option").all_inner_texts()
    assert kinds[0] == "human" and any("random" in k for k in kinds)
    page.fill("#seed", str(seed))
    page.click("#create-btn")
    link = page.locator("#links .seat-link")
    link.wait_for()
    url = link.get_attribute("href")
    page.goto(server + url)
    wait_drawn(page)
    return url.split("/g/")[1].split("?")[0]


def test_whole_market_game_from_the_lobby(server, browser, shots):
    seed = 3
    page = new_page(browser)
    gid = create_in_lobby(page, server, seed)
    assert page.locator("#board .company").count() == 4
    assert "Buy/sell turn 1 of 12" in page.locator("#headline").inner_text()
    page.wait_for_selector("#board .dice-panel .roll.current svg.die")
    # seed 3 opens with two closed-market rolls: their dice are shown before this turn's
    assert page.locator("#board .dice-panel .roll.closed").count() == 2
    assert "market closed on 2 turns" in page.locator("#board .dice-panel h3").inner_text()
    assert page.locator("#board .dice-panel .roll.current svg.die").count() == 5

    # a trade's preview follows the count chosen, as the engine computes it
    row = page.locator("#decisions .dec.trade[data-type=buy]").first
    company = int(row.get_attribute("data-company"))
    row.locator("input.count").fill("1")
    one = next(x for x in page.evaluate("rollingDoc.decisions['0']") if x["action"] == {"type": "buy", "company": company, "shares": 1})
    assert row.locator(".pv").inner_text() == (
        f"pay ${one['preview']['amount']} · value stays ${one['preview']['value_before']}" if one["preview"]["value_after"] == one["preview"]["value_before"]
        else f"pay ${one['preview']['amount']} · value ${one['preview']['value_before']} → ${one['preview']['value_after']}"
    ) + f" · cash $10 → ${one['preview']['cash_after']} · {'ABCD'[company]} shares 0 → 1"
    assert row.locator("button.act").inner_text() == one["label"]

    # a trade, then undo: the cash comes back
    before = version(page)
    row.locator("button.act").click()
    page.wait_for_function(f"document.body.dataset.version !== '{before}'")
    assert page.evaluate("rollingDoc.view.cash") == one["preview"]["cash_after"]
    before = version(page)
    page.click("#tools button.undo")
    page.wait_for_function(f"document.body.dataset.version !== '{before}'")
    assert page.evaluate("rollingDoc.view.cash") == 10

    shot_taken = False
    for _ in range(200):
        if page.evaluate("rollingDoc.over"):
            break
        hinted = follow_hint(page)
        if hinted["type"] == "done" and not page.evaluate("rollingDoc.over"):
            # 'done' rolled the dice: no undo button, and the page says why (issue 28 item 6)
            assert page.locator("#tools button.undo").count() == 0
            assert page.locator("#tools .undo-refused").inner_text() == "No undo: undo would go back past a roll of the dice"
        turn = page.evaluate("rollingDoc.view.turn")
        # the picture: mid-game, shares held, a closed market's dice shown before this turn's
        closed = page.locator("#board .dice-panel .roll.closed").count()
        if not shot_taken and any(page.evaluate("rollingDoc.view.shares")) and (turn >= 5 and closed or turn >= 9):
            page.wait_for_selector("#board .charts-panel svg.chart")
            page.click("#hint")
            page.wait_for_selector("#hint-box .hint")
            page.screenshot(path=str(shots / "market.png"))
            page.set_viewport_size({"width": 390, "height": 844})
            page.screenshot(path=str(shots / "market-phone.png"), full_page=True)
            page.set_viewport_size({"width": 1280, "height": 800})
            assert_clean(page)
            shot_taken = True
        if page.evaluate("rollingDoc.view.turns_left") == 0 and not page.evaluate("rollingDoc.over"):
            assert "Last turn" in page.locator("#board .banner.last").inner_text()
    assert shot_taken and page.evaluate("rollingDoc.over")
    assert page.evaluate("rollingDoc.view.cash") == bots_final_cash(seed)

    # the final score against the bots' scores, as the charts say
    page.wait_for_selector("#board .final-score svg.score-chart")
    with urllib.request.urlopen(f"{server}/api/games/{gid}/charts") as r:
        final = json.load(r)["final"]
    text = page.locator("#board .final-score").inner_text()
    assert f"${final['score']}" in text
    for bot, st in final["standing"].items():
        assert re.search(rf"{st['percentile']:g}% of the {bot} bot's 10,000 games score less", text), text
    assert page.locator("#decisions .seat-dec").count() == 0 and page.locator("#hint").count() == 0
    assert "Game over" in page.locator("#headline").inner_text()
    assert_clean(page)
    page.screenshot(path=str(shots / "market-over.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(shots / "market-over-phone.png"), full_page=True)

    # the history page: the table at any action, the values and net worth over the turns, the score chart
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{server}/g/{gid}/history")
    page.wait_for_selector("#board .company")
    page.wait_for_selector("#chart-price svg.score-chart")
    assert page.locator("#chart-price-title").inner_text() == "Share values"
    assert page.locator("#chart-price path[data-series=A]").count() == 1
    assert page.locator("#chart-worth path").count() == 1
    page.click("#first")
    page.wait_for_function("document.body.dataset.at === '0'")
    assert "Buy/sell turn 1 of 12" in page.locator("#headline").inner_text()
    assert page.locator("#board .dice-panel .roll.closed").count() == 2
    page.click("#next")
    page.wait_for_function("document.body.dataset.at === '1'")
    assert_clean(page)
    page.screenshot(path=str(shots / "market-history.png"))


def test_reload_keeps_the_game_and_a_spectator_follows_live(server, browser):
    created = post(server, "/api/games", {"game": "market", "seats": ["human"], "seed": 11})
    gid = created["id"]
    page = new_page(browser)
    page.goto(server + created["seats"][0]["url"])
    wait_drawn(page)
    assert "?t=" not in page.url  # the token went to localStorage
    watcher = new_page(browser, 390, 844)
    watcher.goto(f"{server}/g/{gid}")
    wait_drawn(watcher)
    assert watcher.locator("#decisions .seat-dec").count() == 0 and watcher.locator("#hint").count() == 0
    for _ in range(3):
        follow_hint(page)
    v = version(page)
    watcher.wait_for_function(f"document.body.dataset.version === '{v}'")
    assert watcher.evaluate("rollingDoc.view.cash") == page.evaluate("rollingDoc.view.cash")
    page.reload()
    wait_drawn(page)
    assert version(page) == v
    assert page.locator("#decisions .dec.trade, #decisions button.act[data-type=done]").count() > 0
    follow_hint(page)
    watcher.wait_for_function(f"document.body.dataset.version === '{version(page)}'")
    assert_clean(page)
    assert_clean(watcher)


def test_kill_9_mid_game_and_the_page_goes_on(browser, db_url, tmp_path):
    from .test_kill import free_port, kill9, start_server

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "server.log"
    proc = start_server(db_url, port, 0.0, log)
    try:
        created = post(base, "/api/games", {"game": "market", "seats": ["human"], "seed": 5})
        page = new_page(browser)
        page.goto(base + created["seats"][0]["url"])
        wait_drawn(page)
        for _ in range(6):
            follow_hint(page)
        acked = version(page)
        cash = page.evaluate("rollingDoc.view.cash")
        kill9(proc)
        page.wait_for_selector("#conn.offline", state="attached")
        proc = start_server(db_url, port, 0.0, log)
        page.wait_for_selector("#conn.live", state="attached", timeout=30000)
        page.reload()
        wait_drawn(page)
        assert version(page) == acked and page.evaluate("rollingDoc.view.cash") == cash
        for _ in range(200):
            if page.evaluate("rollingDoc.over"):
                break
            follow_hint(page)
        assert page.evaluate("rollingDoc.over")
        assert page.evaluate("rollingDoc.view.cash") == bots_final_cash(5)
        assert_clean(page)
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except Exception:  # noqa: BLE001 - a server that will not stop is killed
                proc.kill()


@pytest.fixture
def db_url(tmp_path):
    from .conftest import fresh_db_url

    return fresh_db_url(tmp_path)


def test_ending_the_game_with_shares_asks_once_more(server, browser, shots):
    created = post(server, "/api/games", {"game": "market", "seats": ["human"], "seed": 21})
    gid, token = created["id"], created["seats"][0]["token"]

    def api(path, body=None):
        req = urllib.request.Request(server + path, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "X-Seat-Tokens": token})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.load(r)

    doc = api(f"/api/games/{gid}")
    while doc["view"]["turns_left"] > 0:  # the bot's game up to the last turn
        h = api(f"/api/games/{gid}/hint?seat=0")
        doc = api(f"/api/games/{gid}/actions", {"version": doc["version"], "seat": 0, "action": h["action"]})
    page = new_page(browser)
    page.goto(server + created["seats"][0]["url"])
    wait_drawn(page)
    assert "Last turn" in page.locator("#board .banner.last").inner_text()
    assert "LAST TURN" in page.locator("#headline").inner_text()
    # the hint sells what is left; a buy instead leaves shares to lose
    if not page.locator("#decisions .dec.trade[data-type=buy]").count():
        pytest.skip("no buy possible on this last turn")
    row = page.locator("#decisions .dec.trade[data-type=buy]").first
    row.locator("input.count").fill("1")
    letter = "ABCD"[int(row.get_attribute("data-company"))]
    before = version(page)
    row.locator("button.act").click()
    page.wait_for_function(f"document.body.dataset.version !== '{before}'")
    assert "at the end shares are worth nothing" in page.locator("#decisions .g-done").inner_text()
    done = page.locator("#decisions button.act[data-type=done]")
    v = version(page)
    done.click()
    assert version(page) == v and "end the game and lose" in done.inner_text() and f" {letter}" in done.inner_text()
    page.screenshot(path=str(shots / "market-last-turn.png"))
    done.click()
    page.wait_for_function("document.body.dataset.over === 'yes'")
    assert_clean(page)
