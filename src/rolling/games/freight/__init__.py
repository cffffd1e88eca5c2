"""Rolling Freight (Kevin G. Nunn): route building and cargo shipping with dice, on two maps.

``GAME`` is the registry entry; ``new_game(Config(map, players), seed)`` starts a game whose
state implements :class:`rolling.core.state.State`. Rule modules follow the rule text's sections:
:mod:`.setup` (Setting Up, Beginning the Game), :mod:`.draft`, :mod:`.contracts` (A),
:mod:`.construction` (B), :mod:`.routes` (C), :mod:`.stations` (D), :mod:`.improvements` (E),
:mod:`.stockpile` (F), :mod:`.refill` (G), :mod:`.dice` (H), :mod:`.phases` (Ending/Beginning
phases, Winning); :mod:`.payment` holds the dice symbols.
"""

from rolling.games import GameSpec

# first of the package's modules (importing it installs its finder): from here on a rule module is
# imported compiled only while its source is unchanged
from . import compiled as compiled

# the dispatcher, on top of the package's tree: importing it binds the state's rule methods
# (FreightState.apply, legal_actions, enable_log, log_lines), so every FreightState has them
from . import legal as legal
from .actions import REGISTRY, freight_action_from_json
from .components import MAP_NAMES, load_components, load_map
from .setup import config_from_json, new_game, record_config_from_json
from .state import Config, FreightState

GAME = GameSpec(name="freight", new_game=new_game, config_from_json=config_from_json,
                action_from_json=freight_action_from_json, record_config_from_json=record_config_from_json)

__all__ = ["GAME", "MAP_NAMES", "REGISTRY", "Config", "FreightState", "config_from_json", "load_components",
           "load_map", "new_game"]
