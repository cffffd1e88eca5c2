"""Fixtures of the web tests: a fresh database per test (SQLite in a temporary folder, or the
PostgreSQL database named by ``ROLLING_TEST_DB``, emptied first) and an app on it."""

from __future__ import annotations

import os
import random

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

#: e.g. postgresql+psycopg://rolling@127.0.0.1:55432/rolling_test; unset: SQLite
TEST_DB = os.environ.get("ROLLING_TEST_DB")

# the suite plays whole games through the API from one address in seconds: no rate limits here
# (nor in the servers the browser tests start, which inherit the environment); tests/web/test_bounds.py
# tests them with low limits of its own
os.environ["ROLLING_RATE_LIMITS"] = "off"


def fresh_db_url(tmp_path) -> str:
    """A URL of an empty database for one test."""
    if not TEST_DB:
        return f"sqlite:///{tmp_path / 'web.db'}"
    engine = create_engine(TEST_DB)
    with engine.begin() as conn:
        # everything the previous test left, gone: the migrations make the schema again
        conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return TEST_DB


@pytest.fixture
def db_url(tmp_path) -> str:
    """An empty database for this test."""
    return fresh_db_url(tmp_path)


@pytest.fixture
def client(db_url):
    """A test client of an app whose bots move at once, without background tasks."""
    from rolling.web.app import create_app

    app = create_app(db_url, bot_pace=0, start_workers=False)
    with TestClient(app) as c:
        yield c


def make_game(client, seats, players=None, seed=7, **extra):
    """Create a Stars game; return the creation answer."""
    config = {"players": players or len(seats)}
    config.update(extra.pop("config", {}))
    r = client.post("/api/games", json={"game": "stars", "config": config, "seats": seats, "seed": seed, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def tok(created, seat):
    """The token of a seat of a created game."""
    return created["seats"][seat]["token"]


def doc_of(client, gid, *tokens):
    """The game document as the given tokens see it."""
    r = client.get(f"/api/games/{gid}", headers={"X-Seat-Tokens": ",".join(tokens)} if tokens else {})
    assert r.status_code == 200, r.text
    return r.json()


def pick(doc, seat, rng=None):
    """A legal action of ``seat`` from the document's decisions (the first, or a random one)."""
    ds = doc["decisions"][str(seat)]
    d = ds[0] if rng is None else rng.choice(ds)
    if d["action"] is not None:
        return d["action"]
    value = d["lo"] if rng is None else rng.randint(d["lo"], d["hi"])
    return {"type": d["type"], **d["args"], d["field"]: value}


def act(client, created, seat, doc=None, action=None, tokens=None):
    """Post an action of ``seat`` (the first decision when none given); return the response."""
    gid = created["id"]
    tokens = tokens or [tok(created, seat)]
    doc = doc or doc_of(client, gid, *tokens)
    action = action or pick(doc, seat)
    return client.post(f"/api/games/{gid}/actions", json={"version": doc["version"], "seat": seat, "action": action},
                       headers={"X-Seat-Tokens": ",".join(tokens)})


__all__ = ["act", "doc_of", "fresh_db_url", "make_game", "pick", "random", "tok"]


# the browser tests' fixtures (a server process, Chromium, the screenshot folder), for every module
from .browser_support import browser, server, shots  # noqa: E402, F401
