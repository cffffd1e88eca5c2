"""Phase 4: Closing (any order).

"Players and Corporations may close Companies by removing them from the game. If Players will have
a negative total income in phase 5, they must close a sufficient number of Companies with negative
income to be able to pay for it. The Foreign Investor closes Companies whose Cost Of Ownership
exceeds their Income. Corporations in Receivership close red Companies if the Cost Of Ownership is
at least 4● and close orange Companies if the Cost Of Ownership is at least 7● but always keep the
Company with the highest Face Value. The Junkyard Scrappers Corporation immediately receives twice
the printed income for each Company it closes."

The foreign investor and the receivers act first, automatically. Then every player who owns a
private company or presides a corporation with two or more companies may close companies until
they declare ``Done``; closing affects no one else's choices, so ``Done`` is final for the phase.
A player may not declare done while their cash plus their phase 5 income would be negative.
"""

from __future__ import annotations

from rolling.core.errors import IllegalAction

from . import data as D
from . import events as E
from . import procedures as P
from .actions import WORDS, Close, Done
from .moves import Move
from .state import CORP_BASE, FOREIGN_INVESTOR, StarsState

RULE = "Phase 4: Closing"


def enter(s: StarsState) -> None:
    """The foreign investor's and the receivers' closings; then the players act."""
    s.done = 0
    cost, mask = s.cost_of_ownership()  # the deck's top stays put in this phase
    for i in s.companies_of(FOREIGN_INVESTOR):
        if (cost if mask >> D.COLOR[i] & 1 else 0) > D.INCOME[i]:  # s.company_cost(i)
            P.close_company(s, i)
    president, active = s.president, s.corp_active
    receivers = [c for c in range(D.N_CORPS) if active[c] and president[c] < 0]
    if not receivers:
        return
    red = cost if mask >> D.RED & 1 else 0
    orange = cost if mask >> D.ORANGE & 1 else 0
    if red < 4 and orange < 7:
        return  # nothing costs a receiver enough to close it
    # in share price order, as active_corps() gives them (the order of the log's lines)
    for c in sorted(receivers, key=s.price_key, reverse=True):
        owned = s.companies_of(CORP_BASE + c)
        keep = owned[-1]  # the highest face value (companies ascend in face value)
        for i in owned:
            color = D.COLOR[i]
            if i != keep and ((color == D.RED and red >= 4) or (color == D.ORANGE and orange >= 7)):
                P.close_company(s, i)


def _corp_company_counts(s: StarsState) -> list[int]:
    counts = [0] * D.N_CORPS
    for o in s.company_owner:
        if CORP_BASE <= o < FOREIGN_INVESTOR:
            counts[o - CORP_BASE] += 1
    return counts


def closable(s: StarsState, seat: int) -> list[int]:
    """Companies ``seat`` may close now: private ones, and those of corporations they preside
    that own two or more companies."""
    counts = _corp_company_counts(s)
    out = []
    for i, o in enumerate(s.company_owner):
        if o == seat:
            out.append(i)
        elif CORP_BASE <= o < FOREIGN_INVESTOR:
            c = o - CORP_BASE
            if s.president[c] == seat and counts[c] >= 2:
                out.append(i)
    return out


def _may_close(s: StarsState, seat: int, i: int) -> bool:
    """Whether company ``i`` is one of :func:`closable` ``(s, seat)`` (asked of that one company)."""
    o = s.company_owner[i]
    if o == seat:
        return True
    return CORP_BASE <= o < FOREIGN_INVESTOR and s.president[o - CORP_BASE] == seat and s.company_owner.count(o) >= 2


def active_seats(s: StarsState) -> int:
    """Bitmask of players with something to close."""
    co = s.company_owner
    owners = set(co)
    m = 0
    for p in range(s.n):
        if p in owners:
            m |= 1 << p
    for c, p in enumerate(s.president):
        if p >= 0 and not m >> p & 1 and co.count(CORP_BASE + c) >= 2:
            m |= 1 << p
    return m


def _has_something(s: StarsState, seat: int) -> bool:
    """Whether ``seat`` has something to close (its bit of :func:`active_seats`, found without
    the others': apply and step ask about one seat at a time, on every action of the phase)."""
    co = s.company_owner
    if seat in co:
        return True
    president = s.president
    if seat not in president:
        return False
    for c in range(D.N_CORPS):
        if president[c] == seat and co.count(CORP_BASE + c) >= 2:
            return True
    return False


def to_act(s: StarsState) -> tuple[int, ...]:
    """Players with something to close who have not declared done, in player order."""
    waiting = active_seats(s) & ~s.done
    return tuple(p for p in s.order if waiting >> p & 1)


def _may_act(s: StarsState, seat: int) -> bool:
    return not s.done >> seat & 1 and _has_something(s, seat)


def must_close(s: StarsState, seat: int) -> bool:
    """True while ``seat`` could not pay their negative phase 5 income."""
    cost, _ = s.cost_of_ownership()
    if s.cash[seat] >= cost * s.company_owner.count(seat):
        return False  # printed incomes are positive: no more than the cost can be lost per company
    return s.cash[seat] + P.income_of(s, seat) < 0


def moves(s: StarsState, seat: int) -> list[Move]:
    """Legal moves of ``seat`` in phase 4."""
    if not _may_act(s, seat):
        return []
    out = [] if must_close(s, seat) else [Move(Done, {"seat": seat})]
    out.extend(Move(Close, {"seat": seat, "company": D.CODES[i]}) for i in closable(s, seat))
    return out


def apply(s: StarsState, a) -> None:
    """Check and apply a phase 4 action (raises IllegalAction, state unchanged)."""
    if not _may_act(s, a.seat):
        raise IllegalAction(RULE, f"{s.names[a.seat]} has nothing (more) to close in this phase")
    if isinstance(a, Done):
        if must_close(s, a.seat):
            raise IllegalAction(
                RULE,
                f"{s.names[a.seat]} could not pay a negative income of ${-P.income_of(s, a.seat)} "
                "and must close companies with negative income first",
            )
        s.done |= 1 << a.seat
        if s.log is not None:
            s.log.append((E.DONE_CLOSING, E.PUBLIC, a.seat))
        return
    if not isinstance(a, Close):
        raise IllegalAction(RULE, f"you cannot {WORDS.get(type(a), 'do that')} in phase 4")
    i = D.company_index(a.company)
    if i is None or not _may_close(s, a.seat, i):
        owner = s.company_owner[i] if i is not None else -1
        if CORP_BASE <= owner < FOREIGN_INVESTOR and s.president[owner - CORP_BASE] == a.seat:
            raise IllegalAction(RULE, f"{s.corp_name(owner - CORP_BASE)} must keep at least one company")
        raise IllegalAction(RULE, f"{s.names[a.seat]} may not close {a.company}")
    P.close_company(s, i)


def step(s: StarsState) -> bool:
    """True once every player with something to close has declared done."""
    done = s.done
    for p in range(s.n):
        if not done >> p & 1 and _has_something(s, p):
            return False
    return True
