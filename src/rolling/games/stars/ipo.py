"""Phase 9: IPO. "In descending Face Value Order, private Companies may Form Corporations."

The owner of each private company, highest face value first, decides before the next company;
a company that cannot form a corporation (no unused charter, no available share price card with
its colour, or not enough money for the payment) is passed over without asking.
"""

from __future__ import annotations

from rolling.core.errors import IllegalAction

from . import data as D
from . import events as E
from . import procedures as P
from .actions import WORDS, DeclineIpo, FormCorporation
from .moves import Move
from .state import StarsState
from .view import cash_audience

RULE = "Phase 9: IPO"


def enter(s: StarsState) -> None:
    """Start with the highest face value."""
    s.ipo_cursor = D.N_COMPANIES - 1


def options(s: StarsState, i: int) -> list[tuple[int, int]]:
    """(charter, share price card) pairs the owner of private company ``i`` may choose now."""
    seat = s.company_owner[i]
    if not 0 <= seat < s.n:
        return []
    if all(s.corp_active):  # no charter left
        return []
    cards = list(_cards(s, i, seat))
    return [(c, k) for c in range(D.N_CORPS) if not s.corp_active[c] for k in cards]


def _cards(s: StarsState, i: int, seat: int):
    """The free share price cards of company ``i``'s colour whose payment ``seat`` can afford."""
    face, color, cash, card_owner = D.FACE[i], D.COLOR[i], s.cash[seat], s.card_owner
    for k in range(1, D.N_CARDS):
        if card_owner[k] < 0 and D.IPO_COLORS[k] >> color & 1 and P.ipo_payment(face, D.PRICES[k]) <= cash:
            yield k


def to_act(s: StarsState) -> tuple[int, ...]:
    """The owner of the company due."""
    if s.ipo_cursor < 0:
        return ()
    return (s.company_owner[s.ipo_cursor],)


def moves(s: StarsState, seat: int) -> list[Move]:
    """Form a corporation (each charter and price) or decline."""
    i = s.ipo_cursor
    if i < 0 or s.company_owner[i] != seat:
        return []
    code = D.CODES[i]
    out = [Move(DeclineIpo, {"seat": seat, "company": code})]
    for c, k in options(s, i):
        out.append(Move(FormCorporation, {"seat": seat, "company": code, "corporation": D.CORP_SYMBOLS[c], "price": D.PRICES[k]}))
    return out


def apply(s: StarsState, a) -> None:
    """Check and apply an IPO decision (raises IllegalAction, state unchanged)."""
    i = s.ipo_cursor
    if not isinstance(a, (FormCorporation, DeclineIpo)):
        raise IllegalAction(RULE, f"you cannot {WORDS.get(type(a), 'do that')} in phase 9")
    if D.company_index(a.company) != i:
        raise IllegalAction(RULE, f"in descending face value order it is {D.CODES[i]}'s turn")
    if s.company_owner[i] != a.seat:
        raise IllegalAction(RULE, f"{D.CODES[i]} belongs to {s.entity_name(s.company_owner[i])}")
    if isinstance(a, DeclineIpo):
        if s.log is not None:
            s.log.append((E.KEEP_PRIVATE, E.PUBLIC, a.seat, i))
        s.ipo_cursor -= 1
        return
    c = D.corp_index(a.corporation)
    if c is None:
        raise IllegalAction("Form Corporation", f"unknown corporation {a.corporation!r}")
    k = D.CARD_OF_PRICE.get(a.price, -1)
    P.check_form_corporation(s, a.seat, i, c, k)
    P.form_corporation(s, a.seat, i, c, k)
    s.ipo_cursor -= 1


def step(s: StarsState) -> bool:
    """Pass over companies that cannot go public; True when all companies are through."""
    owner, n = s.company_owner, s.n
    i = s.ipo_cursor
    # the cursor walks in a local and is stored where the walk stops (36 companies each turn)
    while i >= 0:
        seat = owner[i]
        if 0 <= seat < n:  # only private companies may go public
            if not all(s.corp_active) and any(_cards(s, i, seat)):  # options(s, i) != []
                s.ipo_cursor = i
                return False
            _passed_over(s, i)
        i -= 1
    s.ipo_cursor = i
    return True


def _passed_over(s: StarsState, i: int) -> None:
    """Count and log a private company passed over for its owner's money alone. A free charter and
    a free card of its colour are public, the owner's cash is not: with secret money the others
    read it as a decision to keep the company private (events.private), a move of the owner
    (:func:`procedures.cash_move`)."""
    seat = s.company_owner[i]
    if not 0 <= seat < s.n or all(s.corp_active):
        return
    color = D.COLOR[i]
    if any(s.card_owner[k] < 0 and D.IPO_COLORS[k] >> color & 1 for k in range(1, D.N_CARDS)):
        P.cash_move(s, seat)
        if s.log is not None:
            E.private(s.log, cash_audience(s, seat), (E.CANNOT_FORM, seat, i), (E.KEEP_PRIVATE, seat, i))
