"""`rolling import-18xx`: real and reference games from 18xx.games replay to the recorded scores."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rolling.core.record import load_record, replay
from rolling.games.stars import BuyShare, Config, new_game
from rolling.interop.e18xx import effective_actions, import_export, load_export

FIXTURES = Path(__file__).parent.parent / "fixtures" / "18xx"
FILES = sorted(FIXTURES.glob("*.json"))


def rolling(*args):
    return subprocess.run([sys.executable, "-m", "rolling.cli.main", *args], capture_output=True, text=True)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_fixture_matches_the_recorded_result(path):
    result = import_export(load_export(path))
    assert result.match, result.error
    recorded = json.loads(path.read_text())["result"]
    assert {str(p["id"]): p["score"] for p in result.players} == {str(k): v for k, v in recorded.items()}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_out_record_replays_to_the_same_standings(path, tmp_path):
    out = tmp_path / "record.json"
    proc = rolling("import-18xx", str(path), "--out", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["match"] is True and data["actions_applied"] > 0
    assert {"id", "name", "score", "recorded"} <= set(data["players"][0])
    state = replay(load_record(out))
    scores = {r["seat"]: r["score"] for r in state.standings()}
    assert [scores[k] for k in range(len(scores))] == [p["score"] for p in data["players"]]
    proc = rolling("replay", str(out), "--quiet")
    assert proc.returncode == 0 and "1." in proc.stdout


def test_bad_files_give_one_line_and_exit_2(tmp_path):
    good = json.loads(FILES[0].read_text())
    other = dict(good, title="1830")
    (tmp_path / "other.json").write_text(json.dumps(other))
    (tmp_path / "trunc.json").write_text(FILES[0].read_text()[:500])
    unknown = dict(good, actions=good["actions"] + [{"type": "teleport", "entity": 1, "id": 999}])
    (tmp_path / "unknown.json").write_text(json.dumps(unknown))
    for name, why in [("other.json", "title"), ("trunc.json", "JSON"), ("unknown.json", "teleport")]:
        proc = rolling("import-18xx", str(tmp_path / name))
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and why in lines[0] and "Traceback" not in proc.stderr


def test_diverging_export_exits_1_naming_the_action(tmp_path):
    good = json.loads(FILES[1].read_text())
    bad = dict(good, result={str(k): v + 1 for k, v in good["result"].items()})
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    proc = rolling("import-18xx", str(tmp_path / "bad.json"))
    assert proc.returncode == 1 and "differ" in proc.stderr
    tampered = json.loads(FILES[1].read_text())
    for a in tampered["actions"]:
        if a["type"] == "bid":
            a["price"] = 999
            break
    (tmp_path / "tampered.json").write_text(json.dumps(tampered))
    proc = rolling("import-18xx", str(tmp_path / "tampered.json"))
    assert proc.returncode == 1 and "action id" in proc.stderr


def test_undo_redo_and_skip_are_resolved():
    acts = [
        {"type": "pass", "id": 1},
        {"type": "pass", "id": 2},
        {"type": "undo", "id": 3},
        {"type": "bid", "id": 4, "skip": True},
        {"type": "redo", "id": 5},
        {"type": "pass", "id": 6, "auto_actions": [{"type": "pass"}]},
        {"type": "undo", "id": 7, "action_id": 2},
    ]
    flat, ended = effective_actions(acts)
    assert [a["id"] for a in flat] == [1, 2] and not ended


def test_compat_receivership_buy_pays_the_price_before_the_move():
    """docs/18xx-compatibility.md: with `18xx-receivership-buy` the President's Share bought out of
    receivership costs the price before the move; by the canonical rules it costs the new price."""
    from tests.stars.conftest import corp, offer_up

    for compat, paid in [((), 12), (("18xx", "18xx-receivership-buy"), 11)]:
        s = new_game(Config(players=3, compat=compat), 0)
        s.order = [0, 1, 2]
        s.current = 0
        s.offering = []
        offer_up(s, "SBB")
        for i in range(36):
            if s.company_owner[i] >= 0:
                s.company_owner[i] = -3
        c = corp(s, "PR", ["MHE"], 11, issued=2, holders={})
        s.apply(BuyShare(0, "PR", presidents_share=True) if compat else BuyShare(0, "PR"))
        assert s.cash[0] == 30 - paid and s.president[c] == 0
