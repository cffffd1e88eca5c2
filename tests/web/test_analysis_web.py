"""``GET /api/games/{id}/analysis`` (issue 32): a finished game's analysis, computed once by a
background job and stored; refused while the game runs."""

from __future__ import annotations

import json
from pathlib import Path

from rolling.web.analysis import queued, run_job
from rolling.web.models import AnalysisRow

from .conftest import make_game

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "18xx"


def test_analysis_of_an_imported_game_is_computed_once(client):
    """issue 32: an 18xx.games export uploaded to the watch page is analysed by the job, stored,
    and served from the table afterwards."""
    r = client.post("/api/import", json=json.loads((FIXTURES / "rss_1001.json").read_text()))
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    first = client.get(f"/api/games/{gid}/analysis")
    assert first.status_code == 202 and first.json() == {"status": "queued"}
    engine = client.app.state.engine
    assert queued(engine) == [gid]
    assert run_job(engine, gid) == "done"
    assert queued(engine) == []
    done = client.get(f"/api/games/{gid}/analysis")
    assert done.status_code == 200
    body = done.json()
    assert body["status"] == "done"
    a = body["analysis"]
    assert a["game"] == "stars" and len(a["names"]) == 2 and a["decisions"]
    assert {"n", "seat", "action", "text", "win_before", "win_after", "best", "best_win", "loss", "label"} <= set(a["decisions"][0])
    from sqlalchemy.orm import Session

    with Session(engine) as db:
        stamp = db.get(AnalysisRow, gid).updated
    assert run_job(engine, gid) == "done"  # computed once: a second job finds it done
    assert client.get(f"/api/games/{gid}/analysis").json() == body
    with Session(engine) as db:
        assert db.get(AnalysisRow, gid).updated == stamp


def test_analysis_waits_for_the_end_of_the_game(client):
    """issue 32: a running game has no analysis yet (409); an unknown game is 404."""
    g = make_game(client, ["human", "human"])
    r = client.get(f"/api/games/{g['id']}/analysis")
    assert r.status_code == 409 and r.json()["error"] == "GameRunning"
    assert client.get("/api/games/nosuchgame/analysis").status_code == 404


def test_deleting_a_game_deletes_its_analysis(client):
    g = make_game(client, ["heuristic", "heuristic"], seed=1)
    assert client.get(f"/api/games/{g['id']}/analysis").status_code == 202
    r = client.delete(f"/api/games/{g['id']}", headers={"X-Creator-Token": g["creator_token"]})
    assert r.status_code in (200, 204), r.text
    from sqlalchemy.orm import Session

    with Session(client.app.state.engine) as db:
        assert db.get(AnalysisRow, g["id"]) is None
