"""The machinery the three OpenSpiel games share: chance nodes from the engines' draws, turns,
observations and returns (docs/research.md, "OpenSpiel").

A state holds a *table* (:mod:`rolling.research`) and the action waiting for chance outcomes. Every
random event of an engine is one ``below(n)`` draw (:mod:`rolling.core.chance`), so a chance node
has ``n`` outcomes of probability ``1/n`` each: a die face, a card or a cargo marker among those
left, the next place of a shuffle. The state applies the waiting action (or the set-up) to a copy
of the table with the outcomes chosen so far; if the engine wants one more, the state stays a
chance node for it, else the copy becomes the table.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from rolling.core.chance import ChanceNeeded, ScriptedRng
from rolling.envs.aec import final_rewards, next_seat

_SETUP = ("setup",)


class RollingGame(pyspiel.Game):
    """Base of the three games. Subclasses set ``obs_size`` and implement ``make_table(rng)``,
    ``install_rng(table, rng)``, ``action_text(index)`` and ``returns_of(table)``."""

    obs_size = 0
    #: every chance outcome is seen by all (Market's dice): the information state lists them
    public_chance = False

    def __deepcopy__(self, memo):
        # a game never changes: the states OpenSpiel clones with copy.deepcopy share it
        return self

    def new_initial_state(self):
        """The game before its set-up: a chance node (the deck, the dice, the cargo...)."""
        return RollingState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of ``observation_*`` and ``information_state_string``."""
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return RollingObserver(self, iig_obs_type)

    def make_table(self, rng):  # pragma: no cover - subclasses implement it
        raise NotImplementedError

    def install_rng(self, table, rng) -> None:
        """Let the table's engine draw from ``rng`` (nothing to do for an engine that no longer draws)."""
        table.state.rng = rng

    def action_text(self, index: int) -> str:  # pragma: no cover - subclasses implement it
        raise NotImplementedError

    def returns_of(self, table) -> list[float]:
        """Final returns per player (:func:`rolling.envs.aec.final_rewards` with the game's ``reward``)."""
        n = self.num_players()
        final = final_rewards(table.state.standings(), n, self.reward_kind)
        return [final[p] for p in range(n)]


class RollingState(pyspiel.State):
    """A game state of :class:`RollingGame` (see the module docstring).

    ``current_player`` in the any-order phases of Stars is chosen as in the PettingZoo
    environments: the first seat that may act after the last one that acted (round robin).
    """

    def __init__(self, game: RollingGame):
        super().__init__(game)
        self._rg = game
        self.table = None
        self._last = -1
        self._waiting: tuple = _SETUP  # what the chance outcomes are for: _SETUP or (seat, action index)
        self._outcomes: tuple[int, ...] = ()
        self._n = 0  # outcomes of the chance node now (0: not a chance node)
        # the history for information_state_string: (seat or None for chance, text, seen by that seat alone)
        self._moves: tuple[tuple[int | None, str, bool], ...] = ()
        self._attempt()

    def _attempt(self) -> None:
        rng = ScriptedRng(self._outcomes)
        try:
            if self._waiting is _SETUP:
                table = self._rg.make_table(rng)
            else:
                seat, index = self._waiting
                table = self.table.clone()
                self._rg.install_rng(table, rng)
                table.apply_index(seat, index)
        except ChanceNeeded as need:
            self._n = need.n
            return
        if self._waiting is not _SETUP:
            self._last = self._waiting[0]
        self.table = table
        self._n = 0
        self._waiting = None
        self._outcomes = ()

    def current_player(self):
        """The seat to decide, ``CHANCE`` or ``TERMINAL``."""
        if self._n:
            return pyspiel.PlayerId.CHANCE
        t = self.table
        if t.is_over:
            return pyspiel.PlayerId.TERMINAL
        return next_seat(t.to_act, self._last, self._rg.num_players())

    def _legal_actions(self, player):
        return [int(k) for k in np.flatnonzero(self.table.mask(player))]

    def chance_outcomes(self):
        """``[(outcome, 1/n)]`` for the ``n`` outcomes of the engine's draw."""
        p = 1.0 / self._n
        return [(k, p) for k in range(self._n)]

    def _apply_action(self, action):
        action = int(action)
        if self._n:
            if not 0 <= action < self._n:
                raise ValueError(f"chance outcome {action} is not one of 0..{self._n - 1}")
            self._outcomes += (action,)
            self._moves += ((None, f"chance:{action}" if self._rg.public_chance else "chance", False),)
        else:
            seat = self.current_player()
            if not self.table.mask(seat)[action]:
                raise ValueError(f"action {action} is not legal for player {seat} now")
            self._moves += ((seat, f"p{seat}:{action}", self.table.private_step(seat, action)),)
            self._waiting = (seat, action)
        self._attempt()

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        return self._rg.action_text(int(action))

    def is_terminal(self):
        return not self._n and self.table is not None and self.table.is_over

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self._rg.num_players()
        return self._rg.returns_of(self.table)

    def observation_vector(self, player: int) -> np.ndarray:
        """The flat float32 observation of ``player`` (zeros before the set-up is dealt)."""
        if self.table is None:
            return np.zeros(self._rg.obs_size, dtype=np.float32)
        return self.table.observe(player)

    def __str__(self):
        if self.table is None:
            return f"setting up ({len(self._outcomes)} chance outcomes so far)"
        return self._rg.describe(self.table) + (f" [chance: {self._n} outcomes]" if self._n else "")


class RollingObserver:
    """OpenSpiel's PyObserver for the three games.

    ``tensor`` is the seat's flat observation (docs/research.md). ``string_from`` gives its non-zero
    entries as ``index:value``; with ``perfect_recall`` (``information_state_string``) it starts
    with the history of moves (every player's action is public in these games, but for the steps of
    building a Stars deal, which the others see as ``pN:private`` until it is proposed; chance
    outcomes show only as ``chance``, what a seat learns of them being in its observation, except in a
    game whose chance is all public (Market's dice), where they show as ``chance:k``).
    """

    def __init__(self, game: RollingGame, iig_obs_type=None):
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(game.obs_size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RollingState, player: int) -> None:
        self.tensor[:] = state.observation_vector(player)

    def string_from(self, state: RollingState, player: int) -> str:
        v = state.observation_vector(player)
        nz = np.flatnonzero(v)
        text = " ".join(f"{i}:{v[i]:g}" for i in nz)
        if self.perfect_recall:
            history = " ".join(f"p{seat}:private" if private and seat != player else move
                               for seat, move, private in state._moves)
            return f"p{player} history {history} | {text}"
        return f"p{player} {text}"
