"""The machinery the three OpenSpiel games share: chance nodes from the engines' draws, turns,
observations, information states, resampling and returns (docs/research.md, "OpenSpiel").

A state holds a *table* (:mod:`rolling.research`) and the action waiting for chance outcomes. Every
random event of an engine is one ``below(n)`` draw (:mod:`rolling.core.chance`), so a chance node
has ``n`` outcomes of probability ``1/n`` each: a die face, a card or a cargo marker among those
left, the next place of a shuffle. The state runs the waiting action (or the set-up) on a copy of
the table in a greenlet whose generator, at each draw, hands ``n`` back to the state and waits for
the outcome: the state is a chance node until the action has drawn all it needs, then the copy
becomes the table. Each action runs once, however many outcomes it draws; a copy of a state in the
middle of an action (the greenlet cannot be copied) replays the action with the outcomes so far
when its next outcome comes. An action the table says draws nothing (``Table.draws``) runs on the
table itself.

Cloning shares what never changes: the game, and the move history (an append-only list of move
codes, shared by every copy along a line of play), so a clone costs about one clone of the engine
state, however long the game (``benchmarks/spiel_bench.py``).
"""

from __future__ import annotations

import greenlet
import numpy as np
import pyspiel

from rolling.core.chance import ScriptedRng
from rolling.core.rng import Rng
from rolling.envs.aec import final_rewards, next_seat

_SETUP = ("setup",)
_CHANCE = pyspiel.PlayerId.CHANCE
_TERMINAL = pyspiel.PlayerId.TERMINAL
#: the generator a table keeps between actions: any draw outside an action is an error
_SPENT = ScriptedRng(())
#: chance_outcomes of the small draws, by number of outcomes
_UNIFORM: dict[int, tuple] = {}


class _Draws(Rng):
    """An :class:`Rng` whose ``below(n)`` answers the first draws from ``outcomes`` (a replay) and
    then asks the driving state for each outcome: it switches to the parent greenlet with ``n`` and
    returns what the state sends back."""

    __slots__ = ("outcomes", "used")

    def __init__(self, outcomes: tuple[int, ...] = ()):
        super().__init__(0)
        self.outcomes = outcomes
        self.used = 0

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("n must be positive")
        if self.used < len(self.outcomes):
            v = self.outcomes[self.used]
            self.used += 1
            if not 0 <= v < n:
                raise ValueError(f"chance outcome {v} is not one of 0..{n - 1}")
            return v
        self.used += 1
        return greenlet.getcurrent().parent.switch(n)

    def next64(self) -> int:
        raise TypeError("a chance node gives only finite uniform choices (below)")

    def copy(self) -> ScriptedRng:
        return _SPENT


class _Run:
    """The greenlet running the waiting action; a copy of the state gets none (``copy.deepcopy``
    gives None) and replays the action instead."""

    __slots__ = ("g",)

    def __init__(self, g: greenlet.greenlet):
        self.g = g

    def __deepcopy__(self, memo):
        return None

    def __reduce__(self):
        # OpenSpiel pickles a state's attributes to serialise it: the copy replays the action
        return (_no_run, ())


def _no_run() -> None:
    return None


class _History:
    """The move history for ``information_state_string``: the moves of a line of play as an
    append-only list of move codes (:func:`_code`), shared by every state cloned along it
    (``copy.deepcopy`` gives the same object). A state holds the list and how many of its codes
    are its history; a state appending where another already has (a search trying a second move
    from one state) starts a list of its own with its part. One int per move and no object: a
    search's rollouts appended a node per action, which kept the garbage collector busy."""

    __slots__ = ("codes",)

    def __init__(self, codes: list[int] | None = None):
        self.codes = codes if codes is not None else []

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_History, (list(self.codes),))


def _code(seat: int | None, action: int, private: bool = False) -> int:
    """A move as one int: a chance outcome ``k`` as ``-1 - k``; ``seat``'s action as ``(action *
    8 + seat) * 2 + private`` (``private``: seen by that seat alone)."""
    if seat is None:
        return -1 - action
    return ((action << 3 | seat) << 1) | private


def _move(code: int, public_chance: bool) -> tuple[int | None, str, bool]:
    """``(seat or None for chance, text, seen by that seat alone)`` of a move :func:`_code`."""
    if code < 0:
        return None, f"chance:{-1 - code}" if public_chance else "chance", False
    seat = code >> 1 & 7
    return seat, f"p{seat}:{code >> 4}", bool(code & 1)


class RollingGame(pyspiel.Game):
    """Base of the three games. Subclasses set ``obs_size`` and implement ``make_table(rng)``,
    ``install_rng(table, rng)``, ``action_text(index)`` and ``returns_of(table)``; Stars and
    Freight add ``info_size``, ``information_tensor(state, player)`` and ``resample_table(state,
    player, rng)`` (:mod:`rolling.spiel.infostate`)."""

    obs_size = 0
    info_size = 0
    #: every chance outcome is seen by all (Market's dice): the information state lists them
    public_chance = False

    def __deepcopy__(self, memo):
        # a game never changes: the states OpenSpiel clones with copy.deepcopy share it
        return self

    def new_initial_state(self):
        """The game before its set-up: a chance node (the deck, the dice, the cargo...)."""
        return RollingState(self)

    def information_state_tensor_shape(self):
        return [self.info_size]

    def information_state_tensor_size(self):
        return self.info_size

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of ``observation_*``, ``information_state_string`` and
        ``information_state_tensor``."""
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

    def remember(self, table, memory):
        """What the players remember after an action beyond the table (Stars: the companies they
        have seen out of the Deck); ``memory`` is the previous value (None at set-up)."""
        return None

    def first_draw(self) -> int:
        """``n`` of the set-up's first draw (computed once: every initial state starts there,
        and OpenSpiel makes one per clone)."""
        n = self.__dict__.get("_first_draw")
        if n is None:
            g = greenlet.greenlet(self.make_table)
            n = g.switch(_Draws())
            if not isinstance(n, int):  # pragma: no cover - every game draws at set-up
                raise TypeError("the set-up draws nothing: an OpenSpiel game needs a chance node")
            self._first_draw = n
        return n


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
        self._waiting: tuple | None = _SETUP  # what the chance outcomes are for: _SETUP or (seat, action index)
        self._outcomes: tuple[int, ...] = ()
        self._n = game.first_draw()  # outcomes of the chance node now (0: not a chance node)
        self._run: _Run | None = None  # the greenlet of the waiting action (None: replay it)
        self._moves = _History()  # the history for information_state_string: its first _played codes
        self._played = 0
        self._memory = None  # what the players remember beyond the table (RollingGame.remember)
        self._players = game.num_players()  # asked at every decision: kept rather than asked of C++

    def __deepcopy__(self, memo):
        # copy.deepcopy(state) is a clone: the engine's clone, the history and the game shared
        return self.clone()

    def _start(self, rng: _Draws):
        """A greenlet running the waiting action (or the set-up) with ``rng``; returns it unstarted."""
        if self._waiting is _SETUP:
            return greenlet.greenlet(lambda: self._rg.make_table(rng))
        seat, index = self._waiting
        work = self.table.clone()
        self._rg.install_rng(work, rng)
        memo = getattr(self.table, "_memo", None)
        if memo and seat in memo:
            work._memo = {seat: memo[seat]}  # the same position until the action starts

        def run():
            work.apply_index(seat, index)
            return work

        return greenlet.greenlet(run)

    def _drive(self, g: greenlet.greenlet, value) -> None:
        """Run ``g`` (sending ``value``) to its next draw (the state becomes a chance node for it)
        or to the end of the action (its table becomes the state's)."""
        g.parent = greenlet.getcurrent()
        out = g.switch() if value is None else g.switch(value)
        if isinstance(out, int):
            self._n = out
            self._run = _Run(g)
            return
        self._finish(out, None if self._waiting is _SETUP else self._waiting[0])

    def _finish(self, table, seat: int | None) -> None:
        """The action of ``seat`` (None: the set-up) has run, to ``table``: it becomes the state's,
        a decision node again."""
        self._rg.install_rng(table, _SPENT)
        # The options kept are of the position before the action, whether they came with the
        # table or were worked out during it (a copy replaying the action has none to bring).
        if hasattr(table, "__dict__"):
            table.__dict__.pop("_memo", None)
        if seat is not None:
            self._last = seat
        self.table = table
        self._memory = self._rg.remember(table, self._memory)
        self._n = 0
        self._waiting = None
        self._outcomes = ()
        self._run = None

    def _resume(self, outcome: int) -> None:
        run, self._run = self._run, None
        if run is None or run.g.dead:
            # a copy of a state in the middle of an action: replay it with the outcomes so far
            g = self._start(_Draws(self._outcomes))
            g.parent = greenlet.getcurrent()
            n = g.switch()
            if n != self._n:  # pragma: no cover - the engines are deterministic
                raise RuntimeError(f"replaying the action asked for {n} outcomes, not {self._n}")
        else:
            g = run.g
        self._outcomes += (outcome,)
        self._drive(g, outcome)

    def current_player(self):
        """The seat to decide, ``CHANCE`` or ``TERMINAL``."""
        if self._n:
            return _CHANCE
        t = self.table
        if t.is_over:
            return _TERMINAL
        return next_seat(t.to_act, self._last, self._players)

    def _legal_actions(self, player):
        return self.table.legal_indices(player)

    def legal_actions(self, player=None):
        """OpenSpiel's ``legal_actions`` answered here rather than through C++ (which calls back
        :meth:`_legal_actions` and converts the list both ways, a search's most frequent call;
        issue 33 item 1): a chance node's outcomes ``0..n-1``; ``[]`` when the game is over or for
        a seat not to decide now; else the seat's legal indices, ascending. A negative ``player``
        goes to OpenSpiel (which refuses it)."""
        if player is not None and player < 0:
            return super().legal_actions(player)
        seat = self.current_player()
        if seat == _CHANCE:
            return list(range(self._n))
        if seat == _TERMINAL or (player is not None and player != seat):
            return []
        return self.table.legal_indices(seat)

    def is_chance_node(self):
        """Whether chance acts now (OpenSpiel's, answered here without the C++ round trip)."""
        return bool(self._n)

    def chance_outcomes(self):
        """``[(outcome, 1/n)]`` for the ``n`` outcomes of the engine's draw (a new list each time)."""
        n = self._n
        got = _UNIFORM.get(n)
        if got is None:
            p = 1.0 / n
            got = tuple((k, p) for k in range(n))
            if n <= 64:  # a die's faces, a bag's markers: the same few recur at every roll
                _UNIFORM[n] = got
        return list(got)

    def _apply_action(self, action):
        action = int(action)
        if self._n:
            if not 0 <= action < self._n:
                raise ValueError(f"chance outcome {action} is not one of 0..{self._n - 1}")
            self._record(_code(None, action))
            self._resume(action)
        else:
            table = self.table
            seat = self.current_player()
            if not table.is_legal(seat, action):
                raise ValueError(f"action {action} is not legal for player {seat} now")
            played = self._played
            self._record(_code(seat, action, table.private_step(seat, action)))
            if not table.draws(seat, action):
                # No chance outcome to wait for, so nothing to replay: the action runs on the table
                # itself, without a copy or a greenlet (most actions of a search's rollouts). The
                # table's generator is spent: a draw would raise.
                try:
                    table.apply_index(seat, action)
                except BaseException:
                    self._played = played
                    raise
                self._finish(table, seat)
                return
            self._waiting = (seat, action)
            try:
                self._drive(self._start(_Draws()), None)
            except BaseException:
                self._played, self._waiting = played, None  # the state stays as it was
                raise

    def _record(self, code: int) -> None:
        """Append a move to the history (a list of its own where another state already went on)."""
        moves, n = self._moves, self._played
        if len(moves.codes) != n:
            moves = self._moves = _History(moves.codes[:n])
        moves.codes.append(code)
        self._played = n + 1

    def moves(self) -> list[tuple[int | None, str, bool]]:
        """The history of moves, oldest first: ``(seat or None for chance, text, seen by that seat
        alone)`` (what ``information_state_string`` shows of them)."""
        public = self._rg.public_chance
        return [_move(c, public) for c in self._moves.codes[: self._played]]

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

    def information_vector(self, player: int) -> np.ndarray:
        """The flat float32 information state of ``player`` (docs/research.md; zeros before the
        set-up is dealt).

        Raises:
            NotImplementedError: a game without one (Market: perfect information, use the observation).
        """
        if not self._rg.info_size:
            raise NotImplementedError(f"{self._rg} has no information state tensor (use the observation)")
        if self.table is None:
            return np.zeros(self._rg.info_size, dtype=np.float32)
        return self._rg.information_tensor(self, player)

    def resample_from_infostate(self, player_id: int, probability_sampler):
        """A copy of this state drawn among those ``player_id`` cannot tell from it: the same
        ``information_state_string(player_id)`` and tensor, the hidden order of the decks redealt
        from what the player has not seen (docs/research.md, "Resampling"). Future dice and cargo
        are chance nodes still to come: the caller chooses them.

        ``probability_sampler`` (e.g. ``pyspiel.UniformProbabilitySampler(0., 1.)``) is called for
        one float in ``[0, 1)`` that seeds the redeal. The copy's ``history()`` is this state's
        (serialising the copy gives back this state).

        Raises:
            pyspiel.SpielError: at a chance node (the pending action's draws are tied to the deck
                it started from) or in a game without hidden information (Market).
        """
        if not self._rg.info_size:
            raise pyspiel.SpielError("this game has no hidden information to resample")
        if self._n:
            raise pyspiel.SpielError("resample_from_infostate needs a decision or terminal node, not a chance node")
        seed = int(float(probability_sampler()) * (1 << 53))
        copy = self.clone()
        copy.table = self.table.clone()
        copy.table.state = self._rg.resample_table(self, player_id, Rng(seed))
        return copy

    def __str__(self):
        if self.table is None:
            return f"setting up ({len(self._outcomes)} chance outcomes so far)"
        return self._rg.describe(self.table) + (f" [chance: {self._n} outcomes]" if self._n else "")


class RollingObserver:
    """OpenSpiel's PyObserver for the three games.

    ``tensor`` is the seat's flat observation (docs/research.md), or with ``perfect_recall`` in a
    game that has one (Stars, Freight) its information state tensor. ``string_from`` gives the
    observation's non-zero entries as ``index:value``; with ``perfect_recall``
    (``information_state_string``) it starts with the history of moves (every player's action is
    public in these games, but for the steps of building a Stars deal, which the others see as
    ``pN:private`` until it is proposed; chance outcomes show only as ``chance``, what a seat learns
    of them being in its observation, except in a game whose chance is all public (Market's dice),
    where they show as ``chance:k``).
    """

    def __init__(self, game: RollingGame, iig_obs_type=None):
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        self.info = self.perfect_recall and game.info_size > 0
        self.tensor = np.zeros(game.info_size if self.info else game.obs_size, dtype=np.float32)
        self.dict = {"info_state" if self.info else "observation": self.tensor}

    def set_from(self, state: RollingState, player: int) -> None:
        self.tensor[:] = state.information_vector(player) if self.info else state.observation_vector(player)

    def string_from(self, state: RollingState, player: int) -> str:
        v = state.observation_vector(player)
        nz = np.flatnonzero(v)
        text = " ".join(f"{i}:{v[i]:g}" for i in nz)
        if self.perfect_recall:
            moves = state.moves()
            history = " ".join(f"p{seat}:private" if private and seat != player else move
                               for seat, move, private in moves)
            return f"p{player} history {history} | {text}"
        return f"p{player} {text}"
