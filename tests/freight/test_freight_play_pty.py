"""Rolling Freight in a real terminal: ``rolling play freight --seats human,bot,bot:random``,
played by typing commands and reading the screen, as a person would."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from rolling.core.record import load_record, replay

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a pty")

PROMPT = "Player 1> "
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def child_env() -> dict:
    """The child's environment: this interpreter's import path (an editable install, or
    PYTHONPATH=src) and a 100-column terminal."""
    src = str(Path(__file__).resolve().parents[2] / "src")
    path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, "COLUMNS": "100", "LINES": "60", "TERM": "xterm"}


class Player:
    """The person at the keyboard: types a line, reads the screen up to the next prompt."""

    def __init__(self, args: list[str], cwd: Path):
        self.child = pexpect.spawn(sys.executable, ["-m", "rolling.cli.main", *args], encoding="utf-8",
                                   timeout=120, dimensions=(60, 100), env=child_env(), cwd=str(cwd))
        self.screen = self.read()

    def read(self) -> str:
        self.child.expect_exact(PROMPT)
        return ANSI.sub("", self.child.before).replace("\r", "")

    def type(self, line: str) -> str:
        self.child.sendline(line)
        self.screen = self.read()
        return self.screen

    def menu(self) -> list[str]:
        """The menu lines of the last screen: ``what`` of each ``N. what``."""
        return [m.group(1) for m in re.finditer(r"^\s+\d+\. (.*)$", self.screen, re.M)]


def test_several_turns_typed_at_the_terminal(tmp_path):
    """The opening draft by slot numbers (as the tracks table shows them), the text map, one
    city, take and build typed by name, the board picture, save, undo, end turn, the bots'
    turns, quit and --resume; every screen fits 100 columns."""
    save = tmp_path / "g.json"
    me = Player(["play", "freight", "--seats", "human,heuristic,bot:random", "--seed", "3", "--save", str(save)], tmp_path)
    s = first = me.screen
    assert "The game so far" in s and "Player 1 is the start player" in s and "starting cargo:" in s
    assert "opening draft" in s and "Dice of Player 1: 1:" in s
    assert max(len(x) for x in s.splitlines()) <= 100

    s = me.type("map")
    assert "U.S. West Coast map" in s and "Los Angeles" in s and "[whose]" in s
    assert max(len(x) for x in s.splitlines()) <= 100
    s = me.type("map fresno")
    assert s.splitlines()[1].startswith("Fresno, CA: cargo")
    assert re.search(r"^  \w+ \d+[ABC] L\d+ to Stockton: ", s, re.M)

    # draft the contract in slot 1 of the tracks table, then the improvement in slot 1
    slot1 = re.search(r"^1\s+(\w+ \d+[ABC]) L(\d+)", first.split("contract track")[-1], re.M)
    s = me.type("take 1")
    assert f"Player 1 drafts contract {slot1.group(1)} L{slot1.group(2)}" in s
    s = me.type("buy 1")
    assert "Player 1 drafts improvement" in s
    assert "turn 1" in s and "Turn 1, phase A: Player 1 has dice" in s

    # take a contract by its slot, as the tracks table numbers it
    take = next(x for x in me.menu() if x.startswith("take "))
    slot, label = re.match(r"take slot (\d): (\w+ \d+[ABC] L\d+)", take).groups()
    assert re.search(rf"^{slot}\s+{label} ", s, re.M)  # the menu's slot is the tracks table's
    s = me.type(f"take {slot}")
    assert f"Player 1 takes contract {label} paying" in s
    n_taken = len(load_record(save).actions)

    # build on a contract by its card's name
    build = next(x for x in me.menu() if x.startswith("build "))
    card = re.search(r"(\w+ \d+[ABC]) L\d+", build).group(1)
    s = me.type(f"build {card}")
    assert re.search(rf"Player 1 builds \d cube\(s\) on {card} L\d+ paying", s)
    assert len(load_record(save).actions) == n_taken + 1

    s = me.type("board")
    wrote = re.search(r"Wrote the board picture to (\S+)\.\n", s)
    assert wrote and Path(tmp_path, wrote.group(1)).read_bytes()[:4] == b"\x89PNG"
    s = me.type("save")
    assert f"Saved to {save}." in " ".join(s.split())
    s = me.type("undo")
    assert "Undone." in s and len(load_record(save).actions) == n_taken
    s = me.type("build Purple 9Z")
    assert "write it as 'build L'" in s and len(load_record(save).actions) == n_taken

    s = me.type("end")
    assert "Since Player 1's last decision" in s and "Turn 2, phase A: " in s and "Turn 4, phase A: Player 1" in s
    assert max(len(x) for x in s.splitlines()) <= 100
    me.child.sendline("quit")
    me.child.expect(pexpect.EOF)
    me.child.close()
    assert me.child.exitstatus == 0
    st = replay(load_record(save))
    assert st.turn == 4 and st.to_act == (0,)

    again = Player(["play", "freight", "--resume", str(save)], tmp_path)
    assert "Dice of Player 1" in again.screen and "turn 4" in again.screen
    again.child.sendline("quit")
    again.child.expect(pexpect.EOF)
