"""Issue 29, "what you type is what is sent", in Chromium: a person types an offer in phase 3
(Acquisition) while chat lines arrive, another person acts and the bots answer; the panel keeps the
typed amount, its focus and its element while the decision is the same, says so when the decision
changes (and keeps the amount in its row), and the engine receives the amount typed.

Seat 0 is the browser, seat 1 a person played through the API, seats 2 and 3 heuristic bots (at
pace 0: they act within the request that makes it their turn). Both people play a simple seeded
policy up to a position of phase 3 where seat 0 may offer a range of prices and seat 1 may offer
for a company of seat 0's."""

from __future__ import annotations

import json
import random
import urllib.request

from .browser_support import needs_chromium, new_page, post

pytestmark = needs_chromium

SEED = 8


def get(base: str, path: str, tokens: list[str]) -> dict:
    req = urllib.request.Request(base + path, headers={"X-Seat-Tokens": ",".join(tokens)})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def act(base: str, gid: str, tokens: list[str], d: dict, seat: int, action: dict) -> dict:
    body = {"version": d["version"], "seat": seat, "action": action}
    req = urllib.request.Request(f"{base}/api/games/{gid}/actions", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json", "X-Seat-Tokens": ",".join(tokens)})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def policy(ds: list[dict], rng: random.Random) -> dict:
    """A simple person: forms corporations, starts auctions and bids while cheap, else passes,
    leaves, is done, declines, rejects, issues nothing, pays the least."""
    by: dict[str, list[dict]] = {}
    for x in ds:
        by.setdefault(x["type"], []).append(x)
    for t in ("form_corporation", "start_auction", "bid"):
        if t in by and (t != "bid" or by[t][0]["lo"] <= 12):
            return by[t][0] if t != "start_auction" else rng.choice(by[t])
    for t in ("leave_auction", "pass", "done", "decline_ipo"):
        if t in by:
            return by[t][0]
    for x in ds:
        if (x["type"] == "respond" and not x["args"]["accept"]) or (x["type"] == "issue" and not x["args"]["issue"]):
            return x
    return ds[0]


def _position(d: dict):
    """(seat 0's ranged offer, seat 1's offer for a company of seat 0's, seat 1's offer a bot
    answers) in phase 3, or None."""
    if d["over"] or d["view"]["phase"] != 3 or not {0, 1} <= set(d["to_act"]):
        return None
    mine = [x for x in d["decisions"]["0"] if x["type"] == "offer" and x["field"] and x["hi"] - x["lo"] >= 10]
    theirs = [x for x in d["decisions"]["1"] if x["type"] == "offer" and "from Player 1 " in x["label"]]
    bots = [s["name"] for s in d["seats"] if s["kind"] != "human"]
    bots += [c["name"] for c in d["view"]["corporations"] if c["president"] in (2, 3)]
    to_bots = [x for x in d["decisions"]["1"] if x["type"] == "offer" and x["field"]
               and any(f"from {n} (" in x["label"] for n in bots)]
    return (mine[0], theirs[0], to_bots[0]) if mine and theirs and to_bots else None


def test_the_amount_typed_is_the_amount_sent_while_the_table_moves_issue29(server, browser, shots):
    g = post(server, "/api/games", {"game": "stars", "config": {"players": 4}, "seed": SEED,
                                    "seats": ["human", "human", "heuristic", "heuristic"]})
    gid = g["id"]
    both = [g["seats"][0]["token"], g["seats"][1]["token"]]
    rng = random.Random(SEED)
    for _ in range(400):
        d = get(server, f"/api/games/{gid}", both)
        found = _position(d)
        if found:
            break
        k = next(k for k in d["to_act"] if k in (0, 1))
        x = policy(d["decisions"][str(k)], rng)
        act(server, gid, both, d, k, x["action"] or {"type": x["type"], **x["args"], x["field"]: x["lo"]})
    assert found, "the seeded game reaches no such position"
    mine, theirs, to_bots = found
    want = mine["lo"] + 7  # two digits, typed one at a time

    page = new_page(browser)
    page.goto(f"{server}/g/{gid}?t={g['seats'][0]['token']}")
    row = page.locator(".dec.ranged").filter(
        has=page.locator(f"button[data-args='{json.dumps(mine['args'], separators=(',', ':'))}']"))
    box = row.locator("input.amount-in")
    box.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(str(want)[0])  # half typed
    page.evaluate("document.activeElement.dataset.mark = 'typed here'")

    # another person's low offer a bot answers (no), and a chat line: the same decision for seat 0
    played = int(page.evaluate("document.body.dataset.played"))
    d = get(server, f"/api/games/{gid}", both)
    after = act(server, gid, both, d, 1, {"type": "offer", **to_bots["args"], "price": to_bots["lo"]})
    assert any(h["by"] == "bot" for h in get(server, f"/api/games/{gid}/history", both)["actions"][played + 1:]), \
        "no bot acted"
    page.wait_for_function(f"Number(document.body.dataset.version) >= {after['version']}")
    chats = page.locator("#chat li").count()
    post_chat = {"seat": 1, "text": "take your time"}
    req = urllib.request.Request(f"{server}/api/games/{gid}/chat", data=json.dumps(post_chat).encode(),
                                 headers={"Content-Type": "application/json", "X-Seat-Tokens": both[1]})
    urllib.request.urlopen(req, timeout=10).close()
    page.wait_for_function(f"document.querySelectorAll('#chat li').length > {chats}")
    assert page.evaluate("document.activeElement.dataset.mark") == "typed here"
    assert box.input_value() == str(want)[0]
    assert page.locator(".dec-changed").count() == 0

    # the decision changes: seat 1 offers for seat 0's company, an answer is due
    before = int(page.evaluate("document.body.dataset.version"))
    d = get(server, f"/api/games/{gid}", both)
    act(server, gid, both, d, 1, {"type": "offer", **theirs["args"], "price": theirs["lo"]})
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    notice = page.locator("#decisions .dec-changed")
    assert notice.is_visible() and "decision changed" in notice.inner_text()
    assert page.locator("#decisions button.act[data-type=respond]").count() >= 2
    # the amount stays in its row, where the focus still is
    assert box.input_value() == str(want)[0]
    assert page.evaluate("document.activeElement.classList.contains('amount-in')")
    page.screenshot(path=str(shots / "typed-decision-changed.png"))
    page.wait_for_timeout(800)  # the changed panel sends nothing until the player has seen it
    page.keyboard.type(str(want)[1:])
    assert box.input_value() == str(want)
    sent_at = int(page.evaluate("document.body.dataset.version"))
    page.keyboard.press("Enter")
    page.wait_for_function(f"Number(document.body.dataset.version) > {sent_at} || !document.querySelector('#error').hidden")
    assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
    # the engine has the amount typed
    hist = get(server, f"/api/games/{gid}/history", both)["actions"]
    offers = [h["action"] for h in hist if h["seat"] == 0 and h["action"]["type"] == "offer"]
    assert offers[-1] == {"type": "offer", **mine["args"], "price": want}
    assert page.errors == []


def test_a_sale_into_receivership_asks_first_issue29(server, browser, shots):
    """Issue 29: selling the last share of a corporation that a player holds says it goes into
    receivership, and asks; declining sends nothing, confirming sells."""
    from rolling.bots import make_bot
    from rolling.games.stars import Config, SellShare, new_game, previews
    from rolling.games.stars import data as D

    def receivership_sale(s):
        return s.phase == 1 and s.auction is None and any(
            m.kind is SellShare and previews.sell_share(s, D.CORP_INDEX[m.args["corporation"]]).receivership
            for m in s.legal_moves(s.to_act[0]))

    for seed in range(1, 300):
        s = new_game(Config(players=3), seed)
        bots = [make_bot("stars", "random", seed=seed * 101 + k) for k in range(3)]
        actions = []
        while not s.is_over and len(actions) < 3000 and not receivership_sale(s):
            a = bots[s.to_act[0]].choose(s, s.to_act[0])
            s.apply(a)
            actions.append(a.to_json())
        if not s.is_over and receivership_sale(s):
            break
    seat = s.to_act[0]
    g = post(server, "/api/games", {"game": "stars", "config": {"players": 3}, "seed": seed, "seats": ["human"] * 3})
    tokens = [x["token"] for x in g["seats"]]
    version = 0
    for a in actions:
        version = act(server, g["id"], tokens, {"version": version}, a["seat"], a)["version"]
    page = new_page(browser)
    page.goto(f"{server}/g/{g['id']}?t={tokens[seat]}")
    page.wait_for_selector("#decisions button.act.warn[data-type=sell_share]")
    button = page.locator("#decisions button.act.warn[data-type=sell_share]").first
    corp = json.loads(button.get_attribute("data-args"))["corporation"]
    row = page.locator("#decisions .dec").filter(has=page.locator("button.act.warn[data-type=sell_share]")).first
    assert "RECEIVERSHIP" in row.inner_text()
    page.screenshot(path=str(shots / "sell-into-receivership.png"))
    asked = []

    def answer(dialog, accept):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dlg: answer(dlg, False))
    button.click()
    page.wait_for_timeout(300)
    assert "receivership" in asked[0] and int(page.evaluate("document.body.dataset.version")) == version
    page.once("dialog", lambda dlg: answer(dlg, True))
    button.click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {version}")
    view = page.evaluate("rollingDoc.view")
    assert next(c for c in view["corporations"] if c["symbol"] == corp)["receivership"]
    assert page.errors == []
