"""The commands: rolling play freight (scripted input), simulate freight, bench freight, freight board."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass

import pytest

from rolling.bots import make_bot
from rolling.core.record import GameRecord, load_record, replay, save_record
from rolling.games.freight import Config, new_game
from rolling.sim import play_game, simulate
from rolling.ui import freight as freight_ui


@dataclass
class Result:
    exit_code: int
    output: str


def run(args, stdin="", timeout=300):
    """Run ``rolling ARGS`` with ``stdin``; stdout and stderr together in ``output``."""
    p = subprocess.run([sys.executable, "-m", "rolling.cli.main", *args], input=stdin, capture_output=True,
                       text=True, timeout=timeout)
    assert "Traceback" not in p.stdout + p.stderr
    return Result(p.returncode, p.stdout + p.stderr)


def test_play_scripted_bad_input_undo_and_end_of_input_saves(tmp_path):
    """Play: bad input gets a message and a new prompt; undo takes back this turn's move, not past a reveal; the
    record is saved after every action; end of input saves and leaves cleanly."""
    path = tmp_path / "g.json"
    script = "1\n1\nfoo\n999\n1 pay 99\ntake 7\n1\nundo\nundo\nhelp\nmenu\ndice\nmap\nend\n"
    r = run(["play", "freight", "--map", "west-coast", "--seats", "human,heuristic,random", "--seed", "5",
             "--save", str(path)], script)
    assert r.exit_code == 0, r.output
    assert "unknown command 'foo'" in r.output and "there is no move 999" in r.output
    assert "there is no die 99: your dice are 1-" in r.output
    assert "there is no contract in slot 7 of the contract track" in r.output
    # the draft pick before drew a card: undo stops there and says so (issue 28 item 6)
    assert "Undone." in r.output and "Not undone: undo would go back past a card drawn (" in r.output
    assert "Player 1> " in r.output and "Dice of Player 1:" in r.output
    assert "Saved to" in r.output
    rec = load_record(path)
    assert rec.game == "freight" and rec.meta["seats"] == ["human", "heuristic", "random"]
    st = replay(rec)
    assert st.stage == "turn" and st.turn >= 2  # the human ended turn 1, the bots played on
    n = len(rec.actions)
    r2 = run(["play", "freight", "--resume", str(path)], "quit\n")
    assert r2.exit_code == 0 and "Saved to" in r2.output
    assert len(load_record(path).actions) == n


def test_play_all_bot_seats_runs_to_the_end(tmp_path):
    """Play with bots in every seat: the game runs to its end and the record replays to game over."""
    path = tmp_path / "b.json"
    r = run(["play", "freight", "--map", "southern", "--seats", "heuristic,random,random", "--seed", "3",
             "--save", str(path)])
    assert r.exit_code == 0, r.output
    assert "Game over." in r.output
    assert replay(load_record(path)).is_over


@pytest.mark.parametrize("args,msg", [
    (["play", "freight", "--map", "mars"], "unknown map"),
    (["play", "freight", "--map", "southern", "--players", "2"], "3-5 players"),
    (["play", "freight", "--seats", "human,robot"], "unknown seat 'robot' (seat 2)"),
    (["play", "freight", "--players", "4", "--seats", "human,bot"], "--players 4 but --seats names 2 seats"),
    (["play", "freight", "--resume", "x.json", "--map", "southern"], "--map cannot be used with --resume"),
    (["simulate", "freight", "--seats", "heuristic,robot"], "unknown bot"),
    (["simulate", "freight", "--seats", "human,bot"], "only bots"),
    (["simulate", "freight", "--games", "0"], "--games"),
    (["simulate", "freight", "--map", "mars"], "unknown map"),
])
def test_bad_options_are_one_line_errors(args, msg):
    """Bad options: a one-line message and exit status 2, never a traceback."""
    r = run(args)
    assert r.exit_code == 2 and msg in r.output


def test_simulate_json_rotates_seats():
    """simulate --json prints {"games", "seats": [{"bot", "win_rate", "mean_score", ...}]} per --seats entry."""
    r = run(["simulate", "freight", "--map", "west-coast", "--games", "3", "--seats", "bot,bot:random", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output.strip().splitlines()[-1])
    assert out["games"] == 3 and [s["bot"] for s in out["seats"]] == ["heuristic", "random"]
    assert all(0 <= s["win_rate"] <= 1 and s["mean_score"] >= 0 for s in out["seats"])
    res = simulate("freight", ["random", "random"], 2, seed=1, map="west-coast")
    assert res["games"] == 2


def test_bench_json():
    """bench freight --json reports games and actions per second, and how many rule modules ran
    compiled (issue 34)."""
    from rolling.games.freight import compiled

    r = run(["bench", "freight", "--games", "1", "--json"])
    out = json.loads(r.output.strip().splitlines()[-1])
    assert out["games"] == 1 and out["actions_per_s"] > 0
    assert out["compiled_rule_modules"] == len(compiled.in_use())


@pytest.mark.parametrize("map_name,players", [("west-coast", 3), ("southern", 4)])
def test_board_picture_for_a_finished_bot_game(tmp_path, map_name, players):
    """freight board writes a PNG and an SVG for a finished bot game on each map (and --at N)."""
    st = new_game(Config(map_name, players), 11)
    acts = play_game(st, [make_bot("freight", "heuristic", 1)] + [make_bot("freight", "random", i) for i in range(2, players + 1)])
    rec = GameRecord("freight", st.config.to_json(), 11, [a.to_json() for a in acts])
    path = tmp_path / "r.json"
    save_record(rec, path)
    png, svg = tmp_path / "b.png", tmp_path / "b.svg"
    assert run(["freight", "board", str(path), "--out", str(png)]).exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert run(["freight", "board", str(path), "--out", str(svg), "--at", "10"]).exit_code == 0
    assert b"<svg" in svg.read_bytes()[:2000]
    r = run(["freight", "board", str(path), "--out", str(tmp_path / "x.gif")])
    assert r.exit_code == 2


def test_build_command_chooses_the_number_of_cubes():
    """The play screen: 'build L N' asks for N cubes (the cubes symbol adds one or two, issue 11)
    and the menu names the number of cubes of a listed build."""
    from freight_helpers import after_draft, give_contract, link, set_dice

    from rolling.games.freight.actions import Build

    st = after_draft("west-coast", 3)
    seat = st.current
    ln = link(st, "Santa Cruz", "Santa Maria", "blue")
    give_contract(st, seat, ln, 1)
    set_dice(st, seat, ["cubes"], ["black"])
    moves = st.legal_actions(seat)
    assert freight_ui.parse(f"build {ln.id} 1 pay 1", st, moves) == ("move", Build(seat, ln.id, "0", 1))
    assert freight_ui.parse(f"b {ln.id}", st, moves) == ("move", Build(seat, ln.id, "", 0))
    with pytest.raises(ValueError):
        freight_ui.parse(f"build {ln.id} two", st, moves)
    assert "build 2 cubes" in freight_ui.describe(st, Build(seat, ln.id, "0", 2))
