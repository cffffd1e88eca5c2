"""Rolling Market: a solitaire dice stock game (rules: docs/market-rules.txt, readings: docs/market.md).

``GAME`` is the registry entry; :func:`new_game` starts a game; :class:`MarketState` is the engine.
"""

from rolling.games import GameSpec

from .actions import ACTIONS, DONE, Buy, Done, Sell, action_from_json, buy, sell
from .rules import COMPANIES
from .state import MarketConfig, MarketState, config_from_json, new_game

GAME = GameSpec(
    name="market",
    new_game=new_game,
    config_from_json=config_from_json,
    action_from_json=action_from_json,
)

__all__ = [
    "ACTIONS",
    "COMPANIES",
    "DONE",
    "GAME",
    "Buy",
    "Done",
    "MarketConfig",
    "MarketState",
    "Sell",
    "action_from_json",
    "buy",
    "config_from_json",
    "new_game",
    "sell",
]
