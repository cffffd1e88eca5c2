"""Issue 28 item 4 at the terminal: the two-handed winner (001, Two-player two-handed variant: "To
win, your lower ranked simulated player must be better than the lower ranked simulated player of
your opponent") at the end of ``rolling play`` and of ``rolling replay``, and, with secret money, a
person's two hands seeing each other's cash on the screen and in the log (hotseat), never the other
person's."""

from __future__ import annotations

import io
import re
import subprocess
import sys

from rich.console import Console

from rolling.bots import make_bot
from rolling.core.record import GameRecord
from rolling.games.stars import Config
from rolling.ui.session import PlaySession
from rolling.ui.stars import StarsScreen

CMD = [sys.executable, "-m", "rolling.cli.main"]
#: seats 0 and 3 are person A's hands, 1 and 2 person B's
HANDS = {"A": (0, 3), "B": (1, 2)}


def test_play_and_replay_name_the_person_whose_lower_hand_is_better(tmp_path):
    """Seed 1: B's left hand ranks first and B's right hand last, A's hands 2 and 3: A wins."""
    rec = tmp_path / "g.json"
    p = subprocess.run(CMD + ["play", "stars", "--variant", "two-handed", "--seats", "random,random,random,random",
                              "--seed", "1", "-q", "--save", str(rec)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    table = p.stdout[p.stdout.index("Final standings"):]
    first = re.search(r"^\s+1\s+(.+?)\s+\$\d+\s+([AB])\s", table, re.M)
    assert first and first.group(2) == "B"
    assert "Two-handed variant: person A wins." in p.stdout
    r = subprocess.run(CMD + ["replay", str(rec), "-q"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1].startswith("  1. B left hand:")
    assert r.stdout.rstrip().endswith("Two-handed variant: person A wins.")


def hotseat(turns: int = 3) -> PlaySession:
    """Four people's seats at one keyboard, two-handed with secret money, played by random bots
    into turn ``turns``."""
    cfg = Config(players=4, variants=("two-handed", "secret-money"))
    session = PlaySession(GameRecord("stars", cfg.to_json(), 5, [], {"seats": ["human"] * 4}), ["human"] * 4, None)
    bots = [make_bot("stars", "random", seed=k) for k in range(4)]
    while session.state.turn < turns:
        seat = session.next_seat()
        session.apply(bots[seat].choose(session.state, seat))
    return session


def test_hotseat_screen_shows_a_persons_both_hands_cash():
    session = hotseat()
    s = session.state
    for seat in range(4):
        console = Console(width=100, record=True, color_system=None, file=io.StringIO())
        StarsScreen().show(session, seat, console, True)
        text = console.export_text()
        mine = HANDS["A"] if seat in HANDS["A"] else HANDS["B"]
        for p in range(4):
            row = re.search(rf"^\d+\s+{s.names[p]}\s+(\S+)\s+(\S+)\s", text, re.M)
            assert row, s.names[p]
            assert row.group(1) == (f"${s.cash[p]}" if p in mine else "?"), (seat, p)


def test_hotseat_log_gives_a_person_both_hands_private_lines():
    """The log lines that tell a hand's money ("cannot raise the bid ... their money", "no other
    action possible") reach that hand and its partner, not the other person."""
    session = hotseat()
    names = session.state.names
    private = re.compile(r"^(.+?) (?:leaves the auction: they cannot raise|passes \(no other action possible\))")
    seen_partner = False
    for seat in range(4):
        mine = HANDS["A"] if seat in HANDS["A"] else HANDS["B"]
        about = {names.index(m.group(1)) for line in session.news(seat) if (m := private.match(line))}
        assert about <= set(mine), seat
        seen_partner |= any(p != seat for p in about)
    assert seen_partner


def test_variant_takes_a_comma_list():
    """``rolling play stars --variant two-handed,secret-money`` (the issue's command) is both variants."""
    p = subprocess.run(CMD + ["play", "stars", "--variant", "two-handed,secret-money", "--seats",
                              "random,random,random,random", "--seed", "2", "-q"], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    assert "Two-handed variant: person B wins." in p.stdout
