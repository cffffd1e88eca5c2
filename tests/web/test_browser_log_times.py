"""Every line of the table's log shows when it happened (issue 31, "timestamps in the log"; Playwright
in Debian's Chromium): the whole date and time on hover, the time of day in a narrow column where it
changes, outside the line's own text."""

from __future__ import annotations

import json
import urllib.request

from .browser_support import assert_clean, needs_chromium, new_page, post, wait_drawn
from .conftest import pick

pytestmark = needs_chromium


def _call(base: str, path: str, body: dict | None, tokens: str) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json", "X-Seat-Tokens": tokens})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def test_every_log_line_has_its_time_on_the_table(server, browser, shots):
    g = post(server, "/api/games", {"game": "stars", "config": {"players": 3}, "seats": ["human", "human", "heuristic"],
                                    "seed": 5})
    gid, both = g["id"], ",".join(s["token"] for s in g["seats"][:2])
    for _ in range(10):  # the two people play a few moves (the bot answers at once)
        d = _call(server, f"/api/games/{gid}", None, both)
        seat = d["to_act"][0]
        _call(server, f"/api/games/{gid}/actions", {"version": d["version"], "seat": seat, "action": pick(d, seat)}, both)
    _call(server, f"/api/games/{gid}/seats/1/bot", {"bot": "heuristic"}, both)  # a line of the server's
    page = new_page(browser)
    page.goto(server + g["seats"][0]["url"])
    wait_drawn(page)
    got = page.evaluate("""() => [...document.querySelectorAll('#log li:not(.reason)')].map((li) => ({
        title: li.title, time: li.dataset.time, at: li.dataset.at ?? null, event: li.classList.contains('event'),
        shown: getComputedStyle(li, '::before').content, text: li.innerText }))""")
    assert len(got) > 10
    # every line: its time (ISO, UTC) and the whole of it on hover
    assert all(x["time"] and x["time"].endswith("+00:00") and x["title"] for x in got), got
    # the column: the first line's time of day, not repeated while it does not change; a server's line shows its own
    assert got[0]["at"] and got[0]["shown"] == f'"{got[0]["at"]}"'
    assert sum(1 for x in got if x["at"]) < len(got)
    handed = next(x for x in got if "handed their seat to the bot" in x["text"])
    assert handed["event"] and handed["at"]
    # not part of the line's text (what the log says is unchanged)
    assert got[0]["text"] == "-- Turn 1, phase 1: Investment --"
    page.locator("#log").screenshot(path=str(shots / "log-times.png"))  # the end: the server's line
    page.evaluate("document.querySelector('#log').scrollTop = 0")
    page.locator("#log").screenshot(path=str(shots / "log-times-start.png"))  # the start: the first time
    assert_clean(page)
