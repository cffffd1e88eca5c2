"""What the browser tests share: a server in its own process, Debian's Chromium through Playwright,
the screenshot folder, and helpers that act as a person at the table.

The fixtures ``server``, ``browser`` and ``shots`` are module-scoped (one server per test module);
``conftest.py`` makes them available to every test module; the helpers are imported from here. No browser is ever downloaded.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .conftest import fresh_db_url

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: the mark of every browser test module: ``pytestmark = needs_chromium``
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (Debian: apt-get install chromium)")

ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "18xx"
#: the passive player's preferences, first match clicked: reject, leave, pass, done, decline, no
#: issue, the smallest dividend, the lowest value of a ranged choice, anything
PASSIVE = [
    "button.act[data-type=respond][data-args*='\"accept\":false']",
    "button.act[data-type=respond_deal][data-args*='\"accept\":false']",
    "button.act[data-type=leave_auction]",
    "button.act[data-type=pass]",
    "button.act[data-type=done]",
    "button.act[data-type=decline_ipo]",
    "button.act[data-type=issue][data-args*='\"issue\":false']",
    "button.act.amount",
    ".dec.ranged button.act",
    "button.act",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_server(tmp: Path, pace: float = 0):
    """Run a server in its own process over a fresh database in ``tmp``, its bots moving ``pace``
    seconds after their turn comes; yields its base URL, stops it afterwards (a generator for
    module-scoped fixtures)."""
    import rolling

    db = fresh_db_url(tmp)
    port = _free_port()
    env = dict(os.environ)
    src = str(Path(rolling.__file__).resolve().parents[1])
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    code = (
        "import sys, uvicorn; from rolling.web.app import create_app; "
        "uvicorn.run(create_app(sys.argv[1], bot_pace=float(sys.argv[3])), host='127.0.0.1', "
        "port=int(sys.argv[2]), log_level='warning')"
    )
    log = open(tmp / "server.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-c", code, db, str(port), str(pace)], env=env, stdout=log,
                            stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while True:
        try:
            with urllib.request.urlopen(base + "/api/games/options", timeout=2):
                break
        except OSError:
            if proc.poll() is not None or time.time() > deadline:
                proc.kill()
                log.close()
                pytest.fail("the server did not start:\n" + (tmp / "server.log").read_text())
            time.sleep(0.2)
    yield base
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The base URL of a server running in its own process (bots at pace 0)."""
    yield from run_server(tmp_path_factory.mktemp("web"))


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    """Where screenshots go."""
    where = os.environ.get("ROLLING_SCREENSHOTS")
    d = (ROOT / where) if where and not os.path.isabs(where) else Path(where) if where else tmp_path_factory.mktemp("screens")
    d.mkdir(parents=True, exist_ok=True)
    return d


def post(base: str, path: str, body: dict) -> dict:
    """POST JSON to the API; the answer."""
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def new_page(browser, width=1280, height=800, csp=False):
    """A page in a fresh context (its own localStorage) that fails the test on a script error.

    ``csp``: keep the site's Content-Security-Policy, which forbids the string predicates of
    ``page.wait_for_function`` (Playwright evaluates them with ``eval``); by default the tests'
    own scripts bypass it (tests/web/test_browser_bounds.py checks the pages under it)."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=not csp)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    # a full-page screenshot on a busy 2-core CI machine once took over 15 s
    page.set_default_timeout(30000)
    return page


def version(page) -> int:
    """The version of the game document the page shows."""
    return int(page.evaluate("document.body.dataset.version || -1"))


def wait_drawn(page):
    """Until the page has drawn a game document."""
    page.wait_for_function("document.body.dataset.version !== undefined")


def assert_clean(page):
    """No script error so far, and no value the page failed to fill in."""
    assert page.errors == []
    text = page.locator("body").inner_text()
    for word in ("undefined", "null", "NaN", "[object Object]"):
        assert word not in text, f"{word!r} on the page"


def click_passive(page) -> bool:
    """Click the passive player's choice, if the page offers any; wait for the answer."""
    before = version(page)
    for sel in PASSIVE:
        loc = page.locator(f"#decisions {sel}")
        if loc.count():
            loc.first.click()
            page.wait_for_function(
                f"document.body.dataset.version !== '{before}' || !document.querySelector('#error').hidden"
            )
            assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
            return True
    return False
