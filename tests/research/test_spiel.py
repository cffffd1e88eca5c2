"""Issue 15: the OpenSpiel games, checked with OpenSpiel's own random simulation test (clones,
serialization, observations) and played by OpenSpiel's MCTS bot."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402
from spiel_helpers import StandingsEvaluator  # noqa: E402

import rolling.spiel  # noqa: E402,F401 - registers the games
from rolling.games.stars import data as D  # noqa: E402


def _deal(game, rng):
    """Apply random chance outcomes until the first decision; returns the state."""
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(int(rng.integers(len(s.chance_outcomes()))))
    return s


def test_market_random_simulations():
    game = pyspiel.load_game("python_rolling_market")
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2},
        {"players": 3, "variants": "secret-money", "reward": "score"},
        {"players": 4, "variants": "two-handed+open-companies"},
        {"players": 5, "edition": "v2.2", "variants": "deals"},
        {"players": 6},
        {"players": 3, "variants": "deals+secret-money"},
        {"players": 6, "variants": "deals"},
    ],
    ids=lambda p: f"{p['players']}p-{p.get('variants', '')}",
)
def test_stars_random_simulations(params):
    game = pyspiel.load_game("python_rolling_stars", params)
    assert game.num_players() == params["players"]
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("params", [{"players": 2, "map": "west-coast"}, {"players": 5, "map": "southern", "reward": "score"}])
def test_freight_random_simulations(params):
    game = pyspiel.load_game("python_rolling_freight", params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_games_load_from_strings_and_refuse_bad_parameters():
    game = pyspiel.load_game("python_rolling_stars(players=3,variants=secret-money+deals,edition=v2.2)")
    assert game.num_players() == 3
    assert pyspiel.load_game("python_rolling_freight(map=southern,players=5)").num_players() == 5
    for name, params in [
        ("python_rolling_stars", {"players": 7}),
        ("python_rolling_stars", {"variants": "fast"}),
        ("python_rolling_stars", {"reward": "money"}),
        ("python_rolling_freight", {"map": "moon"}),
        ("python_rolling_freight", {"map": "west-coast", "players": 5}),
    ]:
        with pytest.raises(Exception, match="players|variant|reward|map"):
            pyspiel.load_game(name, params)


def test_market_chance_nodes_are_the_dice():
    """Each chance node is one die: six outcomes of probability 1/6; outcome k shows face k + 1."""
    game = pyspiel.load_game("python_rolling_market")
    s = game.new_initial_state()
    chosen = []
    while s.is_chance_node():
        outcomes = s.chance_outcomes()
        assert outcomes == [(k, pytest.approx(1 / 6)) for k in range(6)]
        k = len(chosen) % 6
        chosen.append(k)
        s.apply_action(k)
    # four fluctuation dice and the volatility die (a 1 or 6 closes the market and rolls again)
    dice = s.table.state.dice
    assert list(dice) == [k + 1 for k in chosen[-5:]]


def test_stars_deal_is_a_valid_deck_whatever_the_outcomes():
    game = pyspiel.load_game("python_rolling_stars", {"players": 3})
    for seed in range(5):
        rng = np.random.default_rng(seed)
        s = game.new_initial_state()
        nodes = 0
        while s.is_chance_node():
            n = len(s.chance_outcomes())
            assert 1 <= n <= D.N_COMPANIES
            assert sum(p for _, p in s.chance_outcomes()) == pytest.approx(1)
            s.apply_action(int(rng.integers(n)))
            nodes += 1
        st = s.table.state
        dealt = st.deck + st.offering
        for colour in range(len(D.COLORS)):
            mine = [i for i in dealt if D.COLOR[i] == colour]
            k = D.DECK_DRAWN[3][colour]
            assert D.HIGHEST[colour] in mine
            assert len(mine) == (k + 1 if k >= 0 else len(D.DECK_ORDER[colour]))
        assert sorted(st.order) == [0, 1, 2]
        assert nodes > 10


def _blue_start(players: int) -> int:
    """How many chance draws deal the red to green companies (the blue ones, dealt last, lie at the
    bottom of the deck): per colour ``k`` picks and ``k`` draws of the shuffle of the ``k + 1``."""
    total = 0
    for colour in range(len(D.COLORS) - 1):
        k = D.DECK_DRAWN[players][colour]
        picks = k if k >= 0 else 0
        kept = (k if k >= 0 else len(D.DECK_ORDER[colour]) - 1) + 1
        total += picks + kept - 1
    return total


def _stars_pair(variants: str):
    """Two dealt games that differ only in the order of the blue companies at the deck's bottom."""
    game = pyspiel.load_game("python_rolling_stars", {"players": 3, "variants": variants})
    a, b = game.new_initial_state(), game.new_initial_state()
    k = 0
    while a.is_chance_node():
        a.apply_action(0)
        b.apply_action(1 if k == _blue_start(3) else 0)
        k += 1
    assert not b.is_chance_node()
    return a, b


def test_stars_observations_hide_the_deck_order_unless_open_companies():
    a, b = _stars_pair("")
    assert a.table.state.deck != b.table.state.deck
    assert a.table.state.deck[-1] == b.table.state.deck[-1]
    for p in range(3):
        assert a.observation_string(p) == b.observation_string(p)
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.observation_tensor(p) == b.observation_tensor(p)
    a, b = _stars_pair("open-companies")
    assert a.observation_string(0) != b.observation_string(0)


def test_secret_money_hides_cash_in_observations():
    game = pyspiel.load_game("python_rolling_stars", {"players": 3, "variants": "secret-money"})
    s = _deal(game, np.random.default_rng(0))
    t = np.array(s.observation_tensor(0))
    from rolling.research.stars_codec import OBS

    assert list(t[OBS["cash_visible"]][:3]) == [1, 0, 0]
    assert list(t[OBS["cash"]][1:3]) == [0, 0]


def _play_market(bot, seed: int) -> float:
    chance = np.random.default_rng(seed)
    policy = np.random.default_rng(seed + 1000)
    game = pyspiel.load_game("python_rolling_market")
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(int(chance.integers(len(s.chance_outcomes()))))
        elif bot is None:
            s.apply_action(int(policy.choice(s.legal_actions())))
        else:
            s.apply_action(bot.step(s))
    return s.returns()[0]


def test_mcts_plays_rolling_market_better_than_random():
    game = pyspiel.load_game("python_rolling_market")
    bot = mcts.MCTSBot(game, uct_c=20.0, max_simulations=30,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(1))
    seeds = range(3)
    mcts_cash = [_play_market(bot, k) for k in seeds]
    random_cash = [_play_market(None, k) for k in seeds]
    assert sum(mcts_cash) > sum(random_cash), (mcts_cash, random_cash)


def test_mcts_plays_a_short_stars_game_to_the_end():
    game = pyspiel.load_game("python_rolling_stars", {"players": 2})
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=6, evaluator=StandingsEvaluator(),
                       random_state=np.random.RandomState(0))
    rng = np.random.default_rng(3)
    s = game.new_initial_state()
    decisions = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(int(rng.integers(len(s.chance_outcomes()))))
        elif s.current_player() == 0:
            action = bot.step(s)
            assert action in s.legal_actions()
            s.apply_action(action)
            decisions += 1
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
    assert decisions >= 3
    assert sorted(s.returns()) == [-1.0, 1.0]


def test_stars_deals_are_built_and_answered_through_pyspiel():
    """Variant deals: random play preferring the deal indices; the states in the middle of building a
    deal or with deals open survive OpenSpiel's cloning and serialization unchanged."""
    from rolling.research import stars_codec as S

    game = pyspiel.load_game("python_rolling_stars", {"players": 4, "variants": "deals"})
    proposed = answered = checked = 0
    for seed in range(12):
        rng = np.random.default_rng(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(int(rng.integers(len(s.chance_outcomes()))))
                continue
            legal = np.array(s.legal_actions())
            deal = legal[(legal >= S.ADD_PURCHASE) & (legal < S.AMOUNT0)]
            finish = deal[(deal == S.PROPOSE_DEAL) | (deal > S.DISCARD_DEAL)]  # propose, answer
            pool = finish if finish.size and rng.random() < 0.8 else deal
            action = int(rng.choice(pool if pool.size and rng.random() < 0.7 else legal))
            proposed += action == S.PROPOSE_DEAL
            answered += S.DISCARD_DEAL < action < S.AMOUNT0
            s.apply_action(action)
            if s.is_terminal() or not (s.table.deal or s.table.state.deals):
                continue
            checked += 1
            for other in (s.clone(), pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, s))[1]):
                assert str(other) == str(s)
                assert other.current_player() == s.current_player()
                assert other.legal_actions() == s.legal_actions()
                p = s.current_player()
                assert other.information_state_string(p) == s.information_state_string(p)
                assert other.observation_tensor(p) == s.observation_tensor(p)
    assert proposed >= 2 and answered >= 1 and checked >= 10, (proposed, answered, checked)


def test_building_a_deal_is_private_until_it_is_proposed():
    """Variant deals: the steps of building a deal show in the builder's information state only; the
    others see ``pN:private`` for them, and the proposal itself as a public move."""
    from rolling.research import stars_codec as S

    game = pyspiel.load_game("python_rolling_stars", {"players": 3, "variants": "deals"})
    for seed in range(40):
        rng = np.random.default_rng(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(int(rng.integers(len(s.chance_outcomes()))))
                continue
            legal = np.array(s.legal_actions())
            adds = legal[(legal >= S.ADD_PURCHASE) & (legal < S.PROPOSE_DEAL)]
            if adds.size and s.table.deal is None:
                builder = s.current_player()
                step = int(adds[0])
                s.apply_action(step)
                others = [p for p in range(3) if p != builder]
                assert f"p{builder}:{step}" in s.information_state_string(builder)
                for p in others:
                    text = s.information_state_string(p)
                    assert f"p{builder}:{step}" not in text and f"p{builder}:private" in text
                while s.current_player() == builder and s.table.deal is not None or (
                        s.table.pending is not None and s.table.pending[0] == builder):
                    legal = s.legal_actions()
                    s.apply_action(S.PROPOSE_DEAL if S.PROPOSE_DEAL in legal else int(legal[0]))
                for p in others:
                    assert "private" in s.information_state_string(p)
                if s.history()[-1] == S.PROPOSE_DEAL:
                    assert all(f"p{builder}:{S.PROPOSE_DEAL}" in s.information_state_string(p) for p in others)
                return
            s.apply_action(int(rng.choice(legal)))
    pytest.fail("no deal was started in 40 random games")


def test_two_handed_returns_follow_the_person_who_wins():
    """Issue 28 item 4 (001, Two-player two-handed variant: "To win, your lower ranked simulated
    player must be better than the lower ranked simulated player of your opponent"): OpenSpiel's
    returns are +1 for both hands of the winning person, -1 for the other two, also in a game where
    the best single hand belongs to the person who loses."""
    hands = {"A": (0, 3), "B": (1, 2)}
    game = pyspiel.load_game("python_rolling_stars", {"players": 4, "variants": "two-handed"})
    best_hand_lost = 0
    for seed in range(6):
        rng = np.random.default_rng(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(int(rng.integers(len(s.chance_outcomes()))))
            else:
                s.apply_action(int(rng.choice(s.legal_actions())))
        rank = {r["seat"]: r["rank"] for r in s.table.state.standings()}
        winner = min(hands, key=lambda person: max(rank[p] for p in hands[person]))
        assert s.returns() == [1.0 if p in hands[winner] else -1.0 for p in range(4)]
        best_hand_lost += min(rank, key=rank.get) not in hands[winner]
    assert best_hand_lost >= 1
