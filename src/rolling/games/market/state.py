"""Rolling Market's game state: the rules engine (see docs/market-rules.txt and docs/market.md).

The player always acts as seat 0. ``apply`` takes a buy, sell or done action; after ``done`` the
state rolls the next turn's dice itself, running closed-market turns until the next buy/sell
turn or the end of the game, so the state is always either waiting for a trade or over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rolling.core.action import Action, check_fields
from rolling.core.errors import IllegalAction, RecordError
from rolling.core.record import check_keys
from rolling.core.rng import Rng
from rolling.core.state import stable_digest

from . import events as E
from . import rules as R
from .actions import DONE, Buy, Done, Sell, buy, sell


@dataclass(frozen=True)
class MarketConfig:
    """Rolling Market has no options; the config exists so records look like every other game's."""

    def to_json(self) -> dict[str, Any]:
        """Return the config's JSON form, ``{}``."""
        return {}


def config_from_json(data: Any) -> MarketConfig:
    """Read a :class:`MarketConfig` from JSON (``{}``; ``{"game": "market"}`` is also accepted).

    Raises:
        RecordError: not an object, or an unknown key.
    """
    if not isinstance(data, dict):
        raise RecordError("the market config must be a JSON object")
    check_keys({k: v for k, v in data.items() if k != "game"}, ())  # "game" only names the game
    if data.get("game", "market") != "market":
        raise RecordError(f"config 'game' must be 'market', got {data['game']!r}")
    return MarketConfig()


def _letters(mask: int) -> str:
    return ",".join(R.COMPANIES[c] for c in range(R.N_COMPANIES) if mask >> c & 1)


class MarketState:
    """A game of Rolling Market in progress.

    Attributes (read them, change them only through :meth:`apply`):
        values: list of 4 share values, each 1..6 (companies A..D).
        shares: list of 4 share counts, each 0..12.
        cash: the player's dollars (the score).
        turns_left: the turn tracker: 12 at the start, one less at each buy/sell turn's Phase
            Two, so 11..0 while trading; the game ends when a turn with 0 left is done.
        volatility: this buy/sell turn's volatility, 2..5, or 3 in the last two turns.
        bought: the company bought this turn, or -1.
        sold: bit mask of the companies sold this turn.
        dice: the last roll, ``(a, b, c, d, volatility die)``; the volatility die is 0 in the
            last two turns, where it is set to 3 and not rolled.
        before: the four values before the last roll's fluctuation.
        rolled: the four values right after it (before this turn's trades).
        splits: bit mask of the companies that split in the last roll.
        rolls: market fluctuations so far (buy/sell turns plus closed turns).
        closed: closed-market turns so far.
        overflow_cash: dollars received so far from overflow sales after splits.
        rng: the state's only source of randomness.
        log: events (:mod:`.events`) when :meth:`enable_log` was called, else ``None``.
    """

    __slots__ = (
        "values", "shares", "cash", "turns_left", "volatility", "bought", "sold", "n_sold",
        "over", "dice", "before", "rolled", "splits", "rolls", "closed", "overflow_cash", "rng", "seed", "log",
    )

    def __init__(self, seed: int = 0, *, roll: bool = True):
        """Start a game (Starting): values 3, no shares, $10, the tracker at 12, then the first roll.

        Args:
            seed: the seed of the state's :class:`Rng`.
            roll: roll the first turn at once (``False`` leaves the state before its first roll;
                only for tests that set values by hand and then call :meth:`roll`).
        """
        self.seed = seed
        self.values = [R.START_VALUE] * R.N_COMPANIES
        self.shares = [0] * R.N_COMPANIES
        self.cash = R.START_CASH
        self.turns_left = R.BUY_SELL_TURNS
        self.volatility = 0
        self.bought = -1
        self.sold = 0
        self.n_sold = 0
        self.over = False
        self.dice: tuple[int, ...] = ()
        self.before: tuple[int, ...] = tuple(self.values)
        self.rolled: tuple[int, ...] = tuple(self.values)
        self.splits = 0
        self.rolls = 0
        self.closed = 0
        self.overflow_cash = 0
        self.rng = Rng(seed)
        self.log: list[tuple] | None = None
        if roll:
            self.roll()

    # --- the State protocol -------------------------------------------------------------

    @property
    def to_act(self) -> tuple[int, ...]:
        """``(0,)`` while the game goes on, ``()`` once it is over."""
        return () if self.over else (0,)

    @property
    def is_over(self) -> bool:
        """True after the 12th buy/sell turn is done."""
        return self.over

    @property
    def reveals(self) -> int:
        """How many rolls of the dice the game has seen (:mod:`rolling.core.reveal`): the only
        chance in Rolling Market, so each roll is a reveal."""
        return self.rolls

    @property
    def last_reveal(self) -> tuple[str, str] | None:
        """``("dice", "")`` once the dice have been rolled (:mod:`rolling.core.reveal`)."""
        return ("dice", "") if self.rolls else None

    @property
    def final_turn(self) -> bool:
        """One of the last two buy/sell turns (volatility 3, two sell actions allowed)."""
        return self.turns_left < R.FINAL_TURNS

    def enable_log(self) -> None:
        """Keep events in :attr:`log` from now on (off by default, for speed); :meth:`log_lines`
        renders them."""
        if self.log is not None:
            return
        header = (E.START, E.PUBLIC, R.START_VALUE, R.START_CASH, R.BUY_SELL_TURNS)
        fresh = (self.turns_left == R.BUY_SELL_TURNS - 1 and self.rolls == self.closed + 1
                 and self.bought < 0 and self.n_sold == 0 and not self.over)
        if fresh:
            # nothing but the opening rolls has happened, and they depend on the seed alone:
            # roll them again with the log on so a replay shows them too
            twin = MarketState(self.seed, roll=False)
            twin.log = [header]
            twin.roll()
            self.log = twin.log
        else:
            self.log = [header, (E.LOG_STARTS, E.PUBLIC, self.rolls, R.BUY_SELL_TURNS - self.turns_left, self.cash)]

    def log_lines(self, seat: int | None = None, start: int = 0) -> list[str]:
        """The log's events from index ``start`` on, as text, one line each (everything is public)."""
        return E.lines(self, seat, start)

    def legal_actions(self, seat: int = 0) -> list[Action]:
        """Every legal action now: each ``Buy(c, n)`` and ``Sell(c, n)`` allowed, then ``Done``.

        At most 97 actions (4 companies x 12 counts x buy/sell, plus done); empty when the game is
        over or ``seat`` is not 0.
        """
        if self.over or seat != 0:
            return []
        out: list[Action] = []
        for c in range(R.N_COMPANIES):
            for n in range(1, self.max_buy(c) + 1):
                out.append(buy(c, n))
        for c in range(R.N_COMPANIES):
            for n in range(1, self.max_sell(c) + 1):
                out.append(sell(c, n))
        out.append(DONE)
        return out

    def apply(self, action: Action) -> None:
        """Apply a buy, sell or done action; after done, roll on to the next buy/sell turn.

        Raises:
            IllegalAction: naming the rule broken; the state is then unchanged.
        """
        if self.over:
            raise IllegalAction(R.R_END, "the game is over")
        check_fields(action, "Actions")  # a company and a number of shares are whole numbers
        t = type(action)
        if t is Buy:
            self._buy(action.company, action.shares)
        elif t is Sell:
            self._sell(action.company, action.shares)
        elif t is Done:
            self._done()
        else:
            raise IllegalAction(R.R_BUY_SELL, f"{action!r} is not a Rolling Market action")

    def standings(self) -> list[dict[str, Any]]:
        """``[{"seat": 0, "score": cash, "rank": 1, "win": True}]``; the score is the cash
        (Introduction); a solitaire has no one to lose to."""
        return [{"seat": 0, "score": self.cash, "rank": 1, "win": True}]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Everything about the game as a JSON-able dict (solitaire: nothing is hidden)."""
        return {
            "game": "market",
            "values": list(self.values),
            "shares": list(self.shares),
            "cash": self.cash,
            "turns_left": self.turns_left,
            "turn": R.BUY_SELL_TURNS - self.turns_left,
            "volatility": self.volatility,
            "final_turn": self.final_turn,
            "bought": self.bought,
            "sold": [c for c in range(R.N_COMPANIES) if self.sold >> c & 1],
            "dice": list(self.dice),
            "before": list(self.before),
            "rolled": list(self.rolled),
            "splits": [c for c in range(R.N_COMPANIES) if self.splits >> c & 1],
            "rolls": self.rolls,
            "closed": self.closed,
            "overflow_cash": self.overflow_cash,
            "over": self.over,
        }

    def clone(self) -> MarketState:
        """An independent copy (the log, if any, is copied too)."""
        s = MarketState.__new__(MarketState)
        s.values = self.values[:]
        s.shares = self.shares[:]
        s.cash = self.cash
        s.turns_left = self.turns_left
        s.volatility = self.volatility
        s.bought = self.bought
        s.sold = self.sold
        s.n_sold = self.n_sold
        s.over = self.over
        s.dice = self.dice
        s.before = self.before
        s.rolled = self.rolled
        s.splits = self.splits
        s.rolls = self.rolls
        s.closed = self.closed
        s.overflow_cash = self.overflow_cash
        s.rng = self.rng.copy()
        s.seed = self.seed
        s.log = None if self.log is None else self.log[:]
        return s

    def digest(self) -> str:
        """A stable hash of the whole game state (the log excluded)."""
        return stable_digest((
            self.values, self.shares, self.cash, self.turns_left, self.volatility, self.bought,
            self.sold, self.n_sold, self.over, self.dice, self.before, self.rolled, self.splits, self.rolls,
            self.closed, self.overflow_cash, self.rng.state, self.seed,
        ))

    # --- what a trade may do, for bots, the env and the screen -------------------------

    def can_buy(self) -> bool:
        """Whether a buy action is still open this turn (not yet bought, and not two sells)."""
        return not self.over and self.bought < 0 and self.n_sold < 2

    def sells_allowed(self) -> int:
        """Sell actions this turn: 2 in the last two turns unless a buy was made, else 1."""
        return 2 if self.final_turn and self.bought < 0 else 1

    def max_buy(self, company: int) -> int:
        """The most shares of ``company`` buyable now (0 if no buy is possible)."""
        if not self.can_buy() or self.sold >> company & 1:
            return 0
        room = R.MAX_SHARES - self.shares[company]
        v, vol, cash = self.values[company], self.volatility, self.cash
        n = 0
        while n < room and R.buy_cost(v, n + 1, vol)[0] <= cash:
            n += 1
        return n

    def max_sell(self, company: int) -> int:
        """The most shares of ``company`` sellable now (0 if no sell is possible)."""
        if self.over or self.n_sold >= self.sells_allowed() or company == self.bought or self.sold >> company & 1:
            return 0
        return self.shares[company]

    def quote_buy(self, company: int, n: int) -> tuple[int, int]:
        """``(cost, value after)`` of buying ``n`` shares of ``company`` now (no legality check)."""
        return R.buy_cost(self.values[company], n, self.volatility)

    def quote_sell(self, company: int, n: int) -> tuple[int, int]:
        """``(proceeds, value after)`` of selling ``n`` shares of ``company`` now (no legality check)."""
        return R.sell_proceeds(self.values[company], n, self.volatility)

    # --- Phase Two: buying/selling -------------------------------------------------------

    def _check_company(self, company: int, shares: int) -> None:
        if not (isinstance(company, int) and 0 <= company < R.N_COMPANIES):
            raise IllegalAction(R.R_BUY_SELL, f"there is no company {company!r} (0..3, A..D)")
        if not isinstance(shares, int) or shares < 1:
            raise IllegalAction(R.R_BUY_SELL, f"a trade is of one share or more, not {shares!r}")

    def _buy(self, c: int, n: int) -> None:
        self._check_company(c, n)
        name = R.COMPANIES[c]
        if self.bought >= 0:
            raise IllegalAction(R.R_BUY_SELL, "only one company's shares can be bought on a given turn")
        if self.n_sold >= 2:
            raise IllegalAction(R.R_FINAL, "two sell actions were taken instead of a buy and a sell")
        if self.sold >> c & 1:
            raise IllegalAction(R.R_BUY_SELL, f"{name} was sold this turn; you cannot buy and sell the same company")
        if self.shares[c] + n > R.MAX_SHARES:
            raise IllegalAction(
                "Introduction: up to twelve units of stock",
                f"you hold {self.shares[c]} of {name}; {n} more would exceed {R.MAX_SHARES}",
            )
        cost, after = R.buy_cost(self.values[c], n, self.volatility)
        if cost > self.cash:
            raise IllegalAction(R.R_BUY_SELL, f"{n} {name} cost ${cost}; you have ${self.cash}")
        if self.log is not None:
            self.log.append((E.BUY, E.PUBLIC, n, c, cost, self.values[c], after, self.cash, self.cash - cost))
        self.cash -= cost
        self.shares[c] += n
        self.values[c] = after
        self.bought = c

    def _sell(self, c: int, n: int) -> None:
        self._check_company(c, n)
        name = R.COMPANIES[c]
        if self.n_sold >= self.sells_allowed():
            if self.final_turn and self.n_sold == 1:
                raise IllegalAction(R.R_FINAL, "two sell actions replace the buy and the sell, not add to them")
            if self.final_turn:
                raise IllegalAction(R.R_FINAL, "at most two sell actions per turn")
            raise IllegalAction(R.R_BUY_SELL, "only one company's shares can be sold on a given turn")
        if c == self.bought:
            raise IllegalAction(R.R_BUY_SELL, f"{name} was bought this turn; you cannot buy and sell the same company")
        if self.sold >> c & 1:
            raise IllegalAction(R.R_FINAL, f"{name} was already sold this turn; two sells must be of different companies")
        if n > self.shares[c]:
            raise IllegalAction(R.R_BUY_SELL, f"you hold {self.shares[c]} of {name}, not {n}")
        got, after = R.sell_proceeds(self.values[c], n, self.volatility)
        if self.log is not None:
            self.log.append((E.SELL, E.PUBLIC, n, c, got, self.values[c], after, self.cash, self.cash + got))
        self.cash += got
        self.shares[c] -= n
        self.values[c] = after
        self.sold |= 1 << c
        self.n_sold += 1

    def _done(self) -> None:
        if self.log is not None:
            self.log.append((E.DONE, E.PUBLIC, self.cash))
        if self.turns_left == 0:
            self.over = True
            self.volatility = 0
            self.bought, self.sold, self.n_sold = -1, 0, 0
            if self.log is not None:
                self.log.append((E.GAME_OVER, E.PUBLIC, R.BUY_SELL_TURNS, self.cash))
            return
        self.roll()

    # --- Phase One and the turn tracker ---------------------------------------------------

    def roll(self) -> None:
        """Roll turns until a buy/sell turn begins (Phase One, then Phase Two: Turn Tracking).

        Each roll is four fluctuation dice (companies A..D, applied by :func:`rules.fluctuate`
        and :func:`rules.overflow_sale`) and, unless the player is down to two turns, the
        volatility die. A volatility die of 1 or 6 closes the market: the tracker does not move
        and the next turn is rolled at once. Otherwise the tracker drops by one and the die is
        the turn's volatility; in the last two turns it is 3 and the market is always open.
        """
        rng, values, shares = self.rng, self.values, self.shares
        log = self.log
        while True:
            final = self.turns_left <= R.FINAL_TURNS
            dice = [rng.randint(1, 6) for _ in range(R.N_COMPANIES)]
            vdie = 0 if final else rng.randint(1, 6)
            self.rolls += 1
            self.before = tuple(values)
            self.splits = 0
            notes = []  # split events, logged after the roll's line
            for c in range(R.N_COMPANIES):
                v, s, split = R.fluctuate(values[c], dice[c], shares[c])
                if split:
                    self.splits |= 1 << c
                    kept, excess, got = R.overflow_sale(v, s)
                    if log is not None:
                        notes.append((E.SPLIT_OVERFLOW, E.PUBLIC, c, shares[c], s, v, excess, R.OVERFLOW_FEE_SHARES * v, got)
                                     if excess else (E.SPLIT, E.PUBLIC, c, shares[c], s, v))
                    s = kept
                    self.cash += got
                    self.overflow_cash += got
                values[c] = v
                shares[c] = s
            dice.append(vdie)
            self.dice = tuple(dice)
            self.rolled = tuple(values)
            closed = not final and R.is_closed(vdie)
            if log is not None:
                log.append((E.ROLL, E.PUBLIC, self.rolls, self.dice[:4], vdie, tuple(zip(self.before, self.rolled, strict=True))))
                log.extend(notes)
            if closed:
                self.closed += 1
                if log is not None:
                    log.append((E.CLOSED, E.PUBLIC, vdie, self.turns_left))
                continue
            self.turns_left -= 1
            self.volatility = R.FINAL_VOLATILITY if final else vdie
            self.bought, self.sold, self.n_sold = -1, 0, 0
            if log is not None:
                log.append((E.FINAL_TURN if final else E.TURN, E.PUBLIC, R.BUY_SELL_TURNS - self.turns_left,
                            R.BUY_SELL_TURNS, self.volatility, self.cash, tuple(shares)))
            return


def new_game(config: MarketConfig | None = None, seed: int = 0) -> MarketState:
    """Start a game of Rolling Market and roll to its first buy/sell turn.

    Args:
        config: a :class:`MarketConfig` (there are no options; ``None`` is accepted).
        seed: any integer; the same seed and actions give the same game.
    """
    return MarketState(seed)
