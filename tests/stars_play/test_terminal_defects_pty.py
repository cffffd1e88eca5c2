"""Issue 11: defects of Rolling Stock Stars in the terminal, each reproduced through a real
pseudo-terminal of 100 x 30 (pexpect) from a position reached with seeded bots
(:mod:`.scenarios`) and resumed with people in the seats."""

import json
import re

import pexpect

from rolling.games.stars import Close, Done, Offer
from rolling.games.stars import data as D
from rolling.games.stars.closing import must_close

from .scenarios import reach, save
from .test_play_editions_pty import plain
from .test_play_pty import spawn

PROMPT = r"(Player \d)> "
HOTSEAT4 = "human,human,human,human"


def actions(path):
    return json.loads(path.read_text())["actions"]


def start(tmp_path, record, seats=HOTSEAT4):
    path = tmp_path / "game.json"
    save(record, path)
    child = spawn(["--resume", str(path), "--seats", seats], tmp_path, rows=30, cols=100)
    child.expect(PROMPT)
    return child, path


def menu_item(child, pattern):
    """The number of the first menu line of the last screen matching ``pattern`` (and the match)."""
    for line in plain(child.before).splitlines():
        m = re.match(r"\s*(\d+)\. " + pattern, line)
        if m:
            return m
    raise AssertionError(f"no menu line matches {pattern!r} in:\n{plain(child.before)}")


def quit_(child):
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()


def test_defect1_menu_number_asks_for_the_amount_phase3_acquisition(tmp_path):
    """Phase 3 (Acquisition), a purchase "within the company's price span": the number of a menu
    line with a range asks for the amount, and the amount typed is never read as another line."""

    def ranged_offer(s):
        return s.phase == 3 and any(m.kind is Offer and m.hi > m.lo for m in s.legal_moves(s.to_act[0]))

    record, s = reach(ranged_offer)
    child, path = start(tmp_path, record)
    m = menu_item(child, r"(\w+) buys (\w+) from .*\(\$(\d+)-\$(\d+)\)")
    n, corp, company, lo = m.group(1), m.group(2), m.group(3), int(m.group(4))
    before = len(actions(path))
    child.sendline(n)
    child.expect(r"Amount for .*\$\d+ to \$\d+")
    child.sendline("1" if lo == 1 else str(lo))
    child.expect(PROMPT)
    done = actions(path)[before:]
    assert done and done[0]["type"] == "offer"
    assert done[0]["corporation"] == corp
    assert done[0]["company"] == company and done[0]["price"] == lo
    quit_(child)


def test_defect1_amount_out_of_range_is_not_a_menu_number_phase1_auction(tmp_path):
    """Auction: a first bid below the face value is refused as an amount; nothing is chosen."""
    record, s = reach(lambda s: s.phase == 1 and s.auction is None and s.turn == 1)
    child, path = start(tmp_path, record)
    m = menu_item(child, r"auction (\w+) \(face \$(\d+).*\(\$(\d+)-\$(\d+)\)")
    face = int(m.group(3))
    before = len(actions(path))
    child.sendline(m.group(1))
    child.expect("Amount for")
    child.sendline(str(face - 1) if face > 1 else "0")
    child.expect("the amount must be between")
    child.expect(PROMPT)
    assert len(actions(path)) == before
    child.sendline(f"{m.group(1)} {face}")
    child.expect(PROMPT)
    first = actions(path)[before]
    assert first["type"] == "start_auction" and first["company"] == m.group(2) and first["bid"] == face
    quit_(child)


def test_defect2_bid_names_the_running_auction_auction(tmp_path):
    """Auction: ``bid OTHER 9`` while the auction of another company runs is refused, naming the
    auction that runs; no bid is recorded."""

    def auction_with_other_company(s):
        return (s.phase == 1 and s.auction is not None and s.cash[s.to_act[0]] > s.auction[1] + 1
                and any(i != s.auction[0] for i in s.offering))

    record, s = reach(auction_with_other_company)
    running = D.CODES[s.auction[0]]
    other = next(D.CODES[i] for i in s.offering if i != s.auction[0])
    child, path = start(tmp_path, record)
    before = len(actions(path))
    child.sendline(f"bid {other} {s.auction[1] + 1}")
    child.expect(f"the auction of {running} is running")
    child.expect(PROMPT)
    assert len(actions(path)) == before
    child.sendline(f"bid {running} {s.auction[1] + 1}")
    child.expect(PROMPT)
    assert actions(path)[before] == {"type": "bid", "seat": s.to_act[0], "amount": s.auction[1] + 1}
    quit_(child)


def test_defect3_news_shows_what_followed_done_phase4_to_phase5_income(tmp_path):
    """Phase 4 then phase 5 (Income): after ``done`` ends phase 4, the next decision of the same
    seat first shows the income its companies earned in phase 5."""

    def last_to_close(s):
        return s.phase == 4 and len(s.to_act) == 1 and s.to_act[0] == 0 and any(m.kind is Done for m in s.legal_moves(0))

    record, s = reach(last_to_close)
    child, path = start(tmp_path, record, seats="human,heuristic,heuristic,heuristic")
    child.sendline("done")
    child.expect(PROMPT)
    news = plain(child.before)
    assert f"Turn {s.turn}, phase 5" in news and "earns $" in news
    quit_(child)


def test_defect3_news_shows_the_auction_won_after_leave_auction(tmp_path):
    """Auction: after Player 1 leaves and a bot wins, the next decision shows who won it."""

    def two_left_in_auction(s):
        return (s.phase == 1 and s.auction is not None and s.to_act[0] == 0
                and bin(s.auction[5]).count("1") == 2 and s.auction[2] != 0)

    record, s = reach(two_left_in_auction)
    child, path = start(tmp_path, record, seats="human,heuristic,heuristic,heuristic")
    child.sendline("leave")
    child.expect(PROMPT)
    news = plain(child.before)
    assert "Player 1 leaves the auction." in news
    assert f"wins {D.CODES[s.auction[0]]} for $" in news
    quit_(child)


def test_defect3_news_shows_every_event_after_the_pass_that_ended_phase1_wrap_up(tmp_path):
    """Phase 1 ends when all players have passed; phase 2 (Wrap-up): the foreign investor buys and
    the new player order is set. All of it, and the pass itself, comes before the seat's next
    decision, however long the news (here more than 60 lines, which used to be cut)."""

    def last_to_pass(s):
        return (s.phase == 1 and s.auction is None and s.to_act[0] == 0 and s.turn >= 3
                and bin(s.passed).count("1") == s.n - 1)

    record, s = reach(last_to_pass, seeds=range(23, 24))
    child, path = start(tmp_path, record, seats="human,heuristic,heuristic,heuristic")
    child.sendline("pass")
    child.expect(PROMPT)
    news = plain(child.before)
    assert "Player 1 passes." in news
    assert "The foreign investor buys" in news and "New player order:" in news
    assert "earlier lines not shown" not in news
    quit_(child)


def test_defect3_undo_starts_the_news_at_the_restored_point(tmp_path):
    """Undo: the position before the decision is shown again, not the game from turn 1. (Phase 4,
    the last player closing: nobody else moves between two of their decisions, so the first may be
    taken back.)"""
    record, s = reach(lambda s: s.phase == 4 and s.to_act == (0,) and not must_close(s, 0)
                      and len([m for m in s.legal_moves(0) if m.kind is Close]) >= 2)
    child, path = start(tmp_path, record, seats="human,heuristic,heuristic,heuristic")
    before = len(actions(path))
    company = next(m.args["company"] for m in s.legal_moves(0) if m.kind is Close)
    child.sendline(f"close {company}")
    child.expect(PROMPT)
    assert len(actions(path)) == before + 1
    child.sendline("undo")
    child.expect("Back to Player 1's previous decision")
    child.expect(PROMPT)
    shown = plain(child.before)
    assert "The game so far" not in shown and "Turn 1, phase 1" not in shown
    assert len(actions(path)) == before
    quit_(child)


def test_defect4_hotseat_undo_never_takes_back_another_persons_decision(tmp_path):
    """Several people at one keyboard see each other's decisions: one's undo never takes back
    another's (the undo-can-probe hole, tests/core/test_undo_probe.py); it says whose move stands
    in the way and changes nothing."""
    record, s = reach(lambda s: True, players=3)
    child, path = start(tmp_path, record, seats="human,human,human")
    first = child.match.group(1)
    child.sendline("pass")
    child.expect(PROMPT)
    second = child.match.group(1)
    child.sendline("pass")
    child.expect(PROMPT)
    m = menu_item(child, r"auction (\w+) \(face \$(\d+)")
    child.sendline(f"{m.group(1)} {m.group(3)}")
    child.expect(PROMPT)
    assert child.match.group(1) == first  # the first player bids or leaves
    child.sendline("undo")
    child.expect(rf"Not undone: undo would go back past a move of {second}\.")
    child.expect(PROMPT)
    assert len(actions(path)) == 3
    quit_(child)


def test_defect5_pass_in_an_auction_is_not_leave_auction(tmp_path):
    """Auction (and "easily missed rules"): pass and leaving an auction are entirely different
    things; ``pass`` during an auction says so and asks before leaving."""
    record, s = reach(lambda s: s.phase == 1 and s.auction is not None and s.cash[s.to_act[0]] > s.auction[1])
    child, path = start(tmp_path, record)
    before = len(actions(path))
    child.sendline("pass")
    child.expect(r"Pass is not leaving the auction.*\(y/n\)")
    child.sendline("n")
    child.expect("Nothing done.")
    child.expect(PROMPT)
    assert len(actions(path)) == before
    child.sendline("pass")
    child.expect(r"\(y/n\)")
    child.sendline("y")
    child.expect(PROMPT)
    assert actions(path)[before] == {"type": "leave_auction", "seat": s.to_act[0]}
    quit_(child)


def test_defect5_done_with_open_proposals_offers_to_reject_them_phase3_acquisition(tmp_path):
    """Phase 3 (Acquisition): the answers show the price; ``done`` with proposals open names them
    and offers to reject them all."""

    def proposals_open(s):
        p = s.to_act[0] if s.phase == 3 else None
        return (p is not None and any(x[3] == p for x in s.pending)
                and any(m.kind is Done for m in s.legal_moves(p)))

    record, s = reach(proposals_open)
    seat = s.to_act[0]
    mine = [x for x in s.pending if x[3] == seat]
    child, path = start(tmp_path, record)
    c, i, price, _ = mine[0]
    menu_item(child, rf"accept: {D.CORP_SYMBOLS[c]} buys {D.CODES[i]} from you for \${price}")
    before = len(actions(path))
    child.sendline("done")
    child.expect(rf"Open proposals to you: {D.CORP_SYMBOLS[c]} offers \${price} for {D.CODES[i]}")
    child.expect(r"Reject them all and be done\? \(y/n\)")
    child.sendline("y")
    child.expect(PROMPT)
    done = actions(path)[before:]
    assert [a["type"] for a in done[: len(mine) + 1]] == ["respond"] * len(mine) + ["done"]
    assert all(a["accept"] is False for a in done[: len(mine)])
    quit_(child)


def test_four_seats_of_every_kind_start(tmp_path):
    """``rolling play stars --seats human,bot,bot:random,bot:heuristic`` starts and waits for Player 1."""
    child = spawn(["--seats", "human,heuristic,bot:random,bot:heuristic", "--seed", "2", "--save", str(tmp_path / "g.json")],
                  tmp_path, rows=30, cols=100)
    child.expect("Player 1> ")
    quit_(child)
    assert child.exitstatus == 0

