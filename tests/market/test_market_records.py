"""Determinism, records and replay for Rolling Market (DESIGN.md: the core API)."""

from __future__ import annotations

import json

import pytest

from rolling.core.errors import RecordError
from rolling.core.record import GameRecord, load_record, replay, save_record
from rolling.core.rng import Rng
from rolling.games import get_game
from rolling.games.market import (
    DONE,
    GAME,
    MarketConfig,
    action_from_json,
    buy,
    config_from_json,
    new_game,
    sell,
)


def play_random(seed: int, choice_seed: int):
    s = new_game(MarketConfig(), seed)
    rng = Rng(choice_seed)
    actions = []
    while not s.is_over:
        a = rng.choice(s.legal_actions(0))
        actions.append(a)
        s.apply(a)
    return s, actions


def test_same_seed_and_actions_same_game():
    """Randomness only from the state's Rng: the same seed and actions give the same digest."""
    for seed in (0, 1, 2**63 + 5):
        a, actions = play_random(seed, 99)
        b = new_game(None, seed)
        for act in actions:
            b.apply(act)
        assert a.digest() == b.digest()
        assert a.view() == b.view()


def test_different_seeds_differ():
    """Starting: the dice depend on the seed."""
    digests = {new_game(None, s).digest() for s in range(20)}
    assert len(digests) == 20


def test_registry_entry():
    """The game registry finds Rolling Market as "market"."""
    assert get_game("market") is GAME
    assert GAME.name == "market"


def test_record_save_load_replay_same_digest(tmp_path):
    """A saved record replays to the same state, bit for bit."""
    s, actions = play_random(12345, 7)
    rec = GameRecord("market", MarketConfig().to_json(), 12345, [a.to_json() for a in actions])
    path = tmp_path / "game.json"
    save_record(rec, path)
    loaded = load_record(path)
    again = replay(loaded)
    assert again.digest() == s.digest()
    assert again.standings() == s.standings()
    half = replay(loaded, upto=len(actions) // 2)
    assert not half.is_over or len(actions) // 2 == len(actions)


def test_replay_rejects_an_illegal_action():
    """replay names the illegal action and the rule it breaks."""
    rec = GameRecord("market", {}, 1, [{"type": "sell", "company": 0, "shares": 5}])
    with pytest.raises(RecordError, match="action 0"):
        replay(rec)


def test_action_json_round_trip():
    """Actions are small frozen records with a JSON form."""
    for a in (buy(2, 5), sell(0, 12), DONE):
        data = json.loads(json.dumps(a.to_json()))
        assert action_from_json(data) == a
    assert buy(1, 3).to_json() == {"type": "buy", "company": 1, "shares": 3}
    assert DONE.to_json() == {"type": "done"}


@pytest.mark.parametrize("bad", [
    {"type": "buy", "company": 7, "shares": 1},
    {"type": "buy", "company": 0},
    {"type": "sell", "company": "A", "shares": 1},
    {"type": "hold"},
    {"type": "done", "extra": 1},
    [1, 2],
])
def test_bad_action_json(bad):
    """Malformed actions are RecordErrors, never crashes."""
    with pytest.raises(RecordError):
        action_from_json(bad)


def test_config_json():
    """Rolling Market has no options; its config is {}."""
    assert config_from_json({}) == MarketConfig()
    assert config_from_json({"game": "market"}) == MarketConfig()
    with pytest.raises(RecordError):
        config_from_json({"players": 2})
    with pytest.raises(RecordError):
        config_from_json([])


def test_view_is_json_and_log_is_readable():
    """view() is JSON-able; enable_log() gives readable events from the first roll (the log holds
    events; log_lines() is their text)."""
    s, _ = play_random(5, 5)
    json.dumps(s.view())
    t = new_game(None, 5)
    t.enable_log()
    assert t.log_lines()[0].startswith("Rolling Market: companies")
    assert any(line.startswith("Roll 1:") for line in t.log_lines())
    t.apply(DONE)
    assert any("done" in line for line in t.log_lines())


def test_log_does_not_change_the_game():
    """Logging is only narration: the digest is the same with the log on or off."""
    a = new_game(None, 77)
    b = new_game(None, 77)
    b.enable_log()
    for _ in range(5):
        a.apply(DONE)
        b.apply(DONE)
    assert a.digest() == b.digest()
