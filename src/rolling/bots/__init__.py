"""Bots for every game, found by game and name.

Usage::

    from rolling.bots import make_bot
    bot = make_bot("heuristic", seed=7)          # a Rolling Stock Stars bot
    action = bot.choose(state, seat)

The registry maps ``(game, name)`` to ``"module:Class"`` and imports a bot's module only when it is
first asked for. Other games add their bots with :func:`register`. Every bot class is built as
``cls(seed=...)`` and follows :class:`~rolling.bots.base.Bot`.
"""

from __future__ import annotations

import importlib

from .base import Bot

#: game -> bot name -> "module:Class" (or the class itself once registered directly)
BOTS: dict[str, dict[str, object]] = {
    "stars": {
        "random": "rolling.bots.stars_random:StarsRandomBot",
        "heuristic": "rolling.bots.stars_heuristic:StarsHeuristicBot",
    },
}


def register(game: str, name: str, target: object) -> None:
    """Add a bot: ``target`` is a class or a ``"module:Class"`` string (imported when first used)."""
    BOTS.setdefault(game, {})[name] = target


def bot_names(game: str = "stars") -> list[str]:
    """The names of the bots known for ``game`` (empty for a game without bots)."""
    return list(BOTS.get(game, {}))


def get_bot_class(name: str, game: str = "stars") -> type:
    """The bot class registered as ``name`` for ``game``.

    Raises:
        KeyError: no such bot (the message lists the known ones).
    """
    table = BOTS.get(game, {})
    if name not in table:
        known = ", ".join(table) or "none"
        raise KeyError(f"unknown {game} bot {name!r} (known: {known})")
    target = table[name]
    if isinstance(target, str):
        module, _, attr = target.partition(":")
        target = getattr(importlib.import_module(module), attr)
        table[name] = target
    return target  # type: ignore[return-value]


def make_bot(name: str, seed: int = 0, game: str = "stars") -> Bot:
    """A new bot ``name`` for ``game``, seeded with ``seed`` (raises KeyError for an unknown name)."""
    return get_bot_class(name, game)(seed=seed)


__all__ = ["BOTS", "Bot", "bot_names", "get_bot_class", "make_bot", "register"]
