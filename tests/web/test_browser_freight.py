"""Rolling Freight in the browser, as a person plays it: a game created from the lobby on each map,
one human and bots, played by clicking (contracts from the track, links picked on the map, routes
by clicking cities, the dice chosen to pay with once) to the final scores; the history with the
board at any action and the chart of the stock; a reload and a server killed with SIGKILL keep the
game. Screenshots at 1280x800 and 390x844 go to ``ROLLING_SCREENSHOTS`` (``docs/img`` refreshes
the README's ``freight.png``)."""

from __future__ import annotations

import httpx

from .browser_support import assert_clean, needs_chromium, new_page, version, wait_drawn
from .test_kill import free_port, kill9, start_server

pytestmark = needs_chromium

#: a person's patience: moves in one turn before ending it
MOVES_PER_TURN = 6


def wait_changed(page, before: int) -> None:
    """Until the page shows a newer document, or an error."""
    page.wait_for_function(f"document.body.dataset.version !== '{before}' || !document.querySelector('#error').hidden")
    assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()


def click_and_wait(page, locator) -> None:
    before = version(page)
    locator.click()
    wait_changed(page, before)


def create_from_lobby(page, base: str, map_name: str, players: int, seed: int = 7) -> str:
    """The lobby's form: Rolling Freight on ``map_name``, seat 1 human, the rest heuristic bots, the seed
    given (the same pictures every run); play here."""
    page.goto(base + "/")
    page.select_option("#game", "freight")
    page.select_option("#map", map_name)
    lo, hi = (int(page.get_attribute("#players", a)) for a in ("min", "max"))
    assert (lo, hi) == {"west-coast": (2, 4), "southern": (3, 5)}[map_name]
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    assert page.locator(".seat-kind").count() == players
    assert page.locator(".seat-kind").first.input_value() == "human"
    assert page.locator(".seat-kind").nth(1).input_value() == "bot"  # the lobby's bot: the search bot
    for k in range(1, players):  # heuristics: quick, so the whole game fits the test's time
        page.locator(".seat-kind").nth(k).select_option("bot:heuristic")
    page.fill("#seed", str(seed))
    page.click("#create-btn")
    page.wait_for_selector("#created:not([hidden])")
    page.click("#hotseat")
    page.wait_for_url("**/g/*")
    wait_drawn(page)
    page.wait_for_selector(".fr-map .city")
    return page.url.rsplit("/", 1)[-1]


def zoom_into(page, city: str, path) -> None:
    """Zoom the map into ``city`` with the wheel: every city then in view shows its name; a
    picture of the map; back to the whole map."""
    spot = page.locator(f".fr-map .hit-city[data-city='{city}']")
    c = None
    for _ in range(50):  # (a bot's move may redraw the map between finding the city and measuring it)
        spot.wait_for(state="visible")
        c = spot.bounding_box()
        if c is not None:
            break
        page.wait_for_timeout(100)
    assert c is not None, f"{city} never stayed on the map long enough to be measured"
    page.mouse.move(c["x"] + c["width"] / 2, c["y"] + c["height"] / 2)
    for _ in range(4):
        page.mouse.wheel(0, -200)
    page.wait_for_timeout(100)
    in_view = page.evaluate("""() => {
      const b = document.querySelector('.fr-map').getBoundingClientRect();
      return [...document.querySelectorAll('.fr-map .hit-city')].filter((c) => {
        const r = c.getBoundingClientRect();
        return r.left > b.left + 70 && r.right < b.right - 70 && r.top > b.top + 30 && r.bottom < b.bottom - 30;
      }).map((c) => c.dataset.city); }""")
    shown = set(page.locator(".fr-map text.cname").all_text_contents())
    assert city in in_view and set(in_view) <= shown, set(in_view) - shown
    page.locator(".fr-map").screenshot(path=str(path))
    page.click(".fr-zoom .fit")


def decision_buttons(page, kind: str):
    return page.locator(f"#decisions button.act[data-type={kind}]")


def play_turn(page, state: dict) -> None:
    """One decision, as a steady player: draft the first card; then each turn ship a route
    (clicking its cities on the map), build on a contract (picking the link on the map), take a
    contract while holding fewer than two (the first one paid with dice chosen by hand), and end
    the turn."""
    # the bots may still be moving after our last click: act on a page that shows our decision
    page.wait_for_selector("#decisions button.act")
    if page.locator("#decisions button.act[data-type^=draft_]").count():
        click_and_wait(page, page.locator("#decisions button.act[data-type^=draft_]").first)
        return
    doc = page.evaluate("window.rollingDoc")
    turn = doc["view"]["turn"]
    if state.get("turn") != turn:
        state.update(turn=turn, moves=0)
    state["moves"] += 1
    me = doc["you"][0]
    if state["moves"] <= MOVES_PER_TURN:
        routes = decision_buttons(page, "route")
        if routes.count():
            first = [d for d in doc["decisions"][str(me)] if d["type"] == "route"][0]
            # the route's cities clicked on the map narrow the list to routes through them
            for city in first["preview"]["cities"][:2]:
                page.locator(f".fr-map .hit-city[data-city='{city}']").dispatch_event("click")
            page.wait_for_selector(".fr-map .halo.in")
            state["routes"] = state.get("routes", 0) + 1
            click_and_wait(page, decision_buttons(page, "route").first)
            return
        builds = [d for d in doc["decisions"][str(me)] if d["type"] in ("build", "steady_build")]
        if builds:
            link = builds[0]["args"]["link"]
            page.locator(f".fr-map .hit-link[data-link='{link}']").dispatch_event("click")
            page.wait_for_selector(f"#decisions .dec.build.sel[data-link='{link}']")
            opt = page.locator(f"#decisions .dec.build.sel[data-link='{link}'] button.act").first
            opt.hover()
            page.wait_for_selector(".fr-map rect.ghost")  # the squares the build would fill
            state["builds"] = state.get("builds", 0) + 1
            click_and_wait(page, opt)
            return
        takes = page.locator(".fr-tracks button.act[data-type=take_contract]")
        if takes.count() and len(doc["view"]["players"][me]["contracts"]) < 2:
            if not state.get("paid_by_hand"):
                # the payment chooser: the dice the engine would pay with, picked by hand
                for d in takes.first.locator(".fdie").all():
                    page.locator(f".fr-pay button.fdie[data-die='{d.get_attribute('data-die')}']").click()
                for m in takes.first.locator(".fmark").all():
                    page.locator(f".fr-pay button.fmark[data-marker='{m.get_attribute('data-marker')}']").click()
                assert page.locator(".chosen-pay").is_visible()
                state["paid_by_hand"] = True
            else:
                # another way to pay, listed on the card after the engine's (issue 28 item 5)
                alts = page.locator(".fr-tracks button.act.alt[data-type=take_contract]")
                if alts.count() and not state.get("paid_alternative"):
                    assert "keeps" in alts.first.get_attribute("title")
                    state["paid_alternative"] = True
                    state["contracts"] = state.get("contracts", 0) + 1
                    click_and_wait(page, alts.first)
                    return
            state["contracts"] = state.get("contracts", 0) + 1
            click_and_wait(page, takes.first)
            return
    click_and_wait(page, decision_buttons(page, "end_turn").first)


def play_to_the_end(page, shots, prefix: str, on_turn=None) -> dict:
    state: dict = {}
    for _ in range(2000):
        if page.evaluate("document.body.dataset.over") == "yes":
            break
        page.wait_for_selector("#decisions button.act, body[data-over=yes]")
        if page.evaluate("document.body.dataset.over") == "yes":
            break
        play_turn(page, state)
        if on_turn:
            on_turn(page, state)
    assert page.evaluate("document.body.dataset.over") == "yes"
    return state


def test_whole_game_on_each_map_from_the_lobby(server, browser, shots):
    alternatives = 0
    for map_name, players in (("west-coast", 3), ("southern", 4)):
        page = new_page(browser)
        gid = create_from_lobby(page, server, map_name, players)
        assert_clean(page)
        shot = {"done": False}

        def pictures(page, state, map_name=map_name, shot=shot):
            # mid-game, once a few links stand on the board: the table, the Bay Area zoomed
            if shot["done"] or page.evaluate("window.rollingDoc.view.turn") < 14:
                return
            shot["done"] = True
            page.screenshot(path=str(shots / f"freight-{map_name}.png"))
            if map_name == "west-coast":
                page.screenshot(path=str(shots / "freight.png"))
                zoom_into(page, "San Francisco", shots / "freight-bay-area.png")
            else:
                zoom_into(page, "Atlanta", shots / "freight-atlanta.png")
            assert_clean(page)

        state = play_to_the_end(page, shots, map_name, pictures)
        assert state.get("routes", 0) and state.get("builds", 0) and state.get("contracts", 0) and state.get("paid_by_hand")
        alternatives += bool(state.get("paid_alternative"))
        page.wait_for_selector(".standings")
        assert page.locator(".standings tr").count() == players
        assert_clean(page)
        page.screenshot(path=str(shots / f"freight-{map_name}-over.png"))
        # the history: the board at an early action, and the stock over the turns
        page.goto(f"{server}/g/{gid}/history?at=20")
        page.wait_for_selector(".fr-map .city")
        page.wait_for_selector("#chart-worth svg")
        assert "Stock" in page.locator("#worth-title").inner_text()
        assert page.locator("#chart-price").count() == 0
        page.click("#last")
        page.wait_for_function("document.body.dataset.at !== '20'")
        assert_clean(page)
        page.screenshot(path=str(shots / f"freight-{map_name}-history.png"))
        page.context.close()
    assert alternatives  # a contract was paid another way than the engine's, from its card


def test_phone_and_reload(server, browser, shots):
    created = httpx.post(server + "/api/games", json={"game": "freight", "config": {"map": "southern", "players": 3},
                                                      "seats": ["human", "heuristic", "heuristic"], "seed": 11}).json()
    page = new_page(browser, 390, 844)
    page.goto(server + created["seats"][0]["url"])
    wait_drawn(page)
    page.wait_for_selector(".fr-map .city")
    state: dict = {}
    for _ in range(12):
        play_turn(page, state)
    v = version(page)
    assert_clean(page)
    page.screenshot(path=str(shots / "freight-phone.png"), full_page=True)
    page.reload()
    wait_drawn(page)
    page.wait_for_selector(".fr-map .city")
    assert version(page) == v
    assert page.locator("#decisions button.act").count()
    assert_clean(page)
    page.context.close()


def test_kill_9_mid_game_keeps_it(browser, db_url, tmp_path):
    port = free_port()
    log = tmp_path / "server.log"
    proc = start_server(db_url, port, 0.0, log)
    base = f"http://127.0.0.1:{port}"
    try:
        page = new_page(browser)
        create_from_lobby(page, base, "west-coast", 2)
        state: dict = {}
        for _ in range(8):
            play_turn(page, state)
        v = version(page)
        kill9(proc)
        proc = start_server(db_url, port, 0.0, log)
        page.reload()
        wait_drawn(page)
        page.wait_for_selector(".fr-map .city")
        assert version(page) == v
        for _ in range(3):
            play_turn(page, state)
        assert version(page) > v
        assert_clean(page)
        page.context.close()
    finally:
        proc.kill()
        proc.wait(10)
