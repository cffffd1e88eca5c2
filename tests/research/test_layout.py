"""Issue 33 item 5: bounded observations and the action layouts of rolling.research.layout."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from rolling.core.errors import RecordError  # noqa: E402
from rolling.envs import freight_v0, stars_v0  # noqa: E402
from rolling.envs.market import MarketEnv, index_to_action  # noqa: E402
from rolling.games.stars.actions import Offer, Respond, RespondDeal  # noqa: E402
from rolling.research import freight_codec as F  # noqa: E402
from rolling.research import stars_codec as S  # noqa: E402
from rolling.research.layout import Layout, action_layout  # noqa: E402


@pytest.mark.parametrize("game", ["stars", "freight", "market"])
def test_every_action_index_decodes_and_round_trips(game):
    lay = action_layout(game)
    n = {"stars": S.N_ACTIONS, "freight": F.N_ACTIONS, "market": 97}[game]
    assert lay.size == n and lay.blocks[-1].start + lay.blocks[-1].size == n
    for index in range(n):
        name, fields = lay.decode(index)
        assert lay.encode(name, **fields) == index
        assert index in lay.range(name)
        assert lay.text(index)
    with pytest.raises(ValueError):
        lay.decode(n)
    with pytest.raises(ValueError):
        lay.encode(lay.blocks[0].name, nonsense=1)


def test_stars_layout_is_the_codecs_numbering():
    lay = action_layout("stars", players=3, variants=("deals",))
    for (kind, *rest), index in S.TEMPLATE_INDEX.items():
        name, fields = lay.decode(index)
        assert S.action_text(index).split()[0] == ("propose_deal" if name == "propose_deal" else kind.type_name)
        if kind is Offer:
            assert fields == {"corporation": rest[0], "company": rest[1]}
        if kind is Respond:
            assert fields == {"corporation": rest[0], "company": rest[1], "reject": int(not rest[2])}
        if kind is RespondDeal:
            assert fields == {"slot": rest[0], "reject": int(not rest[1])}
    assert lay.decode(S.AMOUNT0 + 12) == ("amount", {"dollars": 12})
    assert lay.text(S.AMOUNT0 + 12) == "amount $12"


def test_freight_layout_is_the_codecs_numbering():
    lay = action_layout("freight", map="southern", players=4)
    for name, (start, size) in F.BLOCK.items():
        assert lay.range(name) == range(start, start + size)
    assert lay.encode("build", link=5, token=3, cubes=2) == F.build_index(5, 3, 2)
    assert lay.encode("end_turn", blue=1, gray=2, red=3, yellow=4) == F.gains_index((1, 2, 3, 4))


def test_market_layout_is_the_envs_numbering():
    lay = action_layout("market")
    for index in range(97):
        name, f = lay.decode(index)
        a = index_to_action(index)
        assert name == a.type_name
        if name != "done":
            assert (f["company"], f["shares_minus_1"] + 1) == (a.company, a.shares)


def test_action_layout_checks_the_configuration():
    with pytest.raises(ValueError, match="unknown game"):
        action_layout("chess")
    with pytest.raises(RecordError):
        action_layout("stars", players=9)
    with pytest.raises(RecordError):
        action_layout("freight", map="atlantis")


def test_layout_patterns_must_tile_the_segment():
    lay = Layout()
    with pytest.raises(ValueError, match="does not tile"):
        lay.add("x", 5, "five entries", high=(1, 2))
    lay.add("money", 2, "two amounts", high=500, scale=100)
    assert list(lay.high) == [5, 5] and list(lay.low) == [0, 0]
    assert "0..500 (÷100)" in lay.table()


def test_every_box_has_finite_bounds():
    spaces = [stars_v0.env().observation_space("player_0")["observation"],
              freight_v0.env().observation_space("player_0")["observation"],
              MarketEnv().observation_space]
    import gymnasium

    import rolling.envs  # noqa: F401

    for name in ("rolling/StarsVsBots-v0", "rolling/FreightVsBots-v0"):
        spaces.append(gymnasium.make(name).observation_space)
    for box in spaces:
        assert np.isfinite(box.low).all() and np.isfinite(box.high).all() and (box.low <= box.high).all()


def _within_bounds(env, codec, seeds):
    """Random games: every raw observation, scaled, lies within the layout's bounds (so nothing was
    clipped), and the observation is in the space."""
    lay = codec.OBS
    for seed in seeds:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        space = env.observation_space(env.possible_agents[0])["observation"]
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            seat = env.unwrapped.agent_name_mapping[agent]
            raw = lay.scaled(codec.encode(env.unwrapped.table, seat))
            bad = np.flatnonzero((raw < lay.low) | (raw > lay.high))
            assert not bad.size, [(next(s.name for s in lay.segments if s.start <= i < s.start + s.size), raw[i])
                                  for i in bad[:5]]
            assert space.contains(obs["observation"])
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_random_stars_observations_stay_within_bounds():
    for kwargs in (dict(players=2), dict(players=6, variants=("deals",)),
                   dict(players=4, variants=("open-companies", "secret-money"))):
        _within_bounds(stars_v0.env(**kwargs), S, range(2))


def test_random_freight_observations_stay_within_bounds():
    _within_bounds(freight_v0.env(map="southern", players=5), F, range(1))
    _within_bounds(freight_v0.env(map="west-coast", players=2), F, range(1))


def test_dollars_are_scaled_and_clipped_at_the_documented_cap():
    env = stars_v0.env(players=3)
    env.reset(seed=1)
    table = env.unwrapped.table
    raw = S.encode(table, 0)
    obs = S.observe(table, 0)
    cash = S.OBS["cash"]
    assert np.allclose(obs[cash], raw[cash] / S.DOLLARS)
    table.state.cash[0] = S.MONEY_CAP + 500
    assert S.observe(table, 0)[cash][0] == np.float32(S.MONEY_CAP / S.DOLLARS)
