"""Game records, replay and determinism."""

import json

import pytest

from rolling.core.errors import RecordError
from rolling.core.record import GameRecord, load_record, replay, save_record
from rolling.core.rng import Rng
from rolling.games.stars import Config, new_game
from rolling.games.stars.actions import from_json


def random_game(seed, players=4, variants=()):
    rng = Rng(seed)
    cfg = Config(players=players, variants=variants)
    s = new_game(cfg, seed)
    actions = []
    while not s.is_over:
        seat = rng.choice(s.to_act)
        m = rng.choice(s.legal_moves(seat))
        a = m.action(rng.randint(m.lo, m.lo + 3) if m.field else None) if m.field is None or m.hi >= m.lo + 3 else m.action(m.lo)
        s.apply(a)
        actions.append(a.to_json())
    return s, GameRecord("stars", cfg.to_json(), seed, actions)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replaying_a_saved_record_gives_the_same_digest(tmp_path, seed):
    live, record = random_game(seed)
    path = tmp_path / "game.json"
    save_record(record, path)
    again = replay(load_record(path))
    assert again.digest() == live.digest()
    assert again.standings() == live.standings()


def test_same_seed_and_actions_same_game():
    a, ra = random_game(77)
    b, rb = random_game(77)
    assert ra.actions == rb.actions and a.digest() == b.digest()


def test_actions_round_trip_through_json():
    _, record = random_game(5)
    for data in record.actions:
        assert from_json(json.loads(json.dumps(data))).to_json() == data


def test_malformed_actions_are_refused():
    with pytest.raises(RecordError, match="unknown action type"):
        from_json({"type": "steal", "seat": 0})
    with pytest.raises(RecordError, match="integer"):
        from_json({"type": "bid", "seat": 0, "amount": "9"})


def test_save_is_atomic_and_leaves_no_temporary_files(tmp_path):
    _, record = random_game(9)
    path = tmp_path / "g.json"
    save_record(record, path)
    save_record(record, path)
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


def test_clone_is_independent():
    s, _ = random_game(3)
    t = new_game(Config(players=4), 3)
    u = t.clone()
    seat = t.to_act[0]
    t.apply(t.legal_actions(seat)[0])
    assert u.digest() != t.digest()
    assert u.digest() == new_game(Config(players=4), 3).digest()


def test_replay_command_refuses_an_illegal_record_in_one_line(tmp_path):
    import subprocess
    import sys

    bad = GameRecord("stars", Config(players=3).to_json(), 1, [{"type": "bid", "seat": 0, "amount": 3}])
    path = tmp_path / "bad.json"
    save_record(bad, path)
    proc = subprocess.run([sys.executable, "-m", "rolling.cli.main", "replay", str(path)], capture_output=True, text=True)
    assert proc.returncode == 2 and "action 0" in proc.stderr and "Traceback" not in proc.stderr


def test_replay_reports_the_first_problem_in_record_order():
    """issue 34: replay() reads every action before applying any (faster), yet reports what
    replay_steps reports: an illegal action before an unreadable one, and the other way round."""
    from rolling.core.record import replay_steps

    cfg = Config(players=3).to_json()
    illegal = {"type": "bid", "seat": 0, "amount": 3}  # no auction is running
    unreadable = {"type": "steal", "seat": 0}
    _, good = random_game(4, players=3)
    cases = [
        ([illegal, unreadable], "action 0 .* is illegal"),
        ([unreadable, illegal], "unknown action type"),
        (good.actions[:40] + [unreadable] + good.actions[40:], "unknown action type"),
        (good.actions[:40] + [illegal, unreadable], "action 40 .* is illegal"),
    ]
    for actions, message in cases:
        record = GameRecord("stars", cfg, 4, actions)
        with pytest.raises(RecordError, match=message) as fast:
            replay(record)
        with pytest.raises(RecordError) as stepped:
            for _ in replay_steps(record):
                pass
        assert str(fast.value) == str(stepped.value)
    assert replay(good).digest() == replay(GameRecord("stars", cfg, 4, good.actions)).digest()
