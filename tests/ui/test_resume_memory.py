"""A game resumed from its file plays its bots as the game played straight through (issue 30's rule
"Deterministic"): the heuristic Stars bot's memory of the proposals its seat made this phase is
rebuilt from the record (:meth:`rolling.ui.session.PlaySession.decision_bot`), not started afresh."""

from __future__ import annotations

from rolling.core.record import GameRecord
from rolling.ui.session import PlaySession

SEATS = ["heuristic"] * 4
#: seed 1: the first proposal rejected is action 58 (turn 2, phase 3)
SEED = 1
ACTIONS = 250


def _record() -> GameRecord:
    return GameRecord("stars", {"players": 4}, SEED, [], {})


def _play(session: PlaySession) -> None:
    seat = session.next_seat()
    session.apply(session.decision_bot(seat).choose(session.state, seat))


def test_a_resumed_game_plays_the_bots_of_the_game_played_through():
    straight = PlaySession(_record(), SEATS, None)
    while len(straight.record.actions) < ACTIONS:
        _play(straight)
    assert any(a.get("type") == "respond" and a.get("accept") is False for a in straight.record.actions)
    record = _record()
    while len(record.actions) < ACTIONS:
        session = PlaySession(record, SEATS, None)  # rolling play --resume: fresh bots every time
        _play(session)
        record = session.record
    assert record.actions == straight.record.actions
