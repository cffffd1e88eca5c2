"""`rolling bench stars`: the measurements it reports (speed targets live in benchmarks/, not here)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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


ROOT = Path(__file__).resolve().parent.parent.parent


def test_ruby_comparison_is_skipped_cleanly_without_a_checkout(tmp_path):
    """Issue 34: benchmarks/ruby_replay.py without the 18xx.games checkout (or without Ruby) says
    so in one line and exits 0."""
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "ruby_replay.py"), "--checkout", str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ruby_replay: skipped: ") and len(r.stdout.strip().splitlines()) == 1


@pytest.mark.skipif(not (shutil.which("ruby") and os.environ.get("ROLLING_18XX_CHECKOUT")),
                    reason="needs Ruby and ROLLING_18XX_CHECKOUT (a clone of tobymao/18xx)")
def test_ruby_comparison_times_both_engines_on_both_records():
    """Issue 34: with Ruby and the checkout, both engines replay both records in one run; the Ruby
    replay ends with the export's recorded scores (else the script fails)."""
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "ruby_replay.py"), "--runs", "1"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert set(res["records"]) == set(RECORDS)
    for row in res["records"].values():
        assert row["ruby_ms"] > 0 and row["rolling_replay_ms"] > 0 and row["times_faster"] > 1
