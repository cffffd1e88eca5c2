"""Helpers that lay out a Rolling Stock Stars table by hand, as in the rule book's examples."""

from __future__ import annotations

import pytest

from rolling.games.stars import Config, engine, new_game
from rolling.games.stars import data as D
from rolling.games.stars.procedures import move_to_card
from rolling.games.stars.state import CORP_BASE, GONE, IN_DECK, IN_OFFERING, MAXP, StarsState


def blank(players: int = 3, cash=None, variants=()) -> StarsState:
    """A game with seats in player order 0, 1, 2..., nothing owned, a deck of one yellow company
    (SBB: no cost of ownership yet) and one yellow company (NS) in the offering, so that the game
    can still run on to its end when a test lets the turn sequence continue."""
    s = new_game(Config(players=players, variants=tuple(variants), names=tuple("ABCDEF"[:players])), 0)
    s.order = list(range(players))
    s.offering = []
    s.unavailable = 0
    s.company_owner = [GONE] * D.N_COMPANIES
    s.deck = [D.INDEX["SBB"]]
    s.company_owner[D.INDEX["SBB"]] = IN_DECK
    s.offering = [D.INDEX["NS"]]
    s.company_owner[D.INDEX["NS"]] = IN_OFFERING
    if cash is not None:
        s.cash = list(cash)
    return s


def idx(code: str) -> int:
    return D.INDEX[code]


def give(s: StarsState, code: str, owner: int) -> None:
    """Put a company with an owner code (seat, CORP_BASE + c, FOREIGN_INVESTOR)."""
    s.company_owner[idx(code)] = owner


def offer_up(s: StarsState, *codes: str, unavailable=()) -> None:
    for code in codes:
        s.company_owner[idx(code)] = IN_OFFERING
        s.offering.append(idx(code))
    for code in unavailable:
        s.unavailable |= 1 << idx(code)


def stack_deck(s: StarsState, *codes_top_first: str) -> None:
    s.deck = [idx(c) for c in reversed(codes_top_first)]
    for c in codes_top_first:
        s.company_owner[idx(c)] = IN_DECK


def corp(
    s: StarsState, sym: str, companies, price: int, cash: int = 0, issued: int = 2, holders=None, president=None
) -> int:
    """Found corporation ``sym`` directly: its companies, share price ($), cash, issued shares and
    player holdings (seat -> shares; the rest are in the bank); president defaults to the largest holder."""
    c = D.CORP_INDEX[sym]
    s.corp_active[c] = True
    for code in companies:
        give(s, code, CORP_BASE + c)
    move_to_card(s, c, D.CARD_OF_PRICE[price])
    s.corp_cash[c] = cash
    s.corp_issued[c] = issued
    holders = holders or {}
    for seat, n in holders.items():
        s.held[c * MAXP + seat] = n
    if president is None:
        president = max(holders, key=lambda p: holders[p]) if holders else -1
    s.president[c] = president
    return c


def goto(s: StarsState, phase: int) -> bool:
    """Enter ``phase`` and run its automatic steps, without passing through the earlier phases and
    without moving on to the next one; return True if the phase has nothing left to decide."""
    s.phase = phase
    engine.PHASES[phase].enter(s)
    return engine.PHASES[phase].step(s)


@pytest.fixture
def table():
    return blank
