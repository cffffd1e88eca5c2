"""The analysis job on the task queue (issue 32, PostgreSQL only): ``GET /api/games/{id}/analysis``
defers ``rolling.analyze`` and the worker embedded in the server runs it."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from .conftest import TEST_DB, fresh_db_url

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "18xx"

pytestmark = pytest.mark.skipif(not TEST_DB, reason="the task queue needs PostgreSQL (ROLLING_TEST_DB)")


def test_the_embedded_worker_analyses_a_finished_game(tmp_path):
    from fastapi.testclient import TestClient

    from rolling.web.app import create_app

    app = create_app(fresh_db_url(tmp_path), bot_pace=0, queue="embedded")
    with TestClient(app) as client:
        gid = client.post("/api/import", json=json.loads((FIXTURES / "rss_1001.json").read_text())).json()["id"]
        assert client.get(f"/api/games/{gid}/analysis").status_code == 202
        deadline = time.time() + 120
        while True:
            r = client.get(f"/api/games/{gid}/analysis")
            if r.status_code == 200 or time.time() > deadline:
                break
            time.sleep(0.5)
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["status"] == "done" and body["analysis"]["game"] == "stars"
