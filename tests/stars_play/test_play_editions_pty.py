"""`rolling play stars` through a real pseudo-terminal: the v2.2 edition speaks v2.2 (names, codes,
help, errors), and the secret-money variant keeps other players' cash out of what a player reads."""

import json
import re

import pexpect

from rolling.bots import make_bot
from rolling.core.record import GameRecord, save_record
from rolling.games.stars import BuyShare, Config, new_game
from rolling.games.stars import data as D

from .test_play_pty import PROMPT, spawn

STARS_NAMES = ("Prussian Railway", "Doppler AG", "Synergistic", "Vintage Machinery", "Stars, Inc.", "Stock Masters", "Junkyard Scrappers", "Overseas Trading")
SYMBOLS = "|".join(D.CORP_SYMBOLS)


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def plain(text):
    """What a person reads: the terminal's colour and style codes removed."""
    return ANSI.sub("", text)


def run_to_end(child):
    child.expect(pexpect.EOF, timeout=300)
    child.close()
    return plain(child.before)


def stars_corporations_in(text):
    """Places where a Rolling Stock Stars corporation is named: its name, or its symbol where the
    screen puts a corporation (shares 'PR×2', share price row '[14:PR]', the table's 'PR Jupiter',
    menus 'a share of PR'); the symbols that are no company code anywhere as words."""
    found = [n for n in STARS_NAMES if n in text]
    found += re.findall(rf"\b(?:{SYMBOLS})×|:(?:{SYMBOLS})\]|\b(?:{SYMBOLS}) (?:{'|'.join(D.CORP_NAMES['v2.2'])})\b", text)
    found += re.findall(r"\b(?:DA|VM|SI|SM|JS|OS|S)\b", text)
    return found


def test_v22_bots_game_shows_only_v22_names(tmp_path):
    """Issue 10, B8 acceptance: a v2.2 game of bots finishes and names corporations only as v2.2 does."""
    child = spawn(["--edition", "v2.2", "--seats", "heuristic,heuristic,heuristic", "--seed", "1"], tmp_path)
    out = run_to_end(child)
    assert child.exitstatus == 0 and "Final standings" in out
    assert "Rolling Stock (rules v2.2)" in out and "Rolling Stock Stars" not in out
    assert stars_corporations_in(out) == []
    assert re.search(r"\b(?:JUP|SAT|HOR|BEA|STA|EAG|SHI|ORI) (?:Jupiter|Saturn|Horse|Bear|Star|Eagle|Ship|Orion)\b", out)


def test_the_stars_check_finds_stars_names(tmp_path):
    """The check above is able to fail: the same game in the stars edition names its corporations."""
    out = run_to_end(spawn(["--seats", "heuristic,heuristic,heuristic", "--seed", "1"], tmp_path))
    assert stars_corporations_in(out)


def test_bad_player_count_names_the_editions_range(tmp_path):
    """000: "A card game for three to six players"; the error says so, in the edition's title."""
    child = spawn(["--edition", "v2.2", "--seats", "heuristic,heuristic"], tmp_path)
    out = run_to_end(child)
    assert child.exitstatus == 2 and "Rolling Stock (rules v2.2) is for 3 to 6 players, not 2" in out
    assert "Traceback" not in out


def v22_game_where_player_1_may_buy(path):
    """Save a v2.2 game of bots played until Player 1 (a human from now on) may buy a share."""
    s = new_game(Config(players=3, edition="v2.2"), 4)
    bots = [make_bot("stars", "heuristic", seed=k) for k in range(3)]
    record = GameRecord("stars", s.config.to_json(), 4, [], {"seats": ["human", "heuristic", "heuristic"]})
    while not (s.phase == 1 and s.to_act == (0,) and s.auction is None and any(m.kind is BuyShare for m in s.legal_moves(0))):
        seat = s.to_act[0]
        action = bots[seat].choose(s, seat)
        s.apply(action)
        record.actions.append(action.to_json())
        assert not s.is_over
    save_record(record, path)
    c = next(D.CORP_INDEX[m.args["corporation"]] for m in s.legal_moves(0) if m.kind is BuyShare)
    return len(record.actions), c


def test_v22_commands_take_v22_codes_and_records_keep_symbols(tmp_path):
    """v2.2 at the keyboard: help lists v2.2 codes, a Stars symbol is an unknown corporation, a v2.2
    code buys; the record holds the canonical symbol (docs/stars-engine.md, Editions)."""
    save = tmp_path / "v22.json"
    n, c = v22_game_where_player_1_may_buy(save)
    code = D.CORP_CODES["v2.2"][c]
    child = spawn(["--resume", str(save)], tmp_path)
    child.expect(PROMPT)
    screen = plain(child.before)
    assert code in screen and stars_corporations_in(screen) == []
    child.sendline("help")
    child.expect("buy JUP")
    child.expect(PROMPT)
    assert "Jupiter" in child.before and stars_corporations_in(plain(child.before)) == []
    child.sendline(f"buy {D.CORP_SYMBOLS[c]}")
    child.expect(r"unknown corporation '\w+' \(corporations: JUP, SAT, HOR, BEA, STA, EAG, SHI, ORI\)")
    child.expect(PROMPT)
    child.sendline(f"buy {code.lower()}")
    child.expect(PROMPT)
    actions = json.loads(save.read_text())["actions"]
    assert actions[n] == {"type": "buy_share", "seat": 0, "corporation": D.CORP_SYMBOLS[c]}
    child.sendline("quit")
    run_to_end(child)
    assert child.exitstatus == 0


def pass_through(args, tmp_path, decisions=60):
    """Player 1 passes (or leaves, or is done) at every decision; returns all the terminal showed."""
    child = spawn([*args, "--seats", "human,bot:random,bot:random,heuristic", "--seed", "1", "--save", str(tmp_path / "g.json")], tmp_path)
    seen = []
    for _ in range(decisions):
        if child.expect([PROMPT, pexpect.EOF], timeout=120) == 1:
            break
        seen.append(plain(child.before))
        # pass is not leave (001, easily missed rules): in an auction pass would ask first
        child.sendline("leave" if "leave the auction" in seen[-1] else "pass")
    else:
        child.sendline("quit")
    seen.append(run_to_end(child))
    return "".join(seen)


def test_secret_money_terminal_hides_why_others_pass(tmp_path):
    """Secret money (002, 3.2) at the keyboard: Player 1 reads why they themselves had to pass, but
    another player's automatic pass reads as a plain pass; with open money the reason shows."""
    others = re.compile(r"(?:Random|Heuristic) \d passes \(no other action possible\)")
    open_money = pass_through([], tmp_path)
    assert others.search(open_money)
    secret = pass_through(["--variant", "secret-money"], tmp_path)
    assert not others.search(secret)
    assert re.search(r"(?:Random|Heuristic) \d passes\.", secret)
    assert "Player 1 passes (no other action possible)." in secret
