"""Results files: CSV and Parquet by extension, read back as the same typed table."""

from __future__ import annotations

import pandas as pd
import pytest

from rolling.sim.files import ROW_GROUP, open_results, read_results, results_format
from rolling.sim.table import columns, play_rows


def sample_rows(game: str, labels, options) -> list[dict]:
    rows = play_rows(game, labels, 0, 7, options) + play_rows(game, labels, 1, 7, options)
    # a failed game: only its index, seed, entries and error
    failed = [{k: v for k, v in row.items() if k in ("game", "index", "seed", "entry", "bot", "players")}
              for row in play_rows(game, labels, 2, 7, options)]
    return rows + [{**row, "error": "RuntimeError: boom (at x.py:1)"} for row in failed]


@pytest.mark.parametrize("game,labels,options", [
    ("stars", ("heuristic", "random", "random"), {}),
    ("freight", ("heuristic", "random"), {"map": "west-coast"}),
    ("market", ("heuristic",), {}),
])
def test_csv_and_parquet_read_back_the_same_table(tmp_path, game, labels, options):
    rows = sample_rows(game, labels, options)
    frames = []
    for name in ("r.csv", "r.parquet"):
        with open_results(tmp_path / name, columns(game)) as out:
            out.write(rows[:2])
            out.write(rows[2:])
        frames.append(read_results(tmp_path / name))
    csv, parquet = frames
    pd.testing.assert_frame_equal(csv, parquet)
    assert list(csv.columns) == [name for name, _ in columns(game)]
    assert len(csv) == len(rows)
    assert csv["seed"].dtype == "UInt64" and csv["score"].dtype == "Int64" and csv["win"].dtype == "boolean"
    assert list(csv["seed"]) == [row["seed"] for row in rows]  # 64-bit market seeds survive
    ok = csv[csv["error"] == ""]
    assert list(ok["score"]) == [row["score"] for row in rows if not row.get("error")]
    bad = csv[csv["error"] != ""]
    assert len(bad) == len(labels) and bad["score"].isna().all() and bad["win"].isna().all()


def test_extension_decides_the_format(tmp_path):
    assert results_format("a.CSV") == "csv" and results_format("b.parquet") == "parquet"
    assert results_format("c.pq") == "parquet"
    with pytest.raises(ValueError, match=r"must end in \.csv or \.parquet, not '\.xlsx'"):
        open_results(tmp_path / "r.xlsx", columns("market"))
    assert not (tmp_path / "r.xlsx").exists()


def test_parquet_row_groups_hold_many_rows(tmp_path):
    import pyarrow.parquet as pq

    row = play_rows("market", ("random",), 0, 1, {})[0]
    with open_results(tmp_path / "m.parquet", columns("market")) as out:
        for i in range(ROW_GROUP + 10):
            out.write([{**row, "index": i}])
    meta = pq.ParquetFile(tmp_path / "m.parquet").metadata
    assert meta.num_rows == ROW_GROUP + 10 and meta.num_row_groups == 2


def test_a_file_that_is_not_a_results_table(tmp_path):
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="not a results table"):
        read_results(tmp_path / "x.csv")
    (tmp_path / "y.parquet").write_text("not parquet")
    with pytest.raises(ValueError, match="not a results table"):
        read_results(tmp_path / "y.parquet")
