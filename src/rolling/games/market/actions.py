"""Rolling Market's actions: buy, sell and done (Phase Two: buying/selling).

A turn's trades are one buy action (any number of shares of one company) and one sell action
(any number of shares of another company), in either order, both optional; in the last two turns
two sell actions of different companies may replace them. ``Done`` ends the buy/sell phase.

Companies are numbered 0..3 (shown as A..D). Actions are immutable and interned: ``buy(c, n)``
and friends return shared instances, so enumerating legal actions allocates nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rolling.core.action import Action, action_type, json_reader
from rolling.core.errors import RecordError

from .rules import COMPANIES, MAX_SHARES, N_COMPANIES

#: JSON type name -> action class
ACTIONS: dict[str, type] = {}


@action_type(ACTIONS, "buy")
@dataclass(frozen=True, slots=True)
class Buy(Action):
    """Buy ``shares`` shares (1..12) of ``company`` (0..3), one after another at the current value."""

    company: int
    shares: int

    def __str__(self) -> str:
        return f"buy {COMPANIES[self.company]} {self.shares}"


@action_type(ACTIONS, "sell")
@dataclass(frozen=True, slots=True)
class Sell(Action):
    """Sell ``shares`` shares (1..12) of ``company`` (0..3), one after another at the current value."""

    company: int
    shares: int

    def __str__(self) -> str:
        return f"sell {COMPANIES[self.company]} {self.shares}"


@action_type(ACTIONS, "done")
@dataclass(frozen=True, slots=True)
class Done(Action):
    """End this turn's buying/selling; the next turn (or the end of the game) follows."""

    def __str__(self) -> str:
        return "done"


DONE = Done()
_BUYS = tuple(tuple(Buy(c, n) for n in range(MAX_SHARES + 1)) for c in range(N_COMPANIES))
_SELLS = tuple(tuple(Sell(c, n) for n in range(MAX_SHARES + 1)) for c in range(N_COMPANIES))


def buy(company: int, shares: int) -> Buy:
    """The shared ``Buy`` instance for ``company`` 0..3 and ``shares`` 0..12 (others: a new one)."""
    if 0 <= company < N_COMPANIES and 0 <= shares <= MAX_SHARES:
        return _BUYS[company][shares]
    return Buy(company, shares)


def sell(company: int, shares: int) -> Sell:
    """The shared ``Sell`` instance for ``company`` 0..3 and ``shares`` 0..12 (others: a new one)."""
    if 0 <= company < N_COMPANIES and 0 <= shares <= MAX_SHARES:
        return _SELLS[company][shares]
    return Sell(company, shares)


_read = json_reader(ACTIONS)


def action_from_json(data: Any) -> Action:
    """Read a Rolling Market action from ``{"type": "buy"|"sell"|"done", ...}``.

    Raises:
        RecordError: unknown type, missing or extra fields, wrong kinds, or a company outside 0..3.
    """
    action = _read(data)
    if isinstance(action, (Buy, Sell)) and not 0 <= action.company < N_COMPANIES:
        raise RecordError(f"action {data!r}: company must be 0..{N_COMPANIES - 1}")
    return action
