"""Issue 29, "every request has a bound": bots' budgets capped (4xx naming the cap), request bodies
refused over their limit with 413 before they are read and before any token check, rate limits
(429 with Retry-After) per address and per seat token, and the hygiene of every answer (a generic
500, a Content-Security-Policy, /healthz)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rolling.web.app import INTERNAL_ERROR, create_app
from rolling.web.settings import Settings

from .conftest import doc_of, make_game, tok

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "18xx"


def app_client(db_url, **settings):
    """A test client of an app with these settings (rate limits on unless told otherwise)."""
    return TestClient(create_app(db_url, bot_pace=0, start_workers=False,
                                 settings=Settings(**{"rate_limits": True, **settings})))


# -- bot budgets ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("seat", "cap"), [("bot:search:99999s", "at most 5 s"), ("bot:search:50000", "at most 20000"),
                                           ("search:6s", "at most 5 s")])
def test_a_bot_budget_over_the_cap_is_refused_naming_the_cap(client, seat, cap):
    r = client.post("/api/games", json={"game": "stars", "seats": ["human", seat]})
    assert r.status_code == 400 and cap in r.json()["message"], r.text
    assert client.get("/api/games").json()["games"] == []  # nothing created


def test_the_budget_caps_are_server_settings(db_url):
    with app_client(db_url, bot_max_seconds=0.5, bot_max_iterations=100) as c:
        assert c.post("/api/games", json={"seats": ["human", "bot:search:1s"]}).status_code == 400
        r = c.post("/api/games", json={"seats": ["human", "bot:search:200"]})
        assert r.status_code == 400 and "at most 100" in r.json()["message"]
        assert c.post("/api/games", json={"seats": ["human", "bot:search:0.5s"]}).status_code == 201
        assert c.post("/api/games", json={"seats": ["human", "bot:search:100"]}).status_code == 201
        # Freight's search bot too
        r = c.post("/api/games", json={"game": "freight", "seats": ["human", "bot:search:2s"]})
        assert r.status_code == 400 and "at most 0.5 s" in r.json()["message"]


def test_a_stored_game_over_the_cap_keeps_its_seat_but_thinks_within_it(db_url):
    from sqlalchemy import update

    from rolling.web.models import Seat

    with app_client(db_url) as c:
        gid = make_game(c, ["human", "human"])["id"]
        with c.app.state.engine.begin() as conn:  # a seat stored before the caps (or under larger ones)
            conn.execute(update(Seat).where(Seat.game_id == gid, Seat.seat == 1).values(kind="search:60s", token_hash=None))
    with app_client(db_url) as c:
        live = c.app.state.service.get(gid)
        assert live.seats[1]["kind"] == "search:60s"
        assert live.bots[1].budget.seconds == 5.0


# -- body size -----------------------------------------------------------------------------------------


def test_an_8_mb_post_is_refused_with_413_before_it_is_read_and_before_the_token_check(client):
    g = make_game(client, ["human", "human"])
    big = b"{" + b" " * (8 * 1024 * 1024) + b"}"
    t0 = time.perf_counter()
    r = client.post(f"/api/games/{g['id']}/actions", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "TooLarge" and "64 KiB" in r.json()["message"]
    assert time.perf_counter() - t0 < 2.0
    r = client.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_a_chunked_body_over_the_limit_is_refused_with_413(client):
    sent = []

    def chunks():  # no Content-Length: the middleware counts what comes
        for _ in range(1000):
            sent.append(1)
            yield b" " * 4096

    r = client.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "TooLarge"
    d = doc_of(client, make_game(client, ["human", "bot"])["id"])  # the server goes on
    assert d["version"] >= 0


def test_an_import_of_1_mb_passes_and_one_over_its_limit_does_not(db_url):
    raw = (FIXTURES / "rss_1001.json").read_bytes()
    padded = raw + b" " * (1024 * 1024 - len(raw))  # JSON allows trailing blanks
    with app_client(db_url, rate_limits=False, max_import=2 * 1024 * 1024) as c:
        r = c.post("/api/import", content=padded, headers={"content-type": "application/json"})
        assert r.status_code == 201, r.text
        r = c.post("/api/import", files={"file": ("x.json", padded, "application/json")})
        assert r.status_code == 201, r.text
        r = c.post("/api/import", content=padded * 3, headers={"content-type": "application/json"})
        assert r.status_code == 413 and "2 MB" in r.json()["message"]


# -- rate limits ---------------------------------------------------------------------------------------


def test_creating_games_is_limited_per_address_with_retry_after(db_url):
    with app_client(db_url, rate_create="2/minute") as c:
        for _ in range(2):
            assert c.post("/api/games", json={"seats": ["human", "bot"]}).status_code == 201
        r = c.post("/api/games", json={"seats": ["human", "bot"]})
        assert r.status_code == 429 and r.json()["error"] == "TooManyRequests"
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        assert c.get("/api/games").status_code == 200  # reading is not limited


def test_acting_is_limited_per_seat_token_and_per_address(db_url):
    with app_client(db_url, rate_act_token="3/minute", rate_act_address="5/minute") as c:
        g = make_game(c, ["human", "human"], seed=3)
        other = make_game(c, ["human", "human"], seed=4)
        bad = {"version": 0, "seat": 0, "action": {"type": "nonsense"}}
        for _ in range(3):  # refused actions count too: the cost is the request
            r = c.post(f"/api/games/{g['id']}/actions", json=bad, headers={"X-Seat-Tokens": tok(g, 0)})
            assert r.status_code == 422
        r = c.post(f"/api/games/{g['id']}/actions", json=bad, headers={"X-Seat-Tokens": tok(g, 0)})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        # another token from the same address still acts, until the address's limit
        r = c.post(f"/api/games/{other['id']}/actions", json=bad, headers={"X-Seat-Tokens": tok(other, 0)})
        assert r.status_code == 422  # the address's 5th request (the 4th was refused by its token's limit)
        r = c.post(f"/api/games/{other['id']}/actions", json=bad, headers={"X-Seat-Tokens": tok(other, 1)})
        assert r.status_code == 429 and r.json()["error"] == "TooManyRequests"


def test_chat_and_import_are_limited(db_url):
    with app_client(db_url, rate_chat_token="2/minute", rate_import="1/minute") as c:
        g = make_game(c, ["human", "bot"])
        for k in range(2):
            r = c.post(f"/api/games/{g['id']}/chat", json={"seat": 0, "text": f"hi {k}"}, headers={"X-Seat-Tokens": tok(g, 0)})
            assert r.status_code == 200
        r = c.post(f"/api/games/{g['id']}/chat", json={"seat": 0, "text": "hi"}, headers={"X-Seat-Tokens": tok(g, 0)})
        assert r.status_code == 429 and "Retry-After" in r.headers
        assert len(doc_of(c, g["id"])["chat"]) == 2
        assert c.post("/api/import", content=b"nope", headers={"content-type": "application/json"}).status_code == 400
        assert c.post("/api/import", content=b"nope", headers={"content-type": "application/json"}).status_code == 429


def test_rate_limits_off_count_nothing(db_url):
    with app_client(db_url, rate_limits=False, rate_create="1/minute") as c:
        for _ in range(3):
            assert c.post("/api/games", json={"seats": ["human", "bot"]}).status_code == 201


def test_settings_from_the_environment():
    s = Settings.from_env({"ROLLING_BOT_MAX_SECONDS": "2.5", "ROLLING_RATE_LIMITS": "off", "ROLLING_RATE_CREATE": "1/second"})
    assert s.bot_max_seconds == 2.5 and s.rate_limits is False and s.rate_create == "1/second"
    from rolling.core.errors import UsageError

    with pytest.raises(UsageError, match="ROLLING_MAX_BODY"):
        Settings.from_env({"ROLLING_MAX_BODY": "big"})


# -- hygiene -------------------------------------------------------------------------------------------


def test_a_server_error_answers_a_generic_message(db_url, monkeypatch):
    app = create_app(db_url, bot_pace=0, start_workers=False)

    def broken(limit=200):
        raise RuntimeError("secret detail /home/x/rolling.db deck=[3, 1, 4]")

    monkeypatch.setattr(app.state.service, "list_games", broken)
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/api/games")
    assert r.status_code == 500
    assert r.json() == {"error": "InternalError", "message": INTERNAL_ERROR}
    assert "secret" not in r.text and "RuntimeError" not in r.text


def test_healthz_and_the_security_headers(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"ok": True}
    for path in ("/", "/api/games", "/healthz"):
        h = client.get(path).headers
        assert "script-src 'self'" in h["content-security-policy"] and h["x-content-type-options"] == "nosniff"
