"""Canonical rules, Setup."""

import pytest

from rolling.core.errors import RecordError
from rolling.games.stars import Config, new_game
from rolling.games.stars import data as D
from rolling.games.stars.setup import SiteRandom, build_deck


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_cash_and_foreign_investor(players):
    """Setup: each player receives $30 ($25 with six players); the foreign investor $4."""
    s = new_game(Config(players=players), 7)
    assert s.cash == [25 if players == 6 else 30] * players
    assert s.fi_cash == 4


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_deck_counts_per_color(players):
    """Setup: per colour the highest company plus n companies (4p: 5 orange, 5p: 7 orange, 6p: all)."""
    s = new_game(Config(players=players), 11)
    cards = s.deck + s.offering
    for color in range(5):
        total = sum(1 for c in range(D.N_COMPANIES) if D.COLOR[c] == color)
        want = total if players == 6 else players + 1
        if players == 4 and color == D.ORANGE:
            want = 6
        if players == 5 and color == D.ORANGE:
            want = 8
        assert sum(1 for i in cards if D.COLOR[i] == color) == want
        assert D.HIGHEST[color] in cards, "each colour's highest company is always in the deck"


def test_setup_deck_colors_stacked_red_on_top():
    """Setup: red on top, then orange, yellow, green, blue above the game end card (7 side up)."""
    s = new_game(Config(players=4), 3)
    top_first = s.offering + s.deck[::-1]
    colors = [D.COLOR[i] for i in top_first]
    assert colors == sorted(colors)
    assert not s.end_flipped


def test_setup_offering_has_one_company_per_player_all_available():
    """Setup: draw and reveal as many companies as players; they are available for auctions."""
    s = new_game(Config(players=5), 2)
    assert len(s.offering) == 5 and s.unavailable == 0


def test_setup_player_order_is_random_from_the_seed():
    """Setup: a random player order card for each player; the same seed gives the same order."""
    orders = {tuple(new_game(Config(players=4), seed).order) for seed in range(30)}
    assert len(orders) > 5
    assert new_game(Config(players=4), 9).order == new_game(Config(players=4), 9).order


def test_setup_share_price_row_and_charters():
    """Setup: 27 share price cards from $0 to $75, all free; eight charters unused."""
    s = new_game(Config(players=3), 1)
    assert len(D.PRICES) == 27 and D.PRICES[0] == 0 and D.PRICES[-1] == 75
    assert all(o < 0 for o in s.card_owner) and not any(s.corp_active)
    assert sorted(D.CORP_SHARES) == [4, 4, 5, 5, 6, 6, 7, 7] and sum(D.CORP_SHARES) == 44


@pytest.mark.parametrize("players", [1, 7])
def test_setup_player_count_limits(players):
    """001: Rolling Stock Stars is "a card game for two to six players"; the error names that range."""
    with pytest.raises(RecordError, match="Rolling Stock Stars is for 2 to 6 players"):
        new_game(Config(players=players), 0)


@pytest.mark.parametrize("players", [2, 7])
def test_setup_v22_is_for_three_to_six_players(players):
    """000: Rolling Stock v2.2 is "a card game for three to six players"; the error names its range."""
    with pytest.raises(RecordError, match=r"v2\.2\) is for 3 to 6 players, not " + str(players)):
        new_game(Config(players=players, edition="v2.2"), 0)
    assert new_game(Config(players=3, edition="v2.2"), 0).n == 3


def test_setup_plain_two_player_game_needs_no_option():
    """001, Introduction: "a card game for two to six players" ... "Playing with two players is a
    good way to learn the game" (the two-handed variant is only for "more variety"). Setup for two:
    $30 each; per colour the highest company and two more ("a number of companies ... equal to the
    number of players"); an offering of two companies."""
    s = new_game(Config(players=2), 4)
    assert s.cash == [30, 30] and s.fi_cash == 4
    assert sorted(s.order) == [0, 1]
    assert len(s.offering) == 2 and s.unavailable == 0
    assert len(s.deck) + len(s.offering) == 5 * 3
    assert s.config.compat == () and s.config.variants == ()


def test_site_random_numbers():
    """18xx.games compatibility: x0 = seed mod 2^31, x <- (1103515245 x + 12345) mod 2^31."""
    r = SiteRandom(1)
    assert r() == (1103515245 + 12345) % 2**31
    assert SiteRandom(2**31 + 5).x == 5


def test_build_deck_is_a_shuffle_that_keeps_the_highest():
    deck = build_deck(3, SiteRandom(42))
    assert len(deck) == 5 * 4
    assert len(set(deck)) == len(deck)
