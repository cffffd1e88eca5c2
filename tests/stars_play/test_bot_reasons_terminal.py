"""The bots' reasons at the terminal: each printed dimmed, in brackets, right after the lines of
the bot's move, in the news a person reads before their decision and when bots play alone."""

from __future__ import annotations

import io
import subprocess
import sys

from rich.console import Console

from rolling.core.record import GameRecord
from rolling.games.stars.config import Config
from rolling.ui.session import PlaySession
from rolling.ui.stars import StarsScreen
from rolling.ui.terminal import print_news


def run(args, stdin=""):
    p = subprocess.run([sys.executable, "-m", "rolling.cli.main", *args], input=stdin, capture_output=True,
                       text=True, timeout=300)
    assert "Traceback" not in p.stdout + p.stderr
    return p.returncode, p.stdout


def test_a_person_reads_each_bots_reason_after_its_move_in_the_news(tmp_path):
    code, out = run(["play", "stars", "--seats", "human,heuristic,heuristic", "--seed", "5", "--save",
                     str(tmp_path / "g.json")], "quit\n")
    assert code == 0, out
    news = out[out.index("The game so far"):out.index("Player 1> ")].splitlines()
    i = news.index("Heuristic 2 starts an auction of KME with a bid of $5.")
    assert news[i + 1] == "  (Heuristic 2 auctions KME (face $5): worth $10 to it, its income for the turns left)"
    j = news.index("Heuristic 3 bids $6 for KME.")
    assert news[j + 1].startswith("  (Heuristic 3 bids up to $") and j > i + 1


def test_bots_alone_are_narrated_with_their_reasons_after_their_moves():
    code, out = run(["play", "stars", "--seats", "heuristic,heuristic", "--players", "2", "--seed", "5"])
    assert code == 0, out
    lines = out.splitlines()
    reasons = [k for k, line in enumerate(lines) if line.startswith("  (Heuristic ")]
    assert len(reasons) > 20
    # a reason follows the lines of the move it explains, never comes first
    first = reasons[0]
    assert lines[first - 1].startswith("Heuristic ") and lines[first][3:].split()[1] == lines[first - 1].split()[1]
    assert "Final standings" in out


def stars_session():
    rec = GameRecord("stars", Config(players=3).to_json(), 5, [], {"seats": ["human", "heuristic", "heuristic"]})
    return PlaySession(rec, ["human", "heuristic", "heuristic"], None)


def bots_move(session):
    while not session.state.is_over and session.next_seat() != 0:
        seat = session.next_seat()
        bot = session.bots[seat]
        session.apply(bot.choose(session.state, seat))
        session.note_reason(seat, bot.last_reason)


def test_news_places_reasons_after_their_lines_and_undo_takes_them_back():
    s = stars_session()
    bots_move(s)
    news = s.news_with_reasons(0)
    assert [text for text, reason in news if not reason] == s.news(0)
    marked = [k for k, (_, reason) in enumerate(news) if reason]
    assert marked and all(k > 0 and not news[k - 1][1] for k in marked)
    s.mark_seen(0)
    assert s.news_with_reasons(0) == []
    # a decision of the person (a raise: leaving would end the auction and draw a card, past
    # which there is no undo), the bots answer: only the new reasons are news
    s.apply(s.state.legal_actions(0)[1], decided_by=0)
    bots_move(s)
    fresh = [text for text, reason in s.news_with_reasons(0) if reason]
    assert fresh == [f"{s.names[x.seat]} {x.text}" for x in s.reasons if x.n >= s.seen_at[0]] != []
    n = len(s.reasons)
    assert s.undo(0)
    assert len(s.reasons) < n and all(x.n < len(s.record.actions) for x in s.reasons)
    assert s.news_with_reasons(0) == []


def test_print_news_dims_the_reasons():
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100, color_system="standard")
    print_news(console, [("A line.", False), ("Bot 2 bids up to $9", True)])
    text = out.getvalue()
    assert "A line." in text and "\x1b[2m  (Bot 2 bids up to $9)" in text


def test_secret_money_keeps_the_reasons_from_the_person_while_the_game_goes_on():
    rec = GameRecord("stars", Config(players=3, variants=("secret-money",)).to_json(), 5, [],
                     {"seats": ["human", "heuristic", "heuristic"]})
    s = PlaySession(rec, ["human", "heuristic", "heuristic"], None)
    bots_move(s)
    assert s.reasons and not s.state.is_over
    assert s.news_with_reasons(0) == [(line, False) for line in s.news(0)]


def test_the_search_bots_reason_gives_its_top_alternatives_in_the_news(tmp_path):
    """Issue 16: the terminal gives the search bot's reason as its top alternatives with their
    visits and values, right after its move."""
    code, out = run(["play", "stars", "--seats", "search:60,human", "--players", "2", "--seed", "5", "--save",
                     str(tmp_path / "g.json")], "quit\n")
    assert code == 0, out
    news = out[out.index("The game so far"):out.index("Player 2> ")].splitlines()
    k = next(k for k, line in enumerate(news) if line.startswith("  (Search 1 search (60 iterations, "))
    assert " visits " in news[k] and news[k - 1].startswith("Search 1 ")
