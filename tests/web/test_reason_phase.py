"""Issue 29: a bot's reason shows under the phase it belongs to: in the log, right under the lines
of the bot's move and before the heading of any phase that move began."""

from __future__ import annotations

import random

from rolling.core.record import GameRecord, new_state
from rolling.games import get_game

from .conftest import act, doc_of, make_game, pick, tok


def test_a_bots_reason_sits_in_the_phase_of_its_move_issue29(client):
    g = make_game(client, ["human", "heuristic", "heuristic"], seed=5)
    gid = g["id"]
    rng = random.Random(3)
    for _ in range(12):
        d = doc_of(client, gid, tok(g, 0))
        if d["over"]:
            break
        assert act(client, g, 0, d, action=pick(d, 0, rng)).status_code == 200
    doc = doc_of(client, gid, tok(g, 0))
    hist = client.get(f"/api/games/{gid}/history").json()["actions"]
    spec = get_game("stars")
    state = new_state(GameRecord("stars", {"players": 3, "names": [s["name"] for s in doc["seats"]]}, 5, []))
    phase_at = {}
    for n, a in enumerate(hist, start=1):
        phase_at[n] = (state.turn, state.phase)
        state.apply(spec.action_from_json(a["action"]))
    log = doc["log"]
    moved_on = 0
    for r in doc["reasons"]:
        turn, phase = phase_at[r["n"]]
        heading = next(line for line in reversed(log[:r["line"]]) if line.startswith("-- Turn"))
        assert heading.startswith(f"-- Turn {turn}, phase {phase}"), (r, heading)
        # the move's lines are right above it, not a heading
        assert not log[r["line"] - 1].startswith("-- Turn"), r
        after = phase_at.get(r["n"] + 1)
        moved_on += after is not None and after != (turn, phase)
    assert moved_on > 0  # some of these moves ended a phase: the case that was wrong
