"""Issue 33: OpenSpiel search and imperfect-information tools on Stars and Freight: a clone shares
the history, each action runs once whatever its chance outcomes (item 1); the information state
tensor and ``resample_from_infostate`` (item 2), ``ISMCTSBot``, ``MCTSBot`` and
``rl_environment.Environment`` on full games; the utility each reward declares (item 3)."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from spiel_helpers import StandingsEvaluator  # noqa: E402

import rolling.spiel  # noqa: E402,F401 - registers the games
from rolling.games.stars.state import IN_DECK  # noqa: E402
from rolling.research import stars_codec as S  # noqa: E402
from rolling.spiel import infostate as I  # noqa: E402


def _random_step(s, rng) -> None:
    if s.is_chance_node():
        s.apply_action(int(rng.integers(len(s.chance_outcomes()))))
    else:
        s.apply_action(int(rng.choice(s.legal_actions())))


def _decisions(game, rng, count: int):
    """A state ``count`` decisions into a random game (or its end), a player to decide (chance
    outcomes after the last decision drawn too)."""
    s = game.new_initial_state()
    made = 0
    while (made < count or s.is_chance_node()) and not s.is_terminal():
        made += not s.is_chance_node()
        _random_step(s, rng)
    return s


# ------------------------------------------------------------------ item 1: clones and chance


def test_a_clone_shares_the_history_and_clones_the_engine_state():
    """Issue 33 item 1: OpenSpiel's clone and copy.deepcopy copy the engine state (its own clone)
    and share the move history, which never changes, instead of walking it."""
    import copy

    game = pyspiel.load_game("python_rolling_freight", {"players": 3})
    s = _decisions(game, np.random.default_rng(0), 60)
    p = s.current_player()
    before = s.information_state_string(p)
    for c in (s.clone(), copy.deepcopy(s)):
        assert c._moves is s._moves and c.table is not s.table and c.table.state is not s.table.state
        assert c.history() == s.history() and str(c) == str(s)
        assert c.information_state_string(p) == s.information_state_string(p)
        c.apply_action(c.legal_actions()[0])
        assert c.history() != s.history() and len(s.moves()) == len(s.history())
        assert len(c.moves()) == len(c.history()) and s.information_state_string(p) == before


def test_states_going_on_differently_from_one_history_keep_their_own_moves():
    """Issue 33 item 1: the shared history is append-only; a state that goes on where a clone
    already went on (a search trying its second move) takes a history of its own, and neither
    sees the other's moves."""
    game = pyspiel.load_game("python_rolling_freight", {"players": 3})
    rng = np.random.default_rng(1)
    s = _decisions(game, rng, 40)
    a, b = s.clone(), s.clone()
    first, second = s.legal_actions()[:2]
    a.apply_action(first)
    b.apply_action(second)
    assert a._moves is s._moves and b._moves is not s._moves
    for _ in range(30):
        for x in (a, b, s):
            if not x.is_terminal():
                _random_step(x, rng)
    for x in (a, b, s):
        assert [m[1] for m in x.moves()] == [
            f"p{h.player}:{h.action}" if h.player >= 0 else "chance" for h in x.full_history()]


@pytest.mark.parametrize("map_name,players,seed", [("west-coast", 3, 0), ("west-coast", 2, 1), ("southern", 4, 2)])
def test_freight_moves_said_to_draw_nothing_draw_nothing(map_name, players, seed):
    """Issue 33 item 1 (On Your Turn H, the opening draft): the Freight table says a move draws
    only if it ends a turn or is a draft move, and OpenSpiel runs the others on the table itself
    with a spent generator. Every move listed along random games is applied with no chance
    outcome to give: those said to draw nothing must not ask for one; some turn ends do."""
    import random

    from rolling.core.chance import ChanceNeeded, ScriptedRng
    from rolling.games.freight import Config, new_game
    from rolling.research.freight_codec import FreightTable

    st = new_game(Config(map_name, players), seed)
    table, rng = FreightTable(st), random.Random(seed)
    drew = 0
    while not st.is_over:
        seat = st.to_act[0]
        for index in table.legal_indices(seat):
            trial = table.clone()
            trial.state.rng = ScriptedRng(())
            if table.draws(seat, index):
                try:
                    trial.apply_index(seat, index)
                except ChanceNeeded:
                    drew += 1
            else:
                trial.apply_index(seat, index)  # ChanceNeeded here: a draw the table did not declare
        table.apply_index(seat, rng.choice(table.legal_indices(seat)))
    assert drew > 0


def test_each_action_runs_once_whatever_its_chance_outcomes(monkeypatch):
    """Issue 33 item 1: the set-up (dozens of draws) and each action with dice run once; a clone
    taken in the middle of an action's draws replays it and ends in the same state."""
    from rolling.spiel.games import FreightGame, _FreightTable

    game = pyspiel.load_game("python_rolling_freight", {"players": 2})
    game.first_draw()
    calls = {"setup": 0, "apply": 0}
    make, apply = FreightGame.make_table, _FreightTable.apply_index

    def counted_make(self, rng):
        calls["setup"] += 1
        return make(self, rng)

    def counted_apply(self, seat, index):
        calls["apply"] += 1
        return apply(self, seat, index)

    monkeypatch.setattr(FreightGame, "make_table", counted_make)
    monkeypatch.setattr(_FreightTable, "apply_index", counted_apply)
    rng = np.random.default_rng(1)
    s = game.new_initial_state()
    draws = 0
    while s.is_chance_node():
        _random_step(s, rng)
        draws += 1
    assert draws > 20 and calls["setup"] == 1
    decisions = chance = mid = 0
    while chance < 30:
        if s.is_chance_node():
            if not mid:  # a copy in the middle of an action's draws
                c = s.clone()
                k = int(rng.integers(len(s.chance_outcomes())))
                for x in (s, c):
                    while True:
                        x.apply_action(k)
                        if not x.is_chance_node():
                            break
                assert str(c) == str(s) and c.history() == s.history()
                assert c.observation_tensor(0) == s.observation_tensor(0)
                mid += 1
                continue
            chance += 1
        else:
            decisions += 1
        _random_step(s, rng)
    # one run per decision, and one replay for the copy
    assert calls["apply"] == decisions + 1, (calls, decisions)


def test_chance_outcomes_are_uniform_and_a_new_list_each_time():
    """Issue 33 item 1: a chance node's ``n`` outcomes have probability ``1/n`` each; the list is
    the caller's own (the outcomes of small draws are kept, and a caller changing its list must
    not change the next one)."""
    game = pyspiel.load_game("python_rolling_freight", {"players": 3})
    s = game.new_initial_state()
    rng = np.random.default_rng(3)
    seen = set()
    while len(seen) < 3 and not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            n = len(outcomes)
            seen.add(n)
            assert [k for k, _ in outcomes] == list(range(n)) and all(p == 1.0 / n for _, p in outcomes)
            outcomes.clear()
            assert len(s.chance_outcomes()) == n
        _random_step(s, rng)
    assert len(seen) == 3


@pytest.mark.parametrize("name,params", [
    ("python_rolling_market", {}),
    ("python_rolling_stars", {"players": 3, "variants": "secret-money+deals"}),
    ("python_rolling_freight", {"players": 3}),
], ids=["market", "stars", "freight"])
def test_random_simulations_without_serialisation(name, params):
    """Issue 33 item 1: OpenSpiel's random_sim_test (its clone, observation and information state
    checks; test_spiel.py runs it with serialisation) on states that run each action once."""
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=1, serialize=False, verbose=False)


# ------------------------------------------------------------------ item 2: information states


@pytest.mark.parametrize("name,params", [
    ("python_rolling_stars", {"players": 3, "variants": "secret-money"}),
    ("python_rolling_stars", {"players": 4, "variants": "deals"}),
    ("python_rolling_freight", {"players": 3}),
    ("python_rolling_freight", {"players": 4, "map": "southern"}),
], ids=["stars-secret", "stars-deals", "freight-west", "freight-southern"])
def test_resampling_keeps_what_the_player_knows(name, params):
    """Issue 33 item 2: a resampled state has the player's information state string and tensor
    and its legal actions; the hidden deck order is redealt (it differs in some samples); Stars
    keeps every seat's cash (secret money is trackable, 002 3.2)."""
    game = pyspiel.load_game(name, params)
    assert game.get_type().provides_information_state_tensor
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = np.random.default_rng(7)
    checked = differ = 0
    while checked < 30:
        s = game.new_initial_state()
        while not s.is_terminal() and checked < 30:
            if not s.is_chance_node() and rng.random() < 0.2:
                p = int(rng.integers(game.num_players()))
                r = s.resample_from_infostate(p, sampler)
                assert r.information_state_string(p) == s.information_state_string(p)
                assert r.information_state_tensor(p) == s.information_state_tensor(p)
                assert r.current_player() == s.current_player()
                assert r.legal_actions() == s.legal_actions()
                a, b = s.table.state, r.table.state
                if name.endswith("stars"):
                    assert a.cash == b.cash and len(a.deck) == len(b.deck)
                    differ += a.deck != b.deck
                else:
                    assert sorted(a.contract_deck) == sorted(b.contract_deck)
                    differ += (a.contract_deck, a.improvement_deck) != (b.contract_deck, b.improvement_deck)
                r.apply_action(r.legal_actions()[0])  # the sample plays on
                checked += 1
            _random_step(s, rng)
    assert differ >= checked // 3, (checked, differ)


def test_stars_information_state_tensor_layout():
    """Issue 33 item 2: the tensor is the observation, the companies seen out of the Deck and the
    tracked cash of every seat (the others' too with secret money, hidden in the observation)."""
    game = pyspiel.load_game("python_rolling_stars", {"players": 3, "variants": "secret-money"})
    s = _decisions(game, np.random.default_rng(2), 25)
    assert game.information_state_tensor_shape() == [I.STARS_INFO.size]
    t = np.array(s.information_state_tensor(0))
    assert list(t[: S.OBS.size]) == s.observation_tensor(0)
    st = s.table.state
    assert [round(float(x) * S.DOLLARS) for x in t[I.STARS_INFO["cash_tracked"]][:3]] == st.cash  # in $100s, as the observation
    assert list(t[S.OBS["cash"]][1:3]) == [0, 0]
    seen = t[I.STARS_INFO["seen"]]
    for i, owner in enumerate(st.company_owner):
        if owner >= 0:
            assert seen[i] == 1
        if owner == IN_DECK:
            assert seen[i] == 0
    assert np.array(game.new_initial_state().information_state_tensor(1)).sum() == 0


def test_resampling_refuses_chance_nodes_and_market():
    game = pyspiel.load_game("python_rolling_stars", {"players": 3})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    with pytest.raises(pyspiel.SpielError, match="chance node"):
        game.new_initial_state().resample_from_infostate(0, sampler)
    market = pyspiel.load_game("python_rolling_market")
    assert not market.get_type().provides_information_state_tensor
    s = market.new_initial_state()
    while s.is_chance_node():
        s.apply_action(2)  # a 3 (a 1 or a 6 would close the market and roll again)
    with pytest.raises(pyspiel.SpielError, match="no hidden information"):
        s.resample_from_infostate(0, sampler)


def _play(game, bot, seed: int):
    """A full game: seat 0 is ``bot``, the others and chance random; returns the final state."""
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    moves = 0
    while not s.is_terminal():
        if not s.is_chance_node() and s.current_player() == 0:
            action = bot.step(s)
            assert action in s.legal_actions()
            s.apply_action(action)
            moves += 1
        else:
            _random_step(s, rng)
    assert moves >= 3
    return s


@pytest.mark.parametrize("name,params", [
    ("python_rolling_stars", {"players": 2, "variants": "secret-money"}),
    ("python_rolling_freight", {"players": 2}),
], ids=["stars", "freight"])
def test_ismcts_plays_a_full_game_against_random_bots(name, params):
    """Issue 33 item 2 (acceptance): OpenSpiel's ISMCTSBot, which resamples the hidden deck from
    the player's information state in every simulation, plays a whole game (tiny budget)."""
    game = pyspiel.load_game(name, params)
    bot = ismcts.ISMCTSBot(game, StandingsEvaluator(), uct_c=2.0, max_simulations=3,
                           random_state=np.random.RandomState(0))
    s = _play(game, bot, 0)
    assert sorted(s.returns()) == [-1.0, 1.0] or s.returns() == [1.0, 1.0]


def test_mcts_plays_a_full_freight_game_against_random_bots():
    """Issue 33 (acceptance): OpenSpiel's MCTSBot plays a whole Freight game (tiny budget)."""
    game = pyspiel.load_game("python_rolling_freight", {"players": 2})
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=3, evaluator=StandingsEvaluator(),
                       random_state=np.random.RandomState(0))
    s = _play(game, bot, 1)
    assert s.is_terminal() and len(s.returns()) == 2


def test_rl_environment_uses_the_information_state_tensor():
    """Issue 33 item 2: rl_environment.Environment (NFSP, DQN, policy gradients) gets the
    information state tensor by default and plays a game to its end."""
    game = pyspiel.load_game("python_rolling_stars", {"players": 2})
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=3))
    assert env.observation_spec()["info_state"] == (I.STARS_INFO.size,)
    rng = np.random.default_rng(3)
    ts = env.reset()
    steps = 0
    while not ts.last():
        p = ts.observations["current_player"]
        assert len(ts.observations["info_state"][p]) == I.STARS_INFO.size
        ts = env.step([int(rng.choice(ts.observations["legal_actions"][p]))])
        steps += 1
    assert steps > 10 and sum(ts.rewards) == 0


# ------------------------------------------------------------------ item 3: utilities


@pytest.mark.parametrize("name,params,utility,total", [
    ("python_rolling_stars", {"players": 3}, "ZERO_SUM", 0.0),
    ("python_rolling_stars", {"players": 4, "variants": "two-handed"}, "ZERO_SUM", 0.0),
    ("python_rolling_stars", {"players": 5, "edition": "v2.2"}, "ZERO_SUM", 0.0),
    ("python_rolling_stars", {"players": 3, "reward": "score"}, "GENERAL_SUM", None),
    ("python_rolling_freight", {"players": 3}, "GENERAL_SUM", None),
    ("python_rolling_freight", {"players": 3, "reward": "score"}, "GENERAL_SUM", None),
    ("python_rolling_market", {}, "GENERAL_SUM", None),
], ids=lambda v: str(v))
def test_declared_utility_holds_in_random_games(name, params, utility, total):
    """Issue 33 item 3: each game and reward declares what is true: Stars with the rank reward is
    zero-sum (ties broken, Game sequence; two-handed +1/+1/-1/-1) and random games' returns sum to
    0; the others are general-sum (Freight's rank reward lets tied seats share a rank)."""
    game = pyspiel.load_game(name, params)
    assert game.get_type().utility == getattr(pyspiel.GameType.Utility, utility)
    if total is None:
        return
    assert game.utility_sum() == total
    for seed in range(3):
        rng = np.random.default_rng(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            _random_step(s, rng)
        assert sum(s.returns()) == pytest.approx(total)


def test_research_doc_has_the_information_state_tables():
    """Issue 33 item 2: docs/research.md documents the tensors index by index (the layouts' own tables)."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    assert I.STARS_INFO.table() in doc and I.FREIGHT_INFO.table() in doc
    assert f"information_state_tensor_shape() == [{I.STARS_INFO.size}]" in doc
    assert f"Freight (`[{I.FREIGHT_INFO.size}]`)" in doc
    assert "MCTSBot cheats; ISMCTSBot does not" in doc
