"""The three games as OpenSpiel Python games: ``python_rolling_stars``, ``python_rolling_freight``,
``python_rolling_market`` (registered by importing :mod:`rolling.spiel`)."""

from __future__ import annotations

import numpy as np
import pyspiel

from rolling.envs.aec import REWARDS
from rolling.games.freight import new_game as new_freight
from rolling.games.freight.components import MAP_NAMES
from rolling.games.freight.setup import config_from_json
from rolling.games.market import rules as MR
from rolling.games.market.state import MarketState
from rolling.games.stars import Config
from rolling.games.stars import new_game as new_stars
from rolling.games.stars.config import EDITIONS, VARIANTS
from rolling.research import freight_codec as F
from rolling.research import market_codec as M
from rolling.research import stars_codec as S

from . import infostate as I
from .base import RollingGame


def _memoized(table_class):
    """``table_class`` whose legal options (``_options(seat)``) are computed once per seat and kept
    in ``_memo``: the mask, the legality check and ``apply_index`` of a decision, and a search's
    visits to the same state, share them. Sound because the table an OpenSpiel state holds never
    changes (each action runs on a clone, which starts with the acting seat's options and drops
    them once the action has run: :meth:`RollingState._start`)."""

    class Memoized(table_class):
        def _options(self, seat: int):
            memo = self.__dict__.get("_memo")
            if memo is None:
                memo = self._memo = {}
            opts = memo.get(seat)
            if opts is None:
                opts = memo[seat] = super()._options(seat)
            return opts

        def __getstate__(self):
            # pickled (OpenSpiel's serialisation) without the memo: it is recomputed when needed
            state, slots = super().__getstate__()
            return None, slots

    # the module attribute of that name, so that pickle finds the class
    Memoized.__name__ = Memoized.__qualname__ = "_" + table_class.__name__
    return Memoized


_StarsTable = _memoized(S.StarsTable)
_FreightTable = _memoized(F.FreightTable)


def _game_type(short: str, long: str, perfect: bool, players: tuple[int, int], params: dict,
               utility=pyspiel.GameType.Utility.GENERAL_SUM) -> pyspiel.GameType:
    """The GameType all three share: sequential, explicit chance, terminal rewards; ``utility``
    (general-sum unless the returns always sum to one value); the information state tensor in the
    games with hidden information."""
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=short, long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info.PERFECT_INFORMATION if perfect else info.IMPERFECT_INFORMATION,
        utility=utility, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1], min_num_players=players[0],
        provides_information_state_string=True, provides_information_state_tensor=not perfect,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=params,
    )


def _reward(params) -> str:
    kind = params.get("reward", "rank")
    if kind not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {kind!r}")
    return kind


def _bounds(kind: str, top: float) -> tuple[float, float]:
    return (-1.0, 1.0) if kind == "rank" else (0.0, top)


# ------------------------------------------------------------------ Stars
_ZERO, _GENERAL = pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.GENERAL_SUM
_STARS = ("python_rolling_stars", "Rolling Stock Stars (rolling)", False, (2, 6),
          {"players": 4, "edition": "stars", "variants": "", "reward": "rank"})
#: the registered type (general-sum); a game's own ``get_type()`` says zero-sum with ``reward=rank``
STARS_TYPE = _game_type(*_STARS)
#: the longest game we allow (decisions); random play ends in a few hundred
STARS_MAX_LENGTH = 20_000


class StarsGame(RollingGame):
    """Rolling Stock Stars. Parameters: ``players`` (2-6; 3-6 in v2.2), ``edition`` (``stars``,
    ``v2.2``), ``variants`` (separated by ``+`` or commas: open-companies, two-handed, secret-money, deals; ``+``
    in a game string such as ``python_rolling_stars(players=3,variants=secret-money+deals)``),
    ``reward`` (``rank`` or ``score``). Chance: the deal of the deck and the player order.

    Raises:
        RecordError / ValueError: invalid parameters (the engine's reason).
    """

    obs_size = S.OBS.size
    info_size = I.STARS_INFO.size

    def __init__(self, params=None):
        params = params or {}
        variants = tuple(v for v in str(params.get("variants", "")).replace("+", ",").split(",") if v)
        for v in variants:
            if v not in VARIANTS:
                raise ValueError(f"unknown variant {v!r} (known: {', '.join(VARIANTS)})")
        edition = params.get("edition", "stars")
        if edition not in EDITIONS:
            raise ValueError(f"unknown edition {edition!r} (known: {', '.join(EDITIONS)})")
        self.config = S.check_config(Config(players=int(params.get("players", 4)), edition=edition, variants=variants))
        self.reward_kind = _reward(params)
        lo, hi = _bounds(self.reward_kind, 10_000.0)
        # rank: ties are broken (Game sequence), so the ranks are 1..n and (n + 1 - 2 rank) / (n - 1)
        # sums to 0; two-handed: +1 twice and -1 twice. score: the money in play varies.
        zero = self.reward_kind == "rank"
        info = pyspiel.GameInfo(
            num_distinct_actions=S.N_ACTIONS, max_chance_outcomes=S.NC, num_players=self.config.players,
            min_utility=lo, max_utility=hi, utility_sum=0.0 if zero else None, max_game_length=STARS_MAX_LENGTH,
        )
        super().__init__(_game_type(*_STARS, utility=_ZERO if zero else _GENERAL), info, params)

    def make_table(self, rng):
        return _StarsTable(new_stars(self.config, 0, draw=rng))

    def install_rng(self, table, rng) -> None:
        """Stars draws only at set-up."""

    def action_text(self, index: int) -> str:
        return S.action_text(index)

    def remember(self, table, memory):
        """The companies seen out of the Deck so far (a bitmask)."""
        return I.stars_seen(table.state, memory)

    def information_tensor(self, state, player: int) -> np.ndarray:
        return I.stars_tensor(state.table, state._memory, player)

    def resample_table(self, state, player: int, rng):
        return I.stars_resample(state.table.state, player, state._memory, rng)

    def describe(self, table) -> str:
        s = table.state
        cash = " ".join(f"${c}" for c in s.cash)
        return f"turn {s.turn} phase {s.phase} cash {cash}" + (" over" if s.over else "")


# ------------------------------------------------------------------ Freight
#: general-sum with either reward: with ``rank`` a tie the rules leave standing ("Winning": stock, then
#: switching stations) shares the better rank, so two seats tied first both get +1
FREIGHT_TYPE = _game_type("python_rolling_freight", "Rolling Freight (rolling)", False, (2, 5),
                          {"players": 3, "map": "west-coast", "reward": "rank"})
FREIGHT_MAX_LENGTH = 20_000
#: the most outcomes of one draw: the cargo bag, the contract deck or the improvement deck at its fullest
FREIGHT_MAX_CHANCE = max(
    sum(F._COMP.box["cargo"].values()),
    F.N_LINKS + F._COMP.box["end_of_phase_cards"],
    max(sum(m.improvement_counts.values()) for m in F._MAPS.values()),
)


class FreightGame(RollingGame):
    """Rolling Freight. Parameters: ``players``, ``map`` (``west-coast`` 2-4 players, ``southern``
    3-5), ``reward`` (``rank`` or ``score``). Chance: deck shuffles, cargo drawn from the bag, dice.

    Raises:
        RecordError / ValueError: invalid parameters.
    """

    obs_size = F.OBS.size
    info_size = I.FREIGHT_INFO.size

    def __init__(self, params=None):
        params = params or {}
        m = params.get("map", "west-coast")
        if m not in MAP_NAMES:
            raise ValueError(f"unknown map {m!r} (known: {', '.join(MAP_NAMES)})")
        self.config = config_from_json({"map": m, "players": int(params.get("players", 3))})
        self.reward_kind = _reward(params)
        lo, hi = _bounds(self.reward_kind, 2_000.0)
        info = pyspiel.GameInfo(
            num_distinct_actions=F.N_ACTIONS, max_chance_outcomes=FREIGHT_MAX_CHANCE,
            num_players=self.config.players, min_utility=lo, max_utility=hi, utility_sum=None,
            max_game_length=FREIGHT_MAX_LENGTH,
        )
        super().__init__(FREIGHT_TYPE, info, params)

    def make_table(self, rng):
        return _FreightTable(new_freight(self.config, 0, rng=rng))

    def action_text(self, index: int) -> str:
        return F.action_text(index)

    def information_tensor(self, state, player: int) -> np.ndarray:
        return state.table.observe(player)

    def resample_table(self, state, player: int, rng):
        d = I.freight_resample(state.table.state, player, rng)
        d.rng = state.table.state.rng  # chance to come is the caller's (chance nodes)
        return d

    def describe(self, table) -> str:
        s = table.state
        stock = " ".join(f"${p.stock}" for p in s.players)
        return f"{s.config.map} phase {'ABC'[min(s.phase, 2)]} turn {s.turn} {s.stage} stock {stock}"


# ------------------------------------------------------------------ Market
MARKET_TYPE = _game_type("python_rolling_market", "Rolling Market (rolling)", True, (1, 1), {})
#: decisions in a game at most: per buy/sell turn one buy, a sale per company (two each in the
#: last two turns) and ending the turn
MARKET_MAX_LENGTH = MR.BUY_SELL_TURNS * (2 + 2 * MR.N_COMPANIES)


class MarketGame(RollingGame):
    """Rolling Market (solitaire). The return is the final cash ($). Chance: the fluctuation dice and
    the volatility die, one ``1..6`` face at a time (outcome ``k`` is face ``k + 1``)."""

    obs_size = M.OBS_SIZE
    public_chance = True

    def __init__(self, params=None):
        info = pyspiel.GameInfo(
            num_distinct_actions=M.N_ACTIONS, max_chance_outcomes=6, num_players=1, min_utility=0.0,
            max_utility=10_000.0, utility_sum=None, max_game_length=MARKET_MAX_LENGTH,
        )
        super().__init__(MARKET_TYPE, info, params or {})

    def make_table(self, rng):
        s = MarketState(0, roll=False)
        s.rng = rng
        s.roll()
        return M.MarketTable(s)

    def action_text(self, index: int) -> str:
        from rolling.envs.market import index_to_action

        a = index_to_action(index)
        if a.type_name == "done":
            return "done"
        return f"{a.type_name} {a.shares} {MR.COMPANIES[a.company]}"

    def returns_of(self, table) -> list[float]:
        return [float(table.state.cash)]

    def describe(self, table) -> str:
        s = table.state
        return f"values {s.values} shares {s.shares} cash ${s.cash} turns left {s.turns_left}"


pyspiel.register_game(STARS_TYPE, StarsGame)
pyspiel.register_game(FREIGHT_TYPE, FreightGame)
pyspiel.register_game(MARKET_TYPE, MarketGame)
