"""Issue 28 item 4 in a real browser (Chromium): the final standings of a two-handed game name the
person whose lower-ranked hand ranks better (001, Two-player two-handed variant) and mark both of
that person's hands, also when the best single hand is the other person's; with secret money a
browser holding one person's hands shows both hands' cash and hides the other person's."""

from __future__ import annotations

from .browser_support import needs_chromium, new_page, post, wait_drawn

pytestmark = needs_chromium


def test_two_handed_game_over_names_the_person_who_wins(server, browser):
    # seed 9 (bots seeded per decision, issue 30): B's seat 1 ranks first, B's seat 2 last; A
    # (seats 0 and 3) wins
    g = post(server, "/api/games", {"game": "stars", "config": {"players": 4, "variants": ["two-handed"]},
                                    "seats": ["random"] * 4, "seed": 9})
    page = new_page(browser)
    page.goto(server + g["spectator_url"])
    wait_drawn(page)
    page.wait_for_function("document.body.dataset.over === 'yes'")
    standings = page.evaluate("rollingDoc.standings")
    assert standings[0]["seat"] == 1 and not standings[0]["win"]
    names = {s["seat"]: s["name"] for s in page.evaluate("rollingDoc.seats")}
    line = page.locator(".standings .winner").inner_text()
    # the person's hands are named best-ranked first
    assert line.startswith(f"Two-handed: person A ({names[3]} and {names[0]}) wins")
    rows = page.locator(".standings tbody tr")
    assert rows.count() == 4
    marked = [rows.nth(k).get_attribute("class") == "win" for k in range(4)]
    assert marked == [r["win"] for r in standings] == [r["seat"] in (0, 3) for r in standings]
    assert rows.nth(0).inner_text().split("\t")[2].strip() == "B"  # the hand column
    assert page.errors == []


def test_two_handed_secret_money_shows_a_persons_both_hands_cash(server, browser):
    g = post(server, "/api/games", {"game": "stars", "config": {"players": 4, "variants": ["two-handed", "secret-money"]},
                                    "seats": ["human", "heuristic", "heuristic", "human"], "seed": 5})
    page = new_page(browser)
    for seat in (0, 3):  # one browser holding both of person A's hands
        page.goto(server + g["seats"][seat]["url"])
        wait_drawn(page)
    cash = page.evaluate("Object.fromEntries(rollingDoc.view.players.map((p) => [p.seat, p.cash]))")
    assert {int(k) for k, v in cash.items() if v is not None} == {0, 3}
    cells = page.locator(".players td.cash").all_inner_texts()
    assert sorted(t.strip() == "secret" for t in cells) == [False, False, True, True]
    assert page.errors == []
