"""The first screen, on a phone and late in a big game (issue 29, "Phone and first screen").

A six-player Rolling Stock Stars game is played by six heuristic bots in this process, every action
posted through the API by its seat's token (the server's copy stays the game the bots see, bit for
bit), and stopped late: the middle of the acquisitions of the last turn but one, eight
corporations on the table. Then, in Debian's Chromium:

- at 1280x800 the table still fits one screen and its share price row is in view, not hidden below
  the fold of the board;
- at 390x844 (a phone) the table and the history page need no sideways scrolling
  (``scrollWidth <= 390``), and the history page opens at its top with its header in view;
- the Rolling Freight and Rolling Market tables need no sideways scrolling on a phone either.

Screenshots go to a temporary folder, or to the folder named by ``ROLLING_SCREENSHOTS``.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections import defaultdict, deque

import pytest

from rolling.bots import make_bot
from rolling.core.record import GameRecord, new_state

from .browser_support import assert_clean, needs_chromium, new_page, post, wait_drawn

pytestmark = needs_chromium

NAMES = ["Ada", "Brunel", "Cugnot", "Diesel", "Ericsson", "Fulton"]
#: six players, the Stars edition; with this seed the bots end the game in turn 11, eight
#: corporations formed by turn 10
CONFIG = {"players": 6, "edition": "stars", "names": NAMES}
SEED = 28
PHONE = (390, 844)
DESKTOP = (1280, 800)


def bots_game() -> tuple[list[tuple[int, dict]], int]:
    """The six heuristic bots' game of :data:`SEED`, played here: its actions ``(seat, action
    JSON)`` and how many of them make it "late" (half of the acquisitions of the last turn but one
    that has them)."""
    state = new_state(GameRecord("stars", CONFIG, SEED))
    bots = [make_bot("stars", "heuristic", seed=SEED * 10 + k) for k in range(6)]
    actions, marks = [], []
    while not state.is_over:
        seat = state.to_act[0]
        action = bots[seat].choose(state, seat)
        actions.append((seat, action.to_json()))
        marks.append((state.turn, state.phase))
        state.apply(action)
    turns = sorted({t for t, p in marks if p == 3})
    late = [i for i, m in enumerate(marks) if m == (turns[-2], 3)]
    return actions, late[len(late) // 2]


def post_action(base: str, gid: str, token: str, body: dict) -> dict:
    """POST an action with one seat's token; after a 429 wait as long as Retry-After says."""
    for _ in range(20):
        req = urllib.request.Request(f"{base}/api/games/{gid}/actions", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "X-Seat-Tokens": token})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return json.load(r)
        except urllib.error.HTTPError as e:
            if e.code != 429:
                raise AssertionError(f"{e.code} {e.read()!r} for {body}") from None
            time.sleep(float(e.headers.get("Retry-After") or 1))
    raise AssertionError("rate limited for good")


@pytest.fixture(scope="module")
def late_game(server) -> dict:
    """The creation answer of a six-player game, every seat a person, played late by the bots."""
    actions, stop = bots_game()
    g = post(server, "/api/games", {"game": "stars", "config": CONFIG, "seats": ["human"] * 6, "names": NAMES,
                                     "seed": SEED})
    tokens = [s["token"] for s in g["seats"]]
    version = 0
    sent: dict[int, deque] = defaultdict(lambda: deque(maxlen=15))
    for seat, action in actions[:stop]:
        # 15 a second at most per seat: under a rate limit per seat token, where the server has one
        times = sent[seat]
        if len(times) == times.maxlen and time.monotonic() - times[0] < 1:
            time.sleep(1 - (time.monotonic() - times[0]))
        times.append(time.monotonic())
        version = post_action(server, g["id"], tokens[seat], {"version": version, "seat": seat, "action": action})["version"]
    return g


def no_sideways_scroll(page, width: int) -> None:
    """The page is no wider than the window (nothing to scroll sideways)."""
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"the page is {wide} px wide in a {width} px window"


def header_in_view(page, height: int) -> None:
    """The page is at its top and its header shows whole."""
    assert page.evaluate("window.scrollY") == 0
    box = page.locator("header.top").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_late_six_player_table_fits_one_screen_with_the_share_price_row(server, browser, shots, late_game):
    """issue 29: at 1280x800 late in a six-player game the share price row is in view."""
    page = new_page(browser, *DESKTOP)
    page.goto(server + late_game["seats"][0]["url"])
    wait_drawn(page)
    assert page.evaluate("rollingDoc.view.players.length") == 6
    assert page.evaluate("rollingDoc.view.corporations.length") == 8
    assert page.evaluate("rollingDoc.view.phase") == 3
    page.screenshot(path=str(shots / "late-6p.png"))
    # one screen: the page itself never scrolls
    assert page.evaluate("document.documentElement.scrollHeight") <= DESKTOP[1]
    no_sideways_scroll(page, DESKTOP[0])
    header_in_view(page, DESKTOP[1])
    row = page.locator(".board .row")
    box = row.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP[1], box
    # in view, not only inside the window: what shows at the row's spaces is the row, not a panel
    # over it or a scroller's clipped content
    for x in (0.05, 0.5, 0.95):
        hit = page.evaluate("([x, y]) => !!document.elementFromPoint(x, y)?.closest('.board .row')",
                            [box["x"] + box["width"] * x, box["y"] + box["height"] / 2])
        assert hit, f"the share price row is covered at {x:.0%} of its width"
    assert page.locator(".board .row .space").count() == 27
    # the offers waiting for an answer: one line per corporation and seller, every offer in it
    proposals = page.evaluate("rollingDoc.view.proposals")
    assert proposals
    lines = page.locator(".board .banner").all_inner_texts()
    offers = [t for t in lines if " offers $" in t]
    assert len(offers) == len({(p["corporation"], p["seller_seat"]) for p in proposals})
    for p in proposals:
        assert any(t.startswith(p["corporation"] + " offers") and f"${p['price']} for {p['company']}" in t for t in offers), p
    assert_clean(page)


def test_stars_table_fits_a_phone(server, browser, shots, late_game):
    """issue 29: the Stars table at 390x844 needs no sideways scrolling and opens at the top."""
    for url in (late_game["seats"][0]["url"], late_game["spectator_url"]):
        page = new_page(browser, *PHONE)
        page.goto(server + url)
        wait_drawn(page)
        page.screenshot(path=str(shots / f"late-6p-phone{'-watch' if url == late_game['spectator_url'] else ''}.png"), full_page=True)
        no_sideways_scroll(page, PHONE[0])
        header_in_view(page, PHONE[1])
        assert_clean(page)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_history_fits_and_opens_at_the_top(server, browser, shots, late_game, size):
    """issue 29: the history page was 884 px wide on a 390 px phone and opened scrolled past its
    header (to the current action in its list): it fits and opens at the top."""
    page = new_page(browser, *size)
    page.goto(f"{server}/g/{late_game['id']}/history")
    page.wait_for_function("document.body.dataset.at !== undefined")
    page.wait_for_selector("#board .row .space", state="attached")
    # the list shows the current action, the latest, without moving the page
    assert int(page.evaluate("document.body.dataset.at")) > 800
    cur = page.evaluate("""(() => { const l = document.querySelector('#actions'), c = l.querySelector('li.cur');
      const a = l.getBoundingClientRect(), b = c.getBoundingClientRect(); return [l.scrollTop, b.top >= a.top - 1 && b.bottom <= a.bottom + 1]; })()""")
    assert cur[0] > 0 and cur[1], cur
    page.screenshot(path=str(shots / f"history-late-6p-{size[0]}.png"))
    no_sideways_scroll(page, size[0])
    header_in_view(page, size[1])
    # stepping keeps the page where it is
    page.click("#prev")
    page.wait_for_function("document.body.dataset.at !== undefined && Number(document.body.dataset.at) < Number(document.querySelector('#slider').max)")
    header_in_view(page, size[1])
    assert_clean(page)


def test_freight_and_market_fit_a_phone(server, browser, shots):
    """issue 29: the Rolling Freight and Rolling Market tables need no sideways scrolling at 390x844."""
    games = {
        "freight": {"game": "freight", "config": {"players": 3, "map": "west-coast"}, "seats": ["human", "heuristic", "heuristic"], "seed": 4},
        "market": {"game": "market", "config": {}, "seats": ["human"], "seed": 4},
    }
    for name, body in games.items():
        g = post(server, "/api/games", body)
        page = new_page(browser, *PHONE)
        page.goto(server + g["seats"][0]["url"])
        wait_drawn(page)
        page.wait_for_timeout(300)
        page.screenshot(path=str(shots / f"{name}-phone.png"), full_page=True)
        no_sideways_scroll(page, PHONE[0])
        header_in_view(page, PHONE[1])
        assert_clean(page)
