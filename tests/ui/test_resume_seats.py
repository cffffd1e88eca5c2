"""Issue 28 item 8: ``--resume`` restores every seat exactly, budgets included, in every game.

The seats are saved in the record (``meta["seats"]``, each in the seat parser's canonical words)
and read back with the one seat parser (:func:`rolling.bots.seats.parse_seats`); a saved seat
that cannot be read is a one-line error, never a silent fall back to the default seats.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import rolling
from rolling.core.errors import RecordError
from rolling.core.record import load_record, save_record
from rolling.ui.freight import FreightScreen
from rolling.ui.market import MarketScreen
from rolling.ui.stars import StarsScreen
from rolling.ui.terminal import PlayOptions, open_session

SRC = str(Path(rolling.__file__).resolve().parents[1])


def stars_config(seats, names):
    from rolling.games.stars import Config

    return Config(players=len(seats), names=tuple(names)).to_json()


def freight_config(seats, names):
    from rolling.games.freight import config_from_json

    return config_from_json({"map": "west-coast", "players": len(seats)}).to_json()


CASES = [
    (StarsScreen, stars_config, "bot:search:0.05s,search:200,heuristic,random",
     ["search:0.05s", "search:200", "heuristic", "random"]),
    (StarsScreen, stars_config, "human,search:0.05s,bot:random", ["human", "search:0.05s", "random"]),
    (FreightScreen, freight_config, "search:0.05s,heuristic,random", ["search:0.05s", "heuristic", "random"]),
    (FreightScreen, freight_config, "bot:search:300,human", ["search:300", "human"]),
    (MarketScreen, lambda seats, names: {}, "heuristic", ["heuristic"]),
    (MarketScreen, lambda seats, names: {}, "random", ["random"]),
]


@pytest.mark.parametrize("screen, config, words, parsed", CASES)
def test_resume_keeps_every_seat_budgets_included(tmp_path, screen, config, words, parsed):
    """A new game saved with these seats comes back with the same seats, not the defaults."""
    path = tmp_path / "g.json"
    first = open_session(screen(), PlayOptions(seats=words, seed=3, save=str(path)), config, 3)
    assert first.seats == parsed
    resumed = open_session(screen(), PlayOptions(resume=str(path)), config, 3)
    assert resumed.seats == parsed
    assert load_record(path).meta["seats"] == parsed
    assert sorted(resumed.bots) == [k for k, s in enumerate(parsed) if s != "human"]


def test_resume_with_an_unreadable_saved_seat_is_a_one_line_error(tmp_path):
    """A saved seat the parser cannot read is said, not replaced by the default seats."""
    path = tmp_path / "g.json"
    open_session(StarsScreen(), PlayOptions(seats="heuristic,random,random", seed=3, save=str(path)), stars_config, 3)
    record = load_record(path)
    record.meta["seats"] = ["heuristic", "alphazero", "random"]
    save_record(record, path)
    with pytest.raises(RecordError, match="alphazero"):
        open_session(StarsScreen(), PlayOptions(resume=str(path)), stars_config, 3)
    record.meta["seats"] = ["heuristic", "random"]
    save_record(record, path)
    with pytest.raises(RecordError, match="2 seats for 3 players"):
        open_session(StarsScreen(), PlayOptions(resume=str(path)), stars_config, 3)


def rolling_cli(*args, cwd):
    env = {"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin", "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "rolling.cli.main", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_bots_only_stars_game_saved_and_resumed_with_q_keeps_its_seat_words(tmp_path):
    """Issue 28 acceptance: a bots-only game saved with --save, cut short (the record's last
    actions dropped, as an interrupted game leaves it) and resumed with ``rolling play stars
    --resume FILE -q`` is played to the end by the same seats, budgets included."""
    path = tmp_path / "g.json"
    seats = "bot:search:20,search:0.01s,heuristic,random"
    done = rolling_cli("play", "stars", "--seats", seats, "--seed", "4", "--save", str(path), "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    record = load_record(path)
    want = ["search:20", "search:0.01s", "heuristic", "random"]
    assert record.meta["seats"] == want
    record.actions = record.actions[: len(record.actions) // 2]
    save_record(record, path)
    again = rolling_cli("play", "stars", "--resume", str(path), "-q", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "Final standings" in again.stdout and "Traceback" not in again.stderr
    after = load_record(path)
    assert after.meta["seats"] == want and len(after.actions) > len(record.actions)
