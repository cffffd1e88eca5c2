"""Issue 31 through the API: accounts and sessions, open seats joined from the lobby, private games
joined through their invite link, the creator's seat changes and a game's settings, notifications
found, batched, guarded and delivered (a local webhook server, a local SMTP server). On SQLite, and
on PostgreSQL where ``ROLLING_TEST_DB`` names one (.ci/run)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from fastapi.testclient import TestClient

from rolling.web.settings import Settings

from .conftest import doc_of, pick

PASSWORD = "correct horse"


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch):
    """argon2id with small costs: the tests hash dozens of passwords (the server keeps pwdlib's
    recommended costs, about 64 MiB and three passes each)."""
    from pwdlib import PasswordHash
    from pwdlib.hashers.argon2 import Argon2Hasher

    from rolling.web import accounts

    monkeypatch.setattr(accounts, "_hasher", PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),)))


def settings(**kw) -> Settings:
    base = {"rate_limits": False, "notify_delay": 0.0, "public_url": "http://rolling.test"}
    return Settings.from_env({}, **{**base, **kw})


@pytest.fixture
def app(db_url):
    from rolling.web.app import create_app

    return create_app(db_url, bot_pace=0, start_workers=False, settings=settings(notify_allow_private=True))


@pytest.fixture
def people(app):
    """Two logged-in clients of one app (alice, bob), and a third with no account."""
    with TestClient(app) as a, TestClient(app) as b, TestClient(app) as anon:
        for c, name in ((a, "alice"), (b, "bob")):
            assert c.post("/api/accounts", json={"name": name, "email": f"{name}@example.org", "password": PASSWORD}).status_code == 201
            assert c.post("/api/session", json={"name": name, "password": PASSWORD}).status_code == 200
        yield a, b, anon


class Hook:
    """A local webhook server (what apprise's ``json://`` posts to): the bodies it received, each
    with the ``path`` it was posted to and when (``at``)."""

    def __init__(self):
        got = self.got = []

        class H(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                got.append({**body, "path": self.path, "at": time.time()})
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.url = f"json://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


@pytest.fixture
def hook():
    h = Hook()
    yield h
    h.close()


def open_game(c, seats=("open", "open", "bot:heuristic"), **extra):
    r = c.post("/api/games", json={"game": "stars", "config": {"players": len(seats)}, "seats": list(seats), "seed": 11, **extra})
    assert r.status_code == 201, r.text
    return r.json()


# -- accounts ----------------------------------------------------------------------------------------


def test_register_login_me_logout(app):
    """issue 31, accounts: register → 201, wrong password → 401, login → cookie, /api/me, logout."""
    with TestClient(app) as c:
        r = c.post("/api/accounts", json={"name": "Carol", "email": "carol@example.org", "password": PASSWORD})
        assert r.status_code == 201 and r.json()["name"] == "Carol" and "password" not in r.text
        assert c.post("/api/accounts", json={"name": "carol", "email": "x@example.org", "password": PASSWORD}).status_code == 409
        assert c.post("/api/accounts", json={"name": "d", "email": "d@example.org", "password": PASSWORD}).status_code == 400
        assert c.post("/api/accounts", json={"name": "dave", "email": "nope", "password": PASSWORD}).status_code == 400
        assert c.post("/api/accounts", json={"name": "dave", "email": "d@example.org", "password": "short"}).status_code == 400
        r = c.post("/api/session", json={"name": "carol", "password": "wrong password"})
        assert r.status_code == 401 and r.json()["error"] == "Unauthorized" and "set-cookie" not in r.headers
        assert c.post("/api/session", json={"name": "nobody", "password": PASSWORD}).status_code == 401
        # (PostgreSQL refuses a NUL in a text: a name no account can have is never looked up)
        assert c.post("/api/session", json={"name": "\x00", "password": PASSWORD}).status_code == 401
        assert c.post("/api/password-reset", json={"email": "a\x00@b.org"}).status_code == 202
        assert c.get("/api/me").status_code == 401
        r = c.post("/api/session", json={"name": "CAROL", "password": PASSWORD})
        assert r.status_code == 200
        cookie = r.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie
        me = c.get("/api/me").json()
        assert me["account"]["name"] == "Carol" and me["games"] == [] and me["waiting"] == []
        assert c.delete("/api/session").status_code == 204
        assert c.get("/api/me").status_code == 401
    with TestClient(app, base_url="https://rolling.test") as c:  # behind https the cookie is Secure
        r = c.post("/api/session", json={"name": "carol", "password": PASSWORD})
        assert "secure" in r.headers["set-cookie"].lower()


def test_a_forged_cookie_is_nobody(app):
    with TestClient(app) as c:
        c.cookies.set("rolling_session", "made-up.value")
        assert c.get("/api/me").status_code == 401


def test_login_attempts_are_rate_limited(db_url):
    """issue 31: login attempts rate-limited per account name (429 with Retry-After)."""
    from rolling.web.app import create_app

    app = create_app(db_url, bot_pace=0, start_workers=False, settings=settings(rate_limits=True, rate_login_name="3/minute"))
    with TestClient(app) as c:
        c.post("/api/accounts", json={"name": "erin", "email": "e@example.org", "password": PASSWORD})
        codes = [c.post("/api/session", json={"name": "erin", "password": "guess-" + str(k)}).status_code for k in range(4)]
        assert codes == [401, 401, 401, 429]
        r = c.post("/api/session", json={"name": "ERIN", "password": PASSWORD})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1


def test_password_reset_by_email(app):
    """issue 31: reset a password by email: the link's token sets a new one (once), the old one
    and the sessions end."""
    from rolling.web.models import OutboxRow

    accounts, notifier = app.state.accounts, app.state.notifier
    with TestClient(app) as c:
        c.post("/api/accounts", json={"name": "fay", "email": "fay@example.org", "password": PASSWORD})
        assert c.post("/api/session", json={"name": "fay", "password": PASSWORD}).status_code == 200
        assert c.post("/api/password-reset", json={"email": "fay@example.org"}).status_code == 202
        assert c.post("/api/password-reset", json={"email": "nobody@example.org"}).status_code == 202  # the same answer
        from sqlalchemy.orm import Session

        with Session(app.state.engine) as db:
            rows = db.query(OutboxRow).filter(OutboxRow.event == "reset").all()
        assert len(rows) == 1 and rows[0].payload["link"].startswith("http://rolling.test/account?reset=")
        token = rows[0].payload["link"].split("reset=")[1]
        assert c.post("/api/password-reset/confirm", json={"token": "made-up", "password": "new password"}).status_code == 403
        assert c.post("/api/password-reset/confirm", json={"token": token, "password": "new password"}).status_code == 204
        assert c.post("/api/password-reset/confirm", json={"token": token, "password": "other password"}).status_code == 403
        accounts._cache.clear()
        assert c.get("/api/me").status_code == 401  # the session ended
        assert c.post("/api/session", json={"name": "fay", "password": PASSWORD}).status_code == 401
        assert c.post("/api/session", json={"name": "fay", "password": "new password"}).status_code == 200
    assert notifier is not None


# -- seats -------------------------------------------------------------------------------------------


def test_open_seats_lobby_join_and_play(people):
    """issue 31, seats: a game with open seats is listed until they are taken; nobody moves
    meanwhile; joining binds the seat to the account (409 when taken); the account acts with its
    cookie; acting for another account's seat is refused and changes nothing."""
    alice, bob, anon = people
    g = open_game(alice)
    gid = g["id"]
    assert [s["kind"] for s in g["seats"]] == ["open", "open", "heuristic"] and all(s["token"] is None for s in g["seats"])
    lobby = anon.get("/api/games?open=true").json()["games"]
    assert [x["id"] for x in lobby] == [gid] and lobby[0]["open"] == [0, 1]
    assert doc_of(anon, gid)["played"] == 0  # the bot waits for the people
    assert anon.post(f"/api/games/{gid}/join", json={"seat": 0}).status_code == 401
    r = alice.post(f"/api/games/{gid}/join", json={"seat": 0})
    assert r.status_code == 200 and r.json()["you"] == [0] and r.json()["seats"][0]["name"] == "alice"
    r = bob.post(f"/api/games/{gid}/join", json={"seat": 0})
    assert r.status_code == 409 and r.json()["error"] == "SeatTaken"
    assert alice.post(f"/api/games/{gid}/join", json={"seat": 1}).status_code == 409  # already seated
    assert bob.post(f"/api/games/{gid}/join", json={"seat": 2}).status_code == 409  # a bot's
    assert bob.post(f"/api/games/{gid}/join", json={"seat": 7}).status_code == 422
    assert bob.post(f"/api/games/{gid}/join", json={"seat": 1}).status_code == 200
    assert anon.get("/api/games?open=true").json()["games"] == []
    assert gid in [x["id"] for x in anon.get("/api/games").json()["games"]]
    doc = doc_of(alice, gid)
    assert doc["you"] == [0] and doc["open"] == [] and "— alice took seat 1" in doc["log"]
    stamps = {doc["log"][t["line"]]: t["at"] for t in doc["log_times"] if t.get("server")}  # the server's lines
    assert set(stamps) == {"— alice took seat 1", "— bob took seat 2"} and all(a.endswith("+00:00") for a in stamps.values())
    assert {p["seat"]: p["name"] for p in doc["view"]["players"]}[0] == "alice"  # the players' names in the game itself
    # play until one of the people is to act; the other may not act for them
    for _ in range(50):
        doc = doc_of(anon, gid)
        if doc["to_act"] and doc["to_act"][0] in (0, 1):
            break
    seat = doc["to_act"][0]
    mover, other = (alice, bob) if seat == 0 else (bob, alice)
    mine = doc_of(mover, gid)
    before = doc_of(anon, gid)["version"]
    r = other.post(f"/api/games/{gid}/actions", json={"version": mine["version"], "seat": seat, "action": pick(mine, seat)})
    assert r.status_code == 403 and r.json()["error"] == "Forbidden"
    assert doc_of(anon, gid)["version"] == before
    r = mover.post(f"/api/games/{gid}/actions", json={"version": mine["version"], "seat": seat, "action": pick(mine, seat)})
    assert r.status_code == 200, r.text
    me = mover.get("/api/me").json()
    assert [x["id"] for x in me["games"]] == [gid] and me["games"][0]["seats"] == [{"seat": seat, "name": me["account"]["name"]}]


def test_people_cannot_act_while_seats_are_open(people, app, hook):
    """issue 31: a game waits for its open seats: no decisions, no action, no "your turn"."""
    alice, bob, anon = people
    alice.put("/api/me/notifications", json={"urls": [hook.url]})
    g = open_game(alice, seats=("open", "open"))
    gid = g["id"]
    alice.post(f"/api/games/{gid}/join", json={"seat": 0})
    doc = doc_of(alice, gid)
    assert doc["decisions"] == {} and doc["open"] == [1]
    r = alice.post(f"/api/games/{gid}/actions", json={"version": doc["version"], "seat": 0, "action": {"type": "pass"}})
    assert r.status_code in (403, 409) and doc_of(anon, gid)["version"] == doc["version"]
    assert app.state.notifier.run_once() == (0, 0) and hook.got == []


def test_a_mention_is_the_whole_name():
    from rolling.web.notify import _mentions

    assert _mentions("hi @Bob!", "bob") and _mentions("@bob", "bob") and _mentions("(@bob.)", "bob.")
    assert not _mentions("hi @bobby", "bob") and not _mentions("bob", "bob") and not _mentions("@bo", "bob")


def test_private_game_joined_through_its_invite(people):
    """issue 31: a private game is not listed; it is joined through its invite link only."""
    alice, bob, anon = people
    g = open_game(alice, private=True)
    gid, invite = g["id"], g["invite_url"].split("invite=")[1]
    assert g["invite_url"].startswith(f"/g/{gid}/join?invite=")
    assert gid not in [x["id"] for x in anon.get("/api/games").json()["games"]]
    assert gid not in [x["id"] for x in anon.get("/api/games?open=true").json()["games"]]
    r = bob.post(f"/api/games/{gid}/join", json={"seat": 1})
    assert r.status_code == 403 and doc_of(anon, gid)["open"] == [0, 1]
    assert bob.post(f"/api/games/{gid}/join", json={"seat": 1, "invite": "wrong"}).status_code == 403
    assert bob.post(f"/api/games/{gid}/join", json={"seat": 1, "invite": invite}).status_code == 200
    assert open_game(alice).get("invite_url") is None


def test_creator_starts_early_and_replaces_an_idle_seat(people):
    """issue 31: the creator starts a game early with bots in the open seats, replaces a seat idle
    longer than the game's idle time with a bot or reopens it; the log says so; others may not."""
    alice, bob, anon = people
    g = open_game(alice, seats=("open", "open", "open"))
    gid = g["id"]
    bob.post(f"/api/games/{gid}/join", json={"seat": 0})
    assert bob.post(f"/api/games/{gid}/start", json={"bot": "heuristic"}).status_code == 403
    assert anon.post(f"/api/games/{gid}/start", json={}, headers={"X-Creator-Token": "nope"}).status_code == 403
    r = alice.post(f"/api/games/{gid}/start", json={"bot": "heuristic"})
    assert r.status_code == 200, r.text
    doc = doc_of(bob, gid)
    assert [s["kind"] for s in doc["seats"]] == ["human", "heuristic", "heuristic"]
    assert any("the creator started the game: the bot heuristic took the open seats 2, 3" in x for x in doc["log"])
    assert doc["to_act"] == [0]  # the bots played up to bob
    # bob's seat, idle: only after the game's idle time (3 days by default)
    r = alice.post(f"/api/games/{gid}/seats/0/replace", json={"with": "bot"})
    assert r.status_code == 409 and "idle" in r.json()["message"]
    assert bob.put(f"/api/games/{gid}/settings", json={"idle_seconds": 0.05}).status_code == 403
    r = alice.put(f"/api/games/{gid}/settings", json={"idle_seconds": 0.05, "bot_pace": 1.5})
    assert r.status_code == 200 and r.json()["idle_seconds"] == 0.05 and r.json()["bot_pace"] == 1.5 and r.json()["creator"]
    time.sleep(0.1)
    assert bob.post(f"/api/games/{gid}/seats/0/replace", json={"with": "open"}).status_code == 403
    r = alice.post(f"/api/games/{gid}/seats/0/replace", json={"with": "open"})
    assert r.status_code == 200
    doc = doc_of(anon, gid)
    assert doc["open"] == [0] and any("the creator reopened the seat of bob, idle too long" in x for x in doc["log"])
    assert bob.get("/api/me").json()["games"] == []  # not bob's any more
    assert gid in [x["id"] for x in anon.get("/api/games?open=true").json()["games"]]


def test_game_settings(people):
    alice, bob, anon = people
    g = open_game(alice)
    gid = g["id"]
    s = anon.get(f"/api/games/{gid}/settings").json()
    assert s["time_limits"] == {} and s["open"] == [0, 1] and not s["creator"] and s["timed_phases"] == ["3", "4"]
    assert alice.get(f"/api/games/{gid}/settings").json()["creator"]
    assert anon.get(f"/api/games/{gid}/settings", headers={"X-Creator-Token": g["creator_token"]}).json()["creator"]
    r = alice.put(f"/api/games/{gid}/settings", json={"time_limits": {"3": 120, "4": 0}})
    assert r.status_code == 200 and r.json()["time_limits"] == {"3": 120}
    assert alice.put(f"/api/games/{gid}/settings", json={"time_limits": {"2": 10}}).status_code == 400
    assert alice.put(f"/api/games/{gid}/settings", json={"bot_pace": 999}).status_code == 422
    assert doc_of(anon, gid)["version"] == 0  # settings change no decision


def test_hand_own_seat_to_a_bot_with_the_cookie(people):
    alice, bob, anon = people
    gid = open_game(alice)["id"]
    alice.post(f"/api/games/{gid}/join", json={"seat": 0})
    bob.post(f"/api/games/{gid}/join", json={"seat": 1})
    assert bob.post(f"/api/games/{gid}/seats/0/bot", json={"bot": "heuristic"}).status_code == 403
    r = alice.post(f"/api/games/{gid}/seats/0/bot", json={"bot": "heuristic"})
    assert r.status_code == 200 and r.json()["seats"][0]["kind"] == "heuristic"
    assert any("alice handed their seat to the bot heuristic" in x for x in doc_of(anon, gid)["log"])


# -- notifications -----------------------------------------------------------------------------------


def test_notification_urls_are_guarded(db_url):
    """issue 31: a webhook to a private or loopback address is refused unless allowed."""
    from rolling.web.app import create_app

    app = create_app(db_url, bot_pace=0, start_workers=False, settings=settings())
    with TestClient(app) as c:
        c.post("/api/accounts", json={"name": "gil", "email": "g@example.org", "password": PASSWORD})
        c.post("/api/session", json={"name": "gil", "password": PASSWORD})
        for url in ("json://127.0.0.1:9/x", "json://localhost/x", "jsons://10.1.2.3/x", "json://[::1]:80/x",
                    "json://169.254.169.254/latest", "not a url"):
            r = c.put("/api/me/notifications", json={"urls": [url]})
            assert r.status_code == 400, url
        assert c.put("/api/me/notifications", json={"urls": ["discord://123456/abcdef"]}).status_code == 200
        r = c.post("/api/me/push", json={"endpoint": "https://127.0.0.1/push", "keys": {"p256dh": "x", "auth": "y"}})
        assert r.status_code == 400
        assert c.get("/api/me").json()["account"]["notifications"]["urls"] == ["discord://123456/abcdef"]
        assert len(c.get("/api/push/key").json()["key"]) == 87  # a P-256 point, base64url


def play_to(anon, gid, seats, limit=60):
    """Let the bots play (pace 0) and people pass until one of ``seats`` is to act; its doc."""
    for _ in range(limit):
        doc = doc_of(anon, gid)
        if doc["to_act"] and doc["to_act"][0] in seats:
            return doc
    raise AssertionError("no turn came")


def test_turn_notification_deduplicated_and_dropped_when_taken(people, app, hook):
    """issue 31, notifications: a turn is queued once per turn (however often the notifier looks),
    sent to the account's webhook with a link to the game and nothing hidden; a turn taken before
    its message was due is dropped, not sent."""
    from sqlalchemy.orm import Session

    from rolling.web.models import OutboxRow

    alice, bob, anon = people
    notifier = app.state.notifier
    for c in (alice, bob):
        assert c.put("/api/me/notifications", json={"urls": [hook.url]}).status_code == 200
    gid = open_game(alice)["id"]
    alice.post(f"/api/games/{gid}/join", json={"seat": 0})
    bob.post(f"/api/games/{gid}/join", json={"seat": 1})
    doc = play_to(anon, gid, (0, 1))
    assert notifier.find_events() == 1
    assert notifier.find_events() == 0  # the same turn: queued once
    assert notifier.deliver() == 1
    assert len(hook.got) == 1
    msg = hook.got[0]
    assert msg["title"] == "Your turn: Rolling Stock Stars, 3 players"
    assert msg["message"] == f"Your turn in Rolling Stock Stars, 3 players: http://rolling.test/g/{gid}"
    assert notifier.deliver() == 0 and notifier.find_events() == 0
    # the next person's turn, taken before its message is due: dropped
    notifier.settings = settings(notify_delay=3600.0, notify_allow_private=True)
    seat = doc["to_act"][0]
    by = {0: alice, 1: bob}
    mine = doc_of(by[seat], gid)
    assert by[seat].post(f"/api/games/{gid}/actions", json={"version": mine["version"], "seat": seat,
                                                            "action": pick(mine, seat)}).status_code == 200
    doc = play_to(anon, gid, (0, 1))
    assert notifier.find_events() == 1
    seat = doc["to_act"][0]
    mine = doc_of(by[seat], gid)
    assert by[seat].post(f"/api/games/{gid}/actions", json={"version": mine["version"], "seat": seat,
                                                            "action": pick(mine, seat)}).status_code == 200
    if seat in doc_of(anon, gid)["to_act"]:
        pytest.skip("the same seat is to act again")
    assert notifier.deliver(now=time.time() + 3600) == 0
    with Session(app.state.engine) as db:
        assert sorted(r.status for r in db.query(OutboxRow)) == ["dropped", "sent"]
    assert len(hook.got) == 1


def test_several_events_make_one_message_and_a_failing_hook_is_retried(people, app, hook):
    """issue 31: an account's events due together make one message; a webhook that fails is tried
    again later (the outbox row stays pending with its error), then sent."""
    alice, bob, anon = people
    notifier = app.state.notifier
    g1, g2 = open_game(alice, seats=("open", "bot:heuristic")), open_game(alice, seats=("open", "bot:heuristic"))
    for g in (g1, g2):
        alice.post(f"/api/games/{g['id']}/join", json={"seat": 0})
        play_to(anon, g["id"], (0,))
    dead = "json://127.0.0.1:9/nobody"  # a closed port
    assert alice.put("/api/me/notifications", json={"urls": [dead]}).status_code == 200
    assert notifier.find_events() == 2
    assert notifier.deliver() == 0
    from sqlalchemy.orm import Session

    from rolling.web.models import OutboxRow

    with Session(app.state.engine) as db:
        rows = db.query(OutboxRow).all()
    assert [(r.status, r.attempts) for r in rows] == [("pending", 1)] * 2 and all(r.error for r in rows)
    assert alice.put("/api/me/notifications", json={"urls": [hook.url]}).status_code == 200
    assert notifier.deliver(now=time.time() + 3600) == 1
    assert len(hook.got) == 1
    assert hook.got[0]["title"] == "Rolling: 2 things wait for you"
    assert hook.got[0]["message"].count("Your turn in") == 2


def test_game_over_and_mention_notifications(people, app, hook):
    """issue 31: "the game is over" and "you were mentioned in chat" reach the account."""
    alice, bob, anon = people
    notifier = app.state.notifier
    bob.put("/api/me/notifications", json={"urls": [hook.url]})
    g = open_game(alice)
    gid = g["id"]
    alice.post(f"/api/games/{gid}/join", json={"seat": 0})
    bob.post(f"/api/games/{gid}/join", json={"seat": 1})
    notifier.find_events()
    notifier.deliver()
    hook.got.clear()
    r = alice.post(f"/api/games/{gid}/chat", json={"seat": 0, "text": "@Bob your move soon?"})
    assert r.status_code == 200
    assert alice.post(f"/api/games/{gid}/stop", headers={"X-Creator-Token": g["creator_token"]}).status_code == 200
    notifier.find_events()
    assert notifier.deliver() == 1
    text = hook.got[0]["message"]
    assert "alice mentioned you in Rolling Stock Stars, 3 players: \u201c@Bob your move soon?\u201d" in text
    assert "Rolling Stock Stars, 3 players is over: the game was stopped by its creator." in text
    assert "$" not in text  # nothing the rules hide (no cash, no deck)


def test_email_notification_through_smtp(people, db_url, hook):
    """issue 31: email notifications through the server's SMTP settings (a local aiosmtpd)."""
    pytest.importorskip("aiosmtpd")
    from aiosmtpd.controller import Controller

    from rolling.web.notify import Notifier

    mails = []

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            mails.append((envelope.rcpt_tos, envelope.content.decode()))
            return "250 OK"

    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    ctl = Controller(Handler(), hostname="127.0.0.1", port=port)
    ctl.start()
    try:
        alice, bob, anon = people
        app = alice.app
        alice.put("/api/me/notifications", json={"urls": [], "email": True})
        gid = open_game(alice, seats=("open", "bot:heuristic"))["id"]
        alice.post(f"/api/games/{gid}/join", json={"seat": 0})
        play_to(anon, gid, (0,))
        n = Notifier(app.state.engine, settings(smtp_host="127.0.0.1", smtp_port=port, smtp_security="none"), app.state.accounts)
        assert n.run_once() == (1, 1)
    finally:
        ctl.stop()
    assert len(mails) == 1 and mails[0][0] == ["alice@example.org"]
    assert f"http://rolling.test/g/{gid}" in mails[0][1] and "Subject: Your turn:" in mails[0][1]


def test_community_routes_no_server_error(app):
    """issue 31: schemathesis over the new routes (a few examples each, logged in, with a game that
    has an open seat) finds no server error."""
    import zlib

    import schemathesis
    from hypothesis import HealthCheck, given
    from hypothesis import settings as hsettings
    from schemathesis.checks import not_a_server_error

    with TestClient(app) as c:
        c.post("/api/accounts", json={"name": "hal", "email": "h@example.org", "password": PASSWORD})
        cookie = c.post("/api/session", json={"name": "hal", "password": PASSWORD}).headers["set-cookie"].split(";")[0]
        g = open_game(c)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    operations = [r.ok() for r in schema.get_all_operations() if "community" in (r.ok().tags or [])]
    assert len(operations) >= 14
    for op in operations:

        @given(case=op.as_strategy())
        @hsettings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
        def no_server_error(case):
            if case.path_parameters and "gid" in case.path_parameters and zlib.crc32(repr(case.body).encode()) % 3:
                case.path_parameters["gid"] = g["id"]
            case.headers = {**(case.headers or {}), "Cookie": cookie}
            case.validate_response(case.call(), checks=[not_a_server_error])

        no_server_error()


def test_web_push_reaches_the_browsers_push_service(people, app):
    """issue 31: a Web Push subscription gets the turn, encrypted for the browser's keys (RFC 8291,
    aes128gcm) and signed with the server's VAPID key; the push service (here a local one) reads
    the VAPID key the pages subscribe with."""
    import base64
    import os

    import http_ece
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    got = []

    class PushService(BaseHTTPRequestHandler):
        def do_POST(self):
            got.append(({k.lower(): v for k, v in self.headers.items()}, self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(201)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), PushService)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        alice, bob, anon = people
        browser_key = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)

        def b64(b: bytes) -> str:
            return base64.urlsafe_b64encode(b).decode().rstrip("=")

        public = browser_key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        endpoint = f"http://127.0.0.1:{server.server_address[1]}/push/alice"
        r = alice.post("/api/me/push", json={"endpoint": endpoint, "keys": {"p256dh": b64(public), "auth": b64(auth)}})
        assert r.status_code == 200 and r.json()["notifications"]["push"] == 1
        gid = open_game(alice, seats=("open", "bot:heuristic"))["id"]
        alice.post(f"/api/games/{gid}/join", json={"seat": 0})
        play_to(anon, gid, (0,))
        assert app.state.notifier.run_once() == (1, 1)
    finally:
        server.shutdown()
    headers, body = got[0]
    assert headers["content-encoding"] == "aes128gcm"
    assert headers["authorization"].startswith("vapid t=")
    assert f"k={alice.get('/api/push/key').json()['key']}" in headers["authorization"]
    message = json.loads(http_ece.decrypt(body, private_key=browser_key, auth_secret=auth, version="aes128gcm"))
    assert message == {"title": "Your turn: Rolling Stock Stars, 2 players",
                       "body": f"Your turn in Rolling Stock Stars, 2 players: http://rolling.test/g/{gid}",
                       "url": f"http://rolling.test/g/{gid}"}


def test_account_pages_and_messages_hide_what_the_rules_hide(people, app, hook):
    """issue 31, hidden information: with secret money, neither /api/me, nor the settings, nor a
    notification carries a player's cash; the account's game page shows its own seat's view."""
    alice, bob, anon = people
    alice.put("/api/me/notifications", json={"urls": [hook.url]})
    bob.put("/api/me/notifications", json={"urls": [hook.url]})
    r = alice.post("/api/games", json={"game": "stars", "config": {"players": 3, "variants": ["secret-money"]},
                                       "seats": ["open", "open", "bot:heuristic"], "seed": 11})
    gid = r.json()["id"]
    alice.post(f"/api/games/{gid}/join", json={"seat": 0})
    bob.post(f"/api/games/{gid}/join", json={"seat": 1})
    play_to(anon, gid, (0, 1))
    app.state.notifier.run_once()
    for text in (alice.get("/api/me").text, alice.get(f"/api/games/{gid}/settings").text, json.dumps(hook.got)):
        assert "cash" not in text and "$" not in text and "deck" not in text
    cash = {p["seat"]: p["cash"] for p in doc_of(alice, gid)["view"]["players"]}
    assert cash[0] is not None and cash[1] is None and cash[2] is None  # alice's own seat only
    cash = {p["seat"]: p["cash"] for p in doc_of(bob, gid)["view"]["players"]}
    assert cash[1] is not None and cash[0] is None


def test_games_played_and_won_per_game_and_edition(people):
    """issue 31: "My games" counts, per game and edition, the finished games of the account's seats
    and those it won (the standings' ``win``)."""
    alice, bob, anon = people
    gid = open_game(alice, seats=("open", "bot:random"))["id"]
    alice.post(f"/api/games/{gid}/join", json={"seat": 0})
    for _ in range(3000):
        doc = doc_of(alice, gid)
        if doc["over"]:
            break
        assert alice.post(f"/api/games/{gid}/actions", json={"version": doc["version"], "seat": 0,
                                                               "action": pick(doc, 0)}).status_code == 200
    assert doc["over"]
    won = next(r["win"] for r in doc["standings"] if r["seat"] == 0)
    me = alice.get("/api/me").json()
    assert me["stats"] == [{"game": "stars", "edition": "stars", "played": 1, "won": int(won)}]
    assert me["games"][0]["over"] and me["waiting"] == []
    assert bob.get("/api/me").json()["stats"] == []
