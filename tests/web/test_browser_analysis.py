"""The history page's evaluation graph (issue 32) in a real browser (Playwright, Debian's
Chromium): an 18xx.games export uploaded to the watch page, analysed by the server's background
job, drawn with one line per player, the mistakes and blunders marked, and at each step the words
of the decision and the best alternative found.

Screenshots at 1280x800 and 390x844 go to a temporary folder, or to the folder named by
``ROLLING_SCREENSHOTS`` (``ROLLING_SCREENSHOTS=docs/img`` refreshes docs/analysis.md's
``analysis-history*.png``).
"""

from __future__ import annotations

import json

from .browser_support import FIXTURES, assert_clean, needs_chromium, new_page, post

pytestmark = needs_chromium


def test_history_page_draws_the_evaluation(server, browser, shots):
    """issue 32: the graph (one line per player, marks), the step's words with the best move,
    a click on the graph moves the history there."""
    created = post(server, "/api/import", json.loads((FIXTURES / "rss_1003.json").read_text()))
    gid = created["id"]
    for width, height, name in ((1280, 800, "analysis-history.png"), (390, 844, "analysis-history-phone.png")):
        page = new_page(browser, width, height)
        page.set_default_timeout(240000)  # the first visit waits for the analysis job
        page.goto(f"{server}/g/{gid}/history")
        page.wait_for_selector("#chart-eval svg.eval-chart")
        page.wait_for_function("document.body.dataset.at !== undefined")
        assert page.locator("#chart-eval path[data-seat]").count() == 4  # one line per player
        marks = page.locator("#chart-eval .mark")
        assert marks.count() >= 1
        assert page.locator("#eval-summary tr").count() == 5
        # a step with a decision: its words name the move played and the best found
        page.click("#first")
        page.click("#next")
        page.wait_for_function("document.body.dataset.at === '1'")
        step = page.locator("#eval-step").inner_text()
        assert step.startswith("1. ") and "win" in step and "%" in step
        # a click on the graph moves the history to that decision
        box = page.locator("#chart-eval svg").bounding_box()
        page.mouse.click(box["x"] + box["width"] * 0.6, box["y"] + box["height"] / 2)
        page.wait_for_function("Number(document.body.dataset.at) > 50")
        page.locator("#eval-panel").scroll_into_view_if_needed()
        assert_clean(page)
        page.screenshot(path=str(shots / name))
        page.context.close()
