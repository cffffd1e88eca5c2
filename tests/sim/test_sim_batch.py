"""Batches at scale: seeds from the run's seed and the game's index only, the same rows on one
process, on a pool of workers and on Ray, each game's columns, and failed games as rows."""

from __future__ import annotations

import pytest

from rolling.sim import RUNNERS, runner
from rolling.sim.batch import Batch, Chunker, run_batch
from rolling.sim.table import COMMON, columns, play_chunk, play_rows
from rolling.sim.tally import Tally

#: a quick seat list per game
SEATS = {
    "stars": ("heuristic", "random", "heuristic"),
    "freight": ("heuristic", "random", "random"),
    "market": ("heuristic",),
}
OPTIONS = {"stars": {}, "freight": {"map": "southern"}, "market": {}}


def rows_of(batch: Batch, **engine) -> list[dict]:
    rows: list[dict] = []
    outcome = run_batch(batch, rows.extend, **engine)
    assert not outcome.interrupted and outcome.played == batch.games
    return rows


@pytest.mark.parametrize("game", sorted(RUNNERS))
def test_game_seed_is_a_function_of_the_run_seed_and_the_index(game):
    run = runner(game)
    seeds = list(run.game_seeds(11, 6))
    assert [run.game_seed(11, i) for i in range(6)] == seeds
    assert len(set(seeds)) == 6 and run.game_seed(11, 0) != run.game_seed(12, 0)
    # a game played alone, or at the end of a chunk, gives the same rows
    alone = play_rows(game, SEATS[game], 4, 11, OPTIONS[game])
    _, chunk, _ = play_chunk(game, SEATS[game], 11, OPTIONS[game], 2, 5)
    assert chunk[-len(SEATS[game]):] == alone
    assert alone[0]["seed"] == seeds[4]


@pytest.mark.parametrize("game", sorted(RUNNERS))
def test_one_process_and_two_workers_give_the_same_rows(game):
    batch = Batch(game, SEATS[game], 5 if game != "market" else 40, 3, OPTIONS[game])
    here = rows_of(batch, workers=1)
    pool = rows_of(batch, workers=2)
    assert here == pool
    assert [r["index"] for r in here] == [i for i in range(batch.games) for _ in SEATS[game]]


def test_ray_gives_the_same_rows_as_one_process():
    pytest.importorskip("ray")
    batch = Batch("stars", SEATS["stars"], 4, 5, {})
    assert rows_of(batch, ray=True, ray_address="local") == rows_of(batch, workers=1)


def test_chunks_cover_every_game_once_in_order():
    chunker = Chunker(100, 2)
    got = []
    while (chunk := chunker.take()) is not None:
        got.append(chunk)
        chunker.observe(chunk[1] - chunk[0], 0.001 * (chunk[1] - chunk[0]))
    assert got[0] == (0, 1)
    assert [i for a, b in got for i in range(a, b)] == list(range(100))
    assert max(b - a for a, b in got) > 1  # fast games come in bigger chunks


@pytest.mark.parametrize("game", sorted(RUNNERS))
def test_rows_have_the_game_columns(game):
    rows = play_rows(game, SEATS[game], 1, 2, OPTIONS[game])
    names = [name for name, _ in columns(game)]
    assert names[: len(COMMON)] == [name for name, _ in COMMON]
    for j, row in enumerate(rows):
        assert list(row) == names
        assert row["entry"] == j and row["bot"] == SEATS[game][j] and row["error"] == ""
        assert row["win"] == (row["rank"] == 1) and row["turns"] > 0 and row["actions"] > 0
    assert sorted(r["position"] for r in rows) == list(range(1, len(rows) + 1))


def test_stars_rows_say_who_formed_what_and_the_share_prices():
    rows = play_rows("stars", ("heuristic",) * 4, 0, 1, {})
    formed = rows[0]["corporations"].split()
    assert formed, "heuristic bots form corporations"
    assert sorted(sym for r in rows for sym in r["formed"].split()) == sorted(formed)
    turns = rows[0]["turns"]
    for sym in ("PR", "DA", "S", "VM", "SI", "SM", "JS", "OS"):
        path = rows[0][f"path_{sym}"].split()
        assert len(path) == turns
        final = rows[0][f"price_{sym}"]
        assert final is None and path[-1] == "-" or str(final) == path[-1]
        assert (sym in formed) == any(p != "-" for p in path)
    assert rows[0]["end_reason"]
    for r in rows:  # a president holds shares: each seat presides over corporations it can
        assert set(r["presides"].split()) <= set(formed)


def test_freight_and_market_facts():
    for r in play_rows("freight", ("heuristic",) * 3, 0, 1, {"map": "west-coast"}):
        assert r["map"] == "west-coast" and 0 < r["contracts"] <= r["contracts_taken"]
        assert r["routes"] >= 0 and r["stations"] >= 0
    (m,) = play_rows("market", ("heuristic",), 0, 1, {})
    assert m["cash"] == m["score"] and 0 <= m["closed_turns"] < m["turns"]


def test_a_game_that_raises_is_a_row_and_the_batch_goes_on(monkeypatch):
    import rolling.sim.market as market

    deal = market.deal

    def broken(players, game_seed, index):
        if index == 1:
            raise RuntimeError("the dice rolled off the table")
        return deal(players, game_seed, index)

    monkeypatch.setattr(market, "deal", broken)
    batch = Batch("market", ("heuristic",), 3, 0, {})
    rows = rows_of(batch, workers=1)
    assert [r["index"] for r in rows] == [0, 1, 2]
    bad = rows[1]
    assert bad["error"].startswith("RuntimeError: the dice rolled off the table (at test_sim_batch.py:")
    assert bad["seed"] == market.game_seed(0, 1) and bad["score"] is None and bad["win"] is None
    assert rows[0]["error"] == rows[2]["error"] == ""
    tally = Tally("market", ["heuristic"], 0)
    tally.add(rows)
    summary = tally.summary()
    assert summary["games"] == 2 and summary["failed"] == 1
    assert tally.first_error[:2] == (1, market.game_seed(0, 1))


def test_bad_workers():
    with pytest.raises(ValueError, match="workers must be 1 or more"):
        run_batch(Batch("market", ("heuristic",), 2, 0), lambda rows: None, workers=0)


def test_scaling_measures_every_engine_on_the_same_games():
    from rolling.sim.scaling import measure_scaling

    res = measure_scaling(games=2, workers=2, ray=False)
    assert res["games"] == 2 and res["workers"] == 2 and res["ray"] is None
    for line in (res["one_worker"], res["all_workers"]):
        assert line["games_per_s"] > 0 and line["games_per_cpu_s"] > 0 and line["load_before"] >= 0
    assert res["speedup"] == round(res["all_workers"]["games_per_s"] / res["one_worker"]["games_per_s"], 2)
    with pytest.raises(ValueError, match="at least one game"):
        measure_scaling(games=0)
