"""Issue 29 in Chromium: the pages work under the Content-Security-Policy (no violation on the
lobby, table and history pages), the assets come from versioned, cached URLs, and the table's
lifecycle buttons (hand my seat to a bot, stop, delete) do what they say, visibly in the log."""

from __future__ import annotations

import urllib.request

from .browser_support import needs_chromium, new_page, post, wait_drawn

pytestmark = needs_chromium


def watch_console(page):
    page.console = []
    page.on("console", lambda m: page.console.append(f"{m.type}: {m.text}"))
    return page


def test_the_pages_run_under_the_csp_and_load_versioned_assets(server, browser):
    g = post(server, "/api/games", {"game": "stars", "seats": ["human", "bot:heuristic", "bot:heuristic"], "seed": 3})
    page = watch_console(new_page(browser, csp=True))
    assets = []
    page.on("response", lambda r: assets.append((r.url, r.headers.get("cache-control"))) if "/static/" in r.url else None)
    for path in ("/", g["seats"][0]["url"], f"/g/{g['id']}/history", "/my", "/import"):
        page.goto(server + path)
        if path.startswith("/g/"):  # (selectors, not wait_for_function: the CSP forbids its eval)
            page.wait_for_selector("body[data-version]" if "history" not in path else "#chart-worth *")
        page.wait_for_load_state("networkidle")
    csp = [m for m in page.console if "Content Security Policy" in m or "Refused to" in m]
    assert csp == [] and page.errors == [], csp or page.errors
    with urllib.request.urlopen(server + "/") as r:
        assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    assert assets and all("/static/v-" in u and "immutable" in (cc or "") for u, cc in assets), assets
    page.context.close()


def test_hand_my_seat_to_a_bot_then_the_creator_stops_and_deletes(server, browser):
    g = post(server, "/api/games", {"game": "stars", "seats": ["human", "human"], "seed": 5})
    page = new_page(browser)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(server + "/my")
    page.evaluate("([id, c]) => localStorage.setItem('rolling.games', JSON.stringify({[id]: {tokens: [], creator: c}}))",
                  [g["id"], g["creator_token"]])
    page.goto(server + g["seats"][0]["url"])
    wait_drawn(page)
    page.locator("button.hand-to-bot").click()
    page.wait_for_function("document.querySelector('#log').innerText.includes('handed their seat to the bot')")
    assert page.locator("button.hand-to-bot").count() == 0  # the seat is the bot's now
    page.locator("button.stop-game").click()
    page.wait_for_selector("#lifecycle .closed")
    assert "stopped by its creator" in page.locator("#lifecycle .closed").inner_text()
    assert "stopped by its creator" in page.locator("#log").inner_text()
    page.locator("button.delete-game").click()
    page.wait_for_url(server + "/")
    try:
        urllib.request.urlopen(server + f"/api/games/{g['id']}")
        raise AssertionError("the game is still there")
    except urllib.error.HTTPError as e:
        assert e.code == 404
    assert page.errors == []
    page.context.close()
