"""The leak test (issue 29, "Hidden information, on every route and for every viewer").

A secret-money Rolling Stock Stars game (four seats: two people, a heuristic bot and a search bot
on a small budget) and a Rolling Freight game (two people and a heuristic bot) are played to their
end through the API. The people's moves are chosen by a heuristic bot reading the true state (the
test's business, not the server's). After every move each viewer (a spectator, each person's
seat, both seats at once as at a hotseat table) reads every route: the game document, the
WebSocket frames, the history, a past position, the charts, the record, a hint, a refused action.
Every body is checked at once, against the true state at that moment, for what that viewer may
not know (:class:`Secrets`):

- another seat's cash (secret money, 002 3.2): any ``cash`` or ``worth`` of such a seat that is not
  null, a chart series of such a seat, a log line only that seat's hands may read;
- the seed (and the bots' seeds, derived from it) and the generator's state, as text anywhere;
- a field that carries hidden order (``seed``, ``rng``, ``deck`` with a list, ``bag_order``...),
  and any list of two or more companies that all still lie in the face-down deck (the deck's order);
- in Rolling Freight the dice to come: the generator's state, from which every later roll follows.

Once the game is over everything may be read: the record (with the seed) and every chart.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rolling.bots import make_bot
from rolling.core.events import sees
from rolling.games.stars import data as SD

from .browser_support import needs_chromium, new_page, post
from .conftest import tok

#: a seed whose digits cannot appear by chance among small numbers
SEED = 1_987_654_321
SEED_TEXT = str(SEED)
#: keys that would carry hidden order or the generator whatever their value
FORBIDDEN_KEYS = {"seed", "rng", "rng_state", "deck_order", "bag_order", "decks"}


def walk(obj: Any):
    """Every dict (with the key it sits under) and every list in a JSON value."""
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            yield x
            stack.extend(x.values())
        elif isinstance(x, list):
            yield x
            stack.extend(x)


def strings(obj: Any) -> list[str]:
    """Every string (keys included) in a JSON value."""
    out = []
    for x in walk(obj):
        items = list(x.keys()) + list(x.values()) if isinstance(x, dict) else x
        out += [v for v in items if isinstance(v, str)]
    if isinstance(obj, str):
        out.append(obj)
    return out


class Secrets:
    """What the viewer holding ``held`` may not know in the live game now (see the module's text)."""

    def __init__(self, live: Any, held: tuple[int, ...], log_lines: Any = None):
        """``log_lines(seat)``: the set of the log's lines ``seat`` reads (default: rendered here)."""
        s = live.state
        log_lines = log_lines or (lambda k: set(s.log_lines(k)))
        self.game = live.game
        self.over = bool(s.is_over)
        n = len(live.seats)
        self.seeds = {str(live.seed), *(str(live.seed * 101 + k) for k in range(n))}
        rng = getattr(s, "rng", None)
        if rng is not None:
            self.seeds.add(str(rng.state))
        self.hidden: set[int] = set()
        self.lines: set[str] = set()
        self.deck: set[str] = set()
        if live.game == "stars":
            from rolling.games.stars.view import cash_audience

            self.hidden = {p for p in range(n)
                           if not any(sees(cash_audience(s, p), k) for k in (held or (None,)))}
            mine = set().union(*(log_lines(k) for k in (held or (None,))))
            for p in self.hidden:
                self.lines |= log_lines(p) - mine
            if "open-companies" not in s.config.variants:
                self.deck = {SD.CODES[i] for i in s.deck}
        elif live.game == "freight":
            self.deck = {s.map.links[c].label for c in s.contract_deck if c is not None and c >= 0}
        self.names = {live.seats[p]["name"] for p in self.hidden}

    def check(self, where: str, text: str) -> None:
        """Fail if the body ``text`` (JSON or not) of route ``where`` tells a secret."""
        if self.over:
            return
        for seed in self.seeds:
            assert seed not in text, f"{where}: the seed (or the generator's state) {seed} leaks"
        try:
            body = json.loads(text)
        except ValueError:
            body = text
        for x in walk(body):
            if isinstance(x, dict):
                for k, v in x.items():
                    assert k.lower() not in FORBIDDEN_KEYS, f"{where}: a field {k!r} leaks"
                    if ("deck" in k.lower() or "bag" in k.lower()) and isinstance(v, list | dict):
                        raise AssertionError(f"{where}: the order of {k!r} leaks")
                if x.get("seat") in self.hidden and {"cash", "name"} <= x.keys():
                    assert x.get("cash") is None and x.get("worth") is None, \
                        f"{where}: {x['name']}'s cash leaks ({x.get('cash')}, worth {x.get('worth')})"
                if "net_worth" in x and isinstance(x["net_worth"], dict):
                    shown = set(x["net_worth"]) & self.names
                    assert not shown, f"{where}: the net worth of {shown} leaks (secret money)"
            elif len(x) >= 2 and all(isinstance(v, str) for v in x) and set(x) <= self.deck:
                raise AssertionError(f"{where}: cards still face down in the deck leak: {x}")
        if self.lines:
            every = "\n".join(strings(body))
            for line in self.lines:
                assert line not in every, f"{where}: a log line another seat alone may read leaks: {line!r}"


class Table:
    """The viewers of one game and what they read; every body is checked when it arrives."""

    def __init__(self, client: TestClient, created: dict, humans: list[int]):
        self.client = client
        self.gid = created["id"]
        self.tokens = {k: tok(created, k) for k in humans}
        self.viewers: list[tuple[int, ...]] = [(), *((k,) for k in humans), tuple(humans)]
        self.service = client.app.state.service
        self.checked = 0
        self.secrets: dict[tuple[int, ...], tuple[int, Secrets]] = {}
        self.lines: tuple[int, dict] = (-1, {})  # the version, and each viewer's log lines then

    def live(self):
        return self.service.get(self.gid)

    def headers(self, held: tuple[int, ...]) -> dict[str, str]:
        return {"X-Seat-Tokens": ",".join(self.tokens[k] for k in held)} if held else {}

    def check(self, held: tuple[int, ...], where: str, text: str) -> None:
        live = self.live()
        known = self.secrets.get(held)
        if known is None or known[0] != live.version:
            if self.lines[0] != live.version:
                self.lines = (live.version, {})
            cache = self.lines[1]

            def log_lines(k: int | None) -> set[str]:
                if k not in cache:
                    cache[k] = set(live.state.log_lines(k))
                return cache[k]

            known = self.secrets[held] = (live.version, Secrets(live, held, log_lines))
        known[1].check(f"{where} as {held or 'a spectator'}", text)
        self.checked += 1

    def get(self, held: tuple[int, ...], path: str) -> Any:
        r = self.client.get(path, headers=self.headers(held))
        assert r.status_code < 500, r.text
        self.check(held, f"GET {path} ({r.status_code})", r.text)
        return r

    def read_all(self, held: tuple[int, ...], every: bool, deep: bool) -> None:
        """The document as ``held``; ``every``: every other reading route too; ``deep``: also the
        ones that replay the game."""
        g = f"/api/games/{self.gid}"
        self.get(held, g)
        if not every:
            return
        self.get(held, "/api/games")
        r = self.get(held, f"{g}/record")
        if not self.live().state.is_over:
            assert r.status_code == 409 and r.json()["error"] == "GameRunning", r.text
        for k in held:
            self.get(held, f"{g}/hint?seat={k}")
        if deep:
            hist = self.get(held, f"{g}/history").json()
            self.get(held, f"{g}/charts")
            played = hist["played"]
            for n in sorted({0, played // 2, max(0, played - 1), played}):
                self.get(held, f"{g}/history/{n}")

    def act(self, seat: int, action: dict) -> None:
        """Post ``seat``'s action (and, first, one the rules refuse, when there is one), checking
        the answers as that seat's."""
        held = (seat,)
        version = self.live().version
        body = {"version": version, "seat": seat, "action": action}
        r = self.client.post(f"/api/games/{self.gid}/actions", json=body, headers=self.headers(held))
        assert r.status_code == 200, r.text
        self.check(held, "POST actions", r.text)
        # a stale copy of the same action: refused, and the refusal tells nothing either
        r = self.client.post(f"/api/games/{self.gid}/actions", json=body, headers=self.headers(held))
        assert r.status_code in (400, 409), r.text
        self.check(held, "POST actions (stale)", r.text)


def drain(table: Table, sockets: dict, version: int) -> None:
    """Read each viewer's WebSocket frames up to the one of ``version``, checking each."""
    for held, ws in sockets.items():
        while True:
            text = ws.receive_text()
            table.check(held, "WebSocket frame", text)
            if json.loads(text)["version"] >= version:
                break


def play(client: TestClient, created: dict, humans: list[int], game: str, every: int, deep_every: int) -> Table:
    """Play ``created`` to its end, the people's seats by a heuristic bot reading the true state,
    every viewer reading every route after every move of theirs."""
    table = Table(client, created, humans)
    movers = {k: make_bot(game, "heuristic", seed=k) for k in humans}
    paths = {held: f"/ws/games/{table.gid}" + (f"?t={','.join(table.tokens[k] for k in held)}" if held else "")
             for held in table.viewers}
    sockets = {}
    try:
        for held, path in paths.items():
            sockets[held] = client.websocket_connect(path).__enter__()
        moves = 0
        while not table.live().state.is_over:
            live = table.live()
            seat = next(k for k in live.state.to_act if k in humans)
            action = movers[seat].choose(live.state.clone(), seat)
            table.act(seat, action.to_json())
            moves += 1
            drain(table, sockets, table.live().version)
            for held in table.viewers:
                table.read_all(held, every=moves % every == 0, deep=moves % deep_every == 0)
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
    return table


def after_the_game(table: Table, names: list[str]) -> None:
    """Once over: the record with its seed, every player's chart; an undo is refused."""
    g = f"/api/games/{table.gid}"
    r = table.client.get(f"{g}/record")
    assert r.status_code == 200 and r.json()["seed"] == SEED
    assert set(table.client.get(f"{g}/charts").json()["net_worth"]) == set(names)
    held = table.viewers[-1]
    r = table.client.post(f"{g}/undo", json={"version": table.live().version, "seat": held[0]},
                          headers=table.headers(held))
    assert r.status_code == 403 and r.json()["error"] == "UndoRefused"
    assert "over" in r.json()["message"]


@pytest.fixture
def client(db_url):
    from rolling.web.app import create_app

    with TestClient(create_app(db_url, bot_pace=0, start_workers=False)) as c:
        yield c


def test_a_secret_money_stars_game_leaks_nothing_to_any_viewer(client):
    seats = ["human", "human", "heuristic", "search:50"]
    r = client.post("/api/games", json={"game": "stars", "seed": SEED, "seats": seats,
                                        "config": {"players": 4, "variants": ["secret-money"]}})
    assert r.status_code == 201, r.text
    created = r.json()
    table = play(client, created, [0, 1], "stars", every=5, deep_every=25)
    assert table.checked > 1000
    after_the_game(table, [s["name"] for s in created["seats"]])


def test_a_freight_game_leaks_no_deck_and_no_dice_to_come(client):
    r = client.post("/api/games", json={"game": "freight", "seed": SEED, "seats": ["human", "human", "heuristic"]})
    assert r.status_code == 201, r.text
    created = r.json()
    table = play(client, created, [0, 1], "freight", every=3, deep_every=15)
    assert table.checked > 500
    after_the_game(table, [s["name"] for s in created["seats"]])


def test_a_market_game_does_not_show_its_seed_while_it_runs(client):
    """Rolling Market's dice all follow from the seed: its log used to start with it."""
    r = client.post("/api/games", json={"game": "market", "seed": SEED, "seats": ["human"]})
    created = r.json()
    table = Table(client, created, [0])
    for held in table.viewers:
        table.read_all(held, every=True, deep=True)


def test_a_hint_reads_only_what_the_seat_sees():
    """A hint is computed from the seat's information only (issue 29): the games whose bots read
    the true state (the Stars deck, a Freight deck) give none, and Rolling Market's hint is the same
    whatever the dice to come (another generator state behind the same table)."""
    from rolling.core.rng import Rng
    from rolling.games.market.state import MarketState
    from rolling.web.hints import HINT_GAMES, NoHint, hint

    assert HINT_GAMES == ("market",)
    for game in ("stars", "freight"):
        with pytest.raises(NoHint, match="would see what the seat does not"):
            hint(game, None, 0)
    s, rng, hints = MarketState(5), Rng(9), 0
    while not s.over:
        given = hint("market", s, 0)
        other = s.clone()
        other.rng = Rng(123_456_789)
        assert hint("market", other, 0) == given
        hints += 1
        moves = s.legal_actions(0)
        s.apply(moves[rng.below(len(moves))])
    assert hints > 20


@pytest.mark.parametrize("variants, seen_by_0", [
    (["secret-money"], {0}),
    (["secret-money", "two-handed"], {0, 3}),  # one person holds hands 0 and 3 (001, two-handed variant)
    ([], {0, 1, 2, 3}),
])
def test_the_charts_give_each_viewer_the_lines_it_may_see(client, variants, seen_by_0):
    """Issue 29, secret money: the net worth of the players whose cash the viewer may see (the
    engine's rule, ``cash_audience``), every player's open assets, and the others named under
    ``hidden``; without secret money, everyone's."""
    r = client.post("/api/games", json={"game": "stars", "seed": SEED, "seats": ["human", "human", "heuristic", "heuristic"],
                                        "config": {"players": 4, "variants": variants}})
    created = r.json()
    names = [s["name"] for s in created["seats"]]
    table = Table(client, created, [0, 1])
    mover = make_bot("stars", "heuristic", seed=1)
    for _ in range(12):  # a dozen moves: auctions, money changing hands
        live = table.live()
        seat = next(k for k in live.state.to_act if k in (0, 1))
        table.act(seat, mover.choose(live.state.clone(), seat).to_json())
    full = client.app.state.service.charts(table.live())
    for held, seen in [((0,), seen_by_0), ((), set() if variants else {0, 1, 2, 3})]:
        c = table.get(held, f"/api/games/{table.gid}/charts").json()
        assert set(c["net_worth"]) == {names[k] for k in seen}
        assert c["assets"] == full["assets"] and set(c["assets"]) == set(names)
        assert c.get("hidden", []) == [n for k, n in enumerate(names) if k not in seen]
        for n in c["net_worth"]:
            assert c["net_worth"][n] == full["net_worth"][n]


@needs_chromium
def test_the_history_page_of_a_running_secret_money_game(server, browser):
    """The history page while the game runs: no record link (it would carry the seed), the
    spectator's net worth chart without anyone's line and a note saying why; the seat's with its own."""
    g = post(server, "/api/games", {"game": "stars", "config": {"players": 3, "variants": ["secret-money"]},
                                    "seats": ["human", "heuristic", "heuristic"], "seed": SEED})
    for url, lines in ((f"/g/{g['id']}/history", 0), (g["seats"][0]["url"].replace("?t=", "/history?t="), 1)):
        page = new_page(browser)
        page.goto(server + url)
        page.wait_for_function("document.body.dataset.at !== undefined")
        page.wait_for_selector("#chart-worth small", state="attached")
        assert page.locator("#record").get_attribute("href") is None
        assert "once the game is over" in page.locator("#record").inner_text()
        assert "Secret money" in page.locator("#chart-worth small").inner_text()
        assert page.locator("#chart-worth svg path").count() == lines
        assert SEED_TEXT not in page.content()
        assert page.errors == []


def test_a_bots_refused_move_stops_play_without_telling_its_cash(client):
    """Issue 29, error messages: the engine's reason for refusing a bot's bid states the bot's money
    (secret here); every page reads only that play stopped and the rule, the server's log the rest."""
    from rolling.games import get_game

    r = client.post("/api/games", json={"game": "stars", "seed": SEED, "seats": ["human"] * 3,
                                        "config": {"players": 3, "variants": ["secret-money"]}})
    created = r.json()
    table = Table(client, created, [0, 1, 2])
    live = table.live()
    seat = live.state.to_act[0]
    start = next(d for d in client.get(f"/api/games/{table.gid}", headers=table.headers((seat,))).json()["decisions"][str(seat)]
                 if d["type"] == "start_auction")
    too_much = get_game("stars").action_from_json({"type": "start_auction", "seat": seat, **start["args"], "bid": 999})

    class Overbidder:
        last_reason = None

        def choose(self, state, k):
            return too_much

    live.bots[seat] = Overbidder()
    assert not table.service._step(live)
    for held in table.viewers:
        doc = table.get(held, f"/api/games/{table.gid}").json()
        assert doc["stopped"] == "automated play stopped: a move the rules refuse (Auction)"
        assert "your money" not in json.dumps(doc)
