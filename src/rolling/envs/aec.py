"""The PettingZoo AEC environment shared by Rolling Stock Stars and Rolling Freight.

A *table* (:class:`rolling.research.stars_codec.StarsTable`, :class:`~rolling.research.freight_codec.
FreightTable`) turns the rules engine into one decision at a time on fixed action indices; this
module adds agents, turns, rewards and seeding (docs/research.md).

Turns. ``agent_selection`` is the seat that decides next. When the rules let several seats act (the
any-order phases 3 and 4 of Stars), the next one is the first of them after the seat that acted
last, in seat order, wrapping around (round robin, :func:`next_seat`): a seat that may act is
chosen within ``n - 1`` decisions of others, whatever they do, so nobody starves; and the chosen
seat always has a legal action (the engines' contract, checked in tests/research), so play never
locks up.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError("the PettingZoo environments need pettingzoo: pip install 'rolling[research]'") from e

REWARDS = ("rank", "score")


def next_seat(to_act: tuple[int, ...], last: int, n: int) -> int:
    """The seat of ``to_act`` that comes first after ``last`` in cyclic seat order 0..n-1.

    Raises:
        ValueError: ``to_act`` is empty.
    """
    if not to_act:
        raise ValueError("nobody may act")
    if len(to_act) == 1:
        return to_act[0]
    return min(to_act, key=lambda s: (s - last - 1) % n)


def final_rewards(standings: list[dict[str, Any]], n: int, kind: str) -> dict[int, float]:
    """Seat -> final reward. ``"rank"``: ``(n + 1 - 2 * rank) / (n - 1)``, +1 for first place, -1
    for last, shared ranks sharing the value; ``"score"``: the final score (Stars: $ of cash,
    companies at face value and shares at their price; Freight: $ of stock).

    Stars two-handed variant (rows with a ``hand``): two people play, each with two seats, and the
    standings' ``win`` says who wins (:func:`rolling.games.stars.state.two_handed_winner`), so
    ``"rank"`` gives each hand its person's result, +1 for both hands of the winner and -1 for the
    other two; ``"score"`` gives each hand the score of its person's lower-ranked hand, the one the
    rule compares.
    """
    if any("hand" in r for r in standings):
        if kind == "rank":
            return {r["seat"]: 1.0 if r["win"] else -1.0 for r in standings}
        lower = {}
        for r in standings:  # best first: a person's last row is its lower-ranked hand
            lower[r["hand"]] = float(r["score"])
        return {r["seat"]: lower[r["hand"]] for r in standings}
    if kind == "rank":
        return {r["seat"]: (n + 1 - 2 * r["rank"]) / (n - 1) for r in standings}
    return {r["seat"]: float(r["score"]) for r in standings}


class RollingAEC(AECEnv):
    """A turn-based game as a PettingZoo AEC environment (see the module docstring).

    Subclasses set ``metadata`` and implement ``_new_table(seed)``, ``_render_text()``; they pass
    the player count, the action count, the observation size, the reward kind, the render mode and
    the observation's bounds (the codec's ``OBS.low`` and ``OBS.high``).

    Observations are ``{"observation": float32 (obs_size,), "action_mask": int8 (n_actions,)}``,
    the observation within the finite bounds ``obs_low``/``obs_high`` (the codec's layout,
    docs/research.md); an agent that may not act sees a zero mask. Illegal actions raise ValueError (nothing changes).
    """

    def __init__(self, players: int, n_actions: int, obs_size: int, reward: str, render_mode: str | None,
                 obs_low: np.ndarray, obs_high: np.ndarray):
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        super().__init__()
        self.n = players
        self.reward_kind = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(obs_low, obs_high, shape=(obs_size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(n_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.table = None
        self._last = -1
        self._np_random = None

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def _new_table(self, seed: int):  # pragma: no cover - subclasses implement it
        raise NotImplementedError

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. With ``seed`` the game (deck, player order, dice) is that seed's; without
        one, the next game of the environment's own stream."""
        if seed is not None or self._np_random is None:
            self._np_random = np.random.default_rng(seed)
        game_seed = int(self._np_random.integers(0, 2**62))
        self.table = self._new_table(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._last = -1
        self._select()

    def _select(self) -> None:
        t = self.table
        if t.is_over:
            return
        seat = next_seat(t.to_act, self._last, self.n)
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        return {"observation": self.table.observe(seat), "action_mask": self.table.mask(seat)}

    def step(self, action) -> None:
        """Take ``action`` (an index) for ``agent_selection``.

        Raises:
            ValueError: an illegal action (the game is unchanged), or a non-None action of an
                agent whose game has ended.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_name_mapping[agent]
        self.table.apply_index(seat, int(action))
        self._last = seat
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.table.is_over:
            final = final_rewards(self.table.state.standings(), self.n, self.reward_kind)
            for a in self.agents:
                self.rewards[a] = final[self.agent_name_mapping[a]]
                self.terminations[a] = True
        else:
            self._select()
        self._accumulate_rewards()

    def render(self):
        """A text summary of the game (render_mode ``"ansi"``), else nothing."""
        if self.render_mode != "ansi" or self.table is None:
            return None
        return self._render_text()

    def close(self) -> None:
        self.table = None


def wrapped(env: RollingAEC):
    """``env`` with PettingZoo's usual checks: out-of-bounds actions, then the order of calls."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(env))
