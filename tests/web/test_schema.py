"""schemathesis over the OpenAPI schema of the API: no request it makes gets a server error."""

from __future__ import annotations

import zlib

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from .conftest import fresh_db_url

#: examples per operation (the whole run stays well under a minute)
EXAMPLES = 40


def test_no_server_error(tmp_path):
    from fastapi.testclient import TestClient

    from rolling.web.app import create_app

    app = create_app(fresh_db_url(tmp_path), bot_pace=0, start_workers=False)
    with TestClient(app) as c:
        # games to find, so that not every generated id is unknown
        g = c.post("/api/games", json={"game": "stars", "config": {"players": 3}, "seats": ["human", "heuristic", "human"]}).json()
        done = c.post("/api/games", json={"game": "stars", "config": {"players": 2}, "seats": ["heuristic", "heuristic"], "seed": 1}).json()
    ids = [g["id"], done["id"]]
    tokens = ",".join(s["token"] for s in g["seats"] if s["token"])
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    # (the accounts' routes have their own, shorter run: tests/web/test_accounts.py::test_community_routes_no_server_error)
    operations = [result.ok() for result in schema.get_all_operations() if "community" not in (result.ok().tags or [])]
    assert len(operations) >= 12
    for op in operations:

        @given(case=op.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
                  database=None)
        def no_server_error(case):
            # most generated ids name no game: send a known one most of the time, with its tokens
            if case.path_parameters and "gid" in case.path_parameters:
                k = zlib.crc32(repr((case.body, case.query)).encode()) % 4
                if k < 3:
                    case.path_parameters["gid"] = ids[k % 2]
                    case.headers = {**(case.headers or {}), "X-Seat-Tokens": tokens}
            response = case.call()
            case.validate_response(response, checks=[not_a_server_error])

        no_server_error()
