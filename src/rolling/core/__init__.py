"""Game-agnostic core: state protocol, actions, seeded RNG, errors, game records and replay."""

from .action import Action, action_from_json, action_type
from .errors import IllegalAction, RecordError, UsageError
from .record import GameRecord, load_record, new_state, replay, save_record
from .rng import Rng
from .state import State, stable_digest

__all__ = [
    "Action",
    "GameRecord",
    "IllegalAction",
    "RecordError",
    "Rng",
    "State",
    "UsageError",
    "action_from_json",
    "action_type",
    "load_record",
    "new_state",
    "replay",
    "save_record",
    "stable_digest",
]
