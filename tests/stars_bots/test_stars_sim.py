"""Batch simulation of Rolling Stock Stars and the ``rolling simulate stars`` command."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rolling.games.stars import Config, new_game
from rolling.sim import play_one, simulate
from rolling.sim.stars import seat_assignment

CMD = [sys.executable, "-m", "rolling.cli.main"]
#: what ``rolling simulate GAME --json`` reports for each seat, in every game
SEAT_FIELDS = {"bot", "win_rate", "win_rate_low", "win_rate_high", "wins", "mean_rank", "mean_score",
               "mean_score_low", "mean_score_high", "median_score", "p5_score", "p95_score"}


def run(args, timeout=120):
    return subprocess.run(CMD + args, capture_output=True, text=True, timeout=timeout)


def test_seats_rotate_through_player_order_positions():
    labels = ["a", "b", "c", "d"]
    positions = {j: [] for j in range(4)}
    for g in range(8):
        s = new_game(Config(players=4), 50 + g)
        assign = seat_assignment(s, labels, g)
        assert sorted(assign.values()) == [0, 1, 2, 3]
        for seat, j in assign.items():
            positions[j].append(s.order.index(seat))
    for j in range(4):
        assert sorted(positions[j]) == [0, 0, 1, 1, 2, 2, 3, 3]


def test_simulate_counts_one_winner_per_game_and_is_deterministic():
    labels = ["heuristic", "random", "random"]
    a = simulate("stars", labels, 6, seed=4)
    b = simulate("stars", labels, 6, seed=4)
    assert a == b
    assert a["games"] == 6 and [row["bot"] for row in a["seats"]] == labels
    assert sum(row["wins"] for row in a["seats"]) == 6
    assert abs(sum(row["win_rate"] for row in a["seats"]) - 1) < 1e-9


def test_play_one_rows_follow_the_labels():
    rows, actions = play_one("stars", ["random", "random", "heuristic"], 9, 1)
    assert actions > 0
    assert sorted(r["rank"] for r in rows) == [1, 2, 3]
    assert len({r["seat"] for r in rows}) == 3


def test_simulate_rejects_bad_arguments():
    with pytest.raises(ValueError, match="2 to 6"):
        simulate("stars", ["random"], 2)
    with pytest.raises(ValueError):
        simulate("stars", ["random"] * 7, 2)
    with pytest.raises(ValueError):
        simulate("stars", ["random"] * 4, 0)
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        simulate("stars", ["random", "random", "genius"], 1)
    with pytest.raises(ValueError, match="only bots"):
        simulate("stars", ["random", "human"], 1)


def test_cli_json_is_one_object_in_seat_order():
    r = run(["simulate", "stars", "--games", "4", "--seats", "heuristic,random,random,random", "--seed", "3", "--json"])
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert set(data) == {"game", "version", "games", "failed", "seed", "actions", "seats"} and data["games"] == 4
    assert data["failed"] == 0
    assert [row["bot"] for row in data["seats"]] == ["heuristic", "random", "random", "random"]
    for row in data["seats"]:
        assert set(row) == SEAT_FIELDS
        assert 0 <= row["win_rate"] <= 1
    assert abs(sum(row["win_rate"] for row in data["seats"]) - 1) < 1e-9


def test_cli_text_and_errors():
    r = run(["simulate", "stars", "--games", "3", "--seats", "random,heuristic,random"])
    assert r.returncode == 0, r.stderr
    assert "win rate" in r.stdout and "heuristic" in r.stdout and "mean score" in r.stdout
    r = run(["simulate", "stars", "--games", "2", "--seats", "random,genius,random"])
    assert r.returncode == 2 and "unknown bot" in r.stderr and "Traceback" not in r.stderr
    r = run(["simulate", "stars", "--games", "2", "--seats", "random"])
    assert r.returncode == 2 and "2 to 6" in r.stderr
    r = run(["simulate", "stars", "--games", "0", "--seats", "random,random,random"])
    assert r.returncode == 2 and "--games" in r.stderr


def test_two_player_simulation():
    """001: Rolling Stock Stars is for two to six players, so two seats simulate without any option."""
    stats = simulate("stars", ["heuristic", "random"], 4, seed=7)
    assert stats["games"] == 4 and len(stats["seats"]) == 2
    assert stats["seats"][0]["wins"] + stats["seats"][1]["wins"] == 4
    r = run(["simulate", "stars", "--games", "2", "--seats", "heuristic,heuristic", "--json"])
    assert r.returncode == 0, r.stderr
    assert [row["bot"] for row in json.loads(r.stdout)["seats"]] == ["heuristic", "heuristic"]
