"""The Rolling Stock Stars search bot (bot:search): ISMCTS over the heuristic (issue 16).

Hidden information is the Deck (canonical rules, Setup: "shuffle, draw k, add the highest,
shuffle", by colour); the variant open companies (002, 3.3) opens it; with secret private money
(002, 3.2) cash is "perfectly trackable" and so not resampled.
"""

from __future__ import annotations

import pytest

from rolling.bots import default_names, make_bot, resolve_bot
from rolling.bots.base import SeatError
from rolling.bots.ismcts import Budget, parse_budget
from rolling.bots.stars_search import StarsSearch, StarsSearchBot, margin_reward
from rolling.core.rng import Rng
from rolling.games.stars import Config, new_game
from rolling.games.stars import data as D
from rolling.games.stars.state import GONE, IN_DECK
from rolling.sim.stars import pick_seat


def play(config: Config, seed: int, search_seat: int, budget: str = "1", stop_turn: int | None = None):
    """Play one game (or up to ``stop_turn``): the search bot in ``search_seat``, heuristics
    elsewhere. Returns the state and the search bot's actions."""
    s = new_game(config, seed)
    bots = {k: make_bot("stars", "heuristic", seed=k) for k in range(config.players)}
    bots[search_seat] = make_bot("stars", f"search:{budget}", seed=seed)
    mine = []
    last = 0
    while not s.is_over and (stop_turn is None or s.turn < stop_turn):
        seat = pick_seat(s, last)
        last = seat
        before = s.digest()
        a = bots[seat].choose(s, seat)
        assert s.digest() == before, "choosing must not change the game"
        if seat == search_seat:
            mine.append(a)
        s.apply(a)  # raises IllegalAction on an illegal action
    return s, mine


def mid_game(seed: int = 3, turn: int = 4, variants: tuple[str, ...] = ()):
    s = new_game(Config(players=4, variants=variants), seed)
    bot = make_bot("stars", "heuristic")
    last = 0
    while s.turn < turn:
        seat = pick_seat(s, last)
        last = seat
        s.apply(bot.choose(s, seat))
    return s


@pytest.mark.parametrize(
    "config",
    [
        Config(players=4),
        Config(players=3, edition="v2.2"),
        Config(players=4, variants=("open-companies",)),
        Config(players=4, variants=("secret-money",)),
        Config(players=4, variants=("deals",)),
        Config(players=4, variants=("two-handed",)),
    ],
    ids=["stars-4p", "v2.2-3p", "open-companies", "secret-money", "deals", "two-handed"],
)
def test_search_plays_whole_games_of_every_variant(config):
    """Issue 16: the search bot with a tiny budget plays a whole game of each edition and variant
    without an illegal action (apply raises on one), and the game ends."""
    s, mine = play(config, seed=11, search_seat=1)
    assert s.is_over
    assert mine


def test_fixed_seed_and_iterations_give_the_same_game():
    """A budget in iterations is deterministic: same seed, same actions."""
    _, a = play(Config(players=4), seed=5, search_seat=0, budget="3", stop_turn=3)
    _, b = play(Config(players=4), seed=5, search_seat=0, budget="3", stop_turn=3)
    assert a == b and len(a) > 10


def test_determinize_redeals_the_deck_from_unseen_companies_only():
    """Setup: the Deck holds, per colour, the colour's highest company and k others; its colours
    and size are public, its companies are not. A determinization keeps everything public and
    redeals each colour from the companies the seat has not seen."""
    s = mid_game()
    seat = 0
    game = StarsSearch(seat)
    game.observe(s)
    before = s.digest()
    public = s.view(seat)
    changed = False
    for k in range(20):
        d = game.determinize(s, seat, Rng(k))
        assert s.digest() == before
        assert d.view(seat) == public
        assert len(d.deck) == len(s.deck)
        assert [D.COLOR[i] for i in d.deck] == [D.COLOR[i] for i in s.deck]
        for i in d.deck:
            assert not game.seen >> i & 1
            assert d.company_owner[i] == IN_DECK
        for color in {D.COLOR[i] for i in s.deck}:
            if not game.seen >> D.HIGHEST[color] & 1:
                assert D.HIGHEST[color] in d.deck
        assert sum(1 for o in d.company_owner if o == IN_DECK) == len(s.deck)
        assert all(d.company_owner[i] == s.company_owner[i] for i in range(D.N_COMPANIES)
                   if s.company_owner[i] not in (IN_DECK, GONE))
        changed |= d.deck != s.deck
    assert changed


def test_open_companies_keep_the_deck():
    """002, 3.3 open companies: the Deck is open, so nothing is resampled."""
    s = mid_game(variants=("open-companies",))
    game = StarsSearch(0)
    game.observe(s)
    assert game.determinize(s, 0, Rng(1)).deck == s.deck


def test_secret_money_keeps_cash():
    """002, 3.2: private money is "perfectly trackable", so cash is never resampled."""
    s = mid_game(variants=("secret-money",))
    game = StarsSearch(0)
    game.observe(s)
    assert game.determinize(s, 0, Rng(1)).cash == s.cash


def test_reason_names_alternatives_with_visits():
    """The reason shown in the terminal and the web log: top alternatives, visits and values."""
    s = mid_game()
    bot = StarsSearchBot(seed=1, budget="12")
    seat = s.to_act[0]
    a = bot.choose(s, seat)
    res = bot.last_result
    assert res is not None and res.iterations == 12
    assert a == res.best
    assert sum(v for _, _, v, _ in res.ranked) == 12
    assert bot.last_reason.startswith("search (12 iterations")
    assert bot.last_reason.count("visits") == min(3, len(res.ranked))


def test_candidates_put_the_heuristic_first_and_stay_few():
    """Large action spaces: a few candidates, the heuristic's choice first."""
    s = mid_game()
    seat = s.to_act[0]
    game = StarsSearch(seat)
    heuristic = make_bot("stars", "heuristic")
    cands = game.candidates(s, seat, make_bot("stars", "heuristic"))
    assert cands[0][1] == heuristic.choose(s, seat)
    assert 1 <= len(cands) <= 8
    assert len({k for k, _ in cands}) == len(cands)


def test_margin_reward():
    """The reward is a logistic of the margin over the best other seat."""
    assert margin_reward([100.0, 100.0, 50.0], 0, 25.0) == pytest.approx(0.5)
    assert margin_reward([150.0, 100.0, 50.0], 0, 25.0) > 0.8
    assert margin_reward([50.0, 100.0, 150.0], 0, 25.0) < 0.02


@pytest.mark.parametrize(("text", "budget"), [("2000", Budget(iterations=2000)), ("1s", Budget(seconds=1.0)),
                                              ("0.2s", Budget(seconds=0.2)), ("200ms", Budget(seconds=0.2))])
def test_budgets(text, budget):
    """bot:search:2000 (iterations) and bot:search:1s (seconds per decision)."""
    assert parse_budget(text) == budget


@pytest.mark.parametrize("text", ["", "fast", "0", "0s", "1.5", "-1s", "2 s",
                                  "٣", "٣s", "1.٥s", "²"])  # issue 28 item 3: ASCII digits only
def test_bad_budgets_are_refused(text):
    with pytest.raises(SeatError):
        parse_budget(text)


def test_seat_vocabulary():
    """bot:search:0.2s is a seat word; its budget is kept in canonical form; others take none."""
    assert resolve_bot("stars", "bot:search:0.2s") == "search:0.2s"
    assert resolve_bot("stars", "Search:200ms") == "search:0.2s"
    assert resolve_bot("freight", "bot:search:2000") == "search:2000"
    assert isinstance(make_bot("stars", "bot:search:50", seed=1), StarsSearchBot)
    assert make_bot("stars", "search:50").budget == Budget(iterations=50)
    with pytest.raises(SeatError, match="takes no budget"):
        resolve_bot("stars", "heuristic:2")
    assert default_names(["search:0.2s", "heuristic"]) == ["Search 1", "Heuristic 2"]
