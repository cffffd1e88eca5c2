"""The shipped distribution of the bots' Rolling Market scores: the games of ``rolling simulate
market``, rebuilt by ``python -m rolling.sim.market_scores``, and a score's place in it."""

from __future__ import annotations

import json

import pytest

from rolling.sim import market_scores as M
from rolling.sim import simulate


def test_the_shipped_file_is_ten_thousand_games_of_each_bot():
    data = M.load()
    assert data["games"] == M.GAMES == 10_000 and data["seed"] == M.SEED
    assert data["command"] == "python -m rolling.sim.market_scores --games 10000 --seed 0"
    assert set(data["bots"]) == set(M.BOTS)
    for d in data["bots"].values():
        hist = d["histogram"]
        assert sum(n for _, n in hist) == d["games"] == 10_000
        assert [s for s, _ in hist] == sorted({s for s, _ in hist})
        assert d["min"] == hist[0][0] and d["max"] == hist[-1][0]
        assert abs(sum(s * n for s, n in hist) / d["games"] - d["mean"]) < 1e-3
        assert d["p5"] <= d["p25"] <= d["median"] <= d["p75"] <= d["p95"]
    # the strongest bot scores far above the random one
    assert data["bots"]["heuristic"]["median"] > 5 * data["bots"]["random"]["median"]


def test_rebuilt_runs_are_the_games_of_rolling_simulate(tmp_path):
    out = tmp_path / "scores.json"
    assert M.main(["--games", "150", "--seed", "4", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["command"] == "python -m rolling.sim.market_scores --games 150 --seed 4"
    for bot in M.BOTS:
        sim = simulate("market", bot, 150, seed=4)
        d = data["bots"][bot]
        assert (d["mean"], d["median"], d["p5"], d["p95"]) == (sim["mean"], sim["median"], sim["p5"], sim["p95"])
    assert M.build(150, 4) == data  # deterministic


def test_a_bad_run_is_one_line_and_no_file(tmp_path, capsys):
    out = tmp_path / "scores.json"
    assert M.main(["--games", "0", "--out", str(out)]) == 2
    assert "at least one game" in capsys.readouterr().err and not out.exists()


def test_standing_is_the_mid_rank_percentile():
    dist = {"games": 10, "histogram": [[10, 2], [20, 4], [30, 4]]}
    assert M.standing(20, dist) == {"below": 2, "equal": 4, "above": 4, "percentile": 40.0}
    assert M.standing(5, dist)["percentile"] == 0.0
    assert M.standing(31, dist)["percentile"] == 100.0
    assert M.standing(25, dist) == {"below": 6, "equal": 0, "above": 4, "percentile": 60.0}


@pytest.mark.parametrize("bot", M.BOTS)
def test_the_shipped_median_stands_near_fifty(bot):
    d = M.load()["bots"][bot]
    assert 35 <= M.standing(round(d["median"]), d)["percentile"] <= 65
