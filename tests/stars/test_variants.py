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


def test_two_handed_standings_mark_both_hands_of_the_winner():
    """Issue 28 item 4; 001, Two-player two-handed variant: "To win, your lower ranked simulated
    player must be better than the lower ranked simulated player of your opponent." The best single
    hand (seat 0, rank 1) belongs to A, whose other hand is last: B's two hands win, A's lose."""
    t = blank(4, variants=("two-handed",))
    t.cash = [100, 50, 49, 10]
    rows = {r["seat"]: r for r in t.standings()}
    assert [rows[p]["rank"] for p in range(4)] == [1, 2, 3, 4]  # the four-player final ranking stands
    assert {p: rows[p]["win"] for p in range(4)} == {0: False, 1: True, 2: True, 3: False}
    # the rules break a tie of scores by player order, so the lower-ranked hands never tie
    t.cash = [50, 10, 50, 10]  # A: seats 0 and 3 rank 1 and 4 (order); B: 2 and 3
    rows = {r["seat"]: r for r in t.standings()}
    assert [rows[p]["rank"] for p in range(4)] == [1, 3, 2, 4]
    assert [p for p in range(4) if rows[p]["win"]] == [1, 2]
    t.order = [3, 2, 1, 0]  # the tie-break now puts A's seat 3 before B's seat 1
    assert [r["seat"] for r in t.standings() if r["win"]] == [0, 3]


def test_without_two_handed_the_first_place_alone_wins():
    t = blank(4)
    t.cash = [100, 50, 49, 10]
    assert [r["win"] for r in t.standings()] == [True, False, False, False]
    assert all("hand" not in r for r in t.standings())


def test_two_handed_secret_money_shows_a_person_both_hands_cash():
    """Issue 28 item 4: with secret money a person holding two hands sees both hands' cash (002,
    3.2 keeps cash secret from the *other* players); the other person's cash stays hidden."""
    s = new_game(Config(players=4, variants=("two-handed", "secret-money")), 2)
    s.cash = [31, 32, 33, 34]
    for seat, partner in ((0, 3), (3, 0), (1, 2), (2, 1)):
        cash = {p["seat"]: p["cash"] for p in s.view(seat)["players"]}
        worth = {p["seat"]: p["worth"] for p in s.view(seat)["players"]}
        assert cash == {p: (31 + p if p in (seat, partner) else None) for p in range(4)}
        assert all((worth[p] is None) == (p not in (seat, partner)) for p in range(4))
    assert all(p["cash"] is None for p in s.view(None)["players"])


def test_two_handed_secret_money_log_shows_a_person_both_hands_private_lines():
    """Issue 28 item 4: the log lines that tell a hand's cash reach its partner hand, not the other person."""
    from rolling.games.stars.events import sees
    from rolling.games.stars.view import cash_audience

    s = new_game(Config(players=4, variants=("two-handed", "secret-money")), 2)
    for p, partner in ((0, 3), (1, 2)):
        audience = cash_audience(s, p)
        assert sees(audience, p) and sees(audience, partner)
        assert not any(sees(audience, q) for q in range(4) if q not in (p, partner))
        assert not sees(audience, None)


def test_view_shows_what_a_player_sees_at_the_table():
    s = blank(3)
    corp(s, "PR", ["MHE", "KME"], 11, cash=14, holders={0: 1})
    v = s.view(2)
    assert v["corporations"][0]["synergies"] == [["KME", "MHE", 1]]
    assert v["players"][0]["cash"] == 30


def test_heuristic_bot_ends_a_two_handed_game_at_75_only_if_its_person_wins():
    """Issue 28 item 4: the heuristic bot buys the share that ends the game (Buy One Share at $75) only
    to win; in the two-handed variant a win is its person's (001: the lower-ranked hand decides), so
    ranking first with one hand while the other hand is last is no win."""
    from rolling.bots.stars_heuristic import StarsHeuristicBot
    from rolling.games.stars import BuyShare

    from .conftest import offer_up

    for variants, wins in (((), True), (("two-handed",), False)):
        s = blank(4, cash=[100, 30, 30, 0], variants=variants)
        offer_up(s, "BME")
        corp(s, "PR", ["MHE"], 68, issued=3, holders={0: 1})
        assert StarsHeuristicBot._wins_after(s, 0, BuyShare(0, "PR")) is wins
        t = s.clone()
        t.apply(BuyShare(0, "PR"))
        assert t.over and t.standings()[0]["seat"] == 0  # the best single hand either way


def test_search_bot_rewards_a_two_handed_hand_by_its_persons_lower_hand():
    """Issue 28 item 4: the search bot's reward follows the winner rule: at the end of a two-handed
    game where A's hand 0 ranks first and A's hand 3 last, both of A's hands score under 1/2 and
    both of B's over it (without the variant, seat 0 is the one over 1/2)."""
    from rolling.bots.stars_search import StarsSearch
    from rolling.games.stars import BuyShare

    from .conftest import offer_up

    for variants, winners in (((), {0}), (("two-handed",), {1, 2})):
        s = blank(4, cash=[100, 30, 30, 0], variants=variants)
        offer_up(s, "BME")
        corp(s, "PR", ["MHE"], 68, issued=3, holders={0: 1})
        s.apply(BuyShare(0, "PR"))
        assert s.over
        assert {p for p in range(4) if StarsSearch(p).reward(s, p) > 0.5} == winners
