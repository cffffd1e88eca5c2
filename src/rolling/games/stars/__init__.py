"""Rolling Stock Stars (and its v2.2 edition): the rules engine.

Usage::

    from rolling.games.stars import Config, new_game
    s = new_game(Config(players=4), seed=1)
    seat = s.to_act[0]
    s.apply(s.legal_actions(seat)[0])
"""

from rolling.games import GameSpec

from . import actions
from .actions import (
    Bid,
    BuyShare,
    Close,
    Deal,
    DeclineIpo,
    Dividend,
    Done,
    FormCorporation,
    Issue,
    LeaveAuction,
    Offer,
    Pass,
    Respond,
    RespondDeal,
    SellShare,
    StartAuction,
    Transaction,
)
from .config import Config
from .engine import new_game
from .moves import Move
from .state import StarsState


def phase_of(state: StarsState) -> tuple[int, int]:
    """The phase ``state`` is in: ``(turn, phase)`` (canonical rules: "Each turn is divided into the
    following phases")."""
    return state.turn, state.phase


GAME = GameSpec(name="stars", new_game=new_game, config_from_json=Config.from_json, action_from_json=actions.from_json,
                phase_of=phase_of)

__all__ = [
    "GAME",
    "Bid",
    "BuyShare",
    "Close",
    "Config",
    "Deal",
    "DeclineIpo",
    "Dividend",
    "Done",
    "FormCorporation",
    "Issue",
    "LeaveAuction",
    "Move",
    "Offer",
    "Pass",
    "Respond",
    "RespondDeal",
    "SellShare",
    "StarsState",
    "StartAuction",
    "Transaction",
    "new_game",
]
