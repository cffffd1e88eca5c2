"""A heuristic bot for Rolling Stock Stars: plays like a competent person, without search.

The bot values everything in the currency of the final score ($):

- **The time left.** The deck is known by colour (red on top, then orange, yellow, green, blue, then
  the game end card), so from the number of unowned companies and a typical rate of purchases per
  turn the bot forecasts how many income phases remain and the cost of ownership in each of them
  (:func:`forecast`).
- **A private company** is worth its face value (it counts at the end) plus its remaining income
  after cost of ownership, closing it when that pays better (:func:`private_value`).
- **A company inside a corporation** is worth, to the corporation's shareholders, ten dollars per
  star (a star holds up the share price like $10 of treasury) plus what it adds to the
  corporation's income, synergies and special abilities included, for the rest of the game
  (:func:`corp_value`).
- **A share** is worth the price the corporation's stars justify at the end (its "book" price:
  stars, treasury and income to come, over the issued shares), limited by how far the price can
  move in the dividend phases left (:func:`share_value`).

A seat's stake in a corporation is its fraction of the issued shares, so a deal is judged by what
it brings the bot itself: selling its own private company to a corporation it presides brings the
whole price while it bears only its fraction of the cost; buying from others is worth its fraction
of the bargain. From these values the bot bids in auctions up to what a company is worth to it,
buys and sells shares when their price is far from their value (or to take or keep a presidency),
buys companies for its corporations when the deal is good for it, answers proposals (and, with
the variant deals, accepts a deal when the sum of what its purchases bring it is positive; it
proposes none), closes
companies that lose money, picks dividends and share issues by the share price they lead to, and
forms corporations when the new corporation's treasury can buy its other companies.

After its key choices ``last_reason`` says in one line why: bids and leaving auctions, starting
an auction, share trades, proposals and answers, closings, dividends, issuing a share and forming
a corporation (``"bids up to $18 for MHE: synergies with MS and BY in PR"``), in the edition's
corporation codes; it is ``None`` after a routine pass or done. Each is a
:class:`~rolling.bots.reasons.Reason` whose public part leaves out the bot's limits and
valuations (``"bids for MHE: synergies with MS and BY in PR"``).

The bot is deterministic: its choices depend only on the state and on the proposals it made in the
current phase (it remembers them so that a rejected offer is not repeated, and the any-order phases
always end). It takes a seed like every bot, but needs no random numbers.

That memory is the record's, not the object's: :meth:`StarsHeuristicBot.recall` rebuilds it from
the game's record (the seat's proposals among the actions since the current phase began), and the
web app calls it before every decision, so that a worker that loads the game mid-phase, another
worker, a process catching up, or the game after an undo make the same move as the bot that played
the phase through (:class:`rolling.bots.base.History`). Played through by one object (``rolling
simulate``) the bot remembers exactly what ``recall`` would rebuild.
"""

from __future__ import annotations

from rolling.bots.reasons import Reason, public_reason
from rolling.games.stars import acquisition, deals
from rolling.games.stars import data as D
from rolling.games.stars import procedures as P
from rolling.games.stars.actions import (
    Bid,
    BuyShare,
    Close,
    DeclineIpo,
    Done,
    Issue,
    LeaveAuction,
    Offer,
    Pass,
    Respond,
    RespondDeal,
    SellShare,
    StartAuction,
)
from rolling.games.stars.closing import must_close
from rolling.games.stars.state import CORP_BASE, FOREIGN_INVESTOR, MAXP, StarsState

_SYN = tuple(dict(pairs) for pairs in D.SYNERGY)
_STARTING = {D.STARS_INC: 2}

# ------------------------------------------------------------------------------------ forecasting


def deck_colors(s: StarsState) -> list[int]:
    """How many companies of each colour the deck holds (public: the deck is built by colour)."""
    counts = [0] * len(D.COLORS)
    for i in s.deck:
        counts[D.COLOR[i]] += 1
    return counts


def top_color_after(counts: list[int], drawn: int) -> int | None:
    """Colour on top of the deck after ``drawn`` more draws (red lies on top); None when empty."""
    for color, k in enumerate(counts):
        if drawn < k:
            return color
        drawn -= k
    return None


def forecast(s: StarsState, rate: float) -> list[tuple[int, int]]:
    """The cost of ownership ``(cost $, colour mask)`` of every income phase left, this turn's first.

    ``rate`` is the expected number of companies leaving the deck and offering per turn. The game
    end card flips at the end of the turn in which no unowned company is left, and the game ends one
    turn later.
    """
    if s.over:
        return []
    if s.end_flipped:
        return [D.END_CARD_BACK] if s.phase <= 5 or s.phase >= 8 else []
    counts = deck_colors(s)
    deck = sum(counts)
    unowned = deck + len(s.offering)
    out: list[tuple[int, int]] = []
    # draws still to come before this turn's income phase
    drawn = 0.0
    if s.phase <= 2:
        drawn = min(float(deck), rate * (0.5 if s.auction is not None or s.current else 1.0))
    left = unowned - drawn
    if s.phase <= 5:
        out.append(_cost_at(counts, drawn))
    else:
        drawn = min(float(deck), drawn + rate)
        left = unowned - rate
    # next turns
    while left > 0 and len(out) < 40:
        drawn = min(float(deck), drawn + rate)
        left -= rate
        out.append(_cost_at(counts, drawn))
    out.append(D.END_CARD_BACK)
    return out


def horizon(s: StarsState, rate: float) -> list[tuple[int, int]]:
    """:func:`forecast`, cut short where a corporation's share price should reach the $75 card
    (which ends the game in phase 7): a corporation whose stars justify $75 climbs at most two
    cards per dividend phase."""
    return list(schedule(s, rate))


class _Sched(tuple):
    """A :func:`horizon` (a tuple of ``(cost $, colour mask)``) with the valuations already made
    under it: the bot meets the same schedule for many decisions in a row, and values the same
    companies again in each (every memo holds the pure functions' results, by their arguments)."""

    def __init__(self, costs):
        self.values: dict[tuple, float] = {}  # corp_value by (c, i, keep_now, *others)
        self.privates: dict[tuple, float] = {}  # private_value by (i, keep_now)
        self.sums: dict[tuple, int] = {}  # sum of corp_incomes by (c, *companies)


#: _Sched by everything horizon() reads of the state: in phase 3 most decisions leave it unchanged
_SCHEDULES: dict[tuple, _Sched] = {}
_SCHEDULES_MAX = 256
_MEMO_MAX = 1 << 12


def schedule(s: StarsState, rate: float) -> _Sched:
    """:func:`horizon` as a :class:`_Sched`, the same object for the same inputs while cached: pass it as
    ``sched`` to the valuations (:func:`corp_value`, :func:`private_value`, :func:`corp_book`...) and
    they reuse what they computed under it before. A tuple: never change it."""
    key = (rate, s.over, s.end_flipped, s.phase, s.auction is not None or bool(s.current), len(s.offering),
           tuple(s.deck), tuple(s.company_owner), tuple(s.corp_active), tuple(s.corp_issued), tuple(s.corp_card),
           tuple(s.corp_cash))
    sched = _SCHEDULES.get(key)
    if sched is None:
        if len(_SCHEDULES) >= _SCHEDULES_MAX:
            _SCHEDULES.clear()
        sched = _SCHEDULES[key] = _Sched(_horizon(s, rate))
    return sched


def _horizon(s: StarsState, rate: float) -> list[tuple[int, int]]:
    sched = forecast(s, rate)
    cap = len(sched)
    for c in range(D.N_CORPS):
        if not s.corp_active[c] or s.corp_issued[c] <= 0:
            continue
        k = s.corp_card[c]
        if k < 0:
            need = 0 if s.phase <= 7 else 1
        elif fair_card(s.corp_issued[c], corp_book(s, c, sched[:3])) >= D.TOP_CARD:
            need = (D.TOP_CARD - k + 1) // 2
        else:
            continue
        if s.phase > 7:
            need = max(need, 1)
        cap = min(cap, max(need, 1 if s.phase <= 5 or s.phase > 7 else 0))
    return sched[:cap]


def _cost_at(counts: list[int], drawn: float) -> tuple[int, int]:
    color = top_color_after(counts, int(drawn))
    return D.COST_BY_TOP_COLOR[color] if color is not None else D.END_CARD_FRONT


def cost_for(i: int, cost: tuple[int, int]) -> int:
    """Cost of ownership company ``i`` pays under ``cost``."""
    return cost[0] if cost[1] >> D.COLOR[i] & 1 else 0


def best_stop(nets: list[float], end_bonus: float, stop_bonus: float = 0.0, keep_now: bool = False) -> float:
    """Best total of a company's yearly results ``nets``: keep it to the end (and get
    ``end_bonus``) or close it after some phase (getting ``stop_bonus``); closing now counts too
    unless ``keep_now`` (then it is kept for at least the next income phase)."""
    best = -1e18 if keep_now and nets else stop_bonus
    run = 0.0
    for x in nets:
        run += x
        if run + stop_bonus > best:
            best = run + stop_bonus
    return max(best, run + end_bonus)


def private_value(i: int, sched: list[tuple[int, int]], keep_now: bool = False) -> float:
    """What private company ``i`` is worth to its owner from now on ($): income after cost of
    ownership, and its face value if kept to the end (closing early when that is better; not
    before the next income phase if ``keep_now``)."""
    if sched.__class__ is _Sched:
        memo = sched.privates
        key = (i, keep_now)
        v = memo.get(key)
        if v is None:
            if len(memo) >= _MEMO_MAX:
                memo.clear()
            v = memo[key] = _private_value(i, sched, keep_now)
        return v
    return _private_value(i, sched, keep_now)


def _private_value(i: int, sched, keep_now: bool) -> float:
    return best_stop([D.INCOME[i] - cost_for(i, c) for c in sched], D.FACE[i], 0.0, keep_now)


def corp_income(c: int, companies: list[int], cost: tuple[int, int]) -> int:
    """Collect Income of corporation ``c`` owning ``companies`` under ``cost`` (canonical rules,
    Collect Income, with the special abilities)."""
    return corp_incomes(c, companies, [cost])[0]


def _static_income(c: int, companies: list[int]) -> int:
    """The part of a corporation's income that does not depend on the cost of ownership."""
    printed = 0
    synergy = 0
    pairs = 0
    for a in companies:
        printed += D.INCOME[a]
        syn = _SYN[a]
        for b in companies:
            if b > a and b in syn:
                synergy += syn[b]
                pairs += 1
    bonus = 0
    if c == D.PRUSSIAN:
        bonus = len(companies)
    elif c == D.DOPPLER and companies:
        bonus = D.INCOME[max(companies, key=lambda i: D.FACE[i])]
    elif c == D.SYNERGISTIC:
        bonus = pairs // 2
    return printed + synergy + bonus


class _Incomes(dict):
    """Collect Income of one corporation owning one list of companies, by cost of ownership
    (filled on first use: the costs are the few ``(cost, mask)`` pairs of the data)."""

    __slots__ = ("c", "static", "colors")

    def __init__(self, c: int, companies: list[int]):
        super().__init__()
        self.c = c
        self.static = _static_income(c, companies)
        self.colors = [D.COLOR[i] for i in companies]

    def __missing__(self, cost: tuple[int, int]) -> int:
        paid = 0
        if cost[0]:
            mask = cost[1]
            paid = cost[0] * sum(1 for k in self.colors if mask >> k & 1)
            if self.c == D.VINTAGE:
                paid -= min(10, paid)
        self[cost] = income = self.static - paid
        return income


#: _Incomes by (corporation, *companies): a playout meets the same holdings again and again; the
#: order of the companies is kept in the key (Doppler's bonus takes the first of equal faces)
_INCOMES: dict[tuple[int, ...], _Incomes] = {}
_INCOMES_MAX = 1 << 16


def _incomes_of(c: int, companies: list[int]) -> _Incomes:
    key = (c, *companies)
    table = _INCOMES.get(key)
    if table is None:
        if len(_INCOMES) >= _INCOMES_MAX:
            _INCOMES.clear()
        table = _INCOMES[key] = _Incomes(c, companies)
    return table


def corp_incomes(c: int, companies: list[int], sched: list[tuple[int, int]]) -> list[int]:
    """:func:`corp_income` for each cost of ownership of ``sched``."""
    table = _incomes_of(c, companies)
    return [table[cost] for cost in sched]


def corp_value(c: int, i: int, others: list[int], sched: list[tuple[int, int]], keep_now: bool = False) -> float:
    """What company ``i`` adds to corporation ``c`` (which owns ``others`` besides it) for its
    shareholders ($): $10 per star held to the end plus the extra income it brings each turn;
    closing it early when that is better (Junkyard Scrappers then gets twice its income), not before
    the next income phase if ``keep_now``."""
    if sched.__class__ is _Sched:
        memo = sched.values
        key = (c, i, keep_now, *others)
        v = memo.get(key)
        if v is None:
            if len(memo) >= _MEMO_MAX:
                memo.clear()
            v = memo[key] = _corp_value(c, i, others, sched, keep_now)
        return v
    return _corp_value(c, i, others, sched, keep_now)


def _corp_value(c: int, i: int, others: list[int], sched, keep_now: bool) -> float:
    with_i = others + [i]
    a = corp_incomes(c, with_i, sched)
    b = corp_incomes(c, others, sched)
    nets = [x - y for x, y in zip(a, b, strict=True)]
    stop = 2 * D.INCOME[i] if c == D.JUNKYARD else 0
    return best_stop(nets, 10 * D.STARS[i], stop, keep_now)


def corp_book(s: StarsState, c: int, sched: list[tuple[int, int]], cash_delta: int = 0) -> float:
    """The corporation's value at the end in $ of stars: its companies' stars and treasury now,
    plus the income to come (Stars, Inc. adds its two stars)."""
    owned = s.companies_of(CORP_BASE + c)
    book = 10 * sum(D.STARS[i] for i in owned) + s.corp_cash[c] + cash_delta + 10 * _STARTING.get(c, 0)
    return book + income_sum(c, owned, sched)


def income_sum(c: int, companies: list[int], sched: list[tuple[int, int]]) -> int:
    """The sum of :func:`corp_incomes` ($)."""
    if sched.__class__ is _Sched:
        memo = sched.sums
        key = (c, *companies)
        v = memo.get(key)
        if v is None:
            if len(memo) >= _MEMO_MAX:
                memo.clear()
            v = memo[key] = sum(corp_incomes(c, companies, sched))
        return v
    return sum(corp_incomes(c, companies, sched))


def fair_card(issued: int, book: float) -> int:
    """The highest share price card whose required stars (for ``issued`` shares) ``book`` covers."""
    req = D.REQUIRED_STARS[issued]
    stars = book / 10
    k = 0
    for j in range(1, D.N_CARDS):
        if req[j] <= stars:
            k = j
    return k


def share_value(s: StarsState, c: int, sched: list[tuple[int, int]], card: int | None = None,
                cash_delta: int = 0, issued: int | None = None, moves: int | None = None) -> float:
    """Expected final price of one share of ``c`` ($): its book price, limited to the cards it can
    reach moving at most two per dividend phase left."""
    issued = s.corp_issued[c] if issued is None else issued
    if issued <= 0:
        return 0.0
    k0 = s.corp_card[c] if card is None else card
    if k0 < 0:
        k0 = D.TOP_CARD
    book = corp_book(s, c, sched, cash_delta)
    k = fair_card(issued, book)
    steps = 2 * (len(sched) if moves is None else moves)
    k = max(k0 - steps, min(k0 + steps, k))
    if k <= 0:
        return 0.0
    return float(D.PRICES[k])


def target_after(s: StarsState, c: int, cash_delta: int) -> int:
    """Adjust Share Price's target card of ``c`` if its treasury changed by ``cash_delta``."""
    old = s.corp_cash[c]
    s.corp_cash[c] = old + cash_delta
    try:
        return P.target_card(s, c)
    finally:
        s.corp_cash[c] = old


def _answer_reason(verb: str, gain: float) -> Reason:
    """``"accepts: gains $4 by its reckoning"``, ``"rejects: would lose $3 by its reckoning"``
    (publicly ``"accepts"``, ``"rejects"``: how much is its own reckoning)."""
    if gain > 0:
        return Reason(f"{verb}: gains ${gain:.0f} by its reckoning", verb)
    if gain < -0.5:
        return Reason(f"{verb}: would lose ${-gain:.0f} by its reckoning", verb)
    return Reason(f"{verb}: would gain nothing by its reckoning", verb)


# ------------------------------------------------------------------------------------------- bot


class StarsHeuristicBot:
    """The heuristic Rolling Stock Stars bot (see the module docstring).

    Args:
        seed: accepted for the common bot interface; the bot needs no random numbers.
    """

    name = "heuristic"
    last_reason: str | None = None

    #: expected companies leaving the deck and offering per turn, per player
    RATE_PER_PLAYER = 0.5
    #: minimum gain ($) for an optional action (share trades, offers)
    MARGIN = 1.0
    #: value of each $ a corporation keeps to buy the bot's companies (non-final turns)
    CASH_NEED_WEIGHT = 0.3

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.tried: set = set()
        self._tried_key: tuple = ()
        self._deciding: StarsState | None = None  # the state of the choose() under way
        self._holdings: dict[int, list[int]] = {}

    def _companies(self, s: StarsState, owner: int) -> list[int]:
        """``s.companies_of(owner)``, made once per decision for the state decided on (the list is
        shared: never change it)."""
        if s is self._deciding:
            got = self._holdings.get(owner)
            if got is None:
                got = self._holdings[owner] = s.companies_of(owner)
            return got
        return s.companies_of(owner)

    # -------------------------------------------------------------------------------- helpers
    def sched(self, s: StarsState) -> list[tuple[int, int]]:
        """Cost of ownership forecast for the income phases left."""
        return horizon(s, max(1.0, self.RATE_PER_PLAYER * s.n))

    @staticmethod
    def frac(s: StarsState, c: int, seat: int) -> float:
        """``seat``'s fraction of the issued shares of ``c``."""
        issued = s.corp_issued[c]
        return s.held[c * MAXP + seat] / issued if issued else 0.0

    @staticmethod
    def my_corps(s: StarsState, seat: int) -> list[int]:
        """Corporations ``seat`` presides."""
        return [c for c in range(D.N_CORPS) if s.corp_active[c] and s.president[c] == seat]

    def recall(self, history, seat: int) -> None:
        """Set the memory of proposals for ``seat``'s next decision from the record: its Offers
        among the actions of the current phase (``history``: a :class:`~rolling.bots.base.History`),
        what the bot would remember had it made them all."""
        s = history.state
        self._tried_key = (s.turn, s.phase)
        self.tried = {(D.CORP_INDEX[a.corporation], D.INDEX[a.company], a.price)
                      for a in history.this_phase(seat) if type(a) is Offer}

    def _remember(self, s: StarsState) -> set:
        key = (s.turn, s.phase)
        if key != self._tried_key:
            self._tried_key = key
            self.tried = set()
        return self.tried

    # -------------------------------------------------------------------------------- choose
    def choose(self, s: StarsState, seat: int):
        """Return the bot's action for ``seat`` (which must be in ``s.to_act``).

        Raises:
            ValueError: ``seat`` has no legal action.
        """
        moves = s.legal_moves(seat)
        if not moves:
            raise ValueError(f"seat {seat} has no legal action")
        self.last_reason = None
        sched = schedule(s, max(1.0, self.RATE_PER_PLAYER * s.n))
        self._deciding, self._holdings = s, {}
        try:
            a = self._decide(s, seat, moves, sched)
        finally:
            self._deciding = None
        if a is None:
            m = moves[0]
            a = m.action(m.lo if m.field else None)
        return a

    def _decide(self, s: StarsState, seat: int, moves, sched):
        phase = s.phase
        if phase == 1:
            a = self._investment(s, seat, moves, sched)
        elif phase == 3:
            a = self._acquisition(s, seat, moves, sched)
        elif phase == 4:
            a = self._closing(s, seat, moves, sched)
        elif phase == 6:
            a = self._dividend(s, seat, moves, sched)
        elif phase == 8:
            a = self._issue(s, seat, moves, sched)
        elif phase == 9:
            a = self._ipo(s, seat, moves, sched)
        else:
            a = None
        return a

    # ---------------------------------------------------------------------------- valuations
    def company_worth(self, s: StarsState, seat: int, i: int, sched, exclude: int = -1) -> float:
        """What owning private company ``i`` is worth to ``seat``: kept, or sold at the top of its
        span to one of its corporations (other than ``exclude``) in a phase 3."""
        return self.worth_and_buyer(s, seat, i, sched, exclude)[0]

    def worth_and_buyer(self, s: StarsState, seat: int, i: int, sched, exclude: int = -1) -> tuple[float, int]:
        """:meth:`company_worth` and the corporation whose purchase makes it (-1: kept private)."""
        best, buyer = private_value(i, sched), -1
        for c in self.my_corps(s, seat):
            if c == exclude:
                continue
            cash = s.corp_cash[c]
            if cash < D.SPAN_LO[i]:
                continue
            p = min(D.SPAN_HI[i], cash)
            f = self.frac(s, c, seat)
            v = p + f * (corp_value(c, i, self._companies(s, CORP_BASE + c), sched) - p)
            if v > best:
                best, buyer = v, c
        return best, buyer

    def why_worth(self, s: StarsState, seat: int, i: int, sched) -> tuple[float, str]:
        """:meth:`company_worth` of ``i`` and, in a few words, where that worth comes from."""
        worth, c = self.worth_and_buyer(s, seat, i, sched)
        if c < 0:
            return worth, "its income for the turns left"
        partners = [D.CODES[j] for j, _ in D.SYNERGY[i] if s.company_owner[j] == CORP_BASE + c]
        if partners:
            return worth, f"synergies with {' and '.join(partners)} in {s.corp_code(c)}"
        return worth, f"{s.corp_code(c)} can buy it from it"

    def deal_gain(self, s: StarsState, seat: int, buyer: int, i: int, price: int, sched) -> float:
        """What ``seat`` gains if corporation ``buyer`` buys company ``i`` for ``price`` $."""
        owner = s.company_owner[i]
        owned = self._companies(s, CORP_BASE + buyer)
        fb = self.frac(s, buyer, seat)
        gain = fb * (corp_value(buyer, i, owned, sched) - price)
        if fb and sched and s.corp_cash[buyer] - price + _incomes_of(buyer, owned + [i])[sched[0]] < 0:
            gain -= 1000 * fb  # the buyer could not pay its income in phase 5 and would go bankrupt
        if owner == seat:
            gain += price - self.company_worth(s, seat, i, sched, exclude=buyer)
        elif CORP_BASE <= owner < FOREIGN_INVESTOR:
            o = owner - CORP_BASE
            f = self.frac(s, o, seat)
            if f:
                others = [j for j in self._companies(s, owner) if j != i]
                gain += f * (price - corp_value(o, i, others, sched))
        return gain

    def bundle_gain(self, s: StarsState, seat: int, transactions, sched) -> float:
        """What ``seat`` gains from a deal (variant deals): :meth:`deal_gain` of each purchase, on
        the state left by the purchases before it, so that a swap counts what each side gives up."""
        return sum(
            self.deal_gain(t, seat, c, i, price, sched)
            for t, c, i, price in deals.series(s, deals.purchases_of(s, transactions))
        )

    # ---------------------------------------------------------------------------- phase 1
    def _investment(self, s: StarsState, seat: int, moves, sched):
        if s.auction is not None:
            i, high = s.auction[0], s.auction[1]
            limit, why = self.why_worth(s, seat, i, sched)
            for m in moves:
                if m.kind is Bid and high + 1 <= limit and high + 1 <= m.hi:
                    self.last_reason = Reason(f"bids up to ${int(limit)} for {D.CODES[i]}: {why}",
                                              f"bids for {D.CODES[i]}: {why}")
                    return m.action(high + 1)
            # publicly only that it leaves: why (its limit, or its cash) is its own business
            self.last_reason = Reason(f"leaves: {D.CODES[i]} is worth ${int(limit)} to it ({why}), the bid is ${high}",
                                      f"leaves the auction of {D.CODES[i]}")
            return LeaveAuction(seat)
        best, best_gain = Pass(seat), self.MARGIN
        reason = None
        for m in moves:
            if m.kind is StartAuction:
                i = D.INDEX[m.args["company"]]
                worth, why = self.why_worth(s, seat, i, sched)
                gain = worth - D.FACE[i]
                if gain > best_gain:
                    best, best_gain = m.action(m.lo), gain
                    reason = Reason(f"auctions {D.CODES[i]} (face ${D.FACE[i]}): worth ${int(worth)} to it, {why}",
                                    f"auctions {D.CODES[i]}: {why}")
            elif m.kind is BuyShare:
                c = D.CORP_INDEX[m.args["corporation"]]
                gain = self._buy_gain(s, seat, c, sched)
                if gain > best_gain:
                    best, best_gain = m.action(), gain
                    reason = Reason(f"buys a share of {s.corp_code(c)}: gains ${gain:.0f} by its reckoning",
                                    f"buys a share of {s.corp_code(c)}: a gain by its reckoning")
            elif m.kind is SellShare:
                c = D.CORP_INDEX[m.args["corporation"]]
                gain = self._sell_gain(s, seat, c, sched)
                if gain > best_gain:
                    best, best_gain = m.action(), gain
                    reason = Reason(f"sells a share of {s.corp_code(c)}: gains ${gain:.0f} by its reckoning",
                                    f"sells a share of {s.corp_code(c)}: a gain by its reckoning")
        self.last_reason = reason
        return best

    def _control_value(self, s: StarsState, seat: int, c: int, sched, frac: float) -> float:
        """What presiding ``c`` is worth to ``seat`` beyond its shares: it can sell the corporation
        its private companies at the top of their span."""
        cash = s.corp_cash[c]
        gain = 0.0
        for i in self._companies(s, seat):
            if cash < D.SPAN_LO[i]:
                continue
            p = min(D.SPAN_HI[i], cash)
            g = (1 - frac) * (p - private_value(i, sched))
            if g > 0:
                gain += g
                cash -= p
        return gain

    def _buy_gain(self, s: StarsState, seat: int, c: int, sched) -> float:
        k = P.next_higher_card(s, c)
        price = P.card_price(k)
        if price >= D.PRICES[D.TOP_CARD]:
            # a share bought at $75 ends the game at once: do it only to win
            return 1e6 if self._wins_after(s, seat, BuyShare(seat, D.CORP_SYMBOLS[c])) else -1e9
        ev = share_value(s, c, sched, card=k)
        mine = s.held[c * MAXP + seat]
        gain = ev - price + 0.5 * mine * (price - s.share_price(c))
        pres = s.president[c]
        if pres != seat:
            theirs = s.held[c * MAXP + pres] if pres >= 0 else 0
            if mine + 1 > theirs:
                f = (mine + 1) / s.corp_issued[c]
                gain += self._control_value(s, seat, c, sched, f)
        else:
            # keep the presidency when someone else could take it
            base = c * MAXP
            rival = max((s.held[base + p] for p in range(s.n) if p != seat), default=0)
            if rival >= mine and s.corp_cash[c] > 0:
                gain += self._control_value(s, seat, c, sched, mine / s.corp_issued[c]) + 2
        return gain

    def _sell_gain(self, s: StarsState, seat: int, c: int, sched) -> float:
        k = P.next_lower_card(s, c)
        price = P.card_price(k)
        ev = share_value(s, c, sched)
        mine = s.held[c * MAXP + seat]
        gain = price - ev - (mine - 1) * (s.share_price(c) - price) * (0.5 if len(sched) > 1 else 1.0)
        if s.president[c] == seat:
            base = c * MAXP
            rival = max((s.held[base + p] for p in range(s.n) if p != seat), default=0)
            if rival >= mine - 1:
                gain -= self._control_value(s, seat, c, sched, mine / s.corp_issued[c]) + 5
        return gain

    @staticmethod
    def _wins_after(s: StarsState, seat: int, action) -> bool:
        """True if ``action`` ends the game with ``seat`` winning (ranked first; in the two-handed
        variant a hand of the winning person: the standings' ``win``)."""
        t = s.clone()
        t.apply(action)
        return t.is_over and any(r["win"] for r in t.standings() if r["seat"] == seat)

    # ---------------------------------------------------------------------------- phase 3
    def _acquisition(self, s: StarsState, seat: int, moves, sched):
        tried = self._remember(s)
        best, best_gain = None, 0.0
        for m in moves:
            if m.kind is Respond:
                if m.args["accept"]:
                    gain = self._respond_gain(s, seat, m.args, sched)
                    self.last_reason = _answer_reason("accepts" if gain > 0 else "rejects", gain)
                    return m.action() if gain > 0 else Respond(**(m.args | {"accept": False}))
                continue
            if m.kind is RespondDeal:
                if m.args["accept"]:
                    gain = self.bundle_gain(s, seat, m.args["transactions"], sched)
                    self.last_reason = _answer_reason("accepts the deal" if gain > 0 else "rejects the deal", gain)
                    return m.action() if gain > 0 else RespondDeal(**(m.args | {"accept": False}))
                continue
            if m.kind is not Offer:
                continue
            c = D.CORP_INDEX[m.args["corporation"]]
            i = D.INDEX[m.args["company"]]
            owner = s.company_owner[i]
            if m.field is None:  # from the foreign investor
                price = m.args["price"]
            else:
                price = self._offer_price(s, seat, c, i, m, sched)
                if price is None:
                    continue
            key = (c, i, price)
            if key in tried:
                continue
            gain = self.deal_gain(s, seat, c, i, price, sched)
            if owner == FOREIGN_INVESTOR:
                gain -= 0.5  # others may pre-empt
            if gain > best_gain + 1e-9:
                best, best_gain = (m, price, key), gain
        if best is None:
            return Done(seat)
        m, price, key = best
        tried.add(key)
        c, i, _ = key
        self.last_reason = Reason(f"proposes that {s.corp_code(c)} buy {D.CODES[i]} for ${price}: "
                                  f"gains ${best_gain:.0f} by its reckoning",
                                  f"proposes that {s.corp_code(c)} buy {D.CODES[i]} for ${price}: a gain by its reckoning")
        return m.action(price)

    def _offer_price(self, s: StarsState, seat: int, c: int, i: int, m, sched) -> int | None:
        """The price to propose for company ``i`` (within the move's range), or None."""
        owner = s.company_owner[i]
        if owner == seat:
            return m.hi
        if CORP_BASE <= owner < FOREIGN_INVESTOR and s.president[owner - CORP_BASE] == seat:
            fb = self.frac(s, c, seat)
            fs = self.frac(s, owner - CORP_BASE, seat)
            return m.hi if fs > fb else m.lo
        # another player's company: first the bottom of the span, then their private value
        first = m.lo
        if (c, i, first) not in self.tried:
            return first
        if 0 <= owner < MAXP:
            ask = int(private_value(i, sched)) + 1
        else:
            o = owner - CORP_BASE
            ask = int(corp_value(o, i, [j for j in self._companies(s, owner) if j != i], sched)) + 1
        ask = max(m.lo, min(m.hi, ask))
        return ask

    def _respond_gain(self, s: StarsState, seat: int, args: dict, sched) -> float:
        c = D.CORP_INDEX[args["corporation"]]
        i = D.INDEX[args["company"]]
        if s.announcement is not None or "announcer" in args:
            return self.deal_gain(s, seat, c, i, acquisition.fi_price(c, i), sched)
        for pc, pi, price, _ in s.pending:
            if pc == c and pi == i:
                return self.deal_gain(s, seat, c, i, price, sched)
        return -1.0

    # ---------------------------------------------------------------------------- phase 4
    def _closing(self, s: StarsState, seat: int, moves, sched):
        """Close the company whose keeping is worth least, if that is below what closing brings
        (nothing, or twice the income for Junkyard Scrappers); when the bot must close, the
        private company with the worst income first."""
        forced = must_close(s, seat)
        rescue = self._rescue(s, seat, moves)
        if rescue is not None:
            self.last_reason = public_reason(f"closes {rescue.company} so that its corporation can pay its income in phase 5")
            return rescue
        worst, worst_v = None, 0.0
        for m in moves:
            if m.kind is not Close:
                continue
            i = D.INDEX[m.args["company"]]
            owner = s.company_owner[i]
            if forced:
                if owner != seat:
                    continue
                v = float(D.INCOME[i] - s.company_cost(i))
                if worst is None or v < worst_v:
                    worst, worst_v = m, v
                continue
            if owner == seat:
                v = private_value(i, sched, keep_now=True)
            else:
                c = owner - CORP_BASE
                others = [j for j in self._companies(s, owner) if j != i]
                v = corp_value(c, i, others, sched, keep_now=True) - (2 * D.INCOME[i] if c == D.JUNKYARD else 0)
                v *= self.frac(s, c, seat)
            if v < worst_v - 1e-9:
                worst, worst_v = m, v
        if worst is not None:
            code = worst.args["company"]
            self.last_reason = (public_reason(f"must close a company: {code} earns least") if forced
                                else Reason(f"closes {code}: keeping it is worth ${worst_v:.0f} to it",
                                            f"closes {code}: keeping it would cost it more than it brings"))
            return worst.action()
        if forced:
            return next(m for m in moves if m.kind is Close).action()
        return Done(seat)

    @staticmethod
    def _rescue(s: StarsState, seat: int, moves):
        """A Close that saves one of ``seat``'s corporations from bankruptcy in phase 5 (its
        treasury cannot pay a negative income): the company whose closing raises the income most."""
        closable = {D.INDEX[m.args["company"]]: m for m in moves if m.kind is Close}
        for c in range(D.N_CORPS):
            if not (s.corp_active[c] and s.president[c] == seat):
                continue
            owned = s.companies_of(CORP_BASE + c)
            inc = corp_incomes(c, owned, [s.cost_of_ownership()])[0]
            if s.corp_cash[c] + inc >= 0:
                continue
            best, best_gain = None, 0
            for i in owned:
                if i not in closable:
                    continue
                others = [j for j in owned if j != i]
                g = corp_incomes(c, others, [s.cost_of_ownership()])[0] - inc + (2 * D.INCOME[i] if c == D.JUNKYARD else 0)
                if g > best_gain:
                    best, best_gain = closable[i], g
            if best is not None:
                return best.action()
        return None

    # ---------------------------------------------------------------------------- phase 6
    def _dividend(self, s: StarsState, seat: int, moves, sched):
        m = moves[0]
        c = D.CORP_INDEX[m.args["corporation"]]
        issued = s.corp_issued[c]
        mine = s.held[c * MAXP + seat]
        rest = sched  # in phase 6 the forecast starts with the next turn's income
        need = self._cash_need(s, seat, c, rest)
        # keep what next turn's income may cost (a corporation that cannot pay goes bankrupt)
        reserve = max(0, -corp_incomes(c, self._companies(s, CORP_BASE + c), rest[:1])[0]) if rest else 0
        best, best_v = m.lo, -1e18
        for d in range(m.lo, m.hi + 1):
            delta = -d * issued
            if d and s.corp_cash[c] + delta < reserve:
                break
            k = target_after(s, c, delta)
            if k == 0:
                continue
            if rest:
                ev = share_value(s, c, rest, card=k, cash_delta=delta)
                keep = s.corp_cash[c] + delta
                v = mine * (d + ev) + self.CASH_NEED_WEIGHT * min(keep, need)
            else:
                v = mine * (d + P.card_price(k))
            if v > best_v + 1e-9:
                best, best_v = d, v
        said = f"pays ${best} a share from {s.corp_code(c)}: best for its {mine} share{'s' if mine != 1 else ''}"
        self.last_reason = Reason(said + (f", keeping ${reserve} for next turn's income" if reserve else ""), said)
        return m.action(best)

    def _cash_need(self, s: StarsState, seat: int, c: int, sched) -> float:
        """$ corporation ``c`` could usefully spend buying ``seat``'s private companies."""
        if not sched:
            return 0.0
        need = 0.0
        for i in self._companies(s, seat):
            if D.SPAN_HI[i] > private_value(i, sched):
                need += D.SPAN_HI[i]
        return need

    # ---------------------------------------------------------------------------- phase 8
    def _issue(self, s: StarsState, seat: int, moves, sched):
        m = moves[0]
        c = D.CORP_INDEX[m.args["corporation"]]
        if s.corp_issued[c] >= D.CORP_SHARES[c] or len(sched) < 2:
            return Issue(seat, m.args["corporation"], False)
        mine = s.held[c * MAXP + seat]
        now = mine * share_value(s, c, sched) + self._control_value(s, seat, c, sched, self.frac(s, c, seat))
        t = s.clone()
        t.apply(Issue(seat, m.args["corporation"], True))
        if not t.corp_active[c]:
            return Issue(seat, m.args["corporation"], False)
        after = mine * share_value(t, c, sched) + self._control_value(t, seat, c, sched, self.frac(t, c, seat))
        issue = after > now + self.MARGIN
        if issue:
            self.last_reason = Reason(f"issues a share of {s.corp_code(c)}: its stake gains ${after - now:.0f}",
                                      f"issues a share of {s.corp_code(c)}: its stake gains")
        return Issue(seat, m.args["corporation"], issue)

    # ---------------------------------------------------------------------------- phase 9
    def _ipo(self, s: StarsState, seat: int, moves, sched):
        decline = None
        best, best_v = None, 0.0
        rest = sched  # in phase 9 the forecast starts with the next turn's income
        if not rest:
            return DeclineIpo(seat, moves[0].args["company"])
        for m in moves:
            if m.kind is DeclineIpo:
                decline = m.action()
                continue
            a = m.action()
            i = D.INDEX[a.company]
            c = D.CORP_INDEX[a.corporation]
            price = a.price
            n = P.ipo_shares(D.FACE[i], price)
            pay = n * price - D.FACE[i]
            cash = 2 * n * price - D.FACE[i]
            book = 10 * D.STARS[i] + cash + 10 * _STARTING.get(c, 0) + sum(corp_incomes(c, [i], rest))
            k = D.CARD_OF_PRICE[price]
            kk = fair_card(2 * n, book)
            steps = 2 * len(rest)
            kk = max(k - steps, min(k + steps, kk))
            ev = D.PRICES[kk] if kk > 0 else 0
            v = n * ev - pay - private_value(i, sched)
            # its treasury can buy the bot's other private companies at the top of their span
            left = cash
            for j in sorted(self._companies(s, seat), key=lambda j: -D.SPAN_HI[j]):
                if j == i or left < D.SPAN_LO[j]:
                    continue
                p = min(D.SPAN_HI[j], left)
                g = 0.5 * (p - private_value(j, rest))
                if g > 0:
                    v += g
                    left -= p
            if c == D.OVERSEAS:
                v += 1
            if v > best_v + 1e-9:
                best, best_v = a, v
        if best is not None:
            c = D.CORP_INDEX[best.corporation]
            self.last_reason = Reason(f"forms {s.corp_code(c)} from {best.company} at ${best.price}: "
                                      f"worth ${best_v:.0f} more than keeping it private",
                                      f"forms {s.corp_code(c)} from {best.company} at ${best.price}: "
                                      "better than keeping it private")
            return best
        return decline
