"""A seat token is a seat's key: the server's access log (``rolling --log-level info serve``) names
every request, but never the tokens in its query string (issue 29: hidden information in no log line)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

import rolling
from rolling.web.tokens import redact_tokens

from .test_kill import free_port


def test_redact_tokens_keeps_the_rest_of_the_path():
    assert redact_tokens("/api/games/abc?t=tok1,tok2") == "/api/games/abc?t=***"
    assert redact_tokens("/g/abc?x=1&t=tok&y=2") == "/g/abc?x=1&t=***&y=2"
    assert redact_tokens("/api/games/abc?at=1") == "/api/games/abc?at=1"


def test_the_access_log_never_shows_a_seat_token(tmp_path):
    port = free_port()
    log = tmp_path / "server.log"
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(rolling.__file__).resolve().parents[1]) + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, "-m", "rolling.cli.main", "--log-level", "info", "serve", "--port", str(port),
           "--db", f"sqlite:///{tmp_path / 'g.db'}"]
    proc = subprocess.Popen(cmd, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.time() + 30
        while True:
            try:
                httpx.get(f"{base}/healthz", timeout=1)
                break
            except httpx.HTTPError:
                assert time.time() < deadline and proc.poll() is None, log.read_text()
                time.sleep(0.1)
        made = httpx.post(f"{base}/api/games", json={"game": "market", "seats": ["human"]}, timeout=10).json()
        token = made["seats"][0]["token"] if "seats" in made else made["tokens"][0]
        httpx.get(f"{base}/api/games/{made['id']}?t={token}", timeout=10)
        httpx.get(f"{base}/g/{made['id']}?t={token}", timeout=10)
        time.sleep(0.5)
    finally:
        proc.terminate()
        proc.wait(10)
    text = log.read_text()
    assert f"/api/games/{made['id']}?t=***" in text  # the request is logged...
    assert token not in text  # ...its token is not
