"""The Rolling Market log as structured events: small tuples, text per kind, all public, and
nothing built when the log is off."""

from __future__ import annotations

import string

from rolling.core import events as core
from rolling.core.rng import Rng
from rolling.games.market import DONE, buy, new_game
from rolling.games.market import events as E
from rolling.games.market.state import MarketState


def play(seed: int, log: bool = True) -> MarketState:
    """A game of random legal trades, its log on or off."""
    s = new_game(None, seed)
    if log:
        s.enable_log()
    rng = Rng(seed)
    while not s.over:
        moves = s.legal_actions()
        s.apply(moves[rng.below(len(moves))])
    return s


def test_events_are_small_tuples_with_their_kinds_fields():
    """Each event is (kind, visibility, *fields): a known kind, as many fields as its text names,
    only ints and tuples of ints (no text built from them)."""
    kinds = set()
    for seed in range(30):
        s = play(seed)
        for ev in s.log:
            kind, vis, *fields = ev
            assert type(ev) is tuple and kind in E.TEXT and vis == E.PUBLIC
            assert len(fields) == len(E.TEXT[kind][1]), kind
            assert all(isinstance(f, int) or (type(f) is tuple and all(isinstance(x, int | tuple) for x in f))
                       for f in fields), ev
            kinds.add(kind)
    assert kinds == set(E.TEXT) - {E.LOG_STARTS}, "random games show every kind but a log switched on late"


SAMPLES = [
    ((E.START, E.PUBLIC, 3, 10, 12), "Rolling Market: companies A-D valued 3, $10, 12 buy/sell turns"),
    ((E.LOG_STARTS, E.PUBLIC, 4, 2, 17), "(log starts at roll 4, buy/sell turn 2, cash $17)"),
    ((E.ROLL, E.PUBLIC, 3, (4, 1, 3, 6), 5, ((3, 4), (3, 2), (3, 3), (2, 1))),
     "Roll 3: dice 4 1 3 6 vol 5; values A:3->4 B:3->2 C:3 D:2->1"),
    ((E.ROLL, E.PUBLIC, 14, (1, 2, 3, 4), 0, ((1, 1), (2, 2), (3, 3), (4, 4))),
     "Roll 14: dice 1 2 3 4 vol fixed 3; values A:1 B:2 C:3 D:4"),
    ((E.SPLIT, E.PUBLIC, 1, 5, 10, 2), "  B splits: 5 -> 10 shares at 2"),
    ((E.SPLIT_OVERFLOW, E.PUBLIC, 2, 10, 20, 3, 8, 6, 18),
     "  C splits: 10 -> 20 shares at 3, 8 over 12 sold at $3 less a fee of $6: +$18"),
    ((E.CLOSED, E.PUBLIC, 6, 11), "  market closed (volatility die 6); 11 buy/sell turns to go"),
    ((E.TURN, E.PUBLIC, 1, 12, 4, 10, (0, 0, 0, 0)), "Buy/sell turn 1 of 12: volatility 4; cash $10, shares A0 B0 C0 D0"),
    ((E.FINAL_TURN, E.PUBLIC, 11, 12, 3, 40, (7, 0, 2, 0)),
     "Buy/sell turn 11 of 12: volatility 3, last two turns: two sells allowed; cash $40, shares A7 B0 C2 D0"),
    ((E.BUY, E.PUBLIC, 4, 1, 13, 3, 5, 20, 7), "  buy 4 B for $13: value 3->5, cash $20->$7"),
    ((E.SELL, E.PUBLIC, 7, 0, 26, 5, 2, 3, 29), "  sell 7 A for $26: value 5->2, cash $3->$29"),
    ((E.DONE, E.PUBLIC, 29), "  done: cash $29"),
    ((E.GAME_OVER, E.PUBLIC, 12, 61), "Game over after 12 buy/sell turns: final cash $61"),
]


def test_text_of_every_kind():
    """Text per kind: every kind has a template naming exactly its fields, and reads as the log
    always read (the sell is the rule text's example: 7 shares at 5, volatility 2, bring $26)."""
    s = new_game(None, 0)
    assert {ev[0] for ev, _ in SAMPLES} == set(E.TEXT)
    for ev, text in SAMPLES:
        assert E.render(s, ev) == text
    for template, names in E.TEXT.values():
        assert {f for _, f, _, _ in string.Formatter().parse(template) if f} == set(names)


def test_the_log_tells_a_trade_with_the_states_numbers():
    """Phase Two: buying/selling: a buy's event holds its count, company, cost, the value it moves
    and the cash before and after, as the state changed them."""
    s = new_game(None, 3)
    s.enable_log()
    cash, value = s.cash, s.values[0]
    cost, after = s.quote_buy(0, 2)
    s.apply(buy(0, 2))
    assert s.log[-1] == (E.BUY, E.PUBLIC, 2, 0, cost, value, after, cash, cash - cost)
    assert s.log_lines(None, len(s.log) - 1) == [f"  buy 2 A for ${cost}: value {value}->{after}, cash ${cash}->${cash - cost}"]


def test_log_off_builds_no_event_and_no_text(monkeypatch):
    """Speed: with the log off the state makes neither events nor text."""

    def refuse(*args, **kwargs):
        raise AssertionError("text or an event built with the log off")

    monkeypatch.setattr(E, "render", refuse)
    monkeypatch.setattr(E, "_field", refuse)
    monkeypatch.setattr(core, "text_of", refuse)
    for seed in range(20):
        s = play(seed, log=False)
        assert s.log is None and s.log_lines() == []


def test_log_switched_on_late_says_where_it_starts():
    """A log switched on after the first trades starts with the header and where it starts."""
    s = new_game(None, 3)
    s.apply(DONE)
    s.apply(DONE)
    s.enable_log()
    assert [ev[0] for ev in s.log] == [E.START, E.LOG_STARTS]
    assert s.log_lines()[1].startswith("(log starts at roll ")
