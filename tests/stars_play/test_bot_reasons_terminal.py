"""The bots' reasons at the terminal: each printed dimmed, in brackets, right after the lines of
the bot's move, in the news a person reads before their decision and when bots play alone; with a
person at the table only their public part while the game goes on (issue 28 item 7)."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from rich.console import Console

from rolling.core.record import GameRecord
from rolling.games.stars.config import Config
from rolling.ui.session import PlaySession
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
    assert news[i + 1] == "  (Heuristic 2 auctions KME: its income for the turns left)"
    j = news.index("Heuristic 3 bids $6 for KME.")
    assert news[j + 1] == "  (Heuristic 3 bids for KME: its income for the turns left)" and j > i + 1
    # the bots' plans (limits, valuations) are not the person's to read while the game goes on
    assert "up to $" not in out and "worth $" not in out


def test_bots_alone_are_narrated_with_their_reasons_after_their_moves():
    """With nobody at the table nobody can exploit a bot's plan: the narration gives whole reasons."""
    code, out = run(["play", "stars", "--seats", "heuristic,heuristic", "--players", "2", "--seed", "5"])
    assert code == 0, out
    assert "bids up to $" in out or "worth $" in out
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


def test_news_places_reasons_after_their_lines_and_undo_cannot_take_them_back():
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
    assert fresh == [f"{s.names[x.seat]} {x.text.public}" for x in s.reasons if x.n >= s.seen_at[0]] != []
    # the bots' answers cannot be taken back by the person's undo (the undo-can-probe hole:
    # tests/core/test_undo_probe.py), so neither can their reasons
    n = len(s.reasons)
    assert not s.undo(0) and s.undo_refusal(0).startswith("undo would go back past a move of ")
    assert len(s.reasons) == n


def test_print_news_dims_the_reasons():
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100, color_system="standard")
    print_news(console, [("A line.", False), ("Bot 2 bids up to $9", True)])
    text = out.getvalue()
    assert "A line." in text and "\x1b[2m  (Bot 2 bids up to $9)" in text


#: words of a bot's plan: its limits, valuations and search statistics (issue 28 item 7)
PLAN = ("up to $", "worth $", "visits", "iterations", "gains $", "lose $", "standing pat (", "keeping $")


def play_out(variants=(), seats=("human", "heuristic", "heuristic")):
    """A Stars game to its end, the person taking the first legal action: the reasons the person
    read before each decision while the game went on, and the session at the end."""
    rec = GameRecord("stars", Config(players=len(seats), variants=variants).to_json(), 5, [], {"seats": list(seats)})
    s = PlaySession(rec, list(seats), None)
    read = []
    while not s.state.is_over:
        bots_move(s)
        if s.state.is_over:
            break
        read += [text for text, reason in s.news_with_reasons(0) if reason]
        s.mark_seen(0)
        s.apply(s.state.legal_actions(0)[0], decided_by=0)
    return read, s


@pytest.mark.parametrize("variants", [(), ("secret-money",)])
def test_a_person_reads_the_public_reasons_while_the_game_goes_on_and_the_plans_after(variants):
    """Issue 28 item 7, one rule for every variant (secret money included): while the game runs a
    person reads what a bot did and why, never its limits or valuations; once it is over, all."""
    read, s = play_out(variants)
    assert len(read) > 10
    assert not [text for text in read if any(w in text for w in PLAN)]
    assert any(text.split(" ", 2)[2].startswith("bids for ") for text in read)
    after = [text for text, reason in s.news_with_reasons(0, 0, 0) if reason]
    assert s.state.is_over and any("bids up to $" in text for text in after)


def test_the_search_bots_statistics_wait_for_the_end_of_the_game(tmp_path):
    """Issue 16 gave the search bot's reason as its top alternatives with their visits and values;
    issue 28 item 7 keeps them from the person while the game goes on (the public part says the
    search chose) and narrates them to a table of bots alone."""
    code, out = run(["play", "stars", "--seats", "search:60,human", "--players", "2", "--seed", "5", "--save",
                     str(tmp_path / "g.json")], "quit\n")
    assert code == 0, out
    news = out[out.index("The game so far"):out.index("Player 2> ")].splitlines()
    k = news.index("  (Search 1 the move its search rated best)")
    assert news[k - 1].startswith("Search 1 ") and " visits " not in out
    code, out = run(["play", "stars", "--seats", "search:20,heuristic", "--players", "2", "--seed", "5"])
    assert code == 0 and "  (Search 1 search (20 iterations, " in out and " visits " in out


def test_the_record_keeps_the_bots_whole_reasons_only_once_the_game_is_over(tmp_path):
    """Issue 28 item 7: a bot's plan is shown after the game, in the record too: the saved record of a
    running game holds no reasons; that of a finished one holds every bot's whole reason."""
    import json

    running = tmp_path / "running.json"
    code, _ = run(["play", "stars", "--seats", "human,heuristic,heuristic", "--seed", "5", "--save",
                   str(running)], "quit\n")
    assert code == 0
    assert "reasons" not in json.loads(running.read_text())["meta"]
    over = tmp_path / "over.json"
    code, _ = run(["play", "stars", "--seats", "heuristic,heuristic", "--players", "2", "--seed", "5", "-q",
                   "--save", str(over)])
    assert code == 0
    rec = json.loads(over.read_text())
    reasons = rec["meta"]["reasons"]
    assert len(reasons) > 20 and all(1 <= r["n"] <= len(rec["actions"]) and r["seat"] in (0, 1) for r in reasons)
    assert any("up to $" in r["text"] or "worth $" in r["text"] for r in reasons)
