"""Editions: the v2.2 names everywhere a person reads, its own short codes, its player range, and
game records that hold the canonical symbols in every edition (issue 10, B8)."""

import re

import pytest

from rolling.core.errors import IllegalAction, RecordError
from rolling.core.record import GameRecord, replay
from rolling.core.rng import Rng
from rolling.games.stars import BuyShare, Config, Offer, SellShare, new_game
from rolling.games.stars import data as D
from rolling.games.stars import events as E
from rolling.games.stars.bench import sample_record
from rolling.games.stars.config import PLAYERS
from rolling.ui.stars_input import InputError, help_text, menu, parse

from .conftest import blank, corp

V22 = ("Jupiter", "Saturn", "Horse", "Bear", "Star", "Eagle", "Ship", "Orion")
STARS_NAMES = D.CORP_NAMES["stars"]


def v22_blank(players=3):
    s = blank(players)
    s.config = Config(players=players, edition="v2.2", names=s.names)
    return s


def test_v22_codes_clash_with_no_company_code_and_no_stars_symbol():
    """Rules README: the v2.2 names Jupiter ... Orion. The v2.2 text has no short names; ours are
    distinct and none is a company code (the symbol PR is also a company) or a Stars symbol."""
    codes = D.CORP_CODES["v2.2"]
    assert D.CORP_NAMES["v2.2"] == V22
    assert codes == ("JUP", "SAT", "HOR", "BEA", "STA", "EAG", "SHI", "ORI")
    assert len(set(codes)) == 8
    assert not set(codes) & set(D.CODES) and not set(codes) & set(D.CORP_SYMBOLS)
    assert "PR" in D.CODES and "PR" in D.CORP_SYMBOLS  # why v2.2 may not simply reuse the symbols


def test_player_count_error_names_the_editions_range():
    """000: "A card game for three to six players"; each edition's message comes from its own range."""
    with pytest.raises(RecordError, match=r"^Rolling Stock \(rules v2\.2\) is for 3 to 6 players, not 2$"):
        Config(players=2, edition="v2.2").validate()
    with pytest.raises(RecordError, match=r"3 to 6 players, not 7"):
        Config(players=7, edition="v2.2").validate()
    lo, hi = PLAYERS["stars"]
    with pytest.raises(RecordError, match=rf"^Rolling Stock Stars is for {lo} to {hi} players, not 7$"):
        Config(players=7).validate()


def test_v22_view_names_corporations_by_v22_codes():
    """What a v2.2 seat sees names corporations by v2.2 code and name; the symbol is given beside."""
    s = v22_blank()
    corp(s, "PR", ["MHE", "KME"], 11, cash=14, holders={0: 1})
    v = s.view(1)
    assert v["title"] == "Rolling Stock (rules v2.2)"
    c = v["corporations"][0]
    assert (c["code"], c["name"], c["symbol"]) == ("JUP", "Jupiter", "PR")
    assert v["players"][0]["shares"] == {"JUP": 1}
    assert [r["corporation"] for r in v["share_price_row"] if r["corporation"]] == ["JUP"]
    assert v["charters_free"] == ["SAT", "HOR", "BEA", "STA", "EAG", "SHI", "ORI"]


def test_v22_log_uses_v22_names():
    s = v22_blank()
    s.enable_log()
    corp(s, "OS", ["WT", "BY"], 16, cash=30, holders={0: 1})
    s.log.append((E.BUY_COMPANY, E.PUBLIC, D.OVERSEAS, D.INDEX["PR"], 20, 19))
    s.log.append((E.CLOSE, E.PUBLIC, 10 + D.OVERSEAS, D.INDEX["WT"]))
    assert s.log_lines(start=1) == ["Orion buys PR from the foreign investor for $19.", "Orion closes WT."]


def test_v22_rule_errors_name_v22_corporations():
    """Buy One Share of a corporation that does not exist: refused, in v2.2 names, state unchanged."""
    s = v22_blank()
    before = s.digest()
    with pytest.raises(IllegalAction, match="Buy One Share: Jupiter is not an existing corporation"):
        s.apply(BuyShare(0, "PR"))
    with pytest.raises(IllegalAction, match="Sell One Share: Saturn is not an existing corporation"):
        s.apply(SellShare(0, "DA"))
    assert s.digest() == before


def test_typed_corporations_are_the_editions_codes_or_names():
    """Commands take the edition's codes (and one-word names); the action holds the symbol."""
    s = v22_blank()
    corp(s, "PR", ["MHE", "KME"], 11, cash=14, holders={0: 1})
    items = menu(s, 0)
    assert parse(s, 0, "buy JUP", items) == BuyShare(0, "PR")
    assert parse(s, 0, "buy jupiter", items) == BuyShare(0, "PR")
    assert parse(s, 0, "sell Jup", items) == SellShare(0, "PR")
    with pytest.raises(InputError, match=r"unknown corporation 'PR' \(corporations: JUP, SAT, HOR, BEA, STA, EAG, SHI, ORI\)"):
        parse(s, 0, "buy PR", items)
    with pytest.raises(InputError, match="Orion is not an existing corporation"):
        parse(s, 0, "offer ORI WT 11", items)
    t = blank(3)
    corp(t, "PR", ["MHE", "KME"], 11, cash=14, holders={0: 1})
    assert parse(t, 0, "buy PR", menu(t, 0)) == BuyShare(0, "PR")
    with pytest.raises(InputError, match="unknown corporation 'JUP'"):
        parse(t, 0, "buy JUP", menu(t, 0))


def test_v22_offer_command_takes_codes_beside_company_codes():
    """Phase 3 in v2.2: 'offer JUP PR 19' cannot be misread: JUP is the corporation, PR the company."""
    s = v22_blank()
    corp(s, "PR", ["MHE", "KME"], 11, cash=30, holders={0: 1})
    s.company_owner[D.INDEX["PR"]] = 1
    s.phase = 3
    from rolling.games.stars import acquisition

    acquisition.enter(s)
    assert parse(s, 0, "offer JUP PR 19", menu(s, 0)) == Offer(0, "PR", "PR", 19)


def stars_corporation_words(line):
    return [n for n in STARS_NAMES if n in line] + re.findall(r"\b(?:DA|VM|SI|SM|JS|OS|S)\b", line)


def test_v22_help_and_menus_name_only_v22_corporations():
    """Every menu line of a random v2.2 game, and the help, name corporations as v2.2 does; 'PR' in
    a menu line is only ever the company."""
    text = help_text("v2.2")
    assert "buy JUP" in text and "Orion" in text and stars_corporation_words(text) == []
    for seed in range(3):
        s = new_game(Config(players=4, edition="v2.2"), seed)
        rng = Rng(seed)
        while not s.is_over:
            for seat in s.to_act:
                for _, line, move in menu(s, seat):
                    assert stars_corporation_words(line) == [], line
                    if re.search(r"\bPR\b", line):
                        assert move.args.get("company") == "PR", line
            seat = rng.choice(s.to_act)
            m = rng.choice(s.legal_moves(seat))
            s.apply(m.action(rng.randint(m.lo, m.hi) if m.field else None))


def test_records_hold_the_canonical_symbols_in_every_edition():
    """The edition changes names only: a record's actions (canonical symbols) replay to the same
    game in both editions, and an existing record still replays."""
    record = sample_record()
    stars = replay(record)
    v22 = replay(GameRecord("stars", dict(record.config, edition="v2.2"), record.seed, record.actions))
    assert stars.fingerprint()[1:] == v22.fingerprint()[1:]
    assert stars.standings() == v22.standings()
    assert {a["corporation"] for a in record.actions if "corporation" in a} <= set(D.CORP_SYMBOLS)
