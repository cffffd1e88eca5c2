"""Issue 28 item 10: Freight and the rest at the terminal. The Freight log names the players as
``--names`` does; dice count from 1 in the engine's messages as on the screen; no stale done marks
in Stars phases 5-9; a forced closing (phase 4) is refused in words, not asked and then refused;
the names error says how many names are needed; the previews a player needs to decide (the
income change of answering an offer, what the other players earn from a Freight route, what the
dice faces mean)."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from rich.console import Console

from rolling.bots import make_bot
from rolling.core.errors import IllegalAction
from rolling.core.record import GameRecord, save_record
from rolling.games.freight import config_from_json, new_game, previews
from rolling.games.freight.actions import EndTurn, EstablishRoute
from rolling.games.freight.payment import describe as describe_token
from rolling.games.freight.payment import parse_pay
from rolling.games.stars import Close, Done, Respond
from rolling.games.stars import data as D
from rolling.games.stars import previews as stars_previews
from rolling.games.stars.closing import must_close
from rolling.games.stars.procedures import income_of
from rolling.games.stars.state import CORP_BASE
from rolling.ui import freight as ui_freight
from rolling.ui.session import PlaySession
from rolling.ui.stars import StarsScreen
from rolling.ui.stars_input import InputError, cautions, describe
from stars_play.scenarios import reach

from .test_resume_seats import SRC


def rolling_cli(*args):
    env = {"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin", "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "rolling.cli.main", *args], env=env, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)


def test_freight_log_names_the_players_as_names_gives_them(tmp_path):
    """``rolling play freight --names``: the game's log (the narration) says Ann, Bob and Cy."""
    r = rolling_cli("play", "freight", "--seats", "heuristic,random,random", "--names", "Ann,Bob,Cy", "--seed", "2",
                    "--save", str(tmp_path / "g.json"))
    assert r.returncode == 0, r.stderr
    assert "Ann is the start player" in r.stdout or "Ann drafts" in r.stdout
    assert "Bob" in r.stdout and "Cy" in r.stdout
    assert "Player 1" not in r.stdout and "Player 2" not in r.stdout


def freight_turn(seed: int = 1):
    """A Freight state in a turn (after the opening draft), the seat to act."""
    st = new_game(config_from_json({"map": "west-coast", "players": 3}), seed)
    bots = [make_bot("freight", "random", seed=k) for k in range(3)]
    while st.stage == "draft":
        st.apply(bots[st.to_act[0]].choose(st, st.to_act[0]))
    return st, st.to_act[0]


def test_freight_engine_messages_count_dice_from_one_as_the_screen_does():
    """The engine's errors name dice as the screen numbers them (``1:red``: die 1)."""
    st, seat = freight_turn()
    p = st.players[seat]
    assert f"1:{p.dice[0]}" in ui_freight.dice_line(st, seat, "Ann")
    assert describe_token(p, ("d", 0)) == f"die 1 ({p.dice[0]})"
    for pay, reason in ((f"{len(p.dice)}", f"there is no die {len(p.dice) + 1} (your dice are 1-{len(p.dice)})"),
                        ("0 0", "die 1 is already spent")):
        with pytest.raises(IllegalAction) as e:
            parse_pay(pay, p, "a rule")
        assert reason in e.value.reason


def test_freight_stockpile_error_counts_dice_from_one():
    """F. Stockpiling: a split die named as a colour it does not show, named by its number from 1."""
    for seed in range(1, 30):
        st, seat = freight_turn(seed)
        p = st.players[seat]
        splits = [i for i, f in enumerate(p.dice) if "/" in f and not p.spent[i]]
        if splits:
            break
    i = splits[0]
    wrong = next(c for c in ("blue", "gray", "red", "yellow") if c not in p.dice[i].split("/"))
    store = " ".join(wrong if k == i else p.dice[k].split("/")[0] for k in splits)
    with pytest.raises(IllegalAction) as e:
        st.clone().apply(EndTurn(seat, store))
    assert f"die {i + 1} ({p.dice[i]}) cannot be stored as {wrong}" in e.value.reason


def screen_text(s, record, seat):
    session = PlaySession(record, ["human"] * len(s.names), None)
    out = io.StringIO()
    StarsScreen().show(session, seat, Console(file=out, width=100, color_system=None), True)
    return out.getvalue()


@pytest.mark.parametrize("phase", [6, 8, 9])
def test_no_stale_done_marks_after_phase4(phase):
    """Stars: the done marks of phases 3 and 4 are not shown in the later phases."""
    record, s = reach(lambda s: s.phase == phase and s.done != 0)
    table = screen_text(s, record, s.to_act[0]).split("corporation")[0]
    assert " done" not in table and "passed" not in table


def forced_closing():
    """A phase 4 position where the player to act could not pay phase 5 (reached by random bots)."""
    return reach(lambda s: s.phase == 4 and bool(s.to_act) and must_close(s, s.to_act[0]))


def test_forced_closing_says_what_to_close_instead_of_asking_done_anyway():
    """Phase 4: a player who could not pay phase 5 must close companies first; ``done`` says so
    (naming the companies) and does not ask "Done anyway?" only for the engine to refuse the y."""
    record, s = forced_closing()
    seat = s.to_act[0]
    assert income_of(s, seat) + s.cash[seat] < 0
    with pytest.raises(InputError, match="close companies with negative income first \\("):
        cautions(s, seat, Done(seat))


def test_forced_closing_at_the_terminal(tmp_path):
    """The same typed at a terminal (pexpect): ``done`` gets the reason and the prompt again, no
    question; the closing it asks for is then accepted."""
    import pexpect

    from stars_play.test_play_pty import spawn

    record, s = forced_closing()
    seat = s.to_act[0]
    path = tmp_path / "g.json"
    save_record(record, path)
    child = spawn(["--resume", str(path), "--seats", ",".join(["human"] * len(s.names))], tmp_path, rows=30, cols=100)
    prompt = f"{s.names[seat]}> "
    child.expect_exact(prompt)
    child.sendline("done")
    child.expect("close companies with negative")
    child.expect_exact(prompt)
    assert "(y/n)" not in child.before and "anyway" not in child.before
    company = next(m.args["company"] for m in s.legal_moves(seat) if m.kind is Close)
    child.sendline(f"close {company}")
    child.expect(r"> ")
    assert "Not allowed" not in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_names_error_says_how_many_names_are_needed_two_handed_with_two_seats():
    r = rolling_cli("play", "stars", "--variant", "two-handed", "--seats", "human,bot")
    assert r.returncode == 2 and "four seats" in r.stderr and "--names" not in r.stderr
    r = rolling_cli("play", "stars", "--variant", "two-handed", "--players", "2")
    assert r.returncode == 2 and "four seats" in r.stderr
    r = rolling_cli("play", "stars", "--seats", "human,bot,bot", "--names", "Ann,Bob")
    assert r.returncode == 2 and "--names gives 2 names, but 3 are needed" in r.stderr


def test_answering_an_offer_shows_the_income_change_of_both_sides_phase3():
    """Phase 3: each answer to a proposal says what the sale does to the seller's and the buying
    corporation's income (the engine's previews)."""
    record, s = reach(lambda s: s.phase == 3 and s.announcement is None
                      and any(m.kind is Respond for p in s.to_act for m in s.legal_moves(p)))
    seat = next(p for p in s.to_act if any(m.kind is Respond for m in s.legal_moves(p)))
    m = next(m for m in s.legal_moves(seat) if m.kind is Respond)
    assert s.announcement is None and "announcer" not in m.args
    c, i = D.CORP_INDEX[m.args["corporation"]], D.INDEX[m.args["company"]]
    owner = s.company_owner[i]
    lose = stars_previews.income_change(s, owner, remove=(i,)).gain
    gain = stars_previews.purchase(s, c, i).gain
    seller = "you" if owner < CORP_BASE else s.corp_code(owner - CORP_BASE)
    assert f"(income: {seller} {lose:+d}/turn, {s.corp_code(c)} {gain:+d}/turn)" in describe(s, m)
    assert f"{s.corp_code(c)} {gain:+d}/turn" in screen_text(s, record, seat)


def test_a_pre_emption_shows_the_income_the_corporation_gains_phase3():
    """Phase 3: pre-empting an announced purchase from the foreign investor says what the
    company adds to the pre-empting corporation's income (the engine's preview)."""
    record, s = reach(lambda s: s.phase == 3 and s.announcement is not None and any(
        m.kind is Respond and m.args["accept"] for p in s.to_act for m in s.legal_moves(p)))
    seat = next(p for p in s.to_act if any(m.kind is Respond for m in s.legal_moves(p)))
    m = next(m for m in s.legal_moves(seat) if m.kind is Respond and m.args["accept"])
    c, i = D.CORP_INDEX[m.args["corporation"]], D.INDEX[m.args["company"]]
    gain = stars_previews.purchase(s, c, i).gain
    assert describe(s, m).endswith(f"(income {s.corp_code(c)} {gain:+d}/turn)")


def test_freight_route_menu_line_says_what_other_players_earn():
    """C: a major route over another player's links pays them; the menu says how much."""
    st = new_game(config_from_json({"map": "west-coast", "players": 3, "names": ["Ann", "Bob", "Cy"]}), 1)
    bots = [make_bot("freight", "heuristic", seed=k) for k in range(3)]
    for _ in range(2000):
        seat = st.to_act[0]
        found = [(a, previews.route(st, a)) for a in st.legal_actions(seat) if isinstance(a, EstablishRoute)]
        found = [(a, pv) for a, pv in found if any(o != seat and amt for o, _, amt in pv.payouts)]
        if found:
            break
        st.apply(bots[seat].choose(st, seat))
    a, pv = found[0]
    line = ui_freight.describe(st, a)
    for o in {o for o, _, amt in pv.payouts if o != seat and amt}:
        assert f", {st.name(o)} ${pv.earns(o)}" in line


def test_freight_dice_faces_are_explained_where_the_dice_are_shown():
    """003, Dice symbols and the improvement dice: a split face and each symbol on a player's
    dice are explained under them on the screen."""
    for seed in range(1, 40):
        st, seat = freight_turn(seed)
        if any("/" in f for f in st.players[seat].dice):
            break
    cfg = st.config.to_json()
    record = GameRecord("freight", cfg, seed, [], {})
    session = PlaySession(record, ["human"] * 3, None)
    session.state = st
    out = io.StringIO()
    ui_freight.FreightScreen().show(session, seat, Console(file=out, width=100, color_system=None), True)
    assert "either colour, or the split die a Slash (ocean) contract needs" in out.getvalue()
    assert ui_freight.dice_legend(st, seat)[0].startswith("blue/gray etc.")
    st.players[seat].dice = ["wild", "red"]
    assert ui_freight.dice_legend(st, seat) == [ui_freight.FACE_MEANING["wild"]]
    st.players[seat].dice = ["red", "gray"]
    assert ui_freight.dice_legend(st, seat) == [], "plain colours need no legend"
