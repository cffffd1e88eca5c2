"""`rolling bench stars`: the measurements it reports (speed targets live in benchmarks/, not here)."""

import json
import subprocess
import sys
from pathlib import Path

from rolling.core.record import replay
from rolling.games.stars.bench import RECORDS, bundled_record
from rolling.interop.e18xx import import_export, load_export

FIXTURES = Path(__file__).parent.parent / "fixtures" / "18xx"


def test_bundled_records_are_the_imports_of_the_fixtures():
    """The records the bench replays are what `rolling import-18xx` makes of the two exports today."""
    for name in RECORDS:
        ours = import_export(load_export(FIXTURES / f"{name}.json"))
        bundled = bundled_record(name)
        assert bundled.actions == ours.record.actions and bundled.config == ours.record.config
        assert replay(bundled).digest() == ours.state.digest()


def test_bench_json_reports_fixture_replay_ms():
    r = subprocess.run(
        [sys.executable, "-m", "rolling.cli.main", "bench", "stars", "--json", "--seconds", "0.05"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert set(res) == {"replay_actions_per_s", "random_games_per_s", "clone_us", "fixture_replay_ms",
                        "fixture_replay_parse_ms", "search"}
    for key in ("fixture_replay_ms", "fixture_replay_parse_ms"):  # issue 34: replay with parsing too
        assert set(res[key]) == {"rss_1005", "rss_hotseat_dividend"}
        assert all(ms > 0 for ms in res[key].values())


def test_bench_reports_search_playouts_in_a_mid_game_position():
    """Issue 16: playouts/s of the search bot in a mid-game decision of the bundled 4-player game."""
    r = subprocess.run(
        [sys.executable, "-m", "rolling.cli.main", "bench", "stars", "--search", "--json", "--seconds", "0.3"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert res["playouts_per_s"] > 0 and res["iterations"] >= 4
    assert res["turn"] >= 2 and res["candidates"] >= 2
    assert res["reason"].startswith(f"search ({res['iterations']} iterations")
