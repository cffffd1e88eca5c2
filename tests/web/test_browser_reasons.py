"""The bots' reasons in the pages' log (Playwright in Debian's Chromium): a dimmed line under the
lines of the bot's move, for the player and the spectator, after a reload, and on the history page."""

from __future__ import annotations

from .browser_support import assert_clean, needs_chromium, new_page, post, wait_drawn

pytestmark = needs_chromium


def test_a_bots_reason_shows_under_its_move_in_the_stars_log(server, browser, shots):
    g = post(server, "/api/games", {"game": "stars", "config": {"players": 3}, "seats": ["human", "heuristic", "heuristic"], "seed": 5})
    page = new_page(browser)
    page.goto(server + g["seats"][0]["url"])
    wait_drawn(page)
    reasons = page.locator("#log li.reason")
    assert reasons.count() >= 2
    items = page.locator("#log li").all_inner_texts()
    first = items.index(reasons.first.inner_text())
    # the reason comes right after the line of the move it explains, naming the same bot
    assert items[first - 1].startswith("Heuristic 2 starts an auction of")
    assert reasons.first.inner_text().startswith("Heuristic 2 auctions ")
    # while the game goes on, the public part: no bot's limit (issue 28 item 7)
    assert any(t.startswith("Heuristic 3 bids for ") for t in reasons.all_inner_texts())
    assert not [t for t in reasons.all_inner_texts() if "up to $" in t or "worth $" in t]
    # dimmed: the muted colour, smaller than the log's lines
    style = page.evaluate("""() => { const r = getComputedStyle(document.querySelector('#log li.reason'));
        const l = getComputedStyle(document.querySelector('#log li:not(.reason)'));
        return [r.color, l.color, r.fontStyle, parseFloat(r.fontSize) < parseFloat(l.fontSize)]; }""")
    assert style[0] != style[1] and style[2] == "italic" and style[3]
    page.locator("#log").screenshot(path=str(shots / "log-reasons.png"))
    page.screenshot(path=str(shots / "table-reasons.png"))
    texts = reasons.all_inner_texts()
    page.reload()
    wait_drawn(page)
    assert page.locator("#log li.reason").all_inner_texts() == texts
    assert_clean(page)
    # the spectator reads the same reasons
    watcher = new_page(browser)
    watcher.goto(server + g["spectator_url"])
    wait_drawn(watcher)
    assert watcher.locator("#log li.reason").all_inner_texts() == texts
    assert_clean(watcher)
    # the history's log at the end shows them too
    watcher.goto(f"{server}/g/{g['id']}/history")
    watcher.wait_for_function("document.body.dataset.at !== undefined")
    assert watcher.locator("#log li.reason").all_inner_texts() == texts
    watcher.locator("#log").screenshot(path=str(shots / "history-log-reasons.png"))
    assert_clean(watcher)


def test_the_search_bots_alternatives_show_in_the_log_once_the_game_is_over(server, browser, shots):
    """Issue 28 item 7: while the game goes on the log says that the search chose; the
    alternatives with their visits and values show once it is over."""
    g = post(server, "/api/games", {"game": "stars", "config": {"players": 2}, "seats": ["search:60", "human"], "seed": 5})
    page = new_page(browser)
    page.goto(server + g["seats"][1]["url"])
    wait_drawn(page)
    assert page.locator("#log li.reason").first.inner_text() == "Search 1 the move its search rated best"
    assert_clean(page)
    g = post(server, "/api/games", {"game": "stars", "config": {"players": 2}, "seats": ["search:20", "heuristic"], "seed": 5})
    page.goto(server + g["spectator_url"])
    page.wait_for_function("document.querySelectorAll('#log li.reason').length > 0")
    page.wait_for_function("[...document.querySelectorAll('#log li.reason')].some((li) => li.innerText.startsWith('Search 1 search (20 iterations, '))", timeout=120000)
    reason = next(t for t in page.locator("#log li.reason").all_inner_texts() if t.startswith("Search 1 search ("))
    assert " visits " in reason
    page.locator("#log").screenshot(path=str(shots / "log-search-reason.png"))
    assert_clean(page)
