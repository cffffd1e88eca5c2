"""The bot protocol, shared by every game, and the errors of the bot registry.

A bot is a small object that plays one seat of one game: the runner asks it for an action whenever
its seat may act, and it must answer with a legal action of that state. Bots keep their own
:class:`~rolling.core.rng.Rng` (never the global ``random`` module and never the game's), so a bot
is deterministic given its seed and a game's shuffles do not depend on which bots play it.

**Memory** (issue 30: "kill -9 of any process loses nothing"; the rule "Deterministic"): a bot that
keeps something between two ``choose`` calls besides its random numbers (the heuristic Stars bot:
the proposals it made this phase, so that a rejected offer is not repeated; the search Stars bot:
those, and the companies it has seen out of the Deck) also has ``recall(history, seat)``
(:class:`Recalling`), which sets that memory from the game's record (:class:`History`). A front
end that may hand a decision to a bot object that did not play the game so far (the web app: a
restarted or another worker, a process catching up, an undo) calls it before every decision, so
that the decision is a function of the record only, whichever process makes it. In a game played
straight through by the same objects (``rolling simulate``) the memory ``recall`` rebuilds is the
memory the bot kept, so calling it or not changes no move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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


class History:
    """The game's record as far as it is played, for a bot that rebuilds its memory from it
    (:class:`Recalling`). Cheap to make: nothing is replayed; the actions are read (and turned into
    the game's actions) only as far back as :meth:`this_phase` asks.

    Args:
        state: the position now (never change it).
        actions: the record's actions in JSON form, oldest first (only read).
        phases: one per action: the phase (``GameSpec.phase``) of the position it was played in.
        phase: the phase of ``state``.
        action_from_json: the game's reader of an action (``GameSpec.action_from_json``).
        first: returns the position before the first action (after the set-up), called at most once.
    """

    __slots__ = ("_first", "_first_state", "action_from_json", "actions", "phase", "phases", "state")

    def __init__(self, state: Any, actions: Sequence[dict], phases: Sequence[Any], phase: Any,
                 action_from_json: Callable[[Any], Any], first: Callable[[], Any]) -> None:
        self.state = state
        self.actions = actions
        self.phases = phases
        self.phase = phase
        self.action_from_json = action_from_json
        self._first = first
        self._first_state: Any = None

    @classmethod
    def from_record(cls, game: str, config: Any, seed: int, state: Any, actions: Sequence[dict],
                    phases: Sequence[Any]) -> History:
        """The history of a game of ``game`` (``"stars"``...) made with ``config`` and ``seed``,
        ``state`` being the position after ``actions`` (JSON form) played in ``phases``: the
        game's phase and action reader from its :class:`~rolling.games.GameSpec`, the position
        after the set-up made from the record only if a bot asks for it."""
        from rolling.core.record import GameRecord, new_state
        from rolling.games import get_game

        spec = get_game(game)
        return cls(state, actions, phases, spec.phase(state), spec.action_from_json,
                   lambda: new_state(GameRecord(game, config, seed, [])))

    @property
    def first(self) -> Any:
        """The position before the first action (never change it)."""
        if self._first_state is None:
            self._first_state = self._first()
        return self._first_state

    def this_phase(self, seat: int | None = None) -> list[Any]:
        """The actions played since the current phase began (those whose position was in the phase
        of :attr:`state`), oldest first, as the game's actions; with ``seat``, only those that name
        that seat (their ``seat`` field)."""
        k = len(self.phases)
        while k > 0 and self.phases[k - 1] == self.phase:
            k -= 1
        read = self.action_from_json
        return [read(a) for a in self.actions[k:len(self.phases)] if seat is None or a.get("seat") == seat]


@runtime_checkable
class Recalling(Protocol):
    """A bot with memory (see the module docstring)."""

    def recall(self, history: History, seat: int) -> None:
        """Set the bot's memory for ``seat``'s next decision from ``history`` alone: what the bot
        would remember had it played the whole record itself."""
        ...


class SeatError(UsageError):
    """A seat list that cannot be used: an unknown seat or bot, or a count that does not fit."""


class UnknownBot(SeatError):
    """A game without bots, or a bot name the game does not know (the message lists the known ones)."""
