"""Issue 31 in a real browser (Chromium), two people in two browser contexts: each registers, the
first creates a game with open seats, both take a seat from the lobby, they play until it is the
other's turn, and a notification with a link to the game reaches a local webhook server (apprise's
``json://``) and a local SMTP server (aiosmtpd)."""

from __future__ import annotations

import os
import socket
import time

import pytest

from .browser_support import PASSIVE, needs_chromium, new_page, run_server, wait_drawn
from .test_accounts import Hook

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def mail():
    """A local SMTP server: the messages it received, ``(recipients, text)``."""
    pytest.importorskip("aiosmtpd")
    from aiosmtpd.controller import Controller

    class Mail(list):
        port = 0

    got = Mail()

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            got.append((envelope.rcpt_tos, envelope.content.decode()))
            return "250 OK"

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ctl = Controller(Handler(), hostname="127.0.0.1", port=port)
    ctl.start()
    got.port = port
    yield got
    ctl.stop()


@pytest.fixture(scope="module")
def hook():
    h = Hook()
    yield h
    h.close()


@pytest.fixture(scope="module")
def community(tmp_path_factory, mail):
    """A server whose notifications may go to this machine, mailing through ``mail``."""
    env = {"ROLLING_NOTIFY_ALLOW_PRIVATE": "1", "ROLLING_SMTP_HOST": "127.0.0.1", "ROLLING_SMTP_PORT": str(mail.port),
           "ROLLING_SMTP_SECURITY": "none", "ROLLING_NOTIFY_DELAY": "0.2", "ROLLING_NOTIFY_EVERY": "0.2"}
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield from run_server(tmp_path_factory.mktemp("community"))
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def register(page, base, name, hook_url):
    page.goto(base + "/account")
    page.fill("#reg-name", name)
    page.fill("#reg-email", f"{name}@example.org")
    page.fill("#reg-password", "correct horse")
    page.click("#register-btn")
    page.wait_for_selector("#in:not([hidden])")
    page.check("#notify-email")
    page.fill("#notify-urls", hook_url)
    page.click("#notify-save")
    page.wait_for_selector("#notify-msg:not([hidden])")
    assert page.locator("#notify-msg").inner_text() == "saved"


def take_seat(page, base, gid, seat):
    page.goto(base + "/")
    page.wait_for_selector(f"#open-games tr[data-game='{gid}'] button.join-seat[data-seat='{seat}']")
    page.click(f"#open-games tr[data-game='{gid}'] button.join-seat[data-seat='{seat}']")
    page.wait_for_url(f"**/g/{gid}")
    wait_drawn(page)


def to_act(page):
    return page.evaluate("rollingDoc.over ? [] : rollingDoc.to_act")


def test_two_people_join_from_the_lobby_and_are_notified(community, browser, hook, mail, shots):
    base = community
    alice, bob = new_page(browser), new_page(browser)
    register(alice, base, "alice", hook.url)
    register(bob, base, "bob", hook.url)
    # alice creates a game with two open seats and a bot
    alice.goto(base + "/")
    alice.wait_for_selector("#game option[value=stars]", state="attached")
    alice.fill("#players", "3")
    alice.dispatch_event("#players", "change")
    kinds = alice.locator(".seat-kind")
    kinds.nth(0).select_option("open")
    kinds.nth(1).select_option("open")
    kinds.nth(2).select_option("bot:heuristic")
    alice.fill("#seed", "5")
    alice.click("#create-btn")
    alice.wait_for_selector("#open-note .invite-link")
    gid = alice.locator("#open-note .invite-link").get_attribute("href").split("/")[2]
    alice.wait_for_selector(f"#open-games tr[data-game='{gid}']")
    alice.screenshot(path=str(shots / "community-lobby.png"), full_page=True)
    take_seat(alice, base, gid, 0)
    assert alice.evaluate("rollingDoc.you") == [0] and alice.evaluate("rollingDoc.open") == [1]
    assert "Waiting for players" in alice.locator("#lifecycle").inner_text()
    take_seat(bob, base, gid, 1)  # the other browser context, from the lobby
    assert bob.evaluate("rollingDoc.you") == [1]
    names = {s["seat"]: s["name"] for s in bob.evaluate("rollingDoc.seats")}
    assert names[0] == "alice" and names[1] == "bob"
    pages = {0: alice, 1: bob}
    # play (passively) until it is one person's turn after the other's
    first = None
    deadline = time.time() + 60
    while time.time() < deadline:
        acting = [s for s in to_act(bob) if s in pages]
        if acting and first is None:
            first = acting[0]
        if acting and acting[0] != first:
            break
        if acting:
            page = pages[acting[0]]
            page.wait_for_function(f"rollingDoc.version >= {bob.evaluate('rollingDoc.version')}")
            for sel in PASSIVE:
                loc = page.locator(f"#decisions {sel}")
                if loc.count():
                    before = page.evaluate("rollingDoc.version")
                    loc.first.click()
                    page.wait_for_function(f"rollingDoc.version > {before}")
                    break
        time.sleep(0.1)
    other = 1 - first
    other_name = ["alice", "bob"][other]
    pages[other].wait_for_selector(".yourturn")
    pages[other].screenshot(path=str(shots / "community-table.png"), full_page=True)
    # the other's notification: the webhook and the email, each with the game's link
    link = f"/g/{gid}"
    deadline = time.time() + 20
    while time.time() < deadline and not (
            any(link in m["message"] and m["title"].startswith("Your turn") for m in hook.got)
            and any(f"{other_name}@example.org" in to and link in text for to, text in mail)):
        time.sleep(0.2)
    assert any(link in m["message"] and m["title"].startswith("Your turn") for m in hook.got), hook.got
    assert any(f"{other_name}@example.org" in to and link in text and "Your turn" in text for to, text in mail), mail
    for m in hook.got:  # nothing the rules hide: titles and links only
        assert "$" not in m["message"]
    pages[other].goto(base + "/account")
    pages[other].wait_for_selector(f"#games tr[data-game='{gid}']")
    assert "your turn" in pages[other].locator(f"#games tr[data-game='{gid}']").inner_text()
    pages[other].screenshot(path=str(shots / "community-account.png"), full_page=True)
    assert alice.errors == [] and bob.errors == []
