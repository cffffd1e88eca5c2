"""Single-agent Gymnasium environments against our bots: ``rolling/StarsVsBots-v0`` and
``rolling/FreightVsBots-v0`` (docs/research.md, "Learning against bots").

The learner holds one seat (``seat=``, or a seat drawn per episode when ``seat=None``); every other
seat is played by one of the game's bots (:func:`rolling.bots.make_bot`: ``"random"``,
``"heuristic"``, ``"search:200"`` ...), named by ``opponents=`` in seat order, the learner's seat
left out. One episode is one game. Between two decisions of the learner the bots play, in the
turn order of the PettingZoo environments (:func:`rolling.envs.aec.next_seat`: in Stars' any-order
phases, round robin after the seat that acted last).

Spaces are those of the research codecs (:mod:`rolling.research.stars_codec`,
:mod:`rolling.research.freight_codec`): ``Discrete`` action indices (documented block by block by
:func:`rolling.research.layout.action_layout`) and a float32 observation ``Box`` with finite bounds
(the codec's ``OBS.low`` / ``OBS.high``). ``info["action_mask"]`` (int8, shape ``(n_actions,)``)
marks the legal indices, and :meth:`VsBotsEnv.action_masks` returns it as bools, the hook of
sb3-contrib's ``MaskablePPO``. An illegal index changes nothing, gives reward 0 and sets
``info["illegal_action"] = True``.

Reward, once, when the game ends (0 before), ``reward=``:

- ``"rank"`` (default): ``(n + 1 - 2 * rank) / (n - 1)``, +1 first, -1 last (Stars two-handed: +1
  if the learner's person wins, else -1), :func:`rolling.envs.aec.final_rewards`;
- ``"score"``: the learner's final score in $ (Stars: cash + companies + shares; Freight: stock);
- ``"margin"``: the learner's score minus the best score of another player ($; Stars two-handed:
  the scores the rule compares, each person's lower-ranked hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from rolling.bots import make_bot

from .aec import final_rewards, next_seat

REWARDS = ("rank", "score", "margin")


def learner_reward(standings: list[dict[str, Any]], n: int, seat: int, kind: str) -> float:
    """The learner's final reward (see the module docstring) from the engine's standings.

    Raises:
        ValueError: an unknown reward kind.
    """
    if kind in ("rank", "score"):
        return float(final_rewards(standings, n, kind)[seat])
    if kind != "margin":
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {kind!r}")
    score = final_rewards(standings, n, "score")
    hand = {r["seat"]: r.get("hand", r["seat"]) for r in standings}
    others = [v for s, v in score.items() if hand[s] != hand[seat]]
    return float(score[seat] - max(others))


class VsBotsEnv(gym.Env):
    """The learner in one seat of a Rolling game, bots in the others (see the module docstring).

    Subclasses set ``game`` (the bots' game name) and ``codec_table_class`` (the codec's table),
    pass the codec module (``N_ACTIONS``, ``OBS``) and make the engine state (``_new_state(seed)``).

    Raises:
        ValueError: a seat outside the table, an opponent list of the wrong length, an unknown
            reward or render mode.
        UnknownBot: an opponent the game does not know (the message lists its bots).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}
    game = ""

    def __init__(self, codec, players: int, seat: int | None, opponents: str | Sequence[str] | None,
                 reward: str, render_mode: str | None):
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if seat is not None and not 0 <= int(seat) < players:
            raise ValueError(f"seat must be 0..{players - 1} or None (drawn per episode), got {seat}")
        if opponents is None:
            opponents = ("heuristic",) * (players - 1)
        elif isinstance(opponents, str):
            opponents = (opponents,) * (players - 1)
        opponents = tuple(opponents)
        if len(opponents) != players - 1:
            raise ValueError(f"opponents must name {players - 1} bots (one per other seat), got {len(opponents)}")
        for name in opponents:
            make_bot(self.game, name)  # an unknown bot fails here, not at the first reset
        self.codec = codec
        self.n = players
        self.fixed_seat = None if seat is None else int(seat)
        self.opponents = opponents
        self.reward_kind = reward
        self.render_mode = render_mode
        self.observation_space = spaces.Box(codec.OBS.low, codec.OBS.high, dtype=np.float32)
        self.action_space = spaces.Discrete(codec.N_ACTIONS)
        self.table = None
        self.seat = self.fixed_seat if self.fixed_seat is not None else 0
        self.bots: dict[int, Any] = {}
        self._last = -1

    def _new_state(self, seed: int):  # pragma: no cover - subclasses implement it
        raise NotImplementedError

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        return {"action_mask": self.table.mask(self.seat), "illegal_action": illegal, "seat": self.seat}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start a new game (its deal, dice and bots' seeds drawn from the environment's
        ``np_random``); the bots play until the learner's first decision.

        Returns:
            ``(observation, info)``.
        """
        super().reset(seed=seed)
        rng = self.np_random
        self.table = self.codec_table_class(self._new_state(int(rng.integers(0, 2**62))))
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(0, self.n))
        others = [s for s in range(self.n) if s != self.seat]
        self.bots = {s: make_bot(self.game, name, seed=int(rng.integers(0, 2**62)))
                     for s, name in zip(others, self.opponents, strict=True)}
        self._last = -1
        self._play_bots()
        return self.table.observe(self.seat), self._info()

    def _play_bots(self) -> None:
        """Let the bots act until the learner decides next or the game is over."""
        t = self.table
        while not t.is_over:
            seat = next_seat(t.to_act, self._last, self.n)
            if seat == self.seat:
                return
            t.state.apply(self.bots[seat].choose(t.state, seat))
            self._last = seat

    def step(self, action):
        """Take action index ``action`` for the learner, then let the bots play.

        Returns:
            ``(observation, reward, terminated, truncated, info)``; the reward is 0 until the game
            ends.

        Raises:
            RuntimeError: ``step`` before ``reset`` or after the game ended.
        """
        if self.table is None:
            raise RuntimeError("call reset() before step()")
        if self.table.is_over:
            raise RuntimeError("the game is over; call reset()")
        index = int(action)
        if not (0 <= index < self.codec.N_ACTIONS and self.table.mask(self.seat)[index]):
            return self.table.observe(self.seat), 0.0, False, False, self._info(illegal=True)
        self.table.apply_index(self.seat, index)
        self._last = self.seat
        self._play_bots()
        reward = 0.0
        terminated = self.table.is_over
        if terminated:
            reward = learner_reward(self.table.state.standings(), self.n, self.seat, self.reward_kind)
        return self.table.observe(self.seat), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal indices now as bools, shape ``(n_actions,)`` (the hook sb3-contrib's
        ``MaskablePPO`` calls; the same as ``info["action_mask"]``)."""
        if self.table is None:
            return np.ones(self.codec.N_ACTIONS, dtype=bool)
        return self.table.mask(self.seat).astype(bool)

    def render(self):
        """A text summary of the game (render_mode ``"ansi"``), else nothing."""
        if self.render_mode != "ansi" or self.table is None:
            return None
        rows = [f"learner: seat {self.seat}" + (" (game over)" if self.table.is_over else "")]
        for r in self.table.state.standings():
            who = "learner" if r["seat"] == self.seat else self.bots[r["seat"]].name
            rows.append(f"  seat {r['seat']} ({who}): score {r['score']}")
        return "\n".join(rows) + "\n"


class StarsVsBotsEnv(VsBotsEnv):
    """Rolling Stock Stars against bots (``rolling/StarsVsBots-v0``; see the module docstring).

    Args:
        players: 2-6 (``v2.2``: 3-6; ``two-handed``: 4).
        edition: ``"stars"`` or ``"v2.2"``.
        variants: any of ``open-companies``, ``two-handed``, ``secret-money``, ``deals``.
        compat: compatibility options (``18xx``, ``18xx-receivership-buy``).
        seat: the learner's seat, or None to draw one per episode.
        opponents: bot names for the other seats in seat order, or one name for all (default
            ``heuristic``).
        reward: ``"rank"``, ``"score"`` or ``"margin"``.
        render_mode: ``None`` or ``"ansi"``.

    Raises:
        RecordError: an invalid set-up (the engine's one-line reason).
    """

    game = "stars"

    def __init__(self, players: int = 4, edition: str = "stars", variants: Sequence[str] = (),
                 compat: Sequence[str] = (), seat: int | None = 0, opponents: str | Sequence[str] | None = None,
                 reward: str = "rank", render_mode: str | None = None):
        from rolling.games.stars import Config
        from rolling.research import stars_codec as S

        self.config = S.check_config(Config(players=players, edition=edition, variants=tuple(variants),
                                            compat=tuple(compat)))
        self.codec_table_class = S.StarsTable
        super().__init__(S, players, seat, opponents, reward, render_mode)

    def _new_state(self, seed: int):
        from rolling.games.stars import new_game

        return new_game(self.config, seed)


class FreightVsBotsEnv(VsBotsEnv):
    """Rolling Freight against bots (``rolling/FreightVsBots-v0``; see the module docstring).

    Args:
        map: ``"west-coast"`` (2-4 players) or ``"southern"`` (3-5 players).
        players: the number of players (default 3).
        seat, opponents, reward, render_mode: as :class:`StarsVsBotsEnv`.

    Raises:
        RecordError: an unknown map or a player count the map does not allow.
    """

    game = "freight"

    def __init__(self, map: str = "west-coast", players: int = 3, seat: int | None = 0,  # noqa: A002
                 opponents: str | Sequence[str] | None = None, reward: str = "rank",
                 render_mode: str | None = None):
        from rolling.games.freight.setup import config_from_json
        from rolling.research import freight_codec as F

        self.config = config_from_json({"map": map, "players": players})
        self.codec_table_class = F.FreightTable
        super().__init__(F, players, seat, opponents, reward, render_mode)

    def _new_state(self, seed: int):
        from rolling.games.freight import new_game

        return new_game(self.config, seed)
