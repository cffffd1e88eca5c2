"""Editions and variants."""

from rolling.games.stars import Config, new_game
from rolling.games.stars import data as D

from .conftest import blank, corp


def test_v22_edition_uses_the_old_corporation_names():
    """Rules README: Prussian Railway = Jupiter, Doppler AG = Saturn, ..., same abilities and shares."""
    s = new_game(Config(players=3, edition="v2.2"), 1)
    assert [s.corp_name(c) for c in range(8)] == ["Jupiter", "Saturn", "Horse", "Bear", "Star", "Eagle", "Ship", "Orion"]
    assert D.CORP_SHARES[D.CORP_INDEX["S"]] == 7


def test_open_companies_shows_the_deck_order():
    """Open companies variant: the deck is open for inspection."""
    s = new_game(Config(players=4, variants=("open-companies",)), 2)
    assert s.view(0)["deck"] == [D.CODES[i] for i in reversed(s.deck)]
    assert "deck" not in new_game(Config(players=4), 2).view(0)


def test_secret_money_hides_other_players_cash():
    """Secret private money variant: each player sees only their own cash."""
    s = new_game(Config(players=4, variants=("secret-money",)), 2)
    cash = {p["seat"]: p["cash"] for p in s.view(1)["players"]}
    assert cash[1] == 30 and all(cash[p] is None for p in cash if p != 1)


def test_two_handed_variant_seats_and_winner():
    """Two-player two-handed variant: four seats; A holds positions 1 and 4, B 2 and 3; the person whose
    lower-ranked seat is better wins."""
    s = new_game(Config(players=4, variants=("two-handed",)), 3)
    assert s.order == [0, 1, 2, 3]
    rows = s.standings()
    assert {r["seat"]: r["hand"] for r in rows} == {0: "A", 1: "B", 2: "B", 3: "A"}
    t = blank(4, variants=("two-handed",))
    t.cash = [100, 50, 49, 10]  # A: ranks 1 and 4; B: ranks 2 and 3 -> B wins
    from rolling.games.stars.state import two_handed_winner

    assert two_handed_winner(t.standings()) == "B"


def test_view_shows_what_a_player_sees_at_the_table():
    s = blank(3)
    corp(s, "PR", ["MHE", "KME"], 11, cash=14, holders={0: 1})
    v = s.view(2)
    assert v["corporations"][0]["synergies"] == [["KME", "MHE", 1]]
    assert v["players"][0]["cash"] == 30
