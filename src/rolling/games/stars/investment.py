"""Phase 1: Investment, with the Auction procedure.

"In Player Order, Players choose one of the following actions: Buy One Share, Sell One Share,
Start An Auction, or pass. After a Player has passed, their player order card is turned vertical.
After each non-pass action, it is turned horizontal. As soon as all player order cards are turned
vertical, the phase ends."

Automatic steps (rules-equivalent, no choice involved): a player whose only legal action is pass
passes; a player who cannot raise the running bid leaves the auction (the auction example: "Crystal
... has only 9● so she cannot raise the bid and automatically leaves the auction").
"""

from __future__ import annotations

from rolling.core.errors import IllegalAction

from . import data as D
from . import events as E
from . import procedures as P
from .actions import WORDS, Bid, BuyShare, LeaveAuction, Pass, SellShare, StartAuction
from .config import RECEIVERSHIP_BUY
from .moves import Move
from .state import MAXP, StarsState
from .view import cash_audience

RULE = "Phase 1: Investment"
AUCTION = "Auction"


def enter(s: StarsState) -> None:
    """Start phase 1 with position 1 and every player order card horizontal."""
    s.current = 0
    s.passed = 0
    s.auction = None


def to_act(s: StarsState) -> tuple[int, ...]:
    """The bidder due in a running auction, else the player whose turn it is."""
    if s.auction is not None:
        return (s.order[s.auction[4]],)
    return (s.order[s.current],)


def available_companies(s: StarsState) -> list[int]:
    """Companies that an auction may start with now: in the offering and not drawn during this
    phase.

    An empty deck does not stop an auction in either edition: the draw that ends the Auction is
    skipped (001, Auction: "If the Deck contains at least one company card, draw ..."; v2.2's
    Player's Guide, 002 1.6.1: "If you cannot draw a company after an auction, just skip that
    step"; :func:`procedures.draw`).
    """
    return [i for i in s.offering if not s.unavailable >> i & 1]


def moves(s: StarsState, seat: int) -> list[Move]:
    """Legal moves of ``seat`` in phase 1."""
    if seat not in to_act(s):
        return []
    if s.auction is not None:
        high = s.auction[1]
        out = [Move(LeaveAuction, {"seat": seat})]
        if s.cash[seat] > high:
            out.append(Move(Bid, {"seat": seat}, "amount", high + 1, s.cash[seat]))
        return out
    out = [Move(Pass, {"seat": seat})]
    cash = s.cash[seat]
    for i in available_companies(s):
        if D.FACE[i] <= cash:
            out.append(Move(StartAuction, {"seat": seat, "company": D.CODES[i]}, "bid", D.FACE[i], cash))
    for c in range(D.N_CORPS):
        if not s.corp_active[c]:
            continue
        if s.bank_shares(c) >= 1 and P.card_price(P.next_higher_card(s, c)) <= cash:
            out.append(Move(BuyShare, {"seat": seat, "corporation": D.CORP_SYMBOLS[c]}))
            if s.president[c] < 0 and RECEIVERSHIP_BUY in s.config.compat:
                # 18xx.games: naming the President's Share out of receivership is cheaper
                out.append(Move(BuyShare, {"seat": seat, "corporation": D.CORP_SYMBOLS[c], "presidents_share": True}))
        if s.held[c * MAXP + seat] >= 1:
            out.append(Move(SellShare, {"seat": seat, "corporation": D.CORP_SYMBOLS[c]}))
    return out


def _corp(symbol: str, rule: str) -> int:
    c = D.corp_index(symbol)
    if c is None:
        raise IllegalAction(rule, f"unknown corporation {symbol!r}")
    return c


def apply(s: StarsState, a) -> None:
    """Check and apply a phase 1 action (raises IllegalAction, state unchanged)."""
    if s.auction is None and type(a) is Pass and a.seat == s.order[s.current]:
        s.passed |= 1 << a.seat  # the most frequent action, checked first
        if s.log is not None:
            s.log.append((E.PASS, E.PUBLIC, a.seat))
        s.current = (s.current + 1) % s.n
        return
    due = to_act(s)[0]
    if s.auction is not None:
        if not isinstance(a, (Bid, LeaveAuction)):
            raise IllegalAction(AUCTION, "an auction is running: bid or leave it")
        if a.seat != due:
            raise IllegalAction(AUCTION, f"it is {s.names[due]}'s turn to raise the bid or leave the auction")
        if isinstance(a, Bid):
            high = s.auction[1]
            if a.amount < high + 1:
                raise IllegalAction(AUCTION, f"a bid must raise the bid of ${high} by at least $1")
            if a.amount > s.cash[a.seat]:
                raise IllegalAction(AUCTION, f"a bid may not exceed your money (${s.cash[a.seat]})")
            i, _, _, starter, _, in_mask = s.auction
            s.auction = (i, a.amount, a.seat, starter, _next_bidder(s, s.position(a.seat), in_mask), in_mask)
            if s.log is not None:
                s.log.append((E.BID, E.PUBLIC, a.seat, i, a.amount))
        else:
            _leave(s, a.seat)
        return
    if isinstance(a, (Bid, LeaveAuction)):
        raise IllegalAction(AUCTION, "no auction is running")
    if a.seat != due:
        raise IllegalAction(RULE, f"it is {s.names[due]}'s turn (player order)")
    if isinstance(a, StartAuction):
        i = D.company_index(a.company)
        if i is None or i not in s.offering:
            raise IllegalAction(AUCTION, f"{a.company} is not in the offering")
        if s.unavailable >> i & 1:
            raise IllegalAction(AUCTION, f"{D.CODES[i]} was drawn this phase and is not available yet")
        if a.bid < D.FACE[i]:
            raise IllegalAction(AUCTION, f"the first bid must be at least the face value (${D.FACE[i]})")
        if a.bid > s.cash[a.seat]:
            raise IllegalAction(AUCTION, f"a bid may not exceed your money (${s.cash[a.seat]})")
        s.passed &= ~(1 << a.seat)
        everyone = (1 << s.n) - 1
        pos = s.current
        s.auction = (i, a.bid, a.seat, a.seat, _next_bidder(s, pos, everyone), everyone)
        if s.log is not None:
            s.log.append((E.START_AUCTION, E.PUBLIC, a.seat, i, a.bid))
        return
    if isinstance(a, BuyShare):
        c = _corp(a.corporation, "Buy One Share")
        k, price = P.check_buy_one_share(s, a.seat, c, a.presidents_share)
        s.passed &= ~(1 << a.seat)
        P.buy_one_share(s, a.seat, c, k, price)
        s.current = (s.current + 1) % s.n
        return
    if isinstance(a, SellShare):
        c = _corp(a.corporation, "Sell One Share")
        P.check_sell_one_share(s, a.seat, c)
        s.passed &= ~(1 << a.seat)
        P.sell_one_share(s, a.seat, c)
        s.current = (s.current + 1) % s.n
        return
    raise IllegalAction(RULE, f"you cannot {WORDS.get(type(a), 'do that')} in phase 1")


def _next_bidder(s: StarsState, pos: int, in_mask: int) -> int:
    """Position of the next player in player order after ``pos`` still in the auction."""
    for step in range(1, s.n + 1):
        q = (pos + step) % s.n
        if in_mask >> s.order[q] & 1:
            return q
    return pos


def _leave(s: StarsState, seat: int, forced: bool = False) -> None:
    i, high, bidder, starter, pos, in_mask = s.auction
    in_mask &= ~(1 << seat)
    if forced:
        P.cash_move(s, seat)
    if s.log is not None:
        if forced:
            # why is the player's cash: with secret money only they may know it (events.private)
            E.private(s.log, cash_audience(s, seat), (E.LEAVE_NO_MONEY, seat, high), (E.LEAVE_AUCTION, seat))
        else:
            s.log.append((E.LEAVE_AUCTION, E.PUBLIC, seat))
    s.auction = (i, high, bidder, starter, _next_bidder(s, pos, in_mask), in_mask)


def _finish_auction(s: StarsState) -> None:
    i, high, winner, starter, _, _ = s.auction
    s.auction = None
    s.cash[winner] -= high
    s.bank_paid -= high
    s.company_owner[i] = winner
    s.offering.remove(i)
    if s.log is not None:
        s.log.append((E.WIN_AUCTION, E.PUBLIC, winner, i, high))
    P.draw(s)
    # "the next regular action of phase 1 is taken by the next Player in Player Order following
    # the Player that started the auction"
    s.current = (s.position(starter) + 1) % s.n


def step(s: StarsState) -> bool:
    """Run the automatic steps of phase 1; True when the phase has ended."""
    everyone = (1 << s.n) - 1
    while not s.over:
        if s.auction is not None:
            in_mask = s.auction[5]
            if in_mask & (in_mask - 1) == 0:
                _finish_auction(s)
                continue
            seat = s.order[s.auction[4]]
            if s.cash[seat] <= s.auction[1]:
                _leave(s, seat, forced=True)
                continue
            return False
        if s.passed == everyone:
            return True
        seat = s.order[s.current]
        if _only_pass(s, seat):
            s.passed |= 1 << seat
            P.cash_move(s, seat)
            if s.log is not None:
                # why is the player's cash: with secret money only they may know it (events.private)
                E.private(s.log, cash_audience(s, seat), (E.PASS_NO_CHOICE, seat), (E.PASS, seat))
            s.current = (s.current + 1) % s.n
            continue
        return False
    return False


def _only_pass(s: StarsState, seat: int) -> bool:
    """Whether pass is the only legal action of ``seat`` (the fast twin of :func:`moves`, on the
    hot path of every phase 1 turn)."""
    if any(s.held[seat::MAXP]):  # a share to sell (the usual case, so checked first)
        return False
    cash = s.cash[seat]
    unavailable = s.unavailable
    for i in s.offering:
        if D.FACE[i] <= cash and not unavailable >> i & 1:
            return False
    card_owner = s.card_owner
    for c, k in enumerate(s.corp_card):
        if s.corp_active[c]:
            # the price of the next higher available card (Buy One Share), $75 without one
            price = D.PRICES[D.TOP_CARD]
            if k >= 0:
                for j in range(k + 1, D.N_CARDS):
                    if card_owner[j] < 0:
                        price = D.PRICES[j]
                        break
            if price <= cash and s.bank_shares(c):
                return False
    return True
