"""The guard of notifications against DNS rebinding (issue 31: "a webhook to a private or loopback
address is refused"): a name is resolved once per delivery, every address checked, and the
connection made to the address checked, so a name that answers a public address to the check and
a loopback one a moment later never gets a request into the server's own network."""

from __future__ import annotations

import socket
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread
from types import SimpleNamespace

import pytest

from rolling.web.accounts import Accounts
from rolling.web.db import open_database
from rolling.web.notify import Notifier, guard
from rolling.web.settings import Settings

PUBLIC = "93.184.216.34"  # a public address (answered by the stub; no connection is made to it)


@pytest.fixture
def local_hook():
    """A webhook server on the loopback address: the requests it got."""
    hits: list[str] = []

    class H(BaseHTTPRequestHandler):
        def do_POST(self):
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), H)
    Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1], hits
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def rebinding(monkeypatch):
    """A resolver stub: ``rebind.example`` answers a public address first and the loopback address
    every time after; the addresses connected to (the public one refuses: no network here)."""
    real_resolve, real_connect = socket.getaddrinfo, socket.socket.connect
    asked: list[str] = []
    connected: list[str] = []

    def resolve(host, port, family=0, type=0, proto=0, flags=0):
        if host == "rebind.example":
            asked.append(host)
            ip = PUBLIC if len(asked) == 1 else "127.0.0.1"
            return real_resolve(ip, port, family, type, proto, flags | socket.AI_NUMERICHOST)
        return real_resolve(host, port, family, type, proto, flags)

    def connect(self, address):
        connected.append(address[0])
        if address[0] == PUBLIC:
            raise ConnectionRefusedError("no network in the test")
        return real_connect(self, address)

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    monkeypatch.setattr(socket.socket, "connect", connect)
    return asked, connected


def test_a_webhook_name_rebinding_to_loopback_after_the_check_gets_nothing(db_url, local_hook, rebinding):
    """issue 31 (the guard's DNS-rebinding gap): the check sees the public address, the delivery
    connects to that address and to no other; the loopback server gets no request."""
    port, hits = local_hook
    asked, connected = rebinding
    engine = open_database(db_url)
    settings = Settings(notify_allow_private=False)
    notifier = Notifier(engine, settings, Accounts(engine, settings))
    account = SimpleNamespace(notify={"urls": [f"json://rebind.example:{port}/hook?cto=2&rto=2"]},
                              email="a@example.org")
    took, errors = notifier._send(account, "Your turn", "a game waits for you", "http://x/g/1", set())
    assert hits == []  # nothing reached the server's own network
    assert took == set() and len(errors) == 1  # the public address refused: tried again later
    assert connected and set(connected) == {PUBLIC}
    assert asked == ["rebind.example"]  # resolved once: apprise's own resolution got the checked address
    engine.dispose()


def test_inside_a_delivery_a_new_name_is_checked_and_a_checked_one_stays(rebinding):
    """issue 31: while a delivery runs, a name first met then (a redirect) is checked like the
    URL's own, and a name checked keeps its checked addresses; other threads resolve as ever."""
    with guard.pinned():
        guard.public_host("rebind.example", allow_private=False)
        again = {info[4][0] for info in socket.getaddrinfo("rebind.example", 80, proto=socket.IPPROTO_TCP)}
        assert again == {PUBLIC}
        with pytest.raises(socket.gaierror):
            socket.getaddrinfo("127.0.0.1", 80)
        answers: list = []
        t = Thread(target=lambda: answers.append(socket.getaddrinfo("127.0.0.1", 80)))
        t.start()
        t.join(5)
        assert answers and answers[0][0][4][0] == "127.0.0.1"
    assert socket.getaddrinfo.__name__ == "resolve"  # (the stub again: the pin is gone)
