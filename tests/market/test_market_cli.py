"""The command line: rolling play/simulate/bench market, and rolling replay of a market record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from rolling.core.record import load_record, replay
from rolling.games.market import DONE, action_from_json, new_game

CMD = [sys.executable, "-m", "rolling.cli.main"]


def run(args, stdin="", timeout=60):
    return subprocess.run(CMD + args, input=stdin, capture_output=True, text=True, timeout=timeout)


def test_scripted_full_game_through_stdin(tmp_path):
    """play: a whole game of 'done' x 12 ends with the final cash; the record replays to it."""
    path = tmp_path / "g.json"
    r = run(["play", "market", "--seed", "21", "--save", str(path)], "done\n" * 12)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert "Game over" in r.stdout and "Final cash: $" in r.stdout
    rec = load_record(path)
    assert rec.game == "market" and rec.seed == 21 and len(rec.actions) == 12
    s = new_game(None, 21)
    for _ in range(12):
        s.apply(DONE)
    assert replay(rec).digest() == s.digest()
    assert f"Final cash: ${s.cash}" in r.stdout


def test_trades_preview_confirm_cancel_undo_and_resume(tmp_path):
    """play: a trade shows its preview first; n cancels; undo takes back; --resume continues."""
    path = tmp_path / "g.json"
    s = new_game(None, 8)
    c = min(range(4), key=lambda i: s.values[i])
    letter = "ABCD"[c]
    cost, after = s.quote_buy(c, 1)
    script = f"buy {letter} 1\nn\nbuy {letter} 1\ny\nundo\nbuy {letter} 1\n\n"
    r = run(["play", "market", "--seed", "8", "--save", str(path)], script)
    assert r.returncode == 0, r.stderr
    assert f"Buy 1 {letter} for ${cost}: value {s.values[c]} -> {after}" in r.stdout
    assert "Cancelled." in r.stdout and "Undone." in r.stdout
    assert "Saved to" in r.stdout  # end of input saves and leaves cleanly
    rec = load_record(path)
    assert [action_from_json(a) for a in rec.actions] == [action_from_json({"type": "buy", "company": c, "shares": 1})]
    r2 = run(["play", "market", "--resume", str(path)], "done\nquit\n")
    assert r2.returncode == 0, r2.stderr
    assert len(load_record(path).actions) == 2


def test_bad_input_gets_a_message_and_the_prompt_again(tmp_path):
    """play: bad input gets a message and the prompt again, never a traceback."""
    path = tmp_path / "g.json"
    script = "\n".join([
        "", "fly away", "buy", "buy Z 3", "buy A x", "buy A 0", "buy A 99", "sell A 3",
        "done now", "undo", "help", "quit",
    ]) + "\n"
    r = run(["play", "market", "--seed", "2", "--save", str(path)], script)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Traceback" not in out + r.stderr
    for msg in ("unknown command", "no company 'Z'", "not a number", "1 or more", "at most 12",
                "Not allowed (Phase Two: buying/selling)", "nothing to undo", "Commands"):
        assert msg in out, msg
    assert out.count("Player 1> ") == 12
    assert load_record(path).actions == []


def test_screen_says_market_closed(tmp_path):
    """play: closed-market turns rolled through are announced (seed 5 closes twice after turn 1)."""
    s = new_game(None, 5)
    s.apply(DONE)
    assert s.closed == 2
    r = run(["play", "market", "--seed", "5", "--save", str(tmp_path / "g.json")], "done\n")
    assert "market closed (volatility die 6)" in r.stdout
    assert "Market closed on 2 turns before this one" in r.stdout


def test_resume_errors_are_one_line(tmp_path):
    """play --resume of a missing file, or with --seed, is a one-line error with status 2."""
    r = run(["play", "market", "--resume", str(tmp_path / "none.json")])
    assert r.returncode == 2 and r.stderr.startswith("rolling: ") and "Traceback" not in r.stderr
    other = tmp_path / "o.json"
    other.write_text(json.dumps({"game": "stars", "config": {}, "seed": 1, "actions": []}))
    r = run(["play", "market", "--resume", str(other)])
    assert r.returncode == 2 and "not market" in r.stderr
    r = run(["play", "market", "--resume", str(other), "--seed", "3"])
    assert r.returncode == 2 and "--seed" in r.stderr


def test_replay_command_narrates_a_market_record(tmp_path):
    """rolling replay works for market records (log of readable events) and reports the digest."""
    path = tmp_path / "g.json"
    run(["play", "market", "--seed", "4", "--save", str(path)], "done\n" * 12)
    r = run(["replay", str(path)])
    assert r.returncode == 0, r.stderr
    assert "Roll 1:" in r.stdout and "Game over" in r.stdout and "Final standings" in r.stdout
    r = run(["replay", "--json", str(path)])
    data = json.loads(r.stdout)
    assert data["game"] == "market" and data["is_over"]
    assert data["digest"] == replay(load_record(path)).digest()


def test_simulate_json_is_one_object():
    """simulate --json prints one object with games, mean, median, p5, p95 (progress on stderr),
    and the seats as every game's simulate reports them; the old --bot still works."""
    r = run(["simulate", "market", "--games", "200", "--seats", "bot", "--seed", "3", "--json"])
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert set(data) == {"game", "version", "games", "failed", "seed", "actions", "seats", "mean", "median", "p5",
                         "p95"}
    assert data["games"] == 200 and data["p5"] <= data["median"] <= data["p95"]
    assert [row["bot"] for row in data["seats"]] == ["value"]
    old = run(["simulate", "market", "--games", "200", "--bot", "value", "--seed", "3", "--json"])
    assert json.loads(old.stdout) == data


def test_simulate_text_and_errors():
    """simulate prints the statistics as text; an unknown bot is a one-line error."""
    r = run(["simulate", "market", "--games", "50", "--seats", "bot:random"])
    assert r.returncode == 0 and "mean" in r.stdout and "p95" in r.stdout
    r = run(["simulate", "market", "--games", "5", "--seats", "genius"])
    assert r.returncode == 2 and "unknown bot" in r.stderr and "Traceback" not in r.stderr
    r = run(["simulate", "market", "--games", "5", "--seats", "bot,bot"])
    assert r.returncode == 2 and "solitaire" in r.stderr and "Traceback" not in r.stderr


def test_bench_reports_speed():
    """bench market reports games and actions per second."""
    r = run(["bench", "market", "--games", "100", "--json"])
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["games"] == 100 and data["actions_per_s"] > 0


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a pty")
def test_interactive_session_with_pexpect(tmp_path):
    """play in a real terminal: the screen, a confirmed buy, then quit saves."""
    path = tmp_path / "g.json"
    child = pexpect.spawn(sys.executable, ["-m", "rolling.cli.main", "play", "market", "--seed", "5",
                                           "--save", str(path)], encoding="utf-8", timeout=30,
                          dimensions=(50, 120))
    child.expect("Player 1> ")
    assert "buy/sell turn 1 of 12" in child.before
    child.sendline("buy A 1")
    child.expect(r"Confirm\? \[Y/n\] ")
    child.sendline("y")
    child.expect("Player 1> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert load_record(path).actions == [{"type": "buy", "company": 0, "shares": 1}]


def child_env() -> dict:
    """The child's environment: this interpreter's import path (an editable install, or
    PYTHONPATH=src), a 100-column terminal."""
    src = str(Path(__file__).resolve().parents[2] / "src")
    path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, "COLUMNS": "100", "LINES": "50", "TERM": "xterm"}


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a pty")
def test_save_in_a_terminal_then_resume_continues(tmp_path):
    """play market in a real terminal: 'save' writes the default file (rolling-market-SEED.json,
    named on screen); --resume of that file continues where it stood."""
    child = pexpect.spawn(sys.executable, ["-m", "rolling.cli.main", "play", "market", "--seed", "5"],
                          encoding="utf-8", timeout=30, dimensions=(50, 100), env=child_env(), cwd=str(tmp_path))
    child.expect("Player 1> ")
    child.sendline("buy A 1")
    child.expect(r"Confirm\? \[Y/n\] ")
    child.sendline("y")
    child.expect("Player 1> ")
    child.sendline("save")
    child.expect(r"Saved to rolling-market-5\.json\.")
    child.expect("Player 1> ")
    path = tmp_path / "rolling-market-5.json"
    assert load_record(path).actions == [{"type": "buy", "company": 0, "shares": 1}]
    child.sendline("done")
    child.expect("buy/sell turn 2 of 12")
    child.expect("Player 1> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and len(load_record(path).actions) == 2

    again = pexpect.spawn(sys.executable, ["-m", "rolling.cli.main", "play", "market", "--resume", str(path)],
                          encoding="utf-8", timeout=30, dimensions=(50, 100), env=child_env(), cwd=str(tmp_path))
    again.expect("Player 1> ")
    assert "buy/sell turn 2 of 12" in again.before
    again.sendline("done")
    again.expect("buy/sell turn 3 of 12")
    again.expect("Player 1> ")
    again.sendline("save")
    again.expect("Saved to ")
    again.sendline("quit")
    again.expect(pexpect.EOF)
    assert [action_from_json(a) for a in load_record(path).actions][1:] == [DONE, DONE]


def test_last_turn_warns_that_shares_are_worth_nothing(tmp_path):
    """The 12th buy/sell turn says the game ends after it and only cash counts; 'done' while
    holding shares asks first ('n' keeps the turn open); selling then ending scores the cash."""
    path = tmp_path / "g.json"
    script = "buy A 1\ny\n" + "done\n" * 11 + "done\nn\nsell A all\ny\ndone\n"
    r = run(["play", "market", "--seed", "3", "--save", str(path)], script)
    assert r.returncode == 0, r.stderr
    out = " ".join(r.stdout.split())
    assert "Last turn: the game ends after it and only your cash counts: shares still held are worth nothing." in out
    assert "buy/sell turn 11 of 12" in out and "Last turn" not in out.split("buy/sell turn 12 of 12")[0]
    assert "You still hold" in out and "shares are worth nothing at the end of the game" in out
    assert "Not ended: sell first" in out and "Game over" in out
    rec = load_record(path)
    assert action_from_json(rec.actions[-1]) == DONE
    assert replay(rec).shares == [0, 0, 0, 0]
