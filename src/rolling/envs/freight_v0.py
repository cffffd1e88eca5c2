"""Rolling Freight as a PettingZoo AEC environment: ``rolling.envs.freight_v0.env(map=...)``.

Agents ``player_0`` .. ``player_{n-1}`` are the seats. Action space ``Discrete(5965)`` and the
observation vector (3172 float32) are those of :mod:`rolling.research.freight_codec`, one layout
for both maps; docs/research.md documents every index and the rewards. There is no
``parallel_env``: one player acts at a time in Rolling Freight.

Example::

    from rolling.envs import freight_v0
    env = freight_v0.env(map="southern", players=4, reward="score")
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        action = None if term or trunc else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
"""

from __future__ import annotations

from rolling.games.freight import new_game
from rolling.games.freight.setup import config_from_json
from rolling.research import freight_codec as F
from rolling.research.freight_codec import FreightTable

from .aec import RollingAEC, wrapped


class raw_env(RollingAEC):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """Rolling Freight, AEC (see the module docstring).

    Args:
        map: ``"west-coast"`` (2-4 players) or ``"southern"`` (3-5 players).
        players: the number of players (default: 3).
        reward: ``"rank"`` (default) or ``"score"`` (see :func:`rolling.envs.aec.final_rewards`).
        render_mode: ``None`` or ``"ansi"``.

    Raises:
        RecordError: an unknown map or a player count the map does not allow.
        ValueError: an unknown reward or render mode.
    """

    metadata = {"render_modes": ["ansi"], "name": "rolling_freight_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(self, map: str = "west-coast", players: int = 3, reward: str = "rank",  # noqa: A002
                 render_mode: str | None = None):
        self.config = config_from_json({"map": map, "players": players})
        super().__init__(players, F.N_ACTIONS, F.OBS.size, reward, render_mode, F.OBS.low, F.OBS.high)

    def _new_table(self, seed: int) -> FreightTable:
        return FreightTable(new_game(self.config, seed))

    def _render_text(self) -> str:
        s = self.table.state
        rows = [f"{s.config.map} phase {'ABC'[min(s.phase, 2)]} turn {s.turn} ({s.stage})"]
        for p, pl in enumerate(s.players):
            rows.append(f"  seat {p}: ${pl.stock} stock, {pl.stations} stations, dice {' '.join(pl.dice)}")
        return "\n".join(rows) + "\n"


def env(**kwargs):
    """The environment with PettingZoo's usual checks (order enforcing, out-of-bounds actions).

    Takes the arguments of :class:`raw_env`."""
    return wrapped(raw_env(**kwargs))
