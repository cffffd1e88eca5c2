"""The state of a Rolling Stock Stars game: who owns what, and where the turn stands.

The state is a slotted record of small integers and short lists so that ``clone()`` is cheap.
Entities are encoded as integers in ``company_owner``:

- ``0..5``: a player (seat);
- ``CORP_BASE + c``: corporation ``c`` (0..7, see :mod:`.data`);
- ``FOREIGN_INVESTOR``;
- ``IN_DECK``, ``IN_OFFERING``, ``GONE`` (removed at setup, closed, or lost in a bankruptcy).

Rules are applied by :mod:`.engine` and the phase modules; this module only holds the state and
answers questions about it.
"""

from __future__ import annotations

from typing import Any

from rolling.core.state import stable_digest

from . import data as D
from .config import Config

CORP_BASE = 10
FOREIGN_INVESTOR = 20
IN_DECK = -1
IN_OFFERING = -2
GONE = -3
MAXP = 6  # stride of the per-corporation share holding table

#: company indexes 0..35, for picking those of one owner
COMPANIES = range(D.N_COMPANIES)

PHASE_NAMES = {
    1: "Investment",
    2: "Wrap-up",
    3: "Acquisition",
    4: "Closing",
    5: "Income",
    6: "Dividends",
    7: "End card",
    8: "Issue share",
    9: "IPO",
}


class StarsState:
    """A Rolling Stock Stars game in progress (implements :class:`rolling.core.State`).

    Build one with :func:`rolling.games.stars.new_game`. Money is in $; seats are 0-based and fixed;
    ``order`` lists the seats in player order (position 1 first).
    """

    __slots__ = (
        "config",
        "n",
        "names",
        "seed",
        "cash",
        "order",
        "company_owner",
        "deck",
        "offering",
        "unavailable",
        "fi_cash",
        "end_flipped",
        "corp_active",
        "corp_cash",
        "corp_card",
        "corp_issued",
        "held",
        "president",
        "card_owner",
        "turn",
        "phase",
        "current",
        "passed",
        "auction",
        "done",
        "pending",
        "announcement",
        "standing",
        "deals",
        "in_flight",
        "received",
        "receivership_queue",
        "processed",
        "price_order",
        "ipo_cursor",
        "over",
        "bank_paid",
        "end_reason",
        "log",
        "reveals",
        "last_reveal",
    )

    def __init__(self, config: Config, seed: int):
        self.config = config
        self.n = config.players
        self.names = config.names or tuple(f"Player {i + 1}" for i in range(config.players))
        self.seed = seed
        self.cash: list[int] = []
        self.order: list[int] = []
        self.company_owner: list[int] = [GONE] * D.N_COMPANIES
        self.deck: list[int] = []  # top card last
        self.offering: list[int] = []
        self.unavailable = 0  # bitmask of companies drawn this phase
        self.fi_cash = D.FI_START_CASH
        self.end_flipped = False
        self.corp_active = [False] * D.N_CORPS
        self.corp_cash = [0] * D.N_CORPS
        self.corp_card = [-1] * D.N_CORPS  # share price card index; -1 = none ($75 when active)
        self.corp_issued = [0] * D.N_CORPS
        self.held = [0] * (D.N_CORPS * MAXP)  # held[c * MAXP + seat] shares held by players
        self.president = [-1] * D.N_CORPS  # seat holding the President's Share; -1 = bank
        self.card_owner = [-1] * D.N_CARDS
        self.turn = 1
        self.phase = 1
        # phase 1
        self.current = 0  # position in player order of the player to act
        self.passed = 0  # bitmask of seats whose player order card is vertical
        self.auction: tuple | None = None  # (company, high bid, high bidder, starter, next position, seats still in)
        # phases 3 and 4 (any order)
        self.done = 0  # bitmask of seats that declared done
        self.pending: tuple = ()  # open purchase proposals: (buyer corp, company, price, seller's seat)
        self.announcement: tuple | None = None  # (announcer, company, pre-emption queue, index asked)
        # compat 18xx-fi-standing-offer: announcements that do not pause the phase,
        # each (announcer, company, corporations still to ask: the first of them is asked now)
        self.standing: tuple = ()
        self.deals: tuple = ()  # variant deals: open deals (proposer, ((corp, company, price), ...), seats to accept)
        self.in_flight = 0  # bitmask of companies transferred this phase
        self.received = [0] * D.N_CORPS  # $ received this phase, in flight
        self.receivership_queue: tuple[int, ...] = ()
        # phases 6 and 8
        self.processed = 0  # bitmask of corporations whose card is vertical
        self.price_order: tuple[int, ...] = ()  # the corporations in share price order as the phase began
        # phase 9
        self.ipo_cursor = -1
        self.over = False
        self.bank_paid = 0  # net $ the (unlimited) bank has paid out; money is conserved around it
        self.end_reason = ""
        self.log: list[tuple] | None = None  # events (see .events), or None when the log is off
        # history, not position (rolling.core.reveal): left out of the fingerprint, like the log
        self.reveals = 0
        self.last_reveal: tuple[str, str] | None = None

    # ------------------------------------------------------------------ protocol
    @property
    def is_over(self) -> bool:
        """True once the game has ended (phase 1 at $75, or phase 7)."""
        return self.over

    # The rules sit above this module and bind their functions here as the state's methods when
    # they are imported (the package always imports them), so the state imports nothing of them
    # and each call goes straight to the rule (one call less on the hottest path):
    # - to_act (property), legal_actions(seat), legal_moves(seat), apply(action): rolling.games.stars.engine;
    # - view(seat): rolling.games.stars.view.view;
    # - enable_log(), log_lines(seat, start): rolling.games.stars.events.

    def standings(self) -> list[dict[str, Any]]:
        """Final ranking (or the ranking if the game ended now), best first.

        Each row: ``{"seat", "name", "score" ($: cash + face values + share prices), "rank",
        "win", "cash", "companies" ($), "shares" ($)}``. Ties are broken by player order (canonical
        rules, Game sequence), so exactly one seat has rank 1. ``win`` says whether the seat wins:
        rank 1, or with the two-handed variant both hands of the person :func:`two_handed_winner`
        names (each row then also names its ``hand``, ``"A"``/``"B"``); every front end, the
        simulations and the research rewards read who wins from ``win``.
        """
        rows = []
        for pos, seat in enumerate(self.order):
            companies = sum(D.FACE[i] for i in range(D.N_COMPANIES) if self.company_owner[i] == seat)
            shares = sum(
                self.held[c * MAXP + seat] * self.share_price(c) for c in range(D.N_CORPS) if self.corp_active[c]
            )
            rows.append(
                {
                    "seat": seat,
                    "name": self.names[seat],
                    "score": self.cash[seat] + companies + shares,
                    "cash": self.cash[seat],
                    "companies": companies,
                    "shares": shares,
                    "order": pos,
                }
            )
        rows.sort(key=lambda r: (-r["score"], r["order"]))
        for rank, r in enumerate(rows, 1):
            r["rank"] = rank
            r["win"] = rank == 1
            del r["order"]
        if "two-handed" in self.config.variants:
            person = two_handed_winner(rows)
            for r in rows:
                r["hand"] = two_handed_person(r["seat"])
                r["win"] = r["hand"] == person
        return rows

    def clone(self) -> StarsState:
        """An independent copy of the state (lists copied, immutable parts shared)."""
        s = StarsState.__new__(StarsState)
        s.config = self.config
        s.n = self.n
        s.names = self.names
        s.seed = self.seed
        s.cash = self.cash[:]
        s.order = self.order[:]
        s.company_owner = self.company_owner[:]
        s.deck = self.deck[:]
        s.offering = self.offering[:]
        s.unavailable = self.unavailable
        s.fi_cash = self.fi_cash
        s.end_flipped = self.end_flipped
        s.corp_active = self.corp_active[:]
        s.corp_cash = self.corp_cash[:]
        s.corp_card = self.corp_card[:]
        s.corp_issued = self.corp_issued[:]
        s.held = self.held[:]
        s.president = self.president[:]
        s.card_owner = self.card_owner[:]
        s.turn = self.turn
        s.phase = self.phase
        s.current = self.current
        s.passed = self.passed
        s.auction = self.auction
        s.done = self.done
        s.pending = self.pending
        s.announcement = self.announcement
        s.standing = self.standing
        s.deals = self.deals
        s.in_flight = self.in_flight
        s.received = self.received[:]
        s.receivership_queue = self.receivership_queue
        s.processed = self.processed
        s.price_order = self.price_order
        s.ipo_cursor = self.ipo_cursor
        s.over = self.over
        s.bank_paid = self.bank_paid
        s.end_reason = self.end_reason
        s.log = None if self.log is None else self.log[:]
        s.reveals = self.reveals
        s.last_reveal = self.last_reveal
        return s

    def digest(self) -> str:
        """A stable hex hash of every rule-relevant field (the log and display names excluded)."""
        return stable_digest(self.fingerprint())

    def fingerprint(self) -> tuple:
        """The rule-relevant fields as one tuple (equal states have equal fingerprints)."""
        return (
            self.config.to_json() | {"names": None},
            self.cash,
            self.order,
            self.company_owner,
            self.deck,
            self.offering,
            self.unavailable,
            self.fi_cash,
            self.end_flipped,
            self.corp_active,
            self.corp_cash,
            self.corp_card,
            self.corp_issued,
            self.held,
            self.president,
            self.card_owner,
            self.turn,
            self.phase,
            self.current,
            self.passed,
            self.auction,
            self.done,
            self.pending,
            self.announcement,
            self.standing,
            self.deals,
            self.in_flight,
            self.received,
            self.receivership_queue,
            self.processed,
            self.price_order,
            self.ipo_cursor,
            self.over,
            self.bank_paid,
            self.end_reason,
        )

    # ------------------------------------------------------------------ queries
    def corp_name(self, c: int) -> str:
        """Display name of corporation ``c`` in this game's edition."""
        return D.CORP_NAMES[self.config.edition][c]

    def corp_code(self, c: int) -> str:
        """Short code of corporation ``c`` in this game's edition (what a person reads and types)."""
        return D.CORP_CODES[self.config.edition][c]

    def entity_name(self, owner: int) -> str:
        """Display name of an owner code (player, corporation, foreign investor)."""
        if 0 <= owner < MAXP:
            return self.names[owner]
        if owner == FOREIGN_INVESTOR:
            return "the foreign investor"
        if owner >= CORP_BASE:
            return self.corp_name(owner - CORP_BASE)
        return "nobody"

    def share_price(self, c: int) -> int:
        """Share price of corporation ``c`` in $ ($75 when it holds no share price card)."""
        k = self.corp_card[c]
        return D.PRICES[k] if k >= 0 else D.PRICES[D.TOP_CARD]

    def bank_shares(self, c: int) -> int:
        """Issued shares of ``c`` owned by the bank."""
        base = c * MAXP
        return self.corp_issued[c] - sum(self.held[base : base + self.n])

    def shares_of(self, c: int, seat: int) -> int:
        """Shares of corporation ``c`` owned by player ``seat``."""
        return self.held[c * MAXP + seat]

    def in_receivership(self, c: int) -> bool:
        """Receivership (Glossary): all issued shares of an active corporation owned by the bank."""
        return self.corp_active[c] and self.president[c] < 0

    def companies_of(self, owner: int) -> list[int]:
        """Companies owned by an owner code, ascending face value."""
        co = self.company_owner
        if owner not in co:  # a scan in C: most owners asked about (players, the investor) own none
            return []
        return [i for i in COMPANIES if co[i] == owner]

    def active_corps(self) -> list[int]:
        """Existing corporations, in share price order (highest first; see Glossary)."""
        active = self.corp_active
        return sorted([c for c in range(D.N_CORPS) if active[c]], key=self.price_key, reverse=True)

    def price_key(self, c: int) -> int:
        """Sort key of Share Price Order: the card's place in the Row, cards being in price order;
        a corporation without a card counts as $75, below the holder of the $75 card (which got
        there first) and above every other card."""
        k = self.corp_card[c]
        return 2 * k if k >= 0 else 2 * D.TOP_CARD - 1

    def next_in_share_price_order(self) -> int | None:
        """Phases 6 and 8: the active corporation with the highest share price whose card has not
        been turned yet (``processed``), or None.

        Only the corporation whose card is being turned changes its share price (or goes
        bankrupt) in these phases, so the order of the others is the one taken as the phase began
        (``price_order``): taking it afresh before each corporation gives the same answer.
        """
        processed, active = self.processed, self.corp_active
        for c in self.price_order:
            if not processed >> c & 1 and active[c]:
                return c
        return None

    def position(self, seat: int) -> int:
        """0-based position of ``seat`` in player order."""
        return self.order.index(seat)

    def top_color(self) -> int | None:
        """Colour of the deck's top company (its back sets the cost of ownership), or None if empty."""
        return D.COLOR[self.deck[-1]] if self.deck else None

    def cost_of_ownership(self) -> tuple[int, int]:
        """(cost $, bitmask of colours paying it) from the top of the deck or the game end card.

        Glossary, Cost of Ownership.
        """
        if self.deck:
            return D.COST_BY_TOP_COLOR[D.COLOR[self.deck[-1]]]
        return D.END_CARD_BACK if self.end_flipped else D.END_CARD_FRONT

    def company_cost(self, i: int) -> int:
        """Cost of ownership in $ that company ``i`` suffers now."""
        cost, mask = self.cost_of_ownership()
        return cost if mask >> D.COLOR[i] & 1 else 0

    def unowned_companies(self) -> int:
        """Number of companies in the deck or the offering."""
        return len(self.deck) + len(self.offering)


def two_handed_person(seat: int) -> str:
    """Two-player two-handed variant: seats 0 and 3 are person A's hands, 1 and 2 person B's."""
    return "A" if seat in (0, 3) else "B"


def two_handed_partner(seat: int) -> int:
    """Two-handed variant: the other hand of the person holding ``seat`` (0 and 3, 1 and 2)."""
    return 3 - seat


def two_handed_winner(standings: list[dict[str, Any]]) -> str:
    """Two-handed variant: the person (``"A"`` or ``"B"``) who wins: "To win, your lower ranked
    simulated player must be better than the lower ranked simulated player of your opponent" (001,
    Two-player two-handed variant). ``standings``: the four rows of :meth:`StarsState.standings`
    (``seat`` and ``rank``, ties already broken by player order, so the two lower-ranked hands
    never tie). This is the one rule: ``standings()`` marks ``win`` with it."""
    worst: dict[str, int] = {}
    for r in standings:
        hand = two_handed_person(r["seat"])
        worst[hand] = max(worst.get(hand, 0), r["rank"])
    return min(worst, key=lambda h: worst[h])
