"""The rules engines, one subpackage per game, found by name.

Each game subpackage exposes ``GAME``, a :class:`GameSpec`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rolling.core.errors import RecordError

#: game name -> module that defines ``GAME``
GAME_MODULES = {
    "stars": "rolling.games.stars",
    "market": "rolling.games.market",
    "freight": "rolling.games.freight",
}


@dataclass(frozen=True)
class GameSpec:
    """How the core reaches a game: its name, how to build a state, and how to read JSON.

    Attributes:
        name: registry name.
        new_game: ``(config, seed) -> State``.
        config_from_json: ``dict -> config``; raises RecordError for a bad config.
        action_from_json: ``dict -> Action``; raises RecordError for a bad action.
        record_config_from_json: ``dict -> config`` for a stored game's config, where a game reads
            an older record differently from a new game's options (Freight: a record made before
            its payment order); ``None``: :attr:`config_from_json`.
        phase_of: ``State -> hashable``: the phase a position is in, as the rules count them (Stars:
            ``(turn, phase)``), so that a bot's memory of "this phase" can be rebuilt from the
            record (:class:`rolling.bots.base.History`); ``None``: the game has no such phases
            (its bots remember nothing).
    """

    name: str
    new_game: Callable[[Any, int], Any]
    config_from_json: Callable[[dict], Any]
    action_from_json: Callable[[Any], Any]
    record_config_from_json: Callable[[dict], Any] | None = None
    phase_of: Callable[[Any], Any] | None = None

    def phase(self, state: Any) -> Any:
        """:attr:`phase_of` of ``state`` (``None`` for a game without it)."""
        return self.phase_of(state) if self.phase_of is not None else None

    def read_record_config(self, data: dict) -> Any:
        """A stored game's config (see :attr:`record_config_from_json`).

        Raises:
            RecordError: a config the game rejects.
        """
        return (self.record_config_from_json or self.config_from_json)(data)


def get_game(name: str) -> GameSpec:
    """Return the :class:`GameSpec` of a game by name.

    Raises:
        RecordError: unknown game name.
    """
    module = GAME_MODULES.get(name)
    if module is None:
        raise RecordError(f"unknown game {name!r} (known: {', '.join(GAME_MODULES)})")
    return importlib.import_module(module).GAME
