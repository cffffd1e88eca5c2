"""Issue 11, "what a player at the table sees": the Stars screen's content and size at 100 x 30,
and the detail commands (``show company``, ``show corp``, ``row``)."""

import re

import pexpect
from rich.console import Console

from rolling.games.stars import FormCorporation
from rolling.games.stars import data as D
from rolling.ui.session import PlaySession
from rolling.ui.stars import StarsScreen
from rolling.ui.stars_screen import company_detail, corp_detail, row_detail

from .scenarios import reach, save
from .test_play_editions_pty import plain
from .test_play_pty import spawn


def screen_text(s_cond, seats=("human",) * 4, **kw):
    record, s = reach(s_cond, **kw)
    session = PlaySession(record, list(seats), None)
    console = Console(width=100, record=True, color_system=None, file=open("/dev/null", "w"))  # noqa: SIM115
    seat = session.next_seat()
    StarsScreen().show(session, seat, console, True)
    return console.export_text(), session.state, seat


def test_screen_fits_100_by_30_with_many_ipo_choices_phase9_ipo():
    """Phase 9 with every charter free: the screen and the whole IPO menu fit in 29 lines of 100
    columns (the prompt is the 30th), and the menu says what each corporation does."""
    text, s, seat = screen_text(lambda s: s.phase == 9 and sum(m.kind is FormCorporation for m in s.legal_moves(s.to_act[0])) > 30)
    lines = text.rstrip("\n").splitlines()
    assert len(lines) <= 29 and max(len(x) for x in lines) <= 100
    assert "+$1 income per company" in text and "you pay" in text and "treasury" in text


def test_screen_shows_net_worth_as_the_final_scoring_counts_it():
    """Game end: a player's score is cash, companies' face values and shares at their price."""
    text, s, seat = screen_text(lambda s: s.phase == 1 and s.turn >= 5)
    for row in s.standings():
        name = s.names[row["seat"]]
        assert re.search(rf"{name}\s+\${s.cash[row['seat']]}\s+\${row['score']}\s", text), name


def test_show_company_names_colour_numbers_and_synergy_partners_with_owners():
    _, s = reach(lambda s: s.phase == 1 and s.turn >= 4)
    v = s.view(0)
    owned = next(c for p in v["players"] for c in p["companies"])
    out = "\n".join(company_detail(v, owned["code"]))
    i = D.INDEX[owned["code"]]
    assert f"{D.COLORS[D.COLOR[i]]}, face value ${D.FACE[i]}, income ${D.INCOME[i]}" in out
    assert f"price span ${D.SPAN_LO[i]}-${D.SPAN_HI[i]}" in out and "held by" in out
    for j, bonus in D.SYNERGY[i]:
        assert f"{D.CODES[j]} +${bonus} (" in out


def test_show_corp_gives_the_ability_in_the_rule_books_words():
    _, s = reach(lambda s: s.phase == 1 and any(s.corp_active))
    v = s.view(0)
    c = s.active_corps()[0]
    out = "\n".join(corp_detail(v, D.CORP_SYMBOLS[c], "stars"))
    assert D.CORP_ABILITY[c] in out and "Stars " in out and "Income: printed" in out
    free = next(k for k in range(D.N_CORPS) if not s.corp_active[k])
    assert "charter is free" in "\n".join(corp_detail(v, D.CORP_SYMBOLS[free], "stars"))


def test_row_shows_max_dividend_ipo_colours_and_stars_needed():
    """Share price cards: maximum dividend, IPO colours and stars required by issued shares."""
    _, s = reach(lambda s: True)
    console = Console(width=100, record=True, color_system=None, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(row_detail(s.view(0)))
    text = console.export_text()
    assert all(len(x) <= 100 for x in text.splitlines())
    assert "max div" in text and "IPO" in text and "★ 7 sh." in text
    row = next(x for x in text.splitlines() if x.startswith("max div")).split()[2:]
    assert [int(x) for x in row] == list(D.MAX_DIVIDEND)


def test_details_commands_at_the_terminal(tmp_path):
    """``show company``, ``show corp`` and ``row`` answer on screen and record nothing."""
    record, s = reach(lambda s: s.phase == 1 and s.turn >= 3 and s.auction is None and any(s.corp_active))
    path = tmp_path / "g.json"
    save(record, path)
    child = spawn(["--resume", str(path), "--seats", "human,human,human,human"], tmp_path, rows=30, cols=100)
    child.expect(r"Player \d> ")
    child.sendline(f"show corp {D.CORP_SYMBOLS[s.active_corps()[0]]}")
    child.expect(re.escape(D.CORP_ABILITY[s.active_corps()[0]][:30]))
    child.expect(r"Player \d> ")
    child.sendline("show company MHE")
    child.expect("face value \\$8")
    child.expect(r"Player \d> ")
    child.sendline("row")
    child.expect("max div")
    child.expect(r"Player \d> ")
    child.sendline("show nothing")
    child.expect("usage: show company CODE")
    child.expect(r"Player \d> ")
    assert "Traceback" not in plain(child.before)
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_screen_warns_before_phase4_ends_of_a_corporation_that_cannot_pay_phase5():
    """Collect Income: the screen of phases 3 and 4 names a corporation that could not pay."""
    record, s = reach(lambda s: s.phase == 4 and any(s.corp_active) and len(s.to_act) == 1)
    session = PlaySession(record, ["human"] * 4, None)
    c = session.state.active_corps()[0]
    session.state.deck, session.state.end_flipped, session.state.corp_cash[c] = [], True, 0
    console = Console(width=100, record=True, color_system=None, file=open("/dev/null", "w"))  # noqa: SIM115
    StarsScreen().show(session, session.next_seat(), console, True)
    assert f"Phase 5: {D.CORP_SYMBOLS[c]} has $0 and an income of -$" in console.export_text()
