"""The bot protocol, shared by every game, and the errors of the bot registry.

A bot is a small object that plays one seat of one game: the runner asks it for an action whenever
its seat may act, and it must answer with a legal action of that state. Bots keep their own
:class:`~rolling.core.rng.Rng` (never the global ``random`` module and never the game's), so a bot
is deterministic given its seed and a game's shuffles do not depend on which bots play it.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from rolling.core.errors import UsageError


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``name``, a ``last_reason`` and ``choose(state, seat) -> action``.

    Attributes:
        name: the registry name of the bot (``"random"``, ``"heuristic"``...).
        last_reason: a one-line reason for the action the last ``choose`` returned, or ``None``;
            a :class:`~rolling.bots.reasons.Reason` to have a public part shown while the game
            goes on (a plain ``str`` shows only once the game is over).
    """

    name: str
    last_reason: str | None

    def choose(self, state: Any, seat: int) -> Any:
        """Return one legal action for ``seat``, which is in ``state.to_act``; never change ``state``."""
        ...


class SeatError(UsageError):
    """A seat list that cannot be used: an unknown seat or bot, or a count that does not fit."""


class UnknownBot(SeatError):
    """A game without bots, or a bot name the game does not know (the message lists the known ones)."""
