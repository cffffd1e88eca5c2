"""Issue 28 item 9: the screen fits a 100 x 30 terminal in every state.

Random positions of Stars (3 to 6 players, phase 3 with many open proposals included), of Freight
on both maps and of Market are drawn as at the table, into a 100 x 30 terminal emulated by pyte;
the screen's first line (its header) and the prompt must be in view, also after one message and
the prompt asked again; the menu's pages (``more``) together list every entry.
"""

from __future__ import annotations

import io

import pyte
import pytest
from rich.console import Console

from rolling.bots import make_bot
from rolling.core.record import GameRecord
from rolling.games.freight import config_from_json
from rolling.games.stars import Config
from rolling.ui.freight import FreightScreen
from rolling.ui.market import MarketScreen
from rolling.ui.session import PlaySession
from rolling.ui.stars import StarsScreen

ROWS, COLS = 30, 100


def terminal_console(out: io.StringIO) -> Console:
    """A console that believes it writes to a 100 x 30 terminal."""
    return Console(file=out, width=COLS, height=ROWS, force_terminal=True, color_system=None, highlight=False)


def drawn(screen, session, seat: int, page: int = 0) -> tuple[list[str], str]:
    """The lines of the emulated terminal, up to the cursor's, after the screen and the prompt,
    then after one message and the prompt again; and everything printed."""
    out = io.StringIO()
    console = terminal_console(out)
    screen.page = page
    screen.show(session, seat, console, True)
    prompt = f"{session.names[seat]}> "
    console.print(prompt, end="")
    console.print("Not allowed (a rule): a one-line message after a bad line")
    console.print(prompt, end="")
    term = pyte.Screen(COLS, ROWS)
    pyte.Stream(term).feed(out.getvalue().replace("\n", "\r\n"))
    return term.display[: term.cursor.y + 1], out.getvalue()


def check_fits(screen, session, header: str) -> None:
    seat = session.next_seat()
    lines, text = drawn(screen, session, seat)
    where = f"seed {session.record.seed}, {len(session.record.actions)} actions"
    assert any(line.startswith(header) for line in lines), f"header scrolled off ({where}):\n" + "\n".join(lines)
    assert lines[-1].rstrip() == f"{session.names[seat]}>", where
    assert text.count("[page ") <= 1
    if "[page 1/" in text:
        n = int(text.split("[page 1/")[1].split(":")[0])
        for page in sorted({1, n - 1}):
            more_lines, _ = drawn(screen, session, seat, page)
            assert any(line.startswith(header) for line in more_lines), where
            assert f"[page {page + 1}/{n}: more]" in "\n".join(more_lines), where


def random_positions(game: str, config: dict, players: int, seeds, every: int, bot: str = "random"):
    """Sessions at every ``every``-th decision of random games (all seats human, so the whole
    menu of the seat to act is shown)."""
    for seed in seeds:
        session = PlaySession(GameRecord(game, config, seed, [], {}), ["human"] * players, None)
        bots = [make_bot(game, bot, seed=seed * 101 + k) for k in range(players)]
        n = 0
        while not session.state.is_over:
            seat = session.state.to_act[0]
            if n % every == 0:
                yield session
            session.apply(bots[seat].choose(session.state, seat))
            n += 1


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_stars_screen_fits_100_by_30_in_random_positions(players):
    cfg = Config(players=players).to_json()
    for session in random_positions("stars", cfg, players, range(1, 4), every=11):
        check_fits(StarsScreen(), session, "Rolling Stock Stars · Turn")


def test_stars_phase3_with_many_open_proposals_fits_100_by_30():
    """Phase 3 (Acquisition) with three or more proposals open, for 3 to 6 players."""
    found = 0
    for players in (3, 4, 5, 6):
        cfg = Config(players=players).to_json()
        for session in random_positions("stars", cfg, players, range(1, 8), every=1):
            s = session.state
            if s.phase == 3 and len(s.pending) >= 3:
                check_fits(StarsScreen(), session, "Rolling Stock Stars · Turn")
                found += 1
    assert found >= 10


@pytest.mark.parametrize("map_name, players", [("west-coast", 2), ("west-coast", 4), ("southern", 3), ("southern", 5)])
def test_freight_screen_fits_100_by_30_on_both_maps(map_name, players):
    cfg = config_from_json({"map": map_name, "players": players}).to_json()
    title = {"west-coast": "U.S. West Coast", "southern": "Southern U.S."}[map_name]
    for session in random_positions("freight", cfg, players, range(1, 3), every=23):
        check_fits(FreightScreen(), session, f"{title} - phase")


def test_market_screen_fits_100_by_30():
    for session in random_positions("market", {}, 1, range(1, 4), every=1):
        check_fits(MarketScreen(), session, "Rolling Market - buy/sell turn")


def test_a_real_100_by_30_terminal_keeps_the_header_and_the_prompt_in_view(tmp_path):
    """A person at a 100 x 30 terminal (pexpect, the screen emulated by pyte): a 6-player Stars
    game and a 5-player Freight game on the Southern map show their first line and the prompt,
    and ``more`` turns the menu's page with the header still in view."""
    import sys

    import pexpect

    from .test_resume_seats import SRC

    runs = [
        (["stars", "--seats", "human,random,random,random,random,random", "--seed", "3"], "Rolling Stock Stars · Turn"),
        (["freight", "--map", "southern", "--seats", "human,random,random,random,random", "--seed", "2"],
         "Southern U.S. - phase"),
    ]
    for args, header in runs:
        child = pexpect.spawn(sys.executable, ["-m", "rolling.cli.main", "play", *args, "--save", str(tmp_path / "g.json")],
                              cwd=str(tmp_path), encoding="utf-8", timeout=60, dimensions=(ROWS, COLS),
                              env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin", "TERM": "xterm"})
        term = pyte.Screen(COLS, ROWS)
        stream = pyte.Stream(term)
        for line in ("", "more", "more"):
            if line:
                child.sendline(line)
            child.expect("Player 1> ")
            stream.feed(child.before + child.after)
            shown = term.display
            assert any(x.startswith(header) for x in shown), "\n".join(shown)
            assert shown[term.cursor.y].startswith("Player 1> ")
        child.sendline("quit")
        child.expect(pexpect.EOF)
