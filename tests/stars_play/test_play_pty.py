"""`rolling play stars` driven through a real pseudo-terminal (pexpect): several human decisions
including an auction, an invalid command, undo, save and quit; then --resume continues."""

import json
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

import rolling

PROMPT = "Player 1> "
#: the source tree the tests import rolling from (an editable install's, or PYTHONPATH's): the
#: child process must run the same code
SRC = str(Path(rolling.__file__).resolve().parents[1])


def spawn(args, tmp_path, rows=60, cols=200):
    """``rolling play stars ARGS`` in a pseudo-terminal of ``rows`` x ``cols``."""
    child = pexpect.spawn(
        sys.executable,
        ["-m", "rolling.cli.main", "play", "stars", *args],
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=60,
        dimensions=(rows, cols),
        env={"COLUMNS": str(cols), "LINES": str(rows), "TERM": "xterm", "PATH": "/usr/bin:/bin", "PYTHONPATH": SRC,
             "XDG_DATA_HOME": os.environ.get("XDG_DATA_HOME", str(tmp_path))},  # the prompt's history
    )
    return child


def test_interactive_game_with_auction_undo_save_quit_and_resume(tmp_path):
    save = tmp_path / "game.json"
    child = spawn(["--seats", "human,bot:random,bot:random", "--seed", "5", "--save", str(save)], tmp_path)
    child.expect(PROMPT)
    screen = child.before
    # an invalid command gets a message and the prompt again (the menu stays in view above it)
    child.sendline("fly to the moon")
    child.expect("unknown command")
    child.expect(PROMPT)
    assert "your choice" not in child.before
    # decisions until Player 1 may start an auction: leave running auctions, pass otherwise
    for _ in range(30):
        m = re.search(r"(\d+)\. auction (\w+) \(face \$(\d+)", screen)
        if m:
            break
        child.sendline("leave" if "leave the auction" in screen else "pass")
        child.expect(PROMPT)
        screen = child.before
    assert m, "Player 1 never got to start an auction"
    number, company, face = m.group(1), m.group(2), int(m.group(3))
    child.sendline(f"{number} {face}")
    child.expect(PROMPT)
    record = json.loads(save.read_text())
    starts = [a for a in record["actions"] if a["type"] == "start_auction" and a["seat"] == 0]
    assert starts and starts[-1]["company"] == company and starts[-1]["bid"] == face
    n_after_first = len(record["actions"])
    # a typed command for a second decision
    child.sendline("pass")
    child.expect(PROMPT)
    assert len(json.loads(save.read_text())["actions"]) > n_after_first
    # undo may not take back the bots' moves since (the undo-can-probe hole): refused, nothing changed
    n_now = len(json.loads(save.read_text())["actions"])
    child.sendline("undo")
    child.expect("Not undone: undo would go back past ")
    child.expect(PROMPT)
    assert len(json.loads(save.read_text())["actions"]) == n_now
    child.sendline("save")
    child.expect("Saved to")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("Saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = json.loads(save.read_text())
    # resume continues from the same point
    child = spawn(["--resume", str(save)], tmp_path)
    child.expect(PROMPT)
    assert json.loads(save.read_text())["actions"] == saved["actions"]
    child.sendline("help")
    child.expect("Commands")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("args,message", [(["--seats", "human,robot"], "unknown seat"), (["--players", "9", "--seats", "bot,bot"], "--players")])
def test_bad_command_lines_give_one_line(tmp_path, args, message):
    child = spawn(args, tmp_path)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and message in child.before and "Traceback" not in child.before


def test_bots_only_game_prints_final_standings(tmp_path):
    child = spawn(["--seats", "bot:heuristic,bot:heuristic,bot:random,bot:random", "--seed", "1", "--quiet"], tmp_path)
    child.expect("Final standings")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_plain_two_player_bots_game_finishes(tmp_path):
    """Issue 10 acceptance: `rolling play stars --players 2 --seats bot,bot --seed 1` finishes (001:
    two to six players, no option needed)."""
    child = spawn(["--players", "2", "--seats", "heuristic,heuristic", "--seed", "1", "--quiet"], tmp_path)
    child.expect("Final standings")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_v22_refuses_two_players_naming_its_range(tmp_path):
    """000: Rolling Stock v2.2 is for three to six players; the one-line error names that range."""
    child = spawn(["--players", "2", "--seats", "heuristic,heuristic", "--edition", "v2.2"], tmp_path)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "3 to 6 players" in child.before and "Traceback" not in child.before
