"""Rolling Stock Stars as a PettingZoo AEC environment: ``rolling.envs.stars_v0.env()``.

Agents ``player_0`` .. ``player_{n-1}`` are the seats (player order is dealt at setup and is part
of the observation). Action space ``Discrete(2614)`` and the observation vector (4020 float32)
are those of :mod:`rolling.research.stars_codec` (the deals variant's deals included);
docs/research.md documents every index, the turn order of the any-order phases and the rewards. There is no ``parallel_env``: Stars is a
turn-by-turn game, and its any-order phases are played as turns here.

Example::

    from rolling.envs import stars_v0
    env = stars_v0.env(players=4, variants=("secret-money",))
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        action = None if term or trunc else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
"""

from __future__ import annotations

from rolling.games.stars import Config, new_game
from rolling.research import stars_codec as S
from rolling.research.stars_codec import StarsTable

from .aec import RollingAEC, wrapped


class raw_env(RollingAEC):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """Rolling Stock Stars, AEC (see the module docstring).

    Args:
        players: 2-6 (``stars``) or 3-6 (``v2.2``); 4 with ``two-handed``.
        edition: ``"stars"`` or ``"v2.2"``.
        variants: any of ``open-companies``, ``two-handed``, ``secret-money``, ``deals``.
        compat: compatibility options (``18xx``, ``18xx-receivership-buy``).
        reward: ``"rank"`` (default) or ``"score"`` (see :func:`rolling.envs.aec.final_rewards`).
        render_mode: ``None`` or ``"ansi"``.

    Raises:
        RecordError: an invalid setup (the engine's one-line reason).
        ValueError: an unknown reward or render mode.
    """

    metadata = {"render_modes": ["ansi"], "name": "rolling_stars_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(self, players: int = 4, edition: str = "stars", variants: tuple[str, ...] = (),
                 compat: tuple[str, ...] = (), reward: str = "rank", render_mode: str | None = None):
        self.config = S.check_config(Config(players=players, edition=edition, variants=tuple(variants),
                                            compat=tuple(compat)))
        super().__init__(players, S.N_ACTIONS, S.OBS.size, reward, render_mode, S.OBS.low, S.OBS.high)

    def _new_table(self, seed: int) -> StarsTable:
        return StarsTable(new_game(self.config, seed))

    def _render_text(self) -> str:
        s = self.table.state
        rows = [f"turn {s.turn} phase {s.phase}" + (" (over)" if s.over else "")]
        for r in s.standings():
            rows.append(f"  seat {r['seat']}: ${r['cash']} cash, score ${r['score']}")
        return "\n".join(rows) + "\n"


def env(**kwargs):
    """The environment with PettingZoo's usual checks (order enforcing, out-of-bounds actions).

    Takes the arguments of :class:`raw_env`."""
    return wrapped(raw_env(**kwargs))
