"""The learned evaluation of Rolling Freight (rolling.bots.freight_value) and the search bot that
scores its playouts with it (bot:vsearch), issue 34 "A learned evaluation".

Hidden in Rolling Freight are only the order of the contract and improvement decks and the dice and
cargo to come ("Setting Up the Game Board"; H: Rolling Your Dice): none may change the evaluation.
"""

from __future__ import annotations

import time
from importlib import resources

import pytest

from rolling.bots import make_bot, value
from rolling.bots.freight import FreightHeuristicBot
from rolling.bots.freight_search import FreightSearch
from rolling.bots.freight_value import FEATURES, MODEL_FILE, evaluate, model
from rolling.core.rng import Rng
from rolling.games.freight import Config, new_game


def heuristic_until(map_name: str, players: int, seed: int, done):
    st = new_game(Config(map_name, players), seed)
    bots = [FreightHeuristicBot(k) for k in range(players)]
    while not st.is_over and not done(st):
        seat = st.to_act[0]
        st.apply(bots[seat].choose(st, seat))
    return st


def test_model_ships_small_and_loads_fast():
    """Issue 34: at most 5 MB in the package, loaded in under a second."""
    assert len(resources.files("rolling.bots.data").joinpath(MODEL_FILE).read_bytes()) <= 5 * 1024 * 1024
    model.cache_clear()
    t = time.perf_counter()
    assert model().names == FEATURES
    assert time.perf_counter() - t < 1.0


@pytest.mark.parametrize("map_name,players", [("west-coast", 2), ("west-coast", 3), ("southern", 5)])
def test_evaluation_is_a_distribution_over_the_seats(map_name, players):
    st = heuristic_until(map_name, players, 5, lambda s: s.turn >= 12)
    p = evaluate(st, 0)
    assert len(p) == players and all(0.0 <= x <= 1.0 for x in p) and sum(p) == pytest.approx(1.0)
    assert all(evaluate(st, k) == p for k in range(players))
    assert value.evaluate(st, 0) == p  # the one function for both games
    with pytest.raises(TypeError):
        value.evaluate(object(), 0)


def test_more_stock_is_rated_higher():
    st = heuristic_until("west-coast", 3, 2, lambda s: s.turn >= 15)
    before = evaluate(st, 0)
    st.players[1].stock += 15
    after = evaluate(st, 0)
    assert after[1] > before[1] and after[0] < before[0] and after[2] < before[2]


def test_hidden_order_and_dice_do_not_change_it():
    """The search's determinizations reorder both decks and reseed the dice and cargo: the
    evaluation stays the same."""
    st = heuristic_until("west-coast", 3, 3, lambda s: s.phase == 1 and s.stage == "turn")
    seat = st.to_act[0]
    p = evaluate(st, seat)
    game = FreightSearch(seat, 0)
    rng = Rng(4)
    orders = set()
    for _ in range(6):
        d = game.determinize(st, seat, rng)
        orders.add((tuple(d.contract_deck), tuple(d.improvement_deck)))
        assert evaluate(d, seat) == p
    assert len(orders) > 1


def test_finished_game_gives_the_winners_certainty():
    st = heuristic_until("west-coast", 2, 6, lambda s: False)
    p = evaluate(st, 0)
    top = [r["seat"] for r in st.standings() if r["rank"] == 1]
    assert sum(p) == 1.0 and all(p[k] == 1.0 / len(top) for k in top)


def play(seed: int, stop_turn: int | None):
    st = new_game(Config("west-coast", 2), seed)
    bots = [make_bot("freight", "vsearch:2", seed), make_bot("freight", "heuristic", seed + 1)]
    mine = []
    while not st.is_over and (stop_turn is None or st.turn < stop_turn):
        seat = st.to_act[0]
        a = bots[seat].choose(st, seat)
        if seat == 0:
            mine.append(a)
        st.apply(a)
    return st, mine


def test_vsearch_plays_a_whole_game_deterministically():
    """Issue 34: bot:vsearch plays a whole game with a small iteration budget; the same seed and
    budget give the same moves."""
    st, a = play(9, None)
    assert st.is_over and len(a) > 20
    _, b = play(9, 12)
    assert b == a[:len(b)] and len(b) > 5
