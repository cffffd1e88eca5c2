"""The learned evaluation of Rolling Stock Stars (rolling.bots.value) and the search bot that
scores its playouts with it (bot:vsearch), issue 34 "A learned evaluation".

Hidden information (Glossary, Entity: "All assets are open for inspection by any Player at any
time"; hidden are the Deck's order and, with secret private money, 002 3.2, others' cash) must not
change the evaluation.
"""

from __future__ import annotations

import subprocess
import sys
import time
from importlib import resources

import numpy as np
import pytest

from rolling.bots import make_bot, resolve_bot
from rolling.bots.stars_search import StarsSearch
from rolling.bots.value import FEATURES, MODEL_FILE, TreeModel, evaluate, features, model
from rolling.core.rng import Rng
from rolling.games.stars import Config, new_game
from rolling.games.stars import data as D
from rolling.sim.stars import pick_seat


def advance(s, turn: int):
    bot = make_bot("stars", "heuristic")
    last = 0
    while not s.is_over and s.turn < turn:
        seat = pick_seat(s, last)
        last = seat
        s.apply(bot.choose(s, seat))
    return s


def test_model_ships_small_and_loads_fast():
    """Issue 34: the model ships in the package (at most 5 MB) and loads in under a second."""
    f = resources.files("rolling.bots.data").joinpath(MODEL_FILE)
    assert len(f.read_bytes()) <= 5 * 1024 * 1024
    model.cache_clear()
    t = time.perf_counter()
    m = model()
    assert time.perf_counter() - t < 1.0
    assert m.names == FEATURES and m.roots.size > 10


def test_runs_without_lightgbm():
    """Issue 34: the model runs with the base install: evaluating never imports LightGBM."""
    code = ("import sys; sys.modules['lightgbm'] = None\n"
            "from rolling.games.stars import Config, new_game\n"
            "from rolling.bots.value import evaluate\n"
            "p = evaluate(new_game(Config(players=4), 1), 0); assert abs(sum(p) - 1) < 1e-9, p\n")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_evaluation_is_a_distribution_over_the_seats(players):
    """Each seat gets a probability in [0, 1]; they sum to 1; every seat sees the same without
    secret money (nothing else is hidden that it reads)."""
    s = advance(new_game(Config(players=players), 21), 4)
    p = evaluate(s, 0)
    assert len(p) == players
    assert all(0.0 <= x <= 1.0 for x in p) and sum(p) == pytest.approx(1.0)
    for seat in range(1, players):
        assert evaluate(s, seat) == p


def test_richer_seat_is_rated_higher():
    """The evaluation follows the money: giving a seat $100 raises its chance and lowers the others'."""
    s = advance(new_game(Config(players=4), 5), 3)
    before = evaluate(s, 0)
    s.cash[2] += 100
    after = evaluate(s, 0)
    assert after[2] > before[2]
    assert all(after[k] < before[k] for k in (0, 1, 3))


def test_finished_game_gives_the_winner_certainty():
    s = advance(new_game(Config(players=3), 8), 10**6)
    assert s.is_over
    p = evaluate(s, 1)
    winner = next(r["seat"] for r in s.standings() if r["win"])
    assert p[winner] == 1.0 and sum(p) == 1.0


def test_deck_order_and_contents_do_not_change_it():
    """Setup deals the Deck face down: redealing it (other unseen companies of the same colours, in
    another order: the search's determinization) leaves the evaluation as it was."""
    s = advance(new_game(Config(players=4), 3), 3)
    assert len(s.deck) > 3
    p = evaluate(s, 1)
    game = StarsSearch(1)
    game.observe(s)
    for k in range(5):
        d = game.determinize(s, 1, Rng(k))
        assert d.deck != s.deck or k
        assert evaluate(d, 1) == p
    d = s.clone()
    # the same companies in another order within each colour (the colours' places are public)
    for color in range(len(D.COLORS)):
        places = [k for k, i in enumerate(d.deck) if D.COLOR[i] == color]
        for k, i in zip(places, reversed([d.deck[k] for k in places]), strict=True):
            d.deck[k] = i
    assert d.deck != s.deck
    assert evaluate(d, 1) == p


def test_secret_cash_of_another_does_not_change_it():
    """002, 3.2 secret private money: another player's cash is hidden from the viewer, so changing
    it changes nothing the viewer's evaluation says; the viewer's own cash does count, and without
    the variant the same change is seen."""
    s = advance(new_game(Config(players=4, variants=("secret-money",)), 3), 3)
    p = evaluate(s, 0)
    d = s.clone()
    d.cash[2] += 137
    assert evaluate(d, 0) == p
    assert evaluate(d, 2) != evaluate(s, 2)  # the owner sees it
    d.cash[0] += 137
    assert evaluate(d, 0) != p
    public = advance(new_game(Config(players=4), 3), 3)
    q = public.clone()
    q.cash[2] += 137
    assert evaluate(q, 0) != evaluate(public, 0)


def test_features_name_every_column():
    s = advance(new_game(Config(players=5), 2), 2)
    x = features(s, 0)
    assert x.shape == (5, len(FEATURES)) and np.isfinite(x).all()


def test_tree_export_matches_lightgbm():
    """scripts/train_value.py's export: the numpy trees give LightGBM's own raw scores."""
    lgb = pytest.importorskip("lightgbm")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2000, 5))
    y = (x[:, 0] + x[:, 1] * x[:, 2] > 0).astype(float)
    booster = lgb.train({"objective": "binary", "num_leaves": 15, "verbose": -1, "seed": 1},
                        lgb.Dataset(x, y, feature_name=[f"f{k}" for k in range(5)]), num_boost_round=20)
    tree = TreeModel.from_lightgbm(booster.dump_model())
    assert np.allclose(tree.margin(x), booster.predict(x, raw_score=True))


def play(seed: int, budget: str, stop_turn: int | None):
    s = new_game(Config(players=4), seed)
    bots = {k: make_bot("stars", "heuristic", seed=k) for k in range(4)}
    bots[2] = make_bot("stars", f"vsearch:{budget}", seed=seed)
    mine = []
    last = 0
    while not s.is_over and (stop_turn is None or s.turn < stop_turn):
        seat = pick_seat(s, last)
        last = seat
        a = bots[seat].choose(s, seat)
        if seat == 2:
            mine.append(a)
        s.apply(a)
    return s, mine


def test_vsearch_plays_a_whole_game_deterministically():
    """Issue 34: the search bot with the learned evaluation (bot:vsearch) plays a whole game with a
    small iteration budget, and the same seed and budget give the same moves."""
    assert resolve_bot("stars", "bot:vsearch:0.2s") == "vsearch:0.2s"
    s, a = play(7, "2", None)
    assert s.is_over and len(a) > 20
    _, b = play(7, "2", 3)
    assert b == a[:len(b)] and len(b) > 10
